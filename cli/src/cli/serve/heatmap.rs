//! The heat map of an estimate against the exact distance, over every state of a perfect table:
//! `POST /api/heatmap` (one JSON answer) and `POST /api/jobs/heatmap` (a job's event stream, with
//! progress, ending with the same answer).
//!
//! A small table's map takes milliseconds and is computed on the spot. A big one's (3x4 and 2x6:
//! 239,500,800 states, seconds of a core) is its client's long job, waiting its turn like any
//! other; once computed it is kept in memory (within the server's budget) and on disk in `--dir`
//! (`3x4-blank-last-heatmap-manhattan.json`; for the named goals only), written whole under a
//! temporary name and renamed, so later requests, and later servers, answer at once. A file is used only when everything about it
//! checks out: its header names the same shape, goal, heuristic (and pattern tables, for `pdb`)
//! and the same table (its payload checksum and size), its answer matches its own checksum, and its
//! rows add up to the table's depth histogram. Anything else (a damaged file, another table's) is
//! ignored and computed again.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{json, Value};
use slidetable::lab::joint;
use slidetable::search::Guide;
use slidetable::table::format::write_atomic;
use slidetable::Error;

use super::api::{blocking, resolve, HEURISTICS};
use super::http::{ApiError, ClientId, JsonBody};
use super::queue::{lower_priority, on_one_thread, Job, JobEvent, JobStream, Progress};
use super::space::{saves_built, HeatKey, Space};
use super::Server;

/// A request for a heat map.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeatmapReq {
    pub heuristic: String,
    pub shape: Option<String>,
    pub goal: Option<String>,
}

/// States past which a heat map is a long job (it takes a job slot, as its client's job), and is
/// kept on disk.
pub const HEATMAP_QUICK_STATES: u64 = 2_000_000;

/// The format of a heat-map file; bumped when its header or answer changes meaning (an older
/// file is then ignored and computed again).
const CACHE_VERSION: u64 = 1;

/// The largest heat-map file read (a 3x4 map is about 4 KiB).
const CACHE_MAX_BYTES: u64 = 1 << 20;

/// The heat maps being computed, by key, with their states done: a second request for one waits
/// for it rather than computing it twice.
#[derive(Default)]
pub struct Computing(Mutex<HashMap<HeatKey, Arc<AtomicU64>>>);

/// A heat map asked for: its space, heuristic and key.
struct Asked {
    space: Arc<Space>,
    name: String,
    key: HeatKey,
}

/// Where a heat map stands before any job.
enum Found {
    /// Its answer, known or computed on the spot.
    Ready(Arc<str>),
    /// A big table's, to compute as a job.
    Long(Asked),
}

/// The heat map of the estimate `name` over `space`'s table, as the API answers it, adding to
/// `done` the states counted as it goes.
fn compute(space: &Space, name: &str, stop: &AtomicBool, done: &AtomicU64) -> Result<Value, Error> {
    let table = space.table()?;
    let label = HEURISTICS.iter().find(|h| h.0 == name).map_or(name.to_string(), |h| h.1.to_string());
    // misplaced tiles and Manhattan add up over the tiles: walked as sums, several times faster
    let costs = match space.guide(name) {
        Ok(Guide::Heuristic(h)) => space.estimator.tile_costs(h),
        _ => None,
    };
    let j = match costs {
        Some(costs) => joint::joint_additive(table, &costs, stop, done)?,
        None => joint::joint_counting(table, &*space.estimate_fn(name)?, stop, done)?,
    };
    Ok(json!({
        "heuristic": name, "label": label, "states": j.states, "counts": j.counts,
        "exact_share": j.exact_share(), "mean_error": j.mean_error(), "overestimates": j.overestimates,
    }))
}

