//! `gpukit iga run LISTING --binary PROGRAM.bin --global X[,Y[,Z]] --arg N=SPEC...`:
//! executes a kernel's Gen machine code (an IGA listing: IGC's `.asm` dump, `iga64
//! -d` text or IGA JSON) on the CPU, with the payload, arguments, memory and
//! budget `visa run` gives the vISA of the same kernel (the options are the same).

use crate::cmd::launch::{usage, CheckArg, LaunchArgs};
use crate::error::{CmdError, CmdResult};
use gpukit_iga::Listing;
use gpukit_runtime::{Code, Kernel};
use gpukit_visa::interp;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// The kernel's Gen code: IGC's `.asm` dump, `iga64 -d` text or IGA JSON (the
    /// platform of text without one is the binary's)
    file: PathBuf,
    #[command(flatten)]
    launch: LaunchArgs,
    /// (The vISA engine's checks, told of the Gen code's memory accesses, fences and
    /// barriers; registers are not checked.)
    #[command(flatten)]
    check: CheckArg,
}

/// Reads a listing of the Gen code `program` holds: JSON or text; text that names
/// no platform (`iga64 -d`) is read for the binary's device.
pub fn read_listing(path: &Path, program: &gpukit_intel::Program) -> Result<Listing, CmdError> {
    let platform = program
        .device
        .and_then(crate::platform::from_gfxcore_family);
    Ok(super::load(path, false, platform)?.listing)
}

/// Where a Gen run stopped: the listing (the error names the instruction's index).
pub fn place(file: &Path, _e: &interp::RunError) -> String {
    format!("{}: ", file.display())
}

pub fn run(a: Args) -> CmdResult {
    let input_bytes = std::fs::metadata(&a.file).map(|m| m.len()).unwrap_or(0);
    let options = interp::Options {
        checks: a.check.checks()?,
        ..interp::Options::default()
    };
    let prepared = a.launch.prepare(input_bytes, options)?;
    let listing = read_listing(&a.file, &prepared.program)?;
    // The kernel: --kernel, else the binary's only one (zebin's symbol-table
    // pseudo-kernel aside).
    let name = match &a.launch.kernel {
        Some(k) => k.clone(),
        None => {
            let mut kernels = prepared
                .program
                .kernels
                .iter()
                .filter(|k| !k.name.starts_with("Intel_Symbol_Table"));
            match (kernels.next(), kernels.next()) {
                (Some(k), None) => k.name.clone(),
                _ => {
                    return Err(usage(format!(
                        "{}: the binary has {} kernels: give --kernel",
                        a.launch.binary.display(),
                        prepared.program.kernels.len()
                    )))
                }
            }
        }
    };
    let kernel = Kernel {
        name: &name,
        code: Code::Gen(&listing),
    };
    let launched = a
        .launch
        .launch(&kernel, &a.file, prepared, &|e| place(&a.file, e))?;
    let text = std::fs::read_to_string(&a.file).ok();
    let lines = text.as_deref().map(instruction_lines).unwrap_or_default();
    let site = |f: &interp::check::Finding| f.line(&|site| site_place(&a.file, &lines, site));
    a.launch
        .finish(&name, &launched, a.check.sites(&site), None)
}

/// Per instruction of an IGA text, in order: its line (1-based) and the vISA
/// instruction IGC's `.asm` comment names (`// $N`). Labels, directives and
/// comment lines hold no instruction.
fn instruction_lines(text: &str) -> Vec<(usize, Option<u32>)> {
    text.split('\n')
        .enumerate()
        .filter_map(|(i, raw)| {
            let (code, comment) = raw.split_once("//").unwrap_or((raw, ""));
            let code = code.trim();
            if code.is_empty() || code.starts_with('.') || code.ends_with(':') {
                return None;
            }
            let visa = comment.rsplit_once('$').and_then(|(_, n)| {
                let digits: String = n.chars().take_while(char::is_ascii_digit).collect();
                digits.parse().ok()
            });
            Some((i + 1, visa))
        })
        .collect()
}

/// Where a `--check` finding's Gen instruction is: `file:line` of the listing with
/// its vISA index where IGC's comment gives one, else the instruction's index.
fn site_place(file: &Path, lines: &[(usize, Option<u32>)], site: &interp::check::Site) -> String {
    let file = crate::error::name(file);
    match lines.get(site.index) {
        Some((line, Some(v))) => format!("{file}:{line} ({}, vISA ${v})", site.mnemonic),
        Some((line, None)) => format!("{file}:{line} ({})", site.mnemonic),
        None => format!("{file}: instruction #{} ({})", site.index, site.mnemonic),
    }
}
