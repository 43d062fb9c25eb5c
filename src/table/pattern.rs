//! Pattern tables: for a group of tiles, the fewest moves *of those tiles* that bring them to
//! their goal cells, the other tiles being indistinguishable (Culberson & Schaeffer 1998; the
//! additive form of Korf & Felner 2002). Disjoint groups' entries add up to an admissible
//! estimate ([`crate::heuristic::pdb`]).
//!
//! # The search that fills one
//! A breadth-first search backwards from the goal over abstract states: the group's cells and
//! the blank's *region*, the cells the blank can reach without moving a group tile. Moves inside
//! a region cost nothing (they move only tiles outside the group), so a region is one state,
//! named by its lowest cell; a move of a group tile into the region costs one. So this 0-1
//! search is a plain breadth-first search over (placement, region) pairs.
//!
//! The working array has a byte per (placement, free cell), `n!/(n-k)! * (n-k)` bytes (3.9 GiB for
//! the 8-tile group of the 15-puzzle's 7-8 partition), each 0 (not reached) or depth + 1; only
//! a region's lowest cell is ever written. A level scans the bytes of the previous one (8 at a
//! time, skipping 32 Ki-state chunks it did not write to) and expands them in parallel; a child is
//! claimed with an atomic OR after a plain check. The table keeps, for each placement, the least
//! depth over its regions.
//!
//! The stored table is one byte per placement, indexed by
//! [`PatternIndex`], in the file layout of
//! [`crate::table::format`] with encoding 2.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use memmap2::Mmap;
use rayon::prelude::*;

use crate::error::Error;
use crate::index::pattern::{PatternIndex, MAX_GROUP};
use crate::index::zero::ZeroIndex;
use crate::memory::{advise_huge_pages, prefetch};
use crate::puzzle::board::{Board, Shape};
use crate::table::bfs::Progress;
use crate::table::format::{payload_crc, write_atomic, Encoding, Header, PendingFile, PAYLOAD_OFFSET, UNREACHED};
use crate::table::lookup::{map_file, CHECK_ON_OPEN_LIMIT};

/// Working-array words per chunk: the unit of parallel work and of the "written" flags.
const CHUNK_WORDS: usize = 1 << 12;

/// Children held back (and prefetched) before they are checked and claimed: enough misses in
/// flight to hide memory latency.
const RING: usize = 16;

/// An opened pattern table over any bytes holding the whole file.
#[derive(Debug)]
pub struct PatternTable<D: AsRef<[u8]>> {
    data: D,
    header: Header,
    index: PatternIndex,
    /// The (set, order, region) index of a zero-aware table.
    zero: Option<ZeroIndex>,
}

/// The bytes of working memory a build of `index`'s table needs besides the table itself.
pub fn working_bytes(index: &PatternIndex) -> u64 {
    let states = index.len().saturating_mul((index.shape().cells() - index.k()) as u64);
    states.div_ceil(8).saturating_mul(8)
}

/// The bytes a build of `index`'s table needs at its peak, the table included: classic
/// ([`working_bytes`] and a byte a placement), or with `zero` `Some(bits)` zero-aware (a byte an
/// entry of the search, and the table in bytes or bits).
///
/// # Errors
/// Those of [`ZeroIndex::new`] for a zero-aware table.
pub fn build_peak_bytes(index: &PatternIndex, zero: Option<bool>) -> Result<u64, Error> {
    Ok(match zero {
        None => working_bytes(index) + index.len(),
        Some(bits) => {
            let z = ZeroIndex::new(index.shape(), index.tiles())?;
            let entries = z.len();
            // the search's bytes, the table, and each set's facts, cells and first entry
            let sets = z.sets() as u64 * (index.shape().cells() as u64 + 24);
            entries.div_ceil(8) * 8 + if bits { entries.div_ceil(8) } else { entries } + sets
        }
    })
}

/// Builds the pattern table of the group `tiles` for `goal`, in memory.
///
/// `progress` is called after each level of the search (its `total` is the number of
/// (placement, free cell) slots, an upper bound on the states).
///
/// # Errors
/// Those of [`PatternIndex::new`] for a bad group or board.
pub fn build_pattern(
    goal: &Board,
    tiles: &[u16],
    mut progress: impl FnMut(&Progress),
) -> Result<PatternTable<Vec<u8>>, Error> {
    let index = PatternIndex::new(goal.shape(), tiles)?;
    let mut data = vec![0u8; PAYLOAD_OFFSET + index.len() as usize];
    fill_file(&index, None, goal, &mut data, &mut progress, &AtomicBool::new(false))?;
    PatternTable::from_parts(data, index, None)
}

/// Builds the zero-aware pattern table of the group `tiles` for `goal`, in memory: one entry per
/// (placement, blank region) ([`ZeroIndex`]), a byte each or with `bits` one bit each
/// ([`Encoding::ZeroBit`]).
///
/// # Errors
/// Those of [`ZeroIndex::new`] for a bad group or board.
pub fn build_zero_pattern(
    goal: &Board,
    tiles: &[u16],
    bits: bool,
    mut progress: impl FnMut(&Progress),
) -> Result<PatternTable<Vec<u8>>, Error> {
    let zero = ZeroIndex::new(goal.shape(), tiles)?;
    let len = if bits { zero.len().div_ceil(8) } else { zero.len() };
    let mut data = vec![0u8; PAYLOAD_OFFSET + len as usize];
    fill_file(zero.placements(), Some((&zero, bits)), goal, &mut data, &mut progress, &AtomicBool::new(false))?;
    PatternTable::from_parts(data, zero.placements().clone(), Some(zero))
}

/// As [`build_zero_pattern`], straight into the file `path`, replacing it atomically.
///
/// # Errors
/// As [`build_zero_pattern`] and [`build_pattern_file`].
pub fn build_zero_pattern_file(
    goal: &Board,
    tiles: &[u16],
    bits: bool,
    path: &Path,
    progress: impl FnMut(&Progress),
) -> Result<PatternTable<Mmap>, Error> {
    build_zero_pattern_file_until(goal, tiles, bits, path, progress, &AtomicBool::new(false))
}

