//! Liveness of a routine's general variables, and the register pressure it implies.
//!
//! The unit is one GRF of a *root* variable: an alias (`alias=<V, off>`) reads and
//! writes its root's storage at its offset, so it counts as those GRFs of its root;
//! a variable of four GRFs written one GRF at a time becomes live one GRF at a time,
//! as a register allocator sees it. Predefined variables (`%null`, `%r0`, ...) are
//! hardware state, not allocated, and are left out.
//!
//! A write ends a GRF's earlier life only when it certainly writes all of it:
//! unpredicated (`sel`'s predicate selects a source, so it counts as unpredicated), a contiguous destination region covering the GRF's bytes (or reaching
//! the variable's end), or a message's raw destination at offset 0 (which writes the
//! whole variable). A read of a region counts the GRFs between its first and last
//! element; a message's raw source everything from its offset to the variable's end.
//!
//! A unit is live at a point only when a use can follow *and* a definition can reach
//! it, as in IGC's finalizer (`LivenessAnalysis`: backward use sets intersected with
//! forward def sets): any write, predicated or partial, is a definition that reaches
//! forward; the kernel's inputs are defined at its entry. Without the forward half a
//! variable whose first write is predicated or partial (so kills nothing) would be
//! live from the routine's entry to that write. `lifetime.start V` ends V's earlier
//! life like a full write (IGC's pseudo-kill), without defining it.
//!
//! Pressure at instruction `i` is the number of GRFs live into `i` plus those `i`
//! writes, in bytes (`pressure`), and the bytes of variables those GRFs hold
//! (`live_bytes`: a 4-byte scalar counts 4, not a GRF). Only each instruction's
//! numbers are kept (`O(instructions)` memory); live sets at one instruction (say the
//! peak) are recomputed on demand, or visited instruction by instruction
//! (`for_each_across`).

use super::cfg::Cfg;
use super::{variable_accesses, AccessPlace};
use crate::limits::PREDEFINED_VARS;
use crate::model::{InstRef, InstructionList, Operand, Routine};

/// Liveness facts of one routine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Liveness {
    pub cfg: Cfg,
    /// Bytes (whole GRFs) live at each instruction.
    pub pressure: Vec<u64>,
    /// Bytes of variables live at each instruction (the GRFs of `pressure`, each
    /// counted for the bytes of its variable it holds).
    pub live_bytes: Vec<u64>,
    /// The GRF size the sizes were counted in.
    pub grf_bytes: u32,
    /// Per variable index: its root's index and its byte offset in the root.
    root_of: Vec<(u32, u64)>,
    /// Per variable index: first unit (GRF) of its storage when it is a root.
    base: Vec<u32>,
    /// Per variable index: GRFs of its storage when it is a root (0 for aliases).
    chunks: Vec<u32>,
    /// Root variable of each unit.
    unit_root: Vec<u32>,
    /// Live-out sets of each block (uses can follow), as sorted units.
    live_out: Vec<Vec<u32>>,
    /// Def-in sets of each block (a definition can reach its entry), as sorted units.
    def_in: Vec<Vec<u32>>,
    /// Bytes of its variable each unit holds (the last GRF of a variable may be partial).
    unit_bytes: Vec<u32>,
    /// Units whose earlier life ends at each instruction (see `kill_points`).
    kills: Vec<Vec<u32>>,
}

/// What one instruction reads and writes, as units; each write with the bytes of the
/// unit it certainly writes (a mask over the GRF's bytes; 0 when predicated).
#[derive(Default)]
struct Access {
    uses: Vec<u32>,
    defs: Vec<(u32, u64)>,
}

/// Most bits of block live sets the analysis will hold (32 MB): past that a routine is
/// refused rather than allowed to take memory out of proportion to its file.
const MAX_SET_BITS: u64 = 1 << 28;

/// A routine too large to analyse within the memory budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{blocks} blocks x {units} register units is too large for liveness analysis")]
pub struct TooLarge {
    pub blocks: usize,
    pub units: usize,
}

/// Bounded like every chain the readers accept: an alias chain longer than this is
/// malformed and treated as its own root.
const MAX_ALIAS_DEPTH: usize = 64;

