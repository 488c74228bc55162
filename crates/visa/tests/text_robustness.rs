//! Never a panic on text: every truncation of the checked-in `.visaasm` fixtures and
//! byte mutations of every corpus text parse to a clean `Ok` or diagnostics; whatever
//! parses prints and parses again.

mod common;

use common::Rng;

use gpukit_visa::text::{parse_text, print_text};

/// `GPUKIT_FULL_SWEEP=1` (CI, in release) cuts at every character and makes every
/// mutation; otherwise (a debug `cargo test`) the first 256 cuts, every 29th after
/// them, and the first twentieth of the same mutation sequence, every file still covered.
fn full_sweep() -> bool {
    std::env::var_os("GPUKIT_FULL_SWEEP").is_some_and(|v| v != "0")
}

fn mutation_count(full: usize) -> usize {
    if full_sweep() {
        full
    } else {
        full.div_ceil(20)
    }
}

fn exercise(src: &str) {
    if let Ok(obj) = parse_text(src) {
        let printed = print_text(&obj);
        assert!(parse_text(&printed).is_ok(), "printed text does not parse");
    }
}

fn mutate(text: &str, count: usize, seed: u64, name: &str) {
    let bytes = text.as_bytes();
    let mut rng = Rng(seed | 1);
    const POOL: &[u8] = b" .,:;()<>[]{}=\"\\0123456789xMVPTSA%&!-_\n";
    for i in 0..mutation_count(count) {
        let mut m = bytes.to_vec();
        let at = (rng.next() % m.len() as u64) as usize;
        m[at] = POOL[(rng.next() % POOL.len() as u64) as usize];
        if let Ok(s) = std::str::from_utf8(&m) {
            let r = std::panic::catch_unwind(|| exercise(s));
            assert!(r.is_ok(), "{name}: panic on mutation #{i} at byte {at}");
        }
    }
}

#[test]
fn fixture_truncations_and_mutations_never_panic() {
    for f in common::files(
        &common::workspace_root().join("tests/data/visa"),
        ".visaasm",
    ) {
        let text = std::fs::read_to_string(&f).unwrap();
        let name = f.display().to_string();
        let full = full_sweep();
        for (n, (len, _)) in text.char_indices().enumerate() {
            if !(full || n < 256 || n % 29 == 0) {
                continue;
            }
            let r = std::panic::catch_unwind(|| exercise(&text[..len]));
            assert!(r.is_ok(), "{name}: panic on truncation to {len} bytes");
        }
        mutate(&text, 3000, text.len() as u64, &name);
    }
}

#[test]
fn corpus_text_mutations_never_panic() {
    use rayon::prelude::*;
    for sub in ["intel-legacy", "intel", "intel-sid"] {
        let Some(dir) = common::corpus(sub) else {
            return;
        };
        common::files(&dir, ".visaasm").par_iter().for_each(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            mutate(
                &text,
                100,
                text.len() as u64 ^ 0x5EED,
                &f.display().to_string(),
            );
        });
    }
}

/// Texts the fuzzers found (`tests/data/visa/fuzz/visa_text*`): whatever parses prints
/// to text that parses back and prints the same.
#[test]
fn fuzz_regression_texts_round_trip() {
    let dir = common::workspace_root().join("tests/data/visa/fuzz");
    for f in common::files(&dir, "") {
        let name = f.file_name().unwrap().to_string_lossy();
        if !name.starts_with("visa_text") {
            continue;
        }
        let Ok(src) = String::from_utf8(std::fs::read(&f).unwrap()) else {
            continue;
        };
        if let Ok(obj) = gpukit_visa::text::parse_text(&src) {
            let printed = gpukit_visa::text::print_text(&obj);
            let again = gpukit_visa::text::parse_text(&printed)
                .unwrap_or_else(|e| panic!("{}: printed text does not parse: {e}", f.display()));
            assert_eq!(
                gpukit_visa::text::print_text(&again),
                printed,
                "{}",
                f.display()
            );
        }
    }
}
