//! Pattern tables through the real binary: build, query, stats, verify, solve -H pdb, --batch,
//! and the errors a user meets.

use crate::common;
use crate::fuzz_targets;

use std::fs;

use common::{one_line_error, table};
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

/// The two tables of the 3x3 `4-4` partition for the blank-first goal, built in `dir`.
fn with_4_4() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path())
        .args(["build", "--board", "3x3", "--goal", "blank-first", "--pattern", "4-4"])
        .assert()
        .success()
        .stdout(contains("building 2 pattern tables for 3x3, goal blank-first, partition 4-4"))
        .stdout(contains("tiles 1,2,4,5: 3,024 entries"))
        .stdout(contains("3x3-blank-first-tiles-3-6-7-8.table"));
    dir
}

#[test]
fn zero_aware_tables_and_move_pruning_through_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path())
        .args(["build", "--board", "3x3", "--goal", "blank-first", "--pattern", "4-4", "--zero"])
        .assert()
        .success()
        .stdout(contains("3x3-blank-first-zero-tiles-1-2-4-5.table"));
    let file = "3x3-blank-first-zero-tiles-3-6-7-8.table";
    table(dir.path())
        .args(["stats", "--table", file])
        .assert()
        .success()
        .stdout(contains("zero-aware pattern table (1 bit an entry) of tiles 3,6,7,8"))
        .stdout(contains("(placement, blank region) pairs of 4 tiles, 1 bit each"));
    table(dir.path()).args(["verify", "--table", file]).assert().success().stdout(contains("ok: "));
    // the hardest 8-puzzle: 31 moves, found with the zero-aware tables and the default pruning
    table(dir.path())
        .args(["solve", "--goal", "blank-first", "-H", "pdb", "--pattern", "4-4", "8 7 6 0 4 1 2 5 3", "--json"])
        .assert()
        .success()
        .stdout(contains("\"moves\":31"))
        .stdout(contains("\"pattern_tables\":{\"pattern\":\"4-4\",\"tables\":2,\"zero_aware\":2"))
        .stderr(contains("3x3-moves-12.fsm was missing; made it"));
    // the report says which tables: zero-aware ones are taken where their files are; A* reads
    // 1-bit ones a board at a time, and is told so
    table(dir.path())
        .args(["solve", "--goal", "blank-first", "-H", "pdb", "--pattern", "4-4", "8 7 6 0 4 1 2 5 3"])
        .assert()
        .success()
        .stdout(contains("tables       4-4: 2 zero-aware tables, with the reflection; move pruning to 12 moves"))
        .stderr(contains("hint").not());
    table(dir.path())
        .args(["solve", "--goal", "blank-first", "-H", "pdb", "--pattern", "4-4", "--algorithm", "astar"])
        .args(["8 7 6 0 4 1 2 5 3"])
        .assert()
        .success()
        .stdout(contains("moves        31"))
        .stderr(contains("astar reads 1-bit zero-aware tables a board at a time"));
    table(dir.path()).args(["build", "--board", "3x3", "--prune", "8"]).assert().success().stdout(contains("wrote"));
    table(dir.path()).args(["verify", "--table", "3x3-moves-8.fsm"]).assert().success().stdout(contains("ok: "));
    // a machine too long to make on the spot is named with its command; a damaged one is refused
    table(dir.path())
        .args(["solve", "-H", "pdb", "--pattern", "4-4", "--goal", "blank-first", "--prune", "20", "1 0 2 3 4 5 6 7 8"])
        .assert()
        .code(2)
        .stderr(one_line_error())
        .stderr(contains("table build --board 3x3 --prune 20"));
    let path = dir.path().join("3x3-moves-8.fsm");
    let mut bytes = fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    fs::write(&path, &bytes).unwrap();
    table(dir.path()).args(["verify", "--table", "3x3-moves-8.fsm"]).assert().code(3).stderr(contains("is damaged"));
    table(dir.path())
        .args(["solve", "-H", "pdb", "--pattern", "4-4", "--goal", "blank-first", "--prune", "8", "1 0 2 3 4 5 6 7 8"])
        .assert()
        .code(3)
        .stderr(one_line_error())
        .stderr(contains("checksum"));
}

