//! The game's keys and screens, without a terminal: the app driven key by key, and what ui.rs
//! draws checked on ratatui's TestBackend.

use std::sync::Arc;

use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use slidetable::game::{Oracle, SearchOracle, TableOracle};
use slidetable::{Board, Goal, Shape};

use super::app::{App, Field, OracleFactory, Preset, Screen, StartKind};
use super::ui;

/// Tables built in memory up to 10 cells, linear-conflict search beyond.
fn factory() -> OracleFactory {
    Box::new(|shape: Shape, goal: &Goal| -> Result<Arc<dyn Oracle>, String> {
        let goal = goal.board(shape).map_err(|e| e.to_string())?;
        if shape.cells() <= 10 {
            let table = slidetable::build(&goal, |_| {}).map_err(|e| e.to_string())?;
            return Ok(Arc::new(TableOracle { table, name: "memory".into() }));
        }
        Ok(Arc::new(SearchOracle::new(goal, None, 1, None)))
    })
}

fn app() -> App {
    let hard = Preset {
        name: "hard".into(),
        board: Board::parse(Shape::EIGHT, "2 8 1 4 6 3 7 0 5").unwrap(),
        goal: Goal::Snail,
    };
    App::new(vec![hard], factory(), 7)
}

fn key(app: &mut App, code: KeyCode) {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn keys(app: &mut App, text: &str) {
    for c in text.chars() {
        key(app, KeyCode::Char(c));
    }
}

/// The screen as text, one string per row.
fn screen(app: &mut App, w: u16, h: u16) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| ui::draw(f, app)).unwrap();
    let buf = terminal.backend().buffer().clone();
    (0..h).map(|y| (0..w).map(|x| buf[(x, y)].symbol().to_string()).collect::<String>()).collect()
}

fn shows(lines: &[String], text: &str) -> bool {
    lines.iter().any(|l| l.contains(text))
}

#[test]
fn start_preset_three_moves_hint_undo_quit() {
    let mut a = app();
    let s = screen(&mut a, 80, 24);
    assert!(shows(&s, "< 3x3 >") && shows(&s, "< a preset >") && shows(&s, "hard"), "{s:#?}");
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.screen, Screen::Play);
    assert_eq!(a.status(), "distance: 11  moves: 0");
    // the blank is bottom middle: the tile convention's Right slides 7 right, Down slides 6 down
    key(&mut a, KeyCode::Right);
    assert_eq!(a.status(), "distance: 12  moves: 1");
    assert!(a.verdict_line().contains("not optimal"));
    key(&mut a, KeyCode::Left);
    assert_eq!(a.status(), "distance: 11  moves: 2");
    assert!(a.verdict_line().contains("last move: optimal"));
    key(&mut a, KeyCode::Down);
    assert_eq!(a.status(), "distance: 10  moves: 3");
    key(&mut a, KeyCode::Char('h'));
    let hints = a.hints.clone().unwrap();
    assert!(!hints.is_empty());
    let s = screen(&mut a, 80, 24);
    assert!(shows(&s, "distance: 10  moves: 3") && shows(&s, "hint: slide tile"), "{s:#?}");
    assert_eq!(s.iter().filter(|l| l.contains('*')).count(), hints.len(), "one marked tile per optimal move");
    key(&mut a, KeyCode::Char('u'));
    assert_eq!(a.status(), "distance: 11  moves: 2");
    assert!(a.hints.is_none(), "hints belong to the position they were asked in");
    key(&mut a, KeyCode::Char('r'));
    assert_eq!(a.status(), "distance: 10  moves: 3");
    key(&mut a, KeyCode::Char('q'));
    assert!(a.quit);
}

#[test]
fn conventions_vi_keys_and_wasd() {
    let mut a = app();
    a.start_game(Board::parse(Shape::EIGHT, "1 2 3 4 5 6 7 0 8").unwrap(), &Goal::BlankLast).unwrap();
    assert_eq!(a.status(), "distance: 1  moves: 0");
    // tile convention: Left slides 8 left into the blank: solved
    key(&mut a, KeyCode::Char('a'));
    assert_eq!(a.status(), "distance: 0  moves: 1");
    assert!(a.game.as_ref().unwrap().is_won());
    let s = screen(&mut a, 80, 24);
    assert!(shows(&s, "Solved in 1 moves: optimal!"), "{s:#?}");
    key(&mut a, KeyCode::Left);
    assert_eq!(a.status(), "distance: 0  moves: 1", "no moves once solved");
    key(&mut a, KeyCode::Char('u'));
    // blank convention: Right moves the blank right
    key(&mut a, KeyCode::Char('c'));
    key(&mut a, KeyCode::Right);
    assert_eq!(a.status(), "distance: 0  moves: 1");
    key(&mut a, KeyCode::Char('u'));
    // h hints until vi keys are on; then h moves (the blank left, under the blank convention)
    key(&mut a, KeyCode::Char('h'));
    assert_eq!(a.status(), "distance: 1  moves: 0");
    assert!(a.hints.is_some());
    key(&mut a, KeyCode::Char('v'));
    key(&mut a, KeyCode::Char('h'));
    assert_eq!(a.status(), "distance: 2  moves: 1");
    key(&mut a, KeyCode::Char('?'));
    assert_eq!(a.hints.as_deref(), Some(&[slidetable::Dir::Right][..]));
    // Ctrl-C quits from anywhere
    a.on_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert!(a.quit);
}

