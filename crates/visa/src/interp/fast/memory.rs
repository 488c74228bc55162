//! Gathers, scatters and atomics through a surface (binding-table buffers and
//! shared local memory), as the generic path runs them (`exec.rs`: gather_scaled,
//! gather4_scaled, dword_atomic), with the operands resolved before the run. Every
//! channel's address is checked first; when one is out of bounds (or the surface is
//! scratch space) nothing is done and the generic path runs the instruction and
//! reports it with its own message.
// Channel loops index per-channel arrays and bit masks by the same channel number.
#![allow(clippy::needless_range_loop)]

use super::{Ctl, Next, Src};
use crate::interp::memory::{Buffer, Memory};
use crate::interp::Thread;

/// The SLM and scratch binding-table indices (`resolve_surface` in exec.rs).
const SLM: u32 = 254;
const SCRATCH: u32 = 255;

#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind {
    /// gather_scaled / scatter_scaled: `bytes` (1, 2 or 4) per channel, in a dword.
    Scaled { bytes: usize },
    /// gather4_scaled / scatter4_scaled: a dword per enabled color, colors `block`
    /// bytes apart in the data operand.
    Four { chmask: u32, block: usize },
    /// dword_atomic `op` (4-byte operations); sources and result at these register
    /// bytes, `None` for %null.
    Atomic {
        op: u32,
        src0: Option<u32>,
        src1: Option<u32>,
        ret: Option<u32>,
    },
}

#[derive(Clone, Debug)]
pub(crate) struct Access {
    pub ctl: Ctl,
    pub kind: Kind,
    /// Memory to registers.
    pub load: bool,
    /// The surface variable's index in [`Thread::surfaces`].
    pub surface: usize,
    /// The global offset (an integer scalar), none for atomics.
    pub global: Option<Src>,
    /// Register bytes of the per-channel dword offsets and of the data.
    pub offsets: u32,
    pub data: u32,
}

fn dword(grf: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([grf[at], grf[at + 1], grf[at + 2], grf[at + 3]])
}

/// The memory an access reaches: the group's SLM, or a buffer shared with the
/// work-groups running on other threads (through its methods). Offsets are checked
/// against [`Space::len`] before any access.
enum Space<'a> {
    Slm(&'a mut [u8]),
    Buffer(&'a Buffer),
}

impl Space<'_> {
    fn len(&self) -> usize {
        match self {
            Space::Slm(s) => s.len(),
            Space::Buffer(b) => b.len(),
        }
    }
    /// `N` bytes at `at` (in bounds).
    #[inline]
    fn load<const N: usize>(&self, at: usize) -> [u8; N] {
        match self {
            Space::Slm(s) => {
                let mut v = [0u8; N];
                v.copy_from_slice(&s[at..at + N]);
                v
            }
            Space::Buffer(b) => b.read_array(at).unwrap_or([0; N]),
        }
    }
    /// Stores `bytes` at `at` (in bounds).
    #[inline]
    fn store(&mut self, at: usize, bytes: &[u8]) {
        match self {
            Space::Slm(s) => s[at..at + bytes.len()].copy_from_slice(bytes),
            Space::Buffer(b) => {
                b.write(at, bytes);
            }
        }
    }
    /// The dword at `at` updated by `f` (one read-modify-write in a buffer); the old value.
    #[inline]
    fn atomic(&mut self, at: usize, f: impl Fn(u64) -> u64) -> u64 {
        match self {
            Space::Slm(s) => {
                let old = u64::from(dword(s, at));
                s[at..at + 4].copy_from_slice(&(f(old) as u32).to_le_bytes());
                old
            }
            Space::Buffer(b) => b
                .atomic(at, 4, |old| Ok::<_, ()>(f(old)))
                .and_then(Result::ok)
                .unwrap_or(0),
        }
    }
}

