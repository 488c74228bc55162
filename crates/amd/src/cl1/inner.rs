//! The per-kernel inner ELF of a CL1 binary: the CAL encoding table (program
//! header type 0x70000002), the "ATI CAL" notes each encoding points at, and
//! the `.text`/`.data` sections with the machine code and its data.

use crate::elf::{ElfError, ElfView};
use crate::limits;

/// Program header type of the CAL encoding dictionary.
pub const PT_CAL_ENCODING: u32 = 0x7000_0002;
/// Size of one encoding entry: machine, type, offset, size, flags (u32 each).
pub const ENCODING_ENTRY_SIZE: usize = 20;
const NOTE_NAME: &[u8; 8] = b"ATI CAL\0";

/// One row of the CAL encoding table: where the notes and code for one target live.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CalEncoding {
    pub machine: u32,
    pub kind: u32,
    pub offset: u32,
    pub size: u32,
    pub flags: u32,
}

/// ATI CAL note types (names as in AMD's CAL headers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum CalNoteKind {
    ProgInfo,
    Inputs,
    Outputs,
    CondOut,
    Float32Consts,
    Int32Consts,
    Bool32Consts,
    EarlyExit,
    GlobalBuffers,
    ConstantBuffers,
    InputSamplers,
    PersistentBuffers,
    ScratchBuffers,
    SubConstantBuffers,
    UavMailboxSize,
    Uav,
    UavOpMask,
    Unknown(u32),
}

impl CalNoteKind {
    pub fn from_u32(v: u32) -> Self {
        use CalNoteKind::*;
        match v {
            1 => ProgInfo,
            2 => Inputs,
            3 => Outputs,
            4 => CondOut,
            5 => Float32Consts,
            6 => Int32Consts,
            7 => Bool32Consts,
            8 => EarlyExit,
            9 => GlobalBuffers,
            10 => ConstantBuffers,
            11 => InputSamplers,
            12 => PersistentBuffers,
            13 => ScratchBuffers,
            14 => SubConstantBuffers,
            15 => UavMailboxSize,
            16 => Uav,
            17 => UavOpMask,
            other => Unknown(other),
        }
    }

    pub fn name(self) -> String {
        use CalNoteKind::*;
        match self {
            ProgInfo => "ATI_PROGINFO".into(),
            Inputs => "ATI_INPUTS".into(),
            Outputs => "ATI_OUTPUTS".into(),
            CondOut => "ATI_CONDOUT".into(),
            Float32Consts => "ATI_FLOAT32CONSTS".into(),
            Int32Consts => "ATI_INT32CONSTS".into(),
            Bool32Consts => "ATI_BOOL32CONSTS".into(),
            EarlyExit => "ATI_EARLYEXIT".into(),
            GlobalBuffers => "ATI_GLOBAL_BUFFERS".into(),
            ConstantBuffers => "ATI_CONSTANT_BUFFERS".into(),
            InputSamplers => "ATI_INPUT_SAMPLERS".into(),
            PersistentBuffers => "ATI_PERSISTENT_BUFFERS".into(),
            ScratchBuffers => "ATI_SCRATCH_BUFFERS".into(),
            SubConstantBuffers => "ATI_SUB_CONSTANT_BUFFERS".into(),
            UavMailboxSize => "ATI_UAV_MAILBOX_SIZE".into(),
            Uav => "ATI_UAV".into(),
            UavOpMask => "ATI_UAV_OP_MASK".into(),
            Unknown(v) => format!("type {v}"),
        }
    }
}

#[derive(Debug, Clone)]
pub struct CalNote<'a> {
    pub kind: CalNoteKind,
    /// Offset of the note header inside the inner ELF.
    pub offset: usize,
    pub desc: &'a [u8],
}

/// One (address, value) pair of the PROGINFO note.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct ProgInfoEntry {
    pub address: u32,
    pub value: u32,
}

/// Register and resource facts read from PROGINFO.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ProgInfoSummary {
    pub vgprs: Option<u32>,
    pub sgprs: Option<u32>,
    pub pgm_rsrc2: Option<u32>,
    /// Required work-group size (0x8000001c..1e), when all three are present.
    pub reqd_work_group_size: Option<[u32; 3]>,
    /// User-data entries (0x80001000+ count, then 4 dwords each).
    pub user_data_count: Option<u32>,
}

