//! The on-disk layout of a table file, and writing one safely.
//!
//! A table file is a 4096-byte header followed by the payload, one byte per state (the state's
//! distance to the goal, indexed as in [`crate::index::rank`]). All integers are little-endian.
//!
//! | offset | size  | field                                                                  |
//! |-------:|------:|------------------------------------------------------------------------|
//! |      0 |     8 | magic bytes `SLIDETBL`                                                 |
//! |      8 |     4 | format version (`u32`, currently 1)                                    |
//! |     12 |     4 | payload offset (`u32`, 4096)                                           |
//! |     16 |     1 | rows                                                                   |
//! |     17 |     1 | columns                                                                |
//! |     18 |     1 | encoding (1: one distance byte per state, blank-block Lehmer index)    |
//! |     19 |     1 | maximum depth                                                          |
//! |     20 |    16 | goal: the tiles in row-major order, 0 for the blank, unused cells 0    |
//! |     36 |     4 | reserved, 0 (every reserved or unused byte must be 0 when read)       |
//! |     40 |     8 | entry count (`u64`, `rows*cols!/2`)                                    |
//! |     48 |     4 | CRC-32 (IEEE) of the payload                                           |
//! |     52 |     4 | CRC-32 of the header's 4096 bytes with this field zeroed               |
//! |     56 |     8 | reserved, 0                                                            |
//! |     64 |  2048 | histogram: 256 `u64`, the number of states at each depth 0..=255      |
//! |   2112 |  1984 | zero padding (a pattern table's fields, below)                         |
//! |   4096 | count | payload: distance of each state; 255 would mean "not reached" and never appears in a complete table |
//!
//! # Two-bit perfect tables
//! Encoding 5 has the same header (the histogram and maximum depth are still exact) and a
//! payload of `ceil(count / 4)` bytes: state `i`'s distance modulo 3 in bits `2 (i % 4)` and
//! `2 (i % 4) + 1` of byte `i / 4`, code 3 meaning "not reached" (never in a complete table),
//! unused bits of the last byte 0. Boards of up to 15 cells (653.8 G states, 163.5 GB for 3x5).
//! It is a new encoding rather than a new version: byte tables keep their meaning and still
//! open, and readers that predate it refuse it as an unknown encoding.
//!
//! The payload starts on a page boundary, so a memory-mapped table is aligned.
//!
//! # Pattern tables
//! A pattern table (encoding 2, see [`crate::table::pattern`]) has the same header with these
//! differences: the board may have up to 64 cells; the goal field at 20 is zero and the goal is
//! stored in the extension below; the entry count is `n!/(n-k)!` for a group of `k` tiles, one
//! entry per placement of the group ([`crate::index::pattern`]); the histogram counts entries by
//! value, and exactly one entry (the goal placement) is 0.
//!
//! | offset | size | field                                                                    |
//! |-------:|-----:|--------------------------------------------------------------------------|
//! |   2112 |    1 | `k`, the number of tiles in the group                                    |
//! |   2113 |    1 | entry width in bits (8)                                                  |
//! |   2114 |    2 | reserved, 0                                                              |
//! |   2116 |   64 | the group's tiles, ascending, then zeros                                 |
//! |   2180 |   64 | the goal: the tiles in row-major order, 0 for the blank, unused cells 0  |
//!
//! # Zero-aware pattern tables
//! Encodings 3 (a byte an entry) and 4 (a bit an entry, width field 1) hold one entry per
//! (placement, blank region) of the group, in the order of [`crate::index::zero::ZeroIndex`]; the
//! entry count is the number of such pairs, and an encoding-4 payload is `ceil(count / 8)` bytes
//! (bit `(d >> 1) & 1` of each distance `d`; see `docs/formats.md`).
//!
//! # Versioning
//! [`VERSION`] is bumped whenever the layout or the meaning of any field changes, including the
//! state index (the rank order) and the payload encoding; readers reject every version other than
//! their own, so an old table is rebuilt rather than misread. New encodings that old readers must
//! not accept also bump the version.

use std::fs::File;
use std::path::{Path, PathBuf};

use memmap2::{Mmap, MmapMut, MmapOptions};
use rayon::prelude::*;
use tempfile::NamedTempFile;

use byteorder::{ByteOrder, LittleEndian as LE};

use crate::error::Error;
use crate::index::pattern::PatternIndex;
use crate::index::rank::{FACT, MAX_TABLE_CELLS};
use crate::index::zero::ZeroIndex;
use crate::puzzle::board::{Board, Shape};

