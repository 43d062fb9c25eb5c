//! The block-level step of the two-bit breadth-first search: one level expanded into one target
//! blank block from its neighbouring source blocks' frontiers.
//!
//! The index is `blank * block + offset` ([`crate::index::rank`]), so the table is `n` blank
//! blocks, and every move crosses from a block into the block of a neighbouring cell: a
//! horizontal move keeps the offset, a vertical one rotates a window of its Lehmer digits
//! ([`crate::index::moves`]). At level `d` the frontier (the states at distance `d`) lies in the
//! blocks of one parity, the *sources*, and every state found lies in the other's, the
//! *targets*. So a level is, for each target block, the union of what its 2 to 4 source
//! neighbours' frontiers reach in it, less what it had reached already: [`Step::expand`] does that
//! for one source's frontier words and one target, and knows nothing of where the blocks live.
//!
//! Three executors call it, and only they differ:
//! - in memory ([`crate::table::residue::fill_until`]): every block's codes and frontier in RAM;
//!   "reached already" is the target's codes ([`Unreached`]), read word by word in order after
//!   the vertical moves have marked every neighbour ([`Anything`]);
//! - out of core ([`crate::table::disk`]): blocks in files, one target in memory at a time;
//!   "reached already" is the target's frontier of level `d - 1` ([`NotBefore`]): a neighbour of
//!   a state at `d` is at `d - 1` or `d + 1` (the puzzle's graph is bipartite), so the new states
//!   are the neighbours less level `d - 1`, and the codes are only written now and then, from
//!   the frontiers kept in files ([`settle`]);
//! - on a Dask cluster (the Python package), through the out-of-core executor's block files.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use crate::index::moves::{Crossing, Moves, Window};
use crate::table::format::RESIDUE_UNREACHED;

/// States per chunk, the unit of work and of a frontier's "written" flags: 256 bitmap words,
/// 4 KiB of codes.
pub const CHUNK: usize = 1 << 14;

/// Bitmap words per chunk.
pub const CHUNK_WORDS: usize = CHUNK / 64;

/// Neighbours gathered (and their lines prefetched) before they are visited.
const BATCH: usize = 192;

/// The shortest runs ([`Window::run_len`]) moved as bit strings rather than state by state.
const RUNS_MIN: u64 = 60;

/// The frontier of one blank block: a bit per entry, and a flag per chunk of [`CHUNK`] entries
/// set when the chunk gets a bit (so a sparse level scans only its chunks).
#[derive(Debug)]
pub struct Frontier {
    words: Box<[AtomicU64]>,
    flags: Box<[AtomicBool]>,
    len: u64,
}

impl Frontier {
    /// An empty frontier over `len` entries (zeroed pages from the allocator, taken as they are
    /// written).
    pub fn new(len: u64) -> Frontier {
        let words = (len as usize).div_ceil(64);
        let chunks = (len as usize).div_ceil(CHUNK);
        Frontier { words: new_bitmap(words), flags: (0..chunks).map(|_| AtomicBool::new(false)).collect(), len }
    }

    /// The entries it covers.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether it covers no entries.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes it takes in memory.
    pub fn bytes(len: u64) -> u64 {
        len.div_ceil(64) * 8 + len.div_ceil(CHUNK as u64)
    }

    /// How many chunks it has.
    pub fn chunks(&self) -> usize {
        self.flags.len()
    }

    /// The words of chunk `c`.
    pub fn chunk_words(&self, c: usize) -> &[AtomicU64] {
        let first = c * CHUNK_WORDS;
        &self.words[first..(first + CHUNK_WORDS).min(self.words.len())]
    }

    /// The chunks that have been written since the last [`Frontier::clear`] (a superset of those
    /// with a bit set).
    pub fn flagged(&self) -> Vec<usize> {
        (0..self.flags.len()).filter(|&c| self.flags[c].load(Relaxed)).collect()
    }

