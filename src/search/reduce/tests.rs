use super::*;
use crate::arrays::random_boards;
use crate::puzzle::{Goal, Shape};
use std::time::Instant;

/// Random boards of `goal`'s shape that can reach it, `count` of them from `seed`.
fn boards(goal: &Board, seed: u64, count: usize) -> Vec<Board> {
    let n = goal.shape().cells();
    let mut out = vec![0u16; n * count];
    random_boards(goal, seed, 0, &mut out);
    out.chunks(n).map(|c| Board::new(goal.shape(), c.to_vec()).unwrap()).collect()
}

/// A random goal of `shape`: the blank anywhere, the tiles in any order.
fn random_goal(shape: Shape, seed: u64) -> Board {
    let last = Goal::BlankLast.board(shape).unwrap();
    boards(&last, seed ^ 0xA5A5, 1).pop().unwrap()
}

fn manhattan(start: &Board, goal: &Board) -> usize {
    let cols = start.shape().cols();
    let mut at = vec![0usize; start.cells().len()];
    for (c, &t) in goal.cells().iter().enumerate() {
        at[t as usize] = c;
    }
    start
        .cells()
        .iter()
        .enumerate()
        .filter(|&(_, &t)| t != 0)
        .map(|(c, &t)| (c / cols).abs_diff(at[t as usize] / cols) + (c % cols).abs_diff(at[t as usize] % cols))
        .sum()
}

/// Solves `start` and checks the moves, one by one, reach `goal`; returns their number.
fn check(start: &Board, goal: &Board) -> usize {
    let moves = reduce(start, goal).unwrap().unwrap_or_else(|| panic!("{start} -> {goal}: no solution"));
    let mut b = start.clone();
    for (i, &d) in moves.iter().enumerate() {
        assert!(b.apply(d).is_some(), "{start} -> {goal}: move {i} ({d:?}) leaves the board");
    }
    assert_eq!(&b, goal, "{start} -> {goal}: the moves end elsewhere");
    moves.len()
}

#[test]
fn eight_puzzle_states_reach_both_goals_optimally_short() {
    let shape = Shape::EIGHT;
    for goal in [Goal::BlankLast.board(shape).unwrap(), Goal::Snail.board(shape).unwrap(), random_goal(shape, 5)] {
        for start in boards(&goal, 1, 3000) {
            let len = check(&start, &goal);
            // the 3x3 puzzle is finished by the exact search alone
            assert!(len <= 31, "{start}: {len} moves");
        }
    }
}

#[test]
fn every_shape_reaches_random_goals() {
    let shapes = [
        (2, 2),
        (2, 3),
        (3, 2),
        (2, 4),
        (2, 5),
        (2, 9),
        (9, 2),
        (3, 3),
        (3, 4),
        (3, 7),
        (4, 4),
        (5, 5),
        (6, 6),
        (7, 4),
        (4, 7),
        (10, 10),
        (31, 17),
        (2, 40),
        (40, 3),
    ];
    for (k, &(rows, cols)) in shapes.iter().enumerate() {
        let shape = Shape::new(rows, cols).unwrap();
        let count = if rows * cols > 100 { 4 } else { 60 };
        for g in 0..6u64 {
            let goal =
                if g == 0 { Goal::BlankLast.board(shape).unwrap() } else { random_goal(shape, k as u64 * 100 + g) };
            for start in boards(&goal, g + 17 * k as u64, count) {
                check(&start, &goal);
            }
        }
    }
}

#[test]
fn a_solved_board_needs_no_moves_and_the_largest_board_is_solved() {
    let shape = Shape::new(127, 127).unwrap();
    let goal = Goal::BlankFirst.board(shape).unwrap();
    assert_eq!(reduce(&goal, &goal).unwrap(), Some(vec![]));
    let start = boards(&goal, 3, 1).pop().unwrap();
    check(&start, &goal);
}

#[test]
fn unsolvable_boards_and_other_shapes_are_refused() {
    for (rows, cols) in [(2, 2), (3, 3), (2, 7), (6, 5)] {
        let shape = Shape::new(rows, cols).unwrap();
        let goal = random_goal(shape, 9);
        for start in boards(&goal, 4, 20) {
            let mut cells = start.cells().to_vec();
            let tiles: Vec<usize> = (0..cells.len()).filter(|&c| cells[c] != 0).take(2).collect();
            cells.swap(tiles[0], tiles[1]);
            let odd = Board::new(shape, cells).unwrap();
            assert_eq!(reduce(&odd, &goal).unwrap(), None, "{odd}");
        }
    }
    let a = Goal::BlankLast.board(Shape::new(3, 4).unwrap()).unwrap();
    let b = Goal::BlankLast.board(Shape::new(4, 3).unwrap()).unwrap();
    assert!(matches!(reduce(&a, &b), Err(Error::ShapeMismatch { .. })));
}

#[test]
fn solutions_stay_near_twice_the_manhattan_distance() {
    // a guard against a change that loses the length, not a benchmark: the report below has the
    // figures
    let goal = Goal::BlankLast.board(Shape::new(12, 12).unwrap()).unwrap();
    let (mut len, mut dist) = (0, 0);
    for start in boards(&goal, 8, 10) {
        len += check(&start, &goal);
        dist += manhattan(&start, &goal);
    }
    let ratio = len as f64 / dist as f64;
    assert!(ratio < 3.0, "{ratio}");
}

/// Length against the Manhattan distance, and time, on uniform random boards (run with
/// `cargo test --release --lib reduce_report -- --ignored --nocapture`).
#[test]
#[ignore]
fn reduce_report() {
    println!("{:>8} {:>6} {:>11} {:>10} {:>10}", "shape", "boards", "mean ratio", "max ratio", "mean s");
    for (side, count) in std::env::var("SIDES").map(|v| v.split(',').map(|x| { let (a, b) = x.split_once(':').unwrap(); (a.parse().unwrap(), b.parse().unwrap()) }).collect::<Vec<(usize, usize)>>()).unwrap_or(vec![(6, 10), (7, 10), (10, 10), (20, 10), (50, 10), (100, 3)]) {
        let goal = Goal::BlankLast.board(Shape::new(side, side).unwrap()).unwrap();
        let (mut sum, mut max, mut secs) = (0.0, 0.0f64, 0.0);
        for start in boards(&goal, 2024, count) {
            let began = Instant::now();
            let moves = reduce(&start, &goal).unwrap().unwrap();
            secs += began.elapsed().as_secs_f64();
            let mut b = start.clone();
            moves.iter().for_each(|&d| assert!(b.apply(d).is_some()));
            assert_eq!(b, goal);
            let ratio = moves.len() as f64 / manhattan(&start, &goal) as f64;
            sum += ratio;
            max = max.max(ratio);
        }
        let n = count as f64;
        println!("{:>8} {:>6} {:>11.3} {:>10.3} {:>10.3}", format!("{side}x{side}"), count, sum / n, max, secs / n);
    }
}
