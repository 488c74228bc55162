//! `gpukit iga pressure FILE --svg OUT`

use crate::output::{emit, CmdError, CmdResult};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// IGA JSON listing printed with -Xprint-defs (it needs liveTotals)
    file: PathBuf,
    /// Write the SVG chart here (`-` for stdout)
    #[arg(long, value_name = "OUT")]
    svg: PathBuf,
    /// Keep unknown keys and repair iga64's malformed JSON instead of rejecting it
    #[arg(long)]
    lenient: bool,
}

pub fn run(a: Args) -> CmdResult {
    let parsed = super::load(&a.file, a.lenient)?;
    let svg = gpukit_iga::svg::pressure(&parsed.listing).ok_or_else(|| {
        CmdError::Input(format!(
            "{}: no liveTotals (print the listing with iga64 -Xprint-defs)",
            a.file.display()
        ))
    })?;
    let out = (a.svg.as_os_str() != "-").then_some(a.svg.as_path());
    emit(out, svg.as_bytes())
}
