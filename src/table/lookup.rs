//! An opened table: lookups, hill-climbing to an optimal solution, the histogram, verification.

use std::fs::File;
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use memmap2::Mmap;
use rayon::prelude::*;

use crate::error::Error;
use crate::index::moves::Moves;
use crate::index::rank::StateIndex;
use crate::puzzle::board::{Board, Dir};
use crate::table::bfs::{self, Progress};
use crate::table::format::{payload_crc, write_atomic, Encoding, Header, PendingFile, PAYLOAD_OFFSET, UNREACHED};

/// States per unit of work in [`Table::verify`]: a multiple of 64.
const VERIFY_CHUNK: u64 = 1 << 16;

/// Tables up to this size are checksum-verified every time they are opened.
pub const CHECK_ON_OPEN_LIMIT: u64 = 16 << 20;

/// A perfect lookup table over any byte source holding a whole table file: a `Vec<u8>` in
/// tests and after a build, a memory map ([`open`]) in the command-line tool.
#[derive(Debug)]
pub struct Table<D: AsRef<[u8]>> {
    data: D,
    header: Header,
    index: StateIndex,
    /// The goal's index, where every solution ends.
    goal_index: u64,
}

/// An optimal solution found by hill-climbing down the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The blank's moves, in order.
    pub moves: Vec<Dir>,
    /// The tile that slides at each move.
    pub tiles: Vec<u16>,
}

/// Builds the table for `goal` in memory: the goal's shape, every state reachable from it.
///
/// `progress` is called after each BFS level.
///
/// # Errors
/// [`Error::TableTooLarge`] for boards of more than 12 cells.
pub fn build(goal: &Board, progress: impl FnMut(&Progress)) -> Result<Table<Vec<u8>>, Error> {
    build_until(goal, progress, &AtomicBool::new(false))
}

/// As [`build`], stopping with [`Error::BuildCancelled`] after the first level at which `stop`
/// is set (a front end's Ctrl-C, or its progress callback's failure).
///
/// # Errors
/// Those of [`build`], and [`Error::BuildCancelled`].
pub fn build_until(goal: &Board, progress: impl FnMut(&Progress), stop: &AtomicBool) -> Result<Table<Vec<u8>>, Error> {
    let index = StateIndex::new(goal)?;
    let mut data = vec![0u8; PAYLOAD_OFFSET + index.len() as usize];
    fill_file(&index, &mut data, progress, stop)?;
    Table::from_parts(data, index)
}

/// Builds the table for `goal` straight into the file `path`, which it replaces atomically, and
/// returns it memory-mapped.
///
/// The file is allocated on disk first (so a full disk fails before the search) and filled in
/// place through a memory map, so the table is held once: peak memory is the table plus a few
/// megabytes. Until the final rename, an existing file at `path` is untouched; a failed or
/// interrupted build leaves it as it was.
///
/// # Errors
/// [`Error::TableTooLarge`] for boards of more than 12 cells; [`Error::Io`] when the file cannot
/// be created, allocated, synced or renamed.
pub fn build_file(goal: &Board, path: &Path, progress: impl FnMut(&Progress)) -> Result<Table<Mmap>, Error> {
    build_file_until(goal, path, progress, &AtomicBool::new(false))
}

/// As [`build_file`], stopping with [`Error::BuildCancelled`] after the first level at which
/// `stop` is set; the file at `path` is then untouched, as after any failed build.
///
/// # Errors
/// Those of [`build_file`], and [`Error::BuildCancelled`].
pub fn build_file_until(
    goal: &Board,
    path: &Path,
    progress: impl FnMut(&Progress),
    stop: &AtomicBool,
) -> Result<Table<Mmap>, Error> {
    let index = StateIndex::new(goal)?;
    let mut pending = PendingFile::create(path, PAYLOAD_OFFSET as u64 + index.len())?;
    fill_file(&index, pending.bytes_mut(), progress, stop)?;
    let map = pending.commit()?;
    Table::from_parts(map, index)
}

