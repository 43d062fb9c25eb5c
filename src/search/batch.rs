//! Batch-weighted A* (BWAS), the search of DeepCubeA (Agostinelli et al., "Solving the Rubik's
//! cube with deep reinforcement learning and search", Nature Machine Intelligence 2019), for
//! estimates that are costly per call and cheap per board: a neural network, a Python function.
//!
//! Each step takes the `batch_size` best nodes off the open list (by `g + w·h`, or `h` alone for
//! greedy), expands them all, and asks the estimator for every *new* child in **one** call: the
//! boards are handed over as one contiguous array. With `batch_size` 1 and `w` 1 this is A*
//! node for node (a goal is accepted when it is taken off the open list, never when it is made,
//! so with an admissible estimate the solution is optimal); with `batch_size` 1 it is weighted A*.
//! DeepCubeA writes its cost `λ·g + h`; that orders nodes as `g + w·h` does with `w = 1/λ`.
//!
//! Nodes are counted by the rule of the other searches (the module doc of [`super`]): generated
//! when made (the move back to the parent is never made), expanded when their children are made.
//! A board reached again by a cheaper path takes that path and goes back on the open list with
//! the estimate it already had (a learned estimate need not be consistent); it is never
//! estimated twice, so `evaluated` counts distinct boards.

use std::cmp::Ordering as CmpOrdering;
use std::collections::BinaryHeap;
use std::time::{Duration, Instant};

use super::space::{board_hash, key};
use super::store::HashSlots;
use super::{Guide, Stats, Watch, MAX_WEIGHT};
use crate::error::Error;
use crate::heuristic::Estimator;
use crate::puzzle::board::{Board, Dir};

/// An estimate asked for many boards at once.
pub trait BatchEstimate {
    /// Writes the estimate of board `i` into `out[i]`. `boards` holds `out.len()` boards of
    /// `cells` bytes each, row-major, one byte a tile (0 the blank).
    ///
    /// # Errors
    /// Whatever stops the search: the error is returned by [`batch_astar`] as it is.
    fn estimate(&mut self, boards: &[u8], cells: usize, out: &mut [f64]) -> Result<(), Error>;
}

/// A [`Guide`] (a heuristic, a table's exact distances, pattern databases) asked board by board:
/// the built-in estimates through the same search, to compare a learned one with.
pub struct GuideEstimate<'a> {
    guide: Guide<'a>,
    est: Estimator,
}

impl<'a> GuideEstimate<'a> {
    /// The estimate of `guide` toward `goal`.
    pub fn new(goal: &Board, guide: Guide<'a>) -> GuideEstimate<'a> {
        GuideEstimate { guide, est: Estimator::new(goal) }
    }
}

impl BatchEstimate for GuideEstimate<'_> {
    fn estimate(&mut self, boards: &[u8], cells: usize, out: &mut [f64]) -> Result<(), Error> {
        for (board, h) in boards.chunks_exact(cells).zip(out.iter_mut()) {
            *h = match self.guide {
                Guide::Heuristic(heuristic) => self.est.estimate(heuristic, board) as f64,
                Guide::Patterns(set) => set.estimate_cells(board) as f64,
                Guide::Table(t) => t
                    .exact(board)?
                    .ok_or_else(|| Error::BadGoal("the table has no entry for a board the search reached".into()))?
                    as f64,
            };
        }
        Ok(())
    }
}

/// How the open list is ordered.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BatchOrder {
    /// By `g + w·h` (`w` from 0 to [`MAX_WEIGHT`]; 1 is A*'s order).
    Weighted(f64),
    /// By `h` alone (greedy best-first).
    Greedy,
}

/// How to run [`batch_astar`].
#[derive(Clone, Debug)]
pub struct BatchOptions {
    /// Nodes expanded per step, their new children estimated in one call (at least 1).
    pub batch_size: usize,
    /// The order of the open list.
    pub order: BatchOrder,
    /// Give up ([`Error::SearchLimit`]) once this many nodes have been generated.
    pub max_nodes: Option<u64>,
    /// Give up ([`Error::SearchLimit`]) once the search's own data would take more bytes.
    pub max_bytes: Option<u64>,
    /// Lets another thread follow the node count and stop the search ([`Error::Cancelled`]).
    pub watch: Option<std::sync::Arc<Watch>>,
}

impl Default for BatchOptions {
    /// A* (batch 1, weight 1), no limits.
    fn default() -> BatchOptions {
        BatchOptions { batch_size: 1, order: BatchOrder::Weighted(1.0), max_nodes: None, max_bytes: None, watch: None }
    }
}

