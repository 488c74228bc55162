//! One thread's execution: operand access through regions, ALU semantics, control
//! flow and memory messages.
// Channel loops index per-channel arrays and bit masks by the same channel number.
#![allow(clippy::needless_range_loop)]

mod lsc;
mod matrix;

use super::alu::{self, as_float as flt, as_int as int, Relation};
use super::check::{Access, Checker, Kind};
use super::memory::{check_slm, Memory, OutOfBounds, Place};
use super::value::{decode, encode, is_float, is_unsigned, FloatMode, Val};
use super::{
    fault, Allowance, Fault, Finding, Launch, Layout, Program, Res, RunError, Stats, Stop, Thread,
    CR0, DONE,
};
use crate::isa::{Opcode, Type};
use crate::model::{InstRef, Modifier, Operand, Raw, Region, Vector, VectorKind};
use crate::semantics::{
    channel_enable, destination_offsets, direct_origin, indirect_multi_elements, source_offsets,
    ExecMask, MaskControl, Offsets, PredControl, Predication, RegionParams,
};
use std::cell::Cell;

/// Runs until the thread ends or reaches a barrier.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_thread(
    p: &Program,
    th: &mut Thread,
    launch: &Launch,
    mem: &Memory,
    slm: &mut Vec<u8>,
    stats: &mut Stats,
    allowance: &mut Allowance,
    trace: &mut Option<&mut dyn FnMut(String)>,
    step: &mut Option<&mut dyn FnMut(&super::Step<'_>)>,
    group: [u32; 3],
    check: &mut Option<Checker>,
) -> Result<Stop, RunError> {
    let simd = launch.simd as usize;
    let mut scratch = super::fast::Scratch::default();
    loop {
        let Some(pc) = th.pc[..simd].iter().copied().filter(|p| *p != DONE).min() else {
            return Ok(Stop::Done);
        };
        let active: u32 = (0..simd)
            .filter(|c| th.pc[*c] == pc)
            .fold(0, |m, c| m | (1 << c));
        if super::fast::run(
            p,
            th,
            mem,
            slm,
            &mut scratch,
            simd,
            pc,
            active,
            stats,
            allowance.limit(),
        ) {
            continue;
        }
        let Some((r, inst)) = p.at(pc) else {
            // Falling off the end ends the channels.
            for c in 0..simd {
                if th.pc[c] == pc {
                    th.pc[c] = DONE;
                }
            }
            continue;
        };
        let index = (pc - r.start) as usize;
        let at = Location {
            routine: r,
            index,
            group,
        };
        stats.instructions += 1;
        if !allowance.allows(stats.instructions) {
            return Err(err_at(
                inst,
                &at,
                th.index,
                format!(
                    "instruction limit of {} reached (endless loop?)",
                    launch.max_instructions
                ),
            ));
        }
        if let Some(t) = trace.as_mut() {
            t(format!(
                "g{},{},{} t{} #{index} {} mask={active:08x}",
                group[0],
                group[1],
                group[2],
                th.index,
                inst.mnemonic()
            ));
        }
        if let Some(c) = check.as_mut() {
            c.at(th.index, pc);
        }
        let mask = inst.exec().and_then(|e| MaskControl::from_code(e.emask()));
        let mask_offset = mask.map_or(0, |m| m.offset());
        let mut ctx = Ctx {
            p,
            r,
            th,
            mem,
            slm,
            active,
            grf: launch.grf_bytes,
            mask_offset,
            check: check.as_mut(),
            lane: active.trailing_zeros(),
            atomic: false,
            thread_wide: mask.is_some_and(|m| m.no_mask)
                && inst.exec().and_then(|e| e.exec_size()) == Some(1),
            undefined: Cell::new((0, 0)),
            undefined_use: Cell::new(None),
            group,
        };
        let outcome = ctx
            .step(inst, pc)
            .map_err(|Fault(m)| err_at(inst, &at, ctx.th.index, m))?;
        let undefined_use = ctx.undefined_use.get();
        stats.channel_instructions += u64::from(active.count_ones());
        if let Some(hook) = step.as_mut() {
            hook(&super::Step {
                group,
                thread: th.index,
                routine: r.name,
                index,
                active,
                dst: stepped_dst(r, th, inst),
            });
        }
        if let Some(c) = check.as_mut() {
            if let Some((origin, lane, how)) = undefined_use {
                c.uninit_register(p, origin, lane, how);
            }
            if let Some(m) = c.take_error() {
                return Err(err_at(inst, &at, th.index, m));
            }
        }
        match outcome {
            Flow::Next => advance(th, active, pc + 1),
            Flow::Barrier => {
                if let Some(c) = check.as_mut() {
                    let live = (0..simd)
                        .filter(|c| th.pc[*c] != DONE)
                        .fold(0, |m, c| m | (1 << c));
                    c.barrier(p, active, live, &th.pc);
                }
                advance(th, active, pc + 1);
                return Ok(Stop::Barrier);
            }
            Flow::Moved => {}
        }
    }
}

fn advance(th: &mut Thread, active: u32, to: u32) {
    for c in 0..32 {
        if active & (1 << c) != 0 {
            th.pc[c] = to;
        }
    }
}

/// Where an instruction is: its routine, its index there and the work-group running it.
struct Location<'a, 'b> {
    routine: &'a Layout<'b>,
    index: usize,
    group: [u32; 3],
}

fn err_at(inst: InstRef<'_>, at: &Location, thread: u32, message: String) -> RunError {
    RunError {
        index: Some(at.index),
        function: (at.routine.start != 0)
            .then(|| String::from_utf8_lossy(at.routine.name).into_owned()),
        mnemonic: inst.mnemonic().to_string(),
        group: at.group,
        thread,
        message,
    }
}

enum Flow {
    Next,
    Barrier,
    /// The instruction set the channels' program counters itself.
    Moved,
}

struct Ctx<'a, 'b> {
    p: &'a Program<'b>,
    /// The routine of the instruction running.
    r: &'a Layout<'b>,
    th: &'a mut Thread,
    mem: &'a Memory,
    slm: &'a mut Vec<u8>,
    active: u32,
    grf: u32,
    /// The current instruction's mask offset (M5 -> 16): predicate bit of channel 0.
    mask_offset: u32,
    /// `--check`'s shadow state, told of every memory access.
    check: Option<&'a mut Checker>,
    /// The channel of the thread whose memory access runs (the first active one
    /// for a block message, which the whole thread makes).
    lane: u32,
    /// The accesses running belong to an atomic operation.
    atomic: bool,
    /// A NoMask one-channel instruction: IGC's single access for every active
    /// channel (a uniform load the thread makes once).
    thread_wide: bool,
    /// The work-group running.
    group: [u32; 3],
    /// `--check uninit`: the channels whose sources read an undefined register
    /// byte, and the first such byte's origin (`check/registers.rs`).
    undefined: Cell<(u32, u32)>,
    /// A use of an undefined value (origin, channel, how), reported after the step.
    undefined_use: Cell<Option<(u32, u32, &'static str)>>,
}

/// The variable an instruction's `dst` names and its bytes (for [`super::Step`]).
fn stepped_dst<'t>(
    r: &super::Layout<'_>,
    th: &'t Thread,
    inst: InstRef<'_>,
) -> Option<(u32, &'t [u8])> {
    let Some(Operand::Vector(v)) = inst.operand("dst") else {
        return None;
    };
    let VectorKind::General { id, .. } = v.kind else {
        return None;
    };
    let slot = r.vars.get(id as usize).copied().flatten()?;
    let at = slot.base as usize;
    Some((id, th.grf.get(at..at + slot.bytes as usize)?))
}

fn region_params(r: Region) -> Res<RegionParams> {
    let h = r
        .hstride()
        .ok_or(Fault("region without a horizontal stride".into()))?;
    Ok(RegionParams {
        vstride: r.vstride().map(u32::from),
        width: r.width().map(u32::from).unwrap_or(1),
        hstride: u32::from(h),
    })
}

impl Ctx<'_, '_> {
    fn vector(&self, inst: InstRef<'_>, name: &str) -> Res<Vector> {
        match inst.operand(name) {
            Some(Operand::Vector(v)) => Ok(*v),
            _ => fault(format!("operand `{name}` missing")),
        }
    }
    fn raw(&self, inst: InstRef<'_>, name: &str) -> Res<Raw> {
        match inst.operand(name) {
            Some(Operand::Raw(r)) => Ok(*r),
            _ => fault(format!("operand `{name}` missing")),
        }
    }
    fn int_field(&self, inst: InstRef<'_>, name: &str) -> Res<u32> {
        match inst.operand(name) {
            Some(Operand::Int(v)) => Ok(*v),
            _ => fault(format!("field `{name}` missing")),
        }
    }

    /// A direct operand's variable, element size and first byte in the register space.
    fn direct(&self, id: u32, row: u8, col: u8) -> Res<(super::Slot, u32, i64)> {
        let s = self.slot(id)?;
        let es = s.ty.size().unwrap_or(4) as u32;
        let origin = s.base as i64 + direct_origin(row as u32, col as u32, es, self.grf);
        Ok((s, es, origin))
    }

    fn slot(&self, id: u32) -> Res<super::Slot> {
        self.r
            .vars
            .get(id as usize)
            .copied()
            .flatten()
            .ok_or_else(|| Fault(format!("variable V{id} is not declared")))
    }

    fn load(&self, at: i64, ty: Type) -> Res<u64> {
        let size = ty.size().unwrap_or(4);
        let g = &self.th.grf;
        let s = usize::try_from(at)
            .ok()
            .and_then(|a| g.get(a..a + size))
            .ok_or_else(|| {
                Fault(format!(
                    "register access at byte {at} outside the register file"
                ))
            })?;
        let mut b = [0u8; 8];
        b[..size].copy_from_slice(s);
        Ok(u64::from_le_bytes(b))
    }
    /// Writes channel `c`'s element (defined unless its sources were not).
    fn store(&mut self, c: usize, at: i64, ty: Type, bits: u64) -> Res<()> {
        let size = ty.size().unwrap_or(4);
        if let Some(check) = self.check.as_deref_mut() {
            let (channels, origin) = self.undefined.get();
            let origin = if channels & (1 << c) != 0 { origin } else { 0 };
            check.reg_define(at.max(0) as usize, size, origin);
        }
        let g = &mut self.th.grf;
        let s = usize::try_from(at)
            .ok()
            .and_then(|a| g.get_mut(a..a + size))
            .ok_or_else(|| {
                Fault(format!(
                    "register access at byte {at} outside the register file"
                ))
            })?;
        s.copy_from_slice(&bits.to_le_bytes()[..size]);
        Ok(())
    }

