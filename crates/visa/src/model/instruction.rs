//! Instructions: an opcode and the operand values its layout describes.

use super::operand::{ExecCtrl, Pred, Raw, Vector};
use crate::isa::{Field, Opcode};
use std::fmt;

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
    /// Boxed twice so that an operand stays 16 bytes: lists are rare (raw sends,
    /// `switchjmp`), operands are many.
    RawList(Box<Vec<Raw>>),
    LabelList(Box<Vec<u16>>),
    /// The field is not present in this instruction.
    Absent,
}

impl Instruction {
    /// This instruction as the borrowed form every reader of instructions takes.
    pub fn view(&self) -> InstRef<'_> {
        InstRef {
            opcode: self.opcode,
            subop: self.subop,
            operands: &self.operands,
        }
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

/// One instruction of an [`InstructionList`], borrowed: what the printer, the
/// verifier, the analyses and the interpreter read. `operands` is aligned with the
/// layout's fields as in [`Instruction`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InstRef<'a> {
    pub opcode: Opcode,
    pub subop: Option<u8>,
    pub operands: &'a [Operand],
}

impl<'a> InstRef<'a> {
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
    pub fn operand(&self, name: &str) -> Option<&'a Operand> {
        let fields = self.fields()?;
        fields
            .iter()
            .zip(self.operands)
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

    pub fn to_instruction(&self) -> Instruction {
        Instruction {
            opcode: self.opcode,
            subop: self.subop,
            operands: self.operands.to_vec(),
        }
    }
}

/// One instruction of an [`InstructionList`] with its operands open to change.
#[derive(Debug)]
pub struct InstMut<'a> {
    pub opcode: Opcode,
    pub subop: Option<u8>,
    pub operands: &'a mut [Operand],
}

impl InstMut<'_> {
    pub fn view(&self) -> InstRef<'_> {
        InstRef {
            opcode: self.opcode,
            subop: self.subop,
            operands: self.operands,
        }
    }
}

/// Where one instruction's operands start in [`InstructionList::operands`].
/// Eight bytes: a stream of one-byte instructions (`barrier`, `wait`) must not cost
/// more than a few times its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Head {
    opcode: Opcode,
    subop: Option<u8>,
    start: u32,
}

/// The instructions of one routine, stored flat: a small head per instruction and
/// one operand vector for all of them, so that decoding or parsing allocates nothing
/// per instruction and memory stays a small multiple of the encoded stream.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct InstructionList {
    heads: Vec<Head>,
    operands: Vec<Operand>,
}

/// More than 2^32 operands in one routine (an input of many gigabytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListFull;

impl fmt::Display for ListFull {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("more than 2^32 operands in one routine")
    }
}

impl InstructionList {
    pub const fn new() -> Self {
        InstructionList {
            heads: Vec::new(),
            operands: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.heads.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heads.is_empty()
    }

    /// Appends an instruction made of `operands` (aligned with its layout's fields).
    pub fn push_parts(
        &mut self,
        opcode: Opcode,
        subop: Option<u8>,
        operands: impl IntoIterator<Item = Operand>,
    ) -> Result<(), ListFull> {
        let start = u32::try_from(self.operands.len()).map_err(|_| ListFull)?;
        self.heads.push(Head {
            opcode,
            subop,
            start,
        });
        self.operands.extend(operands);
        Ok(())
    }

    /// Appends an instruction whose operands `decode` pushes straight onto the list's
    /// operand vector, after the index it is given (the binary reader: no copy of
    /// each operand through a scratch vector). On an error nothing is kept.
    pub(crate) fn push_decoded<E>(
        &mut self,
        decode: impl FnOnce(&mut Vec<Operand>, usize) -> Result<(Opcode, Option<u8>), E>,
    ) -> Result<Result<(), ListFull>, E> {
        let start = self.operands.len();
        match decode(&mut self.operands, start) {
            Ok((opcode, subop)) => match u32::try_from(start) {
                Ok(start32) => {
                    self.heads.push(Head {
                        opcode,
                        subop,
                        start: start32,
                    });
                    Ok(Ok(()))
                }
                Err(_) => {
                    self.operands.truncate(start);
                    Ok(Err(ListFull))
                }
            },
            Err(e) => {
                self.operands.truncate(start);
                Err(e)
            }
        }
    }

    /// As [`InstructionList::push_decoded`] for a decoder that only says whether it
    /// decoded (the binary reader's quick path): `None` when it did not, with nothing
    /// kept. The small result comes back in a register; a result with an error
    /// beside it came back through memory, written a byte at a time and read back
    /// whole, which stalled the load.
    pub(crate) fn push_quick(
        &mut self,
        decode: impl FnOnce(&mut Vec<Operand>) -> Option<(Opcode, Option<u8>)>,
    ) -> Option<Result<(), ListFull>> {
        let start = self.operands.len();
        let Some((opcode, subop)) = decode(&mut self.operands) else {
            self.operands.truncate(start);
            return None;
        };
        let Ok(start32) = u32::try_from(start) else {
            self.operands.truncate(start);
            return Some(Err(ListFull));
        };
        self.heads.push(Head {
            opcode,
            subop,
            start: start32,
        });
        Some(Ok(()))
    }

    pub fn push(&mut self, inst: Instruction) -> Result<(), ListFull> {
        self.push_parts(inst.opcode, inst.subop, inst.operands)
    }

    fn operand_range(&self, index: usize) -> std::ops::Range<usize> {
        let start = self.heads[index].start as usize;
        let end = self
            .heads
            .get(index + 1)
            .map_or(self.operands.len(), |h| h.start as usize);
        start..end
    }

    pub fn get(&self, index: usize) -> Option<InstRef<'_>> {
        let head = self.heads.get(index)?;
        Some(InstRef {
            opcode: head.opcode,
            subop: head.subop,
            operands: &self.operands[self.operand_range(index)],
        })
    }

