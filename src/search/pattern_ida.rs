//! IDA* guided by additive pattern databases, the fast path behind [`super::solve`] when the
//! guide is a [`PatternSet`] and the algorithm IDA*.
//!
//! Each group keeps its tiles' cells in rank order, so a move (which moves one tile) changes one
//! group's rank: one table lookup, and one more in the reflected board when that lookup is on
//! (the tile's image under the transpose moves in its own group). The children of a node have
//! their ranks computed and their entries prefetched before any is examined, so the table misses
//! overlap. Nothing is allocated in the search.
//!
//! Nodes are counted as in [`super`]: the start is generated; every child is generated when it is
//! examined, whether or not the bound then prunes it, so the siblings after a solution are not;
//! the move back to the parent is never made; every iteration counts again. With
//! [`ChildOrder::Fixed`] the children are tried in the order up, left, right, down (the blank's
//! moves), and the counts are those of Korf & Felner's published runs: on the 24-puzzle with the
//! 6-6-6-6 tables and the reflected lookup, instance 40 generates 65,099,578 nodes there and
//! 65,099,579 here (the start is counted here).
//! [`ChildOrder::ByEstimate`] (the default) tries the children with the lowest estimate first
//! (ties: the lower sum of the board's and the reflection's sums), which in the last iteration
//! usually meets the solution sooner.
//!
//! With `threads > 1`, each iteration first expands the tree breadth-first to a small depth (the
//! nodes within the bound) and hands those subtrees to rayon's workers; the first solution found
//! stops the others. Any solution found in an iteration is optimal (its length is the bound), but
//! the nodes counted in the last iteration then depend on timing.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use rayon::prelude::*;

use super::{ChildOrder, Options, Stats, Watch};
use crate::error::Error;
use crate::heuristic::pdb::{GroupTable, PatternSet};
use crate::index::pattern::MAX_GROUP;
use crate::index::zero::ZeroIndex;
use crate::memory::prefetch;
use crate::puzzle::board::{Board, Dir};
use crate::search::prune::{MovePruner, FORBIDDEN};
use crate::table::pattern::{zero_bit, zero_bit_step};

/// The most cells of a board this search handles (cells are `u8`, tiles are `u8`).
const MAX_CELLS: usize = 64;

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
    /// Where the entry of the group on `cells` (set `mask`, blank on `blank`) is.
    #[inline(always)]
    fn slot(&self, mask: u64, cells: &[u8; MAX_GROUP], blank: u8) -> usize {
        match self.zero {
            None => self.rank(cells),
            Some(z) => z.index_with(mask, &cells[..self.k], blank) as usize,
        }
    }

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
    groups: Vec<Group<'a>>,
    /// The tables themselves, for the start's absolute values.
    tables: &'a [GroupTable],
    /// `place[t]`: tile `t`'s group and its slot, or `(u8::MAX, 0)`.
    place: [(u8, u8); MAX_CELLS],
    /// With the reflected lookup: `rplace[t]`, the group and slot of tile `t`'s image, and
    /// `transpose[c]`, the transposed cell.
    reflect: bool,
    rplace: [(u8, u8); MAX_CELLS],
    transpose: [u8; MAX_CELLS],
    goal: [u8; MAX_CELLS],
    max_nodes: Option<u64>,
    /// Try a node's children in order of their estimate (else up, left, right, down).
    sort: bool,
    /// Nodes generated by every worker before its current batch (for the limit).
    generated: AtomicU64,
    stop: AtomicBool,
    watch: Option<&'a Watch>,
}

/// One depth-first searcher's state.
#[derive(Clone)]
struct Searcher<'s, 'a> {
    sh: &'s Shared<'a>,
    cells: [u8; MAX_CELLS],
    blank: u8,
    /// The cells of each group's tiles, original board and reflected board.
    gcells: Vec<[u8; MAX_GROUP]>,
    rcells: Vec<[u8; MAX_GROUP]>,
    /// The cells of each group's tiles as a set, original and reflected.
    gmask: Vec<u64>,
    rmask: Vec<u64>,
    /// Each group's entry for the board and for its reflection, and their sums.
    vals: Vec<u32>,
    rvals: Vec<u32>,
    sum: u32,
    rsum: u32,
    /// The moves from the start (direction indices).
    path: Vec<u8>,
    generated: u64,
    expanded: u64,
    unchecked: u64,
    bound: u32,
    next_bound: u32,
    limit_hit: bool,
}

