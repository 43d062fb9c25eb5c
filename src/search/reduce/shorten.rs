//! Shortening a solution after the fact: loops cut out, then windows of it solved again.
//!
//! A board the solution visits twice marks a loop, whose moves are dropped (found by a Zobrist
//! hash, the result checked by replay). Then a window of `k` moves is slid along the solution:
//! the boards at its two ends differ only on the cells the blank crossed, so IDA* with the
//! Manhattan distance between them (Korf 1985), inside the box around those cells with every
//! tile outside it held still, finds the shortest way between them there, and a shorter one
//! replaces the window's moves. This is the classic path shortening of macro-operator solutions.
//!
//! What it pays, measured on uniform random boards (with the windows and budgets of [`PASSES`]):
//! much on small boards, where a window spans
//! the whole board and the last cells' detours are many (6x6: 2.86 to 2.35 times the Manhattan
//! distance, 10x10: 2.85 to 2.61), little on large ones (20x20: 2.75 to 2.68, 50x50: 2.57 to
//! 2.56, 100x100: 2.539 to 2.532). On large boards most windows are already as short as their
//! two ends allow (of the windows of 28 moves on 20x20, 29 % move every tile straight to its end
//! cell and 69 % are proven shortest in their box): what makes the construction long is not a detour between two nearby
//! boards but the tiles its blank pushes away, which are brought back long after. Wider boxes
//! (a margin of 2) and longer windows (40 moves, 50 000 nodes each) gained under 1 % more for
//! twenty times the time, and the budgets of 2 000 to 8 000 nodes a window instead of these
//! 300 to 2 000 about 1 % on boards up to 10x10.

use crate::puzzle::board::{Board, Dir};
use crate::search::space::key;

/// Each pass's window length and the IDA* nodes one window may spend. Short windows are cheap and
/// catch the small detours; the longer ones then join what the short ones left.
const PASSES: [(usize, u32); 3] = [(12, 300), (20, 1_000), (28, 2_000)];

/// The most cells a board may have for its solution's windows to be solved again: past 50x50
/// they gain under 0.5 % (100x100: 2.539 to 2.532 times the Manhattan distance) for four times
/// the construction's time.
const WINDOWS_UP_TO: usize = 50 * 50;

/// How far around the cells the blank crosses a window's search may go.
const MARGIN: usize = 1;

/// `moves` from `start`, shortened: never longer, and ending on the same board. Should anything
/// go wrong (a move off the board, a different end: bugs, checked not to happen), `moves` are
/// returned as they were.
pub(super) fn shorten(start: &Board, moves: Vec<Dir>) -> Vec<Dir> {
    let Some(end) = replay(start, &moves) else { return moves };
    let mut best = without_loops(start, &moves);
    if start.shape().cells() <= WINDOWS_UP_TO {
        let mut search = Window::default();
        for (k, nodes) in PASSES {
            best = slide(start, best, k, nodes, &mut search);
        }
        // a window's new path may bring back a board seen before it
        best = without_loops(start, &best);
    }
    match replay(start, &best) {
        Some(b) if b == end && best.len() <= moves.len() => best,
        _ => moves,
    }
}

/// The board `moves` lead to from `start`, if they stay on the board.
fn replay(start: &Board, moves: &[Dir]) -> Option<Board> {
    let mut b = start.clone();
    moves.iter().try_for_each(|&d| b.apply(d).map(|_| ()))?;
    Some(b)
}

/// `moves` with every loop cut out: where a board comes back, the moves between its two visits
/// are dropped. Boards are told apart by a Zobrist hash; [`shorten`] checks the result by replay.
fn without_loops(start: &Board, moves: &[Dir]) -> Vec<Dir> {
    let shape = start.shape();
    let mut cells = start.cells().to_vec();
    let mut blank = start.blank();
    let mut hashes = vec![0u64];
    let mut seen = std::collections::HashMap::with_capacity(moves.len() + 1);
    seen.insert(0u64, 0usize);
    let mut kept = Vec::with_capacity(moves.len());
    for &dir in moves {
        let Some(to) = dir.step(shape, blank) else { return moves.to_vec() };
        let tile = cells[to] as usize;
        let hash = hashes[kept.len()] ^ key(tile, to) ^ key(tile, blank) ^ key(0, blank) ^ key(0, to);
        cells.swap(blank, to);
        blank = to;
        kept.push(dir);
        match seen.get(&hash) {
            Some(&at) => {
                for h in hashes.drain(at + 1..) {
                    seen.remove(&h);
                }
                kept.truncate(at);
            }
            None => {
                seen.insert(hash, kept.len());
                hashes.push(hash);
            }
        }
    }
    kept
}

/// One pass of windows of `k` moves along `moves`, each solved again with at most `nodes` IDA*
/// nodes; a window replaced by a shorter path is looked at again from half a window back, so that
/// the new path can join the moves before it.
fn slide(start: &Board, moves: Vec<Dir>, k: usize, nodes: u32, search: &mut Window) -> Vec<Dir> {
    let shape = start.shape();
    let (rows, cols) = (shape.rows(), shape.cols());
    let mut blank = start.blank();
    let mut done: Vec<Dir> = Vec::with_capacity(moves.len());
    // the moves still to look at, the next one last
    let mut todo: Vec<Dir> = moves;
    todo.reverse();
    while todo.len() >= 2 {
        let len = k.min(todo.len());
        let window: Vec<Dir> = todo[todo.len() - len..].iter().rev().copied().collect();
        match search.shorter(rows, cols, blank, &window, nodes) {
            Some(path) => {
                todo.truncate(todo.len() - len);
                todo.extend(path.iter().rev());
                for _ in 0..k / 2 {
                    let Some(d) = done.pop() else { break };
                    let Some(to) = d.opposite().step(shape, blank) else { return undo_all(done, todo) };
                    blank = to;
                    todo.push(d);
                }
            }
            None => {
                let Some(d) = todo.pop() else { break };
                let Some(to) = d.step(shape, blank) else { return undo_all(done, todo) };
                blank = to;
                done.push(d);
            }
        }
    }
    undo_all(done, todo)
}

