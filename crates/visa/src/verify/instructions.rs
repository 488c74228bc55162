//! Instruction-class rules: exec sizes and masks, predicates, labels, and the operand
//! classes, types and control values each opcode admits (from `crate::isa::rules`).

use super::operands::{self, Role, Use};
use super::{Cx, Findings};
use crate::isa::rules::{
    OperandTypes, IGC_EXTRA_CLASSES, IGC_EXTRA_TYPES, IGC_UNCHECKED_SOURCE_TYPES, OPERAND_CLASSES,
    OPERAND_TYPES, RAW_TYPES,
};
use crate::isa::{Class, FieldKind, Opcode, Type};
use crate::model::{Code, InstRef, Operand, Pred, VectorKind};
use crate::semantics::MaskControl;

const BLOCK_LABEL: u8 = 0;
const SUBROUTINE_LABEL: u8 = 1;

pub(super) fn check(cx: &Cx, out: &mut Findings) {
    let Code::Instructions(code) = &cx.routine.code else {
        return;
    };
    // Where each label is placed, for the placement rules after the walk.
    let mut placed: Vec<Option<usize>> = vec![None; cx.routine.labels.len()];
    let mut targets: Vec<(usize, u16)> = Vec::new();
    let mut walk = code.walk();
    while let Some((index, inst)) = walk.next_instruction() {
        check_instruction(cx, index, inst, out, &mut placed, &mut targets);
    }
    // Which subroutine each instruction is in: a `func` opens the next one.
    let mut subroutine = Vec::with_capacity(code.len());
    let mut current = 0u32;
    for head in code.heads() {
        if head.opcode == Opcode::FUNC {
            current += 1;
        }
        subroutine.push(current);
    }
    for (index, label) in targets {
        match placed.get(usize::from(label)) {
            Some(None) => out.push(
                "VISA-INST-007",
                cx.inst(index, Some("label")),
                format!("label {label} is jumped to but never placed"),
            ),
            Some(Some(at)) => {
                let Some(head) = code.head(index) else {
                    continue;
                };
                let jumps = matches!(head.opcode, Opcode::JMP | Opcode::GOTO | Opcode::SWITCHJMP);
                if jumps && subroutine.get(index) != subroutine.get(*at) {
                    out.push(
                        "VISA-INST-016",
                        cx.inst(index, Some("label")),
                        format!(
                            "{} to label {label}, placed in another subroutine (instruction {at})",
                            head.mnemonic()
                        ),
                    );
                }
            }
            None => {}
        }
    }
}

fn is_alu(class: Class) -> bool {
    matches!(
        class,
        Class::Mov | Class::Arith | Class::Logic | Class::Compare | Class::Address
    )
}

