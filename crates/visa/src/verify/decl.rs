//! Declarations (spec `4_visa_header.md`: var_info, address_info, predicate_info,
//! label_info).

use super::{resolve_alias, Cx, Findings};
use crate::isa::rules::{IGC_ALIASED_PREDEFINED, PREDEFINED_ALIASABLE};
use crate::isa::Type;

/// The types a general variable may have: the spec's list, plus BF, which IGC
/// declares for bfloat16 data from Xe-HP on.
const VARIABLE_TYPES: [Type; 12] = [
    Type::UD,
    Type::D,
    Type::UW,
    Type::W,
    Type::UB,
    Type::B,
    Type::UQ,
    Type::Q,
    Type::DF,
    Type::HF,
    Type::F,
    Type::BF,
];

pub(super) fn check(cx: &Cx, out: &mut Findings) {
    let r = cx.routine;
    let first_user = crate::limits::PREDEFINED_VARS;
    for (i, v) in r.variables.iter().enumerate() {
        let here = || cx.decl("variables", i);
        let id = first_user + i as u32;
        let ty = v.ty();
        let ty_name = ty.name().unwrap_or("?");
        if !VARIABLE_TYPES.contains(&ty) {
            out.push(
                "VISA-DECL-001",
                here(),
                format!("V{id} has type {ty_name}, not allowed for a general variable"),
            );
        }
        if !(1..=4096).contains(&v.num_elements) {
            out.push(
                "VISA-DECL-002",
                here(),
                format!("V{id} has {} elements; 1 to 4096 allowed", v.num_elements),
            );
        }
        if let Some(size) = v.byte_size() {
            // Strict only (see `STRICT_RULES`): IGC declares 4096-byte variables on PVC.
            if cx.strict && size >= crate::limits::MAX_VARIABLE_BYTES {
                out.push(
                    "VISA-DECL-003",
                    here(),
                    format!("V{id} is {size} bytes; must be less than 4096"),
                );
            }
        }
        if v.align().bytes(cx.grf_size as usize).is_none() {
            out.push(
                "VISA-DECL-004",
                here(),
                format!("V{id} has alignment code {}", v.align().0),
            );
        }
        if v.alias_scope > 1
            || (v.alias_scope == 1 && v.alias_index != 0)
                && cx.object.filescope_vars.len() <= v.alias_index as usize
        {
            out.push(
                "VISA-DECL-008",
                here(),
                format!(
                    "V{id} has alias scope {} with alias index {}",
                    v.alias_scope, v.alias_index
                ),
            );
        }
        if v.alias_index == 0 {
            if v.alias_offset != 0 {
                out.push(
                    "VISA-DECL-007",
                    here(),
                    format!(
                        "V{id} aliases nothing but has alias offset {}",
                        v.alias_offset
                    ),
                );
            }
            continue;
        }
        if v.alias_scope != 0 {
            continue;
        }
        let Some(target) = cx.var(v.alias_index) else {
            out.push(
                "VISA-DECL-005",
                here(),
                format!("V{id} aliases V{}, which is not declared", v.alias_index),
            );
            continue;
        };
        if v.alias_index < crate::limits::PREDEFINED_VARS
            && !PREDEFINED_ALIASABLE.contains(&v.alias_index)
        {
            // Strict only (see `STRICT_RULES`): IGC aliases %hw_id.
            let igc_aliases = IGC_ALIASED_PREDEFINED.contains(&v.alias_index);
            let rule = if igc_aliases {
                "VISA-DECL-015"
            } else {
                "VISA-DECL-014"
            };
            if cx.strict || !igc_aliases {
                out.push(
                    rule,
                    here(),
                    format!(
                        "V{id} aliases predefined V{}, which cannot be aliased",
                        v.alias_index
                    ),
                );
            }
        }
        if let Some(size) = ty.size() {
            if usize::from(v.alias_offset) % size != 0 {
                out.push(
                    "VISA-DECL-006",
                    here(),
                    format!(
                        "V{id} aliases V{} at offset {}, not aligned to its type {ty_name}",
                        v.alias_index, v.alias_offset
                    ),
                );
            }
        }
        if resolve_alias(r, cx.version, id).is_none() {
            out.push(
                "VISA-DECL-009",
                here(),
                format!(
                    "V{id}'s alias chain does not end (cycle through V{})",
                    v.alias_index
                ),
            );
            continue;
        }
        if let (Some(own), Some(target_size)) = (v.byte_size(), target.byte_size()) {
            if own as u64 + u64::from(v.alias_offset) > u64::from(target_size) {
                out.push(
                    "VISA-DECL-010",
                    here(),
                    format!(
                        "V{id} ({own} bytes at offset {}) extends past V{} ({target_size} bytes)",
                        v.alias_offset, v.alias_index
                    ),
                );
            }
        }
    }
    for (i, a) in r.addresses.iter().enumerate() {
        if !(1..=16).contains(&a.num_elements) {
            out.push(
                "VISA-DECL-011",
                cx.decl("addresses", i),
                format!("A{i} has {} elements; 1 to 16 allowed", a.num_elements),
            );
        }
    }
    for (i, p) in r.predicates.iter().enumerate() {
        if !matches!(p.num_elements, 1 | 2 | 4 | 8 | 16 | 32) {
            out.push(
                "VISA-DECL-012",
                cx.decl("predicates", i),
                format!(
                    "P{} has {} elements; 1, 2, 4, 8, 16 or 32 allowed",
                    i + 1,
                    p.num_elements
                ),
            );
        }
    }
    for (i, l) in r.labels.iter().enumerate() {
        if l.kind > 4 {
            out.push(
                "VISA-DECL-013",
                cx.decl("labels", i),
                format!("label {i} has kind {}", l.kind),
            );
        }
    }
}
