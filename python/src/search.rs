//! `Solver`: the library's solver (heuristic chosen, tables found and loaded once) for searches
//! and pattern-database estimates. The Python classes `PatternDB` and `Solver` both hold one.
//! Also the builds behind `PatternDB.build` and `PatternDB.build_pruner`: the library calls
//! `table build --pattern` and `table build --prune` make, into the same files.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use numpy::prelude::*;
use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use slidetable::arrays::{self, Outcome};
use slidetable::heuristic::pdb::{pattern_file_name, zero_pattern_file_name, Partition};
use slidetable::search::prune::MovePruner;
use slidetable::search::{
    batch_astar, Algorithm, BatchEstimate, BatchOptions, BatchOrder, Checkpointing, Found, GuideEstimate, Options,
    Watch, ASTAR_IDA_BYTES,
};
use slidetable::solver::{self, HeuristicKind, Notice, SolverConfig};
use slidetable::table::pattern::build_group_file_until;
use slidetable::{Board, Progress};

use crate::puzzle::Puzzle;
use crate::{counted, detach, error, interruptible, message, python_words, row_error, rows, Tally};

/// `within`, `time_limit` and `anytime` of a Python call into `options`: the bounded search
/// ([`Algorithm::Within`]) when `within` is given (or `anytime`, at 2).
fn bounded(options: &mut Options, within: Option<f64>, time_limit: Option<f64>, anytime: bool) -> PyResult<()> {
    if let Some(w) = within.or(anytime.then_some(2.0)) {
        slidetable::search::check_within(w).map_err(error)?;
        options.algorithm = Algorithm::Within(w);
        // a factor asked for runs to its proof unless told otherwise
        options.time_limit = None;
    }
    options.anytime = anytime;
    if let Some(t) = time_limit {
        if !(t.is_finite() && t > 0.0 && t < 1e9) {
            return Err(PyValueError::new_err(format!(
                "time_limit={t}: give a number of seconds above 0 and below 1e9"
            )));
        }
        options.time_limit = Some(std::time::Duration::from_secs_f64(t));
    }
    Ok(())
}

/// What the CLI would print on stderr, as one line for a Python callback.
fn notice_text(n: &Notice) -> String {
    match n {
        Notice::BuiltPattern { path, seconds, saved: Ok(()) } => {
            format!("{} was missing; built it in {seconds:.2} s and saved it", path.display())
        }
        Notice::BuiltPattern { path, seconds, saved: Err(e) } => {
            format!("{} was missing; built it in {seconds:.2} s but could not save it ({e})", path.display())
        }
        Notice::BuiltTable { path, seconds, .. } => format!("built {} in {seconds:.2} s", path.display()),
        Notice::BuiltMachine { path, seconds, saved: Ok(()) } => {
            format!("{} was missing; made it in {seconds:.2} s and saved it", path.display())
        }
        Notice::BuiltMachine { path, seconds, saved: Err(e) } => {
            format!("{} was missing; made it in {seconds:.2} s but could not save it ({e})", path.display())
        }
        Notice::SkippedTable { path, why } => format!("warning: skipped {}: {}", path.display(), python_words(why)),
        Notice::Hint(h) => format!("hint: {}", python_words(h)),
        other => format!("{other:?}"),
    }
}

/// A solver on one puzzle: its heuristic and tables, loaded once.
#[pyclass(frozen, module = "slidetable._core")]
pub struct Solver {
    solver: Arc<solver::Solver>,
    load_seconds: f64,
}

impl Solver {
    fn options(
        &self,
        algorithm: &str,
        weight: Option<f64>,
        max_nodes: Option<u64>,
        max_memory: Option<u64>,
    ) -> PyResult<Options> {
        let auto = algorithm == "auto" && weight.is_none();
        let algorithm = match algorithm {
            "auto" if weight.is_some() => Algorithm::parse("weighted", weight),
            "auto" => Ok(self.solver.default_algorithm()),
            name => Algorithm::parse(name, weight),
        }
        .map_err(error)?;
        // as `table solve`: A*+IDA*'s budget is its A* part's, 1 GiB unless given
        let default_bytes = || match algorithm {
            Algorithm::AStarIda => ASTAR_IDA_BYTES,
            _ => solver::default_max_memory(),
        };
        Ok(Options {
            algorithm,
            max_nodes,
            max_bytes: Some(max_memory.unwrap_or_else(default_bytes)),
            prune: self.solver.pruner(),
            // the default's time limit goes with the default only
            time_limit: if auto { self.solver.default_time_limit() } else { None },
            ..Options::default()
        })
    }

