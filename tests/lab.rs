//! The laboratory (`sample`, `count`, `grade`, `experiment`) against plain, obviously-correct
//! computations that do not use the table's index arithmetic: breadth-first search over boards,
//! walk enumeration, a loop over every state with `Board::moved`.

use std::collections::{HashMap, HashSet, VecDeque};

use slidetable::heuristic::{Estimator, Heuristic};
use slidetable::lab::count::count_solutions;
use slidetable::lab::experiment::{self, Column, Guidance, Plan};
use slidetable::lab::grade::{grade, grade_boards, grade_estimates, grade_given, policy_credit, DepthGrade, Given};
use slidetable::lab::sample::sample_depth;
use slidetable::search::{effective_branching_factor, solve, Algorithm, Guide, Options};
use slidetable::table::format::{Header, PAYLOAD_OFFSET};
use slidetable::{build, Board, Dir, Error, Goal, Shape, Table};

fn table(shape: &str, goal: &str) -> Table<Vec<u8>> {
    let shape = Shape::parse(shape).unwrap();
    build(&Goal::parse(shape, goal).unwrap().board(shape).unwrap(), |_| {}).unwrap()
}

// ---------------------------------------------------------------------------------------------
// sample

#[test]
fn samples_are_distinct_at_the_depth_and_fixed_by_the_seed() {
    let t = table("3x3", "blank-last");
    let a = sample_depth(&t, 20, 100, 7).unwrap();
    assert_eq!(a, sample_depth(&t, 20, 100, 7).unwrap());
    assert_ne!(a, sample_depth(&t, 20, 100, 8).unwrap());
    assert_eq!(a.iter().collect::<HashSet<_>>().len(), 100);
    for &i in &a {
        let b = t.index().board(i);
        assert_eq!(t.distance(&b).unwrap(), Some(20), "{b}");
    }
}

#[test]
fn a_full_sample_is_every_state_at_the_depth() {
    let t = table("3x3", "blank-last");
    for depth in [0u8, 1, 7, 30, 31] {
        let n = t.histogram()[depth as usize] as usize;
        let got: HashSet<Board> =
            sample_depth(&t, depth, n, 3).unwrap().into_iter().map(|i| t.index().board(i)).collect();
        let want: HashSet<Board> = t.states_at(depth, usize::MAX).into_iter().collect();
        assert_eq!(got, want, "depth {depth}");
    }
}

#[test]
fn a_sample_too_large_or_too_deep_is_refused() {
    let t = table("3x3", "blank-last");
    match sample_depth(&t, 31, 3, 1) {
        Err(Error::NotEnoughStates { depth: 31, requested: 3, available: 2 }) => {}
        other => panic!("{other:?}"),
    }
    match sample_depth(&t, 32, 1, 1) {
        Err(Error::NotEnoughStates { depth: 32, requested: 1, available: 0 }) => {}
        other => panic!("{other:?}"),
    }
    assert_eq!(sample_depth(&t, 31, 0, 1).unwrap(), Vec::<u64>::new());
}

#[test]
fn one_state_draws_are_uniform_over_the_depth() {
    // 2x3, depth 10: draw one state with each of 40 * n seeds; each state should come up about
    // 40 times. A chi-square statistic over n - 1 degrees of freedom far above its mean of n - 1
    // means the draw is biased.
    let t = table("2x3", "blank-last");
    let depth = 10u8;
    let n = t.histogram()[depth as usize] as usize;
    assert!(n >= 10, "{n}");
    let per = 40usize;
    let mut seen: HashMap<u64, usize> = HashMap::new();
    for seed in 0..(per * n) as u64 {
        *seen.entry(sample_depth(&t, depth, 1, seed).unwrap()[0]).or_default() += 1;
    }
    assert_eq!(seen.len(), n);
    let chi2: f64 = seen.values().map(|&c| (c as f64 - per as f64).powi(2) / per as f64).sum();
    assert!(chi2 < 3.0 * n as f64, "chi-square {chi2} over {} degrees of freedom", n - 1);
    // and the order of a full sample is shuffled, not index order
    let all = sample_depth(&t, depth, n, 5).unwrap();
    let mut sorted = all.clone();
    sorted.sort_unstable();
    assert_ne!(all, sorted);
}

