//! The Gen ALU: one table, a row per op (mnemonic and `math` function as IGA spells
//! them), with each op's per-lane semantics as a plain function. The run loop
//! (`thread`) resolves a row once per instruction at lowering and calls its `eval`
//! per enabled channel; it never holds per-op semantics of its own. What vISA
//! defines alike (bit fields, shifts, rotates, compares, min/max, integer division)
//! is computed by `gpukit_visa::interp::alu`, which the vISA engine calls too.
//!
//! Values: sources arrive decoded by their types ([`gpukit_visa::interp::value::decode`]:
//! integers exact in `i128`, floats in `f64`) with source modifiers applied
//! ([`source_modifier`]); `eval` returns the exact (integer) or already rounded
//! (float) result, which the run loop encodes into the destination type with the
//! instruction's saturation ([`gpukit_visa::interp::value::encode`]: integers wrap,
//! or clamp under `.sat`; floats to integers truncate and clamp, NaN to 0).
//!
//! The Gen rules this follows:
//! - **Execution type.** An op is a float op when one of its sources is a float
//!   type (IGC never mixes integer and float sources outside `mov`); integers are
//!   computed exactly, so `mul` of two dwords into a dword keeps the product's low
//!   32 bits and into a qword the whole product.
//! - **Float mode.** `cr0` ([`FloatMode`]): arithmetic flushes denormal F/DF
//!   operands and results when the mode says so and rounds F results in the mode's
//!   direction (sums through round-to-odd, [`value::sum_to_odd`], so directed
//!   rounding is exact for f32; DF results round to nearest). Moves, selects and
//!   min/max copy values without flushing; a converting `mov` rounds its result.
//! - **Fused ops.** `mad`, `mac`, `madm` and the `dp4a`/dot sums round once.
//! - **Shifts** take the count's low 5 bits (6 for qword sources); `shr` shifts
//!   zeros into the source type's width, `asr` copies the sign.
//! - **Min/max.** `sel` with `(lt)`/`(ge)` is float min/max: a NaN source gives the
//!   other source, and -0 orders below +0 ([`select`]).
//! - **`math` precision.** Every function is computed exactly or in `f64` and then
//!   rounded once to the destination type: at least as accurate as the hardware's
//!   approximations (which OpenCL allows up to a few ulp), so results can differ
//!   from a GPU's in the last bit of `inv`, `log`, `exp`, `sqt` (before Xe), `rsqt`,
//!   `sin`, `cos` and `pow`, never in the IEEE-exact `fdiv` and `invm`/`rsqtm`
//!   sequences.
//! - **IEEE macros.** `math.invm` / `math.rsqtm` start the `madm` sequences IGC
//!   emits for correctly rounded division and square root; their `(eo)` early-out
//!   flag says the math unit already has the final result. Here they compute that
//!   final, correctly rounded quotient (`a / b`) or root (`sqrt(a)`) on every
//!   channel and report early-out everywhere ([`condition`] of [`CondMod::Eo`]), so
//!   the refinement IGC branches around is skipped and the register the sequence
//!   leaves its result in (the `invm`/`rsqtm` destination) holds the IEEE value.
//!   `madm` itself is a fused multiply-add in `f64` (its `mme` extra-precision bits
//!   are not modelled), so a sequence that runs anyway still converges.

use gpukit_iga::model::{Instruction, SrcMod};
use gpukit_iga::syntax::Gen;
use gpukit_visa::interp::alu::{self as shared, as_float as flt, as_int as int, Relation};
use gpukit_visa::interp::value::{self, is_float, is_unsigned, FloatMode, Val};
use gpukit_visa::isa::Type;

/// What kind of op a row is: how the run loop feeds it and what it does with the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Sources in, one result out (with an optional implicit accumulator result).
    Arith,
    /// Logic ops: a negation source modifier inverts bits.
    Logic,
    /// `cmp`/`cmpn`: the flag gets the comparison ([`compare_op`]); a destination
    /// gets all ones where it holds and zero elsewhere.
    Compare,
    /// `sel`: with a conditional modifier the result is [`select`] (for floats
    /// `(lt)`/`(ge)` are min/max) and no flag is written; else the predicate picks
    /// src0 where it holds and src1 elsewhere. `csel`: [`csel`]. `eval` returns src0.
    Select,
    /// `math` functions.
    Math,
    /// `dp2`/`dp3`/`dp4`/`dph`: a dot product over each group of 4 channels, whose
    /// result every channel of the group gets ([`dot`]); `eval` is one channel's
    /// multiply-add step of it.
    Dot,
    /// `smov`: a `mov` of src0 whose src1, an immediate, is a channel-enable mask
    /// (bit `i`: channel `i` of the instruction) ANDed with the enabled channels.
    /// IGC emits it for a vISA `mov` into a per-channel indirect destination
    /// predicated on one channel (`setp P 1<<k; (P) mov r[A(k)]`), with the
    /// predicate's bits as src1 (the skl/icllp `private_insertion_sort` corpus
    /// kernel). `eval` is `mov`'s.
    Scatter,
}

