//! Liveness of a routine's general variables, and the register pressure it implies.
//!
//! The unit is the *root* variable: an alias (`alias=<V, off>`) reads and writes its
//! root's storage, so it counts as its root. Predefined variables (`%null`, `%r0`,
//! ...) are hardware state, not allocated, and are left out.
//!
//! A definition ends a variable's earlier life only when it certainly writes all of
//! it: unpredicated, starting at the root's first byte, and covering as many bytes as
//! the root has (execution size times element size for a region, the whole variable
//! for a message's raw destination at offset 0). Partial writes keep it alive, as a
//! register allocator must.
//!
//! Pressure before instruction `i` is the size of everything live into `i` plus what
//! `i` defines, each root rounded up to whole GRFs of the platform's size. Only the
//! pressure of each instruction is kept (`O(instructions)` memory); the live set at one
//! instruction (say the peak) is recomputed on demand.

use super::cfg::Cfg;
use crate::limits::PREDEFINED_VARS;
use crate::model::{Instruction, Operand, Routine, VectorKind};

/// Liveness facts of one routine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Liveness {
    pub cfg: Cfg,
    /// Bytes (whole GRFs) live at each instruction.
    pub pressure: Vec<u64>,
    /// The GRF size the sizes were rounded to.
    pub grf_bytes: u32,
    /// Per root variable index (into `Routine::variables`): its size in whole GRFs, in bytes.
    root_bytes: Vec<u64>,
    /// Per variable index: its root's index.
    root_of: Vec<u32>,
    /// Live-out sets of each block, as sorted root indices.
    live_out: Vec<Vec<u32>>,
}

/// What one instruction reads and writes, as root variable indices.
#[derive(Default)]
struct Access {
    uses: Vec<u32>,
    defs: Vec<u32>,
    kills: Vec<u32>,
}

/// Most bits of block live sets the analysis will hold (32 MB): past that a routine is
/// refused rather than allowed to take memory out of proportion to its file.
const MAX_SET_BITS: u64 = 1 << 28;

/// A routine too large to analyse within the memory budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{blocks} blocks x {variables} variables is too large for liveness analysis")]
pub struct TooLarge {
    pub blocks: usize,
    pub variables: usize,
}

/// Bounded like every chain the readers accept: an alias chain longer than this is
/// malformed and treated as its own root.
const MAX_ALIAS_DEPTH: usize = 64;

