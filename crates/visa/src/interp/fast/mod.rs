//! The translated execution engine: each routine is lowered once, before the run,
//! into [`Op`]s whose operands are byte offsets in the thread's register file
//! (regions expanded into the scalar, contiguous or per-channel-table cases), whose
//! lane types are fixed per instruction, whose predicates are indices into the
//! thread's predicate words and whose labels are program counters. Executing an op
//! is then a loop over native lanes with no lookup by field name and no per-element
//! type dispatch.
//!
//! An instruction is lowered only when everything it can do is decided before the
//! run: its registers lie inside the register file, its exec size and mask fit, its
//! predicate is declared. Everything else (and every instruction under `--trace`)
//! runs on the generic path (`exec.rs`) over the same register bytes, so the two
//! interleave per instruction and an instruction that would fail is reported by the
//! generic path with its usual message. The ops compute exactly what the generic
//! path computes (integers of at most 32 bits in `i64` lanes, which hold every
//! intermediate the generic `i128` arithmetic keeps in the low 32 bits; floats in
//! `f64` lanes, the generic path's own precision, or in `f32` lanes for add, mul,
//! mov and the fused mad of f32 operands, whose results are the same), which
//! `tests/interp_translated.rs` checks instruction by instruction. Branches are
//! followed in the same run, so a loop of lowered instructions never leaves it.
// Channel loops index per-channel arrays and bit masks by the same channel number.
#![allow(clippy::needless_range_loop)]

mod lower;
mod memory;

use super::memory::Memory;
use super::value::{fma_f32, mad};
use super::Thread;
use crate::semantics::PredControl;

pub(crate) use lower::lower;

/// The lowered instructions of a program, indexed by program counter; `None` where
/// the generic path runs.
#[derive(Default)]
pub(crate) struct Code {
    ops: Vec<Option<Op>>,
}

impl Code {
    /// The lowered op at `pc`, if any.
    #[inline]
    pub(crate) fn at(&self, pc: u32) -> Option<&Op> {
        self.ops.get(pc as usize)?.as_ref()
    }
}

/// Runs translated ops from program counter `pc` (the lowest of the thread's
/// channels, `active` the channels there) for as long as the next instruction is
/// lowered, following branches. False when the op at `pc` is not lowered, or is the
/// one that reaches the instruction limit: the generic path runs it (and reports
/// the limit).
#[allow(clippy::too_many_arguments)]
pub(crate) fn run(
    p: &super::Program,
    th: &mut Thread,
    mem: &Memory,
    slm: &mut [u8],
    scratch: &mut Scratch,
    simd: usize,
    mut pc: u32,
    mut active: u32,
    stats: &mut super::Stats,
    max_instructions: u64,
) -> bool {
    let mut ran = false;
    // Counted here and written back once: the loop touches no memory it needn't.
    let (mut instructions, mut channel_instructions) =
        (stats.instructions, stats.channel_instructions);
    // Channels that wait at a later instruction and the nearest such instruction;
    // while the active channels run, their program counters are written only when
    // the run stops.
    let (mut waiting, mut meet) = waiting(th, simd, active);
    // The active channels' count, kept with them (a popcount is a dozen instructions
    // where the build assumes no POPCNT).
    let mut lanes = u64::from(active.count_ones());
    while let Some(op) = p.fast.at(pc) {
        if instructions >= max_instructions {
            break;
        }
        let next = op.run(th, mem, slm, scratch, active, pc);
        if let Next::Generic = next {
            // The generic path runs it (and reports what is wrong).
            break;
        }
        instructions += 1;
        channel_instructions += lanes;
        ran = true;
        if let Next::Jump(target) = next {
            pc = target;
            if pc < meet {
                // Still the lowest: no channel waits between here and the next meeting.
                continue;
            }
            // Past a waiting channel: the program counters go back to the thread, and
            // the lowest of them runs next.
            let mut left = active;
            while left != 0 {
                th.pc[left.trailing_zeros() as usize] = pc;
                left &= left - 1;
            }
        }
        if let Next::Jump(_) | Next::Moved = next {
            // Every channel's program counter is current: go on at the lowest.
            let Some(lowest) = th.pc[..simd]
                .iter()
                .copied()
                .filter(|p| *p != super::DONE)
                .min()
            else {
                active = 0;
                break;
            };
            pc = lowest;
            active = (0..simd)
                .filter(|c| th.pc[*c] == pc)
                .fold(0, |m, c| m | (1 << c));
            (waiting, meet) = self::waiting(th, simd, active);
            lanes = u64::from(active.count_ones());
            continue;
        }
        // The active channels move on and meet any that wait at the next instruction.
        pc += 1;
        if pc == meet {
            let mut left = waiting;
            meet = super::DONE;
            while left != 0 {
                let c = left.trailing_zeros();
                left &= left - 1;
                let at = th.pc[c as usize];
                if at == pc {
                    active |= 1 << c;
                    waiting &= !(1 << c);
                } else {
                    meet = meet.min(at);
                }
            }
            lanes = u64::from(active.count_ones());
        }
    }
    stats.instructions = instructions;
    stats.channel_instructions = channel_instructions;
    let mut left = active;
    while left != 0 {
        th.pc[left.trailing_zeros() as usize] = pc;
        left &= left - 1;
    }
    ran
}