    /// `--check uninit`: channel `c` of a source read the element at `at`; an
    /// undefined byte there makes what the channel computes undefined.
    fn note_source(&self, c: usize, at: i64, ty: Type) {
        let Some(check) = self.check.as_deref() else {
            return;
        };
        let origin = check.reg_undefined(at.max(0) as usize, ty.size().unwrap_or(4));
        if origin != 0 && c < 32 {
            let (channels, first) = self.undefined.get();
            let first = if first == 0 { origin } else { first };
            self.undefined.set((channels | 1 << c, first));
        }
    }

    /// Channel `c`'s sources are used `how`: undefined ones are a finding.
    fn use_sources(&self, c: usize, how: &'static str) {
        let (channels, origin) = self.undefined.get();
        if channels & (1 << c) != 0 && self.undefined_use.get().is_none() {
            self.undefined_use
                .set(Some((origin, self.channel_lane(c), how)));
        }
    }

    /// A message reads `len` register bytes at `at`: undefined ones are a finding.
    fn use_register(&self, at: usize, len: usize) {
        let Some(check) = self.check.as_deref() else {
            return;
        };
        let origin = check.reg_undefined(at, len);
        if origin != 0 && self.undefined_use.get().is_none() {
            self.undefined_use
                .set(Some((origin, self.lane, "in a message")));
        }
    }

    fn addr_value(&self, id: u16, elem: usize) -> Res<u32> {
        let base = *self
            .r
            .addr_base
            .get(id as usize)
            .ok_or_else(|| Fault(format!("address variable A{id} is not declared")))?;
        self.th
            .addr
            .get(base as usize + elem)
            .copied()
            .ok_or_else(|| Fault(format!("A{id}({elem}) is beyond the variable")))
    }

    /// The values of a source operand for `exec` channels, with its type.
    fn src(&self, v: &Vector, exec: u32) -> Res<(Lanes, Type)> {
        let mut vals = Lanes::EMPTY;
        let ty = self.src_into(v, exec, &mut vals)?;
        Ok((vals, ty))
    }

    /// [`Self::src`] into `out` (the interpreter's hottest path: no list per operand).
    fn src_into(&self, v: &Vector, exec: u32, out: &mut Lanes) -> Res<Type> {
        let exec = exec.min(32);
        out.len = exec as usize;
        let ty = match v.kind {
            VectorKind::Immediate { ty, bits } => {
                let bits = bits.get();
                let t = Type::of_operand_byte(ty);
                for c in 0..exec {
                    out.vals[c as usize] = match t {
                        Type::V => {
                            let n = ((bits >> (4 * (c % 8))) & 0xF) as i128;
                            Val::I(if n >= 8 { n - 16 } else { n })
                        }
                        Type::UV => Val::I(((bits >> (4 * (c % 8))) & 0xF) as i128),
                        Type::VF => Val::F(vf((bits >> (8 * (c % 4))) as u8)),
                        _ => decode(t, bits),
                    };
                }
                match t {
                    Type::V => Type::W,
                    Type::UV => Type::UW,
                    Type::VF => Type::F,
                    t => t,
                }
            }
            VectorKind::General {
                id,
                row,
                col,
                region,
            } => {
                let (s, es, origin) = self.direct(id, row, col)?;
                let mut offsets = Offsets::default();
                source_offsets(
                    origin,
                    es,
                    self.grf,
                    exec,
                    region_params(region)?,
                    &mut offsets,
                )
                .map_err(|e| Fault(e.to_string()))?;
                for (c, (slot, at)) in out.vals.iter_mut().zip(offsets.iter()).enumerate() {
                    *slot = decode(s.ty, self.load(*at, s.ty)?);
                    self.note_source(c, *at, s.ty);
                }
                s.ty
            }
            VectorKind::Indirect {
                addr,
                addr_offset,
                offset,
                ty,
                region,
            } => {
                let t = Type::of_operand_byte(ty);
                let es = t.size().unwrap_or(4) as u32;
                let rp = region_params(region)?;
                if rp.vstride.is_none() {
                    // Multi-address: row i starts at address element addr_offset + i.
                    let rows = exec / rp.width.max(1);
                    let addrs = (0..rows)
                        .map(|i| {
                            self.addr_value(addr, addr_offset as usize + i as usize)
                                .map(i64::from)
                        })
                        .collect::<Res<Vec<_>>>()?;
                    let els = indirect_multi_elements(
                        &addrs,
                        offset as i64,
                        es,
                        self.grf,
                        exec,
                        rp.width,
                        rp.hstride,
                    )
                    .map_err(|e| Fault(e.to_string()))?;
                    for (c, (slot, e)) in out.vals.iter_mut().zip(els.iter()).enumerate() {
                        *slot = decode(t, self.load(e.byte_offset, t)?);
                        self.note_source(c, e.byte_offset, t);
                    }
                } else {
                    let origin =
                        self.addr_value(addr, addr_offset as usize)? as i64 + offset as i64;
                    let mut offsets = Offsets::default();
                    source_offsets(origin, es, self.grf, exec, rp, &mut offsets)
                        .map_err(|e| Fault(e.to_string()))?;
                    for (c, (slot, at)) in out.vals.iter_mut().zip(offsets.iter()).enumerate() {
                        *slot = decode(t, self.load(*at, t)?);
                        self.note_source(c, *at, t);
                    }
                }
                t
            }
            VectorKind::Address { id, offset, width } => {
                let n = 1u32 << width.min(5);
                for c in 0..exec {
                    let a = self.addr_value(id, offset as usize + (c as usize % n as usize))?;
                    out.vals[c as usize] = Val::I(a as i128);
                }
                Type::UW
            }
            VectorKind::Predicate(pr) => {
                // Channel n reads bit n (from the mask offset); a scalar read takes them all.
                let bits = self.pred_bits(pr.id())? >> self.mask_offset;
                if exec == 1 {
                    out.vals[0] = Val::I(bits as i128);
                } else {
                    for c in 0..exec {
                        out.vals[c as usize] = Val::I(((bits >> c) & 1) as i128);
                    }
                }
                Type::UD
            }
            VectorKind::State { class, index, .. } => {
                let s = match class {
                    0 => self.surface(index as u32)?,
                    1 => self.sampler_var(index as u32)?,
                    _ => return fault("VME state operands are not supported"),
                };
                out.vals[..exec as usize].fill(Val::I(s as i128));
                Type::UD
            }
        };
        apply_modifier(v.modifier, out);
        Ok(ty)
    }

    fn surface(&self, id: u32) -> Res<u32> {
        self.th
            .surfaces
            .get(id as usize)
            .copied()
            .ok_or_else(|| Fault(format!("surface T{id} is not declared")))
    }

    fn sampler_var(&self, id: u32) -> Res<u32> {
        self.th
            .samplers
            .get(id as usize)
            .copied()
            .ok_or_else(|| Fault(format!("sampler S{id} is not declared")))
    }

    fn pred_bits(&self, id: u16) -> Res<u32> {
        if id == 0 {
            return Ok(0);
        }
        let at = self.pred_index(id)?;
        Ok(self.th.preds[at])
    }

    /// Where the running routine's predicate `id` (not P0) lives in the thread's predicates.
    fn pred_index(&self, id: u16) -> Res<usize> {
        if id as usize > self.r.pred_count {
            return fault(format!("predicate P{id} is not declared"));
        }
        Ok(self.r.pred_base + id as usize - 1)
    }

    /// The byte offsets a destination writes, per channel, and its type.
    fn dst_elems(&self, v: &Vector, exec: u32, offsets: &mut Offsets) -> Res<Type> {
        match v.kind {
            VectorKind::General {
                id,
                row,
                col,
                region,
            } => {
                let (s, es, origin) = self.direct(id, row, col)?;
                let h = region.hstride().unwrap_or(1).max(1) as u32;
                destination_offsets(origin, es, self.grf, exec, h, offsets)
                    .map_err(|e| Fault(e.to_string()))?;
                Ok(s.ty)
            }
            VectorKind::Indirect {
                addr,
                addr_offset,
                offset,
                ty,
                region,
            } => {
                let t = Type::of_operand_byte(ty);
                let es = t.size().unwrap_or(4) as u32;
                let origin = self.addr_value(addr, addr_offset as usize)? as i64 + offset as i64;
                let h = region.hstride().unwrap_or(1).max(1) as u32;
                destination_offsets(origin, es, self.grf, exec, h, offsets)
                    .map_err(|e| Fault(e.to_string()))?;
                Ok(t)
            }
            _ => fault("destination kind not supported here"),
        }
    }

