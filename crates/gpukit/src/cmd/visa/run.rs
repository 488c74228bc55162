//! `gpukit visa run FILE --binary PROGRAM.bin --global X[,Y[,Z]] --local X[,Y[,Z]]
//! --arg N=SPEC... --out N=FILE...`: executes a kernel's vISA on the CPU with the
//! payload built from the program binary's ABI, as the runtime would build it.

use crate::cmd::launch::{usage, CheckArg, LaunchArgs};
use crate::detect::{self, Format};
use crate::error::{CmdError, CmdResult};
use gpukit_runtime::{self as runtime, Code, Kernel};
use gpukit_visa::interp;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// The kernel's vISA: a .visaasm text or a .isa binary
    file: PathBuf,
    #[command(flatten)]
    launch: LaunchArgs,
    /// A function the kernel calls (fcall, ifcall): a .visaasm text holding
    /// `.global_function`, as IGC dumps each beside its kernel (`..._f0.visaasm`).
    /// Functions inside a .isa FILE are found without it
    #[arg(long = "function", value_name = "FILE")]
    functions: Vec<PathBuf>,
    /// When FILE is an .isa with the IGC 1.0.12198-13063 writer defect, run IGC's text
    /// dump of the same compile beside it (the `.visaasm` of the same stem)
    #[arg(long)]
    prefer_text: bool,
    /// Run every instruction on the generic interpreter, none on the translated engine
    #[arg(long)]
    no_translate: bool,
    #[command(flatten)]
    check: CheckArg,
    /// Also run the Gen code IGC made of the kernel (its IGA listing: default the
    /// `.asm` dump beside FILE, same stem) on the same arguments, and compare every
    /// buffer byte for byte: each buffer that differs is a line (`compare: ...`: how
    /// many elements, the first), and any difference exits 1. On a difference both run
    /// again instruction by instruction, and a last line names the first vISA
    /// instruction (`$N`) whose value the Gen code computes differently (from the
    /// dump's `// $N` comments and `//.declare` table of where each variable lives)
    #[arg(long, value_name = "GEN.asm", num_args = 0..=1, require_equals = true)]
    compare: Option<Option<PathBuf>>,
}

/// Where a run stopped: the file, and the instruction's line of a text.
fn place(
    file: &Path,
    text: Option<&str>,
    body: &gpukit_visa::Routine,
    e: &interp::RunError,
) -> String {
    let file = file.display();
    match (e.index, text) {
        // The error message names the function and the instruction's index there.
        _ if e.function.is_some() => format!("{file}: "),
        (Some(i), Some(t)) => {
            let count = body.code.instructions_or_empty().len();
            match runtime::instruction_lines(t, count).and_then(|m| m.get(i).copied()) {
                Some(line) => format!(
                    "{file}:{line}: {}\n",
                    t.split('\n').nth(line - 1).unwrap_or("").trim()
                ),
                None => format!("{file}: instruction #{i}\n"),
            }
        }
        (Some(i), None) => format!("{file}: instruction #{i}\n"),
        _ => format!("{file}: "),
    }
}

