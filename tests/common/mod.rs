//! What the integration tests that run the real binary share.
#![allow(dead_code)] // each test crate uses its own part

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

/// The `table` binary, run in `dir`.
pub fn table(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("table").unwrap();
    cmd.current_dir(dir);
    cmd
}

/// A file of the repository's `data/` folder.
pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data").join(name)
}

/// One line on stderr, starting `table:`.
pub fn one_line_error() -> impl Predicate<str> {
    predicate::function(|s: &str| s.starts_with("table: ") && s.trim_end().lines().count() == 1)
}