/// The element types of one instruction's operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Types {
    pub dst: Type,
    pub src: [Type; 3],
}

/// One lane's result, and the accumulator value the op writes implicitly
/// (addc carry, subb borrow, mach low half, mac sum, ...).
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
    /// The `math` function (`inv`, `sqt`, ...), for `math` rows; `bfn` rows hold
    /// their function in [`Op::function`] instead (IGA prints it as an expression).
    pub subop: Option<&'static str>,
    pub sources: u8,
    pub class: Class,
    /// Reads the accumulator implicitly (`mac`).
    pub reads_acc: bool,
    /// `bfn`'s 8-bit truth table (0 for other ops).
    pub function: u8,
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
    /// `(eo)`: early out, set by `math.invm`/`math.rsqtm`.
    Eo,
}

impl CondMod {
    /// IGA's spelling (`eq`/`z`, `ne`/`nz`, `gt`, `ge`, `lt`, `le`, `ov`, `un`, `eo`).
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
            "eo" => CondMod::Eo,
            _ => return None,
        })
    }

    fn relation(self) -> Option<Relation> {
        Some(match self {
            CondMod::Eq => Relation::Eq,
            CondMod::Ne => Relation::Ne,
            CondMod::Gt => Relation::Gt,
            CondMod::Ge => Relation::Ge,
            CondMod::Lt => Relation::Lt,
            CondMod::Le => Relation::Le,
            _ => return None,
        })
    }
}

// ---- the table ----

const fn row(mnemonic: &'static str, sources: u8, class: Class, eval: Eval) -> Op {
    Op {
        mnemonic,
        subop: None,
        sources,
        class,
        reads_acc: false,
        function: 0,
        eval,
    }
}

const fn math(function: &'static str, sources: u8, eval: Eval) -> Op {
    Op {
        subop: Some(function),
        ..row("math", sources, Class::Math, eval)
    }
}

const fn with_acc(op: Op) -> Op {
    Op {
        reads_acc: true,
        ..op
    }
}

use Class::{Arith, Compare, Dot, Logic, Scatter, Select};

/// Every Gen ALU op IGC emits for compute kernels (`bfn` is in [`BFN`], a row per
/// truth table).
static OPS: &[Op] = &[
    row("mov", 1, Arith, mov),
    row("movi", 1, Arith, mov),
    row("smov", 2, Scatter, mov),
    row("sel", 2, Select, first),
    row("csel", 3, Select, first),
    row("not", 1, Logic, not),
    row("and", 2, Logic, and),
    row("or", 2, Logic, or),
    row("xor", 2, Logic, xor),
    row("shl", 2, Arith, shl),
    row("shr", 2, Arith, shr),
    row("asr", 2, Arith, asr),
    row("rol", 2, Arith, rol),
    row("ror", 2, Arith, ror),
    row("bfrev", 1, Arith, bfrev),
    row("bfe", 3, Arith, bfe),
    row("bfi1", 2, Arith, bfi1),
    row("bfi2", 3, Arith, bfi2),
    row("fbh", 1, Arith, fbh),
    row("fbl", 1, Arith, fbl),
    row("cbit", 1, Arith, cbit),
    row("lzd", 1, Arith, lzd),
    row("addc", 2, Arith, addc),
    row("subb", 2, Arith, subb),
    row("add", 2, Arith, add),
    row("add3", 3, Arith, add3),
    row("avg", 2, Arith, avg),
    row("mul", 2, Arith, mul),
    row("mach", 2, Arith, mach),
    row("macl", 2, Arith, macl),
    row("mad", 3, Arith, mad),
    row("madm", 3, Arith, mad),
    with_acc(row("mac", 2, Arith, mac)),
    row("lrp", 3, Arith, lrp),
    row("dp2", 2, Dot, dot_step),
    row("dp3", 2, Dot, dot_step),
    row("dp4", 2, Dot, dot_step),
    row("dph", 2, Dot, dot_step),
    row("dp4a", 3, Arith, dp4a),
    row("frc", 1, Arith, frc),
    row("rndd", 1, Arith, rndd),
    row("rnde", 1, Arith, rnde),
    row("rndu", 1, Arith, rndu),
    row("rndz", 1, Arith, rndz),
    row("srnd", 2, Arith, srnd),
    row("cmp", 2, Compare, first),
    row("cmpn", 2, Compare, first),
    math("inv", 1, inv),
    math("log", 1, log),
    math("exp", 1, exp),
    math("sqt", 1, sqt),
    math("rsqt", 1, rsqt),
    math("sin", 1, sin),
    math("cos", 1, cos),
    math("pow", 2, pow),
    math("fdiv", 2, fdiv),
    math("idiv", 2, idiv),
    math("iqot", 2, iqot),
    math("irem", 2, irem),
    math("invm", 2, fdiv),
    math("rsqtm", 1, sqt),
];

