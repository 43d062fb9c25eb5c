//! `table serve`: a page for teaching search, driven by the exact table, and its JSON API.
//!
//! `mod.rs` parses the arguments, binds the socket and runs the server on a tokio runtime of its
//! own (the rest of the CLI stays synchronous); `http.rs` is what every request goes through
//! (Host check, JSON bodies, errors, security headers); `api.rs` the lookups; `jobs.rs` the long
//! jobs streamed as server-sent events; `space.rs` what the server knows of each board shape and
//! goal; `assets.rs` the page's files, embedded (`page/`). The API is documented in
//! `docs/SERVE.md`.
//! `trace.rs` answers A* and IDA* step by step.

pub mod api;
pub mod assets;
pub mod http;
pub mod jobs;
pub mod space;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_trace;
pub mod trace;

use std::collections::HashMap;
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use anyhow::{Context, Result};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{middleware, Router};
use clap::Args;
use serde_json::Value;
use slidetable::{Goal, Shape};
use tower_http::compression::CompressionLayer;

use self::jobs::Jobs;
use self::space::Spaces;

pub const LONG_ABOUT: &str = "\
Serve a page for teaching heuristic search, driven by the exact table, and its JSON API.

Open the address it prints (or give --open) and you get, for the 8-puzzle and every board a table
holds (up to 12 cells; 4x4 and 5x5 through pattern tables and search):
  - play, with every legal move labelled with the exact distance it leads to, hints in stages,
    undo/redo, scrambles at an exact distance, boards typed or pasted (a COS 226 file too), and
    shareable URLs (/?board=...&goal=...);
  - the heuristic inspector: misplaced tiles, Manhattan, linear conflict and pattern tables beside
    the true distance h*, and a weight slider that flags where w x h overestimates;
  - the state space at a glance: the depth distribution, and the heat map of h against h* over
    every state, with a click on a cell showing a board from it;
  - A* step by step, with the open list, the closed set and the search tree, each node coloured
    by whether it must, may or never need be expanded (f against the exact C*);
  - comparisons of BFS, IDS, A*, IDA*, weighted A* and greedy on one board, kept as a transcript
    (CSV/JSON);
  - Russell & Norvig's table live, rows streamed beside the published values, cancellable.

The server listens on 127.0.0.1 only (give --host to listen elsewhere: --host 0.0.0.0 lets other
machines open it by this machine's address). It refuses requests whose Host header is neither its
own nor an IP address (against DNS rebinding), takes JSON bodies of at most 64 KiB, and runs one
long job (a big solve, a comparison, the experiment) at a time. The first line it prints is
`listening on http://127.0.0.1:PORT`; --port 0 picks a free port. Ctrl-C stops it.

Tables are looked for in --dir under the names `table build` gives them: perfect tables, else
built in memory at first use (up to 2 s and 240 MB for 3x4), and pattern tables for 4x4 and 5x5
(for 4x4, 6-6-3 is built there at first use when none is found, in about 2 s). The API is described in docs/SERVE.md.

Examples:
  table serve --open
  table serve --port 8080 --dir tables";

/// Arguments of `table serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on; 0 picks a free one (printed on the first line).
    #[arg(long, default_value_t = 8226)]
    pub port: u16,

    /// The address to listen on. The default, 127.0.0.1, lets only this machine in.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,

    /// Open the page in the browser once the server listens.
    #[arg(long)]
    pub open: bool,

    /// Where tables are looked for (perfect tables and pattern tables), and 4x4 pattern tables saved.
    #[arg(long, default_value = ".")]
    pub dir: PathBuf,
}

/// What every request shares.
pub struct Server {
    /// The Host header values taken (`127.0.0.1:PORT`, `localhost:PORT`, ...); the first is shown.
    pub hosts: Vec<String>,
    /// The shapes and goals asked about so far.
    pub spaces: Spaces,
    /// The long job now running.
    pub jobs: Jobs,
    /// Heat maps computed so far, by shape, goal and heuristic.
    pub heatmaps: Mutex<HashMap<(Shape, Goal, String), Value>>,
}

