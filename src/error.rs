//! The library's one error type.

use std::io;
use std::path::{Path, PathBuf};

use crate::puzzle::board::{Board, Shape};

/// Everything that can go wrong in slidetable. Messages are one line and say what to do.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A board shape outside what the operation supports.
    #[error("bad board shape {0}")]
    BadShape(String),

    /// A board that is not a valid arrangement of tiles.
    #[error("bad board: {0}")]
    BadBoard(#[from] BoardError),

    /// A goal that is neither a goal name nor a valid board.
    #[error("bad goal: {0}")]
    BadGoal(String),

    /// A perfect table was asked for a board with too many cells.
    #[error(
        "a perfect table for {shape} would have {cells}!/2 entries; tables go up to 15 cells \
         (2x2 2x3 3x2 2x4 4x2 3x3 2x5 5x2 2x6 6x2 3x4 4x3, and at two bits a state 2x7 7x2 3x5 5x3)"
    )]
    TableTooLarge {
        /// The shape asked for.
        shape: Shape,
        /// Its number of cells.
        cells: usize,
    },

    /// A build that would not fit in the memory this process may use, refused before it starts.
    #[error("{what} needs {} of memory at its peak, but only {} is available{hint}", gib(*needed), gib(*available))]
    NotEnoughMemory {
        /// What was to be done ("building the 2x7 table at two bits a state").
        what: String,
        /// Bytes it needs.
        needed: u64,
        /// Bytes available (the machine's, or its control group's).
        available: u64,
        /// What to do instead, with its leading "; ", or empty.
        hint: String,
    },

    /// Memory the system would not give, although the machine's free memory looked enough: a
    /// limit on this process (`ulimit -v`, a container's) is lower.
    #[error("{what}: the system would not give it {} of memory (a limit on this process, such as `ulimit -v` or a container's, is below the {} the machine has free){hint}", gib(*bytes), gib(*available))]
    MemoryRefused {
        /// What was to be done ("building the 2x7 table in memory").
        what: String,
        /// Bytes asked for.
        bytes: u64,
        /// Bytes the machine has available.
        available: u64,
        /// What to do instead, with its leading "; ", or empty.
        hint: String,
    },

    /// A build whose work files would not fit on the disk of their directory, refused before it
    /// starts.
    #[error("{what} needs {} of disk in {} at its peak, but only {} is free there{hint}", gb(*needed), path.display(), gb(*available))]
    NotEnoughDisk {
        /// What was to be done ("building the 3x5 table out of core").
        what: String,
        /// The directory.
        path: PathBuf,
        /// Bytes it needs.
        needed: u64,
        /// Bytes free there.
        available: u64,
        /// What to do instead, with its leading "; ", or empty.
        hint: String,
    },

    /// An out-of-core build stopped before it finished, its work kept for a later run.
    #[error("the build was stopped after depth {depth}; the levels done are kept in {}: run the same command to resume", dir.display())]
    BuildInterrupted {
        /// The last depth complete.
        depth: u32,
        /// The work directory.
        dir: PathBuf,
    },

    /// A board whose shape is not the table's.
    #[error("the board is {board} ({} cells) but the table is for {table} ({} cells): pass the table for {board} with --table, or build it with `table build --board {board}`", board.cells(), table.cells())]
    ShapeMismatch {
        /// The board's shape.
        board: Shape,
        /// The table's shape.
        table: Shape,
    },

    /// Reading or writing a file failed.
    #[error("{action} {}: {source}", path.display())]
    Io {
        /// What was being done ("reading", "writing", ...).
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        source: io::Error,
    },

    /// The file does not start with the table magic bytes.
    #[error("not a slidetable table file (bad magic bytes)")]
    BadMagic,

    /// The file was written by another version of the format.
    #[error("table format version {found} is not supported (this build reads version {expected}): rebuild it with `table build`")]
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
        /// The version this build reads and writes.
        expected: u32,
    },

    /// The header is inconsistent or damaged.
    #[error("corrupt table header: {0}; rebuild it with `table build`")]
    CorruptHeader(String),

    /// A table file of another kind than the one asked for (a pattern table where a perfect table
    /// is needed, or the reverse).
    #[error("this is {found}, not {expected}")]
    WrongKind {
        /// What was needed.
        expected: &'static str,
        /// What the file is.
        found: String,
    },

    /// The file is shorter or longer than its header says.
    #[error("table file is {found} bytes but its header says {expected}: the file is truncated or damaged; rebuild it with `table build`")]
    WrongLength {
        /// Bytes the header calls for.
        expected: u64,
        /// Bytes present.
        found: u64,
    },

    /// The payload does not match its checksum.
    #[error("table payload checksum mismatch (header {expected:08x}, payload {found:08x}): the file is damaged; rebuild it with `table build`")]
    ChecksumMismatch {
        /// The CRC-32 in the header.
        expected: u32,
        /// The CRC-32 of the payload as read.
        found: u32,
    },

    /// A table entry contradicts the distance function (found by a query or by `verify`).
    #[error("the table is corrupt at index {index} ({board}): {detail}; run `table verify` and rebuild it with `table build`")]
    Corrupt {
        /// The entry's index.
        index: u64,
        /// The state at that index, written out.
        board: String,
        /// What is wrong with it.
        detail: String,
    },

    /// A search option out of range (a weight, a limit).
    #[error("{0}")]
    BadOption(String),

    /// A search was stopped through its [`crate::search::Watch`].
    #[error("the search was cancelled ({generated} nodes generated)")]
    Cancelled {
        /// Nodes generated when it stopped.
        generated: u64,
    },
    /// A build was stopped (its stop flag set) before it finished; nothing was written.
    #[error("the build was cancelled after depth {depth}; no table was written")]
    BuildCancelled {
        /// The last depth completed.
        depth: u32,
    },
    /// A search's checkpoint file that cannot be resumed from (damaged, of another version, or
    /// of another search).
    #[error("{}: {detail}", path.display())]
    Checkpoint {
        /// The file.
        path: PathBuf,
        /// What is wrong with it and what to do.
        detail: String,
    },
    /// A search stopped at a limit before finding a solution.
    #[error("{}", limit_message(algorithm, what, *generated, *bytes, Advice::default()))]
    SearchLimit {
        /// Which limit.
        what: String,
        /// Nodes generated when it stopped.
        generated: u64,
        /// The most bytes the search held.
        bytes: u64,
        /// The algorithm's name.
        algorithm: &'static str,
    },

    /// A batch search ran out of boards to expand: every board left had the estimate `+inf`,
    /// which marks a dead end (the goal was not among the boards it reached).
    #[error("{algorithm} found no solution: every board left to expand had the estimate +inf, which marks a dead end ({generated} nodes generated, {dead_ends} dead ends); a heuristic must give +inf only to boards that cannot reach the goal")]
    DeadEnds {
        /// The algorithm's name.
        algorithm: &'static str,
        /// Nodes generated when it stopped.
        generated: u64,
        /// Boards given `+inf`.
        dead_ends: u64,
    },

    /// A sample asked for more states at a depth than the table holds there.
    #[error("the table has {available} states at depth {depth}, so {requested} distinct ones cannot be drawn; ask for at most {available}, or another depth (`table stats` lists them)")]
    NotEnoughStates {
        /// The depth asked for.
        depth: u8,
        /// States asked for.
        requested: u64,
        /// States at that depth.
        available: u64,
    },

    /// A count does not fit in its integer type.
    #[error("{0} overflows its counter")]
    Overflow(&'static str),

    /// An error about one file, with what was being done to it: `opening x.table: ...`.
    #[error("{}", in_file_message(action, path, source))]
    InFile {
        /// What was being done ("opening", "checking").
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: Box<Error>,
    },

    /// A perfect table file for another board shape than the one asked about.
    #[error("{} is a {table} table: {}", path.display(), Error::ShapeMismatch { board: *board, table: *table })]
    TableShape {
        /// The file.
        path: PathBuf,
        /// The board's shape.
        board: Shape,
        /// The table's shape.
        table: Shape,
    },

    /// Pattern tables a search needs are not in their folder (and are too large to build on the
    /// spot, or were not to be built).
    #[error("no pattern table at {}: build the tables with `{command}`", paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "))]
    MissingTables {
        /// The missing files.
        paths: Vec<PathBuf>,
        /// The `table build` command that makes them (the command line's words).
        command: String,
        /// The partition whose tables they are, as named (`7-8`, `1,2,3/4,5,6`): with `dir`,
        /// the facts another front end words its own way to build them.
        partition: String,
        /// The folder they belong in.
        dir: PathBuf,
    },

    /// A file under a pattern table's name that is not that table (another group, goal or board).
    #[error(
        "{} is {}, not the table of tiles {:?} for goal {}; rebuild it with `{}`",
        .0.path.display(), .0.found, .0.tiles, .0.goal, .0.command
    )]
    WrongPatternTable(Box<PatternTableMismatch>),

    /// A check of the library's own answer failed: a bug, to be reported.
    #[error("internal check failed: {0}; please report this")]
    Internal(String),
}