// ---------------------------------------------------------------------------------------------
// count

/// Breadth-first search over boards from the goal, counting shortest paths to every board:
/// paths(s) = sum of paths(n) over neighbours n one step closer. No table, no index.
fn bfs_path_counts(goal: &Board) -> HashMap<Board, (u32, u128)> {
    let mut seen: HashMap<Board, (u32, u128)> = HashMap::from([(goal.clone(), (0, 1))]);
    let mut queue = VecDeque::from([goal.clone()]);
    while let Some(b) = queue.pop_front() {
        let (d, paths) = seen[&b];
        for dir in Dir::ALL {
            let Some(n) = b.moved(dir) else { continue };
            match seen.get_mut(&n) {
                None => {
                    seen.insert(n.clone(), (d + 1, paths));
                    queue.push_back(n);
                }
                Some((nd, np)) if *nd == d + 1 => *np += paths,
                Some(_) => {}
            }
        }
    }
    seen
}

#[test]
fn counts_match_breadth_first_path_counting_on_small_boards() {
    for (shape, goal) in [("2x2", "blank-last"), ("2x3", "blank-last"), ("3x2", "snail"), ("2x4", "blank-first")] {
        let t = table(shape, goal);
        let reference = bfs_path_counts(t.goal());
        assert_eq!(reference.len() as u64, t.index().len());
        let mut more_than_one = 0;
        for (b, &(d, paths)) in &reference {
            let c = count_solutions(&t, b).unwrap().unwrap();
            assert_eq!((c.distance as u32, c.solutions), (d, paths), "{shape} {b}");
            more_than_one += (paths > 1) as usize;
        }
        assert!(more_than_one > 0, "{shape}: every board has one solution?");
    }
}

#[test]
fn counts_match_breadth_first_path_counting_on_3x3_at_every_depth() {
    let t = table("3x3", "blank-last");
    let reference = bfs_path_counts(t.goal());
    for depth in 0..=31u8 {
        let n = (t.histogram()[depth as usize] as usize).min(8);
        for i in sample_depth(&t, depth, n, 11).unwrap() {
            let b = t.index().board(i);
            let c = count_solutions(&t, &b).unwrap().unwrap();
            assert_eq!((c.distance as u32, c.solutions), reference[&b], "{b}");
            assert!(c.cone > depth as u64 && c.widest_level >= 1);
        }
    }
}

/// Walks of exactly `left` moves from `b` (never straight back) that end on `goal`.
fn walks(b: &mut Board, goal: &Board, left: u32, back: Option<Dir>) -> u128 {
    if left == 0 {
        return (b == goal) as u128;
    }
    let mut n = 0;
    for dir in Dir::ALL {
        if Some(dir) == back {
            continue;
        }
        if b.apply(dir).is_some() {
            n += walks(b, goal, left - 1, Some(dir.opposite()));
            b.apply(dir.opposite());
        }
    }
    n
}

#[test]
fn counts_match_walk_enumeration_on_3x3_up_to_depth_12() {
    // Every walk of d moves from a board at distance d that ends on the goal is optimal, so
    // enumerating the walks counts the optimal solutions with no table at all.
    let t = table("3x3", "blank-last");
    for depth in 1..=12u8 {
        let n = (t.histogram()[depth as usize] as usize).min(3);
        for i in sample_depth(&t, depth, n, 5).unwrap() {
            let mut b = t.index().board(i);
            let c = count_solutions(&t, &b).unwrap().unwrap();
            assert_eq!(c.solutions, walks(&mut b, t.goal(), depth as u32, None), "{b}");
        }
    }
}

