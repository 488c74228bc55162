//! Channel enables (spec `5_operands.md`, "Predication", `EvaluateChEn`).

use std::fmt;

/// An instruction's mask control: `M1`..`M8` select which quarter-of-eight of the
/// execution and predicate masks channel 0 reads; `no_mask` ignores the execution mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MaskControl {
    /// 0 for M1 .. 7 for M8.
    pub group: u8,
    pub no_mask: bool,
}

impl MaskControl {
    /// From the emask code of the execution-control byte (0-7 M1..M8, 8-15 M1_NM..M8_NM).
    pub fn from_code(code: u8) -> Option<Self> {
        (code < 16).then_some(MaskControl {
            group: code & 7,
            no_mask: code >= 8,
        })
    }
    /// The spec's `mask_control_offset`: `{M3}` reads from bit 8.
    pub fn offset(self) -> u32 {
        u32::from(self.group) * 4
    }
    pub fn name(self) -> String {
        format!(
            "M{}{}",
            self.group + 1,
            if self.no_mask { "_NM" } else { "" }
        )
    }
}

/// The dispatch's execution mask: bit `n` enables channel `n` of the thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ExecMask(pub u32);

/// How a predicate's bits combine across channels (bits 13-14 of the predicate field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum PredControl {
    Sequential,
    Any,
    All,
}

/// A predicate as it applies to one instruction: its value (bit `n` = element `n` of
/// the predicate variable), combine mode and inversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Predication {
    pub bits: u32,
    pub control: PredControl,
    pub inverse: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum MaskError {
    ExecSize(u32),
    /// Channel `exec_size - 1` would read bit `offset + exec_size - 1`, past bit 31.
    BeyondMask {
        offset: u32,
        exec_size: u32,
    },
}

impl fmt::Display for MaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MaskError::ExecSize(e) => write!(f, "exec size {e} is not one of 1, 2, 4, 8, 16, 32"),
            MaskError::BeyondMask { offset, exec_size } => write!(
                f,
                "mask offset {offset} + exec size {exec_size} exceeds the 32 channels of the mask"
            ),
        }
    }
}

/// The 32-bit channel-enable mask `ChEn` of `EvaluateChEn`: bit `n` set when channel
/// `n` executes. Bits at and above `exec_size` are always clear.
pub fn channel_enable(
    exec_size: u32,
    mask: MaskControl,
    exec_mask: ExecMask,
    predicate: Option<Predication>,
) -> Result<u32, MaskError> {
    if !super::EXEC_SIZES.contains(&exec_size) {
        return Err(MaskError::ExecSize(exec_size));
    }
    let offset = mask.offset();
    if offset + exec_size > 32 {
        return Err(MaskError::BeyondMask { offset, exec_size });
    }
    let channels = if exec_size == 32 {
        u32::MAX
    } else {
        (1u32 << exec_size) - 1
    };
    let mut enabled = if mask.no_mask {
        channels
    } else {
        (exec_mask.0 >> offset) & channels
    };
    if let Some(p) = predicate {
        let mut pmask = (p.bits >> offset) & channels;
        pmask = match p.control {
            PredControl::Sequential => pmask,
            PredControl::Any => {
                if pmask != 0 {
                    channels
                } else {
                    0
                }
            }
            PredControl::All => {
                if pmask == channels {
                    channels
                } else {
                    0
                }
            }
        };
        if p.inverse {
            pmask = !pmask;
        }
        enabled &= pmask;
    }
    Ok(enabled & channels)
}