    /// Whether chunk `c` is flagged.
    pub fn is_flagged(&self, c: usize) -> bool {
        self.flags[c].load(Relaxed)
    }

    /// Unflags chunk `c`, returning whether it was flagged.
    pub fn take_flag(&self, c: usize) -> bool {
        self.flags[c].swap(false, Relaxed)
    }

    /// Whether entry `h` is set.
    #[inline(always)]
    pub fn contains(&self, h: u64) -> bool {
        self.words[(h / 64) as usize].load(Relaxed) >> (h % 64) & 1 == 1
    }

    /// Sets entry `h`.
    pub fn insert(&self, h: u64) {
        self.or_word((h / 64) as usize, 1 << (h % 64));
    }

    /// Sets the bits `new` of word `w` and flags its chunk; both are read before they are written
    /// (most words of a busy level are marked already).
    #[inline(always)]
    pub fn or_word(&self, w: usize, new: u64) {
        set_bits(&self.words[w], new, &self.flags[w / CHUNK_WORDS]);
    }

    /// [`Frontier::or_word`] for a caller that is the word's only writer while it runs (see
    /// [`Step::parts`]): a plain load and store, no branch on the bits.
    #[inline(always)]
    pub fn or_word_owned(&self, w: usize, new: u64) {
        // a word with a bit is in a flagged chunk already: flagging on the union is the same
        self.set_word_owned(w, self.word(w) | new);
    }

    /// Word `w`.
    #[inline(always)]
    pub fn word(&self, w: usize) -> u64 {
        self.words[w].load(Relaxed)
    }

    /// Sets word `w` to `value`, for a caller that is the word's only writer while it runs (its
    /// chunk flagged when `value` has a bit; a flag is never taken down here).
    #[inline(always)]
    pub fn set_word_owned(&self, w: usize, value: u64) {
        self.words[w].store(value, Relaxed);
        let flag = &self.flags[w / CHUNK_WORDS];
        if value != 0 && !flag.load(Relaxed) {
            flag.store(true, Relaxed);
        }
    }

    /// Copies the words from word `first` into `out` (as many as it holds).
    pub fn copy_words(&self, first: usize, out: &mut [u64]) {
        for (o, w) in out.iter_mut().zip(&self.words[first..]) {
            *o = w.load(Relaxed);
        }
    }

    /// Replaces the words of chunk `c` by `words` (a whole chunk's, or what is left of the last)
    /// and flags it when any is set: for loading a frontier from a file.
    pub fn store_chunk(&self, c: usize, words: &[u64]) {
        let mut any = 0;
        for (slot, &w) in self.chunk_words(c).iter().zip(words) {
            slot.store(w, Relaxed);
            any |= w;
        }
        if any != 0 {
            self.flags[c].store(true, Relaxed);
        }
    }

    /// Clears every entry (only the flagged chunks are touched, on every core for a large
    /// frontier) and every flag.
    pub fn clear(&self) {
        let clear = |c: usize| {
            if self.flags[c].swap(false, Relaxed) {
                self.chunk_words(c).iter().for_each(|w| w.store(0, Relaxed));
            }
        };
        if self.flags.len() >= 64 {
            use rayon::prelude::*;
            (0..self.flags.len()).into_par_iter().with_min_len(64).for_each(clear);
        } else {
            (0..self.flags.len()).for_each(clear);
        }
    }

    #[inline(always)]
    fn prefetch(&self, h: u64) {
        crate::memory::prefetch(&self.words[h as usize / 64]);
    }
}

/// Sets the bits `new` of `word` and, when that changes it, `flag`. Both are read before they are
/// written: in the busy levels most words are marked already, and a flag once set has its cache
/// line never written again.
#[inline(always)]
pub(crate) fn set_bits(word: &AtomicU64, new: u64, flag: &AtomicBool) {
    if word.load(Relaxed) & new == new {
        return;
    }
    word.fetch_or(new, Relaxed);
    if !flag.load(Relaxed) {
        flag.store(true, Relaxed);
    }
}

