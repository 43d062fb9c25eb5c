//! `table stats`: the distribution of distances (figure 3 of the 1987 report) and its summary.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::Args;
use serde::Serialize;
use slidetable::table::format::Header;
use slidetable::{Board, Table};

use super::{open_table, thousands, TableArgs, UsageError};

pub const LONG_ABOUT: &str = "\
The distribution of distances over all states: figure 3 of the 1987 report.

For each depth: the number of states at exactly that distance, the cumulative count and
percentage, and a bar. Then the total, the mean (4 decimals), the median, the maximum depth and
the states at the maximum depth (listed when there are at most 20). Read from the table's header;
`table verify` checks the header against the payload.

A two-bit table (`table build --bits 2`, the default for 2x7 and 7x2) keeps the whole
distribution in its header too. Its hardest states are listed without asking up to 12 cells; past
that, finding them scans the whole table (candidates with the residue of the maximum depth whose
every neighbour is one closer, each walked down to the goal: minutes for 2x7), so ask with
--hardest.

--scan recounts the distribution from the entries instead of the header, and says whether they
agree. For a byte table that counts the bytes. For a two-bit table a count of residues is not
enough (a state at depth d and one at d + 3 have the same residue), so --scan runs the
breadth-first search again, level by level, without reading the table, checks every state's
code against its level, and counts the levels: the proof of `table verify`, as long as a build.

A missing eight.table is built on the spot. For a pattern table (--table FILE), the distribution
of its entries over the group's placements.

Examples:
  table stats
  table stats --csv > dist.csv
  table build --board 2x4 -o 2x4.table -q && table stats --table 2x4.table --json
  table stats --plot dist.svg                  # a bar chart: depth against states, SVG";

/// Arguments of `table stats`.
#[derive(Args, Debug)]
pub struct StatsArgs {
    #[command(flatten)]
    table: TableArgs,
    /// CSV: a header line `depth,states,cumulative,percent,cumulative_percent`, one row per depth.
    #[arg(long, conflicts_with = "json")]
    csv: bool,
    /// JSON: the distribution and its summary as one object.
    #[arg(long)]
    json: bool,
    /// Also draw the distribution as a bar chart (figure 3 of the 1987 report) into this SVG file.
    #[arg(long, value_name = "PATH")]
    plot: Option<std::path::PathBuf>,
    /// Recount the distribution from the entries and compare it with the header (for a two-bit
    /// table: the search again, every entry checked; as long as a build).
    #[arg(long)]
    scan: bool,
    /// List the states at the maximum depth of a two-bit table past 12 cells (a scan of the
    /// whole table).
    #[arg(long)]
    hardest: bool,
}

/// How to print the distribution.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Human,
    Csv,
    Json,
}

