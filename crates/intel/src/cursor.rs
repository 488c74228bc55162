//! Bounds-checked little-endian reads at absolute offsets.

use crate::error::ReadError;

pub struct Bytes<'a> {
    pub data: &'a [u8],
    /// Absolute offset of `data[0]` in the input, for error messages.
    pub base: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8], base: usize) -> Self {
        Bytes { data, base }
    }
    pub fn u32(&self, at: usize, structure: &str, field: &str) -> Result<u32, ReadError> {
        self.slice(at, 4, structure, field)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub fn slice(
        &self,
        at: usize,
        len: usize,
        structure: &str,
        field: &str,
    ) -> Result<&'a [u8], ReadError> {
        at.checked_add(len)
            .and_then(|end| self.data.get(at..end))
            .ok_or_else(|| {
                ReadError::new(
                    structure,
                    field,
                    self.base.saturating_add(at),
                    format!(
                        "needs {len} bytes, {} remain",
                        self.data.len().saturating_sub(at)
                    ),
                )
            })
    }
}
