//! The real binary, run the way a user would, in a scratch directory.

use crate::common;
use crate::fuzz_targets;

use std::fs;

use common::{data, one_line_error, table};
use predicates::prelude::*;
use predicates::str::contains;

/// A scratch directory with eight.table already built.
fn with_eight() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path()).args(["build", "-q"]).assert().success();
    dir
}

#[test]
fn build_prints_summary_and_distribution() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path())
        .arg("build")
        .assert()
        .success()
        .stdout(contains("states     181,440"))
        .stdout(contains("max depth  31"))
        .stdout(contains("eight.table (185,536 bytes)"))
        .stdout(contains("   10      286      706"))
        .stdout(contains("mean       21.9724"));
    assert_eq!(fs::metadata(dir.path().join("eight.table")).unwrap().len(), 4096 + 181_440);
    // nothing but the table is left behind
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn query_hardest_board() {
    let dir = with_eight();
    let out = table(dir.path()).args(["query", "8", "6", "7", "2", "5", "4", "3", "0", "1"]).assert().success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("distance        31 moves"), "{stdout}");
    let moves = stdout.lines().find_map(|l| l.strip_prefix("solution        ")).unwrap();
    let moves = moves.split_whitespace().next().unwrap();
    assert_eq!(moves.len(), 31);
    assert!(stdout
        .contains("optimal first moves (3): U (tile 5 slides down), L (tile 3 slides right), R (tile 1 slides left)"));
}

#[test]
fn query_syntaxes_agree() {
    let dir = with_eight();
    for board in [
        &["867254301"][..],
        &["8,6,7,2,5,4,3,0,1"],
        &["8 6 7/2 5 4/3 _ 1"],
        &["8/6/7/2/5/4/3/./1"],
        &["867", "254", "3_1"],
    ] {
        table(dir.path()).arg("query").args(board).assert().success().stdout(contains("distance        31 moves"));
    }
}

#[test]
fn first_query_builds_missing_eight_table() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path())
        .args(["query", "1 2 3 4 5 6 7 0 8"])
        .assert()
        .success()
        .stdout(contains("distance        1 move "))
        .stderr(contains("eight.table was missing; built it"));
    assert!(dir.path().join("eight.table").exists());
    // the second time it is just there
    table(dir.path()).args(["query", "1 2 3 4 5 6 7 0 8"]).assert().success().stderr("");
}

#[test]
fn unsolvable_board_exits_1_with_reason() {
    let dir = with_eight();
    table(dir.path())
        .args(["query", "1 2 3 4 5 6 8 7 0"])
        .assert()
        .code(1)
        .stdout(contains("unsolvable"))
        .stdout(contains("odd permutation"));
}

#[test]
fn malformed_boards_exit_2_with_one_line() {
    let dir = with_eight();
    for (board, message) in [
        ("1 2 3", "3 tiles given, but a 3x3 board has 9 cells"),
        ("1 2 3 4 5 6 7 8 8", "tile 8 appears more than once"),
        ("1 2 3 4 5 6 7 8 9", "tile 9 is out of range"),
        ("1 2 3 4 5 x 7 8 0", "`x` is not a tile number"),
        ("1 2 3 4 5 6 7 8 99999999999999999999999", "out of range"),
        ("", "no tiles given"),
        ("1 2 3 / 4 5 / 6 7 8 0", "row 2 has 2 tiles, but a 3x3 board's rows have 3"),
    ] {
        table(dir.path()).args(["query", board]).assert().code(2).stderr(contains(message)).stderr(one_line_error());
    }
    table(dir.path())
        .args(["query", "--board", "3x3", "1 2 3\n4 5\n6 7 8 0"])
        .assert()
        .code(2)
        .stderr("table: bad board: row 2 has 2 tiles, but a 3x3 board's rows have 3\n");
    table(dir.path()).arg("query").assert().code(2).stderr(contains("no board given"));
}

#[test]
fn a_board_too_large_for_a_table_is_refused_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let out = table(dir.path()).args(["build", "--board", "5x5"]).assert().code(2).stderr(one_line_error());
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(err.starts_with("table: a perfect table for 5x5 would have 25!/2 entries"), "{err}");
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "nothing written");
}

