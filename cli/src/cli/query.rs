//! `table query`: exact distances, optimal solutions and optimal first moves, one board or a batch.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde::Serialize;
use slidetable::index::MAX_TABLE_CELLS;
use slidetable::puzzle::board::{moves_letters, moves_to_string};
use slidetable::solver::TableBytes;
use slidetable::table::batch::{answer_lines, BatchError};
use slidetable::{Board, Dir, Error, Goal, Shape, Table};

use super::{open_table, parse_board_for, BoardArgs, BoardJson, Opened, TableArgs, UsageError, EXIT_NO, EXIT_USAGE};

pub const LONG_ABOUT: &str = "\
The exact distance of a board, an optimal solution, and every optimal first move.

The board is given as arguments (joined together) or, with --file, as a COS 226 puzzle file (the
size N, then N rows). The solution is found by hill-climbing down the table and checks itself: if
any step does not go down by exactly one, the table is reported corrupt instead of answering.
Moves are the directions the blank moves (U D L R); the tiles that slide are listed too.

If eight.table is missing, it is built on the spot (milliseconds) and saved. Perfect tables go up
to 15 cells (2x7, 3x5): a larger board (a 15-puzzle) is refused before any table is built, and the
message gives the `table solve` command that solves it.

With --table naming a pattern table (`table build --pattern`), the answer is the board's pattern
distance: the fewest moves of the group's tiles that bring them home, the others not counted (a
lower bound on the true distance; JSON fields `distance` and `group`).

Batch mode (--batch) reads one board per line from standard input (or --file) and prints one line
per input line, in order: the distance, `unsolvable`, or `error` (the reason and line number go to
stderr). With --solve each answer is `<distance> <moves>`, moves a string of U/D/L/R or `-` for a
board already solved. Exit 0, or 2 if any line was malformed.

Exit status for one board: 0 answered; 1 the board cannot reach the goal; 2 malformed board.

Examples:
  table query 8 6 7 2 5 4 3 0 1
  table query '8 6 7/2 5 4/3 _ 1' --steps
  table query --file data/puzzle04.txt --json
  table build --board 2x4 -q && table query --board 2x4 1 2 3 4 5 6 0 7
  table query --preset worst
  printf '867254301\\n123456780\\n' | table query --batch --solve
  printf '867254301\\n123456780\\n' | table query --batch --json";

/// Arguments of `table query`.
#[derive(Args, Debug)]
pub struct QueryArgs {
    /// The board: tiles row by row, 0 (or _ or .) for the blank. Several arguments are joined.
    #[arg(value_name = "TILE", num_args = 0..)]
    tiles: Vec<String>,
    #[command(flatten)]
    table: TableArgs,
    /// Read the board from a COS 226 puzzle file (`-`: standard input); with --batch, the file of
    /// boards, one per line.
    #[arg(long, short = 'f', value_name = "FILE")]
    file: Option<PathBuf>,
    /// A named board (`--preset list` lists them); its goal is used unless --goal is given.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["file", "batch"])]
    preset: Option<String>,
    /// Answer one board per line of standard input (or --file), one line of output each.
    #[arg(long, conflicts_with = "steps")]
    batch: bool,
    /// With --batch: print `<distance> <moves>` for each board.
    #[arg(long, requires = "batch")]
    solve: bool,
    /// Print the answer as a JSON object (with --batch: one object per input line).
    #[arg(long)]
    json: bool,
    /// One board: also print every board along the solution.
    #[arg(long, conflicts_with = "json")]
    steps: bool,
}

