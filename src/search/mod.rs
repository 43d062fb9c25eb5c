//! Heuristic search on boards of any size: A*, IDA*, breadth-first, greedy best-first and
//! weighted A*, on flat arrays with the estimate updated per move.
//!
//! [`solve`] takes a start, a goal, a [`Guide`] (a [`Heuristic`], or the exact distances of a
//! perfect table through [`Exact`]) and [`Options`] (the [`Algorithm`] and limits).
//!
//! - **A\*** and **breadth-first** stop only when a goal is *taken off* the open list, never when
//!   it is first made, so with an admissible guide the solution is optimal. Breadth-first is A*
//!   with a zero estimate (uniform cost: every move costs one).
//! - **IDA\*** runs depth-first searches with a growing bound on `g + h`, each bound the least
//!   `f` that exceeded the last; its memory is the path alone.
//! - **Greedy** orders the open list by `h` alone; **weighted** by `g + w·h`. Both return the
//!   first solution they take off the open list: not optimal in general.
//!
//! Unsolvable boards are rejected up front by the parity rule ([`Board::is_solvable_to`], O(cells)),
//! never by searching.
//!
//! # How nodes are counted
//! As in Russell & Norvig's experiment (Hazan & Ra's replication): a node is *generated* when a successor board
//! is made, and *expanded* when its successors are made. The start counts as generated. The move
//! straight back to the parent is never made (nor counted). A successor already reached at no
//! greater cost is still counted as generated, then dropped. IDA* counts every node of every
//! iteration, so a board seen in five iterations counts five times.
//!
//! # Implementation
//! Boards of up to 256 cells are stored whole, a byte a tile, in one arena; larger ones as the
//! cells where they differ from the start (a search of `d` moves changes at most `d + 1` cells, so
//! a node of a 127x127 board takes bytes instead of 32 KiB). A node is an index into that store
//! with its parent, cost and estimate. Duplicates are found by an
//! open-addressing table keyed by a Zobrist hash that is updated per move (the key of a tile on a
//! cell is a mixed function of the pair, so no key table is stored even for 127x127 boards). The
//! open list of A* and breadth-first is a bucket queue by `f`, and within one `f` by `g`, deepest
//! first; with an inconsistent guide (Nilsson's) or for greedy and weighted search it is a binary
//! heap. Manhattan distance, misplaced tiles and linear conflicts are updated per move from the one
//! tile that moves (linear conflicts: only the two lines it leaves and enters are recounted).
//!
//! [`trace`] is A* and IDA* again, written plainly for teaching, every node recorded: node for
//! node the searches here (the same counts, order and solution).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::error::Error;
use crate::heuristic::pdb::PatternSet;
use crate::heuristic::Heuristic;
use crate::puzzle::board::{Board, Dir};
use crate::table::Table;

pub mod batch;
pub mod beam;
mod checkpoint;
mod open;
mod pattern_ida;
pub mod prune;
pub mod reduce;
mod space;
mod store;
pub mod trace;

pub use batch::{batch_astar, BatchEstimate, BatchFound, BatchOptions, BatchOrder, BatchStats, GuideEstimate};
pub use checkpoint::{Checkpointing, Resumed};
pub use pattern_ida::ASTAR_IDA_BYTES;

use space::Space;