impl Liveness {
    /// Analyses `routine`'s instruction stream (an undecodable stream has none).
    pub fn analyze(routine: &Routine, grf_bytes: u32) -> Result<Liveness, TooLarge> {
        let code = routine.code.instructions_or_empty();
        let grf = u64::from(grf_bytes.max(1));
        let vars = &routine.variables;
        let root_of: Vec<(u32, u64)> = (0..vars.len()).map(|i| root(routine, i)).collect();
        let mut base = vec![0u32; vars.len()];
        let mut chunks = vec![0u32; vars.len()];
        let mut unit_root = Vec::new();
        let mut unit_bytes = Vec::new();
        for (v, var) in vars.iter().enumerate() {
            if root_of[v].0 as usize != v {
                continue;
            }
            let bytes = var.byte_size().unwrap_or(0) as u64;
            // A variable is below 4 KB (the reader's limit), so this is at most 128.
            let n = bytes.div_ceil(grf).min(u64::from(u16::MAX)) as u32;
            base[v] = unit_root.len() as u32;
            chunks[v] = n;
            unit_root.extend(std::iter::repeat_n(v as u32, n as usize));
            unit_bytes.extend((0..u64::from(n)).map(|c| (bytes - c * grf).min(grf) as u32));
        }
        let units = unit_root.len();
        let cfg = Cfg::build(code);
        if (cfg.blocks.len() as u64) * (units as u64) * 4 > MAX_SET_BITS {
            return Err(TooLarge {
                blocks: cfg.blocks.len(),
                units,
            });
        }
        let mut me = Liveness {
            cfg,
            pressure: vec![0; code.len()],
            live_bytes: vec![0; code.len()],
            grf_bytes,
            root_of,
            base,
            chunks,
            unit_root,
            live_out: Vec::new(),
            def_in: Vec::new(),
            unit_bytes,
            kills: Vec::new(),
        };
        me.kills = me.kill_points(routine, code);
        let blocks = &me.cfg.blocks;
        // Per block: upward-exposed uses (gen) and certain kills.
        let mut gen = vec![Bitset::new(units); blocks.len()];
        let mut kill = vec![Bitset::new(units); blocks.len()];
        for (b, block) in blocks.iter().enumerate() {
            for i in (block.start..block.end).rev() {
                let a = me.access(routine, code.at(i));
                for &k in &me.kills[i] {
                    gen[b].remove(k);
                    kill[b].insert(k);
                }
                for &u in &a.uses {
                    gen[b].insert(u);
                }
            }
        }
        // Backward data flow, in two passes so that a subroutine called from several
        // places does not carry what is live across one call to the others:
        // 1. each subroutine's own upward-exposed uses (its returns lead nowhere);
        // 2. the real live sets: returns lead to every return site (what is live across
        //    any call of a subroutine occupies registers inside it).
        // In both, a call continues at its return site, less what the subroutine writes
        // anywhere (taken as written on every path: optimistic, where the alternative
        // keeps every returned value live back to the routine's entry), plus what pass 1
        // found the subroutine reads.
        let mut sub_kill: std::collections::HashMap<usize, Bitset> = Default::default();
        for (b, block_kill) in kill.iter().enumerate() {
            if let Some(e) = me.cfg.subroutine_of(b) {
                sub_kill
                    .entry(e)
                    .or_insert_with(|| Bitset::new(units))
                    .union_with(block_kill);
            }
        }
        let empty = Bitset::new(units);
        let call = |b: usize| {
            let block = &blocks[b];
            block.call_entry.map(|e| Call {
                entry: e,
                return_site: block.return_site,
                kill: sub_kill.get(&e).unwrap_or(&empty),
            })
        };
        let own = |b: usize| -> Vec<usize> {
            let block = &blocks[b];
            block
                .succs
                .iter()
                .copied()
                .filter(|t| !block.returns_to.contains(t) && Some(*t) != block.call_entry)
                .collect()
        };
        let (own_in, _) = solve(blocks.len(), units, &gen, &kill, own, &call, None);
        let real = |b: usize| -> Vec<usize> {
            let block = &blocks[b];
            block
                .succs
                .iter()
                .copied()
                .filter(|&t| Some(t) != block.call_entry)
                .collect()
        };
        let (_, live_out) = solve(blocks.len(), units, &gen, &kill, real, &call, Some(&own_in));
        drop((gen, kill, own_in, sub_kill));
        me.live_out = live_out.iter().map(|s| s.iter().collect()).collect();
        drop(live_out);
        me.def_in = me.reaching_definitions(routine, code);
        // Per instruction, walking each block backwards.
        for b in 0..me.cfg.blocks.len() {
            let (mut pressure, mut live_bytes) = (Vec::new(), Vec::new());
            me.walk_block(routine, code, b, |_, point, state, defs| {
                if point == Point::After {
                    return;
                }
                let mut grfs = state.grfs;
                let mut bytes = state.bytes;
                for &d in defs {
                    if !state.counts(d) {
                        grfs += 1;
                        bytes += u64::from(state.unit_bytes[d as usize]);
                    }
                }
                pressure.push(grfs * grf);
                live_bytes.push(bytes);
            });
            let block = &me.cfg.blocks[b];
            // The walk went backwards.
            for (k, i) in (block.start..block.end).rev().enumerate() {
                me.pressure[i] = pressure[k];
                me.live_bytes[i] = live_bytes[k];
            }
        }
        Ok(me)
    }

