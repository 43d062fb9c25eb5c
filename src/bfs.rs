//! Filling a table: level-synchronous breadth-first search from the goal, in parallel.
//!
//! Each level `d` has two phases, so that no byte is ever read plainly while another thread may
//! write it:
//! 1. *Scan* (the table shared read-only): find the entries equal to `d` and record them in a
//!    frontier bit set, one bit per state; their count is the histogram at depth `d`.
//! 2. *Expand* (the table viewed as relaxed atomics): for each frontier state, write `d + 1`
//!    into every unreached neighbour. Two threads may discover the same state and both write the
//!    same value, which is harmless.
//!
//! The table is split into blocks with a flag each, set when a level writes into the block, so a
//! scan skips blocks that cannot hold the frontier. The search ends at the first level whose scan
//! finds nothing.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::error::Error;
use crate::format::UNREACHED;
use crate::rank::StateIndex;

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

/// States per block: a multiple of 64 (whole bit-set words), small enough to balance two
/// threads on a 3x3 table, large enough that the flags stay few on a 12-cell one.
const BLOCK: usize = 1 << 13;

/// Fills `table` (one byte per state of `index`) with the distance of every state to the goal and
/// returns the histogram: `histogram[d]` states at distance `d`.
///
/// # Errors
/// [`Error::BadShape`] if `table` is not exactly `index.len()` bytes, or if a distance would not fit
/// in a byte below the unreached marker (impossible for boards of up to 12 cells).
pub fn fill(index: &StateIndex, table: &mut [u8], mut progress: impl FnMut(&Progress)) -> Result<Vec<u64>, Error> {
    let start = Instant::now();
    if table.len() as u64 != index.len() {
        return Err(Error::BadShape(format!("table of {} bytes for {} states", table.len(), index.len())));
    }
    table.fill(UNREACHED);
    let goal = index.index(index.goal()).expect("the goal reaches itself") as usize;
    table[goal] = 0;

    let blocks = table.len().div_ceil(BLOCK);
    let touched: Vec<AtomicBool> = (0..blocks).map(|b| AtomicBool::new(b == goal / BLOCK)).collect();
    let mut frontier = vec![0u64; table.len().div_ceil(64)];
    let mut histogram = Vec::new();
    let mut reached = 0u64;

    for depth in 0u8.. {
        if depth == UNREACHED {
            return Err(Error::BadShape(format!("{} has states deeper than 254 moves", index.shape())));
        }
        let found = scan(table, &touched, &mut frontier, depth);
        if found == 0 {
            break;
        }
        histogram.push(found);
        reached += found;
        expand(index, as_atomic(table), &touched, &frontier, depth);
        progress(&Progress {
            depth: depth as u32,
            level_states: found,
            reached,
            total: index.len(),
            elapsed: start.elapsed(),
        });
    }
    Ok(histogram)
}

/// Tables smaller than this are filled on one thread: waking the pool twice per level costs
/// more than the work. Measured on 2 cores: the 3x3 build (181,440 states) takes a median 11.0 ms
/// whole-process in parallel against 13.6 ms on one thread, so the line sits below it.
const PARALLEL_MIN: usize = 1 << 16;

/// Phase 1: marks in `frontier` the entries equal to `depth` in the touched blocks (clearing
/// the rest of each block's bits) and returns how many there are. Clears the touched flags.
fn scan(table: &[u8], touched: &[AtomicBool], frontier: &mut [u64], depth: u8) -> u64 {
    let block = |((bits, bytes), flag): ((&mut [u64], &[u8]), &AtomicBool)| -> u64 {
        if !flag.swap(false, Relaxed) {
            bits.fill(0);
            return 0;
        }
        let mut found = 0;
        for (word, group) in bits.iter_mut().zip(bytes.chunks(64)) {
            *word = equal_mask(group, depth);
            found += word.count_ones() as u64;
        }
        found
    };
    if table.len() >= PARALLEL_MIN {
        frontier.par_chunks_mut(BLOCK / 64).zip(table.par_chunks(BLOCK)).zip(touched.par_iter()).map(block).sum()
    } else {
        frontier.chunks_mut(BLOCK / 64).zip(table.chunks(BLOCK)).zip(touched.iter()).map(block).sum()
    }
}

/// Bit `j` set where `bytes[j] == value`, for up to 64 bytes; eight bytes at a time (SWAR).
#[inline]
fn equal_mask(bytes: &[u8], value: u8) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let pattern = u64::from_ne_bytes([value; 8]);
    let mut mask = 0u64;
    let mut words = bytes.chunks_exact(8);
    for (k, w) in words.by_ref().enumerate() {
        let x = u64::from_le_bytes(w.try_into().expect("chunks of 8")) ^ pattern;
        // high bit of each byte set where the byte of x is non-zero (exact, no carries across bytes)
        let nonzero = ((x & LOW7) + LOW7) | x;
        let zero_high = !nonzero & !LOW7;
        // gather the eight high bits into the low byte
        let packed = (zero_high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        mask |= packed << (8 * k);
    }
    let done = bytes.len() - words.remainder().len();
    for (j, &b) in words.remainder().iter().enumerate() {
        mask |= ((b == value) as u64) << (done + j);
    }
    mask
}

/// Phase 2: writes `depth + 1` into every unreached neighbour of the frontier.
fn expand(index: &StateIndex, cells: &[AtomicU8], touched: &[AtomicBool], frontier: &[u64], depth: u8) {
    let block = |(block, bits): (usize, &[u64])| {
        for (k, &word) in bits.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                let i = ((block * BLOCK / 64 + k) * 64 + w.trailing_zeros() as usize) as u64;
                w &= w - 1;
                let state = index.unrank(i);
                index.for_each_neighbor(&state, i, |_, j| {
                    let j = j as usize;
                    if cells[j].load(Relaxed) == UNREACHED {
                        cells[j].store(depth + 1, Relaxed);
                        touched[j / BLOCK].store(true, Relaxed);
                    }
                });
            }
        }
    };
    if cells.len() >= PARALLEL_MIN {
        frontier.par_chunks(BLOCK / 64).enumerate().for_each(block);
    } else {
        frontier.chunks(BLOCK / 64).enumerate().for_each(block);
    }
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
    let mut dist: HashMap<crate::board::Board, u8> = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert(goal.clone(), 0);
    queue.push_back(goal);
    while let Some(b) = queue.pop_front() {
        let d = dist[&b];
        for dir in crate::board::Dir::ALL {
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
