//! Permutation rank and unrank, and the state index of a perfect table.
//!
//! # The index
//! A table for a board of `n` cells has exactly `n!/2` entries, one per state reachable from the
//! goal. Tiles are first relabelled so that the goal reads `0, 1, ..., n-2` in row-major order
//! with the blank skipped (so every goal uses the same index). A state with the blank in cell
//! `b` whose relabelled tiles, read row-major with the blank skipped, have lexicographic rank `r`
//! (Lehmer code) gets
//!
//! ```text
//! index = b * (n-1)!/2 + (r >> 1)
//! ```
//!
//! This is a bijection onto `0..n!/2`: for a fixed blank cell the reachable tile sequences all
//! have one parity (Johnson & Story 1879: a horizontal move keeps the sequence, a vertical move
//! carries a tile past `cols - 1` others), and ranks `2h` and `2h + 1` differ by swapping the last
//! two elements, so exactly one of each pair is reachable and the dropped bit is implied. The
//! tempting shortcut of halving the rank of the whole permutation, blank included, is *not* a
//! bijection (on 3x3 it hits 161,280 values instead of 181,440).
//!
//! The layout also makes neighbours cheap: a horizontal move leaves the tile sequence unchanged,
//! so its neighbour sits at the same offset in the next or previous blank block.

use std::sync::OnceLock;

use crate::error::Error;
use crate::index::moves::Moves;
use crate::puzzle::board::{Board, Dir, Shape};

/// The largest board, in cells, that a perfect table covers (`14!/2 = 43,589,145,600` entries,
/// the 2x7 and 7x2; a rank then needs 64 bits, an offset in a blank block, `< 13!/2`, still 32).
pub const MAX_TABLE_CELLS: usize = 15;

/// The largest board, in cells, whose perfect table is built with one byte a state by default
/// (`12!/2 = 239,500,800` bytes); larger boards are built at two bits a state.
pub const MAX_BYTE_TABLE_CELLS: usize = 12;

/// `FACT[k] = k!` for `k <= 20`.
pub const FACT: [u64; 21] = {
    let mut f = [1u64; 21];
    let mut k = 1;
    while k < 21 {
        f[k] = f[k - 1] * k as u64;
        k += 1;
    }
    f
};

/// The lexicographic rank (Lehmer code) of a permutation of `0..perm.len()`, and whether the
/// permutation is odd.
///
/// Runs in O(m) with a bit mask and popcount: the Lehmer digit of position `i` is the number of
/// later elements smaller than `perm[i]`, which is `perm[i]` minus the smaller elements already seen.
///
/// # Panics
/// In debug builds, if `perm` is longer than 20 or not a permutation of `0..len`.
#[inline]
pub fn lex_rank(perm: &[u8]) -> (u64, bool) {
    let m = perm.len();
    debug_assert!(m <= 20);
    let mut seen = 0u32;
    let mut rank = 0u64;
    let mut inversions = 0u32;
    for (i, &x) in perm.iter().enumerate() {
        debug_assert!((x as usize) < m && seen & (1 << x) == 0, "not a permutation");
        let digit = x as u32 - (seen & ((1u32 << x) - 1)).count_ones();
        rank += digit as u64 * FACT[m - 1 - i];
        inversions += digit;
        seen |= 1 << x;
    }
    (rank, inversions & 1 == 1)
}

/// Writes into `out` the permutation of `0..out.len()` whose lexicographic rank is `rank`, and
/// returns whether it is odd.
///
/// # Panics
/// In debug builds, if `rank >= out.len()!` or `out` is longer than 16.
#[inline]
pub fn lex_unrank(rank: u64, out: &mut [u8]) -> bool {
    let m = out.len();
    debug_assert!(m <= 16 && rank < FACT[m]);
    let mut rest = Remaining::new();
    let mut inversions = 0u64;
    for (i, slot) in out.iter_mut().enumerate() {
        let k = m - 1 - i;
        // The Lehmer digit of weight k! is floor(rank / k!) mod (k + 1).
        let digit = (rank / FACT[k]) % (k as u64 + 1);
        inversions += digit;
        *slot = rest.take(digit as u32);
    }
    inversions & 1 == 1
}

