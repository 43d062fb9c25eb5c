//! A constructive solver for boards of any size: the "reduce" method, which places whole rows and
//! columns one at a time and never disturbs a placed tile (Parberry, "Solving the (n²−1)-puzzle
//! with 8/3 n³ expected moves", Algorithms 2015).
//!
//! [`reduce`] keeps an unsolved rectangle, at first the whole board. Each round it peels one line
//! (a row or a column) off a side of the rectangle that does not hold the goal's blank cell, so
//! the rectangle left always holds it; when the rectangle has at most nine cells it is finished by
//! an exact search over its own states. A line is placed tile by tile; its last two tiles are
//! placed together in a 3x2 window at its end (the corner trick), since the last cell of a line
//! can only be entered from below, where the blank cannot be when its tile arrives.
//!
//! The files: this one holds the driver (which side to peel, turning the rectangle so that the
//! line is its top row, writing it back); `place.rs` places one line of such a turned rectangle
//! (blank routes chosen by the harm they do as much as by their length, see below); `finish.rs`
//! is the exact search of the last few cells; `shorten.rs` shortens the finished solution (loops
//! cut, windows of it solved again).
//!
//! # Length
//! Every move changes the total Manhattan distance `M` by exactly one, so a solution of a board
//! at distance `M` has `M + 2H` moves, `H` the moves that push a tile away from its goal cell.
//! The routes of the blank are therefore chosen by their harm (moves that push a tile away)
//! first and their length second, not by length alone: on uniform random boards that brings the
//! length from about 3.9 to 2.5 to 2.9 times `M` (2.54 on 100x100, 2.57 on 50x50, 2.75 on 20x20;
//! Parberry's method averages about 4). Each line is then placed in the eight ways its sides and
//! ends allow (up to 40x40; past it the side chosen by shape, from either end), the cheapest
//! kept, and the solution shortened (`shorten.rs`): 2.52 on 100x100, 2.52 on 50x50, 2.54 on
//! 20x20, 2.23 on 6x6.

use crate::error::Error;
use crate::puzzle::board::{Board, Dir};

mod finish;
mod place;
mod shorten;

use place::Line;

/// The most cells a rectangle may have for every side of it to be tried (see [`Work::peel_best`]).
const ALL_SIDES_UP_TO: usize = 40 * 40;

/// Solves `start` towards `goal` by placing whole rows and columns in turn (see the module doc):
/// a solution about 2.2 to 2.55 times the Manhattan distance long on uniform random boards (the
/// module doc says why), never optimal, but found for any shape up to 127x127 in seconds (about
/// 4 s for 100x100, 2 s for 50x50, 0.2 s for 20x20, in release builds).
///
/// Returns `Ok(None)` when `start` cannot reach `goal` (the parity rule of
/// [`Board::is_solvable_to`]), otherwise the moves of the blank, which [`Board::apply`] carries out
/// one by one to reach `goal`. Any goal is accepted: the blank's goal cell anywhere and the tiles
/// in any order.
///
/// # Errors
/// [`Error::ShapeMismatch`] when the two boards have different shapes; [`Error::Internal`] if the
/// construction ever failed to find a route it relies on (a bug: it is checked not to happen).
pub fn reduce(start: &Board, goal: &Board) -> Result<Option<Vec<Dir>>, Error> {
    if start.shape() != goal.shape() {
        return Err(Error::ShapeMismatch { board: start.shape(), table: goal.shape() });
    }
    if !start.is_solvable_to(goal) {
        return Ok(None);
    }
    let mut work = Work::new(start, goal);
    work.solve().ok_or_else(|| Error::Internal(format!("reduce found no route for {start} to {goal}")))?;
    Ok(Some(shorten::shorten(start, work.moves)))
}

/// The cell next to `cell` in direction `d` on an `h` x `w` grid of the module's own (a line's
/// rectangle, a window's box: any size, one row or column included, which [`Dir::step`]'s
/// boards are not).
fn step_in(h: usize, w: usize, cell: usize, d: Dir) -> Option<usize> {
    let (r, c) = (cell / w, cell % w);
    match d {
        Dir::Up => (r > 0).then(|| cell - w),
        Dir::Down => (r + 1 < h).then(|| cell + w),
        Dir::Left => (c > 0).then(|| cell - 1),
        Dir::Right => (c + 1 < w).then(|| cell + 1),
    }
}

/// A rectangle of the board, rows `r0..r1` and columns `c0..c1`.
#[derive(Clone, Copy, Debug)]
struct Rect {
    r0: usize,
    r1: usize,
    c0: usize,
    c1: usize,
}

impl Rect {
    fn rows(self) -> usize {
        self.r1 - self.r0
    }
    fn cols(self) -> usize {
        self.c1 - self.c0
    }
}

