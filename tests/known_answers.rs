//! Known answers from published results and our sources.

use slidetable::{build, Board, Dir, Goal, Shape, Table};

fn table(shape: &str, goal: &str) -> Table<Vec<u8>> {
    let shape = Shape::parse(shape).unwrap();
    let goal = Goal::parse(shape, goal).unwrap().board(shape).unwrap();
    build(&goal, |_| {}).unwrap()
}

fn dist(t: &Table<Vec<u8>>, board: &str) -> Option<u8> {
    t.distance(&Board::parse(t.header().shape, board).unwrap()).unwrap()
}

/// Figure 3 of Utgoff & Saxena 1987 as corrected in the seeds' README (OEIS A089473).
const EIGHT_PUZZLE: [u64; 32] = [
    1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529, 10878, 16993, 17110,
    23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
];

#[test]
fn eight_puzzle_distribution() {
    let t = table("3x3", "blank-last");
    assert_eq!(t.histogram(), &EIGHT_PUZZLE[..]);
    assert_eq!(t.histogram().iter().sum::<u64>(), 181_440);
    assert_eq!(t.histogram()[..=10].iter().sum::<u64>(), 706);
    let hardest: Vec<String> = t.states_at(31, 10).iter().map(|b| b.to_string()).collect();
    let mut hardest = hardest;
    hardest.sort();
    assert_eq!(hardest, ["6 4 7 / 8 5 _ / 3 2 1", "8 6 7 / 2 5 4 / 3 _ 1"]);
    assert_eq!(dist(&t, "8 6 7 2 5 4 3 0 1"), Some(31));
    assert_eq!(dist(&t, "6 4 7 8 5 0 3 2 1"), Some(31));
}

fn board(t: &Table<Vec<u8>>, text: &str) -> Board {
    Board::parse(t.header().shape, text).unwrap()
}

#[test]
fn eight_puzzle_snail_goal() {
    let t = table("3x3", "snail");
    assert_eq!(t.goal().to_string(), "1 2 3 / 8 _ 4 / 7 6 5");
    assert_eq!(t.histogram().iter().sum::<u64>(), 181_440);
    assert_eq!(t.header().max_depth, 30);
    assert_eq!(t.histogram().len(), 31);
    assert_eq!(t.histogram()[30], 148);
    assert_eq!(t.states_at(30, 1000).len(), 148);
    // the presets of seed 004
    assert_eq!(dist(&t, "1 3 4 8 6 2 7 0 5"), Some(5));
    assert_eq!(dist(&t, "2 8 1 0 4 3 7 6 5"), Some(9));
    assert_eq!(dist(&t, "2 8 1 4 6 3 7 0 5"), Some(11));
    assert_eq!(dist(&t, "5 6 7 4 0 8 3 2 1"), Some(30));
    assert_eq!(dist(&t, "0 8 1 2 4 3 7 6 5"), Some(8));
    assert_eq!(dist(&t, "1 2 3 8 0 4 7 6 5"), Some(0));
    // blank-last is on the other side of the parity divide from snail
    assert_eq!(dist(&t, "1 2 3 4 5 6 7 8 0"), None);
}

#[test]
fn russell_norvig_start() {
    let t = table("3x3", "blank-first");
    assert_eq!(t.goal().to_string(), "_ 1 2 / 3 4 5 / 6 7 8");
    assert_eq!(dist(&t, "7 2 4 5 0 6 8 3 1"), Some(26));
    let solution = t.solve(&board(&t, "7 2 4 5 0 6 8 3 1")).unwrap().unwrap();
    assert_eq!(solution.moves.len(), 26);
    // turned half a turn and relabelled, blank-first is blank-last: the same distribution
    assert_eq!(t.histogram(), &EIGHT_PUZZLE[..]);
}

#[test]
fn cos226_puzzle04() {
    let t = table("3x3", "blank-last");
    let b = Board::parse_cos226("3\n 0  1  3\n 4  2  5\n 7  8  6\n").unwrap();
    assert_eq!(t.distance(&b).unwrap(), Some(4));
    assert_eq!(dist(&t, "0 1 3 / 4 2 5 / 7 8 6"), Some(4));
    let solution = t.solve(&b).unwrap().unwrap();
    assert_eq!(slidetable::puzzle::board::moves_to_string(&solution.moves), "RDRD");
    assert_eq!(solution.tiles, [1, 2, 5, 6]);
}

#[test]
fn mean_distance_of_the_eight_puzzle() {
    let t = table("3x3", "blank-last");
    let states: u64 = t.histogram().iter().sum();
    let total: u64 = t.histogram().iter().enumerate().map(|(d, &h)| d as u64 * h).sum();
    assert_eq!(total, 3_986_672);
    assert_eq!(format!("{:.4}", total as f64 / states as f64), "21.9724");
}

