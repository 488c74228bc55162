//! `gpukit iga print FILE [-o OUT]`: the listing as IGA assembly text.

use crate::error::CmdResult;
use crate::output::emit;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// IGA JSON listing (1.0 or 2.0)
    file: PathBuf,
    /// Keep unknown keys and repair iga64's malformed JSON instead of rejecting it
    #[arg(long)]
    lenient: bool,
    /// Write here instead of stdout
    #[arg(short, long)]
    output: Option<PathBuf>,
}

pub fn run(a: Args) -> CmdResult {
    let parsed = super::load(&a.file, a.lenient)?;
    emit(
        a.output.as_deref(),
        gpukit_iga::render::render(&parsed.listing).as_bytes(),
    )
}
