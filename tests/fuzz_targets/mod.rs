//! The bodies of the fuzz targets, shared by the property-test drivers in `tests/fuzz.rs` (run in
//! CI for a fixed number of cases) and the cargo-fuzz targets in `fuzz/` (run by hand, see
//! `scripts/fuzz.sh`). Each takes arbitrary bytes and panics only on a bug: a panic inside the
//! library, an answer that contradicts the plain reference, or a file accepted that should not be.
//!
//! - [`header`]: the table header parser.
//! - [`table`]: the table loaders (perfect and pattern), and every lookup on what they accept.
//! - [`board`]: the board, shape, goal and partition parsers.
//! - [`batch`]: the batch reader (`query --batch`) against the plain line-by-line loop.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Cursor};
use std::sync::OnceLock;

use byteorder::{ByteOrder, LE};
use slidetable::heuristic::Partition;
use slidetable::puzzle::board::moves_to_string;
use slidetable::table::batch::{answer_lines, parse_cells, Summary, MAX_FAST_CELLS};
use slidetable::table::format::{payload_crc, Encoding, Header, PAYLOAD_OFFSET};
use slidetable::table::pattern::reference_pattern_distances;
use slidetable::table::PatternTable;
use slidetable::{Board, Dir, Error, Goal, Shape, Table};

/// Where the payload's and the header's checksums sit in the header (docs/formats.md).
const OFF_PAYLOAD_CRC: usize = 48;
const OFF_HEADER_CRC: usize = 52;

/// Rewrites both checksums of a table file so that they match its bytes, as a forger (or a
/// program that rewrote the file) would: the loaders must then judge the fields themselves.
pub fn fix_checksums(file: &mut [u8]) {
    if file.len() < PAYLOAD_OFFSET {
        return;
    }
    let crc = payload_crc(&file[PAYLOAD_OFFSET..]);
    LE::write_u32(&mut file[OFF_PAYLOAD_CRC..], crc);
    LE::write_u32(&mut file[OFF_HEADER_CRC..], 0);
    let crc = crc32fast::hash(&file[..PAYLOAD_OFFSET]);
    LE::write_u32(&mut file[OFF_HEADER_CRC..], crc);
}

// ---------------------------------------------------------------------------------------------
// The header parser

/// Runs `check` on `data` as it is, then with its checksums made to match.
fn as_is_and_forged(data: &[u8], check: fn(&[u8])) {
    check(data);
    let mut fixed = data.to_vec();
    fix_checksums(&mut fixed);
    check(&fixed);
}

/// The header parser on `data` as it is and with its checksums made to match.
pub fn header(data: &[u8]) {
    as_is_and_forged(data, header_once);
}