/// [`lex_unrank`] for a length known at compile time, `M <= 12` (so `rank < 12!` fits in 32 bits):
/// the digits come out of successive divisions by the constants `1, 2, ..., M` (the factorial
/// number system, lowest weight first), which compile to multiplications.
#[inline(always)]
fn lex_unrank_fixed<const M: usize>(rank: u64, out: &mut [u8; MAX_TABLE_CELLS]) -> bool {
    debug_assert!(M <= MAX_TABLE_CELLS && rank < FACT[M]);
    let mut r = rank as u32;
    let mut digits = [0u32; MAX_TABLE_CELLS];
    let mut inversions = 0u32;
    for (j, digit) in digits.iter_mut().enumerate().take(M) {
        // the digit of weight j! (sequence position M - 1 - j) is r mod (j + 1)
        let base = j as u32 + 1;
        *digit = r % base;
        r /= base;
        inversions += *digit;
    }
    let mut rest = Remaining::new();
    for (i, slot) in out.iter_mut().enumerate().take(M) {
        *slot = rest.take(digits[M - 1 - i]);
    }
    inversions & 1 == 1
}

/// The elements not yet used by an unrank, in ascending order, one per 4-bit nibble.
pub(crate) struct Remaining(u64);

impl Remaining {
    pub(crate) fn new() -> Remaining {
        Remaining(0xFEDC_BA98_7654_3210)
    }

    /// Removes and returns the `k`-th smallest remaining element, in O(1).
    #[inline(always)]
    pub(crate) fn take(&mut self, k: u32) -> u8 {
        let shift = 4 * k;
        let x = (self.0 >> shift) & 0xF;
        let low = (1u64 << shift) - 1;
        self.0 = (self.0 & low) | ((self.0 >> 4) & !low);
        x as u8
    }
}

/// Tiles relabelled and read in row-major order with the blank skipped, plus the blank's cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// The cell holding the blank.
    pub blank: usize,
    /// The relabelled tiles (`0..n-1`) in row-major order, blank skipped; only `..n-1` is used.
    pub seq: [u8; MAX_TABLE_CELLS],
}

/// The bijection between the states reachable from one goal and `0..n!/2`; see the module doc.
#[derive(Clone, Debug)]
pub struct StateIndex {
    shape: Shape,
    goal: Board,
    /// Tiles after the blank: `n - 1`.
    m: usize,
    /// Entries per blank cell: `(n-1)!/2`.
    block: u64,
    /// `label[tile]`: the tile's position in the goal's sequence. `label[0]` is unused.
    label: [u8; MAX_TABLE_CELLS],
    /// `tile[label]`: the inverse of `label`.
    tile: [u8; MAX_TABLE_CELLS],
    /// `odd_block[b]`: whether the reachable sequences with the blank in cell `b` are odd.
    odd_block: [bool; MAX_TABLE_CELLS],
    /// Neighbour arithmetic on indices, built on first use.
    moves: OnceLock<Moves>,
}

impl StateIndex {
    /// The index of the states reachable from `goal`.
    ///
    /// # Errors
    /// [`Error::TableTooLarge`] when the board has more than [`MAX_TABLE_CELLS`] cells.
    pub fn new(goal: &Board) -> Result<StateIndex, Error> {
        let shape = goal.shape();
        let n = shape.cells();
        if n > MAX_TABLE_CELLS {
            return Err(Error::TableTooLarge { shape, cells: n });
        }
        let mut label = [0u8; MAX_TABLE_CELLS];
        let mut tile = [0u8; MAX_TABLE_CELLS];
        for (i, &t) in goal.cells().iter().filter(|&&t| t != 0).enumerate() {
            label[t as usize] = i as u8;
            tile[i] = t as u8;
        }
        let goal_row = goal.blank() / shape.cols();
        let mut odd_block = [false; MAX_TABLE_CELLS];
        for (b, odd) in odd_block.iter_mut().enumerate().take(n) {
            *odd = shape.cols().is_multiple_of(2) && (b / shape.cols()).abs_diff(goal_row) % 2 == 1;
        }
        Ok(StateIndex {
            shape,
            goal: goal.clone(),
            m: n - 1,
            block: FACT[n - 1] / 2,
            label,
            tile,
            odd_block,
            moves: OnceLock::new(),
        })
    }

    /// The neighbour arithmetic of this index ([`crate::index::moves`]), built on first use (a few
    /// microseconds for 3x3, milliseconds for the 12-cell boards).
    pub fn moves(&self) -> &Moves {
        self.moves.get_or_init(|| Moves::new(self.shape, &self.odd_block))
    }