/// The facts of [`Error::WrongPatternTable`] (boxed there, so that every `Result` of the library
/// stays small).
#[derive(Debug)]
pub struct PatternTableMismatch {
    /// The file.
    pub path: PathBuf,
    /// What the file is, as its header describes it.
    pub found: String,
    /// The group whose table belongs under that name.
    pub tiles: Vec<u16>,
    /// The goal it should be for.
    pub goal: Board,
    /// The `table build` command that makes the right tables (the command line's words).
    pub command: String,
    /// The partition being loaded, as named: with `dir`, the facts another front end words its
    /// own way to rebuild the tables.
    pub partition: String,
    /// The folder of the tables.
    pub dir: PathBuf,
}

/// What is wrong with a board's text or tiles.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardError {
    /// No tiles at all.
    #[error("no tiles given")]
    Empty,
    /// A token that is not a tile number.
    #[error("`{0}` is not a tile number (use numbers, with 0, _ or . for the blank)")]
    NotANumber(String),
    /// The wrong number of cells for the shape.
    #[error("{found} tiles given, but a {shape} board has {expected} cells")]
    WrongCount {
        /// Tiles given.
        found: usize,
        /// Cells the shape has.
        expected: usize,
        /// The shape.
        shape: Shape,
    },
    /// A row, of those the text gives with `/` or line breaks, that does not hold a row's worth of
    /// tiles (`1 2 3 / 4 5 / 6 7 8 0` for 3x3).
    #[error("row {row} has {found} {}, but a {shape} board's rows have {expected}", if *found == 1 { "tile" } else { "tiles" })]
    RowLength {
        /// The row (1-based, rows without tiles not counted).
        row: usize,
        /// Tiles in it.
        found: usize,
        /// Tiles a row of the shape has: its number of columns.
        expected: usize,
        /// The shape.
        shape: Shape,
    },
    /// A tile number too large for the board.
    #[error("tile {tile} is out of range: a {shape} board has tiles 1 to {max} and the blank 0")]
    OutOfRange {
        /// The tile as given.
        tile: u64,
        /// The largest tile of the shape.
        max: usize,
        /// The shape.
        shape: Shape,
    },
    /// A tile given twice.
    #[error("{}", if *tile == 0 { "the blank (0, _ or .) appears more than once: a board has one blank".to_string() } else { format!("tile {tile} appears more than once") })]
    Duplicate {
        /// The repeated tile (0 is the blank).
        tile: usize,
    },
    /// Text that parses, but not as its writer meant: the message says what to type instead.
    #[error("{0}")]
    Misread(String),
    /// A puzzle file that does not follow the COS 226 format.
    #[error("{0}")]
    BadFile(String),
}

