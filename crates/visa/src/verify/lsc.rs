//! LSC field combinations (spec `instructions/LSC_UNTYPED.md`, `LSC_TYPED.md`,
//! `LSC_FENCE.md`): each control field within its enumeration, and the combinations
//! the specs restrict.

use super::{Cx, Findings, Platform};
use crate::isa::names::{lsc_has_chmask, lsc_kind, LscKind, LSC_CACHE};
use crate::isa::Opcode;
use crate::model::{Code, InstRef, Operand};

const SFID_UGML: u32 = 1;
const SFID_SLM: u32 = 3;
const DATA_ORDER_TRANSPOSE: u32 = 2;

/// Valid codes of each enumerated LSC field (0 is "invalid" where the spec says so).
const FIELD_RANGES: [(&str, u32, u32); 10] = [
    ("sfid", 0, 3),
    ("l1", 0, 6),
    ("l3", 0, 6),
    ("addr_type", 1, 5),
    ("addr_size", 1, 3),
    ("data_size", 1, 7),
    ("data_order", 1, 2),
    ("data_elems", 1, 8),
    ("fence_op", 0, 6),
    ("scope", 0, 6),
];

/// PVC's allowed (L1, L3) caching pairs, by cache code, with whether each applies to
/// loads and to stores (the table under CachingL1).
const PVC_CACHING: [(u32, u32, bool, bool); 13] = [
    (0, 0, true, true),
    (1, 1, true, true),
    (5, 1, true, true),
    (1, 2, true, false),
    (2, 1, true, false),
    (2, 2, true, false),
    (5, 2, true, false),
    (6, 2, true, false),
    (1, 3, false, true),
    (4, 1, false, true),
    (4, 3, false, true),
    (5, 3, false, true),
    (3, 3, false, true),
];

fn int(inst: InstRef<'_>, name: &str) -> Option<u32> {
    match inst.operand(name) {
        Some(Operand::Int(v)) => Some(*v),
        _ => None,
    }
}

pub(super) fn check(cx: &Cx, out: &mut Findings) {
    let Code::Instructions(code) = &cx.routine.code else {
        return;
    };
    let mut scratch = Vec::new();
    for (index, head) in code.heads().enumerate() {
        if !matches!(
            head.opcode,
            Opcode::LSC_UNTYPED | Opcode::LSC_TYPED | Opcode::LSC_FENCE
        ) {
            continue;
        }
        if let Some(inst) = code.get_with(index, &mut scratch) {
            check_instruction(cx, index, inst, out);
        }
    }
}

fn check_instruction(cx: &Cx, index: usize, inst: InstRef<'_>, out: &mut Findings) {
    let here = |field: &'static str| cx.inst(index, Some(field));
    for (field, lo, hi) in FIELD_RANGES {
        if let Some(v) = int(inst, field) {
            if v < lo || v > hi {
                out.push(
                    "VISA-LSC-001",
                    here(field),
                    format!("{field} {v} is outside {lo}-{hi}"),
                );
            }
        }
    }
    let (l1, l3) = (int(inst, "l1"), int(inst, "l3"));
    let slm_cached = l1.unwrap_or(0) != 0 || l3.unwrap_or(0) != 0;
    if cx.strict && int(inst, "sfid") == Some(SFID_SLM) && slm_cached {
        out.push(
            "VISA-LSC-002",
            here("l1"),
            format!(
                "SLM access with caching .{}.{}; must be .df.df",
                cache_name(l1.unwrap_or(0)),
                cache_name(l3.unwrap_or(0))
            ),
        );
    }
    if int(inst, "data_order") == Some(DATA_ORDER_TRANSPOSE) {
        if let Some(size) = inst.exec().and_then(|e| e.exec_size()) {
            if size != 1 {
                out.push(
                    "VISA-LSC-003",
                    here("exec"),
                    format!("transposed access with exec size {size}; must be SIMD1"),
                );
            }
        }
    }
    if let (Some(op), Some(chmask)) = (inst.subop, int(inst, "chmask")) {
        let quad = lsc_has_chmask(op);
        if quad && chmask & 0xF == 0 || !quad && chmask != 0 {
            out.push(
                "VISA-LSC-004",
                here("chmask"),
                if quad {
                    format!("{} enables no channel", inst.mnemonic())
                } else {
                    format!(
                        "channel mask {chmask:#x} on {}, which is not a quad operation",
                        inst.mnemonic()
                    )
                },
            );
        }
    }
    if cx.platform == Some(Platform::Pvc) {
        if let (Some(l1), Some(l3), Some(op)) = (l1, l3, inst.subop) {
            let kind = lsc_kind(op);
            let allowed = PVC_CACHING.iter().any(|&(a, b, loads, stores)| {
                a == l1
                    && b == l3
                    && match kind {
                        LscKind::Load => loads,
                        LscKind::Store => stores,
                        LscKind::Atomic => loads && stores,
                    }
            });
            if !allowed {
                out.push(
                    "VISA-LSC-005",
                    here("l1"),
                    format!(
                        "caching .{}.{} is not an allowed PVC combination for {}",
                        cache_name(l1),
                        cache_name(l3),
                        inst.mnemonic()
                    ),
                );
            }
        }
    }
    if let Some(p) = cx.platform {
        if int(inst, "sfid") == Some(SFID_UGML) && p != Platform::Pvc {
            out.push(
                "VISA-LSC-006",
                here("sfid"),
                format!("ugml is PVC only, not {}", p.name()),
            );
        }
    }
}

fn cache_name(code: u32) -> String {
    LSC_CACHE
        .get(code as usize)
        .map_or_else(|| code.to_string(), |s| (*s).to_string())
}
