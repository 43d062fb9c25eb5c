//! The state of `table play` and what each key does, apart from drawing (`ui.rs`) and the
//! terminal (`mod.rs`), so that it can be tested and measured directly. Uses only the library,
//! ratatui and crossterm (the benchmark includes this file as it is).

use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::time::Instant;

use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;
use slidetable::game::{optimal_moves_at, Game, Oracle, Verdict};
use slidetable::heuristic::{Heuristic, Partition, PatternSet};
use slidetable::search::{solve, Algorithm, Found, Guide, Options, Watch};
use slidetable::{Board, Dir, Goal, Shape};

/// The boards the start screen offers, tables first.
pub const SHAPES: [(usize, usize); 14] =
    [(3, 3), (2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (2, 5), (5, 2), (2, 6), (6, 2), (3, 4), (4, 3), (4, 4), (5, 5)];

/// The goals the start screen offers.
pub const GOALS: [Goal; 3] = [Goal::BlankLast, Goal::BlankFirst, Goal::Snail];

/// A named starting position.
#[derive(Clone, Debug)]
pub struct Preset {
    pub name: String,
    pub board: Board,
    pub goal: Goal,
}

/// Where a game's exact distances come from, for a board and goal: a table, or a search.
/// `Err` says why there is none.
pub type OracleFactory = Box<dyn Fn(Shape, &Goal) -> Result<Arc<dyn Oracle>, String>>;

/// How a position to start from is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartKind {
    Preset,
    Scramble,
    Typed,
}

/// The start screen's fields, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Board,
    Goal,
    Start,
    Value,
}

const FIELDS: [Field; 4] = [Field::Board, Field::Goal, Field::Start, Field::Value];

/// The start screen.
#[derive(Clone, Debug)]
pub struct Menu {
    pub field: Field,
    pub shape: usize,
    pub goal: usize,
    pub kind: StartKind,
    pub preset: usize,
    /// The distance to scramble to (or the number of random moves where there is no table).
    pub distance: u32,
    pub typed: String,
}

/// Which way an arrow key is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    /// The arrow names the way a tile slides into the blank.
    Tile,
    /// The arrow names the way the blank moves.
    Blank,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Screen {
    Start,
    Play,
    /// Solve and watch: choose a search, run it, animate its solution.
    Solve,
}

/// The algorithms the solve screen offers.
pub const ALGORITHMS: [Algorithm; 7] = [
    Algorithm::AStar,
    Algorithm::IdaStar,
    Algorithm::Greedy,
    Algorithm::Weighted(2.0),
    Algorithm::Within(1.5),
    Algorithm::Reduce,
    Algorithm::Beam(slidetable::search::beam::DEFAULT_WIDTH),
];

/// A guide the solve screen offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GuideChoice {
    Heuristic(Heuristic),
    /// The oracle's own: the exact table, or its pattern databases.
    Oracle,
    /// Pattern databases of the `auto` partition, built for the search (boards of up to 16
    /// cells whose game has none).
    AutoPatterns,
}

/// A finished search, as the solve screen shows it.
#[derive(Clone, Debug)]
pub struct Solved {
    pub start: Board,
    pub found: Found,
    pub algorithm: Algorithm,
    pub guide: String,
}

/// The pattern databases of the `auto` partition for `goal`, built in memory.
fn auto_patterns(goal: &Board) -> Result<PatternSet, slidetable::Error> {
    PatternSet::build(goal, Partition::parse(goal, "auto")?, true)
}

/// A search under way on the worker thread.
pub struct Running {
    pub watch: Arc<Watch>,
    pub answer: Receiver<Result<Option<Found>, String>>,
    pub began: Instant,
}

