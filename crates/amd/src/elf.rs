//! A flat view of an ELF file (32- or 64-bit, little endian), shared by the
//! CL1 and CL2 container readers. Built on the `object` crate's low-level ELF
//! types so every table is bounds-checked against the input; this module only
//! adds names, limits and errors that say which table of which ELF failed.

use crate::limits;
use object::elf;
use object::read::elf::{FileHeader, ProgramHeader, SectionHeader, Sym};
use object::{Endianness, FileKind};
use std::collections::HashMap;

/// Which ELF of a container an error is about (outer file, or one kernel's inner ELF).
pub type ElfWhat = String;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what}: {structure}: {message}")]
pub struct ElfError {
    /// "outer ELF" or "inner ELF of kernel `k`".
    pub what: ElfWhat,
    /// The table or field that could not be read, e.g. "section headers".
    pub structure: &'static str,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum ElfClass {
    Elf32,
    Elf64,
}

#[derive(Debug, Clone)]
pub struct Section<'a> {
    pub index: usize,
    /// Borrowed from the string table, never copied: many entries may name one string.
    pub name: &'a str,
    pub kind: u32,
    /// File offset of the section's bytes.
    pub offset: u64,
    /// `sh_size`: the bytes in the file, or the memory a `SHT_NOBITS` section reserves.
    pub size: u64,
    /// `sh_addralign`.
    pub align: u64,
    pub data: &'a [u8],
}

#[derive(Debug, Clone)]
pub struct Symbol<'a> {
    /// Borrowed from the string table, never copied: many entries may name one string.
    pub name: &'a str,
    /// Section index (`st_shndx`); 0 for undefined.
    pub section: usize,
    pub value: u64,
    pub size: u64,
    pub kind: u8,
}

#[derive(Debug, Clone)]
pub struct Segment<'a> {
    pub kind: u32,
    pub offset: u64,
    pub data: &'a [u8],
}

/// Everything gpukit needs from one ELF image.
#[derive(Debug, Clone)]
pub struct ElfView<'a> {
    pub class: ElfClass,
    pub os_abi: u8,
    pub abi_version: u8,
    pub file_type: u16,
    pub machine: u16,
    pub flags: u32,
    pub sections: Vec<Section<'a>>,
    pub symbols: Vec<Symbol<'a>>,
    pub segments: Vec<Segment<'a>>,
}

