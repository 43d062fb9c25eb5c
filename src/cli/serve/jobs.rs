//! Long jobs: a solve on a big board, a comparison of searches, the textbook's experiment. One runs
//! at a time per server (another is refused with 409 and a message naming the one running), on a
//! thread of its own, and streams server-sent events to the request that started it. It stops
//! when that client goes away (its stream is dropped) or on `POST /api/jobs/cancel`.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use slidetable::game::Oracle;
use slidetable::heuristic::Heuristic;
use slidetable::lab::experiment::{self, Preset};
use slidetable::lab::textbook::{self, Counting, Ties};
use slidetable::puzzle::board::moves_to_string;
use slidetable::search::{self, effective_branching_factor, Algorithm, ChildOrder, Guide, Options, Watch};
use slidetable::{Board, Error};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::Stream;

use super::api::{check_weight, resolve_board, unreachable};
use super::http::{ApiError, JsonBody};
use super::space::Space;
use super::Server;

/// The most nodes one run of a comparison may generate (and its default limit).
pub const COMPARE_MAX_GENERATED: u64 = 20_000_000;
/// How often a job reports its progress.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);
/// How long a new job waits for a cancelled one to wind down before it is refused.
const WIND_DOWN: Duration = Duration::from_secs(3);

/// The job now running, if any.
#[derive(Default)]
pub struct Jobs {
    running: Mutex<Option<Running>>,
}

struct Running {
    kind: &'static str,
    started: Instant,
    stop: Stop,
}

/// How a job is told to stop: a flag (what the experiment and the heat map read) and a search's
/// [`Watch`] (what the searches read, with their node count), always set together.
#[derive(Clone, Default)]
pub struct Stop {
    pub flag: Arc<AtomicBool>,
    pub watch: Arc<Watch>,
}

impl Stop {
    /// Tells the job to stop.
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
        self.watch.cancel();
    }

    /// Whether the job was told to stop.
    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::Relaxed) || self.watch.is_cancelled()
    }
}

/// The right to run the one long job; the slot is free again when it is dropped.
pub struct Slot {
    jobs: Arc<Server>,
    stop: Stop,
}

impl Slot {
    /// The job's stop flag (set on cancel).
    pub fn stop(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop.flag)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut running = self.jobs.jobs.running.lock().unwrap_or_else(|e| e.into_inner());
        if running.as_ref().is_some_and(|r| Arc::ptr_eq(&r.stop.flag, &self.stop.flag)) {
            *running = None;
        }
    }
}

impl Jobs {
    /// The job now running, for `GET /api/info`: `{"kind", "seconds"}`, or null.
    pub fn describe(&self) -> Value {
        match &*self.running.lock().unwrap_or_else(|e| e.into_inner()) {
            Some(r) => json!({"kind": r.kind, "seconds": r.started.elapsed().as_secs_f64()}),
            None => Value::Null,
        }
    }

    /// Stops the job now running; its kind, if there was one.
    pub fn cancel(&self) -> Option<&'static str> {
        let running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.as_ref().map(|r| {
            r.stop.cancel();
            r.kind
        })
    }
}

impl Server {
    /// Takes the job slot for a job of `kind`, or the 409 that names the job running.
    pub fn claim_slot(self: &Arc<Server>, kind: &'static str) -> Result<Slot, ApiError> {
        self.try_claim(kind).map_err(|(e, _)| e)
    }

    /// As [`Server::claim_slot`], but a job that was told to stop and is winding down (a page
    /// that cancelled one run and starts the next) is given a moment to finish first.
    pub async fn claim_slot_soon(self: &Arc<Server>, kind: &'static str) -> Result<Slot, ApiError> {
        let started = Instant::now();
        loop {
            match self.try_claim(kind) {
                Ok(slot) => return Ok(slot),
                Err((_, true)) if started.elapsed() < WIND_DOWN => tokio::time::sleep(Duration::from_millis(10)).await,
                Err((e, _)) => return Err(e),
            }
        }
    }

