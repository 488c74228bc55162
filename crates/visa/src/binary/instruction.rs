//! Instruction records, decoded and encoded by walking the layout tables of
//! [`crate::isa`]. Nothing here knows any particular opcode.

use super::cursor::{Cursor, Sink};
use crate::error::{ReadError, WriteError};
use crate::isa::{Cond, Field, FieldKind, Opcode, Shape, Type, OPCODES};
use crate::model::*;
use crate::version::Version;

/// Smallest encoding of a raw operand (2-byte id before 3.4).
fn raw_size(version: Version) -> usize {
    if version.wide_ids() {
        6
    } else {
        4
    }
}

/// Decodes one instruction, pushing its operands onto `operands` after index
/// `start` (a routine's operand vector: each operand is written once, where it
/// stays), and returns its opcode and sub-opcode. On error, `operands` may hold part
/// of the instruction past `start`.
pub(crate) fn decode_operands(
    cur: &mut Cursor,
    version: Version,
    operands: &mut Vec<Operand>,
    start: usize,
) -> Result<(Opcode, Option<u8>), ReadError> {
    let at = cur.pos();
    let opcode = Opcode(cur.u8("opcode")?);
    let info = opcode
        .info()
        .ok_or_else(|| cur.invalid("opcode", at, format!("reserved opcode {:#04x}", opcode.0)))?;
    if matches!(info.shape, Shape::TextOnly(_)) || info.since > version {
        return Err(cur.invalid(
            "opcode",
            at,
            format!(
                "opcode {:#04x} ({}) does not exist in vISA {version} binaries",
                opcode.0, info.mnemonic
            ),
        ));
    }
    let subop = if opcode.has_subop() {
        let s_at = cur.pos();
        let s = cur.u8("subopcode")?;
        if opcode.layout(Some(s)).is_none() {
            return Err(cur.invalid(
                "subopcode",
                s_at,
                format!("no {} sub-opcode {s:#04x}", info.mnemonic),
            ));
        }
        Some(s)
    } else {
        None
    };
    let layout = opcode.layout(subop).expect("checked above");
    for field in layout.fields {
        let earlier = operands.get(start..).unwrap_or_default();
        if field.cond.version_allows(version) && field.cond.field_allows(earlier) {
            decode_field(cur, version, field, operands, start)?;
        } else {
            operands.push(Operand::Absent);
        }
    }
    Ok((opcode, subop))
}

/// What the quick decoder and the boundary scan need to know of a version, worked
/// out once per read.
#[derive(Debug)]
pub(crate) struct QuickVersion {
    version: Version,
    /// Operand type bytes the version has (what [`operand_type`] accepts).
    type_ok: [bool; 256],
    /// By vector tag: the operand's whole length (tag included) for the classes of
    /// fixed length, [`VECTOR_TYPED`] for indirect and immediate operands (their type
    /// byte decides), 0 for tags [`decode_vector`] refuses.
    vector_len: [u8; 256],
    /// By immediate type byte: the operand's whole length (tag and type included),
    /// 0 for types the version lacks.
    immediate_len: [u8; 256],
    /// By opcode: the field count of an opcode the version has whose layout the
    /// scan walks by its compiled shape ([`OPCODE_SHAPES`]), else 0.
    plain_fields: [u8; 256],
}

/// [`QuickVersion::vector_len`] of the classes whose type byte decides.
const VECTOR_TYPED: u8 = 0xFF;

impl QuickVersion {
    pub(crate) fn new(version: Version) -> Self {
        let mut type_ok = [false; 256];
        for (byte, ok) in type_ok.iter_mut().enumerate() {
            *ok = version.has_type(Type::of_operand_byte(byte as u8));
        }
        let id = if version.wide_ids() { 4 } else { 2 };
        let mut vector_len = [0u8; 256];
        for (tag, len) in vector_len.iter_mut().enumerate() {
            if tag & 0xC0 != 0 {
                continue;
            }
            *len = match tag & 7 {
                0 => 1 + id + 4,
                1 | 6 => 5,
                2 => 3,
                3 | 5 => VECTOR_TYPED,
                _ => 0,
            };
        }
        let mut immediate_len = [0u8; 256];
        for (ty, len) in immediate_len.iter_mut().enumerate() {
            if type_ok[ty] {
                *len = if Type(ty as u8 & 0xF).is_wide_immediate() {
                    10
                } else {
                    6
                };
            }
        }
        let mut plain_fields = [0u8; 256];
        for (code, n) in plain_fields.iter_mut().enumerate() {
            let shape = OPCODE_SHAPES[code];
            if shape != 0
                && Opcode(code as u8)
                    .info()
                    .is_some_and(|i| i.since <= version)
            {
                *n = (64 - shape.leading_zeros()).div_ceil(4) as u8;
            }
        }
        QuickVersion {
            version,
            type_ok,
            vector_len,
            immediate_len,
            plain_fields,
        }
    }

