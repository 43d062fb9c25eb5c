//! A* and IDA* step by step (`POST /api/astar`, `POST /api/idastar`; docs/serve-api.md): the
//! library's recorders ([`slidetable::search::trace`]), which count nodes as its searches and
//! the comparison job do, run on a board with a perfect table, and their runs written column by
//! column: no board per node (the page rebuilds them from the start and the moves), one letter
//! per node for its move and status, so that a run of 20,000 expansions stays under a megabyte.

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};
use slidetable::search::trace::{self, IdaTrace, TieBreak, Trace};
use slidetable::search::{Algorithm, Guide};
use slidetable::{Board, Dir, Error};

use super::api::{blocking, check_weight, resolve_board, unreachable, ASTAR_DEFAULT_EXPANSIONS, ASTAR_MAX_EXPANSIONS};
use super::http::{ApiError, JsonBody};
use super::space::Space;
use super::Server;

/// The version of the answers' layout: 2 since issue 38 (columns; the first had an object per
/// node, with its board).
pub const FORMAT: u32 = 2;

/// A request for A* step by step.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AstarReq {
    pub board: serde_json::Value,
    pub heuristic: Option<String>,
    pub weight: Option<f64>,
    pub max_expansions: Option<usize>,
    pub shape: Option<String>,
    pub goal: Option<String>,
}

/// A request for IDA* step by step (no weight: IDA*'s bound is on `g + h`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IdastarReq {
    pub board: serde_json::Value,
    pub heuristic: Option<String>,
    pub max_expansions: Option<usize>,
    pub shape: Option<String>,
    pub goal: Option<String>,
}

/// The nodes of a run, a column per field, indexed by node id (the start is node 0).
#[derive(Serialize)]
struct Nodes {
    /// The node each was generated from; null for the start.
    parent: Vec<Option<usize>>,
    /// The blank's move from the parent, one letter a node (`-` for the start).
    #[serde(rename = "move")]
    moves: String,
    g: Vec<u32>,
    h: Vec<u32>,
    /// The exact distance to the goal.
    hstar: Vec<Option<u32>>,
    /// A*: what became of it when its parent was expanded (`-` for the start); IDA*: what the
    /// search did with it.
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<String>,
}

impl Nodes {
    fn new(len: usize) -> Nodes {
        Nodes {
            parent: Vec::with_capacity(len),
            moves: String::with_capacity(len),
            g: Vec::with_capacity(len),
            h: Vec::with_capacity(len),
            hstar: Vec::with_capacity(len),
            status: None,
            kind: None,
        }
    }

    fn push(&mut self, parent: Option<usize>, dir: Option<Dir>, g: u32, h: u32, hstar: Option<u32>) {
        self.parent.push(parent);
        self.moves.push(dir.map_or('-', Dir::letter));
        self.g.push(g);
        self.h.push(h);
        self.hstar.push(hstar);
    }
}

/// A* steps: the node each expands, and the end (exclusive) of its children's ids, which start
/// where the step before ended (at 1 for the first).
#[derive(Serialize)]
struct Steps {
    expand: Vec<usize>,
    end: Vec<usize>,
}

/// The better and reopening paths: `child[i]` replaced `node[i]`.
#[derive(Serialize)]
struct Replaced {
    child: Vec<usize>,
    node: Vec<usize>,
}

#[derive(Serialize)]
struct Solution {
    length: usize,
    path: Vec<usize>,
}

impl Solution {
    fn of(path: &Option<Vec<usize>>) -> Option<Solution> {
        path.as_ref().map(|p| Solution { length: p.len().saturating_sub(1), path: p.clone() })
    }
}

/// What both answers say of the board.
#[derive(Serialize)]
struct StartBoard {
    shape: String,
    rows: usize,
    cols: usize,
    /// The start, row by row, 0 for the blank.
    start: Vec<u16>,
}

impl StartBoard {
    fn of(b: &Board) -> StartBoard {
        let s = b.shape();
        StartBoard { shape: s.to_string(), rows: s.rows(), cols: s.cols(), start: b.cells().to_vec() }
    }
}

/// The answer of `POST /api/astar`.
#[derive(Serialize)]
pub struct AstarRun {
    format: u32,
    c_star: u32,
    heuristic: String,
    weight: f64,
    /// The library's search the run is, and Compare's run it counts as: `astar`, `bfs` (the zero
    /// estimate) or `weighted`.
    algorithm: &'static str,
    /// How the open list breaks ties of key and `g`: `last-generated` or `first-seen`.
    ties: &'static str,
    expansions: usize,
    generated: usize,
    capped: bool,
    max_expansions: usize,
    #[serde(flatten)]
    board: StartBoard,
    nodes: Nodes,
    steps: Steps,
    replaced: Replaced,
    solution: Option<Solution>,
}

#[derive(Serialize)]
struct Iteration {
    bound: u32,
    expanded: u64,
    generated: u64,
    next_bound: Option<u32>,
    /// Its nodes are the ids `first..end`, in the order generated.
    first: usize,
    end: usize,
}

/// The answer of `POST /api/idastar`.
#[derive(Serialize)]
pub struct IdaRun {
    format: u32,
    c_star: u32,
    heuristic: String,
    expansions: u64,
    generated: u64,
    capped: bool,
    max_expansions: usize,
    #[serde(flatten)]
    board: StartBoard,
    nodes: Nodes,
    iterations: Vec<Iteration>,
    solution: Option<Solution>,
}

