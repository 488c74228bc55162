//! `dpas`, the systolic matrix multiply-accumulate (`instructions/DPAS.md`):
//! D = C + A x B, with D and C (`dst`, `src0`) one register row of `exec_size`
//! dwords per repeat, B (`src1`) packed column-wise (row m of the register view
//! holds, in channel i, the elements of column i that depths m.. use), and A
//! (`src2`) row-major, `SD * OPS_PER_CHAN` elements per repeat.

use super::{fault, Ctx, Flow, Res};
use crate::isa::names::DPAS_PRECISION;
use crate::isa::Type;
use crate::model::{InstRef, VectorKind};

/// How an operand precision's elements read: their width and what a field of that
/// many bits means.
#[derive(Clone, Copy, PartialEq)]
enum Element {
    Signed(u32),
    Unsigned(u32),
    /// bfloat16 (E8M7): the upper half of an f32.
    Bf16,
    Half,
    /// TF32 (E8M10) in a dword: an f32 whose low 13 mantissa bits are not read.
    Tf32,
}

impl Element {
    fn of(code: u32) -> Res<Element> {
        let name = DPAS_PRECISION.get(code as usize).copied().unwrap_or("");
        Ok(match name {
            "u1" => Element::Unsigned(1),
            "s1" => Element::Signed(1),
            "u2" => Element::Unsigned(2),
            "s2" => Element::Signed(2),
            "u4" => Element::Unsigned(4),
            "s4" => Element::Signed(4),
            "u8" => Element::Unsigned(8),
            "s8" => Element::Signed(8),
            "bf" => Element::Bf16,
            "hf" => Element::Half,
            "tf32" => Element::Tf32,
            "" => return fault(format!("dpas precision code {code} is not defined")),
            other => {
                return fault(format!(
                    "dpas with {other} operands is not supported by the interpreter"
                ))
            }
        })
    }
    fn bits(self) -> u32 {
        match self {
            Element::Signed(b) | Element::Unsigned(b) => b,
            Element::Bf16 | Element::Half => 16,
            Element::Tf32 => 32,
        }
    }
    fn is_float(self) -> bool {
        matches!(self, Element::Bf16 | Element::Half | Element::Tf32)
    }
    /// The element's value from its `bits()`-wide field.
    fn value(self, field: u32) -> f64 {
        match self {
            Element::Unsigned(_) => f64::from(field),
            Element::Signed(b) => f64::from(((field << (32 - b)) as i32) >> (32 - b)),
            Element::Bf16 => f64::from(f32::from_bits(field << 16)),
            Element::Half => f64::from(crate::interp::value::f16_to_f32(field as u16)),
            Element::Tf32 => f64::from(f32::from_bits(field & 0xFFFF_E000)),
        }
    }
}

/// The `bits`-wide field at element index `k` of a little-endian byte string.
fn field(bytes: &[u8], k: usize, bits: u32) -> u32 {
    let bit = k * bits as usize;
    let byte = bit / 8;
    let mut w = [0u8; 4];
    let n = (bits as usize)
        .div_ceil(8)
        .min(bytes.len().saturating_sub(byte));
    w[..n].copy_from_slice(&bytes[byte..byte + n]);
    let v = u32::from_le_bytes(w) >> (bit % 8);
    if bits == 32 {
        v
    } else {
        v & ((1 << bits) - 1)
    }
}

impl Ctx<'_, '_> {
    pub(super) fn dpas(&mut self, inst: InstRef<'_>) -> Res<Flow> {
        let info = self.int_field(inst, "precision_info")?;
        let (b_el, a_el) = (Element::of(info & 0xFF)?, Element::of((info >> 8) & 0xFF)?);
        let depth = ((info >> 16) & 0xFF) as usize;
        let repeat = ((info >> 24) & 0xFF) as usize;
        if b_el.is_float() != a_el.is_float() || (b_el.is_float() && b_el != a_el) {
            return fault("dpas mixes precisions the spec does not allow");
        }
        let exec = inst.exec().and_then(|e| e.exec_size()).unwrap_or(0) as usize;
        if !matches!(exec, 8 | 16) {
            return fault(format!("dpas execution size {exec} (8 or 16 expected)"));
        }
        let ops_per_chan = match (b_el.bits(), a_el.bits()) {
            (32, _) => 1,
            (16, _) => 2,
            (8, _) | (_, 8) => 4,
            _ => 8,
        };
        let b_per_chan = (32 / (ops_per_chan * b_el.bits())) as usize;
        let ops = ops_per_chan as usize;
        let dst = self.raw(inst, "dst")?;
        let acc = self.raw(inst, "src0")?;
        let b = self.raw(inst, "src1")?;
        let a_at = match self.vector(inst, "src2")?.kind {
            VectorKind::General { id, row, col, .. } => self.direct(id, row, col)?.2,
            _ => return fault("dpas src2 is not a general variable"),
        };
        let acc_ty = if acc.id == 0 {
            None
        } else {
            Some(self.slot(acc.id)?.ty)
        };
        let dst_ty = self.slot(dst.id)?.ty;
        let float = b_el.is_float();
        for ty in std::iter::once(dst_ty).chain(acc_ty) {
            let fits = if float {
                ty == Type::F
            } else {
                matches!(ty, Type::D | Type::UD)
            };
            if !fits {
                return fault(format!(
                    "dpas with a {ty:?} accumulator or result is not supported by the interpreter"
                ));
            }
        }
        let row = exec * 4;
        let b_rows = depth.div_ceil(b_per_chan);
        let b_bytes = self.raw_bytes_at(b, 0, b_rows * row)?;
        let a_len = (repeat * depth * ops * a_el.bits() as usize).div_ceil(8);
        let a_bytes = usize::try_from(a_at)
            .ok()
            .and_then(|s| self.th.grf.get(s..s + a_len))
            .map(<[u8]>::to_vec)
            .ok_or_else(|| super::Fault("dpas src2 lies outside the register file".into()))?;
        let mut out = vec![0u8; repeat * row];
        for r in 0..repeat {
            let c = if acc.id == 0 {
                vec![0u8; row]
            } else {
                self.raw_bytes_at(acc, r * row, row)?
            };
            for i in 0..exec {
                let c = u32::from_le_bytes([c[4 * i], c[4 * i + 1], c[4 * i + 2], c[4 * i + 3]]);
                let mut int_sum = c as i32 as i64;
                let mut float_sum = f32::from_bits(c);
                for d in 0..depth {
                    let m = d / b_per_chan;
                    let n = (d % b_per_chan) * ops;
                    let b_dw = &b_bytes[m * row + 4 * i..m * row + 4 * i + 4];
                    let k = (r * depth + d) * ops;
                    // The products are exact in f64 (at most 24-bit significands), so
                    // each depth's dot product is added to the f32 sum in one rounding.
                    let mut dot = 0f64;
                    for j in 0..ops {
                        let bv = b_el.value(field(b_dw, n + j, b_el.bits()));
                        let av = a_el.value(field(&a_bytes, k + j, a_el.bits()));
                        dot += bv * av;
                    }
                    if float {
                        float_sum = (f64::from(float_sum) + dot) as f32;
                    } else {
                        int_sum = int_sum.wrapping_add(dot as i64);
                    }
                }
                let bits = if float {
                    float_sum.to_bits()
                } else {
                    int_sum as u32
                };
                out[r * row + 4 * i..r * row + 4 * i + 4].copy_from_slice(&bits.to_le_bytes());
            }
        }
        self.raw_write(dst, 0, &out)?;
        Ok(Flow::Next)
    }
}