/// The live channels outside `active`, and the lowest program counter they wait at
/// (`DONE` when there are none).
fn waiting(th: &Thread, simd: usize, active: u32) -> (u32, u32) {
    let (mut waiting, mut meet) = (0u32, super::DONE);
    for (c, at) in th.pc[..simd].iter().enumerate() {
        if *at != super::DONE && active & (1 << c) == 0 {
            waiting |= 1 << c;
            meet = meet.min(*at);
        }
    }
    (waiting, meet)
}

/// The element type of a register operand, as lanes see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lane {
    B,
    UB,
    W,
    UW,
    D,
    UD,
    F,
}

impl Lane {
    fn size(self) -> usize {
        match self {
            Lane::B | Lane::UB => 1,
            Lane::W | Lane::UW => 2,
            Lane::D | Lane::UD | Lane::F => 4,
        }
    }
    fn is_float(self) -> bool {
        self == Lane::F
    }
    /// The integer range of the type (the float-to-integer conversion clamps to it).
    fn range(self) -> (f64, f64) {
        match self {
            Lane::B => (i8::MIN as f64, i8::MAX as f64),
            Lane::UB => (0.0, u8::MAX as f64),
            Lane::W => (i16::MIN as f64, i16::MAX as f64),
            Lane::UW => (0.0, u16::MAX as f64),
            Lane::D => (i32::MIN as f64, i32::MAX as f64),
            Lane::UD => (0.0, u32::MAX as f64),
            Lane::F => (f64::MIN, f64::MAX),
        }
    }
}

/// Where an operand's channels are in the register file.
#[derive(Clone, Debug)]
pub(crate) enum Place {
    /// Every channel reads the one element at this byte.
    Scalar(u32),
    /// Channel `c` is at byte `at + c * size`.
    Contiguous(u32),
    /// Channel `c` is at byte `table[c]`.
    Table(Box<[u32]>),
}

impl Place {
    #[inline]
    fn at(&self, c: usize, size: usize) -> usize {
        match self {
            Place::Scalar(a) => *a as usize,
            Place::Contiguous(a) => *a as usize + c * size,
            Place::Table(t) => t[c] as usize,
        }
    }
}

/// A register operand.
#[derive(Clone, Debug)]
pub(crate) struct Reg {
    pub place: Place,
    pub ty: Lane,
}

/// A source modifier (vISA's `(-)`, `(abs)`, `(-abs)`, `~`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Modifier {
    None,
    Abs,
    Neg,
    NegAbs,
    Not,
}

#[derive(Clone, Debug)]
pub(crate) enum Src {
    Reg(Reg, Modifier),
    /// An integer immediate (modifier applied) and its type's width in bits.
    Int(i64, u32),
    /// A float immediate (modifier applied).
    Float(f64),
    /// A predicate: its index in [`Thread::preds`] (`None` for P0, always false),
    /// read per channel, or whole when the instruction has one channel.
    Pred(Option<usize>),
}

impl Src {
    fn is_float(&self) -> bool {
        match self {
            Src::Reg(r, _) => r.ty.is_float(),
            Src::Float(_) => true,
            _ => false,
        }
    }
    /// The element size in bits (shifts mask by it, `shr` zero-extends from it).
    fn bits(&self) -> u32 {
        match self {
            Src::Reg(r, _) => r.ty.size() as u32 * 8,
            Src::Int(_, bits) => *bits,
            _ => 32,
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) enum Dst {
    Reg(Reg, bool),
    Pred(Option<usize>),
}

/// The predicate an instruction is guarded by.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Guard {
    /// Index in [`Thread::preds`]; `None` for P0 (no bit set).
    pub index: Option<usize>,
    pub control: PredControl,
    pub inverse: bool,
}

/// Exec size and mask control, decided once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ctl {
    pub exec: u32,
    /// Bits `0..exec`.
    pub channels: u32,
    /// The mask control's offset (bit of channel 0 in the execution and predicate masks).
    pub offset: u32,
    pub no_mask: bool,
    pub guard: Option<Guard>,
}

