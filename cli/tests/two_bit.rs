//! Two-bit perfect tables (encoding 5, distance modulo 3): built, they equal the byte tables
//! entry for entry; walked down, they give every distance and an optimal solution; `verify`
//! proves them exact, catching a table that is consistent everywhere but wrong; a build that
//! would not fit is refused before it starts.

use crate::common;

use std::sync::atomic::AtomicBool;

use common::{one_line_error, table};
use slidetable::table::format::{payload_crc, Encoding, Header, PAYLOAD_OFFSET};
use slidetable::table::residue;
use slidetable::table::{build_with, check_build_memory, Width};
use slidetable::{build, Board, Error, Goal, Shape, Table};

fn shape(rows: usize, cols: usize) -> Shape {
    Shape::new(rows, cols).unwrap()
}

fn two_bit(goal: &Board) -> Table<Vec<u8>> {
    build_with(goal, Width::TwoBit, |_| {}, &AtomicBool::new(false)).unwrap()
}

#[test]
fn every_table_up_to_2x5_at_two_bits_equals_the_byte_table() {
    let shapes = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (2, 5), (5, 2)];
    for (rows, cols) in shapes {
        for goal in [Goal::BlankLast, Goal::BlankFirst] {
            let goal = goal.board(shape(rows, cols)).unwrap();
            let bytes = build(&goal, |_| {}).unwrap();
            let bits = two_bit(&goal);
            assert!(bits.is_two_bit() && !bytes.is_two_bit());
            assert_eq!(bits.header().encoding, Encoding::DistanceResidue);
            assert_eq!(bits.histogram(), bytes.histogram(), "{rows}x{cols} goal {goal}");
            assert_eq!(bits.header().max_depth, bytes.header().max_depth);
            assert_eq!(bits.payload().len() as u64, bytes.index().len().div_ceil(4));
            for (i, &d) in bytes.payload().iter().enumerate() {
                assert_eq!(residue::code(bits.payload(), i as u64), d % 3, "{rows}x{cols} index {i}");
            }
            assert_eq!(&*bits.distances().unwrap(), bytes.payload(), "{rows}x{cols} decoded");
            bits.verify().unwrap();
            // and the file opens again as a table, checksums and all
            let reopened = Table::new(bits.as_bytes().to_vec()).unwrap();
            assert!(reopened.is_two_bit());
        }
    }
}

#[test]
fn walking_down_gives_every_3x3_distance_and_an_optimal_solution() {
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    let bytes = build(&goal, |_| {}).unwrap();
    let bits = two_bit(&goal);
    let mut moves = Vec::new();
    for i in 0..bytes.index().len() {
        let d = bytes.payload()[i as usize];
        assert_eq!(bits.entry(i).unwrap(), d, "index {i}");
        let board = bytes.index().board(i);
        let solution = bits.solve(&board).unwrap().unwrap();
        assert_eq!(solution.moves.len(), d as usize, "{board}");
        let mut b = board.clone();
        for &m in &solution.moves {
            b.apply(m).unwrap();
        }
        assert_eq!(b, goal, "the solution of {board} ends on the goal");
        moves.clear();
        bits.solve_index(i, &mut moves).unwrap();
        assert_eq!(moves, solution.moves, "{board}");
        if i % 97 == 0 {
            assert_eq!(bits.optimal_moves(&board).unwrap(), bytes.optimal_moves(&board).unwrap());
        }
    }
}

/// Six states of the 2x3 (goal `1 2 3 / 4 5 _`) given other residues so that every edge still
/// joins residues one apart and every state but the goal still has a neighbour "one less": found
/// by a min-conflicts search over 3-colourings of the 360 states. No local check can tell.
const WRONG_2X3: [([u16; 6], u8); 6] = [
    ([4, 2, 5, 0, 1, 3], 1),
    ([0, 4, 5, 1, 2, 3], 2),
    ([4, 2, 5, 1, 0, 3], 0),
    ([4, 0, 5, 1, 2, 3], 1),
    ([4, 5, 3, 1, 2, 0], 0),
    ([4, 5, 0, 1, 2, 3], 2),
];

/// `table` with the codes of some states changed (`change(index, code) -> new code`), its
/// checksums made consistent: only the entries can tell.
fn with_codes(table: &Table<Vec<u8>>, states: &[u64], change: impl Fn(u64, u8) -> u8) -> Table<Vec<u8>> {
    let mut data = table.as_bytes().to_vec();
    for &i in states {
        let byte = &mut data[PAYLOAD_OFFSET + (i / 4) as usize];
        let shift = 2 * (i % 4);
        let r = change(i, (*byte >> shift) & 3);
        *byte = (*byte & !(3 << shift)) | (r << shift);
    }
    let mut header = Header::parse(&data).unwrap();
    header.payload_crc = payload_crc(&data[PAYLOAD_OFFSET..]);
    data[..PAYLOAD_OFFSET].copy_from_slice(&header.to_bytes());
    Table::new(data).unwrap()
}