#[test]
fn build_query_stats_verify_a_pattern_table() {
    let dir = with_4_4();
    let file = "3x3-blank-first-tiles-1-2-4-5.table";
    assert_eq!(fs::metadata(dir.path().join(file)).unwrap().len(), 4096 + 3024);
    // tile 1 one step from home, the others home: one move of the group's tiles
    table(dir.path())
        .args(["query", "--table", file, "1 0 2 3 4 5 6 7 8", "--json"])
        .assert()
        .success()
        .stdout(contains("\"distance\":1"))
        .stdout(contains("\"group\":[1,2,4,5]"));
    table(dir.path())
        .args(["query", "--table", file, "0 1 2 3 4 5 6 7 8"])
        .assert()
        .success()
        .stdout(contains("pattern distance 0"));
    table(dir.path())
        .args(["stats", "--table", file])
        .assert()
        .success()
        .stdout(contains("pattern table of tiles 1,2,4,5 on 3x3"))
        .stdout(contains("entries    3,024 placements of 4 tiles"));
    table(dir.path())
        .args(["stats", "--table", file, "--json"])
        .assert()
        .success()
        .stdout(contains("\"entries\": 3024"));
    table(dir.path()).args(["verify", "--table", file]).assert().success().stdout(contains("ok: "));

    // a flipped entry: every command refuses the damaged file (exit 3)
    let path = dir.path().join(file);
    let mut bytes = fs::read(&path).unwrap();
    bytes[4096 + 500] ^= 1;
    fs::write(&path, &bytes).unwrap();
    table(dir.path()).args(["verify", "--table", file]).assert().code(3).stderr(contains("is damaged"));
    table(dir.path()).args(["query", "--table", file, "8 6 7 2 5 4 3 0 1"]).assert().code(3).stdout("");
    table(dir.path())
        .args(["solve", "--goal", "blank-first", "-H", "pdb", "--pattern", "4-4", "8 6 7 2 5 4 3 0 1"])
        .assert()
        .code(3)
        .stderr(contains("checksum mismatch"))
        .stderr(one_line_error());
    // its checksums made to match: intact as a file, so verify rebuilds it and names the entry
    fuzz_targets::fix_checksums(&mut bytes);
    fs::write(&path, &bytes).unwrap();
    table(dir.path())
        .args(["verify", "--table", file])
        .assert()
        .code(1)
        .stderr(contains("FAILED verification: entry 500"));
    // a truncated one
    fs::write(&path, &bytes[..5000]).unwrap();
    table(dir.path()).args(["stats", "--table", file]).assert().code(3).stderr(one_line_error());
}

