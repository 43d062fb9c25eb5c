//! Indices: bijections between positions and dense ranges of integers, so that a table can hold
//! one entry per position.
//!
//! - [`rank`]: the full state index of a board of up to 12 cells (every tile and the blank),
//!   `0..n!/2`, built on the Lehmer code of the permutation.
//! - [`moves`]: the neighbours of a full state computed from its index alone, for the
//!   breadth-first search.
//! - [`pattern`]: the placements of a group of tiles on a board of up to 64 cells, for pattern
//!   tables.
//! - [`zero`]: (cell set, order, blank region) entries of a group, for zero-aware pattern tables.

pub mod moves;
pub mod pattern;
pub mod rank;
pub mod zero;

pub use pattern::PatternIndex;
pub use rank::{StateIndex, MAX_TABLE_CELLS};
