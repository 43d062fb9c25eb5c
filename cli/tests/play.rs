//! `table play` end to end: the real binary in a pseudo-terminal, its screen read back through a
//! terminal emulator (vt100), driven start -> preset -> three moves -> hint -> undo -> quit; and
//! without a terminal, one line and exit 2.

use crate::common;

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{native_pty_system, CommandBuilder, PtySize};

/// The screen as the program drew it, kept up to date by a reader thread.
struct Screen(Arc<Mutex<vt100::Parser>>);

impl Screen {
    fn text(&self) -> String {
        self.0.lock().unwrap().screen().contents()
    }

    /// Waits until the screen shows `what`, for up to 20 s.
    fn wait_for(&self, what: &str) -> String {
        let start = Instant::now();
        loop {
            let text = self.text();
            if text.contains(what) {
                return text;
            }
            assert!(start.elapsed() < Duration::from_secs(20), "the screen never showed {what:?}; it shows:\n{text}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The `distance: N  moves: M` status line's two numbers.
    fn status(&self) -> (u32, u32) {
        let text = self.text();
        let line = text.lines().find(|l| l.contains("distance: ")).expect("a status line");
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| w.ends_with("distance:")).unwrap();
        (words[at + 1].parse().unwrap(), words[at + 3].parse().unwrap())
    }
}

/// `table ARGS` in a 30x100 pseudo-terminal in `dir`: its screen, the child and its keyboard.
fn spawn(
    dir: &std::path::Path,
    args: &[&str],
) -> (Screen, Box<dyn portable_pty::Child + Send + Sync>, Box<dyn Write + Send>) {
    let pair = native_pty_system().openpty(PtySize { rows: 30, cols: 100, pixel_width: 0, pixel_height: 0 }).unwrap();
    let mut cmd = CommandBuilder::new(assert_cmd::cargo::cargo_bin("table"));
    cmd.args(args);
    cmd.cwd(dir);
    cmd.env("TERM", "xterm-256color");
    let child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    let size = |n| std::num::NonZeroU16::new(n).unwrap();
    let parser = Arc::new(Mutex::new(vt100::Parser::new(size(30), size(100), 0)));
    let mut reader = pair.master.try_clone_reader().unwrap();
    let feed = Arc::clone(&parser);
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            feed.lock().unwrap().process(&buf[..n]);
        }
    });
    (Screen(parser), child, pair.master.take_writer().unwrap())
}

#[test]
fn start_preset_three_moves_hint_undo_quit_in_a_real_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let (screen, mut child, mut keys) = spawn(dir.path(), &["play"]);
    let mut press = |bytes: &str| {
        keys.write_all(bytes.as_bytes()).unwrap();
        keys.flush().unwrap();
    };

    // start screen: 3x3, blank-last, the first preset (easy: 1 3 4 / 8 6 2 / 7 _ 5, 5 moves)
    let start = screen.wait_for("< a preset >");
    assert!(start.contains("< 3x3 >") && start.contains("easy"), "{start}");
    press("\r");
    screen.wait_for("distance: 5  moves: 0");
    // the tile convention: Right slides 7 right, Left slides it back, Down slides 6 down
    press("\x1b[C");
    screen.wait_for("moves: 1");
    press("\x1b[D");
    screen.wait_for("moves: 2");
    let after_two = screen.status();
    assert_eq!(after_two.0, 5, "there and back again");
    press("\x1b[B");
    screen.wait_for("moves: 3");
    let (d3, _) = screen.status();
    assert!(d3 == 4 || d3 == 6);
    press("h");
    let hinted = screen.wait_for("hint: slide tile");
    assert!(hinted.contains('*'), "the optimal tiles are marked: {hinted}");
    press("u");
    screen.wait_for("moves: 2");
    assert_eq!(screen.status(), after_two);
    press("q");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "table play did not quit");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
    // the terminal is given back: the main screen again, without the game on it
    std::thread::sleep(Duration::from_millis(100));
    assert!(!screen.text().contains("distance:"), "{}", screen.text());
}

#[test]
fn without_a_terminal_it_says_so_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    common::table(dir.path())
        .arg("play")
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("table play needs a terminal"))
        .stderr(common::one_line_error());
}

/// `solve --animate` on a terminal: each board replaces the one before, so the screen ends with
/// the last move alone; piped, every board is printed.
#[test]
fn solve_animate_plays_the_solution_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let (screen, mut child, _keys) = spawn(dir.path(), &["solve", "--preset", "easy", "--animate", "--delay", "1"]);
    let text = screen.wait_for("move 5/5: D (tile 2 slides up), 0 to go");
    assert!(child.wait().unwrap().success());
    assert!(!text.contains("move 1/5") && !text.contains("start: 5 moves to go"), "{text}");
    let piped = common::table(dir.path()).args(["solve", "--preset", "easy", "--animate"]).assert().success();
    let out = String::from_utf8_lossy(&piped.get_output().stdout).to_string();
    assert!(out.contains("move 1 (") && out.contains("move 5 ("), "{out}");
}
