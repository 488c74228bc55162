//! `gpukit intel info PROGRAM.bin [--json]`.

use crate::detect::Format;
use crate::error::{CmdError, CmdResult};
use crate::output::{emit_streamed, JsonArg};
use gpukit_intel::{ArgKind, KernelAbi, Program};
use std::fmt::Write;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Program binary written by ocloc (legacy patch tokens, OpenCL ELF, or zebin)
    file: PathBuf,
    /// Print the ABI model as JSON
    #[command(flatten)]
    json: JsonArg,
    /// Output file (stdout when absent)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// What `intel info` reads: zebin, patch tokens, or NEO's OpenCL ELF around them.
pub(crate) const PROGRAMS: [Format; 3] = [
    Format::IntelZebin,
    Format::IntelPatchTokens,
    Format::OtherElf,
];

pub fn run(a: Args) -> CmdResult {
    let bytes = crate::input::read(&a.file, &PROGRAMS)?;
    let program = gpukit_intel::read(&bytes).map_err(|e| CmdError::input(&a.file, e))?;
    if a.json.enabled() {
        return a.json.emit_one(a.output.as_deref(), &program);
    }
    emit_streamed(a.output.as_deref(), |w| render_to(&program, w))
}

/// The text of `p`, written a kernel at a time: the text of many kernels outgrows the
/// model, so it is never held whole (`intel info` and `gpukit info` alike).
pub(crate) fn render_to(p: &Program, w: &mut dyn std::io::Write) -> std::io::Result<()> {
    let mut s = String::new();
    render_program(p, &mut s);
    w.write_all(s.as_bytes())?;
    for k in &p.kernels {
        s.clear();
        render_kernel(k, &mut s);
        w.write_all(s.as_bytes())?;
    }
    Ok(())
}

fn kind_name(k: ArgKind) -> &'static str {
    match k {
        ArgKind::StatelessPointer => "pointer (stateless)",
        ArgKind::StatefulPointer => "pointer (stateful)",
        ArgKind::LocalPointer => "local pointer",
        ArgKind::Value => "by value",
        ArgKind::Image => "image",
        ArgKind::Sampler => "sampler",
        ArgKind::Other => "other",
    }
}

/// The lines about the whole program.
fn render_program(p: &Program, s: &mut String) {
    let format = match p.format {
        gpukit_intel::Format::PatchTokens => "patch tokens",
        gpukit_intel::Format::Zebin => "zebin",
    };
    let container = match p.container {
        gpukit_intel::Container::Raw => "raw",
        gpukit_intel::Container::OpenclElf => "OpenCL ELF",
        gpukit_intel::Container::Zebin => "ELF",
    };
    let _ = writeln!(s, "format: {format} ({container}), version {}", p.version);
    if let Some(d) = p.device {
        let _ = writeln!(s, "device: {d}, pointer size {}", p.pointer_size);
    }
    let _ = writeln!(s, "kernels: {}", p.kernels.len());
}

/// The lines about one kernel.
fn render_kernel(k: &KernelAbi, s: &mut String) {
    let _ = writeln!(
        s,
        "\nkernel {}: simd{}, Gen code {} bytes, cross-thread data {} bytes",
        k.name, k.simd_size, k.gen_code_size, k.cross_thread_size
    );
    let ids: Vec<&str> = ["x", "y", "z"]
        .iter()
        .zip(k.per_thread.local_id)
        .filter(|(_, on)| *on)
        .map(|(n, _)| *n)
        .collect();
    let _ = writeln!(
        s,
        "  per-thread: local id {}{} ({} bytes at GRF 1)",
        if ids.is_empty() {
            "none".to_string()
        } else {
            ids.join(",")
        },
        if k.per_thread.packed {
            " packed"
        } else if k.per_thread.unused_grf {
            ", one unused GRF"
        } else {
            ""
        },
        k.per_thread_bytes(32)
    );
    let _ = writeln!(
        s,
        "  slm {} bytes, private {} bytes, barriers {}",
        k.slm_size,
        k.private_size,
        if k.has_barriers { "yes" } else { "no" }
    );
    for arg in &k.args {
        let space = arg
            .address_space
            .map(|a| format!("{a:?}").to_lowercase())
            .unwrap_or_else(|| "-".into());
        let pieces: Vec<String> = arg
            .pieces
            .iter()
            .map(|p| {
                if p.source_offset == 0 {
                    format!("{}+{}", p.offset, p.size)
                } else {
                    format!("{}+{}<-{}", p.offset, p.size, p.source_offset)
                }
            })
            .collect();
        let _ = write!(
            s,
            "  arg {}: {}, {space}, payload {}",
            arg.index,
            kind_name(arg.kind),
            if pieces.is_empty() {
                "-".into()
            } else {
                pieces.join(" ")
            }
        );
        if let Some(b) = arg.bti {
            let _ = write!(s, ", bti {b}");
        }
        if let Some(at) = arg.bindless_offset {
            let _ = write!(s, ", bindless surface state offset at {at}");
        }
        s.push('\n');
    }
    for i in &k.implicit {
        let _ = write!(s, "  implicit {}: {}+{}", i.kind.name(), i.offset, i.size);
        if i.source_offset != 0 {
            let _ = write!(s, "<-{}", i.source_offset);
        }
        s.push('\n');
    }
}
