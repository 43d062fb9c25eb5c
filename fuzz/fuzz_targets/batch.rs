//! Fuzz target: the batch reader (`query --batch`) against the plain line-by-line loop. The checks are in `tests/fuzz_targets`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_targets/mod.rs"]
mod targets;

fuzz_target!(|data: &[u8]| targets::batch(data));
