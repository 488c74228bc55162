//! The control-flow graph of one routine's instruction stream: basic blocks split at
//! labels and after every transfer of control, edges from the branch targets and the
//! fall-through.
//!
//! SIMD control flow (`goto`) may go both ways per channel, so it has both edges; a
//! `call` has an edge to its subroutine and one to the instruction after it (the return
//! lands there); `ret`, `fret` and a `jmp` without a predicate end their path.

use crate::model::{Instruction, Operand};

/// A maximal straight-line run of instructions, `start..end` in the stream.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Block {
    pub start: usize,
    pub end: usize,
    /// Label index when the block starts at a `label`/`func` instruction.
    pub label: Option<u16>,
    pub succs: Vec<usize>,
    pub preds: Vec<usize>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Cfg {
    pub blocks: Vec<Block>,
}

/// What an instruction does to control flow.
enum Flow {
    Next,
    /// Continues at the labels, and (when `falls`) also at the next instruction.
    Branch {
        labels: Vec<u16>,
        falls: bool,
    },
    /// Ends the path (return).
    Stop,
    /// A label definition: a block boundary before it.
    Label(u16),
}

fn label_operand(inst: &Instruction) -> Option<u16> {
    match inst.operand("label") {
        Some(Operand::Label(l)) => Some(*l),
        _ => None,
    }
}

fn predicated(inst: &Instruction) -> bool {
    matches!(inst.operand("pred"), Some(Operand::Pred(p)) if p.id() != 0)
}

fn flow(inst: &Instruction) -> Flow {
    match inst.mnemonic() {
        "label" | "func" => label_operand(inst).map_or(Flow::Next, Flow::Label),
        "jmp" => match label_operand(inst) {
            Some(l) => Flow::Branch {
                labels: vec![l],
                falls: predicated(inst),
            },
            None => Flow::Next,
        },
        "goto" | "call" => match label_operand(inst) {
            Some(l) => Flow::Branch {
                labels: vec![l],
                falls: true,
            },
            None => Flow::Next,
        },
        "switchjmp" => match inst.operand("labels") {
            Some(Operand::LabelList(ls)) => Flow::Branch {
                labels: ls.clone(),
                falls: false,
            },
            _ => Flow::Next,
        },
        "ret" | "fret" if !predicated(inst) => Flow::Stop,
        _ => Flow::Next,
    }
}

impl Cfg {
    /// Builds the graph of `code`; linear in the number of instructions and edges.
    pub fn build(code: &[Instruction]) -> Cfg {
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
                Flow::Branch { .. } | Flow::Stop => starts[i + 1] = true,
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
                label: match flow(&code[start]) {
                    Flow::Label(l) => Some(l),
                    _ => None,
                },
                succs: Vec::new(),
                preds: Vec::new(),
            });
        }
        let count = blocks.len();
        for b in 0..count {
            let last = &code[blocks[b].end - 1];
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
                Flow::Stop => false,
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
        Cfg { blocks }
    }

    /// The block holding instruction `index`.
    pub fn block_of(&self, index: usize) -> Option<usize> {
        let b = self.blocks.partition_point(|b| b.end <= index);
        (b < self.blocks.len()).then_some(b)
    }
}