fn check_instruction(
    cx: &Cx,
    index: usize,
    inst: InstRef<'_>,
    out: &mut Findings,
    placed: &mut [Option<usize>],
    targets: &mut Vec<(usize, u16)>,
) {
    let Some(info) = inst.opcode.info() else {
        return;
    };
    let Some(fields) = inst.fields() else {
        return;
    };
    let exec_size = match inst.exec() {
        Some(e) => match e.exec_size() {
            Some(size) => {
                let mask = MaskControl::from_code(e.emask());
                if let Some(mask) = mask {
                    if mask.offset() + size > 32 {
                        out.push(
                            "VISA-INST-002",
                            cx.inst(index, Some("exec")),
                            format!(
                                "{} with exec size {size} reads mask bit {}, past bit 31",
                                mask.name(),
                                mask.offset() + size - 1
                            ),
                        );
                    }
                }
                Some(size)
            }
            None => {
                out.push(
                    "VISA-INST-001",
                    cx.inst(index, Some("exec")),
                    format!("exec size code {} is reserved", e.size_code()),
                );
                None
            }
        },
        None => None,
    };
    if let Some(p) = inst.pred() {
        check_pred(cx, index, p, out);
    }
    check_exec_rules(cx, index, inst, exec_size, out);
    let alu = is_alu(info.class) && exec_size.is_some();
    let type_rule = OPERAND_TYPES.iter().find(|t| t.opcode == inst.opcode.0);
    for (field, operand) in fields.iter().zip(inst.operands) {
        match operand {
            Operand::Vector(v) => {
                let role = match field.name {
                    "dst" | "carry" => Role::Destination,
                    _ if alu && field.name.starts_with("src") => Role::Source,
                    _ => Role::Scalar,
                };
                let u = Use {
                    index,
                    field: field.name,
                    opcode: inst.opcode,
                    exec_size: if alu { exec_size } else { None },
                    role,
                    cx,
                };
                operands::check_vector(&u, v, out);
                let class = v.kind.class_code();
                if let Some(rule) = OPERAND_CLASSES
                    .iter()
                    .find(|r| r.opcode == inst.opcode.0 && r.field == field.name)
                {
                    let extra = IGC_EXTRA_CLASSES.iter().any(|r| {
                        r.opcode == inst.opcode.0
                            && r.field == field.name
                            && r.classes.contains(class)
                    });
                    if !rule.classes.contains(class) && !extra {
                        out.push(
                            "VISA-INST-008",
                            cx.inst(index, Some(field.name)),
                            format!(
                                "{} operand not allowed as {} of {}",
                                class_name(class),
                                field.name,
                                info.mnemonic
                            ),
                        );
                    }
                }
                if let (Some(rule), Some(ty)) = (type_rule, operands::vector_type(cx, v)) {
                    let ty = match ty {
                        Type::V => Type::W,
                        Type::UV => Type::UW,
                        Type::VF => Type::F,
                        t => t,
                    };
                    let allowed = type_allowed(rule, info.class, inst.opcode, ty);
                    let is_predicate = matches!(v.kind, VectorKind::Predicate(_));
                    let unchecked_by_igc = field.name.starts_with("src")
                        && IGC_UNCHECKED_SOURCE_TYPES.contains(&inst.opcode.0);
                    if !allowed && !is_predicate && unchecked_by_igc {
                        if cx.strict {
                            out.push(
                                "VISA-INST-021",
                                cx.inst(index, Some(field.name)),
                                format!(
                                    "type {} not allowed for a source of {}",
                                    ty.name().unwrap_or("?").to_uppercase(),
                                    info.mnemonic
                                ),
                            );
                        }
                    } else if !allowed && !is_predicate && field.name != "carry" {
                        out.push(
                            "VISA-INST-009",
                            cx.inst(index, Some(field.name)),
                            format!(
                                "type {} not allowed for {}",
                                ty.name().unwrap_or("?").to_uppercase(),
                                info.mnemonic
                            ),
                        );
                    }
                }
            }
            Operand::Raw(raw) => {
                check_raw_type(cx, index, inst, field.name, raw, out);
                let u = Use {
                    index,
                    field: field.name,
                    opcode: inst.opcode,
                    exec_size: None,
                    role: Role::Scalar,
                    cx,
                };
                operands::check_raw(&u, raw, out);
            }
            Operand::RawList(raws) => {
                for raw in raws.iter() {
                    let u = Use {
                        index,
                        field: field.name,
                        opcode: inst.opcode,
                        exec_size: None,
                        role: Role::Scalar,
                        cx,
                    };
                    operands::check_raw(&u, raw, out);
                }
            }
            Operand::Label(label) => {
                check_label(cx, index, inst.opcode, *label, out, placed, targets);
            }
            Operand::LabelList(labels) => {
                for label in labels.iter() {
                    check_label(cx, index, inst.opcode, *label, out, placed, targets);
                }
            }
            Operand::Int(value) if field.kind != FieldKind::Exec => {
                check_control(cx, index, inst.opcode, field.name, *value, out);
            }
            _ => {}
        }
    }
}

fn is_integer(ty: Type) -> bool {
    matches!(
        ty,
        Type::UB | Type::B | Type::UW | Type::W | Type::UD | Type::D | Type::UQ | Type::Q
    )
}

