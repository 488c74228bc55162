//! One hardware thread's registers as one flat byte array: the GRFs from byte 0 (so
//! an indirect address `a0.N` is a byte offset into it, as on the hardware), then the
//! architecture registers at fixed offsets. Lowering turns every register operand
//! into an offset here once; the run reads and writes bytes.

/// Accumulators (`acc0`..), math macro registers (`mme0`..) and the like: how many
/// GRF-sized registers each file reserves.
const ACC_REGS: u32 = 16;
const MME_REGS: u32 = 8;
/// Flag registers `f0`..`f3`, 32 bits each (`f0.1` is the high 16 bits of `f0`).
pub const FLAG_REGS: u32 = 4;
/// Bytes of the address register file (`a0.0`..`a0.15` as words; 32 on newer parts).
const A0_BYTES: u32 = 64;
/// Bytes of each small control register (`sr0`, `cr0`, `ce0`, `tm0`, `ip`, ...).
const SMALL: u32 = 32;

/// Where each register file lives in the thread's byte array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub grf_bytes: u32,
    pub grf_count: u32,
    pub acc: u32,
    pub mme: u32,
    pub flag: u32,
    pub a0: u32,
    pub sr0: u32,
    pub cr0: u32,
    pub ce0: u32,
    pub tm0: u32,
    pub ip: u32,
    /// `n0`, `tdr0`, `dbg0`, `sp`, `msg0`, `s0`: registers compute kernels rarely
    /// touch, each a small block of its own.
    pub misc: u32,
    /// Where writes to `null` go (reads of it see zeros): as large as any operand.
    pub null: u32,
    pub total: u32,
}

/// Registers in `misc`, each [`SMALL`] bytes, in this order.
const MISC: [&str; 6] = ["n", "tdr", "dbg", "sp", "msg", "s"];

impl Layout {
    /// The layout for `grf_count` GRFs of `grf_bytes` each (32 or 64).
    pub fn new(grf_bytes: u32, grf_count: u32) -> Layout {
        let mut at = grf_bytes * grf_count;
        let mut next = |bytes: u32| {
            let here = at;
            at += bytes;
            here
        };
        let acc = next(ACC_REGS * grf_bytes);
        let mme = next(MME_REGS * grf_bytes);
        let flag = next(FLAG_REGS * 4);
        let a0 = next(A0_BYTES);
        let sr0 = next(SMALL);
        let cr0 = next(SMALL);
        let ce0 = next(SMALL);
        let tm0 = next(SMALL);
        let ip = next(SMALL);
        let misc = next(SMALL * MISC.len() as u32);
        // 32 channels of 8-byte elements at the widest stride a region can give.
        let null = next(32 * 8 * 4);
        Layout {
            grf_bytes,
            grf_count,
            acc,
            mme,
            flag,
            a0,
            sr0,
            cr0,
            ce0,
            tm0,
            ip,
            misc,
            null,
            total: at,
        }
    }

    /// Bytes of the GRF file (the range indirect addressing reaches).
    pub fn grf_end(&self) -> u32 {
        self.grf_bytes * self.grf_count
    }

    /// The byte offset of register `name` `num` (IGA's register name without its
    /// number, `"r"`, `"acc"`, `"f"`, `"a"`, ...) and the size of the block it may
    /// address from there; `None` for a register this file does not have.
    pub fn register(&self, name: &str, num: i64) -> Option<(u32, u32)> {
        let num = u32::try_from(num).ok()?;
        let g = self.grf_bytes;
        let indexed = |base: u32, count: u32, size: u32| {
            (num < count).then(|| (base + num * size, (count - num) * size))
        };
        match name {
            "r" => indexed(0, self.grf_count, g),
            "acc" => indexed(self.acc, ACC_REGS, g),
            "mme" => indexed(self.mme, MME_REGS, g),
            "f" => indexed(self.flag, FLAG_REGS, 4),
            "a" => indexed(self.a0, 1, A0_BYTES),
            "sr" => indexed(self.sr0, 1, SMALL),
            "cr" => indexed(self.cr0, 1, SMALL),
            "ce" => indexed(self.ce0, 1, SMALL),
            "tm" => indexed(self.tm0, 1, SMALL),
            "ip" => indexed(self.ip, 1, SMALL),
            "null" => Some((self.null, self.total - self.null)),
            _ => {
                let i = MISC.iter().position(|m| *m == name)? as u32;
                indexed(self.misc + i * SMALL, 1, SMALL)
            }
        }
    }

    /// The byte offset of flag subregister `f{num}.{sub}` (16 bits each).
    pub fn flag(&self, num: i64, sub: i64) -> Option<u32> {
        let (num, sub) = (u32::try_from(num).ok()?, u32::try_from(sub).ok()?);
        (sub < 2 && num < FLAG_REGS).then(|| self.flag + 4 * num + 2 * sub)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_do_not_overlap() {
        for g in [32, 64] {
            let l = Layout::new(g, 128);
            assert_eq!(l.register("r", 127), Some((127 * g, g)));
            assert_eq!(l.register("r", 128), None);
            assert_eq!(l.register("acc", 0).unwrap().0, 128 * g);
            assert_eq!(l.flag(1, 1), Some(l.flag + 6));
            assert!(l.null > l.misc && l.total > l.null);
        }
    }
}
