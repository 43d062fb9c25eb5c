//! Estimates of the distance to a goal, for heuristic search on boards of any size.
//!
//! - [`Heuristic::Hamming`] (h1): the tiles out of place.
//! - [`Heuristic::Manhattan`] (h2): the sum of each tile's row and column distance to its goal cell.
//! - [`Heuristic::LinearConflict`]: Manhattan plus, for each row and each column, twice the least
//!   number of tiles that must leave the line so the rest are in goal order (Hansson, Mayer and
//!   Yung, 1992). Two tiles in their goal line but in reversed order cannot pass each other in it:
//!   one must step out and back, two moves Manhattan does not count. Counting two moves per
//!   *pair* overestimates (`3 2 1` in a goal row `1 2 3` has three pairs, but moving two tiles out
//!   suffices), so the least number of tiles is used: the line's length less its longest run of
//!   tiles already in goal order. Admissible and consistent.
//!
//! - [`Heuristic::Nilsson`]: Nilsson's P + 3S (1980; as in the Prolog tutorial), Manhattan plus three times a
//!   *sequence score*: walking the outer ring of cells clockwise, 2 for every tile not followed by
//!   the tile that follows it in the goal, and 1 for every interior tile off its goal cell. On the
//!   3x3 snail goal this is Nilsson's definition exactly (a piece in the centre scores 1); on other
//!   goals it is the same rule with the goal's own ring. It is **not admissible**: it can exceed
//!   the true distance, so A* with it finds a solution that may not be optimal.
//!
//! None counts the blank. [`Estimator`] holds the goal cells of every tile and evaluates a
//! board in O(cells) (linear conflict: O(cells log cols)).
//!
//! The Prolog tutorial's listing differs from Nilsson's text in two ways, neither taken here:
//! its `p_fcn` adds the lower-left cell's distance twice and leaves out the bottom-middle one, and
//! its `s_fcn` scores the blank like a tile (2 unless the blank is followed by tile 1).

use crate::puzzle::board::{Board, Shape};

/// A tile as a board stores it: `u16`, or `u8` for boards of up to 256 cells (0 is the blank).
pub trait Tile: Copy + Into<usize> {}

impl Tile for u8 {}
impl Tile for u16 {}

/// A distance estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Heuristic {
    /// Tiles not on their goal cell (h1).
    Hamming,
    /// Sum of the tiles' row and column distances to their goal cells (h2).
    Manhattan,
    /// Manhattan plus two moves per tile that must leave its row or column to let the others pass.
    LinearConflict,
    /// Nilsson's P + 3S: Manhattan plus three times the sequence score. Not admissible.
    Nilsson,
}

impl Heuristic {
    /// The admissible heuristics, weakest first.
    pub const ADMISSIBLE: [Heuristic; 3] = [Heuristic::Hamming, Heuristic::Manhattan, Heuristic::LinearConflict];

    /// Every heuristic: the admissible ones weakest first, then Nilsson's.
    pub const ALL: [Heuristic; 4] =
        [Heuristic::Hamming, Heuristic::Manhattan, Heuristic::LinearConflict, Heuristic::Nilsson];

    /// The name used on the command line: `hamming`, `manhattan`, `linear-conflict`, `nilsson`.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Hamming => "hamming",
            Heuristic::Manhattan => "manhattan",
            Heuristic::LinearConflict => "linear-conflict",
            Heuristic::Nilsson => "nilsson",
        }
    }

    /// The heuristic named `name` (as [`Heuristic::name`] gives it; `h1`, `h2`, `lc` and
    /// `misplaced` are accepted too).
    pub fn from_name(name: &str) -> Option<Heuristic> {
        match name.trim().to_ascii_lowercase().as_str() {
            "hamming" | "h1" | "misplaced" => Some(Heuristic::Hamming),
            "manhattan" | "h2" => Some(Heuristic::Manhattan),
            "linear-conflict" | "linear_conflict" | "lc" => Some(Heuristic::LinearConflict),
            "nilsson" | "p+3s" => Some(Heuristic::Nilsson),
            _ => None,
        }
    }

    /// Whether the estimate never exceeds the true distance. Nilsson's does.
    pub fn is_admissible(self) -> bool {
        self != Heuristic::Nilsson
    }
}