/// As [`build_zero_pattern_file`], stopping with [`Error::BuildCancelled`] after the first level
/// at which `stop` is set; the file at `path` is then untouched, as after any failed build.
///
/// # Errors
/// Those of [`build_zero_pattern_file`], and [`Error::BuildCancelled`].
pub fn build_zero_pattern_file_until(
    goal: &Board,
    tiles: &[u16],
    bits: bool,
    path: &Path,
    mut progress: impl FnMut(&Progress),
    stop: &AtomicBool,
) -> Result<PatternTable<Mmap>, Error> {
    let zero = ZeroIndex::new(goal.shape(), tiles)?;
    let len = if bits { zero.len().div_ceil(8) } else { zero.len() };
    let mut pending = PendingFile::create(path, PAYLOAD_OFFSET as u64 + len)?;
    fill_file(zero.placements(), Some((&zero, bits)), goal, pending.bytes_mut(), &mut progress, stop)?;
    let map = pending.commit()?;
    PatternTable::from_parts(map, zero.placements().clone(), Some(zero))
}

/// Builds the pattern table of the group `tiles` for `goal` straight into the file `path`,
/// replacing it atomically (an existing file is untouched until the new one is complete).
///
/// # Errors
/// As [`build_pattern`], and [`Error::Io`] when the file cannot be created, allocated, synced or
/// renamed.
pub fn build_pattern_file(
    goal: &Board,
    tiles: &[u16],
    path: &Path,
    progress: impl FnMut(&Progress),
) -> Result<PatternTable<Mmap>, Error> {
    build_pattern_file_until(goal, tiles, path, progress, &AtomicBool::new(false))
}

/// As [`build_pattern_file`], stopping with [`Error::BuildCancelled`] after the first level at
/// which `stop` is set; the file at `path` is then untouched, as after any failed build.
///
/// # Errors
/// Those of [`build_pattern_file`], and [`Error::BuildCancelled`].
pub fn build_pattern_file_until(
    goal: &Board,
    tiles: &[u16],
    path: &Path,
    mut progress: impl FnMut(&Progress),
    stop: &AtomicBool,
) -> Result<PatternTable<Mmap>, Error> {
    let index = PatternIndex::new(goal.shape(), tiles)?;
    let mut pending = PendingFile::create(path, PAYLOAD_OFFSET as u64 + index.len())?;
    fill_file(&index, None, goal, pending.bytes_mut(), &mut progress, stop)?;
    let map = pending.commit()?;
    PatternTable::from_parts(map, index, None)
}

/// Builds one group's table at `path`: classic ([`build_pattern_file_until`]), or with `zero`
/// `Some(bits)` zero-aware in bits or bytes ([`build_zero_pattern_file_until`]): what the
/// command line and the Python package do for each group of a partition.
///
/// # Errors
/// Those of the two builds.
pub fn build_group_file_until(
    goal: &Board,
    tiles: &[u16],
    zero: Option<bool>,
    path: &Path,
    progress: impl FnMut(&Progress),
    stop: &AtomicBool,
) -> Result<PatternTable<Mmap>, Error> {
    match zero {
        None => build_pattern_file_until(goal, tiles, path, progress, stop),
        Some(bits) => build_zero_pattern_file_until(goal, tiles, bits, path, progress, stop),
    }
}

/// Opens a pattern table file, memory-mapped, with the cheap checks of [`PatternTable::new`].
///
/// # Errors
/// [`Error::Io`] when the file cannot be opened or mapped, and every error of
/// [`PatternTable::new`].
pub fn open_pattern(path: &Path) -> Result<PatternTable<Mmap>, Error> {
    let file = crate::table::lookup::open_regular(path)?;
    let map = map_file(&file).map_err(|e| Error::io("memory-mapping", path, e))?;
    PatternTable::new(map)
}

fn fill_file(
    index: &PatternIndex,
    zero: Option<(&ZeroIndex, bool)>,
    goal: &Board,
    file: &mut [u8],
    progress: &mut dyn FnMut(&Progress),
    stop: &AtomicBool,
) -> Result<(), Error> {
    let (head, payload) = file.split_at_mut(PAYLOAD_OFFSET);
    let (histogram, encoding, entries) = match zero {
        None => (fill_until(index, goal, payload, progress, stop)?, Encoding::PatternByte, index.len()),
        Some((z, false)) => (fill_zero_until(z, goal, payload, progress, stop)?, Encoding::ZeroByte, z.len()),
        Some((z, true)) => {
            // packed straight from the search's bytes: no byte-per-entry copy at the peak
            let work = search_zero(z, goal, progress, stop)?;
            let histogram = zero_histogram(z, &work)?;
            bits_from_search(&work, z.len(), payload);
            (histogram, Encoding::ZeroBit, z.len())
        }
    };
    let header = Header {
        shape: index.shape(),
        goal: goal.clone(),
        encoding,
        entries,
        max_depth: (histogram.len() - 1) as u8,
        payload_crc: payload_crc(payload),
        histogram,
        group: index.tiles().to_vec(),
    };
    head.copy_from_slice(&header.to_bytes());
    Ok(())
}

impl<D: AsRef<[u8]>> PatternTable<D> {
    /// Checks and wraps a whole pattern table file held in `data`: magic, version, header
    /// checksum, kind, shape, group, goal, exact length; and the payload checksum too when the
    /// file is at most [`CHECK_ON_OPEN_LIMIT`] bytes, as [`Table::new`](crate::Table::new) does.
    /// Larger payloads are checked by [`PatternTable::check_payload_crc`], which a search calls
    /// once before trusting the table.
    ///
    /// # Errors
    /// [`Error::BadMagic`], [`Error::UnsupportedVersion`], [`Error::CorruptHeader`],
    /// [`Error::WrongLength`], [`Error::WrongKind`] for a perfect table,
    /// [`Error::ChecksumMismatch`].
    pub fn new(data: D) -> Result<PatternTable<D>, Error> {
        let header = Header::parse(data.as_ref())?;
        if !header.encoding.is_pattern() {
            return Err(Error::WrongKind { expected: "a pattern table", found: header.describe() });
        }
        let len = header.file_len();
        if data.as_ref().len() as u64 != len {
            return Err(Error::WrongLength { expected: len, found: data.as_ref().len() as u64 });
        }
        let index = PatternIndex::new(header.shape, &header.group)?;
        let zero =
            if header.encoding.is_zero_aware() { Some(ZeroIndex::new(header.shape, &header.group)?) } else { None };
        let table = PatternTable { data, header, index, zero };
        if table.header.file_len() <= CHECK_ON_OPEN_LIMIT {
            table.check_payload_crc()?;
        }
        Ok(table)
    }