/// The solve screen: the choices, the search running, its result and the animation.
pub struct Solver {
    pub algorithm: usize,
    pub guide: usize,
    /// 0: the algorithm line, 1: the guide line.
    pub line: usize,
    pub running: Option<Running>,
    pub result: Option<Solved>,
    /// The animation: moves shown, playing or not, milliseconds a move, when the current move began.
    pub step: usize,
    pub playing: bool,
    pub speed_ms: u64,
    pub move_began: Instant,
}

/// A question for the worker thread, tagged with the game it belongs to.
struct Job {
    game: u64,
    moves: usize,
    board: Board,
    hints: bool,
}

/// Its answer.
struct Answer {
    game: u64,
    moves: usize,
    board: Board,
    distance: Result<Option<u32>, String>,
    hints: Option<Result<Vec<Dir>, String>>,
}

/// Everything `table play` knows.
pub struct App {
    pub screen: Screen,
    pub menu: Menu,
    pub presets: Vec<Preset>,
    pub game: Option<Game>,
    pub oracle: Option<Arc<dyn Oracle>>,
    pub convention: Convention,
    /// h j k l move (and `?` gives hints) when set.
    pub vi_keys: bool,
    /// The optimal moves of the blank from the position now, when asked for and known.
    pub hints: Option<Vec<Dir>>,
    /// Hints asked for the position now and not yet known.
    pub hints_pending: bool,
    /// One line of news: an error, what a key did.
    pub message: String,
    pub quit: bool,
    /// Where the board was last drawn: (area, cell width, cell height), for mouse clicks.
    pub board_area: Option<(Rect, u16, u16)>,
    pub solver: Solver,
    factory: OracleFactory,
    /// The last oracle made, kept: pattern tables take a while to load.
    cached: Option<(Shape, Goal, Arc<dyn Oracle>)>,
    seed: u64,
    game_id: u64,
    jobs: Option<Sender<Job>>,
    answers: Option<Receiver<Answer>>,
}

impl App {
    /// A new app on the start screen.
    pub fn new(presets: Vec<Preset>, factory: OracleFactory, seed: u64) -> App {
        App {
            screen: Screen::Start,
            menu: Menu {
                field: Field::Board,
                shape: 0,
                goal: 0,
                kind: StartKind::Preset,
                preset: 0,
                distance: 20,
                typed: String::new(),
            },
            presets,
            game: None,
            oracle: None,
            convention: Convention::Tile,
            vi_keys: false,
            hints: None,
            hints_pending: false,
            message: String::new(),
            quit: false,
            board_area: None,
            solver: Solver {
                algorithm: 0,
                guide: 0,
                line: 0,
                running: None,
                result: None,
                step: 0,
                playing: false,
                speed_ms: 400,
                move_began: Instant::now(),
            },
            factory,
            cached: None,
            seed,
            game_id: 0,
            jobs: None,
            answers: None,
        }
    }

    /// The shape the menu has chosen.
    pub fn menu_shape(&self) -> Shape {
        let (r, c) = SHAPES[self.menu.shape];
        Shape::new(r, c).expect("a valid shape")
    }

    /// The presets for the menu's board and goal.
    pub fn menu_presets(&self) -> Vec<&Preset> {
        let shape = self.menu_shape();
        self.presets.iter().filter(|p| p.board.shape() == shape).collect()
    }

    /// The typed board, checked: the board, or why it is not one.
    pub fn typed_board(&self) -> Result<Board, String> {
        let shape = self.menu_shape();
        let goal = GOALS[self.menu.goal].board(shape).map_err(|e| e.to_string())?;
        let board = Board::parse(shape, &self.menu.typed).map_err(|e| e.to_string())?;
        if !board.is_solvable_to(&goal) {
            return Err(format!("cannot reach the goal {goal}: {}", board.parity_to(&goal).explain()));
        }
        Ok(board)
    }

    /// The oracle for a board and goal: the last one made if it serves, else a new one.
    fn oracle_for(&mut self, shape: Shape, goal: &Goal) -> Result<Arc<dyn Oracle>, String> {
        if let Some((s, g, o)) = &self.cached {
            if *s == shape && g == goal {
                return Ok(Arc::clone(o));
            }
        }
        let oracle = (self.factory)(shape, goal)?;
        self.cached = Some((shape, goal.clone(), Arc::clone(&oracle)));
        Ok(oracle)
    }