    /// Writes `vals` to a destination for the channels in `chen`.
    fn write(&mut self, v: &Vector, exec: u32, chen: u32, vals: &[Val]) -> Res<()> {
        let sat = v.modifier == Modifier::SAT;
        match v.kind {
            VectorKind::General { id: 0, .. } => Ok(()),
            VectorKind::Address { id, offset, .. } => {
                let base = *self
                    .r
                    .addr_base
                    .get(id as usize)
                    .ok_or_else(|| Fault(format!("address variable A{id} is not declared")))?;
                for c in 0..exec {
                    if chen & (1 << c) != 0 {
                        self.use_sources(c as usize, "as an address");
                        let at = base as usize + offset as usize + c as usize;
                        let slot =
                            self.th.addr.get_mut(at).ok_or_else(|| {
                                Fault(format!("A{id} element beyond the variable"))
                            })?;
                        *slot = int(vals[c as usize]) as u32 & 0xFFFF;
                    }
                }
                Ok(())
            }
            VectorKind::State {
                class: class @ (0 | 1),
                index,
                ..
            } => {
                if chen & 1 != 0 {
                    let v0 = int(vals[0]) as u32;
                    let (vars, what) = if class == 0 {
                        (&mut self.th.surfaces, "surface T")
                    } else {
                        (&mut self.th.samplers, "sampler S")
                    };
                    let s = vars
                        .get_mut(index as usize)
                        .ok_or_else(|| Fault(format!("{what}{index} is not declared")))?;
                    *s = v0;
                }
                Ok(())
            }
            VectorKind::Predicate(pr) => {
                let mut bits = self.pred_bits(pr.id())?;
                if exec == 1 && chen & 1 != 0 {
                    let v = (int(vals[0]) as u32) << self.mask_offset;
                    return self.set_pred(pr.id(), v);
                }
                for c in 0..exec {
                    if chen & (1 << c) != 0 {
                        let on = int(vals[c as usize]) & 1 != 0;
                        let b = self.mask_offset + c;
                        bits = (bits & !(1 << b)) | ((on as u32) << b);
                    }
                }
                self.set_pred(pr.id(), bits)
            }
            _ => {
                let mut offs = Offsets::default();
                let ty = self.dst_elems(v, exec, &mut offs)?;
                for c in 0..exec as usize {
                    if chen & (1 << c) != 0 {
                        self.store(c, offs[c], ty, encode(ty, vals[c], sat))?;
                    }
                }
                Ok(())
            }
        }
    }

    fn set_pred(&mut self, id: u16, bits: u32) -> Res<()> {
        if id == 0 {
            return Ok(());
        }
        let at = self.pred_index(id)?;
        self.th.preds[at] = bits;
        Ok(())
    }

    /// The instruction's channel enables (`EvaluateChEn`), with or without its predicate.
    fn chen(&self, inst: InstRef<'_>, with_pred: bool) -> Res<(u32, u32)> {
        let e = inst.exec().ok_or(Fault("no execution control".into()))?;
        let exec = e.exec_size().ok_or(Fault("bad exec size".into()))?;
        let mask = MaskControl::from_code(e.emask()).ok_or(Fault("bad emask".into()))?;
        let pred = if with_pred {
            self.predication(inst, mask)?
        } else {
            None
        };
        let ch = channel_enable(exec, mask, ExecMask(self.active), pred)
            .map_err(|e| Fault(e.to_string()))?;
        Ok((exec, ch))
    }

    fn predication(&self, inst: InstRef<'_>, _mask: MaskControl) -> Res<Option<Predication>> {
        let Some(pr) = inst.pred().filter(|p| !p.is_none()) else {
            return Ok(None);
        };
        Ok(Some(Predication {
            bits: self.pred_bits(pr.id())?,
            control: match pr.control() {
                1 => PredControl::Any,
                2 => PredControl::All,
                _ => PredControl::Sequential,
            },
            inverse: pr.inverse(),
        }))
    }

    /// The predicate's per-channel value (for sel and goto), relative to channel 0.
    fn pred_select(&self, inst: InstRef<'_>, exec: u32) -> Res<Option<u32>> {
        let e = inst.exec().ok_or(Fault("no execution control".into()))?;
        let mask = MaskControl::from_code(e.emask()).ok_or(Fault("bad emask".into()))?;
        let Some(p) = self.predication(inst, mask)? else {
            return Ok(None);
        };
        let all = MaskControl {
            group: mask.group,
            no_mask: true,
        };
        Ok(Some(
            channel_enable(exec, all, ExecMask(u32::MAX), Some(p))
                .map_err(|e| Fault(e.to_string()))?,
        ))
    }

    fn step(&mut self, inst: InstRef<'_>, pc: u32) -> Res<Flow> {
        let op = inst.opcode;
        match op {
            Opcode::LABEL | Opcode::FUNC | Opcode::FILE | Opcode::LOC | Opcode::LIFETIME => {
                Ok(Flow::Next)
            }
            Opcode::FENCE | Opcode::LSC_FENCE => {
                if let Some(c) = self.check.as_deref_mut() {
                    // fence_local (bit 5 of the mask), or an LSC fence of SLM; a
                    // scheduling fence (bit 7) orders no memory.
                    match (inst.opcode, inst.operand("mask"), inst.operand("sfid")) {
                        (Opcode::FENCE, Some(Operand::Int(m)), _) if m & 0x80 == 0 => {
                            c.fence(m & 0x20 != 0)
                        }
                        (Opcode::LSC_FENCE, _, Some(Operand::Int(sfid))) => {
                            c.fence(*sfid == lsc::SFID_SLM)
                        }
                        _ => {}
                    }
                }
                Ok(Flow::Next)
            }
            Opcode::WAIT | Opcode::SAMPLR_CACHE_FLUSH => Ok(Flow::Next),
            Opcode::YIELD => Ok(Flow::Next),
            Opcode::BARRIER => Ok(Flow::Barrier),
            Opcode::SBARRIER => {
                // signal (1) then wait (0): the wait is where threads meet.
                if self.int_field(inst, "mode")? == 0 {
                    Ok(Flow::Barrier)
                } else {
                    Ok(Flow::Next)
                }
            }
            Opcode::GOTO | Opcode::JMP => self.branch(inst, pc),
            Opcode::RET | Opcode::FRET => {
                // Each channel returns to where it called from; with no call open, it ends.
                for c in 0..32 {
                    if self.active & (1 << c) != 0 {
                        self.th.pc[c] = self.th.calls[c].pop().unwrap_or(DONE);
                    }
                }
                Ok(Flow::Moved)
            }
            Opcode::CALL => {
                let target = self.label_target(inst)?;
                for c in 0..32 {
                    if self.active & (1 << c) != 0 {
                        if self.th.calls[c].len() >= 256 {
                            return fault("call depth beyond 256");
                        }
                        self.th.calls[c].push(pc + 1);
                    }
                }
                advance(self.th, self.active, target);
                Ok(Flow::Moved)
            }
            Opcode::FCALL => {
                let index = self.int_field(inst, "function")? as usize;
                let name =
                    self.r.strings.get(index).ok_or_else(|| {
                        Fault(format!("string {index} is not in the string pool"))
                    })?;
                let target = self.function_named(name).ok_or_else(|| {
                    Fault(format!(
                        "fcall of {:?}: no such function was given (visa run --function)",
                        String::from_utf8_lossy(name)
                    ))
                })?;
                self.call_function(target, pc)
            }
            Opcode::IFCALL => {
                let addr = self.scalar(inst, "function_addr")? as u64;
                let target = addr
                    .checked_sub(FUNCTION_ADDRESS)
                    .and_then(|i| usize::try_from(i).ok())
                    .filter(|i| (1..self.p.routines.len()).contains(i))
                    .ok_or_else(|| {
                        Fault(format!(
                            "ifcall of {addr:#x}: not the address of a function faddr took"
                        ))
                    })?;
                self.call_function(target, pc)
            }
            Opcode::SWITCHJMP => {
                let index = self.scalar(inst, "index")?;
                let Some(Operand::LabelList(labels)) = inst.operand("labels") else {
                    return fault("switchjmp without labels");
                };
                let label = usize::try_from(index)
                    .ok()
                    .and_then(|i| labels.get(i))
                    .ok_or_else(|| {
                        Fault(format!(
                            "switchjmp index {index} is outside its {} labels",
                            labels.len()
                        ))
                    })?;
                let target = self.label_at(*label)?;
                advance(self.th, self.active, target);
                Ok(Flow::Moved)
            }
            Opcode::RAW_SEND | Opcode::RAW_SENDS => self.raw_send(inst),
            Opcode::SVM => self.svm(inst),
            Opcode::LSC_UNTYPED => self.lsc_untyped(inst),
            Opcode::GATHER4_SCALED | Opcode::SCATTER4_SCALED => self.gather4_scaled(inst),
            Opcode::GATHER_SCALED | Opcode::SCATTER_SCALED => self.gather_scaled(inst),
            Opcode::DWORD_ATOMIC => self.dword_atomic(inst),
            Opcode::OWORD_LD | Opcode::OWORD_LD_UNALIGNED | Opcode::OWORD_ST => self.oword(inst),
            Opcode::SAMPLE_3D => self.sample_3d(inst),
            Opcode::INFO_3D => self.resinfo(inst),
            Opcode::FADDR => self.faddr(inst),
            Opcode::GATHER4_TYPED | Opcode::SCATTER4_TYPED => self.typed4(inst),
            Opcode::MEDIA_LD | Opcode::MEDIA_ST => self.media_block(inst),
            Opcode::DPAS => self.dpas(inst),
            _ => self.alu(inst),
        }
    }

    /// raw_send/raw_sends: a message given by its hardware descriptors. None is
    /// decoded yet; the error names the shared function and the descriptors, so the
    /// message can be looked up (IGC's OpenCL code uses the typed vISA messages).
    fn raw_send(&mut self, inst: InstRef<'_>) -> Res<Flow> {
        // The descriptors' values as this instruction sees them (immediate or variable).
        let desc = self.scalar(inst, "desc")? as u32;
        let (sfid, ex_desc) = if inst.opcode == Opcode::RAW_SEND {
            let ex = self.int_field(inst, "ex_desc")?;
            (ex & 0xF, ex)
        } else {
            let ex = self.scalar(inst, "ex_desc")? as u32;
            (self.int_field(inst, "sfid").unwrap_or(ex & 0xF), ex)
        };
        fault(format!(
            "{} of SFID {sfid:#x}, descriptor {desc:#010x}, extended descriptor {ex_desc:#010x}: raw messages are not decoded by the interpreter",
            inst.mnemonic()
        ))
    }

    /// The routine index of the function called `name`.
    fn function_named(&self, name: &[u8]) -> Option<usize> {
        (1..self.p.routines.len()).find(|i| self.p.routines[*i].name == name)
    }

