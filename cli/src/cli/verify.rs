//! `table verify`: prove a table file is the exact distance function of its goal.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use slidetable::Error;

use super::{open_table, thousands, TableArgs, EXIT_FILE, EXIT_NO};

pub const LONG_ABOUT: &str = "\
Prove that a table file is the exact distance function of its goal.

Checks the payload checksum, then every entry: the goal has distance 0 and no other state does,
no state is unreached, every move changes the distance by exactly one, every state but the goal
has a neighbour one closer, and the histogram in the header matches the payload. Together these
prove each entry is the true distance. Runs in parallel.

A two-bit table (`table build --bits 2`: distances modulo 3) cannot be proved that way: residues
can be consistent everywhere and still wrong (a loop of states each with a neighbour whose residue
is one less; the walk down from them never reaches the goal). So it is not trusted at all: the
breadth-first search is run again from the goal without reading the table (level d + 1 is the
neighbours of level d that are not in level d - 1, three bitmaps over one parity class of states,
8.2 GB for 2x7), and every state's code is compared with its level modulo 3. The levels are
disjoint and, once their sizes add up to n!/2, cover every state, so every entry has been
compared with its true distance: a proof, at the cost of a build.

Prints one `ok` line and exits 0. A file whose checksums match but whose entries are wrong fails
verification: the first failing index and its board are named, exit 1. A damaged file (a checksum
that does not match, a cut or unreadable header) is refused as every command refuses it, exit 3.

A pattern table (--table FILE) is checked against its checksum, then rebuilt from its header's
goal and group and compared entry by entry. A move-pruning machine (--table RxC-moves-L.fsm, from
`table build --prune L`) is checked on opening (checksum, states, geometry), then made again
and compared state by state.

Examples:
  table verify
  table verify --json
  table build --board 2x4 -o 2x4.table -q && table verify --table 2x4.table";

/// Arguments of `table verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    table: TableArgs,
    /// Print the verdict as one JSON object on standard output (`ok`, and `failure` when not).
    #[arg(long)]
    json: bool,
}

/// The verdict as `--json` prints it.
#[derive(serde::Serialize)]
pub struct Verdict {
    pub path: String,
    pub ok: bool,
    /// What the table is, in words.
    pub table: String,
    pub entries: u64,
    pub seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
}

/// Prints a failed verdict (stderr, and the JSON object when asked) and gives `code`: exit 1 for
/// an intact file with wrong entries, exit 3 for a damaged one.
pub fn failed(json: bool, mut verdict: Verdict, why: String, code: u8) -> Result<ExitCode> {
    if code == EXIT_FILE && why.contains("is damaged") {
        // the cause says so already, and names the file
        eprintln!("table: {why}");
    } else if code == EXIT_FILE {
        eprintln!("table: {} is damaged: {why}", verdict.path);
    } else {
        eprintln!("table: {} FAILED verification: {why}", verdict.path);
    }
    if json {
        verdict.ok = false;
        verdict.failure = Some(why);
        serde_json::to_writer(std::io::stdout().lock(), &verdict)?;
        println!();
    }
    Ok(ExitCode::from(code))
}

/// A table that failed to open: a checksum mismatch (small tables are checksummed on open) is a
/// damaged file, reported as a failed verdict with exit 3; any other error is passed on.
pub fn damaged_on_open(e: anyhow::Error, path: String, json: bool) -> Result<ExitCode> {
    if !e.chain().any(|c| matches!(c.downcast_ref::<Error>(), Some(Error::ChecksumMismatch { .. }))) {
        return Err(e);
    }
    let verdict = Verdict { path, ok: false, table: String::new(), entries: 0, seconds: 0.0, failure: None };
    failed(json, verdict, super::one_line(&e), EXIT_FILE)
}

pub fn run(args: VerifyArgs) -> Result<ExitCode> {
    if let Some(path) = args.table.table.as_ref().filter(|p| is_machine_file(p)) {
        return verify_machine(path, args.json);
    }
    if let Some(path) = args.table.table.as_ref().filter(|p| super::pattern::is_pattern_file(p)) {
        return super::pattern::verify(path, args.json);
    }
    let opened = match open_table(&args.table, None, false) {
        Ok(o) => o,
        Err(e) => {
            let path = args.table.table.as_ref().map_or_else(|| "the table".to_string(), |p| p.display().to_string());
            return damaged_on_open(e, path, args.json);
        }
    };
    let start = Instant::now();
    let path = opened.path.display();
    let h = opened.table.header();
    let mut verdict = Verdict {
        path: path.to_string(),
        ok: true,
        table: h.describe(),
        entries: h.entries,
        seconds: 0.0,
        failure: None,
    };
    match opened.table.verify() {
        Ok(()) if args.json => {
            verdict.seconds = start.elapsed().as_secs_f64();
            serde_json::to_writer(std::io::stdout().lock(), &verdict)?;
            println!();
            Ok(ExitCode::SUCCESS)
        }
        Ok(()) => {
            writeln!(
                std::io::stdout().lock(),
                "ok: {path} is the exact distance function of {} goal {} ({} states, max depth {}; verified in {:.1} ms)",
                h.shape,
                h.goal,
                thousands(h.entries),
                h.max_depth,
                start.elapsed().as_secs_f64() * 1e3
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e @ Error::ChecksumMismatch { .. }) => {
            verdict.seconds = start.elapsed().as_secs_f64();
            failed(args.json, verdict, e.to_string(), EXIT_FILE)
        }
        Err(e @ (Error::Corrupt { .. } | Error::CorruptHeader(_))) => {
            verdict.seconds = start.elapsed().as_secs_f64();
            failed(args.json, verdict, e.to_string(), EXIT_NO)
        }
        Err(e) => Err(e).with_context(|| format!("verifying {path}")),
    }
}

/// Whether `path` starts with a move-pruning machine's magic bytes.
fn is_machine_file(path: &std::path::Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 8];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut magic)).is_ok() && &magic == b"SLIDEFSM"
}

/// Verifies a move-pruning machine by making it again.
fn verify_machine(path: &std::path::Path, json: bool) -> Result<ExitCode> {
    use slidetable::search::prune::MovePruner;
    let start = Instant::now();
    let shown = path.display().to_string();
    let mut verdict =
        Verdict { path: shown.clone(), ok: true, table: String::new(), entries: 0, seconds: 0.0, failure: None };
    let machine = match MovePruner::open(path) {
        Ok(m) => m,
        Err(e @ Error::Io { .. }) => return Err(e.into()),
        Err(e) => return failed(json, verdict, e.to_string(), EXIT_FILE),
    };
    verdict.table =
        format!("the move-pruning machine of {} for strings of up to {} moves", machine.shape(), machine.max_len());
    verdict.entries = machine.states() as u64;
    let again = MovePruner::generate(machine.shape(), machine.max_len())?;
    verdict.seconds = start.elapsed().as_secs_f64();
    if again != machine {
        let why = format!(
            "made again it has {} states and {} forbidden strings, the file {} and {}",
            again.states(),
            again.patterns(),
            machine.states(),
            machine.patterns()
        );
        return failed(json, verdict, why, EXIT_NO);
    }
    if json {
        serde_json::to_writer(std::io::stdout().lock(), &verdict)?;
        println!();
    } else {
        writeln!(
            std::io::stdout().lock(),
            "ok: {shown} is {} ({} states, {} forbidden strings; made again and compared in {:.2} s)",
            verdict.table,
            thousands(verdict.entries),
            thousands(machine.patterns()),
            verdict.seconds
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
