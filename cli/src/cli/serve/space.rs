//! One board shape and goal as the server knows it: where its exact distances come from (a
//! perfect table, or IDA* with pattern tables), its estimates, and the pattern tables the `pdb`
//! heuristic uses. Made once per shape and goal, on first use, and kept.
//!
//! What is built on the spot (a 12-cell table in memory, 4x4 pattern tables, the `pdb` tables of
//! small boards) is built on a rayon pool of its own, of half the cores at the jobs' low priority,
//! so that a first visit to 3x4 or 4x4 never takes every core from the lookups.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};

use axum::http::StatusCode;
use slidetable::game::{Oracle, SearchOracle};
use slidetable::heuristic::pdb::{Partition, PatternSet};
use slidetable::heuristic::Estimator;
use slidetable::index::rank::MAX_TABLE_CELLS;
use slidetable::search::Guide;
use slidetable::solver::{self, default_table_name, HeuristicKind, Load, TableBytes};
use slidetable::table::format::PAYLOAD_OFFSET;
use slidetable::{Board, Error, Goal, Shape, Table};

use super::http::ApiError;

/// Boards of at most this many cells (2x5: 1.8 M states) have their tables made on the spot, in
/// milliseconds, without waiting for a bigger board's to be made.
const QUICK_CELLS: usize = 10;

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
    /// The perfect table: for a board of up to 12 cells the file in the directory, else built in
    /// memory; for 2x7 and 7x2 the (two-bit) file in the directory, if there is one.
    pub table: Option<Table<TableBytes>>,
    /// Where the table came from, or how distances are found without one.
    pub source: String,
    /// IDA* for boards without a table, each search given up past [`POSITION_MAX_NODES`].
    pub oracle: Option<SearchOracle>,
    /// The pattern tables of the `pdb` heuristic: loaded or built on first use.
    patterns: OnceLock<Result<PatternSet, String>>,
    dir: PathBuf,
    builder: Builder,
    /// Whether the heat maps the page draws first have been started in the background
    /// ([`super::heatmap::warm`]).
    pub warmed: AtomicBool,
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

    /// Runs `work` with its parallel parts (rayon) on the pool tables are built on: half the cores
    /// at the jobs' low priority, so a scan of a big table never takes every core from lookups.
    pub fn on_build_pool<T: Send>(&self, work: impl FnOnce() -> T + Send) -> T {
        self.builder.run(work)
    }

    /// The directory tables are looked for in (and heat maps kept).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The perfect table, or the error a front end shows for a board without one.
    pub fn table(&self) -> Result<&Table<TableBytes>, Error> {
        self.table.as_ref().ok_or_else(|| {
            let name = self.dir.join(default_table_name(self.shape, &self.goal));
            let how = if self.shape.cells() <= 12 {
                format!(
                    "build it with `table build --board {} --goal {} --output {}` and restart the server",
                    self.shape,
                    self.goal,
                    name.display()
                )
            } else if self.shape.cells() <= MAX_TABLE_CELLS {
                format!(
                    "build it with `table build --board {} --goal {} --output {}` (10.9 GB on disk; about 10 minutes \
                     and 16 GiB of memory on two cores) and restart the server",
                    self.shape,
                    self.goal,
                    name.display()
                )
            } else {
                format!("perfect tables hold boards of at most {MAX_TABLE_CELLS} cells")
            };
            Error::BadOption(format!("this needs the perfect table of the {} board ({}): {how}", self.shape, self.goal))
        })
    }

    /// The pattern tables of the `pdb` heuristic: on boards without a perfect table, those the
    /// searches use (found in the directory); on boards of up to 12 cells, the best named
    /// partition found in the directory, else the default one, built on the spot (small tables,
    /// saved in the directory for a named goal, kept in memory only for others: [`saves_built`]).
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
                let load = || {
                    let load = Load { save: saves_built(&self.goal), ..Load::default() };
                    solver::load_patterns(&self.goal, &self.goal_board, &partition, &self.dir, load, |_| {})
                        .map_err(|e| e.to_string())
                };
                // a small board's, in milliseconds, here: on the low-priority pool the first
                // 3x3 position waited 300 ms for a core while the browser loaded the page
                if self.shape.cells() > QUICK_CELLS {
                    self.builder.run(load)
                } else {
                    load()
                }
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

