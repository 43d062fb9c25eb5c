//! The out-of-core executor of the two-bit search: blocks kept in files in a work directory, one
//! target block's frontiers in memory at a time, every level a checkpoint.
//!
//! # What is kept where
//! | file | what | written |
//! |---|---|---|
//! | `build.plan` | the board, goal, width and sizes, with a checksum | once, at the start |
//! | `table.part` | the table file to be: header room, then every block's codes (a hole until the block's first merge: unreached) | codes at merges, the header at the end |
//! | `front-BB-DDDD` | block `BB`'s frontier at depth `DDDD`, chunk by chunk, checksummed | once, when its level is expanded |
//! | `checkpoint` | the last complete depth, the histogram, what each block's codes hold | after every level and merge |
//!
//! # A level
//! Level `d` expands the frontiers `F_d` of the source blocks into each target block `t` in turn
//! ([`crate::table::step`]): `F_{d+1}(t)` is what the 2 to 4 source neighbours reach in `t`, less
//! `F_{d-1}(t)` (a neighbour of a state at `d` is at `d - 1` or `d + 1`). So a level needs, for
//! the target in hand, three bitmaps of one block (the sources' decoded one after the other, a few
//! kept while the next targets need them), and no codes: the codes of a block are written from
//! its frontier files only when those add up to as many bytes as the codes (a *merge*, a read and
//! a write of the block's codes), and at the end. That keeps the codes' traffic to a few passes
//! over the table instead of one every other level.
//!
//! A frontier file holds, for each chunk of [`CHUNK`] entries with a state, the gaps between its
//! states' offsets (a byte each), their offsets (two bytes each) or the chunk's 2 KiB bitmap,
//! whichever is smallest, in segments of 256 chunks that are encoded and decoded in parallel.
//!
//! # Checkpoints and resuming
//! A frontier file is written to a temporary name and renamed when complete; the checkpoint is
//! rewritten (temporary name, then rename) when a level's files are all there, and around each
//! merge. A build run again with the same work directory reads the checkpoint, checks the plan
//! (another board, goal or width is refused), the codes of every block against their recorded
//! checksums, and resumes with the first level not complete, skipping the targets whose files are
//! already there. Merging a file twice gives the same codes, so a merge cut short is done again.
//!
//! # Stopping at a depth
//! A build given a last depth ([`build`]'s `max_depth`, `table build --max-depth`) stops once
//! that level's files are written, its checkpoint saved: it is a build stopped there, which any
//! later build of the same table in the directory goes on with (to another depth, or to the
//! end). Such a build asks only for the disk it uses: the codes file is sparse, each block's
//! place allocated at its first merge (a block never merged is unreached throughout, whatever
//! the file holds there), and the room for each level (and each merge) is checked before it
//! starts. A build to the end reserves the whole of its disk when it starts or resumes.
//! Every file read is checked (its checksum and length): a damaged one is refused, never used.
//! Work files are not synced as they are written (that would make the disk's write speed the
//! search's); a machine that loses power may lose the last ones, and the checksums then refuse
//! the directory rather than resume from it.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use byteorder::{ByteOrder, WriteBytesExt, LE};
use rayon::prelude::*;

use crate::error::Error;
use crate::index::rank::StateIndex;
use crate::table::bfs::Progress;
use crate::table::format::PAYLOAD_OFFSET;
use crate::table::residue::payload_len;
use crate::table::step::{parities, settle, Frontier, NotBefore, Step, CHUNK, CHUNK_WORDS};

/// The first line of `build.plan`; its number is bumped when the work files' layout changes.
const PLAN_MAGIC: &str = "slidetable out-of-core build 1";
/// The first line of `checkpoint`.
const CHECKPOINT_MAGIC: &str = "slidetable checkpoint 1";
/// The first bytes of a frontier file.
const FRONT_MAGIC: &[u8; 8] = b"STFRONT3";
/// A frontier file's header: magic, plan id, block, depth, states, segments, body length, body
/// checksum, header checksum.
const FRONT_HEADER: usize = 8 + 4 + 4 + 4 + 8 + 8 + 8 + 4 + 4;
/// The kinds of a chunk's record in a frontier file: the gaps between its offsets, a byte each;
/// its offsets, two bytes each; its bitmap.
const KIND_GAPS: u32 = 0;
const KIND_LIST: u32 = 1;
const KIND_BITMAP: u32 = 2;
/// Bytes read and written at a time, at most (see [`io_buffer`]).
const IO_BUFFER: usize = 8 << 20;

/// Bytes of work files read and written by a build so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DiskIo {
    /// Bytes read.
    pub read: u64,
    /// Bytes written.
    pub written: u64,
}

/// What an out-of-core build tells its caller as it goes.
#[derive(Debug)]
#[non_exhaustive]
pub enum Event<'a> {
    /// The work directory held a build of the same table: it goes on after `depth` (with `reached`
    /// states found), after checking the work files (`checked` bytes of codes).
    Resumed {
        /// The last depth complete.
        depth: u32,
        /// States found up to it.
        reached: u64,
    },
    /// The build starts afresh in an empty work directory (every entry unreached until the
    /// merges write its codes).
    Preparing {
        /// Bytes of the codes to come.
        bytes: u64,
    },
    /// A target block of the level in progress is done.
    Target {
        /// The depth being found (one more than the frontier's).
        depth: u32,
        /// Targets done at this level.
        done: usize,
        /// Targets at this level.
        of: usize,
        /// The work files' traffic so far.
        disk: DiskIo,
    },
    /// A level is complete (its frontier files all written, the checkpoint saved).
    Level {
        /// The level, as the in-memory build reports it.
        progress: &'a Progress,
        /// The work files' traffic so far.
        disk: DiskIo,
    },
    /// The codes are complete; the table file is being checksummed and written.
    Finishing,
}

/// The memory an out-of-core build of `states` states on `cells` cells takes at its peak, with
/// `cached` decoded source frontiers kept beyond the one it needs: the larger of an expansion's
/// three (and `cached`) one-bit bitmaps of a block and a merge's codes of a block with one bitmap
/// (a [`Worker`] never holds both), the move tables and the I/O buffers (the program itself, a
/// few megabytes, is not counted, as [`crate::table::lookup::build_memory`] does not count it).
pub fn memory(states: u64, cells: usize, cached: usize) -> u64 {
    let block = states / cells as u64;
    let frontier = Frontier::bytes(block);
    let windows = match cells {
        13.. => 260 << 20,
        12 => 8 << 20,
        _ => 1 << 20,
    };
    let tables = crate::index::moves::parity_bytes(block) + windows;
    // a batch of segments read, or encoded, at a time: no more than a bitmap's worth
    let segments = 2 * frontier.min((SEGMENT_BATCH * SEGMENT_MAX) as u64);
    let expand = (3 + cached as u64) * frontier;
    let merge = payload_len(block) + frontier;
    expand.max(merge) + tables + 3 * io_buffer(block) as u64 + segments + (1 << 20)
}

/// Bytes read and written at a time for blocks of `block` entries: up to 8 MiB, no more than a
/// frontier's bitmap.
fn io_buffer(block: u64) -> usize {
    (block / 8).clamp(64 << 10, 8 << 20) as usize
}

/// The disk an out-of-core build of `states` states on `cells` cells takes in its work directory
/// at its peak: the table file (which becomes the table), and the frontier files: for each
/// block, those waiting to be merged (at most the block's codes) and the three levels in use.
pub fn disk(states: u64, cells: usize) -> u64 {
    let block = states / cells as u64;
    let front = Frontier::bytes(block) + (block / CHUNK as u64 + 1) * 8 + FRONT_HEADER as u64;
    PAYLOAD_OFFSET as u64 + payload_len(states) + cells as u64 * (payload_len(block) + 3 * front)
}

/// Whether the table of `index` can be built out of core: its blocks are whole bytes of codes
/// (every board of 5 cells or more).
pub fn supported(index: &StateIndex) -> bool {
    (index.len() / index.shape().cells() as u64).is_multiple_of(4)
}

/// The work directory's files.
struct Work {
    dir: PathBuf,
    plan_id: u32,
    read: AtomicU64,
    written: AtomicU64,
}