    fn from_parts(data: D, index: PatternIndex, zero: Option<ZeroIndex>) -> Result<PatternTable<D>, Error> {
        let header = Header::parse(data.as_ref())?;
        Ok(PatternTable { data, header, index, zero })
    }

    /// The (set, order, region) index of a zero-aware table; `None` for a classic one.
    pub fn zero_index(&self) -> Option<&ZeroIndex> {
        self.zero.as_ref()
    }

    /// Checks the payload against its CRC-32 (a second or so for the 8-tile table of the
    /// 15-puzzle).
    ///
    /// # Errors
    /// [`Error::ChecksumMismatch`].
    pub fn check_payload_crc(&self) -> Result<(), Error> {
        let found = payload_crc(self.payload());
        if found != self.header.payload_crc {
            return Err(Error::ChecksumMismatch { expected: self.header.payload_crc, found });
        }
        Ok(())
    }

    /// The decoded header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The placement index.
    pub fn index(&self) -> &PatternIndex {
        &self.index
    }

    /// The goal.
    pub fn goal(&self) -> &Board {
        &self.header.goal
    }

    /// The group's tiles, ascending.
    pub fn tiles(&self) -> &[u16] {
        self.index.tiles()
    }

    /// The whole file.
    pub fn as_bytes(&self) -> &[u8] {
        self.data.as_ref()
    }

    /// The bytes the table was made from.
    pub fn into_inner(self) -> D {
        self.data
    }

    /// One byte per placement, in [`PatternIndex`] order.
    pub fn payload(&self) -> &[u8] {
        &self.data.as_ref()[PAYLOAD_OFFSET..]
    }

    /// `histogram()[d]`: the number of placements at distance `d`.
    pub fn histogram(&self) -> &[u64] {
        &self.header.histogram
    }

    /// The pattern distance of `board`: the fewest moves of the group's tiles, counting only
    /// them, that bring the group home.
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] for a board of another shape; [`Error::Corrupt`] for an entry
    /// above the table's maximum.
    pub fn distance(&self, board: &Board) -> Result<u8, Error> {
        let rank = self.index.rank_board(board)?;
        let d = match (&self.zero, self.header.encoding) {
            (None, _) => self.payload()[rank as usize],
            (Some(z), Encoding::ZeroByte) => self.payload()[z.index_board(board)? as usize],
            (Some(z), _) => {
                let cells = self.index.cells_of(board)?;
                let goal = self.index.cells_of(self.goal())?;
                let walk =
                    ZeroWalk { index: z, bits: self.payload(), goal: &goal, goal_blank: self.goal().blank() as u8 };
                walk.value(&cells, board.blank() as u8).map_or(UNREACHED, |d| d.min(254) as u8)
            }
        };
        if d > self.header.max_depth {
            return Err(Error::Corrupt {
                index: rank,
                board: board.to_string(),
                detail: format!("entry {d} is above the table's maximum {}", self.header.max_depth),
            });
        }
        Ok(d)
    }

    /// Writes the table to `path` atomically.
    ///
    /// # Errors
    /// [`Error::Io`]; an existing file at `path` is then left untouched.
    pub fn write(&self, path: &Path) -> Result<(), Error> {
        write_atomic(path, self.as_bytes())
    }

    /// Rebuilds the table from its header's goal and group and compares every entry: `Ok(None)`
    /// when they all agree, otherwise the first placement that differs, with the stored and the
    /// true value. Also checks the payload checksum first (a mismatch is reported as an error).
    ///
    /// # Errors
    /// [`Error::ChecksumMismatch`]; the errors of a build.
    pub fn verify(&self, progress: impl FnMut(&Progress)) -> Result<Option<Mismatch>, Error> {
        self.check_payload_crc()?;
        let (fresh, histogram) = match (&self.zero, self.header.encoding) {
            (None, _) => {
                let mut fresh = vec![0u8; self.index.len() as usize];
                let histogram = fill(&self.index, self.goal(), &mut fresh, progress)?;
                (fresh, histogram)
            }
            (Some(z), encoding) => {
                // the search's bytes, then the payload made from them (in bits straight from
                // them): no more memory than the build
                let mut progress = progress;
                let work = search_zero(z, self.goal(), &mut progress, &AtomicBool::new(false))?;
                let histogram = zero_histogram(z, &work)?;
                let mut fresh = vec![0u8; stored_len(z.len(), encoding)];
                if encoding == Encoding::ZeroBit {
                    bits_from_search(&work, z.len(), &mut fresh);
                } else {
                    bytes_from_search(&work, &mut fresh);
                }
                (fresh, histogram)
            }
        };
        let stored = self.payload();
        let first =
            stored.par_chunks(1 << 20).zip(fresh.par_chunks(1 << 20)).enumerate().find_first(|(_, (a, b))| a != b).map(
                |(chunk, (a, b))| {
                    let at = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(0);
                    (chunk * (1 << 20) + at) as u64
                },
            );
        if let Some(rank) = first {
            let mut cells = vec![0u8; self.index.k()];
            match &self.zero {
                None => {
                    self.index.unrank(rank, &mut cells);
                }
                Some(z) => {
                    let entry = if self.header.encoding == Encoding::ZeroBit { rank * 8 } else { rank };
                    z.locate(entry.min(z.len() - 1), &mut cells);
                }
            }
            return Ok(Some(Mismatch { rank, cells, stored: stored[rank as usize], expected: fresh[rank as usize] }));
        }
        if histogram != self.header.histogram {
            return Ok(Some(Mismatch { rank: u64::MAX, cells: Vec::new(), stored: 0, expected: 0 }));
        }
        Ok(None)
    }
}

