//! `gpukit iga print FILE [-o OUT]`: the listing as IGA assembly text.

use crate::error::CmdResult;
use crate::output::emit;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// IGA listing: JSON 1.0 or 2.0, or assembly text (iga64 -d, IGC .asm dump)
    file: PathBuf,
    /// Keep unknown keys and repair iga64's malformed JSON instead of rejecting it
    #[arg(long)]
    lenient: bool,
    /// Platform of an IGA assembly text without one (iga64 -d text): 9, 11, 12p1, 12p71,
    /// 12p72 or a device name (tgllp, dg2, pvc); IGC's .asm dumps name their own
    #[arg(long, value_name = "PLATFORM")]
    platform: Option<String>,
    /// Write here instead of stdout
    #[arg(short, long)]
    output: Option<PathBuf>,
}

pub fn run(a: Args) -> CmdResult {
    let parsed = super::load(&a.file, a.lenient, a.platform.as_deref())?;
    emit(
        a.output.as_deref(),
        gpukit_iga::render::render(&parsed.listing).as_bytes(),
    )
}
