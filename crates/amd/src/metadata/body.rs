//! Column-wise storage of a block's lines, and the typed view of it.
//!
//! Per line: a tag byte (kind, terminator, whether the text is non-canonical)
//! and the text's length; every number of every line goes to one flat word
//! vector in line order, in a layout fixed per kind (below); names, messages
//! and raw text are spans of the block's text, which holds the lines back to
//! back with their terminators. Printf formats, rare and variable, are kept
//! aside. Reading walks the three columns together, so lines are visited in
//! order (there is no random access, and nothing needs it).
//!
//! Word layouts (`n` = a name's byte length; the name starts right after
//! `;KEY:`):
//!
//! | kind | words |
//! |---|---|
//! | version, cws | 3 numbers |
//! | uniqueid, uavid, printfid, cbid, privateid, lws | 1 number |
//! | device, error, warning, limitgroupsize | none (text after `;KEY:`) |
//! | memory | code (bit 8: has a size); `n` if the space is not a known one; size low, high if present |
//! | value | `n`, type, count, cb, offset |
//! | pointer | `n`, type + memory type << 8 + qualifiers << 16, count, cb, offset, buffer, align |
//! | image | `n`, dimension + access << 8, id, cb, offset |
//! | sampler | `n`, id, location, value |
//! | counter | `n`, bits, id, cb, offset |
//! | printf_fmt | index into the format list |
//! | function, intrinsic | count, ids |
//! | reflection, constarg | index, byte where the text starts in the line |
//! | unknown | key length, whether `:REST` follows |

use super::emit::entry_text;
use super::model::*;
use crate::limits;
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};
use std::borrow::Cow;
use std::fmt;

pub(crate) mod kind {
    pub const VERSION: u8 = 0;
    pub const DEVICE: u8 = 1;
    pub const UNIQUEID: u8 = 2;
    pub const MEMORY: u8 = 3;
    pub const VALUE: u8 = 4;
    pub const POINTER: u8 = 5;
    pub const IMAGE: u8 = 6;
    pub const SAMPLER: u8 = 7;
    pub const COUNTER: u8 = 8;
    pub const PRINTF: u8 = 9;
    pub const FUNCTION: u8 = 10;
    pub const INTRINSIC: u8 = 11;
    pub const CWS: u8 = 12;
    pub const LWS: u8 = 13;
    pub const LIMITGROUPSIZE: u8 = 14;
    pub const UAVID: u8 = 15;
    pub const PRINTFID: u8 = 16;
    pub const CBID: u8 = 17;
    pub const PRIVATEID: u8 = 18;
    pub const ERROR: u8 = 19;
    pub const WARNING: u8 = 20;
    pub const REFLECTION: u8 = 21;
    pub const CONSTARG: u8 = 22;
    pub const UNKNOWN: u8 = 23;
}

/// Tag bits: the kind in the low 5, the terminator in the next 2, raw text in the top one.
const KIND_MASK: u8 = 0x1f;
const EOL_SHIFT: u8 = 5;
pub(crate) const RAW: u8 = 0x80;

/// Where the name of a `;KEY:NAME...` line starts: after `;KEY:`.
const fn name_at(kind: u8) -> usize {
    match kind {
        kind::VALUE | kind::IMAGE | kind::ERROR => 7,
        kind::DEVICE | kind::MEMORY => 8,
        _ => 9, // pointer, sampler, counter, warning
    }
}

pub(crate) fn eol_bits(eol: Eol) -> u8 {
    (match eol {
        Eol::Lf => 0,
        Eol::CrLf => 1,
        Eol::None => 2,
    }) << EOL_SHIFT
}

fn eol_of(tag: u8) -> Eol {
    match (tag >> EOL_SHIFT) & 3 {
        0 => Eol::Lf,
        1 => Eol::CrLf,
        _ => Eol::None,
    }
}

/// Memory spaces and flags by code; `MEMORY_OTHER` names any other.
pub(crate) const MEMORY_OTHER: u32 = 9;
pub(crate) const MEMORY_HAS_SIZE: u32 = 1 << 8;

