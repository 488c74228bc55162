//! Column-wise storage of a block's lines, and the typed view of it.
//!
//! Per line: a tag byte (kind, terminator, whether the text is non-canonical)
//! packed with the text's length in one `u32`, and a byte counting its words
//! (so reading needs no layout to find the next line's); every number of
//! every line goes to one flat word vector in line order, in a layout per kind;
//! names, messages and raw text are spans of the block's text, which holds
//! the lines back to back with their terminators. Printf formats, rare and
//! variable, are kept aside. Reading walks the columns together, so lines are
//! visited in order (there is no random access, and nothing needs it).
//!
//! Each kind's word layout is written once, in the `layouts!` table below:
//! the kind's fields in word order, each with the codec that stores it. The
//! table generates [`encode`] (used by the parser and by [`Metadata::push`]
//! alike), its mirror [`decode`] (behind [`Metadata::lines`] and so
//! `emit_from_entries`) and [`Entry::into_owned`]; nothing else knows a layout.

use super::emit::entry_text;
use super::model::*;
use crate::limits;
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};
use std::borrow::Cow;
use std::fmt;

/// The word layout of every kind: `KIND = tag, "key", (shape) => [codecs]`
/// (the key places the fields: after `;KEY:`).
/// The shape is the kind's [`Entry`] variant with its fields bound to names:
/// a pattern when encoding, the constructor when decoding. Each codec takes
/// the fields it stores, in word order (see the codecs below for what each
/// writes); `Bytes` packs several one-byte codes into one word.
macro_rules! layouts {
    ($( $kind:ident = $tag:literal, $key:literal, ($($shape:tt)*) => [$( $codec:ident($($f:ident),*) ),* $(,)?]; )*) => {
        /// Line kinds, as kept in the low bits of a line's tag.
        pub(crate) mod kind {
            $( pub const $kind: u8 = $tag; )*
        }

        /// Appends `entry`'s words; returns its kind. `out.line_len` is the
        /// length of the line's text (its canonical text, or the parsed one).
        /// Inlined: the parser calls it with the variant each key parses to,
        /// so the match folds away there.
        #[inline(always)]
        pub(crate) fn encode(entry: Entry<'_>, out: &mut Columns<'_>) -> u8 {
            match entry {
                $( Entry::$($shape)* => {
                    #[allow(unused_variables)]
                    let cx = &mut Encoder { out: &mut *out, line: [0; 8], used: 0 };
                    $( layouts!(@put cx $codec $($f),*); )*
                    // In each arm, where the count is known: one fixed-size copy.
                    cx.flush();
                    kind::$kind
                } )*
            }
        }

        /// One line's entry from its kind, text and words (exactly the words
        /// [`encode`] wrote for it).
        pub(crate) fn decode<'s>(
            kind: u8,
            line: &'s str,
            words: &'s [u32],
            printf: &'s [PrintfFmt],
        ) -> Entry<'s> {
            match kind {
                $( kind::$kind => {
                    #[allow(unused_variables)]
                    let cx = &mut Decoder { line, words, next: 0, key_end: key_end($key), printf };
                    $( layouts!(@get cx $codec $($f),*); )*
                    Entry::$($shape)*
                } )*
                _ => {
                    debug_assert!(false, "bad line kind {kind}");
                    Entry::LimitGroupSize
                }
            }
        }

        impl Entry<'_> {
            /// The same entry with every text field owned.
            pub fn into_owned(self) -> Entry<'static> {
                match self {
                    $( Entry::$($shape)* => {
                        $( $( let $f = Own::own($f); )* )*
                        Entry::$($shape)*
                    } )*
                }
            }
        }
    };
    (@put $cx:ident Bytes $($f:ident),+) => {
        $cx.bytes(&[$( ByteCode::code(&$f) ),+])
    };
    (@put $cx:ident $codec:ident $f:ident) => {
        $codec::put($f, $cx)
    };
    (@get $cx:ident Bytes $($f:ident),+) => {
        let mut bytes = $cx.next().to_le_bytes().into_iter();
        $( let $f = ByteCode::from_code(bytes.next().unwrap_or(0)); )+
    };
    (@get $cx:ident $codec:ident $f:ident) => {
        let $f = $codec::get($cx);
    };
}

