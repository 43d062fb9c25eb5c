//! What every request goes through: the Host check (against DNS rebinding), the client id
//! (`X-Slidetable-Client`, checked here and read by the handlers that keep a job per client),
//! JSON bodies with a size limit, errors as `{"error": "..."}` with the CLI's wording, and the
//! security headers.

use std::fmt;

use axum::body::Body;
use axum::extract::{FromRequest, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use slidetable::Error;
use tokio_stream::StreamExt;

use super::Server;

/// The largest request body taken.
pub const BODY_LIMIT: usize = 64 * 1024;

/// The longest a request body may take to arrive once its head has (408 after it); a second in
/// the tests, which wait for it.
pub const BODY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(if cfg!(test) { 1 } else { 10 });

/// The longest a request's head may take to arrive, from the connection or the answer before
/// (the connection is closed after it).
pub const HEAD_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// An error answered as JSON: `{"error": "..."}` with its status.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    /// A 400 saying `message`.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::BAD_REQUEST, message: message.into() }
    }

    /// An error of status `status` saying `message`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: message.into() }
    }
}

impl From<Error> for ApiError {
    /// The library's message, as the CLI prints it; 400 for what the request got wrong, 500 for
    /// a table file that is missing or damaged on the server's side.
    fn from(e: Error) -> ApiError {
        let status = match e {
            Error::Io { .. } | Error::InFile { .. } | Error::Corrupt { .. } | Error::Internal(_) => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError { status, message: e.to_string() }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        error_response(self.status, &self.message)
    }
}

/// `{"error": message}` with `status`.
pub fn error_response(status: StatusCode, message: &str) -> Response {
    let body = serde_json::json!({ "error": message }).to_string();
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// A JSON request body: `Content-Type: application/json`, at most [`BODY_LIMIT`] bytes, every
/// field known.
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, _state: &S) -> Result<Self, Self::Rejection> {
        let json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
        if !json {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "the body must be JSON, sent with `Content-Type: application/json`",
            ));
        }
        let too_large =
            || ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, format!("the body is over {} KiB", BODY_LIMIT / 1024));
        let declared =
            req.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|n| n > BODY_LIMIT as u64) {
            return Err(too_large());
        }
        // read here rather than with `axum::body::to_bytes`, whose one error stands for both a
        // body over the limit and one that could not be read (a malformed chunk, a client gone)
        let mut bytes = Vec::new();
        let mut chunks = req.into_body().into_data_stream();
        let read = async {
            while let Some(chunk) = chunks.next().await {
                let chunk = chunk.map_err(|e| ApiError::bad(format!("the body could not be read: {}", causes(&e))))?;
                if bytes.len() + chunk.len() > BODY_LIMIT {
                    return Err(too_large());
                }
                bytes.extend_from_slice(&chunk);
            }
            Ok(())
        };
        // a body shorter than its Content-Length (or sent a byte at a time) would hold the
        // connection and its task for as long as the client liked
        match tokio::time::timeout(BODY_TIMEOUT, read).await {
            Ok(done) => done?,
            Err(_) => {
                return Err(ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    format!(
                        "the body did not arrive within {} s (is its Content-Length more than was sent?)",
                        BODY_TIMEOUT.as_secs()
                    ),
                ))
            }
        }
        let value = serde_json::from_slice(&bytes).map_err(|e| ApiError::bad(format!("bad JSON body: {e}")))?;
        Ok(JsonBody(value))
    }
}

/// `e` and its causes on one line (hyper's error for a malformed body says only "error reading a
/// body from connection"; its cause says what was wrong).
fn causes(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let more = c.to_string();
        if !text.contains(&more) {
            text = format!("{text}: {more}");
        }
        cause = c.source();
    }
    text.replace(['\r', '\n'], " ")
}

/// The header that names the client a request comes from: a random id the page draws once.
pub const CLIENT_HEADER: &str = "x-slidetable-client";