/// Fills a whole table file's bytes: the search into the payload, then the header.
fn fill_file(
    index: &StateIndex,
    file: &mut [u8],
    progress: impl FnMut(&Progress),
    stop: &AtomicBool,
) -> Result<(), Error> {
    let (head, payload) = file.split_at_mut(PAYLOAD_OFFSET);
    let histogram = bfs::fill_until(index, payload, progress, stop)?;
    let header = Header {
        shape: index.shape(),
        goal: index.goal().clone(),
        encoding: Encoding::DistanceByte,
        entries: index.len(),
        max_depth: (histogram.len() - 1) as u8,
        payload_crc: payload_crc(payload),
        histogram,
        group: Vec::new(),
    };
    head.copy_from_slice(&header.to_bytes());
    Ok(())
}

/// Opens a table file by memory-mapping it, with the cheap checks of [`Table::new`].
///
/// # Errors
/// [`Error::Io`] when the file cannot be opened or mapped, and every error of [`Table::new`].
///
/// A mapped file must not be truncated by another program while it is mapped: a read past its
/// new end is a bus error (SIGBUS) that kills the process. slidetable itself never changes a
/// table in place; where other programs might, open it with [`read`] instead.
pub fn open(path: &Path) -> Result<Table<Mmap>, Error> {
    let file = open_regular(path)?;
    let map = map_file(&file).map_err(|e| Error::io("memory-mapping", path, e))?;
    Table::new(map)
}

/// Reads a table file into memory, with the checks of [`Table::new`]: no mapping, so nothing
/// another program does to the file afterwards can reach the table (at the cost of reading it
/// all, and of one copy per process instead of the page cache's shared one).
///
/// # Errors
/// [`Error::Io`] when the file cannot be read, and every error of [`Table::new`].
pub fn read(path: &Path) -> Result<Table<Vec<u8>>, Error> {
    use std::io::Read;
    let mut file = open_regular(path)?;
    let mut data = Vec::new();
    file.read_to_end(&mut data).map_err(|e| Error::io("reading", path, e))?;
    Table::new(data)
}

/// Opens `path` for reading, refusing a directory in words (opened and mapped, a directory
/// gives "No such device").
pub(crate) fn open_regular(path: &Path) -> Result<File, Error> {
    let file = File::open(path).map_err(|e| Error::io("opening", path, e))?;
    let meta = file.metadata().map_err(|e| Error::io("opening", path, e))?;
    if meta.is_dir() {
        let e = std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "it is a directory, not a table file (name the file, e.g. eight.table)",
        );
        return Err(Error::io("opening", path, e));
    }
    Ok(file)
}

/// Maps a file read-only.
///
/// # Safety
/// Not an `unsafe fn`: the one obligation of `Mmap::map` is that the file is not changed while it
/// is mapped, and slidetable never changes a table in place: it writes a new file and renames it
/// over the old name, which leaves the mapped inode untouched. Another program rewriting the
/// file in place changes the bytes read, and every byte read is treated as untrusted
/// (bounds-checked, values validated), so that yields an error or a refused entry, not a wrong
/// memory access; another program *truncating* it makes a read past the new end a bus error
/// (SIGBUS), which no Rust code can catch: [`open`] says so, and [`read`] is the way around it.
pub(crate) fn map_file(file: &File) -> std::io::Result<Mmap> {
    // SAFETY: see the function's doc: the file is only ever replaced by rename, never modified in place.
    unsafe { Mmap::map(file) }
}

impl<D: AsRef<[u8]>> Table<D> {
    /// Checks and wraps a whole table file held in `data`.
    ///
    /// Cheap and safe: magic, version, header checksum, shape, goal, exact length; and the payload
    /// checksum too when the table is at most [`CHECK_ON_OPEN_LIMIT`] bytes. Use [`Table::verify`]
    /// for the full proof.
    ///
    /// # Errors
    /// [`Error::BadMagic`], [`Error::UnsupportedVersion`], [`Error::CorruptHeader`],
    /// [`Error::WrongLength`], [`Error::ChecksumMismatch`].
    pub fn new(data: D) -> Result<Table<D>, Error> {
        let header = Header::parse_file(data.as_ref(), Encoding::DistanceByte)?;
        let expected = header.file_len();
        let index = StateIndex::new(&header.goal)?;
        let goal_index = index.index(&header.goal).expect("the goal reaches itself");
        let table = Table { data, header, index, goal_index };
        if expected <= CHECK_ON_OPEN_LIMIT {
            table.check_payload_crc()?;
        }
        Ok(table)
    }

