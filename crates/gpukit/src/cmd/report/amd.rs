//! AMD Catalyst CL1/CL2 binaries as report pages: the `amd info` report per kernel
//! (device, registers, memory, arguments). GCN code is not disassembled, so there is no
//! CFG or listing.

use crate::cmd::amd::info::AnyReport;
use crate::error::CmdError;
use gpukit_report::{Bars, Kernel, Page, Table};
use std::path::Path;

pub(super) fn page(path: &Path) -> Result<Page, CmdError> {
    let report = crate::cmd::amd::info::report(path)?;
    // The JSON form of the report is the one description of its fields; the page
    // shows it as tables rather than restating each field here.
    let value = match &report {
        AnyReport::Cl1(r) => serde_json::to_value(r),
        AnyReport::Cl2(r) => serde_json::to_value(r),
    }
    .map_err(|e| CmdError::Io(e.to_string()))?;
    let mut page = Page::default();
    if let Some(obj) = value.as_object() {
        for (k, v) in obj {
            if k != "kernels" && !v.is_array() && !v.is_object() {
                page.facts.push((k.clone(), scalar(v)));
            }
        }
    }
    for k in value["kernels"].as_array().into_iter().flatten() {
        let mut kernel = Kernel {
            name: k["name"].as_str().unwrap_or("?").to_string(),
            ..Kernel::default()
        };
        if let Some(obj) = k.as_object() {
            for (key, v) in obj {
                match v {
                    serde_json::Value::Array(items) if items.iter().all(|i| i.is_object()) => {
                        if let Some(t) = table(key, items) {
                            kernel.tables.push(t);
                        }
                    }
                    serde_json::Value::Object(fields) => {
                        for (f, fv) in fields {
                            if !fv.is_array() && !fv.is_object() {
                                kernel.summary.push((format!("{key}.{f}"), scalar(fv)));
                            }
                        }
                    }
                    v if key != "name" => kernel.summary.push((key.clone(), scalar(v))),
                    _ => {}
                }
            }
        }
        // The numbers worth comparing at a glance, one unit per chart.
        let pick = |words: &[&str]| -> Vec<(String, usize)> {
            kernel
                .summary
                .iter()
                .filter(|(k, _)| {
                    let k = k.to_ascii_lowercase();
                    words.iter().any(|w| k.contains(w))
                })
                .filter_map(|(k, v)| Some((k.clone(), v.parse::<usize>().ok()?)))
                .collect()
        };
        kernel.bars = vec![
            Bars {
                heading: "Registers".into(),
                title: "registers used".into(),
                items: pick(&["sgprs", "vgprs"]),
            },
            Bars {
                heading: "Sizes".into(),
                title: "bytes".into(),
                items: pick(&[
                    "code_size",
                    "data_size",
                    "kernarg",
                    "hw_local",
                    "private",
                    "scratch",
                ]),
            },
        ];
        page.kernels.push(kernel);
    }
    Ok(page)
}

fn scalar(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => "-".into(),
        other => other.to_string(),
    }
}

fn table(title: &str, items: &[serde_json::Value]) -> Option<Table> {
    let first = items.first()?.as_object()?;
    let header: Vec<String> = first.keys().cloned().collect();
    let rows = items
        .iter()
        .map(|i| header.iter().map(|h| scalar(&i[h])).collect())
        .collect();
    Some(Table {
        title: title.replace('_', " "),
        header,
        rows,
    })
}
