//! AMD Catalyst OpenCL 1.x ("CL1", legacy) program binaries (`.clo`).
//!
//! The outer ELF holds, per kernel `k`, the symbols `__OpenCL_k_metadata`
//! (metadata text, `.rodata`), `__OpenCL_k_header` (32 bytes, `.rodata`) and
//! `__OpenCL_k_kernel` (an inner ELF, `.text`); program-wide constant data is
//! `__OpenCL_N_global` (N = constant buffer); `.comment` holds the compile
//! options followed by the driver string.

pub mod inner;

use crate::elf::{ElfClass, ElfError, ElfView, Symbol};
use crate::limits;
pub use inner::{CalEncoding, CalNote, CalNoteKind, InnerBinary, ProgInfoEntry, ProgInfoSummary};
use std::collections::HashMap;

/// e_machine of AMD CPU (x86) program binaries.
pub const MACHINE_CPU: u16 = 0x7d4;
/// e_machine values of CL2 binaries (32-bit, 64-bit).
pub const MACHINE_CL2: [u16; 2] = [0xaf5a, 0xaf5b];

/// GPU name for an outer `e_machine` (CLRX's table; 0x40e/0x40f/0x411 are shared).
pub fn device_name(machine: u16) -> Option<&'static str> {
    Some(match machine {
        0x3fd => "Tahiti",
        0x3fe => "Pitcairn",
        0x3ff => "CapeVerde",
        0x402 => "Oland",
        0x403 => "Bonaire",
        0x404 => "Spectre",
        0x405 => "Spooky",
        0x406 => "Kalindi",
        0x407 => "Hainan",
        0x408 => "Hawaii",
        0x409 => "Iceland",
        0x40a => "Tonga",
        0x40b => "Mullins",
        0x40c => "Fiji",
        0x40d => "Carrizo",
        0x40e => "Ellesmere",
        0x40f => "Baffin",
        0x411 => "Stoney",
        0x412 => "GFX804",
        _ => return None,
    })
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Cl1Error {
    #[error(transparent)]
    Elf(#[from] ElfError),
    #[error("not a CL1 GPU binary: {0}")]
    NotCl1(String),
    #[error("kernel `{kernel}`: {message}")]
    Kernel { kernel: String, message: String },
    #[error("outer ELF: {0}")]
    Limit(String),
}

/// The 32-byte `__OpenCL_k_header`. Over the corpus, dw3 always equals
/// `;memory:hwlocal`, dw4 bit 3 `;memory:64bitABI` and dw5 is 1; dw2 equals
/// `;memory:uavprivate` for 496 of 502 kernels (printf kernels of 14.12
/// differ) and dw0 is usually 0.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct KernelHeader {
    pub dwords: [u32; 8],
}

impl KernelHeader {
    pub const SIZE: usize = 32;
    /// Private (scratch) bytes per work-item as the header records them.
    pub fn uav_private(&self) -> u32 {
        self.dwords[2]
    }
    pub fn hw_local(&self) -> u32 {
        self.dwords[3]
    }
    pub fn flags(&self) -> u32 {
        self.dwords[4]
    }
    pub fn uses_printf(&self) -> bool {
        self.flags() & 2 != 0
    }
    pub fn is_64bit(&self) -> bool {
        self.flags() & 8 != 0
    }
}

#[derive(Debug, Clone)]
pub struct Cl1Kernel<'a> {
    pub name: String,
    /// Exact bytes of `__OpenCL_<name>_metadata`.
    pub metadata: &'a [u8],
    pub header: Option<KernelHeader>,
    pub inner: InnerBinary<'a>,
    /// Bytes of the inner ELF as stored in `.text`.
    pub inner_bytes: &'a [u8],
}

/// Program-scope constant data, `__OpenCL_<cb>_global`.
#[derive(Debug, Clone)]
pub struct GlobalData<'a> {
    pub constant_buffer: u32,
    pub data: &'a [u8],
}