#[test]
fn count_known_boards() {
    let t = table("3x3", "blank-last");
    // COS 226's puzzle07.txt has more than one optimal solution (seed 001)
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../data/puzzle07.txt")).unwrap();
    let c = count_solutions(&t, &Board::parse_cos226(&text).unwrap()).unwrap().unwrap();
    assert_eq!(c.distance, 7);
    assert!(c.solutions > 1, "{c:?}");
    let goal = count_solutions(&t, t.goal()).unwrap().unwrap();
    assert_eq!((goal.distance, goal.solutions, goal.cone), (0, 1, 1));
    let unsolvable = Board::parse(Shape::EIGHT, "1 2 3 4 5 6 8 7 0").unwrap();
    assert_eq!(count_solutions(&t, &unsolvable).unwrap(), None);
    let wrong_shape = Board::parse(Shape::new(2, 2).unwrap(), "1 2 3 0").unwrap();
    assert!(matches!(count_solutions(&t, &wrong_shape), Err(Error::ShapeMismatch { .. })));
}

#[test]
fn count_reports_a_corrupt_table() {
    // The goal's entry set to 1 (checksums made consistent): the states at distance 1 have no
    // neighbour at distance 0.
    let t = table("3x3", "blank-last");
    let board = Board::parse(Shape::EIGHT, "1 2 3 4 5 6 0 7 8").unwrap(); // distance 2
    let goal = t.index().index(t.goal()).unwrap();
    let mut bytes = t.into_inner();
    bytes[PAYLOAD_OFFSET + goal as usize] = 1;
    let mut header = Header::parse(&bytes).unwrap();
    header.payload_crc = crc32fast::hash(&bytes[PAYLOAD_OFFSET..]);
    bytes[..PAYLOAD_OFFSET].copy_from_slice(&header.to_bytes());
    let bad = Table::new(bytes).unwrap();
    assert!(matches!(count_solutions(&bad, &board), Err(Error::Corrupt { .. })));
}

// ---------------------------------------------------------------------------------------------
// grade

/// The grade of estimates `f` by a plain loop: boards from unranking, neighbours by
/// `Board::moved` and a fresh lookup, each edge counted from its shallower end, the policy's
/// credit as the share of optimal children among those with the smallest estimate.
fn plain_grade_of(t: &Table<Vec<u8>>, f: &dyn Fn(&Board) -> f64) -> Vec<DepthGrade> {
    let mut by_depth = vec![DepthGrade::default(); t.histogram().len()];
    for i in 0..t.index().len() {
        let b = t.index().board(i);
        let d = t.distance(&b).unwrap().unwrap() as u32;
        let e = f(&b);
        let g = &mut by_depth[d as usize];
        g.states += 1;
        g.sum_h += e.max(0.0).ceil() as u64;
        g.sum_exact += d as u64;
        g.sum_estimate += e;
        g.sum_abs_error += (d as f64 - e).abs();
        g.sum_squared_error += (d as f64 - e).powi(2);
        g.exact += (e == d as f64) as u64;
        g.underestimates += (e < d as f64) as u64;
        if e > d as f64 {
            g.overestimates += 1;
            g.max_overestimate = g.max_overestimate.max((e - d as f64).ceil() as u32);
            g.worst_overestimate = g.worst_overestimate.max(e - d as f64);
        }
        let mut kids = vec![];
        for dir in Dir::ALL {
            let Some(n) = b.moved(dir) else { continue };
            let dn = t.distance(&n).unwrap().unwrap() as u32;
            let en = f(&n);
            kids.push((en, dn + 1 == d));
            if dn == d + 1 {
                g.edges += 1;
                g.inconsistent_edges += ((e - en).abs() > 1.0) as u64;
                g.max_edge_difference = g.max_edge_difference.max((e - en).abs());
            }
        }
        if d > 0 {
            let min = kids.iter().map(|k| k.0).fold(f64::INFINITY, f64::min);
            let tied: Vec<_> = kids.iter().filter(|k| k.0 == min).collect();
            g.policy_states += 1;
            g.policy_correct += tied.iter().filter(|k| k.1).count() as f64 / tied.len() as f64;
        }
    }
    by_depth
}