    /// The operands of instruction `index`, to be changed in place (renumbering
    /// variables or labels); the instruction's shape stays.
    pub fn operands_mut(&mut self, index: usize) -> Option<&mut [Operand]> {
        if index >= self.heads.len() {
            return None;
        }
        let range = self.operand_range(index);
        Some(&mut self.operands[range])
    }

    /// Instruction `index`, for indices known to be in range (like slice indexing).
    ///
    /// # Panics
    /// When `index >= self.len()`.
    pub fn at(&self, index: usize) -> InstRef<'_> {
        match self.get(index) {
            Some(inst) => inst,
            None => panic!("instruction {index} of {}", self.len()),
        }
    }

    /// Every instruction with its operands open to change in place (renumbering
    /// variables, strings or labels); shapes stay.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = InstMut<'_>> {
        let heads = &self.heads;
        let total = self.operands.len();
        let mut rest: &mut [Operand] = &mut self.operands;
        heads.iter().enumerate().map(move |(i, h)| {
            let end = heads.get(i + 1).map_or(total, |n| n.start as usize);
            let (mine, tail) = std::mem::take(&mut rest).split_at_mut(end - h.start as usize);
            rest = tail;
            InstMut {
                opcode: h.opcode,
                subop: h.subop,
                operands: mine,
            }
        })
    }

    pub fn last(&self) -> Option<InstRef<'_>> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }

    pub fn iter(&self) -> Iter<'_> {
        Iter {
            list: self,
            front: 0,
            back: self.heads.len(),
        }
    }

    /// Removes every instruction from `at` on.
    pub fn truncate(&mut self, at: usize) {
        if at < self.heads.len() {
            let start = self.heads[at].start as usize;
            self.heads.truncate(at);
            self.operands.truncate(start);
        }
    }
}

impl fmt::Debug for InstructionList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Collects owned instructions; for tools and tests that build code by hand.
///
/// # Panics
/// Over 2^32 operands, which no input within memory can reach; readers use
/// [`InstructionList::push_parts`] and report [`ListFull`] instead.
impl FromIterator<Instruction> for InstructionList {
    fn from_iter<I: IntoIterator<Item = Instruction>>(iter: I) -> Self {
        let mut list = InstructionList::new();
        for inst in iter {
            list.push(inst).expect("fewer than 2^32 operands");
        }
        list
    }
}

impl From<Vec<Instruction>> for InstructionList {
    fn from(v: Vec<Instruction>) -> Self {
        v.into_iter().collect()
    }
}

impl<'a> IntoIterator for &'a InstructionList {
    type Item = InstRef<'a>;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

#[derive(Clone)]
pub struct Iter<'a> {
    list: &'a InstructionList,
    front: usize,
    back: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = InstRef<'a>;
    fn next(&mut self) -> Option<InstRef<'a>> {
        if self.front >= self.back {
            return None;
        }
        let item = self.list.get(self.front);
        self.front += 1;
        item
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
    fn nth(&mut self, n: usize) -> Option<InstRef<'a>> {
        self.front = self.front.saturating_add(n).min(self.back);
        self.next()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.front >= self.back {
            return None;
        }
        self.back -= 1;
        self.list.get(self.back)
    }
}

impl ExactSizeIterator for Iter<'_> {}
