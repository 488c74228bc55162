//! The command tree of `gpukit`. Each subcommand lives in its own file under `cmd/`;
//! this file only parses arguments and maps outcomes to exit codes.

use crate::error::{CmdError, CmdResult};
use crate::{cmd, error};
use clap::{CommandFactory, Parser, Subcommand};
use std::process::ExitCode;

/// `--version`: the release and the commit it was built from (`build.rs`).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("GPUKIT_COMMIT"),
    ")"
);

/// `--version` in full: what this build reads and which compilers it was checked against.
const LONG_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("GPUKIT_COMMIT"),
    ")\n",
    "IGC releases checked: 1.0.5353 (Debian 11), 1.0.12504 (Debian 12), 2.x (Debian sid)\n",
    "formats: vISA .isa 3.0-4.1 and .visaasm text; IGA JSON 1.0/2.0 listings; ",
    "AMD Catalyst CL1/CL2 .clo binaries and kernel metadata; ",
    "Intel OpenCL program binaries (patch tokens, zebin)"
);

#[derive(Parser)]
#[command(
    name = "gpukit",
    version = VERSION,
    long_version = LONG_VERSION,
    about = "Read, write and check GPU compiler/runtime formats"
)]
pub(crate) struct Cli {
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
    /// Two builds compared kernel by kernel: figures with deltas, what moved in the listing
    Diff(cmd::diff::Args),
    /// Shell completion script for bash, zsh, fish, elvish or PowerShell (stdout)
    Completions { shell: clap_complete::Shell },
    /// Manual pages (roff): gpukit(1) on stdout, or one page per subcommand into DIR
    Man {
        /// Write gpukit.1 and gpukit-SUBCOMMAND.1 ... into this directory
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
    },
}

pub fn main() -> ExitCode {
    match run(Cli::parse()) {
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

/// Runs one parsed command line: the binary's and the bindings' (`api`) one way in.
pub(crate) fn run(cli: Cli) -> CmdResult {
    match cli.command {
        Command::Visa(c) => c.run(),
        Command::Iga(c) => c.run(),
        Command::Amd(c) => c.run(),
        Command::Intel(c) => c.run(),
        Command::Info(a) => cmd::info::run(a),
        Command::Report(a) => cmd::report::run(a),
        Command::Scan(a) => cmd::scan::run(a),
        Command::Diff(a) => cmd::diff::run(a),
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "gpukit", &mut script);
            crate::output::emit(None, &script)
        }
        Command::Man { dir } => man(dir.as_deref()),
    }
}

/// `gpukit man`: the top page on stdout, or every page (one per subcommand, nested
/// ones named `gpukit-visa-run.1`) written into `dir`.
fn man(dir: Option<&std::path::Path>) -> CmdResult {
    let command = Cli::command();
    let Some(dir) = dir else {
        return crate::output::emit(None, &render_page(command)?);
    };
    let mut pages = Vec::new();
    collect_pages(command, "gpukit", &mut pages);
    for (name, command) in pages {
        crate::output::emit(Some(&dir.join(format!("{name}.1"))), &render_page(command)?)?;
    }
    Ok(())
}

fn collect_pages(command: clap::Command, name: &str, out: &mut Vec<(String, clap::Command)>) {
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        let sub_name = format!("{name}-{}", sub.get_name());
        collect_pages(sub.clone().name(sub_name.clone()), &sub_name, out);
    }
    out.push((name.to_string(), command.name(name.to_string())));
}

fn render_page(command: clap::Command) -> Result<Vec<u8>, CmdError> {
    let mut page = Vec::new();
    clap_mangen::Man::new(command)
        .render(&mut page)
        .map_err(|e| CmdError::Io(format!("man page: {e}")))?;
    Ok(page)
}
