//! The lookups of the JSON API (docs/serve-api.md): each parses its request into boards and options
//! with the CLI's checks, asks the library, and writes the answer as JSON. Each answers in
//! milliseconds; the work runs on tokio's blocking threads, so a slow one never holds up others.

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use slidetable::game;
use slidetable::heuristic::Heuristic;
use slidetable::lab::joint;
use slidetable::puzzle::board::moves_letters;
use slidetable::{Board, Dir, Error, Goal, Shape};

use super::http::{ApiError, ClientId, JsonBody};
use super::space::{Space, MAX_CELLS};
use super::Server;

/// The default and the largest number of expansions of a recorded A*.
pub const ASTAR_DEFAULT_EXPANSIONS: usize = 2_000;
/// The largest number of expansions of a recorded A*.
pub const ASTAR_MAX_EXPANSIONS: usize = 20_000;

/// The heuristics a position is estimated with, in the page's order: name, label, admissible.
pub const HEURISTICS: [(&str, &str, bool); 5] = [
    ("hamming", "misplaced tiles (h1)", true),
    ("manhattan", "Manhattan distance (h2)", true),
    ("linear-conflict", "linear conflict", true),
    ("nilsson", "Nilsson's P + 3S", false),
    ("pdb", "pattern tables", true),
];

/// The shape a request names, read from the board where it does not, else 3x3.
pub fn shape_of(shape: Option<&str>, board: Option<&Value>) -> Result<Shape, Error> {
    if let Some(s) = shape {
        return Shape::parse(s);
    }
    match board {
        Some(Value::String(text)) => {
            if let Some(b) = cos226(text) {
                return Ok(b?.shape());
            }
            Board::square_shape_of(text).ok_or_else(|| {
                Error::BadBoard(slidetable::BoardError::BadFile(format!(
                    "cannot tell the shape of `{}` from its number of tiles: give `shape`, like \"3x4\"",
                    text.chars().take(60).collect::<String>()
                )))
            })
        }
        Some(Value::Array(cells)) => {
            let side = (cells.len() as f64).sqrt().round() as usize;
            if side * side == cells.len() {
                Shape::new(side, side)
            } else {
                Err(Error::BadOption(format!(
                    "{} cells is not a square board: give `shape`, like \"3x4\"",
                    cells.len()
                )))
            }
        }
        _ => Ok(Shape::EIGHT),
    }
}

/// A COS 226 file's board, when `text` looks like one (more than one line, the first a size).
fn cos226(text: &str) -> Option<Result<Board, Error>> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next()?;
    let sized = first.split_whitespace().count() <= 2 && first.split_whitespace().all(|t| t.parse::<u32>().is_ok());
    (sized && lines.next().is_some()).then(|| Board::parse_cos226(text))
}

/// The board of a request: the CLI's board text, a COS 226 file, or an array of numbers.
pub fn board_of(shape: Shape, value: &Value) -> Result<Board, Error> {
    let bad = |m: String| Error::BadOption(m);
    let board = match value {
        Value::String(text) => match cos226(text) {
            Some(b) => b?,
            None => Board::parse(shape, text)?,
        },
        Value::Array(cells) => {
            let mut text = String::new();
            for c in cells {
                match c.as_u64() {
                    Some(n) => text.push_str(&format!("{n} ")),
                    None => return Err(bad(format!("`board` must hold whole numbers, found {c}"))),
                }
            }
            Board::parse(shape, &text)?
        }
        other => return Err(bad(format!("`board` must be a string or an array of numbers, found {other}"))),
    };
    if board.shape() != shape {
        return Err(Error::ShapeMismatch { board: board.shape(), table: shape });
    }
    Ok(board)
}

/// The goal a request names (`blank-last` when it does not).
pub fn goal_of(shape: Shape, goal: Option<&str>) -> Result<Goal, Error> {
    match goal {
        Some(g) => Goal::parse(shape, g),
        None => Ok(Goal::BlankLast),
    }
}

/// Runs `work` on a blocking thread and turns its error into an answer.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::new(axum::http::StatusCode::INTERNAL_SERVER_ERROR, format!("internal error: {e}")))?
}

/// The space of a request's shape (3x3 when it names none) and goal.
pub fn resolve(server: &Server, shape: Option<&str>, goal: Option<&str>) -> Result<Arc<Space>, ApiError> {
    space_of(server, shape_of(shape, None)?, goal)
}

