//! `gpukit amd info FILE.clo... [--json]` (CL2 binaries: `info_cl2`)

use crate::detect::Format;
use crate::error::{CmdError, CmdResult};
use crate::output::JsonArg;
use crate::report::{run_files, Outcome};
use gpukit_amd::cl1::{CalEncoding, Cl1Binary, ProgInfoEntry, ProgInfoSummary};
use gpukit_amd::container::{detect, BinaryKind};
use gpukit_amd::elf::ElfClass;
use gpukit_amd::metadata::{parse_metadata, Argument, MemoryTotals};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The CL1 or CL2 program binaries (.clo)
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    json: JsonArg,
    /// Output file (stdout when absent)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

#[derive(Serialize)]
pub(crate) struct Report {
    file: String,
    format: &'static str,
    machine: u16,
    device: Option<&'static str>,
    driver_info: Option<String>,
    driver_version: Option<String>,
    compile_options: Option<String>,
    global_data: Vec<GlobalDataReport>,
    kernels: Vec<KernelReport>,
}

#[derive(Serialize)]
struct GlobalDataReport {
    constant_buffer: u32,
    size: usize,
}

#[derive(Serialize)]
struct KernelReport {
    name: String,
    unique_id: Option<u32>,
    metadata_version: Option<String>,
    device: Option<String>,
    memory: MemoryTotals,
    uses_printf: Option<bool>,
    registers: ProgInfoSummary,
    code_size: usize,
    data_size: usize,
    arguments: Vec<Argument>,
    header: Option<[u32; 8]>,
    encodings: Vec<CalEncoding>,
    cal_notes: Vec<NoteReport>,
    proginfo: Vec<ProgInfoEntry>,
}

#[derive(Serialize)]
struct NoteReport {
    kind: String,
    offset: usize,
    size: usize,
}

/// A CL1 or a CL2 binary's report.
#[derive(Serialize)]
#[serde(untagged)]
pub(crate) enum AnyReport {
    Cl1(Report),
    Cl2(super::info_cl2::Report),
}

pub fn run(args: Args) -> CmdResult {
    run_files(
        &args.files,
        args.json,
        args.output.as_deref(),
        |path| report(path).map(Outcome::clean),
        any_text,
    )
}

pub(crate) fn any_text(r: &AnyReport) -> String {
    match r {
        AnyReport::Cl1(r) => text(r),
        AnyReport::Cl2(r) => super::info_cl2::text(r),
    }
}

pub(super) const BINARIES: [Format; 4] = [
    Format::AmdCl1,
    Format::AmdCl1Cpu,
    Format::AmdCl2,
    Format::OtherElf,
];

pub(crate) fn report(path: &std::path::Path) -> Result<AnyReport, CmdError> {
    let bytes = crate::input::read(path, &BINARIES)?;
    if matches!(detect(&bytes), BinaryKind::Cl2 { .. }) {
        return super::info_cl2::report(path, &bytes).map(AnyReport::Cl2);
    }
    let bin = Cl1Binary::parse(&bytes).map_err(|e| CmdError::input(path, e))?;
    let mut kernels = Vec::new();
    for k in &bin.kernels {
        let md = parse_metadata(k.metadata)
            .map_err(|e| CmdError::input(path, format!("kernel `{}` metadata: {e}", k.name)))?;
        kernels.push(KernelReport {
            name: k.name.clone(),
            unique_id: md.unique_id(),
            metadata_version: md.version().map(|(a, b, c)| format!("{a}.{b}.{c}")),
            device: md.device().map(str::to_owned),
            memory: md.memory_totals(),
            uses_printf: k.header.as_ref().map(|h| h.uses_printf()),
            registers: k.inner.proginfo_summary(),
            code_size: k.inner.text.len(),
            data_size: k.inner.data.len(),
            arguments: md.arguments(),
            header: k.header.as_ref().map(|h| h.dwords),
            encodings: k.inner.encodings.clone(),
            cal_notes: k
                .inner
                .first_notes()
                .iter()
                .map(|n| NoteReport {
                    kind: n.kind.name(),
                    offset: n.offset,
                    size: n.desc.len(),
                })
                .collect(),
            proginfo: k.inner.proginfo(),
        });
    }
    let report = Report {
        file: path.display().to_string(),
        format: match bin.class {
            ElfClass::Elf32 => "CL1 32-bit GPU",
            ElfClass::Elf64 => "CL1 64-bit GPU",
        },
        machine: bin.machine,
        device: bin.device(),
        driver_info: bin.driver_info.clone(),
        driver_version: bin.driver_version().map(str::to_owned),
        compile_options: bin.compile_options.clone(),
        global_data: bin
            .global_data
            .iter()
            .map(|g| GlobalDataReport {
                constant_buffer: g.constant_buffer,
                size: g.data.len(),
            })
            .collect(),
        kernels,
    };
    Ok(AnyReport::Cl1(report))
}

