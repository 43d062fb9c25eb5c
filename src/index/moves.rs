//! Moves on indices: the neighbours of a state computed from its index alone, without unranking.
//!
//! This is what makes a 12-cell table fast to build, verify and walk. With the blank-block index
//! of [`crate::index::rank`] (`index = blank * block + rank / 2`):
//!
//! - A horizontal move keeps the tile sequence, so the neighbour has the same offset `h` in the
//!   block of the next or previous blank cell.
//! - A vertical move rotates a window of `c = cols` consecutive sequence positions `p..p + c` by one
//!   (the tile jumping over the blank goes from one end of the window to the other). The Lehmer
//!   digits before and after the window do not change (the sets of later elements are the same),
//!   and the window's new digits depend only on its old digits (they fix the window's relative
//!   order). So the change of rank is a function of the window digits alone, which are
//!   `(rank / k!) mod ((m - p)! / k!)` with `k = m - p - c` the length of the suffix: one table
//!   lookup and two divisions by constants per vertical move.
//! - The full rank of the state at offset `h` is `2h` or `2h + 1`: the two differ by swapping the
//!   last two tiles, which flips the permutation's parity, and the block's parity is fixed. The
//!   parity of `2h` (the parity of its digit sum) is one bit per offset, shared by all blocks
//!   (2.5 MB for 12 cells).
//!
//! Tables: at most `(m - p)! / (m - p - c)!` entries per window, 332,640 for the first vertical
//! window of 2x6, 7,920 for 3x4, 8,648,640 (35 MB of `i32`) for 2x7; built once per
//! [`crate::StateIndex`], on first use.

use rayon::prelude::*;

use crate::index::rank::{Remaining, FACT, MAX_TABLE_CELLS};
use crate::puzzle::board::{Dir, Shape};

/// Splits a rank for the parity tables: digits of weight below `7!`, and the rest.
const PARITY_SPLIT: u32 = 5040;

/// Division and remainder by a fixed 32-bit divisor with one multiplication each (Lemire, Kaser
/// and Kurz, "Faster Remainder by Direct Computation", 2019: exact for every 32-bit numerator).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Divisor {
    d: u32,
    /// `floor((2^64 - 1) / d) + 1`; 0 for `d = 1`.
    m: u64,
}

impl Divisor {
    pub(crate) fn new(d: u32) -> Divisor {
        assert!(d >= 1, "division by zero");
        Divisor { d, m: if d == 1 { 0 } else { u64::MAX / d as u64 + 1 } }
    }

    #[inline(always)]
    pub(crate) fn div(self, n: u32) -> u32 {
        if self.d == 1 {
            n
        } else {
            ((self.m as u128 * n as u128) >> 64) as u32
        }
    }

    #[inline(always)]
    pub(crate) fn rem(self, n: u32) -> u32 {
        let low = self.m.wrapping_mul(n as u64);
        ((low as u128 * self.d as u128) >> 64) as u32
    }
}

/// A vertical move from one blank cell: where the blank goes and how the rank changes.
///
/// Ranks of 14-cell boards reach `13! > 2^32`, but offsets (`rank / 2 < 13!/2`) fit 32 bits,
/// so the arithmetic is done on the offset `h` and the rank's low bit (on 15 cells, whose offsets
/// reach `14!/2 > 2^32`, the same arithmetic in 64 bits): `(m - p)!` and `k!` (for
/// `k >= 2`) are even, so `rank mod (m - p)! = 2 (h mod (m - p)!/2) + bit` and
/// `(rank mod (m - p)!) / k! = (h mod (m - p)!/2) / (k!/2)`; every division stays 32-bit.
#[derive(Clone, Debug)]
pub(crate) struct Window {
    /// The blank's new cell.
    to: u8,
    /// `(m - p)!/2`: the offset modulo this holds the window and suffix digits.
    half_modulus: Divisor,
    /// `k!/2` for a suffix of `k >= 2` positions (dividing by it drops the suffix digits);
    /// `None` when `k! = 1`, where the window digits are the whole remainder.
    half_low: Option<Divisor>,
    /// `delta[window digits]`: the change of the full rank, in units of `k!` for a suffix of
    /// `k >= 2` positions (the change is then a multiple of `k!`): 32 bits, so that the 2x7's
    /// largest table is 35 MB rather than 69 and the busy ones stay in the caches.
    delta: Box<[i32]>,
    /// For blocks past 32 bits (15 cells), the same divisors in 64 bits, used instead.
    wide: Option<Wide>,
    /// `k!/2` for a suffix of `k >= 2` positions, else 0: the offsets of a *run*, consecutive
    /// offsets from a multiple of `run` whose window digits are the same, so that the move
    /// shifts the whole run by one amount ([`Window::run_shift`]).
    run: u64,
    /// `(m - p)!/2 / run`: the runs before the window digits start again.
    runs: u64,
}