pub const PROGINFO_VGPRS: u32 = 0x8000_1041;
pub const PROGINFO_SGPRS: u32 = 0x8000_1042;
pub const PROGINFO_PGM_RSRC2: u32 = 0x0000_2e13;
pub const PROGINFO_USER_DATA_COUNT: u32 = 0x8000_1000;
pub const PROGINFO_REQD_WG: [u32; 3] = [0x8000_001c, 0x8000_001d, 0x8000_001e];

#[derive(Debug, Clone)]
pub struct InnerBinary<'a> {
    pub elf: ElfView<'a>,
    pub encodings: Vec<CalEncoding>,
    /// Notes of each encoding, index-aligned with `encodings`.
    pub notes: Vec<Vec<CalNote<'a>>>,
    pub text: &'a [u8],
    pub data: &'a [u8],
}

impl<'a> InnerBinary<'a> {
    pub fn parse(bytes: &'a [u8], kernel: &str) -> Result<Self, ElfError> {
        Self::parse_at(bytes, kernel, None)
    }

    /// As [`InnerBinary::parse`]; `file_offset` (where the inner ELF starts in
    /// the outer file) goes into error messages.
    pub fn parse_at(
        bytes: &'a [u8],
        kernel: &str,
        file_offset: Option<u64>,
    ) -> Result<Self, ElfError> {
        let what = match file_offset {
            Some(off) => format!("inner ELF of kernel `{kernel}` (at file offset {off:#x})"),
            None => format!("inner ELF of kernel `{kernel}`"),
        };
        let elf = ElfView::parse(bytes, &what)?;
        let err = |structure: &'static str, message: String| ElfError {
            what: what.clone(),
            structure,
            message,
        };
        let table = elf
            .segments
            .iter()
            .find(|s| s.kind == PT_CAL_ENCODING)
            .ok_or_else(|| {
                err(
                    "program headers",
                    "no CAL encoding table (program header type 0x70000002)".into(),
                )
            })?;
        if table.data.len() % ENCODING_ENTRY_SIZE != 0 {
            return Err(err(
                "CAL encoding table",
                format!(
                    "size {} at offset {:#x} is not a multiple of the {ENCODING_ENTRY_SIZE}-byte entry",
                    table.data.len(),
                    table.offset
                ),
            ));
        }
        let count = table.data.len() / ENCODING_ENTRY_SIZE;
        if count > limits::MAX_ENCODINGS {
            return Err(err(
                "CAL encoding table",
                format!(
                    "{count} entries, more than the limit of {}",
                    limits::MAX_ENCODINGS
                ),
            ));
        }
        let mut encodings = Vec::with_capacity(count);
        let mut notes = Vec::with_capacity(count);
        for chunk in table.data.chunks_exact(ENCODING_ENTRY_SIZE) {
            let enc = CalEncoding {
                machine: le32(chunk, 0),
                kind: le32(chunk, 4),
                offset: le32(chunk, 8),
                size: le32(chunk, 12),
                flags: le32(chunk, 16),
            };
            let end = u64::from(enc.offset) + u64::from(enc.size);
            if end > bytes.len() as u64 {
                return Err(err(
                    "CAL encoding table",
                    format!(
                        "entry {} (machine {:#x}) covers bytes {:#x}..{end:#x}, beyond the {:#x}-byte inner ELF",
                        encodings.len(),
                        enc.machine,
                        enc.offset,
                        bytes.len()
                    ),
                ));
            }
            notes.push(read_notes(&elf, &enc, &what)?);
            encodings.push(enc);
        }
        let text = elf.section_by_name(".text").map(|s| s.data).unwrap_or(&[]);
        let data = elf.section_by_name(".data").map(|s| s.data).unwrap_or(&[]);
        Ok(InnerBinary {
            elf,
            encodings,
            notes,
            text,
            data,
        })
    }

    /// Notes of the first encoding (CL1 binaries carry exactly one).
    pub fn first_notes(&self) -> &[CalNote<'a>] {
        self.notes.first().map(Vec::as_slice).unwrap_or(&[])
    }

    pub fn proginfo(&self) -> Vec<ProgInfoEntry> {
        self.first_notes()
            .iter()
            .filter(|n| n.kind == CalNoteKind::ProgInfo)
            .flat_map(|n| {
                n.desc.chunks_exact(8).map(|c| ProgInfoEntry {
                    address: le32(c, 0),
                    value: le32(c, 4),
                })
            })
            .collect()
    }

    /// UAV ids listed in the ATI_UAV note (16-byte entries: id, f1, f2, type).
    /// Every `uav` pointer of the metadata names one of them.
    pub fn uav_ids(&self) -> Vec<u32> {
        self.first_notes()
            .iter()
            .filter(|n| n.kind == CalNoteKind::Uav)
            .flat_map(|n| n.desc.chunks_exact(16).map(|c| le32(c, 0)))
            .collect()
    }

    pub fn proginfo_summary(&self) -> ProgInfoSummary {
        let entries = self.proginfo();
        let get = |addr: u32| entries.iter().find(|e| e.address == addr).map(|e| e.value);
        let wg = PROGINFO_REQD_WG.map(get);
        ProgInfoSummary {
            vgprs: get(PROGINFO_VGPRS),
            sgprs: get(PROGINFO_SGPRS),
            pgm_rsrc2: get(PROGINFO_PGM_RSRC2),
            reqd_work_group_size: match wg {
                [Some(x), Some(y), Some(z)] => Some([x, y, z]),
                _ => None,
            },
            user_data_count: get(PROGINFO_USER_DATA_COUNT),
        }
    }
}

