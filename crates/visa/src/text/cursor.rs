//! A cursor over one line of vISA text that knows its line and column.

use super::diagnostic::Diagnostic;

#[derive(Clone, Copy)]
pub struct LineCursor<'a> {
    pub text: &'a str,
    pub pos: usize,
    pub line: usize,
    /// Where the text's trailing blanks start, when the caller knows (else its length):
    /// `at_end` there needs no scan over IGC's padding.
    pub content_end: usize,
}

/// Boxed: results pass through every parsing call, and a bare diagnostic made each
/// one ~100 bytes copied through the stack.
pub type PResult<T> = Result<T, Box<Diagnostic>>;

/// Name characters (`ident`): ASCII letters, digits, `_`, `%`, `$` and `@`, one table
/// lookup per byte.
static NAME_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = b.is_ascii_alphanumeric() || matches!(b, b'_' | b'%' | b'$' | b'@');
        i += 1;
    }
    t
};

#[inline]
pub fn is_name_byte(b: u8) -> bool {
    NAME_BYTES[b as usize]
}

/// The value of each hex digit, `0xFF` for other bytes.
static HEX_DIGITS: [u8; 256] = {
    let mut t = [0xFF; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            b'A'..=b'F' => b - b'A' + 10,
            _ => 0xFF,
        };
        i += 1;
    }
    t
};

/// Eight spaces, compared as one word (a slice comparison calls `bcmp`).
#[inline]
pub fn is_8_spaces(b: &[u8]) -> bool {
    b.len() == 8
        && u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
            == u64::from_le_bytes(*b"        ")
}

/// The ASCII blanks `skip_ws` passes over.
#[inline]
const fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0b' | b'\x0c')
}

/// Per byte: ASCII and not a blank, so a token starts there (one load, where the two
/// tests took a chain of compares on every operand).
static TOKEN_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 128 {
        t[i] = !is_blank(i as u8);
        i += 1;
    }
    t
};

#[inline]
fn is_token_byte(b: u8) -> bool {
    TOKEN_BYTE[b as usize]
}

/// Longest token quoted in a message.
const MAX_TOKEN_CHARS: usize = 64;