#[test]
fn solve_with_pattern_databases_is_optimal_and_checked() {
    let dir = with_4_4();
    // the 8-puzzle's table checks the answer: 30 moves
    table(dir.path())
        .args(["solve", "--goal", "blank-first", "-H", "pdb", "--pattern", "4-4", "8 6 7 2 5 4 3 0 1", "--json"])
        .assert()
        .success()
        .stdout(contains("\"heuristic\":\"pdb\""))
        .stdout(contains("\"algorithm\":\"idastar\""))
        .stdout(contains("\"optimal\":true"));
    for algorithm in ["astar", "idastar"] {
        table(dir.path())
            .args(["solve", "--goal", "blank-first", "-H", "pdb", "-a", algorithm, "--preset", "hardest-a"])
            .assert()
            .success()
            .stdout(contains("optimal      yes: the exact distance"));
    }
    // a checkpointed astar-ida: solved, the checkpoint gone; a damaged one refused, exit 3
    let astar_ida = ["solve", "--goal", "blank-first", "-H", "pdb", "-a", "astar-ida", "--preset", "hardest-a"];
    table(dir.path())
        .args(astar_ida)
        .args(["--max-memory", "2K", "--checkpoint", "run.checkpoint"])
        .assert()
        .success()
        .stdout(contains("optimal      yes: the exact distance"));
    assert!(!dir.path().join("run.checkpoint").exists());
    assert!(!dir.path().join("run.checkpoint.lock").exists(), "the lock goes with the search");
    // a checkpoint in a directory that is not there: said before the search, exit 3
    table(dir.path())
        .args(astar_ida)
        .args(["--max-memory", "2K", "--checkpoint", "nowhere/run.checkpoint"])
        .assert()
        .code(3)
        .stderr(contains("nowhere/run.checkpoint: its directory nowhere is not there"))
        .stderr(one_line_error());
    fs::write(dir.path().join("run.checkpoint"), "version 1\nbound 3\n").unwrap();
    table(dir.path())
        .args(astar_ida)
        .args(["--checkpoint", "run.checkpoint"])
        .assert()
        .code(3)
        .stderr(contains("run.checkpoint: no `search` line: the file is damaged; delete it"))
        .stderr(one_line_error());
}

/// --time-limit stops IDA* and A*+IDA* with pattern tables (they ran on to the solution
/// regardless): exit 4, the limit named.
#[test]
fn a_time_limit_stops_the_pattern_searches() {
    let dir = tempfile::tempdir().unwrap();
    let groups = "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15";
    table(dir.path())
        .args(["build", "--board", "4x4", "--goal", "blank-first", "--pattern", groups])
        .assert()
        .success();
    table(dir.path()).args(["build", "--board", "4x4", "--prune", "12"]).assert().success();
    // Korf's instance 88 (65 moves): seconds of search with 4-tile groups
    for algorithm in ["idastar", "astar-ida"] {
        table(dir.path())
            .args(["solve", "15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4", "--goal", "blank-first", "-H", "pdb"])
            .args(["--pattern", groups, "-a", algorithm, "--threads", "1", "--time-limit", "0.3"])
            .assert()
            .code(4)
            .stderr(contains("the time limit of 0.3 s"))
            .stderr(one_line_error());
    }
}

/// Ctrl-C or a TERM stops a checkpointed astar-ida search with its progress saved, says how to go
/// on, exits as a shell expects (130, 143), and the same command goes on to the optimum.
#[cfg(unix)]
#[test]
#[ignore = "slow (about 10 s): CI runs it; cargo test -- --include-ignored --skip big::"]
fn a_signal_saves_a_checkpointed_search_and_the_same_command_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    // Korf's instance 88 (65 moves) with 4-tile groups: seconds of IDA* after an A* of 2 KiB
    let args = [
        "solve",
        "15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4",
        "--goal",
        "blank-first",
        "-H",
        "pdb",
        "--pattern",
        "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15",
        "-a",
        "astar-ida",
        "--max-memory",
        "2K",
        "--threads",
        "1",
        "--checkpoint",
        "run.checkpoint",
    ];
    // the tables first, so that the searches below start at once
    table(dir.path())
        .args(["build", "--board", "4x4", "--goal", "blank-first", "--pattern", args[7]])
        .assert()
        .success();
    let checkpoint = dir.path().join("run.checkpoint");
    for (signal, code, said) in [(libc::SIGTERM, 143, "stopped by signal 15"), (libc::SIGINT, 130, "stopped by Ctrl-C")]
    {
        let child = common::spawn_table(dir.path(), &args);
        // the checkpoint is written as IDA* starts (the second search resumes from the first's)
        let started = std::time::Instant::now();
        while !checkpoint.exists() {
            assert!(started.elapsed().as_secs() < 60, "no checkpoint saved in a minute");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        std::thread::sleep(std::time::Duration::from_millis(300));
        // a second search on the same checkpoint is refused while the first runs
        table(dir.path())
            .args(args)
            .assert()
            .code(3)
            .stderr(contains("run.checkpoint: another search is using it now (it holds run.checkpoint.lock)"))
            .stderr(one_line_error());
        // SAFETY: kill(2) with the child's own pid, which has not been waited for
        assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "the search ended before the signal? {stderr}");
        assert!(
            stderr.contains(&format!(
                "{said}; the search's progress is saved in run.checkpoint: run the same command to go on"
            )),
            "{stderr}"
        );
        assert!(out.stdout.is_empty());
        assert!(fs::read_to_string(&checkpoint).unwrap().contains("\ndone "));
    }
    table(dir.path())
        .args(args)
        .assert()
        .success()
        .stdout(contains("moves        65"))
        .stderr(contains("table: going on from run.checkpoint: bound "));
    assert!(!checkpoint.exists());
    assert!(!dir.path().join("run.checkpoint.lock").exists());
}

