//! Instructions: an opcode and the operand values its layout describes.

use super::operand::{ExecCtrl, Pred, Raw, Vector};
use crate::isa::{Field, Opcode};

/// One decoded instruction. `operands` has one entry per field of the instruction's
/// layout ([`Opcode::layout`]), in layout order; fields that the version or another
/// field's value leaves out hold [`Operand::Absent`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instruction {
    pub opcode: Opcode,
    /// The sub-opcode byte, for opcodes whose layout depends on one (SVM, VA, VA+, LSC).
    pub subop: Option<u8>,
    pub operands: Vec<Operand>,
}

/// The value of one layout field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    Exec(ExecCtrl),
    Pred(Pred),
    Vector(Vector),
    Raw(Raw),
    /// A label index.
    Label(u16),
    /// A plain integer field of 1, 2 or 4 bytes (mode bytes, counts, ids, immediates).
    Int(u32),
    RawList(Vec<Raw>),
    LabelList(Vec<u16>),
    /// The field is not present in this instruction.
    Absent,
}

impl Instruction {
    /// The layout fields that describe `operands`.
    pub fn fields(&self) -> Option<&'static [Field]> {
        self.opcode.layout(self.subop).map(|l| l.fields)
    }

    /// The mnemonic, including the sub-opcode's name where there is one.
    pub fn mnemonic(&self) -> &'static str {
        self.opcode
            .layout(self.subop)
            .map(|l| l.mnemonic)
            .unwrap_or(self.opcode.mnemonic())
    }

    /// The operand of the field called `name`, if the field exists and is present.
    pub fn operand(&self, name: &str) -> Option<&Operand> {
        let fields = self.fields()?;
        fields
            .iter()
            .zip(&self.operands)
            .find(|(f, o)| f.name == name && !matches!(o, Operand::Absent))
            .map(|(_, o)| o)
    }

    pub fn exec(&self) -> Option<ExecCtrl> {
        self.operands.iter().find_map(|o| match o {
            Operand::Exec(e) => Some(*e),
            _ => None,
        })
    }
    pub fn pred(&self) -> Option<Pred> {
        self.operands.iter().find_map(|o| match o {
            Operand::Pred(p) => Some(*p),
            _ => None,
        })
    }

    /// Builds an instruction from the values of its present fields, in layout order,
    /// filling fields that `version` leaves out with [`Operand::Absent`]. Fields whose
    /// presence depends on another field's value are taken from `values` when given.
    pub fn build(
        opcode: Opcode,
        subop: Option<u8>,
        version: crate::Version,
        values: Vec<Operand>,
    ) -> Option<Self> {
        let layout = opcode.layout(subop)?;
        let mut operands = Vec::with_capacity(layout.fields.len());
        let mut it = values.into_iter();
        for f in layout.fields {
            if !f.cond.version_allows(version) {
                operands.push(Operand::Absent);
                continue;
            }
            let present = f.cond.field_allows(&operands);
            if present {
                operands.push(it.next()?);
            } else {
                operands.push(Operand::Absent);
            }
        }
        if it.next().is_some() {
            return None;
        }
        Some(Instruction {
            opcode,
            subop,
            operands,
        })
    }
}
