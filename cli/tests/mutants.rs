//! Mutants of real tables, every one of them: the file cut at every header field boundary (and
//! one byte short, one byte long), every header byte flipped, every payload byte flipped. Each is
//! refused by `query`, `stats`, `verify` and `solve` with exit 3 and one line on stderr: none
//! panics, none prints an answer. For every kind of table: a perfect table (2x3, at a byte and at
//! two bits a state) and a pattern
//! table (tiles 1,2,3 of the 8-puzzle, used by `solve -H pdb` from its folder).
//!
//! About 40,000 runs of the binary, spread over the machine's cores.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use common::table;

/// The header's field boundaries (docs/formats.md): magic, version, payload offset, rows, cols,
/// encoding, max depth, goal, reserved, entries, payload CRC, header CRC, reserved, each histogram
/// slot, group length, width, reserved, group, pattern goal, and the end of the header.
fn cuts(len: usize) -> Vec<usize> {
    let mut cuts = vec![0, 1, 4, 8, 12, 16, 17, 18, 19, 20, 36, 40, 48, 52, 56, 64];
    cuts.extend((1..=256).map(|d| 64 + 8 * d));
    cuts.extend([2113, 2114, 2116, 2180, 2244, 4095, 4096, 4097, len - 1]);
    cuts
}

/// Every mutant of `file`, with a name for the failure message.
fn mutants(file: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for cut in cuts(file.len()) {
        out.push((format!("cut at {cut}"), file[..cut].to_vec()));
    }
    let mut longer = file.to_vec();
    longer.push(0);
    out.push(("one byte appended".into(), longer));
    for i in 0..file.len() {
        let mut m = file.to_vec();
        m[i] ^= 0xff;
        out.push((format!("byte {i} flipped"), m));
    }
    out
}

/// Runs `table args` in `dir` and checks it refused the file: exit 3, nothing on stdout, one line
/// on stderr naming the problem.
fn refused(dir: &Path, args: &[&str], mutant: &str) -> Result<(), String> {
    let out = Command::new(assert_cmd::cargo::cargo_bin("table"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| e.to_string())?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let ok = out.status.code() == Some(3)
        && out.stdout.is_empty()
        && stderr.starts_with("table: ")
        && stderr.trim_end().lines().count() == 1
        && !stderr.contains("panicked");
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{mutant}: `table {}` gave {:?}, stdout {:?}, stderr {stderr:?}",
            args.join(" "),
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).chars().take(60).collect::<String>()
        ))
    }
}

/// Writes each mutant over `target` (in a scratch folder of each worker, a copy of `base`) and
/// runs every command on it; returns the failures.
fn check_all(base: &Path, file_name: &str, mutants: Vec<(String, Vec<u8>)>, commands: &[Vec<&str>]) -> Vec<String> {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(2, 8);
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for w in 0..workers {
            let (next, failures, mutants) = (&next, &failures, &mutants);
            s.spawn(move || {
                let dir = tempfile::tempdir().unwrap();
                for entry in std::fs::read_dir(base).unwrap() {
                    let entry = entry.unwrap();
                    std::fs::copy(entry.path(), dir.path().join(entry.file_name())).unwrap();
                }
                let target: PathBuf = dir.path().join(file_name);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((name, bytes)) = mutants.get(i) else { break };
                    std::fs::write(&target, bytes).unwrap();
                    for args in commands {
                        if let Err(e) = refused(dir.path(), args, name) {
                            let mut f = failures.lock().unwrap();
                            if f.len() < 20 {
                                f.push(format!("worker {w}: {e}"));
                            }
                        }
                    }
                }
            });
        }
    });
    failures.into_inner().unwrap()
}

#[test]
#[ignore = "slow (about 38 s): CI runs it; cargo test -- --include-ignored --skip big::"]
fn every_mutant_of_a_perfect_table_is_refused_by_every_command() {
    let base = tempfile::tempdir().unwrap();
    table(base.path()).args(["build", "--board", "2x3", "-o", "t.table", "-q"]).assert().success();
    // the intact table is answered, so a refusal below is the mutant's doing
    let intact = ["query", "--table", "t.table", "1 2 3 4 0 5"];
    table(base.path()).args(intact).assert().success();
    table(base.path()).args(["verify", "--table", "t.table"]).assert().success();
    let file = std::fs::read(base.path().join("t.table")).unwrap();
    let mutants = mutants(&file);
    assert_eq!(mutants.len(), 4096 + 360 + 282);
    let commands = [
        vec!["query", "--table", "t.table", "1 2 3 4 0 5"],
        vec!["stats", "--table", "t.table"],
        vec!["verify", "--table", "t.table"],
        vec!["solve", "--table", "t.table", "1 2 3 4 0 5"],
    ];
    let failures = check_all(base.path(), "t.table", mutants, &commands);
    assert!(failures.is_empty(), "{} failures, the first:\n{}", failures.len(), failures.join("\n"));
}

