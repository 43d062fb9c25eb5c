//! What every front end decides the same way before a search: which heuristic, which tables.
//!
//! The command line, the Python package and a web server all turn "solve this board" into the
//! same choices, made here once: the heuristic when none is named ([`SolverConfig::heuristic`]),
//! the pattern tables of a partition (found in a folder, small missing ones built on the spot and
//! saved: [`load_patterns`]), the perfect table that checks the answer (a named file, the
//! default-named file, or one built in memory), and the algorithm that suits the guide.
//! [`Solver`] holds the outcome for one goal and runs searches with it; [`game_oracle`] makes the
//! same choices for a game played move by move.
//!
//! Nothing here prints: what a front end may want to tell its user (a table built and saved, a
//! table skipped, a hint) comes through a callback as a [`Notice`].

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use memmap2::Mmap;

use crate::error::{Error, PatternTableMismatch};
use crate::game::{BoundedOracle, Oracle, SearchOracle, TableOracle};
use crate::heuristic::pdb::{
    pattern_file_name, zero_pattern_file_name, GroupTable, Partition, PatternSet, SMALL_GROUP_SLOTS,
};
use crate::heuristic::Heuristic;
use crate::index::pattern::PatternIndex;
use crate::index::rank::MAX_TABLE_CELLS;
use crate::puzzle::board::{Board, Shape};
use crate::puzzle::goal::Goal;
use crate::search::prune::MovePruner;
use crate::search::{self, Algorithm, Exact, Found, Guide, Options};
use crate::table::lookup::map_file;
use crate::table::pattern::{build_pattern, open_pattern, working_bytes};
use crate::table::Table;

/// A heuristic as a front end names it: the four estimates of [`Heuristic`], a perfect table's
/// exact distance, or additive pattern databases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeuristicKind {
    /// Tiles out of place (h1).
    Hamming,
    /// Manhattan distance (h2).
    Manhattan,
    /// Manhattan plus two moves for each tile that must leave its row or column.
    LinearConflict,
    /// Nilsson's P + 3S: not admissible.
    Nilsson,
    /// The exact distance from a perfect table (boards of at most 12 cells).
    Table,
    /// Additive pattern databases, with the reflected lookup on square boards.
    Pdb,
}

impl HeuristicKind {
    /// The name used on the command line: `hamming`, `manhattan`, `linear-conflict`, `nilsson`,
    /// `table`, `pdb`.
    pub fn name(self) -> &'static str {
        match self.estimate() {
            Some(h) => h.name(),
            None if self == HeuristicKind::Table => "table",
            None => "pdb",
        }
    }

    /// The heuristic named `name`: a name [`HeuristicKind::name`] gives, or one
    /// [`Heuristic::from_name`] accepts (`misplaced`, `linear_conflict`, `lc`, ...); any case.
    pub fn from_name(name: &str) -> Option<HeuristicKind> {
        match name.trim().to_ascii_lowercase().as_str() {
            "table" => Some(HeuristicKind::Table),
            "pdb" => Some(HeuristicKind::Pdb),
            other => Heuristic::from_name(other).map(|h| match h {
                Heuristic::Hamming => HeuristicKind::Hamming,
                Heuristic::Manhattan => HeuristicKind::Manhattan,
                Heuristic::LinearConflict => HeuristicKind::LinearConflict,
                Heuristic::Nilsson => HeuristicKind::Nilsson,
            }),
        }
    }

    /// Every kind, in the order of the command line's list.
    pub fn all() -> [HeuristicKind; 6] {
        use HeuristicKind::*;
        [Hamming, Manhattan, LinearConflict, Nilsson, Table, Pdb]
    }

    /// The estimate computed from the board alone, if this kind is one.
    pub fn estimate(self) -> Option<Heuristic> {
        match self {
            HeuristicKind::Hamming => Some(Heuristic::Hamming),
            HeuristicKind::Manhattan => Some(Heuristic::Manhattan),
            HeuristicKind::LinearConflict => Some(Heuristic::LinearConflict),
            HeuristicKind::Nilsson => Some(Heuristic::Nilsson),
            HeuristicKind::Table | HeuristicKind::Pdb => None,
        }
    }
}

/// How a front end asks for a search's guide.
#[derive(Clone, Debug)]
pub struct SolverConfig {
    /// The heuristic, or `None` for the default rule: linear conflict up to 12 cells; past 12,
    /// pattern databases when a named partition's tables are all in `dir`, else linear conflict
    /// (with a [`Notice::Hint`] naming the command that builds the tables).
    pub heuristic: Option<HeuristicKind>,
    /// With [`HeuristicKind::Pdb`]: the partition, a name (`6-6-3`, `auto`) or groups of tiles
    /// (`1,2,3/4,5,6`). Given with no heuristic, it means pattern databases; with another
    /// heuristic it is an error. `None`: the best named partition whose tables are in `dir`, else
    /// [`default_partition`].
    pub partition: Option<String>,
    /// Where the pattern tables are looked for (and small missing ones saved).
    pub dir: PathBuf,
    /// Whether pattern databases also look up the board reflected about the diagonal.
    pub reflect: bool,
    /// Whether a missing pattern table small enough to build in about a second
    /// ([`SMALL_GROUP_SLOTS`]) is built on the spot and saved in `dir`, rather than refused.
    pub build_missing: bool,
    /// A perfect table file to use (for [`HeuristicKind::Table`] and to check answers); `None`:
    /// the default-named file in the current directory if it is there, else for 9 cells and
    /// fewer one built in memory.
    pub table: Option<PathBuf>,
    /// Keep each pattern table's file mapping instead of a private copy: processes on one
    /// machine (a Dask worker per core) then share one copy in the page cache, at some cost in
    /// lookup speed (no huge pages). Tables built on the spot are private either way.
    pub share_tables: bool,
    /// Move pruning for IDA* with pattern databases: forbid every move string of up to this many
    /// moves that has an earlier equivalent ([`crate::search::prune`]); 0 or 2 forbid only the
    /// move straight back (Korf & Felner's counts). `None`: [`default_prune`] for the shape. The
    /// machine is read from `dir` (`RxC-moves-L.fsm`), or made and saved there when that takes
    /// about a second ([`QUICK_PRUNE`]).
    pub prune: Option<usize>,
}

