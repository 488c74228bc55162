//! vISA text against IGC's own dumps:
//! - every IGC-printed `.visaasm` parses and prints back byte for byte, and (for
//!   versions with a binary form) survives assembling and disassembling;
//! - every legacy `.isa` disassembles, reassembles and decodes to the same object
//!   (string-pool order aside, which the text does not carry).
//!
//! Files that do not yet round-trip are listed in `text_known_gaps.txt` with the
//! reason; the test fails both on a new failure and on a listed file that now passes.

mod common;

use common::{canonical, first_difference};
use gpukit_visa::text::{parse_text, parse_text_with, print_text, print_text_with};
use gpukit_visa::text::{ParseOptions, PrintOptions};
use gpukit_visa::*;
use std::collections::BTreeSet;

fn known_gaps() -> BTreeSet<String> {
    include_str!("text_known_gaps.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

/// Every direction with the one GRF size of the file's platform (its corpus directory):
/// `&var[offset]` counts bytes of that size, the model rows of it.
fn round_trip(text: &str, grf_bytes: u32) -> Result<(), String> {
    let parse = ParseOptions { grf_bytes };
    let print = PrintOptions {
        grf_bytes: Some(grf_bytes),
    };
    let obj = parse_text_with(text, &parse).map_err(|d| {
        format!(
            "parse: {}",
            d.0.first()
                .map(|d| format!("{}:{}: {}", d.line, d.col, d.message))
                .unwrap_or_default()
        )
    })?;
    let printed = print_text_with(&obj, &print);
    if printed != text {
        let line = printed
            .lines()
            .zip(text.lines())
            .position(|(a, b)| a != b)
            .map_or(0, |i| i + 1);
        return Err(format!("print(parse(text)) differs at line {line}"));
    }
    if obj.version.has_binary_form() {
        let bytes = write(&obj).map_err(|e| format!("asm: {e}"))?;
        let back = read(&bytes).map_err(|e| format!("asm output does not read: {e}"))?;
        if print_text_with(&back, &print) != text {
            return Err("dis(asm(text)) differs".into());
        }
    }
    Ok(())
}

#[test]
fn igc_printed_texts_round_trip() {
    let gaps = known_gaps();
    let mut failures = Vec::new();
    let mut fixed = Vec::new();
    let mut checked = 0;
    for sub in ["intel-legacy", "intel", "intel-sid"] {
        let Some(dir) = common::corpus(sub) else {
            return;
        };
        for path in common::files(&dir, ".visaasm") {
            let rel = path
                .strip_prefix(dir.parent().unwrap())
                .unwrap()
                .display()
                .to_string();
            if rel.contains("visaasm-src") {
                continue;
            }
            checked += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            let grf_bytes = if rel.contains("/pvc/") { 64 } else { 32 };
            match (round_trip(&text, grf_bytes), gaps.contains(&rel)) {
                (Ok(()), true) => fixed.push(rel),
                (Err(e), false) => failures.push(format!("{rel}: {e}")),
                _ => {}
            }
        }
    }
    eprintln!(
        "{checked} IGC-printed texts checked, {} listed as known gaps",
        gaps.len()
    );
    assert!(
        failures.is_empty(),
        "{} new failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        fixed.is_empty(),
        "now passing, remove from text_known_gaps.txt:\n{}",
        fixed.join("\n")
    );
}

#[test]
fn legacy_binaries_survive_text() {
    let Some(dir) = common::corpus("intel-legacy") else {
        return;
    };
    let mut failures = Vec::new();
    let files = common::files(&dir, ".isa");
    let mut identical = 0;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let obj = read(&bytes).unwrap();
        let text = print_text(&obj);
        let back = match parse_text(&text) {
            Ok(b) => b,
            Err(d) => {
                failures.push(format!("{}: {}", path.display(), d));
                continue;
            }
        };
        let rebytes = write(&back).unwrap();
        let reread = read(&rebytes).unwrap();
        let (a, b) = (canonical(&reread), canonical(&obj));
        if a != b {
            failures.push(format!(
                "{}: asm(dis(isa)) decodes to a different object: {}",
                path.display(),
                first_difference(&a, &b)
            ));
        }
        identical += usize::from(rebytes == bytes);
    }
    eprintln!(
        "asm(dis(isa)) byte-identical to IGC's file: {identical} of {}",
        files.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// Hand-written sources (which GenX_IR accepted) parse, and gpukit's `fmt` of them is a
/// fixed point: formatting again changes nothing and means the same object.
#[test]
fn hand_written_sources_parse_and_format_stably() {
    let Some(dir) = common::corpus("intel/visaasm-src") else {
        return;
    };
    let files = common::files(&dir, ".visaasm");
    assert!(files.len() >= 14);
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let obj = match parse_text(&text) {
            Ok(o) => o,
            Err(d) => {
                failures.push(d.render(&path.display().to_string(), &text));
                continue;
            }
        };
        let formatted = print_text(&obj);
        match parse_text(&formatted) {
            Ok(again)
                if print_text(&again) == formatted && canonical(&again) == canonical(&obj) => {}
            Ok(_) => failures.push(format!("{}: fmt is not a fixed point", path.display())),
            Err(d) => failures.push(format!(
                "{}: fmt output does not parse: {d}",
                path.display()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `&var[offset]` counts bytes of the platform's GRF in both text directions: with 64-byte
/// GRFs (PVC) `&V0032[64]` is row 1, column 0, and fmt, asm and dis all give it back.
#[test]
fn pvc_address_of_offsets_use_one_grf_size() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/visa/pvc_address_of.visaasm"
    );
    let text = std::fs::read_to_string(path).unwrap();
    round_trip(&text, 64).unwrap();
    let obj = parse_text_with(&text, &ParseOptions { grf_bytes: 64 }).unwrap();
    let insts = obj.kernels[0].body.code.instructions().unwrap();
    // The first general operand of each `addr_add` is its `&V0032[...]`.
    let rows_cols: Vec<(u8, u8)> = insts
        .iter()
        .filter_map(|i| {
            i.operands.iter().find_map(|o| match o {
                model::Operand::Vector(model::Vector {
                    kind: model::VectorKind::General { row, col, .. },
                    ..
                }) => Some((*row, *col)),
                _ => None,
            })
        })
        .collect();
    assert_eq!(rows_cols, [(0, 0), (1, 0), (2, 1)]);
}
