//! The printf buffer as the OpenCL runtime prints it after a launch. The kernel
//! reserves each record with an atomic add on the buffer's first dword (the bytes in
//! use, 4 when nothing was printed) and writes it after:
//!
//! - the format string: a u32 index into the kernel's string table (patch tokens,
//!   `PATCH_TOKEN_STRING`), or a u64 address of the string in the program's
//!   `.data.const.string` (zebin); an address with bit 63 set instead says that the
//!   string itself follows, that many bytes padded to 4;
//! - per conversion, a u32 type tag (NEO's `PRINTF_DATA_TYPE`: 1 char, 2 short, 3 int,
//!   4 float, 5 string, 6 long, 7 pointer, 8 double, 9..=14 vectors of char, short,
//!   int, long, float, double) and the value: scalars take their size rounded up to 4
//!   bytes, strings an index or an address as the format does, vectors a u32 lane
//!   count and the lanes, each taking at least 4 bytes.
//!
//! Records are printed per work-item, in work-item order, when the engine says who
//! reserved which bytes ([`decode_by_work_item`]), else in the order they were
//! reserved. Each
//! conversion is formatted as C's printf formats it (flags, width, precision, length
//! modifiers; `%vNhl`-style vector conversions print the lanes separated by commas).

/// Where the format strings (and `%s` strings) are.
pub enum Strings<'a> {
    /// Patch tokens: string index -> bytes.
    Indexed(&'a [(u32, Vec<u8>)]),
    /// Zebin: the bytes at an address of the launch's memory, up to their NUL.
    Addressed(&'a dyn Fn(u64) -> Option<Vec<u8>>),
}

/// The most one record prints, as NEO's `maxSinglePrintStringLength` (16 KiB).
const MAX_RECORD: usize = 16 << 10;
/// The most a launch's printf output may hold: a kernel can print 16 KiB from every
/// 4-byte record; past this the output ends with a note.
pub const MAX_OUTPUT: usize = 16 << 20;
/// NEO: a format-string address with this bit set is an inline string's length.
const INLINE_STRING: u64 = 1 << 63;

const BYTE: u32 = 1;
const SHORT: u32 = 2;
const INT: u32 = 3;
const FLOAT: u32 = 4;
const STRING: u32 = 5;
const LONG: u32 = 6;
const POINTER: u32 = 7;
const DOUBLE: u32 = 8;
const VECTOR_BYTE: u32 = 9;
const VECTOR_DOUBLE: u32 = 14;

/// Reads the records of a printf buffer.
struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn bytes<const N: usize>(&mut self) -> Option<[u8; N]> {
        let b = self.data.get(self.at..self.at.checked_add(N)?)?;
        self.at += N;
        b.try_into().ok()
    }
    fn u32(&mut self) -> Option<u32> {
        self.bytes::<4>().map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Option<u64> {
        self.bytes::<8>().map(u64::from_le_bytes)
    }
    /// A value of `size` bytes (1, 2, 4 or 8), sign-extended.
    fn int(&mut self, size: usize) -> Option<i64> {
        Some(match size {
            1 => self.bytes::<1>()?[0] as i8 as i64,
            2 => i16::from_le_bytes(self.bytes::<2>()?) as i64,
            4 => self.u32()? as i32 as i64,
            _ => self.u64()? as i64,
        })
    }
    fn align4(&mut self) {
        self.at = self.at.next_multiple_of(4);
    }
}

/// One argument of a conversion.
#[derive(Clone, Debug)]
enum Value {
    Int(i64),
    Float(f64),
    Str(Vec<u8>),
}

/// Bytes of the buffer whose records belong to work-items in turn: what one atomic
/// add reserved for a hardware thread's printing channels, lowest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The buffer offset the block starts at.
    pub offset: u64,
    /// Per record of the block, in order: its work-item's place in the order the
    /// runtime prints in (group, then local id).
    pub items: Vec<u128>,
}

/// Decodes a printf buffer (as the kernel left it) into the text the runtime prints,
/// records in the order they were reserved.
pub fn decode(buffer: &[u8], strings: &Strings<'_>) -> String {
    decode_by_work_item(buffer, strings, &[])
}