fn plain_grade(t: &Table<Vec<u8>>, h: Heuristic) -> Vec<DepthGrade> {
    let est = Estimator::new(t.goal());
    plain_grade_of(t, &|b: &Board| est.estimate(h, b.cells()) as f64)
}

/// Equal, but for the order of summing fractions: the policy's credit (and a fractional
/// heuristic's sums) to a relative 1e-9.
fn assert_same(a: &[DepthGrade], b: &[DepthGrade], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}");
    let close = |x: f64, y: f64| (x - y).abs() <= 1e-9 * x.abs().max(1.0);
    for (d, (x, y)) in a.iter().zip(b).enumerate() {
        let sums = [
            (x.sum_estimate, y.sum_estimate),
            (x.sum_abs_error, y.sum_abs_error),
            (x.sum_squared_error, y.sum_squared_error),
            (x.policy_correct, y.policy_correct),
        ];
        assert!(sums.iter().all(|&(p, q)| close(p, q)), "{what} depth {d}: {x:?} {y:?}");
        let strip = |g: &DepthGrade| DepthGrade {
            sum_estimate: 0.0,
            sum_abs_error: 0.0,
            sum_squared_error: 0.0,
            policy_correct: 0.0,
            ..*g
        };
        assert_eq!(strip(x), strip(y), "{what} depth {d}");
    }
}

#[test]
fn grades_match_a_plain_loop() {
    for (goal, h) in [("blank-last", Heuristic::Manhattan), ("snail", Heuristic::Nilsson)] {
        let t = table("3x3", goal);
        let g = grade(&t, h).unwrap();
        assert_same(&g.by_depth, &plain_grade(&t, h), &format!("{goal} {}", h.name()));
    }
    let t = table("2x4", "blank-first");
    for h in Heuristic::ALL {
        assert_same(&grade(&t, h).unwrap().by_depth, &plain_grade(&t, h), &format!("2x4 {}", h.name()));
    }
}

/// A heuristic with fractions, negative values near the goal, overestimates and ties.
fn fractional(est: &Estimator, b: &Board) -> f64 {
    1.3 * est.estimate(Heuristic::Manhattan, b.cells()) as f64 + 0.25 * (b.cells()[0] % 3) as f64 - 0.4
}

#[test]
fn fractional_estimates_are_graded_as_given() {
    let t = table("3x3", "blank-last");
    let est = Estimator::new(t.goal());
    let hs: Vec<f64> = (0..t.index().len()).map(|i| fractional(&est, &t.index().board(i))).collect();
    let (by_depth, total) = grade_estimates(&t, &hs, |_| {}).unwrap();
    assert_same(&by_depth, &plain_grade_of(&t, &|b: &Board| fractional(&est, b)), "fractional");
    assert!(total.overestimates > 0 && total.underestimates > 0 && total.inconsistent_edges > 0);
    // errors of both signs cancel in the signed mean, not in the absolute one
    assert!(total.mean_error().abs() < total.mean_abs_error());
    assert!(total.rmse() >= total.mean_abs_error());
    let hs32: Vec<f32> = hs.iter().map(|&h| h as f32).collect();
    let (_, total32) = grade_estimates(&t, &hs32, |_| {}).unwrap();
    assert!((total32.mean_abs_error() - total.mean_abs_error()).abs() < 1e-5);
    let mut bad = hs.clone();
    bad[7] = f64::NAN;
    let e = grade_estimates(&t, &bad, |_| {}).unwrap_err();
    assert!(e.to_string().contains("the estimate of state 7"), "{e}");
}

