//! `gpukit amd ...`. (Placeholder until the amd crate lands.)
use crate::output::CmdResult;
use clap::Subcommand;

#[derive(Subcommand)]
pub enum AmdCommand {
    /// Not implemented yet
    Todo,
}

impl AmdCommand {
    pub fn run(self) -> CmdResult {
        Err(crate::output::CmdError::Usage("not implemented yet".into()))
    }
}
