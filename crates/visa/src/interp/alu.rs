//! Per-element ALU semantics that both front ends of the engine share: the vISA
//! interpreter (`exec.rs`) and the Gen engine (`gpukit-gen`'s `alu` table) call these
//! for the operations vISA and the Gen ISA define alike, so the two cannot drift
//! apart and a `--compare` difference is IGC's, never ours.
//!
//! Integers arrive as exact `i128` values (already sign- or zero-extended by their
//! type, [`super::value::decode`]) and leave as exact values the caller wraps or
//! saturates to the destination type ([`super::value::encode`]). `bits` is the width
//! of the operation's source type (the execution type: a word shift shifts 16 bits).

use super::value::Val;

/// The low `width` bits of `a`, as an unsigned value.
pub fn low_bits(a: i128, width: u32) -> i128 {
    if width >= 128 {
        a
    } else {
        a & ((1i128 << width) - 1)
    }
}

/// `a` as a signed `width`-bit value (bit `width - 1` is the sign).
pub fn signed_bits(a: i128, width: u32) -> i128 {
    let u = low_bits(a, width);
    if width > 0 && width < 128 && (u >> (width - 1)) & 1 == 1 {
        u - (1i128 << width)
    } else {
        u
    }
}

/// The shift count a shift by `n` uses: the low 5 bits (6 for 64-bit sources); the
/// hardware ignores the rest.
pub fn shift_count(n: i128, bits: u32) -> u32 {
    (n as u32) & if bits >= 64 { 63 } else { 31 }
}

/// `shl`: `a` shifted left (the caller keeps the destination type's low bits).
pub fn shl(a: i128, n: i128, bits: u32) -> i128 {
    a << shift_count(n, bits)
}

/// `shr`: logical shift right of `a`'s low `bits` bits (zeros shift in, whatever
/// `a`'s type).
pub fn shr(a: i128, n: i128, bits: u32) -> i128 {
    low_bits(a, bits.min(64)) >> shift_count(n, bits)
}

/// `asr`: arithmetic shift right; the sign is that of `a`'s value (a signed type's
/// sign bit; an unsigned type's value is never negative).
pub fn asr(a: i128, n: i128, bits: u32) -> i128 {
    a >> shift_count(n, bits)
}

/// `rol`/`ror`: rotate `a`'s low `bits` bits (its type's width) by `n` modulo `bits`.
pub fn rotate(a: i128, n: i128, bits: u32, left: bool) -> i128 {
    let bits = bits.clamp(1, 64);
    let v = low_bits(a, bits) as u64;
    let n = (n as u32) % bits;
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let r = match (n, left) {
        (0, _) => v,
        (n, true) => (v << n) | (v >> (bits - n)),
        (n, false) => (v >> n) | (v << (bits - n)),
    };
    (r & mask) as i128
}

/// `cbit`: the number of set bits among `a`'s low `bits` bits.
pub fn cbit(a: i128, bits: u32) -> i128 {
    (low_bits(a, bits.min(64)) as u64).count_ones() as i128
}

/// `lzd`: leading zeros of the 32-bit value (32 for zero).
pub fn lzd(a: i128) -> i128 {
    (a as u32).leading_zeros() as i128
}

/// `fbl`: index of the lowest set bit of the 32-bit value, all ones when none is.
pub fn fbl(a: i128) -> i128 {
    let v = a as u32;
    if v == 0 {
        0xFFFF_FFFF
    } else {
        v.trailing_zeros() as i128
    }
}

/// `fbh`: bits from the top of the 32-bit value down to its first set bit (unsigned)
/// or first bit that differs from the sign (signed); all ones when there is none
/// (0, and -1 when signed).
pub fn fbh(a: i128, signed: bool) -> i128 {
    let v = a as u32;
    let v = if signed && (v as i32) < 0 { !v } else { v };
    if v == 0 {
        0xFFFF_FFFF
    } else {
        v.leading_zeros() as i128
    }
}

/// `bfrev`: the 32-bit value with its bits reversed.
pub fn bfrev(a: i128) -> i128 {
    (a as u32).reverse_bits() as i128
}

/// `bfe`: the `width`-bit field at `offset` of the 32-bit `value` (both masked to 5
/// bits). Signed: the field is sign-extended; where it would reach past bit 31 the
/// hardware shifts the value right arithmetically instead, so bit 31 is the sign.
pub fn bfe(width: i128, offset: i128, value: i128, signed: bool) -> i128 {
    let (w, o) = ((width as u32) & 31, (offset as u32) & 31);
    if w == 0 {
        return 0;
    }
    let v = value as u32;
    if signed {
        let field_bits = w.min(32 - o);
        signed_bits(((v as i32) >> o) as i128, field_bits)
    } else {
        ((v as u64 >> o) & ((1u64 << w) - 1)) as i128
    }
}

/// The mask `bfi1` makes: `width` ones (masked to 5 bits) from bit `offset`.
pub fn bfi_mask(width: i128, offset: i128) -> i128 {
    let (w, o) = ((width as u32) & 31, (offset as u32) & 31);
    ((((1u64 << w) - 1) << o) as u32) as i128
}

/// `bfi2` (and vISA's `bfi` after [`bfi_mask`]): `insert` shifted to the mask's
/// lowest set bit, within the mask, over `base` outside it.
pub fn bfi_merge(mask: i128, insert: i128, base: i128) -> i128 {
    let m = mask as u32;
    let shift = if m == 0 { 0 } else { m.trailing_zeros() };
    ((((insert as u32) << shift) & m) | (base as u32 & !m)) as i128
}

