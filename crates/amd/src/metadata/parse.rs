//! Parses AMD IL metadata text. Each line is `;KEY` or `;KEY:FIELD:FIELD...`;
//! every field of a known key is checked, and a failure names the line,
//! column, field, the offending token and the form that was expected.

use super::body::{decode, encode, Body, Columns};
use super::emit::entry_to_string;
use super::model::*;
use crate::{limits, printf};
use std::borrow::Cow;
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ParseError {
    /// 1-based line number in the parsed text.
    pub line: usize,
    /// 1-based byte column.
    pub column: usize,
    /// The field being read, e.g. "pointer offset".
    pub field: String,
    /// The offending token ("end of line" when a field is missing).
    pub found: String,
    pub expected: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}: found {}, expected {}",
            self.line, self.column, self.field, self.found, self.expected
        )
    }
}

fn quote(s: &str) -> String {
    const MAX: usize = 40;
    if s.len() > MAX {
        let mut end = MAX;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("`{}...`", &s[..end])
    } else {
        format!("`{s}`")
    }
}

const END: &str = "end of line";

/// Splits text into lines, remembering each terminator.
pub(crate) fn split_lines(text: &str) -> impl Iterator<Item = (&str, Eol)> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        match find_newline(rest.as_bytes()) {
            Some(n) => {
                let (line, eol) = if n > 0 && rest.as_bytes()[n - 1] == b'\r' {
                    (&rest[..n - 1], Eol::CrLf)
                } else {
                    (&rest[..n], Eol::Lf)
                };
                rest = &rest[n + 1..];
                Some((line, eol))
            }
            None => {
                let line = rest;
                rest = "";
                Some((line, Eol::None))
            }
        }
    })
}

/// The first `\n` of `bytes`. Metadata lines are a few dozen bytes: their
/// first 64 bytes are scanned eight at a time inline (memchr's call and
/// setup cost more than such a line), longer lines are left to memchr.
#[inline]
fn find_newline(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut at = 0;
    while at < 64 {
        let Some(chunk) = bytes.get(at..at + 8) else {
            return bytes
                .get(at..)?
                .iter()
                .position(|&b| b == b'\n')
                .map(|n| at + n);
        };
        let Ok(chunk) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let x = u64::from_le_bytes(chunk) ^ (ONES * u64::from(b'\n'));
        // The lowest byte of x that is zero (a newline) sets its top bit
        // here; bytes above it may too, so only the lowest counts.
        let found = x.wrapping_sub(ONES) & !x & (ONES << 7);
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    memchr::memchr(b'\n', bytes.get(at..)?).map(|n| at + n)
}

/// Checks `bytes` is UTF-8, reporting the first bad byte by line and column.
pub(crate) fn utf8(bytes: &[u8], first_line: usize) -> Result<&str, ParseError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let before = &bytes[..at];
        let line = first_line + memchr::memchr_iter(b'\n', before).count();
        let col = at - memchr::memrchr(b'\n', before).map_or(0, |p| p + 1) + 1;
        ParseError {
            line,
            column: col,
            field: "text".into(),
            found: format!("byte {:#04x}", bytes[at]),
            expected: "UTF-8 text".into(),
        }
    })
}

/// Parses one block: `;ARGSTART:NAME` line, entries, `;ARGEND:NAME` line.
pub fn parse_metadata(bytes: &[u8]) -> Result<Metadata<'_>, ParseError> {
    parse_metadata_at(bytes, 1)
}

/// As [`parse_metadata`], numbering lines from `first_line` (for blocks cut out of a larger text).
pub fn parse_metadata_at(bytes: &[u8], first_line: usize) -> Result<Metadata<'_>, ParseError> {
    parse_block(utf8(bytes, first_line)?, first_line)
}