impl Liveness {
    /// Analyses `routine`'s instruction stream (an undecodable stream has none).
    pub fn analyze(routine: &Routine, grf_bytes: u32) -> Result<Liveness, TooLarge> {
        let code: &[Instruction] = match &routine.code {
            crate::model::Code::Instructions(c) => c,
            _ => &[],
        };
        let grf = u64::from(grf_bytes.max(1));
        let vars = &routine.variables;
        let root_of: Vec<u32> = (0..vars.len()).map(|i| root(routine, i)).collect();
        let root_bytes: Vec<u64> = vars
            .iter()
            .map(|v| {
                let bytes = v.byte_size().unwrap_or(0) as u64;
                bytes.div_ceil(grf) * grf
            })
            .collect();
        let mut me = Liveness {
            cfg: Cfg::build(code),
            pressure: vec![0; code.len()],
            grf_bytes,
            root_bytes,
            root_of,
            live_out: Vec::new(),
        };
        let nvars = vars.len();
        let blocks = &me.cfg.blocks;
        // Four arrays of block sets live at once.
        if (blocks.len() as u64) * (nvars as u64) * 4 > MAX_SET_BITS {
            return Err(TooLarge {
                blocks: blocks.len(),
                variables: nvars,
            });
        }
        // Per block: upward-exposed uses (gen) and certain kills.
        let mut gen = vec![Bitset::new(nvars); blocks.len()];
        let mut kill = vec![Bitset::new(nvars); blocks.len()];
        for (b, block) in blocks.iter().enumerate() {
            for inst in code[block.start..block.end].iter().rev() {
                let a = me.access(routine, inst);
                for &k in &a.kills {
                    gen[b].remove(k);
                    kill[b].insert(k);
                }
                for &u in &a.uses {
                    gen[b].insert(u);
                }
            }
        }
        // Backward data flow to a fixed point; blocks in reverse order converge fast.
        let mut live_in = vec![Bitset::new(nvars); blocks.len()];
        let mut live_out = vec![Bitset::new(nvars); blocks.len()];
        let mut changed = true;
        while changed {
            changed = false;
            for b in (0..blocks.len()).rev() {
                let mut out = Bitset::new(nvars);
                for &s in &blocks[b].succs {
                    out.union_with(&live_in[s]);
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
        // Per instruction, walking each block backwards from its live-out set.
        for (b, block) in blocks.iter().enumerate() {
            let mut live = live_out[b].clone();
            let mut bytes: u64 = live.iter().map(|r| me.root_bytes[r as usize]).sum();
            for i in (block.start..block.end).rev() {
                let a = me.access(routine, &code[i]);
                for &k in &a.kills {
                    if live.remove(k) {
                        bytes -= me.root_bytes[k as usize];
                    }
                }
                let mut defined_dead = 0;
                for &d in &a.defs {
                    if !live.contains(d) && !a.uses.contains(&d) {
                        defined_dead += me.root_bytes[d as usize];
                    }
                }
                for &u in &a.uses {
                    if live.insert(u) {
                        bytes += me.root_bytes[u as usize];
                    }
                }
                me.pressure[i] = bytes + defined_dead;
            }
        }
        me.live_out = live_out.iter().map(|s| s.iter().collect()).collect();
        Ok(me)
    }

    /// The root variables live at instruction `index` (live in, plus what it defines),
    /// as indices into `Routine::variables`, sorted.
    pub fn live_at(&self, routine: &Routine, index: usize) -> Vec<u32> {
        let code: &[Instruction] = match &routine.code {
            crate::model::Code::Instructions(c) => c,
            _ => return Vec::new(),
        };
        let Some(b) = self.cfg.block_of(index) else {
            return Vec::new();
        };
        let block = &self.cfg.blocks[b];
        let mut live = Bitset::new(routine.variables.len());
        for &r in &self.live_out[b] {
            live.insert(r);
        }
        for i in (index..block.end).rev() {
            let a = self.access(routine, &code[i]);
            for &k in &a.kills {
                live.remove(k);
            }
            if i == index {
                for &d in &a.defs {
                    live.insert(d);
                }
            }
            for &u in &a.uses {
                live.insert(u);
            }
        }
        live.iter().collect()
    }

    /// Size of root variable `index` in bytes, rounded up to whole GRFs.
    pub fn root_bytes(&self, index: u32) -> u64 {
        self.root_bytes.get(index as usize).copied().unwrap_or(0)
    }

    /// The instruction with the highest pressure (the first of equals) and its bytes.
    pub fn peak(&self) -> Option<(usize, u64)> {
        let max = *self.pressure.iter().max()?;
        self.pressure
            .iter()
            .position(|&p| p == max)
            .map(|i| (i, max))
    }

    /// The variable (root) indices one instruction reads and writes.
    fn access(&self, routine: &Routine, inst: &Instruction) -> Access {
        let mut a = Access::default();
        let Some(fields) = inst.fields() else {
            return a;
        };
        let exec = inst.exec().and_then(|e| e.exec_size()).unwrap_or(1);
        let unpredicated = !matches!(inst.operand("pred"), Some(Operand::Pred(p)) if p.id() != 0);
        for (field, op) in fields.iter().zip(&inst.operands) {
            let is_def = matches!(field.name, "dst" | "carry");
            let mut note = |id: u32, covers: bool| {
                let Some(v) = id.checked_sub(PREDEFINED_VARS) else {
                    return;
                };
                let Some(&r) = self.root_of.get(v as usize) else {
                    return;
                };
                if is_def {
                    a.defs.push(r);
                    if covers && unpredicated && r == v {
                        a.kills.push(r);
                    }
                } else {
                    a.uses.push(r);
                }
            };
            match op {
                // Indirect operands may touch any variable whose address was taken;
                // they are not attributed to one.
                Operand::Vector(vec) => {
                    if let VectorKind::General { id, row, col, .. } = vec.kind {
                        let covers = row == 0 && col == 0 && {
                            let v = id.checked_sub(PREDEFINED_VARS).map(|v| v as usize);
                            v.and_then(|v| routine.variables.get(v)).is_some_and(|var| {
                                let elem = var.ty().size().unwrap_or(0) as u64;
                                let size = var.byte_size().unwrap_or(usize::MAX) as u64;
                                u64::from(exec) * elem >= size
                            })
                        };
                        note(id, covers);
                    }
                }
                Operand::Raw(raw) => note(raw.id, raw.offset == 0),
                Operand::RawList(list) => {
                    for raw in list {
                        note(raw.id, raw.offset == 0);
                    }
                }
                _ => {}
            }
        }
        a
    }
}

/// The root of variable index `v` (following `alias_index`, bounded).
fn root(routine: &Routine, v: usize) -> u32 {
    let mut cur = v;
    for _ in 0..MAX_ALIAS_DEPTH {
        let alias = routine.variables[cur].alias_index;
        match alias.checked_sub(PREDEFINED_VARS) {
            Some(t)
                if alias != 0 && (t as usize) < routine.variables.len() && t as usize != cur =>
            {
                cur = t as usize;
            }
            _ => return cur as u32,
        }
    }
    v as u32
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