    pub(crate) fn version(&self) -> Version {
        self.version
    }
}

/// Finds the end of the instruction at `*pos` and advances past it, accepting
/// exactly what [`decode_quick`] decodes (the same checks: opcode and version,
/// sub-opcode, vector tags and classes, type bytes, list counts, truncation) but
/// storing no operand; returns the instruction's operand count (its layout's field
/// count). An opcode with a compiled shape is walked by its straight-line skipper
/// (fixed widths folded into constants, a vector one table look-up by tag); any other
/// goes through [`decode_quick`] into `scratch`. `None`: not accepted here, as
/// [`decode_quick`]'s `None`.
#[inline]
pub(crate) fn skip_quick<const WIDE: bool>(
    bytes: &[u8],
    pos: &mut usize,
    quick: &QuickVersion,
    scratch: &mut Vec<Operand>,
) -> Option<usize> {
    let code = *bytes.get(*pos)?;
    let fields = quick.plain_fields[usize::from(code)];
    if fields != 0 {
        let mut p = *pos + 1;
        let skippers = if WIDE {
            &WIDE_SKIPPERS
        } else {
            &NARROW_SKIPPERS
        };
        skippers[usize::from(code >> 4)][usize::from(code & 0xF)](bytes, &mut p, quick)?;
        *pos = p;
        return Some(usize::from(fields));
    }
    scratch.clear();
    decode_quick::<WIDE>(bytes, pos, quick, scratch)?;
    Some(scratch.len())
}

/// One field of a compiled skipper; `false` at the end of the program. Fixed-width
/// fields only move `p`: the vectors' look-ups and the skipper's last check catch a
/// truncation.
#[inline(always)]
fn skip_step<const WIDE: bool>(
    step: u64,
    bytes: &[u8],
    p: &mut usize,
    quick: &QuickVersion,
) -> Option<bool> {
    match step {
        0 => return Some(false),
        1 | 6 => *p += 1,
        2 | 5 | 7 => *p += 2,
        3 => *p = skip_vector(bytes, *p, quick)?,
        4 => *p += if WIDE { 6 } else { 4 },
        8 => *p += 4,
        9 => *p += if WIDE { 4 } else { 2 },
        _ => return None,
    }
    Some(true)
}

/// The end of the vector operand at `p`, checked as [`quick_vector`] checks it.
#[inline(always)]
fn skip_vector(bytes: &[u8], p: usize, quick: &QuickVersion) -> Option<usize> {
    let tag = *bytes.get(p)?;
    let mut len = quick.vector_len[usize::from(tag)];
    if len == VECTOR_TYPED {
        len = if tag & 7 == 3 {
            // addr (2), addr_offset (1), offset (2), then the type byte.
            if !quick.type_ok[usize::from(*bytes.get(p + 6)?)] {
                return None;
            }
            9
        } else {
            quick.immediate_len[usize::from(*bytes.get(p + 1)?)]
        };
    }
    let end = p + usize::from(len);
    if len == 0 || end > bytes.len() {
        return None;
    }
    Some(end)
}

/// The skipper of one layout shape, compiled from its constant program as
/// [`decode_shape`] is.
fn skip_shape<const WIDE: bool, const SHAPE: u64>(
    bytes: &[u8],
    p: &mut usize,
    quick: &QuickVersion,
) -> Option<()> {
    macro_rules! steps {
        ($($n:literal)*) => {$(
            if !skip_step::<WIDE>((SHAPE >> (4 * $n)) & 0xF, bytes, p, quick)? {
                return (*p <= bytes.len()).then_some(());
            }
        )*};
    }
    steps!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14);
    (*p <= bytes.len()).then_some(())
}

type ShapeSkipper = fn(&[u8], &mut usize, &QuickVersion) -> Option<()>;

/// `N` bytes at `*pos`, advancing past them; `None` past the end.
#[inline(always)]
fn take<const N: usize>(bytes: &[u8], pos: &mut usize) -> Option<[u8; N]> {
    let a = *bytes.get(*pos..)?.first_chunk::<N>()?;
    *pos += N;
    Some(a)
}