/// [`decode`], each work-item's records together and the work-items in order, as an
/// OpenCL runtime on a CPU prints them (Intel's and PoCL run a work-item's code to
/// its end, or its next barrier, before the next one's). `blocks` say whose records
/// are where; a record outside them goes with the one before it. A GPU interleaves
/// instead: a hardware thread reserves every channel's record of one printf call at
/// once, so its channels' first lines come before their second ones.
pub fn decode_by_work_item(buffer: &[u8], strings: &Strings<'_>, blocks: &[Block]) -> String {
    let mut records = records(buffer, strings);
    if !blocks.is_empty() {
        let mut blocks: Vec<&Block> = blocks.iter().collect();
        blocks.sort_by_key(|b| b.offset);
        let mut key = 0u128;
        let mut keyed = Vec::with_capacity(records.len());
        let (mut block, mut nth) = (usize::MAX, 0usize);
        for (offset, text) in records.drain(..) {
            let containing = blocks.partition_point(|b| b.offset <= offset as u64);
            if let Some(b) = containing.checked_sub(1) {
                if b != block {
                    (block, nth) = (b, 0);
                }
                if let Some(item) = blocks[b].items.get(nth).or(blocks[b].items.last()) {
                    key = *item;
                }
                nth += 1;
            }
            keyed.push((key, offset, text));
        }
        keyed.sort_by_key(|(key, offset, _)| (*key, *offset));
        records = keyed.into_iter().map(|(_, o, t)| (o, t)).collect();
    }
    let mut out = String::new();
    for (_, record) in records {
        if out.len() + record.len() > MAX_OUTPUT {
            out.push_str("\n[gpukit: printf output truncated at 16 MiB]\n");
            break;
        }
        out.push_str(&record);
    }
    out
}

/// Each record of the buffer with the offset it starts at, printed, in buffer order
/// (at most [`MAX_OUTPUT`] and one record of text).
fn records(buffer: &[u8], strings: &Strings<'_>) -> Vec<(usize, String)> {
    let used = buffer.get(..4).map_or(0, |b| {
        u32::from_le_bytes(b.try_into().unwrap_or_default()) as usize
    });
    let mut r = Reader {
        data: &buffer[..used.min(buffer.len())],
        at: 4,
    };
    let mut out = Vec::new();
    let mut total = 0usize;
    while r.at < r.data.len() && total <= MAX_OUTPUT {
        let start = r.at;
        let format = match strings {
            Strings::Indexed(table) => {
                let Some(index) = r.u32() else { break };
                table
                    .iter()
                    .find(|(i, _)| *i == index)
                    .map(|(_, s)| s.clone())
            }
            Strings::Addressed(at) => {
                let Some(address) = r.u64() else { break };
                if address == 0xffff_ffff {
                    break;
                }
                if address & INLINE_STRING != 0 {
                    let len = (address & !INLINE_STRING) as usize;
                    let Some(text) = r.data.get(r.at..r.at.saturating_add(len)) else {
                        break;
                    };
                    let text = text.split(|c| *c == 0).next().unwrap_or_default().to_vec();
                    r.at += len.next_multiple_of(4);
                    Some(text)
                } else {
                    at(address)
                }
            }
        };
        // A record whose format cannot be found ends the output, as in NEO.
        let Some(format) = format else { break };
        // Patch-token string tokens keep the source's escapes (`\n` as two
        // characters); the runtime turns a backslash and the next character into
        // that character, `\n` into a newline.
        let format = match strings {
            Strings::Indexed(_) => unescape(&format),
            Strings::Addressed(_) => format,
        };
        let mut record = print_record(&format, &mut r, strings);
        record.truncate(MAX_RECORD);
        total += record.len();
        out.push((start, record));
    }
    out
}

/// A backslash and the character after it as that character (`n`: a newline).
fn unescape(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut bytes = text.iter();
    while let Some(&c) = bytes.next() {
        match c {
            b'\\' => match bytes.next() {
                Some(b'n') => out.push(b'\n'),
                Some(&other) => out.push(other),
                None => {}
            },
            _ => out.push(c),
        }
    }
    out
}

