//! Pattern tables: the fast build against a plain 0-1 breadth-first search, the file round trip,
//! and admissibility of partitions against the perfect tables.

use slidetable::index::pattern::PatternIndex;
use slidetable::table::pattern::{build_pattern, reference_pattern_distances};
use slidetable::{Board, Goal, Shape};

fn groups() -> Vec<(Shape, &'static str, Vec<u16>)> {
    let s33 = Shape::new(3, 3).unwrap();
    let s34 = Shape::new(3, 4).unwrap();
    let s43 = Shape::new(4, 3).unwrap();
    let s44 = Shape::new(4, 4).unwrap();
    vec![
        (s33, "blank-last", vec![1, 2, 3]),
        (s33, "blank-first", vec![5, 7, 8]),
        (s33, "snail", vec![1, 2, 3, 4]),
        (s33, "blank-last", vec![4, 5, 6, 7, 8]),
        (s33, "blank-last", vec![2, 4, 6, 7, 1, 3]),
        (s34, "blank-last", vec![1, 2, 3]),
        (s34, "blank-first", vec![8, 9, 10, 11]),
        (s43, "snail", vec![1, 5, 9]),
        (s44, "blank-first", vec![1, 2, 3]),
        (s44, "blank-last", vec![13, 14, 15]),
    ]
}

#[test]
fn fast_build_equals_plain_zero_one_bfs() {
    for (shape, goal, tiles) in groups() {
        let goal = Goal::parse(shape, goal).unwrap().board(shape).unwrap();
        let table = build_pattern(&goal, &tiles, |_| {}).unwrap();
        let index = PatternIndex::new(shape, &tiles).unwrap();
        let reference = reference_pattern_distances(&index, &goal);
        assert_eq!(table.payload(), &reference[..], "{shape} {goal} {tiles:?}");
        let h = table.histogram();
        assert_eq!(h.iter().sum::<u64>(), index.len());
        assert_eq!(h[0], 1);
        let again = slidetable::table::PatternTable::new(table.as_bytes().to_vec()).unwrap();
        again.check_payload_crc().unwrap();
        assert_eq!(again.tiles(), index.tiles());
        let _ = Board::parse(shape, &goal.to_string());
    }
}
