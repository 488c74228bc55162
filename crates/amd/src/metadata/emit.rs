//! Prints metadata blocks. The mirror of `parse.rs`: every form the parser
//! accepts as canonical prints back to the same bytes.

use super::model::*;
use crate::printf;

/// Appends the canonical text of one entry (without `;`-prefix handling
/// beyond the entry itself, and without a line terminator).
pub fn entry_text(entry: &Entry, out: &mut Vec<u8>) {
    use std::io::Write;
    let mut w = |s: std::fmt::Arguments| {
        let _ = out.write_fmt(s);
    };
    match entry {
        Entry::Version {
            major,
            minor,
            revision,
        } => w(format_args!(";version:{major}:{minor}:{revision}")),
        Entry::Device(d) => w(format_args!(";device:{d}")),
        Entry::UniqueId(v) => w(format_args!(";uniqueid:{v}")),
        Entry::Memory(m) => match m.size {
            Some(size) => w(format_args!(";memory:{}:{size}", m.kind.name())),
            None => w(format_args!(";memory:{}", m.kind.name())),
        },
        Entry::Value(v) => w(format_args!(
            ";value:{}:{}:{}:{}:{}",
            v.name,
            v.data_type.as_str(),
            v.count,
            v.cb,
            v.offset
        )),
        Entry::Pointer(p) => {
            w(format_args!(
                ";pointer:{}:{}:{}:{}:{}:{}:{}:{}",
                p.name,
                p.data_type.as_str(),
                p.count,
                p.cb,
                p.offset,
                p.mem_type.as_str(),
                p.buffer,
                p.align
            ));
            if let Some(q) = p.qualifiers {
                w(format_args!(
                    ":{}:{}:{}",
                    q.access.as_str(),
                    u8::from(q.volatile),
                    u8::from(q.restrict)
                ));
            }
        }
        Entry::Image(i) => w(format_args!(
            ";image:{}:{}:{}:{}:{}:{}",
            i.name,
            i.dim.as_str(),
            i.access.as_str(),
            i.id,
            i.cb,
            i.offset
        )),
        Entry::Sampler(s) => w(format_args!(
            ";sampler:{}:{}:{}:{}",
            s.name, s.id, s.location, s.value
        )),
        Entry::Counter(c) => w(format_args!(
            ";counter:{}:{}:{}:{}:{}",
            c.name, c.bits, c.id, c.cb, c.offset
        )),
        Entry::PrintfFmt(p) => {
            w(format_args!(";printf_fmt:{}:{}", p.id, p.arg_sizes.len()));
            for s in &p.arg_sizes {
                w(format_args!(":{s}"));
            }
            w(format_args!(":{}:", p.format.len()));
            out.extend_from_slice(&printf::encode(&p.format));
            if p.terminated {
                out.push(b';');
            }
        }
        Entry::Function(ids) | Entry::Intrinsic(ids) => {
            w(format_args!(";{}:{}", entry.key(), ids.len()));
            for id in ids {
                w(format_args!(":{id}"));
            }
        }
        Entry::Cws([x, y, z]) => w(format_args!(";cws:{x}:{y}:{z}")),
        Entry::Lws(v) => w(format_args!(";lws:{v}")),
        Entry::LimitGroupSize => w(format_args!(";limitgroupsize")),
        Entry::UavId(v) => w(format_args!(";uavid:{v}")),
        Entry::PrintfId(v) => w(format_args!(";printfid:{v}")),
        Entry::CbId(v) => w(format_args!(";cbid:{v}")),
        Entry::PrivateId(v) => w(format_args!(";privateid:{v}")),
        Entry::Error(m) => w(format_args!(";error:{m}")),
        Entry::Warning(m) => w(format_args!(";warning:{m}")),
        Entry::Reflection { index, type_name } => {
            w(format_args!(";reflection:{index}:{type_name}"))
        }
        Entry::ConstArg { index, name } => w(format_args!(";constarg:{index}:{name}")),
        Entry::Unknown { key, rest } => match rest {
            Some(r) => w(format_args!(";{key}:{r}")),
            None => w(format_args!(";{key}")),
        },
    }
}

/// The canonical text of one entry.
pub fn entry_to_string(entry: &Entry) -> Vec<u8> {
    let mut v = Vec::new();
    entry_text(entry, &mut v);
    v
}

impl Metadata {
    /// Prints the block; for a parsed block this is the input, byte for byte.
    pub fn emit(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + self.lines.len() * 32);
        self.emit_into(&mut out);
        out
    }

    pub fn emit_into(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b";ARGSTART:");
        out.extend_from_slice(self.name.as_bytes());
        out.extend_from_slice(self.start_eol.as_str().as_bytes());
        for line in &self.lines {
            match &line.raw {
                Some(raw) => out.extend_from_slice(raw.as_bytes()),
                None => entry_text(&line.entry, out),
            }
            out.extend_from_slice(line.eol.as_str().as_bytes());
        }
        out.extend_from_slice(b";ARGEND:");
        out.extend_from_slice(self.end_name.as_bytes());
        out.extend_from_slice(self.end_eol.as_str().as_bytes());
    }
}
