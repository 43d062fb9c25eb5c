//! Many boards at once: the calls a front end makes on arrays of boards (the Python package on
//! numpy arrays), each board checked and the work spread over the cores.
//!
//! A batch is one flat slice of cells: `n` boards of `shape.cells()` cells laid end to end, each
//! row-major with `0` for the blank. Every board is checked ([`check_cells`]) before it is used;
//! the first bad one stops the call with a [`RowError`] naming it, so a wrong answer is never
//! given for a malformed board. A board that cannot reach the goal is not an error: its answer is
//! the call's documented sentinel ([`UNSOLVABLE`] for distances and ranks).
//!
//! Results are written into slices the caller provides, so a front end can hand over the memory
//! of its own arrays and nothing is copied twice.

use rayon::prelude::*;

use crate::error::Error;
use crate::heuristic::{Estimator, Heuristic, PatternSet};
use crate::index::StateIndex;
use crate::lab::sample::SplitMix64;
use crate::puzzle::board::{check_cells, Board, Dir, Shape};
use crate::search::{Found, Options};
use crate::solver::Solver;
use crate::table::Table;

/// The distance or rank of a board that cannot reach the goal, in batch results.
pub const UNSOLVABLE: i64 = -1;

/// Boards handed to one worker at a time: large enough that scheduling costs nothing, small
/// enough that both cores stay busy on a few thousand boards.
const CHUNK: usize = 4096;

/// A batch call stopped at a bad board: which one (0-based), and why.
#[derive(Debug, thiserror::Error)]
#[error("board {row}: {error}")]
pub struct RowError {
    /// The board's position in the batch, from 0.
    pub row: usize,
    /// What is wrong with it (boxed: an error travels through every call's `Result`).
    pub error: Box<Error>,
}

fn row_error(row: usize, error: impl Into<Error>) -> RowError {
    RowError { row, error: Box::new(error.into()) }
}

