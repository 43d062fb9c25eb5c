//! `table serve`: a page for teaching search, driven by the exact table, and its JSON API.
//!
//! `mod.rs` parses the arguments, binds the socket and runs the server on a tokio runtime of its
//! own (the rest of the CLI stays synchronous); `http.rs` is what every request goes through
//! (Host check, client id, JSON bodies, errors, security headers); `api.rs` the lookups; `jobs.rs`
//! the long jobs' handlers, streamed as server-sent events, and `queue.rs` their scheduler (one
//! job per client, `--jobs` at once, the rest in turn); `space.rs` what the server knows of each
//! board shape and goal; `assets.rs` the page's files, embedded (`page/`). The API is documented
//! in `docs/serve-api.md`.
//! `trace.rs` answers A* and IDA* step by step.

pub mod api;
pub mod assets;
mod conn;
pub mod heatmap;
pub mod http;
pub mod jobs;
pub mod queue;
pub mod space;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_trace;
pub mod trace;

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result};
use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{middleware, Router};
use clap::Args;
use tower_http::compression::CompressionLayer;

use self::heatmap::HEATMAP_QUICK_STATES;
use self::queue::Jobs;
use self::space::Spaces;

pub const LONG_ABOUT: &str = "\
Serve a page for teaching heuristic search, driven by the exact table, and its JSON API.

Open the address it prints (or give --open) and you get, for the 8-puzzle and every board a table
holds (up to 12 cells, and 2x7 or 7x2 when their table is in --dir; 4x4 and 5x5 through pattern
tables and search):
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
own nor an IP address (against DNS rebinding), and takes JSON bodies of at most 64 KiB. Long jobs
(a big solve, a comparison, the experiment, a big heat map) are kept per client (the page's
X-Slidetable-Client header; a client's new job replaces its old one): --jobs of them run at once
(one per core by default), each on one thread at a low priority so that lookups stay quick, and
the others wait their turn, first come, first served. The first line it prints is
`listening on http://127.0.0.1:PORT`; --port 0 picks a free port. Ctrl-C stops it.

Tables are looked for in --dir under the names `table build` gives them: perfect tables, else
built in memory at first use (about ten seconds and 240 MB for 3x4; never for 2x7 and 7x2, whose
two-bit tables of 10.9 GB are only mapped from --dir, not counted against --max-memory, and have
no heat maps), and pattern tables for 4x4
and 5x5 (for 4x4, 6-6-3 is built at first use when none is found: about 8 s on 2 cores). Pattern tables
built at first use are saved in --dir for the named goals only; for a goal given as a board they
are kept in memory only, so that clients choosing goals cannot fill the disk with them. What the
server keeps (tables, built or mapped, and heat maps) stays within --max-memory (1G by default):
past it, what was used least recently is let go, and built again when asked for. The heat maps of
3x4 and 2x6 (seconds of work each) are saved in --dir too for the named goals, and read back by
later servers.
The API is described in docs/serve-api.md.

Examples:
  table serve --open
  table serve --port 8080 --dir tables
  table serve --host 0.0.0.0 --jobs 2       # a classroom: students open http://THIS-MACHINE:8226";

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

    /// Where tables are looked for (perfect tables and pattern tables), and the pattern tables
    /// built for the named goals and the heat maps of big tables saved.
    #[arg(long, default_value = ".")]
    pub dir: PathBuf,

    /// Long jobs (solves, comparisons, experiments, big heat maps) run at once, one thread each;
    /// the others wait their turn. [default: the number of cores]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,

    /// The memory the server keeps tables and heat maps in (like 512M, 2G): past it, those used
    /// least recently are let go (and built again when asked for). A job's search gets at most
    /// this divided by --jobs. [default: 1G, or half the machine's memory when that is less]
    #[arg(long, value_name = "SIZE", value_parser = super::solve::parse_size)]
    pub max_memory: Option<u64>,
}

/// How a server is set up.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where tables are looked for, and the pattern tables built for the named goals saved.
    pub dir: PathBuf,
    /// Long jobs run at once.
    pub jobs: usize,
    /// The bytes of tables and heat maps kept at most.
    pub max_memory: u64,
    /// States past which a heat map is a long job.
    pub heatmap_quick_states: u64,
}

impl Config {
    /// Tables in `dir`, a job per core, [`default_max_memory`].
    pub fn new(dir: PathBuf) -> Config {
        Config { dir, jobs: cores(), max_memory: default_max_memory(), heatmap_quick_states: HEATMAP_QUICK_STATES }
    }
}

/// The memory budget when none is given: 1 GiB (every board's table kept at once, the two 12-cell
/// ones of 240 MB each among them, with room to spare), or half the machine's memory when that is
/// less.
pub fn default_max_memory() -> u64 {
    let half = slidetable::solver::physical_memory().map_or(u64::MAX, |m| m / 2);
    (1u64 << 30).min(half)
}

/// The cores this process may use.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

/// What every request shares.
pub struct Server {
    /// The Host header values taken (`127.0.0.1:PORT`, `localhost:PORT`, ...); the first is shown.
    pub hosts: Vec<String>,
    /// The shapes and goals asked about so far.
    pub spaces: Spaces,
    /// The long jobs running and waiting.
    pub jobs: Arc<Jobs>,
    /// The most bytes one job's search may hold: the budget shared among the job slots.
    pub job_bytes: u64,
    /// States past which a heat map is a long job.
    pub heatmap_quick_states: u64,
    /// The heat maps being computed now (a second request for one waits for it).
    pub computing: heatmap::Computing,
}