/// The file a big heat map is kept in, and the header that says what it is a map of.
fn cache_file(space: &Space, name: &str) -> Result<(PathBuf, Value), Error> {
    let table = space.table()?;
    let header = table.header();
    let mut file = format!("{}-{}-heatmap-{name}", space.shape, space.goal.slug());
    let mut partition = Value::Null;
    if name == "pdb" {
        let p = space.patterns().map_err(Error::BadOption)?.partition();
        let slug: String =
            p.name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).take(60).collect();
        file.push('-');
        file.push_str(&slug);
        partition = json!({"name": p.name, "groups": p.groups});
    }
    let about = json!({
        "slidetable": "heatmap", "version": CACHE_VERSION, "shape": space.shape.to_string(),
        "goal": space.goal_board.to_numbers(), "heuristic": name, "partition": partition,
        "table_crc": header.payload_crc, "table_entries": header.entries,
    });
    Ok((space.dir().join(format!("{file}.json")), about))
}

/// The answer kept on disk for `asked`, if there is one and everything about it checks out.
fn read_cache(asked: &Asked) -> Option<Arc<str>> {
    let (path, about) = cache_file(&asked.space, &asked.name).ok()?;
    if std::fs::metadata(&path).ok()?.len() > CACHE_MAX_BYTES {
        return None;
    }
    let text = std::fs::read_to_string(&path).ok()?;
    let (head, answer) = text.trim_end().split_once('\n')?;
    let mut head: Value = serde_json::from_str(head).ok()?;
    let crc = head.as_object_mut()?.remove("answer_crc")?.as_u64()?;
    if head != about || crc != u64::from(crc32fast::hash(answer.as_bytes())) {
        return None;
    }
    let value: Value = serde_json::from_str(answer).ok()?;
    let table = asked.space.table().ok()?;
    let rows = value["counts"].as_array()?;
    let sums: Option<Vec<u64>> = rows.iter().map(|r| r.as_array()?.iter().map(Value::as_u64).sum()).collect();
    let fits = value["heuristic"] == asked.name.as_str()
        && value["states"].as_u64() == Some(table.header().entries)
        && sums.as_deref() == Some(table.histogram());
    fits.then(|| answer.into())
}

/// Keeps `answer` on disk for `asked` (written whole, then renamed into place), for a named goal
/// only: a goal given as a board is any of n!/2 a client chooses, and its maps are kept in memory
/// (as its pattern tables are, [`saves_built`]), so that clients cannot fill the disk. A directory
/// that cannot be written to only means no cache: the answer is still given.
fn write_cache(asked: &Asked, answer: &str) {
    if !saves_built(&asked.space.goal) {
        return;
    }
    let Ok((path, mut about)) = cache_file(&asked.space, &asked.name) else { return };
    about["answer_crc"] = json!(crc32fast::hash(answer.as_bytes()));
    let text = format!("{about}\n{answer}\n");
    let _ = write_atomic(&path, text.as_bytes());
}

/// Checks a request and finds its heat map if it can be had at once: kept in memory, kept on disk
/// (a big one), or computed on the spot (a small one). Call it off the async threads.
fn find(server: &Server, req: HeatmapReq) -> Result<Found, ApiError> {
    let space = resolve(server, req.shape.as_deref(), req.goal.as_deref())?;
    let table = space.table()?;
    if space.shape.cells() > 12 {
        // a count over every state: the 2x7's 43.6e9, walked down one by one at two bits
        return Err(Error::BadOption(format!(
            "the heat map counts every state of the board: boards of up to 12 cells (the {} has {} states)",
            space.shape,
            table.index().len()
        ))
        .into());
    }
    let name = req.heuristic.trim().to_ascii_lowercase();
    // an unknown heuristic is refused before any work (and `pdb`'s tables are loaded now)
    drop(space.estimate_fn(&name)?);
    let key = (space.shape, space.goal.clone(), name.clone());
    if let Some(done) = server.spaces.heatmap(&key) {
        return Ok(Found::Ready(done));
    }
    let big = table.index().len() > server.heatmap_quick_states;
    let asked = Asked { space, name, key };
    if big {
        if let Some(answer) = read_cache(&asked) {
            server.spaces.keep_heatmap(asked.key, Arc::clone(&answer));
            return Ok(Found::Ready(answer));
        }
        return Ok(Found::Long(asked));
    }
    // milliseconds, but on the build pool all the same: never every core
    let space = &asked.space;
    let answer: Arc<str> = space
        .on_build_pool(|| compute(space, &asked.name, &AtomicBool::new(false), &AtomicU64::new(0)))?
        .to_string()
        .into();
    server.spaces.keep_heatmap(asked.key, Arc::clone(&answer));
    Ok(Found::Ready(answer))
}

