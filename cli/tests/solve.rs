//! `table solve`, run the way a user would: known answers, the COS 226 output format, every
//! algorithm and heuristic, and bad input.

use crate::common;

use std::fs;
use std::path::Path;

use common::{data, one_line_error, table};
use predicates::str::contains;

fn json(dir: &Path, args: &[&str]) -> serde_json::Value {
    let out = table(dir).arg("solve").arg("--json").args(args).output().unwrap();
    assert!(out.status.code().is_some_and(|c| c <= 1), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn known_answers_by_name() {
    let dir = tempfile::tempdir().unwrap();
    for (file, moves) in [
        ("puzzle04.txt", 4),
        ("puzzle07.txt", 7),
        ("puzzle2x2-06.txt", 6),
        ("puzzle3x3-31.txt", 31),
        ("puzzle4x4-44.txt", 44),
        ("puzzle44.txt", 44),
    ] {
        let path = data(file);
        let v = json(dir.path(), &["--file", path.to_str().unwrap()]);
        assert_eq!(v["moves"], moves, "{file}");
        assert_eq!(v["optimal"], true, "{file}");
        assert_eq!(v["solution"].as_str().unwrap().len(), if moves == 0 { 1 } else { moves }, "{file}");
    }
    // Russell & Norvig's board, goal blank-first: 26; seed 004's Hard preset: 11, not its report's 12
    let v = json(dir.path(), &["--preset", "russell-norvig"]);
    assert_eq!((v["moves"].as_u64(), v["exact"].as_u64()), (Some(26), Some(26)));
    let v = json(dir.path(), &["7", "2", "4", "5", "0", "6", "8", "3", "1", "--goal", "blank-first"]);
    assert_eq!(v["moves"], 26);
    let v = json(dir.path(), &["--preset", "hard"]);
    assert_eq!((v["moves"].as_u64(), v["exact"].as_u64()), (Some(11), Some(11)));
    // nothing was written to the directory (the 3x3 table for the check is built in memory)
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn cos226_format_is_the_test_clients_output() {
    let dir = tempfile::tempdir().unwrap();
    let expected = "Minimum number of moves = 4\n\
                    3\n 0  1  3 \n 4  2  5 \n 7  8  6 \n\n\
                    3\n 1  0  3 \n 4  2  5 \n 7  8  6 \n\n\
                    3\n 1  2  3 \n 4  0  5 \n 7  8  6 \n\n\
                    3\n 1  2  3 \n 4  5  0 \n 7  8  6 \n\n\
                    3\n 1  2  3 \n 4  5  6 \n 7  8  0 \n\n";
    table(dir.path())
        .args(["solve", "--format", "cos226", "--file"])
        .arg(data("puzzle04.txt"))
        .assert()
        .success()
        .stdout(expected);
    for file in ["puzzle3x3-unsolvable.txt", "puzzle4x4-unsolvable.txt", "puzzle2x2-unsolvable1.txt"] {
        table(dir.path())
            .args(["solve", "--format", "cos226", "--file"])
            .arg(data(file))
            .assert()
            .code(1)
            .stdout("No solution possible\n");
    }
}

#[test]
fn every_algorithm_and_heuristic_gives_a_valid_solution() {
    let dir = tempfile::tempdir().unwrap();
    let board = ["--preset", "worst"]; // 30 moves to the snail goal
    for algorithm in ["astar", "idastar", "bfs", "greedy", "weighted"] {
        for heuristic in ["hamming", "manhattan", "linear-conflict", "nilsson", "table"] {
            if (algorithm == "idastar" && heuristic == "hamming") || (algorithm == "bfs" && heuristic != "manhattan") {
                continue; // slow, or the same search again
            }
            let v = json(dir.path(), &[&board[..], &["-a", algorithm, "-H", heuristic]].concat());
            let moves = v["moves"].as_u64().unwrap();
            assert_eq!(v["exact"], 30);
            let optimal_expected = matches!(algorithm, "astar" | "idastar" | "bfs") && heuristic != "nilsson";
            if optimal_expected {
                assert_eq!(moves, 30, "{algorithm} {heuristic}");
            }
            assert_eq!(v["optimal"], moves == 30, "{algorithm} {heuristic}");
            // breadth-first search uses no heuristic, so it says nothing of one
            if algorithm == "bfs" {
                assert_eq!((&v["heuristic"], &v["admissible"]), (&serde_json::json!("none"), &serde_json::Value::Null));
            } else {
                assert_eq!(v["admissible"], heuristic != "nilsson");
            }
            // weighted A* with w = 2 and an admissible heuristic: at most twice the optimum
            if algorithm == "weighted" && heuristic != "nilsson" {
                assert!(moves <= 60, "{heuristic}: {moves}");
            }
            let stats = &v["stats"];
            assert!(stats["generated"].as_u64() >= stats["expanded"].as_u64());
            assert!(stats["branching_factor"].as_f64().unwrap() >= 1.0);
        }
    }
}

#[test]
fn human_report_names_what_it_found() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path())
        .args(["solve", "8", "6", "7", "2", "5", "4", "3", "0", "1", "-H", "manhattan"])
        .assert()
        .success()
        .stdout(contains("moves        31"))
        .stdout(contains("optimal      yes: the exact distance is 31"))
        .stdout(contains("b*"));
    table(dir.path())
        .args(["solve", "--preset", "easy", "-H", "nilsson"])
        .assert()
        .success()
        .stdout(contains("nilsson is not admissible"));
    // a rectangular board, shape given
    table(dir.path())
        .args(["solve", "--board", "2x4", "1", "2", "3", "4", "5", "6", "0", "7", "-a", "idastar"])
        .assert()
        .success()
        .stdout(contains("moves        1\n"));
    table(dir.path()).args(["solve", "--preset", "list"]).assert().success().stdout(contains("russell-norvig"));
    // --steps draws every board down to the goal
    table(dir.path())
        .args(["solve", "--steps", "--file"])
        .arg(data("puzzle04.txt"))
        .assert()
        .success()
        .stdout(contains("move 4 (D): 0 to go\n1 2 3\n4 5 6\n7 8 _\n"));
}

#[test]
fn unsolvable_boards_answer_at_once_even_at_127x127() {
    let dir = tempfile::tempdir().unwrap();
    // the goal with two tiles swapped: odd, so unsolvable, found by the parity rule alone
    let n = 127 * 127;
    let mut tiles: Vec<String> = (1..n).map(|t| t.to_string()).collect();
    tiles.push("0".into());
    tiles.swap(0, 1);
    let file = dir.path().join("big.txt");
    let rows: Vec<String> = tiles.chunks(127).map(|r| r.join(" ")).collect();
    fs::write(&file, format!("127\n{}\n", rows.join("\n"))).unwrap();
    table(dir.path())
        .args(["solve", "--format", "cos226", "--file"])
        .arg(&file)
        .assert()
        .code(1)
        .stdout("No solution possible\n");
    // and one move from the goal, solved
    tiles.swap(0, 1);
    tiles.swap(n - 1, n - 2);
    let rows: Vec<String> = tiles.chunks(127).map(|r| r.join(" ")).collect();
    fs::write(&file, format!("127\n{}\n", rows.join("\n"))).unwrap();
    let v = json(dir.path(), &["--file", file.to_str().unwrap()]);
    assert_eq!(v["moves"], 1);
}

#[test]
fn limits_give_up_with_exit_4() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path())
        .args(["solve", "--max-nodes", "100", "-H", "linear-conflict", "--file"])
        .arg(data("puzzle4x4-44.txt"))
        .assert()
        .code(4)
        .stderr(contains("gave up at the limit of 100 nodes"))
        .stderr(one_line_error());
    table(dir.path())
        .args(["solve", "--max-memory", "64K", "-H", "hamming", "--file"])
        .arg(data("puzzle3x3-31.txt"))
        .assert()
        .code(4)
        .stderr(contains("memory limit"));
    // the advice fits the search: breadth-first search is offered a heuristic, a search on the
    // exact distances no stronger one; the option to raise is named
    let hard = ["8", "6", "7", "2", "5", "4", "3", "0", "1"];
    for (args, says, never) in [
        (&["-a", "bfs"][..], "raise `--max-nodes`, or search with a heuristic", "stronger"),
        (&["-a", "idastar", "-H", "table"][..], "raise `--max-nodes`", "stronger"),
        (&["-a", "idastar", "-H", "manhattan"][..], "or search with a stronger heuristic (`-H pdb`", "--checkpoint"),
    ] {
        let out = table(dir.path()).args(["solve", "--max-nodes", "10"]).args(args).args(hard).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(4), "{args:?}: {stderr}");
        assert!(stderr.contains(says) && !stderr.contains(never), "{args:?}: {stderr}");
    }
    // with --json, a search that gave up still prints its report, the reason and nodes in it
    let out =
        table(dir.path()).args(["solve", "--json", "--max-nodes", "10", "-a", "astar"]).args(hard).output().unwrap();
    assert_eq!(out.status.code(), Some(4));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["gave_up"].as_str().unwrap().starts_with("astar gave up at the limit of 10 nodes"), "{v}");
    assert!(v["generated"].as_u64().unwrap() >= 10 && v["moves"].is_null(), "{v}");
    // a batch's boards share --max-memory, --threads of them at once: one alone has it all, two
    // side by side half each
    // side by side half each (and told so); an unsolvable or malformed line takes no share
    let board = fs::read_to_string(data("puzzle3x3-31.txt")).unwrap();
    let line = board.split_whitespace().skip(1).collect::<Vec<&str>>().join(" ") + "\n";
    let unsolvable = "2 1 3 4 5 6 7 8 0\n1 2 x\n";
    for (threads, boards, others, each) in
        [("1", 2, "", 65_536), ("2", 2, "", 32_768), ("2", 1, "", 65_536), ("7", 1, unsolvable, 65_536)]
    {
        let out = table(dir.path())
            .args(["solve", "--batch", "--max-memory", "64K", "-a", "astar", "-H", "hamming", "--threads", threads])
            .write_stdin(line.repeat(boards) + others)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && stderr.contains(&format!("the memory limit of {each} bytes")), "{stderr}");
        assert_eq!(stderr.contains("that share of the memory"), each < 65_536, "{stderr}");
    }
}

