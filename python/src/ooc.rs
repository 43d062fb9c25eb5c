//! The out-of-core build's two halves for Python's executors (`slidetable.dask.build_table`):
//! the driver, which keeps the checkpoint in the client's process, and the worker, which expands
//! a level into one target block or merges a block's frontiers, in any process that sees the work
//! directory. The loop that joins them is `slidetable.dask`'s; the search is the library's
//! (`slidetable::table::disk`).

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use slidetable::table::disk::{self, Driver, Event, Worker};

use crate::puzzle::Puzzle;
use crate::{detach, error};

/// The driver of an out-of-core build: which level comes next, its targets, the merges due,
/// the histogram, the table file's header at the end.
#[pyclass(module = "slidetable._core")]
pub struct BuildDriver {
    driver: Driver,
    resumed: Option<(u32, u64)>,
    started: bool,
}

#[pymethods]
impl BuildDriver {
    /// Starts the build of `puzzle`'s two-bit table in `work_dir`, or opens the one there; with
    /// `max_depth`, a build that stops after that depth (its disk checked level by level).
    #[new]
    #[pyo3(signature = (puzzle, work_dir, max_depth=None))]
    fn new(py: Python<'_>, puzzle: &Puzzle, work_dir: PathBuf, max_depth: Option<u32>) -> PyResult<BuildDriver> {
        let index = slidetable::StateIndex::new(&puzzle.goal_board).map_err(error)?;
        let (driver, resumed, started) = detach(py, || {
            let mut resumed = None;
            let mut started = false;
            let driver = Driver::open(&index, &work_dir, max_depth, &mut |e| match e {
                Event::Resumed { depth, reached } => resumed = Some((depth, reached)),
                Event::Preparing { .. } => started = true,
                _ => {}
            });
            driver.map(|d| (d, resumed, started))
        })
        .map_err(error)?;
        Ok(BuildDriver { driver, resumed, started })
    }

    /// `(depth, states found)` when the work directory held a build that this one goes on with.
    #[getter]
    fn resumed(&self) -> Option<(u32, u64)> {
        self.resumed
    }

    /// Whether this driver started the work directory afresh.
    #[getter]
    fn started(&self) -> bool {
        self.started
    }

    /// The last depth whose frontier files are all written.
    #[getter]
    fn depth(&self) -> u32 {
        self.driver.depth()
    }

    /// States at each depth so far.
    #[getter]
    fn histogram(&self) -> Vec<u64> {
        self.driver.histogram().to_vec()
    }

    /// Whether the search is over (only merges and `finish` remain).
    #[getter]
    fn searched(&self) -> bool {
        self.driver.is_searched()
    }

    /// Whether the search has gone as deep as `max_depth` (with states left to find).
    #[getter]
    fn at_max_depth(&self) -> bool {
        self.driver.is_at_max_depth()
    }

    /// Checks the disk's room for the merges `due` and the next level (a build with
    /// `max_depth`; one to the end reserved its disk when it opened).
    fn check_room(&self, due: Vec<(usize, u32, u32)>) -> PyResult<()> {
        self.driver.check_room(&due).map_err(error)
    }

    /// The target blocks of the next level, column by column.
    fn targets(&self) -> Vec<usize> {
        self.driver.targets()
    }

    /// Records the next level's states; returns its progress, or None when it found none.
    fn level_done<'py>(&mut self, py: Python<'py>, found: u64) -> PyResult<Option<Bound<'py, PyDict>>> {
        match self.driver.level_done(found).map_err(error)? {
            Some(p) => Ok(Some(crate::table::progress_dict(py, &p)?)),
            None => Ok(None),
        }
    }

    /// The merges due now, as (block, first depth, last depth).
    fn merges_due(&self) -> Vec<(usize, u32, u32)> {
        self.driver.merges_due()
    }

    /// Marks the blocks of `due` as being merged.
    fn begin_merges(&mut self, due: Vec<(usize, u32, u32)>) -> PyResult<()> {
        self.driver.begin_merges(&due).map_err(error)
    }

    /// Records a merge done by a worker.
    fn end_merge(&mut self, block: usize, upto: u32, crc: u32) -> PyResult<()> {
        self.driver.end_merge(block, upto, crc).map_err(error)
    }

    /// Writes the header of the finished table file and returns its path (in the work directory).
    fn finish(&mut self, py: Python<'_>) -> PyResult<String> {
        let driver = &mut self.driver;
        let built = detach(py, || driver.finish()).map_err(error)?;
        Ok(built.path.display().to_string())
    }
}

/// A worker of an out-of-core build: expands a level into a target block, merges a block.
#[pyclass(module = "slidetable._core")]
pub struct BuildWorker {
    worker: Worker,
}

#[pymethods]
impl BuildWorker {
    /// A worker on the build of `puzzle`'s table in `work_dir` (started by a driver), with
    /// `memory` bytes to use.
    #[new]
    fn new(py: Python<'_>, puzzle: &Puzzle, work_dir: PathBuf, memory: u64) -> PyResult<BuildWorker> {
        let index = slidetable::StateIndex::new(&puzzle.goal_board).map_err(error)?;
        let worker = detach(py, || Worker::new(&index, &work_dir, memory)).map_err(error)?;
        Ok(BuildWorker { worker })
    }

    /// Expands level `depth` into target block `target`; returns the states found there.
    fn expand(&mut self, py: Python<'_>, depth: u32, target: usize) -> PyResult<u64> {
        let worker = &mut self.worker;
        detach(py, || worker.expand(depth, target)).map_err(error)
    }

    /// Merges block `block`'s frontiers of depths `first..=last` into its codes; returns their
    /// checksum.
    fn merge(&mut self, py: Python<'_>, block: usize, first: u32, last: u32) -> PyResult<u32> {
        let worker = &mut self.worker;
        detach(py, || worker.merge(block, first, last)).map_err(error)
    }

    /// Bytes of work files read and written by this worker.
    #[getter]
    fn disk(&self) -> (u64, u64) {
        let io = self.worker.io();
        (io.read, io.written)
    }
}

/// The memory a worker of an out-of-core build of `puzzle`'s table needs at the least.
#[pyfunction]
pub fn build_worker_memory(puzzle: &Puzzle) -> PyResult<u64> {
    let index = slidetable::StateIndex::new(&puzzle.goal_board).map_err(error)?;
    Ok(disk::memory(index.len(), puzzle.shape.cells(), 0))
}

/// The memory this process may use now (the machine's, or its control group's), as the library
/// reads it; None where it cannot be read.
#[pyfunction]
pub fn available_memory() -> Option<u64> {
    slidetable::solver::available_memory()
}

/// Puts the finished table file `part` at `path` (renamed, or copied across file systems) and
/// removes the work directory's files.
#[pyfunction]
pub fn install_table(py: Python<'_>, part: PathBuf, path: PathBuf, work_dir: PathBuf) -> PyResult<()> {
    detach(py, || {
        disk::install(&part, &path)?;
        disk::clean(&work_dir);
        Ok(())
    })
    .map_err(error)
}