    /// Forward data flow of definitions: per block, the units some write (any write,
    /// predicated or partial) can reach its entry from; the kernel's inputs are
    /// defined at the entry. A call's definitions reach its subroutine and its return
    /// site, a `ret`'s the return sites (all edges of the graph).
    fn reaching_definitions(&self, routine: &Routine, code: &InstructionList) -> Vec<Vec<u32>> {
        let units = self.unit_root.len();
        let blocks = &self.cfg.blocks;
        let mut defs = vec![Bitset::new(units); blocks.len()];
        for (b, block) in blocks.iter().enumerate() {
            for i in block.start..block.end {
                for (d, _) in self.access(routine, code.at(i)).defs {
                    defs[b].insert(d);
                }
            }
        }
        let mut entry = Bitset::new(units);
        if let crate::model::Interface::Kernel { inputs } = &routine.interface {
            for input in inputs {
                if input.class() != crate::model::InputClass::General {
                    continue;
                }
                let Some(v) = input.index.checked_sub(PREDEFINED_VARS) else {
                    continue;
                };
                let Some(&(r, _)) = self.root_of.get(v as usize) else {
                    continue;
                };
                let base = self.base[r as usize];
                for c in 0..self.chunks[r as usize] {
                    entry.insert(base + c);
                }
            }
        }
        let mut def_in = vec![Bitset::new(units); blocks.len()];
        if !blocks.is_empty() {
            def_in[0] = entry;
        }
        // The extra edges a forward flow needs: a call block to its return site.
        let succs: Vec<Vec<usize>> = blocks
            .iter()
            .map(|block| {
                block
                    .succs
                    .iter()
                    .copied()
                    .chain(block.return_site)
                    .collect()
            })
            .collect();
        let mut changed = true;
        while changed {
            changed = false;
            for b in 0..blocks.len() {
                let mut out = def_in[b].clone();
                out.union_with(&defs[b]);
                for &s in &succs[b] {
                    if !out.is_subset(&def_in[s]) {
                        def_in[s].union_with(&out);
                        changed = true;
                    }
                }
            }
        }
        def_in.iter().map(|s| s.iter().collect()).collect()
    }

