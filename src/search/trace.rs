//! A* recorded step by step, for teaching: every node generated, and at every step the node
//! expanded and what became of each of its children.
//!
//! This is the textbook's A* with a closed set and no reopening, written for clarity over speed
//! (boards of up to 16 cells, a few thousand expansions): the open list is ordered by
//! `f = g + weight * h`, ties to the larger `g`, then to the node generated first. With a
//! consistent heuristic and weight 1 it finds an optimal solution; with an inconsistent one
//! (Nilsson's) or a weight above 1 a state may be closed on a longer path, and since closed states
//! are never reopened the solution may be longer than the optimum: that is what it shows.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};

use crate::error::Error;
use crate::puzzle::board::{Board, Dir};

/// One node of the search tree: a state reached by one path.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceNode {
    /// Its index in [`Trace::nodes`].
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
}

/// What became of a child when its parent was expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChildStatus {
    /// A state not seen before: put on the open list.
    New,
    /// A shorter path to a state on the open list: it replaces the node there, which leaves it.
    Better,
    /// A state on the open list by a path at least as short: dropped.
    Worse,
    /// A state expanded already: dropped (never reopened).
    Closed,
}

/// One expansion.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceStep {
    /// The node expanded.
    pub expand: usize,
    /// Its children (every legal move, the one back to its parent included) and their fate.
    pub children: Vec<(usize, ChildStatus)>,
}

/// A search recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// Every node generated, the start first.
    pub nodes: Vec<TraceNode>,
    /// Every expansion in order (the goal, when popped, ends the search and is not one).
    pub steps: Vec<TraceStep>,
    /// The nodes from the start to the goal, when the goal was reached.
    pub solution: Option<Vec<usize>>,
    /// Whether the search stopped at its limit of expansions. When neither this nor
    /// [`Trace::solution`] is set, the open list ran dry: the goal cannot be reached.
    pub capped: bool,
}

struct Entry {
    f: f64,
    g: u32,
    id: usize,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    /// The best entry is the greatest: lowest f, then largest g, then lowest id.
    fn cmp(&self, other: &Self) -> Ordering {
        other.f.total_cmp(&self.f).then(self.g.cmp(&other.g)).then(other.id.cmp(&self.id))
    }
}

/// Where a state stands.
enum Seen {
    /// On the open list as this node.
    Open(usize),
    Closed,
}

fn pack(board: &Board) -> u64 {
    board.cells().iter().fold(0u64, |acc, &t| (acc << 4) | t as u64)
}