impl Window {
    /// The offset after the move, from the offset `h` and the low bit of the full rank before.
    #[inline(always)]
    pub(crate) fn apply(&self, h: u64, bit: u32) -> u64 {
        if let Some(wide) = &self.wide {
            return self.apply_wide(wide, h, bit);
        }
        self.apply_narrow(h, bit)
    }

    /// Whether the offsets pass 32 bits (15 cells): [`Window::apply`] then takes 64-bit divisions.
    #[inline(always)]
    pub(crate) fn is_wide(&self) -> bool {
        self.wide.is_some()
    }

    /// [`Window::apply`] for a window that is not wide ([`Window::is_wide`]), without the test:
    /// for loops that make it once.
    #[inline(always)]
    pub(crate) fn apply_narrow(&self, h: u64, bit: u32) -> u64 {
        debug_assert!(self.wide.is_none());
        let x = self.half_modulus.rem(h as u32);
        // mid < delta.len() by construction; the bounds check stays (one compare)
        match self.half_low {
            // (2h + bit + q k!) / 2 = h + q k!/2: the rank's low bit drops out
            Some(low) => (h as i64 + self.delta[low.div(x) as usize] as i64 * self.run as i64) as u64,
            None => {
                let mid = (2 * x as usize) | bit as usize;
                let rank = (2 * h) | bit as u64;
                ((rank as i64 + self.delta[mid] as i64) >> 1) as u64
            }
        }
    }

    /// The offsets of a *region*, `(m - p)!/2`: the move keeps the digits before the window, so
    /// it maps the offsets from each multiple of this among themselves.
    #[inline]
    pub(crate) fn region(&self) -> u64 {
        match &self.wide {
            Some(wide) => wide.half_modulus,
            None => self.half_modulus.d as u64,
        }
    }

    /// The offsets of a run (see the field), 0 when the suffix is too short to have runs.
    #[inline]
    pub(crate) fn run_len(&self) -> u64 {
        self.run
    }

    /// The runs before the window digits start again: the index of run `h / run_len` is that
    /// modulo this.
    #[inline]
    pub(crate) fn runs(&self) -> u64 {
        self.runs
    }

    /// What the move adds to every offset of the run of index `i` (`(h / run_len) % runs` for
    /// its offsets `h`): the change of the full rank, a multiple of `k!`, so even, halved.
    #[inline(always)]
    pub(crate) fn run_shift(&self, i: usize) -> i64 {
        self.delta[i] as i64 * self.run as i64
    }

    /// [`Window::apply`] for offsets past 32 bits (15 cells): plain 64-bit divisions.
    #[inline(never)]
    fn apply_wide(&self, wide: &Wide, h: u64, bit: u32) -> u64 {
        let x = h % wide.half_modulus;
        match wide.half_low {
            Some(low) => (h as i64 + self.delta[(x / low) as usize] as i64 * self.run as i64) as u64,
            None => {
                let mid = (2 * x as usize) | bit as usize;
                let rank = (2 * h) | bit as u64;
                ((rank as i64 + self.delta[mid] as i64) >> 1) as u64
            }
        }
    }
}

/// The divisors of a [`Window`] whose offsets pass 32 bits.
#[derive(Clone, Copy, Debug)]
struct Wide {
    half_modulus: u64,
    half_low: Option<u64>,
}

