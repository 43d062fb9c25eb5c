//! The open list of the A* family: a bucket queue by key and depth, or a binary heap.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The open list: entries `(g, node)` by a key, smallest first, deepest (largest `g`) among equals.
pub(super) enum Open {
    /// `buckets[key - base].stacks[g]`: stacks of nodes; for keys that never go below the first
    /// one. Emptied stacks keep their memory for the next pushes.
    Buckets { buckets: Vec<Bucket>, base: u64, lowest: usize, len: u64, bytes: usize },
    /// A binary heap, for any keys.
    Heap(BinaryHeap<Reverse<(u64, Reverse<u32>, u32)>>),
}

/// The entries of one key, a stack for each `g`.
#[derive(Default)]
pub(super) struct Bucket {
    stacks: Vec<Vec<u32>>,
    /// No stack at or above this `g` holds an entry.
    top: usize,
}

impl Open {
    pub(super) fn buckets() -> Open {
        Open::Buckets { buckets: Vec::new(), base: u64::MAX, lowest: 0, len: 0, bytes: 0 }
    }

    pub(super) fn heap() -> Open {
        Open::Heap(BinaryHeap::new())
    }

    pub(super) fn len(&self) -> u64 {
        match self {
            Open::Buckets { len, .. } => *len,
            Open::Heap(h) => h.len() as u64,
        }
    }

    pub(super) fn bytes(&self) -> usize {
        match self {
            Open::Buckets { bytes, buckets, .. } => *bytes + buckets.capacity() * 24,
            Open::Heap(h) => h.capacity() * 16,
        }
    }

    #[inline]
    pub(super) fn push(&mut self, key: u64, g: u32, id: u32) {
        match self {
            Open::Heap(h) => h.push(Reverse((key, Reverse(g), id))),
            Open::Buckets { buckets, base, lowest, len, bytes } => {
                if *base == u64::MAX {
                    *base = key;
                }
                // a consistent guide never makes a key below the start's
                let k = key.saturating_sub(*base) as usize;
                if k >= buckets.len() {
                    buckets.resize_with(k + 1, Bucket::default);
                }
                let bucket = &mut buckets[k];
                let g = g as usize;
                if g >= bucket.stacks.len() {
                    *bytes += (g + 1 - bucket.stacks.len()) * 24;
                    bucket.stacks.resize_with(g + 1, Vec::new);
                }
                let stack = &mut bucket.stacks[g];
                if stack.len() == stack.capacity() {
                    *bytes += stack.capacity().max(4) * 4;
                }
                stack.push(id);
                bucket.top = bucket.top.max(g + 1);
                *lowest = (*lowest).min(k);
                *len += 1;
            }
        }
    }

    #[inline]
    pub(super) fn pop(&mut self) -> Option<(u32, u32)> {
        match self {
            Open::Heap(h) => h.pop().map(|Reverse((_, Reverse(g), id))| (g, id)),
            Open::Buckets { buckets, lowest, len, .. } => {
                while *lowest < buckets.len() {
                    let bucket = &mut buckets[*lowest];
                    while bucket.top > 0 {
                        if let Some(id) = bucket.stacks[bucket.top - 1].pop() {
                            *len -= 1;
                            return Some((bucket.top as u32 - 1, id));
                        }
                        bucket.top -= 1;
                    }
                    *lowest += 1;
                }
                None
            }
        }
    }
}

impl Open {
    /// The entry that [`Open::pop`] would take next, `(key, g, node)`, without taking it (the
    /// heap only: a bucket queue's key is not kept).
    pub(super) fn peek(&self) -> Option<(u64, u32, u32)> {
        match self {
            Open::Heap(h) => h.peek().map(|&Reverse((key, Reverse(g), id))| (key, g, id)),
            Open::Buckets { .. } => None,
        }
    }
}

impl Open {
    /// Orders the heap again by new keys: `key(g, node)`, or `None` to drop an entry that is no
    /// longer current. A bucket queue is left as it is (its keys never change).
    pub(super) fn rekey(&mut self, key: impl Fn(u32, u32) -> Option<u64>) {
        if let Open::Heap(h) = self {
            let entries = std::mem::take(h).into_vec();
            *h = entries
                .into_iter()
                .filter_map(|Reverse((_, Reverse(g), id))| key(g, id).map(|k| Reverse((k, Reverse(g), id))))
                .collect::<Vec<_>>()
                .into();
        }
    }
}

/// The open nodes again, by `f = g + h`: the proof of a search that is not ordered by `f`
/// (weighted, greedy, bounded-suboptimal). Every open node is on it; the smallest `f` among
/// them is a lower bound on the optimum when the guide is admissible and a board reached more
/// cheaply is reopened (the first node of an optimal path not yet expanded at its optimal cost
/// is open, with `f <= C*`). Entries are not removed when a node is expanded or reached again:
/// the caller says which are still current ([`FOpen::min`]).
pub(super) struct FOpen {
    /// `stacks[f - base]`: the nodes pushed with that `f`.
    stacks: Vec<Vec<u32>>,
    base: u32,
    lowest: usize,
    bytes: usize,
}

impl FOpen {
    /// An empty list, its keys counted from `base` (the start's `f`: with a consistent guide no
    /// node has a smaller one; a smaller key moves the base down).
    pub(super) fn new(base: u32) -> FOpen {
        FOpen { stacks: Vec::new(), base, lowest: 0, bytes: 0 }
    }

    pub(super) fn bytes(&self) -> usize {
        self.bytes + self.stacks.capacity() * 24
    }

    #[inline]
    pub(super) fn push(&mut self, f: u32, id: u32) {
        if f < self.base {
            let by = (self.base - f) as usize;
            self.stacks.splice(0..0, (0..by).map(|_| Vec::new()));
            self.lowest += by;
            self.base = f;
        }
        let k = (f - self.base) as usize;
        if k >= self.stacks.len() {
            self.stacks.resize_with(k + 1, Vec::new);
        }
        let stack = &mut self.stacks[k];
        if stack.len() == stack.capacity() {
            self.bytes += stack.capacity().max(4) * 4;
        }
        stack.push(id);
        self.lowest = self.lowest.min(k);
    }

    /// The smallest `f` of a current entry and its node, dropping the stale entries met on the
    /// way; `current(node, f)` says whether the node is still open with that `f`.
    pub(super) fn min(&mut self, mut current: impl FnMut(u32, u32) -> bool) -> Option<(u32, u32)> {
        while self.lowest < self.stacks.len() {
            let f = self.base + self.lowest as u32;
            let stack = &mut self.stacks[self.lowest];
            while let Some(&id) = stack.last() {
                if current(id, f) {
                    return Some((f, id));
                }
                stack.pop();
            }
            self.lowest += 1;
        }
        None
    }
}