    /// Wraps a table file just written by this process: the header is decoded again (cheap), the
    /// payload checksum not recomputed.
    fn from_parts(data: D, index: StateIndex) -> Result<Table<D>, Error> {
        let header = Header::parse(data.as_ref())?;
        let goal_index = index.index(&header.goal).expect("the goal reaches itself");
        Ok(Table { data, header, index, goal_index })
    }

    /// The bytes the table was made from.
    pub fn into_inner(self) -> D {
        self.data
    }

    /// The decoded header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The state index of the table.
    pub fn index(&self) -> &StateIndex {
        &self.index
    }

    /// The goal.
    pub fn goal(&self) -> &Board {
        &self.header.goal
    }

    /// The whole file, header and payload.
    pub fn as_bytes(&self) -> &[u8] {
        self.data.as_ref()
    }

    /// The payload: one distance byte per state index.
    pub fn payload(&self) -> &[u8] {
        &self.data.as_ref()[PAYLOAD_OFFSET..]
    }

    /// `histogram()[d]`: the number of states at distance `d`, `d` in `0..=max_depth`.
    pub fn histogram(&self) -> &[u64] {
        &self.header.histogram
    }

    /// Writes the table to `path` atomically (see [`write_atomic`]).
    ///
    /// # Errors
    /// [`Error::Io`]; an existing file at `path` is then left untouched.
    pub fn write(&self, path: &Path) -> Result<(), Error> {
        write_atomic(path, self.as_bytes())
    }

    /// The entry at `index`, checked: the unreached marker is reported as corruption.
    ///
    /// # Errors
    /// [`Error::Corrupt`] if the entry is the unreached marker or above the maximum depth.
    ///
    /// # Panics
    /// If `index >= self.index().len()`.
    pub fn entry(&self, index: u64) -> Result<u8, Error> {
        let d = self.payload()[index as usize];
        if d == UNREACHED || d > self.header.max_depth {
            return Err(self.corrupt(index, format!("entry {d} is not a distance in this table")));
        }
        Ok(d)
    }

