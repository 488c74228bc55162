//! Malformed-input fixtures: each `data/malformed/<name>.json` has beside it
//! `<name>.expected`, the diagnostics of a strict and a lenient read (and, when
//! the lenient read succeeds, what it writes back). `BLESS=1` rewrites them.

use gpukit_iga::{parse, write, Mode};
use std::path::Path;

fn outcome(bytes: &[u8], mode: Mode) -> String {
    match parse(bytes, mode) {
        Err(e) => format!("error ({:?}): {e}\n", e.kind),
        Ok(p) => {
            let mut s = format!("ok: {} elements\n", p.listing.elems.len());
            for r in &p.repairs {
                s.push_str(&format!("repaired: {r}\n"));
            }
            if mode == Mode::Lenient {
                s.push_str("writes back:\n");
                s.push_str(&String::from_utf8_lossy(&write(
                    &p.listing,
                    p.listing.version,
                )));
            }
            s
        }
    }
}

#[test]
fn malformed_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/malformed");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    names.sort();
    assert!(names.len() >= 10);
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    for p in &names {
        let bytes = std::fs::read(p).unwrap();
        let got = format!(
            "strict: {}lenient: {}",
            outcome(&bytes, Mode::Strict),
            outcome(&bytes, Mode::Lenient)
        );
        let exp = p.with_extension("expected");
        if bless {
            std::fs::write(&exp, &got).unwrap();
        }
        let want = std::fs::read_to_string(&exp).unwrap_or_default();
        if got != want {
            failures.push(format!(
                "{}:\n--- expected\n{want}--- got\n{got}",
                p.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
