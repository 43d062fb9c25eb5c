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
use crate::puzzle::board::{Board, Dir, Shape};
use crate::table::bfs::{self, Progress};
use crate::table::format::{
    payload_crc, write_atomic, Encoding, Header, PendingFile, PAYLOAD_OFFSET, RESIDUE_UNREACHED, UNREACHED,
};
use crate::table::residue;

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

/// How a perfect table stores each state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// One byte: the distance itself ([`Encoding::DistanceByte`]).
    Byte,
    /// Two bits: the distance modulo 3 ([`Encoding::DistanceResidue`]), a quarter of the memory;
    /// a distance is then a walk down to the goal.
    TwoBit,
}

impl Width {
    /// The width a table of `shape` is built with when none is asked for: a byte up to 12 cells
    /// ([`crate::index::rank::MAX_BYTE_TABLE_CELLS`]), two bits past them (2x7, 7x2).
    pub fn default_for(shape: Shape) -> Width {
        if shape.cells() <= crate::index::rank::MAX_BYTE_TABLE_CELLS {
            Width::Byte
        } else {
            Width::TwoBit
        }
    }

    /// The payload encoding of this width.
    pub fn encoding(self) -> Encoding {
        match self {
            Width::Byte => Encoding::DistanceByte,
            Width::TwoBit => Encoding::DistanceResidue,
        }
    }
}

/// The memory a build of the table of `shape` at `width` takes at its peak, in bytes: the
/// payload, and for two bits the frontier bitmap ([`residue::build_memory`]); for a byte, the
/// payload and the move tables.
pub fn build_memory(shape: Shape, width: Width) -> u64 {
    let n = shape.cells();
    let states = crate::index::rank::FACT[n.min(20)] / 2;
    match width {
        Width::Byte => states + residue::build_memory(states, n) - residue::payload_len(states) - states / 8,
        Width::TwoBit => residue::build_memory(states, n),
    }
}

/// Refuses, before any work, a build that would not fit in `available` bytes (the memory this
/// process may use: see [`crate::solver::available_memory`]); `None` means unknown, and lets it
/// go ahead.
///
/// # Errors
/// [`Error::NotEnoughMemory`], naming what the build needs; [`Error::TableTooLarge`].
pub fn check_build_memory(shape: Shape, width: Width, available: Option<u64>) -> Result<(), Error> {
    if shape.cells() > crate::index::rank::MAX_TABLE_CELLS {
        return Err(Error::TableTooLarge { shape, cells: shape.cells() });
    }
    let needed = build_memory(shape, width);
    match available {
        Some(available) if needed > available => {
            let hint = if width == Width::Byte && build_memory(shape, Width::TwoBit) <= available {
                "; build it at two bits a state (`--bits 2`)".to_string()
            } else {
                String::new()
            };
            let bits = if width == Width::Byte { "a byte" } else { "two bits" };
            Err(Error::NotEnoughMemory {
                what: format!("building the {shape} table at {bits} a state"),
                needed,
                available,
                hint,
            })
        }
        _ => Ok(()),
    }
}

/// Builds the table for `goal` in memory: the goal's shape, every state reachable from it, at
/// the width [`Width::default_for`] its shape.
///
/// `progress` is called after each BFS level.
///
/// # Errors
/// [`Error::TableTooLarge`] for boards of more than 15 cells; [`Error::NotEnoughMemory`] when the
/// system will not give the table's memory.
pub fn build(goal: &Board, progress: impl FnMut(&Progress)) -> Result<Table<Vec<u8>>, Error> {
    build_until(goal, progress, &AtomicBool::new(false))
}

/// As [`build`], stopping with [`Error::BuildCancelled`] after the first level at which `stop`
/// is set (a front end's Ctrl-C, or its progress callback's failure).
///
/// # Errors
/// Those of [`build`], and [`Error::BuildCancelled`].
pub fn build_until(goal: &Board, progress: impl FnMut(&Progress), stop: &AtomicBool) -> Result<Table<Vec<u8>>, Error> {
    build_with(goal, Width::default_for(goal.shape()), progress, stop)
}

/// As [`build_until`], at the width asked for.
///
/// # Errors
/// Those of [`build_until`].
pub fn build_with(
    goal: &Board,
    width: Width,
    mut progress: impl FnMut(&Progress),
    stop: &AtomicBool,
) -> Result<Table<Vec<u8>>, Error> {
    build_with_dyn(goal, width, &mut progress, stop)
}

