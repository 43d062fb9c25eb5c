//! `table count`: the number of distinct optimal solutions of a board.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde::Serialize;
use slidetable::count::count_solutions;
use slidetable::{Board, Error};

use super::{open_table, parse_board_for, thousands, Opened, TableArgs, UsageError, EXIT_NO};

pub const LONG_ABOUT: &str = "\
The number of distinct optimal solutions of a board: how many different shortest sequences of
moves reach the goal.

Counted by dynamic programming down the table: from the board, level by level towards the goal,
each state one step closer receives the number of optimal walks that reach it; the goal's number
is the answer. Only the states on some optimal solution (the cone) are visited. Also printed: the
size of the cone and its widest level.

The board is given as arguments (joined together) or, with --file, as a COS 226 puzzle file (the
size N, then N rows). COS 226's puzzle07.txt (data/puzzle07.txt) has more than one.

Exit status: 0 counted; 1 the board cannot reach the goal; 2 malformed board.

Examples:
  table count 8 6 7 2 5 4 3 0 1
  table count --file data/puzzle07.txt
  table count --board 2x4 --json 1 2 3 4 5 6 0 7";

/// Arguments of `table count`.
#[derive(Args, Debug)]
pub struct CountArgs {
    /// The board: tiles row by row, 0 (or _ or .) for the blank. Several arguments are joined.
    #[arg(value_name = "TILE", num_args = 0..)]
    tiles: Vec<String>,
    #[command(flatten)]
    table: TableArgs,
    /// Read the board from a COS 226 puzzle file.
    #[arg(long, short = 'f', value_name = "FILE")]
    file: Option<PathBuf>,
    /// Print the answer as one JSON object (the count as a string: it may exceed 2^53).
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Json {
    rows: usize,
    cols: usize,
    board: Vec<u16>,
    goal: Vec<u16>,
    solvable: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    distance: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cone: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    widest_level: Option<u64>,
}

pub fn run(args: CountArgs) -> Result<ExitCode> {
    let (opened, board) = match (&args.file, args.tiles.is_empty()) {
        (Some(path), true) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
            let board =
                Board::parse_cos226(&text).with_context(|| format!("reading the puzzle in {}", path.display()))?;
            (open_table(&args.table, Some(board.shape()), true)?, board)
        }
        (Some(_), false) => bail!(UsageError("give the board either as arguments or with --file, not both".into())),
        (None, true) => {
            bail!(UsageError("no board given: write its tiles row by row, like `table count 8 6 7 2 5 4 3 0 1`".into()))
        }
        (None, false) => {
            let opened = open_table(&args.table, None, true)?;
            let board = parse_board_for(&opened.table, &opened.path, &args.tiles.join(" "))?;
            (opened, board)
        }
    };
    count(&opened, &board, args.json)
}

fn count(opened: &Opened, board: &Board, json: bool) -> Result<ExitCode> {
    let table = &opened.table;
    if board.shape() != table.header().shape {
        return Err(Error::ShapeMismatch { board: board.shape(), table: table.header().shape })
            .with_context(|| format!("counting with {}", opened.path.display()));
    }
    let goal = table.goal();
    let found = count_solutions(table, board)?;
    let mut out = std::io::stdout().lock();
    if json {
        let answer = Json {
            rows: board.shape().rows(),
            cols: board.shape().cols(),
            board: board.cells().to_vec(),
            goal: goal.cells().to_vec(),
            solvable: found.is_some(),
            distance: found.map(|c| c.distance),
            solutions: found.map(|c| c.solutions.to_string()),
            cone: found.map(|c| c.cone),
            widest_level: found.map(|c| c.widest_level),
        };
        serde_json::to_writer(&mut out, &answer)?;
        writeln!(out)?;
    } else {
        write!(out, "{}", board.grid())?;
        match found {
            None => {
                writeln!(out, "unsolvable: this board cannot reach the goal {goal}")?;
                writeln!(out, "why: {}", board.parity_to(goal).explain())?;
            }
            Some(c) => {
                let s = if c.distance == 1 { "" } else { "s" };
                writeln!(out, "distance   {} move{s} (exact; goal {goal})", c.distance)?;
                let n = thousands_u128(c.solutions);
                let what = if c.solutions == 1 { "optimal solution" } else { "distinct optimal solutions" };
                writeln!(out, "solutions  {n} {what}")?;
                writeln!(
                    out,
                    "cone       {} states on some optimal solution (widest level {})",
                    thousands(c.cone),
                    thousands(c.widest_level)
                )?;
            }
        }
    }
    Ok(if found.is_some() { ExitCode::SUCCESS } else { ExitCode::from(EXIT_NO) })
}

/// [`thousands`] for counts that may pass `u64`.
fn thousands_u128(n: u128) -> String {
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