/// An id: 4 bytes when `WIDE` (vISA 3.4 on), else 2.
#[inline(always)]
fn take_id<const WIDE: bool>(bytes: &[u8], pos: &mut usize) -> Option<u32> {
    if WIDE {
        take::<4>(bytes, pos).map(u32::from_le_bytes)
    } else {
        take::<2>(bytes, pos).map(|b| u16::from_le_bytes(b).into())
    }
}

/// Decodes the instruction at `*pos` as [`decode_operands`] does, pushing its
/// operands onto `operands` and advancing `*pos` past it, but answers only "decoded"
/// or "not decoded here" (`None`): anything unusual (a truncation, a reserved tag or
/// type, an opcode the version lacks) is left to [`decode_operands`], which the
/// caller runs on the same bytes for the exact error. Without error values every
/// read is one bounds check and one fixed-size load, `WIDE` (ids of 4 bytes, vISA
/// 3.4 on) is decided once per stream, and the operands are reserved once.
/// On `None`, `operands` may hold part of the instruction past its start.
#[inline]
pub(crate) fn decode_quick<const WIDE: bool>(
    bytes: &[u8],
    pos: &mut usize,
    quick: &QuickVersion,
    operands: &mut Vec<Operand>,
) -> Option<(Opcode, Option<u8>)> {
    let version = quick.version;
    let mut p = *pos;
    let opcode = Opcode(take::<1>(bytes, &mut p)?[0]);
    let info = opcode.info()?;
    if info.since > version {
        return None;
    }
    // What `Opcode::layout` answers, from the one table look-up.
    let (subop, fields) = match info.shape {
        Shape::Fixed(fields) => (None, fields),
        Shape::Sub(table) => {
            let s = take::<1>(bytes, &mut p)?[0];
            (Some(s), table.get(usize::from(s))?.as_ref()?.fields)
        }
        Shape::TextOnly(_) => return None,
    };
    let start = operands.len();
    operands.reserve(fields.len());
    if subop.is_none() && OPCODE_SHAPES[usize::from(opcode.0)] != 0 {
        let decoders = if WIDE {
            &WIDE_DECODERS
        } else {
            &NARROW_DECODERS
        };
        decoders[usize::from(opcode.0 >> 4)][usize::from(opcode.0 & 0xF)](
            bytes, &mut p, quick, operands,
        )?;
        *pos = p;
        return Some((opcode, subop));
    }
    for field in fields {
        let present = match field.cond {
            Cond::Always => true,
            Cond::Since(v) => version >= v,
            Cond::Before(v) => version < v,
            Cond::Bits { field, mask } => {
                matches!(operands.get(start + field), Some(Operand::Int(v)) if v & mask != 0)
            }
            Cond::Equals { field, value } => {
                matches!(operands.get(start + field), Some(Operand::Int(v)) if *v == value)
            }
        };
        if !present {
            operands.push(Operand::Absent);
            continue;
        }
        let step = plain_step(field.kind);
        if step != 0 {
            shape_step::<WIDE>(step, bytes, &mut p, quick, operands)?;
            continue;
        }
        let value = match field.kind {
            FieldKind::SamplerOp => {
                if version.major >= 4 {
                    Operand::Int(u16::from_le_bytes(take(bytes, &mut p)?).into())
                } else {
                    Operand::Int(take::<1>(bytes, &mut p)?[0].into())
                }
            }
            FieldKind::Aoffimmi => {
                if WIDE {
                    Operand::Vector(quick_vector::<WIDE>(bytes, &mut p, quick)?)
                } else {
                    Operand::Int(u16::from_le_bytes(take(bytes, &mut p)?).into())
                }
            }
            FieldKind::RawList(count_field) => {
                let n = count_of(operands.get(start..)?, count_field);
                // Nothing is allocated for a count the rest of the stream cannot hold.
                let raw_size = if WIDE { 6 } else { 4 };
                if n > bytes.len().saturating_sub(p) / raw_size {
                    return None;
                }
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    v.push(quick_raw::<WIDE>(bytes, &mut p)?);
                }
                Operand::RawList(Box::new(v))
            }
            FieldKind::LabelList(count_field) => {
                let n = count_of(operands.get(start..)?, count_field);
                if n > bytes.len().saturating_sub(p) / 2 {
                    return None;
                }
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    v.push(u16::from_le_bytes(take(bytes, &mut p)?));
                }
                Operand::LabelList(Box::new(v))
            }
            _ => return None,
        };
        operands.push(value);
    }
    *pos = p;
    Some((opcode, subop))
}