#[test]
#[ignore = "slow (about 36 s): CI runs it; cargo test -- --include-ignored --skip big::"]
fn every_mutant_of_a_two_bit_table_is_refused_by_every_command() {
    let base = tempfile::tempdir().unwrap();
    table(base.path()).args(["build", "--board", "2x3", "--bits", "2", "-o", "t.table", "-q"]).assert().success();
    let intact = ["query", "--table", "t.table", "1 2 3 4 0 5"];
    table(base.path()).args(intact).assert().success();
    table(base.path()).args(["verify", "--table", "t.table"]).assert().success();
    let file = std::fs::read(base.path().join("t.table")).unwrap();
    // 360 states, four a byte
    assert_eq!(file.len(), 4096 + 90);
    let mutants = mutants(&file);
    assert_eq!(mutants.len(), 4096 + 90 + 282);
    let commands = [
        vec!["query", "--table", "t.table", "1 2 3 4 0 5"],
        vec!["stats", "--table", "t.table"],
        vec!["verify", "--table", "t.table"],
        vec!["solve", "--table", "t.table", "1 2 3 4 0 5"],
        vec!["count", "--table", "t.table", "1 2 3 4 0 5"],
        vec!["sample", "--table", "t.table", "--depth", "3"],
    ];
    let failures = check_all(base.path(), "t.table", mutants, &commands);
    assert!(failures.is_empty(), "{} failures, the first:\n{}", failures.len(), failures.join("\n"));
}

#[test]
#[ignore = "slow (about 60 s): CI runs it; cargo test -- --include-ignored --skip big::"]
fn every_mutant_of_a_pattern_table_is_refused_by_every_command() {
    let base = tempfile::tempdir().unwrap();
    table(base.path())
        .args(["build", "--board", "3x3", "--pattern", "1,2,3/4,5,6,7,8", "-q"])
        .assert()
        .success()
        .stdout(predicates::str::contains("3x3-blank-last-tiles-1-2-3.table"));
    let name = "3x3-blank-last-tiles-1-2-3.table";
    let solve = ["solve", "-H", "pdb", "--pattern", "1,2,3/4,5,6,7,8", "8 6 7 2 5 4 3 0 1"];
    table(base.path()).args(solve).assert().success();
    let file = std::fs::read(base.path().join(name)).unwrap();
    let mutants = mutants(&file);
    assert_eq!(mutants.len(), 4096 + 504 + 282);
    let commands = [
        vec!["query", "--table", name, "8 6 7 2 5 4 3 0 1"],
        vec!["stats", "--table", name],
        vec!["verify", "--table", name],
        solve.to_vec(),
    ];
    let failures = check_all(base.path(), name, mutants, &commands);
    assert!(failures.is_empty(), "{} failures, the first:\n{}", failures.len(), failures.join("\n"));
}

/// The other commands that read a perfect table, on every 16th mutant (the class, not only the
/// four commands above).
#[test]
fn every_command_that_reads_a_table_refuses_mutants() {
    let base = tempfile::tempdir().unwrap();
    table(base.path()).args(["build", "--board", "2x3", "-o", "t.table", "-q"]).assert().success();
    let commands = [
        vec!["count", "--table", "t.table", "1 2 3 4 0 5"],
        vec!["sample", "--table", "t.table", "--depth", "3"],
        vec!["heuristic", "manhattan", "--table", "t.table"],
        vec!["experiment", "--table", "t.table", "--count", "2", "--depths", "2,4"],
        vec!["query", "--table", "t.table", "--batch"],
    ];
    for args in &commands {
        table(base.path()).args(args).write_stdin("1 2 3 4 0 5\n").assert().success();
    }
    let file = std::fs::read(base.path().join("t.table")).unwrap();
    let mutants: Vec<_> = mutants(&file).into_iter().step_by(16).collect();
    let failures = check_all(base.path(), "t.table", mutants, &commands);
    assert!(failures.is_empty(), "{} failures, the first:\n{}", failures.len(), failures.join("\n"));
}
