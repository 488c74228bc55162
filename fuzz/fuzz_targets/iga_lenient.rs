//! The IGA reader's lenient path: repairs never panic, each repair's line and
//! column agree with a direct count, and a repaired listing writes JSON that the
//! strict reader accepts.
#![no_main]
use gpukit_iga::{convert, parse, write, Mode, Version};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(p) = parse(data, Mode::Lenient) else {
        return;
    };
    let src = std::str::from_utf8(data).expect("a parsed listing is UTF-8");
    let mut last = 0;
    for r in &p.repairs {
        assert!(r.offset >= last, "repairs come in input order");
        last = r.offset;
        assert_eq!(
            (r.line, r.column),
            line_col(src, r.offset),
            "repair at byte {}",
            r.offset
        );
    }
    for v in [Version::V1, Version::V2] {
        let out = write(&convert(&p.listing, v), v);
        parse(&out, Mode::Strict).expect("a repaired listing writes strict JSON");
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
