//! CL2 `.clo` containers and the CL2 ABI calculators: reading must not panic
//! on any input, and whatever reads must lay out its arguments without
//! panicking. The same bytes are also tried as a bare kernel metadata block
//! (32- and 64-bit) and as a `--signature` string.
#![no_main]

use gpukit_amd::abi::cl2::{
    args_from_metadata, decode_sampler_init, kernarg_layout, parse_signature, user_sgpr_layout,
    LayoutOptions,
};
use gpukit_amd::cl2::{parse_metadata, Cl2Binary};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(bin) = Cl2Binary::parse(data) {
        let _ = bin.device();
        if let Some(inner) = &bin.inner {
            let _ = inner.isa_version();
            let _ = decode_sampler_init(inner.sampler_init);
        }
        let options = LayoutOptions {
            bits64: bin.bits64(),
            new_layout: bin.driver.new_layout(),
        };
        for k in &bin.kernels {
            if let Ok(args) = args_from_metadata(&k.metadata) {
                let _ = kernarg_layout(args.get(6..).unwrap_or(&[]), options);
            }
            if let Some(code) = &k.code {
                let _ = user_sgpr_layout(code.setup.kernel_code_properties);
            }
        }
    }
    for bits64 in [false, true] {
        if let Ok(md) = parse_metadata(data, bits64) {
            let _ = args_from_metadata(&md);
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(args) = parse_signature(text, true) {
            let _ = kernarg_layout(
                &args,
                LayoutOptions {
                    bits64: true,
                    new_layout: true,
                },
            );
        }
    }
});
