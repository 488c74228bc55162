//! `gpukit amd meta FILE.clo|FILE.txt [--kernel NAME] [--json]`
//! (CL2 binaries: the decoded binary metadata, as a dump or JSON)

use crate::detect::Format;
use crate::error::{CmdError, CmdResult};
use crate::output::{emit, emit_streamed, JsonArg};
use gpukit_amd::cl1::Cl1Binary;
use gpukit_amd::cl2::Cl2Binary;
use gpukit_amd::container::{detect, BinaryKind};
use gpukit_amd::metadata::{find_blocks, parse_metadata, Argument, Lines, MemoryTotals, Metadata};
use serde::Serialize;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// A CL1 program binary (.clo), or a text (metadata dump, AMD IL program) holding metadata blocks
    file: PathBuf,
    /// Only this kernel (name without `__OpenCL_`/`_kernel`)
    #[arg(long)]
    kernel: Option<String>,
    /// Print the typed model (or, with --check, the findings) as JSON
    #[command(flatten)]
    json: JsonArg,
    /// Check each block for consistency (slots, ids, indexes, vector sizes) instead of
    /// printing it; exit 1 on findings
    #[arg(long)]
    check: bool,
    /// Output file (stdout when absent)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

#[derive(Serialize)]
struct BlockReport<'a> {
    name: &'a str,
    kernel: Option<&'a str>,
    version: Option<(u32, u32, u32)>,
    device: Option<&'a str>,
    unique_id: Option<u32>,
    memory: MemoryTotals,
    arguments: Vec<Argument>,
    calls: Vec<u32>,
    intrinsics: Vec<u32>,
    lines: Lines<'a>,
}

pub fn run(args: Args) -> CmdResult {
    let bytes = crate::input::read(
        &args.file,
        &[
            Format::AmdCl1,
            Format::AmdCl1Cpu,
            Format::AmdCl2,
            Format::OtherElf,
            Format::AmdMetadata,
            Format::AmdIl,
        ],
    )?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    if matches!(detect(bytes), BinaryKind::Cl2 { .. }) {
        return cl2(&args, bytes);
    }
    // Printing a parsed block reproduces its stored text byte for byte, so
    // no copy of the text is kept beside the model.
    let mut blocks: Vec<Metadata> = Vec::new();
    if bytes.starts_with(b"\x7fELF") {
        let bin = Cl1Binary::parse(bytes).map_err(|e| CmdError::input(&args.file, e))?;
        for k in &bin.kernels {
            let md = parse_metadata(k.metadata).map_err(|e| {
                CmdError::input(&args.file, format!("kernel `{}` metadata: {e}", k.name))
            })?;
            blocks.push(md);
        }
    } else {
        // Blocks anywhere in the text: a metadata dump or a whole IL program.
        blocks = find_blocks(bytes)
            .map_err(|e| CmdError::input(&args.file, e))?
            .into_iter()
            .map(|(_, m)| m)
            .collect();
        if blocks.is_empty() {
            return Err(CmdError::input(
                &args.file,
                "no `;ARGSTART:`..`;ARGEND:` metadata block",
            ));
        }
    }
    if let Some(want) = &args.kernel {
        let keep: Vec<bool> = blocks
            .iter()
            .map(|b| b.kernel_name() == Some(want.as_str()) || b.name == *want)
            .collect();
        if !keep.contains(&true) {
            let names: Vec<&str> = blocks
                .iter()
                .map(|b| b.kernel_name().unwrap_or(&b.name))
                .collect();
            return Err(CmdError::Usage(format!(
                "no kernel `{want}` (kernels: {})",
                names.join(", ")
            )));
        }
        let mut k = keep.iter();
        blocks.retain(|_| *k.next().unwrap_or(&false));
    }
    if args.check {
        #[derive(Serialize)]
        struct CheckReport<'a> {
            block: &'a str,
            findings: Vec<gpukit_amd::metadata::check::Finding>,
        }
        let reports: Vec<CheckReport> = blocks
            .iter()
            .map(|m| CheckReport {
                block: &m.name,
                findings: m.check(),
            })
            .collect();
        let count: usize = reports.iter().map(|r| r.findings.len()).sum();
        if args.json.enabled() {
            args.json.emit_many(args.output.as_deref(), &reports)?;
        } else {
            let mut text = String::new();
            for r in &reports {
                text.push_str(&format!("{}: {} finding(s)\n", r.block, r.findings.len()));
                for f in &r.findings {
                    text.push_str(&format!("  {f}\n"));
                }
            }
            emit(args.output.as_deref(), text.as_bytes())?;
        }
        return if count == 0 {
            Ok(())
        } else {
            crate::error::print_stderr(&format!(
                "{}: {count} consistency finding(s)",
                crate::error::name(&args.file)
            ));
            Err(CmdError::Reported(1))
        };
    }
    if args.json.enabled() {
        let reports: Vec<BlockReport> = blocks
            .iter()
            .map(|m| BlockReport {
                name: &m.name,
                kernel: m.kernel_name(),
                version: m.version(),
                device: m.device(),
                unique_id: m.unique_id(),
                memory: m.memory_totals(),
                arguments: m.arguments(),
                calls: m.called_functions(),
                intrinsics: m.intrinsics(),
                lines: m.lines(),
            })
            .collect();
        args.json.emit_many(args.output.as_deref(), &reports)
    } else {
        // One block's text at a time (a block may be most of the input).
        emit_streamed(args.output.as_deref(), |w| {
            let mut text = Vec::new();
            for m in &blocks {
                text.clear();
                m.emit_into(&mut text);
                w.write_all(&text)?;
            }
            Ok(())
        })
    }
}

/// CL2 metadata is binary: print each kernel's decoded fields (`--check` has
/// nothing to check beyond what reading already did).
fn cl2(args: &Args, bytes: &[u8]) -> CmdResult {
    let bin = Cl2Binary::parse(bytes).map_err(|e| CmdError::input(&args.file, e))?;
    let kernels: Vec<_> = bin
        .kernels
        .iter()
        .filter(|k| args.kernel.as_ref().is_none_or(|n| *n == k.name))
        .collect();
    if let Some(n) = &args.kernel {
        if kernels.is_empty() {
            return Err(CmdError::Usage(format!(
                "no kernel `{n}` in {}",
                args.file.display()
            )));
        }
    }
    if args.json.enabled() {
        #[derive(Serialize)]
        struct Cl2Block<'a> {
            kernel: &'a str,
            metadata: &'a gpukit_amd::cl2::KernelMetadata,
        }
        let blocks: Vec<Cl2Block> = kernels
            .iter()
            .map(|k| Cl2Block {
                kernel: &k.name,
                metadata: &k.metadata,
            })
            .collect();
        return args.json.emit_many(args.output.as_deref(), &blocks);
    }
    let out = if args.check {
        format!("{} kernels read, no findings\n", kernels.len()).into_bytes()
    } else {
        let mut s = String::new();
        for k in kernels {
            s.push_str(&format!("# kernel {}\n", k.name));
            s.push_str(&k.metadata.dump());
        }
        s.into_bytes()
    };
    emit(args.output.as_deref(), &out)
}
