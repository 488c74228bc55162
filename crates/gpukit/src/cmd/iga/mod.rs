//! `gpukit iga ...`: IGA listings (iga64 -Xprint-json JSON, or assembly text as iga64 -d
//! and IGC's shader dumps write it), one file per subcommand.

mod cfg;
mod check;
mod convert;
mod pressure;
mod print;
pub mod run;
mod stats;

use crate::detect::Format;
use crate::error::{CmdError, CmdResult};
use clap::Subcommand;
use gpukit_iga::{Mode, Parsed};
use std::path::Path;

#[derive(Subcommand)]
pub enum IgaCommand {
    /// Rewrite a listing as IGA JSON 1.0 or 2.0, byte-identical to what iga64 prints
    ///
    /// The 2.0 labels' `preds`/`succs` follow iga64's own rule, which drops the fall-through
    /// after a block ending in an unpredicated non-branch (other commands use the true CFG).
    Convert(convert::Args),
    /// Print the listing as IGA assembly text, as iga64 disassembles the kernel
    Print(print::Args),
    /// Check a listing's internal consistency (ids, label targets, defs/uses, preds/succs)
    ///
    /// A 2.0 listing's `preds`/`succs` are checked against the rule iga64 writes them by
    /// (no fall-through after an unpredicated non-branch), not against the true CFG.
    Check(check::Args),
    /// The control-flow graph as Graphviz dot, SVG or JSON
    ///
    /// The true CFG: every block falls through to the next unless it ends in an unpredicated
    /// `jmpi` or `ret` or an unpredicated EOT; branches add edges to their labels. iga64's
    /// JSON 2.0 `preds`/`succs` omit the fall-through after an unpredicated non-branch, so
    /// their graph is not used here.
    Cfg(cfg::Args),
    /// Instruction mix, send and SBID counts, register pressure
    ///
    /// Blocks are those of the true CFG (fall-through included, not iga64's JSON 2.0
    /// `preds`/`succs`); register pressure is iga64's `liveTotals`.
    Stats(stats::Args),
    /// Plot register pressure (liveTotals) over the instruction index as SVG
    ///
    /// The totals are iga64's own (`-Xprint-defs`), plotted in instruction order; gpukit
    /// computes no liveness of its own and ignores the listing's `preds`/`succs` (whose
    /// iga64 rule drops fall-through edges), so the chart does not depend on them.
    Pressure(pressure::Args),
    /// Run a kernel's Gen code on the CPU, as `visa run` runs its vISA
    ///
    /// The listing is the Gen code of a kernel of the program binary (IGC's `.asm` dump
    /// beside the `.visaasm`, `iga64 -d` text or IGA JSON). The payload, arguments,
    /// memory, budget and outputs are `visa run`'s, and so are the options. From Xe-HP
    /// on, the code starts where NEO starts it when the hardware generates local IDs:
    /// after the per-thread data load prolog (the binary's
    /// `offset_to_skip_per_thread_data_load`).
    Run(run::Args),
}

impl IgaCommand {
    pub fn run(self) -> CmdResult {
        match self {
            IgaCommand::Convert(a) => convert::run(a),
            IgaCommand::Print(a) => print::run(a),
            IgaCommand::Check(a) => check::run(a),
            IgaCommand::Cfg(a) => cfg::run(a),
            IgaCommand::Stats(a) => stats::run(a),
            IgaCommand::Pressure(a) => pressure::run(a),
            IgaCommand::Run(a) => run::run(a),
        }
    }
}

/// Reads and parses a listing, JSON or assembly text (told apart by the content); in
/// lenient mode, says on stderr what was repaired. Text errors are `file:line:col`.
pub(crate) fn load(path: &Path, lenient: bool, platform: Option<&str>) -> Result<Parsed, CmdError> {
    let bytes = crate::input::read(
        path,
        &[
            Format::IgaJson1,
            Format::IgaJson2,
            Format::IgaText,
            Format::IgcAsmDump,
        ],
    )?;
    // Editors on Windows save a byte-order mark; neither form has use for it.
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    if body.trim_ascii_start().first() != Some(&b'{') {
        let text = crate::input::text(path, bytes)?;
        let listing = gpukit_iga::read::text::parse_text(&text, platform).map_err(|e| {
            CmdError::Input(format!(
                "{}:{}:{}: {}",
                crate::error::name(path),
                e.line,
                e.column,
                e.message
            ))
        })?;
        return Ok(Parsed {
            listing,
            repairs: Vec::new(),
        });
    }
    let mode = if lenient { Mode::Lenient } else { Mode::Strict };
    let parsed = gpukit_iga::parse(body, mode).map_err(|e| CmdError::input(path, e))?;
    for r in &parsed.repairs {
        crate::error::print_stderr(&format!("{}: repaired: {r}", crate::error::name(path)));
    }
    Ok(parsed)
}
