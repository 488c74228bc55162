//! Element values and conversions between vISA types (`2_datatypes.md`): integers
//! are held exactly in `i128` (every vISA integer type fits), floats in `f64`.

use crate::isa::Type;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Val {
    I(i128),
    F(f64),
}

pub fn is_float(t: Type) -> bool {
    matches!(t, Type::F | Type::DF | Type::HF | Type::VF | Type::BF)
}

pub fn is_unsigned(t: Type) -> bool {
    matches!(
        t,
        Type::UD | Type::UW | Type::UB | Type::UQ | Type::UV | Type::BOOL
    )
}

/// Decodes `size` little-endian bytes of type `t`.
pub fn decode(t: Type, bits: u64) -> Val {
    match t {
        Type::UD | Type::UV => Val::I((bits as u32) as i128),
        Type::D | Type::V => Val::I((bits as u32 as i32) as i128),
        Type::UW => Val::I((bits as u16) as i128),
        Type::W => Val::I((bits as u16 as i16) as i128),
        Type::UB | Type::BOOL => Val::I((bits as u8) as i128),
        Type::B => Val::I((bits as u8 as i8) as i128),
        Type::UQ => Val::I(bits as i128),
        Type::Q => Val::I((bits as i64) as i128),
        Type::F => Val::F(f32::from_bits(bits as u32) as f64),
        Type::DF => Val::F(f64::from_bits(bits)),
        Type::HF => Val::F(f16_to_f32(bits as u16) as f64),
        Type::BF => Val::F(f32::from_bits((bits as u32 & 0xFFFF) << 16) as f64),
        _ => Val::I(bits as i128),
    }
}

fn int_range(t: Type) -> (i128, i128) {
    match t {
        Type::UD => (0, u32::MAX as i128),
        Type::D => (i32::MIN as i128, i32::MAX as i128),
        Type::UW => (0, u16::MAX as i128),
        Type::W => (i16::MIN as i128, i16::MAX as i128),
        Type::UB | Type::BOOL => (0, u8::MAX as i128),
        Type::B => (i8::MIN as i128, i8::MAX as i128),
        Type::UQ => (0, u64::MAX as i128),
        _ => (i64::MIN as i128, i64::MAX as i128),
    }
}

/// Encodes a value as type `t`: floats round to nearest even; float to integer
/// truncates toward zero and saturates (NaN gives 0), as the hardware converts;
/// integers wrap unless `sat`, which clamps to the type's range (floats to [0, 1]).
pub fn encode(t: Type, v: Val, sat: bool) -> u64 {
    if is_float(t) {
        let mut f = match v {
            Val::F(f) => f,
            Val::I(i) => i as f64,
        };
        if sat {
            f = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
        }
        return match t {
            Type::DF => f.to_bits(),
            Type::HF => f32_to_f16(f as f32) as u64,
            Type::BF => {
                let b = (f as f32).to_bits();
                let round = ((b >> 16) & 1) + 0x7FFF;
                (b.wrapping_add(round) >> 16) as u64
            }
            _ => (f as f32).to_bits() as u64,
        };
    }
    let (lo, hi) = int_range(t);
    let i = match v {
        Val::I(i) => {
            if sat {
                i.clamp(lo, hi)
            } else {
                i
            }
        }
        Val::F(f) => {
            if f.is_nan() {
                0
            } else {
                (f.trunc().clamp(lo as f64, hi as f64)) as i128
            }
        }
    };
    i as u64
}

/// IEEE half to single.
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h >> 15) as u32) << 31;
    let exp = ((h >> 10) & 0x1F) as u32;
    let man = (h & 0x3FF) as u32;
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, m) => {
            // subnormal: normalise
            let mut e = 127 - 15 + 1;
            let mut m = m;
            while m & 0x400 == 0 {
                m <<= 1;
                e -= 1;
            }
            sign | ((e as u32) << 23) | ((m & 0x3FF) << 13)
        }
        (0x1F, 0) => sign | 0x7F80_0000,
        (0x1F, m) => sign | 0x7FC0_0000 | (m << 13),
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// Single to IEEE half, round to nearest even.
pub fn f32_to_f16(f: f32) -> u16 {
    let b = f.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xFF) as i32;
    let man = b & 0x7F_FFFF;
    if exp == 0xFF {
        return sign | 0x7C00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1F {
        return sign | 0x7C00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rem = m & ((1 << shift) - 1);
        let mid = 1 << (shift - 1);
        let round = rem > mid || (rem == mid && half & 1 == 1);
        return sign | (half + round as u32) as u16;
    }
    let half = ((e as u32) << 10) | (man >> 13);
    let rem = man & 0x1FFF;
    let round = rem > 0x1000 || (rem == 0x1000 && half & 1 == 1);
    sign | (half + round as u32) as u16
}

