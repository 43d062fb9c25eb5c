//! Distance estimates for heuristic search.
//!
//! - [`classic`]: the estimates of the textbooks, computed from the board alone on any shape:
//!   misplaced tiles, Manhattan distance, linear conflicts, Nilsson's sequence score.
//! - [`pdb`]: additive pattern databases: partitions of the tiles into groups, and the sum of
//!   the groups' pattern tables (with the reflected lookup on square boards).

pub mod classic;
pub mod pdb;

pub use classic::{Estimator, Heuristic, Tile};
pub use pdb::{Partition, PatternSet};
