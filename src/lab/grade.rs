//! Grading a heuristic against exact distances: over every state of a table, or over given boards.
//!
//! For every state, the estimate `h` is compared with the true distance `h*`. The error is
//! `h* - h`: positive where `h` underestimates (as an admissible heuristic does), negative where it
//! overestimates. The measures a paper quotes are the mean absolute error `mean |h* - h|`, the
//! root mean square error `sqrt(mean (h* - h)^2)`, the signed mean error `mean (h* - h)` (errors of
//! both signs cancel in it: read it beside the mean absolute error), and the shares of states with
//! `h < h*`, `h > h*` and `h = h*`.
//!
//! For every edge (two states one move apart) the two estimates are compared with each other. With
//! unit move costs a heuristic is *consistent* when `h(a) <= 1 + h(b)` across every edge, both
//! ways, that is `|h(a) - h(b)| <= 1`, and `h(goal) = 0`; consistency implies admissibility
//! (`h <= h*`), and A* with a consistent heuristic never reopens a closed state.
//!
//! The *policy accuracy* is the share of states not at the goal where the greedy one-step policy
//! (move to the child with the smallest `h`) makes an optimal move (to a child at `h* - 1`). A tie
//! among `k` children with the smallest `h`, `j` of them optimal, counts `j / k`: the accuracy
//! expected of the policy that breaks ties uniformly at random. So a constant heuristic scores the
//! random policy's accuracy, neither 0 nor 1.
//!
//! Estimates may be fractions (a learned heuristic's outputs): every measure uses them as given,
//! and `h = h*` means equal exactly. They must be finite.
//!
//! [`grade`] computes every estimate of a table once (in parallel), then sums per depth
//! ([`grade_estimates`] does the sums for estimates made elsewhere). Over a whole table, an edge
//! joins states whose depths differ by exactly one and is counted once, at the shallower of its two
//! depths. [`grade_boards`] and [`grade_given`] grade some boards only (a held-out set): there the
//! edges are the given boards' moves, each counted at its board's depth, so over every state of a
//! table each edge is seen from both ends (twice the whole-table count).

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::arrays::RowError;
use crate::error::Error;
use crate::heuristic::{Estimator, Heuristic};
use crate::puzzle::board::{Board, Dir};
use crate::table::Table;

/// States per unit of parallel work.
const CHUNK: u64 = 1 << 14;

/// What a heuristic does on the states at one depth, or on all of them: sums and counts, from
/// which the methods give the measures (see the module doc for their definitions).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DepthGrade {
    /// States counted.
    pub states: u64,
    /// The sum of the estimates, each rounded up to a whole number and a negative one taken as 0
    /// (the estimates themselves for every built-in heuristic; their own sum is `sum_estimate`).
    pub sum_h: u64,
    /// The sum of the true distances.
    pub sum_exact: u64,
    /// States where the estimate is the true distance.
    pub exact: u64,
    /// States where the estimate exceeds the true distance (none for an admissible heuristic).
    pub overestimates: u64,
    /// The largest excess of the estimate over the true distance, rounded up (0 when it never
    /// overestimates; `worst_overestimate` is the excess itself).
    pub max_overestimate: u32,
    /// Edges counted (over a table: at their shallower end; over given boards: each board's moves).
    pub edges: u64,
    /// Edges whose two estimates differ by more than one move (none for a consistent heuristic).
    pub inconsistent_edges: u64,
    /// States where the estimate is below the true distance.
    pub underestimates: u64,
    /// The sum of the estimates, as given.
    pub sum_estimate: f64,
    /// The sum of `|h* - h|`.
    pub sum_abs_error: f64,
    /// The sum of `(h* - h)^2`.
    pub sum_squared_error: f64,
    /// The largest `h - h*` over the states that overestimate (0 when none does).
    pub worst_overestimate: f64,
    /// The largest `|h(a) - h(b)|` over the edges counted (0 without edges): above 1 where
    /// `inconsistent_edges` is not 0, and then the worst violation of consistency.
    pub max_edge_difference: f64,
    /// States not at the goal, where the policy is graded.
    pub policy_states: u64,
    /// The policy's credit summed over those states (1 for an optimal move, `j / k` for a tie;
    /// see the module doc).
    pub policy_correct: f64,
}

