//! The vISA binary reader on arbitrary bytes: Ok or Err, never a panic.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = gpukit_visa::read(data);
    let _ = gpukit_visa::read_lenient(data);
});
