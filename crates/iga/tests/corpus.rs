//! Whole-corpus checks against iga64's own outputs in `<workspace>/../shared/corpus`.
//! Skipped with a message when the corpus is absent, unless `CI=true` or
//! `REQUIRE_PEERS=1`, where its absence fails.

use gpukit_iga::{parse, write, Mode};
use std::path::{Path, PathBuf};

fn corpus_root() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if root.is_dir() {
        return Some(root);
    }
    let required = std::env::var("CI").is_ok_and(|v| v == "true")
        || std::env::var("REQUIRE_PEERS").is_ok_and(|v| v == "1");
    assert!(
        !required,
        "corpus missing at {} (required when CI=true or REQUIRE_PEERS=1)",
        root.display()
    );
    eprintln!("skipping: corpus not found at {}", root.display());
    None
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut v: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    v.sort();
    for p in v {
        if p.is_dir() {
            walk(&p, out);
        } else if p.to_string_lossy().ends_with(".json") {
            out.push(p);
        }
    }
}

/// Every IGA JSON file of the corpus: `iga/**/*.json` and `intel/**/*.iga.json`.
pub fn corpus_json() -> Option<Vec<PathBuf>> {
    let root = corpus_root()?;
    let mut files = Vec::new();
    walk(&root.join("iga"), &mut files);
    let mut intel = Vec::new();
    walk(&root.join("intel"), &mut intel);
    files.extend(
        intel
            .into_iter()
            .filter(|p| p.to_string_lossy().ends_with(".iga.json")),
    );
    Some(files)
}

/// Files iga64 wrote as invalid JSON, from the corpus log.
fn invalid_files(root: &Path) -> Vec<PathBuf> {
    let log = std::fs::read_to_string(root.join("intel/logs/iga-json-validity.tsv")).unwrap();
    log.lines()
        .filter(|l| l.split('\t').nth(1) == Some("INVALID"))
        .map(|l| root.join("intel").join(l.split('\t').next().unwrap()))
        .collect()
}

#[test]
fn round_trip_is_byte_exact() {
    let Some(files) = corpus_json() else { return };
    let root = corpus_root().unwrap();
    let invalid = invalid_files(&root);
    let (mut exact, mut strict_ok, mut repaired) = (0, 0, 0);
    let mut failures = Vec::new();
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let name = f.strip_prefix(&root).unwrap().display().to_string();
        if invalid.contains(f) {
            match parse(&bytes, Mode::Strict) {
                Ok(_) => failures.push(format!("{name}: strict mode accepted invalid JSON")),
                Err(e) => assert!(e.message.contains("expected ',' or ']'"), "{name}: {e}"),
            }
            let p = parse(&bytes, Mode::Lenient).unwrap_or_else(|e| panic!("{name}: lenient: {e}"));
            assert!(!p.repairs.is_empty(), "{name}: no repair reported");
            // The repaired listing is the original with the missing braces put back.
            let mut fixed = bytes.clone();
            let mut inserts: Vec<(usize, u8)> = Vec::new();
            for r in &p.repairs {
                let (s, e) = r
                    .what
                    .split_once("(bytes ")
                    .unwrap()
                    .1
                    .trim_end_matches(')')
                    .split_once("..")
                    .unwrap();
                inserts.push((s.parse().unwrap(), b'{'));
                inserts.push((e.parse().unwrap(), b'}'));
            }
            inserts.sort_by_key(|x| std::cmp::Reverse(x.0));
            for (at, c) in inserts {
                fixed.insert(at, c);
            }
            let out = write(&p.listing, p.listing.version);
            if out != fixed {
                failures.push(format!(
                    "{name}: repaired listing does not write back as the braced original"
                ));
            } else {
                repaired += 1;
            }
            continue;
        }
        let p = match parse(&bytes, Mode::Strict) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        strict_ok += 1;
        let out = write(&p.listing, p.listing.version);
        if out == bytes {
            exact += 1;
        } else {
            let at = out
                .iter()
                .zip(&bytes)
                .position(|(a, b)| a != b)
                .unwrap_or(out.len().min(bytes.len()));
            let lo = at.saturating_sub(80);
            failures.push(format!(
                "{name}: differs at byte {at}\n  want: {}\n  got:  {}",
                String::from_utf8_lossy(&bytes[lo..(at + 80).min(bytes.len())]),
                String::from_utf8_lossy(&out[lo..(at + 80).min(out.len())])
            ));
        }
    }
    eprintln!(
        "{} files: {strict_ok} parse strict, {exact} round-trip byte-exact, {repaired} of {} invalid repaired exactly",
        files.len(),
        invalid.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