    /// The slot, or the 409 and whether the job running is stopping.
    fn try_claim(self: &Arc<Server>, kind: &'static str) -> Result<Slot, (ApiError, bool)> {
        let mut running = self.jobs.running.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(r) = &*running {
            let stopping = r.stop.is_set();
            let e = ApiError::new(
                StatusCode::CONFLICT,
                format!(
                    "another long job is running ({}, {:.0} s so far): one runs at a time; wait for it or cancel it",
                    r.kind,
                    r.started.elapsed().as_secs_f64()
                ),
            );
            return Err((e, stopping));
        }
        let stop = Stop::default();
        *running = Some(Running { kind, started: Instant::now(), stop: stop.clone() });
        Ok(Slot { jobs: Arc::clone(self), stop })
    }
}

/// What a job's code talks to: events out, the stop flag and node counter in.
pub struct Job {
    tx: mpsc::Sender<Result<Event, Infallible>>,
    pub stop: Stop,
}

impl Job {
    /// Sends event `name` with `data`; false (and the job told to stop) when the client is gone.
    pub fn send(&self, name: &str, data: Value) -> bool {
        let event = Event::default().event(name).data(data.to_string());
        if self.tx.blocking_send(Ok(event)).is_err() {
            self.stop.cancel();
            return false;
        }
        true
    }
}

/// A job's event stream; dropped (the client went away), it stops the job.
struct Guarded {
    inner: ReceiverStream<Result<Event, Infallible>>,
    stop: Stop,
}

impl Stream for Guarded {
    type Item = Result<Event, Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Pin::new(&mut self.inner).poll_next(cx)
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

/// Starts `work` on a thread of its own holding `slot`, and answers with its event stream:
/// `progress` four times a second, what `work` sends, then `done` or `error`.
pub fn stream(slot: Slot, work: impl FnOnce(&Job) -> Result<(), Error> + Send + 'static) -> Response {
    let (tx, rx) = mpsc::channel(64);
    let job = Job { tx, stop: slot.stop.clone() };
    let guarded = Guarded { inner: ReceiverStream::new(rx), stop: slot.stop.clone() };
    std::thread::spawn(move || {
        let _slot = slot;
        let started = Instant::now();
        let finished = Arc::new(AtomicBool::new(false));
        let ticker = {
            let (tx, watch, finished) = (job.tx.clone(), Arc::clone(&job.stop.watch), Arc::clone(&finished));
            std::thread::spawn(move || {
                while !finished.load(Ordering::Relaxed) {
                    std::thread::sleep(PROGRESS_EVERY);
                    let data = json!({"generated": watch.generated(), "seconds": started.elapsed().as_secs_f64()});
                    if tx.blocking_send(Ok(Event::default().event("progress").data(data.to_string()))).is_err() {
                        watch.cancel();
                        break;
                    }
                }
            })
        };
        let result = work(&job);
        finished.store(true, Ordering::Relaxed);
        let _ = ticker.join();
        match result {
            Ok(()) => job.send("done", json!({"cancelled": job.stop.is_set()})),
            Err(Error::Cancelled { .. } | Error::BuildCancelled { .. }) => job.send("done", json!({"cancelled": true})),
            Err(e) => job.send("error", json!({"error": e.to_string()})),
        };
    });
    Sse::new(guarded).keep_alive(KeepAlive::new().interval(Duration::from_secs(5))).into_response()
}

/// `POST /api/jobs/cancel`.
pub async fn cancel(State(server): State<Arc<Server>>) -> Json<Value> {
    Json(json!({"cancelled": server.jobs.cancel()}))
}

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
pub async fn solve(State(server): State<Arc<Server>>, JsonBody(req): JsonBody<SolveReq>) -> Result<Response, ApiError> {
    let s = Arc::clone(&server);
    let (shape, goal, value) = (req.shape.clone(), req.goal.clone(), req.board.clone());
    let (space, board) =
        super::api::blocking(move || resolve_board(&s, shape.as_deref(), goal.as_deref(), &value)).await?;
    let algorithm = Algorithm::parse(req.algorithm.as_deref().unwrap_or("idastar"), None)?;
    guide(&space, req.heuristic.as_deref())?;
    if !board.is_solvable_to(&space.goal_board) {
        return Err(unreachable(&space, &board, ""));
    }
    let slot = server.claim_slot_soon("solve").await?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).saturating_sub(1).max(1);
    let heuristic = req.heuristic;
    Ok(stream(slot, move |job| {
        let guide = guide(&space, heuristic.as_deref())?;
        let options = Options {
            algorithm,
            max_nodes: None,
            max_bytes: Some(slidetable::solver::default_max_memory()),
            order: ChildOrder::ByEstimate,
            threads,
            watch: Some(Arc::clone(&job.stop.watch)),
            prune: None,
            checkpoint: None,
        };
        let started = Instant::now();
        let found = search::solve(&board, &space.goal_board, guide, &options)?
            .ok_or_else(|| Error::Internal("the search found no solution for a solvable board".into()))?;
        job.send(
            "result",
            json!({"length": found.moves.len(), "moves": moves_to_string(&found.moves),
                   "generated": found.stats.generated, "expanded": found.stats.expanded,
                   "seconds": started.elapsed().as_secs_f64(), "heuristic": guide.name(),
                   "algorithm": algorithm.name(), "optimal": algorithm.proves_optimal(&guide)}),
        );
        Ok(())
    }))
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
    };
    Ok(Run { ids: false, algorithm, heuristic, label })
}