/// The first eight bytes of every table file.
pub const MAGIC: [u8; 8] = *b"SLIDETBL";
/// The format version this build reads and writes; see the module doc for when it changes.
pub const VERSION: u32 = 1;
/// The size of the header, and the payload's offset.
pub const PAYLOAD_OFFSET: usize = 4096;
/// The payload value of a state not (yet) reached; never present in a complete table.
pub const UNREACHED: u8 = 255;
/// The number of histogram slots (one per possible byte value).
pub const HISTOGRAM_LEN: usize = 256;
/// The two-bit code of a state not (yet) reached in a [`Encoding::DistanceResidue`] payload;
/// never present in a complete table (the other codes are the distance modulo 3).
pub const RESIDUE_UNREACHED: u8 = 3;

const OFF_VERSION: usize = 8;
const OFF_PAYLOAD: usize = 12;
const OFF_ROWS: usize = 16;
const OFF_COLS: usize = 17;
const OFF_ENCODING: usize = 18;
const OFF_MAX_DEPTH: usize = 19;
const OFF_GOAL: usize = 20;
const OFF_COUNT: usize = 40;
const OFF_PAYLOAD_CRC: usize = 48;
const OFF_HEADER_CRC: usize = 52;
const OFF_HISTOGRAM: usize = 64;
const OFF_GROUP_LEN: usize = 2112;
const OFF_WIDTH: usize = 2113;
const OFF_GROUP: usize = 2116;
const OFF_PATTERN_GOAL: usize = 2180;
/// The most cells of a board in a header's pattern goal field.
const PATTERN_GOAL_LEN: usize = 64;

/// How the payload stores each state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Encoding {
    /// One byte per state: its distance to the goal; states ordered by [`crate::index::rank::StateIndex`].
    DistanceByte = 1,
    /// One byte per placement of a group of tiles: the fewest moves of the group's tiles that
    /// bring them home, the other tiles indistinguishable; ordered by
    /// [`crate::index::pattern::PatternIndex`].
    PatternByte = 2,
    /// Zero-aware: one byte per (placement, blank region) of a group of tiles, the fewest moves
    /// of the group's tiles that bring them home from there; ordered by
    /// [`crate::index::zero::ZeroIndex`].
    ZeroByte = 3,
    /// Zero-aware, one bit per (placement, blank region): bit `(d >> 1) & 1` of each distance
    /// `d`, which with a neighbour's distance (always one more or one less) and the parity
    /// of the placement gives `d` back ([`crate::table::pattern`]).
    ZeroBit = 4,
    /// Two bits per state, four to a byte (state `i` in bits `2 (i % 4)` and up of byte `i / 4`):
    /// its distance modulo 3 ([`RESIDUE_UNREACHED`], 3, never appears in a complete table);
    /// states ordered by [`crate::index::rank::StateIndex`]. Neighbours differ by exactly one
    /// move, so the exact distance is the length of the walk down to the goal, each step to a
    /// neighbour whose residue is one less ([`crate::table::residue`]).
    DistanceResidue = 5,
}

impl Encoding {
    /// Whether the payload holds pattern entries (any of the pattern encodings).
    pub fn is_pattern(self) -> bool {
        !self.is_perfect()
    }

    /// Whether the payload holds a perfect table (one entry per state, bytes or residues).
    pub fn is_perfect(self) -> bool {
        matches!(self, Encoding::DistanceByte | Encoding::DistanceResidue)
    }

    /// Whether the entries are zero-aware (per blank region).
    pub fn is_zero_aware(self) -> bool {
        matches!(self, Encoding::ZeroByte | Encoding::ZeroBit)
    }

    /// Bits per entry.
    pub fn width(self) -> u8 {
        match self {
            Encoding::ZeroBit => 1,
            Encoding::DistanceResidue => 2,
            _ => 8,
        }
    }
}

/// The decoded header of a table file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The board shape.
    pub shape: Shape,
    /// The goal every distance is measured to.
    pub goal: Board,
    /// The payload encoding.
    pub encoding: Encoding,
    /// Number of payload entries: `cells!/2` for a full table, `n!/(n-k)!` for a pattern table.
    pub entries: u64,
    /// The largest distance in the table.
    pub max_depth: u8,
    /// `histogram[d]`: the number of states at distance `d`, for `d` in `0..=max_depth`.
    pub histogram: Vec<u64>,
    /// CRC-32 of the payload.
    pub payload_crc: u32,
    /// A pattern table's group of tiles, ascending; empty for a full table.
    pub group: Vec<u16>,
}

