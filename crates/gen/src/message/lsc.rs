//! LSC messages (XeHPG, XeHPC): from the descriptor of a `send.ugm`/`send.slm`
//! (bits 5:0 opcode, 8:7 address size, 11:9 data size, 14:12 vector size or
//! 15:12 the quad forms' channel mask, 15 transposed, 30:29 address type; the
//! extended descriptor holds the binding-table index in 31:24), or from IGA's
//! load/store syntax (`load.ugm.d32x4.a64`, `store.slm.d32x1t.a32 [r4+0x40] r8`)
//! that IGC's dumps print instead. Cache controls only steer caches: ignored.

use super::{Access, Address, Data, Kind, Message, Op, Space};
use gpukit_iga::message::{lsc_mnemonic, LSC_OPS};
use gpukit_iga::model::{AddrOffset, Instruction, OperandKind, SurfaceOffset};
use gpukit_visa::interp::message::{lsc_atomic_op, lsc_data_size, lsc_vector_len};

const FENCE: u32 = 0x1F;

/// The parts of an LSC message both spellings give.
struct Fields {
    opcode: u32,
    sfid: String,
    /// vISA's codes: the descriptor's plus one.
    addr_size: u32,
    data_size: u32,
    /// Vector size code (vISA's), or the quad forms' channel mask.
    vector: u32,
    transposed: bool,
    space: Space,
    offset: i64,
    eot: bool,
}

fn bits(v: u32, at: u32, len: u32) -> u32 {
    (v >> at) & ((1 << len) - 1)
}

fn is_quad(opcode: u32) -> bool {
    matches!(opcode, 0x02 | 0x06)
}

/// The space of an address type (0 flat, 1 bss, 2 ss, 3 bti) with its surface
/// value. IGC reaches the thread's scratch surface (r0.5's state) through `ss`,
/// the payload through `bti[255]`, and buffers through `bti`, flat addresses or
/// `bss` (bound by index, as the vISA interpreter binds bindless surfaces).
fn space(sfid: &str, addr_type: u32, surface: u32) -> Space {
    if sfid == "slm" {
        return Space::Slm;
    }
    match (addr_type, surface) {
        (0, _) => Space::Flat,
        (2, _) => Space::Scratch,
        // Binding-table index 255: 32-bit stateless (IGC's payload prolog).
        (3, 255) => Space::Indirect,
        _ => Space::Bti(surface),
    }
}

pub(super) fn decode(
    sfid: &str,
    desc: u32,
    ex_desc: u32,
    exec_size: u32,
    eot: bool,
) -> Result<Message, String> {
    let opcode = bits(desc, 0, 6);
    let addr_type = bits(desc, 29, 2);
    let surface = match addr_type {
        3 => ex_desc >> 24,
        _ => ex_desc,
    };
    let transposed = bits(desc, 15, 1) == 1;
    let fields = Fields {
        opcode,
        sfid: sfid.to_string(),
        addr_size: bits(desc, 7, 2),
        data_size: bits(desc, 9, 3) + 1,
        vector: if is_quad(opcode) {
            bits(desc, 12, 4)
        } else {
            bits(desc, 12, 3) + 1
        },
        transposed: transposed && !is_quad(opcode),
        space: space(sfid, addr_type, surface),
        offset: 0,
        eot,
    };
    build(&fields, exec_size)
}