#[test]
fn solve_refuses_a_pattern_directory_that_is_not_there() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path())
        .args(["solve", "--board", "4x4", "-H", "pdb", "--dir", "no-such-dir", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"])
        .assert()
        .code(3)
        .stderr(one_line_error())
        .stderr(contains("--dir no-such-dir: does not exist (create it, or leave --dir out"));
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "no table built");
}

#[test]
fn json_answer() {
    let dir = with_eight();
    let out = table(dir.path()).args(["query", "--json", "8 6 7 2 5 4 3 0 1"]).assert().success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["distance"], 31);
    assert_eq!(v["solvable"], true);
    assert_eq!(v["solution"].as_str().unwrap().len(), 31);
    assert_eq!(v["optimal_moves"], serde_json::json!(["U", "L", "R"]));
    let out = table(dir.path()).args(["query", "--json", "2 1 3 4 5 6 7 8 0"]).assert().code(1);
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["solvable"], false);
}

#[test]
fn cos226_files() {
    let dir = with_eight();
    table(dir.path())
        .args(["query", "--file"])
        .arg(data("puzzle04.txt"))
        .assert()
        .success()
        .stdout(contains("distance        4 moves"));
    table(dir.path()).args(["query", "--file"]).arg(data("puzzle3x3-unsolvable.txt")).assert().code(1);
    // A 2x2 file needs the 2x2 table: the error shows the exact command.
    table(dir.path())
        .args(["query", "--file"])
        .arg(data("puzzle2x2-06.txt"))
        .assert()
        .code(3)
        .stderr(contains("`table build --board 2x2`"))
        .stderr(one_line_error());
    table(dir.path())
        .args(["build", "-q", "--board", "2x2"])
        .assert()
        .success()
        .stdout(contains("2x2-blank-last.table"));
    table(dir.path())
        .args(["query", "--file"])
        .arg(data("puzzle2x2-06.txt"))
        .assert()
        .success()
        .stdout(contains("distance        6 moves"));
}

#[test]
fn batch_answers_in_order() {
    let dir = with_eight();
    let input = "8 6 7 2 5 4 3 0 1\n123456780\n1 2 3 4 5 6 8 7 0\n1 2 3\n\n6,4,7/8,5,0/3,2,1\n";
    table(dir.path())
        .args(["query", "--batch"])
        .write_stdin(input)
        .assert()
        .code(2)
        .stdout("31\n0\nunsolvable\nerror\nerror\n31\n")
        .stderr(contains("line 4: "))
        .stderr(contains("line 5: "));
    let out = table(dir.path())
        .args(["query", "--batch", "--solve"])
        .write_stdin("8 6 7 2 5 4 3 0 1\n123456780\n2 1 3 4 5 6 7 8 0\n")
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3);
    let (d, moves) = lines[0].split_once(' ').unwrap();
    assert_eq!((d, moves.len()), ("31", 31));
    assert_eq!(lines[1], "0 -");
    assert_eq!(lines[2], "unsolvable");
}

#[test]
fn batch_matches_single_queries() {
    let dir = with_eight();
    let boards = ["4 1 3 0 2 6 7 5 8", "0 1 3 4 2 5 7 8 6", "1 2 3 0 7 6 5 4 8", "5 6 7 4 0 8 3 2 1"];
    let out = table(dir.path()).args(["query", "--batch"]).write_stdin(boards.join("\n")).assert().success();
    let batch = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(batch.lines().count(), boards.len());
    for (board, answer) in boards.iter().zip(batch.lines()) {
        let single = table(dir.path()).args(["query", board]).assert();
        if answer == "unsolvable" {
            single.code(1).stdout(contains("unsolvable"));
        } else {
            single.success().stdout(contains(format!("distance        {answer} move")));
        }
    }
}