impl Header {
    /// The header's 4096 bytes, header checksum included.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = vec![0u8; PAYLOAD_OFFSET];
        b[..8].copy_from_slice(&MAGIC);
        LE::write_u32(&mut b[OFF_VERSION..], VERSION);
        LE::write_u32(&mut b[OFF_PAYLOAD..], PAYLOAD_OFFSET as u32);
        b[OFF_ROWS] = self.shape.rows() as u8;
        b[OFF_COLS] = self.shape.cols() as u8;
        b[OFF_ENCODING] = self.encoding as u8;
        b[OFF_MAX_DEPTH] = self.max_depth;
        let goal_at = if self.encoding.is_pattern() {
            b[OFF_GROUP_LEN] = self.group.len() as u8;
            b[OFF_WIDTH] = self.encoding.width();
            for (i, &t) in self.group.iter().enumerate() {
                b[OFF_GROUP + i] = t as u8;
            }
            OFF_PATTERN_GOAL
        } else {
            OFF_GOAL
        };
        for (i, &t) in self.goal.cells().iter().enumerate() {
            b[goal_at + i] = t as u8;
        }
        LE::write_u64(&mut b[OFF_COUNT..], self.entries);
        LE::write_u32(&mut b[OFF_PAYLOAD_CRC..], self.payload_crc);
        for (d, &count) in self.histogram.iter().enumerate().take(HISTOGRAM_LEN) {
            LE::write_u64(&mut b[OFF_HISTOGRAM + 8 * d..], count);
        }
        let crc = crc32fast::hash(&b);
        LE::write_u32(&mut b[OFF_HEADER_CRC..], crc);
        b
    }

    /// Decodes and checks a header from the start of a file (`file` may be the whole file).
    ///
    /// Checks, with checked arithmetic: magic, version, header checksum, shape, goal, encoding,
    /// entry count against the shape, and the histogram against the entry count and maximum depth.
    /// It does not look at the payload.
    ///
    /// # Errors
    /// [`Error::BadMagic`], [`Error::UnsupportedVersion`], [`Error::WrongLength`] when the file is
    /// shorter than a header, [`Error::CorruptHeader`] for anything inconsistent.
    pub fn parse(file: &[u8]) -> Result<Header, Error> {
        if file.len() < 8 || file[..8] != MAGIC {
            return Err(Error::BadMagic);
        }
        if file.len() < PAYLOAD_OFFSET {
            return Err(Error::WrongLength { expected: PAYLOAD_OFFSET as u64, found: file.len() as u64 });
        }
        let b = &file[..PAYLOAD_OFFSET];
        let version = LE::read_u32(&b[OFF_VERSION..]);
        if version != VERSION {
            return Err(Error::UnsupportedVersion { found: version, expected: VERSION });
        }
        let stored_crc = LE::read_u32(&b[OFF_HEADER_CRC..]);
        let mut copy = b.to_vec();
        LE::write_u32(&mut copy[OFF_HEADER_CRC..], 0);
        if crc32fast::hash(&copy) != stored_crc {
            return Err(corrupt("header checksum mismatch"));
        }
        let offset = LE::read_u32(&b[OFF_PAYLOAD..]);
        if offset as usize != PAYLOAD_OFFSET {
            return Err(corrupt(format!("payload offset {offset}, expected {PAYLOAD_OFFSET}")));
        }
        let shape = Shape::new(b[OFF_ROWS] as usize, b[OFF_COLS] as usize)
            .map_err(|_| corrupt(format!("impossible shape {}x{}", b[OFF_ROWS], b[OFF_COLS])))?;
        let n = shape.cells();
        let encoding = match b[OFF_ENCODING] {
            1 => Encoding::DistanceByte,
            2 => Encoding::PatternByte,
            3 => Encoding::ZeroByte,
            4 => Encoding::ZeroBit,
            5 => Encoding::DistanceResidue,
            e => return Err(corrupt(format!("unknown payload encoding {e}"))),
        };
        let (goal_at, limit) = match encoding {
            Encoding::DistanceByte | Encoding::DistanceResidue => (OFF_GOAL, MAX_TABLE_CELLS),
            _ => (OFF_PATTERN_GOAL, PATTERN_GOAL_LEN),
        };
        if n > limit {
            return Err(corrupt(format!("shape {shape} is larger than any table")));
        }
        let goal_cells: Vec<u16> = b[goal_at..goal_at + n].iter().map(|&t| t as u16).collect();
        let goal = Board::new(shape, goal_cells).map_err(|e| corrupt(format!("goal: {e}")))?;
        let entries = LE::read_u64(&b[OFF_COUNT..]);
        let (expected, group) = match encoding {
            Encoding::DistanceByte | Encoding::DistanceResidue => (FACT[n] / 2, Vec::new()),
            _ => {
                let k = b[OFF_GROUP_LEN] as usize;
                if b[OFF_WIDTH] != encoding.width() {
                    return Err(corrupt(format!(
                        "entry width {} bits (this encoding has {})",
                        b[OFF_WIDTH],
                        encoding.width()
                    )));
                }
                if k > PATTERN_GOAL_LEN {
                    return Err(corrupt(format!("a group of {k} tiles")));
                }
                let group: Vec<u16> = b[OFF_GROUP..OFF_GROUP + k].iter().map(|&t| t as u16).collect();
                if group.windows(2).any(|w| w[0] >= w[1]) {
                    return Err(corrupt("the group's tiles are not in ascending order"));
                }
                let len = if encoding.is_zero_aware() {
                    ZeroIndex::new(shape, &group).map_err(|e| corrupt(format!("group: {e}")))?.len()
                } else {
                    PatternIndex::new(shape, &group).map_err(|e| corrupt(format!("group: {e}")))?.len()
                };
                (len, group)
            }
        };
        if entries != expected {
            return Err(corrupt(format!("{entries} entries, but the header's table has {expected}")));
        }
        let max_depth = b[OFF_MAX_DEPTH];
        if max_depth == UNREACHED {
            return Err(corrupt("maximum depth is the unreached marker"));
        }
        let mut histogram = Vec::with_capacity(max_depth as usize + 1);
        let mut sum = 0u64;
        for d in 0..HISTOGRAM_LEN {
            let count = LE::read_u64(&b[OFF_HISTOGRAM + 8 * d..]);
            if d <= max_depth as usize {
                if count == 0 {
                    return Err(corrupt(format!("no states at depth {d}, below the maximum depth {max_depth}")));
                }
                histogram.push(count);
                sum = sum.checked_add(count).ok_or_else(|| corrupt("histogram overflows"))?;
            } else if count != 0 {
                return Err(corrupt(format!("states at depth {d}, beyond the maximum depth {max_depth}")));
            }
        }
        if sum != entries || histogram[0] != 1 {
            // both kinds have exactly one entry at 0: the goal, or the goal's placement
            return Err(corrupt(format!("histogram sums to {sum}, expected {entries} with one goal")));
        }
        // every byte the layout does not use must be zero: a future version's new field would
        // otherwise be read as if it meant nothing
        let mut zero: Vec<std::ops::Range<usize>> = vec![36..40, 56..64];
        match encoding {
            Encoding::DistanceByte | Encoding::DistanceResidue => {
                zero.extend([OFF_GOAL + n..OFF_GOAL + 16, OFF_GROUP_LEN..PAYLOAD_OFFSET])
            }
            _ => zero.extend([
                OFF_GOAL..OFF_GOAL + 16,
                OFF_WIDTH + 1..OFF_GROUP,
                OFF_GROUP + group.len()..OFF_PATTERN_GOAL,
                OFF_PATTERN_GOAL + n..PAYLOAD_OFFSET,
            ]),
        }
        for range in zero {
            let start = range.start;
            if let Some(i) = b[range].iter().position(|&x| x != 0) {
                return Err(corrupt(format!(
                    "reserved header byte {} is {:#04x}, not 0 (made by a newer version of slidetable? this one reads format {VERSION})",
                    start + i,
                    b[start + i]
                )));
            }
        }
        Ok(Header {
            shape,
            goal,
            encoding,
            entries,
            max_depth,
            histogram,
            payload_crc: LE::read_u32(&b[OFF_PAYLOAD_CRC..]),
            group,
        })
    }

    /// What the table is, in a few words: "a perfect table of 3x3 to 1 2 3 4 5 6 7 8 0" or "a
    /// pattern table of tiles 1,2,3 on 4x4 (goal ...)".
    pub fn describe(&self) -> String {
        let goal = self.goal.cells().iter().map(|t| t.to_string()).collect::<Vec<_>>().join(" ");
        match self.encoding {
            Encoding::DistanceByte => format!("a perfect table of {} to {goal}", self.shape),
            Encoding::DistanceResidue => {
                format!("a perfect table of {} to {goal} (two bits a state: distances modulo 3)", self.shape)
            }
            e => {
                let tiles = self.group.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(",");
                let kind = match e {
                    Encoding::ZeroByte => "zero-aware pattern table",
                    Encoding::ZeroBit => "zero-aware pattern table (1 bit an entry)",
                    _ => "pattern table",
                };
                format!("a {kind} of tiles {tiles} on {} (goal {goal})", self.shape)
            }
        }
    }

    /// Decodes and checks the header of a whole table file of the kind `expected`: as
    /// [`Header::parse`], then the kind and the file's exact length.
    ///
    /// # Errors
    /// Those of [`Header::parse`]; [`Error::WrongKind`] for a table of the other kind;
    /// [`Error::WrongLength`] when the file is not exactly as long as the header says.
    pub fn parse_file(file: &[u8], expected: Encoding) -> Result<Header, Error> {
        let header = Header::parse(file)?;
        // a perfect table is wanted whether it holds bytes or residues
        let perfect = expected.is_perfect() && header.encoding.is_perfect();
        if header.encoding != expected && !perfect {
            let wanted = match expected {
                Encoding::DistanceByte | Encoding::DistanceResidue => "a perfect table",
                Encoding::PatternByte => "a pattern table",
                _ => "a zero-aware pattern table",
            };
            return Err(Error::WrongKind { expected: wanted, found: header.describe() });
        }
        let len = header.file_len();
        if file.len() as u64 != len {
            return Err(Error::WrongLength { expected: len, found: file.len() as u64 });
        }
        Ok(header)
    }

    /// The exact length of the file this header describes.
    pub fn file_len(&self) -> u64 {
        PAYLOAD_OFFSET as u64 + self.payload_len()
    }

    /// The payload's length in bytes: the entries, or for 1-bit entries an eighth of them.
    pub fn payload_len(&self) -> u64 {
        match self.encoding {
            Encoding::ZeroBit => self.entries.div_ceil(8),
            Encoding::DistanceResidue => self.entries.div_ceil(4),
            _ => self.entries,
        }
    }
}

