//! Where IGC's Gen code first departs from its vISA: `--compare`'s locating step.
//!
//! When the Gen code's buffers differ from the vISA's, both run again from the same
//! launch and memory, the vISA engine reporting each instruction's destination
//! variable after it ran ([`gpukit_visa::interp::run_stepped`]) and the Gen engine
//! its register file after each instruction ([`crate::RunOptions::trace`]). IGC's
//! dump says which vISA instruction each Gen instruction comes from (`// $N`) and
//! where each vISA variable lives (`//.declare ... (r7.0)`): after a Gen instruction
//! from `$N` writes bytes of `$N`'s destination variable, those bytes must equal the
//! vISA variable's after the same execution (the k-th in that thread) of `$N`. The
//! first Gen instruction whose bytes do not is the place.
//!
//! Only the last Gen instruction of `$N` (in code order) writing given bytes of the
//! variable is checked, so a value the finalizer builds in steps (a `mul` into the
//! destination, then an `add` to it) is looked at when complete. Variables the
//! finalizer spilled, and destinations written indirectly, are not followed.

use crate::lower::Program;
use crate::run::{run, RunOptions, TraceStep};
use gpukit_iga::model::{Instruction, Listing, OperandKind};
use gpukit_visa::interp::{run_stepped, Launch, Memory, Options, Step};
use gpukit_visa::isa::Type;
use gpukit_visa::limits::PREDEFINED_VARS;
use gpukit_visa::model::Routine;
use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;

/// What the `.asm` dump tells about the Gen code: per Gen instruction (in listing
/// order) the vISA instruction it comes from, and where each vISA variable lives.
pub struct Placement {
    /// `$N` of each instruction of the listing, `None` where the dump names none.
    pub visa_ids: Vec<Option<u32>>,
    /// vISA variable name (`V0047`) to its bytes in the Gen register file.
    pub variables: HashMap<String, Range<u64>>,
}

/// The first place the Gen code's values depart from the vISA's.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Departure {
    /// The vISA instruction (`$N`).
    pub visa: u32,
    /// Its destination variable.
    pub variable: String,
    /// The Gen instruction (index among the listing's instructions) that wrote it.
    pub gen_instruction: usize,
    pub group: [u32; 3],
    pub thread: u32,
    /// Which execution of `$N` in that thread (0 = the first).
    pub execution: usize,
    /// The first differing byte, as an offset in the variable.
    pub byte: u64,
    /// The variable's bytes the Gen instruction wrote, as the vISA engine has them and
    /// as the Gen engine has them.
    pub expected: Vec<u8>,
    pub got: Vec<u8>,
}

impl std::fmt::Display for Departure {
    /// `$9 (V0051) first differs at Gen instruction #12, work-group 0,0,0 thread 0
    /// (execution 0 of $9), byte 4 of the variable: vISA 0x00000005, Gen 0x00000006`:
    /// the dword (of the bytes compared) holding the first differing byte.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let k = self
            .expected
            .iter()
            .zip(&self.got)
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        // The dword holding it, as a little-endian value (bytes when fewer are compared).
        let window = |v: &[u8]| -> String {
            let from = k / 4 * 4;
            let bytes = &v[from.min(v.len())..(from + 4).min(v.len())];
            match <[u8; 4]>::try_from(bytes) {
                Ok(d) => format!("{:#010x}", u32::from_le_bytes(d)),
                Err(_) => bytes.iter().map(|b| format!("{b:02x}")).collect(),
            }
        };
        let [x, y, z] = self.group;
        write!(
            f,
            "${n} ({var}) first differs at Gen instruction #{i}, work-group {x},{y},{z} thread {t} (execution {e} of ${n}), byte {b} of the variable: vISA {want}, Gen {got}",
            n = self.visa,
            var = self.variable,
            i = self.gen_instruction,
            t = self.thread,
            e = self.execution,
            b = self.byte,
            want = window(&self.expected),
            got = window(&self.got),
        )
    }
}