/// Runs A* from `start` to `goal` with the estimate `estimate`, the open list ordered by
/// `g + weight * h`, recording every node and step, for at most `max_expansions` expansions.
/// `exact` gives each node's true distance (for the record only; the search does not use it).
///
/// The node taken off the open list is the one with the least `f = g + weight * h`, ties to the
/// larger `g`, then to the smaller id; taking the goal off ends the search, and is not a step.
/// Closed states are never reopened, so with an inconsistent estimate or a weight above 1 the
/// solution may be longer than the optimum.
///
/// Callers check that the start can reach the goal ([`Board::is_solvable_to`]) first: otherwise
/// the search runs until its limit (or, below it, until every state of the start's half of the
/// state space is expanded: neither capped nor solved).
///
/// # Errors
/// [`Error::ShapeMismatch`] for boards of different shapes; [`Error::BadOption`] for a weight
/// that is negative or not finite, or a board of more than 16 cells.
pub fn astar_trace(
    start: &Board,
    goal: &Board,
    estimate: &dyn Fn(&Board) -> u32,
    weight: f64,
    exact: &dyn Fn(&Board) -> Option<u32>,
    max_expansions: usize,
) -> Result<Trace, Error> {
    if start.shape() != goal.shape() {
        return Err(Error::ShapeMismatch { board: start.shape(), table: goal.shape() });
    }
    if !(weight.is_finite() && weight >= 0.0) {
        return Err(Error::BadOption(format!("the weight must be a number at least 0, not {weight}")));
    }
    if start.shape().cells() > 16 {
        return Err(Error::BadOption("A* step by step takes boards of at most 16 cells".into()));
    }
    let goal_key = pack(goal);
    let mut nodes: Vec<TraceNode> = Vec::new();
    let mut steps: Vec<TraceStep> = Vec::new();
    let mut seen: HashMap<u64, Seen> = HashMap::new();
    let mut open = BinaryHeap::new();
    let add = |nodes: &mut Vec<TraceNode>, parent: Option<usize>, dir: Option<Dir>, board: Board, g: u32| {
        let id = nodes.len();
        let h = estimate(&board);
        let hstar = exact(&board);
        nodes.push(TraceNode { id, parent, dir, board, g, h, hstar });
        id
    };
    let f = |n: &TraceNode| n.g as f64 + weight * n.h as f64;
    let root = add(&mut nodes, None, None, start.clone(), 0);
    seen.insert(pack(start), Seen::Open(root));
    open.push(Entry { f: f(&nodes[root]), g: 0, id: root });
    while let Some(Entry { id, .. }) = open.pop() {
        let key = pack(&nodes[id].board);
        // an entry left behind by a better path to its state
        if !matches!(seen.get(&key), Some(Seen::Open(current)) if *current == id) {
            continue;
        }
        if key == goal_key {
            let mut path = vec![id];
            while let Some(p) = nodes[*path.last().unwrap_or(&root)].parent {
                path.push(p);
            }
            path.reverse();
            return Ok(Trace { nodes, steps, solution: Some(path), capped: false });
        }
        if steps.len() >= max_expansions {
            return Ok(Trace { nodes, steps, solution: None, capped: true });
        }
        seen.insert(key, Seen::Closed);
        let g = nodes[id].g + 1;
        let mut children = Vec::with_capacity(4);
        for dir in Dir::ALL {
            let Some(next) = nodes[id].board.moved(dir) else { continue };
            let next_key = pack(&next);
            let child = add(&mut nodes, Some(id), Some(dir), next, g);
            let status = match seen.get(&next_key) {
                Some(Seen::Closed) => ChildStatus::Closed,
                Some(Seen::Open(other)) if nodes[*other].g <= g => ChildStatus::Worse,
                Some(Seen::Open(_)) => ChildStatus::Better,
                None => ChildStatus::New,
            };
            if matches!(status, ChildStatus::New | ChildStatus::Better) {
                seen.insert(next_key, Seen::Open(child));
                open.push(Entry { f: f(&nodes[child]), g, id: child });
            }
            children.push((child, status));
        }
        steps.push(TraceStep { expand: id, children });
    }
    // the open list ran dry: the goal cannot be reached from the start
    Ok(Trace { nodes, steps, solution: None, capped: false })
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};

    use super::*;
    use crate::heuristic::{Estimator, Heuristic};
    use crate::lab::sample::SplitMix64;
    use crate::puzzle::{Goal, Shape};

    fn setup() -> (Board, crate::Table<Vec<u8>>, Estimator) {
        let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
        let table = crate::build(&goal, |_| {}).unwrap();
        let est = Estimator::new(&goal);
        (goal, table, est)
    }

    /// Replays the steps against the rules of the module doc: each step expands the node its
    /// state is open as, and each child's status follows from what was open and closed before.
    fn check_statuses(t: &Trace) {
        // state -> Some(open node) or None (closed)
        let mut at: HashMap<&Board, Option<usize>> = HashMap::new();
        at.insert(&t.nodes[0].board, Some(0));
        for s in &t.steps {
            let board = &t.nodes[s.expand].board;
            assert_eq!(at.insert(board, None), Some(Some(s.expand)), "expanded a node not on the open list");
            for &(child, status) in &s.children {
                let n = &t.nodes[child];
                assert_eq!((n.parent, n.g), (Some(s.expand), t.nodes[s.expand].g + 1));
                let expected = match at.get(&n.board) {
                    Some(None) => ChildStatus::Closed,
                    Some(Some(other)) if t.nodes[*other].g <= n.g => ChildStatus::Worse,
                    Some(Some(_)) => ChildStatus::Better,
                    None => ChildStatus::New,
                };
                assert_eq!(status, expected, "child {child}");
                if matches!(status, ChildStatus::New | ChildStatus::Better) {
                    at.insert(&n.board, Some(child));
                }
            }
        }
    }

    #[test]
    fn manhattan_finds_the_optimum_and_expands_every_node_below_c_star() {
        let (goal, table, est) = setup();
        let h = |b: &Board| est.estimate(Heuristic::Manhattan, b.cells());
        let exact = |b: &Board| table.distance(b).unwrap().map(u32::from);
        let mut rng = SplitMix64::new(7);
        for _ in 0..50 {
            let start = table.index().board(rng.next_u64() % table.index().len());
            let c = exact(&start).unwrap();
            let t = astar_trace(&start, &goal, &h, 1.0, &exact, 100_000).unwrap();
            assert!(!t.capped);
            let path = t.solution.as_ref().unwrap();
            assert_eq!(path.len() as u32 - 1, c, "{start}");
            // the path is a chain of moves from the start to the goal
            assert_eq!(t.nodes[path[0]].board, start);
            assert_eq!(t.nodes[*path.last().unwrap()].board, goal);
            for w in path.windows(2) {
                assert_eq!(t.nodes[w[1]].parent, Some(w[0]));
                assert_eq!(t.nodes[w[0]].board.moved(t.nodes[w[1]].dir.unwrap()).as_ref(), Some(&t.nodes[w[1]].board));
            }
            // A*'s "must" nodes: with a consistent estimate every state with g*(s) + h(s) < C* is
            // expanded, and a node's g is at least its state's g*
            let expanded: HashSet<&Board> = t.steps.iter().map(|s| &t.nodes[s.expand].board).collect();
            for (id, n) in t.nodes.iter().enumerate() {
                assert_eq!(n.id, id);
                assert_eq!(n.hstar, exact(&n.board));
                if n.g + n.h < c {
                    assert!(expanded.contains(&n.board), "{start}: {} not expanded", n.board);
                }
            }
            // consistent: f never decreases along the expansions
            let fs: Vec<u32> = t.steps.iter().map(|s| t.nodes[s.expand].g + t.nodes[s.expand].h).collect();
            assert!(fs.windows(2).all(|w| w[0] <= w[1]), "{fs:?}");
            check_statuses(&t);
        }
    }

    #[test]
    fn zero_is_uniform_cost_and_the_cap_stops_it() {
        let (goal, table, _) = setup();
        let exact = |b: &Board| table.distance(b).unwrap().map(u32::from);
        let mut rng = SplitMix64::new(11);
        for _ in 0..5 {
            let start = table.index().board(rng.next_u64() % table.index().len());
            let t = astar_trace(&start, &goal, &|_| 0, 1.0, &exact, 200_000).unwrap();
            assert_eq!(t.solution.as_ref().unwrap().len() as u32 - 1, exact(&start).unwrap());
            let gs: Vec<u32> = t.steps.iter().map(|s| t.nodes[s.expand].g).collect();
            assert!(gs.windows(2).all(|w| w[0] <= w[1]), "{gs:?}");
            check_statuses(&t);
        }
        let hard = Board::parse(Shape::EIGHT, "8 6 7 2 5 4 3 0 1").unwrap();
        let t = astar_trace(&hard, &goal, &|_| 0, 1.0, &exact, 5).unwrap();
        assert!(t.capped && t.solution.is_none());
        assert_eq!(t.steps.len(), 5);
        // the start is the goal: solved at once, no step
        let t = astar_trace(&goal, &goal, &|_| 0, 1.0, &exact, 0).unwrap();
        assert_eq!((t.solution, t.steps.len(), t.capped), (Some(vec![0]), 0, false));
    }

    #[test]
    fn an_unsolvable_start_runs_dry_or_to_the_cap() {
        let goal = Goal::BlankLast.board(Shape::new(2, 3).unwrap()).unwrap();
        let swapped = Board::parse(goal.shape(), "2 1 3 4 5 0").unwrap();
        assert!(!swapped.is_solvable_to(&goal));
        let t = astar_trace(&swapped, &goal, &|_| 0, 1.0, &|_| None, 10_000).unwrap();
        // 360 states in the start's half, each expanded once
        assert_eq!((t.steps.len(), t.solution, t.capped), (360, None, false));
        let t = astar_trace(&swapped, &goal, &|_| 0, 1.0, &|_| None, 100).unwrap();
        assert_eq!((t.steps.len(), t.solution, t.capped), (100, None, true));
    }

    #[test]
    fn a_heavy_weight_still_reaches_the_goal_and_bad_options_are_refused() {
        let (goal, table, est) = setup();
        let h = |b: &Board| est.estimate(Heuristic::Manhattan, b.cells());
        let exact = |b: &Board| table.distance(b).unwrap().map(u32::from);
        let hard = Board::parse(Shape::EIGHT, "8 6 7 2 5 4 3 0 1").unwrap();
        let t = astar_trace(&hard, &goal, &h, 5.0, &exact, 20_000).unwrap();
        assert!(t.solution.as_ref().unwrap().len() > 31);
        check_statuses(&t);
        assert!(matches!(astar_trace(&hard, &goal, &h, -1.0, &exact, 10), Err(Error::BadOption(_))));
        assert!(matches!(astar_trace(&hard, &goal, &h, f64::NAN, &exact, 10), Err(Error::BadOption(_))));
        assert!(matches!(astar_trace(&hard, &goal, &h, f64::INFINITY, &exact, 10), Err(Error::BadOption(_))));
        let other = Goal::BlankLast.board(Shape::new(2, 4).unwrap()).unwrap();
        assert!(matches!(astar_trace(&hard, &other, &h, 1.0, &exact, 10), Err(Error::ShapeMismatch { .. })));
        let big = Goal::BlankLast.board(Shape::new(3, 6).unwrap()).unwrap();
        assert!(matches!(astar_trace(&big, &big, &|_| 0, 1.0, &|_| None, 10), Err(Error::BadOption(_))));
        // 16 cells are taken
        let fifteen = Goal::BlankLast.board(Shape::new(4, 4).unwrap()).unwrap();
        assert!(astar_trace(&fifteen, &fifteen, &|_| 0, 1.0, &|_| None, 10).unwrap().solution.is_some());
    }
}