    /// Starts a game on `board` toward `goal`, with the oracle for them.
    pub fn start_game(&mut self, board: Board, goal: &Goal) -> Result<(), String> {
        let oracle = self.oracle_for(board.shape(), goal)?;
        let goal_board = oracle.goal().clone();
        let distance = if oracle.is_instant() { oracle.distance(&board).map_err(|e| e.to_string())? } else { None };
        let game = Game::new(board, goal_board, distance).map_err(|e| e.to_string())?;
        if let Some(old) = &self.oracle {
            old.interrupt();
        }
        self.game_id += 1;
        // a new worker for each game: the old one ends when its queue is dropped
        if oracle.is_instant() {
            self.jobs = None;
            self.answers = None;
        } else {
            let (jobs, queue) = channel::<Job>();
            let (reply, answers) = channel::<Answer>();
            let worker = Arc::clone(&oracle);
            std::thread::spawn(move || {
                while let Ok(mut job) = queue.recv() {
                    // only the newest position matters: the player moved on from the others
                    while let Ok(newer) = queue.try_recv() {
                        job = newer;
                    }
                    let distance = worker.distance(&job.board).map_err(|e| e.to_string());
                    // the neighbours only: the position's own distance is the one just found
                    let hints = match &distance {
                        Ok(d) if job.hints => {
                            Some(optimal_moves_at(worker.as_ref(), &job.board, *d).map_err(|e| e.to_string()))
                        }
                        _ => None,
                    };
                    let answer = Answer { game: job.game, moves: job.moves, board: job.board, distance, hints };
                    if reply.send(answer).is_err() {
                        break;
                    }
                }
            });
            self.jobs = Some(jobs);
            self.answers = Some(answers);
        }
        self.oracle = Some(oracle);
        self.game = Some(game);
        self.hints = None;
        self.hints_pending = false;
        self.screen = Screen::Play;
        self.message.clear();
        self.ask(false);
        Ok(())
    }

    /// Starts the game the menu describes.
    pub fn start_from_menu(&mut self) {
        let shape = self.menu_shape();
        let goal = GOALS[self.menu.goal].clone();
        let (board, goal) = match self.menu.kind {
            StartKind::Typed => (self.typed_board(), goal),
            StartKind::Preset => match self.menu_presets().get(self.menu.preset) {
                // a preset comes with its own goal
                Some(p) => (Ok(p.board.clone()), p.goal.clone()),
                None => (Err(format!("no preset for {shape}: choose a scramble or type a board")), goal),
            },
            StartKind::Scramble => (self.scrambled(shape, &goal), goal),
        };
        match board.and_then(|b| self.start_game(b, &goal)) {
            Ok(()) => {}
            Err(e) => self.message = e,
        }
    }

    /// A board at the menu's distance: uniform over that depth where a table is at hand, else
    /// a random walk of that many moves that does not step back.
    fn scrambled(&mut self, shape: Shape, goal: &Goal) -> Result<Board, String> {
        self.seed = self.seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let oracle = self.oracle_for(shape, goal)?;
        let goal_board = oracle.goal().clone();
        let mut rng = slidetable::lab::sample::SplitMix64::new(self.seed);
        let depth = u8::try_from(self.menu.distance).unwrap_or(u8::MAX);
        if let Some(drawn) = oracle.scramble(depth, self.seed) {
            return drawn.map_err(|e| e.to_string());
        }
        let mut board = goal_board;
        let mut last: Option<Dir> = None;
        for _ in 0..self.menu.distance {
            let dirs: Vec<Dir> =
                Dir::ALL.into_iter().filter(|&d| Some(d.opposite()) != last && board.moved(d).is_some()).collect();
            let d = dirs[(rng.next_u64() % dirs.len() as u64) as usize];
            board.apply(d);
            last = Some(d);
        }
        Ok(board)
    }

