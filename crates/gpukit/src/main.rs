//! The `gpukit` command. Each subcommand lives in its own file under `cmd/`;
//! this file only parses arguments and maps outcomes to exit codes.
#![forbid(unsafe_code)]

mod cmd;
mod detect;
mod error;
mod input;
mod output;
mod platform;
mod report;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "gpukit",
    version,
    about = "Read, write and check GPU compiler/runtime formats"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Intel vISA objects (.isa) and text (.visaasm)
    #[command(subcommand)]
    Visa(cmd::visa::VisaCommand),
    /// IGA JSON listings (iga64 -Xprint-json)
    #[command(subcommand)]
    Iga(cmd::iga::IgaCommand),
    /// AMD Catalyst OpenCL binaries, metadata and runtime ABI
    #[command(subcommand)]
    Amd(cmd::amd::AmdCommand),
    /// Intel OpenCL program binaries (ocloc output): kernel ABI
    #[command(subcommand)]
    Intel(cmd::intel::IntelCommand),
    /// Say what each file is (by content) and print its summary
    Info(cmd::info::Args),
    /// Self-contained HTML pages: summary, CFG, register pressure, mix, findings, listing
    Report(cmd::report::Args),
    /// Every kernel under files and directories, one row each (NDJSON, CSV, Parquet)
    Scan(cmd::scan::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Visa(c) => c.run(),
        Command::Iga(c) => c.run(),
        Command::Amd(c) => c.run(),
        Command::Intel(c) => c.run(),
        Command::Info(a) => cmd::info::run(a),
        Command::Report(a) => cmd::report::run(a),
        Command::Scan(a) => cmd::scan::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let message = e.to_string();
            if !message.is_empty() {
                error::print_stderr(&format!("error: {message}"));
            }
            ExitCode::from(e.exit_code())
        }
    }
}
