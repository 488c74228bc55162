//! The write side: the listing model -> iga64's exact bytes, one module per
//! version. Each mirrors iga64's own formatter for that version (key order,
//! spacing, which keys print `null` and which are left out), so a listing
//! iga64 wrote is reproduced byte for byte.

mod v1;
mod v2;

use crate::model::{Element, Extra, Instruction, Label, Listing, LiveTotals, Reg, Version};

/// Writes `listing` in the given format version. The model is written as it
/// is; to change a listing's version with the information the other version
/// needs, use [`mod@crate::convert`].
pub fn write(listing: &Listing, version: Version) -> Vec<u8> {
    let mut w = Out {
        buf: Vec::with_capacity(listing.elems.len() * 400),
        sink: None,
        failed: None,
    };
    match version {
        Version::V1 => v1::listing(&mut w, listing),
        Version::V2 => v2::listing(&mut w, listing),
    }
    w.buf
}

/// Writes `listing` as [`write()`] does, into `sink` as it goes: the output (several
/// times the size of a version 1.0 listing's input) is never held whole.
pub fn write_to(
    listing: &Listing,
    version: Version,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut w = Out {
        buf: Vec::with_capacity(SPILL_AT * 2),
        sink: Some(sink),
        failed: None,
    };
    match version {
        Version::V1 => v1::listing(&mut w, listing),
        Version::V2 => v2::listing(&mut w, listing),
    }
    w.spill();
    match w.failed {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Bytes gathered before a streaming write hands them on.
const SPILL_AT: usize = 1 << 16;

/// Whether an operand is a destination or a source: the versions print
/// different keys for each.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Dst,
    Src,
}

pub(crate) struct Out<'a> {
    pub buf: Vec<u8>,
    /// Where a streaming write sends the buffer, and its first error.
    sink: Option<&'a mut dyn std::io::Write>,
    failed: Option<std::io::Error>,
}

impl Out<'_> {
    /// Hands the buffer to the sink of a streaming write (after the first error,
    /// the rest is dropped).
    fn spill(&mut self) {
        if let Some(sink) = self.sink.as_mut() {
            if self.failed.is_none() {
                if let Err(e) = sink.write_all(&self.buf) {
                    self.failed = Some(e);
                }
            }
            self.buf.clear();
        }
    }
    pub fn s(&mut self, s: &str) {
        self.buf.extend_from_slice(s.as_bytes());
    }
    pub fn int(&mut self, v: i64) {
        self.s(&v.to_string());
    }
    pub fn bool(&mut self, b: bool) {
        self.s(if b { "true" } else { "false" });
    }
    /// A quoted string, escaped the way iga64 escapes comments (it passes other
    /// strings through as they are; for those the two agree).
    pub fn quoted(&mut self, s: &str) {
        self.buf.push(b'"');
        for c in s.chars() {
            match c {
                '\n' => self.s("\\n"),
                '\t' => self.s("\\t"),
                '\u{b}' => self.s("\\v"),
                '\u{c}' => self.s("\\f"),
                '\u{7}' => self.s("\\a"),
                '"' => self.s("\\\""),
                '\\' => self.s("\\\\"),
                // iga64 would print these raw, which is not JSON; real listings never hold them.
                c if (c as u32) < 0x20 => self.s(&format!("\\u{:04x}", c as u32)),
                c => {
                    let mut b = [0; 4];
                    self.s(c.encode_utf8(&mut b));
                }
            }
        }
        self.buf.push(b'"');
    }
    pub fn opt_quoted(&mut self, s: Option<&str>) {
        match s {
            Some(s) => self.quoted(s),
            None => self.s("null"),
        }
    }
    pub fn quoted_list(&mut self, items: &[String]) {
        self.buf.push(b'[');
        for (k, item) in items.iter().enumerate() {
            if k > 0 {
                self.buf.push(b',');
            }
            self.quoted(item);
        }
        self.buf.push(b']');
    }
    /// `-Xprint-bits` and `-Xprint-defs` keys, alike in both versions.
    pub fn encoding_and_live_totals(&mut self, i: &Instruction) {
        if let Some(e) = &i.encoding {
            self.s(", \"encoding\":");
            self.quoted(e);
        }
        if let Some(lt) = &i.live_totals {
            self.s(", \"liveTotals\":");
            self.live_totals(lt);
        }
    }
    pub fn ids(&mut self, ids: &[i64]) {
        self.buf.push(b'[');
        for (i, id) in ids.iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            self.int(*id);
        }
        self.buf.push(b']');
    }
    pub fn indent(&mut self, n: usize) {
        self.buf.resize(self.buf.len() + n, b' ');
    }
    /// Keys a lenient read kept, after the known ones.
    pub fn extra(&mut self, extra: &Extra) {
        for (k, v) in extra {
            self.s(", ");
            self.quoted(k);
            self.s(":");
            self.s(v);
        }
    }
    /// The elements, one per line, and the end of the document (both versions
    /// lay these out alike).
    pub fn elements(
        &mut self,
        l: &Listing,
        label: fn(&mut Out, &Label),
        inst: fn(&mut Out, &Instruction),
    ) {
        for (i, e) in l.elems.iter().enumerate() {
            self.indent(4);
            match e {
                Element::Label(lb) => label(self, lb),
                Element::Inst(x) => inst(self, x),
            }
            if i + 1 < l.elems.len() {
                self.s(",");
            }
            self.s("\n");
            if self.buf.len() >= SPILL_AT {
                self.spill();
            }
        }
        self.s("  ]");
        for (k, v) in &l.extra {
            self.s(",\n  ");
            self.quoted(k);
            self.s(":");
            self.s(v);
        }
        self.s("\n}\n\n");
    }
    pub fn live_totals(&mut self, lt: &LiveTotals) {
        self.s("{\"r\":");
        self.int(lt.r);
        self.s(",\"acc\":");
        self.int(lt.acc);
        if let Some(s) = lt.s {
            self.s(",\"s\":");
            self.int(s);
        }
        self.s(",\"f\":");
        self.int(lt.f);
        self.s(",\"a\":");
        self.int(lt.a);
        for (k, v) in &lt.extra {
            self.s(",");
            self.quoted(k);
            self.s(":");
            self.s(v);
        }
        self.s("}");
    }

    /// 1.0 prints every register with all three fields.
    pub fn reg_full(&mut self, r: &Reg) {
        self.s("{\"rn\":");
        self.quoted(&r.name);
        self.s(",\"r\":");
        self.int(r.num);
        self.s(",\"sr\":");
        self.int(r.sub);
        self.s("}");
    }
    /// 2.0 leaves out a zero register or subregister number.
    pub fn reg_short(&mut self, r: &Reg) {
        self.s("{\"rn\":");
        self.quoted(&r.name);
        if r.num != 0 {
            self.s(",\"r\":");
            self.int(r.num);
        }
        if r.sub != 0 {
            self.s(",\"sr\":");
            self.int(r.sub);
        }
        self.s("}");
    }
}