pub(crate) fn memory_code(kind: &MemoryKind) -> u32 {
    match kind {
        MemoryKind::UavPrivate => 0,
        MemoryKind::HwLocal => 1,
        MemoryKind::HwRegion => 2,
        MemoryKind::HwPrivate => 3,
        MemoryKind::Private => 4,
        MemoryKind::Local => 5,
        MemoryKind::Abi64Bit => 6,
        MemoryKind::DataRequired => 7,
        MemoryKind::CompilerWrite => 8,
        MemoryKind::Other(_) => MEMORY_OTHER,
    }
}

fn memory_kind(code: u32, other: &str) -> MemoryKind<'_> {
    match code {
        0 => MemoryKind::UavPrivate,
        1 => MemoryKind::HwLocal,
        2 => MemoryKind::HwRegion,
        3 => MemoryKind::HwPrivate,
        4 => MemoryKind::Private,
        5 => MemoryKind::Local,
        6 => MemoryKind::Abi64Bit,
        7 => MemoryKind::DataRequired,
        8 => MemoryKind::CompilerWrite,
        _ => MemoryKind::Other(Cow::Borrowed(other)),
    }
}

pub(crate) fn data_type_code(t: DataType) -> u32 {
    t as u32
}

pub(crate) fn mem_type_code(t: MemType) -> u32 {
    t as u32
}

pub(crate) fn image_code(dim: ImageDim, access: Access) -> u32 {
    dim as u32 | (access as u32) << 8
}

/// Pointer qualifiers in one byte: 0 when absent, else 1 + access, volatile, restrict.
pub(crate) fn qualifier_code(q: Option<PointerQualifiers>) -> u32 {
    match q {
        None => 0,
        Some(q) => {
            (1 + q.access as u32) | (u32::from(q.volatile) << 3) | (u32::from(q.restrict) << 4)
        }
    }
}

fn data_type(code: u32) -> DataType {
    let t = DataType::ALL.get(code as usize & 0xff).copied();
    debug_assert!(t.is_some(), "bad data type code {code}");
    t.unwrap_or(DataType::I1)
}

fn mem_type(code: u32) -> MemType {
    let t = MemType::ALL.get(code as usize & 0xff).copied();
    debug_assert!(t.is_some(), "bad memory type code {code}");
    t.unwrap_or(MemType::Global)
}

const ACCESS: [Access; 3] = [Access::ReadOnly, Access::WriteOnly, Access::ReadWrite];
const DIMS: [ImageDim; 6] = [
    ImageDim::D1,
    ImageDim::D2,
    ImageDim::D3,
    ImageDim::D1Array,
    ImageDim::D1Buffer,
    ImageDim::D2Array,
];

fn access(code: u32) -> Access {
    ACCESS
        .get(code as usize & 3)
        .copied()
        .unwrap_or(Access::ReadWrite)
}

fn qualifiers(code: u32) -> Option<PointerQualifiers> {
    let q = code & 0xff;
    (q != 0).then(|| PointerQualifiers {
        access: access((q - 1) & 7),
        volatile: q & 1 << 3 != 0,
        restrict: q & 1 << 4 != 0,
    })
}

/// The lines of one block, column-wise (see the module comment).
#[derive(Clone, Default)]
pub(crate) struct Body<'a> {
    /// Every line's text with its terminator, back to back.
    pub(crate) text: Cow<'a, str>,
    pub(crate) tags: Vec<u8>,
    /// Each line's byte length without its terminator.
    pub(crate) lens: Vec<u32>,
    pub(crate) words: Vec<u32>,
    pub(crate) printf: Vec<PrintfFmt>,
}

impl Body<'_> {
    pub(crate) fn into_owned(self) -> Body<'static> {
        Body {
            text: Cow::Owned(self.text.into_owned()),
            tags: self.tags,
            lens: self.lens,
            words: self.words,
            printf: self.printf,
        }
    }

    pub(crate) fn lines(&self) -> Lines<'_> {
        Lines {
            text: &self.text,
            tags: &self.tags,
            lens: &self.lens,
            words: &self.words,
            printf: &self.printf,
            pos: 0,
            word: 0,
        }
    }
}

