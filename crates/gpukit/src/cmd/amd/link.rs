//! `gpukit amd link PROGRAM.il --kernel NAME [--library LIB.il]`

use crate::detect::Format;
use crate::error::{CmdError, CmdResult};
use crate::output::emit;
use gpukit_amd::link::{IlProgram, LinkError};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// Whole-program AMD IL text (main with the `;$$$$$$$$$$` marker, functions, metadata)
    program: PathBuf,
    /// Kernel to link (name without `__OpenCL_`/`_kernel`)
    #[arg(long)]
    kernel: String,
    /// Intrinsic library: `mdef(N)`..`mend` macros named by `;intrinsic:` lists
    #[arg(long)]
    library: Option<PathBuf>,
    /// Output file (stdout when absent)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

fn text(path: &Path) -> Result<String, CmdError> {
    crate::input::read_text(path, &[Format::AmdIl, Format::AmdMetadata])
}

pub fn run(args: Args) -> CmdResult {
    let program = text(&args.program)?;
    let library = args.library.as_deref().map(text).transpose()?;
    let prog = IlProgram::parse(&program).map_err(|e| CmdError::input(&args.program, e))?;
    let il = prog
        .link(&args.kernel, library.as_deref())
        .map_err(|e| match e {
            LinkError::NoSuchKernel { .. } => CmdError::Usage(e.to_string()),
            LinkError::MissingIntrinsic { .. } if args.library.is_none() => {
                CmdError::Usage(format!("{e} (no --library given)"))
            }
            other => CmdError::input(&args.program, other),
        })?;
    emit(args.output.as_deref(), il.as_bytes())
}
