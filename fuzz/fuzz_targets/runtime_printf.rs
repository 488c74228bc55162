//! `visa run`'s printf decoding: a printf buffer (and, for patch tokens, its string
//! table) from arbitrary bytes, both string modes: never a panic, the output bounded.
#![no_main]
use gpukit_runtime::printf::{decode, Strings, MAX_OUTPUT};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    // The first byte splits the input: a format string, then the buffer.
    let Some((&split, rest)) = data.split_first() else {
        return;
    };
    let (format, buffer) = rest.split_at((split as usize).min(rest.len()));
    let table = vec![(0, format.to_vec()), (1, b"s".to_vec())];
    let text = decode(buffer, &Strings::Indexed(&table));
    assert!(text.len() <= MAX_OUTPUT + 64);
    let at = |a: u64| (a < 2).then(|| format.to_vec());
    let text = decode(buffer, &Strings::Addressed(&at));
    assert!(text.len() <= MAX_OUTPUT + 64);
});