/// The moves from one blank cell.
#[derive(Clone, Debug, Default)]
struct CellMoves {
    up: Option<Window>,
    down: Option<Window>,
    left: bool,
    right: bool,
}

/// Neighbour arithmetic on indices for one board shape and goal parity; see the module doc.
#[derive(Clone, Debug)]
pub struct Moves {
    cells: usize,
    /// Entries per blank block, `(n-1)!/2`.
    block: u64,
    /// Bit `h`: the parity of the permutation of rank `2h` (the parity of its digit sum).
    even_rank_parity: Parities,
    /// Whether the sequences of each blank block are odd permutations.
    odd_block: [u8; MAX_TABLE_CELLS],
    by_cell: Vec<CellMoves>,
}

impl Moves {
    /// The moves of a board of `shape` whose blank block `b` holds odd sequences when
    /// `odd_block[b]`.
    pub(crate) fn new(shape: Shape, odd_block: &[bool; MAX_TABLE_CELLS]) -> Moves {
        let n = shape.cells();
        let cols = shape.cols();
        let m = n - 1;
        debug_assert!(n <= MAX_TABLE_CELLS);
        let block = FACT[m] / 2;
        let even_rank_parity = Parities::new(block);
        let cell_moves = |b: usize| CellMoves {
            // up: the tile above (sequence position b - cols) jumps to position b - 1
            up: (b >= cols).then(|| window(m, b - cols, cols, Rotation::Left, b - cols)),
            // down: the tile below (sequence position b + cols - 1) jumps to position b
            down: (b + cols <= m).then(|| window(m, b, cols, Rotation::Right, b + cols)),
            left: !b.is_multiple_of(cols),
            right: !(b + 1).is_multiple_of(cols),
        };
        // threads only pay for themselves on the 12-cell boards (starting the pool costs more
        // than building the 8-puzzle's tables)
        let by_cell: Vec<CellMoves> =
            if n >= 12 { (0..n).into_par_iter().map(cell_moves).collect() } else { (0..n).map(cell_moves).collect() };
        let mut odd = [0u8; MAX_TABLE_CELLS];
        for (o, &b) in odd.iter_mut().zip(odd_block) {
            *o = b as u8;
        }
        Moves { cells: n, block, even_rank_parity, odd_block: odd, by_cell }
    }

    /// Entries per blank block.
    #[inline]
    pub fn block(&self) -> u64 {
        self.block
    }

    /// The number of cells, and so of blank blocks.
    #[inline]
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// The low bit of the full Lehmer rank of the tile sequence at offset `h` of blank block `b`
    /// (the full rank is `2 * h + bit`; it may exceed 32 bits on 14-cell boards).
    #[inline(always)]
    pub fn rank_bit(&self, b: usize, h: u64) -> u32 {
        let bit = (self.even_rank_parity.word(h as usize / 64) >> (h % 64)) as u8 & 1;
        (bit ^ self.odd_block[b]) as u32
    }

    /// Bit `j`: the low bit of the full rank of offset `64 * word + j` in blank block `b` (so the
    /// full rank is `2 * h + bit`), for a scan that goes 64 states at a time.
    #[inline(always)]
    pub fn rank_bits(&self, b: usize, word: usize) -> u64 {
        self.even_rank_parity.word(word) ^ (self.odd_block[b] as u64).wrapping_neg()
    }

    /// Calls `f(dir, blank, offset)` for every neighbour of the state at offset `h` of blank block
    /// `b`, in the order `U D L R`; the neighbour's index is `blank * block + offset`.
    ///
    /// # Panics
    /// If `b` is not a cell of the board or `h >= block` (in debug builds for `h`).
    #[inline(always)]
    pub fn for_each(&self, b: usize, h: u64, f: impl FnMut(Dir, usize, u64)) {
        self.for_each_ranked(b, h, self.rank_bit(b, h), f)
    }

