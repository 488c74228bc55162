//! The Gen ALU: one table, a row per op (mnemonic and `math` function as IGA spells
//! them), with each op's per-lane semantics as a plain function. The run loop
//! (`thread`) resolves a row once per instruction at lowering and calls its `eval`
//! per enabled channel; it never holds per-op semantics of its own.
//!
//! Placeholder with the contract's signatures (owned by the ALU table's author).

use gpukit_iga::model::SrcMod;
use gpukit_visa::interp::value::{FloatMode, Val};
use gpukit_visa::isa::Type;

/// What kind of op a row is: how the run loop feeds it and what it does with the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Sources in, one result out (with an optional implicit accumulator result).
    Arith,
    /// Logic ops: a negation source modifier inverts bits.
    Logic,
    /// `cmp`/`cmpn`: the flag gets the comparison; the destination all ones or zero.
    Compare,
    /// `sel`: with a conditional modifier, min/max; else the predicate picks.
    Select,
    /// `csel`: src0 where src2 meets the conditional modifier, else src1; writes
    /// no flag.
    CondSelect,
    /// `math` functions.
    Math,
}

/// The element types of one instruction's operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Types {
    pub dst: Type,
    pub src: [Type; 3],
}

/// One lane's result, and the accumulator value the op writes implicitly
/// (addc carry, subb borrow, mach low half, ...).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Output {
    pub value: Val,
    pub acc: Option<Val>,
}

/// One lane of an op: the types, cr0's float mode, the sources (after source
/// modifiers) and the lane's accumulator value (for ops that read it).
pub type Eval = fn(&Types, FloatMode, &[Val; 3], Val) -> Output;

pub struct Op {
    pub mnemonic: &'static str,
    /// The `math` function (`inv`, `sqrt`, ...), for `math` rows.
    pub subop: Option<&'static str>,
    pub sources: u8,
    pub class: Class,
    /// Reads the accumulator implicitly (`mac`, `mach`, ...).
    pub reads_acc: bool,
    pub eval: Eval,
}

/// Conditional modifiers (`(lt)f0.0`), parsed once at lowering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CondMod {
    Eq,
    Ne,
    Gt,
    Ge,
    Lt,
    Le,
    Ov,
    Un,
}

impl CondMod {
    /// IGA's spelling (`eq`/`z`, `ne`/`nz`, `gt`, `ge`, `lt`, `le`, `ov`, `un`).
    pub fn parse(s: &str) -> Option<CondMod> {
        Some(match s {
            "eq" | "z" => CondMod::Eq,
            "ne" | "nz" => CondMod::Ne,
            "gt" | "g" => CondMod::Gt,
            "ge" => CondMod::Ge,
            "lt" | "l" => CondMod::Lt,
            "le" => CondMod::Le,
            "ov" | "o" => CondMod::Ov,
            "un" | "u" => CondMod::Un,
            _ => return None,
        })
    }
}

static OPS: &[Op] = &[];

/// The row of `op` (and its `math` function `subop`).
pub fn find(op: &str, subop: Option<&str>) -> Option<&'static Op> {
    OPS.iter()
        .find(|o| o.mnemonic == op && (o.subop.is_none() || o.subop == subop))
}

/// Applies a source modifier to a value of type `ty` read for `op` (logic ops invert).
pub fn source_modifier(_op: &Op, _ty: Type, _m: SrcMod, v: Val) -> Val {
    v
}

/// Whether a result `v` of type `ty` (as the destination holds it) meets `cm`.
pub fn condition(_cm: CondMod, _v: Val, _ty: Type) -> bool {
    false
}

/// `cmp`/`cmpn` (`op`), `sel` with a conditional modifier: whether `a cm b` holds
/// for values of type `ty`.
pub fn compare(_op: &Op, _cm: CondMod, _a: Val, _b: Val, _ty: Type) -> bool {
    false
}