fn corrupt(msg: impl Into<String>) -> Error {
    Error::CorruptHeader(msg.into())
}

/// Writes `bytes` to `path` so that a crash never leaves a half-written file under that name:
/// through a [`PendingFile`] (a temporary file in the same directory, synced, then renamed over
/// `path`).
///
/// # Errors
/// [`Error::Io`] naming the path when the directory is not writable or the disk is full; `path`
/// is then left as it was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let mut pending = PendingFile::create(path, bytes.len() as u64)?;
    pending.bytes_mut().copy_from_slice(bytes);
    pending.commit().map(drop)
}

/// The CRC-32 (IEEE) of a payload; large payloads are checksummed in parallel pieces and the
/// pieces combined, which gives the same value as one pass.
pub fn payload_crc(bytes: &[u8]) -> u32 {
    const PIECE: usize = 8 << 20;
    if bytes.len() <= PIECE {
        return crc32fast::hash(bytes);
    }
    let pieces: Vec<crc32fast::Hasher> = bytes
        .par_chunks(PIECE)
        .map(|piece| {
            let mut h = crc32fast::Hasher::new();
            h.update(piece);
            h
        })
        .collect();
    let mut total = crc32fast::Hasher::new();
    for piece in &pieces {
        total.combine(piece);
    }
    total.finalize()
}

