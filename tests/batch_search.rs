//! Batch-weighted A* (`search::batch`) against the perfect table and the library's own A*: on
//! 3x3 states at every depth, batch 1 and weight 1 is A* (optimal, the same counts), a larger
//! batch still solves, the exact distance leads straight down, and the estimator is asked once a
//! step for the step's new boards only.

use slidetable::heuristic::{Estimator, Heuristic};
use slidetable::search::{
    batch_astar, solve, Algorithm, BatchEstimate, BatchFound, BatchOptions, BatchOrder, Guide, GuideEstimate, Options,
};
use slidetable::{build, Board, Error, Goal, Shape};

/// Replays `found` from `start` and checks it ends on `goal`.
fn replay(start: &Board, goal: &Board, found: &BatchFound, what: &str) {
    let mut b = start.clone();
    for &m in &found.moves {
        assert!(b.apply(m).is_some(), "{what}: move {m:?} leaves the board from {b}");
    }
    assert_eq!(&b, goal, "{what}: the moves from {start} do not end on the goal");
    let s = &found.stats;
    assert!(s.search.generated >= s.search.expanded, "{what}");
    // every distinct board made is estimated once, in one call a step (and one for the start;
    // a step that made no new board asks nothing)
    assert_eq!(s.evaluated, s.search.stored, "{what}");
    assert!(s.calls >= 1 && s.calls <= s.search.iterations + 1, "{what}: {} calls", s.calls);
}

/// Up to `per_depth` states at each depth, spread over the index.
fn sample(goal: &Board, per_depth: usize) -> Vec<(Board, usize)> {
    let table = build(goal, |_| {}).unwrap();
    let mut out = Vec::new();
    for (d, &count) in table.histogram().iter().enumerate() {
        let stride = (count as usize / per_depth).max(1);
        let at_depth: Vec<Board> = table.states_at(d as u8, usize::MAX);
        out.extend(at_depth.into_iter().step_by(stride).take(per_depth).map(|b| (b, d)));
    }
    out
}

/// An estimate given as a batch function, as the Python package gives a model's: Manhattan
/// distance board by board, counting what it was asked.
struct Counted {
    est: Estimator,
    boards: u64,
}

impl BatchEstimate for Counted {
    fn estimate(&mut self, boards: &[u8], cells: usize, out: &mut [f64]) -> Result<(), Error> {
        for (b, h) in boards.chunks_exact(cells).zip(out.iter_mut()) {
            *h = self.est.manhattan(b) as f64;
            self.boards += 1;
        }
        Ok(())
    }
}

#[test]
fn batch_one_weight_one_is_astar_on_3x3_at_every_depth() {
    for goal in [Goal::BlankLast, Goal::Snail] {
        let goal = goal.board(Shape::EIGHT).unwrap();
        for (start, d) in sample(&goal, 6) {
            for h in [Heuristic::Manhattan, Heuristic::LinearConflict, Heuristic::Hamming] {
                let what = format!("batch A* {h:?} on {start}");
                let mut est = GuideEstimate::new(&goal, Guide::Heuristic(h));
                let found = batch_astar(&start, &goal, &mut est, &BatchOptions::default()).unwrap().unwrap();
                replay(&start, &goal, &found, &what);
                assert_eq!(found.moves.len(), d, "{what}");
                // the library's A* with the same estimate: the same solution length, and node
                // counts of the same search (its open list breaks ties in its own order, so the
                // counts may differ a little, never by much)
                let a = solve(&start, &goal, Guide::Heuristic(h), &Options::new(Algorithm::AStar)).unwrap().unwrap();
                assert_eq!(a.moves.len(), d);
                let (x, y) = (found.stats.search.expanded as f64, a.stats.expanded as f64);
                assert!(x <= 2.0 * y + 10.0 && y <= 2.0 * x + 10.0, "{what}: {x} expanded, A* {y}");
            }
        }
    }
}