    /// Walks block `b` backwards, calling `at(i, point, state, defs)` twice at each
    /// instruction: at `Point::After` with `state` counting the units live after `i`
    /// (a use can follow) and reached by a definition before or at `i`; at
    /// `Point::Before` with the units live into `i` and reached before it. `defs` are
    /// the units `i` writes.
    fn walk_block(
        &self,
        routine: &Routine,
        code: &InstructionList,
        b: usize,
        mut at: impl FnMut(usize, Point, &WalkState<'_>, &[u32]),
    ) {
        let block = &self.cfg.blocks[b];
        let units = self.unit_root.len();
        let accesses: Vec<Access> = (block.start..block.end)
            .map(|i| self.access(routine, code.at(i)))
            .collect();
        let mut state = WalkState {
            live: Bitset::new(units),
            reach: Bitset::new(units),
            grfs: 0,
            bytes: 0,
            unit_bytes: &self.unit_bytes,
        };
        for &u in &self.def_in[b] {
            state.reach.insert(u);
        }
        // Units first defined in this block, at the instruction that defines them.
        let mut first_defs: Vec<(usize, u32)> = Vec::new();
        for (k, a) in accesses.iter().enumerate() {
            for &(d, _) in &a.defs {
                if state.reach.insert(d) {
                    first_defs.push((block.start + k, d));
                }
            }
        }
        for &u in &self.live_out[b] {
            state.insert_live(u);
        }
        let mut defs = Vec::new();
        for (k, i) in (block.start..block.end).enumerate().rev() {
            let a = &accesses[k];
            defs.clear();
            defs.extend(a.defs.iter().map(|&(d, _)| d));
            at(i, Point::After, &state, &defs);
            for &k in &self.kills[i] {
                state.remove_live(k);
            }
            while let Some(&(at_i, u)) = first_defs.last() {
                if at_i != i {
                    break;
                }
                state.remove_reach(u);
                first_defs.pop();
            }
            for &u in &a.uses {
                state.insert_live(u);
            }
            at(i, Point::Before, &state, &defs);
        }
    }

    /// The root variables live at instruction `index` (live in and reached, plus what
    /// it writes), as (index into `Routine::variables`, bytes of whole GRFs of it
    /// live), sorted by variable: the set `pressure` counts.
    pub fn live_at(&self, routine: &Routine, index: usize) -> Vec<(u32, u64)> {
        let code = routine.code.instructions_or_empty();
        let Some(b) = self.cfg.block_of(index) else {
            return Vec::new();
        };
        let mut units: Vec<u32> = Vec::new();
        self.walk_block(routine, code, b, |i, point, state, defs| {
            if i == index && point == Point::Before {
                units = state.counted().collect();
                units.extend(defs.iter().copied().filter(|&d| !state.counts(d)));
            }
        });
        units.sort_unstable();
        units.dedup();
        let mut out: Vec<(u32, u64)> = Vec::new();
        for u in units {
            let r = self.unit_root[u as usize];
            match out.last_mut() {
                Some((last, bytes)) if *last == r => *bytes += u64::from(self.grf_bytes),
                _ => out.push((r, u64::from(self.grf_bytes))),
            }
        }
        out
    }

    /// Visits every instruction with the units live across it: live after it and
    /// reached by a definition, plus those it writes (two units in this set at once
    /// must not share a register). Instructions of a block come last first.
    pub fn for_each_across(&self, routine: &Routine, mut visit: impl FnMut(usize, &[u32])) {
        let code = routine.code.instructions_or_empty();
        let mut across: Vec<u32> = Vec::new();
        for b in 0..self.cfg.blocks.len() {
            self.walk_block(routine, code, b, |i, point, state, defs| {
                if point == Point::After {
                    across.clear();
                    across.extend(state.counted());
                    across.extend(defs.iter().copied().filter(|&d| !state.counts(d)));
                    across.sort_unstable();
                    across.dedup();
                    visit(i, &across);
                }
            });
        }
    }

    /// The units instruction `index` reads and writes (`(uses, defs)`).
    pub fn units_accessed(&self, routine: &Routine, index: usize) -> (Vec<u32>, Vec<u32>) {
        let code = routine.code.instructions_or_empty();
        if index >= code.len() {
            return (Vec::new(), Vec::new());
        }
        let a = self.access(routine, code.at(index));
        (a.uses, a.defs.into_iter().map(|(d, _)| d).collect())
    }

    /// The units live (and reached) at the entry and at the exit of block `b`.
    pub fn block_edges(&self, routine: &Routine, b: usize) -> (Vec<u32>, Vec<u32>) {
        let code = routine.code.instructions_or_empty();
        let Some(block) = self.cfg.blocks.get(b) else {
            return (Vec::new(), Vec::new());
        };
        let (mut entry, mut exit) = (Vec::new(), Vec::new());
        self.walk_block(routine, code, b, |i, point, state, _| {
            if point == Point::Before && i == block.start {
                entry = state.counted().collect();
            }
            if point == Point::After && i + 1 == block.end {
                exit = state.counted().collect();
            }
        });
        (entry, exit)
    }

    /// What one unit holds: its root variable (index into `Routine::variables`) and
    /// the bytes `[start, end)` of the root it stands for.
    pub fn unit_span(&self, unit: u32) -> (u32, u64, u64) {
        let r = self.unit_root[unit as usize];
        let c = u64::from(unit - self.base[r as usize]);
        let start = c * u64::from(self.grf_bytes);
        (r, start, start + u64::from(self.unit_bytes[unit as usize]))
    }

    /// The instruction with the highest pressure (the first of equals) and its bytes.
    pub fn peak(&self) -> Option<(usize, u64)> {
        let max = *self.pressure.iter().max()?;
        self.pressure
            .iter()
            .position(|&p| p == max)
            .map(|i| (i, max))
    }

    /// The units one instruction reads and writes.
    fn access(&self, routine: &Routine, inst: InstRef<'_>) -> Access {
        let mut a = Access::default();
        let grf = u64::from(self.grf_bytes.max(1));
        // `sel`'s predicate chooses between its sources: every enabled channel is written.
        let unpredicated = inst.opcode == crate::isa::Opcode::SEL
            || !matches!(inst.operand("pred"), Some(Operand::Pred(p)) if p.id() != 0);
        for acc in variable_accesses(inst) {
            let Some(v) = acc.id.checked_sub(PREDEFINED_VARS) else {
                continue;
            };
            let Some(&(r, alias_offset)) = self.root_of.get(v as usize) else {
                continue;
            };
            let var = &routine.variables[v as usize];
            let elem = var.ty().size().unwrap_or(1).max(1) as u64;
            let root_bytes = routine.variables[r as usize].byte_size().unwrap_or(0) as u64;
            // Bytes [start, end) of the root the access touches, and for a write the
            // byte positions it writes (an element every `stride` bytes, or all).
            let (start, end, stride) = match acc.place {
                AccessPlace::Region {
                    row,
                    col,
                    region,
                    exec,
                } => {
                    let start = u64::from(row) * grf + u64::from(col) * elem;
                    let exec = u64::from(exec.max(1));
                    if acc.def {
                        let hs = u64::from(region.hstride().unwrap_or(1).max(1));
                        (start, start + ((exec - 1) * hs + 1) * elem, hs * elem)
                    } else {
                        let vs = u64::from(region.vstride().unwrap_or(0));
                        let w = u64::from(region.width().unwrap_or(1).max(1));
                        let hs = u64::from(region.hstride().unwrap_or(0));
                        let rows = exec.div_ceil(w);
                        let span = ((rows - 1) * vs + (w.min(exec) - 1) * hs + 1) * elem;
                        (start, start + span, elem)
                    }
                }
                // A message's payload runs from the offset to the variable's end.
                AccessPlace::Raw { offset } => {
                    let own = var.byte_size().unwrap_or(0) as u64;
                    (u64::from(offset), own.max(u64::from(offset) + 1), elem)
                }
            };
            let (start, end) = (alias_offset + start, (alias_offset + end).min(root_bytes));
            if start >= end {
                continue;
            }
            let base = self.base[r as usize];
            for c in start / grf..=(end - 1) / grf {
                let unit = base + c as u32;
                if !acc.def {
                    a.uses.push(unit);
                    continue;
                }
                let mut mask = 0u64;
                if unpredicated {
                    // Written bytes of this GRF: elements of `elem` bytes every `stride`.
                    let (lo, hi) = (c * grf, (c + 1) * grf);
                    let mut at = start;
                    while at < end.min(hi) {
                        for b in at.max(lo)..(at + elem).min(hi).min(end) {
                            mask |= 1 << (b - lo);
                        }
                        at += stride.max(elem);
                    }
                    // Bytes past the variable's end count as written: nothing reads them.
                    for b in root_bytes.max(lo)..hi {
                        mask |= 1 << (b - lo);
                    }
                }
                a.defs.push((unit, mask));
            }
        }
        a
    }

    /// The units of the general variable a `lifetime.start` names (none for any
    /// other instruction).
    fn lifetime_start(&self, routine: &Routine, inst: InstRef<'_>) -> Vec<u32> {
        if inst.opcode != crate::isa::Opcode::LIFETIME {
            return Vec::new();
        }
        let props = match inst.operand("properties") {
            Some(Operand::Int(p)) => *p,
            _ => return Vec::new(),
        };
        // Bit 0: start (0) or end; bits 4-5: the variable class (0 general).
        if props & 1 != 0 || (props >> 4) & 3 != 0 {
            return Vec::new();
        }
        let Some(Operand::Int(id)) = inst.operand("var") else {
            return Vec::new();
        };
        let Some(v) = id.checked_sub(PREDEFINED_VARS) else {
            return Vec::new();
        };
        let Some(&(r, offset)) = self.root_of.get(v as usize) else {
            return Vec::new();
        };
        let grf = u64::from(self.grf_bytes.max(1));
        let bytes = routine.variables[v as usize].byte_size().unwrap_or(0) as u64;
        let root_bytes = routine.variables[r as usize].byte_size().unwrap_or(0) as u64;
        let end = (offset + bytes).min(root_bytes);
        if offset >= end {
            return Vec::new();
        }
        let base = self.base[r as usize];
        (offset / grf..=(end - 1) / grf)
            .map(|c| base + c as u32)
            .collect()
    }

    /// Where each unit's earlier life certainly ends: at a write that, together with
    /// the unpredicated writes after it in the same block and before any read of the
    /// unit, covers every byte of the GRF (a 64-bit value built from two strided
    /// halves, a variable filled one row at a time). Returns the units per instruction.
    fn kill_points(&self, routine: &Routine, code: &InstructionList) -> Vec<Vec<u32>> {
        let full = if self.grf_bytes >= 64 {
            u64::MAX
        } else {
            (1u64 << self.grf_bytes.max(1)) - 1
        };
        let mut kills = vec![Vec::new(); code.len()];
        let mut pending: std::collections::HashMap<u32, (u64, usize)> = Default::default();
        for block in &self.cfg.blocks {
            pending.clear();
            for (i, inst) in code.iter().enumerate().take(block.end).skip(block.start) {
                // `lifetime.start V`: V's earlier value is dead (IGC's pseudo-kill).
                for u in self.lifetime_start(routine, inst) {
                    pending.remove(&u);
                    kills[i].push(u);
                }
                let a = self.access(routine, inst);
                for u in &a.uses {
                    pending.remove(u);
                }
                for &(u, mask) in &a.defs {
                    if mask == 0 {
                        continue;
                    }
                    let entry = pending.entry(u).or_insert((0, i));
                    entry.0 |= mask;
                    if entry.0 & full == full {
                        kills[entry.1].push(u);
                        pending.remove(&u);
                    }
                }
            }
        }
        kills
    }
}

/// Where in an instruction a walk is: after it (its writes done) or before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Point {
    After,
    Before,
}

