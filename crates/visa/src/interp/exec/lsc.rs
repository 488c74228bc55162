//! LSC untyped messages (`lsc_untyped`, DG2 onwards): gathering loads and
//! scattering stores with vectors of up to 64 elements per address, their
//! transposed (block) form, the quad forms, and atomics, on global memory
//! (flat A64/A32), a surface (binding table, bindless or surface state) or SLM.
//! Cache controls only steer caches, which the interpreter does not have.

use super::{fault, Ctx, Fault, Flow, Res};
use crate::interp::memory::{check_slm, Place};
use crate::interp::message;
use crate::model::{InstRef, Operand, Raw};

/// `sfid` of shared local memory.
pub(super) const SFID_SLM: u32 = 3;
/// `sfid` of typed global memory (not an untyped message).
const SFID_TGM: u32 = 2;
/// `addr_type` of a surface-state offset (`ss`).
const ADDR_SS: u32 = 3;
/// `data_order` of the transposed (block) form.
const TRANSPOSED: u32 = 2;

fn data_size(code: u32) -> Res<(usize, usize, usize)> {
    message::lsc_data_size(code).map_err(Fault)
}

fn vector_len(code: u32) -> Res<usize> {
    message::lsc_vector_len(code).map_err(Fault)
}

fn atomic_op(subop: u8) -> Res<Option<u32>> {
    message::lsc_atomic_op(subop).map_err(Fault)
}

/// The addressing of one message: shared function, address model and surface.
struct Target {
    sfid: u32,
    addr_type: u32,
    surface: u32,
}

impl Ctx<'_, '_> {
    pub(super) fn lsc_untyped(&mut self, inst: InstRef<'_>) -> Res<Flow> {
        let subop = inst.subop.unwrap_or(0);
        let mnemonic = inst.mnemonic();
        match subop {
            // lsc_store_uncompressed (0x1C) stores like lsc_store: compression is a cache matter.
            0x00 | 0x02 | 0x04 | 0x06 | 0x08..=0x1A | 0x1C => {}
            _ => {
                return fault(format!(
                    "{mnemonic} is not supported by the interpreter (LSC loads, stores, quads and atomics are)"
                ))
            }
        }
        let sfid = self.int_field(inst, "sfid")?;
        if sfid == SFID_TGM {
            return fault(format!(
                "{mnemonic} on typed memory (.tgm) is not supported"
            ));
        }
        let addr_type = self.int_field(inst, "addr_type")?;
        let surface = match addr_type {
            1 => 0,
            2..=4 => self.scalar(inst, "surface")? as u32,
            t => {
                return fault(format!(
                    "{mnemonic}: address model {} is not supported (flat, bti, bss and ss are)",
                    crate::isa::names::LSC_ADDR_TYPE
                        .get(t as usize)
                        .copied()
                        .unwrap_or("?")
                ))
            }
        };
        let target = Target {
            sfid,
            addr_type,
            surface,
        };
        let addr_bytes = match self.int_field(inst, "addr_size")? {
            1 => 2,
            2 => 4,
            3 => 8,
            s => return fault(format!("LSC address size {s} is not defined")),
        };
        let (mem_bytes, reg_bytes, shift) = data_size(self.int_field(inst, "data_size")?)?;
        let quad = matches!(subop, 0x02 | 0x06);
        let components: Vec<usize> = if quad {
            let mask = self.int_field(inst, "chmask")?;
            (0..4).filter(|c| mask & (1 << c) != 0).collect()
        } else {
            (0..vector_len(self.int_field(inst, "data_elems")?)?).collect()
        };
        let transposed = self.int_field(inst, "data_order")? == TRANSPOSED;
        let scale = i128::from(self.int_field(inst, "imm_scale")?.max(1));
        let imm = i128::from(self.int_field(inst, "imm_offset")? as i32);
        let (exec, chen) = self.chen(inst, true)?;
        let addrs = self.raw(inst, "src0")?;
        let address = |ctx: &Self, lane: usize| -> Res<i128> {
            let b = ctx.raw_bytes_at(addrs, lane * addr_bytes, addr_bytes)?;
            let mut a = [0u8; 8];
            a[..addr_bytes].copy_from_slice(&b);
            Ok(scale * i128::from(u64::from_le_bytes(a)) + imm)
        };
        if (0x08..=0x1A).contains(&subop) {
            if transposed {
                return fault(format!("{mnemonic}: atomics have no transposed form"));
            }
            let op = atomic_op(subop)?;
            let dst = self.raw(inst, "dst")?;
            self.atomic = true;
            let data = |ctx: &Self, name: &str, lane: usize| -> Res<u64> {
                match inst.operand(name) {
                    Some(Operand::Raw(r)) if r.id != 0 => {
                        let b = ctx.raw_bytes_at(*r, lane * reg_bytes + shift, mem_bytes)?;
                        let mut v = [0u8; 8];
                        v[..mem_bytes].copy_from_slice(&b);
                        Ok(u64::from_le_bytes(v))
                    }
                    _ => Ok(0),
                }
            };
            for n in 0..exec as usize {
                if chen & (1 << n) == 0 {
                    continue;
                }
                self.lane = self.channel_lane(n);
                let place = self.lsc_place(&target, address(self, n)?, mem_bytes, false)?;
                let old = if let Some(op) = op {
                    // The compare-and-swap forms take the expected value first, then the new one.
                    let (a, b) = if matches!(subop, 0x12 | 0x17) {
                        (data(self, "src2", n)?, data(self, "src1", n)?)
                    } else {
                        (data(self, "src1", n)?, 0)
                    };
                    let (old, _) = self.mem_atomic(place, mem_bytes, |old| {
                        super::atomic_result(op, old, a, b, mem_bytes)
                    })?;
                    self.note_reservation(place, old);
                    old
                } else {
                    let mut ob = [0u8; 8];
                    self.mem_read_into(place, &mut ob[..mem_bytes]);
                    u64::from_le_bytes(ob)
                };
                self.lsc_put(dst, n * reg_bytes, reg_bytes, shift, old)?;
            }
            return Ok(Flow::Next);
        }
        let load = subop < 0x04;
        let data = self.raw(inst, if load { "dst" } else { "src1" })?;
        if load && data.id == 0 {
            // A prefetch: it only warms caches.
            return Ok(Flow::Next);
        }
        if transposed {
            // One address (channel 0's), the vector contiguous in memory and in registers.
            if chen & 1 == 0 {
                return Ok(Flow::Next);
            }
            let at = address(self, 0)?;
            let len = components.len() * mem_bytes;
            let place = self.lsc_place(&target, at, len, load)?;
            for (v, _) in components.iter().enumerate() {
                self.lsc_element(
                    load,
                    place,
                    v * mem_bytes,
                    data,
                    v * reg_bytes,
                    mem_bytes,
                    reg_bytes,
                    shift,
                )?;
            }
            return Ok(Flow::Next);
        }
        // Component v of every channel fills its own run of whole registers.
        let grf = self.grf as usize;
        let block = (exec as usize * reg_bytes).div_ceil(grf) * grf;
        for n in 0..exec as usize {
            if chen & (1 << n) == 0 {
                continue;
            }
            self.lane = self.channel_lane(n);
            let base = address(self, n)?;
            for (k, v) in components.iter().enumerate() {
                let at = base + (*v * mem_bytes) as i128;
                let place = self.lsc_place(&target, at, mem_bytes, load)?;
                self.lsc_element(
                    load,
                    place,
                    0,
                    data,
                    k * block + n * reg_bytes,
                    mem_bytes,
                    reg_bytes,
                    shift,
                )?;
            }
        }
        Ok(Flow::Next)
    }