impl Server {
    /// A server answering to `addr` (the address it is bound to), with tables from `dir`.
    pub fn new(addr: SocketAddr, dir: PathBuf) -> Server {
        let port = addr.port();
        let mut hosts = vec![format!("{}:{port}", url_host(addr.ip()))];
        if addr.ip().is_loopback() || addr.ip().is_unspecified() {
            for h in ["127.0.0.1", "localhost", "[::1]"] {
                hosts.push(format!("{h}:{port}"));
            }
        }
        hosts.dedup();
        Server { hosts, spaces: Spaces::new(&dir), jobs: Jobs::default(), heatmaps: Mutex::new(HashMap::new()) }
    }

    /// Whether a request with this Host header is taken: one of [`Server::hosts`], or any IP
    /// address with this server's port (an address, unlike a name, cannot be made to resolve to
    /// this machine by another site, so it is safe from DNS rebinding, and it lets a server given
    /// `--host 0.0.0.0` be reached by its address from other machines).
    pub fn takes_host(&self, host: &str) -> bool {
        if self.hosts.iter().any(|ok| ok.eq_ignore_ascii_case(host)) {
            return true;
        }
        let port = self.hosts[0].rsplit_once(':').map(|(_, p)| p);
        match host.parse::<SocketAddr>() {
            Ok(addr) => port == Some(addr.port().to_string().as_str()),
            Err(_) => false,
        }
    }
}

fn url_host(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) if v4.is_unspecified() => "127.0.0.1".to_string(),
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
    }
}

/// The whole application: the page, the API, and the layers every request goes through.
pub fn router(server: Arc<Server>) -> Router {
    let mut page = Router::new();
    for asset in assets::ASSETS {
        page = page.route(asset.path, get(move || async move { serve_asset(asset) }));
    }
    let api = Router::new()
        .route("/api/info", get(api::info))
        .route("/api/position", post(api::position))
        .route("/api/scramble", post(api::scramble))
        .route("/api/solve", post(api::solve))
        .route("/api/stats", post(api::stats))
        .route("/api/heatmap", post(api::heatmap))
        .route("/api/heatmap/example", post(api::heatmap_example))
        .route("/api/astar", post(trace::astar))
        .route("/api/idastar", post(trace::idastar))
        .route("/api/jobs/solve", post(jobs::solve))
        .route("/api/jobs/compare", post(jobs::compare))
        .route("/api/jobs/experiment", post(jobs::experiment))
        .route("/api/jobs/cancel", post(jobs::cancel));
    page.merge(api)
        .fallback(http::not_found)
        .layer(CompressionLayer::new())
        .layer(middleware::from_fn(http::headers))
        .layer(middleware::from_fn_with_state(Arc::clone(&server), http::check_host))
        .with_state(server)
}

fn serve_asset(asset: &'static assets::Asset) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(asset.mime)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        asset.bytes,
    )
        .into_response()
}

/// Runs `table serve` until Ctrl-C.
pub fn run(args: ServeArgs) -> Result<()> {
    if !args.dir.is_dir() {
        return Err(super::UsageError(format!("--dir {}: no such directory", args.dir.display())).into());
    }
    let addr = SocketAddr::new(args.host, args.port);
    let listener = std::net::TcpListener::bind(addr).with_context(|| format!("listening on {addr}"))?;
    listener.set_nonblocking(true).context("setting up the socket")?;
    let bound = listener.local_addr().context("reading the socket's address")?;
    let server = Arc::new(Server::new(bound, args.dir.clone()));
    let url = format!("http://{}/", server.hosts[0]);
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening on {}", url.trim_end_matches('/'))?;
        out.flush()?;
    }
    if args.open {
        open_browser(&url);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("serve")
        .build()
        .context("starting the server's runtime")?;
    let stopping = Arc::clone(&server);
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener).context("setting up the socket")?;
        axum::serve(listener, router(server))
            .with_graceful_shutdown(async move {
                let _ = tokio::signal::ctrl_c().await;
                // a streaming job would hold its connection open: stop it, so its stream ends
                stopping.jobs.cancel();
            })
            .await
            .context("serving")
    })?;
    Ok(())
}

/// Opens `url` in the desktop's browser; says so on stderr when it cannot.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    let spawned = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = spawned {
        eprintln!("could not open a browser ({opener}: {e}); open {url} yourself");
    }
}