    /// The exact distance from `board` to the goal, or `None` if the board cannot reach it.
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] for a board of another shape; [`Error::Corrupt`] for a bad entry.
    pub fn distance(&self, board: &Board) -> Result<Option<u8>, Error> {
        self.check_shape(board)?;
        match self.index.index(board) {
            Some(i) => self.entry(i).map(Some),
            None => Ok(None),
        }
    }

    /// Every move from `board` that leads one step closer to the goal, with the tile that slides;
    /// `None` if the board cannot reach the goal, empty for the goal itself.
    ///
    /// # Errors
    /// As [`Table::distance`]; [`Error::Corrupt`] when the entries around the board contradict
    /// each other (a neighbour more than one step closer, or none one step closer).
    pub fn optimal_moves(&self, board: &Board) -> Result<Option<Vec<Dir>>, Error> {
        self.check_shape(board)?;
        let Some(i) = self.index.index(board) else { return Ok(None) };
        Ok(Some(self.downhill(i)?.into_iter().map(|(dir, _)| dir).collect()))
    }

    /// An optimal solution by hill-climbing: from `board`, repeatedly move to the first neighbour
    /// (in `U D L R` order) one step closer, until the goal. `None` if the board cannot reach it.
    ///
    /// The answer checks itself: each step must go down by exactly one and the walk must end on
    /// the goal, or the table is reported corrupt.
    ///
    /// # Errors
    /// As [`Table::optimal_moves`].
    pub fn solve(&self, board: &Board) -> Result<Option<Solution>, Error> {
        self.check_shape(board)?;
        let Some(mut i) = self.index.index(board) else { return Ok(None) };
        let mut current = board.clone();
        let mut moves = Vec::new();
        let mut tiles = Vec::new();
        let mut d = self.entry(i)?;
        while d > 0 {
            let (dir, next) = self.downhill(i)?[0];
            tiles.push(current.apply(dir).expect("the index only yields moves on the board"));
            moves.push(dir);
            i = next;
            d -= 1;
        }
        if current != *self.goal() {
            return Err(self.corrupt(i, "distance 0 at a state that is not the goal".to_string()));
        }
        Ok(Some(Solution { moves, tiles }))
    }

    /// An optimal solution from the state at `index`, by hill-climbing as in [`Table::solve`]:
    /// the blank's moves are appended to `moves`. The fast path for batch queries: no [`Board`].
    ///
    /// # Errors
    /// [`Error::Corrupt`] when the table contradicts itself along the way.
    ///
    /// # Panics
    /// If `index >= self.index().len()`.
    pub fn solve_index(&self, index: u64, moves: &mut Vec<Dir>) -> Result<(), Error> {
        // the walk keeps (blank block, offset) rather than the index: no division per step
        let m = self.index.moves();
        let block = m.block() as u64;
        let payload = self.payload();
        let max = self.header.max_depth;
        let mut d = self.entry(index)?;
        let (mut b, mut h) = ((index / block) as usize, (index % block) as u32);
        while d > 0 {
            let mut next = None;
            let mut bad = None;
            m.for_each(b, h, |dir, nb, nh| {
                let j = nb as u64 * block + nh as u64;
                let e = payload[j as usize];
                if e.wrapping_add(1) == d {
                    next.get_or_insert((dir, nb, nh));
                } else if e != d + 1 || e > max {
                    bad.get_or_insert(j);
                }
            });
            if let Some(j) = bad {
                return Err(self.inconsistent(b as u64 * block + h as u64, j, d));
            }
            let Some((dir, nb, nh)) = next else {
                let i = b as u64 * block + h as u64;
                return Err(self.corrupt(i, format!("distance {d} but no neighbour at distance {}", d - 1)));
            };
            moves.push(dir);
            (b, h) = (nb, nh);
            d -= 1;
        }
        let i = b as u64 * block + h as u64;
        if i != self.goal_index {
            return Err(self.corrupt(i, "distance 0 at a state that is not the goal".to_string()));
        }
        Ok(())
    }

    /// The neighbours of state `i` one step closer, checking the local consistency of the table.
    fn downhill(&self, i: u64) -> Result<Vec<(Dir, u64)>, Error> {
        let mut down = Vec::with_capacity(4);
        self.downhill_each(i, |dir, j| down.push((dir, j)))?;
        Ok(down)
    }

    /// Calls `f(dir, j)` for each neighbour `j` of state `i` one step closer, in `U D L R`
    /// order, after checking the local consistency of the table around `i`. Returns the distance
    /// of `i`.
    #[inline]
    fn downhill_each(&self, i: u64, mut f: impl FnMut(Dir, u64)) -> Result<u8, Error> {
        let d = self.entry(i)?;
        let payload = self.payload();
        let mut closer = 0;
        let mut bad = None;
        // Unranking costs a few hundred instructions: for the dozens of steps of one query that is
        // less than building the index-only move tables (`solve_index` and `verify` use those).
        self.index.for_each_neighbor(&self.index.unrank(i), i, |dir, j| {
            let e = payload[j as usize];
            if e.wrapping_add(1) == d && e <= self.header.max_depth {
                closer += 1;
                f(dir, j);
            } else if e != d.wrapping_add(1) || e > self.header.max_depth {
                bad.get_or_insert(j);
            }
        });
        if let Some(j) = bad {
            return Err(self.inconsistent(i, j, d));
        }
        if d > 0 && closer == 0 {
            return Err(self.corrupt(i, format!("distance {d} but no neighbour at distance {}", d - 1)));
        }
        Ok(d)
    }

    /// Up to `limit` boards at distance `depth`, in index order.
    pub fn states_at(&self, depth: u8, limit: usize) -> Vec<Board> {
        self.payload()
            .iter()
            .enumerate()
            .filter(|&(_, &d)| d == depth)
            .take(limit)
            .map(|(i, _)| self.index.board(i as u64))
            .collect()
    }

    /// Checks the payload against the CRC-32 in the header.
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

    /// Proves the table is the exact distance function of its goal.
    ///
    /// After the checksum: the goal has distance 0 and no other state does; no entry is the
    /// unreached marker; every edge joins states whose distances differ by exactly one; every
    /// state but the goal has a neighbour one closer; the histogram matches the header. These
    /// imply that each entry is the true distance: following neighbours one closer reaches the goal
    /// in `d` moves, so the distance is at most `d`; and along any path to the goal the entry drops
    /// by at most one per move, so no path is shorter than `d`.
    ///
    /// # Errors
    /// [`Error::ChecksumMismatch`], or [`Error::Corrupt`] naming the first failing index.
    pub fn verify(&self) -> Result<(), Error>
    where
        D: Sync,
    {
        self.check_payload_crc()?;
        let goal = self.goal_index;
        let moves = self.index.moves();
        let block = moves.block() as u64;
        let chunks_per_block = block.div_ceil(VERIFY_CHUNK);
        let results: Vec<Result<Vec<u64>, Error>> = (0..moves.cells() as u64 * chunks_per_block)
            .into_par_iter()
            .map(|c| {
                let b = (c / chunks_per_block) as usize;
                let first = c % chunks_per_block * VERIFY_CHUNK;
                self.verify_range(moves, b, first..(first + VERIFY_CHUNK).min(block), goal)
            })
            .collect();
        let mut hist = vec![0u64; self.header.max_depth as usize + 1];
        for r in results {
            for (h, c) in hist.iter_mut().zip(r?) {
                *h += c;
            }
        }
        if hist != self.header.histogram {
            return Err(Error::CorruptHeader("the histogram does not match the payload".to_string()));
        }
        Ok(())
    }

    /// [`Table::verify`] for offsets `range` of blank block `b` (the range starts on a multiple of
    /// 64): the histogram of the range, or the first failure in it.
    fn verify_range(&self, moves: &Moves, b: usize, range: Range<u64>, goal: u64) -> Result<Vec<u64>, Error> {
        let payload = self.payload();
        let max = self.header.max_depth;
        let base = b as u64 * moves.block() as u64;
        let mut hist = vec![0u64; max as usize + 1];
        let mut low_bits = 0u64;
        for h in range {
            let i = base + h;
            let d = payload[i as usize];
            if d == UNREACHED || d > max {
                return Err(self.corrupt(i, format!("entry {d} is not a distance in this table")));
            }
            if (d == 0) != (i == goal) {
                let what = if d == 0 { "distance 0 but not the goal" } else { "the goal has a non-zero distance" };
                return Err(self.corrupt(i, what.to_string()));
            }
            hist[d as usize] += 1;
            if h % 64 == 0 {
                low_bits = moves.rank_bits(b, (h / 64) as usize);
            }
            let rank = (2 * h as u32) | ((low_bits >> (h % 64)) as u32 & 1);
            let mut closer = false;
            let mut bad = None;
            moves.for_each_ranked(b, h as u32, rank, |_, nb, nh| {
                let j = nb as u64 * moves.block() as u64 + nh as u64;
                let e = payload[j as usize];
                closer |= e.wrapping_add(1) == d;
                if e.abs_diff(d) != 1 && bad.is_none() {
                    bad = Some(j);
                }
            });
            if let Some(j) = bad {
                return Err(self.inconsistent(i, j, d));
            }
            if d > 0 && !closer {
                return Err(self.corrupt(i, format!("distance {d} but no neighbour at distance {}", d - 1)));
            }
        }
        Ok(hist)
    }

    fn check_shape(&self, board: &Board) -> Result<(), Error> {
        if board.shape() != self.header.shape {
            return Err(Error::ShapeMismatch { board: board.shape(), table: self.header.shape });
        }
        Ok(())
    }

    /// The error for neighbour `j` of state `i`, at distance `d`, whose entry is not `d ± 1`.
    /// Either of the two may be the wrong one, so both are named: `j` as the index, `i` in the
    /// detail.
    fn inconsistent(&self, i: u64, j: u64, d: u8) -> Error {
        match self.entry(j) {
            Ok(e) => self.corrupt(
                j,
                format!(
                    "distance {e} next to index {i} ({}) at distance {d}: neighbours differ by one, so one of the two entries is wrong",
                    self.index.board(i)
                ),
            ),
            Err(e) => e,
        }
    }

    fn corrupt(&self, index: u64, detail: String) -> Error {
        Error::Corrupt { index, board: self.index.board(index).to_string(), detail }
    }
}
