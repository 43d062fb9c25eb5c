//! Every example in `table help <command>` runs as written from the repository root: each is
//! run by `sh` in a scratch directory that has the repository's `data/` folder, with the `table`
//! under test first on the PATH, in the order the commands are listed (so an example may use a
//! table an earlier one built), and must exit 0.

use std::process::Command;

const COMMANDS: [&str; 12] = [
    "build",
    "query",
    "stats",
    "verify",
    "solve",
    "sample",
    "count",
    "heuristic",
    "experiment",
    "play",
    "completions",
    "man",
];

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

/// A scratch directory with the repository's `data/` in it, and a PATH with the `table` under test
/// first.
fn scratch() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let data = crate::common::root().join("data");
    std::os::unix::fs::symlink(&data, dir.path().join("data")).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("table");
    let path = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    (dir, path)
}

#[test]
#[ignore = "slow (about 37 s): CI runs it; cargo test -- --include-ignored --skip big::"]
fn every_help_example_runs_as_written() {
    let (dir, path) = scratch();
    let mut ran = 0;
    for command in COMMANDS {
        for example in examples(command) {
            let out = Command::new("sh")
                .args(["-c", &format!("set -e; {example}")])
                .current_dir(dir.path())
                .env("PATH", &path)
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            // `table play` needs a terminal, which this run has not: its examples must get as far
            // as saying so (their arguments parsed and their board read)
            let ok = if command == "play" {
                out.status.code() == Some(2) && stderr.contains("needs a terminal")
            } else {
                out.status.success()
            };
            assert!(ok, "`{example}` (from `table help {command}`) failed: {:?}\n{stderr}", out.status);
            ran += 1;
        }
    }
    assert!(ran >= 40, "only {ran} examples found");
}

/// The pages whose commands are run, in this order, in one scratch directory (a page may use a
/// table an earlier one built: the README's `cargo run --release -- build` makes `eight.table`),
/// each with the least number of commands run and of samples compared, so that a page whose
/// blocks stop being found fails rather than passing empty.
const PAGES: [(&str, usize, usize); 6] = [
    ("README.md", 6, 3),
    ("docs/tables.md", 8, 6),
    ("docs/search.md", 5, 4),
    ("docs/patterns.md", 4, 0),
    ("docs/play.md", 0, 0),
    ("docs/python.md", 0, 0),
];

/// Lines of `sh` blocks that are not run, each with the reason. Everything else in those blocks
/// runs; `table serve` and `table play` appear only as `--help` (a server and a full-screen game
/// have their own tests: `cli/src/cli/serve/tests.rs`, `tests/browser/`,
/// `cli/src/cli/play/tests.rs`).
const NOT_RUN: [(&str, &str); 5] = [
    ("cargo test", "it is the run this test is part of"),
    ("cargo install", "it installs the tool the test already has on its PATH"),
    (
        "pip install",
        "it installs the Python package, which python/tests tests (test_readme.py runs the README's Python)",
    ),
    ("maturin", "it builds the Python wheel, as .ci/run does"),
    ("# long:", "a build of minutes and gigabytes (the 7-8 tables: 100 s, 4.4 GiB); scripts/korf100.sh builds them"),
];

/// The exit status a shown command is expected to end with, when it is not 0: the answers that
/// are "no" (1) or name a malformed line (2) on purpose.
fn expected_status(command: &str) -> i32 {
    if command == "table query 1 2 3 4 5 6 8 7 0" {
        1
    } else if command.contains("\\n1 2 3\\n' | table query --batch") {
        2
    } else {
        0
    }
}

/// A page's commands: the lines of its `sh` blocks and the `$ ` lines of its sample sessions, in
/// order, each with the sample output shown after it (if any). `cargo run --release -- ` at the
/// start of a line stands for the `table` under test.
fn page_commands(text: &str) -> Vec<(String, Option<Vec<String>>)> {
    let mut commands: Vec<(String, Option<Vec<String>>)> = Vec::new();
    let mut block: Option<String> = None;
    // the commands before this index are from earlier blocks: a block's lines are never a
    // sample of them (a Python block after a sample session is not that session's output)
    let mut first_of_block = 0;
    for line in text.lines() {
        if let Some(lang) = line.trim_start().strip_prefix("```") {
            block = if block.is_some() { None } else { Some(lang.to_string()) };
            first_of_block = commands.len();
            continue;
        }
        match block.as_deref() {
            Some("sh") if !line.trim().is_empty() => {
                let line = line.trim();
                let line = line
                    .strip_prefix("cargo run --release -- ")
                    .map_or(line.to_string(), |rest| format!("table {rest}"));
                commands.push((line, None));
            }
            Some(_) if line.starts_with("$ ") => commands.push((line[2..].to_string(), Some(Vec::new()))),
            Some(_) if commands.len() > first_of_block => {
                if let Some((_, Some(shown))) = commands.last_mut() {
                    shown.push(line.to_string());
                }
            }
            Some(_) => {}
            None => {}
        }
    }
    commands
}