#[test]
fn stats_formats() {
    let dir = with_eight();
    table(dir.path())
        .arg("stats")
        .assert()
        .success()
        .stdout(contains("total      181,440 states"))
        .stdout(contains("median     22"))
        .stdout(contains("max depth  31 (2 states)"))
        .stdout(contains("8 6 7 / 2 5 4 / 3 _ 1"));
    let out = table(dir.path()).args(["stats", "--csv"]).assert().success();
    let csv = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(csv.starts_with("depth,states"));
    assert_eq!(csv.lines().count(), 33);
    assert!(csv.lines().any(|l| l.starts_with("31,2,181440,")));
    let out = table(dir.path()).args(["stats", "--json"]).assert().success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["total"], 181_440);
    assert_eq!(format!("{:.4}", v["mean"].as_f64().unwrap()), "21.9724");
    assert_eq!(v["hardest"].as_array().unwrap().len(), 2);
}

#[test]
fn verify_ok_and_failures() {
    let dir = with_eight();
    table(dir.path()).arg("verify").assert().success().stdout(predicate::str::starts_with("ok: "));
    let path = dir.path().join("eight.table");
    let good = fs::read(&path).unwrap();

    let mut flipped = good.clone();
    flipped[4096 + 1000] ^= 1;
    fs::write(&path, &flipped).unwrap();
    // a damaged file is refused (exit 3), by verify as by every command
    table(dir.path()).arg("verify").assert().code(3).stderr(contains("is damaged")).stderr(one_line_error());
    table(dir.path())
        .args(["query", "1 2 3 4 5 6 7 0 8"])
        .assert()
        .code(3)
        .stderr(contains("checksum mismatch"))
        .stderr(one_line_error());

    // checksums that match wrong entries (a file rewritten by another program): verification fails
    fuzz_targets::fix_checksums(&mut flipped);
    fs::write(&path, &flipped).unwrap();
    table(dir.path()).arg("verify").assert().code(1).stderr(contains("FAILED verification")).stderr(one_line_error());

    fs::write(&path, &good[..good.len() - 1]).unwrap();
    table(dir.path()).arg("verify").assert().code(3).stderr(contains("truncated")).stderr(one_line_error());

    fs::write(&path, b"hello").unwrap();
    table(dir.path()).arg("stats").assert().code(3).stderr(contains("not a slidetable table file"));

    let mut version = good.clone();
    version[8] += 1;
    fs::write(&path, &version).unwrap();
    table(dir.path()).arg("verify").assert().code(3).stderr(contains("version 2 is not supported"));
}

#[test]
fn verify_missing_table_shows_build_command() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path()).arg("verify").assert().code(3).stderr(contains("`table build`")).stderr(one_line_error());
    table(dir.path())
        .args(["verify", "--board", "2x3", "--goal", "snail"])
        .assert()
        .code(3)
        .stderr(contains("`table build --board 2x3 --goal snail`"));
}

#[test]
fn other_boards_and_goals() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path())
        .args(["build", "-q", "--board", "2x4", "--goal", "blank-first", "-o", "2x4.table"])
        .assert()
        .success()
        .stdout(contains("states     20,160"))
        .stdout(contains("max depth  36"));
    table(dir.path()).args(["verify", "--table", "2x4.table"]).assert().success();
    table(dir.path())
        .args(["query", "--table", "2x4.table", "1 0 2 3 4 5 6 7"])
        .assert()
        .success()
        .stdout(contains("distance        1 move "));
    table(dir.path())
        .args(["query", "--table", "2x4.table", "--board", "3x3", "867254301"])
        .assert()
        .code(2)
        .stderr(one_line_error());
    table(dir.path())
        .args(["query", "--table", "2x4.table", "--goal", "blank-last", "1 0 2 3 4 5 6 7"])
        .assert()
        .code(2)
        .stderr(contains("has goal"));
    // seed 004's presets, snail goal; the default name shows board and goal
    table(dir.path()).args(["build", "-q", "--goal", "snail"]).assert().success().stdout(contains("3x3-snail.table"));
    table(dir.path())
        .args(["query", "--goal", "snail", "2 8 1 4 6 3 7 0 5"])
        .assert()
        .success()
        .stdout(contains("distance        11 moves"));
    // Russell & Norvig's start, with the goal given as tiles
    table(dir.path()).args(["build", "-q", "--goal", "0 1 2 3 4 5 6 7 8"]).assert().success();
    table(dir.path())
        .args(["query", "--goal", "blank-first", "7 2 4 5 0 6 8 3 1"])
        .assert()
        .success()
        .stdout(contains("distance        26 moves"));
}

