//! Batch queries: one board per line in, one answer per line out, millions of lines a second.
//!
//! [`answer_lines`] reads its input in large chunks and writes its answers in large writes. Each
//! line goes first to [`parse_cells`], a parser for the common forms (`8 6 7 2 5 4 3 0 1`,
//! `8,6,7/2,5,4/3,_,1`, `867254301`) that writes the cells into a byte array without allocating.
//! Whatever it is not sure of (a malformed line, rows given with `/` that are not whole, an unusual
//! character, a non-ASCII space) it hands to [`Board::parse`], which gives the answer or the
//! error. The fast parser never gives another
//! answer than `Board::parse`: for every line it yields exactly the cells `Board::parse` would, or
//! defers; `tests/batch.rs` checks this against the slow path on generated lines.

use std::io::{self, BufRead, Write};

use rayon::prelude::*;

use thiserror::Error as ThisError;

use crate::error::Error;
use crate::puzzle::board::{Board, Dir, Shape};
use crate::table::Table;

/// The largest board, in cells, that [`parse_cells`] handles; larger boards always defer.
pub const MAX_FAST_CELLS: usize = 16;

/// Answers are written out once this many bytes are waiting (and whenever the input has no more
/// bytes at hand, so that a program feeding lines one at a time gets its answers).
const WRITE_AT: usize = 1 << 18;

/// What a batch run saw. Every line counts in exactly one of the last three fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Lines read, the last one counted even without a final newline.
    pub lines: u64,
    /// Lines whose board can reach the goal: answered with a distance.
    pub solvable: u64,
    /// Lines whose board cannot reach the goal: answered `unsolvable`.
    pub unsolvable: u64,
    /// Lines that are not a board of the table's shape: answered `error`.
    pub malformed: u64,
}

