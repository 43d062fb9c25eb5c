//! What the integration tests share (most of it for running the real binary).

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

/// The `table` binary, run in `dir`.
pub fn table(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("table").unwrap();
    cmd.current_dir(dir);
    cmd
}

/// The repository's root (the workspace's, above this package's `cli/`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// A file of the repository's `data/` folder.
pub fn data(name: &str) -> PathBuf {
    root().join("data").join(name)
}

/// One line on stderr, starting `table:`.
pub fn one_line_error() -> impl Predicate<str> {
    predicate::function(|s: &str| s.starts_with("table: ") && s.trim_end().lines().count() == 1)
}

/// `table args` started in `dir`, its standard output and error piped (for a test that signals
/// it or closes its output while it runs).
pub fn spawn_table(dir: &Path, args: &[&str]) -> std::process::Child {
    use std::process::Stdio;
    std::process::Command::new(assert_cmd::cargo::cargo_bin("table"))
        .current_dir(dir)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs `table args` in `dir` with its standard output closed before it writes (a reader that
/// stopped, as `| head` does) and asserts it exits 0 with nothing on stderr.
pub fn assert_quiet_on_closed_pipe(dir: &Path, args: &[&str]) {
    let mut child = spawn_table(dir, args);
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
    assert!(stderr.is_empty(), "{args:?}: {stderr}");
}