#[test]
fn bad_build_arguments_leave_the_table_alone() {
    let dir = with_eight();
    let path = dir.path().join("eight.table");
    let before = fs::read(&path).unwrap();
    for (args, code) in [
        (&["build", "--board", "4x4", "-o", "eight.table"][..], 2),
        (&["build", "--board", "1x9"], 2),
        (&["build", "--goal", "1 2 3"], 2),
        (&["build", "--goal", "sideways"], 2),
        (&["build", "-o", "no/such/dir/eight.table"], 3),
    ] {
        table(dir.path()).args(args).assert().code(code).stderr(one_line_error());
    }
    assert_eq!(fs::read(&path).unwrap(), before);
}

#[test]
fn help_teaches() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path()).arg("--help").assert().success().stdout(contains("table build"));
    for sub in ["build", "query", "stats", "verify"] {
        table(dir.path()).args([sub, "--help"]).assert().success().stdout(contains("Examples:"));
    }
}

/// A build killed in the middle of its search (as by Ctrl-C, or `kill -9`) leaves the old table
/// as it was and nothing else: on Linux the new file has no name until it is complete.
#[cfg(target_os = "linux")]
#[test]
fn a_killed_build_leaves_the_old_table_and_no_litter() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("old.table");
    fs::write(&target, b"the user's old table").unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("table"))
        .args(["build", "-q", "--board", "3x4", "-o"])
        .arg(&target)
        .current_dir(dir.path())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // well into the search of a 3x4 build (seconds long), its 228 MiB file allocated
    std::thread::sleep(std::time::Duration::from_millis(700));
    let finished = child.try_wait().unwrap().is_some();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!finished, "the build should still have been running");
    let names: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["old.table"]);
    assert_eq!(fs::read(&target).unwrap(), b"the user's old table");
}

#[test]
fn query_takes_a_preset_with_its_goal() {
    let dir = tempfile::tempdir().unwrap();
    // seed 004's Hard preset is 11 moves to the snail goal (its report says 12)
    table(dir.path())
        .args(["query", "--preset", "hard", "--json"])
        .assert()
        .success()
        .stdout(contains("\"distance\":11"));
    table(dir.path())
        .args(["query", "--preset", "worst", "--json"])
        .assert()
        .success()
        .stdout(contains("\"distance\":30"));
    table(dir.path()).args(["query", "--preset", "list"]).assert().success().stdout(contains("hardest-a"));
    table(dir.path()).args(["query", "--preset", "nope"]).assert().code(2).stderr(one_line_error());
    table(dir.path()).args(["query", "--preset", "hard", "1", "2"]).assert().code(2).stderr(one_line_error());
}

/// A reader that stops early (`| head -1`) is not an error, JSON or not: exit 0, nothing on
/// stderr. The read end is closed before the command writes, and the output is larger than a
/// pipe's buffer, so the write fails whatever the timing.
#[test]
fn a_closed_pipe_is_not_an_error_json_or_not() {
    let dir = with_eight();
    for args in [
        &["stats", "--json"][..],
        &["stats"],
        &["sample", "--depth", "20", "--count", "6000", "--json"],
        &["sample", "--depth", "20", "--count", "6000"],
    ] {
        common::assert_quiet_on_closed_pipe(dir.path(), args);
    }
}

/// A full disk under standard output (`> /dev/full`) is one line that says what was being
/// written, exit 3, JSON or not.
#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_output_says_so() {
    let dir = with_eight();
    for args in [&["stats", "--json"][..], &["stats"], &["query", "8", "6", "7", "2", "5", "4", "3", "0", "1"]] {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("table"))
            .current_dir(dir.path())
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{args:?}: {stderr}");
        assert!(one_line_error().eval(&stderr), "{args:?}: {stderr}");
        assert!(stderr.starts_with("table: writing standard output: "), "{args:?}: {stderr}");
    }
}

