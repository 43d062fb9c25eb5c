//! IDA* guided by additive pattern databases, the fast path behind [`super::solve`] when the
//! guide is a [`PatternSet`] and the algorithm IDA*.
//!
//! Each group's table is looked up through *views*: the group on the board, and with the
//! reflected lookup the group on the board reflected about the diagonal. A view keeps its tiles'
//! cells in the group's rank order, so a move (which moves one tile) changes only the views that
//! tile is in: one lookup for a single partition, one more in the reflection. A catalogue of
//! several partitions keeps one sum per partition (and orientation), each view a term of every
//! sum whose partition holds its group, and estimates the largest sum; a move then looks up each
//! distinct group holding the tile once (2 to 5 groups of `small-t` on the 24-puzzle, twice with
//! the reflection), not once per partition. The children of a node have all their slots computed
//! and prefetched before any entry is read, so the table misses overlap. When every table is
//! zero-aware, a child's entries are read lazily: as soon as one of its sums passes the bound it
//! is cut off unread (every sum then changes by exactly one a move, so the partial estimate has
//! the full one's parity and the next bound is unchanged). Nothing is allocated in the search.
//!
//! Nodes are counted as in [`super`]: the start is generated; every child is generated when it is
//! examined, whether or not the bound then prunes it, so the siblings after a solution are not;
//! the move back to the parent is never made; every iteration counts again. With
//! [`ChildOrder::Fixed`] the children are tried in the order up, left, right, down (the blank's
//! moves), and the counts are those of Korf & Felner's published runs: on the 24-puzzle with the
//! 6-6-6-6 tables and the reflected lookup, instance 40 generates 65,099,578 nodes there and
//! 65,099,579 here (the start is counted here).
//! [`ChildOrder::ByEstimate`] (the default) tries the children with the lowest estimate first
//! (ties: the lower total of all the sums), which in the last iteration
//! usually meets the solution sooner.
//!
//! An iteration after one of [`SPLIT_AFTER`] nodes or more first runs the search itself down to
//! a depth with [`FRONTIER`] nodes (its *frontier*), keeping them, and then searches their
//! subtrees one at a time: with [`ChildOrder::ByEstimate`], those nearest the goal by their
//! estimate first (then by the lower total of the sums; Bu & Korf's order for A*+IDA*'s
//! frontier, here on IDA*'s own), so that the last iteration meets a solution sooner than in the
//! search's own order (on 8 moderate DeepCubeA boards, 2 threads, 172 s became 85 to 88 s); with
//! [`ChildOrder::Fixed`], in the search's own order, so the counts stay the published ones.
//! The threads take the subtrees in that order. A solution met in a subtree stops the subtrees
//! after it, while the ones before it run to their end: the solution and the counts are those
//! of the same search on one thread, whatever the schedule and the number of threads.
//! A*+IDA*'s workers take its frontier boards in order under the same rule.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::checkpoint::{fnv, Held, Saved, FNV_START};
use super::{ChildOrder, Options, Stats, Watch};
use crate::error::Error;
use crate::heuristic::pdb::{GroupTable, PatternSet, MAX_PARTS};
use crate::index::pattern::MAX_GROUP;
use crate::index::zero::ZeroIndex;
use crate::memory::prefetch;
use crate::puzzle::board::{Board, Dir};
use crate::search::prune::{MovePruner, FORBIDDEN};
use crate::table::pattern::{zero_bit, zero_bit_step};

/// The most cells of a board this search handles (cells are `u8`, tiles are `u8`).
const MAX_CELLS: usize = 64;

/// The most views a tile moves in (distinct groups holding it, on the board and its reflection):
/// 8 in `small-t`, 12 in `improved-t`.
const MAX_TILE_VIEWS: usize = 16;

/// The most sums: every partition's, on the board and on its reflection.
const MAX_SUMS: usize = 2 * MAX_PARTS;

/// How many subtrees an iteration is cut into, at least (the frontier is a depth with that many
/// nodes), whatever the number of threads: small pieces even out the threads' work, and the
/// more there are, the better their order by estimate finds the solution of the last iteration.
/// On the 80 DeepCubeA 24-puzzle boards their solver took the least time on, with the frontier
/// by estimate: 2,048 subtrees generated 335 M nodes, 8,192 292 M, 32,768 276 M but took longer
/// (the search above the frontier made again at each depth tried). On 8 moderate boards (2
/// threads), 8,192 took 85.1 s, 16,384 90.6 s and 32,768 96.5 s.
const FRONTIER: usize = 8192;

/// An iteration is cut at a frontier only when the one before it generated at least this many
/// nodes: below it, the frontier's own cost is not worth it (and the iteration is too short to
/// be worth a second thread). It depends only on the search, so the counts do not depend on the
/// threads.
const SPLIT_AFTER: u64 = 16 * FRONTIER as u64;

/// The deepest frontier tried.
const FRONTIER_DEPTH: u32 = 24;

/// How often (in generated nodes) a worker looks at the stop flag and the node limit.
const CHECK_EVERY: u64 = 1 << 16;

/// One group's table and rank weights, copied into fixed arrays.
#[derive(Clone, Copy)]
struct Group<'a> {
    k: usize,
    weights: [u64; MAX_GROUP],
    entries: &'a [u8],
    /// A zero-aware table's index (entries per blank region), and whether its entries are bits
    /// read against the parent's value.
    zero: Option<&'a ZeroIndex>,
    bits: bool,
}

impl Group<'_> {
    /// The entry at `slot`, for a node whose parent's entry is `parent`.
    #[inline(always)]
    fn read(&self, slot: usize, parent: u32) -> u32 {
        if self.bits {
            zero_bit_step(parent, zero_bit(self.entries, slot as u64))
        } else {
            self.entries[slot] as u32
        }
    }

    #[inline(always)]
    fn prefetch(&self, slot: usize) {
        if self.bits {
            prefetch(&self.entries[slot >> 3]);
        } else {
            prefetch(&self.entries[slot]);
        }
    }

    #[inline(always)]
    fn rank(&self, cells: &[u8; MAX_GROUP]) -> usize {
        let mut used = 0u64;
        let mut rank = 0u64;
        for (i, &c) in cells.iter().enumerate().take(self.k) {
            let below = (used & ((1u64 << c) - 1)).count_ones() as u64;
            used |= 1u64 << c;
            rank += (c as u64 - below) * self.weights[i];
        }
        rank as usize
    }
}

/// What every searcher shares: the board's geometry, the tables, the goal.
struct Shared<'a> {
    n: usize,
    /// Up to four moves of the blank from each cell: (direction index, cell).
    nbr: Vec<([(u8, u8); 4], u8)>,
    /// Which move strings are never made (at least the move straight back).
    fsm: &'a MovePruner,
    /// Each view's group's table and weights.
    groups: Vec<Group<'a>>,
    /// Each group's table, for the start's absolute values.
    tables: Vec<&'a GroupTable>,
    /// The lookups: view `v` is group `v % groups` on the board (`v < groups`) or on its
    /// reflection.
    views: usize,
    /// `view_sums[v]`: the sums (bits) that view `v` is a term of; sum `o * parts + p` is
    /// partition `p`'s on the board (`o` = 0) or on its reflection (`o` = 1).
    view_sums: Vec<u32>,
    sums: usize,
    /// `tile_views[t]`: the views tile `t` moves in, with its slot in each.
    tile_views: Vec<([(u8, u8); MAX_TILE_VIEWS], u8)>,
    /// Evaluate a child's views only until one of its sums exceeds the bound (every table
    /// zero-aware, so every sum changes by exactly one a move and a partial estimate has the
    /// parity of the full one).
    lazy: bool,
    /// `maps[v][c]`: the cell of view `v`'s table frame that board cell `c` maps to (through
    /// the transpose for a reflected view, and a symmetry for a group served by another's
    /// table).
    maps: Vec<[u8; MAX_CELLS]>,
    goal: [u8; MAX_CELLS],
    max_nodes: Option<u64>,
    /// When [`Options::time_limit`] runs out.
    deadline: Option<Instant>,
    /// Try a node's children in order of their estimate (else up, left, right, down).
    sort: bool,
    /// Nodes generated by every worker before its current batch (for the limit).
    generated: AtomicU64,
    stop: AtomicBool,
    /// The earliest piece of the iteration (in the order a search on one thread takes them)
    /// where a worker has met the goal, or `usize::MAX`: the pieces after it stop, the pieces
    /// before it run to their end, so the counts and the solution are one thread's.
    first_found: AtomicUsize,
    watch: Option<&'a Watch>,
    /// [`FRONTIER`] and [`SPLIT_AFTER`] (smaller in the tests, so that small boards are split).
    frontier: usize,
    split_after: u64,
    /// A*+IDA*'s stored boards, once A* is over: the searches below its frontier drop the
    /// boards it holds at no greater cost.
    known: OnceLock<Known>,
    /// [`KNOWN_DEPTH`] (0 in a test, to compare).
    known_depth: u32,
}

/// The boards A* stored, read by the IDA* searches below its frontier.
struct Known {
    keys: Vec<u128>,
    seen: Seen,
    stored: Vec<Stored>,
}

impl Known {
    /// Whether a board with packed cells `key` reached at cost `g` below a frontier board is
    /// one that A* holds at a cost no greater: such a board is dropped, and the search stays
    /// optimal. Take a shortest path and its last board that A* holds at its shortest cost: it
    /// is open (a closed board's children are all held at no greater cost), so a frontier board
    /// within the last bound, and the search below it follows an equally short path (the
    /// move-pruning machine's choice among equivalent strings), on which no board is dropped:
    /// a dropped one would be held at its shortest cost further along. Below the last bound, the
    /// same path gives the next bound, at most the solution's length: the frontier board is above
    /// the bound, or the path has a child cut by it.
    #[inline]
    fn holds(&self, key: u128, g: u32) -> bool {
        match self.seen.find(key, |j| self.keys[j as usize]).1 {
            Some(j) => (self.stored[j as usize].g as u32) <= g,
            None => false,
        }
    }
}

