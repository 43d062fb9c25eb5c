//! Argument parsing and the parts the subcommands share: finding and opening tables, exit codes,
//! number formatting.

use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{anyhow, Context, Result};
use clap::{Args, Parser, Subcommand};
use memmap2::Mmap;
use slidetable::{Board, Error, Goal, Shape, Table};

mod build;
mod input;
mod query;
mod solve;
mod stats;
mod verify;

/// Exit status: the answer is "no" (an unsolvable board, a table that fails verification).
pub const EXIT_NO: u8 = 1;
/// Exit status: malformed input or arguments.
pub const EXIT_USAGE: u8 = 2;
/// Exit status: a table file or I/O problem (missing, corrupt, unwritable).
pub const EXIT_FILE: u8 = 3;

/// Perfect lookup tables for sliding-tile puzzles.
///
/// A table holds the exact distance to the goal of every reachable state of a board with up to 12
/// cells (181,440 states for the 8-puzzle), one byte each. Build it once, then ask it anything.
///
/// Boards are written as numbers separated by spaces, commas or slashes, or as one digit string;
/// the blank is 0, _ or . (all of `8 6 7 2 5 4 3 0 1`, `8,6,7/2,5,4/3,0,1`, `867254301` and
/// `8 6 7/2 5 4/3 _ 1` are the same board). Moves are named by the direction the blank moves:
/// U D L R.
///
/// Exit status: 0 success; 1 the answer is no (unsolvable board, table fails verification);
/// 2 malformed input or arguments; 3 table file or I/O problem; 4 a search gave up at its limit.
#[derive(Parser, Debug)]
#[command(name = "table", version, about, long_about, max_term_width = 100)]
#[command(after_help = "Start with `table build`, then `table query 8 6 7 2 5 4 3 0 1` and `table stats`.")]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Build a table by breadth-first search from the goal and write it to a file.
    #[command(long_about = build::LONG_ABOUT)]
    Build(build::BuildArgs),
    /// The exact distance of a board, an optimal solution, and the optimal first moves.
    #[command(long_about = query::LONG_ABOUT)]
    Query(query::QueryArgs),
    /// The distribution of distances over all states: figure 3 of the 1987 report.
    #[command(long_about = stats::LONG_ABOUT)]
    Stats(stats::StatsArgs),
    /// Prove that a table file is the exact distance function of its goal.
    #[command(long_about = verify::LONG_ABOUT)]
    Verify(verify::VerifyArgs),
    /// Solve a board of any size by heuristic search (A*, IDA*, ...), with statistics.
    #[command(long_about = solve::LONG_ABOUT)]
    Solve(solve::SolveArgs),
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Build(args) => build::run(args),
        Command::Query(args) => query::run(args),
        Command::Stats(args) => stats::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Solve(args) => solve::run(args),
    }
}

/// Board shape and goal, shared by every subcommand.
#[derive(Args, Debug, Clone, Default)]
pub struct BoardArgs {
    /// Board shape, rows x columns. Tables: 2x2 2x3 3x2 2x4 4x2 3x3 2x5 5x2 2x6 6x2 3x4 4x3;
    /// `solve`: any from 2x2 to 127x127. [default: 3x3, the table's shape, or the board's]
    #[arg(long, value_name = "RxC")]
    board: Option<String>,
    /// Goal: blank-last (1 2 3 / 4 5 6 / 7 8 _), blank-first (_ 1 2 / 3 4 5 / 6 7 8), snail
    /// (1 2 3 / 8 _ 4 / 7 6 5, the clockwise spiral), or any arrangement in board syntax.
    /// [default: blank-last, or the table's goal]
    #[arg(long, value_name = "GOAL")]
    goal: Option<String>,
}

impl BoardArgs {
    fn shape(&self) -> Result<Option<Shape>> {
        self.board.as_deref().map(Shape::parse).transpose().map_err(Into::into)
    }

    /// The shape and goal asked for, with the defaults (3x3, blank-last) filled in.
    pub fn resolve(&self) -> Result<(Shape, Goal)> {
        self.resolve_with(None)
    }

    /// As [`BoardArgs::resolve`], with `fallback` (the shape of a board file) used when `--board`
    /// is not given; the goal is parsed for the shape that results.
    pub fn resolve_with(&self, fallback: Option<Shape>) -> Result<(Shape, Goal)> {
        let shape = self.shape()?.or(fallback).unwrap_or(Shape::EIGHT);
        let goal = match &self.goal {
            Some(g) => Goal::parse(shape, g)?,
            None => Goal::BlankLast,
        };
        Ok((shape, goal))
    }

    fn given(&self) -> bool {
        self.board.is_some() || self.goal.is_some()
    }
}

/// Where to find a table: an explicit path, or the default name for a board and goal.
#[derive(Args, Debug, Clone, Default)]
pub struct TableArgs {
    /// The table file. [default: eight.table for 3x3 blank-last, else RxC-GOAL.table, as
    /// `table build` names it]
    #[arg(long, short = 't', value_name = "PATH")]
    table: Option<PathBuf>,
    #[command(flatten)]
    board: BoardArgs,
}

/// The file name `table build` uses when `-o` is not given: `eight.table` for the 8-puzzle with
/// the blank last, otherwise `RxC-GOAL.table` (`2x4-blank-last.table`, `3x3-snail.table`,
/// `3x3-goal-123804765.table`).
pub fn default_table_name(shape: Shape, goal: &Goal) -> PathBuf {
    if shape == Shape::EIGHT && *goal == Goal::BlankLast {
        PathBuf::from("eight.table")
    } else {
        PathBuf::from(format!("{shape}-{}.table", goal.slug()))
    }
}

