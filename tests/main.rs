//! The library's integration tests, one test binary of modules (one link of the library and its
//! dependencies instead of a dozen: the README's `cargo test` compiles in minutes), in a package
//! of their own (`slidetable-tests`, this folder: a profile of its own, see ../Cargo.toml); those
//! of the `table` binary are the other one, `cli/tests/tool.rs`. Each module is the file of its
//! name beside this one; `cargo test <module>::` (at the repository's root) runs one of them.
//!
//! The slowest tests (tens of seconds each: here the 15-cell neighbours, pattern tables, a pruned
//! search, greedy batch search; in `cli/tests/tool.rs` every mutant of a table, every help example,
//! the out-of-core boards to 3x4) are `#[ignore]`d with their reason; CI runs them all with
//! `cargo test -- --include-ignored --skip big::` (big::, the 12-cell tables, is for
//! scripts/big.sh).

mod fuzz_targets;

mod batch_search;
mod big;
mod board;
mod bounded;
mod format;
mod fuzz;
mod index;
mod known_answers;
mod lab;
mod pattern;
mod search;
mod solver;
