//! Distance estimates for heuristic search.
//!
//! - [`classic`]: the estimates of the textbooks, computed from the board alone on any shape:
//!   misplaced tiles, Manhattan distance, linear conflicts, Nilsson's sequence score.

pub mod classic;

pub use classic::{Estimator, Heuristic, Tile};
