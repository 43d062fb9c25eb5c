//! Heuristic search for an optimal solution on boards of any size: A* and IDA*.
//!
//! Both stop only when a goal is *expanded* (A*: taken off the open list; IDA*: reached within
//! the bound), so with an admissible [`Heuristic`] the solution is optimal. Unsolvable boards are
//! rejected up front by the parity rule ([`Board::is_solvable_to`]), never by searching.
//!
//! Counting, as in Russell & Norvig's experiment: a node is *generated* when a successor is made
//! (the move back to the parent is not made), *expanded* when its successors are made. The start
//! counts as generated.
//!
//! This is the library core of `table solve` (issue 4): plain data structures, checked against
//! the perfect table; the command line and the faster flat-array A* come next.

use std::cmp::Reverse;
use std::collections::hash_map::Entry;
use std::collections::{BinaryHeap, HashMap};

use crate::board::{Board, Dir};
use crate::heuristic::{Estimator, Heuristic};

/// What a search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes whose successors were made.
    pub expanded: u64,
    /// Nodes made, the start included.
    pub generated: u64,
    /// A*: the largest size of the open list. IDA*: the number of iterations (bounds tried).
    pub peak: u64,
}

/// An optimal solution and what finding it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The blank's moves from the start to the goal.
    pub moves: Vec<Dir>,
    /// The search's counts.
    pub stats: Stats,
}

/// A* from `start` to `goal` with `h`; `None` if the board cannot reach the goal.
///
/// # Panics
/// If the two boards have different shapes.
pub fn astar(start: &Board, goal: &Board, h: Heuristic) -> Option<Found> {
    assert_eq!(start.shape(), goal.shape(), "start and goal must have one shape");
    if !start.is_solvable_to(goal) {
        return None;
    }
    let est = Estimator::new(goal);
    // per node: the board, its cost, its parent and the move from it
    let mut boards: Vec<Board> = vec![start.clone()];
    let mut parent: Vec<(u32, Option<Dir>)> = vec![(0, None)];
    let mut best: HashMap<Board, (u32, u32)> = HashMap::new(); // board -> (g, node)
    best.insert(start.clone(), (0, 0));
    let mut open = BinaryHeap::new();
    let h0 = est.estimate(h, start.cells());
    // ties broken towards the larger g (deeper nodes first), then first made
    open.push(Reverse((h0, Reverse(0u32), 0u32)));
    let mut stats = Stats { generated: 1, peak: 1, ..Stats::default() };
    while let Some(Reverse((_, Reverse(g), node))) = open.pop() {
        let board = boards[node as usize].clone();
        if best.get(&board).is_some_and(|&(bg, _)| bg < g) {
            continue; // a stale entry: the board was reached more cheaply since
        }
        if board == *goal {
            let mut moves = Vec::with_capacity(g as usize);
            let mut at = node;
            while let (p, Some(dir)) = parent[at as usize] {
                moves.push(dir);
                at = p;
            }
            moves.reverse();
            return Some(Found { moves, stats });
        }
        stats.expanded += 1;
        let back = parent[node as usize].1.map(Dir::opposite);
        for dir in Dir::ALL {
            if Some(dir) == back {
                continue;
            }
            let Some(next) = board.moved(dir) else { continue };
            stats.generated += 1;
            let ng = g + 1;
            let id = boards.len() as u32;
            match best.entry(next.clone()) {
                Entry::Occupied(e) if e.get().0 <= ng => continue,
                Entry::Occupied(mut e) => {
                    e.insert((ng, id));
                }
                Entry::Vacant(e) => {
                    e.insert((ng, id));
                }
            }
            let f = ng + est.estimate(h, next.cells());
            boards.push(next);
            parent.push((node, Some(dir)));
            open.push(Reverse((f, Reverse(ng), id)));
        }
        stats.peak = stats.peak.max(open.len() as u64);
    }
    None
}

