//! Beam search: breadth-first, keeping at each depth only the `width` boards the guide likes best.
//!
//! Each depth's boards make their children (never the move straight back, never a board an
//! earlier depth kept); the children are ordered by the guide's estimate, ties broken by the
//! linear-conflict estimate (when the guide is another) and then by the board's hash, and the
//! first `width` distinct ones are the next depth. The first depth that holds the goal gives the
//! solution: at most as many moves as depths searched, and no board twice. Its memory is the
//! beam's boards and, for the path, 4 bytes per board kept; its time grows with the width times
//! the solution's length. Not optimal: the beam drops boards the estimate undervalues.
//!
//! What it pays, measured with a prototype on DeepCubeA's first eight 35-puzzles with the 6x6
//! `auto` pattern tables: width 3,000, 137.3 moves on average; 10,000, 136.3 (2.2 s on one core);
//! 30,000, 134.5; DeepCubeA's 127.3. Ordered by the tables alone, without the linear-conflict
//! tie-break, 141.3 at 10,000; by linear conflict alone, 145.8. Weighted A* at 1.5 on the same
//! tables: 144 moves on the first board (140 here). On DeepCubeA's first 50 35-puzzles, width
//! 10,000 with the tables: 138.12 moves, 1.30 s a board (whole process, 2 threads). The bounded
//! search ([`super::Algorithm::Within`]) on boards of 17 to 64 cells starts from this solution
//! when it is shorter than the constructive one.
//!
//! Past about 10x10 a beam guided by linear conflict wanders: on uniform random 12x12 to 20x20
//! boards, beams of 300 and 1,000 had not reached the goal after 60 s (100 million boards and
//! more), where reduce answers in a fifth of a second. On a 10x10, 1,000 boards wide, it found
//! 1,160 moves (1.8 times the Manhattan distance; reduce's 1,352, 2.1 times) in 0.6 s.

use std::collections::HashSet;
use std::time::Instant;

use super::space::{board_hash, key};
use super::{Guide, Options, Stats};
use crate::error::Error;
use crate::heuristic::{Estimator, Heuristic};
use crate::puzzle::board::{Board, Dir};

/// The width `--algorithm beam` takes when none is given, and the bounded search's seed.
pub const DEFAULT_WIDTH: u32 = 10_000;

/// The widest beam: its path records take 4 bytes a board kept, and a board's index fits 30 bits.
pub const MAX_WIDTH: u32 = 1 << 24;

/// A child on its way to the next depth.
#[derive(Clone, Copy)]
struct Child {
    /// The guide's estimate, then the tie-break's.
    key: u64,
    hash: u64,
    /// The parent's index in its depth, and the move (index in [`Dir::ALL`]): `parent << 2 | dir`.
    from: u32,
    /// The guide's estimate, kept for the child's own children (made from the parent's by the
    /// move where the guide allows).
    h: u32,
    /// The tie-break's estimate (linear conflict), likewise.
    second: u32,
}

/// One depth of the beam.
#[derive(Default)]
struct Depth {
    /// The boards, `n` cells each.
    cells: Vec<u16>,
    blank: Vec<u32>,
    /// The cell the blank came from (never moved back to), `u32::MAX` for the start.
    came: Vec<u32>,
    hash: Vec<u64>,
    h: Vec<u32>,
    second: Vec<u32>,
}