/// One block of text already checked to be UTF-8 (`find_blocks` and
/// `parse_blocks` check the whole text once, not each block again).
fn parse_block(text: &str, first_line: usize) -> Result<Metadata<'_>, ParseError> {
    let mut lines = split_lines(text)
        .enumerate()
        .map(|(i, (l, e))| (i + first_line, l, e));
    let Some((n, first, start_eol)) = lines.next() else {
        return Err(ParseError {
            line: first_line,
            column: 1,
            field: "block start".into(),
            found: "empty input".into(),
            expected: "`;ARGSTART:<function>`".into(),
        });
    };
    let Some(name) = first.strip_prefix(";ARGSTART:") else {
        return Err(ParseError {
            line: n,
            column: 1,
            field: "block start".into(),
            found: quote(first),
            expected: "`;ARGSTART:<function>`".into(),
        });
    };
    // One tag and length per terminator, so those columns never regrow;
    // the count is bounded by the text, not by anything it claims.
    let terminators = memchr::memchr_iter(b'\n', text.as_bytes()).count();
    let cap = terminators.min(limits::MAX_METADATA_LINES);
    let mut body = Body {
        text: Cow::Borrowed(""),
        heads: Vec::with_capacity(cap),
        counts: Vec::with_capacity(cap),
        // Most lines take a few words; more grow the vector (it holds at
        // most about one word per byte of text).
        words: Vec::with_capacity(cap.saturating_mul(4)),
        printf: Vec::new(),
    };
    let body_start = first.len() + start_eol.as_str().len();
    let mut pos = body_start;
    // Ids of a long `;function:` list, parsed here before the line is encoded.
    let mut ids = Vec::new();
    for (n, line, eol) in lines.by_ref() {
        if let Some(end_name) = line.strip_prefix(";ARGEND:") {
            if let Some((n2, extra, _)) = lines.next() {
                return Err(ParseError {
                    line: n2,
                    column: 1,
                    field: "block end".into(),
                    found: quote(extra),
                    expected: "nothing after `;ARGEND:` (one block per input)".into(),
                });
            }
            body.text = Cow::Borrowed(text.get(body_start..pos).unwrap_or(""));
            return Ok(Metadata {
                name: Cow::Borrowed(name),
                end_name: Cow::Borrowed(end_name),
                start_eol,
                end_eol: eol,
                body,
            });
        }
        if body.line_count() >= limits::MAX_METADATA_LINES {
            return Err(ParseError {
                line: n,
                column: 1,
                field: "block".into(),
                found: format!("more than {} lines", limits::MAX_METADATA_LINES),
                expected: "a smaller block".into(),
            });
        }
        fill_line(&mut body, line, n, eol, &mut ids)?;
        pos += line.len() + eol.as_str().len();
    }
    Err(ParseError {
        line: first_line + text.lines().count().max(1) - 1,
        column: 1,
        field: "block end".into(),
        found: "end of input".into(),
        expected: format!("`;ARGEND:{name}`"),
    })
}

/// Parses every block of a text holding only metadata blocks (blank lines
/// between blocks are allowed), e.g. the metadata of all kernels of a program.
pub fn parse_blocks(bytes: &[u8]) -> Result<Vec<Metadata<'_>>, ParseError> {
    let text = utf8(bytes, 1)?;
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte offset, line number)
    let mut pos = 0;
    for (i, (line, eol)) in split_lines(text).enumerate() {
        let n = i + 1;
        let end = pos + line.len() + eol.as_str().len();
        match start {
            None if line.starts_with(";ARGSTART:") => start = Some((pos, n)),
            None if line.trim().is_empty() => {}
            None => {
                return Err(ParseError {
                    line: n,
                    column: 1,
                    field: "block start".into(),
                    found: quote(line),
                    expected: "`;ARGSTART:<function>`".into(),
                })
            }
            Some((from, first)) if line.starts_with(";ARGEND:") => {
                if out.len() >= limits::MAX_KERNELS {
                    return Err(ParseError {
                        line: n,
                        column: 1,
                        field: "blocks".into(),
                        found: format!("more than {}", limits::MAX_KERNELS),
                        expected: "fewer blocks".into(),
                    });
                }
                out.push(parse_block(&text[from..end], first)?);
                start = None;
            }
            Some(_) => {}
        }
        pos = end;
    }
    if let Some((from, first)) = start {
        // Let the block parser report the missing `;ARGEND`.
        parse_block(&text[from..], first)?;
    }
    Ok(out)
}