impl DepthGrade {
    /// The mean estimate; 0 when there are no states.
    pub fn mean_h(&self) -> f64 {
        ratio(self.sum_estimate, self.states)
    }

    /// The mean true distance; 0 when there are no states.
    pub fn mean_exact(&self) -> f64 {
        ratio(self.sum_exact as f64, self.states)
    }

    /// The signed mean error `mean (h* - h)`: positive where the heuristic underestimates on
    /// average, negative where it overestimates. Errors of both signs cancel in it.
    pub fn mean_error(&self) -> f64 {
        ratio(self.sum_exact as f64 - self.sum_estimate, self.states)
    }

    /// The mean absolute error `mean |h* - h|`.
    pub fn mean_abs_error(&self) -> f64 {
        ratio(self.sum_abs_error, self.states)
    }

    /// The root mean square error `sqrt(mean (h* - h)^2)`.
    pub fn rmse(&self) -> f64 {
        ratio(self.sum_squared_error, self.states).sqrt()
    }

    /// The share of states (0 to 1) where the estimate is exact.
    pub fn exact_share(&self) -> f64 {
        ratio(self.exact as f64, self.states)
    }

    /// The share of states (0 to 1) where `h < h*`.
    pub fn under_share(&self) -> f64 {
        ratio(self.underestimates as f64, self.states)
    }

    /// The share of states (0 to 1) where `h > h*`.
    pub fn over_share(&self) -> f64 {
        ratio(self.overestimates as f64, self.states)
    }

    /// The policy accuracy (0 to 1) over the states not at the goal; NaN when there are none
    /// (the goal's own depth).
    pub fn policy_accuracy(&self) -> f64 {
        if self.policy_states == 0 {
            f64::NAN
        } else {
            self.policy_correct / self.policy_states as f64
        }
    }

    /// Counts one state of true distance `d` and estimate `h` (finite).
    fn add_state(&mut self, h: f64, d: u32) {
        let d64 = d as f64;
        let err = d64 - h;
        self.states += 1;
        self.sum_h += h.max(0.0).ceil() as u64;
        self.sum_exact += d as u64;
        self.sum_estimate += h;
        self.sum_abs_error += err.abs();
        self.sum_squared_error += err * err;
        if h == d64 {
            self.exact += 1;
        } else if h < d64 {
            self.underestimates += 1;
        } else {
            self.overestimates += 1;
            self.max_overestimate = self.max_overestimate.max((-err).ceil() as u32);
            self.worst_overestimate = self.worst_overestimate.max(-err);
        }
    }

    /// Counts one edge between states of estimates `a` and `b`.
    fn add_edge(&mut self, a: f64, b: f64) {
        let diff = (a - b).abs();
        self.edges += 1;
        self.inconsistent_edges += (diff > 1.0) as u64;
        self.max_edge_difference = self.max_edge_difference.max(diff);
    }

    /// Counts the policy at one state not at the goal, from its children's `(h, optimal)`.
    fn add_policy(&mut self, children: &[(f64, bool)]) {
        self.policy_states += 1;
        self.policy_correct += policy_credit(children);
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
        self.underestimates += other.underestimates;
        self.sum_estimate += other.sum_estimate;
        self.sum_abs_error += other.sum_abs_error;
        self.sum_squared_error += other.sum_squared_error;
        self.worst_overestimate = self.worst_overestimate.max(other.worst_overestimate);
        self.max_edge_difference = self.max_edge_difference.max(other.max_edge_difference);
        self.policy_states += other.policy_states;
        self.policy_correct += other.policy_correct;
    }
}

/// The greedy policy's credit at one state, from its children's `(h, optimal)`: among the
/// children with the smallest `h`, the share that are optimal (1 when the smallest is unique and
/// optimal, 0 when no child is given).
pub fn policy_credit(children: &[(f64, bool)]) -> f64 {
    let Some(min) = children.iter().map(|c| c.0).reduce(f64::min) else { return 0.0 };
    let tied = children.iter().filter(|c| c.0 == min);
    let (k, j) = tied.fold((0u32, 0u32), |(k, j), c| (k + 1, j + c.1 as u32));
    j as f64 / k as f64
}