    /// Calls `f(dir, neighbour_index)` for each move of the blank from the state at `index`, in
    /// the order `U D L R`, computed from the index alone (see [`crate::index::moves`]).
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn for_each_neighbor_index(&self, index: u64, f: impl FnMut(Dir, u64)) {
        assert!(index < self.len(), "index {index} out of range");
        self.moves().for_each_index(index, f)
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The goal.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The number of entries, `n!/2`.
    pub fn len(&self) -> u64 {
        self.block * self.shape.cells() as u64
    }

    /// Always false: every shape has states.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Entries per blank cell, `(n-1)!/2`.
    pub fn block_len(&self) -> u64 {
        self.block
    }

    /// The state of `board`: its blank and relabelled sequence.
    ///
    /// # Panics
    /// If the board's shape is not the index's.
    pub fn state(&self, board: &Board) -> State {
        assert_eq!(board.shape(), self.shape, "board shape must match the index");
        self.state_of(board.cells().iter().map(|&t| t as usize))
    }

    /// The state of the board whose cells, row-major, are `tiles` (`0` for the blank).
    #[inline]
    fn state_of(&self, tiles: impl Iterator<Item = usize>) -> State {
        let mut seq = [0u8; MAX_TABLE_CELLS];
        let mut k = 0;
        let mut blank = 0;
        for (c, t) in tiles.enumerate() {
            if t == 0 {
                blank = c;
            } else {
                seq[k] = self.label[t];
                k += 1;
            }
        }
        State { blank, seq }
    }

    /// The index of a state, or `None` if it cannot reach the goal.
    #[inline]
    pub fn state_index(&self, s: &State) -> Option<u64> {
        let (rank, odd) = lex_rank(&s.seq[..self.m]);
        (odd == self.odd_block[s.blank]).then_some(s.blank as u64 * self.block + (rank >> 1))
    }

    /// The index of the board whose cells, row-major, are `cells` (tile numbers, `0` for the
    /// blank), or `None` if it cannot reach the goal. The fast path for batch queries: no
    /// allocation, no [`Board`].
    ///
    /// # Panics
    /// In debug builds, if `cells` is not a permutation of `0..n` for this index's `n` cells.
    #[inline]
    pub fn index_of_cells(&self, cells: &[u8]) -> Option<u64> {
        debug_assert_eq!(cells.len(), self.m + 1);
        self.state_index(&self.state_of(cells.iter().map(|&t| t as usize)))
    }

    /// The index of `board`, or `None` if it cannot reach the goal (the parity rule).
    ///
    /// # Panics
    /// If the board's shape is not the index's.
    pub fn index(&self, board: &Board) -> Option<u64> {
        self.state_index(&self.state(board))
    }

    /// The state at `index`.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn unrank(&self, index: u64) -> State {
        assert!(index < self.len(), "index {index} out of range");
        let blank = (index / self.block) as usize;
        let mut seq = [0u8; MAX_TABLE_CELLS];
        let rank = (index % self.block) * 2;
        let odd = match self.m {
            3 => lex_unrank_fixed::<3>(rank, &mut seq),
            5 => lex_unrank_fixed::<5>(rank, &mut seq),
            7 => lex_unrank_fixed::<7>(rank, &mut seq),
            8 => lex_unrank_fixed::<8>(rank, &mut seq),
            9 => lex_unrank_fixed::<9>(rank, &mut seq),
            11 => lex_unrank_fixed::<11>(rank, &mut seq),
            m => lex_unrank(rank, &mut seq[..m]),
        };
        if odd != self.odd_block[blank] {
            // rank 2h+1 is 2h with the last two elements swapped
            seq.swap(self.m - 2, self.m - 1);
        }
        State { blank, seq }
    }

