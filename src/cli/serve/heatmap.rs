//! The heat map of an estimate against the exact distance (`POST /api/heatmap`): computed on the
//! spot for small tables, as the client's long job for big ones (seconds of work over every
//! state), and kept.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use slidetable::lab::joint;
use slidetable::Error;

use super::api::{blocking, resolve, HEURISTICS};
use super::http::{ApiError, ClientId, JsonBody};
use super::queue::Progress;
use super::space::Space;
use super::Server;

/// A request for a heat map.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeatmapReq {
    pub heuristic: String,
    pub shape: Option<String>,
    pub goal: Option<String>,
}

/// States past which a heat map is a long job (it takes a job slot, as its client's job).
pub const HEATMAP_QUICK_STATES: u64 = 2_000_000;

/// The heat map of the estimate `name` over `space`'s table, as the API answers it.
fn compute(space: &Space, name: &str, stop: &AtomicBool) -> Result<Value, Error> {
    let table = space.table()?;
    let estimate = space.estimate_fn(name)?;
    let label = HEURISTICS.iter().find(|h| h.0 == name).map_or(name.to_string(), |h| h.1.to_string());
    let j = joint::joint(table, &*estimate, stop)?;
    Ok(json!({
        "heuristic": name, "label": label, "states": j.states, "counts": j.counts,
        "exact_share": j.exact_share(), "mean_error": j.mean_error(), "overestimates": j.overestimates,
    }))
}

/// A JSON answer already written.
fn json_text(text: Arc<str>) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], text.to_string()).into_response()
}

/// `POST /api/heatmap`.
pub async fn heatmap(
    State(server): State<Arc<Server>>,
    client: ClientId,
    JsonBody(req): JsonBody<HeatmapReq>,
) -> Result<Response, ApiError> {
    let name = req.heuristic.trim().to_ascii_lowercase();
    let (s, n) = (Arc::clone(&server), name.clone());
    let (space, answer) = blocking(move || {
        let space = resolve(&s, req.shape.as_deref(), req.goal.as_deref())?;
        let table = space.table()?;
        // an unknown heuristic is refused before any work
        drop(space.estimate_fn(&n)?);
        let key = (space.shape, space.goal.clone(), n.clone());
        if let Some(done) = s.spaces.heatmap(&key) {
            return Ok((space, Some(done)));
        }
        if table.index().len() > s.heatmap_quick_states {
            return Ok((space, None));
        }
        let answer: Arc<str> = compute(&space, &n, &AtomicBool::new(false))?.to_string().into();
        s.spaces.keep_heatmap(key, Arc::clone(&answer));
        Ok((space, Some(answer)))
    })
    .await?;
    if let Some(answer) = answer {
        return Ok(json_text(answer));
    }
    // a big table's map takes seconds of a core: the client's long job, waiting its turn
    let total = space.table()?.index().len();
    let s = Arc::clone(&server);
    let mut events = server.jobs.submit(
        &client,
        "heatmap",
        Progress::States { total },
        Box::new(move |job| {
            let answer = compute(&space, &name, &job.stop.flag)?;
            let key = (space.shape, space.goal.clone(), name);
            s.spaces.keep_heatmap(key, answer.to_string().into());
            job.send("result", answer);
            Ok(())
        }),
    )?;
    while let Some(e) = events.next_event().await {
        match e.name {
            "result" => return Ok(Json(e.data).into_response()),
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
