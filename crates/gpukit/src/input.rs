//! Reading the user's files: every command reads through here, so every command
//! sniffs what it was given, skips a byte-order mark, reports bad UTF-8 by line and
//! column, and remembers which files it read so that no output can replace them.

use crate::detect::{self, Format};
use crate::error::CmdError;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::sync::Mutex;

/// Identity (device, inode) of every file read so far in this process.
static READ_FILES: Mutex<Vec<(u64, u64)>> = Mutex::new(Vec::new());

/// Whether `(dev, ino)` is one of the files this process has read.
pub fn was_read(id: (u64, u64)) -> bool {
    READ_FILES.lock().map(|v| v.contains(&id)).unwrap_or(false)
}

/// Forgets every file read so far: each in-process run (`api`) checks its outputs
/// against its own inputs only.
pub(crate) fn forget_reads() {
    if let Ok(mut v) = READ_FILES.lock() {
        v.clear();
    }
}

fn remember(path: &Path) {
    if let Ok(m) = std::fs::metadata(path) {
        if let Ok(mut v) = READ_FILES.lock() {
            v.push((m.dev(), m.ino()));
        }
    }
}

/// Reads a file without looking at its kind (sources for `amd args`, libraries).
pub fn read_any(path: &Path) -> Result<Vec<u8>, CmdError> {
    let bytes = std::fs::read(path)
        .map_err(|e| CmdError::Io(format!("{}: cannot read: {e}", path.display())))?;
    remember(path);
    Ok(bytes)
}

/// The first `n` bytes of a file (all of it when shorter): enough to tell its format
/// without holding a large input twice (a freed copy raises malloc's mmap threshold,
/// so the reader's own copy would then stay in the heap).
pub fn read_head(path: &Path, n: usize) -> Result<Vec<u8>, CmdError> {
    use std::io::Read;
    let cannot = |e: std::io::Error| CmdError::Io(format!("{}: cannot read: {e}", path.display()));
    let mut head = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(n as u64).read_to_end(&mut head))
        .map_err(cannot)?;
    remember(path);
    Ok(head)
}

/// Reads a file that should be one of `accepts`. A file recognised as some other
/// format is refused with one line that names it and the command that reads it; a
/// file of no recognised format goes to the parser, whose message is more precise.
pub fn read(path: &Path, accepts: &[Format]) -> Result<Vec<u8>, CmdError> {
    let bytes = read_any(path)?;
    check_kind(path, &bytes, accepts)?;
    Ok(bytes)
}

pub fn check_kind(path: &Path, bytes: &[u8], accepts: &[Format]) -> Result<(), CmdError> {
    let found = detect::detect(bytes);
    if found == Format::Unknown || accepts.contains(&found) {
        return Ok(());
    }
    Err(CmdError::Input(format!(
        "{}: this is {}; {}",
        path.display(),
        found.describe(),
        found.readers()
    )))
}

/// Reads a text file of one of `accepts`: the byte-order mark is skipped and invalid
/// UTF-8 is reported as `file:line:col`.
pub fn read_text(path: &Path, accepts: &[Format]) -> Result<String, CmdError> {
    let bytes = read(path, accepts)?;
    text(path, bytes)
}

/// Turns file bytes into text: BOM skipped, bad UTF-8 located by line and column.
pub fn text(path: &Path, mut bytes: Vec<u8>) -> Result<String, CmdError> {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let (line, col) = line_col(bytes, at);
        CmdError::Input(format!(
            "{}:{line}:{col}: invalid UTF-8 (byte 0x{:02x}); expected UTF-8 text",
            path.display(),
            bytes[at]
        ))
    })
}

/// 1-based line and column (in characters) of byte `at`.
fn line_col(bytes: &[u8], at: usize) -> (usize, usize) {
    let before = &bytes[..at];
    let line = memchr::memchr_iter(b'\n', before).count() + 1;
    let start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    let col = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_utf8_is_located() {
        let e = text(Path::new("f.visaasm"), b"ab\ncd\xffe".to_vec()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "f.visaasm:2:3: invalid UTF-8 (byte 0xff); expected UTF-8 text"
        );
        assert_eq!(
            text(Path::new("f"), b"\xEF\xBB\xBFok".to_vec()).unwrap(),
            "ok"
        );
    }
}