impl Shared<'_> {
    /// View `v`'s image of `cell`.
    #[inline(always)]
    fn map(&self, v: usize, cell: u8) -> u8 {
        self.maps[v][cell as usize]
    }

    /// The nodes a worker may generate before it next looks at the limits: [`CHECK_EVERY`], or a
    /// sixteenth of what the node limit leaves, so that a few workers together stop near it.
    fn check_every(&self) -> u64 {
        match self.max_nodes {
            Some(m) => CHECK_EVERY.min(m.saturating_sub(self.generated.load(Relaxed)) / 16 + 1),
            None => CHECK_EVERY,
        }
    }
}

/// A child's new entries in the views of the tile it moves, and its sums as far as they are read.
#[derive(Clone, Copy, Default)]
struct Child {
    dir: u8,
    to: u8,
    state: u32,
    /// The views of the tile moved, and how many of them are read so far.
    len: u8,
    read: u8,
    /// Each view's set rank (zero-aware tables), then its slot.
    slots: [usize; MAX_TILE_VIEWS],
    vals: [u32; MAX_TILE_VIEWS],
    /// The sums with the first `read` views' new entries.
    sums: [u32; MAX_SUMS],
}

/// How many of a child's views a lazy search looks up before it reads any: the children that
/// the bound cuts off are mostly cut by their first two (on the 24-puzzle with `small-t`, the
/// cut ones read 2.1 of their 7 views on average), so the others are looked up only for the
/// children that pass.
const FIRST_VIEWS: usize = 2;

/// One depth-first searcher's state.
#[derive(Clone)]
struct Searcher<'s, 'a> {
    sh: &'s Shared<'a>,
    cells: [u8; MAX_CELLS],
    blank: u8,
    /// Each view's tiles' cells, as a list in the group's order and as a set.
    vcells: Vec<[u8; MAX_GROUP]>,
    vmask: Vec<u64>,
    /// Each view's entry.
    vals: Vec<u32>,
    /// Each partition's sum, on the board then on its reflection, and the largest.
    sums: [u32; MAX_SUMS],
    h: u32,
    /// The moves from the start (direction indices).
    path: Vec<u8>,
    generated: u64,
    expanded: u64,
    unchecked: u64,
    /// The nodes between two looks at the limits: [`CHECK_EVERY`], fewer as a node limit nears
    /// (so that a search stops within a few nodes of it).
    check_every: u64,
    bound: u32,
    next_bound: u32,
    limit_hit: bool,
    /// A move (direction index) the next expansion does not make, or [`NO_SKIP`]: the move
    /// back to an A*+IDA* frontier node's parent.
    skip: u8,
    /// This searcher's piece of the iteration, in a one-thread search's order: it stops when
    /// a worker meets the goal in an earlier piece ([`Shared::first_found`]).
    order: usize,
    /// A collecting search ([`iterate_frontier`]) does not expand the nodes at this depth: it
    /// keeps them in `leaves` instead. `u32::MAX` for a search.
    collect_at: u32,
    /// The nodes kept at `collect_at`, in the order met.
    leaves: Frontier,
    /// Below an A*+IDA* frontier board, the children up to this cost are looked up among A*'s
    /// boards ([`Known::holds`]); 0 for none.
    known_until: u32,
}

/// A node a collecting search kept: the subtree a worker searches.
#[derive(Clone, Copy)]
struct Leaf {
    /// The node's machine state.
    state: u32,
    /// Its estimate, then the total of its sums (at most 255): the order by estimate.
    key: u32,
    /// The nodes generated and expanded before it, by the search in its own order.
    generated: u64,
    expanded: u64,
}

/// The nodes a collecting search kept, each with its cells, its views' entries and its path
/// from the start in one flat array (no allocation a node).
#[derive(Clone, Default)]
struct Frontier {
    leaves: Vec<Leaf>,
    /// Leaf `i`'s cells, entries and moves at `i * stride`.
    bytes: Vec<u8>,
}

/// No move skipped.
const NO_SKIP: u8 = 4;

impl<'s, 'a> Searcher<'s, 'a> {
    fn new(sh: &'s Shared<'a>, start: &Board) -> Searcher<'s, 'a> {
        let mut s = Searcher {
            sh,
            cells: [0; MAX_CELLS],
            blank: start.blank() as u8,
            vcells: vec![[0; MAX_GROUP]; sh.views],
            vmask: vec![0; sh.views],
            vals: vec![0; sh.views],
            sums: [0; MAX_SUMS],
            h: 0,
            path: Vec::with_capacity(256),
            generated: 0,
            expanded: 0,
            unchecked: 0,
            check_every: sh.check_every(),
            bound: 0,
            next_bound: u32::MAX,
            limit_hit: false,
            skip: NO_SKIP,
            order: 0,
            collect_at: u32::MAX,
            leaves: Frontier::default(),
            known_until: 0,
        };
        let cells: Vec<u8> = start.cells().iter().map(|&t| t as u8).collect();
        s.place(&cells);
        let g = sh.tables.len();
        for v in 0..sh.views {
            let k = sh.groups[v].k;
            s.vals[v] = sh.tables[v % g].value(&s.vcells[v][..k], sh.map(v, s.blank));
        }
        s.add_up();
        s
    }

    /// Puts the tiles as on `cells` (row-major, 0 the blank) into every view.
    fn place(&mut self, cells: &[u8]) {
        let sh = self.sh;
        self.vmask.iter_mut().for_each(|m| *m = 0);
        for (c, &t) in cells.iter().enumerate() {
            self.cells[c] = t;
            if t == 0 {
                self.blank = c as u8;
            }
            let (views, len) = &sh.tile_views[t as usize];
            for &(v, i) in &views[..*len as usize] {
                let m = sh.map(v as usize, c as u8);
                self.vcells[v as usize][i as usize] = m;
                self.vmask[v as usize] |= 1 << m;
            }
        }
    }

    /// The sums and the estimate from the views' entries.
    fn add_up(&mut self) {
        let sh = self.sh;
        self.sums = [0; MAX_SUMS];
        for (v, &val) in self.vals.iter().enumerate() {
            let mut m = sh.view_sums[v];
            while m != 0 {
                self.sums[m.trailing_zeros() as usize] += val;
                m &= m - 1;
            }
        }
        self.h = self.sums[..sh.sums].iter().copied().max().unwrap_or(0);
    }

    /// Puts this searcher on the board `cells` whose views' entries are `vals` (as stored by
    /// A*+IDA*), with an empty path.
    fn load(&mut self, cells: &[u8], vals: &[u8]) {
        self.place(cells);
        for (v, &val) in vals.iter().enumerate() {
            self.vals[v] = val as u32;
        }
        self.add_up();
        self.path.clear();
    }

    fn is_goal(&self) -> bool {
        self.cells[..self.sh.n] == self.sh.goal[..self.sh.n]
    }

    /// The child where the tile on `to` slides onto the blank, its move-pruning state `state`
    /// brought into the cache.
    #[inline(always)]
    fn child(&self, dir: u8, to: u8, state: u32) -> Child {
        let sh = self.sh;
        sh.fsm.prefetch(state);
        let len = sh.tile_views[self.cells[to as usize] as usize].1;
        Child { dir, to, state, len, sums: self.sums, ..Child::default() }
    }

    /// `child`'s views `from..to` (of those of the tile it moves): their index among them, the
    /// view, and the tile's slot in it.
    #[inline(always)]
    fn views(
        &self,
        child: &Child,
        from: usize,
        to: usize,
    ) -> impl Iterator<Item = (usize, usize, usize)> + use<'s, 'a> {
        let views = &self.sh.tile_views[self.cells[child.to as usize] as usize].0;
        let to = to.min(child.len as usize);
        views[from.min(to)..to].iter().enumerate().map(move |(j, &(v, i))| (from + j, v as usize, i as usize))
    }

    /// For `child`'s views `from..to` in zero-aware tables, the ranks of their cell sets, the
    /// per-set facts brought into the cache ([`Searcher::slots`] then makes the slots).
    #[inline(always)]
    fn ranks(&self, child: &mut Child, from_view: usize, to_view: usize) {
        let sh = self.sh;
        let (from, to) = (self.blank, child.to);
        for (j, v, _) in self.views(child, from_view, to_view) {
            if let Some(z) = sh.groups[v].zero {
                let (f, t) = (sh.map(v, from), sh.map(v, to));
                let set = z.set_rank(self.vmask[v] ^ (1 << f | 1 << t));
                z.prefetch_set(set, t);
                child.slots[j] = set;
            }
        }
    }

    /// The slots of `child`'s entries in its views `from..to` (from the set ranks
    /// [`Searcher::ranks`] left), prefetched.
    #[inline(always)]
    fn slots(&mut self, child: &mut Child, from_view: usize, to_view: usize) {
        let sh = self.sh;
        let (from, to) = (self.blank, child.to);
        for (j, v, i) in self.views(child, from_view, to_view) {
            let grp = &sh.groups[v];
            let (f, t) = (sh.map(v, from), sh.map(v, to));
            let mask = self.vmask[v] ^ (1 << f | 1 << t);
            let cells = &mut self.vcells[v];
            cells[i] = f;
            let r = match grp.zero {
                None => grp.rank(cells),
                Some(z) => z.index_in(child.slots[j], mask, &cells[..grp.k], t) as usize,
            };
            cells[i] = t;
            grp.prefetch(r);
            child.slots[j] = r;
        }
    }

