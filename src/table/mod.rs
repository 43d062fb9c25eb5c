//! Perfect tables: filling them, their file layout, and answering questions from them.
//!
//! - [`bfs`]: the parallel breadth-first search from the goal that fills a table.
//! - [`format`](mod@format): the on-disk layout (header, checksums) and atomic writes.
//! - [`lookup`]: an opened [`Table`] over any bytes: distances, optimal solutions, verification.
//! - [`batch`]: answering many boards read line by line, as fast as the table allows.

pub mod batch;
pub mod bfs;
pub mod format;
pub mod lookup;

pub use lookup::{build, build_file, open, Solution, Table, CHECK_ON_OPEN_LIMIT};
