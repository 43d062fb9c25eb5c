//! The long jobs' handlers: a solve on a big board, a comparison of searches, the textbook's
//! experiment. Each checks its request, then hands its work to the scheduler (`queue.rs`: one job
//! per client, at most `--jobs` at once, the rest waiting in turn) and answers with the job's
//! event stream.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::State;
use axum::response::Response;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use slidetable::game::Oracle;
use slidetable::heuristic::Heuristic;
use slidetable::lab::experiment::{self, Preset};
use slidetable::lab::textbook::{self, Counting, Ties};
use slidetable::puzzle::board::moves_letters;
use slidetable::search::{self, effective_branching_factor, Algorithm, ChildOrder, Guide, Options};
use slidetable::{Board, Error};

use super::api::{check_weight, resolve_board, unreachable};
use super::http::{ApiError, ClientId, JsonBody};
use super::queue::{Job, Progress};
use super::space::Space;
use super::Server;

/// The most nodes one run of a comparison may generate (and its default limit).
pub const COMPARE_MAX_GENERATED: u64 = 20_000_000;

/// Queues `work` as `client`'s job of `kind` and answers with its event stream.
fn stream(
    server: &Server,
    client: &ClientId,
    kind: &'static str,
    work: impl FnOnce(&Job) -> Result<(), Error> + Send + 'static,
) -> Result<Response, ApiError> {
    Ok(server.jobs.submit(client, kind, Progress::Nodes, Box::new(work))?.into_response())
}

/// `POST /api/jobs/cancel`: cancels the calling client's job, running or waiting.
pub async fn cancel(
    State(server): State<Arc<Server>>,
    client: ClientId,
    JsonBody(_): JsonBody<CancelReq>,
) -> Json<Value> {
    Json(json!({"cancelled": server.jobs.cancel(&client)}))
}

/// A cancel's request: `{}` (any field is refused, as everywhere).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CancelReq {}

/// The guide of a search job: the heuristic named, else pattern tables where the space's searches
/// have them, else linear conflict.
fn guide<'a>(space: &'a Space, name: Option<&str>) -> Result<Guide<'a>, Error> {
    match name {
        Some(n) => space.guide(n),
        None if space.oracle.as_ref().is_some_and(|o| o.guide().is_some()) => space.guide("pdb"),
        None => Ok(Guide::Heuristic(Heuristic::LinearConflict)),
    }
}

/// A solve job's request.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveReq {
    pub board: Value,
    pub heuristic: Option<String>,
    pub algorithm: Option<String>,
    pub shape: Option<String>,
    pub goal: Option<String>,
}

/// `POST /api/jobs/solve`.
pub async fn solve(
    State(server): State<Arc<Server>>,
    client: ClientId,
    JsonBody(req): JsonBody<SolveReq>,
) -> Result<Response, ApiError> {
    let s = Arc::clone(&server);
    let (shape, goal, value) = (req.shape.clone(), req.goal.clone(), req.board.clone());
    let (space, board) =
        super::api::blocking(move || resolve_board(&s, shape.as_deref(), goal.as_deref(), &value)).await?;
    let algorithm = Algorithm::parse(req.algorithm.as_deref().unwrap_or("idastar"), None)?;
    guide(&space, req.heuristic.as_deref())?;
    if !board.is_solvable_to(&space.goal_board) {
        return Err(unreachable(&space, &board, ""));
    }
    let heuristic = req.heuristic;
    let max_bytes = server.job_bytes;
    stream(&server, &client, "solve", move |job| {
        let guide = guide(&space, heuristic.as_deref())?;
        let options = Options {
            algorithm,
            max_nodes: None,
            max_bytes: Some(max_bytes),
            order: ChildOrder::ByEstimate,
            // one core per job: the others answer lookups and run the other jobs
            threads: 1,
            watch: Some(Arc::clone(&job.stop.watch)),
            prune: None,
            checkpoint: None,
            time_limit: None,
            anytime: false,
        };
        let started = Instant::now();
        let found = search::solve(&board, &space.goal_board, guide, &options)?
            .ok_or_else(|| Error::Internal("the search found no solution for a solvable board".into()))?;
        job.send(
            "result",
            json!({"length": found.moves.len(), "moves": moves_letters(&found.moves),
                   "generated": found.stats.generated, "expanded": found.stats.expanded,
                   "seconds": started.elapsed().as_secs_f64(), "heuristic": guide.name(),
                   "algorithm": algorithm.name(), "optimal": algorithm.proves_optimal(&guide)}),
        );
        Ok(())
    })
}

/// One run of a comparison.
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct RunReq {
    pub algorithm: String,
    pub heuristic: Option<String>,
    pub weight: Option<f64>,
}

/// A compare job's request.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompareReq {
    pub board: Value,
    pub runs: Vec<RunReq>,
    pub max_generated: Option<u64>,
    pub shape: Option<String>,
    pub goal: Option<String>,
}

/// A run checked: what it searches with and its label.
struct Run {
    ids: bool,
    algorithm: Algorithm,
    heuristic: Option<String>,
    label: String,
}

