//! Positions: a board's [`Shape`], its tiles, parsing, moves and solvability.
//!
//! A [`Board`] stores its cells in row-major order; the blank is tile `0` and the other tiles are
//! `1..cells`. Moves are named by the direction the **blank** moves ([`Dir`]), as in the Prolog
//! tutorial and the C solver among our sources: `U` means the blank goes up (the tile above it
//! slides down).

use std::fmt;

use crate::error::{BoardError, Error};

/// The largest number of rows or columns a board may have (COS 226: `2 <= N < 128`).
pub const MAX_SIDE: usize = 127;

/// The dimensions of a rectangular board: at least 2 rows and 2 columns, at most [`MAX_SIDE`] each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    rows: u8,
    cols: u8,
}

impl Shape {
    /// The 3x3 board of the 8-puzzle.
    pub const EIGHT: Shape = Shape { rows: 3, cols: 3 };

    /// A shape of `rows` by `cols` cells.
    ///
    /// # Errors
    /// [`Error::BadShape`] when either side is below 2 or above [`MAX_SIDE`].
    pub fn new(rows: usize, cols: usize) -> Result<Shape, Error> {
        if !(2..=MAX_SIDE).contains(&rows) || !(2..=MAX_SIDE).contains(&cols) {
            return Err(Error::BadShape(format!(
                "{rows}x{cols}: a board needs between 2 and {MAX_SIDE} rows and columns"
            )));
        }
        Ok(Shape { rows: rows as u8, cols: cols as u8 })
    }

    /// Parses `RxC` (rows first), for example `3x3` or `2x4`; `X` and `*` are accepted too.
    ///
    /// # Errors
    /// [`Error::BadShape`] for anything else.
    pub fn parse(text: &str) -> Result<Shape, Error> {
        let bad = || Error::BadShape(format!("`{text}`: write rows x columns, like 3x3 or 2x4"));
        let (r, c) = text.trim().split_once(['x', 'X', '*']).ok_or_else(bad)?;
        let rows = r.trim().parse::<usize>().map_err(|_| bad())?;
        let cols = c.trim().parse::<usize>().map_err(|_| bad())?;
        Shape::new(rows, cols)
    }

    /// Number of rows.
    pub fn rows(self) -> usize {
        self.rows as usize
    }

    /// Number of columns.
    pub fn cols(self) -> usize {
        self.cols as usize
    }

    /// Number of cells, blank included.
    pub fn cells(self) -> usize {
        self.rows() * self.cols()
    }

    /// The same board turned on its side (rows and columns swapped).
    pub fn transposed(self) -> Shape {
        Shape { rows: self.cols, cols: self.rows }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

/// A direction the blank moves in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// The blank moves up: the tile above it slides down.
    Up,
    /// The blank moves down: the tile below it slides up.
    Down,
    /// The blank moves left: the tile on its left slides right.
    Left,
    /// The blank moves right: the tile on its right slides left.
    Right,
}

impl Dir {
    /// All four directions in the order solutions try them: `U D L R`.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The letter `U`, `D`, `L` or `R`.
    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Down => 'D',
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }

    /// The direction that undoes this one.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }

    /// Parses a letter `U D L R` (either case).
    pub fn from_letter(c: char) -> Option<Dir> {
        match c.to_ascii_uppercase() {
            'U' => Some(Dir::Up),
            'D' => Some(Dir::Down),
            'L' => Some(Dir::Left),
            'R' => Some(Dir::Right),
            _ => None,
        }
    }

    /// The cell the blank reaches from `cell` on a board of `shape`, if the move stays on the board.
    #[inline]
    pub fn step(self, shape: Shape, cell: usize) -> Option<usize> {
        let cols = shape.cols();
        match self {
            Dir::Up => cell.checked_sub(cols),
            Dir::Down => (cell + cols < shape.cells()).then_some(cell + cols),
            Dir::Left => (!cell.is_multiple_of(cols)).then(|| cell - 1),
            Dir::Right => (!(cell + 1).is_multiple_of(cols)).then_some(cell + 1),
        }
    }
}

