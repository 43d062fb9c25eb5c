//! Two-bit perfect tables: each state's distance modulo 3 ([`Encoding::DistanceResidue`](crate::table::format::Encoding::DistanceResidue)),
//! the breadth-first search that fills one, and the proof that one is exact.
//!
//! A move changes the distance by exactly one, so a state at distance `d > 0` has a neighbour
//! at `d - 1`, and no neighbour at `d`: from residues alone, the neighbour whose residue is one
//! less (mod 3) is one step closer, and the exact distance is the length of the walk down to the
//! goal ([`crate::table::Table::distance`] walks it). That is 2 bits a state: the 2x7's
//! 43,589,145,600 states in 10.9 GB instead of 43.6 GB. Base-3 packing (five states a byte,
//! 1.6 bits) would save a fifth more but costs a division per lookup and, worse, makes writing
//! one state a read-modify-write of a byte shared with four others through a multiplication:
//! not worth it while 2 bits fit the machine.
//!
//! # The search
//! Residues do not say which states are the current level (a state at `d - 6` has the residue
//! and the blank-parity of one at `d`), so the search keeps a *frontier bitmap*, one bit per
//! state (5.45 GB for 2x7): at level `d` the set bits in the blank blocks of `d`'s parity are
//! the states at `d` (the blank-block parity split of [`crate::table::bfs`]: their neighbours are
//! all in the other blocks). Both parities are needed at once (level `d`'s bits are read while
//! level `d + 1`'s are set), so the bitmap covers every block.
//!
//! A state found at level `d + 1` gets only its frontier bit then: a neighbour is new when its
//! code says "unreached" (a vertical move marks its neighbour blindly, and the pass that does
//! the horizontal moves takes the reached ones out, reading the codes in order). Its code is
//! written when its own level is expanded, by the thread that scans its chunk, with plain
//! stores: at each level the codes of the source blocks are written only by their chunk's
//! thread and those of the targets only read, so no byte is shared between a writer and anyone
//! else. The frontier bits are set by parts of the level
//! that no two threads share, with plain stores, except for a vertical move whose region is the
//! whole block, shared with atomic `or`s ([`crate::table::step::Step::parts`]). Horizontal
//! moves keep the offset, so they are done 64 states at a time: the target's unreached states
//! from 16 bytes of codes, one store a word. Chunks of the bitmap that the level before wrote
//! into are the only ones scanned. Peak memory: the payload (`n!/8` bytes) and the bitmap
//! (`n!/16`), plus the move tables (0.3 GB for 2x7): [`build_memory`].
//!
//! # The proof
//! A table of residues can be consistent everywhere and still wrong (a cycle of states each with
//! a neighbour "one less"), so [`verify`] does not trust the table: it recomputes the levels of
//! the breadth-first search itself and compares. Level `d + 1` is the neighbours of level `d`
//! that are not in level `d - 1` (a neighbour of a state at `d` is at `d - 1` or `d + 1`), so
//! three bitmaps over one parity class each (`n!/32` bytes each, 8.2 GB for 2x7) are all it keeps
//! (every neighbour of level `d` is marked, and level `d - 1` taken out word by word after the
//! level); the table is only read, state by state, at each state's own level: its code must be
//! `d mod 3`. The levels are disjoint and, when their sizes add up to `n!/2`, cover every state;
//! so every entry has been compared with its true distance modulo 3, which is the table being
//! exact.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use rayon::prelude::*;

use crate::error::Error;
use crate::index::moves::Moves;
use crate::index::rank::StateIndex;
use crate::table::bfs::Progress;
use crate::table::step::{
    even_bits, new_bitmap, parities, set_bits, settle, Anything, Frontier, Part, Step, Unreached, CHUNK, CHUNK_WORDS,
};

/// Neighbours gathered (and their lines prefetched) before they are visited, in [`verify`].
const BATCH: usize = 192;

/// Tables smaller than this are filled on one thread.
const PARALLEL_MIN: u64 = 1 << 18;

/// The two-bit code of state `i` in a residue payload.
#[inline(always)]
pub fn code(payload: &[u8], i: u64) -> u8 {
    (payload[(i / 4) as usize] >> (2 * (i % 4))) & 3
}

/// The bytes of a residue payload of `states` entries.
pub fn payload_len(states: u64) -> u64 {
    states.div_ceil(4)
}

