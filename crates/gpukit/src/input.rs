//! Reading the user's files: every command reads through here, so every command
//! sniffs what it was given, skips a byte-order mark, reports bad UTF-8 by line and
//! column, and remembers which files it read (or declared) so that no output can
//! replace them. No read blocks or goes on without end: see `open`.

use crate::detect::{self, Format};
use crate::error::CmdError;
use std::collections::HashSet;
use std::fmt;
use std::fs::File;
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::Path;
use std::sync::Mutex;

/// The most any command reads of one input: larger than any program, listing or
/// binary these formats hold, small enough that the memory budget (64 MiB + 20x the
/// input) stays on a machine's scale. A file that grows past it while read is refused
/// too, so a file that never ends cannot exhaust memory.
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// Identity (device, inode) of every input of this process: declared before any
/// output is written, and every file read.
static INPUTS: Mutex<Option<HashSet<(u64, u64)>>> = Mutex::new(None);

fn record(id: (u64, u64)) {
    if let Ok(mut set) = INPUTS.lock() {
        set.get_or_insert_with(HashSet::new).insert(id);
    }
}

/// Forgets every input recorded so far: each in-process run (`api`) checks its
/// outputs against its own inputs only.
pub(crate) fn forget_reads() {
    if let Ok(mut set) = INPUTS.lock() {
        *set = None;
    }
}

/// Whether `(dev, ino)` is one of the inputs of this process (declared or read).
pub fn is_input(id: (u64, u64)) -> bool {
    INPUTS
        .lock()
        .map(|s| s.as_ref().is_some_and(|s| s.contains(&id)))
        .unwrap_or(false)
}

/// Records `path` (through links) as an input before anything is read or written,
/// so that `output` refuses to write over it whatever order the command works in.
/// A path that does not exist is no file to protect.
pub fn declare(path: &Path) {
    if let Ok(m) = std::fs::metadata(path) {
        record((m.dev(), m.ino()));
    }
}

/// Why an input was not read.
#[derive(Debug)]
pub enum InputError {
    /// The system's error (no such file, permission, a read that would block).
    Io(std::io::Error),
    /// A FIFO, device, socket or directory: reading it could block or never end.
    NotRegular(&'static str),
    /// More than `MAX_INPUT_BYTES` (from its size, or by growing while read).
    TooLarge,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Io(e) if e.kind() == std::io::ErrorKind::WouldBlock => f.write_str(
                "cannot read: the read would block (a file that waits for data, like \
                 /proc/kmsg); not read",
            ),
            InputError::Io(e) => write!(f, "cannot read: {e}"),
            InputError::NotRegular(kind) => {
                write!(f, "not a regular file ({kind}); not read")
            }
            InputError::TooLarge => write!(
                f,
                "larger than {} MiB, the most gpukit reads of one input; not read",
                MAX_INPUT_BYTES >> 20
            ),
        }
    }
}

impl From<std::io::Error> for InputError {
    fn from(e: std::io::Error) -> Self {
        InputError::Io(e)
    }
}

/// An input opened for reading. Opening never waits (`O_NONBLOCK`: a FIFO with no
/// writer does not block the open), only a regular file is accepted (checked on the
/// handle, so a file swapped for a FIFO after a directory walk's look is still
/// refused), a read that would block fails instead of waiting, and no more than
/// `MAX_INPUT_BYTES` are ever read.
pub struct Input {
    file: File,
    size: u64,
    taken: u64,
    id: (u64, u64),
}

/// What a file's type says it is, for `InputError::NotRegular`.
fn kind_of(t: std::fs::FileType) -> Option<&'static str> {
    if t.is_file() {
        None
    } else if t.is_dir() {
        Some("a directory")
    } else if t.is_fifo() {
        Some("a FIFO")
    } else if t.is_char_device() {
        Some("a character device")
    } else if t.is_block_device() {
        Some("a block device")
    } else if t.is_socket() {
        Some("a socket")
    } else {
        Some("not a file")
    }
}