layouts! {
    VERSION = 0, "version", (Version { major, minor, revision }) => [Number(major), Number(minor), Number(revision)];
    DEVICE = 1, "device", (Device(name)) => [Tail(name)];
    UNIQUEID = 2, "uniqueid", (UniqueId(id)) => [Number(id)];
    MEMORY = 3, "memory", (Memory(Memory { kind: space, size })) => [Space(space), Size(size)];
    VALUE = 4, "value", (Value(ValueArg { name, data_type, count, cb, offset })) =>
        [Name(name), Bytes(data_type), Number(count), Number(cb), Number(offset)];
    POINTER = 5, "pointer", (Pointer(PointerArg { name, data_type, count, cb, offset, mem_type, buffer, align, qualifiers })) =>
        [Name(name), Bytes(data_type, mem_type, qualifiers), Number(count), Number(cb), Number(offset), Number(buffer), Number(align)];
    IMAGE = 6, "image", (Image(ImageArg { name, dim, access, id, cb, offset })) =>
        [Name(name), Bytes(dim, access), Number(id), Number(cb), Number(offset)];
    SAMPLER = 7, "sampler", (Sampler(SamplerEntry { name, id, location, value })) =>
        [Name(name), Number(id), Number(location), Number(value)];
    COUNTER = 8, "counter", (Counter(CounterArg { name, bits, id, cb, offset })) =>
        [Name(name), Number(bits), Number(id), Number(cb), Number(offset)];
    PRINTF = 9, "printf_fmt", (PrintfFmt(format)) => [Format(format)];
    FUNCTION = 10, "function", (Function(ids)) => [Ids(ids)];
    INTRINSIC = 11, "intrinsic", (Intrinsic(ids)) => [Ids(ids)];
    CWS = 12, "cws", (Cws([x, y, z])) => [Number(x), Number(y), Number(z)];
    LWS = 13, "lws", (Lws(size)) => [Number(size)];
    LIMITGROUPSIZE = 14, "limitgroupsize", (LimitGroupSize) => [];
    UAVID = 15, "uavid", (UavId(id)) => [Number(id)];
    PRINTFID = 16, "printfid", (PrintfId(id)) => [Number(id)];
    CBID = 17, "cbid", (CbId(id)) => [Number(id)];
    PRIVATEID = 18, "privateid", (PrivateId(id)) => [Number(id)];
    ERROR = 19, "error", (Error(message)) => [Tail(message)];
    WARNING = 20, "warning", (Warning(message)) => [Tail(message)];
    REFLECTION = 21, "reflection", (Reflection { index, type_name }) => [Number(index), TailAt(type_name)];
    CONSTARG = 22, "constarg", (ConstArg { index, name }) => [Number(index), TailAt(name)];
    UNKNOWN = 23, "", (Unknown { key, rest }) => [Name(key), OptionalTailAt(rest)];
}

/// Where the fields of a line of key `key` start: after `;KEY:`. Unknown
/// lines (key "" in the table) have no fixed key: their key starts after `;`.
const fn key_end(key: &str) -> usize {
    if key.is_empty() {
        1
    } else {
        key.len() + 2
    }
}

/// Tag bits: the kind in the low 5, the terminator in the next 2, raw text in the top one.
const KIND_MASK: u8 = 0x1f;
const EOL_SHIFT: u8 = 5;
pub(crate) const RAW: u8 = 0x80;

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

/// Where [`encode`] appends a line's words (and its printf format).
pub(crate) struct Columns<'b> {
    /// The line's text length: fields at the end of the line are stored as where they start.
    pub(crate) line_len: usize,
    pub(crate) words: &'b mut Vec<u32>,
    pub(crate) printf: &'b mut Vec<PrintfFmt>,
}

/// One line being encoded into [`Columns`]. Its words gather in `line` and
/// go to the column in one copy; the encoder is local to each arm of
/// [`encode`], so the count is known there and the copy is a few stores.
struct Encoder<'c, 'b> {
    out: &'c mut Columns<'b>,
    line: [u32; 8],
    used: usize,
}