impl Work {
    fn new(dir: &Path, plan: &str) -> Work {
        Work {
            dir: dir.to_path_buf(),
            plan_id: crc32fast::hash(plan.as_bytes()),
            read: AtomicU64::new(0),
            written: AtomicU64::new(0),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn front(&self, b: usize, depth: u32) -> PathBuf {
        self.dir.join(format!("front-{b:02}-{depth:04}"))
    }

    fn io(&self) -> DiskIo {
        DiskIo { read: self.read.load(Relaxed), written: self.written.load(Relaxed) }
    }

    fn damaged(&self, path: &Path, what: impl std::fmt::Display) -> Error {
        Error::Checkpoint {
            path: path.to_path_buf(),
            detail: format!(
                "{what}: the work file is damaged and was not used; delete the work directory {} to build from the start",
                self.dir.display()
            ),
        }
    }

    /// Writes `text` to `name` through a temporary name, then renamed. Not synced: on ext4 an
    /// fsync commits the journal, which waits for every frontier file written before it to
    /// reach the disk (seconds at each level); a process killed loses nothing of what it wrote,
    /// and a machine that loses power leaves a checkpoint that its checksum refuses.
    fn write_small(&self, name: &str, text: &str) -> Result<(), Error> {
        let path = self.path(name);
        let tmp = self.path(&format!("{name}.tmp"));
        let mut f = File::create(&tmp).map_err(|e| Error::io("creating", &tmp, e))?;
        f.write_all(text.as_bytes()).map_err(|e| Error::io("writing", &tmp, e))?;
        fs::rename(&tmp, &path).map_err(|e| Error::io("renaming to", &path, e))
    }
}

/// The text of `build.plan` for `index`, with its checksum line.
fn plan_text(index: &StateIndex) -> String {
    let goal: Vec<String> = index.goal().cells().iter().map(|c| c.to_string()).collect();
    let body = format!(
        "{PLAN_MAGIC}\nboard {}\ngoal {}\nbits 2\nstates {}\nblock {}\n",
        index.shape(),
        goal.join(" "),
        index.len(),
        index.len() / index.shape().cells() as u64
    );
    let crc = crc32fast::hash(body.as_bytes());
    format!("{body}crc {crc:08x}\n")
}

/// Splits a text file into its body and its checksum line, `None` when the checksum is wrong.
fn checked_body(text: &str) -> Option<&str> {
    let at = text.trim_end_matches('\n').rfind('\n')? + 1;
    let (body, last) = text.split_at(at);
    let crc = u32::from_str_radix(last.trim().strip_prefix("crc ")?, 16).ok()?;
    (crc32fast::hash(body.as_bytes()) == crc).then_some(body)
}

/// The checkpoint: the last complete depth and what each block's codes hold.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Checkpoint {
    /// Frontier files are complete for depths `0..=depth`; `histogram` has `depth + 1` counts.
    histogram: Vec<u64>,
    /// Block `b`'s codes hold the frontiers of depths below `merged[b]`.
    merged: Vec<u32>,
    /// The checksum of block `b`'s codes, `None` while a merge into them is under way.
    crcs: Vec<Option<u32>>,
    /// Every level is done and merged: only the table file's header remains.
    finished: bool,
}

impl Checkpoint {
    fn depth(&self) -> u32 {
        self.histogram.len() as u32 - 1
    }

    fn text(&self, plan_id: u32) -> String {
        let join = |v: Vec<String>| v.join(" ");
        let body = format!(
            "{CHECKPOINT_MAGIC}\nplan {plan_id:08x}\nhistogram {}\nmerged {}\ncrcs {}\nfinished {}\n",
            join(self.histogram.iter().map(|n| n.to_string()).collect()),
            join(self.merged.iter().map(|n| n.to_string()).collect()),
            join(self.crcs.iter().map(|c| c.map_or("-".to_string(), |c| format!("{c:08x}"))).collect()),
            self.finished as u8
        );
        let crc = crc32fast::hash(body.as_bytes());
        format!("{body}crc {crc:08x}\n")
    }

    fn parse(text: &str, plan_id: u32, cells: usize) -> Option<Checkpoint> {
        let body = checked_body(text)?;
        let mut lines = body.lines();
        if lines.next()? != CHECKPOINT_MAGIC {
            return None;
        }
        let mut field = |name: &str| lines.next()?.strip_prefix(name)?.strip_prefix(' ').map(str::to_string);
        if u32::from_str_radix(&field("plan")?, 16).ok()? != plan_id {
            return None;
        }
        let histogram: Vec<u64> =
            field("histogram")?.split_whitespace().map(|x| x.parse().ok()).collect::<Option<_>>()?;
        let merged: Vec<u32> = field("merged")?.split_whitespace().map(|x| x.parse().ok()).collect::<Option<_>>()?;
        let crcs: Vec<Option<u32>> = field("crcs")?
            .split_whitespace()
            .map(|x| if x == "-" { Some(None) } else { u32::from_str_radix(x, 16).ok().map(Some) })
            .collect::<Option<_>>()?;
        let finished = field("finished")? == "1";
        (!histogram.is_empty() && merged.len() == cells && crcs.len() == cells).then_some(Checkpoint {
            histogram,
            merged,
            crcs,
            finished,
        })
    }
}

/// What [`build`] leaves: the table file in the work directory, complete, header written and
/// synced, for the caller to rename or copy into place.
#[derive(Debug)]
pub struct Built {
    /// The table file (`table.part` in the work directory).
    pub path: PathBuf,
    /// The histogram of distances.
    pub histogram: Vec<u64>,
    /// The depth the build resumed after, when it did.
    pub resumed: Option<u32>,
    /// The work files' traffic.
    pub disk: DiskIo,
}

/// What [`build`] leaves when it stops at its last depth: the work directory, resumable, and
/// the distribution so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partial {
    /// States at each depth from 0 to the last one searched.
    pub histogram: Vec<u64>,
    /// The depth the build resumed after, when it did.
    pub resumed: Option<u32>,
    /// The work files' traffic.
    pub disk: DiskIo,
}

/// How [`build`] ended.
#[derive(Debug)]
pub enum Outcome {
    /// The table file is complete.
    Built(Built),
    /// The search stopped at the depth asked for, short of the end.
    Partial(Partial),
}

/// Builds the two-bit table of `index` out of core in the work directory `dir` (created if
/// missing), resuming a build of the same table found there, with `memory_budget` bytes to use
/// (beyond the three bitmaps it needs, the rest holds decoded frontiers for the next targets):
/// the executor that runs a [`Driver`] and a [`Worker`] in this process. The table file is left
/// complete in `dir` ([`Built::path`]); the caller moves it into place and removes the work
/// directory ([`clean`]). With `max_depth`, the search stops once the level of that depth is
/// found ([`Outcome::Partial`]; the module's "Stopping at a depth"), unless it has reached every
/// state by then. `events` hears how it goes; the build stops with [`Error::BuildCancelled`]
/// after a target at which `stop` is set, resumable.
///
/// # Errors
/// [`Error::NotEnoughMemory`] when `memory_budget` is less than [`memory`] needs,
/// [`Error::Checkpoint`] for a work directory of another table or a damaged work file,
/// [`Error::Io`], [`Error::BadShape`] for a board too small to need it (see [`supported`]),
/// [`Error::BuildCancelled`].
pub fn build(
    index: &StateIndex,
    dir: &Path,
    memory_budget: u64,
    max_depth: Option<u32>,
    mut events: impl FnMut(Event),
    stop: &AtomicBool,
) -> Result<Outcome, Error> {
    build_dyn(index, dir, memory_budget, max_depth, &mut events, stop)
}

// the body compiled once, whatever the caller's closure
fn build_dyn(
    index: &StateIndex,
    dir: &Path,
    memory_budget: u64,
    max_depth: Option<u32>,
    events: &mut dyn FnMut(Event),
    stop: &AtomicBool,
) -> Result<Outcome, Error> {
    let needed = memory(index.len(), index.shape().cells(), 0);
    if needed > memory_budget {
        return Err(not_enough_memory(index, needed, memory_budget));
    }
    let mut driver = Driver::open(index, dir, max_depth, events)?;
    let mut worker = Worker::new(index, dir, memory_budget)?;
    let io = |driver: &Driver, worker: &Worker| {
        let (a, b) = (driver.io(), worker.io());
        DiskIo { read: a.read + b.read, written: a.written + b.written }
    };
    loop {
        if driver.is_at_max_depth() {
            let histogram = driver.histogram().to_vec();
            return Ok(Outcome::Partial(Partial { histogram, resumed: driver.resumed(), disk: io(&driver, &worker) }));
        }
        // merges due (after a level, at the end, or cut short by a stop): the same for a resumed
        // build; done beside the next level's expansions when the budget holds both
        let due = driver.merges_due();
        driver.check_room(&due)?;
        let beside = worker.merges_aside() && !driver.is_searched() && !due.is_empty();
        if !due.is_empty() {
            driver.begin_merges(&due)?;
            if !beside {
                for &(b, from, upto) in &due {
                    let crc = worker.merge(b, from, upto)?;
                    driver.end_merge(b, upto, crc)?;
                }
            }
        }
        if driver.is_searched() {
            break;
        }
        let depth = driver.depth();
        let targets = driver.targets();
        let of = targets.len();
        let before = driver.io();
        let mut done = |k: usize, disk: DiskIo| {
            let disk = DiskIo { read: before.read + disk.read, written: before.written + disk.written };
            events(Event::Target { depth: depth + 1, done: k + 1, of, disk });
            !(stop.load(Relaxed) && k + 1 < of)
        };
        let merging = if beside { &due[..] } else { &[] };
        let (expanded, crcs) = worker.expand_beside(depth, &targets, merging, &mut done);
        // the merges done are recorded whatever else happened
        let mut failed = None;
        for (&(b, _, upto), crc) in merging.iter().zip(crcs) {
            match crc {
                Ok(crc) => driver.end_merge(b, upto, crc)?,
                Err(e) => failed = failed.or(Some(e)),
            }
        }
        let found = expanded?.iter().sum();
        if let Some(e) = failed {
            return Err(e);
        }
        if let Some(progress) = driver.level_done(found)? {
            events(Event::Level { progress: &progress, disk: io(&driver, &worker) });
        }
        if stop.load(Relaxed) && !driver.is_searched() {
            return Err(Error::BuildCancelled { depth: driver.depth() });
        }
    }
    events(Event::Finishing);
    let mut built = driver.finish()?;
    built.disk = io(&driver, &worker);
    Ok(Outcome::Built(built))
}

