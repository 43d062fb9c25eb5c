//! A* and IDA* recorded step by step, for teaching: every node generated, and what the search
//! did with it.
//!
//! # The library's searches, node for node
//! The recorders make the same choices as [`super::solve`], so that a recorded run and the
//! library's run of the same board, guide and weight count the same nodes and find the same
//! solution (the tests check it on hundreds of boards):
//! - nodes are counted by the rule of [`super`]: the start and every child made are *generated*
//!   (a child whose state was already reached at no greater cost counts, then is dropped); the
//!   move straight back to the parent is never made; a node is *expanded* when its children are
//!   made; the goal ends the search when it is taken off the open list (A*) or reached within
//!   the bound (IDA*), and is not expanded;
//! - [`astar_trace`] is the library's A* ([`Algorithm::AStar`], or [`Algorithm::Bfs`] with the
//!   zero estimate) at weight 1, and weighted A* ([`Algorithm::Weighted`]) at any other weight.
//!   Its open list is the library's own (`search/open.rs`), with the same keys and ids: for A*
//!   with a consistent estimate and for breadth-first, buckets by `f` and within one `f` the
//!   deepest, the node generated last first ([`TieBreak::LastGenerated`]); otherwise a heap by
//!   the key ([`Trace::key`]), the deepest, the state reached first ([`TieBreak::FirstSeen`]).
//!   A shorter path to a state on the open list replaces the node there; a shorter path to a
//!   closed state reopens it (only with an inconsistent estimate, Nilsson's, or a weight
//!   above 1);
//! - [`idastar_trace`] is the library's IDA* with a classic estimate: depth-first, the blank's
//!   moves in the order of [`Dir::ALL`], each bound the least `f` that exceeded the last, every
//!   iteration counted again (the start is generated once and expanded once per iteration). The
//!   library's IDA* with pattern databases tries a node's children lowest estimate first
//!   instead, so there only the last iteration's counts may differ.
//!
//! The recorders are written for clarity over speed (boards of up to 16 cells, a few thousand
//! expansions); a board is kept whole for every node.

use std::collections::HashMap;
use std::ops::Range;

use super::open::Open;
use super::space::Space;
use super::{Algorithm, Guide, Options};
use crate::error::Error;
use crate::heuristic::Heuristic;
use crate::puzzle::board::{Board, Dir};

#[cfg(test)]
mod tests;

/// The most cells of a board recorded.
pub const MAX_CELLS: usize = 16;

/// One node of an A* search tree: a state reached by one path.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceNode {
    /// Its index in [`Trace::nodes`]: nodes are numbered in the order they are generated.
    pub id: usize,
    /// The node it was generated from; `None` for the start.
    pub parent: Option<usize>,
    /// The blank's move from the parent.
    pub dir: Option<Dir>,
    /// The state.
    pub board: Board,
    /// The length of its path from the start.
    pub g: u32,
    /// The estimate.
    pub h: u32,
    /// The exact distance to the goal, as the caller's `exact` gives it.
    pub hstar: Option<u32>,
    /// What became of it when its parent was expanded; `None` for the start.
    pub status: Option<ChildStatus>,
}

/// What became of a child when its parent was expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChildStatus {
    /// A state not seen before: put on the open list.
    New,
    /// A shorter path to a state on the open list: it replaces the node `replaced` there, which
    /// leaves the list.
    Better {
        /// The node it replaces.
        replaced: usize,
    },
    /// A shorter path to a state expanded already (by the node `replaced`): the state goes back
    /// on the open list as this node. Only with an inconsistent estimate or a weight above 1.
    Reopened {
        /// The closed node it replaces.
        replaced: usize,
    },
    /// A state on the open list by a path at least as short: dropped.
    Worse,
    /// A state expanded already by a path at least as short: dropped.
    Closed,
}

impl ChildStatus {
    /// Its letter: `n` new, `b` better, `r` reopened, `w` worse, `c` closed.
    pub fn letter(self) -> char {
        match self {
            ChildStatus::New => 'n',
            ChildStatus::Better { .. } => 'b',
            ChildStatus::Reopened { .. } => 'r',
            ChildStatus::Worse => 'w',
            ChildStatus::Closed => 'c',
        }
    }

