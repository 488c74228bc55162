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
use std::path::{Path, PathBuf};

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
    /// Mnemonic of each recovered instruction, in stream order.
    pub mnemonics: Vec<&'static str>,
}

pub const TRUNCATION_DEFECT: &str =
    "IGC 1.0.12198-1.0.13063 vISA 4.1 writer defect: instructions lost their \
     trailing operands (as many as their exec-size and predicate fields)";

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "instruction #{} at byte offset {:#x}: {}",
            self.index, self.offset, self.cause
        )?;
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
    index: usize,
    offset: usize,
    cause: ReadError,
    bounds: &Bounds,
) -> StreamError {
    let defect = if version == Version::new(4, 1) {
        let d = decode_truncated(version, stream, bounds);
        // The model must explain the stream better than the intact layout does.
        (d.instructions_recovered > index).then_some(d)
    } else {
        None
    };
    StreamError {
        index,
        offset,
        cause,
        defect,
    }
}

/// Decodes under the truncation model: of each instruction's fields only the first
/// (number of fields - number of exec/predicate fields) were written.
fn decode_truncated(version: Version, stream: &[u8], bounds: &Bounds) -> DefectDiagnosis {
    let mut cur = Cursor::new(stream);
    let mut hist = BTreeMap::new();
    let mut mnemonics = Vec::new();
    let mut count = 0;
    let mut end = 0;
    while cur.remaining() > 0 {
        match decode_one_truncated(&mut cur, version, bounds) {
            Some(m) => {
                *hist.entry(m).or_insert(0) += 1;
                mnemonics.push(m);
                count += 1;
                end = cur.pos();
            }
            None => break,
        }
    }
    DefectDiagnosis {
        instructions_recovered: count,
        bytes_recovered: end,
        opcode_histogram: hist,
        mnemonics,
    }
}

fn decode_one_truncated(
    cur: &mut Cursor,
    version: Version,
    bounds: &Bounds,
) -> Option<&'static str> {
    let opcode = Opcode(cur.u8("opcode").ok()?);
    let info = opcode.info()?;
    if matches!(info.shape, Shape::TextOnly(_)) || info.since > version {
        return None;
    }
    let subop = if opcode.has_subop() {
        Some(cur.u8("subopcode").ok()?)
    } else {
        None
    };
    let layout = opcode.layout(subop)?;
    // Operand slots as IGC counts them: a list contributes one slot per element.
    let fields: Vec<_> = layout
        .fields
        .iter()
        .filter(|f| f.cond.version_allows(version))
        .collect();
    let ep = fields
        .iter()
        .filter(|f| matches!(f.kind, FieldKind::Exec | FieldKind::Pred))
        .count();
    let fixed = fields
        .iter()
        .filter(|f| !matches!(f.kind, FieldKind::RawList(_) | FieldKind::LabelList(_)))
        .count();
    let mut operands: Vec<Operand> = Vec::new();
    let mut slots = 0usize;
    for f in &fields {
        if !f.cond.field_allows(&operands) {
            operands.push(Operand::Absent);
            continue;
        }
        // The number of slots counts list elements, which are known only once the list's
        // count has been read; until then no limit applies (the count precedes its list).
        let list = fields.iter().find_map(|f| match f.kind {
            FieldKind::RawList(c) | FieldKind::LabelList(c) => Some(c),
            _ => None,
        });
        let list_len = match list.map(|c| operands.get(c)) {
            None => 0,
            Some(Some(Operand::Int(n))) => *n as usize,
            Some(_) => usize::MAX / 2,
        };
        let kept = (fixed + list_len).saturating_sub(ep);
        if slots >= kept {
            break;
        }
        match f.kind {
            FieldKind::RawList(_) => {
                let take = list_len.min(kept - slots);
                for _ in 0..take {
                    let id = cur.id(version, "raw").ok()?;
                    cur.u16("raw").ok()?;
                    bounds.check_var(id)?;
                }
                slots += take;
                operands.push(Operand::Absent);
            }
            FieldKind::LabelList(_) => {
                let take = list_len.min(kept - slots);
                for _ in 0..take {
                    bounds.check_label(cur.u16("label").ok()?)?;
                }
                slots += take;
                operands.push(Operand::Absent);
            }
            _ => {
                super::instruction::decode_field(cur, version, f, &mut operands, 0).ok()?;
                bounds.check(operands.last()?)?;
                slots += 1;
            }
        }
    }
    Some(layout.mnemonic)
}

