//! Boards, shapes, goals and moves (`src/board.rs`, `src/goal.rs`): every parsing syntax and
//! error, the COS 226 file format, the named goals, the text formats, moves and solvability.

use proptest::prelude::*;
use slidetable::puzzle::board::{moves_to_string, MAX_SIDE};
use slidetable::{Board, BoardError, Dir, Error, Goal, Shape};

fn shape(text: &str) -> Shape {
    Shape::parse(text).unwrap()
}

fn board(shape_text: &str, text: &str) -> Board {
    Board::parse(shape(shape_text), text).unwrap()
}

/// The board-level error of a parse that must fail.
fn board_error(shape_text: &str, text: &str) -> BoardError {
    match Board::parse(shape(shape_text), text) {
        Err(Error::BadBoard(e)) => e,
        other => {
            panic!("parsing `{text}` as {shape_text}: expected a BadBoard error, got {other:?}")
        }
    }
}

fn cos226_error(text: &str) -> BoardError {
    match Board::parse_cos226(text) {
        Err(Error::BadBoard(e)) => e,
        other => panic!("parsing COS 226 text {text:?}: expected a BadBoard error, got {other:?}"),
    }
}

const HARDEST: [u16; 9] = [8, 6, 7, 2, 5, 4, 3, 0, 1];

// ---------------------------------------------------------------------------------------------
// Board::parse

#[test]
fn every_board_syntax_gives_the_same_board() {
    let expected = Board::new(Shape::EIGHT, HARDEST.to_vec()).unwrap();
    for text in [
        "8 6 7 2 5 4 3 0 1",
        "  8 6 7 2 5 4 3 0 1  \n",
        "8\t6\t7\n2\t5\t4\n3\t0\t1",
        "8,6,7,2,5,4,3,0,1",
        "8, 6, 7, 2, 5, 4, 3, 0, 1",
        "8 6 7/2 5 4/3 0 1",
        "8 6 7 / 2 5 4 / 3 0 1",
        "8,6,7/2,5,4/3,0,1",
        "8/6/7/2/5/4/3/0/1",
        "8;6;7;2;5;4;3;0;1",
        "[[8, 6, 7], [2, 5, 4], [3, 0, 1]]",
        "(8 6 7) (2 5 4) (3 0 1)",
        "867254301",
        "867/254/301",
        "8 6 7 2 5 4 3 _ 1",
        "8 6 7 2 5 4 3 . 1",
        "8 6 7 / 2 5 4 / 3 _ 1",
        "8672543_1",
        "8672543.1",
        "08 06 07 02 05 04 03 00 01",
    ] {
        assert_eq!(Board::parse(Shape::EIGHT, text).unwrap(), expected, "parsing `{text}`");
    }
    // what Display prints parses back
    assert_eq!(Board::parse(Shape::EIGHT, &expected.to_string()).unwrap(), expected);
}