impl Access {
    pub(super) fn run(
        &self,
        th: &mut Thread,
        mem: &Memory,
        slm: &mut [u8],
        addresses: &mut [[i64; 32]; 4],
        active: u32,
    ) -> Next {
        let chen = self.ctl.enables(active, &th.preds, true);
        let bti = th.surfaces[self.surface];
        if bti == SCRATCH {
            return Next::Generic;
        }
        let global = match &self.global {
            Some(Src::Int(v, _)) => *v,
            Some(src) => {
                let mut v = [0i64; 32];
                src.ints(th, 1, self.ctl.offset, &mut v);
                v[0]
            }
            None => 0,
        };
        // The space: SLM (its low 28 bits address it) or a bound buffer.
        let buffer = if bti == SLM {
            None
        } else {
            match mem.binding_table.iter().find(|(b, _)| *b == bti) {
                Some(&(_, i)) => Some(i),
                None => return Next::Generic,
            }
        };
        let mut space = match buffer {
            None => Space::Slm(slm),
            Some(i) => Space::Buffer(&mem.buffers[i]),
        };
        let size = space.len() as i64;
        let n = self.ctl.exec as usize;
        let (colors, len) = match self.kind {
            Kind::Scaled { bytes } => (1, bytes),
            Kind::Four { chmask, .. } => (chmask.count_ones() as usize, 4),
            Kind::Atomic { .. } => (1, 4),
        };
        // Every address first: the instruction runs whole or not at all (into the
        // op's lane buffers: four colors of 32 channels).
        let at = addresses;
        for k in 0..colors {
            let color = match self.kind {
                Kind::Four { chmask, .. } => nth_color(chmask, k),
                _ => 0,
            };
            for c in 0..n {
                if chen & (1 << c) == 0 {
                    continue;
                }
                let mut off = global
                    + i64::from(dword(&th.grf, self.offsets as usize + 4 * c))
                    + 4 * color as i64;
                if buffer.is_none() {
                    off &= 0x0FFF_FFFF;
                }
                if off < 0 || off + len as i64 > size {
                    return Next::Generic;
                }
                at[k][c] = off;
            }
        }
        let grf = &mut th.grf;
        let data = self.data as usize;
        match self.kind {
            Kind::Scaled { bytes } => {
                // Copies of a size known at each arm, not a `memmove` call per channel.
                for c in (0..n).filter(|c| chen & (1 << c) != 0) {
                    let (m, r) = (at[0][c] as usize, data + 4 * c);
                    if self.load {
                        let v = match bytes {
                            1 => [space.load::<1>(m)[0], 0, 0, 0],
                            2 => {
                                let [a, b] = space.load::<2>(m);
                                [a, b, 0, 0]
                            }
                            _ => space.load::<4>(m),
                        };
                        grf[r..r + 4].copy_from_slice(&v);
                    } else {
                        match bytes {
                            1 => space.store(m, &grf[r..r + 1]),
                            2 => space.store(m, &grf[r..r + 2]),
                            _ => space.store(m, &grf[r..r + 4]),
                        }
                    }
                }
            }
            Kind::Four { block, .. } => {
                for k in 0..colors {
                    for c in (0..n).filter(|c| chen & (1 << c) != 0) {
                        let (m, r) = (at[k][c] as usize, data + k * block + 4 * c);
                        if self.load {
                            grf[r..r + 4].copy_from_slice(&space.load::<4>(m));
                        } else {
                            space.store(m, &grf[r..r + 4]);
                        }
                    }
                }
            }
            Kind::Atomic {
                op,
                src0,
                src1,
                ret,
            } => {
                for c in (0..n).filter(|c| chen & (1 << c) != 0) {
                    let arg =
                        |r: Option<u32>| r.map_or(0, |r| u64::from(dword(grf, r as usize + 4 * c)));
                    let (a, b) = (arg(src0), arg(src1));
                    let m = at[0][c] as usize;
                    // Lowering kept the operations atomic_result knows; the counters of
                    // histograms and the like without the call.
                    let update = |old: u64| match op {
                        0 => old.wrapping_add(a) & 0xFFFF_FFFF,
                        2 => old.wrapping_add(1) & 0xFFFF_FFFF,
                        _ => crate::interp::exec::atomic_result(op, old, a, b, 4).unwrap_or(old),
                    };
                    let old = space.atomic(m, update);
                    let new = update(old);
                    if let Some(r) = ret {
                        let v = if op & 0x1F == 13 { new } else { old };
                        let r = r as usize + 4 * c;
                        grf[r..r + 4].copy_from_slice(&(v as u32).to_le_bytes());
                    }
                }
            }
        }
        Next::Fall
    }
}

/// The `k`th set bit of `chmask` (the color of the `k`th enabled channel block).
fn nth_color(chmask: u32, k: usize) -> u32 {
    (0..4)
        .filter(|b| chmask & (1 << b) != 0)
        .nth(k)
        .unwrap_or(0)
}