impl<'s, 'a> Searcher<'s, 'a> {
    fn new(sh: &'s Shared<'a>, start: &Board) -> Searcher<'s, 'a> {
        let g = sh.groups.len();
        let mut s = Searcher {
            sh,
            cells: [0; MAX_CELLS],
            blank: start.blank() as u8,
            gcells: vec![[0; MAX_GROUP]; g],
            rcells: vec![[0; MAX_GROUP]; g],
            gmask: vec![0; g],
            rmask: vec![0; g],
            vals: vec![0; g],
            rvals: vec![0; g],
            sum: 0,
            rsum: 0,
            path: Vec::with_capacity(256),
            generated: 0,
            expanded: 0,
            unchecked: 0,
            bound: 0,
            next_bound: u32::MAX,
            limit_hit: false,
        };
        for (c, &t) in start.cells().iter().enumerate() {
            s.cells[c] = t as u8;
            let (gi, i) = sh.place[t as usize];
            if gi != u8::MAX {
                s.gcells[gi as usize][i as usize] = c as u8;
                s.gmask[gi as usize] |= 1 << c;
            }
            if sh.reflect {
                let (gi, i) = sh.rplace[t as usize];
                if gi != u8::MAX {
                    s.rcells[gi as usize][i as usize] = sh.transpose[c];
                    s.rmask[gi as usize] |= 1 << sh.transpose[c];
                }
            }
        }
        let rblank = sh.transpose[s.blank as usize];
        for gi in 0..g {
            let k = sh.groups[gi].k;
            s.vals[gi] = sh.tables[gi].value(&s.gcells[gi][..k], s.blank);
            s.sum += s.vals[gi];
            if sh.reflect {
                s.rvals[gi] = sh.tables[gi].value(&s.rcells[gi][..k], rblank);
                s.rsum += s.rvals[gi];
            }
        }
        s
    }

    #[inline(always)]
    fn h(&self) -> u32 {
        self.sum.max(self.rsum)
    }

    fn is_goal(&self) -> bool {
        self.cells[..self.sh.n] == self.sh.goal[..self.sh.n]
    }

    /// Slides the tile on `to` onto the blank; returns what [`Searcher::undo`] needs.
    #[inline(always)]
    fn apply(&mut self, to: u8, new_val: u32, new_rval: u32) -> (u8, u32, u32) {
        let sh = self.sh;
        let from = self.blank;
        let tile = self.cells[to as usize];
        self.cells[from as usize] = tile;
        self.cells[to as usize] = 0;
        self.blank = to;
        let (gi, i) = sh.place[tile as usize];
        let mut old = 0;
        let mut rold = 0;
        if gi != u8::MAX {
            self.gcells[gi as usize][i as usize] = from;
            self.gmask[gi as usize] ^= 1 << from | 1 << to;
            old = self.vals[gi as usize];
            self.vals[gi as usize] = new_val;
            self.sum = self.sum - old + new_val;
        }
        if sh.reflect {
            let (gi, i) = sh.rplace[tile as usize];
            if gi != u8::MAX {
                self.rcells[gi as usize][i as usize] = sh.transpose[from as usize];
                self.rmask[gi as usize] ^= 1 << sh.transpose[from as usize] | 1 << sh.transpose[to as usize];
                rold = self.rvals[gi as usize];
                self.rvals[gi as usize] = new_rval;
                self.rsum = self.rsum - rold + new_rval;
            }
        }
        (from, old, rold)
    }