    /// Asks for the distance of the position now, and its hints when `hints`: at once from a
    /// table, else from the worker.
    fn ask(&mut self, hints: bool) {
        let (Some(game), Some(oracle)) = (&mut self.game, &self.oracle) else { return };
        if oracle.is_instant() {
            if game.distance().is_none() {
                match oracle.distance(game.board()) {
                    Ok(Some(d)) => game.set_distance(d),
                    Ok(None) => {}
                    Err(e) => self.message = e.to_string(),
                }
            }
            if hints {
                match optimal_moves_at(oracle.as_ref(), game.board(), game.distance()) {
                    Ok(h) => self.hints = Some(h),
                    Err(e) => self.message = e.to_string(),
                }
            }
            return;
        }
        if hints {
            self.hints_pending = true;
        }
        if let Some(jobs) = &self.jobs {
            // what the worker is busy with is stale now: the newest position is all that counts
            oracle.interrupt();
            let job = Job { game: self.game_id, moves: game.moves().len(), board: game.board().clone(), hints };
            let _ = jobs.send(job);
        }
    }

    /// Takes the workers' answers and moves the animation on (called between events).
    pub fn tick(&mut self) {
        if let Some(Running { watch, answer, .. }) = &self.solver.running {
            if let Ok(outcome) = answer.try_recv() {
                let generated = watch.generated();
                self.solver.running = None;
                match outcome {
                    Ok(Some(found)) => {
                        let start = self.game.as_ref().map(|g| g.board().clone());
                        if let Some(start) = start {
                            let choice = self.guides()[self.solver.guide];
                            self.solver.result = Some(Solved {
                                start,
                                found,
                                algorithm: ALGORITHMS[self.solver.algorithm],
                                guide: self.guide_name(choice),
                            });
                            self.solver.step = 0;
                            self.solver.playing = true;
                            self.solver.move_began = Instant::now();
                        }
                    }
                    Ok(None) => self.message = "no solution: the board cannot reach the goal".into(),
                    Err(e) if e.contains("cancelled") => self.message = format!("cancelled after {generated} nodes"),
                    Err(e) => self.message = e,
                }
            }
        }
        if self.solver.playing {
            let len = self.solver.result.as_ref().map_or(0, |r| r.found.moves.len());
            if self.solver.step >= len {
                self.solver.playing = false;
            } else if self.solver.move_began.elapsed().as_millis() as u64 >= self.solver.speed_ms {
                self.solver.step += 1;
                self.solver.move_began = Instant::now();
            }
        }
        let Some(answers) = &self.answers else { return };
        while let Ok(a) = answers.try_recv() {
            if a.game != self.game_id {
                continue;
            }
            let Some(game) = &mut self.game else { continue };
            // a search interrupted because the player moved on is no news
            let cancelled = |e: &String| e.starts_with("the search was cancelled");
            match a.distance {
                Ok(Some(d)) => game.set_distance_at(a.moves, &a.board, d),
                Ok(None) => {}
                Err(e) if cancelled(&e) => {}
                Err(e) => self.message = e,
            }
            let now = game.board() == &a.board && game.moves().len() == a.moves;
            match a.hints {
                Some(Ok(h)) if now => {
                    self.hints = Some(h);
                    self.hints_pending = false;
                }
                Some(Err(e)) if !cancelled(&e) => self.message = e,
                _ => {}
            }
        }
    }

    /// Whether the worker is busy with the position now (a distance or hints not yet known).
    pub fn thinking(&self) -> bool {
        self.game.as_ref().is_some_and(|g| g.distance().is_none()) || self.hints_pending
    }

    /// Whether the screen changes without a key: a search running, a worker thinking, an
    /// animation playing (the event loop then wakes often).
    pub fn busy(&self) -> bool {
        self.thinking() || self.solver.running.is_some() || self.solver.playing
    }