/// A 4x4 search without pattern tables hints at them with both commands, each naming the goal,
/// so that running them as printed solves the same board; and the limit's advice does not
/// suggest the algorithm that gave up.
#[test]
fn the_pattern_hint_and_the_limit_advice_can_be_followed_as_printed() {
    let dir = tempfile::tempdir().unwrap();
    let board: Vec<String> = (0..16).map(|i| ((16 - i) % 16).to_string()).skip(1).chain(["0".into()]).collect();
    let out = table(dir.path())
        .args(["solve", "--goal", "blank-first", "--board", "4x4", "--max-nodes", "10"])
        .args(&board)
        .assert()
        .code(4)
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("`table build --board 4x4 --goal blank-first --pattern 6-6-3`, then `table solve --goal blank-first -H pdb --pattern 6-6-3`"),
        "{stderr}"
    );
    assert!(stderr.contains("idastar gave up") && !stderr.contains("try `--algorithm idastar`"), "{stderr}");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str)] = &[
        ("ragged.txt", "3\n1 2 3\n4 5\n6 7 8 0\n"),
        ("nonsquare.txt", "3\n1 2 3 4\n5 6 7 8\n9 10 11 0\n"),
        ("huge.txt", "128\n1 2\n"),
        ("dup.txt", "3\n1 2 3\n4 5 6\n7 7 0\n"),
        ("missing.txt", "3\n1 2 3\n4 5 6\n7 9 0\n"),
        ("empty.txt", ""),
    ];
    for (name, text) in cases {
        let path = dir.path().join(name);
        fs::write(&path, text).unwrap();
        table(dir.path()).args(["solve", "--file"]).arg(&path).assert().code(2).stderr(one_line_error());
    }
    for args in [
        &["solve", "1", "2", "3", "4", "5", "0"][..], // not square, no --board
        &["solve", "1", "2", "3", "4", "5", "6", "7", "8", "8"], // duplicate
        &["solve"],                                   // nothing
        &["solve", "--preset", "nope"],
        &["solve", "--preset", "hard", "1", "2", "3"],
        &["solve", "--preset", "hard", "-a", "astar", "--weight", "2"],
        &["solve", "--preset", "hard", "--weight=-1"],
        &["solve", "--board", "5x5", "--preset", "hard"],
    ] {
        table(dir.path()).args(args).assert().code(2).stderr(one_line_error());
    }
    // --heuristic table on a board no table can cover
    table(dir.path())
        .args(["solve", "-H", "table", "--file"])
        .arg(data("puzzle4x4-44.txt"))
        .assert()
        .code(2)
        .stderr(one_line_error());
    // a table file for another board
    table(dir.path()).args(["build", "-q", "--board", "2x2"]).assert().success();
    table(dir.path())
        .args(["solve", "--table", "2x2-blank-last.table", "-H", "table", "--file"])
        .arg(data("puzzle04.txt"))
        .assert()
        .code(2)
        .stderr(one_line_error());
}

