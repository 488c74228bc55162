//! `gpukit report FILE... [-o OUT.html | --dir OUT/] [--platform P] [--json]`: one
//! self-contained HTML page per input (vISA binary or text, IGA JSON, AMD CL1/CL2
//! binary) with, per kernel, its summary, CFG, register pressure, instruction mix,
//! verify findings and listing. `--json` prints the page's data instead (for scripts:
//! the pressure series, the peak and what is live there).

mod amd;
mod iga;
mod levels;
mod visa;

use crate::detect::{self, Format};
use crate::error::{print_stderr, CmdError, CmdResult};
use crate::output::{emit, emit_streamed, preflight, JsonArg};
use gpukit_report::Page;
use gpukit_visa::verify::Platform;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// vISA (.isa, .visaasm), IGA JSON or AMD CL1/CL2 files
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The page, for one input (stdout when absent)
    #[arg(short, long, conflicts_with = "dir")]
    output: Option<PathBuf>,
    /// Write one page per input into this directory, named after the input
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Platform of vISA inputs, for GRF size and platform rules (default: from the file)
    #[arg(long, value_parser = crate::platform::parse)]
    platform: Option<Platform>,
    /// The OpenCL source of a vISA input (default: found beside it in its dump folder)
    #[arg(long, value_name = "F.cl")]
    source: Option<PathBuf>,
    /// IGC's Gen assembly dump of a vISA input (default: the `.asm` beside it)
    #[arg(long, value_name = "F.asm")]
    asm: Option<PathBuf>,
    /// Show the vISA only: look for no source or `.asm` beside vISA inputs
    #[arg(long, conflicts_with_all = ["source", "asm"])]
    no_levels: bool,
    /// For an `.isa` of IGC 1.0.12198-13063's defective writer, show IGC's `.visaasm`
    /// dump beside it (same stem) instead
    #[arg(long)]
    prefer_text: bool,
    #[command(flatten)]
    json: JsonArg,
}

pub fn run(a: Args) -> CmdResult {
    if a.files.len() > 1 && a.dir.is_none() && !a.json.enabled() {
        return Err(CmdError::Usage(
            "several inputs make several pages: give --dir OUT/".into(),
        ));
    }
    if a.files.len() > 1 && (a.source.is_some() || a.asm.is_some()) {
        return Err(CmdError::Usage(
            "--source and --asm belong to one vISA input: give one file".into(),
        ));
    }
    // Every input and every page is known before the first page is written, so no
    // page can replace an input read later (by name, symlink or hard link).
    for path in &a.files {
        crate::input::declare(path);
    }
    let page_paths: Vec<PathBuf> = match &a.dir {
        Some(dir) => {
            let mut used_names = std::collections::HashSet::new();
            let paths: Vec<PathBuf> = a
                .files
                .iter()
                .map(|f| dir.join(page_name(f, &mut used_names)))
                .collect();
            preflight(paths.iter().map(PathBuf::as_path))?;
            std::fs::create_dir_all(dir)
                .map_err(|e| CmdError::Io(format!("{}: {e}", dir.display())))?;
            paths
        }
        None => {
            preflight(a.output.as_deref())?;
            Vec::new()
        }
    };
    let mut pages = Vec::new();
    let mut exit = 0u8;
    for (i, path) in a.files.iter().enumerate() {
        let levels = Levels {
            source: a.source.as_deref(),
            asm: a.asm.as_deref(),
            find: !a.no_levels,
            prefer_text: a.prefer_text,
        };
        match page_with(path, a.platform, &levels) {
            Ok(page) => {
                if let Some(out) = page_paths.get(i) {
                    if a.json.enabled() {
                        emit(Some(out), &a.json.one(&page))?;
                    } else {
                        emit_streamed(Some(out), |w| gpukit_report::write_page(&page, w))?;
                    }
                    print_stderr(&format!(
                        "{}: {}",
                        crate::error::name(path),
                        crate::error::name(out)
                    ));
                } else {
                    pages.push(page);
                }
            }
            Err(e) if a.files.len() == 1 => return Err(e),
            Err(e) => {
                print_stderr(&format!("error: {e}"));
                exit = exit.max(e.exit_code());
            }
        }
    }
    if a.dir.is_none() {
        let out = a.output.as_deref();
        match pages.as_slice() {
            [one] if a.json.enabled() && a.files.len() == 1 => a.json.emit_one(out, one)?,
            all if a.json.enabled() => a.json.emit_many(out, all)?,
            // The page goes into the output as it is produced.
            all => emit_streamed(out, |w| match all.first() {
                Some(page) => gpukit_report::write_page(page, w),
                None => Ok(()),
            })?,
        }
    }
    match exit {
        0 => Ok(()),
        code => Err(CmdError::Reported(code)),
    }
}

