//! Pattern tables on the command line: `table build --pattern`, and the pattern-table branches of
//! `query`, `stats` and `verify` (a search's tables are found and loaded by `slidetable::solver`).

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use memmap2::Mmap;
use serde::Serialize;
use slidetable::heuristic::pdb::{pattern_file_name, zero_pattern_file_name, Partition};
use slidetable::index::pattern::PatternIndex;
use slidetable::table::format::{Encoding, Header, PAYLOAD_OFFSET};
use slidetable::table::pattern::{build_group_file_until, build_peak_bytes, open_pattern, PatternTable};
use slidetable::{Board, Goal, Shape};

use super::{thousands, UsageError, EXIT_FILE, EXIT_NO};

/// Whether the file at `path` is a pattern table (its header says so). False for anything
/// unreadable: the caller's own open then reports the problem.
pub fn is_pattern_file(path: &Path) -> bool {
    let Ok(mut f) = std::fs::File::open(path) else { return false };
    let mut head = vec![0u8; PAYLOAD_OFFSET];
    if std::io::Read::read_exact(&mut f, &mut head).is_err() {
        return false;
    }
    Header::parse(&head).is_ok_and(|h| h.encoding.is_pattern())
}

/// The table at `path` when it is already the one a build would write there: for `goal` and
/// `tiles`, in `encoding`, its payload intact. Anything else (no file, another table, a damaged
/// one) is built again.
fn already_built(path: &Path, goal: &Board, tiles: &[u16], encoding: Encoding) -> Option<PatternTable<Mmap>> {
    let table = open_pattern(path).ok()?;
    let same = table.goal() == goal && table.tiles() == tiles && table.header().encoding == encoding;
    (same && table.check_payload_crc().is_ok()).then_some(table)
}

/// Opens a pattern table with the path in errors.
pub fn open(path: &Path) -> Result<PatternTable<Mmap>> {
    open_pattern(path).with_context(|| format!("opening {}", path.display()))
}

/// Opens a pattern table and checks its whole payload against its checksum, whatever its size:
/// for `query` and `stats`, which are not hot paths and must never answer from a damaged file.
fn open_checked(path: &Path) -> Result<PatternTable<Mmap>> {
    let table = open(path)?;
    table.check_payload_crc().with_context(|| format!("opening {}", path.display()))?;
    Ok(table)
}

/// `4.3 GiB`, `57 MiB`.
pub fn size(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{:.1} GiB", bytes as f64 / (1u64 << 30) as f64)
    } else if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes.div_ceil(1024))
    }
}

/// The text of `table build --pattern list`.
pub fn list() -> String {
    let mut s = String::from(
        "Named partitions (groups shown for the blank-first goal; for another goal with the blank in a corner\n\
         the same cells are used, mirrored to that corner):\n\n",
    );
    for (shape, name, about, partition) in Partition::catalogue() {
        let parts: Vec<String> = partition
            .parts
            .iter()
            .map(|part| {
                part.iter()
                    .map(|&g| partition.groups[g].iter().map(u16::to_string).collect::<Vec<_>>().join(","))
                    .collect::<Vec<_>>()
                    .join(" / ")
            })
            .collect();
        s.push_str(&format!(
            "  {:<4} {name:<11} {}\n                   {about}\n",
            shape.to_string(),
            parts.join("\n                     max ")
        ));
    }
    s.push_str(
        "\n  any  auto        consecutive tiles of the goal in groups small enough to build in about a second each\n\
         \nOr give the groups by tile: --pattern 1,2,3/4,5,6,7 (disjoint; tiles outside every group count nothing).\n\
         Join partitions with + for a catalogue, whose estimate is the largest of their sums (groups shared\n\
         between partitions are built once): --pattern 6-6-6-6+1,2,5,6,10,11/3,4,7,8,9,12/13,14,18,19,23,24/15,16,17,20,21,22\n",
    );
    s
}

