//! Lowering: one pass over each routine before the run, deciding for every
//! instruction whether it becomes an [`Op`] and resolving its operands.

use super::memory::{Access, Kind};
use super::{Alu, Code, Ctl, Dst, Guard, Lane, Modifier, Op, Place, Reg, Src};
use crate::interp::value::{decode, Val};
use crate::interp::{Layout, Program};
use crate::isa::{Opcode, Type};
use crate::model::{InstRef, Modifier as Mod, Operand, Region, Vector, VectorKind};
use crate::semantics::{
    destination_offsets, direct_origin, source_offsets, MaskControl, Offsets, PredControl,
    RegionParams, EXEC_SIZES,
};

/// Lowers every routine of `p`, whose threads have `grf_len` bytes of registers.
pub(crate) fn lower(p: &Program, grf_len: usize) -> Code {
    let mut ops = Vec::new();
    for r in &p.routines {
        let start = r.start as usize;
        if ops.len() < start {
            ops.resize_with(start, || None);
        }
        let at = Lowering {
            r,
            grf: p.grf_size,
            grf_len,
            surfaces: p.surface_count,
            samplers: p.sampler_count,
            native_floats: p.native_floats,
        };
        ops.extend(r.insts.iter().map(|inst| at.inst(inst)));
    }
    Code { ops }
}

struct Lowering<'a, 'b> {
    r: &'a Layout<'b>,
    grf: u32,
    grf_len: usize,
    /// How many surface and sampler variables a thread has.
    surfaces: usize,
    samplers: usize,
    /// `Program::native_floats`: otherwise float arithmetic is the generic path's (%cr0).
    native_floats: bool,
}

fn lane(t: Type) -> Option<Lane> {
    Some(match t {
        Type::B => Lane::B,
        Type::UB => Lane::UB,
        Type::W => Lane::W,
        Type::UW => Lane::UW,
        Type::D => Lane::D,
        Type::UD => Lane::UD,
        Type::F => Lane::F,
        _ => return None,
    })
}

fn modifier(m: Mod) -> Option<Modifier> {
    Some(match m {
        Mod::NONE | Mod::SAT => Modifier::None,
        Mod::ABS => Modifier::Abs,
        Mod::NEG => Modifier::Neg,
        Mod::NEG_ABS => Modifier::NegAbs,
        Mod::NOT => Modifier::Not,
        _ => return None,
    })
}

fn region_params(r: Region) -> Option<RegionParams> {
    Some(RegionParams {
        vstride: r.vstride().map(u32::from),
        width: r.width().map(u32::from).unwrap_or(1),
        hstride: u32::from(r.hstride()?),
    })
}

impl Lowering<'_, '_> {
    /// The channels' byte offsets as a [`Place`], when every element lies in the
    /// register file.
    fn place(&self, offs: &Offsets, size: u32) -> Option<Place> {
        let fits = |a: &i64| *a >= 0 && (*a as usize).saturating_add(size as usize) <= self.grf_len;
        for a in offs.iter() {
            if !fits(a) {
                return None;
            }
        }
        let first = *offs.first()?;
        if offs.iter().all(|a| *a == first) {
            return Some(Place::Scalar(first as u32));
        }
        if offs
            .iter()
            .enumerate()
            .all(|(c, a)| *a == first + c as i64 * size as i64)
        {
            return Some(Place::Contiguous(first as u32));
        }
        Some(Place::Table(offs.iter().map(|a| *a as u32).collect()))
    }

    /// A direct variable's lane type, element size and origin byte.
    fn direct(&self, id: u32, row: u8, col: u8) -> Option<(Lane, u32, i64)> {
        let s = self.r.vars.get(id as usize).copied().flatten()?;
        let ty = lane(s.ty)?;
        let es = ty.size() as u32;
        Some((
            ty,
            es,
            s.base as i64 + direct_origin(row as u32, col as u32, es, self.grf),
        ))
    }

    fn pred_index(&self, id: u16) -> Option<Option<usize>> {
        if id == 0 {
            return Some(None);
        }
        (id as usize <= self.r.pred_count).then(|| Some(self.r.pred_base + id as usize - 1))
    }

