//! One kernel's figures on one side, from the library calls of the single-file
//! commands: `scan`'s row (`cmd/scan/extract.rs`: counts, opcode mix, declarations,
//! SIMD, Gen binary, IGA sends and pressure, AMD registers), `report`'s page model
//! (`cmd/report/`: the pressure curve, the CFG, the listing), `intel info`'s
//! program reader, and IGC's `.asm` dump (`gpukit_intel::asm_dump`: GRF mode, spill
//! bytes, Gen instructions and sends by kind). `METRICS` is THE list of compared
//! figures: text, JSON, HTML and `--fail-on` all walk it.

use crate::cmd::scan::extract;
use crate::cmd::scan::row::Row;
use crate::detect::{self, Format, SNIFF_BYTES};
use gpukit_intel::asm_dump::{self, AsmDump};
use gpukit_report::Kernel as PageKernel;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One kernel as one side of the comparison sees it.
#[derive(Default)]
pub struct Side {
    /// The file the kernel's code comes from (the listing's file, or the dump's).
    pub file: PathBuf,
    /// The IGC `.asm` dump of the same compile, when there is one.
    pub asm_file: Option<PathBuf>,
    pub name: String,
    /// The kernel's name is the file's stem (IGA listings carry none).
    pub unnamed: bool,
    /// `gpukit scan`'s row of the kernel.
    pub row: Option<Row>,
    /// `gpukit report`'s model of the kernel.
    pub page: Option<PageKernel>,
    pub asm: Option<AsmDump>,
}

/// A compared figure: its name (the JSON key stem and `--fail-on` name), what it is,
/// and how it is read from a side.
pub struct Metric {
    pub name: &'static str,
    pub doc: &'static str,
    pub get: fn(&Side) -> Option<i64>,
}

fn row_of(s: &Side, get: fn(&Row) -> Option<i64>) -> Option<i64> {
    s.row.as_ref().and_then(get)
}

fn asm_of(s: &Side, get: fn(&AsmDump) -> u64) -> Option<i64> {
    s.asm
        .as_ref()
        .map(|d| i64::try_from(get(d)).unwrap_or(i64::MAX))
}

pub const METRICS: &[Metric] = &[
    Metric {
        name: "instructions",
        doc: "instructions of the listing (scan's `instructions`)",
        get: |s| row_of(s, |r| r.instructions),
    },
    Metric {
        name: "gen_instructions",
        doc: "Gen instruction lines of IGC's .asm dump",
        get: |s| asm_of(s, |d| d.instructions),
    },
    Metric {
        name: "sends",
        doc: "send instructions: the .asm dump's, else the IGA listing's (scan's `sends`)",
        get: |s| asm_of(s, AsmDump::send_count).or_else(|| row_of(s, |r| r.sends)),
    },
    Metric {
        name: "simd_size",
        doc: "SIMD width (scan's `simd_size`)",
        get: |s| row_of(s, |r| r.simd_size),
    },
    Metric {
        name: "grf",
        doc: "GRFs of the register file the kernel was allocated in (.asm numGRF)",
        get: |s| s.asm.as_ref().and_then(|d| d.num_grf).map(i64::from),
    },
    Metric {
        name: "spill_bytes",
        doc: "scratch bytes of spilled registers (.asm `spill size`; AMD: scan's `scratch_bytes`)",
        get: |s| asm_of(s, |d| d.spill_bytes).or_else(|| row_of(s, |r| r.scratch_bytes)),
    },
    Metric {
        name: "pressure_peak_bytes",
        doc: "register-pressure peak in bytes (report's pressure curve; IGA: liveTotals)",
        get: |s| {
            s.page
                .as_ref()
                .and_then(|k| k.pressure.as_ref())
                .and_then(|p| p.bytes.iter().copied().max())
                .map(|b| i64::try_from(b).unwrap_or(i64::MAX))
                .or_else(|| row_of(s, |r| r.pressure_peak_bytes))
        },
    },
    Metric {
        name: "gen_binary_bytes",
        doc: "Gen code bytes (scan's `gen_binary_bytes`; program binaries: intel info's Gen code size)",
        get: |s| row_of(s, |r| r.gen_binary_bytes),
    },
    Metric {
        name: "blocks",
        doc: "basic blocks of the CFG (report's graph)",
        get: |s| cfg_of(s).map(|g| g.nodes.len() as i64),
    },
    Metric {
        name: "edges",
        doc: "CFG edges (report's graph)",
        get: |s| cfg_of(s).map(|g| g.edges.len() as i64),
    },
    Metric {
        name: "loops",
        doc: "back edges of the CFG, as the report draws them (orange)",
        get: |s| {
            cfg_of(s).map(|g| {
                gpukit_report::layout::back_edges(g.nodes.len(), &g.edges)
                    .into_iter()
                    .filter(|&b| b)
                    .count() as i64
            })
        },
    },
    Metric {
        name: "declarations",
        doc: "declared names (scan's `declarations`)",
        get: |s| row_of(s, |r| r.declarations),
    },
    Metric {
        name: "vgprs",
        doc: "AMD vector registers (scan's `vgprs`)",
        get: |s| row_of(s, |r| r.vgprs),
    },
    Metric {
        name: "sgprs",
        doc: "AMD scalar registers (scan's `sgprs`)",
        get: |s| row_of(s, |r| r.sgprs),
    },
];

fn cfg_of(s: &Side) -> Option<&gpukit_report::Graph> {
    s.page.as_ref().and_then(|k| k.cfg.as_ref())
}