/// The notes sit in the PT_NOTE segment that starts at the encoding's offset;
/// they are packed back to back with 4-byte aligned sizes.
fn read_notes<'a>(
    elf: &ElfView<'a>,
    enc: &CalEncoding,
    what: &str,
) -> Result<Vec<CalNote<'a>>, ElfError> {
    let err = |message: String| ElfError {
        what: what.to_owned(),
        structure: "ATI CAL notes",
        message,
    };
    let Some(seg) = elf
        .segments
        .iter()
        .find(|s| s.kind == object::elf::PT_NOTE && s.offset == u64::from(enc.offset))
    else {
        // An encoding without a note segment at its offset: tolerate, but with no notes.
        return Ok(Vec::new());
    };
    let base = seg.offset as usize;
    let data = seg.data;
    let mut pos = 0usize;
    let mut out = Vec::new();
    while pos < data.len() {
        if out.len() >= limits::MAX_CAL_NOTES {
            return Err(err(format!("more than {} notes", limits::MAX_CAL_NOTES)));
        }
        if data.len() - pos < 12 {
            return Err(err(format!(
                "note header at offset {:#x} needs 12 bytes, {} remain in the note segment",
                base + pos,
                data.len() - pos
            )));
        }
        let namesz = le32(&data[pos..], 0) as usize;
        let descsz = le32(&data[pos..], 4) as usize;
        let kind = le32(&data[pos..], 8);
        let name_start = pos + 12;
        let name_end = name_start
            .checked_add(align4(namesz))
            .filter(|&e| e <= data.len());
        let Some(name_end) = name_end else {
            return Err(err(format!(
                "note at offset {:#x}: name size {namesz} runs past the segment",
                base + pos
            )));
        };
        if namesz != 8 || data[name_start..name_start + 8] != NOTE_NAME[..] {
            return Err(err(format!(
                "note at offset {:#x}: name is {:?}, expected \"ATI CAL\"",
                base + pos,
                String::from_utf8_lossy(&data[name_start..name_start + namesz])
            )));
        }
        let desc_end = name_end.checked_add(descsz).filter(|&e| e <= data.len());
        let Some(desc_end) = desc_end else {
            return Err(err(format!(
                "note at offset {:#x} (type {kind}): descriptor size {descsz} runs past the segment end at {:#x}",
                base + pos,
                base + data.len()
            )));
        };
        out.push(CalNote {
            kind: CalNoteKind::from_u32(kind),
            offset: base + pos,
            desc: &data[name_end..desc_end],
        });
        pos = align4(desc_end).min(data.len().max(desc_end));
    }
    Ok(out)
}

fn align4(v: usize) -> usize {
    v.saturating_add(3) & !3
}

pub(crate) fn le32(b: &[u8], at: usize) -> u32 {
    match b.get(at..at + 4) {
        Some(s) => u32::from_le_bytes([s[0], s[1], s[2], s[3]]),
        None => 0,
    }
}
