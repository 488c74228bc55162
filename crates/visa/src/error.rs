//! Errors of the binary reader and writer.

use std::fmt;

/// A failure to read a vISA binary: what was being read, which field, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{structure}.{field} at byte offset {offset:#x}: {reason}")]
pub struct ReadError {
    /// The structure being read, e.g. `kernel[0].var_info[12]`.
    pub structure: String,
    /// The field within it, e.g. `num_elements`.
    pub field: &'static str,
    /// Absolute byte offset in the file.
    pub offset: usize,
    pub reason: ReadErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadErrorKind {
    /// The file ends before the field does.
    Truncated { needed: usize, available: usize },
    /// A count that the remaining bytes cannot hold, or over a format limit.
    CountTooLarge { count: usize, limit: usize },
    /// A value the format does not allow.
    Invalid(String),
}

impl fmt::Display for ReadErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadErrorKind::Truncated { needed, available } => {
                write!(
                    f,
                    "file ends early: needs {needed} byte(s), {available} left"
                )
            }
            ReadErrorKind::CountTooLarge { count, limit } => {
                write!(f, "count {count} exceeds what the input can hold ({limit})")
            }
            ReadErrorKind::Invalid(s) => f.write_str(s),
        }
    }
}

/// A failure to write an object: a value that has no encoding in the target version,
/// or an inconsistency between an instruction and its opcode's layout.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{context}: {reason}")]
pub struct WriteError {
    pub context: String,
    pub reason: String,
}
