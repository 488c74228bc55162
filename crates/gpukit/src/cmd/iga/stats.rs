//! `gpukit iga stats FILE [--json]`

use crate::output::{emit, json, CmdResult};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// IGA JSON listing
    file: PathBuf,
    /// Report as JSON
    #[arg(long)]
    json: bool,
    /// Keep unknown keys and repair iga64's malformed JSON instead of rejecting it
    #[arg(long)]
    lenient: bool,
}

pub fn run(a: Args) -> CmdResult {
    let parsed = super::load(&a.file, a.lenient)?;
    let stats = gpukit_iga::analysis::stats(&parsed.listing);
    if a.json {
        emit(None, &json(&stats))
    } else {
        emit(None, stats.to_text().as_bytes())
    }
}
