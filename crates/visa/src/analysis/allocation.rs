//! A register allocator's answer checked against the liveness: given where the
//! finalizer put each root variable (physical GRF bytes, spilled, or nowhere), two
//! variables that [`Liveness`] says are live across the same instruction must not share
//! a byte of the register file. Each pair that does is a [`Conflict`], labelled with
//! what explains it. Also counts the physical GRFs the live variables occupy at each
//! instruction (the allocation's view of the same pressure).
//!
//! The placements come from outside (IGC's `.asm` dumps, read by `gpukit-intel`), by
//! variable name, so this crate depends on no dump format.

use super::Liveness;
use crate::model::Routine;
use std::collections::HashMap;
use std::ops::Range;

/// Where the allocator put one variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Assigned {
    /// Bytes `[start, end)` of the GRF file (register number x GRF size + offset).
    Grf(Range<u64>),
    /// In scratch memory, or not placed at all (optimised away): holds no register.
    Elsewhere,
}

/// Why two live variables share register bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConflictKind {
    /// gpukit's liveness is wrong: the two are not both live there.
    Liveness,
    /// The allocator recomputes one of them where it is needed instead of keeping it.
    Remat,
    /// The allocator split one's live range: parts of it live in other registers.
    Split,
    /// The finalizer's scheduler moved the instructions: in the order of the Gen
    /// code, one's live range ends before the other's begins.
    Schedule,
    /// The finalizer's optimizer removed (or merged into others) every instruction
    /// that accesses one of them where they meet: it holds nothing there.
    Removed,
    /// The allocator gave a live value's bytes to another one: a defect of the
    /// compiler.
    IgcBug,
}

/// Two root variables live across one instruction whose registers overlap.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Conflict {
    /// Names of the two variables (the earlier-declared first).
    pub a: String,
    pub b: String,
    /// The first instruction (index in the routine's stream) where both are live.
    pub instruction: usize,
    /// Instructions at which they are both live.
    pub instructions: usize,
    /// The register bytes both occupy at the first instruction.
    pub shared: Range<u64>,
    pub kind: ConflictKind,
    /// What the label rests on.
    pub reason: String,
}

/// The comparison of one routine's liveness with an allocation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Physical GRFs the variables live across each instruction occupy.
    pub physical_grfs: Vec<u32>,
    pub conflicts: Vec<Conflict>,
    /// Root variables live somewhere that the allocation does not name.
    pub unnamed: Vec<String>,
}

/// Where the allocator put a variable, by name.
pub type PlaceFn<'a> = &'a dyn Fn(&str) -> Option<Assigned>;
/// The label of a conflict between two variables (by name), when known.
pub type ExplainFn<'a> = &'a dyn Fn(&str, &str) -> Option<(ConflictKind, String)>;
/// The scheduled position of instruction `i`'s write (`true`) or read of a variable.
pub type ScheduleFn<'a> = &'a dyn Fn(usize, &str, bool) -> Option<u32>;

/// What the allocation says beyond placements.
pub struct Evidence<'a> {
    /// Where the allocator put a variable, by name.
    pub place: PlaceFn<'a>,
    /// Labels a conflict between two variables (by name) when the allocation shows why.
    pub explain: ExplainFn<'a>,
    /// Where in the scheduled machine code instruction `i` (of the routine) writes
    /// (`def`) or reads the variable named: the first machine instruction made from
    /// `i` that does, for a write, the last, for a read; `None` when the code has no
    /// instruction made from `i`. Absent when the schedule is not known.
    pub scheduled: Option<ScheduleFn<'a>>,
}