fn space_of(server: &Server, shape: Shape, goal: Option<&str>) -> Result<Arc<Space>, ApiError> {
    if shape.cells() > MAX_CELLS {
        return Err(ApiError::bad(format!("{shape}: the page plays boards of at most {MAX_CELLS} cells (5x5)")));
    }
    let goal = goal_of(shape, goal)?;
    server.spaces.get(shape, &goal)
}

/// The space and board of a request that names a board (its shape read from the board when the
/// request names none).
pub fn resolve_board(
    server: &Server,
    shape: Option<&str>,
    goal: Option<&str>,
    board: &Value,
) -> Result<(Arc<Space>, Board), ApiError> {
    let shape = shape_of(shape, Some(board))?;
    let space = space_of(server, shape, goal)?;
    let board = board_of(shape, board)?;
    Ok((space, board))
}

/// The 400 for a board that cannot reach the goal, saying why.
pub fn unreachable(space: &Space, board: &Board, what: &str) -> ApiError {
    ApiError::bad(format!("the board cannot reach the goal{what}: {}", board.parity_to(&space.goal_board).explain()))
}

/// A weight between 0 and 100, in thousandths as the library searches with it
/// ([`slidetable::search::check_weight`]): a finer one would be searched as another weight than
/// the one the answer echoes, so it is refused.
pub fn check_weight(weight: f64) -> Result<(), ApiError> {
    if !(weight.is_finite() && (0.0..=100.0).contains(&weight)) {
        return Err(ApiError::bad(format!("the weight must be between 0 and 100, not {weight}")));
    }
    Ok(slidetable::search::check_weight(weight)?)
}

fn cells(board: &Board) -> Vec<u16> {
    board.cells().to_vec()
}

fn text(board: &Board) -> String {
    board.to_numbers()
}

/// `GET /api/info`.
pub async fn info(State(server): State<Arc<Server>>, client: ClientId) -> Json<Value> {
    let mut shapes = Vec::new();
    for (r, c) in [(2, 2), (2, 3), (2, 4), (3, 3), (2, 5), (3, 4), (2, 6), (2, 7), (7, 2), (4, 4), (5, 5)] {
        let Ok(shape) = Shape::new(r, c) else { continue };
        // the 7x2 (the 2x7 on its side) only when its table is there: the menu has the 2x7
        if (r, c) == (7, 2)
            && server.spaces.ready(shape, &Goal::BlankLast).is_none()
            && !server.spaces.dir().join(slidetable::solver::default_table_name(shape, &Goal::BlankLast)).exists()
        {
            continue;
        }
        let (exact, source) = match server.spaces.ready(shape, &Goal::BlankLast) {
            Some(s) => (s.table.is_some(), s.source.clone()),
            None if shape.cells() > 12 && shape.cells() <= slidetable::index::MAX_TABLE_CELLS => {
                let name = server.spaces.dir().join(slidetable::solver::default_table_name(shape, &Goal::BlankLast));
                if name.exists() {
                    (true, name.display().to_string())
                } else {
                    (
                        false,
                        format!(
                            "IDA*; exact with its perfect table, {} (`table build --board {shape}`)",
                            name.display()
                        ),
                    )
                }
            }
            None if shape.cells() <= 12 => {
                let name = server.spaces.dir().join(slidetable::solver::default_table_name(shape, &Goal::BlankLast));
                let source = if name.exists() {
                    name.display().to_string()
                } else if shape.cells() <= 10 {
                    "a table built in memory".to_string()
                } else {
                    "a table built in memory at first use (about ten seconds)".to_string()
                };
                (true, source)
            }
            None if shape.rows() == 4 && shape.cols() == 4 => {
                (false, "IDA* with pattern tables (found in the table directory, or 6-6-3 built at first use)".into())
            }
            None => (false, "IDA* (with pattern tables if found in the table directory)".to_string()),
        };
        let states = exact.then(|| (1..=shape.cells() as u64).product::<u64>() / 2);
        // a heat map counts every state: up to 12 cells
        shapes.push(json!({"shape": shape.to_string(), "rows": r, "cols": c, "cells": r * c,
            "states": states, "exact": exact, "source": source, "heatmap": exact && r * c <= 12}));
    }
    let heuristics: Vec<Value> =
        HEURISTICS.iter().map(|(n, l, a)| json!({"name": n, "label": l, "admissible": a})).collect();
    Json(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "shapes": shapes,
        "goals": Goal::NAMES,
        "heuristics": heuristics,
        "limits": {"body_bytes": super::http::BODY_LIMIT, "astar_max_expansions": ASTAR_MAX_EXPANSIONS,
                   "astar_default_expansions": ASTAR_DEFAULT_EXPANSIONS,
                   "compare_max_generated": super::jobs::COMPARE_MAX_GENERATED, "max_cells": MAX_CELLS},
        "job": server.jobs.describe(&client),
        "jobs": server.jobs.counts(),
        "memory": server.spaces.memory(),
    }))
}

