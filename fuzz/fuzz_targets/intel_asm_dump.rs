#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(dump) = gpukit_intel::asm_dump::read(text) {
            assert!(dump.sends.len() <= gpukit_intel::asm_dump::MAX_SEND_KINDS + 1);
        }
    }
});
