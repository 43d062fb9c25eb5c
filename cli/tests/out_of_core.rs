//! Out-of-core two-bit builds (`table build --max-memory SIZE --work-dir DIR`): the same file as
//! the in-memory build, byte for byte, on every board from 2x3 to 3x4; stopped or killed between
//! levels and inside a level, resumed to the same file; a work directory of another table or with
//! a damaged file refused, never used; a build whose memory or disk will not do refused before it
//! starts, naming what it needs.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use common::{one_line_error, table};
use predicates::prelude::*;
use slidetable::table::disk::{self, Event};
use slidetable::table::{
    build_file_planned, build_file_staged, build_file_with, BuildOptions, Executed, Staged, Width,
};
use slidetable::{Board, Error, Goal, Shape};

fn goal(rows: usize, cols: usize, goal: Goal) -> Board {
    goal.board(Shape::new(rows, cols).unwrap()).unwrap()
}

/// The memory an out-of-core build of `goal`'s table needs, exactly: less than the in-memory
/// build's, so the build goes out of core.
fn budget(goal: &Board) -> u64 {
    let states = slidetable::StateIndex::new(goal).unwrap().len();
    disk::memory(states, goal.shape().cells(), 0)
}

/// The in-memory two-bit table of `goal`, as a file's bytes.
fn in_memory(goal: &Board, dir: &Path) -> Vec<u8> {
    let path = dir.join("in-memory.table");
    build_file_with(goal, &path, Width::TwoBit, None, |_| {}, &AtomicBool::new(false)).unwrap();
    std::fs::read(path).unwrap()
}

/// Builds `goal`'s table out of core into `path` with work directory `work`, calling `stop_at`
/// on every event: the build stops (resumable) when it returns true.
fn out_of_core(
    goal: &Board,
    path: &Path,
    work: &Path,
    mut stop_at: impl FnMut(&Event) -> bool,
) -> Result<(Executed, Vec<String>), Error> {
    let stop = AtomicBool::new(false);
    let mut notes = Vec::new();
    let (_, executed) = build_file_planned(
        goal,
        path,
        Some(Width::TwoBit),
        Some(budget(goal)),
        Some(work),
        |e| {
            if let Event::Resumed { depth, .. } = &e {
                notes.push(format!("resumed after {depth}"));
            }
            if stop_at(&e) {
                stop.store(true, Relaxed);
            }
        },
        &stop,
    )?;
    Ok((executed, notes))
}

/// Every board of `boards`, built out of core, is the in-memory build's file, byte for byte.
fn out_of_core_equals_in_memory(boards: &[(usize, usize)]) {
    for &(rows, cols) in boards {
        for g in [Goal::BlankLast, Goal::BlankFirst] {
            if rows * cols == 12 && g == Goal::BlankFirst {
                continue; // one goal is enough at 12 cells (seconds each)
            }
            let dir = tempfile::tempdir().unwrap();
            let goal = goal(rows, cols, g);
            let path = dir.path().join("out.table");
            let work = dir.path().join("work");
            let (executed, _) = out_of_core(&goal, &path, &work, |_| false).unwrap();
            assert!(matches!(executed, Executed::OutOfCore { resumed: None, .. }), "{rows}x{cols} {executed:?}");
            assert!(std::fs::read(&path).unwrap() == in_memory(&goal, dir.path()), "{rows}x{cols} goal {goal}");
            assert!(!work.exists(), "the work directory is removed when the table is written");
            slidetable::table::open(&path).unwrap().verify().unwrap();
        }
    }
}