#[test]
fn every_2x2_and_3x3_cos226_file_by_its_expected_moves() {
    use slidetable::heuristic::Heuristic;
    use slidetable::search::{solve, Algorithm, Guide, Options};
    use slidetable::{Board, Goal};
    let dir = data("cos226");
    let expected = fs::read_to_string(dir.join("EXPECTED.tsv")).unwrap();
    let mut tables = std::collections::HashMap::new();
    let mut checked = 0;
    for line in expected.lines().skip(1) {
        let [file, _, moves] = line.split('\t').collect::<Vec<_>>()[..] else { panic!("bad line {line}") };
        let board = Board::parse_cos226(&fs::read_to_string(dir.join(file)).unwrap()).unwrap();
        if board.shape().cells() > 9 {
            continue; // the larger ones are scripts/conformance.sh's
        }
        let goal = Goal::BlankLast.board(board.shape()).unwrap();
        let table = tables.entry(board.shape()).or_insert_with(|| slidetable::build(&goal, |_| {}).unwrap());
        let exact = table.distance(&board).unwrap();
        for algorithm in [Algorithm::AStar, Algorithm::IdaStar] {
            let found =
                solve(&board, &goal, Guide::Heuristic(Heuristic::LinearConflict), &Options::new(algorithm)).unwrap();
            match (moves, found) {
                ("unsolvable", None) => assert_eq!(exact, None, "{file}"),
                (m, Some(found)) => {
                    assert_eq!(found.moves.len().to_string(), m, "{file} by {}", algorithm.name());
                    assert_eq!(exact, Some(found.moves.len() as u8), "{file}: the table disagrees");
                }
                (m, None) => panic!("{file}: expected {m}, found no solution"),
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 67, "every 2x2 and 3x3 file of the COS 226 samples");
}

#[test]
fn a_table_file_checks_and_guides_boards_past_nine_cells() {
    let dir = tempfile::tempdir().unwrap();
    let board = ["--board", "2x5", "6", "1", "2", "3", "4", "7", "8", "9", "5", "0"];
    // no 2x5 table yet: no verdict, and the table heuristic asks for one
    let v = json(dir.path(), &board);
    assert_eq!(v["exact"], serde_json::Value::Null);
    assert_eq!(v["optimal"], true, "A* with linear conflict is optimal by itself");
    table(dir.path())
        .arg("solve")
        .args(board)
        .args(["-H", "table"])
        .assert()
        .code(2)
        .stderr(contains("table build --board 2x5"));
    table(dir.path()).args(["build", "-q", "--board", "2x5"]).assert().success();
    let exact = json(dir.path(), &board)["exact"].as_u64().unwrap();
    for algorithm in ["astar", "idastar", "greedy"] {
        let v = json(dir.path(), &[&board[..], &["-H", "table", "-a", algorithm]].concat());
        assert_eq!(v["moves"].as_u64(), Some(exact), "{algorithm} down the exact distances");
        assert_eq!(v["stats"]["expanded"].as_u64(), Some(exact), "{algorithm}: one expansion per move");
    }
    // greedy with Hamming is checked against the file and may be longer
    let v = json(dir.path(), &[&board[..], &["-H", "hamming", "-a", "greedy"]].concat());
    assert_eq!(v["optimal"], v["moves"].as_u64() == Some(exact));
}

#[test]
fn a_puzzle_file_can_come_from_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path())
        .args(["solve", "--format", "cos226", "--file", "-"])
        .write_stdin(fs::read_to_string(data("puzzle04.txt")).unwrap())
        .assert()
        .success()
        .stdout(predicates::str::starts_with("Minimum number of moves = 4\n"));
    table(dir.path()).args(["solve", "--file", "-"]).write_stdin("3\n1 2\n").assert().code(2).stderr(one_line_error());
    // a missing table file is named once, on one line
    table(dir.path())
        .args(["solve", "--preset", "hard", "--table", "missing.table"])
        .assert()
        .code(3)
        .stderr(one_line_error())
        .stderr(predicates::function::function(|s: &str| s.matches("missing.table").count() == 1));
}