pub fn run(mut args: QueryArgs) -> Result<ExitCode> {
    if let Some(name) = &args.preset {
        if name.eq_ignore_ascii_case("list") {
            print!("{}", super::input::preset_list());
            return Ok(ExitCode::SUCCESS);
        }
        if !args.tiles.is_empty() {
            bail!(UsageError("give the board either as arguments or with --preset, not both".into()));
        }
        let preset = super::input::preset(name)?;
        args.table.board.goal.get_or_insert(preset.goal);
        args.tiles = vec![preset.board];
    }
    if let Some(path) = args.table.table.as_ref().filter(|p| super::pattern::is_pattern_file(p)) {
        if args.batch || args.steps {
            bail!(UsageError(format!(
                "{} is a pattern table: it gives one board's pattern distance (no --batch or --steps)",
                path.display()
            )));
        }
        let text = match &args.file {
            Some(f) => {
                let text = std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))?;
                Board::parse_cos226(&text)
                    .with_context(|| format!("reading the puzzle in {}", f.display()))?
                    .to_string()
            }
            None if args.tiles.is_empty() => bail!(UsageError("no board given: write its tiles row by row".into())),
            None => args.tiles.join(" "),
        };
        return super::pattern::query(path, &text, args.json);
    }
    if args.batch {
        if !args.tiles.is_empty() {
            bail!(UsageError("--batch reads boards from standard input or --file, not from arguments".into()));
        }
        let opened = open_table(&args.table, None, true)?;
        let input: Box<dyn Read> = match &args.file {
            Some(p) if p.as_os_str() != "-" => {
                Box::new(File::open(p).with_context(|| format!("opening {}", p.display()))?)
            }
            _ => Box::new(io::stdin().lock()),
        };
        let input = BufReader::with_capacity(1 << 20, input);
        if args.json {
            return batch_json(&opened, input, args.solve);
        }
        return batch(&opened, input, args.solve);
    }
    let (opened, board) = match (&args.file, args.tiles.is_empty()) {
        (Some(path), true) => {
            let text = if path.as_os_str() == "-" {
                io::read_to_string(io::stdin().lock()).context("reading the puzzle from standard input")?
            } else {
                std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?
            };
            let board =
                Board::parse_cos226(&text).with_context(|| format!("reading the puzzle in {}", path.display()))?;
            if args.table.table.is_none() {
                let shape = args.table.board.shape()?.unwrap_or(board.shape());
                past_the_tables(shape, &args.table.board, &format!("--file {}", path.display()))?;
            }
            let opened = open_table(&args.table, Some(board.shape()), true)?;
            (opened, board)
        }
        (Some(_), false) => bail!(UsageError("give the board either as arguments or with --file, not both".into())),
        (None, true) => {
            let hint = if io::stdin().is_terminal() {
                ""
            } else {
                " (standard input is not read for one board: give --batch for one board per line, or --file - for a COS 226 puzzle)"
            };
            bail!(UsageError(format!(
                "no board given: write its tiles row by row, like `table query 8 6 7 2 5 4 3 0 1`{hint}"
            )))
        }
        (None, false) => {
            let text = args.tiles.join(" ");
            if args.table.table.is_none() {
                let shape = args.table.board.shape()?.or_else(|| Board::square_shape_of(&text));
                if let Some(shape) = shape {
                    let quoted = if text.chars().all(|c| c.is_ascii_digit() || c == ' ') {
                        text.clone()
                    } else {
                        format!("'{text}'")
                    };
                    past_the_tables(shape, &args.table.board, &quoted)?;
                } else {
                    which_board(&text)?;
                }
            }
            let opened = open_table(&args.table, None, true)?;
            let board = parse_board_for(&opened.table, &opened.path, &text)?;
            (opened, board)
        }
    };
    single(&opened, &board, args.json, args.steps)
}

/// Refuses a board past [`MAX_TABLE_CELLS`] before any table is looked for or built: no perfect
/// table holds one (16 tiles would otherwise build eight.table first, then fail on the count).
/// `board` is what `table solve` is then told.
fn past_the_tables(shape: Shape, given: &BoardArgs, board: &str) -> Result<()> {
    if shape.cells() <= MAX_TABLE_CELLS {
        return Ok(());
    }
    let mut solve = String::from("table solve");
    if shape.rows() != shape.cols() {
        solve.push_str(&format!(" --board {shape}"));
    }
    if let Some(goal) = &given.goal {
        let simple = goal.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
        solve.push_str(&if simple { format!(" --goal {goal}") } else { format!(" --goal '{goal}'") });
    }
    bail!(UsageError(format!(
        "a {shape} board has {} cells, and perfect tables go up to {MAX_TABLE_CELLS} cells: \
         solve it by search instead (pattern databases on 4x4 and 5x5): `{solve} {board}`",
        shape.cells()
    )))
}