/// Searches `start` to `goal` with a beam of `width` boards: the solution, or `None` when the
/// beam empties (every child a board kept before: a dead end, met by narrow beams) or passes
/// `max_depth` depths without the goal; and what the search did.
///
/// # Errors
/// [`Error::SearchLimit`] for a limit of `options` (time, memory, nodes) reached;
/// [`Error::Cancelled`] when the watch is stopped; [`Error::BadOption`] for a width of 0 or past
/// [`MAX_WIDTH`].
pub(super) fn beam(
    start: &Board,
    goal: &Board,
    guide: Guide<'_>,
    width: u32,
    max_depth: Option<usize>,
    options: &Options,
) -> Result<(Option<Vec<Dir>>, Stats), Error> {
    let began = Instant::now();
    check_width(width)?;
    let width = width as usize;
    let shape = start.shape();
    let n = shape.cells();
    let est = Estimator::new(goal);
    let first = match guide {
        Guide::Heuristic(Heuristic::LinearConflict) => 0,
        _ => est.estimate(Heuristic::LinearConflict, start.cells()),
    };
    let h0 = match guide {
        Guide::Heuristic(kind) => est.estimate(kind, start.cells()),
        _ => 0, // not used: the guide is looked up afresh for every child
    };
    let goal_hash = board_hash(goal.cells());
    let mut stats = Stats { iterations: 1, generated: 1, ..Stats::default() };
    if start == goal {
        stats.elapsed = began.elapsed();
        return Ok((Some(Vec::new()), stats));
    }
    let mut depth = Depth {
        cells: start.cells().to_vec(),
        blank: vec![start.blank() as u32],
        came: vec![u32::MAX],
        hash: vec![board_hash(start.cells())],
        h: vec![h0],
        second: vec![first],
    };
    let mut seen: HashSet<u64> = HashSet::new();
    seen.insert(depth.hash[0]);
    // the moves to each depth's boards from the one before: `parent << 2 | dir`
    let mut back: Vec<Vec<u32>> = Vec::new();
    let threads = options.threads.max(1);
    let limit_error = |stats: &Stats, what: String| Error::SearchLimit {
        what,
        generated: stats.generated,
        bytes: stats.peak_bytes,
        algorithm: "beam",
    };
    loop {
        if max_depth.is_some_and(|m| back.len() >= m) || depth.blank.is_empty() {
            stats.elapsed = began.elapsed();
            stats.stored = seen.len() as u64;
            return Ok((None, stats));
        }
        // the children, made and estimated in `threads` runs of parents, in the parents' order
        let parents = depth.blank.len();
        // a narrow depth is made on this thread (a thread's start costs more than its children)
        let runs: Vec<(Vec<Child>, Option<u32>)> = if parents < 2_048 || threads == 1 {
            vec![children(&depth, 0..parents, n, shape, guide, &est, &seen, goal_hash, goal)]
        } else {
            let per = parents.div_ceil(threads);
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| {
                        let (depth, seen, est) = (&depth, &seen, &est);
                        let range = (t * per).min(parents)..((t + 1) * per).min(parents);
                        scope.spawn(move || children(depth, range, n, shape, guide, est, seen, goal_hash, goal))
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().expect("a beam thread panicked")).collect()
            })
        };
        stats.expanded += parents as u64;
        let mut kids: Vec<Child> = Vec::with_capacity(runs.iter().map(|r| r.0.len()).sum());
        // the runs in the parents' order, up to the first that met the goal: the counts and the
        // solution of the search on one thread, whatever the number
        let mut found = None;
        for (run, goal_from) in runs {
            stats.generated += run.len() as u64 + goal_from.is_some() as u64;
            kids.extend(run);
            if goal_from.is_some() {
                found = goal_from;
                break;
            }
        }
        if let Some(from) = found {
            back.push(vec![from]);
            stats.elapsed = began.elapsed();
            stats.stored = seen.len() as u64 + 1;
            return Ok((Some(path(&back, 0)), stats));
        }
        kids.sort_unstable_by_key(|c| (c.key, c.hash, c.from));
        kids.dedup_by_key(|c| c.hash);
        kids.truncate(width);
        // the next depth
        let mut next = Depth {
            cells: Vec::with_capacity(kids.len() * n),
            blank: Vec::with_capacity(kids.len()),
            came: Vec::with_capacity(kids.len()),
            hash: Vec::with_capacity(kids.len()),
            h: Vec::with_capacity(kids.len()),
            second: Vec::with_capacity(kids.len()),
        };
        for c in &kids {
            let (parent, dir) = ((c.from >> 2) as usize, Dir::ALL[(c.from & 3) as usize]);
            let blank = depth.blank[parent] as usize;
            let to = dir.step(shape, blank).ok_or_else(|| Error::Internal("a beam move off the board".into()))?;
            let at = next.cells.len();
            next.cells.extend_from_slice(&depth.cells[parent * n..(parent + 1) * n]);
            next.cells.swap(at + blank, at + to);
            next.blank.push(to as u32);
            next.came.push(blank as u32);
            next.hash.push(c.hash);
            next.h.push(c.h);
            next.second.push(c.second);
            seen.insert(c.hash);
        }
        back.push(kids.iter().map(|c| c.from).collect());
        let bytes = back.iter().map(|b| b.capacity() * 4).sum::<usize>()
            + seen.capacity() * 16
            + kids.capacity() * std::mem::size_of::<Child>()
            + (next.cells.capacity() + depth.cells.capacity()) * 2
            + (next.blank.len() + depth.blank.len()) * 24;
        stats.peak_bytes = stats.peak_bytes.max(bytes as u64);
        stats.peak_open = stats.peak_open.max(kids.len() as u64);
        depth = next;
        if let Some(watch) = &options.watch {
            watch.set_generated(stats.generated);
            if watch.is_cancelled() {
                return Err(Error::Cancelled { generated: stats.generated });
            }
        }
        if let Some(limit) = options.time_limit.filter(|&t| began.elapsed() > t) {
            return Err(limit_error(&stats, format!("the time limit of {}", super::space::seconds(limit))));
        }
        if let Some(m) = options.max_bytes.filter(|&m| stats.peak_bytes > m) {
            return Err(limit_error(&stats, format!("the memory limit of {} MiB", m >> 20)));
        }
        if let Some(m) = options.max_nodes.filter(|&m| stats.generated > m) {
            return Err(limit_error(&stats, super::space::nodes_limit(m)));
        }
    }
}