/// `mad` on float values: fused, one rounding, as the hardware's `mad`
/// (`2_datatypes.md` lists FMA among the fused operations). Into an f32
/// destination with operands that are f32 values it is the f32 fused result
/// ([`fma_f32`]), which a later rounding to f32 leaves alone; otherwise fused in
/// `f64`. Both engines call this, so they agree bit for bit.
pub fn mad(a: f64, b: f64, x: f64, into_f32: bool) -> f64 {
    let single = |v: f64| v.is_nan() || v as f32 as f64 == v;
    if into_f32 && single(a) && single(b) && single(x) {
        fma_f32(a as f32, b as f32, x as f32) as f64
    } else {
        a.mul_add(b, x)
    }
}

/// `a * b + c` rounded once to f32, without a call to the C library's `fmaf` (which
/// `f32::mul_add` becomes where the build does not assume an FMA unit): the product
/// of two f32 values is exact in `f64`; the sum is rounded to `f64` by round-to-odd
/// (its exact error from TwoSum decides the last bit), and 53 >= 24 + 2 bits make
/// the final rounding to f32 the correct one (Boldo and Melquiond, "Emulation of FMA
/// and correctly rounded sums: proved algorithms using rounding to odd", 2008).
#[inline]
pub fn fma_f32(a: f32, b: f32, c: f32) -> f32 {
    sum_to_odd(a as f64 * b as f64, c as f64) as f32
}