impl Default for SolverConfig {
    /// No heuristic named, no partition, tables in `.`, reflection on, small tables built on the
    /// spot, the default perfect table.
    fn default() -> SolverConfig {
        SolverConfig {
            heuristic: None,
            partition: None,
            dir: PathBuf::from("."),
            reflect: true,
            build_missing: true,
            table: None,
            share_tables: false,
            prune: None,
        }
    }
}

/// Something a front end may want to tell its user; the library itself never prints.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Notice {
    /// A missing pattern table was built on the spot; `saved` says whether it could be written
    /// to `path` (the search goes on from memory either way).
    BuiltPattern {
        /// Where it was (to be) saved.
        path: PathBuf,
        /// How long the build took.
        seconds: f64,
        /// `Err` with the reason when it could not be written.
        saved: Result<(), String>,
    },
    /// A missing perfect table was built on the spot ([`build_table_on_the_spot`]); `saved` says
    /// whether it could be written to `path`.
    BuiltTable {
        /// Where it was (to be) saved.
        path: PathBuf,
        /// How long the build took.
        seconds: f64,
        /// Its number of states.
        states: u64,
        /// `Err` with the reason when it could not be written.
        saved: Result<(), String>,
    },
    /// A missing move-pruning machine ([`load_pruner`]) was made on the spot; `saved` says
    /// whether it could be written to `path`.
    BuiltMachine {
        /// Where it was (to be) saved.
        path: PathBuf,
        /// How long it took.
        seconds: f64,
        /// `Err` with the reason when it could not be written.
        saved: Result<(), String>,
    },
    /// A default-named perfect table was there but could not be used; the search goes on
    /// without it.
    SkippedTable {
        /// The file.
        path: PathBuf,
        /// Why, in one line.
        why: String,
    },
    /// Advice: a faster way to solve such boards.
    Hint(String),
}

/// A table's bytes: memory-mapped from its file, or built in memory.
pub enum TableBytes {
    /// A mapped file.
    Map(Mmap),
    /// Built in memory.
    Owned(Vec<u8>),
}

impl AsRef<[u8]> for TableBytes {
    fn as_ref(&self) -> &[u8] {
        match self {
            TableBytes::Map(m) => m,
            TableBytes::Owned(v) => v,
        }
    }
}

/// A perfect table and where it came from: its path, or "a table built in memory".
type Sourced = (Table<TableBytes>, String);

/// Everything a search toward one goal needs, decided and loaded once: the goal, the heuristic,
/// the pattern tables and the perfect table. Shareable across threads: one solver serves a batch
/// of boards solved in parallel.
pub struct Solver {
    goal: Goal,
    goal_board: Board,
    heuristic: HeuristicKind,
    patterns: Option<PatternSet>,
    table: Option<Sourced>,
    pruner: Option<Arc<MovePruner>>,
}

impl Solver {
    /// Decides the heuristic (see [`SolverConfig::heuristic`]), finds the perfect table
    /// ([`SolverConfig::table`]: that file, checked for `shape` and `goal`; else the default-named
    /// file in the current directory, a damaged or foreign one reported as
    /// [`Notice::SkippedTable`]; else for 9 cells and fewer one built in memory), and loads the
    /// pattern tables for [`HeuristicKind::Pdb`] ([`load_patterns`]).
    ///
    /// # Errors
    /// [`Error::BadOption`] for a partition with another heuristic or a partition that does not
    /// parse; [`Error::BadGoal`] for a goal that is not one of `shape`; [`Error::InFile`] for a
    /// named table that cannot be opened, [`Error::TableShape`] or [`Error::BadGoal`] for one of
    /// another board; [`Error::Io`] when `config.dir` is not a directory; those of
    /// [`load_patterns`].
    pub fn new(
        goal: &Goal,
        shape: Shape,
        config: &SolverConfig,
        mut notice: impl FnMut(Notice),
    ) -> Result<Solver, Error> {
        Solver::make(goal, shape, config, None, &mut notice)
    }

    /// As [`Solver::new`], with the perfect table already opened (`table` and where it came
    /// from, checked here for `shape` and `goal`), or with none at all: `config.table` is not
    /// used and no default table is looked for or built.
    ///
    /// # Errors
    /// As [`Solver::new`].
    pub fn with_table(
        goal: &Goal,
        shape: Shape,
        config: &SolverConfig,
        table: Option<(Table<TableBytes>, String)>,
        mut notice: impl FnMut(Notice),
    ) -> Result<Solver, Error> {
        Solver::make(goal, shape, config, Some(table), &mut notice)
    }