#[test]
fn a_click_slides_the_tiles_between_it_and_the_blank() {
    let mut a = app();
    a.start_game(Board::parse(Shape::EIGHT, "1 2 3 4 5 6 7 8 0").unwrap(), &Goal::BlankLast).unwrap();
    screen(&mut a, 80, 24);
    let (area, w, h) = a.board_area.unwrap();
    let click = |c: u16, r: u16| MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: area.x + c * w + 1,
        row: area.y + r * h + 1,
        modifiers: KeyModifiers::NONE,
    };
    a.on_mouse(click(0, 2));
    assert_eq!(a.status(), "distance: 2  moves: 2");
    a.on_mouse(click(1, 1));
    assert_eq!(a.status(), "distance: 2  moves: 2", "not in the blank's row or column");
    a.on_mouse(click(2, 2));
    assert_eq!(a.status(), "distance: 0  moves: 4");
}

#[test]
fn typed_boards_are_checked_as_they_are_typed() {
    let mut a = app();
    for _ in 0..3 {
        key(&mut a, KeyCode::Down);
    }
    assert_eq!(a.menu.field, Field::Value);
    key(&mut a, KeyCode::Up);
    key(&mut a, KeyCode::Right);
    key(&mut a, KeyCode::Right);
    assert_eq!(a.menu.kind, StartKind::Typed);
    key(&mut a, KeyCode::Down);
    keys(&mut a, "2134567");
    let s = screen(&mut a, 80, 24);
    assert!(shows(&s, "7 tiles given"), "{s:#?}");
    keys(&mut a, "80");
    let s = screen(&mut a, 80, 24);
    assert!(shows(&s, "cannot reach the goal"), "{s:#?}");
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.screen, Screen::Start, "an unsolvable board does not start");
    for _ in 0..9 {
        key(&mut a, KeyCode::Backspace);
    }
    keys(&mut a, "1 2 3 4 5 6 0 7 8");
    let s = screen(&mut a, 80, 24);
    assert!(shows(&s, "ok: a board that can reach the goal"), "{s:#?}");
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.status(), "distance: 2  moves: 0");
}

#[test]
fn scrambles_are_at_the_distance_asked_and_big_boards_search_in_the_background() {
    let mut a = app();
    a.menu.kind = StartKind::Scramble;
    a.menu.distance = 17;
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.status(), "distance: 17  moves: 0");
    // 4x4: no table; the distance comes from the worker thread
    key(&mut a, KeyCode::Char('n'));
    a.menu.shape = super::app::SHAPES.iter().position(|&s| s == (4, 4)).unwrap();
    a.menu.distance = 10;
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.screen, Screen::Play, "{}", a.message);
    let started = std::time::Instant::now();
    while a.thinking() && started.elapsed().as_secs() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(5));
        a.tick();
    }
    let d: u32 = a.status().split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!(d <= 10 && d.is_multiple_of(2), "a 10-move walk is at most 10 away, with its parity: {d}");
    key(&mut a, KeyCode::Char('h'));
    while a.thinking() && started.elapsed().as_secs() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(5));
        a.tick();
    }
    assert!(!a.hints.as_ref().unwrap().is_empty() || d == 0);
}

#[test]
fn a_small_window_says_so_and_recovers() {
    let mut a = app();
    key(&mut a, KeyCode::Enter);
    let s = screen(&mut a, 40, 10);
    assert!(shows(&s, "The window is too small"), "{s:#?}");
    assert!(a.board_area.is_none());
    let s = screen(&mut a, 80, 24);
    assert!(shows(&s, "distance: 11  moves: 0"), "{s:#?}");
}

/// Waits (up to 30 s) for the workers: a search, a distance, hints.
fn settle(a: &mut App) {
    let started = std::time::Instant::now();
    while (a.solver.running.is_some() || a.thinking()) && started.elapsed().as_secs() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(2));
        a.tick();
    }
}