impl Encoder<'_, '_> {
    #[inline(always)]
    fn word(&mut self, w: u32) {
        if self.used == self.line.len() {
            self.flush();
        }
        if let Some(slot) = self.line.get_mut(self.used) {
            *slot = w;
            self.used += 1;
        }
    }

    /// A copy of known size: where the count is known the match folds away,
    /// and where it is not (`;memory:`, 1 to 4 words) no `memcpy` is called.
    #[inline(always)]
    fn flush(&mut self) {
        let (line, words) = (&self.line, &mut *self.out.words);
        match self.used {
            1 => words.extend_from_slice(&line[..1]),
            2 => words.extend_from_slice(&line[..2]),
            3 => words.extend_from_slice(&line[..3]),
            4 => words.extend_from_slice(&line[..4]),
            n => words.extend_from_slice(line.get(..n).unwrap_or(&[])),
        }
        self.used = 0;
    }

    /// One-byte codes packed into one word, the first in the lowest byte.
    #[inline(always)]
    fn bytes(&mut self, codes: &[u8]) {
        let mut word = [0u8; 4];
        for (w, c) in word.iter_mut().zip(codes) {
            *w = *c;
        }
        self.word(u32::from_le_bytes(word));
    }

    /// A length or position within the line (under `MAX_LINE_LEN`, so it fits).
    #[inline(always)]
    fn len(&mut self, n: usize) {
        self.word(u32::try_from(n).unwrap_or(u32::MAX));
    }
}

/// One line's words being read back, with what its fields need: the line's
/// text, where a name starts (after `;KEY:`) and the printf formats.
pub(crate) struct Decoder<'s> {
    line: &'s str,
    words: &'s [u32],
    next: usize,
    key_end: usize,
    printf: &'s [PrintfFmt],
}

impl<'s> Decoder<'s> {
    /// The next word (0 past the end: never, for words [`encode`] wrote).
    fn next(&mut self) -> u32 {
        let w = self.words.get(self.next).copied().unwrap_or(0);
        self.next += 1;
        w
    }

    fn rest(&mut self) -> &'s [u32] {
        let rest = self.words.get(self.next..).unwrap_or(&[]);
        self.next = self.words.len();
        rest
    }

    /// The line's text from byte `at` for `n` bytes (to the end when `n` is `None`).
    fn span(&self, at: usize, n: Option<u32>) -> Cow<'s, str> {
        let end = n.map_or(self.line.len(), |n| at.saturating_add(n as usize));
        let s = self.line.get(at..end);
        debug_assert!(s.is_some(), "span {at}..{end} outside {:?}", self.line);
        Cow::Borrowed(s.unwrap_or(""))
    }
}

// The codecs: how one field is kept in the words, and read back.

/// A number: one word.
struct Number;
impl Number {
    #[inline(always)]
    fn put(v: u32, cx: &mut Encoder) {
        cx.word(v);
    }
    fn get(cx: &mut Decoder) -> u32 {
        cx.next()
    }
}

/// The name right after `;KEY:` (an unknown line's key, right after `;`):
/// one word, its length.
struct Name;
impl Name {
    #[inline(always)]
    fn put(name: Cow<str>, cx: &mut Encoder) {
        cx.len(name.len());
    }
    fn get<'s>(cx: &mut Decoder<'s>) -> Cow<'s, str> {
        let n = cx.next();
        cx.span(cx.key_end, Some(n))
    }
}

/// Everything after `;KEY:`: no words.
struct Tail;
impl Tail {
    #[inline(always)]
    fn put(_: Cow<str>, _: &mut Encoder) {}
    fn get<'s>(cx: &mut Decoder<'s>) -> Cow<'s, str> {
        cx.span(cx.key_end, None)
    }
}

/// The rest of the line after earlier fields: one word, where it starts.
struct TailAt;
impl TailAt {
    #[inline(always)]
    fn put(tail: Cow<str>, cx: &mut Encoder) {
        cx.len(cx.out.line_len.saturating_sub(tail.len()));
    }
    fn get<'s>(cx: &mut Decoder<'s>) -> Cow<'s, str> {
        let at = cx.next();
        cx.span(at as usize, None)
    }
}

