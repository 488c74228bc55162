//! Operands (spec `5_operands.md`): region restrictions, indirect and immediate
//! operands, modifiers, and that every operand names something declared.

use super::{resolve_alias, Cx, Findings};
use crate::isa::rules::{SourceModifiers, MODIFIERS, PREDEFINED_READ_ONLY};
use crate::isa::{Class, Opcode, Type};
use crate::model::{Modifier, Raw, Region, Vector, VectorKind};
use crate::semantics::{self, RegionError, RegionParams};

const INDIRECT_OFFSET: std::ops::RangeInclusive<i16> = -512..=511;

/// How an instruction uses a vector operand.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    Destination,
    /// A source read per channel under the instruction's exec size.
    Source,
    /// A scalar operand of a message or control instruction: only its first element is read.
    Scalar,
}

pub(super) struct Use<'a> {
    pub index: usize,
    pub field: &'static str,
    pub opcode: Opcode,
    pub exec_size: Option<u32>,
    pub role: Role,
    pub cx: &'a Cx<'a>,
}

impl Use<'_> {
    fn push(&self, out: &mut Findings, rule: &'static str, message: String) {
        out.push(rule, self.cx.inst(self.index, Some(self.field)), message);
    }
}

/// The element type of a vector operand: declared type for a general variable, the
/// operand's own type for indirect and immediate operands.
pub(super) fn vector_type(cx: &Cx, v: &Vector) -> Option<Type> {
    match v.kind {
        VectorKind::General { id, .. } => cx.var(id).map(|d| d.ty),
        VectorKind::Indirect { ty, .. } | VectorKind::Immediate { ty, .. } => Some(Type(ty)),
        _ => None,
    }
}