impl Space {
    /// The bytes this space keeps: its perfect table (built in memory, or the whole file mapped:
    /// the pages a lookup touches stay resident, so a mapped table counts as much as a built one)
    /// and its pattern tables.
    pub fn bytes(&self) -> u64 {
        let set = |s: &PatternSet| s.tables().iter().map(|t| t.entries().len() as u64).sum::<u64>();
        // a two-bit table past 12 cells is mapped and walked, never read whole: see `table_bytes`
        let table = self.table.as_ref().filter(|_| self.shape.cells() <= 12).map_or(0, |t| t.as_bytes().len() as u64);
        let searched = match self.oracle.as_ref().and_then(|o| o.guide()) {
            Some(Guide::Patterns(s)) => set(s),
            _ => 0,
        };
        let pdb = match self.patterns.get() {
            Some(Ok(s)) => set(s),
            _ => 0,
        };
        table + searched + pdb
    }
}

/// Whether the pattern tables built on the spot for `goal` are saved in the directory: for the
/// three named goals only. A goal given as a board is any of n!/2 arrangements a client chooses,
/// so saving their tables would let clients fill the disk (about 4 MB a goal on 3x4, 11 MB on
/// 4x4); those are kept in memory instead, counted in [`Space::bytes`] against the budget. What
/// the named goals save is bounded (three goals a shape) and spares later servers the build
/// (4x4's 6-6-3: about 8 s at the page's first use on 2 cores).
pub fn saves_built(goal: &Goal) -> bool {
    !matches!(goal, Goal::Custom(_))
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

/// A heat map's key: shape, goal and heuristic.
pub type HeatKey = (Shape, Goal, String);

/// What the server keeps, within a memory budget: every [`Space`] made (its perfect table, built
/// in memory or memory-mapped, and its pattern tables) and the heat maps computed. Past the budget
/// the least recently used go (a space a job or a request still holds lives on until it lets go:
/// only the server's reference is dropped, and the space is taken back if asked for meanwhile).
pub struct Spaces {
    dir: PathBuf,
    builder: Builder,
    budget: u64,
    kept: Mutex<Kept>,
    /// Held while a space is made, so that two requests never build the same table twice.
    making: Mutex<()>,
}

#[derive(Default)]
struct Kept {
    /// Ticks up at each use: the smallest `used` is the least recently used.
    clock: u64,
    spaces: HashMap<(Shape, Goal), Held<Arc<Space>>>,
    heatmaps: HashMap<HeatKey, Held<Arc<str>>>,
    /// Spaces let go past the budget that some job or request may still hold.
    evicted: Vec<std::sync::Weak<Space>>,
    /// Spaces made so far (each build counts, a rebuild after an eviction too).
    made: u64,
}

struct Held<T> {
    value: T,
    used: u64,
}

/// What was let go, dropped once the lock is released (freeing a 240 MB table takes a moment).
type Dropped = Vec<Arc<Space>>;

impl Kept {
    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// The bytes kept.
    fn used(&self) -> u64 {
        let spaces: u64 = self.spaces.values().map(|h| h.value.bytes()).sum();
        spaces + self.heatmaps.values().map(|h| h.value.len() as u64).sum::<u64>()
    }

    /// Lets go of the least recently used spaces and heat maps until at most `limit` bytes are
    /// kept (`keep`, the space just made or asked for, last of all).
    fn trim(&mut self, limit: u64, keep: Option<&(Shape, Goal)>, dropped: &mut Dropped) {
        self.evicted.retain(|w| w.strong_count() > 0);
        let mut used = self.used();
        while used > limit {
            let space = self.spaces.iter().filter(|(k, _)| Some(*k) != keep).min_by_key(|(_, h)| h.used);
            let heatmap = self.heatmaps.iter().min_by_key(|(_, h)| h.used);
            match (space, heatmap) {
                (Some((k, s)), h) if h.is_none_or(|(_, h)| s.used < h.used) => {
                    let k = k.clone();
                    if let Some(h) = self.spaces.remove(&k) {
                        used -= h.value.bytes();
                        self.evicted.push(Arc::downgrade(&h.value));
                        dropped.push(h.value);
                    }
                }
                (_, Some((k, _))) => {
                    let k = k.clone();
                    if let Some(h) = self.heatmaps.remove(&k) {
                        used -= h.value.len() as u64;
                    }
                }
                (_, None) => break,
            }
        }
    }
}

/// `bytes` in the units people read (`240 MB`, `1.0 GiB`).
pub fn show_bytes(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 => format!("{:.1} GiB", b as f64 / (1u64 << 30) as f64),
        b if b >= 1 << 20 => format!("{:.0} MiB", b as f64 / (1u64 << 20) as f64),
        b if b >= 1 << 10 => format!("{:.0} KiB", b as f64 / (1u64 << 10) as f64),
        b => format!("{b} bytes"),
    }
}