/// The bit of entry `i` of a 1-bit zero-aware table.
#[inline(always)]
pub fn zero_bit(bits: &[u8], i: u64) -> u32 {
    (bits[(i >> 3) as usize] >> (i & 7)) as u32 & 1
}

/// The distance of a neighbour of a state at distance `parent` in a 1-bit zero-aware table,
/// given the neighbour's bit: a move of a group tile changes the distance by exactly one (by
/// one at most, and the parity of the group's cells flips), and `d - 1` and `d + 1` differ in
/// bit 1.
#[inline(always)]
pub fn zero_bit_step(parent: u32, bit: u32) -> u32 {
    if parent > 0 && ((parent - 1) >> 1) & 1 == bit {
        parent - 1
    } else {
        parent + 1
    }
}

/// A 1-bit zero-aware table with what finding an absolute distance needs: the distance of a
/// state is the number of steps down to the goal, each step to the neighbour whose bit says it
/// is one closer (its distance mod 4 is known from the state's own bit and parity).
pub struct ZeroWalk<'a> {
    /// The index.
    pub index: &'a ZeroIndex,
    /// The packed bits.
    pub bits: &'a [u8],
    /// The group's goal cells (in its tile order).
    pub goal: &'a [u8],
    /// The goal's blank cell.
    pub goal_blank: u8,
}

impl ZeroWalk<'_> {
    /// The distance of the group on `cells` with the blank on `blank`; `None` when the walk finds
    /// no step down (a damaged table).
    pub fn value(&self, cells: &[u8], blank: u8) -> Option<u32> {
        let z = self.index;
        let k = z.k();
        let cols = z.shape().cols();
        let colour = |c: u8| ((c as usize / cols + c as usize % cols) & 1) as u32;
        let mut cells: Vec<u8> = cells[..k].to_vec();
        let mut blank = blank;
        let mut mask = cells.iter().fold(0u64, |m, &c| m | 1 << c);
        let goal_entry = z.index(self.goal, self.goal_blank);
        let parity = cells.iter().zip(self.goal).map(|(&a, &b)| colour(a) ^ colour(b)).fold(0, |x, y| x ^ y);
        let mut entry = z.index_with(mask, &cells, blank);
        let mut mod4 = zero_bit(self.bits, entry) << 1 | parity;
        let nbr = z.neighbours();
        let mut steps = 0u32;
        while entry != goal_entry {
            if steps > 255 {
                return None;
            }
            let set = z.set_rank(mask);
            let here = z.region_of(set, blank as usize);
            let want = ((mod4 + 3) % 4) >> 1;
            let mut moved = false;
            'tiles: for i in 0..k {
                let from = cells[i];
                let mut into = nbr[from as usize] & !mask;
                while into != 0 {
                    let to = into.trailing_zeros() as u8;
                    into &= into - 1;
                    if z.region_of(set, to as usize) != here {
                        continue;
                    }
                    cells[i] = to;
                    let m2 = mask ^ (1 << from) ^ (1 << to);
                    let e2 = z.index_with(m2, &cells, from);
                    if zero_bit(self.bits, e2) == want {
                        mask = m2;
                        blank = from;
                        entry = e2;
                        moved = true;
                        break 'tiles;
                    }
                    cells[i] = from;
                }
            }
            if !moved {
                return None;
            }
            mod4 = (mod4 + 3) % 4;
            steps += 1;
        }
        Some(steps)
    }
}

/// The first entry of a pattern table that a rebuild disagrees with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The placement's rank, or `u64::MAX` when every entry agrees but the header's histogram
    /// does not.
    pub rank: u64,
    /// The group's cells at that rank, in the group's tile order.
    pub cells: Vec<u8>,
    /// The value in the file.
    pub stored: u8,
    /// The value the rebuild gives.
    pub expected: u8,
}

/// The board's cells as bit masks: neighbours, and the columns a one-cell shift must not wrap
/// into.
struct Geometry {
    cols: u32,
    full: u64,
    nbr: [u64; 64],
    /// Cells not in the first column: where a shift to the next cell may land.
    not_first_col: u64,
    /// Cells not in the last column: where a shift to the previous cell may land.
    not_last_col: u64,
    /// For boards of at most 16 cells: `regions[free << 4 | cell]`, the region of `cell` within
    /// the free cells `free` (2 MiB, looked up instead of flooding).
    regions: Vec<u16>,
}

impl Geometry {
    fn new(shape: Shape, with_lut: bool) -> Geometry {
        let (n, cols) = (shape.cells(), shape.cols());
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut nbr = [0u64; 64];
        for (c, m) in nbr.iter_mut().enumerate().take(n) {
            for d in crate::puzzle::board::Dir::ALL {
                if let Some(to) = d.step(shape, c) {
                    *m |= 1u64 << to;
                }
            }
        }
        let (mut first, mut last) = (0u64, 0u64);
        for c in 0..n {
            if c % cols == 0 {
                first |= 1 << c;
            }
            if c % cols == cols - 1 {
                last |= 1 << c;
            }
        }
        let mut g = Geometry {
            cols: cols as u32,
            full,
            nbr,
            not_first_col: full & !first,
            not_last_col: full & !last,
            regions: Vec::new(),
        };
        if with_lut && n <= 16 {
            let regions: Vec<u16> = (0..1usize << 20)
                .into_par_iter()
                .map(|i| {
                    let (free, cell) = ((i >> 4) as u64, i & 15);
                    if cell < n && free >> cell & 1 == 1 && free & !full == 0 {
                        g.flood(1 << cell, free) as u16
                    } else {
                        0
                    }
                })
                .collect();
            g.regions = regions;
        }
        g
    }