    /// Reads `child`'s entries in its views up to `to_view` (from where the last call stopped)
    /// and, when they are all read, returns its estimate and the sum of its sums (at most 255).
    /// With `cut`, stops as soon as one of its sums is above `cut` and returns that sum (a
    /// lower bound of the estimate with its parity) and 255.
    #[inline(always)]
    fn estimate(&self, child: &mut Child, cut: u32, to_view: usize) -> Option<(u32, u32)> {
        let sh = self.sh;
        let to_view = to_view.min(child.len as usize);
        for (j, v, _) in self.views(child, child.read as usize, to_view) {
            let old = self.vals[v];
            let new = sh.groups[v].read(child.slots[j], old);
            child.vals[j] = new;
            let mut m = sh.view_sums[v];
            let mut worst = 0;
            while m != 0 {
                let k = m.trailing_zeros() as usize;
                child.sums[k] = child.sums[k] - old + new;
                worst = worst.max(child.sums[k]);
                m &= m - 1;
            }
            if worst > cut {
                return Some((worst, 255));
            }
        }
        child.read = to_view as u8;
        if to_view < child.len as usize {
            return None;
        }
        let sums = &child.sums[..sh.sums];
        Some((sums.iter().copied().max().unwrap_or(0), sums.iter().sum::<u32>().min(255)))
    }

    /// Makes the move of `child` (whose entries [`Searcher::estimate`] read in full); returns
    /// the entries it replaced, for [`Searcher::undo`].
    #[inline(always)]
    fn apply(&mut self, child: &Child) -> [u32; MAX_TILE_VIEWS] {
        let sh = self.sh;
        let (from, to) = (self.blank, child.to);
        let tile = self.cells[to as usize];
        self.cells[from as usize] = tile;
        self.cells[to as usize] = 0;
        self.blank = to;
        let mut old = [0u32; MAX_TILE_VIEWS];
        let (views, len) = &sh.tile_views[tile as usize];
        for (j, &(v, i)) in views[..*len as usize].iter().enumerate() {
            let v = v as usize;
            let (f, t) = (sh.map(v, from), sh.map(v, to));
            self.vcells[v][i as usize] = f;
            self.vmask[v] ^= 1 << f | 1 << t;
            old[j] = self.vals[v];
            self.vals[v] = child.vals[j];
            let mut m = sh.view_sums[v];
            while m != 0 {
                let k = m.trailing_zeros() as usize;
                self.sums[k] = self.sums[k] - old[j] + child.vals[j];
                m &= m - 1;
            }
        }
        self.h = self.sums[..sh.sums].iter().copied().max().unwrap_or(0);
        old
    }

    /// Takes back the move of `child` made from a blank on `from`, with `old` from
    /// [`Searcher::apply`] and the parent's estimate `h`.
    #[inline(always)]
    fn undo(&mut self, child: &Child, from: u8, old: &[u32; MAX_TILE_VIEWS], h: u32) {
        let sh = self.sh;
        let to = child.to;
        let tile = self.cells[from as usize];
        self.cells[to as usize] = tile;
        self.cells[from as usize] = 0;
        self.blank = from;
        let (views, len) = &sh.tile_views[tile as usize];
        for (j, &(v, i)) in views[..*len as usize].iter().enumerate() {
            let v = v as usize;
            let (f, t) = (sh.map(v, from), sh.map(v, to));
            self.vcells[v][i as usize] = t;
            self.vmask[v] ^= 1 << f | 1 << t;
            let mut m = sh.view_sums[v];
            while m != 0 {
                let k = m.trailing_zeros() as usize;
                self.sums[k] = self.sums[k] - self.vals[v] + old[j];
                m &= m - 1;
            }
            self.vals[v] = old[j];
        }
        self.h = h;
    }

    /// Depth-first search below the current node at cost `g`, the move-pruning machine in
    /// `state`. True when the goal is found (the path then holds the solution).
    fn dfs(&mut self, g: u32, state: u32) -> bool {
        if g == self.collect_at {
            let n = self.sh.n;
            let key = self.h << 8 | self.sums[..self.sh.sums].iter().sum::<u32>().min(255);
            let f = &mut self.leaves;
            f.leaves.push(Leaf { state, key, generated: self.generated, expanded: self.expanded });
            f.bytes.extend_from_slice(&self.cells[..n]);
            f.bytes.extend(self.vals.iter().map(|&v| v as u8));
            f.bytes.extend_from_slice(&self.path);
            return false;
        }
        let sh = self.sh;
        let (moves, len) = sh.nbr[self.blank as usize];
        self.expanded += 1;
        let skip = std::mem::replace(&mut self.skip, NO_SKIP);
        let mut children = [Child::default(); 4];
        let mut count = 0;
        // below an A*+IDA* frontier board, the children's packed cells, their slots among A*'s
        // boards prefetched
        let known = if g < self.known_until { sh.known.get() } else { None };
        let mut keys = [0u128; 4];
        let packed = if known.is_some() { pack(&self.cells[..sh.n]) } else { 0 };
        for &(dir, to) in &moves[..len as usize] {
            let next = sh.fsm.next(state, dir as usize);
            if next == FORBIDDEN || dir == skip {
                continue;
            }
            if let Some(known) = known {
                keys[count] = slid(packed, sh.n, self.cells[to as usize], self.blank, to);
                known.seen.prefetch(keys[count]);
            }
            children[count] = self.child(dir, to, next);
            count += 1;
        }
        // (the nodes examined so far: a search stopped at the node limit has generated just past it)
        if self.unchecked >= self.check_every && self.check_limits() {
            return false;
        }
        // the children's estimates, each stage for all children before the next so that their
        // cache misses overlap: the set ranks (their facts prefetched), the slots (their entries
        // prefetched), the entries. When lazy, the entries are read only until a sum passes the
        // bound, and only the first views are looked up before the rest are needed.
        let cut = if sh.lazy { self.bound.saturating_sub(g + 1) } else { u32::MAX };
        let first = if sh.lazy { FIRST_VIEWS } else { MAX_TILE_VIEWS };
        let mut order = [(0u32, 0usize); 4];
        // the children still to look up (bits)
        let mut todo = (1u32 << count) - 1;
        for (from, upto) in [(0, first), (first, MAX_TILE_VIEWS)] {
            for (i, child) in children[..count].iter_mut().enumerate() {
                if todo & 1 << i != 0 {
                    self.ranks(child, from, upto);
                }
            }
            for (i, child) in children[..count].iter_mut().enumerate() {
                if todo & 1 << i != 0 {
                    self.slots(child, from, upto);
                }
            }
            for (i, (slot, child)) in order.iter_mut().zip(&mut children[..count]).enumerate() {
                if todo & 1 << i != 0 {
                    if let Some((h, total)) = self.estimate(child, cut, upto) {
                        // by the estimate, then by the sums together: each bounds the distance,
                        // so the smaller total suggests the nearer child
                        *slot = ((h << 8) | total, i);
                        todo &= !(1 << i);
                    }
                }
            }
            if todo == 0 {
                break;
            }
        }
        // then the children in order of estimate: in the last iteration the solution tends to
        // be met sooner (in the others every child within the bound is searched whatever the
        // order)
        if sh.sort {
            order[..count].sort_unstable_by_key(|o| o.0);
        }
        let (from, h) = (self.blank, self.h);
        for &(key, i) in &order[..count] {
            // counted as examined, so siblings after a solution are not (Korf's rule)
            self.generated += 1;
            self.unchecked += 1;
            let f = g + 1 + (key >> 8);
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            let child = &children[i];
            if known.is_some_and(|k| k.holds(keys[i], g + 1)) {
                continue;
            }
            let old = self.apply(child);
            self.path.push(child.dir);
            if (self.h == 0 && self.is_goal()) || self.dfs(g + 1, child.state) {
                return true;
            }
            self.path.pop();
            self.undo(child, from, &old, h);
            if self.limit_hit {
                return false;
            }
        }
        false
    }

    /// Adds this searcher's recent nodes to the shared count; true when the search must stop
    /// (another worker found the goal, the node limit is reached, or the watch was stopped).
    fn check_limits(&mut self) -> bool {
        let batch = self.unchecked;
        let total = self.sh.generated.fetch_add(batch, Relaxed) + batch;
        self.unchecked = 0;
        if let Some(watch) = self.sh.watch {
            watch.add_generated(batch);
            if watch.is_cancelled() {
                self.limit_hit = true;
            }
        }
        self.check_every = self.sh.check_every();
        if self.sh.stop.load(Relaxed)
            || self.order > self.sh.first_found.load(Relaxed)
            || self.sh.max_nodes.is_some_and(|m| total > m)
            || self.sh.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.limit_hit = true;
        }
        self.limit_hit
    }
}

/// The move-pruning machine of `options`, or one that forbids only the move straight back, made
/// into `made`.
fn machine<'a>(
    options: &'a Options,
    shape: crate::puzzle::board::Shape,
    made: &'a mut Option<MovePruner>,
) -> Result<&'a MovePruner, Error> {
    match options.prune.as_deref() {
        Some(m) => Ok(m),
        None => Ok(made.insert(MovePruner::generate(shape, 2)?)),
    }
}