#[derive(Debug, Clone)]
pub struct Cl1Binary<'a> {
    pub class: ElfClass,
    pub machine: u16,
    pub compile_options: Option<String>,
    /// `@(#) OpenCL 1.2 AMD-APP (NNNN.N)...`, when present.
    pub driver_info: Option<String>,
    pub has_llvm_ir: bool,
    pub kernels: Vec<Cl1Kernel<'a>>,
    pub global_data: Vec<GlobalData<'a>>,
}

const PREFIX: &str = "__OpenCL_";

impl<'a> Cl1Binary<'a> {
    pub fn parse(bytes: &'a [u8]) -> Result<Self, Cl1Error> {
        let what = "outer ELF";
        let elf = ElfView::parse(bytes, what)?;
        if elf.machine == MACHINE_CPU {
            return Err(Cl1Error::NotCl1(format!(
                "e_machine {:#x} is an AMD CPU (x86) program binary; only GPU binaries carry AMD IL metadata",
                elf.machine
            )));
        }
        if MACHINE_CL2.contains(&elf.machine) {
            return Err(Cl1Error::NotCl1(format!(
                "e_machine {:#x} is an OpenCL 2.0 (CL2) binary, whose metadata is binary, not AMD IL text",
                elf.machine
            )));
        }
        let has_metadata = elf
            .symbols
            .iter()
            .any(|s| kernel_name(s.name, "_metadata").is_some());
        if !has_metadata {
            return Err(Cl1Error::NotCl1(format!(
                "no `__OpenCL_<kernel>_metadata` symbol in the symbol table (e_machine {:#x})",
                elf.machine
            )));
        }
        let mut compile_options = None;
        let mut driver_info = None;
        if let Some(comment) = elf.section_by_name(".comment") {
            let mut rest = comment.data;
            if let Some(sym) = elf
                .symbols
                .iter()
                .find(|s| s.name == "__OpenCL_compile_options")
            {
                let opts = elf.symbol_data(sym, what)?;
                compile_options = Some(String::from_utf8_lossy(opts).into_owned());
                rest = comment
                    .data
                    .get(opts.len() + sym.value as usize..)
                    .unwrap_or(&[]);
            }
            if !rest.is_empty() {
                let trimmed = match memchr::memchr(0, rest) {
                    Some(n) => &rest[..n],
                    None => rest,
                };
                driver_info = Some(String::from_utf8_lossy(trimmed).into_owned());
            }
        }
        // One pass builds the name index: finding each kernel's symbols by scanning
        // the table would cost kernels x symbols. The first symbol of a name wins.
        let mut by_name: HashMap<&str, (usize, &Symbol<'a>)> = HashMap::new();
        let mut metadata_syms = Vec::new();
        let mut global_data = Vec::new();
        for (index, sym) in elf.symbols.iter().enumerate() {
            if let Some(name) = kernel_name(sym.name, "_metadata") {
                if let Some(&(first, _)) = by_name.get(sym.name) {
                    return Err(Cl1Error::Kernel {
                        kernel: name.to_owned(),
                        message: format!(
                            "duplicate kernel: symbol {index} `{}` repeats symbol {first}",
                            sym.name
                        ),
                    });
                }
                if metadata_syms.len() >= limits::MAX_KERNELS {
                    return Err(Cl1Error::Limit(format!(
                        "more than {} kernels",
                        limits::MAX_KERNELS
                    )));
                }
                metadata_syms.push((name, sym));
            } else if let Some(cb) = kernel_name(sym.name, "_global") {
                if let Ok(cb) = cb.parse::<u32>() {
                    global_data.push(GlobalData {
                        constant_buffer: cb,
                        data: elf.symbol_data(sym, what)?,
                    });
                }
            }
            by_name.entry(sym.name).or_insert((index, sym));
        }
        let mut kernels = Vec::with_capacity(metadata_syms.len());
        // Each kernel's metadata and code must have bytes of their own, so each is
        // parsed once: overlapping regions would multiply the work.
        let mut regions: Vec<(&str, &Symbol<'a>)> = Vec::with_capacity(2 * metadata_syms.len());
        for &(name, meta_sym) in &metadata_syms {
            regions.push((name, meta_sym));
            if let Some(&(_, code)) = by_name.get(format!("{PREFIX}{name}_kernel").as_str()) {
                regions.push((name, code));
            }
        }
        let syms: Vec<&Symbol> = regions.iter().map(|&(_, s)| s).collect();
        if let Some((a, b)) = elf.overlapping_symbols(&syms) {
            let (ra, rb) = (elf.symbol_range(syms[a]), elf.symbol_range(syms[b]));
            return Err(Cl1Error::Kernel {
                kernel: regions[b].0.to_owned(),
                message: format!(
                    "symbol `{}` (file bytes {:#x}..{:#x}) overlaps `{}` ({:#x}..{:#x}); each kernel's metadata and code must have bytes of their own",
                    syms[b].name, rb.start, rb.end, syms[a].name, ra.start, ra.end
                ),
            });
        }
        for &(name, meta_sym) in &metadata_syms {
            let find = |suffix: &str| {
                by_name
                    .get(format!("{PREFIX}{name}{suffix}").as_str())
                    .map(|&(_, s)| s)
            };
            kernels.push(read_kernel(&elf, name, meta_sym, &find, what)?);
        }
        Ok(Cl1Binary {
            class: elf.class,
            machine: elf.machine,
            compile_options,
            driver_info,
            has_llvm_ir: elf.section_by_name(".llvmir").is_some(),
            kernels,
            global_data,
        })
    }

    pub fn device(&self) -> Option<&'static str> {
        device_name(self.machine)
    }

    pub fn kernel(&self, name: &str) -> Option<&Cl1Kernel<'a>> {
        self.kernels.iter().find(|k| k.name == name)
    }

