//! A register allocator's answer checked against the liveness: given where the
//! finalizer put each root variable (physical GRF bytes, spilled, or nowhere), two
//! variables that [`Liveness`] says are live across the same instruction must not share
//! a byte of the register file. Each pair that does is a [`Conflict`], labelled with
//! what explains it. Also counts the physical GRFs the live variables occupy at each
//! instruction (the allocation's view of the same pressure).
//!
//! The placements come from outside (IGC's `.asm` dumps, read by `gpukit-intel`), by
//! variable name, so this crate depends on no dump format.

use super::{AccessPlace, Liveness};
use crate::limits::PREDEFINED_VARS;
use crate::model::Routine;
use std::collections::{HashMap, HashSet};
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
/// The positions, ascending, of the machine instructions made from instruction `i`
/// that name the register bytes given.
pub type ScheduleFn<'a> = &'a dyn Fn(usize, Range<u64>) -> Vec<u32>;

/// What the allocation says beyond placements.
pub struct Evidence<'a> {
    /// Where the allocator put a variable, by name.
    pub place: PlaceFn<'a>,
    /// Labels a conflict between two variables (by name) when the allocation shows why.
    pub explain: ExplainFn<'a>,
    /// Where in the scheduled machine code instruction `i` (of the routine) accesses
    /// the GRF bytes given: the positions of the machine instructions made from `i`
    /// that name them (none when the code has none). Absent when the schedule is not
    /// known.
    pub scheduled: Option<ScheduleFn<'a>>,
}

