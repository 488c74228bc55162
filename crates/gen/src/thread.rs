//! One hardware thread of the Gen engine: its register file and per-channel program
//! counters, and the loop that executes lowered instructions until a barrier or the
//! thread's end.
//!
//! SIMD control flow is per-channel program counters: every channel has its own
//! next instruction, and the thread runs the instruction of the channels deepest in
//! subroutine calls, lowest program counter first. A channel that jumps ahead waits
//! where it landed until the others arrive (a join, an endif, the instruction after
//! a loop), which is what the hardware's if/else/endif, while/break/cont and
//! goto/join masks amount to for the structured code IGC emits.

use crate::alu::{self, Class};
use crate::lower::{Desc, DstAt, Indirect, Inst, Kind, Program, Src, Target};
use crate::message::{self, Effect, SendContext};
use gpukit_visa::interp::check::{self, Checker};
use gpukit_visa::interp::value::{decode, encode, FloatMode, Val};
use gpukit_visa::interp::{Memory, Stats};
use gpukit_visa::isa::Type;
use std::collections::HashMap;

/// A channel that has ended (or never started).
pub(crate) const DONE: u32 = u32::MAX;

/// One hardware thread.
pub(crate) struct Thread {
    /// The register file ([`crate::regfile::Layout`]).
    pub regs: Vec<u8>,
    /// Per channel: the next instruction, or [`DONE`]. Channels in `active` are at
    /// `at` (their entries here are stale until the next reschedule).
    pub pc: [u32; 32],
    /// Per channel: how many subroutine calls it is inside.
    pub depth: [u16; 32],
    /// The instruction the thread runs next, and the channels that run it.
    pub at: u32,
    pub active: u32,
    /// Live channels not in `active` (they wait elsewhere).
    pub waiting: u32,
    pub index: u32,
    pub scratch: Vec<u8>,
    pub scratch_limit: usize,
    pub float_mode: FloatMode,
    /// The thread's indirect data (`message::indirect_data`), for the payload prolog.
    pub indirect: Vec<u8>,
}

/// Why the thread stopped running.
pub(crate) enum Stop {
    Barrier,
    Done,
}

/// What the run loop shares with every thread of a launch.
pub(crate) struct Env<'a> {
    pub program: &'a Program,
    pub mem: &'a mut Memory,
    pub slm: &'a mut [u8],
    pub stats: &'a mut Stats,
    pub max_instructions: u64,
    pub group: [u32; 3],
    pub trace: Option<&'a dyn Fn(&crate::TraceStep)>,
    /// Messages of sends whose descriptors are registers, decoded once per value.
    pub messages: &'a mut HashMap<(usize, u32, u32), message::Message>,
    /// `--check`: the vISA engine's checker, told of every access and barrier.
    pub check: Option<&'a mut Checker>,
}

/// An error of the running instruction, before its location is attached.
type Res<T> = Result<T, String>;

/// What an instruction did to the control flow.
enum Flow {
    Next,
    /// The channels' program counters were set; pick the next instruction anew.
    Moved,
    Barrier,
    End,
}

impl Thread {
    pub fn new(regs: Vec<u8>, live: u32, start: usize, index: u32, scratch_limit: usize) -> Self {
        let mut pc = [DONE; 32];
        for (c, p) in pc.iter_mut().enumerate() {
            if live & (1 << c) != 0 {
                *p = start as u32;
            }
        }
        let mut th = Thread {
            regs,
            pc,
            depth: [0; 32],
            at: DONE,
            active: 0,
            waiting: 0,
            index,
            scratch: Vec::new(),
            scratch_limit,
            float_mode: FloatMode::from_cr0(0),
            indirect: Vec::new(),
        };
        th.reschedule();
        th
    }

