//! Batch queries: the fast driver against the plain one it replaces (`BufRead::lines`,
//! `Board::parse`, `Table::distance` / `Table::solve`), line for line, and the real binary.

use crate::fuzz_targets;

use std::io::{self, BufReader, Cursor};
use std::path::Path;

use assert_cmd::Command;
use predicates::str::contains;
use proptest::prelude::*;
use proptest::sample::select;
use slidetable::table::batch::{answer_lines, BatchError, Summary};
use slidetable::table::format::{Header, PAYLOAD_OFFSET, UNREACHED};
use slidetable::{Board, Shape, Table};

// ---------------------------------------------------------------------------------------------
// Tables and the two drivers: in `fuzz_targets`, shared with the fuzz targets

use fuzz_targets::{batch_tables as tables, check_batch as check, check_parser, fast};

// ---------------------------------------------------------------------------------------------
// Hand-picked lines

/// Lines for a 3x3 board: every syntax, and the ways a line goes wrong.
const LINES_3X3: &[&str] = &[
    "8 6 7 2 5 4 3 0 1",
    "1 2 3 4 5 6 7 8 0",
    "2 1 3 4 5 6 7 8 0",
    "867254301",
    "123456780",
    "12345678_",
    "1234567.8",
    "8,6,7,2,5,4,3,0,1",
    "8,6,7/2,5,4/3,0,1",
    "8 6 7/2 5 4/3 _ 1",
    "8/6/7/2/5/4/3/./1",
    "867 254 3_1",
    "86 7 2 5 4 3 0 1",
    "8 6 7 2 5 4 3 0 1\r",
    "\t8\t6\t7\t2\t5\t4\t3\t0\t1\t",
    "  8 6 7 2 5 4 3 0 1  ",
    "[8, 6, 7], [2, 5, 4], (3, 0, 1)",
    "8;6;7;2;5;4;3;0;1",
    "8\x0b6\x0c7 2 5 4 3 0 1",
    "08 06 07 02 05 04 03 00 01",
    "008 6 7 2 5 4 3 0 1",
    "8\u{a0}6 7 2 5 4 3 0 1",
    "8\u{85}6 7 2 5 4 3 0 1",
    "8\u{3000}6 7 2 5 4 3 0 1",
    "",
    " ",
    "\r",
    "\t \x0b\x0c",
    ",,,///;;;",
    "1 2 3",
    "1 2 3 4 5 6 7 8",
    "1 2 3 4 5 6 7 8 0 0",
    "1 2 3 4 5 6 7 8 9",
    "1 2 3 4 5 6 7 9 0",
    "1 1 3 4 5 6 7 8 0",
    "1 2 3 4 5 6 7 8 _ _",
    "12345678",
    "1234567800",
    "123456789",
    "112345678",
    "1234567__",
    "1234 5678 0",
    "1 2 3 4 5 6 7 8 99999999999999999999999",
    "1 2 3 4 5 6 7 8 65536",
    "1 2 3 4 5 6 7 8 256",
    "1 2 3 4 5 6 7 8 -0",
    "1 2 3 4 5 6 7 8 +0",
    "1 2 3 4 5 6 7 8 0x",
    "1 2 3 4 5 6 7 8 __",
    "1 2 3 4 5 6 7 8 _.",
    "1 2 3 4 5 6 7 8 0.",
    "1 2 3 4 5 6 7 8 1_",
    "a b c d e f g h i",
    "1 2 3 4 5 6 7 8 é",
    "1 2 3 4 5 6 7 8 \0",
    "１ 2 3 4 5 6 7 8 0",
    "1-2-3-4-5-6-7-8-0",
    "8 6 7 / 2 5 4 / 3 _ 1",
    "/8 6 7/2 5 4/3 0 1/",
    "8 6 7 // 2 5 4 / 3 0 1",
    "867/254/3_1",
    "8 6 7 2 5 4 3 0 1 /",
    "1 2 3 / 4 5 / 6 7 8 0",
    "1 2 3/4 5/6 7 8 0",
    "1 2 3 4 5 6 / 7 8 0",
    "1 2 3 / 4 5 6 / 7 8 / 0",
    "1 2 3 / 4 5 / 6 7 8 8",
    "8/6/7/2/5/4/3 0 1",
    "8672/54/3_1",
    "86/7254/301",
    "1 2 3 / 4 5 6",
    "_",
    ".",
    "0",
    "7",
    "__",
];

