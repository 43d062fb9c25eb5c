//! One board shape and goal as the server knows it: where its exact distances come from (a
//! perfect table, or IDA* with pattern tables), its estimates, and the pattern tables the `pdb`
//! heuristic uses. Made once per shape and goal, on first use, and kept.
//!
//! What is built on the spot (a 12-cell table in memory, 4x4 pattern tables, the `pdb` tables of
//! small boards) is built on a rayon pool of its own, of half the cores at the jobs' low priority,
//! so that a first visit to 3x4 or 4x4 never takes every core from the lookups.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use slidetable::game::{Oracle, SearchOracle};
use slidetable::heuristic::pdb::{Partition, PatternSet};
use slidetable::heuristic::Estimator;
use slidetable::search::Guide;
use slidetable::solver::{self, default_table_name, HeuristicKind, Load, TableBytes};
use slidetable::{Board, Error, Goal, Shape, Table};

/// The largest board the server plays: 5x5.
pub const MAX_CELLS: usize = 25;

/// Nodes one position request may search on a board without a table before it says "a long
/// search is needed" (about a second).
pub const POSITION_MAX_NODES: u64 = 3_000_000;

/// A shape and goal, with what answers questions about them.
pub struct Space {
    pub shape: Shape,
    pub goal: Goal,
    pub goal_board: Board,
    pub estimator: Estimator,
    /// The perfect table of a board of up to 12 cells: the file in the directory, else built in
    /// memory.
    pub table: Option<Table<TableBytes>>,
    /// Where the table came from, or how distances are found without one.
    pub source: String,
    /// IDA* for boards without a table, each search given up past [`POSITION_MAX_NODES`].
    pub oracle: Option<SearchOracle>,
    /// The pattern tables of the `pdb` heuristic: loaded or built on first use.
    patterns: OnceLock<Result<PatternSet, String>>,
    dir: PathBuf,
    builder: Builder,
}

impl Space {
    /// The exact distance of `board` (a table lookup, or a search of at most
    /// [`POSITION_MAX_NODES`] nodes that may give up with [`Error::SearchLimit`]).
    pub fn distance(&self, board: &Board) -> Result<Option<u32>, Error> {
        match (&self.table, &self.oracle) {
            (Some(t), _) => Ok(t.distance(board)?.map(u32::from)),
            (None, Some(o)) => o.distance(board),
            (None, None) => Err(Error::Internal("a space with neither a table nor a search".into())),
        }
    }

    /// The perfect table, or the error a front end shows for a board without one.
    pub fn table(&self) -> Result<&Table<TableBytes>, Error> {
        self.table.as_ref().ok_or_else(|| {
            let how = if self.shape.cells() <= 12 {
                let name = self.dir.join(default_table_name(self.shape, &self.goal));
                format!(
                    "build it with `table build --board {} --goal {} --output {}` and restart the server",
                    self.shape,
                    self.goal,
                    name.display()
                )
            } else {
                "perfect tables hold boards of at most 12 cells".to_string()
            };
            Error::BadOption(format!("this needs the perfect table of the {} board ({}): {how}", self.shape, self.goal))
        })
    }

    /// The pattern tables of the `pdb` heuristic: on boards without a perfect table, those the
    /// searches use (found in the directory); on boards of up to 12 cells, the best named
    /// partition found in the directory, else the default one, built on the spot (small tables,
    /// saved in the directory).
    pub fn patterns(&self) -> Result<&PatternSet, String> {
        if let Some(Guide::Patterns(set)) = self.oracle.as_ref().and_then(|o| o.guide()) {
            return Ok(set);
        }
        if self.shape.cells() > 12 {
            let command = Partition::parse(&self.goal_board, solver::default_partition(self.shape))
                .map(|p| solver::pattern_build_command(self.shape, &self.goal, &p, &self.dir))
                .unwrap_or_else(|_| "table build --pattern".into());
            return Err(format!("none in {}: build them with `{command}` and restart", self.dir.display()));
        }
        self.patterns
            .get_or_init(|| {
                let partition = match solver::found_partition(&self.goal, &self.goal_board, &self.dir) {
                    Some(p) => p,
                    None => Partition::parse(&self.goal_board, solver::default_partition(self.shape))
                        .map_err(|e| e.to_string())?,
                };
                self.builder.run(|| {
                    solver::load_patterns(&self.goal, &self.goal_board, &partition, &self.dir, Load::default(), |_| {})
                        .map_err(|e| e.to_string())
                })
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The guide a heuristic's name gives a search: a classic estimate, `pdb` ([`Space::patterns`])
    /// or `table` (the perfect table).
    pub fn guide(&self, name: &str) -> Result<Guide<'_>, Error> {
        match HeuristicKind::from_name(name) {
            Some(HeuristicKind::Pdb) => Ok(Guide::Patterns(self.patterns().map_err(Error::BadOption)?)),
            Some(HeuristicKind::Table) => Ok(Guide::Table(self.table()?)),
            Some(kind) => kind
                .estimate()
                .map(Guide::Heuristic)
                .ok_or_else(|| Error::Internal(format!("{} is not an estimate", kind.name()))),
            None => Err(Error::BadOption(format!(
                "unknown heuristic `{}`: use zero, hamming, manhattan, linear-conflict, nilsson, pdb or table",
                name.trim()
            ))),
        }
    }

    /// The estimate `name` names (`zero`, a classic heuristic, or `pdb`) as a function of the cells.
    pub fn estimate_fn(&self, name: &str) -> Result<Estimate<'_>, Error> {
        if matches!(name.trim().to_ascii_lowercase().as_str(), "zero" | "none" | "0") {
            return Ok(Box::new(|_: &[u16]| 0));
        }
        match self.guide(name)? {
            Guide::Heuristic(h) => Ok(Box::new(move |cells: &[u16]| self.estimator.estimate(h, cells))),
            Guide::Patterns(set) => Ok(Box::new(move |cells: &[u16]| set.estimate_cells(cells))),
            Guide::Table(_) => {
                Err(Error::BadOption("`table` is h* itself: choose an estimate to set beside it".into()))
            }
        }
    }
}

/// An estimate as a function of a board's cells, row by row.
pub type Estimate<'a> = Box<dyn Fn(&[u16]) -> u32 + Sync + 'a>;

/// Where tables are built on the spot: a rayon pool of half the cores, at the jobs' low priority
/// (the global pool when one cannot be made).
#[derive(Clone)]
pub struct Builder(Option<Arc<rayon::ThreadPool>>);

impl Builder {
    /// A pool of half the cores (at least one).
    pub fn new() -> Builder {
        Builder(super::queue::low_priority_pool(super::cores() / 2, "build").map(Arc::new))
    }

