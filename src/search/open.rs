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