/// The 2x3 two-bit table with the entries of [`WRONG_2X3`], its checksums made consistent.
fn consistent_but_wrong() -> Table<Vec<u8>> {
    let goal = Goal::BlankLast.board(shape(2, 3)).unwrap();
    let right = two_bit(&goal);
    let wrong: Vec<(u64, u8)> = WRONG_2X3
        .iter()
        .map(|(cells, r)| (right.index().index(&Board::new(shape(2, 3), cells.to_vec()).unwrap()).unwrap(), *r))
        .collect();
    let states: Vec<u64> = wrong.iter().map(|w| w.0).collect();
    with_codes(&right, &states, |i, _| wrong.iter().find(|w| w.0 == i).unwrap().1)
}

#[test]
fn verify_catches_a_table_consistent_modulo_3_but_wrong() {
    let wrong = consistent_but_wrong();
    // locally, every state looks right: each one's neighbours check out
    for i in 0..wrong.index().len() {
        let board = wrong.index().board(i);
        assert!(wrong.optimal_moves(&board).is_ok(), "{board}");
    }
    match wrong.verify() {
        Err(Error::Corrupt { detail, .. }) => assert!(detail.contains("moves from the goal"), "{detail}"),
        other => panic!("verify passed a wrong table: {other:?}"),
    }
    assert!(wrong.recount().is_err());
    // and on the command line: exit 1 (not exact), one line
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("w.table"), wrong.as_bytes()).unwrap();
    table(dir.path()).args(["verify", "--table", "w.table"]).assert().code(1);
}

#[test]
fn a_build_that_does_not_fit_is_refused_before_it_starts() {
    let s = shape(2, 7);
    match check_build_memory(s, Width::TwoBit, Some(8 << 30)) {
        Err(Error::NotEnoughMemory { needed, .. }) => assert!(needed > 15 << 30 && needed < 17 << 30, "{needed}"),
        other => panic!("{other:?}"),
    }
    assert!(check_build_memory(s, Width::TwoBit, Some(24 << 30)).is_ok());
    let e = check_build_memory(s, Width::Byte, Some(24 << 30)).unwrap_err().to_string();
    assert!(e.contains("--bits 2"), "{e}");
    assert!(matches!(check_build_memory(shape(4, 4), Width::TwoBit, None), Err(Error::TableTooLarge { .. })));
    // the 3x5 has a table, but not in this machine's memory (it goes out of core, into files)
    match check_build_memory(shape(3, 5), Width::TwoBit, Some(24 << 30)) {
        Err(Error::NotEnoughMemory { needed, .. }) => assert!(needed > 163 << 30, "{needed}"),
        other => panic!("{other:?}"),
    }

    // the command line: one line, nothing written, an existing table untouched
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("old.table"), b"old").unwrap();
    table(dir.path())
        .env("SLIDETABLE_AVAILABLE_MEMORY", "4000")
        .args(["build", "--board", "2x3", "--bits", "2", "-o", "old.table"])
        .assert()
        .failure()
        .stderr(one_line_error())
        .stderr(predicates::str::contains("needs"));
    assert_eq!(std::fs::read(dir.path().join("old.table")).unwrap(), b"old");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn every_command_answers_from_a_two_bit_table_as_from_the_byte_table() {
    let dir = tempfile::tempdir().unwrap();
    table(dir.path()).args(["build", "-o", "b.table", "-q"]).assert().success();
    table(dir.path()).args(["build", "--bits", "2", "-o", "t.table", "-q"]).assert().success();
    let same = |args: &[&str], input: &str| {
        let run = |name: &str| {
            let args: Vec<&str> = args.iter().map(|a| if *a == "T" { name } else { a }).collect();
            let out = table(dir.path()).args(&args).write_stdin(input).output().unwrap();
            assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
            // timings differ from run to run
            let text = String::from_utf8(out.stdout).unwrap().replace(name, "T");
            text.lines().filter(|l| !l.contains(" ms") && !l.contains("seconds")).collect::<Vec<_>>().join("\n")
        };
        assert_eq!(run("b.table"), run("t.table"), "{args:?}");
    };
    same(&["query", "--table", "T", "8 6 7 2 5 4 3 0 1"], "");
    same(&["query", "--table", "T", "--batch"], "8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 7 0 8\n");
    same(&["query", "--table", "T", "--batch", "--solve"], "8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 7 0 8\n");
    same(&["stats", "--table", "T", "--json"], "");
    same(&["stats", "--table", "T", "--scan", "--csv"], "");
    same(&["sample", "--table", "T", "--depth", "20", "-n", "5", "--seed", "7"], "");
    same(&["count", "--table", "T", "8 6 7 2 5 4 3 0 1"], "");
    same(&["heuristic", "manhattan", "--table", "T"], "");
    same(&["solve", "-H", "table", "--table", "T", "8 6 7 2 5 4 3 0 1"], "");
    table(dir.path()).args(["verify", "--table", "t.table"]).assert().success();
}

