//! `table serve` as a user starts it: the real binary on port 0, its first line, the page and a
//! lookup over a real socket, a foreign Host refused, and a clean stop.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

struct Serving(Child);

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One HTTP/1.1 request over a fresh connection: (status, headers and body as text).
fn request(port: u16, host: &str, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).expect("timeout");
    let body = body.unwrap_or("");
    let typed = if body.is_empty() { "" } else { "Content-Type: application/json\r\n" };
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\n{typed}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("send");
    let mut out = String::new();
    s.read_to_string(&mut out).expect("read");
    let status = out.split_whitespace().nth(1).and_then(|c| c.parse().ok()).expect("a status line");
    (status, out)
}

#[test]
fn serve_on_port_0_answers_over_a_real_socket() {
    let dir = tempfile::tempdir().expect("a directory");
    let child = Command::new(env!("CARGO_BIN_EXE_table"))
        .args(["serve", "--port", "0", "--dir"])
        .arg(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start table serve");
    let mut child = Serving(child);
    let mut first = String::new();
    BufReader::new(child.0.stdout.take().expect("stdout")).read_line(&mut first).expect("a first line");
    let url = first.trim().strip_prefix("listening on http://127.0.0.1:").expect("the first line names the address");
    let port: u16 = url.parse().expect("a port");
    assert_ne!(port, 0);
    let host = format!("127.0.0.1:{port}");

    let (status, page) = request(port, &host, "GET", "/", None);
    assert_eq!(status, 200);
    assert!(page.to_ascii_lowercase().contains("content-security-policy: default-src 'self'"));
    assert!(page.contains("<html"));

    let (status, answer) = request(port, &host, "POST", "/api/position", Some(r#"{"board": "8 6 7 2 5 4 3 0 1"}"#));
    assert_eq!(status, 200, "{answer}");
    assert!(answer.contains(r#""distance":31"#), "{answer}");
    // ragged rows are refused as the CLI refuses them, not read as nine tiles
    let (status, answer) = request(port, &host, "POST", "/api/position", Some(r#"{"board": "1 2 3 / 4 5 / 6 7 8 0"}"#));
    assert_eq!(status, 400, "{answer}");
    assert!(answer.contains("row 2 has 2 tiles, but a 3x3 board's rows have 3"), "{answer}");

    let (status, answer) = request(port, "attacker.example", "GET", "/api/info", None);
    assert_eq!(status, 421, "{answer}");

    let (status, answer) = request(port, &host, "GET", "/../../etc/passwd", None);
    assert_eq!(status, 404, "{answer}");
}

#[test]
fn serve_refuses_a_missing_directory_on_one_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_table"))
        .args(["serve", "--port", "0", "--dir", "/no/such/dir"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("no such directory"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn serve_refuses_bad_flags_on_one_line() {
    for (flag, value, says) in [
        ("--jobs", "0", "--jobs"),
        ("--jobs", "two", "--jobs"),
        ("--max-memory", "lots", "is not a size"),
        ("--max-memory", "0", "is not a positive size"),
        ("--max-memory", "1Q", "is not a size"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_table"))
            .args(["serve", "--port", "0", &format!("{flag}={value}")])
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(says), "{err}");
        assert!(out.stdout.is_empty());
    }
}
