//! Intel OpenCL program binaries as ocloc writes them: the kernel ABI (arguments,
//! implicit arguments, per-thread payload, SIMD size, Gen code) of
//!
//! - legacy programs with patch tokens (IGC 1.0.x / NEO: `SProgramBinaryHeader`,
//!   `SKernelBinaryHeaderCommon`, patch token lists), raw or inside NEO's OpenCL ELF
//!   wrapper (section type `SHT_OPENCL_DEV_BINARY`);
//! - zebin (IGC 2.x): an ELF whose `.ze_info` section is YAML describing each kernel,
//!   with the Gen code in `.text.<kernel>`.
//!
//! ```no_run
//! let bytes = std::fs::read("k.bin").unwrap();
//! let program = gpukit_intel::read(&bytes).unwrap();
//! for k in &program.kernels { println!("{} simd{}", k.name, k.simd_size); }
//! ```
#![forbid(unsafe_code)]

mod abi;
pub mod asm_alloc;
pub mod asm_dump;
mod cursor;
mod error;
mod patchtokens;
mod yaml;
mod zebin;

pub use abi::*;
pub use error::ReadError;
pub use zebin::gfxcore_family;

/// Reads a program binary: raw patch-token program, NEO's OpenCL ELF wrapper around
/// one, or zebin.
pub fn read(bytes: &[u8]) -> Result<Program, ReadError> {
    if bytes.len() >= 4 && bytes[..4] == patchtokens::MAGIC.to_le_bytes() {
        return patchtokens::read(bytes, 0, Container::Raw);
    }
    if bytes.len() >= 4 && &bytes[..4] == b"\x7fELF" {
        return zebin::read_elf(bytes);
    }
    Err(ReadError::new(
        "program",
        "magic",
        0,
        "neither a patch-token program (magic INTC) nor an ELF file",
    ))
}