impl Spaces {
    /// No space made yet; tables are looked for in `dir`; at most `budget` bytes kept.
    pub fn new(dir: &Path, budget: u64) -> Spaces {
        Spaces {
            dir: dir.to_path_buf(),
            builder: Builder::new(),
            budget,
            kept: Mutex::new(Kept::default()),
            making: Mutex::new(()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The directory tables are looked for in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The space of `shape` and `goal` if it is kept now (no waiting, and no use recorded).
    pub fn ready(&self, shape: Shape, goal: &Goal) -> Option<Arc<Space>> {
        self.lock().spaces.get(&(shape, goal.clone())).map(|h| Arc::clone(&h.value))
    }

    /// The space of `shape` and `goal`, made now if it is not kept (building a table, a few
    /// seconds, or loading pattern tables: call it off the async threads). Spaces and heat maps
    /// used least recently are let go to make room.
    ///
    /// # Errors
    /// A 503 for a space larger than the whole budget; those of making it.
    pub fn get(&self, shape: Shape, goal: &Goal) -> Result<Arc<Space>, ApiError> {
        let key = (shape, goal.clone());
        if let Some(s) = self.kept_now(&key) {
            return Ok(s);
        }
        // big tables are made one at a time (within the budget, never twice at once); a board of
        // up to 10 cells is made in milliseconds and never waits behind a big one (a 3x3 lookup
        // stood 7 s behind a 2x6 table being built for another client)
        let _making = (shape.cells() > QUICK_CELLS).then(|| self.making.lock().unwrap_or_else(|e| e.into_inner()));
        if let Some(s) = self.kept_now(&key) {
            return Ok(s);
        }
        let mut dropped = Dropped::new();
        {
            let mut kept = self.lock();
            // one let go but still held by a job comes back as it is
            if let Some(space) =
                kept.evicted.iter().filter_map(|w| w.upgrade()).find(|s| s.shape == shape && s.goal == *goal)
            {
                let used = kept.tick();
                kept.evicted.retain(|w| !std::ptr::eq(w.as_ptr(), Arc::as_ptr(&space)));
                kept.spaces.insert(key.clone(), Held { value: Arc::clone(&space), used });
                kept.trim(self.budget, Some(&key), &mut dropped);
                drop(kept);
                drop(dropped);
                return Ok(space);
            }
            let needs = self.table_bytes(shape, goal);
            self.check_fits(shape, needs)?;
            kept.trim(self.budget - needs, None, &mut dropped);
        }
        drop(dropped);
        // a big table on the low-priority build pool; a small one here, at once (the pool's one
        // thread may be busy with a big one for seconds)
        let made = if shape.cells() > QUICK_CELLS {
            self.builder.run(|| self.make(shape, goal))
        } else {
            self.make(shape, goal)
        };
        let space = Arc::new(made?);
        self.check_fits(shape, space.bytes())?;
        let mut kept = self.lock();
        let used = kept.tick();
        kept.made += 1;
        kept.spaces.insert(key.clone(), Held { value: Arc::clone(&space), used });
        let mut dropped = Dropped::new();
        kept.trim(self.budget, Some(&key), &mut dropped);
        drop(kept);
        drop(dropped);
        Ok(space)
    }

    /// The space under `key` if kept, its use recorded, and what grew since (pattern tables
    /// built on first use) trimmed.
    fn kept_now(&self, key: &(Shape, Goal)) -> Option<Arc<Space>> {
        let mut kept = self.lock();
        let used = kept.tick();
        let space = kept.spaces.get_mut(key).map(|h| {
            h.used = used;
            Arc::clone(&h.value)
        })?;
        let mut dropped = Dropped::new();
        kept.trim(self.budget, Some(key), &mut dropped);
        drop(kept);
        drop(dropped);
        Some(space)
    }

    /// The 503 for a space of `bytes` larger than the whole budget.
    fn check_fits(&self, shape: Shape, bytes: u64) -> Result<(), ApiError> {
        if bytes <= self.budget {
            return Ok(());
        }
        Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the {shape} board's tables take {}, more than this server's memory budget of {}: \
                 restart it with a larger --max-memory",
                show_bytes(bytes),
                show_bytes(self.budget)
            ),
        ))
    }