/// The row of `op` (and its `math` function or `bfn` function `subop`).
pub fn find(op: &str, subop: Option<&str>) -> Option<&'static Op> {
    if op == "bfn" {
        return bfn_function(subop?).map(|f| &BFN[f as usize / 16][f as usize % 16]);
    }
    OPS.iter()
        .find(|o| o.mnemonic == op && (o.class != Class::Math || o.subop == subop))
}

/// The row an instruction of a `platform` listing executes: [`find`]'s, except
/// that before XeHPC a `mach` without `{AccWrEn}` leaves the product's low half in
/// its destination (IGC's dword multiply `mul acc0 ..:uw; mach dst`, which XeHPC
/// spells `macl`), while with `{AccWrEn}` (IGC's `mulh`) it leaves the high half.
pub fn find_for(inst: &Instruction, platform: Gen) -> Option<&'static Op> {
    if inst.op == "mach" && !inst.has_opt("AccWrEn") && platform < Gen::XeHpc {
        return find("macl", None);
    }
    find(&inst.op, inst.subop.as_deref())
}

/// All rows (the `bfn` ones included), for listings and tests.
pub fn ops() -> impl Iterator<Item = &'static Op> {
    OPS.iter().chain(BFN.iter().flatten())
}

/// Applies a source modifier to a value of type `ty` read for `op`: logic ops
/// invert bits for a negation; others negate and take absolute values (integers
/// exactly, floats by their sign bit, NaNs included).
pub fn source_modifier(op: &Op, _ty: Type, m: SrcMod, v: Val) -> Val {
    match (op.class, m, v) {
        (_, SrcMod::None, v) => v,
        (Class::Logic, SrcMod::Neg | SrcMod::NegAbs, Val::I(i)) => Val::I(!i),
        (Class::Logic, _, v) => v,
        (_, SrcMod::Neg, Val::I(i)) => Val::I(-i),
        (_, SrcMod::Abs, Val::I(i)) => Val::I(i.abs()),
        (_, SrcMod::NegAbs, Val::I(i)) => Val::I(-i.abs()),
        (_, SrcMod::Neg, Val::F(f)) => Val::F(-f),
        (_, SrcMod::Abs, Val::F(f)) => Val::F(f.abs()),
        (_, SrcMod::NegAbs, Val::F(f)) => Val::F(-f.abs()),
    }
}

/// Whether a result meets `cm` (the flag a conditional modifier writes). `v` is the
/// exact result `eval` gave; the condition looks at it as a destination of type
/// `ty` holds it (integers wrapped, floats rounded; a NaN meets only `ne` and
/// `un`), except `ov`, which asks whether the exact result overflowed `ty`.
/// `eo` always holds (see the module doc on `invm`/`rsqtm`).
pub fn condition(cm: CondMod, v: Val, ty: Type) -> bool {
    let held = value::decode(ty, value::encode(ty, v, false));
    match cm {
        CondMod::Eo => true,
        CondMod::Un => matches!(held, Val::F(f) if f.is_nan()),
        CondMod::Ov => match v {
            Val::I(_) if !is_float(ty) => held != v,
            Val::F(f) => f.is_finite() && matches!(held, Val::F(h) if h.is_infinite()),
            Val::I(_) => false,
        },
        cm => {
            let zero = if is_float(ty) { Val::F(0.0) } else { Val::I(0) };
            cm.relation()
                .is_some_and(|rel| shared::compare(rel, held, zero))
        }
    }
}

