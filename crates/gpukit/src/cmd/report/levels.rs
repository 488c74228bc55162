//! A vISA kernel's other levels: the OpenCL source it was compiled from and the Gen
//! assembly IGC made of it, found beside it in a shader-dump folder (or named with
//! `--source`, `--asm`), and how their lines correspond to the vISA listing's.
//!
//! - Source lines: the vISA `FILE` and `LOC` instructions (written when the program is
//!   compiled with `-g`) say which line of which file the following instructions come
//!   from; `LOC 0` ends a line. The source shown is the first `FILE`'s; instructions
//!   under another file are not linked.
//! - Gen lines: IGC ends every Gen instruction of its `.asm` dump with `$N`, the index
//!   of the vISA instruction it was made from (labels, `FILE` and `LOC` counted, as
//!   `gpukit visa dis` numbers them).
//! - Spills: the Gen sends to scratch memory (`scratch block write` stores registers,
//!   a scratch read brings them back).

use crate::error::CmdError;
use gpukit_intel::asm_alloc;
use gpukit_report::{Levels, Mark, PressureDetail, Text};
use gpukit_visa::analysis::Liveness;
use gpukit_visa::isa::Opcode;
use gpukit_visa::{Operand, Routine};
use std::path::{Path, PathBuf};

/// The files of the other levels, as read.
#[derive(Default)]
pub(super) struct Dumps {
    pub source: Option<Text>,
    /// The `.asm`'s name, text and its register assignment (or why it has none).
    pub asm: Option<(String, String, Result<asm_alloc::Allocation, String>)>,
    /// What was looked for and not found.
    pub notes: Vec<String>,
}

/// Where the other levels of the vISA file `path` are: `source` and `asm` when given,
/// else beside it as IGC's shader dump or gpukit's corpus lays them out.
pub(super) fn find(
    path: &Path,
    source: Option<&Path>,
    asm: Option<&Path>,
) -> (Option<PathBuf>, Option<PathBuf>) {
    let asm = asm
        .map(Path::to_path_buf)
        .or_else(|| Some(path.with_extension("asm")).filter(|p| p.is_file()));
    let source = source
        .map(Path::to_path_buf)
        .or_else(|| source_candidates(path).into_iter().find(|p| p.is_file()));
    (source, asm)
}

/// The source files a dump may have beside it: IGC names its dumps
/// `OCL_asm<hash>[_<retry>]_simd<N>_<kernel>.visaasm` (1.0.x) or
/// `OCL_asm<hash>_simd<N>_entry_<n>.visaasm` (2.x) and the program's source
/// `OCL_asm<hash>.cl`; gpukit's corpus names a kernel `<clfile>__<kernel>.visaasm`, its
/// source `<clfile>.cl` beside it or in `../cl/`.
fn source_candidates(path: &Path) -> Vec<PathBuf> {
    let (Some(dir), Some(stem)) = (path.parent(), path.file_stem().and_then(|s| s.to_str())) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if let Some(rest) = stem.strip_prefix("OCL_asm") {
        let hash = rest.split('_').next().unwrap_or("");
        if !hash.is_empty() {
            out.push(dir.join(format!("OCL_asm{hash}.cl")));
        }
    }
    if let Some((clfile, _)) = stem.split_once("__") {
        out.push(dir.join(format!("{clfile}.cl")));
        out.push(dir.join("..").join("cl").join(format!("{clfile}.cl")));
    }
    out
}

/// Reads the files `find` named. A source or `.asm` that cannot be read fails the
/// page when it was asked for, and is a note when it was only found.
pub(super) fn read(source: Option<&Path>, asm: Option<&Path>) -> Result<Dumps, CmdError> {
    let mut dumps = Dumps::default();
    let name = |p: &Path| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    if let Some(p) = source {
        crate::input::declare(p);
        let text = crate::input::text(p, crate::input::read_any(p)?)?;
        dumps.source = Some(Text {
            name: name(p),
            // IGC's copy of the source ends in a NUL.
            lines: text
                .trim_end_matches('\0')
                .lines()
                .map(str::to_string)
                .collect(),
            marks: Vec::new(),
        });
    } else {
        dumps
            .notes
            .push("no OpenCL source found beside the file (give --source F.cl)".into());
    }
    if let Some(p) = asm {
        crate::input::declare(p);
        let bytes = crate::input::read_any(p)?;
        let format = crate::detect::detect(&bytes);
        if format != crate::detect::Format::IgcAsmDump {
            return Err(CmdError::Input(format!(
                "{}: this is {}, not IGC's Gen assembly dump (.asm)",
                crate::error::name(p),
                format.describe()
            )));
        }
        let text = crate::input::text(p, bytes)?;
        let alloc = asm_alloc::read(&text)
            .map_err(|e| format!("{}:{}:{}: {}", p.display(), e.line, e.column, e.message));
        dumps.asm = Some((name(p), text, alloc));
    } else {
        dumps
            .notes
            .push("no Gen assembly (.asm) found beside the file (give --asm F.asm)".into());
    }
    Ok(dumps)
}

/// Bytes of a GRF on the platform the `.asm` names.
pub(super) fn grf_bytes(dumps: &Dumps) -> Option<u32> {
    match &dumps.asm {
        Some((_, _, Ok(alloc))) if alloc.platform.is_some() => Some(alloc.grf_bytes),
        _ => None,
    }
}

/// Whether the dumps belong to the kernel `name`: the `.asm` names its kernel; without
/// one, the first kernel of the file.
pub(super) fn belongs(dumps: &Dumps, name: &str, first: bool) -> bool {
    match dumps.asm.as_ref().map(|(_, _, a)| a) {
        Some(Ok(alloc)) => alloc.kernel.as_deref().map_or(first, |k| k == name),
        _ => first,
    }
}