/// The search algorithm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Algorithm {
    /// A*: best-first on `g + h`; optimal with an admissible guide.
    AStar,
    /// Iterative-deepening A*: depth-first with a bound on `g + h`; optimal with an admissible
    /// guide, memory linear in the solution length.
    IdaStar,
    /// A*+IDA* (Bu & Korf 2019), with pattern databases only: A* until its memory budget
    /// (`Options::max_bytes`), then IDA* below the nodes left on its open list, those with the
    /// smallest `h` first, iteration by iteration, over `Options::threads` threads. Optimal
    /// with an admissible, consistent guide (pattern databases are).
    AStarIda,
    /// Breadth-first (uniform cost): A* with no estimate. Optimal; the guide is not used.
    Bfs,
    /// Greedy best-first: on `h` alone. Fast, not optimal.
    Greedy,
    /// Weighted A*: on `g + w·h`. With an admissible guide and `w >= 1`, the solution is at most
    /// `w` times the optimum. The open list's key is fixed point, `1000·g + 1000·w·h` in whole
    /// numbers (so ties are exact), so `w` is a whole number of thousandths ([`check_weight`]).
    Weighted(f64),
    /// Bounded-suboptimal search: a solution proven at most `w` times the optimum, with the
    /// proof ([`Found::lower_bound`]). Optimistic search (Thayer & Ruml 2008): weighted A* at
    /// weight `2w - 1` finds a first solution; then, while its length is more than `w` times the
    /// smallest `g + h` on the open list, the node with that smallest `g + h` is expanded (which
    /// raises the bound), or the aggressive list's best when it can still lead to a shorter
    /// solution. Needs an admissible guide. `w` as [`check_weight`] takes it, at least 1. The
    /// search starts from [`Algorithm::Reduce`]'s solution, so it always has one to return when a
    /// limit stops it.
    Within(f64),
    /// Constructive ([`reduce::reduce`]): the rows and columns placed one at a time, never moving
    /// a placed tile again, until a small region is left and solved by search. A valid solution
    /// on any board up to 127x127 in seconds; not optimal. Its lower bound is the guide's
    /// estimate of the start (when the guide is admissible).
    Reduce,
    /// Beam search ([`beam`]): breadth-first, keeping at each depth the given number of boards
    /// the guide estimates nearest (ties to linear conflict). Not optimal; fast and good with a
    /// strong guide. Its lower bound is the guide's estimate of the start (when admissible).
    Beam(u32),
}

impl Algorithm {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::AStar => "astar",
            Algorithm::IdaStar => "idastar",
            Algorithm::AStarIda => "astar-ida",
            Algorithm::Bfs => "bfs",
            Algorithm::Greedy => "greedy",
            Algorithm::Weighted(_) => "weighted",
            Algorithm::Within(_) => "within",
            Algorithm::Reduce => "reduce",
            Algorithm::Beam(_) => "beam",
        }
    }

    /// The algorithm named `name` as the CLI's `--algorithm` and the Python package take it
    /// (`astar`/`a*`, `idastar`/`ida*`, `astar-ida`/`a*+ida*`, `bfs`, `greedy`, `weighted`, `reduce`, `beam` (of [`beam::DEFAULT_WIDTH`] boards)); `weight` goes with
    /// `weighted` (default 2) and only with it.
    ///
    /// # Errors
    /// [`Error::BadOption`] for an unknown name, or a weight with another algorithm.
    pub fn parse(name: &str, weight: Option<f64>) -> Result<Algorithm, Error> {
        let a = match name.trim().to_ascii_lowercase().as_str() {
            "astar" | "a*" => Algorithm::AStar,
            "idastar" | "ida*" => Algorithm::IdaStar,
            "astar-ida" | "a*+ida*" => Algorithm::AStarIda,
            "bfs" | "breadth-first" => Algorithm::Bfs,
            "greedy" => Algorithm::Greedy,
            "reduce" => Algorithm::Reduce,
            "beam" => Algorithm::Beam(beam::DEFAULT_WIDTH),
            "weighted" | "wa*" => return Ok(Algorithm::Weighted(weight.unwrap_or(2.0))),
            other => {
                return Err(Error::BadOption(format!(
                    "unknown algorithm `{other}`: use astar, idastar, astar-ida, bfs, greedy, weighted, reduce or beam"
                )))
            }
        };
        match weight {
            Some(_) => Err(Error::BadOption("a weight goes with the weighted algorithm".into())),
            None => Ok(a),
        }
    }

    /// Whether a solution found with `guide` is proven optimal: breadth-first always; A*, IDA*
    /// (and weight 1) with an admissible guide.
    pub fn proves_optimal(self, guide: &Guide<'_>) -> bool {
        self == Algorithm::Bfs || (guide.is_admissible() && self.is_optimal_with_admissible_guide())
    }

    /// Whether the algorithm's solution is optimal when its guide is admissible.
    pub fn is_optimal_with_admissible_guide(self) -> bool {
        // a bounded search at 1 is not: a limit may stop it before its proof ([`Found::proven_optimal`] says)
        matches!(self, Algorithm::AStar | Algorithm::IdaStar | Algorithm::AStarIda | Algorithm::Bfs)
            || matches!(self, Algorithm::Weighted(w) if w == 1.0)
    }
}