/// A zeroed bitmap of `words` words, from the allocator: pages are only taken when first written.
pub(crate) fn new_bitmap(words: usize) -> Box<[AtomicU64]> {
    let mut v: Vec<u64> = vec![0u64; words];
    crate::memory::advise_huge_pages(v.as_mut_ptr() as *mut u8, words * 8);
    let v = std::mem::ManuallyDrop::new(v);
    // SAFETY: AtomicU64 has the size and alignment of u64 (documented), the vector's buffer is
    // taken over whole (pointer, length, capacity unchanged).
    unsafe { Vec::from_raw_parts(v.as_ptr() as *mut AtomicU64, v.len(), v.capacity()) }.into_boxed_slice()
}

/// What a target block had reached before the level: the test that makes a neighbour new.
pub trait Reached: Sync {
    /// Whether entry `h` was not reached.
    fn unreached(&self, h: u64) -> bool;
    /// Bit `j` set where entry `64 w + j` was not reached, for a block of whole words.
    fn unreached_word(&self, w: usize) -> u64;
    /// Brings the line that [`Reached::unreached`] of `h` reads into the cache.
    fn prefetch(&self, h: u64);
}

/// The codes of a target block (two bits an entry, [`RESIDUE_UNREACHED`] where not reached):
/// the in-memory executor's test, where codes are written as their level is expanded.
pub struct Unreached<'a>(pub &'a [u8]);

impl Reached for Unreached<'_> {
    #[inline(always)]
    fn unreached(&self, h: u64) -> bool {
        (self.0[h as usize / 4] >> (2 * (h % 4))) & 3 == RESIDUE_UNREACHED
    }

    #[inline(always)]
    fn unreached_word(&self, w: usize) -> u64 {
        let k = 16 * w;
        let lo = u64::from_le_bytes(self.0[k..k + 8].try_into().expect("8 bytes"));
        let hi = u64::from_le_bytes(self.0[k + 8..k + 16].try_into().expect("8 bytes"));
        even_bits(lo & (lo >> 1)) as u64 | (even_bits(hi & (hi >> 1)) as u64) << 32
    }

    #[inline(always)]
    fn prefetch(&self, h: u64) {
        if let Some(byte) = self.0.get(h as usize / 4) {
            crate::memory::prefetch(byte);
        }
    }
}

impl Unreached<'_> {
    /// The bits of `m` whose entries of word `w` are not reached: [`Reached::unreached_word`]
    /// masked, also for the last word of a block that is not whole words.
    #[inline(always)]
    pub fn unreached_bits(&self, w: usize, m: u64) -> u64 {
        if 16 * w + 16 <= self.0.len() {
            return m & self.unreached_word(w);
        }
        let mut new = 0;
        let mut rest = m;
        while rest != 0 {
            let j = rest.trailing_zeros() as u64;
            rest &= rest - 1;
            new |= (self.unreached(64 * w as u64 + j) as u64) << j;
        }
        new
    }
}

/// No test: every neighbour is marked, reached or not. For an executor that takes the reached
/// ones out afterwards, word by word in order (the in-memory vertical moves: a neighbour's code
/// is then read as part of a sequential pass, not at random).
pub struct Anything;

impl Reached for Anything {
    #[inline(always)]
    fn unreached(&self, _: u64) -> bool {
        true
    }

    #[inline(always)]
    fn unreached_word(&self, _: usize) -> u64 {
        !0
    }

    #[inline(always)]
    fn prefetch(&self, _: u64) {}
}

/// The target block's frontier of level `d - 1` (empty at level 0): the out-of-core executor's
/// test, which needs no codes (see the module doc).
pub struct NotBefore<'a>(pub &'a Frontier);