/// Whether `c` ends a conversion (NEO's `isConversionSpecifier`).
fn is_conversion(c: u8) -> bool {
    b"diouxXaAeEfFgGscp".contains(&c)
}

/// One record: the format with each conversion filled from the buffer.
fn print_record(format: &[u8], r: &mut Reader<'_>, strings: &Strings<'_>) -> String {
    let mut out = Vec::new();
    let mut i = 0;
    while i < format.len() {
        if format[i] != b'%' {
            out.push(format[i]);
            i += 1;
            continue;
        }
        if format.get(i + 1) == Some(&b'%') {
            out.push(b'%');
            i += 2;
            continue;
        }
        let mut end = i + 1;
        while end < format.len() && !is_conversion(format[end]) {
            end += 1;
        }
        let spec = &format[i..(end + 1).min(format.len())];
        i = end + 1;
        let Some(text) = conversion(spec, r, strings) else {
            break;
        };
        out.extend_from_slice(text.as_bytes());
        if out.len() > MAX_RECORD {
            break;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A conversion spec, `%[flags][width][.precision][vN][length]C`.
#[derive(Default, Debug)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: usize,
    precision: Option<usize>,
    /// Bits the length modifier gives an integer (8 hh, 16 h, 64 l/ll/z/t/j; else 32).
    bits: u32,
    conversion: u8,
}

fn parse_spec(spec: &[u8]) -> Spec {
    let mut s = Spec {
        bits: 32,
        ..Spec::default()
    };
    let mut i = 1;
    while let Some(&c) = spec.get(i) {
        match c {
            b'-' => s.left = true,
            b'+' => s.plus = true,
            b' ' => s.space = true,
            b'#' => s.alt = true,
            b'0' => s.zero = true,
            _ => break,
        }
        i += 1;
    }
    let number = |i: &mut usize| {
        let mut n = 0usize;
        while let Some(d) = spec.get(*i).filter(|d| d.is_ascii_digit()) {
            n = (n * 10 + (d - b'0') as usize).min(MAX_RECORD);
            *i += 1;
        }
        n
    };
    s.width = number(&mut i);
    if spec.get(i) == Some(&b'.') {
        i += 1;
        s.precision = Some(number(&mut i));
    }
    let rest = &spec[i.min(spec.len())..];
    let modifiers = rest.get(..rest.len().saturating_sub(1)).unwrap_or_default();
    // Vector width (`v4`) and the vector length `hl` (32-bit lanes) say nothing of
    // the lane's own size; other modifiers do.
    let mut m = modifiers;
    if let Some(after_v) = m.strip_prefix(b"v") {
        let digits = after_v.iter().take_while(|d| d.is_ascii_digit()).count();
        m = &after_v[digits..];
    }
    s.bits = match m {
        b"hh" => 8,
        b"h" => 16,
        b"l" | b"ll" | b"z" | b"t" | b"j" => 64,
        _ => 32,
    };
    s.conversion = *spec.last().unwrap_or(&b'd');
    s
}

/// Reads one conversion's argument(s) and formats them.
fn conversion(spec_text: &[u8], r: &mut Reader<'_>, strings: &Strings<'_>) -> Option<String> {
    let spec = parse_spec(spec_text);
    let tag = r.u32()?;
    let read_string = |r: &mut Reader<'_>| -> Option<Vec<u8>> {
        match strings {
            Strings::Indexed(table) => {
                let index = r.u32()?;
                Some(
                    table
                        .iter()
                        .find(|(i, _)| *i == index)
                        .map(|(_, s)| s.clone())
                        .unwrap_or_default(),
                )
            }
            Strings::Addressed(at) => Some(at(r.u64()?).unwrap_or_default()),
        }
    };
    if spec.conversion == b's' {
        let value = match tag {
            STRING | POINTER => Value::Str(read_string(r)?),
            _ => {
                read_string(r)?;
                Value::Int(0)
            }
        };
        return Some(format_value(&spec, &value));
    }
    let scalar = |r: &mut Reader<'_>, tag: u32| -> Option<Value> {
        let v = match tag {
            BYTE => Value::Int(r.int(1)?),
            SHORT => Value::Int(r.int(2)?),
            INT => Value::Int(r.int(4)?),
            FLOAT => Value::Float(f32::from_bits(r.u32()?) as f64),
            LONG | POINTER => Value::Int(r.int(8)?),
            DOUBLE => Value::Float(f64::from_bits(r.u64()?)),
            _ => return None,
        };
        Some(v)
    };
    if (VECTOR_BYTE..=VECTOR_DOUBLE).contains(&tag) {
        let lane_tag = [BYTE, SHORT, INT, LONG, FLOAT, DOUBLE][(tag - VECTOR_BYTE) as usize];
        let lanes = r.u32()?.min(16);
        let mut parts = Vec::with_capacity(lanes as usize);
        for _ in 0..lanes {
            parts.push(format_value(&spec, &scalar(r, lane_tag)?));
        }
        // Lanes narrower than 4 bytes are padded to 4 after the vector.
        if matches!(lane_tag, BYTE | SHORT) {
            let size = if lane_tag == BYTE { 1 } else { 2 };
            r.at += (4 - size) * lanes as usize;
        }
        return Some(parts.join(","));
    }
    let value = scalar(r, tag)?;
    r.align4();
    Some(format_value(&spec, &value))
}