/// Exact distances to a goal, as a guide: a perfect table.
pub trait Exact: Sync {
    /// The goal the distances are measured to.
    fn goal(&self) -> &Board;

    /// The exact distance of the board whose cells, row-major, are `cells` (0 the blank), or
    /// `None` if it cannot reach the goal.
    ///
    /// # Errors
    /// [`Error::Corrupt`] when the table's entry is not a distance.
    fn exact(&self, cells: &[u8]) -> Result<Option<u32>, Error>;
}

impl<D: AsRef<[u8]> + Sync> Exact for Table<D> {
    fn goal(&self) -> &Board {
        Table::goal(self)
    }

    fn exact(&self, cells: &[u8]) -> Result<Option<u32>, Error> {
        match self.index().index_of_cells(cells) {
            Some(i) => Ok(Some(self.entry(i)? as u32)),
            None => Ok(None),
        }
    }
}

/// What orders the search: an estimate, or the exact distance from a table.
#[derive(Clone, Copy)]
pub enum Guide<'a> {
    /// A heuristic estimate.
    Heuristic(Heuristic),
    /// The exact distance from a perfect table for the board's shape and goal.
    Table(&'a dyn Exact),
    /// The sum of additive pattern databases (with the reflected lookup when the set has it).
    Patterns(&'a PatternSet),
}

impl Guide<'_> {
    /// The name used on the command line: a heuristic's name, or `table`.
    pub fn name(&self) -> &'static str {
        match self {
            Guide::Heuristic(h) => h.name(),
            Guide::Table(_) => "table",
            Guide::Patterns(_) => "pdb",
        }
    }

    /// The guide's estimate of the board whose cells, row-major, are `cells` (0 the blank), from
    /// scratch; `est` knows the goal (for the classic estimates).
    ///
    /// # Errors
    /// [`Error::BadGoal`] for a table guide on a board past 16 cells or a board its table has no
    /// entry for; [`Error::Corrupt`] from a table's bad entry.
    pub(crate) fn estimate<T: crate::heuristic::Tile>(
        &self,
        est: &crate::heuristic::Estimator,
        cells: &[T],
    ) -> Result<u32, Error> {
        match self {
            Guide::Heuristic(h) => Ok(est.estimate(*h, cells)),
            Guide::Patterns(set) => Ok(set.estimate_cells(cells)),
            Guide::Table(t) => {
                let mut small = [0u8; 16];
                let Some(buf) = small.get_mut(..cells.len()) else {
                    return Err(Error::BadGoal("a table guide needs a board of at most 12 cells".into()));
                };
                for (b, &c) in buf.iter_mut().zip(cells) {
                    *b = c.into() as u8;
                }
                t.exact(buf)?
                    .ok_or_else(|| Error::BadGoal("the table has no entry for a board the search reached".into()))
            }
        }
    }

    /// Whether the guide never overestimates.
    pub fn is_admissible(&self) -> bool {
        match self {
            Guide::Heuristic(h) => h.is_admissible(),
            Guide::Table(_) | Guide::Patterns(_) => true,
        }
    }

    /// Whether the guide is consistent (`h` changes by at most one per move), so A* never has
    /// to reopen a board it has expanded. Nilsson's is not.
    fn is_consistent(&self) -> bool {
        self.is_admissible()
    }
}