/// Finds and parses every `;ARGSTART`..`;ARGEND` block of a larger text
/// (an IL program, a log), ignoring what lies between blocks. Returns each
/// block with the 1-based line of its `;ARGSTART`.
pub fn find_blocks(bytes: &[u8]) -> Result<Vec<(usize, Metadata<'_>)>, ParseError> {
    let text = utf8(bytes, 1)?;
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    let mut pos = 0;
    for (i, (line, eol)) in split_lines(text).enumerate() {
        let end = pos + line.len() + eol.as_str().len();
        match start {
            None if line.starts_with(";ARGSTART:") => start = Some((pos, i + 1)),
            Some((from, first)) if line.starts_with(";ARGEND:") => {
                if out.len() >= limits::MAX_KERNELS {
                    return Err(ParseError {
                        line: i + 1,
                        column: 1,
                        field: "blocks".into(),
                        found: format!("more than {}", limits::MAX_KERNELS),
                        expected: "fewer blocks".into(),
                    });
                }
                out.push((first, parse_block(&text[from..end], first)?));
                start = None;
            }
            _ => {}
        }
        pos = end;
    }
    if let Some((from, first)) = start {
        parse_block(&text[from..], first)?;
    }
    Ok(out)
}

/// Parses one entry line (without its terminator).
pub fn parse_line(line: &str, line_no: usize, eol: Eol) -> Result<Line<'_>, ParseError> {
    let mut body = Body::default();
    fill_line(&mut body, line, line_no, eol, &mut Vec::new())?;
    body.text = Cow::Borrowed(line);
    // The body holds the one line just parsed; its entry is detached from the body.
    let parsed = body
        .lines()
        .next()
        .map(|l| (l.entry.into_owned(), l.raw.is_some()));
    Ok(match parsed {
        Some((entry, raw)) => Line {
            entry,
            raw: raw.then_some(line),
            eol,
        },
        None => Line::new(Entry::LimitGroupSize),
    })
}

/// Parses one entry line into the next slot of `body` (its tag, length and
/// words; the caller accounts for its text). `ids` is scratch for long id lists.
fn fill_line(
    body: &mut Body<'_>,
    line: &str,
    line_no: usize,
    eol: Eol,
    ids: &mut Vec<u32>,
) -> Result<(), ParseError> {
    if line.len() > limits::MAX_LINE_LEN {
        return Err(ParseError {
            line: line_no,
            column: 1,
            field: "line".into(),
            found: format!("{} bytes", line.len()),
            expected: format!("at most {} bytes", limits::MAX_LINE_LEN),
        });
    }
    let start = body.words.len();
    // At most MAX_LINE_LEN bytes (checked above).
    let line_len = line.len() as u32;
    let (kind, form) = parse_entry(line, line_no, ids, &mut body.encoder(line_len))?;
    // The parse knows whether the entry prints back as `line`: every field is
    // taken verbatim except numbers, which print without leading zeros.
    // Printf format strings are decoded, so only printing them again tells.
    let words = body.words.get(start..).unwrap_or(&[]);
    let canonical = match form {
        Form::Canonical => true,
        Form::Rewritten => false,
        Form::PrintToCompare => {
            entry_to_string(&decode(kind, line, words, &body.printf)) == line.as_bytes()
        }
    };
    #[cfg(debug_assertions)]
    {
        let entry = decode(kind, line, words, &body.printf);
        debug_assert_eq!(
            canonical,
            entry_to_string(&entry) == line.as_bytes(),
            "canonical form decided wrongly for {line:?}"
        );
    }
    body.end_line(start, kind, line_len, eol, !canonical);
    Ok(())
}

/// Whether a parsed line prints back as written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    Canonical,
    /// A number had leading zeros.
    Rewritten,
    /// Undecided by the parse (printf format strings).
    PrintToCompare,
}

struct Cursor<'a> {
    text: &'a str,
    /// Start of the next field.
    pos: usize,
    /// No more fields (the last one was not followed by `:`).
    done: bool,
    line: usize,
    key: &'a str,
    /// Every number read so far was written without leading zeros.
    canonical: bool,
}

