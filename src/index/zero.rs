//! The compact index of a zero-aware pattern table: one entry per (placement of a group of tiles,
//! region of the blank), where a region is a connected set of the cells the group leaves free
//! (Clausecker & Reinefeld, SoCS 2019).
//!
//! A placement is split in two: the *set* of cells the group occupies, ranked in the
//! combinatorial number system (`0..C(n, k)`, sets in colexicographic order), and the *order* of
//! the group's tiles on those cells, a permutation of `k` ranked by its Lehmer code (`0..k!`).
//! The free cells of a set fall into one or more regions, numbered by their lowest cell. Entries
//! are laid out set by set; within a set, order by order; within an order, region by region:
//!
//! `index = base[set] + order * regions[set] + region`
//!
//! For the 6-tile groups of the 24-puzzle that is 181 M entries (127.5 M placements, most with
//! one region), against 2.4 G for a (placement, blank cell) index. The per-set facts (`base`,
//! the region count, the region of each free cell) are computed when the index is made, from the
//! shape and `k` alone: `C(n, k) * (n + 8)` bytes (5.8 MB for 6 tiles on 5x5).

use std::sync::{Arc, Mutex, Weak};

use rayon::prelude::*;

use crate::error::Error;
use crate::index::pattern::{PatternIndex, MAX_GROUP};
use crate::memory::{huge_vec, prefetch};
use crate::puzzle::board::{Board, Dir, Shape};

/// The most bytes the per-set facts of an index may take.
pub const MAX_SET_BYTES: u64 = 1 << 30;

/// The compact (set, order, region) index of a group's zero-aware table: see the module doc.
#[derive(Clone, Debug)]
pub struct ZeroIndex {
    placements: PatternIndex,
    n: usize,
    k: usize,
    /// `(k - 1 - i)!`: the weight of the `i`-th Lehmer digit.
    weights: [u64; MAX_GROUP],
    /// The per-set facts, which depend on the shape and `k` alone: one copy for every group of
    /// that size in the process (the 11 tables of `small-t` share 5.8 MB, and the cache).
    facts: Arc<Facts>,
}

/// The per-set facts of a shape and a group size.
#[derive(Debug)]
struct Facts {
    /// `binom[c * (MAX_GROUP + 1) + j]` = C(c, j), for `c <= n`, `j <= k`.
    binom: Vec<u64>,
    /// `before << REGION_BITS | regions` for each set, `before` being the regions of the sets
    /// before it (the set's first entry is `before * orders`), then the total alone: 4 bytes a
    /// set, so that the 24-puzzle's 6-tile sets fit in a core's cache.
    sets: Vec<u32>,
    /// `k!`, the orders of the group's tiles on a set.
    orders: u64,
    /// `region[set * n + cell]`: the region of a free cell, or `u8::MAX` for an occupied one.
    region: Vec<u8>,
    /// Neighbour masks of every cell.
    nbr: Vec<u64>,
}

/// Facts made earlier, by (rows, cols, k), while some index still holds them.
type Made = Vec<((usize, usize, usize), Weak<Facts>)>;

/// The facts made so far.
static FACTS: Mutex<Made> = Mutex::new(Vec::new());

impl ZeroIndex {
    /// The index of the group `tiles` (as [`PatternIndex::new`] takes them) on `shape`.
    ///
    /// # Errors
    /// Those of [`PatternIndex::new`]; [`Error::BadShape`] when the per-set facts would take
    /// more than [`MAX_SET_BYTES`].
    pub fn new(shape: Shape, tiles: &[u16]) -> Result<ZeroIndex, Error> {
        let placements = PatternIndex::new(shape, tiles)?;
        let (n, k) = (shape.cells(), placements.k());
        let mut weights = [0u64; MAX_GROUP];
        let mut w = 1u64;
        for i in (0..k).rev() {
            weights[i] = w;
            w *= (k - i) as u64;
        }
        let key = (shape.rows(), shape.cols(), k);
        let mut made = FACTS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        made.retain(|(_, f)| f.strong_count() > 0);
        let facts = match made.iter().find(|(k2, _)| *k2 == key).and_then(|(_, f)| f.upgrade()) {
            Some(f) => f,
            None => {
                let f = Arc::new(Facts::new(shape, k, w)?);
                made.push((key, Arc::downgrade(&f)));
                f
            }
        };
        Ok(ZeroIndex { placements, n, k, weights, facts })
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.placements.shape()
    }