/// The step of [`shape_step`] that decodes a field of `kind`, or 0 for kinds whose
/// width depends on more than the id width (lists, sampler ops, `aoffimmi`).
const fn plain_step(kind: FieldKind) -> u64 {
    match kind {
        FieldKind::Exec => 1,
        FieldKind::Pred => 2,
        FieldKind::Vector => 3,
        FieldKind::Raw => 4,
        FieldKind::Label => 5,
        FieldKind::U8 => 6,
        FieldKind::U16 => 7,
        FieldKind::U32 | FieldKind::I32 => 8,
        FieldKind::WideId => 9,
        _ => 0,
    }
}

/// A layout as a program for the specialised decoders: one nibble per field (first
/// field lowest, 0 ends it), or 0 when a field is not one they take (a presence
/// condition, a list, a width that depends on more than the id width).
const fn shape_code(fields: &[Field]) -> u64 {
    if fields.len() > 15 {
        return 0;
    }
    let mut code = 0u64;
    let mut i = fields.len();
    while i > 0 {
        i -= 1;
        if !matches!(fields[i].cond, Cond::Always) {
            return 0;
        }
        let step = plain_step(fields[i].kind);
        if step == 0 {
            return 0;
        }
        code = code << 4 | step;
    }
    code
}

/// Every opcode's [`shape_code`], from the opcode table (0 for sub-opcode families).
const OPCODE_SHAPES: [u64; 256] = {
    let mut shapes = [0; 256];
    let mut i = 0;
    while i < OPCODES.len() {
        if let Shape::Fixed(fields) = OPCODES[i].shape {
            shapes[OPCODES[i].code as usize] = shape_code(fields);
        }
        i += 1;
    }
    shapes
};

/// One field of a specialised decoder; `false` at the end of the program. With
/// `step` a constant every call folds to its one field's code.
#[inline(always)]
fn shape_step<const WIDE: bool>(
    step: u64,
    bytes: &[u8],
    p: &mut usize,
    quick: &QuickVersion,
    operands: &mut Vec<Operand>,
) -> Option<bool> {
    let value = match step {
        0 => return Some(false),
        1 => Operand::Exec(ExecCtrl(take::<1>(bytes, p)?[0])),
        2 => Operand::Pred(Pred(u16::from_le_bytes(take(bytes, p)?))),
        3 => Operand::Vector(quick_vector::<WIDE>(bytes, p, quick)?),
        4 => Operand::Raw(quick_raw::<WIDE>(bytes, p)?),
        5 => Operand::Label(u16::from_le_bytes(take(bytes, p)?)),
        6 => Operand::Int(take::<1>(bytes, p)?[0].into()),
        7 => Operand::Int(u16::from_le_bytes(take(bytes, p)?).into()),
        8 => Operand::Int(u32::from_le_bytes(take(bytes, p)?)),
        9 => Operand::Int(take_id::<WIDE>(bytes, p)?),
        _ => return None,
    };
    operands.push(value);
    Some(true)
}

/// The decoder of one layout shape, compiled once per shape from its constant
/// program: straight-line code, no dispatch per field (the jump per field of the
/// generic loop was mispredicted from one instruction to the next).
fn decode_shape<const WIDE: bool, const SHAPE: u64>(
    bytes: &[u8],
    p: &mut usize,
    quick: &QuickVersion,
    operands: &mut Vec<Operand>,
) -> Option<()> {
    macro_rules! steps {
        ($($n:literal)*) => {$(
            if !shape_step::<WIDE>((SHAPE >> (4 * $n)) & 0xF, bytes, p, quick, operands)? {
                return Some(());
            }
        )*};
    }
    steps!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14);
    Some(())
}

type ShapeDecoder = fn(&[u8], &mut usize, &QuickVersion, &mut Vec<Operand>) -> Option<()>;

