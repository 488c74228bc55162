//! `gpukit visa fmt FILE.visaasm [-o OUT]`: parse and print again in IGC's layout.

use crate::output::{emit, CmdResult};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The .visaasm file
    file: PathBuf,
    /// Output file (stdout when absent)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

pub fn run(a: Args) -> CmdResult {
    let obj = super::parse_file(&a.file)?;
    emit(
        a.output.as_deref(),
        gpukit_visa::text::print_text(&obj).as_bytes(),
    )
}