#[test]
fn the_exact_distance_leads_straight_down_at_any_batch_size() {
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    let table = build(&goal, |_| {}).unwrap();
    for (start, d) in sample(&goal, 4) {
        let mut est = GuideEstimate::new(&goal, Guide::Table(&table));
        let found = batch_astar(&start, &goal, &mut est, &BatchOptions::default()).unwrap().unwrap();
        replay(&start, &goal, &found, "exact");
        assert_eq!(found.moves.len(), d);
        assert_eq!(found.stats.search.expanded, d as u64, "one node expanded per move from {start}");
        for batch_size in [3, 64] {
            let options = BatchOptions { batch_size, ..BatchOptions::default() };
            let mut est = GuideEstimate::new(&goal, Guide::Table(&table));
            let found = batch_astar(&start, &goal, &mut est, &options).unwrap().unwrap();
            replay(&start, &goal, &found, "exact, batched");
            // taken off the open list in order of f = d: the goal comes out with its optimal g
            assert_eq!(found.moves.len(), d, "batch {batch_size} from {start}");
        }
    }
}

#[test]
fn bigger_batches_weights_and_greedy_still_solve_within_their_bounds() {
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    for (start, d) in sample(&goal, 3) {
        for (batch_size, order) in [
            (16, BatchOrder::Weighted(1.0)),
            (100, BatchOrder::Weighted(1.0)),
            (1, BatchOrder::Weighted(2.0)),
            (32, BatchOrder::Weighted(1.5)),
            (1, BatchOrder::Greedy),
            (50, BatchOrder::Greedy),
            (1, BatchOrder::Weighted(0.0)),
        ] {
            let what = format!("batch {batch_size} {order:?} on {start}");
            let options = BatchOptions { batch_size, order, ..BatchOptions::default() };
            let mut est = Counted { est: Estimator::new(&goal), boards: 0 };
            let found = batch_astar(&start, &goal, &mut est, &options).unwrap().unwrap();
            replay(&start, &goal, &found, &what);
            assert_eq!(est.boards, found.stats.evaluated, "{what}");
            assert!(found.moves.len() >= d, "{what}");
            if let (1, BatchOrder::Weighted(w)) = (batch_size, order) {
                // weighted A* with an admissible estimate: within w times the optimum (w >= 1),
                // and optimal at w = 0 (uniform cost)
                let bound = if w == 0.0 { d as f64 } else { w * d as f64 };
                assert!(found.moves.len() as f64 <= bound, "{what}: {} moves", found.moves.len());
            }
            assert_eq!(
                options.name(),
                match (batch_size, order) {
                    (1, BatchOrder::Greedy) => "greedy",
                    (1, BatchOrder::Weighted(1.0)) => "astar",
                    (1, _) => "weighted",
                    _ => "bwas",
                }
            );
        }
    }
}

#[test]
fn bad_options_estimates_and_limits_are_refused_in_words() {
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    let start = Board::parse(Shape::EIGHT, "8 6 7 2 5 4 3 0 1").unwrap();
    let mut est = GuideEstimate::new(&goal, Guide::Heuristic(Heuristic::Manhattan));
    let run = |options: BatchOptions, est: &mut dyn BatchEstimate| batch_astar(&start, &goal, est, &options);
    let e = run(BatchOptions { batch_size: 0, ..BatchOptions::default() }, &mut est).unwrap_err();
    assert!(e.to_string().contains("batch_size must be at least 1"), "{e}");
    for w in [-1.0, f64::NAN, 1e9] {
        let e = run(BatchOptions { order: BatchOrder::Weighted(w), ..BatchOptions::default() }, &mut est).unwrap_err();
        assert!(e.to_string().contains("out of range"), "{e}");
    }
    let e = run(BatchOptions { max_nodes: Some(100), ..BatchOptions::default() }, &mut est).unwrap_err();
    assert!(matches!(e, Error::SearchLimit { .. }), "{e}");
    let e = run(BatchOptions { max_bytes: Some(1000), ..BatchOptions::default() }, &mut est).unwrap_err();
    assert!(e.to_string().contains("memory limit"), "{e}");

    struct Nan;
    impl BatchEstimate for Nan {
        fn estimate(&mut self, _: &[u8], _: usize, out: &mut [f64]) -> Result<(), Error> {
            out.fill(f64::NAN);
            Ok(())
        }
    }
    let e = run(BatchOptions::default(), &mut Nan).unwrap_err();
    assert!(e.to_string().contains("gave NaN"), "{e}");

    // an unsolvable board is answered without asking the estimator
    let odd = Board::parse(Shape::EIGHT, "2 1 3 4 5 6 7 8 0").unwrap();
    let mut counted = Counted { est: Estimator::new(&goal), boards: 0 };
    assert!(batch_astar(&odd, &goal, &mut counted, &BatchOptions::default()).unwrap().is_none());
    assert_eq!(counted.boards, 0);
    // the goal itself: no move, one board estimated
    let found = batch_astar(&goal, &goal, &mut counted, &BatchOptions::default()).unwrap().unwrap();
    assert!(found.moves.is_empty());
    assert_eq!((found.stats.calls, found.stats.evaluated, found.stats.search.expanded), (1, 1, 0));
}

