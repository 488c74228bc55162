//! AMD Catalyst OpenCL 2.0 ("CL2") program binaries (`.clo`).
//!
//! The outer ELF (`e_machine` 0xaf5a 32-bit, 0xaf5b 64-bit; `e_flags` a
//! device code whose meaning depends on the driver) holds per kernel `k` the
//! binary metadata `__OpenCL_&__OpenCL_<k>_kernel_metadata` in `.rodata`
//! ([`metadata`]), the compile options (`__OpenCL_compiler_options`) and
//! `acl_version_string` in `.comment`, and the code in `.text` ([`inner`]):
//! an HSA inner ELF from 15.11, per-kernel `__ISA_` blobs in 15.7.
//! The driver generation is not written anywhere; [`DriverClass`] is
//! inferred from the layout as described on its variants.

pub mod device;
pub mod inner;
pub mod metadata;
pub mod setup;

use crate::elf::{ElfClass, ElfError, ElfView};
use crate::limits;
pub use device::{Architecture, Device};
pub use inner::{InnerBinary, IsaVersion, KernelCode, Note, Relocation};
pub use metadata::{parse_metadata, ArgEntry, KernelMetadata, MetadataError};
use serde::Serialize;
pub use setup::KernelSetup;
use std::collections::HashMap;

pub use crate::cl1::MACHINE_CL2;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Cl2Error {
    #[error(transparent)]
    Elf(#[from] ElfError),
    #[error("not a CL2 binary: {0}")]
    NotCl2(String),
    #[error("kernel `{kernel}`: {message}")]
    Kernel { kernel: String, message: String },
    #[error("kernel `{kernel}`: {source}")]
    Metadata {
        kernel: String,
        source: MetadataError,
    },
    #[error("{structure} at byte {offset:#x}: {message}")]
    Structure {
        structure: String,
        offset: usize,
        message: String,
    },
    #[error("outer ELF: {0}")]
    Limit(String),
}

/// The driver generation, inferred as CLRX does (its numbers in `number()`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DriverClass {
    /// Catalyst 15.7: per-kernel `__ISA_` symbols, no inner ELF (or no code at all).
    Catalyst15_7,
    /// Catalyst 15.11/15.12: inner HSA ELF whose symbol table has no null symbol.
    Catalyst15_11,
    /// Crimson 16.x: inner symbol 0 is the null symbol, or metadata with vec_type_hint.
    Crimson16,
    /// First AMDGPU-PRO (2036.3): a 200-byte `.note` whose byte 197 is not 0.
    AmdGpuPro,
}

impl DriverClass {
    /// CLRX's driver version number for the class.
    pub fn number(self) -> u32 {
        match self {
            DriverClass::Catalyst15_7 => 180005,
            DriverClass::Catalyst15_11 => 191205,
            DriverClass::Crimson16 => 200406,
            DriverClass::AmdGpuPro => 203603,
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            DriverClass::Catalyst15_7 => "Catalyst 15.7 (old layout, __ISA_ symbols)",
            DriverClass::Catalyst15_11 => "Catalyst 15.11/15.12 (HSA inner ELF)",
            DriverClass::Crimson16 => "Crimson 16.x",
            DriverClass::AmdGpuPro => "first AMDGPU-PRO (2036.3)",
        }
    }

    /// Whether the kernel argument buffer size is rounded to 16 and vec3
    /// takes four elements (drivers from 15.11).
    pub fn new_layout(self) -> bool {
        self >= DriverClass::Catalyst15_11
    }
}

#[derive(Debug, Clone)]
pub struct Cl2Kernel<'a> {
    pub name: String,
    /// Raw bytes of `__OpenCL_&__OpenCL_<name>_kernel_metadata`.
    pub metadata_bytes: &'a [u8],
    pub metadata: KernelMetadata,
    /// 15.7: `__ISA_&__OpenCL_<name>_kernel_metadata`.
    pub isa_metadata: Option<&'a [u8]>,
    /// Setup and code; `None` when the binary has none for this kernel.
    pub code: Option<KernelCode<'a>>,
}