    /// Moves one element between memory (`place` + `offset`) and a register element
    /// at byte `at` of `data` (a load zero-extends the datum into its register element).
    #[allow(clippy::too_many_arguments)]
    fn lsc_element(
        &mut self,
        load: bool,
        place: Place,
        offset: usize,
        data: Raw,
        at: usize,
        mem_bytes: usize,
        reg_bytes: usize,
        shift: usize,
    ) -> Res<()> {
        let place = match place {
            Place::Buffer(b, o) => Place::Buffer(b, o + offset),
            Place::Slm(o) => Place::Slm(o + offset),
            Place::Scratch(o) => Place::Scratch(o + offset),
        };
        if load {
            let v = self.mem_read(place, mem_bytes);
            let mut b = [0u8; 8];
            b[..mem_bytes].copy_from_slice(&v);
            self.lsc_put(data, at, reg_bytes, shift, u64::from_le_bytes(b))
        } else {
            let v = self.raw_bytes_at(data, at + shift, mem_bytes)?;
            self.mem_write(place, &v);
            Ok(())
        }
    }

    /// Writes `value` as one register element of `reg_bytes` at byte `at` of `dst`, the
    /// datum `shift` bytes into it and the rest zero.
    fn lsc_put(
        &mut self,
        dst: Raw,
        at: usize,
        reg_bytes: usize,
        shift: usize,
        value: u64,
    ) -> Res<()> {
        let mut b = [0u8; 16];
        b[shift..shift + 8].copy_from_slice(&value.to_le_bytes());
        self.raw_write(dst, at, &b[..reg_bytes])
    }

    /// Where `len` bytes at `addr` lie for a message's shared function and address
    /// model; a `read` may run into a buffer's allocation padding (`read_place`).
    fn lsc_place(&mut self, t: &Target, addr: i128, len: usize, read: bool) -> Res<Place> {
        if t.sfid == SFID_SLM {
            return Ok(check_slm(message::slm_offset(addr), len, self.slm.len())?);
        }
        let surface = t.surface;
        if t.addr_type == ADDR_SS && surface == crate::interp::SCRATCH_SURFACE_STATE {
            return self.scratch_place(addr, len);
        }
        match (t.addr_type, read) {
            (1, true) => self.resolve_a64_read(addr as u64, len),
            (1, false) => Ok(self.mem.resolve_a64(addr as u64, len)?),
            // bti, bss and ss: the surface value names a binding-table entry (gpukit's
            // bindless surface-state offsets are bound there too).
            (_, true) => self.read_place(len, |m, back, n| m.resolve_bti(surface, addr - back, n)),
            (_, false) => Ok(self.mem.resolve_bti(surface, addr, len)?),
        }
    }
}
