//! The search engine behind [`super::solve`]: the board, goal and guide with the tables the moves
//! and estimates use, and the A* family and IDA* over them.

use std::time::Instant;

use super::open::{FOpen, Open};
use super::store::{Dense, HashSlots, Sparse, Store};
use super::{with_parity, Algorithm, Found, Guide, Options, Stats};
use crate::error::Error;
use crate::heuristic::Estimator;
use crate::puzzle::board::{Board, Dir};

/// A tile as stored in the arena.
pub(super) trait Tile: crate::heuristic::Tile + Eq + Default + std::fmt::Debug + 'static {
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
pub(super) fn key(tile: usize, cell: usize) -> u64 {
    let mut z = ((tile as u64) << 32 | cell as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The Zobrist hash of a whole board: the keys of its tiles on their cells, the blank's included.
pub(super) fn board_hash<T: Tile>(cells: &[T]) -> u64 {
    cells.iter().enumerate().fold(0u64, |z, (cell, t)| z ^ key(t.get(), cell))
}

/// The board, its goal and the guide, with the tables the moves and estimates use.
pub(super) struct Space<'a, T: Tile> {
    shape: crate::puzzle::board::Shape,
    n: usize,
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
    /// When the search began, for [`Options::time_limit`].
    began: Instant,
    /// A solution the bounded search starts from ([`Space::seeded`]).
    seed: Option<Vec<Dir>>,
    /// Whether the seed is a searched one (a beam's), worth proving, not only a fallback.
    seed_searched: bool,
    /// The nodes the seed's search generated, counted against [`Options::max_nodes`].
    earlier: u64,
    /// The bounded search's weight of `h` in its aggressive order, in thousandths: `2w - 1` to
    /// begin with (optimistic search), lowered toward 1 by each better solution of an anytime
    /// search (as ARA* lowers its weight).
    aggressive: u64,
}

/// What the A* family found: the moves, the proven lower bound, and the limit that stopped a
/// bounded search before its proof (see [`Found`]).
#[derive(Debug, PartialEq)]
pub(super) struct Outcome {
    moves: Vec<Dir>,
    lower_bound: Option<u32>,
    stopped: Option<String>,
}

/// One node of the A* family.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) hash: u64,
    pub(super) parent: u32,
    pub(super) g: u32,
    pub(super) h: u32,
    pub(super) blank: u32,
    /// The move from the parent (index in [`Dir::ALL`]), or 4 for the start.
    pub(super) dir: u8,
    pub(super) closed: bool,
}

pub(super) const NO_DIR: u8 = 4;

/// The bounded search's best solution when it is the seed's, not a node's.
const SEED: u32 = u32::MAX;

impl<'a, T: Tile> Space<'a, T> {
    pub(super) fn new(start: &Board, goal: &Board, guide: Guide<'a>, options: &Options) -> Space<'a, T> {
        let shape = start.shape();
        let n = shape.cells();
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
            start: start.cells().iter().map(|&t| T::of(t)).collect(),
            start_blank: start.blank(),
            goal: goal.cells().iter().map(|&t| T::of(t)).collect(),
            est: Estimator::new(goal),
            nbr,
            guide,
            options: options.clone(),
            stats: Stats { iterations: 1, ..Stats::default() },
            fault: std::cell::Cell::new(None),
            began: Instant::now(),
            seed: None,
            seed_searched: false,
            earlier: 0,
            aggressive: match options.algorithm {
                Algorithm::Within(w) => ((2.0 * w - 1.0) * 1000.0).round() as u64,
                _ => 1000,
            },
        }
    }

    /// The same space, its bounded search ([`Algorithm::Within`]) starting with `moves` (a
    /// solution from elsewhere, such as [`super::reduce`]) as its best solution, so the search
    /// can return it, or a shorter one, at any limit; for [`Algorithm::Reduce`], the solution.
    pub(super) fn seeded(mut self, moves: Option<Vec<Dir>>) -> Self {
        self.seed = moves;
        self
    }

    /// The same space, its seed marked as a searched solution (a beam's) rather than the
    /// constructive fallback: the bounded search then also raises its bound before it has a
    /// solution of its own, since the seed may need only the proof.
    pub(super) fn searched_seed(mut self, searched: bool) -> Self {
        self.seed_searched = searched;
        self
    }

