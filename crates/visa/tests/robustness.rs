//! Never a panic: every truncation and thousands of single-byte mutations of every
//! `.isa` (the checked-in fixtures, and the shared corpus when present) must read as a
//! clean `Ok` or `Err`; whatever reads must also write without panicking.

mod common;

use common::Rng;

use std::path::PathBuf;

/// `GPUKIT_FULL_SWEEP=1` (CI, in release) cuts at every length and makes every
/// mutation; otherwise (a debug `cargo test`) the first 256 lengths, every 29th
/// after them, and the first twentieth of the same mutation sequence, every file still
/// covered.
fn full_sweep() -> bool {
    std::env::var_os("GPUKIT_FULL_SWEEP").is_some_and(|v| v != "0")
}

fn sampled(len: usize) -> bool {
    full_sweep() || len < 256 || len % 29 == 0
}

fn mutation_count(full: usize) -> usize {
    if full_sweep() {
        full
    } else {
        full / 20
    }
}

fn exercise(bytes: &[u8]) {
    // Strict reading is lenient reading plus one early return, so one pass covers both.
    if let Ok(obj) = gpukit_visa::read_lenient(bytes) {
        let _ = gpukit_visa::write(&obj);
    }
}

fn sweep(path: &PathBuf, mutations: usize) {
    let bytes = std::fs::read(path).unwrap();
    for len in (0..bytes.len()).filter(|&l| sampled(l)) {
        let r = std::panic::catch_unwind(|| exercise(&bytes[..len]));
        assert!(
            r.is_ok(),
            "{}: panic on truncation to {len} bytes",
            path.display()
        );
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ bytes.len() as u64);
    let mut m = bytes.clone();
    for i in 0..mutation_count(mutations) {
        let at = (rng.next() % bytes.len() as u64) as usize;
        let val = rng.next() as u8;
        let old = m[at];
        m[at] = val;
        let r = std::panic::catch_unwind(|| exercise(&m));
        assert!(
            r.is_ok(),
            "{}: panic on mutation #{i}: byte {at:#x} = {val:#04x}",
            path.display()
        );
        m[at] = old;
    }
}

#[test]
fn fixtures_never_panic() {
    let files = common::files(&common::workspace_root().join("tests/data/visa"), ".isa");
    assert!(!files.is_empty());
    for f in &files {
        sweep(f, 5000);
    }
}

#[test]
fn corpus_never_panics() {
    use rayon::prelude::*;
    for sub in ["intel-legacy", "intel"] {
        let Some(dir) = common::corpus(sub) else {
            return;
        };
        common::files(&dir, ".isa")
            .par_iter()
            .for_each(|f| sweep(f, 2000));
    }
}

/// Inputs the fuzzers found: whatever reads must write, and the written bytes must read
/// back and write again identically.
#[test]
fn fuzz_regressions_round_trip() {
    for f in common::files(
        &common::workspace_root().join("tests/data/visa/fuzz"),
        ".bin",
    ) {
        let data = std::fs::read(&f).unwrap();
        if let Ok(obj) = gpukit_visa::read_lenient(&data) {
            let bytes = gpukit_visa::write(&obj).expect("what reads must write");
            let back = gpukit_visa::read_lenient(&bytes)
                .unwrap_or_else(|e| panic!("{}: written bytes do not read: {e}", f.display()));
            assert_eq!(gpukit_visa::write(&back).unwrap(), bytes, "{}", f.display());
        }
    }
}
