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
//! All three ignore the blank. [`Estimator`] holds the goal cells of every tile and evaluates a
//! board in O(cells) (linear conflict: O(cells log cols)).

use crate::board::{Board, Shape};

/// A distance estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Heuristic {
    /// Tiles not on their goal cell (h1).
    Hamming,
    /// Sum of the tiles' row and column distances to their goal cells (h2).
    Manhattan,
    /// Manhattan plus two moves per tile that must leave its row or column to let the others pass.
    LinearConflict,
}

impl Heuristic {
    /// Every heuristic, weakest first.
    pub const ALL: [Heuristic; 3] = [Heuristic::Hamming, Heuristic::Manhattan, Heuristic::LinearConflict];

    /// The name used on the command line: `hamming`, `manhattan`, `linear-conflict`.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Hamming => "hamming",
            Heuristic::Manhattan => "manhattan",
            Heuristic::LinearConflict => "linear-conflict",
        }
    }

    /// Whether the estimate never exceeds the true distance (all three do not).
    pub fn is_admissible(self) -> bool {
        true
    }
}

/// The goal cell of every tile, for evaluating boards against one goal.
#[derive(Clone, Debug)]
pub struct Estimator {
    shape: Shape,
    /// `goal_row[tile]`, `goal_col[tile]`; index 0 (the blank) unused.
    goal_row: Vec<u16>,
    goal_col: Vec<u16>,
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
        Estimator { shape, goal_row, goal_col }
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

    /// The estimate `h` gives for a board whose cells, row-major, are `cells` (`0` for the blank).
    ///
    /// # Panics
    /// If `cells` is not a board of the estimator's shape (in debug builds, or by indexing).
    pub fn estimate(&self, h: Heuristic, cells: &[u16]) -> u32 {
        debug_assert_eq!(cells.len(), self.shape.cells());
        match h {
            Heuristic::Hamming => self.hamming(cells),
            Heuristic::Manhattan => self.manhattan(cells),
            Heuristic::LinearConflict => {
                let rows = (0..self.shape.rows()).map(|r| self.row_conflict(cells, r)).sum::<u32>();
                let cols = (0..self.shape.cols()).map(|c| self.col_conflict(cells, c)).sum::<u32>();
                self.manhattan(cells) + rows + cols
            }
        }
    }

    /// Tiles not on their goal cell.
    pub fn hamming(&self, cells: &[u16]) -> u32 {
        let cols = self.shape.cols();
        cells.iter().enumerate().filter(|&(cell, &t)| t != 0 && self.goal_of(t) != (cell / cols, cell % cols)).count()
            as u32
    }

    /// The Manhattan distance, summed over the tiles.
    pub fn manhattan(&self, cells: &[u16]) -> u32 {
        let cols = self.shape.cols();
        cells
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t != 0)
            .map(|(cell, &t)| self.tile_distance(t, cell / cols, cell % cols))
            .sum()
    }

    /// The Manhattan distance of `tile` standing at `(row, col)`.
    #[inline]
    pub fn tile_distance(&self, tile: u16, row: usize, col: usize) -> u32 {
        let (gr, gc) = self.goal_of(tile);
        (gr.abs_diff(row) + gc.abs_diff(col)) as u32
    }

    /// The linear-conflict moves of row `r`: twice the tiles that must leave it.
    pub fn row_conflict(&self, cells: &[u16], r: usize) -> u32 {
        let cols = self.shape.cols();
        let line = cells[r * cols..(r + 1) * cols]
            .iter()
            .filter(|&&t| t != 0 && self.goal_row[t as usize] as usize == r)
            .map(|&t| self.goal_col[t as usize]);
        2 * out_of_order(line)
    }

    /// The linear-conflict moves of column `c`: twice the tiles that must leave it.
    pub fn col_conflict(&self, cells: &[u16], c: usize) -> u32 {
        let cols = self.shape.cols();
        let line = (0..self.shape.rows())
            .map(|r| cells[r * cols + c])
            .filter(|&t| t != 0 && self.goal_col[t as usize] as usize == c)
            .map(|t| self.goal_row[t as usize]);
        2 * out_of_order(line)
    }
}

/// The least number of elements to remove from `keys` (distinct) so the rest increase: the length
/// less the longest increasing subsequence (patience sorting, O(k log k)).
fn out_of_order(keys: impl Iterator<Item = u16>) -> u32 {
    let mut tails: Vec<u16> = Vec::new();
    let mut len = 0u32;
    for k in keys {
        len += 1;
        match tails.binary_search(&k) {
            Ok(_) => {}
            Err(i) if i == tails.len() => tails.push(k),
            Err(i) => tails[i] = k,
        }
    }
    len - tails.len() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

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
