//! The control-flow graph of one routine's instruction stream: basic blocks split at
//! labels and after every transfer of control, edges from the branch targets and the
//! fall-through.
//!
//! A predicated `jmp` or `goto` has both edges (for `goto`, channels may go both
//! ways); without a predicate every channel jumps. A `call` goes to its subroutine,
//! and the subroutine's `ret` goes back to the instruction after every call of it
//! (so values a subroutine returns in variables flow to its callers, and nothing flows
//! around the call). A subroutine is the code from a `call` target up to the next one;
//! a `ret` before the first is the routine's own return and ends its path.

use crate::model::{InstRef, InstructionList, Operand};

/// A maximal straight-line run of instructions, `start..end` in the stream.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Block {
    pub start: usize,
    pub end: usize,
    /// Label index when the block starts at a `label`/`func` instruction.
    pub label: Option<u16>,
    /// Every edge out: branch targets, fall-through, call target, return sites.
    pub succs: Vec<usize>,
    pub preds: Vec<usize>,
    /// For a block ending in a call: the subroutine's entry block, and the block its
    /// return lands in.
    pub call_entry: Option<usize>,
    pub return_site: Option<usize>,
    /// For a block ending in a subroutine's `ret`: the return sites among `succs`.
    pub returns_to: Vec<usize>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Cfg {
    pub blocks: Vec<Block>,
    /// Entry blocks of the subroutines (call targets), in stream order.
    pub subroutines: Vec<usize>,
}

/// What an instruction does to control flow.
enum Flow {
    Next,
    /// Continues at the labels, and (when `falls`) also at the next instruction.
    Branch {
        labels: Vec<u16>,
        falls: bool,
    },
    /// A subroutine call.
    Call(u16),
    /// Returns (to the callers, from a subroutine); `falls` when predicated.
    Return {
        falls: bool,
    },
    /// A label definition: a block boundary before it.
    Label(u16),
}

fn label_operand(inst: InstRef<'_>) -> Option<u16> {
    match inst.operand("label") {
        Some(Operand::Label(l)) => Some(*l),
        _ => None,
    }
}

fn predicated(inst: InstRef<'_>) -> bool {
    matches!(inst.operand("pred"), Some(Operand::Pred(p)) if p.id() != 0)
}

fn flow(inst: InstRef<'_>) -> Flow {
    match inst.mnemonic() {
        "label" | "func" => label_operand(inst).map_or(Flow::Next, Flow::Label),
        // Without a predicate every channel goes (`goto` included); with one, some may not.
        "jmp" | "goto" => match label_operand(inst) {
            Some(l) => Flow::Branch {
                labels: vec![l],
                falls: predicated(inst),
            },
            None => Flow::Next,
        },
        "call" => label_operand(inst).map_or(Flow::Next, Flow::Call),
        "switchjmp" => match inst.operand("labels") {
            Some(Operand::LabelList(ls)) => Flow::Branch {
                labels: ls.to_vec(),
                falls: false,
            },
            _ => Flow::Next,
        },
        "ret" | "fret" => Flow::Return {
            falls: predicated(inst),
        },
        _ => Flow::Next,
    }
}

impl Cfg {
    /// Builds the graph of `code`; linear in the number of instructions and edges.
    pub fn build(code: &InstructionList) -> Cfg {
        let n = code.len();
        // Where blocks start: 0, every label, and after every transfer.
        let mut starts = vec![false; n + 1];
        starts[0] = true;
        let mut label_at: std::collections::HashMap<u16, usize> = Default::default();
        for (i, inst) in code.iter().enumerate() {
            match flow(inst) {
                Flow::Label(l) => {
                    starts[i] = true;
                    label_at.entry(l).or_insert(i);
                }
                Flow::Branch { .. } | Flow::Call(_) | Flow::Return { .. } => starts[i + 1] = true,
                _ => {}
            }
        }
        let mut blocks: Vec<Block> = Vec::new();
        let mut block_of = vec![0usize; n];
        let mut i = 0;
        while i < n {
            let start = i;
            i += 1;
            while i < n && !starts[i] {
                i += 1;
            }
            for b in &mut block_of[start..i] {
                *b = blocks.len();
            }
            blocks.push(Block {
                start,
                end: i,
                label: match flow(code.at(start)) {
                    Flow::Label(l) => Some(l),
                    _ => None,
                },
                succs: Vec::new(),
                preds: Vec::new(),
                call_entry: None,
                return_site: None,
                returns_to: Vec::new(),
            });
        }
        let count = blocks.len();
        // Subroutines: the blocks from each call target up to the next one; the
        // return sites of each, the blocks after its calls.
        let mut entries: Vec<usize> = Vec::new();
        let mut returns_to: std::collections::HashMap<usize, Vec<usize>> = Default::default();
        for (b, block) in blocks.iter().enumerate() {
            if let Flow::Call(l) = flow(code.at(block.end - 1)) {
                if let Some(&at) = label_at.get(&l) {
                    entries.push(block_of[at]);
                    if b + 1 < count {
                        returns_to.entry(block_of[at]).or_default().push(b + 1);
                    }
                }
            }
        }
        entries.sort_unstable();
        entries.dedup();
        for b in 0..count {
            let last = code.at(blocks[b].end - 1);
            let mut succs = Vec::new();
            let falls = match flow(last) {
                Flow::Branch { labels, falls } => {
                    for l in labels {
                        if let Some(&at) = label_at.get(&l) {
                            succs.push(block_of[at]);
                        }
                    }
                    falls
                }
                Flow::Call(l) => {
                    if let Some(&at) = label_at.get(&l) {
                        succs.push(block_of[at]);
                        blocks[b].call_entry = Some(block_of[at]);
                        blocks[b].return_site = (b + 1 < count).then_some(b + 1);
                    }
                    false
                }
                Flow::Return { falls } => {
                    // The subroutine this block belongs to: the last entry at or before it.
                    let owner = entries.partition_point(|&e| e <= b);
                    if owner > 0 {
                        if let Some(sites) = returns_to.get(&entries[owner - 1]) {
                            succs.extend_from_slice(sites);
                            blocks[b].returns_to = sites.clone();
                        }
                    }
                    falls
                }
                _ => true,
            };
            if falls && b + 1 < count {
                succs.push(b + 1);
            }
            succs.sort_unstable();
            succs.dedup();
            for &s in &succs {
                blocks[s].preds.push(b);
            }
            blocks[b].succs = succs;
        }
        Cfg {
            blocks,
            subroutines: entries,
        }
    }

    /// The subroutine (entry block) block `b` belongs to; `None` for the routine's
    /// own code before the first subroutine.
    pub fn subroutine_of(&self, b: usize) -> Option<usize> {
        let owner = self.subroutines.partition_point(|&e| e <= b);
        owner.checked_sub(1).map(|o| self.subroutines[o])
    }

    /// The block holding instruction `index`.
    pub fn block_of(&self, index: usize) -> Option<usize> {
        let b = self.blocks.partition_point(|b| b.end <= index);
        (b < self.blocks.len()).then_some(b)
    }
}