pub(super) fn check_vector(u: &Use, v: &Vector, out: &mut Findings) {
    let cx = u.cx;
    let r = cx.routine;
    check_modifier(u, v, out);
    match v.kind {
        VectorKind::General {
            id,
            row,
            col,
            region,
        } => {
            let Some(decl) = cx.var(id) else {
                let (rule, what) = if id < crate::limits::PREDEFINED_VARS {
                    ("VISA-OPND-015", "a reserved predefined variable")
                } else {
                    ("VISA-OPND-014", "not declared")
                };
                u.push(out, rule, format!("V{id} is {what}"));
                return;
            };
            if u.role == Role::Destination && PREDEFINED_READ_ONLY.contains(&id) {
                u.push(
                    out,
                    "VISA-OPND-022",
                    format!("V{id} is a read-only predefined variable"),
                );
            }
            let Some(elem) = decl.ty.size().map(|s| s as u32) else {
                return;
            };
            if u32::from(col) * elem >= cx.grf_size {
                u.push(
                    out,
                    "VISA-OPND-019",
                    format!(
                        "column offset {col} of {elem}-byte elements crosses the {}-byte GRF",
                        cx.grf_size
                    ),
                );
            }
            // A scalar operand's region is ignored (spec: "hard-coded to <0;1,0>").
            if u.role == Role::Scalar {
                return;
            }
            let Some(params) = check_region_codes(u, region, false, out) else {
                return;
            };
            let origin =
                semantics::direct_origin(u32::from(row), u32::from(col), elem, cx.grf_size);
            let Some(elements) = enumerate(u, origin, elem, params, out) else {
                return;
            };
            // %null (V0) swallows any write.
            if id != 0 {
                if let Some(size) = decl.byte_size() {
                    let end = elements
                        .iter()
                        .map(|e| e.byte_offset + i64::from(elem))
                        .max()
                        .unwrap_or(0);
                    if end > i64::from(size) {
                        u.push(
                            out,
                            "VISA-OPND-017",
                            format!("region reaches byte {end} of V{id}, which has {size} bytes"),
                        );
                    }
                }
                if let Some((root, base)) = resolve_alias(r, cx.version, id) {
                    let root_size = cx.var(root).and_then(|d| d.byte_size()).unwrap_or(0);
                    // A variable of at least one GRF starts on a GRF boundary; a smaller one
                    // sits inside one GRF, so an in-bounds region cannot span two.
                    if cx.strict && root_size >= cx.grf_size {
                        let shifted: Vec<_> = elements
                            .iter()
                            .map(|e| semantics::Element {
                                channel: e.channel,
                                byte_offset: e.byte_offset + i64::from(base),
                            })
                            .collect();
                        let span = semantics::grf_span(&shifted, elem, cx.grf_size);
                        if !span.within_two_adjacent() {
                            u.push(
                                out,
                                "VISA-OPND-006",
                                format!(
                                    "region touches GRFs {:?} of V{root}; at most two adjacent allowed",
                                    span.grfs
                                ),
                            );
                        }
                    }
                }
            }
        }
        VectorKind::Indirect {
            addr,
            offset,
            ty,
            region,
            ..
        } => {
            if usize::from(addr) >= r.addresses.len() {
                u.push(out, "VISA-OPND-014", format!("A{addr} is not declared"));
            }
            if !INDIRECT_OFFSET.contains(&offset) {
                u.push(
                    out,
                    "VISA-OPND-007",
                    format!("indirect offset {offset} is outside [-512, 511]"),
                );
            }
            let ty = Type(ty);
            if matches!(ty, Type::V | Type::UV | Type::VF | Type::BOOL) || !ty.has_binary_form() {
                u.push(
                    out,
                    "VISA-OPND-010",
                    format!("indirect operand of type {}", type_name(ty)),
                );
            }
            // A destination encodes only its horizontal stride, so a null vertical
            // stride there means nothing unless a source-style width came with it.
            let multi = region.vstride_code() == 0
                && (u.role != Role::Destination || region.width_code() != 0);
            if multi && u.role == Role::Destination {
                u.push(
                    out,
                    "VISA-OPND-008",
                    "multi-address indirect operand as destination".into(),
                );
                return;
            }
            if u.role == Role::Scalar {
                return;
            }
            if let Some(params) = check_region_codes(u, region, multi, out) {
                if !multi {
                    if let Some(elem) = ty.size() {
                        enumerate(u, 0, elem as u32, params, out);
                    }
                }
            }
        }
        VectorKind::Address { id, offset, width } => match r.addresses.get(usize::from(id)) {
            None => u.push(out, "VISA-OPND-014", format!("A{id} is not declared")),
            Some(a) => {
                let count = if width <= 4 {
                    Some(1u32 << width)
                } else {
                    None
                };
                match count {
                    Some(c) if u32::from(offset) + c <= u32::from(a.num_elements) => {}
                    _ => u.push(
                        out,
                        "VISA-OPND-016",
                        format!(
                            "A{id}({offset}) reading {} exceeds its {} elements",
                            count.map_or("a reserved width".to_string(), |c| format!(
                                "{c} element(s)"
                            )),
                            a.num_elements
                        ),
                    ),
                }
            }
        },
        VectorKind::Predicate(p) => {
            if p.id() == 0 || usize::from(p.id()) > r.predicates.len() {
                u.push(out, "VISA-OPND-014", format!("P{} is not declared", p.id()));
            }
        }
        VectorKind::Immediate { ty, .. } => {
            let ty = Type(ty);
            if u.role == Role::Destination {
                u.push(out, "VISA-OPND-013", "immediate as destination".into());
            }
            if ty == Type::BOOL || !ty.has_binary_form() {
                u.push(
                    out,
                    "VISA-OPND-009",
                    format!("immediate of type {}", type_name(ty)),
                );
            }
        }
        VectorKind::State { class, index, .. } => {
            let declared = match class {
                0 => {
                    u32::from(index) < crate::limits::PREDEFINED_SURFACES + r.surfaces.len() as u32
                }
                1 => {
                    usize::from(index) < r.samplers.len()
                        || index == u16::from(crate::isa::BINDLESS_SAMPLER)
                }
                _ => false,
            };
            if !declared {
                u.push(
                    out,
                    "VISA-OPND-014",
                    format!("state class {class} index {index} is not declared"),
                );
            }
        }
    }
}

fn type_name(ty: Type) -> String {
    ty.name()
        .map_or_else(|| format!("#{}", ty.0), str::to_uppercase)
}

/// Region parameters from their codes, reporting null or unencodable values;
/// `None` when any is unusable.
fn check_region_codes(
    u: &Use,
    region: Region,
    multi_address: bool,
    out: &mut Findings,
) -> Option<RegionParams> {
    let hstride = region.hstride();
    if hstride.is_none() {
        u.push(out, "VISA-OPND-003", "horizontal stride is null".into());
    }
    if u.role == Role::Destination {
        return hstride.map(|h| RegionParams::dst(u32::from(h)));
    }
    let width = region.width();
    if width.is_none() {
        u.push(out, "VISA-OPND-001", "width is null".into());
    }
    let vstride = region.vstride();
    if vstride.is_none() && !multi_address {
        u.push(
            out,
            "VISA-OPND-002",
            "vertical stride is null outside a multi-address indirect source".into(),
        );
        return None;
    }
    Some(RegionParams {
        vstride: vstride.map(u32::from),
        width: u32::from(width?),
        hstride: u32::from(hstride?),
    })
}