/// The moves as their letters, nothing at all for none: for JSON and other text a program reads,
/// where [`moves_to_string`]'s `-` would be taken for a move.
pub fn moves_letters(moves: &[Dir]) -> String {
    moves.iter().map(|d| d.letter()).collect()
}

/// Writes moves as a string of `U D L R` letters, or `-` when there are none.
pub fn moves_to_string(moves: &[Dir]) -> String {
    if moves.is_empty() {
        "-".to_string()
    } else {
        moves_letters(moves)
    }
}

/// Checks that `cells` (row-major, `0` the blank) is a board of `shape`: the right count, and each
/// of `0..cells` exactly once. Returns the blank's cell. The check behind [`Board::new`], for
/// callers that hold many boards in one array and make no `Board` of each.
///
/// # Errors
/// The first problem found: [`BoardError::WrongCount`], [`BoardError::OutOfRange`] or
/// [`BoardError::Duplicate`].
#[inline]
pub fn check_cells<T: Copy + Into<u64>>(shape: Shape, cells: &[T]) -> Result<usize, BoardError> {
    let n = shape.cells();
    if cells.len() != n {
        return Err(BoardError::WrongCount { found: cells.len(), expected: n, shape });
    }
    let mut blank = 0;
    let mut mask = 0u64; // one bit a tile, for boards up to 64 cells: no allocation
    let mut seen = if n > 64 { vec![false; n] } else { Vec::new() };
    for (c, &t) in cells.iter().enumerate() {
        let t: u64 = t.into();
        if t >= n as u64 {
            return Err(BoardError::OutOfRange { tile: t, max: n - 1, shape });
        }
        let repeated = if n <= 64 {
            let bit = 1u64 << t;
            let r = mask & bit != 0;
            mask |= bit;
            r
        } else {
            std::mem::replace(&mut seen[t as usize], true)
        };
        if repeated {
            return Err(BoardError::Duplicate { tile: t as usize });
        }
        if t == 0 {
            blank = c;
        }
    }
    // Every value is in range and none repeats, so all of 0..n are present: the blank too.
    Ok(blank)
}

/// A position: a shape and its cells in row-major order, `0` for the blank.
///
/// A `Board` is always a permutation of `0..cells`; the constructors check it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    shape: Shape,
    cells: Vec<u16>,
    blank: usize,
}

impl Board {
    /// A board from its cells in row-major order (`0` is the blank).
    ///
    /// # Errors
    /// [`Error::BadBoard`] when the count does not match the shape, or the cells are not each of
    /// `0..cells` exactly once.
    pub fn new(shape: Shape, cells: Vec<u16>) -> Result<Board, Error> {
        let blank = check_cells(shape, &cells)?;
        Ok(Board { shape, cells, blank })
    }