/// The `table build` command line that makes the table `args` asks for.
fn build_command(shape: Shape, goal: &Goal, path: &Path) -> String {
    let mut cmd = String::from("table build");
    if shape != Shape::EIGHT {
        cmd.push_str(&format!(" --board {shape}"));
    }
    match goal {
        Goal::BlankLast => {}
        Goal::Custom(b) => {
            cmd.push_str(&format!(" --goal '{}'", b.cells().iter().map(u16::to_string).collect::<Vec<_>>().join(" ")))
        }
        g => cmd.push_str(&format!(" --goal {g}")),
    }
    if path != default_table_name(shape, goal) {
        cmd.push_str(&format!(" -o {}", path.display()));
    }
    cmd
}

/// A table's bytes: memory-mapped from its file, or built in memory just now.
pub enum Bytes {
    /// A mapped file.
    Map(Mmap),
    /// Built in memory.
    Owned(Vec<u8>),
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        match self {
            Bytes::Map(m) => m,
            Bytes::Owned(v) => v,
        }
    }
}

/// An opened table and where it came from.
pub struct Opened {
    pub table: Table<Bytes>,
    pub path: PathBuf,
}

/// Opens the table `args` names. With `build_missing`, a missing default 3x3 table is built on
/// the spot (it takes milliseconds), saved under its default name if possible, and announced on
/// stderr. A shape given with `fallback_shape` (from a board file) picks the default name when
/// neither `--table` nor `--board` is given.
pub fn open_table(args: &TableArgs, fallback_shape: Option<Shape>, build_missing: bool) -> Result<Opened> {
    let (shape, goal) = args.board.resolve_with(fallback_shape)?;
    let explicit = args.table.is_some();
    let path = args.table.clone().unwrap_or_else(|| default_table_name(shape, &goal));
    if !path.exists() {
        if !explicit && build_missing && shape == Shape::EIGHT {
            return build_on_the_spot(shape, &goal, path);
        }
        let cmd = build_command(shape, &goal, &path);
        let hint = if explicit && !args.board.given() {
            format!("build it with `table build -o {}` (add --board/--goal for other boards)", path.display())
        } else {
            format!("build it with `{cmd}`")
        };
        return Err(anyhow!("no table at {}: {hint}", path.display()));
    }
    let opened = slidetable::open(&path).with_context(|| format!("opening {}", path.display()))?;
    let table = Table::new(Bytes::Map(opened.into_inner())).with_context(|| format!("opening {}", path.display()))?;
    // When the user named a board or goal as well as a file, they must agree.
    if explicit {
        let h = table.header();
        if let Some(s) = args.board.shape()? {
            if s != h.shape {
                return Err(anyhow!(Error::ShapeMismatch { board: s, table: h.shape }))
                    .with_context(|| format!("{} is a {} table, not {s}", path.display(), h.shape));
            }
        }
        if let Some(text) = &args.board.goal {
            let want = Goal::parse(h.shape, text)?.board(h.shape)?;
            if want != h.goal {
                return Err(anyhow!(Error::BadGoal(format!("{} has goal {}, not {want}", path.display(), h.goal))));
            }
        }
    }
    Ok(Opened { table, path })
}

fn build_on_the_spot(shape: Shape, goal: &Goal, path: PathBuf) -> Result<Opened> {
    let start = std::time::Instant::now();
    let built = slidetable::build(&goal.board(shape)?, |_| {})?;
    let ms = start.elapsed().as_secs_f64() * 1e3;
    match built.write(&path) {
        Ok(()) => eprintln!(
            "table: {} was missing; built it in {ms:.1} ms and saved it ({} states)",
            path.display(),
            thousands(built.header().entries)
        ),
        Err(e) => eprintln!(
            "table: {} was missing; built it in {ms:.1} ms but could not save it ({e}); answering from memory",
            path.display()
        ),
    }
    let table = Table::new(Bytes::Owned(built.into_inner()))?;
    Ok(Opened { table, path })
}

/// Parses a board for a table's shape, saying which table when the count is wrong.
pub fn parse_board_for(table: &Table<Bytes>, path: &Path, text: &str) -> Result<Board> {
    let shape = table.header().shape;
    Board::parse(shape, text).map_err(|e| match &e {
        Error::BadBoard(slidetable::BoardError::WrongCount { .. }) => anyhow!(UsageError(format!(
            "{e} ({} is the {shape} table; for another board give --board RxC or --table PATH)",
            path.display()
        ))),
        _ => anyhow!(e),
    })
}

/// The exit status for an error: 2 for bad input, 3 for files and I/O.
pub fn exit_code(err: &anyhow::Error) -> u8 {
    for cause in err.chain() {
        if let Some(e) = cause.downcast_ref::<Error>() {
            return match e {
                Error::BadShape(_)
                | Error::BadBoard(_)
                | Error::BadGoal(_)
                | Error::TableTooLarge { .. }
                | Error::ShapeMismatch { .. } => EXIT_USAGE,
                _ => EXIT_FILE,
            };
        }
        if cause.downcast_ref::<UsageError>().is_some() {
            return EXIT_USAGE;
        }
    }
    EXIT_FILE
}

/// A usage mistake found after clap's own checks.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Whether the error is a write to a closed pipe (`table stats | head`), which is not an error.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|c| c.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe))
}

/// The error chain on one line: outermost context first, causes after colons, repeats dropped.
pub fn one_line(err: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for cause in err.chain() {
        let s = cause.to_string();
        if !parts.iter().any(|p| p.contains(&s)) {
            parts.push(s);
        }
    }
    parts.join(": ").replace('\n', " ")
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
