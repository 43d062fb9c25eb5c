//! Placing the top row of a (turned) rectangle: each tile walked to its cell along a staircase,
//! the blank routed around it by the route that harms the other tiles least, and the last two
//! tiles placed together in a 3x2 window at the row's end.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::puzzle::board::Dir;

/// The local directions, in the order [`Line`]'s direction table uses.
pub(super) const DIRS: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

/// The `(row, col)` step of a blank moving in `d`.
pub(super) fn delta(d: Dir) -> (isize, isize) {
    match d {
        Dir::Up => (-1, 0),
        Dir::Down => (1, 0),
        Dir::Left => (0, -1),
        Dir::Right => (0, 1),
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

/// What a blank move costs a route: one for its length, plus `2 * HARM_WEIGHT` when it pushes a
/// tile away from its goal. A harmful move costs the solution two moves in the end (`M + 2H`),
/// so it is weighed well above a longer route of useful moves. Measured on random 50x50 and
/// 100x100 boards, the length falls from weight 0 (shortest routes: 3.9 times the Manhattan
/// distance) to 2 (2.6x) and stops falling near 8.
const HARM_WEIGHT: u32 = 8;

/// How far a route may stray outside the box around the blank, its goal and the tile it avoids
/// before the whole rectangle is searched: a wider window finds less harmful routes (margin 1:
/// 2.68x on 100x100, 2: 2.58x, 3: 2.56x, 5: 2.54x) for more time.
const MARGIN: usize = 3;

/// A rectangle turned so that the line to place is its top row (local row 0), with the tiles'
/// goals in the same local coordinates.
pub(super) struct Line {
    h: usize,
    w: usize,
    /// The local cells, `0` for the blank.
    pub(super) cells: Vec<u16>,
    /// Each tile's local goal `(row, col)` (only the rectangle's tiles are meaningful).
    goal: Vec<(u16, u16)>,
    /// Each tile's local cell.
    pos: Vec<u32>,
    blank: usize,
    frozen: Vec<bool>,
    /// The board's direction of each local one.
    dirmap: [Dir; 4],
    /// The moves made, as the board's directions.
    pub(super) moves: Vec<Dir>,
    // scratch of the route search, kept between searches; `seen[c] == stamp` marks the cells
    // reached by the current one, so nothing is cleared per search
    dist: Vec<u32>,
    prev: Vec<u8>,
    seen: Vec<u32>,
    stamp: u32,
    heap: BinaryHeap<Reverse<(u32, u32)>>,
}

impl Line {
    /// A line to place: `cells` are `h` rows of `w` local cells, `goal` each tile's local goal,
    /// `dirmap` the board's direction of each local one.
    pub(super) fn new(h: usize, w: usize, cells: Vec<u16>, goal: Vec<(u16, u16)>, dirmap: [Dir; 4]) -> Line {
        let mut pos = vec![0u32; goal.len()];
        let mut blank = 0;
        for (c, &t) in cells.iter().enumerate() {
            pos[t as usize] = c as u32;
            if t == 0 {
                blank = c;
            }
        }
        let n = h * w;
        Line {
            h,
            w,
            cells,
            goal,
            pos,
            blank,
            frozen: vec![false; n],
            dirmap,
            moves: Vec::new(),
            dist: vec![0; n],
            prev: vec![0; n],
            seen: vec![0; n],
            stamp: 0,
            heap: BinaryHeap::new(),
        }
    }

    fn rc(&self, cell: usize) -> (usize, usize) {
        (cell / self.w, cell % self.w)
    }

    fn nb(&self, cell: usize, d: Dir) -> Option<usize> {
        super::step_in(self.h, self.w, cell, d)
    }

    /// The direction from `a` to its neighbour `b`.
    fn dir_to(&self, a: usize, b: usize) -> Dir {
        if b + self.w == a {
            Dir::Up
        } else if a + self.w == b {
            Dir::Down
        } else if b + 1 == a {
            Dir::Left
        } else {
            Dir::Right
        }
    }

    /// Manhattan distance between two cells.
    fn cell_dist(&self, a: usize, b: usize) -> usize {
        let (ar, ac) = self.rc(a);
        let (br, bc) = self.rc(b);
        ar.abs_diff(br) + ac.abs_diff(bc)
    }

    /// Distance of `tile` from its goal if it stood on `cell`.
    fn off(&self, tile: u16, cell: usize) -> usize {
        let (r, c) = self.rc(cell);
        let (gr, gc) = self.goal[tile as usize];
        r.abs_diff(gr as usize) + c.abs_diff(gc as usize)
    }

    /// The cost of the blank moving from `a` to its neighbour `b`.
    fn move_cost(&self, a: usize, b: usize) -> u32 {
        let t = self.cells[b];
        if self.off(t, a) < self.off(t, b) {
            1
        } else {
            1 + 2 * HARM_WEIGHT
        }
    }

    /// Moves the blank one step in local direction `d`.
    fn step(&mut self, d: Dir) -> Option<()> {
        let to = self.nb(self.blank, d)?;
        if self.frozen[to] {
            return None;
        }
        let t = self.cells[to];
        self.cells[self.blank] = t;
        self.cells[to] = 0;
        self.pos[t as usize] = self.blank as u32;
        self.blank = to;
        self.moves.push(self.dirmap[index(d)]);
        Some(())
    }

    fn run(&mut self, path: &[Dir]) -> Option<()> {
        path.iter().try_for_each(|&d| self.step(d))
    }

    /// The cheapest route of the blank to `to` that never enters `avoid` or a frozen cell, and its
    /// cost: searched first in a window around the blank, `to` and `avoid`, then in the whole
    /// rectangle.
    fn route(&mut self, to: usize, avoid: usize) -> Option<(u32, Vec<Dir>)> {
        if self.blank == to {
            return Some((0, Vec::new()));
        }
        let cells = [self.blank, to, avoid].map(|c| self.rc(c));
        let margin = MARGIN;
        let r0 = cells.iter().map(|p| p.0).min().unwrap_or(0).saturating_sub(margin);
        let c0 = cells.iter().map(|p| p.1).min().unwrap_or(0).saturating_sub(margin);
        let r1 = (cells.iter().map(|p| p.0).max().unwrap_or(0) + margin + 1).min(self.h);
        let c1 = (cells.iter().map(|p| p.1).max().unwrap_or(0) + margin + 1).min(self.w);
        let whole = r0 == 0 && c0 == 0 && r1 == self.h && c1 == self.w;
        self.route_in(to, avoid, (r0, r1, c0, c1)).or_else(|| {
            if whole {
                None
            } else {
                self.route_in(to, avoid, (0, self.h, 0, self.w))
            }
        })
    }

    /// Dijkstra's search of [`Line::route`] within rows `r0..r1` and columns `c0..c1`.
    fn route_in(
        &mut self,
        to: usize,
        avoid: usize,
        (r0, r1, c0, c1): (usize, usize, usize, usize),
    ) -> Option<(u32, Vec<Dir>)> {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        let start = self.blank;
        self.heap.clear();
        self.seen[start] = stamp;
        self.dist[start] = 0;
        self.heap.push(Reverse((0, start as u32)));
        let mut found = false;
        while let Some(Reverse((d, a))) = self.heap.pop() {
            let a = a as usize;
            if d > self.dist[a] {
                continue;
            }
            if a == to {
                found = true;
                break;
            }
            for dir in DIRS {
                let Some(b) = self.nb(a, dir) else { continue };
                let (br, bc) = self.rc(b);
                if b == avoid || self.frozen[b] || br < r0 || br >= r1 || bc < c0 || bc >= c1 {
                    continue;
                }
                let nd = d + self.move_cost(a, b);
                if self.seen[b] != stamp || nd < self.dist[b] {
                    self.seen[b] = stamp;
                    self.dist[b] = nd;
                    self.prev[b] = index(dir) as u8;
                    self.heap.push(Reverse((nd, b as u32)));
                }
            }
        }
        if !found {
            return None;
        }
        let mut path = Vec::new();
        let mut c = to;
        while c != start {
            let d = DIRS[self.prev[c] as usize];
            path.push(d);
            c = self.nb(c, d.opposite())?;
        }
        path.reverse();
        Some((self.dist[to], path))
    }

    /// Walks `tile` to `target` along a staircase (each step brings it closer), choosing at each
    /// step the next cell whose blank route, plus the cheapest route of the step after it (made
    /// and taken back), costs least: one step of look-ahead sees that a turn now may force a
    /// straight run (a loop of four blank moves) later.
    fn place(&mut self, tile: u16, target: usize) -> Option<()> {
        loop {
            let p = self.pos[tile as usize] as usize;
            if p == target {
                return Some(());
            }
            let here = self.cell_dist(p, target);
            let mut best: Option<(u32, usize, Vec<Dir>)> = None;
            for d in DIRS {
                let Some(q) = self.nb(p, d) else { continue };
                if self.frozen[q] || self.cell_dist(q, target) >= here {
                    continue;
                }
                if let Some((cost, path)) = self.route(q, p) {
                    let cost = if q == target { cost } else { cost + self.next_cost(&path, p, q, target)? };
                    if best.as_ref().is_none_or(|b| cost < b.0) {
                        best = Some((cost, q, path));
                    }
                }
            }
            let (_, q, path) = best?;
            self.run(&path)?;
            self.step(self.dir_to(q, p))?;
        }
    }

    /// The cheapest next step's route cost after `path` and the tile's step from `p` to `q`,
    /// found by making them and taking them back.
    fn next_cost(&mut self, path: &[Dir], p: usize, q: usize, target: usize) -> Option<u32> {
        let made = self.moves.len();
        self.run(path)?;
        self.step(self.dir_to(q, p))?;
        let here = self.cell_dist(q, target);
        let mut least = u32::MAX;
        for d in DIRS {
            let Some(r) = self.nb(q, d) else { continue };
            if self.frozen[r] || self.cell_dist(r, target) >= here {
                continue;
            }
            if let Some((cost, _)) = self.route(r, q) {
                least = least.min(cost);
            }
        }
        let mut back: Vec<Dir> = path.iter().map(|d| d.opposite()).collect();
        back.push(self.dir_to(q, p).opposite());
        back.reverse();
        self.run(&back)?;
        self.moves.truncate(made);
        Some(if least == u32::MAX { 0 } else { least })
    }

    /// The Manhattan distance of the tiles below the top row from their goals: what a placed row
    /// leaves to the rest of the solution.
    pub(super) fn distance_below(&self) -> usize {
        (self.w..self.h * self.w).filter(|&c| self.cells[c] != 0).map(|c| self.off(self.cells[c], c)).sum()
    }

    /// Places the whole top row and freezes it.
    pub(super) fn place_top_row(&mut self) -> Option<()> {
        let w = self.w;
        let mut at_goal = vec![0u16; self.h * w];
        for &t in &self.cells {
            let (gr, gc) = self.goal[t as usize];
            at_goal[gr as usize * w + gc as usize] = t;
        }
        for (j, &tile) in at_goal[..w - 2].iter().enumerate() {
            self.place(tile, j)?;
            self.frozen[j] = true;
        }
        self.place_pair(at_goal[w - 2], at_goal[w - 1])
    }

    /// Places `a` on cell `w - 2` of the top row and `b` on `w - 1`: both are brought into the
    /// 3x2 window at the row's end, then an exact search over the window (the other tiles in it
    /// are interchangeable for this purpose) finishes the pair.
    fn place_pair(&mut self, a: u16, b: u16) -> Option<()> {
        let w = self.w;
        let win = [w - 2, w - 1, 2 * w - 2, 2 * w - 1, 3 * w - 2, 3 * w - 1];
        let in_win = |c: usize| win.contains(&c);
        if self.pos[a as usize] as usize != w - 2 || self.pos[b as usize] as usize != w - 1 {
            self.place(a, w - 2)?;
            self.frozen[w - 2] = true;
            let pb = self.pos[b as usize] as usize;
            if !in_win(pb) {
                let (r, c) = self.rc(pb);
                let target = if c >= w - 2 { 2 * w + c } else { r.clamp(1, 2) * w + w - 2 };
                self.place(b, target)?;
            }
            let pb = self.pos[b as usize] as usize;
            self.frozen[pb] = true;
            if !in_win(self.blank) {
                let to =
                    win.iter().copied().filter(|&c| !self.frozen[c]).min_by_key(|&c| self.cell_dist(c, self.blank))?;
                let (_, path) = self.route(to, pb)?;
                self.run(&path)?;
            }
            self.frozen[w - 2] = false;
            self.frozen[pb] = false;
            let path = self.window_search(&win, a, b)?;
            self.run(&path)?;
        }
        self.frozen[w - 2] = true;
        self.frozen[w - 1] = true;
        Some(())
    }

    /// Breadth-first search over the window's states (where `a`, `b` and the blank are) for the
    /// shortest way to put `a` on `win[0]` and `b` on `win[1]`.
    fn window_search(&self, win: &[usize; 6], a: u16, b: u16) -> Option<Vec<Dir>> {
        let at = |c: usize| win.iter().position(|&x| x == c);
        let enc = |a: usize, b: usize, z: usize| (a * 6 + b) * 6 + z;
        let start = enc(at(self.pos[a as usize] as usize)?, at(self.pos[b as usize] as usize)?, at(self.blank)?);
        let mut prev = [u16::MAX; 216];
        let mut how = [0u8; 216];
        let mut queue = std::collections::VecDeque::from([start]);
        prev[start] = start as u16;
        let goal = enc(0, 1, 0) / 6; // a on win[0], b on win[1], the blank anywhere
        let mut end = None;
        while let Some(s) = queue.pop_front() {
            if s / 6 == goal {
                end = Some(s);
                break;
            }
            let (sa, sb, sz) = (s / 36, s / 6 % 6, s % 6);
            for (k, d) in DIRS.iter().enumerate() {
                let Some(n) = self.nb(win[sz], *d).and_then(at) else { continue };
                let na = if n == sa { sz } else { sa };
                let nb = if n == sb { sz } else { sb };
                let t = enc(na, nb, n);
                if prev[t] == u16::MAX {
                    prev[t] = s as u16;
                    how[t] = k as u8;
                    queue.push_back(t);
                }
            }
        }
        let mut s = end?;
        let mut path = Vec::new();
        while s != start {
            path.push(DIRS[how[s] as usize]);
            s = prev[s] as usize;
        }
        path.reverse();
        Some(path)
    }
}
