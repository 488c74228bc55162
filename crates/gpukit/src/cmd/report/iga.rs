//! IGA JSON listings as report pages: the CFG of its blocks, register pressure from
//! iga64's `liveTotals` (when printed with `-Xprint-defs`), mix, `check` problems and
//! the listing as iga64 prints it, registers highlighted by what each line writes/reads.

use crate::error::CmdError;
use gpukit_iga::model::{Element, OperandKind};
use gpukit_report::{Bars, Finding, Graph, Kernel, Line, Node, Page, Pressure};
use std::collections::BTreeMap;
use std::path::Path;

/// GRFs in the register file (the platforms' normal mode).
const GRF_COUNT: u64 = 128;

pub(super) fn page(path: &Path) -> Result<Page, CmdError> {
    let parsed = crate::cmd::iga::load(path, true, None)?;
    let l = &parsed.listing;
    let text = gpukit_iga::render::render(l);
    // One printed line per element, labels included.
    let mut listing: Vec<Line> = text
        .lines()
        .map(|t| Line {
            text: t.to_string(),
            ..Line::default()
        })
        .collect();
    let mut line_of_id = std::collections::HashMap::new();
    for (ix, e) in l.elems.iter().enumerate() {
        let Some(line) = listing.get_mut(ix) else {
            break;
        };
        match e {
            Element::Label(_) => line.is_label = true,
            Element::Inst(i) => {
                line_of_id.insert(i.id, ix);
                let reg = |op: &gpukit_iga::model::Operand| match &op.kind {
                    OperandKind::Direct(r) | OperandKind::Macro(r) => {
                        Some(format!("{}{}", r.reg.name, r.reg.num))
                    }
                    _ => None,
                };
                if let Some(d) = i.dst.as_deref().and_then(reg) {
                    line.defs.push(d);
                }
                for s in i.srcs.iter().filter_map(reg) {
                    if !line.uses.contains(&s) {
                        line.uses.push(s);
                    }
                }
            }
        }
    }
    let cfg = gpukit_iga::cfg::Cfg::build(l);
    let graph = Graph {
        nodes: cfg
            .blocks
            .iter()
            .map(|b| Node {
                label: if b.symbol.is_empty() {
                    "entry".into()
                } else {
                    b.symbol.clone()
                },
                detail: format!("{} instructions", b.insts.len()),
                line: b.label.or_else(|| b.insts.first().copied()).unwrap_or(0),
            })
            .collect(),
        edges: cfg
            .succs
            .iter()
            .enumerate()
            .flat_map(|(b, s)| s.iter().map(move |&t| (b, t)))
            .collect(),
    };
    let grf = gpukit_iga::analysis::grf_bytes(&l.platform) as u64;
    let insts: Vec<&gpukit_iga::model::Instruction> = l.insts().collect();
    let pressure = insts.iter().any(|i| i.live_totals.is_some()).then(|| {
        let bytes: Vec<u64> = insts
            .iter()
            .map(|i| i.live_totals.as_ref().map_or(0, |t| t.r.max(0) as u64))
            .collect();
        let peak = bytes
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0)))
            .map(|(i, _)| i);
        let block_starts = cfg
            .blocks
            .iter()
            .filter_map(|b| b.insts.first())
            .filter_map(|&elem| {
                insts
                    .iter()
                    .position(|i| line_of_id.get(&i.id) == Some(&elem))
            })
            .collect();
        Pressure {
            bytes,
            grf_bytes: grf,
            budget_bytes: Some(GRF_COUNT * grf),
            block_starts,
            peak,
            peak_live: Vec::new(),
            source: "iga64's liveTotals: GRF bytes live before each instruction (the listing \
                     was printed with -Xprint-defs); the register file line is 128 GRFs."
                .into(),
            lines: insts
                .iter()
                .map(|i| line_of_id.get(&i.id).copied().unwrap_or(0))
                .collect(),
        }
    });
    let mut mix: BTreeMap<String, usize> = BTreeMap::new();
    for i in &insts {
        *mix.entry(i.op.clone()).or_insert(0) += 1;
    }
    let findings = gpukit_iga::analysis::check(l)
        .into_iter()
        .map(|d| Finding {
            line: None,
            rule: d.rule.to_string(),
            message: format!("{}: {}", d.path, d.message),
        })
        .collect();
    let kernel = Kernel {
        name: path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        summary: vec![
            ("IGA JSON version".into(), l.version.as_str().into()),
            ("platform".into(), l.platform.clone()),
            ("instructions".into(), insts.len().to_string()),
            ("blocks".into(), cfg.blocks.len().to_string()),
        ],
        tables: Vec::new(),
        cfg: Some(graph),
        pressure,
        bars: vec![Bars::mix(mix.into_iter().collect())],
        findings,
        listing: listing.into(),
        pressure_detail: None,
        levels: None,
    };
    Ok(Page {
        facts: vec![("repairs".into(), parsed.repairs.len().to_string())],
        kernels: vec![kernel],
        ..Page::default()
    })
}