    #[inline(always)]
    fn undo(&mut self, to: u8, (from, old, rold): (u8, u32, u32)) {
        let sh = self.sh;
        let tile = self.cells[from as usize];
        self.cells[to as usize] = tile;
        self.cells[from as usize] = 0;
        self.blank = from;
        let (gi, i) = sh.place[tile as usize];
        if gi != u8::MAX {
            self.gcells[gi as usize][i as usize] = to;
            self.gmask[gi as usize] ^= 1 << from | 1 << to;
            self.sum = self.sum - self.vals[gi as usize] + old;
            self.vals[gi as usize] = old;
        }
        if sh.reflect {
            let (gi, i) = sh.rplace[tile as usize];
            if gi != u8::MAX {
                self.rcells[gi as usize][i as usize] = sh.transpose[to as usize];
                self.rmask[gi as usize] ^= 1 << sh.transpose[from as usize] | 1 << sh.transpose[to as usize];
                self.rsum = self.rsum - self.rvals[gi as usize] + rold;
                self.rvals[gi as usize] = rold;
            }
        }
    }

    /// The entries (original, reflected) after the tile on `to` slides onto the blank, and the
    /// resulting estimate.
    #[inline(always)]
    fn child_entries(&mut self, to: u8) -> (u32, u32, usize, usize) {
        let sh = self.sh;
        let from = self.blank;
        let tile = self.cells[to as usize];
        let (gi, i) = sh.place[tile as usize];
        let mut r = usize::MAX;
        if gi != u8::MAX {
            let grp = &sh.groups[gi as usize];
            let mask = self.gmask[gi as usize] ^ (1 << from | 1 << to);
            let cells = &mut self.gcells[gi as usize];
            cells[i as usize] = from;
            r = grp.slot(mask, cells, to);
            cells[i as usize] = to;
            grp.prefetch(r);
        }
        let mut rr = usize::MAX;
        if sh.reflect {
            let (gj, j) = sh.rplace[tile as usize];
            if gj != u8::MAX {
                let grp = &sh.groups[gj as usize];
                let (tf, tt) = (sh.transpose[from as usize], sh.transpose[to as usize]);
                let mask = self.rmask[gj as usize] ^ (1 << tf | 1 << tt);
                let cells = &mut self.rcells[gj as usize];
                cells[j as usize] = tf;
                rr = grp.slot(mask, cells, tt);
                cells[j as usize] = tt;
                grp.prefetch(rr);
            }
        }
        (gi as u32, sh.rplace[tile as usize].0 as u32, r, rr)
    }

    /// The entries at the slots [`Searcher::child_entries`] gave (0 where no table is touched),
    /// 1-bit tables read against this node's own entries.
    #[inline(always)]
    fn child_values(&self, gi: u32, gj: u32, r: usize, rr: usize) -> (u32, u32) {
        let groups = &self.sh.groups;
        let val = if r != usize::MAX { groups[gi as usize].read(r, self.vals[gi as usize]) } else { 0 };
        let rval = if rr != usize::MAX { groups[gj as usize].read(rr, self.rvals[gj as usize]) } else { 0 };
        (val, rval)
    }