    /// The driver build number, e.g. "1702.3" from "... AMD-APP (1702.3)".
    pub fn driver_version(&self) -> Option<&str> {
        let info = self.driver_info.as_deref()?;
        let start = info.find("AMD-APP (")? + "AMD-APP (".len();
        let len = info[start..].find(')')?;
        Some(&info[start..start + len])
    }
}

fn kernel_name<'s>(symbol: &'s str, suffix: &str) -> Option<&'s str> {
    symbol
        .strip_prefix(PREFIX)?
        .strip_suffix(suffix)
        .filter(|n| !n.is_empty())
}

fn read_kernel<'a, 's>(
    elf: &ElfView<'a>,
    name: &str,
    meta_sym: &Symbol<'a>,
    find: &dyn Fn(&str) -> Option<&'s Symbol<'a>>,
    what: &str,
) -> Result<Cl1Kernel<'a>, Cl1Error>
where
    'a: 's,
{
    let kerr = |message: String| Cl1Error::Kernel {
        kernel: name.to_owned(),
        message,
    };
    let metadata = elf.symbol_data(meta_sym, what)?;
    let header = match find("_header") {
        Some(sym) => {
            let bytes = elf.symbol_data(sym, what)?;
            if bytes.len() < KernelHeader::SIZE {
                return Err(kerr(format!(
                    "`__OpenCL_{name}_header` has {} bytes, expected {}",
                    bytes.len(),
                    KernelHeader::SIZE
                )));
            }
            let mut dwords = [0u32; 8];
            for (i, d) in dwords.iter_mut().enumerate() {
                *d = inner::le32(bytes, i * 4);
            }
            Some(KernelHeader { dwords })
        }
        None => None,
    };
    let code_sym =
        find("_kernel").ok_or_else(|| kerr(format!("no `__OpenCL_{name}_kernel` symbol")))?;
    let inner_bytes = elf.symbol_data(code_sym, what)?;
    let file_offset = elf
        .section(code_sym.section)
        .map(|s| s.offset.saturating_add(code_sym.value));
    let inner = InnerBinary::parse_at(inner_bytes, name, file_offset)?;
    Ok(Cl1Kernel {
        name: name.to_owned(),
        metadata,
        header,
        inner,
        inner_bytes,
    })
}