/// As [`TailAt`], 0 when absent (a present tail starts after `;` and a `:`).
struct OptionalTailAt;
impl OptionalTailAt {
    #[inline(always)]
    fn put(tail: Option<Cow<str>>, cx: &mut Encoder) {
        match tail {
            Some(t) => TailAt::put(t, cx),
            None => cx.word(0),
        }
    }
    fn get<'s>(cx: &mut Decoder<'s>) -> Option<Cow<'s, str>> {
        let at = cx.next();
        (at != 0).then(|| cx.span(at as usize, None))
    }
}

/// A memory space or flag: its code, then the name's length for any other name.
struct Space;
const MEMORY_SPACES: [MemoryKind<'static>; 9] = [
    MemoryKind::UavPrivate,
    MemoryKind::HwLocal,
    MemoryKind::HwRegion,
    MemoryKind::HwPrivate,
    MemoryKind::Private,
    MemoryKind::Local,
    MemoryKind::Abi64Bit,
    MemoryKind::DataRequired,
    MemoryKind::CompilerWrite,
];
impl Space {
    #[inline(always)]
    fn put(space: MemoryKind, cx: &mut Encoder) {
        match space {
            MemoryKind::Other(name) => {
                cx.len(MEMORY_SPACES.len());
                cx.len(name.len());
            }
            known => {
                let code = MEMORY_SPACES.iter().position(|k| *k == known);
                cx.len(code.unwrap_or(MEMORY_SPACES.len()));
            }
        }
    }
    fn get<'s>(cx: &mut Decoder<'s>) -> MemoryKind<'s> {
        match MEMORY_SPACES.get(cx.next() as usize) {
            Some(known) => known.clone(),
            None => {
                let n = cx.next();
                MemoryKind::Other(cx.span(cx.key_end, Some(n)))
            }
        }
    }
}

/// A memory size: two words, low then high, when present (the line's last words).
struct Size;
impl Size {
    #[inline(always)]
    fn put(size: Option<u64>, cx: &mut Encoder) {
        if let Some(size) = size {
            cx.word(size as u32);
            cx.word((size >> 32) as u32);
        }
    }
    fn get(cx: &mut Decoder) -> Option<u64> {
        let rest = cx.rest();
        match rest {
            [low, high] => Some(u64::from(*low) | u64::from(*high) << 32),
            _ => None,
        }
    }
}

/// A list of ids: all of the line's words.
struct Ids;
impl Ids {
    #[inline(always)]
    fn put(ids: Cow<[u32]>, cx: &mut Encoder) {
        cx.flush();
        cx.out.words.extend_from_slice(&ids);
    }
    fn get<'s>(cx: &mut Decoder<'s>) -> Cow<'s, [u32]> {
        Cow::Borrowed(cx.rest())
    }
}

/// A printf format, kept aside: one word, its index among the block's formats.
struct Format;
impl Format {
    #[inline(always)]
    fn put(format: Cow<PrintfFmt>, cx: &mut Encoder) {
        cx.len(cx.out.printf.len());
        cx.out.printf.push(format.into_owned());
    }
    fn get<'s>(cx: &mut Decoder<'s>) -> Cow<'s, PrintfFmt> {
        match cx.printf.get(cx.next() as usize) {
            Some(p) => Cow::Borrowed(p),
            None => Cow::Owned(PrintfFmt {
                id: 0,
                arg_sizes: Vec::new(),
                format: Vec::new(),
                terminated: false,
            }),
        }
    }
}