    /// Runs `work` with its parallel parts on the pool.
    pub fn run<T: Send>(&self, work: impl FnOnce() -> T + Send) -> T {
        match &self.0 {
            Some(pool) => pool.install(work),
            None => work(),
        }
    }
}

impl Default for Builder {
    fn default() -> Builder {
        Builder::new()
    }
}

/// Every [`Space`] made so far, by shape and goal.
pub struct Spaces {
    dir: PathBuf,
    builder: Builder,
    made: Mutex<HashMap<(Shape, Goal), Arc<Space>>>,
    /// Held while a space is made, so that two requests never build the same table twice.
    making: Mutex<()>,
}

impl Spaces {
    /// No space made yet; tables are looked for in `dir`.
    pub fn new(dir: &Path) -> Spaces {
        Spaces {
            dir: dir.to_path_buf(),
            builder: Builder::new(),
            made: Mutex::new(HashMap::new()),
            making: Mutex::new(()),
        }
    }

    /// The directory tables are looked for in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The space of `shape` and `goal` if it was made already (no waiting).
    pub fn ready(&self, shape: Shape, goal: &Goal) -> Option<Arc<Space>> {
        self.made.lock().unwrap_or_else(|e| e.into_inner()).get(&(shape, goal.clone())).cloned()
    }

    /// The space of `shape` and `goal`, made now if it is not yet (building a table, up to two
    /// seconds, or loading pattern tables: call it off the async threads).
    pub fn get(&self, shape: Shape, goal: &Goal) -> Result<Arc<Space>, Error> {
        if let Some(s) = self.ready(shape, goal) {
            return Ok(s);
        }
        let _making = self.making.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = self.ready(shape, goal) {
            return Ok(s);
        }
        let space = Arc::new(self.builder.run(|| self.make(shape, goal))?);
        self.made.lock().unwrap_or_else(|e| e.into_inner()).insert((shape, goal.clone()), Arc::clone(&space));
        Ok(space)
    }

    fn make(&self, shape: Shape, goal: &Goal) -> Result<Space, Error> {
        if shape.cells() > MAX_CELLS {
            return Err(Error::BadShape(format!("{shape}: the page plays boards of at most {MAX_CELLS} cells (5x5)")));
        }
        let goal_board = goal.board(shape)?;
        let estimator = Estimator::new(&goal_board);
        let mut table = None;
        let mut source = String::new();
        if shape.cells() <= 12 {
            let path = self.dir.join(default_table_name(shape, goal));
            if path.exists() {
                let t = solver::open_table(&path).map_err(|e| Error::in_file("opening", &path, e))?;
                if t.goal() != &goal_board {
                    return Err(Error::in_file(
                        "opening",
                        &path,
                        Error::BadGoal(format!("the file's goal is {}, not {}", t.goal().to_numbers(), goal)),
                    ));
                }
                table = Some(t);
                source = path.display().to_string();
            } else {
                // 2 seconds and 240 MB for the 12-cell boards, milliseconds below
                let built = slidetable::build(&goal_board, |_| {})?;
                table = Some(Table::new(TableBytes::Owned(built.into_inner()))?);
                source = "a table built in memory".into();
            }
        }
        let oracle = match table {
            Some(_) => None,
            None => {
                // the best tables found, else (4x4) the default partition's, small enough to build
                // in about two seconds and saved for the next time
                let (partition, build_missing) = match solver::found_partition(goal, &goal_board, &self.dir) {
                    Some(p) => (Some(p), false),
                    None if shape.rows() == 4 && shape.cols() == 4 => {
                        (Some(Partition::parse(&goal_board, solver::default_partition(shape))?), true)
                    }
                    None => (None, false),
                };
                let patterns = match partition {
                    Some(p) => Some(solver::load_patterns(
                        goal,
                        &goal_board,
                        &p,
                        &self.dir,
                        Load { build_missing, shared: !build_missing, ..Load::default() },
                        |_| {},
                    )?),
                    None => None,
                };
                let oracle = SearchOracle::new(goal_board.clone(), patterns, 1, Some(POSITION_MAX_NODES));
                source = oracle.describe();
                Some(oracle)
            }
        };
        Ok(Space {
            shape,
            goal: goal.clone(),
            goal_board,
            estimator,
            table,
            source,
            oracle,
            patterns: OnceLock::new(),
            dir: self.dir.clone(),
            builder: self.builder.clone(),
        })
    }
}
