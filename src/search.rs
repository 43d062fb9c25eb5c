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
//! As in Russell & Norvig's experiment (seed 002): a node is *generated* when a successor board
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

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::{Duration, Instant};

use crate::board::{Board, Dir};
use crate::error::Error;
use crate::heuristic::{Estimator, Heuristic};
use crate::table::Table;

/// The search algorithm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Algorithm {
    /// A*: best-first on `g + h`; optimal with an admissible guide.
    AStar,
    /// Iterative-deepening A*: depth-first with a bound on `g + h`; optimal with an admissible
    /// guide, memory linear in the solution length.
    IdaStar,
    /// Breadth-first (uniform cost): A* with no estimate. Optimal; the guide is not used.
    Bfs,
    /// Greedy best-first: on `h` alone. Fast, not optimal.
    Greedy,
    /// Weighted A*: on `g + w·h`. With an admissible guide and `w >= 1`, the solution is at most
    /// `w` times the optimum.
    Weighted(f64),
}

impl Algorithm {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::AStar => "astar",
            Algorithm::IdaStar => "idastar",
            Algorithm::Bfs => "bfs",
            Algorithm::Greedy => "greedy",
            Algorithm::Weighted(_) => "weighted",
        }
    }

    /// Whether the algorithm's solution is optimal when its guide is admissible.
    pub fn is_optimal_with_admissible_guide(self) -> bool {
        matches!(self, Algorithm::AStar | Algorithm::IdaStar | Algorithm::Bfs)
            || matches!(self, Algorithm::Weighted(w) if w == 1.0)
    }
}

/// Exact distances to a goal, as a guide: a perfect table.
pub trait Exact {
    /// The goal the distances are measured to.
    fn goal(&self) -> &Board;

    /// The exact distance of the board whose cells, row-major, are `cells` (0 the blank), or
    /// `None` if it cannot reach the goal.
    ///
    /// # Errors
    /// [`Error::Corrupt`] when the table's entry is not a distance.
    fn exact(&self, cells: &[u8]) -> Result<Option<u32>, Error>;
}

impl<D: AsRef<[u8]>> Exact for Table<D> {
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
}