/// Fields stored as one byte of a [`Bytes`] word: their index in their list.
trait ByteCode: Sized {
    fn code(&self) -> u8;
    fn from_code(code: u8) -> Self;
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

/// Enums coded by declaration order, which each list follows.
macro_rules! byte_codes {
    ($($t:ty: $all:expr;)*) => {
        $( impl ByteCode for $t {
            fn code(&self) -> u8 {
                *self as u8
            }
            fn from_code(code: u8) -> Self {
                let all = &$all;
                let t = all.get(usize::from(code)).copied();
                debug_assert!(t.is_some(), "bad {} code {code}", stringify!($t));
                t.unwrap_or(all[0])
            }
        } )*
    };
}
byte_codes! {
    DataType: DataType::ALL;
    MemType: MemType::ALL;
    Access: ACCESS;
    ImageDim: DIMS;
}

/// Pointer qualifiers: 0 when absent, else 1 + access, volatile, restrict.
impl ByteCode for Option<PointerQualifiers> {
    fn code(&self) -> u8 {
        match self {
            None => 0,
            Some(q) => {
                (1 + q.access.code()) | u8::from(q.volatile) << 3 | u8::from(q.restrict) << 4
            }
        }
    }
    fn from_code(q: u8) -> Self {
        (q != 0).then(|| PointerQualifiers {
            access: Access::from_code((q - 1) & 7),
            volatile: q & 1 << 3 != 0,
            restrict: q & 1 << 4 != 0,
        })
    }
}

/// A field with every borrowed text made owned (for [`Entry::into_owned`]).
trait Own {
    type Owned;
    fn own(self) -> Self::Owned;
}

macro_rules! own_copy {
    ($($t:ty),*) => {
        $( impl Own for $t {
            type Owned = $t;
            fn own(self) -> $t {
                self
            }
        } )*
    };
}
own_copy!(
    u32,
    u64,
    DataType,
    MemType,
    Access,
    ImageDim,
    PointerQualifiers
);

impl<T: Own> Own for Option<T> {
    type Owned = Option<T::Owned>;
    fn own(self) -> Self::Owned {
        self.map(T::own)
    }
}

impl<T: ToOwned + ?Sized + 'static> Own for Cow<'_, T> {
    type Owned = Cow<'static, T>;
    fn own(self) -> Cow<'static, T> {
        Cow::Owned(self.into_owned())
    }
}

impl Own for MemoryKind<'_> {
    type Owned = MemoryKind<'static>;
    fn own(self) -> MemoryKind<'static> {
        self.into_owned()
    }
}

/// The lines of one block, column-wise (see the module comment).
#[derive(Clone, Default)]
pub(crate) struct Body<'a> {
    /// Every line's text with its terminator, back to back.
    pub(crate) text: Cow<'a, str>,
    /// Per line: its tag in the low byte, its text's length (without the
    /// terminator; at most `MAX_LINE_LEN`) above.
    pub(crate) heads: Vec<u32>,
    /// Per line: how many words it has; [`MANY_WORDS`] when that count is
    /// kept in a word before them.
    pub(crate) counts: Vec<u8>,
    pub(crate) words: Vec<u32>,
    pub(crate) printf: Vec<PrintfFmt>,
}

/// A line of this many words or more keeps its count in a word of its own
/// (only long id lists; a line has at most `MAX_LIST_LEN` + a few words).
const MANY_WORDS: u8 = u8::MAX;

impl Body<'_> {
    pub(crate) fn into_owned(self) -> Body<'static> {
        Body {
            text: Cow::Owned(self.text.into_owned()),
            heads: self.heads,
            counts: self.counts,
            words: self.words,
            printf: self.printf,
        }
    }

    pub(crate) fn lines(&self) -> Lines<'_> {
        Lines {
            text: &self.text,
            heads: &self.heads,
            counts: &self.counts,
            words: &self.words,
            printf: &self.printf,
            pos: 0,
            word: 0,
        }
    }

    pub(crate) fn line_count(&self) -> usize {
        self.heads.len()
    }

    /// Where the next line's words go: see [`encode`].
    pub(crate) fn encoder(&mut self, line_len: u32) -> Columns<'_> {
        Columns {
            line_len: line_len as usize,
            words: &mut self.words,
            printf: &mut self.printf,
        }
    }

    /// Ends the line [`encode`] just wrote, of kind `kind`, its words from
    /// `start` (the word count before it), its text `line_len` bytes (at most
    /// `MAX_LINE_LEN`) ending in `eol`; `raw` when the text is not the
    /// entry's canonical text.
    #[inline]
    pub(crate) fn end_line(&mut self, start: usize, kind: u8, line_len: u32, eol: Eol, raw: bool) {
        let count = self.words.len().saturating_sub(start);
        match u8::try_from(count) {
            Ok(n) if n < MANY_WORDS => self.counts.push(n),
            _ => self.many_words(start, count),
        }
        let tag = kind | eol_bits(eol) | if raw { RAW } else { 0 };
        self.heads.push(u32::from(tag) | line_len << 8);
    }

    /// The count of a line of [`MANY_WORDS`] or more, in a word before them.
    #[cold]
    #[inline(never)]
    fn many_words(&mut self, start: usize, count: usize) {
        // A line's words are bounded by its text (`MAX_LINE_LEN`).
        let n = u32::try_from(count).unwrap_or(u32::MAX);
        self.words.insert(start.min(self.words.len()), n);
        self.counts.push(MANY_WORDS);
    }
}