/// Every command in the README and in the guide's chapters runs as written from the repository
/// root, and prints what the page shows, with HOME in the scratch directory (the install examples
/// write there). The lines of `NOT_RUN` are left out, each for its reason. Every command must
/// exit 0 but those of `expected_status`.
///
/// A sample's output (the lines after its `$ ` line) must match what the command prints
/// (standard output, then standard error where the sample shows a `table:` line), line for line,
/// except that a line `...` stands for any number of lines and timings (a number before `ms`, `s`
/// or `µs`) may differ.
#[test]
#[ignore = "slow (about 32 s): CI runs it; cargo test -- --include-ignored --skip big::"]
fn every_readme_and_guide_command_runs_as_written_and_prints_what_it_shows() {
    let root = crate::common::root();
    let (dir, path) = scratch();
    let mut differ = Vec::new();
    for (page, least_ran, least_compared) in PAGES {
        let text = std::fs::read_to_string(root.join(page)).unwrap_or_else(|e| panic!("reading {page}: {e}"));
        let (mut ran, mut compared) = (0, 0);
        for (command, shown) in page_commands(&text) {
            if let Some((_, why)) = NOT_RUN.iter().find(|(part, _)| command.contains(part)) {
                eprintln!("{page}: not run: `{command}`: {why}");
                continue;
            }
            let out = Command::new("sh")
                .args(["-c", &format!("set -e; {command}")])
                .current_dir(dir.path())
                .env("PATH", &path)
                .env("HOME", dir.path())
                .output()
                .unwrap();
            let expected = expected_status(&command);
            assert!(
                out.status.code() == Some(expected),
                "{page}: `{command}` exited {:?}, not {expected}: {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            );
            ran += 1;
            let Some(shown) = shown.as_ref().filter(|s| !s.is_empty()) else { continue };
            // standard error only where the sample shows a `table:` line
            let stderr = if shown.iter().any(|l| l.starts_with("table: ")) { &out.stderr[..] } else { &[] };
            let printed = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(stderr));
            let printed: Vec<String> = printed.lines().map(mask_timings).collect();
            let mut shown: Vec<String> = shown.iter().map(|l| mask_timings(l)).collect();
            while shown.last().is_some_and(|l| l.is_empty()) {
                shown.pop();
            }
            if !same_lines(&shown, &printed) {
                differ.push(format!(
                    "{page}: `{command}` shows\n{}\nbut prints\n{}\n",
                    shown.join("\n"),
                    printed.join("\n")
                ));
            }
            compared += 1;
        }
        assert!(ran >= least_ran, "{page}: only {ran} commands found");
        assert!(compared >= least_compared, "{page}: only {compared} samples compared");
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// The line with trailing spaces dropped and every timing (a number followed by `ms`, `s` or
/// `µs`, with or without a space) replaced by `#`.
fn mask_timings(line: &str) -> String {
    let words: Vec<&str> = line.trim_end().split(' ').collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let is_number = |w: &str| !w.is_empty() && w.parse::<f64>().is_ok();
    let is_unit = |w: &str| {
        let w = w.trim_end_matches([',', ')', ';']);
        matches!(w, "ms" | "s" | "µs")
    };
    for (i, w) in words.iter().enumerate() {
        let glued = ["ms", "µs", "s"].iter().find_map(|u| w.trim_end_matches([',', ')']).strip_suffix(u));
        if is_number(w) && words.get(i + 1).is_some_and(|n| is_unit(n)) {
            out.push("#".into());
        } else if let Some(num) = glued.filter(|n| is_number(n)) {
            out.push(w.replacen(num, "#", 1));
        } else {
            out.push(w.to_string());
        }
    }
    out.join(" ")
}

/// Whether `printed` matches `shown`, where a shown line `...` (indented or not) matches any
/// number of printed lines.
fn same_lines(shown: &[String], printed: &[String]) -> bool {
    match shown.split_first() {
        None => printed.is_empty(),
        Some((first, rest)) if first.trim() == "..." => (0..=printed.len()).any(|k| same_lines(rest, &printed[k..])),
        Some((first, rest)) => printed.split_first().is_some_and(|(p, more)| p == first && same_lines(rest, more)),
    }
}

/// The guide's source layout (docs/layout.md) names every source file of the library and the
/// binary (by its name, without `.rs`), and every `src/` or `cli/src/` path it gives exists.
#[test]
fn guide_layout_names_every_module() {
    let root = crate::common::root();
    let root = root.as_path();
    let readme = std::fs::read_to_string(root.join("docs/layout.md")).unwrap();
    let layout = readme.as_str();
    let mut missing = Vec::new();
    let mut dirs = vec![root.join("src"), root.join("cli/src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let stem = path.file_stem().unwrap().to_str().unwrap();
            if stem != "mod"
                && stem != "lib"
                && !layout.contains(&format!("`{stem}"))
                && !layout.contains(&format!("/{stem}.rs"))
            {
                missing.push(path.strip_prefix(root).unwrap().display().to_string());
            }
        }
    }
    assert!(missing.is_empty(), "docs/layout.md does not name {missing:?}");
    for word in readme.split(['`', ' ', '(', ')']) {
        if (word.starts_with("src/") || word.starts_with("cli/src/")) && word.ends_with(".rs") {
            assert!(root.join(word).exists(), "docs/layout.md names {word}, which does not exist");
        }
    }
}
