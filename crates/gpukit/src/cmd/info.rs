//! `gpukit info FILE... [--json]`: whatever the file is, says so and prints the
//! summary its own command would (`visa info`, `iga stats`, `amd info`, ...).

use crate::detect::{self, Format};
use crate::error::{CmdError, CmdResult};
use crate::output::JsonArg;
use crate::report::{run_files_streamed, Outcome};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// Files of any format gpukit reads
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    json: JsonArg,
    /// Output file (stdout when absent)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

#[derive(Serialize)]
struct Report {
    file: String,
    format: &'static str,
    description: &'static str,
    summary: Summary,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Summary {
    VisaBinary(Box<crate::cmd::visa::info::Report>),
    VisaText(VisaTextSummary),
    Iga(Box<gpukit_iga::analysis::Stats>),
    Amd(Box<crate::cmd::amd::info::AnyReport>),
    AmdMetadata(Vec<MetadataSummary>),
    OpenClC(Vec<SignatureSummary>),
    Intel(Box<gpukit_intel::Program>),
    AsmDump(Box<gpukit_intel::asm_dump::AsmDump>),
    /// Formats gpukit recognises but has no reader for.
    None {},
}

#[derive(Serialize)]
struct VisaTextSummary {
    version: String,
    routines: Vec<RoutineSummary>,
}

#[derive(Serialize)]
struct RoutineSummary {
    name: String,
    kind: &'static str,
    variables: usize,
    inputs: usize,
    instructions: usize,
    histogram: BTreeMap<&'static str, usize>,
}

#[derive(Serialize)]
struct MetadataSummary {
    block: String,
    kernel: Option<String>,
    device: Option<String>,
    arguments: usize,
}

#[derive(Serialize)]
struct SignatureSummary {
    kernel: String,
    arguments: Vec<String>,
}

pub fn run(a: Args) -> CmdResult {
    run_files_streamed(&a.files, a.json, a.output.as_deref(), report, |r, w| {
        w.write_all(text(r).as_bytes())?;
        // A program's kernels are written one at a time: their text outgrows the model.
        match &r.summary {
            Summary::Intel(p) => crate::cmd::intel::info::render_to(p, w),
            _ => Ok(()),
        }
    })
}

fn report(path: &Path) -> Result<Outcome<Report>, CmdError> {
    // Text formats are told from their first bytes; ELF containers from their headers,
    // which may sit anywhere in the file.
    let mut head = crate::input::read_head(path, detect::SNIFF_BYTES)?;
    if head.starts_with(b"\x7fELF") {
        head = crate::input::read_any(path)?;
    }
    let mut format = detect::detect(&head);
    drop(head);
    let mut problem = None;
    let summary = match format {
        Format::VisaBinary => {
            let o = crate::cmd::visa::info::report(path)?;
            problem = o.problem;
            Summary::VisaBinary(Box::new(o.report))
        }
        Format::VisaText => Summary::VisaText(visa_text(path)?),
        Format::IgaJson1 | Format::IgaJson2 => {
            let parsed = crate::cmd::iga::load(path, false, None)?;
            Summary::Iga(Box::new(gpukit_iga::analysis::stats(&parsed.listing)))
        }
        Format::AmdCl1 | Format::AmdCl2 | Format::AmdCl1Cpu => {
            Summary::Amd(Box::new(crate::cmd::amd::info::report(path)?))
        }
        Format::AmdMetadata | Format::AmdIl => Summary::AmdMetadata(metadata(path, format)?),
        Format::OpenClC => Summary::OpenClC(signatures(path)?),
        Format::IntelZebin | Format::IntelPatchTokens => {
            let bytes = crate::input::read_any(path)?;
            let program = gpukit_intel::read(&bytes).map_err(|e| CmdError::input(path, e))?;
            Summary::Intel(Box::new(program))
        }
        Format::IgcAsmDump => {
            let text = crate::input::read_text(path, &[format])?;
            let dump = gpukit_intel::asm_dump::read(&text)
                .map_err(|e| CmdError::Input(format!("{}:{e}", path.display())))?;
            Summary::AsmDump(Box::new(dump))
        }
        // iga64's text names no platform, which reading it needs (`iga print --platform`).
        Format::IgaText | Format::LlvmIr | Format::LlvmBitcode | Format::SpirV | Format::Empty => {
            Summary::None {}
        }
        Format::OtherElf => match gpukit_intel::read(&crate::input::read_any(path)?) {
            // NEO's OpenCL ELF around a patch-token program is an ELF of its own kind.
            Ok(program) => {
                format = Format::IntelPatchTokens;
                Summary::Intel(Box::new(program))
            }
            Err(_) => Summary::None {},
        },
        Format::Unknown => {
            return Err(CmdError::Input(format!(
                "{}: not a format gpukit knows (vISA binary or text, IGA JSON, AMD CL1/CL2 \
                 binary, AMD IL or metadata text, OpenCL C)",
                path.display()
            )))
        }
    };
    let report = Report {
        file: path.display().to_string(),
        format: format.id(),
        description: format.describe(),
        summary,
    };
    Ok(Outcome::with_problem(report, problem))
}

fn visa_text(path: &Path) -> Result<VisaTextSummary, CmdError> {
    let object = crate::cmd::visa::parse_file(path, None)?;
    let routine = |name: &[u8], kind, body: &gpukit_visa::Routine| {
        let mut histogram = BTreeMap::new();
        let mut instructions = 0;
        if let gpukit_visa::Code::Instructions(list) = &body.code {
            instructions = list.len();
            for i in list {
                *histogram.entry(i.mnemonic()).or_insert(0) += 1;
            }
        }
        RoutineSummary {
            name: String::from_utf8_lossy(name).into_owned(),
            kind,
            variables: body.variables.len(),
            inputs: body.inputs().len(),
            instructions,
            histogram,
        }
    };
    let routines = object
        .kernels
        .iter()
        .map(|k| routine(&k.name, "kernel", &k.body))
        .chain(
            object
                .functions
                .iter()
                .map(|f| routine(&f.name, "function", &f.body)),
        )
        .collect();
    Ok(VisaTextSummary {
        version: object.version.to_string(),
        routines,
    })
}

fn metadata(path: &Path, format: Format) -> Result<Vec<MetadataSummary>, CmdError> {
    let text = crate::input::read_text(path, &[format])?;
    let blocks =
        gpukit_amd::metadata::find_blocks(text.as_bytes()).map_err(|e| CmdError::input(path, e))?;
    Ok(blocks
        .into_iter()
        .map(|(_, m)| MetadataSummary {
            kernel: m.kernel_name().map(str::to_owned),
            device: m.device().map(str::to_owned),
            arguments: m.arguments().len(),
            block: m.name.into_owned(),
        })
        .collect())
}

fn signatures(path: &Path) -> Result<Vec<SignatureSummary>, CmdError> {
    let text = crate::input::read_text(path, &[Format::OpenClC])?;
    let sigs = gpukit_amd::clc::kernel_signatures(
        &text,
        &["__GPU__"],
        gpukit_amd::clc::PointerWidth::Bits64,
    )
    .map_err(|e| CmdError::input(path, e))?;
    Ok(sigs
        .into_iter()
        .map(|s| SignatureSummary {
            kernel: s.name,
            arguments: s
                .args
                .iter()
                .map(|(n, t)| format!("{} {n}", t.describe()))
                .collect(),
        })
        .collect())
}

fn text(r: &Report) -> String {
    let mut s = String::new();
    match &r.summary {
        Summary::VisaBinary(v) => return crate::cmd::visa::info::text(v),
        Summary::Amd(a) => return crate::cmd::amd::info::any_text(a),
        Summary::Iga(stats) => {
            let _ = writeln!(s, "{}: {}", r.file, r.description);
            s.push_str(&stats.to_text());
        }
        Summary::VisaText(v) => {
            let _ = writeln!(s, "{}: {}, vISA {}", r.file, r.description, v.version);
            for k in &v.routines {
                let _ = writeln!(
                    s,
                    "  {} {}: {} variables, {} inputs, {} instructions",
                    k.kind, k.name, k.variables, k.inputs, k.instructions
                );
            }
        }
        Summary::AmdMetadata(blocks) => {
            let _ = writeln!(
                s,
                "{}: {}, {} kernel(s)",
                r.file,
                r.description,
                blocks.len()
            );
            for b in blocks {
                let _ = writeln!(
                    s,
                    "  {}: {} argument(s){}",
                    b.kernel.as_deref().unwrap_or(&b.block),
                    b.arguments,
                    b.device
                        .as_deref()
                        .map(|d| format!(", device {d}"))
                        .unwrap_or_default()
                );
            }
        }
        Summary::OpenClC(sigs) => {
            let _ = writeln!(s, "{}: {}, {} kernel(s)", r.file, r.description, sigs.len());
            for k in sigs {
                let _ = writeln!(s, "  kernel {}({})", k.kernel, k.arguments.join(", "));
            }
        }
        Summary::Intel(_) => {
            // The program's own lines follow, streamed (`run`).
            let _ = writeln!(s, "{}: {}", r.file, r.description);
        }
        Summary::AsmDump(d) => {
            let _ = writeln!(s, "{}: {}", r.file, r.description);
            let _ = writeln!(
                s,
                "  kernel {}: platform {}, vISA {}, numGRF {}, spill {} bytes",
                d.kernel,
                d.platform.as_deref().unwrap_or("?"),
                d.visa_version.as_deref().unwrap_or("?"),
                d.num_grf
                    .or(d.total_grf_option)
                    .map_or_else(|| "?".into(), |n| n.to_string()),
                d.spill_bytes
            );
            let _ = writeln!(
                s,
                "  {} Gen instructions ({} stated), {} labels, {} sends{}",
                d.instructions,
                d.stated_instructions
                    .map_or_else(|| "none".into(), |n| n.to_string()),
                d.labels,
                d.send_count(),
                d.register_allocator
                    .as_deref()
                    .map(|ra| format!(", RA {ra}"))
                    .unwrap_or_default()
            );
        }
        Summary::None {} => {
            let _ = writeln!(s, "{}: {}", r.file, r.description);
        }
    }
    s
}
