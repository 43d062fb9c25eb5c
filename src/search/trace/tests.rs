//! The recorders against the library's searches (the same counts and solutions on hundreds of
//! boards), and against the rules their docs state.

use std::collections::{HashMap, HashSet};

use super::*;
use crate::heuristic::pdb::{Partition, PatternSet};
use crate::heuristic::Heuristic;
use crate::lab::sample::sample_depth;
use crate::puzzle::{Goal, Shape};
use crate::search::{solve, Found};

type Eight = crate::Table<Vec<u8>>;

fn setup() -> (Board, Eight) {
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    let table = crate::build(&goal, |_| {}).unwrap();
    (goal, table)
}

fn exact(table: &Eight) -> impl Fn(&Board) -> Option<u32> + '_ {
    |b: &Board| table.distance(b).unwrap().map(u32::from)
}

/// `per_depth` boards at each of `depths`, drawn uniformly among those at that distance.
fn boards(table: &Eight, depths: &[u8], per_depth: usize, seed: u64) -> Vec<Board> {
    let mut out = Vec::new();
    for &d in depths {
        for i in sample_depth(table, d, per_depth, seed + d as u64).unwrap() {
            out.push(table.index().board(i));
        }
    }
    out
}

fn library(start: &Board, goal: &Board, guide: Guide<'_>, algorithm: Algorithm) -> Found {
    solve(start, goal, guide, &Options::new(algorithm)).unwrap().unwrap()
}

/// The moves of a recorded path.
fn moves_of<N>(path: &[usize], nodes: &[N], dir: impl Fn(&N) -> Option<Dir>) -> Vec<Dir> {
    path[1..].iter().map(|&i| dir(&nodes[i]).unwrap()).collect()
}

/// The recorded A* and the library's agree: expansions, nodes generated, the solution.
fn same_as_library(
    start: &Board,
    goal: &Board,
    guide: Option<Guide<'_>>,
    weight: f64,
    exact: &dyn Fn(&Board) -> Option<u32>,
) {
    let t = astar_trace(start, goal, guide, weight, exact, usize::MAX).unwrap();
    let lib_guide = guide.unwrap_or(Guide::Heuristic(Heuristic::Hamming));
    let lib = library(start, goal, lib_guide, t.algorithm);
    let what = format!("{start} {:?} w={weight}", guide);
    assert_eq!(t.steps.len() as u64, lib.stats.expanded, "expanded: {what}");
    assert_eq!(t.nodes.len() as u64, lib.stats.generated, "generated: {what}");
    let path = t.solution.as_ref().unwrap();
    assert_eq!(moves_of(path, &t.nodes, |n| n.dir), lib.moves, "solution: {what}");
}

#[test]
fn astar_counts_as_the_librarys_a_star_on_200_boards() {
    let (goal, table) = setup();
    let exact = exact(&table);
    for start in boards(&table, &[8, 11, 14, 17, 20], 40, 1) {
        for h in [Heuristic::Hamming, Heuristic::Manhattan] {
            same_as_library(&start, &goal, Some(Guide::Heuristic(h)), 1.0, &exact);
        }
    }
    // every heuristic and weights, the hardest boards included
    let hard = Board::parse(Shape::EIGHT, "8 6 7 2 5 4 3 0 1").unwrap();
    let mut some = boards(&table, &[6, 14, 22, 26], 3, 2);
    some.push(hard);
    for start in &some {
        for h in Heuristic::ALL {
            same_as_library(start, &goal, Some(Guide::Heuristic(h)), 1.0, &exact);
            for w in [1.5, 2.0, 3.25] {
                same_as_library(start, &goal, Some(Guide::Heuristic(h)), w, &exact);
            }
        }
        same_as_library(start, &goal, Some(Guide::Table(&table)), 1.0, &exact);
    }
    // the zero estimate (breadth-first) and weights below 1 search wide: shallower boards
    for start in &boards(&table, &[6, 11, 15], 3, 3) {
        same_as_library(start, &goal, None, 1.0, &exact);
        for w in [0.0, 0.5] {
            same_as_library(start, &goal, Some(Guide::Heuristic(Heuristic::Manhattan)), w, &exact);
        }
    }
}

