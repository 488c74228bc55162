//! `gpukit amd info FILE.clo` for OpenCL 2.0 binaries: the same report shape
//! as CL1 where the concepts match (driver, device, kernels with arguments,
//! memory needs, registers), plus what only CL2 has (user SGPRs, kernel
//! argument buffer, inner ELF data, relocations, samplers).

use crate::error::CmdError;
use gpukit_amd::abi::cl2::{
    args_from_metadata, decode_sampler_init, flat_scratch, kernarg_layout, user_sgpr_layout,
    FlatScratch, LayoutOptions, SamplerInit, UserSgpr,
};
use gpukit_amd::cl2::metadata::{kind, space, ArgEntry};
use gpukit_amd::cl2::{Cl2Binary, Cl2Kernel};
use gpukit_amd::elf::ElfClass;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;

#[derive(Serialize)]
pub(crate) struct Report {
    file: String,
    format: &'static str,
    e_flags: u32,
    device: Option<&'static str>,
    architecture: Option<&'static str>,
    isa_version: Option<[u32; 3]>,
    driver: &'static str,
    driver_version: u32,
    acl_version: Option<String>,
    compile_options: Option<String>,
    /// 15.11+ binaries carry an HSA inner ELF; 15.7 per-kernel `__ISA_` code.
    inner_elf: bool,
    data: DataReport,
    kernels: Vec<KernelReport>,
}

#[derive(Serialize, Default)]
struct DataReport {
    readonly: usize,
    global: usize,
    bss: Option<u64>,
    samplers: Vec<SamplerInit>,
    text_relocations: usize,
    data_relocations: usize,
    notes: Vec<u32>,
}

#[derive(Serialize)]
struct KernelReport {
    name: String,
    kernel_id: u16,
    options: u32,
    reqd_work_group_size: [u64; 3],
    vec_type_hint: Option<String>,
    memory: Option<Memory>,
    registers: Option<Registers>,
    user_sgprs: Vec<UserSgpr>,
    flat_scratch: Option<FlatScratch>,
    code_size: usize,
    kernarg_size: Option<u32>,
    arguments: Vec<ArgReport>,
}

#[derive(Serialize)]
struct Memory {
    scratch: u32,
    local: u32,
    gds: u32,
}

#[derive(Serialize)]
struct Registers {
    vgprs: u16,
    sgprs: u16,
    pgm_rsrc1: u32,
    pgm_rsrc2: u32,
    kernel_code_properties: u16,
}

#[derive(Serialize)]
struct ArgReport {
    index: usize,
    name: String,
    kind: &'static str,
    type_name: String,
    /// Byte offset in the kernel argument buffer (computed from the metadata).
    offset: Option<u32>,
    size: Option<u32>,
    qualifiers: Vec<&'static str>,
}

fn kind_name(e: &ArgEntry) -> &'static str {
    if e.is_pointer_or_pipe != 0 {
        return if e.pipe != 0 { "pipe" } else { "pointer" };
    }
    match e.kind_of_type {
        kind::SAMPLER => "sampler",
        kind::IMAGE => "image",
        kind::QUEUE => "queue",
        kind::VALUE if e.arg_type == 15 => "struct",
        kind::VALUE => "value",
        _ => "unknown",
    }
}

fn qualifiers(e: &ArgEntry) -> Vec<&'static str> {
    let mut q = Vec::new();
    if e.is_pointer_or_pipe != 0 && e.pipe == 0 {
        q.push(match e.ptr_space {
            space::LOCAL => "local",
            space::GLOBAL => "global",
            space::CONSTANT => "constant",
            _ => "private",
        });
    }
    if e.kind_of_type == kind::IMAGE {
        q.push(match e.arg_type {
            1 => "RO",
            2 => "WO",
            _ => "RW",
        });
    }
    if e.is_pointer_or_pipe != 0 {
        if e.is_const != 0 {
            q.push("const");
        }
        if e.volatile != 0 {
            q.push("volatile");
        }
        if e.restrict != 0 {
            q.push("restrict");
        }
    }
    q
}

