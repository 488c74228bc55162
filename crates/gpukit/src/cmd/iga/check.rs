//! `gpukit iga check FILE [--json]`: exit 1 when anything is inconsistent.

use crate::output::{emit, json, CmdError, CmdResult};
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

#[derive(serde::Serialize)]
struct Report<'a> {
    file: String,
    version: &'static str,
    repairs: &'a [gpukit_iga::Repair],
    problems: &'a [gpukit_iga::analysis::Diagnostic],
}

pub fn run(a: Args) -> CmdResult {
    let parsed = super::load(&a.file, a.lenient)?;
    let problems = gpukit_iga::analysis::check(&parsed.listing);
    if a.json {
        let r = Report {
            file: a.file.display().to_string(),
            version: parsed.listing.version.as_str(),
            repairs: &parsed.repairs,
            problems: &problems,
        };
        emit(None, &json(&r))?;
    } else {
        let mut s = String::new();
        for p in &problems {
            s.push_str(&format!(
                "{}: {}: [{}] {}\n",
                a.file.display(),
                p.path,
                p.rule,
                p.message
            ));
        }
        s.push_str(&format!(
            "{}: IGA JSON {}, {} problem{}\n",
            a.file.display(),
            parsed.listing.version.as_str(),
            problems.len(),
            if problems.len() == 1 { "" } else { "s" }
        ));
        emit(None, s.as_bytes())?;
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(CmdError::Input(format!(
            "{}: {} consistency problem(s)",
            a.file.display(),
            problems.len()
        )))
    }
}
