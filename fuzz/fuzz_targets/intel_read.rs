#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../../crates/intel/tests/derived/mod.rs"]
mod derived;

fuzz_target!(|data: &[u8]| derived::derived_values(data));