// the body compiled once, whatever the caller's closure
fn build_with_dyn(
    goal: &Board,
    width: Width,
    progress: &mut dyn FnMut(&Progress),
    stop: &AtomicBool,
) -> Result<Table<Vec<u8>>, Error> {
    let index = StateIndex::new(goal)?;
    let len = match width {
        Width::Byte => index.len(),
        Width::TwoBit => residue::payload_len(index.len()),
    };
    let total = PAYLOAD_OFFSET + len as usize;
    // asked for first, so that a table past what the system will give is an error, not an abort
    // (the 3x5's 163.5 GB on a machine of 24 GiB)
    if Vec::<u8>::new().try_reserve_exact(total).is_err() {
        let what = format!("building the {} table in memory", index.shape());
        let needed = build_memory(index.shape(), width);
        let hint = "; `table build` (or `slidetable.dask.build_table`) builds it into a file, out of core".to_string();
        return Err(match crate::solver::available_memory() {
            // the machine has the room: something else (a ulimit, a container) said no
            Some(available) if needed <= available => {
                Error::MemoryRefused { what, bytes: total as u64, available, hint }
            }
            available => Error::NotEnoughMemory { what, needed, available: available.unwrap_or(0), hint },
        });
    }
    let mut data = vec![0u8; total];
    let (head, payload) = data.split_at_mut(PAYLOAD_OFFSET);
    let header = fill(&index, width, payload, progress, stop)?;
    head.copy_from_slice(&header.to_bytes());
    Table::from_parts(data, index)
}

/// Builds the table for `goal` straight into the file `path`, which it replaces atomically, and
/// returns it memory-mapped; at the width [`Width::default_for`] its shape.
///
/// The file is allocated on disk first (so a full disk fails before the search) and filled in
/// place through a memory map, so the table is held once: peak memory is the table plus a few
/// megabytes. Until the final rename, an existing file at `path` is untouched; a failed or
/// interrupted build leaves it as it was.
///
/// # Errors
/// [`Error::TableTooLarge`] for boards of more than 15 cells; [`Error::Io`] when the file cannot
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
    build_file_with(goal, path, Width::default_for(goal.shape()), None, progress, stop)
}

/// As [`build_file_until`], at the width asked for, refused first with
/// [`Error::NotEnoughMemory`] when `available` (bytes; see [`check_build_memory`]) is less than
/// the build needs.
///
/// A byte table is filled in place through a memory map of the file. A two-bit table is filled
/// in anonymous memory (advised for huge pages: its accesses are random) beside its frontier
/// bitmap, then written to the temporary file, synced and renamed: written through a shared
/// mapping, the kernel would write its pages back to disk again and again during the search.
///
/// # Errors
/// Those of [`build_file_until`], and [`Error::NotEnoughMemory`].
pub fn build_file_with(
    goal: &Board,
    path: &Path,
    width: Width,
    available: Option<u64>,
    mut progress: impl FnMut(&Progress),
    stop: &AtomicBool,
) -> Result<Table<Mmap>, Error> {
    build_file_with_dyn(goal, path, width, available, &mut progress, stop)
}

// the body compiled once, whatever the caller's closure
fn build_file_with_dyn(
    goal: &Board,
    path: &Path,
    width: Width,
    available: Option<u64>,
    progress: &mut dyn FnMut(&Progress),
    stop: &AtomicBool,
) -> Result<Table<Mmap>, Error> {
    check_build_memory(goal.shape(), width, available)?;
    let index = StateIndex::new(goal)?;
    let map = match width {
        Width::Byte => {
            let mut pending = PendingFile::create(path, PAYLOAD_OFFSET as u64 + index.len())?;
            let (head, payload) = pending.bytes_mut().split_at_mut(PAYLOAD_OFFSET);
            let header = fill(&index, width, payload, progress, stop)?;
            head.copy_from_slice(&header.to_bytes());
            pending.commit()?
        }
        Width::TwoBit => {
            let len = residue::payload_len(index.len()) as usize;
            let mut pending = PendingFile::create(path, PAYLOAD_OFFSET as u64 + len as u64)?;
            // zeroed pages from the kernel, taken as the search first writes them. Small pages:
            // the search goes through the codes in order, and huge ones cost the kernel a
            // compaction when memory is fragmented (a 10.9 GB first touch here: 20.0 s with
            // huge pages, 6.2 s without). The payload starts on a page boundary, so that it
            // goes to the disk past the page cache (`PendingFile::write_at`).
            use crate::table::format::PAGE;
            let mut buffer = vec![0u8; len + PAGE];
            let start = (PAGE - buffer.as_ptr() as usize % PAGE) % PAGE;
            let payload = &mut buffer[start..start + len];
            let header = fill(&index, width, payload, progress, stop)?;
            pending.write_at(0, &header.to_bytes())?;
            pending.write_at(PAYLOAD_OFFSET as u64, payload)?;
            drop(buffer);
            pending.commit()?
        }
    };
    Table::from_parts(map, index)
}

/// Where a build of [`build_file_planned`] ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Executed {
    /// In memory, the table and its frontier in RAM.
    InMemory,
    /// Out of core, in the work directory `work_dir` (removed when done).
    #[cfg(unix)]
    OutOfCore {
        /// The work directory.
        work_dir: std::path::PathBuf,
        /// The depth it resumed after, when it found a build of the same table there.
        resumed: Option<u32>,
        /// The work files' traffic.
        disk: crate::table::disk::DiskIo,
    },
}

