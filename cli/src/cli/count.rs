//! `table count`: the number of distinct optimal solutions of a board.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;
use slidetable::lab::count::count_solutions;
use slidetable::{Board, Error};

use super::input::{preset_list, BoardInput};
use super::{open_table, thousands, BoardJson, Opened, TableArgs, EXIT_NO};

pub const LONG_ABOUT: &str = "\
The number of distinct optimal solutions of a board: how many different shortest sequences of
moves reach the goal.

Counted by dynamic programming down the table: from the board, level by level towards the goal,
each state one step closer receives the number of optimal walks that reach it; the goal's number
is the answer. Only the states on some optimal solution (the cone) are visited. Also printed: the
size of the cone and its widest level.

The board is given as arguments (joined together), with --file as a COS 226 puzzle file (the
size N, then N rows), or with --preset NAME (`--preset list`). COS 226's puzzle07.txt
(data/puzzle07.txt) has more than one. A preset is counted towards its own goal unless --goal or
--table says otherwise.

Exit status: 0 counted; 1 the board cannot reach the goal; 2 malformed board.

Examples:
  table count 8 6 7 2 5 4 3 0 1
  table count --file data/puzzle07.txt
  table count --preset hardest-a
  table count --board 2x4 --json 1 2 3 4 5 6 0 7";

/// Arguments of `table count`.
#[derive(Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    input: BoardInput,
    #[command(flatten)]
    table: TableArgs,
    /// Print the answer as one JSON object (the count as a string: it may exceed 2^53).
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Json {
    #[serde(flatten)]
    head: BoardJson,
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
    if args.input.wants_list() {
        print!("{}", preset_list());
        return Ok(ExitCode::SUCCESS);
    }
    // A named table decides the shape of a board of tiles; otherwise the board decides the table.
    let named = match &args.table.table {
        Some(_) => Some(open_table(&args.table, None, true)?),
        None => None,
    };
    let given = args.input.read(&args.table.board, named.as_ref().map(|o| o.table.header().shape))?;
    let shape = given.board.shape();
    if shape.cells() > slidetable::index::rank::MAX_TABLE_CELLS {
        return Err(Error::TableTooLarge { shape, cells: shape.cells() })
            .context("counting needs a perfect table (`table solve` searches boards of any size)");
    }
    let opened = match named {
        Some(opened) => opened,
        None => {
            let mut table = args.table.clone();
            if let (None, Some(p)) = (&table.board.goal, &given.preset) {
                table.board.goal = Some(p.goal.clone());
            }
            open_table(&table, Some(given.board.shape()), true)?
        }
    };
    count(&opened, &given.board, args.json)
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
            head: BoardJson::new(board, goal, found.is_some()),
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
                let n = thousands(c.solutions);
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