/// What the searchers of `start` with `set` share, pruned by `fsm`.
///
/// # Errors
/// [`Error::BadShape`] for a board of more than 64 cells or a machine for another shape;
/// [`Error::BadOption`] for a catalogue with a tile in too many groups.
fn shared<'a>(
    start: &Board,
    set: &'a PatternSet,
    options: &'a Options,
    fsm: &'a MovePruner,
) -> Result<Shared<'a>, Error> {
    let shape = start.shape();
    let n = shape.cells();
    if n > MAX_CELLS {
        return Err(Error::BadShape(format!("{shape}: pattern-database search goes up to {MAX_CELLS} cells")));
    }
    if fsm.shape() != shape {
        return Err(Error::BadShape(format!(
            "a move-pruning machine for {} cannot prune a search on {shape}",
            fsm.shape()
        )));
    }
    let reflect = set.reflection().is_some();
    let mut transpose = [0u8; MAX_CELLS];
    if reflect {
        let side = shape.rows();
        for (c, tc) in transpose.iter_mut().enumerate().take(n) {
            *tc = ((c % side) * side + c / side) as u8;
        }
    }
    let partition = set.partition();
    let (ngroups, nparts) = (partition.groups.len(), partition.parts.len());
    let orientations = if reflect { 2 } else { 1 };
    let views = ngroups * orientations;
    let mut view_sums = vec![0u32; views];
    let mut tile_views = vec![([(0u8, 0u8); MAX_TILE_VIEWS], 0u8); n];
    let mut maps = vec![[0u8; MAX_CELLS]; views];
    for o in 0..orientations {
        for (g, tiles) in partition.groups.iter().enumerate() {
            let v = o * ngroups + g;
            let source = &partition.sources()[g];
            for c in 0..n {
                maps[v][c] = source.cells[if o == 0 { c } else { transpose[c] as usize }];
            }
            for (p, part) in partition.parts.iter().enumerate() {
                if part.contains(&g) {
                    view_sums[v] |= 1 << (o * nparts + p);
                }
            }
            for (i, &t) in tiles.iter().enumerate() {
                // the reflected board's tile `t` is the board's tile `sigma[t]` (an involution)
                let tile = if o == 0 { t as usize } else { set.reflection().map_or(t, |s| s[t as usize]) as usize };
                let (list, len) = &mut tile_views[tile];
                if *len as usize == MAX_TILE_VIEWS || v > u8::MAX as usize {
                    return Err(Error::BadOption(format!(
                        "--pattern {}: tile {tile} is in more than {MAX_TILE_VIEWS} lookups",
                        partition.name
                    )));
                }
                list[*len as usize] = (v as u8, source.slots[i]);
                *len += 1;
            }
        }
    }
    let mut goal = [0u8; MAX_CELLS];
    for (c, &t) in set.goal().cells().iter().enumerate() {
        goal[c] = t as u8;
    }
    let lazy = set.tables().iter().all(|t| t.zero().is_some());
    let tables: Vec<&GroupTable> = (0..ngroups).map(|g| set.lookup(g).0).collect();
    // one group a view (a reflected view repeats its group), so that a view finds its table
    // without a division in the search
    let groups = (0..views)
        .map(|v| {
            let t = tables[v % ngroups];
            let mut weights = [0u64; MAX_GROUP];
            weights[..t.index().k()].copy_from_slice(t.index().weights());
            let (zero, bits) = match t.zero() {
                Some((z, bits)) => (Some(z), bits),
                None => (None, false),
            };
            Group { k: t.index().k(), weights, entries: t.entries(), zero, bits }
        })
        .collect();
    let nbr = (0..n)
        .map(|cell| {
            let mut moves = [(0u8, 0u8); 4];
            let mut len = 0u8;
            // up, left, right, down: the order of Korf & Felner's published node counts
            for d in [0usize, 2, 3, 1] {
                if let Some(to) = Dir::ALL[d].step(shape, cell) {
                    moves[len as usize] = (d as u8, to as u8);
                    len += 1;
                }
            }
            (moves, len)
        })
        .collect();
    Ok(Shared {
        n,
        nbr,
        fsm,
        groups,
        tables,
        views,
        view_sums,
        sums: nparts * orientations,
        tile_views,
        lazy,
        maps,
        goal,
        max_nodes: options.max_nodes,
        deadline: options.time_limit.and_then(|t| Instant::now().checked_add(t)),
        sort: options.order == ChildOrder::ByEstimate,
        generated: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        first_found: AtomicUsize::new(usize::MAX),
        watch: options.watch.as_deref(),
        frontier: FRONTIER,
        split_after: SPLIT_AFTER,
        known: OnceLock::new(),
        known_depth: KNOWN_DEPTH,
    })
}

/// IDA* from `start` to the set's goal with the pattern databases of `set`; `threads > 1`
/// searches each iteration's subtrees in parallel. The board must be solvable (checked by the
/// caller).
///
/// # Errors
/// [`Error::BadShape`] for a board of more than 64 cells; [`Error::SearchLimit`] at the node
/// limit of `options`.
pub(super) fn idastar(
    start: &Board,
    set: &PatternSet,
    options: &Options,
    threads: usize,
) -> Result<Option<(Vec<Dir>, Stats)>, Error> {
    idastar_cut(start, set, options, threads, FRONTIER, SPLIT_AFTER)
}

/// [`idastar`] with its frontier of `frontier` nodes after iterations of `split_after`.
fn idastar_cut(
    start: &Board,
    set: &PatternSet,
    options: &Options,
    threads: usize,
    frontier: usize,
    split_after: u64,
) -> Result<Option<(Vec<Dir>, Stats)>, Error> {
    let began = Instant::now();
    let mut parent_only = None;
    let mut sh = shared(start, set, options, machine(options, start.shape(), &mut parent_only)?)?;
    (sh.frontier, sh.split_after) = (frontier, split_after);
    let root = Searcher::new(&sh, start);
    let mut stats = Stats { generated: 1, ..Stats::default() };
    if root.is_goal() {
        stats.elapsed = began.elapsed();
        return Ok(Some((Vec::new(), stats)));
    }
    let mut bound = root.h;
    // the nodes of the iteration before, and the depth of its frontier
    let (mut last, mut depth) = (0, 1);
    loop {
        stats.iterations += 1;
        // cut at a frontier when the last iteration was long enough (and, in the fixed order
        // that keeps the search's own, only for more threads)
        let split = last >= sh.split_after && (sh.sort || threads > 1);
        let (found, generated, expanded, next, hit) =
            if split { iterate_frontier(&root, bound, threads, &mut depth) } else { iterate(&root, bound) };
        last = generated;
        stats.generated += generated;
        stats.expanded += expanded;
        // (the nodes a worker had not yet added to it counted too)
        sh.generated.store(stats.generated, Relaxed);
        watched(options, stats.generated)?;
        if let Some(path) = found {
            stats.peak_open = path.len() as u64;
            stats.stored = stats.peak_open;
            stats.peak_bytes = (std::mem::size_of::<Searcher>() + 256 + 64 * sh.views) as u64 * threads as u64;
            stats.elapsed = began.elapsed();
            return Ok(Some((path.iter().map(|&d| Dir::ALL[d as usize]).collect(), stats)));
        }
        // (an iteration cut short by the limit is not taken as searched)
        within_limit(options, sh.deadline, stats.generated, hit, 0, "idastar")?;
        if next == u32::MAX {
            return Ok(None); // every branch ended: cannot happen for a solvable board
        }
        bound = next;
    }
}

/// Records `generated` on the watch of `options`; [`Error::Cancelled`] when it was stopped.
fn watched(options: &Options, generated: u64) -> Result<(), Error> {
    match &options.watch {
        Some(watch) => {
            watch.set_generated(generated);
            if watch.is_cancelled() {
                return Err(Error::Cancelled { generated });
            }
            Ok(())
        }
        None => Ok(()),
    }
}

/// [`Error::SearchLimit`] once the time limit of `options` is past (its `deadline`) or
/// `generated` passes its node limit (or a worker stopped at either: `hit`), the search holding
/// `bytes`.
fn within_limit(
    options: &Options,
    deadline: Option<Instant>,
    generated: u64,
    hit: bool,
    bytes: u64,
    algorithm: &'static str,
) -> Result<(), Error> {
    if let (Some(limit), true) = (options.time_limit, deadline.is_some_and(|d| Instant::now() >= d)) {
        let what = format!("the time limit of {}", super::space::seconds(limit));
        return Err(Error::SearchLimit { what, generated, bytes, algorithm });
    }
    if hit || options.max_nodes.is_some_and(|m| generated > m) {
        return Err(Error::SearchLimit {
            what: format!("the limit of {} nodes", options.max_nodes.unwrap_or(0)),
            generated,
            bytes,
            algorithm,
        });
    }
    Ok(())
}

/// An iteration's solution, generated and expanded nodes, next bound, and whether the node limit
/// (or the watch) stopped it.
type Iteration = (Option<Vec<u8>>, u64, u64, u32, bool);

/// One iteration on this thread.
fn iterate(root: &Searcher<'_, '_>, bound: u32) -> Iteration {
    let mut s = root.clone();
    s.bound = bound;
    s.next_bound = u32::MAX;
    s.check_every = root.sh.check_every();
    let found = s.dfs(0, root.sh.fsm.root(root.blank as usize));
    (found.then(|| s.path.clone()), s.generated, s.expanded, s.next_bound, s.limit_hit)
}