/// Where and how `table build --pattern` writes its tables.
pub struct How<'a> {
    /// `-o`: the one group's file.
    pub output: Option<&'a Path>,
    /// `--zero`: zero-aware tables, and whether in bits.
    pub zero: Option<bool>,
    /// No progress bar.
    pub quiet: bool,
    /// A JSON summary.
    pub json: bool,
}

/// What `table build --pattern` does: every group's table into `dir` (or the one group into
/// `output`).
pub fn build(shape: Shape, goal: &Goal, partition: &Partition, dir: &Path, how: How<'_>) -> Result<ExitCode> {
    let How { output, zero, quiet, json } = how;
    let goal_board = goal.board(shape)?;
    // groups that a symmetry maps onto an earlier group are looked up in its table
    let own = partition.own_tables();
    if output.is_some() && own.len() != 1 {
        bail!(UsageError(format!(
            "-o names one file, and --pattern {} has {} tables to build: give --dir DIR for all of them, or one group",
            partition.name,
            own.len()
        )));
    }
    // refuse what cannot fit before any work
    let peak = partition.build_bytes(zero).map_err(|e| UsageError(e.to_string()))?.into_iter().max().unwrap_or(0);
    if let Some(mem) = slidetable::solver::physical_memory() {
        if let Some((g, peak)) = partition.too_big_to_build(mem, zero).map_err(|e| UsageError(e.to_string()))? {
            bail!(UsageError(format!(
                "the table of group {} ({} tiles) needs {} of memory to build, and this machine has {}: choose smaller groups",
                g + 1,
                partition.groups[g].len(),
                size(peak),
                size(mem)
            )));
        }
    }
    if !dir.is_dir() {
        bail!(UsageError(format!("--dir {}: no such directory", dir.display())));
    }
    let mut out = std::io::stdout().lock();
    let mut built: Vec<BuiltJson> = Vec::new();
    if !json {
        writeln!(
            out,
            "building {} pattern table{} for {shape}, goal {goal}, partition {} (peak memory {})",
            own.len(),
            if own.len() == 1 { "" } else { "s" },
            partition.name,
            size(peak)
        )?;
        for (g, src) in partition.sources().iter().enumerate().filter(|(g, src)| src.table != *g) {
            let list = |g: usize| partition.groups[g].iter().map(u16::to_string).collect::<Vec<_>>().join(",");
            writeln!(
                out,
                "  tiles {}: looked up in the table of tiles {} (their image in a mirror or rotation of the board)",
                list(g),
                list(src.table)
            )?;
        }
    }
    let started = Instant::now();
    let mut total_bytes = 0u64;
    let encoding = match zero {
        None => Encoding::PatternByte,
        Some(false) => Encoding::ZeroByte,
        Some(true) => Encoding::ZeroBit,
    };
    for (n, &g) in own.iter().enumerate() {
        let tiles = &partition.groups[g];
        let path = match output {
            Some(p) => p.to_path_buf(),
            None if zero.is_some() => dir.join(zero_pattern_file_name(shape, goal, tiles)),
            None => dir.join(pattern_file_name(shape, goal, tiles)),
        };
        let index = PatternIndex::new(shape, tiles)?;
        let tiles_text = tiles.iter().map(u16::to_string).collect::<Vec<_>>().join(",");
        // a table already there for this group, goal and encoding, intact, is kept (a catalogue
        // built after another shares most of its tables)
        let kept = output.is_none().then(|| already_built(&path, &goal_board, tiles, encoding)).flatten();
        let was_kept = kept.is_some();
        let t = Instant::now();
        let table = match kept {
            Some(table) => table,
            None => {
                let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
                    let bar = ProgressBar::new_spinner();
                    bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("a valid template"));
                    bar.enable_steady_tick(std::time::Duration::from_millis(200));
                    bar
                });
                let report = |p: &slidetable::Progress| {
                    if let Some(bar) = &bar {
                        bar.set_message(format!(
                            "table {}/{} (tiles {tiles_text}): depth {} done, {} states so far",
                            n + 1,
                            own.len(),
                            p.depth,
                            thousands(p.reached)
                        ));
                    }
                };
                let table = build_group_file_until(&goal_board, tiles, zero, &path, report, &AtomicBool::new(false))
                    .with_context(|| format!("building {} (any existing file there is untouched)", path.display()))?;
                if let Some(bar) = bar {
                    bar.finish_and_clear();
                }
                table
            }
        };
        let (seconds, peak_bytes) =
            if was_kept { (0.0, 0) } else { (t.elapsed().as_secs_f64(), build_peak_bytes(&index, zero)?) };
        let h = table.header();
        total_bytes += table.as_bytes().len() as u64;
        if json {
            built.push(BuiltJson {
                path: path.display().to_string(),
                tiles: tiles.clone(),
                entries: h.entries,
                max: h.max_depth,
                mean: mean(&h.histogram),
                seconds,
                peak_bytes,
                kept: was_kept,
            });
            continue;
        }
        if was_kept {
            writeln!(
                out,
                "  tiles {tiles_text}: kept, already built and intact (delete it to build it again) -> {}",
                path.display()
            )?;
            continue;
        }
        writeln!(
            out,
            "  tiles {tiles_text}: {} entries, max {}, mean {:.3}, built in {:.2} s (working memory {}) -> {}",
            thousands(h.entries),
            h.max_depth,
            mean(&h.histogram),
            seconds,
            size(peak_bytes),
            path.display()
        )?;
    }
    if json {
        let summary = BuildJson {
            rows: shape.rows(),
            cols: shape.cols(),
            goal: goal_board.cells().to_vec(),
            partition: partition.name.clone(),
            tables: built,
            seconds: started.elapsed().as_secs_f64(),
            bytes: total_bytes,
            peak_bytes: peak,
        };
        serde_json::to_writer(&mut out, &summary)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "done in {:.2} s, {} on disk", started.elapsed().as_secs_f64(), size(total_bytes))?;
    Ok(ExitCode::SUCCESS)
}

