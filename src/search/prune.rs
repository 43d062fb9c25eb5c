//! Move pruning: a finite-state machine over the blank's moves that forbids every move sequence
//! with a shorter or equal-but-earlier equivalent (Taylor & Korf 1993).
//!
//! Two strings of blank moves from the same cell have the same *effect* when they leave every tile
//! in the same place. Order strings shortlex (shorter first, then by the moves' indices in
//! [`Dir::ALL`]); that order is kept by concatenation, so the least string with a given effect has
//! only least strings as substrings. Forbid, then, every string that is not the least with its
//! effect: a search that never makes a forbidden string still reaches every position by its least
//! path, which is a shortest one. Depth-first search (IDA*) cannot detect duplicates, and on the
//! 24-puzzle most of its nodes are duplicates of this kind; Clausecker & Reinefeld (2019) measured
//! 2.98x fewer expansions with the loops up to length 20 forbidden.
//!
//! # How the machine is made
//! For each start cell, a breadth-first search over strings in shortlex order (up to `max_len`
//! moves) keeps the first string to reach each arrangement of the board: every later string
//! reaching a seen arrangement is forbidden. Only least strings are extended, so a forbidden
//! string's proper prefixes are all least; one whose proper suffix is already forbidden adds
//! nothing and is dropped. The forbidden strings, each tied to its start cell, go into a trie with
//! one root per cell, and Aho-Corasick's failure links turn it into a machine: a state is the
//! longest suffix of the moves made so far that begins some forbidden string, so it knows its
//! blank cell, and [`MovePruner::next`] maps (state, move) to the next state or to [`FORBIDDEN`].
//! With `max_len = 2` the machine forbids exactly the move straight back, the classic pruning.
//!
//! # The file
//! | offset | size | field                                                              |
//! |-------:|-----:|--------------------------------------------------------------------|
//! |      0 |    8 | magic `SLIDEFSM`                                                   |
//! |      8 |    4 | format version (`u32`, 1; bumped when any field's meaning changes) |
//! |     12 |    1 | rows                                                               |
//! |     13 |    1 | columns                                                            |
//! |     14 |    1 | `max_len`, the longest forbidden string looked for                 |
//! |     15 |    1 | reserved, 0                                                        |
//! |     16 |    4 | states (`u32`); states `0..cells` are the roots, blank on that cell |
//! |     20 |    4 | reserved, 0                                                        |
//! |     24 |    8 | forbidden strings found (`u64`, after dropping the redundant ones) |
//! |     32 |    4 | CRC-32 of the whole file with this field zeroed                    |
//! |     36 |    4 | reserved, 0                                                        |
//! |     40 | 16 x states | for each state, the next state after up, down, left, right (`u32`; `u32::MAX`: forbidden or off the board) |
//!
//! Opening checks the checksum, the length, every state number and the geometry (each state's
//! moves are consistent with one blank cell); `table verify` regenerates the machine and compares.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use byteorder::{ByteOrder, LittleEndian as LE};
use rayon::prelude::*;

use crate::error::Error;
use crate::puzzle::board::{Dir, Shape};
use crate::table::format::write_atomic;

/// The next state of a forbidden move (or a move off the board).
pub const FORBIDDEN: u32 = u32::MAX;

/// The longest strings the generator looks for: beyond that the strings kept per start cell
/// outgrow memory on large boards.
pub const MAX_LEN: usize = 24;

/// The most cells of a board the machine is made for.
pub const MAX_CELLS: usize = 255;

const MAGIC: [u8; 8] = *b"SLIDEFSM";
const VERSION: u32 = 1;
const HEADER_LEN: usize = 40;
const OFF_CRC: usize = 32;

/// A move-pruning machine for one board shape: see the module doc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovePruner {
    shape: Shape,
    max_len: u8,
    patterns: u64,
    /// `next[4 * state + d]`: the state after move `Dir::ALL[d]`, or [`FORBIDDEN`].
    next: Vec<u32>,
}

/// A fast hasher for the arrangements (a few dozen bytes each); not for untrusted keys.
#[derive(Default)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;
type FxSet<K> = HashSet<K, BuildHasherDefault<FxHasher>>;

