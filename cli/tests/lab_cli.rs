//! The laboratory commands (`sample`, `count`, `heuristic`, `experiment`, `stats --plot`) run
//! as a user would, in a scratch directory.

use crate::common;

use std::fs;

use assert_cmd::Command;
use common::{data, one_line_error, table};
use predicates::str::contains;

fn stdout(cmd: &mut Command) -> String {
    String::from_utf8(cmd.assert().success().get_output().stdout.clone()).unwrap()
}

#[test]
fn sample_prints_boards_at_the_depth_that_query_batch_reads() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout(table(dir.path()).args(["sample", "--depth", "24", "--count", "20", "--seed", "9"]));
    assert_eq!(out.lines().count(), 20);
    assert_eq!(out, stdout(table(dir.path()).args(["sample", "-d", "24", "-n", "20", "-s", "9"])));
    assert_ne!(out, stdout(table(dir.path()).args(["sample", "-d", "24", "-n", "20", "-s", "10"])));
    let answers = stdout(table(dir.path()).args(["query", "--batch"]).write_stdin(out.clone()));
    assert_eq!(answers, "24\n".repeat(20));
    let json = stdout(table(dir.path()).args(["sample", "-d", "24", "-n", "20", "-s", "9", "--json"]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["depth"], 24);
    assert_eq!(v["boards"].as_array().unwrap().len(), 20);
    let first: Vec<String> = v["boards"][0].as_array().unwrap().iter().map(|t| t.to_string()).collect();
    assert_eq!(first.join(" "), out.lines().next().unwrap());
}

/// `--uniform`: boards of any shape that reach the goal, the distances of the 3x3's following
/// the table's distribution, the same boards for the same seed in every output, no table made.
#[test]
fn uniform_samples_follow_the_whole_distribution_and_need_no_table() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout(table(dir.path()).args(["sample", "--uniform", "-n", "20000", "-s", "5"]));
    assert!(!dir.path().join("eight.table").exists(), "no table is needed");
    assert_eq!(out, stdout(table(dir.path()).args(["sample", "--uniform", "-n", "20000", "-s", "5"])));
    assert_ne!(out, stdout(table(dir.path()).args(["sample", "--uniform", "-n", "20000", "-s", "6"])));
    let answers = stdout(table(dir.path()).args(["query", "--batch"]).write_stdin(out.clone()));
    let mut counts = vec![0f64; 32];
    for line in answers.lines() {
        counts[line.parse::<usize>().unwrap()] += 1.0;
    }
    // against the table's histogram: chi-square over the depths holding 5 or more expected boards
    // (about 20 of them); 60 is far past any chance deviation, a walk's clustering far past 60
    let stats = stdout(table(dir.path()).args(["stats", "--json"]));
    let v: serde_json::Value = serde_json::from_str(&stats).unwrap();
    let histogram: Vec<f64> =
        v["distribution"].as_array().unwrap().iter().map(|x| x["states"].as_f64().unwrap()).collect();
    let total: f64 = histogram.iter().sum();
    let mut chi2 = 0.0;
    for (d, &held) in histogram.iter().enumerate() {
        let expected = 20000.0 * held / total;
        if expected >= 5.0 {
            chi2 += (counts[d] - expected).powi(2) / expected;
        }
    }
    assert!(chi2 < 60.0, "chi-square {chi2:.1}: {counts:?}");
    // the JSON and the files hold the same boards
    let json = stdout(table(dir.path()).args(["sample", "--uniform", "-n", "3", "-s", "5", "--json"]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!((v["uniform"].as_bool(), v["depth"].is_null()), (Some(true), true));
    let first: Vec<String> = v["boards"][0].as_array().unwrap().iter().map(|t| t.to_string()).collect();
    assert_eq!(first.join(" "), out.lines().next().unwrap());
    // any shape, any goal; every board reaches it (a search stopped at its node limit, exit 4,
    // not refused by the parity rule, exit 1)
    let big =
        stdout(table(dir.path()).args(["sample", "--uniform", "--board", "4x4", "--goal", "blank-first", "-n", "20"]));
    assert_eq!(big.lines().count(), 20);
    for line in big.lines() {
        let tiles: Vec<&str> = line.split(' ').collect();
        table(dir.path())
            .args(["solve", "--board", "4x4", "--goal", "blank-first", "-H", "manhattan", "--max-nodes", "1"])
            .args(&tiles)
            .assert()
            .code(4);
    }
    table(dir.path())
        .args(["sample", "-n", "3"])
        .assert()
        .code(2)
        .stderr(contains("give --depth D"))
        .stderr(contains("--uniform"))
        .stderr(one_line_error());
    table(dir.path()).args(["sample", "--uniform", "--depth", "3"]).assert().code(2);
}

/// `solve --batch --instances`: the shipped sets from any directory, with their shape and goal.
#[test]
fn a_batch_of_shipped_instances_needs_no_file_and_takes_their_goal() {
    let dir = tempfile::tempdir().unwrap();
    // the 15-puzzles' IDA* gives up at the limit; the 24-puzzles' default without pattern tables
    // is the bounded search, which returns its best solution there
    for (name, boards, solved) in [("korf100", 100, 0), ("korf24", 50, 50)] {
        let out = table(dir.path())
            .args(["solve", "--batch", "--instances", name, "-H", "manhattan", "--max-nodes", "100"])
            .assert()
            .get_output()
            .stdout
            .clone();
        let out = String::from_utf8(out).unwrap();
        let gave_up = boards - solved;
        let total = format!("# total: {boards} boards, {solved} solved, 0 unsolvable, {gave_up} gave up, 0 errors");
        assert!(out.contains(&total), "{out}");
        assert!(!out.contains("cannot reach"), "{out}");
    }
    table(dir.path())
        .args(["solve", "--batch", "--instances", "korf"])
        .assert()
        .code(2)
        .stderr(contains("use korf100 or korf24"))
        .stderr(one_line_error());
    table(dir.path()).args(["solve", "--instances", "korf100"]).assert().code(2);
}

#[test]
fn sample_refuses_what_the_table_does_not_have() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path()).args(["build", "-q"]).assert().success();
    table(dir.path())
        .args(["sample", "--depth", "31", "--count", "3"])
        .assert()
        .code(2)
        .stderr(contains("2 states at depth 31"))
        .stderr(one_line_error());
    table(dir.path())
        .args(["sample", "--depth", "32"])
        .assert()
        .code(2)
        .stderr(contains("no states at depth 32"))
        .stderr(one_line_error());
    table(dir.path()).args(["sample", "--depth", "x"]).assert().code(2);
    table(dir.path()).args(["sample", "--table", "missing.table", "--depth", "3"]).assert().code(3);
}