#[test]
fn every_board_from_2x3_to_2x5_built_out_of_core_is_the_in_memory_file() {
    out_of_core_equals_in_memory(&[(2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (2, 5), (5, 2)]);
}

#[test]
#[ignore = "slow (about 25 s): CI runs it; cargo test -- --include-ignored --skip big::"]
fn the_twelve_cell_boards_built_out_of_core_are_the_in_memory_file() {
    out_of_core_equals_in_memory(&[(3, 4), (2, 6)]);
}

#[test]
fn a_build_stopped_between_levels_or_inside_one_resumes_to_the_same_file() {
    let goal = goal(3, 3, Goal::BlankLast);
    let dir = tempfile::tempdir().unwrap();
    let want = in_memory(&goal, dir.path());
    let path = dir.path().join("out.table");
    let work = dir.path().join("work");
    std::fs::write(&path, b"an older table").unwrap();
    // stopped after depth 12 is complete
    let err = out_of_core(&goal, &path, &work, |e| matches!(e, Event::Level { progress, .. } if progress.depth == 12))
        .unwrap_err();
    assert!(matches!(err, Error::BuildInterrupted { depth: 12, .. }), "{err}");
    assert!(err.to_string().contains("run the same command to resume"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), b"an older table", "the file is untouched until the end");
    // stopped again inside depth 20, after the first of its targets
    let err = out_of_core(&goal, &path, &work, |e| matches!(e, Event::Target { depth: 20, done: 1, .. })).unwrap_err();
    assert!(matches!(err, Error::BuildInterrupted { depth: 19, .. }), "{err}");
    // and finished
    let (executed, notes) = out_of_core(&goal, &path, &work, |_| false).unwrap();
    assert_eq!(notes, ["resumed after 19"]);
    assert!(matches!(executed, Executed::OutOfCore { resumed: Some(19), .. }));
    assert!(std::fs::read(&path).unwrap() == want);
    assert!(!work.exists());
}

#[test]
#[ignore = "slow (about 12 s): CI runs it; cargo test -- --include-ignored --skip big::"]
fn a_killed_build_run_again_resumes_to_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    let args = ["build", "--board", "3x4", "--bits", "2", "--max-memory", "40M", "--work-dir", "work", "-o", "a.table"];
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("table"))
        .current_dir(dir.path())
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // killed (SIGKILL: no chance to tidy up) once depth 14 is being found
    let started = std::time::Instant::now();
    while !work.join("front-00-0014").exists() && !work.join("front-01-0014").exists() {
        assert!(child.try_wait().unwrap().is_none(), "the build finished before it could be killed");
        assert!(started.elapsed().as_secs() < 120, "no level 14 after two minutes");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!dir.path().join("a.table").exists());
    let out = table(dir.path()).args(args).arg("-q").assert().success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(stdout.contains("out of core in work, resumed after depth 1"), "{stdout}");
    let goal = goal(3, 4, Goal::BlankLast);
    assert!(std::fs::read(dir.path().join("a.table")).unwrap() == in_memory(&goal, dir.path()));
    assert!(!work.exists());
}

#[cfg(unix)]
#[test]
#[ignore = "slow (about 16 s): CI runs it; cargo test -- --include-ignored --skip big::"]
fn ctrl_c_stops_the_build_says_how_to_go_on_and_the_same_command_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    let args = ["build", "--board", "3x4", "--bits", "2", "--max-memory", "40M", "--work-dir", "work", "-o", "c.table"];
    let child = common::spawn_table(dir.path(), &args);
    let started = std::time::Instant::now();
    while !work.join("front-00-0014").exists() && !work.join("front-01-0014").exists() {
        assert!(started.elapsed().as_secs() < 120, "no level 14 after two minutes");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // SAFETY: kill(2) with the child's own pid, which has not been waited for
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) }, 0);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("levels done are kept in work: run the same command to resume"), "{stderr}");
    assert!(!dir.path().join("c.table").exists());
    let resumed = table(dir.path()).args(args).arg("-q").assert().success();
    assert!(String::from_utf8_lossy(&resumed.get_output().stdout).contains("resumed after depth"));
    assert!(std::fs::read(dir.path().join("c.table")).unwrap() == in_memory(&goal(3, 4, Goal::BlankLast), dir.path()));
}

/// A 3x3 build stopped after depth 12, its work directory left in `dir/work`.
fn stopped_3x3(dir: &Path) -> (Board, PathBuf, PathBuf) {
    stopped_3x3_at(dir, 12)
}

/// [`stopped_3x3`] after depth `depth`.
fn stopped_3x3_at(dir: &Path, depth: u32) -> (Board, PathBuf, PathBuf) {
    let goal = goal(3, 3, Goal::BlankLast);
    let path = dir.join("out.table");
    let work = dir.join("work");
    let err =
        out_of_core(&goal, &path, &work, |e| matches!(e, Event::Level { progress, .. } if progress.depth == depth))
            .unwrap_err();
    assert!(matches!(err, Error::BuildInterrupted { .. }), "{err}");
    (goal, path, work)
}