impl BatchOptions {
    /// The name of the search these options make: `astar`, `weighted`, `greedy` (batch 1) or
    /// `bwas`.
    pub fn name(&self) -> &'static str {
        match (self.batch_size, self.order) {
            (1, BatchOrder::Greedy) => "greedy",
            (1, BatchOrder::Weighted(1.0)) => "astar",
            (1, BatchOrder::Weighted(_)) => "weighted",
            _ => "bwas",
        }
    }
}

/// What a batch search did, beside the counts every search reports.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BatchStats {
    /// Expanded, generated, open list and memory peaks; `iterations` is the number of steps.
    pub search: Stats,
    /// Calls to the estimator.
    pub calls: u64,
    /// Boards estimated (every distinct board the search made, the start included).
    pub evaluated: u64,
    /// Time spent inside the estimator (within `search.elapsed`).
    pub estimate_time: Duration,
    /// Boards estimated `+inf` (dead ends, never expanded).
    pub dead_ends: u64,
}

/// A solution of [`batch_astar`].
#[derive(Clone, Debug, PartialEq)]
pub struct BatchFound {
    /// The blank's moves from the start to the goal.
    pub moves: Vec<Dir>,
    /// What finding it took.
    pub stats: BatchStats,
}

/// A node: its board is `cells` bytes at `id * cells` in the arena.
#[derive(Clone, Copy)]
struct Node {
    hash: u64,
    parent: u32,
    g: u32,
    h: f64,
    blank: u32,
    /// The move from the parent (index in [`Dir::ALL`]), or 4 for the start.
    dir: u8,
}

const NO_DIR: u8 = 4;

/// An open-list entry: smaller `key` first, then deeper (larger `g`), then the newer node.
#[derive(Clone, Copy)]
struct Entry {
    key: f64,
    g: u32,
    id: u32,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Entry) -> bool {
        self.cmp(other) == CmpOrdering::Equal
    }
}

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Entry) -> Option<CmpOrdering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    /// The max-heap's order: the entry to take first is the greatest.
    fn cmp(&self, other: &Entry) -> CmpOrdering {
        other.key.total_cmp(&self.key).then(self.g.cmp(&other.g)).then(self.id.cmp(&other.id))
    }
}

/// Batch-weighted A* from `start` to `goal` with `estimate`; `Ok(None)` if the board cannot reach
/// the goal (the parity rule, without searching).
///
/// # Errors
/// [`Error::ShapeMismatch`] for boards of different shapes; [`Error::BadOption`] for a batch size
/// of 0, a weight out of range, a board of more than 256 cells, or an estimate that is not a
/// number (NaN, or `-inf`);
/// [`Error::SearchLimit`] at a limit; [`Error::DeadEnds`] when every board left to expand was
/// estimated `+inf` (a dead end: such boards are never expanded); [`Error::Cancelled`] when the
/// watch is stopped; and any error the estimator returns.
///
/// A board reached again by a shorter path is expanded again (reopened) by A*, weighted A* and
/// batch-weighted A*, so an admissible but inconsistent estimate still gives A* an optimal
/// solution; greedy best-first, whose order ignores path lengths, only records the shorter path.
pub fn batch_astar(
    start: &Board,
    goal: &Board,
    estimate: &mut dyn BatchEstimate,
    options: &BatchOptions,
) -> Result<Option<BatchFound>, Error> {
    let began = Instant::now();
    if start.shape() != goal.shape() {
        return Err(Error::ShapeMismatch { board: start.shape(), table: goal.shape() });
    }
    if options.batch_size == 0 {
        return Err(Error::BadOption("batch_size must be at least 1".into()));
    }
    if let BatchOrder::Weighted(w) = options.order {
        if !(w.is_finite() && (0.0..=MAX_WEIGHT).contains(&w)) {
            return Err(Error::BadOption(format!("weight {w} is out of range: give a number from 0 to {MAX_WEIGHT}")));
        }
    }
    let n = start.cells().len();
    if n > 256 {
        return Err(Error::BadOption(format!("batch-weighted A* takes boards of up to 256 cells; this one has {n}")));
    }
    if !start.is_solvable_to(goal) {
        return Ok(None);
    }
    let mut search = Batch::new(start, goal, options);
    let found = search.run(estimate);
    let mut stats = search.stats;
    stats.search.elapsed = began.elapsed();
    Ok(found?.map(|moves| BatchFound { moves, stats }))
}