/// Why a batch run stopped before the end of its input. Answers to the lines before the failure
/// have been written (as far as the output allows).
#[derive(Debug, ThisError)]
#[non_exhaustive]
pub enum BatchError {
    /// Reading the input failed, or line `line` is not UTF-8 text.
    #[error("reading line {line}: {source}")]
    Read {
        /// The line being read (1-based).
        line: u64,
        /// The reason.
        source: io::Error,
    },
    /// Writing the answers failed (a closed pipe included).
    #[error("writing the answers: {0}")]
    Write(#[source] io::Error),
    /// The table contradicts itself ([`Error::Corrupt`]).
    #[error(transparent)]
    Table(#[from] Error),
}

/// A byte's role in a board line, as `Board::parse` splits it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Anything the fast parser leaves to `Board::parse`: letters, signs, non-ASCII bytes.
    Other,
    /// ASCII whitespace but the line feed (`char::is_whitespace`: tab, vertical tab, form feed,
    /// carriage return, space) and `, ; [ ] ( )`.
    Sep,
    /// `/` and the line feed: separators that also end a row.
    RowSep,
    /// `0` to `9`.
    Digit,
    /// `_` or `.`: the blank.
    Blank,
}

static CLASS: [Class; 256] = {
    let mut t = [Class::Other; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = match b as u8 {
            b'\t' | 0x0b | 0x0c | b'\r' | b' ' | b',' | b';' | b'[' | b']' | b'(' | b')' => Class::Sep,
            b'/' | b'\n' => Class::RowSep,
            b'0'..=b'9' => Class::Digit,
            b'_' | b'.' => Class::Blank,
            _ => Class::Other,
        };
        b += 1;
    }
    t
};

/// Parses one line holding a board of `shape` into `out[..n]` (`n = shape.cells()`, tile
/// numbers, `0` for the blank) and returns `Some(n)`, without allocating.
///
/// Accepts what [`Board::parse`] accepts in the common forms: numbers separated by ASCII
/// whitespace, commas, semicolons, slashes or brackets, `_` or `.` for the blank, or digit strings
/// (one for the board, or one per row) on boards of up to 10 cells; rows given with `/` (or line
/// feeds) must be whole rows, as `Board::parse` checks them.
///
/// # Contract
/// When it returns `Some(n)`, `Board::parse(shape, line)` succeeds with exactly the cells
/// `out[..n]`. It returns `None` for every malformed line and for anything unusual (a non-ASCII
/// byte, a board of more than [`MAX_FAST_CELLS`] cells); the caller then asks `Board::parse`,
/// which gives the answer or the reason the line is not a board.
pub fn parse_cells(line: &[u8], shape: Shape, out: &mut [u8; MAX_FAST_CELLS]) -> Option<usize> {
    let n = shape.cells();
    if n > MAX_FAST_CELLS {
        return None;
    }
    // Both readings of the line are gathered in one pass, as `Board::parse` may take either: one
    // tile per token, or (digit strings) one tile per character.
    let mut token_values = [0u8; MAX_FAST_CELLS];
    let mut char_values = [0u8; MAX_FAST_CELLS];
    let mut tokens = 0usize;
    let mut chars = 0usize;
    let mut first_len = 0usize;
    // Every token is a tile when read one per token: `_`, `.` or a plain number.
    let mut tokens_are_tiles = true;
    let mut rows = Rows::new(shape.cols());
    let mut i = 0;
    while i < line.len() {
        match CLASS[line[i] as usize] {
            Class::Sep => {
                i += 1;
                continue;
            }
            Class::RowSep => {
                rows.end(tokens, chars);
                i += 1;
                continue;
            }
            _ => {}
        }
        let start = i;
        // Capped: anything at or above 1000 is out of range for every board here.
        let mut value = 0u32;
        let mut blanks = 0usize;
        while i < line.len() {
            let b = line[i];
            let digit = match CLASS[b as usize] {
                Class::Sep | Class::RowSep => break,
                Class::Other => return None,
                Class::Digit => {
                    let d = b - b'0';
                    if value < 1000 {
                        value = value * 10 + d as u32;
                    }
                    d
                }
                Class::Blank => {
                    blanks += 1;
                    0
                }
            };
            if chars < MAX_FAST_CELLS {
                char_values[chars] = digit;
            }
            chars += 1;
            i += 1;
        }
        let len = i - start;
        if tokens == 0 {
            first_len = len;
        }
        let tile = match (blanks, len) {
            (0, _) => value.min(255) as u8,
            (1, 1) => 0,
            _ => {
                tokens_are_tiles = false;
                0
            }
        };
        if tokens < MAX_FAST_CELLS {
            token_values[tokens] = tile;
        }
        tokens += 1;
    }
    if tokens == 0 {
        return None;
    }
    rows.end(tokens, chars);
    // The rule of `Board::parse`: a single token of several characters, or tokens that are not one
    // per cell but whose characters are (boards of up to 10 cells), are digit strings. Every token
    // is made of digits, `_` and `.` here, as any other byte returned above.
    let one_string = tokens == 1 && first_len > 1;
    let row_strings = tokens != n && n <= 10 && chars == n;
    let values = if one_string || row_strings {
        if chars != n || !rows.chars.fit() {
            return None;
        }
        &char_values[..n]
    } else {
        if tokens != n || !tokens_are_tiles || !rows.tokens.fit() {
            return None;
        }
        &token_values[..n]
    };
    let mut seen = 0u32;
    for (slot, &v) in out.iter_mut().zip(values) {
        if v as usize >= n || seen & (1 << v) != 0 {
            return None;
        }
        seen |= 1 << v;
        *slot = v;
    }
    Some(n)
}

/// The rows of a line (the pieces between `/`s or line feeds that hold a token), followed as
/// `parse_cells` reads it, for the check `Board::parse` makes: the tiles of each row, in both
/// readings.
struct Rows {
    cols: usize,
    /// Tokens and characters before the current row.
    start: (usize, usize),
    /// Rows counted one tile per token.
    tokens: RowCheck,
    /// Rows counted one tile per character (digit strings).
    chars: RowCheck,
}

/// The rows of one reading, so far.
#[derive(Clone, Copy)]
struct RowCheck {
    rows: usize,
    /// Every row has one tile: slashes as plain separators (`8/6/7/2/5/4/3/0/1`).
    all_one: bool,
    /// Every row has a row's worth of tiles.
    all_whole: bool,
}

impl RowCheck {
    /// Whether `Board::parse` takes these rows (for a line with the shape's number of tiles).
    #[inline]
    fn fit(self) -> bool {
        self.rows <= 1 || self.all_one || self.all_whole
    }