/// `a + b` rounded to `f64` by round-to-odd: an inexact sum whose last bit is even
/// moves one ulp toward the exact value (its error from TwoSum tells which way), so
/// a later rounding to `f32` (53 >= 24 + 2 bits) in any direction is the correctly
/// rounded one. Infinite and NaN sums, and exact ones, stay.
#[inline]
pub fn sum_to_odd(p: f64, c: f64) -> f64 {
    let s = p + c;
    let back = s - p;
    let error = (p - (s - back)) + (c - back);
    let bits = s.to_bits();
    // Without branches: the channel loops vectorise and nothing mispredicts.
    let inexact = ((error != 0.0) & s.is_finite()) as u64;
    let toward = if (error > 0.0) == (s > 0.0) {
        1
    } else {
        u64::MAX
    };
    f64::from_bits(bits.wrapping_add(toward.wrapping_mul(inexact & !bits & 1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn half_round_trip() {
        for h in [0u16, 0x3C00, 0xC000, 0x7BFF, 0x0001, 0x03FF, 0x7C00] {
            assert_eq!(f32_to_f16(f16_to_f32(h)), h, "{h:#x}");
        }
        assert_eq!(f32_to_f16(1.0 + 1.0 / 4096.0), 0x3C00);
    }
    #[test]
    fn float_to_int_saturates() {
        assert_eq!(
            encode(Type::D, Val::F(3e10), false),
            i32::MAX as u32 as i64 as u64
        );
        assert_eq!(encode(Type::UB, Val::I(300), true), 255);
        assert_eq!(encode(Type::UB, Val::I(300), false) as u8, 44);
    }

    /// fma_f32 is the correctly rounded fused result: f32::mul_add's, on operands
    /// chosen to round ties, cancel, overflow and reach the subnormals.
    #[test]
    fn fma_f32_rounds_once() {
        let mut seed = 0x2400_0001u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let special = [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            f32::MIN_POSITIVE,
            1e-45,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1.0 + f32::EPSILON,
            1.0 - f32::EPSILON / 2.0,
            3.0,
            0.1,
        ];
        let mut pick = || {
            let r = next();
            if r % 4 == 0 {
                special[(r >> 8) as usize % special.len()]
            } else if r % 4 == 1 {
                // Nearby exponents make ties and cancellation likely.
                f32::from_bits(0x3F80_0000 | (r >> 20) as u32 & 0x807F_FFFF)
            } else {
                f32::from_bits((r >> 16) as u32)
            }
        };
        for _ in 0..2_000_000 {
            let (a, b, c) = (pick(), pick(), pick());
            let want = a.mul_add(b, c);
            let got = fma_f32(a, b, c);
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "fma({a:e}, {b:e}, {c:e}) = {got:e}, want {want:e}"
            );
        }
    }
}

/// The floating-point mode a thread's `%cr0` sets (`4_visa_header.md`, V14): the
/// rounding mode (bits 4-5) of every float result and conversion to a float, and
/// whether F (bit 7) and DF (bit 6) denormals survive arithmetic or are flushed to a
/// zero of their sign, on input and on output (`2_datatypes.md`, IEEE mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FloatMode {
    pub rounding: Rounding,
    pub keep_f_denorms: bool,
    pub keep_df_denorms: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    NearestEven,
    Up,
    Down,
    TowardZero,
}

impl FloatMode {
    /// `%cr0` bits IGC sets for OpenCL's default mode (round to nearest even, F, DF
    /// and HF denormals kept).
    pub const IEEE_CR0: u32 = 0x4C0;

    pub fn from_cr0(cr0: u32) -> Self {
        FloatMode {
            rounding: match (cr0 >> 4) & 3 {
                0 => Rounding::NearestEven,
                1 => Rounding::Up,
                2 => Rounding::Down,
                _ => Rounding::TowardZero,
            },
            keep_f_denorms: cr0 & 0x80 != 0,
            keep_df_denorms: cr0 & 0x40 != 0,
        }
    }

    /// Whether results are what native `f32`/`f64` arithmetic gives.
    pub fn is_native(self) -> bool {
        self.rounding == Rounding::NearestEven && self.keep_f_denorms && self.keep_df_denorms
    }

    /// An arithmetic operand of type `t`: a denormal the mode flushes becomes a zero of its sign.
    pub fn operand(self, t: Type, v: f64) -> f64 {
        match t {
            Type::F if !self.keep_f_denorms => flush(v, f32::MIN_POSITIVE as f64),
            Type::DF if !self.keep_df_denorms => flush(v, f64::MIN_POSITIVE),
            _ => v,
        }
    }

    /// A result of type `t` computed exactly (or in `f64`): rounded to `t` by the
    /// rounding mode, then flushed when denormal and the mode flushes.
    pub fn result(self, t: Type, v: f64) -> f64 {
        match t {
            Type::F => {
                let r = round_f32(v, self.rounding) as f64;
                if self.keep_f_denorms {
                    r
                } else {
                    flush(r, f32::MIN_POSITIVE as f64)
                }
            }
            Type::DF if !self.keep_df_denorms => flush(v, f64::MIN_POSITIVE),
            _ => v,
        }
    }
}

fn flush(v: f64, min_normal: f64) -> f64 {
    if v != 0.0 && v.abs() < min_normal {
        0.0f64.copysign(v)
    } else {
        v
    }
}

/// `v` rounded to `f32` in the direction `mode` gives.
pub fn round_f32(v: f64, mode: Rounding) -> f32 {
    let nearest = v as f32;
    if mode == Rounding::NearestEven || v.is_nan() || nearest as f64 == v {
        return nearest;
    }
    // `nearest` is one of the two f32 values around `v` (or an infinity past the
    // largest); the other is one step away from it, toward `v`.
    let toward_v = |f: f32| {
        let up = (f as f64) < v;
        let bits = f.to_bits();
        let step_away_from_zero = up == (f >= 0.0 && !(f == 0.0 && f.is_sign_negative()));
        let b = match (f == 0.0, step_away_from_zero) {
            (true, _) => {
                return if up {
                    f32::from_bits(1)
                } else {
                    -f32::from_bits(1)
                }
            }
            (false, true) => bits + 1,
            (false, false) => bits - 1,
        };
        f32::from_bits(b)
    };
    let (below, above) = if (nearest as f64) < v {
        (nearest, toward_v(nearest))
    } else {
        (toward_v(nearest), nearest)
    };
    match mode {
        Rounding::Up => above,
        Rounding::Down => below,
        _ if v > 0.0 => below,
        _ => above,
    }
}