/// C's printf of one value under `spec`.
fn format_value(spec: &Spec, value: &Value) -> String {
    let c = spec.conversion;
    let (sign, body) = match (c, value) {
        (b's', Value::Str(s)) => {
            let s = s.split(|b| *b == 0).next().unwrap_or_default();
            let s = &s[..spec.precision.unwrap_or(s.len()).min(s.len())];
            return pad(spec, "", &String::from_utf8_lossy(s), false);
        }
        (b's', _) => return pad(spec, "", "(null)", false),
        (b'c', v) => {
            let ch = match v {
                Value::Int(i) => *i as u8,
                Value::Float(f) => *f as i64 as u8,
                Value::Str(_) => 0,
            };
            return pad(spec, "", &String::from_utf8_lossy(&[ch]), false);
        }
        (b'd' | b'i', v) => {
            let i = truncate_signed(int_of(v), spec.bits);
            let digits = with_precision(i.unsigned_abs().to_string(), spec.precision);
            (sign_of(spec, i < 0), digits)
        }
        (b'u' | b'o' | b'x' | b'X' | b'p', v) => {
            let bits = if c == b'p' { 64 } else { spec.bits };
            let u = truncate_unsigned(int_of(v), bits);
            if c == b'p' && u == 0 {
                return pad(spec, "", "(nil)", false);
            }
            let digits = match c {
                b'u' => u.to_string(),
                b'o' => format!("{u:o}"),
                b'X' => format!("{u:X}"),
                _ => format!("{u:x}"),
            };
            let mut digits = with_precision(digits, spec.precision);
            let prefix = match c {
                b'o' if spec.alt && !digits.starts_with('0') => {
                    digits.insert(0, '0');
                    ""
                }
                b'x' if spec.alt && u != 0 => "0x",
                b'X' if spec.alt && u != 0 => "0X",
                b'p' => "0x",
                _ => "",
            };
            (prefix.to_string(), digits)
        }
        (_, v) => {
            let f = match v {
                Value::Float(f) => *f,
                Value::Int(i) => *i as f64,
                Value::Str(_) => 0.0,
            };
            let upper = c.is_ascii_uppercase();
            let sign = sign_of(spec, f.is_sign_negative());
            if !f.is_finite() {
                let t = if f.is_nan() { "nan" } else { "inf" };
                let t = if upper { t.to_uppercase() } else { t.into() };
                return pad(spec, &sign, &t, false);
            }
            let body = match c.to_ascii_lowercase() {
                b'f' => format!("{:.*}", spec.precision.unwrap_or(6), f.abs()),
                b'e' => exponential(f.abs(), spec.precision.unwrap_or(6), spec.alt),
                b'a' => hexadecimal(f.abs(), spec.precision),
                _ => general(f.abs(), spec.precision.unwrap_or(6), spec.alt),
            };
            let body = if spec.alt && !body.contains('.') && c.eq_ignore_ascii_case(&b'f') {
                body + "."
            } else {
                body
            };
            let body = if upper { body.to_uppercase() } else { body };
            return pad(spec, &sign, &body, true);
        }
    };
    // The 0 flag is ignored with a precision for integers.
    let zero_ok = spec.precision.is_none();
    pad(spec, &sign, &body, zero_ok)
}

