//! `gpukit iga cfg FILE --dot|--svg [-o OUT]`

use crate::output::{emit, CmdResult};
use gpukit_iga::cfg::Cfg;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// IGA JSON listing
    file: PathBuf,
    /// Graphviz dot (the default)
    #[arg(long, conflicts_with = "svg")]
    dot: bool,
    /// SVG drawing
    #[arg(long)]
    svg: bool,
    /// Keep unknown keys and repair iga64's malformed JSON instead of rejecting it
    #[arg(long)]
    lenient: bool,
    /// Write here instead of stdout
    #[arg(short, long)]
    output: Option<PathBuf>,
}

pub fn run(a: Args) -> CmdResult {
    let parsed = super::load(&a.file, a.lenient)?;
    let cfg = Cfg::build(&parsed.listing);
    let text = if a.svg {
        gpukit_iga::svg::cfg(&parsed.listing, &cfg)
    } else {
        cfg.to_dot(&parsed.listing)
    };
    emit(a.output.as_deref(), text.as_bytes())
}
