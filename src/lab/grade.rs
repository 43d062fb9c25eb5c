//! Grading a heuristic against the exact distances of a whole table.
//!
//! For every state, the estimate `h` is compared with the true distance `h*` (the table entry);
//! for every edge (two states one move apart), the two estimates are compared with each other.
//! With unit move costs a heuristic is *consistent* when `h(a) <= 1 + h(b)` across every edge,
//! both ways, that is `|h(a) - h(b)| <= 1`, and `h(goal) = 0`; consistency implies admissibility
//! (`h <= h*`), and A* with a consistent heuristic never reopens a closed state.
//!
//! [`grade`] computes every estimate once (in parallel), then sums per depth. An edge joins states
//! whose depths differ by exactly one; it is counted at the shallower of its two depths.

use rayon::prelude::*;

use crate::error::Error;
use crate::heuristic::{Estimator, Heuristic};
use crate::table::Table;

/// States per unit of parallel work.
const CHUNK: u64 = 1 << 14;

/// What a heuristic does on the states at one depth, or on all of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DepthGrade {
    /// States counted.
    pub states: u64,
    /// The sum of the estimates.
    pub sum_h: u64,
    /// The sum of the true distances.
    pub sum_exact: u64,
    /// States where the estimate is the true distance.
    pub exact: u64,
    /// States where the estimate exceeds the true distance (none for an admissible heuristic).
    pub overestimates: u64,
    /// The largest excess of the estimate over the true distance (0 when it never overestimates).
    pub max_overestimate: u32,
    /// Edges counted (at their shallower end).
    pub edges: u64,
    /// Edges whose two estimates differ by more than one move (none for a consistent heuristic).
    pub inconsistent_edges: u64,
}

impl DepthGrade {
    /// The mean estimate; 0 when there are no states.
    pub fn mean_h(&self) -> f64 {
        ratio(self.sum_h as f64, self.states)
    }

    /// The mean true distance; 0 when there are no states.
    pub fn mean_exact(&self) -> f64 {
        ratio(self.sum_exact as f64, self.states)
    }

    /// The mean error `h* - h` (negative where the heuristic overestimates on average).
    pub fn mean_error(&self) -> f64 {
        ratio(self.sum_exact as f64 - self.sum_h as f64, self.states)
    }

    /// The share of states (0 to 1) where the estimate is exact.
    pub fn exact_share(&self) -> f64 {
        ratio(self.exact as f64, self.states)
    }

    fn add(&mut self, other: &DepthGrade) {
        self.states += other.states;
        self.sum_h += other.sum_h;
        self.sum_exact += other.sum_exact;
        self.exact += other.exact;
        self.overestimates += other.overestimates;
        self.max_overestimate = self.max_overestimate.max(other.max_overestimate);
        self.edges += other.edges;
        self.inconsistent_edges += other.inconsistent_edges;
    }
}

fn ratio(x: f64, n: u64) -> f64 {
    if n == 0 {
        0.0
    } else {
        x / n as f64
    }
}

/// A heuristic graded over a whole table.
#[derive(Clone, Debug, PartialEq)]
pub struct Grade {
    /// The heuristic.
    pub heuristic: Heuristic,
    /// `by_depth[d]`: the states at distance `d` (and the edges from them to depth `d + 1`).
    pub by_depth: Vec<DepthGrade>,
    /// The whole table.
    pub total: DepthGrade,
    /// The estimate at the goal (0 for every heuristic here; consistency needs it).
    pub at_goal: u32,
}

/// Grades `h` on every state and every edge of `table` (see the module doc).
///
/// Takes a few milliseconds for 3x3 on two cores; the 12-cell tables take minutes (239 million
/// states, each turned into a board) and a byte per state for the estimates.
///
/// # Errors
/// [`Error::Corrupt`] for an entry that is not a distance, or an estimate too large to store
/// (above 254, which no heuristic here reaches on 12 cells).
pub fn grade<D: AsRef<[u8]> + Sync>(table: &Table<D>, h: Heuristic) -> Result<Grade, Error> {
    grade_with_progress(table, h, |_| {})
}