/// `$N` of each instruction of an IGC `.asm` dump, in the order the assembly reader
/// numbers instructions (every line with code that is not a label): the last
/// `$digits` in the line's comment (`// $17`, `//  memory fence commit; $17`).
pub fn visa_ids(text: &str) -> Vec<Option<u32>> {
    let mut ids = Vec::new();
    for line in text.lines() {
        let code_end = line.find("//").unwrap_or(line.len());
        let code = line[..code_end].trim();
        if code.is_empty() || code.ends_with(':') {
            continue;
        }
        let comment = &line[code_end..];
        let id = comment.rfind('$').and_then(|k| {
            let digits: &str = &comment[k + 1..];
            let end = digits
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(digits.len());
            digits[..end].parse().ok()
        });
        ids.push(id);
    }
    ids
}

/// Bytes one Gen instruction's direct destination covers, per instruction channel:
/// `(first byte, element bytes, stride bytes)`, or `None` for other destinations.
fn destination(inst: &Instruction, grf: u64) -> Option<(u64, u64, u64)> {
    let dst = inst.dst.as_deref()?;
    let OperandKind::Direct(r) = &dst.kind else {
        return None;
    };
    if r.reg.name != "r" {
        return None;
    }
    let size = Type::from_name(r.ty.as_deref()?)?.size()? as u64;
    // Listing numbers are input: out-of-range ones follow nothing.
    let stride = u64::try_from(r.rgn.map_or(1, |g| g.h.max(1))).ok()?;
    let num = u64::try_from(r.reg.num).ok()?;
    let sub = u64::try_from(r.reg.sub).ok()?;
    let start = num.checked_mul(grf)?.checked_add(sub.checked_mul(size)?)?;
    Some((start, size, stride.checked_mul(size)?))
}

/// The name of vISA variable `id` in `routine` (its declared name, `V0047`).
fn variable_name(routine: &Routine, id: u32) -> Option<String> {
    let var = routine
        .variables
        .get(id.checked_sub(PREDEFINED_VARS)? as usize)?;
    let name = routine.strings.get(var.name_index as usize)?;
    Some(String::from_utf8_lossy(name).into_owned())
}

/// What a checked Gen instruction compares: its vISA instruction, the variable, the
/// variable's register bytes, and the Gen destination.
struct Check {
    visa: u32,
    variable: String,
    at: Range<u64>,
    dst: (u64, u64, u64),
    exec_offset: u32,
    exec_size: u32,
}

/// The Gen instructions worth checking (see the module doc), by listing index.
fn checks(
    listing: &Listing,
    routine: &Routine,
    placement: &Placement,
    grf: u64,
) -> HashMap<usize, Check> {
    let insts: Vec<&Instruction> = listing.insts().collect();
    let mut out = HashMap::new();
    for (i, inst) in insts.iter().enumerate() {
        let Some(Some(n)) = placement.visa_ids.get(i) else {
            continue;
        };
        let Some(visa) = routine.code.instructions_or_empty().get(*n as usize) else {
            continue;
        };
        let Some(gpukit_visa::model::Operand::Vector(v)) = visa.operand("dst") else {
            continue;
        };
        let gpukit_visa::model::VectorKind::General { id, .. } = v.kind else {
            continue;
        };
        let Some(variable) = variable_name(routine, id) else {
            continue;
        };
        let Some(at) = placement.variables.get(&variable).cloned() else {
            continue;
        };
        let Some(dst) = destination(inst, grf) else {
            continue;
        };
        let exec_size = inst.exec_size.clamp(1, 32) as u32;
        let span = dst.0
            ..dst
                .0
                .saturating_add(dst.2.saturating_mul(exec_size as u64 - 1))
                .saturating_add(dst.1);
        if span.end <= at.start || span.start >= at.end {
            continue;
        }
        // A later instruction of the same `$N` writing the same bytes finishes them.
        let finished_later = insts[i + 1..].iter().enumerate().any(|(k, later)| {
            placement.visa_ids.get(i + 1 + k) == Some(&Some(*n))
                && destination(later, grf).is_some_and(|(s, size, stride)| {
                    let n = later.exec_size.clamp(1, 32) as u64;
                    s < span.end
                        && s.saturating_add(stride.saturating_mul(n - 1))
                            .saturating_add(size)
                            > span.start
                })
        });
        if finished_later {
            continue;
        }
        out.insert(
            i,
            Check {
                visa: *n,
                variable,
                at,
                dst,
                exec_offset: inst.exec_offset.clamp(0, 31) as u32,
                exec_size,
            },
        );
    }
    out
}

