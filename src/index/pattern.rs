//! The pattern index: the cells of a chosen group of `k` tiles on a board of `n` cells, ranked
//! into `0..n!/(n-k)!` (the number of ways to place `k` distinct tiles on `n` cells).
//!
//! The rank is the Lehmer code of the partial permutation, most significant digit first: with
//! the group's tiles in ascending label order `t_0 < t_1 < ...` on cells `c_0, c_1, ...`, digit `i`
//! is `c_i` less the number of earlier tiles on lower cells (so `0 <= digit_i < n - i`), and the
//! rank is `sum digit_i * (n-i-1)!/(n-k)!`. Ranking is O(k) with a popcount per tile; cells are
//! held in a `u64` bit mask, so boards go up to 64 cells.
//!
//! The blank and the tiles outside the group are not part of the rank: a pattern table stores
//! one entry per placement of the group (see [`crate::table::pattern`]).

use crate::error::Error;
use crate::puzzle::board::{Board, Shape};

/// The most cells a pattern index handles (cells are bits of a `u64`).
pub const MAX_PATTERN_CELLS: usize = 64;

/// The most tiles in a group: `u8` cell arrays of this length live on the stack in the searches.
pub const MAX_GROUP: usize = 16;

/// The rank of the placements of one group of tiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternIndex {
    shape: Shape,
    /// The group's tiles in ascending order: the order of the rank's digits.
    tiles: Vec<u16>,
    /// `weights[i] = (n-i-1)!/(n-k)!`, the place value of digit `i`.
    weights: Vec<u64>,
    /// `u64::MAX / weights[i] + 1`: Lemire's multiplier for an exact division by the weight of
    /// any 32-bit number, used when `len` fits in 32 bits.
    magic: Vec<u64>,
    len: u64,
}

impl PatternIndex {
    /// The index of the placements of `tiles` (any order, sorted here) on `shape`.
    ///
    /// # Errors
    /// [`Error::BadShape`] for a board of more than [`MAX_PATTERN_CELLS`] cells; [`Error::BadOption`]
    /// for an empty group, a tile that is not on the board (the blank, 0, is not a tile), a tile
    /// named twice, more than [`MAX_GROUP`] tiles, or a group that leaves fewer than two tiles
    /// outside it (then some placements occur in no solvable board).
    pub fn new(shape: Shape, tiles: &[u16]) -> Result<PatternIndex, Error> {
        let n = shape.cells();
        if n > MAX_PATTERN_CELLS {
            return Err(Error::BadShape(format!(
                "{shape}: pattern tables go up to {MAX_PATTERN_CELLS} cells, and this board has {n}"
            )));
        }
        let mut sorted = tiles.to_vec();
        sorted.sort_unstable();
        if sorted.is_empty() {
            return Err(Error::BadOption("a pattern group needs at least one tile".into()));
        }
        if let Some(&t) = sorted.iter().find(|&&t| t == 0 || t as usize >= n) {
            return Err(Error::BadOption(format!("tile {t} is not a tile of {shape} (tiles are 1 to {})", n - 1)));
        }
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(Error::BadOption(format!("tile {} is named twice in one group", w[0])));
        }
        let k = sorted.len();
        if k > MAX_GROUP {
            return Err(Error::BadOption(format!("a group of {k} tiles: groups go up to {MAX_GROUP} tiles")));
        }
        // With two or more other tiles, every placement of the group occurs in some solvable
        // board (two indistinguishable tiles swapped fix the parity); with fewer, half do not.
        if k + 3 > n {
            return Err(Error::BadOption(format!(
                "a group of {k} tiles on {shape} leaves fewer than two other tiles; a group leaves at \
                 least two (up to {} tiles here), and a whole board is the perfect table's job \
                 (`table build --board {shape}`, up to 12 cells)",
                n - 3
            )));
        }
        let mut weights = vec![1u64; k];
        let mut len = 1u64;
        for i in (0..k).rev() {
            weights[i] = len;
            len = len
                .checked_mul((n - i) as u64)
                .ok_or_else(|| Error::BadOption(format!("a group of {k} tiles on {shape} has too many placements")))?;
        }
        let magic = weights.iter().map(|&w| (u64::MAX / w).wrapping_add(1)).collect();
        Ok(PatternIndex { shape, tiles: sorted, weights, magic, len })
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The group's tiles, ascending: `cells` arguments list their cells in this order.
    pub fn tiles(&self) -> &[u16] {
        &self.tiles
    }

    /// The number of tiles in the group.
    pub fn k(&self) -> usize {
        self.tiles.len()
    }

    /// The number of placements, `n!/(n-k)!`: the table's entry count.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Always false: a group has at least one tile.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The place value of each digit: `weights()[i] = (n-i-1)!/(n-k)!`.
    pub fn weights(&self) -> &[u64] {
        &self.weights
    }

    /// The rank of the placement with tile `tiles()[i]` on `cells[i]`.
    ///
    /// The cells must be distinct and on the board (debug-checked): callers hold them from a
    /// valid board or from [`PatternIndex::unrank`].
    #[inline]
    pub fn rank(&self, cells: &[u8]) -> u64 {
        debug_assert_eq!(cells.len(), self.k());
        let mut used = 0u64;
        let mut rank = 0u64;
        for (i, &c) in cells.iter().enumerate() {
            let below = (used & ((1u64 << c) - 1)).count_ones() as u64;
            debug_assert!(used & (1u64 << c) == 0, "cell {c} twice");
            used |= 1u64 << c;
            rank += (c as u64 - below) * self.weights[i];
        }
        rank
    }