    /// The group's tiles, ascending.
    pub fn tiles(&self) -> &[u16] {
        self.placements.tiles()
    }

    /// The number of tiles in the group.
    pub fn k(&self) -> usize {
        self.k
    }

    /// The number of entries: (placement, region) pairs.
    pub fn len(&self) -> u64 {
        self.facts.info(self.facts.sets.len() - 1).1
    }

    /// Whether the index has no entries (never: a group has at least one placement).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The (placement-only) index of the same group.
    pub fn placements(&self) -> &PatternIndex {
        &self.placements
    }

    /// The number of cell sets, `C(n, k)`.
    pub fn sets(&self) -> usize {
        self.facts.sets.len() - 1
    }

    /// The rank of the set of cells `mask` (exactly `k` bits, all below `n`).
    #[inline]
    pub fn set_rank(&self, mut mask: u64) -> usize {
        let stride = MAX_GROUP + 1;
        let mut rank = 0u64;
        let mut j = 1;
        while mask != 0 {
            let c = mask.trailing_zeros() as usize;
            rank += self.facts.binom[c * stride + j];
            mask &= mask - 1;
            j += 1;
        }
        rank as usize
    }

    /// The rank of the order of the group's tiles on their cells `cells` (in the group's tile
    /// order), the set being `mask`.
    #[inline]
    pub fn order_rank(&self, mask: u64, cells: &[u8]) -> u64 {
        let mut used = 0u64;
        let mut rank = 0u64;
        for (i, &c) in cells.iter().enumerate().take(self.k) {
            let p = (mask & ((1u64 << c) - 1)).count_ones();
            let below = (used & ((1u64 << p) - 1)).count_ones();
            used |= 1 << p;
            rank += (p - below) as u64 * self.weights[i];
        }
        rank
    }

    /// The entry of the group on `cells` (in the group's tile order) with the blank on `blank`,
    /// the set of `cells` being `mask`.
    #[inline]
    pub fn index_with(&self, mask: u64, cells: &[u8], blank: u8) -> u64 {
        self.index_in(self.set_rank(mask), mask, cells, blank)
    }

    /// Asks for the per-set facts that [`ZeroIndex::index_in`] reads for set `set` and the
    /// blank on `blank` to be brought into the cache (a search issues these for every child
    /// before it computes any index, so the misses overlap).
    #[inline(always)]
    pub fn prefetch_set(&self, set: usize, blank: u8) {
        prefetch(&self.facts.sets[set]);
        prefetch(&self.facts.region[set * self.n + blank as usize]);
    }

    /// [`ZeroIndex::index_with`] for a set already ranked: `set` is the rank of `mask`.
    #[inline]
    pub fn index_in(&self, set: usize, mask: u64, cells: &[u8], blank: u8) -> u64 {
        let (regions, base) = self.facts.info(set);
        // most sets leave one region: no second load for them
        let region = if regions > 1 { self.facts.region[set * self.n + blank as usize] as u64 } else { 0 };
        base + self.order_rank(mask, cells) * regions + region
    }

    /// The entry of the group on `cells` (in the group's tile order) with the blank on `blank`
    /// (a cell the group does not occupy).
    #[inline]
    pub fn index(&self, cells: &[u8], blank: u8) -> u64 {
        let mask = cells.iter().take(self.k).fold(0u64, |m, &c| m | 1 << c);
        self.index_with(mask, cells, blank)
    }