/// `cmp` and `cmpn` (`op`'s row): whether `a cm b` holds for sources of type `ty`
/// (floats when `ty` or a value is one; a NaN compares unordered, meeting only `ne`
/// and `un`). `cmpn` is the NaN-aware compare min/max sequences use before `sel`:
/// true where src1 is a NaN and false where only src0 is, so the `sel` that follows
/// picks the number. For `sel` (`Class::Select`), whether src0 is the pick: float
/// `(lt)`/`(le)` and `(gt)`/`(ge)` pick as [`select`]'s min and max do.
pub fn compare_op(op: &Op, cm: CondMod, a: Val, b: Val, ty: Type) -> bool {
    let rule = match (op.class, op.mnemonic) {
        (Class::Select, _) => Nan::MinMax,
        (_, "cmpn") => Nan::Cmpn,
        _ => Nan::Unordered,
    };
    comparison(rule, cm, a, b, ty)
}

/// `cmp`: whether `a cm b` holds for sources of type `ty` ([`compare_op`] of a
/// `cmp` row).
pub fn compare(cm: CondMod, a: Val, b: Val, ty: Type) -> bool {
    comparison(Nan::Unordered, cm, a, b, ty)
}

/// `csel`: src0 where src2 meets the conditional modifier `cm` (against zero, as
/// [`condition`] asks), else src1. No flag is written.
pub fn csel(cm: CondMod, s: &[Val; 3], t: &Types) -> Val {
    if condition(cm, s[2], t.src[2]) {
        s[0]
    } else {
        s[1]
    }
}

/// How a comparison treats NaN operands.
#[derive(Clone, Copy, PartialEq)]
enum Nan {
    /// `cmp`: unordered.
    Unordered,
    /// `cmpn`: a NaN src1 makes it hold, a NaN src0 (only) fail.
    Cmpn,
    /// `sel`: float `(lt)`/`(le)`/`(gt)`/`(ge)` pick src0 when it is the min/max.
    MinMax,
}

fn comparison(rule: Nan, cm: CondMod, a: Val, b: Val, ty: Type) -> bool {
    if !is_float(ty) {
        return relation(cm, a, b);
    }
    let (x, y) = (flt(a), flt(b));
    match (rule, cm) {
        (Nan::MinMax, CondMod::Lt | CondMod::Le | CondMod::Gt | CondMod::Ge) => {
            let max = matches!(cm, CondMod::Gt | CondMod::Ge);
            let pick = shared::float_min_max(max, x, y);
            pick.to_bits() == x.to_bits() || (pick.is_nan() && x.is_nan())
        }
        (Nan::Cmpn, cm) if cm != CondMod::Un && (x.is_nan() || y.is_nan()) => y.is_nan(),
        _ => relation(cm, Val::F(x), Val::F(y)),
    }
}

/// `a cm b` as `cmp` compares.
fn relation(cm: CondMod, a: Val, b: Val) -> bool {
    let nan = |v: Val| matches!(v, Val::F(f) if f.is_nan());
    match cm {
        CondMod::Un => nan(a) || nan(b),
        CondMod::Ov | CondMod::Eo => false,
        cm => cm.relation().is_some_and(|rel| shared::compare(rel, a, b)),
    }
}

/// `sel` with a conditional modifier, as a value: src0 where [`compare_op`] picks it,
/// else src1 (float min/max with the NaN and signed-zero rules of
/// [`shared::float_min_max`]).
pub fn select(cm: CondMod, a: Val, b: Val, ty: Type) -> Val {
    if comparison(Nan::MinMax, cm, a, b, ty) {
        a
    } else {
        b
    }
}

/// A `dp2`/`dp3`/`dp4`/`dph` result for one group of 4 channels: the sum of the
/// products of `a`'s and `b`'s components (`dph`: of three, plus `b`'s fourth),
/// each step `op`'s `eval` (a fused multiply-add), the sum rounded to the
/// destination.
pub fn dot(op: &Op, t: &Types, mode: FloatMode, a: &[Val; 4], b: &[Val; 4]) -> Val {
    let (n, homogeneous) = match op.mnemonic {
        "dp2" => (2, false),
        "dp3" => (3, false),
        "dph" => (3, true),
        _ => (4, false),
    };
    let mut sum = if homogeneous { b[3] } else { Val::F(0.0) };
    for k in 0..n {
        sum = (op.eval)(t, mode, &[a[k], b[k], sum], sum).value;
    }
    sum
}