    /// The node a better or reopening path replaces.
    pub fn replaced(self) -> Option<usize> {
        match self {
            ChildStatus::Better { replaced } | ChildStatus::Reopened { replaced } => Some(replaced),
            _ => None,
        }
    }
}

/// One expansion.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceStep {
    /// The node expanded.
    pub expand: usize,
    /// Its children: the nodes with these ids, made in this step (the ids of the children of
    /// step `k` follow those of step `k - 1`; the first step's start at 1).
    pub children: Range<usize>,
}

/// How the open list orders nodes with the same key and the same `g`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieBreak {
    /// The node generated last first (the bucket queue of A* with a consistent estimate, and
    /// of breadth-first).
    LastGenerated,
    /// The node whose state was first reached earliest first (the heap of A* with an
    /// inconsistent estimate, and of weighted A*).
    FirstSeen,
}

/// An A* search recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// The library's search it follows: [`Algorithm::Bfs`] (the zero estimate),
    /// [`Algorithm::AStar`] (weight 1) or [`Algorithm::Weighted`].
    pub algorithm: Algorithm,
    /// How its open list breaks ties.
    pub ties: TieBreak,
    /// Every node generated, the start first.
    pub nodes: Vec<TraceNode>,
    /// Every expansion in order (the goal, when taken off the open list, ends the search and is
    /// not one).
    pub steps: Vec<TraceStep>,
    /// The nodes from the start to the goal, when the goal was reached.
    pub solution: Option<Vec<usize>>,
    /// Whether the search stopped at its limit of expansions. When neither this nor
    /// [`Trace::solution`] is set, the open list ran dry: the goal cannot be reached.
    pub capped: bool,
}

impl Trace {
    /// The key the open list is ordered by (smallest first): `g + h` for A*, `g` for
    /// breadth-first, `1000 g + round(1000 w) h` for weighted A* (fixed point, so that ties
    /// between values of `g + w h` are exact for weights with three decimals).
    pub fn key(&self, g: u32, h: u32) -> u64 {
        key(self.algorithm, g, h)
    }
}

/// The open list's key, as the library's A* family computes it (`Space::priority`).
fn key(algorithm: Algorithm, g: u32, h: u32) -> u64 {
    match algorithm {
        Algorithm::Bfs => g as u64,
        Algorithm::Weighted(w) => g as u64 * 1000 + (w * 1000.0).round() as u64 * h as u64,
        _ => (g + h) as u64,
    }
}

/// Packs a board of up to 16 cells, 4 bits a cell.
fn pack(board: &Board) -> u64 {
    board.cells().iter().fold(0u64, |acc, &t| (acc << 4) | t as u64)
}

/// The checks both recorders make, and the library's estimate of boards for `guide` (`None`:
/// zero).
fn setup<'a>(
    start: &Board,
    goal: &Board,
    guide: Option<Guide<'a>>,
    algorithm: Algorithm,
) -> Result<Space<'a, u16>, Error> {
    if start.shape() != goal.shape() {
        return Err(Error::ShapeMismatch { board: start.shape(), table: goal.shape() });
    }
    if start.shape().cells() > MAX_CELLS {
        return Err(Error::BadOption(format!("a search step by step takes boards of at most {MAX_CELLS} cells")));
    }
    match guide {
        Some(Guide::Patterns(set)) if set.goal() != goal => {
            return Err(Error::BadGoal(format!("the pattern tables' goal is {}, not {goal}", set.goal())));
        }
        Some(Guide::Table(t)) if t.goal() != goal => {
            return Err(Error::BadGoal(format!("the table's goal is {}, not {goal}", t.goal())));
        }
        _ => {}
    }
    // without a guide, breadth-first's estimate is zero whatever the guide given here
    let guide = guide.unwrap_or(Guide::Heuristic(Heuristic::Hamming));
    Ok(Space::new(start, goal, guide, &Options::new(algorithm)))
}

/// Where a state stands in A*: the node it is known by, its cost and whether it is closed (as
/// the library's node record).
struct State {
    node: usize,
    g: u32,
    closed: bool,
}

