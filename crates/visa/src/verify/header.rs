//! Header and table limits (spec `4_visa_header.md`).

use super::{Cx, Findings, Place};
use crate::model::{Code, Interface, Object};

const MAX_KERNELS: usize = crate::limits::MAX_KERNELS;
const MAX_INPUTS: usize = 256;
const MAX_VARIABLE_NAME: usize = 64;
const MAX_LABEL_NAME: usize = 1024;
const MAX_ROUTINE_NAME: usize = 1023;
const MAX_ATTRIBUTE_NAME: usize = 64;

pub(super) fn check_object(object: &Object, out: &mut Findings) {
    if object.kernels.len() > MAX_KERNELS {
        out.push(
            "VISA-HDR-001",
            Place::Header,
            format!(
                "{} kernels; at most {MAX_KERNELS} allowed",
                object.kernels.len()
            ),
        );
    }
    for (i, v) in object.filescope_vars.iter().enumerate() {
        let place = Place::Declaration {
            routine: None,
            table: "filescope_variables",
            index: i,
        };
        if !(1..=1024).contains(&v.num_elements) || v.linkage > 2 || v.name.is_empty() {
            out.push(
                "VISA-HDR-009",
                place,
                format!(
                    "file-scope variable with {} elements, linkage {}, name of {} bytes",
                    v.num_elements,
                    v.linkage,
                    v.name.len()
                ),
            );
        }
    }
}

pub(super) fn check_routine(cx: &Cx, out: &mut Findings) {
    let r = cx.routine;
    let here = Place::Routine { routine: cx.rref };
    let name = match cx.rref {
        super::RoutineRef::Kernel(i) => cx.object.kernels.get(i).map(|k| &k.name),
        super::RoutineRef::Function(i) => cx.object.functions.get(i).map(|f| &f.name),
    };
    if let Some(name) = name {
        if name.is_empty() || name.len() > 65535 {
            out.push(
                "VISA-HDR-002",
                here.clone(),
                format!("name of {} bytes; 1 to 65535 allowed", name.len()),
            );
        }
    }
    if r.strings.is_empty() || r.strings.len() > crate::limits::MAX_STRINGS {
        out.push(
            "VISA-HDR-003",
            here.clone(),
            format!("{} strings; 1 to 131072 allowed", r.strings.len()),
        );
    }
    let mut name_ref = |place: Place, what: &str, index: u32, max: usize| match r.string(index) {
        None => out.push(
            "VISA-HDR-004",
            place,
            format!(
                "{what} name index {index} is outside the string pool of {}",
                r.strings.len()
            ),
        ),
        Some(s) if s.len() > max => out.push(
            "VISA-HDR-005",
            place,
            format!("{what} name of {} bytes; at most {max} allowed", s.len()),
        ),
        Some(_) => {}
    };
    name_ref(here.clone(), "routine", r.name_index, MAX_ROUTINE_NAME);
    for (i, v) in r.variables.iter().enumerate() {
        name_ref(
            cx.decl("variables", i),
            "variable",
            v.name_index,
            MAX_VARIABLE_NAME,
        );
    }
    for (i, v) in r.addresses.iter().enumerate() {
        name_ref(
            cx.decl("addresses", i),
            "address",
            v.name_index,
            MAX_VARIABLE_NAME,
        );
    }
    for (i, v) in r.predicates.iter().enumerate() {
        name_ref(
            cx.decl("predicates", i),
            "predicate",
            v.name_index,
            MAX_VARIABLE_NAME,
        );
    }
    for (i, v) in r.labels.iter().enumerate() {
        name_ref(cx.decl("labels", i), "label", v.name_index, MAX_LABEL_NAME);
    }
    for (table, states) in [
        ("samplers", &r.samplers),
        ("surfaces", &r.surfaces),
        ("vmes", &r.vmes),
    ] {
        for (i, v) in states.iter().enumerate() {
            name_ref(cx.decl(table, i), "state", v.name_index, MAX_VARIABLE_NAME);
        }
    }
    let attribute_lists = std::iter::once(("attributes", 0usize, &r.attributes))
        .chain(
            r.variables
                .iter()
                .enumerate()
                .map(|(i, v)| ("variables", i, &v.attributes)),
        )
        .chain(
            r.addresses
                .iter()
                .enumerate()
                .map(|(i, v)| ("addresses", i, &v.attributes)),
        )
        .chain(
            r.predicates
                .iter()
                .enumerate()
                .map(|(i, v)| ("predicates", i, &v.attributes)),
        )
        .chain(
            r.labels
                .iter()
                .enumerate()
                .map(|(i, v)| ("labels", i, &v.attributes)),
        )
        .chain(
            r.samplers
                .iter()
                .enumerate()
                .map(|(i, v)| ("samplers", i, &v.attributes)),
        )
        .chain(
            r.surfaces
                .iter()
                .enumerate()
                .map(|(i, v)| ("surfaces", i, &v.attributes)),
        );
    for (table, index, attributes) in attribute_lists {
        for a in attributes {
            let place = if table == "attributes" {
                here.clone()
            } else {
                cx.decl(table, index)
            };
            match r.string(a.name_index) {
                None => out.push(
                    "VISA-HDR-004",
                    place,
                    format!(
                        "attribute name index {} is outside the string pool of {}",
                        a.name_index,
                        r.strings.len()
                    ),
                ),
                Some(s)
                    if s.len() > MAX_ATTRIBUTE_NAME
                        || !s.iter().all(|b| b.is_ascii_graphic() || *b == b' ') =>
                {
                    out.push(
                        "VISA-HDR-005",
                        place,
                        format!(
                            "attribute name {:?} is longer than {MAX_ATTRIBUTE_NAME} bytes or not printable ASCII",
                            String::from_utf8_lossy(s)
                        ),
                    )
                }
                Some(_) => {}
            }
        }
    }
    match &r.interface {
        Interface::Kernel { inputs } if inputs.len() > MAX_INPUTS => out.push(
            "VISA-HDR-006",
            here.clone(),
            format!("{} inputs; at most {MAX_INPUTS} allowed", inputs.len()),
        ),
        Interface::Function {
            input_size,
            return_value_size,
        } if *input_size > 32 || *return_value_size > 12 => out.push(
            "VISA-HDR-007",
            here.clone(),
            format!(
                "input size {input_size} GRFs (0-32 allowed), return value size {return_value_size} GRFs (0-12 allowed)"
            ),
        ),
        _ => {}
    }
    if let Code::Undecoded { error, .. } = &r.code {
        let defect = match &error.defect {
            Some(d) => format!(
                "; matches the IGC 1.0.12198-13063 operand-truncation defect ({} instructions recoverable)",
                d.instructions_recovered
            ),
            None => String::new(),
        };
        out.push(
            "VISA-HDR-008",
            here,
            format!(
                "instruction stream does not decode at instruction {} (offset {:#x}): {}{defect}",
                error.index, error.offset, error.cause
            ),
        );
    }
}