    #[inline]
    fn add(&mut self, tiles: usize, cols: usize) {
        self.rows += 1;
        self.all_one &= tiles == 1;
        self.all_whole &= tiles == cols;
    }
}

impl Rows {
    fn new(cols: usize) -> Rows {
        let none = RowCheck { rows: 0, all_one: true, all_whole: true };
        Rows { cols, start: (0, 0), tokens: none, chars: none }
    }

    /// Ends the current row, `tokens` and `chars` the counts so far in the line; a row without a
    /// token is no row.
    #[inline]
    fn end(&mut self, tokens: usize, chars: usize) {
        let (t, c) = self.start;
        if tokens > t {
            self.tokens.add(tokens - t, self.cols);
            self.chars.add(chars - c, self.cols);
            self.start = (tokens, chars);
        }
    }
}

/// Answers every line of `input` with one line of `output`, in order: for a board that can reach
/// the table's goal its distance (`31`), or with `solve` the distance and an optimal solution as
/// the blank's moves (`31 ULDR...`, `0 -` for the goal itself); `unsolvable` for a board that
/// cannot; `error` for a line that is not a board of the table's shape, after calling
/// `on_error(line_number, &reason)` (line numbers from 1).
///
/// Lines end with `\n` or `\r\n`; a last line without a newline is answered too, an empty line is
/// malformed. Answers are those of [`Board::parse`] followed by [`Table::distance`] or
/// [`Table::solve`], line for line. For speed, give a reader with a large buffer (a `BufReader`
/// of a megabyte): lines are taken from its buffer in place, and answers are written in large
/// writes, plus one whenever the reader's buffer is used up, so a program feeding lines one at a
/// time also gets its answers. `output` is flushed at the end.
///
/// # Errors
/// [`BatchError::Read`] when reading fails or a line is not UTF-8 text (as `BufRead::lines`
/// reports it); [`BatchError::Write`] when writing fails; [`BatchError::Table`] when the table is
/// found corrupt. In each case the answers to the lines before are written first, if the output
/// allows.
pub fn answer_lines<D, R, W>(
    table: &Table<D>,
    mut input: R,
    mut output: W,
    solve: bool,
    on_error: impl FnMut(u64, &Error),
) -> Result<Summary, BatchError>
where
    D: AsRef<[u8]> + Sync,
    R: BufRead,
    W: Write,
{
    let mut answerer = Answerer {
        table,
        shape: table.header().shape,
        solve,
        out: Vec::with_capacity(WRITE_AT + 4096),
        lines: Vec::new(),
        moves: Vec::with_capacity(64),
        summary: Summary::default(),
        on_error,
    };
    match answerer.run(&mut input, &mut output) {
        Ok(()) => {
            output.flush().map_err(BatchError::Write)?;
            Ok(answerer.summary)
        }
        Err(e) => {
            if !matches!(e, BatchError::Write(_)) {
                // Best effort: the answers so far are still right, as the unbatched loop's
                // buffered writer gave them when it was dropped on an error.
                let _ = answerer.answer();
                let _ = output.write_all(&answerer.out).and_then(|()| output.flush());
            }
            Err(e)
        }
    }
}

/// A line read and not yet answered.
#[derive(Clone, Copy)]
enum Line {
    /// A board that can reach the goal: its index.
    Solvable(u64),
    /// A board that cannot.
    Unsolvable,
    /// Not a board of the table's shape.
    Malformed,
}

/// A two-bit table's lines are answered together once this many are waiting (and whenever the
/// input has no more bytes at hand): on every core, their walks interleaved.
const ANSWER_AT: usize = 1 << 14;

/// The state of one batch run: the table, the lines not yet answered, the answers not yet
/// written.
struct Answerer<'t, D: AsRef<[u8]>, E: FnMut(u64, &Error)> {
    table: &'t Table<D>,
    shape: Shape,
    solve: bool,
    out: Vec<u8>,
    /// Lines of a two-bit table waiting to be answered together.
    lines: Vec<Line>,
    moves: Vec<Dir>,
    summary: Summary,
    on_error: E,
}

