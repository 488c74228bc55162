//! Consistency checks and statistics over a listing.

use crate::cfg::{branch_targets, Cfg};
use crate::convert::derive_uses;
use crate::limits;
use crate::model::*;
use std::collections::{BTreeMap, HashMap, HashSet};

/// One finding of [`check`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    /// JSON path of the element, e.g. `elems[12]`.
    pub path: String,
    /// Stable rule name, e.g. `label-target`.
    pub rule: &'static str,
    pub message: String,
}

struct Findings {
    list: Vec<Diagnostic>,
    key: &'static str,
}

impl Findings {
    fn push(&mut self, ix: usize, rule: &'static str, message: String) {
        if self.list.len() < limits::MAX_DIAGNOSTICS {
            self.list.push(Diagnostic {
                path: format!("{}[{ix}]", self.key),
                rule,
                message,
            });
        }
    }
}

/// Checks what iga64's output guarantees: ids unique, label targets exist,
/// `defs` name instructions, and (2.0) `uses` mirror `defs` and label
/// `preds`/`succs` match the control flow of the instructions.
pub fn check(l: &Listing) -> Vec<Diagnostic> {
    let key = match l.version {
        Version::V1 => "insts",
        Version::V2 => "elems",
    };
    let mut f = Findings {
        list: Vec::new(),
        key,
    };
    let mut inst_ids = HashMap::new();
    let mut symbols = HashSet::new();
    let mut label_ids = HashSet::new();
    for (ix, e) in l.elems.iter().enumerate() {
        match e {
            Element::Inst(i) => {
                if let Some(first) = inst_ids.insert(i.id, ix) {
                    f.push(
                        ix,
                        "unique-id",
                        format!("instruction id {} already used at {key}[{first}]", i.id),
                    );
                }
            }
            Element::Label(lb) => {
                if !symbols.insert(lb.symbol.as_str()) {
                    f.push(
                        ix,
                        "unique-label",
                        format!("label \"{}\" defined twice", lb.symbol),
                    );
                }
                if let Some(id) = lb.id {
                    if !label_ids.insert(id) {
                        f.push(ix, "unique-id", format!("label id {id} used twice"));
                    }
                }
            }
        }
    }
    let derived = derive_uses(l);
    for (ix, e) in l.elems.iter().enumerate() {
        let Element::Inst(i) = e else { continue };
        for t in branch_targets(i) {
            if !symbols.contains(t) {
                f.push(
                    ix,
                    "label-target",
                    format!(
                        "instruction {} branches to \"{t}\", which no label defines",
                        i.id
                    ),
                );
            }
        }
        for d in crate::convert::defs_of(i) {
            if !inst_ids.contains_key(&d) {
                f.push(
                    ix,
                    "defs-exist",
                    format!(
                        "instruction {} lists defining instruction {d}, which does not exist",
                        i.id
                    ),
                );
            }
        }
        if l.version == Version::V2 {
            let want = derived.get(&i.id).cloned().unwrap_or_default();
            let dst_uses = match i.dst.as_ref().map(|d| &d.kind) {
                Some(OperandKind::Direct(r) | OperandKind::Macro(r) | OperandKind::Indirect(r)) => {
                    r.uses.clone()
                }
                _ => Vec::new(),
            };
            let fm_uses = i
                .flag_modifier
                .as_ref()
                .map(|fm| fm.uses.clone())
                .unwrap_or_default();
            let imp_uses = i
                .implicit
                .as_ref()
                .map(|im| im.uses.clone())
                .unwrap_or_default();
            for (what, have, want) in [
                ("dst", dst_uses, want.dst),
                ("fm", fm_uses, want.flag_modifier),
                ("implicit", imp_uses, want.implicit),
            ] {
                if have != want {
                    f.push(
                        ix,
                        "defs-uses",
                        format!("instruction {}: {what} uses {have:?}, but the defs of other instructions say {want:?}", i.id),
                    );
                }
            }
        }
    }
    if l.version == Version::V2 {
        // A listing's labels carry iga64's edges, so they are checked against iga64's rule.
        let cfg = Cfg::build_iga64(l);
        // iga64 of IGC 2.x numbers blocks from 1, earlier releases from 0: the
        // first label says which, and every other id must follow from it.
        let base = l
            .elems
            .iter()
            .find_map(|e| match e {
                Element::Label(lb) => Some(lb.id),
                Element::Inst(_) => None,
            })
            .flatten()
            .filter(|&id| id == 1)
            .unwrap_or(crate::convert::FIRST_BLOCK_ID);
        for (b, blk) in cfg.blocks.iter().enumerate() {
            let Some(ix) = blk.label else { continue };
            let Element::Label(lb) = &l.elems[ix] else {
                continue;
            };
            if lb.id != Some(b as i64 + base) {
                f.push(
                    ix,
                    "block-id",
                    format!(
                        "label \"{}\" has id {:?}; it opens block {}",
                        lb.symbol,
                        lb.id,
                        b as i64 + base
                    ),
                );
            }
            let preds: Vec<i64> = cfg.preds[b].iter().map(|&p| p as i64 + base).collect();
            let succs: Vec<i64> = cfg.succs[b].iter().map(|&s| s as i64 + base).collect();
            if lb.preds != preds {
                f.push(
                    ix,
                    "cfg-edges",
                    format!(
                        "label \"{}\": preds {:?}, but the instructions give {preds:?}",
                        lb.symbol, lb.preds
                    ),
                );
            }
            if lb.succs != succs {
                f.push(
                    ix,
                    "cfg-edges",
                    format!(
                        "label \"{}\": succs {:?}, but the instructions give {succs:?}",
                        lb.symbol, lb.succs
                    ),
                );
            }
        }
    }
    f.list
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Stats {
    pub version: &'static str,
    pub platform: String,
    pub instructions: usize,
    pub labels: usize,
    pub blocks: usize,
    /// Instruction count per mnemonic (send and math include their subop: `send.dc1`).
    pub ops: BTreeMap<String, usize>,
    pub sends: SendStats,
    pub sbid: SbidStats,
    /// Instructions carrying a register-distance annotation.
    pub reg_dist: usize,
    pub pressure: Option<Pressure>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SendStats {
    pub total: usize,
    /// Per shared function (the send subop).
    pub by_sfid: BTreeMap<String, usize>,
    pub eot: usize,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SbidStats {
    /// Distinct SBID tokens used.
    pub tokens: Vec<i64>,
    /// Token allocations (`$N`).
    pub set: usize,
    /// Waits for source readout (`$N.src`).
    pub src: usize,
    /// Waits for writeback (`$N.dst`).
    pub dst: usize,
}

/// Register pressure from `liveTotals` (bytes live before each instruction).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Pressure {
    pub grf_bytes_peak: i64,
    pub grf_bytes_mean: f64,
    /// Peak in whole registers of the platform's GRF size.
    pub grf_regs_peak: i64,
    pub grf_reg_bytes: i64,
    /// Id of the first instruction at the peak.
    pub peak_at: i64,
    pub acc_bytes_peak: i64,
    pub flag_bytes_peak: i64,
    pub addr_bytes_peak: i64,
}

/// Bytes per GRF on an IGA platform: 64 from XeHPC on, 32 before.
pub fn grf_bytes(platform: &str) -> i64 {
    match platform {
        "xehpc" | "xe2" | "xe3" | "xe2hpg" | "xe2lpg" | "xe3lpg" => 64,
        _ => 32,
    }
}

/// Whole registers needed for `bytes` (saturating: `liveTotals` is input).
pub fn regs_for(bytes: i64, reg: i64) -> i64 {
    bytes.saturating_add(reg - 1).div_euclid(reg)
}

pub fn stats(l: &Listing) -> Stats {
    let mut ops = BTreeMap::new();
    let mut sends = SendStats::default();
    let mut sbid = SbidStats::default();
    let mut reg_dist = 0;
    let mut tokens = std::collections::BTreeSet::new();
    let mut live = Vec::new();
    for i in l.insts() {
        let name = match (&i.subop, i.is_send() || i.op == "math") {
            (Some(s), true) => format!("{}.{s}", i.op),
            _ => i.op.clone(),
        };
        *ops.entry(name).or_insert(0) += 1;
        if i.is_send() {
            sends.total += 1;
            *sends
                .by_sfid
                .entry(i.subop.clone().unwrap_or_default())
                .or_insert(0) += 1;
            if i.has_opt("EOT") {
                sends.eot += 1;
            }
        }
        if let Some(sb) = &i.sbid {
            tokens.insert(sb.id);
            match sb.func.as_str() {
                ".src" => sbid.src += 1,
                ".dst" => sbid.dst += 1,
                _ => sbid.set += 1,
            }
        }
        if i.reg_dist.is_some() {
            reg_dist += 1;
        }
        if let Some(lt) = &i.live_totals {
            live.push((i.id, lt));
        }
    }
    sbid.tokens = tokens.into_iter().collect();
    let pressure = (!live.is_empty()).then(|| {
        let reg = grf_bytes(&l.platform);
        let (peak_at, peak) = live
            .iter()
            .fold((live[0].0, i64::MIN), |(at, m), (id, lt)| {
                if lt.r > m {
                    (*id, lt.r)
                } else {
                    (at, m)
                }
            });
        let sum: f64 = live.iter().map(|(_, lt)| lt.r as f64).sum();
        Pressure {
            grf_bytes_peak: peak,
            grf_bytes_mean: (sum / live.len() as f64 * 100.0).round() / 100.0,
            grf_regs_peak: regs_for(peak, reg),
            grf_reg_bytes: reg,
            peak_at,
            acc_bytes_peak: live.iter().map(|(_, lt)| lt.acc).max().unwrap_or(0),
            flag_bytes_peak: live.iter().map(|(_, lt)| lt.f).max().unwrap_or(0),
            addr_bytes_peak: live.iter().map(|(_, lt)| lt.a).max().unwrap_or(0),
        }
    });
    Stats {
        version: l.version.as_str(),
        platform: l.platform.clone(),
        instructions: l.insts().count(),
        labels: l.labels().count(),
        blocks: Cfg::build(l).blocks.len(),
        ops,
        sends,
        sbid,
        reg_dist,
        pressure,
    }
}

impl Stats {
    /// The plain-text report of `gpukit iga stats`.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "IGA JSON {} listing, platform {}: {} instructions, {} labels, {} blocks\n",
            self.version, self.platform, self.instructions, self.labels, self.blocks
        );
        let mut ops: Vec<_> = self.ops.iter().collect();
        ops.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        s.push_str("instruction mix:\n");
        for (op, n) in ops {
            s.push_str(&format!("  {op:<16} {n:>6}\n"));
        }
        s.push_str(&format!(
            "sends: {} ({} with EOT)",
            self.sends.total, self.sends.eot
        ));
        for (sfid, n) in &self.sends.by_sfid {
            s.push_str(&format!(", {sfid} {n}"));
        }
        s.push('\n');
        s.push_str(&format!(
            "sbid: {} tokens used, {} set, {} .src waits, {} .dst waits; {} instructions with a register distance\n",
            self.sbid.tokens.len(),
            self.sbid.set,
            self.sbid.src,
            self.sbid.dst,
            self.reg_dist
        ));
        match &self.pressure {
            Some(p) => s.push_str(&format!(
                "register pressure: peak {} bytes ({} GRFs of {} bytes) before instruction {}, mean {:.2} bytes; peaks acc {} f {} a {} bytes\n",
                p.grf_bytes_peak, p.grf_regs_peak, p.grf_reg_bytes, p.peak_at, p.grf_bytes_mean, p.acc_bytes_peak, p.flag_bytes_peak, p.addr_bytes_peak
            )),
            None => s.push_str("register pressure: no liveTotals (listing printed without -Xprint-defs)\n"),
        }
        s
    }
}
