//! Fuzz target: the table header parser. The checks are in `tests/fuzz_targets`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_targets/mod.rs"]
mod targets;

fuzz_target!(|data: &[u8]| targets::header(data));