/// A request naming one board.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardReq {
    pub board: Value,
    pub shape: Option<String>,
    pub goal: Option<String>,
}

/// `POST /api/position`.
pub async fn position(
    State(server): State<Arc<Server>>,
    JsonBody(req): JsonBody<BoardReq>,
) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let (space, board) = resolve_board(&server, req.shape.as_deref(), req.goal.as_deref(), &req.board)?;
        super::heatmap::warm(&server, &space);
        Ok(Json(describe(&space, &board)?))
    })
    .await
}

/// Everything the page shows of one position.
pub fn describe(space: &Space, board: &Board) -> Result<Value, Error> {
    let goal = &space.goal_board;
    let solvable = board.is_solvable_to(goal);
    let mut note = Value::Null;
    let distance = match space.distance(board) {
        Ok(d) => d,
        Err(Error::SearchLimit { generated, .. }) => {
            note = json!(format!(
                "finding the exact distance needs a long search (more than {} nodes): run a solve job",
                crate::cli::thousands(generated)
            ));
            None
        }
        Err(e) => return Err(e),
    };
    let shape = board.shape();
    let mut moves = Vec::new();
    for dir in Dir::ALL {
        let (Some(to), Some(next)) = (dir.step(shape, board.blank()), board.moved(dir)) else { continue };
        let d = match (distance, space.table.is_some()) {
            (_, true) => space.distance(&next)?,
            // on a board without a table, a move changes the distance by exactly one: ask only
            // whether the neighbour is one closer
            (Some(0), false) => Some(1),
            (Some(_), false) => match space.distance(&next) {
                Ok(n) => n,
                // the neighbour's search gave up: its distance is d - 1 or d + 1, unknown which
                Err(Error::SearchLimit { .. }) => None,
                Err(e) => return Err(e),
            },
            (None, false) => None,
        };
        moves.push(json!({
            "dir": dir.letter().to_string(),
            "tile": board.cells()[to],
            "from": to,
            "board": cells(&next),
            "distance": d,
            "optimal": matches!((d, distance), (Some(a), Some(b)) if a + 1 == b),
        }));
    }
    let mut heuristics = Vec::new();
    for (name, label, admissible) in HEURISTICS {
        let (value, label) = if name == "pdb" {
            match space.patterns() {
                Ok(set) => (
                    json!(set.estimate_cells(board.cells())),
                    format!("pattern tables ({})", partition_label(set.partition())),
                ),
                Err(e) => (Value::Null, format!("pattern tables: {e}")),
            }
        } else {
            let h = Heuristic::from_name(name).ok_or_else(|| Error::Internal(format!("no heuristic {name}")))?;
            (json!(space.estimator.estimate(h, board.cells())), label.to_string())
        };
        heuristics.push(json!({"name": name, "label": label, "value": value, "admissible": admissible}));
    }
    Ok(json!({
        "shape": shape.to_string(), "rows": shape.rows(), "cols": shape.cols(),
        "board": cells(board), "text": text(board),
        "goal": cells(goal), "goal_name": space.goal.to_string(),
        "solvable": solvable, "parity": board.parity_to(goal).explain(),
        "distance": distance, "exact": space.table.is_some() || distance.is_some(),
        "source": space.source, "note": note,
        "moves": moves, "heuristics": heuristics,
    }))
}

/// A request for a scramble.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScrambleReq {
    pub depth: u32,
    /// Whether the answer carries the board's position too (`/api/position`'s answer), saving
    /// the page a round trip before it can draw the board.
    #[serde(default)]
    pub position: bool,
    pub seed: Option<u64>,
    pub shape: Option<String>,
    pub goal: Option<String>,
}

/// A partition as its group sizes (`6-6-3`), with its name when that says something else.
fn partition_label(p: &slidetable::heuristic::pdb::Partition) -> String {
    let sizes: Vec<String> = p.groups.iter().map(|g| g.len().to_string()).collect();
    let sizes = sizes.join("-");
    if p.name == sizes {
        sizes
    } else {
        format!("{}: {sizes}", p.name)
    }
}

/// `POST /api/scramble`.
pub async fn scramble(
    State(server): State<Arc<Server>>,
    JsonBody(req): JsonBody<ScrambleReq>,
) -> Result<Json<Value>, ApiError> {
    blocking(move || scramble_answer(&server, &req).map(Json)).await
}