impl<'a> Cursor<'a> {
    #[cold]
    #[inline(never)]
    fn err(
        &self,
        at: usize,
        field: &str,
        found: String,
        expected: impl Into<String>,
    ) -> ParseError {
        ParseError {
            line: self.line,
            column: at + 1,
            field: format!("{} {field}", self.key),
            found,
            expected: expected.into(),
        }
    }

    #[inline(always)]
    fn field(&mut self, name: &str, expected: &str) -> Result<(&'a str, usize), ParseError> {
        if self.done {
            return Err(self.err(
                self.text.len(),
                name,
                END.into(),
                format!("`:` and {expected}"),
            ));
        }
        let start = self.pos;
        // Fields are a few bytes long: a plain scan beats memchr's setup.
        match self.text.as_bytes()[start..]
            .iter()
            .position(|&b| b == b':')
        {
            Some(n) => {
                self.pos = start + n + 1;
                Ok((&self.text[start..start + n], start))
            }
            None => {
                self.pos = self.text.len();
                self.done = true;
                Ok((&self.text[start..], start))
            }
        }
    }

    /// A non-empty name. The field is read out of line and only its length
    /// comes back: a returned `&str` is read back from memory at once, whole,
    /// which stalls on the two halves just stored.
    #[inline(always)]
    fn name(&mut self, name: &str) -> Result<Cow<'a, str>, ParseError> {
        let start = self.pos;
        let len = self.name_len(name)?;
        Ok(Cow::Borrowed(
            self.text.get(start..start + len).unwrap_or_default(),
        ))
    }

    #[inline]
    fn name_len(&mut self, name: &str) -> Result<usize, ParseError> {
        let (tok, at) = self.field(name, "a name")?;
        if tok.is_empty() {
            return Err(self.err(at, name, "an empty field".into(), "a name"));
        }
        Ok(tok.len())
    }

    /// Everything to the end of the line (may contain `:`).
    #[inline]
    fn rest(&mut self, name: &str, expected: &str) -> Result<&'a str, ParseError> {
        if self.done {
            return Err(self.err(
                self.text.len(),
                name,
                END.into(),
                format!("`:` and {expected}"),
            ));
        }
        let r = &self.text[self.pos..];
        self.pos = self.text.len();
        self.done = true;
        Ok(r)
    }

    /// A decimal field, noting whether it is written canonically.
    fn decimal(&mut self, tok: &str) -> Option<u64> {
        self.canonical &= !has_leading_zero(tok);
        parse_decimal(tok)
    }

    fn u64(&mut self, name: &str) -> Result<u64, ParseError> {
        let (tok, at) = self.field(name, "a decimal integer")?;
        self.decimal(tok)
            .ok_or_else(|| self.err(at, name, quote_or_empty(tok), "a decimal integer"))
    }

    #[inline]
    fn u32(&mut self, name: &str) -> Result<u32, ParseError> {
        if let Some(v) = self.short_u32() {
            return Ok(v);
        }
        self.u32_field(name)
    }

    /// The common field in one pass: 1 to 9 digits without a leading zero
    /// (so below 2^32 and canonical), then `:` or the end of the line.
    /// Anything else is left to [`Cursor::u32_field`] and its diagnostics.
    #[inline]
    fn short_u32(&mut self) -> Option<u32> {
        if self.done {
            return None;
        }
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let digits = bytes.get(start..)?;
        let mut v: u32 = 0;
        let mut n = 0;
        for &b in digits.iter().take(9) {
            let d = b.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            v = v * 10 + u32::from(d);
            n += 1;
        }
        if n == 0 || (n > 1 && digits[0] == b'0') {
            return None;
        }
        match digits.get(n) {
            None => {
                self.pos = bytes.len();
                self.done = true;
            }
            Some(b':') => self.pos = start + n + 1,
            Some(_) => return None,
        }
        Some(v)
    }

    #[cold]
    #[inline(never)]
    fn u32_field(&mut self, name: &str) -> Result<u32, ParseError> {
        let (tok, at) = self.field(name, "a decimal integer")?;
        self.decimal(tok)
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| {
                self.err(
                    at,
                    name,
                    quote_or_empty(tok),
                    "a decimal integer below 2^32",
                )
            })
    }

    #[inline]
    fn flag(&mut self, name: &str) -> Result<bool, ParseError> {
        let (tok, at) = self.field(name, "0 or 1")?;
        match tok {
            "0" => Ok(false),
            "1" => Ok(true),
            _ => Err(self.err(at, name, quote_or_empty(tok), "0 or 1")),
        }
    }

    #[inline]
    fn choice<T>(
        &mut self,
        name: &str,
        expected: &str,
        f: impl Fn(&str) -> Option<T>,
    ) -> Result<T, ParseError> {
        let (tok, at) = self.field(name, expected)?;
        f(tok).ok_or_else(|| self.err(at, name, quote_or_empty(tok), expected))
    }

    #[inline]
    fn end(&self) -> Result<(), ParseError> {
        if self.done {
            Ok(())
        } else {
            let at = self.pos.saturating_sub(1);
            Err(self.err(at, "end", quote(&self.text[at..]), END))
        }
    }

    fn form(&self) -> Form {
        if self.canonical {
            Form::Canonical
        } else {
            Form::Rewritten
        }
    }

    fn remaining_fields(&self) -> usize {
        if self.done {
            0
        } else {
            1 + memchr::memchr_iter(b':', &self.text.as_bytes()[self.pos..]).count()
        }
    }
}