/// `solve` looks for the default-named table to check its answer: a damaged one is reported on
/// stderr (and the search still answers), never skipped in silence.
#[test]
fn solve_says_when_it_skips_a_damaged_default_table() {
    let dir = with_eight();
    let path = dir.path().join("eight.table");
    let mut bytes = fs::read(&path).unwrap();
    bytes[4096 + 1000] ^= 0x01;
    fs::write(&path, &bytes).unwrap();
    table(dir.path())
        .args(["solve", "8 6 7 2 5 4 3 0 1"])
        .assert()
        .success()
        .stdout(contains("moves        31"))
        .stderr(contains("table: warning: skipped eight.table"))
        .stderr(contains("checksum mismatch"));
    table(dir.path()).args(["query", "8 6 7 2 5 4 3 0 1"]).assert().code(3).stderr(contains("checksum mismatch"));
}

/// Breadth-first search uses no heuristic and says so (it printed "with linear-conflict").
#[test]
fn breadth_first_names_no_heuristic() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path())
        .args(["solve", "-a", "bfs", "--preset", "hard"])
        .assert()
        .success()
        .stdout(contains("search       bfs (uniform cost: no heuristic)"))
        .stdout(contains("linear-conflict").not());
    table(dir.path())
        .args(["solve", "-a", "bfs", "--preset", "hard", "--json"])
        .assert()
        .success()
        .stdout(contains("\"heuristic\":\"none\""));
}

/// A negative weight reaches the range check (it was a clap parse error); a huge unsolvable board
/// is answered in a few lines, its goal shortened.
#[test]
fn negative_weights_and_huge_boards_get_short_clear_answers() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path())
        .args(["solve", "--preset", "hard", "-a", "weighted", "--weight", "-1"])
        .assert()
        .code(2)
        .stderr(contains("weight -1 is out of range: give a number from 0 to 1000"))
        .stderr(one_line_error());
    let n = 127 * 127;
    let mut tiles: Vec<String> = (1..n).map(|t| t.to_string()).collect();
    tiles.push("0".into());
    tiles.swap(0, 1);
    let out = table(dir.path()).args(["solve", "--board", "127x127"]).arg(tiles.join(" ")).assert().code(1);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(stdout.len() < 1000, "{} bytes", stdout.len());
    assert!(stdout.contains("1 2 3 4 5 6 7 8 ... 16126 16127 16128 0 (127x127, 16129 cells)"), "{stdout}");
    assert!(out.get_output().stderr.is_empty(), "no hint for a board pattern tables cannot serve");
}

/// `query --file -` reads the puzzle from standard input, as `solve --file -` does; boards piped
/// to a plain `query` are pointed to `--batch` and `--file -`.
#[test]
fn query_reads_standard_input_when_asked_and_says_how_otherwise() {
    let dir = with_eight();
    table(dir.path())
        .args(["query", "--file", "-"])
        .write_stdin("3\n1 2 3\n4 5 6\n7 0 8\n")
        .assert()
        .success()
        .stdout(contains("distance        1 move"));
    table(dir.path())
        .args(["query", "--batch", "--file", "-"])
        .write_stdin("123456708\n")
        .assert()
        .success()
        .stdout("1\n");
    table(dir.path())
        .arg("query")
        .write_stdin("123456708\n")
        .assert()
        .code(2)
        .stderr(contains("give --batch for one board per line, or --file - for a COS 226 puzzle"))
        .stderr(one_line_error());
}

/// `build --json`: the summary as one object, for perfect and pattern tables.
#[test]
fn build_speaks_json() {
    let dir = tempfile::tempdir().unwrap();
    let out = table(dir.path()).args(["build", "--board", "2x3", "--json"]).assert().success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["states"], 360);
    assert_eq!(v["max_depth"], 21);
    assert_eq!(v["histogram"].as_array().unwrap().len(), 22);
    assert_eq!(v["path"], "2x3-blank-last.table");
    let out = table(dir.path()).args(["build", "--board", "3x3", "--pattern", "4-4", "--json"]).assert().success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["partition"], "4-4");
    assert_eq!(v["tables"].as_array().unwrap().len(), 2);
    assert_eq!(v["tables"][0]["entries"], 3024);
}

