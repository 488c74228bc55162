//! The HDC data-port messages (Gen9 to XeHPG; `dc0`, `dc1`, `dcro`): descriptor
//! bits 18:14 select the message, 7:0 the binding-table index (254 SLM, 253 and
//! 255 stateless), 19 a header; the rest is per message. Field positions and
//! codes from IGA's HDC message decoder.

use super::{Access, Address, Data, Image, ImageOp, Kind, Message, Op, Space};
use gpukit_iga::syntax::Gen;

const SLM_BTI: u32 = 254;

fn bits(v: u32, at: u32, len: u32) -> u32 {
    (v >> at) & ((1 << len) - 1)
}

/// The space of a 32-bit-address message at binding-table index `bti`: 254 SLM;
/// 255 stateless from the thread's scratch pointer (r0.5, 0 in gpukit's payload),
/// IGC's private memory, as vISA's surface 255 is; 253 stateless, which IGC uses
/// only for the payload prolog's loads of the indirect data.
fn space(bti: u32) -> Space {
    match bti {
        SLM_BTI => Space::Slm,
        255 => Space::Scratch,
        253 => Space::Indirect,
        b => Space::Bti(b),
    }
}

/// Bytes of an oword block by descriptor bits 10:8 (1 low, 1 high, 2, 4, 8
/// owords), and where in the first register it lies.
fn oword_block(desc: u32) -> Result<(usize, usize), String> {
    Ok(match bits(desc, 8, 3) {
        0 => (16, 0),
        1 => (16, 16),
        2 => (32, 0),
        3 => (64, 0),
        4 => (128, 0),
        b => return Err(format!("oword block size {b}")),
    })
}

/// The dword-atomic code of an HDC integer atomic operation (bits 11:8).
fn int_atomic(aop: u32) -> Result<(u32, &'static str), String> {
    Ok(match aop {
        0x0 => (7, "64b integer compare and swap"),
        0x1 => (8, "logical AND"),
        0x2 => (9, "logical OR"),
        0x3 => (10, "logical XOR"),
        0x4 => (6, "store"),
        0x5 => (2, "integer increment"),
        0x6 => (3, "integer decrement"),
        0x7 => (0, "integer add"),
        0x8 => (1, "integer subtract"),
        0xA => (12, "signed-integer max"),
        0xB => (11, "signed-integer min"),
        0xC => (5, "unsigned-integer max"),
        0xD => (4, "unsigned-integer min"),
        0xE => (7, "integer compare and swap"),
        0xF => (13, "integer pre-decrement"),
        a => return Err(format!("integer atomic operation {a:#x}")),
    })
}

/// The dword-atomic code of an HDC float atomic operation (bits 10:8).
fn float_atomic(aop: u32) -> Result<(u32, &'static str), String> {
    Ok(match aop {
        1 => (16, "max"),
        2 => (17, "min"),
        3 => (18, "compare and swap"),
        a => return Err(format!("float atomic operation {a:#x}")),
    })
}

/// The enabled colors of a channel-disable mask (bits 11:8), and their names.
fn colors(desc: u32) -> (u64, String) {
    let enabled = u64::from(!bits(desc, 8, 4) & 0xF);
    let names = (0..4)
        .filter(|c| enabled & (1 << c) != 0)
        .map(|c| ['x', 'y', 'z', 'w'][c])
        .collect();
    (enabled, names)
}

/// SIMD width by a two-bit SIMD mode (1: SIMD16, 2: SIMD8).
fn simd_mode3(desc: u32) -> Result<u32, String> {
    match bits(desc, 12, 2) {
        1 => Ok(16),
        2 => Ok(8),
        m => Err(format!("SIMD mode {m} (SIMD4x2)")),
    }
}

fn gather(components: u64, mem_bytes: usize, reg_bytes: usize) -> Data {
    Data::Gather {
        components,
        mem_bytes,
        reg_bytes,
        shift: 0,
    }
}