fn quote_or_empty(tok: &str) -> String {
    if tok.is_empty() {
        "an empty field".into()
    } else {
        quote(tok)
    }
}

/// Decimal digits only; no sign, no spaces. Leading zeros are accepted (the
/// line then keeps its raw text so it prints back unchanged).
pub(crate) fn parse_decimal(tok: &str) -> Option<u64> {
    if tok.is_empty() {
        return None;
    }
    let mut v: u64 = 0;
    for b in tok.bytes() {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v.checked_mul(10)?.checked_add(u64::from(d))?;
    }
    Some(v)
}

/// `007` prints back as `7`.
fn has_leading_zero(tok: &str) -> bool {
    tok.len() > 1 && tok.as_bytes()[0] == b'0'
}

/// Parses a line's entry and encodes it through `out`; returns its kind and
/// whether it prints back as written. Each key encodes its own variant (so
/// the inlined [`encode`] knows it). `ids` is scratch for long id lists.
fn parse_entry(
    line: &str,
    line_no: usize,
    ids: &mut Vec<u32>,
    out: &mut Columns<'_>,
) -> Result<(u8, Form), ParseError> {
    let Some(body) = line.strip_prefix(';') else {
        return Err(ParseError {
            line: line_no,
            column: 1,
            field: "line".into(),
            found: quote_or_empty(line),
            expected: "`;` starting a metadata entry".into(),
        });
    };
    // Keys are a few bytes long: a plain scan beats memchr's setup.
    let (key, has_fields) = match body.as_bytes().iter().position(|&b| b == b':') {
        Some(n) => (&body[..n], true),
        None => (body, false),
    };
    let mut c = Cursor {
        text: line,
        pos: if has_fields {
            1 + key.len() + 1
        } else {
            line.len()
        },
        done: !has_fields,
        line: line_no,
        key,
        canonical: true,
    };
    let kind = match key {
        "value" => {
            let name = c.name("name")?;
            let data_type = c.choice("type", DataType::EXPECTED, DataType::from_name)?;
            let count = c.u32("count")?;
            let cb = c.u32("cb")?;
            let offset = c.u32("offset")?;
            c.end()?;
            encode(
                Entry::Value(ValueArg {
                    name,
                    data_type,
                    count,
                    cb,
                    offset,
                }),
                out,
            )
        }
        "pointer" => {
            let name = c.name("name")?;
            let data_type = c.choice("type", DataType::EXPECTED, DataType::from_name)?;
            let count = c.u32("count")?;
            let cb = c.u32("cb")?;
            let offset = c.u32("offset")?;
            let mem_type = c.choice("memory type", MemType::EXPECTED, MemType::from_name)?;
            let buffer = c.u32("buffer id")?;
            let align = c.u32("alignment")?;
            let qualifiers = if c.done {
                None
            } else {
                let access = c.choice("access", Access::EXPECTED, Access::from_name)?;
                let volatile = c.flag("volatile")?;
                let restrict = c.flag("restrict")?;
                Some(PointerQualifiers {
                    access,
                    volatile,
                    restrict,
                })
            };
            c.end()?;
            encode(
                Entry::Pointer(PointerArg {
                    name,
                    data_type,
                    count,
                    cb,
                    offset,
                    mem_type,
                    buffer,
                    align,
                    qualifiers,
                }),
                out,
            )
        }
        "memory" => {
            let kind = parse_memory(&mut c, line, out)?;
            return Ok((kind, c.form()));
        }
        "reflection" => {
            let index = c.u32("argument index")?;
            let type_name = Cow::Borrowed(c.rest("type name", "a type name")?);
            encode(Entry::Reflection { index, type_name }, out)
        }
        "constarg" => {
            let index = c.u32("argument index")?;
            let name = Cow::Borrowed(c.rest("name", "an argument name")?);
            encode(Entry::ConstArg { index, name }, out)
        }
        "version" => {
            let major = c.u32("major")?;
            let minor = c.u32("minor")?;
            let revision = c.u32("revision")?;
            c.end()?;
            encode(
                Entry::Version {
                    major,
                    minor,
                    revision,
                },
                out,
            )
        }
        "device" => encode(
            Entry::Device(Cow::Borrowed(c.rest("name", "a device name")?)),
            out,
        ),
        "uniqueid" => encode(Entry::UniqueId(one(&mut c, "id")?), out),
        "uavid" => encode(Entry::UavId(one(&mut c, "id")?), out),
        "printfid" => encode(Entry::PrintfId(one(&mut c, "id")?), out),
        "cbid" => encode(Entry::CbId(one(&mut c, "id")?), out),
        "privateid" => encode(Entry::PrivateId(one(&mut c, "id")?), out),
        "lws" => encode(Entry::Lws(one(&mut c, "size")?), out),
        "printf_fmt" => {
            let p = parse_printf(&mut c)?;
            let kind = encode(Entry::PrintfFmt(Cow::Owned(p)), out);
            return Ok((kind, Form::PrintToCompare));
        }
        "image" => {
            let name = c.name("name")?;
            let dim = c.choice("dimension", ImageDim::EXPECTED, ImageDim::from_name)?;
            let access = c.choice("access", Access::EXPECTED, Access::from_name)?;
            let id = c.u32("id")?;
            let cb = c.u32("cb")?;
            let offset = c.u32("offset")?;
            c.end()?;
            encode(
                Entry::Image(ImageArg {
                    name,
                    dim,
                    access,
                    id,
                    cb,
                    offset,
                }),
                out,
            )
        }
        "sampler" => {
            let name = c.name("name")?;
            let id = c.u32("id")?;
            let location = c.u32("location")?;
            let value = c.u32("value")?;
            c.end()?;
            encode(
                Entry::Sampler(SamplerEntry {
                    name,
                    id,
                    location,
                    value,
                }),
                out,
            )
        }
        "counter" => {
            let name = c.name("name")?;
            let bits = c.u32("element bits")?;
            let id = c.u32("id")?;
            let cb = c.u32("cb")?;
            let offset = c.u32("offset")?;
            c.end()?;
            encode(
                Entry::Counter(CounterArg {
                    name,
                    bits,
                    id,
                    cb,
                    offset,
                }),
                out,
            )
        }
        "function" | "intrinsic" => {
            let mut short = [0; 16];
            let ids = Cow::Borrowed(id_list(&mut c, &mut short, ids)?);
            if key == "function" {
                encode(Entry::Function(ids), out)
            } else {
                encode(Entry::Intrinsic(ids), out)
            }
        }
        "cws" => {
            let x = c.u32("x")?;
            let y = c.u32("y")?;
            let z = c.u32("z")?;
            c.end()?;
            encode(Entry::Cws([x, y, z]), out)
        }
        "limitgroupsize" => {
            c.end()?;
            encode(Entry::LimitGroupSize, out)
        }
        "error" => encode(
            Entry::Error(Cow::Borrowed(c.rest("message", "a message")?)),
            out,
        ),
        "warning" => encode(
            Entry::Warning(Cow::Borrowed(c.rest("message", "a message")?)),
            out,
        ),
        _ => {
            if key.is_empty() {
                return Err(ParseError {
                    line: line_no,
                    column: 2,
                    field: "key".into(),
                    found: quote_or_empty(body),
                    expected: "a key after `;`".into(),
                });
            }
            let rest = if has_fields {
                line.get(key.len() + 2..).map(Cow::Borrowed)
            } else {
                None
            };
            encode(
                Entry::Unknown {
                    key: Cow::Borrowed(key),
                    rest,
                },
                out,
            )
        }
    };
    Ok((kind, c.form()))
}

