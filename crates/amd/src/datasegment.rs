//! Data segments: program-scope `__constant` data the compiler lists at the
//! top of the IL and the runtime copies into a buffer.
//!
//! ```text
//! ;#DATASTART[:CBID]:SIZE
//! ;#TYPE:OFFSET:COUNT:V0:V1:...
//! ;#DATAEND[:CBID]
//! ```
//!
//! The runtime reads every value as hexadecimal (ROCm/clr gpuprogram.cpp);
//! the 2009 spec's examples write integers in decimal and floats as hex bit
//! patterns. [`Radix`] makes that choice explicit: parsing and printing use it.

use crate::limits;
use crate::metadata::parse::{split_lines, utf8, ParseError};
use crate::metadata::{DataType, Eol};
use serde::Serialize;

/// How values are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Radix {
    /// Every value hexadecimal, as the runtime reads them.
    Hex,
    /// Integers decimal (optionally negative), `float`/`double` as hex bit
    /// patterns: the form of the spec's examples.
    Spec,
}

/// Element type of a data vector: a scalar type and 1..=16 components (`v3i32`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ElementType {
    pub scalar: DataType,
    pub components: u32,
}

impl ElementType {
    pub fn parse(s: &str) -> Option<Self> {
        let (components, base) = match s.strip_prefix('v') {
            Some(rest) => {
                let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
                let n: u32 = rest[..digits].parse().ok()?;
                if !matches!(n, 2 | 3 | 4 | 8 | 16) {
                    return None;
                }
                (n, &rest[digits..])
            }
            None => (1, s),
        };
        let scalar = DataType::from_name(base)?;
        scalar.element_size()?;
        if matches!(scalar, DataType::Event | DataType::Opaque | DataType::I1) {
            return None;
        }
        Some(ElementType { scalar, components })
    }

    pub fn name(&self) -> String {
        if self.components == 1 {
            self.scalar.as_str().to_owned()
        } else {
            format!("v{}{}", self.components, self.scalar.as_str())
        }
    }

    pub fn scalar_size(&self) -> u32 {
        self.scalar.element_size().unwrap_or(1)
    }

    /// Alignment of one element: its size, with vec3 sized as vec4.
    pub fn alignment(&self) -> u64 {
        let n = if self.components == 3 {
            4
        } else {
            self.components
        };
        u64::from(self.scalar_size()) * u64::from(n)
    }

    fn is_float(&self) -> bool {
        matches!(self.scalar, DataType::Float | DataType::Double)
    }

    fn is_signed(&self) -> bool {
        matches!(
            self.scalar,
            DataType::I8 | DataType::I16 | DataType::I32 | DataType::I64
        )
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DataVector {
    pub element: ElementType,
    pub offset: u64,
    /// One entry per scalar value, as the bit pattern of the element.
    pub values: Vec<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw: Option<String>,
    pub eol: Eol,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DataSegment {
    /// Constant buffer id; `None` for the global (emulated) segment.
    pub cb: Option<u32>,
    pub size: u64,
    pub vectors: Vec<DataVector>,
    /// The id after `;#DATAEND:`, as written.
    pub end_id: Option<u32>,
    pub radix: Radix,
    pub start_eol: Eol,
    pub end_eol: Eol,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MaterializeError {
    #[error(
        "vector {index} ({ty} at offset {offset}) is not aligned to its {align}-byte alignment"
    )]
    Misaligned {
        index: usize,
        ty: String,
        offset: u64,
        align: u64,
    },
    #[error(
        "vector {index} ({ty} at offset {offset}) ends at byte {end}, past the segment size {size}"
    )]
    PastEnd {
        index: usize,
        ty: String,
        offset: u64,
        end: u64,
        size: u64,
    },
    #[error("vector {index}: value {value:#x} does not fit {ty}")]
    ValueTooWide {
        index: usize,
        value: u64,
        ty: String,
    },
    #[error("segment size {0} exceeds the limit of {max} bytes", max = limits::MAX_DATA_SEGMENT_BYTES)]
    TooLarge(u64),
    #[error("declared size {size} is far past the {covered} bytes the vectors cover (limit: {max} zero bytes)", max = limits::MAX_DATA_ZERO_TAIL)]
    SizeFarPastData { size: u64, covered: u64 },
    #[error("vector {index} ({ty}): {count} values is neither whole vectors of 3 nor padded to 4")]
    Vec3Count {
        index: usize,
        ty: String,
        count: usize,
    },
}