/// Queues `asked`'s heat map as `client`'s job; its stream ends with `result` (the answer).
fn submit(server: &Arc<Server>, client: &ClientId, asked: Asked) -> Result<JobStream, ApiError> {
    let total = asked.space.table()?.index().len();
    let s = Arc::clone(server);
    server.jobs.submit(client, "heatmap", Progress::States { total }, Box::new(move |job| work(&s, asked, job)))
}

/// A heat-map job: computed, unless another job is computing the same map (then its end is awaited,
/// its progress shown as this one's) or it was kept meanwhile; kept on disk and in memory.
fn work(server: &Server, asked: Asked, job: &Job) -> Result<(), Error> {
    let counter = loop {
        if let Some(answer) = kept(server, &asked) {
            let value = serde_json::from_str(&answer).map_err(|e| Error::Internal(e.to_string()))?;
            job.send("result", value);
            return Ok(());
        }
        let mut computing = server.computing.0.lock().unwrap_or_else(|e| e.into_inner());
        match computing.get(&asked.key) {
            Some(other) => {
                job.done.store(other.load(Ordering::Relaxed), Ordering::Relaxed);
                drop(computing);
                if job.stop.is_set() {
                    return Err(Error::Cancelled { generated: 0 });
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            None => {
                // this job computes the map itself now (the one it was waiting on was cancelled):
                // its count starts again from zero, not from the other's
                job.done.store(0, Ordering::Relaxed);
                computing.insert(asked.key.clone(), Arc::clone(&job.done));
                break Computing::guard(server, &asked.key);
            }
        }
    };
    let answer = compute_and_keep(server, &asked, &job.stop.flag, &job.done)?;
    drop(counter);
    job.send("result", answer);
    Ok(())
}

/// `asked`'s map if it is kept in memory or (checked) on disk, then kept in memory.
fn kept(server: &Server, asked: &Asked) -> Option<Arc<str>> {
    let answer = server.spaces.heatmap(&asked.key).or_else(|| read_cache(asked))?;
    server.spaces.keep_heatmap(asked.key.clone(), Arc::clone(&answer));
    Some(answer)
}

/// Computes `asked`'s map and keeps it, on disk (a named goal's) and in memory.
fn compute_and_keep(server: &Server, asked: &Asked, stop: &AtomicBool, done: &AtomicU64) -> Result<Value, Error> {
    let answer = compute(&asked.space, &asked.name, stop, done)?;
    let text = answer.to_string();
    write_cache(asked, &text);
    server.spaces.keep_heatmap(asked.key.clone(), text.into());
    Ok(answer)
}

/// Every heat map the page offers, the two its menus start on first: computed in the background,
/// in this order, when a big table of a named goal is first used ([`warm`]).
const WARM: [&str; 5] = ["manhattan", "hamming", "linear-conflict", "pdb", "nilsson"];

/// Starts computing, in the background, the heat maps of [`WARM`] over `space`'s table if it is a
/// big one of a named goal and they are neither kept nor on disk: two threads taking them in
/// turn, at the jobs' low priority (on the 3x4, Manhattan and misplaced tiles take two seconds or
/// so, linear conflict and the pattern tables about 47 s each, Nilsson's 26 s), once per table
/// and `--dir` (the maps are then saved there), so that a class opening the state space finds
/// them drawn at once. A heat-map job asking for one of them meanwhile waits for it with its
/// progress shown, as it waits for another job's. Cheap to call on every request: only the first
/// call for a space does anything.
pub fn warm(server: &Arc<Server>, space: &Arc<Space>) {
    let big = space.table.as_ref().is_some_and(|t| t.index().len() > server.heatmap_quick_states);
    // past 12 cells there are no heat maps (`find`)
    if !big || space.shape.cells() > 12 || !saves_built(&space.goal) || space.warmed.swap(true, Ordering::Relaxed) {
        return;
    }
    // two threads: the two maps the page draws side by side come in the time of one, then the
    // others in turn
    let next = Arc::new(AtomicUsize::new(0));
    for _ in 0..2 {
        let (server, space, next) = (Arc::clone(server), Arc::clone(space), Arc::clone(&next));
        let spawned = std::thread::Builder::new().name("heat map".into()).spawn(move || {
            lower_priority();
            while let Some(name) = WARM.get(next.fetch_add(1, Ordering::Relaxed)) {
                warm_one(&server, Arc::clone(&space), name);
            }
        });
        if spawned.is_err() {
            // no thread to spare: the map is computed when asked for, as a job
            break;
        }
    }
}

/// Computes and keeps (in memory and on disk) `space`'s heat map of `name`, unless it is kept,
/// on disk or being computed.
fn warm_one(server: &Server, space: Arc<Space>, name: &str) {
    let key = (space.shape, space.goal.clone(), name.to_string());
    let asked = Asked { space, name: name.to_string(), key };
    if kept(server, &asked).is_some() {
        return;
    }
    let done = Arc::new(AtomicU64::new(0));
    {
        let mut computing = server.computing.0.lock().unwrap_or_else(|e| e.into_inner());
        if computing.contains_key(&asked.key) {
            return;
        }
        computing.insert(asked.key.clone(), Arc::clone(&done));
    }
    let guard = Computing::guard(server, &asked.key);
    // on one thread, as a job's would be; a failure only means the map is computed when asked for
    let _ = on_one_thread(|| compute_and_keep(server, &asked, &AtomicBool::new(false), &done));
    drop(guard);
}

impl Computing {
    /// Takes `key` out of the heat maps being computed when dropped, however the job ends.
    fn guard<'a>(server: &'a Server, key: &HeatKey) -> impl Drop + 'a {
        struct Done<'a>(&'a Server, HeatKey);
        impl Drop for Done<'_> {
            fn drop(&mut self) {
                self.0.computing.0.lock().unwrap_or_else(|e| e.into_inner()).remove(&self.1);
            }
        }
        Done(server, key.clone())
    }
}