fn int_of(v: &Value) -> i64 {
    match v {
        Value::Int(i) => *i,
        Value::Float(f) => *f as i64,
        Value::Str(_) => 0,
    }
}

fn truncate_signed(v: i64, bits: u32) -> i64 {
    match bits {
        8 => v as i8 as i64,
        16 => v as i16 as i64,
        32 => v as i32 as i64,
        _ => v,
    }
}

fn truncate_unsigned(v: i64, bits: u32) -> u64 {
    match bits {
        8 => v as u8 as u64,
        16 => v as u16 as u64,
        32 => v as u32 as u64,
        _ => v as u64,
    }
}

fn sign_of(spec: &Spec, negative: bool) -> String {
    if negative {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    }
    .to_string()
}

/// At least `precision` digits (a precision of 0 prints 0 as nothing).
fn with_precision(digits: String, precision: Option<usize>) -> String {
    match precision {
        Some(0) if digits == "0" => String::new(),
        Some(p) if digits.len() < p => "0".repeat(p - digits.len()) + &digits,
        _ => digits,
    }
}

/// Pads `sign` + `body` to the width: spaces on the left, on the right with `-`,
/// or zeros between the sign and the body with `0` (where `zero_ok`).
fn pad(spec: &Spec, sign: &str, body: &str, zero_ok: bool) -> String {
    let len = sign.len() + body.chars().count();
    let fill = spec.width.saturating_sub(len);
    if spec.left {
        format!("{sign}{body}{}", " ".repeat(fill))
    } else if spec.zero && zero_ok {
        format!("{sign}{}{body}", "0".repeat(fill))
    } else {
        format!("{}{sign}{body}", " ".repeat(fill))
    }
}

