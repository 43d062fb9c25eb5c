//! Fuzz target: the board, shape, goal and partition parsers. The checks are in `tests/fuzz_targets`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_targets/mod.rs"]
mod targets;

fuzz_target!(|data: &[u8]| targets::board(data));