#[test]
fn given_boards_are_graded_as_the_table_restricted_to_them() {
    let t = table("2x4", "blank-last");
    let est = Estimator::new(t.goal());
    let n = t.index().len();
    let mut cells = vec![];
    let (mut hs, mut kids) = (vec![], vec![]);
    for i in 0..n {
        let b = t.index().board(i);
        cells.extend(b.cells().iter().map(|&c| c as u8));
        hs.push(fractional(&est, &b));
        for dir in Dir::ALL {
            kids.push(b.moved(dir).map_or(0.0, |k| fractional(&est, &k)));
        }
    }
    let table_hs: Vec<f64> = (0..n).map(|i| fractional(&est, &t.index().board(i))).collect();
    let (whole, whole_total) = grade_estimates(&t, &table_hs, |_| {}).unwrap();
    let (given, given_total) = grade_boards(&t, &cells, &hs, &kids).unwrap();
    // each edge is seen from both ends among given boards, so it is counted on both its depths' rows
    let halve = |g: &DepthGrade| DepthGrade { edges: 0, inconsistent_edges: 0, max_edge_difference: 0.0, ..*g };
    let a: Vec<_> = whole.iter().map(halve).collect();
    let b: Vec<_> = given.iter().map(halve).collect();
    assert_same(&a, &b, "every state given");
    assert_eq!(given_total.edges, 2 * whole_total.edges);
    assert_eq!(given_total.inconsistent_edges, 2 * whole_total.inconsistent_edges);
    assert!((given_total.max_edge_difference - whole_total.max_edge_difference).abs() < 1e-12);
    // one board: its own row only
    let k = 1234;
    let (one, _) = grade_boards(&t, &cells[8 * k..8 * k + 8], &hs[k..k + 1], &kids[4 * k..4 * k + 4]).unwrap();
    let d = t.entry(k as u64).unwrap() as usize;
    assert_eq!(one.len(), d + 1);
    assert_eq!((one[d].states, one.iter().map(|g| g.states).sum::<u64>()), (1, 1));
    // bad boards and estimates, named by row
    let e = grade_boards(&t, &[1, 2, 3, 4, 5, 6, 7, 0, 2, 1, 3, 4, 5, 6, 7, 0], &[0.0; 2], &[0.0; 8]).unwrap_err();
    assert_eq!(e.row, 1);
    assert!(e.to_string().contains("cannot reach the goal"), "{e}");
    let e = grade_boards(&t, &cells[..16], &[0.0, f64::INFINITY], &[0.0; 8]).unwrap_err();
    assert_eq!(e.row, 1);
    assert!(e.to_string().contains("the estimate is inf"), "{e}");
    // distances that contradict each other
    let given = Given {
        exact: &[3],
        estimates: &[1.0],
        valid: &[true, false, false, false],
        child_exact: &[3, 0, 0, 0],
        child_estimates: &[1.0, 0.0, 0.0, 0.0],
    };
    assert!(grade_given(&given).unwrap_err().to_string().contains("one move changes the distance by exactly 1"));
}

#[test]
fn the_policy_credit_splits_ties() {
    assert_eq!(policy_credit(&[(3.0, true), (4.0, false)]), 1.0);
    assert_eq!(policy_credit(&[(3.0, false), (2.0, true), (2.0, false)]), 0.5);
    assert_eq!(policy_credit(&[(1.0, true), (1.0, true), (1.0, false)]), 2.0 / 3.0);
    assert_eq!(policy_credit(&[(0.5, false), (2.0, true)]), 0.0);
    assert_eq!(policy_credit(&[]), 0.0);
}

