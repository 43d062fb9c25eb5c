//! `table build`: breadth-first search from the goal into a table file.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use slidetable::heuristic::pdb::Partition;
use slidetable::search::prune::MovePruner;
use slidetable::solver::default_table_name;
use slidetable::table::disk::{DiskIo, Event, Partial};
use slidetable::table::{Executed, Staged, Width};
use slidetable::{Shape, StateIndex};

use super::{pattern, stats, thousands, BoardArgs};

pub const LONG_ABOUT: &str = "\
Build a table by breadth-first search from the goal and write it to a file.

The table has one byte per state reachable from the goal: n!/2 states for a board of n cells
(181,440 for 3x3, 239,500,800 for 3x4). With --bits 2 it has two bits a state, the distance
modulo 3 (a quarter of the size; a distance is then a walk down to the goal, each step to the
neighbour whose residue is one less): the default past 12 cells. The 2x7 and 7x2, 43,589,145,600
states in 10.9 GB, are built in memory with a one-bit-a-state frontier (15.9 GiB at the peak)
when that fits; a two-bit table that does not fit in the memory available now (or the control
group's limit, or --max-memory) is built out of core, in files in --work-dir: the 2x7 in 1.4 GiB,
the 3x5 and 5x3 (653,837,184,000 states, 163.5 GB) in 15.6 GiB and 573 GB of disk. A build whose
memory or disk will not do is refused before it starts, with what it needs. --max-depth D stops
the search after depth D (out of core, resumable, no table written) and prints the distribution
so far: the 3x5 to depth 40 took 17 minutes, 15.3 GiB and 28.1 GB of disk here. The file is
written to a temporary name in the same directory and renamed into place, so an interrupted or
failed build never damages an existing table. Then the distribution of distances is printed, as
`table stats` shows it.

Default output: eight.table for 3x3 with goal blank-last, otherwise RxC-GOAL.table
(2x4-blank-last.table, 3x3-snail.table, 3x3-goal-123456078.table for a custom goal).

Pattern tables (--pattern) are for boards past 12 cells, where a perfect table cannot be had: for
each group of tiles, the fewest moves of those tiles that bring them home, the other tiles being
indistinguishable; one byte per placement of the group (n!/(n-k)! entries for k tiles on n cells).
Disjoint groups add up to an admissible heuristic for `table solve -H pdb`, and the larger the
groups the better it guides. `--pattern list` shows the named partitions; what they cost here:

  4x4 5-5-5     3 x 524,160 entries, 1.5 MiB on disk, 0.2 s to build on 2 cores
  4x4 6-6-3     2 x 5.8 M + 3,360 entries, 11 MiB, 1.7 s
  4x4 7-8       58 M + 519 M entries, 549 MiB, about 100 s, 4.4 GiB peak memory
  5x5 6-6-6-6   2 x 127.5 M entries, 243 MiB, about 70 s, 2.4 GiB peak memory

Each group is written to its own file, RxC-GOAL-tiles-T1-T2-....table, in the current directory
(or --dir); -o names the file when there is one group. `table solve` finds them there. A group
that a symmetry of the board (a mirror, a rotation) maps onto an earlier group's goal cells is
looked up in that group's table and gets none of its own: 6-6-6-6 needs two tables, not four.
A table already in --dir for the same group, goal and kind, intact, is kept (delete it to build
it again); a damaged one is built again.

--zero builds zero-aware tables instead (RxC-GOAL-zero-tiles-....table): an entry per placement
and region of the blank, at least the classic entry and often more, one bit each by default.
4x4 7-8: 140 M + 1,425 M entries, 186 MiB, about 190 s, 1.5 GiB peak memory; 18,130 nodes a
Korf instance on average against 36,189 for the classic tables (with the reflection and
--prune 2; 13,560 with --prune 16). The search
keeps a byte per entry, so groups of 7 tiles on 5x5 build too: 4,067 M entries, 485 MiB each,
about 13 min and 4.3 GiB each.

A catalogue is several partitions joined by + (or a named one, like small-t): its estimate is the
largest of their sums, so it guides better than any one of them, and a group in several
partitions is built once. 5x5 small-t (Clausecker & Reinefeld's 7 partitions, with the
reflection their 28 tables) --zero: 14 groups, 11 tables of 181 M entries, 237 MiB, about 6.5
min on 2 cores, 0.2 GiB peak memory (one table at a time):
`table build --board 5x5 --goal blank-first --pattern small-t --zero --dir tables`. After it,
improved-t (14 partitions, 20 groups) builds only its 4 other tables.

--prune L (with --board, no --pattern) makes the move-pruning machine for `table solve --prune L`.

Examples:
  table build                                    # the 8-puzzle -> eight.table
  table build --goal snail                       # -> 3x3-snail.table
  table build --board 2x4 --goal blank-first -o 2x4.table
  table build --board 2x3 --json
  table build --board 3x4 --max-depth 20         # depths 0 to 20; again without it goes on
  table build --pattern list
  table build --board 4x4 --goal blank-first --pattern 6-6-3
  table build --board 4x4 --pattern 1,2,3,4/5,6,7,8 --dir /tmp
  table build --board 4x4 --goal blank-first --pattern 6-6-3 --zero
  table build --board 4x4 --pattern 5-5-5+1,2,3,4,5/6,7,8,9,10/11,12,13,14,15 --zero
  table build --board 4x4 --prune 14";

/// Arguments of `table build`.
#[derive(Args, Debug)]
pub struct BuildArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Where to write the table. [default: eight.table, or RxC-GOAL.table]
    #[arg(long, short = 'o', value_name = "PATH")]
    output: Option<PathBuf>,
    /// No progress bar and no distribution: only the summary.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Build pattern tables instead: a named partition or catalogue (`--pattern list` lists
    /// them), `auto`, groups of tiles like 1,2,3/4,5,6,7, or partitions joined by + (a
    /// catalogue: every distinct group once).
    #[arg(long, value_name = "NAME|GROUPS")]
    pattern: Option<String>,
    /// With --pattern or --prune: the directory for the files. [default: the current directory]
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Make the move-pruning machine for --board instead (no goal needed): it forbids every
    /// string of up to L moves that has a shorter or equal-but-earlier equivalent, for
    /// `table solve --prune L`. Written to RxC-moves-L.fsm in --dir (or -o). 5x5: L = 12 in 1 s,
    /// 14 in 13 s, 16 in 90 s and 3.3 GiB; 4x4: 14 in 1 s, 16 in 7 s, 18 in 35 s.
    #[arg(long, value_name = "L", conflicts_with = "pattern", value_parser = clap::value_parser!(u8).range(2..=24))]
    prune: Option<u8>,
    /// With --pattern: zero-aware tables, one entry per placement and region of the blank
    /// (Clausecker & Reinefeld 2019): never below the classic entry, often above; written to
    /// RxC-GOAL-zero-tiles-....table, and preferred by `table solve` when present.
    #[arg(long, requires = "pattern")]
    zero: bool,
    /// With --zero: how an entry is stored: `bits` (1 bit, read against the parent's value in
    /// a search; the smallest) or `bytes` (the distance itself).
    #[arg(long, value_enum, default_value = "bits", requires = "zero")]
    entries: EntriesArg,
    /// Print the summary as one JSON object (the distribution included) instead of text.
    #[arg(long)]
    json: bool,
    /// Bits a state: 8 (the distance itself) or 2 (the distance modulo 3, a quarter of the
    /// size; distances are then walks down to the goal). [default: 8 up to 12 cells, 2 past
    /// them]
    #[arg(long, value_name = "BITS", value_parser = ["2", "8"], conflicts_with_all = ["pattern", "prune"])]
    bits: Option<String>,
    /// The memory the build may use: a number of bytes with K, M, G or T (powers of 1024), like
    /// 4G or 512M. A two-bit table that does not fit is built out of core, in files in
    /// --work-dir, within it. [default: the memory available now, or the control group's limit]
    #[arg(
        long,
        value_name = "SIZE",
        value_parser = super::solve::parse_size,
        allow_negative_numbers = true,
        conflicts_with_all = ["pattern", "prune"]
    )]
    max_memory: Option<u64>,
    /// Where an out-of-core build keeps its work files (the build asks for up to 3.5 times the
    /// table's size free there: 38.2 GB for the 2x7, which used 26.2 GB at its peak here;
    /// removed when the table is written). A build stopped or killed resumes from its last
    /// complete level when run again with the same command. [default: the table's path with
    /// .work added]
    #[arg(long, value_name = "DIR", conflicts_with_all = ["pattern", "prune"])]
    work_dir: Option<PathBuf>,
    /// Stop the search after depth D: the build runs out of core (two bits a state, whatever
    /// the memory), keeps its levels in --work-dir, prints the distribution so far and writes
    /// no table (a D at or past the board's last level builds the whole table). The same
    /// command with a larger D, or without --max-depth, goes on from there, at two bits a
    /// state (on this machine or one that mounts the directory). It asks only for the disk its
    /// levels take, checked before each one. Boards of 5 cells or more.
    #[arg(long, value_name = "D", allow_negative_numbers = true, conflicts_with_all = ["pattern", "prune"])]
    max_depth: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum EntriesArg {
    /// One bit an entry.
    Bits,
    /// One byte an entry.
    Bytes,
}

