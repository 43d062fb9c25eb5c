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

use slidetable::lab::sample::SplitMix64 as Rng;

#[test]
fn every_optimal_search_matches_the_table_on_a_large_seeded_sample() {
    use slidetable::search::{solve, Algorithm, Guide, Options};
    // per depth, `count` states drawn at random (all of them where there are fewer)
    for (goal, count) in [(Goal::BlankLast, 16usize), (Goal::Snail, 5)] {
        let goal = goal.board(Shape::EIGHT).unwrap();
        let table = build(&goal, |_| {}).unwrap();
        let mut rng = Rng::new(0x51DE_7AB1E);
        let mut by_depth: Vec<Vec<u64>> = vec![Vec::new(); 32];
        for (i, &d) in table.payload().iter().enumerate() {
            by_depth[d as usize].push(i as u64);
        }
        let mut sample = Vec::new();
        for states in &mut by_depth {
            for k in 0..count.min(states.len()) {
                let pick = k + rng.below((states.len() - k) as u64) as usize;
                states.swap(k, pick);
                sample.push(states[k]);
            }
        }
        assert_eq!(sample.len(), table.histogram().iter().map(|&c| (c as usize).min(count)).sum::<usize>());
        for i in sample {
            let start = table.index().board(i);
            let d = table.payload()[i as usize];
            let mut runs: Vec<(Algorithm, Guide)> = vec![
                (Algorithm::AStar, Guide::Heuristic(Heuristic::Manhattan)),
                (Algorithm::AStar, Guide::Heuristic(Heuristic::LinearConflict)),
                (Algorithm::AStar, Guide::Table(&table)),
                (Algorithm::IdaStar, Guide::Heuristic(Heuristic::Manhattan)),
                (Algorithm::IdaStar, Guide::Heuristic(Heuristic::LinearConflict)),
                (Algorithm::IdaStar, Guide::Table(&table)),
                (Algorithm::Weighted(1.0), Guide::Heuristic(Heuristic::LinearConflict)),
            ];
            // the weak h1 and blind search on the shallower half of the sample, to keep the test fast
            if d <= 22 {
                runs.push((Algorithm::AStar, Guide::Heuristic(Heuristic::Hamming)));
                runs.push((Algorithm::Bfs, Guide::Heuristic(Heuristic::Manhattan)));
            }
            for (algorithm, guide) in runs {
                let what = format!("{} {:?}", algorithm.name(), guide);
                let found = solve(&start, &goal, guide, &Options::new(algorithm)).unwrap().unwrap();
                check(&start, &goal, &found, d, &what);
                if let Guide::Table(_) = guide {
                    // the exact distance leads straight down: one node expanded per move
                    assert_eq!(found.stats.expanded, d as u64, "{what} on {start}");
                }
            }
            // the suboptimal searches still solve it, weighted A* within w times the optimum
            for (algorithm, bound) in [(Algorithm::Weighted(2.0), 2 * d as usize), (Algorithm::Greedy, usize::MAX)] {
                let found = solve(&start, &goal, Guide::Heuristic(Heuristic::Manhattan), &Options::new(algorithm))
                    .unwrap()
                    .unwrap();
                let len = found.moves.len() as u8;
                check(&start, &goal, &found, len, algorithm.name());
                assert!(
                    found.moves.len() >= d as usize && found.moves.len() <= bound,
                    "{} on {start}",
                    algorithm.name()
                );
            }
        }
    }
}