#[test]
fn fifteen_puzzle_bwas_with_manhattan_solves_and_weight_one_batch_one_is_optimal() {
    let goal = Goal::BlankFirst.board(Shape::new(4, 4).unwrap()).unwrap();
    // a Korf instance (41 moves or more) would take A* with Manhattan too long for a test: a
    // board 40 random moves out, and its optimum from the library's IDA* with linear conflicts
    let mut rng = slidetable::lab::sample::SplitMix64::new(0xB1A5);
    let mut start = goal.clone();
    for _ in 0..40 {
        let _ = start.apply(slidetable::puzzle::board::Dir::ALL[rng.below(4) as usize]);
    }
    let optimum = solve(&start, &goal, Guide::Heuristic(Heuristic::LinearConflict), &Options::new(Algorithm::IdaStar))
        .unwrap()
        .unwrap()
        .moves
        .len();
    let mut est = GuideEstimate::new(&goal, Guide::Heuristic(Heuristic::Manhattan));
    let found = batch_astar(&start, &goal, &mut est, &BatchOptions::default()).unwrap().unwrap();
    replay(&start, &goal, &found, "4x4 A*");
    assert_eq!(found.moves.len(), optimum);
    let options = BatchOptions { batch_size: 100, order: BatchOrder::Weighted(1.25), ..BatchOptions::default() };
    let found = batch_astar(&start, &goal, &mut est, &options).unwrap().unwrap();
    replay(&start, &goal, &found, "4x4 BWAS");
    assert!(found.moves.len() >= optimum);
}

/// Manhattan distance, but `+inf` for the boards of `dead` (by their cells).
struct WithDeadEnds {
    est: Estimator,
    dead: Vec<Vec<u8>>,
}

impl BatchEstimate for WithDeadEnds {
    fn estimate(&mut self, boards: &[u8], cells: usize, out: &mut [f64]) -> Result<(), Error> {
        for (b, h) in boards.chunks_exact(cells).zip(out.iter_mut()) {
            *h = if self.dead.iter().any(|d| d.as_slice() == b) { f64::INFINITY } else { self.est.manhattan(b) as f64 };
        }
        Ok(())
    }
}