/// Lines for 2x3 and 2x4 boards, including the digit-string rules at those sizes.
const LINES_SMALL: &[&str] = &[
    "1 2 3 4 5 0",
    "1 2 3 4 0 5",
    "123450",
    "123 450",
    "12345_",
    "1 2 3 4 5 6 7 0",
    "1234 5670",
    "12345670",
    "1 2 3 4 5 6 0 7",
    "7 6 5 4 3 2 1 0",
    "1 2 3 4 5 6 7 8 0",
    "123456780",
    "1 2 3 4 5 6 7 8",
    "1,2,3,4/5,6,7,0",
    "1 2 3 / 4 5 0",
    "1 2 / 3 4 / 5 0",
    "12/34/50",
    "123/450",
    "1 2 3 4 / 5 6 7 0",
    "1 2 / 3 4 / 5 6 / 7 0",
    "1 2 3 / 4 5 6 7 0",
    "1234/5670",
    "123/45670",
    "1/2/3/4/5/6/7/0",
    "1 2 3 4 5 6 7",
    "1 2 3 4 5 6 6 0",
    "10 2 3 4 5 6 7 0",
    "",
    "x",
];

#[test]
fn common_forms_take_the_fast_path() {
    let eight = Shape::EIGHT;
    for line in [
        "8 6 7 2 5 4 3 0 1",
        "867254301",
        "8,6,7/2,5,4/3,0,1",
        "8 6 7/2 5 4/3 _ 1",
        "8/6/7/2/5/4/3/./1",
        "867 254 3_1",
        "867/254/3_1",
        "/8 6 7/2 5 4/3 0 1/",
        " 8 6 7 2 5 4 3 0 1 \r",
        "\t8\t6\t7\t2\t5\t4\t3\t0\t1",
        "[8, 6, 7], [2, 5, 4], [3, 0, 1]",
    ] {
        assert!(check_parser(eight, line), "{line:?} should take the fast path");
    }
    let two_by_four = Shape::new(2, 4).unwrap();
    for line in ["1 2 3 4 5 6 7 0", "12345670", "1234 5670", "1,2,3,4/5,6,7,0"] {
        assert!(check_parser(two_by_four, line), "{line:?} should take the fast path");
    }
}

#[test]
fn fast_parser_defers_unusual_and_malformed_lines() {
    for line in LINES_3X3 {
        let took = check_parser(Shape::EIGHT, line);
        if !line.is_ascii() || Board::parse(Shape::EIGHT, line).is_err() {
            assert!(!took, "{line:?} must defer");
        }
    }
    for shape in [Shape::new(2, 3).unwrap(), Shape::new(2, 4).unwrap()] {
        for line in LINES_SMALL {
            check_parser(shape, line);
        }
    }
    // Boards too large for the fast parser always defer.
    let big = Shape::new(5, 5).unwrap();
    let line: Vec<String> = (0..25).map(|t| t.to_string()).collect();
    assert!(!check_parser(big, &line.join(" ")));
}

#[test]
fn hand_picked_lines_match_the_slow_path() {
    for (k, table) in tables().iter().enumerate() {
        let lines = if k < 2 { LINES_3X3 } else { LINES_SMALL };
        for ending in ["\n", "\r\n"] {
            let input = lines.join(ending);
            for solve in [false, true] {
                for capacity in [1, 3, 64, 1 << 16] {
                    check(table, input.as_bytes(), solve, capacity);
                    check(table, format!("{input}{ending}").as_bytes(), solve, capacity);
                }
            }
        }
    }
}