/// The block's lines in order, each decoded as it is reached.
#[derive(Clone)]
pub struct Lines<'s> {
    text: &'s str,
    heads: &'s [u32],
    counts: &'s [u8],
    words: &'s [u32],
    printf: &'s [PrintfFmt],
    /// Byte of `text` where the next line starts.
    pos: usize,
    /// Word where the next line's words (or their count) start.
    word: usize,
}

impl<'s> Iterator for Lines<'s> {
    type Item = Line<'s>;

    #[inline]
    fn next(&mut self) -> Option<Line<'s>> {
        let (&head, heads) = self.heads.split_first()?;
        let (&count, counts) = self.counts.split_first()?;
        self.heads = heads;
        self.counts = counts;
        let tag = head as u8;
        let kind = tag & KIND_MASK;
        let eol = eol_of(tag);
        let end = self.pos.saturating_add((head >> 8) as usize);
        let line = self.text.get(self.pos..end).unwrap_or("");
        self.pos = end + eol.as_str().len();
        let count = if count == MANY_WORDS {
            let n = self.words.get(self.word).copied().unwrap_or(0);
            self.word += 1;
            n as usize
        } else {
            usize::from(count)
        };
        let words_end = self.word.saturating_add(count);
        let w = self.words.get(self.word..words_end).unwrap_or(&[]);
        self.word = words_end;
        Some(Line {
            entry: decode(kind, line, w, self.printf),
            raw: (tag & RAW != 0).then_some(line),
            eol,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.heads.len(), Some(self.heads.len()))
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
        let Ok(len) = u32::try_from(line.len()) else {
            return Err(LineTooLong); // unreachable: under MAX_LINE_LEN
        };
        let start = self.body.words.len();
        let kind = encode(entry.clone(), &mut self.body.encoder(len));
        self.body.end_line(start, kind, len, eol, false);
        let text = self.body.text.to_mut();
        text.push_str(&line);
        text.push_str(eol.as_str());
        Ok(())
    }