#[test]
fn missing_small_tables_are_built_and_large_ones_named() {
    let dir = tempfile::tempdir().unwrap();
    // a board that cannot reach the goal is said by the parity rule at once: no table is built
    // or asked for first
    for pattern in ["5-5-5", "7-8"] {
        table(dir.path())
            .args(["solve", "--goal", "blank-first", "-H", "pdb", "--pattern", pattern])
            .args(["0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15"])
            .assert()
            .code(1)
            .stdout(contains("unsolvable: this board cannot reach the goal"));
    }
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "nothing built for an unsolvable board");
    // 5-5-5 is small: built on the spot, saved, said on stderr
    table(dir.path())
        .args(["solve", "--goal", "blank-first", "-H", "pdb", "--pattern", "5-5-5", "--threads", "2"])
        .args(["0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15"])
        .assert()
        .success()
        .stdout(contains("moves        42"))
        .stdout(contains("tables       5-5-5: 3 classic tables, with the reflection; move pruning to 12 moves"))
        .stderr(contains("was missing; built it"));
    assert!(dir.path().join("4x4-blank-first-tiles-1-2-4-5-8.table").exists());
    // 7-8 is not: the error names the command
    table(dir.path())
        .args([
            "solve",
            "--goal",
            "blank-first",
            "-H",
            "pdb",
            "--pattern",
            "7-8",
            "0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15",
        ])
        .assert()
        .code(3)
        .stderr(contains("table build --board 4x4 --goal blank-first --pattern 7-8"))
        .stderr(one_line_error());
    // a catalogue meant to be zero-aware names its zero-aware files and the build with --zero
    table(dir.path())
        .args(["solve", "--goal", "blank-first", "-H", "pdb", "--pattern", "double-7-8"])
        .args(["0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15"])
        .assert()
        .code(3)
        .stderr(contains("table build --board 4x4 --goal blank-first --pattern double-7-8 --zero"))
        .stderr(contains("4x4-blank-first-zero-tiles-1-2-3-4-5-6-7.table"))
        .stderr(one_line_error());
    // with no -H past 12 cells: the tables found are used
    table(dir.path())
        .args(["solve", "--goal", "blank-first", "0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15"])
        .assert()
        .success()
        .stdout(contains("with pdb"));
}