    /// A solution as a dict: moves (the blank's letters), generated, expanded, seconds, optimal,
    /// algorithm, heuristic.
    fn found<'py>(
        &self,
        py: Python<'py>,
        board: &Board,
        found: &Found,
        algorithm: Algorithm,
    ) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let moves: String = found.moves.iter().map(|m| m.letter()).collect();
        d.set_item("moves", moves)?;
        d.set_item("generated", found.stats.generated)?;
        d.set_item("expanded", found.stats.expanded)?;
        d.set_item("seconds", found.stats.elapsed.as_secs_f64())?;
        d.set_item("optimal", self.optimal(board, found, algorithm)?)?;
        d.set_item("lower_bound", found.lower_bound)?;
        d.set_item("within", found.within())?;
        d.set_item("stopped", found.stopped.clone())?;
        d.set_item("algorithm", algorithm.name())?;
        d.set_item("heuristic", if algorithm == Algorithm::Bfs { "none" } else { self.solver.heuristic().name() })?;
        Ok(d)
    }

    /// True when proven optimal (the exact distance from a table, or the algorithm's guarantee),
    /// False when a table shows it is not, None when unknown.
    fn optimal(&self, board: &Board, found: &Found, algorithm: Algorithm) -> PyResult<Option<bool>> {
        let exact = self.solver.exact(board).map_err(error)?;
        let guide = self.solver.guide().map_err(error)?;
        Ok(match exact {
            Some(e) => Some(e as usize == found.moves.len()),
            None if algorithm.proves_optimal(&guide) || found.proven_optimal() => Some(true),
            None => None,
        })
    }
}

/// A Python callable as the estimate of a batch search: a `(N, cells)` uint8 array of boards in,
/// a float64 array of `N` numbers out (the Python layer wraps the user's function so that it
/// returns exactly that). The GIL is taken for the call only; the search runs without it.
struct PyEstimate<'a> {
    f: &'a Py<PyAny>,
    /// The error the function raised (or its answer's), kept for Python while the library is
    /// told to stop.
    error: Option<PyErr>,
    /// Seconds inside the function alone (the library's figure also counts making the array).
    call_seconds: f64,
}

impl BatchEstimate for PyEstimate<'_> {
    fn estimate(&mut self, boards: &[u8], cells: usize, out: &mut [f64]) -> Result<(), slidetable::Error> {
        let n = out.len();
        let answered = Python::attach(|py| -> PyResult<()> {
            py.check_signals()?;
            let array = PyArray1::from_slice(py, boards).reshape([n, cells])?;
            let started = Instant::now();
            let got = self.f.call1(py, (array,))?;
            self.call_seconds += started.elapsed().as_secs_f64();
            let got: PyReadonlyArray1<'_, f64> = got.bind(py).extract()?;
            let got = got.as_slice()?;
            if got.len() != n {
                return Err(PyValueError::new_err(format!(
                    "the heuristic returned {} numbers for a batch of {n} boards",
                    got.len()
                )));
            }
            out.copy_from_slice(got);
            Ok(())
        });
        answered.map_err(|e| {
            self.error = Some(e);
            slidetable::Error::Cancelled { generated: 0 }
        })
    }
}

/// Runs `f` on a rayon pool of `threads` threads, or the one it is called on (the process's).
fn on_pool<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> Result<T, slidetable::Error> {
    match threads {
        None => Ok(f()),
        Some(0) => Err(slidetable::Error::BadOption("threads must be at least 1".into())),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map(|pool| pool.install(f))
            .map_err(|e| slidetable::Error::BadOption(format!("cannot start {n} threads: {e}"))),
    }
}