#[test]
fn plus_infinity_marks_a_dead_end_that_is_never_expanded() {
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    let start = Board::parse(Shape::EIGHT, "8 6 7 2 5 4 3 0 1").unwrap();
    let bytes = |b: &Board| b.cells().iter().map(|&c| c as u8).collect::<Vec<u8>>();
    for options in [
        BatchOptions::default(),
        BatchOptions { batch_size: 50, ..BatchOptions::default() },
        BatchOptions { order: BatchOrder::Greedy, ..BatchOptions::default() },
    ] {
        let name = options.name();
        // every estimate +inf but the start's (the start is estimated too): nothing past the
        // start is expanded, and the search says why instead of searching the whole space
        struct AllDead;
        impl BatchEstimate for AllDead {
            fn estimate(&mut self, _: &[u8], _: usize, out: &mut [f64]) -> Result<(), Error> {
                out.fill(f64::INFINITY);
                Ok(())
            }
        }
        match batch_astar(&start, &goal, &mut AllDead, &options) {
            Err(Error::DeadEnds { algorithm, generated, dead_ends }) => {
                assert_eq!(algorithm, name);
                assert_eq!(dead_ends, 1, "{name}: only the start was estimated");
                assert_eq!(generated, 1, "{name}");
            }
            other => panic!("{name}: {other:?}"),
        }
        // a dead end on the way is gone around: the start's neighbours toward the goal are
        // +inf, the search finds another path and never expands them
        let mut dead = Vec::new();
        for d in slidetable::puzzle::board::Dir::ALL {
            let mut b = start.clone();
            if b.apply(d).is_some() {
                dead.push(bytes(&b));
            }
        }
        dead.pop(); // one neighbour stays open
        let mut est = WithDeadEnds { est: Estimator::new(&goal), dead };
        let found = batch_astar(&start, &goal, &mut est, &options).unwrap().unwrap();
        replay(&start, &goal, &found, name);
        assert!(found.stats.dead_ends >= 2, "{name}: {}", found.stats.dead_ends);
    }
}

#[test]
fn a_limit_names_the_search_that_was_asked_for() {
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    let start = Board::parse(Shape::EIGHT, "8 6 7 2 5 4 3 0 1").unwrap();
    let mut est = GuideEstimate::new(&goal, Guide::Heuristic(Heuristic::Hamming));
    for (order, batch, name) in [
        (BatchOrder::Weighted(1.0), 1, "astar"),
        (BatchOrder::Weighted(2.0), 1, "weighted"),
        (BatchOrder::Greedy, 1, "greedy"),
        (BatchOrder::Weighted(1.0), 10, "bwas"),
    ] {
        let options = BatchOptions { order, batch_size: batch, max_nodes: Some(50), ..BatchOptions::default() };
        let e = batch_astar(&start, &goal, &mut est, &options).unwrap_err();
        assert!(e.to_string().starts_with(&format!("{name} gave up")), "{e}");
    }
}

#[test]
#[ignore = "slow (about 7 s): CI runs it; cargo test -- --include-ignored --skip big::"]
fn greedy_expands_each_board_at_most_once() {
    // greedy's order is h alone, so a board reached again more cheaply keeps its new parent but is
    // not expanded again: never more expansions than boards, even with a noisy estimate
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    struct Noisy(Estimator);
    impl BatchEstimate for Noisy {
        fn estimate(&mut self, boards: &[u8], cells: usize, out: &mut [f64]) -> Result<(), Error> {
            for (b, h) in boards.chunks_exact(cells).zip(out.iter_mut()) {
                // a hash of the board (SplitMix64's finaliser over its bytes), 0 to 19
                let mut x =
                    b.iter().fold(0x9E37_79B9_7F4A_7C15u64, |a, &t| (a ^ t as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9));
                x ^= x >> 31;
                let noise = x % 20;
                *h = self.0.manhattan(b) as f64 + noise as f64;
            }
            Ok(())
        }
    }
    // and a constant estimate, which makes greedy a dive (deepest first) that meets boards again
    // by shorter paths all the time
    struct Constant;
    impl BatchEstimate for Constant {
        fn estimate(&mut self, _: &[u8], _: usize, out: &mut [f64]) -> Result<(), Error> {
            out.fill(3.0);
            Ok(())
        }
    }
    // (a limit well above what expanding each board once can generate: a search that expands
    // boards again fails here instead of running away)
    let options = BatchOptions { order: BatchOrder::Greedy, max_nodes: Some(2_000_000), ..BatchOptions::default() };
    for (start, _) in sample(&goal, 4) {
        for est in [&mut Noisy(Estimator::new(&goal)) as &mut dyn BatchEstimate, &mut Constant] {
            let found = batch_astar(&start, &goal, est, &options).unwrap().unwrap();
            replay(&start, &goal, &found, "greedy");
            assert!(found.stats.search.expanded <= found.stats.search.stored, "{start}: {:?}", found.stats.search);
        }
    }
}
