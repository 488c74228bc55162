//! What memory messages mean, shared by both front ends of the engine (the vISA
//! interpreter's `exec.rs`/`exec/lsc.rs` and the Gen message executor of
//! `gpukit-gen`): atomic operations, the LSC data-size and vector-size codes, the
//! SLM window and reads that run into a buffer's allocation padding.

use super::memory::{Memory, OutOfBounds, Place};

/// The value an atomic operation (dword-atomic code `op`) leaves in memory of `size`
/// bytes holding `old`, with operands `a` (src0; the new value of a compare-and-swap)
/// and `b` (src1; the value a compare-and-swap expects).
pub fn atomic_result(op: u32, old: u64, a: u64, b: u64, size: usize) -> Result<u64, String> {
    let m = if size == 8 {
        u64::MAX
    } else {
        (1u64 << (size * 8)) - 1
    };
    let sx = |v: u64| -> i64 {
        if size == 8 {
            v as i64
        } else {
            ((v << (64 - size * 8)) as i64) >> (64 - size * 8)
        }
    };
    let fl = |v: u64| f32::from_bits(v as u32);
    Ok(match op & 0x1F {
        0 => old.wrapping_add(a),
        1 => old.wrapping_sub(a),
        2 => old.wrapping_add(1),
        3 | 13 => old.wrapping_sub(1),
        4 => old.min(a & m),
        5 => old.max(a & m),
        6 => a,
        // IGC passes the new value in src0 and the expected one in src1.
        7 => {
            if old == b & m {
                a
            } else {
                old
            }
        }
        8 => old & a,
        9 => old | a,
        10 => old ^ a,
        11 => sx(old).min(sx(a)) as u64,
        12 => sx(old).max(sx(a)) as u64,
        16 => fl(old).max(fl(a)).to_bits() as u64,
        17 => fl(old).min(fl(a)).to_bits() as u64,
        18 => {
            if fl(old) == fl(b) {
                a
            } else {
                old
            }
        }
        19 => (fl(old) + fl(a)).to_bits() as u64,
        20 => (fl(old) - fl(a)).to_bits() as u64,
        o => return Err(format!("atomic operation {o} is not supported")),
    } & m)
}

/// The dword-atomic operation code [`atomic_result`] takes for an LSC atomic opcode
/// (descriptor bits 5:0, the same numbers as vISA's `lsc_atomic_*` subops); `None`
/// for an atomic load.
pub fn lsc_atomic_op(opcode: u8) -> Result<Option<u32>, String> {
    Ok(Some(match opcode {
        0x08 => 2, // iinc
        0x09 => 3, // idec
        0x0A => return Ok(None),
        0x0B => 6,  // store: the exchange
        0x0C => 0,  // iadd
        0x0D => 1,  // isub
        0x0E => 11, // smin
        0x0F => 12, // smax
        0x10 => 4,  // umin
        0x11 => 5,  // umax
        0x12 => 7,  // icas
        0x13 => 19, // fadd
        0x14 => 20, // fsub
        0x15 => 17, // fmin
        0x16 => 16, // fmax
        0x17 => 18, // fcas
        0x18 => 8,  // and
        0x19 => 9,  // or
        0x1A => 10, // xor
        o => return Err(format!("LSC operation {o:#x} is not an atomic")),
    }))
}

/// What an LSC data size moves, by vISA's `data_size` code (the hardware
/// descriptor's code plus one): bytes in memory, bytes each element takes in a
/// register, and the byte within it where the datum sits (the zero-extending
/// d8u32/d16u32 forms widen to a dword; d16u32h uses its upper half).
pub fn lsc_data_size(code: u32) -> Result<(usize, usize, usize), String> {
    Ok(match code {
        1 => (1, 1, 0),
        2 => (2, 2, 0),
        3 => (4, 4, 0),
        4 => (8, 8, 0),
        5 => (1, 4, 0),
        6 => (2, 4, 0),
        7 => (2, 4, 2),
        c => return Err(format!("LSC data size {c} is not defined")),
    })
}

/// Elements per address by vISA's `data_elems` code (the descriptor's code plus one).
pub fn lsc_vector_len(code: u32) -> Result<usize, String> {
    match code {
        1..=4 => Ok(code as usize),
        5..=8 => Ok(8 << (code - 5)),
        c => Err(format!("LSC vector size code {c} is not defined")),
    }
}

/// The SLM offset an address names: IGC places __local variables from 0x10000000
/// (its local-memory window) and the SLM messages decode only the low bits.
pub fn slm_offset(addr: i128) -> i128 {
    addr & 0x0FFF_FFFF
}

/// The bytes the runtime allocates for a buffer of `size` bytes: NEO rounds every
/// buffer allocation up to whole 4 KiB pages (`alignUp(size, MemoryConstants::pageSize)`),
/// and a stateful surface's reads past its (4-byte aligned) size return zeros.
pub fn allocation_bytes(size: usize) -> usize {
    size.next_multiple_of(4096)
}

/// `data`'s bytes from `at` into `out`, zeros past its end (a read that runs, or
/// starts, in a buffer's allocation padding).
pub fn read_padded(data: &[u8], at: usize, out: &mut [u8]) {
    let from = at.min(data.len());
    let have = (data.len() - from).min(out.len());
    out[..have].copy_from_slice(&data[from..from + have]);
    out[have..].fill(0);
}

/// The place of a `len`-byte read from a buffer, `resolve(mem, back, len)` placing
/// `len` bytes at `back` bytes before the read's offset. IGC's block and dword
/// messages read whole units past what the source reads (a `vload3` of a 12-byte
/// buffer loads 16 bytes), which a device does without harm: the runtime's
/// allocation is larger than the buffer ([`allocation_bytes`]). Such a read gives
/// zeros past the buffer's end (the place names the buffer's last in-bounds byte,
/// or its end, and reading from there fills zeros) and comes back with the miss
/// (`Some`), for the caller to count as an over-read; a read past the allocation
/// is out of bounds.
pub fn read_place(
    mem: &Memory,
    len: usize,
    resolve: impl Fn(&Memory, i128, usize) -> Result<Place, OutOfBounds>,
) -> Result<(Place, Option<OutOfBounds>), OutOfBounds> {
    let e = match resolve(mem, 0, len) {
        Ok(place) => return Ok((place, None)),
        Err(e) => e,
    };
    let size = e.size as i128;
    if e.offset < 0 || size == 0 || e.offset + len as i128 > allocation_bytes(e.size) as i128 {
        return Err(e);
    }
    let past = (e.offset - size).max(0);
    let inside = (size - e.offset).max(0) as usize;
    let place = resolve(mem, past, inside)?;
    let place = match place {
        Place::Buffer(b, o) => Place::Buffer(b, o + past as usize),
        other => other,
    };
    Ok((place, Some(e)))
}
