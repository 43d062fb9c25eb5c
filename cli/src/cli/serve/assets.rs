//! The page's files, embedded in the binary: the installed `table` needs nothing beside it, and
//! no path outside this list is ever served. For work on the page, `SLIDETABLE_PAGE_DIR` set to
//! `cli/src/cli/serve/page` makes the server read these same files from there at each request,
//! so an edit shows on a reload without rebuilding the binary.

use std::borrow::Cow;

use axum::http::HeaderValue;

/// One embedded file: its URL path, its media type, its bytes.
pub struct Asset {
    /// The path it is served at.
    pub path: &'static str,
    /// Its `Content-Type`.
    pub mime: &'static str,
    /// Its file's name in `page/`.
    pub file: &'static str,
    /// Its contents.
    pub bytes: &'static [u8],
}

impl Asset {
    /// Its contents: the embedded bytes, or the file in `SLIDETABLE_PAGE_DIR` when that is set
    /// (and readable).
    pub fn load(&self) -> Cow<'static, [u8]> {
        match std::env::var_os("SLIDETABLE_PAGE_DIR") {
            Some(dir) => match std::fs::read(std::path::Path::new(&dir).join(self.file)) {
                Ok(bytes) => Cow::Owned(bytes),
                Err(_) => Cow::Borrowed(self.bytes),
            },
            None => Cow::Borrowed(self.bytes),
        }
    }
}

macro_rules! asset {
    ($path:expr, $file:literal, $mime:expr) => {
        Asset { path: $path, mime: $mime, file: $file, bytes: include_bytes!(concat!("page/", $file)) }
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
    js!("draw.js"),
    js!("play.js"),
    js!("inspect.js"),
    js!("space.js"),
    js!("astar.js"),
    js!("compare.js"),
    js!("textbook.js"),
];

/// The stylesheet, written into the page by `GET /` (a script waits for a linked stylesheet, so
/// a link would hold the first board back by a round trip) and still served on its own.
pub fn style() -> &'static Asset {
    ASSETS.iter().find(|a| a.file == "style.css").expect("the page's style.css is embedded")
}

/// The Content-Security-Policy `style-src` source for `css` written into a `<style>` element:
/// its SHA-256, so that the page's own stylesheet is allowed inline and no other style is.
pub fn style_source(css: &[u8]) -> String {
    use base64::Engine;
    use sha2::Digest;
    format!("'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(css)))
}

/// The Content-Security-Policy of every answer: the page's stylesheet is written into it (`GET
/// /`), and its hash lets that one style in. Made once for the embedded stylesheet (every answer
/// carries it), at each call for one read from `SLIDETABLE_PAGE_DIR`.
pub fn content_security_policy() -> HeaderValue {
    static EMBEDDED: std::sync::OnceLock<HeaderValue> = std::sync::OnceLock::new();
    let policy = |css: &[u8]| {
        let text = format!(
            "default-src 'self'; style-src 'self' {}; img-src 'self' data: blob:; object-src 'none'; \
             base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
            style_source(css)
        );
        HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'"))
    };
    if std::env::var_os("SLIDETABLE_PAGE_DIR").is_some() {
        return policy(&style().load());
    }
    EMBEDDED.get_or_init(|| policy(style().bytes)).clone()
}