impl Reached for NotBefore<'_> {
    #[inline(always)]
    fn unreached(&self, h: u64) -> bool {
        !self.0.contains(h)
    }

    #[inline(always)]
    fn unreached_word(&self, w: usize) -> u64 {
        !self.0.words[w].load(Relaxed)
    }

    #[inline(always)]
    fn prefetch(&self, h: u64) {
        self.0.prefetch(h);
    }
}

/// Some frontier words of a source block: `words[k]` is word `first_word + k` of block `block`.
#[derive(Clone, Copy, Debug)]
pub struct Words<'a> {
    /// The source block (its blank's cell).
    pub block: usize,
    /// The index in the block of the first word.
    pub first_word: usize,
    /// The words.
    pub words: &'a [u64],
}

/// A part of the expansion of one source block's frontier into one target block, for one thread
/// ([`Step::parts`]): the source's words `first..end`, of which the flagged chunks `chunks`
/// (indices into the list the parts were made from) are expanded; `owned` when no other part
/// writes what it writes, so that it sets bits with plain stores ([`Frontier::or_word_owned`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The source block.
    pub source: usize,
    /// The target block.
    pub target: usize,
    /// The source's first word.
    pub first: usize,
    /// The source's word past the last.
    pub end: usize,
    /// Whether the part owns what it writes.
    pub owned: bool,
    /// The flagged chunks it meets.
    pub chunks: std::ops::Range<usize>,
}

/// The block-level step for one board: see the module doc.
#[derive(Clone, Copy)]
pub struct Step<'a> {
    moves: &'a Moves,
    /// Entries per block.
    block: u64,
    /// Blocks are whole words: horizontal moves go a word at a time.
    aligned: bool,
}

