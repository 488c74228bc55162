//! The 256-byte kernel setup in front of each kernel's code: an AMD HSA
//! `amd_kernel_code_t` as the Catalyst OpenCL 2.0 compiler fills it.

use serde::Serialize;

pub const SETUP_SIZE: usize = 256;

/// `kernel_code_properties` bits (HSA `AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_*`)
/// in the order the hardware loads the user SGPRs they enable, with the
/// number of SGPRs each takes.
pub const USER_SGPR_ENABLES: [(u32, &str, u32); 6] = [
    (1 << 0, "private_segment_buffer", 4),
    (1 << 1, "dispatch_ptr", 2),
    (1 << 2, "queue_ptr", 2),
    (1 << 3, "kernarg_segment_ptr", 2),
    (1 << 4, "dispatch_id", 2),
    (1 << 5, "flat_scratch_init", 2),
];

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KernelSetup {
    pub version_major: u32,
    pub version_minor: u32,
    /// Byte offset of the code from the start of the setup (256).
    pub code_offset: u64,
    pub pgm_rsrc1: u32,
    pub pgm_rsrc2: u32,
    /// Which user SGPRs the dispatcher loads (see [`USER_SGPR_ENABLES`]).
    pub kernel_code_properties: u16,
    /// Private (scratch) bytes per work-item.
    pub scratch_size: u32,
    /// Group (LDS) bytes per work-group.
    pub local_size: u32,
    pub gds_size: u32,
    /// Bytes of the kernel argument buffer.
    pub kernarg_size: u32,
    pub sgprs: u16,
    pub vgprs: u16,
}

impl KernelSetup {
    /// `None` when fewer than 256 bytes are given.
    pub fn parse(bytes: &[u8]) -> Option<Self> {
        let b = bytes.get(..SETUP_SIZE)?;
        let u32at = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        let u16at = |o: usize| u16::from_le_bytes([b[o], b[o + 1]]);
        Some(KernelSetup {
            version_major: u32at(0),
            version_minor: u32at(4),
            code_offset: u64::from(u32at(16)) | u64::from(u32at(20)) << 32,
            pgm_rsrc1: u32at(48),
            pgm_rsrc2: u32at(52),
            kernel_code_properties: u16at(56),
            scratch_size: u32at(60),
            local_size: u32at(64),
            gds_size: u32at(68),
            kernarg_size: u32at(72),
            sgprs: u16at(84),
            vgprs: u16at(86),
        })
    }

    /// User SGPRs the hardware loads (`COMPUTE_PGM_RSRC2.USER_SGPR`).
    pub fn user_sgprs(&self) -> u32 {
        (self.pgm_rsrc2 >> 1) & 0x1f
    }
}
