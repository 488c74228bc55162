//! `gpukit diff A B [--json[=ndjson]] [--html OUT.html] [--fail-on 'spill_bytes>0,...']`:
//! two builds compared kernel by kernel. A and B are two files of the same kind of
//! content (vISA binary or text, IGC `.asm` dump, IGA JSON, program binary, AMD
//! binary) or two directories (`matching.rs` says which kernels meet). Per kernel,
//! the figures of the single-file commands with their deltas (`figures.rs`) and what
//! moved in the listing with renumbering ignored (`structural.rs`); text sorted by
//! the largest change, JSON rows, an HTML page (`render.rs`, `html.rs`). With
//! `--fail-on`, exit 1 when a kernel crosses a threshold (CI).

mod figures;
mod html;
mod matching;
mod render;
mod structural;

use crate::error::{CmdError, CmdResult};
use crate::output::{emit, emit_streamed, JsonArg};
use render::{FailOn, Unmatched};
use std::path::PathBuf;
use structural::KernelDiff;

#[derive(clap::Args)]
pub struct Args {
    /// The old build: a file or a directory
    a: PathBuf,
    /// The new build: a file or a directory (the same kind as A)
    b: PathBuf,
    /// Where the text or JSON goes (stdout when absent)
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Also write the comparison as one HTML page (figures, mixes, pressure, CFGs)
    #[arg(long, value_name = "OUT.html")]
    html: Option<PathBuf>,
    /// Exit 1 when a kernel crosses one of these thresholds: `METRIC OP VALUE`,
    /// comma-separated; a plain VALUE compares B's figure (`spill_bytes>0`), a signed
    /// one the change (`instructions>+10`), one with `%` the change relative to A
    /// (`instructions>+5%`)
    #[arg(long, value_name = "CONDITIONS", value_parser = render::parse_fail_on)]
    fail_on: Option<FailOn>,
    /// Moved lines shown per kernel in the text
    #[arg(long, value_name = "N", default_value_t = 12)]
    lines: usize,
    #[command(flatten)]
    json: JsonArg,
}

pub fn run(a: Args) -> CmdResult {
    let (dir_a, dir_b) = (a.a.is_dir(), a.b.is_dir());
    if dir_a != dir_b {
        return Err(CmdError::Usage(
            "compare two files or two directories, not a file with a directory".into(),
        ));
    }
    for p in [&a.a, &a.b] {
        std::fs::metadata(p).map_err(|e| CmdError::Input(format!("{}: {e}", p.display())))?;
    }
    let (mut diffs, unmatched, errors) = compare(&a.a, &a.b, !dir_a);
    for e in &errors {
        eprintln!("error: {}", crate::error::render_message(e));
    }
    if diffs.is_empty() && unmatched.is_empty() && !errors.is_empty() {
        return Err(CmdError::Reported(1));
    }
    diffs.sort_by(|x, y| y.size().cmp(&x.size()).then_with(|| x.key.cmp(&y.key)));
    if let Some(path) = &a.html {
        let title = format!("gpukit diff: {} vs {}", a.a.display(), a.b.display());
        let page = html::page(title, &diffs, &unmatched);
        emit_streamed(Some(path), |w| {
            gpukit_report::diff_page::write_diff_page(&page, w)
        })?;
    }
    if a.json.enabled() {
        a.json
            .emit_many(a.output.as_deref(), &render::rows(&diffs, &unmatched))?;
    } else {
        emit(
            a.output.as_deref(),
            render::text(&diffs, &unmatched, a.lines).as_bytes(),
        )?;
    }
    let mut crossed = 0;
    for t in a.fail_on.iter().flat_map(|f| &f.0) {
        for d in &diffs {
            if let Some(line) = t.crossed(d) {
                eprintln!("fail-on: {}", crate::error::render_message(&line));
                crossed += 1;
            }
        }
    }
    match (crossed, errors.is_empty()) {
        (0, true) => Ok(()),
        _ => Err(CmdError::Reported(1)),
    }
}

/// Every matched kernel compared, the unmatched ones, and what could not be read.
fn compare(
    a: &std::path::Path,
    b: &std::path::Path,
    files: bool,
) -> (Vec<KernelDiff>, Vec<Unmatched>, Vec<String>) {
    let groups_a = matching::groups(a);
    let mut groups_b = matching::groups(b);
    let mut diffs = Vec::new();
    let mut unmatched = Vec::new();
    let mut errors = Vec::new();
    let only =
        |side: char, key: &str, sides: Vec<figures::Side>, unmatched: &mut Vec<Unmatched>| {
            for s in sides {
                unmatched.push(Unmatched {
                    side,
                    key: key.to_owned(),
                    kernel: s.name.clone(),
                    file: s.files(),
                });
            }
        };
    // Two files meet whatever their names.
    let pairs: Vec<(String, matching::Group, Option<matching::Group>)> = if files {
        let ga = groups_a.into_values().next().unwrap_or_default();
        let gb = std::mem::take(&mut groups_b).into_values().next();
        vec![(String::new(), ga, gb)]
    } else {
        groups_a
            .into_iter()
            .map(|(k, g)| {
                let other = groups_b.remove(&k);
                (k, g, other)
            })
            .collect()
    };
    for (key, ga, gb) in pairs {
        let (sides_a, mut e) = matching::load(&ga);
        errors.append(&mut e);
        let Some(gb) = gb else {
            only('A', &key, sides_a, &mut unmatched);
            continue;
        };
        let (sides_b, mut e) = matching::load(&gb);
        errors.append(&mut e);
        let (pairs, only_a, only_b) = matching::pair(sides_a, sides_b, files);
        for (x, y) in pairs {
            // A group of several kernels names each.
            let k = if key.is_empty() {
                x.name.clone()
            } else if key.ends_with(&x.name) {
                key.clone()
            } else {
                format!("{key}:{}", x.name)
            };
            diffs.push(KernelDiff::new(k, x, y));
        }
        only('A', &key, only_a, &mut unmatched);
        only('B', &key, only_b, &mut unmatched);
    }
    for (key, g) in groups_b {
        let (sides, mut e) = matching::load(&g);
        errors.append(&mut e);
        only('B', &key, sides, &mut unmatched);
    }
    (diffs, unmatched, errors)
}
