//! Never a panic on text: every truncation of the checked-in `.visaasm` fixtures and
//! byte mutations of every corpus text parse to a clean `Ok` or diagnostics; whatever
//! parses prints and parses again.

mod common;

use common::Rng;

use gpukit_visa::text::{parse_text, print_text};

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
    for i in 0..count {
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
        for (len, _) in text.char_indices() {
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