    /// Depth-first search below the current node at cost `g`, the move-pruning machine in
    /// `state`. True when the goal is found (the path then holds the solution).
    fn dfs(&mut self, g: u32, state: u32) -> bool {
        let sh = self.sh;
        let (moves, len) = sh.nbr[self.blank as usize];
        self.expanded += 1;
        // ranks of all children first, so their table entries load in parallel
        let mut pending = [(0u8, 0u8, 0u32, 0u32, 0usize, 0usize, 0u32); 4];
        let mut count = 0;
        for &(dir, to) in &moves[..len as usize] {
            let next = sh.fsm.next(state, dir as usize);
            if next == FORBIDDEN {
                continue;
            }
            let (gi, gj, r, rr) = self.child_entries(to);
            pending[count] = (dir, to, gi, gj, r, rr, next);
            count += 1;
        }
        self.unchecked += count as u64;
        if self.unchecked >= CHECK_EVERY && self.check_limits() {
            return false;
        }
        // the children's estimates, then the children in order of estimate: in the last
        // iteration the solution tends to be met sooner (in the others every child within the
        // bound is searched whatever the order)
        let mut order = [(0u32, 0u32, 0u32, 0usize); 4];
        for (slot, &(_, _, gi, gj, r, rr, _)) in order.iter_mut().zip(&pending[..count]) {
            let (new_val, new_rval) = self.child_values(gi, gj, r, rr);
            let (mut sum, mut rsum) = (self.sum, self.rsum);
            if r != usize::MAX {
                sum = sum - self.vals[gi as usize] + new_val;
            }
            if rr != usize::MAX {
                rsum = rsum - self.rvals[gj as usize] + new_rval;
            }
            // by the estimate, then by the two sums together: both bound the distance, so the
            // smaller total suggests the nearer child
            *slot = ((sum.max(rsum) << 8) | (sum + rsum).min(255), new_val, new_rval, 0);
        }
        for (i, o) in order.iter_mut().enumerate().take(count) {
            o.3 = i;
        }
        if sh.sort {
            order[..count].sort_unstable_by_key(|o| o.0);
        }
        for &(key, new_val, new_rval, i) in &order[..count] {
            let h = key >> 8;
            // counted as examined, so siblings after a solution are not (Korf's rule)
            self.generated += 1;
            let (dir, to, .., next) = pending[i];
            let f = g + 1 + h;
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            let saved = self.apply(to, new_val, new_rval);
            self.path.push(dir);
            if (self.h() == 0 && self.is_goal()) || self.dfs(g + 1, next) {
                return true;
            }
            self.path.pop();
            self.undo(to, saved);
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
        if self.sh.stop.load(Relaxed) || self.sh.max_nodes.is_some_and(|m| total > m) {
            self.limit_hit = true;
        }
        self.limit_hit
    }
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
    let began = Instant::now();
    let shape = start.shape();
    let n = shape.cells();
    if n > MAX_CELLS {
        return Err(Error::BadShape(format!("{shape}: pattern-database search goes up to {MAX_CELLS} cells")));
    }
    let mut place = [(u8::MAX, 0u8); MAX_CELLS];
    for (t, p) in set.group_of().iter().enumerate() {
        if let Some((g, i)) = p {
            place[t] = (*g as u8, *i as u8);
        }
    }
    let mut rplace = [(u8::MAX, 0u8); MAX_CELLS];
    let mut transpose = [0u8; MAX_CELLS];
    let reflect = set.reflection().is_some();
    if let Some(sigma) = set.reflection() {
        for t in 0..n {
            rplace[t] = place[sigma[t] as usize];
        }
        let side = shape.rows();
        for (c, tc) in transpose.iter_mut().enumerate().take(n) {
            *tc = ((c % side) * side + c / side) as u8;
        }
    }
    let mut goal = [0u8; MAX_CELLS];
    for (c, &t) in set.goal().cells().iter().enumerate() {
        goal[c] = t as u8;
    }
    let groups = set
        .tables()
        .iter()
        .map(|t| {
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
    let parent_only;
    let fsm = match options.prune.as_deref() {
        Some(m) if m.shape() == shape => m,
        Some(m) => {
            return Err(Error::BadShape(format!(
                "a move-pruning machine for {} cannot prune a search on {shape}",
                m.shape()
            )))
        }
        None => {
            parent_only = MovePruner::generate(shape, 2)?;
            &parent_only
        }
    };
    let sh = Shared {
        n,
        nbr,
        fsm,
        groups,
        tables: set.tables(),
        place,
        reflect,
        rplace,
        transpose,
        goal,
        max_nodes: options.max_nodes,
        sort: options.order == ChildOrder::ByEstimate,
        generated: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        watch: options.watch.as_deref(),
    };
    let root = Searcher::new(&sh, start);
    let mut stats = Stats { generated: 1, ..Stats::default() };
    if root.is_goal() {
        stats.elapsed = began.elapsed();
        return Ok(Some((Vec::new(), stats)));
    }
    let mut bound = root.h();
    loop {
        stats.iterations += 1;
        let (found, generated, expanded, next) =
            if threads > 1 { iterate_parallel(&root, bound, threads) } else { iterate(&root, bound) };
        stats.generated += generated;
        stats.expanded += expanded;
        if let Some(watch) = &options.watch {
            watch.set_generated(stats.generated);
            if watch.is_cancelled() {
                return Err(Error::Cancelled { generated: stats.generated });
            }
        }
        if let Some(path) = found {
            stats.peak_open = path.len() as u64;
            stats.stored = stats.peak_open;
            stats.peak_bytes = (std::mem::size_of::<Searcher>() + 256 + 64 * sh.groups.len()) as u64 * threads as u64;
            stats.elapsed = began.elapsed();
            return Ok(Some((path.iter().map(|&d| Dir::ALL[d as usize]).collect(), stats)));
        }
        if let Some(max) = options.max_nodes {
            if stats.generated > max {
                return Err(Error::SearchLimit {
                    what: format!("the limit of {max} nodes"),
                    generated: stats.generated,
                    bytes: 0,
                    algorithm: "idastar",
                });
            }
        }
        if next == u32::MAX {
            return Ok(None); // every branch ended: cannot happen for a solvable board
        }
        bound = next;
    }
}

/// One iteration on this thread: (solution, generated, expanded, next bound).
fn iterate(root: &Searcher<'_, '_>, bound: u32) -> (Option<Vec<u8>>, u64, u64, u32) {
    let mut s = root.clone();
    s.bound = bound;
    s.next_bound = u32::MAX;
    let found = s.dfs(0, root.sh.fsm.root(root.blank as usize));
    (found.then(|| s.path.clone()), s.generated, s.expanded, s.next_bound)
}

/// One iteration with the subtrees below a breadth-first frontier searched in parallel.
fn iterate_parallel(root: &Searcher<'_, '_>, bound: u32, threads: usize) -> (Option<Vec<u8>>, u64, u64, u32) {
    let sh = root.sh;
    sh.stop.store(false, Relaxed);
    // frontier: the nodes at the first depth that has enough of them, within the bound
    let mut frontier: Vec<Searcher> = vec![root.clone()];
    let mut states: Vec<u32> = vec![sh.fsm.root(root.blank as usize)];
    let (mut generated, mut expanded) = (0u64, 0u64);
    let mut next_bound = u32::MAX;
    let mut depth = 0u32;
    while frontier.len() < threads * 16 && depth < 12 {
        let mut next = Vec::new();
        let mut next_states = Vec::new();
        for (node, &state) in frontier.iter().zip(&states) {
            expanded += 1;
            let (moves, len) = sh.nbr[node.blank as usize];
            for &(dir, to) in &moves[..len as usize] {
                let next_state = sh.fsm.next(state, dir as usize);
                if next_state == FORBIDDEN {
                    continue;
                }
                generated += 1;
                let mut child = node.clone();
                let (gi, gj, r, rr) = child.child_entries(to);
                let (new_val, new_rval) = child.child_values(gi, gj, r, rr);
                child.apply(to, new_val, new_rval);
                child.path.push(dir);
                let f = depth + 1 + child.h();
                if f > bound {
                    next_bound = next_bound.min(f);
                    continue;
                }
                if child.h() == 0 && child.is_goal() {
                    return (Some(child.path), generated, expanded, next_bound);
                }
                next.push(child);
                next_states.push(next_state);
            }
        }
        if next.is_empty() {
            return (None, generated, expanded, next_bound);
        }
        frontier = next;
        states = next_states;
        depth += 1;
    }
    let results: Vec<(Option<Vec<u8>>, u64, u64, u32)> = frontier
        .into_par_iter()
        .zip(states)
        .with_max_len(1)
        .map(|(mut s, state)| {
            if sh.stop.load(Relaxed) {
                return (None, 0, 0, u32::MAX);
            }
            s.bound = bound;
            s.next_bound = u32::MAX;
            s.generated = 0;
            s.expanded = 0;
            let found = s.dfs(depth, state);
            if found {
                sh.stop.store(true, Relaxed);
            }
            (found.then(|| s.path.clone()), s.generated, s.expanded, s.next_bound)
        })
        .collect();
    let mut solution = None;
    for (found, g, e, nb) in results {
        generated += g;
        expanded += e;
        next_bound = next_bound.min(nb);
        if solution.is_none() {
            solution = found;
        }
    }
    (solution, generated, expanded, next_bound)
}
