//! What kind of file a command was given, from its content alone (never its name), so
//! that every reader can say "this is X; `gpukit ...` reads it" instead of a parse error,
//! and `gpukit info` / `gpukit scan` can route each file to its reader.
//!
//! Detection looks at a bounded prefix (`SNIFF_BYTES`), so it costs the same for a
//! 4 KB and a 4 GB file.

use gpukit_amd::container::{self, BinaryKind};
use serde::Serialize;

/// How much of a text file detection reads: enough for IGC's comment header before
/// `.version`, and for the preamble of AMD IL before its first `;ARGSTART`.
pub(crate) const SNIFF_BYTES: usize = 64 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Intel vISA object (`CISA` magic).
    VisaBinary,
    /// Intel vISA assembly (`.visaasm`).
    VisaText,
    /// iga64 JSON listing, version 1.0.
    IgaJson1,
    /// iga64 JSON listing, version 2.0.
    IgaJson2,
    /// AMD Catalyst OpenCL 1.x GPU binary.
    AmdCl1,
    /// AMD Catalyst OpenCL 1.x CPU (x86) binary.
    AmdCl1Cpu,
    /// AMD Catalyst OpenCL 2.0 binary.
    AmdCl2,
    /// AMD IL program text (`il_cs_2_0` ... with its metadata blocks).
    AmdIl,
    /// AMD IL kernel metadata text (`;ARGSTART:` ... `;ARGEND:`) without IL code.
    AmdMetadata,
    /// Intel GPU program binary in zebin form (ELF, machine Intel GT).
    IntelZebin,
    /// Intel GPU program binary with patch tokens (IGC 1.0.x, `CTNI` magic).
    IntelPatchTokens,
    /// OpenCL C source.
    OpenClC,
    /// IGC's Gen assembly dump (`.asm` beside `.visaasm`, `//.kernel` header).
    IgcAsmDump,
    /// IGA assembly text as `iga64 -d` prints it (first line the label `L0:`).
    IgaText,
    /// LLVM IR text (`; ModuleID`, `target triple`).
    LlvmIr,
    /// LLVM bitcode (`BC\xC0\xDE`, or its wrapper `0x0B17C0DE`).
    LlvmBitcode,
    /// SPIR-V module (magic `0x07230203`, either byte order).
    SpirV,
    /// A file of zero bytes.
    Empty,
    /// An ELF file of another kind.
    OtherElf,
    /// Anything else.
    Unknown,
}

impl Format {
    /// A person's name for the format, as used in messages.
    pub fn describe(self) -> &'static str {
        match self {
            Format::VisaBinary => "a vISA binary (.isa)",
            Format::VisaText => "vISA assembly text",
            Format::IgaJson1 => "an IGA JSON 1.0 listing",
            Format::IgaJson2 => "an IGA JSON 2.0 listing",
            Format::AmdCl1 => "an AMD Catalyst OpenCL 1.x binary",
            Format::AmdCl1Cpu => "an AMD Catalyst OpenCL 1.x CPU binary",
            Format::AmdCl2 => "an AMD Catalyst OpenCL 2.0 binary",
            Format::AmdIl => "AMD IL program text",
            Format::AmdMetadata => "AMD IL kernel metadata text",
            Format::IntelZebin => "an Intel GPU program binary (zebin)",
            Format::IntelPatchTokens => "an Intel GPU program binary (patch tokens)",
            Format::OpenClC => "OpenCL C source",
            Format::IgcAsmDump => "an IGC Gen assembly dump (.asm)",
            Format::IgaText => "IGA assembly text (iga64 -d)",
            Format::LlvmIr => "LLVM IR text",
            Format::LlvmBitcode => "LLVM bitcode",
            Format::SpirV => "a SPIR-V module",
            Format::Empty => "an empty file",
            Format::OtherElf => "an ELF file of a kind gpukit does not read",
            Format::Unknown => "of unknown format",
        }
    }

    /// The commands that read this format, for "use this instead" messages.
    pub fn readers(self) -> &'static str {
        match self {
            Format::VisaBinary => "`gpukit visa info`, `visa dis`, `visa verify` or `visa gen` read it",
            Format::VisaText => "`gpukit visa asm`, `visa fmt` or `visa verify` read it",
            Format::IgaJson1 | Format::IgaJson2 | Format::IgaText => {
                "`gpukit iga print`, `iga convert`, `iga check`, `iga cfg`, `iga stats` or `iga pressure` read it"
            }
            Format::AmdCl1 | Format::AmdCl2 | Format::AmdCl1Cpu => {
                "`gpukit amd info` or `amd meta` read it"
            }
            Format::AmdIl => "`gpukit amd link` or `amd meta` read it",
            Format::AmdMetadata => "`gpukit amd meta` reads it",
            Format::OpenClC => "`gpukit amd args` reads it",
            Format::IntelZebin | Format::IntelPatchTokens => {
                "`gpukit intel info` reads it (and `visa run --binary` takes it)"
            }
            Format::IgcAsmDump => {
                "`gpukit info`, `gpukit scan`, `gpukit diff` and the `gpukit iga` commands read it"
            }
            Format::LlvmIr | Format::LlvmBitcode | Format::SpirV => {
                "no gpukit command reads it (compile it with `ocloc` first)"
            }
            Format::OtherElf | Format::Unknown | Format::Empty => "no gpukit command reads it",
        }
    }

    /// Whether the format holds GPU code or kernel facts gpukit reads; files of other
    /// formats are recorded by `scan` as skipped, not as errors.
    pub fn is_gpu(self) -> bool {
        !matches!(
            self,
            Format::OtherElf
                | Format::Unknown
                | Format::Empty
                | Format::LlvmIr
                | Format::LlvmBitcode
                | Format::SpirV
        )
    }

    /// The short name used in `--json` and `scan` rows.
    pub fn id(self) -> &'static str {
        match self {
            Format::VisaBinary => "visa-binary",
            Format::VisaText => "visa-text",
            Format::IgaJson1 => "iga-json-1",
            Format::IgaJson2 => "iga-json-2",
            Format::AmdCl1 => "amd-cl1",
            Format::AmdCl1Cpu => "amd-cl1-cpu",
            Format::AmdCl2 => "amd-cl2",
            Format::AmdIl => "amd-il",
            Format::AmdMetadata => "amd-metadata",
            Format::IntelZebin => "intel-zebin",
            Format::IntelPatchTokens => "intel-patch-tokens",
            Format::OpenClC => "opencl-c",
            Format::IgcAsmDump => "igc-asm-dump",
            Format::IgaText => "iga-text",
            Format::LlvmIr => "llvm-ir",
            Format::LlvmBitcode => "llvm-bitcode",
            Format::SpirV => "spirv",
            Format::Empty => "empty",
            Format::OtherElf => "other-elf",
            Format::Unknown => "unknown",
        }
    }
}

