//! The grammar of instruction layouts: what fields an instruction has, in order,
//! and when each is present. The tables in `table.rs` are written in it.

use crate::model::Operand;
use crate::version::Version;

/// How one field is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// Execution-control byte.
    Exec,
    /// Predicate (2 bytes).
    Pred,
    /// Vector operand.
    Vector,
    /// Raw operand.
    Raw,
    /// Label index (2 bytes).
    Label,
    U8,
    U16,
    U32,
    /// A signed 32-bit field (LSC immediate offset).
    I32,
    /// The 3D sampler operation: 1 byte before vISA 4.0, 2 bytes from 4.0
    /// (bits 0-7 op, 8 pixel-null-mask, 9 CPS enable, 10 non-uniform sampler).
    SamplerOp,
    /// The 3D sampler texel offset: a 2-byte immediate before vISA 3.4, a vector operand from 3.4.
    Aoffimmi,
    /// A string index or variable id: 2 bytes before vISA 3.4, 4 bytes from 3.4.
    WideId,
    /// Raw operands, as many as the value of the field at the given index.
    RawList(usize),
    /// Labels, as many as the value of the field at the given index.
    LabelList(usize),
}

/// When a field is present.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cond {
    Always,
    /// From this version on.
    Since(Version),
    /// Before this version.
    Before(Version),
    /// When the field at `field` has any of the bits in `mask` set.
    Bits {
        field: usize,
        mask: u32,
    },
    /// When the field at `field` equals `value`.
    Equals {
        field: usize,
        value: u32,
    },
}

impl Cond {
    /// Whether the version admits the field (value conditions are decided later).
    pub fn version_allows(self, v: Version) -> bool {
        match self {
            Cond::Since(s) => v >= s,
            Cond::Before(b) => v < b,
            _ => true,
        }
    }
    /// Whether the values read so far admit the field.
    pub fn field_allows(self, earlier: &[Operand]) -> bool {
        let value = |i: usize| match earlier.get(i) {
            Some(Operand::Int(v)) => Some(*v),
            _ => None,
        };
        match self {
            Cond::Bits { field, mask } => value(field).is_some_and(|v| v & mask != 0),
            Cond::Equals { field, value: want } => value(field) == Some(want),
            _ => true,
        }
    }
}

/// One field of a layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field's role (`dst`, `src0`, `surface`, `chmask`, ...), as the spec names it.
    pub name: &'static str,
    pub kind: FieldKind,
    pub cond: Cond,
}

/// The layout of one opcode (or one sub-opcode of a family).
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub mnemonic: &'static str,
    pub fields: &'static [Field],
}

/// The instruction classes of the spec (`ISA_Inst_Type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Class {
    Mov,
    Arith,
    Logic,
    Compare,
    Address,
    Flow,
    SimdFlow,
    DataPort,
    Sampler,
    Misc,
    Sync,
    Svm,
    Lsc,
}

pub(crate) const fn f(name: &'static str, kind: FieldKind) -> Field {
    Field {
        name,
        kind,
        cond: Cond::Always,
    }
}
pub(crate) const fn when(name: &'static str, kind: FieldKind, cond: Cond) -> Field {
    Field { name, kind, cond }
}
