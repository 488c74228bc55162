//! The code of a CL2 binary. Drivers from 15.11 put an AMD HSA ELF64
//! (machine 0xe0) in the outer `.text`: `.hsatext` holds, per kernel
//! `&__OpenCL_<k>_kernel`, a 256-byte setup and the code (kernels start
//! 256-byte aligned); program data lives in `.hsadata_readonly_agent`
//! (constants and sampler slots), `.hsadata_global_agent` (atomics),
//! `.hsabss_global_agent`; `.hsaimage_samplerinit` holds 8 bytes per
//! sampler; `.rela.hsatext` and `.rela.hsadata_readonly_agent` relocate them.
//! Catalyst 15.7 instead puts per kernel `__ISA_&__OpenCL_<k>_kernel_binary`
//! in the outer `.text`: a stub whose first dword is the setup's offset,
//! then the setup and the code.

use super::setup::{KernelSetup, SETUP_SIZE};
use super::Cl2Error;
use crate::elf::{ElfView, Section};
use crate::limits;
use serde::Serialize;

/// One kernel's setup and code.
#[derive(Debug, Clone)]
pub struct KernelCode<'a> {
    pub name: String,
    pub setup_bytes: &'a [u8],
    pub setup: KernelSetup,
    pub code: &'a [u8],
    /// 15.7 only: the bytes before the setup.
    pub stub: Option<&'a [u8]>,
    /// Offset of the setup in `.hsatext` (new layout) or the outer `.text`.
    pub offset: u64,
}

/// One `Elf64_Rela` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Relocation<'a> {
    pub offset: u64,
    pub symbol: u32,
    /// 1 = low 32 bits of the address, 2 = high 32 bits, 4 = sampler.
    pub kind: u32,
    pub addend: i64,
    /// The symbol's name when the inner symbol table has it (borrowed from the
    /// string table: many relocations may name one long symbol).
    pub symbol_name: Option<&'a str>,
}

/// One note of the inner `.note` section (AMD's packing: name and
/// descriptor follow the header unpadded; only their sum is padded to 4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Note {
    pub kind: u32,
    pub name: String,
    pub offset: usize,
    pub desc: Vec<u8>,
}

/// The ISA version from the AMD note of type 3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct IsaVersion {
    pub major: u32,
    pub minor: u32,
    pub stepping: u32,
}

#[derive(Debug, Clone)]
pub struct InnerBinary<'a> {
    pub elf: ElfView<'a>,
    pub kernels: Vec<KernelCode<'a>>,
    pub readonly_data: &'a [u8],
    pub global_data: &'a [u8],
    /// Size and alignment of `.hsabss_global_agent`.
    pub bss: Option<(u64, u64)>,
    pub sampler_init: &'a [u8],
    pub text_relocations: Vec<Relocation<'a>>,
    pub data_relocations: Vec<Relocation<'a>>,
    pub notes: Vec<Note>,
}

pub const NOTE_ISA: u32 = 3;

