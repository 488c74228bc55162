//! A small JSON reader that keeps what serde_json's `Value` drops: member
//! order, each value's byte offset and exact text, and the JSON path of every
//! failure. Lenient mode also repairs iga64's known syntax defects and says
//! where. Recursion is bounded by `limits::MAX_DEPTH`.

use crate::error::{Error, ErrorKind, Repair};
use crate::limits;
use crate::model::{Element, Version};
use std::borrow::Cow;

#[derive(Debug)]
pub struct Node<'a> {
    /// Byte offset of the value's first character.
    pub start: usize,
    /// Byte offset just past the value.
    pub end: usize,
    pub val: Val<'a>,
}

#[derive(Debug)]
pub enum Val<'a> {
    Null,
    Bool(bool),
    /// The number exactly as written.
    Num(&'a str),
    Str(Cow<'a, str>),
    /// The elements, a range of `Document::nodes`.
    Arr(Span),
    /// The members, a range of `Document::members`.
    Obj(Span),
}

/// A run of a document's nodes or members. Containers keep their children in the
/// document's two flat vectors rather than in a vector each: one allocation per
/// document instead of one per object (IGA listings are mostly small objects).
#[derive(Clone, Copy, Debug)]
pub struct Span {
    start: usize,
    len: usize,
}

impl Span {
    pub fn len(self) -> usize {
        self.len
    }
}

#[derive(Debug)]
pub struct Member<'a> {
    pub key: Cow<'a, str>,
    pub key_start: usize,
    pub value: Node<'a>,
}

impl Val<'_> {
    pub fn type_name(&self) -> &'static str {
        match self {
            Val::Null => "null",
            Val::Bool(_) => "a boolean",
            Val::Num(_) => "a number",
            Val::Str(_) => "a string",
            Val::Arr(_) => "an array",
            Val::Obj(_) => "an object",
        }
    }
}

/// One step of a JSON path.
#[derive(Clone, Copy, Debug)]
pub enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

/// Longest key a rendered path spells out whole: every repair and error carries its
/// path, so a long key repeated in each would multiply the input.
const MAX_PATH_KEY: usize = 64;

fn push_key(s: &mut String, key: &str) {
    if key.len() <= MAX_PATH_KEY {
        s.push_str(key);
        return;
    }
    let cut = (0..=MAX_PATH_KEY)
        .rev()
        .find(|&i| key.is_char_boundary(i))
        .unwrap_or(0);
    s.push_str(&key[..cut]);
    s.push_str(&format!("...({} bytes)", key.len()));
}

pub fn render_path(segs: &[Seg<'_>]) -> String {
    let mut s = String::new();
    for seg in segs {
        match seg {
            Seg::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                push_key(&mut s, k);
            }
            Seg::Index(i) => {
                s.push('[');
                s.push_str(&i.to_string());
                s.push(']');
            }
        }
    }
    if s.is_empty() {
        s.push('$');
    }
    s
}

/// Line and column of successive offsets, each found by scanning on from the
/// previous one: repairs come in increasing offset order, except that an
/// element's brace repair follows the repairs inside it, so the cost of all of
/// them together stays linear in the input (recomputing each from byte 0 would be
/// quadratic).
#[derive(Default)]
struct LineColCursor {
    offset: usize,
    /// 0-based line and column (in characters) of `offset`.
    line: usize,
    column: usize,
}

impl LineColCursor {
    /// 1-based line and column (in characters) of `offset`.
    fn locate(&mut self, src: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(src.len());
        let bytes = src.as_bytes();
        if offset < self.offset {
            // Back to the start of an element whose braces were repaired after its
            // insides: rewind over that element only (never from byte 0, which
            // would make many such elements quadratic).
            let span = &bytes[offset..self.offset];
            let newlines = span.iter().filter(|&&b| b == b'\n').count();
            let chars = |s: &[u8]| s.iter().filter(|&&b| b & 0xC0 != 0x80).count();
            if newlines == 0 {
                self.column -= chars(span);
            } else {
                self.line -= newlines;
                let line_start = bytes[..offset]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |p| p + 1);
                self.column = chars(&bytes[line_start..offset]);
            }
            self.offset = offset;
        }
        for &b in &bytes[self.offset..offset] {
            if b == b'\n' {
                self.line += 1;
                self.column = 0;
            } else if b & 0xC0 != 0x80 {
                // Count characters: UTF-8 continuation bytes do not start one.
                self.column += 1;
            }
        }
        self.offset = offset;
        (self.line + 1, self.column + 1)
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(src.len());
    let before = &src.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let col = src
        .get(line_start..offset)
        .map_or(offset - line_start, |s| s.chars().count())
        + 1;
    (line, col)
}

