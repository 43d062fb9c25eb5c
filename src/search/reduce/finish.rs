//! The exact search that finishes the last small rectangle (at most nine cells): IDA* with the
//! Manhattan distance (Korf 1985), which on so few cells is optimal and takes well under a
//! millisecond.

use super::place::{delta, DIRS};
use crate::puzzle::board::Dir;

/// The most cells a rectangle finished here may have.
pub(super) const MAX_CELLS: usize = 9;

/// An optimal solution of the `h` by `w` rectangle whose cell `c` holds a tile (`cells[c]`, `0`
/// the blank) that belongs on cell `goals[c]`; `None` if there is none (the parity forbids it) or
/// the rectangle is too large.
pub(super) fn solve(h: usize, w: usize, cells: &[u16], goals: &[u8]) -> Option<Vec<Dir>> {
    let n = h * w;
    if n > MAX_CELLS || cells.len() != n || goals.len() != n {
        return None;
    }
    // each tile is named by its goal cell; the blank's name is its own goal cell too
    let mut state: Vec<u8> = goals.to_vec();
    let blank = cells.iter().position(|&t| t == 0)?;
    let blank_name = state[blank];
    let dist = |cell: usize, name: u8| {
        let name = name as usize;
        (cell / w).abs_diff(name / w) + (cell % w).abs_diff(name % w)
    };
    let h0: usize = (0..n).filter(|&c| c != blank).map(|c| dist(c, state[c])).sum();
    let mut search = Ida { h, w, blank_name, path: Vec::new() };
    let mut bound = h0;
    // the 3x3 puzzle needs at most 31 moves and 2x4 at most 36; a parity error would never end
    while bound <= 64 {
        match search.dfs(&mut state, blank, h0, 0, bound, None) {
            Ok(()) => return Some(search.path),
            Err(next) if next == usize::MAX => return None,
            Err(next) => bound = next,
        }
    }
    None
}

struct Ida {
    h: usize,
    w: usize,
    blank_name: u8,
    path: Vec<Dir>,
}

impl Ida {
    /// Depth-first search below `bound`: `Ok` with the path when solved, else the least `f` over
    /// the bound.
    fn dfs(
        &mut self,
        state: &mut [u8],
        blank: usize,
        est: usize,
        g: usize,
        bound: usize,
        last: Option<Dir>,
    ) -> Result<(), usize> {
        let f = g + est;
        if f > bound {
            return Err(f);
        }
        if est == 0 && state[blank] == self.blank_name {
            return Ok(());
        }
        let (w, h) = (self.w, self.h);
        let mut least = usize::MAX;
        for d in DIRS {
            if last == Some(d.opposite()) {
                continue;
            }
            let (dr, dc) = delta(d);
            let (r, c) = ((blank / w) as isize + dr, (blank % w) as isize + dc);
            if r < 0 || c < 0 || r >= h as isize || c >= w as isize {
                continue;
            }
            let to = r as usize * w + c as usize;
            let name = state[to] as usize;
            let (gr, gc) = (name / w, name % w);
            let before = (to / w).abs_diff(gr) + (to % w).abs_diff(gc);
            let after = (blank / w).abs_diff(gr) + (blank % w).abs_diff(gc);
            let next = est + after - before;
            state.swap(blank, to);
            self.path.push(d);
            match self.dfs(state, to, next, g + 1, bound, Some(d)) {
                Ok(()) => return Ok(()),
                Err(m) => least = least.min(m),
            }
            self.path.pop();
            state.swap(blank, to);
        }
        Err(least)
    }
}
