//! The bounded searches' proofs where the truth is known: for every 3x3 state (and random 2x5,
//! 2x6, 3x4 and 4x4 ones), a solution found within `w` is at most `w` times the optimum, its lower
//! bound is at most the optimum, and it replays onto the goal; so do the lower bounds weighted
//! A* and greedy search report.

use slidetable::heuristic::Heuristic;
use slidetable::lab::sample::SplitMix64 as Rng;
use slidetable::search::{astar, solve, Algorithm, Found, Guide, Options};
use slidetable::{build, Board, Goal, Shape};

/// Checks `found` against the optimum `opt`: it replays onto `goal`, its bound holds, and a
/// bounded search's ratio is at most `w`.
fn check(start: &Board, goal: &Board, found: &Found, opt: usize, w: Option<f64>, what: &str) {
    let mut b = start.clone();
    for &m in &found.moves {
        assert!(b.apply(m).is_some(), "{what}: move {m:?} leaves the board from {b}");
    }
    assert_eq!(&b, goal, "{what}: the moves from {start} do not end on the goal");
    let len = found.moves.len();
    let lb = found.lower_bound.unwrap_or_else(|| panic!("{what}: no lower bound on {start}")) as usize;
    assert!(lb <= opt && opt <= len, "{what} on {start}: lower bound {lb}, optimum {opt}, length {len}");
    assert_eq!(lb % 2, len % 2, "{what} on {start}: the bound keeps the solutions' parity");
    if let Some(w) = w {
        assert!(found.stopped.is_none(), "{what} on {start}: stopped at {:?}", found.stopped);
        assert!(len as f64 <= w * opt as f64, "{what} on {start}: {len} moves, optimum {opt}, w {w}");
        // the proof itself says so: length <= w x lower bound
        assert!(len as f64 <= w * lb as f64 + 1e-9, "{what} on {start}: {len} moves, proof {lb}, w {w}");
        assert!(found.within().is_some_and(|r| r <= w + 1e-12), "{what}");
    }
}

#[test]
#[ignore = "slow (30 s: 190,000 searches); CI runs it: cargo test -- --include-ignored --skip big::"]
fn within_holds_on_every_3x3_state() {
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    let table = build(&goal, |_| {}).unwrap();
    // every state for one factor and heuristic; a stride of the others
    let runs: [(f64, Heuristic, usize); 4] = [
        (1.2, Heuristic::Manhattan, 1),
        (1.0, Heuristic::LinearConflict, 29),
        (1.5, Heuristic::Hamming, 37),
        (3.0, Heuristic::LinearConflict, 13),
    ];
    for (w, h, stride) in runs {
        let options = Options::new(Algorithm::Within(w));
        for i in (0..table.index().len()).step_by(stride) {
            let start = table.index().board(i);
            let opt = table.payload()[i as usize] as usize;
            let found = solve(&start, &goal, Guide::Heuristic(h), &options).unwrap().unwrap();
            check(&start, &goal, &found, opt, Some(w), &format!("within {w} {}", h.name()));
            if w == 1.0 {
                assert!(found.proven_optimal(), "{start}");
            }
        }
    }
}

#[test]
fn weighted_and_greedy_bounds_hold_on_3x3() {
    let goal = Goal::Snail.board(Shape::EIGHT).unwrap();
    let table = build(&goal, |_| {}).unwrap();
    for i in (0..table.index().len()).step_by(41) {
        let start = table.index().board(i);
        let opt = table.payload()[i as usize] as usize;
        for algorithm in [Algorithm::Weighted(1.5), Algorithm::Weighted(3.0), Algorithm::Greedy] {
            let found = solve(&start, &goal, Guide::Heuristic(Heuristic::Manhattan), &Options::new(algorithm))
                .unwrap()
                .unwrap();
            check(&start, &goal, &found, opt, None, algorithm.name());
            if let Algorithm::Weighted(w) = algorithm {
                assert!(found.within().is_some_and(|r| r <= w + 1e-12), "{start}");
            }
        }
        // the perfect table as the guide is admissible too: the bound is then exact
        let found = solve(&start, &goal, Guide::Table(&table), &Options::new(Algorithm::Within(1.5))).unwrap().unwrap();
        assert_eq!(found.moves.len(), opt);
        assert!(found.proven_optimal(), "{start}");
    }
}