/// `bfn`: bit k of the result is bit (s2 << 2 | s1 << 1 | s0) of `table`, where
/// s0, s1, s2 are bit k of `a`, `b`, `c` (the table is the function evaluated on
/// s0 = 0xAA, s1 = 0xCC, s2 = 0xF0).
pub fn bfn(table: u8, a: i128, b: i128, c: i128) -> i128 {
    (0..8)
        .filter(|k| table & (1 << k) != 0)
        .map(|k| {
            let pick = |bit: u32, v: i128| if k & bit != 0 { v } else { !v };
            pick(1, a) & pick(2, b) & pick(4, c)
        })
        .fold(0, |r, t| r | t)
}

/// `avg`: the rounded-up mean, `(a + b + 1) >> 1`, without overflow (operands
/// converted from floats may be at `i128`'s ends).
pub fn avg(a: i128, b: i128) -> i128 {
    (a >> 1) + (b >> 1) + ((a | b) & 1)
}

/// Integer division and remainder, truncating toward zero. By zero the Gen math
/// unit's INT DIV gives a quotient of all ones and the dividend as the remainder
/// (the destination keeps the low bits of its type).
pub fn int_divide(a: i128, b: i128, remainder: bool) -> i128 {
    match (b, remainder) {
        (0, false) => -1,
        (0, true) => a,
        (b, false) => a.wrapping_div(b),
        (b, true) => a.wrapping_rem(b),
    }
}

/// A comparison relation, as `cmp` and conditional modifiers name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    Eq,
    Ne,
    Gt,
    Ge,
    Lt,
    Le,
}

impl Relation {
    /// vISA's `rel_op` codes (`6_instructions.md`, `CMP`): eq, ne, gt, ge, lt, le.
    pub fn from_visa(code: u32) -> Relation {
        match code & 7 {
            0 => Relation::Eq,
            1 => Relation::Ne,
            2 => Relation::Gt,
            3 => Relation::Ge,
            4 => Relation::Lt,
            _ => Relation::Le,
        }
    }
}

/// `a rel b`: floats when either is a float (a NaN compares unordered: only `Ne`
/// holds), integers exactly otherwise.
pub fn compare(rel: Relation, a: Val, b: Val) -> bool {
    match (a, b) {
        (Val::I(a), Val::I(b)) => relate(rel, a.cmp(&b)),
        _ => match as_float(a).partial_cmp(&as_float(b)) {
            Some(o) => relate(rel, o),
            None => rel == Relation::Ne,
        },
    }
}

fn relate(rel: Relation, o: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::*;
    match rel {
        Relation::Eq => o == Equal,
        Relation::Ne => o != Equal,
        Relation::Gt => o == Greater,
        Relation::Ge => o != Less,
        Relation::Lt => o == Less,
        Relation::Le => o != Greater,
    }
}

/// A value as a float operand (integers convert exactly where they fit).
pub fn as_float(v: Val) -> f64 {
    match v {
        Val::F(f) => f,
        Val::I(i) => i as f64,
    }
}

/// A value as an integer operand (floats truncate, saturating; NaN is 0).
pub fn as_int(v: Val) -> i128 {
    match v {
        Val::I(i) => i,
        Val::F(f) => f as i128,
    }
}

/// Float min/max (vISA `min`/`max`, Gen `sel.l`/`sel.ge`): a NaN operand yields the
/// other operand, and -0 orders below +0.
pub fn float_min_max(max: bool, a: f64, b: f64) -> f64 {
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    let a_first = if a == b {
        // Equal values differ only in the sign of a zero.
        a.is_sign_negative() != max
    } else {
        (a < b) != max
    };
    if a_first {
        a
    } else {
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_fields() {
        assert_eq!(bfe(8, 4, 0xABCD, false), 0xBC);
        assert_eq!(bfe(8, 4, 0x0F80, true), -8);
        // Reaching past bit 31: the arithmetic shift keeps bit 31 as the sign.
        assert_eq!(
            bfe(31, 4, 0x8000_0000u32 as i128, true),
            (0xF800_0000u32 as i32) as i128
        );
        assert_eq!(bfe(31, 4, 0x8000_0000u32 as i128, false), 0x0800_0000);
        assert_eq!(bfe(0, 3, -1, true), 0);
        assert_eq!(bfi_mask(4, 8), 0xF00);
        assert_eq!(bfi_merge(0xF00, 0xAB, 0x1234), 0x1B34);
        assert_eq!(bfi_merge(0, 0xAB, 0x1234), 0x1234);
        // 0xD8 is s0 ? s1 : s2.
        assert_eq!(bfn(0xD8, 0xF0, 0xAA, 0x55), 0xA5);
        for (a, b) in [
            (3, 4),
            (-3, -4),
            (1, 2),
            (1, 1),
            (-1, 0),
            (i128::MAX, i128::MAX),
        ] {
            let want = (a as f64 + b as f64 + 1.0) / 2.0;
            assert_eq!(avg(a, b) as f64, want.floor(), "avg({a}, {b})");
        }
        assert_eq!(int_divide(i128::MIN, -1, false), i128::MIN);
    }

    #[test]
    fn min_max_zeros_and_nans() {
        assert!(float_min_max(false, 0.0, -0.0).is_sign_negative());
        assert!(float_min_max(true, -0.0, 0.0).is_sign_positive());
        assert_eq!(float_min_max(false, f64::NAN, 2.0), 2.0);
        assert_eq!(float_min_max(true, 2.0, f64::NAN), 2.0);
        assert!(float_min_max(true, f64::NAN, f64::NAN).is_nan());
    }
}