impl Ctl {
    /// The predicate's per-channel bits over the instruction's channels (`EvaluateChEn`'s
    /// predicate term), all channels when there is none.
    #[inline]
    fn pred_mask(&self, preds: &[u32]) -> u32 {
        let Some(g) = self.guard else {
            return self.channels;
        };
        let bits = g.index.map_or(0, |i| preds[i]);
        let mut p = (bits >> self.offset) & self.channels;
        p = match g.control {
            PredControl::Sequential => p,
            PredControl::Any => {
                if p != 0 {
                    self.channels
                } else {
                    0
                }
            }
            PredControl::All => {
                if p == self.channels {
                    self.channels
                } else {
                    0
                }
            }
        };
        if g.inverse {
            p = !p;
        }
        p & self.channels
    }

    /// The channel enables, with or without the predicate.
    #[inline]
    fn enables(&self, active: u32, preds: &[u32], with_pred: bool) -> u32 {
        let mut en = if self.no_mask {
            self.channels
        } else {
            (active >> self.offset) & self.channels
        };
        if with_pred {
            en &= self.pred_mask(preds);
        }
        en & self.channels
    }
}

/// What an ALU op computes per channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Alu {
    Mov,
    Add,
    Add3,
    Mul,
    Mad,
    /// `mad` into an f32 destination (`value::mad`: the f32 fused result).
    MadF32,
    Avg,
    And,
    Or,
    Xor,
    Not,
    Shl,
    Shr,
    Asr,
    Min,
    Max,
    Div,
    Inv,
    Sqrt,
    Rsqrt,
    Rndd,
    Rndu,
    Rndz,
    Rnde,
    Frc,
    Lrp,
}

impl Alu {
    /// How many sources the op takes, and whether it is lowered on float lanes and on
    /// integer lanes (what the generic path computes in each).
    pub(crate) fn shape(self) -> (usize, bool, bool) {
        use Alu::*;
        match self {
            Mov => (1, true, true),
            Not => (1, false, true),
            Inv | Sqrt | Rsqrt | Rndd | Rndu | Rndz | Rnde | Frc => (1, true, false),
            Add | Mul | Min | Max => (2, true, true),
            Div => (2, true, false),
            Avg | And | Or | Xor | Shl | Shr | Asr => (2, false, true),
            Mad => (3, true, true),
            MadF32 | Lrp => (3, true, false),
            Add3 => (3, false, true),
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) enum Op {
    /// Labels, fences and source positions: nothing to do.
    Nop,
    /// An ALU instruction; `float` chooses `f64` lanes (any float operand), else `i64`.
    Alu {
        alu: Alu,
        float: bool,
        /// Every operand an f32 register or immediate and the operation one whose f32
        /// result is the rounded f64 one (add, mul, mov): `f32` lanes.
        single: bool,
        ctl: Ctl,
        srcs: Box<[Src]>,
        dst: Dst,
    },
    /// `cmp`: relation code 0-5 (eq ne gt ge lt le).
    Cmp {
        relop: u8,
        float: bool,
        /// Both operands f32: compared in `f32` lanes.
        single: bool,
        ctl: Ctl,
        srcs: Box<[Src; 2]>,
        dst: Dst,
    },
    /// `sel`: src0 where the predicate holds, else src1.
    Sel {
        float: bool,
        ctl: Ctl,
        srcs: Box<[Src; 2]>,
        dst: Dst,
    },
    /// mov, and, or, xor or not of predicates into a predicate, over several
    /// channels: on the predicate words' bits (indices as in [`Src::Pred`]).
    Flags {
        alu: Alu,
        ctl: Ctl,
        srcs: [Option<usize>; 2],
        dst: Option<usize>,
    },
    /// `movs` to a surface or sampler variable (index checked against the thread's).
    SetState {
        ctl: Ctl,
        sampler: bool,
        index: usize,
        src: Src,
    },
    /// A gather, scatter or atomic through a surface.
    Memory(Box<memory::Access>),
    /// goto/jmp: `uniform` when every active channel follows channel 0's predicate.
    Branch {
        ctl: Ctl,
        target: u32,
        uniform: bool,
    },
}

/// What an op did to the channels' program counters.
pub(crate) enum Next {
    /// The active channels go on to the next instruction.
    Fall,
    /// Every active channel goes to this program counter.
    Jump(u32),
    /// The op moved the program counters itself (the channels went apart).
    Moved,
    /// The op did nothing: a memory access it cannot prove in bounds, left to the
    /// generic path, which reports it.
    Generic,
}

type Ints = [i64; 32];
type Floats = [f64; 32];
type Singles = [f32; 32];

/// The lanes of an op's sources and result, set up once per thread's run.
pub(crate) struct Scratch {
    ints: [Ints; 4],
    floats: [Floats; 4],
    single: [Singles; 4],
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            ints: [[0; 32]; 4],
            floats: [[0.0; 32]; 4],
            single: [[0.0; 32]; 4],
        }
    }
}