/// The search's state.
struct Batch<'o> {
    n: usize,
    shape: crate::puzzle::board::Shape,
    goal: Vec<u8>,
    goal_hash: u64,
    arena: Vec<u8>,
    nodes: Vec<Node>,
    slots: HashSlots,
    open: BinaryHeap<Entry>,
    options: &'o BatchOptions,
    stats: BatchStats,
    /// The estimates of the boards a step made, in node order.
    answers: Vec<f64>,
    /// The first node made in the current step: the nodes from it on are estimated at the
    /// step's end, and put on the open list then.
    step_first: usize,
}

impl<'o> Batch<'o> {
    fn new(start: &Board, goal: &Board, options: &'o BatchOptions) -> Batch<'o> {
        let shape = start.shape();
        let bytes = |b: &Board| b.cells().iter().map(|&c| c as u8).collect::<Vec<u8>>();
        let goal = bytes(goal);
        let goal_hash = board_hash(&goal);
        let start_cells = bytes(start);
        let mut search = Batch {
            n: shape.cells(),
            shape,
            goal,
            goal_hash,
            arena: start_cells.clone(),
            nodes: Vec::new(),
            slots: HashSlots::new(),
            open: BinaryHeap::new(),
            options,
            stats: BatchStats::default(),
            answers: Vec::new(),
            step_first: 1,
        };
        let hash = board_hash(&start_cells);
        search.nodes.push(Node { hash, parent: 0, g: 0, h: 0.0, blank: start.blank() as u32, dir: NO_DIR });
        let nodes = &search.nodes;
        search.slots.insert(hash, 0, |id| nodes[id as usize].hash);
        search.stats.search.generated = 1;
        search.stats.search.iterations = 0;
        search
    }

    fn key(&self, g: u32, h: f64) -> f64 {
        match self.options.order {
            BatchOrder::Weighted(w) => g as f64 + w * h,
            BatchOrder::Greedy => h,
        }
    }

    fn board(&self, id: u32) -> &[u8] {
        &self.arena[id as usize * self.n..(id as usize + 1) * self.n]
    }

    /// Estimates the nodes from `first` to the last made, in one call, and puts them on the
    /// open list.
    fn estimate_new(&mut self, first: usize, estimate: &mut dyn BatchEstimate) -> Result<(), Error> {
        let count = self.nodes.len() - first;
        if count == 0 {
            return Ok(());
        }
        self.answers.clear();
        self.answers.resize(count, 0.0);
        let boards = &self.arena[first * self.n..];
        let t = Instant::now();
        estimate.estimate(boards, self.n, &mut self.answers)?;
        self.stats.estimate_time += t.elapsed();
        self.stats.calls += 1;
        self.stats.evaluated += count as u64;
        for i in 0..count {
            let h = self.answers[i];
            if h.is_nan() || h == f64::NEG_INFINITY {
                return Err(Error::BadOption(format!(
                    "the heuristic gave {h} for a board (row {i} of a batch of {count}): estimates must be numbers \
                     (+inf marks a dead end)"
                )));
            }
            let id = first + i;
            self.nodes[id].h = h;
            if h == f64::INFINITY {
                // a dead end: kept (so it is not made again) but never expanded
                self.stats.dead_ends += 1;
                continue;
            }
            let g = self.nodes[id].g;
            let key = self.key(g, h);
            self.open.push(Entry { key, g, id: id as u32 });
        }
        self.stats.search.peak_open = self.stats.search.peak_open.max(self.open.len() as u64);
        Ok(())
    }

    fn bytes(&self) -> u64 {
        (self.arena.capacity()
            + self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.slots.bytes()
            + self.open.capacity() * std::mem::size_of::<Entry>()
            + self.answers.capacity() * 8) as u64
    }

    fn check_limits(&mut self) -> Result<(), Error> {
        let generated = self.stats.search.generated;
        let bytes = self.bytes();
        self.stats.search.peak_bytes = self.stats.search.peak_bytes.max(bytes);
        let algorithm = self.options.name();
        let limit = |what: String| Error::SearchLimit { what, generated, bytes, algorithm };
        if let Some(watch) = &self.options.watch {
            watch.set_generated(generated);
            if watch.is_cancelled() {
                return Err(Error::Cancelled { generated });
            }
        }
        if let Some(m) = self.options.max_nodes.filter(|&m| generated > m) {
            return Err(limit(format!("the limit of {m} nodes")));
        }
        if let Some(m) = self.options.max_bytes.filter(|&m| bytes > m) {
            return Err(limit(format!("the memory limit of {m} bytes")));
        }
        Ok(())
    }

    fn run(&mut self, estimate: &mut dyn BatchEstimate) -> Result<Option<Vec<Dir>>, Error> {
        self.estimate_new(0, estimate)?;
        let mut batch: Vec<u32> = Vec::with_capacity(self.options.batch_size.min(1 << 20));
        loop {
            // the step's nodes: the best entries that are not stale (a node reached again more
            // cheaply left its older entry behind)
            batch.clear();
            while batch.len() < self.options.batch_size {
                let Some(e) = self.open.pop() else { break };
                if self.nodes[e.id as usize].g != e.g {
                    continue;
                }
                let node = self.nodes[e.id as usize];
                if node.hash == self.goal_hash && self.board(e.id) == self.goal.as_slice() {
                    self.stats.search.stored = self.nodes.len() as u64;
                    self.stats.search.peak_bytes = self.stats.search.peak_bytes.max(self.bytes());
                    return Ok(Some(self.path(e.id)));
                }
                batch.push(e.id);
            }
            if batch.is_empty() {
                // every board of the goal's parity class is reachable, so only dead ends (boards
                // estimated +inf, never expanded) can keep the goal from being found
                return Err(Error::DeadEnds {
                    algorithm: self.options.name(),
                    generated: self.stats.search.generated,
                    dead_ends: self.stats.dead_ends,
                });
            }
            self.stats.search.iterations += 1;
            let first = self.nodes.len();
            self.step_first = first;
            for &id in &batch {
                self.expand(id);
            }
            self.check_limits()?;
            self.estimate_new(first, estimate)?;
        }
    }

    /// Makes the children of `id` (but the move back), adding the new boards to the arena.
    fn expand(&mut self, id: u32) {
        self.stats.search.expanded += 1;
        let node = self.nodes[id as usize];
        let blank = node.blank as usize;
        let back = if node.dir == NO_DIR { None } else { Some(Dir::ALL[node.dir as usize].opposite()) };
        let g = node.g + 1;
        let greedy = matches!(self.options.order, BatchOrder::Greedy);
        for (d, &dir) in Dir::ALL.iter().enumerate() {
            if Some(dir) == back {
                continue;
            }
            let Some(to) = dir.step(self.shape, blank) else { continue };
            self.stats.search.generated += 1;
            let from = id as usize * self.n;
            let tile = self.arena[from + to] as usize;
            // the hash after the tile slides from `to` onto `blank`
            let hash = node.hash ^ key(tile, to) ^ key(tile, blank) ^ key(0, blank) ^ key(0, to);
            let (arena, n) = (&self.arena, self.n);
            let same = |other: u32| {
                let o = other as usize * n;
                let (a, b) = (&arena[o..o + n], &arena[from..from + n]);
                // the child is the parent with the blank and `tile` swapped
                (0..n).all(|i| {
                    let want = if i == blank {
                        tile as u8
                    } else if i == to {
                        0
                    } else {
                        b[i]
                    };
                    a[i] == want
                })
            };
            if let Some(seen) = self.slots.find(hash, same) {
                let old = &mut self.nodes[seen as usize];
                if g < old.g {
                    old.g = g;
                    old.parent = id;
                    old.dir = d as u8;
                    // already estimated unless it was made in this step (then it is estimated
                    // with the step's new boards and put on the open list then); a dead end
                    // stays off the open list, and greedy's order does not depend on g, so it
                    // keeps the shorter path without expanding the board again
                    let h = old.h;
                    if (seen as usize) < self.step_first && h != f64::INFINITY && !greedy {
                        let key = self.key(g, h);
                        self.open.push(Entry { key, g, id: seen });
                    }
                }
                continue;
            }
            let child = self.nodes.len() as u32;
            self.arena.extend_from_within(from..from + self.n);
            let at = child as usize * self.n;
            self.arena[at + blank] = tile as u8;
            self.arena[at + to] = 0;
            self.nodes.push(Node { hash, parent: id, g, h: 0.0, blank: to as u32, dir: d as u8 });
            let nodes = &self.nodes;
            self.slots.insert(hash, child, |i| nodes[i as usize].hash);
        }
    }

    /// The moves from the start to node `id`.
    fn path(&self, mut id: u32) -> Vec<Dir> {
        let mut moves = Vec::with_capacity(self.nodes[id as usize].g as usize);
        while self.nodes[id as usize].dir != NO_DIR {
            moves.push(Dir::ALL[self.nodes[id as usize].dir as usize]);
            id = self.nodes[id as usize].parent;
        }
        moves.reverse();
        moves
    }
}
