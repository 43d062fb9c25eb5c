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
        let count = match rows * cols {
            0..=30 => 12,
            31..=100 => 4,
            _ => 1,
        };
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
    for (side, count) in [(6, 10), (7, 10), (10, 10), (20, 10), (50, 10), (100, 3)] {
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

/// `count` random moves of the blank from `start` (each one that stays on the board), from `seed`.
fn random_walk(start: &Board, seed: u64, count: usize) -> Vec<Dir> {
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut b = start.clone();
    let mut walk = Vec::with_capacity(count);
    while walk.len() < count {
        // xorshift: any stream will do, the walks only need to differ
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let d = Dir::ALL[(rng >> 60) as usize % 4];
        if b.apply(d).is_some() {
            walk.push(d);
        }
    }
    walk
}

/// Checks that `shorten` of `moves` from `start` is no longer and ends where `moves` do; returns
/// its length.
fn check_shorten(start: &Board, moves: &[Dir]) -> usize {
    let mut end = start.clone();
    moves.iter().for_each(|&d| assert!(end.apply(d).is_some()));
    let short = shorten::shorten(start, moves.to_vec());
    assert!(short.len() <= moves.len(), "{start}: {} moves from {}", short.len(), moves.len());
    let mut b = start.clone();
    for (i, &d) in short.iter().enumerate() {
        assert!(b.apply(d).is_some(), "{start}: shortened move {i} ({d:?}) leaves the board");
    }
    assert_eq!(b, end, "{start}: the shortened moves end elsewhere");
    short.len()
}

#[test]
fn shorten_keeps_the_end_of_the_constructions_moves() {
    for (k, &(rows, cols)) in [(2, 2), (2, 5), (3, 3), (4, 4), (3, 8), (7, 5), (12, 12), (20, 9)].iter().enumerate() {
        let shape = Shape::new(rows, cols).unwrap();
        for g in 0..3u64 {
            let goal = random_goal(shape, 40 + k as u64 * 10 + g);
            for start in boards(&goal, g + 5 * k as u64, 3) {
                let mut work = Work::new(&start, &goal);
                work.solve().unwrap();
                check_shorten(&start, &work.moves);
            }
        }
    }
}

#[test]
fn shorten_cuts_random_walks_down() {
    for (k, &(rows, cols)) in [(2, 2), (2, 3), (3, 3), (4, 4), (5, 3), (6, 6), (9, 13)].iter().enumerate() {
        let goal = random_goal(Shape::new(rows, cols).unwrap(), 70 + k as u64);
        for (s, start) in boards(&goal, 90 + k as u64, 8).iter().enumerate() {
            for len in [0, 1, 2, 7, 40, 300] {
                let walk = random_walk(start, (k * 100 + s * 10) as u64 + len as u64, len);
                let short = check_shorten(start, &walk);
                // a random walk of 300 moves steps back on itself all the time
                assert!(len < 300 || short < len / 2, "{start}: {short} of {len}");
            }
        }
    }
}

#[test]
fn shorten_cuts_loops_and_detours_to_their_shortest() {
    let start = Goal::BlankFirst.board(Shape::new(4, 4).unwrap()).unwrap();
    let moves = |s: &str| s.chars().map(|c| Dir::from_letter(c).unwrap()).collect::<Vec<Dir>>();
    // a step and its undoing, three turns of the blank around a 2x2 square (the identity), a
    // way out and back by another path: loops, cut to nothing
    for walk in ["DU", "RDLURDLURDLU", "DDRRUULL" /* not a loop: tiles move */, "DDRRUULLRRDDLLUU"] {
        let want = if walk == "DDRRUULL" { 8 } else { 0 };
        assert_eq!(check_shorten(&start, &moves(walk)), want, "{walk}");
    }
    // two turns one way around a 2x2 square are one turn the other way: a window solved again
    assert_eq!(check_shorten(&start, &moves("RDLURDLU")), 4);
    // the window is solved where the moves are, here in a corner of a large board
    let big = Goal::BlankLast.board(Shape::new(40, 30).unwrap()).unwrap();
    let mut far = moves("LLLLUUUU");
    far.extend(moves("RDLURDLU"));
    // (the way there is joined to it too: 10 moves)
    assert!(check_shorten(&big, &far) <= 12);
}
