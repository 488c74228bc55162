//! `gpukit intel ...`: Intel OpenCL program binaries (what ocloc writes). One file per subcommand.
mod gen;
pub(crate) mod info;

use crate::error::CmdResult;
use clap::Subcommand;

#[derive(Subcommand)]
pub enum IntelCommand {
    /// Kernel ABI of a program binary (patch tokens or zebin): arguments, implicit arguments, SIMD size, Gen code
    Info(info::Args),
    /// Write a kernel's raw Gen machine code (what `iga64 -d` reads) from a program binary
    Gen(gen::Args),
}

impl IntelCommand {
    pub fn run(self) -> CmdResult {
        match self {
            IntelCommand::Info(a) => info::run(a),
            IntelCommand::Gen(a) => gen::run(a),
        }
    }
}