#[test]
fn a_work_directory_of_another_board_or_goal_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (_, _, work) = stopped_3x3(dir.path());
    for other in [goal(2, 4, Goal::BlankLast), goal(3, 3, Goal::BlankFirst)] {
        let err = out_of_core(&other, &dir.path().join("other.table"), &work, |_| false).unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, Error::Checkpoint { .. }), "{text}");
        assert!(text.contains("another table (board 3x3, goal 1 2 3 4 5 6 7 8 0)"), "{text}");
        assert!(text.contains("give another --work-dir"), "{text}");
    }
    // a directory that holds something else is not taken over
    let busy = dir.path().join("busy");
    std::fs::create_dir(&busy).unwrap();
    std::fs::write(busy.join("notes.txt"), "mine").unwrap();
    let err = out_of_core(&goal(3, 3, Goal::BlankLast), &dir.path().join("x.table"), &busy, |_| false).unwrap_err();
    assert!(err.to_string().contains("not empty"), "{err}");
    assert_eq!(std::fs::read_to_string(busy.join("notes.txt")).unwrap(), "mine");
}

/// Flips one bit of byte `at` (from the end when negative) of `path`.
fn flip(path: &Path, at: i64) {
    let mut bytes = std::fs::read(path).unwrap();
    let i = if at < 0 { bytes.len() - (-at) as usize } else { at as usize };
    bytes[i] ^= 0x10;
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn a_damaged_work_file_is_refused_not_used() {
    type Damage = fn(&Path);
    let damages: [(&str, Damage); 5] = [
        ("a frontier file's body", |w| flip(&w.join("front-00-0012"), -3)),
        ("a frontier file's header", |w| flip(&w.join("front-01-0011"), 20)),
        ("a frontier file cut short", |w| {
            let f = w.join("front-00-0012");
            let len = std::fs::metadata(&f).unwrap().len();
            std::fs::OpenOptions::new().write(true).open(&f).unwrap().set_len(len - 1).unwrap();
        }),
        // a block's codes once merged (a block never merged is unreached whatever its place holds)
        ("the codes", |w| {
            let text = std::fs::read_to_string(w.join("checkpoint")).unwrap();
            let merged = text.lines().find_map(|l| l.strip_prefix("merged ")).unwrap();
            let b = merged.split(' ').position(|m| m != "0").expect("a block merged by depth 24");
            flip(&w.join("table.part"), 4096 + (b * 181_440 / 9 / 4) as i64 + 100)
        }),
        ("the checkpoint", |w| {
            let text = std::fs::read_to_string(w.join("checkpoint")).unwrap();
            std::fs::write(w.join("checkpoint"), text.replacen("histogram 1 ", "histogram 2 ", 1)).unwrap();
        }),
    ];
    for (what, damage) in damages {
        let dir = tempfile::tempdir().unwrap();
        let (goal, path, work) = stopped_3x3_at(dir.path(), if what == "the codes" { 24 } else { 12 });
        damage(&work);
        let err = out_of_core(&goal, &path, &work, |_| false).unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, Error::Checkpoint { .. }), "{what}: {text}");
        assert!(text.contains("damaged and was not used"), "{what}: {text}");
        assert!(!path.exists(), "{what}: no table written");
    }
}