    /// `given`: `None` to find the perfect table, `Some` for the caller's (or none at all).
    fn make(
        goal: &Goal,
        shape: Shape,
        config: &SolverConfig,
        given: Option<Option<Sourced>>,
        notice: &mut dyn FnMut(Notice),
    ) -> Result<Solver, Error> {
        // a directory that is not there would have every small table built again on each run,
        // and none saved
        if !config.dir.is_dir() {
            let (kind, what) = match config.dir.exists() {
                true => (std::io::ErrorKind::NotADirectory, "not a directory"),
                false => (std::io::ErrorKind::NotFound, "no such directory"),
            };
            let why = format!("{what} (create it, or leave it out for the current directory)");
            return Err(Error::io("looking for pattern tables in", &config.dir, std::io::Error::new(kind, why)));
        }
        let goal_board = goal.board(shape)?;
        let heuristic = choose_heuristic(goal, &goal_board, config, notice)?;
        let table = match given {
            Some(Some((table, from))) => Some(check_table(table, from, &goal_board)?),
            Some(None) => None,
            None => find_table(&goal_board, config.table.as_deref(), notice)?,
        };
        let patterns = if heuristic == HeuristicKind::Pdb {
            let partition = match &config.partition {
                Some(text) => Partition::parse(&goal_board, text)?,
                None => match found_partition(goal, &goal_board, &config.dir) {
                    Some(p) => p,
                    None => Partition::parse(&goal_board, default_partition(shape))?,
                },
            };
            let load = Load {
                reflect: config.reflect,
                build_missing: config.build_missing,
                shared: config.share_tables,
                save: true,
            };
            Some(load_patterns(goal, &goal_board, &partition, &config.dir, load, &mut *notice)?)
        } else {
            None
        };
        let pruner = match (&patterns, config.prune.unwrap_or_else(|| default_prune(shape))) {
            (Some(_), len) if len > 2 => Some(Arc::new(load_pruner(shape, len, &config.dir, &mut *notice)?)),
            _ => None,
        };
        let solver = Solver { goal: goal.clone(), goal_board, heuristic, patterns, table, pruner };
        // a table heuristic without a table is refused now, not at every search
        solver.guide()?;
        Ok(solver)
    }

    /// The goal, as named.
    pub fn goal(&self) -> &Goal {
        &self.goal
    }

    /// The goal's board.
    pub fn goal_board(&self) -> &Board {
        &self.goal_board
    }

    /// The heuristic decided.
    pub fn heuristic(&self) -> HeuristicKind {
        self.heuristic
    }

    /// The move-pruning machine searches with pattern databases use ([`SolverConfig::prune`]):
    /// `None` forbids only the move straight back. Goes into [`Options::prune`].
    pub fn pruner(&self) -> Option<Arc<MovePruner>> {
        self.pruner.clone()
    }

    /// The guide of a search: the estimate, the perfect table or the pattern databases.
    ///
    /// # Errors
    /// [`Error::BadOption`] for [`HeuristicKind::Table`] without a perfect table, saying how to
    /// get one.
    pub fn guide(&self) -> Result<Guide<'_>, Error> {
        if let Some(h) = self.heuristic.estimate() {
            return Ok(Guide::Heuristic(h));
        }
        if self.heuristic == HeuristicKind::Pdb {
            return match &self.patterns {
                Some(set) => Ok(Guide::Patterns(set)),
                None => Err(Error::Internal("the pattern tables were not loaded".into())),
            };
        }
        if let Some((t, _)) = &self.table {
            return Ok(Guide::Table(t as &dyn Exact));
        }
        let shape = self.goal_board.shape();
        if shape.cells() > MAX_TABLE_CELLS {
            return Err(Error::BadOption(format!(
                "--heuristic table needs a perfect table, and tables go up to 15 cells (2x7 and 3x5 at two bits a state, `table build --board 2x7`); a {shape} board has {}; try -H pdb",
                shape.cells()
            )));
        }
        Err(Error::BadOption(format!(
            "--heuristic table: no table for this {shape} board; build it with `table build --board {shape} --goal {}` (it writes {}) or give --table PATH",
            self.goal,
            default_table_name(shape, &self.goal).display()
        )))
    }

    /// What guides a search beyond the heuristic's name, in words, for a report: with pattern
    /// databases the partition, how many tables of which kind, the reflection and the move
    /// pruning (`small-t: 11 zero-aware tables, with the reflection; move pruning to 16 moves`);
    /// `None` for the other heuristics.
    pub fn guide_details(&self) -> Option<GuideDetails> {
        let set = self.patterns.as_ref()?;
        let zero = set.tables().iter().filter(|t| t.zero().is_some()).count();
        Some(GuideDetails {
            pattern: set.partition().name.clone(),
            tables: set.tables().len(),
            zero_aware: zero,
            reflect: set.reflection().is_some(),
            prune: self.pruner.as_ref().map_or(2, |p| p.max_len()),
        })
    }

    /// The pattern databases, with [`HeuristicKind::Pdb`].
    pub fn patterns(&self) -> Option<&PatternSet> {
        self.patterns.as_ref()
    }

    /// The perfect table, if there is one, and where it came from (its path, or "a table built in
    /// memory").
    pub fn table(&self) -> Option<(&Table<TableBytes>, &str)> {
        self.table.as_ref().map(|(t, from)| (t, from.as_str()))
    }

    /// The algorithm when none is asked for. Up to [`OPTIMAL_CELLS`] cells (the 24-puzzle), an
    /// optimal search: IDA* with pattern databases (its memory is the path alone, and its
    /// subtrees spread over threads) and on every board past 12 cells (A* with a classic estimate
    /// can fill any memory on a 15-puzzle: a default must not), A* otherwise; but past
    /// [`OPTIMAL_WITHOUT_TABLES`] cells only with pattern databases, and without them the bounded
    /// search at factor 1 (the optimum when proven by the time limit, else its best solution with
    /// the factor proven). Past it, where no optimal search finishes, up to [`BOUNDED_CELLS`]
    /// (8x8): a solution proven within
    /// [`DEFAULT_WITHIN`] of optimal, or the best one with its proof at
    /// [`Solver::default_time_limit`] (with Nilsson's estimate, which proves nothing, a beam
    /// search). Past that, the constructive [`Algorithm::Reduce`], in seconds up to 127x127, its
    /// length set beside the lower bound.
    pub fn default_algorithm(&self) -> Algorithm {
        let cells = self.goal_board.shape().cells();
        match inexact_algorithm(cells, self.heuristic == HeuristicKind::Pdb) {
            // a bound needs an admissible guide: Nilsson's gets the beam search alone
            Some(Algorithm::Within(_)) if self.heuristic.estimate().is_some_and(|h| !h.is_admissible()) => {
                Algorithm::Beam(crate::search::beam::DEFAULT_WIDTH)
            }
            Some(algorithm) => algorithm,
            None if self.heuristic == HeuristicKind::Pdb || cells > 12 => Algorithm::IdaStar,
            None => Algorithm::AStar,
        }
    }

    /// The time limit that goes with [`Solver::default_algorithm`]: [`DEFAULT_SECONDS`] for the
    /// bounded search (boards past [`OPTIMAL_CELLS`] cells, and past [`OPTIMAL_WITHOUT_TABLES`]
    /// without pattern tables; it returns its best solution and proof then), none for the others.
    pub fn default_time_limit(&self) -> Option<std::time::Duration> {
        matches!(self.default_algorithm(), Algorithm::Within(_))
            .then(|| std::time::Duration::from_secs_f64(DEFAULT_SECONDS))
    }

    /// The exact distance of `board` from the perfect table, or `None` without a table (or for a
    /// board that cannot reach the goal).
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] for a board of another shape; [`Error::Corrupt`] from the table.
    pub fn exact(&self, board: &Board) -> Result<Option<u32>, Error> {
        match &self.table {
            Some((t, _)) => Ok(t.distance(board)?.map(u32::from)),
            None => Ok(None),
        }
    }

    /// Searches from `board` to the goal with this solver's guide ([`search::solve`]); `None` for
    /// a board that cannot reach the goal. The solution is checked: it ends on the goal, and an
    /// optimal search agrees with the perfect table where there is one.
    ///
    /// # Errors
    /// Those of [`Solver::guide`] and [`search::solve`]; [`Error::Internal`] when a check fails.
    pub fn solve(&self, board: &Board, options: &Options) -> Result<Option<Found>, Error> {
        let guide = self.guide()?;
        let Some(found) = search::solve(board, &self.goal_board, guide, options)? else { return Ok(None) };
        let d = found.moves.len();
        let algorithm = options.algorithm;
        let optimal = algorithm == Algorithm::Bfs
            || (guide.is_admissible() && algorithm.is_optimal_with_admissible_guide())
            || found.proven_optimal();
        if let Some(e) = self.exact(board)? {
            if optimal && e as usize != d {
                // an optimal algorithm disagreeing with the table: one of them is wrong
                return Err(Error::Internal(format!("{} found {d} moves but the table says {e}", algorithm.name())));
            }
        }
        let mut b = board.clone();
        for &m in &found.moves {
            b.apply(m);
        }
        if b != self.goal_board {
            return Err(Error::Internal("the solution does not end on the goal".into()));
        }
        Ok(Some(found))
    }
}