    /// fcall/ifcall: the active channels continue in function `target` and come back
    /// after this instruction at its fret. Each function has one set of registers,
    /// so a call of a function already on a channel's call stack is refused.
    fn call_function(&mut self, target: usize, pc: u32) -> Res<Flow> {
        let callee = &self.p.routines[target];
        let range = callee.start..callee.start + callee.insts.len() as u32;
        for c in 0..32 {
            if self.active & (1 << c) == 0 {
                continue;
            }
            let calls = &mut self.th.calls[c];
            if range.contains(&pc) || calls.iter().any(|ret| range.contains(&(ret - 1))) {
                return fault(format!(
                    "recursive call of {}: the interpreter gives each function one set of registers",
                    String::from_utf8_lossy(callee.name)
                ));
            }
            if calls.len() >= 256 {
                return fault("call depth beyond 256");
            }
            calls.push(pc + 1);
        }
        advance(self.th, self.active, callee.start);
        Ok(Flow::Moved)
    }

    fn label_target(&self, inst: InstRef<'_>) -> Res<u32> {
        let Some(Operand::Label(l)) = inst.operand("label") else {
            return fault("no label operand");
        };
        self.label_at(*l)
    }

    /// The program counter of label `l` of the running routine.
    fn label_at(&self, l: u16) -> Res<u32> {
        self.r
            .labels
            .get(l as usize)
            .copied()
            .flatten()
            .map(|i| self.r.start + i as u32)
            .ok_or_else(|| Fault(format!("label {l} is never placed")))
    }

    fn branch(&mut self, inst: InstRef<'_>, pc: u32) -> Res<Flow> {
        let target = self.label_target(inst)?;
        let e = inst.exec().ok_or(Fault("no execution control".into()))?;
        let exec = e.exec_size().ok_or(Fault("bad exec size".into()))?;
        let mask = MaskControl::from_code(e.emask()).ok_or(Fault("bad emask".into()))?;
        let offset = mask.offset();
        let taken_rel = self.pred_select(inst, exec)?.unwrap_or(u32::MAX);
        if inst.opcode == Opcode::JMP || exec == 1 {
            // A scalar jump (jmp, or a goto of one channel): every active channel goes,
            // by channel 0's predicate.
            let go = taken_rel & 1 != 0;
            advance(self.th, self.active, if go { target } else { pc + 1 });
            return Ok(Flow::Moved);
        }
        // goto: per channel, among the channels this instruction covers.
        let span = if exec == 32 {
            u32::MAX
        } else {
            ((1u32 << exec) - 1) << offset
        };
        let taken = (taken_rel << offset) & span;
        for c in 0..32 {
            if self.active & (1 << c) != 0 {
                self.th.pc[c] = if taken & (1 << c) != 0 {
                    target
                } else {
                    pc + 1
                };
            }
        }
        Ok(Flow::Moved)
    }

    fn alu(&mut self, inst: InstRef<'_>) -> Res<Flow> {
        // The operands' values go to the thread's buffers, reused instruction after
        // instruction (taken out of the thread while this one runs).
        let mut lanes = std::mem::take(&mut self.th.lanes);
        if lanes.len() < 5 {
            lanes.resize(5, Lanes::EMPTY);
        }
        let result = self.alu_with(inst, &mut lanes);
        self.th.lanes = lanes;
        result
    }

    /// The ALU instruction, sources in `lanes[..4]` and the result in `lanes[4]`.
    fn alu_with(&mut self, inst: InstRef<'_>, lanes: &mut [Lanes]) -> Res<Flow> {
        let op = inst.opcode;
        let fields = inst.fields().unwrap_or(&[]);
        let has = |n: &str| fields.iter().any(|f| f.name == n);
        if !has("dst") || !has("src0") || inst.exec().is_none() {
            return fault("instruction not supported by the interpreter");
        }
        let dst = self.vector(inst, "dst")?;
        if op == Opcode::ADDR_ADD {
            return self.addr_add(inst, &dst);
        }
        let is_sel = op == Opcode::SEL;
        let (exec, chen) = self.chen(inst, !is_sel && op != Opcode::CMP)?;
        let names = ["src0", "src1", "src2", "src3"];
        let (src_buf, out_buf) = lanes.split_at_mut(4);
        let mut tys = [Type::UD; 4];
        let mut count = 0;
        for n in names {
            if let Some(Operand::Vector(v)) = inst.operand(n) {
                tys[count] = self.src_into(v, exec, &mut src_buf[count])?;
                count += 1;
            }
        }
        let srcs = &src_buf[..count];
        let tys = &tys[..count];
        let dst_ty = match dst.kind {
            VectorKind::General { id, .. } => self.slot(id).map(|s| s.ty).unwrap_or(Type::UD),
            VectorKind::Indirect { ty, .. } => Type::of_operand_byte(ty),
            _ => Type::UD,
        };
        let float = is_float(dst_ty) || tys.iter().any(|t| is_float(*t));
        let unsigned = tys.iter().all(|t| is_unsigned(*t));
        let s = |k: usize, c: usize| -> Val { srcs.get(k).map(|v| v[c]).unwrap_or(Val::I(0)) };
        let src0_bits = tys.first().map(|t| t.size().unwrap_or(4) * 8).unwrap_or(32) as u32;
        let out = &mut out_buf[0];
        out.len = exec.min(32) as usize;
        match op {
            Opcode::CMP => {
                let relop = self.int_field(inst, "relop")?;
                let mut bits = 0u32;
                for c in 0..exec as usize {
                    let (a, b) = (s(0, c), s(1, c));
                    let (a, b) = if float {
                        (Val::F(flt(a)), Val::F(flt(b)))
                    } else {
                        (Val::I(int(a)), Val::I(int(b)))
                    };
                    let r = alu::compare(Relation::from_visa(relop), a, b);
                    if r {
                        bits |= 1 << c;
                    }
                    // A general destination gets every bit set for true, whatever its type.
                    out[c] = Val::I(if r { -1 } else { 0 });
                }
                if let VectorKind::Predicate(pr) = dst.kind {
                    let old = self.pred_bits(pr.id())?;
                    let e = inst.exec().map(|e| e.emask()).unwrap_or(0);
                    let offset = MaskControl::from_code(e).map(|m| m.offset()).unwrap_or(0);
                    let m = chen << offset;
                    let new = (old & !m) | ((bits << offset) & m);
                    return self.set_pred(pr.id(), new).map(|_| Flow::Next);
                }
                let mut offs = Offsets::default();
                let ty = self.dst_elems(&dst, exec, &mut offs)?;
                for c in 0..exec as usize {
                    if chen & (1 << c) != 0 {
                        let bits = if int(out[c]) != 0 { u64::MAX } else { 0 };
                        self.store(c, offs[c], ty, bits)?;
                    }
                }
                return Ok(Flow::Next);
            }
            Opcode::SETP => {
                let VectorKind::Predicate(pr) = dst.kind else {
                    return fault("setp destination is not a predicate");
                };
                let vals = &srcs[0];
                let scalar = match self.vector(inst, "src0")?.kind {
                    VectorKind::Immediate { .. } => true,
                    VectorKind::General { region, .. } => {
                        region.width() == Some(1) && region.vstride() == Some(0)
                    }
                    _ => true,
                };
                let mut bits = 0u32;
                for c in 0..exec as usize {
                    let on = if scalar {
                        (int(vals[0]) >> c) & 1 != 0
                    } else {
                        int(vals[c]) & 1 != 0
                    };
                    if on {
                        bits |= 1 << c;
                    }
                }
                let e = inst.exec().map(|e| e.emask()).unwrap_or(0);
                let offset = MaskControl::from_code(e).map(|m| m.offset()).unwrap_or(0);
                let old = self.pred_bits(pr.id())?;
                let m = chen << offset;
                let new = (old & !m) | ((bits << offset) & m);
                return self.set_pred(pr.id(), new).map(|_| Flow::Next);
            }
            Opcode::ADDC | Opcode::SUBB => {
                let carry = self.vector(inst, "carry")?;
                let mut cv = Lanes::splat(exec, Val::I(0));
                for c in 0..exec as usize {
                    let a = int(s(0, c)) as u32 as i128;
                    let b = int(s(1, c)) as u32 as i128;
                    let (r, k) = if op == Opcode::ADDC {
                        let r = a + b;
                        (r & 0xFFFF_FFFF, (r >> 32) & 1)
                    } else {
                        ((a - b) & 0xFFFF_FFFF, (a < b) as i128)
                    };
                    out[c] = Val::I(r);
                    cv[c] = Val::I(k);
                }
                self.write(&dst, exec, chen, out)?;
                self.write(&carry, exec, chen, &cv)?;
                return Ok(Flow::Next);
            }
            Opcode::MADW => {
                let mut offs = Offsets::default();
                let ty = self.dst_elems(&dst, exec, &mut offs)?;
                let hi_at =
                    ((exec as u64 * 4).div_ceil(u64::from(self.grf)) * u64::from(self.grf)) as i64;
                for c in 0..exec as usize {
                    if chen & (1 << c) == 0 {
                        continue;
                    }
                    self.lane = self.channel_lane(c);
                    let r = int(s(0, c))
                        .wrapping_mul(int(s(1, c)))
                        .wrapping_add(int(s(2, c)));
                    self.store(c, offs[c], ty, r as u64 & 0xFFFF_FFFF)?;
                    self.store(c, offs[c] + hi_at, ty, (r >> 32) as u64 & 0xFFFF_FFFF)?;
                }
                return Ok(Flow::Next);
            }
            _ => {}
        }
        let sel_bits = if is_sel {
            self.pred_select(inst, exec)?
        } else {
            None
        };
        // bfn's truth table: bit (s2 << 2 | s1 << 1 | s0) of func_ctrl is the result bit
        // (the table is the function evaluated on s0 = 0xAA, s1 = 0xCC, s2 = 0xF0).
        let bfn_table = if op == Opcode::BFN {
            self.int_field(inst, "func_ctrl")?
        } else {
            0
        };
        // %cr0's float mode: arithmetic flushes denormal operands and rounds and
        // flushes its results; moves, selects and min/max copy values (a move that
        // converts rounds its result too).
        let mode = if float {
            self.float_mode()?
        } else {
            FloatMode::from_cr0(FloatMode::IEEE_CR0)
        };
        let copies = matches!(op, Opcode::SEL | Opcode::FMINMAX)
            || (matches!(op, Opcode::MOV | Opcode::MOVS) && tys.first() == Some(&dst_ty));
        let arithmetic = !copies && !matches!(op, Opcode::MOV | Opcode::MOVS);
        let flt_in = |k: usize, c: usize| {
            let v = flt(s(k, c));
            match tys.get(k) {
                Some(&t) if arithmetic => mode.operand(t, v),
                _ => v,
            }
        };
        for c in 0..exec as usize {
            out[c] = if float {
                let (a, b, x) = (flt_in(0, c), flt_in(1, c), flt_in(2, c));
                Val::F(match op {
                    Opcode::MOV | Opcode::MOVS => {
                        if is_float(dst_ty) {
                            a
                        } else {
                            out[c] = convert_to_int(s(0, c));
                            continue;
                        }
                    }
                    Opcode::SEL => {
                        if sel_bits.is_none_or(|b| b & (1 << c) != 0) {
                            a
                        } else {
                            b
                        }
                    }
                    Opcode::ADD => a + b,
                    Opcode::MUL => a * b,
                    Opcode::MAD => super::value::mad(a, b, x, dst_ty == Type::F),
                    // divm: the IEEE-exact division (correctly rounded from f64).
                    Opcode::DIV | Opcode::DIVM => a / b,
                    Opcode::INV => 1.0 / a,
                    // sqrtm: the IEEE-exact square root (correctly rounded from f64).
                    Opcode::SQRT | Opcode::SQRTM => a.sqrt(),
                    Opcode::RSQRT => 1.0 / a.sqrt(),
                    Opcode::EXP => a.exp2(),
                    Opcode::LOG => a.log2(),
                    Opcode::SIN => a.sin(),
                    Opcode::COS => a.cos(),
                    Opcode::POW => a.powf(b),
                    Opcode::RNDD => a.floor(),
                    Opcode::RNDU => a.ceil(),
                    Opcode::RNDZ => a.trunc(),
                    Opcode::RNDE => a.round_ties_even(),
                    Opcode::FRC => a - a.floor(),
                    Opcode::FMINMAX => {
                        let max = self.int_field(inst, "op")? != 0;
                        alu::float_min_max(max, a, b)
                    }
                    Opcode::LRP => a * b + (1.0 - a) * x,
                    _ => {
                        return fault(format!(
                            "{} on floating-point operands is not supported",
                            inst.mnemonic()
                        ))
                    }
                })
            } else {
                let (a, b, x) = (int(s(0, c)), int(s(1, c)), int(s(2, c)));
                Val::I(match op {
                    Opcode::MOV | Opcode::MOVS => a,
                    Opcode::SEL => {
                        if sel_bits.is_none_or(|bb| bb & (1 << c) != 0) {
                            a
                        } else {
                            b
                        }
                    }
                    Opcode::ADD => a.wrapping_add(b),
                    Opcode::ADD3 => a.wrapping_add(b).wrapping_add(x),
                    Opcode::MUL => a.wrapping_mul(b),
                    Opcode::MAD => a.wrapping_mul(b).wrapping_add(x),
                    Opcode::MULH => (a.wrapping_mul(b)) >> 32,
                    Opcode::AVG => alu::avg(a, b),
                    Opcode::DIV | Opcode::MOD if b == 0 => {
                        // Not a fault: the channel gets the value the hardware gives
                        // (disabled channels divide whatever their registers hold).
                        if chen & (1 << c) != 0 {
                            self.th.note(Finding::ZeroDivisor);
                            self.flag(
                                Kind::DivZero,
                                self.mask_offset + c as u32,
                                None,
                                None,
                                format!(
                                    "integer {} by zero (the channel gets the hardware's value)",
                                    op.mnemonic()
                                ),
                            );
                        }
                        alu::int_divide(a, b, op == Opcode::MOD)
                    }
                    Opcode::DIV | Opcode::MOD => alu::int_divide(a, b, op == Opcode::MOD),
                    Opcode::AND => a & b,
                    Opcode::OR => a | b,
                    Opcode::XOR => a ^ b,
                    Opcode::NOT => !a,
                    Opcode::BFN => alu::bfn(bfn_table as u8, a, b, x),
                    Opcode::SHL => alu::shl(a, b, src0_bits),
                    Opcode::SHR => alu::shr(a, b, src0_bits),
                    Opcode::ASR => alu::asr(a, b, src0_bits),
                    Opcode::ROL | Opcode::ROR => {
                        alu::rotate(a, b, src0_bits.min(64), op == Opcode::ROL)
                    }
                    Opcode::FMINMAX => {
                        let max = self.int_field(inst, "op")? != 0;
                        if max {
                            a.max(b)
                        } else {
                            a.min(b)
                        }
                    }
                    Opcode::CBIT => alu::cbit(a, src0_bits.min(32)),
                    Opcode::LZD => alu::lzd(a),
                    Opcode::FBL => alu::fbl(a),
                    Opcode::FBH => alu::fbh(a, !unsigned),
                    Opcode::BFREV => alu::bfrev(a),
                    // width src0, offset src1, value src2
                    Opcode::BFE => alu::bfe(a, b, x, !unsigned),
                    Opcode::BFI => alu::bfi_merge(alu::bfi_mask(a, b), x, int(s(3, c))),
                    _ => {
                        return fault(format!(
                            "{} is not supported by the interpreter yet",
                            inst.mnemonic()
                        ))
                    }
                })
            };
        }
        if float && !copies && !mode.is_native() {
            for v in out.iter_mut() {
                if let Val::F(f) = *v {
                    *v = Val::F(mode.result(dst_ty, f));
                }
            }
        }
        self.write(&dst, exec, chen, out)?;
        Ok(Flow::Next)
    }