/// Words a line of `kind` uses, given its words from the first on.
fn word_count(kind: u8, w: &[u32]) -> usize {
    match kind {
        kind::VERSION | kind::CWS => 3,
        kind::UNIQUEID
        | kind::UAVID
        | kind::PRINTFID
        | kind::CBID
        | kind::PRIVATEID
        | kind::LWS
        | kind::PRINTF => 1,
        kind::DEVICE | kind::ERROR | kind::WARNING | kind::LIMITGROUPSIZE => 0,
        kind::MEMORY => {
            let code = w.first().copied().unwrap_or(0);
            1 + usize::from(code & 0xff == MEMORY_OTHER)
                + 2 * usize::from(code & MEMORY_HAS_SIZE != 0)
        }
        kind::VALUE | kind::IMAGE | kind::COUNTER => 5,
        kind::POINTER => 7,
        kind::SAMPLER => 4,
        kind::FUNCTION | kind::INTRINSIC => 1 + w.first().copied().unwrap_or(0) as usize,
        kind::REFLECTION | kind::CONSTARG | kind::UNKNOWN => 2,
        _ => 0,
    }
}

/// The line's text from byte `at` for `n` bytes (all of it to the end when `n` is `None`).
fn span(line: &str, at: usize, n: Option<u32>) -> &str {
    let end = n.map_or(line.len(), |n| at.saturating_add(n as usize));
    let s = line.get(at..end);
    debug_assert!(s.is_some(), "span {at}..{end} outside {line:?}");
    s.unwrap_or("")
}

/// One line's entry from its kind, text and words.
pub(crate) fn decode<'s>(
    kind: u8,
    line: &'s str,
    w: &'s [u32],
    printf: &'s [PrintfFmt],
) -> Entry<'s> {
    let at = |i: usize| w.get(i).copied().unwrap_or(0);
    let name = || Cow::Borrowed(span(line, name_at(kind), Some(at(0))));
    match kind {
        kind::VERSION => Entry::Version {
            major: at(0),
            minor: at(1),
            revision: at(2),
        },
        kind::DEVICE => Entry::Device(Cow::Borrowed(span(line, 8, None))),
        kind::UNIQUEID => Entry::UniqueId(at(0)),
        kind::MEMORY => {
            let code = at(0);
            let other = code & 0xff == MEMORY_OTHER;
            let name = if other {
                span(line, 8, Some(at(1)))
            } else {
                ""
            };
            let s = 1 + usize::from(other);
            let size = (code & MEMORY_HAS_SIZE != 0)
                .then(|| u64::from(at(s)) | u64::from(at(s + 1)) << 32);
            Entry::Memory(Memory {
                kind: memory_kind(code & 0xff, name),
                size,
            })
        }
        kind::VALUE => Entry::Value(ValueArg {
            name: name(),
            data_type: data_type(at(1)),
            count: at(2),
            cb: at(3),
            offset: at(4),
        }),
        kind::POINTER => Entry::Pointer(PointerArg {
            name: name(),
            data_type: data_type(at(1)),
            count: at(2),
            cb: at(3),
            offset: at(4),
            mem_type: mem_type(at(1) >> 8),
            buffer: at(5),
            align: at(6),
            qualifiers: qualifiers(at(1) >> 16),
        }),
        kind::IMAGE => Entry::Image(ImageArg {
            name: name(),
            dim: DIMS
                .get(at(1) as usize & 0xff)
                .copied()
                .unwrap_or(ImageDim::D1),
            access: access(at(1) >> 8),
            id: at(2),
            cb: at(3),
            offset: at(4),
        }),
        kind::SAMPLER => Entry::Sampler(SamplerEntry {
            name: name(),
            id: at(1),
            location: at(2),
            value: at(3),
        }),
        kind::COUNTER => Entry::Counter(CounterArg {
            name: name(),
            bits: at(1),
            id: at(2),
            cb: at(3),
            offset: at(4),
        }),
        kind::PRINTF => match printf.get(at(0) as usize) {
            Some(p) => Entry::PrintfFmt(Cow::Borrowed(p)),
            None => Entry::PrintfFmt(Cow::Owned(PrintfFmt {
                id: 0,
                arg_sizes: Vec::new(),
                format: Vec::new(),
                terminated: false,
            })),
        },
        kind::FUNCTION | kind::INTRINSIC => {
            let ids = Cow::Borrowed(w.get(1..word_count(kind, w)).unwrap_or(&[]));
            if kind == kind::FUNCTION {
                Entry::Function(ids)
            } else {
                Entry::Intrinsic(ids)
            }
        }
        kind::CWS => Entry::Cws([at(0), at(1), at(2)]),
        kind::LWS => Entry::Lws(at(0)),
        kind::LIMITGROUPSIZE => Entry::LimitGroupSize,
        kind::UAVID => Entry::UavId(at(0)),
        kind::PRINTFID => Entry::PrintfId(at(0)),
        kind::CBID => Entry::CbId(at(0)),
        kind::PRIVATEID => Entry::PrivateId(at(0)),
        kind::ERROR => Entry::Error(Cow::Borrowed(span(line, 7, None))),
        kind::WARNING => Entry::Warning(Cow::Borrowed(span(line, 9, None))),
        kind::REFLECTION => Entry::Reflection {
            index: at(0),
            type_name: Cow::Borrowed(span(line, at(1) as usize, None)),
        },
        kind::CONSTARG => Entry::ConstArg {
            index: at(0),
            name: Cow::Borrowed(span(line, at(1) as usize, None)),
        },
        _ => {
            let key_len = at(0) as usize;
            Entry::Unknown {
                key: Cow::Borrowed(span(line, 1, Some(at(0)))),
                rest: (at(1) != 0).then(|| Cow::Borrowed(span(line, key_len + 2, None))),
            }
        }
    }
}

