//! Benchmarks: ranking, unranking, lookups and small builds. Timings live here, never in tests.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use slidetable::{build, Board, Goal, Shape, StateIndex};

fn goal(shape: &str) -> Board {
    let shape = Shape::parse(shape).unwrap();
    Goal::BlankLast.board(shape).unwrap()
}

fn rank(c: &mut Criterion) {
    for shape in ["3x3", "3x4"] {
        let index = StateIndex::new(&goal(shape)).unwrap();
        let n = index.len();
        let states: Vec<_> = (0..1024u64).map(|k| index.unrank(k * 7919 % n)).collect();
        c.bench_function(&format!("rank {shape} x1024"), |b| {
            b.iter(|| states.iter().map(|s| index.state_index(black_box(s)).unwrap()).sum::<u64>())
        });
        c.bench_function(&format!("unrank {shape} x1024"), |b| {
            b.iter(|| (0..1024u64).map(|k| index.unrank(black_box(k * 7919 % n)).seq[0] as u64).sum::<u64>())
        });
    }
}

/// The neighbours of 1024 states: from the index alone (rank-change tables), and by unranking and
/// ranking each neighbour again (the plain way).
fn neighbours(c: &mut Criterion) {
    for shape in ["3x3", "3x4", "2x6"] {
        let index = StateIndex::new(&goal(shape)).unwrap();
        index.moves();
        let n = index.len();
        let picks: Vec<u64> = (0..1024u64).map(|k| k * 7919 % n).collect();
        c.bench_function(&format!("neighbours from index {shape} x1024"), |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for &i in &picks {
                    index.for_each_neighbor_index(black_box(i), |_, j| sum += j);
                }
                sum
            })
        });
        c.bench_function(&format!("neighbours by unranking {shape} x1024"), |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for &i in &picks {
                    let state = index.unrank(black_box(i));
                    index.for_each_neighbor(&state, i, |_, j| sum += j);
                }
                sum
            })
        });
    }
}

fn lookup(c: &mut Criterion) {
    let table = build(&goal("3x3"), |_| {}).unwrap();
    let boards: Vec<Board> = (0..1024u64).map(|k| table.index().board(k * 101 % 181_440)).collect();
    c.bench_function("distance 3x3 x1024", |b| {
        b.iter(|| boards.iter().map(|bd| table.distance(black_box(bd)).unwrap().unwrap() as u64).sum::<u64>())
    });
    c.bench_function("verify 3x3", |b| b.iter(|| table.verify().unwrap()));
    let indices: Vec<u64> = boards.iter().map(|bd| table.index().index(bd).unwrap()).collect();
    c.bench_function("solve_index 3x3 x1024", |b| {
        let mut moves = Vec::with_capacity(64);
        b.iter(|| {
            indices.iter().fold(0, |n, &i| {
                moves.clear();
                table.solve_index(black_box(i), &mut moves).unwrap();
                n + moves.len()
            })
        })
    });
    c.bench_function("solve 3x3 x1024", |b| {
        b.iter(|| boards.iter().map(|bd| table.solve(black_box(bd)).unwrap().unwrap().moves.len()).sum::<usize>())
    });
}

fn builds(c: &mut Criterion) {
    let mut group = c.benchmark_group("build");
    group.sample_size(20);
    for shape in ["2x4", "3x3", "2x5"] {
        let g = goal(shape);
        group.bench_function(shape, |b| b.iter(|| build(black_box(&g), |_| {}).unwrap()));
    }
    group.finish();
}

/// Heuristic search (issue 4's targets): the hardest 3x3 board with Manhattan A* ("a few ms"),
/// and 4x4 boards of 44 and 50 moves (COS 226's files) with linear conflict, A* and IDA*.
fn searches(c: &mut Criterion) {
    use slidetable::heuristic::Heuristic;
    use slidetable::search::{solve, Algorithm, Guide, Options};
    let hardest = Board::parse(Shape::EIGHT, "8 6 7 2 5 4 3 0 1").unwrap();
    let four = Shape::new(4, 4).unwrap();
    let b44 = Board::parse(four, "14 5 11 6 9 0 4 3 15 1 7 12 8 2 13 10").unwrap();
    let b50 = Board::parse(four, "2 3 0 8 15 12 6 7 13 1 4 9 14 11 10 5").unwrap();
    let cases = [
        ("solve 3x3 31 moves astar manhattan", &hardest, Algorithm::AStar, Heuristic::Manhattan),
        ("solve 3x3 31 moves astar linear-conflict", &hardest, Algorithm::AStar, Heuristic::LinearConflict),
        ("solve 3x3 31 moves idastar manhattan", &hardest, Algorithm::IdaStar, Heuristic::Manhattan),
        ("solve 4x4 44 moves astar linear-conflict", &b44, Algorithm::AStar, Heuristic::LinearConflict),
        ("solve 4x4 50 moves idastar linear-conflict", &b50, Algorithm::IdaStar, Heuristic::LinearConflict),
    ];
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (name, board, algorithm, h) in cases {
        let goal = Goal::BlankLast.board(board.shape()).unwrap();
        group.bench_function(name, |b| {
            b.iter(|| solve(black_box(board), &goal, Guide::Heuristic(h), &Options::new(algorithm)).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, rank, neighbours, lookup, builds, searches);
criterion_main!(benches);
