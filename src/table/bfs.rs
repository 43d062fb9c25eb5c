//! Filling a table: level-synchronous breadth-first search from the goal, in parallel.
//!
//! Every move changes the blank's cell by one step, so the distance of a state has the parity
//! of the blank's Manhattan distance to the goal's blank cell. The table is laid out by blank cell
//! ([`crate::index::rank`]), so at level `d` the states at distance `d` all sit in the blank blocks of
//! one parity and all their neighbours in the blocks of the other. Each level therefore splits
//! the table into two disjoint sets of blocks: *sources*, read plainly (scanned for the entries
//! equal to `d`, 64 bytes at a time), and *targets*, written through relaxed atomics (`d + 1`
//! into every unreached neighbour; two threads may write the same value to the same byte, which
//! is harmless). No byte is read plainly while another thread may write it, and no frontier is
//! stored: each chunk of a source block is scanned and expanded in one pass, so the search needs
//! no memory beyond the table and one flag per chunk.
//!
//! Neighbours come from the index alone ([`crate::index::moves`]): a horizontal move is the same offset
//! in the next blank block, a vertical one a table lookup. A chunk is scanned only if the level
//! before wrote into it, which skips most of the table in the first and last levels.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::error::Error;
use crate::index::moves::Moves;
use crate::index::rank::{StateIndex, MAX_TABLE_CELLS};
use crate::puzzle::board::{Dir, Shape};
use crate::table::format::UNREACHED;

/// Where a build stands, passed to the progress callback after each level.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// The depth just completed.
    pub depth: u32,
    /// States found at that depth.
    pub level_states: u64,
    /// States found so far, all depths.
    pub reached: u64,
    /// States in the table.
    pub total: u64,
    /// Time since the build started.
    pub elapsed: Duration,
}

/// States per chunk, the unit of work and of the "written last level" flags: a multiple of 64
/// (whole scan words), 16 KiB of table, so two threads get many chunks on the 8-puzzle and the
/// flags stay few (14,616) on a 12-cell board.
const CHUNK: usize = 1 << 14;

/// Tables smaller than this are filled on one thread: waking the pool per level costs more than
/// the work (the 8-puzzle, 181,440 states, is above it).
const PARALLEL_MIN: usize = 1 << 18;

/// Fills `table` (one byte per state of `index`) with the distance of every state to the goal and
/// returns the histogram: `histogram[d]` states at distance `d`.
///
/// `progress` is called after each level.
///
/// # Errors
/// [`Error::BadShape`] if `table` is not exactly `index.len()` bytes, or if a distance would not fit
/// in a byte below the unreached marker (impossible for boards of up to 12 cells).
pub fn fill(index: &StateIndex, table: &mut [u8], progress: impl FnMut(&Progress)) -> Result<Vec<u64>, Error> {
    fill_until(index, table, progress, &AtomicBool::new(false))
}

/// As [`fill`], stopping with [`Error::BuildCancelled`] after the first level at which `stop` is
/// set (checked after each level, where `progress` is called: a callback that wants the build
/// stopped can set it).
///
/// # Errors
/// Those of [`fill`], and [`Error::BuildCancelled`].
pub fn fill_until(
    index: &StateIndex,
    table: &mut [u8],
    mut progress: impl FnMut(&Progress),
    stop: &AtomicBool,
) -> Result<Vec<u64>, Error> {
    fill_dyn(index, table, &mut progress, stop)
}

