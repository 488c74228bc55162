//! The register assignment in IGC's Gen assembly dumps (`.asm`, written beside the
//! `.visaasm` when shader dumps are on): the `//.declare` lines of the header say where
//! the finalizer put each vISA variable (a physical register and sub-register, a spill
//! slot in scratch, or nothing when it was optimised away), and a few header lines give
//! the register file (`numGRF`) and the spill size.
//!
//! Two header styles are read: IGC 1.0.5353's (`//.declare V0036 rf=r size=32 type=d
//! align=16 words (r7.0)`, the register count only in the options as `-TotalGRFNum`)
//! and IGC 1.0.12504 / 2.x's (a declaration id in parentheses after the name,
//! `//.thread_config numGRF=128, ...`, `//.spill size N`). The sub-register is counted
//! in elements of the declaration's type, so a variable starts at byte
//! `reg * grf + sub * type size`.
//!
//! ```
//! let text = "//.kernel k\n//.platform TGLLP\n\
//!             //.declare V0036 (46)  rf=r size=64 type=d align=16 words (r7.0)\n";
//! let alloc = gpukit_intel::asm_alloc::read(text).unwrap();
//! assert_eq!(alloc.variables[0].grf_bytes(alloc.grf_bytes), Some(224..288));
//! ```

use std::ops::Range;

/// Most declarations one dump may hold: far above what IGC writes for a kernel (tens
/// of thousands), and each costs a line of at least 20 bytes anyway.
pub const MAX_DECLARATIONS: usize = 1 << 20;

/// The register assignment of one kernel's `.asm`.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Allocation {
    /// `//.kernel`.
    pub kernel: Option<String>,
    /// `//.platform` as IGC spells it (`TGLLP`, `DG2`, `PVCXT`, ...).
    pub platform: Option<String>,
    /// GRFs the kernel was allocated in: `//.thread_config numGRF=`, else the options'
    /// `-TotalGRFNum`, else 128 (the default of every platform in these dumps).
    pub num_grf: u32,
    /// Bytes of one GRF on the platform (64 on PVC, 32 before).
    pub grf_bytes: u32,
    /// `//.spill size` (0 when the dump has none: nothing spilled).
    pub spill_bytes: u64,
    /// Every `//.declare`, in file order.
    pub variables: Vec<Declared>,
    /// The vISA instruction id (`$N` in each Gen instruction's comment) of every Gen
    /// instruction that names one, in code order: the order the finalizer scheduled
    /// the vISA instructions in.
    pub visa_ids: Vec<u32>,
    /// Per entry of `visa_ids`: the GRF numbers that Gen instruction's operands name
    /// (`r12.0<1>:f`; a send's `r26` counts with the 15 GRFs after it, its payload
    /// length not being resolved).
    pub grfs_named: Vec<Vec<u32>>,
}

/// One `//.declare` line.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Declared {
    /// The vISA variable's name (`V0036`, `%local_id_x`), empty for IGC's unnamed
    /// built-ins.
    pub name: String,
    /// 1-based line of the declaration.
    pub line: usize,
    /// Register file: `r` (GRF), `a` (address), `f` (flag), ...
    pub file: String,
    /// Bytes (`size=`).
    pub bytes: u32,
    /// Bytes of one element of `type=` (the unit of the sub-register).
    pub element_bytes: u32,
    /// `alias=NAME+OFFSET`: the declaration it is part of (empty name: an unnamed one)
    /// and the byte offset in it.
    pub alias: Option<(String, u32)>,
    pub place: Place,
}

/// Where the finalizer put a declaration.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Place {
    /// A physical register: file letter(s), register number, sub-register in elements.
    Register { file: String, reg: u32, sub: u32 },
    /// Spilled to scratch; `(GRF offset, GRF bytes)` of the slot when given.
    Spilled { slot: Option<(u32, u32)> },
    /// No placement printed (unused, or never allocated).
    Unplaced,
}

/// A line the reader cannot take, with its 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}:{column}: {message}")]
pub struct AllocError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl Declared {
    /// Bytes `[start, end)` of the GRF file this declaration occupies, for GRFs of
    /// `grf` bytes; `None` unless it is in a GRF.
    pub fn grf_bytes(&self, grf: u32) -> Option<Range<u64>> {
        match &self.place {
            Place::Register { file, reg, sub } if file == "r" => {
                let start = u64::from(*reg) * u64::from(grf)
                    + u64::from(*sub) * u64::from(self.element_bytes);
                Some(start..start + u64::from(self.bytes))
            }
            _ => None,
        }
    }
}