impl<'a> ElfView<'a> {
    /// Reads `data` as a little-endian ELF32 or ELF64 image.
    pub fn parse(data: &'a [u8], what: &str) -> Result<Self, ElfError> {
        let err = |structure: &'static str, message: String| ElfError {
            what: what.to_owned(),
            structure,
            message,
        };
        // `object` reads headers in place and needs them aligned; an inner ELF
        // sits at any offset of `.text`, so parse an aligned copy and slice
        // the results out of the caller's bytes (same offsets).
        let copy;
        let aligned: &[u8] = if data.as_ptr().align_offset(8) == 0 {
            data
        } else {
            copy = AlignedCopy::new(data);
            copy.bytes()
        };
        match FileKind::parse(data) {
            Ok(FileKind::Elf32) => {
                parse_as::<elf::FileHeader32<Endianness>>(aligned, data, what, ElfClass::Elf32)
            }
            Ok(FileKind::Elf64) => {
                parse_as::<elf::FileHeader64<Endianness>>(aligned, data, what, ElfClass::Elf64)
            }
            Ok(other) => Err(err(
                "file header",
                format!("not an ELF file (looks like {other:?})"),
            )),
            Err(_) => Err(err(
                "file header",
                format!(
                    "not an ELF file: expected magic 7f 45 4c 46 at byte 0 ({} bytes read)",
                    data.len()
                ),
            )),
        }
    }

    pub fn section(&self, index: usize) -> Option<&Section<'a>> {
        // Sections are stored in index order.
        self.sections.get(index)
    }

    pub fn section_by_name(&self, name: &str) -> Option<&Section<'a>> {
        self.sections.iter().find(|s| s.name == name)
    }

    /// File byte range a symbol covers (its section's offset plus its value).
    pub fn symbol_range(&self, sym: &Symbol<'_>) -> std::ops::Range<u64> {
        let base = self.section(sym.section).map_or(0, |s| s.offset);
        let start = base.saturating_add(sym.value);
        start..start.saturating_add(sym.size)
    }

    /// The first two of `syms` (indexes into it) whose bytes overlap, found by
    /// sorting (n log n). Readers refuse such files: each region is parsed once,
    /// so shared bytes would multiply the work.
    pub fn overlapping_symbols(&self, syms: &[&Symbol<'_>]) -> Option<(usize, usize)> {
        let mut ranges: Vec<(std::ops::Range<u64>, usize)> = syms
            .iter()
            .enumerate()
            .map(|(i, s)| (self.symbol_range(s), i))
            .filter(|(r, _)| r.end > r.start)
            .collect();
        ranges.sort_by_key(|(r, _)| (r.start, r.end));
        let mut widest: Option<&(std::ops::Range<u64>, usize)> = None;
        for entry in &ranges {
            if let Some(w) = widest.filter(|w| entry.0.start < w.0.end) {
                return Some((w.1, entry.1));
            }
            if widest.is_none_or(|w| entry.0.end > w.0.end) {
                widest = Some(entry);
            }
        }
        None
    }

    /// The bytes a symbol covers, read from its section (symbol values are
    /// section-relative in these relocatable-style containers).
    pub fn symbol_data(&self, sym: &Symbol<'_>, what: &str) -> Result<&'a [u8], ElfError> {
        let section = self.section(sym.section).ok_or_else(|| ElfError {
            what: what.to_owned(),
            structure: "symbol table",
            message: format!(
                "symbol `{}` refers to section {} which does not exist",
                sym.name, sym.section
            ),
        })?;
        let start = sym.value;
        let end = sym.value.checked_add(sym.size);
        match end {
            Some(end) if end <= section.data.len() as u64 => Ok(&section.data[start as usize..end as usize]),
            _ => Err(ElfError {
                what: what.to_owned(),
                structure: "symbol table",
                message: format!(
                    "symbol `{}` covers bytes {}..{} of section `{}` (file offset {:#x}), but the section has {} bytes",
                    sym.name,
                    start,
                    start.saturating_add(sym.size),
                    section.name,
                    section.offset.saturating_add(start),
                    section.data.len()
                ),
            }),
        }
    }
}

/// The names of one string table, each found and checked once per NUL-terminated
/// string however many entries share it (suffixes included): looking each name up
/// afresh would cost entries x string length. Names are slices of the input; AMD's
/// tools write ASCII, and a name that is not UTF-8 is refused rather than copied.
struct Names<'a> {
    table: &'a [u8],
    /// File offset of the table, for messages.
    file_offset: u64,
    /// Positions of the table's NUL bytes, ascending (built once).
    nuls: Vec<u32>,
    /// Per string (index into `nuls`): where its valid UTF-8 tail starts, and that tail.
    checked: HashMap<usize, (usize, &'a str)>,
}

impl<'a> Names<'a> {
    fn new(table: &'a [u8], file_offset: u64) -> Names<'a> {
        Names {
            table,
            file_offset,
            nuls: memchr::memchr_iter(0, table).map(|p| p as u32).collect(),
            checked: HashMap::new(),
        }
    }

    fn get(&mut self, at: u32) -> Result<&'a str, String> {
        let at = at as usize;
        if at == 0 && self.table.is_empty() {
            // No string table at all: every entry is unnamed.
            return Ok("");
        }
        if at >= self.table.len() {
            return Err(format!(
                "name offset {at:#x} lies outside its string table ({:#x} bytes at file offset {:#x})",
                self.table.len(),
                self.file_offset
            ));
        }
        let string = self.nuls.partition_point(|&nul| (nul as usize) < at);
        let Some(&end) = self.nuls.get(string) else {
            return Err(format!(
                "name at file offset {:#x} has no NUL terminator",
                self.file_offset + at as u64
            ));
        };
        let end = end as usize;
        let table = self.table;
        let (tail_start, tail) = *self.checked.entry(string).or_insert_with(|| {
            let start = if string == 0 {
                0
            } else {
                self.nuls[string - 1] as usize + 1
            };
            valid_tail(&table[start..end], start)
        });
        let not_utf8 = || {
            format!(
                "name at file offset {:#x} is not UTF-8",
                self.file_offset + at as u64
            )
        };
        let rel = at.checked_sub(tail_start).ok_or_else(not_utf8)?;
        tail.get(rel..).ok_or_else(not_utf8)
    }
}

/// The longest suffix of `bytes` that is valid UTF-8, and where it starts
/// (`base` is the offset of `bytes`). One pass over the string.
fn valid_tail(bytes: &[u8], base: usize) -> (usize, &str) {
    let mut from = 0;
    loop {
        match std::str::from_utf8(&bytes[from..]) {
            Ok(s) => return (base + from, s),
            Err(e) => {
                from += e.valid_up_to()
                    + e.error_len()
                        .unwrap_or(bytes.len() - from - e.valid_up_to())
            }
        }
    }
}

/// A copy of some bytes starting at an 8-byte aligned address.
struct AlignedCopy {
    buf: Vec<u8>,
    start: usize,
}

impl AlignedCopy {
    fn new(data: &[u8]) -> Self {
        let mut buf = vec![0u8; data.len() + 8];
        let start = buf.as_ptr().align_offset(8).min(8);
        buf[start..start + data.len()].copy_from_slice(data);
        AlignedCopy { buf, start }
    }
    fn bytes(&self) -> &[u8] {
        &self.buf[self.start..self.buf.len() - (8 - self.start)]
    }
}

/// `data` is what `object` parses (aligned); `orig` has the same bytes and is
/// what the returned slices point into.
fn parse_as<'a, H: FileHeader<Endian = Endianness>>(
    data: &[u8],
    orig: &'a [u8],
    what: &str,
    class: ElfClass,
) -> Result<ElfView<'a>, ElfError> {
    let err = |structure: &'static str, message: String| ElfError {
        what: what.to_owned(),
        structure,
        message,
    };
    let header = H::parse(data).map_err(|e| {
        err(
            "file header",
            format!("{e} (the ELF image is {:#x} bytes)", data.len()),
        )
    })?;
    let endian = header
        .endian()
        .map_err(|e| err("file header", e.to_string()))?;
    if endian != Endianness::Little {
        return Err(err(
            "file header",
            "big-endian ELF; AMD binaries are little endian".into(),
        ));
    }
    let ident = header.e_ident();
    let table = header
        .sections(endian, data)
        .map_err(|e| {
            let off: u64 = header.e_shoff(endian).into();
            err(
                "section headers",
                format!(
                    "{e} (e_shoff {off:#x}, e_shnum {}, e_shentsize {}, e_shstrndx {}; the ELF image is {:#x} bytes)",
                    header.e_shnum(endian),
                    header.e_shentsize(endian),
                    header.e_shstrndx(endian),
                    data.len()
                ),
            )
        })?;
    if table.len() > limits::MAX_SECTIONS {
        return Err(err(
            "section headers",
            format!(
                "{} sections, more than the limit of {}",
                table.len(),
                limits::MAX_SECTIONS
            ),
        ));
    }
    // Sections first (their bytes are slices of `orig`), names after, from the
    // string tables among them.
    let mut sections = Vec::with_capacity(table.len());
    let mut name_offsets = Vec::with_capacity(table.len());
    for (index, sh) in table.iter().enumerate() {
        let kind = sh.sh_type(endian);
        let offset: u64 = sh.sh_offset(endian).into();
        let data = if kind == elf::SHT_NOBITS {
            &[][..]
        } else {
            let d = sh.data(endian, data).map_err(|_| {
                let size: u64 = sh.sh_size(endian).into();
                err(
                    "section headers",
                    format!(
                        "section {index} claims bytes {offset:#x}..{:#x}, beyond the end of the file ({:#x})",
                        offset.saturating_add(size),
                        data.len()
                    ),
                )
            })?;
            &orig[offset as usize..offset as usize + d.len()]
        };
        name_offsets.push(sh.sh_name(endian));
        sections.push(Section {
            index,
            name: "",
            kind,
            offset,
            size: sh.sh_size(endian).into(),
            align: sh.sh_addralign(endian).into(),
            data,
        });
    }
    if !sections.is_empty() {
        let shstrndx = header
            .shstrndx(endian, data)
            .map_err(|e| err("section name", e.to_string()))? as usize;
        let table = sections.get(shstrndx).ok_or_else(|| {
            err(
                "section name",
                format!(
                    "e_shstrndx {shstrndx} names no section ({} sections)",
                    sections.len()
                ),
            )
        })?;
        let mut names = Names::new(table.data, table.offset);
        for (index, &at) in name_offsets.iter().enumerate() {
            let name = names
                .get(at)
                .map_err(|e| err("section name", format!("section {index}: {e}")))?;
            sections[index].name = name;
        }
    }
    let mut symbols = Vec::new();
    if let Ok(symtab) = table.symbols(endian, data, elf::SHT_SYMTAB) {
        if symtab.len() > limits::MAX_SYMBOLS {
            return Err(err(
                "symbol table",
                format!(
                    "{} symbols, more than the limit of {}",
                    symtab.len(),
                    limits::MAX_SYMBOLS
                ),
            ));
        }
        let strings = sections
            .get(symtab.string_section().0)
            .map_or((&[][..], 0), |s| (s.data, s.offset));
        let mut names = Names::new(strings.0, strings.1);
        symbols.reserve(symtab.len());
        for sym in symtab.iter() {
            let name = names
                .get(sym.st_name(endian))
                .map_err(|e| err("symbol table", format!("symbol {}: {e}", symbols.len())))?;
            symbols.push(Symbol {
                name,
                section: sym.st_shndx(endian) as usize,
                value: sym.st_value(endian).into(),
                size: sym.st_size(endian).into(),
                kind: sym.st_type(),
            });
        }
    } else {
        return Err(err(
            "symbol table",
            "cannot read the symbol table or its string table".into(),
        ));
    }
    let mut segments = Vec::new();
    let phdrs = header.program_headers(endian, data).map_err(|e| {
        let off: u64 = header.e_phoff(endian).into();
        err(
            "program headers",
            format!(
                "{e} (e_phoff {off:#x}, e_phnum {}, e_phentsize {}; the ELF image is {:#x} bytes)",
                header.e_phnum(endian),
                header.e_phentsize(endian),
                data.len()
            ),
        )
    })?;
    if phdrs.len() > limits::MAX_SEGMENTS {
        return Err(err(
            "program headers",
            format!(
                "{} program headers, more than the limit of {}",
                phdrs.len(),
                limits::MAX_SEGMENTS
            ),
        ));
    }
    for (i, ph) in phdrs.iter().enumerate() {
        let offset: u64 = ph.p_offset(endian).into();
        let seg = ph.data(endian, data).map_err(|_| {
            let size: u64 = ph.p_filesz(endian).into();
            err(
                "program headers",
                format!(
                    "program header {i} claims bytes {offset:#x}..{:#x}, beyond the end of the file ({:#x})",
                    offset.saturating_add(size),
                    data.len()
                ),
            )
        })?;
        let seg = &orig[offset as usize..offset as usize + seg.len()];
        segments.push(Segment {
            kind: ph.p_type(endian),
            offset,
            data: seg,
        });
    }
    Ok(ElfView {
        class,
        os_abi: ident.os_abi,
        abi_version: ident.abi_version,
        file_type: header.e_type(endian),
        machine: header.e_machine(endian),
        flags: header.e_flags(endian),
        sections,
        symbols,
        segments,
    })
}