    /// The entry of `board` (its group's cells and its blank).
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] for a board of another shape.
    pub fn index_board(&self, board: &Board) -> Result<u64, Error> {
        let cells = self.placements.cells_of(board)?;
        Ok(self.index(&cells, board.blank() as u8))
    }

    /// The sets of cells in rank order.
    pub fn set_masks(&self) -> Vec<u64> {
        sets_in_order(self.n, self.k, self.sets())
    }

    /// The number of regions of set `set` and its first entry.
    pub fn set_info(&self, set: usize) -> (usize, u64) {
        let (regions, base) = self.facts.info(set);
        (regions as usize, base)
    }

    /// The region of `cell` (free) in set `set`.
    pub fn region_of(&self, set: usize, cell: usize) -> u8 {
        self.facts.region[set * self.n + cell]
    }

    /// Writes into `cells` (in the group's tile order) the cells of the order of rank `order` on
    /// the set `mask`.
    pub fn unrank_order(&self, mask: u64, order: u64, cells: &mut [u8]) {
        let mut sorted = [0u8; 64];
        let mut m = mask;
        for slot in sorted.iter_mut().take(self.k) {
            *slot = m.trailing_zeros() as u8;
            m &= m - 1;
        }
        let mut used = 0u64;
        let mut rest = order;
        for (i, cell) in cells.iter_mut().enumerate().take(self.k) {
            let digit = (rest / self.weights[i]) as u32;
            rest %= self.weights[i];
            // the digit-th position not used yet
            let mut free = !used & ((1u64 << self.k) - 1);
            for _ in 0..digit {
                free &= free - 1;
            }
            let p = free.trailing_zeros();
            used |= 1 << p;
            *cell = sorted[p as usize];
        }
    }

    /// The cells (in the group's tile order) and the region of entry `entry` (below
    /// [`ZeroIndex::len`]).
    pub fn locate(&self, entry: u64, cells: &mut [u8]) -> u8 {
        let sets = self.facts.sets.len() - 1;
        let orders = self.facts.orders;
        let set = self.facts.sets[..sets].partition_point(|&w| (w >> REGION_BITS) as u64 * orders <= entry) - 1;
        let (regions, base) = self.facts.info(set);
        let regions = regions.max(1);
        // the set of rank `set`, greedily: for j = k down to 1, the largest cell c with
        // C(c, j) <= what is left of the rank
        let stride = MAX_GROUP + 1;
        let mut rest = set as u64;
        let mut mask = 0u64;
        let mut top = self.n;
        for j in (1..=self.k).rev() {
            let c = (0..top).rev().find(|&c| self.facts.binom[c * stride + j] <= rest).unwrap_or(0);
            rest -= self.facts.binom[c * stride + j];
            mask |= 1 << c;
            top = c;
        }
        self.unrank_order(mask, (entry - base) / regions, cells);
        ((entry - base) % regions) as u8
    }

    /// The neighbour mask of every cell.
    pub fn neighbours(&self) -> &[u64] {
        &self.facts.nbr
    }
}

/// Each cell's neighbours as a mask.
fn neighbour_masks(shape: Shape) -> Vec<u64> {
    (0..shape.cells())
        .map(|c| Dir::ALL.iter().filter_map(|d| d.step(shape, c)).fold(0u64, |m, to| m | 1 << to))
        .collect()
}

/// Whether the cells of `shape` outside `occupied` form one region (or none).
pub fn one_region(shape: Shape, occupied: u64) -> bool {
    let n = shape.cells();
    let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let free = full & !occupied;
    free == 0 || flood(&neighbour_masks(shape), free & free.wrapping_neg(), free) == free
}

/// The cells reachable from `seed` through `free`.
fn flood(nbr: &[u64], seed: u64, free: u64) -> u64 {
    let mut reach = seed;
    let mut edge = seed;
    while edge != 0 {
        let mut grow = 0u64;
        let mut e = edge;
        while e != 0 {
            grow |= nbr[e.trailing_zeros() as usize];
            e &= e - 1;
        }
        edge = grow & free & !reach;
        reach |= edge;
    }
    reach
}

/// The bits of a set's region count in [`Facts::sets`].
const REGION_BITS: u32 = 6;

impl Facts {
    /// The number of regions of set `set` and its first entry.
    #[inline(always)]
    fn info(&self, set: usize) -> (u64, u64) {
        let word = self.sets[set];
        ((word & ((1 << REGION_BITS) - 1)) as u64, (word >> REGION_BITS) as u64 * self.orders)
    }