#[test]
fn batch_solves_every_line_in_order_with_totals() {
    let dir = tempfile::tempdir().unwrap();
    let boards = "# Korf's instance 79, a board one move away, a bad line, an unsolvable board\n\
                  0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15\n\
                  1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n\
                  1 2 3\n\
                  0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15\n";
    fs::write(dir.path().join("boards.txt"), boards).unwrap();
    table(dir.path())
        .args(["solve", "--batch", "--file", "boards.txt", "--goal", "blank-first", "-H", "pdb", "--pattern", "5-5-5"])
        .assert()
        .code(2)
        .stdout(contains("2\t42\t"))
        .stdout(contains("3\t1\t"))
        .stdout(contains("4\terror"))
        .stdout(contains("5\tunsolvable"))
        .stdout(contains("# total: 4 boards, 2 solved, 1 unsolvable, 0 gave up, 1 error;"))
        // what every line was searched with comes first
        .stdout(contains("# idastar with pdb (5-5-5: 3 classic tables, with the reflection; move pruning to 12 moves)"))
        .stderr(contains("line 4:"));
    table(dir.path())
        .args(["solve", "--batch", "--goal", "blank-first", "-H", "pdb", "--pattern", "5-5-5", "--json"])
        .write_stdin("0 1 2 3 4 5 6 7 8 9 10 11 12 13 15 14\n4 1 2 3 0 5 6 7 8 9 10 11 12 13 14 15\n")
        .assert()
        .success()
        .stdout(contains("{\"line\":1,\"unsolvable\":true}"))
        .stdout(contains("{\"line\":2,\"moves\":1,\"solution\":\"U\""))
        .stdout(contains("\"totals\""))
        .stdout(contains(
            "\"pattern_tables\":{\"pattern\":\"5-5-5\",\"prune\":12,\"reflect\":true,\"tables\":3,\"zero_aware\":0}",
        ));
    // a search stopped by a limit is not a malformed line: `gave up`, exit 4 (2 is kept for a
    // malformed line, whatever else happened)
    let korf79 = "0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15\n";
    table(dir.path())
        .args(["solve", "--batch", "--goal", "blank-first", "-H", "pdb", "--pattern", "5-5-5", "--max-nodes", "1000"])
        .write_stdin(korf79)
        .assert()
        .code(4)
        .stdout(contains("1\tgave up\t"))
        .stdout(contains("0 solved, 0 unsolvable, 1 gave up, 0 errors"))
        // its advice fits: the heuristic is pattern tables already
        .stderr(
            contains("line 1: idastar gave up at").and(contains("a larger `--pattern`")).and(contains("-H pdb").not()),
        );
    // nor is --checkpoint offered, which a batch takes no part in (Korf's instance 88, 65 moves:
    // more nodes than A*+IDA* makes before it looks at its limit)
    let korf88 = "15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4";
    table(dir.path())
        .args(["solve", "--batch", "--goal", "blank-first", "-H", "pdb", "--pattern", "5-5-5", "--max-nodes", "1000"])
        .args(["-a", "astar-ida"])
        .write_stdin(format!("{korf88}\n"))
        .assert()
        .code(4)
        .stderr(contains("line 1: astar-ida gave up at").and(contains("checkpoint").not()));
    // a board on its own is offered both fitting ways on: a larger pattern, a checkpoint
    table(dir.path())
        .args(["solve", "--goal", "blank-first", "-H", "pdb", "--pattern", "5-5-5", "--max-nodes", "1000"])
        .args(["-a", "astar-ida", korf88])
        .assert()
        .code(4)
        .stderr(contains("astar-ida gave up at").and(contains("`--checkpoint`")).and(contains("-H pdb").not()))
        .stderr(one_line_error());
    // A*+IDA*'s A* budget decides its search: in a batch each board has the whole of it, so the
    // counts are a board's own on any number of threads (the budget was split among them)
    let alone = table(dir.path())
        .args(["solve", "--goal", "blank-first", "-H", "pdb", "--pattern", "5-5-5", "-a", "astar-ida"])
        .args(["--max-memory", "1M", "--json", korf88])
        .output()
        .unwrap();
    let alone: serde_json::Value = serde_json::from_slice(&alone.stdout).unwrap();
    let lines: Vec<Vec<String>> = ["1", "2"]
        .iter()
        .map(|threads| {
            let out = table(dir.path())
                .args(["solve", "--batch", "--goal", "blank-first", "-H", "pdb", "--pattern", "5-5-5"])
                .args(["-a", "astar-ida", "--max-memory", "1M", "--threads", threads])
                .write_stdin(format!("{korf88}\n{korf79}"))
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            // line, moves, generated (the seconds differ)
            let text = String::from_utf8(out.stdout).unwrap();
            text.lines()
                .filter(|l| !l.starts_with('#'))
                .map(|l| l.split('\t').take(3).collect::<Vec<_>>().join("\t"))
                .collect()
        })
        .collect();
    assert_eq!(lines[0], lines[1]);
    assert_eq!(lines[0][0], format!("1\t65\t{}", alone["stats"]["generated"]));
    table(dir.path())
        .args(["solve", "--batch", "--goal", "blank-first", "-H", "pdb", "--pattern", "5-5-5", "--max-nodes", "1000"])
        .args(["--json"])
        .write_stdin(format!("{korf79}1 2 3\n"))
        .assert()
        .code(2)
        .stdout(contains("{\"line\":1,\"generated\":"))
        .stdout(contains("\"gave_up\":\"idastar gave up at"))
        .stdout(contains("{\"line\":2,\"error\":"));
}