pub struct Document<'a> {
    pub root: Node<'a>,
    pub repairs: Vec<Repair>,
    nodes: Vec<Node<'a>>,
    members: Vec<Member<'a>>,
    /// The listing's elements when they were read as the parse went (then the
    /// tree holds their array empty).
    pub streamed: Option<Streamed>,
}

/// A view of a document's containers: the finished ones of a whole document,
/// or those of the element being read while the parse goes on.
#[derive(Clone, Copy)]
pub struct Tree<'t, 'a> {
    nodes: &'t [Node<'a>],
    members: &'t [Member<'a>],
}

impl<'t, 'a> Tree<'t, 'a> {
    /// The elements of an array.
    pub fn items(&self, span: Span) -> &'t [Node<'a>] {
        &self.nodes[span.start..span.start + span.len]
    }
    /// The members of an object, in document order.
    pub fn members(&self, span: Span) -> &'t [Member<'a>] {
        &self.members[span.start..span.start + span.len]
    }
}

impl<'a> Document<'a> {
    pub fn tree(&self) -> Tree<'_, 'a> {
        Tree {
            nodes: &self.nodes,
            members: &self.members,
        }
    }
}

/// The listing's element array, turned into model elements one at a time as
/// the parse reads them, so that the tree never holds the whole array (a dense
/// listing's tree is ten times its text). Done only when the root's
/// `"version"` precedes the array and names its key; otherwise the whole tree is
/// built and read afterwards. Errors wait until `read_listing` reaches the
/// array, so they are the ones a whole-tree read reports, in the same order.
pub struct Streamed {
    pub version: Version,
    /// Byte offset of the array's `[`.
    pub start: usize,
    pub elems: Vec<Element>,
    /// Elements in the array (also past the limit or the first error).
    pub count: usize,
    /// The first element that did not read.
    pub error: Option<Error>,
}

pub fn parse(src: &str, lenient: bool) -> Result<Document<'_>, Error> {
    let mut p = Parser {
        src,
        b: src.as_bytes(),
        pos: 0,
        lenient,
        repairs: Vec::new(),
        path: Vec::new(),
        repair_position: LineColCursor::default(),
        nodes: Vec::new(),
        members: Vec::new(),
        open_nodes: Vec::new(),
        open_members: Vec::new(),
        stream_next: None,
        streamed: None,
    };
    p.ws();
    let root = p.value(0).map_err(|e| *e)?;
    p.ws();
    if p.pos < p.b.len() {
        return Err(*p.err(
            p.pos,
            format!(
                "unexpected {} after the end of the document",
                p.describe(p.pos)
            ),
        ));
    }
    Ok(Document {
        root,
        repairs: p.repairs,
        nodes: p.nodes,
        members: p.members,
        streamed: p.streamed,
    })
}

struct Parser<'a> {
    src: &'a str,
    b: &'a [u8],
    pos: usize,
    lenient: bool,
    repairs: Vec<Repair>,
    path: Vec<Seg<'a>>,
    repair_position: LineColCursor,
    /// Finished containers' children, each container's contiguous.
    nodes: Vec<Node<'a>>,
    members: Vec<Member<'a>>,
    /// Children of the containers still open, innermost last; a container's are
    /// moved to `nodes`/`members` when it closes.
    open_nodes: Vec<Node<'a>>,
    open_members: Vec<Member<'a>>,
    /// The next value is the listing's element array, of this version.
    stream_next: Option<Version>,
    streamed: Option<Streamed>,
}