/// A uniform random board of `shape` that can reach `goal`: shuffled, and two tiles swapped
/// when the parity is wrong.
fn random_board(shape: Shape, goal: &Board, rng: &mut Rng) -> Board {
    let mut cells: Vec<u16> = (0..shape.cells() as u16).collect();
    for i in (1..cells.len()).rev() {
        cells.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let b = Board::new(shape, cells.clone()).unwrap();
    if b.is_solvable_to(goal) {
        return b;
    }
    let tiles: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] != 0).take(2).collect();
    cells.swap(tiles[0], tiles[1]);
    Board::new(shape, cells).unwrap()
}

#[test]
fn within_holds_on_random_rectangles_against_the_optimum() {
    // the optimum from A* with linear conflict (optimal; the perfect tables agree with it: see
    // search.rs), for boards whose tables are seconds to build
    let mut rng = Rng::new(0xB0_0DED);
    for (rows, cols, count) in [(2, 5, 12), (2, 6, 5), (3, 4, 5)] {
        let shape = Shape::new(rows, cols).unwrap();
        for goal in [Goal::BlankLast, Goal::BlankFirst] {
            let goal = goal.board(shape).unwrap();
            for _ in 0..count {
                let start = random_board(shape, &goal, &mut rng);
                let opt = astar(&start, &goal, Heuristic::LinearConflict).unwrap().moves.len();
                for w in [1.0, 1.1, 1.25, 2.0] {
                    let found = solve(
                        &start,
                        &goal,
                        Guide::Heuristic(Heuristic::Manhattan),
                        &Options::new(Algorithm::Within(w)),
                    )
                    .unwrap()
                    .unwrap();
                    check(&start, &goal, &found, opt, Some(w), &format!("{shape} within {w}"));
                }
            }
        }
    }
}

#[test]
fn anytime_without_a_limit_ends_on_a_proven_optimum() {
    // each better solution lowers the weight (ARA*'s schedule) until the bound meets the length
    let mut rng = Rng::new(0xA11_713E);
    let shape = Shape::new(3, 4).unwrap();
    let goal = Goal::BlankLast.board(shape).unwrap();
    for _ in 0..6 {
        let start = random_board(shape, &goal, &mut rng);
        let opt = astar(&start, &goal, Heuristic::LinearConflict).unwrap().moves.len();
        let options = Options { anytime: true, ..Options::new(Algorithm::Within(3.0)) };
        let found = solve(&start, &goal, Guide::Heuristic(Heuristic::Manhattan), &options).unwrap().unwrap();
        check(&start, &goal, &found, opt, Some(1.0), "anytime from 3");
        assert!(found.proven_optimal(), "{start}: {:?}", found.lower_bound);
    }
}

#[test]
fn within_holds_on_random_4x4_boards() {
    let shape = Shape::new(4, 4).unwrap();
    let goal = Goal::BlankLast.board(shape).unwrap();
    let mut rng = Rng::new(0x4_4);
    for _ in 0..12 {
        // a random walk of 40 to 70 moves: a board A* with linear conflict solves in milliseconds
        let mut start = goal.clone();
        for _ in 0..40 + rng.below(31) {
            let _ = start.apply(slidetable::Dir::ALL[rng.below(4) as usize]);
        }
        let opt = astar(&start, &goal, Heuristic::LinearConflict).unwrap().moves.len();
        for (w, h) in [(1.05, Heuristic::LinearConflict), (1.25, Heuristic::Manhattan), (1.5, Heuristic::Manhattan)] {
            let found =
                solve(&start, &goal, Guide::Heuristic(h), &Options::new(Algorithm::Within(w))).unwrap().unwrap();
            check(&start, &goal, &found, opt, Some(w), &format!("4x4 within {w} {}", h.name()));
        }
    }
}

