//! Reporting commands over one or several files: each file's report is built on its
//! own, a bad file is reported and the others still are, and the output is written
//! once (so `-o` stays atomic).

use crate::error::{print_stderr, CmdError, CmdResult};
use crate::output::{emit_streamed, JsonArg};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// One file's report, and its verdict: a file with findings or an undecodable
/// stream makes the command exit 1 after printing everything, with the verdict on
/// stderr (where it is seen when stdout goes to a file).
pub struct Outcome<R> {
    pub report: R,
    pub problem: Option<String>,
}

impl<R> Outcome<R> {
    pub fn clean(report: R) -> Self {
        Outcome {
            report,
            problem: None,
        }
    }
    pub fn with_problem(report: R, problem: Option<String>) -> Self {
        Outcome { report, problem }
    }
}

/// Builds each file's report with `one`, prints them as text (`text`) or JSON (one
/// object for one file; an array, or one line each with `--json=ndjson`, for several).
pub fn run_files<R: Serialize>(
    files: &[PathBuf],
    json: JsonArg,
    output: Option<&Path>,
    one: impl FnMut(&Path) -> Result<Outcome<R>, CmdError>,
    text: impl Fn(&R) -> String,
) -> CmdResult {
    run_files_streamed(files, json, output, one, |r, w| {
        w.write_all(text(r).as_bytes())
    })
}

/// [`run_files`] whose text is written into the output as it is produced, so a report
/// whose text outgrows its model (a program of many kernels) is never held whole.
pub fn run_files_streamed<R: Serialize>(
    files: &[PathBuf],
    json: JsonArg,
    output: Option<&Path>,
    mut one: impl FnMut(&Path) -> Result<Outcome<R>, CmdError>,
    text: impl Fn(&R, &mut dyn std::io::Write) -> std::io::Result<()>,
) -> CmdResult {
    // All inputs are known before the output is opened, also those that fail to read.
    for path in files {
        crate::input::declare(path);
    }
    let mut reports = Vec::with_capacity(files.len());
    let mut exit = 0u8;
    for path in files {
        match one(path) {
            Ok(o) => {
                if let Some(problem) = o.problem {
                    print_stderr(&format!("{}: {problem}", crate::error::name(path)));
                    exit = exit.max(1);
                }
                reports.push(o.report);
            }
            Err(e) if files.len() == 1 => return Err(e),
            Err(e) => {
                print_stderr(&format!("error: {e}"));
                exit = exit.max(e.exit_code());
            }
        }
    }
    if json.enabled() {
        match reports.as_slice() {
            [one] if files.len() == 1 => json.emit_one(output, one)?,
            all => json.emit_many(output, all)?,
        }
    } else {
        emit_streamed(output, |w| {
            for r in &reports {
                text(r, w)?;
            }
            Ok(())
        })?;
    }
    match exit {
        0 => Ok(()),
        code => Err(CmdError::Reported(code)),
    }
}