/// `query --batch --json`: one object per input line, agreeing with the plain batch's answers.
#[test]
fn batch_queries_speak_json_line_by_line() {
    let dir = with_eight();
    let input = "867254301\n123456780\nfoo\n123456870\n\n8 6 7 / 2 5 4 / 3 _ 1\n";
    let plain = table(dir.path()).args(["query", "--batch"]).write_stdin(input).assert().code(2);
    let plain: Vec<String> = String::from_utf8_lossy(&plain.get_output().stdout).lines().map(String::from).collect();
    let json = table(dir.path()).args(["query", "--batch", "--json", "--solve"]).write_stdin(input).assert().code(2);
    let lines: Vec<serde_json::Value> =
        String::from_utf8_lossy(&json.get_output().stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), plain.len());
    for (i, (v, p)) in lines.iter().zip(&plain).enumerate() {
        assert_eq!(v["line"], i as u64 + 1);
        match p.as_str() {
            "unsolvable" => assert_eq!(v["unsolvable"], true),
            "error" => assert!(v["error"].is_string()),
            d => {
                assert_eq!(v["distance"].to_string(), *d);
                assert_eq!(v["solution"].as_str().unwrap().len().to_string(), *d);
            }
        }
    }
}

/// Completions and the man page come from the clap definitions; a closed pipe is fine.
#[test]
fn completions_and_man_page() {
    let dir = tempfile::tempdir().unwrap();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        table(dir.path()).args(["completions", shell]).assert().success().stdout(contains("solve"));
    }
    table(dir.path()).args(["completions", "bash"]).assert().success().stdout(contains("--pattern"));
    table(dir.path()).arg("man").assert().success().stdout(contains(".TH table 1")).stdout(contains("solve"));
    table(dir.path()).args(["completions", "tcsh"]).assert().code(2);
    for args in [&["completions", "bash"][..], &["man"]] {
        common::assert_quiet_on_closed_pipe(dir.path(), args);
    }
}

/// Argument errors are one line on stderr too (clap's own errors spanned four to seven lines),
/// with clap's tip kept; help and version still print as usual.
#[test]
fn argument_errors_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    for (args, says) in [
        (&["solve", "--algorithm", "foo", "1 2 3"][..], "possible values: astar, idastar"),
        (&["frobnicate"], "unrecognized subcommand 'frobnicate'"),
        (&["build", "--bord", "3x3"], "(a similar argument exists: '--board')"),
        (&["query", "--batch", "--steps"], "cannot be used with"),
        (&["sample", "--depth", "x"], "invalid value 'x'"),
    ] {
        table(dir.path()).args(args).assert().code(2).stderr(contains(says)).stderr(one_line_error());
    }
    table(dir.path()).arg("--version").assert().success().stdout(contains("table "));
    table(dir.path()).args(["solve", "--help"]).assert().success().stdout(contains("Examples:"));
}

/// A file-size limit (`ulimit -f`) below the table's size: a one-line error naming the limit and
/// exit 3, not a death by SIGXFSZ; the old file untouched, nothing left behind. Pattern tables
/// and plots too.
#[cfg(unix)]
#[test]
fn a_file_size_limit_is_an_error_not_a_signal() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("eight.table"), b"the user's old table").unwrap();
    // in blocks of 1 KiB: below the 8-puzzle table (181 KiB), the 5-tile table (19 KiB), the plot
    let limited = |args: &str| {
        let blocks = if args.contains("--plot") { 1 } else { 16 };
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -f {blocks} && exec \"$0\" {args}"))
            .arg(assert_cmd::cargo::cargo_bin("table"))
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    for args in ["build -q", "build --pattern 1,2,3,4,5/6,7,8 -q", "stats --board 2x2 --plot p.svg"] {
        if args.starts_with("stats") {
            table(dir.path()).args(["build", "--board", "2x2", "-q"]).assert().success();
        }
        let out = limited(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{args}: {:?} {stderr}", out.status);
        assert!(one_line_error().eval(&stderr), "{args}: {stderr}");
    }
    let out = limited("build -q");
    assert!(String::from_utf8_lossy(&out.stderr).contains("file-size limit"));
    assert_eq!(fs::read(dir.path().join("eight.table")).unwrap(), b"the user's old table");
    let mut names: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    assert_eq!(names, ["2x2-blank-last.table", "eight.table"]);
}