/// `POST /api/jobs/compare`.
pub async fn compare(
    State(server): State<Arc<Server>>,
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
    let slot = server.claim_slot_soon("compare").await?;
    Ok(stream(slot, move |job| {
        let optimum = space.table.as_ref().and_then(|t| t.distance(&board).ok().flatten()).map(u32::from);
        for (i, run) in runs.iter().enumerate() {
            if job.stop.is_set() {
                return Err(Error::Cancelled { generated: job.stop.watch.generated() });
            }
            let started = Instant::now();
            let result = one_run(&space, &board, run, limit, job);
            let seconds = started.elapsed().as_secs_f64();
            let mut row = json!({"index": i, "label": run.label, "algorithm": run.algorithm.name(),
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
                Err(e) => row["error"] = json!(e.to_string()),
            }
            if !job.send("run", row) {
                return Err(Error::Cancelled { generated: 0 });
            }
        }
        Ok(())
    }))
}

/// One run: (generated, expanded, length).
fn one_run(space: &Space, board: &Board, run: &Run, limit: u64, job: &Job) -> Result<(u64, u64, u32), Error> {
    if run.ids {
        let counting = Counting { parent_move: false, start: true, ties: Ties::LargerG };
        let count = textbook::ids(board, &space.goal_board, counting, limit).ok_or_else(|| Error::SearchLimit {
            what: format!("{limit} nodes"),
            generated: limit,
            bytes: 0,
            algorithm: "IDS",
        })?;
        return Ok((count.generated, count.expanded, count.depth));
    }
    let guide = guide(space, run.heuristic.as_deref())?;
    let options = Options {
        algorithm: run.algorithm,
        max_nodes: Some(limit),
        max_bytes: Some(slidetable::solver::default_max_memory()),
        order: ChildOrder::ByEstimate,
        threads: 1,
        watch: Some(Arc::clone(&job.stop.watch)),
        prune: None,
        checkpoint: None,
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
    let space = super::api::blocking(move || Ok(s.spaces.get(slidetable::Shape::EIGHT, &preset.goal())?)).await?;
    let plan = preset.plan(depths.iter().map(|&d| d as u8).collect(), count, seed);
    let slot = server.claim_slot_soon("experiment").await?;
    Ok(stream(slot, move |job| {
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
    }))
}
