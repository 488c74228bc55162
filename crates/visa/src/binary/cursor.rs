//! The one binary cursor: little-endian reads that know their absolute offset and
//! the structure being read, so every error can say where and what.

use crate::error::{ReadError, ReadErrorKind};
use crate::version::Version;

pub struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    /// Structure path, innermost last: ("kernel", Some(0)), ("var_info", Some(12)).
    scope: Vec<(&'static str, Option<usize>)>,
}

impl<'a> Cursor<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Cursor {
            data,
            pos: 0,
            scope: Vec::new(),
        }
    }

    pub fn pos(&self) -> usize {
        self.pos
    }
    pub fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    /// Moves to an absolute offset (checked: the offset must lie within the file).
    pub fn seek(&mut self, offset: usize, field: &'static str) -> Result<(), ReadError> {
        if offset > self.data.len() {
            return Err(self.error_at(
                field,
                self.pos,
                ReadErrorKind::Invalid(format!(
                    "offset {offset:#x} points past the end of the file ({:#x} bytes)",
                    self.data.len()
                )),
            ));
        }
        self.pos = offset;
        Ok(())
    }

    pub fn enter(&mut self, name: &'static str, index: Option<usize>) {
        self.scope.push((name, index));
    }
    pub fn leave(&mut self) {
        self.scope.pop();
    }

    pub fn structure(&self) -> String {
        let mut s = String::new();
        for (i, (name, index)) in self.scope.iter().enumerate() {
            if i > 0 {
                s.push('.');
            }
            s.push_str(name);
            if let Some(ix) = index {
                s.push_str(&format!("[{ix}]"));
            }
        }
        if s.is_empty() {
            s.push_str("file");
        }
        s
    }

    pub fn error_at(&self, field: &'static str, offset: usize, reason: ReadErrorKind) -> ReadError {
        ReadError {
            structure: self.structure(),
            field,
            offset,
            reason,
        }
    }
    pub fn invalid(&self, field: &'static str, offset: usize, msg: impl Into<String>) -> ReadError {
        self.error_at(field, offset, ReadErrorKind::Invalid(msg.into()))
    }

    pub fn bytes(&mut self, n: usize, field: &'static str) -> Result<&'a [u8], ReadError> {
        if n > self.remaining() {
            return Err(self.truncated(n, field));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    // Kept out of line: the reads below are inlined into every field decoder, and
    // their error (a path string built from the structure stack) is rare.
    #[cold]
    #[inline(never)]
    fn truncated(&self, n: usize, field: &'static str) -> ReadError {
        self.error_at(
            field,
            self.pos,
            ReadErrorKind::Truncated {
                needed: n,
                available: self.remaining(),
            },
        )
    }

    #[inline(always)]
    fn array<const N: usize>(&mut self, field: &'static str) -> Result<[u8; N], ReadError> {
        match self
            .data
            .get(self.pos..)
            .and_then(|rest| rest.first_chunk::<N>())
        {
            Some(a) => {
                self.pos += N;
                Ok(*a)
            }
            None => Err(self.truncated(N, field)),
        }
    }

    #[inline(always)]
    pub fn u8(&mut self, field: &'static str) -> Result<u8, ReadError> {
        Ok(self.array::<1>(field)?[0])
    }
    #[inline(always)]
    pub fn u16(&mut self, field: &'static str) -> Result<u16, ReadError> {
        Ok(u16::from_le_bytes(self.array(field)?))
    }
    #[inline(always)]
    pub fn i16(&mut self, field: &'static str) -> Result<i16, ReadError> {
        Ok(i16::from_le_bytes(self.array(field)?))
    }
    #[inline(always)]
    pub fn u32(&mut self, field: &'static str) -> Result<u32, ReadError> {
        Ok(u32::from_le_bytes(self.array(field)?))
    }
    #[inline(always)]
    pub fn i32(&mut self, field: &'static str) -> Result<i32, ReadError> {
        Ok(i32::from_le_bytes(self.array(field)?))
    }
    #[inline(always)]
    pub fn u64(&mut self, field: &'static str) -> Result<u64, ReadError> {
        Ok(u64::from_le_bytes(self.array(field)?))
    }

    /// An id or count whose width grew from 2 to 4 bytes in vISA 3.4.
    #[inline(always)]
    pub fn id(&mut self, version: Version, field: &'static str) -> Result<u32, ReadError> {
        if version.wide_ids() {
            self.u32(field)
        } else {
            self.u16(field).map(u32::from)
        }
    }

    /// A NUL-terminated string, returned without its terminator.
    pub fn cstr(&mut self, max_len: usize, field: &'static str) -> Result<&'a [u8], ReadError> {
        let rest = &self.data[self.pos.min(self.data.len())..];
        match memchr::memchr(0, rest) {
            Some(n) if n <= max_len => {
                let s = &rest[..n];
                self.pos += n + 1;
                Ok(s)
            }
            Some(n) => Err(self.error_at(
                field,
                self.pos,
                ReadErrorKind::CountTooLarge {
                    count: n,
                    limit: max_len,
                },
            )),
            None => Err(self.invalid(
                field,
                self.pos,
                "string has no NUL terminator before the end of the file",
            )),
        }
    }

    /// Checks a count read at `offset` before anything is allocated for it: `count`
    /// elements of at least `min_size` bytes each must fit in what remains, and the
    /// count must respect `limit`.
    pub fn check_count(
        &self,
        count: usize,
        min_size: usize,
        limit: usize,
        field: &'static str,
        offset: usize,
    ) -> Result<usize, ReadError> {
        let fits = self.remaining() / min_size.max(1);
        let cap = fits.min(limit);
        if count > cap {
            return Err(self.error_at(
                field,
                offset,
                ReadErrorKind::CountTooLarge { count, limit: cap },
            ));
        }
        Ok(count)
    }
}

/// The write-side mirror of [`Cursor`]: little-endian appends.
#[derive(Default)]
pub struct Sink {
    pub buf: Vec<u8>,
}

impl Sink {
    pub fn pos(&self) -> usize {
        self.buf.len()
    }
    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }
    pub fn u16(&mut self, v: u16) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    pub fn i16(&mut self, v: i16) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    pub fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    pub fn u64(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    pub fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }
    /// Overwrites a 4-byte field written earlier (offsets known only later).
    pub fn patch_u32(&mut self, at: usize, v: u32) {
        self.buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
}
