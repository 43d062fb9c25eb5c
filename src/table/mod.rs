//! Perfect tables: filling them, their file layout, and answering questions from them.
//!
//! - [`bfs`]: the parallel breadth-first search from the goal that fills a table.
//! - [`format`](mod@format): the on-disk layout (header, checksums) and atomic writes.
//! - [`lookup`]: an opened [`Table`] over any bytes: distances, optimal solutions, verification.
//! - [`pattern`]: pattern tables, the exact distances of an abstraction (a group of tiles), built
//!   by a breadth-first search over placements and blank regions.
//! - [`residue`]: two-bit tables (distances modulo 3): their search, and the proof that one is
//!   exact.
//! - [`batch`]: answering many boards read line by line, as fast as the table allows.

pub mod batch;
pub mod bfs;
#[cfg(unix)]
pub mod disk;
pub mod format;
pub mod lookup;
pub mod pattern;
pub mod residue;
pub mod step;

pub use lookup::{
    available_disk, build, build_file, build_file_planned, build_file_staged, build_file_until, build_file_with,
    build_until, build_with, check_build_memory, default_work_dir, open, read, BuildOptions, Executed, Solution,
    Staged, Table, Width, CHECK_ON_OPEN_LIMIT,
};
pub use pattern::{build_pattern, build_pattern_file, open_pattern, PatternTable};