// ---- helpers ----

fn out(value: Val) -> Output {
    Output { value, acc: None }
}

fn bits(t: Type) -> u32 {
    t.size().unwrap_or(4) as u32 * 8
}

fn is_float_op(t: &Types, n: usize) -> bool {
    t.src[..n].iter().any(|&s| is_float(s))
}

/// A float operand as arithmetic reads it: denormals flushed when the mode says so.
fn operand(t: &Types, mode: FloatMode, s: &[Val; 3], k: usize) -> f64 {
    mode.operand(t.src[k], flt(s[k]))
}

/// A float result, rounded to the destination by the mode (sums already rounded to
/// odd, so a directed rounding of them is exact).
fn float_result(t: &Types, mode: FloatMode, v: f64) -> Val {
    Val::F(mode.result(t.dst, v))
}

/// An integer result; into a float destination it converts (rounded by the mode).
fn int_result(t: &Types, mode: FloatMode, v: i128) -> Val {
    if is_float(t.dst) {
        Val::F(mode.result(t.dst, v as f64))
    } else {
        Val::I(v)
    }
}

/// A binary op that is an integer op or a float op by its sources.
fn binary(
    t: &Types,
    mode: FloatMode,
    s: &[Val; 3],
    i: fn(i128, i128) -> i128,
    f: fn(f64, f64) -> f64,
) -> Output {
    out(if is_float_op(t, 2) {
        float_result(t, mode, f(operand(t, mode, s, 0), operand(t, mode, s, 1)))
    } else {
        int_result(t, mode, i(int(s[0]), int(s[1])))
    })
}

/// A float-only op of one source.
fn unary_float(t: &Types, mode: FloatMode, s: &[Val; 3], f: fn(f64) -> f64) -> Output {
    out(float_result(t, mode, f(operand(t, mode, s, 0))))
}

// ---- moves and selects ----

/// `mov`/`movi`: the value converts to the destination type when stored (floats to
/// integers truncate and saturate); a float destination of another type rounds it
/// by the mode. No denormal flushing: a move is not arithmetic.
fn mov(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(match s[0] {
        Val::F(f) if is_float(t.dst) && t.dst != t.src[0] => Val::F(mode.result(t.dst, f)),
        Val::I(i) if is_float(t.dst) => Val::F(mode.result(t.dst, i as f64)),
        v => v,
    })
}

fn first(_: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(s[0])
}

// ---- logic and bits ----

fn not(_: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(Val::I(!int(s[0])))
}
fn and(_: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(Val::I(int(s[0]) & int(s[1])))
}
fn or(_: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(Val::I(int(s[0]) | int(s[1])))
}
fn xor(_: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(Val::I(int(s[0]) ^ int(s[1])))
}
/// `shl`: the count's low 6 bits when the source or the destination is a qword.
fn shl(t: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    let width = bits(t.src[0]).max(bits(t.dst));
    out(Val::I(shared::shl(int(s[0]), int(s[1]), width)))
}
/// `shr`: bytes execute as words, so a byte source shifts in its word's zeros.
fn shr(t: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(Val::I(shared::shr(
        int(s[0]),
        int(s[1]),
        bits(t.src[0]).max(16),
    )))
}
fn asr(t: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(Val::I(shared::asr(int(s[0]), int(s[1]), bits(t.src[0]))))
}
fn rol(t: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(Val::I(shared::rotate(
        int(s[0]),
        int(s[1]),
        bits(t.src[0]),
        true,
    )))
}
fn ror(t: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(Val::I(shared::rotate(
        int(s[0]),
        int(s[1]),
        bits(t.src[0]),
        false,
    )))
}
fn bfrev(_: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(Val::I(shared::bfrev(int(s[0]))))
}
/// `bfe`: width src0, offset src1, value src2; signed when src2's type is.
fn bfe(t: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    let signed = !is_unsigned(t.src[2]);
    out(Val::I(shared::bfe(int(s[0]), int(s[1]), int(s[2]), signed)))
}
/// `bfi1`: the mask of width src0 at offset src1.
fn bfi1(_: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(Val::I(shared::bfi_mask(int(s[0]), int(s[1]))))
}
/// `bfi2`: src1 moved to the mask src0's lowest bit, inside the mask, over src2.
fn bfi2(_: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(Val::I(shared::bfi_merge(int(s[0]), int(s[1]), int(s[2]))))
}
fn fbh(t: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(Val::I(shared::fbh(int(s[0]), !is_unsigned(t.src[0]))))
}
fn fbl(_: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(Val::I(shared::fbl(int(s[0]))))
}
fn cbit(t: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(Val::I(shared::cbit(int(s[0]), bits(t.src[0]))))
}
fn lzd(_: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(Val::I(shared::lzd(int(s[0]))))
}