/// A side of the unsolved rectangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Top,
    Bottom,
    Left,
    Right,
}

/// How a rectangle is turned so that the line to peel becomes its top row: the local cell
/// `(r, c)` is, before the flips, `(c, r)` of the rectangle when `transpose`, else `(r, c)`; the
/// flips then reverse the rectangle's rows or columns.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    rect: Rect,
    transpose: bool,
    flip_r: bool,
    flip_c: bool,
}

impl Frame {
    /// The frame that makes `side` of `rect` the local top row, its tiles placed from the local
    /// left; `reverse` places them from the other end instead.
    fn new(rect: Rect, side: Side, reverse: bool) -> Frame {
        let (transpose, flip_r, flip_c) = match side {
            Side::Top => (false, false, reverse),
            Side::Bottom => (false, true, reverse),
            Side::Left => (true, reverse, false),
            Side::Right => (true, reverse, true),
        };
        Frame { rect, transpose, flip_r, flip_c }
    }

    /// Local rows and columns.
    fn dims(self) -> (usize, usize) {
        if self.transpose {
            (self.rect.cols(), self.rect.rows())
        } else {
            (self.rect.rows(), self.rect.cols())
        }
    }

    /// The board's `(row, col)` of local `(r, c)`.
    fn to_board(self, r: usize, c: usize) -> (usize, usize) {
        let (x, y) = if self.transpose { (c, r) } else { (r, c) };
        let x = if self.flip_r { self.rect.rows() - 1 - x } else { x };
        let y = if self.flip_c { self.rect.cols() - 1 - y } else { y };
        (self.rect.r0 + x, self.rect.c0 + y)
    }

    /// The local `(r, c)` of the board's `(row, col)`, which must lie in the rectangle.
    fn to_local(self, row: usize, col: usize) -> (usize, usize) {
        let (x, y) = (row - self.rect.r0, col - self.rect.c0);
        let x = if self.flip_r { self.rect.rows() - 1 - x } else { x };
        let y = if self.flip_c { self.rect.cols() - 1 - y } else { y };
        if self.transpose {
            (y, x)
        } else {
            (x, y)
        }
    }

    /// The board's direction of each local one, in the order of [`place::DIRS`].
    fn dirs(self) -> [Dir; 4] {
        place::DIRS.map(|d| {
            let (dr, dc) = place::delta(d);
            let (dx, dy) = if self.transpose { (dc, dr) } else { (dr, dc) };
            let dx = if self.flip_r { -dx } else { dx };
            let dy = if self.flip_c { -dy } else { dy };
            match (dx, dy) {
                (-1, 0) => Dir::Up,
                (1, 0) => Dir::Down,
                (0, -1) => Dir::Left,
                _ => Dir::Right,
            }
        })
    }
}

/// The whole board being solved: its cells, each tile's goal cell, the unsolved rectangle and the
/// moves so far.
struct Work {
    cols: usize,
    cells: Vec<u16>,
    goal_of: Vec<u32>,
    blank_goal: (usize, usize),
    rect: Rect,
    moves: Vec<Dir>,
}

impl Work {
    fn new(start: &Board, goal: &Board) -> Work {
        let shape = start.shape();
        let mut goal_of = vec![0u32; shape.cells()];
        for (cell, &t) in goal.cells().iter().enumerate() {
            goal_of[t as usize] = cell as u32;
        }
        let cols = shape.cols();
        Work {
            cols,
            cells: start.cells().to_vec(),
            goal_of,
            blank_goal: (goal.blank() / cols, goal.blank() % cols),
            rect: Rect { r0: 0, r1: shape.rows(), c0: 0, c1: cols },
            moves: Vec::new(),
        }
    }

    /// Peels lines until the rectangle is small, then finishes it exactly.
    fn solve(&mut self) -> Option<()> {
        loop {
            let rect = self.rect;
            if rect.rows() * rect.cols() <= 9 {
                return self.finish();
            }
            self.peel_best()?;
        }
    }

    /// The sides that may be peeled: a row needs two rows left below it (the corner trick works in
    /// three), a column two columns, and no side may hold the goal's blank cell.
    fn sides(&self) -> Vec<Side> {
        let (r, b) = (self.rect, self.blank_goal);
        let mut sides = Vec::with_capacity(4);
        if r.rows() >= 3 {
            if b.0 != r.r0 {
                sides.push(Side::Top);
            }
            if b.0 != r.r1 - 1 {
                sides.push(Side::Bottom);
            }
        }
        if r.cols() >= 3 {
            if b.1 != r.c0 {
                sides.push(Side::Left);
            }
            if b.1 != r.c1 - 1 {
                sides.push(Side::Right);
            }
        }
        sides
    }

