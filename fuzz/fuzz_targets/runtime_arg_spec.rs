//! `visa run --arg ARG=SPEC`: argument specs from arbitrary text (indices and
//! names, files, `bytes:`, the `range:`/`random:`/`fill:` generators, scalars,
//! images), under a small budget: never a panic, never an allocation past the budget.
#![no_main]
use gpukit_runtime::{parse_arg, ArgSpec, Budget, Error};

const LIMIT: u64 = 1 << 16;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut budget = Budget::for_inputs(0);
    let mut budget_small = Budget::new(LIMIT);
    // Files are a fixed 100 bytes: the parser's handling of them is what is fuzzed.
    let mut read = |_: &std::path::Path| -> Result<Vec<u8>, Error> { Ok(vec![1; 100]) };
    let _ = parse_arg(text, &mut budget, &mut read);
    if let Ok((_, ArgSpec::Buffer(b) | ArgSpec::Image(_, b))) =
        parse_arg(text, &mut budget_small, &mut read)
    {
        assert!(b.len() as u64 <= LIMIT && budget_small.used() <= LIMIT);
    }
});