pub fn run(args: StatsArgs) -> Result<ExitCode> {
    if let Some(path) = args.table.table.as_ref().filter(|p| super::pattern::is_pattern_file(p)) {
        if args.plot.is_some() {
            bail!(UsageError("--plot draws a perfect table's distribution, not a pattern table's".into()));
        }
        return super::pattern::stats(path, args.csv, args.json);
    }
    let opened = open_table(&args.table, None, true)?;
    let format = match (args.csv, args.json) {
        (true, false) => Format::Csv,
        (false, true) => Format::Json,
        (false, false) => Format::Human,
        (true, true) => bail!(UsageError("--csv and --json exclude each other".into())),
    };
    let mut out = std::io::stdout().lock();
    if format == Format::Human {
        let h = opened.table.header();
        writeln!(out, "{}: {} table, goal {}\n", opened.path.display(), h.shape, h.goal)?;
    }
    if args.scan {
        let start = std::time::Instant::now();
        let counted = opened.table.recount()?;
        let agrees = counted == opened.table.header().histogram;
        eprintln!(
            "table: recounted {} states from the entries in {:.1} s: {}",
            thousands(counted.iter().sum::<u64>()),
            start.elapsed().as_secs_f64(),
            if agrees { "the header agrees" } else { "the header DISAGREES; the distribution below is the recount" }
        );
        if !agrees {
            // print the recount: a header that disagrees is not to be believed
            let mut table_header = opened.table.header().clone();
            table_header.histogram = counted;
            table_header.max_depth = (table_header.histogram.len() - 1) as u8;
            write_summary(&mut out, summarize(&opened.table, &table_header, false), format)?;
            return Ok(ExitCode::from(super::EXIT_FILE));
        }
    }
    let hardest = args.hardest || !(opened.table.is_two_bit() && opened.table.header().shape.cells() > 12);
    write_summary(&mut out, summarize(&opened.table, opened.table.header(), hardest), format)?;
    if let Some(path) = &args.plot {
        let h = opened.table.header();
        let title = format!("States by distance from the goal: {} table, goal {}", h.shape, h.goal);
        super::plot::distribution(path, &title, &h.histogram)?;
        // said on stderr, so stdout stays the table (or CSV, JSON) a script reads
        eprintln!("table: wrote the plot to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// The most states listed by name at the maximum depth.
const LIST_HARDEST: u64 = 20;

#[derive(Serialize)]
struct Summary {
    rows: usize,
    cols: usize,
    goal: Vec<u16>,
    total: u64,
    mean: f64,
    median: f64,
    max_depth: u8,
    states_at_max_depth: u64,
    /// The states at the maximum depth, when there are at most 20 (otherwise empty).
    hardest: Vec<Vec<u16>>,
    #[serde(skip)]
    hardest_boards: Vec<Board>,
    distribution: Vec<Row>,
}

#[derive(Serialize)]
struct Row {
    depth: usize,
    states: u64,
    cumulative: u64,
}

fn summarize<D: AsRef<[u8]> + Sync>(table: &Table<D>, h: &Header, list_hardest: bool) -> Summary {
    let total: u64 = h.histogram.iter().sum();
    let mut cumulative = 0;
    let distribution: Vec<Row> = h
        .histogram
        .iter()
        .enumerate()
        .map(|(depth, &states)| {
            cumulative += states;
            Row { depth, states, cumulative }
        })
        .collect();
    let mean = h.histogram.iter().enumerate().map(|(d, &c)| d as f64 * c as f64).sum::<f64>() / total as f64;
    // The median of all distances: the mean of the middle two when the count is even.
    let kth = |k: u64| distribution.iter().find(|r| r.cumulative >= k).map_or(0, |r| r.depth) as f64;
    let median = if total % 2 == 1 { kth(total / 2 + 1) } else { (kth(total / 2) + kth(total / 2 + 1)) / 2.0 };
    let at_max = h.histogram[h.max_depth as usize];
    let hardest_boards = if at_max <= LIST_HARDEST && list_hardest {
        table.states_at(h.max_depth, LIST_HARDEST as usize)
    } else {
        Vec::new()
    };
    Summary {
        rows: h.shape.rows(),
        cols: h.shape.cols(),
        goal: h.goal.cells().to_vec(),
        total,
        mean,
        median,
        max_depth: h.max_depth,
        states_at_max_depth: at_max,
        hardest: hardest_boards.iter().map(|b| b.cells().to_vec()).collect(),
        hardest_boards,
        distribution,
    }
}

/// Prints the distribution of `table` in `format` (the hardest states of a two-bit table past 12
/// cells are not looked for: that is a scan of minutes).
pub fn write_distribution<D: AsRef<[u8]> + Sync>(out: &mut impl Write, table: &Table<D>, format: Format) -> Result<()> {
    let hardest = !(table.is_two_bit() && table.header().shape.cells() > 12);
    write_summary(out, summarize(table, table.header(), hardest), format)
}

/// [`write_distribution`] from the header alone, without the hardest states (which a two-bit
/// table finds by walking it: longer than the build of a 12-cell table, and more memory).
pub fn write_header_distribution<D: AsRef<[u8]> + Sync>(
    out: &mut impl Write,
    table: &Table<D>,
    format: Format,
) -> Result<()> {
    write_summary(out, summarize(table, table.header(), false), format)
}

/// The distribution of a build stopped at a depth (`table build --max-depth`): its levels so
/// far as [`write_distribution`] prints a table's, the percentages of all `states` of the board,
/// and what the search has found.
pub fn write_partial_distribution(out: &mut impl Write, histogram: &[u64], states: u64) -> Result<()> {
    let reached: u64 = histogram.iter().sum();
    write_bars(out, ["depth", "states", "cumul. % of all states"], histogram, states)?;
    writeln!(out)?;
    writeln!(
        out,
        "searched   depths 0 to {}: {} of {} states ({:.4}%); the rest are deeper",
        histogram.len().saturating_sub(1),
        thousands(reached),
        thousands(states),
        100.0 * reached as f64 / states as f64
    )?;
    Ok(())
}

/// The human table of a distribution: a heading (`[first column, counts, percentages]`), then
/// for each value its count, the cumulative count, its percentage of `total` and a bar of up to
/// 40 `#` (the largest count's).
pub fn write_bars(out: &mut impl Write, [first, unit, percent]: [&str; 3], counts: &[u64], total: u64) -> Result<()> {
    let widest = counts.iter().copied().max().unwrap_or(1).max(1);
    let w = thousands(total).len();
    writeln!(out, "{first}  {unit:>w$}  {:>w$}  {percent}", "cumulative")?;
    let mut cumulative = 0;
    for (value, &n) in counts.iter().enumerate() {
        cumulative += n;
        let bar = "#".repeat(((n as f64 / widest as f64) * 40.0).ceil() as usize);
        let pct = 100.0 * cumulative as f64 / total as f64;
        writeln!(out, "{value:>5}  {:>w$}  {:>w$}  {pct:>8.4}%  {bar}", thousands(n), thousands(cumulative))?;
    }
    Ok(())
}

fn write_summary(out: &mut impl Write, s: Summary, format: Format) -> Result<()> {
    let pct = |n: u64| 100.0 * n as f64 / s.total as f64;
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, &s)?;
            writeln!(out)?;
        }
        Format::Csv => {
            writeln!(out, "depth,states,cumulative,percent,cumulative_percent")?;
            for r in &s.distribution {
                writeln!(
                    out,
                    "{},{},{},{:.6},{:.6}",
                    r.depth,
                    r.states,
                    r.cumulative,
                    pct(r.states),
                    pct(r.cumulative)
                )?;
            }
        }
        Format::Human => {
            let counts: Vec<u64> = s.distribution.iter().map(|r| r.states).collect();
            write_bars(out, ["depth", "states", "cumul. %"], &counts, s.total)?;
            writeln!(out)?;
            writeln!(out, "total      {} states", thousands(s.total))?;
            writeln!(out, "mean       {:.4}", s.mean)?;
            writeln!(out, "median     {}", s.median)?;
            writeln!(out, "max depth  {} ({} states)", s.max_depth, thousands(s.states_at_max_depth))?;
            if !s.hardest_boards.is_empty() {
                writeln!(out, "hardest states:")?;
                for b in &s.hardest_boards {
                    writeln!(out, "  {b}")?;
                }
            }
        }
    }
    Ok(())
}