#[test]
fn a_build_that_will_not_fit_is_refused_in_one_line_naming_what_it_needs() {
    let dir = tempfile::tempdir().unwrap();
    // memory: not even the three bitmaps of a block
    table(dir.path())
        .args(["build", "--board", "3x4", "--bits", "2", "--max-memory", "1M"])
        .assert()
        .code(4) // a limit met, as a search's: not a file's problem (3)
        .stderr(one_line_error())
        .stderr(predicate::str::contains("building the 3x4 table out of core needs 30.4 MiB of memory"))
        .stderr(predicate::str::contains("only 1.0 MiB is available"));
    // disk (a test-only figure for the space free)
    table(dir.path())
        .env("SLIDETABLE_AVAILABLE_DISK", "100000000")
        .args(["build", "--board", "3x4", "--bits", "2", "--max-memory", "40M", "-o", "x.table"])
        .assert()
        .failure()
        .stderr(one_line_error())
        .stderr(predicate::str::contains("needs 0.2 GB of disk in x.table.work at its peak, but only 0.1 GB is free"));
    // the 3x5 (15 cells): the example of the issue, with the figures a desktop needs
    table(dir.path())
        .env("SLIDETABLE_AVAILABLE_DISK", "100000000000")
        .args(["build", "--board", "3x5", "--max-memory", "20G", "-o", "x.table"])
        .assert()
        .failure()
        .stderr(one_line_error())
        .stderr(predicate::str::contains(
            "building the 3x5 table out of core needs 573.2 GB of disk in x.table.work at its peak, but only 100.0 GB is free",
        ));
    table(dir.path())
        .args(["build", "--board", "5x3", "--max-memory", "8G", "-o", "x.table"])
        .assert()
        .failure()
        .stderr(one_line_error())
        .stderr(predicate::str::contains("building the 5x3 table out of core needs 15.6 GiB of memory at its peak"));
    // a byte table is built in memory only: the refusal says two bits would go out of core
    table(dir.path())
        .args(["build", "--board", "3x4", "--bits", "8", "--max-memory", "40M"])
        .assert()
        .failure()
        .stderr(one_line_error())
        .stderr(predicate::str::contains("at two bits a state (`--bits 2`) it is built out of core"));
    // checking a two-bit table redoes its search: refused, not aborted, without the memory
    table(dir.path()).args(["build", "--board", "2x4", "--bits", "2", "-q", "-o", "v.table"]).assert().success();
    table(dir.path())
        .env("SLIDETABLE_AVAILABLE_MEMORY", "1000")
        .args(["verify", "--table", "v.table"])
        .assert()
        .failure()
        .stderr(one_line_error())
        .stderr(predicate::str::contains("verifying the 2x4 table needs"))
        .stderr(predicate::str::contains("is available (it redoes the search"));
    table(dir.path()).args(["verify", "--table", "v.table"]).assert().success();
    std::fs::remove_file(dir.path().join("v.table")).unwrap();
    // a size that is not one
    table(dir.path())
        .args(["build", "--board", "3x4", "--max-memory", "lots"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("`lots` is not a size"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing written");
}

#[test]
fn the_cli_says_it_went_out_of_core_and_the_file_is_the_in_memory_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = table(dir.path())
        .args(["build", "--board", "2x5", "--bits", "2", "--max-memory", "4M", "-o", "a.table"])
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(stdout.contains("built      out of core in a.table.work:"), "{stdout}");
    assert!(stdout.contains("states     1,814,400"), "{stdout}");
    table(dir.path()).args(["build", "--board", "2x5", "--bits", "2", "-o", "b.table", "-q"]).assert().success();
    assert!(std::fs::read(dir.path().join("a.table")).unwrap() == std::fs::read(dir.path().join("b.table")).unwrap());
    assert!(!dir.path().join("a.table.work").exists());
}

/// What the trial of a hostile tester found: a build killed while it removed its work files, a
/// build stopped and run again when the table now fits in memory, and two builds in one work
/// directory at once.
#[test]
fn leftovers_resumes_and_a_second_build_in_one_work_directory() {
    let dir = tempfile::tempdir().unwrap();
    let goal = goal(2, 4, Goal::BlankLast);
    let reference = in_memory(&goal, dir.path());
    let path = dir.path().join("out.table");
    let work = dir.path().join("work");
    // finished, then killed while it cleaned: the plan gone, or the codes renamed with the plan
    // and the checkpoint left; the same command builds again, not refuses
    for leave in [&["checkpoint", "front-00-0001"][..], &["build.plan", "checkpoint", "front-00-0001"][..]] {
        let index = slidetable::StateIndex::new(&goal).unwrap();
        let built = disk::build(&index, &work, 1 << 30, None, &mut |_: Event<'_>| {}, &AtomicBool::new(false));
        let Ok(disk::Outcome::Built(built)) = built else { panic!("{built:?}") };
        disk::install(&built.path, &path).unwrap();
        for e in std::fs::read_dir(&work).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if !leave.contains(&name.as_str()) {
                std::fs::remove_file(e.path()).unwrap();
            }
        }
        std::fs::write(work.join("front-00-0001"), b"x").ok();
        std::fs::remove_file(&path).unwrap();
        let (executed, notes) = out_of_core(&goal, &path, &work, |_| false).unwrap();
        assert!(notes.is_empty(), "{leave:?}: {notes:?}");
        assert!(matches!(executed, Executed::OutOfCore { resumed: None, .. }), "{leave:?}");
        assert!(std::fs::read(&path).unwrap() == reference, "{leave:?}");
        assert!(!work.exists(), "{leave:?}");
    }
    // stopped out of core, then run with room to spare in memory: it resumes, not starts over
    let stopped =
        out_of_core(&goal, &path, &work, |e| matches!(e, Event::Level { progress, .. } if progress.depth == 10));
    assert!(matches!(stopped, Err(Error::BuildInterrupted { .. })), "{stopped:?}");
    let mut resumed = None;
    let (_, executed) = build_file_planned(
        &goal,
        &path,
        Some(Width::TwoBit),
        None,
        Some(&work),
        |e| {
            if let Event::Resumed { depth, .. } = e {
                resumed = Some(depth)
            }
        },
        &AtomicBool::new(false),
    )
    .unwrap();
    assert!(matches!(executed, Executed::OutOfCore { resumed: Some(_), .. }), "{executed:?}");
    assert!(resumed.is_some());
    assert!(std::fs::read(&path).unwrap() == reference);
    // a second build while one holds the work directory: refused in one line
    let index = slidetable::StateIndex::new(&goal).unwrap();
    let first = disk::Driver::open(&index, &work, None, &mut |_: Event<'_>| {}).unwrap();
    let second = disk::Driver::open(&index, &work, None, &mut |_: Event<'_>| {});
    assert!(
        matches!(&second, Err(Error::Checkpoint { detail, .. }) if detail.contains("another build is using this work directory")),
        "{:?}",
        second.err()
    );
    drop(first);
    assert!(disk::Driver::open(&index, &work, None, &mut |_: Event<'_>| {}).is_ok());
}

/// `goal`'s build into `path`, stopping after `max_depth` (out of core, two bits, work directory
/// `work`).
fn staged(goal: &Board, path: &Path, work: &Path, max_depth: Option<u32>) -> Result<Staged, Error> {
    let options = BuildOptions { width: None, memory: None, work_dir: Some(work), max_depth };
    build_file_staged(goal, path, &options, |_| {}, &AtomicBool::new(false))
}

/// The distribution so far of a build that stopped, or a failure naming what it was.
fn stopped_histogram(staged: Staged) -> (Vec<u64>, Option<u32>) {
    match staged {
        Staged::Stopped { partial, .. } => (partial.histogram, partial.resumed),
        Staged::Built(_, executed) => panic!("built ({executed:?}), not stopped"),
    }
}

#[test]
fn a_build_stopped_at_a_depth_has_the_first_levels_and_goes_on_to_the_same_file() {
    for (rows, cols, g) in [(3, 3, Goal::BlankLast), (2, 4, Goal::BlankFirst), (2, 5, Goal::BlankLast)] {
        let goal = goal(rows, cols, g);
        let dir = tempfile::tempdir().unwrap();
        let want = in_memory(&goal, dir.path());
        let full = slidetable::table::open(&dir.path().join("in-memory.table")).unwrap().header().histogram.clone();
        let path = dir.path().join("out.table");
        let work = dir.path().join("work");
        std::fs::write(&path, b"an older table").unwrap();
        // to depth 10, then 20 (resumed): the full build's first levels, and no table yet
        let (first, resumed) = stopped_histogram(staged(&goal, &path, &work, Some(10)).unwrap());
        assert_eq!((&first[..], resumed), (&full[..11], None), "{rows}x{cols}");
        // the same depth again: nothing more to do
        assert_eq!(stopped_histogram(staged(&goal, &path, &work, Some(10)).unwrap()), (first, Some(10)));
        let (second, resumed) = stopped_histogram(staged(&goal, &path, &work, Some(20)).unwrap());
        assert_eq!((&second[..], resumed), (&full[..21], Some(10)), "{rows}x{cols}");
        assert_eq!(std::fs::read(&path).unwrap(), b"an older table", "no table before the end");
        // a shallower depth than the directory holds stops at once, where it is
        assert_eq!(stopped_histogram(staged(&goal, &path, &work, Some(5)).unwrap()).0, second);
        // then to the end: the one-go build's file, byte for byte
        let Staged::Built(_, executed) = staged(&goal, &path, &work, None).unwrap() else { panic!("not built") };
        assert!(matches!(executed, Executed::OutOfCore { resumed: Some(20), .. }), "{executed:?}");
        assert!(std::fs::read(&path).unwrap() == want, "{rows}x{cols} goal {goal}");
        assert!(!work.exists());
        // a last depth at or past the deepest level: the whole table, as without one
        std::fs::remove_file(&path).unwrap();
        let deepest = full.len() as u32 - 1;
        for max_depth in [deepest, deepest + 50] {
            let Staged::Built(..) = staged(&goal, &path, &work, Some(max_depth)).unwrap() else {
                panic!("{rows}x{cols}: stopped at {max_depth}, past the last level")
            };
            assert!(std::fs::read(&path).unwrap() == want);
        }
    }
}

#[test]
fn a_stopped_build_keeps_its_codes_file_sparse_and_its_directory_for_its_own_table_only() {
    let dir = tempfile::tempdir().unwrap();
    let goal = goal(3, 4, Goal::BlankLast);
    let path = dir.path().join("out.table");
    let work = dir.path().join("work");
    stopped_histogram(staged(&goal, &path, &work, Some(16)).unwrap());
    // 59.9 MB of codes to come, none of them written yet: the file holds no blocks
    let part = std::fs::metadata(work.join("table.part")).unwrap();
    assert_eq!(part.len(), 4096 + 239_500_800 / 4);
    use std::os::unix::fs::MetadataExt;
    assert!(part.blocks() * 512 < 1 << 20, "{} bytes allocated", part.blocks() * 512);
    // another board or goal is refused, the directory left as it was
    for other in [goal_of(2, 6, Goal::BlankLast), goal_of(3, 4, Goal::BlankFirst)] {
        for max_depth in [Some(20), None] {
            let err = staged(&other, &dir.path().join("other.table"), &work, max_depth).unwrap_err();
            assert!(matches!(err, Error::Checkpoint { .. }), "{err}");
            assert!(err.to_string().contains("another table (board 3x4, goal 1 2 3 4 5 6 7 8 9 10 11 0)"), "{err}");
        }
    }
    assert_eq!(stopped_histogram(staged(&goal, &path, &work, Some(16)).unwrap()).1, Some(16));
}

fn goal_of(rows: usize, cols: usize, g: Goal) -> Board {
    goal(rows, cols, g)
}

#[test]
fn max_depth_is_refused_where_it_cannot_be_kept() {
    let dir = tempfile::tempdir().unwrap();
    // a byte table is built in memory, in one go
    table(dir.path())
        .args(["build", "--board", "2x4", "--bits", "8", "--max-depth", "5"])
        .assert()
        .code(2)
        .stderr(one_line_error())
        .stderr(predicate::str::contains("at two bits a state: leave out --bits 8"));
    // a board too small to be built out of core
    table(dir.path())
        .args(["build", "--board", "2x2", "--max-depth", "3"])
        .assert()
        .failure()
        .stderr(one_line_error())
        .stderr(predicate::str::contains("2x2 is too small to be built out of core"));
    // --zero is for pattern tables, --max-depth or not
    table(dir.path())
        .args(["build", "--board", "2x3", "--zero", "--max-depth", "3"])
        .assert()
        .code(2)
        .stderr(one_line_error())
        .stderr(predicate::str::contains("--zero goes with --pattern"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing written");
}

#[test]
fn the_cli_prints_the_distribution_so_far_and_goes_on_from_it() {
    let dir = tempfile::tempdir().unwrap();
    let out =
        table(dir.path()).args(["build", "--board", "2x5", "--max-depth", "12", "-o", "a.table"]).assert().success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        stdout.contains("searched the 2x5 table, goal blank-last (1 2 3 4 5 / 6 7 8 9 _), to depth 12"),
        "{stdout}"
    );
    assert!(stdout.contains("states     1,154 of 1,814,400 found"), "{stdout}");
    assert!(stdout.contains("   12        411      1,154    0.0636%"), "{stdout}");
    assert!(stdout.contains("searched   depths 0 to 12: 1,154 of 1,814,400 states (0.0636%)"), "{stdout}");
    assert!(!dir.path().join("a.table").exists());
    // JSON, resumed to depth 20
    let out = table(dir.path())
        .args(["build", "--board", "2x5", "--max-depth", "20", "-o", "a.table", "--json"])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["complete"], false);
    assert_eq!(v["depth"], 20);
    assert_eq!(v["resumed_after"], 12);
    assert_eq!(v["work_dir"], "a.table.work");
    assert_eq!(v["states"], 1_814_400);
    let histogram: Vec<u64> = serde_json::from_value(v["histogram"].clone()).unwrap();
    assert_eq!(v["reached"], histogram.iter().sum::<u64>());
    // to the end, with no --bits: the work directory's build goes on at two bits
    let out = table(dir.path()).args(["build", "--board", "2x5", "-o", "a.table", "--json"]).assert().success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["complete"], true);
    assert_eq!(v["resumed_after"], 20);
    assert_eq!(v["work_dir"], "a.table.work");
    let full: Vec<u64> = serde_json::from_value(v["histogram"].clone()).unwrap();
    assert_eq!(full[..21], histogram[..]);
    let out = table(dir.path())
        .args(["build", "--board", "2x5", "--bits", "2", "-o", "b.table", "--json"])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(
        (&v["work_dir"], &v["resumed_after"]),
        (&serde_json::Value::Null, &serde_json::Value::Null),
        "in memory"
    );
    assert!(std::fs::read(dir.path().join("a.table")).unwrap() == std::fs::read(dir.path().join("b.table")).unwrap());
    assert!(!dir.path().join("a.table.work").exists());
}

/// What a user's trial found: a work directory named as the table itself, a table in a
/// directory that does not exist, a work directory that is a file and negative numbers are
/// refused before any work, in one line; the note on a stopped build beside a byte build is
/// printed with -q too.
#[test]
fn work_directories_and_depths_that_cannot_be_are_refused_before_the_search() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path())
        .args(["build", "--board", "2x4", "--max-depth", "5", "--work-dir", "same.table", "-o", "same.table"])
        .assert()
        .code(2)
        .stderr(one_line_error())
        .stderr(predicate::str::contains("the work directory and the table are both same.table"));
    for depth in [None, Some("5")] {
        let mut args = vec!["build", "--board", "2x4", "--bits", "2", "--max-memory", "1M", "-o", "missing/x.table"];
        args.extend(depth.iter().flat_map(|d| ["--max-depth", d]));
        table(dir.path())
            .args(&args)
            .assert()
            .failure()
            .stderr(one_line_error())
            .stderr(predicate::str::contains("its directory does not exist"));
    }
    assert!(!dir.path().join("missing").exists(), "no work directory made for a table that cannot be written");
    std::fs::write(dir.path().join("afile"), b"mine").unwrap();
    table(dir.path())
        .args(["build", "--board", "2x4", "--max-depth", "5", "--work-dir", "afile", "-o", "x.table"])
        .assert()
        .failure()
        .stderr(one_line_error())
        .stderr(predicate::str::contains("afile: it is a file, not a directory"));
    assert_eq!(std::fs::read(dir.path().join("afile")).unwrap(), b"mine");
    for (flag, value) in [("--max-depth", "-1"), ("--max-memory", "-5")] {
        table(dir.path())
            .args(["build", "--board", "2x4", flag, value])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!("invalid value '{value}' for '{flag}")));
    }
    table(dir.path()).args(["build", "--board", "2x4", "--max-depth", "5", "-o", "s.table"]).assert().success();
    table(dir.path())
        .args(["build", "--board", "2x4", "--bits", "8", "--work-dir", "s.table.work", "-o", "s.table", "-q"])
        .assert()
        .success()
        .stderr(predicate::str::contains("holds a stopped two-bit build, left as it is"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3, "afile, s.table and its work directory");
}

#[test]
fn a_stopped_build_asks_for_the_disk_of_its_next_level_and_the_rest_to_finish() {
    let dir = tempfile::tempdir().unwrap();
    // the 3x5 to a depth on a desktop's disk: not refused for the whole table's 573 GB
    table(dir.path())
        .env("SLIDETABLE_AVAILABLE_DISK", "100000000000")
        .args(["build", "--board", "3x5", "--max-memory", "1G", "--max-depth", "10", "-o", "x.table"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("needs 15.6 GiB of memory"));
    // each level's room is checked before it starts; the levels done are kept
    table(dir.path())
        .env("SLIDETABLE_AVAILABLE_DISK", "20000")
        .args(["build", "--board", "2x6", "--max-depth", "30", "-o", "a.table"])
        .assert()
        .failure()
        .stderr(
            predicate::str::is_match(
                "out of core needs [0-9.]+ kB of disk in a.table.work at its peak, but only 20.0 kB is free",
            )
            .unwrap(),
        )
        .stderr(predicate::str::contains("free some, or move the work directory"));
    assert!(dir.path().join("a.table.work/checkpoint").exists());
    // going on to the end asks for the rest of the whole build
    table(dir.path())
        .env("SLIDETABLE_AVAILABLE_DISK", "20000000")
        .args(["build", "--board", "2x6", "-o", "a.table"])
        .assert()
        .failure()
        .stderr(one_line_error())
        .stderr(predicate::str::contains("building the 2x6 table out of core needs"));
    // whatever depth a small board stopped at, finishing it with no disk free is refused
    for depth in ["3", "10", "20", "30"] {
        let args = ["build", "--board", "3x3", "--max-depth", depth, "-o", "e.table", "-q"];
        table(dir.path()).args(args).assert().success();
        table(dir.path())
            .env("SLIDETABLE_AVAILABLE_DISK", "0")
            .args(["build", "--board", "3x3", "-o", "e.table", "-q"])
            .assert()
            .failure()
            .stderr(predicate::str::contains("building the 3x3 table out of core needs"));
    }
    // a byte table built beside a stopped build says it leaves it alone; the stopped one goes on
    let out = table(dir.path()).args(["build", "--board", "3x3", "--bits", "8", "-o", "e.table"]).assert().success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(stderr.contains("e.table.work holds a stopped two-bit build, left as it is"), "{stderr}");
    let out =
        table(dir.path()).args(["build", "--board", "3x3", "--max-depth", "12", "-o", "e.table"]).assert().success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(stdout.contains("the work directory held these depths already: nothing was searched"), "{stdout}");
    let out = table(dir.path())
        .args(["build", "--board", "2x6", "--max-depth", "30", "-o", "a.table", "--json"])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["depth"], 30);
    assert!(v["resumed_after"].as_u64().is_some(), "{v}");
}

#[test]
#[ignore = "slow (about 15 s): CI runs it; cargo test -- --include-ignored --skip big::"]
fn the_twelve_cell_boards_stopped_at_a_depth_go_on_to_the_in_memory_file() {
    for (rows, cols) in [(3, 4), (2, 6)] {
        let goal = goal(rows, cols, Goal::BlankLast);
        let dir = tempfile::tempdir().unwrap();
        let want = in_memory(&goal, dir.path());
        let full = slidetable::table::open(&dir.path().join("in-memory.table")).unwrap().header().histogram.clone();
        let path = dir.path().join("out.table");
        let work = dir.path().join("work");
        let (first, _) = stopped_histogram(staged(&goal, &path, &work, Some(30)).unwrap());
        assert_eq!(first[..], full[..31], "{rows}x{cols}");
        let Staged::Built(..) = staged(&goal, &path, &work, None).unwrap() else { panic!("not built") };
        assert!(std::fs::read(&path).unwrap() == want, "{rows}x{cols}");
    }
}