/// The live and reached units at one point of a backward walk, with the GRFs and
/// bytes of the units in both kept as they change.
struct WalkState<'a> {
    live: Bitset,
    reach: Bitset,
    grfs: u64,
    bytes: u64,
    unit_bytes: &'a [u32],
}

impl WalkState<'_> {
    /// Whether `u` is counted: live and reached.
    fn counts(&self, u: u32) -> bool {
        self.live.contains(u) && self.reach.contains(u)
    }
    fn counted(&self) -> impl Iterator<Item = u32> + '_ {
        self.live.iter().filter(|&u| self.reach.contains(u))
    }
    fn add(&mut self, u: u32) {
        self.grfs += 1;
        self.bytes += u64::from(self.unit_bytes[u as usize]);
    }
    fn sub(&mut self, u: u32) {
        self.grfs -= 1;
        self.bytes -= u64::from(self.unit_bytes[u as usize]);
    }
    fn insert_live(&mut self, u: u32) {
        if self.live.insert(u) && self.reach.contains(u) {
            self.add(u);
        }
    }
    fn remove_live(&mut self, u: u32) {
        if self.live.remove(u) && self.reach.contains(u) {
            self.sub(u);
        }
    }
    fn remove_reach(&mut self, u: u32) {
        if self.reach.remove(u) && self.live.contains(u) {
            self.sub(u);
        }
    }
}

