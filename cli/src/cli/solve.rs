//! `table solve`: heuristic search on a board of any size, with its statistics, checked against a
//! perfect table where one exists.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicI32, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use serde::Serialize;
use slidetable::puzzle::board::{moves_letters, moves_to_string};
use slidetable::search::{
    effective_branching_factor, Algorithm, Checkpointing, ChildOrder, Found, Options, Resumed, Watch, ASTAR_IDA_BYTES,
};
use slidetable::solver::{
    check_partition, default_max_memory, GuideDetails, HeuristicKind, Notice, Solver, SolverConfig,
};
use slidetable::{Board, Dir, Error, Goal, Shape};

use super::input::{preset_list, BoardInput};
use super::{open_file, print_notice, thousands, BoardArgs, BoardJson, UsageError, EXIT_NO};

pub const LONG_ABOUT: &str = "\
Solve a board by heuristic search: A*, IDA*, breadth-first, greedy best-first, weighted A*, a
search within a proven factor of the optimum (--within), beam search, or by construction (reduce),
guided by misplaced tiles, Manhattan distance, linear conflict, Nilsson's P+3S, pattern databases
or the exact distances of a table. Boards of any size from 2x2 to 127x127, square or rectangular,
to any goal. Unsolvable boards are found at once by the parity rule, never by searching.

The board is given as tiles (a square board's size is read from their number: 16 tiles is 4x4),
as a COS 226 puzzle file (--file), or by name (--preset; `--preset list` lists them).

A* and IDA* stop only when the goal is taken off the open list (or reached within the bound), so
with an admissible heuristic (all but nilsson) the solution is optimal. Greedy and weighted
search trade that for speed. Where a table covers the board (3x3 and smaller are built in memory
in milliseconds; larger ones up to 12 cells when their file exists), the solution's length is
checked against the exact distance.

Pattern databases (-H pdb) make the 15-puzzle a millisecond problem and the 24-puzzle solvable:
for each group of a partition of the tiles, a table (`table build --pattern`) holds the fewest
moves of the group's tiles that bring them home; disjoint groups add up to an admissible estimate,
and on a square board the board reflected about the diagonal gives a second one (the larger is
used). A catalogue (--pattern small-t, or partitions joined by +) takes the largest of several
partitions' sums, looking up only the groups that hold the moved tile. The tables are read from
--dir; small missing ones (6-6-3, 5-5-5, auto) are built on the spot, large ones (7-8: 100 s;
6-6-6-6, small-t: minutes) are named with the command that builds them.
Without -H, a board past 12 cells uses the pattern tables found in --dir, or linear conflict with
a hint. IDA* is the default with pdb, its subtrees split over --threads.

Without --algorithm, the method depends on the board's size:
  up to 25 cells (to the 24-puzzle)  optimal: IDA* (A* up to 12 cells), its length proven optimal;
                                     past 16 cells (3x6, 4x5, 3x8, 5x5) only with pattern tables
                                     in --dir: without them (an optimal search can then take
                                     hours) --within 1 for at most 10 s, the optimum if proven by
                                     then, else the best solution found with its proven factor
  26 to 64 cells (6x6, 7x7, 8x8)     --within 1.5 for at most 10 s: a solution proven at most 1.5
                                     times the optimum, or at 10 s the best found with the factor
                                     it has proven (always a solution: the search starts from
                                     beam searches' (1,000 boards wide, then 3,000, 10,000 and
                                     30,000 while the time allows) or reduce's, whichever is
                                     shorter; with -H nilsson, which proves nothing, the beam
                                     search alone)
  past 64 cells (to 127x127)         reduce: rows and columns placed one at a time, then a small
                                     search; 4.5 s on a 100x100, about 2.5 times the Manhattan
                                     distance, its lower bound printed beside it (not stopped by
                                     --time-limit)
--within W, --anytime and --time-limit ask for another bound or time on any size.

--batch solves one board per line (of --file, or standard input), boards in parallel: a comment
line naming the search and its tables, one line each (line, moves, nodes generated, seconds,
solution; with --within or past 64 cells, the lower bound and the factor proven, and why a
board's search stopped early; `gave up` and its nodes for a search a limit stopped before any
solution, its reason on stderr), then a `# total` line.

Statistics: nodes expanded and generated (a node is generated when a successor is made; the move
straight back is never made; the start counts), the largest open list, time, the search's peak
memory, and the effective branching factor b* (N + 1 = 1 + b* + ... + b*^d).

Output: a readable report (default); `--format cos226` prints exactly what the COS 226 test
client prints (`Minimum number of moves = N`, then every board of the solution, or `No solution
possible`); `--json` for scripts (a search that gave up prints its report too, with `gave_up`,
its reason, and `generated`).

The report names the pattern tables searched with (the partition, how many tables are zero-aware
or classic: a group's zero-aware table is taken when its file is in --dir; keep classic tables in
a --dir of their own to search with them) and the move pruning.

Exit status: 0 solved; 1 the board cannot reach the goal; 2 malformed board or arguments;
3 table or checkpoint file problem; 4 the search gave up at --max-nodes, --max-memory or
--time-limit. With --batch: 2 (or 3) when a line could not be solved for that reason, else 4 when
a search gave up.

