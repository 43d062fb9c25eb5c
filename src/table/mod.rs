//! Perfect tables: filling them, their file layout, and answering questions from them.
//!
//! - [`bfs`]: the parallel breadth-first search from the goal that fills a table.
//! - [`format`](mod@format): the on-disk layout (header, checksums) and atomic writes.
//! - [`lookup`]: an opened [`Table`] over any bytes: distances, optimal solutions, verification.
//! - [`pattern`]: pattern tables, the exact distances of an abstraction (a group of tiles), built
//!   by a breadth-first search over placements and blank regions.
//! - [`batch`]: answering many boards read line by line, as fast as the table allows.

pub mod batch;
pub mod bfs;
pub mod format;
pub mod lookup;
pub mod pattern;

pub use lookup::{build, build_file, build_file_until, build_until, open, read, Solution, Table, CHECK_ON_OPEN_LIMIT};
pub use pattern::{build_pattern, build_pattern_file, open_pattern, PatternTable};