#[test]
fn every_3x3_state_in_three_syntaxes() {
    let table = &tables()[0];
    let index = table.index();
    let mut input = String::new();
    for i in (0..index.len()).step_by(7) {
        let board = index.board(i);
        let cells: Vec<String> = board.cells().iter().map(u16::to_string).collect();
        input.push_str(&cells.join(" "));
        input.push('\n');
        input.push_str(&cells.concat());
        input.push('\n');
        input.push_str(&board.to_string());
        input.push('\n');
    }
    check(table, input.as_bytes(), false, 1 << 20);
    check(table, input.as_bytes(), true, 1 << 20);
}

#[test]
fn edges_of_the_input() {
    let table = &tables()[0];
    let (run, summary) = fast(table, b"", false, 1 << 16);
    assert_eq!((run.out.as_str(), summary), ("", Some(Summary::default())));
    let (run, _) = fast(table, b"\n", false, 1 << 16);
    assert_eq!(run.out, "error\n");
    assert_eq!(run.errors, [(1, "bad board: no tiles given".to_string())]);
    // A last line without a newline is answered; a `\r` on it too.
    let (run, _) = fast(table, b"123456780\n8 6 7 2 5 4 3 0 1", false, 1 << 16);
    assert_eq!(run.out, "0\n31\n");
    let (run, _) = fast(table, b"123456780\r\n8 6 7 2 5 4 3 0 1\r", false, 1 << 16);
    assert_eq!(run.out, "0\n31\n");
    let (run, summary) = fast(table, b"123456780\n213456780\nxyz\n", true, 1 << 16);
    assert_eq!(run.out, "0 -\nunsolvable\nerror\n");
    assert_eq!(summary, Some(Summary { lines: 3, solvable: 1, unsolvable: 1, malformed: 1 }));
}

#[test]
fn a_line_that_is_not_utf8_stops_the_run_after_the_answers_before() {
    let table = &tables()[0];
    let input = b"123456780\n\n1 2 3 \xff 5 6 7 8 0\n123456780\n";
    for capacity in [1, 4, 1 << 16] {
        check(table, input, false, capacity);
        let (run, _) = fast(table, input, false, capacity);
        assert_eq!(run.out, "0\nerror\n");
        assert_eq!(run.stopped.as_deref(), Some("reading line 3: stream did not contain valid UTF-8"));
    }
    let err = answer_lines(table, &input[..], io::sink(), false, |_, _| {}).unwrap_err();
    assert!(matches!(err, BatchError::Read { line: 3, .. }), "{err:?}");
}

/// A reader that fails after the bytes it has.
struct FailingReader(Cursor<Vec<u8>>);

impl io::Read for FailingReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.0.read(buf)? {
            0 => Err(io::Error::other("the disk is on fire")),
            n => Ok(n),
        }
    }
}

#[test]
fn a_read_error_names_the_line_being_read() {
    let table = &tables()[0];
    let reader = BufReader::new(FailingReader(Cursor::new(b"123456780\n8 6 7 2".to_vec())));
    let mut out = Vec::new();
    let err = answer_lines(table, reader, &mut out, false, |_, _| {}).unwrap_err();
    assert_eq!(err.to_string(), "reading line 2: the disk is on fire");
    assert_eq!(out, b"0\n");
}

/// A writer that refuses everything.
struct ClosedPipe;

impl io::Write for ClosedPipe {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::ErrorKind::BrokenPipe.into())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_write_error_stops_the_run() {
    let table = &tables()[0];
    let err = answer_lines(table, &b"123456780\n"[..], ClosedPipe, false, |_, _| {}).unwrap_err();
    assert!(matches!(&err, BatchError::Write(e) if e.kind() == io::ErrorKind::BrokenPipe), "{err:?}");
}