#[test]
fn astar_with_pattern_tables_counts_as_the_library() {
    let (goal, table) = setup();
    let set = PatternSet::build(&goal, Partition::parse(&goal, "auto").unwrap(), true).unwrap();
    for start in boards(&table, &[10, 20, 30], 5, 3) {
        same_as_library(&start, &goal, Some(Guide::Patterns(&set)), 1.0, &exact(&table));
        same_as_library(&start, &goal, Some(Guide::Patterns(&set)), 2.0, &exact(&table));
    }
}

/// Replays the steps against the rules of the module doc: each step expands the node its state
/// is open as, the one the open list's order puts first; each child's status follows from what
/// was open and closed before.
fn check_statuses(t: &Trace) {
    // state -> (node, closed)
    let mut at: HashMap<&Board, (usize, bool)> = HashMap::new();
    // the node whose state was reached first, for each node
    let mut first = vec![0usize; t.nodes.len()];
    // the open nodes in the order the module doc states: key, deepest, then the tie rule
    let rank = |n: usize, first: &[usize]| {
        let node = &t.nodes[n];
        let tie = match t.ties {
            TieBreak::LastGenerated => usize::MAX - n,
            TieBreak::FirstSeen => first[n],
        };
        (t.key(node.g, node.h), u32::MAX - node.g, tie, n)
    };
    let mut open = std::collections::BTreeSet::from([rank(0, &first)]);
    at.insert(&t.nodes[0].board, (0, false));
    let mut next_child = 1;
    for s in &t.steps {
        let best = open.pop_first().unwrap().3;
        assert_eq!(s.expand, best, "the open list's first");
        let board = &t.nodes[s.expand].board;
        assert_eq!(at.insert(board, (s.expand, true)), Some((s.expand, false)));
        assert_eq!(s.children.start, next_child);
        next_child = s.children.end;
        for child in s.children.clone() {
            let n = &t.nodes[child];
            assert_eq!((n.parent, n.g), (Some(s.expand), t.nodes[s.expand].g + 1));
            assert_ne!(n.dir.map(Dir::opposite), t.nodes[s.expand].dir, "the move back is never made");
            let expected = match at.get(&n.board) {
                None => ChildStatus::New,
                Some(&(other, closed)) if t.nodes[other].g <= n.g => {
                    if closed {
                        ChildStatus::Closed
                    } else {
                        ChildStatus::Worse
                    }
                }
                Some(&(other, true)) => ChildStatus::Reopened { replaced: other },
                Some(&(other, false)) => ChildStatus::Better { replaced: other },
            };
            assert_eq!(n.status, Some(expected), "child {child}");
            match expected {
                ChildStatus::New => first[child] = child,
                ChildStatus::Better { replaced } => {
                    assert!(open.remove(&rank(replaced, &first)));
                    first[child] = first[replaced];
                }
                ChildStatus::Reopened { replaced } => first[child] = first[replaced],
                _ => continue,
            }
            at.insert(&n.board, (child, false));
            open.insert(rank(child, &first));
        }
    }
    assert_eq!(next_child, t.nodes.len());
}

