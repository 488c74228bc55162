//! Errors name the structure, the field and the absolute byte offset.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ReadError {
    /// Where in the binary: `program`, `kernel[2] "name"/patch token[5]`, `.ze_info:12`, ...
    pub structure: String,
    pub field: String,
    /// Absolute byte offset of the field in the input.
    pub offset: usize,
    pub message: String,
}

impl ReadError {
    pub fn new(
        structure: impl Into<String>,
        field: impl Into<String>,
        offset: usize,
        message: impl Into<String>,
    ) -> Self {
        ReadError {
            structure: structure.into(),
            field: field.into(),
            offset,
            message: message.into(),
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} at byte {:#x}: {}",
            self.structure, self.field, self.offset, self.message
        )
    }
}