fn err(
    line: usize,
    column: usize,
    field: &str,
    found: String,
    expected: impl Into<String>,
) -> ParseError {
    ParseError {
        line,
        column,
        field: field.into(),
        found,
        expected: expected.into(),
    }
}

fn quote(s: &str) -> String {
    if s.is_empty() {
        "an empty field".into()
    } else if s.len() > 40 {
        format!("`{}...`", s.chars().take(40).collect::<String>())
    } else {
        format!("`{s}`")
    }
}

/// Parses one segment from `;#DATASTART` to `;#DATAEND` (nothing else).
pub fn parse_data_segment(bytes: &[u8], radix: Radix) -> Result<DataSegment, ParseError> {
    let text = utf8(bytes, 1)?;
    let mut lines = split_lines(text)
        .enumerate()
        .map(|(i, (l, e))| (i + 1, l, e));
    let (n, first, start_eol) = lines.next().ok_or_else(|| {
        err(
            1,
            1,
            "data segment start",
            "empty input".into(),
            "`;#DATASTART[:CBID]:SIZE`",
        )
    })?;
    let Some(rest) = first.strip_prefix(";#DATASTART:") else {
        return Err(err(
            n,
            1,
            "data segment start",
            quote(first),
            "`;#DATASTART[:CBID]:SIZE`",
        ));
    };
    let nums: Vec<&str> = rest.split(':').collect();
    let num = |s: &str, col: usize, field: &str| {
        crate::metadata::parse::parse_decimal(s)
            .ok_or_else(|| err(n, col, field, quote(s), "a decimal integer"))
    };
    let (cb, size) = match nums.as_slice() {
        [size] => (None, num(size, 13, "DATASTART size")?),
        [cb, size] => {
            let cbv = num(cb, 13, "DATASTART cb id")?;
            let cbv = u32::try_from(cbv)
                .map_err(|_| err(n, 13, "DATASTART cb id", quote(cb), "an id below 2^32"))?;
            (Some(cbv), num(size, 14 + cb.len(), "DATASTART size")?)
        }
        _ => {
            return Err(err(
                n,
                13,
                "data segment start",
                quote(rest),
                "`SIZE` or `CBID:SIZE`",
            ))
        }
    };
    let mut vectors = Vec::new();
    for (n, line, eol) in lines.by_ref() {
        if let Some(end) = line.strip_prefix(";#DATAEND") {
            let end_id = match end {
                "" => None,
                _ => {
                    let id = end
                        .strip_prefix(':')
                        .and_then(crate::metadata::parse::parse_decimal);
                    let id = id.and_then(|v| u32::try_from(v).ok());
                    Some(id.ok_or_else(|| {
                        err(n, 10, "DATAEND id", quote(end), "nothing or `:CBID`")
                    })?)
                }
            };
            if let Some((n2, extra, _)) = lines.next() {
                return Err(err(
                    n2,
                    1,
                    "data segment",
                    quote(extra),
                    "nothing after `;#DATAEND`",
                ));
            }
            return Ok(DataSegment {
                cb,
                size,
                vectors,
                end_id,
                radix,
                start_eol,
                end_eol: eol,
            });
        }
        let mut v = parse_vector(line, n, radix)?;
        v.eol = eol;
        let mut canonical = String::new();
        vector_text(&v, radix, &mut canonical);
        if canonical != line {
            v.raw = Some(line.to_owned());
        }
        vectors.push(v);
    }
    Err(err(
        text.lines().count().max(1),
        1,
        "data segment end",
        "end of input".into(),
        "`;#DATAEND[:CBID]`",
    ))
}