#[test]
fn count_cos226_puzzle07_has_more_than_one_solution() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout(table(dir.path()).args(["count", "--file"]).arg(data("puzzle07.txt")));
    assert!(out.contains("distance   7 moves"), "{out}");
    let n: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("solutions  "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.replace(',', "").parse().ok())
        .unwrap();
    assert!(n > 1, "{out}");
    let json = stdout(table(dir.path()).args(["count", "--json", "8 6 7 2 5 4 3 0 1"]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["distance"], 31);
    assert!(v["solutions"].as_str().unwrap().parse::<u128>().unwrap() >= 3); // 3 optimal first moves
    let goal = stdout(table(dir.path()).args(["count", "1 2 3 4 5 6 7 8 0"]));
    assert!(goal.contains("distance   0 moves") && goal.contains("solutions  1 optimal solution"), "{goal}");
}

#[test]
fn count_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path()).args(["count", "1 2 3 4 5 6 8 7 0"]).assert().code(1).stdout(contains("unsolvable"));
    table(dir.path()).args(["count", "1 2 3"]).assert().code(2).stderr(one_line_error());
    table(dir.path()).arg("count").assert().code(2).stderr(contains("no board given"));
    table(dir.path()).args(["count", "1 2 3", "--file"]).arg(data("puzzle07.txt")).assert().code(2);
    table(dir.path()).args(["count", "--file", "nope.txt"]).assert().code(3).stderr(one_line_error());
    table(dir.path())
        .args(["count", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0"])
        .assert()
        .code(2)
        .stderr(contains("tables go up to 15 cells"))
        .stderr(one_line_error());
    // the preset's own goal: seed 004's worst board is 30 moves from the snail goal
    let out = stdout(table(dir.path()).args(["count", "--preset", "worst"]));
    assert!(out.contains("distance   30 moves (exact; goal 1 2 3 / 8 _ 4 / 7 6 5)"), "{out}");
}

#[test]
fn heuristic_grades() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout(table(dir.path()).args(["heuristic", "manhattan"]));
    assert!(out.contains("admissible on this table: yes"), "{out}");
    assert!(out.contains("consistent on this table: yes"), "{out}");
    // the headline measures, from the library's grade (Manhattan on 3x3 averages 14.000 against
    // h* 21.972, never overestimating, so its mean absolute error is its signed mean error)
    for line in [
        "over all 181,440 states (error = h* - h: positive where h underestimates)",
        "  mean absolute error  7.972",
        "  signed mean h* - h   +7.972",
        "  overestimates        0 (worst h - h* = 0)",
        "  inconsistent edges   0 of 241,920 (largest |h(a) - h(b)| = 1)",
    ] {
        assert!(out.lines().any(|l| l == line), "{line:?} in\n{out}");
    }
    assert!(out.contains("  RMSE                 8.508"), "{out}");
    assert!(out.contains("h < h*, h > h*, h = h*  98.70%, 0.00%, 1.30%"), "{out}");
    assert!(out.contains("  policy accuracy      58.12% of 181,439 states not at the goal"), "{out}");
    let out = stdout(table(dir.path()).args(["heuristic", "nilsson", "--goal", "snail"]));
    assert!(out.contains("admissible on this table: no"), "{out}");
    assert!(out.contains("  signed mean h* - h   -"), "{out}");
    let csv = stdout(table(dir.path()).args(["heuristic", "h1", "--csv"]));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + 32 + 1);
    assert!(lines[0].starts_with("depth,states,mean_h,"));
    assert!(
        lines[0].ends_with(",mae,rmse,under_share,over_share,worst_overestimate,max_edge_difference,policy_accuracy")
    );
    assert!(lines[33].starts_with("total,181440,"));
    let states: u64 = lines[1..33].iter().map(|l| l.split(',').nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(states, 181_440);
    // per depth, the MAE weighted by the states is the total's; no policy at the goal
    let field = |l: &str, k: usize| l.split(',').nth(k).unwrap().to_string();
    let weighted: f64 =
        lines[1..33].iter().map(|l| field(l, 1).parse::<f64>().unwrap() * field(l, 10).parse::<f64>().unwrap()).sum();
    assert!((weighted / 181_440.0 - field(lines[33], 10).parse::<f64>().unwrap()).abs() < 1e-5);
    assert_eq!(field(lines[1], 16), "");
    assert_eq!(field(lines[2], 16), "1.000000");
    let json: serde_json::Value =
        serde_json::from_str(&stdout(table(dir.path()).args(["heuristic", "nilsson", "--json"]))).unwrap();
    let t = &json["total"];
    assert!(t["mae"].as_f64().unwrap() >= t["mean_error"].as_f64().unwrap().abs());
    assert!(t["over_share"].as_f64().unwrap() > 0.5 && t["worst_overestimate"].as_f64().unwrap() > 0.0);
    assert!(json["by_depth"][0]["policy_accuracy"].is_null());
    table(dir.path())
        .args(["heuristic", "euclid"])
        .assert()
        .code(2)
        .stderr(contains("unknown heuristic `euclid`"))
        .stderr(one_line_error());
}