impl<'a> InnerBinary<'a> {
    pub fn parse(bytes: &'a [u8]) -> Result<Self, Cl2Error> {
        let what = "inner ELF";
        let elf = ElfView::parse(bytes, what)?;
        let empty: &[u8] = &[];
        let data_of = |name: &str| elf.section_by_name(name).map_or(empty, |s| s.data);
        let mut kernels = Vec::new();
        if let Some(text) = elf.section_by_name(".hsatext") {
            for sym in &elf.symbols {
                let Some(name) = sym
                    .name
                    .strip_prefix("&__OpenCL_")
                    .and_then(|n| n.strip_suffix("_kernel"))
                    .filter(|n| !n.is_empty())
                else {
                    continue;
                };
                if sym.section != text.index {
                    continue;
                }
                if kernels.len() >= limits::MAX_KERNELS {
                    return Err(Cl2Error::Limit(format!(
                        "more than {} kernels",
                        limits::MAX_KERNELS
                    )));
                }
                let bytes = slice(text, sym.value, sym.size).ok_or_else(|| Cl2Error::Kernel {
                    kernel: name.to_owned(),
                    message: format!(
                        "inner ELF: symbol `{}` covers {:#x}..{:#x} of `.hsatext` (inner offset {:#x}), which has {:#x} bytes",
                        sym.name,
                        sym.value,
                        sym.value.saturating_add(sym.size),
                        text.offset,
                        text.data.len()
                    ),
                })?;
                kernels.push(split_setup(name, bytes, sym.value, false)?);
            }
        }
        let bss = elf
            .section_by_name(".hsabss_global_agent")
            .map(|s| (s.size, s.align));
        let symbol_name = |i: u32| elf.symbols.get(i as usize).map(|s| s.name);
        let relocations = |name: &str| -> Result<Vec<Relocation<'a>>, Cl2Error> {
            let data = data_of(name);
            if data.len() % 24 != 0 {
                return Err(Cl2Error::Structure {
                    structure: format!("inner ELF section `{name}`"),
                    offset: elf.section_by_name(name).map_or(0, |s| s.offset as usize),
                    message: format!(
                        "{} bytes is not a whole number of 24-byte Elf64_Rela entries",
                        data.len()
                    ),
                });
            }
            Ok(data
                .chunks_exact(24)
                .map(|c| {
                    let info = le64(c, 8);
                    let symbol = (info >> 32) as u32;
                    Relocation {
                        offset: le64(c, 0),
                        symbol,
                        kind: info as u32,
                        addend: le64(c, 16) as i64,
                        symbol_name: symbol_name(symbol),
                    }
                })
                .collect())
        };
        let text_relocations = relocations(".rela.hsatext")?;
        let data_relocations = relocations(".rela.hsadata_readonly_agent")?;
        let notes = match elf.section_by_name(".note") {
            Some(s) => parse_notes(s.data, s.offset)?,
            None => Vec::new(),
        };
        Ok(InnerBinary {
            kernels,
            readonly_data: data_of(".hsadata_readonly_agent"),
            global_data: data_of(".hsadata_global_agent"),
            bss,
            sampler_init: data_of(".hsaimage_samplerinit"),
            text_relocations,
            data_relocations,
            notes,
            elf,
        })
    }

    /// Major, minor and stepping of the GPU ISA, from the AMD note of type 3.
    pub fn isa_version(&self) -> Option<IsaVersion> {
        self.notes.iter().find_map(|n| {
            if n.kind != NOTE_ISA || n.name != "AMD" || n.desc.len() < 16 {
                return None;
            }
            Some(IsaVersion {
                major: le32(&n.desc, 4),
                minor: le32(&n.desc, 8),
                stepping: le32(&n.desc, 12),
            })
        })
    }

    /// Raw `.note` section bytes.
    pub fn note_section(&self) -> &'a [u8] {
        self.elf.section_by_name(".note").map_or(&[], |s| s.data)
    }
}

/// Sampler values of `.hsaimage_samplerinit` (8 bytes each: a tag, then the
/// OpenCL sampler bits).
pub fn sampler_values(sampler_init: &[u8]) -> Vec<(u32, u32)> {
    sampler_init
        .chunks_exact(8)
        .map(|c| (le32(c, 0), le32(c, 4)))
        .collect()
}

fn slice<'a>(section: &Section<'a>, start: u64, size: u64) -> Option<&'a [u8]> {
    let end = start.checked_add(size)?;
    section
        .data
        .get(usize::try_from(start).ok()?..usize::try_from(end).ok()?)
}

