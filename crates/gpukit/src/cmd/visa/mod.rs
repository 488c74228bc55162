//! `gpukit visa ...`: Intel vISA objects. One file per subcommand.
mod dis;
mod gen;
mod info;

use crate::output::CmdResult;
use clap::Subcommand;

#[derive(Subcommand)]
pub enum VisaCommand {
    /// Summarise a .isa file: version, routines, tables, inputs, attributes, Gen binaries, instructions
    Info(info::Args),
    /// Print a .isa file as vISA assembly text, exactly as the IGC release that writes its version does
    Dis(dis::Args),
    /// Extract a kernel's embedded Gen binary as raw machine code (what `iga64 -d` reads)
    Gen(gen::Args),
}

impl VisaCommand {
    pub fn run(self) -> CmdResult {
        match self {
            VisaCommand::Info(a) => info::run(a),
            VisaCommand::Gen(a) => gen::run(a),
            VisaCommand::Dis(a) => dis::run(a),
        }
    }
}