#[test]
fn bad_patterns_are_one_line_and_exit_2_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    for (args, says) in [
        (vec!["build", "--board", "4x4", "--pattern", "1,2,3/3,4"], "tile 3 is in two groups"),
        (vec!["build", "--board", "4x4", "--pattern", "1,2,17"], "not a tile of 4x4"),
        (vec!["build", "--board", "4x4", "--pattern", "6-6-6-6"], "is a partition of 5x5"),
        (vec!["build", "--board", "4x4", "--pattern", "1,2,3/4,5", "-o", "x.table"], "-o names one file"),
        (vec!["build", "--board", "6x6", "--pattern", "1,2,3,4,5,6,7,8"], "of memory to build"),
        (vec!["build", "--board", "6x6", "--pattern", "1,2,3,4,5,6,7,8", "--zero"], "more than this build indexes"),
        (vec!["build", "--board", "3x3", "--pattern", "1,2,3,4,5,6,7"], "leaves fewer than two other tiles"),
        (
            vec!["solve", "-H", "manhattan", "--pattern", "7-8", "1 2 3 4 5 6 7 8 0"],
            "--pattern goes with --heuristic pdb",
        ),
        (
            vec!["solve", "-H", "pdb", "-a", "idastar", "--checkpoint", "c", "1 2 3 4 5 6 7 8 0"],
            "--checkpoint goes with --algorithm astar-ida",
        ),
        (vec!["solve", "-H", "pdb", "--threads", "0", "1 2 3 4 5 6 7 8 0"], "invalid value '0' for '--threads <N>'"),
        (vec!["solve", "-H", "pdb", "--threads", "100000", "1 2 3 4 5 6 7 8 0"], "100000 is not in 1..=1024"),
        // a malformed --pattern is said whatever the board, an unsolvable one too
        (
            vec!["solve", "--goal", "blank-first", "--pattern", "1,2,3/1,4", "0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15"],
            "tile 1 is in two groups",
        ),
    ] {
        table(dir.path()).args(&args).assert().code(2).stderr(contains(says)).stderr(one_line_error());
    }
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "nothing was written");
    table(dir.path())
        .args(["build", "--pattern", "list"])
        .assert()
        .success()
        .stdout(contains("4x4  7-8         1,2,3,4,5,6,7 / 8,9,10,11,12,13,14,15"))
        .stdout(contains("4x4  double-7-8  1,2,3,4,5,6,7 / 8,9,10,11,12,13,14,15\n                     max 1,2,3,4,5,8,12 / 6,7,9,10,11,13,14,15"))
        .stdout(contains("5x5  6-6-6-6"));
}

