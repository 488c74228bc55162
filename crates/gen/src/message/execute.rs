//! Runs a decoded message: one loop over channels and components for every
//! gather, scatter and atomic, one copy for every block; memory through `access.rs`.

use super::{access, Access, Address, Data, Effect, Kind, Message, Op, SendContext};
use gpukit_visa::interp::message::atomic_result;

/// Executes one message. Only enabled channels access memory or fault.
pub fn execute(msg: &Message, cx: &mut SendContext<'_>) -> Result<Effect, String> {
    match &msg.kind {
        Kind::Access(a) => run(a, cx).map_err(|e| format!("{}: {e}", msg.name))?,
        Kind::Image(img) => super::image::run(img, cx).map_err(|e| format!("{}: {e}", msg.name))?,
        Kind::Fence { local } => {
            if let Some(c) = cx.check.as_mut() {
                c.checker.fence(*local);
            }
        }
        Kind::Null => {}
        Kind::Barrier => return Ok(Effect::Barrier),
        Kind::EndOfThread => return Ok(Effect::EndOfThread),
    }
    Ok(if msg.eot {
        Effect::EndOfThread
    } else {
        Effect::Done
    })
}

fn regs<'r>(cx: &'r SendContext<'_>, at: usize, len: usize) -> Result<&'r [u8], String> {
    cx.regs
        .get(at..at + len)
        .ok_or_else(|| format!("payload byte {at} + {len} lies outside the register file"))
}

fn put(cx: &mut SendContext<'_>, at: usize, bytes: &[u8]) -> Result<(), String> {
    let len = bytes.len();
    cx.regs
        .get_mut(at..at + len)
        .ok_or_else(|| format!("destination byte {at} + {len} lies outside the register file"))?
        .copy_from_slice(bytes);
    Ok(())
}

/// A little-endian value of `len` (up to 8) bytes at register byte `at`.
fn value(cx: &SendContext<'_>, at: usize, len: usize) -> Result<u64, String> {
    let mut b = [0u8; 8];
    b[..len].copy_from_slice(regs(cx, at, len)?);
    Ok(u64::from_le_bytes(b))
}

fn run(a: &Access, cx: &mut SendContext<'_>) -> Result<(), String> {
    let grf = cx.grf_bytes as usize;
    let whole = |bytes: usize| bytes.div_ceil(grf) * grf;
    let addrs = cx.src0 as usize + if a.header { grf } else { 0 };
    let address_bytes = match a.address {
        Address::PerChannel { bytes, simd } => whole(bytes * simd as usize),
        Address::First { bytes } => whole(bytes),
        _ => 0,
    };
    // Data a store or atomic sends: the second payload, or after the addresses.
    let data = cx.src1.map_or(addrs + address_bytes, |s| s as usize);
    let dst = cx.dst.map(|d| d as usize);
    let offset = i128::from(a.offset);
    match (a.address, a.data) {
        (
            Address::PerChannel { bytes, simd },
            Data::Gather {
                components,
                mem_bytes,
                reg_bytes,
                shift,
            },
        ) => {
            let block = whole(simd as usize * reg_bytes);
            for c in 0..simd.min(32) as usize {
                if cx.channels & (1 << c) == 0 {
                    continue;
                }
                let base = i128::from(value(cx, addrs + c * bytes, bytes)?) + offset;
                if let Op::Atomic(code) = a.op {
                    let place = access::place(cx, a.space, base, mem_bytes, false, c as u32)?;
                    let at = |k: usize| data + k * block + c * reg_bytes + shift;
                    let (x, y) = (value(cx, at(0), mem_bytes), value(cx, at(1), mem_bytes));
                    let old = access::atomic(cx, place, mem_bytes, c as u32, |old| match code {
                        // Compare-and-swap payloads hold the expected value, then the new one.
                        Some(op @ (7 | 18)) => atomic_result(op, old, y?, x?, mem_bytes),
                        Some(op) => atomic_result(op, old, x.unwrap_or(0), 0, mem_bytes),
                        None => Ok(old),
                    })?;
                    if let Some(d) = dst {
                        let ret = match code {
                            // Pre-decrement returns the new value.
                            Some(13) => old.wrapping_sub(1),
                            _ => old,
                        };
                        element(cx, d + c * reg_bytes, reg_bytes, shift, ret)?;
                    }
                    continue;
                }
                let enabled = (0..64).filter(|b| components & (1u64 << b) != 0);
                for (k, comp) in enabled.enumerate() {
                    let at = base + (comp * mem_bytes) as i128;
                    let reg = k * block + c * reg_bytes;
                    match a.op {
                        Op::Load => {
                            let Some(d) = dst else { continue };
                            let place = access::place(cx, a.space, at, mem_bytes, true, c as u32)?;
                            let mut b = [0u8; 8];
                            access::read(cx, place, &mut b[..mem_bytes], c as u32);
                            element(cx, d + reg, reg_bytes, shift, u64::from_le_bytes(b))?;
                        }
                        _ => {
                            let place = access::place(cx, a.space, at, mem_bytes, false, c as u32)?;
                            let mut b = [0u8; 8];
                            b[..mem_bytes].copy_from_slice(regs(
                                cx,
                                data + reg + shift,
                                mem_bytes,
                            )?);
                            access::write(cx, place, &b[..mem_bytes], c as u32);
                        }
                    }
                }
            }
            Ok(())
        }
        (address, Data::Block { bytes, reg_offset }) => {
            let base = match address {
                Address::First { bytes } => {
                    if cx.channels & 1 == 0 {
                        return Ok(());
                    }
                    i128::from(value(cx, addrs, bytes)?)
                }
                Address::HeaderDword { dword, unit } => {
                    i128::from(value(cx, cx.src0 as usize + 4 * dword, 4)?) * i128::from(unit)
                }
                Address::HeaderQword => i128::from(value(cx, cx.src0 as usize, 8)?),
                Address::Offset => 0,
                Address::PerChannel { .. } => {
                    return Err("a block message with per-channel addresses".into())
                }
            } + offset;
            // A block is one access of the thread: its first enabled channel's.
            let lane = cx.channels.trailing_zeros().min(31);
            match a.op {
                Op::Load => {
                    let Some(d) = dst else { return Ok(()) };
                    let place = access::place(cx, a.space, base, bytes, true, lane)?;
                    let mut v = vec![0u8; bytes];
                    access::read(cx, place, &mut v, lane);
                    put(cx, d + reg_offset, &v)
                }
                Op::Store => {
                    let place = access::place(cx, a.space, base, bytes, false, lane)?;
                    let v = regs(cx, data + reg_offset, bytes)?.to_vec();
                    access::write(cx, place, &v, lane);
                    Ok(())
                }
                Op::Atomic(_) => Err("a block atomic".into()),
            }
        }
        (_, Data::Gather { .. }) => Err("a gather without per-channel addresses".into()),
    }
}

/// Writes `value` as one register element of `reg_bytes` at byte `at`, the datum
/// `shift` bytes into it and the rest zero.
fn element(
    cx: &mut SendContext<'_>,
    at: usize,
    reg_bytes: usize,
    shift: usize,
    value: u64,
) -> Result<(), String> {
    let mut b = [0u8; 16];
    b[shift..shift + 8].copy_from_slice(&value.to_le_bytes());
    put(cx, at, &b[..reg_bytes])
}
