//! `table sample`: boards drawn uniformly at random from the states at one exact distance.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde::Serialize;
use slidetable::lab::sample::sample_depth;
use slidetable::Board;

use super::{open_table, TableArgs, UsageError};

pub const LONG_ABOUT: &str = "\
Boards drawn uniformly at random from all the states at exactly one distance from the goal.

The COUNT boards are distinct, every set of COUNT states at that depth is equally likely, and so
is every order. The same --seed gives the same boards on every machine and in every version: the
draws come from SplitMix64, written out in slidetable itself (src/sample.rs), not from a crate
whose stream may change.

Output: one board per line, tiles row by row with 0 for the blank, the syntax `table query
--batch` reads. --json prints one object instead. --out-dir DIR writes each board as a COS 226
puzzle file instead (DIR/d20-001.txt, ...; the size, then the rows), for solvers that read that
format; it never overwrites a file.

Exit status 2 if the table has fewer than COUNT states at that depth (none at all past the
maximum depth; `table stats` lists the depths). A two-bit table past 12 cells (2x7, 7x2) is drawn
from at random, each draw walked down to its distance, so a depth holding fewer than one state in
2^20 of its parity is refused: for the 2x7, depths 16 to 101 are drawn from (the shallowest and
deepest ones in seconds), and `table stats --hardest` lists the deepest states.

A missing eight.table (or other 3x3 table) is built on the spot.

Examples:
  table sample --depth 24 --count 100 --seed 7
  table sample --depth 20 --count 5 | table query --batch --solve
  table sample --goal blank-first --depth 12 --count 3 --json
  table sample --depth 28 --count 10 --out-dir boards";

/// Arguments of `table sample`.
#[derive(Args, Debug)]
pub struct SampleArgs {
    /// The exact distance of every board drawn.
    #[arg(long, short = 'd', value_name = "D")]
    depth: u8,
    /// How many distinct boards to draw.
    #[arg(long, short = 'n', value_name = "K", default_value_t = 1)]
    count: usize,
    /// The seed of the random draws: the same seed, the same boards.
    #[arg(long, short = 's', value_name = "S", default_value_t = DEFAULT_SEED)]
    seed: u64,
    #[command(flatten)]
    table: TableArgs,
    /// Print one JSON object: the table's shape and goal, the depth, the seed and the boards.
    #[arg(long)]
    json: bool,
    /// Write each board as a COS 226 puzzle file in DIR (created if missing), named by depth and
    /// number (d24-001.txt, d24-002.txt, ...), and print the file names. Existing files are never
    /// overwritten.
    #[arg(long, value_name = "DIR", conflicts_with = "json")]
    out_dir: Option<std::path::PathBuf>,
}

/// The seed when none is given (`table experiment` uses it too).
pub const DEFAULT_SEED: u64 = 1;

#[derive(Serialize)]
struct Json {
    rows: usize,
    cols: usize,
    goal: Vec<u16>,
    depth: u8,
    seed: u64,
    boards: Vec<Vec<u16>>,
}

pub fn run(args: SampleArgs) -> Result<ExitCode> {
    let opened = open_table(&args.table, None, true)?;
    let table = &opened.table;
    let max = table.header().max_depth;
    if args.depth > max {
        bail!(UsageError(format!(
            "no states at depth {}: the deepest states of {} are at depth {max}",
            args.depth,
            opened.path.display()
        )));
    }
    let boards: Vec<Board> =
        sample_depth(table, args.depth, args.count, args.seed)?.into_iter().map(|i| table.index().board(i)).collect();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if let Some(dir) = &args.out_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let width = args.count.to_string().len().max(3);
        for (k, b) in boards.iter().enumerate() {
            let path = dir.join(format!("d{}-{:0width$}.txt", args.depth, k + 1));
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
                .with_context(|| format!("writing {} (an existing file is never overwritten)", path.display()))?;
            file.write_all(b.to_cos226().as_bytes()).with_context(|| format!("writing {}", path.display()))?;
            writeln!(out, "{}", path.display())?;
        }
    } else if args.json {
        let h = table.header();
        let json = Json {
            rows: h.shape.rows(),
            cols: h.shape.cols(),
            goal: h.goal.cells().to_vec(),
            depth: args.depth,
            seed: args.seed,
            boards: boards.iter().map(|b| b.cells().to_vec()).collect(),
        };
        serde_json::to_writer(&mut out, &json)?;
        writeln!(out)?;
    } else {
        for b in &boards {
            writeln!(out, "{}", b.to_numbers())?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