    /// Picks the next instruction: the channels deepest in calls, then the lowest
    /// program counter among them.
    fn reschedule(&mut self) {
        let mut best: Option<(u16, u32)> = None;
        for c in 0..32 {
            let p = self.pc[c];
            if p == DONE {
                continue;
            }
            let key = (self.depth[c], p);
            best = Some(match best {
                Some((d, q)) if d > key.0 || (d == key.0 && q <= p) => (d, q),
                _ => key,
            });
        }
        let (mut active, mut live) = (0u32, 0u32);
        if let Some((d, p)) = best {
            for c in 0..32 {
                if self.pc[c] != DONE {
                    live |= 1 << c;
                    if self.pc[c] == p && self.depth[c] == d {
                        active |= 1 << c;
                    }
                }
            }
            self.at = p;
        } else {
            self.at = DONE;
        }
        self.active = active;
        self.waiting = live & !active;
    }

    /// Moves the active channels in `mask` to instruction `to`.
    fn send_to(&mut self, mask: u32, to: u32) {
        for c in 0..32 {
            if mask & (1 << c) != 0 {
                self.pc[c] = to;
            }
        }
    }

    /// Ends every channel: the thread sent its end-of-thread message.
    fn end(&mut self) {
        self.pc = [DONE; 32];
        self.at = DONE;
        self.active = 0;
        self.waiting = 0;
    }

    /// Runs until a barrier or the thread's end.
    pub fn run(&mut self, env: &mut Env) -> Result<Stop, (usize, String)> {
        let program = env.program;
        loop {
            if self.at == DONE {
                return Ok(Stop::Done);
            }
            let index = self.at as usize;
            let Some(inst) = program.insts.get(index) else {
                return Err((
                    program.len().saturating_sub(1),
                    "the thread ran past the kernel's last instruction without ending".into(),
                ));
            };
            env.stats.instructions += 1;
            if env.stats.instructions > env.max_instructions {
                return Err((
                    index,
                    format!(
                        "instruction limit of {} reached (endless loop?)",
                        env.max_instructions
                    ),
                ));
            }
            let active = self.active;
            if let Some(c) = env.check.as_deref_mut() {
                c.at(self.index, index as u32);
            }
            let flow = self.step(env, index, inst).map_err(|m| (index, m))?;
            if let Some(e) = env.check.as_deref_mut().and_then(Checker::take_error) {
                return Err((index, e));
            }
            if let Some(trace) = env.trace {
                trace(&crate::TraceStep {
                    index,
                    group: env.group,
                    thread: self.index,
                    channels: active,
                    regs: &self.regs,
                });
            }
            match flow {
                Flow::Next => self.next(),
                Flow::Moved => self.reschedule(),
                Flow::Barrier => {
                    if let Some(c) = env.check.as_deref_mut() {
                        // Every channel's instruction, the barrier's for those at it.
                        let mut pcs = self.pc;
                        for (c, p) in pcs.iter_mut().enumerate() {
                            if active & (1 << c) != 0 {
                                *p = index as u32;
                            }
                        }
                        c.barrier(program, active, active | self.waiting, &pcs);
                    }
                    self.next();
                    return Ok(Stop::Barrier);
                }
                Flow::End => {
                    self.end();
                    return Ok(Stop::Done);
                }
            }
        }
    }

    /// The active channels go on to the next instruction.
    fn next(&mut self) {
        self.at += 1;
        if self.waiting != 0 {
            let (at, active) = (self.at, self.active);
            self.send_to(active, at);
            self.reschedule();
        }
    }

    /// The channels (thread numbering) an instruction's execution size and offset cover.
    fn range(inst: &Inst) -> u32 {
        (lanes(inst.exec_size) << inst.exec_offset) as u32
    }

