//! The error every subcommand returns, and how it reaches the user.

use std::fmt;
use std::path::Path;

/// A failure of a subcommand. `Input` means the user's file is invalid, or a check
/// found something (exit 1); `Usage` means the request itself cannot be served
/// (exit 2); `Io` is a system error (exit 1).
#[derive(Debug)]
pub enum CmdError {
    Input(String),
    Usage(String),
    Io(String),
    /// Everything was already said (a report with findings, per-file errors of a
    /// multi-file run): exit with this code without another message.
    Reported(u8),
}

impl CmdError {
    pub fn exit_code(&self) -> u8 {
        match self {
            CmdError::Usage(_) => 2,
            CmdError::Input(_) | CmdError::Io(_) => 1,
            CmdError::Reported(code) => *code,
        }
    }
    pub fn input(path: &Path, e: impl fmt::Display) -> Self {
        CmdError::Input(format!("{}: {e}", name(path)))
    }
}

impl fmt::Display for CmdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CmdError::Input(s) | CmdError::Usage(s) | CmdError::Io(s) => f.write_str(s),
            CmdError::Reported(_) => Ok(()),
        }
    }
}

pub type CmdResult = Result<(), CmdError>;

/// Longest piece of one message line quoted back to the user: a hostile file can
/// put a 100 MB token in front of a parser, and echoing it helps nobody.
const MAX_QUOTED_LINE: usize = 1024;

/// A file name as messages show it: control characters (newline and tab too, so a
/// name cannot begin a line of its own) and bytes that are not UTF-8 as `\xNN`.
pub fn name(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    let mut out = String::with_capacity(bytes.len());
    let hex = |b: u8, out: &mut String| out.push_str(&format!("\\x{b:02x}"));
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() {
                c.encode_utf8(&mut [0; 4])
                    .bytes()
                    .for_each(|b| hex(b, &mut out));
            } else {
                out.push(c);
            }
        }
        chunk.invalid().iter().for_each(|&b| hex(b, &mut out));
    }
    out
}

/// Prints a message on stderr: the only way a message (and the file names in it)
/// reaches stderr, so every line is clipped and its control characters escaped.
pub fn print_stderr(message: &str) {
    eprintln!("{}", render_message(message));
}

/// The message as printed on stderr: every line clipped, control characters escaped
/// (a file's bytes must not drive the user's terminal).
pub fn render_message(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(64 * 1024));
    for (i, line) in message.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if line.len() > MAX_QUOTED_LINE {
            let mut end = MAX_QUOTED_LINE;
            while !line.is_char_boundary(end) {
                end -= 1;
            }
            crate::output::escape_controls_into(&line.as_bytes()[..end], &mut out);
            out.push_str(&format!(" ... ({} more bytes)", line.len() - end));
        } else {
            crate::output::escape_controls_into(line.as_bytes(), &mut out);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_clipped_and_controls_escaped() {
        let long = "x".repeat(10_000);
        let shown = render_message(&format!("a\x1b[31mb\n{long}"));
        assert!(shown.starts_with("a\\x1b[31mb\n"));
        assert!(shown.len() < 1200, "{}", shown.len());
        assert!(shown.ends_with("(8976 more bytes)"));
    }

    #[test]
    fn names_cannot_forge_lines() {
        use std::os::unix::ffi::OsStrExt;
        let p = Path::new(std::ffi::OsStr::from_bytes(
            b"a\nerror: x\t\x1b\xff\xc2\x85.cl",
        ));
        assert_eq!(name(p), "a\\x0aerror: x\\x09\\x1b\\xff\\xc2\\x85.cl");
    }
}