/// One iteration with the subtrees below a frontier searched on `threads` threads, counted and
/// solved as the same search on one thread, whatever the schedule.
///
/// The frontier is the nodes at a depth with at least [`FRONTIER`] of them, found by the search
/// itself ([`Searcher::dfs`] collecting at that depth), so they come in its order with the nodes
/// counted before each: `depth`, the last iteration's frontier depth, is tried first, then the
/// depths above it while they still have enough nodes, or below it until one has. Every subtree
/// before the first one (in the order taken) where a worker meets the goal is searched to its
/// end, the ones after it are stopped. In the search's own order ([`ChildOrder::Fixed`]) the
/// counts are those of [`iterate`]: the nodes above the frontier met before that subtree, and
/// the subtrees before it. In the order by estimate, the search above the frontier counts in
/// full. A solution above the frontier ends the iteration there (in the search's own order, the
/// iteration is made again by [`iterate`], whose counts those are).
fn iterate_frontier(root: &Searcher<'_, '_>, bound: u32, threads: usize, depth: &mut u32) -> Iteration {
    let sh = root.sh;
    sh.stop.store(false, Relaxed);
    sh.first_found.store(usize::MAX, Relaxed);
    // the nodes before this iteration, for the node limit: each depth tried, and a search made
    // again, counts from there (only the one kept is counted). A depth tried looks at the
    // limits every CHECK_EVERY nodes whatever the node limit leaves: the depths dropped are not
    // counted, so a search whose own count is the limit is not stopped in one of them.
    let before = sh.generated.load(Relaxed);
    let collect = |d: u32| {
        sh.generated.store(before, Relaxed);
        let mut top = root.clone();
        top.bound = bound;
        top.next_bound = u32::MAX;
        top.collect_at = d;
        top.check_every = CHECK_EVERY;
        let found = top.dfs(0, sh.fsm.root(root.blank as usize));
        (top, found)
    };
    let enough = |top: &Searcher, found: bool| found || top.limit_hit || top.leaves.leaves.len() >= sh.frontier;
    let (mut d, (mut top, mut found_above)) = (*depth, collect(*depth));
    if enough(&top, found_above) {
        // the depths above, while they are enough
        while d > 1 && !found_above && !top.limit_hit {
            let (above, found) = collect(d - 1);
            if !enough(&above, found) {
                break;
            }
            (d, top, found_above) = (d - 1, above, found);
        }
    } else {
        while !enough(&top, found_above) && !top.leaves.leaves.is_empty() && d < FRONTIER_DEPTH {
            d += 1;
            (top, found_above) = collect(d);
        }
    }
    *depth = d;
    if found_above && !sh.sort {
        sh.generated.store(before, Relaxed);
        return iterate(root, bound);
    }
    if top.limit_hit || found_above {
        let solution = found_above.then(|| top.path.clone());
        return (solution, top.generated, top.expanded, top.next_bound, top.limit_hit);
    }
    sh.generated.store(before + top.generated, Relaxed);
    let frontier = std::mem::take(&mut top.leaves);
    let stride = sh.n + sh.views + d as usize;
    let mut order: Vec<usize> = (0..frontier.leaves.len()).collect();
    if sh.sort {
        // nearest the goal by the estimate first (then by the sums' total), else as met
        order.sort_by_key(|&i| frontier.leaves[i].key);
    }
    // each subtree's solution, generated, expanded and next bound
    type Searched = (Option<Vec<u8>>, u64, u64, u32);
    let hit = AtomicBool::new(false);
    // the workers take the subtrees in order, so that in the last iteration they all work
    // before the solution (rayon would split the list in halves, one thread starting in the
    // middle)
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done: Vec<(usize, Searched)> = Vec::new();
        let mut s = root.clone();
        s.collect_at = u32::MAX;
        // the nodes not yet added to the shared count run on across subtrees, so that the node
        // limit and the watch are looked at every check_every nodes however small the subtrees
        s.unchecked = 0;
        s.check_every = sh.check_every();
        loop {
            let at = next.fetch_add(1, Relaxed);
            if at >= order.len() || sh.first_found.load(Relaxed) < at || sh.stop.load(Relaxed) {
                break;
            }
            let i = order[at];
            let bytes = &frontier.bytes[i * stride..(i + 1) * stride];
            s.load(&bytes[..sh.n], &bytes[sh.n..sh.n + sh.views]);
            s.path.extend_from_slice(&bytes[sh.n + sh.views..]);
            s.order = at;
            s.bound = bound;
            s.next_bound = u32::MAX;
            s.generated = 0;
            s.expanded = 0;
            let found = s.dfs(d, frontier.leaves[i].state);
            if found {
                sh.first_found.fetch_min(at, Relaxed);
            }
            done.push((at, (found.then(|| s.path.clone()), s.generated, s.expanded, s.next_bound)));
            if s.limit_hit {
                // stopped by the limit or the watch, or after another worker's solution
                if sh.first_found.load(Relaxed) > at {
                    hit.store(true, Relaxed);
                }
                break;
            }
        }
        done
    };
    let mut results: Vec<(usize, Searched)> = if threads > 1 {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
            handles.into_iter().flat_map(|h| h.join().expect("a search worker panicked")).collect()
        })
    } else {
        work()
    };
    results.sort_unstable_by_key(|r| r.0);
    let (mut generated, mut expanded, mut next_bound) = (0u64, 0u64, top.next_bound);
    for (at, (found, g, e, nb)) in results {
        generated += g;
        expanded += e;
        next_bound = next_bound.min(nb);
        if found.is_some() {
            // the first subtree with the goal: the search on one thread ends there
            let leaf = &frontier.leaves[order[at]];
            let above = if sh.sort { (top.generated, top.expanded) } else { (leaf.generated, leaf.expanded) };
            return (found, above.0 + generated, above.1 + expanded, next_bound, false);
        }
    }
    (None, top.generated + generated, top.expanded + expanded, next_bound, hit.load(Relaxed))
}

// ---- A*+IDA* --------------------------------------------------------------------------------

/// A*+IDA*'s memory budget when none is given: 1 GiB, about 13 M boards of the 24-puzzle with
/// `small-t` (its 28 entries, packed cells, record, open-list entry and hash slot).
pub const ASTAR_IDA_BYTES: u64 = 1 << 30;

/// How many moves below a frontier board A*+IDA* looks its boards up among A*'s and drops those A*
/// holds at no greater cost ([`Known::holds`]): on Korf & Felner's instance 20 with `small-t`, 8
/// moves drop 17% of the nodes; deeper, a lookup (a cache miss) finds little.
const KNOWN_DEPTH: u32 = 8;

/// Bytes A* spends on a stored board besides its entries: its cells (packed), its record, and
/// its open-list entry with the list's spare room. Its share of the hash table comes on top.
const STORED_BYTES: u64 = 16 + 8 + 8;

/// A board A* has stored (its cells and entries are in the arenas at its index).
#[derive(Clone, Copy)]
struct Stored {
    parent: u32,
    /// The move that made it (a direction index; [`NO_SKIP`] for the start).
    dir: u8,
    closed: bool,
    g: u16,
}

/// The cells of a board of up to 25 cells in one number (5 bits a tile).
fn pack(cells: &[u8]) -> u128 {
    cells.iter().fold(0u128, |k, &t| k << 5 | t as u128)
}

/// The [`pack`]ed cells `key` of `n` cells after `tile` slides from `to` onto the blank on `from`.
#[inline(always)]
fn slid(key: u128, n: usize, tile: u8, from: u8, to: u8) -> u128 {
    let tile = tile as u128;
    key ^ tile << (5 * (n - 1 - to as usize)) ^ tile << (5 * (n - 1 - from as usize))
}

/// The `n` cells that [`pack`] made `key` of.
fn unpack(key: u128, n: usize) -> [u8; MAX_CELLS] {
    let mut cells = [0u8; MAX_CELLS];
    for (c, cell) in cells[..n].iter_mut().enumerate() {
        *cell = (key >> (5 * (n - 1 - c)) & 31) as u8;
    }
    cells
}

/// A*'s open list: record indices by `f`, then `h`, the lowest first (last in, first out
/// among equals); a list of records for each pair, so a push and a pop take constant time.
struct Open {
    /// The records with `f` and `h` at `f * 256 + h`.
    lists: Vec<Vec<u32>>,
    /// No list below this one holds a record.
    low: usize,
    len: usize,
}

impl Open {
    fn new() -> Open {
        Open { lists: Vec::new(), low: 0, len: 0 }
    }

    fn push(&mut self, f: u32, h: u32, i: u32) {
        let at = (f as usize) << 8 | h.min(255) as usize;
        if at >= self.lists.len() {
            self.lists.resize_with(at + 1, Vec::new);
        }
        self.lists[at].push(i);
        self.low = self.low.min(at);
        self.len += 1;
    }

    /// The first record (without taking it off) and its `h`.
    fn peek(&mut self) -> Option<(u32, u32)> {
        while self.lists.get(self.low).is_some_and(|l| l.is_empty()) {
            self.low += 1;
        }
        let list = self.lists.get(self.low)?;
        Some(((self.low & 255) as u32, *list.last()?))
    }

    fn pop(&mut self) {
        if self.lists.get_mut(self.low).and_then(|l| l.pop()).is_some() {
            self.len -= 1;
        }
    }

    /// Every record left, with its `f` and `h`.
    fn into_entries(self) -> impl Iterator<Item = (u32, u32, u32)> {
        self.lists
            .into_iter()
            .enumerate()
            .flat_map(|(at, l)| l.into_iter().map(move |i| ((at >> 8) as u32, (at & 255) as u32, i)))
    }
}

/// A*'s stored boards by their packed cells: open addressing over record indices, at most half
/// full (it doubles as needed); a slot holds the index plus one (0 when empty) and the hash's
/// low 32 bits (which place it, so doubling reads no board).
struct Seen {
    slots: Vec<u64>,
    mask: usize,
    boards: usize,
}

impl Seen {
    fn new() -> Seen {
        let len = Seen::slots(0);
        Seen { slots: vec![0; len], mask: len - 1, boards: 0 }
    }

    fn slots(boards: usize) -> usize {
        (2 * boards).next_power_of_two().max(16)
    }

    /// The bytes of a table with room for `boards` boards.
    fn bytes(boards: usize) -> u64 {
        8 * Seen::slots(boards) as u64
    }

    fn hash(key: u128) -> u64 {
        let x = (key as u64 ^ (key >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (key >> 64) as u64;
        (x ^ x >> 29).wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ x >> 32
    }

    /// The slot of `key` (whose record's key is `key_of(index)`): the record's index when it is
    /// stored, and the slot to put it in.
    fn find(&self, key: u128, key_of: impl Fn(u32) -> u128) -> (usize, Option<u32>) {
        let hash = Seen::hash(key);
        let tag = hash as u32 as u64;
        let mut at = hash as usize & self.mask;
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                return (at, None);
            }
            let i = (slot as u32).wrapping_sub(1);
            if slot >> 32 == tag && key_of(i) == key {
                return (at, Some(i));
            }
            at = (at + 1) & self.mask;
        }
    }

