//! Which AMD OpenCL binary format a file is, from its ELF header alone, so
//! callers can route it to the CL1 or CL2 reader or say clearly
//! why it is not supported.

use crate::cl1::{MACHINE_CL2, MACHINE_CPU};
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum BinaryKind {
    /// Catalyst OpenCL 1.x GPU binary (AMD IL metadata text).
    Cl1Gpu {
        bits64: bool,
        machine: u16,
    },
    /// Catalyst OpenCL 1.x CPU (x86) binary.
    Cl1Cpu {
        bits64: bool,
    },
    /// Catalyst OpenCL 2.0 binary.
    Cl2 {
        bits64: bool,
    },
    /// Some other ELF (ROCm, Mesa/Clover with an ELF wrapper, ...).
    OtherElf {
        bits64: bool,
        machine: u16,
    },
    NotElf,
}

/// Classifies `bytes` by ELF class and `e_machine` (little endian).
pub fn detect(bytes: &[u8]) -> BinaryKind {
    if bytes.len() < 20 || &bytes[..4] != b"\x7fELF" {
        return BinaryKind::NotElf;
    }
    let bits64 = match bytes[4] {
        1 => false,
        2 => true,
        _ => return BinaryKind::NotElf,
    };
    let machine = u16::from_le_bytes([bytes[18], bytes[19]]);
    match machine {
        MACHINE_CPU => BinaryKind::Cl1Cpu { bits64 },
        m if MACHINE_CL2.contains(&m) => BinaryKind::Cl2 { bits64 },
        m if crate::cl1::device_name(m).is_some() => BinaryKind::Cl1Gpu { bits64, machine: m },
        m => BinaryKind::OtherElf { bits64, machine: m },
    }
}