#[test]
fn boards_with_tiles_of_two_digits() {
    let b = board("4x4", "1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 13 14 15 _");
    assert_eq!(b.cells(), &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0]);
    assert_eq!(b.blank(), 15);
    assert_eq!(b, board("4x4", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0"));
    let b = board("2x3", "123450");
    assert_eq!(b.cells(), &[1, 2, 3, 4, 5, 0]);
    assert_eq!(b.shape(), shape("2x3"));
}

#[test]
fn wrong_count_is_reported_with_the_shape() {
    assert_eq!(
        board_error("3x3", "1 2 3 4 5 6 7 8"),
        BoardError::WrongCount { found: 8, expected: 9, shape: Shape::EIGHT }
    );
    assert_eq!(
        board_error("3x3", "1 2 3 4 5 6 7 8 0 9"),
        BoardError::WrongCount { found: 10, expected: 9, shape: Shape::EIGHT }
    );
    assert_eq!(board_error("3x3", "12345678"), BoardError::WrongCount { found: 8, expected: 9, shape: Shape::EIGHT });
    // a digit string for the wrong shape
    assert_eq!(board_error("2x2", "867254301"), BoardError::WrongCount { found: 9, expected: 4, shape: shape("2x2") });
    // the count is checked before the range: a huge number in a short list is a count problem
    assert!(matches!(board_error("3x3", "1 2 99"), BoardError::WrongCount { found: 3, .. }));
}

#[test]
fn rows_given_with_slashes_or_line_breaks_must_be_whole() {
    let eight = Shape::EIGHT;
    let row = |row, found, shape: &str| BoardError::RowLength {
        row,
        found,
        expected: self::shape(shape).cols(),
        shape: self::shape(shape),
    };
    // nine tiles, but rows of 3, 2 and 4: not read as 1 2 3 4 5 6 7 8 0
    let ragged = board_error("3x3", "1 2 3 / 4 5 / 6 7 8 0");
    assert_eq!(ragged, row(2, 2, "3x3"));
    assert_eq!(ragged.to_string(), "row 2 has 2 tiles, but a 3x3 board's rows have 3");
    assert_eq!(board_error("3x3", "1 2 3\n4 5\n6 7 8 0"), row(2, 2, "3x3"));
    assert_eq!(
        board_error("3x3", "1 2 3 / 4 / 5 6 7 8 0").to_string(),
        "row 2 has 1 tile, but a 3x3 board's rows have 3"
    );
    assert_eq!(board_error("3x3", "1,2,3,4/5,6,7/8,0"), row(1, 4, "3x3"));
    // rows of digit strings count their characters
    assert_eq!(board_error("3x3", "8672/54/3_1"), row(1, 4, "3x3"));
    assert_eq!(board_error("2x4", "123/45670"), row(1, 3, "2x4"));
    assert_eq!(board_error("4x4", "1 2 3 4 / 5 6 7 8 / 9 10 11 12 13 14 15 0"), row(3, 8, "4x4"));
    // the wrong number of rows: the count of tiles is checked first, so text refused before keeps
    // its message; with the right count, a wrong number of rows is a row of the wrong length
    assert_eq!(board_error("3x3", "1 2 3 / 4 5 6"), BoardError::WrongCount { found: 6, expected: 9, shape: eight });
    assert_eq!(board_error("3x3", "1 2 3 4 / 5 6 7 0"), BoardError::WrongCount { found: 8, expected: 9, shape: eight });
    assert_eq!(
        board_error("3x3", "1 2 3 / 4 5 / 6 7 8"),
        BoardError::WrongCount { found: 8, expected: 9, shape: eight }
    );
    assert_eq!(board_error("3x3", "1 2 3 4 5 6 / 7 8 0"), row(1, 6, "3x3"));
    assert_eq!(board_error("2x4", "1 2 / 3 4 / 5 6 / 7 0"), row(1, 2, "2x4"));
    // the rows before the tiles in them
    assert_eq!(board_error("3x3", "1 2 3 / 4 5 / 6 7 8 8"), row(2, 2, "3x3"));
    assert_eq!(board_error("3x3", "1 2 3 / 4 5 / 6 7 8 9"), row(2, 2, "3x3"));

    // whole rows, however they are written
    let expected = Board::new(eight, HARDEST.to_vec()).unwrap();
    for text in [
        "8 6 7 / 2 5 4 / 3 0 1",
        "8 6 7\n2 5 4\n3 0 1\n",
        "8 6 7\r\n2 5 4\r\n3 0 1\r\n",
        "8 6 7 /\n2 5 4 /\n3 0 1",
        // pieces without tiles are not rows: slashes at either end, doubled
        "/8 6 7/2 5 4/3 0 1/",
        "8 6 7 // 2 5 4 / 3 0 1",
        " / [8, 6, 7] / [2, 5, 4] / [3, 0, 1] / ",
        "867/254/3_1",
        "86 7/2 54/3_1",
        // one tile between slashes is a plain list: no board has one column
        "8/6/7/2/5/4/3/0/1",
        "8\n6\n7\n2\n5\n4\n3\n0\n1",
        // one row is a plain list too
        "8 6 7 2 5 4 3 0 1 /",
        "8 6 7 2 5 4 3 0 1\n",
        // text without `/` or line breaks stays a plain list
        "8 6 7 2 5 4 3 0 1",
        "8,6,7,2,5;4 3 0 1",
    ] {
        assert_eq!(Board::parse(eight, text).unwrap(), expected, "parsing {text:?}");
    }
    assert_eq!(board("2x4", "1 2 3 4 / 5 6 7 0").cells(), &[1, 2, 3, 4, 5, 6, 7, 0]);
    assert_eq!(board("2x4", "1234/5670").cells(), &[1, 2, 3, 4, 5, 6, 7, 0]);
    assert_eq!(board("4x2", "1 2 / 3 4 / 5 6 / 7 0").cells(), &[1, 2, 3, 4, 5, 6, 7, 0]);
    // a mix of one-tile pieces and longer ones is ragged
    assert_eq!(board_error("3x3", "8/6/7/2/5/4/3 0 1"), row(1, 1, "3x3"));

    // a COS 226 file is read by its own parser as before; given to `parse`, its size line makes
    // one tile too many, as before
    let cos226 = "3\n8 6 7\n2 5 4\n3 0 1\n";
    assert_eq!(Board::parse_cos226(cos226).unwrap(), expected);
    assert_eq!(board_error("3x3", cos226), BoardError::WrongCount { found: 10, expected: 9, shape: eight });
}

#[test]
fn duplicates_and_out_of_range_tiles() {
    assert_eq!(board_error("3x3", "1 1 2 3 4 5 6 7 8"), BoardError::Duplicate { tile: 1 });
    assert_eq!(board_error("3x3", "0 1 2 3 4 5 6 7 0"), BoardError::Duplicate { tile: 0 });
    assert_eq!(board_error("3x3", "1 2 3 4 5 6 7 _ ."), BoardError::Duplicate { tile: 0 });
    assert_eq!(
        board_error("3x3", "1 2 3 4 5 6 7 8 9"),
        BoardError::OutOfRange { tile: 9, max: 8, shape: Shape::EIGHT }
    );
    assert_eq!(board_error("2x2", "1 2 3 65536"), BoardError::OutOfRange { tile: 65536, max: 3, shape: shape("2x2") });
    assert_eq!(
        board_error("2x2", "1 2 3 4294967296"),
        BoardError::OutOfRange { tile: 4_294_967_296, max: 3, shape: shape("2x2") }
    );
    // larger than any integer type: an error that names the number as written, not a panic
    for huge in ["99999999999999999999", "18446744073709551616", "123456789012345678901234567890"] {
        let text = format!("1 2 3 4 5 6 7 8 {huge}");
        assert!(
            matches!(board_error("3x3", &text), BoardError::Misread(m) if m.contains(&format!("tile {huge} is out of range"))),
            "`{text}` must be out of range"
        );
    }
    assert!(matches!(board_error("3x3", "18446744073709551615 1 2 3 4 5 6 7 8"), BoardError::OutOfRange { .. }));
}

#[test]
fn tokens_that_are_not_numbers() {
    assert_eq!(board_error("3x3", "1 2 3 4 x 6 7 8 0"), BoardError::NotANumber("x".into()));
    assert_eq!(board_error("3x3", "1 2 3 4 -5 6 7 8 0"), BoardError::NotANumber("-5".into()));
    assert_eq!(board_error("3x3", "1 2 3 4 +5 6 7 8 0"), BoardError::NotANumber("+5".into()));
    assert_eq!(board_error("3x3", "1 2 3 4 5.0 6 7 8 0"), BoardError::NotANumber("5.0".into()));
    assert_eq!(board_error("3x3", "1 2 3 4 5 6 7 8 __"), BoardError::NotANumber("__".into()));
    assert_eq!(board_error("3x3", "1 2 3 4 5 6 7 8 ٣"), BoardError::NotANumber("٣".into()));
    assert!(matches!(board_error("3x3", "eight six seven"), BoardError::NotANumber(_)));
    assert!(matches!(board_error("3x3", "0x1 2 3 4 5 6 7 8 0"), BoardError::NotANumber(_)));
}

#[test]
fn empty_input() {
    for text in ["", " ", "\n\t", "///", ",,,", "[]", "[ ( ) ]", ";"] {
        assert_eq!(board_error("3x3", text), BoardError::Empty, "`{text}`");
    }
}

#[test]
fn board_new_checks_the_permutation() {
    let s = Shape::EIGHT;
    assert!(matches!(
        Board::new(s, vec![1, 2, 3]),
        Err(Error::BadBoard(BoardError::WrongCount { found: 3, expected: 9, .. }))
    ));
    assert!(matches!(
        Board::new(s, vec![1, 2, 3, 4, 5, 6, 7, 8, 9]),
        Err(Error::BadBoard(BoardError::OutOfRange { tile: 9, max: 8, .. }))
    ));
    assert!(matches!(
        Board::new(s, vec![1, 2, 3, 4, 5, 6, 7, 8, u16::MAX]),
        Err(Error::BadBoard(BoardError::OutOfRange { tile: 65535, .. }))
    ));
    assert!(matches!(
        Board::new(s, vec![1, 2, 3, 4, 5, 6, 7, 7, 0]),
        Err(Error::BadBoard(BoardError::Duplicate { tile: 7 }))
    ));
    let b = Board::new(s, HARDEST.to_vec()).unwrap();
    assert_eq!(b.blank(), 7);
    assert_eq!(b.cells(), &HARDEST);
    assert_eq!(b.shape(), s);
}

// ---------------------------------------------------------------------------------------------
// COS 226 files

#[test]
fn cos226_good_files() {
    let b = Board::parse_cos226("3\n 0  1  3 \n 4  2  5 \n 7  8  6 \n").unwrap();
    assert_eq!(b, board("3x3", "0 1 3 4 2 5 7 8 6"));
    // blank lines and extra spaces are fine
    let b2 = Board::parse_cos226("\n  3\n\n0 1 3\n4   2 5\n\n7 8 6\n\n").unwrap();
    assert_eq!(b2, b);
    // Windows line ends
    assert_eq!(Board::parse_cos226("3\r\n0 1 3\r\n4 2 5\r\n7 8 6\r\n").unwrap(), b);
    let four = "4\n 1  2  3  4 \n 5  6  7  8 \n 9 10 11 12 \n13 14 15  0 \n";
    let b = Board::parse_cos226(four).unwrap();
    assert_eq!(b.shape(), shape("4x4"));
    assert_eq!(b, Goal::BlankLast.board(shape("4x4")).unwrap());
    assert_eq!(b.to_cos226(), four);
    let b = Board::parse_cos226("2\n1 2\n3 0").unwrap();
    assert_eq!(b.cells(), &[1, 2, 3, 0]);
}

#[test]
fn cos226_bad_files() {
    // ragged rows
    assert!(matches!(cos226_error("3\n0 1 3\n4 2\n5 7 8 6\n"), BoardError::BadFile(_)));
    assert!(matches!(cos226_error("3\n0 1 3 4\n2 5 7\n8 6\n"), BoardError::BadFile(_)));
    // too few rows
    assert!(matches!(cos226_error("3\n0 1 3\n4 2 5\n"), BoardError::BadFile(_)));
    assert!(matches!(cos226_error("3\n"), BoardError::BadFile(_)));
    // an extra line
    assert!(matches!(cos226_error("3\n0 1 3\n4 2 5\n7 8 6\n9\n"), BoardError::BadFile(_)));
    assert!(matches!(cos226_error("2\n1 2\n3 0\n\n\nextra\n"), BoardError::BadFile(_)));
    // non-numeric tiles and sizes
    assert_eq!(cos226_error("3\n0 1 3\n4 x 5\n7 8 6\n"), BoardError::NotANumber("x".into()));
    assert!(matches!(cos226_error("three\n0 1 3\n4 2 5\n7 8 6\n"), BoardError::BadFile(_)));
    assert!(matches!(cos226_error("3 3 3\n0 1 3\n4 2 5\n7 8 6\n"), BoardError::BadFile(_)));
    assert!(matches!(cos226_error("2 3\n0 1 3\n4 2 5\n7 8 6\n"), BoardError::BadFile(_)));
    assert!(matches!(cos226_error("2 128\n"), BoardError::BadFile(_)));
    assert!(matches!(cos226_error("-3\n"), BoardError::BadFile(_)));
    assert!(matches!(cos226_error("99999999999999999999999\n1 2\n3 0\n"), BoardError::BadFile(_)));
    // sizes out of range
    assert!(matches!(cos226_error("1\n0\n"), BoardError::BadFile(_)));
    assert!(matches!(cos226_error("0\n"), BoardError::BadFile(_)));
    assert!(matches!(cos226_error("128\n"), BoardError::BadFile(_)));
    // non-square data
    assert!(matches!(cos226_error("2\n1 2 3\n4 5 0\n"), BoardError::BadFile(_)));
    assert!(matches!(cos226_error("3\n1 2\n3 4\n5 0\n"), BoardError::BadFile(_)));
    // empty file
    assert_eq!(cos226_error(""), BoardError::Empty);
    assert_eq!(cos226_error("\n \n"), BoardError::Empty);
    // well-formed but not a permutation
    assert_eq!(cos226_error("2\n1 1\n3 0\n"), BoardError::Duplicate { tile: 1 });
    assert!(matches!(cos226_error("2\n1 2\n4 0\n"), BoardError::OutOfRange { tile: 4, max: 3, .. }));
    assert!(
        matches!(cos226_error("2\n1 2\n99999999999999999999 0\n"), BoardError::Misread(m) if m.contains("tile 99999999999999999999 is out of range"))
    );
}

#[test]
fn cos226_round_trip_on_rectangular_boards() {
    for (r, c) in [(2usize, 3usize), (3, 2), (2, 6), (4, 3), (3, 5)] {
        let s = Shape::new(r, c).unwrap();
        for goal in [Goal::BlankLast, Goal::BlankFirst, Goal::Snail] {
            let b = goal.board(s).unwrap();
            assert_eq!(Board::parse_cos226(&b.to_cos226()).unwrap(), b);
        }
    }
    // a square board written with both sides is the same board
    assert_eq!(
        Board::parse_cos226("3 3\n0 1 3\n4 2 5\n7 8 6\n").unwrap(),
        Board::parse_cos226("3\n0 1 3\n4 2 5\n7 8 6\n").unwrap()
    );
}

#[test]
fn square_shape_is_inferred_from_the_tile_count() {
    assert_eq!(Board::square_shape_of("8 6 7 2 5 4 3 0 1"), Some(Shape::EIGHT));
    assert_eq!(Board::square_shape_of("867254301"), Some(Shape::EIGHT));
    assert_eq!(Board::square_shape_of("1 2 3 0"), Some(shape("2x2")));
    assert_eq!(Board::square_shape_of("1,2,3,4/5,6,7,8/9,10,11,12/13,14,15,0"), Some(shape("4x4")));
    assert_eq!(Board::square_shape_of("1 2 3 4 5 0"), None);
    assert_eq!(Board::square_shape_of("0"), None);
    assert_eq!(Board::square_shape_of(""), None);
}

#[test]
fn cos226_round_trip_on_square_boards() {
    for n in [2usize, 3, 4, 5, 10] {
        let s = Shape::new(n, n).unwrap();
        for goal in [Goal::BlankLast, Goal::BlankFirst, Goal::Snail] {
            let b = goal.board(s).unwrap();
            assert_eq!(Board::parse_cos226(&b.to_cos226()).unwrap(), b);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Shapes

#[test]
fn shape_parse_good() {
    for (text, rows, cols) in
        [("3x3", 3, 3), ("2x4", 2, 4), ("4X2", 4, 2), ("3*4", 3, 4), (" 5 x 2 ", 5, 2), ("127x127", 127, 127)]
    {
        let s = Shape::parse(text).unwrap();
        assert_eq!((s.rows(), s.cols(), s.cells()), (rows, cols, rows * cols), "`{text}`");
        assert_eq!(s, Shape::new(rows, cols).unwrap());
    }
    let s = shape("3x4");
    assert_eq!(s.to_string(), "3x4");
    assert_eq!(s.transposed(), shape("4x3"));
    assert_eq!(Shape::EIGHT, shape("3x3"));
    assert_eq!(MAX_SIDE, 127);
}

#[test]
fn shape_parse_bad() {
    for text in
        ["1x3", "3x1", "0x0", "3x", "x3", "abc", "", "x", "128x2", "2x128", "-3x3", "3x3x3", "3 3", "3.0x3", "33"]
    {
        assert!(matches!(Shape::parse(text), Err(Error::BadShape(_))), "`{text}` must not be a shape");
    }
    assert!(matches!(Shape::new(1, 5), Err(Error::BadShape(_))));
    assert!(matches!(Shape::new(2, 128), Err(Error::BadShape(_))));
    assert!(matches!(Shape::new(usize::MAX, 2), Err(Error::BadShape(_))));
}

// ---------------------------------------------------------------------------------------------
// Goals

fn goal_cells(goal: Goal, shape_text: &str) -> Vec<u16> {
    goal.board(shape(shape_text)).unwrap().cells().to_vec()
}

#[test]
fn named_goal_boards() {
    assert_eq!(goal_cells(Goal::BlankLast, "3x3"), [1, 2, 3, 4, 5, 6, 7, 8, 0]);
    assert_eq!(goal_cells(Goal::BlankFirst, "3x3"), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(goal_cells(Goal::BlankLast, "2x3"), [1, 2, 3, 4, 5, 0]);
    assert_eq!(goal_cells(Goal::BlankFirst, "3x2"), [0, 1, 2, 3, 4, 5]);
    assert_eq!(Goal::default(), Goal::BlankLast);
}

#[test]
fn snail_goals_spiral_clockwise() {
    // 1 2 3 / 8 _ 4 / 7 6 5
    assert_eq!(goal_cells(Goal::Snail, "3x3"), [1, 2, 3, 8, 0, 4, 7, 6, 5]);
    // 1 2 / _ 3
    assert_eq!(goal_cells(Goal::Snail, "2x2"), [1, 2, 0, 3]);
    // 1 2 3 / _ 5 4
    assert_eq!(goal_cells(Goal::Snail, "2x3"), [1, 2, 3, 0, 5, 4]);
    // 1 2 / _ 3 / 5 4 (down the right, back along the bottom, up the left)
    assert_eq!(goal_cells(Goal::Snail, "3x2"), [1, 2, 0, 3, 5, 4]);
    // 1 2 3 4 / 10 11 _ 5 / 9 8 7 6
    assert_eq!(goal_cells(Goal::Snail, "3x4"), [1, 2, 3, 4, 10, 11, 0, 5, 9, 8, 7, 6]);
    // 1 2 3 / 10 11 4 / 9 _ 5 / 8 7 6
    assert_eq!(goal_cells(Goal::Snail, "4x3"), [1, 2, 3, 10, 11, 4, 9, 0, 5, 8, 7, 6]);
    // 1 2 3 4 / 12 13 14 5 / 11 _ 15 6 / 10 9 8 7
    assert_eq!(goal_cells(Goal::Snail, "4x4"), [1, 2, 3, 4, 12, 13, 14, 5, 11, 0, 15, 6, 10, 9, 8, 7]);
    // 1 2 3 4 5 / _ 9 8 7 6
    assert_eq!(goal_cells(Goal::Snail, "2x5"), [1, 2, 3, 4, 5, 0, 9, 8, 7, 6]);
    // 1 2 3 4 5 / 16 17 18 19 6 / 15 24 _ 20 7 / 14 23 22 21 8 / 13 12 11 10 9
    assert_eq!(
        goal_cells(Goal::Snail, "5x5"),
        [1, 2, 3, 4, 5, 16, 17, 18, 19, 6, 15, 24, 0, 20, 7, 14, 23, 22, 21, 8, 13, 12, 11, 10, 9]
    );
}

/// Structural check of the spiral on every shape up to 12x12: consecutive tiles are adjacent,
/// tile 1 is the top-left corner, and the blank follows the last tile.
#[test]
fn snail_is_a_path_of_adjacent_cells() {
    for rows in 2..=12 {
        for cols in 2..=12 {
            let s = Shape::new(rows, cols).unwrap();
            let b = Goal::Snail.board(s).unwrap();
            let n = s.cells();
            let mut pos = vec![0usize; n];
            for (cell, &t) in b.cells().iter().enumerate() {
                pos[t as usize] = cell;
            }
            assert_eq!(pos[1], 0);
            // the order visited: tiles 1..n-1, then the blank
            let order: Vec<usize> = (1..n).map(|t| pos[t]).chain([pos[0]]).collect();
            for w in order.windows(2) {
                let (a, c) = (w[0], w[1]);
                let dist = (a / cols).abs_diff(c / cols) + (a % cols).abs_diff(c % cols);
                assert_eq!(dist, 1, "{s}: snail steps from cell {a} to {c}");
            }
            // the first row is 1..=cols
            assert_eq!(&b.cells()[..cols], &(1..=cols as u16).collect::<Vec<_>>()[..], "{s}");
        }
    }
}

#[test]
fn goal_parse_names_and_boards() {
    let s = Shape::EIGHT;
    for (text, goal) in [
        ("blank-last", Goal::BlankLast),
        ("LAST", Goal::BlankLast),
        ("default", Goal::BlankLast),
        (" blank-first ", Goal::BlankFirst),
        ("first", Goal::BlankFirst),
        ("snail", Goal::Snail),
        ("Spiral", Goal::Snail),
        // named goals given as tiles are recognised
        ("1 2 3 4 5 6 7 8 0", Goal::BlankLast),
        ("0 1 2 / 3 4 5 / 6 7 8", Goal::BlankFirst),
        ("1 2 3 / 8 _ 4 / 7 6 5", Goal::Snail),
        ("123804765", Goal::Snail),
    ] {
        assert_eq!(Goal::parse(s, text).unwrap(), goal, "`{text}`");
    }
    assert_eq!(Goal::parse(shape("2x2"), "1 2 0 3").unwrap(), Goal::Snail);
    assert_eq!(Goal::parse(shape("3x4"), "1 2 3 4 / 10 11 _ 5 / 9 8 7 6").unwrap(), Goal::Snail);
    let custom = Goal::parse(s, "8 6 7 2 5 4 3 0 1").unwrap();
    assert_eq!(custom, Goal::Custom(board("3x3", "8 6 7 2 5 4 3 0 1")));
    assert_eq!(custom.board(s).unwrap(), board("3x3", "8 6 7 2 5 4 3 0 1"));
    assert_eq!(Goal::identify(board("3x3", "1 2 3 8 0 4 7 6 5")), Goal::Snail);
    for bad in ["", "blank-middle", "1 2 3", "1 2 3 4 5 6 7 8 9", "1 1 2 3 4 5 6 7 8"] {
        assert!(matches!(Goal::parse(s, bad), Err(Error::BadGoal(_))), "`{bad}`");
    }
    // a custom goal of another shape
    assert!(matches!(custom.board(shape("2x2")), Err(Error::BadGoal(_))));
    // named goals exist for every shape
    assert!(Goal::Snail.board(shape("127x127")).is_ok());
}

#[test]
fn goal_display_and_slug() {
    assert_eq!(Goal::BlankLast.to_string(), "blank-last");
    assert_eq!(Goal::BlankFirst.to_string(), "blank-first");
    assert_eq!(Goal::Snail.to_string(), "snail");
    assert_eq!(Goal::NAMES, ["blank-last", "blank-first", "snail"]);
    for name in Goal::NAMES {
        assert_eq!(Goal::parse(Shape::EIGHT, name).unwrap().to_string(), name);
        assert_eq!(Goal::parse(Shape::EIGHT, name).unwrap().slug(), name);
    }
    let custom = Goal::Custom(board("3x3", "8 6 7 2 5 4 3 0 1"));
    assert_eq!(custom.to_string(), "8 6 7 / 2 5 4 / 3 _ 1");
    assert_eq!(custom.slug(), "goal-867254301");
    let big = Goal::Custom(board("3x4", "11 10 9 8 7 6 5 4 3 2 1 0"));
    assert_eq!(big.slug(), "goal-11-10-9-8-7-6-5-4-3-2-1-0");
}

// ---------------------------------------------------------------------------------------------
// Text formats

#[test]
fn display_grid_and_cos226() {
    let b = board("3x3", "8 6 7 2 5 4 3 0 1");
    assert_eq!(b.to_string(), "8 6 7 / 2 5 4 / 3 _ 1");
    assert_eq!(b.grid(), "8 6 7\n2 5 4\n3 _ 1\n");
    assert_eq!(b.to_cos226(), "3\n 8  6  7 \n 2  5  4 \n 3  0  1 \n");

    let b = board("4x4", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15");
    assert_eq!(b.to_string(), "1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 13 14 _ 15");
    assert_eq!(b.grid(), " 1  2  3  4\n 5  6  7  8\n 9 10 11 12\n13 14  _ 15\n");
    assert_eq!(b.to_cos226(), "4\n 1  2  3  4 \n 5  6  7  8 \n 9 10 11 12 \n13 14  0 15 \n");

    let b = board("2x3", "0 1 2 3 4 5");
    assert_eq!(b.to_string(), "_ 1 2 / 3 4 5");
    assert_eq!(b.grid(), "_ 1 2\n3 4 5\n");
    assert_eq!(b.to_cos226(), "2 3\n 0  1  2 \n 3  4  5 \n");

    // the width is that of the largest tile: two digits up to 99, three from 100
    let b = Goal::BlankLast.board(shape("10x10")).unwrap();
    let grid = b.grid();
    assert!(grid.starts_with(" 1  2  3"), "{grid}");
    assert!(grid.ends_with("97 98 99  _\n"), "{grid}");
    assert!(grid.lines().all(|l| l.len() == 10 * 2 + 9));
    assert_eq!(Board::parse(b.shape(), &b.grid()).unwrap(), b);
    let b = Goal::BlankLast.board(shape("11x10")).unwrap();
    let grid = b.grid();
    assert!(grid.starts_with("  1   2   3"), "{grid}");
    assert!(grid.ends_with("108 109   _\n"), "{grid}");
    assert!(grid.lines().all(|l| l.len() == 10 * 3 + 9));
    assert_eq!(Board::parse(b.shape(), &b.to_string()).unwrap(), b);
    assert_eq!(Board::parse(b.shape(), &b.grid()).unwrap(), b);
}

// ---------------------------------------------------------------------------------------------
// Moves

#[test]
fn dir_step_edges() {
    let s = Shape::EIGHT;
    // corners
    assert_eq!(Dir::ALL.map(|d| d.step(s, 0)), [None, Some(3), None, Some(1)]);
    assert_eq!(Dir::ALL.map(|d| d.step(s, 2)), [None, Some(5), Some(1), None]);
    assert_eq!(Dir::ALL.map(|d| d.step(s, 6)), [Some(3), None, None, Some(7)]);
    assert_eq!(Dir::ALL.map(|d| d.step(s, 8)), [Some(5), None, Some(7), None]);
    // the centre and the edges between rows
    assert_eq!(Dir::ALL.map(|d| d.step(s, 4)), [Some(1), Some(7), Some(3), Some(5)]);
    assert_eq!(Dir::ALL.map(|d| d.step(s, 3)), [Some(0), Some(6), None, Some(4)]);
    assert_eq!(Dir::ALL.map(|d| d.step(s, 5)), [Some(2), Some(8), Some(4), None]);
    // a wide board: no wrapping from the end of one row to the next
    let w = shape("2x5");
    assert_eq!(Dir::ALL.map(|d| d.step(w, 4)), [None, Some(9), Some(3), None]);
    assert_eq!(Dir::ALL.map(|d| d.step(w, 5)), [Some(0), None, None, Some(6)]);
    // exhaustively: a step stays on the board and moves to an adjacent cell
    for (rows, cols) in [(2, 2), (2, 7), (7, 2), (5, 5)] {
        let s = Shape::new(rows, cols).unwrap();
        for cell in 0..s.cells() {
            let (r, c) = (cell / cols, cell % cols);
            let expected = [
                (r > 0).then(|| cell - cols),
                (r + 1 < rows).then(|| cell + cols),
                (c > 0).then(|| cell - 1),
                (c + 1 < cols).then(|| cell + 1),
            ];
            assert_eq!(Dir::ALL.map(|d| d.step(s, cell)), expected, "{s} cell {cell}");
        }
    }
}

#[test]
fn dir_letters() {
    assert_eq!(Dir::ALL.map(Dir::letter), ['U', 'D', 'L', 'R']);
    assert_eq!(Dir::ALL.map(Dir::opposite), [Dir::Down, Dir::Up, Dir::Right, Dir::Left]);
    for d in Dir::ALL {
        assert_eq!(Dir::from_letter(d.letter()), Some(d));
        assert_eq!(Dir::from_letter(d.letter().to_ascii_lowercase()), Some(d));
        assert_eq!(d.opposite().opposite(), d);
    }
    for c in ['x', 'N', ' ', '0', 'ü'] {
        assert_eq!(Dir::from_letter(c), None);
    }
    assert_eq!(moves_to_string(&[]), "-");
    assert_eq!(moves_to_string(&[Dir::Up, Dir::Left, Dir::Down, Dir::Right]), "ULDR");
}

#[test]
fn apply_and_moved() {
    let start = board("3x3", "1 2 3 4 0 5 6 7 8");
    let mut b = start.clone();
    assert_eq!(b.apply(Dir::Up), Some(2));
    assert_eq!(b, board("3x3", "1 0 3 4 2 5 6 7 8"));
    assert_eq!(b.blank(), 1);
    // on the top edge nothing changes
    assert_eq!(b.apply(Dir::Up), None);
    assert_eq!(b, board("3x3", "1 0 3 4 2 5 6 7 8"));
    assert_eq!(b.apply(Dir::Left), Some(1));
    assert_eq!(b, board("3x3", "0 1 3 4 2 5 6 7 8"));
    assert_eq!(b.apply(Dir::Left), None);
    assert_eq!(b.apply(Dir::Down), Some(4));
    assert_eq!(b.apply(Dir::Right), Some(2));
    assert_eq!(b, board("3x3", "4 1 3 2 0 5 6 7 8"));

    assert_eq!(start.moved(Dir::Down).unwrap(), board("3x3", "1 2 3 4 7 5 6 0 8"));
    assert_eq!(start.moved(Dir::Right).unwrap(), board("3x3", "1 2 3 4 5 0 6 7 8"));
    assert_eq!(start.moved(Dir::Left).unwrap(), board("3x3", "1 2 3 0 4 5 6 7 8"));
    assert_eq!(start, board("3x3", "1 2 3 4 0 5 6 7 8"), "moved leaves the original alone");
    let corner = board("3x3", "1 2 3 4 5 6 7 8 0");
    assert_eq!(corner.moved(Dir::Down), None);
    assert_eq!(corner.moved(Dir::Right), None);
    // a move and its opposite cancel
    for d in Dir::ALL {
        if let Some(m) = start.moved(d) {
            assert_eq!(m.moved(d.opposite()).unwrap(), start);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Solvability

fn solvable(shape_text: &str, text: &str, goal: Goal) -> bool {
    let b = board(shape_text, text);
    b.is_solvable_to(&goal.board(b.shape()).unwrap())
}

#[test]
fn solvability_known_cases_3x3() {
    assert!(!solvable("3x3", "1 2 3 4 5 6 8 7 0", Goal::BlankLast));
    assert!(!solvable("3x3", "2 1 3 4 5 6 7 8 0", Goal::BlankLast));
    assert!(solvable("3x3", "1 2 3 4 5 6 7 8 0", Goal::BlankLast));
    assert!(solvable("3x3", "1 2 3 4 5 6 7 0 8", Goal::BlankLast));
    assert!(solvable("3x3", "8 6 7 2 5 4 3 0 1", Goal::BlankLast));
    assert!(solvable("3x3", "6 4 7 8 5 0 3 2 1", Goal::BlankLast));
    assert!(solvable("3x3", "0 1 3 4 2 5 7 8 6", Goal::BlankLast));
    // Russell & Norvig's start, to their goal
    assert!(solvable("3x3", "7 2 4 5 0 6 8 3 1", Goal::BlankFirst));
    // with an odd number of columns only the tile order counts: blank-first reads 1..8 like
    // blank-last, while snail reads 1 2 3 8 4 7 6 5 (seven inversions)
    assert!(solvable("3x3", "0 1 2 3 4 5 6 7 8", Goal::BlankLast));
    assert!(!solvable("3x3", "1 2 3 8 0 4 7 6 5", Goal::BlankLast));
    assert!(solvable("3x3", "2 8 1 0 4 3 7 6 5", Goal::Snail));
    assert!(solvable("3x3", "5 6 7 4 0 8 3 2 1", Goal::Snail));
}

#[test]
fn solvability_known_cases_4x4() {
    // Sam Loyd's 14-15 puzzle: unsolvable
    assert!(!solvable("4x4", "1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0", Goal::BlankLast));
    // one move away, horizontally and vertically
    assert!(solvable("4x4", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", Goal::BlankLast));
    assert!(solvable("4x4", "1 2 3 4 5 6 7 8 9 10 11 0 13 14 15 12", Goal::BlankLast));
    // the blank one row up with tiles unchanged in reading order: the parity of rows matters
    assert!(!solvable("4x4", "1 2 3 4 5 6 7 8 9 10 11 0 12 13 14 15", Goal::BlankLast));
    // blank-first vs blank-last on 4x4: the sequence 1..15 is the same, the blank is 3 rows away
    assert!(!solvable("4x4", "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", Goal::BlankLast));
    // a hard 15-puzzle instance (Korf #1: 14 13 15 7 / 11 12 9 5 / 6 0 2 1 / 4 8 10 3, to blank-first)
    assert!(solvable("4x4", "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", Goal::BlankFirst));
    assert!(!solvable("4x4", "13 14 15 7 11 12 9 5 6 0 2 1 4 8 10 3", Goal::BlankFirst));
    // 2x2: only the twelve rotations of the cycle are solvable
    assert!(solvable("2x2", "0 1 3 2", Goal::BlankLast));
    assert!(!solvable("2x2", "2 1 3 0", Goal::BlankLast));
}

#[test]
#[should_panic(expected = "same shape")]
fn solvability_needs_the_same_shape() {
    let _ = board("3x3", "1 2 3 4 5 6 7 8 0").is_solvable_to(&board("2x2", "1 2 3 0"));
}

#[test]
fn solvability_on_the_largest_board() {
    let s = Shape::new(MAX_SIDE, MAX_SIDE).unwrap();
    let goal = Goal::BlankLast.board(s).unwrap();
    let mut b = goal.clone();
    for d in [Dir::Up, Dir::Left, Dir::Up, Dir::Up, Dir::Right, Dir::Down] {
        b.apply(d).unwrap();
    }
    assert!(b.is_solvable_to(&goal));
    let mut cells = b.cells().to_vec();
    cells.swap(0, 1);
    assert!(!Board::new(s, cells).unwrap().is_solvable_to(&goal));
    assert!(Goal::Snail.board(s).unwrap().is_solvable_to(&Goal::Snail.board(s).unwrap()));
}

/// A shape up to 10x10, a goal of it, a walk of the blank, and two distinct cells to swap.
fn walk_case() -> impl Strategy<Value = (Board, Vec<Dir>, usize, usize)> {
    (2usize..=10, 2usize..=10).prop_flat_map(|(rows, cols)| {
        let n = rows * cols;
        let s = Shape::new(rows, cols).unwrap();
        let goal =
            Just((0..n as u16).collect::<Vec<u16>>()).prop_shuffle().prop_map(move |c| Board::new(s, c).unwrap());
        let walk = prop::collection::vec(prop::sample::select(Dir::ALL.to_vec()), 0..400);
        (goal, walk, 0..n - 1, 0..n - 2)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// A random walk from a goal stays solvable to it; swapping two tiles (never the blank) makes it
    /// unsolvable, and swapping a second pair makes it solvable again.
    #[test]
    fn walks_are_solvable_and_transpositions_are_not((goal, walk, a, b) in walk_case()) {
        let mut board = goal.clone();
        for d in walk {
            let before = board.clone();
            match board.apply(d) {
                Some(tile) => {
                    // the tile that slid sat where the blank now is, and now sits where it was
                    prop_assert_eq!(before.cells()[board.blank()], tile);
                    prop_assert_eq!(board.cells()[before.blank()], tile);
                    prop_assert_eq!(Some(board.blank()), d.step(board.shape(), before.blank()));
                }
                None => {
                    prop_assert_eq!(&board, &before);
                    prop_assert_eq!(d.step(board.shape(), board.blank()), None);
                }
            }
        }
        prop_assert!(board.is_solvable_to(&goal));
        prop_assert!(goal.is_solvable_to(&board));
        // pick two distinct tile cells (skipping the blank)
        let tiles: Vec<usize> = (0..board.cells().len()).filter(|&i| board.cells()[i] != 0).collect();
        let (i, j) = (tiles[a], tiles[(a + 1 + b) % tiles.len()]);
        prop_assume!(i != j);
        let mut cells = board.cells().to_vec();
        cells.swap(i, j);
        let swapped = Board::new(board.shape(), cells.clone()).unwrap();
        prop_assert!(!swapped.is_solvable_to(&goal));
        prop_assert!(!goal.is_solvable_to(&swapped));
        // a second transposition restores solvability
        let others: Vec<usize> = tiles.iter().copied().filter(|&k| k != i && k != j).collect();
        if others.len() >= 2 {
            cells.swap(others[0], others[1]);
            prop_assert!(Board::new(board.shape(), cells).unwrap().is_solvable_to(&goal));
        }
    }

    /// Every board parses back from what Display and grid() print, and square ones from to_cos226().
    #[test]
    fn text_formats_round_trip((goal, _walk, _a, _b) in walk_case()) {
        prop_assert_eq!(&Board::parse(goal.shape(), &goal.to_string()).unwrap(), &goal);
        prop_assert_eq!(&Board::parse(goal.shape(), &goal.grid()).unwrap(), &goal);
        if goal.shape().rows() == goal.shape().cols() {
            prop_assert_eq!(&Board::parse_cos226(&goal.to_cos226()).unwrap(), &goal);
        }
    }
}

/// Input a user meant otherwise gets a message that says what was meant and what to type.
#[test]
fn misread_input_says_what_to_type() {
    let s = Shape::EIGHT;
    let e = Board::parse(s, "8_6_7_2_5_4_3_0_1").unwrap_err().to_string();
    assert!(e.contains("reads as 17 tiles") && e.contains("write `8 6 7 2 5 4 3 0 1`"), "{e}");
    let e = Board::parse(s, "0 0 0 0 0 0 0 0 0").unwrap_err().to_string();
    assert!(e.contains("the blank (0, _ or .) appears more than once"), "{e}");
    let e = Board::parse(s, "1 2 3 4 5 6 7 7 0").unwrap_err().to_string();
    assert!(e.contains("tile 7 appears more than once"), "{e}");
    // blanks written as `_` still work where they are blanks
    assert_eq!(Board::parse(s, "8 6 7/2 5 4/3 _ 1").unwrap(), Board::parse(s, "867254301").unwrap());
    for (text, name) in [("blank_last", "blank-last"), ("BlankFirst", "blank-first"), ("blank first", "blank-first")] {
        let e = Goal::parse(s, text).unwrap_err().to_string();
        assert!(e.contains(&format!("did you mean `--goal {name}`")), "{text}: {e}");
    }
    assert_eq!(Goal::parse(s, "Blank-Last").unwrap(), Goal::BlankLast);
}

/// A tile number past 64 bits is named as written, not as 18446744073709551615.
#[test]
fn huge_tile_numbers_are_named_as_written() {
    let e = Board::parse(Shape::EIGHT, "1 2 3 4 5 6 7 99999999999999999999999 0").unwrap_err().to_string();
    assert!(e.contains("tile 99999999999999999999999 is out of range"), "{e}");
    assert!(!e.contains("18446744073709551615"), "{e}");
}