fn ratio(x: f64, n: u64) -> f64 {
    if n == 0 {
        0.0
    } else {
        x / n as f64
    }
}

/// Sums per depth into their total.
/// Two threads' per-depth sums as one (rayon's reduce step).
fn merge_depths<E>(mut a: Vec<DepthGrade>, b: Vec<DepthGrade>) -> Result<Vec<DepthGrade>, E> {
    for (x, y) in a.iter_mut().zip(&b) {
        x.add(y);
    }
    Ok(a)
}

fn total_of(by_depth: &[DepthGrade]) -> DepthGrade {
    let mut total = DepthGrade::default();
    for g in by_depth {
        total.add(g);
    }
    total
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
    grade_until(table, h, progress, &AtomicBool::new(false))
}

/// As [`grade_with_progress`], stopping soon after `stop` is set (a chunk of states later).
///
/// # Errors
/// Those of [`grade`]; [`Error::Cancelled`] when stopped.
pub fn grade_until<D: AsRef<[u8]> + Sync>(
    table: &Table<D>,
    h: Heuristic,
    progress: impl Fn(u64) + Sync,
    stop: &AtomicBool,
) -> Result<Grade, Error> {
    table.check_expandable()?;
    let index = table.index();
    let est = Estimator::new(table.goal());
    let n = index.len();

    // Every estimate, one byte per state.
    let mut hs = vec![0u8; n as usize];
    hs.par_chunks_mut(CHUNK as usize).enumerate().try_for_each(|(c, out)| {
        if stop.load(Ordering::Relaxed) {
            return Err(Error::Cancelled { generated: 0 });
        }
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

    let (by_depth, total) = grade_estimates_until(table, &hs, progress, stop)?;
    let at_goal = est.estimate(h, table.goal().cells());
    Ok(Grade { heuristic: h, by_depth, total, at_goal })
}

/// Grades estimates given for every state of `table`, `estimates[i]` for the state of index `i`
/// (any heuristic: one of ours, or a learned one evaluated elsewhere; whole numbers as `u8`,
/// fractions as `f32` or `f64`): the per-depth figures and their total, as in [`Grade`].
/// `progress` is called as in [`grade_with_progress`], with `table.index().len()` steps in all.
///
/// # Errors
/// [`Error::BadOption`] when there is not one estimate per state, or for one that is not finite;
/// [`Error::Corrupt`] for an entry that is not a distance.
pub fn grade_estimates<D, E>(
    table: &Table<D>,
    estimates: &[E],
    progress: impl Fn(u64) + Sync,
) -> Result<(Vec<DepthGrade>, DepthGrade), Error>
where
    D: AsRef<[u8]> + Sync,
    E: Copy + Into<f64> + Sync,
{
    grade_estimates_until(table, estimates, progress, &AtomicBool::new(false))
}

/// As [`grade_estimates`], stopping soon after `stop` is set (a chunk of states later).
///
/// # Errors
/// Those of [`grade_estimates`]; [`Error::Cancelled`] when stopped.
pub fn grade_estimates_until<D, E>(
    table: &Table<D>,
    estimates: &[E],
    progress: impl Fn(u64) + Sync,
    stop: &AtomicBool,
) -> Result<(Vec<DepthGrade>, DepthGrade), Error>
where
    D: AsRef<[u8]> + Sync,
    E: Copy + Into<f64> + Sync,
{
    if table.is_two_bit() {
        // every distance is read, most of them several times: expand once
        return grade_estimates_until(&table.to_byte_table()?, estimates, progress, stop);
    }
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
            if stop.load(Ordering::Relaxed) {
                return Err(Error::Cancelled { generated: 0 });
            }
            let mut acc = vec![DepthGrade::default(); max as usize + 1];
            let mut kids = Vec::with_capacity(4);
            for i in c * CHUNK..((c + 1) * CHUNK).min(n) {
                let d = table.entry(i)?;
                let e: f64 = hs[i as usize].into();
                if !e.is_finite() {
                    return Err(Error::BadOption(format!(
                        "the estimate of state {i} ({}) is {e}: estimates must be finite numbers",
                        index.board(i)
                    )));
                }
                let g = &mut acc[d as usize];
                g.add_state(e, d as u32);
                kids.clear();
                index.for_each_neighbor_index(i, |_, j| {
                    let dj = payload[j as usize];
                    let ej: f64 = hs[j as usize].into();
                    if dj > d {
                        g.add_edge(e, ej);
                    }
                    kids.push((ej, dj < d));
                });
                if d > 0 {
                    g.add_policy(&kids);
                }
            }
            progress(((c + 1) * CHUNK).min(n) - c * CHUNK);
            Ok::<_, Error>(acc)
        })
        .try_reduce(|| vec![DepthGrade::default(); max as usize + 1], merge_depths)?;
    let total = total_of(&by_depth);
    Ok((by_depth, total))
}