/// ELF `e_machine` of Intel GT (zebin).
const EM_INTELGT: u16 = 205;
/// Legacy Intel program binary header magic, 'CTNI' read as a little-endian u32.
const INTEL_PATCH_TOKENS_MAGIC: &[u8; 4] = b"CTNI";

/// SPIR-V's magic number, the module's first word.
const SPIRV_MAGIC: u32 = 0x0723_0203;

/// Classifies `bytes` by content.
pub fn detect(bytes: &[u8]) -> Format {
    if bytes.is_empty() {
        return Format::Empty;
    }
    if bytes.starts_with(b"BC\xC0\xDE") || bytes.starts_with(b"\xDE\xC0\x17\x0B") {
        return Format::LlvmBitcode;
    }
    if bytes.starts_with(&SPIRV_MAGIC.to_le_bytes())
        || bytes.starts_with(&SPIRV_MAGIC.to_be_bytes())
    {
        return Format::SpirV;
    }
    if bytes.starts_with(b"CISA") {
        return Format::VisaBinary;
    }
    if bytes.starts_with(INTEL_PATCH_TOKENS_MAGIC) {
        return Format::IntelPatchTokens;
    }
    if bytes.starts_with(b"\x7fELF") {
        return match container::detect(bytes) {
            BinaryKind::Cl1Gpu { .. } => Format::AmdCl1,
            BinaryKind::Cl1Cpu { .. } => Format::AmdCl1Cpu,
            BinaryKind::Cl2 { .. } => Format::AmdCl2,
            BinaryKind::OtherElf { machine, .. } if machine == EM_INTELGT => Format::IntelZebin,
            BinaryKind::OtherElf { .. } | BinaryKind::NotElf => Format::OtherElf,
        };
    }
    let head = &bytes[..bytes.len().min(SNIFF_BYTES)];
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    detect_text(head)
}

fn detect_text(head: &[u8]) -> Format {
    // Before vISA text: a dump's header is `//.` comments, which `first_token` skips.
    if gpukit_intel::asm_dump::looks_like(head) {
        return Format::IgcAsmDump;
    }
    if head.starts_with(b"; ModuleID")
        || line_starts_with(head, b"target triple = ")
        || line_starts_with(head, b"target datalayout = ")
        // IGC's `K.visa.ll` dump: a `;` banner, then the kernel (a line of OpenCL C
        // does not start so).
        || line_starts_with(head, b"define spir_")
    {
        return Format::LlvmIr;
    }
    let first = first_token(head);
    if is_iga_label_line(head) {
        return Format::IgaText;
    }
    if first.first() == Some(&b'{') {
        return match json_version(head) {
            Some(b"1.0") => Format::IgaJson1,
            Some(b"2.0") => Format::IgaJson2,
            _ => Format::Unknown,
        };
    }
    if first.starts_with(b"il_") {
        return Format::AmdIl;
    }
    if first.starts_with(b";ARGSTART:") {
        return if contains(head, b"\nil_") {
            Format::AmdIl
        } else {
            Format::AmdMetadata
        };
    }
    if matches!(
        first,
        b".version" | b".kernel" | b".function" | b".global_function" | b".decl"
    ) || first.starts_with(b".kernel_attr")
    {
        return Format::VisaText;
    }
    // IGC's dumps and hand-written vISA may open with comments: look for a directive
    // at the start of a line.
    if line_starts_with(head, b".version ") || line_starts_with(head, b".kernel ") {
        return Format::VisaText;
    }
    if line_starts_with(head, b";ARGSTART:") {
        return Format::AmdMetadata;
    }
    if contains(head, b"__kernel") || contains(head, b"kernel void") {
        return Format::OpenClC;
    }
    Format::Unknown
}

