//! `gpukit intel gen PROGRAM.bin [--kernel K] [-o OUT]`: a kernel's raw Gen code from an
//! ocloc program binary, for `iga64 -d` or `gpukit iga` without IGC's shader dumps.

use crate::error::{CmdError, CmdResult};
use crate::output::emit_binary;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Program binary written by ocloc (legacy patch tokens, OpenCL ELF, or zebin)
    file: PathBuf,
    /// Kernel whose code to write (required when the program has more than one)
    #[arg(long)]
    kernel: Option<String>,
    /// Output file (stdout when absent; `-` forces binary output to a terminal)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

pub fn run(a: Args) -> CmdResult {
    let bytes = crate::input::read(&a.file, &super::info::PROGRAMS)?;
    let program = gpukit_intel::read(&bytes).map_err(|e| CmdError::input(&a.file, e))?;
    let names = || {
        let n: Vec<&str> = program.kernels.iter().map(|k| k.name.as_str()).collect();
        n.join(", ")
    };
    let kernel = match (&a.kernel, program.kernels.as_slice()) {
        (Some(n), ks) => ks.iter().find(|k| &k.name == n).ok_or_else(|| {
            CmdError::Usage(format!(
                "no kernel named {n:?}; the program has: {}",
                names()
            ))
        })?,
        (None, [k]) => k,
        (None, []) => {
            return Err(CmdError::Input(format!(
                "{}: the program has no kernels",
                crate::error::name(&a.file)
            )))
        }
        (None, _) => {
            return Err(CmdError::Usage(format!(
                "the program has several kernels, choose one with --kernel: {}",
                names()
            )))
        }
    };
    if kernel.gen_code.is_empty() {
        return Err(CmdError::Input(format!(
            "{}: kernel {:?} carries no Gen code",
            crate::error::name(&a.file),
            kernel.name
        )));
    }
    emit_binary(a.output.as_deref(), &kernel.gen_code)
}