/// Some boards with their exact distances and estimates, and the same for their children (four
/// a board, in [`Dir::ALL`]'s order, as [`crate::arrays::expand`] lays them out): what
/// [`grade_given`] grades.
#[derive(Clone, Copy, Debug)]
pub struct Given<'a> {
    /// The true distance of each board.
    pub exact: &'a [u32],
    /// The estimate of each board.
    pub estimates: &'a [f64],
    /// Which of each board's four moves stay on the board.
    pub valid: &'a [bool],
    /// The true distance of each child (four a board; read only where the move is valid).
    pub child_exact: &'a [u32],
    /// The estimate of each child (four a board; read only where the move is valid).
    pub child_estimates: &'a [f64],
}

/// Grades a heuristic on given boards (a held-out set), from their exact distances and estimates
/// and those of their children: the same measures as over a table, by the true depth of the
/// boards, with the given boards' moves as the edges (see the module doc).
///
/// # Errors
/// A [`RowError`] naming the first board whose estimate, or a child's, is not finite
/// ([`Error::BadOption`]), or whose children's distances are not one more or one less than its
/// own ([`Error::BadOption`]: the distances given contradict each other).
///
/// # Panics
/// If the slices do not hold one entry a board (`exact`, `estimates`) and four a board (the rest).
pub fn grade_given(given: &Given<'_>) -> Result<(Vec<DepthGrade>, DepthGrade), RowError> {
    let n = given.exact.len();
    assert_eq!(given.estimates.len(), n, "one estimate a board");
    assert_eq!(given.valid.len(), 4 * n, "four flags a board");
    assert_eq!(given.child_exact.len(), 4 * n, "four child distances a board");
    assert_eq!(given.child_estimates.len(), 4 * n, "four child estimates a board");
    let depths = given.exact.iter().max().map_or(0, |&d| d as usize + 1);
    let bad = |row: usize, detail: String| RowError { row, error: Box::new(Error::BadOption(detail)) };
    let chunk = CHUNK as usize;
    let by_depth = (0..n.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let mut acc = vec![DepthGrade::default(); depths];
            let mut kids = Vec::with_capacity(4);
            for row in c * chunk..((c + 1) * chunk).min(n) {
                let (d, e) = (given.exact[row], given.estimates[row]);
                if !e.is_finite() {
                    return Err(bad(row, format!("the estimate is {e}: h must return finite numbers")));
                }
                let g = &mut acc[d as usize];
                g.add_state(e, d);
                kids.clear();
                for k in 4 * row..4 * row + 4 {
                    if !given.valid[k] {
                        continue;
                    }
                    let (dk, ek) = (given.child_exact[k], given.child_estimates[k]);
                    let dir = Dir::ALL[k - 4 * row].letter();
                    if !ek.is_finite() {
                        return Err(bad(row, format!("the estimate of its child by move {dir} is {ek}: h must return finite numbers")));
                    }
                    if dk.abs_diff(d) != 1 {
                        return Err(bad(
                            row,
                            format!("its distance is {d} but its child by move {dir} is at {dk}: one move changes the distance by exactly 1"),
                        ));
                    }
                    g.add_edge(e, ek);
                    kids.push((ek, dk < d));
                }
                if d > 0 {
                    g.add_policy(&kids);
                }
            }
            Ok(acc)
        })
        .try_reduce(|| vec![DepthGrade::default(); depths], merge_depths)?;
    let total = total_of(&by_depth);
    Ok((by_depth, total))
}

