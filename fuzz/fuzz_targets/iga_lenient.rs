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
    // Counted in one pass over the repairs in offset order: a count from byte 0
    // per repair would make the harness quadratic (libFuzzer timeouts on inputs
    // with thousands of repairs that the reader itself handles in microseconds).
    let mut repairs: Vec<_> = p.repairs.iter().collect();
    repairs.sort_by_key(|r| r.offset);
    let mut at = LineCol::default();
    for r in repairs {
        assert_eq!(
            (r.line, r.column),
            at.advance(src, r.offset),
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

/// A running 1-based line and column (in characters), advanced from the last offset.
#[derive(Default)]
struct LineCol {
    offset: usize,
    line: usize,
    /// Characters between the start of the current line and `offset`.
    column: usize,
}

impl LineCol {
    fn advance(&mut self, src: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(src.len());
        let span = &src[self.offset..offset];
        match span.rfind('\n') {
            Some(p) => {
                self.line += span.matches('\n').count();
                self.column = span[p + 1..].chars().count();
            }
            None => self.column += span.chars().count(),
        }
        self.offset = offset;
        (self.line + 1, self.column + 1)
    }
}
