//! `table play`'s keypress path: one key handled and the whole screen drawn (to ratatui's
//! TestBackend, 100x30), on 3x3 and 3x4 boards with their perfect tables, a move and a hint. The
//! target is under 16 ms a keypress (one frame at 60 Hz).

use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use slidetable::game::{Oracle, TableOracle};
use slidetable::{Goal, Shape};

#[allow(dead_code)]
#[path = "../src/cli/play/app.rs"]
mod app;
#[allow(dead_code)]
#[path = "../src/cli/play/ui.rs"]
mod ui;

/// What ui.rs takes from the command-line layer; the formatting does not matter here.
fn thousands(n: u64) -> String {
    n.to_string()
}

fn keypress(c: &mut Criterion) {
    for (rows, cols) in [(3, 3), (3, 4)] {
        let shape = Shape::new(rows, cols).unwrap();
        let goal = Goal::BlankLast.board(shape).unwrap();
        let table = Arc::new(TableOracle { table: slidetable::build(&goal, |_| {}).unwrap(), name: "memory".into() });
        let factory: app::OracleFactory = {
            let table = Arc::clone(&table);
            Box::new(move |_, _| Ok(Arc::clone(&table) as Arc<dyn Oracle>))
        };
        let mut app = app::App::new(Vec::new(), factory, 1);
        let start = slidetable::game::scramble(&table.table, 30, 7).unwrap();
        app.start_game(start, &Goal::BlankLast).unwrap();
        let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
        let key = |code| KeyEvent::new(code, KeyModifiers::NONE);
        let mut left = false;
        c.bench_function(&format!("play/{shape}/move+draw"), |b| {
            b.iter(|| {
                // back and forth along the row: always a legal move, or none at an edge
                left = !left;
                app.on_key(key(if left { KeyCode::Left } else { KeyCode::Right }));
                terminal.draw(|f| ui::draw(f, &mut app)).unwrap();
            })
        });
        c.bench_function(&format!("play/{shape}/hint+draw"), |b| {
            b.iter(|| {
                app.on_key(key(KeyCode::Char('h')));
                terminal.draw(|f| ui::draw(f, &mut app)).unwrap();
                app.on_key(key(KeyCode::Char('u')));
                app.on_key(key(KeyCode::Char('r')));
            })
        });
    }
}

/// A 4x4 hint from pattern tables (6-6-3, built here in a second or two): the distance of the
/// position and of each neighbour by IDA*, as the game's worker thread computes it, on boards
/// from Korf's 100 (the first five).
fn hint_4x4(c: &mut Criterion) {
    use slidetable::heuristic::{Partition, PatternSet};
    let shape = Shape::new(4, 4).unwrap();
    let goal = Goal::BlankFirst.board(shape).unwrap();
    let set = PatternSet::build(&goal, Partition::parse(&goal, "6-6-3").unwrap(), true).unwrap();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let oracle = slidetable::game::SearchOracle::new(goal.clone(), Some(set), threads, None);
    let boards: Vec<_> = [
        "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",
        "13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6",
        "14 7 8 2 13 11 10 4 9 12 5 0 3 6 1 15",
        "5 12 10 7 15 11 14 0 8 2 1 13 3 4 9 6",
        "4 7 14 13 10 3 9 12 11 5 6 15 1 2 8 0",
    ]
    .iter()
    .map(|t| slidetable::Board::parse(shape, t).unwrap())
    .collect();
    let mut k = 0;
    c.bench_function("play/4x4/hint (6-6-3, Korf 1-5)", |b| {
        b.iter(|| {
            k = (k + 1) % boards.len();
            slidetable::game::optimal_moves(&oracle, &boards[k]).unwrap()
        })
    });
}

criterion_group!(benches, keypress, hint_4x4);
criterion_main!(benches);