    /// Parses a board in any of the accepted syntaxes, for a board of `shape`.
    ///
    /// Numbers separated by spaces, commas, semicolons or slashes (`8 6 7 2 5 4 3 0 1`,
    /// `8,6,7/2,5,4/3,0,1`, `8/6/7/2/5/4/3/0/1`), or one string of digits when every tile is below
    /// 10 (`867254301`, `867/254/3_1`). The blank is `0`, `_` or `.`; brackets are ignored.
    ///
    /// Rows given with `/` or line breaks must be whole: `1 2 3 / 4 5 / 6 7 8 0` is refused for
    /// 3x3, not read as nine tiles. Text without them, or with one tile between each
    /// (`8/6/7/2/5/4/3/0/1`), is a plain list; pieces without tiles (a `/` at either end, `//`)
    /// are not rows.
    ///
    /// # Errors
    /// [`Error::BadBoard`] naming the problem: a token that is not a number, the wrong count for
    /// the shape, a row of the wrong length, a tile out of range, a duplicate tile.
    pub fn parse(shape: Shape, text: &str) -> Result<Board, Error> {
        let n = shape.cells();
        let tiles = parse_cells(text, n)?;
        // The count first, so that text refused before keeps its message; with the right count,
        // rows all of the right length are also the right number of rows.
        if tiles.values.len() == n {
            check_rows(shape, &tiles.rows)?;
        }
        Board::from_values(shape, tiles.values).map_err(|e| match e {
            // `8_6_7_2_5_4_3_0_1`: underscores meant as separators, read as blanks
            Error::BadBoard(BoardError::WrongCount { .. }) if text.contains('_') => {
                let numbers: Vec<&str> = text.split(|c: char| c == '_' || c.is_whitespace()).filter(|t| !t.is_empty()).collect();
                if numbers.len() == n && numbers.iter().all(|t| t.parse::<u64>().is_ok()) {
                    BoardError::Misread(format!(
                        "`{text}` reads as {} tiles, because `_` is the blank, not a separator; for these {n} tiles write `{}`",
                        parse_cells(text, n).map_or(0, |t| t.values.len()),
                        numbers.join(" ")
                    ))
                    .into()
                } else {
                    e
                }
            }
            e => e,
        })
    }

    /// A board from parsed values, checking the count before the range so messages name the
    /// first real problem.
    fn from_values(shape: Shape, values: Vec<u64>) -> Result<Board, Error> {
        let n = shape.cells();
        if values.len() != n {
            return Err(BoardError::WrongCount { found: values.len(), expected: n, shape }.into());
        }
        let cells = values
            .into_iter()
            .map(|v| match u16::try_from(v) {
                Ok(t) if (t as usize) < n => Ok(t),
                _ => Err(BoardError::OutOfRange { tile: v, max: n - 1, shape }),
            })
            .collect::<Result<Vec<u16>, BoardError>>()?;
        Board::new(shape, cells)
    }

    /// Parses the COS 226 file format: the size `N`, then `N` rows of `N` numbers (0 is the blank).
    /// A first line of two numbers `R C` is a rectangular board of `R` rows of `C` (as
    /// [`Board::to_cos226`] writes one).
    ///
    /// # Errors
    /// [`Error::BadBoard`] for a missing or bad size, a ragged or short file, extra numbers, or a
    /// set of tiles that is not a permutation.
    pub fn parse_cos226(text: &str) -> Result<Board, Error> {
        let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
        let first = lines.next().ok_or(BoardError::Empty)?;
        let sizes: Vec<&str> = first.split_whitespace().collect();
        let size = |t: &str| {
            t.parse::<usize>()
                .map_err(|_| BoardError::BadFile(format!("the first line must be the size N, found `{first}`")))
        };
        let (n, m) = match sizes[..] {
            [n] => (size(n)?, size(n)?),
            [r, c] => (size(r)?, size(c)?),
            _ => return Err(BoardError::BadFile(format!("the first line must be the size N, found `{first}`")).into()),
        };
        if !(2..=MAX_SIDE).contains(&n) || !(2..=MAX_SIDE).contains(&m) {
            let size = if n == m { n.to_string() } else { format!("{n} {m}") };
            return Err(
                BoardError::BadFile(format!("size {size} is out of range: COS 226 boards have 2 <= N < 128")).into()
            );
        }
        let shape = Shape::new(n, m)?;
        let mut cells: Vec<u64> = Vec::with_capacity(n * m);
        for row in 0..n {
            let line = lines.next().ok_or_else(|| {
                BoardError::BadFile(format!("the file ends after {row} rows; a {shape} board needs {n}"))
            })?;
            let before = cells.len();
            for token in line.split_whitespace() {
                cells.push(parse_tile(token)?);
            }
            let got = cells.len() - before;
            if got != m {
                return Err(BoardError::BadFile(format!(
                    "row {} has {got} numbers; every row of a {shape} board needs {m}",
                    row + 1
                ))
                .into());
            }
        }
        if let Some(extra) = lines.next() {
            return Err(BoardError::BadFile(format!("unexpected line after {n} rows: `{extra}`")).into());
        }
        Board::from_values(shape, cells)
    }