/// Grades estimates of given boards (`cells`: boards of the table's shape laid end to end, as
/// [`crate::arrays`] takes them) and of their children (four a board, in [`Dir::ALL`]'s order;
/// read only where the move stays on the board), with the exact distances from `table`: as
/// [`grade_given`].
///
/// # Errors
/// A [`RowError`] for the first board that is malformed, cannot reach the table's goal
/// ([`Error::BadOption`]) or has an estimate that is not finite; [`Error::Corrupt`] from the table.
///
/// # Panics
/// If `estimates` does not hold one estimate a board and `child_estimates` four.
pub fn grade_boards<D: AsRef<[u8]> + Sync>(
    table: &Table<D>,
    cells: &[u8],
    estimates: &[f64],
    child_estimates: &[f64],
) -> Result<(Vec<DepthGrade>, DepthGrade), RowError> {
    grade_boards_until(table, cells, estimates, child_estimates, |_| {}, &AtomicBool::new(false))
}

/// Boards looked up between two calls of [`grade_boards_until`]'s `progress`.
const BOARDS_CHUNK: usize = 4096;

/// As [`grade_boards`], calling `progress(k)` as each `k` more boards' distances are looked up
/// (the boards' number in all) and stopping soon after `stop` is set.
///
/// # Errors
/// Those of [`grade_boards`]; [`Error::Cancelled`] (in a [`RowError`]) when stopped.
///
/// # Panics
/// As [`grade_boards`].
pub fn grade_boards_until<D: AsRef<[u8]> + Sync>(
    table: &Table<D>,
    cells: &[u8],
    estimates: &[f64],
    child_estimates: &[f64],
    progress: impl Fn(u64) + Sync,
    stop: &AtomicBool,
) -> Result<(Vec<DepthGrade>, DepthGrade), RowError> {
    let shape = table.index().shape();
    let n = shape.cells();
    if !cells.len().is_multiple_of(n) {
        let detail = format!("{} cells do not make whole boards of {n} cells ({shape})", cells.len());
        return Err(RowError { row: cells.len() / n, error: Box::new(Error::BadShape(detail)) });
    }
    let boards = cells.len() / n;
    let mut exact = vec![0u32; boards];
    let mut valid = vec![false; 4 * boards];
    let mut child_exact = vec![0u32; 4 * boards];
    let err = |row: usize, e: Error| RowError { row, error: Box::new(e) };
    exact
        .par_chunks_mut(BOARDS_CHUNK)
        .zip(valid.par_chunks_mut(4 * BOARDS_CHUNK).zip(child_exact.par_chunks_mut(4 * BOARDS_CHUNK)))
        .enumerate()
        .try_for_each(|(c, (ds, (flags, kids)))| {
            let first = c * BOARDS_CHUNK;
            if stop.load(Ordering::Relaxed) {
                return Err(err(first, Error::Cancelled { generated: 0 }));
            }
            for (k, d) in ds.iter_mut().enumerate() {
                let row = first + k;
                let board = Board::new(shape, cells[row * n..(row + 1) * n].iter().map(|&t| t as u16).collect())
                    .map_err(|e| err(row, e))?;
                *d = match table.distance(&board).map_err(|e| err(row, e))? {
                    Some(d) => d as u32,
                    None => {
                        return Err(err(
                            row,
                            Error::BadOption(format!(
                                "{board} cannot reach the goal {}: grade boards that can",
                                table.goal()
                            )),
                        ))
                    }
                };
                for (j, dir) in Dir::ALL.into_iter().enumerate() {
                    if let Some(child) = board.moved(dir) {
                        flags[4 * k + j] = true;
                        kids[4 * k + j] = table.distance(&child).map_err(|e| err(row, e))?.map_or(0, u32::from);
                    }
                }
            }
            progress(ds.len() as u64);
            Ok(())
        })?;
    grade_given(&Given { exact: &exact, estimates, valid: &valid, child_exact: &child_exact, child_estimates })
}