    fn src(&self, v: &Vector, exec: u32) -> Option<Src> {
        let m = modifier(v.modifier)?;
        match v.kind {
            VectorKind::General {
                id,
                row,
                col,
                region,
            } => {
                let (ty, es, origin) = self.direct(id, row, col)?;
                let mut offs = Offsets::default();
                source_offsets(
                    origin,
                    es,
                    self.grf,
                    exec,
                    region_params(region)?,
                    &mut offs,
                )
                .ok()?;
                Some(Src::Reg(
                    Reg {
                        place: self.place(&offs, es)?,
                        ty,
                    },
                    m,
                ))
            }
            VectorKind::Immediate { ty, bits } => {
                let t = Type::of_operand_byte(ty);
                let l = lane(t)?;
                match decode(t, bits.get()) {
                    Val::F(f) => {
                        let mut v = [f];
                        super::float_modifier(m, &mut v, f64::abs);
                        Some(Src::Float(v[0]))
                    }
                    Val::I(i) => {
                        let mut v = [i as i64];
                        super::int_modifier(m, &mut v);
                        Some(Src::Int(v[0], l.size() as u32 * 8))
                    }
                }
            }
            VectorKind::Predicate(p) => Some(Src::Pred(self.pred_index(p.id())?)),
            _ => None,
        }
    }

    fn dst(&self, v: &Vector, exec: u32) -> Option<Dst> {
        match v.kind {
            VectorKind::General {
                id,
                row,
                col,
                region,
            } if id != 0 => {
                let (ty, es, origin) = self.direct(id, row, col)?;
                let h = region.hstride().unwrap_or(1).max(1) as u32;
                let mut offs = Offsets::default();
                destination_offsets(origin, es, self.grf, exec, h, &mut offs).ok()?;
                Some(Dst::Reg(
                    Reg {
                        place: self.place(&offs, es)?,
                        ty,
                    },
                    v.modifier == Mod::SAT,
                ))
            }
            VectorKind::Predicate(p) => Some(Dst::Pred(self.pred_index(p.id())?)),
            _ => None,
        }
    }

    fn ctl(&self, inst: InstRef<'_>) -> Option<Ctl> {
        let e = inst.exec()?;
        let exec = e.exec_size()?;
        let mask = MaskControl::from_code(e.emask())?;
        if !EXEC_SIZES.contains(&exec) || mask.offset() + exec > 32 {
            return None;
        }
        let guard = match inst.pred().filter(|p| !p.is_none()) {
            None => None,
            Some(p) => Some(Guard {
                index: self.pred_index(p.id())?,
                control: match p.control() {
                    1 => PredControl::Any,
                    2 => PredControl::All,
                    _ => PredControl::Sequential,
                },
                inverse: p.inverse(),
            }),
        };
        Some(Ctl {
            exec,
            channels: if exec == 32 {
                u32::MAX
            } else {
                (1 << exec) - 1
            },
            offset: mask.offset(),
            no_mask: mask.no_mask,
            guard,
        })
    }

    /// A raw operand's first register byte, when `len` bytes from it lie in the
    /// register file (`None` for %null too: the generic path handles it).
    fn raw(&self, inst: InstRef<'_>, name: &str, len: usize) -> Option<u32> {
        let Some(Operand::Raw(r)) = inst.operand(name) else {
            return None;
        };
        if r.id == 0 {
            return None;
        }
        let s = self.r.vars.get(r.id as usize).copied().flatten()?;
        let at = s.base as usize + r.offset as usize;
        (at + len <= self.grf_len).then_some(at as u32)
    }

    fn memory(&self, inst: InstRef<'_>) -> Option<Op> {
        let op = inst.opcode;
        let ctl = self.ctl(inst)?;
        let n = ctl.exec as usize;
        let int = |name: &str| match inst.operand(name) {
            Some(Operand::Int(v)) => Some(*v),
            _ => None,
        };
        let surface = int("surface")? as usize;
        if surface >= self.surfaces {
            return None;
        }
        let offsets = self.raw(inst, "offsets", 4 * n)?;
        let global = || match inst.operand("global_offset") {
            Some(Operand::Vector(v)) => self
                .src(v, 1)
                .filter(|s| !s.is_float() && !matches!(s, Src::Pred(_))),
            _ => None,
        };
        let load = matches!(op, Opcode::GATHER_SCALED | Opcode::GATHER4_SCALED);
        let data_name = if load { "dst" } else { "src" };
        let (kind, data, global) = match op {
            Opcode::GATHER_SCALED | Opcode::SCATTER_SCALED => {
                let bytes = 1usize << (int("num_blocks")? & 3);
                if bytes > 4 {
                    return None;
                }
                let data = self.raw(inst, data_name, 4 * n)?;
                (Kind::Scaled { bytes }, data, Some(global()?))
            }
            Opcode::GATHER4_SCALED | Opcode::SCATTER4_SCALED => {
                let chmask = int("chmask")? & 0xF;
                let block = (n * 4).max(self.grf as usize);
                let colors = chmask.count_ones() as usize;
                let len = colors.saturating_sub(1) * block + 4 * n;
                let data = self.raw(inst, data_name, len)?;
                (Kind::Four { chmask, block }, data, Some(global()?))
            }
            _ => {
                // dword_atomic: 4-byte operations the generic path knows.
                let code = int("op")?;
                if code >= 32 || crate::interp::exec::atomic_result(code, 0, 0, 0, 4).is_err() {
                    return None;
                }
                let optional = |name: &str| match inst.operand(name) {
                    Some(Operand::Raw(r)) if r.id == 0 => Some(None),
                    _ => self.raw(inst, name, 4 * n).map(Some),
                };
                let kind = Kind::Atomic {
                    op: code,
                    src0: optional("src0")?,
                    src1: optional("src1")?,
                    ret: optional("dst")?,
                };
                (kind, 0, None)
            }
        };
        Some(Op::Memory(Box::new(Access {
            ctl,
            kind,
            load,
            surface,
            global,
            offsets,
            data,
        })))
    }

