//! The IGA JSON reader on arbitrary bytes, and everything downstream of a
//! successful read: Ok or Err, never a panic; what we write we read back.
#![no_main]
use gpukit_iga::{analysis, cfg::Cfg, convert, parse, write, Mode, Version};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    for mode in [Mode::Strict, Mode::Lenient] {
        let Ok(p) = parse(data, mode) else { continue };
        for v in [Version::V1, Version::V2] {
            let out = write(&convert(&p.listing, v), v);
            if mode == Mode::Strict {
                let again = parse(&out, Mode::Strict).expect("our own output parses");
                assert_eq!(write(&again.listing, v), out);
            }
        }
        let _ = analysis::check(&p.listing);
        let _ = analysis::stats(&p.listing);
        let _ = Cfg::build(&p.listing).to_dot(&p.listing);
        let _ = gpukit_iga::render::render(&p.listing);
        let _ = gpukit_iga::svg::pressure(&p.listing);
    }
});
