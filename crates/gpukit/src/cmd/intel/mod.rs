//! `gpukit intel ...`: Intel OpenCL program binaries (what ocloc writes). One file per subcommand.
pub(crate) mod info;

use crate::error::CmdResult;
use clap::Subcommand;

#[derive(Subcommand)]
pub enum IntelCommand {
    /// Kernel ABI of a program binary (patch tokens or zebin): arguments, implicit arguments, SIMD size, Gen code
    Info(info::Args),
}

impl IntelCommand {
    pub fn run(self) -> CmdResult {
        match self {
            IntelCommand::Info(a) => info::run(a),
        }
    }
}