/// Every 3x3 state, with unsolvable and malformed lines among them, answered by a batch run on
/// the two-bit table (walks interleaved, on both cores) as on the byte table.
#[test]
fn a_batch_of_every_3x3_state_is_answered_as_by_the_byte_table() {
    use slidetable::table::batch::answer_lines;
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    let bytes = build(&goal, |_| {}).unwrap();
    let bits = two_bit(&goal);
    let mut input = String::new();
    for i in 0..bytes.index().len() {
        let board = bytes.index().board(i);
        let cells: Vec<String> = board.cells().iter().map(|c| c.to_string()).collect();
        input.push_str(&cells.join(" "));
        input.push('\n');
        if i % 1001 == 0 {
            input.push_str("1 2 3 4 5 6 8 7 0\n");
        }
        if i % 4099 == 0 {
            input.push_str("1 2 3\n");
        }
    }
    for solve in [false, true] {
        let answers = |t: &Table<Vec<u8>>| {
            let mut out = Vec::new();
            let summary = answer_lines(t, input.as_bytes(), &mut out, solve, |_, _| {}).unwrap();
            (summary, String::from_utf8(out).unwrap())
        };
        let (sb, ob) = answers(&bytes);
        let (st, ot) = answers(&bits);
        assert_eq!(sb, st);
        assert_eq!(sb.solvable, bytes.index().len());
        assert!(ob == ot, "solve {solve}: the two-bit answers differ");
        // and every solution is one of the optimal length that reaches the goal
        if solve {
            for (line, answer) in input.lines().zip(ot.lines()).step_by(89) {
                let Some((n, moves)) = answer.split_once(' ') else { continue };
                let mut board = Board::parse(Shape::EIGHT, line).unwrap();
                assert_eq!(n.parse::<usize>().unwrap(), bytes.distance(&board).unwrap().unwrap() as usize);
                for m in moves.chars().filter(|&c| c != '-') {
                    board.apply(slidetable::Dir::from_letter(m).unwrap()).unwrap();
                }
                assert_eq!(board, goal, "{line}: {answer}");
            }
        }
    }
}

/// A batch on a damaged two-bit table stops at the first board whose walk finds the damage,
/// after writing the answers before it.
#[test]
fn a_batch_stops_at_a_damaged_two_bit_entry_after_the_answers_before() {
    use slidetable::table::batch::{answer_lines, BatchError};
    let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
    let right = two_bit(&goal);
    let board = Board::parse(Shape::EIGHT, "8 6 7 2 5 4 3 0 1").unwrap();
    let i = right.index().index(&board).unwrap();
    let damaged = with_codes(&right, &[i], |_, r| (r + 1) % 3);
    for solve in [false, true] {
        let mut out = Vec::new();
        let input = &b"123456780\n1 2 3 4 5 6 8 7 0\n8 6 7 2 5 4 3 0 1\n123456780\n"[..];
        let err = answer_lines(&damaged, input, &mut out, solve, |_, _| {}).unwrap_err();
        assert!(matches!(err, BatchError::Table(Error::Corrupt { .. })), "{err:?}");
        assert_eq!(out, if solve { &b"0 -\nunsolvable\n"[..] } else { b"0\nunsolvable\n" });
    }
}

/// `verify` on a table big enough for its parallel, word-at-a-time path (2x5, 1.8 M states)
/// names the one entry that was changed, wherever it is.
#[test]
fn verify_names_a_changed_entry_of_a_2x5_table() {
    let goal = Goal::BlankLast.board(shape(2, 5)).unwrap();
    let right = two_bit(&goal);
    right.verify().unwrap();
    let states = right.index().len();
    for i in [1, states / 3 + 17, states - 1] {
        match with_codes(&right, &[i], |_, r| (r + 2) % 3).verify() {
            Err(Error::Corrupt { index, .. }) => assert_eq!(index, i, "entry {i}"),
            other => panic!("entry {i} changed, verify said {other:?}"),
        }
    }
}
