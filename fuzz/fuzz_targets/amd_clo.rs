//! CL1 `.clo` containers: reading must not panic on any input.
#![no_main]

use gpukit_amd::cl1::Cl1Binary;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(bin) = Cl1Binary::parse(data) {
        let _ = bin.driver_version();
        for k in &bin.kernels {
            let _ = k.inner.proginfo_summary();
            if let Ok(m) = gpukit_amd::metadata::parse_metadata(k.metadata) {
                assert_eq!(m.emit(), k.metadata);
            }
        }
    }
});
