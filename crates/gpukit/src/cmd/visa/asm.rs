//! `gpukit visa asm FILE.visaasm [-o OUT.isa]`

use crate::output::{emit, CmdError, CmdResult};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The .visaasm file
    file: PathBuf,
    /// Target platform (decides the GRF size; default: 32-byte GRFs as on all but PVC)
    #[arg(long, value_enum)]
    platform: Option<super::Platform>,
    /// Output file (stdout when absent)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

pub fn run(a: Args) -> CmdResult {
    let obj = super::parse_file(&a.file, a.platform)?;
    if !obj.version.has_binary_form() {
        return Err(CmdError::Input(format!(
            "{}: vISA {} has no binary form (IGC stopped writing .isa after {}); use `gpukit visa fmt` to check it",
            a.file.display(),
            obj.version,
            gpukit_visa::Version::LATEST_BINARY
        )));
    }
    let bytes = gpukit_visa::write(&obj).map_err(|e| CmdError::input(&a.file, e))?;
    emit(a.output.as_deref(), &bytes)
}