    /// The square shape a board written as `text` has, judged by its number of tiles (9 tiles:
    /// 3x3, 16: 4x4), or `None` when that number is not the area of a square board.
    pub fn square_shape_of(text: &str) -> Option<Shape> {
        let tokens: Vec<&str> = text.split(is_sep).filter(|t| !t.is_empty()).collect();
        let count = match tokens[..] {
            [one] if one.len() > 1 && one.chars().all(|c| c.is_ascii_digit() || c == '_' || c == '.') => one.len(),
            _ => tokens.len(),
        };
        let side = (count as f64).sqrt().round() as usize;
        (side * side == count).then(|| Shape::new(side, side).ok()).flatten()
    }

    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The cells in row-major order, `0` for the blank.
    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    /// The cell that holds the blank.
    pub fn blank(&self) -> usize {
        self.blank
    }

    /// Moves the blank in `dir`, returning the tile that slid, or `None` if the blank is on that edge.
    pub fn apply(&mut self, dir: Dir) -> Option<u16> {
        let to = dir.step(self.shape, self.blank)?;
        let tile = self.cells[to];
        self.cells.swap(self.blank, to);
        self.blank = to;
        Some(tile)
    }

    /// The board after moving the blank in `dir`, if that move is possible.
    pub fn moved(&self, dir: Dir) -> Option<Board> {
        let mut b = self.clone();
        b.apply(dir)?;
        Some(b)
    }

    /// Whether this board can be turned into `goal` by sliding tiles.
    ///
    /// Exactly half of all arrangements can reach a given goal; see [`Board::parity_to`] for the
    /// invariant. Runs in O(cells), so a 127x127 board answers at once.
    ///
    /// # Panics
    /// If `goal` has another shape.
    pub fn is_solvable_to(&self, goal: &Board) -> bool {
        self.parity_to(goal).is_solvable()
    }

    /// The two halves of the solvability invariant between this board and `goal`.
    ///
    /// Read the tiles in row-major order with the blank skipped: a horizontal move keeps that
    /// sequence, a vertical one carries a tile past `cols - 1` others (Johnson & Story 1879). So
    /// the parity of the permutation taking the goal's sequence to the board's, plus (when `cols`
    /// is even) the number of rows between the two blanks, never changes; it is even exactly for
    /// the boards that can reach the goal. The permutation's parity is found by counting cycles.
    ///
    /// # Panics
    /// If `goal` has another shape.
    pub fn parity_to(&self, goal: &Board) -> Parity {
        assert_eq!(self.shape, goal.shape, "board and goal must have the same shape");
        let n = self.cells.len();
        // position of each tile in the goal's sequence (blank skipped)
        let mut goal_pos = vec![0usize; n];
        for (i, &t) in goal.cells.iter().filter(|&&t| t != 0).enumerate() {
            goal_pos[t as usize] = i;
        }
        let perm: Vec<usize> = self.cells.iter().filter(|&&t| t != 0).map(|&t| goal_pos[t as usize]).collect();
        Parity {
            permutation_odd: permutation_is_odd(&perm),
            blank_rows_apart: (self.blank / self.shape.cols()).abs_diff(goal.blank / goal.shape.cols()),
            cols_even: self.shape.cols().is_multiple_of(2),
        }
    }

    /// The board drawn as rows, `_` for the blank, each number right-aligned.
    pub fn grid(&self) -> String {
        let width = (self.cells.len() - 1).to_string().len();
        let mut s = String::new();
        for row in self.cells.chunks(self.shape.cols()) {
            let line: Vec<String> =
                row.iter().map(|&t| if t == 0 { format!("{:>width$}", "_") } else { format!("{t:>width$}") }).collect();
            s.push_str(&line.join(" "));
            s.push('\n');
        }
        s
    }