    /// The lines in order, each as its typed entry (and raw text when it has one).
    pub fn lines(&self) -> Lines<'_> {
        self.body.lines()
    }

    pub fn line_count(&self) -> usize {
        self.body.line_count()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind, and every code a `Bytes` word or a memory space can hold.
    fn entries() -> Vec<Entry<'static>> {
        let b = Cow::Borrowed;
        let mut out = vec![
            Entry::Version {
                major: 3,
                minor: 1,
                revision: 104,
            },
            Entry::Device(b("Tahiti")),
            Entry::UniqueId(u32::MAX),
            Entry::Memory(Memory {
                kind: MemoryKind::Other(b("scratch")),
                size: Some(u64::MAX),
            }),
            Entry::Memory(Memory {
                kind: MemoryKind::Other(b("scratch")),
                size: None,
            }),
            Entry::PrintfFmt(Cow::Owned(PrintfFmt {
                id: 2,
                arg_sizes: vec![4, 8],
                format: b"%d %f\n".to_vec(),
                terminated: true,
            })),
            Entry::Function(Cow::Borrowed(&[])),
            Entry::Function(Cow::Borrowed(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10])),
            Entry::Intrinsic(Cow::Borrowed(&[1026])),
            Entry::Cws([64, 1, 1]),
            Entry::Lws(256),
            Entry::LimitGroupSize,
            Entry::UavId(11),
            Entry::PrintfId(9),
            Entry::CbId(10),
            Entry::PrivateId(8),
            Entry::Error(b("bad: thing")),
            Entry::Warning(b("")),
            Entry::Reflection {
                index: 0,
                type_name: b("float4*"),
            },
            Entry::ConstArg {
                index: 7,
                name: b("a:b"),
            },
            Entry::Unknown {
                key: b("x"),
                rest: None,
            },
            Entry::Unknown {
                key: b("memory"),
                rest: Some(b("scratch:12a")),
            },
            Entry::Sampler(SamplerEntry {
                name: b("s"),
                id: 1,
                location: 0,
                value: 0x12,
            }),
            Entry::Counter(CounterArg {
                name: b("c"),
                bits: 32,
                id: 0,
                cb: 1,
                offset: 16,
            }),
        ];
        for kind in MEMORY_SPACES {
            let size = (!kind.is_flag()).then_some(1 << 40);
            out.push(Entry::Memory(Memory { kind, size }));
        }
        for data_type in DataType::ALL {
            out.push(Entry::Value(ValueArg {
                name: b("v"),
                data_type,
                count: 4,
                cb: 1,
                offset: 32,
            }));
        }
        for (i, mem_type) in MemType::ALL.into_iter().enumerate() {
            let access = ACCESS[i % ACCESS.len()];
            out.push(Entry::Pointer(PointerArg {
                name: b("p"),
                data_type: DataType::ALL[i],
                count: 1,
                cb: 1,
                offset: 48,
                mem_type,
                buffer: 12,
                align: 16,
                qualifiers: (i % 4 != 0).then_some(PointerQualifiers {
                    access,
                    volatile: i % 2 == 0,
                    restrict: i % 3 == 0,
                }),
            }));
        }
        for (i, dim) in DIMS.into_iter().enumerate() {
            out.push(Entry::Image(ImageArg {
                name: b("img"),
                dim,
                access: ACCESS[i % ACCESS.len()],
                id: 2,
                cb: 1,
                offset: 64,
            }));
        }
        out
    }

    /// What `encode` writes, `decode` reads back as the same entry (from the
    /// line's canonical text), and `into_owned` keeps it.
    #[test]
    fn every_layout_reads_back() {
        let mut words = vec![7]; // a line before: words are addressed from its end
        let mut printf = Vec::new();
        for entry in entries() {
            let mut text = Vec::new();
            entry_text(&entry, &mut text);
            let line = String::from_utf8(text).unwrap();
            let start = words.len();
            let mut out = Columns {
                line_len: line.len(),
                words: &mut words,
                printf: &mut printf,
            };
            let kind = encode(entry.clone(), &mut out);
            let back = decode(kind, &line, &words[start..], &printf);
            assert_eq!(back, entry, "{line}");
            assert_eq!(back.into_owned(), entry, "{line}");
        }
    }
}

#[cfg(test)]
mod count_tests {
    use super::*;
    use crate::metadata::parse_metadata;

    /// Lines around the word count kept in a word of its own read back in
    /// place, between other lines, pushed and parsed.
    #[test]
    fn long_id_lists_read_back() {
        let mut md = Metadata::new("f");
        let mut expected = Vec::new();
        for n in [0u32, 16, 17, 254, 255, 256, 1000] {
            let ids: Vec<u32> = (0..n).collect();
            for entry in [Entry::Function(Cow::Owned(ids)), Entry::Lws(n)] {
                md.push(&entry, Eol::Lf).unwrap();
                expected.push(entry);
            }
        }
        assert!(md.entries().eq(expected.iter().cloned()));
        let text = md.emit();
        let parsed = parse_metadata(&text).unwrap();
        assert!(parsed.entries().eq(expected.iter().cloned()));
        assert_eq!(parsed.emit_from_entries(), text);
    }
}