/// The goal cell of every tile, for evaluating boards against one goal.
#[derive(Clone, Debug)]
pub struct Estimator {
    shape: Shape,
    /// `goal_row[tile]`, `goal_col[tile]`; index 0 (the blank) unused.
    goal_row: Vec<u16>,
    goal_col: Vec<u16>,
    /// The goal's tiles, row-major.
    goal: Vec<u16>,
    /// The outer ring of cells, clockwise from the top-left corner.
    ring: Vec<usize>,
    /// `ring_next[tile]`: the tile the goal puts in the ring cell after this tile's, or
    /// `u16::MAX` when the goal puts the tile inside the ring.
    ring_next: Vec<u16>,
}

impl Estimator {
    /// An estimator for boards of the goal's shape.
    pub fn new(goal: &Board) -> Estimator {
        let shape = goal.shape();
        let n = shape.cells();
        let mut goal_row = vec![0u16; n];
        let mut goal_col = vec![0u16; n];
        for (cell, &t) in goal.cells().iter().enumerate() {
            goal_row[t as usize] = (cell / shape.cols()) as u16;
            goal_col[t as usize] = (cell % shape.cols()) as u16;
        }
        let ring = ring_cells(shape);
        let mut ring_next = vec![u16::MAX; n];
        for (k, &cell) in ring.iter().enumerate() {
            let next = ring[(k + 1) % ring.len()];
            ring_next[goal.cells()[cell] as usize] = goal.cells()[next];
        }
        Estimator { shape, goal_row, goal_col, goal: goal.cells().to_vec(), ring, ring_next }
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The goal row and column of `tile`.
    #[inline]
    pub fn goal_of(&self, tile: u16) -> (usize, usize) {
        (self.goal_row[tile as usize] as usize, self.goal_col[tile as usize] as usize)
    }

    /// The estimate `h` gives for a board whose cells, row-major, are `cells` (`0` for the blank;
    /// tiles as `u16`, or as `u8` for boards of up to 256 cells).
    ///
    /// # Panics
    /// If `cells` is not a board of the estimator's shape (in debug builds, or by indexing).
    pub fn estimate<T: Tile>(&self, h: Heuristic, cells: &[T]) -> u32 {
        debug_assert_eq!(cells.len(), self.shape.cells());
        match h {
            Heuristic::Hamming => self.hamming(cells),
            Heuristic::Manhattan => self.manhattan(cells),
            Heuristic::LinearConflict => {
                let rows = (0..self.shape.rows()).map(|r| self.row_conflict(cells, r)).sum::<u32>();
                let cols = (0..self.shape.cols()).map(|c| self.col_conflict(cells, c)).sum::<u32>();
                self.manhattan(cells) + rows + cols
            }
            Heuristic::Nilsson => self.manhattan(cells) + 3 * self.sequence_score(cells),
        }
    }

    /// For an estimate that adds up over the tiles (misplaced tiles, Manhattan), what each tile
    /// adds on each cell: `costs[cell * n + tile]`, `n` the board's cells (the blank's, tile 0,
    /// all 0), so that `estimate(h, cells)` is the sum of `costs[c * n + cells[c]]`. `None` for
    /// the estimates that do not add up (linear conflict, Nilsson's).
    pub fn tile_costs(&self, h: Heuristic) -> Option<Vec<u32>> {
        let (n, cols) = (self.shape.cells(), self.shape.cols());
        let cost: fn(&Estimator, u16, usize, usize) -> u32 = match h {
            Heuristic::Hamming => |e, t, r, c| u32::from(e.goal[r * e.shape.cols() + c] != t),
            Heuristic::Manhattan => |e, t, r, c| e.tile_distance(t, r, c),
            Heuristic::LinearConflict | Heuristic::Nilsson => return None,
        };
        let mut costs = vec![0; n * n];
        for cell in 0..n {
            for t in 1..n {
                costs[cell * n + t] = cost(self, t as u16, cell / cols, cell % cols);
            }
        }
        Some(costs)
    }

    /// Nilsson's sequence score S: around the outer ring clockwise, 2 for every tile not followed
    /// by the tile the goal puts after it; 1 for every interior tile off its goal cell.
    pub fn sequence_score<T: Tile>(&self, cells: &[T]) -> u32 {
        let ring = &self.ring;
        let mut s = 0;
        for (k, &cell) in ring.iter().enumerate() {
            let t = cells[cell].into();
            if t != 0 && cells[ring[(k + 1) % ring.len()]].into() != self.ring_next[t] as usize {
                s += 2;
            }
        }
        let (rows, cols) = (self.shape.rows(), self.shape.cols());
        for r in 1..rows - 1 {
            for c in 1..cols - 1 {
                let cell = r * cols + c;
                let t = cells[cell].into();
                if t != 0 && t != self.goal[cell] as usize {
                    s += 1;
                }
            }
        }
        s
    }

    /// Tiles not on their goal cell.
    pub fn hamming<T: Tile>(&self, cells: &[T]) -> u32 {
        cells.iter().zip(&self.goal).filter(|&(&t, &g)| t.into() != 0 && t.into() != g as usize).count() as u32
    }

    /// The Manhattan distance, summed over the tiles.
    pub fn manhattan<T: Tile>(&self, cells: &[T]) -> u32 {
        let cols = self.shape.cols();
        cells
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t.into() != 0)
            .map(|(cell, &t)| self.tile_distance(t.into() as u16, cell / cols, cell % cols))
            .sum()
    }

