//! `gpukit iga check FILE... [--json]`: exit 1 when anything is inconsistent.

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
    version: &'static str,
    repairs: Vec<gpukit_iga::Repair>,
    problems: Vec<gpukit_iga::analysis::Diagnostic>,
}

pub fn run(a: Args) -> CmdResult {
    run_files(
        &a.files,
        a.json,
        a.output.as_deref(),
        |path| {
            let parsed = super::load(path, a.lenient, a.platform.as_deref())?;
            let problems = gpukit_iga::analysis::check(&parsed.listing);
            let problem = (!problems.is_empty())
                .then(|| format!("{} consistency problem(s)", problems.len()));
            Ok(Outcome::with_problem(
                Report {
                    file: path.display().to_string(),
                    version: parsed.listing.version.as_str(),
                    repairs: parsed.repairs,
                    problems,
                },
                problem,
            ))
        },
        text,
    )
}

fn text(r: &Report) -> String {
    let mut s = String::new();
    for p in &r.problems {
        s.push_str(&format!(
            "{}: {}: [{}] {}\n",
            r.file, p.path, p.rule, p.message
        ));
    }
    s.push_str(&format!(
        "{}: IGA JSON {}, {} problem{}\n",
        r.file,
        r.version,
        r.problems.len(),
        if r.problems.len() == 1 { "" } else { "s" }
    ));
    s
}
