//! `Table`: a perfect table, built or memory-mapped, and every question it answers.

use std::os::raw::c_int;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use numpy::prelude::*;
use numpy::{PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::{ffi, IntoPyObjectExt};
use slidetable::lab::grade::DepthGrade;
use slidetable::lab::{count, grade, sample};
use slidetable::solver::TableBytes as Bytes;
use slidetable::{arrays, Board, Progress};

use crate::puzzle::Puzzle;
use crate::{counted, detach, error, interruptible, row_error, rows};

/// A perfect table.
#[pyclass(frozen, module = "slidetable._core")]
pub struct Table {
    pub table: slidetable::Table<Bytes>,
    path: Option<String>,
}

impl Table {
    fn board(&self, cells: Vec<u16>) -> PyResult<Board> {
        Board::new(self.table.index().shape(), cells).map_err(error)
    }
}

pub(crate) fn progress_dict<'py>(py: Python<'py>, p: &Progress) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("depth", p.depth)?;
    d.set_item("level_states", p.level_states)?;
    d.set_item("reached", p.reached)?;
    d.set_item("total", p.total)?;
    d.set_item("seconds", p.elapsed.as_secs_f64())?;
    Ok(d)
}

/// A grade's whole-number figures by name, in one order for the per-depth columns and the total.
fn grade_counts(g: &DepthGrade) -> [(&'static str, u64); 10] {
    [
        ("states", g.states),
        ("sum_h", g.sum_h),
        ("sum_exact", g.sum_exact),
        ("exact", g.exact),
        ("overestimates", g.overestimates),
        ("max_overestimate", g.max_overestimate as u64),
        ("edges", g.edges),
        ("inconsistent_edges", g.inconsistent_edges),
        ("underestimates", g.underestimates),
        ("policy_states", g.policy_states),
    ]
}

/// A grade's fractional figures by name (sums and maxima of the estimates as given).
fn grade_sums(g: &DepthGrade) -> [(&'static str, f64); 6] {
    [
        ("sum_estimate", g.sum_estimate),
        ("sum_abs_error", g.sum_abs_error),
        ("sum_squared_error", g.sum_squared_error),
        ("worst_overestimate", g.worst_overestimate),
        ("max_edge_difference", g.max_edge_difference),
        ("policy_correct", g.policy_correct),
    ]
}

/// The library's per-depth sums as columns (one list per figure, indexed by depth) and the
/// total as a dict of numbers: the Python layer turns them into measures.
fn grade_dict<'py>(py: Python<'py>, by_depth: &[DepthGrade], total: &DepthGrade) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let t = PyDict::new(py);
    for (k, (name, value)) in grade_counts(total).into_iter().enumerate() {
        d.set_item(name, by_depth.iter().map(|g| grade_counts(g)[k].1).collect::<Vec<u64>>())?;
        t.set_item(name, value)?;
    }
    for (k, (name, value)) in grade_sums(total).into_iter().enumerate() {
        d.set_item(name, by_depth.iter().map(|g| grade_sums(g)[k].1).collect::<Vec<f64>>())?;
        t.set_item(name, value)?;
    }
    d.set_item("total", t)?;
    Ok(d)
}

/// A numpy array's contiguous data, or a ValueError saying why not.
fn slice<'a, T: numpy::Element>(a: &'a PyReadonlyArray1<'_, T>) -> PyResult<&'a [T]> {
    a.as_slice().map_err(|e| PyValueError::new_err(e.to_string()))
}