fn kernel_report(bin: &Cl2Binary<'_>, k: &Cl2Kernel<'_>) -> KernelReport {
    let md = &k.metadata;
    let layout = args_from_metadata(md).ok().and_then(|args| {
        let options = LayoutOptions {
            bits64: bin.bits64(),
            new_layout: bin.driver.new_layout(),
        };
        // The metadata lists the six setup arguments first; the layout adds them itself.
        kernarg_layout(args.get(6..)?, options).ok()
    });
    let arguments = md
        .args
        .iter()
        .enumerate()
        .map(|(index, e)| {
            let slot = layout.as_ref().and_then(|l| l.slots.get(index));
            ArgReport {
                index,
                name: e.name.clone(),
                kind: kind_name(e),
                type_name: e.type_name.clone(),
                offset: slot.map(|s| s.offset),
                size: slot.map(|s| s.size),
                qualifiers: qualifiers(e),
            }
        })
        .collect();
    let setup = k.code.as_ref().map(|c| &c.setup);
    let user_sgprs = setup.map_or_else(Vec::new, |s| user_sgpr_layout(s.kernel_code_properties));
    KernelReport {
        name: k.name.clone(),
        kernel_id: md.kernel_id,
        options: md.options,
        reqd_work_group_size: md.reqd_work_group_size,
        vec_type_hint: md.vec_type_hint.clone(),
        memory: setup.map(|s| Memory {
            scratch: s.scratch_size,
            local: s.local_size,
            gds: s.gds_size,
        }),
        registers: setup.map(|s| Registers {
            vgprs: s.vgprs,
            sgprs: s.sgprs,
            pgm_rsrc1: s.pgm_rsrc1,
            pgm_rsrc2: s.pgm_rsrc2,
            kernel_code_properties: s.kernel_code_properties,
        }),
        flat_scratch: setup.map(|_| flat_scratch(&user_sgprs)),
        user_sgprs,
        code_size: k.code.as_ref().map_or(0, |c| c.code.len()),
        kernarg_size: setup.map(|s| s.kernarg_size),
        arguments,
    }
}

/// The report for a CL2 binary.
pub(super) fn report(path: &Path, bytes: &[u8]) -> Result<Report, CmdError> {
    let bin = Cl2Binary::parse(bytes).map_err(|e| CmdError::input(path, e))?;
    let device = bin.device();
    let data = bin
        .inner
        .as_ref()
        .map_or_else(DataReport::default, |i| DataReport {
            readonly: i.readonly_data.len(),
            global: i.global_data.len(),
            bss: i.bss.map(|(size, _)| size),
            samplers: decode_sampler_init(i.sampler_init),
            text_relocations: i.text_relocations.len(),
            data_relocations: i.data_relocations.len(),
            notes: i.notes.iter().map(|n| n.kind).collect(),
        });
    let report = Report {
        file: path.display().to_string(),
        format: match bin.class {
            ElfClass::Elf32 => "CL2 32-bit GPU",
            ElfClass::Elf64 => "CL2 64-bit GPU",
        },
        e_flags: bin.flags,
        device: device.map(|d| d.name),
        architecture: device.map(|d| d.architecture.as_str()),
        isa_version: bin
            .inner
            .as_ref()
            .and_then(|i| i.isa_version())
            .map(|v| [v.major, v.minor, v.stepping]),
        driver: bin.driver.describe(),
        driver_version: bin.driver.number(),
        acl_version: bin.acl_version.clone(),
        compile_options: bin.compile_options.clone(),
        inner_elf: bin.inner.is_some(),
        data,
        kernels: bin.kernels.iter().map(|k| kernel_report(&bin, k)).collect(),
    };
    Ok(report)
}