// The search itself, compiled once: the callback behind a pointer, so that each caller's closure
// does not instantiate the whole search again (in the tests and the CLI it did, 71 times over).
fn fill_dyn(
    index: &StateIndex,
    table: &mut [u8],
    progress: &mut dyn FnMut(&Progress),
    stop: &AtomicBool,
) -> Result<Vec<u64>, Error> {
    let start = Instant::now();
    if table.len() as u64 != index.len() {
        return Err(Error::BadShape(format!("table of {} bytes for {} states", table.len(), index.len())));
    }
    let parallel = table.len() >= PARALLEL_MIN;
    if parallel {
        table.par_chunks_mut(1 << 20).for_each(|c| c.fill(UNREACHED));
    } else {
        table.fill(UNREACHED);
    }
    let moves = index.moves();
    let shape = index.shape();
    let block = moves.block() as usize;
    let cells = moves.cells();
    let goal = index.index(index.goal()).expect("the goal reaches itself") as usize;
    table[goal] = 0;

    // parity of each blank cell's distance to the goal's blank cell
    let goal_blank = index.goal().blank();
    let cols = shape.cols();
    let parity: Vec<usize> = (0..cells)
        .map(|b| ((b / cols).abs_diff(goal_blank / cols) + (b % cols).abs_diff(goal_blank % cols)) % 2)
        .collect();

    let per_block = block.div_ceil(CHUNK);
    let written: Vec<AtomicBool> = (0..cells * per_block).map(|_| AtomicBool::new(false)).collect();
    written[goal / block * per_block + goal % block / CHUNK].store(true, Relaxed);
    let mut histogram = Vec::new();
    let mut reached = 0u64;

    for depth in 0u8.. {
        if depth == UNREACHED - 1 {
            return Err(Error::BadShape(format!("{shape} has states deeper than 253 moves")));
        }
        // split the table into this level's sources (read) and targets (written)
        let mut sources: [&[u8]; MAX_TABLE_CELLS] = [&[]; MAX_TABLE_CELLS];
        let mut targets: [&[AtomicU8]; MAX_TABLE_CELLS] = [&[]; MAX_TABLE_CELLS];
        for (b, bytes) in table.chunks_mut(block).enumerate() {
            if parity[b] == depth as usize % 2 {
                sources[b] = bytes;
            } else {
                targets[b] = as_atomic(bytes);
            }
        }
        let work: Vec<(usize, usize)> = (0..cells)
            .filter(|&b| parity[b] == depth as usize % 2)
            .flat_map(|b| (0..per_block).map(move |c| (b, c)))
            .filter(|&(b, c)| written[b * per_block + c].swap(false, Relaxed))
            .collect();
        let level = Level { moves, sources: &sources, targets: &targets, written: &written, per_block, shape, depth };
        // After a level of more than 1/64 of the states (the last one found is the guess for
        // this one), every chunk of 16 Ki states expects hundreds of writes: flag them all
        // rather than per write.
        let track = !matches!(histogram.last(), Some(&n) if n >= index.len() / 64);
        let chunk = if track { Level::chunk::<true> } else { Level::chunk::<false> };
        let found: u64 = if parallel {
            work.par_iter().with_max_len(1).map(|&(b, c)| chunk(&level, b, c)).sum()
        } else {
            work.iter().map(|&(b, c)| chunk(&level, b, c)).sum()
        };
        if !track {
            for b in (0..cells).filter(|&b| parity[b] != depth as usize % 2) {
                written[b * per_block..(b + 1) * per_block].iter().for_each(|f| f.store(true, Relaxed));
            }
        }
        if found == 0 {
            break;
        }
        histogram.push(found);
        reached += found;
        progress(&Progress {
            depth: depth as u32,
            level_states: found,
            reached,
            total: index.len(),
            elapsed: start.elapsed(),
        });
        if stop.load(Relaxed) {
            return Err(Error::BuildCancelled { depth: depth as u32 });
        }
    }
    if reached != index.len() {
        return Err(Error::BadShape(format!(
            "the search reached {reached} of {} states of {shape}: the state index is inconsistent",
            index.len()
        )));
    }
    Ok(histogram)
}

/// One level of the search: what every chunk needs.
struct Level<'a> {
    moves: &'a Moves,
    /// By blank cell: the block's bytes if it is a source this level, else empty.
    sources: &'a [&'a [u8]; MAX_TABLE_CELLS],
    /// By blank cell: the block's bytes if it is a target this level, else empty.
    targets: &'a [&'a [AtomicU8]; MAX_TABLE_CELLS],
    written: &'a [AtomicBool],
    per_block: usize,
    shape: Shape,
    depth: u8,
}

impl Level<'_> {
    /// Scans chunk `c` of source block `b` for states at this depth, writes `depth + 1` into
    /// their unreached neighbours, and returns how many it found.
    ///
    /// With `TRACK`, the chunks written into are flagged for the next level's scan; without, the
    /// caller flags every target chunk (a level with a large frontier writes into nearly all of
    /// them anyway, and the flags cost a few instructions per neighbour).
    fn chunk<const TRACK: bool>(&self, b: usize, c: usize) -> u64 {
        let bytes = self.sources[b];
        let start = c * CHUNK;
        let chunk = &bytes[start..(start + CHUNK).min(bytes.len())];
        let next = self.depth + 1;
        let mut found = 0u64;
        // the target block of each direction (Dir's order: U D L R), resolved once per chunk
        let to = Dir::ALL.map(|dir| dir.step(self.shape, b));
        let slices = to.map(|t| t.map_or(&[][..], |t| self.targets[t]));
        let flags = to.map(|t| t.map_or(0, |t| t * self.per_block));
        let mut visit = |dir: Dir, _, th: u64| {
            let th = th as usize;
            let cell = &slices[dir as usize][th];
            if cell.load(Relaxed) == UNREACHED {
                cell.store(next, Relaxed);
                if TRACK {
                    // read before writing: once set, the flag's cache line is not written again
                    let flag = &self.written[flags[dir as usize] + th / CHUNK];
                    if !flag.load(Relaxed) {
                        flag.store(true, Relaxed);
                    }
                }
            }
        };
        let mut words = chunk.chunks_exact(64);
        for (k, word) in words.by_ref().enumerate() {
            let mut mask = equal_mask(word.try_into().expect("64 bytes"), self.depth);
            found += mask.count_ones() as u64;
            if mask == 0 {
                continue;
            }
            let base = start + 64 * k;
            let low_bits = self.moves.rank_bits(b, base / 64);
            while mask != 0 {
                let j = mask.trailing_zeros();
                mask &= mask - 1;
                let h = (base + j as usize) as u64;
                self.moves.for_each_ranked(b, h, (low_bits >> j) as u32 & 1, &mut visit);
            }
        }
        let done = chunk.len() - words.remainder().len();
        for (j, &d) in words.remainder().iter().enumerate() {
            if d == self.depth {
                found += 1;
                self.moves.for_each(b, (start + done + j) as u64, &mut visit);
            }
        }
        found
    }
}

