//! `slidetable._core`: the slidetable library for Python.
//!
//! This crate converts and calls; it decides nothing about puzzles. Boards arrive as C-contiguous
//! numpy arrays of one row per board (the Python layer in `python/slidetable/__init__.py` normalises any
//! integer array to that), go to the library's batch calls (`slidetable::arrays`), and come back
//! as numpy arrays. Every call that can take more than a moment releases the GIL; the long ones
//! (builds, searches, grading) run on a worker thread while this thread watches for Ctrl-C and
//! stops them through the library's cancel switch ([`slidetable::search::Watch`]).
//!
//! Errors keep the library's facts: a bad board or argument is a `ValueError`, a damaged table
//! file a `TableError` (a `ValueError`), a missing or unreadable file an `OSError`, a search that
//! hit its limit a `SearchLimitError`. Their hints speak Python ([`message`]): where the library
//! carries the facts (a search's limit and algorithm, missing tables' partition and folder) the
//! hint is worded here from them; the rest of the library's command-line words (`--pattern 7-8`,
//! `` `table build ...` ``) are translated to the argument or call a Python user would write.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use pyo3::create_exception;
use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyKeyboardInterrupt, PyMemoryError, PyNotADirectoryError, PyOSError,
    PyPermissionError, PyRuntimeError, PyValueError,
};
use pyo3::prelude::*;

mod lab;
mod ooc;
mod pool;
mod puzzle;
mod search;
mod table;

// named in the package a user imports them from (`slidetable.TableError` in a traceback, not
// `_core.TableError`), where `slidetable/__init__.py` re-exports them
create_exception!(
    slidetable,
    TableError,
    PyValueError,
    "A table file that is damaged, truncated, of another kind or version, or whose entries contradict each other."
);
create_exception!(
    slidetable,
    SearchLimitError,
    PyRuntimeError,
    "A search stopped before finding a solution: at its node or memory limit, or (a batch search) with every board left a dead end (estimated +inf). Its `generated` attribute holds the nodes generated."
);

/// The library's error as the Python exception a user expects, with the library's message.
pub(crate) fn error(e: slidetable::Error) -> PyErr {
    use slidetable::Error as E;
    let text = message(&e);
    // the kind is the innermost error's (a file that could not be opened is an OSError whatever
    // was being done with it); the message is the whole chain's
    let mut e = e;
    while let E::InFile { source, .. } = e {
        e = *source;
    }
    match e {
        E::Io { source, .. } => match source.kind() {
            std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(text),
            std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(text),
            std::io::ErrorKind::IsADirectory => PyIsADirectoryError::new_err(text),
            std::io::ErrorKind::NotADirectory => PyNotADirectoryError::new_err(text),
            _ => PyOSError::new_err(text),
        },
        E::BadMagic
        | E::UnsupportedVersion { .. }
        | E::CorruptHeader(_)
        | E::WrongKind { .. }
        | E::WrongLength { .. }
        | E::ChecksumMismatch { .. }
        | E::Corrupt { .. } => TableError::new_err(text),
        E::SearchLimit { generated, bytes, .. } => search_stopped(text, generated, Some(bytes)),
        E::DeadEnds { generated, .. } => search_stopped(text, generated, None),
        E::Cancelled { .. } | E::BuildCancelled { .. } => PyKeyboardInterrupt::new_err(text),
        E::NotEnoughMemory { .. } | E::MemoryRefused { .. } => PyMemoryError::new_err(text),
        _ => PyValueError::new_err(text),
    }
}

/// A `SearchLimitError` carrying the search's figures as attributes (`generated`, and `bytes`
/// where a limit was met), so a batch can report them for the boards that failed.
fn search_stopped(text: String, generated: u64, bytes: Option<u64>) -> PyErr {
    Python::attach(|py| {
        let e = SearchLimitError::new_err(text);
        let value = e.value(py);
        let _ = value.setattr("generated", generated);
        let _ = value.setattr("bytes", bytes);
        e
    })
}

/// The library's error message in a Python caller's words: the same facts, with every hint that
/// names a command-line flag or `table` command naming the Python argument or call instead.
pub(crate) fn message(e: &slidetable::Error) -> String {
    use slidetable::Error as E;
    match e {
        E::SearchLimit { what, generated, bytes, algorithm } => search_limit(what, *generated, *bytes, algorithm),
        E::MissingTables { paths, partition, dir, .. } => format!(
            "no pattern table at {}: build the tables with `{}`",
            paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "),
            build_call(partition, Some(&dir.display().to_string()))
        ),
        E::WrongPatternTable(m) => format!(
            "{} is {}, not the table of tiles {:?} for goal {}; rebuild it with `{}`",
            m.path.display(),
            m.found,
            m.tiles,
            m.goal,
            build_call(&m.partition, Some(&m.dir.display().to_string()))
        ),
        E::InFile { action, path, source } => {
            // as the library's own `ACTION PATH: SOURCE`, never saying the head twice
            let head = format!("{action} {}", path.display());
            let inner = message(source);
            if inner.starts_with(&head) {
                inner
            } else {
                format!("{head}: {inner}")
            }
        }
        other => python_words(&other.to_string()),
    }
}

