//! `gpukit amd args SOURCE.cl [--kernel K] [--bits 32|64] [--abi gcn|spec] [--check FILE.clo] [--json]`

use crate::detect::Format;
use crate::error::{CmdError, CmdResult};
use crate::output::{emit, JsonArg};
use gpukit_amd::abi::args::{argument_entries, place_arguments, ArgBuffer, EntryOptions};
use gpukit_amd::cl1::Cl1Binary;
use gpukit_amd::clc::{kernel_signatures, PointerWidth};
use gpukit_amd::elf::ElfClass;
use gpukit_amd::metadata::emit::entry_to_string;
use gpukit_amd::metadata::parse_metadata;
use gpukit_amd::metadata::MemType;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(Clone, Copy, clap::ValueEnum)]
enum Abi {
    /// GCN Catalyst drivers: cb1 from byte 0
    Gcn,
    /// The 2009 spec (7XX/Evergreen): cb0 from byte 96
    Spec,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Bits {
    #[value(name = "32")]
    B32,
    #[value(name = "64")]
    B64,
}

#[derive(clap::Args)]
pub struct Args {
    /// OpenCL C source holding the kernels
    source: PathBuf,
    /// Only this kernel
    #[arg(long)]
    kernel: Option<String>,
    /// Pointer width (size_t); taken from --check when given
    #[arg(long, value_enum, default_value = "32")]
    bits: Bits,
    /// Where arguments start
    #[arg(long, value_enum, default_value = "gcn")]
    abi: Abi,
    /// Compare with the metadata of this CL1 binary; exit 1 on any difference
    #[arg(long)]
    check: Option<PathBuf>,
    #[command(flatten)]
    json: JsonArg,
    /// Print the metadata argument lines a GCN compiler writes (buffer ids as placeholders)
    #[arg(long, conflicts_with_all = ["json", "check"])]
    lines: bool,
    /// Output file (stdout when absent)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

#[derive(Serialize)]
struct KernelReport {
    kernel: String,
    arguments: Vec<ArgReport>,
}

#[derive(Serialize)]
struct ArgReport {
    name: String,
    #[serde(rename = "type")]
    ty: String,
    cb: u32,
    offset: u32,
    size: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    metadata_offset: Option<u32>,
}

pub fn run(args: Args) -> CmdResult {
    let source = crate::input::read_text(&args.source, &[Format::OpenClC])?;
    let check_bytes = args
        .check
        .as_ref()
        .map(|p| crate::input::read(p, &super::info::BINARIES))
        .transpose()?;
    let binary = match (&check_bytes, &args.check) {
        (Some(b), Some(p)) => Some(Cl1Binary::parse(b).map_err(|e| CmdError::input(p, e))?),
        _ => None,
    };
    let width = match binary.as_ref().map(|b| b.class) {
        Some(ElfClass::Elf64) => PointerWidth::Bits64,
        Some(ElfClass::Elf32) => PointerWidth::Bits32,
        None if args.bits == Bits::B64 => PointerWidth::Bits64,
        None => PointerWidth::Bits32,
    };
    let buffer = match args.abi {
        Abi::Gcn => ArgBuffer::GCN,
        Abi::Spec => ArgBuffer::SPEC_2009,
    };
    let sigs = kernel_signatures(&source, &["__GPU__"], width)
        .map_err(|e| CmdError::input(&args.source, e))?;
    if sigs.is_empty() {
        return Err(CmdError::input(
            &args.source,
            "no OpenCL kernel (`__kernel` / `kernel` function) in this file",
        ));
    }
    if args.lines {
        let mut out = Vec::new();
        for sig in sigs
            .iter()
            .filter(|s| args.kernel.as_ref().is_none_or(|k| *k == s.name))
        {
            out.extend_from_slice(format!("; kernel {}\n", sig.name).as_bytes());
            let entries = argument_entries(
                &sig.params,
                EntryOptions {
                    buffer,
                    constant: MemType::Constant,
                },
            )
            .map_err(|e| CmdError::input(&args.source, format!("kernel `{}`: {e}", sig.name)))?;
            for e in &entries {
                out.extend_from_slice(&entry_to_string(e));
                out.push(b'\n');
            }
        }
        return emit(args.output.as_deref(), &out);
    }
    let mut reports = Vec::new();
    let mut mismatches = Vec::new();
    for sig in &sigs {
        if args.kernel.as_ref().is_some_and(|k| *k != sig.name) {
            continue;
        }
        let placed = place_arguments(sig.args.iter().map(|(n, t)| (n.as_str(), t)), buffer)
            .map_err(|e| CmdError::input(&args.source, format!("kernel `{}`: {e}", sig.name)))?;
        let real = match &binary {
            Some(b) => match b.kernel(&sig.name) {
                Some(k) => Some(
                    parse_metadata(k.metadata)
                        .map_err(|e| {
                            CmdError::input(args.check.as_ref().unwrap_or(&args.source), e)
                        })?
                        .arguments(),
                ),
                None => {
                    mismatches.push(format!("kernel `{}` is not in the binary", sig.name));
                    None
                }
            },
            None => None,
        };
        let mut out = Vec::new();
        for (i, (p, (_, ty))) in placed.iter().zip(&sig.args).enumerate() {
            let meta = real.as_ref().and_then(|r| r.get(i));
            if let Some(r) = real.as_ref() {
                match meta {
                    Some(m) if m.offset == p.offset && m.cb == p.cb => {}
                    Some(m) => mismatches.push(format!(
                        "{}: {}: computed cb{}[{}], metadata has cb{}[{}]",
                        sig.name, p.name, p.cb, p.offset, m.cb, m.offset
                    )),
                    None => mismatches.push(format!(
                        "{}: {}: not in the metadata ({} arguments there)",
                        sig.name,
                        p.name,
                        r.len()
                    )),
                }
            }
            out.push(ArgReport {
                name: p.name.clone(),
                ty: ty.describe(),
                cb: p.cb,
                offset: p.offset,
                size: p.size,
                metadata_offset: meta.map(|m| m.offset),
            });
        }
        reports.push(KernelReport {
            kernel: sig.name.clone(),
            arguments: out,
        });
    }
    if let Some(k) = &args.kernel {
        if reports.is_empty() {
            let names: Vec<&str> = sigs.iter().map(|s| s.name.as_str()).collect();
            return Err(CmdError::Usage(format!(
                "no kernel `{k}` in the source (kernels: {})",
                names.join(", ")
            )));
        }
    }
    if args.json.enabled() {
        return args.json.emit_many(args.output.as_deref(), &reports);
    }
    let out = {
        let mut s = String::new();
        for k in &reports {
            let _ = writeln!(s, "kernel {}", k.kernel);
            for a in &k.arguments {
                let _ = write!(
                    s,
                    "  {:<16} {:<14} cb{}[{:>5}] {:>5} bytes",
                    a.name, a.ty, a.cb, a.offset, a.size
                );
                if let Some(m) = a.metadata_offset {
                    let _ = write!(
                        s,
                        "  {}",
                        if m == a.offset {
                            "= metadata"
                        } else {
                            "!= metadata"
                        }
                    );
                }
                s.push('\n');
            }
        }
        s.into_bytes()
    };
    emit(args.output.as_deref(), &out)?;
    if mismatches.is_empty() {
        Ok(())
    } else {
        Err(CmdError::Input(format!(
            "{} difference(s) from the binary's metadata:\n{}",
            mismatches.len(),
            mismatches.join("\n")
        )))
    }
}