Examples:
  table solve 8 6 7 2 5 4 3 0 1
  table solve --preset worst --heuristic nilsson
  table solve --preset easy --animate --delay 300
  table solve --file data/cos226/puzzle4x4-50.txt --algorithm idastar
  table solve --file data/puzzle04.txt --format cos226
  table solve 5 1 2 4 0 6 3 7 8 --board 3x3 --goal blank-first --json
  table solve --board 2x4 1 2 3 4 5 6 0 7 --algorithm weighted --weight 1.5
  table solve --goal blank-first -H pdb --pattern 5-5-5 0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15
  table solve --file data/puzzle4x4-44.txt -H pdb --pattern 5-5-5+6-6-3 --algorithm astar-ida
  table solve --batch --instances korf100 -H pdb --pattern 6-6-3
  grep -v '^#' data/korf100.tsv | cut -f3 | table solve --batch --goal blank-first -H pdb";

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum AlgorithmArg {
    /// A*: optimal with an admissible heuristic.
    Astar,
    /// Iterative-deepening A*: optimal, memory linear in the solution length.
    Idastar,
    /// A*+IDA* (-H pdb only): A* until --max-memory, then IDA* below the boards left on its
    /// open list, the nearest the goal by h first, over --threads: optimal, fewer nodes (the
    /// last iteration meets the solution far sooner), but A* runs on one thread.
    AstarIda,
    /// Breadth-first (uniform cost): optimal, ignores the heuristic.
    Bfs,
    /// Greedy best-first on h alone: fast, not optimal.
    Greedy,
    /// A* on g + w*h (--weight): at most w times the optimum with an admissible heuristic.
    Weighted,
    /// Constructive: rows and columns placed one at a time, then a small search; seconds on any
    /// board up to 127x127, not optimal (its lower bound printed beside it).
    Reduce,
    /// Beam search: breadth-first, keeping at each depth the --beam-width boards the heuristic
    /// puts nearest, then by linear conflict; never a board twice. Not optimal; a second on a
    /// 6x6, far shorter there than greedy or reduce (its lower bound printed beside it). Past
    /// about 10x10 it wanders: use reduce. A narrow beam that meets a dead end (every board it
    /// can reach kept before), or a limit (--time-limit, --max-nodes) before the goal, prints
    /// reduce's solution and says so.
    Beam,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum HeuristicArg {
    /// Misplaced tiles (h1; also named `misplaced` or `h1`).
    #[value(alias = "misplaced", alias = "h1")]
    Hamming,
    /// Manhattan distance (h2).
    #[value(alias = "h2")]
    Manhattan,
    /// Manhattan plus two moves for each tile that must leave its row or column.
    #[value(alias = "lc")]
    LinearConflict,
    /// Nilsson's P + 3S (as in the Prolog tutorial): not admissible, solutions may not be optimal.
    #[value(alias = "p+3s")]
    Nilsson,
    /// The exact distance from a perfect table (boards of at most 12 cells).
    Table,
    /// Additive pattern databases (--pattern; tables from `table build --pattern`, in --dir),
    /// with the reflected lookup on square boards. IDA* by default.
    Pdb,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum OrderArg {
    /// The children with the lowest estimate first.
    Estimate,
    /// Up, left, right, down (the blank's moves).
    Fixed,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// A readable report.
    Human,
    /// What the COS 226 test client prints.
    Cos226,
    /// One JSON object (with --batch, one a line, then a `{"totals": ...}` line).
    Json,
}

/// Arguments of `table solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub(super) input: BoardInput,
    #[command(flatten)]
    pub(super) board: BoardArgs,
    /// The search algorithm. [default: astar, or weighted when --weight is given]
    #[arg(long, short = 'a', value_enum, value_name = "NAME")]
    algorithm: Option<AlgorithmArg>,
    /// The heuristic. [default: linear-conflict; past 12 cells, pdb when pattern tables for the
    /// board are in --dir]
    #[arg(long = "heuristic", short = 'H', value_enum, value_name = "NAME")]
    heuristic: Option<HeuristicArg>,
    /// With -H pdb: the partition, a name (4x4: 5-5-5, 6-6-3, 7-8; 5x5: 6-6-6-6; any board:
    /// auto), groups of tiles like 1,2,3/4,5,6,7, or a catalogue: partitions joined by +, or
    /// 5x5's small-t; the estimate is then the largest of their sums. [default: the named
    /// partition or catalogue with the most entries whose tables are in --dir; else 6-6-3 on
    /// 4x4 (built on the spot), 6-6-6-6 on 5x5, auto]
    #[arg(long, value_name = "NAME|GROUPS")]
    pattern: Option<String>,
    /// Where the pattern tables are. [default: the current directory]
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// With -H pdb: do not also look up the board reflected about the diagonal.
    #[arg(long)]
    no_reflect: bool,
    /// Threads for one search (IDA* with pattern databases splits its subtrees among them; the
    /// nodes counted and the solution are those of the search on one thread, whatever N);
    /// with --batch, N boards are solved at once instead, one thread each (sharing --max-memory,
    /// but for astar-ida, whose A* budget each board has whole). 1 to 1,024. [default: all cores]
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_THREADS))]
    threads: Option<usize>,
    /// With -H pdb: the order IDA* tries a node's children in: `estimate` (lowest first; and a
    /// long iteration's subtrees below a frontier of 8,192 nodes taken those nearest the goal
    /// first) or `fixed` (up, left, right, down, the subtrees in the search's own order: Korf &
    /// Felner's order, whose published node counts it reproduces one for one with --prune 2).
    #[arg(long, value_enum, value_name = "ORDER", default_value = "estimate")]
    order: OrderArg,
    /// With -H pdb: move pruning. IDA* never makes a string of up to L moves that has a shorter
    /// or equal-but-earlier equivalent (Taylor & Korf 1993), read from --dir
    /// (`RxC-moves-L.fsm`, `table build --prune L`) or made there when quick (L <= 12).
    /// 2 forbids only the move straight back, as Korf & Felner did. [default: 12 on boards up to
    /// 36 cells (made in about a second at first use), else 2]
    #[arg(long, value_name = "L", value_parser = clap::value_parser!(u8).range(0..=24))]
    prune: Option<u8>,
    /// Solve one board per line of --file (or standard input), in parallel; print one result line
    /// per board, then the totals.
    #[arg(long, conflicts_with_all = ["preset", "steps", "format"])]
    batch: bool,
    /// With --batch: solve a set of instances shipped with the tool instead of --file:
    /// `korf100` (Korf's 100 15-puzzles, 1985) or `korf24` (Korf & Felner's 50 24-puzzles,
    /// 2002). Their goal (blank first) is the default --goal.
    #[arg(long, value_name = "NAME", requires = "batch", conflicts_with = "file")]
    pub(super) instances: Option<String>,
    /// Weighted A*: the weight w of h in g + w*h (0 to 1000, at most three decimals). [default: 2]
    #[arg(long, value_name = "W", allow_negative_numbers = true)]
    weight: Option<f64>,
    /// Beam search (--algorithm beam only; the default's own beams are 1000 to 30000 wide): the boards
    /// kept at each depth, 1 to 16777216. A wider beam takes longer a depth and mostly finds
    /// shorter solutions; a narrow one (under about 1000 on a 6x6) can wander for thousands of
    /// moves. [default: 10000]
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = clap::value_parser!(u32).range(1..=slidetable::search::beam::MAX_WIDTH as i64))]
    beam_width: Option<u32>,
    /// A solution proven at most W times as long as the optimum (W from 1 to 1000, at most three
    /// decimals: 1.1 is at most 10% longer), printed with its proof: a lower bound on the
    /// optimum, the smallest g + h left on the open list (or the start's h, whichever is
    /// larger). The search (optimistic search, Thayer & Ruml 2008) finds a first solution by
    /// weighted A* at weight 2W - 1, then expands the boards of smallest g + h until the bound
    /// holds. Needs an admissible heuristic. A limit reached once a solution is found
    /// (--time-limit, --max-memory, --max-nodes) returns it with the bound it had proven.
    #[arg(long, value_name = "W", allow_negative_numbers = true, conflicts_with_all = ["algorithm", "weight"])]
    within: Option<f64>,
    /// Anytime: the bounded search (--within W, default 2) goes on once its bound holds,
    /// improving the solution and raising the lower bound until the optimum is proven or
    /// --time-limit (or another limit) is reached; it then prints the best solution and its
    /// proof. Each better solution lowers the search's weight (as ARA* does).
    #[arg(long, conflicts_with_all = ["algorithm", "weight", "batch"])]
    anytime: bool,
    /// Stop the search after this many seconds: without a solution, it gives up (exit 4); a
    /// bounded or anytime search (--within, --anytime) returns the best solution it has.
    /// [default: 10 for the default search of boards of 26 to 64 cells, and of 17 to 25 cells
    /// without pattern tables; none otherwise]
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
    time_limit: Option<f64>,
    /// The table file for --heuristic table and for checking optimality; it also gives the
    /// board's shape and, without --goal, the goal. [default: the one `table build` names for the
    /// board and goal, if it exists; 3x3 and smaller are built in memory]
    #[arg(long, short = 't', value_name = "PATH")]
    table: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "human", value_name = "FORMAT")]
    format: Format,
    /// Same as --format json.
    #[arg(long, conflicts_with = "format")]
    pub(super) json: bool,
    /// Also print every board along the solution (human format).
    #[arg(long)]
    steps: bool,
    /// Play the solution in place, one board replacing the last (human format, on a terminal;
    /// elsewhere the boards are printed one after another, as --steps does).
    #[arg(long, conflicts_with = "steps")]
    animate: bool,
    /// Milliseconds between the boards of --animate.
    #[arg(long, value_name = "MS", default_value_t = 400, requires = "animate")]
    delay: u64,
    /// Give up after generating this many nodes.
    #[arg(long, value_name = "N")]
    pub(super) max_nodes: Option<u64>,
    /// Give up when the search's data would exceed this size (like 512M, 8G; not used by IDA*);
    /// for astar-ida, the budget of its A* part (in a --batch, each board's). [default: three
    /// quarters of the available memory, at most 16G; astar-ida: 1G]
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub(super) max_memory: Option<u64>,
    /// With --algorithm astar-ida: keep the search's progress in FILE (rewritten whole about
    /// once a minute, at each new bound, and when Ctrl-C or a TERM signal stops the search) and
    /// resume from it when FILE exists, so a search of hours can be stopped and run again (a
    /// killed one loses what it did since its last save). Resuming takes the same board,
    /// tables, --prune, --order and --max-memory (the file's fingerprint is checked): A* is
    /// redone, then the search goes on from the saved place, the frontier boards under way
    /// searched again. The file is removed when the solution is found; the time reported
    /// includes the earlier runs' up to their last save. While a search runs, FILE.lock beside
    /// it keeps a second search off the same file (it is refused at once). From a script, stop
    /// a search run in the background with TERM (`kill PID`): the shell starts background
    /// commands with Ctrl-C's signal ignored.
    #[arg(long, value_name = "FILE", conflicts_with = "batch")]
    checkpoint: Option<PathBuf>,
}