#[test]
fn a_limit_returns_the_best_solution_with_its_proof() {
    let shape = Shape::new(4, 4).unwrap();
    let goal = Goal::BlankFirst.board(shape).unwrap();
    // Korf's instance 1 (57 moves): within 1.7 with Manhattan has a solution after about 3,000
    // nodes; told to go on (anytime), it improves it until the node limit stops it
    let start = Board::parse(shape, "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3").unwrap();
    let manhattan = Guide::Heuristic(Heuristic::Manhattan);
    let first = solve(&start, &goal, manhattan, &Options::new(Algorithm::Within(1.7))).unwrap().unwrap();
    assert!(first.stopped.is_none() && first.stats.generated < 20_000, "{:?}", first.stats);
    check(&start, &goal, &first, 57, Some(1.7), "within 1.7");
    let options = Options { max_nodes: Some(20_000), anytime: true, ..Options::new(Algorithm::Within(1.7)) };
    let found = solve(&start, &goal, manhattan, &options).unwrap().unwrap();
    let why = found.stopped.clone().expect("stopped at the node limit");
    assert!(why.contains("20000 nodes"), "{why}");
    check(&start, &goal, &found, 57, None, "anytime");
    let est = slidetable::heuristic::Estimator::new(&goal).manhattan(start.cells());
    assert!(found.lower_bound.unwrap() >= est);
    assert!(found.moves.len() <= first.moves.len(), "{} then {}", first.moves.len(), found.moves.len());
    // stopped before its own first solution, it returns the constructive one it started from
    let options = Options { max_nodes: Some(50), ..Options::new(Algorithm::Within(1.7)) };
    let seeded = solve(&start, &goal, manhattan, &options).unwrap().unwrap();
    assert!(seeded.stopped.as_deref().is_some_and(|s| s.contains("50 nodes")), "{:?}", seeded.stopped);
    check(&start, &goal, &seeded, 57, None, "within 1.7 at 50 nodes");
    let reduce = solve(&start, &goal, manhattan, &Options::new(Algorithm::Reduce)).unwrap().unwrap();
    check(&start, &goal, &reduce, 57, None, "reduce");
    // its loops are cut: no board comes twice
    let mut b = start.clone();
    let mut seen = std::collections::HashSet::from([b.clone()]);
    for &m in &reduce.moves {
        b.apply(m);
        assert!(seen.insert(b.clone()), "{b} comes twice");
    }
    assert!(seeded.moves.len() <= reduce.moves.len());
}

#[test]
fn a_bound_needs_an_admissible_guide_and_a_factor_of_at_least_one() {
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    let start = Board::parse(Shape::EIGHT, "8 6 7 2 5 4 3 0 1").unwrap();
    let e = solve(&start, &goal, Guide::Heuristic(Heuristic::Nilsson), &Options::new(Algorithm::Within(1.5)))
        .unwrap_err()
        .to_string();
    assert!(e.contains("admissible"), "{e}");
    for w in [0.9, -1.0, f64::NAN, 1.0001, 1001.0] {
        let r = solve(&start, &goal, Guide::Heuristic(Heuristic::Manhattan), &Options::new(Algorithm::Within(w)));
        assert!(r.is_err(), "{w}");
    }
    let anytime = Options { anytime: true, ..Options::new(Algorithm::AStar) };
    assert!(solve(&start, &goal, Guide::Heuristic(Heuristic::Manhattan), &anytime).is_err());
    // the goal itself: no moves, proven optimal
    let found = solve(&goal, &goal, Guide::Heuristic(Heuristic::Manhattan), &Options::new(Algorithm::Within(1.5)))
        .unwrap()
        .unwrap();
    assert!(found.moves.is_empty() && found.proven_optimal() && found.within() == Some(1.0));
}

/// The boards a solution visits, each once: the start, then one after each move.
fn no_board_twice(start: &Board, moves: &[slidetable::Dir], what: &str) {
    let mut b = start.clone();
    let mut seen = std::collections::HashSet::from([b.clone()]);
    for &m in moves {
        b.apply(m);
        assert!(seen.insert(b.clone()), "{what}: {b} comes twice");
    }
}

#[test]
fn beam_search_with_exact_distances_is_optimal_even_one_board_wide() {
    // with the perfect table as its guide, the child nearest the goal is always on a shortest
    // path, so a beam of one board follows one
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    let table = build(&goal, |_| {}).unwrap();
    for i in (0..table.index().len()).step_by(97) {
        let start = table.index().board(i);
        let opt = table.payload()[i as usize] as usize;
        for width in [1, 3] {
            let found =
                solve(&start, &goal, Guide::Table(&table), &Options::new(Algorithm::Beam(width))).unwrap().unwrap();
            check(&start, &goal, &found, opt, None, "beam with the table");
            assert_eq!(found.moves.len(), opt, "{start}");
        }
    }
}