macro_rules! read_lanes {
    ($grf:expr, $place:expr, $n:expr, $out:expr, $conv:expr, $size:expr, $from:expr) => {{
        let g: &[u8] = $grf;
        let conv = $conv;
        let from = $from;
        match $place {
            Place::Scalar(a) => {
                let a = *a as usize;
                let v = conv(from(&g[a..a + $size]));
                $out[..$n].fill(v);
            }
            Place::Contiguous(a) => {
                let a = *a as usize;
                for (o, b) in $out[..$n]
                    .iter_mut()
                    .zip(g[a..a + $n * $size].chunks_exact($size))
                {
                    *o = conv(from(b));
                }
            }
            Place::Table(t) => {
                for (o, at) in $out[..$n].iter_mut().zip(t.iter()) {
                    let a = *at as usize;
                    *o = conv(from(&g[a..a + $size]));
                }
            }
        }
    }};
}

fn b1(b: &[u8]) -> u8 {
    b[0]
}
fn b2(b: &[u8]) -> u16 {
    u16::from_le_bytes([b[0], b[1]])
}
fn b4(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

impl Reg {
    /// The first `n` channels as integers (sign- or zero-extended by the type).
    fn ints(&self, grf: &[u8], n: usize, out: &mut Ints) {
        match self.ty {
            Lane::B => read_lanes!(grf, &self.place, n, out, |v: u8| v as i8 as i64, 1, b1),
            Lane::UB => read_lanes!(grf, &self.place, n, out, |v: u8| v as i64, 1, b1),
            Lane::W => read_lanes!(grf, &self.place, n, out, |v: u16| v as i16 as i64, 2, b2),
            Lane::UW => read_lanes!(grf, &self.place, n, out, |v: u16| v as i64, 2, b2),
            Lane::D => read_lanes!(grf, &self.place, n, out, |v: u32| v as i32 as i64, 4, b4),
            Lane::UD => read_lanes!(grf, &self.place, n, out, |v: u32| v as i64, 4, b4),
            Lane::F => read_lanes!(
                grf,
                &self.place,
                n,
                out,
                |v: u32| f32::from_bits(v) as f64 as i64,
                4,
                b4
            ),
        }
    }
    /// The first `n` channels of a float register.
    fn floats(&self, grf: &[u8], n: usize, out: &mut Floats) {
        read_lanes!(
            grf,
            &self.place,
            n,
            out,
            |v: u32| f32::from_bits(v) as f64,
            4,
            b4
        )
    }
}

impl Src {
    #[inline]
    fn ints(&self, th: &Thread, n: usize, offset: u32, out: &mut Ints) {
        match self {
            Src::Reg(r, m) => {
                r.ints(&th.grf, n, out);
                int_modifier(*m, &mut out[..n]);
            }
            Src::Int(v, _) => out[..n].fill(*v),
            Src::Float(v) => out[..n].fill(*v as i64),
            Src::Pred(i) => {
                let bits = i.map_or(0, |i| th.preds[i]) >> offset;
                if n == 1 {
                    out[0] = bits as i64;
                } else {
                    for (c, o) in out[..n].iter_mut().enumerate() {
                        *o = ((bits >> c) & 1) as i64;
                    }
                }
            }
        }
    }
    #[inline]
    fn floats(&self, th: &Thread, n: usize, out: &mut Floats) {
        match self {
            Src::Reg(r, m) if r.ty.is_float() => {
                r.floats(&th.grf, n, out);
                float_modifier(*m, &mut out[..n], f64::abs);
            }
            Src::Reg(r, m) => {
                let mut ints = [0i64; 32];
                r.ints(&th.grf, n, &mut ints);
                int_modifier(*m, &mut ints[..n]);
                for (o, i) in out[..n].iter_mut().zip(&ints[..n]) {
                    *o = *i as f64;
                }
            }
            Src::Int(v, _) => out[..n].fill(*v as f64),
            Src::Float(v) => out[..n].fill(*v),
            // Lowering keeps predicates out of float instructions.
            Src::Pred(_) => out[..n].fill(0.0),
        }
    }
}

impl Src {
    /// An f32 operand's lanes (lowering gives `single` ops f32 operands only).
    fn singles(&self, th: &Thread, n: usize, out: &mut Singles) {
        match self {
            Src::Reg(r, m) => {
                read_lanes!(&th.grf, &r.place, n, out, f32::from_bits, 4, b4);
                float_modifier(*m, &mut out[..n], f32::abs);
            }
            Src::Float(v) => out[..n].fill(*v as f32),
            _ => out[..n].fill(0.0),
        }
    }
}

/// Add, mul, mad and mov in f32: the same results as in f64 rounded to f32 (the
/// exact sum or product of two f32 values rounds the same either way; mad is
/// `value::mad`'s f32 fused result; mov quiets a signalling NaN as the conversion to
/// f64 does).
fn single_alu(alu: Alu, a: &Singles, b: &Singles, x: &Singles, out: &mut [f32]) {
    match alu {
        Alu::MadF32 => out
            .iter_mut()
            .enumerate()
            .for_each(|(c, o)| *o = fma_f32(a[c], b[c], x[c])),
        Alu::Add => out
            .iter_mut()
            .enumerate()
            .for_each(|(c, o)| *o = a[c] + b[c]),
        Alu::Mul => out
            .iter_mut()
            .enumerate()
            .for_each(|(c, o)| *o = a[c] * b[c]),
        // The generic path's round trip through f64 quiets a signalling NaN.
        _ => out.iter_mut().enumerate().for_each(|(c, o)| {
            *o = if a[c].is_nan() {
                f32::from_bits(a[c].to_bits() | 0x0040_0000)
            } else {
                a[c]
            }
        }),
    }
}

/// A source modifier on float lanes (`~` leaves floats alone, as in the generic path).
fn float_modifier<T: Copy + std::ops::Neg<Output = T>>(m: Modifier, v: &mut [T], abs: fn(T) -> T) {
    match m {
        Modifier::Abs => v.iter_mut().for_each(|x| *x = abs(*x)),
        Modifier::Neg => v.iter_mut().for_each(|x| *x = -*x),
        Modifier::NegAbs => v.iter_mut().for_each(|x| *x = -abs(*x)),
        Modifier::None | Modifier::Not => {}
    }
}

fn int_modifier(m: Modifier, v: &mut [i64]) {
    match m {
        Modifier::None => {}
        Modifier::Abs => v.iter_mut().for_each(|x| *x = x.abs()),
        Modifier::Neg => v.iter_mut().for_each(|x| *x = x.wrapping_neg()),
        Modifier::NegAbs => v.iter_mut().for_each(|x| *x = -x.abs()),
        Modifier::Not => v.iter_mut().for_each(|x| *x = !*x),
    }
}

/// Stores the low bytes of `bits[c]` for every enabled channel.
#[inline]
fn store(grf: &mut [u8], reg: &Reg, n: usize, chen: u32, bits: impl Fn(usize) -> u32) {
    match reg.ty.size() {
        4 => store_sized::<4>(grf, &reg.place, n, chen, bits),
        2 => store_sized::<2>(grf, &reg.place, n, chen, bits),
        _ => store_sized::<1>(grf, &reg.place, n, chen, bits),
    }
}

/// [`store`] of `SIZE`-byte elements: copies of a size known here, not calls to
/// `memmove`, and only the enabled channels visited.
#[inline]
fn store_sized<const SIZE: usize>(
    grf: &mut [u8],
    place: &Place,
    n: usize,
    chen: u32,
    bits: impl Fn(usize) -> u32,
) {
    // Every channel of the op enabled (`u32::MAX` at 32 channels: a shift by 32 would
    // overflow, and a partial work-group of a SIMD32 launch enables only some).
    let all = chen == u32::MAX >> (32 - n);
    if let (Place::Contiguous(a), true) = (place, all) {
        let a = *a as usize;
        for (c, d) in grf[a..a + SIZE * n].chunks_exact_mut(SIZE).enumerate() {
            d.copy_from_slice(&bits(c).to_le_bytes()[..SIZE]);
        }
        return;
    }
    let mut left = chen;
    while left != 0 {
        let c = left.trailing_zeros() as usize;
        left &= left - 1;
        let at = place.at(c, SIZE);
        grf[at..at + SIZE].copy_from_slice(&bits(c).to_le_bytes()[..SIZE]);
    }
}

impl Dst {
    fn store_ints(&self, th: &mut Thread, ctl: &Ctl, chen: u32, v: &Ints) {
        let n = ctl.exec as usize;
        match self {
            Dst::Reg(r, _) => store(&mut th.grf, r, n, chen, |c| v[c] as u32),
            Dst::Pred(None) => {}
            Dst::Pred(Some(i)) => {
                if n == 1 {
                    if chen & 1 != 0 {
                        th.preds[*i] = (v[0] as u32) << ctl.offset;
                    }
                    return;
                }
                let mut bits = th.preds[*i];
                for c in 0..n {
                    if chen & (1 << c) != 0 {
                        let b = ctl.offset + c as u32;
                        bits = (bits & !(1 << b)) | (((v[c] & 1) as u32) << b);
                    }
                }
                th.preds[*i] = bits;
            }
        }
    }

    fn store_floats(&self, th: &mut Thread, ctl: &Ctl, chen: u32, v: &Floats) {
        let n = ctl.exec as usize;
        // Lowering gives float instructions register destinations only.
        let Dst::Reg(r, sat) = self else { return };
        if r.ty.is_float() {
            if *sat {
                let clamp = |f: f64| if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
                store(&mut th.grf, r, n, chen, |c| (clamp(v[c]) as f32).to_bits());
            } else {
                store(&mut th.grf, r, n, chen, |c| (v[c] as f32).to_bits());
            }
        } else {
            // Float to integer: toward zero, saturating, NaN to 0 (value.rs `encode`).
            let (lo, hi) = r.ty.range();
            store(&mut th.grf, r, n, chen, |c| {
                let f = v[c];
                if f.is_nan() {
                    0
                } else {
                    f.trunc().clamp(lo, hi) as i64 as u32
                }
            });
        }
    }
}

impl Op {
    /// Runs the op for the `active` channels of `th` at program counter `pc`.
    #[inline]
    pub(crate) fn run(
        &self,
        th: &mut Thread,
        mem: &Memory,
        slm: &mut [u8],
        scratch: &mut Scratch,
        active: u32,
        pc: u32,
    ) -> Next {
        match self {
            Op::Nop => Next::Fall,
            Op::SetState {
                ctl,
                sampler,
                index,
                src,
            } => {
                if ctl.enables(active, &th.preds, true) & 1 != 0 {
                    let v = &mut scratch.ints[0];
                    src.ints(th, 1, ctl.offset, v);
                    let vars = if *sampler {
                        &mut th.samplers
                    } else {
                        &mut th.surfaces
                    };
                    vars[*index] = v[0] as u32;
                }
                Next::Fall
            }
            Op::Memory(m) => m.run(th, mem, slm, &mut scratch.ints, active),
            Op::Flags {
                alu,
                ctl,
                srcs,
                dst,
            } => {
                let chen = ctl.enables(active, &th.preds, true);
                let read = |s: Option<usize>| s.map_or(0, |i| th.preds[i]) >> ctl.offset;
                let (a, b) = (read(srcs[0]), read(srcs[1]));
                let bits = match alu {
                    Alu::And => a & b,
                    Alu::Or => a | b,
                    Alu::Xor => a ^ b,
                    Alu::Not => !a,
                    _ => a,
                };
                if let Some(i) = *dst {
                    let m = chen << ctl.offset;
                    th.preds[i] = (th.preds[i] & !m) | ((bits << ctl.offset) & m);
                }
                Next::Fall
            }
            Op::Alu {
                alu,
                float,
                single,
                ctl,
                srcs,
                dst,
            } => {
                let chen = ctl.enables(active, &th.preds, true);
                let n = ctl.exec as usize;
                if *single {
                    let s = &mut scratch.single;
                    for (k, src) in srcs.iter().enumerate() {
                        src.singles(th, n, &mut s[k]);
                    }
                    let [a, b, x, out] = s;
                    single_alu(*alu, a, b, x, &mut out[..n]);
                    if let Dst::Reg(r, _) = dst {
                        store(&mut th.grf, r, n, chen, |c| out[c].to_bits());
                    }
                } else if *float {
                    let s = &mut scratch.floats;
                    for (k, src) in srcs.iter().enumerate() {
                        src.floats(th, n, &mut s[k]);
                    }
                    let (ins, out) = s.split_at_mut(3);
                    float_alu(*alu, ins, &mut out[0][..n]);
                    dst.store_floats(th, ctl, chen, &out[0]);
                } else {
                    let s = &mut scratch.ints;
                    for (k, src) in srcs.iter().enumerate() {
                        src.ints(th, n, ctl.offset, &mut s[k]);
                    }
                    let (ins, out) = s.split_at_mut(3);
                    int_alu(*alu, ins, srcs[0].bits(), &mut out[0][..n]);
                    dst.store_ints(th, ctl, chen, &out[0]);
                }
                Next::Fall
            }
            Op::Cmp {
                relop,
                float,
                single,
                ctl,
                srcs,
                dst,
            } => {
                let chen = ctl.enables(active, &th.preds, false);
                let n = ctl.exec as usize;
                let bits = if *single {
                    let [a, b, ..] = &mut scratch.single;
                    srcs[0].singles(th, n, a);
                    srcs[1].singles(th, n, b);
                    compare(*relop, &a[..n], &b[..n])
                } else if *float {
                    let [a, b, ..] = &mut scratch.floats;
                    srcs[0].floats(th, n, a);
                    srcs[1].floats(th, n, b);
                    compare(*relop, &a[..n], &b[..n])
                } else {
                    let [a, b, ..] = &mut scratch.ints;
                    srcs[0].ints(th, n, ctl.offset, a);
                    srcs[1].ints(th, n, ctl.offset, b);
                    compare(*relop, &a[..n], &b[..n])
                };
                match dst {
                    Dst::Pred(None) => {}
                    Dst::Pred(Some(i)) => {
                        let m = chen << ctl.offset;
                        th.preds[*i] = (th.preds[*i] & !m) | ((bits << ctl.offset) & m);
                    }
                    Dst::Reg(r, _) => store(&mut th.grf, r, n, chen, |c| {
                        if bits & (1 << c) != 0 {
                            u32::MAX
                        } else {
                            0
                        }
                    }),
                }
                Next::Fall
            }
            Op::Sel {
                float,
                ctl,
                srcs,
                dst,
            } => {
                let chen = ctl.enables(active, &th.preds, false);
                let pick = ctl.pred_mask(&th.preds);
                let n = ctl.exec as usize;
                if *float {
                    let [a, b, ..] = &mut scratch.floats;
                    srcs[0].floats(th, n, a);
                    srcs[1].floats(th, n, b);
                    for c in 0..n {
                        if pick & (1 << c) == 0 {
                            a[c] = b[c];
                        }
                    }
                    dst.store_floats(th, ctl, chen, a);
                } else {
                    let [a, b, ..] = &mut scratch.ints;
                    srcs[0].ints(th, n, ctl.offset, a);
                    srcs[1].ints(th, n, ctl.offset, b);
                    for c in 0..n {
                        if pick & (1 << c) == 0 {
                            a[c] = b[c];
                        }
                    }
                    dst.store_ints(th, ctl, chen, a);
                }
                Next::Fall
            }
            Op::Branch {
                ctl,
                target,
                uniform,
            } => {
                let taken_rel = ctl.pred_mask(&th.preds);
                let taken = if *uniform {
                    if taken_rel & 1 != 0 {
                        u32::MAX
                    } else {
                        0
                    }
                } else {
                    (taken_rel << ctl.offset) & (ctl.channels << ctl.offset)
                };
                // The active channels stay together: the run keeps them in registers.
                if taken & active == active {
                    return Next::Jump(*target);
                }
                if taken & active == 0 {
                    return Next::Fall;
                }
                let mut left = active;
                while left != 0 {
                    let c = left.trailing_zeros();
                    left &= left - 1;
                    th.pc[c as usize] = if taken & (1 << c) != 0 {
                        *target
                    } else {
                        pc + 1
                    };
                }
                Next::Moved
            }
        }
    }
}

/// The channels where `a relop b` holds (relation code 0-5: eq ne gt ge lt le; an
/// unordered pair is only "ne"), one bit each; the relation chosen once per op.
fn compare<T: PartialOrd>(relop: u8, a: &[T], b: &[T]) -> u32 {
    fn each<T>(a: &[T], b: &[T], holds: impl Fn(&T, &T) -> bool) -> u32 {
        a.iter()
            .zip(b)
            .enumerate()
            .fold(0, |bits, (c, (x, y))| bits | (holds(x, y) as u32) << c)
    }
    match relop {
        0 => each(a, b, |x, y| x == y),
        1 => each(a, b, |x, y| x != y),
        2 => each(a, b, |x, y| x > y),
        3 => each(a, b, |x, y| x >= y),
        4 => each(a, b, |x, y| x < y),
        _ => each(a, b, |x, y| x <= y),
    }
}

/// The float ALU, exactly as the generic path evaluates it (in `f64`).
fn float_alu(alu: Alu, s: &[Floats], out: &mut [f64]) {
    let [a, b, x] = s else { return };
    macro_rules! each {
        (|$c:ident| $e:expr) => {
            for ($c, o) in out.iter_mut().enumerate() {
                *o = $e;
            }
        };
    }
    match alu {
        Alu::Mov => each!(|c| a[c]),
        Alu::Add => each!(|c| a[c] + b[c]),
        Alu::Mul => each!(|c| a[c] * b[c]),
        Alu::Mad => each!(|c| mad(a[c], b[c], x[c], false)),
        Alu::MadF32 => each!(|c| mad(a[c], b[c], x[c], true)),
        Alu::Div => each!(|c| a[c] / b[c]),
        Alu::Inv => each!(|c| 1.0 / a[c]),
        Alu::Sqrt => each!(|c| a[c].sqrt()),
        Alu::Rsqrt => each!(|c| 1.0 / a[c].sqrt()),
        Alu::Rndd => each!(|c| a[c].floor()),
        Alu::Rndu => each!(|c| a[c].ceil()),
        Alu::Rndz => each!(|c| a[c].trunc()),
        Alu::Rnde => each!(|c| a[c].round_ties_even()),
        Alu::Frc => each!(|c| a[c] - a[c].floor()),
        Alu::Lrp => each!(|c| a[c] * b[c] + (1.0 - a[c]) * x[c]),
        // The generic ALU's rule: NaN yields the other operand, -0 orders below +0.
        Alu::Min | Alu::Max => each!(|c| super::alu::float_min_max(alu == Alu::Max, a[c], b[c])),
        // Lowering gives float instructions the operations above only.
        _ => out.fill(0.0),
    }
}

/// The integer ALU on values of at most 32 bits: the generic path's `i128` results
/// agree with these in the low 32 bits, which is all a destination keeps.
fn int_alu(alu: Alu, s: &[Ints], src0_bits: u32, out: &mut [i64]) {
    let [a, b, x] = s else { return };
    let zext = if src0_bits >= 32 {
        0xFFFF_FFFF
    } else {
        (1i64 << src0_bits) - 1
    };
    macro_rules! each {
        (|$c:ident| $e:expr) => {
            for ($c, o) in out.iter_mut().enumerate() {
                *o = $e;
            }
        };
    }
    match alu {
        Alu::Mov => each!(|c| a[c]),
        Alu::Add => each!(|c| a[c].wrapping_add(b[c])),
        Alu::Add3 => each!(|c| a[c].wrapping_add(b[c]).wrapping_add(x[c])),
        Alu::Mul => each!(|c| a[c].wrapping_mul(b[c])),
        Alu::Mad => each!(|c| a[c].wrapping_mul(b[c]).wrapping_add(x[c])),
        Alu::Avg => each!(|c| (a[c] + b[c] + 1) >> 1),
        Alu::And => each!(|c| a[c] & b[c]),
        Alu::Or => each!(|c| a[c] | b[c]),
        Alu::Xor => each!(|c| a[c] ^ b[c]),
        Alu::Not => each!(|c| !a[c]),
        Alu::Shl => each!(|c| a[c].wrapping_shl(b[c] as u32 & 31)),
        Alu::Shr => each!(|c| (a[c] & zext) >> (b[c] as u32 & 31)),
        Alu::Asr => each!(|c| a[c] >> (b[c] as u32 & 31)),
        Alu::Min => each!(|c| a[c].min(b[c])),
        Alu::Max => each!(|c| a[c].max(b[c])),
        // Lowering gives integer instructions the operations above only.
        _ => out.fill(0),
    }
}