fn check_run(space: &Space, run: &RunReq) -> Result<Run, Error> {
    let name = run.algorithm.trim().to_ascii_lowercase();
    let uninformed = matches!(name.as_str(), "bfs" | "ids" | "breadth-first");
    if uninformed && run.heuristic.is_some() {
        return Err(Error::BadOption(format!("{name} takes no heuristic")));
    }
    if name == "ids" {
        if space.shape.cells() > 16 {
            return Err(Error::BadOption("IDS runs on boards of at most 16 cells".into()));
        }
        if run.weight.is_some() {
            return Err(Error::BadOption("a weight goes with the weighted algorithm".into()));
        }
        return Ok(Run { ids: true, algorithm: Algorithm::Bfs, heuristic: None, label: "IDS".into() });
    }
    let algorithm = Algorithm::parse(&name, run.weight)?;
    if let Algorithm::Weighted(w) = algorithm {
        check_weight(w).map_err(|e| Error::BadOption(e.message))?;
    }
    let heuristic = if uninformed { None } else { Some(run.heuristic.clone().unwrap_or_else(|| "manhattan".into())) };
    let g = guide(space, heuristic.as_deref())?;
    let label = match algorithm {
        Algorithm::Bfs => "BFS".to_string(),
        Algorithm::AStar => format!("A* ({})", g.name()),
        Algorithm::IdaStar => format!("IDA* ({})", g.name()),
        Algorithm::AStarIda => format!("A*+IDA* ({})", g.name()),
        Algorithm::Greedy => format!("greedy ({})", g.name()),
        Algorithm::Weighted(w) => format!("weighted A* w={w} ({})", g.name()),
        Algorithm::Within(w) => format!("A* within {w} ({})", g.name()),
        Algorithm::Reduce => "reduce".to_string(),
        Algorithm::Beam(w) => format!("beam of {w} ({})", g.name()),
    };
    Ok(Run { ids: false, algorithm, heuristic, label })
}

/// `POST /api/jobs/compare`.
pub async fn compare(
    State(server): State<Arc<Server>>,
    client: ClientId,
    JsonBody(req): JsonBody<CompareReq>,
) -> Result<Response, ApiError> {
    let s = Arc::clone(&server);
    let (shape, goal, value) = (req.shape.clone(), req.goal.clone(), req.board.clone());
    let (space, board) =
        super::api::blocking(move || resolve_board(&s, shape.as_deref(), goal.as_deref(), &value)).await?;
    if req.runs.is_empty() || req.runs.len() > 32 {
        return Err(ApiError::bad("`runs` must list between 1 and 32 runs"));
    }
    let limit = req.max_generated.unwrap_or(COMPARE_MAX_GENERATED);
    if !(1..=COMPARE_MAX_GENERATED).contains(&limit) {
        return Err(ApiError::bad(format!("max_generated must be between 1 and {COMPARE_MAX_GENERATED}")));
    }
    if !board.is_solvable_to(&space.goal_board) {
        return Err(unreachable(&space, &board, ""));
    }
    let runs: Vec<Run> = req.runs.iter().map(|r| check_run(&space, r)).collect::<Result<_, _>>()?;
    let max_bytes = server.job_bytes;
    stream(&server, &client, "compare", move |job| {
        let optimum = space.table.as_ref().and_then(|t| t.distance(&board).ok().flatten()).map(u32::from);
        for (i, run) in runs.iter().enumerate() {
            if job.stop.is_set() {
                return Err(Error::Cancelled { generated: job.stop.watch.generated() });
            }
            let started = Instant::now();
            let result = one_run(&space, &board, run, limit, max_bytes, job);
            let seconds = started.elapsed().as_secs_f64();
            // IDS runs as its own search, not the library's BFS its `algorithm` field holds
            let algorithm = if run.ids { "ids" } else { run.algorithm.name() };
            let weight = match run.algorithm {
                Algorithm::Weighted(w) => json!(w),
                _ => Value::Null,
            };
            let mut row = json!({"index": i, "label": run.label, "algorithm": algorithm, "weight": weight,
                "heuristic": run.heuristic, "optimal_length": optimum, "seconds": seconds,
                "generated": null, "expanded": null, "length": null, "ebf": null, "optimal": null, "error": null});
            match result {
                Ok((generated, expanded, length)) => {
                    row["generated"] = json!(generated);
                    row["expanded"] = json!(expanded);
                    row["length"] = json!(length);
                    row["ebf"] = json!(effective_branching_factor(generated as f64, length));
                    row["optimal"] = json!(optimum.map(|o| o == length));
                }
                Err(Error::Cancelled { .. }) => return Err(Error::Cancelled { generated: 0 }),
                // said for the page, not in the command line's terms
                Err(Error::SearchLimit { what, generated, .. }) => {
                    // "the memory limit of 536870912 bytes" read as 512 MiB
                    let bytes = what.strip_prefix("the memory limit of ").and_then(|t| t.strip_suffix(" bytes"));
                    let what = match bytes.and_then(|n| n.parse::<u64>().ok()) {
                        Some(n) => format!("the memory limit of {}", super::space::show_bytes(n)),
                        None => what,
                    };
                    row["generated"] = json!(generated);
                    row["error"] = json!(format!(
                        "gave up at {what} without a solution: too many nodes for this search on this board \
                         (IDA* needs little memory; a stronger heuristic needs fewer nodes)"
                    ));
                }
                Err(e) => row["error"] = json!(e.to_string()),
            }
            if !job.send("run", row) {
                return Err(Error::Cancelled { generated: 0 });
            }
        }
        Ok(())
    })
}

