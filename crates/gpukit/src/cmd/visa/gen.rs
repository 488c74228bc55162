//! `gpukit visa gen FILE [--kernel NAME] [--platform P] -o OUT`

use crate::detect::Format;
use crate::error::{CmdError, CmdResult};
use crate::output::emit_binary;
use crate::platform::GenPlatform;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The .isa file
    file: PathBuf,
    /// Kernel to extract (required when the file has more than one)
    #[arg(long)]
    kernel: Option<String>,
    /// Platform whose binary to pick when a kernel carries several: skl, icllp, tgllp,
    /// dg2, mtl, pvc, or IGC's platform number
    #[arg(long, value_parser = crate::platform::parse_gen)]
    platform: Option<GenPlatform>,
    /// Output file (stdout when absent; `-` forces binary output to a terminal)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

pub fn run(a: Args) -> CmdResult {
    let bytes = crate::input::read(&a.file, &[Format::VisaBinary])?;
    let lenient = gpukit_visa::binary::ReadOptions {
        keep_undecodable_streams: true,
    };
    let (obj, _) = gpukit_visa::binary::read_shared(std::sync::Arc::new(bytes), lenient)
        .map_err(|e| CmdError::input(&a.file, e))?;
    let names = || {
        obj.kernels
            .iter()
            .map(|k| String::from_utf8_lossy(&k.name).into_owned())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let kernel = match &a.kernel {
        Some(n) => obj
            .kernels
            .iter()
            .find(|k| k.name == n.as_bytes())
            .ok_or_else(|| {
                CmdError::Usage(format!("no kernel named {n:?}; the file has: {}", names()))
            })?,
        None => match obj.kernels.as_slice() {
            [k] => k,
            [] => {
                return Err(CmdError::Input(format!(
                    "{}: the file has no kernels",
                    a.file.display()
                )))
            }
            _ => {
                return Err(CmdError::Usage(format!(
                    "the file has several kernels, choose one with --kernel: {}",
                    names()
                )))
            }
        },
    };
    let name = String::from_utf8_lossy(&kernel.name);
    let gen = match a.platform {
        Some(p) => kernel.gen_binaries.iter().find(|g| p.matches(g.platform)),
        None => kernel.gen_binaries.first(),
    }
    .ok_or_else(|| {
        CmdError::Input(format!(
            "{}: kernel {name:?} carries no Gen binary{}",
            a.file.display(),
            a.platform
                .map(|p| format!(" for platform {p}"))
                .unwrap_or_default()
        ))
    })?;
    emit_binary(a.output.as_deref(), &gen.code)
}
