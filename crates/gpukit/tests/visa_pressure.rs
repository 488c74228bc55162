//! `gpukit visa pressure --asm` on every kernel of `../shared/corpus` that has IGC's
//! `.asm` dump beside its vISA (`X.asm` with `X.visaasm`, or `X.isa` where there is no
//! text): no conflict between gpukit's liveness and IGC's register assignment is left
//! unexplained (kind `liveness`), and the vISA pressure peak in live bytes fits the
//! kernel's `numGRF` GRFs for at least 95% of the kernels IGC compiled without
//! spilling. The numbers are printed (`cargo test -- --nocapture`). Skipped with a
//! `skipped:` line when the corpus is absent, unless `CI=true` or `REQUIRE_PEERS=1`.
//!
//! Conflicts not yet explained are listed, one `corpus-path a b` a line, in
//! `tests/data/visa/pressure/open_conflicts.txt`: each is an open question (a gpukit
//! liveness defect or an IGC transformation not recognised yet); one not listed fails
//! the test. vISA binaries that do not decode (GenX_IR 1.0.12504's defective writer)
//! are counted and printed, not checked.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn corpus() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if root.is_dir() {
        return Some(root);
    }
    let required = std::env::var_os("REQUIRE_PEERS").is_some()
        || std::env::var("CI").is_ok_and(|v| v == "true");
    assert!(!required, "{} is required", root.display());
    println!("skipped: {} is absent", root.display());
    None
}

/// (vISA file, `.asm`) of every dumped kernel, sorted.
fn pairs(root: &Path) -> Vec<(PathBuf, PathBuf)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            let name = p.to_string_lossy().into_owned();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let Some(stem) = name.strip_suffix(".asm") else {
                continue;
            };
            if stem.ends_with(".iga")
                || !std::fs::read_to_string(&p).is_ok_and(|t| t.starts_with("//."))
            {
                continue;
            }
            let visa = [".visaasm", ".isa"]
                .iter()
                .map(|ext| PathBuf::from(format!("{stem}{ext}")))
                .find(|v| v.exists());
            if let Some(v) = visa {
                out.push((v, p));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn corpus_allocations_agree_with_liveness() {
    let Some(root) = corpus() else { return };
    let pairs = pairs(&root);
    assert!(pairs.len() > 400, "{} kernels with an .asm", pairs.len());
    let (mut unexplained, mut explained) = (Vec::new(), 0usize);
    let (mut no_spill, mut fits, mut over) = (0usize, 0usize, Vec::new());
    let open_list = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/data/visa/pressure/open_conflicts.txt"),
    )
    .unwrap_or_default();
    let open: Vec<&str> = open_list
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let (mut still_open, mut undecodable) = (0usize, Vec::new());
    let mut failed = Vec::new();
    let mut kinds = std::collections::BTreeMap::new();
    for (visa, asm) in &pairs {
        let out = Command::new(env!("CARGO_BIN_EXE_gpukit"))
            .args(["visa", "pressure", "--json", "--asm"])
            .arg(asm)
            .arg(visa)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            if visa.extension().is_some_and(|e| e == "isa") && err.contains("instruction") {
                undecodable.push(visa.display().to_string());
                continue;
            }
            failed.push(format!(
                "{}: {}",
                visa.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
            continue;
        }
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let x = &r["asm"];
        for c in x["conflicts"].as_array().unwrap() {
            if c["kind"] == "liveness" {
                let rel = visa
                    .strip_prefix(&root)
                    .unwrap_or(visa)
                    .display()
                    .to_string();
                let line = format!(
                    "{rel} {} {}",
                    c["a"].as_str().unwrap_or(""),
                    c["b"].as_str().unwrap_or("")
                );
                if open.contains(&line.as_str()) {
                    still_open += 1;
                    continue;
                }
                unexplained.push(format!("{line} (at instruction {})", c["instruction"]));
            } else {
                explained += 1;
                *kinds
                    .entry(c["kind"].as_str().unwrap_or("").to_owned())
                    .or_insert(0usize) += 1;
            }
        }
        if x["spill_bytes"] == 0 {
            no_spill += 1;
            let budget = x["num_grf"].as_u64().unwrap() * x["grf_bytes"].as_u64().unwrap();
            let peak = r["peak_bytes"].as_u64().unwrap();
            if peak <= budget {
                fits += 1;
            } else {
                over.push(format!("{}: {peak} > {budget} bytes", visa.display()));
            }
        }
    }
    println!(
        "{} kernels with an .asm ({} vISA binaries do not decode); {} failed; conflicts: \
         {} unexplained, {still_open} open (listed), {explained} explained {kinds:?}",
        pairs.len(),
        undecodable.len(),
        failed.len(),
        unexplained.len()
    );
    println!(
        "{no_spill} compiled without spilling; peak live bytes within numGRF for {fits} ({:.1}%)",
        100.0 * fits as f64 / no_spill.max(1) as f64
    );
    for o in &over {
        println!("  over: {o}");
    }
    for u in &unexplained {
        println!("  unexplained: {u}");
    }
    assert!(failed.is_empty(), "{failed:#?}");
    assert!(
        unexplained.is_empty(),
        "{} unexplained conflicts",
        unexplained.len()
    );
    assert!(
        fits * 100 >= no_spill * 95,
        "{fits} of {no_spill} within numGRF"
    );
}