impl HeuristicArg {
    fn kind(self) -> HeuristicKind {
        match self {
            HeuristicArg::Hamming => HeuristicKind::Hamming,
            HeuristicArg::Manhattan => HeuristicKind::Manhattan,
            HeuristicArg::LinearConflict => HeuristicKind::LinearConflict,
            HeuristicArg::Nilsson => HeuristicKind::Nilsson,
            HeuristicArg::Table => HeuristicKind::Table,
            HeuristicArg::Pdb => HeuristicKind::Pdb,
        }
    }
}

impl SolveArgs {
    /// What the library needs to choose the heuristic and load its tables. A table named with
    /// --table is opened by `run` itself, first (it gives the board's shape).
    pub(super) fn config(&self) -> SolverConfig {
        SolverConfig {
            heuristic: self.heuristic.map(HeuristicArg::kind),
            partition: self.pattern.clone(),
            dir: self.dir.clone().unwrap_or_else(|| PathBuf::from(".")),
            reflect: !self.no_reflect,
            prune: self.prune.map(usize::from),
            ..SolverConfig::default()
        }
    }

    /// The algorithm asked for, or `None` for the solver's default.
    pub(super) fn algorithm(&self) -> Result<Option<Algorithm>> {
        if let Some(w) = self.within.or(self.anytime.then_some(2.0)) {
            slidetable::search::check_within(w).map_err(|e| UsageError(format!("--within: {e}")))?;
            return Ok(Some(Algorithm::Within(w)));
        }
        // its range is clap's to check
        if self.beam_width.is_some() && !matches!(self.algorithm, Some(AlgorithmArg::Beam)) {
            bail!(UsageError("--beam-width goes with --algorithm beam".into()));
        }
        Ok(match (self.algorithm, self.weight) {
            (None, None) => None,
            (None | Some(AlgorithmArg::Weighted), w) => Some(Algorithm::Weighted(w.unwrap_or(2.0))),
            (Some(_), Some(_)) => bail!(UsageError("--weight goes with --algorithm weighted".into())),
            (Some(AlgorithmArg::Astar), None) => Some(Algorithm::AStar),
            (Some(AlgorithmArg::Idastar), None) => Some(Algorithm::IdaStar),
            (Some(AlgorithmArg::AstarIda), None) => Some(Algorithm::AStarIda),
            (Some(AlgorithmArg::Bfs), None) => Some(Algorithm::Bfs),
            (Some(AlgorithmArg::Greedy), None) => Some(Algorithm::Greedy),
            (Some(AlgorithmArg::Reduce), None) => Some(Algorithm::Reduce),
            (Some(AlgorithmArg::Beam), None) => {
                Some(Algorithm::Beam(self.beam_width.unwrap_or(slidetable::search::beam::DEFAULT_WIDTH)))
            }
        })
    }

