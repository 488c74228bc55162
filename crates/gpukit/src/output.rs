//! Where command output goes, and the error type every subcommand returns.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A failure of a subcommand. `Input` means the user's file is invalid (exit 1);
/// `Usage` means the request itself cannot be served (exit 2); `Io` is a system error (exit 1).
#[derive(Debug)]
pub enum CmdError {
    Input(String),
    Usage(String),
    Io(String),
}

impl CmdError {
    pub fn exit_code(&self) -> u8 {
        match self {
            CmdError::Usage(_) => 2,
            CmdError::Input(_) | CmdError::Io(_) => 1,
        }
    }
    pub fn input(path: &Path, e: impl fmt::Display) -> Self {
        CmdError::Input(format!("{}: {e}", path.display()))
    }
}

impl fmt::Display for CmdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CmdError::Input(s) | CmdError::Usage(s) | CmdError::Io(s) => f.write_str(s),
        }
    }
}

pub type CmdResult = Result<(), CmdError>;

pub fn read_file(path: &Path) -> Result<Vec<u8>, CmdError> {
    std::fs::read(path).map_err(|e| CmdError::Io(format!("{}: cannot read: {e}", path.display())))
}

/// Writes `bytes` to `out`, or to stdout when `out` is `None`. A file is written
/// to a temporary sibling and renamed over the target, so an interrupted run
/// never leaves a half-written file where the user's data was.
pub fn emit(out: Option<&Path>, bytes: &[u8]) -> CmdResult {
    match out {
        None => {
            let stdout = std::io::stdout();
            let mut lock = stdout.lock();
            lock.write_all(bytes)
                .and_then(|_| lock.flush())
                .or_else(|e| {
                    if e.kind() == std::io::ErrorKind::BrokenPipe {
                        Ok(())
                    } else {
                        Err(e)
                    }
                })
                .map_err(|e| CmdError::Io(format!("stdout: {e}")))
        }
        Some(path) => write_atomic(path, bytes),
    }
}

fn write_atomic(path: &Path, bytes: &[u8]) -> CmdResult {
    let io = |e: std::io::Error| CmdError::Io(format!("{}: cannot write: {e}", path.display()));
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(io)
}

/// Serialises a report as pretty JSON followed by a newline.
pub fn json<T: serde::Serialize>(value: &T) -> Vec<u8> {
    let mut v = serde_json::to_vec_pretty(value).unwrap_or_default();
    v.push(b'\n');
    v
}