impl MovePruner {
    /// The machine for `shape` forbidding every string of up to `max_len` moves that has a
    /// shortlex-earlier equivalent. Time and memory grow about 2.4x per unit of `max_len` on
    /// large boards (cells in parallel); `max_len` 0 or 1 forbids nothing but moves off the board.
    ///
    /// # Errors
    /// [`Error::BadShape`] for more than [`MAX_CELLS`] cells or `max_len` over [`MAX_LEN`].
    pub fn generate(shape: Shape, max_len: usize) -> Result<MovePruner, Error> {
        MovePruner::generate_until(shape, max_len, |_| {}, &AtomicBool::new(false))
    }

    /// As [`MovePruner::generate`], calling `progress(1)` as each cell's strings are found (the
    /// shape's cells in all; the machine is put together after the last) and stopping soon after
    /// `stop` is set.
    ///
    /// # Errors
    /// Those of [`MovePruner::generate`]; [`Error::Cancelled`] when stopped.
    pub fn generate_until(
        shape: Shape,
        max_len: usize,
        progress: impl Fn(u64) + Sync,
        stop: &AtomicBool,
    ) -> Result<MovePruner, Error> {
        let n = shape.cells();
        if n > MAX_CELLS {
            return Err(Error::BadShape(format!("{shape}: move pruning goes up to {MAX_CELLS} cells")));
        }
        if max_len > MAX_LEN {
            return Err(Error::BadShape(format!(
                "move pruning looks for strings of at most {MAX_LEN} moves, not {max_len}"
            )));
        }
        let found: Vec<Vec<Vec<u8>>> = (0..n)
            .into_par_iter()
            .map(|c| {
                let list = forbidden_from(shape, c, max_len, stop)?;
                progress(1);
                Ok(list)
            })
            .collect::<Result<_, Error>>()?;
        // drop every string whose proper suffix is itself forbidden: the machine stops there first
        let mut all: HashSet<(usize, &[u8])> = HashSet::new();
        for (c, list) in found.iter().enumerate() {
            for s in list {
                all.insert((c, s.as_slice()));
            }
        }
        let mut kept: Vec<(usize, &[u8])> = Vec::new();
        for (c, list) in found.iter().enumerate() {
            for s in list {
                let mut cell = c;
                let mut redundant = false;
                for i in 1..s.len() {
                    cell = step(shape, cell, s[i - 1]).unwrap_or(cell);
                    if all.contains(&(cell, &s[i..])) {
                        redundant = true;
                        break;
                    }
                }
                if !redundant {
                    kept.push((c, s.as_slice()));
                }
            }
        }
        let next = machine(shape, &kept);
        Ok(MovePruner { shape, max_len: max_len as u8, patterns: kept.len() as u64, next })
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The longest forbidden string looked for.
    pub fn max_len(&self) -> usize {
        self.max_len as usize
    }

    /// The number of forbidden strings (after the redundant ones are dropped).
    pub fn patterns(&self) -> u64 {
        self.patterns
    }

    /// The number of states.
    pub fn states(&self) -> usize {
        self.next.len() / 4
    }

    /// The state of a search whose blank is on `cell` and has made no move yet.
    #[inline(always)]
    pub fn root(&self, cell: usize) -> u32 {
        cell as u32
    }

    /// The state after the blank moves `Dir::ALL[dir]` from `state`, or [`FORBIDDEN`].
    #[inline(always)]
    pub fn next(&self, state: u32, dir: usize) -> u32 {
        self.next[4 * state as usize + dir]
    }

    /// Asks for `state`'s transitions to be brought into the cache (a search issues this for a
    /// child before it expands it).
    #[inline(always)]
    pub fn prefetch(&self, state: u32) {
        if let Some(row) = self.next.get(4 * state as usize) {
            crate::memory::prefetch(row);
        }
    }

    /// The machine as a file's bytes (the layout of the module doc).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = vec![0u8; HEADER_LEN + 4 * self.next.len()];
        b[..8].copy_from_slice(&MAGIC);
        LE::write_u32(&mut b[8..], VERSION);
        b[12] = self.shape.rows() as u8;
        b[13] = self.shape.cols() as u8;
        b[14] = self.max_len;
        LE::write_u32(&mut b[16..], self.states() as u32);
        LE::write_u64(&mut b[24..], self.patterns);
        for (i, &s) in self.next.iter().enumerate() {
            LE::write_u32(&mut b[HEADER_LEN + 4 * i..], s);
        }
        let crc = crc32fast::hash(&b);
        LE::write_u32(&mut b[OFF_CRC..], crc);
        b
    }