    /// The same space, its time limit counted from `began` (when the seed's search began) and
    /// its node limit with the `generated` nodes the seed's search made.
    pub(super) fn since(mut self, began: Instant, generated: u64) -> Self {
        self.began = began;
        self.earlier = generated;
        self
    }

    pub(super) fn run(mut self) -> Result<Option<Found>, Error> {
        let outcome = match self.options.algorithm {
            Algorithm::IdaStar => {
                let admissible = self.guide.is_admissible();
                self.idastar()?.map(|moves| Outcome {
                    lower_bound: admissible.then_some(moves.len() as u32),
                    moves,
                    stopped: None,
                })
            }
            Algorithm::Reduce => {
                let moves = self.seed.take().ok_or_else(|| Error::Internal("reduce found no solution".into()))?;
                let h0 = self.estimate(&self.start)?;
                if let Some(e) = self.fault.take() {
                    return Err(e);
                }
                let len = moves.len() as u32;
                let lower_bound = (self.guide.is_admissible() && !self.blind()).then(|| super::with_parity(h0, len));
                Some(Outcome { moves, lower_bound, stopped: None })
            }
            _ => self.best_first()?,
        };
        Ok(outcome.map(|o| Found { moves: o.moves, stats: self.stats, lower_bound: o.lower_bound, stopped: o.stopped }))
    }

    /// Whether `h` is identically zero (breadth-first).
    pub(super) fn blind(&self) -> bool {
        self.options.algorithm == Algorithm::Bfs
    }

    /// The guide's estimate of `cells`, from scratch.
    pub(super) fn estimate(&self, cells: &[T]) -> Result<u32, Error> {
        if self.blind() {
            return Ok(0);
        }
        self.guide.estimate(&self.est, cells)
    }