    /// [`Moves::for_each`] given the low bit of the state's full rank (from [`Moves::rank_bits`]).
    #[inline(always)]
    pub fn for_each_ranked(&self, b: usize, h: u64, bit: u32, mut f: impl FnMut(Dir, usize, u64)) {
        debug_assert!(h < self.block && bit == self.rank_bit(b, h));
        let cell = &self.by_cell[b];
        if let Some(w) = &cell.up {
            f(Dir::Up, w.to as usize, w.apply(h, bit));
        }
        if let Some(w) = &cell.down {
            f(Dir::Down, w.to as usize, w.apply(h, bit));
        }
        if cell.left {
            f(Dir::Left, b - 1, h);
        }
        if cell.right {
            f(Dir::Right, b + 1, h);
        }
    }

    /// How a move from blank block `b` into blank block `to` changes an offset: `None` when the
    /// two cells are not neighbours.
    pub(crate) fn crossing(&self, b: usize, to: usize) -> Option<Crossing<'_>> {
        let cell = self.by_cell.get(b)?;
        let vertical = [&cell.up, &cell.down].into_iter().flatten().find(|w| w.to as usize == to);
        match vertical {
            Some(w) => Some(Crossing::Window(w)),
            None if (cell.left && to + 1 == b) || (cell.right && b + 1 == to) => Some(Crossing::Same),
            None => None,
        }
    }

    /// [`Moves::for_each`] on whole indices: `f(dir, neighbour_index)`.
    #[inline]
    pub fn for_each_index(&self, index: u64, mut f: impl FnMut(Dir, u64)) {
        let block = self.block;
        let b = (index / block) as usize;
        let h = index % block;
        self.for_each(b, h, |dir, nb, nh| f(dir, nb as u64 * block + nh));
    }
}

/// How the offset of a state changes when the blank crosses from one block into a neighbouring
/// one ([`Moves::crossing`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Crossing<'a> {
    /// A horizontal move: the offset stays.
    Same,
    /// A vertical move: the window's rotation ([`Window::apply`]).
    Window(&'a Window),
}

/// Which way a window turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rotation {
    /// The first element moves to the end (the blank moves up).
    Left,
    /// The last element moves to the front (the blank moves down).
    Right,
}

/// The parity of the digit sum of `r` in the factorial number system: the parity of the
/// permutation of that lexicographic rank.
#[cfg(test)]
fn digit_sum_parity(r: u64) -> u8 {
    let mut r = r;
    let mut sum = 0u64;
    let mut base = 2u64;
    while r > 0 {
        sum += r % base;
        r /= base;
        base += 1;
    }
    (sum & 1) as u8
}

/// The digit-sum parities of `0, 1, ..., count - 1` read as factorial-base numbers whose lowest
/// digit has base `first_base` (2 for ranks; 8 for multiples of `7!` divided by `7!`): an odometer,
/// with no division.
fn digit_sum_parities(first_base: usize, count: usize) -> Vec<u8> {
    let mut digits = [0usize; 24];
    let mut parity = 0u8;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        out.push(parity);
        let mut j = 0;
        loop {
            digits[j] += 1;
            parity ^= 1;
            if digits[j] < first_base + j {
                break;
            }
            // the digit wraps from first_base + j - 1 to 0: its parity contribution goes away
            parity ^= ((first_base + j) & 1) as u8;
            digits[j] = 0;
            j += 1;
        }
    }
    out
}

/// The parities of the even ranks of a block: bit `h` of word `h / 64` is the parity of the
/// permutation of rank `2h`, for `h < block`.
///
/// The digit-sum parity splits over the digits below and above `7!`: rank `2h` has parity
/// `lo[2h mod 7!] ^ hi[2h div 7!]`, that is `lo[2 (h mod 2520)] ^ hi[h div 2520]`. A group of
/// `lcm(2520, 64) = 40320` offsets is 630 whole words spanning 16 values of `h div 2520`, so every
/// group is one fixed pattern of low parities with the high parities of its 16 segments laid over
/// it: a few operations per word. For blocks up to [`TABLE_MAX`] entries the words are laid out
/// in a table; past it (the 2x7's would be 389 MB, 15 cells' 5.4 GB) each is made when asked
/// for, from the pattern and a bit per value of `hi` (2.2 MB for 15 cells).
#[derive(Clone, Debug)]
struct Parities {
    /// Entries of the block.
    block: u64,
    /// The low parities over one group.
    pattern: Box<[u64]>,
    /// For each word of a group, its first segment and the bits that lie in the next.
    segments: Box<[(usize, u64)]>,
    /// Bit `y`: `hi[y]`.
    hi: Box<[u64]>,
    /// Every word, up to 14 cells.
    table: Option<Box<[u64]>>,
}