/// Whether an opcode's type list admits a type. Logic instructions take their list as
/// "integers up to the widest listed": IGC's verifier checks them only for being
/// integral (and 64-bit only where a 64-bit type is listed), and IGC emits signed
/// types for `shr` and `bfrev` and UW for `fbl` although the specs list unsigned
/// dword types only.
fn type_allowed(rule: &OperandTypes, class: Class, opcode: Opcode, ty: Type) -> bool {
    let listed =
        |t: &Type| rule.types.contains(t) || rule.gated.iter().any(|(_, types)| types.contains(t));
    if listed(&ty) {
        return true;
    }
    if IGC_EXTRA_TYPES
        .iter()
        .any(|(op, types)| *op == opcode.0 && types.contains(&ty))
    {
        return true;
    }
    if class == Class::Logic && is_integer(ty) {
        let widest = [
            Type::UQ,
            Type::Q,
            Type::UD,
            Type::D,
            Type::UW,
            Type::W,
            Type::UB,
            Type::B,
        ]
        .into_iter()
        .filter(|t| listed(t))
        .filter_map(|t| t.size())
        .max();
        return widest.is_some_and(|w| ty.size().is_some_and(|s| s <= w));
    }
    false
}

/// Exec-size and mask rules that individual instruction specs state.
fn check_exec_rules(
    cx: &Cx,
    index: usize,
    inst: InstRef<'_>,
    exec_size: Option<u32>,
    out: &mut Findings,
) {
    let Some(size) = exec_size else {
        return;
    };
    if inst.opcode == Opcode::MADW && size > 16 {
        out.push(
            "VISA-INST-017",
            cx.inst(index, Some("exec")),
            format!("madw with exec size {size}; at most 16"),
        );
    }
    if matches!(inst.opcode, Opcode::BFE | Opcode::BFI) && size == 2 {
        out.push(
            "VISA-INST-012",
            cx.inst(index, Some("exec")),
            format!("{} with exec size 2", inst.mnemonic()),
        );
    }
    // mov from a predicate (MOV.md): SIMD1, unpredicated, no saturation, into an
    // unsigned integer at least as wide as the predicate.
    if inst.opcode == Opcode::MOV {
        if let Some(Operand::Vector(src)) = inst.operand("src0") {
            if let VectorKind::Predicate(p) = src.kind {
                let bits = cx
                    .routine
                    .predicates
                    .get(usize::from(p.id()).wrapping_sub(1))
                    .map_or(0, |d| u32::from(d.num_elements));
                let dst = match inst.operand("dst") {
                    Some(Operand::Vector(d)) => Some(d),
                    _ => None,
                };
                let dst_type = dst.and_then(|d| super::operands::vector_type(cx, d));
                let wide_enough = dst_type.is_some_and(|t| {
                    matches!(t, Type::UB | Type::UW | Type::UD)
                        && t.size().is_some_and(|s| s as u32 * 8 >= bits)
                });
                let predicated = inst.pred().is_some_and(|p| !p.is_none());
                let saturated = dst.is_some_and(|d| d.modifier == crate::model::Modifier::SAT);
                if size != 1 || !wide_enough || predicated || saturated {
                    out.push(
                        "VISA-INST-013",
                        cx.inst(index, Some("src0")),
                        format!(
                            "mov from P{} ({bits} elements) needs exec size 1, an unsigned destination of at least {bits} bits, no predicate and no saturation",
                            p.id()
                        ),
                    );
                }
            }
        }
    }
    // "Scalar calls (returns) must be marked with {NoMask}".
    if cx.strict
        && size == 1
        && matches!(
            inst.opcode,
            Opcode::FCALL | Opcode::IFCALL | Opcode::RET | Opcode::FRET
        )
    {
        if let Some(e) = inst.exec() {
            if e.emask() < 8 {
                out.push(
                    "VISA-INST-014",
                    cx.inst(index, Some("exec")),
                    format!("scalar {} without NoMask", inst.mnemonic()),
                );
            }
        }
    }
}

