//! The 12-cell tables: 239,500,800 states each. Too slow and too large for CI (which skips this
//! module: `--skip big::`); run them with
//! `scripts/big.sh` (or `cargo test --release --test integration big:: -- --ignored --test-threads 1`).

use slidetable::{build, Goal, Shape, Table};

fn built(shape: &str) -> Table<Vec<u8>> {
    let goal = Goal::BlankLast.board(Shape::parse(shape).unwrap()).unwrap();
    build(&goal, |_| {}).unwrap()
}

fn check(shape: &str, max_depth: u8, at_max: u64) -> Vec<u64> {
    let t = built(shape);
    let h = t.header();
    assert_eq!(h.entries, 239_500_800);
    assert_eq!(h.histogram.iter().sum::<u64>(), 239_500_800);
    assert_eq!(h.max_depth, max_depth, "{shape}");
    assert_eq!(h.histogram[max_depth as usize], at_max, "{shape}");
    t.verify().unwrap();
    h.histogram.clone()
}

#[test]
#[ignore = "12-cell build: run by scripts/big.sh"]
fn three_by_four_and_transpose() {
    // known answers: maximum depth 53, reached by 18 states; 4x3 is the same puzzle turned over
    let a = check("3x4", 53, 18);
    let b = check("4x3", 53, 18);
    assert_eq!(a, b);
}

#[test]
#[ignore = "12-cell build: run by scripts/big.sh"]
fn two_by_six_and_transpose() {
    // known answers: maximum depth 80, reached by 2 states
    let a = check("2x6", 80, 2);
    let b = check("6x2", 80, 2);
    assert_eq!(a, b);
}
