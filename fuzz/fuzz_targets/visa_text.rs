//! The vISA text parser on arbitrary input: never a panic; whatever parses prints to
//! text that parses back to the same printed text.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(obj) = gpukit_visa::text::parse_text(src) {
        let printed = gpukit_visa::text::print_text(&obj);
        let again = gpukit_visa::text::parse_text(&printed).expect("printed text must parse");
        assert_eq!(gpukit_visa::text::print_text(&again), printed);
    }
});
