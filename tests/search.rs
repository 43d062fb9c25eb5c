//! A* and IDA* (`src/search.rs`) with every admissible heuristic against the perfect table: on a
//! seeded sample of 3x3 states at every depth, each solution is as long as the table's distance
//! and replays move by move onto the goal.

use slidetable::heuristic::{Estimator, Heuristic};
use slidetable::search::{astar, idastar, Found};
use slidetable::{build, Board, Goal, Shape};

/// Replays `found` from `start` and checks it ends on `goal` in `distance` moves.
fn check(start: &Board, goal: &Board, found: &Found, distance: u8, what: &str) {
    assert_eq!(found.moves.len(), distance as usize, "{what} on {start}");
    let mut b = start.clone();
    for &m in &found.moves {
        assert!(b.apply(m).is_some(), "{what}: move {m:?} leaves the board from {b}");
    }
    assert_eq!(&b, goal, "{what}: the moves from {start} do not end on the goal");
    assert!(found.stats.generated >= found.stats.expanded);
}

/// Up to `per_depth` states at each depth, spread over the index (a fixed stride, so the same
/// states on every run).
fn sample(goal: &Board, per_depth: usize) -> Vec<(Board, u8)> {
    let table = build(goal, |_| {}).unwrap();
    let mut out = Vec::new();
    for (d, &count) in table.histogram().iter().enumerate() {
        let stride = (count as usize / per_depth).max(1);
        let at_depth: Vec<Board> = table.states_at(d as u8, usize::MAX);
        out.extend(at_depth.into_iter().step_by(stride).take(per_depth).map(|b| (b, d as u8)));
    }
    out
}

#[test]
fn astar_and_idastar_are_optimal_on_3x3_at_every_depth() {
    for goal in [Goal::BlankLast, Goal::Snail] {
        let goal = goal.board(Shape::EIGHT).unwrap();
        for (start, d) in sample(&goal, 3) {
            for h in [Heuristic::Manhattan, Heuristic::LinearConflict] {
                check(&start, &goal, &astar(&start, &goal, h).unwrap(), d, &format!("A* {}", h.name()));
                check(&start, &goal, &idastar(&start, &goal, h).unwrap(), d, &format!("IDA* {}", h.name()));
            }
            // h1 is weak: A* up to depth 22, IDA* up to 16 keep the test fast
            if d <= 22 {
                check(&start, &goal, &astar(&start, &goal, Heuristic::Hamming).unwrap(), d, "A* hamming");
            }
            if d <= 16 {
                check(&start, &goal, &idastar(&start, &goal, Heuristic::Hamming).unwrap(), d, "IDA* hamming");
            }
        }
    }
}

#[test]
fn heuristics_never_overestimate_and_are_ordered_on_every_3x3_state() {
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    let table = build(&goal, |_| {}).unwrap();
    let est = Estimator::new(&goal);
    for i in 0..table.index().len() {
        let board = table.index().board(i);
        let exact = table.payload()[i as usize] as u32;
        let [h1, h2, lc] = Heuristic::ADMISSIBLE.map(|h| est.estimate(h, board.cells()));
        assert!(h1 <= h2 && h2 <= lc && lc <= exact, "{board}: {h1} {h2} {lc} against {exact}");
        assert_eq!(h2 % 2, exact % 2, "{board}: Manhattan has the parity of the distance");
    }
}

#[test]
fn unsolvable_boards_are_rejected_without_search() {
    let shape = Shape::new(4, 4).unwrap();
    let goal = Goal::BlankLast.board(shape).unwrap();
    let swapped = Board::parse(shape, "2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 0").unwrap();
    assert_eq!(astar(&swapped, &goal, Heuristic::Manhattan), None);
    assert_eq!(idastar(&swapped, &goal, Heuristic::LinearConflict), None);
}

#[test]
fn linear_conflict_counts_tiles_not_pairs() {
    // 3 2 1 in the goal row 1 2 3: Manhattan 4, and two tiles must leave the row (+4), not three
    // pairs (+6)
    let goal = Board::parse(Shape::EIGHT, "1 2 3 4 5 6 7 8 0").unwrap();
    let est = Estimator::new(&goal);
    let board = Board::parse(Shape::EIGHT, "3 2 1 4 5 6 7 8 0").unwrap();
    assert_eq!(est.estimate(Heuristic::Manhattan, board.cells()), 4);
    assert_eq!(est.estimate(Heuristic::LinearConflict, board.cells()), 8);
}

#[test]
fn russell_norvig_example_is_26_moves() {
    let goal = Goal::BlankFirst.board(Shape::EIGHT).unwrap();
    let start = Board::parse(Shape::EIGHT, "7 2 4 / 5 0 6 / 8 3 1").unwrap();
    for h in [Heuristic::Manhattan, Heuristic::LinearConflict] {
        assert_eq!(astar(&start, &goal, h).unwrap().moves.len(), 26);
        assert_eq!(idastar(&start, &goal, h).unwrap().moves.len(), 26);
    }
}

#[test]
fn rectangular_boards_match_the_table() {
    for (rows, cols) in [(2, 4), (4, 2), (2, 3), (3, 2)] {
        let goal = Goal::BlankLast.board(Shape::new(rows, cols).unwrap()).unwrap();
        for (start, d) in sample(&goal, 1) {
            check(&start, &goal, &astar(&start, &goal, Heuristic::LinearConflict).unwrap(), d, "A* lc");
            check(&start, &goal, &idastar(&start, &goal, Heuristic::LinearConflict).unwrap(), d, "IDA* lc");
        }
    }
}

#[test]
fn astar_and_idastar_agree_on_4x4() {
    let shape = Shape::new(4, 4).unwrap();
    let goal = Goal::BlankLast.board(shape).unwrap();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..4 {
        // a seeded random walk of 30 moves: at most 30 away
        let mut b = goal.clone();
        for _ in 0..30 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let _ = b.apply(slidetable::Dir::ALL[(seed % 4) as usize]);
        }
        let a = astar(&b, &goal, Heuristic::LinearConflict).unwrap();
        let i = idastar(&b, &goal, Heuristic::LinearConflict).unwrap();
        assert_eq!(a.moves.len(), i.moves.len(), "{b}");
        assert!(a.moves.len() <= 30);
        let d = a.moves.len() as u8;
        check(&b, &goal, &a, d, "A* lc 4x4");
        check(&b, &goal, &i, d, "IDA* lc 4x4");
    }
}
