//! `slidetable._core`: the slidetable library for Python.
//!
//! This crate converts and calls; it decides nothing about puzzles. Boards arrive as C-contiguous
//! numpy arrays of one row per board (the Python layer in `python/slidetable/__init__.py` normalises any
//! integer array to that), go to the library's batch calls (`slidetable::arrays`), and come back
//! as numpy arrays. Every call that can take more than a moment releases the GIL; the long ones
//! (builds, searches, grading) run on a worker thread while this thread watches for Ctrl-C and
//! stops them through the library's cancel switch ([`slidetable::search::Watch`]).
//!
//! Errors keep the library's words: a bad board or argument is a `ValueError`, a damaged table
//! file a `TableError` (a `ValueError`), a missing or unreadable file an `OSError`, a search that
//! hit its limit a `SearchLimitError`.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use pyo3::create_exception;
use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyKeyboardInterrupt, PyOSError, PyPermissionError, PyRuntimeError,
    PyValueError,
};
use pyo3::prelude::*;

mod lab;
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
    "A search stopped at its node or memory limit before finding a solution."
);

/// The library's error as the Python exception a user expects, with the library's message.
pub(crate) fn error(e: slidetable::Error) -> PyErr {
    use slidetable::Error as E;
    let text = e.to_string();
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
            _ => PyOSError::new_err(text),
        },
        E::BadMagic
        | E::UnsupportedVersion { .. }
        | E::CorruptHeader(_)
        | E::WrongKind { .. }
        | E::WrongLength { .. }
        | E::ChecksumMismatch { .. }
        | E::Corrupt { .. } => TableError::new_err(text),
        E::SearchLimit { .. } => SearchLimitError::new_err(text),
        E::Cancelled { .. } | E::BuildCancelled { .. } => PyKeyboardInterrupt::new_err(text),
        _ => PyValueError::new_err(text),
    }
}

/// A batch call's error: the kind of its board's error, the board's row in the message.
pub(crate) fn row_error(e: slidetable::arrays::RowError) -> PyErr {
    let text = e.to_string();
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

/// Runs `work` on a worker thread with the GIL released, passing `report` each message the work
/// sends (with the GIL held, on this thread), and answering Ctrl-C: on a signal, `cancel` is
/// called, the work is waited for (it must then stop soon) and the signal's exception raised.
pub(crate) fn interruptible<T: Send, M: Send>(
    py: Python<'_>,
    cancel: &(dyn Fn() + Sync),
    mut report: impl FnMut(Python<'_>, M) -> PyResult<()> + Send,
    work: impl FnOnce(&dyn Fn(M)) -> T + Send,
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
                            if let Err(e) = Python::attach(|py| report(py, m)) {
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
    m.add_function(wrap_pyfunction!(lab::instances, m)?)?;
    m.add_function(wrap_pyfunction!(lab::experiment, m)?)?;
    m.add_function(wrap_pyfunction!(table::bench_distance_loop, m)?)?;
    Ok(())
}