/// A call's effect on liveness: what is live at its return site, less what the
/// subroutine writes, plus what it reads.
struct Call<'a> {
    entry: usize,
    return_site: Option<usize>,
    kill: &'a Bitset,
}

/// Backward data flow to a fixed point: `in = gen | (out - kill)`, `out` the union of
/// the successors' `in` and, for a call, of its summary; what a subroutine reads is
/// `reads[entry]` when given, else its entry's `in` of this very pass. Blocks in
/// reverse order converge fast.
fn solve<'a>(
    blocks: usize,
    units: usize,
    gen: &[Bitset],
    kill: &[Bitset],
    succs: impl Fn(usize) -> Vec<usize>,
    call: &dyn Fn(usize) -> Option<Call<'a>>,
    reads: Option<&[Bitset]>,
) -> (Vec<Bitset>, Vec<Bitset>) {
    let succs: Vec<Vec<usize>> = (0..blocks).map(succs).collect();
    let mut live_in = vec![Bitset::new(units); blocks];
    let mut live_out = vec![Bitset::new(units); blocks];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..blocks).rev() {
            let mut out = Bitset::new(units);
            for &s in &succs[b] {
                out.union_with(&live_in[s]);
            }
            if let Some(c) = call(b) {
                if let Some(r) = c.return_site {
                    let mut after = live_in[r].clone();
                    after.subtract(c.kill);
                    out.union_with(&after);
                }
                match reads {
                    Some(reads) => out.union_with(&reads[c.entry]),
                    None => {
                        let entry_in = live_in[c.entry].clone();
                        out.union_with(&entry_in);
                    }
                }
            }
            let mut inn = out.clone();
            inn.subtract(&kill[b]);
            inn.union_with(&gen[b]);
            if inn != live_in[b] {
                live_in[b] = inn;
                changed = true;
            }
            live_out[b] = out;
        }
    }
    (live_in, live_out)
}