    pub(super) fn order(&self) -> ChildOrder {
        match self.order {
            OrderArg::Estimate => ChildOrder::ByEstimate,
            OrderArg::Fixed => ChildOrder::Fixed,
        }
    }

    /// `--time-limit` as a duration.
    pub(super) fn time_limit(&self) -> Option<std::time::Duration> {
        self.time_limit.map(std::time::Duration::from_secs_f64)
    }

    pub(super) fn threads(&self) -> usize {
        self.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1)
    }
}

/// A number of seconds, more than 0: `10`, `0.5`.
pub(super) fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().trim_end_matches('s').trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s < 1e9 => Ok(s),
        _ => Err(format!(
            "`{text}` is not a number of seconds: give one above 0 and below 1e9 (31 years), like 10 or 0.5"
        )),
    }
}

/// `512M`, `8G`, `1024K`, `100000` (bytes).
pub(super) fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim().to_ascii_uppercase();
    let t = t.strip_suffix("IB").or_else(|| t.strip_suffix('B')).unwrap_or(&t);
    let (digits, unit) = match t.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((i, _)) => t.split_at(i),
        None => (t, ""),
    };
    let shift = match unit {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(format!("`{text}` is not a size: write a number with K, M, G or T, like 512M or 8G")),
    };
    let n: f64 = digits
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a size: write a number with K, M, G or T, like 512M or 8G"))?;
    if !(n.is_finite() && n > 0.0) {
        return Err(format!("`{text}` is not a positive size"));
    }
    let bytes = n * (1u64 << shift) as f64;
    if bytes >= u64::MAX as f64 {
        return Err(format!("`{text}` is larger than any size this program can use"));
    }
    Ok(bytes as u64)
}

#[derive(Serialize)]
struct Report {
    #[serde(skip_serializing_if = "Option::is_none")]
    preset: Option<String>,
    #[serde(flatten)]
    head: BoardJson,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    /// An unsolvable board: the named goals it can reach instead.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    solvable_toward: Vec<String>,
    algorithm: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    weight: Option<f64>,
    /// `--algorithm beam`: the boards kept at each depth.
    #[serde(skip_serializing_if = "Option::is_none")]
    beam_width: Option<u32>,
    /// `--within W`: the factor asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    within_asked: Option<f64>,
    /// `--anytime`: the bounded search went on past its bound.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    anytime: bool,
    heuristic: &'static str,
    /// Whether the heuristic never overestimates; absent when no heuristic guided a search
    /// (breadth-first, or a board the parity rule answered).
    #[serde(skip_serializing_if = "Option::is_none")]
    admissible: Option<bool>,
    /// With pattern databases: which tables, of which kind, and the move pruning.
    #[serde(skip_serializing_if = "Option::is_none")]
    pattern_tables: Option<PatternTablesJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tiles: Option<Vec<u16>>,
    /// The exact distance, where a table covers the board.
    #[serde(skip_serializing_if = "Option::is_none")]
    exact: Option<u32>,
    /// Whether the solution is optimal: from the table, or guaranteed by the algorithm.
    #[serde(skip_serializing_if = "Option::is_none")]
    optimal: Option<bool>,
    /// A proven lower bound on the optimum (the length itself for an optimal search).
    #[serde(skip_serializing_if = "Option::is_none")]
    lower_bound: Option<u32>,
    /// The length over the lower bound: the solution is proven at most this many times the
    /// optimum.
    #[serde(skip_serializing_if = "Option::is_none")]
    within: Option<f64>,
    /// A search stopped by a limit before any solution: why (as on standard error, exit 4).
    #[serde(skip_serializing_if = "Option::is_none")]
    gave_up: Option<String>,
    /// The nodes generated by a search that gave up.
    #[serde(skip_serializing_if = "Option::is_none")]
    generated: Option<u64>,
    /// The limit that stopped a bounded search before its proof, its best solution reported.
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<StatsReport>,
}

