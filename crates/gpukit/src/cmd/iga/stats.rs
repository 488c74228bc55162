//! `gpukit iga stats FILE... [--json]`

use crate::error::CmdResult;
use crate::output::JsonArg;
use crate::report::{run_files, Outcome};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// IGA JSON listings
    #[arg(required = true)]
    files: Vec<PathBuf>,
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
struct Report {
    file: String,
    #[serde(flatten)]
    stats: gpukit_iga::analysis::Stats,
}

pub fn run(a: Args) -> CmdResult {
    let several = a.files.len() > 1;
    run_files(
        &a.files,
        a.json,
        a.output.as_deref(),
        |path| {
            let parsed = super::load(path, a.lenient, a.platform.as_deref())?;
            Ok(Outcome::clean(Report {
                file: path.display().to_string(),
                stats: gpukit_iga::analysis::stats(&parsed.listing),
            }))
        },
        |r| {
            if several {
                format!("{}:\n{}", r.file, r.stats.to_text())
            } else {
                r.stats.to_text()
            }
        },
    )
}