#[test]
fn stats_plot_writes_an_svg_or_fails_with_exit_3() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path())
        .args(["stats", "--plot", "dist.svg"])
        .assert()
        .success()
        .stderr(contains("wrote the plot to dist.svg"));
    let svg = fs::read_to_string(dir.path().join("dist.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    // one bar per depth
    assert!(svg.matches("<rect").count() >= 32, "{}", svg.matches("<rect").count());
    table(dir.path())
        .args(["stats", "--plot", "no/such/dir/dist.svg"])
        .assert()
        .code(3)
        .stderr(contains("writing the plot no/such/dir/dist.svg"))
        .stderr(one_line_error());
}

#[test]
fn experiment_small_run() {
    let dir = tempfile::tempdir().unwrap();
    let csv = stdout(table(dir.path()).args([
        "experiment",
        "--depths",
        "2,8-12/4",
        "--count",
        "5",
        "--csv",
        "--ida",
        "--plot",
        "nodes.svg",
    ]));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 4, "{csv}");
    assert!(lines[0].starts_with("depth,problems,A*(hamming)_nodes,A*(hamming)_bstar,A*(hamming)_expanded,"));
    assert!(lines[0].contains("IDA*(table)_nodes"));
    assert_eq!(lines[1].split(',').take(2).collect::<Vec<_>>(), ["2", "4"]);
    assert_eq!(lines[2].split(',').take(2).collect::<Vec<_>>(), ["8", "5"]);
    assert_eq!(lines[3].split(',').take(2).collect::<Vec<_>>(), ["12", "5"]);
    assert!(dir.path().join("3x3-blank-first.table").exists(), "the default goal is blank-first");
    let svg = fs::read_to_string(dir.path().join("nodes.svg")).unwrap();
    assert!(svg.contains("A*(manhattan)") && svg.contains("IDA*(table)"));
    let human = stdout(table(dir.path()).args(["experiment", "--depths", "4", "--count", "3"]));
    let row = human.lines().find(|l| l.starts_with("    4 ")).unwrap_or_default();
    assert_eq!(row.split_whitespace().take(2).collect::<Vec<_>>(), ["4", "3"], "{human}");
    assert!(human.contains("A*(linear-conflict)"), "{human}");
}