/// Puts the finished table file `part` (from [`build`] or [`Driver::finish`]) at `path`: renamed
/// over it, or on another file system copied beside it and renamed (a table is never half
/// written under its name). A symbolic link at `path` is followed.
///
/// # Errors
/// [`Error::Io`]: `path` a directory or not a regular file, its directory missing or full.
pub fn install(part: &Path, path: &Path) -> Result<(), Error> {
    let target = crate::table::format::final_name(path)?;
    match fs::rename(part, &target) {
        Ok(()) => Ok(()),
        Err(e) if e.raw_os_error() == Some(libc::EXDEV) => {
            let len = fs::metadata(part).map_err(|e| Error::io("reading", part, e))?.len();
            let mut pending = crate::table::format::PendingFile::create(&target, len)?;
            let mut input = File::open(part).map_err(|e| Error::io("opening", part, e))?;
            let mut buffer = vec![0u8; IO_BUFFER];
            let mut at = 0u64;
            loop {
                let n = input.read(&mut buffer).map_err(|e| Error::io("reading", part, e))?;
                if n == 0 {
                    break;
                }
                pending.write_at(at, &buffer[..n])?;
                at += n as u64;
            }
            pending.commit().map(drop)
        }
        Err(e) => Err(Error::io("renaming the new table to", &target, e)),
    }
}

/// Removes the work files of a finished build from `dir`, and `dir` itself when that leaves it
/// empty.
///
/// The plan goes first and the checkpoint last, so that a process killed while it cleans leaves
/// a directory that the next build recognises: a finished build's checkpoint with no plan, or
/// nothing of its own ([`Driver::open`] clears it and starts again).
pub fn clean(dir: &Path) {
    remove_work_files(dir);
    let _ = fs::remove_dir(dir);
}

/// [`clean`], the directory kept.
fn remove_work_files(dir: &Path) {
    let _ = fs::remove_file(dir.join("build.plan"));
    if let Ok(entries) = fs::read_dir(dir) {
        for e in entries.flatten() {
            let name = e.file_name();
            let name = name.to_string_lossy();
            if name.starts_with("front-") || name.ends_with(".tmp") || name == "table.part" {
                let _ = fs::remove_file(e.path());
            }
        }
    }
    let _ = fs::remove_file(dir.join("checkpoint"));
}

/// Whether `dir` holds only what a finished build leaves when it is killed while its work files
/// are removed ([`clean`]): its own work files, no plan, and a checkpoint, if any, that says the
/// build finished.
fn finished_leftovers(dir: &Path) -> bool {
    let Ok(entries) = fs::read_dir(dir) else {
        return false;
    };
    let mut checkpoint = None;
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        match &*name {
            "checkpoint" => checkpoint = fs::read_to_string(e.path()).ok(),
            n if n.starts_with("front-") || n.ends_with(".tmp") || n == "table.part" => {}
            _ => return false,
        }
    }
    checkpoint.is_none_or(|text| text.lines().any(|l| l.trim() == "finished 1"))
}