/// The block's lines in order, each decoded as it is reached.
#[derive(Clone)]
pub struct Lines<'s> {
    text: &'s str,
    tags: &'s [u8],
    lens: &'s [u32],
    words: &'s [u32],
    printf: &'s [PrintfFmt],
    /// Byte of `text` where the next line starts.
    pos: usize,
    /// Word where the next line's words start.
    word: usize,
}

impl<'s> Iterator for Lines<'s> {
    type Item = Line<'s>;

    #[inline]
    fn next(&mut self) -> Option<Line<'s>> {
        let (&tag, tags) = self.tags.split_first()?;
        let (&len, lens) = self.lens.split_first()?;
        self.tags = tags;
        self.lens = lens;
        let kind = tag & KIND_MASK;
        let eol = eol_of(tag);
        let end = self.pos.saturating_add(len as usize);
        let line = self.text.get(self.pos..end).unwrap_or("");
        self.pos = end + eol.as_str().len();
        let w = self.words.get(self.word..).unwrap_or(&[]);
        self.word += word_count(kind, w);
        Some(Line {
            entry: decode(kind, line, w, self.printf),
            raw: (tag & RAW != 0).then_some(line),
            eol,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.tags.len(), Some(self.tags.len()))
    }
}

impl ExactSizeIterator for Lines<'_> {}

impl Serialize for Lines<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.clone())
    }
}

/// [`Metadata::push`] refused a line longer than a parsed one may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineTooLong;

impl<'a> Metadata<'a> {
    /// An empty block named `name` (closed by the same name), every line ending in `\n`.
    pub fn new(name: impl Into<Cow<'a, str>>) -> Self {
        let name = name.into();
        Metadata {
            end_name: name.clone(),
            name,
            start_eol: Eol::Lf,
            end_eol: Eol::Lf,
            body: Body::default(),
        }
    }