    /// Reads and checks a machine from a file's bytes.
    ///
    /// # Errors
    /// [`Error::BadMagic`], [`Error::UnsupportedVersion`], [`Error::WrongLength`], or
    /// [`Error::CorruptHeader`] for a checksum mismatch, a state out of range, a move off the
    /// board allowed, or states whose moves disagree about the blank's cell.
    pub fn from_bytes(b: &[u8]) -> Result<MovePruner, Error> {
        if b.len() < 8 || b[..8] != MAGIC {
            return Err(Error::BadMagic);
        }
        if b.len() < HEADER_LEN {
            return Err(Error::WrongLength { expected: HEADER_LEN as u64, found: b.len() as u64 });
        }
        let version = LE::read_u32(&b[8..]);
        if version != VERSION {
            return Err(Error::UnsupportedVersion { found: version, expected: VERSION });
        }
        let corrupt = |m: String| Error::CorruptHeader(format!("move-pruning machine: {m}"));
        let shape = Shape::new(b[12] as usize, b[13] as usize)
            .map_err(|_| corrupt(format!("impossible shape {}x{}", b[12], b[13])))?;
        let n = shape.cells();
        let states = LE::read_u32(&b[16..]) as usize;
        let expected = (states as u64).checked_mul(16).and_then(|x| x.checked_add(HEADER_LEN as u64));
        if expected != Some(b.len() as u64) {
            return Err(Error::WrongLength { expected: expected.unwrap_or(u64::MAX), found: b.len() as u64 });
        }
        let mut copy = b.to_vec();
        let stored = LE::read_u32(&b[OFF_CRC..]);
        LE::write_u32(&mut copy[OFF_CRC..], 0);
        if crc32fast::hash(&copy) != stored {
            return Err(corrupt("checksum mismatch".into()));
        }
        if n > MAX_CELLS || states < n || b[14] as usize > MAX_LEN {
            return Err(corrupt(format!("{states} states, max_len {}, for {shape}", b[14])));
        }
        if b[15] != 0 || b[20..24] != [0; 4] || b[36..40] != [0; 4] {
            return Err(corrupt("reserved bytes are not 0".into()));
        }
        let next = crate::memory::huge_vec(4 * states, (0..4 * states).map(|i| LE::read_u32(&b[HEADER_LEN + 4 * i..])));
        // every state must sit on one cell, consistent with every move into it
        let mut cell = vec![usize::MAX; states];
        let mut queue: Vec<u32> = (0..n as u32).collect();
        for (c, slot) in cell.iter_mut().enumerate().take(n) {
            *slot = c;
        }
        while let Some(s) = queue.pop() {
            for d in 0..4 {
                let t = next[4 * s as usize + d];
                if t == FORBIDDEN {
                    continue;
                }
                let Some(to) = step(shape, cell[s as usize], d as u8) else {
                    return Err(corrupt(format!("state {s} allows a move off the board")));
                };
                if t as usize >= states {
                    return Err(corrupt(format!("state {s} leads to state {t} of {states}")));
                }
                if cell[t as usize] == usize::MAX {
                    cell[t as usize] = to;
                    queue.push(t);
                } else if cell[t as usize] != to {
                    return Err(corrupt(format!("state {t} is reached with the blank on two cells")));
                }
            }
        }
        Ok(MovePruner { shape, max_len: b[14], patterns: LE::read_u64(&b[24..]), next })
    }

    /// Writes the machine to `path` atomically.
    ///
    /// # Errors
    /// [`Error::Io`] naming the path.
    pub fn write(&self, path: &Path) -> Result<(), Error> {
        write_atomic(path, &self.to_bytes())
    }

    /// Reads and checks a machine file.
    ///
    /// # Errors
    /// [`Error::Io`] when it cannot be read, and those of [`MovePruner::from_bytes`].
    pub fn open(path: &Path) -> Result<MovePruner, Error> {
        let bytes = std::fs::read(path).map_err(|e| Error::io("reading", path, e))?;
        MovePruner::from_bytes(&bytes)
    }