#[test]
fn a_corrupt_entry_stops_the_run_after_the_answers_before() {
    let table = &tables()[0];
    let board = Board::parse(Shape::EIGHT, "1 2 3 4 5 6 7 0 8").unwrap();
    let k = table.index().index(&board).unwrap();
    let mut bytes = table.as_bytes().to_vec();
    bytes[PAYLOAD_OFFSET + k as usize] = UNREACHED;
    let mut header = Header::parse(&bytes).unwrap();
    header.payload_crc = crc32fast::hash(&bytes[PAYLOAD_OFFSET..]);
    bytes[..PAYLOAD_OFFSET].copy_from_slice(&header.to_bytes());
    let corrupt = Table::new(bytes).unwrap();
    for solve in [false, true] {
        let mut out = Vec::new();
        let input = &b"123456780\n1 2 3 4 5 6 7 0 8\n123456780\n"[..];
        let err = answer_lines(&corrupt, input, &mut out, solve, |_, _| {}).unwrap_err();
        assert!(matches!(err, BatchError::Table(slidetable::Error::Corrupt { .. })), "{err:?}");
        assert_eq!(out, if solve { &b"0 -\n"[..] } else { b"0\n" });
    }
}

// ---------------------------------------------------------------------------------------------
// Generated lines

/// Separators between tokens: the ASCII ones of the fast parser and Unicode spaces it defers.
const SEPS: &[&str] = &[
    " ", " ", " ", "  ", ",", ", ", "/", " / ", ";", "\t", "[", "]", "(", ")", "\x0b", "\x0c", "\r", "\u{a0}", "\u{85}",
];
/// Padding at either end of a line.
const PADS: &[&str] = &["", "", "", " ", "\t", "  ", "\r", " \r", "[", "]", "\u{a0}"];
/// Tokens that are not tiles, or tiles in unusual dress.
const ODD: &[&str] = &[
    "99999999999999999999999",
    "18446744073709551615",
    "18446744073709551616",
    "65536",
    "256",
    "255",
    "16",
    "-1",
    "+1",
    "0x1",
    "1.5",
    "a",
    "é",
    "__",
    "_.",
    "..",
    "1_",
    "_1",
    "00",
    "007",
    "\0",
    "１",
    "",
];

/// The tiles of a board of `n` cells as text: a permutation, or one changed a little.
fn tile_texts(n: usize) -> impl Strategy<Value = Vec<String>> {
    let ops = prop::collection::vec((0..7usize, any::<prop::sample::Index>(), 0..n + 4, select(ODD)), 0..3);
    (Just((0..n).collect::<Vec<usize>>()).prop_shuffle(), ops, 0..8usize).prop_map(move |(perm, ops, bad)| {
        let mut t: Vec<String> = perm.iter().map(usize::to_string).collect();
        // Most lines stay valid boards (solvable or not); the rest get one to three changes.
        if bad < 5 {
            return t;
        }
        for (op, at, value, odd) in ops {
            let i = if t.is_empty() { 0 } else { at.index(t.len()) };
            match op {
                0 if !t.is_empty() => {
                    t.remove(i);
                }
                1 => t.insert(i, value.to_string()),
                2 if !t.is_empty() => t[i] = value.to_string(),
                3 if !t.is_empty() => t[i] = odd.to_string(),
                4 => t.insert(i, odd.to_string()),
                5 if !t.is_empty() => {
                    let dup = t[i].clone();
                    t.push(dup);
                }
                _ if t.len() > 1 => t.swap(0, i),
                _ => {}
            }
        }
        t
    })
}

/// A line of tokens: the tiles with separators and padding, the blank as 0, `_` or `.`. Half the
/// lines use one separator throughout, the others a mix.
fn token_line(n: usize) -> impl Strategy<Value = String> {
    let seps = prop_oneof![select(SEPS).prop_map(|s| vec![s]), prop::collection::vec(select(SEPS), 16)];
    (tile_texts(n), seps, select(PADS), select(PADS), select(&["0", "_", "."][..])).prop_map(
        |(tiles, seps, lead, trail, blank)| {
            let mut line = lead.to_string();
            for (k, tile) in tiles.iter().enumerate() {
                if k > 0 {
                    line.push_str(seps[k % seps.len()]);
                }
                line.push_str(if tile == "0" { blank } else { tile });
            }
            line.push_str(trail);
            line
        },
    )
}

