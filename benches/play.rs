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

criterion_group!(benches, keypress);
criterion_main!(benches);