fn parse_vector(line: &str, n: usize, radix: Radix) -> Result<DataVector, ParseError> {
    let Some(body) = line.strip_prefix(";#") else {
        return Err(err(
            n,
            1,
            "data vector",
            quote(line),
            "`;#TYPE:OFFSET:COUNT:VALUES`",
        ));
    };
    let mut col = 3;
    let mut fields = body.split(':');
    let ty = fields.next().unwrap_or("");
    let element = ElementType::parse(ty).ok_or_else(|| {
        err(
            n,
            col,
            "data vector type",
            quote(ty),
            "i8 i16 i32 i64 u8 u16 u32 u64 float double, or vN<type> with N in 2 3 4 8 16",
        )
    })?;
    col += ty.len() + 1;
    let mut next_num = |field: &str, col: &mut usize| -> Result<u64, ParseError> {
        let tok = fields
            .next()
            .ok_or_else(|| err(n, *col, field, "end of line".into(), "a decimal integer"))?;
        let v = crate::metadata::parse::parse_decimal(tok)
            .ok_or_else(|| err(n, *col, field, quote(tok), "a decimal integer"))?;
        *col += tok.len() + 1;
        Ok(v)
    };
    let offset = next_num("data vector offset", &mut col)?;
    let count = next_num("data vector count", &mut col)?;
    let present = fields.clone().count();
    if count != present as u64 {
        return Err(err(
            n,
            col,
            "data vector count",
            count.to_string(),
            format!("the number of values that follow ({present})"),
        ));
    }
    if present > limits::MAX_DATA_ELEMENTS {
        return Err(err(
            n,
            col,
            "data vector count",
            count.to_string(),
            format!("at most {}", limits::MAX_DATA_ELEMENTS),
        ));
    }
    let mut values = Vec::with_capacity(present);
    for tok in fields {
        values.push(parse_value(tok, &element, radix).ok_or_else(|| {
            let expected = if radix == Radix::Hex || element.is_float() {
                "a hexadecimal value (the runtime reads data values as hex)"
            } else {
                "a decimal integer (spec radix)"
            };
            err(n, col, "data vector value", quote(tok), expected)
        })?);
        col += tok.len() + 1;
    }
    Ok(DataVector {
        element,
        offset,
        values,
        raw: None,
        eol: Eol::Lf,
    })
}

fn parse_value(tok: &str, element: &ElementType, radix: Radix) -> Option<u64> {
    if tok.is_empty() {
        return None;
    }
    if radix == Radix::Hex || element.is_float() {
        if tok.len() > 16 || !tok.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        return u64::from_str_radix(tok, 16).ok();
    }
    let bits = u64::from(element.scalar_size()) * 8;
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    if let Some(neg) = tok.strip_prefix('-') {
        if !element.is_signed() {
            return None;
        }
        let v = crate::metadata::parse::parse_decimal(neg)?;
        let v = i64::try_from(v).ok()?;
        return Some((v.wrapping_neg() as u64) & mask);
    }
    crate::metadata::parse::parse_decimal(tok)
}

fn vector_text(v: &DataVector, radix: Radix, out: &mut String) {
    use std::fmt::Write;
    let _ = write!(
        out,
        ";#{}:{}:{}",
        v.element.name(),
        v.offset,
        v.values.len()
    );
    let bits = u64::from(v.element.scalar_size()) * 8;
    for &val in &v.values {
        if radix == Radix::Hex || v.element.is_float() {
            let _ = write!(out, ":{val:X}");
        } else if v.element.is_signed()
            && bits < 64
            && val >> (bits - 1) & 1 == 1
            && val < (1 << bits)
        {
            let _ = write!(out, ":-{}", (1u64 << bits) - val);
        } else if v.element.is_signed() && bits == 64 && (val as i64) < 0 {
            let _ = write!(out, ":{}", val as i64);
        } else {
            let _ = write!(out, ":{val}");
        }
    }
}

impl DataSegment {
    /// Prints the segment; a parsed segment prints back to its input bytes.
    pub fn emit(&self) -> Vec<u8> {
        let mut out = String::new();
        match self.cb {
            Some(cb) => out.push_str(&format!(";#DATASTART:{cb}:{}", self.size)),
            None => out.push_str(&format!(";#DATASTART:{}", self.size)),
        }
        out.push_str(self.start_eol.as_str());
        for v in &self.vectors {
            match &v.raw {
                Some(raw) => out.push_str(raw),
                None => vector_text(v, self.radix, &mut out),
            }
            out.push_str(v.eol.as_str());
        }
        match self.end_id {
            Some(id) => out.push_str(&format!(";#DATAEND:{id}")),
            None => out.push_str(";#DATAEND"),
        }
        out.push_str(self.end_eol.as_str());
        out.into_bytes()
    }