impl std::fmt::Debug for Guide<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How to search.
#[derive(Clone, Debug)]
pub struct Options {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Give up ([`Error::SearchLimit`]) once this many nodes have been generated.
    pub max_nodes: Option<u64>,
    /// Give up ([`Error::SearchLimit`]) once the search's own data would take more bytes than
    /// this (boards, node records, hash table, open list; IDA* needs only its path).
    pub max_bytes: Option<u64>,
    /// The order in which IDA* with pattern databases tries a node's children.
    pub order: ChildOrder,
    /// Threads for one search (IDA* with pattern databases splits each iteration's subtrees
    /// among them); 1 searches on the calling thread.
    pub threads: usize,
    /// Lets another thread follow the search's node count and stop it ([`Error::Cancelled`]).
    pub watch: Option<Arc<Watch>>,
    /// The move strings IDA* with pattern databases never makes ([`prune`]); `None` forbids only
    /// the move straight back.
    pub prune: Option<Arc<prune::MovePruner>>,
    /// A*+IDA*: keep the search's progress in a file and resume from it ([`Checkpointing`]).
    pub checkpoint: Option<Checkpointing>,
    /// Stop after this long: [`Error::SearchLimit`], or for [`Algorithm::Within`] the best
    /// solution found so far with its bound ([`Found::stopped`]) once there is one. Looked at
    /// every few thousand nodes (every 65,536 by each thread of IDA\* with pattern databases).
    pub time_limit: Option<Duration>,
    /// With [`Algorithm::Within`]: once the bound is proven, go on improving the solution and
    /// the proof (the smallest `g + h` rising) until the optimum is proven or a limit is reached
    /// (`time_limit`, `max_bytes`, `max_nodes`), then return the best solution found.
    pub anytime: bool,
}

/// A window on a running search from another thread: the nodes generated so far (updated every
/// thousand or so) and a stop button.
#[derive(Debug, Default)]
pub struct Watch {
    generated: AtomicU64,
    stop: AtomicBool,
}

impl Watch {
    /// A new watch: nothing generated, not stopped.
    pub fn new() -> Watch {
        Watch::default()
    }

    /// The nodes generated so far (a little behind the true count while the search runs).
    pub fn generated(&self) -> u64 {
        self.generated.load(Ordering::Relaxed)
    }