/// The moves of a pass, those done then those still to look at.
fn undo_all(mut done: Vec<Dir>, todo: Vec<Dir>) -> Vec<Dir> {
    done.extend(todo.iter().rev());
    done
}

/// The local directions in the order the search tries them, with their `(row, col)` steps.
const STEPS: [(Dir, isize, isize); 4] = [(Dir::Up, -1, 0), (Dir::Down, 1, 0), (Dir::Left, 0, -1), (Dir::Right, 0, 1)];

/// The search of one window, its buffers kept between windows. Tiles are named by the local
/// cell they start on.
#[derive(Default)]
struct Window {
    h: usize,
    w: usize,
    /// The local board being searched: each cell's tile name.
    state: Vec<u16>,
    /// Each name's goal row and column.
    goal: Vec<(u16, u16)>,
    path: Vec<Dir>,
    nodes: u32,
}

impl Window {
    /// A path shorter than `window` from a board of `rows` by `cols` with the blank on `blank` to where `window` leads, inside the box around the cells `window`'s blank
    /// crosses; `None` when there is none or the search ran out of its `budget` of nodes.
    fn shorter(&mut self, rows: usize, cols: usize, blank: usize, window: &[Dir], budget: u32) -> Option<Vec<Dir>> {
        // the box of the blank's cells
        let (mut r, mut c) = ((blank / cols) as isize, (blank % cols) as isize);
        let (mut r0, mut r1, mut c0, mut c1) = (r, r, c, c);
        for &d in window {
            let (_, dr, dc) = STEPS[index(d)];
            r += dr;
            c += dc;
            if r < 0 || c < 0 || r >= rows as isize || c >= cols as isize {
                return None;
            }
            r0 = r0.min(r);
            r1 = r1.max(r);
            c0 = c0.min(c);
            c1 = c1.max(c);
        }
        let m = MARGIN as isize;
        let r0 = (r0 - m).max(0) as usize;
        let c0 = (c0 - m).max(0) as usize;
        let r1 = ((r1 + m + 1) as usize).min(rows);
        let c1 = ((c1 + m + 1) as usize).min(cols);
        let (h, w) = (r1 - r0, c1 - c0);
        self.h = h;
        self.w = w;
        // the local start names each tile by its cell; the window's moves give the goal
        let n = h * w;
        self.state.clear();
        self.state.extend(0..n as u16);
        let local_blank = (blank / cols - r0) * w + (blank % cols - c0);
        let mut z = local_blank;
        for &d in window {
            let to = self.nb(z, d)?;
            self.state.swap(z, to);
            z = to;
        }
        self.goal.clear();
        self.goal.resize(n, (0, 0));
        for (cell, &name) in self.state.iter().enumerate() {
            self.goal[name as usize] = ((cell / w) as u16, (cell % w) as u16);
        }
        self.state.clear();
        self.state.extend(0..n as u16);
        let est: usize = (0..n).filter(|&c| c != local_blank).map(|c| self.off(c as u16, c)).sum();
        let most = window.len().checked_sub(2)?;
        if est > most {
            return None;
        }
        self.nodes = budget;
        self.path.clear();
        let mut bound = est;
        while bound <= most {
            match self.dfs(local_blank, est, 0, bound, None) {
                Ok(()) => return Some(std::mem::take(&mut self.path)),
                Err(next) if next == usize::MAX => return None,
                Err(next) => bound = next,
            }
        }
        None
    }

    /// The local cell next to `cell` in direction `d`.
    fn nb(&self, cell: usize, d: Dir) -> Option<usize> {
        super::step_in(self.h, self.w, cell, d)
    }

    /// How far the tile `name` on `cell` is from its goal.
    fn off(&self, name: u16, cell: usize) -> usize {
        let (gr, gc) = self.goal[name as usize];
        (cell / self.w).abs_diff(gr as usize) + (cell % self.w).abs_diff(gc as usize)
    }

    /// Depth-first search below `bound`: `Ok` with the path when the goal is reached, else the
    /// least `f` over the bound (`usize::MAX` when the node budget ran out).
    fn dfs(&mut self, blank: usize, est: usize, g: usize, bound: usize, last: Option<Dir>) -> Result<(), usize> {
        let f = g + est;
        if f > bound {
            return Err(f);
        }
        if est == 0 {
            return Ok(());
        }
        if self.nodes == 0 {
            return Err(usize::MAX);
        }
        self.nodes -= 1;
        let mut least = usize::MAX;
        for (d, _, _) in STEPS {
            if last == Some(d.opposite()) {
                continue;
            }
            let Some(to) = self.nb(blank, d) else { continue };
            let name = self.state[to];
            let next = est - self.off(name, to) + self.off(name, blank);
            self.state.swap(blank, to);
            self.path.push(d);
            let found = self.dfs(to, next, g + 1, bound, Some(d));
            if found.is_ok() {
                return Ok(());
            }
            self.path.pop();
            self.state.swap(blank, to);
            match found {
                Err(usize::MAX) if self.nodes == 0 => return Err(usize::MAX),
                Err(m) => least = least.min(m),
                Ok(()) => {}
            }
        }
        Err(least)
    }
}

fn index(d: Dir) -> usize {
    match d {
        Dir::Up => 0,
        Dir::Down => 1,
        Dir::Left => 2,
        Dir::Right => 3,
    }
}