/// Applies the region rules for the operand's exec size and enumerates its elements;
/// `None` for a scalar operand or a region that breaks a rule.
fn enumerate(
    u: &Use,
    origin: i64,
    elem: u32,
    params: RegionParams,
    out: &mut Findings,
) -> Option<Vec<semantics::Element>> {
    // A scalar operand's region is ignored: the spec hard-codes it to <0;1,0>.
    if u.role == Role::Scalar {
        return None;
    }
    let exec_size = u.exec_size?;
    let errors = semantics::check_region(exec_size, params, u.role == Role::Destination);
    if !errors.is_empty() {
        for e in errors {
            let rule = match e {
                RegionError::Width(_) => "VISA-OPND-001",
                RegionError::VertStride(_) => "VISA-OPND-002",
                RegionError::HorzStride(_) => "VISA-OPND-003",
                RegionError::WidthAboveExecSize { .. } => "VISA-OPND-004",
                RegionError::DstHorzStrideZero => "VISA-OPND-005",
                // The exec size is judged once per instruction.
                _ => continue,
            };
            u.push(out, rule, e.to_string());
        }
        return None;
    }
    let elements = if u.role == Role::Destination {
        semantics::destination_elements(origin, elem, u.cx.grf_size, exec_size, params.hstride)
    } else {
        semantics::source_elements(origin, elem, u.cx.grf_size, exec_size, params)
    };
    elements.ok()
}

fn check_modifier(u: &Use, v: &Vector, out: &mut Findings) {
    let m = v.modifier;
    if m == Modifier::NONE {
        return;
    }
    if !matches!(
        v.kind,
        VectorKind::General { .. } | VectorKind::Indirect { .. }
    ) {
        u.push(
            out,
            "VISA-OPND-011",
            format!(
                "modifier {} on an operand of class {}",
                m.0,
                v.kind.class_code()
            ),
        );
        return;
    }
    if m.0 > Modifier::NOT.0 {
        u.push(
            out,
            "VISA-OPND-011",
            format!("modifier code {} is reserved", m.0),
        );
        return;
    }
    let rule = MODIFIERS.iter().find(|r| r.opcode == u.opcode.0);
    let allowed = match m {
        Modifier::SAT => match rule.map(|r| r.saturation) {
            Some(Some(false)) => false,
            _ => u.role == Role::Destination,
        },
        Modifier::NOT => match rule {
            Some(r) => r.source == SourceModifiers::Logic,
            None => matches!(
                u.opcode,
                Opcode::AND | Opcode::OR | Opcode::XOR | Opcode::NOT
            ),
        },
        _ => match rule {
            Some(r) => r.source == SourceModifiers::Arithmetic,
            None => {
                let class = u.opcode.info().map(|i| i.class);
                matches!(
                    class,
                    Some(
                        Class::Arith | Class::Mov | Class::Logic | Class::Compare | Class::Address
                    )
                )
            }
        },
    };
    if !allowed {
        let name = match m {
            Modifier::ABS => "(abs)",
            Modifier::NEG => "-",
            Modifier::NEG_ABS => "-(abs)",
            Modifier::SAT => ".sat",
            _ => "~",
        };
        u.push(
            out,
            "VISA-OPND-012",
            format!(
                "modifier {name} is not allowed here in {}",
                u.opcode.mnemonic()
            ),
        );
    }
}

/// A raw operand: declared, within its variable.
pub(super) fn check_raw(u: &Use, raw: &Raw, out: &mut Findings) {
    if raw.id == 0 {
        return;
    }
    let Some(decl) = u.cx.var(raw.id) else {
        let (rule, what) = if raw.id < crate::limits::PREDEFINED_VARS {
            ("VISA-OPND-015", "a reserved predefined variable")
        } else {
            ("VISA-OPND-014", "not declared")
        };
        u.push(out, rule, format!("V{} is {what}", raw.id));
        return;
    };
    if u.field == "dst" && PREDEFINED_READ_ONLY.contains(&raw.id) {
        u.push(
            out,
            "VISA-OPND-022",
            format!("V{} is a read-only predefined variable", raw.id),
        );
    }
    // Only the offset is judged: a variable smaller than a GRF is placed by the JIT,
    // which aligns message operands itself (IGC checks the offset alone, too).
    if let Some((root, base)) = resolve_alias(u.cx.routine, u.cx.version, raw.id) {
        let total = base + u32::from(raw.offset);
        if total % u.cx.grf_size != 0 {
            u.push(
                out,
                "VISA-OPND-021",
                format!(
                    "V{}.{} starts {total} bytes into V{root}, not on a {}-byte GRF boundary",
                    raw.id, raw.offset, u.cx.grf_size
                ),
            );
        }
    }
    if let Some(size) = decl.byte_size() {
        if u32::from(raw.offset) >= size {
            u.push(
                out,
                "VISA-OPND-020",
                format!("offset {} is past V{}'s {size} bytes", raw.offset, raw.id),
            );
        }
    }
}
