//! Errors and repair notes. Every one names where it happened three ways: the
//! JSON path (`elems[12].srcs[1].reg`), the line and column, and the byte
//! offset, so a person can find the spot with any tool.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorKind {
    /// Not well-formed JSON.
    Syntax,
    /// Well-formed JSON, but not an IGA listing (missing, unknown or mistyped key).
    Schema,
    /// Over a limit in `limits.rs`.
    Limit,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, thiserror::Error)]
pub struct Error {
    pub kind: ErrorKind,
    /// Byte offset (0-based) in the input.
    pub offset: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// JSON path of the value being read, `$` for the document itself.
    pub path: String,
    pub message: String,
}

impl Error {
    pub(crate) fn at(
        kind: ErrorKind,
        src: &str,
        offset: usize,
        path: String,
        message: String,
    ) -> Error {
        let (line, column) = crate::read::json::line_col(src, offset);
        Error {
            kind,
            offset,
            line,
            column,
            path,
            message,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {} (byte {}), at {}: {}",
            self.line, self.column, self.offset, self.path, self.message
        )
    }
}

/// Something lenient mode changed to read a listing iga64 wrote defectively.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Repair {
    pub offset: usize,
    pub line: usize,
    pub column: usize,
    pub path: String,
    pub what: String,
}

impl fmt::Display for Repair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {} (byte {}), at {}: {}",
            self.line, self.column, self.offset, self.path, self.what
        )
    }
}
