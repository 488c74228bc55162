//! IGA assembly text against iga64 itself: every corpus kernel binary is
//! disassembled to text and to JSON (`-Xprint-json`) in a temporary directory,
//! and the text, read by gpukit and written as JSON 1.0, must equal iga64's JSON
//! byte for byte. Every IGC shader dump (`.asm`) and `iga64 -d` text of the
//! corpus must read. Skipped with a message when iga64 or the corpus is
//! missing, unless `REQUIRE_PEERS=1` or `CI=true`, where that fails.

use gpukit_iga::read::text::parse_text;
use gpukit_iga::{render::render, write, Version};
use std::path::{Path, PathBuf};
use std::process::Command;

fn required() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
        || std::env::var("REQUIRE_PEERS").is_ok_and(|v| v == "1")
}

fn corpus() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if root.join("intel").is_dir() {
        return Some(root);
    }
    assert!(
        !required(),
        "corpus missing at {} (required when CI=true or REQUIRE_PEERS=1)",
        root.display()
    );
    skipped(format_args!("{} not found", root.display()));
    None
}

fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.to_string_lossy().ends_with(suffix));
    v.sort();
    v
}

fn first_difference(want: &str, got: &str) -> String {
    for (n, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        if w != g {
            return format!("line {}:\n  want: {w}\n  got:  {g}", n + 1);
        }
    }
    format!(
        "lengths differ: {} vs {} lines",
        want.lines().count(),
        got.lines().count()
    )
}

/// The platforms the issue names, with iga64's `-p` spelling and the corpus folder.
const PLATFORMS: [(&str, &str); 5] = [
    ("skl", "9"),
    ("icllp", "11"),
    ("tgllp", "12p1"),
    ("acm-g10", "12p71"),
    ("pvc", "12p72"),
];

#[test]
fn iga64_text_reads_to_iga64_json() {
    let Some(root) = corpus() else { return };
    if Command::new("iga64").arg("-h").output().is_err() {
        assert!(
            !required(),
            "iga64 missing (required when CI=true or REQUIRE_PEERS=1)"
        );
        skipped(format_args!("iga64 not found"));
        return;
    }
    let tmp = std::env::temp_dir().join(format!("gpukit-iga-text-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut failures = Vec::new();
    let mut report = Vec::new();
    for (device, p) in PLATFORMS {
        let (mut n, mut exact, mut text_exact) = (0, 0, 0);
        let dats: Vec<PathBuf> = ["intel", "iga"]
            .iter()
            .flat_map(|set| files(&root.join(set).join(device), ".dat"))
            .collect();
        for dat in dats {
            let local = tmp.join("k.dat");
            std::fs::copy(&dat, &local).unwrap();
            let run = |extra: &[&str]| {
                let out = Command::new("iga64")
                    .args(["-d", &format!("-p={p}")])
                    .arg(&local)
                    .args(extra)
                    .output()
                    .unwrap();
                assert!(out.status.success(), "iga64 failed on {}", dat.display());
                String::from_utf8(out.stdout).unwrap()
            };
            let text = run(&[]);
            let json = run(&["-Xprint-json"]);
            n += 1;
            match parse_text(&text, Some(p)) {
                Ok(l) => {
                    let got = String::from_utf8(write(&l, Version::V1)).unwrap();
                    if got == json {
                        exact += 1;
                    } else {
                        failures.push(format!(
                            "{}: {}",
                            dat.display(),
                            first_difference(&json, &got)
                        ));
                    }
                    text_exact += (render(&l) == text) as usize;
                }
                Err(e) => failures.push(format!("{}: {e}", dat.display())),
            }
        }
        report.push(format!(
            "{device} (-p={p}): {exact} of {n} JSON byte-exact, {text_exact} re-render byte-exact"
        ));
    }
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!("iga64 text -> JSON:\n  {}", report.join("\n  "));
    if let Ok(path) = std::env::var("IGA_TEXT_DIFFS") {
        std::fs::write(path, failures.join("\n")).unwrap();
    }
    assert!(
        failures.is_empty(),
        "{} failures, first:\n{}",
        failures.len(),
        failures
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn every_corpus_text_reads() {
    let Some(root) = corpus() else { return };
    let mut failures = Vec::new();
    let (mut dumps, mut disassemblies) = (0, 0);
    for (device, p) in PLATFORMS {
        for f in files(&root.join("intel").join(device), ".asm") {
            let text = std::fs::read_to_string(&f).unwrap();
            let iga = f.to_string_lossy().ends_with(".iga.asm");
            // IGC's dumps name their platform in the header; iga64's text does not.
            let platform = iga.then_some(p);
            match parse_text(&text, platform) {
                Ok(_) if iga => disassemblies += 1,
                Ok(_) => dumps += 1,
                Err(e) => failures.push(format!("{}: {e}", f.display())),
            }
        }
    }
    // IGC 2.x and IGC 1.0.5353 dumps of the same sources (their headers name the platform).
    let mut other = 0;
    for set in ["intel-sid", "intel-legacy"] {
        let Ok(rd) = std::fs::read_dir(root.join(set)) else {
            continue;
        };
        let mut dirs: Vec<PathBuf> = rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        for d in dirs {
            for f in files(&d, ".asm") {
                let text = std::fs::read_to_string(&f).unwrap();
                match parse_text(&text, None) {
                    Ok(_) => other += 1,
                    Err(e) => failures.push(format!("{}: {e}", f.display())),
                }
            }
        }
    }
    eprintln!(
        "corpus text: {dumps} IGC dumps and {disassemblies} iga64 texts read; {other} dumps of other IGC releases"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn skipped(why: std::fmt::Arguments) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {why}");
}