    /// The Manhattan distance of `tile` standing at `(row, col)`.
    #[inline]
    pub fn tile_distance(&self, tile: u16, row: usize, col: usize) -> u32 {
        let (gr, gc) = self.goal_of(tile);
        (gr.abs_diff(row) + gc.abs_diff(col)) as u32
    }

    /// The Manhattan distance of `tile` standing on `cell`.
    #[inline]
    pub fn cell_distance(&self, tile: u16, cell: usize) -> u32 {
        let cols = self.shape.cols();
        self.tile_distance(tile, cell / cols, cell % cols)
    }

    /// The estimate `kind` gives after the tile on `to` slides onto the blank at `blank`, made
    /// from the estimate `h` before and the move alone; `None` for Nilsson's, which is made
    /// afresh. `cells` is the board before the move; it is the same again on return.
    #[inline]
    pub fn after<T: Tile>(&self, kind: Heuristic, cells: &mut [T], blank: usize, to: usize, h: u32) -> Option<u32> {
        let tile = cells[to].into();
        match kind {
            Heuristic::Hamming => {
                let was = (tile == self.goal[to] as usize) as u32;
                let now = (tile == self.goal[blank] as usize) as u32;
                Some(h + was - now)
            }
            Heuristic::Manhattan => Some(self.manhattan_after(h, tile as u16, blank, to)),
            Heuristic::LinearConflict => Some(self.linear_conflict_after(cells, blank, to, h)),
            Heuristic::Nilsson => None,
        }
    }

    /// The Manhattan distance after the tile on `to` slides onto the blank at `blank`, from the
    /// distance `h` before; `tile` is the tile on `to`.
    #[inline]
    pub fn manhattan_after(&self, h: u32, tile: u16, blank: usize, to: usize) -> u32 {
        h + self.cell_distance(tile, blank) - self.cell_distance(tile, to)
    }

    /// The linear-conflict estimate after the tile on `to` slides onto the blank at `blank`, from
    /// the estimate `h` before. `cells` is the board before the move; it is the same again on
    /// return.
    ///
    /// A vertical move takes the tile from one row to another and keeps every column's order; a
    /// horizontal one likewise for columns. Only a line the tile belongs to in the goal counts
    /// it, so at most one line (the one it leaves or the one it enters, whichever is its goal
    /// line) changes its conflicts.
    #[inline]
    pub fn linear_conflict_after<T: Tile>(&self, cells: &mut [T], blank: usize, to: usize, h: u32) -> u32 {
        let cols = self.shape.cols();
        let tile = cells[to].into() as u16;
        let manhattan = self.manhattan_after(h, tile, blank, to);
        let (goal_row, goal_col) = self.goal_of(tile);
        let (line, vertical) = if blank / cols != to / cols {
            if goal_row != blank / cols && goal_row != to / cols {
                return manhattan;
            }
            (goal_row, true)
        } else {
            if goal_col != blank % cols && goal_col != to % cols {
                return manhattan;
            }
            (goal_col, false)
        };
        let conflict =
            |cells: &[T]| if vertical { self.row_conflict(cells, line) } else { self.col_conflict(cells, line) };
        let before = conflict(cells);
        cells.swap(blank, to);
        let after = conflict(cells);
        cells.swap(blank, to);
        manhattan + after - before
    }