impl Error {
    /// A search stopped at a limit ([`Error::SearchLimit`]), said with advice that fits the
    /// search: `heuristic` is its guide's command-line name ([`Guide::name`](crate::search::Guide::name):
    /// `pdb` is not offered pattern tables again, nor `table`, the exact distance, a stronger
    /// heuristic; `none` for breadth-first search), `resumable` when a checkpoint could take it on
    /// (not in a batch, which takes none). `None` for any other error. The error's own message
    /// assumes a classic heuristic and a checkpoint.
    pub fn limit_message(&self, heuristic: &str, resumable: bool) -> Option<String> {
        match self {
            Error::SearchLimit { what, generated, bytes, algorithm } => {
                Some(limit_message(algorithm, what, *generated, *bytes, Advice { heuristic, resumable }))
            }
            _ => None,
        }
    }

    /// Wraps an I/O error with what was being done to which file.
    pub fn io(action: &'static str, path: impl Into<PathBuf>, source: io::Error) -> Error {
        Error::Io { action, path: path.into(), source }
    }

    /// Wraps an error with what was being done to which file ([`Error::InFile`]).
    pub fn in_file(action: &'static str, path: impl Into<PathBuf>, source: Error) -> Error {
        Error::InFile { action, path: path.into(), source: Box::new(source) }
    }
}