/// The pattern databases a [`Solver`] searches with ([`Solver::guide_details`]), for a report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuideDetails {
    /// The partition or catalogue (`small-t`, `7-8`, or its groups written out).
    pub pattern: String,
    /// The tables loaded.
    pub tables: usize,
    /// How many of them are zero-aware (the others are classic): `table solve` takes a group's
    /// zero-aware table when its file is in the directory.
    pub zero_aware: usize,
    /// Whether the board reflected about the diagonal is looked up too.
    pub reflect: bool,
    /// Move pruning: strings of up to this many moves with an earlier equivalent are never made
    /// (2: only the move straight back).
    pub prune: usize,
}

impl std::fmt::Display for GuideDetails {
    /// `small-t: 11 zero-aware tables, with the reflection; move pruning to 16 moves`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.tables;
        let plural = if n == 1 { "" } else { "s" };
        let kind = match (self.zero_aware, n - self.zero_aware) {
            (0, _) => format!("{n} classic table{plural}"),
            (_, 0) => format!("{n} zero-aware table{plural}"),
            (z, c) => format!("{z} zero-aware and {c} classic table{}", if c == 1 { "" } else { "s" }),
        };
        let reflect = if self.reflect { "with the reflection" } else { "no reflection" };
        let prune = match self.prune {
            0..=2 => "no move pruning but the move straight back".to_string(),
            l => format!("move pruning to {l} moves"),
        };
        write!(f, "{}: {kind}, {reflect}; {prune}", self.pattern)
    }
}

/// Whether `config`'s partition, if any, goes with its heuristic and parses for `goal`: a usage
/// mistake said before any file is looked at (a front end may say it before the parity rule).
///
/// # Errors
/// [`Error::BadOption`] for a partition with another heuristic, or one that does not parse.
pub fn check_partition(goal: &Board, config: &SolverConfig) -> Result<(), Error> {
    let Some(text) = &config.partition else { return Ok(()) };
    if config.heuristic.is_some_and(|h| h != HeuristicKind::Pdb) {
        return Err(Error::BadOption("--pattern goes with --heuristic pdb".into()));
    }
    Partition::parse(goal, text).map(|_| ())
}

/// The heuristic `config` asks for, or the default rule's.
fn choose_heuristic(
    goal: &Goal,
    goal_board: &Board,
    config: &SolverConfig,
    notice: &mut dyn FnMut(Notice),
) -> Result<HeuristicKind, Error> {
    check_partition(goal_board, config)?;
    if let Some(h) = config.heuristic {
        return Ok(h);
    }
    let shape = goal_board.shape();
    if config.partition.is_some() {
        return Ok(HeuristicKind::Pdb);
    }
    // past 12 cells a perfect table is a 10.9 GB build of half an hour: pattern tables are the
    // default there unless a table was found
    if shape.cells() <= crate::index::rank::MAX_BYTE_TABLE_CELLS {
        return Ok(HeuristicKind::LinearConflict);
    }
    if found_partition(goal, goal_board, &config.dir).is_some() {
        return Ok(HeuristicKind::Pdb);
    }
    let name = default_partition(shape);
    // only where pattern tables serve the board far better: up to the 24-puzzle. Past it they
    // are not reliably better: with the 6x6's 5-tile tables the default found shorter solutions
    // with tighter proofs on DeepCubeA's 35-puzzles (138.12 moves proven within 1.369 against
    // 146.24 and 1.436), but not on uniform random 6x6 boards (docs/large-boards.md)
    if let (true, Ok(p)) = (shape.cells() <= OPTIMAL_CELLS, Partition::parse(goal_board, name)) {
        let build = pattern_build_command(shape, goal, &p, &config.dir);
        let solve = pattern_solve_command(goal, &p, &config.dir);
        notice(Notice::Hint(if shape.cells() > OPTIMAL_WITHOUT_TABLES {
            format!(
                "searching with linear conflict, by default for at most {DEFAULT_SECONDS} s (the optimum if it is proven \
                 by then, else the best solution with its proven factor); pattern tables prove it far faster: `{build}`, \
                 then `{solve}`"
            )
        } else {
            format!(
                "searching with linear conflict; pattern tables solve this board far faster: `{build}`, then `{solve}`"
            )
        }));
    }
    Ok(HeuristicKind::LinearConflict)
}