    /// Brings `key`'s first slot into the cache.
    #[inline(always)]
    fn prefetch(&self, key: u128) {
        crate::memory::prefetch(&self.slots[Seen::hash(key) as usize & self.mask]);
    }

    /// Puts record `i` with `key` in slot `at` (from [`Seen::find`]).
    fn set(&mut self, at: usize, key: u128, i: u32) {
        if self.slots[at] == 0 {
            self.boards += 1;
        }
        self.slots[at] = Seen::hash(key) << 32 | (i as u64 + 1);
        if 2 * self.boards > self.slots.len() {
            let len = 2 * self.slots.len();
            let old = std::mem::replace(&mut self.slots, vec![0; len]);
            self.mask = self.slots.len() - 1;
            for slot in old.into_iter().filter(|&s| s != 0) {
                let mut at = (slot >> 32) as usize & self.mask;
                while self.slots[at] != 0 {
                    at = (at + 1) & self.mask;
                }
                self.slots[at] = slot;
            }
        }
    }
}

/// A*+IDA* (Bu & Korf 2019) from `start` with the pattern databases of `set`: A* until its
/// stored boards would pass the budget (`options.max_bytes`, else [`ASTAR_IDA_BYTES`]), then
/// IDA* iterations below the boards left on the open list, those nearest the goal by their
/// estimate first, so the last iteration meets a solution soon (Bu & Korf's order); `threads`
/// workers take them in that order. The start and the boards A* makes are counted once; each
/// iteration counts its subtrees as IDA* does (a frontier board expanded there counts as
/// expanded again). On any number of threads the counts and the solution are those of one
/// thread: a solution below a board stops the boards after it, not the ones before it.
///
/// Below a frontier board the move-pruning machine starts afresh, and the move back to its A*
/// parent is not made (that parent is nearer the start, so no shortest path takes it).
///
/// # Errors
/// Those of [`idastar`]; [`Error::BadShape`] past 25 cells.
pub(super) fn astar_ida(
    start: &Board,
    set: &PatternSet,
    options: &Options,
    threads: usize,
) -> Result<Option<(Vec<Dir>, Stats)>, Error> {
    astar_ida_known(start, set, options, threads, KNOWN_DEPTH)
}

/// [`astar_ida`], looking up A*'s boards up to `known_depth` moves below a frontier board.
fn astar_ida_known(
    start: &Board,
    set: &PatternSet,
    options: &Options,
    threads: usize,
    known_depth: u32,
) -> Result<Option<(Vec<Dir>, Stats)>, Error> {
    let began = Instant::now();
    let mut parent_only = None;
    let sh = Shared { known_depth, ..shared(start, set, options, machine(options, start.shape(), &mut parent_only)?)? };
    let n = sh.n;
    if n > 25 {
        return Err(Error::BadShape(format!("{}: astar-ida goes up to 25 cells; use idastar", start.shape())));
    }
    let views = sh.views;
    let budget = options.max_bytes.unwrap_or(ASTAR_IDA_BYTES);
    // the boards the budget holds with the hash table that serves them (of the size that
    // holds the most)
    let per_board = STORED_BYTES + views as u64;
    // (at most 2^31 boards: a slot places its board by 32 bits)
    let room = (4..33)
        .map(|k| (1u64 << k) / 2)
        .map(|most| most.min(budget.saturating_sub(Seen::bytes(most as usize)) / per_board))
        .max()
        .unwrap_or(0)
        .max(16) as usize;
    // a checkpoint is taken (locked, its directory seen to be there) and read first, so that a
    // busy, misplaced or damaged one is said before A*'s minutes; held to the search's end
    let held = options.checkpoint.as_ref().map(Held::take).transpose()?;
    let resumed = match &held {
        Some(h) => Saved::load(&h.at.path)?,
        None => None,
    };
    let mut s = Searcher::new(&sh, start);
    // a checkpoint of another board, goal, tables, pruning or order is said before A* too (its
    // frontier, which --max-memory decides, is compared after it)
    if let (Some(h), Some(saved)) = (&held, &resumed) {
        let head = fingerprint_head(&sh, set, options, pack(&s.cells[..n]));
        if !saved.fingerprint.starts_with(&format!("{head} ")) {
            saved.check(&h.at.path, &head)?;
        }
    }
    let mut stats = Stats { generated: 1, iterations: 1, ..Stats::default() };
    // the arenas: board i's packed cells at i, its entries at i * views
    let key = pack(&s.cells[..n]);
    let mut keys: Vec<u128> = vec![key];
    let mut entries: Vec<u8> = s.vals.iter().map(|&v| v as u8).collect();
    let mut stored = vec![Stored { parent: 0, dir: NO_SKIP, closed: false, g: 0 }];
    let mut seen = Seen::new();
    let (at, _) = seen.find(key, |_| key);
    seen.set(at, key, 0);
    let mut open = Open::new();
    open.push(s.h, s.h, 0);
    let path_to = |stored: &[Stored], mut i: usize| -> Vec<u8> {
        let mut path = Vec::new();
        while i != 0 {
            path.push(stored[i].dir);
            i = stored[i].parent as usize;
        }
        path.reverse();
        path
    };
    let bytes = |boards: u64| boards * per_board + Seen::bytes(boards as usize);
    let finish = |path: Vec<u8>, mut stats: Stats, boards: u64| {
        stats.peak_open = stats.peak_open.max(path.len() as u64);
        stats.stored = boards;
        stats.peak_bytes = bytes(boards);
        stats.elapsed = began.elapsed();
        Ok(Some((path.iter().map(|&d| Dir::ALL[d as usize]).collect(), stats)))
    };
    // A*, until the budget
    while let Some((h, i)) = open.peek() {
        let i = i as usize;
        if stored[i].closed {
            open.pop();
            continue;
        }
        let cells = unpack(keys[i], n);
        if h == 0 && cells[..n] == sh.goal[..n] {
            // the search is over: a checkpoint given has nothing left to resume (one not yet
            // written, or one whose A* stopped sooner, under a smaller budget)
            if let Some(held) = &held {
                let _ = std::fs::remove_file(&held.at.path);
            }
            return finish(path_to(&stored, i), stats, stored.len() as u64);
        }
        if stored.len() + 4 > room {
            break;
        }
        open.pop();
        stored[i].closed = true;
        stats.expanded += 1;
        let g = stored[i].g as u32;
        s.load(&cells[..n], &entries[i * views..(i + 1) * views]);
        let (from, h) = (s.blank, s.h);
        let back = stored[i].dir ^ 1;
        let (moves, len) = sh.nbr[from as usize];
        // the children, each stage for all of them (as in `dfs`), their hash slots prefetched
        let mut children = [(Child::default(), 0u128, 0u32); 4];
        let mut count = 0;
        for &(dir, to) in &moves[..len as usize] {
            if dir != back {
                let key = slid(keys[i], n, s.cells[to as usize], from, to);
                seen.prefetch(key);
                children[count] = (s.child(dir, to, 0), key, 0);
                count += 1;
            }
        }
        stats.generated += count as u64;
        let children = &mut children[..count];
        children.iter_mut().for_each(|(child, ..)| s.ranks(child, 0, MAX_TILE_VIEWS));
        children.iter_mut().for_each(|(child, ..)| s.slots(child, 0, MAX_TILE_VIEWS));
        for (child, _, ch) in children.iter_mut() {
            *ch = s.estimate(child, u32::MAX, MAX_TILE_VIEWS).unwrap_or_default().0;
        }
        for &(ref child, key, ch) in children.iter() {
            let (at, found) = seen.find(key, |j| keys[j as usize]);
            if found.is_none_or(|j| (stored[j as usize].g as u32) > g + 1) {
                let j = stored.len() as u32;
                let old = s.apply(child);
                keys.push(key);
                entries.extend(s.vals.iter().map(|&v| v as u8));
                s.undo(child, from, &old, h);
                stored.push(Stored { parent: i as u32, dir: child.dir, closed: false, g: (g + 1) as u16 });
                seen.set(at, key, j);
                open.push(g + 1 + ch, ch, j);
            }
        }
        stats.peak_open = stats.peak_open.max(open.len as u64);
        if stats.expanded.is_multiple_of(4096) || options.max_nodes.is_some_and(|m| stats.generated > m) {
            watched(options, stats.generated)?;
            within_limit(options, sh.deadline, stats.generated, false, bytes(stored.len() as u64), "astar-ida")?;
        }
    }
    // the frontier: the open boards (each once: a board's latest record), those with the
    // smallest estimate first (then the smallest f): in the last iteration, the subtrees of the
    // boards nearest the goal are the likeliest to hold a solution within the bound
    let mut frontier: Vec<(u32, u32, u32)> = open
        .into_entries()
        .filter(|&(_, _, i)| {
            let i = i as usize;
            !stored[i].closed && seen.find(keys[i], |j| keys[j as usize]).1 == Some(i as u32)
        })
        .collect();
    let known = sh.known.get_or_init(|| Known { keys, seen, stored });
    let (keys, stored) = (&known.keys, &known.stored);
    frontier.sort_unstable_by_key(|&(f, h, i)| (h, f, i));
    let kept = stored.len() as u64;
    let Some(mut bound) = frontier.iter().map(|e| e.0).min() else {
        return Ok(None); // every board was closed: cannot happen for a solvable board
    };
    // a checkpoint: resumed from (A* above made the same frontier, as its fingerprint shows),
    // or started
    let mut resume_at = 0;
    let mut carried_next = u32::MAX;
    let mut prior = 0.0;
    // (the file a symbolic link names, as taken)
    let checkpoint = held.as_ref().map(|h| (&h.at, fingerprint(&sh, set, options, keys, &frontier)));
    if let Some((c, print)) = &checkpoint {
        match resumed {
            Some(saved) => {
                saved.check(&c.path, print)?;
                if saved.bound < bound || saved.generated < stats.generated || saved.iterations < 1 {
                    return Err(Error::Checkpoint {
                        path: c.path.clone(),
                        detail: "its bound or counts are below A*'s own: the file is damaged; delete it to start \
                                 the search over"
                            .into(),
                    });
                }
                bound = saved.bound;
                resume_at = saved.done;
                carried_next = saved.next;
                stats.generated = saved.generated;
                stats.expanded = saved.expanded;
                stats.iterations = saved.iterations;
                prior = saved.seconds;
                if let Some(said) = c.on_resume {
                    said(&c.path, saved.resumed());
                }
            }
            None => iteration_start(print, bound, &stats, began.elapsed().as_secs_f64()).save(&c.path)?,
        }
    }
    let finish = |path: Vec<u8>, stats: Stats, boards: u64| {
        if let Some((c, _)) = &checkpoint {
            // the search is over: nothing to resume (a file that will not go is resumed to this
            // same solution)
            let _ = std::fs::remove_file(&c.path);
        }
        // the time of the earlier runs (to their last save) and of this one
        finish(path, stats, boards).map(|found| {
            found.map(|(moves, mut stats)| {
                stats.elapsed += Duration::from_secs_f64(prior);
                (moves, stats)
            })
        })
    };
    loop {
        // the nodes so far, for the node limit (with those a worker had not yet added to it)
        sh.generated.store(stats.generated, Relaxed);
        stats.iterations += 1;
        let order: Vec<usize> = (0..frontier.len()).filter(|&k| frontier[k].0 <= bound).collect();
        let within = order.len();
        if resume_at > within {
            let path = checkpoint.as_ref().map(|(c, _)| c.path.clone()).unwrap_or_default();
            let detail = format!(
                "{resume_at} boards done, but the bound {bound} has {within}: the file is damaged; \
                                  delete it to start the search over"
            );
            return Err(Error::Checkpoint { path, detail });
        }
        let next = std::sync::atomic::AtomicUsize::new(resume_at);
        sh.stop.store(false, Relaxed);
        // the boards searched in full, kept in the iteration's order for the checkpoint
        let progress = checkpoint.as_ref().map(|_| {
            Mutex::new(Progress {
                done: resume_at,
                pending: BTreeMap::new(),
                generated: 0,
                expanded: 0,
                next: u32::MAX,
                saved_at: Instant::now(),
                error: None,
            })
        });
        let save = |p: &Progress| -> Result<(), Error> {
            let Some((c, print)) = &checkpoint else { return Ok(()) };
            Saved {
                fingerprint: print.clone(),
                bound,
                done: p.done,
                generated: stats.generated + p.generated,
                expanded: stats.expanded + p.expanded,
                next: carried_next.min(p.next),
                iterations: stats.iterations - 1,
                seconds: prior + began.elapsed().as_secs_f64(),
            }
            .save(&c.path)
        };
        // each worker's boards: (place in the iteration's order, generated, expanded, next
        // bound, the solution below it)
        type Done = (usize, u64, u64, u32, Option<Vec<u8>>);
        let work = |mut s: Searcher| {
            s.check_every = sh.check_every();
            let mut done: Vec<Done> = Vec::new();
            loop {
                let at = next.fetch_add(1, Relaxed);
                if at >= within || sh.stop.load(Relaxed) || at > sh.first_found.load(Relaxed) || s.limit_hit {
                    break;
                }
                let k = order[at];
                let i = frontier[k].2 as usize;
                s.load(&unpack(keys[i], n)[..n], &entries[i * views..(i + 1) * views]);
                s.bound = bound;
                s.next_bound = u32::MAX;
                s.generated = 0;
                s.expanded = 0;
                s.skip = if i == 0 { NO_SKIP } else { stored[i].dir ^ 1 };
                s.known_until = stored[i].g as u32 + sh.known_depth;
                s.order = at;
                // a frontier board that is the goal is met here, as the searches that reach it
                // as a child drop it (A* meets the goal before it stops when the estimate is
                // consistent, as the tables' are; this keeps the search right if it were not)
                let found = (s.h == 0 && s.is_goal()) || s.dfs(stored[i].g as u32, sh.fsm.root(s.blank as usize));
                done.push((at, s.generated, s.expanded, s.next_bound, found.then(|| s.path.clone())));
                if found {
                    // the boards after this one stop; the ones before it run to their end
                    sh.first_found.fetch_min(at, Relaxed);
                    return (done, false);
                }
                if let (Some(progress), false) = (&progress, s.limit_hit) {
                    let mut p = progress.lock().unwrap_or_else(|e| e.into_inner());
                    if p.record(at, s.generated, s.expanded, s.next_bound)
                        && p.saved_at.elapsed() >= checkpoint.as_ref().map_or(Duration::MAX, |(c, _)| c.every)
                    {
                        if let Err(e) = save(&p) {
                            p.error = Some(e);
                            sh.stop.store(true, Relaxed);
                        }
                        p.saved_at = Instant::now();
                    }
                }
            }
            (done, s.limit_hit)
        };
        let results: Vec<_> = if threads > 1 {
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads).map(|_| scope.spawn(|| work(s.clone()))).collect();
                handles.into_iter().map(|h| h.join().expect("a search worker panicked")).collect()
            })
        } else {
            vec![work(s.clone())]
        };
        let mut progress = progress.map(|p| p.into_inner().unwrap_or_else(|e| e.into_inner()));
        if let Some(e) = progress.as_mut().and_then(|p| p.error.take()) {
            return Err(e);
        }
        let mut next_bound = frontier.iter().map(|e| e.0).filter(|&f| f > bound).min().unwrap_or(u32::MAX);
        next_bound = next_bound.min(carried_next);
        let limit_hit = results.iter().any(|r| r.1);
        let mut done: Vec<Done> = results.into_iter().flat_map(|r| r.0).collect();
        done.sort_unstable_by_key(|d| d.0);
        // the earliest board with a solution, whichever worker met it first: the boards after
        // it are not counted (a search on one thread stops there), the ones before it all ran
        // to their end
        let first = done.iter().position(|d| d.4.is_some());
        // stopped by a limit or the watch (Ctrl-C) before a solution: the boards done so far are
        // kept, so that the same command goes on from here rather than from the last timed save
        if let (None, true, Some(p)) = (first, limit_hit, &progress) {
            save(p)?;
        }
        for d in &done[..first.map_or(done.len(), |f| f + 1)] {
            stats.generated += d.1;
            stats.expanded += d.2;
            next_bound = next_bound.min(d.3);
        }
        if let Some(f) = first {
            let (at, .., below) = &done[f];
            let mut path = path_to(stored, frontier[order[*at]].2 as usize);
            path.extend(below.iter().flatten());
            return finish(path, stats, kept);
        }
        watched(options, stats.generated)?;
        within_limit(options, sh.deadline, stats.generated, limit_hit, bytes(kept), "astar-ida")?;
        if next_bound == u32::MAX {
            return Ok(None);
        }
        bound = next_bound;
        (resume_at, carried_next) = (0, u32::MAX);
        if let Some((c, print)) = &checkpoint {
            iteration_start(print, bound, &stats, prior + began.elapsed().as_secs_f64()).save(&c.path)?;
        }
    }
}