/// The memory a two-bit build of `states` states on `cells` cells takes at its peak: the
/// payload, the frontier bitmap, the flags and the move tables (an estimate of those: the parity
/// bits and, for the 14-cell boards, about 250 MB of window tables).
pub fn build_memory(states: u64, cells: usize) -> u64 {
    let block = states / cells as u64;
    let payload = payload_len(states);
    let bitmap = cells as u64 * block.div_ceil(64) * 8;
    let flags = cells as u64 * (block as usize).div_ceil(CHUNK) as u64;
    let parity = crate::index::moves::parity_bytes(block);
    let windows = if cells >= 13 { 260 << 20 } else { 8 << 20 };
    payload + bitmap + flags + parity + windows
}

/// The memory [`verify`] takes at its peak, beyond the table itself: three bitmaps over one
/// parity class of blank blocks, the flags and the move tables.
pub fn verify_memory(states: u64, cells: usize) -> u64 {
    let block = states / cells as u64;
    let half = cells.div_ceil(2) as u64 * block.div_ceil(64) * 8;
    3 * half + build_memory(states, cells) - payload_len(states) - cells as u64 * block.div_ceil(64) * 8
}

/// A bitmap per blank block (empty for the blocks a layer does not use).
type Layer = Vec<Box<[AtomicU64]>>;

/// Fills `payload` (two bits per state of `index`, [`payload_len`] bytes) with the distance of
/// every state to the goal modulo 3, and returns the histogram of the exact distances: the
/// in-memory executor of the block-level step ([`crate::table::step`]). See the module doc;
/// `progress` is called after each level, and the search stops with [`Error::BuildCancelled`]
/// after a level at which `stop` is set.
///
/// # Errors
/// [`Error::BadShape`] if `payload` is not [`payload_len`] bytes or a distance would pass 253;
/// [`Error::BuildCancelled`].
pub fn fill_until(
    index: &StateIndex,
    payload: &mut [u8],
    mut progress: impl FnMut(&Progress),
    stop: &AtomicBool,
) -> Result<Vec<u64>, Error> {
    fill_dyn(index, payload, &mut progress, stop, PARALLEL_MIN)
}

// The search itself, compiled once whatever the caller's closure (as `bfs::fill_dyn`).
fn fill_dyn(
    index: &StateIndex,
    payload: &mut [u8],
    progress: &mut dyn FnMut(&Progress),
    stop: &AtomicBool,
    parallel_min: u64,
) -> Result<Vec<u64>, Error> {
    let start = Instant::now();
    let states = index.len();
    if payload.len() as u64 != payload_len(states) {
        return Err(Error::BadShape(format!("payload of {} bytes for {states} states", payload.len())));
    }
    let step = Step::new(index.moves());
    let block = step.block();
    let cells = index.moves().cells();
    // whole words per block: chunks then own whole bytes of the payload (16 a word), and the
    // horizontal moves go a word at a time; true of every board of 10 cells or more
    let parallel = states >= parallel_min && block.is_multiple_of(64);
    if parallel {
        payload.par_chunks_mut(1 << 20).for_each(|c| c.fill(0xff));
    } else {
        payload.fill(0xff);
    }
    let goal = index.index(index.goal()).expect("the goal reaches itself");
    let frontier: Vec<Frontier> = (0..cells).map(|_| Frontier::new(block)).collect();
    frontier[(goal / block) as usize].insert(goal % block);
    let mut search = InMemory::new(step, &frontier, index.shape(), index.goal().blank(), parallel);
    let mut report = |depth: u32, found: u64, reached: u64| -> Result<(), Error> {
        progress(&Progress { depth, level_states: found, reached, total: states, elapsed: start.elapsed() });
        if stop.load(Relaxed) {
            return Err(Error::BuildCancelled { depth });
        }
        Ok(())
    };
    let histogram = if block.is_multiple_of(4) {
        // each block's codes are whole bytes of the payload: every board of 5 cells or more
        let mut blocks: Vec<&mut [u8]> = payload.chunks_mut((block / 4) as usize).collect();
        search.levels(&mut blocks, &mut report)?
    } else {
        let mut buffers = vec![vec![0xffu8; block.div_ceil(4) as usize]; cells];
        let mut blocks: Vec<&mut [u8]> = buffers.iter_mut().map(|b| &mut b[..]).collect();
        let histogram = search.levels(&mut blocks, &mut report)?;
        for (b, codes) in buffers.iter().enumerate() {
            for h in 0..block {
                let i = b as u64 * block + h;
                payload[(i / 4) as usize] &= !((3 ^ code(codes, h)) << (2 * (i % 4)));
            }
        }
        histogram
    };
    let reached: u64 = histogram.iter().sum();
    if reached != states {
        return Err(Error::BadShape(format!(
            "the search reached {reached} of {states} states of {}: the state index is inconsistent",
            index.shape()
        )));
    }
    // the unused codes of the last byte are 0, not "unreached"
    if !states.is_multiple_of(4) {
        let last = payload.len() - 1;
        payload[last] &= (1u8 << (2 * (states % 4))) - 1;
    }
    Ok(histogram)
}