/// The specialised decoder (or skipper) of every opcode, by high and low nibble of
/// its code.
macro_rules! shape_decoders {
    ($f:ident, $wide:literal; $($hi:literal)*) => {
        [$(shape_decoders!(@row $f, $wide, $hi)),*]
    };
    (@row $f:ident, $wide:literal, $hi:literal) => {
        [
            $f::<$wide, { OPCODE_SHAPES[$hi * 16] }>,
            $f::<$wide, { OPCODE_SHAPES[$hi * 16 + 1] }>,
            $f::<$wide, { OPCODE_SHAPES[$hi * 16 + 2] }>,
            $f::<$wide, { OPCODE_SHAPES[$hi * 16 + 3] }>,
            $f::<$wide, { OPCODE_SHAPES[$hi * 16 + 4] }>,
            $f::<$wide, { OPCODE_SHAPES[$hi * 16 + 5] }>,
            $f::<$wide, { OPCODE_SHAPES[$hi * 16 + 6] }>,
            $f::<$wide, { OPCODE_SHAPES[$hi * 16 + 7] }>,
            $f::<$wide, { OPCODE_SHAPES[$hi * 16 + 8] }>,
            $f::<$wide, { OPCODE_SHAPES[$hi * 16 + 9] }>,
            $f::<$wide, { OPCODE_SHAPES[$hi * 16 + 10] }>,
            $f::<$wide, { OPCODE_SHAPES[$hi * 16 + 11] }>,
            $f::<$wide, { OPCODE_SHAPES[$hi * 16 + 12] }>,
            $f::<$wide, { OPCODE_SHAPES[$hi * 16 + 13] }>,
            $f::<$wide, { OPCODE_SHAPES[$hi * 16 + 14] }>,
            $f::<$wide, { OPCODE_SHAPES[$hi * 16 + 15] }>,
        ]
    };
}

