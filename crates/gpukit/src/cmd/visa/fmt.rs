//! `gpukit visa fmt FILE.visaasm [-o OUT | --in-place]`: parse and print again in
//! IGC's layout.

use crate::error::CmdResult;
use crate::output::{emit_streamed, emit_streamed_in_place};
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
    let options = super::print_options(a.platform);
    let print = |w: &mut dyn std::io::Write| gpukit_visa::text::write_text_with(&obj, &options, w);
    if a.in_place {
        return emit_streamed_in_place(&a.file, print);
    }
    emit_streamed(a.output.as_deref(), print)
}