    /// The bytes of the perfect table a space of `shape` and `goal` would keep (the file's length,
    /// or the table built in memory); 0 for boards without one.
    ///
    /// A two-bit table past 12 cells counts nothing: it is mapped, not read whole (a lookup walks
    /// a few hundred bytes of it, which the kernel may drop from its page cache), and nothing the
    /// server does scans it.
    fn table_bytes(&self, shape: Shape, goal: &Goal) -> u64 {
        if shape.cells() > 12 {
            return 0;
        }
        match std::fs::metadata(self.dir.join(default_table_name(shape, goal))) {
            Ok(m) => m.len(),
            Err(_) => PAYLOAD_OFFSET as u64 + (1..=shape.cells() as u64).product::<u64>() / 2,
        }
    }

    /// The heat map kept under `key`, its use recorded.
    pub fn heatmap(&self, key: &HeatKey) -> Option<Arc<str>> {
        let mut kept = self.lock();
        let used = kept.tick();
        kept.heatmaps.get_mut(key).map(|h| {
            h.used = used;
            Arc::clone(&h.value)
        })
    }

    /// Keeps a heat map (its JSON text), within the budget.
    pub fn keep_heatmap(&self, key: HeatKey, text: Arc<str>) {
        let mut kept = self.lock();
        let used = kept.tick();
        kept.heatmaps.insert(key, Held { value: text, used });
        let mut dropped = Dropped::new();
        kept.trim(self.budget, None, &mut dropped);
        drop(kept);
        drop(dropped);
    }

    /// For `GET /api/info`: `{"used": bytes, "budget": bytes, "evicted_in_use": bytes, "spaces":
    /// n, "heatmaps": n, "built": n}`: what is kept, the budget, what was let go but is still held
    /// by a job or a request, the spaces and heat maps kept, and the spaces made so far (a space
    /// made again after it was let go counts again).
    pub fn memory(&self) -> serde_json::Value {
        let mut kept = self.lock();
        let mut dropped = Dropped::new();
        kept.trim(self.budget, None, &mut dropped);
        let in_use: u64 = kept.evicted.iter().filter_map(|w| w.upgrade()).map(|s| s.bytes()).sum();
        let answer = serde_json::json!({"used": kept.used(), "budget": self.budget, "evicted_in_use": in_use,
            "spaces": kept.spaces.len(), "heatmaps": kept.heatmaps.len(), "built": kept.made});
        drop(kept);
        drop(dropped);
        answer
    }

    fn make(&self, shape: Shape, goal: &Goal) -> Result<Space, Error> {
        if shape.cells() > MAX_CELLS {
            return Err(Error::BadShape(format!("{shape}: the page plays boards of at most {MAX_CELLS} cells (5x5)")));
        }
        let goal_board = goal.board(shape)?;
        let estimator = Estimator::new(&goal_board);
        let mut table = None;
        let mut source = String::new();
        let path = self.dir.join(default_table_name(shape, goal));
        // past 12 cells (2x7, 7x2) a table is only ever found, never built here: 10.9 GB
        if shape.cells() <= 12 || (shape.cells() <= MAX_TABLE_CELLS && path.exists()) {
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
                // in about two seconds and, for a named goal, saved for the next time
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
                        Load { build_missing, shared: !build_missing, save: saves_built(goal), ..Load::default() },
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
            warmed: AtomicBool::new(false),
        })
    }
}