#[pymethods]
impl Solver {
    /// Decides the heuristic and loads its tables (see `slidetable::solver::Solver::new`).
    #[new]
    #[pyo3(signature = (puzzle, heuristic, partition, dir, reflect, build_missing, table, notice, share_tables=false, prune=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        puzzle: &Puzzle,
        heuristic: Option<&str>,
        partition: Option<String>,
        dir: PathBuf,
        reflect: bool,
        build_missing: bool,
        table: Option<PathBuf>,
        notice: Option<Py<PyAny>>,
        share_tables: bool,
        prune: Option<usize>,
    ) -> PyResult<Solver> {
        let heuristic = heuristic
            .map(|name| {
                HeuristicKind::from_name(name).ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "unknown heuristic `{name}`: use auto, misplaced (hamming), manhattan, linear-conflict, nilsson, table or pdb"
                    ))
                })
            })
            .transpose()?;
        // a dir that is not a directory: the library's Error::Io, FileNotFoundError or NotADirectoryError
        let config = SolverConfig { heuristic, partition, dir, reflect, build_missing, table, share_tables, prune };
        let started = Instant::now();
        let report = |py: Python<'_>, n: Notice| -> PyResult<()> {
            if let Some(f) = &notice {
                f.call1(py, (notice_text(&n),))?;
            }
            Ok(())
        };
        let (goal, shape) = (puzzle.goal.clone(), puzzle.shape);
        let made = interruptible(py, &|| {}, report, |note| solver::Solver::new(&goal, shape, &config, note))?
            .map_err(error)?;
        Ok(Solver { solver: Arc::new(made), load_seconds: started.elapsed().as_secs_f64() })
    }

    /// Seconds spent deciding and loading (or building) the tables.
    #[getter]
    fn load_seconds(&self) -> f64 {
        self.load_seconds
    }

    /// The heuristic's name.
    #[getter]
    fn heuristic(&self) -> &'static str {
        self.solver.heuristic().name()
    }

    /// The pattern tables' partition name, or None.
    #[getter]
    fn partition(&self) -> Option<String> {
        self.solver.patterns().map(|p| p.partition().name.clone())
    }

    /// The pattern tables' groups of tiles.
    #[getter]
    fn groups(&self) -> Vec<Vec<u16>> {
        self.solver.patterns().map(|p| p.partition().groups.clone()).unwrap_or_default()
    }

    /// Whether the pattern tables are the files' mappings, shared between processes.
    #[getter]
    fn shares_tables(&self) -> bool {
        self.solver.patterns().is_some_and(|p| p.tables().iter().all(|t| t.is_mapped()))
    }

    /// Whether the pattern tables have the reflected lookup.
    #[getter]
    fn reflects(&self) -> bool {
        self.solver.patterns().is_some_and(|p| p.reflection().is_some())
    }

    /// The pattern-database estimate of each board.
    fn h<'py>(
        &self,
        py: Python<'py>,
        cells: PyReadonlyArray2<'py, u8>,
        reflect: bool,
    ) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let set = self.solver.patterns().ok_or_else(|| PyValueError::new_err("this solver has no pattern tables"))?;
        let rows = rows(set.goal().shape(), &cells)?;
        let mut out = vec![0u32; cells.shape()[0]];
        detach(py, || arrays::pattern_estimates(set, rows, reflect, &mut out)).map_err(row_error)?;
        Ok(PyArray1::from_vec(py, out))
    }

    /// Solves one board: a dict, or None when it cannot reach the goal. `checkpoint` (A*+IDA*
    /// only): the file its progress is kept in and resumed from, as `table solve --checkpoint`.
    #[pyo3(signature = (cells, algorithm, weight, max_nodes, max_memory, threads, checkpoint=None, within=None, time_limit=None, anytime=false))]
    #[allow(clippy::too_many_arguments)]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        cells: Vec<u16>,
        algorithm: &str,
        weight: Option<f64>,
        max_nodes: Option<u64>,
        max_memory: Option<u64>,
        threads: Option<usize>,
        checkpoint: Option<PathBuf>,
        within: Option<f64>,
        time_limit: Option<f64>,
        anytime: bool,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let board = Board::new(self.solver.goal_board().shape(), cells).map_err(error)?;
        let watch = Arc::new(Watch::new());
        let mut options = self.options(algorithm, weight, max_nodes, max_memory)?;
        bounded(&mut options, within, time_limit, anytime)?;
        options.checkpoint = checkpoint.map(Checkpointing::new);
        options.threads = match threads {
            Some(0) => return Err(PyValueError::new_err("threads must be at least 1")),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        options.watch = Some(watch.clone());
        let algorithm_used = options.algorithm;
        let found = interruptible(py, &|| watch.cancel(), |_, ()| Ok(()), |_| self.solver.solve(&board, &options))?
            .map_err(error)?;
        found.map(|f| self.found(py, &board, &f, algorithm_used)).transpose()
    }

    /// Batch-weighted A* (the library's `search::batch`) on one board, with `h` (a Python
    /// function of a batch of boards, wrapped by the Python layer) or, when it is None, this
    /// solver's own estimate: a dict, or None when the board cannot reach the goal.
    #[pyo3(signature = (cells, h, batch_size, weight, greedy, max_nodes, max_memory))]
    #[allow(clippy::too_many_arguments)]
    fn batch_search<'py>(
        &self,
        py: Python<'py>,
        cells: Vec<u16>,
        h: Option<Py<PyAny>>,
        batch_size: usize,
        weight: f64,
        greedy: bool,
        max_nodes: Option<u64>,
        max_memory: Option<u64>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let goal = self.solver.goal_board();
        let board = Board::new(goal.shape(), cells).map_err(error)?;
        let options = BatchOptions {
            batch_size,
            order: if greedy { BatchOrder::Greedy } else { BatchOrder::Weighted(weight) },
            max_nodes,
            max_bytes: Some(max_memory.unwrap_or_else(solver::default_max_memory)),
            watch: None,
        };
        let (found, call_seconds) = match &h {
            Some(f) => {
                // the search runs on a worker thread without the GIL, taking it for each call,
                // while this one watches for Ctrl-C: a search between calls (a step whose boards
                // were all seen before, dead ends) would otherwise never notice it
                let mut est = PyEstimate { f, error: None, call_seconds: 0.0 };
                let watch = Arc::new(Watch::new());
                let options = BatchOptions { watch: Some(watch.clone()), ..options.clone() };
                let found = interruptible(
                    py,
                    &|| watch.cancel(),
                    |_, ()| Ok(()),
                    |_| batch_astar(&board, goal, &mut est, &options),
                )?;
                if let Some(e) = est.error {
                    return Err(e);
                }
                (found.map_err(error)?, Some(est.call_seconds))
            }
            None => {
                let guide = self.solver.guide().map_err(error)?;
                let watch = Arc::new(Watch::new());
                let options = BatchOptions { watch: Some(watch.clone()), ..options.clone() };
                let found = interruptible(
                    py,
                    &|| watch.cancel(),
                    |_, ()| Ok(()),
                    |_| batch_astar(&board, goal, &mut GuideEstimate::new(goal, guide), &options),
                )?;
                (found.map_err(error)?, None)
            }
        };
        let Some(found) = found else { return Ok(None) };
        let s = &found.stats;
        let d = PyDict::new(py);
        d.set_item("moves", found.moves.iter().map(|m| m.letter()).collect::<String>())?;
        d.set_item("generated", s.search.generated)?;
        d.set_item("expanded", s.search.expanded)?;
        d.set_item("stored", s.search.stored)?;
        d.set_item("steps", s.search.iterations)?;
        d.set_item("peak_bytes", s.search.peak_bytes)?;
        d.set_item("seconds", s.search.elapsed.as_secs_f64())?;
        d.set_item("heuristic_calls", s.calls)?;
        d.set_item("evaluated", s.evaluated)?;
        // the callable's own time; for a built-in estimate, the time computing it
        let in_h = call_seconds.unwrap_or(s.estimate_time.as_secs_f64());
        d.set_item("heuristic_seconds", in_h)?;
        d.set_item("search_seconds", (s.search.elapsed.as_secs_f64() - in_h).max(0.0))?;
        d.set_item("algorithm", options.name())?;
        d.set_item("heuristic", if h.is_some() { "callable" } else { self.solver.heuristic().name() })?;
        d.set_item("exact", self.solver.exact(&board).map_err(error)?)?;
        Ok(Some(d))
    }

    /// Solves many boards in parallel: a dict of arrays (lengths with -1 for unsolvable and -2 for
    /// a failed search, generated, expanded, seconds, optimal) and lists (moves, errors).
    #[pyo3(signature = (cells, algorithm, weight, max_nodes, max_memory, threads, progress=None, within=None, time_limit=None))]
    #[allow(clippy::too_many_arguments)]
    fn solve_batch<'py>(
        &self,
        py: Python<'py>,
        cells: PyReadonlyArray2<'py, u16>,
        algorithm: &str,
        weight: Option<f64>,
        max_nodes: Option<u64>,
        max_memory: Option<u64>,
        threads: Option<usize>,
        progress: Option<Py<PyAny>>,
        within: Option<f64>,
        time_limit: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let shape = self.solver.goal_board().shape();
        let rows = rows(shape, &cells)?;
        let total = rows.len() / shape.cells().max(1);
        let watch = Arc::new(Watch::new());
        let mut options = self.options(algorithm, weight, max_nodes, max_memory)?;
        bounded(&mut options, within, time_limit, false)?;
        // the boards run side by side: each gets its share of the memory limit
        let share = threads.unwrap_or_else(crate::pool::threads).max(1) as u64;
        options.max_bytes = options.max_bytes.map(|b| b / share);
        options.watch = Some(watch.clone());
        let algorithm_used = options.algorithm;
        let started = Instant::now();
        // `progress(done, total)` as boards finish
        let tally = Tally::new(total as u64);
        let report = |py: Python<'_>, done: u64| -> PyResult<()> {
            if let Some(f) = &progress {
                f.call1(py, (done, total))?;
            }
            Ok(())
        };
        let outcomes = interruptible(py, &|| watch.cancel(), report, |note| {
            let done = || {
                if let Some(k) = tally.add(1) {
                    note(k);
                }
            };
            on_pool(threads, || arrays::solve_many_with(&self.solver, rows, &options, &done))
        })?
        .map_err(error)?
        .map_err(row_error)?;
        let wall = started.elapsed().as_secs_f64();
        let n = outcomes.len();
        let (mut lengths, mut generated, mut expanded, mut seconds, mut optimal) =
            (vec![0i16; n], vec![0u64; n], vec![0u64; n], vec![0f64; n], vec![false; n]);
        // -1 where no bound is proven (an inadmissible heuristic, an unsolvable or failed board)
        let mut lower_bounds = vec![-1i32; n];
        let mut moves: Vec<Option<String>> = vec![None; n];
        let mut errors: Vec<Option<String>> = vec![None; n];
        // the limit that stopped a board's bounded search before its proof (or a beam before the goal)
        let mut stopped: Vec<Option<String>> = vec![None; n];
        for (i, (outcome, board)) in outcomes.iter().zip(rows.chunks(shape.cells())).enumerate() {
            match outcome {
                Outcome::Solved(f) => {
                    let board = Board::new(shape, board.to_vec()).map_err(error)?;
                    lengths[i] = f.moves.len() as i16;
                    generated[i] = f.stats.generated;
                    expanded[i] = f.stats.expanded;
                    seconds[i] = f.stats.elapsed.as_secs_f64();
                    optimal[i] = self.optimal(&board, f, algorithm_used)? == Some(true);
                    lower_bounds[i] = f.lower_bound.map_or(-1, |b| b as i32);
                    moves[i] = Some(f.moves.iter().map(|m| m.letter()).collect());
                    stopped[i] = f.stopped.clone();
                }
                Outcome::Unsolvable => lengths[i] = slidetable::arrays::UNSOLVABLE as i16,
                Outcome::Failed(e) => {
                    lengths[i] = -2;
                    errors[i] = Some(message(e));
                }
            }
        }
        let d = PyDict::new(py);
        d.set_item("lengths", PyArray1::from_vec(py, lengths))?;
        d.set_item("generated", PyArray1::from_vec(py, generated))?;
        d.set_item("expanded", PyArray1::from_vec(py, expanded))?;
        d.set_item("seconds", PyArray1::from_vec(py, seconds))?;
        d.set_item("optimal", PyArray1::from_vec(py, optimal))?;
        d.set_item("lower_bounds", PyArray1::from_vec(py, lower_bounds))?;
        d.set_item("moves", moves)?;
        d.set_item("errors", errors)?;
        d.set_item("stopped", stopped)?;
        d.set_item("wall_seconds", wall)?;
        d.set_item("algorithm", algorithm_used.name())?;
        Ok(d)
    }
}