/// The default work directory of an out-of-core build of the table `path`: `path` with `.work`
/// added (`2x7-blank-last.table.work`).
pub fn default_work_dir(path: &Path) -> std::path::PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".work");
    std::path::PathBuf::from(name)
}

/// The bytes free on the file system of `dir` (or of its nearest existing parent), for the
/// user of this process; `SLIDETABLE_AVAILABLE_DISK` (bytes) overrides it, for tests.
pub fn available_disk(dir: &Path) -> Option<u64> {
    if let Some(v) = std::env::var_os("SLIDETABLE_AVAILABLE_DISK") {
        if let Some(bytes) = v.to_str().and_then(|t| t.trim().parse::<u64>().ok()) {
            return Some(bytes);
        }
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let absolute = std::path::absolute(dir).ok()?;
        let existing = absolute.ancestors().find(|p| p.exists())?;
        let name = std::ffi::CString::new(existing.as_os_str().as_bytes()).ok()?;
        // SAFETY: statvfs writes only into the struct it is given, which is zeroed and ours; the
        // path is a valid NUL-terminated string for the duration of the call.
        let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
        // SAFETY: as above.
        if unsafe { libc::statvfs(name.as_ptr(), &mut st) } != 0 {
            return None;
        }
        Some(st.f_bavail as u64 * st.f_frsize as u64)
    }
    #[cfg(not(unix))]
    None
}

/// Builds the table for `goal` into the file `path`, in memory when it fits in `memory` bytes
/// (`None`: no limit), and otherwise, at two bits a state, out of core: blocks in files in
/// `work_dir` (default [`default_work_dir`]), resuming a build of the same table left there
/// ([`crate::table::disk`]). `width` defaults to [`Width::default_for`] the shape. The file is
/// replaced atomically, as by [`build_file_with`]; an interrupted out-of-core build keeps its
/// work directory for the next run.
///
/// `events` hears the levels ([`crate::table::disk::Event::Level`], from both executors) and the
/// out-of-core build's other news.
///
/// # Errors
/// Those of [`build_file_with`]; [`Error::NotEnoughMemory`] when neither executor fits in
/// `memory`; [`Error::NotEnoughDisk`] when the work files would not fit on their disk;
/// [`Error::Checkpoint`] for a work directory of another table or with a damaged file;
/// [`Error::BuildInterrupted`] when `stop` was set during an out-of-core build.
#[cfg(unix)]
pub fn build_file_planned(
    goal: &Board,
    path: &Path,
    width: Option<Width>,
    memory: Option<u64>,
    work_dir: Option<&Path>,
    mut events: impl FnMut(crate::table::disk::Event),
    stop: &AtomicBool,
) -> Result<(Table<Mmap>, Executed), Error> {
    let options = BuildOptions { width, memory, work_dir, max_depth: None };
    match build_file_staged_dyn(goal, path, &options, &mut events, stop)? {
        Staged::Built(table, executed) => Ok((*table, executed)),
        Staged::Stopped { .. } => unreachable!("a build with no last depth goes to the end"),
    }
}

/// How [`build_file_staged`] builds: [`build_file_planned`]'s choices, and where to stop.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuildOptions<'a> {
    /// The width; default [`Width::default_for`] the shape (two bits with `max_depth`, or when
    /// the work directory holds a build to resume).
    pub width: Option<Width>,
    /// The memory the build may use (`None`: no limit).
    pub memory: Option<u64>,
    /// The out-of-core build's work directory; default [`default_work_dir`].
    pub work_dir: Option<&'a Path>,
    /// The last depth to search: the build goes out of core (two bits) and stops there,
    /// resumable by a later build ([`crate::table::disk`], "Stopping at a depth").
    pub max_depth: Option<u32>,
}

/// How [`build_file_staged`] ended.
#[derive(Debug)]
pub enum Staged {
    /// The table is written, and where it was built.
    Built(Box<Table<Mmap>>, Executed),
    /// The search stopped at its last depth; `work_dir` holds it, for a later build to go on.
    #[cfg(unix)]
    Stopped {
        /// The distribution so far, and the build's traffic.
        partial: crate::table::disk::Partial,
        /// The work directory.
        work_dir: std::path::PathBuf,
    },
}

/// [`build_file_planned`] with its choices in `options`, which may name a last depth: the
/// search then runs out of core and stops there ([`Staged::Stopped`]; no table is written and
/// any file at `path` stays as it was), unless it reaches every state by then. A work
/// directory that holds a build of the same table is gone on with, from its last depth, to
/// `max_depth` or to the end.
///
/// # Errors
/// Those of [`build_file_planned`]; [`Error::BadOption`] for a last depth with a byte table or
/// a board too small to be built out of core.
#[cfg(unix)]
pub fn build_file_staged(
    goal: &Board,
    path: &Path,
    options: &BuildOptions,
    mut events: impl FnMut(crate::table::disk::Event),
    stop: &AtomicBool,
) -> Result<Staged, Error> {
    build_file_staged_dyn(goal, path, options, &mut events, stop)
}

