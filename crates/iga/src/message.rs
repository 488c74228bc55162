//! What iga64 decodes from a send's descriptors into its JSON: the payload's
//! surface (`surf`), the immediate address offset, and the message description
//! (`comment`). The text reader needs it because the text shows only the raw
//! descriptors and, for LSC messages, their load/store syntax instead of the
//! description. Facts from IGA's `MessageDecoder` (descriptor fields) and the
//! corpus's listings (which surface iga64 reports for each HDC message).

use crate::model::{Reg, Surface, SurfaceOffset};
use crate::syntax::Gen;

/// The decoded part of a send that the JSON carries.
#[derive(Debug)]
pub struct Message {
    pub surface: Option<Surface>,
    pub addr_offset: i64,
    pub description: Option<String>,
}

/// LSC opcodes (descriptor bits 5:0), their load/store-syntax mnemonic and
/// iga64's description of each.
pub const LSC_OPS: &[(u64, &str, &str)] = &[
    (0x00, "load", "gathering load"),
    (0x01, "load_strided", "strided load (a.k.a load_block)"),
    (0x02, "load_quad", "quad load (a.k.a. load_cmask)"),
    (0x03, "load_block2d", "block2d load"),
    (0x04, "store", "scattering store"),
    (0x05, "store_strided", "strided store (a.k.a store_block)"),
    (0x06, "store_quad", "quad store (a.k.a. store_cmask)"),
    (0x07, "store_block2d", "block2d store"),
    (0x08, "atomic_iinc", "atomic integer increment"),
    (0x09, "atomic_idec", "atomic integer decrement"),
    (0x0A, "atomic_load", "atomic load"),
    (0x0B, "atomic_store", "atomic store"),
    (0x0C, "atomic_iadd", "atomic integer add"),
    (0x0D, "atomic_isub", "atomic integer subtract"),
    (0x0E, "atomic_smin", "atomic signed-integer minimum"),
    (0x0F, "atomic_smax", "atomic signed-integer maximum"),
    (0x10, "atomic_umin", "atomic unsigned-integer minimum"),
    (0x11, "atomic_umax", "atomic unsigned-integer maximum"),
    (0x12, "atomic_icas", "atomic integer compare and swap"),
    (0x13, "atomic_fadd", "atomic float add"),
    (0x14, "atomic_fsub", "atomic float subtract"),
    (0x15, "atomic_fmin", "atomic float minimum"),
    (0x16, "atomic_fmax", "atomic float maximum"),
    (0x17, "atomic_fcas", "atomic float compare and swap"),
    (0x18, "atomic_and", "atomic logical and"),
    (0x19, "atomic_or", "atomic logical or"),
    (0x1A, "atomic_xor", "atomic logical xor"),
];

const LSC_FENCE_OPS: [&str; 6] = [
    "no op",
    "evict (dirty lines invalidated and evicted)",
    "invalidate (all clean lines, but do not evict)",
    "discard (dirty and clean lines invalidated without eviction)",
    "clean (dirty lines written out, but kept in clean state)",
    "flush L3 only",
];

const LSC_FENCE_SCOPES: [&str; 7] = [
    "thread group",
    "slice",
    "tile",
    "gpu",
    "all gpus",
    "system release",
    "system acquire",
];

/// The mnemonic of an LSC opcode in load/store syntax (`load`, `atomic_iadd`, ...).
pub fn lsc_mnemonic(op: u64) -> Option<&'static str> {
    LSC_OPS
        .iter()
        .find(|(o, _, _)| *o == op)
        .map(|(_, n, _)| *n)
}

/// Whether `name` is an LSC message mnemonic (`fence` included).
pub fn is_lsc_mnemonic(name: &str) -> bool {
    name == "fence" || LSC_OPS.iter().any(|(_, n, _)| *n == name)
}