/// Progress of one table of a partition's build, for `PatternDB.build`'s callback.
struct Step {
    /// The table's place among those built (from 1) and their number.
    table: usize,
    tables: usize,
    tiles: Vec<u16>,
    progress: Progress,
}

/// Builds the tables of `partition` (a name, groups of tiles, or partitions joined by `+`) for
/// `puzzle` into `dir`, as `table build --pattern` does: one file per group that has a table of
/// its own (a group a symmetry maps onto an earlier one shares its table), under the names a
/// solver looks for, classic or (`zero`: `Some(bits)`) zero-aware. `progress` gets a dict after
/// each depth of each table; Ctrl-C or an exception from `progress` stops the build after the
/// depth under way, the table being written left unwritten (any file under its name untouched).
/// Returns the paths written.
#[pyfunction]
#[pyo3(signature = (puzzle, partition, dir, zero, progress))]
pub fn build_patterns(
    py: Python<'_>,
    puzzle: &Puzzle,
    partition: &str,
    dir: PathBuf,
    zero: Option<bool>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Vec<String>> {
    let (shape, goal, goal_board) = (puzzle.shape, &puzzle.goal, &puzzle.goal_board);
    let partition = Partition::parse(goal_board, partition).map_err(error)?;
    let own = partition.own_tables();
    // refuse what cannot fit before any work, as the command line does
    if let Some(mem) = solver::physical_memory() {
        if let Some((g, peak)) = partition.too_big_to_build(mem, zero).map_err(error)? {
            return Err(PyValueError::new_err(format!(
                "the table of group {} ({} tiles) needs {} MiB of memory to build, and this machine has {} MiB: \
                 choose smaller groups",
                g + 1,
                partition.groups[g].len(),
                peak >> 20,
                mem >> 20
            )));
        }
    }
    let report = |py: Python<'_>, step: Step| -> PyResult<()> {
        let Some(f) = &progress else { return Ok(()) };
        let d = PyDict::new(py);
        d.set_item("table", step.table)?;
        d.set_item("tables", step.tables)?;
        d.set_item("tiles", step.tiles)?;
        d.set_item("depth", step.progress.depth)?;
        d.set_item("level_states", step.progress.level_states)?;
        d.set_item("reached", step.progress.reached)?;
        d.set_item("total", step.progress.total)?;
        d.set_item("seconds", step.progress.elapsed.as_secs_f64())?;
        f.call1(py, (d,))?;
        Ok(())
    };
    let stop = AtomicBool::new(false);
    let built = interruptible(py, &|| stop.store(true, Ordering::Relaxed), report, |note| {
        let mut paths = Vec::with_capacity(own.len());
        for (n, &g) in own.iter().enumerate() {
            let tiles = &partition.groups[g];
            let path = match zero {
                Some(_) => dir.join(zero_pattern_file_name(shape, goal, tiles)),
                None => dir.join(pattern_file_name(shape, goal, tiles)),
            };
            let each =
                |p: &Progress| note(Step { table: n + 1, tables: own.len(), tiles: tiles.clone(), progress: *p });
            build_group_file_until(goal_board, tiles, zero, &path, each, &stop)
                .map_err(|e| slidetable::Error::in_file("building", &path, e))?;
            paths.push(path.display().to_string());
        }
        Ok::<_, slidetable::Error>(paths)
    })?;
    built.map_err(error)
}