/// The largest block whose parities are laid out in a table (8 MiB): past it each word is made
/// when asked for, a few operations against a table's cache miss (the 2x7's 389 MB table cost
/// that much memory and was read at random by the vertical moves of sparse levels).
const TABLE_MAX: u64 = 1 << 26;

/// The bytes of the parities of a block of `block` entries: its table up to [`TABLE_MAX`], past
/// it the pattern and a bit per value of `hi` (for the memory estimates).
pub(crate) fn parity_bytes(block: u64) -> u64 {
    if block <= TABLE_MAX {
        block.div_ceil(64) * 8
    } else {
        block / 2520 / 8 + (64 << 10)
    }
}

impl Parities {
    const GROUP_WORDS: usize = 630;
    const SEGMENTS: usize = 16;

    fn new(block: u64) -> Parities {
        const HALF: usize = PARITY_SPLIT as usize / 2;
        let lo = digit_sum_parities(2, PARITY_SPLIT as usize);
        let hi_len = (2 * block / PARITY_SPLIT as u64).max(1) as usize;
        let mut hi = vec![0u64; hi_len.div_ceil(64)];
        for (y, &p) in digit_sum_parities(8, hi_len).iter().enumerate() {
            hi[y / 64] |= (p as u64) << (y % 64);
        }
        let words = block.div_ceil(64) as usize;
        let group_words = Self::GROUP_WORDS.min(words);
        let mut pattern = vec![0u64; group_words];
        let mut segments = vec![(0usize, 0u64); group_words];
        let (mut x, mut q) = (0, 0);
        for w in 0..group_words {
            segments[w].0 = q;
            for j in 0..64 {
                pattern[w] |= (lo[2 * x] as u64) << j;
                if q > segments[w].0 {
                    segments[w].1 |= 1 << j;
                }
                x += 1;
                if x == HALF {
                    x = 0;
                    q += 1;
                }
            }
        }
        let mut parities =
            Parities { block, pattern: pattern.into(), segments: segments.into(), hi: hi.into(), table: None };
        if block <= TABLE_MAX {
            let mut bits = vec![0u64; words].into_boxed_slice();
            let fill = |g: usize, group: &mut [u64]| {
                for (w, word) in group.iter_mut().enumerate() {
                    *word = parities.make(g * Self::GROUP_WORDS + w);
                }
            };
            if words >= 1 << 14 {
                bits.par_chunks_mut(Self::GROUP_WORDS).enumerate().for_each(|(g, group)| fill(g, group));
            } else {
                bits.chunks_mut(Self::GROUP_WORDS).enumerate().for_each(|(g, group)| fill(g, group));
            }
            parities.table = Some(bits);
        }
        parities
    }

    /// Word `w`.
    #[inline(always)]
    fn word(&self, w: usize) -> u64 {
        match &self.table {
            Some(table) => table[w],
            None => self.make(w),
        }
    }

    /// Word `w`, made from the group's pattern and the high parities.
    #[inline]
    fn make(&self, w: usize) -> u64 {
        let (g, i) = (w / Self::GROUP_WORDS, w % Self::GROUP_WORDS);
        let high = |y: usize| (self.hi.get(y / 64).map_or(0, |b| b >> (y % 64)) & 1).wrapping_neg();
        let y0 = g * Self::SEGMENTS;
        let (q, next) = self.segments[i];
        let word = self.pattern[i] ^ (high(y0 + q) & !next) ^ (high(y0 + q + 1) & next);
        let end = self.block - 64 * w as u64;
        if end < 64 {
            word & ((1u64 << end) - 1)
        } else {
            word
        }
    }
}