#[test]
fn an_unsolvable_board_names_the_goal_it_can_reach_instead() {
    let dir = tempfile::tempdir().unwrap();
    // Korf's first instance, given without `--goal blank-first`: unsolvable toward blank-last
    let korf1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";
    table(dir.path())
        .args(["solve", korf1])
        .assert()
        .code(1)
        .stdout(contains("unsolvable"))
        .stdout(contains("hint: it can reach the blank-first goal: give `--goal blank-first`"))
        // and no advice on searching faster, which cannot help a board that cannot reach the goal
        .stderr("");
    let out = table(dir.path()).args(["solve", "--json", korf1]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["solvable_toward"], serde_json::json!(["blank-first"]));
    // no search was made, so no heuristic is named or called admissible
    assert_eq!((&v["heuristic"], &v["admissible"]), (&serde_json::json!("none"), &serde_json::Value::Null));
    // toward the goal it names, it is solved
    table(dir.path()).args(["solve", "--goal", "blank-first", "-H", "linear-conflict", korf1]).assert().success();
    // on 3x3 the spiral goal is of the other parity than blank-last and blank-first (its tiles,
    // read row by row, are 1 2 3 8 4 7 6 5: an odd permutation), so every odd board reaches it
    table(dir.path())
        .args(["solve", "2 1 3 4 5 6 7 8 0"])
        .assert()
        .code(1)
        .stdout(contains("hint: it can reach the snail goal: give `--goal snail`"));
    table(dir.path())
        .args(["solve", "--goal", "blank-first", "2 1 3 4 5 6 7 8 0"])
        .assert()
        .code(1)
        .stdout(contains("hint: it can reach the snail goal"));
    // a solvable board: nothing to suggest
    assert!(slidetable::Goal::reachable_instead(
        &slidetable::Board::parse(slidetable::Shape::EIGHT, "8 6 7 2 5 4 3 0 1").unwrap(),
        &slidetable::Goal::BlankLast.board(slidetable::Shape::EIGHT).unwrap(),
    )
    .is_empty());
}