/// A table the caller opened, if it is for `goal`'s shape and goal.
fn check_table(table: Table<TableBytes>, from: String, goal: &Board) -> Result<Sourced, Error> {
    let found = table.header().shape;
    if found != goal.shape() {
        return Err(Error::TableShape { path: PathBuf::from(from), board: goal.shape(), table: found });
    }
    if table.goal() != goal {
        return Err(Error::BadGoal(format!("{from} has goal {}, but the board's goal is {goal}", table.goal())));
    }
    Ok((table, from))
}

/// The perfect table for `goal`: the file `named`, the default-named file if it is there and
/// usable, or for 9 cells and fewer one built in memory (milliseconds).
fn find_table(goal: &Board, named: Option<&Path>, notice: &mut dyn FnMut(Notice)) -> Result<Option<Sourced>, Error> {
    if let Some(path) = named {
        let table = open_table(path).map_err(|e| Error::in_file("opening", path, e))?;
        return check_table(table, path.display().to_string(), goal).map(Some);
    }
    let shape = goal.shape();
    if shape.cells() > MAX_TABLE_CELLS {
        return Ok(None);
    }
    let name = default_table_name(shape, &Goal::identify(goal.clone()));
    if name.exists() {
        // a table the user has but that cannot be used is said, never passed over in silence
        match open_table(&name).map_err(|e| Error::in_file("opening", &name, e)) {
            Ok(table) if table.goal() == goal => return Ok(Some((table, name.display().to_string()))),
            Ok(table) => notice(Notice::SkippedTable {
                why: format!("its goal is {}, not {goal}; rebuild it with `table build`", table.goal()),
                path: name,
            }),
            Err(e) => notice(Notice::SkippedTable { path: name, why: e.to_string() }),
        }
    }
    if shape.cells() <= 9 {
        let built = crate::build(goal, |_| {})?;
        return Ok(Some((Table::new(TableBytes::Owned(built.into_inner()))?, "a table built in memory".into())));
    }
    Ok(None)
}

/// The default search of a board of `cells` cells where an optimal one may not finish in seconds
/// (with or without pattern `tables`), shared by [`Solver::default_algorithm`] and
/// [`game_oracle`]: reduce past [`BOUNDED_CELLS`]; the bounded search at [`DEFAULT_WITHIN`] past
/// [`OPTIMAL_CELLS`], and at factor 1 past [`OPTIMAL_WITHOUT_TABLES`] without tables (the
/// optimum when proven by the time limit, else the best solution with the factor proven);
/// `None` for an optimal search.
fn inexact_algorithm(cells: usize, tables: bool) -> Option<Algorithm> {
    if cells > BOUNDED_CELLS {
        Some(Algorithm::Reduce)
    } else if cells > OPTIMAL_CELLS {
        Some(Algorithm::Within(DEFAULT_WITHIN))
    } else if cells > OPTIMAL_WITHOUT_TABLES && !tables {
        Some(Algorithm::Within(1.0))
    } else {
        None
    }
}

/// The largest board [`Solver::default_algorithm`] solves optimally: 25 cells, the 24-puzzle.
pub const OPTIMAL_CELLS: usize = 25;

/// The largest board [`Solver::default_algorithm`] solves optimally without pattern databases:
/// 16 cells, the 15-puzzle (IDA* with linear conflict, seconds a board on average). Past it, a
/// board without tables (a 3x6, a 3x8, a 5x5) can take hours to solve optimally with linear
/// conflict (a random 3x8 ran past 11 minutes): the default is then the bounded search at
/// factor 1 for at most [`DEFAULT_SECONDS`], the optimum when it is proven by then (COS 226's
/// 5x5 boards in under a second), else the best solution with the factor proven (that 3x8: 136
/// moves, at least 100 needed).
pub const OPTIMAL_WITHOUT_TABLES: usize = 16;

/// The largest board [`Solver::default_algorithm`] gives to the bounded search: 64 cells (8x8).
/// Past it, a bound from Manhattan distance or linear conflicts is too weak for the search to
/// improve on the constructive solution in seconds.
pub const BOUNDED_CELLS: usize = 64;

/// The factor of the default bounded search. On DeepCubeA's first 50 35-puzzles, from the beams'
/// first solution, 1.5 is proven on every board with linear conflict (141.48 moves, 2.24 s a
/// board on average), where 1.25 is proven on 35 of them even with the 6x6's pattern tables
/// (6.66 s a board; docs/results.md).
pub const DEFAULT_WITHIN: f64 = 1.5;

/// The default bounded search's time limit, in seconds.
pub const DEFAULT_SECONDS: f64 = 10.0;

/// The partition pattern databases use on `shape` when none is given and none is found:
/// `6-6-3` on 4x4 (small enough to build on the spot), `6-6-6-6` on 5x5, else `auto`.
pub fn default_partition(shape: Shape) -> &'static str {
    match (shape.rows(), shape.cols()) {
        (4, 4) => "6-6-3",
        (5, 5) => "6-6-6-6",
        _ => "auto",
    }
}