/// A table file being written in place: a temporary file beside its final name, allocated on
/// disk up front and memory-mapped, so a build fills the file directly and the table is never
/// held twice. [`PendingFile::commit`] syncs it and renames it over the final name; dropped
/// without a commit (a failed build, a panic), the temporary file is deleted and whatever was
/// at the final name stays as it was.
#[derive(Debug)]
pub struct PendingFile {
    file: Pending,
    map: MmapMut,
    path: PathBuf,
}

/// The file behind a [`PendingFile`].
#[derive(Debug)]
enum Pending {
    /// Linux: a file with no name yet in the final name's directory (`O_TMPFILE`). If the process
    /// dies before the commit names it (Ctrl-C during a build), the kernel frees it: nothing is
    /// left behind.
    #[cfg(target_os = "linux")]
    Unnamed { file: File, dir: PathBuf },
    /// Elsewhere, or on a file system without `O_TMPFILE`: a named temporary file, removed when
    /// dropped (but left behind if the process is killed).
    Named(NamedTempFile),
}

impl Pending {
    fn file(&self) -> &File {
        match self {
            #[cfg(target_os = "linux")]
            Pending::Unnamed { file, .. } => file,
            Pending::Named(tmp) => tmp.as_file(),
        }
    }

    /// A path to name in errors.
    fn describe(&self) -> PathBuf {
        match self {
            #[cfg(target_os = "linux")]
            Pending::Unnamed { dir, .. } => dir.join("(new table)"),
            Pending::Named(tmp) => tmp.path().to_path_buf(),
        }
    }
}

