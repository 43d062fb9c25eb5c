//! Russell & Norvig's experiment: how many nodes heuristic search generates, by solution depth.
//!
//! *Artificial Intelligence: A Modern Approach* (2nd ed. figure 4.8, 3rd ed. figure 3.29) solves
//! 100 random 8-puzzle problems at each even solution depth from 2 to 24 with A* and the two
//! heuristics h1 (misplaced tiles) and h2 (Manhattan), and reports the mean number of nodes
//! generated and the *effective branching factor* b*: the branching factor a uniform tree of
//! depth `d` would need to hold `N + 1` nodes, `N + 1 = 1 + b* + b*^2 + ... + b*^d`. Hazan & Ra
//! repeated it (Hazan & Ra's replication) with the blank-first goal `_ 1 2 / 3 4 5 / 6 7 8`.
//!
//! Here the problems are drawn exactly at each depth from the perfect table ([`sample_depth`]),
//! not made by random walks and kept when their depth happens to match, and every search gets the
//! same problems.
//!
//! **Nodes generated** are counted as [`crate::search`] counts them: the start counts as
//! generated; a successor is generated when it is made; the move straight back to the parent is
//! never made; A* stops when the goal is taken off the open list (so the successors made before
//! that count, including any made when the goal's parent was expanded); IDA* counts every node
//! made in every iteration. **b*** ([`effective_branching_factor`]) is solved from the *mean* N over the problems of a depth, as
//! Russell & Norvig and Hazan & Ra do, not averaged over per-problem b* values.

use rayon::prelude::*;

use crate::error::Error;
use crate::heuristic::Heuristic;
use crate::lab::sample::sample_depth;
use crate::search::{effective_branching_factor, solve, Algorithm, Guide, Options};
use crate::table::Table;

/// What guides one column's search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Guidance {
    /// A heuristic estimate.
    Heuristic(Heuristic),
    /// The exact distances of the table the problems are drawn from: the ideal estimate, against
    /// which the heuristics' extra nodes show.
    Table,
}

impl Guidance {
    /// The heuristic's name, or `table`.
    pub fn name(self) -> &'static str {
        match self {
            Guidance::Heuristic(h) => h.name(),
            Guidance::Table => "table",
        }
    }
}

/// One column of the experiment: an algorithm with a guide.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Column {
    /// The algorithm: [`Algorithm::AStar`] or [`Algorithm::IdaStar`] for Russell & Norvig's
    /// figures; the others run too, but their solutions may be longer than the depth.
    pub algorithm: Algorithm,
    /// What guides it.
    pub guide: Guidance,
}

impl Column {
    /// `A*(manhattan)`, `IDA*(table)`.
    pub fn label(&self) -> String {
        let algorithm = match self.algorithm {
            Algorithm::AStar => "A*".to_string(),
            Algorithm::IdaStar => "IDA*".to_string(),
            Algorithm::Weighted(w) => format!("wA*{w}"),
            other => other.name().to_string(),
        };
        format!("{algorithm}({})", self.guide.name())
    }
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The solution depths, each a depth the table has states at.
    pub depths: Vec<u8>,
    /// Problems per depth; a depth with fewer states uses all of them.
    pub count: usize,
    /// The seed of the sample: the problems at depth `d` are `sample_depth(table, d, count, seed)`.
    pub seed: u64,
    /// The searches, each run on every problem.
    pub columns: Vec<Column>,
}

/// One search's figures at one depth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    /// The mean number of nodes generated over the problems.
    pub mean_generated: f64,
    /// The fewest nodes generated on one problem.
    pub min_generated: u64,
    /// The most nodes generated on one problem.
    pub max_generated: u64,
    /// The mean number of nodes expanded.
    pub mean_expanded: f64,
    /// The effective branching factor of `mean_generated` at this depth.
    pub b_star: Option<f64>,
    /// Problems whose solution was longer than the depth (none for an admissible heuristic).
    pub suboptimal: usize,
}

/// The figures at one depth, one [`Cell`] per column of the plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The solution depth.
    pub depth: u8,
    /// Problems solved at this depth.
    pub problems: usize,
    /// One cell per column, in the plan's order.
    pub cells: Vec<Cell>,
}

/// Runs `plan` on problems drawn from `table`; `progress` is called with each row as it is done.
///
/// The problems of a depth are searched in parallel; the figures do not depend on the number of
/// threads.
///
/// # Errors
/// [`Error::NotEnoughStates`] when a depth has no states at all;
/// [`Error::Corrupt`] when a search finds no solution for a state the table says is solvable.
pub fn run<D: AsRef<[u8]> + Sync>(
    table: &Table<D>,
    plan: &Plan,
    mut progress: impl FnMut(&Row),
) -> Result<Vec<Row>, Error> {
    let goal = table.goal();
    let mut rows = Vec::with_capacity(plan.depths.len());
    for &depth in &plan.depths {
        // A depth with fewer states than asked for (2 to 6 on the 8-puzzle) is done in full: the
        // exact mean over all its states, which a sample with repeats would only estimate.
        let available = table.histogram().get(depth as usize).copied().unwrap_or(0);
        if available == 0 {
            return Err(Error::NotEnoughStates { depth, requested: plan.count as u64, available });
        }
        let count = plan.count.min(available as usize);
        let boards: Vec<_> =
            sample_depth(table, depth, count, plan.seed)?.into_iter().map(|i| table.index().board(i)).collect();
        let mut cells = Vec::with_capacity(plan.columns.len());
        for column in &plan.columns {
            let found: Vec<(u64, u64, usize)> = boards
                .par_iter()
                .map(|b| {
                    let guide = match column.guide {
                        Guidance::Heuristic(h) => Guide::Heuristic(h),
                        Guidance::Table => Guide::Table(table),
                    };
                    let found = solve(b, goal, guide, &Options::new(column.algorithm))?;
                    found.map(|f| (f.stats.generated, f.stats.expanded, f.moves.len())).ok_or_else(|| Error::Corrupt {
                        index: table.index().index(b).unwrap_or(0),
                        board: b.to_string(),
                        detail: format!("the table gives distance {depth} but {} finds no solution", column.label()),
                    })
                })
                .collect::<Result<_, Error>>()?;
            let n = found.len().max(1) as f64;
            let mean_generated = found.iter().map(|f| f.0 as f64).sum::<f64>() / n;
            cells.push(Cell {
                mean_generated,
                min_generated: found.iter().map(|f| f.0).min().unwrap_or(0),
                max_generated: found.iter().map(|f| f.0).max().unwrap_or(0),
                mean_expanded: found.iter().map(|f| f.1 as f64).sum::<f64>() / n,
                b_star: effective_branching_factor(mean_generated, depth as u32),
                suboptimal: found.iter().filter(|f| f.2 != depth as usize).count(),
            });
        }
        let row = Row { depth, problems: boards.len(), cells };
        progress(&row);
        rows.push(row);
    }
    Ok(rows)
}