    /// The cells reachable from `seed` through `free`.
    #[inline]
    fn flood(&self, seed: u64, free: u64) -> u64 {
        let mut r = seed;
        loop {
            let g =
                (r | r << self.cols | r >> self.cols | (r << 1 & self.not_first_col) | (r >> 1 & self.not_last_col))
                    & free;
            if g == r {
                return r;
            }
            r = g;
        }
    }

    /// The region of `cell` within `free` (which holds `cell`).
    #[inline]
    fn region(&self, free: u64, cell: u32) -> u64 {
        if self.regions.is_empty() {
            self.flood(1 << cell, free)
        } else {
            self.regions[(free as usize) << 4 | cell as usize] as u64
        }
    }
}

/// The position of the `n`-th (from 0) one bit of `mask`.
#[inline]
fn nth_one(mut mask: u64, n: u32) -> u32 {
    for _ in 0..n {
        mask &= mask - 1;
    }
    mask.trailing_zeros()
}

/// The bytes of `x` that are zero, as 0x80 in each such byte (exact, no false positives).
#[inline]
fn zero_bytes(x: u64) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    !(((x & LOW7) + LOW7) | x | LOW7)
}

/// What every worker reads during one level.
struct Level<'a> {
    index: &'a PatternIndex,
    geo: &'a Geometry,
    work: &'a [AtomicU64],
    next: &'a [AtomicBool],
    /// Free cells per placement, `n - k`.
    m: u64,
    /// The byte of this level's states (depth + 1) and of the next level's.
    code: u64,
}

impl Level<'_> {
    /// Expands every state of this level in chunk `chunk`; returns the states claimed for the
    /// next level.
    fn chunk(&self, chunk: usize) -> u64 {
        scan_chunk(self.work, self.next, self.code, chunk, |s, ring| self.expand(s, ring))
    }

    /// Generates the children of state `s` into the ring, claiming the ones the ring pushes out.
    #[inline]
    fn expand(&self, s: u64, ring: &mut Ring) -> u64 {
        let (p, f) = (s / self.m, (s % self.m) as u32);
        let k = self.index.k();
        let mut pos = [0u8; MAX_GROUP];
        let occupied = self.index.unrank(p, &mut pos[..k]);
        let free = self.geo.full & !occupied;
        let region = self.geo.region(free, nth_one(free, f));
        let mut found = 0;
        for i in 0..k {
            let from = pos[i] as u32;
            let mut into = self.geo.nbr[from as usize] & region;
            while into != 0 {
                let to = into.trailing_zeros();
                into &= into - 1;
                pos[i] = to as u8;
                let free2 = free ^ (1u64 << from) ^ (1u64 << to);
                let region2 = self.geo.region(free2, from);
                let low = region2.trailing_zeros();
                let f2 = (free2 & ((1u64 << low) - 1)).count_ones() as u64;
                let child = self.index.rank(&pos[..k]) * self.m + f2;
                prefetch(&self.work[(child >> 3) as usize]);
                if let Some(old) = ring.push(child) {
                    found += claim(self.work, self.next, self.code, old);
                }
            }
            pos[i] = from as u8;
        }
        found
    }
}

/// A small FIFO of children whose words have been prefetched.
#[derive(Default)]
struct Ring {
    items: [u64; RING],
    head: usize,
    len: usize,
}

impl Ring {
    /// Adds `s`; when full, returns the oldest entry to be processed now.
    #[inline]
    fn push(&mut self, s: u64) -> Option<u64> {
        if self.len == RING {
            let old = self.items[self.head];
            self.items[self.head] = s;
            self.head = (self.head + 1) % RING;
            Some(old)
        } else {
            self.items[(self.head + self.len) % RING] = s;
            self.len += 1;
            None
        }
    }

    fn pop(&mut self) -> Option<u64> {
        if self.len == 0 {
            return None;
        }
        let s = self.items[self.head];
        self.head = (self.head + 1) % RING;
        self.len -= 1;
        Some(s)
    }
}

/// A zeroed array of `words` atomic words, with the kernel asked for huge pages (random writes
/// over gigabytes miss the TLB far less).
fn zeroed_words(words: usize) -> Vec<AtomicU64> {
    let v: Vec<u64> = vec![0; words]; // calloc: the zero pages come from the kernel lazily
    let mut v = std::mem::ManuallyDrop::new(v);
    let (ptr, len, cap) = (v.as_mut_ptr(), v.len(), v.capacity());
    advise_huge_pages(ptr as *mut u8, len * 8);
    // SAFETY: AtomicU64 has the same size, alignment and bit validity as u64 (its documented
    // guarantee), and the vector's allocation is handed over whole, never used through `v` again.
    unsafe { Vec::from_raw_parts(ptr as *mut AtomicU64, len, cap) }
}

/// Fills `out` (one byte per placement of `index`) with each placement's pattern distance to
/// the group's cells in `goal`, and returns the histogram of the entries.
///
/// # Errors
/// [`Error::BadShape`] if `out` is not `index.len()` bytes or `goal` is of another shape, or if a
/// distance would not fit in a byte.
pub fn fill(
    index: &PatternIndex,
    goal: &Board,
    out: &mut [u8],
    mut progress: impl FnMut(&Progress),
) -> Result<Vec<u64>, Error> {
    fill_until(index, goal, out, &mut progress, &AtomicBool::new(false))
}

/// [`fill`], stopping with [`Error::BuildCancelled`] after the first level at which `stop` is set.
fn fill_until(
    index: &PatternIndex,
    goal: &Board,
    out: &mut [u8],
    progress: &mut dyn FnMut(&Progress),
    stop: &AtomicBool,
) -> Result<Vec<u64>, Error> {
    if goal.shape() != index.shape() || out.len() as u64 != index.len() {
        return Err(Error::BadShape(format!("a pattern table of {} entries for {}", out.len(), goal.shape())));
    }
    let n = index.shape().cells();
    let k = index.k();
    let parallel = index.len() * ((n - k) as u64) >= 1 << 18;
    let work = search(index, goal, progress, stop)?;

    // each placement's least depth over its regions
    let m = n - k;
    let per = (1usize << 16).max(m);
    let missing = std::sync::atomic::AtomicU64::new(u64::MAX);
    let fold = |(i, part): (usize, &mut [u8])| {
        for (j, entry) in part.iter_mut().enumerate() {
            let p = i * per + j;
            let mut best = u8::MAX;
            for s in p * m..p * m + m {
                let b = work_byte(&work, s as u64);
                if b != 0 && b - 1 < best {
                    best = b - 1;
                }
            }
            if best == u8::MAX {
                missing.fetch_min(p as u64, Relaxed);
            }
            *entry = best;
        }
    };
    if parallel {
        out.par_chunks_mut(per).enumerate().for_each(fold);
    } else {
        out.chunks_mut(per).enumerate().for_each(fold);
    }
    drop(work);
    let missing = missing.into_inner();
    if missing != u64::MAX {
        return Err(Error::BadShape(format!(
            "placement {missing} of the group was never reached: a bug, please report it"
        )));
    }
    Ok(histogram_of(out))
}

