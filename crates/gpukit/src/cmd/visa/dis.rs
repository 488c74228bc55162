//! `gpukit visa dis FILE.isa [-o OUT]`

use crate::detect::Format;
use crate::error::{CmdError, CmdResult};
use crate::output::emit_streamed;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The .isa file
    file: PathBuf,
    /// Target platform: skl, icllp, tgllp, dg2, mtl, pvc (decides the GRF size
    /// `&var[offset]` counts in; default: the platform of the object's Gen binary, else
    /// 32-byte GRFs)
    #[arg(long, value_parser = crate::platform::parse)]
    platform: Option<gpukit_visa::verify::Platform>,
    /// Output file (stdout when absent or `-`)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

pub fn run(a: Args) -> CmdResult {
    let bytes = crate::input::read(&a.file, &[Format::VisaBinary])?;
    let (obj, _) = gpukit_visa::binary::read_shared(std::sync::Arc::new(bytes), Default::default())
        .map_err(|e| CmdError::input(&a.file, e))?;
    let options = super::print_options(a.platform);
    emit_streamed(a.output.as_deref(), |w| {
        gpukit_visa::text::write_text_with(&obj, &options, w)
    })
}