impl Report {
    /// The algorithm and its parameter.
    fn asked(&mut self, algorithm: Algorithm) {
        self.algorithm = algorithm.name();
        self.weight = if let Algorithm::Weighted(w) = algorithm { Some(w) } else { None };
        self.beam_width = if let Algorithm::Beam(w) = algorithm { Some(w) } else { None };
        self.within_asked = if let Algorithm::Within(w) = algorithm { Some(w) } else { None };
    }
}

/// The pattern databases of a search, as JSON reports give them.
#[derive(Serialize)]
pub(super) struct PatternTablesJson {
    pattern: String,
    tables: usize,
    zero_aware: usize,
    reflect: bool,
    prune: usize,
}

impl From<GuideDetails> for PatternTablesJson {
    fn from(d: GuideDetails) -> PatternTablesJson {
        PatternTablesJson {
            pattern: d.pattern,
            tables: d.tables,
            zero_aware: d.zero_aware,
            reflect: d.reflect,
            prune: d.prune,
        }
    }
}

#[derive(Serialize)]
struct StatsReport {
    expanded: u64,
    generated: u64,
    peak_open: u64,
    stored: u64,
    iterations: u64,
    peak_bytes: u64,
    seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    branching_factor: Option<f64>,
}

pub fn run(args: SolveArgs) -> Result<ExitCode> {
    if args.input.wants_list() {
        print!("{}", preset_list());
        return Ok(ExitCode::SUCCESS);
    }
    // a --dir that is not there would have every table built again on each run, unsaved
    if let Some(dir) = args.dir.as_ref().filter(|d| !d.is_dir()) {
        let what = if dir.exists() { "is not a directory" } else { "does not exist" };
        anyhow::bail!("--dir {}: {what} (create it, or leave --dir out for the current directory)", dir.display());
    }
    if args.batch {
        return super::solve_batch::run(&args);
    }
    // A named table is opened first: it decides the shape of a board of tiles and, without
    // --goal, the goal; a file that cannot be trusted is the error, whatever the board.
    let named = args.table.as_ref().map(|p| open_file(p).map(|t| (t, p))).transpose()?;
    let mut given = args.input.read(&args.board, named.as_ref().map(|(t, _)| t.header().shape))?;
    if let (Some((t, _)), None, None) = (&named, &args.board.goal, &given.preset) {
        if t.header().shape == given.board.shape() {
            given.goal = Goal::identify(t.goal().clone());
        }
    }
    let board = given.board;
    let goal = given.goal.board(board.shape())?;
    let format = if args.json { Format::Json } else { args.format };
    // a usage mistake is said before any table is looked for or built
    let algorithm = args.algorithm()?;
    if args.checkpoint.is_some() && algorithm != Some(Algorithm::AStarIda) {
        bail!(UsageError("--checkpoint goes with --algorithm astar-ida".into()));
    }
    let config = args.config();
    let mut report = Report {
        preset: given.preset.as_ref().map(|p| p.name.clone()),
        head: BoardJson::new(&board, &goal, true),
        reason: None,
        solvable_toward: Vec::new(),
        // the one asked for, until the default is decided below
        algorithm: "none",
        weight: None,
        beam_width: None,
        within_asked: None,
        anytime: args.anytime,
        heuristic: "none",
        admissible: None,
        pattern_tables: None,
        moves: None,
        solution: None,
        tiles: None,
        exact: None,
        optimal: None,
        lower_bound: None,
        within: None,
        stopped: None,
        gave_up: None,
        generated: None,
        stats: None,
    };
    // a --pattern that does not parse (or goes with another heuristic) is a usage mistake,
    // whatever the board
    check_partition(&goal, &config)?;
    if let Some(a) = algorithm {
        report.asked(a);
    }
    // The parity rule decides at once, before any table is looked for or built: no search is
    // made (the report's heuristic is `none`), and the report names the goals the board can
    // reach instead.
    if !board.is_solvable_to(&goal) {
        return unsolvable(report, &board, &goal, format);
    }
    let solver = match named {
        Some((table, p)) => Solver::with_table(
            &given.goal,
            board.shape(),
            &config,
            Some((table, p.display().to_string())),
            print_notice,
        )?,
        None => Solver::new(&given.goal, board.shape(), &config, print_notice)?,
    };
    // the default's time limit goes with the default only
    let time_limit = args.time_limit().or(if algorithm.is_none() { solver.default_time_limit() } else { None });
    let algorithm = algorithm.unwrap_or_else(|| solver.default_algorithm());
    let guide = solver.guide()?;
    hint_bit_tables(&solver, algorithm);
    let options = Options {
        algorithm,
        max_nodes: args.max_nodes,
        max_bytes: Some(args.max_memory.unwrap_or_else(|| match algorithm {
            Algorithm::AStarIda => ASTAR_IDA_BYTES,
            _ => default_max_memory(),
        })),
        order: args.order(),
        threads: args.threads(),
        // with a checkpoint, the first Ctrl-C or TERM stops the search with its progress saved
        watch: args.checkpoint.as_ref().and_then(|_| stop_on_signal()),
        prune: solver.pruner(),
        checkpoint: args
            .checkpoint
            .clone()
            .map(|path| Checkpointing { on_resume: Some(say_resumed), ..Checkpointing::new(path) }),
        time_limit,
        anytime: args.anytime,
    };
    let exact = solver.exact(&board)?;
    report.asked(algorithm);
    // breadth-first search uses no estimate, whatever -H says
    let details = solver.guide_details().filter(|_| algorithm != Algorithm::Bfs);
    if algorithm != Algorithm::Bfs {
        report.heuristic = guide.name();
        report.admissible = Some(guide.is_admissible());
        report.pattern_tables = details.clone().map(PatternTablesJson::from);
    }
    report.exact = exact;
    let found = match solver.solve(&board, &options) {
        Err(Error::Cancelled { .. }) if STOPPED_BY.load(Relaxed) != 0 => return Ok(stopped(&args)),
        Err(e) => {
            let generated = match &e {
                Error::SearchLimit { generated, .. } | Error::DeadEnds { generated, .. } => Some(*generated),
                _ => None,
            };
            let err = super::said_for(e, report.heuristic, true);
            // a search that gave up is a report too (with the error on standard error, exit 4)
            if let (Format::Json, Some(generated)) = (format, generated) {
                report.gave_up = Some(super::one_line(&err));
                report.generated = Some(generated);
                let mut out = io::stdout().lock();
                serde_json::to_writer(&mut out, &report)?;
                writeln!(out)?;
            }
            return Err(err);
        }
        Ok(found) => found,
    };
    let Some(mut found) = found else {
        // the parity rule above has said so for every board that cannot reach the goal
        return unsolvable(report, &board, &goal, format);
    };
    // the search is over, so its checkpoint was removed: one that would not go is said (a rerun
    // would only resume to this same solution, but the file is the user's to clear)
    if let Some(path) = args.checkpoint.as_ref().filter(|p| p.exists()) {
        // tried once more, for the reason (the file a symbolic link names, as the search took it)
        let file = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        if let Err(e) = std::fs::remove_file(&file) {
            eprintln!(
                "table: the search is over, but the checkpoint file {} could not be removed ({e}): remove it by hand (run again, it would only give this same solution)",
                file.display()
            );
        }
    }
    let mut out = io::stdout().lock();
    let d = found.moves.len();
    let guaranteed = guide.is_admissible() && algorithm.is_optimal_with_admissible_guide();
    report.optimal = match exact {
        Some(e) => Some(e as usize == d),
        None if guaranteed || matches!(algorithm, Algorithm::Bfs) || found.proven_optimal() => Some(true),
        None => None,
    };
    // a table's exact distance is a proof too, and the best one
    if let Some(e) = exact {
        found.lower_bound = Some(found.lower_bound.unwrap_or(0).max(e));
    }
    report.lower_bound = found.lower_bound;
    // rounded up: the proof never claims more than it shows
    report.within = found.within().map(|r| (r * 10_000.0).ceil() / 10_000.0);
    report.stopped = found.stopped.clone();
    let mut tiles = Vec::with_capacity(d);
    let mut b = board.clone();
    for &m in &found.moves {
        tiles.push(b.apply(m).unwrap_or(0));
    }
    report.moves = Some(d);
    report.solution = Some(moves_letters(&found.moves));
    report.tiles = Some(tiles);
    let s = found.stats;
    report.stats = Some(StatsReport {
        expanded: s.expanded,
        generated: s.generated,
        peak_open: s.peak_open,
        stored: s.stored,
        iterations: s.iterations,
        peak_bytes: s.peak_bytes,
        seconds: s.elapsed.as_secs_f64(),
        branching_factor: effective_branching_factor(s.generated as f64, d as u32),
    });
    match format {
        Format::Json => {
            serde_json::to_writer(&mut out, &report)?;
            writeln!(out)?;
        }
        Format::Cos226 => {
            // the format's words claim a minimum: said on stderr when it is not proven (stdout
            // stays exactly the test client's)
            if report.optimal != Some(true) {
                eprintln!(
                    "table: note: {d} moves is not proven minimal ({} with {}): use an optimal search for COS 226's answer",
                    report.algorithm, report.heuristic
                );
            }
            writeln!(out, "Minimum number of moves = {d}")?;
            let mut b = board.clone();
            writeln!(out, "{}", b.to_cos226())?;
            for &m in &found.moves {
                b.apply(m);
                writeln!(out, "{}", b.to_cos226())?;
            }
        }
        Format::Human => {
            if let Some(p) = &given.preset {
                writeln!(out, "preset {}: {}", p.name, p.source)?;
            }
            let steps = if args.animate && std::io::stdout().is_terminal() && board.shape().rows() <= 40 {
                Steps::Animate(std::time::Duration::from_millis(args.delay))
            } else if args.steps || args.animate {
                Steps::List
            } else {
                Steps::None
            };
            let from = solver.table().map(|(_, from)| from);
            human(&mut out, &board, &goal, &given.goal, &report, &found, from, details.as_ref(), steps)?
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The most threads `--threads` takes: more than any machine's cores, fewer than a process may
/// start (100,000 ran out of threads and aborted).
const MAX_THREADS: u64 = 1024;

/// Said of a search that reads 1-bit zero-aware tables a board at a time (all but IDA* and
/// A*+IDA*, which read them against the parent's value): each entry is then a walk toward the
/// goal, and the search far slower than IDA* with the same tables.
pub(super) fn hint_bit_tables(solver: &Solver, algorithm: Algorithm) {
    let bits = solver.patterns().is_some_and(|s| s.tables().iter().any(|t| t.zero().is_some_and(|(_, bits)| bits)));
    if bits && !matches!(algorithm, Algorithm::IdaStar | Algorithm::AStarIda | Algorithm::Bfs | Algorithm::Reduce) {
        let name = algorithm.name();
        print_notice(Notice::Hint(format!(
            "{name} reads 1-bit zero-aware tables a board at a time, each entry a walk toward the goal, far slower than \
             IDA* (no --algorithm) and astar-ida, which read them against the parent's value; for this search, \
             classic tables in a --dir of their own are faster"
        )));
    }
}

/// Said when a search goes on from its checkpoint (once A* has shown the file is its own).
fn say_resumed(path: &std::path::Path, r: Resumed) {
    eprintln!(
        "table: going on from {}: bound {}, {} nodes generated and {:.1} s in the earlier runs (counted in the report)",
        path.display(),
        r.bound,
        thousands(r.generated),
        r.seconds
    );
}

/// The report of a board that cannot reach the goal: exit 1.
fn unsolvable(mut report: Report, board: &Board, goal: &Board, format: Format) -> Result<ExitCode> {
    let mut out = io::stdout().lock();
    report.head.solvable = false;
    report.reason = Some(board.parity_to(goal).explain());
    report.solvable_toward = Goal::reachable_instead(board, goal).iter().map(Goal::to_string).collect();
    match format {
        Format::Cos226 => writeln!(out, "No solution possible")?,
        Format::Json => {
            serde_json::to_writer(&mut out, &report)?;
            writeln!(out)?;
        }
        Format::Human => {
            if board.shape().cells() <= 400 {
                write!(out, "{}", board.grid())?;
            }
            writeln!(out, "unsolvable: this board cannot reach the goal {}", super::short(goal))?;
            writeln!(out, "why: {}", report.reason.as_deref().unwrap_or_default())?;
            if let Some(hint) = super::other_goal_hint(&report.solvable_toward) {
                writeln!(out, "{hint}")?;
            }
        }
    }
    Ok(ExitCode::from(EXIT_NO))
}

#[allow(clippy::too_many_arguments)]
fn human(
    out: &mut impl Write,
    board: &Board,
    goal: &Board,
    goal_name: &slidetable::Goal,
    report: &Report,
    found: &Found,
    table_from: Option<&str>,
    details: Option<&GuideDetails>,
    steps: Steps,
) -> Result<()> {
    let d = found.moves.len();
    let shape: Shape = board.shape();
    let small = shape.cells() <= 400;
    if small {
        write!(out, "{}", board.grid())?;
    }
    let goal_text = match goal_name {
        slidetable::Goal::Custom(_) => goal.to_string(),
        // a named goal spelled out while it stays a line
        named if shape.cells() <= 64 => format!("{named} ({goal})"),
        named => named.to_string(),
    };
    writeln!(out, "board        {shape}, goal {goal_text}")?;
    let weight = match (report.weight, report.within_asked) {
        (Some(w), _) => format!(" (w = {w})"),
        (_, Some(w)) if report.anytime => {
            format!(" a factor {w} of optimal, then anytime (improved until the optimum is proven or a limit)")
        }
        (_, Some(w)) => format!(" a factor {w} of optimal (optimistic search)"),
        _ => match report.beam_width {
            Some(w) => format!(
                " of {} board{} a depth (fast, not optimal)",
                thousands(w as u64),
                if w == 1 { "" } else { "s" }
            ),
            None => String::new(),
        },
    };
    if report.algorithm == "reduce" {
        // the heuristic only gives the bound
        writeln!(
            out,
            "search       reduce (rows and columns placed in turn: fast, not optimal), bound by {}",
            report.heuristic
        )?;
    } else if report.heuristic == "none" {
        writeln!(out, "search       {} (uniform cost: no heuristic)", report.algorithm)?;
    } else {
        writeln!(out, "search       {}{weight} with {}", report.algorithm, report.heuristic)?;
    }
    if let Some(d) = details {
        writeln!(out, "tables       {d}")?;
    }
    if report.admissible == Some(false) {
        writeln!(
            out,
            "note         {} is not admissible: it can overestimate, so the solution may not be optimal",
            report.heuristic
        )?;
    }
    match (report.lower_bound, report.within) {
        (Some(lb), Some(r)) if lb as usize != d => {
            writeln!(out, "moves        {d} (at most {} times optimal: at least {lb} moves are needed)", ratio_up(r))?
        }
        _ => writeln!(out, "moves        {d}")?,
    }
    if let Some(why) = &report.stopped.as_ref().filter(|_| report.algorithm == "beam") {
        writeln!(out, "stopped      at {why}")?;
    } else if let Some(why) = &report.stopped {
        writeln!(out, "stopped      at {why}: the best solution found, with the bound proven by then")?;
    }
    if d > 0 {
        writeln!(out, "solution     {}   (the blank moves)", moves_to_string(&found.moves))?;
        let tiles: Vec<String> = report.tiles.iter().flatten().map(u16::to_string).collect();
        writeln!(out, "tiles        {}   (the tiles that slide)", tiles.join(" "))?;
    }
    let optimal = match (report.exact, table_from) {
        (Some(e), Some(from)) if e as usize == d => format!("yes: the exact distance is {e} ({from})"),
        (Some(e), Some(from)) => format!("no: the exact distance is {e} ({from}), {} more", d - e as usize),
        _ if report.optimal == Some(true) && report.within_asked.is_some() => {
            "yes, proven: the lower bound reached the length (no table checks this board)".to_string()
        }
        _ if report.optimal == Some(true) => {
            format!("yes, by {} with an admissible heuristic (no table checks this board)", report.algorithm)
        }
        _ if report.lower_bound.is_some() => format!(
            "not proven: the optimum is between {} and {d} moves (no table checks this board)",
            report.lower_bound.unwrap_or(0)
        ),
        _ => "unknown: no table covers this board, and this search does not guarantee it".into(),
    };
    writeln!(out, "optimal      {optimal}")?;
    let s = &found.stats;
    let secs = s.elapsed.as_secs_f64();
    let time = if secs < 1.0 { format!("{:.2} ms", secs * 1e3) } else { format!("{secs:.2} s") };
    if report.algorithm == "reduce" {
        // no search: no nodes to count
        writeln!(out, "time         {time}")?;
        return write_steps(out, board, &found.moves, steps);
    }
    writeln!(out, "expanded     {}", thousands(s.expanded))?;
    writeln!(out, "generated    {}", thousands(s.generated))?;
    if report.algorithm == "idastar" {
        writeln!(out, "iterations   {}", s.iterations)?;
        writeln!(out, "deepest path {}", s.peak_open)?;
    } else {
        writeln!(out, "peak open    {}", thousands(s.peak_open))?;
        writeln!(out, "boards held  {}", thousands(s.stored))?;
    }
    writeln!(out, "time         {time}")?;
    writeln!(out, "memory       {} (the search's own data, at its peak)", bytes(s.peak_bytes))?;
    match effective_branching_factor(s.generated as f64, d as u32) {
        Some(b) => writeln!(out, "b*           {b:.3}   (effective branching factor)")?,
        None if d == 0 => writeln!(out, "b*           -   (needs at least one move)")?,
        // a solution found by construction, or by a search of fewer nodes than moves
        None => {
            writeln!(out, "b*           -   (fewer nodes generated than moves: the solution was not all searched)")?
        }
    }
    write_steps(out, board, &found.moves, steps)
}

/// Every board of the solution, or the boards played in place, as `steps` asks.
fn write_steps(out: &mut impl Write, board: &Board, moves: &[Dir], steps: Steps) -> Result<()> {
    match steps {
        Steps::None => {}
        Steps::List => super::query::write_steps(out, board, moves)?,
        Steps::Animate(delay) => super::query::animate(out, board, moves, delay)?,
    }
    Ok(())
}

/// What follows the report: nothing, every board, or the boards played in place.
#[derive(Clone, Copy)]
enum Steps {
    None,
    List,
    Animate(std::time::Duration),
}

/// A proven ratio to two decimals, rounded up (1.0728 is `1.08`): never a better claim than the
/// proof's.
fn ratio_up(r: f64) -> String {
    format!("{:.2}", (r * 100.0 - 1e-9).ceil() / 100.0)
}

/// `1.2 MiB`.
fn bytes(n: u64) -> String {
    match n {
        0..1024 => format!("{n} bytes"),
        1024..1_048_576 => format!("{:.1} KiB", n as f64 / 1024.0),
        1_048_576..1_073_741_824 => format!("{:.1} MiB", n as f64 / 1_048_576.0),
        _ => format!("{:.2} GiB", n as f64 / 1_073_741_824.0),
    }
}

/// The watch of a checkpointed search, for the signal handler to stop.
static WATCH: OnceLock<Arc<Watch>> = OnceLock::new();
/// The signal that stopped the search (0: none).
static STOPPED_BY: AtomicI32 = AtomicI32::new(0);

/// A watch that the first Ctrl-C (SIGINT) or TERM stops: the search stops at its next check with
/// its progress saved in its checkpoint, rather than losing what it did since its last save (a
/// second signal ends the process at once). `None` where signals are not caught.
fn stop_on_signal() -> Option<Arc<Watch>> {
    #[cfg(unix)]
    {
        const SIGNALS: [libc::c_int; 2] = [libc::SIGINT, libc::SIGTERM];
        extern "C" fn on_signal(signal: libc::c_int) {
            // atomic stores and sigaction only, which a signal handler may do; the first signal
            // is the one said, and the next of either kind ends the process
            let _ = STOPPED_BY.compare_exchange(0, signal, Relaxed, Relaxed);
            super::default_signals(&SIGNALS, on_signal);
            if let Some(watch) = WATCH.get() {
                watch.cancel();
            }
        }
        let watch = Arc::clone(WATCH.get_or_init(|| Arc::new(Watch::new())));
        super::catch_signals(&SIGNALS, on_signal);
        Some(watch)
    }
    #[cfg(not(unix))]
    None
}

/// Says that a signal stopped the checkpointed search and how to go on; the exit status is the
/// shell's for a process ended by that signal (130 for Ctrl-C, 143 for TERM).
fn stopped(args: &SolveArgs) -> ExitCode {
    let signal = STOPPED_BY.load(Relaxed);
    let by = if signal == 2 { "Ctrl-C".to_string() } else { format!("signal {signal}") };
    match &args.checkpoint {
        Some(path) if path.exists() => eprintln!(
            "table: stopped by {by}; the search's progress is saved in {}: run the same command to go on",
            path.display()
        ),
        _ => eprintln!("table: stopped by {by} before its first save: the same command starts the search again"),
    }
    ExitCode::from(128u8.saturating_add(signal.clamp(0, 127) as u8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("8g"), Ok(8 << 30));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("-1G").is_err());
        assert!(parse_size("5Q").is_err());
    }
}