/// A line of digit strings: the tiles one character each, split into a few groups.
fn digit_line(n: usize) -> impl Strategy<Value = String> {
    (tile_texts(n), prop::collection::vec(prop::option::weighted(0.2, select(SEPS)), 16), select(PADS)).prop_map(
        |(tiles, splits, pad)| {
            let mut line = pad.to_string();
            for (k, tile) in tiles.iter().enumerate() {
                if let Some(sep) = splits[k % splits.len()].filter(|_| k > 0) {
                    line.push_str(sep);
                }
                line.push_str(if tile == "0" { "_" } else { tile });
            }
            line
        },
    )
}

/// Separators between rows.
const ROW_SEPS: &[&str] = &["/", " / ", "/ ", " /", " // ", "\n", " /\n"];

/// A line of rows: the tiles in rows of the shape's width between `/`s or line feeds, in half the
/// lines with a row's end moved, dropped or added (ragged rows), now and then a `/` at either end.
fn row_line(shape: Shape) -> impl Strategy<Value = String> {
    let cols = shape.cols();
    let seps = select(&[" ", " ", ",", ", ", "\t", ""][..]);
    let ends = select(&["", "", "/", " / "][..]);
    (tile_texts(shape.cells()), select(ROW_SEPS), seps, 0..8usize, any::<prop::sample::Index>(), ends.clone(), ends)
        .prop_map(move |(tiles, row_sep, sep, slip, at, lead, trail)| {
            // the rows' ends, in tiles from the start of the line
            let mut ends: Vec<usize> = (1..tiles.len()).filter(|k| k % cols == 0).collect();
            if !ends.is_empty() {
                let k = at.index(ends.len());
                match slip {
                    0 => ends[k] -= 1,
                    1 => ends[k] += 1,
                    2 => {
                        ends.remove(k);
                    }
                    3 => ends.push(at.index(tiles.len())),
                    _ => {}
                }
            }
            let mut line = lead.to_string();
            for (k, tile) in tiles.iter().enumerate() {
                if k > 0 {
                    line.push_str(if ends.contains(&k) { row_sep } else { sep });
                }
                line.push_str(if tile == "0" && sep.is_empty() { "_" } else { tile });
            }
            line.push_str(trail);
            line
        })
}

/// Any line for a board of `shape`.
fn any_line(shape: Shape) -> impl Strategy<Value = String> {
    let n = shape.cells();
    prop_oneof![
        4 => token_line(n),
        2 => digit_line(n),
        2 => row_line(shape),
        1 => "[0-9_. ,;/\t\r()\\[\\]ab+\\-é\u{a0}]{0,24}",
    ]
}

/// Lines joined with `\n` or `\r\n`, with or without a final line ending.
fn input(shape: Shape) -> impl Strategy<Value = String> {
    (prop::collection::vec(any_line(shape), 1..40), any::<bool>(), any::<bool>()).prop_map(|(lines, crlf, last)| {
        let ending = if crlf { "\r\n" } else { "\n" };
        let mut text = lines.join(ending);
        if last {
            text.push_str(ending);
        }
        text
    })
}