pub(super) fn decode(
    sfid: &str,
    desc: u32,
    xlen: u32,
    exec_size: u32,
    platform: Gen,
    eot: bool,
) -> Result<Message, String> {
    let ty = bits(desc, 14, 5);
    let bti = desc & 0xFF;
    let header = bits(desc, 19, 1) == 1;
    let load = |is: bool| if is { Op::Load } else { Op::Store };
    let per_channel = |bytes: usize, simd: u32| Address::PerChannel { bytes, simd };
    // (op, space, address, data, name)
    let (op, space, address, data, name) = match (sfid, ty) {
        // Oword block read (offset in owords) and write; the other read takes bytes.
        ("dc0" | "dcro", 0 | 1) | ("dc0", 8) => {
            let (mut bytes, reg_offset) = oword_block(desc)?;
            // The byte-offset read moves hwords when bit 13 is set (IGC's wide loads).
            if ty == 1 && sfid == "dc0" && bits(desc, 13, 1) == 1 {
                bytes = 32 << bits(desc, 8, 3);
            }
            let unit = if ty == 1 { 1 } else { 16 };
            let name = match ty {
                0 => "oword block read",
                1 => "oword aligned block read",
                _ => "oword block write",
            };
            (
                load(ty != 8),
                space(bti),
                Address::HeaderDword { dword: 2, unit },
                Data::Block { bytes, reg_offset },
                format!("{name} ({bytes} bytes)"),
            )
        }
        // Byte scattered read/write: 1, 2 or 4 bytes a channel, in a dword.
        ("dc0", 4 | 12) => {
            let bytes = 1usize << bits(desc, 10, 2);
            let simd = if bits(desc, 8, 1) == 1 { 16 } else { 8 };
            (
                load(ty == 4),
                space(bti),
                per_channel(4, simd),
                gather(1, bytes, 4),
                format!("byte scattered {} {}b", rw(ty == 4), bytes * 8),
            )
        }
        // Dword scattered read/write (constant cache read too).
        ("dc0" | "dcro", 3) | ("dc0", 11) => {
            let elems = 1u32 << bits(desc, 10, 2);
            let simd = if bits(desc, 8, 1) == 1 { 16 } else { 8 };
            (
                load(ty == 3),
                space(bti),
                per_channel(4, simd),
                gather((1 << elems) - 1, 4, 4),
                format!("dword scattered {} x{elems}", rw(ty == 3)),
            )
        }
        ("dc0", 7) => {
            return Ok(Message {
                kind: Kind::Fence {
                    local: bti == SLM_BTI,
                },
                eot,
                name: "memory fence".into(),
            })
        }
        // Scratch block read/write (bit 18): hwords at an immediate hword offset.
        ("dc0", t) if t & 0x10 != 0 => {
            let write = bits(desc, 17, 1) == 1;
            let hwords = 1usize << bits(desc, 12, 2);
            let offset = 32 * i64::from(bits(desc, 0, 12));
            return Ok(Message {
                kind: Kind::Access(Access {
                    op: load(!write),
                    space: Space::Scratch,
                    address: Address::Offset,
                    data: Data::Block {
                        bytes: hwords * 32,
                        reg_offset: 0,
                    },
                    header,
                    offset,
                }),
                eot,
                name: format!("hword scratch block {} x{hwords}", rw(!write)),
            });
        }
        // Untyped surface read/write, A32 and A64: a dword per enabled color.
        ("dc1", 0x01 | 0x09 | 0x11 | 0x19) => {
            let a64 = ty & 0x10 != 0;
            let (cmask, names) = colors(desc);
            (
                load(ty & 8 == 0),
                if a64 { Space::Flat } else { space(bti) },
                per_channel(if a64 { 8 } else { 4 }, simd_mode3(desc)?),
                gather(cmask, 4, 4),
                format!(
                    "{}untyped surface {} {names}",
                    if a64 { "a64 " } else { "" },
                    rw(ty & 8 == 0)
                ),
            )
        }
        // A64 scattered read/write: bytes (in a dword), dwords or qwords.
        ("dc1", 0x10 | 0x1A) => {
            let read = ty == 0x10;
            let simd = if bits(desc, 12, 1) == 1 { 16 } else { 8 };
            let (data, name) = match bits(desc, 8, 2) {
                0 => {
                    let bytes = 1usize << bits(desc, 10, 2);
                    (gather(1, bytes, 4), format!("byte {}b", bytes * 8))
                }
                sub @ (1 | 2) => {
                    let size = 4usize << (sub - 1);
                    let elems = 1u32 << bits(desc, 10, 2);
                    let word = if sub == 1 { "dword" } else { "qword" };
                    (
                        gather((1 << elems) - 1, size, size),
                        format!("{word} x{elems}"),
                    )
                }
                s => return Err(format!("a64 scattered subtype {s}")),
            };
            (
                load(read),
                Space::Flat,
                per_channel(8, simd),
                data,
                format!("a64 {name} scattered {}", rw(read)),
            )
        }
        // A64 block read/write: owords (unaligned or aligned) or hwords.
        ("dc1", 0x14 | 0x15) => {
            let (bytes, reg_offset) = match bits(desc, 11, 2) {
                0 | 1 => oword_block(desc)?,
                3 => (32usize << bits(desc, 8, 3), 0),
                s => return Err(format!("a64 block subtype {s} (dual block)")),
            };
            (
                load(ty == 0x14),
                Space::Flat,
                Address::HeaderQword,
                Data::Block { bytes, reg_offset },
                format!("a64 block {} ({bytes} bytes)", rw(ty == 0x14)),
            )
        }
        // Integer atomics: A32 (SIMD8/16) and A64 (SIMD8; bit 12 selects 64-bit data).
        ("dc1", 0x02 | 0x12) => {
            let a64 = ty == 0x12;
            let (code, what) = int_atomic(bits(desc, 8, 4))?;
            // The A64 form has no SIMD field (bit 12 is the data width): SIMD8, or
            // SIMD16 as a wider send uses it (XeHPC's 64-byte registers).
            let simd = match (a64, bits(desc, 12, 1)) {
                (true, _) if exec_size > 8 => 16,
                (true, _) | (false, 1) => 8,
                (false, _) => 16,
            };
            let wide = (a64 && bits(desc, 12, 1) == 1) || bits(desc, 8, 4) == 0;
            let size = if wide { 8 } else { 4 };
            (
                Op::Atomic(Some(code)),
                if a64 { Space::Flat } else { space(bti) },
                per_channel(if a64 { 8 } else { 4 }, simd),
                gather(1, size, size),
                format!(
                    "untyped {}atomic int{} {what}",
                    if a64 { "a64 " } else { "" },
                    size * 8
                ),
            )
        }
        // Float atomics (32-bit, and 16-bit from Xe on).
        ("dc1", 0x1B | 0x1D) | ("dc1", 0x1C | 0x1E) if ty < 0x1C || platform >= Gen::Xe => {
            let a64 = matches!(ty, 0x1D | 0x1E);
            let half = matches!(ty, 0x1C | 0x1E);
            if half {
                return Err("half-float atomics are not supported yet".into());
            }
            let (code, what) = float_atomic(bits(desc, 8, 3))?;
            let simd = if bits(desc, 12, 1) == 1 { 8 } else { 16 };
            (
                Op::Atomic(Some(code)),
                if a64 { Space::Flat } else { space(bti) },
                per_channel(if a64 { 8 } else { 4 }, simd),
                gather(1, 4, 4),
                format!(
                    "untyped {}float atomic {what}",
                    if a64 { "a64 " } else { "" }
                ),
            )
        }
        // Media block read/write and typed surface read/write: images.
        ("dc1", 0x04 | 0x0A | 0x05 | 0x0D) => {
            let mlen = bits(desc, 25, 4);
            let len = mlen + xlen;
            let load = matches!(ty, 0x04 | 0x05);
            let (op, name) = if matches!(ty, 0x04 | 0x0A) {
                (
                    ImageOp::MediaBlock { load },
                    format!("media block {}", rw(load)),
                )
            } else {
                let first_channel = match bits(desc, 12, 2) {
                    1 => 0,
                    2 => 8,
                    g => return Err(format!("typed slot group {g} (SIMD4x2)")),
                };
                let (cmask, names) = colors(desc);
                let n = cmask.count_ones();
                let payload = len.saturating_sub(u32::from(header));
                let coords = if load {
                    payload
                } else {
                    payload.saturating_sub(n)
                };
                let op = ImageOp::Typed {
                    load,
                    channels: cmask as u8,
                    coords: coords.min(3),
                    first_channel,
                };
                (op, format!("typed surface {} {names}", rw(load)))
            };
            return Ok(Message {
                kind: Kind::Image(Image {
                    op,
                    bti,
                    header,
                    mlen,
                    len,
                }),
                eot,
                name,
            });
        }
        _ => return Err(format!("HDC message type {ty:#x}")),
    };
    Ok(Message {
        kind: Kind::Access(Access {
            op,
            space,
            address,
            data,
            header,
            offset: 0,
        }),
        eot,
        name,
    })
}

fn rw(read: bool) -> &'static str {
    if read {
        "read"
    } else {
        "write"
    }
}