/// An LSC message in load/store syntax: `op.sfid.dNN[uMM][xV][t].aNN[.cache..]`
/// (quad forms: `.dNN.xyzw`), the surface and offset from the address operand;
/// `ex_desc` is the value of a `ss[a0.N]`/`bss[a0.N]` state register.
pub(super) fn decode_syntax(inst: &Instruction, ex_desc: u32) -> Result<Message, String> {
    let op = inst.op.as_str();
    let sub = inst.subop.as_deref().unwrap_or("");
    let text = format!("{op}.{sub}");
    let bad = |what: &str| format!("unsupported message: {text} ({what})");
    let opcode = if op == "fence" {
        FENCE
    } else {
        LSC_OPS
            .iter()
            .find(|(_, n, _)| *n == op)
            .map(|(o, _, _)| *o as u32)
            .ok_or_else(|| bad("not an LSC operation"))?
    };
    let mut parts = sub.split('.');
    let sfid = parts.next().unwrap_or("").to_string();
    let (mut data_size, mut vector, mut transposed, mut addr_size) = (0, 1, false, 0);
    for p in parts {
        if let Some(d) = p
            .strip_prefix('d')
            .filter(|d| d.starts_with(|c: char| c.is_ascii_digit()))
        {
            let (size, rest) = d.split_at(d.find(|c: char| !c.is_ascii_digit()).unwrap_or(d.len()));
            let (widened, rest) = match rest.strip_prefix("u32") {
                Some(r) => (true, r),
                None => (false, rest),
            };
            let (high, rest) = match rest.strip_prefix('h') {
                Some(r) => (true, r),
                None => (false, rest),
            };
            data_size = match (size, widened, high) {
                ("8", false, false) => 1,
                ("16", false, false) => 2,
                ("32", false, false) => 3,
                ("64", false, false) => 4,
                ("8", true, false) => 5,
                ("16", true, false) => 6,
                ("16", true, true) => 7,
                _ => return Err(bad("data size")),
            };
            let rest = match rest.strip_suffix('t') {
                Some(r) => {
                    transposed = true;
                    r
                }
                None => rest,
            };
            if let Some(n) = rest.strip_prefix('x') {
                let n: u32 = n.parse().map_err(|_| bad("vector size"))?;
                vector = match n {
                    1..=4 => n,
                    8 => 5,
                    16 => 6,
                    32 => 7,
                    64 => 8,
                    _ => return Err(bad("vector size")),
                };
            } else if !rest.is_empty() {
                return Err(bad("data size"));
            }
        } else if let Some(a) = p.strip_prefix('a').filter(|a| a.parse::<u32>().is_ok()) {
            addr_size = match a {
                "16" => 1,
                "32" => 2,
                "64" => 3,
                _ => return Err(bad("address size")),
            };
        } else if is_quad(opcode) && !p.is_empty() && p.chars().all(|c| "xyzw".contains(c)) {
            vector = p
                .chars()
                .map(|c| 1 << "xyzw".find(c).unwrap_or(0))
                .fold(0, |m, b| m | b);
        }
    }
    let address = inst.srcs.iter().find_map(|s| match &s.kind {
        OperandKind::Address(a) => Some(a),
        _ => None,
    });
    let (space, offset) = match address {
        Some(a) => {
            let surface = a.surface.as_ref();
            let ty = surface.map_or("flat", |s| s.addr_type.as_str());
            let value = match surface.and_then(|s| s.offset.as_ref()) {
                Some(SurfaceOffset::Imm(v)) => *v as u32,
                Some(SurfaceOffset::Reg(_)) => ex_desc,
                None => 0,
            };
            let addr_type = match ty {
                "flat" => 0,
                "bss" => 1,
                "ss" => 2,
                "bti" => 3,
                _ => return Err(bad("address type")),
            };
            let offset = match a.offset {
                AddrOffset::Scalar(o) => o,
                AddrOffset::Block2d(..) => return Err(bad("2D block addressing")),
            };
            (space(&sfid, addr_type, value), offset)
        }
        None if opcode == FENCE => (Space::Flat, 0),
        None => return Err(bad("no address operand")),
    };
    let fields = Fields {
        opcode,
        sfid,
        addr_size,
        data_size,
        vector,
        transposed,
        space,
        offset,
        eot: inst.has_opt("EOT"),
    };
    build(&fields, inst.exec_size as u32).map_err(|w| bad(&w))
}

fn build(f: &Fields, exec_size: u32) -> Result<Message, String> {
    let name = match f.opcode {
        FENCE => "fence",
        o => lsc_mnemonic(u64::from(o)).unwrap_or("?"),
    };
    if f.opcode == FENCE {
        return Ok(Message {
            kind: Kind::Fence {
                local: f.sfid == "slm",
            },
            eot: f.eot,
            name: format!("{name}.{}", f.sfid),
        });
    }
    if f.sfid == "tgm" {
        return Err("typed LSC messages (tgm) are not supported yet".into());
    }
    let op = match f.opcode {
        0x00 | 0x02 => Op::Load,
        0x04 | 0x06 => Op::Store,
        0x08..=0x1A => Op::Atomic(lsc_atomic_op(f.opcode as u8)?),
        0x01 | 0x05 => return Err("strided LSC messages are not supported yet".into()),
        o => return Err(format!("LSC operation {name} ({o:#x})")),
    };
    let addr_bytes = match f.addr_size {
        1 => 2,
        2 => 4,
        3 => 8,
        s => return Err(format!("LSC address size code {s}")),
    };
    let (mem_bytes, reg_bytes, shift) = lsc_data_size(f.data_size)?;
    let (components, elems) = if is_quad(f.opcode) {
        (u64::from(f.vector), f.vector.count_ones() as usize)
    } else {
        let n = lsc_vector_len(f.vector)?;
        (u64::MAX >> (64 - n), n)
    };
    let (address, data) = if f.transposed {
        if matches!(op, Op::Atomic(_)) {
            return Err("transposed atomics".into());
        }
        (
            Address::First { bytes: addr_bytes },
            Data::Block {
                bytes: elems * mem_bytes,
                reg_offset: 0,
            },
        )
    } else {
        (
            Address::PerChannel {
                bytes: addr_bytes,
                simd: exec_size,
            },
            Data::Gather {
                components,
                mem_bytes,
                reg_bytes,
                shift,
            },
        )
    };
    Ok(Message {
        kind: Kind::Access(Access {
            op,
            space: f.space,
            address,
            data,
            header: false,
            offset: f.offset,
        }),
        eot: f.eot,
        name: format!("{name}.{}", f.sfid),
    })
}