fn header_once(data: &[u8]) {
    let Ok(h) = Header::parse(data) else { return };
    // What it accepts is exactly what it would write: every byte is a field or a zero.
    assert_eq!(h.to_bytes(), &data[..PAYLOAD_OFFSET], "an accepted header does not round-trip");
    assert_eq!(h.histogram.len(), h.max_depth as usize + 1);
    assert_eq!(h.histogram.iter().sum::<u64>(), h.entries);
    assert_eq!(h.histogram[0], 1);
    assert_eq!(h.goal.shape(), h.shape);
    for kind in [Encoding::DistanceByte, Encoding::PatternByte] {
        match Header::parse_file(data, kind) {
            Ok(f) => {
                assert_eq!(f, h);
                assert_eq!(f.encoding, kind);
                assert_eq!(data.len() as u64, f.file_len());
            }
            Err(Error::WrongKind { .. }) => assert_ne!(h.encoding, kind),
            Err(Error::WrongLength { found, .. }) => assert_eq!(found, data.len() as u64),
            Err(e) => panic!("parse accepted the header, parse_file says {e}"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The table loaders

/// Both loaders on `data` as it is and with its checksums made to match; whatever they accept is
/// asked every question a command asks, and a table that passes `verify` must be the true one.
pub fn table(data: &[u8]) {
    as_is_and_forged(data, table_once);
}

fn table_once(data: &[u8]) {
    if let Ok(t) = Table::new(data) {
        perfect(&t, data);
    }
    if let Ok(t) = PatternTable::new(data) {
        pattern(&t, data);
    }
}

/// The questions asked of an accepted perfect table, with a few boards picked by `data`'s bytes.
fn perfect(t: &Table<&[u8]>, data: &[u8]) {
    let h = t.header();
    let n = t.index().len();
    assert_eq!(n, h.entries);
    assert_eq!(t.payload().len() as u64, n);
    let picks = data.iter().rev().take(24).map(|&b| b as u64 * 7919 % n).chain([0, n - 1]);
    let mut moves = Vec::new();
    for i in picks {
        let board = t.index().board(i);
        let entry = t.entry(i);
        match &entry {
            Ok(d) => assert!(*d <= h.max_depth, "entry {d} above the maximum {}", h.max_depth),
            Err(e) => assert!(matches!(e, Error::Corrupt { .. }), "{e}"),
        }
        match t.distance(&board) {
            Ok(Some(d)) => assert_eq!(Ok(d), entry.map_err(|_| ())),
            Ok(None) => panic!("a board of the table's own index is unsolvable"),
            Err(e) => assert!(matches!(e, Error::Corrupt { .. }) && entry.is_err(), "{e}"),
        }
        match t.solve(&board) {
            Ok(Some(s)) => {
                let mut b = board.clone();
                for &dir in &s.moves {
                    b.apply(dir).expect("a solution's move is legal");
                }
                assert_eq!(&b, t.goal(), "a solution that does not reach the goal");
                assert_eq!(Ok(s.moves.len()), t.entry(i).map(usize::from).map_err(|_| ()));
            }
            Ok(None) => panic!("a board of the table's own index is unsolvable"),
            Err(e) => assert!(matches!(e, Error::Corrupt { .. }), "{e}"),
        }
        moves.clear();
        let _ = t.solve_index(i, &mut moves);
    }
    for d in 0..=h.max_depth.saturating_add(1) {
        assert!(t.states_at(d, 4).len() <= 4);
    }
    let _ = t.optimal_moves(t.goal());
    if t.verify().is_ok() {
        // verify's proof: then every entry is the true distance
        let truth = slidetable::build(t.goal(), |_| {}).expect("a goal the header accepted builds");
        assert!(truth.payload() == t.payload(), "verify accepted a table that is not the distance function");
        assert_eq!(truth.histogram(), t.histogram());
    }
}

/// The questions asked of an accepted pattern table.
fn pattern(t: &PatternTable<&[u8]>, data: &[u8]) {
    let h = t.header();
    assert_eq!(t.payload().len() as u64, t.index().len());
    let mut board = t.goal().clone();
    for &b in data.iter().rev().take(64) {
        let _ = board.apply([Dir::Up, Dir::Down, Dir::Left, Dir::Right][b as usize % 4]);
        match t.distance(&board) {
            Ok(d) => assert!(d <= h.max_depth),
            Err(e) => assert!(matches!(e, Error::Corrupt { .. }), "{e}"),
        }
    }
    let crc_ok = t.check_payload_crc().is_ok();
    match t.verify(|_| {}) {
        Ok(None) => {
            assert!(crc_ok);
            let truth = reference_pattern_distances(t.index(), t.goal());
            assert!(truth == t.payload(), "verify accepted a pattern table that is not the true one");
        }
        Ok(Some(_)) => assert!(crc_ok),
        Err(e) => assert!(!crc_ok || matches!(e, Error::Corrupt { .. }), "{e}"),
    }
}

// ---------------------------------------------------------------------------------------------
// The parsers of boards, shapes, goals and partitions

/// The shape a fuzz input's first byte names: 2 to 5 rows and columns, or (rarely) larger.
fn shape_of(byte: u8) -> Shape {
    let (r, c) = (2 + (byte & 3) as usize, 2 + (byte >> 2 & 3) as usize);
    let big = byte >> 4 == 15;
    Shape::new(if big { r * 5 } else { r }, c).expect("a valid shape")
}

/// Every text parser on `data[1..]` as text, for the shape `data[0]` names.
pub fn board(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else { return };
    let shape = shape_of(first);
    let text = String::from_utf8_lossy(rest);
    let text = text.as_ref();
    if let Ok(b) = Board::parse(shape, text) {
        assert_eq!(b.shape(), shape);
        assert_eq!(Board::parse(shape, &b.to_string()).ok().as_ref(), Some(&b), "display does not round-trip");
        let goal = Goal::BlankLast.board(shape).unwrap();
        assert_eq!(b.is_solvable_to(&goal), b.parity_to(&goal).is_solvable());
    }
    if shape.cells() <= MAX_FAST_CELLS {
        check_parser(shape, text);
    }
    if let Ok(s) = Shape::parse(text) {
        assert_eq!(Shape::parse(&s.to_string()).ok(), Some(s));
    }
    if let Ok(g) = Goal::parse(shape, text) {
        if let Ok(b) = g.board(shape) {
            assert_eq!(b.shape(), shape);
        }
    }
    if let Ok(b) = Board::parse_cos226(text) {
        assert_eq!(Board::parse_cos226(&b.to_cos226()).ok(), Some(b), "the COS 226 form does not round-trip");
    }
    let _ = Board::square_shape_of(text);
    let goal = Goal::BlankLast.board(shape).unwrap();
    if let Ok(p) = Partition::parse(&goal, text) {
        assert!(!p.parts.is_empty(), "a partition without parts");
        for part in &p.parts {
            let mut seen = vec![false; shape.cells()];
            for &tile in part.iter().flat_map(|&g| &p.groups[g]) {
                assert!(tile > 0 && (tile as usize) < shape.cells(), "tile {tile} in a partition");
                assert!(!std::mem::replace(&mut seen[tile as usize], true), "tile {tile} in two groups");
            }
        }
    }
}

/// Checks the fast batch parser's contract on one line: `Some` only with exactly `Board::parse`'s
/// cells. Returns whether the fast path took the line.
pub fn check_parser(shape: Shape, line: &str) -> bool {
    let mut cells = [0u8; MAX_FAST_CELLS];
    let fast = parse_cells(line.as_bytes(), shape, &mut cells);
    if let Some(n) = fast {
        let board = Board::parse(shape, line).unwrap_or_else(|e| panic!("{line:?}: fast path took it, slow: {e}"));
        let cells: Vec<u16> = cells[..n].iter().map(|&c| c as u16).collect();
        assert_eq!(board.cells(), &cells[..], "{line:?}");
    }
    fast.is_some()
}

// ---------------------------------------------------------------------------------------------
// The batch reader

/// The tables the batch checks use, built once: 3x3 with the blank last and the snail goal, 2x3,
/// 2x4.
pub fn batch_tables() -> &'static [Table<Vec<u8>>] {
    static TABLES: OnceLock<Vec<Table<Vec<u8>>>> = OnceLock::new();
    TABLES.get_or_init(|| {
        [(3, 3, Goal::BlankLast), (3, 3, Goal::Snail), (2, 3, Goal::BlankLast), (2, 4, Goal::BlankLast)]
            .into_iter()
            .map(|(r, c, goal)| slidetable::build(&goal.board(Shape::new(r, c).unwrap()).unwrap(), |_| {}).unwrap())
            .collect()
    })
}

/// The batch reader on `data[1..]`, with the table, the mode and the reader's buffer size picked
/// by `data[0]`, against the plain loop.
pub fn batch(data: &[u8]) {
    let Some((&first, input)) = data.split_first() else { return };
    let tables = batch_tables();
    let table = &tables[first as usize % tables.len()];
    let capacity = [1, 2, 3, 7, 64, 8192][(first as usize >> 2) % 6];
    check_batch(table, input, first & 0x80 != 0, capacity);
}

/// What a batch run printed: the output, the `(line, message)` of each malformed line, and the
/// error that stopped it, written out.
#[derive(Debug, PartialEq, Eq)]
pub struct Run {
    pub out: String,
    pub errors: Vec<(u64, String)>,
    pub stopped: Option<String>,
}

/// The batch loop as it was before the fast driver: one `String` and one `Board` per line.
pub fn slow(table: &Table<Vec<u8>>, input: &[u8], solve: bool) -> Run {
    let shape = table.header().shape;
    let mut run = Run { out: String::new(), errors: Vec::new(), stopped: None };
    for (n, line) in Cursor::new(input).lines().enumerate() {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                run.stopped = Some(format!("reading line {}: {e}", n + 1));
                break;
            }
        };
        let board = match Board::parse(shape, &line) {
            Ok(b) => b,
            Err(e) => {
                run.out.push_str("error\n");
                run.errors.push((n as u64 + 1, e.to_string()));
                continue;
            }
        };
        let answer = if solve {
            match table.solve(&board).unwrap() {
                Some(s) => format!("{} {}", s.moves.len(), moves_to_string(&s.moves)),
                None => "unsolvable".to_string(),
            }
        } else {
            match table.distance(&board).unwrap() {
                Some(d) => d.to_string(),
                None => "unsolvable".to_string(),
            }
        };
        run.out.push_str(&answer);
        run.out.push('\n');
    }
    run
}

/// The fast driver over `input`, read through a buffer of `capacity` bytes.
pub fn fast(table: &Table<Vec<u8>>, input: &[u8], solve: bool, capacity: usize) -> (Run, Option<Summary>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let reader = BufReader::with_capacity(capacity, input);
    let result = answer_lines(table, reader, &mut out, solve, |n, e| errors.push((n, e.to_string())));
    let (summary, stopped) = match result {
        Ok(s) => (Some(s), None),
        Err(e) => (None, Some(e.to_string())),
    };
    (Run { out: String::from_utf8(out).unwrap(), errors, stopped }, summary)
}

/// Checks the fast driver against the slow one on `input`, and the summary against the output.
pub fn check_batch(table: &Table<Vec<u8>>, input: &[u8], solve: bool, capacity: usize) {
    let want = slow(table, input, solve);
    let (got, summary) = fast(table, input, solve, capacity);
    assert_eq!(got, want, "input {:?}", String::from_utf8_lossy(input));
    if let Some(s) = summary {
        let lines: Vec<&str> = got.out.lines().collect();
        assert_eq!(s.lines, lines.len() as u64);
        assert_eq!(s.malformed, lines.iter().filter(|&&l| l == "error").count() as u64);
        assert_eq!(s.unsolvable, lines.iter().filter(|&&l| l == "unsolvable").count() as u64);
        assert_eq!(s.solvable + s.unsolvable + s.malformed, s.lines);
    }
}

// ---------------------------------------------------------------------------------------------
// Seeds

/// Real table files to mutate: perfect tables of 2x2, 2x3 and 3x2 (two goals), pattern tables
/// of small groups on 2x3, 3x3 and 2x4.
pub fn seed_tables() -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for (r, c, goal) in [(2, 2, Goal::BlankLast), (2, 3, Goal::BlankFirst), (3, 2, Goal::BlankLast)] {
        let goal = goal.board(Shape::new(r, c).unwrap()).unwrap();
        seeds.push(slidetable::build(&goal, |_| {}).unwrap().into_inner());
    }
    for (r, c, tiles) in [(2, 3, &[1u16, 2][..]), (3, 3, &[1, 2][..]), (2, 4, &[3][..]), (3, 3, &[8][..])] {
        let goal = Goal::BlankLast.board(Shape::new(r, c).unwrap()).unwrap();
        seeds.push(slidetable::table::build_pattern(&goal, tiles, |_| {}).unwrap().into_inner());
    }
    seeds
}
