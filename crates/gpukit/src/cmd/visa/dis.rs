//! `gpukit visa dis FILE.isa [-o OUT]`

use crate::output::{emit, read_file, CmdError, CmdResult};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The .isa file
    file: PathBuf,
    /// Target platform (decides the GRF size `&var[offset]` counts in; default: the
    /// platform of the object's Gen binary, else 32-byte GRFs)
    #[arg(long, value_enum)]
    platform: Option<super::Platform>,
    /// Output file (stdout when absent)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

pub fn run(a: Args) -> CmdResult {
    let bytes = read_file(&a.file)?;
    let obj = gpukit_visa::read(&bytes).map_err(|e| CmdError::input(&a.file, e))?;
    emit(
        a.output.as_deref(),
        gpukit_visa::text::print_text_with(&obj, &super::Platform::print_options(a.platform))
            .as_bytes(),
    )
}
