//! `gpukit iga cfg FILE --dot|--svg|--json [-o OUT]`

use crate::error::CmdResult;
use crate::output::{emit, JsonArg};
use gpukit_iga::cfg::Cfg;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// IGA JSON listing
    file: PathBuf,
    /// Graphviz dot (the default)
    #[arg(long, conflicts_with_all = ["svg", "json"])]
    dot: bool,
    /// SVG drawing
    #[arg(long, conflicts_with = "json")]
    svg: bool,
    #[command(flatten)]
    json: JsonArg,
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

#[derive(serde::Serialize)]
struct Block<'a> {
    id: usize,
    label: &'a str,
    instructions: usize,
    preds: Vec<usize>,
    succs: Vec<usize>,
}

pub fn run(a: Args) -> CmdResult {
    let parsed = super::load(&a.file, a.lenient, a.platform.as_deref())?;
    let cfg = Cfg::build(&parsed.listing);
    if a.json.enabled() {
        let blocks: Vec<Block> = cfg
            .blocks
            .iter()
            .enumerate()
            .map(|(b, blk)| Block {
                id: b,
                label: &blk.symbol,
                instructions: blk.insts.len(),
                preds: cfg.preds[b].iter().copied().collect(),
                succs: cfg.succs[b].iter().copied().collect(),
            })
            .collect();
        return a.json.emit_many(a.output.as_deref(), &blocks);
    }
    let bytes = if a.svg {
        gpukit_iga::svg::cfg(&parsed.listing, &cfg).into_bytes()
    } else {
        cfg.to_dot(&parsed.listing).into_bytes()
    };
    emit(a.output.as_deref(), &bytes)
}
