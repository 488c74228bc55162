//! Prints metadata blocks. The mirror of `parse.rs`: every form the parser
//! accepts as canonical prints back to the same bytes.

use super::model::*;
use crate::printf;

/// Field-by-field writer; avoids `fmt` machinery on the hot path.
struct W<'a>(&'a mut Vec<u8>);

impl W<'_> {
    fn key(&mut self, key: &str) -> &mut Self {
        self.0.push(b';');
        self.0.extend_from_slice(key.as_bytes());
        self
    }
    fn s(&mut self, v: &str) -> &mut Self {
        self.0.push(b':');
        self.0.extend_from_slice(v.as_bytes());
        self
    }
    fn n(&mut self, v: impl Into<u64>) -> &mut Self {
        self.0.push(b':');
        let mut v: u64 = v.into();
        let mut buf = [0u8; 20];
        let mut i = buf.len();
        loop {
            i -= 1;
            buf[i] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        self.0.extend_from_slice(&buf[i..]);
        self
    }
}

/// Appends the canonical text of one entry (without a line terminator).
pub fn entry_text(entry: &Entry, out: &mut Vec<u8>) {
    let mut w = W(out);
    match entry {
        Entry::Version {
            major,
            minor,
            revision,
        } => {
            w.key("version").n(*major).n(*minor).n(*revision);
        }
        Entry::Device(d) => {
            w.key("device").s(d);
        }
        Entry::UniqueId(v) => {
            w.key("uniqueid").n(*v);
        }
        Entry::Memory(m) => {
            w.key("memory").s(m.kind.name());
            if let Some(size) = m.size {
                w.n(size);
            }
        }
        Entry::Value(v) => {
            w.key("value")
                .s(&v.name)
                .s(v.data_type.as_str())
                .n(v.count)
                .n(v.cb)
                .n(v.offset);
        }
        Entry::Pointer(p) => {
            w.key("pointer")
                .s(&p.name)
                .s(p.data_type.as_str())
                .n(p.count)
                .n(p.cb)
                .n(p.offset)
                .s(p.mem_type.as_str())
                .n(p.buffer)
                .n(p.align);
            if let Some(q) = p.qualifiers {
                w.s(q.access.as_str())
                    .n(u8::from(q.volatile))
                    .n(u8::from(q.restrict));
            }
        }
        Entry::Image(i) => {
            w.key("image")
                .s(&i.name)
                .s(i.dim.as_str())
                .s(i.access.as_str())
                .n(i.id)
                .n(i.cb)
                .n(i.offset);
        }
        Entry::Sampler(s) => {
            w.key("sampler").s(&s.name).n(s.id).n(s.location).n(s.value);
        }
        Entry::Counter(c) => {
            w.key("counter")
                .s(&c.name)
                .n(c.bits)
                .n(c.id)
                .n(c.cb)
                .n(c.offset);
        }
        Entry::PrintfFmt(p) => {
            w.key("printf_fmt").n(p.id).n(p.arg_sizes.len() as u64);
            for s in &p.arg_sizes {
                w.n(*s);
            }
            w.n(p.format.len() as u64);
            w.0.push(b':');
            w.0.extend_from_slice(&printf::encode(&p.format));
            if p.terminated {
                w.0.push(b';');
            }
        }
        Entry::Function(ids) | Entry::Intrinsic(ids) => {
            w.key(entry.key()).n(ids.len() as u64);
            for id in ids.iter() {
                w.n(*id);
            }
        }
        Entry::Cws([x, y, z]) => {
            w.key("cws").n(*x).n(*y).n(*z);
        }
        Entry::Lws(v) => {
            w.key("lws").n(*v);
        }
        Entry::LimitGroupSize => {
            w.key("limitgroupsize");
        }
        Entry::UavId(v) => {
            w.key("uavid").n(*v);
        }
        Entry::PrintfId(v) => {
            w.key("printfid").n(*v);
        }
        Entry::CbId(v) => {
            w.key("cbid").n(*v);
        }
        Entry::PrivateId(v) => {
            w.key("privateid").n(*v);
        }
        Entry::Error(m) => {
            w.key("error").s(m);
        }
        Entry::Warning(m) => {
            w.key("warning").s(m);
        }
        Entry::Reflection { index, type_name } => {
            w.key("reflection").n(*index).s(type_name);
        }
        Entry::ConstArg { index, name } => {
            w.key("constarg").n(*index).s(name);
        }
        Entry::Unknown { key, rest } => {
            w.key(key);
            if let Some(r) = rest {
                w.s(r);
            }
        }
    }
}

/// The canonical text of one entry.
pub fn entry_to_string(entry: &Entry) -> Vec<u8> {
    let mut v = Vec::new();
    entry_text(entry, &mut v);
    v
}

impl Metadata<'_> {
    /// Prints the block; for a parsed block this is the input, byte for byte.
    pub fn emit(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.emit_into(&mut out);
        out
    }

    /// The block keeps every line's text (the parsed input's, or the
    /// canonical text of a pushed entry), so printing it copies that text.
    pub fn emit_into(&self, out: &mut Vec<u8>) {
        out.reserve(self.body.text.len() + self.name.len() + self.end_name.len() + 24);
        out.extend_from_slice(b";ARGSTART:");
        out.extend_from_slice(self.name.as_bytes());
        out.extend_from_slice(self.start_eol.as_str().as_bytes());
        out.extend_from_slice(self.body.text.as_bytes());
        out.extend_from_slice(b";ARGEND:");
        out.extend_from_slice(self.end_name.as_bytes());
        out.extend_from_slice(self.end_eol.as_str().as_bytes());
    }

    /// Prints the block from its typed lines: each entry in its canonical
    /// text, or its raw text where it has one. Equal to [`Metadata::emit`]
    /// whenever the model is right, which the tests and fuzzers check.
    pub fn emit_from_entries(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(b";ARGSTART:");
        out.extend_from_slice(self.name.as_bytes());
        out.extend_from_slice(self.start_eol.as_str().as_bytes());
        for line in self.lines() {
            match line.raw {
                Some(raw) => out.extend_from_slice(raw.as_bytes()),
                None => entry_text(&line.entry, &mut out),
            }
            out.extend_from_slice(line.eol.as_str().as_bytes());
        }
        out.extend_from_slice(b";ARGEND:");
        out.extend_from_slice(self.end_name.as_bytes());
        out.extend_from_slice(self.end_eol.as_str().as_bytes());
        out
    }
}