/// Runs A* from `start` to `goal` guided by `guide` (`None`: the zero estimate, which makes it
/// breadth-first) with the open list ordered by `g + weight * h`, recording every node and step,
/// for at most `max_expansions` expansions. `exact` gives each node's true distance (for the
/// record only; the search does not use it).
///
/// The search is the library's, node for node (see the module doc): at weight 1 its A* (with
/// the zero estimate, breadth-first), at any other weight its weighted A*; with the zero estimate
/// the weight changes nothing. A node taken off the open list is the goal (the search ends; not
/// a step) or is expanded.
///
/// Callers check that the start can reach the goal ([`Board::is_solvable_to`]) first: otherwise
/// the search runs until its limit (or, below it, until every state of the start's half of the
/// state space is expanded: neither capped nor solved).
///
/// # Errors
/// [`Error::ShapeMismatch`] for boards of different shapes; [`Error::BadOption`] for a weight
/// [`super::check_weight`] refuses (negative, past 1000 or finer than thousandths), or a board
/// of more than 16 cells; [`Error::BadGoal`] for a guide made for another goal; a table guide's
/// error.
pub fn astar_trace(
    start: &Board,
    goal: &Board,
    guide: Option<Guide<'_>>,
    weight: f64,
    exact: &dyn Fn(&Board) -> Option<u32>,
    max_expansions: usize,
) -> Result<Trace, Error> {
    super::check_weight(weight)?;
    let algorithm = match guide {
        None => Algorithm::Bfs,
        Some(_) if weight == 1.0 => Algorithm::AStar,
        Some(_) => Algorithm::Weighted(weight),
    };
    let space = setup(start, goal, guide, algorithm)?;
    // as the library's A* family chooses its open list (`Space::best_first_in`)
    let buckets = matches!(algorithm, Algorithm::AStar | Algorithm::Bfs) && guide.is_none_or(|g| g.is_consistent());
    let ties = if buckets { TieBreak::LastGenerated } else { TieBreak::FirstSeen };
    let mut open = if buckets { Open::buckets() } else { Open::heap() };
    let mut trace = Trace { algorithm, ties, nodes: Vec::new(), steps: Vec::new(), solution: None, capped: false };
    let blind = guide.is_none();
    // states by their packed board, numbered in the order first reached (the library's node ids)
    let mut index: HashMap<u64, u32> = HashMap::new();
    let mut states: Vec<State> = Vec::new();

    let h0 = if blind { 0 } else { space.estimate(start.cells())? };
    trace.nodes.push(TraceNode {
        id: 0,
        parent: None,
        dir: None,
        board: start.clone(),
        g: 0,
        h: h0,
        hstar: exact(start),
        status: None,
    });
    index.insert(pack(start), 0);
    states.push(State { node: 0, g: 0, closed: false });
    open.push(key(algorithm, 0, h0), 0, 0);

    while let Some((g, sid)) = open.pop() {
        let state = &mut states[sid as usize];
        if state.closed || state.g != g {
            continue; // expanded already, or reached more cheaply since this entry was made
        }
        let id = state.node;
        let node = &trace.nodes[id];
        if (node.h == 0 || blind) && node.board == *goal {
            let mut path = vec![id];
            while let Some(p) = trace.nodes[path[path.len() - 1]].parent {
                path.push(p);
            }
            path.reverse();
            trace.solution = Some(path);
            return Ok(trace);
        }
        if trace.steps.len() >= max_expansions {
            trace.capped = true;
            return Ok(trace);
        }
        state.closed = true;
        let (board, back) = (node.board.clone(), node.dir.map(Dir::opposite));
        let first = trace.nodes.len();
        for dir in Dir::ALL {
            if Some(dir) == back {
                continue;
            }
            let Some(next) = board.moved(dir) else { continue };
            let child = trace.nodes.len();
            let ng = g + 1;
            let h = if blind { 0 } else { space.estimate(next.cells())? };
            let status = match index.get(&pack(&next)) {
                None => {
                    let sid = states.len() as u32;
                    index.insert(pack(&next), sid);
                    states.push(State { node: child, g: ng, closed: false });
                    open.push(key(algorithm, ng, h), ng, sid);
                    ChildStatus::New
                }
                Some(&sid) => {
                    let s = &mut states[sid as usize];
                    if s.g <= ng {
                        if s.closed {
                            ChildStatus::Closed
                        } else {
                            ChildStatus::Worse
                        }
                    } else {
                        let replaced = s.node;
                        let status = if s.closed {
                            ChildStatus::Reopened { replaced }
                        } else {
                            ChildStatus::Better { replaced }
                        };
                        *s = State { node: child, g: ng, closed: false };
                        open.push(key(algorithm, ng, h), ng, sid);
                        status
                    }
                }
            };
            let hstar = exact(&next);
            trace.nodes.push(TraceNode {
                id: child,
                parent: Some(id),
                dir: Some(dir),
                board: next,
                g: ng,
                h,
                hstar,
                status: Some(status),
            });
        }
        trace.steps.push(TraceStep { expand: id, children: first..trace.nodes.len() });
    }
    // the open list ran dry: the goal cannot be reached from the start
    Ok(trace)
}

