//! `gpukit visa dis FILE.isa [--lenient | --prefer-text] [-o OUT]`

use crate::detect::Format;
use crate::error::{CmdError, CmdResult};
use crate::output::emit_streamed;
use gpukit_visa::binary::{self, ReadOptions};
use gpukit_visa::model::Code;
use gpukit_visa::text::{PrintOptions, RoutinePrinter, RoutineRef, Style};
use gpukit_visa::Object;
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
    /// Print what decodes of an .isa whose instruction streams do not (IGC
    /// 1.0.12198-13063's defective writer): declarations in full, each undecodable
    /// stream as `// UNDECODED:` comment lines
    #[arg(long, conflicts_with = "prefer_text")]
    lenient: bool,
    /// When the .isa has the 1.0.12198-13063 writer defect, print IGC's text dump of
    /// the same compile beside it (the `.visaasm` of the same stem) instead
    #[arg(long)]
    prefer_text: bool,
    /// Output file (stdout when absent or `-`)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

pub fn run(a: Args) -> CmdResult {
    let bytes = crate::input::read(&a.file, &[Format::VisaBinary])?;
    let options = ReadOptions {
        keep_undecodable_streams: a.lenient,
    };
    let read = binary::read_shared(std::sync::Arc::new(bytes), options);
    let obj = match read {
        Ok((obj, _)) => obj,
        Err(e) => {
            let bytes = crate::input::read(&a.file, &[Format::VisaBinary])?;
            let text = binary::text_dump_beside(&a.file)
                .filter(|_| a.prefer_text && binary::has_truncation_defect(&bytes));
            match text {
                Some(text) => super::parse_file(&text, a.platform)?,
                None => {
                    let message = binary::explained(&a.file, &bytes, e);
                    return Err(CmdError::input(&a.file, message));
                }
            }
        }
    };
    let options = super::print_options(a.platform);
    if a.lenient {
        return emit_streamed(a.output.as_deref(), |w| lenient_text(&obj, &options, w));
    }
    emit_streamed(a.output.as_deref(), |w| {
        gpukit_visa::text::write_text_with(&obj, &options, w)
    })
}

/// The object's text with each undecodable instruction stream marked where its
/// instructions would be (`binary::undecoded_lines`).
fn lenient_text(
    obj: &Object,
    options: &PrintOptions,
    w: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let style = Style::for_version(obj.version);
    let routines = (0..obj.kernels.len())
        .map(|i| (RoutineRef::Kernel(i), &obj.kernels[i].body))
        .chain((0..obj.functions.len()).map(|i| (RoutineRef::Function(i), &obj.functions[i].body)));
    for (which, body) in routines {
        let Code::Undecoded { bytes, error } = &body.code else {
            let text = gpukit_visa::text::print_routine_with(obj, which, style, options);
            w.write_all(text.as_bytes())?;
            if !text.ends_with('\n') {
                w.write_all(b"\n")?;
            }
            continue;
        };
        let printer = RoutinePrinter::new(obj, which, style, options);
        let header = printer.header();
        w.write_all(header.as_bytes())?;
        if !header.ends_with('\n') {
            w.write_all(b"\n")?;
        }
        w.write_all(binary::undecoded_lines(bytes.len(), error).as_bytes())?;
        let trailer = printer.trailer();
        if !trailer.is_empty() {
            w.write_all(trailer.as_bytes())?;
            w.write_all(b"\n")?;
        }
    }
    Ok(())
}