pub(super) fn text(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "file: {}", r.file);
    let _ = writeln!(s, "format: {}", r.format);
    let _ = write!(
        s,
        "device: {} (e_flags {:#x}",
        r.device.unwrap_or("unknown"),
        r.e_flags
    );
    if let Some(a) = r.architecture {
        let _ = write!(s, ", {a}");
    }
    if let Some([ma, mi, st]) = r.isa_version {
        let _ = write!(s, ", ISA {ma}.{mi}.{st}");
    }
    let _ = writeln!(s, ")");
    let _ = writeln!(s, "driver: {} (class {})", r.driver, r.driver_version);
    let _ = writeln!(s, "acl: {}", r.acl_version.as_deref().unwrap_or("(none)"));
    if let Some(o) = &r.compile_options {
        let _ = writeln!(s, "compile options: {o:?}");
    }
    let d = &r.data;
    if r.inner_elf {
        let _ = write!(
            s,
            "inner ELF: readonly data {} bytes, global data {} bytes",
            d.readonly, d.global
        );
        if let Some(b) = d.bss {
            let _ = write!(s, ", bss {b} bytes");
        }
        let _ = writeln!(
            s,
            "; relocations: {} text, {} data; notes {:?}",
            d.text_relocations, d.data_relocations, d.notes
        );
    } else {
        let _ = writeln!(s, "inner ELF: none (per-kernel __ISA_ code)");
    }
    for (i, smp) in d.samplers.iter().enumerate() {
        let opt = |v: Option<&str>| v.unwrap_or("?").to_owned();
        let _ = writeln!(
            s,
            "sampler {i}: {:#x} ({} coordinates, {} filter, {} addressing)",
            smp.value,
            smp.normalized_coordinates.map_or("?", |n| if n {
                "normalized"
            } else {
                "unnormalized"
            }),
            opt(smp.filter),
            opt(smp.addressing)
        );
    }
    let _ = writeln!(s, "kernels: {}", r.kernels.len());
    for k in &r.kernels {
        let _ = writeln!(s);
        let _ = writeln!(s, "kernel {}", k.name);
        let _ = write!(s, "  kernel id {}, options {:#x}", k.kernel_id, k.options);
        let [x, y, z] = k.reqd_work_group_size;
        if x > 0 {
            let _ = write!(s, ", reqd work-group size {x}x{y}x{z}");
        }
        if let Some(v) = k.vec_type_hint.as_deref().filter(|v| !v.is_empty()) {
            let _ = write!(s, ", vec_type_hint {v}");
        }
        let _ = writeln!(s);
        if let Some(m) = &k.memory {
            let _ = writeln!(
                s,
                "  memory: scratch {}, local {}, gds {}",
                m.scratch, m.local, m.gds
            );
        }
        if let Some(reg) = &k.registers {
            let _ = writeln!(
                s,
                "  registers: {} VGPRs, {} SGPRs, pgm_rsrc2 {:#010x}; code {} bytes",
                reg.vgprs, reg.sgprs, reg.pgm_rsrc2, k.code_size
            );
        }
        if !k.user_sgprs.is_empty() {
            let groups: Vec<String> = k
                .user_sgprs
                .iter()
                .map(|g| format!("{} {}", g.registers(), g.hsa_name))
                .collect();
            let _ = writeln!(s, "  user SGPRs: {}", groups.join(", "));
        }
        let _ = writeln!(
            s,
            "  arguments: {}, kernarg size {}",
            k.arguments.len(),
            k.kernarg_size.map_or("-".into(), |v| v.to_string())
        );
        if !k.arguments.is_empty() {
            let _ = writeln!(
                s,
                "    {:>3}  {:<20} {:<8} {:<16} {:>6} {:>5}  qualifiers",
                "#", "name", "kind", "type", "offset", "size"
            );
        }
        for a in &k.arguments {
            let opt = |v: Option<u32>| v.map_or("-".to_owned(), |v| v.to_string());
            let _ = writeln!(
                s,
                "    {:>3}  {:<20} {:<8} {:<16} {:>6} {:>5}  {}",
                a.index,
                a.name,
                a.kind,
                a.type_name,
                opt(a.offset),
                opt(a.size),
                a.qualifiers.join(" ")
            );
        }
    }
    s
}