/// Compares `live` (of `routine`) with an allocation, for GRFs of `grf` bytes.
/// Conflicts neither `explain` nor the schedule accounts for are
/// [`ConflictKind::Liveness`].
pub fn compare(
    routine: &Routine,
    live: &Liveness,
    grf: u32,
    evidence: &Evidence<'_>,
) -> Comparison {
    let (place, explain) = (evidence.place, evidence.explain);
    let grf = u64::from(grf.max(1));
    let code_len = routine.code.instructions_or_empty().len();
    let name = |v: u32| routine.string_lossy(routine.variables[v as usize].name_index);
    // Per root variable: where it is (looked up once).
    let mut placed: HashMap<u32, Option<Assigned>> = HashMap::new();
    let mut physical_grfs = vec![0u32; code_len];
    let mut pairs: HashMap<(u32, u32), Conflict> = HashMap::new();
    // Per pair, the blocks where they conflict.
    let mut blocks_of: HashMap<(u32, u32), Vec<usize>> = HashMap::new();
    let mut unnamed: Vec<u32> = Vec::new();
    let mut spans: Vec<(u64, u64, u32)> = Vec::new();
    live.for_each_across(routine, |i, units| {
        spans.clear();
        for &u in units {
            let (root, start, end) = live.unit_span(u);
            let at = placed.entry(root).or_insert_with(|| {
                let p = place(&name(root));
                if p.is_none() {
                    unnamed.push(root);
                }
                p
            });
            if let Some(Assigned::Grf(r)) = at {
                spans.push((r.start + start, r.start + end, root));
            }
        }
        spans.sort_unstable();
        // Distinct GRFs covered.
        let mut count = 0u32;
        let mut last: Option<u64> = None;
        for &(s, e, _) in &spans {
            if e <= s {
                continue;
            }
            let first = match last {
                Some(l) if l >= s / grf => l + 1,
                _ => s / grf,
            };
            let end_grf = (e - 1) / grf;
            if end_grf >= first {
                count += (end_grf - first + 1) as u32;
            }
            last = Some(last.map_or(end_grf, |l| l.max(end_grf)));
        }
        physical_grfs[i] = count;
        // Overlaps between different roots: a sweep over the sorted spans.
        let mut active: Vec<(u64, u64, u32)> = Vec::new();
        let mut seen_here: Vec<(u32, u32)> = Vec::new();
        for &(s, e, r) in &spans {
            active.retain(|&(_, ae, _)| ae > s);
            for &(as_, ae, ar) in &active {
                if ar == r {
                    continue;
                }
                let key = (ar.min(r), ar.max(r));
                if seen_here.contains(&key) {
                    continue;
                }
                seen_here.push(key);
                let c = pairs.entry(key).or_insert_with(|| Conflict {
                    a: name(key.0),
                    b: name(key.1),
                    instruction: i,
                    instructions: 0,
                    shared: s.max(as_)..e.min(ae),
                    kind: ConflictKind::Liveness,
                    reason: String::new(),
                });
                c.instructions += 1;
                let blocks = blocks_of.entry(key).or_default();
                if let Some(b) = live.cfg.block_of(i) {
                    if !blocks.contains(&b) {
                        blocks.push(b);
                    }
                }
                if i < c.instruction {
                    c.instruction = i;
                    c.shared = s.max(as_)..e.min(ae);
                }
            }
            active.push((s, e, r));
        }
    });
    let mut conflicts = Vec::with_capacity(pairs.len());
    for (key, mut c) in pairs {
        if let Some((kind, reason)) = explain(&c.a, &c.b) {
            c.kind = kind;
            c.reason = reason;
        } else if let Some(order) = evidence.scheduled {
            let blocks = &blocks_of[&key];
            let verdicts: Vec<Option<ConflictKind>> = blocks
                .iter()
                .map(|&b| apart_when_scheduled(routine, live, order, b, key))
                .collect();
            if verdicts.iter().all(Option::is_some) {
                let kind = if verdicts.contains(&Some(ConflictKind::Schedule)) {
                    ConflictKind::Schedule
                } else {
                    ConflictKind::Removed
                };
                let list = blocks
                    .iter()
                    .map(|b| b.to_string())
                    .collect::<Vec<_>>()
                    .join(", ");
                c.kind = kind;
                c.reason = match kind {
                    ConflictKind::Removed => format!(
                        "the Gen code has no instruction accessing one of them in block {list}"
                    ),
                    _ => format!(
                        "in the Gen code's order their live ranges do not overlap (block {list})"
                    ),
                };
            }
        }
        conflicts.push(c);
    }
    conflicts.sort_by(|x, y| (x.instruction, &x.a, &x.b).cmp(&(y.instruction, &y.a, &y.b)));
    unnamed.sort_unstable();
    Comparison {
        physical_grfs,
        conflicts,
        unnamed: unnamed.into_iter().map(name).collect(),
    }
}

/// Whether roots `pair` are never live at once in block `b` when its instructions run
/// in the scheduled order: each one's range runs from its first write in the block
/// (from the block's entry when live into it) to its last read (to the exit when live
/// out of it), at the positions `order` gives; instructions the schedule does not
/// have are left out. `Removed` when one of
/// them has no range at all there, `Schedule` when the ranges are apart.
fn apart_when_scheduled(
    routine: &Routine,
    live: &Liveness,
    order: ScheduleFn<'_>,
    b: usize,
    pair: (u32, u32),
) -> Option<ConflictKind> {
    let block = live.cfg.blocks.get(b)?;
    let (entry, exit) = live.block_edges(routine, b);
    let root = |u: u32| live.unit_span(u).0;
    let range = |r: u32| -> Option<(i64, i64)> {
        let mut start = entry.iter().any(|&u| root(u) == r).then_some(i64::MIN);
        let mut end = exit.iter().any(|&u| root(u) == r).then_some(i64::MAX);
        let name = routine.string_lossy(routine.variables[r as usize].name_index);
        for i in block.start..block.end {
            let (uses, defs) = live.units_accessed(routine, i);
            if defs.iter().any(|&u| root(u) == r) {
                if let Some(at) = order(i, &name, true) {
                    let at = i64::from(at);
                    start = Some(start.map_or(at, |s| s.min(at)));
                    end = Some(end.map_or(at, |e| e.max(at)));
                }
            }
            if uses.iter().any(|&u| root(u) == r) {
                let Some(at) = order(i, &name, false) else {
                    continue;
                };
                let at = i64::from(at);
                start = Some(start.map_or(at, |s| s.min(at)));
                end = Some(end.map_or(at, |e| e.max(at)));
            }
        }
        Some((start?, end?))
    };
    match (range(pair.0), range(pair.1)) {
        (Some(x), Some(y)) => (x.1 <= y.0 || y.1 <= x.0).then_some(ConflictKind::Schedule),
        _ => Some(ConflictKind::Removed),
    }
}