    fn inst(&self, inst: InstRef<'_>) -> Option<Op> {
        let op = inst.opcode;
        if matches!(
            op,
            Opcode::LABEL
                | Opcode::FUNC
                | Opcode::FILE
                | Opcode::LOC
                | Opcode::LIFETIME
                | Opcode::FENCE
                | Opcode::WAIT
                | Opcode::LSC_FENCE
                | Opcode::YIELD
        ) {
            return Some(Op::Nop);
        }
        if matches!(op, Opcode::GOTO | Opcode::JMP) {
            let Some(Operand::Label(l)) = inst.operand("label") else {
                return None;
            };
            let i = self.r.labels.get(*l as usize).copied().flatten()?;
            let ctl = self.ctl(inst)?;
            return Some(Op::Branch {
                ctl,
                target: self.r.start + i as u32,
                uniform: op == Opcode::JMP || ctl.exec == 1,
            });
        }
        match op {
            Opcode::GATHER_SCALED
            | Opcode::SCATTER_SCALED
            | Opcode::GATHER4_SCALED
            | Opcode::SCATTER4_SCALED
            | Opcode::DWORD_ATOMIC => return self.memory(inst),
            Opcode::MOVS => {
                if let Some(Operand::Vector(Vector {
                    kind:
                        VectorKind::State {
                            class: class @ (0 | 1),
                            index,
                            ..
                        },
                    ..
                })) = inst.operand("dst")
                {
                    let sampler = *class == 1;
                    let index = *index as usize;
                    if index
                        >= if sampler {
                            self.samplers
                        } else {
                            self.surfaces
                        }
                    {
                        return None;
                    }
                    let ctl = self.ctl(inst)?;
                    let Some(Operand::Vector(v)) = inst.operand("src0") else {
                        return None;
                    };
                    let src = self.src(v, ctl.exec)?;
                    if src.is_float() || matches!(src, Src::Pred(_)) {
                        return None;
                    }
                    return Some(Op::SetState {
                        ctl,
                        sampler,
                        index,
                        src,
                    });
                }
            }
            _ => {}
        }
        let alu = match op {
            Opcode::CMP | Opcode::SEL => None,
            Opcode::MOV | Opcode::MOVS => Some(Alu::Mov),
            Opcode::ADD => Some(Alu::Add),
            Opcode::ADD3 => Some(Alu::Add3),
            Opcode::MUL => Some(Alu::Mul),
            Opcode::MAD => Some(Alu::Mad),
            Opcode::AVG => Some(Alu::Avg),
            Opcode::AND => Some(Alu::And),
            Opcode::OR => Some(Alu::Or),
            Opcode::XOR => Some(Alu::Xor),
            Opcode::NOT => Some(Alu::Not),
            Opcode::SHL => Some(Alu::Shl),
            Opcode::SHR => Some(Alu::Shr),
            Opcode::ASR => Some(Alu::Asr),
            Opcode::DIV => Some(Alu::Div),
            Opcode::INV => Some(Alu::Inv),
            Opcode::SQRT => Some(Alu::Sqrt),
            Opcode::RSQRT => Some(Alu::Rsqrt),
            Opcode::RNDD => Some(Alu::Rndd),
            Opcode::RNDU => Some(Alu::Rndu),
            Opcode::RNDZ => Some(Alu::Rndz),
            Opcode::RNDE => Some(Alu::Rnde),
            Opcode::FRC => Some(Alu::Frc),
            Opcode::LRP => Some(Alu::Lrp),
            Opcode::FMINMAX => match inst.operand("op") {
                Some(Operand::Int(0)) => Some(Alu::Min),
                Some(Operand::Int(_)) => Some(Alu::Max),
                _ => return None,
            },
            _ => return None,
        };
        let ctl = self.ctl(inst)?;
        let Some(Operand::Vector(d)) = inst.operand("dst") else {
            return None;
        };
        let dst = self.dst(d, ctl.exec)?;
        let mut srcs = Vec::with_capacity(3);
        for name in ["src0", "src1", "src2", "src3"] {
            if let Some(Operand::Vector(v)) = inst.operand(name) {
                srcs.push(self.src(v, ctl.exec)?);
            }
        }
        if srcs.len() > 3 {
            return None;
        }
        // The generic path's choice: float arithmetic when any operand is a float.
        let dst_float = matches!(&dst, Dst::Reg(r, _) if r.ty.is_float());
        let float = dst_float || srcs.iter().any(Src::is_float);
        // Predicates are integers; a float instruction writes one only as cmp's result.
        if float
            && ((op != Opcode::CMP && matches!(dst, Dst::Pred(_)))
                || srcs.iter().any(|s| matches!(s, Src::Pred(_))))
        {
            return None;
        }
        match op {
            Opcode::CMP => {
                let relop = match inst.operand("relop") {
                    Some(Operand::Int(r)) => (*r & 7) as u8,
                    _ => return None,
                };
                let [a, b]: [Src; 2] = srcs.try_into().ok()?;
                // f32 operands compare as their (exact) f64 conversions do.
                let single = float && f32_operand(&a) && f32_operand(&b);
                return Some(Op::Cmp {
                    relop,
                    float,
                    single,
                    ctl,
                    srcs: Box::new([a, b]),
                    dst,
                });
            }
            Opcode::SEL => {
                if !float && matches!(dst, Dst::Reg(_, true)) {
                    return None;
                }
                let [a, b]: [Src; 2] = srcs.try_into().ok()?;
                return Some(Op::Sel {
                    float,
                    ctl,
                    srcs: Box::new([a, b]),
                    dst,
                });
            }
            _ => {}
        }
        let mut alu = alu?;
        if float && !self.native_floats {
            return None;
        }
        let (needs, on_floats, on_ints) = alu.shape();
        // Integer saturation needs the exact (unwrapped) result: the generic path's.
        let allowed = if float {
            on_floats
        } else {
            on_ints && !matches!(dst, Dst::Reg(_, true))
        };
        if srcs.len() != needs || !allowed {
            return None;
        }
        // Predicate logic on whole predicate words (one channel reads a predicate's
        // word as an integer: the integer path).
        if let (Dst::Pred(d), false, true) = (&dst, float, ctl.exec > 1) {
            if matches!(alu, Alu::Mov | Alu::And | Alu::Or | Alu::Xor | Alu::Not) {
                let mut flags = [None; 2];
                let mut all = true;
                for (f, s) in flags.iter_mut().zip(&srcs) {
                    match s {
                        Src::Pred(i) => *f = *i,
                        _ => all = false,
                    }
                }
                if all {
                    return Some(Op::Flags {
                        alu,
                        ctl,
                        srcs: flags,
                        dst: *d,
                    });
                }
            }
        }
        if float && alu == Alu::Mad && dst_float {
            alu = Alu::MadF32;
        }
        // f32 throughout: the sum or product of two f32 values rounds to the same f32
        // whether or not it is first rounded to f64, and mad is fused either way.
        let single = matches!(alu, Alu::Add | Alu::Mul | Alu::Mov | Alu::MadF32)
            && matches!(&dst, Dst::Reg(r, false) if r.ty == Lane::F)
            && srcs.iter().all(f32_operand);
        Some(Op::Alu {
            alu,
            float,
            single,
            ctl,
            srcs: srcs.into_boxed_slice(),
            dst,
        })
    }
}

/// An f32 register or an immediate that is an f32 value: its f32 lanes hold it exactly.
fn f32_operand(s: &Src) -> bool {
    match s {
        Src::Reg(r, _) => r.ty == Lane::F,
        Src::Float(f) => (*f as f32) as f64 == *f || f.is_nan(),
        _ => false,
    }
}
