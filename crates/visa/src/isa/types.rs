//! Element types and alignments (spec `2_datatypes.md`, `4_visa_header.md`).

use crate::version::Version;

/// A `VISA_Type` code. Codes 0x10 and above exist only in vISA 4.2 text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Type(pub u8);

/// Name, element size and the first vISA version that has the type.
const TYPES: [(&str, Option<usize>, Version); 20] = [
    ("ud", Some(4), Version::OLDEST),
    ("d", Some(4), Version::OLDEST),
    ("uw", Some(2), Version::OLDEST),
    ("w", Some(2), Version::OLDEST),
    ("ub", Some(1), Version::OLDEST),
    ("b", Some(1), Version::OLDEST),
    ("df", Some(8), Version::OLDEST),
    ("f", Some(4), Version::OLDEST),
    ("v", Some(4), Version::OLDEST),
    ("vf", Some(4), Version::OLDEST),
    ("bool", Some(1), Version::OLDEST),
    ("uq", Some(8), Version::OLDEST),
    ("uv", Some(4), Version::OLDEST),
    ("q", Some(8), Version::OLDEST),
    ("hf", Some(2), Version::OLDEST),
    ("bf", Some(2), Version::OLDEST),
    ("tf32", Some(4), Version::new(4, 2)),
    ("hf8", Some(1), Version::new(4, 2)),
    ("bf8", Some(1), Version::new(4, 2)),
    ("e2m1", Some(1), Version::new(4, 2)),
];

impl Type {
    pub const UD: Type = Type(0);
    pub const D: Type = Type(1);
    pub const UW: Type = Type(2);
    pub const W: Type = Type(3);
    pub const UB: Type = Type(4);
    pub const B: Type = Type(5);
    pub const DF: Type = Type(6);
    pub const F: Type = Type(7);
    pub const V: Type = Type(8);
    pub const VF: Type = Type(9);
    pub const BOOL: Type = Type(0xA);
    pub const UQ: Type = Type(0xB);
    pub const UV: Type = Type(0xC);
    pub const Q: Type = Type(0xD);
    pub const HF: Type = Type(0xE);
    pub const BF: Type = Type(0xF);
    pub const TF32: Type = Type(0x10);
    pub const HF8: Type = Type(0x11);
    pub const BF8: Type = Type(0x12);
    pub const E2M1: Type = Type(0x13);

    pub fn name(self) -> Option<&'static str> {
        TYPES.get(self.0 as usize).map(|t| t.0)
    }
    /// The first version that has this type (`None` for codes no version has).
    pub fn since(self) -> Option<Version> {
        TYPES.get(self.0 as usize).map(|t| t.2)
    }
    /// Element size in bytes.
    pub fn size(self) -> Option<usize> {
        TYPES.get(self.0 as usize).and_then(|t| t.1)
    }
    pub fn from_name(name: &str) -> Option<Type> {
        TYPES
            .iter()
            .position(|t| t.0.eq_ignore_ascii_case(name))
            .map(|i| Type(i as u8))
    }
    /// Immediates of these types take 8 bytes in the binary; all others take 4.
    pub fn is_wide_immediate(self) -> bool {
        matches!(self, Type::DF | Type::Q | Type::UQ)
    }
    /// The type an operand's type byte names: binaries use bits 0-3; the codes of the
    /// 4.2 types (0x10-0x13) appear only in text-built objects.
    pub fn of_operand_byte(byte: u8) -> Type {
        if (0x10..=0x13).contains(&byte) {
            Type(byte)
        } else {
            Type(byte & 0xF)
        }
    }

    /// True for codes that fit the 4-bit type fields of the binary format.
    pub fn has_binary_form(self) -> bool {
        self.0 < 0x10
    }
}

/// A `VISA_Align` code (variable alignment, bits 4-7 of `bit_properties`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Align(pub u8);

const ALIGNS: [&str; 10] = [
    "byte", "word", "dword", "qword", "oword", "GRF", "GRFx2", "hword", "wordx32", "wordx64",
];

impl Align {
    pub fn name(self) -> Option<&'static str> {
        ALIGNS.get(self.0 as usize).copied()
    }
    pub fn from_name(name: &str) -> Option<Align> {
        ALIGNS
            .iter()
            .position(|a| *a == name)
            .map(|i| Align(i as u8))
    }
    /// Alignment in bytes; GRF-relative codes need the GRF size.
    pub fn bytes(self, grf_size: usize) -> Option<usize> {
        Some(match self.0 {
            0 => 1,
            1 => 2,
            2 => 4,
            3 => 8,
            4 => 16,
            5 => grf_size,
            6 => 2 * grf_size,
            7 => 32,
            8 => 64,
            9 => 128,
            _ => return None,
        })
    }
}

/// How an attribute's value is typed; the binary does not say, the name does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttributeKind {
    Bool,
    Int32,
    CStr,
}

/// The value kind of an attribute, by name (IGC's `VISAAttributes.h` at 1.0.12504,
/// plus older names). `None` for names gpukit does not know: their values stay raw.
pub fn attribute_kind(name: &[u8]) -> Option<AttributeKind> {
    use AttributeKind::*;
    Some(match name {
        b"Extern"
        | b"NoBarrier"
        | b"Callable"
        | b"Caller"
        | b"Composable"
        | b"Entry"
        | b"SepSpillPvtSS"
        | b"LTO_InvokeOptTarget"
        | b"Input"
        | b"Output"
        | b"PayloadLiveOut"
        | b"Input_Output"
        | b"NoWidening"
        | b"DoNotSpill" => Bool,
        b"Target"
        | b"SLMSize"
        | b"SpillMemOffset"
        | b"ArgSize"
        | b"RetValSize"
        | b"PerThreadInputSize"
        | b"SimdSize"
        | b"CrossThreadInputSize"
        | b"NBarrierCnt"
        | b"Scope"
        | b"SurfaceUsage" => Int32,
        b"OutputAsmPath" | b"AsmName" => CStr,
        _ => return None,
    })
}