/// Where two roots' units that share register bytes are live together: (block, unit
/// of the earlier root, unit of the later).
type Meeting = (usize, u32, u32);

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
    // Per pair, where they conflict: (block, unit of the first, unit of the second),
    // the two units' register bytes overlapping.
    let mut meets: HashMap<(u32, u32), Vec<Meeting>> = HashMap::new();
    let mut met: HashSet<(u32, u32, usize, u32, u32)> = HashSet::new();
    let mut unnamed: Vec<u32> = Vec::new();
    let mut spans: Vec<(u64, u64, u32, u32)> = Vec::new();
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
                spans.push((r.start + start, r.start + end, root, u));
            }
        }
        spans.sort_unstable();
        // Distinct GRFs covered.
        let mut count = 0u32;
        let mut last: Option<u64> = None;
        for &(s, e, _, _) in &spans {
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
        let mut active: Vec<(u64, u64, u32, u32)> = Vec::new();
        let mut seen_here: Vec<(u32, u32)> = Vec::new();
        for &(s, e, r, u) in &spans {
            active.retain(|&(_, ae, _, _)| ae > s);
            for &(as_, ae, ar, au) in &active {
                if ar == r {
                    continue;
                }
                let key = (ar.min(r), ar.max(r));
                if let Some(b) = live.cfg.block_of(i) {
                    let units = if ar < r { (au, u) } else { (u, au) };
                    if met.insert((key.0, key.1, b, units.0, units.1)) {
                        meets.entry(key).or_default().push((b, units.0, units.1));
                    }
                }
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
                if i < c.instruction {
                    c.instruction = i;
                    c.shared = s.max(as_)..e.min(ae);
                }
            }
            active.push((s, e, r, u));
        }
    });
    let mut conflicts = Vec::with_capacity(pairs.len());
    for (key, mut c) in pairs {
        if let Some((kind, reason)) = explain(&c.a, &c.b) {
            c.kind = kind;
            c.reason = reason;
        } else if let Some(reason) = copied(routine, grf, key, &placed) {
            c.kind = ConflictKind::Split;
            c.reason = reason;
        } else if let Some(order) = evidence.scheduled {
            let at = |root: u32| match placed.get(&root) {
                Some(Some(Assigned::Grf(r))) => r.start,
                _ => 0,
            };
            let list = meets.get(&key).map_or(&[][..], Vec::as_slice);
            let verdicts: Vec<Option<ConflictKind>> = list
                .iter()
                .map(|&(b, ua, ub)| {
                    let pair = [(ua, at(key.0)), (ub, at(key.1))];
                    apart_when_scheduled(routine, live, order, b, pair)
                })
                .collect();
            let mut blocks: Vec<usize> = list.iter().map(|m| m.0).collect();
            blocks.sort_unstable();
            blocks.dedup();
            if verdicts.iter().all(Option::is_some) {
                let kind = [ConflictKind::Remat, ConflictKind::Schedule]
                    .into_iter()
                    .find(|k| verdicts.contains(&Some(*k)))
                    .unwrap_or(ConflictKind::Removed);
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
                    ConflictKind::Remat => format!(
                        "the Gen code writes one of them again after the other used the \
                         register: its value is recomputed, not kept (block {list})"
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

/// Whether two units (one GRF's worth of each variable, with the register byte where
/// its root was placed) that share register bytes are never live at once in block `b`
/// when its instructions run in the scheduled order: each one's range runs from its
/// first write in the block (from the block's entry when live into it) to its last
/// read (to the exit when live out of it), at the positions `order` gives for its
/// register bytes; instructions the schedule does not have are left out. Compared a
/// GRF at a time because the scheduler moves the halves of a two-GRF operation
/// independently: one variable's first half can be written once the other's first
/// half was last read, while the second halves still overlap in vISA order.
/// `Remat` when one is recomputed around the other's use of the register
/// ([`recomputed`]), else `Removed` when one of them has no range at all there,
/// `Schedule` when the ranges are apart.
fn apart_when_scheduled(
    routine: &Routine,
    live: &Liveness,
    order: ScheduleFn<'_>,
    b: usize,
    pair: [(u32, u64); 2],
) -> Option<ConflictKind> {
    let block = live.cfg.blocks.get(b)?;
    let pair = pair.map(|(unit, placed)| {
        let (_, s, e) = live.unit_span(unit);
        (unit, placed + s..placed + e)
    });
    if recomputed(routine, live, order, block, pair.clone()) {
        return Some(ConflictKind::Remat);
    }
    let (entry, exit) = live.block_edges(routine, b);
    let range = |(unit, bytes): &(u32, Range<u64>)| -> Option<(i64, i64)> {
        let unit = *unit;
        let mut start = entry.contains(&unit).then_some(i64::MIN);
        let mut end = exit.contains(&unit).then_some(i64::MAX);
        for i in block.start..block.end {
            let (uses, defs) = live.units_accessed(routine, i);
            if defs.contains(&unit) {
                if let Some(&at) = order(i, bytes.clone()).first() {
                    let at = i64::from(at);
                    start = Some(start.map_or(at, |s| s.min(at)));
                    end = Some(end.map_or(at, |e| e.max(at)));
                }
            }
            if uses.contains(&unit) {
                let Some(&at) = order(i, bytes.clone()).last() else {
                    continue;
                };
                let at = i64::from(at);
                start = Some(start.map_or(at, |s| s.min(at)));
                end = Some(end.map_or(at, |e| e.max(at)));
            }
        }
        Some((start?, end?))
    };
    match (range(&pair[0]), range(&pair[1])) {
        (Some(x), Some(y)) => (x.1 <= y.0 || y.1 <= x.0).then_some(ConflictKind::Schedule),
        _ => Some(ConflictKind::Removed),
    }
}

/// A `mov` between roots `pair` whose destination and source are the same register
/// bytes: the allocator coalesced the copy, so the two names hold one value in one
/// register (the live range of the value split into two variables by the copy, joined
/// again by the allocator), and their overlap is no clash.
fn copied(
    routine: &Routine,
    grf: u64,
    pair: (u32, u32),
    placed: &HashMap<u32, Option<Assigned>>,
) -> Option<String> {
    let start = |root: u32| match placed.get(&root) {
        Some(Some(Assigned::Grf(r))) => Some(r.start),
        _ => None,
    };
    let (a0, b0) = (start(pair.0)?, start(pair.1)?);
    let code = routine.code.instructions_or_empty();
    // The register byte an access starts at, with its root.
    let byte = |id: u32, row: u8, col: u8| -> Option<(u32, u64)> {
        let v = id.checked_sub(PREDEFINED_VARS)? as usize;
        let var = routine.variables.get(v)?;
        let (r, offset) = super::liveness::root(routine, v);
        let elem = var.ty().size().unwrap_or(1) as u64;
        let base = if r == pair.0 {
            a0
        } else if r == pair.1 {
            b0
        } else {
            return None;
        };
        Some((
            r,
            base + offset + u64::from(row) * grf + u64::from(col) * elem,
        ))
    };
    for i in 0..code.len() {
        let inst = code.at(i);
        if inst.mnemonic() != "mov" {
            continue;
        }
        let acc = super::variable_accesses(inst);
        let [d, s] = acc.as_slice() else { continue };
        let (
            AccessPlace::Region {
                row: dr, col: dc, ..
            },
            AccessPlace::Region {
                row: sr, col: sc, ..
            },
        ) = (&d.place, &s.place)
        else {
            continue;
        };
        if !d.def || s.def {
            continue;
        }
        let (Some((rd, bd)), Some((rs, bs))) = (byte(d.id, *dr, *dc), byte(s.id, *sr, *sc)) else {
            continue;
        };
        if rd != rs && bd == bs {
            return Some(format!(
                "instruction {i} copies one into the other and IGC gave both the same \
                 register (the copy coalesced)"
            ));
        }
    }
    None
}

/// Whether, in block `b`, an instruction writing one unit of `pair` was made into
/// machine instructions both before and after one that accesses the other unit's
/// register (`bytes` of each unit): the allocator let the other use the register and
/// computed the value again afterwards (rematerialisation).
fn recomputed(
    routine: &Routine,
    live: &Liveness,
    order: ScheduleFn<'_>,
    block: &super::Block,
    pair: [(u32, Range<u64>); 2],
) -> bool {
    let [a, b] = pair;
    for (x, y) in [(&a, &b), (&b, &a)] {
        // Positions of the other's accesses to its register.
        let mut other: Vec<u32> = Vec::new();
        let mut writes: Vec<Vec<u32>> = Vec::new();
        for i in block.start..block.end {
            let (uses, defs) = live.units_accessed(routine, i);
            if uses.contains(&y.0) || defs.contains(&y.0) {
                other.extend(order(i, y.1.clone()));
            }
            if defs.contains(&x.0) {
                writes.push(order(i, x.1.clone()));
            }
        }
        let between = |p: &[u32]| {
            p.windows(2)
                .any(|w| other.iter().any(|&q| w[0] < q && q < w[1]))
        };
        if writes.iter().any(|p| between(p)) {
            return true;
        }
    }
    false
}