/// The spec's name of a raw field where the layout names it differently.
const RAW_FIELD_SYNONYMS: [(&str, &str); 6] = [
    ("element_offset", "offsets"),
    ("offset", "offsets"),
    ("source0alpha", "s0a"),
    ("omask", "om"),
    ("sourcedepth", "z"),
    ("stencil", "s"),
];

/// Whether a `RAW_TYPES` row's spec field name denotes a layout field.
pub(crate) fn raw_field_matches(spec: &str, layout_field: &str) -> bool {
    let layout = layout_field.to_ascii_lowercase();
    spec == layout
        || RAW_FIELD_SYNONYMS
            .iter()
            .any(|(s, l)| *s == spec && *l == layout)
}

fn check_raw_type(
    cx: &Cx,
    index: usize,
    inst: InstRef<'_>,
    field: &'static str,
    raw: &crate::model::Raw,
    out: &mut Findings,
) {
    if raw.id == 0 {
        return;
    }
    let Some(ty) = cx.var(raw.id).map(|d| d.ty) else {
        return;
    };
    let rule = RAW_TYPES.iter().find(|r| {
        r.opcode == inst.opcode.0
            && (r.layout.is_empty() || r.layout == inst.mnemonic())
            && raw_field_matches(r.field, field)
    });
    // A raw operand is a run of bytes the message reads in elements of the listed
    // types' size; IGC's own verifier judges raw types by size (a dword type for
    // gather4/scatter4 data), and IGC writes D coordinates to scatter4_typed and an F
    // LOD to info_3d where the spec lists UD. So the size is what must match.
    if let Some(rule) = rule {
        if !rule.types.iter().any(|t| t.size() == ty.size()) {
            out.push(
                "VISA-INST-015",
                cx.inst(index, Some(field)),
                format!(
                    "{} of {} has type {}; allowed: types of the size of {}",
                    field,
                    inst.mnemonic(),
                    ty.name().unwrap_or("?").to_uppercase(),
                    rule.types
                        .iter()
                        .map(|t| t.name().unwrap_or("?").to_uppercase())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
    }
}

/// T0, the SLM surface.
const SLM_SURFACE: u32 = 0;

/// A surface index names a declared (or predefined) surface, and T0 only where the
/// message's spec allows SLM ("T0(SLM): no" for media and typed messages).
fn check_surface(cx: &Cx, index: usize, opcode: Opcode, value: u32, out: &mut Findings) {
    let declared = crate::limits::PREDEFINED_SURFACES + cx.routine.surfaces.len() as u32;
    if value >= declared {
        out.push(
            "VISA-INST-019",
            cx.inst(index, Some("surface")),
            format!("surface T{value} is not declared ({declared} surfaces)"),
        );
    }
    let no_slm = matches!(
        opcode,
        Opcode::MEDIA_LD | Opcode::MEDIA_ST | Opcode::GATHER4_TYPED | Opcode::SCATTER4_TYPED
    );
    if no_slm && value == SLM_SURFACE {
        out.push(
            "VISA-INST-018",
            cx.inst(index, Some("surface")),
            format!("{} cannot access T0 (SLM)", opcode.mnemonic()),
        );
    }
}

fn class_name(code: u8) -> &'static str {
    match code {
        0 => "general",
        1 => "address",
        2 => "predicate",
        3 => "indirect",
        5 => "immediate",
        6 => "state",
        _ => "reserved",
    }
}

fn check_pred(cx: &Cx, index: usize, p: Pred, out: &mut Findings) {
    if p.is_none() {
        return;
    }
    if usize::from(p.id()) > cx.routine.predicates.len() || p.control() == 3 || p.0 & 0x1000 != 0 {
        out.push(
            "VISA-INST-003",
            cx.inst(index, Some("pred")),
            format!(
                "predicate {:#06x}: P{} of {} declared, control {}",
                p.0,
                p.id(),
                cx.routine.predicates.len(),
                p.control()
            ),
        );
    }
}

fn check_label(
    cx: &Cx,
    index: usize,
    opcode: Opcode,
    label: u16,
    out: &mut Findings,
    placed: &mut [Option<usize>],
    targets: &mut Vec<(usize, u16)>,
) {
    let Some(decl) = cx.routine.labels.get(usize::from(label)) else {
        out.push(
            "VISA-INST-004",
            cx.inst(index, Some("label")),
            format!(
                "label {label} is not declared ({} labels)",
                cx.routine.labels.len()
            ),
        );
        return;
    };
    let wanted = match opcode {
        Opcode::JMP | Opcode::GOTO | Opcode::SWITCHJMP => Some(BLOCK_LABEL),
        Opcode::CALL => Some(SUBROUTINE_LABEL),
        _ => None,
    };
    if let Some(kind) = wanted {
        targets.push((index, label));
        if decl.kind != kind {
            out.push(
                "VISA-INST-005",
                cx.inst(index, Some("label")),
                format!(
                    "{} targets {} label {label}",
                    opcode.mnemonic(),
                    decl.kind_name()
                ),
            );
        }
    }
    if matches!(opcode, Opcode::LABEL | Opcode::FUNC) {
        if let Some(slot) = placed.get_mut(usize::from(label)) {
            match slot {
                Some(first) => out.push(
                    "VISA-INST-006",
                    cx.inst(index, Some("label")),
                    format!("label {label} already placed at instruction {first}"),
                ),
                None => *slot = Some(index),
            }
        }
    }
}

/// Control values whose range the instruction specs state.
fn check_control(
    cx: &Cx,
    index: usize,
    opcode: Opcode,
    field: &'static str,
    value: u32,
    out: &mut Findings,
) {
    if field == "surface" {
        check_surface(cx, index, opcode, value, out);
    }
    // S31 is the implicit bindless sampler.
    if field == "sampler"
        && value as usize >= cx.routine.samplers.len()
        && value != u32::from(crate::isa::BINDLESS_SAMPLER)
    {
        out.push(
            "VISA-INST-020",
            cx.inst(index, Some("sampler")),
            format!(
                "sampler S{value} is not declared ({} samplers)",
                cx.routine.samplers.len()
            ),
        );
    }
    let limit = match (opcode, field) {
        (Opcode::CMP, "relop") => Some(("relop", value & 0x7, 5)),
        (Opcode::FMINMAX, "op") => Some(("min/max selector", value, 1)),
        (Opcode::MEDIA_LD | Opcode::MEDIA_ST, "plane") => Some(("plane", value, 3)),
        _ => None,
    };
    if let Some((what, v, max)) = limit {
        if v > max {
            out.push(
                "VISA-INST-010",
                cx.inst(index, Some(field)),
                format!("{what} {v} is out of range 0-{max}"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every raw-type row names a raw field of the layouts it applies to, so no row
    /// is silently dead.
    #[test]
    fn every_raw_type_row_names_a_layout_field() {
        let mut dead = Vec::new();
        for row in RAW_TYPES {
            let op = Opcode(row.opcode);
            let layouts: Vec<_> = if op.has_subop() {
                op.subops().map(|(_, l)| l).collect()
            } else {
                op.layout(None).into_iter().collect()
            };
            let found = layouts
                .iter()
                .filter(|l| row.layout.is_empty() || l.mnemonic == row.layout)
                .flat_map(|l| l.fields.iter())
                .any(|f| {
                    matches!(
                        f.kind,
                        crate::isa::FieldKind::Raw | crate::isa::FieldKind::RawList(_)
                    ) && raw_field_matches(row.field, f.name)
                });
            if !found {
                dead.push(format!("{} {}", op.mnemonic(), row.field));
            }
        }
        // The 3D sampler's parameters are one raw list whose meaning depends on the
        // sampler operation, so these rows are not checked.
        assert_eq!(
            dead,
            ["load_3d si", "gather4_3d offu", "gather4_3d offv"],
            "rows without a field"
        );
    }
}