/// Bit `j` set where `bytes[j] == value`: four 16-byte compares and byte-mask extractions.
#[cfg(target_arch = "x86_64")]
#[inline]
fn equal_mask(bytes: &[u8; 64], value: u8) -> u64 {
    use std::arch::x86_64::{__m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8};
    let mut mask = 0u64;
    for (k, part) in bytes.chunks_exact(16).enumerate() {
        // SAFETY: SSE2 is part of the x86_64 baseline, so the instructions exist; the load reads
        // exactly the 16 bytes of `part` (unaligned loads allowed).
        let bits = unsafe {
            let v = _mm_loadu_si128(part.as_ptr() as *const __m128i);
            _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(value as i8))) as u16
        };
        mask |= (bits as u64) << (16 * k);
    }
    mask
}

/// Bit `j` set where `bytes[j] == value`, eight bytes at a time (SWAR).
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn equal_mask(bytes: &[u8; 64], value: u8) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let pattern = u64::from_ne_bytes([value; 8]);
    let mut mask = 0u64;
    for (k, w) in bytes.chunks_exact(8).enumerate() {
        let x = u64::from_le_bytes(w.try_into().expect("chunks of 8")) ^ pattern;
        // high bit of each byte set where the byte of x is non-zero (exact, no carries across bytes)
        let nonzero = ((x & LOW7) + LOW7) | x;
        let zero_high = !nonzero & !LOW7;
        // gather the eight high bits into the low byte
        let packed = (zero_high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        mask |= packed << (8 * k);
    }
    mask
}

/// Views bytes as atomics for the parallel fill.
fn as_atomic(bytes: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: AtomicU8 has the same size and alignment as u8 (documented), and the exclusive
    // borrow guarantees no other access to these bytes while the returned shared slice lives.
    unsafe { &*(bytes as *mut [u8] as *const [AtomicU8]) }
}

/// A plain, obviously correct breadth-first search over boards with a queue and a hash map, for
/// cross-checking [`fill`]: returns the distance of every reachable state, by index.
///
/// Slow and memory-hungry; meant for tests on small boards.
pub fn reference_distances(index: &StateIndex) -> Vec<u8> {
    use std::collections::{HashMap, VecDeque};
    let goal = index.goal().clone();
    let mut dist: HashMap<crate::puzzle::board::Board, u8> = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert(goal.clone(), 0);
    queue.push_back(goal);
    while let Some(b) = queue.pop_front() {
        let d = dist[&b];
        for dir in crate::puzzle::board::Dir::ALL {
            if let Some(nb) = b.moved(dir) {
                dist.entry(nb).or_insert_with_key(|nb| {
                    queue.push_back(nb.clone());
                    d + 1
                });
            }
        }
    }
    let mut out = vec![UNREACHED; index.len() as usize];
    for (b, d) in dist {
        let i = index.index(&b).expect("a state reached from the goal is solvable");
        out[i as usize] = d;
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn equal_mask_marks_exactly_the_equal_bytes() {
        let mut bytes = [0u8; 64];
        for (j, b) in bytes.iter_mut().enumerate() {
            *b = (j * 37 % 7) as u8;
        }
        bytes[63] = 255;
        for value in [0u8, 1, 3, 6, 7, 255] {
            let expected = bytes.iter().enumerate().fold(0u64, |m, (j, &b)| m | (((b == value) as u64) << j));
            assert_eq!(super::equal_mask(&bytes, value), expected, "value {value}");
        }
    }
}
