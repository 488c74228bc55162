//! Instructions: an opcode and the operand values its layout describes.

use super::operand::{ExecCtrl, Pred, Raw, Vector};
use crate::binary::EncodedStream;
use crate::isa::{Field, Opcode};
use std::fmt;
use std::sync::OnceLock;

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

/// Where one instruction's operands start in its list's operand vector.
/// Eight bytes: a stream of one-byte instructions (`barrier`, `wait`) must not cost
/// more than a few times its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Head {
    opcode: Opcode,
    subop: Option<u8>,
    start: u32,
}

/// An instruction's opcode and sub-opcode: what it is, without its operands (opcode
/// histograms of encoded lists need nothing more).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InstHead {
    pub opcode: Opcode,
    pub subop: Option<u8>,
}

impl InstHead {
    /// The mnemonic, including the sub-opcode's name where there is one.
    pub fn mnemonic(&self) -> &'static str {
        self.opcode
            .layout(self.subop)
            .map(|l| l.mnemonic)
            .unwrap_or(self.opcode.mnemonic())
    }
}

/// Instructions stored flat: a small head per instruction and one operand vector for
/// all of them, so that decoding or parsing allocates nothing per instruction.
#[derive(Clone, Default, PartialEq, Eq)]
struct Flat {
    heads: Vec<Head>,
    operands: Vec<Operand>,
}

impl Flat {
    fn operand_range(&self, index: usize) -> std::ops::Range<usize> {
        let start = self.heads[index].start as usize;
        let end = self
            .heads
            .get(index + 1)
            .map_or(self.operands.len(), |h| h.start as usize);
        start..end
    }

    fn get(&self, index: usize) -> Option<InstRef<'_>> {
        let head = self.heads.get(index)?;
        Some(InstRef {
            opcode: head.opcode,
            subop: head.subop,
            operands: &self.operands[self.operand_range(index)],
        })
    }

    /// Every instruction of an encoded stream, decoded.
    fn decode(stream: &EncodedStream) -> Flat {
        let mut flat = Flat {
            heads: Vec::with_capacity(stream.len()),
            operands: Vec::new(),
        };
        for index in 0..stream.len() {
            // The reader checked that the stream's operands number fewer than 2^32.
            let Ok(start) = u32::try_from(flat.operands.len()) else {
                break;
            };
            let Some((opcode, subop)) = stream.decode_into(index, &mut flat.operands) else {
                break;
            };
            flat.heads.push(Head {
                opcode,
                subop,
                start,
            });
        }
        flat
    }
}

/// An encoded stream with its decoded form, made on the first borrowed access.
#[derive(Clone)]
struct Lazy {
    stream: EncodedStream,
    flat: OnceLock<Flat>,
}

#[derive(Clone)]
enum Repr {
    Flat(Flat),
    /// Boxed: a list read from a file is one of these, and `Code` stays small.
    Encoded(Box<Lazy>),
}

/// The instructions of one routine, in one of two forms with the same contents.
/// Built (text parser, tools) they are stored flat. Read from a binary they stay
/// encoded: the validated stream (shared with the file read) and each instruction's
/// start, so that memory stays near the input's size. Readers that walk the
/// instructions in order ([`InstructionList::walk`], [`InstructionList::get_with`],
/// [`InstructionList::heads`]) decode each one when they reach it; the borrowing
/// accessors ([`InstructionList::get`], [`InstructionList::iter`]) decode the whole
/// list once, on first use, and keep it; changing the list turns it flat.
#[derive(Clone)]
pub struct InstructionList {
    repr: Repr,
}