#[test]
fn nilsson_is_not_admissible_and_astar_with_it_can_miss_the_optimum() {
    let goal = Goal::Snail.board(Shape::EIGHT).unwrap();
    let table = build(&goal, |_| {}).unwrap();
    let est = Estimator::new(&goal);
    let (mut over, mut longer) = (0u32, 0u32);
    let mut rng = Rng::new(7);
    for _ in 0..300 {
        let i = rng.below(table.index().len());
        let start = table.index().board(i);
        let d = table.payload()[i as usize];
        over += (est.estimate(Heuristic::Nilsson, start.cells()) > d as u32) as u32;
        let found = astar(&start, &goal, Heuristic::Nilsson).unwrap();
        let len = found.moves.len() as u8;
        check(&start, &goal, &found, len, "A* nilsson");
        assert!(len >= d);
        longer += (len > d) as u32;
    }
    assert!(over > 100, "P+3S overestimates on most boards: {over} of 300");
    assert!(longer > 0, "A* with P+3S found an optimal solution on every board");
}

/// A* as a textbook writes it: a map of boards and a binary heap. The reference the flat-array
/// search is checked against where no table reaches.
fn reference_astar(start: &Board, goal: &Board) -> usize {
    use std::cmp::Reverse;
    use std::collections::{BinaryHeap, HashMap};
    let est = Estimator::new(goal);
    let mut best: HashMap<Board, usize> = HashMap::from([(start.clone(), 0)]);
    let mut boards = vec![start.clone()];
    let mut open = BinaryHeap::from([Reverse((est.manhattan(start.cells()) as usize, 0usize, 0usize))]);
    while let Some(Reverse((_, g, at))) = open.pop() {
        let board = boards[at].clone();
        if board == *goal {
            return g;
        }
        if best[&board] < g {
            continue;
        }
        for dir in slidetable::Dir::ALL {
            let Some(next) = board.moved(dir) else { continue };
            if best.get(&next).is_none_or(|&b| b > g + 1) {
                best.insert(next.clone(), g + 1);
                let f = g + 1 + est.manhattan(next.cells()) as usize;
                open.push(Reverse((f, g + 1, boards.len())));
                boards.push(next);
            }
        }
    }
    unreachable!("a solvable board")
}

#[test]
fn fast_search_matches_textbook_astar_beyond_the_tables() {
    let mut rng = Rng::new(0xF00D);
    // past 256 cells A* keeps each board as its changes from the start: 17x17 and 9x30
    for (rows, cols, walk) in
        [(4, 4, 40), (4, 4, 60), (3, 5, 50), (5, 3, 50), (5, 5, 40), (3, 6, 40), (17, 17, 40), (9, 30, 40)]
    {
        let goal = Goal::BlankLast.board(Shape::new(rows, cols).unwrap()).unwrap();
        let mut b = goal.clone();
        for _ in 0..walk {
            let _ = b.apply(slidetable::Dir::ALL[rng.below(4) as usize]);
        }
        let want = reference_astar(&b, &goal);
        for h in [Heuristic::Manhattan, Heuristic::LinearConflict] {
            let a = astar(&b, &goal, h).unwrap();
            check(&b, &goal, &a, want as u8, &format!("A* {} {rows}x{cols}", h.name()));
            let i = idastar(&b, &goal, h).unwrap();
            check(&b, &goal, &i, want as u8, &format!("IDA* {} {rows}x{cols}", h.name()));
        }
    }
}

/// A guide that knows the exact distances but fails on the boards at one depth, as damaged table
/// entries do.
struct Damaged {
    table: slidetable::Table<Vec<u8>>,
    bad: u32,
}

impl slidetable::search::Exact for Damaged {
    fn goal(&self) -> &Board {
        self.table.goal()
    }

    fn exact(&self, cells: &[u8]) -> Result<Option<u32>, slidetable::Error> {
        match self.table.exact(cells)? {
            Some(d) if d == self.bad => {
                Err(slidetable::Error::Corrupt { index: 0, board: format!("{cells:?}"), detail: "damaged".into() })
            }
            d => Ok(d),
        }
    }
}