#[test]
fn solve_and_watch_runs_a_search_shows_its_statistics_and_steps_through_the_solution() {
    let mut a = app();
    key(&mut a, KeyCode::Enter);
    key(&mut a, KeyCode::Char('x'));
    assert_eq!(a.screen, Screen::Solve);
    let s = screen(&mut a, 80, 24);
    assert!(shows(&s, "< astar >") && shows(&s, "< hamming >"), "{s:#?}");
    key(&mut a, KeyCode::Right); // idastar
    key(&mut a, KeyCode::Down);
    key(&mut a, KeyCode::Left); // the exact table, last in the list
    key(&mut a, KeyCode::Enter);
    settle(&mut a);
    let s = screen(&mut a, 80, 24);
    assert!(shows(&s, "idastar with the exact table: 11 moves (optimal)"), "{s:#?}");
    assert!(shows(&s, "generated"), "{s:#?}");
    // step by hand: the board after each step is the start with the solution's moves applied
    key(&mut a, KeyCode::Char(' '));
    key(&mut a, KeyCode::Home);
    for k in 1..=11 {
        key(&mut a, KeyCode::Right);
        assert_eq!(a.solver.step, k);
    }
    key(&mut a, KeyCode::Right);
    assert_eq!(a.solver.step, 11, "not past the end");
    let (end, _) = a.animation().unwrap();
    assert_eq!(&end, a.game.as_ref().unwrap().goal());
    key(&mut a, KeyCode::Left);
    assert_eq!(a.solver.step, 10);
    // search again with pattern tables built for it (the one before the exact table)
    key(&mut a, KeyCode::Char('s'));
    key(&mut a, KeyCode::Left);
    key(&mut a, KeyCode::Enter);
    settle(&mut a);
    let s = screen(&mut a, 80, 24);
    assert!(shows(&s, "idastar with pattern tables (auto, built for the search): 11 moves (optimal)"), "{s:#?}");
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.screen, Screen::Play);
    assert_eq!(a.status(), "distance: 11  moves: 0", "watching does not move the game");
}

#[test]
fn a_long_search_counts_on_screen_and_cancels() {
    let mut a = app();
    let shape = Shape::new(4, 4).unwrap();
    // COS 226's puzzle4x4-45: milliseconds for the game's IDA* with linear conflict, far longer
    // for A* with misplaced tiles
    let hard = Board::parse(shape, "6 2 5 3 9 7 1 14 10 0 13 8 11 12 4 15").unwrap();
    a.start_game(hard, &Goal::BlankLast).unwrap();
    settle(&mut a);
    assert_eq!(a.status(), "distance: 45  moves: 0");
    key(&mut a, KeyCode::Char('x'));
    key(&mut a, KeyCode::Enter);
    let started = std::time::Instant::now();
    loop {
        let s = screen(&mut a, 80, 30);
        let line = s.iter().find(|l| l.contains("generated")).cloned().unwrap_or_default();
        if line.contains(',') || started.elapsed().as_secs() > 20 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    key(&mut a, KeyCode::Esc);
    settle(&mut a);
    assert!(a.solver.result.is_none());
    assert!(a.message.starts_with("cancelled after"), "{}", a.message);
    let s = screen(&mut a, 80, 30);
    assert!(shows(&s, "cancelled after"), "{s:#?}");
}

#[test]
fn past_the_24_puzzle_a_hint_is_a_solutions_first_move_with_its_proof() {
    // the library's own choice of oracle (no pattern tables in an empty directory): reduce on a
    // 9x9, a search within 1.5 on a 6x6, each position's solution found on the worker thread
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_path_buf();
    let factory: OracleFactory = Box::new(move |shape: Shape, goal: &Goal| {
        slidetable::solver::game_oracle(goal, shape, &path, 1).map_err(|e| e.to_string())
    });
    let mut a = App::new(Vec::new(), factory, 7);
    let mut rng = slidetable::lab::sample::SplitMix64::new(11);
    for side in [9, 6] {
        let shape = Shape::new(side, side).unwrap();
        let mut board = Goal::BlankLast.board(shape).unwrap();
        for _ in 0..400 {
            let _ = board.apply(slidetable::Dir::ALL[(rng.next_u64() % 4) as usize]);
        }
        a.start_game(board, &Goal::BlankLast).unwrap();
        settle(&mut a);
        let status = a.status();
        assert!(status.starts_with("a solution from here: ") && status.contains("moves made: 0"), "{status}");
        assert!(a.verdict_line().contains("no exact distances"), "{}", a.verdict_line());
        key(&mut a, KeyCode::Char('h'));
        settle(&mut a);
        let hints = a.hints.clone().unwrap();
        assert_eq!(hints.len(), 1, "one move: the solution's first");
        let s = screen(&mut a, 120, 50);
        assert!(shows(&s, "solutions from") && shows(&s, "the first move of a solution"), "{s:#?}");
        // the proof, when there is one, says how far from the optimum the solution can be
        assert!(a.bound_text().is_some_and(|t| t.is_empty() || t.contains("of optimal") || t.contains("proven")));
    }
}
