//! `gpukit visa ...`: Intel vISA objects.
use crate::output::CmdResult;
use clap::Subcommand;

#[derive(Subcommand)]
pub enum VisaCommand {
    /// Placeholder
    Info,
}

impl VisaCommand {
    pub fn run(self) -> CmdResult {
        Ok(())
    }
}