/// The in-memory executor: every block's codes and frontier in RAM.
///
/// The states found at a level are not given their code when found, but when their own level is
/// expanded, by the thread that takes their chunk then: meanwhile their frontier bit is the mark
/// that they are reached. So at level `d`, the codes of the source blocks (parity `d`) are
/// written, each chunk's bytes by its own thread only, and those of the targets only read.
///
/// A level is two passes over the sources' flagged chunks:
/// - the vertical moves, in parts that no two threads share ([`Step::parts`]): a vertical move
///   keeps an offset's region, so the parts of one source, whole regions, reach parts of the
///   target that no other part reaches, and each target has one vertical source at a time (on
///   boards of 3 rows or more the moves down and those up are run one after the other). Every
///   neighbour is marked, reached or not ([`Anything`]), with plain stores
///   ([`Frontier::or_word_owned`]): a neighbour's code would be a read at random, and an atomic
///   `or` a full barrier. A move whose region is the whole block (or nearly) is run by chunks
///   instead, with atomic `or`s, so that both threads share it;
/// - then each row's chunk `c`, taken once (also where only vertical moves marked its targets):
///   its sources' codes written and their words cleared, and its targets' words set a word at a
///   time to the vertical marks and the horizontal moves from both their sources (a horizontal
///   move keeps the offset), less the reached, with plain stores: no other part writes them.
struct InMemory<'a> {
    step: Step<'a>,
    frontier: &'a [Frontier],
    parity: Vec<usize>,
    /// The blocks one vertical move away from each block.
    vertical: Vec<Vec<usize>>,
    /// The board's rows and columns (block `b` is the blank in row `b / cols`).
    rows: usize,
    cols: usize,
    parallel: bool,
}