/// Builds racing to the same file all succeed, and the file is always one whole table: each
/// build writes its own unnamed file and renames it into place, so the last one wins and a
/// reader in between sees the old table or a new one, never a mixture.
#[test]
fn concurrent_builds_of_one_file_leave_one_whole_table() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path()).args(["build", "--board", "2x5", "-o", "t.table", "-q"]).assert().success();
    let children: Vec<_> = (0..4)
        .map(|i| {
            std::process::Command::new(assert_cmd::cargo::cargo_bin("table"))
                .args(["build", "--board", "2x5", "-o", "t.table", "-q", "--goal"])
                .arg(if i % 2 == 0 { "blank-first" } else { "blank-last" })
                .current_dir(dir.path())
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    // meanwhile, queries see a whole table every time
    for _ in 0..20 {
        table(dir.path()).args(["query", "--table", "t.table", "1 2 3 4 5 6 7 8 0 9"]).assert().success();
    }
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    table(dir.path()).args(["verify", "--table", "t.table"]).assert().success();
    let names: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["t.table"]);
}

/// A board past the perfect tables' size (a 15-puzzle) is refused before any table is looked for
/// or built, and the message points to `table solve`.
#[test]
fn query_past_12_cells_points_to_solve_and_builds_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let korf1 = ["14", "13", "15", "7", "11", "12", "9", "5", "6", "0", "2", "1", "4", "8", "10", "3"];
    table(dir.path())
        .arg("query")
        .args(korf1)
        .assert()
        .code(2)
        .stderr(one_line_error())
        .stderr(contains(format!("perfect tables go up to {} cells", slidetable::index::MAX_TABLE_CELLS)))
        .stderr(contains("`table solve 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3`"));
    // the same with the shape and goal given, and from a puzzle file
    table(dir.path())
        .args(["query", "--board", "2x8", "--goal", "blank-first"])
        .args(korf1)
        .assert()
        .code(2)
        .stderr(contains("`table solve --board 2x8 --goal blank-first 14 13 15 7"));
    table(dir.path())
        .args(["query", "--file"])
        .arg(data("puzzle4x4-78.txt"))
        .assert()
        .code(2)
        .stderr(contains("`table solve --file "));
    // 14 tiles are a 2x7 or a 7x2: the command asks which, before building eight.table
    table(dir.path())
        .args(["query", "7 6 12 4 3 9 1 0 13 5 11 10 2 8"])
        .assert()
        .code(2)
        .stderr(one_line_error())
        .stderr(contains("14 tiles given: say which board with --board (2x7 or 7x2)"));
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "no table was built");
    // 8 tiles, one short of a 3x3: the 3x3 is named beside the boards of 8 cells
    table(dir.path())
        .args(["query", "8 6 7 2 5 4 3 0"])
        .assert()
        .code(2)
        .stderr(one_line_error())
        .stderr(contains("(2x4 or 4x2), or give its table with --table; a 3x3 board takes 9, the blank included"));
    // rows of 3, 3 and 2 are a 3x3 with a tile left out, not a question of which board
    table(dir.path())
        .args(["query", "8,6,7/2,5,4/3,0"])
        .assert()
        .code(2)
        .stderr(contains("bad board: 8 tiles given, but a 3x3 board has 9 cells"));
    // a board a table holds: the table is built as before
    table(dir.path()).args(["query", "1 2 3 4 5 6 7 8 0"]).assert().success();
    assert!(dir.path().join("eight.table").exists());
}