    /// The facts of `k`-tile groups on `shape`, `orders` being `k!`.
    fn new(shape: Shape, k: usize, orders: u64) -> Result<Facts, Error> {
        let n = shape.cells();
        let stride = MAX_GROUP + 1;
        let mut binom = vec![0u64; (n + 1) * stride];
        for c in 0..=n {
            binom[c * stride] = 1;
            for j in 1..=k.min(c) {
                binom[c * stride + j] =
                    binom[(c - 1) * stride + j - 1] + if j < c { binom[(c - 1) * stride + j] } else { 0 };
            }
        }
        let count = binom[n * stride + k];
        if count.saturating_mul(n as u64 + 8) > MAX_SET_BYTES {
            return Err(Error::BadShape(format!(
                "a zero-aware table of {k} tiles on {shape} needs {count} cell sets, more than this build indexes"
            )));
        }
        let nbr = neighbour_masks(shape);
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        // the sets in rank order (colexicographic: increasing as numbers), then their regions
        let masks = sets_in_order(n, k, count as usize);
        let mut region = huge_vec(masks.len() * n, std::iter::repeat_n(u8::MAX, masks.len() * n));
        let counts: Vec<u8> = region
            .par_chunks_mut(n)
            .zip(masks.par_iter())
            .map(|(slots, &mask)| {
                let mut free = full & !mask;
                let mut r = 0u8;
                while free != 0 {
                    let seed = free & free.wrapping_neg();
                    let reach = flood(&nbr, seed, full & !mask);
                    let mut cells = reach;
                    while cells != 0 {
                        slots[cells.trailing_zeros() as usize] = r;
                        cells &= cells - 1;
                    }
                    free &= !reach;
                    r += 1;
                }
                r
            })
            .collect();
        let too_large = || Error::BadShape(format!("a zero-aware table of {k} tiles on {shape} is too large"));
        let mut sets = Vec::with_capacity(masks.len() + 1);
        let mut before = 0u32;
        for &r in &counts {
            if r as u32 >= 1 << REGION_BITS {
                return Err(too_large());
            }
            sets.push(before << REGION_BITS | r as u32);
            before = before.checked_add(r as u32).filter(|&b| b < 1 << (32 - REGION_BITS)).ok_or_else(too_large)?;
        }
        sets.push(before << REGION_BITS);
        if (before as u64).checked_mul(orders).is_none_or(|total| total >= 1 << 55) {
            return Err(too_large());
        }
        Ok(Facts { binom, sets, orders, region, nbr })
    }
}

/// Every `k`-subset of `0..n` as a mask, in increasing numeric order (Gosper's hack), which is
/// the rank order of the combinatorial number system.
fn sets_in_order(n: usize, k: usize, count: usize) -> Vec<u64> {
    let mut out = Vec::with_capacity(count);
    if k == 0 {
        out.push(0);
        return out;
    }
    let mut x: u64 = if k == 64 { u64::MAX } else { (1u64 << k) - 1 };
    let limit_bit = n; // no set may reach bit n
    loop {
        out.push(x);
        let c = x & x.wrapping_neg();
        let r = x.wrapping_add(c);
        if r == 0 {
            break;
        }
        let next = (((r ^ x) >> 2) / c) | r;
        if limit_bit < 64 && next >> limit_bit != 0 {
            break;
        }
        x = next;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_once_on_small_boards() {
        for (shape, tiles) in
            [("3x3", vec![1u16, 2, 3]), ("3x3", vec![1, 4, 7, 8]), ("2x4", vec![1, 2, 5]), ("3x4", vec![1, 2, 3])]
        {
            let shape = Shape::parse(shape).unwrap();
            let z = ZeroIndex::new(shape, &tiles).unwrap();
            let n = shape.cells();
            let k = tiles.len();
            let mut hit = vec![false; z.len() as usize];
            let mut cells = vec![0u8; k];
            for r in 0..z.placements().len() {
                let mask = z.placements().unrank(r, &mut cells);
                assert_eq!(mask.count_ones() as usize, k);
                for blank in (0..n as u8).filter(|&c| mask >> c & 1 == 0) {
                    let i = z.index(&cells, blank) as usize;
                    // the same region gives the same entry: mark once per region
                    let set = z.set_rank(mask);
                    let lowest = (0..n)
                        .find(|&c| mask >> c & 1 == 0 && z.region_of(set, c) == z.region_of(set, blank as usize))
                        .unwrap();
                    if lowest == blank as usize {
                        assert!(!hit[i], "{shape} {tiles:?}: entry {i} twice");
                        hit[i] = true;
                    }
                    let mut located = vec![0u8; k];
                    let region = z.locate(i as u64, &mut located);
                    assert_eq!((located, region), (cells.clone(), z.region_of(set, blank as usize)));
                    // unranking the order gives the cells back
                    let order = z.order_rank(mask, &cells);
                    let mut back = vec![0u8; k];
                    z.unrank_order(mask, order, &mut back);
                    assert_eq!(back, cells);
                }
            }
            assert!(hit.iter().all(|&h| h), "{shape} {tiles:?}: every entry used");
        }
    }

    #[test]
    fn the_24_puzzle_sizes() {
        let shape = Shape::new(5, 5).unwrap();
        let z = ZeroIndex::new(shape, &[1, 5, 6, 10, 11, 12]).unwrap();
        assert_eq!(z.sets(), 177_100);
        assert!(z.len() > 127_512_000 && z.len() < 200_000_000, "{}", z.len());
    }
}