impl<'a> Step<'a> {
    /// The step for the board whose moves are `moves`.
    pub fn new(moves: &'a Moves) -> Step<'a> {
        let block = moves.block();
        Step { moves, block, aligned: block.is_multiple_of(64) }
    }

    /// Entries per block.
    pub fn block(&self) -> u64 {
        self.block
    }

    /// The blocks that neighbour block `b` (the cells one move from it).
    pub fn neighbours(&self, b: usize) -> Vec<usize> {
        (0..self.moves.cells()).filter(|&t| self.moves.crossing(b, t).is_some()).collect()
    }

    /// Expands the frontier words `from` of a source block into target block `target`: every
    /// neighbour in `target` of a set bit that `reached` says is new gets its bit in `next` (the
    /// target's frontier of the next level). Does nothing when the blocks are not neighbours.
    /// Several threads may expand into the same `next` at once.
    pub fn expand(
        &self,
        from: Words<'_>,
        target: usize,
        reached: &impl Reached,
        next: &Frontier,
        pending: &mut Vec<u64>,
    ) {
        self.expand_as::<false>(from, target, reached, next, pending)
    }

    /// The words of the parts that threads may run alone (with plain stores) when
    /// expanding `source` into `target`: a chunk's for a horizontal move, which keeps the offset;
    /// for a vertical one, which keeps the offset's region (the digits before its window, so
    /// each region of `(m - p)!/2` offsets maps onto itself), whole regions of at least a chunk,
    /// when the block has 8 of them or more. `None` when it has fewer (the move is then shared
    /// by chunks, with atomic `or`s) or the blocks are not neighbours.
    pub fn owned_words(&self, source: usize, target: usize) -> Option<usize> {
        match self.moves.crossing(source, target)? {
            Crossing::Same => Some(CHUNK_WORDS),
            Crossing::Window(window) => {
                let region = window.region();
                let whole_words = region / gcd(region, 64) * 64;
                let part = whole_words * (CHUNK as u64).div_ceil(whole_words);
                (self.block / part >= 8).then_some((part / 64) as usize)
            }
        }
    }

    /// Appends to `out` the parts of the expansion of `source`'s flagged chunks `flagged` (in
    /// increasing order) into `target`, to be run at once by any number of threads
    /// ([`Step::run_part`]): parts of [`Step::owned_words`] that each own what they write, or
    /// else one part a chunk, sharing the target by atomic `or`s. With `alone` (the caller runs
    /// the parts on one thread, one after another) it is one owned part.
    pub fn parts(&self, source: usize, target: usize, flagged: &[usize], alone: bool, out: &mut Vec<Part>) {
        let words = self.block.div_ceil(64) as usize;
        let part = |first: usize, end: usize, owned: bool, chunks: std::ops::Range<usize>| Part {
            source,
            target,
            first,
            end: end.min(words),
            owned,
            chunks,
        };
        if flagged.is_empty() {
            return;
        }
        if alone {
            out.push(part(0, words, true, 0..flagged.len()));
            return;
        }
        let Some(size) = self.owned_words(source, target) else {
            out.extend(
                flagged.iter().enumerate().map(|(i, &c)| part(c * CHUNK_WORDS, (c + 1) * CHUNK_WORDS, false, i..i + 1)),
            );
            return;
        };
        let start = out.len();
        for (i, &c) in flagged.iter().enumerate() {
            let (first, end) = (c * CHUNK_WORDS, ((c + 1) * CHUNK_WORDS).min(words));
            // a chunk may meet two parts (or more, when parts are smaller)
            for p in first / size..=(end - 1) / size {
                match out[start..].last_mut() {
                    Some(last) if last.first == p * size => last.chunks.end = i + 1,
                    _ => out.push(part(p * size, (p + 1) * size, true, i..i + 1)),
                }
            }
        }
    }

    /// Runs a part of [`Step::parts`] (made from the list `flagged`): the words of its chunks
    /// within it, copied from `frontier` (the source's), expanded into `next`.
    pub fn run_part(
        &self,
        part: &Part,
        flagged: &[usize],
        frontier: &Frontier,
        reached: &impl Reached,
        next: &Frontier,
        pending: &mut Vec<u64>,
    ) {
        let mut buffer = [0u64; CHUNK_WORDS];
        for &c in &flagged[part.chunks.clone()] {
            let first = (c * CHUNK_WORDS).max(part.first);
            let end = ((c + 1) * CHUNK_WORDS).min(part.end);
            let words = &mut buffer[..end - first];
            frontier.copy_words(first, words);
            let from = Words { block: part.source, first_word: first, words };
            if part.owned {
                self.expand_as::<true>(from, part.target, reached, next, pending);
            } else {
                self.expand_as::<false>(from, part.target, reached, next, pending);
            }
        }
    }

    /// [`Step::expand`], or with `OWNED` for a caller whose schedule makes it the only writer of
    /// the words of `next` that this call sets while it runs ([`Step::parts`]): the bits are
    /// then set with plain loads and stores, and a neighbour's bit with no branch on whether it
    /// is new ([`Frontier::or_word_owned`]).
    #[inline(always)]
    fn expand_as<const OWNED: bool>(
        &self,
        from: Words<'_>,
        target: usize,
        reached: &impl Reached,
        next: &Frontier,
        pending: &mut Vec<u64>,
    ) {
        let Words { block: source, first_word, words } = from;
        let Some(crossing) = self.moves.crossing(source, target) else {
            return;
        };
        match crossing {
            Crossing::Same if self.aligned => {
                for (k, &mask) in words.iter().enumerate() {
                    if mask != 0 {
                        let w = first_word + k;
                        mark::<OWNED>(next, w, mask & reached.unreached_word(w));
                    }
                }
            }
            Crossing::Same => {
                for_each_bit(first_word, words, |h| {
                    if reached.unreached(h) {
                        next.insert(h);
                    }
                });
            }
            // runs of RUNS_MIN offsets or more go as bit strings (every board of 10 cells or more
            // has blocks of whole words)
            Crossing::Window(window) if self.aligned && window.run_len() >= RUNS_MIN => {
                self.cross_runs::<OWNED>(from, window, reached, next, pending)
            }
            // the test for 15 cells' 64-bit arithmetic made once, not at every state
            Crossing::Window(window) if window.is_wide() => {
                self.cross::<OWNED>(from, |h, bit| window.apply(h, bit), reached, next, pending)
            }
            Crossing::Window(window) => {
                self.cross::<OWNED>(from, |h, bit| window.apply_narrow(h, bit), reached, next, pending)
            }
        }
    }

    /// The vertical moves of [`Step::expand`]: `apply` gives a state's neighbour in the target.
    #[inline(always)]
    fn cross<const OWNED: bool>(
        &self,
        from: Words<'_>,
        apply: impl Fn(u64, u32) -> u64,
        reached: &impl Reached,
        next: &Frontier,
        pending: &mut Vec<u64>,
    ) {
        let Words { block: source, first_word, words } = from;
        pending.clear();
        for (k, &mask) in words.iter().enumerate() {
            if mask == 0 {
                continue;
            }
            let w = first_word + k;
            let low_bits = self.moves.rank_bits(source, w);
            let mut m = mask;
            while m != 0 {
                let j = m.trailing_zeros();
                m &= m - 1;
                let nh = apply((64 * w) as u64 + j as u64, (low_bits >> j) as u32 & 1);
                reached.prefetch(nh);
                next.prefetch(nh);
                pending.push(nh);
            }
            if pending.len() >= BATCH {
                visit::<OWNED>(reached, next, pending);
            }
        }
        visit::<OWNED>(reached, next, pending);
    }

    /// The vertical moves of [`Step::expand`] for a window with runs (see
    /// [`Window::run_len`]): a run's offsets all move by one shift, so its bits are moved as a
    /// bit string, up to 64 at a time, and marked a word at a time. `pending` holds pairs (the
    /// target offset of a piece's first bit, the piece's bits) until their lines are prefetched.
    fn cross_runs<const OWNED: bool>(
        &self,
        from: Words<'_>,
        window: &Window,
        reached: &impl Reached,
        next: &Frontier,
        pending: &mut Vec<u64>,
    ) {
        let Words { first_word, words, .. } = from;
        pending.clear();
        let (run, runs) = (window.run_len(), window.runs());
        let last = self.block - 1;
        // the run that holds the offset last looked at, from `r0`, and its index among the runs
        let (mut r0, mut i) = (0u64, 0u64);
        for (k, &mask) in words.iter().enumerate() {
            if mask == 0 {
                continue;
            }
            let first = 64 * (first_word + k) as u64;
            if first >= r0 + run || first < r0 {
                if first >= r0 && first - r0 < 4 * run {
                    while first >= r0 + run {
                        r0 += run;
                        i = if i + 1 == runs { 0 } else { i + 1 };
                    }
                } else {
                    r0 = first - first % run;
                    i = (r0 / run) % runs;
                }
            }
            // the word's pieces, one for each run it meets
            let mut at = first;
            loop {
                let stop = (r0 + run).min(first + 64);
                let n = stop - at;
                let piece = (mask >> (at - first)) & if n == 64 { !0 } else { (1 << n) - 1 };
                if piece != 0 {
                    let t = (at as i64 + window.run_shift(i as usize)) as u64;
                    reached.prefetch(t);
                    reached.prefetch((t + 63).min(last));
                    next.prefetch(t);
                    next.prefetch((t + 63).min(last));
                    pending.push(t);
                    pending.push(piece);
                }
                if stop == first + 64 {
                    break;
                }
                at = stop;
                r0 += run;
                i = if i + 1 == runs { 0 } else { i + 1 };
            }
            if pending.len() >= BATCH {
                visit_pieces::<OWNED>(reached, next, pending);
            }
        }
        visit_pieces::<OWNED>(reached, next, pending);
    }
}

/// Marks the new states of the pieces of `pending` (pairs: the offset of the first bit, the
/// bits) in `next`, a word at a time.
fn visit_pieces<const OWNED: bool>(reached: &impl Reached, next: &Frontier, pending: &mut Vec<u64>) {
    for piece in pending.chunks_exact(2) {
        let (t, bits) = (piece[0], piece[1]);
        let (w, o) = ((t / 64) as usize, t % 64);
        let low = bits << o;
        if low != 0 {
            mark::<OWNED>(next, w, low & reached.unreached_word(w));
        }
        if o != 0 {
            let high = bits >> (64 - o);
            if high != 0 {
                mark::<OWNED>(next, w + 1, high & reached.unreached_word(w + 1));
            }
        }
    }
    pending.clear();
}

/// Marks the new states of `pending` in `next` (a pass after their lines were prefetched: the
/// atomic `or`s are full barriers on x86, which would otherwise keep each cache miss from
/// overlapping the next).
fn visit<const OWNED: bool>(reached: &impl Reached, next: &Frontier, pending: &mut Vec<u64>) {
    for &nh in pending.iter() {
        if OWNED {
            // no branch on whether the neighbour is new: in the busy levels it is a coin toss
            next.or_word_owned(nh as usize / 64, (reached.unreached(nh) as u64) << (nh % 64));
        } else if reached.unreached(nh) {
            next.or_word(nh as usize / 64, 1 << (nh % 64));
        }
    }
    pending.clear();
}

/// Sets the bits `new` of word `w` of `next`: [`Frontier::or_word_owned`] when `OWNED`, else
/// [`Frontier::or_word`].
#[inline(always)]
fn mark<const OWNED: bool>(next: &Frontier, w: usize, new: u64) {
    if OWNED {
        next.or_word_owned(w, new)
    } else {
        next.or_word(w, new)
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Calls `f(h)` for every set bit of `words`, the first being word `first_word`.
fn for_each_bit(first_word: usize, words: &[u64], mut f: impl FnMut(u64)) {
    for (k, &mask) in words.iter().enumerate() {
        let mut m = mask;
        while m != 0 {
            let j = m.trailing_zeros();
            m &= m - 1;
            f((64 * (first_word + k)) as u64 + j as u64);
        }
    }
}

/// Gives the entries of `codes` (a block's codes, or a chunk's: entry 0 at byte 0) whose bits
/// are set in `words` (word 0 for entries 0 to 63) the code `residue`; they must be unreached,
/// or have that code already (settling is idempotent).
pub fn settle(codes: &mut [u8], words: &[u64], residue: u8) {
    let clear = (3 ^ residue) as u64 * 0x5555_5555_5555_5555;
    for (k, &mask) in words.iter().enumerate() {
        if mask == 0 {
            continue;
        }
        let at = 16 * k;
        if at + 16 <= codes.len() {
            let (lo, hi) = codes[at..at + 16].split_at_mut(8);
            let spread = |x: u32| pairs(x) & clear;
            let old_lo = u64::from_le_bytes((&*lo).try_into().expect("8 bytes"));
            let old_hi = u64::from_le_bytes((&*hi).try_into().expect("8 bytes"));
            lo.copy_from_slice(&(old_lo & !spread(mask as u32)).to_le_bytes());
            hi.copy_from_slice(&(old_hi & !spread((mask >> 32) as u32)).to_le_bytes());
        } else {
            let mut m = mask;
            while m != 0 {
                let j = m.trailing_zeros() as usize;
                m &= m - 1;
                let e = 64 * k + j;
                codes[e / 4] &= !(((clear & 3) as u8) << (2 * (e % 4)));
            }
        }
    }
}

/// The even bits of `x` (bits 0, 2, ..., 62) packed into 32 bits.
#[inline(always)]
pub(crate) fn even_bits(x: u64) -> u32 {
    let mut x = x & 0x5555_5555_5555_5555;
    x = (x | (x >> 1)) & 0x3333_3333_3333_3333;
    x = (x | (x >> 2)) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | (x >> 4)) & 0x00ff_00ff_00ff_00ff;
    x = (x | (x >> 8)) & 0x0000_ffff_0000_ffff;
    x = (x | (x >> 16)) & 0x0000_0000_ffff_ffff;
    x as u32
}

/// Each bit `j` of `x` doubled into bits `2j` and `2j + 1`.
#[inline(always)]
pub(crate) fn pairs(x: u32) -> u64 {
    let mut x = x as u64;
    x = (x | (x << 16)) & 0x0000_ffff_0000_ffff;
    x = (x | (x << 8)) & 0x00ff_00ff_00ff_00ff;
    x = (x | (x << 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | (x << 2)) & 0x3333_3333_3333_3333;
    x = (x | (x << 1)) & 0x5555_5555_5555_5555;
    x | (x << 1)
}

/// The parity of each blank cell's distance to the goal's blank cell: the parity of the levels
/// whose states have their blank there.
pub fn parities(shape: crate::puzzle::board::Shape, goal_blank: usize) -> Vec<usize> {
    let cols = shape.cols();
    (0..shape.cells())
        .map(|b| ((b / cols).abs_diff(goal_blank / cols) + (b % cols).abs_diff(goal_blank % cols)) % 2)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::rank::StateIndex;
    use crate::puzzle::board::Shape;
    use crate::puzzle::goal::Goal;

    /// The parts of every move of boards of 2 and 3 rows and of 2 columns: together they meet
    /// each flagged chunk's words once, and an owned part's states have their neighbours in the
    /// target within the part's own offsets (so no other part writes them).
    #[test]
    fn parts_cover_the_flagged_chunks_and_owned_ones_keep_to_themselves() {
        let mut owned_vertical = 0;
        for (rows, cols) in [(2, 5), (5, 2), (3, 3)] {
            let shape = Shape::new(rows, cols).expect("a board");
            let index = StateIndex::new(&Goal::BlankLast.board(shape).expect("a goal")).expect("an index");
            let moves = index.moves();
            let step = Step::new(moves);
            let block = step.block();
            let chunks = (block as usize).div_ceil(CHUNK);
            let words = (block as usize).div_ceil(64);
            let mut few = vec![0, chunks / 2, chunks - 1];
            few.dedup();
            for flagged in [(0..chunks).collect::<Vec<_>>(), few] {
                for s in 0..shape.cells() {
                    for t in step.neighbours(s) {
                        let mut parts = Vec::new();
                        step.parts(s, t, &flagged, false, &mut parts);
                        let mut covered = vec![0u8; words];
                        for part in &parts {
                            assert!(part.first < part.end && part.end <= words, "{shape} {s} -> {t}: {part:?}");
                            for &c in &flagged[part.chunks.clone()] {
                                let first = (c * CHUNK_WORDS).max(part.first);
                                let end = ((c + 1) * CHUNK_WORDS).min(part.end);
                                covered[first..end].iter_mut().for_each(|x| *x += 1);
                            }
                            if !part.owned {
                                continue;
                            }
                            owned_vertical += (t / cols != s / cols) as usize;
                            let range = 64 * part.first as u64..(64 * part.end as u64).min(block);
                            for h in range.clone() {
                                moves.for_each(s, h, |_, nb, nh| {
                                    if nb == t {
                                        assert!(
                                            range.contains(&nh),
                                            "{shape} {s} -> {t}: {h} goes to {nh}, out of {part:?}"
                                        );
                                    }
                                });
                            }
                        }
                        for (w, &n) in covered.iter().enumerate() {
                            let want = flagged.contains(&(w / CHUNK_WORDS)) as u8;
                            assert_eq!(n, want, "{shape} {s} -> {t}: word {w}");
                        }
                    }
                }
            }
        }
        assert!(owned_vertical > 0, "some vertical moves have owned parts");
    }
}