    /// Executes one instruction for the active channels.
    fn step(&mut self, env: &mut Env, index: usize, inst: &Inst) -> Res<Flow> {
        let range = Self::range(inst);
        let enabled = if inst.nomask {
            range
        } else {
            self.active & range
        };
        // Instruction channel numbering from here on (bit i: channel offset + i).
        let lanes_on = enabled >> inst.exec_offset;
        if inst.reads_ce0 {
            let at = env.program.layout.ce0 as usize;
            self.regs[at..at + 4].copy_from_slice(&(self.active).to_le_bytes());
        }
        let pred = inst.pred.map(|p| self.predicate(inst, &p, env));
        let moving = self.active & range;
        let taken_thread = |pred: Option<u32>| -> u32 {
            match pred {
                Some(p) => moving & (p << inst.exec_offset),
                None => moving,
            }
        };
        let flow = match &inst.kind {
            Kind::Alu(op) => {
                // A sel without a conditional modifier: the predicate picks, it masks nothing.
                let picks = op.class == Class::Select && inst.cond.is_none() && !inst.csel;
                let mut lanes = match pred {
                    Some(p) if !picks => lanes_on & p,
                    _ => lanes_on,
                };
                if op.class == Class::Scatter {
                    lanes &= match inst.srcs.get(1).map(|s| &s.src) {
                        Some(Src::Imm(mask)) => *mask as u32,
                        _ => return Err("smov's channel mask (src1) is not an immediate".into()),
                    };
                }
                env.stats.channel_instructions += u64::from(lanes.count_ones());
                self.alu(env, inst, op, lanes, pred)?;
                if inst.writes_cr0 {
                    let at = env.program.layout.cr0 as usize;
                    self.float_mode = FloatMode::from_cr0(u32::from_le_bytes(
                        self.regs[at..at + 4].try_into().unwrap_or_default(),
                    ));
                }
                Flow::Next
            }
            Kind::Send(send) => {
                let lanes = pred.map_or(lanes_on, |p| lanes_on & p);
                env.stats.channel_instructions += u64::from(lanes.count_ones());
                if lanes == 0 {
                    return Ok(Flow::Next);
                }
                let desc = |d: Desc| match d {
                    Desc::Imm(v) => v,
                    Desc::Reg(at) => read_u32(&self.regs, at),
                };
                let (d, x) = (desc(send.desc), desc(send.ex_desc));
                let decoded;
                let msg = match &send.message {
                    Some(m) => m,
                    None => {
                        if !env.messages.contains_key(&(index, d, x)) {
                            let source = &env.program.source[index];
                            let m = message::decode(source, env.program.platform, d, x)?;
                            env.messages.insert((index, d, x), m);
                        }
                        decoded = env.messages.get(&(index, d, x));
                        decoded.ok_or("message cache")?
                    }
                };
                let mut cx = SendContext {
                    regs: &mut self.regs,
                    grf_bytes: env.program.layout.grf_bytes,
                    src0: send.src0,
                    src1: send.src1,
                    dst: send.dst,
                    exec_size: inst.exec_size,
                    channels: lanes,
                    mem: env.mem,
                    slm: env.slm,
                    scratch: &mut self.scratch,
                    scratch_limit: self.scratch_limit,
                    findings: &mut env.stats.findings,
                    indirect: &self.indirect,
                    group: env.group,
                    thread: self.index,
                    check: env.check.as_deref_mut().map(|checker| message::Check {
                        checker,
                        program: env.program,
                    }),
                };
                match message::execute(msg, &mut cx)? {
                    Effect::Done => Flow::Next,
                    Effect::Barrier => Flow::Barrier,
                    Effect::EndOfThread => Flow::End,
                }
            }
            Kind::If { jip } => {
                // Channels whose predicate fails skip to the else-block or endif.
                let stay = taken_thread(pred);
                self.branch(moving & !stay, *jip)
            }
            Kind::Else { jip } => self.branch(moving, *jip),
            Kind::Jump { to, on_false } => {
                let go = match (pred, on_false) {
                    (Some(p), true) => taken_thread(Some(!p)),
                    _ => taken_thread(pred),
                };
                self.branch(go, *to)
            }
            Kind::While { jip } => self.branch(taken_thread(pred), *jip),
            Kind::Jmpi(target) => {
                // A scalar jump: every channel at this instruction goes, or none does.
                let taken = pred.is_none_or(|p| p & 1 != 0);
                if taken {
                    let to = self.target(env.program, index, target)?;
                    self.branch(self.active, to)
                } else {
                    Flow::Next
                }
            }
            Kind::Call { target, save } => {
                let calling = taken_thread(pred);
                let ret = env.program.pcs.get(index + 1).copied().unwrap_or(u32::MAX);
                let at = *save as usize;
                if let Some(s) = self.regs.get_mut(at..at + 8) {
                    s[..4].copy_from_slice(&ret.to_le_bytes());
                    s[4..].copy_from_slice(&(calling >> inst.exec_offset).to_le_bytes());
                }
                let to = self.target(env.program, index, target)?;
                for c in 0..32 {
                    if calling & (1 << c) != 0 {
                        self.depth[c] = self.depth[c].saturating_add(1);
                    }
                }
                self.branch(calling, to)
            }
            Kind::Ret { from } => {
                let ret = read_u32(&self.regs, *from);
                let to = env
                    .program
                    .index_of_pc(ret)
                    .ok_or_else(|| format!("ret to byte {ret:#x}, where no instruction starts"))?;
                for c in 0..32 {
                    if moving & (1 << c) != 0 {
                        self.depth[c] = self.depth[c].saturating_sub(1);
                    }
                }
                self.branch(moving, to)
            }
            Kind::Nop => Flow::Next,
            Kind::Illegal => return Err("illegal instruction".into()),
        };
        Ok(flow)
    }