    /// The thread's floating-point mode, from `%cr0`.
    fn float_mode(&self) -> Res<FloatMode> {
        let slot = self.slot(CR0)?;
        Ok(FloatMode::from_cr0(
            self.load(i64::from(slot.base), Type::UD)? as u32,
        ))
    }

    /// `addr_add`: an address register gets a variable's register byte offset (or
    /// another address) plus an offset in bytes.
    fn addr_add(&mut self, inst: InstRef<'_>, dst: &Vector) -> Res<Flow> {
        let (exec, chen) = self.chen(inst, false)?;
        let src0 = self.vector(inst, "src0")?;
        let src1 = self.vector(inst, "src1")?;
        let (off, _) = self.src(&src1, exec)?;
        let mut out = Lanes::splat(exec, Val::I(0));
        for c in 0..exec as usize {
            let base = match src0.kind {
                VectorKind::General { id, row, col, .. } => self.direct(id, row, col)?.2,
                VectorKind::Address { id, offset, width } => {
                    let n = 1usize << width.min(5);
                    self.addr_value(id, offset as usize + (c % n))? as i64
                }
                _ => return fault("addr_add source 0 is neither an address nor a variable"),
            };
            out[c] = Val::I((base as i128).wrapping_add(int(off[c])));
        }
        self.write(dst, exec, chen, &out)?;
        Ok(Flow::Next)
    }

    // ---- memory ----

    /// Bytes at a resolved place.
    /// One element of a gather (`load`: memory to the raw operand at byte `at`) or a
    /// scatter (the raw operand's bytes at `at` to memory).
    fn transfer(&mut self, load: bool, place: Place, data: Raw, at: usize, len: usize) -> Res<()> {
        if len > 8 {
            if load {
                let v = self.mem_read(place, len);
                return self.raw_write(data, at, &v);
            }
            let v = self.raw_bytes_at(data, at, len)?;
            self.mem_write(place, &v);
            return Ok(());
        }
        // One element (gathers move 1 to 8 bytes a channel): through the stack.
        let mut b = [0u8; 8];
        if load {
            self.mem_read_into(place, &mut b[..len]);
            self.raw_write(data, at, &b[..len])
        } else {
            b[..len].copy_from_slice(self.raw_slice(data, at, len)?);
            self.mem_write(place, &b[..len]);
            Ok(())
        }
    }

    /// Tells `--check` of an access to `len` bytes at `place` by [`Ctx::lane`].
    /// The work-item channel `c` of the running instruction stands for: itself when
    /// active, else (a NoMask message) the first active channel.
    pub(super) fn channel_lane(&self, c: usize) -> u32 {
        let lane = self.mask_offset + c as u32;
        if lane < 32 && self.active & (1 << lane) != 0 {
            lane
        } else {
            self.active.trailing_zeros()
        }
    }

    /// `written`: the bytes a write stores (a write of what memory already holds
    /// races with no other write).
    fn check_access(&mut self, place: Place, len: usize, written: Option<&[u8]>) {
        if self.check.is_none() {
            return;
        }
        let access = match (self.atomic, written) {
            // An atomic's read and write are one access, noted at the write.
            (true, None) => return,
            (true, Some(new)) if self.mem_bytes(place, len) == new => Access::AtomicRead,
            (true, Some(_)) => Access::Atomic,
            (false, Some(new)) => Access::Write {
                unchanged: self.mem_bytes(place, len) == new,
            },
            (false, None) => Access::Read,
        };
        // A thread-wide load reads, and an atomic IGC aggregated updates, for every
        // active work-item (a store stays the one channel's: its value is one
        // work-item's).
        let lanes = if self.thread_wide && !matches!(access, Access::Write { .. }) {
            self.active
        } else {
            1 << self.lane
        };
        if let Some(c) = self.check.as_deref_mut() {
            for lane in (0..32).filter(|l| lanes & (1 << l) != 0) {
                c.access(self.p, place, len, lane, access);
            }
        }
    }

    /// The bytes at a resolved place a write will store to (bounds were checked when
    /// it was resolved; only reads may run into a buffer's padding).
    fn mem_bytes(&self, place: Place, len: usize) -> Vec<u8> {
        match place {
            Place::Buffer(b, o) => {
                let mut v = vec![0; len];
                self.mem.read(b, o, &mut v);
                v
            }
            Place::Slm(o) => self.slm[o..o + len].to_vec(),
            Place::Scratch(o) => self.th.scratch[o..o + len].to_vec(),
        }
    }