/// IDA* from `start` to `goal` with `h`; `None` if the board cannot reach the goal.
///
/// Depth-first searches with a growing bound on `g + h`, each bound the least `f` that exceeded
/// the last; memory is the path alone. The Manhattan part of the estimate is updated per move
/// (one tile moves), the linear conflicts of the two lines the tile leaves and enters recomputed.
///
/// # Panics
/// If the two boards have different shapes.
pub fn idastar(start: &Board, goal: &Board, h: Heuristic) -> Option<Found> {
    assert_eq!(start.shape(), goal.shape(), "start and goal must have one shape");
    if !start.is_solvable_to(goal) {
        return None;
    }
    let est = Estimator::new(goal);
    let mut search = Ida {
        est: &est,
        h,
        cells: start.cells().to_vec(),
        blank: start.blank(),
        path: Vec::new(),
        stats: Stats { generated: 1, ..Stats::default() },
    };
    let mut bound = est.estimate(h, start.cells());
    loop {
        search.stats.peak += 1;
        let h0 = est.estimate(h, &search.cells);
        match search.dfs(0, h0, bound, None) {
            Step::Found => return Some(Found { moves: search.path, stats: search.stats }),
            Step::Exceeded(next) => bound = next,
            // cannot happen for a solvable board: every bound is exceeded or the goal found
            Step::Exhausted => return None,
        }
    }
}

enum Step {
    Found,
    Exceeded(u32),
    Exhausted,
}

struct Ida<'a> {
    est: &'a Estimator,
    h: Heuristic,
    cells: Vec<u16>,
    blank: usize,
    path: Vec<Dir>,
    stats: Stats,
}

impl Ida<'_> {
    fn dfs(&mut self, g: u32, h: u32, bound: u32, back: Option<Dir>) -> Step {
        let f = g + h;
        if f > bound {
            return Step::Exceeded(f);
        }
        if h == 0 && self.is_goal() {
            return Step::Found;
        }
        self.stats.expanded += 1;
        let shape = self.est.shape();
        let mut least = None::<u32>;
        for dir in Dir::ALL {
            if Some(dir) == back {
                continue;
            }
            let Some(to) = dir.step(shape, self.blank) else { continue };
            self.stats.generated += 1;
            let nh = self.moved_estimate(h, to);
            let from = self.blank;
            self.cells.swap(from, to);
            self.blank = to;
            self.path.push(dir);
            match self.dfs(g + 1, nh, bound, Some(dir.opposite())) {
                Step::Found => return Step::Found,
                Step::Exceeded(x) => least = Some(least.map_or(x, |l| l.min(x))),
                Step::Exhausted => {}
            }
            self.path.pop();
            self.cells.swap(from, to);
            self.blank = from;
        }
        least.map_or(Step::Exhausted, Step::Exceeded)
    }

    fn is_goal(&self) -> bool {
        let cols = self.est.shape().cols();
        self.cells.iter().enumerate().all(|(cell, &t)| t == 0 || self.est.goal_of(t) == (cell / cols, cell % cols))
    }

    /// The estimate after the tile at `to` slides into the blank, from the estimate `h` before.
    fn moved_estimate(&mut self, h: u32, to: usize) -> u32 {
        let cols = self.est.shape().cols();
        let tile = self.cells[to];
        let (fr, fc) = (to / cols, to % cols);
        let (tr, tc) = (self.blank / cols, self.blank % cols);
        match self.h {
            Heuristic::Hamming => {
                let was = (self.est.goal_of(tile) == (fr, fc)) as u32;
                let now = (self.est.goal_of(tile) == (tr, tc)) as u32;
                h + was - now
            }
            Heuristic::Manhattan => h + self.est.tile_distance(tile, tr, tc) - self.est.tile_distance(tile, fr, fc),
            Heuristic::Nilsson => {
                let blank = self.blank;
                self.cells.swap(blank, to);
                let h = self.est.estimate(Heuristic::Nilsson, &self.cells);
                self.cells.swap(blank, to);
                h
            }
            Heuristic::LinearConflict => {
                // a vertical move changes the conflicts of the two rows, a horizontal one of the
                // two columns; the other lines keep their tiles in the same order
                let (before, after);
                let blank = self.blank;
                if fr != tr {
                    before = self.est.row_conflict(&self.cells, fr) + self.est.row_conflict(&self.cells, tr);
                    self.cells.swap(blank, to);
                    after = self.est.row_conflict(&self.cells, fr) + self.est.row_conflict(&self.cells, tr);
                } else {
                    before = self.est.col_conflict(&self.cells, fc) + self.est.col_conflict(&self.cells, tc);
                    self.cells.swap(blank, to);
                    after = self.est.col_conflict(&self.cells, fc) + self.est.col_conflict(&self.cells, tc);
                }
                self.cells.swap(blank, to);
                h + self.est.tile_distance(tile, tr, tc) + after - self.est.tile_distance(tile, fr, fc) - before
            }
        }
    }
}