/// A JSON answer already written.
fn json_text(text: &str) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], text.to_string()).into_response()
}

/// `POST /api/heatmap`: the answer at once for a small table or a map kept; for a big table's, the
/// client's long job, waited for.
pub async fn heatmap(
    State(server): State<Arc<Server>>,
    client: ClientId,
    JsonBody(req): JsonBody<HeatmapReq>,
) -> Result<Response, ApiError> {
    let s = Arc::clone(&server);
    let asked = match blocking(move || find(&s, req)).await? {
        Found::Ready(answer) => return Ok(json_text(&answer)),
        Found::Long(asked) => asked,
    };
    let mut events = submit(&server, &client, asked)?;
    while let Some(e) = events.next_event().await {
        match e.name {
            "result" => return Ok(json_text(&e.data.to_string())),
            "error" => {
                let message = e.data["error"].as_str().unwrap_or("the heat map failed").to_string();
                return Err(ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message));
            }
            "done" => break,
            _ => {}
        }
    }
    Err(ApiError::new(
        StatusCode::CONFLICT,
        "the heat map was cancelled: this client cancelled it or started another long job (one runs per client)",
    ))
}

/// `POST /api/jobs/heatmap`: the heat map as a job's stream (`queued`, `started`, `progress`
/// `{"done", "total", "seconds"}`, `result` with `/api/heatmap`'s answer, `done`). One kept, or a
/// small table's, answers at once (`started`, `result`, `done`) without taking a job slot or
/// replacing the client's job.
pub async fn job(
    State(server): State<Arc<Server>>,
    client: ClientId,
    JsonBody(req): JsonBody<HeatmapReq>,
) -> Result<Response, ApiError> {
    let s = Arc::clone(&server);
    match blocking(move || find(&s, req)).await? {
        Found::Ready(answer) => {
            let value: Value = serde_json::from_str(&answer)
                .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("internal error: {e}")))?;
            Ok(JobStream::ready(vec![
                JobEvent::new("started", json!({"waited": 0.0})),
                JobEvent::new("result", value),
                JobEvent::new("done", json!({"cancelled": false})),
            ])
            .into_response())
        }
        Found::Long(asked) => Ok(submit(&server, &client, asked)?.into_response()),
    }
}