/// One run: (generated, expanded, length).
fn one_run(
    space: &Space,
    board: &Board,
    run: &Run,
    limit: u64,
    max_bytes: u64,
    job: &Job,
) -> Result<(u64, u64, u32), Error> {
    if run.ids {
        let counting = Counting { parent_move: false, start: true, ties: Ties::LargerG };
        // watched like the other runs: a cancelled comparison stops here too, within a few
        // thousand nodes, rather than keeping its core until IDS reaches the limit
        let count =
            textbook::ids_watched(board, &space.goal_board, counting, limit, &job.stop.watch)?.ok_or_else(|| {
                Error::SearchLimit { what: format!("{limit} nodes"), generated: limit, bytes: 0, algorithm: "IDS" }
            })?;
        return Ok((count.generated, count.expanded, count.depth));
    }
    let guide = guide(space, run.heuristic.as_deref())?;
    let options = Options {
        algorithm: run.algorithm,
        max_nodes: Some(limit),
        max_bytes: Some(max_bytes),
        order: ChildOrder::ByEstimate,
        threads: 1,
        watch: Some(Arc::clone(&job.stop.watch)),
        prune: None,
        checkpoint: None,
        time_limit: None,
        anytime: false,
    };
    let found = search::solve(board, &space.goal_board, guide, &options)?
        .ok_or_else(|| Error::Internal("the search found no solution for a solvable board".into()))?;
    Ok((found.stats.generated, found.stats.expanded, found.moves.len() as u32))
}

/// An experiment job's request.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentReq {
    pub preset: Option<String>,
    pub depths: Option<Vec<u32>>,
    pub count: Option<usize>,
    pub seed: Option<u64>,
}

/// `POST /api/jobs/experiment`.
pub async fn experiment(
    State(server): State<Arc<Server>>,
    client: ClientId,
    JsonBody(req): JsonBody<ExperimentReq>,
) -> Result<Response, ApiError> {
    let name = req.preset.as_deref().unwrap_or("rn");
    let preset = Preset::from_name(name)
        .ok_or_else(|| ApiError::bad(format!("unknown preset `{name}`: use rn (Russell & Norvig) or hazan-ra")))?;
    let depths: Vec<u32> = req.depths.unwrap_or_else(|| (1..=12).map(|i| 2 * i).collect());
    if depths.is_empty() || depths.len() > 32 {
        return Err(ApiError::bad("`depths` must list between 1 and 32 depths"));
    }
    if let Some(d) = depths.iter().find(|&&d| d > 31) {
        return Err(ApiError::bad(format!("depth {d} is past the 3x3's farthest states (31 moves)")));
    }
    let count = req.count.unwrap_or(100);
    if !(1..=10_000).contains(&count) {
        return Err(ApiError::bad(format!("`count` must be between 1 and 10000, not {count}")));
    }
    let seed = req.seed.unwrap_or(1);
    let s = Arc::clone(&server);
    let space = super::api::blocking(move || s.spaces.get(slidetable::Shape::EIGHT, &preset.goal())).await?;
    let plan = preset.plan(depths.iter().map(|&d| d as u8).collect(), count, seed);
    stream(&server, &client, "experiment", move |job| {
        let table = space.table()?;
        let labels: Vec<String> = plan.columns.iter().map(|c| c.label()).collect();
        job.send(
            "start",
            json!({"preset": preset.name(), "columns": labels, "depths": depths, "count": count, "seed": seed,
                   "goal": space.goal.to_string()}),
        );
        experiment::run_until(table, &plan, &job.stop.flag, |row| {
            let cells: Vec<Value> = row
                .cells
                .iter()
                .zip(&plan.columns)
                .map(|(cell, column)| {
                    cell.map(|c| {
                        let published = experiment::published(column, row.depth);
                        json!({"label": column.label(), "mean_generated": c.mean_generated,
                            "min_generated": c.min_generated, "max_generated": c.max_generated,
                            "mean_expanded": c.mean_expanded, "b_star": c.b_star, "suboptimal": c.suboptimal,
                            "published": published,
                            "published_b_star": published.and_then(|p| plan.ebf.solve(p as f64, row.depth as u32))})
                    })
                    .unwrap_or(Value::Null)
                })
                .collect();
            job.send("row", json!({"depth": row.depth, "problems": row.problems, "cells": cells}));
        })?;
        Ok(())
    })
}
