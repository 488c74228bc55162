//! Analyses over a routine's instruction stream: the control-flow graph and the
//! liveness of its variables (register pressure), for reports and tools.

pub mod allocation;
pub mod cfg;
pub mod liveness;

pub use cfg::{Block, Cfg};
pub use liveness::Liveness;

use crate::model::{InstRef, Operand, Region, VectorKind};

/// One general variable an instruction reads or writes, through a direct region or a
/// message's raw operand (indirect operands are not attributed to a variable).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariableAccess {
    /// The vISA variable id (predefined variables included).
    pub id: u32,
    /// Written (a `dst` or `carry` field) rather than read.
    pub def: bool,
    pub place: AccessPlace,
}

/// Where in the variable the access is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessPlace {
    /// A region at `(row, col)` read or written for `exec` channels.
    Region {
        row: u8,
        col: u8,
        region: Region,
        exec: u32,
    },
    /// A message's raw operand from byte `offset`; its length is the message's.
    Raw { offset: u16 },
}

/// The variables `inst` reads and writes, in field order.
pub fn variable_accesses(inst: InstRef<'_>) -> Vec<VariableAccess> {
    let mut out = Vec::new();
    let Some(fields) = inst.fields() else {
        return out;
    };
    let exec = inst.exec().and_then(|e| e.exec_size()).unwrap_or(1);
    for (field, op) in fields.iter().zip(inst.operands) {
        let def = matches!(field.name, "dst" | "carry");
        let raw = |r: &crate::model::Raw| VariableAccess {
            id: r.id,
            def,
            place: AccessPlace::Raw { offset: r.offset },
        };
        match op {
            Operand::Vector(v) => {
                if let VectorKind::General {
                    id,
                    row,
                    col,
                    region,
                } = v.kind
                {
                    out.push(VariableAccess {
                        id,
                        def,
                        place: AccessPlace::Region {
                            row,
                            col,
                            region,
                            exec,
                        },
                    });
                }
            }
            Operand::Raw(r) => out.push(raw(r)),
            Operand::RawList(list) => out.extend(list.iter().map(raw)),
            _ => {}
        }
    }
    out
}