/// Fills `out` (one byte per entry of `index`: placement and blank region) with the zero-aware
/// pattern distance of each entry, and returns the histogram of the entries: a search over the
/// entries themselves, a byte each.
///
/// # Errors
/// As [`fill`].
pub fn fill_zero(
    index: &ZeroIndex,
    goal: &Board,
    out: &mut [u8],
    mut progress: impl FnMut(&Progress),
) -> Result<Vec<u64>, Error> {
    fill_zero_until(index, goal, out, &mut progress, &AtomicBool::new(false))
}

/// [`fill_zero`], stopping with [`Error::BuildCancelled`] after the first level at which `stop`
/// is set.
fn fill_zero_until(
    index: &ZeroIndex,
    goal: &Board,
    out: &mut [u8],
    progress: &mut dyn FnMut(&Progress),
    stop: &AtomicBool,
) -> Result<Vec<u64>, Error> {
    if goal.shape() != index.shape() || out.len() as u64 != index.len() {
        return Err(Error::BadShape(format!("a zero-aware table of {} entries for {}", out.len(), goal.shape())));
    }
    let work = search_zero(index, goal, progress, stop)?;
    let histogram = zero_histogram(index, &work)?;
    bytes_from_search(&work, out);
    Ok(histogram)
}

/// The payload bytes of a zero-aware table of `entries` entries in `encoding`.
fn stored_len(entries: u64, encoding: Encoding) -> usize {
    (if encoding == Encoding::ZeroBit { entries.div_ceil(8) } else { entries }) as usize
}

/// Writes the distances [`search_zero`] left in `work` (each byte depth + 1) into `out`, a byte
/// an entry.
fn bytes_from_search(work: &[AtomicU64], out: &mut [u8]) {
    out.par_chunks_mut(8).zip(work.par_iter()).for_each(|(bytes, word)| {
        let word = word.load(Relaxed);
        for (j, b) in bytes.iter_mut().enumerate() {
            *b = ((word >> (8 * j)) as u8).wrapping_sub(1);
        }
    });
}

/// Packs the distances [`search_zero`] left in `work` into `out` ([`Encoding::ZeroBit`]): bit 1
/// of entry `i`'s distance as bit `i % 8` of byte `i / 8`, the last byte's bits past `entries` 0.
fn bits_from_search(work: &[AtomicU64], entries: u64, out: &mut [u8]) {
    out.par_iter_mut().zip(work.par_iter()).enumerate().for_each(|(i, (byte, word))| {
        let word = word.load(Relaxed);
        let here = 8u64.min(entries - 8 * i as u64);
        *byte = (0..here).fold(0u8, |b, j| b | (((word >> (8 * j)) as u8).wrapping_sub(1) >> 1 & 1) << j);
    });
}

/// The histogram of the distances [`search_zero`] left in `work` (each byte depth + 1), or an
/// error when an entry was never reached.
fn zero_histogram(index: &ZeroIndex, work: &[AtomicU64]) -> Result<Vec<u64>, Error> {
    let entries = index.len();
    let per = 1usize << 14;
    let (mut histogram, missing) = work
        .par_chunks(per)
        .enumerate()
        .map(|(c, words)| {
            let mut h = [0u64; 256];
            let mut missing = false;
            for (w, word) in words.iter().enumerate() {
                let word = word.load(Relaxed);
                let first = ((c * per + w) * 8) as u64;
                for j in 0..8u64.min(entries.saturating_sub(first)) {
                    let b = (word >> (8 * j)) as u8;
                    missing |= b == 0;
                    h[b.wrapping_sub(1) as usize] += 1;
                }
            }
            (h, missing)
        })
        .reduce(
            || ([0u64; 256], false),
            |(mut a, m), (b, n)| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                (a, m || n)
            },
        );
    if missing {
        return Err(Error::BadShape(
            "a (placement, region) of the group was never reached: a bug, please report it".into(),
        ));
    }
    histogram[255] = 0;
    let mut histogram = histogram.to_vec();
    while histogram.last() == Some(&0) {
        histogram.pop();
    }
    Ok(histogram)
}

/// The breadth-first search behind [`fill_zero`], over the table's own entries (a placement of
/// the group and a region of the blank, [`ZeroIndex`]): a byte an entry, its depth + 1 once
/// reached, 0 before. Where [`search`] keeps a byte per (placement, free cell), this keeps one
/// per entry: 181 M bytes against 2.4 G for a 6-tile group of the 24-puzzle, and a 7-tile
/// group's 2.9 G bytes against 40 G.
fn search_zero(
    index: &ZeroIndex,
    goal: &Board,
    progress: &mut dyn FnMut(&Progress),
    stop: &AtomicBool,
) -> Result<Vec<AtomicU64>, Error> {
    let shape = index.shape();
    let n = shape.cells();
    let entries = index.len();
    let work = zeroed_words(entries.div_ceil(8) as usize);
    // every set's cells, and its first entry (then the number of entries)
    let masks = index.set_masks();
    let bases: Vec<u64> = (0..=masks.len()).map(|s| index.set_info(s).1).collect();
    let goal_cells = index.placements().cells_of(goal)?;
    let start = index.index(&goal_cells, goal.blank() as u8);
    let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    breadth_first(&work, start, entries, entries >= 1 << 16, shape, progress, stop, |code, next, c| {
        ZeroLevel { index, masks: &masks, bases: &bases, full, work: &work, next, code }.chunk(c)
    })?;
    Ok(work)
}