fn text(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "file: {}", r.file);
    let _ = writeln!(s, "format: {}", r.format);
    let _ = writeln!(
        s,
        "device: {} (e_machine {:#x})",
        r.device.unwrap_or("unknown"),
        r.machine
    );
    let _ = writeln!(
        s,
        "driver: {}",
        r.driver_info.as_deref().unwrap_or("(none)")
    );
    if let Some(o) = &r.compile_options {
        let _ = writeln!(s, "compile options: {o:?}");
    }
    for g in &r.global_data {
        let _ = writeln!(s, "global data: cb{} {} bytes", g.constant_buffer, g.size);
    }
    let _ = writeln!(s, "kernels: {}", r.kernels.len());
    for k in &r.kernels {
        let _ = writeln!(s);
        let _ = writeln!(s, "kernel {}", k.name);
        let _ = writeln!(
            s,
            "  unique id {}, metadata version {}, device {}",
            k.unique_id.map_or("-".into(), |v| v.to_string()),
            k.metadata_version.as_deref().unwrap_or("-"),
            k.device.as_deref().unwrap_or("-")
        );
        let m = &k.memory;
        let mut flags = Vec::new();
        if m.abi_64bit {
            flags.push("64bitABI");
        }
        if m.data_required {
            flags.push("datareqd");
        }
        if m.compiler_write {
            flags.push("compilerwrite");
        }
        if k.uses_printf == Some(true) {
            flags.push("printf");
        }
        let _ = writeln!(
            s,
            "  memory: uavprivate {}, hwlocal {}, hwregion {}{}{}",
            m.uav_private,
            m.hw_local,
            m.hw_region,
            if flags.is_empty() { "" } else { "; " },
            flags.join(" ")
        );
        let reg = &k.registers;
        let opt = |v: Option<u32>| v.map_or("-".to_owned(), |v| v.to_string());
        let _ = write!(
            s,
            "  registers: {} VGPRs, {} SGPRs",
            opt(reg.vgprs),
            opt(reg.sgprs)
        );
        if let Some(r) = reg.pgm_rsrc2 {
            let _ = write!(s, ", pgm_rsrc2 {r:#010x}");
        }
        // Drivers write 256,0,0 when the kernel sets no reqd_work_group_size.
        if let Some([x, y, z]) = reg
            .reqd_work_group_size
            .filter(|w| w.iter().all(|&d| d > 0))
        {
            let _ = write!(s, ", reqd work-group size {x}x{y}x{z}");
        }
        let _ = writeln!(s, "; code {} bytes", k.code_size);
        let _ = writeln!(
            s,
            "  CAL: {} encoding(s), {} notes, {} PROGINFO entries",
            k.encodings.len(),
            k.cal_notes.len(),
            k.proginfo.len()
        );
        let _ = writeln!(s, "  arguments: {}", k.arguments.len());
        if !k.arguments.is_empty() {
            let _ = writeln!(
                s,
                "    {:>3}  {:<16} {:<8} {:<10} {:>3} {:>6} {:>5}  access",
                "#", "name", "kind", "type", "cb", "offset", "size"
            );
        }
        for a in &k.arguments {
            let ty = if a.vector_width > 1 {
                format!("{}x{}", a.type_name, a.vector_width)
            } else {
                a.type_name.to_string()
            };
            let mut extra = Vec::new();
            if let Some(m) = a.mem_type {
                extra.push(m.as_str().to_owned());
            }
            if let Some(acc) = a.access {
                extra.push(acc.as_str().to_owned());
            }
            if a.is_const {
                extra.push("const".into());
            }
            if a.volatile {
                extra.push("volatile".into());
            }
            if a.restrict {
                extra.push("restrict".into());
            }
            let kind = serde_json::to_value(a.kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "    {:>3}  {:<16} {:<8} {:<10} {:>3} {:>6} {:>5}  {}",
                a.index,
                a.name,
                kind,
                ty,
                a.cb,
                a.offset,
                a.cb_size,
                extra.join(" ")
            );
        }
    }
    s
}
