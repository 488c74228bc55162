//! Conversion between the two format versions, reproducing what iga64 prints
//! for the same kernel in the other version.
//!
//! The versions carry the same dataflow differently:
//! - 1.0 lists `defs` in the order iga64's dependence analysis found them
//!   (blocks in program order, each walked backwards: within a block, the
//!   nearest definition first); 2.0 lists them sorted and unique.
//! - 2.0 adds `uses` on outputs (destination, flag modifier, implicit
//!   accumulator): the inverse of every `defs` list, attributed to the output
//!   that writes the register file the reader reads.
//! - 2.0 labels carry block ids and `preds`/`succs`, from [`crate::cfg`].
//! - 2.0 prints `implicit` only on instructions with implicit operands,
//!   1.0 prints `other` on every instruction.

use crate::cfg::Cfg;
use crate::model::*;
use std::collections::{BTreeSet, HashMap};

/// Converts a listing to `to`, filling in what that version carries and the
/// other does not. Converting to the listing's own version returns it as is.
pub fn convert(listing: &Listing, to: Version) -> Listing {
    convert_owned(listing.clone(), to)
}

/// As [`convert`], reusing the listing's elements (and their vector) for the
/// result: converting a large listing does not hold two of it.
pub fn convert_owned(listing: Listing, to: Version) -> Listing {
    convert_numbered(listing, to, None)
}

/// The id iga64 gives a listing's first block in JSON 2.0: 0 in IGA up to
/// 2023 (IGC 1.0.x, the corpus's `iga2` build), 1 in the iga64 of IGC 2.x
/// releases. Nothing else in the two releases' JSON differs.
pub const FIRST_BLOCK_ID: i64 = 0;

/// As [`convert_owned`], numbering 2.0 blocks from `first_block_id` (default
/// [`FIRST_BLOCK_ID`]). Given explicitly, a 2.0 listing is renumbered too.
pub fn convert_numbered(listing: Listing, to: Version, first_block_id: Option<i64>) -> Listing {
    match (listing.version, to) {
        (Version::V2, Version::V2) if first_block_id.is_some() => {
            to_v2(listing, first_block_id.unwrap_or(FIRST_BLOCK_ID))
        }
        (a, b) if a == b => listing,
        (_, Version::V2) => to_v2(listing, first_block_id.unwrap_or(FIRST_BLOCK_ID)),
        (_, Version::V1) => to_v1(listing),
    }
}

/// Register files as iga64's dataflow tracks them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum File {
    Grf,
    Acc,
    Flag,
    Addr,
    Scalar,
    Untracked,
}

fn file_of(reg_name: &str) -> File {
    match reg_name {
        "r" => File::Grf,
        "acc" => File::Acc,
        "f" => File::Flag,
        "a" => File::Addr,
        "s" => File::Scalar,
        _ => File::Untracked,
    }
}

/// Instructions with implicit operands: accumulator reads or writes
/// (`mach`, `mac`, `macl`, `addc`, `subb`, AccWrEn) and the predicate of a
/// `sel`, which iga64 counts as implicit.
pub fn has_implicit_operands(i: &Instruction) -> bool {
    crate::ops::has(&i.op, crate::ops::ACC_IN | crate::ops::ACC_OUT)
        || i.has_opt("AccWrEn")
        || (i.op == "sel" && i.pred.is_some())
}

/// Whether the instruction writes the accumulator implicitly.
fn writes_acc_implicitly(i: &Instruction) -> bool {
    crate::ops::has(&i.op, crate::ops::ACC_OUT) || i.has_opt("AccWrEn")
}

/// Every `defs` reference of an instruction, with the register file it reads.
fn inputs(i: &Instruction) -> Vec<(i64, File)> {
    let mut out = Vec::new();
    let mut add = |ids: &[i64], f: File| out.extend(ids.iter().map(|&d| (d, f)));
    if let Some(p) = &i.pred {
        add(&p.defs, File::Flag);
    }
    if let Some(imp) = &i.implicit {
        add(
            &imp.defs,
            if i.op == "sel" { File::Flag } else { File::Acc },
        );
    }
    if let Some(d) = &i.dst {
        if let OperandKind::Indirect(r) = &d.kind {
            add(&r.defs, File::Addr);
        }
    }
    for s in &i.srcs {
        match &s.kind {
            OperandKind::Direct(r) | OperandKind::Macro(r) => add(&r.defs, file_of(&r.reg.name)),
            OperandKind::Indirect(r) => add(&r.defs, File::Addr),
            OperandKind::Immediate { defs, .. } | OperandKind::Label { defs, .. } => {
                add(defs, File::Untracked)
            }
            OperandKind::Data(d) => add(&d.defs, file_of(&d.reg.name)),
            OperandKind::Address(a) => {
                add(&a.defs, file_of(&a.reg.name));
                if let Some(s) = &a.surface {
                    add(&s.defs, File::Addr);
                }
            }
        }
    }
    out
}