/// Misplaced tiles answers to its textbook names (`misplaced`, `h1`) as well as `hamming`, in
/// every command that takes a heuristic's name.
#[test]
fn misplaced_tiles_by_any_of_its_names() {
    let dir = tempfile::tempdir().unwrap();
    let hardest = "8 6 7 2 5 4 3 0 1";
    let hamming = json(dir.path(), &["-H", "hamming", hardest]);
    for name in ["misplaced", "h1"] {
        let v = json(dir.path(), &["-H", name, hardest]);
        assert_eq!(v["heuristic"], "hamming", "-H {name}");
        assert_eq!(v["stats"]["generated"], hamming["stats"]["generated"], "-H {name}");
        let v = json(dir.path(), &["--heuristic", name, "-a", "idastar", "--board", "2x3", "4 1 2 5 0 3"]);
        assert_eq!(v["heuristic"], "hamming", "--heuristic {name}");
    }
    // the other textbook names too
    for (alias, name) in [("h2", "manhattan"), ("lc", "linear-conflict"), ("p+3s", "nilsson")] {
        assert_eq!(json(dir.path(), &["-H", alias, hardest])["heuristic"], name, "-H {alias}");
    }
    // still refused: a name that is none of them, with the names to use
    table(dir.path())
        .args(["solve", "-H", "misplace", hardest])
        .assert()
        .code(2)
        .stderr(contains("possible values: hamming"));
    // the laboratory's commands take the same names
    table(dir.path()).args(["heuristic", "misplaced"]).assert().success().stdout(contains("hamming"));
    table(dir.path())
        .args(["experiment", "--depths", "4", "--count", "3", "--heuristics", "misplaced,manhattan", "--csv"])
        .assert()
        .success()
        .stdout(contains("A*(hamming)"));
}