    /// Handles one key.
    pub fn on_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) && matches!(key.code, KeyCode::Char('c') | KeyCode::Char('d'))
        {
            self.quit = true;
            return;
        }
        match self.screen {
            Screen::Start => self.on_menu_key(key),
            Screen::Play => self.on_play_key(key),
            Screen::Solve => self.on_solve_key(key),
        }
    }

    /// The guides the solve screen offers for this game: the classic heuristics, and the
    /// oracle's own when it has one.
    pub fn guides(&self) -> Vec<GuideChoice> {
        let mut g = vec![
            GuideChoice::Heuristic(Heuristic::Hamming),
            GuideChoice::Heuristic(Heuristic::Manhattan),
            GuideChoice::Heuristic(Heuristic::LinearConflict),
        ];
        let own = self.oracle.as_ref().and_then(|o| o.guide().map(|g| g.name()));
        if own != Some("pdb") && self.game.as_ref().is_some_and(|g| g.board().shape().cells() <= 16) {
            g.push(GuideChoice::AutoPatterns);
        }
        if own.is_some() {
            g.push(GuideChoice::Oracle);
        }
        g
    }

    /// A guide's name on the solve screen.
    pub fn guide_name(&self, choice: GuideChoice) -> String {
        match (choice, self.oracle.as_ref().and_then(|o| o.guide().map(|g| g.name()))) {
            (GuideChoice::Heuristic(h), _) => h.name().to_string(),
            (GuideChoice::Oracle, Some("table")) => "the exact table".to_string(),
            (GuideChoice::Oracle, Some(_)) => "the game's pattern tables".to_string(),
            (GuideChoice::Oracle, None) => "none".to_string(),
            (GuideChoice::AutoPatterns, _) => "pattern tables (auto, built for the search)".to_string(),
        }
    }

    /// Opens the solve screen on the position now.
    fn open_solver(&mut self) {
        self.screen = Screen::Solve;
        self.solver.result = None;
        self.solver.running = None;
        self.solver.line = 0;
        self.solver.guide = self.solver.guide.min(self.guides().len() - 1);
        self.message.clear();
    }

    /// Runs the chosen search on the position now, on a worker thread.
    fn run_search(&mut self) {
        let (Some(game), Some(oracle)) = (&self.game, &self.oracle) else { return };
        let start = game.board().clone();
        let goal = game.goal().clone();
        let algorithm = ALGORITHMS[self.solver.algorithm];
        let choice = self.guides()[self.solver.guide];
        let watch = Arc::new(Watch::new());
        let options = Options {
            algorithm,
            // a search that would take more memory than this gives up with a message
            max_bytes: Some(2 << 30),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            watch: Some(Arc::clone(&watch)),
            ..Options::default()
        };
        let oracle = Arc::clone(oracle);
        let (reply, answer) = channel();
        std::thread::spawn(move || {
            let built = match choice {
                GuideChoice::AutoPatterns => match auto_patterns(&goal) {
                    Ok(set) => Some(set),
                    Err(e) => {
                        let _ = reply.send(Err(e.to_string()));
                        return;
                    }
                },
                _ => None,
            };
            let guide = match (choice, &built) {
                (GuideChoice::Heuristic(h), _) => Guide::Heuristic(h),
                (GuideChoice::AutoPatterns, Some(set)) => Guide::Patterns(set),
                _ => oracle.guide().unwrap_or(Guide::Heuristic(Heuristic::LinearConflict)),
            };
            let _ = reply.send(solve(&start, &goal, guide, &options).map_err(|e| e.to_string()));
        });
        self.solver.result = None;
        self.solver.running = Some(Running { watch, answer, began: Instant::now() });
        self.message.clear();
    }

    fn on_solve_key(&mut self, key: KeyEvent) {
        if let Some(Running { watch, .. }) = &self.solver.running {
            if matches!(key.code, KeyCode::Esc | KeyCode::Char('c') | KeyCode::Char('q')) {
                watch.cancel();
            }
            return;
        }
        if self.solver.result.is_some() {
            let len = self.solver.result.as_ref().map_or(0, |r| r.found.moves.len());
            let s = &mut self.solver;
            match key.code {
                KeyCode::Char(' ') | KeyCode::Char('p') => {
                    if s.step >= len {
                        s.step = 0;
                    }
                    s.playing = !s.playing;
                    s.move_began = Instant::now();
                }
                KeyCode::Right | KeyCode::Char('.') => {
                    s.playing = false;
                    s.step = (s.step + 1).min(len);
                }
                KeyCode::Left | KeyCode::Char(',') => {
                    s.playing = false;
                    s.step = s.step.saturating_sub(1);
                }
                KeyCode::Home => {
                    s.step = 0;
                    s.playing = false;
                }
                KeyCode::Char('+') | KeyCode::Char('=') | KeyCode::Up => s.speed_ms = (s.speed_ms * 2 / 3).max(30),
                KeyCode::Char('-') | KeyCode::Down => s.speed_ms = (s.speed_ms * 3 / 2).min(5000),
                KeyCode::Char('s') => {
                    s.result = None;
                    s.playing = false;
                }
                KeyCode::Esc | KeyCode::Char('q') | KeyCode::Char('x') => self.screen = Screen::Play,
                _ => {}
            }
            return;
        }
        let guides = self.guides().len();
        let s = &mut self.solver;
        let turn = |v: usize, n: usize, by: i32| ((v as i32 + by).rem_euclid(n as i32)) as usize;
        match key.code {
            KeyCode::Up | KeyCode::Down | KeyCode::Tab => s.line = 1 - s.line,
            KeyCode::Left | KeyCode::Right => {
                let by = if key.code == KeyCode::Left { -1 } else { 1 };
                if s.line == 0 {
                    s.algorithm = turn(s.algorithm, ALGORITHMS.len(), by);
                } else {
                    s.guide = turn(s.guide, guides, by);
                }
            }
            KeyCode::Enter => self.run_search(),
            KeyCode::Esc | KeyCode::Char('q') | KeyCode::Char('x') => self.screen = Screen::Play,
            _ => {}
        }
    }

    /// The board the animation shows now, and the move under way with how far along it is
    /// (0 to 1), for drawing a tile between two cells.
    pub fn animation(&self) -> Option<(Board, Option<(Dir, f64)>)> {
        let r = self.solver.result.as_ref()?;
        let mut board = r.start.clone();
        for &d in &r.found.moves[..self.solver.step] {
            board.apply(d);
        }
        let sliding = (self.solver.playing && self.solver.step < r.found.moves.len()).then(|| {
            let phase = self.solver.move_began.elapsed().as_millis() as f64 / self.solver.speed_ms as f64;
            (r.found.moves[self.solver.step], phase.min(1.0))
        });
        Some((board, sliding))
    }

    fn on_menu_key(&mut self, key: KeyEvent) {
        let typing = self.menu.field == Field::Value && self.menu.kind == StartKind::Typed;
        match key.code {
            KeyCode::Esc => self.quit = true,
            KeyCode::Char('q') if !typing => self.quit = true,
            KeyCode::Enter => self.start_from_menu(),
            KeyCode::Up | KeyCode::BackTab => self.step_field(-1),
            KeyCode::Down | KeyCode::Tab => self.step_field(1),
            KeyCode::Left => self.step_value(-1),
            KeyCode::Right => self.step_value(1),
            KeyCode::Backspace if typing => {
                self.menu.typed.pop();
            }
            KeyCode::Char(c) if typing => self.menu.typed.push(c),
            KeyCode::Char(c @ '0'..='9')
                if self.menu.field == Field::Value && self.menu.kind == StartKind::Scramble =>
            {
                let d = self.menu.distance * 10 + c.to_digit(10).unwrap_or(0);
                self.menu.distance = if d > 999 { c.to_digit(10).unwrap_or(0) } else { d };
            }
            KeyCode::Backspace if self.menu.kind == StartKind::Scramble => self.menu.distance /= 10,
            _ => {}
        }
    }

    fn step_field(&mut self, by: i32) {
        let i = FIELDS.iter().position(|&f| f == self.menu.field).unwrap_or(0) as i32;
        self.menu.field = FIELDS[(i + by).rem_euclid(FIELDS.len() as i32) as usize];
    }

    fn step_value(&mut self, by: i32) {
        let wrap = |v: usize, n: usize| ((v as i32 + by).rem_euclid(n.max(1) as i32)) as usize;
        match self.menu.field {
            Field::Board => {
                self.menu.shape = wrap(self.menu.shape, SHAPES.len());
                self.menu.preset = 0;
            }
            Field::Goal => self.menu.goal = wrap(self.menu.goal, GOALS.len()),
            Field::Start => {
                const KINDS: [StartKind; 3] = [StartKind::Preset, StartKind::Scramble, StartKind::Typed];
                let i = KINDS.iter().position(|&k| k == self.menu.kind).unwrap_or(0);
                self.menu.kind = KINDS[wrap(i, 3)];
            }
            Field::Value => match self.menu.kind {
                StartKind::Preset => self.menu.preset = wrap(self.menu.preset, self.menu_presets().len()),
                StartKind::Scramble => self.menu.distance = self.menu.distance.saturating_add_signed(by),
                StartKind::Typed => {}
            },
        }
    }

    /// The blank's move for an arrow pointing `arrow`, under the convention.
    fn blank_move(&self, arrow: Dir) -> Dir {
        match self.convention {
            Convention::Blank => arrow,
            Convention::Tile => arrow.opposite(),
        }
    }

    fn on_play_key(&mut self, key: KeyEvent) {
        let arrow = match key.code {
            KeyCode::Up | KeyCode::Char('w') | KeyCode::Char('W') => Some(Dir::Up),
            KeyCode::Down | KeyCode::Char('s') | KeyCode::Char('S') => Some(Dir::Down),
            KeyCode::Left | KeyCode::Char('a') | KeyCode::Char('A') => Some(Dir::Left),
            KeyCode::Right | KeyCode::Char('d') | KeyCode::Char('D') => Some(Dir::Right),
            KeyCode::Char('k') if self.vi_keys => Some(Dir::Up),
            KeyCode::Char('j') if self.vi_keys => Some(Dir::Down),
            KeyCode::Char('h') if self.vi_keys => Some(Dir::Left),
            KeyCode::Char('l') if self.vi_keys => Some(Dir::Right),
            _ => None,
        };
        // a game won by moving shows its win screen and takes no more moves (undo still works)
        let won = self.game.as_ref().is_some_and(|g| g.is_won() && !g.moves().is_empty());
        if let Some(arrow) = arrow {
            if won {
                return;
            }
            let dir = self.blank_move(arrow);
            self.play(|g| g.slide(dir).is_some());
            return;
        }
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => self.quit = true,
            KeyCode::Char('h') | KeyCode::Char('?') if !won => self.ask(true),
            KeyCode::Char('u') => self.play(Game::undo),
            KeyCode::Char('r') => self.play(Game::redo),
            KeyCode::Char('c') => {
                self.convention = match self.convention {
                    Convention::Tile => Convention::Blank,
                    Convention::Blank => Convention::Tile,
                };
                self.message = format!("arrows now move the {}", self.convention_word());
            }
            KeyCode::Char('v') => {
                self.vi_keys = !self.vi_keys;
                self.message = if self.vi_keys {
                    "h j k l move; ? shows the optimal moves".into()
                } else {
                    "h shows the optimal moves; h j k l no longer move".into()
                };
            }
            KeyCode::Char('n') => {
                self.screen = Screen::Start;
                self.message.clear();
            }
            KeyCode::Char('x') => self.open_solver(),
            _ => {}
        }
    }

    /// What the arrows move, in a word.
    pub fn convention_word(&self) -> &'static str {
        match self.convention {
            Convention::Tile => "tile into the blank",
            Convention::Blank => "blank",
        }
    }

    /// Applies a change to the game; when it did something, forgets the hints and asks for the
    /// new distance.
    fn play(&mut self, change: impl FnOnce(&mut Game) -> bool) {
        let Some(game) = &mut self.game else { return };
        if change(game) {
            self.hints = None;
            self.hints_pending = false;
            self.message.clear();
            self.ask(false);
        }
    }

    /// Handles a mouse event: a left click on a tile in the blank's row or column slides it.
    pub fn on_mouse(&mut self, m: MouseEvent) {
        if self.screen != Screen::Play || m.kind != MouseEventKind::Down(MouseButton::Left) {
            return;
        }
        let (Some((area, w, h)), Some(game)) = (self.board_area, &self.game) else { return };
        if game.is_won() && !game.moves().is_empty() {
            return;
        }
        if m.column < area.x || m.row < area.y || w == 0 || h == 0 {
            return;
        }
        let (c, r) = (((m.column - area.x) / w) as usize, ((m.row - area.y) / h) as usize);
        let shape = game.board().shape();
        if r >= shape.rows() || c >= shape.cols() {
            return;
        }
        let cell = r * shape.cols() + c;
        self.play(|g| g.slide_to(cell) > 0);
    }

    /// The status line scripts read: `distance: N  moves: M` (`?` while the distance is being
    /// worked out).
    pub fn status(&self) -> String {
        let Some(game) = &self.game else { return String::new() };
        let d = game.distance().map_or("?".to_string(), |d| d.to_string());
        if let Some(proof) = self.bound_text() {
            // past the 24-puzzle: the length of a solution found, not the distance
            return format!("a solution from here: {d} moves{proof}  moves made: {}", game.moves().len());
        }
        format!("distance: {d}  moves: {}", game.moves().len())
    }

    /// For an oracle that is not exact, the proof of the solution found for the position now:
    /// ` (within 1.42 of optimal: at least 98 needed)`, or `` when it has none; `None` for an
    /// exact oracle.
    pub fn bound_text(&self) -> Option<String> {
        let (Some(game), Some(oracle)) = (&self.game, &self.oracle) else { return None };
        if oracle.is_exact() {
            return None;
        }
        Some(match oracle.solution(game.board()) {
            Some((moves, Some(lb))) if lb > 0 && (lb as usize) < moves.len() => {
                let ratio = ((moves.len() as f64 / lb as f64) * 100.0 - 1e-9).ceil() / 100.0;
                format!(" (within {ratio:.2} of optimal: at least {lb} needed)")
            }
            Some((moves, Some(lb))) if lb as usize == moves.len() => " (optimal, proven)".to_string(),
            _ => String::new(),
        })
    }

    /// One line on the last move and the goal: optimal or not, moves against the optimum.
    pub fn verdict_line(&self) -> String {
        let Some(game) = &self.game else { return String::new() };
        if self.bound_text().is_some() {
            // no exact distance, so no verdict on a move
            return format!(
                "{} cells: no exact distances here, only solutions with their proofs",
                game.board().cells().len()
            );
        }
        let optimal = game.optimal().map_or("?".to_string(), |d| d.to_string());
        let last = match game.last_verdict() {
            Some(Verdict::Closer) => "last move: optimal (one closer)",
            Some(Verdict::Farther) => "last move: not optimal (one farther)",
            None if game.moves().is_empty() => "no move yet",
            None => "last move: ...",
        };
        format!("fewest possible: {optimal}  {last}")
    }
}
