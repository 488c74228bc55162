//! IGC's Gen assembly dumps (`OCL_asm*.asm`, `IGC_ShaderDumpEnable=1`): the facts a
//! build comparison needs from the header IGC writes above the listing, and counts
//! over the listing itself.
//!
//! ```text
//! //.kernel saxpy_like
//! //.platform TGLLP
//! //.thread_config numGRF=128, numAcc=2, numSWSB=16
//! //.instCount 564
//! //.RA type GRAPH_COLORING_SPILL_FF_BC_RA
//! //.spill size 704
//! //.declare V0033 (43)  rf=r size=32 type=d alias=+0 align=16 words (r3.0)
//! ...
//! (W)     send.dc0 (8|M0)   r105  r3  null  0x0  0x0219E000  {$8} // ...; $108
//! L1352:
//! ```
//!
//! The header's `//.` lines are `key value` facts; the listing is one Gen instruction
//! per line, `NAME:` labels between, `//` comments anywhere. The reader is one pass
//! over the lines with no recursion and memory bounded by a constant (send kinds are
//! few; past [`MAX_SEND_KINDS`] they are counted as `other`).

use std::collections::BTreeMap;

/// Distinct send kinds (SFIDs) kept by name; more are counted under `other`.
pub const MAX_SEND_KINDS: usize = 32;
/// Longest send-kind name kept; longer ones are counted under `other`.
const MAX_KIND_LEN: usize = 16;

/// What a dump says about one kernel's Gen code.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct AsmDump {
    /// `//.kernel NAME`.
    pub kernel: String,
    /// `//.platform NAME` (e.g. `TGLLP`).
    pub platform: Option<String>,
    /// `//.vISA version M.N`: the vISA version the Gen code was compiled from.
    pub visa_version: Option<String>,
    /// `numGRF=` of `//.thread_config`: the GRF mode the kernel was allocated in.
    pub num_grf: Option<u32>,
    /// `-TotalGRFNum N` of `//.full_options`: the GRF count IGC asked for, which
    /// IGC 1.0.x dumps state instead of a `//.thread_config` line.
    pub total_grf_option: Option<u32>,
    /// `//.instCount`: the instruction count IGC states (before its final passes).
    pub stated_instructions: Option<u64>,
    /// `//.RA type`: the register allocator that succeeded.
    pub register_allocator: Option<String>,
    /// `//.spill size`: scratch bytes of spilled registers (0 when the line is absent).
    pub spill_bytes: u64,
    /// Instruction lines of the listing.
    pub instructions: u64,
    /// Label lines of the listing.
    pub labels: u64,
    /// Send instructions (`send`, `sendc`, `sends`, `sendsc`) by kind: the SFID after
    /// the mnemonic's dot (`send.dc0` -> `dc0`, `send.ugm` -> `ugm`), `-` when none.
    pub sends: BTreeMap<String, u64>,
}

impl AsmDump {
    pub fn send_count(&self) -> u64 {
        self.sends.values().sum()
    }
}

/// Why a text is not a dump, or which header fact is malformed: 1-based line and
/// column, and the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {field}: {message}")]
pub struct AsmDumpError {
    pub line: usize,
    pub col: usize,
    pub field: &'static str,
    pub message: String,
}

/// Whether `bytes` start like a dump (`//.kernel `, after an optional BOM): the
/// content check a directory walk makes before reading a `.asm` file.
pub fn looks_like(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    bytes.starts_with(b"//.kernel ")
}

/// Reads a dump's header facts and counts its listing.
pub fn read(text: &str) -> Result<AsmDump, AsmDumpError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut dump = AsmDump::default();
    let mut saw_kernel = false;
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.trim();
        if let Some(fact) = line.strip_prefix("//.") {
            let col = raw.len() - raw.trim_start().len() + 4;
            header_fact(&mut dump, fact, line_no, col, &mut saw_kernel)?;
            continue;
        }
        if !saw_kernel {
            if line.is_empty() || line.starts_with("//") {
                continue;
            }
            return Err(AsmDumpError {
                line: line_no,
                col: 1,
                field: "kernel",
                message: "no `//.kernel NAME` line before the listing: not an IGC asm dump".into(),
            });
        }
        let code = match line.find("//") {
            Some(at) => line[..at].trim_end(),
            None => line,
        };
        if code.is_empty() {
            continue;
        }
        if is_label(code) {
            dump.labels += 1;
            continue;
        }
        dump.instructions += 1;
        let mnemonic = mnemonic(code);
        let (op, kind) = mnemonic.split_once('.').unwrap_or((mnemonic, "-"));
        if matches!(op, "send" | "sendc" | "sends" | "sendsc") {
            let known = dump.sends.contains_key(kind);
            let key = if known || (dump.sends.len() < MAX_SEND_KINDS && kind.len() <= MAX_KIND_LEN)
            {
                kind
            } else {
                "other"
            };
            *dump.sends.entry(key.to_owned()).or_insert(0) += 1;
        }
    }
    if !saw_kernel {
        return Err(AsmDumpError {
            line: 1,
            col: 1,
            field: "kernel",
            message: "no `//.kernel NAME` line: not an IGC asm dump".into(),
        });
    }
    Ok(dump)
}