fn slice2<'a, T: numpy::Element>(a: &'a PyReadonlyArray2<'_, T>) -> PyResult<&'a [T]> {
    a.as_slice().map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Boards and their depths.
type Sampled<'py> = (Bound<'py, PyArray2<u8>>, Bound<'py, PyArray1<u8>>);

#[pymethods]
impl Table {
    /// Builds the table of `puzzle` by breadth-first search from its goal: in memory, or into the
    /// file `path` (replaced atomically; an existing file is untouched if the build fails), out of
    /// core when a two-bit table does not fit in memory, as `table build` does. With `max_depth`
    /// (and `path`), the search stops after that depth, out of core: a dict of what it found
    /// (`histogram`, `depth`, `reached`, `states`, `work_dir`, `resumed_after`, `disk_read`,
    /// `disk_written`) comes back instead of a table.
    #[staticmethod]
    #[pyo3(signature = (puzzle, path=None, progress=None, bits=None, work_dir=None, max_depth=None))]
    #[allow(clippy::too_many_arguments)]
    fn build(
        py: Python<'_>,
        puzzle: &Puzzle,
        path: Option<PathBuf>,
        progress: Option<Py<PyAny>>,
        bits: Option<u8>,
        work_dir: Option<PathBuf>,
        max_depth: Option<u32>,
    ) -> PyResult<Py<PyAny>> {
        use slidetable::table::{BuildOptions, Staged, Width};
        let goal = puzzle.goal_board.clone();
        let chosen = match bits {
            None => None,
            Some(2) => Some(Width::TwoBit),
            Some(8) => Some(Width::Byte),
            Some(b) => return Err(PyValueError::new_err(format!("bits={b}: a table has 8 bits a state or 2"))),
        };
        let width = chosen.unwrap_or(Width::default_for(goal.shape()));
        enum Made {
            Table(Box<Result<slidetable::Table<Bytes>, slidetable::Error>>, Option<String>),
            Stopped(slidetable::table::disk::Partial, PathBuf),
        }
        // a level done, or (first) the depth and states a build resumed from its work directory
        // goes on after
        enum Note {
            Level(Progress),
            Resumed(u32, u64),
        }
        let report = |py: Python<'_>, note: Note| -> PyResult<()> {
            if let Some(f) = &progress {
                let d = match note {
                    Note::Level(p) => progress_dict(py, &p)?,
                    Note::Resumed(depth, reached) => {
                        let d = PyDict::new(py);
                        d.set_item("resumed", depth)?;
                        d.set_item("reached", reached)?;
                        d
                    }
                };
                f.call1(py, (d,))?;
            }
            Ok(())
        };
        // Ctrl-C, or a progress callback that raises, stops the search after the level in
        // progress; a file being written is then dropped and any old one left as it was
        let stop = AtomicBool::new(false);
        let built = interruptible(py, &|| stop.store(true, Ordering::Relaxed), report, |note| match &path {
            // as `table build`: in memory when it fits, else (two bits) out of core, in files in
            // `path` with `.work` added, resumed by the same call after a stop
            // with no `bits`, the library decides: two bits for a last depth, or to go on with
            // the work directory's build
            Some(p) => slidetable::table::build_file_staged(
                &goal,
                p,
                &BuildOptions {
                    width: chosen,
                    memory: slidetable::solver::available_memory(),
                    work_dir: work_dir.as_deref(),
                    max_depth,
                },
                |event| match event {
                    slidetable::table::disk::Event::Level { progress, .. } => note(Note::Level(*progress)),
                    slidetable::table::disk::Event::Resumed { depth, reached } => note(Note::Resumed(depth, reached)),
                    _ => {}
                },
                &stop,
            )
            .map(|staged| match staged {
                Staged::Built(t, _) => {
                    let table = slidetable::Table::new(Bytes::Map(t.into_inner()));
                    Made::Table(Box::new(table), Some(p.display().to_string()))
                }
                Staged::Stopped { partial, work_dir } => Made::Stopped(partial, work_dir),
            }),
            None => slidetable::table::build_with(&goal, width, |pr| note(Note::Level(*pr)), &stop)
                .map(|t| Made::Table(Box::new(slidetable::Table::new(Bytes::Owned(t.into_inner()))), None)),
        })?;
        match built.map_err(error)? {
            Made::Table(table, path) => Table { table: (*table).map_err(error)?, path }.into_py_any(py),
            Made::Stopped(partial, work_dir) => {
                let d = PyDict::new(py);
                d.set_item("depth", partial.histogram.len() - 1)?;
                d.set_item("reached", partial.histogram.iter().sum::<u64>())?;
                d.set_item("histogram", partial.histogram)?;
                d.set_item("states", slidetable::StateIndex::new(&goal).map_err(error)?.len())?;
                d.set_item("work_dir", work_dir.display().to_string())?;
                d.set_item("resumed_after", partial.resumed)?;
                d.set_item("disk_read", partial.disk.read)?;
                d.set_item("disk_written", partial.disk.written)?;
                d.into_py_any(py)
            }
        }
    }

    /// Opens a table file, memory-mapped (or with `mmap` false read into memory); the cheap
    /// checks, and the checksum for tables up to the size `table` checks on open.
    #[staticmethod]
    #[pyo3(signature = (path, mmap=true))]
    fn open(py: Python<'_>, path: PathBuf, mmap: bool) -> PyResult<Table> {
        let table = detach(py, || {
            let opened = if mmap {
                slidetable::open(&path).and_then(|t| slidetable::Table::new(Bytes::Map(t.into_inner())))
            } else {
                slidetable::read(&path).and_then(|t| slidetable::Table::new(Bytes::Owned(t.into_inner())))
            };
            opened.map_err(|e| slidetable::Error::in_file("opening", &path, e))
        });
        Ok(Table { table: table.map_err(error)?, path: Some(path.display().to_string()) })
    }

    #[getter]
    fn rows(&self) -> usize {
        self.table.index().shape().rows()
    }

    #[getter]
    fn cols(&self) -> usize {
        self.table.index().shape().cols()
    }

    #[getter]
    fn goal_cells(&self) -> Vec<u16> {
        self.table.goal().cells().to_vec()
    }

    #[getter]
    fn path(&self) -> Option<String> {
        self.path.clone()
    }

    #[getter]
    fn entries(&self) -> u64 {
        self.table.index().len()
    }

    #[getter]
    fn max_depth(&self) -> u8 {
        self.table.header().max_depth
    }

    fn histogram(&self) -> Vec<u64> {
        self.table.histogram().to_vec()
    }

    fn distances<'py>(&self, py: Python<'py>, cells: PyReadonlyArray2<'py, u8>) -> PyResult<Bound<'py, PyArray1<i16>>> {
        let rows = rows(self.table.index().shape(), &cells)?;
        let mut out = vec![0i16; cells.shape()[0]];
        detach(py, || arrays::distances(&self.table, rows, &mut out)).map_err(row_error)?;
        Ok(PyArray1::from_vec(py, out))
    }

    fn ranks<'py>(&self, py: Python<'py>, cells: PyReadonlyArray2<'py, u8>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let rows = rows(self.table.index().shape(), &cells)?;
        let mut out = vec![0i64; cells.shape()[0]];
        detach(py, || arrays::ranks(self.table.index(), rows, &mut out)).map_err(row_error)?;
        Ok(PyArray1::from_vec(py, out))
    }

    fn unrank<'py>(&self, py: Python<'py>, indices: PyReadonlyArray1<'py, u64>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let indices = indices.as_slice().map_err(|e| PyValueError::new_err(e.to_string()))?;
        let n = self.table.index().shape().cells();
        let mut out = vec![0u8; indices.len() * n];
        detach(py, || arrays::unrank(self.table.index(), indices, &mut out)).map_err(row_error)?;
        PyArray1::from_vec(py, out).reshape([indices.len(), n])
    }

    fn optimal_moves<'py>(
        &self,
        py: Python<'py>,
        cells: PyReadonlyArray2<'py, u8>,
    ) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let rows = rows(self.table.index().shape(), &cells)?;
        let n = cells.shape()[0];
        let mut out = vec![false; n * 4];
        detach(py, || arrays::optimal_moves(&self.table, rows, &mut out)).map_err(row_error)?;
        PyArray1::from_vec(py, out).reshape([n, 4])
    }

    /// An optimal solution (the blank's moves, U D L R) by hill-climbing, or None.
    fn solve(&self, py: Python<'_>, cells: Vec<u16>) -> PyResult<Option<String>> {
        let board = self.board(cells)?;
        let solution = detach(py, || self.table.solve(&board)).map_err(error)?;
        Ok(solution.map(|s| s.moves.iter().map(|d| d.letter()).collect()))
    }

    /// (distance, number of optimal solutions, states on optimal paths, widest level), or None.
    #[allow(clippy::type_complexity)]
    fn count_solutions(&self, py: Python<'_>, cells: Vec<u16>) -> PyResult<Option<(u8, Py<PyAny>, u64, u64)>> {
        let board = self.board(cells)?;
        let c = detach(py, || count::count_solutions(&self.table, &board)).map_err(error)?;
        c.map(|c| Ok((c.distance, c.solutions.into_py_any(py)?, c.cone, c.widest_level))).transpose()
    }

    /// `count` distinct boards drawn uniformly from those at exactly `depth` (as `table sample`).
    fn sample<'py>(&self, py: Python<'py>, depth: u8, count: usize, seed: u64) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let n = self.table.index().shape().cells();
        let boards = detach(py, || {
            let indices = sample::sample_depth(&self.table, depth, count, seed)?;
            let mut out = vec![0u8; indices.len() * n];
            arrays::unrank(self.table.index(), &indices, &mut out).map_err(|e| *e.error)?;
            Ok::<_, slidetable::Error>(out)
        })
        .map_err(error)?;
        PyArray1::from_vec(py, boards).reshape([count, n])
    }

    /// A depth-balanced sample (`lab::sample::sample_balanced`): the boards and their depths;
    /// `progress(done, total)` (entries of the table scanned) at most ten times a second;
    /// Ctrl-C stops the scan within a few million entries.
    #[pyo3(signature = (per_depth, depths, replace, seed, progress=None))]
    fn sample_balanced<'py>(
        &self,
        py: Python<'py>,
        per_depth: u64,
        depths: Option<Vec<u32>>,
        replace: bool,
        seed: u64,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<Sampled<'py>> {
        let n = self.table.index().shape().cells();
        let total = self.table.index().len();
        let (boards, ds) = counted(py, total, progress.as_ref(), |step, stop| {
            let picked =
                sample::sample_balanced_until(&self.table, per_depth, depths.as_deref(), replace, seed, step, stop)?;
            let indices: Vec<u64> = picked.iter().map(|p| p.0).collect();
            let mut out = vec![0u8; indices.len() * n];
            arrays::unrank(self.table.index(), &indices, &mut out).map_err(|e| *e.error)?;
            Ok::<_, slidetable::Error>((out, picked.iter().map(|p| p.1).collect::<Vec<u8>>()))
        })?
        .map_err(error)?;
        let count = ds.len();
        Ok((PyArray1::from_vec(py, boards).reshape([count, n])?, PyArray1::from_vec(py, ds)))
    }

    /// Checks every entry against the distance function (as `table verify`); raises if one is wrong.
    fn verify(&self, py: Python<'_>) -> PyResult<()> {
        detach(py, || {
            self.table.check_payload_crc()?;
            self.table.verify()
        })
        .map_err(error)
    }

    /// A classic heuristic graded on every state and edge; `progress(done, total)` (steps: every
    /// state twice) at most ten times a second; Ctrl-C stops it within a chunk of states.
    #[pyo3(signature = (name, progress=None))]
    fn grade<'py>(&self, py: Python<'py>, name: &str, progress: Option<Py<PyAny>>) -> PyResult<Bound<'py, PyDict>> {
        let h = slidetable::heuristic::Heuristic::from_name(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown heuristic `{name}`: use misplaced (hamming), manhattan, linear-conflict or nilsson, or a function"
            ))
        })?;
        let total = 2 * self.table.index().len();
        let g = counted(py, total, progress.as_ref(), |step, stop| grade::grade_until(&self.table, h, step, stop))?
            .map_err(error)?;
        let d = grade_dict(py, &g.by_depth, &g.total)?;
        d.set_item("at_goal", g.at_goal)?;
        Ok(d)
    }

    /// Estimates given for every state, in index order, graded: uint8 (whole numbers), float32
    /// or float64.
    fn grade_estimates<'py>(&self, py: Python<'py>, estimates: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
        let t = &self.table;
        // Ctrl-C stops the pass over every state (seconds on 12 cells) within a chunk of states
        let stop = AtomicBool::new(false);
        let cancel = || stop.store(true, Ordering::Relaxed);
        let graded = if let Ok(a) = estimates.extract::<PyReadonlyArray1<'py, u8>>() {
            let hs = slice(&a)?;
            interruptible(py, &cancel, |_, ()| Ok(()), |_| grade::grade_estimates_until(t, hs, |_| {}, &stop))?
        } else if let Ok(a) = estimates.extract::<PyReadonlyArray1<'py, f32>>() {
            let hs = slice(&a)?;
            interruptible(py, &cancel, |_, ()| Ok(()), |_| grade::grade_estimates_until(t, hs, |_| {}, &stop))?
        } else {
            let a = estimates.extract::<PyReadonlyArray1<'py, f64>>()?;
            let hs = slice(&a)?;
            interruptible(py, &cancel, |_, ()| Ok(()), |_| grade::grade_estimates_until(t, hs, |_| {}, &stop))?
        };
        let (by_depth, total) = graded.map_err(error)?;
        grade_dict(py, &by_depth, &total)
    }

    /// Estimates of given boards `(N, cells)` and of their children `(N, 4)` (in `U D L R` order
    /// of the blank's moves; read where the move is legal) graded against this table.
    /// `progress(done, total)` (boards looked up) at most ten times a second; Ctrl-C stops it
    /// within a few thousand boards.
    #[pyo3(signature = (cells, estimates, child_estimates, progress=None))]
    fn grade_boards<'py>(
        &self,
        py: Python<'py>,
        cells: PyReadonlyArray2<'py, u8>,
        estimates: PyReadonlyArray1<'py, f64>,
        child_estimates: PyReadonlyArray2<'py, f64>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let boards = rows(self.table.index().shape(), &cells)?;
        let (hs, kids) = (slice(&estimates)?, slice2(&child_estimates)?);
        let n = cells.shape()[0];
        if hs.len() != n || kids.len() != 4 * n {
            return Err(PyValueError::new_err(format!(
                "{} estimates and {} child estimates for {n} boards: give one a board and four a board",
                hs.len(),
                kids.len()
            )));
        }
        let graded = counted(py, n as u64, progress.as_ref(), |step, stop| {
            grade::grade_boards_until(&self.table, boards, hs, kids, step, stop)
        })?;
        let (by_depth, total) = graded.map_err(row_error)?;
        grade_dict(py, &by_depth, &total)
    }

    /// Given boards' exact distances `(N,)` and estimates, and their children's `(N, 4)` with
    /// the legal-move mask, graded (the exact distances found elsewhere: a solver's searches).
    #[staticmethod]
    fn grade_given<'py>(
        py: Python<'py>,
        exact: PyReadonlyArray1<'py, u32>,
        estimates: PyReadonlyArray1<'py, f64>,
        valid: PyReadonlyArray2<'py, bool>,
        child_exact: PyReadonlyArray2<'py, u32>,
        child_estimates: PyReadonlyArray2<'py, f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let given = grade::Given {
            exact: slice(&exact)?,
            estimates: slice(&estimates)?,
            valid: slice2(&valid)?,
            child_exact: slice2(&child_exact)?,
            child_estimates: slice2(&child_estimates)?,
        };
        let n = given.exact.len();
        let fours = [given.valid.len(), given.child_exact.len(), given.child_estimates.len()];
        if given.estimates.len() != n || fours.iter().any(|&k| k != 4 * n) {
            return Err(PyValueError::new_err(format!(
                "{n} distances with {} estimates and {fours:?} entries for the children: give one a board and four a board",
                given.estimates.len()
            )));
        }
        let (by_depth, total) = detach(py, || grade::grade_given(&given)).map_err(row_error)?;
        grade_dict(py, &by_depth, &total)
    }

    /// The entries as a read-only buffer (for `numpy.frombuffer`: no copy).
    unsafe fn __getbuffer__(slf: Bound<'_, Self>, view: *mut ffi::Py_buffer, flags: c_int) -> PyResult<()> {
        let payload = slf.get().table.payload();
        // SAFETY: `view` comes from Python's buffer protocol. The bytes live as long as this
        // object (a memory map or a vector that is never changed or moved), and FillInfo takes a
        // reference to the object for the view's lifetime; the view is marked read-only, so a
        // request for a writable buffer is refused by FillInfo itself.
        let r = unsafe {
            ffi::PyBuffer_FillInfo(
                view,
                slf.as_ptr(),
                payload.as_ptr() as *mut std::os::raw::c_void,
                payload.len() as ffi::Py_ssize_t,
                1,
                flags,
            )
        };
        if r == -1 {
            return Err(PyErr::fetch(slf.py()));
        }
        Ok(())
    }
}

/// Times the library's batch distance call on boards already in Rust memory (the reference
/// for the Python path's overhead): (seconds, sum of the distances).
#[pyfunction]
pub fn bench_distance_loop(py: Python<'_>, table: &Table, cells: PyReadonlyArray2<'_, u8>) -> PyResult<(f64, i64)> {
    let owned: Vec<u8> = rows(table.table.index().shape(), &cells)?.to_vec();
    let mut out = vec![0i16; cells.shape()[0]];
    let result = detach(py, || {
        let t = Instant::now();
        let r = arrays::distances(&table.table, &owned, &mut out);
        let seconds = t.elapsed().as_secs_f64();
        r.map(|()| (seconds, out.iter().map(|&d| d as i64).sum::<i64>()))
    });
    result.map_err(row_error)
}