    /// The board at `index`.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    pub fn board(&self, index: u64) -> Board {
        self.state_board(&self.unrank(index))
    }

    /// Calls `f(index, cells)` for every index in `range`, in order, `cells` the board's cells row
    /// by row (0 the blank): the boards of [`StateIndex::board`], without a [`Board`] made or a
    /// full unrank for each. Within a blank block consecutive indices are consecutive even ranks
    /// (`2h`, `2h + 2`, each possibly with its last two tiles swapped to the block's parity), so
    /// each state's tiles come from the last one's by two steps of the next permutation in
    /// lexicographic order (Knuth, TAOCP 7.2.1.2, Algorithm L), its parity carried along.
    ///
    /// # Panics
    /// If `range.end > self.len()`.
    pub fn for_each_cells(&self, range: std::ops::Range<u64>, mut f: impl FnMut(u64, &[u16])) {
        assert!(range.end <= self.len(), "range {range:?} past the index's {} entries", self.len());
        let (m, n) = (self.m, self.m + 1);
        let mut i = range.start;
        while i < range.end {
            let blank = (i / self.block) as usize;
            let block_end = ((blank as u64 + 1) * self.block).min(range.end);
            let target = self.odd_block[blank];
            let mut seq = self.unrank(i).seq;
            loop {
                let mut cells = [0u16; MAX_TABLE_CELLS];
                for (c, &l) in seq[..blank].iter().enumerate() {
                    cells[c] = self.tile[l as usize] as u16;
                }
                for (c, &l) in seq[blank..m].iter().enumerate() {
                    cells[blank + 1 + c] = self.tile[l as usize] as u16;
                }
                f(i, &cells[..n]);
                i += 1;
                if i >= block_end {
                    break;
                }
                // from rank 2h or 2h+1 (the last two swapped) to the odd one, 2h+1, then the next
                let mut odd = target;
                if seq[m - 2] < seq[m - 1] {
                    seq.swap(m - 2, m - 1);
                    odd = !odd;
                }
                let mut k = m - 1;
                while k > 0 && seq[k - 1] >= seq[k] {
                    k -= 1;
                }
                if k == 0 {
                    // the last permutation: no block ends here, but unrank rather than go wrong
                    seq = self.unrank(i).seq;
                    continue;
                }
                let mut l = m - 1;
                while seq[l] <= seq[k - 1] {
                    l -= 1;
                }
                seq.swap(k - 1, l);
                seq[k..m].reverse();
                // one swap, and a reversal of m - k elements: (m - k) / 2 swaps
                odd ^= (1 + (m - k) / 2) % 2 == 1;
                if odd != target {
                    seq.swap(m - 2, m - 1);
                }
            }
        }
    }

    /// The parts [`StateIndex::for_each_sum`] walks: one per blank cell and first tile after it,
    /// `n * (n - 1)` of them, each `(n - 2)!/2` consecutive indices.
    pub fn parts(&self) -> u64 {
        (self.m * (self.m + 1)) as u64
    }

    /// The indices of part `part` (see [`StateIndex::parts`]).
    ///
    /// # Panics
    /// If `part >= self.parts()`.
    pub fn part_range(&self, part: u64) -> std::ops::Range<u64> {
        assert!(part < self.parts(), "part {part} out of range");
        let size = self.block / self.m as u64;
        let start = part * size;
        start..start + size
    }

    /// Calls `f(sum)` for every state of part `part`, in index order, where `sum` is the sum over
    /// the tiles of `cost[cell * n + tile]` (`n` the board's cells) for the cell each tile stands
    /// on; the blank costs nothing. The states are walked depth first in the order of their
    /// rank, each sum made from its prefix's, so a state costs a few additions: an estimate that
    /// adds up over the tiles (Manhattan, misplaced tiles) is had for every state of a 12-cell
    /// board in about a second.
    ///
    /// # Panics
    /// If `part >= self.parts()` or `cost` has fewer than `n * n` entries.
    pub fn for_each_sum(&self, part: u64, cost: &[u32], mut f: impl FnMut(u32)) {
        let (m, n) = (self.m, self.m + 1);
        assert!(part < self.parts(), "part {part} out of range");
        assert!(cost.len() >= n * n, "{} costs for a board of {n} cells", cost.len());
        let blank = part as usize / m;
        let first = part as usize % m;
        // by[p][l]: the cost of the tile labelled `l` at sequence position `p`
        let mut by = [[0u32; MAX_TABLE_CELLS]; MAX_TABLE_CELLS];
        for (p, row) in by.iter_mut().enumerate().take(m) {
            let cell = p + usize::from(p >= blank);
            for (l, c) in row.iter_mut().enumerate().take(m) {
                *c = cost[cell * n + self.tile[l] as usize];
            }
        }
        let all = (1u16 << m) - 1;
        // the first element's Lehmer digit is its label: its parity starts the walk's
        let walk = Walk { by: &by, m, odd: self.odd_block[blank] };
        walk.down(1, all & !(1 << first), by[0][first], first % 2 == 1, &mut f);
    }

    /// The board of a state.
    pub fn state_board(&self, s: &State) -> Board {
        let mut cells = Vec::with_capacity(self.m + 1);
        cells.extend(s.seq[..s.blank].iter().map(|&l| self.tile[l as usize] as u16));
        cells.push(0);
        cells.extend(s.seq[s.blank..self.m].iter().map(|&l| self.tile[l as usize] as u16));
        Board::new(self.shape, cells).expect("a state is always a permutation")
    }

    /// Calls `f(dir, neighbour_index)` for each move of the blank from the state `s` at `index`,
    /// in the order `U D L R`.
    #[inline]
    pub fn for_each_neighbor(&self, s: &State, index: u64, mut f: impl FnMut(Dir, u64)) {
        let cols = self.shape.cols();
        let b = s.blank;
        if b >= cols {
            // The tile above (sequence position b - cols) jumps to position b - 1.
            let mut t = *s;
            t.seq[b - cols..b].rotate_left(1);
            t.blank = b - cols;
            f(Dir::Up, self.reachable_index(&t));
        }
        if b + cols <= self.m {
            // The tile below (sequence position b + cols - 1) jumps to position b.
            let mut t = *s;
            t.seq[b..b + cols].rotate_right(1);
            t.blank = b + cols;
            f(Dir::Down, self.reachable_index(&t));
        }
        if !b.is_multiple_of(cols) {
            f(Dir::Left, index - self.block);
        }
        if !(b + 1).is_multiple_of(cols) {
            f(Dir::Right, index + self.block);
        }
    }

    /// Calls `f(dir, neighbour_state, neighbour_index)` for each move of the blank from the
    /// state `s` at `index`, in the order `U D L R`: [`StateIndex::for_each_neighbor`] with the
    /// neighbour's state, for walks that go on from it without unranking.
    #[inline]
    pub fn for_each_neighbor_state(&self, s: &State, index: u64, mut f: impl FnMut(Dir, &State, u64)) {
        let cols = self.shape.cols();
        let b = s.blank;
        if b >= cols {
            let mut t = *s;
            t.seq[b - cols..b].rotate_left(1);
            t.blank = b - cols;
            f(Dir::Up, &t, self.reachable_index(&t));
        }
        if b + cols <= self.m {
            let mut t = *s;
            t.seq[b..b + cols].rotate_right(1);
            t.blank = b + cols;
            f(Dir::Down, &t, self.reachable_index(&t));
        }
        if !b.is_multiple_of(cols) {
            let t = State { blank: b - 1, seq: s.seq };
            f(Dir::Left, &t, index - self.block);
        }
        if !(b + 1).is_multiple_of(cols) {
            let t = State { blank: b + 1, seq: s.seq };
            f(Dir::Right, &t, index + self.block);
        }
    }

    /// The index of a state known to be reachable (a neighbour of a reachable one).
    #[inline]
    fn reachable_index(&self, s: &State) -> u64 {
        let (rank, _) = lex_rank(&s.seq[..self.m]);
        debug_assert!(self.state_index(s).is_some());
        s.blank as u64 * self.block + (rank >> 1)
    }
}