#[test]
fn within_prints_its_proof_and_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    // the 8-puzzle's hardest board (31 moves): the table checks what the proof says
    let board = ["8", "6", "7", "2", "5", "4", "3", "0", "1"];
    for w in ["1", "1.2", "2"] {
        let mut args = vec!["--within", w, "-H", "manhattan"];
        args.extend(board);
        let v = json(dir.path(), &args);
        let (moves, lb) = (v["moves"].as_u64().unwrap(), v["lower_bound"].as_u64().unwrap());
        let within: f64 = w.parse().unwrap();
        assert!(lb <= 31 && moves >= 31 && moves as f64 <= within * lb as f64, "{w}: {v}");
        assert_eq!(v["algorithm"], "within");
        assert_eq!(v["within_asked"].as_f64(), Some(within));
        assert!(v["within"].as_f64().unwrap() <= within, "{v}");
        assert_eq!(v["optimal"], moves == 31);
    }
    // the human report: the length, the ratio and the bound on one line
    let out = table(dir.path()).args(["solve", "--within", "3", "-H", "manhattan"]).args(board).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text.lines().find(|l| l.starts_with("moves")).unwrap();
    assert!(line.contains("of optimal: at least") || line.trim_end() == "moves        31", "{line}");
    // a heuristic that proves nothing, a factor below 1, with another algorithm: one-line errors
    table(dir.path())
        .args(["solve", "--within", "1.5", "-H", "nilsson"])
        .args(board)
        .assert()
        .code(2)
        .stderr(one_line_error());
    for bad in [["--within", "0.9"], ["--within", "abc"]] {
        table(dir.path()).arg("solve").args(bad).args(board).assert().code(2).stderr(one_line_error());
    }
    table(dir.path())
        .args(["solve", "--within", "1.5", "--algorithm", "astar"])
        .args(board)
        .assert()
        .code(2)
        .stderr(contains("cannot be used with"));
    table(dir.path()).args(["solve", "--time-limit", "0"]).args(board).assert().code(2).stderr(contains("seconds"));
}

#[test]
fn a_time_limit_without_a_solution_gives_up_and_with_one_returns_it() {
    let dir = tempfile::tempdir().unwrap();
    // DeepCubeA's first 35-puzzle board (their 128 moves): A* with Manhattan cannot finish in
    // 0.01 s; anytime search at weight 3 has a solution in a fraction of a second
    let board = "8,10,7,18,0,6,13,12,23,22,5,4,2,9,15,14,1,20,31,35,11,21,17,16,34,3,26,33,19,24,27,29,25,28,32,30";
    table(dir.path())
        .args(["solve", "--board", "6x6", "-H", "manhattan", "--algorithm", "astar", "--time-limit", "0.01", board])
        .assert()
        .code(4)
        .stderr(contains("time limit of 0.01 s"));
    let v = json(dir.path(), &["--board", "6x6", "--anytime", "-H", "manhattan", "--time-limit", "1", board]);
    let (moves, lb) = (v["moves"].as_u64().unwrap(), v["lower_bound"].as_u64().unwrap());
    assert!(lb >= 84 && lb < moves, "{v}"); // 84: the board's Manhattan distance
    assert!(v["stopped"].as_str().unwrap().contains("time limit of 1 s"), "{v}");
}