/// `%e` of a non-negative finite value: d.ddde±XX.
fn exponential(f: f64, precision: usize, alt: bool) -> String {
    let text = format!("{f:.precision$e}");
    let (mantissa, exp) = text.split_once('e').unwrap_or((&text, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let dot = if alt && precision == 0 { "." } else { "" };
    format!(
        "{mantissa}{dot}e{}{:02}",
        if exp < 0 { '-' } else { '+' },
        exp.unsigned_abs()
    )
}

/// `%g`: `%e` or `%f` by the exponent, trailing zeros removed unless `#`.
fn general(f: f64, precision: usize, alt: bool) -> String {
    let p = precision.max(1);
    let e = exponential(f, p - 1, false);
    let exp: i32 = e
        .rsplit_once('e')
        .and_then(|(_, x)| x.parse().ok())
        .unwrap_or(0);
    let mut text = if (exp as i64) < p as i64 && exp >= -4 {
        format!("{:.*}", (p as i64 - 1 - exp as i64) as usize, f)
    } else {
        e
    };
    if !alt {
        let (num, tail) = match text.find('e') {
            Some(at) => (text[..at].to_string(), text[at..].to_string()),
            None => (text.clone(), String::new()),
        };
        let num = if num.contains('.') {
            num.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            num
        };
        text = num + &tail;
    }
    text
}

/// `%a` of a non-negative finite value: 0x1.hhhp±d (glibc's form; a precision
/// rounds the hex digits to nearest, ties to even).
fn hexadecimal(f: f64, precision: Option<usize>) -> String {
    if f == 0.0 {
        let frac = precision
            .filter(|p| *p > 0)
            .map(|p| format!(".{}", "0".repeat(p)));
        return format!("0x0{}p+0", frac.unwrap_or_default());
    }
    let bits = f.to_bits();
    let raw_exp = ((bits >> 52) & 0x7ff) as i64;
    let mut mantissa = bits & ((1u64 << 52) - 1);
    let (mut lead, exp) = if raw_exp == 0 {
        (0u64, -1022)
    } else {
        (1u64, raw_exp - 1023)
    };
    let mut digits = 13usize;
    if let Some(p) = precision.filter(|p| *p < 13) {
        let drop = 4 * (13 - p) as u32;
        let rest = mantissa & ((1u64 << drop) - 1);
        let half = 1u64 << (drop - 1);
        mantissa >>= drop;
        if rest > half || (rest == half && mantissa & 1 == 1) {
            mantissa += 1;
            if mantissa >> (4 * p) != 0 {
                mantissa = 0;
                lead += 1;
            }
        }
        digits = p;
    }
    let mut frac = if digits == 0 {
        String::new()
    } else {
        format!("{mantissa:0digits$x}")
    };
    if precision.is_none() {
        frac = frac.trim_end_matches('0').to_string();
    }
    let dot = if frac.is_empty() { "" } else { "." };
    format!(
        "0x{lead}{dot}{frac}p{}{}",
        if exp < 0 { '-' } else { '+' },
        exp.abs()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Formats one value as C's printf would.
    fn c(spec: &str, v: Value) -> String {
        format_value(&parse_spec(spec.as_bytes()), &v)
    }

    #[test]
    fn conversions_format_as_c_does() {
        use Value::*;
        let cases = [
            ("%d", Int(-42), "-42"),
            ("%5d", Int(42), "   42"),
            ("%-5d|", Int(42), "42   "),
            ("%05d", Int(-42), "-0042"),
            ("%+d", Int(7), "+7"),
            ("%.3d", Int(7), "007"),
            ("%u", Int(-1), "4294967295"),
            ("%lu", Int(-1), "18446744073709551615"),
            ("%ld", Int(-5_000_000_000), "-5000000000"),
            ("%hhd", Int(300), "44"),
            ("%x", Int(255), "ff"),
            ("%08x", Int(0x1234), "00001234"),
            ("%#x", Int(255), "0xff"),
            ("%X", Int(255), "FF"),
            ("%o", Int(8), "10"),
            ("%#o", Int(8), "010"),
            ("%c", Int(65), "A"),
            ("%f", Float(1.5), "1.500000"),
            ("%.2f", Float(-2.345), "-2.35"),
            ("%8.3f", Float(1.23456), "   1.235"),
            ("%e", Float(1.5), "1.500000e+00"),
            ("%E", Float(-0.000123), "-1.230000E-04"),
            ("%.0e", Float(12345.0), "1e+04"),
            ("%g", Float(0.0001), "0.0001"),
            ("%g", Float(100000.0), "100000"),
            ("%g", Float(1000000.0), "1e+06"),
            ("%g", Float(1.5), "1.5"),
            ("%G", Float(1e-5), "1E-05"),
            ("%.3g", Float(1.23456), "1.23"),
            ("%#g", Float(1.0), "1.00000"),
            ("%a", Float(1.5), "0x1.8p+0"),
            ("%a", Float(1.0), "0x1p+0"),
            ("%.1a", Float(1.96875), "0x2.0p+0"),
            ("%a", Float(0.0), "0x0p+0"),
            ("%f", Float(f64::INFINITY), "inf"),
            ("%F", Float(f64::NAN), "NAN"),
            ("%5s", Str(b"ab".to_vec()), "   ab"),
            ("%.1s", Str(b"ab".to_vec()), "a"),
            ("%p", Int(0x1000), "0x1000"),
        ];
        for (spec, v, want) in cases {
            let got = c(spec.trim_end_matches('|'), v);
            assert_eq!(got, want, "{spec}");
        }
    }

    fn word(v: u32) -> Vec<u8> {
        v.to_le_bytes().to_vec()
    }

    /// A patch-token printf buffer: its used-bytes dword, then the records.
    fn buffer(records: &[Vec<u8>]) -> Vec<u8> {
        let body: Vec<u8> = records.concat();
        let mut b = word(4 + body.len() as u32);
        b.extend(body);
        b.extend([0xAA; 64]); // beyond the used bytes: never read
        b
    }

    /// Two printf calls by two work-items of one hardware thread: the device
    /// reserves call by call (a's line of both items, then b's), the CPU runtimes
    /// print each work-item's lines together.
    #[test]
    fn records_are_printed_per_work_item() {
        let table = vec![(0, b"a%d\n".to_vec()), (1, b"b%d\n".to_vec())];
        let rec = |format: u32, v: u32| [word(format), word(INT), word(v)].concat();
        let buf = buffer(&[rec(0, 0), rec(0, 1), rec(1, 0), rec(1, 1)]);
        let strings = Strings::Indexed(&table);
        assert_eq!(decode(&buf, &strings), "a0\na1\nb0\nb1\n");
        // Each reservation holds the records of work-items 0 and 1 in turn.
        let blocks = [
            Block {
                offset: 4,
                items: vec![0, 1],
            },
            Block {
                offset: 28,
                items: vec![0, 1],
            },
        ];
        assert_eq!(
            decode_by_work_item(&buf, &strings, &blocks),
            "a0\nb0\na1\nb1\n"
        );
        // A record past its block's work-items goes with the block's last one.
        let short = [Block {
            offset: 4,
            items: vec![1],
        }];
        assert_eq!(
            decode_by_work_item(&buf, &strings, &short),
            "a0\na1\nb0\nb1\n"
        );
    }

    #[test]
    fn records_are_printed_with_their_strings() {
        let table = vec![
            (0, b"i=%d f=%.1f s=%s %%\\n".to_vec()),
            (1, b"hello".to_vec()),
            (2, b"v=%v4hlf c=%v2hhd\n".to_vec()),
        ];
        let record = [
            word(0),
            word(INT),
            word(-3i32 as u32),
            word(FLOAT),
            word(2.5f32.to_bits()),
            word(STRING),
            word(1),
        ]
        .concat();
        let vector = [
            word(2),
            word(VECTOR_FLOAT),
            word(4),
            word(1.0f32.to_bits()),
            word(2.0f32.to_bits()),
            word(0.5f32.to_bits()),
            word((-1.0f32).to_bits()),
            word(VECTOR_BYTE),
            word(2),
            vec![7, 0xff, 0, 0, 0, 0, 0, 0],
        ]
        .concat();
        let text = decode(&buffer(&[record, vector]), &Strings::Indexed(&table));
        assert_eq!(
            text,
            "i=-3 f=2.5 s=hello %\nv=1.000000,2.000000,0.500000,-1.000000 c=7,-1\n"
        );
    }

    const VECTOR_FLOAT: u32 = 13;

    #[test]
    fn zebin_records_name_their_strings_by_address() {
        let strings = |a: u64| match a {
            0x1000 => Some(b"n=%ld\n".to_vec()),
            _ => None,
        };
        let mut record = 0x1000u64.to_le_bytes().to_vec();
        record.extend(word(LONG));
        record.extend((-9i64).to_le_bytes());
        let text = decode(
            &buffer(&[record.clone(), record]),
            &Strings::Addressed(&strings),
        );
        assert_eq!(text, "n=-9\nn=-9\n");
    }

    /// Every truncation and byte mutation of a buffer: no panic, output bounded.
    #[test]
    fn truncated_and_mutated_buffers_decode_without_panic() {
        let table = vec![
            (0, b"%d %s %v4hlf %999999d %.99999f %a\n".to_vec()),
            (1, b"s".to_vec()),
        ];
        let valid = buffer(&[[
            word(0),
            word(INT),
            word(5),
            word(STRING),
            word(1),
            word(13),
            word(4),
            word(0),
            word(0),
            word(0),
            word(0),
            word(INT),
            word(1),
            word(DOUBLE),
            vec![0; 8],
            word(DOUBLE),
            vec![0; 8],
        ]
        .concat()]);
        for end in 0..valid.len() {
            let text = decode(&valid[..end], &Strings::Indexed(&table));
            assert!(text.len() <= MAX_OUTPUT + 64);
        }
        for at in 0..valid.len() {
            for m in [0u8, 1, 4, 0x7f, 0xff] {
                let mut b = valid.clone();
                b[at] = m;
                let text = decode(&b, &Strings::Indexed(&table));
                assert!(text.len() <= MAX_OUTPUT + 64);
            }
        }
    }
}