impl PendingFile {
    /// Creates the temporary file for a table file of `len` bytes to be named `path`.
    ///
    /// # Errors
    /// [`Error::Io`] when `path` is a directory, its directory is missing or not writable, or the
    /// disk has no room for `len` bytes (checked now, before any work, where the platform can).
    ///
    /// A symbolic link is followed: the file it names is the one replaced. A name that is not a
    /// regular file (a device such as `/dev/null`, a pipe, a socket) is refused: the table would
    /// be renamed over it.
    pub fn create(path: &Path, len: u64) -> Result<PendingFile, Error> {
        let resolved = final_name(path)?;
        let path = resolved.as_path();
        let file = match unnamed_beside(path) {
            Some(file) => file,
            None => Pending::Named(temp_beside(path)?),
        };
        allocate(file.file(), len).map_err(|e| Error::io("allocating", path, explain_allocation(e, len)))?;
        let map = map_mut(file.file()).map_err(|e| {
            if e.raw_os_error() == Some(libc::ENOMEM) {
                // the machine's memory is not what is short: a mapping needs address space only
                Error::MemoryRefused {
                    what: format!("mapping the new table {} to fill it", path.display()),
                    bytes: len,
                    available: crate::solver::available_memory().unwrap_or(0),
                    hint: String::new(),
                }
            } else {
                Error::io("memory-mapping the new table", path, e)
            }
        })?;
        Ok(PendingFile { file, map, path: path.to_path_buf() })
    }

    /// The file's bytes, all zero to begin with.
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.map
    }

    /// Writes `bytes` at `offset` of the file through the file rather than the mapping: the
    /// pages do not come into this process's memory (a two-bit table built in anonymous memory
    /// is not held twice). On Linux, when `bytes` and `offset` start on a page boundary and
    /// `bytes` is a megabyte or more, its whole pages go straight to the disk (`O_DIRECT`),
    /// past the page cache: the 2x7's 10.9 GB at the disk's speed, without the cache's copy and
    /// its write-back throttling (a `dd` here: 4.3 GB in 3.4 s direct, 11.0 s buffered and
    /// synced). The rest, and everything where the file system refuses `O_DIRECT`, goes through
    /// the page cache.
    ///
    /// # Errors
    /// [`Error::Io`]; the final name is then left as it was (the file is dropped uncommitted).
    pub fn write_at(&mut self, offset: u64, bytes: &[u8]) -> Result<(), Error> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileExt;
            #[cfg(target_os = "linux")]
            let (offset, bytes) = {
                let done = self.write_direct(offset, bytes);
                (offset + done as u64, &bytes[done..])
            };
            let at = self.file.describe();
            self.file.file().write_all_at(bytes, offset).map_err(|e| Error::io("writing", &at, e))
        }
        #[cfg(not(unix))]
        {
            let start = offset as usize;
            self.map[start..start + bytes.len()].copy_from_slice(bytes);
            Ok(())
        }
    }

    /// Writes what it can of `bytes` at `offset` with `O_DIRECT` (whole pages from a page
    /// boundary, in pieces of 64 MiB), through a second descriptor of the same file; returns how
    /// many bytes it wrote from the start, 0 when `bytes` is under a megabyte or not aligned, or
    /// when the file system refuses (tmpfs): [`PendingFile::write_at`] writes the rest, so an
    /// error here is met again there and reported.
    #[cfg(target_os = "linux")]
    fn write_direct(&self, offset: u64, bytes: &[u8]) -> usize {
        use std::os::unix::fs::{FileExt, OpenOptionsExt};
        use std::os::unix::io::AsRawFd;
        const PIECE: usize = 64 << 20;
        let whole = bytes.len() / PAGE * PAGE;
        if whole < 1 << 20 || !offset.is_multiple_of(PAGE as u64) || !(bytes.as_ptr() as usize).is_multiple_of(PAGE) {
            return 0;
        }
        // the unnamed file has a name in /proc only; the same path serves the named one
        let fd = format!("/proc/self/fd/{}", self.file.file().as_raw_fd());
        let Ok(direct) = std::fs::OpenOptions::new().write(true).custom_flags(libc::O_DIRECT).open(fd) else {
            return 0;
        };
        let mut done = 0;
        while done < whole {
            let piece = &bytes[done..whole.min(done + PIECE)];
            match direct.write_at(piece, offset + done as u64) {
                Ok(n) if n > 0 => done += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                _ => break,
            }
            if !done.is_multiple_of(PAGE) {
                break;
            }
        }
        done
    }

    /// Syncs the file to disk and renames it to its final name; returns it mapped read-only.
    ///
    /// # Errors
    /// [`Error::Io`]; the final name is then left as it was.
    pub fn commit(self) -> Result<Mmap, Error> {
        let PendingFile { file, map, path } = self;
        let at = file.describe();
        // On Linux fsync writes back pages dirtied through a shared mapping as well (msync with
        // MS_SYNC is the same call there); elsewhere the mapping is flushed first.
        #[cfg(not(target_os = "linux"))]
        map.flush().map_err(|e| Error::io("writing", &at, e))?;
        file.file().sync_all().map_err(|e| Error::io("writing", &at, e))?;
        // The data is on disk before the rename, so the final name only ever holds a complete
        // table: after a crash, the old table or the new one. The directory is not synced (that
        // would only make the new name survive a crash, for milliseconds per build).
        match file {
            #[cfg(target_os = "linux")]
            Pending::Unnamed { file, dir } => name_unnamed(&file, &dir, &path)?,
            Pending::Named(tmp) => {
                tmp.persist(&path).map_err(|e| Error::io("renaming the new file to", &path, e.error))?;
            }
        }
        map.make_read_only().map_err(|e| Error::io("memory-mapping", &path, e))
    }
}