/// An exclusive lock on the work directory `dir` (held while the returned file is open), so
/// that two builds never share one: the second is refused in one line.
///
/// A lock held by someone else is tried again for up to [`LOCK_PATIENCE`] before the refusal:
/// a process that this one forks shares the lock's open file until it executes its program, so
/// a build that stops while another thread starts a program leaves its lock held for that
/// moment, and a build started again at once would be refused for a lock nobody keeps.
fn lock(dir: &Path) -> Result<File, Error> {
    let handle = File::open(dir).map_err(|e| Error::io("opening the work directory", dir, e))?;
    let start = Instant::now();
    loop {
        // the system's advisory lock (flock), as a checkpointed search's
        match handle.try_lock() {
            Ok(()) => return Ok(handle),
            Err(std::fs::TryLockError::Error(e)) => return Err(Error::io("locking the work directory", dir, e)),
            Err(std::fs::TryLockError::WouldBlock) => {}
        }
        if start.elapsed() >= LOCK_PATIENCE {
            return Err(Error::Checkpoint {
                path: dir.to_path_buf(),
                detail: "another build is using this work directory now: wait for it, or give another --work-dir"
                    .into(),
            });
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// How long [`lock`] waits for a work directory's lock before it says another build has it.
const LOCK_PATIENCE: Duration = Duration::from_secs(2);

/// The part of an out-of-core build that keeps its checkpoint: which level comes next, which
/// targets it has, which blocks' codes are due a merge, the histogram, and at the end the table
/// file's header. One per build, in the process that drives it (this one's [`build`], or a Dask
/// client); the work itself is [`Worker`]s', anywhere the work directory can be read and written.
pub struct Driver {
    index: StateIndex,
    work: Work,
    state: Checkpoint,
    parity: Vec<usize>,
    block: u64,
    start: Instant,
    resumed: Option<u32>,
    /// The last level found nothing: only the merges of every block and the header remain.
    searched: bool,
    /// The last depth to search, when the build stops there.
    max_depth: Option<u32>,
    /// The work directory's lock, held while the driver lives.
    _lock: File,
}

impl Driver {
    /// Starts a build of `index`'s table in `dir` (created if missing: the plan, the codes file
    /// with every entry unreached, the goal's frontier), or opens the one there, checking its
    /// plan, its checkpoint and every block's codes against their checksums. Without
    /// `max_depth` the disk of the whole build is checked and reserved; with it, the codes file
    /// stays sparse and each level's room is checked as it comes ([`Driver::check_room`]), and
    /// [`Driver::is_at_max_depth`] says when to stop.
    ///
    /// # Errors
    /// [`Error::Checkpoint`] for a work directory of another table, one not empty that holds no
    /// build, or a damaged work file; [`Error::NotEnoughDisk`]; [`Error::Io`];
    /// [`Error::BadShape`] (see [`supported`]).
    pub fn open(
        index: &StateIndex,
        dir: &Path,
        max_depth: Option<u32>,
        events: &mut dyn FnMut(Event),
    ) -> Result<Driver, Error> {
        if !supported(index) {
            return Err(Error::BadShape(format!("{} is too small to be built out of core", index.shape())));
        }
        let existed = dir.exists();
        if existed && !dir.is_dir() {
            let e = std::io::Error::other("it is a file, not a directory: name a directory for the work files");
            return Err(Error::io("opening the work directory", dir, e));
        }
        fs::create_dir_all(dir).map_err(|e| Error::io("creating the work directory", dir, e))?;
        let lock = lock(dir)?;
        let plan = plan_text(index);
        let work = Work::new(dir, &plan);
        if !work.path("build.plan").exists() && finished_leftovers(dir) {
            // a finished build killed while it removed its work files: nothing to resume
            remove_work_files(dir);
        }
        let (state, resumed) = open_or_start(index, &work, &plan, max_depth.is_none(), events).inspect_err(|_| {
            if !existed {
                // a build refused or failed as it started leaves no directory it made
                let _ = fs::remove_dir(dir);
            }
        })?;
        if let Some(depth) = resumed {
            events(Event::Resumed { depth, reached: state.histogram.iter().sum() });
        }
        let cells = index.shape().cells();
        Ok(Driver {
            index: index.clone(),
            parity: parities(index.shape(), index.goal().blank()),
            block: index.len() / cells as u64,
            work,
            state,
            start: Instant::now(),
            resumed,
            searched: false,
            max_depth,
            _lock: lock,
        })
    }

    /// Whether the build has searched as deep as it was asked to (and has states left to find:
    /// a search that has reached them all goes on to the end, whatever its last depth).
    pub fn is_at_max_depth(&self) -> bool {
        let reached: u64 = self.state.histogram.iter().sum();
        !self.is_searched() && reached < self.index.len() && self.max_depth.is_some_and(|d| self.depth() >= d)
    }

    /// Checks, in a build that stops at a depth (whose disk is not reserved), that the disk of
    /// the work directory has room for the merges `due` (a block's codes each, the first time)
    /// and the next level's frontier files: at most three times the last level's (a state has
    /// at most three neighbours a level deeper, and a denser frontier takes fewer bytes a
    /// state), and no more than a bitmap of each target block.
    ///
    /// # Errors
    /// [`Error::NotEnoughDisk`], with what the level needs; [`Error::Io`].
    pub fn check_room(&self, due: &[(usize, u32, u32)]) -> Result<(), Error> {
        if self.max_depth.is_none() {
            return Ok(());
        }
        let codes = payload_len(self.block) * due.iter().filter(|&&(b, ..)| self.state.merged[b] == 0).count() as u64;
        let level = if self.is_searched() || self.is_at_max_depth() {
            0
        } else {
            let depth = self.depth();
            let last: u64 = (0..self.parity.len())
                .filter_map(|b| fs::metadata(self.work.front(b, depth)).ok().map(|m| m.len()))
                .sum();
            let targets = self.targets().len() as u64;
            let most = Frontier::bytes(self.block) + (self.block / CHUNK as u64 + 1) * 8 + FRONT_HEADER as u64;
            // and a file system block a file, with the checkpoint's
            (3 * last).min(targets * most) + (targets + 2) * 4096
        };
        let what = format!("finding depth {} of the {} table out of core", self.depth() + 1, self.index.shape());
        let hint = "; free some, or move the work directory to a larger disk and give it as --work-dir (the levels \
                    done are kept)";
        check_disk(&self.work, codes + level, what, hint)
    }

    /// The last depth whose frontier files are all written.
    pub fn depth(&self) -> u32 {
        self.state.depth()
    }

    /// States at each depth so far.
    pub fn histogram(&self) -> &[u64] {
        &self.state.histogram
    }

    /// The depth it resumed after, when the work directory held a build.
    pub fn resumed(&self) -> Option<u32> {
        self.resumed
    }

    /// Whether the search is over (a level found nothing): then only merges and [`Driver::finish`].
    pub fn is_searched(&self) -> bool {
        self.searched || self.state.finished
    }

    /// The work files' traffic of this process's driver.
    pub fn io(&self) -> DiskIo {
        self.work.io()
    }

    /// The target blocks of the next level (the blocks not of the parity of [`Driver::depth`]),
    /// column by column: consecutive targets share sources, which a [`Worker`] keeps.
    pub fn targets(&self) -> Vec<usize> {
        let cols = self.index.shape().cols();
        let side = self.depth() as usize % 2;
        let mut targets: Vec<usize> = (0..self.parity.len()).filter(|&b| self.parity[b] != side).collect();
        targets.sort_by_key(|&b| (b % cols, b / cols));
        targets
    }

    /// Records the next level, with `found` states (the sum of its targets' [`Worker::expand`]):
    /// the checkpoint moves on and the level's progress comes back; `None` when it found nothing
    /// (the search is over).
    ///
    /// # Errors
    /// [`Error::Io`] writing the checkpoint; [`Error::BadShape`] when the search ends short of
    /// every state (the state index would be broken).
    pub fn level_done(&mut self, found: u64) -> Result<Option<Progress>, Error> {
        let states = self.index.len();
        if found == 0 {
            self.searched = true;
            let reached: u64 = self.state.histogram.iter().sum();
            if reached != states {
                return Err(Error::BadShape(format!(
                    "the search reached {reached} of {states} states of {}: the state index is inconsistent",
                    self.index.shape()
                )));
            }
            return Ok(None);
        }
        self.state.histogram.push(found);
        self.work.write_small("checkpoint", &self.state.text(self.work.plan_id))?;
        Ok(Some(Progress {
            depth: self.depth(),
            level_states: found,
            reached: self.state.histogram.iter().sum(),
            total: states,
            elapsed: self.start.elapsed(),
        }))
    }

    /// The merges due now, as (block, first depth, last depth) for [`Worker::merge`]: those cut
    /// short by a stop; after a level, the blocks whose frontier files no longer needed by the
    /// search (depths up to [`Driver::depth`] - 2) add up to their codes' size; at the end, every
    /// block's remaining files.
    pub fn merges_due(&self) -> Vec<(usize, u32, u32)> {
        let depth = self.depth();
        (0..self.parity.len())
            .filter_map(|b| {
                let from = self.state.merged[b];
                if self.is_searched() {
                    return (from <= depth || self.state.crcs[b].is_none()).then_some((b, from, depth));
                }
                let upto = depth.checked_sub(2)?;
                if self.state.crcs[b].is_none() {
                    return Some((b, from, upto.max(from.saturating_sub(1))));
                }
                let pending: u64 = (from..=upto)
                    .filter(|&k| k as usize % 2 == self.parity[b])
                    .filter_map(|k| fs::metadata(self.work.front(b, k)).ok().map(|m| m.len()))
                    .sum();
                (from <= upto && pending >= payload_len(self.block)).then_some((b, from, upto))
            })
            .collect()
    }

    /// Marks the blocks of `due` as being merged in the checkpoint (their codes' checksums are
    /// unknown until [`Driver::end_merge`]: a build stopped in between merges them again).
    ///
    /// # Errors
    /// [`Error::Io`] writing the checkpoint.
    pub fn begin_merges(&mut self, due: &[(usize, u32, u32)]) -> Result<(), Error> {
        for &(b, ..) in due {
            self.state.crcs[b] = None;
        }
        self.work.write_small("checkpoint", &self.state.text(self.work.plan_id))
    }

    /// Records that block `b`'s codes hold the frontiers up to depth `upto`, with checksum `crc`
    /// (from [`Worker::merge`]), and deletes the files merged.
    ///
    /// # Errors
    /// [`Error::Io`] writing the checkpoint.
    pub fn end_merge(&mut self, b: usize, upto: u32, crc: u32) -> Result<(), Error> {
        let from = self.state.merged[b];
        self.state.crcs[b] = Some(crc);
        self.state.merged[b] = from.max(upto + 1);
        self.work.write_small("checkpoint", &self.state.text(self.work.plan_id))?;
        for k in from..=upto {
            let _ = fs::remove_file(self.work.front(b, k));
        }
        Ok(())
    }

    /// Writes the table file's last byte's padding, header and checksum once the search is over
    /// and every block merged, syncs it, and marks the build finished.
    ///
    /// # Errors
    /// [`Error::BadShape`] when the search is not over or a block is not merged; [`Error::Io`].
    pub fn finish(&mut self) -> Result<Built, Error> {
        if !self.is_searched() || !self.merges_due().is_empty() {
            return Err(Error::BadShape("the out-of-core build is not complete".into()));
        }
        let part = self.work.path("table.part");
        let file = OpenOptions::new().read(true).write(true).open(&part).map_err(|e| Error::io("opening", &part, e))?;
        finish(&self.index, &self.work, &file, &self.state.histogram)?;
        self.state.finished = true;
        self.work.write_small("checkpoint", &self.state.text(self.work.plan_id))?;
        Ok(Built { path: part, histogram: self.state.histogram.clone(), resumed: self.resumed, disk: self.io() })
    }
}

/// Reads the checkpoint of a build of the same table in the work directory, or starts one:
/// the plan, the codes file (every entry unreached), the goal's frontier. With `reserve`, the
/// whole build's disk is checked and the codes file allocated.
fn open_or_start(
    index: &StateIndex,
    work: &Work,
    plan: &str,
    reserve: bool,
    events: &mut dyn FnMut(Event),
) -> Result<(Checkpoint, Option<u32>), Error> {
    let cells = index.shape().cells();
    let block = index.len() / cells as u64;
    let plan_path = work.path("build.plan");
    match fs::read_to_string(&plan_path) {
        Ok(found) => {
            if found != plan {
                return Err(another_table(index, &plan_path, &found));
            }
            let cp_path = work.path("checkpoint");
            let text = match fs::read_to_string(&cp_path) {
                Ok(text) => text,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    return Err(work.damaged(&cp_path, "it is missing"));
                }
                Err(e) => return Err(Error::io("reading", &cp_path, e)),
            };
            let state = Checkpoint::parse(&text, work.plan_id, cells)
                .ok_or_else(|| work.damaged(&cp_path, "its checksum or its fields are wrong"))?;
            // temporary files of a build killed while writing them
            if let Ok(entries) = fs::read_dir(&work.dir) {
                for e in entries.flatten() {
                    if e.file_name().to_string_lossy().ends_with(".tmp") {
                        let _ = fs::remove_file(e.path());
                    }
                }
            }
            // the codes as the last merges left them
            let part = work.path("table.part");
            if state.finished && !part.exists() {
                // a finished build, its table renamed, killed before its work files were removed
                remove_work_files(&work.dir);
                return open_or_start(index, work, plan, reserve, events);
            }
            let file = match File::open(&part) {
                Ok(file) => file,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    return Err(work.damaged(&part, "it is missing"));
                }
                Err(e) => return Err(Error::io("opening", &part, e)),
            };
            let want = PAYLOAD_OFFSET as u64 + payload_len(index.len());
            let len = file.metadata().map_err(|e| Error::io("opening", &part, e))?.len();
            if len != want {
                return Err(work.damaged(&part, format!("it has {len} bytes, not {want}")));
            }
            let mut buffer = vec![0u8; payload_len(block) as usize];
            // a block never merged is unreached, whatever its place holds (a hole, or a first
            // merge cut short)
            for b in (0..cells).filter(|&b| state.merged[b] > 0) {
                if let Some(crc) = state.crcs[b] {
                    read_block(work, &file, b, &mut buffer)?;
                    if crate::table::format::payload_crc(&buffer) != crc {
                        return Err(work.damaged(&part, format!("the codes of blank block {b} fail their checksum")));
                    }
                }
            }
            drop(buffer);
            if reserve && !state.finished {
                // a build that stopped at a depth goes on to the end: the rest of its disk now
                let needed = rest_of_disk(index, &work.dir);
                check_whole_disk(index, work, needed)?;
                reserve_codes(&part, want)?;
            }
            let depth = state.depth();
            Ok((state, Some(depth)))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let leftovers = fs::read_dir(&work.dir).map_err(|e| Error::io("reading", &work.dir, e))?.count();
            if leftovers > 0 {
                return Err(Error::Checkpoint {
                    path: work.dir.clone(),
                    detail: "the work directory is not empty and holds no build of slidetable's: give an empty or new \
                             directory"
                        .into(),
                });
            }
            // the work files must fit on their disk (`SLIDETABLE_AVAILABLE_DISK` gives tests a
            // figure); a build that stops at a depth checks each level's room as it comes
            if reserve {
                check_whole_disk(index, work, disk(index.len(), cells))?;
            }
            let started = start(index, work, plan, reserve, events);
            if started.is_err() {
                // nothing half-made is left: the codes file may be as large as the table
                remove_work_files(&work.dir);
            }
            started
        }
        Err(e) => Err(Error::io("reading", &plan_path, e)),
    }
}

/// The refusal of `what` (with `hint`) when the work files need `needed` more bytes than their
/// disk has free.
fn check_disk(work: &Work, needed: u64, what: String, hint: &str) -> Result<(), Error> {
    match crate::table::lookup::available_disk(&work.dir) {
        Some(available) if available < needed => {
            Err(Error::NotEnoughDisk { what, path: work.dir.clone(), needed, available, hint: hint.into() })
        }
        _ => Ok(()),
    }
}

/// [`check_disk`] for a build that goes to the end.
fn check_whole_disk(index: &StateIndex, work: &Work, needed: u64) -> Result<(), Error> {
    let what = format!("building the {} table out of core", index.shape());
    check_disk(
        work,
        needed,
        what,
        "; give --work-dir a directory on a larger disk, or stop at a depth with --max-depth",
    )
}

/// The disk a build that goes on to the end in `dir` needs beyond what its files hold now: the
/// codes file's blocks not yet allocated, and the room [`disk`] gives the frontier files less
/// what they take.
fn rest_of_disk(index: &StateIndex, dir: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let cells = index.shape().cells() as u64;
    let table = PAYLOAD_OFFSET as u64 + payload_len(index.len());
    let fronts = disk(index.len(), cells as usize) - table;
    let (mut codes, mut files) = (0, 0);
    for e in fs::read_dir(dir).into_iter().flatten().flatten() {
        let taken = e.metadata().map_or(0, |m| m.blocks() * 512);
        if e.file_name() == "table.part" {
            codes += taken;
        } else {
            files += taken;
        }
    }
    table.saturating_sub(codes) + fronts.saturating_sub(files)
}

/// Allocates the whole codes file `part` of `len` bytes (its holes read as zeros, which no
/// merge reads: a block's first merge starts from unreached).
fn reserve_codes(part: &Path, len: u64) -> Result<(), Error> {
    let file = OpenOptions::new().write(true).open(part).map_err(|e| Error::io("opening", part, e))?;
    crate::table::format::allocate(&file, len)
        .map_err(|e| Error::io("allocating", part, crate::table::format::explain_allocation(e, len)))
}

/// Starts a build in the empty work directory: the codes file (sparse, or allocated with
/// `reserve`; every block unreached until its first merge), the goal's frontier, the
/// checkpoint, and the plan last (a directory with a plan has a checkpoint).
fn start(
    index: &StateIndex,
    work: &Work,
    plan: &str,
    reserve: bool,
    events: &mut dyn FnMut(Event),
) -> Result<(Checkpoint, Option<u32>), Error> {
    let cells = index.shape().cells();
    let block = index.len() / cells as u64;
    let part = work.path("table.part");
    let len = payload_len(index.len());
    events(Event::Preparing { bytes: len });
    {
        let file = File::create(&part).map_err(|e| Error::io("creating", &part, e))?;
        let bytes = PAYLOAD_OFFSET as u64 + len;
        file.set_len(bytes)
            .map_err(|e| Error::io("creating", &part, crate::table::format::explain_allocation(e, bytes)))?;
        drop(file);
        if reserve {
            reserve_codes(&part, bytes)?;
        }
    }
    // the goal is level 0; the other blocks of its parity have empty frontiers
    let goal = index.index(index.goal()).expect("the goal reaches itself");
    let parity = parities(index.shape(), index.goal().blank());
    let frontier = Frontier::new(block);
    for b in (0..cells).filter(|&b| parity[b] == 0) {
        frontier.clear();
        if b as u64 == goal / block {
            frontier.insert(goal % block);
        }
        write_front(work, b, 0, &frontier)?;
    }
    let state = Checkpoint {
        histogram: vec![1],
        merged: vec![0; cells],
        crcs: vec![Some(crc32_of_ones(payload_len(block))); cells],
        finished: false,
    };
    work.write_small("checkpoint", &state.text(work.plan_id))?;
    // the plan last: a directory with a plan has a checkpoint
    work.write_small("build.plan", plan)?;
    Ok((state, None))
}

/// The refusal of an out-of-core build with `available` bytes of memory, `needed` being needed.
pub fn not_enough_memory(index: &StateIndex, needed: u64, available: u64) -> Error {
    Error::NotEnoughMemory {
        what: format!("building the {} table out of core", index.shape()),
        needed,
        available,
        hint: " (it keeps three one-bit bitmaps of a blank block, or a blank block's codes and one \
               bitmap, and the move tables)"
            .into(),
    }
}

/// The refusal of a work directory whose plan (`found`, at `path`) is not `index`'s.
fn another_table(index: &StateIndex, path: &Path, found: &str) -> Error {
    let what = checked_body(found)
        .and_then(|b| {
            let mut l = b.lines().skip(1);
            Some(format!("{}, {}", l.next()?, l.next()?))
        })
        .unwrap_or_else(|| "something else".into());
    Error::Checkpoint {
        path: path.to_path_buf(),
        detail: format!(
            "the work directory holds a build of another table ({what}), not of {} goal {}; give another \
             --work-dir, or delete that one",
            index.shape(),
            index.goal()
        ),
    }
}

/// The CRC-32 of `len` bytes of 0xff.
fn crc32_of_ones(len: u64) -> u32 {
    let piece = len.min(IO_BUFFER as u64) as usize;
    let ones = vec![0xffu8; piece];
    let mut h = crc32fast::Hasher::new();
    let mut left = len;
    while left > 0 {
        let n = left.min(piece as u64) as usize;
        h.update(&ones[..n]);
        left -= n as u64;
    }
    h.finalize()
}

/// Reads block `b`'s codes from the table file into `buffer`.
fn read_block(work: &Work, file: &File, b: usize, buffer: &mut [u8]) -> Result<(), Error> {
    let at = PAYLOAD_OFFSET as u64 + b as u64 * buffer.len() as u64;
    let part = work.path("table.part");
    read_at(file, buffer, at).map_err(|e| Error::io("reading", &part, e))?;
    work.read.fetch_add(buffer.len() as u64, Relaxed);
    Ok(())
}

/// Pieces of large reads and writes, done on every core: a copy from or into the page cache
/// is then not one thread's work while the other waits.
const PIECE: usize = 8 << 20;

/// Fills `buffer` from `file` at `offset`, in pieces read in parallel.
fn read_at(file: &File, buffer: &mut [u8], offset: u64) -> std::io::Result<()> {
    use std::os::unix::fs::FileExt;
    buffer
        .par_chunks_mut(PIECE)
        .enumerate()
        .try_for_each(|(k, piece)| file.read_exact_at(piece, offset + (k * PIECE) as u64))
}

/// Writes `bytes` to `file` at `offset`, in pieces written in parallel.
fn write_at(file: &File, bytes: &[u8], offset: u64) -> std::io::Result<()> {
    use std::os::unix::fs::FileExt;
    bytes.par_chunks(PIECE).enumerate().try_for_each(|(k, piece)| file.write_all_at(piece, offset + (k * PIECE) as u64))
}

/// Writes the table file's last byte's padding, its header and checksum, and syncs it.
fn finish(index: &StateIndex, work: &Work, file: &File, histogram: &[u64]) -> Result<(), Error> {
    use std::os::unix::fs::FileExt;
    let part = work.path("table.part");
    let states = index.len();
    let len = payload_len(states);
    if !states.is_multiple_of(4) {
        let mut last = [0u8];
        let at = PAYLOAD_OFFSET as u64 + len - 1;
        file.read_exact_at(&mut last, at).map_err(|e| Error::io("reading", &part, e))?;
        last[0] &= (1u8 << (2 * (states % 4))) - 1;
        file.write_all_at(&last, at).map_err(|e| Error::io("writing", &part, e))?;
    }
    let mut crc = crc32fast::Hasher::new();
    // read and checksummed a few pieces at a time, in parallel, the pieces' checksums combined
    // in order (within the I/O buffers that `memory` counts)
    let piece = io_buffer(index.len() / index.shape().cells() as u64);
    let mut buffer = vec![0u8; (len as usize).min(3 * piece)];
    let mut at = 0u64;
    while at < len {
        let n = (len - at).min(buffer.len() as u64) as usize;
        read_at(file, &mut buffer[..n], PAYLOAD_OFFSET as u64 + at).map_err(|e| Error::io("reading", &part, e))?;
        let pieces: Vec<crc32fast::Hasher> = buffer[..n]
            .par_chunks(piece)
            .map(|piece| {
                let mut h = crc32fast::Hasher::new();
                h.update(piece);
                h
            })
            .collect();
        pieces.iter().for_each(|h| crc.combine(h));
        at += n as u64;
    }
    work.read.fetch_add(len, Relaxed);
    let header = crate::table::format::Header {
        shape: index.shape(),
        goal: index.goal().clone(),
        encoding: crate::table::format::Encoding::DistanceResidue,
        entries: states,
        max_depth: (histogram.len() - 1) as u8,
        payload_crc: crc.finalize(),
        histogram: histogram.to_vec(),
        group: Vec::new(),
    };
    file.write_all_at(&header.to_bytes(), 0).map_err(|e| Error::io("writing", &part, e))?;
    file.sync_all().map_err(|e| Error::io("writing", &part, e))
}

/// The part of an out-of-core build that does the work: a level's expansion into one target
/// block, and the merge of a block's frontier files into its codes, each reading and writing the
/// work directory's files only. Its three bitmaps (and the source frontiers it keeps for the
/// next targets, as many as its memory allows) are allocated for the expansions and reused, and
/// given up for a merge, which holds a block's codes instead. Any number of
/// workers, in any processes that see the work directory, may work for one [`Driver`] at once,
/// on different targets or blocks.
pub struct Worker {
    core: Core,
    /// Decoded source frontiers the budget leaves room for.
    slots: usize,
    /// Whether the budget holds a merge beside the expansions' bitmaps ([`Worker::merges_aside`]).
    aside: bool,
    /// The expansions' bitmaps, while the worker expands.
    bitmaps: Option<Bitmaps>,
}

/// What [`Worker::expand_beside`] did: each expansion's states (or what stopped them) and each
/// merge's checksum (or what failed).
pub type Beside = (Result<Vec<u64>, Error>, Vec<Result<u32, Error>>);

/// What a [`Worker`]'s expansions and merges share (read only: a merge may run on another
/// thread beside an expansion).
struct Core {
    index: StateIndex,
    work: Work,
    codes: File,
    block: u64,
}

/// What a [`Worker`] holds to expand.
struct Bitmaps {
    /// The target's frontier being found.
    next: Frontier,
    /// Decoded frontiers: the target's of the level before, its sources', and those it found
    /// (kept for the next level's targets, which they neighbour, and for the level after, where
    /// they are the target's frontier of the level before).
    kept: Kept,
}

impl Bitmaps {
    fn new(block: u64, slots: usize) -> Bitmaps {
        Bitmaps {
            next: Frontier::new(block),
            kept: Kept {
                cache: (0..slots).map(|_| (NONE, Frontier::new(block))).collect(),
                uses: 0,
                last_use: vec![0; slots],
            },
        }
    }
}

/// A slot of [`Kept`] that holds nothing.
const NONE: usize = usize::MAX;
/// A slot of [`Kept`] that holds the empty frontier (the level before level 0).
const EMPTY: usize = usize::MAX - 1;

/// Decoded frontiers, the least recently used given up first.
struct Kept {
    /// Each slot's frontier, tagged `depth * 65536 + block` ([`NONE`], [`EMPTY`]).
    cache: Vec<(usize, Frontier)>,
    /// Lookups so far, and the one at which each slot was last used.
    uses: u64,
    last_use: Vec<u64>,
}

impl Kept {
    /// The least recently used slot but `pinned`.
    fn oldest(&self, pinned: Option<usize>) -> usize {
        (0..self.cache.len()).filter(|&i| Some(i) != pinned).min_by_key(|&i| self.last_use[i]).expect("two slots")
    }

    /// The slot that holds block `b`'s frontier at `depth` (`None`: the empty one), read from
    /// its file into the least recently used slot but `pinned` when it is not there.
    fn fetch(
        &mut self,
        work: &Work,
        b: usize,
        depth: Option<u32>,
        block: u64,
        pinned: Option<usize>,
    ) -> Result<usize, Error> {
        self.uses += 1;
        let tag = depth.map_or(EMPTY, |d| d as usize * 65536 + b);
        let slot = match self.cache.iter().position(|(k, _)| *k == tag) {
            Some(slot) => slot,
            None => {
                let slot = self.oldest(pinned);
                self.cache[slot].0 = NONE;
                let frontier = &self.cache[slot].1;
                frontier.clear();
                if let Some(depth) = depth {
                    read_front(work, &work.front(b, depth), b, depth, block, |c, words| {
                        frontier.store_chunk(c, words)
                    })?;
                }
                self.cache[slot].0 = tag;
                slot
            }
        };
        self.last_use[slot] = self.uses;
        Ok(slot)
    }

    /// Keeps `next`, block `b`'s frontier at `depth` (its file written), in slot `slot` (the
    /// target's frontier of two levels before, used up: no source is given up for it), whose
    /// frontier becomes `next` (to be cleared before it is used).
    fn keep(&mut self, next: &mut Frontier, slot: usize, b: usize, depth: u32) {
        self.uses += 1;
        std::mem::swap(next, &mut self.cache[slot].1);
        self.cache[slot].0 = depth as usize * 65536 + b;
        self.last_use[slot] = self.uses;
    }
}

impl Worker {
    /// A worker on the build of `index`'s table in `dir` (started by a [`Driver`]), with
    /// `memory_budget` bytes to use.
    ///
    /// # Errors
    /// [`Error::NotEnoughMemory`] when `memory_budget` is less than [`memory`] needs;
    /// [`Error::Checkpoint`] when `dir` holds no build of this table; [`Error::Io`].
    pub fn new(index: &StateIndex, dir: &Path, memory_budget: u64) -> Result<Worker, Error> {
        let states = index.len();
        let cells = index.shape().cells();
        let block = states / cells as u64;
        let needed = memory(states, cells, 0);
        if needed > memory_budget {
            return Err(not_enough_memory(index, needed, memory_budget));
        }
        let plan = plan_text(index);
        let plan_path = dir.join("build.plan");
        let found = fs::read_to_string(&plan_path).map_err(|e| Error::io("reading", &plan_path, e))?;
        if found != plan {
            return Err(another_table(index, &plan_path, &found));
        }
        let work = Work::new(dir, &plan);
        let part = work.path("table.part");
        let codes =
            OpenOptions::new().read(true).write(true).open(&part).map_err(|e| Error::io("opening", &part, e))?;
        // a tenth of the budget and 8 MiB left for what the estimate does not see (the program
        // itself, its threads' stacks, the allocator's slack); in a control group whose limit is
        // the budget, half of the rest is left to the page cache, which the limit counts (the
        // frontier files just written are read back at the next level)
        let mut spare = (memory_budget / 10 * 9).saturating_sub(needed + (8 << 20));
        if crate::solver::cgroup_room().is_some_and(|room| room <= memory_budget.saturating_add(1 << 30)) {
            spare /= 2;
        }
        // a merge beside the expansions (a block's codes and a bitmap) when the budget holds it
        // and still keeps a frontier per block (half of what a level uses: its sources and its
        // targets' levels before); with fewer the reads cost more than the merges save: on the
        // 2x7 at 4G a merge aside left 4 slots instead of 7, and the build read 210.8 GB instead
        // of 178.6 GB and took 886.6 s instead of 776.0 s
        let merging = payload_len(block) + Frontier::bytes(block);
        let aside = spare >= merging && (spare - merging) / Frontier::bytes(block) + 2 >= cells as u64;
        if aside {
            spare -= merging;
        }
        // the frontiers kept beside the one being found: the target's of the level before and a
        // source's at the least, up to three levels' worth (each block's frontier once read or
        // found is then never read again)
        let slots = ((spare / Frontier::bytes(block)) as usize + 2).min(2 * cells);
        Ok(Worker { core: Core { index: index.clone(), work, codes, block }, slots, aside, bitmaps: None })
    }

    /// The work files' traffic of this worker.
    pub fn io(&self) -> DiskIo {
        self.core.work.io()
    }

    /// Whether its budget lets this worker merge blocks on another thread while it expands
    /// ([`Worker::expand_beside`]).
    pub fn merges_aside(&self) -> bool {
        self.aside
    }

    /// Runs `merges` (as [`Worker::merge`] each, on a thread of their own) while it expands
    /// level `depth` into `targets` (as [`Worker::expand`] each, calling `done(k, traffic)`
    /// after the `k`-th and stopping with [`Error::BuildCancelled`] when it returns false): the
    /// merges of one level in the background of the next's expansions (with no merges, the
    /// expansions alone, on this thread). Returns each expansion's states and each merge's
    /// checksum (or what failed), the merges waited for in any case.
    pub fn expand_beside(
        &mut self,
        depth: u32,
        targets: &[usize],
        merges: &[(usize, u32, u32)],
        done: &mut dyn FnMut(usize, DiskIo) -> bool,
    ) -> Beside {
        let (core, slots, bitmaps) = (&self.core, self.slots, &mut self.bitmaps);
        let mut expand = |bitmaps: &mut Option<Bitmaps>| -> Result<Vec<u64>, Error> {
            let mut found = Vec::with_capacity(targets.len());
            for (k, &t) in targets.iter().enumerate() {
                found.push(core.expand(bitmaps, slots, depth, t)?);
                if !done(k, core.work.io()) {
                    return Err(Error::BuildCancelled { depth });
                }
            }
            Ok(found)
        };
        if merges.is_empty() {
            return (expand(bitmaps), Vec::new());
        }
        std::thread::scope(|scope| {
            let merging = scope.spawn(|| merges.iter().map(|&(b, from, upto)| core.merge(b, from, upto)).collect());
            let expanded = expand(bitmaps);
            let crcs = merging.join().unwrap_or_else(|_| {
                merges.iter().map(|_| Err(Error::Internal("a merge's thread panicked".into()))).collect()
            });
            (expanded, crcs)
        })
    }

    /// Expands level `depth` (the frontier files of depth `depth` of the source blocks) into
    /// target block `t`: writes its frontier file of `depth + 1` and returns its number of
    /// states. A target whose file is there already (a build resumed, a task run twice) is not
    /// expanded again.
    ///
    /// # Errors
    /// [`Error::Checkpoint`] for a missing or damaged frontier file; [`Error::Io`].
    pub fn expand(&mut self, depth: u32, t: usize) -> Result<u64, Error> {
        self.core.expand(&mut self.bitmaps, self.slots, depth, t)
    }

    /// Gives block `b`'s codes the frontiers of its depths `from..=upto` (those of its parity),
    /// in the table file, and returns the checksum of its codes. Merging a file twice gives the
    /// same codes. The caller records it ([`Driver::end_merge`]).
    ///
    /// # Errors
    /// [`Error::Checkpoint`] for a missing or damaged frontier file; [`Error::Io`].
    pub fn merge(&mut self, b: usize, from: u32, upto: u32) -> Result<u32, Error> {
        // the expansions' bitmaps make room for the codes, unless the budget holds both (they
        // are allocated again, zeroed lazily by the system, for the next level's expansions)
        if !self.aside {
            self.bitmaps = None;
        }
        self.core.merge(b, from, upto)
    }
}

impl Core {
    /// [`Worker::expand`], with the worker's bitmaps (made at the first expansion, with `slots`
    /// source frontiers kept).
    fn expand(&self, bitmaps: &mut Option<Bitmaps>, slots: usize, depth: u32, t: usize) -> Result<u64, Error> {
        let out = self.work.front(t, depth + 1);
        if out.exists() {
            return Ok(read_front_header(&self.work, &out, t, depth + 1)?.0);
        }
        let step = Step::new(self.index.moves());
        let Bitmaps { next, kept } = bitmaps.get_or_insert_with(|| Bitmaps::new(self.block, slots));
        let before = kept.fetch(&self.work, t, depth.checked_sub(1), self.block, None)?;
        next.clear();
        for s in step.neighbours(t) {
            let source = kept.fetch(&self.work, s, Some(depth), self.block, Some(before))?;
            let (before, source, next) = (&kept.cache[before].1, &kept.cache[source].1, &*next);
            // one source at a time: its parts own what they write in the target (Step::parts)
            let flagged = source.flagged();
            let mut parts = Vec::new();
            step.parts(s, t, &flagged, false, &mut parts);
            parts.par_iter().with_max_len(1).for_each_init(
                || Vec::with_capacity(256),
                |pending, part| step.run_part(part, &flagged, source, &NotBefore(before), next, pending),
            );
        }
        let found = write_front(&self.work, t, depth + 1, next)?;
        kept.keep(next, before, t, depth + 1);
        Ok(found)
    }

    /// [`Worker::merge`], beside the worker's bitmaps.
    fn merge(&self, b: usize, from: u32, upto: u32) -> Result<u32, Error> {
        let parity = parities(self.index.shape(), self.index.goal().blank());
        let mut codes = vec![0u8; payload_len(self.block) as usize];
        if from == 0 {
            // a block's first merge: its place in the codes file is a hole (or what a first
            // merge cut short wrote), and the block is unreached
            codes.fill(0xff);
        } else {
            read_block(&self.work, &self.codes, b, &mut codes)?;
        }
        let frontier = Frontier::new(self.block);
        for k in (from..=upto).filter(|&k| k as usize % 2 == parity[b]) {
            let frontier = &frontier;
            frontier.clear();
            read_front(&self.work, &self.work.front(b, k), b, k, self.block, |c, words| {
                frontier.store_chunk(c, words)
            })?;
            codes.par_chunks_mut(CHUNK / 4).enumerate().for_each(|(c, piece)| {
                if frontier.is_flagged(c) {
                    let bits = frontier.chunk_words(c);
                    let mut words = [0u64; CHUNK_WORDS];
                    for (w, x) in words.iter_mut().zip(bits) {
                        *w = x.load(Relaxed);
                    }
                    settle(piece, &words[..bits.len()], (k % 3) as u8);
                }
            });
        }
        let part = self.work.path("table.part");
        write_at(&self.codes, &codes, PAYLOAD_OFFSET as u64 + b as u64 * codes.len() as u64)
            .map_err(|e| Error::io("writing", &part, e))?;
        self.work.written.fetch_add(codes.len() as u64, Relaxed);
        Ok(crate::table::format::payload_crc(&codes))
    }
}

/// Chunks per segment of a frontier file: a segment is encoded, checksummed and decoded by one
/// thread, the segments of a file in parallel (4 Mi entries, at most 514 KiB).
const SEGMENT_CHUNKS: usize = 256;
/// The largest a segment can be: its header, and every chunk's record as a bitmap.
const SEGMENT_MAX: usize = 8 + SEGMENT_CHUNKS * (8 + CHUNK_WORDS * 8);
/// Segments read or written at a time (at most 32 MiB).
const SEGMENT_BATCH: usize = 64;

/// Encodes chunks `chunks` of `frontier` (all in one segment's range) as a segment: its byte
/// length and record count, then each chunk with a state as a record: its index, its count and
/// kind, then its states in the smallest of three forms: the gaps between their offsets a byte
/// each (a gap of 255 or more as 255 and two bytes), their offsets two bytes each, or the chunk's
/// bitmap. Returns it with its states.
fn encode_segment(frontier: &Frontier, chunks: &[usize]) -> (Vec<u8>, u64) {
    let mut out = Vec::with_capacity(8 + chunks.len() * 64);
    out.extend_from_slice(&[0u8; 8]);
    let (mut states, mut records) = (0u64, 0u32);
    let mut words = [0u64; CHUNK_WORDS];
    let mut offsets: Vec<u16> = Vec::with_capacity(CHUNK);
    for &c in chunks {
        let bits = frontier.chunk_words(c);
        let n = bits.len();
        offsets.clear();
        for (k, (w, x)) in words.iter_mut().zip(bits).enumerate() {
            *w = x.load(Relaxed);
            let mut m = *w;
            while m != 0 {
                offsets.push((64 * k) as u16 + m.trailing_zeros() as u16);
                m &= m - 1;
            }
        }
        let count = offsets.len();
        if count == 0 {
            continue;
        }
        let gaps: usize = 2 + offsets.windows(2).map(|p| if p[1] - p[0] > 255 { 3 } else { 1 }).sum::<usize>();
        let kind = if 8 * n <= gaps.min(2 * count) {
            KIND_BITMAP
        } else if gaps < 2 * count {
            KIND_GAPS
        } else {
            KIND_LIST
        };
        out.write_u32::<LE>(c as u32).expect("in memory");
        out.write_u32::<LE>(count as u32 | kind << 16).expect("in memory");
        match kind {
            KIND_BITMAP => words[..n].iter().for_each(|&w| out.write_u64::<LE>(w).expect("in memory")),
            KIND_LIST => offsets.iter().for_each(|&h| out.write_u16::<LE>(h).expect("in memory")),
            _ => {
                out.write_u16::<LE>(offsets[0]).expect("in memory");
                for p in offsets.windows(2) {
                    let gap = p[1] - p[0];
                    if gap >= 255 {
                        out.push(255);
                        out.write_u16::<LE>(gap).expect("in memory");
                    } else {
                        out.push(gap as u8);
                    }
                }
            }
        }
        states += count as u64;
        records += 1;
    }
    let body = (out.len() - 8) as u32;
    LE::write_u32(&mut out[..4], body);
    LE::write_u32(&mut out[4..8], records);
    (out, states)
}

/// Writes `frontier` as block `b`'s frontier file of `depth` (temporary name, then renamed):
/// its header, then its segments, encoded in parallel; returns its number of states.
fn write_front(work: &Work, b: usize, depth: u32, frontier: &Frontier) -> Result<u64, Error> {
    let path = work.front(b, depth);
    let tmp = work.dir.join(format!("front-{b:02}-{depth:04}.tmp"));
    let file = File::create(&tmp).map_err(|e| Error::io("creating", &tmp, e))?;
    let io = |e| Error::io("writing", &tmp, e);
    let flagged = frontier.flagged();
    let segments: Vec<&[usize]> = flagged.chunk_by(|a, b| a / SEGMENT_CHUNKS == b / SEGMENT_CHUNKS).collect();
    let mut crc = crc32fast::Hasher::new();
    let (mut states, mut body) = (0u64, 0u64);
    for batch in segments.chunks(SEGMENT_BATCH) {
        let encoded: Vec<(Vec<u8>, u64, crc32fast::Hasher)> = batch
            .par_iter()
            .map(|chunks| {
                let (bytes, n) = encode_segment(frontier, chunks);
                let mut h = crc32fast::Hasher::new();
                h.update(&bytes);
                (bytes, n, h)
            })
            .collect();
        // each segment written at its place, in parallel
        let mut at = FRONT_HEADER as u64 + body;
        let mut places = Vec::with_capacity(encoded.len());
        for (bytes, n, h) in &encoded {
            places.push(at);
            at += bytes.len() as u64;
            crc.combine(h);
            states += n;
        }
        body = at - FRONT_HEADER as u64;
        encoded
            .par_iter()
            .zip(places)
            .try_for_each(|((bytes, ..), at)| {
                use std::os::unix::fs::FileExt;
                file.write_all_at(bytes, at)
            })
            .map_err(io)?;
    }
    let mut header = [0u8; FRONT_HEADER];
    header[..8].copy_from_slice(FRONT_MAGIC);
    LE::write_u32(&mut header[8..], work.plan_id);
    LE::write_u32(&mut header[12..], b as u32);
    LE::write_u32(&mut header[16..], depth);
    LE::write_u64(&mut header[20..], states);
    LE::write_u64(&mut header[28..], segments.len() as u64);
    LE::write_u64(&mut header[36..], body);
    LE::write_u32(&mut header[44..], crc.finalize());
    let head_crc = crc32fast::hash(&header[..48]);
    LE::write_u32(&mut header[48..], head_crc);
    {
        use std::os::unix::fs::FileExt;
        file.write_all_at(&header, 0).map_err(io)?;
    }
    drop(file);
    fs::rename(&tmp, &path).map_err(|e| Error::io("renaming to", &path, e))?;
    work.written.fetch_add(FRONT_HEADER as u64 + body, Relaxed);
    Ok(states)
}

/// Reads and checks the header of block `b`'s frontier file of `depth`: (states, segments, body
/// length, body checksum).
fn read_front_header(work: &Work, path: &Path, b: usize, depth: u32) -> Result<(u64, u64, u64, u32), Error> {
    let mut file = open_front(work, path)?;
    let mut header = [0u8; FRONT_HEADER];
    file.read_exact(&mut header).map_err(|_| work.damaged(path, "its header is cut short"))?;
    parse_front_header(work, path, &header, b, depth, file.metadata().map(|m| m.len()).unwrap_or(0))
}

fn open_front(work: &Work, path: &Path) -> Result<File, Error> {
    File::open(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            work.damaged(path, "it is missing")
        } else {
            Error::io("opening", path, e)
        }
    })
}

