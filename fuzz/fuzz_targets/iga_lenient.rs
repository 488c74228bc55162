//! The IGA reader's lenient path: repairs never panic, each repair's line and
//! column agree with a direct count, and a repaired listing writes bytes that
//! read back (leniently: the writers keep iga64's defects) and write again unchanged.
#![no_main]
use gpukit_iga::{convert, parse, write, Mode, Version};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(p) = parse(data, Mode::Lenient) else {
        return;
    };
    let src = std::str::from_utf8(data).expect("a parsed listing is UTF-8");
    for r in &p.repairs {
        assert_eq!(
            (r.line, r.column),
            line_col(src, r.offset),
            "repair at byte {}",
            r.offset
        );
    }
    // The writers reproduce iga64's bytes, defects included, so what they write
    // reads back leniently, and writes again to the same bytes.
    for v in [Version::V1, Version::V2] {
        let out = write(&convert(&p.listing, v), v);
        let again = parse(&out, Mode::Lenient).expect("our output reads leniently");
        assert_eq!(write(&again.listing, v), out, "rewrite differs");
    }
});

/// 1-based line and column (in characters), counted from the start.
fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let before = &src[..offset.min(src.len())];
    let line_start = before.rfind('\n').map_or(0, |p| p + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}