/// The file a table named `path` is to be written to: `path`, or the file its symbolic link
/// names (made there when it is not there yet: the link is kept).
///
/// # Errors
/// [`Error::Io`] when `path` is a directory, a link in a loop or to another link to nothing, or
/// not a regular file (a device such as `/dev/null`, a pipe, a socket: the table would be
/// renamed over it).
pub fn final_name(path: &Path) -> Result<PathBuf, Error> {
    if path.is_dir() {
        return Err(Error::io("writing", path, std::io::Error::other("it is a directory")));
    }
    let path = follow_link(path).map_err(|e| Error::io("writing", path, e))?;
    if let Ok(m) = std::fs::metadata(&path) {
        if !m.is_file() {
            let why = "not a regular file (a device, a pipe or a socket): a table is written beside its name and \
                           renamed over it; give a file name";
            return Err(Error::io("writing", &path, std::io::Error::other(why)));
        }
    }
    Ok(path)
}

/// `path`, or the file its symbolic link names, which need not be there yet (a link to a file
/// on another disk, say, made before the file: the file is written there).
///
/// # Errors
/// When the link leads to a loop, or to another link to nothing.
pub(crate) fn follow_link(path: &Path) -> std::io::Result<PathBuf> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => match std::fs::canonicalize(path) {
            Ok(target) => Ok(target),
            Err(e) => {
                // a link to nothing: the file it names (a relative name is in the link's directory)
                let target = parent_dir(path).join(std::fs::read_link(path)?);
                match std::fs::symlink_metadata(&target) {
                    Err(missing) if missing.kind() == std::io::ErrorKind::NotFound => Ok(target),
                    _ => Err(std::io::Error::other(format!("a symbolic link that leads nowhere ({e})"))),
                }
            }
        },
        _ => Ok(path.to_path_buf()),
    }
}

/// The page size that `O_DIRECT` writes align to ([`PendingFile::write_at`]).
pub(crate) const PAGE: usize = 4096;

/// The directory a file named `path` goes in.
pub(crate) fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// An unnamed file in the directory of `path`, or `None` where that cannot be had (then a named
/// temporary file is used, which also reports any real error such as a missing directory).
#[cfg(target_os = "linux")]
fn unnamed_beside(path: &Path) -> Option<Pending> {
    use std::os::unix::fs::OpenOptionsExt;
    // naming it at the end goes through /proc/self/fd
    if !Path::new("/proc/self/fd").is_dir() {
        return None;
    }
    let dir = parent_dir(path);
    let file =
        std::fs::OpenOptions::new().read(true).write(true).mode(0o666).custom_flags(libc::O_TMPFILE).open(dir).ok()?;
    Some(Pending::Unnamed { file, dir: dir.to_path_buf() })
}

#[cfg(not(target_os = "linux"))]
fn unnamed_beside(_path: &Path) -> Option<Pending> {
    None
}

/// Gives an unnamed file the name `path`, replacing any file there: a hard link under a fresh
/// temporary name in `dir` (a link cannot replace a file), then a rename over `path`.
#[cfg(target_os = "linux")]
fn name_unnamed(file: &File, dir: &Path, path: &Path) -> Result<(), Error> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::io::AsRawFd;
    let source = CString::new(format!("/proc/self/fd/{}", file.as_raw_fd())).expect("no NUL in a number");
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    let mut attempt = 0u32;
    loop {
        let name = dir.join(format!(".slidetable-{}-{nanos:x}-{attempt}.tmp", std::process::id()));
        let target = CString::new(name.as_os_str().as_bytes())
            .map_err(|_| Error::io("naming the new file", path, std::io::Error::other("the path holds a NUL byte")))?;
        // SAFETY: both paths are valid NUL-terminated strings that outlive the call; linkat only
        // reads them.
        let linked = unsafe {
            libc::linkat(libc::AT_FDCWD, source.as_ptr(), libc::AT_FDCWD, target.as_ptr(), libc::AT_SYMLINK_FOLLOW)
        };
        if linked != 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 {
                attempt += 1;
                continue;
            }
            return Err(Error::io("naming the new file", &name, e));
        }
        return std::fs::rename(&name, path).map_err(|e| {
            let _ = std::fs::remove_file(&name);
            Error::io("renaming the new file to", path, e)
        });
    }
}

