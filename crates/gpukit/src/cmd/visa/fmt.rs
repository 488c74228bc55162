//! `gpukit visa fmt FILE.visaasm [-o OUT]`: parse and print again in IGC's layout.

use crate::output::{emit, CmdResult};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The .visaasm file
    file: PathBuf,
    /// Target platform (decides the GRF size; default: the text's `//Platform:` trailer, else 32-byte GRFs as on all but PVC)
    #[arg(long, value_enum)]
    platform: Option<super::Platform>,
    /// Output file (stdout when absent)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

pub fn run(a: Args) -> CmdResult {
    let obj = super::parse_file(&a.file, a.platform)?;
    emit(
        a.output.as_deref(),
        gpukit_visa::text::print_text_with(&obj, &super::Platform::print_options(a.platform))
            .as_bytes(),
    )
}
