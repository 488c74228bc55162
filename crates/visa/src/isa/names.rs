//! The spellings of encoded values in vISA text (shared by printer and parser).

/// Execution masks by emask code (3.1+ numbering).
pub const EMASK: [&str; 16] = [
    "M1", "M2", "M3", "M4", "M5", "M6", "M7", "M8", "M1_NM", "M2_NM", "M3_NM", "M4_NM", "M5_NM",
    "M6_NM", "M7_NM", "M8_NM",
];

/// Channel masks (R = bit 0 ... A = bit 3); the empty mask prints as nothing.
pub const CHANNEL_MASK: [&str; 16] = [
    "", "R", "G", "RG", "B", "RB", "GB", "RGB", "A", "RA", "GA", "RGA", "BA", "RBA", "GBA", "RGBA",
];

/// `cmp` relations by code (bits 0-2 of the relop byte).
pub const RELOP: [&str; 6] = ["eq", "ne", "gt", "ge", "lt", "le"];

/// 3D sampler operations by code; empty strings are unassigned codes.
pub const SAMPLER_OP_3D: [&str; 30] = [
    "sample_3d",
    "sample_b",
    "sample_l",
    "sample_c",
    "sample_d",
    "sample_b_c",
    "sample_l_c",
    "load_3d",
    "sample4",
    "",
    "resinfo",
    "sampleinfo",
    "sample+killpix",
    "",
    "",
    "",
    "sample4_c",
    "sample4_po",
    "sample4_po_c",
    "",
    "sample_d_c",
    "",
    "",
    "",
    "sample_lz",
    "sample_c_lz",
    "load_lz",
    "",
    "load_2dms_w",
    "load_mcs",
];

/// Atomic operations by code (bits 0-4 of the atomic op byte).
pub const ATOMIC_OP: [&str; 21] = [
    "add", "sub", "inc", "dec", "min", "max", "xchg", "cmpxchg", "and", "or", "xor", "minsint",
    "maxsint", "predec", "", "", "fmax", "fmin", "fcmpwr", "fadd", "fsub",
];

pub const MEDIA_LD_MODIFIER: [&str; 6] = [
    "nomod",
    "modified",
    "top",
    "bottom",
    "top_mod",
    "bottom_mod",
];
pub const MEDIA_ST_MODIFIER: [&str; 4] = ["nomod", "reserved", "top", "bottom"];
pub const SAMPLER_OUTPUT_FORMAT: [&str; 4] =
    ["16-full", "16-downsampled", "8-full", "8-downsampled"];
pub const AVS_CONTROL: [&str; 4] = [
    "AVS_16_FULL",
    "AVS_16_DOWN_SAMPLE",
    "AVS_8_FULL",
    "AVS_8_DOWN_SAMPLE",
];
pub const AVS_EXEC_MODE: [&str; 3] = ["AVS_16x4", "AVS_INVALID", "AVS_16x8"];

/// Source modifiers as printed before an operand (`sat` is printed on the opcode).
pub const MODIFIER: [&str; 6] = ["", "(abs)", "(-)", "(-abs)", "", "(~)"];

/// Looks a value up in a spelling table, falling back to the number.
pub fn spell(table: &[&str], code: u32) -> String {
    match table.get(code as usize) {
        Some(s) if !s.is_empty() => (*s).to_string(),
        _ => format!("{code}"),
    }
}

/// LSC shared function ids.
pub const LSC_SFID: [&str; 4] = ["ugm", "ugml", "tgm", "slm"];
/// LSC cache controls (L1 and L3 each).
pub const LSC_CACHE: [&str; 7] = ["df", "uc", "ca", "wb", "wt", "st", "ri"];
/// LSC address models by code (0 unused).
pub const LSC_ADDR_TYPE: [&str; 6] = ["", "flat", "bss", "ss", "bti", "arg"];
/// LSC address sizes by code (0 unused).
pub const LSC_ADDR_SIZE: [&str; 4] = ["", "a16", "a32", "a64"];
/// LSC data sizes by code (0 unused), as IGC 1.0.12504 spells them.
pub const LSC_DATA_SIZE: [&str; 8] = ["", "d8", "d16", "d32", "d64", "d8c32", "d16c32", "d16c32h"];
/// The same, as IGC 2.x spells the zero-extending forms.
pub const LSC_DATA_SIZE_V42: [&str; 8] =
    ["", "d8", "d16", "d32", "d64", "d8u32", "d16u32", "d16u32h"];
/// LSC vector lengths by code (0 unused; 1 element prints as nothing).
pub const LSC_ELEMS: [&str; 9] = ["", "", "x2", "x3", "x4", "x8", "x16", "x32", "x64"];
pub const LSC_FENCE_OP: [&str; 7] = [
    "none",
    "evict",
    "invalidate",
    "discard",
    "clean",
    "flushl3",
    "type6",
];
pub const LSC_SCOPE: [&str; 7] = ["group", "local", "tile", "gpu", "gpus", "sysrel", "sysacq"];

/// What an LSC operation does with data, which decides its operand order in text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LscKind {
    Load,
    Store,
    Atomic,
}

/// The kind of an LSC operation (`LSC_OP` code).
pub fn lsc_kind(op: u8) -> LscKind {
    match op {
        0x00..=0x03 | 0x1B | 0x1E => LscKind::Load,
        0x04..=0x07 | 0x1C | 0x1D => LscKind::Store,
        _ => LscKind::Atomic,
    }
}

/// Quad operations carry a channel mask instead of a vector length.
pub fn lsc_has_chmask(op: u8) -> bool {
    matches!(op, 0x02 | 0x06)
}

/// `dpas` operand precisions by `GenPrecision` code (0 and 11 unused).
pub const DPAS_PRECISION: [&str; 16] = [
    "", "u1", "s1", "u2", "s2", "u4", "s4", "u8", "s8", "bf", "hf", "bf8", "tf32", "", "hf8",
    "e2m1",
];
/// `lfsr` function control (`LFSR_FC`).
pub const LFSR_FUNC: [&str; 3] = ["b32", "b16v2", "b8v4"];
/// `dnscl` conversion type (IGC 2.x's `dnsclConvertType`; 0 and 3 are unused).
pub const DNSCL_CONVERSION: [&str; 6] = [
    "none", "bftoe2m1", "bftoint4", "none", "hftoe2m1", "hftoint4",
];
/// `dnscl` mode.
pub const DNSCL_MODE: [&str; 4] = ["mode0", "mode1", "mode2", "mode3"];
/// `dnscl` rounding.
pub const DNSCL_ROUNDING: [&str; 2] = ["srnd", "rne"];
