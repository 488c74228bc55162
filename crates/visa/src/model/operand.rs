//! Operands as the binary encodes them (spec 4.6 and `5_operands.md`).

/// The execution-control byte: log2 of the exec size (bits 0-3) and the emask (bits 4-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExecCtrl(pub u8);

impl ExecCtrl {
    pub fn new(exec_size: u32, emask: u8) -> Option<Self> {
        let code = match exec_size {
            1 => 0,
            2 => 1,
            4 => 2,
            8 => 3,
            16 => 4,
            32 => 5,
            _ => return None,
        };
        Some(ExecCtrl(code | (emask << 4)))
    }
    pub fn size_code(self) -> u8 {
        self.0 & 0xF
    }
    /// Execution size in channels, if the code is one of the six legal ones.
    pub fn exec_size(self) -> Option<u32> {
        match self.size_code() {
            c @ 0..=5 => Some(1 << c),
            _ => None,
        }
    }
    /// Emask code: 0-7 M1..M8, 8-15 M1_NM..M8_NM (numbering of 3.1 and later).
    pub fn emask(self) -> u8 {
        self.0 >> 4
    }
}

/// A predicate field: bits 0-11 predicate id (0 = none), bits 13-14 control
/// (1 any, 2 all), bit 15 inverse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Pred(pub u16);

impl Pred {
    pub const NONE: Pred = Pred(0);
    pub fn id(self) -> u16 {
        self.0 & 0xFFF
    }
    pub fn control(self) -> u8 {
        ((self.0 >> 13) & 0x3) as u8
    }
    pub fn inverse(self) -> bool {
        self.0 & 0x8000 != 0
    }
    pub fn is_none(self) -> bool {
        self.id() == 0
    }
}

/// A region: vertical stride (bits 0-3), width (4-7), horizontal stride (8-11), each a
/// code: 0 null, 1 -> 0, 2 -> 1, 3 -> 2, 4 -> 4, 5 -> 8, 6 -> 16, 7 -> 32.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Region(pub u16);

impl Region {
    pub fn code_value(code: u8) -> Option<u16> {
        match code {
            1 => Some(0),
            2..=7 => Some(1 << (code - 2)),
            _ => None,
        }
    }
    pub fn value_code(value: u16) -> Option<u8> {
        match value {
            0 => Some(1),
            1 | 2 | 4 | 8 | 16 | 32 => Some(value.trailing_zeros() as u8 + 2),
            _ => None,
        }
    }
    /// Builds a region from element counts (`<vstride;width,hstride>`); `None` where a value has no code.
    pub fn from_values(vstride: u16, width: u16, hstride: u16) -> Option<Region> {
        let v = Self::value_code(vstride)? as u16;
        let w = Self::value_code(width)? as u16;
        let h = Self::value_code(hstride)? as u16;
        Some(Region(v | (w << 4) | (h << 8)))
    }
    /// A destination region: only the horizontal stride is present.
    pub fn dst(hstride: u16) -> Option<Region> {
        Some(Region((Self::value_code(hstride)? as u16) << 8))
    }
    pub fn vstride_code(self) -> u8 {
        (self.0 & 0xF) as u8
    }
    pub fn width_code(self) -> u8 {
        ((self.0 >> 4) & 0xF) as u8
    }
    pub fn hstride_code(self) -> u8 {
        ((self.0 >> 8) & 0xF) as u8
    }
    pub fn vstride(self) -> Option<u16> {
        Self::code_value(self.vstride_code())
    }
    pub fn width(self) -> Option<u16> {
        Self::code_value(self.width_code())
    }
    pub fn hstride(self) -> Option<u16> {
        Self::code_value(self.hstride_code())
    }
}

/// Source modifier (tag bits 3-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Modifier(pub u8);

impl Modifier {
    pub const NONE: Modifier = Modifier(0);
    pub const ABS: Modifier = Modifier(1);
    pub const NEG: Modifier = Modifier(2);
    pub const NEG_ABS: Modifier = Modifier(3);
    pub const SAT: Modifier = Modifier(4);
    pub const NOT: Modifier = Modifier(5);
}

/// A vector operand (`vector_operand`): the common operand of arithmetic, logic and
/// most message instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Vector {
    pub modifier: Modifier,
    pub kind: VectorKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VectorKind {
    /// Class 0: a general variable region.
    General {
        id: u32,
        row: u8,
        col: u8,
        region: Region,
    },
    /// Class 1: an address register element; `width` is an exec-size code.
    Address { id: u16, offset: u8, width: u8 },
    /// Class 2: a predicate variable, same packing as [`Pred`].
    Predicate(Pred),
    /// Class 3: register-indirect, `r[A<addr>(<addr_offset>), <offset>]<region>:<type>`.
    Indirect {
        addr: u16,
        addr_offset: u8,
        offset: i16,
        ty: u8,
        region: Region,
    },
    /// Class 5: an immediate; `bits` holds 8 bytes for df/q/uq, else 4.
    Immediate { ty: u8, bits: Imm64 },
    /// Class 6: a surface (class 0) or sampler (class 1) element.
    State { class: u8, index: u16, offset: u8 },
}

impl VectorKind {
    /// The operand class code stored in tag bits 0-2.
    pub fn class_code(&self) -> u8 {
        match self {
            VectorKind::General { .. } => 0,
            VectorKind::Address { .. } => 1,
            VectorKind::Predicate(_) => 2,
            VectorKind::Indirect { .. } => 3,
            VectorKind::Immediate { .. } => 5,
            VectorKind::State { .. } => 6,
        }
    }
}

impl Vector {
    pub fn general(id: u32, row: u8, col: u8, region: Region) -> Self {
        Vector {
            modifier: Modifier::NONE,
            kind: VectorKind::General {
                id,
                row,
                col,
                region,
            },
        }
    }
    pub fn imm(ty: crate::isa::Type, bits: u64) -> Self {
        Vector {
            modifier: Modifier::NONE,
            kind: VectorKind::Immediate {
                ty: ty.0,
                bits: Imm64::new(bits),
            },
        }
    }
    pub fn with_modifier(mut self, m: Modifier) -> Self {
        self.modifier = m;
        self
    }
}

/// The 64 bits of an immediate, kept 4-byte aligned so that an [`Operand`](crate::Operand) takes 16
/// bytes instead of 24 (a stream of small instructions is mostly operands).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Imm64([u32; 2]);

impl Imm64 {
    pub const fn new(bits: u64) -> Self {
        Imm64([bits as u32, (bits >> 32) as u32])
    }
    pub const fn get(self) -> u64 {
        self.0[0] as u64 | (self.0[1] as u64) << 32
    }
}

impl From<u64> for Imm64 {
    fn from(bits: u64) -> Self {
        Imm64::new(bits)
    }
}

impl std::fmt::Debug for Imm64 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#x}", self.get())
    }
}

/// A raw operand: a variable id (0 = `%null`) and a byte offset into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Raw {
    pub id: u32,
    pub offset: u16,
}

impl Raw {
    pub const NULL: Raw = Raw { id: 0, offset: 0 };
    pub fn new(id: u32, offset: u16) -> Self {
        Raw { id, offset }
    }
}