    /// Active channels `go` jump to `to`; the other active channels go on to the
    /// next instruction.
    fn branch(&mut self, go: u32, to: usize) -> Flow {
        let next = self.at + 1;
        let stay = self.active & !go;
        self.send_to(stay, next);
        self.send_to(go, to as u32);
        Flow::Moved
    }

    fn target(&self, program: &Program, index: usize, t: &Target) -> Res<usize> {
        match t {
            Target::Index(i) => Ok(*i),
            Target::Reg { at, relative } => {
                let v = read_u32(&self.regs, *at);
                let pc = if *relative {
                    program.pcs[index].wrapping_add(v)
                } else {
                    v
                };
                program
                    .index_of_pc(pc)
                    .ok_or_else(|| format!("jump to byte {pc:#x}, where no instruction starts"))
            }
        }
    }

    /// The predicate's value per instruction channel.
    fn predicate(&self, inst: &Inst, p: &crate::lower::Pred, env: &Env) -> u32 {
        let flags = env.program.layout.flag as usize;
        let end = flags + 4 * crate::regfile::FLAG_REGS as usize;
        // The flag bits from the predicate's subregister on, as one word.
        let mut word = 0u64;
        for k in 0..8 {
            let at = p.flag as usize + k;
            if at < end {
                word |= u64::from(self.regs[at]) << (8 * k);
            }
        }
        let n = inst.exec_size;
        if p.group == 0 {
            let bits = (word >> inst.exec_offset) & lanes(n);
            return (if p.inv { !bits & lanes(n) } else { bits }) as u32;
        }
        let mut bits = 0u32;
        for i in 0..n {
            let c = inst.exec_offset + i;
            let on = if p.group == 0 {
                word >> c & 1 != 0
            } else {
                let g = u32::from(p.group);
                let group = (word >> (c / g * g)) & lanes(g);
                if p.all {
                    group == lanes(g)
                } else {
                    group != 0
                }
            };
            if on != p.inv {
                bits |= 1 << i;
            }
        }
        bits
    }

