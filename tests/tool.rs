//! The integration tests of the `table` binary (and of its server), one test binary of modules
//! beside the library's (`tests/main.rs`): two halves of about equal size, which compile side by
//! side on 2 cores (this one holds whatever runs the binary). Each module is the file of its name beside this one; `cargo test --test tool
//! <module>::` runs one of them. Slow tests are ignored as in `tests/main.rs`.

mod common;
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