// the body compiled once, whatever the caller's closure
#[cfg(unix)]
fn build_file_staged_dyn(
    goal: &Board,
    path: &Path,
    options: &BuildOptions,
    events: &mut dyn FnMut(crate::table::disk::Event),
    stop: &AtomicBool,
) -> Result<Staged, Error> {
    use crate::table::disk::{self, DiskIo, Event};
    let BuildOptions { width, memory, work_dir, max_depth } = *options;
    let shape = goal.shape();
    let dir = work_dir.map(Path::to_path_buf).unwrap_or_else(|| default_work_dir(path));
    if std::path::absolute(&dir).ok() == std::path::absolute(path).ok() {
        return Err(Error::BadOption(format!(
            "the work directory and the table are both {}: name another work directory (--work-dir)",
            path.display()
        )));
    }
    // a build stopped or killed goes on where it was, whatever the memory now
    let supported = StateIndex::new(goal).is_ok_and(|index| disk::supported(&index));
    let resumable = supported && dir.join("build.plan").exists();
    if max_depth.is_some() {
        if width == Some(Width::Byte) {
            return Err(Error::BadOption(
                "a build that stops at a depth is built out of core, at two bits a state: leave out --bits 8".into(),
            ));
        }
        if shape.cells() <= crate::index::rank::MAX_TABLE_CELLS && !supported {
            return Err(Error::BadOption(format!(
                "{shape} is too small to be built out of core, which a build that stops at a depth is: leave out \
                 --max-depth"
            )));
        }
    }
    let width =
        width.unwrap_or(if max_depth.is_some() || resumable { Width::TwoBit } else { Width::default_for(shape) });
    match (check_build_memory(shape, width, memory), width) {
        (Err(e @ Error::TableTooLarge { .. }), _) => return Err(e),
        (_, Width::TwoBit) if resumable || max_depth.is_some() => {
            return build_out_of_core(goal, path, memory, max_depth, dir, events, stop)
        }
        (Ok(()), _) => {}
        // a byte table is built in memory only: say when two bits would go out of core
        (Err(e), Width::Byte) => {
            let states = crate::index::rank::FACT[shape.cells().min(20)] / 2;
            let core = disk::memory(states, shape.cells(), 0);
            return Err(match e {
                Error::NotEnoughMemory { what, needed, available, hint } if hint.is_empty() && core <= available => {
                    let hint = "; at two bits a state (`--bits 2`) it is built out of core, in files".to_string();
                    Error::NotEnoughMemory { what, needed, available, hint }
                }
                e => e,
            });
        }
        (Err(_), Width::TwoBit) => return build_out_of_core(goal, path, memory, None, dir, events, stop),
    }
    let table = build_file_with(
        goal,
        path,
        width,
        memory,
        |p| events(Event::Level { progress: p, disk: DiskIo::default() }),
        stop,
    )?;
    Ok(Staged::Built(Box::new(table), Executed::InMemory))
}

/// [`build_file_staged`] out of core.
#[cfg(unix)]
fn build_out_of_core(
    goal: &Board,
    path: &Path,
    memory: Option<u64>,
    max_depth: Option<u32>,
    dir: std::path::PathBuf,
    events: &mut dyn FnMut(crate::table::disk::Event),
    stop: &AtomicBool,
) -> Result<Staged, Error> {
    use crate::table::disk;
    let shape = goal.shape();
    let index = StateIndex::new(goal)?;
    let states = index.len();
    let budget = memory.unwrap_or(u64::MAX);
    let target = crate::table::format::final_name(path)?;
    // the table's directory must be there now, as for a build in memory, not found missing at
    // the end (the work directory, created with its parents, would otherwise hide it)
    if !crate::table::format::parent_dir(&target).is_dir() {
        let e = std::io::Error::new(std::io::ErrorKind::NotFound, "its directory does not exist");
        return Err(Error::io("writing", &target, e));
    }
    // a table put on another file system is copied there at the end: its room is checked now
    let table_bytes = PAYLOAD_OFFSET as u64 + residue::payload_len(states);
    let to_the_end = max_depth.is_none();
    if let Some(free) = (to_the_end && other_file_system(&dir, &target)).then(|| available_disk(&target)).flatten() {
        if free < table_bytes {
            return Err(Error::NotEnoughDisk {
                what: format!("writing the {shape} table"),
                path: target.parent().map(Path::to_path_buf).unwrap_or_default(),
                needed: table_bytes,
                available: free,
                hint: " (the work directory is on another disk, so the table is copied there at the end)".into(),
            });
        }
    }
    let needed = disk::memory(states, shape.cells(), 0);
    if needed > budget {
        return Err(disk::not_enough_memory(&index, needed, budget));
    }
    // the work files' disk is checked when the build starts (`disk::Driver::open`)
    let built = disk::build(&index, &dir, budget, max_depth, events, stop).map_err(|e| match e {
        Error::BuildCancelled { depth } => Error::BuildInterrupted { depth, dir: dir.clone() },
        e => e,
    })?;
    let built = match built {
        disk::Outcome::Built(built) => built,
        disk::Outcome::Partial(partial) => return Ok(Staged::Stopped { partial, work_dir: dir }),
    };
    disk::install(&built.path, &target)?;
    disk::clean(&dir);
    let table = open(&target)?;
    Ok(Staged::Built(Box::new(table), Executed::OutOfCore { work_dir: dir, resumed: built.resumed, disk: built.disk }))
}