/// The generated lines test both paths: many take the fast one, many defer.
#[test]
fn generated_lines_exercise_both_paths() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = any_line(Shape::EIGHT);
    let fast =
        (0..2000).filter(|_| check_parser(Shape::EIGHT, &strategy.new_tree(&mut runner).unwrap().current())).count();
    assert!((500..=1500).contains(&fast), "{fast} of 2000 generated lines took the fast path");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn parser_takes_a_line_only_as_board_parse_does(line in any_line(Shape::EIGHT)) {
        check_parser(Shape::EIGHT, &line);
    }

    #[test]
    fn parser_takes_a_line_only_as_board_parse_does_on_10_and_12_cells(
        ten in any_line(Shape::new(2, 5).unwrap()), twelve in any_line(Shape::new(3, 4).unwrap()),
    ) {
        check_parser(Shape::new(2, 5).unwrap(), &ten);
        check_parser(Shape::new(3, 4).unwrap(), &twelve);
    }

    #[test]
    fn generated_3x3_lines_match_the_slow_path(
        text in input(Shape::EIGHT), solve in any::<bool>(), capacity in select(&[1usize, 5, 100, 1 << 16][..]),
    ) {
        check(&tables()[0], text.as_bytes(), solve, capacity);
    }

    #[test]
    fn generated_3x3_lines_match_the_slow_path_for_the_snail_goal(text in input(Shape::EIGHT), solve in any::<bool>()) {
        check(&tables()[1], text.as_bytes(), solve, 1 << 16);
    }

    #[test]
    fn generated_2x3_lines_match_the_slow_path(text in input(Shape::new(2, 3).unwrap()), solve in any::<bool>()) {
        check(&tables()[2], text.as_bytes(), solve, 64);
    }

    #[test]
    fn generated_2x4_lines_match_the_slow_path(
        text in input(Shape::new(2, 4).unwrap()), solve in any::<bool>(), capacity in select(&[3usize, 1 << 16][..]),
    ) {
        check(&tables()[3], text.as_bytes(), solve, capacity);
    }
}

// ---------------------------------------------------------------------------------------------
// The real binary

/// A scratch directory with a 3x3 table at `t.table` (not the default name, so `--table` is used).
fn with_table() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    table_cmd(dir.path()).args(["build", "-q", "-o", "t.table"]).assert().success();
    dir
}

fn table_cmd(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("table").unwrap();
    cmd.current_dir(dir);
    cmd
}

#[test]
fn binary_answers_mixed_input_in_order_and_exits_2_on_a_malformed_line() {
    let dir = with_table();
    let input =
        "8 6 7 2 5 4 3 0 1\r\n123456780\n2 1 3 4 5 6 7 8 0\n1 2 3\n\n8,6,7/2,5,4/3,_,1\n1 2 3 4 5 6 7 0 8\n1 2 3 / 4 5 / 6 7 8 0";
    table_cmd(dir.path())
        .args(["query", "--batch", "--table", "t.table"])
        .write_stdin(input)
        .assert()
        .code(2)
        .stdout("31\n0\nunsolvable\nerror\nerror\n31\n1\nerror\n")
        .stderr(
            "table: line 4: bad board: 3 tiles given, but a 3x3 board has 9 cells\n\
             table: line 5: bad board: no tiles given\n\
             table: line 8: bad board: row 2 has 2 tiles, but a 3x3 board's rows have 3\n",
        );
    std::fs::write(dir.path().join("boards.txt"), input).unwrap();
    let out = table_cmd(dir.path())
        .args(["query", "--batch", "--solve", "--table", "t.table", "--file", "boards.txt"])
        .assert()
        .code(2)
        .stderr(contains("table: line 4: "));
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 8);
    assert_eq!(lines[0].len(), "31 ".len() + 31);
    assert!(lines[0].starts_with("31 "));
    assert_eq!(lines[1..5], ["0 -", "unsolvable", "error", "error"]);
    assert_eq!(lines[5], lines[0]);
    assert_eq!(lines[6], "1 R");
    assert_eq!(lines[7], "error");
}

#[test]
fn binary_exits_0_when_every_line_is_a_board() {
    let dir = with_table();
    for solve in [&[][..], &["--solve"]] {
        table_cmd(dir.path())
            .args(["query", "--batch", "--table", "t.table"])
            .args(solve)
            .write_stdin("2 1 3 4 5 6 7 8 0\n1 2 3 4 5 6 7 0 8")
            .assert()
            .success()
            .stderr("")
            .stdout(if solve.is_empty() { "unsolvable\n1\n" } else { "unsolvable\n1 R\n" });
    }
    table_cmd(dir.path())
        .args(["query", "--batch", "--table", "t.table"])
        .write_stdin("")
        .assert()
        .success()
        .stdout("");
}