    /// An ALU instruction on `lanes` (instruction channel numbering).
    fn alu(
        &mut self,
        env: &mut Env,
        inst: &Inst,
        op: &alu::Op,
        lanes: u32,
        pred: Option<u32>,
    ) -> Res<()> {
        if lanes == 0 {
            return Ok(());
        }
        let layout = &env.program.layout;
        let fm = self.float_mode;
        let types = &inst.types;
        let dst_ty = inst.dst.as_ref().map_or(types.dst, |d| d.ty);
        let dst_size = type_size(dst_ty);
        let mut results = [0u64; 32];
        let mut accs: [Option<u64>; 32] = [None; 32];
        let mut flags = 0u32;
        for i in 0..inst.exec_size as usize {
            if lanes & (1 << i) == 0 {
                continue;
            }
            let mut vals = [Val::I(0); 3];
            let mut raw = [0u64; 3];
            for (s, src) in inst.srcs.iter().enumerate() {
                let bits = self.read_src(layout, &src.src, src.size, i)?;
                raw[s] = bits;
                let v = decode(src.ty, bits);
                vals[s] = alu::source_modifier(op, src.ty, src.modifier, v);
            }
            if inst.raw {
                let picked = usize::from(pred.is_some_and(|p| p & (1 << i) == 0));
                let k = if op.class == Class::Select { picked } else { 0 };
                results[i] = raw[k];
                if let Some(c) = inst.cond {
                    if alu::condition(c.cm, vals[k], dst_ty) {
                        flags |= 1 << i;
                    }
                }
                accs[i] = inst.acc_write.then_some(raw[k]);
                continue;
            }
            let acc_at = layout.acc as usize + i * dst_size as usize;
            let acc_in = if op.reads_acc {
                decode(dst_ty, load(&self.regs, acc_at, dst_size))
            } else {
                Val::I(0)
            };
            let sat = inst.dst.as_ref().is_some_and(|d| d.sat);
            let (bits, flag, acc) = match op.class {
                Class::Compare => {
                    let cm = inst.cond.map(|c| c.cm).ok_or("cmp without a condition")?;
                    let r = alu::compare_op(op, cm, vals[0], vals[1], types.src[0]);
                    (if r { mask_of(dst_size) } else { 0 }, Some(r), None)
                }
                Class::Select => {
                    let v = match (inst.csel, inst.cond) {
                        (true, Some(c)) => alu::csel(c.cm, &vals, types),
                        (false, Some(c)) => alu::select(c.cm, vals[0], vals[1], types.src[0]),
                        (_, None) => {
                            if pred.is_none_or(|p| p & (1 << i) != 0) {
                                vals[0]
                            } else {
                                vals[1]
                            }
                        }
                    };
                    (encode(dst_ty, v, sat), None, None)
                }
                Class::Dot => {
                    // Each group of 4 channels gets the dot product of its sources.
                    let g = i / 4 * 4;
                    let mut a = [Val::I(0); 4];
                    let mut b = [Val::I(0); 4];
                    for k in 0..4.min(inst.exec_size as usize - g) {
                        let (s0, s1) = (&inst.srcs[0], &inst.srcs[1]);
                        a[k] = decode(s0.ty, self.read_src(layout, &s0.src, s0.size, g + k)?);
                        b[k] = decode(s1.ty, self.read_src(layout, &s1.src, s1.size, g + k)?);
                    }
                    let v = alu::dot(op, types, fm, &a, &b);
                    let bits = encode(dst_ty, v, sat);
                    let flag = inst.cond.map(|c| alu::condition(c.cm, v, dst_ty));
                    (bits, flag, None)
                }
                Class::Arith | Class::Logic | Class::Math | Class::Scatter => {
                    // `math.idiv` and kin by zero: not a fault (the channel gets the
                    // hardware's value), a `div-zero` finding under --check.
                    if let (Some(c), Some(f @ ("idiv" | "iqot" | "irem"))) =
                        (env.check.as_deref_mut(), op.subop)
                    {
                        if matches!(vals[1], Val::I(0)) {
                            c.flag(
                                env.program,
                                check::Kind::DivZero,
                                i as u32,
                                None,
                                None,
                                format!(
                                    "integer math.{f} by zero (the channel gets the hardware's value)"
                                ),
                            );
                        }
                    }
                    let out = (op.eval)(types, fm, &vals, acc_in);
                    let bits = encode(dst_ty, out.value, sat);
                    let flag = inst.cond.map(|c| alu::condition(c.cm, out.value, dst_ty));
                    (bits, flag, out.acc.map(|a| encode(dst_ty, a, false)))
                }
            };
            results[i] = bits;
            if flag == Some(true) {
                flags |= 1 << i;
            }
            accs[i] = acc.or(inst.acc_write.then_some(bits));
        }
        // Results land after every source was read (a destination may overlap them).
        if let Some(d) = &inst.dst {
            for (i, bits) in results.iter().enumerate().take(inst.exec_size as usize) {
                if lanes & (1 << i) == 0 {
                    continue;
                }
                let at = match &d.at {
                    DstAt::Null => break,
                    DstAt::Reg(o) => o.at(i) as usize,
                    DstAt::Indirect(ind) => self.indirect_at(layout, ind, i, d.size)?,
                };
                store(&mut self.regs, at, d.size, *bits);
            }
        }
        for (i, a) in accs.iter().enumerate() {
            if let Some(a) = a {
                store(
                    &mut self.regs,
                    layout.acc as usize + i * dst_size as usize,
                    dst_size,
                    *a,
                );
            }
        }
        if let (Some(flag), false) = (inst.cond.and_then(|c| c.flag), op.class == Class::Select) {
            for i in 0..inst.exec_size {
                if lanes & (1 << i) != 0 {
                    self.set_flag(layout, flag, inst.exec_offset + i, flags & (1 << i) != 0);
                }
            }
        }
        Ok(())
    }