/// Opens an input (following links) without blocking; see `Input`. Not remembered
/// as an input (a scan of a million files keeps no list); `read_any` and `read_head`
/// remember what they read.
pub fn open(path: &Path) -> Result<Input, InputError> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(O_NONBLOCK)
        .open(path)?;
    let m = file.metadata()?;
    if let Some(kind) = kind_of(m.file_type()) {
        return Err(InputError::NotRegular(kind));
    }
    Ok(Input {
        file,
        size: m.size(),
        taken: 0,
        id: (m.dev(), m.ino()),
    })
}

/// Linux's `O_NONBLOCK` (x86-64, AArch64, RISC-V, ...; only alpha, sparc and parisc
/// differ), spelled here rather than adding a libc dependency for one constant.
const O_NONBLOCK: i32 = 0o4000;

impl Input {
    /// The size the file had when opened.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Appends up to `n` more bytes (fewer at the end of the file) to `buf`.
    pub fn read_up_to(&mut self, buf: &mut Vec<u8>, n: u64) -> Result<(), InputError> {
        let allowed = n.min(MAX_INPUT_BYTES + 1 - self.taken);
        let got = (&mut self.file).take(allowed).read_to_end(buf)? as u64;
        self.taken += got;
        if self.taken > MAX_INPUT_BYTES {
            return Err(InputError::TooLarge);
        }
        Ok(())
    }

    /// Moves to byte `offset`, to read a trailer without what comes before it.
    pub fn seek_to(&mut self, offset: u64) -> Result<(), InputError> {
        use std::io::Seek;
        self.file.seek(std::io::SeekFrom::Start(offset))?;
        Ok(())
    }

    /// Appends the rest of the file to `buf`: refused without reading when its size
    /// is over the cap, and stopped when it grows past it.
    pub fn read_rest(&mut self, buf: &mut Vec<u8>) -> Result<(), InputError> {
        if self.size > MAX_INPUT_BYTES {
            return Err(InputError::TooLarge);
        }
        let expected = self.size.saturating_sub(self.taken) as usize;
        buf.reserve(expected.saturating_add(1));
        self.read_up_to(buf, u64::MAX)
    }
}

fn cannot(path: &Path, e: InputError) -> CmdError {
    CmdError::Io(format!("{}: {e}", crate::error::name(path)))
}

/// Reads a file without looking at its kind (sources for `amd args`, libraries).
pub fn read_any(path: &Path) -> Result<Vec<u8>, CmdError> {
    let mut bytes = Vec::new();
    open(path)
        .and_then(|mut input| {
            record(input.id);
            input.read_rest(&mut bytes)
        })
        .map_err(|e| cannot(path, e))?;
    Ok(bytes)
}

/// The first `n` bytes of a file (all of it when shorter): enough to tell its format
/// without holding a large input twice (a freed copy raises malloc's mmap threshold,
/// so the reader's own copy would then stay in the heap).
pub fn read_head(path: &Path, n: usize) -> Result<Vec<u8>, CmdError> {
    let mut head = Vec::new();
    open(path)
        .and_then(|mut input| {
            record(input.id);
            input.read_up_to(&mut head, n as u64)
        })
        .map_err(|e| cannot(path, e))?;
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
        crate::error::name(path),
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
            crate::error::name(path),
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

    /// A FIFO with no writer neither blocks the open nor is read; a regular file is
    /// read up to the cap asked for and remembered as an input.
    #[test]
    fn open_never_waits_and_takes_regular_files_only() {
        let dir = std::env::temp_dir().join(format!("gpukit-input-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        let file = dir.join("file");
        std::fs::write(&file, b"0123456789").unwrap();
        let mut head = read_head(&file, 4).unwrap();
        let mut input = open(&file).unwrap();
        input.read_up_to(&mut Vec::new(), 4).unwrap();
        input.read_rest(&mut head).unwrap();
        let m = std::fs::metadata(&file).unwrap();
        let fifo_result = made.is_ok_and(|s| s.success()).then(|| open(&fifo));
        let dir_result = open(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(head, b"0123456789");
        assert!(is_input((m.dev(), m.ino())));
        if let Some(r) = fifo_result {
            assert!(matches!(r, Err(InputError::NotRegular("a FIFO"))));
        }
        assert!(matches!(
            dir_result,
            Err(InputError::NotRegular("a directory"))
        ));
    }

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
