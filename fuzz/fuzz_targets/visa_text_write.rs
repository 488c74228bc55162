//! The vISA assembler's write path: text that parses and writes to a binary must
//! read back, and write again to the same bytes.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(obj) = gpukit_visa::text::parse_text(src) else {
        return;
    };
    let Ok(bytes) = gpukit_visa::write(&obj) else {
        return;
    };
    let back = gpukit_visa::read_lenient(&bytes).expect("assembled bytes must read");
    assert_eq!(
        gpukit_visa::write(&back).expect("what reads must write"),
        bytes,
        "assembled bytes must write back unchanged"
    );
});