/// What every worker of [`search_zero`] reads during one level.
struct ZeroLevel<'a> {
    index: &'a ZeroIndex,
    /// Each set's cells, and its first entry (then the number of entries).
    masks: &'a [u64],
    bases: &'a [u64],
    full: u64,
    work: &'a [AtomicU64],
    next: &'a [AtomicBool],
    /// The byte of this level's entries (depth + 1).
    code: u64,
}

/// Where a worker of [`search_zero`] is: the set of the entries it expands, each region's
/// cells, and the order last unranked.
struct AtSet {
    set: usize,
    base: u64,
    end: u64,
    mask: u64,
    regions: u64,
    region_cells: [u64; 64],
    order: u64,
    cells: [u8; MAX_GROUP],
}

impl ZeroLevel<'_> {
    /// Expands every entry of this level in chunk `chunk`; returns the entries claimed for the
    /// next level.
    fn chunk(&self, chunk: usize) -> u64 {
        let mut at = AtSet {
            set: 0,
            base: 1,
            end: 0,
            mask: 0,
            regions: 1,
            region_cells: [0; 64],
            order: u64::MAX,
            cells: [0; MAX_GROUP],
        };
        scan_chunk(self.work, self.next, self.code, chunk, |e, ring| self.expand(e, &mut at, ring))
    }

    /// Generates the children of entry `e` into the ring, claiming the ones the ring pushes out.
    #[inline]
    fn expand(&self, e: u64, at: &mut AtSet, ring: &mut Ring) -> u64 {
        let z = self.index;
        let k = z.k();
        if e < at.base || e >= at.end {
            let set = self.bases.partition_point(|&b| b <= e) - 1;
            let (regions, base) = z.set_info(set);
            at.set = set;
            at.base = base;
            at.end = self.bases[set + 1];
            at.mask = self.masks[set];
            at.regions = regions.max(1) as u64;
            at.order = u64::MAX;
            at.region_cells[..regions.max(1)].fill(0);
            let mut free = self.full & !at.mask;
            while free != 0 {
                let c = free.trailing_zeros() as usize;
                free &= free - 1;
                at.region_cells[z.region_of(set, c) as usize] |= 1 << c;
            }
        }
        let (order, region) = ((e - at.base) / at.regions, (e - at.base) % at.regions);
        if order != at.order {
            z.unrank_order(at.mask, order, &mut at.cells[..k]);
            at.order = order;
        }
        let region = at.region_cells[region as usize];
        let nbr = z.neighbours();
        let mut cells = at.cells;
        let mut found = 0;
        for i in 0..k {
            let from = cells[i];
            let mut into = nbr[from as usize] & region;
            while into != 0 {
                let to = into.trailing_zeros() as u8;
                into &= into - 1;
                cells[i] = to;
                let child = z.index_with(at.mask ^ (1 << from) ^ (1 << to), &cells[..k], from);
                prefetch(&self.work[(child >> 3) as usize]);
                if let Some(old) = ring.push(child) {
                    found += claim(self.work, self.next, self.code, old);
                }
            }
            cells[i] = from;
        }
        found
    }
}

/// Expands (with `expand`) every state of `work` in chunk `chunk` whose byte is `code`, then
/// claims what is left in the ring; returns the states claimed for the next level.
#[inline]
fn scan_chunk(
    work: &[AtomicU64],
    next: &[AtomicBool],
    code: u64,
    chunk: usize,
    mut expand: impl FnMut(u64, &mut Ring) -> u64,
) -> u64 {
    let first = chunk * CHUNK_WORDS;
    let words = &work[first..(first + CHUNK_WORDS).min(work.len())];
    let pattern = code * 0x0101_0101_0101_0101;
    let mut ring = Ring::default();
    let mut found = 0u64;
    for (w, word) in words.iter().enumerate() {
        let mut hits = zero_bytes(word.load(Relaxed) ^ pattern);
        while hits != 0 {
            let byte = hits.trailing_zeros() / 8;
            hits &= hits - 1;
            found += expand(((first + w) as u64) * 8 + byte as u64, &mut ring);
        }
    }
    while let Some(s) = ring.pop() {
        found += claim(work, next, code, s);
    }
    found
}

/// The levels of a breadth-first search over the states of `work` (a byte each, depth + 1 once
/// reached) from state `start`, `total` states at most: `level(code, next, chunk)` expands the
/// states of chunk `chunk` whose byte is `code`, flagging in `next` the chunks it claims states
/// in, and returns how many it claimed. Chunks in parallel when `parallel`.
#[allow(clippy::too_many_arguments)]
fn breadth_first(
    work: &[AtomicU64],
    start: u64,
    total: u64,
    parallel: bool,
    shape: Shape,
    progress: &mut dyn FnMut(&Progress),
    stop: &AtomicBool,
    level: impl Fn(u64, &[AtomicBool], usize) -> u64 + Sync,
) -> Result<(), Error> {
    let started = Instant::now();
    let chunks = work.len().div_ceil(CHUNK_WORDS);
    let mut cur: Vec<AtomicBool> = (0..chunks).map(|_| AtomicBool::new(false)).collect();
    let mut next: Vec<AtomicBool> = (0..chunks).map(|_| AtomicBool::new(false)).collect();
    work[(start >> 3) as usize].store(1 << ((start & 7) * 8), Relaxed);
    cur[(start >> 3) as usize / CHUNK_WORDS].store(true, Relaxed);
    let mut reached = 1u64;
    let mut level_states = 1u64;
    for depth in 0u64.. {
        progress(&Progress { depth: depth as u32, level_states, reached, total, elapsed: started.elapsed() });
        if stop.load(Relaxed) {
            return Err(Error::BuildCancelled { depth: depth as u32 });
        }
        if depth + 2 >= UNREACHED as u64 {
            return Err(Error::BadShape(format!("{shape} has pattern distances beyond 253 moves")));
        }
        let todo: Vec<usize> = (0..chunks).filter(|&c| cur[c].swap(false, Relaxed)).collect();
        let (code, flags) = (depth + 1, &next[..]);
        level_states = if parallel {
            todo.par_iter().with_max_len(1).map(|&c| level(code, flags, c)).sum()
        } else {
            todo.iter().map(|&c| level(code, flags, c)).sum()
        };
        if level_states == 0 {
            break;
        }
        reached += level_states;
        std::mem::swap(&mut cur, &mut next);
    }
    Ok(())
}

