//! Kernel inputs (spec `4_visa_header.md`, "Input Variables").

use super::{Cx, Findings, Place};
use crate::model::InputClass;

pub(super) fn check(cx: &Cx, out: &mut Findings) {
    let r = cx.routine;
    let grf = i64::from(cx.grf_size);
    let here = |index| Place::Input {
        routine: cx.rref,
        index,
    };
    // Byte ranges of the inputs seen so far, for the overlap rule.
    let mut ranges: Vec<(i64, i64, usize)> = Vec::new();
    let mut first_implicit: Option<usize> = None;
    for (i, input) in r.inputs().iter().enumerate() {
        let offset = i64::from(input.offset);
        let size = i64::from(input.size);
        if input.kind & 0x4 != 0 || matches!(input.class(), InputClass::Other(_)) {
            out.push(
                "VISA-INPUT-001",
                here(i),
                format!(
                    "input kind {:#04x}: class must be 0, 1 or 2 and bit 2 clear",
                    input.kind
                ),
            );
        }
        if input.implicit_kind() != 0 {
            first_implicit.get_or_insert(i);
        } else if let Some(first) = first_implicit {
            out.push(
                "VISA-INPUT-008",
                here(i),
                format!("explicit input after implicit input {first}"),
            );
        }
        if offset < 0 {
            out.push(
                "VISA-INPUT-010",
                here(i),
                format!("offset {offset} is negative"),
            );
        }
        if let Some(&(lo, hi, other)) = ranges
            .iter()
            .find(|(lo, hi, _)| size > 0 && offset < *hi && *lo < offset + size)
        {
            out.push(
                "VISA-INPUT-003",
                here(i),
                format!(
                    "bytes [{offset}, {}) overlap input {other} at [{lo}, {hi})",
                    offset + size
                ),
            );
        }
        ranges.push((offset, offset + size, i));
        match input.class() {
            InputClass::General => {
                let first_user = crate::limits::PREDEFINED_VARS;
                let var = input
                    .index
                    .checked_sub(first_user)
                    .and_then(|k| r.variables.get(k as usize));
                let Some(var) = var else {
                    out.push(
                        "VISA-INPUT-002",
                        here(i),
                        format!(
                            "input names V{}, which is not a declared user variable",
                            input.index
                        ),
                    );
                    continue;
                };
                if var.alias_index != 0 {
                    out.push(
                        "VISA-INPUT-009",
                        here(i),
                        format!("V{} aliases V{}", input.index, var.alias_index),
                    );
                }
                let Some(elem) = var.ty().size() else {
                    continue;
                };
                let elem = elem as i64;
                let var_size = elem * i64::from(var.num_elements);
                if var_size != size {
                    out.push(
                        "VISA-INPUT-007",
                        here(i),
                        format!(
                            "size {size} differs from V{}'s {} x {elem} = {var_size} bytes",
                            input.index, var.num_elements
                        ),
                    );
                }
                if offset.rem_euclid(elem) != 0 {
                    out.push(
                        "VISA-INPUT-004",
                        here(i),
                        format!("offset {offset} is not aligned to {elem}-byte elements"),
                    );
                }
                if var_size >= grf {
                    if offset.rem_euclid(grf) != 0 {
                        out.push(
                            "VISA-INPUT-005",
                            here(i),
                            format!("{var_size}-byte input at offset {offset} is not aligned to the {grf}-byte GRF"),
                        );
                    }
                } else if var_size > 0
                    && offset.div_euclid(grf) != (offset + var_size - 1).div_euclid(grf)
                {
                    out.push(
                        "VISA-INPUT-006",
                        here(i),
                        format!("{var_size}-byte input at offset {offset} crosses a {grf}-byte GRF boundary"),
                    );
                }
            }
            InputClass::Sampler | InputClass::Surface => {
                let (declared, first, letter) = if input.class() == InputClass::Sampler {
                    (r.samplers.len() as u32, 0, 'S')
                } else {
                    (
                        r.surfaces.len() as u32,
                        crate::limits::PREDEFINED_SURFACES,
                        'T',
                    )
                };
                if input.index < first || input.index - first >= declared {
                    out.push(
                        "VISA-INPUT-002",
                        here(i),
                        format!(
                            "input names {letter}{}, which is not a declared user state",
                            input.index
                        ),
                    );
                }
                if offset.rem_euclid(4) != 0 {
                    out.push(
                        "VISA-INPUT-004",
                        here(i),
                        format!("state input offset {offset} is not dword-aligned"),
                    );
                }
            }
            InputClass::Other(_) => {}
        }
    }
}