    /// The linear-conflict moves of row `r`: twice the tiles that must leave it.
    pub fn row_conflict<T: Tile>(&self, cells: &[T], r: usize) -> u32 {
        let cols = self.shape.cols();
        let line = cells[r * cols..(r + 1) * cols]
            .iter()
            .map(|&t| t.into())
            .filter(|&t| t != 0 && self.goal_row[t] as usize == r)
            .map(|t| self.goal_col[t]);
        2 * out_of_order(line)
    }

    /// The linear-conflict moves of column `c`: twice the tiles that must leave it.
    pub fn col_conflict<T: Tile>(&self, cells: &[T], c: usize) -> u32 {
        let line = cells[c..]
            .iter()
            .step_by(self.shape.cols())
            .map(|&t| t.into())
            .filter(|&t| t != 0 && self.goal_col[t] as usize == c)
            .map(|t| self.goal_row[t]);
        2 * out_of_order(line)
    }
}

/// The cells of the board's outer ring, clockwise from the top-left corner.
fn ring_cells(shape: Shape) -> Vec<usize> {
    let (rows, cols) = (shape.rows(), shape.cols());
    let mut ring: Vec<usize> = (0..cols).collect();
    ring.extend((1..rows).map(|r| r * cols + cols - 1));
    ring.extend((0..cols - 1).rev().map(|c| (rows - 1) * cols + c));
    ring.extend((1..rows - 1).rev().map(|r| r * cols));
    ring
}

/// The least number of keys to remove (all distinct) so the rest increase: their number less the
/// longest increasing subsequence (patience sorting, O(k log k), no allocation).
fn out_of_order(keys: impl Iterator<Item = u16>) -> u32 {
    let mut tails = [0u16; crate::puzzle::board::MAX_SIDE];
    let (mut len, mut count) = (0usize, 0u32);
    for k in keys {
        count += 1;
        let i = tails[..len].partition_point(|&t| t < k);
        tails[i] = k;
        if i == len {
            len += 1;
        }
    }
    count - len as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_goes_clockwise() {
        assert_eq!(ring_cells(Shape::EIGHT), vec![0, 1, 2, 5, 8, 7, 6, 3]);
        assert_eq!(ring_cells(Shape::new(2, 3).unwrap()), vec![0, 1, 2, 5, 4, 3]);
    }

    #[test]
    fn nilsson_on_the_snail_goal_is_the_textbook_score() {
        let shape = Shape::EIGHT;
        let goal = Board::parse(shape, "1 2 3 8 0 4 7 6 5").unwrap();
        let est = Estimator::new(&goal);
        assert_eq!(est.estimate(Heuristic::Nilsson, goal.cells()), 0);
        // the Prolog tutorial's example: 0 8 1 / 2 4 3 / 7 6 5. Ring clockwise: _ 8 1 3 5 6 7 2. Tiles not
        // followed by their successor: 1 (by 3), 3 (by 5), 7 (by 2), 2 (by _): 4 x 2 (8 is
        // followed by 1, as in the goal); the centre holds 4: 1. S = 9. Manhattan: 8 2, 1 2,
        // 2 2, 4 1, 3 1 = 8.
        let b = Board::parse(shape, "0 8 1 2 4 3 7 6 5").unwrap();
        assert_eq!(est.sequence_score(b.cells()), 9);
        assert_eq!(est.manhattan(b.cells()), 8);
        assert_eq!(est.estimate(Heuristic::Nilsson, b.cells()), 8 + 27);
    }

    #[test]
    fn out_of_order_counts_tiles_not_pairs() {
        assert_eq!(out_of_order([0u16, 1, 2].into_iter()), 0);
        assert_eq!(out_of_order([1u16, 0].into_iter()), 1);
        // three reversed pairs, but two tiles leaving the line suffice
        assert_eq!(out_of_order([2u16, 1, 0].into_iter()), 2);
        assert_eq!(out_of_order([3u16, 0, 1, 2].into_iter()), 1);
        assert_eq!(out_of_order(std::iter::empty()), 0);
    }
}