impl Default for InstructionList {
    fn default() -> Self {
        InstructionList::new()
    }
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
            repr: Repr::Flat(Flat {
                heads: Vec::new(),
                operands: Vec::new(),
            }),
        }
    }

    /// A list over a validated encoded stream (the binary reader).
    pub(crate) fn encoded(stream: EncodedStream) -> Self {
        InstructionList {
            repr: Repr::Encoded(Box::new(Lazy {
                stream,
                flat: OnceLock::new(),
            })),
        }
    }

    /// The encoded stream the list was read from, while it is unchanged.
    pub fn encoded_stream(&self) -> Option<&EncodedStream> {
        match &self.repr {
            Repr::Flat(_) => None,
            Repr::Encoded(lazy) => Some(&lazy.stream),
        }
    }

    pub fn len(&self) -> usize {
        match &self.repr {
            Repr::Flat(f) => f.heads.len(),
            Repr::Encoded(lazy) => lazy.stream.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Room for `instructions` more instructions with `operands` more operands in all,
    /// so a builder that knows about how many are coming grows the list once.
    pub fn reserve(&mut self, instructions: usize, operands: usize) {
        let flat = self.flat_mut();
        flat.heads.reserve(instructions);
        flat.operands.reserve(operands);
    }

    /// Gives back room `reserve` took and the list did not use.
    pub fn shrink_to_fit(&mut self) {
        if let Repr::Flat(flat) = &mut self.repr {
            flat.heads.shrink_to_fit();
            flat.operands.shrink_to_fit();
        }
    }

    /// The decoded form, decoded now if not yet.
    fn flat(&self) -> &Flat {
        match &self.repr {
            Repr::Flat(f) => f,
            Repr::Encoded(lazy) => lazy.flat.get_or_init(|| Flat::decode(&lazy.stream)),
        }
    }

    /// The decoded form to change; the list is flat from then on.
    fn flat_mut(&mut self) -> &mut Flat {
        if let Repr::Encoded(lazy) = &mut self.repr {
            let flat = lazy
                .flat
                .take()
                .unwrap_or_else(|| Flat::decode(&lazy.stream));
            self.repr = Repr::Flat(flat);
        }
        match &mut self.repr {
            Repr::Flat(f) => f,
            Repr::Encoded(_) => unreachable!("made flat above"),
        }
    }

    /// Appends an instruction made of `operands` (aligned with its layout's fields).
    pub fn push_parts(
        &mut self,
        opcode: Opcode,
        subop: Option<u8>,
        operands: impl IntoIterator<Item = Operand>,
    ) -> Result<(), ListFull> {
        let flat = self.flat_mut();
        let start = u32::try_from(flat.operands.len()).map_err(|_| ListFull)?;
        flat.heads.push(Head {
            opcode,
            subop,
            start,
        });
        flat.operands.extend(operands);
        Ok(())
    }

    /// Appends an instruction whose operands `decode` pushes straight onto the list's
    /// operand vector, after the index it is given (no copy of each operand through
    /// a scratch vector). On an error nothing is kept.
    pub(crate) fn push_decoded<E>(
        &mut self,
        decode: impl FnOnce(&mut Vec<Operand>, usize) -> Result<(Opcode, Option<u8>), E>,
    ) -> Result<Result<(), ListFull>, E> {
        let flat = self.flat_mut();
        let start = flat.operands.len();
        match decode(&mut flat.operands, start) {
            Ok((opcode, subop)) => match u32::try_from(start) {
                Ok(start32) => {
                    flat.heads.push(Head {
                        opcode,
                        subop,
                        start: start32,
                    });
                    Ok(Ok(()))
                }
                Err(_) => {
                    flat.operands.truncate(start);
                    Ok(Err(ListFull))
                }
            },
            Err(e) => {
                flat.operands.truncate(start);
                Err(e)
            }
        }
    }

    pub fn push(&mut self, inst: Instruction) -> Result<(), ListFull> {
        self.push_parts(inst.opcode, inst.subop, inst.operands)
    }

    /// Instruction `index`, borrowed from the list (an encoded list is decoded whole
    /// on the first such access; [`InstructionList::get_with`] does not).
    pub fn get(&self, index: usize) -> Option<InstRef<'_>> {
        self.flat().get(index)
    }

    /// Instruction `index`: borrowed from a flat list, decoded into `scratch` from an
    /// encoded one (its earlier contents dropped).
    pub fn get_with<'s>(
        &'s self,
        index: usize,
        scratch: &'s mut Vec<Operand>,
    ) -> Option<InstRef<'s>> {
        match &self.repr {
            Repr::Flat(f) => f.get(index),
            Repr::Encoded(lazy) => {
                if let Some(f) = lazy.flat.get() {
                    return f.get(index);
                }
                scratch.clear();
                let (opcode, subop) = lazy.stream.decode_into(index, scratch)?;
                Some(InstRef {
                    opcode,
                    subop,
                    operands: scratch,
                })
            }
        }
    }

    /// Instruction `index`'s opcode and sub-opcode, without its operands.
    pub fn head(&self, index: usize) -> Option<InstHead> {
        match &self.repr {
            Repr::Flat(f) => f.heads.get(index).map(|h| InstHead {
                opcode: h.opcode,
                subop: h.subop,
            }),
            Repr::Encoded(lazy) => lazy
                .stream
                .head(index)
                .map(|(opcode, subop)| InstHead { opcode, subop }),
        }
    }

    /// Every instruction's opcode and sub-opcode, in order, without operands.
    pub fn heads(&self) -> impl ExactSizeIterator<Item = InstHead> + '_ {
        (0..self.len()).map(|i| {
            self.head(i).unwrap_or(InstHead {
                opcode: Opcode(0),
                subop: None,
            })
        })
    }

    /// Every instruction in order, each decoded when reached into one buffer (see
    /// [`Walk`]): what streaming readers (printer, verifier, summaries) use.
    pub fn walk(&self) -> Walk<'_> {
        Walk {
            list: self,
            index: 0,
            scratch: Vec::new(),
        }
    }

    /// The operands of instruction `index`, to be changed in place (renumbering
    /// variables or labels); the instruction's shape stays.
    pub fn operands_mut(&mut self, index: usize) -> Option<&mut [Operand]> {
        let flat = self.flat_mut();
        if index >= flat.heads.len() {
            return None;
        }
        let range = flat.operand_range(index);
        Some(&mut flat.operands[range])
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
        let flat = self.flat_mut();
        let heads = &flat.heads;
        let total = flat.operands.len();
        let mut rest: &mut [Operand] = &mut flat.operands;
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

    /// Every instruction, borrowed (an encoded list is decoded whole first; see
    /// [`InstructionList::walk`]).
    pub fn iter(&self) -> Iter<'_> {
        let flat = self.flat();
        Iter {
            list: flat,
            front: 0,
            back: flat.heads.len(),
        }
    }

    /// Removes every instruction from `at` on.
    pub fn truncate(&mut self, at: usize) {
        if at >= self.len() {
            return;
        }
        let flat = self.flat_mut();
        let start = flat.heads[at].start as usize;
        flat.heads.truncate(at);
        flat.operands.truncate(start);
    }
}