pub fn metric(name: &str) -> Option<&'static Metric> {
    METRICS.iter().find(|m| m.name == name)
}

impl Side {
    /// Instructions per mnemonic (scan's `opcodes`).
    pub fn opcodes(&self) -> BTreeMap<String, i64> {
        self.row
            .as_ref()
            .and_then(|r| r.opcodes.clone())
            .unwrap_or_default()
    }

    /// Gen sends by kind (the `.asm` dump's SFIDs).
    pub fn send_kinds(&self) -> BTreeMap<String, i64> {
        self.asm.as_ref().map_or_else(BTreeMap::new, |d| {
            d.sends
                .iter()
                .map(|(k, &v)| (k.clone(), i64::try_from(v).unwrap_or(i64::MAX)))
                .collect()
        })
    }

    /// The files the figures come from, for display.
    pub fn files(&self) -> String {
        match &self.asm_file {
            Some(asm) if *asm != self.file => {
                format!("{} + {}", self.file.display(), asm.display())
            }
            _ => self.file.display().to_string(),
        }
    }
}

/// How a file takes part: code with kernels, an IGC `.asm` dump, or neither.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    /// Read for its kernels; a lower rank is preferred as a group's listing.
    Code(u8),
    AsmDump,
    Other,
}

/// The role of a file, from its first bytes.
pub fn role(path: &Path) -> Role {
    let Ok(head) = crate::input::read_head(path, SNIFF_BYTES) else {
        return Role::Other;
    };
    if asm_dump::looks_like(&head) {
        return Role::AsmDump;
    }
    match detect::detect(&head) {
        Format::VisaText => Role::Code(0),
        Format::VisaBinary => Role::Code(1),
        Format::IgaJson1 | Format::IgaJson2 => Role::Code(2),
        Format::IntelZebin | Format::IntelPatchTokens => Role::Code(3),
        // NEO's OpenCL ELF wrapper around a patch-token program is not told from
        // other ELF files by its first bytes; the program reader decides.
        Format::OtherElf if head.len() < SNIFF_BYTES && gpukit_intel::read(&head).is_ok() => {
            Role::Code(3)
        }
        Format::OtherElf if head.len() == SNIFF_BYTES => Role::Code(3),
        Format::AmdCl1 | Format::AmdCl1Cpu | Format::AmdCl2 => Role::Code(4),
        _ => Role::Other,
    }
}

/// The kernels of a file of code: one side each, from scan's rows and report's page
/// (program binaries: `intel info`'s reader).
pub fn kernels(path: &Path) -> Result<Vec<Side>, String> {
    let head = crate::input::read_head(path, SNIFF_BYTES).map_err(|e| e.to_string())?;
    if matches!(
        detect::detect(&head),
        Format::IntelZebin | Format::IntelPatchTokens | Format::OtherElf
    ) {
        return program_kernels(path);
    }
    let rows = extract::scan_file(path, extract::Options::default()).rows;
    if let Some(r) = rows.iter().find(|r| r.file_error) {
        return Err(format!(
            "{}: {}",
            path.display(),
            r.error.as_deref().unwrap_or("no kernel")
        ));
    }
    // The report reads the formats with pictures; for the others the rows suffice.
    let mut page_kernels = crate::cmd::report::page(path, None)
        .map(|p| p.kernels)
        .unwrap_or_default();
    let single = rows.len() == 1 && page_kernels.len() == 1;
    let stem = stem(path);
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let unnamed = row.kernel.is_none();
        let name = row.kernel.clone().unwrap_or_else(|| stem.clone());
        let page = if single {
            page_kernels.pop()
        } else {
            page_kernels
                .iter()
                .position(|k| k.name == name)
                .map(|i| page_kernels.swap_remove(i))
        };
        out.push(Side {
            file: path.to_path_buf(),
            name,
            unnamed,
            row: Some(row),
            page,
            ..Side::default()
        });
    }
    Ok(out)
}

fn program_kernels(path: &Path) -> Result<Vec<Side>, String> {
    let bytes = crate::input::read_any(path).map_err(|e| e.to_string())?;
    let program = gpukit_intel::read(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(program
        .kernels
        .into_iter()
        .map(|k| Side {
            file: path.to_path_buf(),
            name: k.name.clone(),
            row: Some(Row {
                kernel: Some(k.name),
                simd_size: Some(i64::from(k.simd_size)),
                gen_binary_bytes: Some(k.gen_code_size as i64),
                ..Row::default()
            }),
            ..Side::default()
        })
        .collect())
}

/// An IGC `.asm` dump read for its figures.
pub fn dump(path: &Path) -> Result<AsmDump, String> {
    let text = crate::input::read_any(path)
        .and_then(|b| crate::input::text(path, b))
        .map_err(|e| e.to_string())?;
    asm_dump::read(&text).map_err(|e| format!("{}:{e}", path.display()))
}

/// A side made of a dump alone (no listing of the kernel beside it).
pub fn dump_side(path: &Path, dump: AsmDump) -> Side {
    Side {
        file: path.to_path_buf(),
        asm_file: Some(path.to_path_buf()),
        name: dump.kernel.clone(),
        asm: Some(dump),
        ..Side::default()
    }
}

/// The file name up to its first dot.
pub fn stem(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match name.split_once('.') {
        Some((s, _)) if !s.is_empty() => s.to_owned(),
        _ => name,
    }
}
