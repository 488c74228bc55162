//! `gpukit iga convert FILE --to 1|2 [-o OUT]`

use crate::error::{CmdError, CmdResult};
use crate::output::emit_streamed;
use gpukit_iga::Version;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// IGA listing: JSON 1.0 or 2.0 (the version is read from the file) or assembly text
    file: PathBuf,
    /// Format version to write: 1 or 2 (default: the input's own, i.e. a normalising rewrite)
    #[arg(long, value_parser = ["1", "2", "1.0", "2.0"])]
    to: Option<String>,
    /// Keep unknown keys and repair iga64's malformed JSON instead of rejecting it
    #[arg(long)]
    lenient: bool,
    /// Platform of an IGA assembly text without one (iga64 -d text): 9, 11, 12p1, 12p71,
    /// 12p72 or a device name (tgllp, dg2, pvc); IGC's .asm dumps name their own
    #[arg(long, value_name = "PLATFORM")]
    platform: Option<String>,
    /// Number JSON 2.0 blocks from this id: 0 as iga64 of IGC 1.0.x does (the
    /// default), 1 as iga64 of IGC 2.x releases does; a 2.0 input is renumbered
    #[arg(long, value_name = "ID", value_parser = clap::value_parser!(u8).range(0..=1))]
    block_ids_from: Option<u8>,
    /// Write here instead of stdout
    #[arg(short, long)]
    output: Option<PathBuf>,
}

pub fn run(a: Args) -> CmdResult {
    let parsed = super::load(&a.file, a.lenient, a.platform.as_deref())?;
    let to = match a.to.as_deref() {
        Some("1" | "1.0") => Version::V1,
        Some("2" | "2.0") => Version::V2,
        Some(other) => return Err(CmdError::Usage(format!("--to {other}: expected 1 or 2"))),
        None => parsed.listing.version,
    };
    // The listing is converted where it lies and written as it goes: neither a
    // second model nor the whole output is held.
    let out = gpukit_iga::convert_numbered(parsed.listing, to, a.block_ids_from.map(i64::from));
    emit_streamed(a.output.as_deref(), |w| gpukit_iga::write_to(&out, to, w))
}