impl<'a> InMemory<'a> {
    fn new(
        step: Step<'a>,
        frontier: &'a [Frontier],
        shape: crate::puzzle::board::Shape,
        goal_blank: usize,
        parallel: bool,
    ) -> InMemory<'a> {
        let vertical = (0..shape.cells())
            .map(|b| step.neighbours(b).into_iter().filter(|&t| t / shape.cols() != b / shape.cols()).collect())
            .collect();
        InMemory {
            step,
            frontier,
            parity: parities(shape, goal_blank),
            vertical,
            rows: shape.rows(),
            cols: shape.cols(),
            parallel,
        }
    }

    /// Runs the levels over `blocks` (each block's codes), calling `report(depth, found,
    /// reached)` after each; returns the histogram.
    fn levels(
        &mut self,
        blocks: &mut [&mut [u8]],
        report: &mut dyn FnMut(u32, u64, u64) -> Result<(), Error>,
    ) -> Result<Vec<u64>, Error> {
        let mut histogram = Vec::new();
        let mut reached = 0u64;
        for depth in 0u32.. {
            if depth == 254 {
                return Err(Error::BadShape("the board has states deeper than 253 moves".into()));
            }
            let side = depth as usize % 2;
            let residue = (depth % 3) as u8;
            let mut targets: Vec<&[u8]> = vec![&[]; blocks.len()];
            let mut sources: Vec<(usize, &mut [u8])> = Vec::new();
            // the sources' chunks that hold the level's states: whether each does, and the list
            let mut flagged: Vec<Vec<bool>> = vec![Vec::new(); blocks.len()];
            let mut chunks: Vec<Vec<usize>> = vec![Vec::new(); blocks.len()];
            for (b, codes) in blocks.iter_mut().enumerate() {
                if self.parity[b] == side {
                    let frontier = &self.frontier[b];
                    flagged[b] = (0..frontier.chunks()).map(|c| frontier.take_flag(c)).collect();
                    chunks[b] = (0..frontier.chunks()).filter(|&c| flagged[b][c]).collect();
                    sources.push((b, &mut **codes));
                } else {
                    targets[b] = &**codes;
                }
            }
            // the vertical moves, down then up on boards of 3 rows or more
            let directions: &[Option<bool>] = if self.rows <= 2 { &[None] } else { &[Some(true), Some(false)] };
            for &down in directions {
                let mut parts = Vec::new();
                for &(s, _) in &sources {
                    for &t in &self.vertical[s] {
                        if down.is_none_or(|down| down == (t > s)) {
                            self.step.parts(s, t, &chunks[s], !self.parallel, &mut parts);
                        }
                    }
                }
                // every neighbour marked, reached or not: the rows' pass takes the reached ones
                // out, reading the targets' codes in order instead of at random here
                let vertical = |pending: &mut Vec<u64>, part: &Part| {
                    let (s, t) = (part.source, part.target);
                    self.step.run_part(part, &chunks[s], &self.frontier[s], &Anything, &self.frontier[t], pending);
                };
                if self.parallel {
                    parts.par_iter().with_max_len(1).for_each_init(|| Vec::with_capacity(256), vertical);
                } else {
                    let mut pending = Vec::new();
                    parts.iter().for_each(|part| vertical(&mut pending, part));
                }
            }
            // each row's chunk: its sources' codes written and their words cleared, and the
            // horizontal moves into its targets, which no other part writes
            let cols = self.cols;
            type Pieces<'p> = std::iter::Zip<std::slice::ChunksMut<'p, u8>, std::slice::Iter<'p, bool>>;
            let mut rows: Vec<Vec<(usize, Pieces)>> = (0..self.rows).map(|_| Vec::new()).collect();
            for (s, codes) in sources {
                rows[s / cols].push((s, codes.chunks_mut(CHUNK / 4).zip(flagged[s].iter())));
            }
            // (row, chunk, a source and its codes), and (row, chunk, None) for a chunk where only
            // the vertical moves marked states (they must be taken out if reached)
            type Item<'c> = (usize, usize, Option<(usize, &'c mut [u8])>);
            let mut work: Vec<Item> = Vec::new();
            for (r, row) in rows.iter_mut().enumerate() {
                let row_targets: Vec<usize> = (r * cols..(r + 1) * cols).filter(|&t| self.parity[t] != side).collect();
                for c in 0..self.frontier[0].chunks() {
                    let before = work.len();
                    for (s, pieces) in row.iter_mut() {
                        let (piece, &flagged) = pieces.next().expect("a chunk of codes for each chunk of the frontier");
                        if flagged {
                            work.push((r, c, Some((*s, piece))));
                        }
                    }
                    if work.len() == before && row_targets.iter().any(|&t| self.frontier[t].is_flagged(c)) {
                        work.push((r, c, None));
                    }
                }
            }
            let row_chunk = |scratch: &mut Vec<u64>, part: &mut [Item]| -> u64 {
                let (r, c) = (part[0].0, part[0].1);
                let first = c * CHUNK_WORDS;
                let len = self.frontier[0].chunk_words(c).len();
                scratch.clear();
                scratch.resize(cols * CHUNK_WORDS, 0);
                let mut found = 0u64;
                for (s, codes) in part.iter_mut().filter_map(|(_, _, source)| source.as_mut()) {
                    let j = *s % cols;
                    let words = &mut scratch[j * CHUNK_WORDS..j * CHUNK_WORDS + len];
                    for (w, slot) in words.iter_mut().zip(self.frontier[*s].chunk_words(c)) {
                        let x = slot.load(Relaxed);
                        if x != 0 {
                            slot.store(0, Relaxed);
                            *w = x;
                            found += x.count_ones() as u64;
                        }
                    }
                    settle(codes, words, residue);
                }
                for j in 0..cols {
                    let t = r * cols + j;
                    if self.parity[t] == side {
                        continue;
                    }
                    let reached = Unreached(targets[t]);
                    let source = |k: Option<usize>| match k {
                        Some(k) if k < cols => &scratch[k * CHUNK_WORDS..k * CHUNK_WORDS + len],
                        _ => &[][..],
                    };
                    let (left, right) = (source(j.checked_sub(1)), source(Some(j + 1)));
                    let next = &self.frontier[t];
                    for w in 0..len {
                        let m = left.get(w).copied().unwrap_or(0) | right.get(w).copied().unwrap_or(0);
                        // the vertical moves' marks and the horizontal ones, less the reached
                        let marked = next.word(first + w) | m;
                        if marked != 0 {
                            next.set_word_owned(first + w, reached.unreached_bits(first + w, marked));
                        }
                    }
                }
                found
            };
            let found: u64 = if self.parallel {
                work.par_chunk_by_mut(|a, b| a.0 == b.0 && a.1 == b.1)
                    .map_init(Vec::new, |scratch, part| row_chunk(scratch, part))
                    .sum()
            } else {
                let mut scratch = Vec::new();
                work.chunk_by_mut(|a, b| a.0 == b.0 && a.1 == b.1).map(|part| row_chunk(&mut scratch, part)).sum()
            };
            if found == 0 {
                break;
            }
            histogram.push(found);
            reached += found;
            report(depth, found, reached)?;
        }
        Ok(histogram)
    }
}

