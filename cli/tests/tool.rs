//! The integration tests of the `table` binary (and of its server), one test binary of modules,
//! compiled side by side with the library's (the package `slidetable-tests`, `../../tests/`). Each module is the file of
//! its name beside this one; `cargo test --test tool <module>::` (at the repository's root or
//! here) runs one of them. Slow tests are ignored as in the library's.

mod common;
// the fuzz targets are the library's (tests/fuzz_targets), shared with its tests and cargo-fuzz
#[path = "../../tests/fuzz_targets/mod.rs"]
mod fuzz_targets;

mod batch;
mod cli;
mod cli_reference;
mod help_examples;
mod lab_cli;
mod mutants;
mod out_of_core;
mod pattern_cli;
mod play;
#[cfg(feature = "serve")]
mod serve;
mod solve;
// the two-bit tables, through the library and the binary alike
mod two_bit;