/// As [`grade`], calling `progress(k)` from the worker threads each time `k` more steps are
/// done, of `2 * table.index().len()` in all (every state is visited twice: once for its
/// estimate, once for the sums).
///
/// # Errors
/// Those of [`grade`].
pub fn grade_with_progress<D: AsRef<[u8]> + Sync>(
    table: &Table<D>,
    h: Heuristic,
    progress: impl Fn(u64) + Sync,
) -> Result<Grade, Error> {
    let index = table.index();
    let est = Estimator::new(table.goal());
    let n = index.len();

    // Every estimate, one byte per state.
    let mut hs = vec![0u8; n as usize];
    hs.par_chunks_mut(CHUNK as usize).enumerate().try_for_each(|(c, out)| {
        let first = c as u64 * CHUNK;
        for (k, slot) in out.iter_mut().enumerate() {
            let i = first + k as u64;
            let board = index.board(i);
            let e = est.estimate(h, board.cells());
            *slot = u8::try_from(e).ok().filter(|&e| e != u8::MAX).ok_or_else(|| Error::Corrupt {
                index: i,
                board: board.to_string(),
                detail: format!("estimate {e} does not fit in a byte"),
            })?;
        }
        progress(out.len() as u64);
        Ok::<(), Error>(())
    })?;

    let (by_depth, total) = grade_estimates(table, &hs, progress)?;
    let at_goal = est.estimate(h, table.goal().cells());
    Ok(Grade { heuristic: h, by_depth, total, at_goal })
}

/// Grades estimates given for every state of `table`, `estimates[i]` for the state of index `i`
/// (any heuristic: one of ours, or a learned one evaluated elsewhere): the per-depth figures and
/// their total, as in [`Grade`]. `progress` is called as in [`grade_with_progress`], with
/// `table.index().len()` steps in all.
///
/// # Errors
/// [`Error::BadOption`] when there is not one estimate per state; [`Error::Corrupt`] for an
/// entry that is not a distance.
pub fn grade_estimates<D: AsRef<[u8]> + Sync>(
    table: &Table<D>,
    estimates: &[u8],
    progress: impl Fn(u64) + Sync,
) -> Result<(Vec<DepthGrade>, DepthGrade), Error> {
    let index = table.index();
    let n = index.len();
    let payload = table.payload();
    let max = table.header().max_depth;
    if estimates.len() as u64 != n {
        return Err(Error::BadOption(format!("{} estimates for a table of {n} states", estimates.len())));
    }
    let hs = estimates;
    // Per depth sums, over chunks of states in parallel.
    let by_depth = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut acc = vec![DepthGrade::default(); max as usize + 1];
            for i in c * CHUNK..((c + 1) * CHUNK).min(n) {
                let d = table.entry(i)?;
                let e = hs[i as usize] as u32;
                let g = &mut acc[d as usize];
                g.states += 1;
                g.sum_h += e as u64;
                g.sum_exact += d as u64;
                g.exact += (e == d as u32) as u64;
                if e > d as u32 {
                    g.overestimates += 1;
                    g.max_overestimate = g.max_overestimate.max(e - d as u32);
                }
                index.for_each_neighbor_index(i, |_, j| {
                    if payload[j as usize] > d {
                        g.edges += 1;
                        g.inconsistent_edges += (hs[j as usize].abs_diff(e as u8) > 1) as u64;
                    }
                });
            }
            progress(((c + 1) * CHUNK).min(n) - c * CHUNK);
            Ok::<_, Error>(acc)
        })
        .try_reduce(
            || vec![DepthGrade::default(); max as usize + 1],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(&b) {
                    x.add(y);
                }
                Ok(a)
            },
        )?;
    let mut total = DepthGrade::default();
    for g in &by_depth {
        total.add(g);
    }
    Ok((by_depth, total))
}
