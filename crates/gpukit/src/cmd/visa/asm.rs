//! `gpukit visa asm FILE.visaasm [-o OUT.isa]`

use crate::error::{CmdError, CmdResult};
use crate::output::emit_binary;
use gpukit_visa::verify::Platform;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The .visaasm file
    file: PathBuf,
    /// Target platform: skl, icllp, tgllp, dg2, mtl, pvc (decides the GRF size; default:
    /// the text's `//Platform:` trailer, else 32-byte GRFs as on all but PVC)
    #[arg(long, value_parser = crate::platform::parse)]
    platform: Option<Platform>,
    /// Output file (stdout when absent; `-` forces binary output to a terminal)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

pub fn run(a: Args) -> CmdResult {
    let mut obj = super::parse_file(&a.file, a.platform)?;
    let binary = gpukit_visa::Version::LATEST_BINARY;
    // vISA 4.2 has no binary form; text that uses nothing newer than 4.1 is written as 4.1.
    if obj.version > binary {
        match obj.needs_newer_than(binary) {
            None => {
                crate::error::print_stderr(&format!("note: {}: vISA {} text uses nothing beyond {binary}; written as {binary}", crate::error::name(&a.file), obj.version));
                obj.version = binary;
            }
            Some(what) => {
                return Err(CmdError::Input(format!(
                    "{}: vISA {} has no binary form and {what} does not fit {binary}; use `gpukit visa fmt` to check the text",
                    a.file.display(),
                    obj.version
                )))
            }
        }
    }
    if !obj.version.has_binary_form() {
        return Err(CmdError::Input(format!(
            "{}: vISA {} has no binary form (IGC stopped writing .isa after {}); use `gpukit visa fmt` to check it",
            a.file.display(),
            obj.version,
            gpukit_visa::Version::LATEST_BINARY
        )));
    }
    let bytes = gpukit_visa::write(&obj).map_err(|e| CmdError::input(&a.file, e))?;
    emit_binary(a.output.as_deref(), &bytes)
}