/// A checkpoint of the search `fingerprint` about to begin the iteration at `bound`, with `stats`
/// so far, after `seconds` in all.
fn iteration_start(fingerprint: &str, bound: u32, stats: &Stats, seconds: f64) -> Saved {
    Saved {
        fingerprint: fingerprint.to_string(),
        bound,
        done: 0,
        generated: stats.generated,
        expanded: stats.expanded,
        next: u32::MAX,
        iterations: stats.iterations,
        seconds,
    }
}

/// The frontier boards an A*+IDA* iteration has searched in full, for its checkpoint: a prefix
/// of the iteration's order, and the boards done past it (the workers finish out of order).
struct Progress {
    /// The boards at positions below this are done.
    done: usize,
    /// Those done past the prefix: position, then generated, expanded and next bound.
    pending: BTreeMap<usize, (u64, u64, u32)>,
    /// The counts of the prefix (since the iteration began or was resumed).
    generated: u64,
    expanded: u64,
    next: u32,
    saved_at: Instant,
    /// A save that failed: the search stops with it.
    error: Option<Error>,
}

impl Progress {
    /// Board `at` is done with these counts; true when the prefix grew.
    fn record(&mut self, at: usize, generated: u64, expanded: u64, next: u32) -> bool {
        self.pending.insert(at, (generated, expanded, next));
        let before = self.done;
        while let Some((g, e, nb)) = self.pending.remove(&self.done) {
            self.generated += g;
            self.expanded += e;
            self.next = self.next.min(nb);
            self.done += 1;
        }
        self.done > before
    }
}

/// What makes an A*+IDA* search the one a checkpoint was saved by: the start and goal, the
/// tables (the partitions, zero-aware or not, reflected or not), the pruning, the order, and
/// A*'s frontier (every board with its f and h, in order: the budget and the tables' values
/// decide it).
fn fingerprint(
    sh: &Shared<'_>,
    set: &PatternSet,
    options: &Options,
    keys: &[u128],
    frontier: &[(u32, u32, u32)],
) -> String {
    let mut hash = FNV_START;
    for &(f, h, i) in frontier {
        let bytes = keys[i as usize].to_le_bytes().into_iter().chain(f.to_le_bytes()).chain(h.to_le_bytes());
        hash = fnv(bytes, hash);
    }
    format!("{} frontier={}:{:016x}", fingerprint_head(sh, set, options, keys[0]), frontier.len(), hash)
}

