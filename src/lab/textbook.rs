//! Searches that count nodes the way a textbook's table does, each counting choice a switch.
//!
//! Published tables of search costs differ less in their searches than in what they count. Here
//! every choice is explicit ([`Counting`]), so that a table can be reproduced and the effect of
//! each choice seen:
//! - **the move back to the parent**: generated and counted (then dropped as already explored),
//!   or never made;
//! - **the start**: counted as generated or not;
//! - **ties on f**: which of the open nodes with the least `f = g + h` is expanded first:
//!   larger `g` first, smaller `g` first, first in first out, last in first out (the last three
//!   break remaining ties by insertion order, the first two by last in first out).
//!
//! [`astar`] is graph search as *Artificial Intelligence: A Modern Approach* writes it: a closed
//! set of expanded states, the goal tested when a node is taken off the open list, a state
//! already open kept with its smaller `g`. [`ids`] is its iterative deepening: depth-limited
//! tree search for limits 0, 1, 2, ..., the goal tested when a node is visited, every node of
//! every iteration counted. Both work on boards of up to 16 cells (a state is a `u64`).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use crate::error::Error;
use crate::heuristic::{Estimator, Heuristic};
use crate::puzzle::board::{Board, Dir};
use crate::search::Watch;

/// Which open node with the least `f` is expanded first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    /// Larger `g` first (deeper nodes, nearer the goal), then the last inserted: what
    /// [`crate::search`] does.
    LargerG,
    /// Smaller `g` first, then the last inserted.
    SmallerG,
    /// The first inserted first.
    Fifo,
    /// The last inserted first.
    Lifo,
}

impl Ties {
    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Ties::LargerG => "larger-g",
            Ties::SmallerG => "smaller-g",
            Ties::Fifo => "fifo",
            Ties::Lifo => "lifo",
        }
    }
}

/// What counts as a generated node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counting {
    /// The move straight back to the parent is made and counted.
    pub parent_move: bool,
    /// The start counts as generated.
    pub start: bool,
    /// How ties on `f` are broken.
    pub ties: Ties,
}

/// What one search did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// Nodes generated, as [`Counting`] says.
    pub generated: u64,
    /// Nodes expanded (their successors made).
    pub expanded: u64,
    /// The length of the solution found.
    pub depth: u32,
}

/// Packs a board of up to 16 cells, 4 bits a cell.
fn pack<T: Copy + Into<u64>>(cells: &[T]) -> u64 {
    cells.iter().enumerate().fold(0, |acc, (i, &t)| acc | t.into() << (4 * i))
}

/// A board of up to 16 cells as the searches here hold it: its packed cells and the blank's cell,
/// with the moves of its shape.
#[derive(Clone, Copy)]
struct Packed {
    key: u64,
    blank: usize,
}

impl Packed {
    fn of(board: &Board) -> Packed {
        Packed { key: pack(board.cells()), blank: board.blank() }
    }

    /// The board after the blank moves to `to`.
    #[inline]
    fn moved(self, to: usize) -> Packed {
        let tile = (self.key >> (4 * to)) & 15;
        Packed { key: self.key - (tile << (4 * to)) + (tile << (4 * self.blank)), blank: to }
    }

    fn cells(self, n: usize, out: &mut [u8; 16]) {
        for (i, c) in out.iter_mut().enumerate().take(n) {
            *c = ((self.key >> (4 * i)) & 15) as u8;
        }
    }
}

/// The cells the blank moves to from each cell, in the order U D L R.
fn neighbours(board: &Board) -> Vec<Vec<(Dir, usize)>> {
    let shape = board.shape();
    (0..shape.cells())
        .map(|c| Dir::ALL.into_iter().filter_map(|d| d.step(shape, c).map(|to| (d, to))).collect())
        .collect()
}