    /// The estimate after the tile on `to` slides onto the blank at `blank`, from the estimate
    /// `h` before. `cells` is the board before the move; it is the same again on return. A table
    /// guide's error is left in `fault` (and 0 returned); the searches check it per expansion.
    #[inline]
    pub(super) fn estimate_after(&self, cells: &mut [T], blank: usize, to: usize, h: u32) -> u32 {
        if self.blind() {
            return 0;
        }
        if let Guide::Heuristic(kind) = self.guide {
            if let Some(e) = self.est.after(kind, cells, blank, to, h) {
                return e;
            }
        }
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

    /// The node limit's error, the time limit's, or [`Error::Cancelled`] once the watch is
    /// stopped (the watch and the clock are looked at every 1024 expansions, when the watch also
    /// hears the node count).
    pub(super) fn check_nodes(&self) -> Result<(), Error> {
        if self.stats.expanded.is_multiple_of(1024) {
            if let Some(watch) = &self.options.watch {
                watch.set_generated(self.stats.generated);
                if watch.is_cancelled() {
                    return Err(Error::Cancelled { generated: self.stats.generated });
                }
            }
            if let Some(limit) = self.options.time_limit.filter(|&t| self.began.elapsed() > t) {
                return Err(self.limit_error(format!("the time limit of {}", seconds(limit))));
            }
        }
        if let Some(m) = self.options.max_nodes.filter(|&m| self.stats.generated + self.earlier > m) {
            return Err(self.limit_error(nodes_limit(m)));
        }
        Ok(())
    }

    pub(super) fn limit_error(&self, what: String) -> Error {
        Error::SearchLimit {
            what,
            generated: self.stats.generated,
            bytes: self.stats.peak_bytes,
            algorithm: self.options.algorithm.name(),
        }
    }

    // ---- A*, breadth-first, greedy, weighted -------------------------------------------------

    pub(super) fn best_first(&mut self) -> Result<Option<Outcome>, Error> {
        // a board of more than 256 cells takes 2 bytes a cell: keep only its changes from the start
        if self.n > 256 {
            self.best_first_in::<Sparse>()
        } else {
            self.best_first_in::<Dense<T>>()
        }
    }

    /// A*, breadth-first, greedy, weighted A* or the bounded search ([`Algorithm::Within`]),
    /// with the boards kept in a store of kind `S`.
    pub(super) fn best_first_in<S: Store<T>>(&mut self) -> Result<Option<Outcome>, Error> {
        let algorithm = self.options.algorithm;
        let consistent_astar =
            matches!(algorithm, Algorithm::AStar | Algorithm::Bfs) && (self.blind() || self.guide.is_consistent());
        let bounded = matches!(algorithm, Algorithm::Within(_));
        // a search not ordered by f keeps its open nodes by f too: the smallest is its proof
        let proves = !self.blind()
            && self.guide.is_admissible()
            && matches!(algorithm, Algorithm::Weighted(_) | Algorithm::Greedy | Algorithm::Within(_));
        let mut open = if consistent_astar { Open::buckets() } else { Open::heap() };
        let mut arena = S::new(&self.start);
        let mut nodes: Vec<Node> = Vec::with_capacity(1024);
        let mut table = HashSlots::new();

        let mut scratch = self.start.clone();
        let h0 = self.estimate(&scratch)?;
        let mut fopen = FOpen::new(h0);
        let hash0 = board_hash(&scratch);
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
        table.insert(hash0, 0, |id| nodes[id as usize].hash);
        open.push(self.priority(0, h0), 0, 0);
        if proves {
            fopen.push(h0, 0);
        }
        // the bounded search's best solution so far: the goal's node
        let mut incumbent: Option<u32> = None;
        if bounded && h0 == 0 && scratch == self.goal {
            incumbent = Some(0);
        }
        self.stats.generated = 1;
        // a seed is the best solution until the search finds a shorter one; its boards are not
        // stored (a search that meets them would be held to their lengths and led along them)
        let seed = if bounded { self.seed.take().unwrap_or_default() } else { Vec::new() };
        if bounded && incumbent.is_none() && !seed.is_empty() {
            let mut blank = self.start_blank;
            for &dir in &seed {
                let Some(to) = dir.step(self.shape, blank) else {
                    return Err(Error::Internal("a seed solution leaves the board".into()));
                };
                scratch.swap(blank, to);
                blank = to;
            }
            if scratch != self.goal {
                return Err(Error::Internal("a seed solution does not end on the goal".into()));
            }
            scratch.copy_from_slice(&self.start);
            incumbent = Some(SEED);
        }
        // the length and the moves of the best solution: a node's or the seed's
        let len_of =
            |nodes: &Vec<Node>, best: u32| if best == SEED { seed.len() as u32 } else { nodes[best as usize].g };
        let moves_of = |nodes: &Vec<Node>, best: u32| if best == SEED { seed.clone() } else { path(nodes, best) };
        self.stats.peak_open = 1;
        let held = |arena: &S, nodes: &Vec<Node>, table: &HashSlots, open: &Open, fopen: &FOpen| {
            (arena.bytes()
                + nodes.capacity() * std::mem::size_of::<Node>()
                + table.bytes()
                + open.bytes()
                + fopen.bytes()) as u64
        };
        self.stats.peak_bytes = held(&arena, &nodes, &table, &open, &fopen);
        let current = |nodes: &Vec<Node>, i: u32, f: u32| {
            let n = &nodes[i as usize];
            !n.closed && n.g + n.h == f
        };
        // the proof when the best solution has `len` moves: the largest of the start's estimate,
        // the smallest g + h on the open list (at most len), and for weighted A* len / w
        let proof = |fopen: &mut FOpen, nodes: &Vec<Node>, len: u32| -> Option<u32> {
            if !proves {
                return None;
            }
            let fmin = fopen.min(|i, f| current(nodes, i, f)).map_or(len, |(f, _)| f.min(len));
            let mut lb = h0.max(fmin);
            if let Algorithm::Weighted(w) = algorithm {
                // len <= w·C*, with w a whole number of thousandths
                let w = (w * 1000.0).round() as u64;
                if w > 0 {
                    lb = lb.max((len as u64 * 1000).div_ceil(w).min(len as u64) as u32);
                }
            }
            Some(with_parity(lb, len))
        };
        let within = match algorithm {
            Algorithm::Within(w) => (w * 1000.0).round() as u64,
            _ => 0,
        };

        loop {
            let (g, id) = match incumbent {
                Some(best) => {
                    let len = len_of(&nodes, best);
                    let lb = proof(&mut fopen, &nodes, len).unwrap_or(0);
                    if lb >= len || (!self.options.anytime && len as u64 * 1000 <= within * lb as u64) {
                        self.stats.stored = nodes.len() as u64;
                        return Ok(Some(Outcome {
                            moves: moves_of(&nodes, best),
                            lower_bound: Some(lb),
                            stopped: None,
                        }));
                    }
                    // the aggressive list's best while it can still lead to a shorter solution
                    // (optimistic search's rule), else the node whose g + h is the proof
                    loop {
                        match open.peek() {
                            Some((_, g, i)) if nodes[i as usize].closed || nodes[i as usize].g != g => {
                                open.pop();
                            }
                            Some((_, g, i)) if g + nodes[i as usize].h >= len => {
                                open.pop();
                            }
                            _ => break,
                        }
                    }
                    // Until the search has a solution of its own, it is weighted A* (pruned by
                    // the seed's length): a good seed would otherwise stop it before it starts,
                    // the start's own key being past the seed's length. After a searched seed
                    // (a beam's), only every other expansion is: the others raise the bound,
                    // since such a seed may need only its proof.
                    let aggressive = best == SEED && (!self.seed_searched || self.stats.expanded.is_multiple_of(2));
                    match open.peek() {
                        Some((key, g, i)) if key < len as u64 * 1000 || aggressive => {
                            open.pop();
                            (g, i)
                        }
                        _ => match fopen.min(|i, f| current(&nodes, i, f)) {
                            Some((_, i)) => (nodes[i as usize].g, i),
                            None => {
                                // nothing left open: the best solution is optimal
                                self.stats.stored = nodes.len() as u64;
                                return Ok(Some(Outcome {
                                    moves: moves_of(&nodes, best),
                                    lower_bound: Some(len),
                                    stopped: None,
                                }));
                            }
                        },
                    }
                }
                None => match open.pop() {
                    Some(entry) => entry,
                    None => break,
                },
            };
            let node = nodes[id as usize];
            if node.closed || node.g != g {
                continue; // expanded already, or reached more cheaply since this entry was made
            }
            arena.load(id, &mut scratch);
            if !bounded && (node.h == 0 || self.blind()) && scratch == self.goal {
                self.stats.stored = nodes.len() as u64;
                let lower_bound = match algorithm {
                    _ if proves => proof(&mut fopen, &nodes, g),
                    Algorithm::Bfs => Some(g),
                    Algorithm::AStar if self.guide.is_admissible() => Some(g),
                    _ => None,
                };
                return Ok(Some(Outcome { moves: path(&nodes, id), lower_bound, stopped: None }));
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
            let before = incumbent;
            // a bounded search keeps no board that cannot lead to a shorter solution
            let cap = incumbent.map_or(u32::MAX, |best| len_of(&nodes, best));
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
                if bounded && ng + h >= cap {
                    continue;
                }
                scratch.swap(blank, to);
                let changes = arena.changes_after(id, &self.start, &scratch, blank, to);
                let existing = table.find(hash, |i| arena.holds(i, &scratch, changes));
                let reached = match existing {
                    Some(i) if nodes[i as usize].g <= ng => None,
                    Some(i) => {
                        // a cheaper path to a board seen before (inconsistent guides, and the
                        // searches not ordered by f)
                        let e = &mut nodes[i as usize];
                        e.g = ng;
                        e.parent = id;
                        e.dir = dir as u8;
                        e.closed = false;
                        open.push(self.priority(ng, e.h), ng, i);
                        Some((i, e.h))
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
                        table.insert(hash, i, |id| nodes[id as usize].hash);
                        open.push(self.priority(ng, h), ng, i);
                        Some((i, h))
                    }
                };
                if let Some((i, h)) = reached {
                    if proves {
                        fopen.push(ng + h, i);
                    }
                    if bounded && h == 0 && scratch == self.goal && ng < cap {
                        incumbent = Some(i);
                    }
                }
                scratch.swap(blank, to);
            }
            if let Some(e) = self.fault.take() {
                return Err(e);
            }
            if self.options.anytime && incumbent != before && self.aggressive > 1000 {
                // a better solution: the next ones are looked for nearer the optimum, halving
                // the weight's excess over 1 (ARA*'s schedule, Likhachev et al. 2003), the open
                // list ordered again by the new weight
                self.aggressive = match 1000 + (self.aggressive - 1000) / 2 {
                    w if w < 1050 => 1000,
                    w => w,
                };
                open.rekey(|g, i| {
                    let n = &nodes[i as usize];
                    (!n.closed && n.g == g).then(|| self.priority(g, n.h))
                });
            }
            self.stats.peak_open = self.stats.peak_open.max(open.len());
            let bytes = held(&arena, &nodes, &table, &open, &fopen);
            self.stats.peak_bytes = self.stats.peak_bytes.max(bytes);
            let limit = if self.options.max_bytes.is_some_and(|m| bytes > m) {
                Err(self.limit_error(format!("the memory limit of {} bytes", self.options.max_bytes.unwrap_or(0))))
            } else if nodes.len() >= (u32::MAX - 4) as usize {
                // node ids are 32 bits (and the hash slots keep id + 1)
                Err(self.limit_error("the most boards one search can hold (2^32 - 5)".into()))
            } else {
                self.check_nodes()
            };
            match (limit, incumbent) {
                (Ok(()), _) => {}
                // a bounded search that has a solution returns it, with the proof it has
                (Err(Error::SearchLimit { what, .. }), Some(best)) => {
                    self.stats.stored = nodes.len() as u64;
                    let len = len_of(&nodes, best);
                    let lower_bound = proof(&mut fopen, &nodes, len);
                    return Ok(Some(Outcome { moves: moves_of(&nodes, best), lower_bound, stopped: Some(what) }));
                }
                (Err(e), _) => return Err(e),
            }
        }
        // the parity rule said the goal is reachable, and every reachable board was taken off
        // the open list: this cannot happen
        self.stats.stored = nodes.len() as u64;
        Ok(None)
    }

    /// The open-list key of a node: smaller is taken first.
    pub(super) fn priority(&self, g: u32, h: u32) -> u64 {
        match self.options.algorithm {
            Algorithm::AStar | Algorithm::IdaStar | Algorithm::AStarIda | Algorithm::Reduce | Algorithm::Beam(_) => {
                (g + h) as u64
            }
            Algorithm::Bfs => g as u64,
            Algorithm::Greedy => h as u64,
            // fixed point, so ties between g + w·h values are exact for weights with three decimals
            Algorithm::Weighted(w) => g as u64 * 1000 + (w * 1000.0).round() as u64 * h as u64,
            // optimistic search's first solution comes from weight 2w - 1 (Thayer & Ruml)
            Algorithm::Within(_) => g as u64 * 1000 + self.aggressive * h as u64,
        }
    }

    // ---- IDA* --------------------------------------------------------------------------------

    pub(super) fn idastar(&mut self) -> Result<Option<Vec<Dir>>, Error> {
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
                self.check_nodes()?;
            }
            if least == u32::MAX {
                return Ok(None); // every branch ended: cannot happen for a solvable board
            }
            bound = least;
        }
    }
}