    /// Asks the search to stop; it returns [`Error::Cancelled`] within a few thousand nodes.
    pub fn cancel(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether [`Watch::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Records the count so far (monotonic: a smaller count is ignored).
    pub(crate) fn set_generated(&self, n: u64) {
        self.generated.fetch_max(n, Ordering::Relaxed);
    }

    /// Adds `n` to the count.
    pub(crate) fn add_generated(&self, n: u64) {
        self.generated.fetch_add(n, Ordering::Relaxed);
    }
}

impl Default for Options {
    /// A*, no limits.
    fn default() -> Options {
        Options {
            algorithm: Algorithm::AStar,
            max_nodes: None,
            max_bytes: None,
            order: ChildOrder::ByEstimate,
            threads: 1,
            watch: None,
            prune: None,
            checkpoint: None,
            time_limit: None,
            anytime: false,
        }
    }
}

impl Options {
    /// Options for `algorithm` with no limits.
    pub fn new(algorithm: Algorithm) -> Options {
        Options { algorithm, ..Options::default() }
    }
}

/// The order in which a depth-first search tries a node's children (used by IDA* with pattern
/// databases).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ChildOrder {
    /// Lowest estimate first.
    #[default]
    ByEstimate,
    /// The blank's moves in the order up, left, right, down, as in Korf & Felner's runs, so that
    /// node counts can be compared with theirs one for one.
    Fixed,
}

/// What a search did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Nodes whose successors were made.
    pub expanded: u64,
    /// Nodes made, the start included (see the module doc for the rule).
    pub generated: u64,
    /// The largest number of entries on the open list (A*, breadth-first, greedy, weighted);
    /// for IDA*, the longest path held.
    pub peak_open: u64,
    /// Boards held at the end (A* family); for IDA*, the same as `peak_open`.
    pub stored: u64,
    /// IDA*: the number of depth-first iterations (bounds tried); 1 for the others.
    pub iterations: u64,
    /// The most bytes the search's own data structures held at once (their capacities).
    pub peak_bytes: u64,
    /// The search's wall-clock time, the parity check and set-up included.
    pub elapsed: Duration,
}

/// A solution and what finding it took.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The blank's moves from the start to the goal.
    pub moves: Vec<Dir>,
    /// The search's counts.
    pub stats: Stats,
    /// A proven lower bound on the optimum, `None` when the search proves none (an inadmissible
    /// guide). An optimal search's is the solution's length; a weighted, greedy or bounded one's
    /// is the largest of the start's estimate, the smallest `g + h` on its open list when it
    /// stopped (at most the length), and for weighted A* the length divided by `w` (Pohl 1970),
    /// raised to the parity every solution of the board has (each move takes the blank to a cell
    /// of the other colour of a chessboard).
    pub lower_bound: Option<u32>,
    /// Why the search stopped before it proved what it was asked (a time, memory or node limit
    /// reached by [`Algorithm::Within`]): the solution is the best it had, `lower_bound` the
    /// proof it had. `None` when it finished.
    pub stopped: Option<String>,
}

impl Found {
    /// The solution's length over its lower bound: the solution is proven at most this many
    /// times the optimum (1 for a proven optimum, and for the goal itself); `None` without a
    /// bound, or with a bound of 0 under a solution of some moves.
    pub fn within(&self) -> Option<f64> {
        let lb = self.lower_bound?;
        match (self.moves.len(), lb) {
            (0, _) => Some(1.0),
            (_, 0) => None,
            (d, lb) => Some(d as f64 / lb as f64),
        }
    }

    /// Whether the solution is proven optimal: its length equals its lower bound.
    pub fn proven_optimal(&self) -> bool {
        self.lower_bound == Some(self.moves.len() as u32)
    }
}

/// Searches for a path from `start` to `goal`; `Ok(None)` if the board cannot reach the goal
/// (found by the parity rule, without searching).
///
/// # Errors
/// [`Error::ShapeMismatch`] when the two boards (or a table guide) have different shapes;
/// [`Error::BadGoal`] when a table guide is for another goal; [`Error::BadOption`] for a weight
/// [`check_weight`] refuses; [`Error::SearchLimit`] when a limit of `options` is reached;
/// [`Error::Corrupt`] from a table guide's bad entry.
pub fn solve(start: &Board, goal: &Board, guide: Guide<'_>, options: &Options) -> Result<Option<Found>, Error> {
    let began = Instant::now();
    if start.shape() != goal.shape() {
        return Err(Error::ShapeMismatch { board: start.shape(), table: goal.shape() });
    }
    if let Guide::Patterns(set) = guide {
        if set.goal() != goal {
            return Err(Error::BadGoal(format!("the pattern tables' goal is {}, not {goal}", set.goal())));
        }
    }
    if let Guide::Table(t) = guide {
        if t.goal().shape() != goal.shape() {
            return Err(Error::ShapeMismatch { board: goal.shape(), table: t.goal().shape() });
        }
        if t.goal() != goal {
            return Err(Error::BadGoal(format!("the table's goal is {}, not {goal}", t.goal())));
        }
    }
    if let Algorithm::Weighted(w) = options.algorithm {
        check_weight(w)?;
    }
    if let Algorithm::Within(w) = options.algorithm {
        check_within(w)?;
        if !guide.is_admissible() {
            return Err(Error::BadOption(format!(
                "a solution within {w} of optimal needs an admissible heuristic to prove it, and {} is not",
                guide.name()
            )));
        }
    }
    if options.anytime && !matches!(options.algorithm, Algorithm::Within(_)) {
        return Err(Error::BadOption(format!(
            "an anytime search is the bounded one (within W), not {}",
            options.algorithm.name()
        )));
    }
    if !start.is_solvable_to(goal) {
        return Ok(None);
    }
    if options.checkpoint.is_some() && options.algorithm != Algorithm::AStarIda {
        return Err(Error::BadOption(format!(
            "a checkpoint goes with astar-ida (the search of hours), not {}",
            options.algorithm.name()
        )));
    }
    // an optimal search's bound is its length
    let optimal = |found: Result<Option<(Vec<Dir>, Stats)>, Error>| {
        found.map(|f| {
            f.map(|(moves, stats)| Found { lower_bound: Some(moves.len() as u32), moves, stats, stopped: None })
        })
    };
    let found = if let (Guide::Patterns(set), Algorithm::IdaStar) = (guide, options.algorithm) {
        optimal(pattern_ida::idastar(start, set, options, options.threads.max(1)))
    } else if let (Guide::Patterns(set), Algorithm::AStarIda) = (guide, options.algorithm) {
        optimal(pattern_ida::astar_ida(start, set, options, options.threads.max(1)))
    } else if options.algorithm == Algorithm::AStarIda {
        return Err(Error::BadOption(
            "astar-ida searches with pattern databases (-H pdb); use astar or idastar with other heuristics".into(),
        ));
    } else if let Algorithm::Beam(width) = options.algorithm {
        // a dead end (a narrow beam's) or a limit: the constructive solution, said so
        let constructive =
            || reduce::reduce(start, goal)?.ok_or_else(|| Error::Internal("reduce found no solution".into()));
        let (moves, stats, stopped) = match beam::beam(start, goal, guide, width, None, options) {
            Ok((Some(moves), stats)) => (moves, stats, None),
            Ok((None, stats)) => (
                constructive()?,
                stats,
                Some(format!(
                    "a dead end of the beam (every board its {width} could reach was kept before): reduce's solution \
                     instead; a wider beam goes further"
                )),
            ),
            Err(Error::SearchLimit { what, generated, bytes, .. }) => (
                constructive()?,
                Stats { generated, peak_bytes: bytes, ..Stats::default() },
                Some(format!("{what}, before the beam reached the goal: reduce's solution instead")),
            ),
            Err(e) => return Err(e),
        };
        let h0 = guide.estimate(&crate::heuristic::Estimator::new(goal), start.cells())?;
        let lower_bound = guide.is_admissible().then(|| with_parity(h0, moves.len() as u32));
        Ok(Some(Found { moves, stats, lower_bound, stopped }))
    } else {
        // the constructive solution, reduce's answer; the bounded search's first solution
        let (seed, before, searched) = match options.algorithm {
            Algorithm::Reduce => (reduce::reduce(start, goal)?, Stats::default(), false),
            Algorithm::Within(_) => first_solution(start, goal, guide, options)?,
            _ => (None, Stats::default(), false),
        };
        // the time and the nodes the seed took count against the limits
        let found = if goal.cells().len() <= 256 {
            Space::<u8>::new(start, goal, guide, options)
                .seeded(seed)
                .searched_seed(searched)
                .since(began, before.generated)
                .run()
        } else {
            Space::<u16>::new(start, goal, guide, options)
                .seeded(seed)
                .searched_seed(searched)
                .since(began, before.generated)
                .run()
        };
        found.map(|f| {
            f.map(|mut f| {
                f.stats.generated += before.generated;
                f.stats.expanded += before.expanded;
                f.stats.peak_bytes = f.stats.peak_bytes.max(before.peak_bytes);
                f
            })
        })
    };
    Ok(found?.map(|mut found| {
        // this call's time; a search resumed from a checkpoint reports more, its earlier runs'
        // time with this one's
        found.stats.elapsed = found.stats.elapsed.max(began.elapsed());
        found
    }))
}

/// The boards whose bounded search ([`Algorithm::Within`]) starts from a beam search's solution
/// when it is shorter than the constructive one: past the 15-puzzle, where the bounded search no
/// longer finds a good one itself in seconds (the 35-puzzle: 136 moves on average where it found
/// 156), and up to 64, where the beam still takes seconds (past it, boards of hundreds of moves).
const BEAM_SEED_CELLS: std::ops::RangeInclusive<usize> = 17..=64;

/// The bounded search's first solution, what finding it took, and whether it is a searched one:
/// the constructive one, or on [`BEAM_SEED_CELLS`] the beam's when shorter. The beams get three
/// quarters of the time limit (a good seed often needs only its proof, the start's estimate):
/// [`BEAM_WIDTHS`] in turn, each only when the limit leaves room for it (the last one's time
/// times the growth in width, and once more), each stopped at the best length so far; without a
/// time limit, up to [`beam::DEFAULT_WIDTH`]. A beam stopped by a limit leaves the solution there
/// was. The narrow first beam is for short limits (a game's two seconds a position on a 7x7,
/// where one of 10,000 boards does not finish and reduce's solution used to be all there was).
///
/// The wider beam pays more than the search's own time: on eight of DeepCubeA's 35-puzzles whose
/// proof of 1.25 the search had not reached in 10 s, with the 6x6 tables, 30,000 boards found
/// 2.25 moves fewer on average than 10,000 (in 3.1 s against 1.0 s), where the search after the
/// narrower beam gained 0.75.
fn first_solution(
    start: &Board,
    goal: &Board,
    guide: Guide<'_>,
    options: &Options,
) -> Result<(Option<Vec<Dir>>, Stats, bool), Error> {
    let began = Instant::now();
    let mut best = reduce::reduce(start, goal)?;
    let mut searched = false;
    let mut stats = Stats::default();
    if !BEAM_SEED_CELLS.contains(&start.shape().cells()) {
        return Ok((best, stats, searched));
    }
    let budget = options.time_limit.map(|t| t * 3 / 4);
    for (k, &width) in BEAM_WIDTHS.iter().enumerate() {
        let t = Instant::now();
        let limited = Options {
            time_limit: budget.map(|b| b.saturating_sub(began.elapsed()).max(Duration::from_millis(1))),
            max_nodes: options.max_nodes.map(|m| m.saturating_sub(stats.generated).max(1)),
            ..options.clone()
        };
        let moves = match beam::beam(start, goal, guide, width, best.as_ref().map(Vec::len), &limited) {
            Ok((moves, run)) => {
                stats.generated += run.generated;
                stats.expanded += run.expanded;
                stats.peak_bytes = stats.peak_bytes.max(run.peak_bytes);
                moves
            }
            // a limit: no room for a wider beam either
            Err(Error::SearchLimit { generated, bytes, .. }) => {
                stats.generated += generated;
                stats.peak_bytes = stats.peak_bytes.max(bytes);
                return Ok((best, stats, searched));
            }
            Err(e) => return Err(e),
        };
        if let Some(moves) = moves.filter(|m| best.as_ref().is_none_or(|b| m.len() < b.len())) {
            best = Some(moves);
            searched = true;
        }
        let Some(&next) = BEAM_WIDTHS.get(k + 1) else { break };
        let room = match budget {
            Some(b) => began.elapsed() + t.elapsed() * (next / width + 1) <= b,
            None => next <= beam::DEFAULT_WIDTH,
        };
        if !room {
            break;
        }
    }
    Ok((best, stats, searched))
}

/// The widths of the bounded search's beams, tried in turn while the time limit leaves room.
const BEAM_WIDTHS: [u32; 4] = [1_000, 3_000, beam::DEFAULT_WIDTH, 3 * beam::DEFAULT_WIDTH];

/// Checks the factor of a bounded-suboptimal search ([`Algorithm::Within`]): as
/// [`check_weight`], and at least 1 (no solution is shorter than the optimum).
///
/// # Errors
/// [`Error::BadOption`] saying which rule the factor breaks.
pub fn check_within(w: f64) -> Result<(), Error> {
    if !(w.is_finite() && (1.0..=MAX_WEIGHT).contains(&w)) {
        return Err(Error::BadOption(format!(
            "within {w}: give a factor from 1 (optimal) to {MAX_WEIGHT}, like 1.1 for at most 10% longer than optimal"
        )));
    }
    in_thousandths(w).map_err(|kept| {
        Error::BadOption(format!(
            "within {w} has more than three decimals: the bounded search counts factors in thousandths and would \
             search within {kept}; give a multiple of 0.001"
        ))
    })
}

/// `Ok` when `w` is a whole number of thousandths, else `Err` with the one it would be taken as.
fn in_thousandths(w: f64) -> Result<(), f64> {
    let kept = (w * 1000.0).round() / 1000.0;
    if kept == w {
        Ok(())
    } else {
        Err(kept)
    }
}

/// The least length a solution of `start` can have given that one has length `len` and the
/// optimum is at least `bound`: `bound` raised to `len`'s parity (every solution of a board has
/// the same parity: each move takes the blank to a cell of the other colour of a chessboard),
/// and never above `len`.
pub(crate) fn with_parity(bound: u32, len: u32) -> u32 {
    let b = bound + ((len ^ bound) & 1);
    b.min(len)
}

/// The largest weight weighted A* takes.
pub const MAX_WEIGHT: f64 = 1000.0;

/// Checks a weight of weighted A* ([`Algorithm::Weighted`]): from 0 to [`MAX_WEIGHT`], and a
/// whole number of thousandths, since the open list's key is `1000·g + round(1000·w)·h`: a
/// finer weight would be searched as another one (0.0004 as 0, 1.0004 as 1) while the caller
/// reports the one it gave. Every weight written with at most three decimals passes: the
/// nearest `f64` to `n / 1000` is `n / 1000.0`, and `round(1000·w)` gives `n` back.
///
/// # Errors
/// [`Error::BadOption`] saying which rule the weight breaks (and, for a finer one, the weight it
/// would be searched as).
pub fn check_weight(w: f64) -> Result<(), Error> {
    if !(w.is_finite() && (0.0..=MAX_WEIGHT).contains(&w)) {
        return Err(Error::BadOption(format!("weight {w} is out of range: give a number from 0 to {MAX_WEIGHT}")));
    }
    in_thousandths(w).map_err(|kept| {
        Error::BadOption(format!(
            "weight {w} has more than three decimals: weighted A* counts weights in thousandths (it orders \
             nodes by 1000·g + 1000·w·h, in whole numbers) and would search with weight {kept}; give a \
             multiple of 0.001"
        ))
    })
}

/// A* with heuristic `h` and no limits; `None` if the board cannot reach the goal.
///
/// # Panics
/// If the two boards have different shapes.
pub fn astar(start: &Board, goal: &Board, h: Heuristic) -> Option<Found> {
    plain(start, goal, h, Algorithm::AStar)
}

/// IDA* with heuristic `h` and no limits; `None` if the board cannot reach the goal.
///
/// # Panics
/// If the two boards have different shapes.
pub fn idastar(start: &Board, goal: &Board, h: Heuristic) -> Option<Found> {
    plain(start, goal, h, Algorithm::IdaStar)
}

fn plain(start: &Board, goal: &Board, h: Heuristic, algorithm: Algorithm) -> Option<Found> {
    match solve(start, goal, Guide::Heuristic(h), &Options::new(algorithm)) {
        Ok(found) => found,
        // with no limits and no table, only a shape mismatch is possible
        Err(e) => panic!("{e}"),
    }
}

/// The effective branching factor `b*` of a search that generated `generated` nodes to find a
/// solution `depth` moves long: the branching factor of a uniform tree of that depth with as
/// many nodes, the root of `N + 1 = 1 + b + b^2 + ... + b^d` (Russell & Norvig). `None` for
/// depth 0 or fewer nodes than the path needs.
pub fn effective_branching_factor(generated: f64, depth: u32) -> Option<f64> {
    if depth == 0 || !generated.is_finite() || generated < depth as f64 {
        return None;
    }
    let target = generated + 1.0;
    let total = |b: f64| {
        let (mut sum, mut power) = (1.0, 1.0);
        for _ in 0..depth {
            power *= b;
            sum += power;
            if sum > target {
                break;
            }
        }
        sum
    };
    let (mut lo, mut hi) = (0.0f64, generated.max(2.0));
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if total(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branching_factor_solves_the_series() {
        // 1 + 2 + 4 + 8 = 15 nodes, so N = 14 at depth 3 gives b* = 2
        let b = effective_branching_factor(14.0, 3).unwrap();
        assert!((b - 2.0).abs() < 1e-9, "{b}");
        // a path alone: N = d gives b* = 1
        let b = effective_branching_factor(5.0, 5).unwrap();
        assert!((b - 1.0).abs() < 1e-9, "{b}");
        assert_eq!(effective_branching_factor(10.0, 0), None);
        // Russell & Norvig's example: 52 nodes at depth 5 give 1.92
        let b = effective_branching_factor(52.0, 5).unwrap();
        assert!((b - 1.92).abs() < 0.005, "{b}");
    }

    #[test]
    fn every_weight_written_in_thousandths_is_taken_and_no_finer_one() {
        for n in 0..=1_000_000u64 {
            let text = format!("{}.{:03}", n / 1000, n % 1000);
            let w: f64 = text.parse().unwrap();
            assert!(check_weight(w).is_ok(), "{text}");
            assert_eq!((w * 1000.0).round() as u64, n, "{text}");
        }
        for w in [0.0004, 0.0005, 1.0004, 2.0005, 0.1234, 1e-9, 999.9999, f64::MIN_POSITIVE] {
            let e = check_weight(w).unwrap_err().to_string();
            assert!(e.contains("more than three decimals"), "{w}: {e}");
        }
        for w in [-0.001, 1000.001, f64::NAN, f64::INFINITY] {
            assert!(check_weight(w).unwrap_err().to_string().contains("out of range"), "{w}");
        }
        // the weight it would have been searched with is named
        assert!(check_weight(0.0004).unwrap_err().to_string().contains("would search with weight 0;"));
    }
}