/// What IDA* did with a node it generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdaKind {
    /// Within the bound: entered and expanded (its children are the nodes generated next, until
    /// the search backs up past it). The start is entered at the beginning of every iteration.
    Expanded,
    /// Its `f = g + h` exceeds the bound: generated and cut off.
    Cut,
    /// The goal, within the bound: the search ends.
    Goal,
}

impl IdaKind {
    /// Its letter: `e` expanded, `c` cut, `g` goal.
    pub fn letter(self) -> char {
        match self {
            IdaKind::Expanded => 'e',
            IdaKind::Cut => 'c',
            IdaKind::Goal => 'g',
        }
    }
}

/// One node of an IDA* search: a board on one path, in one iteration (the start, node 0, is the
/// root of every iteration).
#[derive(Clone, Debug, PartialEq)]
pub struct IdaNode {
    /// Its index in [`IdaTrace::nodes`]: nodes are numbered in the order they are generated,
    /// which is depth-first order.
    pub id: usize,
    /// The node it was generated from; `None` for the start.
    pub parent: Option<usize>,
    /// The blank's move from the parent.
    pub dir: Option<Dir>,
    /// The state.
    pub board: Board,
    /// The length of its path from the start.
    pub g: u32,
    /// The estimate.
    pub h: u32,
    /// The exact distance to the goal, as the caller's `exact` gives it.
    pub hstar: Option<u32>,
    /// What the search did with it.
    pub kind: IdaKind,
}

/// One depth-first iteration of IDA*.
#[derive(Clone, Debug, PartialEq)]
pub struct IdaIteration {
    /// The bound on `f = g + h`.
    pub bound: u32,
    /// The nodes it expanded, the start included.
    pub expanded: u64,
    /// The nodes it generated (the start not included: it is generated once, before the first).
    pub generated: u64,
    /// The least `f` that exceeded the bound: the next iteration's bound. `None` when this one
    /// found the goal or was stopped at the limit.
    pub next_bound: Option<u32>,
    /// The nodes it generated, in order: its events after entering the start.
    pub nodes: Range<usize>,
}

/// An IDA* search recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct IdaTrace {
    /// Every node generated, the start first.
    pub nodes: Vec<IdaNode>,
    /// Every iteration, in order.
    pub iterations: Vec<IdaIteration>,
    /// The nodes from the start to the goal, when the goal was reached.
    pub solution: Option<Vec<usize>>,
    /// Whether the search stopped at its limit of expansions.
    pub capped: bool,
}

impl IdaTrace {
    /// The nodes expanded in all, as the library counts them.
    pub fn expanded(&self) -> u64 {
        self.iterations.iter().map(|i| i.expanded).sum()
    }

    /// The nodes generated in all, the start included, as the library counts them.
    pub fn generated(&self) -> u64 {
        1 + self.iterations.iter().map(|i| i.generated).sum::<u64>()
    }
}