/// Table sizes of the routine: junk past the real instructions soon names a variable,
/// label or predicate that does not exist, which ends the defect model's walk.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Bounds {
    pub vars: u32,
    pub addresses: u32,
    pub predicates: u32,
    pub labels: u32,
}

impl Bounds {
    fn check_var(&self, id: u32) -> Option<()> {
        (id < crate::limits::PREDEFINED_VARS + self.vars).then_some(())
    }
    fn check_label(&self, id: u16) -> Option<()> {
        (u32::from(id) < self.labels).then_some(())
    }
    fn check_pred(&self, p: crate::model::Pred) -> Option<()> {
        (u32::from(p.id()) <= self.predicates).then_some(())
    }
    fn check(&self, op: &Operand) -> Option<()> {
        use crate::model::VectorKind as K;
        match op {
            Operand::Raw(r) => self.check_var(r.id),
            Operand::Label(l) => self.check_label(*l),
            Operand::Pred(p) => self.check_pred(*p),
            Operand::Exec(e) => e.exec_size().map(|_| ()),
            Operand::Vector(v) => match v.kind {
                K::General { id, .. } => self.check_var(id),
                K::Address { id, .. } | K::Indirect { addr: id, .. } => {
                    (u32::from(id) < self.addresses).then_some(())
                }
                K::Predicate(p) => self.check_pred(p),
                _ => Some(()),
            },
            _ => Some(()),
        }
    }
}

/// IGC's text dump of the compile a `.isa` came from: IGC's shader dumps write the
/// `.visaasm` beside the `.isa`, with the same stem. `None` when there is no such file.
pub fn text_dump_beside(isa: &Path) -> Option<PathBuf> {
    let text = isa.with_extension("visaasm");
    (text != isa && text.is_file()).then_some(text)
}

/// Whether `bytes` is a vISA object whose instruction streams match the writer defect
/// (its headers read; at least one stream is undecodable in the defect's way).
pub fn has_truncation_defect(bytes: &[u8]) -> bool {
    let lenient = super::ReadOptions {
        keep_undecodable_streams: true,
    };
    let Ok(obj) = super::read(bytes, lenient) else {
        return false;
    };
    let routines = obj.kernels.iter().map(|k| &k.body);
    routines
        .chain(obj.functions.iter().map(|f| &f.body))
        .any(|r| {
            matches!(&r.code, crate::model::Code::Undecoded { error, .. } if error.defect.is_some())
        })
}

/// What to tell the user of a defective `.isa` (`path`, holding `bytes`) that did not
/// read, after the reader's own message: the `.visaasm` beside it when there is one
/// (or `--prefer-text`, which uses it), else how to have IGC write it. `None` when the
/// file does not have the defect.
pub fn advice(path: &Path, bytes: &[u8]) -> Option<String> {
    if !has_truncation_defect(bytes) {
        return None;
    }
    Some(match text_dump_beside(path) {
        Some(text) => format!(
            "this .isa cannot be read whole; IGC's text dump of the same compile is beside \
             it: use {} (or pass --prefer-text to use it)",
            text.display()
        ),
        None => format!(
            "this .isa cannot be read whole and there is no {} beside it: IGC's shader \
             dumps (IGC_ShaderDumpEnable=1) write that text, which reads",
            path.with_extension("visaasm").display()
        ),
    })
}

/// The reader's `error` on `path` (holding `bytes`), followed by [`advice`] when the
/// file has the writer defect: the message `visa dis`, `visa run` and `report` give.
pub fn explained(path: &Path, bytes: &[u8], error: impl fmt::Display) -> String {
    match advice(path, bytes) {
        Some(advice) => format!("{error}; {advice}"),
        None => error.to_string(),
    }
}

/// Comment lines (`//` each, ending with a newline) standing for a routine's
/// instruction stream that did not decode, for a lenient listing: the reader's error,
/// and under the writer defect's model each recovered instruction's mnemonic (their
/// operands are incomplete, so they are not printed as instructions).
pub fn undecoded_lines(bytes: usize, error: &StreamError) -> String {
    let mut out = format!("// UNDECODED: {bytes} bytes of instructions: {error}\n");
    if let Some(d) = &error.defect {
        out.push_str(&format!(
            "// UNDECODED: under the defect's model, instructions 0 to {} are:\n",
            d.instructions_recovered.saturating_sub(1)
        ));
        for (i, m) in d.mnemonics.iter().enumerate() {
            out.push_str(&format!("//   #{i} {m} (trailing operands lost)\n"));
        }
    }
    out
}