/// The root of variable index `v` and the byte offset of `v` in it (following
/// `alias_index`, bounded).
pub(crate) fn root(routine: &Routine, v: usize) -> (u32, u64) {
    let mut cur = v;
    let mut offset = 0u64;
    for _ in 0..MAX_ALIAS_DEPTH {
        let var = &routine.variables[cur];
        match var.alias_index.checked_sub(PREDEFINED_VARS) {
            Some(t)
                if var.alias_index != 0
                    && (t as usize) < routine.variables.len()
                    && t as usize != cur =>
            {
                offset += u64::from(var.alias_offset);
                cur = t as usize;
            }
            _ => return (cur as u32, offset),
        }
    }
    (v as u32, 0)
}

/// A fixed-size set of small integers.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Bitset(Vec<u64>);

impl Bitset {
    fn new(n: usize) -> Self {
        Bitset(vec![0; n.div_ceil(64)])
    }
    fn insert(&mut self, i: u32) -> bool {
        let (w, b) = ((i / 64) as usize, i % 64);
        let was = self.0[w] >> b & 1 == 1;
        self.0[w] |= 1 << b;
        !was
    }
    fn remove(&mut self, i: u32) -> bool {
        let (w, b) = ((i / 64) as usize, i % 64);
        let was = self.0[w] >> b & 1 == 1;
        self.0[w] &= !(1 << b);
        was
    }
    fn contains(&self, i: u32) -> bool {
        self.0[(i / 64) as usize] >> (i % 64) & 1 == 1
    }
    fn is_subset(&self, o: &Bitset) -> bool {
        self.0.iter().zip(&o.0).all(|(a, b)| a & !b == 0)
    }
    fn union_with(&mut self, o: &Bitset) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a |= b;
        }
    }
    fn subtract(&mut self, o: &Bitset) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a &= !b;
        }
    }
    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            (0..64)
                .filter(move |b| bits >> b & 1 == 1)
                .map(move |b| (w * 64 + b) as u32)
        })
    }
}
