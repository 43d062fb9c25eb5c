//! Every example in `table help <command>` runs as written from the repository root: each is
//! run by `sh` in a scratch directory that has the repository's `data/` folder, with the `table`
//! under test first on the PATH, in the order the commands are listed (so an example may use a
//! table an earlier one built), and must exit 0.

use std::path::Path;
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
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    std::os::unix::fs::symlink(&data, dir.path().join("data")).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("table");
    let path = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    (dir, path)
}

#[test]
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

/// Every command in the README runs as written from the repository root, and prints what the
/// README shows: the lines of its `sh` blocks and the `$ ` lines of its sample sessions, in
/// order, with HOME in the scratch directory (the install examples write there). `cargo` and `pip`
/// lines (builds; the Python package has its own tests) and lines marked `# long:` (the 7-8 build, 100 s and 4.4 GiB) are left to a person. The README
/// shows two answers that are not exit 0 on purpose: an unsolvable board (1) and a batch with a
/// malformed line (2); every other command must exit 0.
///
/// A sample's output (the lines after its `$ ` line) must match what the command prints
/// (standard output, then standard error where the sample shows a `table:` line), line for line, except that a line `...` stands for any
/// number of lines and timings (a number before `ms`, `s` or `µs`) may differ.
#[test]
fn every_readme_command_runs_as_written_and_prints_what_it_shows() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    // (command, the sample output shown, if any)
    let mut commands: Vec<(String, Option<Vec<String>>)> = Vec::new();
    let mut block: Option<String> = None;
    // the commands before this index are from earlier blocks: a block's lines are never a
    // sample of them (a Python block after a sample session is not that session's output)
    let mut first_of_block = 0;
    for line in readme.lines() {
        if let Some(lang) = line.strip_prefix("```") {
            block = if block.is_some() { None } else { Some(lang.to_string()) };
            first_of_block = commands.len();
            continue;
        }
        match block.as_deref() {
            Some("sh") if !line.trim().is_empty() => commands.push((line.to_string(), None)),
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
    let (dir, path) = scratch();
    let (mut ran, mut compared) = (0, 0);
    let mut differ = Vec::new();
    for (command, shown) in
        commands.iter().filter(|(c, _)| !c.starts_with("cargo ") && !c.starts_with("pip ") && !c.contains("# long:"))
    {
        let out = Command::new("sh")
            .args(["-c", &format!("set -e; {command}")])
            .current_dir(dir.path())
            .env("PATH", &path)
            .env("HOME", dir.path())
            .output()
            .unwrap();
        let expected = if command == "table query 1 2 3 4 5 6 8 7 0" {
            1
        } else if command.contains("\\n1 2 3\\n' | table query --batch") {
            2
        } else {
            0
        };
        assert!(
            out.status.code() == Some(expected),
            "README: `{command}` exited {:?}, not {expected}: {}",
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
                "README: `{command}` shows\n{}\nbut prints\n{}\n",
                shown.join("\n"),
                printed.join("\n")
            ));
        }
        compared += 1;
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    assert!(ran >= 15, "only {ran} README commands found");
    assert!(compared >= 10, "only {compared} README samples compared");
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

/// The README's layout names every source file (by its name, without `.rs`), and every `src/`
/// path the README gives exists.
#[test]
fn readme_layout_names_every_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let layout = &readme[readme.find("## Layout").expect("a Layout section")..];
    let mut missing = Vec::new();
    let mut dirs = vec![root.join("src")];
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
    assert!(missing.is_empty(), "the README's layout does not name {missing:?}");
    for word in readme.split(['`', ' ', '(', ')']) {
        if word.starts_with("src/") && word.ends_with(".rs") {
            assert!(root.join(word).exists(), "the README names {word}, which does not exist");
        }
    }
}