    /// The place of a `len`-byte read from a buffer, `resolve(back, len)` placing
    /// `len` bytes at `back` bytes before the read's offset. IGC's block and dword
    /// messages read whole units past what the source reads (a `vload3` of a 12-byte
    /// buffer loads 16 bytes), which a device does without harm: the runtime's
    /// allocation is larger than the buffer ([`super::message::allocation_bytes`]). Such a read gives
    /// zeros past the buffer's end and counts a [`Finding::OverRead`]; a read past the
    /// allocation is out of bounds.
    fn read_place(
        &mut self,
        len: usize,
        resolve: impl Fn(&Memory, i128, usize) -> Result<Place, OutOfBounds>,
    ) -> Res<Place> {
        let (place, miss) = super::message::read_place(self.mem, len, resolve)?;
        if let Some(e) = miss {
            self.th.note(Finding::OverRead);
            self.flag(
                Kind::OverRead,
                self.lane,
                Some(e.space.clone()),
                u64::try_from(e.offset).ok(),
                format!(
                    "a {len}-byte read runs past the end of a {}-byte buffer, into the runtime's allocation padding (a wider load than the source's access)",
                    e.size
                ),
            );
        }
        Ok(place)
    }

    /// [`Self::resolve_surface`] for a read: binding-table surfaces through [`Self::read_place`].
    fn resolve_surface_read(&mut self, surface: u32, offset: i128, len: usize) -> Res<Place> {
        match self.surface(surface)? {
            254 | 255 => self.resolve_surface(surface, offset, len),
            bti => self.read_place(len, |m, back, n| m.resolve_bti(bti, offset - back, n)),
        }
    }

    /// A stateless read of `len` bytes at `addr`, through [`Self::read_place`].
    fn resolve_a64_read(&mut self, addr: u64, len: usize) -> Res<Place> {
        self.read_place(len, |m, back, n| {
            m.resolve_a64(addr.wrapping_sub(back as u64), n)
        })
    }

    /// A finding of a check other than memory's (`over-read`, `div-zero`) by the
    /// thread's channel `lane` (0-31, the mask offset included); nothing unless
    /// `--check` asks for `kind`.
    pub(super) fn flag(
        &mut self,
        kind: Kind,
        lane: u32,
        memory: Option<String>,
        offset: Option<u64>,
        message: String,
    ) {
        if let Some(c) = self.check.as_deref_mut() {
            c.flag(self.p, kind, lane, memory, offset, message);
        }
    }

    /// The bytes at a resolved place, into `out`.
    /// A buffer place may run past the buffer's end into its allocation's padding
    /// ([`Self::read_place`]): those bytes read as zeros.
    fn mem_read_into(&mut self, place: Place, out: &mut [u8]) {
        let len = out.len();
        self.check_access(place, len, None);
        match place {
            Place::Buffer(b, o) => self.mem.buffers[b].read_padded(o, out),
            Place::Slm(o) => out.copy_from_slice(&self.slm[o..o + len]),
            Place::Scratch(o) => out.copy_from_slice(&self.th.scratch[o..o + len]),
        }
    }