/// `iga64 -d` opens every listing with the label of PC 0 on a line of its own.
fn is_iga_label_line(head: &[u8]) -> bool {
    let line = head.split(|&b| b == b'\n').next().unwrap_or_default();
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    line.strip_prefix(b"L")
        .and_then(|r| r.strip_suffix(b":"))
        .is_some_and(|d| !d.is_empty() && d.iter().all(u8::is_ascii_digit))
}

/// The first whitespace-delimited token after blank space and `//` comments.
fn first_token(mut s: &[u8]) -> &[u8] {
    loop {
        while let [c, rest @ ..] = s {
            if c.is_ascii_whitespace() {
                s = rest;
            } else {
                break;
            }
        }
        if s.starts_with(b"//") {
            s = match memchr::memchr(b'\n', s) {
                Some(i) => &s[i + 1..],
                None => &[],
            };
            continue;
        }
        let end = s
            .iter()
            .position(|c| c.is_ascii_whitespace())
            .unwrap_or(s.len());
        return &s[..end];
    }
}

/// The value of the top-level `"version"` member if it appears in the prefix.
fn json_version(head: &[u8]) -> Option<&[u8]> {
    let at = memchr::memmem::find(head, b"\"version\"")?;
    let rest = &head[at + 9..];
    let colon = rest.iter().position(|&c| !c.is_ascii_whitespace())?;
    let rest = rest[colon..].strip_prefix(b":")?;
    let start = rest.iter().position(|&c| !c.is_ascii_whitespace())?;
    let rest = rest[start..].strip_prefix(b"\"")?;
    let end = memchr::memchr(b'"', rest)?;
    Some(&rest[..end])
}

fn contains(head: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(head, needle).is_some()
}

fn line_starts_with(head: &[u8], prefix: &[u8]) -> bool {
    head.starts_with(prefix)
        || memchr::memmem::find_iter(head, prefix).any(|i| head[i - 1] == b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_formats() {
        assert_eq!(detect(b".version 4.1\n.kernel \"k\"\n"), Format::VisaText);
        assert_eq!(
            detect(b"\xEF\xBB\xBF// comment\n.version 3.6\n"),
            Format::VisaText
        );
        assert_eq!(
            detect(b"{\n  \"version\":\"2.0\",  \"platform\":\"xehpg\""),
            Format::IgaJson2
        );
        assert_eq!(detect(b"{\"version\" : \"1.0\"}"), Format::IgaJson1);
        assert_eq!(detect(b"il_cs_2_0\ndcl_cb cb0[10]\n"), Format::AmdIl);
        assert_eq!(
            detect(b";ARGSTART:__OpenCL_k_kernel\n;version:3:1:111\n"),
            Format::AmdMetadata
        );
        assert_eq!(
            detect(b"__kernel void k(global int *p) { *p = 1; }"),
            Format::OpenClC
        );
        assert_eq!(detect(b"CISA\x04\x01"), Format::VisaBinary);
        assert_eq!(detect(b"hello"), Format::Unknown);
        assert_eq!(detect(b""), Format::Empty);
        assert_eq!(
            detect(b"//.kernel k\n//.platform TGLLP\n"),
            Format::IgcAsmDump
        );
        assert_eq!(
            detect(b"; ModuleID = 'k.cl'\nsource_filename = \"k.cl\"\n"),
            Format::LlvmIr
        );
        assert_eq!(
            detect(b"source_filename = \"k\"\ntarget triple = \"spir64\"\n"),
            Format::LlvmIr
        );
        assert_eq!(
            detect(b"; ----\n; K.visa.ll\n; ----\ndefine spir_kernel void @k() {\n"),
            Format::LlvmIr
        );
        assert_eq!(detect(b"BC\xC0\xDE\x35\x14"), Format::LlvmBitcode);
        assert_eq!(detect(b"\x03\x02\x23\x07\x00\x00\x01\x00"), Format::SpirV);
        assert_eq!(detect(b"\x07\x23\x02\x03"), Format::SpirV);
        assert_eq!(detect(b".version"), Format::VisaText);
    }
}