/// The best named partition or catalogue of the board whose tables (classic or zero-aware) are
/// all in `dir` (the most entries win: a catalogue over its partitions), if any.
pub fn found_partition(goal: &Goal, goal_board: &Board, dir: &Path) -> Option<Partition> {
    let shape = goal_board.shape();
    let mut best: Option<(u64, Partition)> = None;
    // past 25 cells no partition has a name: `auto`'s tables, built once, are the ones to find
    for name in Partition::names(shape).into_iter().chain((shape.cells() > 25).then_some("auto")) {
        let Ok(p) = Partition::parse(goal_board, name) else { continue };
        let present = |g: &Vec<u16>| {
            dir.join(pattern_file_name(shape, goal, g)).exists()
                || dir.join(zero_pattern_file_name(shape, goal, g)).exists()
        };
        if p.own_tables().iter().all(|&g| present(&p.groups[g])) {
            let entries: u64 = p.groups.iter().filter_map(|g| PatternIndex::new(shape, g).ok()).map(|i| i.len()).sum();
            if best.as_ref().is_none_or(|(e, _)| entries > *e) {
                best = Some((entries, p));
            }
        }
    }
    best.map(|(_, p)| p)
}

/// The tables of `partition` for `goal` from `dir`, loaded for a search (each checksummed once)
/// as `load` says. With `load.build_missing`, a missing table of a group small enough to build in about a second
/// ([`SMALL_GROUP_SLOTS`]) is built on the spot and, with `load.save`, saved in `dir`
/// ([`Notice::BuiltPattern`]); without `load.save` it is kept in memory only, and no notice is given.
///
/// # Errors
/// [`Error::MissingTables`] naming the missing files and the command that builds them;
/// [`Error::WrongPatternTable`] for a file under a table's name that is another table;
/// [`Error::InFile`] for one that cannot be opened or fails its checksum; those of
/// [`PatternIndex::new`] and [`PatternSet::new`].
pub fn load_patterns(
    goal: &Goal,
    goal_board: &Board,
    partition: &Partition,
    dir: &Path,
    load: Load,
    mut notice: impl FnMut(Notice),
) -> Result<PatternSet, Error> {
    load_patterns_dyn(goal, goal_board, partition, dir, load, &mut notice)
}

// the body compiled once, whatever the caller's closure
fn load_patterns_dyn(
    goal: &Goal,
    goal_board: &Board,
    partition: &Partition,
    dir: &Path,
    load: Load,
    notice: &mut dyn FnMut(Notice),
) -> Result<PatternSet, Error> {
    let Load { reflect, build_missing, shared, save } = load;
    let shape = goal_board.shape();
    let own = partition.own_tables();
    let mut tables = Vec::with_capacity(own.len());
    let mut missing: Vec<PathBuf> = Vec::new();
    for tiles in own.iter().map(|&g| &partition.groups[g]) {
        // a zero-aware table, when there is one, knows at least as much
        let zero_path = dir.join(zero_pattern_file_name(shape, goal, tiles));
        let path = if zero_path.exists() { zero_path.clone() } else { dir.join(pattern_file_name(shape, goal, tiles)) };
        let index = PatternIndex::new(shape, tiles)?;
        if path.exists() {
            let table = open_pattern(&path).map_err(|e| Error::in_file("opening", &path, e))?;
            if table.goal() != goal_board || table.tiles() != index.tiles() {
                return Err(Error::WrongPatternTable(Box::new(PatternTableMismatch {
                    found: table.header().describe(),
                    path,
                    tiles: index.tiles().to_vec(),
                    goal: goal_board.clone(),
                    command: pattern_build_command(shape, goal, partition, dir),
                    partition: partition.name.clone(),
                    dir: dir.to_path_buf(),
                })));
            }
            let group = if shared { GroupTable::mapped(table) } else { GroupTable::from_table(&table) };
            tables.push(group.map_err(|e| Error::in_file("checking", &path, e))?);
        } else if build_missing && working_bytes(&index) <= SMALL_GROUP_SLOTS {
            let t = Instant::now();
            let table = build_pattern(goal_board, tiles, |_| {})?;
            if save {
                let saved = table.write(&path).map_err(|e| e.to_string());
                notice(Notice::BuiltPattern { path, seconds: t.elapsed().as_secs_f64(), saved });
            }
            tables.push(GroupTable::from_table(&table)?);
        } else {
            // a catalogue meant to be zero-aware is built so: its files are the ones to name
            missing.push(if partition.meant_zero_aware() { zero_path } else { path });
        }
    }
    if !missing.is_empty() {
        return Err(Error::MissingTables {
            paths: missing,
            command: pattern_build_command(shape, goal, partition, dir),
            partition: partition.name.clone(),
            dir: dir.to_path_buf(),
        });
    }
    PatternSet::new(goal_board, partition.clone(), tables, reflect)
}

/// How [`load_patterns`] loads a partition's tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Load {
    /// Also look up the board reflected about the diagonal (where the goal allows).
    pub reflect: bool,
    /// Build missing tables small enough to build in about a second.
    pub build_missing: bool,
    /// Keep the files' mappings, shared between processes, instead of private copies
    /// ([`SolverConfig::share_tables`]).
    pub shared: bool,
    /// Save the tables built (with `build_missing`) in the directory, for the next time; without
    /// it they are kept in memory only (a server building tables for goals its clients choose
    /// must not let them fill its disk).
    pub save: bool,
}

impl Default for Load {
    /// Reflected, small tables built on the spot and saved, private copies.
    fn default() -> Load {
        Load { reflect: true, build_missing: true, shared: false, save: true }
    }
}

