//! Basic blocks and control-flow edges of a listing.
//!
//! Every label opens a block (iga64 prints exactly one label per block). Two edge rules:
//!
//! - [`EdgeRule::Flow`], the true control flow that `iga cfg`, `stats` and every
//!   analysis use: a block falls through to the next unless it ends in an unpredicated
//!   `jmpi` or `ret` or an unpredicated EOT instruction; a branch also has edges to its
//!   label operands.
//! - [`EdgeRule::Iga64`], the rule iga64's JSON 2.0 formatter uses for a label's
//!   `preds`/`succs`, quirks included, so that converted listings match it byte for
//!   byte: a block ending in a non-branching instruction falls through only when that
//!   instruction has EOT or a predicate (iga64 tests the inverse of what its variable
//!   name says), so blocks after an ordinary `add` look unreachable; a branch has edges
//!   to its label operands and falls through unless it is an unpredicated `jmpi`.

use crate::model::{Element, Instruction, Listing, OperandKind};
use std::collections::{BTreeSet, HashMap};

#[derive(Clone, Debug)]
pub struct Block {
    /// Index in `Listing::elems` of the block's label, if it has one (only
    /// instructions before the first label have none).
    pub label: Option<usize>,
    pub symbol: String,
    /// Indices in `Listing::elems` of the block's instructions.
    pub insts: Vec<usize>,
}

#[derive(Clone, Debug)]
pub struct Cfg {
    pub blocks: Vec<Block>,
    pub succs: Vec<BTreeSet<usize>>,
    pub preds: Vec<BTreeSet<usize>>,
    /// Block index of each instruction id.
    pub block_of: HashMap<i64, usize>,
}

/// Which edges a [`Cfg`] has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeRule {
    /// The true control flow (fall-through included).
    Flow,
    /// iga64's JSON 2.0 `preds`/`succs`, for byte-exact conversion and for checking a
    /// listing's own labels.
    Iga64,
}

/// Ops iga64 treats as branching (its `IS_BRANCH` op attribute).
pub fn is_branching(op: &str) -> bool {
    crate::ops::has(op, crate::ops::BRANCH)
}

impl Cfg {
    /// The true control-flow graph ([`EdgeRule::Flow`]).
    pub fn build(listing: &Listing) -> Cfg {
        Cfg::build_with(listing, EdgeRule::Flow)
    }

    /// The graph iga64's JSON 2.0 labels describe ([`EdgeRule::Iga64`]).
    pub fn build_iga64(listing: &Listing) -> Cfg {
        Cfg::build_with(listing, EdgeRule::Iga64)
    }

    pub fn build_with(listing: &Listing, rule: EdgeRule) -> Cfg {
        let mut blocks: Vec<Block> = Vec::new();
        let mut block_of = HashMap::new();
        for (ix, e) in listing.elems.iter().enumerate() {
            match e {
                Element::Label(l) => blocks.push(Block {
                    label: Some(ix),
                    symbol: l.symbol.clone(),
                    insts: Vec::new(),
                }),
                Element::Inst(i) => {
                    if blocks.is_empty() {
                        blocks.push(Block {
                            label: None,
                            symbol: String::new(),
                            insts: Vec::new(),
                        });
                    }
                    let b = blocks.len() - 1;
                    blocks[b].insts.push(ix);
                    block_of.entry(i.id).or_insert(b);
                }
            }
        }
        let mut by_symbol = HashMap::new();
        for (b, blk) in blocks.iter().enumerate() {
            if blk.label.is_some() {
                by_symbol.entry(blk.symbol.as_str()).or_insert(b);
            }
        }
        let n = blocks.len();
        let mut succs = vec![BTreeSet::new(); n];
        let mut preds = vec![BTreeSet::new(); n];
        let mut edge = |p: usize, s: usize| {
            succs[p].insert(s);
            preds[s].insert(p);
        };
        for (b, blk) in blocks.iter().enumerate() {
            let next = (b + 1 < n).then_some(b + 1);
            let Some(&last) = blk.insts.last() else {
                if let Some(nx) = next {
                    edge(b, nx);
                }
                continue;
            };
            let Element::Inst(li) = &listing.elems[last] else {
                continue;
            };
            let branching = is_branching(&li.op);
            if branching {
                for t in branch_targets(li) {
                    if let Some(&tb) = by_symbol.get(t) {
                        edge(b, tb);
                    }
                }
            }
            let unpredicated = li.pred.is_none();
            let falls_through = match (rule, branching) {
                (EdgeRule::Flow, false) => !(li.has_opt("EOT") && unpredicated),
                (EdgeRule::Flow, true) => {
                    !(unpredicated && matches!(li.op.as_str(), "jmpi" | "ret"))
                }
                (EdgeRule::Iga64, false) => li.has_opt("EOT") || !unpredicated,
                (EdgeRule::Iga64, true) => li.op != "jmpi" || !unpredicated,
            };
            if let (true, Some(nx)) = (falls_through, next) {
                edge(b, nx);
            }
        }
        Cfg {
            blocks,
            succs,
            preds,
            block_of,
        }
    }

    /// The block's instructions.
    pub fn insts<'a>(
        &'a self,
        listing: &'a Listing,
        b: usize,
    ) -> impl Iterator<Item = &'a Instruction> + 'a {
        self.blocks[b]
            .insts
            .iter()
            .filter_map(move |&ix| match &listing.elems[ix] {
                Element::Inst(i) => Some(&**i),
                Element::Label(_) => None,
            })
    }

    /// Graphviz text: one node per block (label and instruction count), one edge per CFG edge.
    pub fn to_dot(&self, listing: &Listing) -> String {
        let mut s = String::from("digraph cfg {\n  node [shape=box, fontname=\"monospace\"];\n");
        for (b, blk) in self.blocks.iter().enumerate() {
            let name = if blk.symbol.is_empty() {
                format!("B{b}")
            } else {
                blk.symbol.clone()
            };
            let n = blk.insts.len();
            let ops: Vec<&str> = self.insts(listing, b).map(|i| i.op.as_str()).collect();
            let last = ops.last().copied().unwrap_or("");
            s.push_str(&format!(
                "  b{b} [label=\"{}\\n{n} instruction{}{}\"];\n",
                dot_escape(&name),
                if n == 1 { "" } else { "s" },
                if last.is_empty() {
                    String::new()
                } else {
                    format!("\\nends: {}", dot_escape(last))
                }
            ));
        }
        for (b, ss) in self.succs.iter().enumerate() {
            for t in ss {
                s.push_str(&format!("  b{b} -> b{t};\n"));
            }
        }
        s.push_str("}\n");
        s
    }
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Label operands of an instruction, in source order.
pub fn branch_targets(i: &Instruction) -> impl Iterator<Item = &str> {
    i.srcs.iter().filter_map(|s| match &s.kind {
        OperandKind::Label { target, .. } => Some(target.as_str()),
        _ => None,
    })
}