#[derive(serde::Serialize)]
struct Summary {
    path: String,
    rows: usize,
    cols: usize,
    goal: Vec<u16>,
    /// Always true: a build stopped at a depth prints a [`Stopped`].
    complete: bool,
    states: u64,
    max_depth: u8,
    search_seconds: f64,
    seconds: f64,
    bytes: u64,
    /// The work directory of a build out of core (`null` in memory).
    work_dir: Option<String>,
    /// The depth an out-of-core build resumed after (`null` when it started from depth 0).
    resumed_after: Option<u32>,
    histogram: Vec<u64>,
}

/// The JSON summary of a build stopped at its last depth (`--max-depth`).
#[derive(serde::Serialize)]
struct Stopped {
    path: String,
    rows: usize,
    cols: usize,
    goal: Vec<u16>,
    complete: bool,
    /// Every state of the board.
    states: u64,
    /// The last depth searched.
    depth: u32,
    /// States found at depths 0 to `depth`.
    reached: u64,
    work_dir: String,
    resumed_after: Option<u32>,
    search_seconds: f64,
    seconds: f64,
    disk_read: u64,
    disk_written: u64,
    histogram: Vec<u64>,
}

pub fn run(args: BuildArgs) -> Result<ExitCode> {
    // clap lets --zero through without --pattern when --max-depth (which conflicts with
    // --pattern) is given
    if args.zero && args.pattern.is_none() {
        anyhow::bail!(super::UsageError("--zero goes with --pattern: zero-aware tables are pattern tables".into()));
    }
    if let Some(len) = args.prune {
        return build_pruner(&args, len as usize);
    }
    if args.dir.is_some() && args.pattern.is_none() {
        anyhow::bail!(super::UsageError(
            "--dir goes with --pattern or --prune; a perfect table is written with -o".into()
        ));
    }
    if let Some(text) = &args.pattern {
        if text.trim() == "list" {
            print!("{}", pattern::list());
            return Ok(ExitCode::SUCCESS);
        }
        // a partition named for one board shape implies it
        let mut board = args.board.clone();
        if board.board.is_none() {
            let shapes: Vec<Shape> = Partition::catalogue()
                .into_iter()
                .filter(|(_, name, _, _)| name == &text.trim())
                .map(|(shape, ..)| shape)
                .collect();
            if let [shape] = shapes[..] {
                board.board = Some(shape.to_string());
            }
        }
        let (shape, goal) = board.resolve()?;
        let partition = Partition::parse(&goal.board(shape)?, text)?;
        let dir = args.dir.clone().unwrap_or_else(|| PathBuf::from("."));
        let zero = args.zero.then_some(args.entries == EntriesArg::Bits);
        let how = pattern::How { output: args.output.as_deref(), zero, quiet: args.quiet, json: args.json };
        return pattern::build(shape, &goal, &partition, &dir, how);
    }
    let (shape, goal) = args.board.resolve()?;
    let goal_board = goal.board(shape)?;
    let path = args.output.clone().unwrap_or_else(|| default_table_name(shape, &goal));

    let bar = (!args.quiet && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template("{spinner} {prefix} depth {msg}  {bar:30} {human_pos}/{human_len} states")
                .expect("a valid template"),
        );
        bar
    });
    let width = match args.bits.as_deref() {
        Some("2") => Some(Width::TwoBit),
        Some(_) => Some(Width::Byte),
        None => None,
    };
    let start = Instant::now();
    let mut searched = Duration::ZERO;
    // Ctrl-C stops the build at its next check and says how to go on (a second one ends it at once)
    let stop = &INTERRUPTED;
    stop_on_ctrl_c();
    let memory = args.max_memory.or_else(slidetable::solver::available_memory);
    let log_levels = !args.quiet && bar.is_none() && shape.cells() > 12;
    let work_dir = args.work_dir.clone().unwrap_or_else(|| slidetable::table::default_work_dir(&path));
    if width == Some(Width::Byte) && work_dir.join("build.plan").exists() {
        eprintln!(
            "note: {} holds a stopped two-bit build, left as it is; this table is built at a byte a state, in \
             memory (the same command without --bits 8 would go on with that one)",
            work_dir.display()
        );
    }
    let say = |line: String| match &bar {
        Some(bar) => bar.println(line),
        None if !args.quiet => eprintln!("{line}"),
        None => {}
    };
    let options =
        slidetable::table::BuildOptions { width, memory, work_dir: Some(&work_dir), max_depth: args.max_depth };
    let staged = slidetable::table::build_file_staged(
        &goal_board,
        &path,
        &options,
        |event| match event {
            Event::Level { progress: p, disk } => {
                searched = p.elapsed;
                let io = disk_text(disk);
                if let Some(bar) = &bar {
                    bar.set_length(p.total);
                    bar.set_position(p.reached);
                    bar.set_message(format!(
                        "{:>3} done ({} states at it){}{io}",
                        p.depth,
                        thousands(p.level_states),
                        rate_and_eta(p.reached, p.total, p.elapsed)
                    ));
                } else if log_levels {
                    // a long build with no terminal to draw on (a script, a log file): a line a depth
                    eprintln!(
                        "depth {:>3}: {} states at it, {} of {} in {:.1} s{}{io}",
                        p.depth,
                        thousands(p.level_states),
                        thousands(p.reached),
                        thousands(p.total),
                        p.elapsed.as_secs_f64(),
                        rate_and_eta(p.reached, p.total, p.elapsed)
                    );
                }
            }
            Event::Target { depth, done, of, disk } => {
                if let Some(bar) = &bar {
                    bar.set_prefix(format!("finding depth {depth}: block {done} of {of}{} |", disk_text(disk)));
                }
            }
            Event::Resumed { depth, reached } => say(format!(
                "resuming the build in {} after depth {depth} ({} states found)",
                work_dir.display(),
                thousands(reached)
            )),
            Event::Preparing { bytes } => say(match args.max_depth {
                Some(d) => format!("building out of core to depth {d}, in {}", work_dir.display()),
                None => format!(
                    "building out of core (the table does not fit in the {} of memory allowed): {} of codes in {}",
                    memory.map_or("?".into(), pattern::size),
                    gb(bytes),
                    work_dir.display()
                ),
            }),
            Event::Finishing => {
                if let Some(bar) = &bar {
                    bar.set_prefix("writing the table file |".to_string());
                }
            }
            _ => {}
        },
        stop,
    )
    // a board too large for any table is refused as such, not as a build under way
    .map_err(|e| match e {
        e @ slidetable::Error::TableTooLarge { .. } => anyhow::Error::new(e),
        e => {
            anyhow::Error::new(e).context(format!("building {} (any existing file there is untouched)", path.display()))
        }
    })?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let total = start.elapsed();
    let (table, executed) = match staged {
        Staged::Built(table, executed) => (*table, executed),
        Staged::Stopped { partial, work_dir } => {
            let states = StateIndex::new(&goal_board)?.len();
            let goal_text = format!("{goal} ({goal_board})");
            return stopped(&args, (&goal_text, &goal_board), &path, &work_dir, &partial, states, (searched, total));
        }
    };

    let h = table.header();
    let mut out = std::io::stdout().lock();
    if args.json {
        let (work_dir, resumed_after) = match &executed {
            Executed::OutOfCore { work_dir, resumed, .. } => (Some(work_dir.display().to_string()), *resumed),
            _ => (None, None),
        };
        let summary = Summary {
            path: path.display().to_string(),
            rows: shape.rows(),
            cols: shape.cols(),
            goal: h.goal.cells().to_vec(),
            complete: true,
            states: h.entries,
            max_depth: h.max_depth,
            search_seconds: searched.as_secs_f64(),
            seconds: total.as_secs_f64(),
            bytes: table.as_bytes().len() as u64,
            work_dir,
            resumed_after,
            histogram: h.histogram.clone(),
        };
        serde_json::to_writer(&mut out, &summary)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "built {shape} table, goal {goal} ({})", h.goal)?;
    writeln!(out, "  states     {}", thousands(h.entries))?;
    writeln!(out, "  max depth  {}", h.max_depth)?;
    writeln!(
        out,
        "  time       {:.1} ms search, {:.1} ms with writing",
        searched.as_secs_f64() * 1e3,
        total.as_secs_f64() * 1e3
    )?;
    writeln!(out, "  file       {} ({} bytes)", path.display(), thousands(table.as_bytes().len() as u64))?;
    if let Executed::OutOfCore { work_dir, resumed, disk } = &executed {
        let resumed = resumed.map_or(String::new(), |d| format!(", resumed after depth {d}"));
        writeln!(
            out,
            "  built      out of core in {}{resumed}: {} read, {} written",
            work_dir.display(),
            gb(disk.read),
            gb(disk.written)
        )?;
    }
    if !args.quiet {
        writeln!(out)?;
        if table.is_two_bit() {
            // the hardest states of a two-bit table are a walk of it: `table stats` finds them
            stats::write_header_distribution(&mut out, &table, stats::Format::Human)?;
        } else {
            stats::write_distribution(&mut out, &table, stats::Format::Human)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The summary of a build stopped at its last depth: what it found, where its work is, how to
/// go on, and the distribution so far.
fn stopped(
    args: &BuildArgs,
    (goal_text, goal): (&str, &slidetable::Board),
    path: &std::path::Path,
    work_dir: &std::path::Path,
    partial: &Partial,
    states: u64,
    (searched, total): (Duration, Duration),
) -> Result<ExitCode> {
    let shape = goal.shape();
    let depth = partial.histogram.len() as u32 - 1;
    let reached: u64 = partial.histogram.iter().sum();
    let mut out = std::io::stdout().lock();
    if args.json {
        let summary = Stopped {
            path: path.display().to_string(),
            rows: shape.rows(),
            cols: shape.cols(),
            goal: goal.cells().to_vec(),
            complete: false,
            states,
            depth,
            reached,
            work_dir: work_dir.display().to_string(),
            resumed_after: partial.resumed,
            search_seconds: searched.as_secs_f64(),
            seconds: total.as_secs_f64(),
            disk_read: partial.disk.read,
            disk_written: partial.disk.written,
            histogram: partial.histogram.clone(),
        };
        serde_json::to_writer(&mut out, &summary)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "searched the {shape} table, goal {goal_text}, to depth {depth} (no table written yet)")?;
    writeln!(out, "  states     {} of {} found", thousands(reached), thousands(states))?;
    let resumed = partial.resumed.map_or(String::new(), |d| format!(", resumed after depth {d}"));
    writeln!(out, "  time       {:.1} s{resumed}", total.as_secs_f64())?;
    writeln!(
        out,
        "  work dir   {}: {} read, {} written",
        work_dir.display(),
        gb(partial.disk.read),
        gb(partial.disk.written)
    )?;
    if partial.resumed.is_some_and(|d| d >= depth) {
        writeln!(out, "  note       the work directory held these depths already: nothing was searched")?;
    }
    writeln!(
        out,
        "  go on      run the same command with a larger --max-depth, or without it to finish the table (at \
         two bits a state)"
    )?;
    if !args.quiet {
        writeln!(out)?;
        stats::write_partial_distribution(&mut out, &partial.histogram, states)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `, disk 1.2 GB read, 3.4 GB written`: an out-of-core build's traffic (nothing in memory).
fn disk_text(disk: DiskIo) -> String {
    if disk == DiskIo::default() {
        return String::new();
    }
    format!(", disk {} read, {} written", gb(disk.read), gb(disk.written))
}

/// Bytes in decimal gigabytes (or megabytes under one), as disks are sold.
fn gb(bytes: u64) -> String {
    match bytes {
        1_000_000_000.. => format!("{:.1} GB", bytes as f64 / 1e9),
        1_000_000.. => format!("{:.0} MB", bytes as f64 / 1e6),
        _ => format!("{:.0} kB", bytes as f64 / 1e3),
    }
}

/// `  12.3 M states/s, about 4 s left`: the rate rounded, the time left estimated from the states
/// found so far; empty until a level has taken measurable time (indicatif's own estimate started
/// at "2y" on the first, nearly empty, levels), and the rate alone until 1% of the states are
/// found (the 2x7's first levels, a few states after seconds of setting up, gave an estimate of
/// 2,500 years).
fn rate_and_eta(reached: u64, total: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    if secs < 0.05 || reached == 0 {
        return String::new();
    }
    let rate = reached as f64 / secs;
    let rate_text = if rate >= 1e6 {
        format!("{:.1} M", rate / 1e6)
    } else if rate >= 1e3 {
        format!("{:.0} K", rate / 1e3)
    } else {
        format!("{rate:.0}")
    };
    if reached.saturating_mul(100) < total {
        return format!("  {rate_text} states/s");
    }
    let left = total.saturating_sub(reached) as f64 / rate;
    let left_text = if left < 1.0 {
        "under a second".to_string()
    } else if left < 120.0 {
        format!("about {left:.0} s")
    } else {
        format!("about {:.0} min", left / 60.0)
    };
    format!("  {rate_text} states/s, {left_text} left")
}

/// `table build --prune L`: the move-pruning machine of --board.
fn build_pruner(args: &BuildArgs, len: usize) -> Result<ExitCode> {
    if args.board.goal.is_some() {
        anyhow::bail!(super::UsageError(
            "--prune makes a machine for a board shape, whatever the goal: leave out --goal".into()
        ));
    }
    let shape = args.board.shape_arg()?.unwrap_or(Shape::new(3, 3)?);
    let dir = args.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    let path = args.output.clone().unwrap_or_else(|| dir.join(MovePruner::file_name(shape, len)));
    let start = Instant::now();
    let machine = MovePruner::generate(shape, len)?;
    machine.write(&path).with_context(|| format!("writing {}", path.display()))?;
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        let line = serde_json::json!({
            "path": path.display().to_string(),
            "rows": shape.rows(),
            "cols": shape.cols(),
            "max_len": len,
            "forbidden": machine.patterns(),
            "states": machine.states(),
            "seconds": seconds,
        });
        println!("{line}");
    } else {
        println!(
            "wrote {}: {shape}, strings of up to {len} moves, {} forbidden, {} states, {seconds:.2} s",
            path.display(),
            thousands(machine.patterns()),
            thousands(machine.states() as u64)
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Set by the first Ctrl-C (SIGINT) of a table build: the build stops at its next check, an
/// out-of-core one keeping its levels for the same command to resume.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes the first Ctrl-C set [`INTERRUPTED`] instead of ending the process; a second one ends
/// it as before.
fn stop_on_ctrl_c() {
    #[cfg(unix)]
    {
        extern "C" fn on_interrupt(_: libc::c_int) {
            // an atomic store is async-signal-safe
            INTERRUPTED.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        super::catch_signals(&[libc::SIGINT], on_interrupt);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_is_rounded_and_the_estimate_waits_for_a_measurable_level() {
        assert_eq!(rate_and_eta(3, 239_500_800, Duration::from_micros(40)), "");
        assert_eq!(rate_and_eta(50_000_000, 239_500_800, Duration::from_secs(1)), "  50.0 M states/s, about 4 s left");
        assert_eq!(rate_and_eta(100_000, 181_440, Duration::from_millis(100)), "  1.0 M states/s, under a second left");
        assert_eq!(
            rate_and_eta(10_000_000, 1_000_000_000, Duration::from_secs(10)),
            "  1.0 M states/s, about 16 min left"
        );
        // before 1% of the states, no estimate
        assert_eq!(rate_and_eta(9_000_000, 1_000_000_000, Duration::from_secs(9)), "  1.0 M states/s");
        assert_eq!(rate_and_eta(43, 43_589_145_600, Duration::from_millis(1800)), "  24 states/s");
        assert_eq!(rate_and_eta(5_000, 10_000, Duration::from_secs(1)), "  5 K states/s, about 1 s left");
    }
}
