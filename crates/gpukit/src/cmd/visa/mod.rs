//! `gpukit visa ...`: Intel vISA objects. One file per subcommand.
mod asm;
mod dis;
mod fmt;
mod gen;
pub(crate) mod info;
pub(crate) mod pressure;
mod region;
mod run;
mod verify;

use crate::detect::Format;
use crate::error::{CmdError, CmdResult};
use clap::Subcommand;
use gpukit_visa::verify::Platform;

#[derive(Subcommand)]
pub enum VisaCommand {
    /// Summarise a .isa file: version, routines, tables, inputs, attributes, Gen binaries, instructions
    Info(info::Args),
    /// Assemble vISA text into a .isa binary
    Asm(asm::Args),
    /// Parse vISA text and print it again in IGC's layout for its version
    Fmt(fmt::Args),
    /// Print a .isa file as vISA assembly text, exactly as the IGC release that writes its version does
    Dis(dis::Args),
    /// Extract a kernel's embedded Gen binary as raw machine code (what `iga64 -d` reads)
    Gen(gen::Args),
    /// Check a .isa or .visaasm file against the vISA spec's rules; exit 1 with findings
    Verify(verify::Args),
    /// Show the elements and GRF bytes a region operand touches for an exec size
    Region(region::Args),
    /// Execute a kernel's vISA on the CPU with the payload its program binary's ABI describes
    Run(run::Args),
    /// Register pressure from the liveness of a routine's variables; with IGC's .asm, its
    /// register assignment checked against it
    Pressure(pressure::Args),
}

impl VisaCommand {
    pub fn run(self) -> CmdResult {
        match self {
            VisaCommand::Info(a) => info::run(a),
            VisaCommand::Gen(a) => gen::run(a),
            VisaCommand::Dis(a) => dis::run(a),
            VisaCommand::Asm(a) => asm::run(a),
            VisaCommand::Fmt(a) => fmt::run(a),
            VisaCommand::Verify(a) => verify::run(a),
            VisaCommand::Region(a) => region::run(a),
            VisaCommand::Run(a) => run::run(a),
            VisaCommand::Pressure(a) => pressure::run(a),
        }
    }
}

/// Print options for `--platform`, or (when absent) for what the object names (its
/// Gen binary or IGC 2.x's `//Platform:` trailer), else 32-byte GRFs.
fn print_options(platform: Option<Platform>) -> gpukit_visa::text::PrintOptions {
    gpukit_visa::text::PrintOptions {
        grf_bytes: platform.map(Platform::grf_size),
    }
}

/// Reads and parses a `.visaasm` file; parse errors are rendered with file:line:col,
/// the source line and a caret. The platform decides the GRF size that `&var[offset]`
/// counts in.
pub(crate) fn parse_file(
    path: &std::path::Path,
    platform: Option<Platform>,
) -> Result<gpukit_visa::Object, CmdError> {
    let text = crate::input::read_text(path, &[Format::VisaText])?;
    parse_text(path, &text, platform)
}

/// Parses text read from `path`; without a platform, the text's own `//Platform:`
/// trailer decides the GRF size, else 32 bytes.
pub(crate) fn parse_text(
    path: &std::path::Path,
    text: &str,
    platform: Option<Platform>,
) -> Result<gpukit_visa::Object, CmdError> {
    let parsed = match platform {
        Some(p) => gpukit_visa::text::parse_text_with(
            text,
            &gpukit_visa::text::ParseOptions {
                grf_bytes: p.grf_size(),
            },
        ),
        None => gpukit_visa::text::parse_text(text),
    };
    rendered(path, text, parsed)
}

/// Parses text read from `path` that came with a program binary whose GRFs are
/// `grf_bytes`: the text's own `//Platform:` trailer decides, else the binary.
pub(crate) fn parse_text_for_binary(
    path: &std::path::Path,
    text: &str,
    grf_bytes: u32,
) -> Result<gpukit_visa::Object, CmdError> {
    let options = gpukit_visa::text::ParseOptions { grf_bytes };
    rendered(
        path,
        text,
        gpukit_visa::text::parse_text_for(text, &options),
    )
}

/// A parse result, its diagnostics rendered with file:line:col, the line and a caret.
fn rendered(
    path: &std::path::Path,
    text: &str,
    parsed: Result<gpukit_visa::Object, gpukit_visa::text::Diagnostics>,
) -> Result<gpukit_visa::Object, CmdError> {
    parsed.map_err(|d| {
        let rendered = d.render(&path.display().to_string(), text);
        CmdError::Input(format!("{} error(s)\n{}", d.0.len(), rendered.trim_end()))
    })
}
