//! `amd args`: OpenCL C signatures from arbitrary source, then argument
//! placement and metadata entries: never a panic; placed arguments never overlap.
#![no_main]
use gpukit_amd::abi::args::{argument_entries, place_arguments, ArgBuffer, EntryOptions};
use gpukit_amd::clc::{kernel_signatures, PointerWidth};
use gpukit_amd::metadata::MemType;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for width in [PointerWidth::Bits32, PointerWidth::Bits64] {
        let Ok(sigs) = kernel_signatures(text, &["__GPU__"], width) else {
            continue;
        };
        for s in &sigs {
            for buffer in [ArgBuffer::GCN, ArgBuffer::SPEC_2009] {
                if let Ok(placed) =
                    place_arguments(s.args.iter().map(|(n, t)| (n.as_str(), t)), buffer)
                {
                    for pair in placed.windows(2) {
                        assert!(
                            u64::from(pair[0].offset) + u64::from(pair[0].size)
                                <= u64::from(pair[1].offset),
                            "arguments overlap: {pair:?}"
                        );
                    }
                }
                let options = EntryOptions {
                    buffer,
                    constant: MemType::Constant,
                };
                let _ = argument_entries(&s.params, options);
            }
        }
    }
});