fn parse_front_header(
    work: &Work,
    path: &Path,
    header: &[u8; FRONT_HEADER],
    b: usize,
    depth: u32,
    file_len: u64,
) -> Result<(u64, u64, u64, u32), Error> {
    if &header[..8] != FRONT_MAGIC || crc32fast::hash(&header[..48]) != LE::read_u32(&header[48..]) {
        return Err(work.damaged(path, "its header is not a frontier file's"));
    }
    if LE::read_u32(&header[8..]) != work.plan_id
        || LE::read_u32(&header[12..]) != b as u32
        || LE::read_u32(&header[16..]) != depth
    {
        return Err(work.damaged(path, "it belongs to another build, block or depth"));
    }
    let body = LE::read_u64(&header[36..]);
    if file_len != FRONT_HEADER as u64 + body {
        return Err(work.damaged(path, format!("it has {file_len} bytes, not {}", FRONT_HEADER as u64 + body)));
    }
    Ok((LE::read_u64(&header[20..]), LE::read_u64(&header[28..]), body, LE::read_u32(&header[44..])))
}

/// Decodes one segment (its header included), calling `f(chunk, words)` for each record; returns
/// its states, or what is wrong with it.
fn decode_segment(bytes: &[u8], block: u64, f: &(impl Fn(usize, &[u64]) + Sync)) -> Result<u64, &'static str> {
    let chunks = block.div_ceil(CHUNK as u64);
    let last_words = (block as usize).div_ceil(64) - (chunks as usize - 1) * CHUNK_WORDS;
    let records = LE::read_u32(&bytes[4..8]);
    let mut at = 8;
    let mut take = |n: usize| -> Result<&[u8], &'static str> {
        let piece = bytes.get(at..at + n).ok_or("a segment is cut short")?;
        at += n;
        Ok(piece)
    };
    let mut words = [0u64; CHUNK_WORDS];
    let mut seen = 0u64;
    let mut previous: Option<usize> = None;
    for _ in 0..records {
        let head = take(8)?;
        let c = LE::read_u32(head) as usize;
        let count = (LE::read_u32(&head[4..]) & 0xffff) as usize;
        let kind = LE::read_u32(&head[4..]) >> 16;
        if c as u64 >= chunks || count == 0 || count > CHUNK || previous.is_some_and(|p| p >= c) {
            return Err("a chunk record is out of range");
        }
        previous = Some(c);
        let n = if c as u64 == chunks - 1 { last_words } else { CHUNK_WORDS };
        let limit = (64 * n).min((block - (c * CHUNK) as u64) as usize);
        words.fill(0);
        let mut put = |h: usize| -> Result<(), &'static str> {
            if h >= limit {
                return Err("an offset is out of range");
            }
            words[h / 64] |= 1 << (h % 64);
            Ok(())
        };
        match kind {
            KIND_BITMAP => {
                let raw = take(8 * n)?;
                for (k, w) in words[..n].iter_mut().enumerate() {
                    *w = LE::read_u64(&raw[8 * k..]);
                }
                if n == last_words && limit < 64 * n && words[limit / 64] >> (limit % 64) != 0 {
                    return Err("an offset is out of range");
                }
            }
            KIND_LIST => {
                let list = take(2 * count)?;
                for k in 0..count {
                    put(LE::read_u16(&list[2 * k..]) as usize)?;
                }
            }
            KIND_GAPS => {
                let mut h = LE::read_u16(take(2)?) as usize;
                put(h)?;
                for _ in 1..count {
                    let gap = match take(1)?[0] {
                        255 => LE::read_u16(take(2)?) as usize,
                        g => g as usize,
                    };
                    if gap == 0 {
                        return Err("a gap is zero");
                    }
                    h += gap;
                    put(h)?;
                }
            }
            _ => return Err("a chunk record is of no known kind"),
        }
        let got: u64 = words.iter().map(|w| w.count_ones() as u64).sum();
        if got != count as u64 {
            return Err("a chunk's count is wrong");
        }
        seen += got;
        f(c, &words[..n]);
    }
    if at != bytes.len() {
        return Err("a segment is longer than its records");
    }
    Ok(seen)
}