impl Allocation {
    /// The declaration named `name` (the first of equals).
    pub fn find(&self, name: &str) -> Option<&Declared> {
        self.variables.iter().find(|d| d.name == name)
    }
}

/// Reads the register assignment of an IGC `.asm` dump. The header facts (kernel,
/// platform, GRF mode, spill size) come from [`crate::asm_dump::read`], the one reader
/// of the header; this adds the `//.declare` lines and each Gen instruction's `$N`.
pub fn read(text: &str) -> Result<Allocation, AllocError> {
    let dump = crate::asm_dump::read(text).map_err(|e| AllocError {
        line: e.line,
        column: e.col,
        message: format!("{}: {}", e.field, e.message),
    })?;
    let mut alloc = Allocation {
        kernel: Some(dump.kernel),
        // `numGRF=` of `//.thread_config`, else the options' `-TotalGRFNum`, else
        // 128, the default of every platform in these dumps.
        num_grf: dump
            .num_grf
            .or(dump.total_grf_option)
            .filter(|&n| n > 0)
            .unwrap_or(128),
        grf_bytes: grf_bytes_of(dump.platform.as_deref().unwrap_or("")),
        platform: dump.platform,
        spill_bytes: dump.spill_bytes,
        ..Allocation::default()
    };
    for (n, line) in text.lines().enumerate() {
        let line_no = n + 1;
        let Some(rest) = line.strip_prefix("//.") else {
            if let Some(id) = visa_id(line) {
                alloc.visa_ids.push(id);
                alloc.grfs_named.push(grfs_named(line));
            }
            continue;
        };
        if let Some(d) = rest.strip_prefix("declare ") {
            let err = |col: usize, message: String| AllocError {
                line: line_no,
                column: col + 1,
                message,
            };
            if alloc.variables.len() >= MAX_DECLARATIONS {
                return Err(err(0, format!("more than {MAX_DECLARATIONS} declarations")));
            }
            let offset = line.len() - d.len();
            let decl = declaration(d, line_no).map_err(|(col, m)| err(offset + col, m))?;
            alloc.variables.push(decl);
        }
    }
    Ok(alloc)
}

/// GRF size of a platform as `//.platform` names it: 64 bytes from PVC on.
pub fn grf_bytes_of(platform: &str) -> u32 {
    let p = platform.to_ascii_uppercase();
    if p.starts_with("PVC")
        || p.starts_with("XE2")
        || p.starts_with("XE3")
        || p == "LNL"
        || p == "BMG"
    {
        64
    } else {
        32
    }
}

/// The `$N` of a Gen instruction line: in the comment after the instruction's text,
/// the first `$` + digits after a blank or `/`: `// $41 R{} ...` (1.0.12504, 2.x),
/// `//$1:&1:%16` (1.0.5353), `// wr:2+0, rd:2; untyped ... // $27` (sends),
/// `//  ALU pipe: float; $60` (2.x on DG2 and later). SBID tokens (`{$12.dst}`) come
/// before the comment.
pub fn visa_id(line: &str) -> Option<u32> {
    if line.starts_with("//") || line.trim().is_empty() {
        return None;
    }
    let comment = &line[line.find("//")?..];
    let bytes = comment.as_bytes();
    comment.match_indices('$').find_map(|(at, _)| {
        if at == 0 || !matches!(bytes[at - 1], b' ' | b'\t' | b'/') {
            return None;
        }
        let digits = &comment[at + 1..];
        let end = digits
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(digits.len());
        number(&digits[..end])
    })
}

/// The GRF numbers named before a Gen line's comment: `r` + digits not preceded by a
/// name character (`cr0`, `sr0`, `acc0` are other register files).
fn grfs_named(line: &str) -> Vec<u32> {
    let code = line.find("//").map_or(line, |at| &line[..at]);
    let bytes = code.as_bytes();
    // A send names only the first GRF of each payload: count the 15 after it too.
    let send = code
        .split_whitespace()
        .find(|w| !w.starts_with('('))
        .is_some_and(|m| m.starts_with("send"));
    let mut out = Vec::new();
    for (at, _) in code.match_indices('r') {
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
            continue;
        }
        let digits = &code[at + 1..];
        let end = digits
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(digits.len());
        if let Some(n) = number(&digits[..end]) {
            let span = if send { 16 } else { 1 };
            for g in n..n.saturating_add(span) {
                if !out.contains(&g) {
                    out.push(g);
                }
            }
        }
    }
    out
}