    /// The board as COS 226's `toString` prints it: the size on one line, then each row of `%2d `
    /// fields (for a square board; a rectangular one prints `rows cols` on the first line).
    pub fn to_cos226(&self) -> String {
        let mut s = if self.shape.rows() == self.shape.cols() {
            format!("{}\n", self.shape.rows())
        } else {
            format!("{} {}\n", self.shape.rows(), self.shape.cols())
        };
        for row in self.cells.chunks(self.shape.cols()) {
            for &t in row {
                s.push_str(&format!("{t:2} "));
            }
            s.push('\n');
        }
        s
    }

    /// The tiles row by row on one line, separated by single spaces, 0 for the blank:
    /// `8 6 7 2 5 4 3 0 1`, as `table sample` prints boards and `table query --batch` reads them
    /// ([`Board::parse`] reads it back).
    pub fn to_numbers(&self) -> String {
        self.cells.iter().map(u16::to_string).collect::<Vec<_>>().join(" ")
    }
}

/// One line, with tiles separated by spaces and rows by ` / `, `_` for the blank:
/// `8 6 7 / 2 5 4 / 3 _ 1`.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (r, row) in self.cells.chunks(self.shape.cols()).enumerate() {
            if r > 0 {
                f.write_str(" / ")?;
            }
            for (c, &t) in row.iter().enumerate() {
                if c > 0 {
                    f.write_str(" ")?;
                }
                if t == 0 {
                    f.write_str("_")?;
                } else {
                    write!(f, "{t}")?;
                }
            }
        }
        Ok(())
    }
}

/// The solvability invariant of a board relative to a goal; see [`Board::parity_to`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parity {
    /// Whether the tiles (row-major, blank skipped) are an odd permutation of the goal's order.
    pub permutation_odd: bool,
    /// Rows between the board's blank and the goal's.
    pub blank_rows_apart: usize,
    /// Whether the board has an even number of columns, so that the blank's row counts.
    pub cols_even: bool,
}

impl Parity {
    /// Whether the board can reach the goal.
    pub fn is_solvable(self) -> bool {
        let row_term = self.cols_even && self.blank_rows_apart % 2 == 1;
        self.permutation_odd == row_term
    }

    /// Why a board can or cannot reach its goal, in one sentence.
    pub fn explain(self) -> String {
        let perm = if self.permutation_odd { "an odd" } else { "an even" };
        let verdict =
            if self.is_solvable() { "so it can reach the goal" } else { "so no sequence of moves reaches the goal" };
        if self.cols_even {
            format!(
                "read row by row without the blank, its tiles are {perm} permutation of the goal's, and its blank is \
                 {} row(s) from the goal's; on a board with an even number of columns every move keeps the parity \
                 of the sum, which is {}, {verdict}",
                self.blank_rows_apart,
                if (self.permutation_odd as usize + self.blank_rows_apart) % 2 == 1 { "odd" } else { "even" }
            )
        } else {
            format!(
                "read row by row without the blank, its tiles are {perm} permutation of the goal's; on a board \
                 with an odd number of columns every move keeps that parity, {verdict}"
            )
        }
    }
}

/// Whether a permutation of `0..n` is odd: `(n - number of cycles)` is its parity.
pub(crate) fn permutation_is_odd(perm: &[usize]) -> bool {
    let mut seen = vec![false; perm.len()];
    let mut transpositions = 0usize;
    for start in 0..perm.len() {
        if seen[start] {
            continue;
        }
        let mut i = start;
        let mut len = 0;
        while !seen[i] {
            seen[i] = true;
            i = perm[i];
            len += 1;
        }
        transpositions += len - 1;
    }
    transpositions % 2 == 1
}