impl<'a> LineCursor<'a> {
    pub fn new(text: &'a str, line: usize) -> Self {
        LineCursor {
            text,
            pos: 0,
            line,
            content_end: text.len(),
        }
    }
    pub fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }
    #[inline]
    pub fn at_end(&self) -> bool {
        if self.pos >= self.content_end {
            return true;
        }
        // Right after `skip_ws` (the usual case) one byte decides.
        match self.text.as_bytes().get(self.pos) {
            None => return true,
            Some(&b) if is_token_byte(b) => return false,
            Some(_) => {}
        }
        self.at_end_slow()
    }
    #[inline(never)]
    fn at_end_slow(&self) -> bool {
        // ASCII blanks decided byte by byte; anything else as `str::trim` sees it.
        let r = self.rest();
        match r
            .bytes()
            .position(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0b' | b'\x0c'))
        {
            None => true,
            Some(i) if r.as_bytes()[i].is_ascii() => false,
            Some(i) => r[i..].trim().is_empty(),
        }
    }
    #[inline]
    pub fn peek(&self) -> Option<char> {
        // ASCII without decoding; anything else as `chars` sees it.
        match self.text.as_bytes().get(self.pos) {
            Some(&b) if b.is_ascii() => Some(b as char),
            None => None,
            Some(_) => self.rest().chars().next(),
        }
    }
    #[inline]
    pub fn skip_ws(&mut self) {
        let b = self.text.as_bytes();
        let mut i = self.pos;
        // Most calls find a token or a single space: one or two byte tests.
        if i >= self.content_end {
            // Only trailing blanks left: as if skipped.
            self.pos = b.len();
            return;
        }
        match b.get(i) {
            Some(&c) if is_token_byte(c) => return,
            Some(b' ') if b.get(i + 1).is_some_and(|&c| is_token_byte(c)) => {
                self.pos = i + 1;
                return;
            }
            None => return,
            _ => {}
        }
        while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\r' | b'\n' | b'\x0b' | b'\x0c') {
            i += 1;
            // IGC pads operands and comments with long runs of spaces.
            while b.get(i..i + 8).is_some_and(is_8_spaces) {
                i += 8;
            }
        }
        if i < b.len() && !b[i].is_ascii() {
            // Unicode blanks as `str::trim_start` sees them.
            let r = &self.text[i..];
            i += r.len() - r.trim_start().len();
        }
        self.pos = i;
    }
    #[inline]
    pub fn eat(&mut self, lit: &str) -> bool {
        // A byte loop: literals are a few bytes, shorter than a `memcmp` call.
        let (r, l) = (&self.text.as_bytes()[self.pos..], lit.as_bytes());
        if r.len() >= l.len() && r.iter().zip(l).all(|(a, b)| a == b) {
            self.pos += lit.len();
            true
        } else {
            false
        }
    }
    /// The next token, for messages: up to whitespace or punctuation after the first character.
    pub fn token(&self) -> String {
        let r = self.rest();
        let end = r
            .char_indices()
            .skip(1)
            .find(|(_, c)| {
                c.is_whitespace() || matches!(c, ',' | ')' | '(' | '<' | '>' | '[' | ']')
            })
            .map_or(r.len(), |(i, _)| i);
        // Messages quote a token, not a hostile file's 100 MB run of letters.
        match r[..end].char_indices().nth(MAX_TOKEN_CHARS) {
            Some((cut, _)) => format!("{}...", &r[..cut]),
            None => r[..end].to_string(),
        }
    }
    pub fn err(&self, message: impl Into<String>, expected: impl Into<String>) -> Box<Diagnostic> {
        Box::new(Diagnostic {
            line: self.line,
            col: self.text[..self.pos].chars().count() + 1,
            message: message.into(),
            token: self.token(),
            expected: expected.into(),
        })
    }
    #[inline]
    pub fn expect(&mut self, lit: &str) -> PResult<()> {
        if self.eat(lit) {
            Ok(())
        } else {
            Err(self.expected(lit))
        }
    }
    #[cold]
    #[inline(never)]
    fn expected(&self, lit: &str) -> Box<Diagnostic> {
        self.err(format!("expected `{lit}`"), format!("`{lit}`"))
    }
    /// A name: letters, digits, `_`, `%`, `$` and `@`.
    #[inline]
    pub fn ident(&mut self) -> PResult<&'a str> {
        let len = self.name_len();
        if len == 0 {
            return Err(self.expected_name());
        }
        let start = self.pos;
        self.pos += len;
        // Name characters are ASCII: the name ends on a character boundary.
        Ok(&self.text[start..start + len])
    }
    #[cold]
    #[inline(never)]
    fn expected_name(&self) -> Box<Diagnostic> {
        self.err("expected a name", "a name")
    }
    /// The length of the name at the cursor (0 when none starts there).
    #[inline]
    pub fn name_len(&self) -> usize {
        let b = &self.text.as_bytes()[self.pos..];
        b.iter().position(|&c| !is_name_byte(c)).unwrap_or(b.len())
    }
    /// An integer: decimal, or hex with `0x`; an optional leading `-`.
    /// An integer expression: numbers (decimal, or hex with `0x`, optionally negated)
    /// joined by `+ - * /` with the usual precedence, left to right, as the assembly
    /// syntax's operators allow. An operator counts only when a number follows it.
    pub fn int(&mut self) -> PResult<i64> {
        if let Some((v, len)) = self.plain_number() {
            self.pos += len;
            return Ok(v as i64);
        }
        let mut sum = self.term()?;
        loop {
            let save = self.pos;
            let op = match self.peek() {
                Some(c @ ('+' | '-')) => c,
                _ => return Ok(sum),
            };
            self.pos += 1;
            if !self.rest().starts_with(|c: char| c.is_ascii_digit()) {
                self.pos = save;
                return Ok(sum);
            }
            let t = self.term()?;
            sum = if op == '+' {
                sum.wrapping_add(t)
            } else {
                sum.wrapping_sub(t)
            };
        }
    }

    fn term(&mut self) -> PResult<i64> {
        let mut product = self.number()?;
        loop {
            let save = self.pos;
            let op = match self.peek() {
                Some(c @ ('*' | '/')) => c,
                _ => return Ok(product),
            };
            self.pos += 1;
            if !self.rest().starts_with(|c: char| c.is_ascii_digit()) {
                self.pos = save;
                return Ok(product);
            }
            let at = *self;
            let f = self.number()?;
            product = if op == '*' {
                product.wrapping_mul(f)
            } else if f == 0 {
                return Err(at.err("division by zero", "a non-zero divisor"));
            } else {
                product.wrapping_div(f)
            };
        }
    }

    fn number(&mut self) -> PResult<i64> {
        let start = self.pos;
        let neg = self.eat("-");
        let r = self.rest().as_bytes();
        let (prefix, radix) = if r.starts_with(b"0x") || r.starts_with(b"0X") {
            (2, 16)
        } else {
            (0, 10)
        };
        // Digits are ASCII: accumulate bytewise, overflow as `from_str_radix` reports it.
        let mut v: u64 = 0;
        let mut len = 0;
        let mut overflow = false;
        for &b in &r[prefix..] {
            let Some(d) = (b as char).to_digit(radix) else {
                break;
            };
            match v
                .checked_mul(radix.into())
                .and_then(|x| x.checked_add(d.into()))
            {
                Some(x) => v = x,
                None => overflow = true,
            }
            len += 1;
        }
        if len == 0 {
            self.pos = start;
            return Err(self.err("expected a number", "a number"));
        }
        if overflow {
            return Err(self.err("number out of range", ""));
        }
        self.pos += prefix + len;
        let v = v as i64;
        Ok(if neg { v.wrapping_neg() } else { v })
    }

    /// A decimal or `0x` literal in `0..=i64::MAX` with no operator after it, and its
    /// length: what `int` would read, without its expression machinery. `None` for
    /// anything else (the full path then reads it, with its diagnostics).
    #[inline]
    pub(crate) fn plain_number(&self) -> Option<(u64, usize)> {
        let b = self.text.as_bytes().get(self.pos..)?;
        let (prefix, hex) = match b {
            [b'0', b'x' | b'X', ..] => (2, true),
            _ => (0, false),
        };
        let mut v: u64 = 0;
        let mut len = 0;
        // Up to 15 hex or 18 decimal digits cannot overflow; longer numbers (rare) take
        // the checked loop.
        let quick = if hex { 15 } else { 18 };
        for &d in &b[prefix..] {
            let x = if hex {
                HEX_DIGITS[d as usize]
            } else {
                d.wrapping_sub(b'0')
            };
            if (hex && x == 0xFF) || (!hex && x > 9) {
                break;
            }
            if len == quick {
                return self.plain_number_long();
            }
            v = v * if hex { 16 } else { 10 } + u64::from(x);
            len += 1;
        }
        if len == 0 || matches!(b.get(prefix + len), Some(b'+' | b'-' | b'*' | b'/')) {
            return None;
        }
        Some((v, prefix + len))
    }

    /// `plain_number` for a number too long for its quick loop.
    #[inline(never)]
    fn plain_number_long(&self) -> Option<(u64, usize)> {
        let b = self.text.as_bytes().get(self.pos..)?;
        let (prefix, radix) = if b.starts_with(b"0x") || b.starts_with(b"0X") {
            (2, 16)
        } else {
            (0, 10)
        };
        let mut v: u64 = 0;
        let mut len = 0;
        for &d in &b[prefix..] {
            let Some(x) = (d as char).to_digit(radix) else {
                break;
            };
            v = v.checked_mul(radix.into())?.checked_add(x.into())?;
            len += 1;
        }
        if len == 0 || v > i64::MAX as u64 {
            return None;
        }
        if matches!(b.get(prefix + len), Some(b'+' | b'-' | b'*' | b'/')) {
            return None;
        }
        Some((v, prefix + len))
    }

    #[inline]
    pub fn uint(&mut self, max: u64) -> PResult<u32> {
        match self.plain_number() {
            Some((v, len)) if v <= max && v <= u64::from(u32::MAX) => {
                self.pos += len;
                Ok(v as u32)
            }
            _ => self.uint_expr(max),
        }
    }

    fn uint_expr(&mut self, max: u64) -> PResult<u32> {
        let at = *self;
        let v = self.int()?;
        if v < 0 || v as u64 > max {
            return Err(at.err(
                format!("value {v} out of range 0..={max}"),
                format!("0..={max}"),
            ));
        }
        Ok(v as u32)
    }
    /// A number literal or a parenthesised expression, as IGC's grammar takes a raw
    /// operand's offset (`V33.0`, `V33.(2*32)`): a bare `/` after it is not division
    /// (`raw_sendg ... V33.0/64`).
    pub fn primary_uint(&mut self, max: u64) -> PResult<u32> {
        // A plain literal in range (`V33.0`) as `number` reads it; anything else below.
        match self.plain_number() {
            Some((v, len)) if v <= max && v <= u64::from(u32::MAX) => {
                self.pos += len;
                return Ok(v as u32);
            }
            _ => {}
        }
        let at = *self;
        let v = if self.eat("(") {
            let v = self.int()?;
            self.expect(")")?;
            v
        } else {
            self.number()?
        };
        if v < 0 || v as u64 > max {
            return Err(at.err(
                format!("value {v} out of range 0..={max}"),
                format!("0..={max}"),
            ));
        }
        Ok(v as u32)
    }
    /// A double-quoted string with IGC's escapes.
    pub fn quoted(&mut self) -> PResult<Vec<u8>> {
        self.expect("\"")?;
        let mut out = Vec::new();
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() {
            let c = bytes[self.pos];
            self.pos += 1;
            match c {
                b'"' => return Ok(out),
                b'\\' if self.pos < bytes.len() => {
                    let e = bytes[self.pos];
                    self.pos += 1;
                    out.push(match e {
                        b'a' => 0x07,
                        b'b' => 0x08,
                        b'e' => 0x1B,
                        b'f' => 0x0C,
                        b'n' => b'\n',
                        b'r' => b'\r',
                        b't' => b'\t',
                        b'v' => 0x0B,
                        b'x' => {
                            let hex: String = self.text[self.pos..]
                                .chars()
                                .take_while(|c| c.is_ascii_hexdigit())
                                .take(2)
                                .collect();
                            self.pos += hex.len();
                            u8::from_str_radix(&hex, 16)
                                .map_err(|_| self.err("bad \\x escape", "two hex digits"))?
                        }
                        other => other,
                    });
                }
                _ => out.push(c),
            }
        }
        Err(self.err("unterminated string", "`\"`"))
    }
}