#[test]
fn a_failing_table_guide_is_an_error_not_a_wrong_answer() {
    use slidetable::search::{solve, Algorithm, Guide, Options};
    let goal = Goal::BlankLast.board(Shape::new(2, 3).unwrap()).unwrap();
    let start = Board::parse(goal.shape(), "5 4 3 2 1 0").unwrap();
    // the damage is where every solution passes: the boards one move from the goal
    let guide = Damaged { table: build(&goal, |_| {}).unwrap(), bad: 1 };
    for algorithm in [Algorithm::AStar, Algorithm::IdaStar, Algorithm::Greedy, Algorithm::Weighted(3.0)] {
        let got = solve(&start, &goal, Guide::Table(&guide), &Options::new(algorithm));
        assert!(matches!(got, Err(slidetable::Error::Corrupt { .. })), "{}: {got:?}", algorithm.name());
    }
    // undamaged, the same searches succeed
    let guide = Damaged { table: build(&goal, |_| {}).unwrap(), bad: 99 };
    let exact = guide.table.distance(&start).unwrap().unwrap() as usize;
    let found = solve(&start, &goal, Guide::Table(&guide), &Options::new(Algorithm::AStar)).unwrap().unwrap();
    assert_eq!(found.moves.len(), exact);
}

#[test]
fn four_thousand_uniform_3x3_boards_solve_to_their_exact_distance() {
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    let table = build(&goal, |_| {}).unwrap();
    let mut rng = Rng::new(2026);
    for _ in 0..4000 {
        let i = rng.below(table.index().len());
        let (start, d) = (table.index().board(i), table.payload()[i as usize]);
        for h in [Heuristic::Manhattan, Heuristic::LinearConflict] {
            check(&start, &goal, &astar(&start, &goal, h).unwrap(), d, &format!("A* {}", h.name()));
            check(&start, &goal, &idastar(&start, &goal, h).unwrap(), d, &format!("IDA* {}", h.name()));
        }
    }
}

/// A watched search reports its node count while it runs and stops when cancelled, for each
/// engine: A* and IDA* on any board, IDA* with pattern databases (one and two threads).
#[test]
fn a_watched_search_counts_and_stops_when_cancelled() {
    use slidetable::heuristic::{Partition, PatternSet};
    use slidetable::search::{solve, Algorithm, Guide, Options, Watch};
    use std::sync::Arc;
    let shape = Shape::new(4, 4).unwrap();
    let goal = Goal::BlankFirst.board(shape).unwrap();
    // Korf's instance 88 (65 moves): minutes of Manhattan search, seconds with 5-5-5
    let hard = Board::parse(shape, "15 14 8 12 10 11 9 13 2 6 5 1 3 7 4 0").unwrap();
    let partition = Partition::parse(&goal, "5-5-5").unwrap();
    let set = PatternSet::build(&goal, partition, false).unwrap();
    let cases: Vec<(Algorithm, Guide, usize)> = vec![
        (Algorithm::AStar, Guide::Heuristic(Heuristic::Manhattan), 1),
        (Algorithm::IdaStar, Guide::Heuristic(Heuristic::Manhattan), 1),
        (Algorithm::IdaStar, Guide::Patterns(&set), 1),
        (Algorithm::IdaStar, Guide::Patterns(&set), 2),
    ];
    for (algorithm, guide, threads) in cases {
        let watch = Arc::new(Watch::new());
        let options = Options { algorithm, threads, watch: Some(Arc::clone(&watch)), ..Options::default() };
        let outcome = std::thread::scope(|s| {
            let search = s.spawn(|| solve(&hard, &goal, guide, &options));
            let started = std::time::Instant::now();
            while watch.generated() < 100_000 && started.elapsed().as_secs() < 20 {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            assert!(watch.generated() >= 100_000, "{}: the count moves while the search runs", algorithm.name());
            watch.cancel();
            search.join().unwrap()
        });
        match outcome {
            Err(slidetable::Error::Cancelled { generated }) => assert!(generated >= 100_000),
            other => {
                panic!("{} with {} threads: {:?}", algorithm.name(), threads, other.map(|f| f.map(|f| f.moves.len())))
            }
        }
    }
}
