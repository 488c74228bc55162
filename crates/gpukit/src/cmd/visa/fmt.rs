//! `gpukit visa fmt FILE.visaasm [-o OUT | --in-place]`: parse and print again in
//! IGC's layout.

use crate::error::CmdResult;
use crate::output::{emit, emit_in_place};
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
    /// Output file (stdout when absent)
    #[arg(short, long, conflicts_with = "in_place")]
    output: Option<PathBuf>,
    /// Rewrite FILE itself (atomically; the file is untouched if it does not parse)
    #[arg(short = 'i', long)]
    in_place: bool,
}

pub fn run(a: Args) -> CmdResult {
    let obj = super::parse_file(&a.file, a.platform)?;
    let text = gpukit_visa::text::print_text_with(&obj, &super::print_options(a.platform));
    if a.in_place {
        return emit_in_place(&a.file, text.as_bytes());
    }
    emit(a.output.as_deref(), text.as_bytes())
}