/// The `table build` command line that builds `partition`'s tables of `shape` and `goal` in
/// `dir`: `table build --board 4x4 --goal blank-first --pattern 6-6-3 --dir tables`.
pub fn pattern_build_command(shape: Shape, goal: &Goal, partition: &Partition, dir: &Path) -> String {
    let (goal, dir) = (goal_word(goal), dir_flag(dir));
    let zero = if partition.meant_zero_aware() { " --zero" } else { "" };
    format!("table build --board {shape} --goal {goal} --pattern {}{zero}{dir}", partition.name)
}

/// The `table solve` that searches with the tables [`pattern_build_command`] makes: the same
/// goal (named unless it is the default) and directory (named unless it is the current one).
fn pattern_solve_command(goal: &Goal, partition: &Partition, dir: &Path) -> String {
    let goal = if *goal == Goal::BlankLast { String::new() } else { format!(" --goal {}", goal_word(goal)) };
    format!("table solve{goal} -H pdb --pattern {}{}", partition.name, dir_flag(dir))
}

/// A goal as `--goal` takes it on a shell's command line: its name, or its tiles quoted.
fn goal_word(goal: &Goal) -> String {
    match goal {
        Goal::Custom(b) => format!("'{}'", b.to_numbers()),
        g => g.to_string(),
    }
}

/// ` --dir DIR`, or nothing for the current directory (the commands' default).
fn dir_flag(dir: &Path) -> String {
    if dir == Path::new(".") {
        String::new()
    } else {
        format!(" --dir {}", dir.display())
    }
}

/// The file name `table build` gives a perfect table: `eight.table` for the 8-puzzle with the
/// blank last, otherwise `RxC-GOAL.table` (`2x4-blank-last.table`, `3x3-snail.table`,
/// `3x3-goal-123804765.table`).
pub fn default_table_name(shape: Shape, goal: &Goal) -> PathBuf {
    if shape == Shape::EIGHT && *goal == Goal::BlankLast {
        PathBuf::from("eight.table")
    } else {
        PathBuf::from(format!("{shape}-{}.table", goal.slug()))
    }
}

/// Opens the perfect table file at `path`, memory-mapped, with the cheap checks of
/// [`Table::new`].
///
/// # Errors
/// [`Error::Io`] when the file cannot be opened or mapped; those of [`Table::new`].
pub fn open_table(path: &Path) -> Result<Table<TableBytes>, Error> {
    let file = crate::table::lookup::open_regular(path)?;
    let map = map_file(&file).map_err(|e| Error::io("memory-mapping", path, e))?;
    Table::new(TableBytes::Map(map))
}

/// Whether a missing perfect table of `shape` is built on the spot when a front end asks for it
/// by its default name: only 3x3, whose tables build in milliseconds.
pub fn builds_on_the_spot(shape: Shape) -> bool {
    shape == Shape::EIGHT
}

/// Builds the perfect table of `goal` on `shape` in memory and saves it at `path`
/// ([`Notice::BuiltTable`] says how long it took and whether it could be saved; the table is
/// usable either way).
///
/// # Errors
/// Those of [`Goal::board`] and [`crate::build`].
pub fn build_table_on_the_spot(
    goal: &Goal,
    shape: Shape,
    path: &Path,
    mut notice: impl FnMut(Notice),
) -> Result<Table<TableBytes>, Error> {
    let start = Instant::now();
    let built = crate::build(&goal.board(shape)?, |_| {})?;
    let seconds = start.elapsed().as_secs_f64();
    let saved = built.write(path).map_err(|e| e.to_string());
    notice(Notice::BuiltTable { path: path.to_path_buf(), seconds, states: built.header().entries, saved });
    Table::new(TableBytes::Owned(built.into_inner()))
}

/// Where a game's exact distances come from ([`crate::game`]): the perfect table under its
/// default name in the current directory (up to 12 cells), or one built in memory (up to 10
/// cells, under a second); else IDA* on `threads` threads with the pattern tables of the best
/// named partition found in `dir`, or with linear conflict (up to [`OPTIMAL_WITHOUT_TABLES`]
/// cells); past [`OPTIMAL_CELLS`], or past [`OPTIMAL_WITHOUT_TABLES`] without tables, not exact:
/// a [`BoundedOracle`] as [`Solver::default_algorithm`] chooses, [`PLAY_SECONDS`] a position.
///
/// # Errors
/// [`Error::BadGoal`] for a goal not of `shape`; [`Error::InFile`] for a default-named table that
/// cannot be opened; those of [`crate::build`] and [`load_patterns`].
pub fn game_oracle(goal: &Goal, shape: Shape, dir: &Path, threads: usize) -> Result<Arc<dyn Oracle>, Error> {
    let goal_board = goal.board(shape)?;
    if shape.cells() <= MAX_TABLE_CELLS {
        let name = default_table_name(shape, goal);
        if name.exists() {
            let table = open_table(&name).map_err(|e| Error::in_file("opening", &name, e))?;
            if table.goal() == &goal_board {
                return Ok(Arc::new(TableOracle { table, name: name.display().to_string() }));
            }
        }
        if shape.cells() <= 10 {
            let table = Table::new(TableBytes::Owned(crate::build(&goal_board, |_| {})?.into_inner()))?;
            return Ok(Arc::new(TableOracle { table, name: "a table built in memory".into() }));
        }
    }
    let patterns = match found_partition(goal, &goal_board, dir) {
        // every table was found, so nothing is built
        Some(p) => {
            Some(load_patterns(goal, &goal_board, &p, dir, Load { build_missing: false, ..Load::default() }, |_| {})?)
        }
        None => None,
    };
    if let Some(algorithm) = inexact_algorithm(shape.cells(), patterns.is_some()) {
        // no exact distance in seconds: a bounded search, or reduce, for each position
        let limit = std::time::Duration::from_secs_f64(PLAY_SECONDS);
        return Ok(Arc::new(BoundedOracle::new(goal_board, patterns, algorithm, Some(limit))));
    }
    Ok(Arc::new(SearchOracle::new(goal_board, patterns, threads, None)))
}