/// A temporary file in the directory of `path`, removed when dropped.
fn temp_beside(path: &Path) -> Result<NamedTempFile, Error> {
    let dir = parent_dir(path);
    let mut builder = tempfile::Builder::new();
    builder.prefix(".slidetable-").suffix(".tmp");
    // a table is an ordinary file once renamed: 0666 less the umask, as `create` would give, not
    // the owner-only 0600 of a temporary file
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    builder.tempfile_in(dir).map_err(|e| Error::io("creating a file in", dir, e))
}

/// Gives `file` a length of `len` bytes with its blocks allocated, so a full disk is an error now
/// rather than a fault when the mapped pages are first written.
#[cfg(unix)]
pub(crate) fn allocate(file: &File, len: u64) -> std::io::Result<()> {
    use std::os::unix::io::AsRawFd;
    let len = libc::off_t::try_from(len).map_err(|_| std::io::Error::other("file too large"))?;
    // SAFETY: posix_fallocate only reads its integer arguments; the descriptor is open for
    // writing and owned by `file` for the duration of the call.
    match unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, len) } {
        0 => Ok(()),
        // file systems without fallocate support: fall back to a sparse file
        libc::EOPNOTSUPP | libc::EINVAL => file.set_len(len as u64),
        e => Err(std::io::Error::from_raw_os_error(e)),
    }
}

/// The allocation's error, with what it means for a user: how many bytes the file needs, and
/// which limit it met.
pub(crate) fn explain_allocation(e: std::io::Error, len: u64) -> std::io::Error {
    let need = format!("the file needs {len} bytes");
    let why = match e.raw_os_error() {
        #[cfg(unix)]
        Some(libc::ENOSPC) => format!("{e}: {need}, more than the disk has free"),
        #[cfg(unix)]
        Some(libc::EFBIG) => format!("{e}: {need}, more than the file-size limit allows (see `ulimit -f`)"),
        #[cfg(unix)]
        Some(libc::EDQUOT) => format!("{e}: {need}, more than the disk quota allows"),
        _ => return e,
    };
    std::io::Error::new(e.kind(), why)
}

#[cfg(not(unix))]
pub(crate) fn allocate(file: &File, len: u64) -> std::io::Result<()> {
    file.set_len(len)
}

/// Maps a file read-write. Not populated up front: the search's first pass writes every byte,
/// and faulting the pages in there (on both threads) is one fault per page instead of two.
fn map_mut(file: &File) -> std::io::Result<MmapMut> {
    // SAFETY: the file is our own fresh temporary file, which nothing else opens or changes while
    // it is mapped (its name is random and it is renamed into place only after the last write).
    unsafe { MmapOptions::new().map_mut(file) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A payload written past the page cache where it can be (whole pages from a page boundary)
    /// and through it elsewhere: the file holds the same bytes either way, from any start.
    #[test]
    fn write_at_gives_the_same_file_aligned_or_not() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let len = (3 << 20) + 1234;
        let mut buffer: Vec<u8> = (0..len + 2 * 4096).map(|i| (i * 7 + i / 4099) as u8).collect();
        let aligned = (4096 - buffer.as_ptr() as usize % 4096) % 4096;
        for start in [aligned, aligned + 1] {
            let bytes = &mut buffer[start..start + len];
            bytes[..8].copy_from_slice(&(start as u64).to_le_bytes());
            let path = dir.path().join(format!("t{start}"));
            let mut pending = PendingFile::create(&path, (PAYLOAD_OFFSET + len) as u64).expect("created");
            #[cfg(target_os = "linux")]
            {
                // whole pages or nothing (nothing on a file system without O_DIRECT, or unaligned)
                let done = pending.write_direct(PAYLOAD_OFFSET as u64, bytes);
                assert!(done == 0 || done == len / 4096 * 4096, "{done} bytes written direct");
                if start != aligned {
                    assert_eq!(done, 0, "an unaligned buffer is not written direct");
                }
            }
            pending.write_at(0, b"head").expect("written");
            pending.write_at(PAYLOAD_OFFSET as u64, bytes).expect("written");
            drop(pending.commit().expect("committed"));
            let file = std::fs::read(&path).expect("read back");
            assert_eq!(file.len(), PAYLOAD_OFFSET + len);
            assert_eq!(&file[..4], b"head");
            assert!(file[4..PAYLOAD_OFFSET].iter().all(|&b| b == 0));
            assert!(file[PAYLOAD_OFFSET..] == *bytes, "the payload from offset {start} differs");
        }
    }
}