/// A failure of [`verify`]: the first state found whose entry is not its distance modulo 3.
#[derive(Debug)]
pub enum Mismatch {
    /// The state at `index`, at distance `depth`, has code `code` in the table.
    Entry {
        /// The state's index.
        index: u64,
        /// Its true distance.
        depth: u32,
        /// Its code in the table.
        code: u8,
    },
    /// The search found `found` states in all, not the table's count (the state index would be
    /// broken).
    Count {
        /// States the search reached.
        found: u64,
    },
    /// An unused code of the payload's last byte is not 0.
    Padding,
}

/// Proves a residue payload exact: recomputes the levels of the breadth-first search from the
/// goal without reading the table, and compares each state's code with its level modulo 3 (see
/// the module doc). Returns the histogram of the true distances (the caller compares it with the
/// header's).
///
/// # Errors
/// The first [`Mismatch`] found.
pub fn verify(index: &StateIndex, payload: &[u8]) -> Result<Vec<u64>, Mismatch> {
    let states = index.len();
    let moves = index.moves();
    let block = moves.block() as usize;
    let cells = moves.cells();
    let words = block.div_ceil(64);
    let per_block = block.div_ceil(CHUNK);
    let parity = parities(index.shape(), index.goal().blank());
    let parallel = states >= PARALLEL_MIN;
    let words_aligned = block.is_multiple_of(64);
    if !states.is_multiple_of(4) && payload.last().is_some_and(|&x| x >> (2 * (states % 4)) != 0) {
        return Err(Mismatch::Padding);
    }
    let goal = index.index(index.goal()).expect("the goal reaches itself");
    let (gb, gh) = ((goal / block as u64) as usize, (goal % block as u64) as usize);
    let flags = || -> Vec<AtomicBool> { (0..cells * per_block).map(|_| AtomicBool::new(false)).collect() };
    // the bitmaps of levels d - 1, d and d + 1 (d - 1 and d + 1 in the same parity class); a
    // block's bitmap, once its level is done with, is cleared and serves a later one
    let mut spare: Vec<Box<[AtomicU64]>> = Vec::new();
    let layer = |spare: &mut Vec<Box<[AtomicU64]>>, side: usize| -> Layer {
        (0..cells)
            .map(|b| if parity[b] == side { spare.pop().unwrap_or_else(|| new_bitmap(words)) } else { Box::new([]) })
            .collect()
    };
    let mut before: Option<(Layer, Vec<AtomicBool>)> = None;
    let mut current = layer(&mut spare, 0);
    current[gb][gh / 64].store(1 << (gh % 64), Relaxed);
    let mut current_flags = flags();
    current_flags[gb * per_block + gh / CHUNK].store(true, Relaxed);
    let mut histogram = Vec::new();
    let mut reached = 0u64;
    let chunks = |side: usize, flags: &[AtomicBool]| -> Vec<(usize, usize)> {
        (0..cells)
            .filter(|&b| parity[b] == side)
            .flat_map(|b| (0..per_block).map(move |c| (b, c)))
            .filter(|&(b, c)| flags[b * per_block + c].load(Relaxed))
            .collect()
    };
    let each = |work: &[(usize, usize)], f: &(dyn Fn(usize, usize) + Sync)| {
        if parallel {
            work.par_iter().with_max_len(1).for_each(|&(b, c)| f(b, c));
        } else {
            work.iter().for_each(|&(b, c)| f(b, c));
        }
    };
    let words_of = |c: usize| c * CHUNK / 64..((c + 1) * CHUNK / 64).min(words);
    for depth in 0u32.. {
        let side = depth as usize % 2;
        let after = layer(&mut spare, 1 - side);
        let after_flags = flags();
        let work = chunks(side, &current_flags);
        let check = Check {
            moves,
            shape: index.shape(),
            payload,
            current: &current,
            after: &after,
            flags: &after_flags,
            per_block,
            block: block as u64,
            residue: (depth % 3) as u8,
            depth,
            words_aligned,
        };
        let results: Vec<Result<u64, Mismatch>> = if parallel {
            work.par_iter()
                .with_max_len(1)
                .map_init(|| Vec::with_capacity(BATCH + 4 * 64), |pending, &(b, c)| check.chunk(b, c, pending))
                .collect()
        } else {
            let mut pending = Vec::new();
            work.iter().map(|&(b, c)| check.chunk(b, c, &mut pending)).collect()
        };
        let mut found = 0;
        for r in results {
            found += r?;
        }
        if found == 0 {
            break;
        }
        histogram.push(found);
        reached += found;
        // the neighbours of level d are at d - 1 or d + 1: level d + 1 is what is left of them
        // without level d - 1
        if let Some((before, before_flags)) = before.take() {
            each(&chunks(1 - side, &after_flags), &|b, c| {
                for w in words_of(c) {
                    let x = after[b][w].load(Relaxed);
                    if x != 0 {
                        after[b][w].store(x & !before[b][w].load(Relaxed), Relaxed);
                    }
                }
            });
            each(&chunks(1 - side, &before_flags), &|b, c| {
                for w in words_of(c) {
                    before[b][w].store(0, Relaxed);
                }
            });
            spare.extend(before.into_iter().filter(|l| !l.is_empty()));
        }
        before = Some((std::mem::replace(&mut current, after), std::mem::replace(&mut current_flags, after_flags)));
    }
    if reached != states {
        return Err(Mismatch::Count { found: reached });
    }
    Ok(histogram)
}