/// Claims state `s` of `work` for the next level (the one after `code`'s) if it is not reached
/// yet, flagging its chunk in `next`: 1 if this call claimed it.
#[inline]
fn claim(work: &[AtomicU64], next: &[AtomicBool], code: u64, s: u64) -> u64 {
    let word = &work[(s >> 3) as usize];
    let shift = (s & 7) * 8;
    if word.load(Relaxed) >> shift & 0xFF != 0 {
        return 0;
    }
    let old = word.fetch_or((code + 1) << shift, Relaxed);
    let flag = &next[(s >> 3) as usize / CHUNK_WORDS];
    if !flag.load(Relaxed) {
        flag.store(true, Relaxed);
    }
    u64::from(old >> shift & 0xFF == 0)
}

/// The breadth-first search over (placement, region) states behind [`fill`]:
/// a byte per (placement, free cell), depth + 1 at each reached region's lowest cell, 0 elsewhere.
fn search(
    index: &PatternIndex,
    goal: &Board,
    progress: &mut dyn FnMut(&Progress),
    stop: &AtomicBool,
) -> Result<Vec<AtomicU64>, Error> {
    let shape = index.shape();
    let n = shape.cells();
    let k = index.k();
    let m = (n - k) as u64;
    let slots = index.len() * m;
    let geo = Geometry::new(shape, slots >= 1 << 20);
    let work = zeroed_words(slots.div_ceil(8) as usize);

    // the goal: the group on its cells, the blank's region
    let goal_cells = index.cells_of(goal)?;
    let occupied = goal_cells.iter().fold(0u64, |a, &c| a | 1 << c);
    let free = geo.full & !occupied;
    let region = geo.flood(1 << goal.blank(), free);
    let f = (free & ((1u64 << region.trailing_zeros()) - 1)).count_ones() as u64;
    let start = index.rank(&goal_cells) * m + f;
    breadth_first(&work, start, slots, slots >= 1 << 18, shape, progress, stop, |code, next, c| {
        Level { index, geo: &geo, work: &work, next, m, code }.chunk(c)
    })?;
    Ok(work)
}

/// The byte of state `s` in the working array of [`search`].
#[inline]
fn work_byte(work: &[AtomicU64], s: u64) -> u8 {
    (work[(s >> 3) as usize].load(Relaxed) >> ((s & 7) * 8) & 0xFF) as u8
}

/// The number of entries at each value, up to the largest.
fn histogram_of(out: &[u8]) -> Vec<u64> {
    let mut histogram = out
        .par_chunks(1 << 20)
        .map(|c| {
            let mut h = [0u64; 256];
            for &b in c {
                h[b as usize] += 1;
            }
            h
        })
        .reduce(
            || [0u64; 256],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        )
        .to_vec();
    while histogram.last() == Some(&0) {
        histogram.pop();
    }
    histogram
}

/// The zero-aware pattern distances by the same plain 0-1 search as
/// [`reference_pattern_distances`], each (group cells, blank cell) state written to its entry of
/// `index`; panics if two blank cells of one region disagree. The reference the tests hold
/// [`fill_zero`] to. Small groups on small boards only.
pub fn reference_zero_distances(index: &ZeroIndex, goal: &Board) -> Vec<u8> {
    let mut out = vec![UNREACHED; index.len() as usize];
    for ((cells, blank), d) in reference_search(index.placements(), goal) {
        let i = index.index(&cells, blank as u8) as usize;
        assert!(out[i] == UNREACHED || out[i] == d, "a region with two distances");
        out[i] = d;
    }
    out
}

/// The pattern distances by a plain 0-1 breadth-first search over (group cells, blank cell)
/// with a hash map and a double-ended queue, one blank move at a time: the reference the tests
/// hold [`fill`] to. Small groups on small boards only.
pub fn reference_pattern_distances(index: &PatternIndex, goal: &Board) -> Vec<u8> {
    let mut out = vec![UNREACHED; index.len() as usize];
    for ((cells, _), d) in reference_search(index, goal) {
        let r = index.rank(&cells) as usize;
        out[r] = out[r].min(d);
    }
    out
}

/// Every (group cells, blank cell) state reachable from the goal with its 0-1 distance.
fn reference_search(index: &PatternIndex, goal: &Board) -> std::collections::HashMap<(Vec<u8>, usize), u8> {
    use std::collections::{HashMap, VecDeque};
    let shape = index.shape();
    let k = index.k();
    let cells = index.cells_of(goal).expect("same shape");
    let mut dist: HashMap<(Vec<u8>, usize), u8> = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert((cells.clone(), goal.blank()), 0);
    queue.push_back((cells, goal.blank(), 0u8));
    while let Some((cells, blank, d)) = queue.pop_front() {
        if dist[&(cells.clone(), blank)] < d {
            continue;
        }
        for dir in crate::puzzle::board::Dir::ALL {
            let Some(to) = dir.step(shape, blank) else { continue };
            let mut next = cells.clone();
            let cost = match (0..k).find(|&i| next[i] as usize == to) {
                Some(i) => {
                    next[i] = blank as u8;
                    1
                }
                None => 0,
            };
            let nd = d + cost;
            let key = (next, to);
            if dist.get(&key).is_none_or(|&old| nd < old) {
                dist.insert(key.clone(), nd);
                if cost == 0 {
                    queue.push_front((key.0, key.1, nd));
                } else {
                    queue.push_back((key.0, key.1, nd));
                }
            }
        }
    }
    dist
}
