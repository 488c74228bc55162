//! Locating the shared corpus. Tests over it skip with a message on a machine
//! without `../shared`, except under CI or `REQUIRE_PEERS=1`, where a missing corpus
//! is a failure.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn corpus(sub: &str) -> Option<PathBuf> {
    let dir = workspace_root().join("../shared/corpus").join(sub);
    if dir.is_dir() {
        return Some(dir);
    }
    let required = std::env::var("CI").is_ok_and(|v| v == "true")
        || std::env::var("REQUIRE_PEERS").is_ok_and(|v| v == "1");
    assert!(
        !required,
        "corpus folder {} is missing (required under CI / REQUIRE_PEERS=1)",
        dir.display()
    );
    eprintln!("skipping: corpus folder {} not found", dir.display());
    None
}

/// Every file under `dir` (recursively) whose name ends with `suffix`, sorted.
pub fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(suffix) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Number of instructions in an IGC `.visaasm` dump: one more than the highest `/// $N`.
pub fn visaasm_instruction_count(text: &str) -> usize {
    text.lines()
        .filter_map(|l| {
            l.rsplit_once("/// $")
                .and_then(|(_, n)| n.trim().parse::<usize>().ok())
        })
        .max()
        .map_or(0, |m| m + 1)
}
