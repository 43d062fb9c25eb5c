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
    /// Whether the search stopped at its limit of expansions.
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
/// The start must be able to reach the goal (check with [`Board::is_solvable_to`]); otherwise
/// the search runs until its limit.
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
    use std::collections::HashSet;

    use super::*;
    use crate::heuristic::{Estimator, Heuristic};
    use crate::puzzle::{Goal, Shape};

    fn setup() -> (Board, crate::Table<Vec<u8>>, Estimator) {
        let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
        let table = crate::build(&goal, |_| {}).unwrap();
        let est = Estimator::new(&goal);
        (goal, table, est)
    }

    #[test]
    fn manhattan_finds_the_optimum_and_expands_every_node_below_c_star() {
        let (goal, table, est) = setup();
        let h = |b: &Board| est.estimate(Heuristic::Manhattan, b.cells());
        let exact = |b: &Board| table.distance(b).unwrap().map(u32::from);
        for i in (0..table.index().len()).step_by(3637) {
            let start = table.index().board(i);
            let c = exact(&start).unwrap();
            let t = astar_trace(&start, &goal, &h, 1.0, &exact, 100_000).unwrap();
            let path = t.solution.as_ref().unwrap();
            assert_eq!(path.len() as u32 - 1, c, "{start}");
            // the path is a chain of moves from the start to the goal
            assert_eq!(t.nodes[path[0]].board, start);
            assert_eq!(t.nodes[*path.last().unwrap()].board, goal);
            for w in path.windows(2) {
                assert_eq!(t.nodes[w[1]].parent, Some(w[0]));
            }
            // every state with g + h < C* on an optimal path (g = its distance from the start)
            // is expanded: A*'s "must" nodes
            let expanded: HashSet<Board> = t.steps.iter().map(|s| t.nodes[s.expand].board.clone()).collect();
            for n in &t.nodes {
                if n.g + n.h < c && n.g + n.hstar.unwrap() == c {
                    assert!(expanded.contains(&n.board), "{start}: {} not expanded", n.board);
                }
            }
            // statuses: a closed child's state was expanded before
            let mut done: HashSet<Board> = HashSet::new();
            for s in &t.steps {
                done.insert(t.nodes[s.expand].board.clone());
                for &(child, status) in &s.children {
                    assert_eq!(status == ChildStatus::Closed, done.contains(&t.nodes[child].board));
                    assert_eq!(t.nodes[child].parent, Some(s.expand));
                }
            }
        }
    }

    #[test]
    fn zero_is_uniform_cost_and_the_cap_stops_it() {
        let (goal, table, _) = setup();
        let exact = |b: &Board| table.distance(b).unwrap().map(u32::from);
        let start = Board::parse(Shape::EIGHT, "1 2 3 4 5 6 0 7 8").unwrap();
        let t = astar_trace(&start, &goal, &|_| 0, 1.0, &exact, 10_000).unwrap();
        assert_eq!(t.solution.as_ref().unwrap().len(), 3);
        let gs: Vec<u32> = t.steps.iter().map(|s| t.nodes[s.expand].g).collect();
        assert!(gs.windows(2).all(|w| w[0] <= w[1]), "{gs:?}");
        let hard = Board::parse(Shape::EIGHT, "8 6 7 2 5 4 3 0 1").unwrap();
        let t = astar_trace(&hard, &goal, &|_| 0, 1.0, &exact, 5).unwrap();
        assert!(t.capped && t.solution.is_none());
        assert_eq!(t.steps.len(), 5);
    }

    #[test]
    fn a_heavy_weight_still_reaches_the_goal_and_bad_options_are_refused() {
        let (goal, table, est) = setup();
        let h = |b: &Board| est.estimate(Heuristic::Manhattan, b.cells());
        let exact = |b: &Board| table.distance(b).unwrap().map(u32::from);
        let hard = Board::parse(Shape::EIGHT, "8 6 7 2 5 4 3 0 1").unwrap();
        let t = astar_trace(&hard, &goal, &h, 5.0, &exact, 20_000).unwrap();
        assert!(t.solution.unwrap().len() > 31);
        assert!(matches!(astar_trace(&hard, &goal, &h, -1.0, &exact, 10), Err(Error::BadOption(_))));
        assert!(matches!(astar_trace(&hard, &goal, &h, f64::NAN, &exact, 10), Err(Error::BadOption(_))));
        let other = Goal::BlankLast.board(Shape::new(2, 4).unwrap()).unwrap();
        assert!(matches!(astar_trace(&hard, &other, &h, 1.0, &exact, 10), Err(Error::ShapeMismatch { .. })));
    }
}