/// Makes the move-pruning machine of `puzzle`'s shape for strings of up to `length` moves and
/// writes it into `dir` under the name a solver looks for, as `table build --prune`: returns
/// (path, forbidden strings, states).
#[pyfunction]
#[pyo3(signature = (puzzle, length, dir, progress=None))]
pub fn build_pruner(
    py: Python<'_>,
    puzzle: &Puzzle,
    length: usize,
    dir: PathBuf,
    progress: Option<Py<PyAny>>,
) -> PyResult<(String, u64, usize)> {
    if !(2..=24).contains(&length) {
        return Err(PyValueError::new_err(format!("length {length} is out of range: give 2 to 24 moves")));
    }
    let shape = puzzle.shape;
    let path = dir.join(MovePruner::file_name(shape, length));
    let made = counted(py, shape.cells() as u64, progress.as_ref(), |step, stop| {
        let machine = MovePruner::generate_until(shape, length, step, stop)?;
        machine.write(&path).map_err(|e| slidetable::Error::in_file("writing", &path, e))?;
        Ok::<_, slidetable::Error>((machine.patterns(), machine.states()))
    })?;
    let (patterns, states) = made.map_err(error)?;
    Ok((path.display().to_string(), patterns, states))
}

/// The named partitions and catalogues of `puzzle`'s shape: (name, what it is), `auto` last.
#[pyfunction]
pub fn partitions(puzzle: &Puzzle) -> Vec<(String, String)> {
    let mut names: Vec<(String, String)> = Partition::catalogue()
        .into_iter()
        .filter(|(shape, ..)| *shape == puzzle.shape)
        .map(|(_, name, about, _)| (name.to_string(), about.to_string()))
        .collect();
    names.push((
        "auto".into(),
        "consecutive tiles of the goal in groups small enough to build in about a second each".into(),
    ));
    names
}