/// `bfn` with truth table `T`.
fn bfn<const T: u8>(_: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(Val::I(shared::bfn(T, int(s[0]), int(s[1]), int(s[2]))))
}

const fn bfn_row<const T: u8>() -> Op {
    Op {
        function: T,
        ..row("bfn", 3, Logic, bfn::<T>)
    }
}

macro_rules! bfn_rows {
    ($($hi:literal)*) => {
        [$(bfn_rows!(@row $hi; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)),*]
    };
    (@row $hi:literal; $($lo:literal)*) => {
        [$(bfn_row::<{ $hi * 16 + $lo }>()),*]
    };
}

/// `bfn`'s rows, one per truth table (`BFN[t / 16][t % 16]`).
static BFN: [[Op; 16]; 16] = bfn_rows!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);

/// `bfn`'s truth table from IGA's spelling of it: a hexadecimal byte (`0xCA`) or an
/// expression in `s0`, `s1`, `s2` with `~`, `&`, `^`, `|` (C precedence) and
/// parentheses, e.g. `(s0&s1|~s0&s2)`.
pub fn bfn_function(text: &str) -> Option<u8> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        return u8::from_str_radix(hex, 16).ok();
    }
    let mut p = BfnParser {
        s: text.as_bytes(),
        at: 0,
        depth: 0,
    };
    let v = p.or()?;
    (p.at == p.s.len()).then_some(v)
}

/// Recursive descent over the expression, evaluating it on s0 = 0xAA, s1 = 0xCC,
/// s2 = 0xF0 (so the value is the table). Nesting is bounded: the text is input.
struct BfnParser<'a> {
    s: &'a [u8],
    at: usize,
    depth: u32,
}

impl BfnParser<'_> {
    fn peek(&mut self) -> Option<u8> {
        while self.s.get(self.at) == Some(&b' ') {
            self.at += 1;
        }
        self.s.get(self.at).copied()
    }
    fn binary(
        &mut self,
        op: u8,
        next: fn(&mut Self) -> Option<u8>,
        f: fn(u8, u8) -> u8,
    ) -> Option<u8> {
        let mut v = next(self)?;
        while self.peek() == Some(op) {
            self.at += 1;
            v = f(v, next(self)?);
        }
        Some(v)
    }
    fn or(&mut self) -> Option<u8> {
        self.binary(b'|', Self::xor, |a, b| a | b)
    }
    fn xor(&mut self) -> Option<u8> {
        self.binary(b'^', Self::and, |a, b| a ^ b)
    }
    fn and(&mut self) -> Option<u8> {
        self.binary(b'&', Self::unary, |a, b| a & b)
    }
    fn unary(&mut self) -> Option<u8> {
        self.depth += 1;
        if self.depth > 64 {
            return None;
        }
        let v = match self.peek()? {
            b'~' => {
                self.at += 1;
                !self.unary()?
            }
            b'(' => {
                self.at += 1;
                let v = self.or()?;
                (self.peek()? == b')').then_some(())?;
                self.at += 1;
                v
            }
            b's' => {
                let v = match self.s.get(self.at + 1)? {
                    b'0' => 0xAA,
                    b'1' => 0xCC,
                    b'2' => 0xF0,
                    _ => return None,
                };
                self.at += 2;
                v
            }
            _ => return None,
        };
        self.depth -= 1;
        Some(v)
    }
}

// ---- integer arithmetic with carries and wide products ----

/// `addc`: the low 32 bits of the unsigned sum; the carry goes to the accumulator.
fn addc(_: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    let sum = (int(s[0]) as u32 as i128) + (int(s[1]) as u32 as i128);
    Output {
        value: Val::I(sum & 0xFFFF_FFFF),
        acc: Some(Val::I(sum >> 32)),
    }
}

