//! Where the A* family keeps its boards (whole, or as their changes from the start) and the hash
//! table that finds a board among them.

use super::space::Tile;

/// Where the A* family keeps its boards, one per node, in node order.
pub(super) trait Store<T: Tile> {
    /// An empty store for searches from `start`.
    fn new(start: &[T]) -> Self;
    /// Adds the start board (node 0).
    fn add_start(&mut self);
    /// Adds `cells`, which is node `parent`'s board after the tile on `to` slid onto `blank`.
    fn add(&mut self, parent: u32, start: &[T], cells: &[T], blank: usize, to: usize);
    /// Writes node `id`'s board into `scratch`, which holds whatever the last `load` left.
    fn load(&mut self, id: u32, scratch: &mut [T]);
    /// What [`Store::holds`] needs to know of `cells`, node `parent`'s board after that move.
    fn changes_after(&self, parent: u32, start: &[T], cells: &[T], blank: usize, to: usize) -> usize;
    /// Whether node `id`'s board is `cells` (`changes` from [`Store::changes_after`]).
    fn holds(&self, id: u32, cells: &[T], changes: usize) -> bool;
    /// The bytes it holds (its capacities).
    fn bytes(&self) -> usize;
}

/// Every board whole, one after another.
pub(super) struct Dense<T> {
    n: usize,
    start: Vec<T>,
    cells: Vec<T>,
}

impl<T: Tile> Store<T> for Dense<T> {
    fn new(start: &[T]) -> Self {
        Dense { n: start.len(), start: start.to_vec(), cells: Vec::with_capacity(start.len() * 1024) }
    }

    fn add_start(&mut self) {
        self.cells.extend_from_slice(&self.start);
    }

    #[inline]
    fn add(&mut self, _: u32, _: &[T], cells: &[T], _: usize, _: usize) {
        self.cells.extend_from_slice(cells);
    }

    #[inline]
    fn load(&mut self, id: u32, scratch: &mut [T]) {
        let at = id as usize * self.n;
        scratch.copy_from_slice(&self.cells[at..at + self.n]);
    }

    #[inline]
    fn changes_after(&self, _: u32, _: &[T], _: &[T], _: usize, _: usize) -> usize {
        0
    }

    #[inline]
    fn holds(&self, id: u32, cells: &[T], _: usize) -> bool {
        let at = id as usize * self.n;
        self.cells[at..at + self.n] == *cells
    }

    fn bytes(&self) -> usize {
        self.cells.capacity() * std::mem::size_of::<T>()
    }
}

/// Each board as the cells where it differs from the start, `cell << 16 | tile`: a search of `d`
/// moves changes at most `d + 1` cells, so a node of a 127x127 board takes bytes, not 32 KiB.
pub(super) struct Sparse {
    start: Vec<u16>,
    /// The changes of every node, one run after another.
    changes: Vec<u32>,
    /// Where each node's run starts; it ends where the next one starts.
    runs: Vec<u64>,
    /// The node whose changes `scratch` holds after the last `load`.
    loaded: Option<u32>,
}

impl Sparse {
    pub(super) fn run(&self, id: u32) -> &[u32] {
        let from = self.runs[id as usize] as usize;
        let to = self.runs.get(id as usize + 1).map_or(self.changes.len(), |&e| e as usize);
        &self.changes[from..to]
    }
}

impl<T: Tile> Store<T> for Sparse {
    fn new(start: &[T]) -> Self {
        Sparse {
            start: start.iter().map(|t| t.get() as u16).collect(),
            changes: Vec::with_capacity(1 << 14),
            runs: Vec::with_capacity(1024),
            loaded: None,
        }
    }

    fn add_start(&mut self) {
        self.runs.push(0);
    }

    fn add(&mut self, parent: u32, _: &[T], cells: &[T], blank: usize, to: usize) {
        let from = self.runs[parent as usize] as usize;
        let end = self.runs.get(parent as usize + 1).map_or(self.changes.len(), |&e| e as usize);
        self.runs.push(self.changes.len() as u64);
        // the parent's changes but those of the two cells the move touched, then theirs anew
        for k in from..end {
            let c = self.changes[k];
            let cell = (c >> 16) as usize;
            if cell != blank && cell != to {
                self.changes.push(c);
            }
        }
        for cell in [blank, to] {
            let tile = cells[cell].get() as u16;
            if tile != self.start[cell] {
                self.changes.push((cell as u32) << 16 | tile as u32);
            }
        }
    }

