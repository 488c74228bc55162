//! `gpukit visa dis FILE.isa [-o OUT]`

use crate::detect::Format;
use crate::error::{CmdError, CmdResult};
use crate::output::emit;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The .isa file
    file: PathBuf,
    /// Target platform: skl, icllp, tgllp, dg2, mtl, pvc (decides the GRF size
    /// `&var[offset]` counts in; default: the platform of the object's Gen binary, else
    /// 32-byte GRFs)
    #[arg(long, value_parser = crate::platform::parse)]
    platform: Option<gpukit_visa::verify::Platform>,
    /// Output file (stdout when absent or `-`)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

pub fn run(a: Args) -> CmdResult {
    let bytes = crate::input::read(&a.file, &[Format::VisaBinary])?;
    let obj = gpukit_visa::read(&bytes).map_err(|e| CmdError::input(&a.file, e))?;
    emit(
        a.output.as_deref(),
        gpukit_visa::text::print_text_with(&obj, &super::print_options(a.platform)).as_bytes(),
    )
}