/// The part of [`fingerprint`] known before A*: all but the frontier.
fn fingerprint_head(sh: &Shared<'_>, set: &PatternSet, options: &Options, start: u128) -> String {
    let mut tables = format!("{:?}", set.partition());
    for t in &sh.tables {
        tables.push(if t.zero().is_some() { 'z' } else { 'c' });
    }
    format!(
        "start={:x} goal={:x} tables={:016x}/{} prune={} order={:?} known={}",
        start,
        pack(&sh.goal[..sh.n]),
        fnv(tables.bytes(), FNV_START),
        sh.views,
        sh.fsm.max_len(),
        options.order,
        sh.known_depth,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::pdb::Partition;
    use crate::lab::sample::SplitMix64;
    use crate::table::pattern::build_zero_pattern;

    /// A board `moves` random moves from `goal`.
    fn walk(goal: &Board, moves: usize, rng: &mut SplitMix64) -> Board {
        let mut b = goal.clone();
        for _ in 0..moves {
            let dirs: Vec<Dir> = Dir::ALL.iter().copied().filter(|&d| b.clone().apply(d).is_some()).collect();
            b.apply(dirs[rng.below(dirs.len() as u64) as usize]).unwrap();
        }
        b
    }

    /// The 15-puzzle's blank-first goal and its 5-5-5 zero-aware tables (bits, reflected), built
    /// in memory.
    fn zero_555() -> (Board, PatternSet) {
        let shape = crate::puzzle::board::Shape::new(4, 4).unwrap();
        let goal = crate::puzzle::goal::Goal::parse(shape, "blank-first").unwrap().board(shape).unwrap();
        let part = Partition::parse(&goal, "5-5-5").unwrap();
        let tables = part
            .own_tables()
            .iter()
            .map(|&g| {
                GroupTable::from_table(&build_zero_pattern(&goal, &part.groups[g], true, |_| {}).unwrap()).unwrap()
            })
            .collect();
        let set = PatternSet::new(&goal, part, tables, true).unwrap();
        (goal, set)
    }

    /// A*+IDA* dropping the boards A* holds: the same lengths as without, fewer nodes in all, the
    /// counts and solutions of one thread on two.
    #[test]
    fn dropping_the_boards_astar_holds_keeps_the_length_and_saves_nodes() {
        let (goal, set) = zero_555();
        let mut rng = SplitMix64::new(64);
        let (mut with, mut without) = (0u64, 0u64);
        for moves in [30, 100, 100, 150] {
            let start = walk(&goal, moves, &mut rng);
            let options = Options { max_bytes: Some(20_000), ..Options::new(super::super::Algorithm::AStarIda) };
            let plain = astar_ida_known(&start, &set, &options, 1, 0).unwrap().unwrap();
            for depth in [KNOWN_DEPTH, 1000] {
                let one = astar_ida_known(&start, &set, &options, 1, depth).unwrap().unwrap();
                let two = astar_ida_known(&start, &set, &options, 2, depth).unwrap().unwrap();
                assert_eq!(one.0.len(), plain.0.len(), "{start} depth {depth}");
                let mut b = start.clone();
                one.0.iter().for_each(|&d| {
                    b.apply(d).unwrap();
                });
                assert_eq!(b, goal);
                assert_eq!((&two.0, two.1.generated, two.1.expanded), (&one.0, one.1.generated, one.1.expanded));
                if depth == KNOWN_DEPTH {
                    with += one.1.expanded;
                    without += plain.1.expanded;
                }
            }
        }
        assert!(with < without, "{with} expanded with the boards dropped, {without} without");
    }

    #[test]
    fn a_frontier_keeps_the_length_and_the_counts_of_one_thread() {
        let (goal, set) = zero_555();
        let mut rng = SplitMix64::new(62);
        let mut split = 0;
        // short walks too, whose solution can lie above the frontier
        for moves in [12, 30, 80, 80, 80, 80, 80, 80] {
            let start = walk(&goal, moves, &mut rng);
            for order in [ChildOrder::ByEstimate, ChildOrder::Fixed] {
                let options = Options { order, ..Options::new(super::super::Algorithm::IdaStar) };
                let whole = idastar_cut(&start, &set, &options, 1, 64, u64::MAX).unwrap().unwrap();
                for (frontier, after) in [(16, 0), (64, 200), (1000, 50), (100_000, 0)] {
                    let one = idastar_cut(&start, &set, &options, 1, frontier, after).unwrap().unwrap();
                    // optimal, and a solution
                    assert_eq!(one.0.len(), whole.0.len(), "{start}");
                    let mut b = start.clone();
                    one.0.iter().for_each(|&d| {
                        b.apply(d).unwrap();
                    });
                    assert_eq!(b, goal);
                    if order == ChildOrder::Fixed {
                        // the search's own order: the counts of the search without a frontier
                        assert_eq!((one.1.generated, one.1.expanded), (whole.1.generated, whole.1.expanded));
                        assert_eq!(one.0, whole.0);
                    } else if one.1.generated != whole.1.generated {
                        split += 1;
                    }
                    for threads in [2, 3] {
                        let many = idastar_cut(&start, &set, &options, threads, frontier, after).unwrap().unwrap();
                        assert_eq!(
                            (&many.0, many.1.generated, many.1.expanded, many.1.iterations),
                            (&one.0, one.1.generated, one.1.expanded, one.1.iterations),
                            "{start} {order:?} {frontier} on {threads} threads"
                        );
                    }
                }
            }
        }
        // the order by estimate changed the last iteration's counts somewhere
        assert!(split > 0);
    }

    #[test]
    fn a_node_limit_inside_a_cut_iteration_is_never_a_wrong_answer() {
        let (goal, set) = zero_555();
        let mut rng = SplitMix64::new(7);
        let (mut limited, mut solved) = (0, 0);
        for _ in 0..3 {
            let start = walk(&goal, 80, &mut rng);
            let free = Options::new(super::super::Algorithm::IdaStar);
            let whole = idastar_cut(&start, &set, &free, 1, 16, 0).unwrap().unwrap();
            let total = whole.1.generated;
            for (limit, frontier, threads) in (1..=10)
                .map(|k| total * k / 10)
                .chain([total - 1])
                .flat_map(|l| [(l, 16, 1), (l, 16, 2), (l, 100_000, 1), (l, 100_000, 2)])
            {
                {
                    let options = Options { max_nodes: Some(limit), ..free.clone() };
                    match idastar_cut(&start, &set, &options, threads, frontier, 0) {
                        Err(Error::SearchLimit { .. }) => limited += 1,
                        Ok(Some((moves, _))) => {
                            assert_eq!(moves.len(), whole.0.len(), "{start} limit {limit}");
                            solved += 1;
                        }
                        other => panic!("{start} limit {limit} on {threads} threads: {other:?}"),
                    }
                }
            }
            // a limit of the search's own count is not reached
            let options = Options { max_nodes: Some(total + 1_000_000), ..free.clone() };
            assert_eq!(idastar_cut(&start, &set, &options, 2, 16, 0).unwrap().unwrap().0, whole.0);
        }
        assert!(limited > 0 && solved > 0, "{limited} {solved}");
    }

    /// Random 25-cell boards, packed.
    fn keys(count: usize, seed: u64) -> Vec<u128> {
        let mut rng = SplitMix64::new(seed);
        (0..count)
            .map(|_| {
                let mut cells: Vec<u8> = (0..25).collect();
                for i in (1..25).rev() {
                    cells.swap(i, rng.below(i as u64 + 1) as usize);
                }
                pack(&cells)
            })
            .collect()
    }

    #[test]
    fn pack_and_unpack_round_trip() {
        for key in keys(100, 1) {
            assert_eq!(pack(&unpack(key, 25)[..25]), key);
        }
        let cells = [3u8, 0, 1, 2];
        assert_eq!(unpack(pack(&cells), 4)[..4], cells);
    }

    /// The hash table finds every board put in it, through many doublings, and its size is the
    /// one the budget counts.
    #[test]
    fn seen_finds_every_board_it_holds() {
        let all = keys(50_000, 2);
        let mut seen = Seen::new();
        let mut stored: Vec<u128> = Vec::new();
        for &key in &all {
            let (at, found) = seen.find(key, |j| stored[j as usize]);
            assert_eq!(found, None);
            stored.push(key);
            seen.set(at, key, stored.len() as u32 - 1);
            assert_eq!(8 * seen.slots.len() as u64, Seen::bytes(stored.len()));
        }
        for (i, &key) in all.iter().enumerate() {
            assert_eq!(seen.find(key, |j| stored[j as usize]).1, Some(i as u32));
        }
        // a record replaced in its slot is found instead of the old one
        let (at, found) = seen.find(all[7], |j| stored[j as usize]);
        assert_eq!(found, Some(7));
        stored.push(all[7]);
        seen.set(at, all[7], stored.len() as u32 - 1);
        assert_eq!(seen.find(all[7], |j| stored[j as usize]).1, Some(stored.len() as u32 - 1));
        for key in keys(1000, 3) {
            assert_eq!(seen.find(key, |j| stored[j as usize]).1, None);
        }
    }

    /// The open list gives its records by f, then h, the last pushed first among equals, and
    /// leaves the rest to the frontier.
    #[test]
    fn open_list_is_ordered_by_f_then_h() {
        let mut rng = SplitMix64::new(4);
        let mut open = Open::new();
        let mut want = Vec::new();
        for i in 0..2000u32 {
            let (f, h) = (40 + rng.below(30) as u32, rng.below(40) as u32);
            open.push(f, h, i);
            want.push((f, h, std::cmp::Reverse(i)));
        }
        want.sort();
        for &(f, h, std::cmp::Reverse(i)) in &want[..1500] {
            assert_eq!(open.peek(), Some((h, i)), "f {f}");
            open.pop();
        }
        assert_eq!(open.len, 500);
        let mut rest: Vec<(u32, u32, u32)> = open.into_entries().collect();
        rest.sort();
        let mut left: Vec<(u32, u32, u32)> = want[1500..].iter().map(|&(f, h, r)| (f, h, r.0)).collect();
        left.sort();
        assert_eq!(rest, left);
    }
}