/// Splits `setup + code`, or with `with_stub` (15.7) `stub + setup + code`
/// where the stub's first dword is the setup's offset.
pub(crate) fn split_setup<'a>(
    name: &str,
    bytes: &'a [u8],
    offset: u64,
    with_stub: bool,
) -> Result<KernelCode<'a>, Cl2Error> {
    // `offset` counts from `.hsatext` (inner ELF) or from the file (15.7).
    let place = if with_stub { "file" } else { "`.hsatext`" };
    let kerr = |message: String| Cl2Error::Kernel {
        kernel: name.to_owned(),
        message,
    };
    let (stub, setup_start) = if with_stub {
        if bytes.len() < 4 {
            return Err(kerr(format!(
                "kernel binary at file byte {offset:#x} has {} bytes; too short for the stub's setup offset (dword 0)",
                bytes.len()
            )));
        }
        let at = le32(bytes, 0) as usize;
        (Some(&bytes[..at.min(bytes.len())]), at)
    } else {
        (None, 0)
    };
    let setup_bytes = bytes
        .get(setup_start..)
        .and_then(|b| b.get(..SETUP_SIZE))
        .ok_or_else(|| {
            kerr(format!(
                "kernel setup at {place} byte {:#x} needs {SETUP_SIZE} bytes, the kernel has {} bytes",
                offset.saturating_add(setup_start as u64),
                bytes.len()
            ))
        })?;
    let setup = KernelSetup::parse(setup_bytes).ok_or_else(|| kerr("short kernel setup".into()))?;
    let code_start = usize::try_from(setup.code_offset)
        .ok()
        .and_then(|c| c.checked_add(setup_start))
        .filter(|&c| c <= bytes.len() && c >= setup_start + SETUP_SIZE)
        .ok_or_else(|| {
            kerr(format!(
                "kernel setup at {place} byte {:#x}: code offset (setup byte 16) {:#x} is outside {SETUP_SIZE}..={:#x}",
                offset.saturating_add(setup_start as u64),
                setup.code_offset,
                bytes.len() - setup_start
            ))
        })?;
    Ok(KernelCode {
        name: name.to_owned(),
        setup_bytes,
        setup,
        code: &bytes[code_start..],
        stub,
        offset: offset.saturating_add(setup_start as u64),
    })
}

fn parse_notes(data: &[u8], file_offset: u64) -> Result<Vec<Note>, Cl2Error> {
    let mut out = Vec::new();
    let mut pos = 0usize;
    while pos < data.len() {
        let err = |message: String| Cl2Error::Structure {
            structure: "inner ELF `.note`".into(),
            offset: (file_offset as usize).saturating_add(pos),
            message,
        };
        if out.len() >= limits::MAX_NOTES {
            return Err(err(format!("more than {} notes", limits::MAX_NOTES)));
        }
        if data.len() - pos < 12 {
            return Err(err(format!(
                "{} bytes left, a note header needs 12",
                data.len() - pos
            )));
        }
        let namesz = le32(data, pos) as usize;
        let descsz = le32(data, pos + 4) as usize;
        let kind = le32(data, pos + 8);
        let body = namesz
            .checked_add(descsz)
            .filter(|&b| b <= data.len() - pos - 12);
        let Some(body) = body else {
            return Err(err(format!(
                "note name ({namesz} bytes) and descriptor ({descsz} bytes) run past the section end ({} bytes)",
                data.len()
            )));
        };
        let name_bytes = &data[pos + 12..pos + 12 + namesz];
        let name_end = memchr::memchr(0, name_bytes).unwrap_or(name_bytes.len());
        out.push(Note {
            kind,
            name: String::from_utf8_lossy(&name_bytes[..name_end]).into_owned(),
            offset: pos,
            desc: data[pos + 12 + namesz..pos + 12 + body].to_vec(),
        });
        pos += 12 + body.next_multiple_of(4);
    }
    Ok(out)
}

pub(crate) fn le32(b: &[u8], at: usize) -> u32 {
    let mut v = [0u8; 4];
    if let Some(s) = b.get(at..at + 4) {
        v.copy_from_slice(s);
    }
    u32::from_le_bytes(v)
}

pub(crate) fn le64(b: &[u8], at: usize) -> u64 {
    u64::from(le32(b, at)) | u64::from(le32(b, at + 4)) << 32
}