impl Guide<'_> {
    /// The name used on the command line: a heuristic's name, or `table`.
    pub fn name(&self) -> &'static str {
        match self {
            Guide::Heuristic(h) => h.name(),
            Guide::Table(_) => "table",
        }
    }

    /// Whether the guide never overestimates.
    pub fn is_admissible(&self) -> bool {
        match self {
            Guide::Heuristic(h) => h.is_admissible(),
            Guide::Table(_) => true,
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
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Give up ([`Error::SearchLimit`]) once this many nodes have been generated.
    pub max_nodes: Option<u64>,
    /// Give up ([`Error::SearchLimit`]) once the search's own data would take more bytes than
    /// this (boards, node records, hash table, open list; IDA* needs only its path).
    pub max_bytes: Option<u64>,
}

impl Default for Options {
    /// A*, no limits.
    fn default() -> Options {
        Options { algorithm: Algorithm::AStar, max_nodes: None, max_bytes: None }
    }
}

impl Options {
    /// Options for `algorithm` with no limits.
    pub fn new(algorithm: Algorithm) -> Options {
        Options { algorithm, ..Options::default() }
    }
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
}

/// Searches for a path from `start` to `goal`; `Ok(None)` if the board cannot reach the goal
/// (found by the parity rule, without searching).
///
/// # Errors
/// [`Error::ShapeMismatch`] when the two boards (or a table guide) have different shapes;
/// [`Error::BadGoal`] when a table guide is for another goal; [`Error::SearchLimit`] when a limit
/// of `options` is reached; [`Error::Corrupt`] from a table guide's bad entry.
pub fn solve(start: &Board, goal: &Board, guide: Guide<'_>, options: &Options) -> Result<Option<Found>, Error> {
    let began = Instant::now();
    if start.shape() != goal.shape() {
        return Err(Error::ShapeMismatch { board: start.shape(), table: goal.shape() });
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
        if !(w.is_finite() && (0.0..=1000.0).contains(&w)) {
            return Err(Error::BadOption(format!("weight {w} is out of range: give a number from 0 to 1000")));
        }
    }
    if !start.is_solvable_to(goal) {
        return Ok(None);
    }
    let found = if goal.cells().len() <= 256 {
        Space::<u8>::new(start, goal, guide, options).run()
    } else {
        Space::<u16>::new(start, goal, guide, options).run()
    };
    Ok(found?.map(|(moves, mut stats)| {
        stats.elapsed = began.elapsed();
        Found { moves, stats }
    }))
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

/// A tile as stored in the arena.
trait Tile: crate::heuristic::Tile + Eq + Default + std::fmt::Debug + 'static {
    fn of(t: u16) -> Self;

    #[inline]
    fn get(self) -> usize {
        self.into()
    }
}

impl Tile for u8 {
    #[inline]
    fn of(t: u16) -> u8 {
        t as u8
    }
}

impl Tile for u16 {
    #[inline]
    fn of(t: u16) -> u16 {
        t
    }
}

/// The Zobrist key of `tile` on `cell`: a mixed function of the pair (SplitMix64's finaliser).
#[inline]
fn key(tile: usize, cell: usize) -> u64 {
    let mut z = ((tile as u64) << 32 | cell as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The board, its goal and the guide, with the tables the moves and estimates use.
struct Space<'a, T: Tile> {
    shape: crate::board::Shape,
    n: usize,
    cols: usize,
    start: Vec<T>,
    start_blank: usize,
    goal: Vec<T>,
    /// The goal cell of every tile, and the heuristics.
    est: Estimator,
    /// Up to four (direction, cell) moves of the blank from each cell, in [`Dir::ALL`] order.
    nbr: Vec<([(Dir, u32); 4], u8)>,
    guide: Guide<'a>,
    options: Options,
    stats: Stats,
    /// A table guide's error met while estimating (see [`Space::estimate_after`]).
    fault: std::cell::Cell<Option<Error>>,
}

/// One node of the A* family.
#[derive(Clone, Copy)]
struct Node {
    hash: u64,
    parent: u32,
    g: u32,
    h: u32,
    blank: u32,
    /// The move from the parent (index in [`Dir::ALL`]), or 4 for the start.
    dir: u8,
    closed: bool,
}

const NO_DIR: u8 = 4;

impl<'a, T: Tile> Space<'a, T> {
    fn new(start: &Board, goal: &Board, guide: Guide<'a>, options: &Options) -> Space<'a, T> {
        let shape = start.shape();
        let (n, cols) = (shape.cells(), shape.cols());
        let nbr = (0..n)
            .map(|cell| {
                let mut moves = [(Dir::Up, 0u32); 4];
                let mut len = 0u8;
                for d in Dir::ALL {
                    if let Some(to) = d.step(shape, cell) {
                        moves[len as usize] = (d, to as u32);
                        len += 1;
                    }
                }
                (moves, len)
            })
            .collect();
        Space {
            shape,
            n,
            cols,
            start: start.cells().iter().map(|&t| T::of(t)).collect(),
            start_blank: start.blank(),
            goal: goal.cells().iter().map(|&t| T::of(t)).collect(),
            est: Estimator::new(goal),
            nbr,
            guide,
            options: *options,
            stats: Stats { iterations: 1, ..Stats::default() },
            fault: std::cell::Cell::new(None),
        }
    }

    fn run(mut self) -> Result<Option<(Vec<Dir>, Stats)>, Error> {
        let moves = match self.options.algorithm {
            Algorithm::IdaStar => self.idastar()?,
            _ => self.best_first()?,
        };
        Ok(moves.map(|m| (m, self.stats)))
    }

    /// Whether `h` is identically zero (breadth-first).
    fn blind(&self) -> bool {
        self.options.algorithm == Algorithm::Bfs
    }

    /// The guide's estimate of `cells`, from scratch.
    fn estimate(&self, cells: &[T]) -> Result<u32, Error> {
        if self.blind() {
            return Ok(0);
        }
        match self.guide {
            Guide::Heuristic(h) => Ok(self.est.estimate(h, cells)),
            Guide::Table(t) => {
                let mut small = [0u8; 16];
                let Some(buf) = small.get_mut(..cells.len()) else {
                    return Err(Error::BadGoal("a table guide needs a board of at most 12 cells".into()));
                };
                for (b, &c) in buf.iter_mut().zip(cells) {
                    *b = c.get() as u8;
                }
                t.exact(buf)?
                    .ok_or_else(|| Error::BadGoal("the table has no entry for a board the search reached".into()))
            }
        }
    }

    /// The Manhattan distance `h` after `tile` slides from `to` onto `blank`.
    #[inline]
    fn manhattan_after(&self, h: u32, tile: usize, blank: usize, to: usize) -> u32 {
        let tile = tile as u16;
        h + self.est.cell_distance(tile, blank) - self.est.cell_distance(tile, to)
    }

    /// The estimate after the tile on `to` slides onto the blank at `blank`, from the estimate
    /// `h` before. `cells` is the board before the move; it is the same again on return. A table
    /// guide's error is left in `fault` (and 0 returned); the searches check it per expansion.
    #[inline]
    fn estimate_after(&self, cells: &mut [T], blank: usize, to: usize, h: u32) -> u32 {
        let tile = cells[to].get();
        match self.guide {
            _ if self.blind() => 0,
            Guide::Heuristic(Heuristic::Hamming) => {
                let was = (cells[to] == self.goal[to]) as u32;
                let now = (cells[to] == self.goal[blank]) as u32;
                h + was - now
            }
            Guide::Heuristic(Heuristic::Manhattan) => self.manhattan_after(h, tile, blank, to),
            Guide::Heuristic(Heuristic::LinearConflict) => {
                // A vertical move takes the tile from one row to another and keeps every column's
                // order; a horizontal one likewise for columns. Only a line the tile belongs to in
                // the goal counts it, so at most one line (the one it leaves or the one it
                // enters, whichever is its goal line) changes its conflicts.
                let manhattan = self.manhattan_after(h, tile, blank, to);
                let (goal_row, goal_col) = self.est.goal_of(tile as u16);
                let (line, vertical) = if blank / self.cols != to / self.cols {
                    if goal_row != blank / self.cols && goal_row != to / self.cols {
                        return manhattan;
                    }
                    (goal_row, true)
                } else {
                    if goal_col != blank % self.cols && goal_col != to % self.cols {
                        return manhattan;
                    }
                    (goal_col, false)
                };
                let conflict = |cells: &[T]| {
                    if vertical {
                        self.est.row_conflict(cells, line)
                    } else {
                        self.est.col_conflict(cells, line)
                    }
                };
                let before = conflict(cells);
                cells.swap(blank, to);
                let after = conflict(cells);
                cells.swap(blank, to);
                manhattan + after - before
            }
            _ => {
                // Nilsson's and the table's: from scratch. A table error is kept for the caller
                // ([`Space::fault`]), so the hot path returns a plain number.
                cells.swap(blank, to);
                let e = self.estimate(cells).unwrap_or_else(|e| {
                    self.fault.set(Some(e));
                    0
                });
                cells.swap(blank, to);
                e
            }
        }
    }

    fn over_nodes(&self) -> bool {
        self.options.max_nodes.is_some_and(|m| self.stats.generated > m)
    }

    fn limit_error(&self, what: String) -> Error {
        Error::SearchLimit {
            what,
            generated: self.stats.generated,
            bytes: self.stats.peak_bytes,
            algorithm: self.options.algorithm.name(),
        }
    }

    // ---- A*, breadth-first, greedy, weighted -------------------------------------------------

    fn best_first(&mut self) -> Result<Option<Vec<Dir>>, Error> {
        // a board of more than 256 cells takes 2 bytes a cell: keep only its changes from the start
        if self.n > 256 {
            self.best_first_in::<Sparse>()
        } else {
            self.best_first_in::<Dense<T>>()
        }
    }

    /// A*, breadth-first, greedy or weighted A*, with the boards kept in a store of kind `S`.
    fn best_first_in<S: Store<T>>(&mut self) -> Result<Option<Vec<Dir>>, Error> {
        let consistent_astar = matches!(self.options.algorithm, Algorithm::AStar | Algorithm::Bfs)
            && (self.blind() || self.guide.is_consistent());
        let mut open = if consistent_astar { Open::buckets() } else { Open::heap() };
        let mut arena = S::new(&self.start);
        let mut nodes: Vec<Node> = Vec::with_capacity(1024);
        let mut table = HashSlots::new();

        let mut scratch = self.start.clone();
        let h0 = self.estimate(&scratch)?;
        let hash0 = scratch.iter().enumerate().fold(0u64, |z, (cell, t)| z ^ key(t.get(), cell));
        arena.add_start();
        nodes.push(Node {
            hash: hash0,
            parent: 0,
            g: 0,
            h: h0,
            blank: self.start_blank as u32,
            dir: NO_DIR,
            closed: false,
        });
        table.insert(hash0, 0, &nodes);
        open.push(self.priority(0, h0), 0, 0);
        self.stats.generated = 1;
        self.stats.peak_open = 1;
        let held = |arena: &S, nodes: &Vec<Node>, table: &HashSlots, open: &Open| {
            (arena.bytes() + nodes.capacity() * std::mem::size_of::<Node>() + table.bytes() + open.bytes()) as u64
        };
        self.stats.peak_bytes = held(&arena, &nodes, &table, &open);

        while let Some((g, id)) = open.pop() {
            let node = nodes[id as usize];
            if node.closed || node.g != g {
                continue; // expanded already, or reached more cheaply since this entry was made
            }
            arena.load(id, &mut scratch);
            if (node.h == 0 || self.blind()) && scratch == self.goal {
                self.stats.stored = nodes.len() as u64;
                return Ok(Some(path(&nodes, id)));
            }
            nodes[id as usize].closed = true;
            self.stats.expanded += 1;
            let blank = node.blank as usize;
            let (moves, len) = self.nbr[blank];
            // The probes of the hash table miss the cache; start every child's at once.
            for &(_, to) in &moves[..len as usize] {
                let tile = scratch[to as usize].get();
                let to = to as usize;
                table.prefetch(node.hash ^ key(tile, to) ^ key(tile, blank) ^ key(0, blank) ^ key(0, to));
            }
            for &(dir, to) in &moves[..len as usize] {
                if node.dir != NO_DIR && dir == Dir::ALL[node.dir as usize].opposite() {
                    continue;
                }
                let to = to as usize;
                self.stats.generated += 1;
                let tile = scratch[to].get();
                let hash = node.hash ^ key(tile, to) ^ key(tile, blank) ^ key(0, blank) ^ key(0, to);
                let h = self.estimate_after(&mut scratch, blank, to, node.h);
                let ng = g + 1;
                scratch.swap(blank, to);
                let changes = arena.changes_after(id, &self.start, &scratch, blank, to);
                let existing = table.find(hash, |i| arena.holds(i, &scratch, changes));
                match existing {
                    Some(i) if nodes[i as usize].g <= ng => {}
                    Some(i) => {
                        // a cheaper path to a board seen before (inconsistent guides only)
                        let e = &mut nodes[i as usize];
                        e.g = ng;
                        e.parent = id;
                        e.dir = dir as u8;
                        e.closed = false;
                        open.push(self.priority(ng, e.h), ng, i);
                    }
                    None => {
                        let i = nodes.len() as u32;
                        arena.add(id, &self.start, &scratch, blank, to);
                        nodes.push(Node {
                            hash,
                            parent: id,
                            g: ng,
                            h,
                            blank: to as u32,
                            dir: dir as u8,
                            closed: false,
                        });
                        table.insert(hash, i, &nodes);
                        open.push(self.priority(ng, h), ng, i);
                    }
                }
                scratch.swap(blank, to);
            }
            if let Some(e) = self.fault.take() {
                return Err(e);
            }
            self.stats.peak_open = self.stats.peak_open.max(open.len());
            let bytes = held(&arena, &nodes, &table, &open);
            self.stats.peak_bytes = self.stats.peak_bytes.max(bytes);
            if self.options.max_bytes.is_some_and(|m| bytes > m) {
                return Err(
                    self.limit_error(format!("the memory limit of {} bytes", self.options.max_bytes.unwrap_or(0)))
                );
            }
            if self.over_nodes() {
                return Err(self.limit_error(format!("the limit of {} nodes", self.options.max_nodes.unwrap_or(0))));
            }
            // node ids are 32 bits (and the hash slots keep id + 1)
            if nodes.len() >= (u32::MAX - 4) as usize {
                return Err(self.limit_error("the most boards one search can hold (2^32 - 5)".into()));
            }
        }
        // the parity rule said the goal is reachable, and every reachable board was taken off
        // the open list: this cannot happen
        self.stats.stored = nodes.len() as u64;
        Ok(None)
    }

    /// The open-list key of a node: smaller is taken first.
    fn priority(&self, g: u32, h: u32) -> u64 {
        match self.options.algorithm {
            Algorithm::AStar | Algorithm::IdaStar => (g + h) as u64,
            Algorithm::Bfs => g as u64,
            Algorithm::Greedy => h as u64,
            // fixed point, so ties between g + w·h values are exact for weights with three decimals
            Algorithm::Weighted(w) => g as u64 * 1000 + (w * 1000.0).round() as u64 * h as u64,
        }
    }

    // ---- IDA* --------------------------------------------------------------------------------

    fn idastar(&mut self) -> Result<Option<Vec<Dir>>, Error> {
        let mut cells = self.start.clone();
        let mut blank = self.start_blank;
        let h0 = self.estimate(&cells)?;
        self.stats.generated = 1;
        self.stats.iterations = 0;
        if h0 == 0 && cells == self.goal {
            return Ok(Some(Vec::new()));
        }
        let mut bound = h0;
        // per depth: the estimate there and the next neighbour to try
        struct Frame {
            h: u32,
            next: u8,
        }
        let mut frames: Vec<Frame> = Vec::new();
        let mut path: Vec<Dir> = Vec::new();
        loop {
            self.stats.iterations += 1;
            let mut least = u32::MAX;
            frames.clear();
            frames.push(Frame { h: h0, next: 0 });
            self.stats.expanded += 1;
            while let Some(top) = frames.last_mut() {
                let (moves, len) = self.nbr[blank];
                if top.next >= len {
                    frames.pop();
                    if let Some(dir) = path.pop() {
                        // undo: the blank steps back the way it came
                        if let Some(back) = dir.opposite().step(self.shape, blank) {
                            cells.swap(blank, back);
                            blank = back;
                        }
                    }
                    continue;
                }
                let (dir, to) = moves[top.next as usize];
                top.next += 1;
                let h = top.h;
                if path.last().is_some_and(|&last| last.opposite() == dir) {
                    continue;
                }
                let to = to as usize;
                self.stats.generated += 1;
                let nh = self.estimate_after(&mut cells, blank, to, h);
                if let Some(e) = self.fault.take() {
                    return Err(e);
                }
                let f = path.len() as u32 + 1 + nh;
                if f > bound {
                    least = least.min(f);
                    continue;
                }
                cells.swap(blank, to);
                blank = to;
                path.push(dir);
                self.stats.peak_open = self.stats.peak_open.max(path.len() as u64);
                if nh == 0 && cells == self.goal {
                    self.stats.stored = self.stats.peak_open;
                    self.stats.peak_bytes = (path.capacity() * std::mem::size_of::<Dir>()
                        + frames.capacity() * std::mem::size_of::<Frame>()
                        + cells.capacity() * std::mem::size_of::<T>())
                        as u64;
                    return Ok(Some(path));
                }
                self.stats.expanded += 1;
                frames.push(Frame { h: nh, next: 0 });
                if self.over_nodes() {
                    return Err(self.limit_error(format!("the limit of {} nodes", self.options.max_nodes.unwrap_or(0))));
                }
            }
            if least == u32::MAX {
                return Ok(None); // every branch ended: cannot happen for a solvable board
            }
            bound = least;
        }
    }
}

/// Where the A* family keeps its boards, one per node, in node order.
trait Store<T: Tile> {
    /// An empty store for searches from `start`.
    fn new(start: &[T]) -> Self;
    /// Adds the start board (node 0).
    fn add_start(&mut self);
    /// Adds `cells`, which is node `parent`'s board after the tile on `to` slid onto `blank`.
    fn add(&mut self, parent: u32, start: &[T], cells: &[T], blank: usize, to: usize);
    /// Writes node `id`'s board into `scratch`, which holds whatever the last `load` left.
    fn load(&mut self, id: u32, scratch: &mut [T]);
    /// What [`Store::holds`] needs to know of `cells`, node `parent`'s board after that move.
    fn changes_after(&self, parent: u32, start: &[T], cells: &[T], blank: usize, to: usize) -> usize;
    /// Whether node `id`'s board is `cells` (`changes` from [`Store::changes_after`]).
    fn holds(&self, id: u32, cells: &[T], changes: usize) -> bool;
    /// The bytes it holds (its capacities).
    fn bytes(&self) -> usize;
}

/// Every board whole, one after another.
struct Dense<T> {
    n: usize,
    start: Vec<T>,
    cells: Vec<T>,
}

impl<T: Tile> Store<T> for Dense<T> {
    fn new(start: &[T]) -> Self {
        Dense { n: start.len(), start: start.to_vec(), cells: Vec::with_capacity(start.len() * 1024) }
    }

    fn add_start(&mut self) {
        self.cells.extend_from_slice(&self.start);
    }

    #[inline]
    fn add(&mut self, _: u32, _: &[T], cells: &[T], _: usize, _: usize) {
        self.cells.extend_from_slice(cells);
    }

    #[inline]
    fn load(&mut self, id: u32, scratch: &mut [T]) {
        let at = id as usize * self.n;
        scratch.copy_from_slice(&self.cells[at..at + self.n]);
    }

    #[inline]
    fn changes_after(&self, _: u32, _: &[T], _: &[T], _: usize, _: usize) -> usize {
        0
    }

    #[inline]
    fn holds(&self, id: u32, cells: &[T], _: usize) -> bool {
        let at = id as usize * self.n;
        self.cells[at..at + self.n] == *cells
    }

    fn bytes(&self) -> usize {
        self.cells.capacity() * std::mem::size_of::<T>()
    }
}

/// Each board as the cells where it differs from the start, `cell << 16 | tile`: a search of `d`
/// moves changes at most `d + 1` cells, so a node of a 127x127 board takes bytes, not 32 KiB.
struct Sparse {
    start: Vec<u16>,
    /// The changes of every node, one run after another.
    changes: Vec<u32>,
    /// Where each node's run starts; it ends where the next one starts.
    runs: Vec<u64>,
    /// The node whose changes `scratch` holds after the last `load`.
    loaded: Option<u32>,
}

impl Sparse {
    fn run(&self, id: u32) -> &[u32] {
        let from = self.runs[id as usize] as usize;
        let to = self.runs.get(id as usize + 1).map_or(self.changes.len(), |&e| e as usize);
        &self.changes[from..to]
    }
}

impl<T: Tile> Store<T> for Sparse {
    fn new(start: &[T]) -> Self {
        Sparse {
            start: start.iter().map(|t| t.get() as u16).collect(),
            changes: Vec::with_capacity(1 << 14),
            runs: Vec::with_capacity(1024),
            loaded: None,
        }
    }

    fn add_start(&mut self) {
        self.runs.push(0);
    }

    fn add(&mut self, parent: u32, _: &[T], cells: &[T], blank: usize, to: usize) {
        let from = self.runs[parent as usize] as usize;
        let end = self.runs.get(parent as usize + 1).map_or(self.changes.len(), |&e| e as usize);
        self.runs.push(self.changes.len() as u64);
        // the parent's changes but those of the two cells the move touched, then theirs anew
        for k in from..end {
            let c = self.changes[k];
            let cell = (c >> 16) as usize;
            if cell != blank && cell != to {
                self.changes.push(c);
            }
        }
        for cell in [blank, to] {
            let tile = cells[cell].get() as u16;
            if tile != self.start[cell] {
                self.changes.push((cell as u32) << 16 | tile as u32);
            }
        }
    }

    fn load(&mut self, id: u32, scratch: &mut [T]) {
        if let Some(old) = self.loaded {
            for &c in self.run(old) {
                let cell = (c >> 16) as usize;
                scratch[cell] = T::of(self.start[cell]);
            }
        } else {
            for (s, &t) in scratch.iter_mut().zip(&self.start) {
                *s = T::of(t);
            }
        }
        for &c in self.run(id) {
            scratch[(c >> 16) as usize] = T::of(c as u16);
        }
        self.loaded = Some(id);
    }

    fn changes_after(&self, parent: u32, _: &[T], cells: &[T], blank: usize, to: usize) -> usize {
        // the parent's board had these two cells the other way round
        let was = |cell: usize, other: usize| (cells[other].get() as u16 != self.start[cell]) as usize;
        let now = |cell: usize| (cells[cell].get() as u16 != self.start[cell]) as usize;
        self.run(parent).len() + now(blank) + now(to) - was(blank, to) - was(to, blank)
    }

    fn holds(&self, id: u32, cells: &[T], changes: usize) -> bool {
        let run = self.run(id);
        run.len() == changes && run.iter().all(|&c| cells[(c >> 16) as usize].get() as u32 == c & 0xFFFF)
    }

    fn bytes(&self) -> usize {
        self.changes.capacity() * 4 + self.runs.capacity() * 8 + self.start.capacity() * 2
    }
}

/// The moves from the start to node `id`.
fn path(nodes: &[Node], mut id: u32) -> Vec<Dir> {
    let mut moves = Vec::with_capacity(nodes[id as usize].g as usize);
    while nodes[id as usize].dir != NO_DIR {
        moves.push(Dir::ALL[nodes[id as usize].dir as usize]);
        id = nodes[id as usize].parent;
    }
    moves.reverse();
    moves
}

/// Open addressing over node ids, keyed by their Zobrist hash. A slot holds the hash's high 32
/// bits beside the id, so a probe rejects most other boards without touching their node.
struct HashSlots {
    /// `(hash >> 32) << 32 | (id + 1)`, or 0 for an empty slot.
    slots: Vec<u64>,
    len: usize,
}

impl HashSlots {
    fn new() -> HashSlots {
        HashSlots { slots: vec![0; 1 << 12], len: 0 }
    }

    fn bytes(&self) -> usize {
        self.slots.capacity() * 8
    }

    /// Asks the processor to start loading the slot a probe for `hash` reads first.
    #[inline]
    fn prefetch(&self, hash: u64) {
        let at = hash as usize & (self.slots.len() - 1);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint: it never faults and changes no memory, and SSE is part
        // of every x86_64 processor. The pointer is in bounds anyway (`at` is masked).
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(self.slots.as_ptr().add(at) as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = at;
    }

    #[inline]
    fn slot(hash: u64, id: u32) -> u64 {
        (hash & !0xFFFF_FFFF) | (id as u64 + 1)
    }

    /// The node with this hash whose board `same` accepts.
    #[inline]
    fn find(&self, hash: u64, same: impl Fn(u32) -> bool) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut at = hash as usize & mask;
        loop {
            match self.slots[at] {
                0 => return None,
                s => {
                    let id = (s & 0xFFFF_FFFF) as u32 - 1;
                    if s >> 32 == hash >> 32 && same(id) {
                        return Some(id);
                    }
                }
            }
            at = (at + 1) & mask;
        }
    }

    fn insert(&mut self, hash: u64, id: u32, nodes: &[Node]) {
        if (self.len + 1) * 2 > self.slots.len() {
            let mut bigger = vec![0u64; self.slots.len() * 2];
            let mask = bigger.len() - 1;
            for &s in self.slots.iter().filter(|&&s| s != 0) {
                let mut at = nodes[(s & 0xFFFF_FFFF) as usize - 1].hash as usize & mask;
                while bigger[at] != 0 {
                    at = (at + 1) & mask;
                }
                bigger[at] = s;
            }
            self.slots = bigger;
        }
        let mask = self.slots.len() - 1;
        let mut at = hash as usize & mask;
        while self.slots[at] != 0 {
            at = (at + 1) & mask;
        }
        self.slots[at] = HashSlots::slot(hash, id);
        self.len += 1;
    }
}

/// The open list: entries `(g, node)` by a key, smallest first, deepest (largest `g`) among equals.
enum Open {
    /// `buckets[key - base].stacks[g]`: stacks of nodes; for keys that never go below the first
    /// one. Emptied stacks keep their memory for the next pushes.
    Buckets { buckets: Vec<Bucket>, base: u64, lowest: usize, len: u64, bytes: usize },
    /// A binary heap, for any keys.
    Heap(BinaryHeap<Reverse<(u64, Reverse<u32>, u32)>>),
}

/// The entries of one key, a stack for each `g`.
#[derive(Default)]
struct Bucket {
    stacks: Vec<Vec<u32>>,
    /// No stack at or above this `g` holds an entry.
    top: usize,
}

impl Open {
    fn buckets() -> Open {
        Open::Buckets { buckets: Vec::new(), base: u64::MAX, lowest: 0, len: 0, bytes: 0 }
    }

    fn heap() -> Open {
        Open::Heap(BinaryHeap::new())
    }

    fn len(&self) -> u64 {
        match self {
            Open::Buckets { len, .. } => *len,
            Open::Heap(h) => h.len() as u64,
        }
    }

    fn bytes(&self) -> usize {
        match self {
            Open::Buckets { bytes, buckets, .. } => *bytes + buckets.capacity() * 24,
            Open::Heap(h) => h.capacity() * 16,
        }
    }

    #[inline]
    fn push(&mut self, key: u64, g: u32, id: u32) {
        match self {
            Open::Heap(h) => h.push(Reverse((key, Reverse(g), id))),
            Open::Buckets { buckets, base, lowest, len, bytes } => {
                if *base == u64::MAX {
                    *base = key;
                }
                // a consistent guide never makes a key below the start's
                let k = key.saturating_sub(*base) as usize;
                if k >= buckets.len() {
                    buckets.resize_with(k + 1, Bucket::default);
                }
                let bucket = &mut buckets[k];
                let g = g as usize;
                if g >= bucket.stacks.len() {
                    *bytes += (g + 1 - bucket.stacks.len()) * 24;
                    bucket.stacks.resize_with(g + 1, Vec::new);
                }
                let stack = &mut bucket.stacks[g];
                if stack.len() == stack.capacity() {
                    *bytes += stack.capacity().max(4) * 4;
                }
                stack.push(id);
                bucket.top = bucket.top.max(g + 1);
                *lowest = (*lowest).min(k);
                *len += 1;
            }
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<(u32, u32)> {
        match self {
            Open::Heap(h) => h.pop().map(|Reverse((_, Reverse(g), id))| (g, id)),
            Open::Buckets { buckets, lowest, len, .. } => {
                while *lowest < buckets.len() {
                    let bucket = &mut buckets[*lowest];
                    while bucket.top > 0 {
                        if let Some(id) = bucket.stacks[bucket.top - 1].pop() {
                            *len -= 1;
                            return Some((bucket.top as u32 - 1, id));
                        }
                        bucket.top -= 1;
                    }
                    *lowest += 1;
                }
                None
            }
        }
    }
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

    /// The boards' changes from the start, as large boards keep them, against the whole boards:
    /// the same search, node for node, on every depth of the 3x3 table.
    #[test]
    fn sparse_boards_search_exactly_as_whole_ones() {
        let goal = crate::Goal::BlankLast.board(crate::Shape::EIGHT).unwrap();
        let table = crate::build(&goal, |_| {}).unwrap();
        let mut by_depth = vec![None; 32];
        for i in (0..table.index().len()).step_by(7) {
            by_depth[table.payload()[i as usize] as usize].get_or_insert(i);
        }
        for i in by_depth.into_iter().flatten() {
            let start = table.index().board(i);
            let d = table.payload()[i as usize] as usize;
            for (algorithm, h) in [
                (Algorithm::AStar, Heuristic::LinearConflict),
                (Algorithm::AStar, Heuristic::Hamming),
                (Algorithm::Greedy, Heuristic::Manhattan),
                (Algorithm::Weighted(2.5), Heuristic::Nilsson),
            ] {
                // a limit, so a store that lost track of its boards fails instead of filling memory
                let options = Options { max_bytes: Some(256 << 20), ..Options::new(algorithm) };
                let mut dense = Space::<u8>::new(&start, &goal, Guide::Heuristic(h), &options);
                let mut sparse = Space::<u8>::new(&start, &goal, Guide::Heuristic(h), &options);
                let a = dense.best_first_in::<Dense<u8>>().unwrap().unwrap();
                let b = sparse.best_first_in::<Sparse>().unwrap().unwrap();
                assert_eq!(a, b, "{start} {}", algorithm.name());
                assert_eq!(dense.stats.generated, sparse.stats.generated);
                assert_eq!(dense.stats.expanded, sparse.stats.expanded);
                if algorithm == Algorithm::AStar {
                    assert_eq!(a.len(), d);
                }
            }
        }
    }

    #[test]
    fn zobrist_keys_differ() {
        let mut seen = std::collections::HashSet::new();
        for t in 0..64 {
            for c in 0..64 {
                assert!(seen.insert(key(t, c)));
            }
        }
    }
}