#[derive(Debug, Clone)]
pub struct Cl2Binary<'a> {
    pub class: ElfClass,
    pub machine: u16,
    /// Outer `e_flags`: the device code.
    pub flags: u32,
    pub driver: DriverClass,
    pub compile_options: Option<String>,
    pub acl_version: Option<String>,
    pub kernels: Vec<Cl2Kernel<'a>>,
    /// The inner HSA ELF (15.11 and later).
    pub inner: Option<InnerBinary<'a>>,
    pub has_brig: bool,
}

const METADATA_PREFIX: &str = "__OpenCL_&__OpenCL_";
const METADATA_SUFFIX: &str = "_kernel_metadata";
const ISA_PREFIX: &str = "__ISA_&__OpenCL_";
const ISA_BINARY_SUFFIX: &str = "_kernel_binary";

impl<'a> Cl2Binary<'a> {
    pub fn parse(bytes: &'a [u8]) -> Result<Self, Cl2Error> {
        let what = "outer ELF";
        let elf = ElfView::parse(bytes, what)?;
        if !MACHINE_CL2.contains(&elf.machine) {
            return Err(Cl2Error::NotCl2(format!(
                "e_machine {:#x}; CL2 binaries have 0xaf5a (32-bit) or 0xaf5b (64-bit)",
                elf.machine
            )));
        }
        let bits64 = elf.class == ElfClass::Elf64;
        // Name lookups go through maps so a file with many kernels and
        // symbols costs time proportional to its size, not their product.
        let by_name: HashMap<&str, &crate::elf::Symbol> =
            elf.symbols.iter().rev().map(|s| (s.name, s)).collect();
        let find = |name: &str| by_name.get(name).copied();
        let text_of = |name: &str| -> Result<Option<String>, Cl2Error> {
            match find(name) {
                Some(sym) => Ok(Some(
                    String::from_utf8_lossy(elf.symbol_data(sym, what)?).into_owned(),
                )),
                None => Ok(None),
            }
        };
        let compile_options = text_of("__OpenCL_compiler_options")?;
        let mut acl_version = text_of("acl_version_string")?;
        if acl_version.is_none() {
            // Rebuilt binaries may lack the symbol; `.comment` is the options then the acl string.
            if let Some(c) = elf.section_by_name(".comment") {
                let skip = compile_options.as_ref().map_or(0, String::len);
                if let Some(rest) = c
                    .data
                    .get(skip..)
                    .filter(|r| r.starts_with(b"AMD-COMP-LIB"))
                {
                    let end = memchr::memchr(0, rest).unwrap_or(rest.len());
                    acl_version = Some(String::from_utf8_lossy(&rest[..end]).into_owned());
                }
            }
        }
        let text = elf.section_by_name(".text");
        let old_layout = elf
            .symbols
            .iter()
            .any(|s| s.name.starts_with(ISA_PREFIX) && s.name.ends_with(ISA_BINARY_SUFFIX));
        let inner = match text {
            Some(t) if !old_layout && t.data.starts_with(b"\x7fELF") => {
                Some(InnerBinary::parse(t.data)?)
            }
            Some(t) if !old_layout && !t.data.is_empty() => {
                return Err(Cl2Error::Structure {
                    structure: "outer `.text`".into(),
                    offset: t.offset as usize,
                    message: "neither an inner ELF (magic 7f 45 4c 46) nor per-kernel __ISA_ code"
                        .into(),
                })
            }
            _ => None,
        };
        let mut driver = match &inner {
            None => DriverClass::Catalyst15_7,
            Some(i) => {
                let note = i.note_section();
                if note.len() == 200 && note[197] != 0 {
                    DriverClass::AmdGpuPro
                } else if i.elf.symbols.first().is_some_and(|s| s.name.is_empty()) {
                    DriverClass::Crimson16
                } else {
                    DriverClass::Catalyst15_11
                }
            }
        };
        let inner_kernels: HashMap<&str, &KernelCode<'a>> = inner
            .iter()
            .flat_map(|i| i.kernels.iter().rev())
            .map(|k| (k.name.as_str(), k))
            .collect();
        // Kernel names must be unique and their metadata bytes their own: each
        // block is parsed once, so shared bytes would multiply the work.
        let mut metadata_syms: Vec<(&str, &crate::elf::Symbol)> = Vec::new();
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (index, sym) in elf.symbols.iter().enumerate() {
            let Some(name) = sym
                .name
                .strip_prefix(METADATA_PREFIX)
                .and_then(|n| n.strip_suffix(METADATA_SUFFIX))
                .filter(|n| !n.is_empty())
            else {
                continue;
            };
            if let Some(first) = seen.insert(sym.name, index) {
                return Err(Cl2Error::Kernel {
                    kernel: name.to_owned(),
                    message: format!(
                        "duplicate kernel: symbol {index} `{}` repeats symbol {first}",
                        sym.name
                    ),
                });
            }
            if metadata_syms.len() >= limits::MAX_KERNELS {
                return Err(Cl2Error::Limit(format!(
                    "more than {} kernels",
                    limits::MAX_KERNELS
                )));
            }
            metadata_syms.push((name, sym));
        }
        let syms: Vec<&crate::elf::Symbol> = metadata_syms.iter().map(|&(_, s)| s).collect();
        if let Some((a, b)) = elf.overlapping_symbols(&syms) {
            let (ra, rb) = (elf.symbol_range(syms[a]), elf.symbol_range(syms[b]));
            return Err(Cl2Error::Kernel {
                kernel: metadata_syms[b].0.to_owned(),
                message: format!(
                    "symbol `{}` (file bytes {:#x}..{:#x}) overlaps `{}` ({:#x}..{:#x}); each kernel's metadata must have bytes of its own",
                    syms[b].name, rb.start, rb.end, syms[a].name, ra.start, ra.end
                ),
            });
        }
        let mut kernels = Vec::with_capacity(metadata_syms.len());
        for &(name, sym) in &metadata_syms {
            let metadata_bytes = elf.symbol_data(sym, what)?;
            let metadata =
                parse_metadata(metadata_bytes, bits64).map_err(|source| Cl2Error::Metadata {
                    kernel: name.to_owned(),
                    source,
                })?;
            if metadata.is_crimson16() && driver < DriverClass::Crimson16 {
                driver = DriverClass::Crimson16;
            }
            let isa_sym = |suffix: &str| find(&format!("{ISA_PREFIX}{name}{suffix}"));
            let isa_metadata = match isa_sym(METADATA_SUFFIX) {
                Some(s) => Some(elf.symbol_data(s, what)?),
                None => None,
            };
            let code = match (&inner, isa_sym(ISA_BINARY_SUFFIX)) {
                (Some(_), _) => inner_kernels.get(name).map(|&k| k.clone()),
                (None, Some(s)) => {
                    let data = elf.symbol_data(s, what)?;
                    let base = elf.section(s.section).map_or(0, |sec| sec.offset);
                    Some(inner::split_setup(
                        name,
                        data,
                        base.saturating_add(s.value),
                        true,
                    )?)
                }
                (None, None) => None,
            };
            kernels.push(Cl2Kernel {
                name: name.to_owned(),
                metadata_bytes,
                metadata,
                isa_metadata,
                code,
            });
        }
        Ok(Cl2Binary {
            class: elf.class,
            machine: elf.machine,
            flags: elf.flags,
            driver,
            compile_options,
            acl_version,
            kernels,
            has_brig: elf.section_by_name(".brig").is_some(),
            inner,
        })
    }

    pub fn bits64(&self) -> bool {
        self.class == ElfClass::Elf64
    }

    pub fn kernel(&self, name: &str) -> Option<&Cl2Kernel<'a>> {
        self.kernels.iter().find(|k| k.name == name)
    }

    /// The GPU, from `e_flags` in the driver's table, corrected by the ISA
    /// note where the table cannot tell (CLRX's rule; see [`device::detect`]).
    pub fn device(&self) -> Option<Device> {
        device::detect(
            self.flags,
            self.driver.number(),
            self.inner.as_ref().and_then(|i| i.isa_version()),
        )
    }
}