fn one(c: &mut Cursor, name: &str) -> Result<u32, ParseError> {
    let v = c.u32(name)?;
    c.end()?;
    Ok(v)
}

/// `COUNT:ID...`: the ids, in `short` when they fit (real lists have a few;
/// no allocation), else in `long`.
fn id_list<'x>(
    c: &mut Cursor,
    short: &'x mut [u32],
    long: &'x mut Vec<u32>,
) -> Result<&'x [u32], ParseError> {
    let (tok, at) = c.field("count", "a decimal integer")?;
    let count = c
        .decimal(tok)
        .ok_or_else(|| c.err(at, "count", quote_or_empty(tok), "a decimal integer"))?;
    let present = c.remaining_fields();
    if count != present as u64 {
        return Err(c.err(
            at,
            "count",
            quote(tok),
            format!("the number of ids that follow ({present})"),
        ));
    }
    if present > limits::MAX_LIST_LEN {
        return Err(c.err(
            at,
            "count",
            quote(tok),
            format!("at most {} ids", limits::MAX_LIST_LEN),
        ));
    }
    let ids = match short.get_mut(..present) {
        Some(ids) => {
            for id in ids.iter_mut() {
                *id = c.u32("id")?;
            }
            &*ids
        }
        None => {
            long.clear();
            // `present` fields are in the line, so this reserves what the text holds.
            long.reserve(present);
            for _ in 0..present {
                long.push(c.u32("id")?);
            }
            long.as_slice()
        }
    };
    c.end()?;
    Ok(ids)
}