impl<D: AsRef<[u8]> + Sync, E: FnMut(u64, &Error)> Answerer<'_, D, E> {
    /// Answers every line of `input`, taking complete lines from the reader's buffer in place and
    /// copying only a line that runs across two reads.
    fn run(&mut self, input: &mut impl BufRead, output: &mut impl Write) -> Result<(), BatchError> {
        let mut partial: Vec<u8> = Vec::new();
        loop {
            let chunk = match input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(BatchError::Read { line: self.summary.lines + 1, source: e }),
            };
            if chunk.is_empty() {
                break;
            }
            let len = chunk.len();
            let mut rest = chunk;
            if !partial.is_empty() {
                let Some(end) = rest.iter().position(|&b| b == b'\n') else {
                    partial.extend_from_slice(rest);
                    input.consume(len);
                    continue;
                };
                partial.extend_from_slice(&rest[..end]);
                self.line(strip_cr(&partial))?;
                partial.clear();
                rest = &rest[end + 1..];
            }
            while let Some(end) = rest.iter().position(|&b| b == b'\n') {
                self.line(strip_cr(&rest[..end]))?;
                rest = &rest[end + 1..];
                if self.lines.len() >= ANSWER_AT {
                    self.answer()?;
                }
                if self.out.len() >= WRITE_AT {
                    self.write_out(output)?;
                }
            }
            partial.extend_from_slice(rest);
            input.consume(len);
            self.write_out(output)?;
        }
        if !partial.is_empty() {
            // The last line, without a newline: `BufRead::lines` keeps a `\r` there.
            self.line(&partial)?;
        }
        self.write_out(output)
    }

    /// Answers the waiting lines and writes the waiting answers.
    fn write_out(&mut self, output: &mut impl Write) -> Result<(), BatchError> {
        let answered = self.answer();
        if !self.out.is_empty() {
            output.write_all(&self.out).map_err(BatchError::Write)?;
            self.out.clear();
        }
        answered
    }

    /// Answers the waiting lines into `self.out`, in order. On a table found corrupt, the
    /// answers to the lines before the first board that found it are kept, and the error given.
    fn answer(&mut self) -> Result<(), BatchError> {
        if self.lines.is_empty() {
            return Ok(());
        }
        let starts: Vec<u64> =
            self.lines.iter().filter_map(|l| if let Line::Solvable(i) = *l { Some(i) } else { None }).collect();
        let mut chunks = answers(self.table, &starts, self.solve).into_iter();
        let mut chunk = Answers { distances: Vec::new(), letters: Vec::new() };
        let (mut next, mut at) = (0, 0);
        for line in std::mem::take(&mut self.lines) {
            match line {
                Line::Malformed => self.out.extend_from_slice(b"error\n"),
                Line::Unsolvable => self.out.extend_from_slice(b"unsolvable\n"),
                Line::Solvable(_) => {
                    while next == chunk.distances.len() {
                        chunk = chunks.next().expect("an answer for each solvable line");
                        (next, at) = (0, 0);
                    }
                    let d = std::mem::replace(&mut chunk.distances[next], Ok(0))? as usize;
                    next += 1;
                    let letters = self.solve.then(|| &chunk.letters[at..at + d]);
                    push_answer(&mut self.out, d, letters.map(|l| l.iter().copied()));
                    if self.solve {
                        at += d;
                    }
                }
            }
        }
        Ok(())
    }

    /// Answers one line (without its line ending) into `self.out`.
    fn line(&mut self, line: &[u8]) -> Result<(), BatchError> {
        self.summary.lines += 1;
        let number = self.summary.lines;
        let mut cells = [0u8; MAX_FAST_CELLS];
        let index = match parse_cells(line, self.shape, &mut cells) {
            Some(n) => self.table.index().index_of_cells(&cells[..n]),
            None => {
                let text = std::str::from_utf8(line).map_err(|_| BatchError::Read {
                    line: number,
                    // The words of `BufRead::lines`, which read the lines before.
                    source: io::Error::new(io::ErrorKind::InvalidData, "stream did not contain valid UTF-8"),
                })?;
                match Board::parse(self.shape, text) {
                    Ok(board) => self.table.index().index(&board),
                    Err(e) => {
                        self.summary.malformed += 1;
                        self.queue(Line::Malformed)?;
                        (self.on_error)(number, &e);
                        return Ok(());
                    }
                }
            }
        };
        let Some(index) = index else {
            self.summary.unsolvable += 1;
            return self.queue(Line::Unsolvable);
        };
        self.summary.solvable += 1;
        self.queue(Line::Solvable(index))
    }

    /// Answers `line` into `self.out` at once on a byte table (a lookup, or a walk of a few
    /// lookups: batching would only add to it); on a two-bit table, queues it for [`Self::answer`].
    fn queue(&mut self, line: Line) -> Result<(), BatchError> {
        if self.table.is_two_bit() {
            self.lines.push(line);
            return Ok(());
        }
        match line {
            Line::Malformed => self.out.extend_from_slice(b"error\n"),
            Line::Unsolvable => self.out.extend_from_slice(b"unsolvable\n"),
            Line::Solvable(index) if self.solve => {
                self.moves.clear();
                self.table.solve_index(index, &mut self.moves)?;
                push_answer(&mut self.out, self.moves.len(), Some(self.moves.iter().map(|&d| letter(d))));
            }
            Line::Solvable(index) => {
                push_answer(&mut self.out, self.table.entry(index)? as usize, None::<std::iter::Empty<u8>>);
            }
        }
        Ok(())
    }
}