static WIDE_DECODERS: [[ShapeDecoder; 16]; 16] =
    shape_decoders!(decode_shape, true; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
static NARROW_DECODERS: [[ShapeDecoder; 16]; 16] =
    shape_decoders!(decode_shape, false; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
static WIDE_SKIPPERS: [[ShapeSkipper; 16]; 16] =
    shape_decoders!(skip_shape, true; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
static NARROW_SKIPPERS: [[ShapeSkipper; 16]; 16] =
    shape_decoders!(skip_shape, false; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);

#[inline(always)]
fn quick_raw<const WIDE: bool>(bytes: &[u8], pos: &mut usize) -> Option<Raw> {
    if WIDE {
        let b = take::<6>(bytes, pos)?;
        Some(Raw {
            id: u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            offset: u16::from_le_bytes([b[4], b[5]]),
        })
    } else {
        let b = take::<4>(bytes, pos)?;
        Some(Raw {
            id: u16::from_le_bytes([b[0], b[1]]).into(),
            offset: u16::from_le_bytes([b[2], b[3]]),
        })
    }
}

/// A vector operand as [`decode_vector`] reads it, each class's bytes in one load.
#[inline(always)]
fn quick_vector<const WIDE: bool>(
    bytes: &[u8],
    pos: &mut usize,
    quick: &QuickVersion,
) -> Option<Vector> {
    let tag = take::<1>(bytes, pos)?[0];
    if tag & 0xC0 != 0 {
        return None;
    }
    let modifier = Modifier((tag >> 3) & 0x7);
    let kind = match tag & 0x7 {
        0 => {
            let (id, b) = if WIDE {
                let b = take::<8>(bytes, pos)?;
                (
                    u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                    [b[4], b[5], b[6], b[7]],
                )
            } else {
                let b = take::<6>(bytes, pos)?;
                (
                    u16::from_le_bytes([b[0], b[1]]).into(),
                    [b[2], b[3], b[4], b[5]],
                )
            };
            VectorKind::General {
                id,
                row: b[0],
                col: b[1],
                region: Region(u16::from_le_bytes([b[2], b[3]])),
            }
        }
        1 => {
            let b = take::<4>(bytes, pos)?;
            VectorKind::Address {
                id: u16::from_le_bytes([b[0], b[1]]),
                offset: b[2],
                width: b[3],
            }
        }
        2 => VectorKind::Predicate(Pred(u16::from_le_bytes(take(bytes, pos)?))),
        3 => {
            let b = take::<8>(bytes, pos)?;
            if !quick.type_ok[b[5] as usize] {
                return None;
            }
            VectorKind::Indirect {
                addr: u16::from_le_bytes([b[0], b[1]]),
                addr_offset: b[2],
                offset: i16::from_le_bytes([b[3], b[4]]),
                ty: b[5],
                region: Region(u16::from_le_bytes([b[6], b[7]])),
            }
        }
        5 => {
            let ty = take::<1>(bytes, pos)?[0];
            if !quick.type_ok[ty as usize] {
                return None;
            }
            let bits = if Type(ty & 0xF).is_wide_immediate() {
                u64::from_le_bytes(take(bytes, pos)?)
            } else {
                u32::from_le_bytes(take(bytes, pos)?).into()
            };
            VectorKind::Immediate {
                ty,
                bits: bits.into(),
            }
        }
        6 => {
            let b = take::<4>(bytes, pos)?;
            VectorKind::State {
                class: b[0],
                index: u16::from_le_bytes([b[1], b[2]]),
                offset: b[3],
            }
        }
        _ => return None,
    };
    Some(Vector { modifier, kind })
}

fn count_of(operands: &[Operand], index: usize) -> usize {
    match operands.get(index) {
        Some(Operand::Int(n)) => *n as usize,
        _ => 0,
    }
}

/// Decodes one field and pushes its value onto `operands`, whose entries from `start`
/// on are the instruction's earlier fields. Pushing here, rather than returning the
/// operand, writes it once: a returned operand was copied through the stack in
/// overlapping pieces that stalled the loads (store-forwarding failures).
pub(crate) fn decode_field(
    cur: &mut Cursor,
    version: Version,
    field: &Field,
    operands: &mut Vec<Operand>,
    start: usize,
) -> Result<(), ReadError> {
    let name = field.name;
    let earlier = operands.get(start..).unwrap_or_default();
    let value = match field.kind {
        FieldKind::Exec => Operand::Exec(ExecCtrl(cur.u8(name)?)),
        FieldKind::Pred => Operand::Pred(Pred(cur.u16(name)?)),
        FieldKind::Vector => Operand::Vector(decode_vector(cur, version, name)?),
        FieldKind::Raw => Operand::Raw(decode_raw(cur, version, name)?),
        FieldKind::Label => Operand::Label(cur.u16(name)?),
        FieldKind::U8 => Operand::Int(cur.u8(name)?.into()),
        FieldKind::U16 => Operand::Int(cur.u16(name)?.into()),
        FieldKind::U32 => Operand::Int(cur.u32(name)?),
        FieldKind::I32 => Operand::Int(cur.i32(name)? as u32),
        FieldKind::SamplerOp => {
            if version.major >= 4 {
                Operand::Int(cur.u16(name)?.into())
            } else {
                Operand::Int(cur.u8(name)?.into())
            }
        }
        FieldKind::Aoffimmi => {
            if version.wide_ids() {
                Operand::Vector(decode_vector(cur, version, name)?)
            } else {
                Operand::Int(cur.u16(name)?.into())
            }
        }
        FieldKind::WideId => Operand::Int(cur.id(version, name)?),
        FieldKind::RawList(count_field) => {
            let n = count_of(earlier, count_field);
            cur.check_count(n, raw_size(version), usize::MAX, name, cur.pos())?;
            let mut v = Vec::with_capacity(n);
            for _ in 0..n {
                v.push(decode_raw(cur, version, name)?);
            }
            Operand::RawList(Box::new(v))
        }
        FieldKind::LabelList(count_field) => {
            let n = count_of(earlier, count_field);
            cur.check_count(n, 2, usize::MAX, name, cur.pos())?;
            let mut v = Vec::with_capacity(n);
            for _ in 0..n {
                v.push(cur.u16(name)?);
            }
            Operand::LabelList(Box::new(v))
        }
    };
    operands.push(value);
    Ok(())
}

#[inline(always)]
fn decode_raw(cur: &mut Cursor, version: Version, name: &'static str) -> Result<Raw, ReadError> {
    Ok(Raw {
        id: cur.id(version, name)?,
        offset: cur.u16(name)?,
    })
}

// Inlined into the field decoder: returned through the stack, the vector was
// copied in overlapping pieces that stalled the loads reading it back.
#[inline(always)]
fn decode_vector(
    cur: &mut Cursor,
    version: Version,
    name: &'static str,
) -> Result<Vector, ReadError> {
    let at = cur.pos();
    let tag = cur.u8(name)?;
    if tag & 0xC0 != 0 {
        return Err(cur.invalid(
            name,
            at,
            format!("operand tag {tag:#04x} has reserved bits 6-7 set"),
        ));
    }
    let modifier = Modifier((tag >> 3) & 0x7);
    let kind = match tag & 0x7 {
        0 => VectorKind::General {
            id: cur.id(version, name)?,
            row: cur.u8(name)?,
            col: cur.u8(name)?,
            region: Region(cur.u16(name)?),
        },
        1 => VectorKind::Address { id: cur.u16(name)?, offset: cur.u8(name)?, width: cur.u8(name)? },
        2 => VectorKind::Predicate(Pred(cur.u16(name)?)),
        3 => VectorKind::Indirect {
            addr: cur.u16(name)?,
            addr_offset: cur.u8(name)?,
            offset: cur.i16(name)?,
            ty: operand_type(cur, version, name)?,
            region: Region(cur.u16(name)?),
        },
        5 => {
            let ty = operand_type(cur, version, name)?;
            let bits = if Type(ty & 0xF).is_wide_immediate() { cur.u64(name)? } else { cur.u32(name)?.into() };
            VectorKind::Immediate { ty, bits: bits.into() }
        }
        6 => VectorKind::State { class: cur.u8(name)?, index: cur.u16(name)?, offset: cur.u8(name)? },
        c => {
            return Err(cur.invalid(
                name,
                at,
                format!("operand class {c} cannot be stored (tag {tag:#04x}; 4 is address-of, in memory only)"),
            ))
        }
    };
    Ok(Vector { modifier, kind })
}

/// An operand's type byte, refused when it names a type the file's version does not
/// have (what reads must write back).
fn operand_type(cur: &mut Cursor, version: Version, name: &'static str) -> Result<u8, ReadError> {
    let at = cur.pos();
    let byte = cur.u8(name)?;
    let ty = Type::of_operand_byte(byte);
    if !version.has_type(ty) {
        return Err(cur.invalid(
            name,
            at,
            format!(
                "type code {byte:#04x} ({}) does not exist in vISA {version}",
                ty.name().unwrap_or("?")
            ),
        ));
    }
    Ok(byte)
}

// ---------------------------------------------------------------- encoding

pub(crate) fn encode(
    sink: &mut Sink,
    version: Version,
    inst: InstRef<'_>,
    context: &dyn Fn() -> String,
) -> Result<(), WriteError> {
    let err = |reason: String| WriteError {
        context: context(),
        reason,
    };
    let info = inst
        .opcode
        .info()
        .ok_or_else(|| err(format!("reserved opcode {:#04x}", inst.opcode.0)))?;
    if matches!(info.shape, Shape::TextOnly(_)) || info.since > version {
        return Err(err(format!(
            "{} has no binary encoding in vISA {version}",
            info.mnemonic
        )));
    }
    let layout = inst.opcode.layout(inst.subop).ok_or_else(|| {
        err(format!(
            "{}: invalid or missing sub-opcode {:?}",
            info.mnemonic, inst.subop
        ))
    })?;
    if inst.operands.len() != layout.fields.len() {
        return Err(err(format!(
            "{}: {} operands given, the layout has {} fields",
            layout.mnemonic,
            inst.operands.len(),
            layout.fields.len()
        )));
    }
    sink.u8(inst.opcode.0);
    if let Some(s) = inst.subop {
        sink.u8(s);
    }
    for (i, (field, value)) in layout.fields.iter().zip(inst.operands).enumerate() {
        let present =
            field.cond.version_allows(version) && field.cond.field_allows(&inst.operands[..i]);
        match (present, value) {
            (false, Operand::Absent) => {}
            (false, _) => {
                return Err(err(format!(
                    "{}: field `{}` must be absent here",
                    layout.mnemonic, field.name
                )))
            }
            (true, Operand::Absent) => {
                return Err(err(format!(
                    "{}: field `{}` is missing",
                    layout.mnemonic, field.name
                )))
            }
            (true, v) => encode_field(sink, version, field, v, &inst.operands[..i])
                .map_err(|r| err(format!("{}: field `{}`: {r}", layout.mnemonic, field.name)))?,
        }
    }
    Ok(())
}

fn put_id(sink: &mut Sink, version: Version, id: u32) -> Result<(), String> {
    if version.wide_ids() {
        sink.u32(id);
    } else {
        sink.u16(
            u16::try_from(id)
                .map_err(|_| format!("id {id} does not fit the 2-byte ids of vISA {version}"))?,
        );
    }
    Ok(())
}

fn int_fits(v: u32, bytes: u32) -> Result<u32, String> {
    if bytes < 4 && v >> (8 * bytes) != 0 {
        return Err(format!("value {v} does not fit {bytes} byte(s)"));
    }
    Ok(v)
}

fn encode_field(
    sink: &mut Sink,
    version: Version,
    field: &Field,
    value: &Operand,
    earlier: &[Operand],
) -> Result<(), String> {
    let mismatch = || format!("expected a {:?} value, got {value:?}", field.kind);
    match (field.kind, value) {
        (FieldKind::Exec, Operand::Exec(e)) => sink.u8(e.0),
        (FieldKind::Pred, Operand::Pred(p)) => sink.u16(p.0),
        (FieldKind::Vector, Operand::Vector(v)) => encode_vector(sink, version, v)?,
        (FieldKind::Raw, Operand::Raw(r)) => encode_raw(sink, version, r)?,
        (FieldKind::Label, Operand::Label(l)) => sink.u16(*l),
        (FieldKind::U8, Operand::Int(v)) => sink.u8(int_fits(*v, 1)? as u8),
        (FieldKind::U16, Operand::Int(v)) => sink.u16(int_fits(*v, 2)? as u16),
        (FieldKind::U32 | FieldKind::I32, Operand::Int(v)) => sink.u32(*v),
        (FieldKind::SamplerOp, Operand::Int(v)) => {
            if version.major >= 4 {
                sink.u16(int_fits(*v, 2)? as u16)
            } else {
                sink.u8(int_fits(*v, 1)? as u8)
            }
        }
        (FieldKind::Aoffimmi, Operand::Vector(v)) if version.wide_ids() => {
            encode_vector(sink, version, v)?
        }
        (FieldKind::Aoffimmi, Operand::Int(v)) if !version.wide_ids() => {
            sink.u16(int_fits(*v, 2)? as u16)
        }
        (FieldKind::WideId, Operand::Int(v)) => put_id(sink, version, *v)?,
        (FieldKind::RawList(c), Operand::RawList(list)) => {
            if list.len() != count_of(earlier, c) {
                return Err(format!(
                    "{} operands listed, the count field says {}",
                    list.len(),
                    count_of(earlier, c)
                ));
            }
            for r in list.iter() {
                encode_raw(sink, version, r)?;
            }
        }
        (FieldKind::LabelList(c), Operand::LabelList(list)) => {
            if list.len() != count_of(earlier, c) {
                return Err(format!(
                    "{} labels listed, the count field says {}",
                    list.len(),
                    count_of(earlier, c)
                ));
            }
            for l in list.iter() {
                sink.u16(*l);
            }
        }
        _ => return Err(mismatch()),
    }
    Ok(())
}

fn encode_raw(sink: &mut Sink, version: Version, r: &Raw) -> Result<(), String> {
    put_id(sink, version, r.id)?;
    sink.u16(r.offset);
    Ok(())
}

fn encode_vector(sink: &mut Sink, version: Version, v: &Vector) -> Result<(), String> {
    if v.modifier.0 > 7 {
        return Err(format!("modifier {} does not fit 3 bits", v.modifier.0));
    }
    if let VectorKind::Immediate { ty, .. } | VectorKind::Indirect { ty, .. } = v.kind {
        if (0x10..=0x13).contains(&ty) {
            return Err(format!(
                "type {} exists only in vISA 4.2 text",
                Type(ty).name().unwrap_or("?")
            ));
        }
    }
    sink.u8(v.kind.class_code() | (v.modifier.0 << 3));
    match v.kind {
        VectorKind::General {
            id,
            row,
            col,
            region,
        } => {
            put_id(sink, version, id)?;
            sink.u8(row);
            sink.u8(col);
            sink.u16(region.0);
        }
        VectorKind::Address { id, offset, width } => {
            sink.u16(id);
            sink.u8(offset);
            sink.u8(width);
        }
        VectorKind::Predicate(p) => sink.u16(p.0),
        VectorKind::Indirect {
            addr,
            addr_offset,
            offset,
            ty,
            region,
        } => {
            sink.u16(addr);
            sink.u8(addr_offset);
            sink.i16(offset);
            sink.u8(ty);
            sink.u16(region.0);
        }
        VectorKind::Immediate { ty, bits } => {
            let bits = bits.get();
            sink.u8(ty);
            if Type(ty & 0xF).is_wide_immediate() {
                sink.u64(bits);
            } else {
                sink.u32(
                    u32::try_from(bits)
                        .map_err(|_| format!("immediate {bits:#x} does not fit 4 bytes"))?,
                );
            }
        }
        VectorKind::State {
            class,
            index,
            offset,
        } => {
            sink.u8(class);
            sink.u16(index);
            sink.u8(offset);
        }
    }
    Ok(())
}
