//! One file to rows: read a bounded prefix, detect the format by content, read the
//! rest only for formats gpukit reads, and hand the bytes to the format's rows
//! (`visa.rs`, `iga.rs`, `amd.rs`). Never fails: every problem becomes an error row.

use super::row::{ErrorKind, Row, RowPath};
use crate::detect::{self, Format, SNIFF_BYTES};
use std::path::Path;

/// What the scan asks of each file.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Run the vISA verifier (`--verify`).
    pub verify: bool,
}

/// The rows of one file and how many bytes were read for them.
pub struct FileRows {
    pub rows: Vec<Row>,
    pub bytes_read: u64,
}

/// The single error row of a path the walk listed but did not read.
pub fn skipped(path: &Path, kind: ErrorKind, why: &str) -> FileRows {
    FileRows {
        rows: vec![Row::file_error(&RowPath::of(path), None, 0, kind, why)],
        bytes_read: 0,
    }
}

pub fn scan_file(path: &Path, options: Options) -> FileRows {
    let shown = RowPath::of(path);
    let fail = |format, size, e: String| FileRows {
        rows: vec![Row::file_error(&shown, format, size, ErrorKind::Io, e)],
        bytes_read: 0,
    };
    // Opened without blocking and checked on the handle: a file swapped for a FIFO
    // since the walk looked, or a procfs file whose read blocks, is an error row.
    let mut input = match crate::input::open(path) {
        Ok(f) => f,
        Err(e) => return fail(None, 0, e.to_string()),
    };
    let size = input.size();
    let size_i = i64::try_from(size).unwrap_or(i64::MAX);
    // The prefix decides; a large file of no format gpukit reads is not read whole.
    let mut bytes = Vec::with_capacity((size as usize).min(SNIFF_BYTES));
    if let Err(e) = input.read_up_to(&mut bytes, SNIFF_BYTES as u64) {
        return fail(None, size_i, e.to_string());
    }
    let detected = detect::detect(&bytes);
    let readable = match detected {
        Format::OtherElf => super::intel::may_be_opencl_elf(&bytes),
        other => other.is_gpu(),
    };
    if readable && bytes.len() == SNIFF_BYTES {
        // The file may have grown or shrunk since it was opened; read what is there.
        if let Err(e) = input.read_rest(&mut bytes) {
            return fail(Some(detected.id()), size_i, e.to_string());
        }
    }
    drop(input);
    let bytes_read = bytes.len() as u64;
    // What the rows say: NEO's OpenCL ELF is named for the program inside it.
    let mut format = detected;
    let result = match detected {
        Format::VisaBinary => super::visa::binary_rows(bytes, options),
        Format::VisaText => text(path, bytes).and_then(|t| super::visa::text_rows(&t, options)),
        Format::IgaJson1 | Format::IgaJson2 => super::iga::rows(&bytes),
        Format::AmdCl1 | Format::AmdCl1Cpu => super::amd::cl1_rows(&bytes),
        Format::AmdCl2 => super::amd::cl2_rows(&bytes),
        Format::AmdIl | Format::AmdMetadata => {
            text(path, bytes).and_then(|t| super::amd::metadata_rows(&t))
        }
        Format::OpenClC => text(path, bytes).and_then(|t| super::amd::opencl_c_rows(&t)),
        Format::IgcAsmDump => text(path, bytes).and_then(|t| super::intel::asm_dump_rows(&t)),
        Format::IntelZebin | Format::IntelPatchTokens => super::intel::rows(&bytes),
        // NEO's OpenCL ELF around a patch-token program (as `gpukit info` reads it).
        Format::OtherElf if readable => match super::intel::rows(&bytes) {
            Ok(rows) => {
                format = Format::IntelPatchTokens;
                Ok(rows)
            }
            // An ELF of NEO's types that the program reader rejects (truncated, say)
            // is a broken GPU binary, not a file of another kind.
            Err(e) => Err(e),
        },
        // iga64's text names no platform; the listing's JSON is what scan reads.
        Format::IgaText
        | Format::OtherElf
        | Format::Unknown
        | Format::Empty
        | Format::LlvmIr
        | Format::LlvmBitcode
        | Format::SpirV => return skipped_file(&shown, detected, size_i, bytes_read),
    };
    let rows = match result {
        Ok(rows) if !rows.is_empty() => rows
            .into_iter()
            .map(|mut r| {
                r.path.clone_from(&shown);
                r.format = Some(format.id());
                r.size_bytes = size_i;
                r.platform = r.platform.as_deref().map(crate::platform::canonical);
                r
            })
            .collect(),
        Ok(_) => vec![Row::file_error(
            &shown,
            Some(format.id()),
            size_i,
            ErrorKind::NoKernel,
            "no kernel in the file",
        )],
        Err(e) => vec![Row::file_error(
            &shown,
            Some(format.id()),
            size_i,
            ErrorKind::Malformed,
            e,
        )],
    };
    FileRows { rows, bytes_read }
}

/// The one row of a file of no GPU format.
fn skipped_file(shown: &RowPath, format: Format, size: i64, bytes_read: u64) -> FileRows {
    FileRows {
        rows: vec![Row::skipped(shown, format.id(), size)],
        bytes_read,
    }
}

/// Text of a text format: BOM skipped, invalid UTF-8 located (as every command does).
fn text(path: &Path, bytes: Vec<u8>) -> Result<String, String> {
    crate::input::text(path, bytes).map_err(|e| strip_path(path, e.to_string()))
}

/// Messages name the file; a row already does.
pub fn strip_path(path: &Path, message: String) -> String {
    let prefix = format!("{}:", crate::error::name(path));
    match message.strip_prefix(&prefix) {
        Some(rest) => rest.trim_start().to_owned(),
        None => message,
    }
}