fn header_fact(
    dump: &mut AsmDump,
    fact: &str,
    line: usize,
    col: usize,
    saw_kernel: &mut bool,
) -> Result<(), AsmDumpError> {
    let err = |field, message: String| AsmDumpError {
        line,
        col,
        field,
        message,
    };
    let (key, value) = match fact.split_once([' ', '\t']) {
        Some((k, v)) => (k, v.trim()),
        None => (fact, ""),
    };
    match key {
        "kernel" if !*saw_kernel => {
            if value.is_empty() {
                return Err(err("kernel", "empty kernel name".into()));
            }
            dump.kernel = value.to_owned();
            *saw_kernel = true;
        }
        "platform" => dump.platform = Some(value.to_owned()),
        "full_options" => {
            dump.total_grf_option = value
                .split_once("-TotalGRFNum ")
                .and_then(|(_, rest)| number(rest.split(' ').next().unwrap_or("")));
        }
        "vISA" => {
            if let Some(v) = value.strip_prefix("version") {
                dump.visa_version = Some(v.trim().to_owned());
            }
        }
        "thread_config" => {
            let grf = value
                .split(',')
                .find_map(|p| p.trim().strip_prefix("numGRF="))
                .ok_or_else(|| err("thread_config", format!("no numGRF= in `{}`", clip(value))))?;
            dump.num_grf = Some(
                number(grf)
                    .ok_or_else(|| err("numGRF", format!("`{}` is not a GRF count", clip(grf))))?,
            );
        }
        "instCount" => {
            dump.stated_instructions = Some(
                number(value)
                    .ok_or_else(|| err("instCount", format!("`{}` is not a count", clip(value))))?,
            )
        }
        "RA" => {
            let ra = value.strip_prefix("type").map_or(value, str::trim);
            dump.register_allocator = Some(ra.to_owned());
        }
        "spill" => {
            if let Some(size) = value.strip_prefix("size") {
                dump.spill_bytes = number(size.trim()).ok_or_else(|| {
                    err(
                        "spill size",
                        format!("`{}` is not a byte count", clip(size)),
                    )
                })?;
            }
        }
        _ => {}
    }
    Ok(())
}

fn number<T: std::str::FromStr>(s: &str) -> Option<T> {
    let s = s.trim();
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// A short, printable window of a header value for messages.
fn clip(s: &str) -> String {
    s.chars()
        .take(40)
        .flat_map(char::escape_debug)
        .collect::<String>()
}

/// `NAME:` alone on a line.
fn is_label(code: &str) -> bool {
    code.strip_suffix(':').is_some_and(|name| {
        !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'.')
    })
}

/// The mnemonic of an instruction line: the first word after the leading
/// predicate/mask groups (`(W)`, `(W&~f0.0)`, `(f1.0.any16h)`).
fn mnemonic(code: &str) -> &str {
    let mut rest = code.trim_start();
    while let Some(group) = rest.strip_prefix('(') {
        rest = match group.find(')') {
            Some(end) => group[end + 1..].trim_start(),
            None => return "",
        };
    }
    rest.split(|c: char| c.is_whitespace() || c == '(')
        .next()
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    const DUMP: &str = "//.kernel k\n//.platform TGLLP\n//.vISA version 3.6\n//.full_options \"-a -TotalGRFNum 128 -b\"\n//.thread_config numGRF=256, numAcc=4\n\
        //.instCount 5\n//.RA type\tGRAPH_COLORING_SPILL_FF_BC_RA\n//.spill size 704\n\n\
        //.declare V1 (1) rf=r size=4\n(W)  mov (8|M0)  r1.0<1>:ud  r0.0<8;8,1>:ud // $1\n\
        L16:\n(W&~f0.0) send.dc0 (8|M0) null r1 null 0x0 0x0 {$1} // wr:1\n\
        sendc.ugm (16|M0) r2 r3 null 0x0 0x0 // x\n  send (1|M0) null r127 // eot\n// tail\n";

    #[test]
    fn reads_header_and_listing() {
        let d = read(DUMP).unwrap();
        assert_eq!(d.kernel, "k");
        assert_eq!(d.platform.as_deref(), Some("TGLLP"));
        assert_eq!(d.visa_version.as_deref(), Some("3.6"));
        assert_eq!(d.total_grf_option, Some(128));
        assert_eq!(d.num_grf, Some(256));
        assert_eq!(d.stated_instructions, Some(5));
        assert_eq!(
            d.register_allocator.as_deref(),
            Some("GRAPH_COLORING_SPILL_FF_BC_RA")
        );
        assert_eq!(d.spill_bytes, 704);
        assert_eq!(d.instructions, 4);
        assert_eq!(d.labels, 1);
        assert_eq!(d.send_count(), 3);
        assert_eq!(d.sends.get("dc0"), Some(&1));
        assert_eq!(d.sends.get("ugm"), Some(&1));
        assert_eq!(d.sends.get("-"), Some(&1));
    }

    #[test]
    fn rejects_what_is_not_a_dump() {
        let e = read("mov (8) r1 r2\n").unwrap_err();
        assert_eq!((e.line, e.field), (1, "kernel"));
        let e = read("//.kernel k\n//.thread_config numGRF=x\n").unwrap_err();
        assert_eq!((e.line, e.col, e.field), (2, 4, "numGRF"));
        assert!(!looks_like(b"mov"));
        assert!(looks_like(b"\xEF\xBB\xBF//.kernel k"));
    }

    #[test]
    fn send_kinds_are_bounded() {
        let mut text = String::from("//.kernel k\n");
        for i in 0..100 {
            text.push_str(&format!("send.k{i} (1|M0) null r1\n"));
        }
        let d = read(&text).unwrap();
        assert_eq!(d.sends.len(), MAX_SEND_KINDS + 1);
        assert_eq!(d.send_count(), 100);
    }
}
