//! Predefined variables and surfaces (spec `4_visa_header.md`, facts §4).
//!
//! Ids 0-31 of general variables and 0-5 of surfaces are reserved; the named ones
//! have fixed types. Which of them a producer knows grew over releases: IGC 1.0.5353
//! (vISA 3.x) names V0-V17, IGC 1.0.12504 (4.0/4.1) adds V18-V20, IGC 2.x (4.2) adds
//! V21 `%scratchloc`.

use super::types::Type;
use crate::version::Version;

/// One predefined general variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PredefinedVar {
    pub id: u32,
    pub name: &'static str,
    pub ty: Type,
    pub num_elements: u16,
}

const fn pv(id: u32, name: &'static str, ty: Type, num_elements: u16) -> PredefinedVar {
    PredefinedVar {
        id,
        name,
        ty,
        num_elements,
    }
}

pub static PREDEFINED_VARS: [PredefinedVar; 22] = [
    pv(0, "%null", Type::UD, 1),
    pv(1, "%thread_x", Type::UW, 1),
    pv(2, "%thread_y", Type::UW, 1),
    pv(3, "%group_id_x", Type::UD, 1),
    pv(4, "%group_id_y", Type::UD, 1),
    pv(5, "%group_id_z", Type::UD, 1),
    pv(6, "%tsc", Type::UD, 5),
    pv(7, "%r0", Type::UD, 8),
    pv(8, "%arg", Type::UD, 256),
    pv(9, "%retval", Type::UD, 96),
    pv(10, "%sp", Type::UQ, 1),
    pv(11, "%fp", Type::UQ, 1),
    pv(12, "%hw_id", Type::UD, 1),
    pv(13, "%sr0", Type::UD, 4),
    pv(14, "%cr0", Type::UD, 1),
    pv(15, "%ce0", Type::UD, 1),
    pv(16, "%dbg0", Type::UD, 2),
    pv(17, "%color", Type::UW, 1),
    pv(18, "%impl_arg_buf_ptr", Type::UQ, 1),
    pv(19, "%local_id_buf_ptr", Type::UQ, 1),
    pv(20, "%msg0", Type::UD, 3),
    pv(21, "%scratchloc", Type::UQ, 1),
];

/// The named predefined variables of a version.
pub fn predefined_vars(version: Version) -> &'static [PredefinedVar] {
    let n = if version >= Version::new(4, 2) {
        22
    } else if version >= Version::new(4, 0) {
        21
    } else {
        18
    };
    &PREDEFINED_VARS[..n]
}

/// Predefined surfaces T0-T5: (name as printed, binding-table index).
pub static PREDEFINED_SURFACES: [(&str, u8); 6] = [
    ("%slm", 254),
    ("T1", 1),
    ("T2", 2),
    ("TSS", 3),
    ("%bss", 252),
    ("%scratch", 255),
];

/// Sampler 31 is the implicit bindless sampler.
pub const BINDLESS_SAMPLER: u8 = 31;
