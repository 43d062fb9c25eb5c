//! Every example in `table help <command>` runs as written from the repository root: each is
//! run by `sh` in a scratch directory that has the repository's `data/` folder, with the `table`
//! under test first on the PATH, in the order the commands are listed (so an example may use a
//! table an earlier one built), and must exit 0.

mod common;

use std::path::Path;
use std::process::Command;

const COMMANDS: [&str; 11] =
    ["build", "query", "stats", "verify", "solve", "sample", "count", "heuristic", "experiment", "completions", "man"];

/// The example lines of one command's long help: the indented lines after `Examples:`.
fn examples(command: &str) -> Vec<String> {
    let out = Command::new(assert_cmd::cargo::cargo_bin("table")).args(["help", command]).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    help.lines()
        .skip_while(|l| !l.starts_with("Examples:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn every_help_example_runs_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    std::os::unix::fs::symlink(&data, dir.path().join("data")).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("table");
    let path = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let mut ran = 0;
    for command in COMMANDS {
        for example in examples(command) {
            let out = Command::new("sh")
                .args(["-c", &format!("set -e; {example}")])
                .current_dir(dir.path())
                .env("PATH", &path)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "`{example}` (from `table help {command}`) failed: {:?}\n{}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            );
            ran += 1;
        }
    }
    assert!(ran >= 40, "only {ran} examples found");
}