/// A scramble's answer (see [`scramble`]). Call it off the async threads.
pub fn scramble_answer(server: &Arc<Server>, req: &ScrambleReq) -> Result<Value, ApiError> {
    let space = resolve(server, req.shape.as_deref(), req.goal.as_deref())?;
    super::heatmap::warm(server, &space);
    let seed = req.seed.unwrap_or_else(|| {
        use std::time::{SystemTime, UNIX_EPOCH};
        SystemTime::now().duration_since(UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64 % 1_000_000_007)
    });
    let (board, distance) = match &space.table {
        Some(table) => {
            let max = table.header().max_depth as u32;
            if req.depth > max {
                return Err(ApiError::bad(format!(
                    "no {} board is {} moves from the goal: the farthest are {max}",
                    space.shape, req.depth
                )));
            }
            let b = game::scramble(table, req.depth as u8, seed)?;
            (b, Some(req.depth))
        }
        None => {
            if req.depth > 10_000 {
                return Err(ApiError::bad("a random walk of at most 10000 moves"));
            }
            let mut cells = vec![0u16; space.shape.cells()];
            slidetable::arrays::random_walks(&space.goal_board, 1, req.depth as usize, seed, &mut cells);
            (Board::new(space.shape, cells)?, None)
        }
    };
    let mut answer = json!({"board": cells(&board), "text": text(&board), "distance": distance, "seed": seed});
    if req.position {
        answer["position"] = describe(&space, &board)?;
    }
    Ok(answer)
}

/// `POST /api/solve`.
pub async fn solve(
    State(server): State<Arc<Server>>,
    JsonBody(req): JsonBody<BoardReq>,
) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let (space, board) = resolve_board(&server, req.shape.as_deref(), req.goal.as_deref(), &req.board)?;
        let table = space.table().map_err(|_| {
            ApiError::bad(format!(
                "the {} board has no perfect table here: solve it with a long job (POST /api/jobs/solve)",
                space.shape
            ))
        })?;
        let Some(solution) = table.solve(&board)? else { return Err(unreachable(&space, &board, "")) };
        let mut boards = vec![cells(&board)];
        let mut b = board.clone();
        for &dir in &solution.moves {
            b.apply(dir);
            boards.push(cells(&b));
        }
        Ok(Json(json!({"length": solution.moves.len(), "moves": moves_letters(&solution.moves), "boards": boards})))
    })
    .await
}

/// A request naming a shape and goal only.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpaceReq {
    pub shape: Option<String>,
    pub goal: Option<String>,
}

/// `POST /api/stats`.
pub async fn stats(
    State(server): State<Arc<Server>>,
    JsonBody(req): JsonBody<SpaceReq>,
) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let space = resolve(&server, req.shape.as_deref(), req.goal.as_deref())?;
        let table = space.table()?;
        let histogram = table.histogram();
        let states: u64 = histogram.iter().sum();
        let sum: u64 = histogram.iter().enumerate().map(|(d, n)| d as u64 * n).sum();
        Ok(Json(json!({
            "shape": space.shape.to_string(), "goal": space.goal.to_string(), "states": states,
            "max_depth": histogram.len().saturating_sub(1), "mean": sum as f64 / states.max(1) as f64,
            "histogram": histogram,
        })))
    })
    .await
}

/// A request for one state of a heat map's cell.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExampleReq {
    pub heuristic: String,
    pub exact: u32,
    pub h: u32,
    #[serde(default)]
    pub skip: u64,
    pub shape: Option<String>,
    pub goal: Option<String>,
}

/// `POST /api/heatmap/example`.
pub async fn heatmap_example(
    State(server): State<Arc<Server>>,
    JsonBody(req): JsonBody<ExampleReq>,
) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        let space = resolve(&server, req.shape.as_deref(), req.goal.as_deref())?;
        let table = space.table()?;
        let estimate = space.estimate_fn(&req.heuristic)?;
        // a scan of up to every state (seconds on 3x4): on the build pool, not every core
        match space.on_build_pool(|| joint::example(table, &*estimate, req.exact, req.h, req.skip))? {
            Some(b) => Ok(Json(json!({"board": cells(&b), "text": text(&b), "exact": req.exact, "h": req.h}))),
            None => Err(ApiError::bad(format!(
                "no state has exact distance {} and {} {} (skipping {})",
                req.exact, req.heuristic, req.h, req.skip
            ))),
        }
    })
    .await
}
