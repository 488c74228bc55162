//! AMD IL metadata text: parse must not panic, and whatever parses must
//! print back to the same bytes.
#![no_main]

use gpukit_amd::metadata::{parse_blocks, parse_metadata};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = parse_metadata(data) {
        assert_eq!(m.emit(), data, "emit must reproduce the parsed bytes");
        assert_eq!(
            m.emit_from_entries(),
            data,
            "the typed lines must print back to the parsed bytes"
        );
        let _ = m.arguments();
        let _ = m.memory_totals();
    }
    let _ = parse_blocks(data);
    let _ = gpukit_amd::datasegment::parse_data_segment(data, gpukit_amd::datasegment::Radix::Hex)
        .map(|s| s.materialize());
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = gpukit_amd::link::IlProgram::parse(text).map(|p| p.link("k", None));
        // The same bytes as OpenCL C: signatures, placement, generated lines.
        use gpukit_amd::abi::args::{argument_entries, ArgBuffer, EntryOptions};
        use gpukit_amd::clc::{kernel_signatures, PointerWidth};
        if let Ok(sigs) = kernel_signatures(text, &["__GPU__"], PointerWidth::Bits64) {
            let options = EntryOptions {
                buffer: ArgBuffer::GCN,
                constant: gpukit_amd::metadata::MemType::Constant,
            };
            for s in &sigs {
                let _ = argument_entries(&s.params, options);
            }
        }
    }
});