/// The rank-change table of rotating sequence positions `p..p + c` (of `m`) by one.
///
/// Entry `mid` is for window digits `D_0..D_{c-1}` read as a mixed-radix number (radices
/// `m - p, ..., m - p - c + 1`, `D_0` most significant). The window's relative order comes from
/// decoding the digits against the ranks `0..m - p` of the elements from `p` on; the new digits
/// follow from it (an element's digit counts the smaller elements after it, and only window
/// elements change places).
// Indexes run over window positions and weights together: loops over ranges read best here.
#[allow(clippy::needless_range_loop)]
fn window(m: usize, p: usize, c: usize, rotation: Rotation, to: usize) -> Window {
    debug_assert!(p + c <= m && c >= 2);
    let k = m - p - c;
    let len = (FACT[m - p] / FACT[k]) as usize;
    // weight of sequence position q
    let w = |q: usize| FACT[m - 1 - q] as i64;
    let entry = |digits: &[usize; MAX_TABLE_CELLS]| -> i64 {
        // decode the window's ranks among the elements from p on
        let mut values = [0usize; MAX_TABLE_CELLS];
        let mut rest = Remaining::new();
        for j in 0..c {
            values[j] = rest.take(digits[j] as u32) as usize;
        }
        let d = |j: usize| digits[j] as i64;
        let mut change = 0i64;
        match rotation {
            Rotation::Left => {
                // v_0 goes to the end; v_j (j >= 1) moves one place forward
                let x = values[0];
                let smaller = (1..c).filter(|&j| values[j] < x).count() as i64;
                for j in 1..c {
                    let new = d(j) + (x < values[j]) as i64;
                    change += new * w(p + j - 1) - d(j) * w(p + j);
                }
                change += (d(0) - smaller) * w(p + c - 1) - d(0) * w(p);
            }
            Rotation::Right => {
                // v_{c-1} goes to the front; v_j (j < c - 1) moves one place back
                let x = values[c - 1];
                let smaller = (0..c - 1).filter(|&j| values[j] < x).count() as i64;
                for j in 0..c - 1 {
                    let new = d(j) - (x < values[j]) as i64;
                    change += new * w(p + j + 1) - d(j) * w(p + j);
                }
                change += (d(c - 1) + smaller) * w(p) - d(c - 1) * w(p + c - 1);
            }
        }
        change
    };
    // Entries in order of the digits (D_0 most significant), one run per value of D_0, each run
    // counting through the other digits like an odometer.
    let run = |top: usize| -> Vec<i64> {
        let per_top = len / (m - p);
        let mut digits = [0usize; MAX_TABLE_CELLS];
        digits[0] = top;
        let mut out = Vec::with_capacity(per_top);
        for _ in 0..per_top {
            out.push(entry(&digits));
            let mut j = c - 1;
            while j > 0 {
                digits[j] += 1;
                if digits[j] < m - p - j {
                    break;
                }
                digits[j] = 0;
                j -= 1;
            }
        }
        out
    };
    let runs: Vec<Vec<i64>> =
        if len >= 1 << 16 { (0..m - p).into_par_iter().map(run).collect() } else { (0..m - p).map(run).collect() };
    let unit = if k >= 2 { FACT[k] as i64 } else { 1 };
    let delta: Box<[i32]> = runs
        .concat()
        .into_iter()
        .map(|d| {
            debug_assert_eq!(d % unit, 0, "a change of rank in whole units");
            i32::try_from(d / unit).expect("a window's change of rank fits 32 bits in units of k!")
        })
        .collect();
    // (m - p)! >= c! >= 2 is even; offsets fit 32 bits up to 14 cells (13!/2 < 2^32)
    let wide = (FACT[m] / 2 > u32::MAX as u64)
        .then(|| Wide { half_modulus: FACT[m - p] / 2, half_low: (k >= 2).then(|| FACT[k] / 2) });
    let narrow = |x: u64| Divisor::new(u32::try_from(x).unwrap_or(1));
    let half_modulus = narrow(FACT[m - p] / 2);
    let half_low = (k >= 2).then(|| narrow(FACT[k] / 2));
    let run = if k >= 2 { FACT[k] / 2 } else { 0 };
    let runs = if k >= 2 { FACT[m - p] / FACT[k] } else { 0 };
    Window { to: to as u8, half_modulus, half_low, delta, wide, run, runs }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::rank::{lex_rank, lex_unrank};

    #[test]
    fn divisor_is_exact() {
        let ds = [1u32, 2, 3, 5, 6, 7, 24, 120, 720, 5040, 40320, 362880, 3628800, 39916800, 7920, 332640];
        let mut n = 0u32;
        let mut samples = vec![0u32, 1, u32::MAX, u32::MAX - 1];
        for _ in 0..20000 {
            n = n.wrapping_mul(1664525).wrapping_add(1013904223);
            samples.push(n);
            samples.push(n >> 6);
        }
        for &d in &ds {
            let div = Divisor::new(d);
            for &n in &samples {
                assert_eq!(div.div(n), n / d, "{n} / {d}");
                assert_eq!(div.rem(n), n % d, "{n} % {d}");
            }
        }
    }

    #[test]
    fn parity_tables_match_digit_sums() {
        let lo = digit_sum_parities(2, 5040);
        for (r, &p) in lo.iter().enumerate() {
            assert_eq!(p, digit_sum_parity(r as u64), "rank {r}");
        }
        let hi = digit_sum_parities(8, 7920);
        for (y, &p) in hi.iter().enumerate() {
            assert_eq!(p, digit_sum_parity(y as u64 * 5040), "rank {y} * 7!");
        }
        for m in [3usize, 5, 7, 8, 9, 11] {
            let block = FACT[m] / 2;
            let parities = Parities::new(block);
            assert!(parities.table.is_some());
            let step = (block / 200_000).max(1);
            for h in (0..block).step_by(step as usize).chain(block.saturating_sub(100)..block) {
                let bit = (parities.word(h as usize / 64) >> (h % 64)) as u8 & 1;
                assert_eq!(bit, digit_sum_parity(2 * h), "m {m} h {h}");
                assert_eq!(parities.word(h as usize / 64), parities.make(h as usize / 64), "m {m} h {h}");
            }
            // past the block's end, no bit
            assert_eq!(parities.word((block as usize - 1) / 64) >> ((block - 1) % 64) >> 1, 0, "m {m}");
        }
    }

    /// The parities of a 15-cell block (offsets past 32 bits, made word by word, no table) on a
    /// sample of offsets, the last ones among them.
    #[test]
    fn parities_of_fifteen_cells_match_digit_sums() {
        let block = FACT[14] / 2;
        let parities = Parities::new(block);
        assert!(parities.table.is_none());
        let mut h = 7u64;
        let mut samples: Vec<u64> = (block - 200..block).chain(0..200).collect();
        for _ in 0..20_000 {
            h = h.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            samples.push((h >> 16) % block);
        }
        for &h in &samples {
            let bit = (parities.word(h as usize / 64) >> (h % 64)) as u8 & 1;
            assert_eq!(bit, digit_sum_parity(2 * h), "h {h}");
        }
    }

    #[test]
    fn digit_sum_parity_is_permutation_parity() {
        let mut perm = [0u8; 7];
        for r in 0..5040u64 {
            let odd = lex_unrank(r, &mut perm);
            assert_eq!(digit_sum_parity(r), odd as u8);
        }
    }

    /// A run's offsets all move by its shift, on every window with runs of the boards up to 9
    /// cells and of 2x7's first window.
    #[test]
    fn runs_shift_as_the_window_moves() {
        let mut windows = vec![];
        for m in 3..=8usize {
            for c in 2..=m.min(6) {
                for p in 0..=m - c {
                    for rotation in [Rotation::Left, Rotation::Right] {
                        windows.push((m, window(m, p, c, rotation, 0)));
                    }
                }
            }
        }
        windows.push((13, window(13, 0, 7, Rotation::Right, 7)));
        let mut checked = 0;
        for (m, win) in &windows {
            if win.run_len() == 0 {
                continue;
            }
            let half = FACT[*m] / 2;
            let step = (half / 5000).max(1);
            let mut h = 0;
            while h < half {
                let i = (h / win.run_len()) % win.runs();
                for bit in 0..2 {
                    assert_eq!(win.apply(h, bit) as i64, h as i64 + win.run_shift(i as usize), "m {m} offset {h}");
                }
                h += step;
                checked += 1;
            }
        }
        assert!(checked > 100_000);
    }

    /// The windows of a 14-cell board (2x7: 13 tiles, windows of 7), whose ranks pass 32 bits,
    /// against rotating a concrete permutation, on a sample of ranks.
    #[test]
    fn window_tables_of_fourteen_cells_match_rotation() {
        let m = 13;
        for p in [0usize, 3, 6] {
            for rotation in [Rotation::Left, Rotation::Right] {
                let win = window(m, p, 7, rotation, 0);
                let mut perm = [0u8; 16];
                let mut r = 12345u64;
                for _ in 0..3000 {
                    r = (r.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407)) % FACT[m];
                    lex_unrank(r, &mut perm[..m]);
                    match rotation {
                        Rotation::Left => perm[p..p + 7].rotate_left(1),
                        Rotation::Right => perm[p..p + 7].rotate_right(1),
                    }
                    let (after, _) = lex_rank(&perm[..m]);
                    assert_eq!(win.apply(r / 2, (r % 2) as u32), after / 2, "p {p} {rotation:?} rank {r}");
                }
            }
        }
    }

    /// The windows of the 15-cell boards (14 tiles; 3x5's windows of 5, 5x3's of 3), whose
    /// offsets pass 32 bits, against rotating a concrete permutation, on a sample of ranks.
    #[test]
    fn window_tables_of_fifteen_cells_match_rotation() {
        let m = 14;
        for (c, ps) in [(5usize, [0usize, 4, 9]), (3, [0, 5, 11])] {
            for p in ps {
                for rotation in [Rotation::Left, Rotation::Right] {
                    let win = window(m, p, c, rotation, 0);
                    assert!(win.wide.is_some());
                    let mut perm = [0u8; 16];
                    let mut r = 987654321u64;
                    for i in 0..3000 {
                        r = r.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        let rank = if i < 2 { FACT[m] - 1 - i } else { (r >> 8) % FACT[m] };
                        lex_unrank(rank, &mut perm[..m]);
                        match rotation {
                            Rotation::Left => perm[p..p + c].rotate_left(1),
                            Rotation::Right => perm[p..p + c].rotate_right(1),
                        }
                        let (after, _) = lex_rank(&perm[..m]);
                        assert_eq!(
                            win.apply(rank / 2, (rank % 2) as u32),
                            after / 2,
                            "c {c} p {p} {rotation:?} rank {rank}"
                        );
                    }
                }
            }
        }
    }

    /// Every window table against rotating a concrete permutation and ranking it again, for every
    /// window of every length up to 9 and a sample of completions.
    #[test]
    fn window_tables_match_rotation() {
        for m in 3..=9usize {
            for c in 2..=m.min(6) {
                for p in 0..=m - c {
                    for rotation in [Rotation::Left, Rotation::Right] {
                        let win = window(m, p, c, rotation, 0);
                        let mut perm = [0u8; 16];
                        let step = (FACT[m] / 3000).max(1);
                        let mut r = 0u64;
                        while r < FACT[m] {
                            lex_unrank(r, &mut perm[..m]);
                            match rotation {
                                Rotation::Left => perm[p..p + c].rotate_left(1),
                                Rotation::Right => perm[p..p + c].rotate_right(1),
                            }
                            let (after, _) = lex_rank(&perm[..m]);
                            assert_eq!(
                                win.apply(r / 2, (r % 2) as u32),
                                after / 2,
                                "m {m} p {p} c {c} {rotation:?} rank {r}"
                            );
                            r += step;
                        }
                    }
                }
            }
        }
    }
}