/// The guide a heuristic's name gives a recorded search: `None` for `zero`.
fn guide_of<'a>(space: &'a Space, name: &str) -> Result<Option<Guide<'a>>, Error> {
    match name {
        "zero" | "none" | "0" => Ok(None),
        _ => match space.guide(name)? {
            Guide::Table(_) => {
                Err(Error::BadOption("`table` is h* itself: choose an estimate to set beside it".into()))
            }
            g => Ok(Some(g)),
        },
    }
}

/// The limit of expansions a request asks for, checked.
fn cap_of(asked: Option<usize>) -> Result<usize, ApiError> {
    let cap = asked.unwrap_or(ASTAR_DEFAULT_EXPANSIONS);
    if (1..=ASTAR_MAX_EXPANSIONS).contains(&cap) {
        Ok(cap)
    } else {
        Err(ApiError::bad(format!("max_expansions must be between 1 and {ASTAR_MAX_EXPANSIONS}, not {cap}")))
    }
}

/// `POST /api/astar`.
pub async fn astar(
    State(server): State<Arc<Server>>,
    JsonBody(req): JsonBody<AstarReq>,
) -> Result<Json<AstarRun>, ApiError> {
    blocking(move || {
        let (space, board) = resolve_board(&server, req.shape.as_deref(), req.goal.as_deref(), &req.board)?;
        let table = space.table()?;
        let name = req.heuristic.as_deref().unwrap_or("manhattan").trim().to_ascii_lowercase();
        let weight = req.weight.unwrap_or(1.0);
        check_weight(weight)?;
        let cap = cap_of(req.max_expansions)?;
        let Some(c_star) = table.distance(&board)? else {
            return Err(unreachable(&space, &board, ", so A* would search every state it can reach"));
        };
        let guide = guide_of(&space, &name)?;
        let exact = |b: &Board| table.distance(b).ok().flatten().map(u32::from);
        let t = trace::astar_trace(&board, &space.goal_board, guide, weight, &exact, cap)?;
        Ok(Json(astar_run(&t, &board, c_star as u32, name, weight, cap)))
    })
    .await
}

fn astar_run(t: &Trace, board: &Board, c_star: u32, heuristic: String, weight: f64, cap: usize) -> AstarRun {
    let mut nodes = Nodes::new(t.nodes.len());
    let mut status = String::with_capacity(t.nodes.len());
    let mut replaced = Replaced { child: Vec::new(), node: Vec::new() };
    for n in &t.nodes {
        nodes.push(n.parent, n.dir, n.g, n.h, n.hstar);
        status.push(n.status.map_or('-', |s| s.letter()));
        if let Some(old) = n.status.and_then(|s| s.replaced()) {
            replaced.child.push(n.id);
            replaced.node.push(old);
        }
    }
    nodes.status = Some(status);
    let steps = Steps {
        expand: t.steps.iter().map(|s| s.expand).collect(),
        end: t.steps.iter().map(|s| s.children.end).collect(),
    };
    AstarRun {
        format: FORMAT,
        c_star,
        heuristic,
        weight,
        algorithm: match t.algorithm {
            Algorithm::Bfs => "bfs",
            Algorithm::Weighted(_) => "weighted",
            _ => "astar",
        },
        ties: match t.ties {
            TieBreak::LastGenerated => "last-generated",
            TieBreak::FirstSeen => "first-seen",
        },
        expansions: t.steps.len(),
        generated: t.nodes.len(),
        capped: t.capped,
        max_expansions: cap,
        board: StartBoard::of(board),
        nodes,
        steps,
        replaced,
        solution: Solution::of(&t.solution),
    }
}

/// `POST /api/idastar`.
pub async fn idastar(
    State(server): State<Arc<Server>>,
    JsonBody(req): JsonBody<IdastarReq>,
) -> Result<Json<IdaRun>, ApiError> {
    blocking(move || {
        let (space, board) = resolve_board(&server, req.shape.as_deref(), req.goal.as_deref(), &req.board)?;
        let table = space.table()?;
        let name = req.heuristic.as_deref().unwrap_or("manhattan").trim().to_ascii_lowercase();
        let cap = cap_of(req.max_expansions)?;
        let Some(c_star) = table.distance(&board)? else {
            return Err(unreachable(&space, &board, ", so IDA* would deepen without end"));
        };
        let guide = guide_of(&space, &name)?;
        let exact = |b: &Board| table.distance(b).ok().flatten().map(u32::from);
        let t = trace::idastar_trace(&board, &space.goal_board, guide, &exact, cap)?;
        Ok(Json(ida_run(&t, &board, c_star as u32, name, cap)))
    })
    .await
}

fn ida_run(t: &IdaTrace, board: &Board, c_star: u32, heuristic: String, cap: usize) -> IdaRun {
    let mut nodes = Nodes::new(t.nodes.len());
    let mut kind = String::with_capacity(t.nodes.len());
    for n in &t.nodes {
        nodes.push(n.parent, n.dir, n.g, n.h, n.hstar);
        kind.push(n.kind.letter());
    }
    nodes.kind = Some(kind);
    let iterations = t
        .iterations
        .iter()
        .map(|i| Iteration {
            bound: i.bound,
            expanded: i.expanded,
            generated: i.generated,
            next_bound: i.next_bound,
            first: i.nodes.start,
            end: i.nodes.end,
        })
        .collect();
    IdaRun {
        format: FORMAT,
        c_star,
        heuristic,
        expansions: t.expanded(),
        generated: t.generated(),
        capped: t.capped,
        max_expansions: cap,
        board: StartBoard::of(board),
        nodes,
        iterations,
        solution: Solution::of(&t.solution),
    }
}
