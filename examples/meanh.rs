use slidetable::heuristic::pdb::{pattern_file_name, GroupTable, Partition, PatternSet};
use slidetable::table::pattern::open_pattern;
use slidetable::{Board, Goal, Shape};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let shape = Shape::parse("4x4").unwrap();
    let goal = Goal::BlankFirst.board(shape).unwrap();
    let part = Partition::parse(&goal, &args[1]).unwrap();
    let tables: Vec<GroupTable> = part
        .groups
        .iter()
        .map(|g| {
            GroupTable::from_table(
                &open_pattern(&std::path::Path::new(&args[2]).join(pattern_file_name(shape, &Goal::BlankFirst, g)))
                    .unwrap(),
            )
            .unwrap()
        })
        .collect();
    let set = PatternSet::new(&goal, part, tables, true).unwrap();
    let text = std::fs::read_to_string(&args[3]).unwrap();
    let (mut s, mut r, mut n) = (0u64, 0u64, 0u64);
    for line in text.lines() {
        let b = Board::parse(shape, line).unwrap();
        s += set.sum(&b).unwrap() as u64;
        r += set.estimate(&b).unwrap() as u64;
        n += 1;
    }
    println!("mean sum {:.3} mean max(sum, reflected) {:.3}", s as f64 / n as f64, r as f64 / n as f64);
}