pub fn run(a: Args) -> CmdResult {
    let bytes = crate::input::read(&a.file, &[Format::VisaBinary, Format::VisaText])?;
    let mut input_bytes = bytes.len() as u64;
    for path in &a.functions {
        input_bytes += std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    }
    let options = interp::Options {
        translate: !a.no_translate,
        checks: a.check.checks()?,
        ..interp::Options::default()
    };
    // The program binary first: a text without a `//Platform:` trailer (IGC
    // 1.0.12504's dumps) counts `&var[offset]` in the binary's GRFs.
    let prepared = a.launch.prepare(input_bytes, options.clone())?;
    let grf_bytes = prepared.program.grf_bytes();
    // `--prefer-text`: a defective .isa's text dump beside it instead.
    let beside = gpukit_visa::binary::text_dump_beside(&a.file)
        .filter(|_| a.prefer_text && gpukit_visa::binary::has_truncation_defect(&bytes));
    let (object, text) = if let Some(path) = &beside {
        let text = crate::input::read_text(path, &[Format::VisaText])?;
        (
            super::parse_text_for_binary(path, &text, grf_bytes)?,
            Some(text),
        )
    } else if detect::detect(&bytes) != Format::VisaBinary {
        let text = crate::input::text(&a.file, bytes)?;
        let obj = super::parse_text_for_binary(&a.file, &text, grf_bytes)?;
        (obj, Some(text))
    } else {
        let read = gpukit_visa::read(&bytes);
        let explain = |e| gpukit_visa::binary::explained(&a.file, &bytes, e);
        (
            read.map_err(|e| CmdError::input(&a.file, explain(e)))?,
            None,
        )
    };
    let kernel = match &a.launch.kernel {
        Some(k) => object
            .kernels
            .iter()
            .find(|x| x.name == k.as_bytes())
            .ok_or_else(|| usage(format!("{}: no kernel {k:?}", a.file.display())))?,
        None => match object.kernels.as_slice() {
            [k] => k,
            _ => return Err(usage(format!("{}: give --kernel", a.file.display()))),
        },
    };
    let name = String::from_utf8_lossy(&kernel.name).into_owned();
    let mut extra = Vec::with_capacity(a.functions.len());
    for path in &a.functions {
        let text = crate::input::read_text(path, &[Format::VisaText])?;
        extra.push(super::parse_text_for_binary(path, &text, grf_bytes)?);
    }
    let functions: Vec<(&[u8], &gpukit_visa::Routine)> = object
        .functions
        .iter()
        .chain(extra.iter().flat_map(|o| o.functions.iter()))
        .map(|f| (f.name.as_slice(), &f.body))
        .collect();
    // --compare: the Gen listing, read before anything runs.
    let gen = match &a.compare {
        None => None,
        Some(path) => {
            let path = path.clone().unwrap_or_else(|| a.file.with_extension("asm"));
            let listing = crate::cmd::iga::run::read_listing(&path, &prepared.program)?;
            Some((path, listing))
        }
    };
    let body = &kernel.body;
    let kernel = Kernel {
        name: &name,
        code: Code::Visa { body, functions },
    };
    let launched = a.launch.launch(&kernel, &a.file, prepared, &|e| {
        place(&a.file, text.as_deref(), body, e)
    })?;
    let diffs = match &gen {
        None => None,
        Some((path, listing)) => {
            // The Gen front end has no checks: only the vISA run looks for findings.
            let options = interp::Options {
                checks: Default::default(),
                ..options
            };
            let prepared = a.launch.prepare(input_bytes, options)?;
            let kernel = Kernel {
                name: &name,
                code: Code::Gen(listing),
            };
            let other = a.launch.launch(&kernel, path, prepared, &|e| {
                crate::cmd::iga::run::place(path, e)
            })?;
            let buffers =
                runtime::compare::compare(&launched.outcome, &other.outcome, ["vISA", "Gen"]);
            let departure = if buffers.is_empty() {
                Ok(None)
            } else {
                locate(
                    &a,
                    input_bytes,
                    &name,
                    path,
                    listing,
                    body,
                    &functions_of(&kernel),
                )
            };
            Some(crate::cmd::launch::Compared { buffers, departure })
        }
    };
    let site = |f: &interp::check::Finding| {
        f.line(&|site| site_place(&a.file, text.as_deref(), body, site))
    };
    a.launch
        .finish(&name, &launched, a.check.sites(&site), diffs.as_ref())
}

/// The vISA body's functions, as a locating launch follows them.
fn functions_of<'a>(kernel: &Kernel<'a>) -> Vec<(&'a [u8], &'a gpukit_visa::Routine)> {
    match &kernel.code {
        Code::Visa { functions, .. } => functions.clone(),
        _ => Vec::new(),
    }
}

/// `--compare`'s locating run ([`runtime::Code::Locate`]) on the same arguments:
/// the first vISA instruction whose Gen value differs, or why none was located
/// (the dump's header is unreadable, an engine stopped).
fn locate(
    a: &Args,
    input_bytes: u64,
    name: &str,
    path: &Path,
    listing: &gpukit_iga::Listing,
    body: &gpukit_visa::Routine,
    functions: &[(&[u8], &gpukit_visa::Routine)],
) -> Result<Option<runtime::gen::Departure>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let placement = runtime::gen::placement(&text).map_err(|e| e.to_string())?;
    let prepared = a
        .launch
        .prepare(input_bytes, interp::Options::default())
        .map_err(|e| e.to_string())?;
    let kernel = Kernel {
        name,
        code: Code::Locate {
            listing,
            placement: &placement,
            body,
            functions: functions.to_vec(),
        },
    };
    let launched = a
        .launch
        .launch(&kernel, path, prepared, &|e| {
            crate::cmd::iga::run::place(path, e)
        })
        .map_err(|e| e.to_string())?;
    Ok(launched.outcome.departure)
}

/// Where a `--check` finding's instruction is: `file:line` of a text (the kernel's
/// instructions), else its index.
fn site_place(
    file: &Path,
    text: Option<&str>,
    body: &gpukit_visa::Routine,
    site: &interp::check::Site,
) -> String {
    let file = crate::error::name(file);
    if let Some(f) = &site.function {
        return format!(
            "{file}: function {f} instruction #{} ({})",
            site.index, site.mnemonic
        );
    }
    let count = body.code.instructions_or_empty().len();
    match text
        .and_then(|t| runtime::instruction_lines(t, count))
        .and_then(|m| m.get(site.index).copied())
    {
        Some(line) => format!("{file}:{line} ({})", site.mnemonic),
        None => format!("{file}: instruction #{} ({})", site.index, site.mnemonic),
    }
}