    fn mem_read(&mut self, place: Place, len: usize) -> Vec<u8> {
        let mut v = vec![0; len];
        self.mem_read_into(place, &mut v);
        v
    }
    fn mem_write(&mut self, place: Place, bytes: &[u8]) {
        self.check_access(place, bytes.len(), Some(bytes));
        match place {
            Place::Buffer(b, o) => {
                self.mem.write(b, o, bytes);
            }
            Place::Slm(o) => self.slm[o..o + bytes.len()].copy_from_slice(bytes),
            Place::Scratch(o) => self.th.scratch[o..o + bytes.len()].copy_from_slice(bytes),
        }
    }
    /// An atomic update of the `size`-byte value at `place`: `update` maps the old
    /// value to the new one. Gives both. One read-modify-write of a buffer's word, so
    /// work-groups running on other threads see it whole; under `--check` (one
    /// thread) a read and a write, which the checker sees as one atomic access.
    fn mem_atomic(
        &mut self,
        place: Place,
        size: usize,
        update: impl Fn(u64) -> Res<u64>,
    ) -> Res<(u64, u64)> {
        self.atomic = true;
        if let (Place::Buffer(b, o), None) = (place, &self.check) {
            let old = self
                .mem
                .atomic(b, o, size, &update)
                .ok_or_else(|| Fault(format!("atomic of {size} bytes outside buffer {b}")))??;
            return Ok((old, update(old)?));
        }
        let mut ob = [0u8; 8];
        self.mem_read_into(place, &mut ob[..size]);
        let old = u64::from_le_bytes(ob);
        let new = update(old)?;
        self.mem_write(place, &new.to_le_bytes()[..size]);
        Ok((old, new))
    }
    /// A surface access: SLM for BTI 254, flat for 255, else the binding table.
    fn resolve_surface(&mut self, surface: u32, offset: i128, len: usize) -> Res<Place> {
        let bti = self.surface(surface)?;
        Ok(match bti {
            // IGC places __local variables from 0x10000000 (its local-memory window);
            // the SLM message decodes only the low bits.
            254 => check_slm(super::message::slm_offset(offset), len, self.slm.len())?,
            255 => self.scratch_place(offset, len)?,
            b => self.mem.resolve_bti(b, offset, len)?,
        })
    }
    /// `len` bytes at `offset` of `%scratch`: the thread's own private space, addressed
    /// from 0, grown as it is used.
    fn scratch_place(&mut self, offset: i128, len: usize) -> Res<Place> {
        let limit = self.th.scratch_limit;
        let end = usize::try_from(offset)
            .ok()
            .and_then(|o| o.checked_add(len))
            .filter(|e| *e <= limit)
            .ok_or_else(|| {
                Fault(format!(
                    "out-of-bounds access of {len} bytes at offset {offset} of the thread's scratch space ({limit} bytes)"
                ))
            })?;
        if self.th.scratch.len() < end {
            self.th
                .scratch
                .resize(end.next_multiple_of(4096).min(limit), 0);
        }
        Ok(Place::Scratch(offset as usize))
    }
    fn raw_bytes(&self, r: Raw, len: usize) -> Res<Vec<u8>> {
        self.raw_bytes_at(r, 0, len)
    }
    /// `len` bytes at byte `extra` past a raw operand.
    fn raw_bytes_at(&self, r: Raw, extra: usize, len: usize) -> Res<Vec<u8>> {
        self.raw_slice(r, extra, len).map(<[u8]>::to_vec)
    }
    /// [`Self::raw_bytes_at`], borrowed from the register file.
    fn raw_slice(&self, r: Raw, extra: usize, len: usize) -> Res<&[u8]> {
        let s = self.slot(r.id)?;
        let at = s.base as usize + r.offset as usize + extra;
        self.use_register(at, len);
        self.th.grf.get(at..at + len).ok_or_else(|| {
            Fault(format!(
                "V{} + {len} bytes lies outside the register file",
                r.id
            ))
        })
    }
    fn raw_dword(&self, r: Raw, i: usize) -> Res<u32> {
        let b = self.raw_slice(r, 4 * i, 4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn raw_qword(&self, r: Raw, i: usize) -> Res<u64> {
        let b = self.raw_slice(r, 8 * i, 8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
    fn raw_write(&mut self, r: Raw, at: usize, bytes: &[u8]) -> Res<()> {
        if r.id == 0 {
            return Ok(());
        }
        let s = self.slot(r.id)?;
        let o = s.base as usize + r.offset as usize + at;
        if let Some(c) = self.check.as_deref_mut() {
            c.reg_define(o, bytes.len(), 0);
        }
        let dst = self.th.grf.get_mut(o..o + bytes.len()).ok_or_else(|| {
            Fault(format!(
                "V{} + {} bytes lies outside the register file",
                r.id,
                at + bytes.len()
            ))
        })?;
        dst.copy_from_slice(bytes);
        Ok(())
    }
    fn scalar(&self, inst: InstRef<'_>, name: &str) -> Res<i128> {
        let v = self.vector(inst, name)?;
        Ok(int(self.src(&v, 1)?.0[0]))
    }

    fn gather4_scaled(&mut self, inst: InstRef<'_>) -> Res<Flow> {
        let (exec, chen) = self.chen(inst, true)?;
        let chmask = self.int_field(inst, "chmask")? & 0xF;
        let surface = self.int_field(inst, "surface")?;
        let global = self.scalar(inst, "global_offset")?;
        let offsets = self.raw(inst, "offsets")?;
        let load = inst.opcode == Opcode::GATHER4_SCALED;
        let data = self.raw(inst, if load { "dst" } else { "src" })?;
        let block = (exec as usize * 4).max(self.grf as usize);
        let mut k = 0;
        for color in 0..4 {
            if chmask & (1 << color) == 0 {
                continue;
            }
            for c in 0..exec as usize {
                if chen & (1 << c) == 0 {
                    continue;
                }
                self.lane = self.channel_lane(c);
                let off = global + self.raw_dword(offsets, c)? as i128 + 4 * color as i128;
                let place = if load {
                    self.resolve_surface_read(surface, off, 4)?
                } else {
                    self.resolve_surface(surface, off, 4)?
                };
                self.transfer(load, place, data, k * block + 4 * c, 4)?;
            }
            k += 1;
        }
        Ok(Flow::Next)
    }

    fn gather_scaled(&mut self, inst: InstRef<'_>) -> Res<Flow> {
        let (exec, chen) = self.chen(inst, true)?;
        let n = 1usize << (self.int_field(inst, "num_blocks")? & 3);
        let surface = self.int_field(inst, "surface")?;
        let global = self.scalar(inst, "global_offset")?;
        let offsets = self.raw(inst, "offsets")?;
        let load = inst.opcode == Opcode::GATHER_SCALED;
        let data = self.raw(inst, if load { "dst" } else { "src" })?;
        for c in 0..exec as usize {
            if chen & (1 << c) == 0 {
                continue;
            }
            self.lane = self.channel_lane(c);
            let off = global + self.raw_dword(offsets, c)? as i128;
            let place = if load {
                self.resolve_surface_read(surface, off, n)?
            } else {
                self.resolve_surface(surface, off, n)?
            };
            if load {
                let mut v = self.mem_read(place, n);
                v.resize(4, 0);
                self.raw_write(data, 4 * c, &v)?;
            } else {
                let v = self.raw_bytes_at(data, 4 * c, n)?;
                self.mem_write(place, &v);
            }
        }
        Ok(Flow::Next)
    }

    fn oword(&mut self, inst: InstRef<'_>) -> Res<Flow> {
        let len = 16usize << (self.int_field(inst, "size")? & 7);
        let surface = self.int_field(inst, "surface")?;
        let offset = self.scalar(inst, "offset")?;
        // Aligned block messages count in owords, the unaligned load in bytes.
        let bytes = if inst.opcode == Opcode::OWORD_LD_UNALIGNED {
            offset
        } else {
            offset * 16
        };
        let place = if inst.opcode == Opcode::OWORD_ST {
            self.resolve_surface(surface, bytes, len)?
        } else {
            self.resolve_surface_read(surface, bytes, len)?
        };
        if inst.opcode == Opcode::OWORD_ST {
            let src = self.raw(inst, "src")?;
            let v = self.raw_bytes(src, len)?;
            self.mem_write(place, &v);
        } else {
            let dst = self.raw(inst, "dst")?;
            let v = self.mem_read(place, len);
            self.raw_write(dst, 0, &v)?;
        }
        Ok(Flow::Next)
    }

    fn dword_atomic(&mut self, inst: InstRef<'_>) -> Res<Flow> {
        let (exec, chen) = self.chen(inst, true)?;
        let op = self.int_field(inst, "op")?;
        let surface = self.int_field(inst, "surface")?;
        let offsets = self.raw(inst, "offsets")?;
        let size = atomic_size(op);
        for c in 0..exec as usize {
            if chen & (1 << c) == 0 {
                continue;
            }
            self.lane = self.channel_lane(c);
            let off = self.raw_dword(offsets, c)? as i128;
            let place = self.resolve_surface(surface, off, size)?;
            self.atomic_one(inst, op, place, c, size)?;
        }
        Ok(Flow::Next)
    }

    /// One channel's atomic: reads src0/src1 element `c`, updates memory, returns the old value.
    fn atomic_one(
        &mut self,
        inst: InstRef<'_>,
        op: u32,
        place: Place,
        c: usize,
        size: usize,
    ) -> Res<()> {
        let elem = |ctx: &Self, name: &str| -> Res<u64> {
            match inst.operand(name) {
                Some(Operand::Raw(r)) if r.id != 0 => {
                    if size == 8 {
                        ctx.raw_qword(*r, c)
                    } else {
                        ctx.raw_dword(*r, c).map(u64::from)
                    }
                }
                _ => Ok(0),
            }
        };
        let a = elem(self, "src0")?;
        let b = elem(self, "src1")?;
        self.atomic = true;
        let (old, new) = self.mem_atomic(place, size, |old| atomic_result(op, old, a, b, size))?;
        self.note_reservation(place, old);
        if let Some(Operand::Raw(d)) = inst.operand("dst") {
            let d = *d;
            let ret = if op & 0x1F == 13 { new } else { old };
            self.raw_write(d, size.max(4) * c, &ret.to_le_bytes()[..size.max(4)])?;
        }
        Ok(())
    }

    /// An atomic on the printf buffer returned `old`: the bytes from there are the
    /// records of the instruction's work-items ([`super::memory::Reservation`]).
    pub(super) fn note_reservation(&mut self, place: Place, old: u64) {
        if let Place::Buffer(b, _) = place {
            if self.mem.printf_buffer == Some(b) {
                let lanes = if self.thread_wide {
                    self.active
                } else {
                    1 << self.lane
                };
                self.mem.reservations.push(super::memory::Reservation {
                    offset: old,
                    group: self.group,
                    thread: self.th.index,
                    lanes,
                });
            }
        }
    }

    fn svm(&mut self, inst: InstRef<'_>) -> Res<Flow> {
        match inst.subop {
            Some(1) | Some(2) => {
                let props = self.int_field(inst, "properties")?;
                let len = 16usize << (props & 7);
                let addr = self.scalar(inst, "address")? as u64;
                let place = if inst.subop == Some(2) {
                    self.mem.resolve_a64(addr, len)?
                } else {
                    self.resolve_a64_read(addr, len)?
                };
                if inst.subop == Some(2) {
                    let src = self.raw(inst, "src")?;
                    let v = self.raw_bytes(src, len)?;
                    self.mem_write(place, &v);
                } else {
                    let dst = self.raw(inst, "dst")?;
                    let v = self.mem_read(place, len);
                    self.raw_write(dst, 0, &v)?;
                }
                Ok(Flow::Next)
            }
            Some(3) | Some(4) => {
                let (exec, chen) = self.chen(inst, true)?;
                let size = [1usize, 4, 8]
                    .get((self.int_field(inst, "block_type")? & 3) as usize)
                    .copied()
                    .unwrap_or(4);
                let n = 1usize << (self.int_field(inst, "num_blocks")? & 3);
                let addrs = self.raw(inst, "addresses")?;
                let load = inst.subop == Some(3);
                let data = self.raw(inst, if load { "dst" } else { "src" })?;
                for c in 0..exec as usize {
                    if chen & (1 << c) == 0 {
                        continue;
                    }
                    self.lane = self.channel_lane(c);
                    let a = self.raw_qword(addrs, c)?;
                    if size == 1 {
                        let place = if load {
                            self.resolve_a64_read(a, n)?
                        } else {
                            self.mem.resolve_a64(a, n)?
                        };
                        if load {
                            let mut v = self.mem_read(place, n);
                            v.resize(4, 0);
                            self.raw_write(data, 4 * c, &v)?;
                        } else {
                            let v = self.raw_bytes_at(data, 4 * c, n)?;
                            self.mem_write(place, &v);
                        }
                        continue;
                    }
                    for k in 0..n {
                        let at_k = a + (k * size) as u64;
                        let place = if load {
                            self.resolve_a64_read(at_k, size)?
                        } else {
                            self.mem.resolve_a64(at_k, size)?
                        };
                        let at = (k * exec as usize + c) * size;
                        self.transfer(load, place, data, at, size)?;
                    }
                }
                Ok(Flow::Next)
            }
            Some(5) => {
                let (exec, chen) = self.chen(inst, true)?;
                let op = self.int_field(inst, "op")?;
                let addrs = self.raw(inst, "addresses")?;
                let size = atomic_size(op);
                for c in 0..exec as usize {
                    if chen & (1 << c) == 0 {
                        continue;
                    }
                    self.lane = self.channel_lane(c);
                    let a = self.raw_qword(addrs, c)?;
                    let place = self.mem.resolve_a64(a, size)?;
                    self.atomic_one(inst, op, place, c, size)?;
                }
                Ok(Flow::Next)
            }
            Some(6) | Some(7) => {
                let (exec, chen) = self.chen(inst, true)?;
                let chmask = self.int_field(inst, "chmask")? & 0xF;
                let base = self.scalar(inst, "address")? as u64;
                let offsets = self.raw(inst, "offsets")?;
                let load = inst.subop == Some(6);
                let data = self.raw(inst, if load { "dst" } else { "src" })?;
                let block = (exec as usize * 4).max(self.grf as usize);
                let mut k = 0;
                for color in 0..4u64 {
                    if chmask & (1 << color) == 0 {
                        continue;
                    }
                    for c in 0..exec as usize {
                        if chen & (1 << c) == 0 {
                            continue;
                        }
                        self.lane = self.channel_lane(c);
                        // SVM offsets are 64-bit, one per channel.
                        let a = base
                            .wrapping_add(self.raw_qword(offsets, c)?)
                            .wrapping_add(4 * color);
                        let place = if load {
                            self.resolve_a64_read(a, 4)?
                        } else {
                            self.mem.resolve_a64(a, 4)?
                        };
                        self.transfer(load, place, data, k * block + 4 * c, 4)?;
                    }
                    k += 1;
                }
                Ok(Flow::Next)
            }
            _ => fault(format!(
                "{} is not supported by the interpreter yet",
                inst.mnemonic()
            )),
        }
    }
}

// ---- images ----
impl Ctx<'_, '_> {
    /// faddr: the address of a named program-scope object (IGC 2.x takes printf
    /// format strings' addresses this way) or of a function (for ifcall).
    fn faddr(&mut self, inst: InstRef<'_>) -> Res<Flow> {
        let index = self.int_field(inst, "function")? as usize;
        let name = self
            .r
            .strings
            .get(index)
            .ok_or_else(|| Fault(format!("string {index} is not in the string pool")))?;
        let function = self
            .function_named(name)
            .map(|i| FUNCTION_ADDRESS + i as u64);
        let addr = self
            .mem
            .symbols
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, a)| *a)
            .or(function)
            .ok_or_else(|| {
                Fault(format!(
                    "faddr of {:?}: no program data symbol or function of that name",
                    String::from_utf8_lossy(name)
                ))
            })?;
        let dst = self.vector(inst, "dst")?;
        // A scalar move of the address, whatever the channel mask.
        self.write(&dst, 1, 1, &[Val::I(addr as i128)])?;
        Ok(Flow::Next)
    }

    /// The image bound to surface variable `surface`: its buffer index and shape.
    fn image(&self, surface: u32) -> Res<(usize, super::memory::ImageDesc)> {
        let bti = self.surface(surface)?;
        let i = self
            .mem
            .image_at(bti)
            .ok_or_else(|| Fault(format!("no image is bound at binding table index {bti}")))?;
        let desc = self.mem.buffers[i]
            .image
            .ok_or(Fault("not an image".into()))?;
        // Addressing clamps to the last texel, which an empty image does not have.
        if desc.width == 0 || desc.height == 0 || desc.depth == 0 {
            return fault(format!("the image at binding table index {bti} is empty"));
        }
        Ok((i, desc))
    }

    /// `sample`/`sample_lz` (3D_SAMPLE): every enabled channel of `dst` gets
    /// exec_size results, one register block per channel in RGBA order.
    fn sample_3d(&mut self, inst: InstRef<'_>) -> Res<Flow> {
        let op = self.int_field(inst, "op")? & 0xFF;
        // sample (0), sample_l (2) and sample_lz (0x18) agree on an image without mip levels.
        if !matches!(op, 0 | 2 | 0x18) {
            return fault(format!(
                "3D sampler operation {op:#x} is not supported (sample, sample_l and sample_lz are)"
            ));
        }
        let (exec, chen) = self.chen(inst, true)?;
        let chmask = self.int_field(inst, "chmask")? & 0xF;
        let sampler_var = self.int_field(inst, "sampler")?;
        let surface = self.int_field(inst, "surface")?;
        let dst = self.raw(inst, "dst")?;
        let mut params: Vec<Raw> = match inst.operand("params") {
            Some(Operand::RawList(l)) => l.to_vec(),
            _ => Vec::new(),
        };
        // IGC 2.x (vISA 4.2) writes sample_lz with a %null first parameter ahead of
        // u, v, r; a null u is otherwise meaningless, so a leading null is skipped.
        // sample_l's first parameter is the level of detail, ignored likewise.
        if params.len() > 1 && (params[0].id == 0 || op == 2) {
            params.remove(0);
        }
        let index = super::memory::sampler_index(self.sampler_var(sampler_var)?);
        let sampler = *self
            .mem
            .samplers
            .iter()
            .find(|s| s.index == index)
            .ok_or_else(|| Fault(format!("no sampler with index {index}")))?;
        let (img, desc) = self.image(surface)?;
        let block = (exec as usize * 4).max(self.grf as usize);
        for c in 0..exec as usize {
            if chen & (1 << c) == 0 {
                continue;
            }
            self.lane = self.channel_lane(c);
            let mut coords = [0f32; 3];
            for (k, slot) in coords.iter_mut().enumerate() {
                if let Some(r) = params.get(k).filter(|r| r.id != 0) {
                    *slot = f32::from_bits(self.raw_dword(*r, c)?);
                }
            }
            let texel = super::image::sample(&self.mem.buffers[img], &desc, &sampler, coords);
            let mut k = 0;
            for (ch, v) in texel.iter().enumerate() {
                if chmask & (1 << ch) != 0 {
                    self.raw_write(dst, k * block + 4 * c, &v.to_le_bytes())?;
                    k += 1;
                }
            }
        }
        Ok(Flow::Next)
    }

    /// `resinfo` (info_3d operation 10): width, height, depth (layers of an array)
    /// and mip levels in R, G, B and A, the enabled ones in consecutive register
    /// blocks, the same in every channel. Images have one mip level, so any LOD reads
    /// level 0's size.
    fn resinfo(&mut self, inst: InstRef<'_>) -> Res<Flow> {
        let op = self.int_field(inst, "op")? & 0xFF;
        if op != 10 {
            return fault(format!(
                "sampler information operation {op:#x} is not supported (resinfo is)"
            ));
        }
        let (exec, chen) = self.chen(inst, false)?;
        let chmask = self.int_field(inst, "chmask")? & 0xF;
        let surface = self.int_field(inst, "surface")?;
        let dst = self.raw(inst, "dst")?;
        let (_, desc) = self.image(surface)?;
        let values = [desc.width, desc.height, desc.depth, 1];
        let block = (exec as usize * 4).div_ceil(self.grf as usize) * self.grf as usize;
        let mut k = 0;
        for (ch, v) in values.iter().enumerate() {
            if chmask & (1 << ch) == 0 {
                continue;
            }
            for c in 0..exec as usize {
                if chen & (1 << c) != 0 {
                    self.raw_write(dst, k * block + 4 * c, &v.to_le_bytes())?;
                }
            }
            k += 1;
        }
        Ok(Flow::Next)
    }

    /// gather4_typed / scatter4_typed: one texel per channel at (u, v, r), the
    /// enabled colour channels in consecutive register blocks.
    fn typed4(&mut self, inst: InstRef<'_>) -> Res<Flow> {
        let (exec, chen) = self.chen(inst, true)?;
        let chmask = self.int_field(inst, "chmask")? & 0xF;
        let surface = self.int_field(inst, "surface")?;
        let load = inst.opcode == Opcode::GATHER4_TYPED;
        let data = self.raw(inst, if load { "dst" } else { "src" })?;
        let coord = |ctx: &Self, name: &str, c: usize| -> Res<i64> {
            match inst.operand(name) {
                Some(Operand::Raw(r)) if r.id != 0 => Ok(ctx.raw_dword(*r, c)? as i32 as i64),
                _ => Ok(0),
            }
        };
        let (img, desc) = self.image(surface)?;
        let block = (exec as usize * 4).max(self.grf as usize);
        for c in 0..exec as usize {
            if chen & (1 << c) == 0 {
                continue;
            }
            self.lane = self.channel_lane(c);
            let at = (
                coord(self, "u", c)?,
                coord(self, "v", c)?,
                coord(self, "r", c)?,
            );
            if load {
                // Outside the image a typed read returns zeros.
                let texel =
                    super::image::read_texel(&self.mem.buffers[img], &desc, at.0, at.1, at.2)
                        .unwrap_or([0; 4]);
                let mut k = 0;
                for (ch, v) in texel.iter().enumerate() {
                    if chmask & (1 << ch) != 0 {
                        self.raw_write(data, k * block + 4 * c, &v.to_le_bytes())?;
                        k += 1;
                    }
                }
            } else {
                let mut texel = [0u32; 4];
                let mut k = 0;
                for (ch, slot) in texel.iter_mut().enumerate() {
                    if chmask & (1 << ch) != 0 {
                        let b = self.raw_bytes_at(data, k * block + 4 * c, 4)?;
                        *slot = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                        k += 1;
                    }
                }
                super::image::write_texel(&self.mem.buffers[img], &desc, at, chmask, texel);
            }
        }
        Ok(Flow::Next)
    }

    /// media_ld / media_st: a block of `block_width` bytes by `block_height` rows at
    /// byte x_offset, row y_offset of a 2D image; each row at a register pitch of the
    /// width rounded up to a power of two (at least 4).
    fn media_block(&mut self, inst: InstRef<'_>) -> Res<Flow> {
        let width = self.int_field(inst, "block_width")? as usize;
        let height = self.int_field(inst, "block_height")? as usize;
        let surface = self.int_field(inst, "surface")?;
        let x = self.scalar(inst, "x_offset")? as u32 as i32 as i64;
        let y = self.scalar(inst, "y_offset")? as u32 as i32 as i64;
        let load = inst.opcode == Opcode::MEDIA_LD;
        let data = self.raw(inst, if load { "dst" } else { "src" })?;
        let (img, desc) = self.image(surface)?;
        let pitch = width.max(4).next_power_of_two();
        for i in 0..height {
            let row = y + i as i64;
            for j in 0..width {
                let col = x + j as i64;
                if load {
                    let b = super::image::media_read_byte(&self.mem.buffers[img], &desc, row, col);
                    self.raw_write(data, i * pitch + j, &[b])?;
                } else {
                    let b = self.raw_bytes_at(data, i * pitch + j, 1)?[0];
                    let buf = &self.mem.buffers[img];
                    super::image::media_write_byte(buf, &desc, row, col, b);
                }
            }
        }
        Ok(Flow::Next)
    }
}

/// [`super::message::atomic_result`], as an instruction fault.
pub(super) fn atomic_result(op: u32, old: u64, a: u64, b: u64, size: usize) -> Res<u64> {
    super::message::atomic_result(op, old, a, b, size).map_err(Fault)
}

/// What `faddr` gives for function `i` (its routine index), and `ifcall` takes: far
/// from every buffer address.
const FUNCTION_ADDRESS: u64 = 0xFFFF_0000_0000_0000;

fn atomic_size(op: u32) -> usize {
    if op >> 6 == 1 {
        8
    } else if op >> 5 == 1 {
        2
    } else {
        4
    }
}

fn convert_to_int(v: Val) -> Val {
    v
}

/// The 8-bit restricted float of `vf` immediates: sign, 3-bit exponent (bias 3), 4-bit mantissa.
fn vf(b: u8) -> f64 {
    let sign = if b & 0x80 != 0 { -1.0 } else { 1.0 };
    let e = ((b >> 4) & 7) as i32;
    let m = (b & 0xF) as f64;
    if e == 0 && m == 0.0 {
        return 0.0 * sign;
    }
    sign * (1.0 + m / 16.0) * 2f64.powi(e - 3)
}

fn apply_modifier(m: Modifier, vals: &mut Lanes) {
    if matches!(m, Modifier::NONE | Modifier::SAT) {
        return;
    }
    for v in vals.iter_mut() {
        *v = match (m, *v) {
            (Modifier::ABS, Val::I(i)) => Val::I(i.abs()),
            (Modifier::ABS, Val::F(f)) => Val::F(f.abs()),
            (Modifier::NEG, Val::I(i)) => Val::I(i.wrapping_neg()),
            (Modifier::NEG, Val::F(f)) => Val::F(-f),
            (Modifier::NEG_ABS, Val::I(i)) => Val::I(-i.abs()),
            (Modifier::NEG_ABS, Val::F(f)) => Val::F(-f.abs()),
            (Modifier::NOT, Val::I(i)) => Val::I(!i),
            (_, v) => v,
        };
    }
}

/// One operand's values, one per channel: exec sizes are at most 32, so they live in
/// a fixed array rather than a new list per operand.
#[derive(Clone, Copy)]
pub(crate) struct Lanes {
    len: usize,
    vals: [Val; 32],
}

impl Lanes {
    const EMPTY: Lanes = Lanes {
        len: 0,
        vals: [Val::I(0); 32],
    };
    /// `n` channels (at most 32) of `v`.
    fn splat(n: u32, v: Val) -> Lanes {
        Lanes {
            len: (n as usize).min(32),
            vals: [v; 32],
        }
    }
}

impl std::ops::Deref for Lanes {
    type Target = [Val];
    fn deref(&self) -> &[Val] {
        &self.vals[..self.len]
    }
}

impl std::ops::DerefMut for Lanes {
    fn deref_mut(&mut self) -> &mut [Val] {
        &mut self.vals[..self.len]
    }
}

/// At most 32 values: an exec size is never larger.
impl FromIterator<Val> for Lanes {
    fn from_iter<I: IntoIterator<Item = Val>>(iter: I) -> Self {
        let mut out = Lanes::EMPTY;
        for v in iter.into_iter().take(32) {
            out.vals[out.len] = v;
            out.len += 1;
        }
        out
    }
}
