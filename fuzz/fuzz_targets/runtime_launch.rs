//! `visa run`'s launch parsing and binding: a launch shape (first line: `GLOBAL LOCAL
//! [MAX_INSTRUCTIONS]`) and argument specs (one per line) from arbitrary text, bound
//! to a checked-in kernel and its program binary and run under a small budget: never
//! a panic, never an allocation past the budget, whatever the shape or the specs.
#![no_main]
use gpukit_runtime::{launch, parse_arg, Budget, Error, Kernel, Request};
use std::sync::OnceLock;

const LIMIT: u64 = 1 << 20;

fn kernel() -> &'static gpukit_visa::Object {
    static OBJECT: OnceLock<gpukit_visa::Object> = OnceLock::new();
    OBJECT.get_or_init(|| {
        gpukit_visa::text::parse_text(include_str!(
            "../../tests/data/visa/run/copy_gid.sid.visaasm"
        ))
        .expect("the checked-in kernel parses")
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = text.lines();
    let Some(shape) = lines.next() else { return };
    let numbers: Vec<u64> = shape
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    let (global, local) = match numbers.as_slice() {
        [g, l, ..] => (*g as u32, *l as u32),
        _ => return,
    };
    let mut budget = Budget::new(LIMIT);
    let mut read = |_: &std::path::Path| -> Result<Vec<u8>, Error> { Ok(vec![7; 64]) };
    let mut args = Vec::new();
    for spec in lines.take(8) {
        match parse_arg(spec, &mut budget, &mut read) {
            Ok(a) => args.push(a),
            Err(_) => return,
        }
    }
    let Ok(program) = gpukit_intel::read(include_bytes!("../../tests/data/intel/trivial.sid.bin"))
    else {
        return;
    };
    let object = kernel();
    let request = Request {
        global: [global, 1, 1],
        local: [local, 1, 1],
        work_dim: 1,
        args,
        // Bounded work per input: the fuzzer looks for panics, not long runs.
        max_instructions: Some(numbers.get(2).copied().unwrap_or(10_000).min(100_000)),
        options: Default::default(),
    };
    let kernel = Kernel {
        name: "copy_gid",
        body: &object.kernels[0].body,
        functions: Vec::new(),
    };
    let _ = launch(&kernel, program, request, &mut budget, None);
    assert!(budget.used() <= LIMIT);
});