/// The children of `depth`'s boards in `range`, estimated; the goal's move (`parent << 2 | dir`)
/// when one of them is the goal.
#[allow(clippy::too_many_arguments)]
fn children(
    depth: &Depth,
    range: std::ops::Range<usize>,
    n: usize,
    shape: crate::puzzle::board::Shape,
    guide: Guide<'_>,
    est: &Estimator,
    seen: &HashSet<u64>,
    goal_hash: u64,
    goal: &Board,
) -> (Vec<Child>, Option<u32>) {
    let mut out: Vec<Child> = Vec::with_capacity(range.len() * 3);
    let mut cells: Vec<u16> = Vec::new();
    let mut board = vec![0u16; n];
    for p in range {
        board.copy_from_slice(&depth.cells[p * n..(p + 1) * n]);
        let blank = depth.blank[p] as usize;
        for (d, dir) in Dir::ALL.iter().enumerate() {
            let Some(to) = dir.step(shape, blank) else { continue };
            if to as u32 == depth.came[p] {
                continue;
            }
            let tile = board[to] as usize;
            let hash = depth.hash[p] ^ key(tile, to) ^ key(tile, blank) ^ key(0, blank) ^ key(0, to);
            if seen.contains(&hash) {
                continue;
            }
            let from = (p as u32) << 2 | d as u32;
            if hash == goal_hash {
                board.swap(blank, to);
                let is_goal = board == goal.cells();
                board.swap(blank, to);
                if is_goal {
                    return (Vec::new(), Some(from));
                }
            }
            let second = match guide {
                Guide::Heuristic(Heuristic::LinearConflict) => 0,
                _ => est.linear_conflict_after(&mut board, blank, to, depth.second[p]),
            };
            // the classic estimates follow the move; the others are looked up for the child
            let incremental = match guide {
                Guide::Heuristic(kind) => est.after(kind, &mut board, blank, to, depth.h[p]),
                _ => None,
            };
            let h = incremental.unwrap_or_else(|| {
                let at = cells.len();
                cells.extend_from_slice(&board);
                cells.swap(at + blank, at + to);
                0
            });
            out.push(Child { key: 0, hash, from, h, second });
        }
    }
    // the other guides' estimates, all at once (pattern lookups overlap their cache misses)
    if !cells.is_empty() {
        let mut h = vec![0u32; out.len()];
        if let Guide::Patterns(set) = guide {
            let small: Vec<u8> = cells.iter().map(|&t| t as u8).collect();
            set.estimate_many(&small, true, &mut h);
        } else {
            for (e, board) in h.iter_mut().zip(cells.chunks_exact(n)) {
                // a board the table has no distance for goes last
                *e = guide.estimate(est, board).unwrap_or(u32::MAX >> 1);
            }
        }
        for (c, &e) in out.iter_mut().zip(&h) {
            c.h = e;
        }
    }
    for c in out.iter_mut() {
        c.key = (c.h as u64) << 32 | c.second as u64;
    }
    (out, None)
}

/// The moves from the start to the board `index` of the last depth in `back`.
fn path(back: &[Vec<u32>], mut index: usize) -> Vec<Dir> {
    let mut moves = Vec::with_capacity(back.len());
    for depth in back.iter().rev() {
        let from = depth[index];
        moves.push(Dir::ALL[(from & 3) as usize]);
        index = (from >> 2) as usize;
    }
    moves.reverse();
    moves
}

/// Checks a beam's width: from 1 to [`MAX_WIDTH`].
///
/// # Errors
/// [`Error::BadOption`] saying the range.
pub fn check_width(width: u32) -> Result<(), Error> {
    if (1..=MAX_WIDTH).contains(&width) {
        Ok(())
    } else {
        Err(Error::BadOption(format!("beam width {width}: give a number of boards from 1 to {MAX_WIDTH}")))
    }
}