/// A table already built for the same group, goal and encoding, intact, is kept; one damaged, or
/// of the other encoding, is built again; a catalogue after a partition builds only its new groups.
#[test]
fn intact_tables_are_kept_and_damaged_ones_built_again() {
    let dir = with_4_4();
    let json = |args: &[&str]| -> serde_json::Value {
        let out = table(dir.path()).args(args).arg("--json").assert().success().get_output().stdout.clone();
        serde_json::from_slice(&out).unwrap()
    };
    let kept = |v: &serde_json::Value| -> Vec<bool> {
        v["tables"].as_array().unwrap().iter().map(|t| t["kept"].as_bool().unwrap()).collect()
    };
    let build = ["build", "--board", "3x3", "--goal", "blank-first", "--pattern", "4-4"];
    let first = dir.path().join("3x3-blank-first-tiles-1-2-4-5.table");
    let before = fs::read(&first).unwrap();
    assert_eq!(kept(&json(&build)), [true, true]);
    table(dir.path())
        .args(build)
        .assert()
        .success()
        .stdout(contains("tiles 1,2,4,5: kept, already built and intact (delete it to build it again)"));
    // a flipped payload byte: built again, whole
    let mut damaged = before.clone();
    let last = damaged.len() - 1;
    damaged[last] ^= 1;
    fs::write(&first, &damaged).unwrap();
    assert_eq!(kept(&json(&build)), [false, true]);
    assert_eq!(fs::read(&first).unwrap(), before);
    // zero-aware tables are other files: none kept
    let mut zero = build.to_vec();
    zero.push("--zero");
    assert_eq!(kept(&json(&zero)), [false, false]);
    assert_eq!(kept(&json(&zero)), [true, true]);
}

#[test]
fn a_single_group_goes_to_the_named_file_and_replaces_it_whole() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path())
        .args(["build", "--board", "3x4", "--pattern", "1,5,9", "-o", "g.table"])
        .assert()
        .success()
        .stdout(contains("-> g.table"));
    table(dir.path()).args(["verify", "--table", "g.table"]).assert().success();
    // a failed build (a group too large for the board) leaves it untouched
    let before = fs::read(dir.path().join("g.table")).unwrap();
    table(dir.path())
        .args(["build", "--board", "3x4", "--pattern", "1,2,3,4,5,6,7,8,9,10", "-o", "g.table"])
        .assert()
        .code(2);
    assert_eq!(fs::read(dir.path().join("g.table")).unwrap(), before);
    table(dir.path())
        .args(["build", "--board", "3x4", "--pattern", "1,5,9", "-o", "nodir/g.table"])
        .assert()
        .code(3)
        .stderr(one_line_error());
}

#[test]
fn past_12_cells_without_tables_a_hint_names_the_build() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path())
        .args(["solve", "--goal", "blank-first", "0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15"])
        .assert()
        .success()
        .stdout(contains("with linear-conflict"))
        .stderr(contains("table: hint: "))
        .stderr(contains("table build --board 4x4 --goal blank-first --pattern 6-6-3"));
    // not on 12 cells and fewer, nor when a heuristic is named
    table(dir.path())
        .args(["solve", "-H", "manhattan", "--goal", "blank-first", "0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15"])
        .assert()
        .success()
        .stderr("");
}

#[test]
fn verify_speaks_json_for_both_kinds() {
    let dir = with_4_4();
    let file = "3x3-blank-first-tiles-1-2-4-5.table";
    table(dir.path())
        .args(["verify", "--table", file, "--json"])
        .assert()
        .success()
        .stdout(contains("\"ok\":true"))
        .stdout(contains("\"entries\":3024"));
    table(dir.path()).args(["build", "-q"]).assert().success();
    table(dir.path()).args(["verify", "--json"]).assert().success().stdout(contains("\"ok\":true"));
    // damaged: exit 3, the reason on stderr and in the object
    for f in [file, "eight.table"] {
        let path = dir.path().join(f);
        let mut bytes = fs::read(&path).unwrap();
        bytes[4096 + 7] ^= 0x10;
        fs::write(&path, &bytes).unwrap();
        table(dir.path())
            .args(["verify", "--table", f, "--json"])
            .assert()
            .code(3)
            .stdout(contains("\"ok\":false"))
            .stdout(contains("\"failure\":"))
            .stderr(contains("is damaged"));
    }
}
