//! The page's files, embedded in the binary: the installed `table` needs nothing beside it, and
//! no path outside this list is ever served.

/// One embedded file: its URL path, its media type, its bytes.
pub struct Asset {
    /// The path it is served at.
    pub path: &'static str,
    /// Its `Content-Type`.
    pub mime: &'static str,
    /// Its contents.
    pub bytes: &'static [u8],
}

macro_rules! asset {
    ($path:expr, $file:literal, $mime:expr) => {
        Asset { path: $path, mime: $mime, bytes: include_bytes!(concat!("page/", $file)) }
    };
}

macro_rules! js {
    ($name:literal) => {
        asset!(concat!("/assets/", $name), $name, "text/javascript; charset=utf-8")
    };
}

/// Every file the page is made of.
pub static ASSETS: &[Asset] = &[
    asset!("/", "index.html", "text/html; charset=utf-8"),
    asset!("/assets/style.css", "style.css", "text/css; charset=utf-8"),
    js!("app.js"),
    js!("api.js"),
    js!("play.js"),
    js!("inspect.js"),
    js!("space.js"),
    js!("astar.js"),
    js!("compare.js"),
    js!("textbook.js"),
];
