use slidetable::heuristic::pdb::{GroupTable, Partition, PatternSet};
use slidetable::search::{solve, Algorithm, Guide, Options};
use slidetable::table::pattern::build_pattern;
use slidetable::{Board, Goal, Shape};
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let shape = Shape::parse(&args[1]).unwrap();
    let goal = Goal::BlankFirst.board(shape).unwrap();
    let part = Partition::parse(&goal, &args[2]).unwrap();
    let reflect = args[3] == "1";
    let threads: usize = args[4].parse().unwrap();
    let t = Instant::now();
    let tables: Vec<GroupTable> = part
        .groups
        .iter()
        .map(|g| GroupTable::from_table(&build_pattern(&goal, g, |_| {}).unwrap()).unwrap())
        .collect();
    eprintln!("built in {:.2}s", t.elapsed().as_secs_f64());
    let set = PatternSet::new(&goal, part, tables, reflect).unwrap();
    let text = std::fs::read_to_string(&args[5]).unwrap();
    let (mut nodes, t) = (0u64, Instant::now());
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let board = Board::parse(shape, f[2]).unwrap();
        let opts = Options { threads, ..Options::new(Algorithm::IdaStar) };
        let found = solve(&board, &goal, Guide::Patterns(&set), &opts).unwrap().unwrap();
        assert_eq!(found.moves.len().to_string(), f[1], "{}", f[0]);
        nodes += found.stats.generated;
        println!("{} {} {} {:.3}", f[0], f[1], found.stats.generated, found.stats.elapsed.as_secs_f64());
    }
    let s = t.elapsed().as_secs_f64();
    println!("total nodes {nodes} time {s:.2}s  {:.1} M nodes/s", nodes as f64 / s / 1e6);
}