#[test]
fn a_batch_within_gives_each_lines_proof_and_a_stopped_factor_of_one_is_not_optimal() {
    let dir = tempfile::tempdir().unwrap();
    let boards = "8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 7 0 8\n";
    let out = table(dir.path())
        .args(["solve", "--batch", "--within", "1.5", "-H", "manhattan"])
        .write_stdin(boards)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("# within a factor 1.5 of optimal with manhattan"));
    assert_eq!(lines.next(), Some("# line\tmoves\tlower_bound\twithin\tstopped\tgenerated\tseconds\tsolution"));
    let first: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let (moves, lb): (f64, f64) = (first[1].parse().unwrap(), first[2].parse().unwrap());
    assert!(lb <= 31.0 && moves <= 1.5 * lb && first[4] == "-", "{first:?}");
    assert_eq!(first[3].parse::<f64>().unwrap(), (moves / lb * 10_000.0).ceil() / 10_000.0);
    // a factor of 1 stopped by a limit returns its best (reduce's), and says it is not proven
    let board = "8,10,7,18,0,6,13,12,23,22,5,4,2,9,15,14,1,20,31,35,11,21,17,16,34,3,26,33,19,24,27,29,25,28,32,30";
    let v = json(dir.path(), &["--board", "6x6", "--within", "1", "--max-nodes", "1000", "-H", "manhattan", board]);
    assert_eq!(v["optimal"], serde_json::Value::Null, "{v}");
    assert!(v["stopped"].as_str().unwrap().contains("1000 nodes"), "{v}");
    assert!(v["moves"].as_u64().unwrap() > v["lower_bound"].as_u64().unwrap());
    // COS 226's format claims a minimum: a solution not proven minimal is said so on stderr
    table(dir.path())
        .args(["solve", "--format", "cos226", "--algorithm", "greedy", "8", "6", "7", "2", "5", "4", "3", "0", "1"])
        .assert()
        .success()
        .stdout(contains("Minimum number of moves"))
        .stderr(contains("not proven minimal"));
}

#[test]
fn a_beam_stopped_by_a_limit_gives_reduces_solution_and_a_solved_board_no_moves() {
    let dir = tempfile::tempdir().unwrap();
    let board = "8,10,7,18,0,6,13,12,23,22,5,4,2,9,15,14,1,20,31,35,11,21,17,16,34,3,26,33,19,24,27,29,25,28,32,30";
    let v = json(dir.path(), &["--board", "6x6", "--algorithm", "beam", "--max-nodes", "1000", board]);
    let stopped = v["stopped"].as_str().unwrap();
    assert!(stopped.contains("1000 nodes") && stopped.contains("reduce's solution"), "{v}");
    // the solution given replays to the goal
    let shape = slidetable::Shape::new(6, 6).unwrap();
    let mut b = slidetable::Board::parse(shape, board).unwrap();
    for c in v["solution"].as_str().unwrap().chars() {
        b.apply(slidetable::Dir::from_letter(c).unwrap()).unwrap();
    }
    assert_eq!(b, slidetable::Goal::BlankLast.board(shape).unwrap());
    assert_eq!(v["moves"].as_u64().unwrap() as usize, v["solution"].as_str().unwrap().len());
    // the readable report says so too, and exits 0: there is a solution
    table(dir.path())
        .args(["solve", "--board", "6x6", "--algorithm", "beam", "--max-nodes", "1000", board])
        .assert()
        .success()
        .stdout(contains("stopped      at the limit of 1000 nodes, before the beam reached the goal"));
    // a solved board's solution in JSON is no moves at all, never a `-` a program would read
    let v = json(dir.path(), &["1", "2", "3", "4", "5", "6", "7", "8", "0"]);
    assert_eq!((v["moves"].as_u64(), v["solution"].as_str()), (Some(0), Some("")), "{v}");
    // a factor finer than thousandths is refused as a factor, not as a weight
    table(dir.path())
        .args(["solve", "--within", "1.0001", "8", "6", "7", "2", "5", "4", "3", "0", "1"])
        .assert()
        .code(2)
        .stderr(contains("within 1.0001 has more than three decimals"))
        .stderr(one_line_error());
}