/// The error of the lowest row among those found (the workers stop at their chunk's first).
fn first(errors: Vec<RowError>) -> Result<(), RowError> {
    match errors.into_iter().min_by_key(|e| e.row) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Checks that `cells` holds whole boards of `shape` and returns how many.
fn count<T>(shape: Shape, cells: &[T]) -> Result<usize, RowError> {
    let n = shape.cells();
    if !cells.len().is_multiple_of(n) {
        let detail = format!("{} cells do not make whole boards of {n} cells ({shape})", cells.len());
        return Err(row_error(cells.len() / n, Error::BadShape(detail)));
    }
    Ok(cells.len() / n)
}

/// Checks every board (in parallel) before work that assumes them valid; returns how many.
fn check_all(shape: Shape, cells: &[impl Copy + Into<u64> + Sync]) -> Result<usize, RowError> {
    let boards = count(shape, cells)?;
    for_each_board(shape, cells, &mut vec![(); boards], 1, |row, board, _| {
        check_cells(shape, board).map(|_| ()).map_err(|e| row_error(row, e))
    })?;
    Ok(boards)
}

/// Runs `f(row, board, answers)` over every board in parallel, `per_board` answers each, stopping
/// at the first error (the error of the lowest row among those that failed is reported).
fn for_each_board<T: Sync, A: Send>(
    shape: Shape,
    cells: &[T],
    out: &mut [A],
    per_board: usize,
    f: impl Fn(usize, &[T], &mut [A]) -> Result<(), RowError> + Sync,
) -> Result<(), RowError> {
    let n = shape.cells();
    let boards = count(shape, cells)?;
    assert_eq!(out.len(), boards * per_board, "the answer slice must hold {per_board} per board");
    let errors: Vec<RowError> = cells
        .par_chunks(CHUNK * n)
        .zip(out.par_chunks_mut(CHUNK * per_board))
        .enumerate()
        .filter_map(|(c, (chunk, answers))| {
            for (k, (board, answer)) in chunk.chunks_exact(n).zip(answers.chunks_mut(per_board)).enumerate() {
                if let Err(e) = f(c * CHUNK + k, board, answer) {
                    return Some(e);
                }
            }
            None
        })
        .collect();
    first(errors)
}

/// The exact distance of every board in `cells` from `table`, [`UNSOLVABLE`] for a board that
/// cannot reach its goal.
///
/// # Errors
/// A [`RowError`] for the first board that is not a valid arrangement of the table's shape, or
/// whose entry is not a distance ([`Error::Corrupt`]).
///
/// # Panics
/// If `out` does not hold one answer per board.
pub fn distances<D: AsRef<[u8]> + Sync>(table: &Table<D>, cells: &[u8], out: &mut [i16]) -> Result<(), RowError> {
    let index = table.index();
    if table.is_two_bit() {
        return walked_distances(table, cells, out);
    }
    for_each_board(index.shape(), cells, out, 1, |row, board, answer| {
        check_cells(index.shape(), board).map_err(|e| row_error(row, e))?;
        answer[0] = match index.index_of_cells(board) {
            Some(i) => table.entry(i).map_err(|e| row_error(row, e))? as i16,
            None => UNSOLVABLE as i16,
        };
        Ok(())
    })
}

/// [`distances`] on a two-bit table: each chunk's boards walked down together, interleaved
/// ([`Table::walks`]), so that their cache misses overlap. The error is that of the lowest row, as
/// board by board: a malformed board stops its chunk, and only the boards before it are walked.
fn walked_distances<D: AsRef<[u8]> + Sync>(table: &Table<D>, cells: &[u8], out: &mut [i16]) -> Result<(), RowError> {
    let index = table.index();
    let shape = index.shape();
    let n = shape.cells();
    let boards = count(shape, cells)?;
    assert_eq!(out.len(), boards, "the answer slice must hold 1 per board");
    let errors: Vec<RowError> = cells
        .par_chunks(CHUNK * n)
        .zip(out.par_chunks_mut(CHUNK))
        .enumerate()
        .filter_map(|(c, (chunk, answers))| {
            let mut starts = Vec::with_capacity(answers.len());
            let mut rows = Vec::with_capacity(answers.len());
            let mut error = None;
            for (k, board) in chunk.chunks_exact(n).enumerate() {
                if let Err(e) = check_cells(shape, board) {
                    error = Some(row_error(c * CHUNK + k, e));
                    break;
                }
                match index.index_of_cells(board) {
                    Some(i) => {
                        starts.push(i);
                        rows.push(k);
                    }
                    None => answers[k] = UNSOLVABLE as i16,
                }
            }
            table.walks(
                &starts,
                |_, _, _| {},
                |w, r| match r {
                    Ok(d) => answers[rows[w]] = d as i16,
                    Err(e) => {
                        let row = c * CHUNK + rows[w];
                        if error.as_ref().is_none_or(|x: &RowError| row < x.row) {
                            error = Some(row_error(row, e));
                        }
                    }
                },
            );
            error
        })
        .collect();
    first(errors)
}

/// The rank (state index) of every board, [`UNSOLVABLE`] for a board that cannot reach the
/// index's goal.
///
/// # Errors
/// A [`RowError`] for the first malformed board.
///
/// # Panics
/// If `out` does not hold one answer per board.
pub fn ranks(index: &StateIndex, cells: &[u8], out: &mut [i64]) -> Result<(), RowError> {
    for_each_board(index.shape(), cells, out, 1, |row, board, answer| {
        check_cells(index.shape(), board).map_err(|e| row_error(row, e))?;
        answer[0] = index.index_of_cells(board).map_or(UNSOLVABLE, |i| i as i64);
        Ok(())
    })
}

/// The boards at `indices`, written end to end into `out`.
///
/// # Errors
/// A [`RowError`] ([`Error::BadOption`]) for the first index that is not below `index.len()`.
///
/// # Panics
/// If `out` does not hold one board per index.
pub fn unrank(index: &StateIndex, indices: &[u64], out: &mut [u8]) -> Result<(), RowError> {
    let n = index.shape().cells();
    assert_eq!(out.len(), indices.len() * n, "the answer slice must hold one board per index");
    let len = index.len();
    let errors: Vec<RowError> = indices
        .par_chunks(CHUNK)
        .zip(out.par_chunks_mut(CHUNK * n))
        .enumerate()
        .filter_map(|(c, (chunk, boards))| {
            for (k, (&i, board)) in chunk.iter().zip(boards.chunks_mut(n)).enumerate() {
                if i >= len {
                    let why = format!("index {i} is out of range: the table has indices 0 to {}", len - 1);
                    return Some(row_error(c * CHUNK + k, Error::BadOption(why)));
                }
                for (cell, &t) in board.iter_mut().zip(index.board(i).cells()) {
                    *cell = t as u8;
                }
            }
            None
        })
        .collect();
    first(errors)
}

/// For every board, which of the blank's four moves (`U D L R`, in [`Dir::ALL`]'s order) lead one
/// step closer to the goal: four flags a board, all false for the goal and for a board that
/// cannot reach it. These are the labels of an optimal policy.
///
/// # Errors
/// A [`RowError`] for the first malformed board, or one where the table contradicts itself.
///
/// # Panics
/// If `out` does not hold four flags per board.
pub fn optimal_moves<D: AsRef<[u8]> + Sync>(table: &Table<D>, cells: &[u8], out: &mut [bool]) -> Result<(), RowError> {
    let shape = table.index().shape();
    for_each_board(shape, cells, out, 4, |row, board, flags| {
        let board = Board::new(shape, board.iter().map(|&t| t as u16).collect()).map_err(|e| row_error(row, e))?;
        flags.fill(false);
        for dir in table.optimal_moves(&board).map_err(|e| row_error(row, e))?.unwrap_or_default() {
            flags[dir as usize] = true;
        }
        Ok(())
    })
}

/// Whether each board can reach `goal` (the parity rule).
///
/// # Errors
/// A [`RowError`] for the first malformed board.
///
/// # Panics
/// If `out` does not hold one answer per board.
pub fn solvable(goal: &Board, cells: &[u16], out: &mut [bool]) -> Result<(), RowError> {
    let shape = goal.shape();
    for_each_board(shape, cells, out, 1, |row, board, answer| {
        let board = Board::new(shape, board.to_vec()).map_err(|e| row_error(row, e))?;
        answer[0] = board.is_solvable_to(goal);
        Ok(())
    })
}

/// The estimate `h` of every board, for `goal`.
///
/// # Errors
/// A [`RowError`] for the first malformed board.
///
/// # Panics
/// If `out` does not hold one answer per board.
pub fn estimates(goal: &Board, h: Heuristic, cells: &[u16], out: &mut [u32]) -> Result<(), RowError> {
    let shape = goal.shape();
    let est = Estimator::new(goal);
    for_each_board(shape, cells, out, 1, |row, board, answer| {
        check_cells(shape, board).map_err(|e| row_error(row, e))?;
        answer[0] = est.estimate(h, board);
        Ok(())
    })
}

/// The pattern-database estimate of every board ([`PatternSet::estimate_many`]); `reflect` false
/// leaves out the reflected lookup.
///
/// # Errors
/// A [`RowError`] for the first malformed board.
///
/// # Panics
/// If `out` does not hold one answer per board.
pub fn pattern_estimates(set: &PatternSet, cells: &[u8], reflect: bool, out: &mut [u32]) -> Result<(), RowError> {
    let shape = set.goal().shape();
    let n = shape.cells();
    // every board is checked first (cheap), then the lookups run on blocks of checked boards
    let boards = check_all(shape, cells)?;
    assert_eq!(out.len(), boards, "the answer slice must hold one answer per board");
    cells.par_chunks(CHUNK * n).zip(out.par_chunks_mut(CHUNK)).for_each(|(chunk, answers)| {
        set.estimate_many(chunk, reflect, answers);
    });
    Ok(())
}

/// The four children of every board, one for each of the blank's moves in [`Dir::ALL`]'s order
/// (`U D L R`), into `children` (four boards a board), with `valid` saying which moves stay on
/// the board. Where a move is not possible, the child is a copy of the board itself.
///
/// # Errors
/// A [`RowError`] for the first malformed board.
///
/// # Panics
/// If `children` does not hold four boards and `valid` four flags per board.
pub fn expand(shape: Shape, cells: &[u16], children: &mut [u16], valid: &mut [bool]) -> Result<(), RowError> {
    let n = shape.cells();
    let boards = count(shape, cells)?;
    assert_eq!(children.len(), boards * 4 * n, "four children per board");
    assert_eq!(valid.len(), boards * 4, "four flags per board");
    let mut both: Vec<(&mut [u16], &mut [bool])> = children.chunks_mut(4 * n).zip(valid.chunks_mut(4)).collect();
    let errors: Vec<RowError> = cells
        .par_chunks(n)
        .zip(both.par_iter_mut())
        .enumerate()
        .filter_map(|(row, (board, (kids, flags)))| {
            let blank = match check_cells(shape, board) {
                Ok(b) => b,
                Err(e) => return Some(row_error(row, e)),
            };
            for (d, dir) in Dir::ALL.into_iter().enumerate() {
                let kid = &mut kids[d * n..(d + 1) * n];
                kid.copy_from_slice(board);
                flags[d] = match dir.step(shape, blank) {
                    Some(to) => {
                        kid.swap(blank, to);
                        true
                    }
                    None => false,
                };
            }
            None
        })
        .collect();
    first(errors)
}

/// Plays `moves` of the blank on `board`, one after another.
///
/// # Errors
/// [`Error::BadOption`] naming the first move that would take the blank off the board (counted
/// from 1), and the board is left as it was before that move.
pub fn apply_moves(board: &mut Board, moves: &[Dir]) -> Result<(), Error> {
    for (k, &dir) in moves.iter().enumerate() {
        if board.apply(dir).is_none() {
            return Err(Error::BadOption(format!(
                "move {} ({}) takes the blank off the board: it is on row {}, column {} of {}",
                k + 1,
                dir.letter(),
                board.blank() / board.shape().cols() + 1,
                board.blank() % board.shape().cols() + 1,
                board.shape()
            )));
        }
    }
    Ok(())
}

/// `count` boards reached from `goal` by random walks of `steps` moves each, written end to end
/// into `out`. Each move is drawn uniformly from the blank's legal moves other than the one that
/// undoes the move before (so a walk never steps straight back). Walk `k` depends only on `seed`
/// and `k`: the same seed gives the same boards whatever the number of threads.
///
/// A walk of `s` moves ends at most `s` moves from the goal, often fewer: use a perfect table's
/// sample ([`crate::lab::sample::sample_depth`]) for boards at an exact distance.
///
/// # Panics
/// If `out` does not hold `count` boards.
pub fn random_walks(goal: &Board, count: usize, steps: usize, seed: u64, out: &mut [u16]) {
    assert_eq!(out.len(), count * goal.shape().cells(), "one board per walk");
    random_walks_from(goal, 0, steps, seed, out);
}

/// As [`random_walks`], walks `first`, `first + 1`, ... as many as `out` holds: the walks of
/// one call made a piece at a time.
///
/// # Panics
/// If `out` does not hold a whole number of boards.
pub fn random_walks_from(goal: &Board, first: u64, steps: usize, seed: u64, out: &mut [u16]) {
    let n = goal.shape().cells();
    assert!(out.len().is_multiple_of(n), "whole boards");
    out.par_chunks_mut(n).enumerate().for_each(|(k, cells)| {
        let k = first + k as u64;
        let mut rng = SplitMix64::new(seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut board = goal.clone();
        let mut last: Option<Dir> = None;
        for _ in 0..steps {
            let mut options = [Dir::Up; 4];
            let mut m = 0;
            for dir in Dir::ALL {
                if Some(dir.opposite()) != last && dir.step(board.shape(), board.blank()).is_some() {
                    options[m] = dir;
                    m += 1;
                }
            }
            let dir = options[rng.below(m as u64) as usize];
            board.apply(dir);
            last = Some(dir);
        }
        cells.copy_from_slice(board.cells());
    });
}

/// Boards drawn uniformly at random from every board that can reach `goal` (half of the
/// arrangements of its tiles), as many as `out` holds, written end to end: no table is needed,
/// on any board. Draw `k` (the `first`-th is written first) depends only on `seed` and `k`, so
/// the draws can be made a piece at a time; they are independent, so a small board repeats its
/// states (the 2x2 has 12).
///
/// How: a Fisher-Yates shuffle of the goal's tiles (SplitMix64) is uniform over every
/// arrangement; when it cannot reach the goal, its first two tiles (in reading order, the blank
/// left where it is) are swapped. That swap changes the permutation's parity and not the
/// blank's row, so it pairs each arrangement that cannot reach the goal with exactly one that
/// can: every reachable board is drawn with the same probability, 2 / cells!.
///
/// # Panics
/// If `out` does not hold a whole number of boards.
pub fn random_boards(goal: &Board, seed: u64, first: u64, out: &mut [u16]) {
    let n = goal.shape().cells();
    assert!(out.len().is_multiple_of(n), "whole boards");
    out.par_chunks_mut(n).enumerate().for_each(|(k, cells)| {
        let k = first + k as u64;
        let mut rng = SplitMix64::new(seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        cells.copy_from_slice(goal.cells());
        for i in (1..n).rev() {
            cells.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let board = Board::new(goal.shape(), cells.to_vec()).expect("a shuffle of the goal's tiles is a board");
        if !board.is_solvable_to(goal) {
            let mut tiles = (0..n).filter(|&c| cells[c] != 0);
            let (a, b) = (tiles.next().expect("two tiles"), tiles.next().expect("two tiles"));
            cells.swap(a, b);
        }
    });
}

/// What became of one board of [`solve_many`].
#[derive(Debug)]
pub enum Outcome {
    /// Solved: the solution, checked to reach the goal.
    Solved(Found),
    /// The board cannot reach the goal.
    Unsolvable,
    /// The search failed on this board (a limit, a damaged table): the reason.
    Failed(Error),
}

/// Solves every board with `solver`, boards side by side on the current rayon pool (each search
/// on one thread), and returns their outcomes in input order. A board whose search fails does not
/// stop the others; a cancelled search (through `options.watch`) stops the whole batch.
///
/// # Errors
/// A [`RowError`] for the first malformed board (before any search), or [`Error::Cancelled`]
/// (as a [`RowError`] of the board that saw it) when the watch was cancelled.
///
/// # Panics
/// If `options.threads` is not 1 (the boards, not one search, are spread over the threads).
pub fn solve_many(solver: &Solver, cells: &[u16], options: &Options) -> Result<Vec<Outcome>, RowError> {
    solve_many_with(solver, cells, options, &|| {})
}

/// [`solve_many`], calling `done` (on the thread that searched it) as each board's search ends:
/// a progress bar counts the calls.
///
/// # Errors
/// As [`solve_many`].
///
/// # Panics
/// As [`solve_many`].
pub fn solve_many_with(
    solver: &Solver,
    cells: &[u16],
    options: &Options,
    done: &(dyn Fn() + Sync),
) -> Result<Vec<Outcome>, RowError> {
    assert_eq!(options.threads, 1, "solve_many runs one thread per search");
    let shape = solver.goal_board().shape();
    let n = shape.cells();
    check_all(shape, cells)?;
    let outcomes: Vec<Outcome> = cells
        .par_chunks(n)
        .with_max_len(1)
        .map(|board| {
            let board = match Board::new(shape, board.to_vec()) {
                Ok(b) => b,
                Err(e) => return Outcome::Failed(e),
            };
            let outcome = match solver.solve(&board, options) {
                Ok(Some(found)) => Outcome::Solved(found),
                Ok(None) => Outcome::Unsolvable,
                Err(e) => Outcome::Failed(e),
            };
            done();
            outcome
        })
        .collect();
    if let Some(row) = outcomes.iter().position(|o| matches!(o, Outcome::Failed(Error::Cancelled { .. }))) {
        let generated = options.watch.as_ref().map_or(0, |w| w.generated());
        return Err(row_error(row, Error::Cancelled { generated }));
    }
    Ok(outcomes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Goal;

    fn table() -> Table<Vec<u8>> {
        crate::build(&Goal::BlankLast.board(Shape::new(2, 3).unwrap()).unwrap(), |_| {}).unwrap()
    }

    #[test]
    fn random_boards_are_uniform_over_the_reachable_states() {
        use std::collections::HashMap;
        for (rows, cols, goal) in [(2, 3, Goal::BlankLast), (3, 2, Goal::BlankFirst), (2, 2, Goal::BlankLast)] {
            let goal = goal.board(Shape::new(rows, cols).unwrap()).unwrap();
            let n = goal.shape().cells();
            let reachable = crate::build(&goal, |_| {}).unwrap().index().len() as usize;
            let per = 200;
            let draws = reachable * per;
            let mut out = vec![0u16; draws * n];
            random_boards(&goal, 11, 0, &mut out);
            let mut seen: HashMap<&[u16], usize> = HashMap::new();
            for cells in out.chunks(n) {
                let board = Board::new(goal.shape(), cells.to_vec()).unwrap();
                assert!(board.is_solvable_to(&goal), "{board} cannot reach {goal}");
                *seen.entry(cells).or_default() += 1;
            }
            assert_eq!(seen.len(), reachable, "{rows}x{cols}: every reachable state is drawn");
            // each count is binomial(draws, 1/reachable): mean 200, standard deviation about 14
            let (low, high) = (seen.values().min().unwrap(), seen.values().max().unwrap());
            assert!(*low > per - 70 && *high < per + 70, "{rows}x{cols}: counts from {low} to {high}");
        }
        // the same seed, the same boards; another seed, others
        let goal = Goal::BlankLast.board(Shape::new(4, 4).unwrap()).unwrap();
        let (mut a, mut b, mut c) = (vec![0u16; 5 * 16], vec![0u16; 5 * 16], vec![0u16; 5 * 16]);
        random_boards(&goal, 3, 0, &mut a);
        random_boards(&goal, 3, 0, &mut b);
        random_boards(&goal, 4, 0, &mut c);
        assert!(a == b && a != c);
        // drawn a piece at a time, the same boards; and the same walks
        random_boards(&goal, 3, 2, &mut c[..3 * 16]);
        assert_eq!(a[2 * 16..], c[..3 * 16]);
        random_walks(&goal, 5, 40, 3, &mut a);
        random_walks_from(&goal, 2, 40, 3, &mut c[..3 * 16]);
        assert_eq!(a[2 * 16..], c[..3 * 16]);
    }

    #[test]
    fn distances_and_ranks_agree_with_the_table_on_every_state() {
        let t = table();
        let index = t.index();
        let indices: Vec<u64> = (0..index.len()).collect();
        let mut cells = vec![0u8; indices.len() * 6];
        unrank(index, &indices, &mut cells).unwrap();
        let mut d = vec![0i16; indices.len()];
        distances(&t, &cells, &mut d).unwrap();
        let mut r = vec![0i64; indices.len()];
        ranks(index, &cells, &mut r).unwrap();
        for &i in &indices {
            assert_eq!(d[i as usize], t.entry(i).unwrap() as i16);
            assert_eq!(r[i as usize], i as i64);
        }
    }

    #[test]
    fn two_bit_distances_are_the_byte_tables_on_every_3x3_state() {
        use crate::table::{build_with, Width};
        let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
        let bytes = crate::build(&goal, |_| {}).unwrap();
        let bits = build_with(&goal, Width::TwoBit, |_| {}, &std::sync::atomic::AtomicBool::new(false)).unwrap();
        let index = bytes.index();
        // every state, an unsolvable board among them (chunks of 4,096 boards: 45 of them)
        let mut indices: Vec<u64> = (0..index.len()).collect();
        indices.reverse();
        let mut cells = vec![0u8; indices.len() * 9];
        unrank(index, &indices, &mut cells).unwrap();
        cells[9 * 5000..9 * 5001].copy_from_slice(&[2, 1, 3, 4, 5, 6, 7, 8, 0]);
        let mut d = vec![0i16; indices.len()];
        distances(&bits, &cells, &mut d).unwrap();
        for (k, &i) in indices.iter().enumerate() {
            let want = if k == 5000 { UNSOLVABLE as i16 } else { bytes.entry(i).unwrap() as i16 };
            assert_eq!(d[k], want, "row {k}");
        }
        // a malformed board is named by its row, past the first chunk
        cells[9 * 9000] = cells[9 * 9000 + 1];
        let e = distances(&bits, &cells, &mut d).unwrap_err();
        assert_eq!(e.row, 9000);
    }

    #[test]
    fn bad_boards_are_named_by_row_and_unsolvable_ones_get_the_sentinel() {
        let t = table();
        // row 0 fine, row 1 unsolvable (two tiles swapped), row 2 has a repeated tile
        let cells = [1, 2, 3, 4, 5, 0, 2, 1, 3, 4, 5, 0, 1, 1, 3, 4, 5, 0];
        let mut d = vec![0i16; 3];
        let e = distances(&t, &cells, &mut d).unwrap_err();
        assert_eq!(e.row, 2);
        assert_eq!(e.to_string(), "board 2: bad board: tile 1 appears more than once");
        distances(&t, &cells[..12], &mut d[..2]).unwrap();
        assert_eq!(d[..2], [0, UNSOLVABLE as i16]);
        let e = distances(&t, &cells[..11], &mut d[..1]).unwrap_err();
        assert!(e.to_string().contains("do not make whole boards"), "{e}");
    }

    #[test]
    fn pattern_estimates_match_one_board_at_a_time() {
        use crate::heuristic::pdb::Partition;
        let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
        let partition = Partition::parse(&goal, "1,2,3,4/5,6,7,8").unwrap();
        let set = PatternSet::build(&goal, partition, true).unwrap();
        let mut walks = vec![0u16; 1000 * 9];
        random_walks(&goal, 1000, 30, 1, &mut walks);
        let cells: Vec<u8> = walks.iter().map(|&t| t as u8).collect();
        for reflect in [true, false] {
            let mut h = vec![0u32; 1000];
            pattern_estimates(&set, &cells, reflect, &mut h).unwrap();
            for (board, &h) in walks.chunks(9).zip(&h) {
                let board = Board::new(Shape::EIGHT, board.to_vec()).unwrap();
                let want = if reflect { set.estimate(&board).unwrap() } else { set.sum(&board).unwrap() };
                assert_eq!(h, want);
            }
        }
        let mut h = vec![0u32; 1];
        let e = pattern_estimates(&set, &[1, 2, 3, 4, 5, 6, 7, 8, 9], true, &mut h).unwrap_err();
        assert!(e.to_string().contains("tile 9 is out of range"), "{e}");
    }

    #[test]
    fn solve_many_matches_the_table_and_keeps_going_past_a_failure() {
        use crate::solver::{HeuristicKind, SolverConfig};
        let goal = Goal::BlankLast;
        let board = goal.board(Shape::EIGHT).unwrap();
        let t = crate::build(&board, |_| {}).unwrap();
        let config = SolverConfig { heuristic: Some(HeuristicKind::Manhattan), ..SolverConfig::default() };
        let solver = Solver::with_table(&goal, Shape::EIGHT, &config, None, |_| {}).unwrap();
        let mut walks = vec![0u16; 40 * 9];
        random_walks(&board, 40, 25, 3, &mut walks);
        // an unsolvable board last
        walks.extend_from_slice(&[2, 1, 3, 4, 5, 6, 7, 8, 0]);
        let outcomes = solve_many(&solver, &walks, &Options::new(crate::search::Algorithm::AStar)).unwrap();
        for (cells, outcome) in walks.chunks(9).zip(&outcomes) {
            let b = Board::new(Shape::EIGHT, cells.to_vec()).unwrap();
            match (t.distance(&b).unwrap(), outcome) {
                (Some(d), Outcome::Solved(f)) => assert_eq!(f.moves.len(), d as usize),
                (None, Outcome::Unsolvable) => {}
                (d, o) => panic!("{d:?} {o:?}"),
            }
        }
        // a node limit fails the deep boards, not the batch
        let limited = Options { max_nodes: Some(50), ..Options::new(crate::search::Algorithm::AStar) };
        let outcomes = solve_many(&solver, &walks, &limited).unwrap();
        assert!(outcomes.iter().any(|o| matches!(o, Outcome::Failed(Error::SearchLimit { .. }))));
        assert!(outcomes.iter().any(|o| matches!(o, Outcome::Solved(_))));
        let bad = [1u16, 1, 3, 4, 5, 6, 7, 8, 0];
        assert_eq!(solve_many(&solver, &bad, &Options::default()).unwrap_err().row, 0);
    }

    #[test]
    fn children_and_walks_are_legal() {
        let goal = Goal::BlankLast.board(Shape::EIGHT).unwrap();
        let mut walks = vec![0u16; 50 * 9];
        random_walks(&goal, 50, 20, 7, &mut walks);
        let mut again = vec![0u16; 50 * 9];
        random_walks(&goal, 50, 20, 7, &mut again);
        assert_eq!(walks, again);
        let mut kids = vec![0u16; 50 * 4 * 9];
        let mut valid = vec![false; 50 * 4];
        expand(Shape::EIGHT, &walks, &mut kids, &mut valid).unwrap();
        for (b, board) in walks.chunks(9).enumerate() {
            let board = Board::new(Shape::EIGHT, board.to_vec()).unwrap();
            assert!(board.is_solvable_to(&goal));
            for (d, dir) in Dir::ALL.into_iter().enumerate() {
                let kid = &kids[(b * 4 + d) * 9..(b * 4 + d + 1) * 9];
                match board.moved(dir) {
                    Some(m) => assert!(valid[b * 4 + d] && m.cells() == kid),
                    None => assert!(!valid[b * 4 + d] && board.cells() == kid),
                }
            }
        }
        let mut b = goal.clone();
        let e = apply_moves(&mut b, &[Dir::Up, Dir::Right]).unwrap_err();
        assert!(e.to_string().starts_with("move 2 (R) takes the blank off the board"), "{e}");
    }
}