#[test]
fn experiment_bad_arguments() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path()).args(["build", "-q", "--goal", "blank-first"]).assert().success();
    for (args, message) in [
        (&["--depths", "2-x"][..], "bad --depths item `2-x`"),
        (&["--depths", "40"], "no states at depth 40"),
        (&["--depths", "9-3"], "bad --depths item"),
        (&["--heuristics", "h1,foo"], "unknown heuristic `foo`"),
        (&["--count", "0"], "--count must be at least 1"),
    ] {
        table(dir.path())
            .arg("experiment")
            .args(args)
            .assert()
            .code(2)
            .stderr(contains(message))
            .stderr(one_line_error());
    }
}

#[test]
fn sample_writes_cos226_files_that_solve_to_their_depth() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("boards");
    table(dir.path()).args(["sample", "--depth", "17", "--count", "3", "--out-dir", "boards"]).assert().success();
    let mut names: Vec<_> =
        fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["d17-001.txt", "d17-002.txt", "d17-003.txt"]);
    for name in &names {
        table(dir.path())
            .args(["query", "--json", "--file"])
            .arg(out.join(name))
            .assert()
            .success()
            .stdout(predicates::str::contains("\"distance\":17"));
    }
    // a second run would overwrite them: refused, nothing changed
    let before = fs::read(out.join("d17-001.txt")).unwrap();
    table(dir.path())
        .args(["sample", "--depth", "17", "--count", "3", "--seed", "9", "--out-dir", "boards"])
        .assert()
        .code(3)
        .stderr(one_line_error());
    assert_eq!(fs::read(out.join("d17-001.txt")).unwrap(), before);
}

/// `heuristic --json` and `experiment --json` carry the same figures as their CSV.
#[test]
fn heuristic_and_experiment_speak_json() {
    let dir = tempfile::tempdir().unwrap();
    let csv = table(dir.path()).args(["heuristic", "manhattan", "--csv"]).assert().success();
    let csv = String::from_utf8_lossy(&csv.get_output().stdout).to_string();
    let json = table(dir.path()).args(["heuristic", "manhattan", "--json"]).assert().success();
    let v: serde_json::Value = serde_json::from_slice(&json.get_output().stdout).unwrap();
    assert_eq!(v["admissible"], true);
    assert_eq!(v["consistent"], true);
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), v["by_depth"].as_array().unwrap().len() + 1);
    for (row, j) in rows.iter().zip(v["by_depth"].as_array().unwrap()) {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(f[1], j["states"].to_string());
        assert_eq!(f[6], j["overestimates"].to_string());
    }
    let csv = table(dir.path()).args(["experiment", "--depths", "4,8", "--count", "10", "--csv"]).assert().success();
    let csv = String::from_utf8_lossy(&csv.get_output().stdout).to_string();
    let json = table(dir.path()).args(["experiment", "--depths", "4,8", "--count", "10", "--json"]).assert().success();
    let v: serde_json::Value = serde_json::from_slice(&json.get_output().stdout).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    for (line, d) in csv.lines().skip(1).zip(v["depths"].as_array().unwrap()) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f[0], d["depth"].to_string());
        for (name, value) in header.iter().zip(&f).filter(|(n, _)| n.ends_with("_nodes")) {
            let label = name.trim_end_matches("_nodes");
            let mean = d["searches"][label]["mean_generated"].as_f64().unwrap();
            assert!((mean - value.parse::<f64>().unwrap()).abs() < 0.01, "{label}: {mean} vs {value}");
        }
    }
}

