//! `gpukit amd ...`: AMD Catalyst OpenCL binaries, AMD IL metadata and the
//! runtime ABI. One file per subcommand.
mod args;
mod cb0;
mod cl2_abi;
pub(crate) mod info;
pub(crate) mod info_cl2;
mod link;
mod meta;

use crate::error::CmdResult;
use clap::Subcommand;

#[derive(Subcommand)]
pub enum AmdCommand {
    /// Summarise a CL1 or CL2 .clo binary: driver, device, kernels, arguments, memory, registers
    Info(info::Args),
    /// Print kernel metadata text from a .clo binary or a metadata text file, or its typed model (--json)
    Meta(meta::Args),
    /// Link one kernel out of a whole-program AMD IL text, as the runtime does
    Link(link::Args),
    /// Place kernel arguments from OpenCL C source (and compare with a binary's metadata)
    Args(args::Args),
    /// Build the cb0 reserved area for clEnqueueNDRangeKernel / clEnqueueTask
    Cb0(cb0::Args),
    /// OpenCL 2.0 kernel ABI: user SGPRs for features, setup buffer, argument buffer layout
    #[command(name = "cl2-abi")]
    Cl2Abi(cl2_abi::Args),
}

impl AmdCommand {
    pub fn run(self) -> CmdResult {
        match self {
            AmdCommand::Info(a) => info::run(a),
            AmdCommand::Meta(a) => meta::run(a),
            AmdCommand::Link(a) => link::run(a),
            AmdCommand::Args(a) => args::run(a),
            AmdCommand::Cb0(a) => cb0::run(a),
            AmdCommand::Cl2Abi(a) => cl2_abi::run(a),
        }
    }
}