/// `subb`: the low 32 bits of the difference; the borrow (src0 < src1 unsigned)
/// goes to the accumulator.
fn subb(_: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    let (a, b) = (int(s[0]) as u32, int(s[1]) as u32);
    Output {
        value: Val::I(a.wrapping_sub(b) as i128),
        acc: Some(Val::I((a < b) as i128)),
    }
}

/// `add`: a float sum rounds to odd in `f64` first unless it is a DF result, so
/// the mode's rounding to F or HF is the correct one.
fn add(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    if t.dst == Type::DF {
        binary(t, mode, s, i128::wrapping_add, |a, b| a + b)
    } else {
        binary(t, mode, s, i128::wrapping_add, value::sum_to_odd)
    }
}

fn add3(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(int_result(
        t,
        mode,
        int(s[0]).wrapping_add(int(s[1])).wrapping_add(int(s[2])),
    ))
}

fn avg(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(int_result(t, mode, shared::avg(int(s[0]), int(s[1]))))
}

/// `mul`: integers exactly (the destination keeps its low bits: dword x dword into
/// a dword is the product's low 32 bits); f32 x f32 is exact in `f64`.
fn mul(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    binary(t, mode, s, i128::wrapping_mul, |a, b| a * b)
}

/// `mach`: the high 32 bits of the 64-bit product of two dwords (signed by their
/// types); see [`find_for`] for the form that keeps the low half. The `mul acc0` IGC emits before it computes the partial product of the
/// same operands, which the hardware finishes here; computing the whole product
/// from `mach`'s own sources gives the same result without a wide accumulator. The
/// accumulator gets the low 32 bits.
fn mach(_: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    let p = int(s[0]).wrapping_mul(int(s[1]));
    Output {
        value: Val::I(p >> 32),
        acc: Some(Val::I(p & 0xFFFF_FFFF)),
    }
}

/// `macl` (XeHPC): the low 32 bits of the product the `mul acc0` before it began.
fn macl(_: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(Val::I(int(s[0]).wrapping_mul(int(s[1]))))
}

/// `mad`/`madm`: src0 + src1 * src2, fused (one rounding).
fn mad(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(if is_float_op(t, 3) {
        let (c, a, b) = (
            operand(t, mode, s, 0),
            operand(t, mode, s, 1),
            operand(t, mode, s, 2),
        );
        fused(t, mode, a, b, c)
    } else {
        int_result(
            t,
            mode,
            int(s[1]).wrapping_mul(int(s[2])).wrapping_add(int(s[0])),
        )
    })
}

/// `a * b + c` rounded once to the destination.
fn fused(t: &Types, mode: FloatMode, a: f64, b: f64, c: f64) -> Val {
    let single = |v: f64| v.is_nan() || v as f32 as f64 == v;
    if t.dst != Type::DF && single(a) && single(b) {
        // The product of two f32 values is exact in f64; the sum rounds to odd.
        float_result(t, mode, value::sum_to_odd(a * b, c))
    } else {
        float_result(t, mode, a.mul_add(b, c))
    }
}

/// `mac`: the accumulator plus src0 * src1 (fused); the sum is also the new
/// accumulator (which the run loop writes when the instruction enables it).
fn mac(t: &Types, mode: FloatMode, s: &[Val; 3], acc: Val) -> Output {
    let value = if is_float_op(t, 2) {
        fused(
            t,
            mode,
            operand(t, mode, s, 0),
            operand(t, mode, s, 1),
            mode.operand(t.dst, flt(acc)),
        )
    } else {
        int_result(
            t,
            mode,
            int(s[0]).wrapping_mul(int(s[1])).wrapping_add(int(acc)),
        )
    };
    Output {
        value,
        acc: Some(value),
    }
}

/// `lrp`: src0 * src1 + (1 - src0) * src2.
fn lrp(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    let (a, b, c) = (
        operand(t, mode, s, 0),
        operand(t, mode, s, 1),
        operand(t, mode, s, 2),
    );
    out(float_result(t, mode, a * b + (1.0 - a) * c))
}

/// One step of a dot product: src2 (the sum so far) + src0 * src1, fused.
fn dot_step(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(fused(t, mode, flt(s[0]), flt(s[1]), flt(s[2])))
}