/// `the limit of 1000 nodes` (`of 1 node`).
pub(super) fn nodes_limit(m: u64) -> String {
    format!("the limit of {m} node{}", if m == 1 { "" } else { "s" })
}

/// `60 s`, `1.5 s`: a time limit as the user wrote it.
pub(super) fn seconds(d: std::time::Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

/// The moves from the start to node `id`.
pub(super) fn path(nodes: &[Node], mut id: u32) -> Vec<Dir> {
    let mut moves = Vec::with_capacity(nodes[id as usize].g as usize);
    while nodes[id as usize].dir != NO_DIR {
        moves.push(Dir::ALL[nodes[id as usize].dir as usize]);
        id = nodes[id as usize].parent;
    }
    moves.reverse();
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::Heuristic;
    use crate::search::store::{Dense, Sparse};
    use crate::search::{Algorithm, Guide, Options};

    /// The boards' changes from the start, as large boards keep them, against the whole boards:
    /// the same search, node for node, on every depth of the 3x3 table.
    #[test]
    pub(super) fn sparse_boards_search_exactly_as_whole_ones() {
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
                    assert_eq!(a.moves.len(), d);
                }
            }
        }
    }

    #[test]
    pub(super) fn zobrist_keys_differ() {
        let mut seen = std::collections::HashSet::new();
        for t in 0..64 {
            for c in 0..64 {
                assert!(seen.insert(key(t, c)));
            }
        }
    }
}