    fn set_flag(&mut self, layout: &crate::regfile::Layout, flag: u32, bit: u32, on: bool) {
        let at = (flag + bit / 8) as usize;
        if at < (layout.flag + 4 * crate::regfile::FLAG_REGS) as usize {
            let m = 1u8 << (bit % 8);
            if on {
                self.regs[at] |= m;
            } else {
                self.regs[at] &= !m;
            }
        }
    }

    #[inline(always)]
    fn read_src(
        &self,
        layout: &crate::regfile::Layout,
        src: &Src,
        size: u32,
        i: usize,
    ) -> Res<u64> {
        Ok(match src {
            Src::Reg(o) => load(&self.regs, o.at(i) as usize, size),
            Src::Imm(b) => *b,
            Src::ImmVec(v) => v[i % 8],
            Src::Indirect(ind) => load(&self.regs, self.indirect_at(layout, ind, i, size)?, size),
        })
    }

    /// The byte offset channel `i` of an indirect operand reaches (checked against the GRFs).
    fn indirect_at(
        &self,
        layout: &crate::regfile::Layout,
        ind: &Indirect,
        i: usize,
        size: u32,
    ) -> Res<usize> {
        let reg = match ind.width {
            Some(w) => i as u32 / w,
            None => 0,
        };
        let a = ind.addr as usize + 2 * reg as usize;
        let addr = u16::from_le_bytes([self.regs[a], self.regs[a + 1]]);
        let at = i64::from(addr) + i64::from(ind.off) + i64::from(ind.rel.at(i));
        if at < 0 || at + i64::from(size) > i64::from(layout.grf_end()) {
            return Err(format!(
                "indirect access at byte {at} lies outside the {} bytes of GRFs",
                layout.grf_end()
            ));
        }
        Ok(at as usize)
    }
}

/// The low `n` bits set.
#[inline]
fn lanes(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

fn mask_of(size: u32) -> u64 {
    lanes(8 * size)
}

fn type_size(t: Type) -> u32 {
    t.size().unwrap_or(4) as u32
}

/// `size` (1, 2, 4 or 8) little-endian bytes at `at`; zero outside `regs`. Each size
/// a fixed-width read (a copy of a run-time length is a `memmove` call per element).
#[inline(always)]
fn load(regs: &[u8], at: usize, size: u32) -> u64 {
    fn fixed<const N: usize>(regs: &[u8], at: usize) -> Option<[u8; N]> {
        regs.get(at..at + N)?.try_into().ok()
    }
    match size {
        4 => fixed::<4>(regs, at).map_or(0, |b| u64::from(u32::from_le_bytes(b))),
        2 => fixed::<2>(regs, at).map_or(0, |b| u64::from(u16::from_le_bytes(b))),
        8 => fixed::<8>(regs, at).map_or(0, u64::from_le_bytes),
        _ => regs.get(at).map_or(0, |b| u64::from(*b)),
    }
}

/// Stores the low `size` (1, 2, 4 or 8) bytes of `bits` at `at` (nothing outside `regs`).
#[inline(always)]
fn store(regs: &mut [u8], at: usize, size: u32, bits: u64) {
    fn fixed<const N: usize>(regs: &mut [u8], at: usize, bytes: [u8; 8]) {
        if let Some(s) = regs.get_mut(at..at + N) {
            s.copy_from_slice(&bytes[..N]);
        }
    }
    let bytes = bits.to_le_bytes();
    match size {
        4 => fixed::<4>(regs, at, bytes),
        2 => fixed::<2>(regs, at, bytes),
        8 => fixed::<8>(regs, at, bytes),
        _ => fixed::<1>(regs, at, bytes),
    }
}

fn read_u32(regs: &[u8], at: u32) -> u32 {
    load(regs, at as usize, 4) as u32
}
