//! Where findings sit in a `.visaasm` text: a line map built from the text the object
//! was parsed from, in the parser's own line grammar (one instruction, label or
//! `.file`/`.loc` per line; one `.decl` or input per line). The map is used only for
//! a routine whose counts agree with the object, so a position is never a guess.

use super::{Finding, Place, RoutineRef, Source};
use crate::model::Object;

#[derive(Clone, Debug, Default)]
struct RoutineLines {
    header: (u32, u32),
    instructions: Vec<(u32, u32)>,
    inputs: Vec<(u32, u32)>,
    variables: Vec<(u32, u32)>,
    addresses: Vec<(u32, u32)>,
    predicates: Vec<(u32, u32)>,
    samplers: Vec<(u32, u32)>,
    surfaces: Vec<(u32, u32)>,
}

/// Line and column (1-based) of each part of each routine of a text.
#[derive(Clone, Debug, Default)]
pub struct TextMap {
    kernels: Vec<RoutineLines>,
    functions: Vec<RoutineLines>,
}

fn strip_comment(line: &str) -> &str {
    let mut in_string = false;
    let bytes = line.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        match b {
            b'"' => in_string = !in_string,
            b'/' if !in_string && bytes.get(i + 1) == Some(&b'/') => return &line[..i],
            _ => {}
        }
    }
    line
}

impl TextMap {
    pub fn build(src: &str) -> TextMap {
        let mut map = TextMap::default();
        // Which routine the lines belong to: (is_kernel, index).
        let mut current: Option<(bool, usize)> = None;
        for (i, raw) in src.split('\n').enumerate() {
            let line = strip_comment(raw.trim_end_matches('\r'));
            let trimmed = line.trim_start();
            if trimmed.trim_end().is_empty() {
                continue;
            }
            let at = ((i + 1) as u32, (line.len() - trimmed.len() + 1) as u32);
            let word = trimmed
                .strip_prefix('.')
                .filter(|_| !trimmed.starts_with(".sat"))
                .map(|d| d.split(|c: char| c.is_whitespace()).next().unwrap_or(""));
            if let Some(directive) = word {
                if directive == "kernel" || directive == "global_function" {
                    let is_kernel = directive == "kernel";
                    let list = if is_kernel {
                        &mut map.kernels
                    } else {
                        &mut map.functions
                    };
                    list.push(RoutineLines {
                        header: at,
                        ..RoutineLines::default()
                    });
                    current = Some((is_kernel, list.len() - 1));
                    continue;
                }
            }
            let Some(routine) = (match current {
                Some((true, k)) => map.kernels.get_mut(k),
                Some((false, f)) => map.functions.get_mut(f),
                None => None,
            }) else {
                continue;
            };
            match word {
                Some("file" | "loc") => routine.instructions.push(at),
                Some("input" | "parameter") => routine.inputs.push(at),
                Some(d) if d.starts_with("implicit_") => routine.inputs.push(at),
                Some("decl") => {
                    let kind = trimmed
                        .split_whitespace()
                        .find_map(|t| t.strip_prefix("v_type="))
                        .unwrap_or("");
                    match kind {
                        "G" => routine.variables.push(at),
                        "A" => routine.addresses.push(at),
                        "P" => routine.predicates.push(at),
                        "S" => routine.samplers.push(at),
                        "T" => routine.surfaces.push(at),
                        _ => {}
                    }
                }
                Some(_) => {}
                None => routine.instructions.push(at),
            }
        }
        map
    }

    /// Whether every routine's instructions, inputs and declarations line up with the
    /// object, so every finding gets a position.
    pub fn agrees_with(&self, object: &Object) -> bool {
        let routines = object
            .kernels
            .iter()
            .map(|k| &k.body)
            .zip(&self.kernels)
            .chain(
                object
                    .functions
                    .iter()
                    .map(|f| &f.body)
                    .zip(&self.functions),
            );
        self.kernels.len() == object.kernels.len()
            && self.functions.len() == object.functions.len()
            && routines.into_iter().all(|(body, l)| {
                l.instructions.len() == body.code.instructions_or_empty().len()
                    && l.inputs.len() == body.inputs().len()
                    && l.variables.len() == body.variables.len()
                    && l.addresses.len() == body.addresses.len()
                    && l.predicates.len() == body.predicates.len()
            })
    }

    /// Fills in the text position of every finding the map can place.
    pub fn attach(&self, object: &Object, findings: &mut [Finding]) {
        for f in findings {
            if let Some((line, col)) = self.position(object, &f.location.place) {
                f.location.source = Some(Source::Text { line, col });
            }
        }
    }

    fn position(&self, object: &Object, place: &Place) -> Option<(u32, u32)> {
        let lines = |r: &RoutineRef| match r {
            RoutineRef::Kernel(i) => self
                .kernels
                .get(*i)
                .zip(object.kernels.get(*i).map(|k| &k.body)),
            RoutineRef::Function(i) => self
                .functions
                .get(*i)
                .zip(object.functions.get(*i).map(|f| &f.body)),
        };
        // A table's positions count only when the text declares exactly its entries.
        let pick = |table: &[(u32, u32)], len: usize, index: usize| {
            (table.len() == len)
                .then(|| table.get(index).copied())
                .flatten()
        };
        match place {
            Place::Header => None,
            Place::Routine { routine } => lines(routine).map(|(l, _)| l.header),
            Place::Declaration {
                routine: Some(r),
                table,
                index,
            } => {
                let (l, body) = lines(r)?;
                match *table {
                    "variables" => pick(&l.variables, body.variables.len(), *index),
                    "addresses" => pick(&l.addresses, body.addresses.len(), *index),
                    "predicates" => pick(&l.predicates, body.predicates.len(), *index),
                    "samplers" => pick(&l.samplers, body.samplers.len(), *index),
                    "surfaces" => pick(&l.surfaces, body.surfaces.len(), *index),
                    _ => Some(l.header),
                }
            }
            Place::Declaration { routine: None, .. } => None,
            Place::Input { routine, index } => {
                let (l, body) = lines(routine)?;
                pick(&l.inputs, body.inputs().len(), *index)
            }
            Place::Instruction { routine, index, .. } => {
                let (l, body) = lines(routine)?;
                let count = body.code.instructions_or_empty().len();
                pick(&l.instructions, count, *index)
            }
        }
    }
}