/// A search's limit in Python words, suggesting another algorithm only when it is not the one
/// that gave up.
fn search_limit(what: &str, generated: u64, bytes: u64, algorithm: &str) -> String {
    let raise = if what.contains("memory") {
        "raise max_memory="
    } else if what.contains("nodes") {
        "raise max_nodes="
    } else if what.contains("time limit") {
        "raise time_limit="
    } else {
        "split the work"
    };
    let instead = match algorithm {
        "idastar" => "or search with a stronger heuristic (heuristic=\"pdb\", a larger partition=)",
        "astar-ida" => {
            "or search with a stronger heuristic (a larger partition=); with checkpoint=, a search \
             stopped in its IDA* part goes on from where it stopped when run again (its max_nodes= counts \
             the earlier runs' nodes too)"
        }
        "bwas" => "or try a larger batch_size= or weight=, or a stronger heuristic",
        "within" => "or allow a larger within=, or search with a stronger heuristic (heuristic=\"pdb\")",
        _ => "or try algorithm=\"idastar\" (memory linear in the solution) or a stronger heuristic",
    };
    format!(
        "{algorithm} gave up at {what} ({generated} nodes generated, {} MiB held) without a solution: {raise}, {instead}",
        bytes / (1 << 20)
    )
}

/// A Python string literal of `s`.
fn py_str(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// `PatternDB.build(puzzle, "7-8", dir="tables")`, the `dir` left out when it is the default.
fn build_call(partition: &str, dir: Option<&str>) -> String {
    match dir {
        Some(d) if d != "." && !d.is_empty() => {
            format!("PatternDB.build(puzzle, {}, dir={})", py_str(partition), py_str(d))
        }
        _ => format!("PatternDB.build(puzzle, {})", py_str(partition)),
    }
}

/// The words of a whole `table ...` command line, split as a shell would (single quotes kept
/// together: a custom goal).
fn shell_words(cmd: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in cmd.chars() {
        match c {
            '\'' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// A `table ...` command line as the Python call that does the same; `dir`: the tables' folder
/// an earlier command of the same message named (a search after a build uses its tables).
fn python_call(cmd: &str, dir: Option<&str>) -> String {
    let words = shell_words(cmd);
    let flag = |name: &str| words.iter().position(|w| w == name).and_then(|i| words.get(i + 1)).cloned();
    let puzzle = || match (flag("--board"), flag("--goal")) {
        (Some(b), goal) => {
            let (r, c) = b.split_once('x').unwrap_or((&b, &b));
            match goal {
                Some(g) => format!("Puzzle({r}, {c}, {})", py_str(&g)),
                None => format!("Puzzle({r}, {c})"),
            }
        }
        _ => "puzzle".to_string(),
    };
    match words.get(1).map(String::as_str) {
        Some("build") => match (flag("--pattern"), flag("--prune")) {
            (Some(p), _) if p == "list" => "PatternDB.partitions(puzzle)".into(),
            (Some(p), _) => build_call(&p, flag("--dir").as_deref()),
            (None, Some(len)) => match flag("--dir") {
                Some(d) => format!("PatternDB.build_pruner(puzzle, {len}, dir={})", py_str(&d)),
                None => format!("PatternDB.build_pruner(puzzle, {len})"),
            },
            // a damaged file of either kind: the word inside the caller's backticks closes the second call
            (None, None) if words.len() == 2 => {
                "Table.build(puzzle, path)` or `PatternDB.build(puzzle, partition, dir=...)".to_string()
            }
            (None, None) => format!("Table.build({}, path)", puzzle()),
        },
        Some("verify") => "Table.verify()".into(),
        Some("stats") => "Table.histogram()".into(),
        Some("solve") => match (flag("--pattern"), flag("--dir").as_deref().or(dir)) {
            (Some(p), Some(d)) if d != "." => format!("Solver(puzzle, partition={}, dir={})", py_str(&p), py_str(d)),
            (Some(p), _) => format!("Solver(puzzle, partition={})", py_str(&p)),
            (None, _) => "Solver(puzzle).solve(board)".into(),
        },
        _ => cmd.to_string(),
    }
}

/// Command-line flags outside a quoted command, as Python arguments: `--pattern 7-8` as
/// `partition="7-8"`, `-H pdb` as `heuristic="pdb"`, a bare `--max-memory` as `max_memory=`.
fn python_flags(text: &str) -> String {
    const PHRASES: [(&str, &str); 9] = [
        ("an empty --pattern:", "an empty partition:"),
        ("--pattern goes with", "partition= goes with"),
        ("or give --table PATH", "or give table=PATH"),
        ("with --table,", "with table=,"),
        ("--prune, --order or --max-memory", "prune= or max_memory="),
        ("(it writes ", "(save it as "),
        ("-H pdb", "heuristic=\"pdb\""),
        ("--heuristic table", "heuristic=\"table\""),
        ("--heuristic pdb", "heuristic=\"pdb\""),
    ];
    let mut text = text.to_string();
    for (cli, py) in PHRASES {
        text = text.replace(cli, py);
    }
    // flags with a value: the next word, without the punctuation that ends a clause
    const VALUED: [(&str, &str); 4] =
        [("--pattern", "partition"), ("--algorithm", "algorithm"), ("--goal", "goal"), ("--heuristic", "heuristic")];
    let mut out: Vec<String> = Vec::new();
    let words: Vec<&str> = text.split(' ').collect();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        if let (Some((_, arg)), Some(value)) = (VALUED.iter().find(|(f, _)| *f == w), words.get(i + 1)) {
            let end = value.trim_end_matches([':', ',', ';', ')', '?']);
            out.push(format!("{arg}={}{}", py_str(end), &value[end.len()..]));
            i += 2;
            continue;
        }
        let lead = w.len() - w.trim_start_matches('(').len();
        let (open, rest) = w.split_at(lead);
        match rest.strip_prefix("--") {
            Some(flag) if flag.starts_with(|c: char| c.is_ascii_alphabetic()) => {
                let end = flag.trim_end_matches(|c: char| !c.is_ascii_alphanumeric());
                out.push(format!("{open}{}={}", end.replace('-', "_"), &flag[end.len()..]));
            }
            _ => out.push(w.to_string()),
        }
        i += 1;
    }
    out.join(" ")
}

/// The library's message with its command-line words in Python: each `` `table ...` `` command
/// as the Python call, each `` `--flag value` `` and bare flag as the argument.
pub(crate) fn python_words(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut dir: Option<String> = None;
    for (n, part) in text.split('`').enumerate() {
        if n > 0 {
            out.push('`');
        }
        if n % 2 == 1 && (part == "table" || part.starts_with("table ")) {
            out.push_str(&python_call(part, dir.as_deref()));
            let words = shell_words(part);
            if let Some(d) = words.iter().position(|w| w == "--dir").and_then(|i| words.get(i + 1)) {
                dir = Some(d.clone());
            }
        } else if n % 2 == 1 && part.starts_with('-') {
            out.push_str(&python_flags(part));
        } else if n % 2 == 1 {
            out.push_str(part);
        } else {
            out.push_str(&python_flags(part));
        }
    }
    out
}

/// A batch call's error: the kind of its board's error, the board's row in the message.
pub(crate) fn row_error(e: slidetable::arrays::RowError) -> PyErr {
    let text = format!("board {}: {}", e.row, message(&e.error));
    let err = error(*e.error);
    Python::attach(|py| {
        let kind = err.get_type(py);
        PyErr::from_type(kind, text)
    })
}

/// The boards of a (n, cells) array as one slice, after checking they have `shape`'s cells.
pub(crate) fn rows<'a, T: numpy::Element>(
    shape: slidetable::Shape,
    cells: &'a numpy::PyReadonlyArray2<'_, T>,
) -> PyResult<&'a [T]> {
    use numpy::PyUntypedArrayMethods;
    let given = cells.shape()[1];
    if given != shape.cells() {
        return Err(PyValueError::new_err(format!(
            "boards of {given} cells given, but a {shape} board has {} cells",
            shape.cells()
        )));
    }
    cells.as_slice().map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Runs `work` with the GIL released, on this process's thread pool ([`pool`]: never rayon's
/// global one, whose threads a forked child does not have).
pub(crate) fn detach<T: Send>(py: Python<'_>, work: impl FnOnce() -> T + Send) -> T {
    py.detach(|| pool::install(work))
}

/// Work done by many threads, counted, and told to a progress callback at most every tenth of a
/// second (a batch of quick items would otherwise send a message an item), and once at the end.
pub(crate) struct Tally {
    total: u64,
    done: AtomicU64,
    started: Instant,
    last_ms: AtomicU64,
}

impl Tally {
    pub(crate) fn new(total: u64) -> Tally {
        Tally { total, done: AtomicU64::new(0), started: Instant::now(), last_ms: AtomicU64::new(0) }
    }

    /// Counts `k` more done; the count so far when it is time to tell it (the thread that wins
    /// the tenth of a second tells it), else None.
    pub(crate) fn add(&self, k: u64) -> Option<u64> {
        let now = self.done.fetch_add(k, Ordering::Relaxed) + k;
        let ms = self.started.elapsed().as_millis() as u64;
        let before = self.last_ms.load(Ordering::Relaxed);
        let due = now == self.total
            || (ms >= before + 100
                && self.last_ms.compare_exchange(before, ms, Ordering::Relaxed, Ordering::Relaxed).is_ok());
        due.then_some(now)
    }
}

/// [`interruptible`] for a work of `total` steps that takes a stop flag: Ctrl-C sets the flag,
/// and the work's `step(k)` (k more steps done) reaches `progress(done, total)` at most ten times
/// a second ([`Tally`]).
pub(crate) fn counted<T: Send>(
    py: Python<'_>,
    total: u64,
    progress: Option<&Py<PyAny>>,
    work: impl FnOnce(&(dyn Fn(u64) + Sync), &AtomicBool) -> T + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    let tally = Tally::new(total);
    let report = |py: Python<'_>, done: u64| -> PyResult<()> {
        if let Some(f) = progress {
            f.call1(py, (done, total))?;
        }
        Ok(())
    };
    interruptible(py, &|| stop.store(true, Ordering::Relaxed), report, |note| {
        let step = |k: u64| {
            if let Some(now) = tally.add(k) {
                note(now);
            }
        };
        work(&step, &stop)
    })
}

/// Runs `work` on a worker thread with the GIL released, passing `report` each message the work
/// sends (with the GIL held, on this thread), and answering Ctrl-C: on a signal, `cancel` is
/// called, the work is waited for (it must then stop soon) and the signal's exception raised.
pub(crate) fn interruptible<T: Send, M: Send>(
    py: Python<'_>,
    cancel: &(dyn Fn() + Sync),
    mut report: impl FnMut(Python<'_>, M) -> PyResult<()> + Send,
    work: impl FnOnce(&(dyn Fn(M) + Sync)) -> T + Send,
) -> PyResult<T> {
    enum Msg<T, M> {
        Done(T),
        Note(M),
    }
    py.detach(|| {
        std::thread::scope(|s| {
            let (tx, rx) = mpsc::channel::<Msg<T, M>>();
            s.spawn(move || {
                let note = |m: M| {
                    let _ = tx.send(Msg::Note(m));
                };
                let value = pool::install(|| work(&note));
                let _ = tx.send(Msg::Done(value));
            });
            let mut failure: Option<PyErr> = None;
            loop {
                match rx.recv_timeout(Duration::from_millis(50)) {
                    Ok(Msg::Done(value)) => {
                        return match failure {
                            Some(e) => Err(e),
                            None => Ok(value),
                        }
                    }
                    Ok(Msg::Note(m)) => {
                        if failure.is_none() {
                            // the signals too: a work that sends notes more often than the
                            // timeout would otherwise never have them looked at (a Ctrl-C
                            // during a pattern table's build went unseen)
                            if let Err(e) = Python::attach(|py| report(py, m).and_then(|()| py.check_signals())) {
                                cancel();
                                failure = Some(e);
                            }
                        }
                    }
                    Err(RecvTimeoutError::Timeout) => {
                        if failure.is_none() {
                            if let Err(e) = Python::attach(|py| py.check_signals()) {
                                cancel();
                                failure = Some(e);
                            }
                        }
                    }
                    Err(RecvTimeoutError::Disconnected) => {
                        return Err(failure
                            .unwrap_or_else(|| PyRuntimeError::new_err("the worker thread stopped without an answer")))
                    }
                }
            }
        })
    })
}

/// The extension module.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("TableError", py.get_type::<TableError>())?;
    m.add("SearchLimitError", py.get_type::<SearchLimitError>())?;
    m.add("UNSOLVABLE", slidetable::arrays::UNSOLVABLE)?;
    m.add("FAILED", -2)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<puzzle::Puzzle>()?;
    m.add_class::<table::Table>()?;
    m.add_class::<search::Solver>()?;
    m.add_class::<ooc::BuildDriver>()?;
    m.add_class::<ooc::BuildWorker>()?;
    m.add_function(wrap_pyfunction!(ooc::build_worker_memory, m)?)?;
    m.add_function(wrap_pyfunction!(ooc::available_memory, m)?)?;
    m.add_function(wrap_pyfunction!(ooc::install_table, m)?)?;
    m.add_function(wrap_pyfunction!(search::build_patterns, m)?)?;
    m.add_function(wrap_pyfunction!(search::build_pruner, m)?)?;
    m.add_function(wrap_pyfunction!(search::partitions, m)?)?;
    m.add_function(wrap_pyfunction!(lab::instances, m)?)?;
    m.add_function(wrap_pyfunction!(lab::experiment, m)?)?;
    m.add_function(wrap_pyfunction!(table::bench_distance_loop, m)?)?;
    Ok(())
}