impl Server {
    /// A server answering to `addr` (the address it is bound to), set up as `config` says.
    pub fn new(addr: SocketAddr, config: Config) -> Server {
        let port = addr.port();
        let mut hosts = vec![format!("{}:{port}", url_host(addr.ip()))];
        if addr.ip().is_loopback() || addr.ip().is_unspecified() {
            for h in ["127.0.0.1", "localhost", "[::1]"] {
                hosts.push(format!("{h}:{port}"));
            }
        }
        hosts.dedup();
        let jobs = config.jobs.max(1);
        Server {
            hosts,
            spaces: Spaces::new(&config.dir, config.max_memory),
            jobs: Jobs::new(jobs),
            job_bytes: (config.max_memory / jobs as u64).min(slidetable::solver::default_max_memory()),
            heatmap_quick_states: config.heatmap_quick_states,
            computing: heatmap::Computing::default(),
        }
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
        page = match asset.path {
            "/" => page.route("/", get(index)),
            path => page.route(path, get(move || async move { serve_asset(asset) })),
        };
    }
    let api = Router::new()
        .route("/api/info", get(api::info))
        .route("/api/position", post(api::position))
        .route("/api/scramble", post(api::scramble))
        .route("/api/solve", post(api::solve))
        .route("/api/stats", post(api::stats))
        .route("/api/heatmap", post(heatmap::heatmap))
        .route("/api/heatmap/example", post(api::heatmap_example))
        .route("/api/astar", post(trace::astar))
        .route("/api/idastar", post(trace::idastar))
        .route("/api/jobs/solve", post(jobs::solve))
        .route("/api/jobs/compare", post(jobs::compare))
        .route("/api/jobs/experiment", post(jobs::experiment))
        .route("/api/jobs/heatmap", post(heatmap::job))
        .route("/api/jobs/cancel", post(jobs::cancel));
    page.merge(api)
        .fallback(http::not_found)
        .layer(CompressionLayer::new())
        .layer(middleware::from_fn(http::check_client))
        .layer(middleware::from_fn_with_state(Arc::clone(&server), http::check_host))
        // outermost, so that every answer has the security headers, a refused Host's too
        .layer(middleware::from_fn(http::headers))
        .with_state(server)
}

/// Where the page's first board goes in `index.html`.
pub const FIRST_BOARD: &str = r#"<script type="application/json" id="first-board"></script>"#;

/// The stylesheet's link in `index.html`, which `GET /` replaces with the stylesheet itself.
pub const STYLESHEET: &str = r#"<link rel="stylesheet" href="/assets/style.css">"#;

/// `GET /`: the page, with a 3x3 board scrambled 20 moves from the goal and its position written
/// into it (what the page would ask for first), so that the first board is drawn as soon as the
/// scripts run, without a round trip; the page without it if that fails. The stylesheet is
/// written in too: the scripts would wait for a linked one.
async fn index(State(server): State<Arc<Server>>) -> Response {
    let asset = assets::ASSETS.iter().find(|a| a.path == "/").expect("the page's index.html is embedded");
    let req = api::ScrambleReq { depth: 20, seed: None, shape: None, goal: None, position: true };
    let first = api::blocking(move || api::scramble_answer(&server, &req)).await.ok();
    let html = asset.load();
    let page = match std::str::from_utf8(&html) {
        Ok(text) => {
            let mut text = text.to_string();
            if let Some(first) = first.filter(|_| text.contains(FIRST_BOARD)) {
                // inside a script element: no `<` may close it early
                let data = first.to_string().replace('<', "\\u003c");
                let filled = format!(r#"<script type="application/json" id="first-board">{data}</script>"#);
                text = text.replacen(FIRST_BOARD, &filled, 1);
            }
            let css = assets::style().load();
            match std::str::from_utf8(&css) {
                // the CSP allows this text by its hash (`http::headers`); one that could close
                // the element early stays a link
                Ok(css) if text.contains(STYLESHEET) && !css.to_ascii_lowercase().contains("</style") => {
                    text = text.replacen(STYLESHEET, &format!("<style>{css}</style>"), 1);
                }
                _ => {}
            }
            text.into_bytes()
        }
        Err(_) => html.into_owned(),
    };
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(asset.mime)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        page,
    )
        .into_response()
}

fn serve_asset(asset: &'static assets::Asset) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(asset.mime)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        asset.load().into_owned(),
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
    let mut config = Config::new(args.dir.clone());
    if let Some(jobs) = args.jobs {
        config.jobs = jobs.into();
    }
    if let Some(bytes) = args.max_memory {
        config.max_memory = bytes;
    }
    let server = Arc::new(Server::new(bound, config));
    let url = format!("http://{}/", server.hosts[0]);
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening on {}", url.trim_end_matches('/'))?;
        out.flush()?;
    }
    // said once: a server started in a home directory saves files there
    let dir = std::fs::canonicalize(&args.dir).unwrap_or_else(|_| args.dir.clone());
    eprintln!(
        "table serve: tables are read from {}, and the pattern tables and heat maps it builds are saved there \
         (--dir for another folder)",
        dir.display()
    );
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
        conn::serve(listener, server, http::HEAD_TIMEOUT, async move {
            let _ = tokio::signal::ctrl_c().await;
            // a streaming job would hold its connection open: stop it, so its stream ends
            stopping.jobs.cancel_all();
        })
        .await;
        anyhow::Ok(())
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
