//! The `--html` page's model, filled from the comparisons; `gpukit_report::diff_page`
//! draws it with the report pages' pictures.

use super::figures::METRICS;
use super::render::Unmatched;
use super::structural::KernelDiff;
use gpukit_report::diff_page::{DiffKernel, DiffPage};

pub fn page(title: String, diffs: &[KernelDiff], unmatched: &[Unmatched]) -> DiffPage {
    DiffPage {
        title,
        facts: vec![
            ("kernels matched".into(), diffs.len().to_string()),
            (
                "changed".into(),
                diffs.iter().filter(|d| d.changed).count().to_string(),
            ),
        ],
        kernels: diffs.iter().map(kernel).collect(),
        unmatched: unmatched
            .iter()
            .map(|u| (u.side.to_string(), u.kernel.clone(), u.file.clone()))
            .collect(),
    }
}

fn kernel(d: &KernelDiff) -> DiffKernel {
    let bars = |counts: std::collections::BTreeMap<String, i64>| -> Vec<(String, usize)> {
        counts
            .into_iter()
            .map(|(k, v)| (k, usize::try_from(v).unwrap_or(0)))
            .collect()
    };
    DiffKernel {
        name: format!("{} ({})", d.a.name, d.key),
        file_a: d.a.files(),
        file_b: d.b.files(),
        changed: d.changed,
        figures: METRICS
            .iter()
            .map(|m| (m.name.to_string(), (m.get)(&d.a), (m.get)(&d.b)))
            .filter(|(_, a, b)| a.is_some() || b.is_some())
            .collect(),
        mix_a: bars(d.a.opcodes()),
        mix_b: bars(d.b.opcodes()),
        sends_a: bars(d.a.send_kinds()),
        sends_b: bars(d.b.send_kinds()),
        pressure_a: d.a.page.as_ref().and_then(|k| k.pressure.clone()),
        pressure_b: d.b.page.as_ref().and_then(|k| k.pressure.clone()),
        cfg_a: d.a.page.as_ref().and_then(|k| k.cfg.clone()),
        cfg_b: d.b.page.as_ref().and_then(|k| k.cfg.clone()),
        structural: d.structural.clone().unwrap_or_default(),
    }
}
