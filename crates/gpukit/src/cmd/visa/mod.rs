//! `gpukit visa ...`: Intel vISA objects. One file per subcommand.
mod asm;
mod dis;
mod fmt;
mod gen;
mod info;
mod region;
mod run;
mod verify;

use crate::output::CmdResult;
use clap::Subcommand;

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
        }
    }
}

/// The target platform of a text: it decides the GRF size that `&var[offset]` counts in.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Platform {
    Skl,
    Icllp,
    Tgllp,
    Dg2,
    Mtl,
    Pvc,
}

impl Platform {
    fn grf_bytes(self) -> u32 {
        match self {
            Platform::Pvc => 64,
            _ => 32,
        }
    }
}

/// Reads and parses a `.visaasm` file; parse errors are rendered with file:line:col,
/// the source line and a caret.
fn parse_file(
    path: &std::path::Path,
    platform: Option<Platform>,
) -> Result<gpukit_visa::Object, crate::output::CmdError> {
    let bytes = crate::output::read_file(path)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        crate::output::CmdError::Input(format!("{}: not UTF-8 text: {e}", path.display()))
    })?;
    let options = gpukit_visa::text::ParseOptions {
        grf_bytes: platform.map_or(32, Platform::grf_bytes),
    };
    gpukit_visa::text::parse_text_with(&text, &options).map_err(|d| {
        let rendered = d.render(&path.display().to_string(), &text);
        crate::output::CmdError::Input(format!("{} error(s)\n{}", d.0.len(), rendered.trim_end()))
    })
}