/// The answers to a run of solvable lines: each board's distance (or the error that stopped its
/// walk), and with `solve` the letters of every board's moves, one board after the other (as many
/// as its distance).
struct Answers {
    distances: Vec<Result<u8, Error>>,
    letters: Vec<u8>,
}

/// The distance of each of `starts` (indices in two-bit `table`) and, with `solve`, an optimal
/// solution, in order, a chunk at a time: on every core, each chunk's walks interleaved by
/// [`Table::walks`].
fn answers<D: AsRef<[u8]> + Sync>(table: &Table<D>, starts: &[u64], solve: bool) -> Vec<Answers> {
    let some = |starts: &[u64]| -> Answers {
        let mut answers = Answers { distances: Vec::with_capacity(starts.len()), letters: Vec::new() };
        // each walk's letters in its own row (a distance is at most 253), copied out in order
        const ROW: usize = 256;
        let mut rows = if solve { vec![0u8; starts.len() * ROW] } else { Vec::new() };
        let mut taken = vec![0usize; if solve { starts.len() } else { 0 }];
        let mut out: Vec<Option<Result<u8, Error>>> = (0..starts.len()).map(|_| None).collect();
        table.walks(
            starts,
            |k, dir, _| {
                if solve && taken[k] < ROW {
                    rows[k * ROW + taken[k]] = letter(dir);
                    taken[k] += 1;
                }
            },
            |k, r| out[k] = Some(r),
        );
        for (k, d) in out.into_iter().enumerate() {
            let d = d.expect("every walk ends");
            if let (true, Ok(d)) = (solve, &d) {
                answers.letters.extend_from_slice(&rows[k * ROW..k * ROW + *d as usize]);
            }
            answers.distances.push(d);
        }
        answers
    };
    // a chunk a task: enough walks to interleave, and tasks for every core
    const CHUNK: usize = 512;
    if starts.len() <= CHUNK {
        vec![some(starts)]
    } else {
        starts.par_chunks(CHUNK).map(some).collect()
    }
}

/// The line without a final `\r`, as `BufRead::lines` gives a line that ended with `\r\n`.
fn strip_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// A move's letter as a byte: `U D L R`.
#[inline]
fn letter(dir: Dir) -> u8 {
    match dir {
        Dir::Up => b'U',
        Dir::Down => b'D',
        Dir::Left => b'L',
        Dir::Right => b'R',
    }
}

/// Appends one solvable board's answer line: its distance `d`, and with `letters` (`--solve`)
/// its moves' letters, `-` for none.
fn push_answer(out: &mut Vec<u8>, d: usize, letters: Option<impl Iterator<Item = u8>>) {
    push_number(out, d);
    if let Some(letters) = letters {
        out.push(b' ');
        if d == 0 {
            out.push(b'-');
        } else {
            out.extend(letters);
        }
    }
    out.push(b'\n');
}

/// Appends `v` in decimal; distances and move counts have at most three digits.
#[inline]
fn push_number(out: &mut Vec<u8>, v: usize) {
    let digit = |d: usize| b'0' + d as u8;
    match v {
        0..=9 => out.push(digit(v)),
        10..=99 => out.extend_from_slice(&[digit(v / 10), digit(v % 10)]),
        100..=999 => out.extend_from_slice(&[digit(v / 100), digit(v / 10 % 10), digit(v % 10)]),
        _ => out.extend_from_slice(v.to_string().as_bytes()),
    }
}