/// Refuses, before eight.table is looked for or built, tiles that make no square board and come
/// without --board or --table: 14 tiles are a 2x7 or a 7x2, and the command cannot tell which.
/// Rows of unequal length (`8,6,7/2,5,4/3,0`) are a board with a tile left out, not another
/// board: the board parser judges them.
fn which_board(text: &str) -> Result<()> {
    let count =
        |t: &str| t.split(|c: char| c.is_whitespace() || ",;[]()".contains(c)).filter(|t| !t.is_empty()).count();
    let rows: Vec<usize> = text.split('/').map(count).filter(|&r| r > 0).collect();
    if rows.windows(2).any(|w| w[0] != w[1]) {
        return Ok(());
    }
    let n: usize = rows.iter().sum();
    let shapes: Vec<String> =
        (2..n).filter(|r| n.is_multiple_of(*r) && n / r >= 2).map(|r| format!("{r}x{}", n / r)).collect();
    if n == 9 || shapes.is_empty() {
        return Ok(());
    }
    // one tile short of a square board (8, 15, 24): most likely a tile or the blank left out
    let side = (2..=5).find(|k| k * k == n + 1);
    let square = side.map(|k| format!("; a {k}x{k} board takes {}, the blank included", k * k)).unwrap_or_default();
    bail!(UsageError(format!(
        "{n} tiles given: say which board with --board ({}), or give its table with --table{square}",
        shapes.join(" or ")
    )))
}

#[derive(Serialize)]
struct Answer {
    #[serde(flatten)]
    head: BoardJson,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    distance: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tiles: Option<Vec<u16>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    optimal_moves: Option<Vec<String>>,
}

impl Answer {
    /// The fields every answer has; the rest empty.
    fn new(board: &Board, goal: &Board, solvable: bool) -> Answer {
        Answer {
            head: BoardJson::new(board, goal, solvable),
            reason: None,
            distance: None,
            solution: None,
            tiles: None,
            optimal_moves: None,
        }
    }
}