/// Whether `file`'s directory and `dir` (or the nearest of their ancestors that exist) are on
/// different file systems.
#[cfg(unix)]
fn other_file_system(dir: &Path, file: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let device = |p: &Path| {
        let absolute = std::path::absolute(p).ok()?;
        absolute.ancestors().find_map(|a| std::fs::metadata(a).ok()).map(|m| m.dev())
    };
    let parent = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    matches!((device(dir), device(parent)), (Some(a), Some(b)) if a != b)
}

/// Fills a payload by the search of `width`, and returns the header that describes it.
fn fill(
    index: &StateIndex,
    width: Width,
    payload: &mut [u8],
    progress: impl FnMut(&Progress),
    stop: &AtomicBool,
) -> Result<Header, Error> {
    let histogram = match width {
        Width::Byte => bfs::fill_until(index, payload, progress, stop)?,
        Width::TwoBit => residue::fill_until(index, payload, progress, stop)?,
    };
    Ok(Header {
        shape: index.shape(),
        goal: index.goal().clone(),
        encoding: width.encoding(),
        entries: index.len(),
        max_depth: (histogram.len() - 1) as u8,
        payload_crc: payload_crc(payload),
        histogram,
        group: Vec::new(),
    })
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

    /// The payload: one distance byte per state index, or for a two-bit table
    /// ([`Table::is_two_bit`]) four residues a byte ([`residue::code`]).
    pub fn payload(&self) -> &[u8] {
        &self.data.as_ref()[PAYLOAD_OFFSET..]
    }

    /// Whether the table holds two bits a state (distances modulo 3, [`Encoding::DistanceResidue`])
    /// rather than a byte: its [`Table::payload`] is then not a distance a byte, and distances
    /// are found by walking down ([`Table::entry`]).
    pub fn is_two_bit(&self) -> bool {
        self.header.encoding == Encoding::DistanceResidue
    }

    /// The distance of every state, one byte a state by index: the payload itself for a byte
    /// table; for a two-bit table, the residues expanded by a breadth-first search guided by them
    /// (memory for one byte a state: 239.5 MB for 12 cells, refused past 12).
    ///
    /// # Errors
    /// [`Error::BadOption`] for a two-bit table of more than 12 cells ([`Table::check_expandable`]); [`Error::Corrupt`]-like
    /// [`Error::BadShape`] when the residues do not make a complete table.
    pub fn distances(&self) -> Result<std::borrow::Cow<'_, [u8]>, Error> {
        if !self.is_two_bit() {
            return Ok(std::borrow::Cow::Borrowed(self.payload()));
        }
        self.check_expandable()?;
        residue::expand(&self.index, self.payload()).map(std::borrow::Cow::Owned)
    }

    /// `Ok` unless this is a two-bit table too large to hold every distance at once (past 12
    /// cells: the 2x7's would take 43.6 GB), for the work that needs them all (grading every
    /// state, heat maps, a recount in memory).
    ///
    /// # Errors
    /// [`Error::BadOption`] saying so, and what to do instead.
    pub fn check_expandable(&self) -> Result<(), Error> {
        let shape = self.header.shape;
        if self.is_two_bit() && shape.cells() > crate::index::rank::MAX_BYTE_TABLE_CELLS {
            return Err(Error::BadOption(format!(
                "this needs every distance of the {shape} table at once ({} bytes of memory): a two-bit table past {} \
                 cells answers board by board; use a sample of its states (`table sample`; in Python, `states=` \
                 with `Table.sample`)",
                self.index.len(),
                crate::index::rank::MAX_BYTE_TABLE_CELLS
            )));
        }
        Ok(())
    }

    /// The same table at one byte a state, in memory: for the commands that read every distance
    /// at once (grading, heat maps, sampling and counting on small boards). A two-bit table is
    /// expanded by [`Table::distances`]; a byte table is copied.
    ///
    /// # Errors
    /// Those of [`Table::distances`].
    pub fn to_byte_table(&self) -> Result<Table<Vec<u8>>, Error> {
        let distances = self.distances()?;
        let mut header = self.header.clone();
        header.encoding = Encoding::DistanceByte;
        header.payload_crc = payload_crc(&distances);
        let mut data = header.to_bytes();
        data.extend_from_slice(&distances);
        Ok(Table { data, header, index: self.index.clone(), goal_index: self.goal_index })
    }

    /// Whether neighbour `j` of a state at exact distance `d` is one step closer: its byte is
    /// `d - 1`, or on a two-bit table its residue is `(d - 1) mod 3` (a neighbour is at `d - 1` or
    /// `d + 1`, and the two residues differ).
    #[inline]
    pub fn is_closer_neighbour(&self, j: u64, d: u8) -> bool {
        if self.is_two_bit() {
            d > 0 && self.code(j) == (d - 1) % 3
        } else {
            self.payload()[j as usize].wrapping_add(1) == d
        }
    }

    /// The two-bit code of state `i` of a two-bit table.
    #[inline(always)]
    fn code(&self, i: u64) -> u8 {
        residue::code(self.payload(), i)
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
        if self.is_two_bit() {
            return self.walk(index, |_, _| {});
        }
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
        if self.is_two_bit() {
            // the walk on states: no move tables to build (seconds and 0.6 GB for 2x7)
            return self.walk(index, |dir, _| moves.push(dir)).map(drop);
        }
        let m = self.index.moves();
        let block = m.block();
        let payload = self.payload();
        let max = self.header.max_depth;
        let mut d = self.entry(index)?;
        let (mut b, mut h) = ((index / block) as usize, index % block);
        while d > 0 {
            let mut next = None;
            let mut bad = None;
            m.for_each(b, h, |dir, nb, nh| {
                let j = nb as u64 * block + nh;
                let e = payload[j as usize];
                if e.wrapping_add(1) == d {
                    next.get_or_insert((dir, nb, nh));
                } else if e != d + 1 || e > max {
                    bad.get_or_insert(j);
                }
            });
            if let Some(j) = bad {
                return Err(self.inconsistent(b as u64 * block + h, j, d));
            }
            let Some((dir, nb, nh)) = next else {
                let i = b as u64 * block + h;
                return Err(self.corrupt(i, format!("distance {d} but no neighbour at distance {}", d - 1)));
            };
            moves.push(dir);
            (b, h) = (nb, nh);
            d -= 1;
        }
        let i = b as u64 * block + h;
        if i != self.goal_index {
            return Err(self.corrupt(i, "distance 0 at a state that is not the goal".to_string()));
        }
        Ok(())
    }

    /// Walks down a two-bit table from state `i` to the goal, each step to the first neighbour
    /// (in `U D L R` order) whose residue is one less, calling `step(dir, j)` for each; returns
    /// the number of steps, the exact distance. Every neighbour on the way is checked (residue
    /// one more or one less), and a walk longer than the maximum depth (a cycle of wrong entries)
    /// is an error.
    fn walk(&self, i: u64, mut step: impl FnMut(Dir, u64)) -> Result<u8, Error> {
        let mut result = None;
        self.walks(&[i], |_, dir, j| step(dir, j), |_, r| result = Some(r));
        result.expect("the walk ends")
    }

    /// [`Table::walk`] from each of `starts` (a two-bit table), `WALKS` at a time, interleaved:
    /// a step reads the neighbours' codes that its walk prefetched at its previous step, while the
    /// other walks stepped, so the cache misses of the walks overlap instead of each walk waiting
    /// for one a step. Calls `step(k, dir, j)` for each step of walk `k` (a walk's steps in
    /// order) and `done(k, length or error)` once for each walk.
    pub(crate) fn walks(
        &self,
        starts: &[u64],
        mut step: impl FnMut(usize, Dir, u64),
        mut done: impl FnMut(usize, Result<u8, Error>),
    ) {
        const WALKS: usize = 24;
        let payload = self.payload();
        let begin = |k: usize| {
            let i = starts[k];
            crate::memory::prefetch(&payload[(i / 4) as usize]);
            let mut w = Walker { k, i, state: self.index.unrank(i), residue: None, depth: 0, next: [None; 4] };
            w.look_around(&self.index, payload);
            w
        };
        let mut walkers: Vec<Walker> = (0..starts.len().min(WALKS)).map(begin).collect();
        let mut started = walkers.len();
        while !walkers.is_empty() {
            let mut x = 0;
            while x < walkers.len() {
                let w = &mut walkers[x];
                match self.walk_step(w) {
                    Ok(Some((dir, j))) => {
                        step(w.k, dir, j);
                        w.look_around(&self.index, payload);
                        x += 1;
                    }
                    end => {
                        done(w.k, end.map(|_| w.depth));
                        if started < starts.len() {
                            walkers[x] = begin(started);
                            started += 1;
                            x += 1;
                        } else {
                            walkers.swap_remove(x);
                        }
                    }
                }
            }
        }
    }

    /// One step of a walk down: `None` at the goal, else the move taken and the index reached
    /// (the walker is moved there). The errors of [`Table::walk`].
    #[inline]
    fn walk_step(&self, w: &mut Walker) -> Result<Option<(Dir, u64)>, Error> {
        let i = w.i;
        let r = *w.residue.get_or_insert_with(|| self.code(i));
        if i == self.goal_index {
            if r != 0 {
                return Err(self.corrupt(i, format!("the goal has residue {r}, not 0")));
            }
            return Ok(None);
        }
        let max = self.header.max_depth;
        if r == RESIDUE_UNREACHED {
            return Err(self.corrupt(i, "the unreached code in a complete table".to_string()));
        }
        if w.depth >= max {
            return Err(self.corrupt(
                i,
                format!("the walk down from a state passes the maximum depth {max}: the residues form a loop"),
            ));
        }
        let want = (r + 2) % 3;
        let mut next = None;
        for &(dir, t, j) in w.next.iter().flatten() {
            let e = self.code(j);
            if e == want {
                next.get_or_insert((dir, t, j));
            } else if e != (r + 1) % 3 {
                return Err(self.residue_inconsistent(i, j, r));
            }
        }
        let Some((dir, t, j)) = next else {
            return Err(self.corrupt(i, format!("residue {r} but no neighbour with residue {want}")));
        };
        (w.i, w.state, w.residue) = (j, t, Some(want));
        w.depth += 1;
        Ok(Some((dir, j)))
    }

    /// The error for neighbour `j` of state `i` (residue `r`) whose code is neither `r + 1` nor
    /// `r - 1` modulo 3.
    fn residue_inconsistent(&self, i: u64, j: u64, r: u8) -> Error {
        self.corrupt(
            j,
            format!(
                "code {} next to index {i} ({}) with residue {r}: neighbours' distances differ by one, so one of the two entries is wrong",
                self.code(j),
                self.index.board(i)
            ),
        )
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
    fn downhill_each(&self, i: u64, mut f: impl FnMut(Dir, u64)) -> Result<(), Error> {
        if self.is_two_bit() {
            let r = self.code(i);
            if r == RESIDUE_UNREACHED || (r == 0 && i == self.goal_index) {
                return if r == 0 { Ok(()) } else { Err(self.corrupt(i, "the unreached code".to_string())) };
            }
            let want = (r + 2) % 3;
            let mut closer = 0;
            let mut bad = None;
            self.index.for_each_neighbor(&self.index.unrank(i), i, |dir, j| {
                let e = self.code(j);
                if e == want {
                    closer += 1;
                    f(dir, j);
                } else if e != (r + 1) % 3 {
                    bad.get_or_insert(j);
                }
            });
            if let Some(j) = bad {
                return Err(self.residue_inconsistent(i, j, r));
            }
            if closer == 0 && i != self.goal_index {
                return Err(self.corrupt(i, format!("residue {r} but no neighbour with residue {want}")));
            }
            return Ok(());
        }
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
        Ok(())
    }

    /// Up to `limit` boards at distance `depth`, in index order.
    ///
    /// On a two-bit table every state with the residue and blank parity of `depth` is a
    /// candidate whose distance is found by walking down (at the maximum depth, only those whose
    /// every neighbour is one closer): a parallel scan of the whole table, minutes for 2x7.
    pub fn states_at(&self, depth: u8, limit: usize) -> Vec<Board>
    where
        D: Sync,
    {
        if self.is_two_bit() {
            return self.states_at_two_bit(depth, limit);
        }
        self.payload()
            .iter()
            .enumerate()
            .filter(|&(_, &d)| d == depth)
            .take(limit)
            .map(|(i, _)| self.index.board(i as u64))
            .collect()
    }

    fn states_at_two_bit(&self, depth: u8, limit: usize) -> Vec<Board>
    where
        D: Sync,
    {
        let moves = self.index.moves();
        let block = moves.block();
        let shape = self.header.shape;
        let cols = shape.cols();
        let goal_blank = self.goal().blank();
        let r = depth % 3;
        let below = (r + 2) % 3;
        let deepest = depth == self.header.max_depth;
        let chunks = block.div_ceil(VERIFY_CHUNK);
        let found: Vec<Vec<u64>> = (0..shape.cells() as u64 * chunks)
            .into_par_iter()
            .map(|c| {
                let b = (c / chunks) as usize;
                let parity = ((b / cols).abs_diff(goal_blank / cols) + (b % cols).abs_diff(goal_blank % cols)) % 2;
                let mut out = Vec::new();
                if parity != depth as usize % 2 {
                    return out;
                }
                let first = c % chunks * VERIFY_CHUNK;
                for h in first..(first + VERIFY_CHUNK).min(block) {
                    let i = b as u64 * block + h;
                    if self.code(i) != r {
                        continue;
                    }
                    if deepest {
                        let mut top = true;
                        moves.for_each(b, h, |_, nb, nh| top &= self.code(nb as u64 * block + nh) == below);
                        if !top {
                            continue;
                        }
                    }
                    if self.entry(i).ok() == Some(depth) {
                        out.push(i);
                        if out.len() >= limit {
                            break;
                        }
                    }
                }
                out
            })
            .collect();
        found.into_iter().flatten().take(limit).map(|i| self.index.board(i)).collect()
    }

    /// The distribution counted from the entries rather than read from the header:
    /// `recount()[d]` states at distance `d`. A byte table's bytes are counted; a two-bit table's
    /// residues are not enough (distances 3 apart share one), so its levels are found again by
    /// the search of [`residue::verify`], every entry checked on the way.
    ///
    /// # Errors
    /// For a two-bit table, [`Error::Corrupt`] at the first entry that is not its distance
    /// modulo 3; for a byte table, [`Error::Corrupt`] at an entry that is not a distance.
    pub fn recount(&self) -> Result<Vec<u64>, Error>
    where
        D: Sync,
    {
        if self.is_two_bit() {
            return residue::verify(&self.index, self.payload()).map_err(|m| self.mismatch(m));
        }
        let counts: Vec<u64> = self
            .payload()
            .par_chunks(1 << 20)
            .map(|chunk| {
                let mut c = vec![0u64; 256];
                for &d in chunk {
                    c[d as usize] += 1;
                }
                c
            })
            .reduce(|| vec![0u64; 256], |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect());
        if let Some(d) = (0..256).rev().find(|&d| counts[d] > 0 && d == UNREACHED as usize) {
            let i = self.payload().iter().position(|&x| x as usize == d).unwrap_or(0);
            return Err(self.corrupt(i as u64, "the unreached marker in a complete table".to_string()));
        }
        let top = counts.iter().rposition(|&c| c > 0).unwrap_or(0);
        Ok(counts[..=top].to_vec())
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
    /// [`Error::ChecksumMismatch`], or [`Error::Corrupt`] naming the first failing index;
    /// [`Error::NotEnoughMemory`] for a two-bit table whose check needs more memory than is
    /// available ([`residue::verify_memory`]).
    pub fn verify(&self) -> Result<(), Error>
    where
        D: Sync,
    {
        self.check_payload_crc()?;
        if self.is_two_bit() {
            return self.verify_two_bit();
        }
        let goal = self.goal_index;
        let moves = self.index.moves();
        let block = moves.block();
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

    /// [`Table::verify`] on a two-bit table: [`residue::verify`] recomputes the search's levels
    /// and compares each state's code with its level modulo 3.
    fn verify_two_bit(&self) -> Result<(), Error> {
        // three one-bit bitmaps over half the blocks: 8.2 GB for the 2x7, 136 GB for the 3x5
        let shape = self.header.shape;
        let needed = residue::verify_memory(self.header.entries, shape.cells());
        if let Some(available) = crate::solver::available_memory().filter(|&a| a < needed) {
            return Err(Error::NotEnoughMemory {
                what: format!("verifying the {shape} table"),
                needed,
                available,
                hint: " (it redoes the search with three one-bit bitmaps over half the blank blocks; \
                       the distribution in the header can be checked against a published one instead)"
                    .into(),
            });
        }
        let hist = residue::verify(&self.index, self.payload()).map_err(|m| self.mismatch(m))?;
        if hist != self.header.histogram {
            return Err(Error::CorruptHeader("the histogram does not match the payload".to_string()));
        }
        Ok(())
    }

    /// The error for a failure of [`residue::verify`].
    fn mismatch(&self, m: residue::Mismatch) -> Error {
        match m {
            residue::Mismatch::Entry { index, depth, code } => self.corrupt(
                index,
                format!("code {code}, but the state is {depth} moves from the goal (residue {})", depth % 3),
            ),
            residue::Mismatch::Count { found } => Error::CorruptHeader(format!(
                "the search reached {found} of {} states: the state index is inconsistent",
                self.header.entries
            )),
            residue::Mismatch::Padding => {
                Error::CorruptHeader("the unused codes of the payload's last byte are not 0".to_string())
            }
        }
    }

    /// [`Table::verify`] for offsets `range` of blank block `b` (the range starts on a multiple of
    /// 64): the histogram of the range, or the first failure in it.
    fn verify_range(&self, moves: &Moves, b: usize, range: Range<u64>, goal: u64) -> Result<Vec<u64>, Error> {
        let payload = self.payload();
        let max = self.header.max_depth;
        let base = b as u64 * moves.block();
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
            let bit = (low_bits >> (h % 64)) as u32 & 1;
            let mut closer = false;
            let mut bad = None;
            moves.for_each_ranked(b, h, bit, |_, nb, nh| {
                let j = nb as u64 * moves.block() + nh;
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

/// A walk down a two-bit table in progress ([`Table::walks`]).
struct Walker {
    /// Which walk this is.
    k: usize,
    /// Where it stands.
    i: u64,
    state: crate::index::rank::State,
    /// The code of `i`, once read.
    residue: Option<u8>,
    /// Steps taken.
    depth: u8,
    /// The neighbours of `i` (move, state, index), their codes prefetched.
    next: [Option<(Dir, crate::index::rank::State, u64)>; 4],
}

impl Walker {
    /// Lists the neighbours of the state the walker stands on and prefetches their codes.
    #[inline]
    fn look_around(&mut self, index: &StateIndex, payload: &[u8]) {
        self.next = [None; 4];
        let mut n = 0;
        index.for_each_neighbor_state(&self.state, self.i, |dir, t, j| {
            crate::memory::prefetch(&payload[(j / 4) as usize]);
            self.next[n] = Some((dir, *t, j));
            n += 1;
        });
    }
}