    /// Which side to peel next: along the longer dimension (keeping the rectangle near square, so
    /// that tiles travel short distances), the side farther from the goal's blank.
    fn choose_side(&self) -> Option<Side> {
        let sides = self.sides();
        let (r, b) = (self.rect, self.blank_goal);
        let rows_first = r.rows() >= r.cols();
        let score = |s: &Side| -> (bool, usize) {
            let is_row = matches!(s, Side::Top | Side::Bottom);
            let far = match s {
                Side::Top => b.0 - r.r0,
                Side::Bottom => r.r1 - 1 - b.0,
                Side::Left => b.1 - r.c0,
                Side::Right => r.c1 - 1 - b.1,
            };
            (is_row == rows_first, far)
        };
        sides.iter().copied().max_by_key(score)
    }

    /// Places the next line and shrinks the rectangle past it: every side that may be peeled is
    /// placed from either end, and the placing kept is the one whose moves plus the Manhattan
    /// distance it leaves are least (a solution's length is `M + 2H`, see the module doc, so that
    /// sum is what the rest can be expected to cost). Against one side chosen by shape (along
    /// the longer dimension, far from the goal's blank), placed from one end, this shortens 20x20
    /// solutions from 2.68 to 2.53 times the Manhattan distance and 100x100 ones from 2.53 to
    /// 2.49 (2.50 with both ends of one side alone), for up to eight placings of each line.
    fn peel_best(&mut self) -> Option<()> {
        let mut best: Option<(usize, Frame, Line, Side)> = None;
        // on large rectangles each placing is slow and the other sides gain least (under 0.2 %
        // on 100x100): only the side chosen by shape is placed there, from either end
        let sides = if self.rect.rows() * self.rect.cols() > ALL_SIDES_UP_TO {
            self.choose_side().into_iter().collect()
        } else {
            self.sides()
        };
        for (side, reverse) in sides.into_iter().flat_map(|s| [(s, false), (s, true)]) {
            let frame = Frame::new(self.rect, side, reverse);
            let mut line = self.extract(frame);
            if line.place_top_row().is_none() {
                continue;
            }
            let score = line.moves.len() + line.distance_below();
            if best.as_ref().is_none_or(|b| score < b.0) {
                best = Some((score, frame, line, side));
            }
        }
        let (_, frame, line, side) = best?;
        self.write_back(frame, &line);
        let r = &mut self.rect;
        match side {
            Side::Top => r.r0 += 1,
            Side::Bottom => r.r1 -= 1,
            Side::Left => r.c0 += 1,
            Side::Right => r.c1 -= 1,
        }
        Some(())
    }

    /// The rectangle turned by `frame`, as a [`Line`] to place.
    fn extract(&self, frame: Frame) -> Line {
        let (h, w) = frame.dims();
        let mut cells = vec![0u16; h * w];
        let mut goal = vec![(0u16, 0u16); self.cells.len()];
        for r in 0..h {
            for c in 0..w {
                let (row, col) = frame.to_board(r, c);
                let t = self.cells[row * self.cols + col];
                cells[r * w + c] = t;
                let g = self.goal_of[t as usize] as usize;
                let (gr, gc) = frame.to_local(g / self.cols, g % self.cols);
                goal[t as usize] = (gr as u16, gc as u16);
            }
        }
        Line::new(h, w, cells, goal, frame.dirs())
    }

    /// Copies a placed line's cells and moves back to the board.
    fn write_back(&mut self, frame: Frame, line: &Line) {
        let (h, w) = frame.dims();
        for r in 0..h {
            for c in 0..w {
                let (row, col) = frame.to_board(r, c);
                self.cells[row * self.cols + col] = line.cells[r * w + c];
            }
        }
        self.moves.extend_from_slice(&line.moves);
    }

    /// Solves the last rectangle exactly.
    fn finish(&mut self) -> Option<()> {
        let r = self.rect;
        let (h, w) = (r.rows(), r.cols());
        let mut cells = Vec::with_capacity(h * w);
        let mut goals = Vec::with_capacity(h * w);
        for row in r.r0..r.r1 {
            for col in r.c0..r.c1 {
                let t = self.cells[row * self.cols + col];
                cells.push(t);
                let g = self.goal_of[t as usize] as usize;
                let (gr, gc) = (g / self.cols, g % self.cols);
                // every tile left has its goal inside the rectangle: lines are peeled whole
                if !(r.r0..r.r1).contains(&gr) || !(r.c0..r.c1).contains(&gc) {
                    return None;
                }
                goals.push(((gr - r.r0) * w + gc - r.c0) as u8);
            }
        }
        let path = finish::solve(h, w, &cells, &goals)?;
        self.moves.extend_from_slice(&path);
        Some(())
    }
}

#[cfg(test)]
mod tests;