/// A thread of the launch: its work-group and index in it.
type ThreadKey = ([u32; 3], u32);

/// Most bytes of vISA snapshots kept: past it later threads are not followed.
pub const SNAPSHOT_BUDGET: usize = 32 << 20;

/// Runs the vISA kernel and the Gen program from copies of `mem` and returns the
/// first Gen instruction whose result departs from its vISA instruction's, or
/// `None` when every checked value agrees. Errors are the engines' own, or that the
/// dump gives nothing to follow (no `//.declare` table, no `$N` ids).
pub fn locate(
    routine: &Routine,
    functions: &[(&[u8], &Routine)],
    listing: &Listing,
    program: &Program,
    placement: &Placement,
    launch: &Launch,
    mem: &Memory,
) -> Result<Option<Departure>, String> {
    let grf = u64::from(launch.grf_bytes);
    let checks = checks(listing, routine, placement, grf);
    if checks.is_empty() {
        return Err(if placement.variables.is_empty() {
            "the dump has no //.declare table of where the vISA variables live".into()
        } else {
            "no Gen instruction of the dump writes the variable its `$N` names".into()
        });
    }
    let wanted: std::collections::HashSet<u32> = checks.values().map(|c| c.visa).collect();
    // The vISA values: (group, thread, $N) -> the destination's bytes after each execution.
    let mut snapshots: HashMap<(ThreadKey, u32), Vec<Vec<u8>>> = HashMap::new();
    let mut kept = 0usize;
    let mut record = |s: &Step<'_>| {
        let Some((_, bytes)) = s.dst else { return };
        let n = s.index as u32;
        // The kernel body is the routine without a name.
        if !s.routine.is_empty() || !wanted.contains(&n) || kept > SNAPSHOT_BUDGET {
            return;
        }
        kept += bytes.len();
        snapshots
            .entry(((s.group, s.thread), n))
            .or_default()
            .push(bytes.to_vec());
    };
    let mut visa_mem = mem.clone();
    let options = Options {
        translate: false,
        ..Options::default()
    };
    run_stepped(
        routine,
        functions,
        launch,
        &mut visa_mem,
        &mut record,
        &options,
    )
    .map_err(|e| format!("the vISA run: {e}"))?;

    // The Gen run, comparing after each checked instruction.
    let executions: RefCell<HashMap<(ThreadKey, usize), usize>> = RefCell::default();
    let found: RefCell<Option<Departure>> = RefCell::default();
    let compare = |t: &TraceStep<'_>| {
        if found.borrow().is_some() {
            return;
        }
        let Some(c) = checks.get(&t.index) else {
            return;
        };
        let execution = {
            let mut e = executions.borrow_mut();
            let k = e.entry(((t.group, t.thread), t.index)).or_default();
            *k += 1;
            *k - 1
        };
        let Some(want) = snapshots
            .get(&((t.group, t.thread), c.visa))
            .and_then(|v| v.get(execution))
        else {
            return;
        };
        let (mut expected, mut got, mut first) = (Vec::new(), Vec::new(), None);
        let (start, size, stride) = c.dst;
        for ch in 0..c.exec_size {
            if t.channels & (1 << (ch + c.exec_offset).min(31)) == 0 {
                continue;
            }
            let from = start.saturating_add(u64::from(ch).saturating_mul(stride));
            for b in from..from.saturating_add(size) {
                if !c.at.contains(&b) {
                    continue;
                }
                let off = b - c.at.start;
                let (Some(&w), Some(&g)) = (want.get(off as usize), t.regs.get(b as usize)) else {
                    continue;
                };
                if w != g && first.is_none() {
                    first = Some(off);
                }
                expected.push(w);
                got.push(g);
            }
        }
        if let Some(byte) = first {
            *found.borrow_mut() = Some(Departure {
                visa: c.visa,
                variable: c.variable.clone(),
                gen_instruction: t.index,
                group: t.group,
                thread: t.thread,
                execution,
                byte,
                expected,
                got,
            });
        }
    };
    let mut gen_mem = mem.clone();
    run(
        program,
        launch,
        &mut gen_mem,
        &RunOptions {
            trace: Some(&compare),
            ..RunOptions::default()
        },
    )
    .map_err(|e| format!("the Gen run: {e}"))?;
    Ok(found.into_inner())
}