/// Reads block `b`'s frontier file of `depth`, calling `f(chunk, words)` (from several threads
/// at once) for each chunk with states in it, and checks it whole (its checksum, its counts, its
/// chunks in range). When it fails, what `f` was given must not be used: every caller here fails
/// the build then.
fn read_front(
    work: &Work,
    path: &Path,
    b: usize,
    depth: u32,
    block: u64,
    f: impl Fn(usize, &[u64]) + Sync,
) -> Result<u64, Error> {
    let mut file = open_front(work, path)?;
    let len = file.metadata().map_err(|e| Error::io("opening", path, e))?.len();
    let mut header = [0u8; FRONT_HEADER];
    file.read_exact(&mut header).map_err(|_| work.damaged(path, "its header is cut short"))?;
    let (states, segments, body, body_crc) = parse_front_header(work, path, &header, b, depth, len)?;
    let file = file;
    // where the segments are: their headers, one small read each
    let mut places = Vec::with_capacity(segments.min(1 << 20) as usize);
    let mut at = FRONT_HEADER as u64;
    for _ in 0..segments {
        let mut head = [0u8; 8];
        {
            use std::os::unix::fs::FileExt;
            file.read_exact_at(&mut head, at).map_err(|_| work.damaged(path, "it is cut short"))?;
        }
        let n = 8 + LE::read_u32(&head) as usize;
        if n > SEGMENT_MAX || at + n as u64 > len {
            return Err(work.damaged(path, "a segment's length is out of range"));
        }
        places.push((at, n));
        at += n as u64;
    }
    if at != len {
        return Err(work.damaged(path, "it is longer than its segments"));
    }
    let mut crc = crc32fast::Hasher::new();
    let mut seen = 0u64;
    for batch in places.chunks(SEGMENT_BATCH) {
        let decoded: Vec<Result<(u64, crc32fast::Hasher), &'static str>> = batch
            .par_iter()
            .map(|&(at, n)| {
                use std::os::unix::fs::FileExt;
                let mut bytes = vec![0u8; n];
                file.read_exact_at(&mut bytes, at).map_err(|_| "it cannot be read whole")?;
                let mut h = crc32fast::Hasher::new();
                h.update(&bytes);
                Ok((decode_segment(&bytes, block, &f)?, h))
            })
            .collect();
        for d in decoded {
            let (n, h) = d.map_err(|what| work.damaged(path, what))?;
            seen += n;
            crc.combine(&h);
        }
    }
    if crc.finalize() != body_crc || seen != states {
        return Err(work.damaged(path, "its checksum is wrong"));
    }
    work.read.fetch_add(FRONT_HEADER as u64 + body, Relaxed);
    Ok(states)
}
