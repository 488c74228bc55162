//! A routine's instruction stream kept encoded, as read: the stream's bytes (shared
//! with the file the object was read from, or one copy of the stream) and where each
//! instruction starts. The reader validated every instruction when it found these
//! starts; operands are decoded when a consumer asks, by the same decoder.

use super::cursor::Cursor;
use super::instruction::{self, QuickVersion};
use crate::isa::Opcode;
use crate::model::Operand;
use std::sync::Arc;

/// The validated instruction stream of one routine.
#[derive(Clone)]
pub struct EncodedStream {
    /// The file read, or the stream alone; the stream is `bytes[start..end]`.
    bytes: Arc<Vec<u8>>,
    start: usize,
    end: usize,
    /// Each instruction's first byte, relative to the stream.
    offsets: Vec<u32>,
    quick: Arc<QuickVersion>,
}

impl std::fmt::Debug for EncodedStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EncodedStream")
            .field("bytes", &(self.end - self.start))
            .field("instructions", &self.offsets.len())
            .finish()
    }
}

impl EncodedStream {
    pub(crate) fn new(
        bytes: Arc<Vec<u8>>,
        start: usize,
        end: usize,
        offsets: Vec<u32>,
        quick: Arc<QuickVersion>,
    ) -> Self {
        debug_assert!(start <= end && end <= bytes.len());
        EncodedStream {
            bytes,
            start,
            end,
            offsets,
            quick,
        }
    }

    /// The stream's bytes, exactly as read.
    pub fn bytes(&self) -> &[u8] {
        self.bytes.get(self.start..self.end).unwrap_or_default()
    }

    /// The version whose encoding the bytes are in.
    pub fn version(&self) -> crate::Version {
        self.quick.version()
    }

    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// Instruction `index`'s offset in the stream.
    pub fn offset(&self, index: usize) -> Option<usize> {
        self.offsets.get(index).map(|&o| o as usize)
    }

    /// Instruction `index`'s opcode and sub-opcode, without decoding its operands.
    pub fn head(&self, index: usize) -> Option<(Opcode, Option<u8>)> {
        let stream = self.bytes();
        let at = self.offset(index)?;
        let opcode = Opcode(*stream.get(at)?);
        let subop = if opcode.has_subop() {
            Some(*stream.get(at + 1)?)
        } else {
            None
        };
        Some((opcode, subop))
    }

    /// Decodes instruction `index`, pushing its operands onto `operands`.
    pub fn decode_into(
        &self,
        index: usize,
        operands: &mut Vec<Operand>,
    ) -> Option<(Opcode, Option<u8>)> {
        let stream = self.bytes();
        let at = self.offset(index)?;
        let start = operands.len();
        let mut pos = at;
        let quick = if self.quick.version().wide_ids() {
            instruction::decode_quick::<true>(stream, &mut pos, &self.quick, operands)
        } else {
            instruction::decode_quick::<false>(stream, &mut pos, &self.quick, operands)
        };
        if quick.is_some() {
            return quick;
        }
        // The reader accepted this instruction; what the quick decoder declines the
        // cursor's decoder takes, as when it was read.
        operands.truncate(start);
        let mut cur = Cursor::new(stream);
        cur.seek(at, "instruction").ok()?;
        let decoded =
            instruction::decode_operands(&mut cur, self.quick.version(), operands, start).ok();
        debug_assert!(
            decoded.is_some(),
            "a validated instruction does not decode at {at:#x}"
        );
        if decoded.is_none() {
            operands.truncate(start);
        }
        decoded
    }
}