#[derive(Serialize)]
struct BuiltJson {
    path: String,
    tiles: Vec<u16>,
    entries: u64,
    max: u8,
    mean: f64,
    seconds: f64,
    peak_bytes: u64,
    /// Already built and intact, so not built again.
    kept: bool,
}

#[derive(Serialize)]
struct BuildJson {
    rows: usize,
    cols: usize,
    goal: Vec<u16>,
    partition: String,
    tables: Vec<BuiltJson>,
    seconds: f64,
    bytes: u64,
    peak_bytes: u64,
}

fn mean(histogram: &[u64]) -> f64 {
    let total: u64 = histogram.iter().sum();
    histogram.iter().enumerate().map(|(d, &c)| d as f64 * c as f64).sum::<f64>() / total.max(1) as f64
}

#[derive(Serialize)]
struct QueryJson {
    rows: usize,
    cols: usize,
    board: Vec<u16>,
    goal: Vec<u16>,
    group: Vec<u16>,
    /// The cells of the group's tiles on the board, in the group's order.
    cells: Vec<u8>,
    distance: u8,
}

/// `table query --table PATTERN-FILE BOARD`: the board's pattern distance.
pub fn query(path: &Path, text: &str, json: bool) -> Result<ExitCode> {
    let table = open_checked(path)?;
    let shape = table.header().shape;
    let board = Board::parse(shape, text)
        .map_err(|e| anyhow!(UsageError(format!("{e} ({} is a pattern table of {shape})", path.display()))))?;
    let distance = table.distance(&board)?;
    let cells = table.index().cells_of(&board)?;
    let mut out = std::io::stdout().lock();
    if json {
        let answer = QueryJson {
            rows: shape.rows(),
            cols: shape.cols(),
            board: board.cells().to_vec(),
            goal: table.goal().cells().to_vec(),
            group: table.tiles().to_vec(),
            cells,
            distance,
        };
        serde_json::to_writer(&mut out, &answer)?;
        writeln!(out)?;
    } else {
        let tiles = table.tiles().iter().map(u16::to_string).collect::<Vec<_>>().join(",");
        writeln!(out, "{}", board.grid().trim_end())?;
        writeln!(out, "pattern distance {distance}: the fewest moves of tiles {tiles} that bring them home (other tiles' moves not counted)")?;
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Serialize)]
struct StatsJson {
    rows: usize,
    cols: usize,
    goal: Vec<u16>,
    group: Vec<u16>,
    entries: u64,
    mean: f64,
    max: u8,
    distribution: Vec<u64>,
}

