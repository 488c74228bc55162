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