/// `NAME.html` after the input; inputs of the same name from different folders (the
/// same kernel built for several platforms) get their folder's name in front, then a
/// number.
fn page_name(path: &Path, used: &mut std::collections::HashSet<String>) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "report".into());
    let parent = path
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned());
    let mut candidates = vec![name.clone()];
    if let Some(parent) = parent {
        candidates.push(format!("{parent}_{name}"));
    }
    let chosen = candidates
        .into_iter()
        .find(|c| !used.contains(c))
        .unwrap_or_else(|| {
            (2..)
                .map(|n| format!("{name}.{n}"))
                .find(|c| !used.contains(c))
                .expect("some number is free")
        });
    used.insert(chosen.clone());
    format!("{chosen}.html")
}

/// Where a vISA input's other levels come from.
struct Levels<'a> {
    source: Option<&'a Path>,
    asm: Option<&'a Path>,
    /// Look beside the input for what is not given.
    find: bool,
    /// A defective `.isa` is replaced by the `.visaasm` beside it.
    prefer_text: bool,
}

/// The page of one input, its vISA alone.
pub(crate) fn page(path: &Path, platform: Option<Platform>) -> Result<Page, CmdError> {
    page_with(
        path,
        platform,
        &Levels {
            source: None,
            asm: None,
            find: false,
            prefer_text: false,
        },
    )
}

fn page_with(path: &Path, platform: Option<Platform>, want: &Levels) -> Result<Page, CmdError> {
    let mut bytes = crate::input::read_any(path)?;
    let mut format = detect::detect(&bytes);
    // A defective writer's `.isa` (which the page shows as far as it decodes) says
    // which text to use, or is replaced by it.
    let mut defect_advice = None;
    let mut shown = path.to_path_buf();
    if format == Format::VisaBinary {
        let text = gpukit_visa::binary::text_dump_beside(path)
            .filter(|_| want.prefer_text && gpukit_visa::binary::has_truncation_defect(&bytes));
        match text {
            Some(text) => {
                crate::input::declare(&text);
                bytes = crate::input::read_any(&text)?;
                format = detect::detect(&bytes);
                shown = text;
            }
            None => defect_advice = gpukit_visa::binary::advice(path, &bytes),
        }
    }
    let path = shown.as_path();
    let title = format!(
        "{}: {}",
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        format.describe()
    );
    let mut page = match format {
        Format::VisaBinary | Format::VisaText => {
            let dumps = if want.find || want.source.is_some() || want.asm.is_some() {
                let (source, asm) = if want.find {
                    levels::find(path, want.source, want.asm)
                } else {
                    (
                        want.source.map(Path::to_path_buf),
                        want.asm.map(Path::to_path_buf),
                    )
                };
                // Nothing beside the file: the plain vISA page.
                (source.is_some() || asm.is_some())
                    .then(|| levels::read(source.as_deref(), asm.as_deref()))
                    .transpose()?
            } else {
                None
            };
            visa::page(path, bytes, format, platform, dumps.as_ref())?
        }
        Format::IgaJson1 | Format::IgaJson2 => iga::page(path)?,
        Format::AmdCl1 | Format::AmdCl2 => amd::page(path)?,
        other => {
            return Err(CmdError::Input(format!(
                "{}: this is {}; `gpukit report` reads vISA, IGA JSON and AMD CL1/CL2 files",
                path.display(),
                other.describe()
            )))
        }
    };
    page.title = title;
    page.facts
        .insert(0, ("file".into(), path.display().to_string()));
    if let Some(advice) = defect_advice {
        page.facts.push(("defective writer".into(), advice));
    }
    Ok(page)
}