/// `--preset rn` spells out every choice, runs IDS, and prints the book's figures with the ratio;
/// at depth 2 (all 8 states) the counts are the book's exactly: IDS 10, A* 6 and 6, and b* 1.79
/// by the equation behind the printed values.
#[test]
fn experiment_preset_rn_reproduces_the_book_and_says_how_it_counts() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout(table(dir.path()).args(["experiment", "--preset", "rn", "--depths", "2,4", "--per-depth", "20"]));
    for said in [
        "goal 1 2 3 / 8 _ 4 / 7 6 5",
        "problems drawn uniformly",
        "preset rn: Russell & Norvig",
        "the move straight back to the parent included",
        "ties on f: lifo",
        "IDS: depth-limited tree search",
        "N = 1 + b* + ... + b*^d",
        "book: the figure's value; ratio: ours / book",
    ] {
        assert!(out.contains(said), "{said:?} not in\n{out}");
    }
    let two = out.lines().find(|l| l.trim_start().starts_with("2 ")).unwrap();
    let words: Vec<&str> = two.split_whitespace().collect();
    assert_eq!(words, ["2", "8", "10", "2.5414", "10", "1.00", "6", "1.7913", "6", "1.00", "6", "1.7913", "6", "1.00"]);
    // JSON and CSV carry the setup and the book's column
    let json = stdout(table(dir.path()).args(["experiment", "--preset", "rn", "--depths", "2", "--json"]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["setup"]["counting"]["ties"], "lifo");
    assert_eq!(v["setup"]["counting"]["parent_move"], true);
    assert_eq!(v["depths"][0]["searches"]["A*(hamming)"]["published"], 6);
    assert_eq!(v["depths"][0]["searches"]["IDS"]["ratio"], 1.0);
    let csv = stdout(table(dir.path()).args(["experiment", "--preset", "rn", "--depths", "2", "--csv"]));
    assert!(csv.lines().any(|l| l.starts_with("# counted: the start")), "{csv}");
    assert!(csv.contains("IDS_book,IDS_ratio") && csv.contains(",10,1.0000"), "{csv}");
}

/// Each switch on the command line, on the same problems: ties smaller-g first cost more than
/// larger-g; the move back and the start add to the count; Hazan & Ra's preset draws walks.
#[test]
fn experiment_switches_move_the_counts_and_are_said() {
    let dir = tempfile::tempdir().unwrap();
    let mean = |extra: &[&str]| -> f64 {
        let mut args = vec!["experiment", "--depths", "16", "--per-depth", "50", "--heuristics", "manhattan", "--csv"];
        args.extend_from_slice(extra);
        let out = stdout(table(dir.path()).args(&args));
        let last = out.lines().last().unwrap().to_string();
        last.split(',').nth(2).unwrap().parse().unwrap()
    };
    let engine = mean(&[]);
    let textbook = mean(&["--ties", "larger-g", "--count-start"]);
    assert_eq!(engine, textbook, "the textbook A* counted as the engine counts gives the engine's figures");
    assert!(mean(&["--ties", "smaller-g", "--count-start"]) > textbook);
    assert!(mean(&["--ties", "larger-g"]) < textbook, "without the start");
    assert!(mean(&["--ties", "larger-g", "--count-start", "--count-parent-move"]) > textbook);
    let walk =
        stdout(table(dir.path()).args(["experiment", "--preset", "hazan-ra", "--depths", "8", "--per-depth", "20"]));
    assert!(
        walk.contains("random walks of d moves without revisits") && walk.contains("goal _ 1 2 / 3 4 5 / 6 7 8"),
        "{walk}"
    );
    assert!(walk.contains("but the move straight back to the parent, never made"), "{walk}");
    table(dir.path())
        .args(["experiment", "--preset", "rn", "--ida"])
        .assert()
        .code(2)
        .stderr(contains("leave out --ida"))
        .stderr(one_line_error());
}