/// The instructions of a list in order, each decoded into one reused buffer when
/// reached (a lending iterator: each instruction borrows the walk until the next).
pub struct Walk<'a> {
    list: &'a InstructionList,
    index: usize,
    scratch: Vec<Operand>,
}

impl Walk<'_> {
    /// The next instruction and its index.
    pub fn next_instruction(&mut self) -> Option<(usize, InstRef<'_>)> {
        let index = self.index;
        let inst = self.list.get_with(index, &mut self.scratch)?;
        self.index += 1;
        Some((index, inst))
    }
}

impl PartialEq for InstructionList {
    fn eq(&self, other: &Self) -> bool {
        if let (Repr::Flat(a), Repr::Flat(b)) = (&self.repr, &other.repr) {
            return a == b;
        }
        if self.len() != other.len() {
            return false;
        }
        let (mut a, mut b) = (self.walk(), other.walk());
        loop {
            match (a.next_instruction(), b.next_instruction()) {
                (None, None) => return true,
                (Some((_, x)), Some((_, y))) if x == y => {}
                _ => return false,
            }
        }
    }
}

impl Eq for InstructionList {}

impl fmt::Debug for InstructionList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_list();
        let mut walk = self.walk();
        while let Some((_, inst)) = walk.next_instruction() {
            list.entry(&inst);
        }
        list.finish()
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
    list: &'a Flat,
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