/// The shortest and longest client id taken.
const CLIENT_LEN: std::ops::RangeInclusive<usize> = 8..=64;

/// Who a request comes from: the id in [`CLIENT_HEADER`], or the anonymous client (every request
/// without the header, so scripts that never send it share one client).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ClientId(Option<String>);

impl ClientId {
    /// The client named by `headers`: anonymous without the header; a 400 for an id that is not
    /// 8 to 64 characters of `A-Z a-z 0-9 _ -`, or for the header given twice.
    pub fn from_headers(headers: &HeaderMap) -> Result<ClientId, ApiError> {
        let mut values = headers.get_all(CLIENT_HEADER).iter();
        let Some(value) = values.next() else { return Ok(ClientId(None)) };
        if values.next().is_some() {
            return Err(ApiError::bad("X-Slidetable-Client is given more than once: send it once"));
        }
        let ok = |id: &str| {
            CLIENT_LEN.contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        };
        match value.to_str() {
            Ok(id) if ok(id) => Ok(ClientId(Some(id.to_string()))),
            _ => Err(ApiError::bad(format!(
                "X-Slidetable-Client must be 8 to 64 characters of A-Z, a-z, 0-9, _ and -, not `{}`",
                String::from_utf8_lossy(value.as_bytes()).chars().take(80).collect::<String>()
            ))),
        }
    }
}

impl fmt::Display for ClientId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Some(id) => f.write_str(id),
            None => f.write_str("anonymous"),
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ClientId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        ClientId::from_headers(&parts.headers)
    }
}

/// Refuses a request with a malformed client id, whatever its route, so a page that sends a bad
/// one learns it on its first request rather than on its first job.
pub async fn check_client(req: Request, next: Next) -> Response {
    match ClientId::from_headers(req.headers()) {
        Ok(_) => next.run(req).await,
        Err(e) => e.into_response(),
    }
}

/// Refuses a request whose Host header is not one of this server's names (a page from
/// another site that has made its name resolve to 127.0.0.1 sends its own name), or that gives
/// none, or two (RFC 9112, 3.2: a server answers 400 to either).
pub async fn check_host(State(server): State<std::sync::Arc<Server>>, req: Request, next: Next) -> Response {
    let mut hosts = req.headers().get_all(header::HOST).iter();
    let host = hosts.next().and_then(|h| h.to_str().ok());
    if hosts.next().is_some() {
        return error_response(StatusCode::BAD_REQUEST, "the Host header is given more than once: send it once");
    }
    match host {
        Some(h) if server.takes_host(h) => next.run(req).await,
        Some(h) => error_response(
            StatusCode::MISDIRECTED_REQUEST,
            &format!("Host `{h}` is not this server's; open it as http://{}", server.hosts[0]),
        ),
        None => error_response(StatusCode::BAD_REQUEST, "a request needs a Host header"),
    }
}

/// Adds the security headers to every answer, and turns axum's own plain-text rejections
/// (405 and the like) into JSON errors.
pub async fn headers(req: Request, next: Next) -> Response {
    let api = req.uri().path().starts_with("/api/");
    let mut res = next.run(req).await;
    let status = res.status();
    let is_json_or_stream = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json") || v.starts_with("text/event-stream"));
    if (status.is_client_error() || status.is_server_error()) && !is_json_or_stream {
        let message = match status {
            StatusCode::METHOD_NOT_ALLOWED => "method not allowed here (the API takes POST with a JSON body, \
                                              and GET /api/info)"
                .to_string(),
            s => s.canonical_reason().unwrap_or("error").to_lowercase(),
        };
        res = error_response(status, &message);
    }
    let h = res.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, super::assets::content_security_policy());
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    if api {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    res
}

/// The answer to an unknown path.
pub async fn not_found(req: Request<Body>) -> Response {
    let path = req.uri().path();
    let shown: String = path.chars().take(100).collect();
    error_response(StatusCode::NOT_FOUND, &format!("no such page or API route: {shown}"))
}