fn number(s: &str) -> Option<u32> {
    let s = s.trim();
    if s.is_empty() || s.len() > 10 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Bytes of an element of a declaration's `type=`.
fn element_bytes(ty: &str) -> Option<u32> {
    Some(match ty {
        "b" | "ub" => 1,
        "w" | "uw" | "hf" | "bf" => 2,
        "d" | "ud" | "f" => 4,
        "q" | "uq" | "df" => 8,
        _ => return None,
    })
}

/// One declaration after `//.declare `; errors carry the column in `d`.
fn declaration(d: &str, line: usize) -> Result<Declared, (usize, String)> {
    let col = |s: &str| s.as_ptr() as usize - d.as_ptr() as usize;
    let mut decl = Declared {
        name: String::new(),
        line,
        file: String::new(),
        bytes: 0,
        element_bytes: 0,
        alias: None,
        place: Place::Unplaced,
    };
    let mut words = d.split(' ').filter(|w| !w.is_empty()).peekable();
    // The name, unless the line goes straight to the id or the fields (unnamed).
    if let Some(&first) = words.peek() {
        if !first.starts_with('(') && !first.contains('=') {
            decl.name = first.to_string();
            words.next();
        }
    }
    let mut have = (false, false, false);
    while let Some(w) = words.next() {
        if let Some(inner) = w.strip_prefix('(') {
            if let Some(id) = inner.strip_suffix(')') {
                if number(id).is_some() {
                    continue; // the declaration's id (1.0.12504 and later)
                }
            }
            // The placement: the rest up to its `)`.
            let start = col(w);
            let mut end = start + w.len();
            let mut closed = w.ends_with(')');
            while !closed {
                let Some(next) = words.next() else { break };
                end = col(next) + next.len();
                closed = next.ends_with(')');
            }
            if !closed {
                return Err((start, "unclosed `(` in the placement".into()));
            }
            decl.place = placement(&d[start + 1..end - 1])
                .ok_or((start, format!("unknown placement `{}`", &d[start..end])))?;
            continue;
        }
        let Some((key, value)) = w.split_once('=') else {
            continue; // `words`, `IsBuiltin`, `Output`, ...
        };
        match key {
            "rf" => {
                decl.file = value.to_string();
                have.0 = true;
            }
            "size" => {
                decl.bytes = number(value).ok_or((col(w), format!("bad size `{value}`")))?;
                have.1 = true;
            }
            "type" => {
                decl.element_bytes =
                    element_bytes(value).ok_or((col(w), format!("unknown type `{value}`")))?;
                have.2 = true;
            }
            "alias" => {
                let (name, off) = value
                    .rsplit_once('+')
                    .ok_or((col(w), format!("alias `{value}` is not NAME+OFFSET")))?;
                let off = number(off).ok_or((col(w), format!("bad alias offset `{off}`")))?;
                decl.alias = Some((name.to_string(), off));
            }
            _ => {}
        }
    }
    match have {
        (false, _, _) => Err((0, "no `rf=`".into())),
        (_, false, _) => Err((0, "no `size=`".into())),
        (_, _, false) => Err((0, "no `type=`".into())),
        _ => Ok(decl),
    }
}

/// The inside of a placement: `r7.0`, `a0.2`, `f1.0`, `spilled`, `spilled -> `,
/// `spilled -> Scratch[20x32]`.
fn placement(p: &str) -> Option<Place> {
    if let Some(rest) = p.strip_prefix("spilled") {
        let slot = rest
            .trim()
            .strip_prefix("->")
            .map(str::trim)
            .and_then(|s| s.strip_prefix("Scratch["))
            .and_then(|s| s.strip_suffix(']'))
            .and_then(|s| s.split_once('x'))
            .and_then(|(a, b)| Some((number(a)?, number(b)?)));
        return Some(Place::Spilled { slot });
    }
    let split = p.find(|c: char| c.is_ascii_digit())?;
    let (file, nums) = p.split_at(split);
    if file.is_empty() || !file.bytes().all(|b| b.is_ascii_lowercase()) {
        return None;
    }
    let (reg, sub) = nums.split_once('.')?;
    Some(Place::Register {
        file: file.to_string(),
        reg: number(reg)?,
        sub: number(sub)?,
    })
}