/// Shared functions whose messages are LSC from XeHPG on.
pub fn is_lsc(gen: Gen, sfid: Option<&str>) -> bool {
    gen >= Gen::XeHpg && matches!(sfid, Some("ugm" | "ugml" | "tgm" | "slm"))
}

fn surface(addr_type: &str, offset: Option<SurfaceOffset>) -> Option<Surface> {
    Some(Surface {
        addr_type: addr_type.to_string(),
        offset,
        defs: Vec::new(),
        extra: Vec::new(),
    })
}

fn lsc(sfid: &str, ex_desc: Option<u64>, ex_desc_reg: Option<&Reg>, desc: u64) -> Message {
    let op = desc & 0x3F;
    let description = if op == 0x1F {
        let ft = LSC_FENCE_OPS.get(((desc >> 12) & 7) as usize);
        let sc = LSC_FENCE_SCOPES.get(((desc >> 9) & 7) as usize);
        ft.zip(sc).map(|(f, s)| format!("fence {f} scoped to {s}"))
    } else {
        LSC_OPS
            .iter()
            .find(|(o, _, _)| *o == op)
            .map(|(_, _, d)| d.to_string())
    };
    let surf = if sfid == "slm" || op == 0x1F {
        surface("flat", Some(SurfaceOffset::Imm(0)))
    } else {
        let state = ex_desc_reg.map(|r| SurfaceOffset::Reg(r.clone()));
        match (desc >> 29) & 3 {
            0 => surface("flat", Some(SurfaceOffset::Imm(0))),
            1 => surface("bss", state),
            2 => surface("ss", state),
            _ => surface(
                "bti",
                Some(SurfaceOffset::Imm(ex_desc.map_or(0, |e| (e >> 24) as i64))),
            ),
        }
    };
    Message {
        surface: description.is_some().then_some(surf).flatten(),
        addr_offset: 0,
        description,
    }
}

/// Decodes a send's descriptors. `text_description` is the message iga64 printed
/// in the text's comment (for non-LSC messages the JSON's description is the same
/// text; `?` or nothing means iga64 could not decode it).
pub fn decode(
    gen: Gen,
    sfid: Option<&str>,
    ex_desc: Option<u64>,
    ex_desc_reg: Option<&Reg>,
    desc: Option<u64>,
    exec_size: i64,
    text_description: &str,
) -> Message {
    let undecoded = Message {
        surface: None,
        addr_offset: 0,
        description: None,
    };
    let Some(desc) = desc else { return undecoded };
    if is_lsc(gen, sfid) {
        return lsc(sfid.unwrap_or(""), ex_desc, ex_desc_reg, desc);
    }
    let m = text_description;
    if m.is_empty() || m == "?" {
        return undecoded;
    }
    // On XeHPC iga64 describes an HDC untyped (non-A64) atomic in the text but
    // writes its JSON as undecoded (the corpus's one case: a SIMD1 SLM atomic on
    // pvc; the same message decodes on every earlier platform).
    if gen >= Gen::XeHpc && m.starts_with("untyped atomic") && exec_size < 8 {
        return undecoded;
    }
    let imm = |v: i64| Some(SurfaceOffset::Imm(v));
    let bti = (desc & 0xFF) as i64;
    let (surf, addr_offset) = match sfid {
        Some("gtwy") => (surface("invalid", imm(0)), 0),
        // The sampler's surface is the descriptor's binding table index; iga64
        // gives it as the offset of a surface of no type (252 and up are bindless).
        Some("smpl") => (surface("invalid", imm(bti)), 0),
        Some("ts") => (surface("flat", imm(0)), 0),
        _ if m.contains("scratch") => (surface("bti", imm(0)), ((desc & 0xFFF) * 32) as i64),
        _ if m.contains("fence") => (surface("flat", imm(bti)), 0),
        _ if m.contains("a64") || bti >= 0xFD => (surface("flat", imm(0)), 0),
        _ => (surface("bti", imm(bti)), 0),
    };
    Message {
        surface: surf,
        addr_offset,
        description: Some(m.to_string()),
    }
}
