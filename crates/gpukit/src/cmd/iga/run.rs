//! `gpukit iga run LISTING --binary PROGRAM.bin --global X[,Y[,Z]] --arg N=SPEC...`:
//! executes a kernel's Gen machine code (an IGA listing: IGC's `.asm` dump, `iga64
//! -d` text or IGA JSON) on the CPU, with the payload, arguments, memory and
//! budget `visa run` gives the vISA of the same kernel (the options are the same).

use crate::cmd::launch::{usage, LaunchArgs};
use crate::error::{CmdError, CmdResult};
use gpukit_iga::Listing;
use gpukit_runtime::{Code, Kernel};
use gpukit_visa::interp;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// The kernel's Gen code: IGC's `.asm` dump, `iga64 -d` text or IGA JSON (the
    /// platform of text without one is the binary's)
    file: PathBuf,
    #[command(flatten)]
    launch: LaunchArgs,
}

/// Reads a listing of the Gen code `program` holds: JSON or text; text that names
/// no platform (`iga64 -d`) is read for the binary's device.
pub fn read_listing(path: &Path, program: &gpukit_intel::Program) -> Result<Listing, CmdError> {
    let platform = program
        .device
        .and_then(crate::platform::from_gfxcore_family);
    Ok(super::load(path, false, platform)?.listing)
}

/// Where a Gen run stopped: the listing (the error names the instruction's index).
pub fn place(file: &Path, _e: &interp::RunError) -> String {
    format!("{}: ", file.display())
}

pub fn run(a: Args) -> CmdResult {
    let input_bytes = std::fs::metadata(&a.file).map(|m| m.len()).unwrap_or(0);
    let prepared = a.launch.prepare(input_bytes, interp::Options::default())?;
    let listing = read_listing(&a.file, &prepared.program)?;
    // The kernel: --kernel, else the binary's only one (zebin's symbol-table
    // pseudo-kernel aside).
    let name = match &a.launch.kernel {
        Some(k) => k.clone(),
        None => {
            let mut kernels = prepared
                .program
                .kernels
                .iter()
                .filter(|k| !k.name.starts_with("Intel_Symbol_Table"));
            match (kernels.next(), kernels.next()) {
                (Some(k), None) => k.name.clone(),
                _ => {
                    return Err(usage(format!(
                        "{}: the binary has {} kernels: give --kernel",
                        a.launch.binary.display(),
                        prepared.program.kernels.len()
                    )))
                }
            }
        }
    };
    let kernel = Kernel {
        name: &name,
        code: Code::Gen(&listing),
    };
    let launched = a
        .launch
        .launch(&kernel, &a.file, prepared, &|e| place(&a.file, e))?;
    a.launch.finish(&name, &launched, None, None)
}