/// One level of [`verify`]: checks the codes of level `d` and marks all their neighbours in
/// the bitmap of level `d + 1` (those at `d - 1` are taken out after the level).
struct Check<'a> {
    moves: &'a Moves,
    shape: crate::puzzle::board::Shape,
    payload: &'a [u8],
    current: &'a Layer,
    after: &'a Layer,
    flags: &'a [AtomicBool],
    per_block: usize,
    block: u64,
    residue: u8,
    depth: u32,
    words_aligned: bool,
}

impl Check<'_> {
    fn chunk(&self, b: usize, c: usize, pending: &mut Vec<(u32, u64)>) -> Result<u64, Mismatch> {
        use crate::puzzle::board::Dir;
        let bits = &self.current[b];
        let first = c * CHUNK / 64;
        let last = ((c + 1) * CHUNK / 64).min(bits.len());
        let base = b as u64 * self.block;
        let sideways = [Dir::Left, Dir::Right].map(|d| d.step(self.shape, b).filter(|_| self.words_aligned));
        let mut found = 0u64;
        pending.clear();
        for (w, word) in bits.iter().enumerate().take(last).skip(first) {
            let mask = word.load(Relaxed);
            if mask == 0 {
                continue;
            }
            found += mask.count_ones() as u64;
            let start = base + 64 * w as u64;
            let wrong = if self.words_aligned {
                mask & !equal_codes(self.payload, start, self.residue)
            } else {
                let mut wrong = 0;
                let mut m = mask;
                while m != 0 {
                    let j = m.trailing_zeros();
                    m &= m - 1;
                    if code(self.payload, start + j as u64) != self.residue {
                        wrong |= 1 << j;
                    }
                }
                wrong
            };
            if wrong != 0 {
                let index = start + wrong.trailing_zeros() as u64;
                return Err(Mismatch::Entry { index, depth: self.depth, code: code(self.payload, index) });
            }
            for t in sideways.into_iter().flatten() {
                self.mark(t, w, mask);
            }
            let low_bits = self.moves.rank_bits(b, w);
            let mut m = mask;
            while m != 0 {
                let j = m.trailing_zeros();
                m &= m - 1;
                let h = (64 * w) as u64 + j as u64;
                self.moves.for_each_ranked(b, h, (low_bits >> j) as u32 & 1, |dir, nb, nh| {
                    if self.words_aligned && matches!(dir, Dir::Left | Dir::Right) {
                        return;
                    }
                    crate::memory::prefetch(&self.after[nb][nh as usize / 64]);
                    pending.push((nb as u32, nh));
                });
            }
            if pending.len() >= BATCH {
                self.visit(pending);
            }
        }
        self.visit(pending);
        Ok(found)
    }

    /// Marks the neighbours gathered in `pending` (their bitmap words prefetched).
    fn visit(&self, pending: &mut Vec<(u32, u64)>) {
        for &(nb, nh) in pending.iter() {
            self.mark(nb as usize, nh as usize / 64, 1 << (nh % 64));
        }
        pending.clear();
    }

    /// Sets the bits `new` of word `w` of block `t` of the next level's bitmap.
    #[inline(always)]
    fn mark(&self, t: usize, w: usize, new: u64) {
        set_bits(&self.after[t][w], new, &self.flags[t * self.per_block + w * 64 / CHUNK]);
    }
}

