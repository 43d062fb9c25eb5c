//! `table play`: the puzzle in the terminal, full screen, with the exact distance after every
//! move. `app.rs` holds the state and what each key does, `ui.rs` draws it; this file parses the
//! arguments, finds the tables, and owns the terminal (raw mode, alternate screen, mouse),
//! which it gives back on every way out: a normal exit, an error, a panic.

pub mod app;
#[cfg(test)]
mod tests;
pub mod ui;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::Args;
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use ratatui::crossterm::execute;
use slidetable::game::Oracle;
use slidetable::{Goal, Shape};

use self::app::{App, OracleFactory, Preset};
use super::input::{presets, BoardInput};
use super::{BoardArgs, UsageError};
// for ui.rs (the benchmark gives it its own)
use super::thousands;

pub const LONG_ABOUT: &str = "\
Play the puzzle in the terminal, full screen, with the exact distance left after every move.

The start screen chooses the board (every table size, and 4x4 and 5x5), the goal, and where to
start: a preset, a board typed in (checked as you type), or a scramble at an exact distance (drawn
uniformly from the boards at that distance, from the table). Given a board, --preset or
--scramble, play starts at once.

Keys in play: the arrows or W A S D slide a tile into the blank (c switches to moving the blank);
h shows every optimal move; u undoes, r redoes; a click on a tile in the blank's row or column
slides it; v turns on h j k l for moving (then ? shows the optimal moves); x solves: choose the
algorithm (A*, IDA*, greedy, weighted, within 1.5 of optimal, reduce, beam) and the heuristic
(misplaced tiles, Manhattan, linear conflict, the exact table or pattern tables), watch its node
count (Esc cancels), then its statistics and the solution played move by move (space plays or
pauses, Left/Right step, +/- change the speed); n starts a new game; q quits. The status line
reads `distance: N  moves: M` (past the 24-puzzle, `a solution from here: N moves (within X of
optimal: at least L needed)`).

Distances come from the perfect table of the board and goal (the file `table build` names, in the
current directory, or built in memory up to 10 cells); past that, from IDA* with the pattern
tables found in --dir (`table build --pattern`), else (up to 16 cells) with linear conflict, on a
second thread, so the screen never waits. Past 25 cells (a board given on the command line, such
as --board 6x6 and its tiles), and past 16 without pattern tables, no distance is exact: each
position gets a solution from the search `table solve` runs by default for the size (2 s at
most), its proof beside it, and h shows its first move.

Needs a terminal: with its input or output not a terminal, it says so and exits 2.

Examples:
  table play
  table play 8 6 7 2 5 4 3 0 1
  table play --preset hard
  table play --board 3x4 --scramble 30";

/// Arguments of `table play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    input: BoardInput,
    #[command(flatten)]
    board: BoardArgs,
    /// Start from a board this many moves from the goal, drawn uniformly from all such boards (a
    /// random walk of that many moves where there is no table).
    #[arg(long, value_name = "N")]
    scramble: Option<u32>,
    /// Where the pattern tables for 4x4 and 5x5 are. [default: the current directory]
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// The seed of the scrambles. [default: from the clock]
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
}

pub fn run(args: PlayArgs) -> Result<ExitCode> {
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
    });
    let dir = args.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    let presets: Vec<Preset> = presets()
        .into_iter()
        .filter_map(|p| {
            let board = slidetable::Board::parse(Shape::EIGHT, &p.board).ok()?;
            let goal = Goal::parse(Shape::EIGHT, &p.goal).ok()?;
            Some(Preset { name: p.name, board, goal })
        })
        .collect();
    let mut app = App::new(presets, factory(dir), seed);
    // a board on the command line starts the game at once; errors here are ordinary ones
    if args.input.given() || args.scramble.is_some() {
        if let Some(d) = args.scramble {
            let (shape, goal) = args.board.resolve()?;
            app.menu.shape = app::SHAPES
                .iter()
                .position(|&(r, c)| (r, c) == (shape.rows(), shape.cols()))
                .ok_or_else(|| UsageError(format!("table play offers 2x2 to 12 cells, 4x4 and 5x5, not {shape}")))?;
            app.menu.goal = app::GOALS.iter().position(|g| *g == goal).unwrap_or(0);
            app.menu.kind = app::StartKind::Scramble;
            app.menu.distance = d;
            app.start_from_menu();
            if app.game.is_none() {
                bail!(UsageError(app.message.clone()));
            }
        } else {
            let given = args.input.read(&args.board, None)?;
            app.start_game(given.board, &given.goal).map_err(UsageError)?;
        }
    }
    // checked after the arguments, so that a bad board is named first
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        bail!(UsageError(
            "table play needs a terminal (its input or output is not one); to answer from a script use `table query` or `table solve`"
                .into()
        ));
    }
    let mut terminal = ratatui::init();
    let _ = execute!(std::io::stdout(), EnableMouseCapture);
    let outcome = event_loop(&mut terminal, &mut app);
    let _ = execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::restore();
    outcome?;
    Ok(ExitCode::SUCCESS)
}

fn event_loop(terminal: &mut ratatui::DefaultTerminal, app: &mut App) -> Result<()> {
    // the panic hook ratatui::init installed restores the screen; the mouse is given back too
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(std::io::stdout(), DisableMouseCapture);
        previous(info);
    }));
    while !app.quit {
        terminal.draw(|frame| ui::draw(frame, app))?;
        // a short wait while a search works, so its answer shows as soon as it comes
        if event::poll(Duration::from_millis(if app.busy() { 30 } else { 250 }))? {
            match event::read()? {
                Event::Key(key) => app.on_key(key),
                Event::Mouse(mouse) => app.on_mouse(mouse),
                _ => {}
            }
        }
        app.tick();
    }
    Ok(())
}

/// The game's oracle for each board and goal, as the library chooses it
/// ([`slidetable::solver::game_oracle`]): a perfect table, or IDA* with the pattern tables found in
/// `dir`.
fn factory(dir: PathBuf) -> OracleFactory {
    Box::new(move |shape: Shape, goal: &Goal| -> Result<Arc<dyn Oracle>, String> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        slidetable::solver::game_oracle(goal, shape, &dir, threads).map_err(|e| e.to_string())
    })
}