fn parse_printf(c: &mut Cursor<'_>) -> Result<PrintfFmt, ParseError> {
    let id = c.u32("id")?;
    let (tok, at) = c.field("argument count", "a decimal integer")?;
    let n = parse_decimal(tok).ok_or_else(|| {
        c.err(
            at,
            "argument count",
            quote_or_empty(tok),
            "a decimal integer",
        )
    })?;
    // Each size needs at least two bytes ("4:"), so a count the line cannot hold is rejected before allocating.
    if n > limits::MAX_LIST_LEN as u64 || n as usize > c.remaining_fields() {
        return Err(c.err(
            at,
            "argument count",
            quote(tok),
            format!(
                "at most the {} fields that follow",
                c.remaining_fields().saturating_sub(2)
            ),
        ));
    }
    let mut arg_sizes = Vec::with_capacity(n as usize);
    for _ in 0..n {
        arg_sizes.push(c.u32("argument size")?);
    }
    let len = c.u64("string length")?;
    let start = c.pos;
    let bytes = &c.text.as_bytes()[start.min(c.text.len())..];
    if c.done || len > bytes.len() as u64 {
        return Err(c.err(
            start.min(c.text.len()),
            "format string",
            quote(&c.text[start.min(c.text.len())..]),
            format!("a format string of {len} decoded bytes"),
        ));
    }
    let Some((format, used)) = printf::decode(bytes, len as usize) else {
        return Err(c.err(
            start,
            "format string",
            quote(&c.text[start..]),
            format!("a format string of {len} decoded bytes"),
        ));
    };
    let after = &bytes[used..];
    let terminated = match after {
        [] => false,
        [b';'] => true,
        _ => {
            return Err(c.err(
                start + used,
                "terminator",
                quote(std::str::from_utf8(after).unwrap_or("?")),
                "`;` ending the format string",
            ))
        }
    };
    if std::str::from_utf8(&format).is_err() {
        return Err(c.err(
            start,
            "format string",
            "a split UTF-8 character".into(),
            "whole characters",
        ));
    }
    Ok(PrintfFmt {
        id,
        arg_sizes,
        format,
        terminated,
    })
}