#[test]
fn the_admissible_heuristics_are_admissible_and_consistent_on_3x3_and_nilsson_is_not() {
    for goal in ["blank-last", "snail"] {
        let t = table("3x3", goal);
        for h in Heuristic::ALL {
            let g = grade(&t, h).unwrap();
            assert_eq!(g.total.states, 181_440);
            assert_eq!(g.by_depth.iter().map(|r| r.states).collect::<Vec<_>>(), t.histogram());
            // every edge once: 4 corners of degree 2, 4 sides of 3, the centre 4, over 9 cells
            assert_eq!(g.total.edges, 181_440 * 24 / 9 / 2);
            assert_eq!(g.at_goal, 0);
            assert_eq!(g.by_depth[0].exact, 1);
            if h.is_admissible() {
                assert_eq!((g.total.overestimates, g.total.inconsistent_edges), (0, 0), "{goal} {}", h.name());
                assert!(g.total.mean_error() > 0.0);
            } else {
                assert!(g.total.overestimates > 0, "{goal} nilsson");
                assert!(g.total.inconsistent_edges > 0, "{goal} nilsson");
            }
        }
        // the heuristics are ordered: h1 <= h2 <= linear conflict, so their means are too
        let means: Vec<f64> = Heuristic::ADMISSIBLE.iter().map(|&h| grade(&t, h).unwrap().total.mean_h()).collect();
        assert!(means[0] < means[1] && means[1] < means[2], "{means:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// experiment

#[test]
fn the_experiment_uses_the_sampled_boards_and_the_search_counts() {
    let t = table("3x3", "blank-first");
    let columns = vec![
        Column { algorithm: Algorithm::AStar, guide: Guidance::Heuristic(Heuristic::Manhattan) },
        Column { algorithm: Algorithm::AStar, guide: Guidance::Table },
        Column { algorithm: Algorithm::IdaStar, guide: Guidance::Heuristic(Heuristic::LinearConflict) },
    ];
    let plan = Plan::new(vec![2, 12, 18], 10, 42, columns.clone());
    let mut seen = Vec::new();
    let rows = experiment::run(&t, &plan, |r| seen.push(r.depth)).unwrap();
    assert_eq!(seen, [2, 12, 18]);
    assert_eq!(rows.iter().map(|r| r.problems).collect::<Vec<_>>(), [4, 10, 10]); // 4 states at depth 2
    for r in &rows {
        let boards: Vec<Board> =
            sample_depth(&t, r.depth, r.problems, 42).unwrap().into_iter().map(|i| t.index().board(i)).collect();
        for (c, cell) in columns.iter().zip(&r.cells) {
            let cell = cell.as_ref().unwrap();
            let guide = match c.guide {
                Guidance::Heuristic(h) => Guide::Heuristic(h),
                _ => Guide::Table(&t),
            };
            let generated: Vec<u64> = boards
                .iter()
                .map(|b| solve(b, t.goal(), guide, &Options::new(c.algorithm)).unwrap().unwrap().stats.generated)
                .collect();
            let mean = generated.iter().sum::<u64>() as f64 / boards.len() as f64;
            assert_eq!(cell.mean_generated, mean, "{} at {}", c.label(), r.depth);
            assert_eq!(cell.min_generated, *generated.iter().min().unwrap());
            assert_eq!(cell.b_star, effective_branching_factor(mean, r.depth as u32));
            assert_eq!(cell.suboptimal, 0);
        }
        // the exact distances guide A* best; every search generates at least the path
        let cells: Vec<_> = r.cells.iter().map(|c| c.unwrap()).collect();
        assert!(cells[1].mean_generated <= cells[0].mean_generated);
        assert!(cells.iter().all(|c| c.min_generated > r.depth as u64));
    }
    // the same plan, the same figures
    assert_eq!(experiment::run(&t, &plan, |_| {}).unwrap(), rows);
    // stopped from its own progress after the first row: that row delivered, then Cancelled
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut delivered = Vec::new();
    let r = experiment::run_until(&t, &plan, &stop, |row| {
        delivered.push(row.clone());
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    assert!(matches!(r, Err(Error::Cancelled { .. })));
    assert_eq!(delivered, rows[..1]);
    let bad = Plan { depths: vec![40], ..plan };
    assert!(matches!(experiment::run(&t, &bad, |_| {}), Err(Error::NotEnoughStates { depth: 40, .. })));
}

#[test]
fn effective_branching_factor_reproduces_seed_002() {
    // Hazan & Ra's table (seed 002): (depth, nodes, b*) for h1 and h2, b* printed to 4 places (some rounded,
    // some cut). Where their mean N is far from a whole number (depth 16: 170 gives 1.2485, they
    // print 1.2479) the printed N, rounded, cannot give their b*; those rows are left out.
    for (d, n, b) in [(2u32, 4.0, 1.5616), (8, 25.0, 1.2517), (24, 1773.0, 1.2824)] {
        let got = effective_branching_factor(n, d).unwrap();
        assert!((got - b).abs() < 1e-4, "depth {d}, N {n}: {got} against {b}");
    }
}

/// The textbook's counting switches, on instances counted by hand (3x3, the centre goal
/// `1 2 3 / 8 _ 4 / 7 6 5`; moves tried in the order U D L R).
#[test]
fn each_counting_choice_moves_the_count_as_worked_out_by_hand() {
    use slidetable::lab::textbook::{astar, ids, Counting, Ties};
    let goal = Goal::parse(Shape::EIGHT, "center").unwrap().board(Shape::EIGHT).unwrap();
    let count = |start: &str, h: Heuristic, parent_move: bool, count_start: bool, ties: Ties| {
        let b = Board::parse(Shape::EIGHT, start).unwrap();
        astar(&b, &goal, h, Counting { parent_move, start: count_start, ties }).unwrap()
    };
    // Two moves: the blank went up and left from the goal. A* with Manhattan expands the start
    // (2 successors: D with f 4, R with f 2), then R's board (its successors: D, the goal with f 2,
    // and R with f 4; L is the way back), then takes the goal: 4 generated, plus the start, plus
    // the one move back: the book's 6 at depth 2.
    let two = "_ 1 3 8 2 4 7 6 5";
    assert_eq!(count(two, Heuristic::Manhattan, false, false, Ties::Lifo).generated, 4);
    assert_eq!(count(two, Heuristic::Manhattan, false, true, Ties::Lifo).generated, 5);
    assert_eq!(count(two, Heuristic::Manhattan, true, false, Ties::Lifo).generated, 5);
    let both = count(two, Heuristic::Manhattan, true, true, Ties::Lifo);
    assert_eq!((both.generated, both.expanded, both.depth), (6, 2, 2));
    // Four moves, tiles 8, 1, 2 turned about the top-left block: `8 1 3 / 2 _ 4 / 7 6 5`, h1 = 3.
    // The start's successors U and L both have f = 4 (U: `8 _ 3 / 2 1 4`, L: `8 1 3 / _ 2 4`).
    // Last in first out takes L, on the solution: L's board makes 2 (U with f 4, D with f 6), the
    // next makes 1 (R, f 4), the next 2 (the goal, f 4, and R, f 6), and the goal is taken: 4 + 2
    // + 1 + 2 = 9. First in first out takes U first, whose 2 successors (L, f 5; R, f 6) add 2: 11.
    // Larger g first agrees with lifo here (U and L are both at g 1, then the deeper node wins);
    // smaller g first expands U before going deeper: 11. The move back is made once at each of
    // the 3 boards after the start: +3.
    let four = "8 1 3 2 0 4 7 6 5";
    let h1 = Heuristic::Hamming;
    assert_eq!(count(four, h1, false, false, Ties::Lifo).generated, 9);
    assert_eq!(count(four, h1, false, false, Ties::LargerG).generated, 9);
    assert_eq!(count(four, h1, false, false, Ties::Fifo).generated, 11);
    assert_eq!(count(four, h1, false, false, Ties::SmallerG).generated, 11);
    assert_eq!(count(four, h1, true, false, Ties::Lifo).generated, 12);
    assert_eq!(count(four, h1, true, true, Ties::Lifo).generated, 13);
    // IDS on the two-move board: limit 0 visits the start; limit 1 makes its 2 successors; limit
    // 2 makes them again and, below D's board `8 1 3 / _ 2 4`, its 2 others (U back is not made)
    // and below R's board its 2 others, the goal first... R's board is `1 _ 3 / 8 2 4`: D is the
    // goal, found as the first of its successors: 2 + 2 + 2 + 1 = 7 made without the move back.
    let b = Board::parse(Shape::EIGHT, two).unwrap();
    let plain = ids(&b, &goal, Counting { parent_move: false, start: false, ties: Ties::Lifo }, u64::MAX).unwrap();
    assert_eq!((plain.generated, plain.depth), (7, 2));
    // with the move back made (and searched, as tree search does): limit 1 the same 2; limit 2:
    // D's board makes 3 (U back, D, R) and R's board 1 before the goal (D first): 2 + 2 + 3 + 1 = 8,
    // plus the start at each of the 3 limits: 11.
    let book = ids(&b, &goal, Counting { parent_move: true, start: true, ties: Ties::Lifo }, u64::MAX).unwrap();
    assert_eq!((book.generated, book.depth), (11, 2));
}

/// The textbook A* counted as the engine counts (the start, no move back, larger g first)
/// generates exactly as many nodes as the engine's A*, board for board: two implementations,
/// one count.
#[test]
fn textbook_astar_counted_as_the_engine_counts_agrees_with_it() {
    use slidetable::lab::textbook::{astar, Counting, Ties};
    let engine = Counting { parent_move: false, start: true, ties: Ties::LargerG };
    for goal in [Goal::BlankFirst, Goal::Snail] {
        let goal = goal.board(Shape::EIGHT).unwrap();
        let t = build(&goal, |_| {}).unwrap();
        for d in [5u8, 9, 15, 21, 27] {
            for i in sample_depth(&t, d, 20, 5).unwrap() {
                let b = t.index().board(i);
                for h in [Heuristic::Hamming, Heuristic::Manhattan, Heuristic::LinearConflict] {
                    let ours = astar(&b, &goal, h, engine).unwrap();
                    let found =
                        solve(&b, &goal, Guide::Heuristic(h), &Options::new(Algorithm::AStar)).unwrap().unwrap();
                    assert_eq!(ours.depth as usize, found.moves.len());
                    assert_eq!(
                        (ours.generated, ours.expanded),
                        (found.stats.generated, found.stats.expanded),
                        "{b} {h:?}"
                    );
                }
            }
        }
    }
}

/// IDS watched as the library's searches are (the comparison job's IDS): the same counts, its
/// nodes reported, and a cancelled watch stops it.
#[test]
fn a_watched_ids_counts_the_same_reports_its_nodes_and_stops_when_cancelled() {
    use slidetable::lab::textbook::{ids, ids_watched, Counting, Ties};
    use slidetable::search::Watch;
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    let counting = Counting { parent_move: false, start: true, ties: Ties::LargerG };
    let t = table("3x3", "blank-last");
    // 12 moves: more than 1024 expansions, so the watch is looked at on the way
    let near = t.index().board(sample_depth(&t, 12, 1, 5).unwrap()[0]);
    let plain = ids(&near, &goal, counting, u64::MAX).unwrap();
    let watch = Watch::new();
    assert_eq!(ids_watched(&near, &goal, counting, u64::MAX, &watch).unwrap(), Some(plain));
    assert_eq!(watch.generated(), plain.generated);
    // past the limit: no answer, as with `ids`
    assert_eq!(ids_watched(&near, &goal, counting, 10, &Watch::new()).unwrap(), None);
    // cancelled: the farthest board (31 moves, billions of nodes) stops at its first look
    let far = Board::parse(Shape::EIGHT, "8 6 7 2 5 4 3 0 1").unwrap();
    let watch = Watch::new();
    watch.cancel();
    match ids_watched(&far, &goal, counting, u64::MAX, &watch) {
        Err(Error::Cancelled { generated }) => assert!(generated < 10, "{generated}"),
        other => panic!("{other:?}"),
    }
}
