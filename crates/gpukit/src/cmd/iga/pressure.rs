//! `gpukit iga pressure FILE [--svg OUT] [--json]`: register pressure from iga64's
//! `liveTotals` (bytes live before each instruction).

use crate::error::{CmdError, CmdResult};
use crate::output::{emit, JsonArg};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// IGA JSON listing printed with -Xprint-defs (it needs liveTotals)
    file: PathBuf,
    /// Write the SVG chart here (`-` for stdout)
    #[arg(long, value_name = "OUT")]
    svg: Option<PathBuf>,
    #[command(flatten)]
    json: JsonArg,
    /// Keep unknown keys and repair iga64's malformed JSON instead of rejecting it
    #[arg(long)]
    lenient: bool,
    /// Platform of an IGA assembly text without one (iga64 -d text): 9, 11, 12p1, 12p71,
    /// 12p72 or a device name (tgllp, dg2, pvc); IGC's .asm dumps name their own
    #[arg(long, value_name = "PLATFORM")]
    platform: Option<String>,
    /// Write the text or JSON report here instead of stdout
    #[arg(short, long)]
    output: Option<PathBuf>,
}

#[derive(serde::Serialize)]
struct Point {
    id: i64,
    grf_bytes: i64,
    acc_bytes: i64,
    flag_bytes: i64,
    addr_bytes: i64,
}

#[derive(serde::Serialize)]
struct Report {
    file: String,
    platform: String,
    #[serde(flatten)]
    summary: gpukit_iga::analysis::Pressure,
    points: Vec<Point>,
}

pub fn run(a: Args) -> CmdResult {
    let parsed = super::load(&a.file, a.lenient, a.platform.as_deref())?;
    let l = &parsed.listing;
    let missing = || {
        CmdError::Input(format!(
            "{}: no liveTotals (print the listing with iga64 -Xprint-defs)",
            a.file.display()
        ))
    };
    let summary = gpukit_iga::analysis::stats(l)
        .pressure
        .ok_or_else(missing)?;
    if let Some(svg_path) = &a.svg {
        let svg = gpukit_iga::svg::pressure(l).ok_or_else(missing)?;
        let out = (svg_path.as_os_str() != "-").then_some(svg_path.as_path());
        emit(out, svg.as_bytes())?;
        if !a.json.enabled() && a.output.is_none() {
            return Ok(());
        }
    }
    let report = Report {
        file: a.file.display().to_string(),
        platform: l.platform.clone(),
        points: l
            .insts()
            .filter_map(|i| {
                i.live_totals.as_ref().map(|t| Point {
                    id: i.id,
                    grf_bytes: t.r,
                    acc_bytes: t.acc,
                    flag_bytes: t.f,
                    addr_bytes: t.a,
                })
            })
            .collect(),
        summary,
    };
    if a.json.enabled() {
        return a.json.emit_one(a.output.as_deref(), &report);
    }
    let out = {
        let p = &report.summary;
        format!(
            "{}: peak {} GRF bytes ({} registers of {} bytes) at instruction {}; mean {:.1} bytes \
             over {} instructions\n",
            report.file,
            p.grf_bytes_peak,
            p.grf_regs_peak,
            p.grf_reg_bytes,
            p.peak_at,
            p.grf_bytes_mean,
            report.points.len()
        )
        .into_bytes()
    };
    emit(a.output.as_deref(), &out)
}