#[test]
fn small_board_distributions() {
    for (shape, states, max) in
        [("2x2", 12u64, 6u8), ("2x3", 360, 21), ("3x2", 360, 21), ("2x4", 20_160, 36), ("4x2", 20_160, 36)]
    {
        for goal in ["blank-last", "blank-first"] {
            let t = table(shape, goal);
            assert_eq!(t.histogram().iter().sum::<u64>(), states, "{shape} {goal}");
            assert_eq!(t.header().max_depth, max, "{shape} {goal}");
            assert_eq!(t.histogram().len(), max as usize + 1);
            assert_eq!(t.payload().len() as u64, states);
        }
    }
    // 2x2: the blank walks around a cycle of four cells, so each distance 1..=5 has two states
    assert_eq!(table("2x2", "blank-last").histogram(), &[1, 2, 2, 2, 2, 2, 1]);
}

/// Replays a solution onto the board: each move is legal and slides the listed tile, the walk
/// ends on the goal, and its length is the table's distance.
fn check_solution(t: &Table<Vec<u8>>, b: &Board) {
    let d = t.distance(b).unwrap().expect("solvable");
    let solution = t.solve(b).unwrap().unwrap();
    assert_eq!(solution.moves.len(), d as usize, "{b}");
    assert_eq!(solution.tiles.len(), d as usize, "{b}");
    let mut walk = b.clone();
    for (k, (&m, &tile)) in solution.moves.iter().zip(&solution.tiles).enumerate() {
        assert_eq!(walk.apply(m), Some(tile), "{b}: move {k}");
        assert_eq!(t.distance(&walk).unwrap(), Some(d - 1 - k as u8), "{b}: move {k} goes one closer");
    }
    assert_eq!(&walk, t.goal(), "{b}");

    // optimal moves: exactly the directions whose neighbour is one closer, in U D L R order
    let expected: Vec<Dir> = Dir::ALL
        .into_iter()
        .filter(|&dir| b.moved(dir).is_some_and(|n| t.distance(&n).unwrap() == Some(d.wrapping_sub(1))))
        .collect();
    let optimal = t.optimal_moves(b).unwrap().unwrap();
    assert_eq!(optimal, expected, "{b}");
    assert_eq!(optimal.is_empty(), d == 0);
    // the other neighbours are one step farther
    for dir in Dir::ALL {
        if let Some(n) = b.moved(dir) {
            let e = t.distance(&n).unwrap().unwrap();
            assert!(e + 1 == d || e == d + 1, "{b}: neighbour {n} at {e}");
        }
    }
    // hill-climbing takes the first optimal move
    assert_eq!(solution.moves.first(), optimal.first());
}

#[test]
fn every_2x3_solution_replays() {
    for goal in ["blank-last", "blank-first", "snail", "5 4 3 2 1 0"] {
        let t = table("2x3", goal);
        for i in 0..t.index().len() {
            check_solution(&t, &t.index().board(i));
        }
        // and the other half has no solution
        let swapped = board(&t, "2 1 3 4 5 0");
        let solvable = swapped.is_solvable_to(t.goal());
        assert_eq!(t.solve(&swapped).unwrap().is_some(), solvable);
        assert_eq!(t.optimal_moves(&swapped).unwrap().is_some(), solvable);
    }
}

#[test]
fn sampled_3x3_solutions_replay() {
    for goal in ["blank-last", "snail"] {
        let t = table("3x3", goal);
        for i in (0..t.index().len()).step_by(997) {
            check_solution(&t, &t.index().board(i));
        }
        for b in t.states_at(t.header().max_depth, 10) {
            check_solution(&t, &b);
        }
    }
    let t = table("3x3", "blank-last");
    check_solution(&t, &board(&t, "8 6 7 2 5 4 3 0 1"));
    check_solution(&t, &board(&t, "6 4 7 8 5 0 3 2 1"));
    assert_eq!(t.solve(t.goal()).unwrap().unwrap().moves, []);
    assert_eq!(t.optimal_moves(t.goal()).unwrap().unwrap(), []);
    assert_eq!(t.solve(&board(&t, "2 1 3 4 5 6 7 8 0")).unwrap(), None);
    assert_eq!(t.optimal_moves(&board(&t, "2 1 3 4 5 6 7 8 0")).unwrap(), None);
}

#[test]
fn small_tables_verify() {
    for shape in ["2x2", "2x3", "3x2", "2x4", "4x2", "3x3"] {
        for goal in ["blank-last", "blank-first", "snail"] {
            let t = table(shape, goal);
            t.verify().unwrap_or_else(|e| panic!("{shape} {goal}: {e}"));
            // and what is written reads back to the same table
            let copy = Table::new(t.as_bytes().to_vec()).unwrap();
            assert_eq!(copy.header(), t.header());
        }
    }
}