    /// The bytes the runtime uploads: each vector at its offset, little
    /// endian, vec3 elements padded to four components with zeros.
    pub fn materialize(&self) -> Result<Vec<u8>, MaterializeError> {
        if self.size > limits::MAX_DATA_SEGMENT_BYTES {
            return Err(MaterializeError::TooLarge(self.size));
        }
        let covered = self
            .vectors
            .iter()
            .map(|v| {
                v.offset.saturating_add(
                    u64::from(v.element.scalar_size()) * v.values.len() as u64 * 4 / 3 + 16,
                )
            })
            .max()
            .unwrap_or(0);
        if self.size > covered.saturating_add(limits::MAX_DATA_ZERO_TAIL) {
            return Err(MaterializeError::SizeFarPastData {
                size: self.size,
                covered,
            });
        }
        let mut out = vec![0u8; self.size as usize];
        for (index, v) in self.vectors.iter().enumerate() {
            let ty = v.element.name();
            let align = v.element.alignment();
            if v.offset % align != 0 {
                return Err(MaterializeError::Misaligned {
                    index,
                    ty,
                    offset: v.offset,
                    align,
                });
            }
            let esize = u64::from(v.element.scalar_size());
            // vec3 data either arrives padded (count a multiple of 4) or not (a multiple of 3).
            let padded: Vec<u64> = if v.element.components == 3 && v.values.len() % 4 != 0 {
                if v.values.len() % 3 != 0 {
                    return Err(MaterializeError::Vec3Count {
                        index,
                        ty,
                        count: v.values.len(),
                    });
                }
                v.values
                    .chunks(3)
                    .flat_map(|c| c.iter().copied().chain([0]))
                    .collect()
            } else {
                v.values.clone()
            };
            let end = v
                .offset
                .saturating_add(esize.saturating_mul(padded.len() as u64));
            if end > self.size {
                return Err(MaterializeError::PastEnd {
                    index,
                    ty,
                    offset: v.offset,
                    end,
                    size: self.size,
                });
            }
            let bits = esize * 8;
            for (i, &val) in padded.iter().enumerate() {
                if bits < 64 && val >> bits != 0 {
                    return Err(MaterializeError::ValueTooWide {
                        index,
                        value: val,
                        ty,
                    });
                }
                let at = (v.offset + i as u64 * esize) as usize;
                out[at..at + esize as usize].copy_from_slice(&val.to_le_bytes()[..esize as usize]);
            }
        }
        Ok(out)
    }
}

/// Finds and parses every `;#DATASTART`..`;#DATAEND` segment of an IL text,
/// returning each with the 1-based line of its `;#DATASTART`.
pub fn find_data_segments(
    text: &str,
    radix: Radix,
) -> Result<Vec<(usize, DataSegment)>, ParseError> {
    let mut out = Vec::new();
    let mut open: Option<(usize, usize)> = None; // (byte offset, line)
    let mut pos = 0;
    for (i, (line, eol)) in split_lines(text).enumerate() {
        let end = pos + line.len() + eol.as_str().len();
        match open {
            None if line.starts_with(";#DATASTART") => open = Some((pos, i + 1)),
            Some((from, first)) if line.starts_with(";#DATAEND") => {
                let seg =
                    parse_data_segment(&text.as_bytes()[from..end], radix).map_err(|mut e| {
                        e.line += first - 1;
                        e
                    })?;
                out.push((first, seg));
                open = None;
            }
            _ => {}
        }
        pos = end;
    }
    if let Some((_, first)) = open {
        return Err(err(
            first,
            1,
            "data segment end",
            "end of input".into(),
            "`;#DATAEND[:CBID]`",
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_inside_an_il_program() {
        let il = "il_cs_2_0\n;#DATASTART:16\n;#i32:0:4:0:1:2:3\n;#DATAEND:0\ndcl_cb cb0[10]\n\
                  ;#DATASTART:2:8\n;#float:0:2:3F800000:40000000\n;#DATAEND:2\nendmain\n";
        let segs = find_data_segments(il, Radix::Spec).unwrap();
        assert_eq!(segs.len(), 2);
        assert_eq!(segs[0].0, 2);
        assert_eq!(segs[1].0, 6);
        assert_eq!(segs[1].1.cb, Some(2));
        assert_eq!(
            segs[1].1.materialize().unwrap(),
            [0, 0, 0x80, 0x3f, 0, 0, 0, 0x40]
        );
        let bad = "x\n;#DATASTART:4\n;#i32:0:1:zz\n;#DATAEND\n";
        let e = find_data_segments(bad, Radix::Spec).unwrap_err();
        assert_eq!(e.line, 3);
    }
}