/// `dp4a`: src0 plus the dot product of src1's and src2's four bytes, each byte
/// signed when its source's type is.
fn dp4a(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    let byte = |v: Val, k: u32, signed: bool| {
        let b = (int(v) >> (8 * k)) & 0xFF;
        if signed {
            b as u8 as i8 as i128
        } else {
            b
        }
    };
    let (sa, sb) = (!is_unsigned(t.src[1]), !is_unsigned(t.src[2]));
    let dot: i128 = (0..4).map(|k| byte(s[1], k, sa) * byte(s[2], k, sb)).sum();
    out(int_result(t, mode, int(s[0]).wrapping_add(dot)))
}

// ---- float rounding ----

fn frc(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    unary_float(t, mode, s, |a| a - a.floor())
}
fn rndd(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    unary_float(t, mode, s, f64::floor)
}
fn rnde(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    unary_float(t, mode, s, f64::round_ties_even)
}
fn rndu(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    unary_float(t, mode, s, f64::ceil)
}
fn rndz(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    unary_float(t, mode, s, f64::trunc)
}

/// `srnd`: stochastic rounding of src0 (f32) to the destination (hf or bf): src1's
/// random bits (as its type encodes them) are added to the bits the narrowing drops, then the value truncates
/// (toward zero); an overflow becomes an infinity, NaNs and infinities stay.
fn srnd(t: &Types, _: FloatMode, s: &[Val; 3], _: Val) -> Output {
    let f = flt(s[0]) as f32;
    if !f.is_finite() {
        return out(Val::F(f as f64));
    }
    let dropped = if t.dst == Type::BF { 16 } else { 13 };
    // The random operand is typed like the value; its bits are what counts (the
    // low ones a NaN's quieting would not touch).
    let random = (value::encode(t.src[1], s[1], false) as u32) & ((1 << dropped) - 1);
    let bits = f.to_bits();
    let (sign, magnitude) = (bits & 0x8000_0000, bits & 0x7FFF_FFFF);
    let nudged = f32::from_bits(sign | magnitude.saturating_add(random).min(0x7F80_0000));
    let v = if t.dst == Type::BF {
        f32::from_bits(nudged.to_bits() & 0xFFFF_0000) as f64
    } else {
        half_toward_zero(nudged)
    };
    out(Val::F(v))
}

/// `f` truncated toward zero to a half; past the largest half it is an infinity
/// (as `srnd` gives for `f32::MAX`).
fn half_toward_zero(f: f32) -> f64 {
    let bits = value::f32_to_f16(f);
    let nearest = value::f16_to_f32(bits);
    let h = if nearest.is_finite() && nearest.abs() > f.abs() {
        // Rounded away from zero: one step back (the magnitude is not zero).
        value::f16_to_f32(bits - 1)
    } else {
        nearest
    };
    h as f64
}

// ---- math ----

fn inv(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    unary_float(t, mode, s, |a| 1.0 / a)
}
fn log(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    unary_float(t, mode, s, f64::log2)
}
fn exp(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    unary_float(t, mode, s, f64::exp2)
}
fn sqt(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    unary_float(t, mode, s, f64::sqrt)
}
fn rsqt(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    unary_float(t, mode, s, |a| 1.0 / a.sqrt())
}
fn sin(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    unary_float(t, mode, s, f64::sin)
}
fn cos(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    unary_float(t, mode, s, f64::cos)
}
fn pow(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(float_result(
        t,
        mode,
        operand(t, mode, s, 0).powf(operand(t, mode, s, 1)),
    ))
}
/// `fdiv` and `invm` (whose early-out result is the quotient): src0 / src1.
fn fdiv(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(float_result(
        t,
        mode,
        operand(t, mode, s, 0) / operand(t, mode, s, 1),
    ))
}
/// `iqot`: the quotient, truncated; by zero all ones ([`shared::int_divide`]).
fn iqot(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(int_result(
        t,
        mode,
        shared::int_divide(int(s[0]), int(s[1]), false),
    ))
}
/// `irem`: the remainder, with the dividend's sign; by zero the dividend.
fn irem(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    out(int_result(
        t,
        mode,
        shared::int_divide(int(s[0]), int(s[1]), true),
    ))
}
/// `idiv`: the quotient; the remainder, which the hardware writes to the register
/// after the destination, is in `acc`.
fn idiv(t: &Types, mode: FloatMode, s: &[Val; 3], _: Val) -> Output {
    Output {
        value: iqot(t, mode, s, Val::I(0)).value,
        acc: Some(irem(t, mode, s, Val::I(0)).value),
    }
}