/// Parses one tile token: a number, or `_` / `.` for the blank.
fn parse_tile(token: &str) -> Result<u64, Error> {
    match token {
        "_" | "." => Ok(0),
        // a number past 64 bits is named as written, not as u64::MAX
        _ if token.bytes().all(|b| b.is_ascii_digit()) => token.parse::<u64>().map_err(|_| {
            BoardError::Misread(format!(
                "tile {token} is out of range: no board has that many cells (the largest, {MAX_SIDE}x{MAX_SIDE}, has tiles up to {})",
                MAX_SIDE * MAX_SIDE - 1
            ))
            .into()
        }),
        _ => Err(BoardError::NotANumber(token.to_string()).into()),
    }
}

/// Whether `c` separates tiles.
fn is_sep(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | '/' | ';' | '[' | ']' | '(' | ')')
}

/// The separators that also end a row (`8 6 7 / 2 5 4 / 3 0 1`, or a grid pasted line by line), as
/// the page's typed board takes them.
const ROW_SEPS: [char; 2] = ['/', '\n'];

/// Board text read as tiles.
struct Tiles {
    /// The tile values in order (count and range not yet checked).
    values: Vec<u64>,
    /// How many of them each row holds, for the pieces between [`ROW_SEPS`] that hold any.
    rows: Vec<usize>,
}

/// Splits board text into tile values for a board of `n` cells, and counts them row by row.
fn parse_cells(text: &str, n: usize) -> Result<Tiles, Error> {
    let mut tokens: Vec<&str> = Vec::new();
    // `tokens.len()` at the end of each row that holds a token
    let mut row_ends: Vec<usize> = Vec::new();
    for row in text.split(ROW_SEPS) {
        let before = tokens.len();
        tokens.extend(row.split(is_sep).filter(|t| !t.is_empty()));
        if tokens.len() > before {
            row_ends.push(tokens.len());
        }
    }
    if tokens.is_empty() {
        return Err(BoardError::Empty.into());
    }
    let row_ranges = || row_ends.iter().scan(0, |start, &end| Some(std::mem::replace(start, end)..end));
    // Digit strings, one tile per character: one string (`867254301`), or one per row
    // (`867 254 3_1`) when the characters add up to the board and every tile is below 10.
    let digitish = |t: &&str| t.chars().all(|c| c.is_ascii_digit() || c == '_' || c == '.');
    let chars: usize = tokens.iter().map(|t| t.len()).sum();
    let one_string = tokens.len() == 1 && tokens[0].len() > 1;
    let row_strings = tokens.len() != n && n <= 10 && chars == n;
    if (one_string || row_strings) && tokens.iter().all(digitish) {
        let rows = row_ranges().map(|r| tokens[r].iter().map(|t| t.len()).sum()).collect();
        let values = tokens.concat().chars().map(|c| c.to_digit(10).map_or(0, u64::from)).collect();
        return Ok(Tiles { values, rows });
    }
    let rows = row_ranges().map(|r| r.len()).collect();
    let values = tokens.into_iter().map(parse_tile).collect::<Result<_, _>>()?;
    Ok(Tiles { values, rows })
}

/// Checks that the rows a board's text gave (tiles in each, see [`Tiles::rows`]) are whole rows
/// of `shape`, for text with the shape's number of tiles (so whole rows are also all the rows).
/// Text in one row, or with one tile to a row (`8/6/7/2/5/4/3/0/1`: no board has one column),
/// gives no rows to check.
fn check_rows(shape: Shape, rows: &[usize]) -> Result<(), BoardError> {
    if rows.len() <= 1 || rows.iter().all(|&r| r == 1) {
        return Ok(());
    }
    match rows.iter().position(|&r| r != shape.cols()) {
        Some(i) => Err(BoardError::RowLength { row: i + 1, found: rows[i], expected: shape.cols(), shape }),
        None => Ok(()),
    }
}
