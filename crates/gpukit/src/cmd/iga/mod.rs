//! `gpukit iga ...`. (Placeholder until the iga crate lands.)
use crate::output::CmdResult;
use clap::Subcommand;

#[derive(Subcommand)]
pub enum IgaCommand {
    /// Not implemented yet
    Todo,
}

impl IgaCommand {
    pub fn run(self) -> CmdResult {
        Err(crate::output::CmdError::Usage("not implemented yet".into()))
    }
}