/// Runs IDA* from `start` to `goal` guided by `guide` (`None`: the zero estimate), recording
/// every node in depth-first order, for at most `max_expansions` expansions (the start's in
/// every iteration included). `exact` gives each node's true distance (for the record only).
///
/// The search is the library's IDA* with a classic estimate, node for node (see the module
/// doc): no transposition table, the move straight back never made, the children in the order
/// of [`Dir::ALL`], each bound the least `f` that exceeded the last.
///
/// Callers check that the start can reach the goal first: otherwise the search runs to its limit.
///
/// # Errors
/// [`Error::ShapeMismatch`] for boards of different shapes; [`Error::BadOption`] for a board of
/// more than 16 cells; [`Error::BadGoal`] for a guide made for another goal; a table guide's
/// error.
pub fn idastar_trace(
    start: &Board,
    goal: &Board,
    guide: Option<Guide<'_>>,
    exact: &dyn Fn(&Board) -> Option<u32>,
    max_expansions: usize,
) -> Result<IdaTrace, Error> {
    let algorithm = if guide.is_some() { Algorithm::IdaStar } else { Algorithm::Bfs };
    let space = setup(start, goal, guide, algorithm)?;
    let estimate = |b: &Board| if guide.is_some() { space.estimate(b.cells()) } else { Ok(0) };
    let h0 = estimate(start)?;
    let root = IdaNode {
        id: 0,
        parent: None,
        dir: None,
        board: start.clone(),
        g: 0,
        h: h0,
        hstar: exact(start),
        kind: IdaKind::Expanded,
    };
    let mut trace = IdaTrace { nodes: vec![root], iterations: Vec::new(), solution: None, capped: false };
    if h0 == 0 && start == goal {
        trace.nodes[0].kind = IdaKind::Goal;
        trace.solution = Some(vec![0]);
        return Ok(trace);
    }
    let mut expanded = 0usize;
    let mut bound = h0;
    loop {
        if expanded >= max_expansions {
            trace.capped = true;
            return Ok(trace);
        }
        expanded += 1;
        let first = trace.nodes.len();
        let mut it = IdaIteration { bound, expanded: 1, generated: 0, next_bound: None, nodes: first..first };
        let mut least = u32::MAX;
        // the path: each node with the index in `Dir::ALL` of the next move to try
        let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
        let mut stopped = false;
        while let Some(top) = stack.last_mut() {
            let (id, next) = *top;
            let Some(&dir) = Dir::ALL.get(next) else {
                stack.pop();
                continue;
            };
            top.1 += 1;
            let parent = &trace.nodes[id];
            if parent.dir == Some(dir.opposite()) {
                continue;
            }
            let Some(board) = parent.board.moved(dir) else { continue };
            let (g, h) = (parent.g + 1, estimate(&board)?);
            let kind = if g + h > bound {
                least = least.min(g + h);
                IdaKind::Cut
            } else if h == 0 && board == *goal {
                IdaKind::Goal
            } else if expanded >= max_expansions {
                // the limit: this node would be the next expanded; it is left out
                trace.capped = true;
                stopped = true;
                break;
            } else {
                IdaKind::Expanded
            };
            let child = trace.nodes.len();
            let hstar = exact(&board);
            trace.nodes.push(IdaNode { id: child, parent: Some(id), dir: Some(dir), board, g, h, hstar, kind });
            it.generated += 1;
            match kind {
                IdaKind::Expanded => {
                    expanded += 1;
                    it.expanded += 1;
                    stack.push((child, 0));
                }
                IdaKind::Goal => {
                    let mut path: Vec<usize> = stack.iter().map(|&(n, _)| n).collect();
                    path.push(child);
                    trace.solution = Some(path);
                    stopped = true;
                    break;
                }
                IdaKind::Cut => {}
            }
        }
        it.nodes = first..trace.nodes.len();
        if !stopped && least != u32::MAX {
            it.next_bound = Some(least);
        }
        trace.iterations.push(it);
        match (stopped, least) {
            (true, _) => return Ok(trace),
            // every branch ended without a cut: the goal cannot be reached
            (false, u32::MAX) => return Ok(trace),
            (false, least) => bound = least,
        }
    }
}