/// `;memory:SPACE:SIZE` or `;memory:FLAG`; unknown spaces keep whatever
/// follows, typed only when it is a plain size (else the line is `Unknown`).
fn parse_memory(c: &mut Cursor<'_>, line: &str, out: &mut Columns<'_>) -> Result<u8, ParseError> {
    let (name, at) = c.field("space", "a memory space or flag")?;
    if name.is_empty() {
        return Err(c.err(
            at,
            "space",
            "an empty field".into(),
            "a memory space or flag",
        ));
    }
    let kind = MemoryKind::from_name(name);
    let mut memory = |kind, size| encode(Entry::Memory(Memory { kind, size }), out);
    if kind.is_flag() {
        c.end()?;
        return Ok(memory(kind, None));
    }
    if let MemoryKind::Other(_) = kind {
        if c.done {
            return Ok(memory(kind, None));
        }
        let rest = &line[c.pos..];
        if let Some(v) = parse_decimal(rest) {
            c.canonical &= !has_leading_zero(rest);
            return Ok(memory(kind, Some(v)));
        }
        // Not a size: the line is kept as an unknown `memory` entry.
        let rest = line.get(at..).map(Cow::Borrowed);
        let key = Cow::Borrowed("memory");
        return Ok(encode(Entry::Unknown { key, rest }, out));
    }
    let v = c.u64("size")?;
    c.end()?;
    Ok(memory(kind, Some(v)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The inline newline scan agrees with memchr at every position and
    /// length, across its 8-byte steps and the 64-byte hand-over.
    #[test]
    fn newline_scan_agrees_with_memchr() {
        for len in 0..90 {
            for at in 0..=len {
                let mut bytes = vec![b'a'; len];
                if at < len {
                    bytes[at] = b'\n';
                }
                // Bytes that differ from `\n` by one bit or borrow, after it.
                if at + 1 < len {
                    bytes[at + 1] = b'\x0b';
                }
                assert_eq!(
                    find_newline(&bytes),
                    memchr::memchr(b'\n', &bytes),
                    "{len} {at}"
                );
                if at > 0 && at < len {
                    bytes[at - 1] = b'\x09';
                    assert_eq!(find_newline(&bytes), memchr::memchr(b'\n', &bytes));
                }
            }
        }
    }

    /// The one-pass decimal agrees with the full field path on what it takes,
    /// and leaves the rest to it (leading zeros, ten digits, overflow, empty
    /// and non-digit fields, no field at all).
    #[test]
    fn short_decimal_agrees_with_the_field_path() {
        for text in [
            ";x:0",
            ";x:7:1",
            ";x:123456789",
            ";x:007",
            ";x:00",
            ";x:1234567890",
            ";x:4294967295",
            ";x:4294967296",
            ";x:",
            ";x:1a",
            ";x::",
            ";x",
        ] {
            let has_fields = text.len() > 2;
            let cursor = || Cursor {
                text,
                pos: if has_fields { 3 } else { text.len() },
                done: !has_fields,
                line: 1,
                key: "x",
                canonical: true,
            };
            let (mut fast, mut full) = (cursor(), cursor());
            assert_eq!(fast.u32("f"), full.u32_field("f"), "{text}");
            assert_eq!(
                (fast.pos, fast.done, fast.canonical),
                (full.pos, full.done, full.canonical),
                "{text}"
            );
        }
    }
}