/// A* graph search from `start` to `goal` guided by `h`, counted as `counting` says. `None`
/// when the start cannot reach the goal.
///
/// # Panics
/// On a board of more than 16 cells.
pub fn astar(start: &Board, goal: &Board, h: Heuristic, counting: Counting) -> Option<Count> {
    let n = start.shape().cells();
    assert!(n <= 16, "textbook searches take boards of up to 16 cells");
    if !start.is_solvable_to(goal) {
        return None;
    }
    let est = Estimator::new(goal);
    let nbr = neighbours(start);
    let goal_key = pack(goal.cells());
    let tie = |g: u32, seq: i64| -> (i64, i64) {
        match counting.ties {
            Ties::LargerG => (g as i64, seq),
            Ties::SmallerG => (-(g as i64), seq),
            Ties::Fifo => (0, -seq),
            Ties::Lifo => (0, seq),
        }
    };
    // open: the least f first, then the tie keys, largest first; entries may be stale
    let mut open: BinaryHeap<(Reverse<u32>, i64, i64, u64, u8)> = BinaryHeap::new();
    // every state made: (best g, its parent's key, expanded)
    let mut seen: HashMap<u64, (u32, u64, bool)> = HashMap::new();
    let mut cells = [0u8; 16];
    let first = Packed::of(start);
    let mut seq: i64 = 0;
    let mut generated = u64::from(counting.start);
    let mut expanded = 0u64;
    let (t, s) = tie(0, seq);
    open.push((Reverse(est.estimate(h, start.cells())), t, s, first.key, first.blank as u8));
    seen.insert(first.key, (0, u64::MAX, false));
    while let Some((_, _, _, key, blank)) = open.pop() {
        let entry = seen.get_mut(&key).expect("every open state is seen");
        if entry.2 {
            continue; // a stale entry: the state was expanded by a cheaper path
        }
        let (g, parent) = (entry.0, entry.1);
        if key == goal_key {
            return Some(Count { generated, expanded, depth: g });
        }
        entry.2 = true;
        expanded += 1;
        let node = Packed { key, blank: blank as usize };
        for &(_, to) in &nbr[node.blank] {
            let child = node.moved(to);
            if child.key == parent {
                if counting.parent_move {
                    generated += 1; // made, counted, and dropped: it is explored
                }
                continue;
            }
            generated += 1;
            let cg = g + 1;
            match seen.get(&child.key) {
                Some(&(old, _, done)) if done || old <= cg => continue,
                _ => {}
            }
            seq += 1;
            let (t, s) = tie(cg, seq);
            child.cells(n, &mut cells);
            let f = cg + est.estimate(h, &cells[..n]);
            open.push((Reverse(f), t, s, child.key, child.blank as u8));
            seen.insert(child.key, (cg, key, false));
        }
    }
    None
}

/// Iterative deepening (uninformed) from `start` to `goal`: depth-limited tree search with
/// limits 0, 1, 2, ... until the goal is visited, counting every node generated in every
/// iteration as `counting` says (ties do not apply). With `counting.parent_move` the move back is
/// made and searched below like any other, as plain tree search does; without, it is never made.
/// Gives up, returning `None`, past `max_generated` nodes or when the start cannot reach the goal.
pub fn ids(start: &Board, goal: &Board, counting: Counting, max_generated: u64) -> Option<Count> {
    ids_watched(start, goal, counting, max_generated, &Watch::new()).ok().flatten()
}

/// As [`ids`], watched as the library's searches are ([`Watch`]): every 1024 expansions it
/// records the nodes generated so far in `watch` and stops if the watch was cancelled.
///
/// # Errors
/// [`Error::Cancelled`], with the nodes generated so far, when `watch` is cancelled.
pub fn ids_watched(
    start: &Board,
    goal: &Board,
    counting: Counting,
    max_generated: u64,
    watch: &Watch,
) -> Result<Option<Count>, Error> {
    if !start.is_solvable_to(goal) {
        return Ok(None);
    }
    let search = Ids { nbr: neighbours(start), goal: pack(goal.cells()), counting, max: max_generated, watch };
    let mut count = Count { generated: 0, expanded: 0, depth: 0 };
    for limit in 0.. {
        count.generated += u64::from(counting.start);
        match search.dls(Packed::of(start), usize::MAX, limit, &mut count) {
            Some(true) => {
                count.depth = limit;
                watch.set_generated(count.generated);
                return Ok(Some(count));
            }
            Some(false) => {}
            None if watch.is_cancelled() => return Err(Error::Cancelled { generated: count.generated }),
            None => return Ok(None),
        }
    }
    Ok(None)
}

struct Ids<'a> {
    nbr: Vec<Vec<(Dir, usize)>>,
    goal: u64,
    counting: Counting,
    max: u64,
    watch: &'a Watch,
}

impl Ids<'_> {
    /// Depth-limited search below `node` (whose blank came from `from`): `Some(true)` when the
    /// goal is found, `None` past the node limit or once the watch is cancelled.
    fn dls(&self, node: Packed, from: usize, limit: u32, count: &mut Count) -> Option<bool> {
        if node.key == self.goal {
            return Some(true);
        }
        if limit == 0 {
            return Some(false);
        }
        if count.generated > self.max {
            return None;
        }
        // as the library's searches look at their watch (`Space::check_nodes`)
        if count.expanded.is_multiple_of(1024) {
            self.watch.set_generated(count.generated);
            if self.watch.is_cancelled() {
                return None;
            }
        }
        count.expanded += 1;
        for &(_, to) in &self.nbr[node.blank] {
            if to == from && !self.counting.parent_move {
                continue;
            }
            count.generated += 1;
            if self.dls(node.moved(to), node.blank, limit - 1, count)? {
                return Some(true);
            }
        }
        Some(false)
    }
}