#[test]
fn beam_search_solutions_replay_with_an_honest_bound() {
    let mut rng = Rng::new(0xBEA4);
    for (rows, cols, count) in [(3, 3, 20), (2, 6, 6), (3, 4, 6)] {
        let shape = Shape::new(rows, cols).unwrap();
        let goal = Goal::BlankLast.board(shape).unwrap();
        for _ in 0..count {
            let start = random_board(shape, &goal, &mut rng);
            let opt = astar(&start, &goal, Heuristic::LinearConflict).unwrap().moves.len();
            for (width, h) in [(1, Heuristic::Manhattan), (50, Heuristic::LinearConflict), (2_000, Heuristic::Hamming)]
            {
                let found =
                    solve(&start, &goal, Guide::Heuristic(h), &Options::new(Algorithm::Beam(width))).unwrap().unwrap();
                let what = format!("{shape} beam {width} {}", h.name());
                check(&start, &goal, &found, opt, None, &what);
                no_board_twice(&start, &found.moves, &what);
            }
        }
    }
    // its limits: a width of 0, a node limit
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    let start = Board::parse(Shape::EIGHT, "8 6 7 2 5 4 3 0 1").unwrap();
    let manhattan = Guide::Heuristic(Heuristic::Manhattan);
    let e = solve(&start, &goal, manhattan, &Options::new(Algorithm::Beam(0))).unwrap_err().to_string();
    assert!(e.contains("from 1 to"), "{e}");
    // a limit before the goal: reduce's solution, said so
    let limited = Options { max_nodes: Some(100), ..Options::new(Algorithm::Beam(1_000)) };
    let found = solve(&start, &goal, manhattan, &limited).unwrap().unwrap();
    let stopped = found.stopped.as_deref().unwrap();
    assert!(stopped.starts_with("the limit of 100 nodes, before the beam reached the goal"), "{stopped}");
    let constructive = slidetable::search::reduce::reduce(&start, &goal).unwrap().unwrap();
    assert_eq!(found.moves, constructive);
    check(&start, &goal, &found, 31, None, "beam at its node limit");
    // the bounded search counts its first solution's nodes against the limit, and says it
    let limited = Options { max_nodes: Some(1), ..Options::new(Algorithm::Within(1.5)) };
    let shape = Shape::new(6, 6).unwrap();
    let goal6 = Goal::BlankLast.board(shape).unwrap();
    let start6 = random_board(shape, &goal6, &mut Rng::new(6));
    let found = solve(&start6, &goal6, manhattan, &limited).unwrap().unwrap();
    assert_eq!(found.stopped.as_deref(), Some("the limit of 1 node"));
    check(&start6, &goal6, &found, found.lower_bound.unwrap() as usize, None, "within at one node");
}

#[test]
fn within_on_a_6x6_starts_from_the_beam_when_it_is_shorter() {
    let shape = Shape::new(6, 6).unwrap();
    let goal = Goal::BlankLast.board(shape).unwrap();
    let lc = Guide::Heuristic(Heuristic::LinearConflict);
    let start = random_board(shape, &goal, &mut Rng::new(0x6_6));
    let beam = solve(&start, &goal, lc, &Options::new(Algorithm::Beam(slidetable::search::beam::DEFAULT_WIDTH)))
        .unwrap()
        .unwrap();
    let reduce = solve(&start, &goal, lc, &Options::new(Algorithm::Reduce)).unwrap().unwrap();
    // the seed is what it returns at worst; within 2, the beam's solution needs only the
    // start's estimate as its proof
    let options = Options::new(Algorithm::Within(2.0));
    let found = solve(&start, &goal, lc, &options).unwrap().unwrap();
    let lb = found.lower_bound.unwrap() as usize;
    check(&start, &goal, &found, lb.max(1), None, "6x6 within 2");
    assert!(
        found.moves.len() <= beam.moves.len().min(reduce.moves.len()),
        "within {} moves, beam {}, reduce {}",
        found.moves.len(),
        beam.moves.len(),
        reduce.moves.len()
    );
    let est = slidetable::heuristic::Estimator::new(&goal).estimate(Heuristic::LinearConflict, start.cells());
    assert!(lb as u32 >= est, "{lb} < {est}");
    // the beam's bound is the start's estimate, raised to the solutions' parity
    let b = beam.lower_bound.unwrap();
    assert!(b == est || b == est + 1, "{b}, {est}");
    assert_eq!(b as usize % 2, beam.moves.len() % 2);
}