impl<'a> Parser<'a> {
    /// Moves the members of the object just closed (those from `base` on) to `members`.
    fn close_object(&mut self, base: usize) -> Val<'a> {
        let start = self.members.len();
        self.members.extend(self.open_members.drain(base..));
        Val::Obj(Span {
            start,
            len: self.members.len() - start,
        })
    }

    /// Moves the elements of the array just closed (those from `base` on) to `nodes`.
    fn close_array(&mut self, base: usize) -> Val<'a> {
        let start = self.nodes.len();
        self.nodes.extend(self.open_nodes.drain(base..));
        Val::Arr(Span {
            start,
            len: self.nodes.len() - start,
        })
    }

    /// Boxed: every reader returns a `Result`, and an unboxed `Error` would
    /// make each one as large as the error instead of the value.
    #[cold]
    fn err(&self, offset: usize, message: String) -> Box<Error> {
        Box::new(Error::at(
            ErrorKind::Syntax,
            self.src,
            offset,
            render_path(&self.path),
            message,
        ))
    }

    fn repair(&mut self, offset: usize, what: String) -> Result<(), Box<Error>> {
        if self.repairs.len() >= limits::MAX_REPAIRS {
            return Err(self.err(
                offset,
                "too many repairs; this is not an iga64 listing".into(),
            ));
        }
        let (line, column) = self.repair_position.locate(self.src, offset);
        self.repairs.push(Repair {
            offset,
            line,
            column,
            path: render_path(&self.path),
            what,
        });
        Ok(())
    }

    fn describe(&self, at: usize) -> String {
        match self.src.get(at..).and_then(|s| s.chars().next()) {
            None => "end of input".into(),
            Some(c) if c.is_control() => format!("control character U+{:04X}", c as u32),
            Some(c) => format!("'{c}'"),
        }
    }

    fn ws(&mut self) {
        while let Some(&c) = self.b.get(self.pos) {
            if matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    /// Inlined into its two callers (a member's value, an array's element):
    /// returned through memory, the node is stored field by field and then
    /// copied on in 16-byte loads that wait for those stores.
    #[inline(always)]
    fn value(&mut self, depth: usize) -> Result<Node<'a>, Box<Error>> {
        let start = self.pos;
        let stream = self.stream_next.take();
        let val = match self.peek() {
            Some(b'{') => {
                if depth >= limits::MAX_DEPTH {
                    return Err(self.err(
                        start,
                        format!("nesting deeper than {} levels", limits::MAX_DEPTH),
                    ));
                }
                self.object(depth + 1)?
            }
            Some(b'[') => {
                if depth >= limits::MAX_DEPTH {
                    return Err(self.err(
                        start,
                        format!("nesting deeper than {} levels", limits::MAX_DEPTH),
                    ));
                }
                self.array(depth + 1, stream)?
            }
            Some(b'"') => Val::Str(self.string()?),
            Some(b't') => self.literal("true", Val::Bool(true))?,
            Some(b'f') => self.literal("false", Val::Bool(false))?,
            Some(b'n') => self.literal("null", Val::Null)?,
            Some(b'-' | b'0'..=b'9') => Val::Num(self.number()?),
            _ => {
                return Err(self.err(
                    start,
                    format!("expected a JSON value, found {}", self.describe(start)),
                ))
            }
        };
        Ok(Node {
            start,
            end: self.pos,
            val,
        })
    }

    fn literal(&mut self, word: &'static str, val: Val<'a>) -> Result<Val<'a>, Box<Error>> {
        if self.b[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(val)
        } else {
            Err(self.err(
                self.pos,
                format!("expected a JSON value, found {}", self.describe(self.pos)),
            ))
        }
    }

    fn number(&mut self) -> Result<&'a str, Box<Error>> {
        let start = self.pos;
        let digits = |p: &mut Self| {
            let s = p.pos;
            while p.peek().is_some_and(|c| c.is_ascii_digit()) {
                p.pos += 1;
            }
            p.pos > s
        };
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        if self.peek() == Some(b'0') {
            self.pos += 1;
        } else if !digits(self) {
            return Err(self.err(
                self.pos,
                format!("expected a digit, found {}", self.describe(self.pos)),
            ));
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !digits(self) {
                return Err(self.err(
                    self.pos,
                    format!(
                        "expected a digit after '.', found {}",
                        self.describe(self.pos)
                    ),
                ));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if !digits(self) {
                return Err(self.err(
                    self.pos,
                    format!(
                        "expected an exponent digit, found {}",
                        self.describe(self.pos)
                    ),
                ));
            }
        }
        Ok(&self.src[start..self.pos])
    }

    fn string(&mut self) -> Result<Cow<'a, str>, Box<Error>> {
        let open = self.pos;
        self.pos += 1;
        let start = self.pos;
        // Fast path: no escapes, borrow the text.
        loop {
            match self.peek() {
                None => return Err(self.err(open, "unterminated string".into())),
                Some(b'"') => {
                    let s = &self.src[start..self.pos];
                    self.pos += 1;
                    return Ok(Cow::Borrowed(s));
                }
                Some(b'\\') => break,
                Some(c) if c < 0x20 => break,
                Some(_) => self.pos += 1,
            }
        }
        let mut out = String::from(&self.src[start..self.pos]);
        loop {
            let Some(c) = self.peek() else {
                return Err(self.err(open, "unterminated string".into()));
            };
            match c {
                b'"' => {
                    self.pos += 1;
                    return Ok(Cow::Owned(out));
                }
                b'\\' => {
                    let at = self.pos;
                    self.pos += 1;
                    let e = self.peek();
                    self.pos += 1;
                    match e {
                        Some(b'"') => out.push('"'),
                        Some(b'\\') => out.push('\\'),
                        Some(b'/') => out.push('/'),
                        Some(b'b') => out.push('\u{8}'),
                        Some(b'f') => out.push('\u{c}'),
                        Some(b'n') => out.push('\n'),
                        Some(b'r') => out.push('\r'),
                        Some(b't') => out.push('\t'),
                        Some(b'u') => out.push(self.unicode_escape(at)?),
                        // iga64 escapes these two C-style, which JSON does not allow.
                        Some(b'v') | Some(b'a') if self.lenient => {
                            out.push(if e == Some(b'v') { '\u{b}' } else { '\u{7}' });
                            self.repair(
                                at,
                                "read the C escape (not JSON) iga64 writes for a control character"
                                    .into(),
                            )?;
                        }
                        _ => {
                            return Err(self.err(
                                at,
                                format!("invalid escape in string: {}", self.describe(at + 1)),
                            ));
                        }
                    }
                }
                c if c < 0x20 => {
                    if !self.lenient {
                        return Err(self.err(
                            self.pos,
                            format!("unescaped {} in string", self.describe(self.pos)),
                        ));
                    }
                    self.repair(
                        self.pos,
                        format!("kept unescaped {} in string", self.describe(self.pos)),
                    )?;
                    out.push(c as char);
                    self.pos += 1;
                }
                _ => {
                    // Copy a run of ordinary characters at once; the run ends on ASCII,
                    // so the slice stays on character boundaries.
                    let s = self.pos;
                    while self
                        .peek()
                        .is_some_and(|c| c != b'"' && c != b'\\' && c >= 0x20)
                    {
                        self.pos += 1;
                    }
                    out.push_str(&self.src[s..self.pos]);
                }
            }
        }
    }

    fn unicode_escape(&mut self, at: usize) -> Result<char, Box<Error>> {
        let hex4 = |p: &mut Self| -> Option<u32> {
            let s = p.src.get(p.pos..p.pos + 4)?;
            let v = u32::from_str_radix(s, 16).ok()?;
            if !s.bytes().all(|c| c.is_ascii_hexdigit()) {
                return None;
            }
            p.pos += 4;
            Some(v)
        };
        let bad = |p: &Self| p.err(at, "invalid \\u escape".into());
        let hi = hex4(self).ok_or_else(|| bad(self))?;
        if (0xD800..0xDC00).contains(&hi) {
            if self.b.get(self.pos..self.pos + 2) != Some(b"\\u") {
                return Err(bad(self));
            }
            self.pos += 2;
            let lo = hex4(self).ok_or_else(|| bad(self))?;
            if !(0xDC00..0xE000).contains(&lo) {
                return Err(bad(self));
            }
            return char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                .ok_or_else(|| bad(self));
        }
        char::from_u32(hi).ok_or_else(|| bad(self))
    }

    fn object(&mut self, depth: usize) -> Result<Val<'a>, Box<Error>> {
        self.pos += 1;
        let base = self.open_members.len();
        self.ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(self.close_object(base));
        }
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return Err(self.err(
                    self.pos,
                    format!("expected a key string, found {}", self.describe(self.pos)),
                ));
            }
            let key_start = self.pos;
            let key = self.string()?;
            if depth == 1 && self.streamed.is_none() {
                self.stream_next = self.listing_version(base, &key);
            }
            self.member_rest(key, key_start, depth)?;
            self.stream_next = None;
            self.ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(self.close_object(base));
                }
                _ => {
                    return Err(self.err(
                        self.pos,
                        format!(
                            "expected ',' or '}}' after a member, found {}",
                            self.describe(self.pos)
                        ),
                    ));
                }
            }
        }
    }

    /// The version of the listing when `key` of the root object (whose members
    /// start at `base`) is its element array: the first `"version"` member,
    /// already read, says "1.0" and `key` is `insts`, or "2.0" and `elems`.
    fn listing_version(&self, base: usize, key: &str) -> Option<Version> {
        if key != "insts" && key != "elems" {
            return None;
        }
        let version = self.open_members[base..]
            .iter()
            .find(|m| m.key == "version")?;
        match (&version.value.val, key) {
            (Val::Str(v), "insts") if v == "1.0" => Some(Version::V1),
            (Val::Str(v), "elems") if v == "2.0" => Some(Version::V2),
            _ => None,
        }
    }

    /// Reads `: value` after a key and appends the member to the innermost open object.
    fn member_rest(
        &mut self,
        key: Cow<'a, str>,
        key_start: usize,
        depth: usize,
    ) -> Result<(), Box<Error>> {
        self.ws();
        if self.peek() != Some(b':') {
            return Err(self.err(
                self.pos,
                format!(
                    "expected ':' after key \"{key}\", found {}",
                    self.describe(self.pos)
                ),
            ));
        }
        self.pos += 1;
        self.ws();
        // Keys of a borrowed source slice can live in the path; owned (escaped) keys are rare,
        // so the path shows their raw source text instead.
        let raw_key = match key {
            Cow::Borrowed(k) => k,
            Cow::Owned(_) => {
                &self.src[key_start + 1..key_start + 1 + raw_string_len(&self.b[key_start + 1..])]
            }
        };
        self.path.push(Seg::Key(raw_key));
        let value = self.value(depth)?;
        self.path.pop();
        self.open_members.push(Member {
            key,
            key_start,
            value,
        });
        Ok(())
    }

    /// An array; with `stream`, the listing's element array (see [`Streamed`]).
    fn array(&mut self, depth: usize, stream: Option<Version>) -> Result<Val<'a>, Box<Error>> {
        let open = self.pos;
        self.pos += 1;
        let base = self.open_nodes.len();
        if let Some(version) = stream {
            self.streamed = Some(Streamed {
                version,
                start: open,
                elems: Vec::new(),
                count: 0,
                error: None,
            });
        }
        self.ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(self.close_array(base));
        }
        let mut read = 0;
        loop {
            self.ws();
            self.path.push(Seg::Index(read));
            let (nodes, members) = (self.nodes.len(), self.members.len());
            let item = self.element(depth)?;
            self.path.pop();
            read += 1;
            match (stream, &mut self.streamed) {
                (Some(_), Some(s)) => {
                    // Past the limit or an error nothing more is kept: the read
                    // stops there, once the JSON is known to be whole.
                    if s.error.is_none() && s.count < limits::MAX_ELEMS {
                        let tree = Tree {
                            nodes: &self.nodes,
                            members: &self.members,
                        };
                        match super::listing::read_streamed_element(
                            self.src,
                            self.lenient,
                            s.version,
                            tree,
                            &item,
                            s.count,
                        ) {
                            Ok(e) => s.elems.push(e),
                            Err(e) => s.error = Some(*e),
                        }
                    }
                    s.count += 1;
                    // The element's containers are done with.
                    self.nodes.truncate(nodes);
                    self.members.truncate(members);
                }
                _ => self.open_nodes.push(item),
            }
            self.ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(self.close_array(base));
                }
                _ => {
                    let mut msg = format!(
                        "expected ',' or ']' after an array element, found {}",
                        self.describe(self.pos)
                    );
                    if self.peek() == Some(b':') {
                        msg.push_str(
                            " (an object's members without its braces: iga64 prints some send operands this way; \
                             lenient mode repairs it)",
                        );
                    }
                    // Name the element just read, where the fault is.
                    self.path.push(Seg::Index(read - 1));
                    return Err(self.err(self.pos, msg));
                }
            }
        }
    }

    /// An array element. In lenient mode a string followed by ':' starts an
    /// object whose braces iga64 forgot (the defect of its 1.0 writer for
    /// send operands it cannot decode): its members run until a ',' that is
    /// not followed by another key, or the closing ']'.
    fn element(&mut self, depth: usize) -> Result<Node<'a>, Box<Error>> {
        if !self.lenient || self.peek() != Some(b'"') {
            return self.value(depth);
        }
        let start = self.pos;
        let key = self.string()?;
        let after_key = self.pos;
        self.ws();
        if self.peek() != Some(b':') {
            return Ok(Node {
                start,
                end: after_key,
                val: Val::Str(key),
            });
        }
        if depth >= limits::MAX_DEPTH {
            return Err(self.err(
                start,
                format!("nesting deeper than {} levels", limits::MAX_DEPTH),
            ));
        }
        let base = self.open_members.len();
        self.member_rest(key, start, depth + 1)?;
        loop {
            let end = self.pos;
            self.ws();
            if self.peek() == Some(b',') {
                let comma = self.pos;
                self.pos += 1;
                self.ws();
                if self.peek() == Some(b'"') {
                    let key_start = self.pos;
                    let key = self.string()?;
                    self.member_rest(key, key_start, depth + 1)?;
                    continue;
                }
                self.pos = comma;
            }
            self.repair(
                start,
                format!(
                    "inserted the braces iga64 omitted around this operand (bytes {start}..{end})"
                ),
            )?;
            self.pos = end;
            return Ok(Node {
                start,
                end,
                val: self.close_object(base),
            });
        }
    }
}

/// Length of a string's raw text up to (not including) its closing quote.
fn raw_string_len(b: &[u8]) -> usize {
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => return i,
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    b.len()
}

#[cfg(test)]
mod line_col_tests {
    use super::*;

    #[test]
    fn incremental_position_matches_the_direct_one() {
        let src = "ab\n\u{e9}x\u{1f600}y\n\nz";
        let mut cursor = LineColCursor::default();
        for offset in (0..=src.len()).filter(|&o| src.is_char_boundary(o)) {
            assert_eq!(
                cursor.locate(src, offset),
                line_col(src, offset),
                "offset {offset}"
            );
        }
        for offset in (0..=src.len()).rev().filter(|&o| src.is_char_boundary(o)) {
            assert_eq!(
                cursor.locate(src, offset),
                line_col(src, offset),
                "back to {offset}"
            );
        }
    }

    #[test]
    fn long_keys_are_shortened_in_paths() {
        let key = "k".repeat(1000);
        let path = render_path(&[Seg::Key(&key), Seg::Index(3)]);
        assert_eq!(path, format!("{}...(1000 bytes)[3]", "k".repeat(64)));
    }
}