/// The levels of `routine`, whose instruction `i` is vISA listing line `line_of(i)`
/// (of `listing_len` lines), and the pressure series the `.asm` adds.
pub(super) fn levels(
    dumps: &Dumps,
    routine: &Routine,
    live: Option<&Liveness>,
    listing_len: usize,
    line_of: &dyn Fn(usize) -> usize,
) -> (Levels, Option<PressureDetail>) {
    let code = routine.code.instructions_or_empty();
    let mut levels = Levels {
        source: dumps.source.clone(),
        visa_source: vec![None; listing_len],
        notes: dumps.notes.clone(),
        ..Levels::default()
    };
    // Source lines from FILE and LOC.
    let (mut primary, mut active, mut line, mut located) = (None::<u32>, true, None, false);
    let mut walk = code.walk();
    while let Some((i, inst)) = walk.next_instruction() {
        let int = inst.operands.first().and_then(|o| match o {
            Operand::Int(v) => Some(*v),
            _ => None,
        });
        match inst.opcode {
            Opcode::FILE => {
                // The same name may be interned more than once; compare the text.
                let this = int.map(|s| routine.string_lossy(s));
                let first = primary.map(|s| routine.string_lossy(s));
                if primary.is_none() {
                    primary = int;
                }
                active = first.is_none() || this == first;
            }
            Opcode::LOC => {
                located = true;
                line = int.filter(|&l| l > 0).map(|l| l - 1);
            }
            _ => {}
        }
        if let Some(slot) = levels.visa_source.get_mut(line_of(i)) {
            if active && slot.is_none() {
                *slot = line;
            }
        }
    }
    if !located {
        levels.notes.push(
            "the vISA has no LOC lines (compile with -g for them): source lines are not linked"
                .into(),
        );
    }
    let mut detail = live.map(|l| PressureDetail {
        live_bytes: l.live_bytes.clone(),
        ..PressureDetail::default()
    });
    if let Some((name, text, alloc)) = &dumps.asm {
        let mut gen = Text {
            name: name.clone(),
            lines: Vec::new(),
            marks: Vec::new(),
        };
        let mut spills = Vec::new();
        for (n, l) in text.lines().enumerate() {
            let id = asm_alloc::visa_id(l).filter(|&id| (id as usize) < code.len());
            levels
                .gen_visa
                .push(id.map(|id| line_of(id as usize) as u32));
            if let Some(mark) = spill_mark(l) {
                gen.marks.push((n as u32, mark));
                if let Some(id) = id {
                    spills.push((id as usize, mark));
                }
            }
            gen.lines.push(l.to_string());
        }
        levels.gen = Some(gen);
        spills.sort_unstable_by_key(|s| s.0);
        match (alloc, live) {
            (Ok(alloc), Some(live)) => {
                let ids: Vec<Option<u32>> = (0..code.len()).map(|i| Some(i as u32)).collect();
                let cmp = crate::cmd::visa::pressure::compare(routine, live, alloc, Some(&ids));
                if let Some(d) = &mut detail {
                    d.physical_grfs = cmp.physical_grfs;
                    d.num_grf = Some(alloc.num_grf);
                    d.spills = spills;
                }
            }
            (Err(e), _) => levels
                .notes
                .push(format!("the .asm's register assignment is not read: {e}")),
            (Ok(_), None) => {}
        }
    }
    (levels, detail)
}

/// Whether a Gen line stores registers to scratch (a spill) or loads them back.
fn spill_mark(line: &str) -> Option<Mark> {
    let code = line.trim_start();
    if code.starts_with("//") || !line.contains("scratch") {
        return None;
    }
    let send = code
        .split_whitespace()
        .find(|w| !w.starts_with('('))
        .is_some_and(|m| m.starts_with("send"));
    if !send {
        return None;
    }
    if line.contains("spill") || line.contains("write") || line.contains("store") {
        Some(Mark::Spill)
    } else {
        Some(Mark::Fill)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spill_and_fill_sends() {
        let spill = "        send.dc0 (16|M0)  null r54 r8 0x80 0x020F1000 {@1,$0} // wr:1h+2, rd:0; hword scratch block write x2 //  scratch space spill:  from offset[0x32]; ; $60";
        let fill = "(W)     send.dc0 (16|M0)  r40 r8 null 0x0 0x024C1000 {$1} // wr:1h+0, rd:2; hword scratch block read x2 //  scratch space fill: ; $70";
        assert_eq!(spill_mark(spill), Some(Mark::Spill));
        assert_eq!(spill_mark(fill), Some(Mark::Fill));
        assert_eq!(spill_mark("// scratch space spill"), None);
        assert_eq!(
            spill_mark("        mov (8|M0) r1.0<1>:ud r2.0<1;1,0>:ud // $3"),
            None
        );
    }

    #[test]
    fn dump_and_corpus_names_lead_to_the_source() {
        let igc = source_candidates(Path::new("d/OCL_asmfc56e5b5_simd32_entry_0001.visaasm"));
        assert_eq!(igc, [PathBuf::from("d/OCL_asmfc56e5b5.cl")]);
        let corpus = source_candidates(Path::new("c/tgllp/l07_mathfn__mathfn.visaasm"));
        assert_eq!(
            corpus,
            [
                PathBuf::from("c/tgllp/l07_mathfn.cl"),
                PathBuf::from("c/tgllp/../cl/l07_mathfn.cl")
            ]
        );
    }
}