/// Bit `j` set where the code of state `i + j` is `residue`, for `i` a multiple of 64 with 64
/// states from it in `payload`.
#[inline(always)]
fn equal_codes(payload: &[u8], i: u64, residue: u8) -> u64 {
    let k = (i / 4) as usize;
    let lo = u64::from_le_bytes(payload[k..k + 8].try_into().expect("8 bytes"));
    let hi = u64::from_le_bytes(payload[k + 8..k + 16].try_into().expect("8 bytes"));
    let pattern = residue as u64 * 0x5555_5555_5555_5555;
    let equal = |x: u64| {
        let y = x ^ pattern;
        even_bits(!(y | (y >> 1)))
    };
    equal(lo) as u64 | (equal(hi) as u64) << 32
}

/// The exact distances of a residue payload, one byte a state (the byte table's payload),
/// recovered by a breadth-first search guided by the residues: for commands that need every
/// distance at once, on tables small enough to expand (`index.len()` bytes).
///
/// # Errors
/// [`Error::BadShape`] when the residues are not those of a complete table (a state left
/// unreached by the residues' levels).
pub fn expand(index: &StateIndex, payload: &[u8]) -> Result<Vec<u8>, Error> {
    let states = index.len();
    let moves = index.moves();
    let block = moves.block();
    let goal = index.index(index.goal()).expect("the goal reaches itself");
    let mut out = vec![crate::table::format::UNREACHED; states as usize];
    out[goal as usize] = 0;
    let mut level = vec![goal];
    let mut depth = 0u8;
    let mut reached = 1u64;
    while !level.is_empty() {
        let want = (depth + 1) % 3;
        let mut next = Vec::new();
        for &i in &level {
            let (b, h) = ((i / block) as usize, i % block);
            moves.for_each(b, h, |_, nb, nh| {
                let j = nb as u64 * block + nh;
                if out[j as usize] == crate::table::format::UNREACHED && code(payload, j) == want {
                    out[j as usize] = depth + 1;
                    next.push(j);
                }
            });
        }
        reached += next.len() as u64;
        level = next;
        depth = depth.saturating_add(1);
    }
    if reached != states {
        return Err(Error::BadShape(format!("the residues reach {reached} of {states} states")));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::board::Shape;
    use crate::puzzle::goal::Goal;

    /// The in-memory search's schedule on every thread (its parts of the vertical moves, alone
    /// or shared, and its rows' chunks) against the one-byte search, on boards small enough
    /// to be searched on one thread otherwise: 3 rows (moves down and up in turn) and 2.
    #[test]
    fn parallel_schedule_equals_the_byte_search() {
        for (rows, cols) in [(3, 3), (2, 5), (5, 2)] {
            let shape = Shape::new(rows, cols).expect("a board");
            let index = StateIndex::new(&Goal::BlankLast.board(shape).expect("a goal")).expect("an index");
            let states = index.len();
            let mut bytes = vec![0u8; states as usize];
            let byte_histogram = crate::table::bfs::fill(&index, &mut bytes, |_| {}).expect("a byte search");
            for parallel_min in [0, u64::MAX] {
                let mut payload = vec![0u8; payload_len(states) as usize];
                let histogram = fill_dyn(&index, &mut payload, &mut |_| {}, &AtomicBool::new(false), parallel_min)
                    .expect("a two-bit search");
                assert_eq!(histogram, byte_histogram, "{shape}");
                for (i, &d) in bytes.iter().enumerate() {
                    assert_eq!(code(&payload, i as u64), d % 3, "{shape} state {i}, parallel_min {parallel_min}");
                }
            }
        }
    }
}