/// A game's time for each position past the 24-puzzle ([`game_oracle`]): a player waits for it.
pub const PLAY_SECONDS: f64 = 2.0;

/// The physical memory of this machine (Linux), if it can be read.
pub fn physical_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The memory limit of a search when none is given: three quarters of the memory available now
/// (Linux), at most 16 GiB; 4 GiB when unknown.
pub fn default_max_memory() -> u64 {
    available_memory().map_or(4 << 30, |a| (a / 4 * 3).min(16 << 30))
}

/// The memory this process may take now (Linux): the machine's available memory
/// (`MemAvailable`), or its control group's room if less; `None` when neither can be read.
/// `SLIDETABLE_AVAILABLE_MEMORY` (bytes), when set, is taken instead: for tests of the refusals.
pub fn available_memory() -> Option<u64> {
    if let Some(v) = std::env::var_os("SLIDETABLE_AVAILABLE_MEMORY") {
        if let Some(bytes) = v.to_str().and_then(|t| t.trim().parse::<u64>().ok()) {
            return Some(bytes);
        }
    }
    let available = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        m.lines()
            .find(|l| l.starts_with("MemAvailable:"))
            .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
            .map(|kib| kib * 1024)
    });
    // a container's or a job's memory is its control group's limit, whatever the machine has
    match (available, cgroup_room()) {
        (Some(a), Some(c)) => Some(a.min(c)),
        (a, c) => a.or(c),
    }
}

/// The memory this process's control group may still take (its limit less its use), when it or
/// a group above it has a limit: cgroup v2 (`memory.max`, `memory.current` of the group
/// `/proc/self/cgroup` names on its `0::` line), else cgroup v1 (`memory.limit_in_bytes`,
/// `memory.usage_in_bytes` of the group on its `memory` controller's line). The least room of the
/// group and its ancestors; `None` without a limit.
pub fn cgroup_room() -> Option<u64> {
    let read = |p: &std::path::Path| std::fs::read_to_string(p).ok().map(|s| s.trim().to_string());
    let groups = read(std::path::Path::new("/proc/self/cgroup"))?;
    let v2 = groups.lines().find_map(|l| l.strip_prefix("0::"));
    let v1 = groups.lines().find_map(|l| {
        let mut parts = l.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        controllers.split(',').any(|c| c == "memory").then_some(path)
    });
    let (root, path, files) = match (v2, v1) {
        (Some(g), _)
            if std::path::Path::new("/sys/fs/cgroup").join(g.trim_start_matches('/')).join("memory.max").exists() =>
        {
            ("/sys/fs/cgroup", g, ("memory.max", "memory.current"))
        }
        (_, Some(g)) => ("/sys/fs/cgroup/memory", g, ("memory.limit_in_bytes", "memory.usage_in_bytes")),
        _ => return None,
    };
    let root = std::path::Path::new(root);
    let mut dir = root.join(path.trim_start_matches('/'));
    let mut room: Option<u64> = None;
    loop {
        if let (Some(limit), Some(used)) = (read(&dir.join(files.0)), read(&dir.join(files.1))) {
            // "max" (no limit) does not parse; cgroup v1 writes "no limit" as a number near 2^63
            if let Ok(limit) = limit.parse::<u64>() {
                if limit < 1 << 60 {
                    let here = limit.saturating_sub(used.parse().unwrap_or(0));
                    room = Some(room.map_or(here, |r| r.min(here)));
                }
            }
        }
        if dir == root || !dir.pop() || !dir.starts_with(root) {
            break;
        }
    }
    room
}

/// The longest move strings made into a pruning machine on the spot: about a second on 2 cores
/// (4x4: 14 moves in 1.0 s; 5x5: 12 moves in 1.0 s; 3x3: 16 in 0.04 s).
pub const QUICK_PRUNE: usize = 12;

/// The move pruning used when none is asked for: forbidden strings of up to [`QUICK_PRUNE`]
/// moves on boards up to 36 cells (the machine is made in about a second at first use, and saved),
/// else only the move straight back (2).
pub fn default_prune(shape: Shape) -> usize {
    if shape.cells() <= 36 {
        QUICK_PRUNE
    } else {
        2
    }
}

/// The move-pruning machine for `shape` and strings of up to `len` moves: read from `dir`
/// ([`MovePruner::file_name`]), else, when `len` is at most [`QUICK_PRUNE`], made on the spot and
/// saved there if it can be ([`Notice::BuiltMachine`]).
///
/// # Errors
/// [`Error::InFile`] for a damaged file or one of another shape or length; [`Error::BadOption`]
/// for a missing machine too long to make on the spot, naming the command that makes it;
/// those of [`MovePruner::generate`].
pub fn load_pruner(shape: Shape, len: usize, dir: &Path, mut notice: impl FnMut(Notice)) -> Result<MovePruner, Error> {
    let path = dir.join(MovePruner::file_name(shape, len));
    if path.exists() {
        let m = MovePruner::open(&path).map_err(|e| Error::in_file("opening", &path, e))?;
        if m.shape() != shape || m.max_len() != len {
            let why = format!("it is the machine of {} for {} moves, not {shape} and {len}", m.shape(), m.max_len());
            return Err(Error::in_file("opening", path, Error::BadOption(why)));
        }
        return Ok(m);
    }
    if len > QUICK_PRUNE {
        return Err(Error::BadOption(format!(
            "{} is missing: make it with `table build --board {shape} --prune {len} --dir {}`",
            path.display(),
            dir.display()
        )));
    }
    let t = Instant::now();
    let m = MovePruner::generate(shape, len)?;
    let saved = m.write(&path).map_err(|e| e.to_string());
    notice(Notice::BuiltMachine { path, seconds: t.elapsed().as_secs_f64(), saved });
    Ok(m)
}