    /// The conventional file name of the machine for `shape` and `max_len`: `RxC-moves-L.fsm`.
    pub fn file_name(shape: Shape, max_len: usize) -> String {
        format!("{shape}-moves-{max_len}.fsm")
    }
}

/// The cell the blank reaches from `cell` by `Dir::ALL[d]`.
#[inline]
fn step(shape: Shape, cell: usize, d: u8) -> Option<usize> {
    Dir::ALL[d as usize].step(shape, cell)
}

/// The forbidden strings from `start` (see the module doc), each a list of indices into
/// [`Dir::ALL`].
fn forbidden_from(shape: Shape, start: usize, max_len: usize, stop: &AtomicBool) -> Result<Vec<Vec<u8>>, Error> {
    let n = shape.cells();
    let identity: Vec<u8> = (0..n as u8).collect();
    let mut seen: FxSet<Box<[u8]>> = FxSet::default();
    seen.insert(identity.clone().into_boxed_slice());
    // the least strings of the current length, in shortlex order, with their arrangement
    let mut level: Vec<(Vec<u8>, Box<[u8]>, usize)> = vec![(Vec::new(), identity.into_boxed_slice(), start)];
    let mut forbidden = Vec::new();
    for _ in 0..max_len {
        let mut next_level = Vec::new();
        for (k, (moves, arr, blank)) in level.iter().enumerate() {
            if k % 4096 == 0 && stop.load(Ordering::Relaxed) {
                return Err(Error::Cancelled { generated: 0 });
            }
            for d in 0..4u8 {
                let Some(to) = step(shape, *blank, d) else { continue };
                let mut child = arr.clone();
                child.swap(*blank, to);
                let mut s = moves.clone();
                s.push(d);
                if seen.contains(&child) {
                    forbidden.push(s);
                } else {
                    seen.insert(child.clone());
                    next_level.push((s, child, to));
                }
            }
        }
        level = next_level;
    }
    Ok(forbidden)
}

/// The Aho-Corasick machine of the forbidden strings `(start cell, moves)`, flattened to
/// `next[4 * state + d]` with the forbidden states removed.
fn machine(shape: Shape, patterns: &[(usize, &[u8])]) -> Vec<u32> {
    const NONE: u32 = u32::MAX;
    let n = shape.cells();
    // the trie: node i has children[i], cell[i], and whether a string ends there
    let mut children: Vec<[u32; 4]> = vec![[NONE; 4]; n];
    let mut cell: Vec<usize> = (0..n).collect();
    let mut end: Vec<bool> = vec![false; n];
    for &(c, s) in patterns {
        let mut node = c as u32;
        for &d in s {
            let k = children[node as usize][d as usize];
            node = if k == NONE {
                let to = step(shape, cell[node as usize], d).unwrap_or(0);
                children.push([NONE; 4]);
                cell.push(to);
                end.push(false);
                let id = (children.len() - 1) as u32;
                children[node as usize][d as usize] = id;
                id
            } else {
                k
            };
        }
        end[node as usize] = true;
    }
    // failure links breadth-first; delta is the full transition function
    let total = children.len();
    let mut fail = vec![0u32; total];
    let mut delta = vec![NONE; 4 * total];
    let mut queue = std::collections::VecDeque::new();
    for root in 0..n {
        fail[root] = root as u32;
        for d in 0..4u8 {
            let Some(to) = step(shape, root, d) else { continue };
            let k = children[root][d as usize];
            if k == NONE {
                delta[4 * root + d as usize] = to as u32;
            } else {
                delta[4 * root + d as usize] = k;
                fail[k as usize] = to as u32; // a one-move suffix: the root of the cell reached
                queue.push_back(k);
            }
        }
    }
    while let Some(v) = queue.pop_front() {
        let v = v as usize;
        if end[fail[v] as usize] {
            end[v] = true;
        }
        for d in 0..4u8 {
            if step(shape, cell[v], d).is_none() {
                continue;
            }
            let k = children[v][d as usize];
            let via_fail = delta[4 * fail[v] as usize + d as usize];
            if k == NONE {
                delta[4 * v + d as usize] = via_fail;
            } else {
                delta[4 * v + d as usize] = k;
                fail[k as usize] = via_fail;
                queue.push_back(k);
            }
        }
    }
    // renumber the states that are not ends (roots first, as they are), forbid moves into ends
    let mut id = vec![NONE; total];
    let mut count = 0u32;
    for v in 0..total {
        if !end[v] {
            id[v] = count;
            count += 1;
        }
    }
    let mut next = vec![FORBIDDEN; 4 * count as usize];
    let mut cells = vec![0usize; count as usize];
    for v in 0..total {
        if end[v] {
            continue;
        }
        cells[id[v] as usize] = cell[v];
        for d in 0..4 {
            let t = delta[4 * v + d];
            if t != NONE && !end[t as usize] {
                next[4 * id[v] as usize + d] = id[t as usize];
            }
        }
    }
    minimize(n, &cells, &next)
}

