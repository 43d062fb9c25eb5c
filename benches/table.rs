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

fn lookup(c: &mut Criterion) {
    let table = build(&goal("3x3"), |_| {}).unwrap();
    let boards: Vec<Board> = (0..1024u64).map(|k| table.index().board(k * 101 % 181_440)).collect();
    c.bench_function("distance 3x3 x1024", |b| {
        b.iter(|| boards.iter().map(|bd| table.distance(black_box(bd)).unwrap().unwrap() as u64).sum::<u64>())
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

criterion_group!(benches, rank, lookup, builds);
criterion_main!(benches);