/// The depth-first walk of [`StateIndex::for_each_sum`]: the states whose sequence starts with
/// a given prefix, in rank order.
struct Walk<'a> {
    by: &'a [[u32; MAX_TABLE_CELLS]; MAX_TABLE_CELLS],
    m: usize,
    /// Whether the block's reachable sequences are odd.
    odd: bool,
}

impl Walk<'_> {
    /// Every sequence with `depth` positions filled (their cost `sum`, their inversions' parity
    /// `odd`) and the labels in `rest` left to place.
    fn down(&self, depth: usize, rest: u16, sum: u32, odd: bool, f: &mut impl FnMut(u32)) {
        if depth + 2 == self.m {
            self.pair(depth, rest, sum, odd, f);
            return;
        }
        if depth + 3 == self.m {
            // three left, `x < y < z`, each first in turn (digits 0, 1, 2), inline: most of the
            // walk's calls would be here
            let x = rest.trailing_zeros() as usize;
            let z = 15 - rest.leading_zeros() as usize;
            let y = (rest & !(1 << x) & !(1 << z)).trailing_zeros() as usize;
            let row = &self.by[depth];
            self.pair(depth + 1, rest & !(1 << x), sum + row[x], odd, f);
            self.pair(depth + 1, rest & !(1 << y), sum + row[y], !odd, f);
            self.pair(depth + 1, rest & !(1 << z), sum + row[z], odd, f);
            return;
        }
        let mut left = rest;
        let mut digit = false;
        while left != 0 {
            let l = left.trailing_zeros() as usize;
            left &= left - 1;
            self.down(depth + 1, rest & !(1 << l), sum + self.by[depth][l], odd ^ digit, f);
            digit = !digit;
        }
    }

    /// The one reachable sequence with two labels left, `x < y` in `rest`: of `x y` (rank 2h)
    /// and `y x` (2h + 1, one inversion more), the one with the block's parity.
    #[inline(always)]
    fn pair(&self, depth: usize, rest: u16, sum: u32, odd: bool, f: &mut impl FnMut(u32)) {
        let x = rest.trailing_zeros() as usize;
        let y = 15 - rest.leading_zeros() as usize;
        let (a, b) = if odd == self.odd { (x, y) } else { (y, x) };
        f(sum + self.by[depth][a] + self.by[depth + 1][b]);
    }
}