/// `ACTION PATH: SOURCE`, or the source alone when it already starts with `ACTION PATH`
/// (`opening x: opening x: denied` would say it twice).
fn in_file_message(action: &str, path: &Path, source: &Error) -> String {
    let head = format!("{action} {}", path.display());
    let inner = source.to_string();
    if inner.starts_with(&head) {
        inner
    } else {
        format!("{head}: {inner}")
    }
}

/// Bytes in decimal gigabytes, as disks are sold.
fn gb(bytes: u64) -> String {
    match bytes {
        100_000_000.. => format!("{:.1} GB", bytes as f64 / 1e9),
        100_000.. => format!("{:.1} MB", bytes as f64 / 1e6),
        _ => format!("{:.1} kB", bytes as f64 / 1e3),
    }
}

/// Bytes as MiB or GiB with one decimal, for messages.
fn gib(bytes: u64) -> String {
    if bytes < 1 << 30 {
        return format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64);
    }
    format!("{:.1} GiB", bytes as f64 / (1u64 << 30) as f64)
}

/// What the advice of a search stopped at a limit may assume: see [`Error::limit_message`].
#[derive(Clone, Copy)]
struct Advice<'a> {
    /// The guide's command-line name.
    heuristic: &'a str,
    /// A checkpoint could take the search on.
    resumable: bool,
}

impl Default for Advice<'_> {
    /// Nothing known of the search: a classic heuristic, and a checkpoint.
    fn default() -> Self {
        Advice { heuristic: "manhattan", resumable: true }
    }
}

/// The message of [`Error::SearchLimit`]: what stopped the search, and what else to try, in the
/// command line's words (another algorithm only when it is not the one that gave up, as the Python
/// package's message).
fn limit_message(algorithm: &str, what: &str, generated: u64, bytes: u64, advice: Advice) -> String {
    // the limit met, by its option
    let (raise, nodes) = if what.contains("memory") {
        ("raise `--max-memory`", false)
    } else if what.contains("time limit") {
        ("raise `--time-limit`", false)
    } else if what.contains("node") {
        ("raise `--max-nodes`", true)
    } else {
        ("raise the limit", false)
    };
    // a stronger heuristic, where there is one
    let stronger = match advice.heuristic {
        "table" => None,
        "pdb" => Some("a stronger heuristic (a larger `--pattern`)"),
        _ => Some("a stronger heuristic (`-H pdb`, a larger `--pattern`)"),
    };
    let mut instead = match (algorithm, stronger) {
        ("bfs", _) => "or search with a heuristic (`--algorithm idastar`, memory linear in the solution)".to_string(),
        ("idastar", Some(h)) => format!("or search with {h}"),
        ("astar-ida", Some(_)) => "or search with a stronger heuristic (a larger `--pattern`)".to_string(),
        ("bwas", Some(_)) => "or try a larger batch size or weight, or a stronger heuristic".to_string(),
        ("bwas", None) => "or try a larger batch size or weight".to_string(),
        ("within", Some(h)) => format!("or allow a larger factor (`--within`), or search with {h}"),
        ("within", None) => "or allow a larger factor (`--within`)".to_string(),
        ("idastar" | "astar-ida", None) => String::new(),
        (_, Some(_)) => {
            "or try `--algorithm idastar` (memory linear in the solution) or a stronger heuristic".to_string()
        }
        (_, None) => "or try `--algorithm idastar` (memory linear in the solution)".to_string(),
    };
    if algorithm == "astar-ida" && advice.resumable {
        if !instead.is_empty() {
            instead.push_str("; ");
        }
        instead.push_str(
            "with `--checkpoint`, a search stopped in its IDA* part goes on from where it stopped when run again",
        );
        if nodes {
            instead.push_str(" (its `--max-nodes` counts the earlier runs' nodes too)");
        }
    }
    let instead = if instead.is_empty() { String::new() } else { format!(", {instead}") };
    format!(
        "{algorithm} gave up at {what} ({generated} nodes generated, {} MiB held) without a solution: {raise}{instead}",
        bytes / (1 << 20)
    )
}