/// Every instruction id an instruction's `defs` lists name.
pub fn defs_of(i: &Instruction) -> impl Iterator<Item = i64> {
    inputs(i).into_iter().map(|(d, _)| d)
}

/// 1.0 never prints an indirect source's region. This infers it: a scalar
/// read `<0;1,0>` at execution size 1, else the VxH `<1,0>` compilers emit
/// most (as in the corpus, where 2.0 agrees). An inference, not a conversion.
pub fn inferred_indirect_region(exec_size: i64) -> Region {
    if exec_size == 1 {
        Region {
            v: Some(0),
            w: Some(1),
            h: 0,
        }
    } else {
        Region {
            v: None,
            w: Some(1),
            h: 0,
        }
    }
}

fn sorted_unique(ids: &[i64]) -> Vec<i64> {
    ids.iter()
        .copied()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

fn for_each_defs(i: &mut Instruction, mut f: impl FnMut(&mut Vec<i64>)) {
    if let Some(p) = &mut i.pred {
        f(&mut p.defs);
    }
    if let Some(imp) = &mut i.implicit {
        f(&mut imp.defs);
    }
    for s in &mut i.srcs {
        match &mut s.kind {
            OperandKind::Direct(r) | OperandKind::Macro(r) | OperandKind::Indirect(r) => {
                f(&mut r.defs)
            }
            OperandKind::Immediate { defs, .. } | OperandKind::Label { defs, .. } => f(defs),
            OperandKind::Data(d) => f(&mut d.defs),
            OperandKind::Address(a) => {
                f(&mut a.defs);
                if let Some(s) = &mut a.surface {
                    f(&mut s.defs);
                }
            }
        }
    }
}

/// The `uses` iga64 prints on an instruction's outputs, derived from every
/// other instruction's `defs`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DerivedUses {
    pub dst: Vec<i64>,
    pub flag_modifier: Vec<i64>,
    pub implicit: Vec<i64>,
}

/// Inverts the listing's `defs` into per-output `uses`, keyed by instruction
/// id. A reader is attributed to the output writing the register file it reads.
pub fn derive_uses(l: &Listing) -> HashMap<i64, DerivedUses> {
    let mut readers: HashMap<i64, Vec<(i64, File)>> = HashMap::new();
    for i in l.insts() {
        for (def, file) in inputs(i) {
            readers.entry(def).or_default().push((i.id, file));
        }
    }
    let uses_in = |id: i64, files: &[File]| -> Vec<i64> {
        let ids: BTreeSet<i64> = readers
            .get(&id)
            .into_iter()
            .flatten()
            .filter(|(_, f)| files.contains(f))
            .map(|(u, _)| *u)
            .collect();
        ids.into_iter().collect()
    };
    let mut out = HashMap::new();
    for i in l.insts() {
        let acc_out = writes_acc_implicitly(i);
        let mut d = DerivedUses::default();
        if acc_out && has_implicit_operands(i) {
            d.implicit = uses_in(i.id, &[File::Acc]);
        }
        if i.flag_modifier.is_some() && i.op != "sel" {
            d.flag_modifier = uses_in(i.id, &[File::Flag]);
        }
        if let Some(dst) = &i.dst {
            // Send destinations and indirect destinations carry no uses in iga64's output.
            if let OperandKind::Direct(r) | OperandKind::Macro(r) = &dst.kind {
                if !i.is_send() {
                    let mut files = vec![file_of(&r.reg.name)];
                    if acc_out {
                        files.push(File::Acc);
                    }
                    files.retain(|f| *f != File::Untracked);
                    d.dst = uses_in(i.id, &files);
                }
            }
        }
        out.entry(i.id).or_insert(d);
    }
    out
}