/// The least machine equivalent to `next` (Moore's partition refinement): states that sit on
/// the same cell and allow the same strings become one. The roots stay states `0..n`.
fn minimize(n: usize, cells: &[usize], next: &[u32]) -> Vec<u32> {
    let states = cells.len();
    // first split: by cell; then by the classes of the four successors, until nothing splits
    let mut class: Vec<u32> = cells.iter().map(|&c| c as u32).collect();
    let mut classes = n;
    loop {
        let mut ids: FxMap<[u32; 5], u32> = FxMap::default();
        let mut refined = vec![0u32; states];
        for s in 0..states {
            let mut key = [class[s], 0, 0, 0, 0];
            for d in 0..4 {
                let t = next[4 * s + d];
                key[d + 1] = if t == FORBIDDEN { FORBIDDEN } else { class[t as usize] };
            }
            let fresh = ids.len() as u32;
            refined[s] = *ids.entry(key).or_insert(fresh);
        }
        let now = ids.len();
        class = refined;
        if now == classes {
            break;
        }
        classes = now;
    }
    // number the classes with the roots' first, in cell order
    let mut number = vec![u32::MAX; classes];
    let mut count = 0u32;
    for s in (0..n).chain(n..states) {
        let c = class[s] as usize;
        if number[c] == u32::MAX {
            number[c] = count;
            count += 1;
        }
    }
    let mut out = vec![FORBIDDEN; 4 * classes];
    for s in 0..states {
        let c = number[class[s] as usize] as usize;
        for d in 0..4 {
            let t = next[4 * s + d];
            out[4 * c + d] = if t == FORBIDDEN { FORBIDDEN } else { number[class[t as usize] as usize] };
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_moves_forbid_only_the_move_back() {
        let shape = Shape::new(3, 3).unwrap();
        let m = MovePruner::generate(shape, 2).unwrap();
        assert_eq!(m.patterns(), 24, "one per move: its reversal");
        for cell in 0..9 {
            for d in 0..4 {
                let s = m.next(m.root(cell), d);
                assert_eq!(s == FORBIDDEN, step(shape, cell, d as u8).is_none());
                if s == FORBIDDEN {
                    continue;
                }
                for e in 0..4 {
                    let back = Dir::ALL[d].opposite() == Dir::ALL[e];
                    let legal = step(shape, step(shape, cell, d as u8).unwrap(), e as u8).is_some();
                    assert_eq!(m.next(s, e) != FORBIDDEN, legal && !back, "cell {cell} move {d} then {e}");
                }
            }
        }
    }

    /// The least number of moves the machine allows to reach each position of `goal`'s board
    /// that lies within `horizon` of it, by a breadth-first search over (position, state) pairs:
    /// the pruned search's own reach, depth by depth.
    fn pruned_depths(m: &MovePruner, goal: &crate::puzzle::board::Board, horizon: usize) -> HashMap<Vec<u16>, usize> {
        let mut best: HashMap<Vec<u16>, usize> = HashMap::new();
        let mut seen: std::collections::HashSet<(Vec<u16>, u32)> = std::collections::HashSet::new();
        let start = (goal.clone(), m.root(goal.blank()));
        best.insert(goal.cells().to_vec(), 0);
        seen.insert((goal.cells().to_vec(), start.1));
        let mut level = vec![start];
        for depth in 1..=horizon {
            let mut next = Vec::new();
            for (board, state) in &level {
                for (d, dir) in Dir::ALL.iter().enumerate() {
                    let s = m.next(*state, d);
                    if s == FORBIDDEN {
                        continue;
                    }
                    let child = board.moved(*dir).expect("the machine allows only moves on the board");
                    if seen.insert((child.cells().to_vec(), s)) {
                        best.entry(child.cells().to_vec()).or_insert(depth);
                        next.push((child, s));
                    }
                }
            }
            level = next;
        }
        best
    }

    #[test]
    #[ignore = "slow (about 14 s): CI runs it; cargo test -- --include-ignored --skip big::"]
    fn pruned_search_reaches_every_3x3_position_at_its_distance() {
        use crate::puzzle::board::Board;
        let shape = Shape::new(3, 3).unwrap();
        let goal = Board::parse(shape, "1 2 3 4 5 6 7 8 0").unwrap();
        let table = crate::table::build(&goal, |_| {}).unwrap();
        for len in [2, 6, 12] {
            let m = MovePruner::generate(shape, len).unwrap();
            let best = pruned_depths(&m, &goal, 31);
            assert_eq!(best.len(), 181_440, "max_len {len}: every position reached");
            for (cells, depth) in best {
                let board = Board::new(shape, cells).unwrap();
                assert_eq!(table.distance(&board).unwrap(), Some(depth as u8), "max_len {len}: {board:?}");
            }
        }
    }

    #[test]
    fn pruned_search_reaches_every_3x4_position_within_18_moves_at_its_distance() {
        use crate::puzzle::board::Board;
        let shape = Shape::new(3, 4).unwrap();
        let goal = Board::parse(shape, "0 1 2 3 4 5 6 7 8 9 10 11").unwrap();
        // the exact distances within the horizon: a plain breadth-first search
        let horizon = 18;
        let mut exact: HashMap<Vec<u16>, usize> = HashMap::new();
        exact.insert(goal.cells().to_vec(), 0);
        let mut level = vec![goal.clone()];
        for depth in 1..=horizon {
            let mut next = Vec::new();
            for b in &level {
                for dir in Dir::ALL {
                    if let Some(c) = b.moved(dir) {
                        if !exact.contains_key(c.cells()) {
                            exact.insert(c.cells().to_vec(), depth);
                            next.push(c);
                        }
                    }
                }
            }
            level = next;
        }
        for len in [4, 10, 14] {
            let m = MovePruner::generate(shape, len).unwrap();
            let best = pruned_depths(&m, &goal, horizon);
            assert_eq!(best, exact, "max_len {len}: every position within {horizon} moves, at its distance");
        }
    }

    #[test]
    fn file_round_trip_and_damage() {
        let m = MovePruner::generate(Shape::new(3, 4).unwrap(), 8).unwrap();
        let bytes = m.to_bytes();
        assert_eq!(MovePruner::from_bytes(&bytes).unwrap(), m);
        let mut bad = bytes.clone();
        bad[HEADER_LEN + 5] ^= 1;
        assert!(matches!(MovePruner::from_bytes(&bad), Err(Error::CorruptHeader(_))));
        assert!(matches!(MovePruner::from_bytes(&bytes[..bytes.len() - 4]), Err(Error::WrongLength { .. })));
        let mut v2 = bytes.clone();
        LE::write_u32(&mut v2[8..], 2);
        assert!(matches!(MovePruner::from_bytes(&v2), Err(Error::UnsupportedVersion { .. })));
        assert!(matches!(MovePruner::from_bytes(b"SLIDETBL"), Err(Error::BadMagic)));
        // a consistent checksum over an inconsistent machine: a move off the board allowed
        let mut off = bytes.clone();
        LE::write_u32(&mut off[HEADER_LEN..], 1); // state 0 (cell 0) moving up
        LE::write_u32(&mut off[OFF_CRC..], 0);
        let crc = crc32fast::hash(&off);
        LE::write_u32(&mut off[OFF_CRC..], crc);
        assert!(matches!(MovePruner::from_bytes(&off), Err(Error::CorruptHeader(_))));
    }
}
