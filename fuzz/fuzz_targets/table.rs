//! Fuzz target: the table loaders (perfect and pattern) and every lookup on what they accept. The checks are in `tests/fuzz_targets`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_targets/mod.rs"]
mod targets;

fuzz_target!(|data: &[u8]| targets::table(data));
