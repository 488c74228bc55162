//! Write after read: whatever reads must write; the written (canonical) bytes must read
//! back to the same object and write again to the same bytes.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(obj) = gpukit_visa::read_lenient(data) {
        let bytes = gpukit_visa::write(&obj).expect("an object that was read must write");
        let back = gpukit_visa::read_lenient(&bytes).expect("written bytes must read");
        assert_eq!(gpukit_visa::write(&back).expect("rewrite"), bytes);
        if let Ok(strict) = gpukit_visa::read(data) {
            assert_eq!(gpukit_visa::read(&bytes).expect("strict reread"), strict);
        }
    }
});