    /// Appends `entry` as a line in its canonical text. Lines longer than
    /// [`limits::MAX_LINE_LEN`] are refused, as the parser refuses them.
    pub fn push(&mut self, entry: &Entry<'_>, eol: Eol) -> Result<(), LineTooLong> {
        let mut line = Vec::new();
        entry_text(entry, &mut line);
        let Ok(line) = String::from_utf8(line) else {
            return Err(LineTooLong); // unreachable: entry text is built from `str`s
        };
        if line.len() > limits::MAX_LINE_LEN {
            return Err(LineTooLong);
        }
        let body = &mut self.body;
        let w = &mut body.words;
        let len = |s: &str| s.len() as u32;
        let k = match entry {
            Entry::Version {
                major,
                minor,
                revision,
            } => {
                w.extend([*major, *minor, *revision]);
                kind::VERSION
            }
            Entry::Device(_) => kind::DEVICE,
            Entry::UniqueId(v) => {
                w.push(*v);
                kind::UNIQUEID
            }
            Entry::Memory(m) => {
                let code = memory_code(&m.kind);
                let has_size = if m.size.is_some() { MEMORY_HAS_SIZE } else { 0 };
                w.push(code | has_size);
                if let MemoryKind::Other(n) = &m.kind {
                    w.push(len(n));
                }
                if let Some(size) = m.size {
                    w.extend([size as u32, (size >> 32) as u32]);
                }
                kind::MEMORY
            }
            Entry::Value(v) => {
                w.extend([
                    len(&v.name),
                    data_type_code(v.data_type),
                    v.count,
                    v.cb,
                    v.offset,
                ]);
                kind::VALUE
            }
            Entry::Pointer(p) => {
                w.extend([
                    len(&p.name),
                    data_type_code(p.data_type)
                        | mem_type_code(p.mem_type) << 8
                        | qualifier_code(p.qualifiers) << 16,
                    p.count,
                    p.cb,
                    p.offset,
                    p.buffer,
                    p.align,
                ]);
                kind::POINTER
            }
            Entry::Image(i) => {
                w.extend([
                    len(&i.name),
                    image_code(i.dim, i.access),
                    i.id,
                    i.cb,
                    i.offset,
                ]);
                kind::IMAGE
            }
            Entry::Sampler(s) => {
                w.extend([len(&s.name), s.id, s.location, s.value]);
                kind::SAMPLER
            }
            Entry::Counter(c) => {
                w.extend([len(&c.name), c.bits, c.id, c.cb, c.offset]);
                kind::COUNTER
            }
            Entry::PrintfFmt(p) => {
                w.push(body.printf.len() as u32);
                body.printf.push(p.as_ref().clone());
                kind::PRINTF
            }
            Entry::Function(ids) | Entry::Intrinsic(ids) => {
                w.push(ids.len() as u32);
                w.extend_from_slice(ids);
                if matches!(entry, Entry::Function(_)) {
                    kind::FUNCTION
                } else {
                    kind::INTRINSIC
                }
            }
            Entry::Cws(v) => {
                w.extend(v);
                kind::CWS
            }
            Entry::Lws(v) => {
                w.push(*v);
                kind::LWS
            }
            Entry::LimitGroupSize => kind::LIMITGROUPSIZE,
            Entry::UavId(v) => {
                w.push(*v);
                kind::UAVID
            }
            Entry::PrintfId(v) => {
                w.push(*v);
                kind::PRINTFID
            }
            Entry::CbId(v) => {
                w.push(*v);
                kind::CBID
            }
            Entry::PrivateId(v) => {
                w.push(*v);
                kind::PRIVATEID
            }
            Entry::Error(_) => kind::ERROR,
            Entry::Warning(_) => kind::WARNING,
            Entry::Reflection {
                index,
                type_name: t,
            }
            | Entry::ConstArg { index, name: t } => {
                // The text is the line's tail.
                w.extend([*index, len(&line) - len(t)]);
                if matches!(entry, Entry::Reflection { .. }) {
                    kind::REFLECTION
                } else {
                    kind::CONSTARG
                }
            }
            Entry::Unknown { key, rest } => {
                w.extend([len(key), u32::from(rest.is_some())]);
                kind::UNKNOWN
            }
        };
        body.tags.push(k | eol_bits(eol));
        body.lens.push(len(&line));
        let text = body.text.to_mut();
        text.push_str(&line);
        text.push_str(eol.as_str());
        Ok(())
    }

    /// The lines in order, each as its typed entry (and raw text when it has one).
    pub fn lines(&self) -> Lines<'_> {
        self.body.lines()
    }

    pub fn line_count(&self) -> usize {
        self.body.tags.len()
    }

    pub fn entries(&self) -> impl Iterator<Item = Entry<'_>> {
        self.lines().map(|l| l.entry)
    }
}

impl PartialEq for Metadata<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && self.end_name == other.end_name
            && self.start_eol == other.start_eol
            && self.end_eol == other.end_eol
            && self.lines().eq(other.lines())
    }
}

impl Eq for Metadata<'_> {}

impl fmt::Debug for Metadata<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Metadata")
            .field("name", &self.name)
            .field("lines", &self.lines().collect::<Vec<_>>())
            .field("end_name", &self.end_name)
            .field("start_eol", &self.start_eol)
            .field("end_eol", &self.end_eol)
            .finish()
    }
}

impl Serialize for Metadata<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Metadata", 5)?;
        st.serialize_field("name", &self.name)?;
        st.serialize_field("lines", &self.lines())?;
        st.serialize_field("end_name", &self.end_name)?;
        st.serialize_field("start_eol", &self.start_eol)?;
        st.serialize_field("end_eol", &self.end_eol)?;
        st.end()
    }
}
