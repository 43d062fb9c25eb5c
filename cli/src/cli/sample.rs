//! `table sample`: boards drawn uniformly at random from the states at one exact distance, or
//! (`--uniform`) from every state that can reach the goal.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde::Serialize;
use slidetable::arrays::random_boards;
use slidetable::lab::sample::sample_depth;
use slidetable::Board;

use super::{open_table, TableArgs, UsageError};

pub const LONG_ABOUT: &str = "\
Boards drawn uniformly at random from all the states at exactly one distance from the goal.

The COUNT boards are distinct, every set of COUNT states at that depth is equally likely, and so
is every order. The same --seed gives the same boards on every machine and in every version: the
draws come from SplitMix64, written out in slidetable itself (src/lab/sample.rs), not from a crate
whose stream may change.

--uniform draws from every board that can reach the goal instead, whatever its distance: the
boards a newcomer means by random boards (a random walk from the goal is not uniform: its ends
cluster near the goal). No table is needed, so any board from 2x2 to 127x127 will do (--board,
--goal); the draws are independent, so a small board repeats its states.

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
  table sample --depth 28 --count 10 --out-dir boards
  table sample --uniform --count 1000 --seed 3 | table query --batch
  table sample --uniform --board 4x4 --goal blank-first --count 10";

/// Arguments of `table sample`.
#[derive(Args, Debug)]
pub struct SampleArgs {
    /// The exact distance of every board drawn.
    #[arg(long, short = 'd', value_name = "D")]
    depth: Option<u8>,
    /// Draw from every board that can reach the goal, uniformly and independently, instead of
    /// from one depth: no table is needed, any board from 2x2 to 127x127.
    #[arg(long, conflicts_with = "depth")]
    uniform: bool,
    /// How many distinct boards to draw (with --uniform: how many draws).
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
    /// None for --uniform.
    depth: Option<u8>,
    uniform: bool,
    seed: u64,
    boards: Vec<Vec<u16>>,
}

pub fn run(args: SampleArgs) -> Result<ExitCode> {
    let Some(depth) = args.depth else {
        if !args.uniform {
            bail!(UsageError(
                "give --depth D (boards at exactly D moves from the goal, from its table) or --uniform (boards drawn \
                 from every state that can reach the goal)"
                    .into()
            ));
        }
        return uniform(&args);
    };
    let opened = open_table(&args.table, None, true)?;
    let table = &opened.table;
    let max = table.header().max_depth;
    if depth > max {
        bail!(UsageError(format!(
            "no states at depth {depth}: the deepest states of {} are at depth {max}",
            opened.path.display()
        )));
    }
    let boards: Vec<Board> =
        sample_depth(table, depth, args.count, args.seed)?.into_iter().map(|i| table.index().board(i)).collect();
    let mut out = Output::start(&args, &table.header().goal)?;
    for (k, b) in boards.iter().enumerate() {
        out.board(k, b)?;
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// `--uniform`: `--count` boards drawn from every board of `--board` that can reach `--goal` (or
/// the shape and goal of `--table`, when given), made and written a piece at a time (any count
/// fits in memory).
fn uniform(args: &SampleArgs) -> Result<ExitCode> {
    let goal = match &args.table.table {
        Some(_) => open_table(&args.table, None, false)?.table.header().goal.clone(),
        None => {
            let (shape, goal) = args.table.board.resolve()?;
            goal.board(shape)?
        }
    };
    let n = goal.shape().cells();
    let mut out = Output::start(args, &goal)?;
    const PIECE: usize = 1 << 16;
    let mut cells = vec![0u16; PIECE * n];
    let mut done = 0usize;
    while done < args.count {
        let k = PIECE.min(args.count - done);
        random_boards(&goal, args.seed, done as u64, &mut cells[..k * n]);
        for (i, c) in cells[..k * n].chunks(n).enumerate() {
            out.board(done + i, &Board::new(goal.shape(), c.to_vec())?)?;
        }
        done += k;
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Where the boards go, one at a time: lines of numbers, one JSON object, or COS 226 files.
struct Output<'a> {
    args: &'a SampleArgs,
    out: std::io::BufWriter<std::io::StdoutLock<'static>>,
    /// --out-dir's files' names: the depth or `u`, and the number's width.
    prefix: String,
    width: usize,
}

impl Output<'_> {
    fn start<'a>(args: &'a SampleArgs, goal: &Board) -> Result<Output<'a>> {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        if let Some(dir) = &args.out_dir {
            if dir.exists() && !dir.is_dir() {
                bail!("--out-dir {}: a file of that name is there, not a directory", dir.display());
            }
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        } else if args.json {
            // the object's fields, then its boards as they come
            let head = Json {
                rows: goal.shape().rows(),
                cols: goal.shape().cols(),
                goal: goal.cells().to_vec(),
                depth: args.depth,
                uniform: args.uniform,
                seed: args.seed,
                boards: Vec::new(),
            };
            let text = serde_json::to_string(&head)?;
            write!(out, "{}", text.strip_suffix("]}").expect("the boards come last"))?;
        }
        let prefix = args.depth.map_or("u".to_string(), |d| format!("d{d}"));
        Ok(Output { args, out, prefix, width: args.count.to_string().len().max(3) })
    }

    /// Board `k` (from 0).
    fn board(&mut self, k: usize, b: &Board) -> Result<()> {
        if let Some(dir) = &self.args.out_dir {
            let path = dir.join(format!("{}-{:0width$}.txt", self.prefix, k + 1, width = self.width));
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
                .with_context(|| format!("writing {} (an existing file is never overwritten)", path.display()))?;
            file.write_all(b.to_cos226().as_bytes()).with_context(|| format!("writing {}", path.display()))?;
            writeln!(self.out, "{}", path.display())?;
        } else if self.args.json {
            let comma = if k == 0 { "" } else { "," };
            write!(self.out, "{comma}{}", serde_json::to_string(b.cells())?)?;
        } else {
            writeln!(self.out, "{}", b.to_numbers())?;
        }
        Ok(())
    }

    fn finish(mut self) -> Result<()> {
        if self.args.json && self.args.out_dir.is_none() {
            writeln!(self.out, "]}}")?;
        }
        self.out.flush()?;
        Ok(())
    }
}