fn single(opened: &Opened, board: &Board, json: bool, steps: bool) -> Result<ExitCode> {
    let table = &opened.table;
    let goal = table.goal();
    let shape = board.shape();
    if shape != table.header().shape {
        return Err(Error::ShapeMismatch { board: shape, table: table.header().shape })
            .with_context(|| format!("querying {}", opened.path.display()));
    }
    let mut out = io::stdout().lock();
    let solution = table.solve(board)?;
    let Some(solution) = solution else {
        let reason = board.parity_to(goal).explain();
        if json {
            let answer = Answer { reason: Some(reason), ..Answer::new(board, goal, false) };
            serde_json::to_writer(&mut out, &answer)?;
            writeln!(out)?;
        } else {
            write!(out, "{}", board.grid())?;
            writeln!(out, "unsolvable: this board cannot reach the goal {goal}")?;
            writeln!(out, "why: {reason}")?;
            let instead: Vec<String> = Goal::reachable_instead(board, goal).iter().map(Goal::to_string).collect();
            if let Some(hint) = super::other_goal_hint(&instead) {
                writeln!(out, "{hint} (with a table of that goal)")?;
            }
        }
        return Ok(ExitCode::from(EXIT_NO));
    };
    let first = table.optimal_moves(board)?.unwrap_or_default();
    let d = solution.moves.len();
    if json {
        let answer = Answer {
            distance: Some(d as u8),
            solution: Some(moves_letters(&solution.moves)),
            tiles: Some(solution.tiles.clone()),
            optimal_moves: Some(first.iter().map(|m| m.letter().to_string()).collect()),
            ..Answer::new(board, goal, true)
        };
        serde_json::to_writer(&mut out, &answer)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    write!(out, "{}", board.grid())?;
    writeln!(out, "distance        {d} move{} (exact; goal {goal})", if d == 1 { "" } else { "s" })?;
    if d == 0 {
        writeln!(out, "already solved")?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "solution        {}   (the blank moves)", moves_to_string(&solution.moves))?;
    let tiles: Vec<String> = solution.tiles.iter().map(u16::to_string).collect();
    writeln!(out, "tiles that move {}", tiles.join(" "))?;
    let options: Vec<String> = first.iter().map(|&m| describe_move(board, m)).collect();
    writeln!(out, "optimal first moves ({}): {}", first.len(), options.join(", "))?;
    if steps {
        write_steps(&mut out, board, &solution.moves)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Every board along `moves` from `board`, each after a line `move k (D): n to go`.
pub fn write_steps(out: &mut impl Write, board: &Board, moves: &[Dir]) -> io::Result<()> {
    let mut b = board.clone();
    for (k, &m) in moves.iter().enumerate() {
        b.apply(m);
        writeln!(out, "\nmove {} ({}): {} to go", k + 1, m.letter(), moves.len() - k - 1)?;
        write!(out, "{}", b.grid())?;
    }
    Ok(())
}

/// Plays a solution in place on a terminal: each board replaces the one before, `delay` apart,
/// under a line naming the move (`table solve --animate`).
pub fn animate(out: &mut impl Write, board: &Board, moves: &[Dir], delay: std::time::Duration) -> io::Result<()> {
    let rows = board.shape().rows();
    let n = moves.len();
    let mut b = board.clone();
    writeln!(out, "\nstart: {n} moves to go")?;
    write!(out, "{}", b.grid())?;
    out.flush()?;
    for (k, &m) in moves.iter().enumerate() {
        std::thread::sleep(delay);
        let line = format!("move {}/{n}: {}, {} to go", k + 1, describe_move(&b, m), n - k - 1);
        b.apply(m);
        // up over the last frame (its line and its rows), clear, draw the next
        write!(out, "\x1b[{}A\x1b[J{line}\n{}", rows + 1, b.grid())?;
        out.flush()?;
    }
    Ok(())
}

/// `U (tile 5 slides down)`.
fn describe_move(board: &Board, dir: Dir) -> String {
    let tile = board.moved(dir).map_or(0, |b| board.cells()[b.blank()]);
    let slides = match dir {
        Dir::Up => "down",
        Dir::Down => "up",
        Dir::Left => "right",
        Dir::Right => "left",
    };
    format!("{} (tile {tile} slides {slides})", dir.letter())
}

#[derive(Serialize)]
struct BatchLine {
    line: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    distance: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unsolvable: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// `--batch --json`: one object per input line, in order (the plain batch's fast path is text).
fn batch_json(opened: &Opened, input: impl BufRead, solve: bool) -> Result<ExitCode> {
    let table = &opened.table;
    let shape = table.header().shape;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut malformed = 0u64;
    for (i, line) in input.lines().enumerate() {
        let n = i as u64 + 1;
        let line = line.with_context(|| format!("reading line {n}"))?;
        let mut answer = BatchLine { line: n, distance: None, solution: None, unsolvable: None, error: None };
        let solved = Board::parse(shape, &line).and_then(|b| {
            if solve {
                table
                    .solve(&b)
                    .map(|s| s.map(|s| (s.moves.len() as u8, Some(s.moves.iter().map(|d| d.letter()).collect()))))
            } else {
                table.distance(&b).map(|d| d.map(|d| (d, None)))
            }
        });
        match solved {
            Ok(Some((d, moves))) => {
                answer.distance = Some(d);
                answer.solution = moves;
            }
            Ok(None) => answer.unsolvable = Some(true),
            Err(e @ Error::Corrupt { .. }) => return Err(e.into()),
            Err(e) => {
                malformed += 1;
                eprintln!("table: line {n}: {e}");
                answer.error = Some(e.to_string());
            }
        }
        serde_json::to_writer(&mut out, &answer)?;
        writeln!(out)?;
    }
    out.flush()?;
    Ok(if malformed > 0 { ExitCode::from(EXIT_USAGE) } else { ExitCode::SUCCESS })
}

fn batch(opened: &Opened, input: impl BufRead, solve: bool) -> Result<ExitCode> {
    let table: &Table<TableBytes> = &opened.table;
    let on_error = |line: u64, e: &Error| eprintln!("table: line {line}: {e}");
    let summary = match answer_lines(table, input, io::stdout().lock(), solve, on_error) {
        Ok(summary) => summary,
        Err(BatchError::Read { line, source }) => return Err(source).context(format!("reading line {line}")),
        Err(BatchError::Write(e)) => return Err(e.into()),
        Err(BatchError::Table(e)) => return Err(e.into()),
        Err(e) => return Err(e.into()),
    };
    Ok(if summary.malformed > 0 { ExitCode::from(EXIT_USAGE) } else { ExitCode::SUCCESS })
}
