#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(alloc) = gpukit_intel::asm_alloc::read(text) {
            for d in &alloc.variables {
                let _ = d.grf_bytes(alloc.grf_bytes);
            }
        }
    }
});
