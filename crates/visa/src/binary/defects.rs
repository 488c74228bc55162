//! Known producer defects, recognised so a broken file gets a diagnosis instead of
//! garbage.
//!
//! IGC 1.0.12198 to 1.0.13063 (vISA 4.1; Debian 12 ships 1.0.12504) wrote each
//! instruction through a loop bounded by `min(operand count, descriptor slots)`, where
//! the operand count leaves out the execution-size and predicate slots but the slots
//! include them: every instruction lost as many trailing operands as it has
//! exec/predicate fields, while the routine's size still counted the full encoding
//! (facts §6). Headers and symbol tables are intact.

use super::cursor::Cursor;
use crate::error::ReadError;
use crate::isa::{FieldKind, Opcode, Shape};
use crate::model::Operand;
use crate::version::Version;
use std::collections::BTreeMap;
use std::fmt;

/// Why an instruction stream did not decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamError {
    /// Index of the instruction that failed (instructions before it decoded).
    pub index: usize,
    /// Absolute file offset where that instruction starts.
    pub offset: usize,
    pub cause: ReadError,
    /// Set when the stream matches a known producer defect.
    pub defect: Option<DefectDiagnosis>,
}

/// The stream decodes under the truncation model of the IGC 1.0.12198-1.0.13063 writer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefectDiagnosis {
    /// Instructions that decode under the defect's model before the stream stops
    /// making sense (the region ends with uninitialised bytes).
    pub instructions_recovered: usize,
    /// Byte length of the stream those instructions cover.
    pub bytes_recovered: usize,
    /// Mnemonic histogram of the recovered instructions.
    pub opcode_histogram: BTreeMap<&'static str, usize>,
}

pub const TRUNCATION_DEFECT: &str = "IGC 1.0.12198-1.0.13063 vISA 4.1 writer defect: instructions lost their \
     trailing operands (as many as their exec-size and predicate fields)";

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "instruction #{} at byte offset {:#x}: {}", self.index, self.offset, self.cause)?;
        if let Some(d) = &self.defect {
            write!(
                f,
                "; the stream matches the {TRUNCATION_DEFECT}: under that defect's model {} instruction(s) \
                 ({} bytes) decode and the rest of the region is not instruction data",
                d.instructions_recovered, d.bytes_recovered
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for StreamError {}

pub(crate) fn diagnose(
    version: Version,
    stream: &[u8],
    base: usize,
    index: usize,
    offset: usize,
    cause: ReadError,
) -> StreamError {
    let defect = if version == Version::new(4, 1) {
        let d = decode_truncated(version, stream);
        // The model must explain the stream better than the intact layout does.
        (d.instructions_recovered > index).then_some(d)
    } else {
        None
    };
    let _ = base;
    StreamError { index, offset, cause, defect }
}

/// Decodes under the truncation model: of each instruction's fields only the first
/// (number of fields - number of exec/predicate fields) were written.
fn decode_truncated(version: Version, stream: &[u8]) -> DefectDiagnosis {
    let mut cur = Cursor::new(stream);
    let mut hist = BTreeMap::new();
    let mut count = 0;
    let mut end = 0;
    while cur.remaining() > 0 {
        match decode_one_truncated(&mut cur, version) {
            Some(m) => {
                *hist.entry(m).or_insert(0) += 1;
                count += 1;
                end = cur.pos();
            }
            None => break,
        }
    }
    DefectDiagnosis { instructions_recovered: count, bytes_recovered: end, opcode_histogram: hist }
}

fn decode_one_truncated(cur: &mut Cursor, version: Version) -> Option<&'static str> {
    let opcode = Opcode(cur.u8("opcode").ok()?);
    let info = opcode.info()?;
    if matches!(info.shape, Shape::TextOnly) || info.since > version {
        return None;
    }
    let subop = if opcode.has_subop() { Some(cur.u8("subopcode").ok()?) } else { None };
    let layout = opcode.layout(subop)?;
    let fields: Vec<_> = layout.fields.iter().filter(|f| f.cond.version_allows(version)).collect();
    let ep = fields.iter().filter(|f| matches!(f.kind, FieldKind::Exec | FieldKind::Pred)).count();
    let kept = fields.len() - ep;
    // Decode the kept prefix with the intact decoder's field rules, by re-encoding a
    // shortened layout walk.
    let mut operands: Vec<Operand> = Vec::new();
    for f in fields.iter().take(kept) {
        if !f.cond.field_allows(&operands) {
            operands.push(Operand::Absent);
            continue;
        }
        operands.push(super::instruction::decode_field_pub(cur, version, f, &operands).ok()?);
    }
    Some(layout.mnemonic)
}
