//! Platform-dependent rules (spec `appendix_instruction_by_platform.md` and the
//! platform-gated types of the instruction specs), checked only when asked for.

use super::{operands, Cx, Findings};
use crate::isa::rules::{AVAILABILITY, OPERAND_TYPES};
use crate::isa::{Opcode, Type};
use crate::model::{Code, Operand};

/// A target platform, oldest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Platform {
    Skl,
    Icllp,
    Tgllp,
    Dg2,
    Mtl,
    Pvc,
}

impl Platform {
    pub const ALL: [Platform; 6] = [
        Platform::Skl,
        Platform::Icllp,
        Platform::Tgllp,
        Platform::Dg2,
        Platform::Mtl,
        Platform::Pvc,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Platform::Skl => "skl",
            Platform::Icllp => "icllp",
            Platform::Tgllp => "tgllp",
            Platform::Dg2 => "dg2",
            Platform::Mtl => "mtl",
            Platform::Pvc => "pvc",
        }
    }
    pub fn from_name(name: &str) -> Option<Platform> {
        Platform::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(name))
    }
    /// From the platform code of an embedded Gen binary (IGC `PlatformInfo`).
    pub fn from_code(code: u8) -> Option<Platform> {
        Some(match code {
            5 => Platform::Skl,
            10 => Platform::Icllp,
            12 => Platform::Tgllp,
            13 => Platform::Dg2,
            14 | 15 => Platform::Pvc,
            _ => return None,
        })
    }
    /// From the platform name IGC 2.x writes in a text's build trailer.
    pub fn from_build_name(name: &str) -> Option<Platform> {
        Some(match name.trim() {
            "SKL" | "KBL" => Platform::Skl,
            "ICLLP" => Platform::Icllp,
            "TGLLP" => Platform::Tgllp,
            "DG2" => Platform::Dg2,
            "MTL" => Platform::Mtl,
            "PVC" | "PVCXT" => Platform::Pvc,
            _ => return None,
        })
    }
    /// GRF size in bytes: 64 on Xe-HPC, 32 before.
    pub fn grf_size(self) -> u32 {
        match self {
            Platform::Pvc => 64,
            _ => 32,
        }
    }
    /// The appendix column, for the platforms it has.
    fn availability_column(self) -> Option<usize> {
        match self {
            Platform::Skl => Some(0),
            Platform::Icllp => Some(1),
            Platform::Tgllp => Some(2),
            _ => None,
        }
    }
    /// Whether a `{GATE+}` marker of the specs admits this platform.
    fn passes_gate(self, gate: &str) -> bool {
        match gate.trim_end_matches('+') {
            "XEHP" => self >= Platform::Dg2,
            "PVC" | "PVC_XT" => self >= Platform::Pvc,
            _ => false,
        }
    }
}

pub(super) fn check(cx: &Cx, platform: Platform, out: &mut Findings) {
    let Code::Instructions(code) = &cx.routine.code else {
        return;
    };
    let mut walk = code.walk();
    while let Some((index, inst)) = walk.next_instruction() {
        if let Some(column) = platform.availability_column() {
            if let Some((_, row)) = AVAILABILITY.iter().find(|(c, _)| *c == inst.opcode.0) {
                if !row[column] {
                    out.push(
                        "VISA-PLAT-001",
                        cx.inst(index, None),
                        format!(
                            "{} is not available on {}",
                            inst.mnemonic(),
                            platform.name()
                        ),
                    );
                }
            }
        }
        // OWORD_LD/ST: "T0 (SLM): {ICLLP+} Yes. No for earlier platforms".
        let oword = matches!(
            inst.opcode,
            Opcode::OWORD_LD | Opcode::OWORD_LD_UNALIGNED | Opcode::OWORD_ST
        );
        if oword && platform < Platform::Icllp {
            if let Some(Operand::Int(0)) = inst.operand("surface") {
                out.push(
                    "VISA-PLAT-003",
                    cx.inst(index, Some("surface")),
                    format!("{} on T0 (SLM) needs ICLLP or later", inst.mnemonic()),
                );
            }
        }
        let Some(rule) = OPERAND_TYPES.iter().find(|t| t.opcode == inst.opcode.0) else {
            continue;
        };
        let Some(fields) = inst.fields() else {
            continue;
        };
        for (field, operand) in fields.iter().zip(inst.operands) {
            let Operand::Vector(v) = operand else {
                continue;
            };
            let Some(ty) = operands::vector_type(cx, v) else {
                continue;
            };
            if rule.types.contains(&ty) || ty == Type::V || ty == Type::UV || ty == Type::VF {
                continue;
            }
            if let Some((gate, _)) = rule.gated.iter().find(|(_, types)| types.contains(&ty)) {
                if !platform.passes_gate(gate) {
                    out.push(
                        "VISA-PLAT-002",
                        cx.inst(index, Some(field.name)),
                        format!(
                            "type {} in {} needs {} or later, not {}",
                            ty.name().unwrap_or("?").to_uppercase(),
                            inst.mnemonic(),
                            gate.trim_end_matches('+'),
                            platform.name()
                        ),
                    );
                }
            }
        }
    }
}