fn to_v2(l: Listing, first_block_id: i64) -> Listing {
    let cfg = Cfg::build_iga64(&l);
    let derived = derive_uses(&l);
    let block_at: HashMap<usize, usize> = cfg
        .blocks
        .iter()
        .enumerate()
        .filter_map(|(b, blk)| blk.label.map(|ix| (ix, b)))
        .collect();
    // Each element is changed where it lies (`collect` reuses the vector).
    let elems = l
        .elems
        .into_iter()
        .enumerate()
        .map(|(ix, e)| match e {
            Element::Label(lb) => {
                // Every label opens a block; the fallback is for the type checker.
                let b = block_at.get(&ix).copied().unwrap_or(0);
                Element::Label(Box::new(Label {
                    id: Some(b as i64 + first_block_id),
                    preds: cfg.preds[b]
                        .iter()
                        .map(|&p| p as i64 + first_block_id)
                        .collect(),
                    succs: cfg.succs[b]
                        .iter()
                        .map(|&s| s as i64 + first_block_id)
                        .collect(),
                    ..*lb
                }))
            }
            Element::Inst(mut n) => {
                for_each_defs(&mut n, |d| *d = sorted_unique(d));
                let uses = derived.get(&n.id).cloned().unwrap_or_default();
                n.implicit = if has_implicit_operands(&n) && n.implicit.is_some() {
                    let old = n.implicit.take().unwrap_or_default();
                    Some(Box::new(Implicit {
                        defs: old.defs,
                        uses: uses.implicit,
                        extra: old.extra,
                    }))
                } else {
                    None
                };
                if let Some(fm) = &mut n.flag_modifier {
                    fm.uses = uses.flag_modifier;
                }
                if let Some(d) = &mut n.dst {
                    if let OperandKind::Direct(r)
                    | OperandKind::Macro(r)
                    | OperandKind::Indirect(r) = &mut d.kind
                    {
                        r.defs.clear();
                        r.uses = uses.dst;
                    }
                }
                let exec_size = n.exec_size;
                for s in &mut n.srcs {
                    if let OperandKind::Indirect(r) = &mut s.kind {
                        r.rgn.get_or_insert(inferred_indirect_region(exec_size));
                    }
                    if let OperandKind::Address(a) = &mut s.kind {
                        if let Some(surf) = &mut a.surface {
                            if !surf.is_stateful() {
                                surf.offset = None;
                                surf.defs.clear();
                            } else if matches!(surf.offset, Some(SurfaceOffset::Imm(_))) {
                                surf.defs.clear();
                            }
                        }
                    }
                }
                Element::Inst(n)
            }
        })
        .collect();
    Listing {
        version: Version::V2,
        platform: l.platform,
        elems,
        extra: l.extra,
    }
}

fn to_v1(l: Listing) -> Listing {
    let cfg = Cfg::build_iga64(&l);
    // iga64's analysis emits a use's definitions block by block in program
    // order, walking each block backwards.
    let order = |ids: &mut Vec<i64>| {
        ids.sort_by_key(|d| {
            (
                cfg.block_of.get(d).copied().unwrap_or(usize::MAX),
                std::cmp::Reverse(*d),
            )
        });
    };
    // Each element is changed where it lies (`collect` reuses the vector).
    let elems = l
        .elems
        .into_iter()
        .map(|e| match e {
            Element::Label(lb) => Element::Label(Box::new(Label {
                id: None,
                preds: Vec::new(),
                succs: Vec::new(),
                ..*lb
            })),
            Element::Inst(mut n) => {
                // 1.0 prints `other` (implicit reads) on every instruction when dataflow is on.
                n.implicit = if n.live_totals.is_some() || n.implicit.is_some() {
                    let old = n.implicit.take().unwrap_or_default();
                    Some(Box::new(Implicit {
                        defs: old.defs,
                        uses: Vec::new(),
                        extra: old.extra,
                    }))
                } else {
                    None
                };
                for_each_defs(&mut n, order);
                if let Some(fm) = &mut n.flag_modifier {
                    fm.uses.clear();
                }
                if let Some(d) = &mut n.dst {
                    if let OperandKind::Direct(r)
                    | OperandKind::Macro(r)
                    | OperandKind::Indirect(r) = &mut d.kind
                    {
                        r.uses.clear();
                    }
                }
                let flat_id = flat_surface_id(&n);
                for s in &mut n.srcs {
                    if let OperandKind::Address(a) = &mut s.kind {
                        if let Some(surf) = &mut a.surface {
                            if !surf.is_stateful() && surf.offset.is_none() {
                                surf.offset = Some(SurfaceOffset::Imm(flat_id));
                            }
                        }
                    }
                }
                Element::Inst(n)
            }
        })
        .collect();
    Listing {
        version: Version::V1,
        platform: l.platform,
        elems,
        extra: l.extra,
    }
}

/// The surface id iga64's message decoder gives a flat (stateless) address, which 1.0
/// prints as the surface `offset` and 2.0 leaves out (no `soff`). Every decoder sets 0
/// for a flat address except the legacy data-cache memory fence (SFID dc0 = 0xA,
/// message type 7 in descriptor bits 14-18), which keeps the descriptor's BTI byte:
/// 254 (0xFE) for an SLM fence, 0 for a global one. The descriptor and extended
/// descriptor are the send's last two immediates; with a register descriptor the
/// message is unknown and 0 is written.
fn flat_surface_id(i: &Instruction) -> i64 {
    let imms: Vec<u64> = i
        .srcs
        .iter()
        .filter_map(|s| match &s.kind {
            OperandKind::Immediate { value, .. } => parse_imm(value),
            _ => None,
        })
        .collect();
    let [.., ex_desc, desc] = imms[..] else {
        return 0;
    };
    let dc0 = match i.subop.as_deref() {
        Some(sfid) => sfid == "dc0",
        // Gen9's sends print no SFID; it is the extended descriptor's low nibble.
        None => ex_desc & 0xF == 0xA,
    };
    const MEMORY_FENCE: u64 = 7;
    if i.is_send() && dc0 && (desc >> 14) & 0x1F == MEMORY_FENCE {
        (desc & 0xFF) as i64
    } else {
        0
    }
}

fn parse_imm(v: &str) -> Option<u64> {
    match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => v.parse().ok(),
    }
}