/// `table stats --table PATTERN-FILE`: the distribution of the entries.
pub fn stats(path: &Path, csv: bool, json: bool) -> Result<ExitCode> {
    let table = open_checked(path)?;
    let h = table.header();
    let mut out = std::io::stdout().lock();
    if json {
        let s = StatsJson {
            rows: h.shape.rows(),
            cols: h.shape.cols(),
            goal: h.goal.cells().to_vec(),
            group: h.group.clone(),
            entries: h.entries,
            mean: mean(&h.histogram),
            max: h.max_depth,
            distribution: h.histogram.clone(),
        };
        serde_json::to_writer_pretty(&mut out, &s)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    if csv {
        writeln!(out, "value,entries,cumulative")?;
        let mut cumulative = 0;
        for (d, &c) in h.histogram.iter().enumerate() {
            cumulative += c;
            writeln!(out, "{d},{c},{cumulative}")?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(out, "{}: {}\n", path.display(), h.describe())?;
    super::stats::write_bars(&mut out, ["value", "entries", "cumul. %"], &h.histogram, h.entries)?;
    writeln!(out)?;
    if h.encoding.is_zero_aware() {
        writeln!(
            out,
            "entries    {} (placement, blank region) pairs of {} tiles, {} bit{} each",
            thousands(h.entries),
            h.group.len(),
            h.encoding.width(),
            if h.encoding.width() == 1 { "" } else { "s" }
        )?;
    } else {
        writeln!(out, "entries    {} placements of {} tiles", thousands(h.entries), h.group.len())?;
    }
    writeln!(out, "mean       {:.4}", mean(&h.histogram))?;
    writeln!(out, "max        {}", h.max_depth)?;
    Ok(ExitCode::SUCCESS)
}

/// `table verify --table PATTERN-FILE`: rebuild and compare.
pub fn verify(path: &Path, json: bool) -> Result<ExitCode> {
    let table = match open(path) {
        Ok(t) => t,
        Err(e) => return super::verify::damaged_on_open(e, path.display().to_string(), json),
    };
    let started = Instant::now();
    let h = table.header();
    let mut verdict = super::verify::Verdict {
        path: path.display().to_string(),
        ok: true,
        table: h.describe(),
        entries: h.entries,
        seconds: 0.0,
        failure: None,
    };
    let outcome = table.verify(|_| {});
    verdict.seconds = started.elapsed().as_secs_f64();
    match outcome {
        Ok(None) if json => {
            serde_json::to_writer(std::io::stdout().lock(), &verdict)?;
            println!();
            Ok(ExitCode::SUCCESS)
        }
        Ok(None) => {
            writeln!(
                std::io::stdout().lock(),
                "ok: {} is {}: every one of its {} entries equals a fresh build's (verified in {:.2} s)",
                path.display(),
                h.describe(),
                thousands(h.entries),
                verdict.seconds
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Ok(Some(m)) if m.rank == u64::MAX => {
            super::verify::failed(json, verdict, "the header's histogram does not match the entries".into(), EXIT_NO)
        }
        Ok(Some(m)) => {
            let why = format!(
                "entry {} (tiles {:?} on cells {:?}) is {}, a fresh build gives {}",
                m.rank,
                table.tiles(),
                m.cells,
                m.stored,
                m.expected
            );
            super::verify::failed(json, verdict, why, EXIT_NO)
        }
        Err(e @ slidetable::Error::ChecksumMismatch { .. }) => {
            super::verify::failed(json, verdict, e.to_string(), EXIT_FILE)
        }
        Err(e) => Err(e).with_context(|| format!("verifying {}", path.display())),
    }
}