    /// The placement of rank `rank` (`< len()`): writes the cell of `tiles()[i]` to `cells[i]` and
    /// returns the mask of occupied cells.
    #[inline]
    pub fn unrank(&self, rank: u64, cells: &mut [u8]) -> u64 {
        debug_assert!(rank < self.len);
        if self.len <= u32::MAX as u64 && self.shape.cells() <= 16 {
            self.unrank_small(rank, cells)
        } else {
            self.unrank_any(rank, cells)
        }
    }

    /// [`PatternIndex::unrank`] for ranks below 2^32 on boards of at most 16 cells: divisions by
    /// multiplication, and the free cells as a list of nibbles from which the digit-th is taken.
    #[inline]
    fn unrank_small(&self, mut rank: u64, cells: &mut [u8]) -> u64 {
        let mut free: u64 = 0xFEDC_BA98_7654_3210;
        let mut used = 0u64;
        for (i, cell) in cells.iter_mut().enumerate().take(self.k()) {
            // the last weight is 1, whose multiplier would be 2^64
            let digit = if i + 1 == self.k() { rank } else { ((self.magic[i] as u128 * rank as u128) >> 64) as u64 };
            rank -= digit * self.weights[i];
            let shift = 4 * digit as u32;
            let c = (free >> shift) & 15;
            let low = (1u64 << shift) - 1;
            free = (free & low) | ((free >> 4) & !low);
            *cell = c as u8;
            used |= 1u64 << c;
        }
        used
    }

    fn unrank_any(&self, mut rank: u64, cells: &mut [u8]) -> u64 {
        let mut used = 0u64;
        for (i, cell) in cells.iter_mut().enumerate().take(self.k()) {
            let w = self.weights[i];
            let digit = rank / w;
            rank -= digit * w;
            // the digit-th free cell
            let c = nth_zero(used, digit as u32);
            *cell = c as u8;
            used |= 1u64 << c;
        }
        used
    }

    /// The group's cells on `board` in rank order.
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] for a board of another shape.
    pub fn cells_of(&self, board: &Board) -> Result<Vec<u8>, Error> {
        if board.shape() != self.shape {
            return Err(Error::ShapeMismatch { board: board.shape(), table: self.shape });
        }
        let mut at = vec![0u8; self.shape.cells()];
        for (cell, &t) in board.cells().iter().enumerate() {
            at[t as usize] = cell as u8;
        }
        Ok(self.tiles.iter().map(|&t| at[t as usize]).collect())
    }

    /// The rank of the group's placement on `board`.
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] for a board of another shape.
    pub fn rank_board(&self, board: &Board) -> Result<u64, Error> {
        Ok(self.rank(&self.cells_of(board)?))
    }
}

/// The position of the `n`-th (from 0) zero bit of `mask`.
#[inline]
fn nth_zero(mask: u64, n: u32) -> u32 {
    let mut free = !mask;
    for _ in 0..n {
        free &= free - 1;
    }
    free.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every placement of 3 tiles on 3x3 and of 2 on 2x3, ranked by a plain enumeration in
    /// lexicographic order of the cells: the rank must agree, and unrank must invert it.
    #[test]
    fn rank_is_lexicographic_order_of_placements() {
        for (shape, tiles) in [
            (Shape::new(3, 3).unwrap(), vec![1u16, 2, 3]),
            (Shape::new(2, 3).unwrap(), vec![5, 2]),
            (Shape::new(3, 4).unwrap(), vec![1, 7, 11, 4]),
        ] {
            let index = PatternIndex::new(shape, &tiles).unwrap();
            let n = shape.cells();
            let k = tiles.len();
            let mut expected = 0u64;
            let mut cells = vec![0u8; k];
            let mut out = vec![0u8; k];
            // odometer over k-tuples of cells, lexicographic; keep the ones with distinct cells
            let mut digits = vec![0usize; k];
            loop {
                let distinct = (0..k).all(|i| (0..i).all(|j| digits[i] != digits[j]));
                if distinct {
                    for i in 0..k {
                        cells[i] = digits[i] as u8;
                    }
                    assert_eq!(index.rank(&cells), expected, "{cells:?}");
                    let used = index.unrank(expected, &mut out);
                    assert_eq!(out, cells);
                    assert_eq!(used, cells.iter().fold(0u64, |m, &c| m | 1 << c));
                    expected += 1;
                }
                let mut i = k;
                loop {
                    if i == 0 {
                        break;
                    }
                    i -= 1;
                    digits[i] += 1;
                    if digits[i] < n {
                        break;
                    }
                    digits[i] = 0;
                    if i == 0 {
                        i = usize::MAX;
                        break;
                    }
                }
                if i == usize::MAX {
                    break;
                }
            }
            assert_eq!(expected, index.len());
        }
    }

    #[test]
    fn bad_groups_are_refused() {
        let s = Shape::new(4, 4).unwrap();
        assert!(PatternIndex::new(s, &[]).is_err());
        assert!(PatternIndex::new(s, &[0, 1]).is_err());
        assert!(PatternIndex::new(s, &[16]).is_err());
        assert!(PatternIndex::new(s, &[3, 3]).is_err());
        assert!(PatternIndex::new(s, &(1..16).collect::<Vec<_>>()).is_err());
        assert!(PatternIndex::new(s, &(1..15).collect::<Vec<_>>()).is_err());
        assert_eq!(PatternIndex::new(s, &(1..14).collect::<Vec<_>>()).unwrap().len(), 20_922_789_888_000 / 6);
        assert_eq!(PatternIndex::new(s, &[8, 9, 10, 11, 12, 13, 14, 15]).unwrap().len(), 518_918_400);
        assert!(PatternIndex::new(Shape::new(9, 9).unwrap(), &[1]).is_err());
    }
}