#[test]
fn manhattan_finds_the_optimum_and_expands_every_node_below_c_star() {
    let (goal, table) = setup();
    let exact = exact(&table);
    let h = Guide::Heuristic(Heuristic::Manhattan);
    for start in boards(&table, &[5, 15, 25], 10, 7) {
        let c = exact(&start).unwrap();
        let t = astar_trace(&start, &goal, Some(h), 1.0, &exact, 100_000).unwrap();
        assert!(!t.capped);
        assert_eq!((t.algorithm, t.ties), (Algorithm::AStar, TieBreak::LastGenerated));
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
fn reopening_and_heap_ties_follow_the_rules() {
    let (goal, table) = setup();
    let exact = exact(&table);
    let mut reopened = 0;
    let wide = boards(&table, &[8, 12], 2, 6).into_iter().map(|b| (b, Heuristic::Hamming, 0.0));
    let deep = boards(&table, &[12, 20, 28], 4, 5).into_iter().flat_map(|b| {
        [(b.clone(), Heuristic::Nilsson, 1.0), (b.clone(), Heuristic::Manhattan, 2.5), (b, Heuristic::Hamming, 2.0)]
    });
    for (start, h, w) in wide.chain(deep) {
        {
            let t = astar_trace(&start, &goal, Some(Guide::Heuristic(h)), w, &exact, 100_000).unwrap();
            assert_eq!(t.ties, TieBreak::FirstSeen);
            check_statuses(&t);
            reopened += t.nodes.iter().filter(|n| matches!(n.status, Some(ChildStatus::Reopened { .. }))).count();
        }
    }
    assert!(reopened > 0, "no state was reopened: the test shows nothing");
}

#[test]
fn zero_is_breadth_first_and_the_cap_stops_it() {
    let (goal, table) = setup();
    let exact = exact(&table);
    for start in boards(&table, &[3, 9, 13], 2, 11) {
        let t = astar_trace(&start, &goal, None, 1.0, &exact, 200_000).unwrap();
        assert_eq!(t.algorithm, Algorithm::Bfs);
        assert_eq!(t.solution.as_ref().unwrap().len() as u32 - 1, exact(&start).unwrap());
        let gs: Vec<u32> = t.steps.iter().map(|s| t.nodes[s.expand].g).collect();
        assert!(gs.windows(2).all(|w| w[0] <= w[1]), "{gs:?}");
        assert!(t.nodes.iter().all(|n| n.h == 0));
        check_statuses(&t);
        // the weight multiplies a zero: the same search
        assert_eq!(astar_trace(&start, &goal, None, 3.0, &exact, 200_000).unwrap(), t);
    }
    let hard = Board::parse(Shape::EIGHT, "8 6 7 2 5 4 3 0 1").unwrap();
    let t = astar_trace(&hard, &goal, None, 1.0, &exact, 5).unwrap();
    assert!(t.capped && t.solution.is_none());
    assert_eq!(t.steps.len(), 5);
    // the start is the goal: solved at once, no step
    let t = astar_trace(&goal, &goal, None, 1.0, &exact, 0).unwrap();
    assert_eq!((t.solution, t.steps.len(), t.capped), (Some(vec![0]), 0, false));
}

#[test]
fn an_unsolvable_start_runs_dry_or_to_the_cap() {
    let goal = Goal::BlankLast.board(Shape::new(2, 3).unwrap()).unwrap();
    let swapped = Board::parse(goal.shape(), "2 1 3 4 5 0").unwrap();
    assert!(!swapped.is_solvable_to(&goal));
    let t = astar_trace(&swapped, &goal, None, 1.0, &|_| None, 10_000).unwrap();
    // 360 states in the start's half, each expanded once
    assert_eq!((t.steps.len(), t.solution, t.capped), (360, None, false));
    let t = astar_trace(&swapped, &goal, None, 1.0, &|_| None, 100).unwrap();
    assert_eq!((t.steps.len(), t.solution, t.capped), (100, None, true));
    let t = idastar_trace(&swapped, &goal, Some(Guide::Heuristic(Heuristic::Manhattan)), &|_| None, 500).unwrap();
    assert_eq!((t.expanded(), t.solution, t.capped), (500, None, true));
}

#[test]
fn a_heavy_weight_still_reaches_the_goal_and_bad_options_are_refused() {
    let (goal, table) = setup();
    let exact = exact(&table);
    let h = Some(Guide::Heuristic(Heuristic::Manhattan));
    let hard = Board::parse(Shape::EIGHT, "8 6 7 2 5 4 3 0 1").unwrap();
    let t = astar_trace(&hard, &goal, h, 5.0, &exact, 20_000).unwrap();
    assert!(t.solution.as_ref().unwrap().len() > 31);
    check_statuses(&t);
    assert!(matches!(astar_trace(&hard, &goal, h, -1.0, &exact, 10), Err(Error::BadOption(_))));
    assert!(matches!(astar_trace(&hard, &goal, h, f64::NAN, &exact, 10), Err(Error::BadOption(_))));
    assert!(matches!(astar_trace(&hard, &goal, h, f64::INFINITY, &exact, 10), Err(Error::BadOption(_))));
    let other = Goal::BlankLast.board(Shape::new(2, 4).unwrap()).unwrap();
    assert!(matches!(astar_trace(&hard, &other, h, 1.0, &exact, 10), Err(Error::ShapeMismatch { .. })));
    assert!(matches!(idastar_trace(&hard, &other, h, &exact, 10), Err(Error::ShapeMismatch { .. })));
    let big = Goal::BlankLast.board(Shape::new(3, 6).unwrap()).unwrap();
    assert!(matches!(astar_trace(&big, &big, None, 1.0, &|_| None, 10), Err(Error::BadOption(_))));
    assert!(matches!(idastar_trace(&big, &big, None, &|_| None, 10), Err(Error::BadOption(_))));
    let snail = Goal::Snail.board(Shape::EIGHT).unwrap();
    assert!(matches!(astar_trace(&hard, &snail, Some(Guide::Table(&table)), 1.0, &exact, 10), Err(Error::BadGoal(_))));
    // 16 cells are taken
    let fifteen = Goal::BlankLast.board(Shape::new(4, 4).unwrap()).unwrap();
    assert!(astar_trace(&fifteen, &fifteen, None, 1.0, &|_| None, 10).unwrap().solution.is_some());
    assert!(idastar_trace(&fifteen, &fifteen, h, &|_| None, 10).unwrap().solution.is_some());
}

/// The recorded IDA* and the library's agree: expansions, nodes generated, iterations, the
/// solution; and the iterations hold together.
fn ida_same_as_library(start: &Board, goal: &Board, h: Heuristic, exact: &dyn Fn(&Board) -> Option<u32>) {
    let t = idastar_trace(start, goal, Some(Guide::Heuristic(h)), exact, usize::MAX).unwrap();
    let lib = library(start, goal, Guide::Heuristic(h), Algorithm::IdaStar);
    let what = format!("{start} {}", h.name());
    assert_eq!(t.expanded(), lib.stats.expanded, "expanded: {what}");
    assert_eq!(t.generated(), lib.stats.generated, "generated: {what}");
    assert_eq!(t.iterations.len() as u64, lib.stats.iterations, "iterations: {what}");
    let path = t.solution.as_ref().unwrap();
    assert_eq!(moves_of(path, &t.nodes, |n| n.dir), lib.moves, "solution: {what}");
    check_iterations(&t, exact(start).filter(|_| h.is_admissible()));
}

/// Bounds strictly increase, each the least f cut in the iteration before, the last equal to
/// `c_star` (when given: the estimate is admissible); the events of each iteration are a depth-first search within its bound.
fn check_iterations(t: &IdaTrace, c_star: Option<u32>) {
    let its = &t.iterations;
    assert!(its.windows(2).all(|w| w[0].bound < w[1].bound && w[0].next_bound == Some(w[1].bound)));
    if let (Some(path), Some(last)) = (&t.solution, its.last()) {
        // an inadmissible estimate may find a longer solution, within its last bound
        assert!(path.len() as u32 - 1 <= last.bound);
        if c_star.is_some() {
            assert_eq!(Some(last.bound), c_star);
        }
        assert_eq!(last.next_bound, None);
    }
    let mut next = 1;
    for it in its {
        assert_eq!(it.nodes.start, next);
        next = it.nodes.end;
        assert_eq!(it.generated as usize, it.nodes.len());
        let entered = it.nodes.clone().filter(|&i| t.nodes[i].kind == IdaKind::Expanded).count();
        assert_eq!(it.expanded as usize, 1 + entered);
        let cut = it.nodes.clone().filter(|&i| t.nodes[i].kind == IdaKind::Cut).map(|i| t.nodes[i].g + t.nodes[i].h);
        if it.next_bound.is_some() {
            assert_eq!(cut.min(), it.next_bound);
        }
        // depth first: a node's parent is the start or a node entered earlier in this iteration,
        // still on the path (every node after it, up to this one, descends from it)
        let mut path = vec![0usize];
        for i in it.nodes.clone() {
            let n = &t.nodes[i];
            let parent = n.parent.unwrap();
            while *path.last().unwrap() != parent {
                path.pop().expect("the parent is on the path");
            }
            assert_eq!(n.g, t.nodes[parent].g + 1);
            assert_eq!(Some(&n.board), t.nodes[parent].board.moved(n.dir.unwrap()).as_ref());
            assert_ne!(n.dir.map(Dir::opposite), t.nodes[parent].dir, "the move back is never made");
            match n.kind {
                IdaKind::Expanded => {
                    assert!(n.g + n.h <= it.bound);
                    path.push(i);
                }
                IdaKind::Cut => assert!(n.g + n.h > it.bound),
                IdaKind::Goal => assert_eq!(Some(i), t.solution.as_ref().and_then(|p| p.last().copied())),
            }
        }
    }
    assert_eq!(next, t.nodes.len());
}

#[test]
fn idastar_counts_as_the_librarys_ida_star_on_200_boards() {
    let (goal, table) = setup();
    let exact = exact(&table);
    for start in boards(&table, &[8, 11, 14, 17, 20], 40, 13) {
        ida_same_as_library(&start, &goal, Heuristic::Manhattan, &exact);
        if exact(&start).unwrap() <= 14 {
            ida_same_as_library(&start, &goal, Heuristic::Hamming, &exact);
        }
    }
    for start in boards(&table, &[14, 24, 28], 3, 17) {
        ida_same_as_library(&start, &goal, Heuristic::LinearConflict, &exact);
        ida_same_as_library(&start, &goal, Heuristic::Nilsson, &exact);
    }
}

#[test]
fn idastar_with_zero_is_iterative_deepening_and_the_cap_stops_it() {
    let (goal, table) = setup();
    let exact = exact(&table);
    for start in boards(&table, &[1, 5, 9], 2, 19) {
        let t = idastar_trace(&start, &goal, None, &exact, 1_000_000).unwrap();
        let c = exact(&start).unwrap();
        // f is g: the bounds are 0, 1, 2, ..., C*
        let bounds: Vec<u32> = t.iterations.iter().map(|i| i.bound).collect();
        assert_eq!(bounds, (0..=c).collect::<Vec<_>>());
        check_iterations(&t, Some(c));
    }
    let hard = Board::parse(Shape::EIGHT, "8 6 7 2 5 4 3 0 1").unwrap();
    let manhattan = Some(Guide::Heuristic(Heuristic::Manhattan));
    let t = idastar_trace(&hard, &goal, manhattan, &exact, 2000).unwrap();
    assert!(t.capped && t.solution.is_none());
    assert_eq!(t.expanded(), 2000);
    check_iterations(&t, Some(31));
    // the start is the goal: solved at once, no iteration
    let t = idastar_trace(&goal, &goal, manhattan, &exact, 1).unwrap();
    assert_eq!((t.solution.clone(), t.iterations.len(), t.generated(), t.expanded()), (Some(vec![0]), 0, 1, 0));
}