    fn load(&mut self, id: u32, scratch: &mut [T]) {
        if let Some(old) = self.loaded {
            for &c in self.run(old) {
                let cell = (c >> 16) as usize;
                scratch[cell] = T::of(self.start[cell]);
            }
        } else {
            for (s, &t) in scratch.iter_mut().zip(&self.start) {
                *s = T::of(t);
            }
        }
        for &c in self.run(id) {
            scratch[(c >> 16) as usize] = T::of(c as u16);
        }
        self.loaded = Some(id);
    }

    fn changes_after(&self, parent: u32, _: &[T], cells: &[T], blank: usize, to: usize) -> usize {
        // the parent's board had these two cells the other way round
        let was = |cell: usize, other: usize| (cells[other].get() as u16 != self.start[cell]) as usize;
        let now = |cell: usize| (cells[cell].get() as u16 != self.start[cell]) as usize;
        self.run(parent).len() + now(blank) + now(to) - was(blank, to) - was(to, blank)
    }

    fn holds(&self, id: u32, cells: &[T], changes: usize) -> bool {
        let run = self.run(id);
        run.len() == changes && run.iter().all(|&c| cells[(c >> 16) as usize].get() as u32 == c & 0xFFFF)
    }

    fn bytes(&self) -> usize {
        self.changes.capacity() * 4 + self.runs.capacity() * 8 + self.start.capacity() * 2
    }
}

/// Open addressing over node ids, keyed by their Zobrist hash. A slot holds the hash's high 32
/// bits beside the id, so a probe rejects most other boards without touching their node.
pub(super) struct HashSlots {
    /// `(hash >> 32) << 32 | (id + 1)`, or 0 for an empty slot.
    slots: Vec<u64>,
    len: usize,
}

impl HashSlots {
    pub(super) fn new() -> HashSlots {
        HashSlots { slots: vec![0; 1 << 12], len: 0 }
    }

    pub(super) fn bytes(&self) -> usize {
        self.slots.capacity() * 8
    }

    /// Asks the processor to start loading the slot a probe for `hash` reads first.
    #[inline]
    pub(super) fn prefetch(&self, hash: u64) {
        // `at` is masked, so in bounds
        crate::memory::prefetch(&self.slots[hash as usize & (self.slots.len() - 1)]);
    }

    #[inline]
    pub(super) fn slot(hash: u64, id: u32) -> u64 {
        (hash & !0xFFFF_FFFF) | (id as u64 + 1)
    }

    /// The node with this hash whose board `same` accepts.
    #[inline]
    pub(super) fn find(&self, hash: u64, same: impl Fn(u32) -> bool) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut at = hash as usize & mask;
        loop {
            match self.slots[at] {
                0 => return None,
                s => {
                    let id = (s & 0xFFFF_FFFF) as u32 - 1;
                    if s >> 32 == hash >> 32 && same(id) {
                        return Some(id);
                    }
                }
            }
            at = (at + 1) & mask;
        }
    }

    /// Adds node `id` with `hash`; `hash_of` gives any node's hash when the table grows.
    pub(super) fn insert(&mut self, hash: u64, id: u32, hash_of: impl Fn(u32) -> u64) {
        if (self.len + 1) * 2 > self.slots.len() {
            let mut bigger = vec![0u64; self.slots.len() * 2];
            let mask = bigger.len() - 1;
            for &s in self.slots.iter().filter(|&&s| s != 0) {
                let mut at = hash_of((s & 0xFFFF_FFFF) as u32 - 1) as usize & mask;
                while bigger[at] != 0 {
                    at = (at + 1) & mask;
                }
                bigger[at] = s;
            }
            self.slots = bigger;
        }
        let mask = self.slots.len() - 1;
        let mut at = hash as usize & mask;
        while self.slots[at] != 0 {
            at = (at + 1) & mask;
        }
        self.slots[at] = HashSlots::slot(hash, id);
        self.len += 1;
    }
}
