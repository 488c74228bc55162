//! Helpers shared by the corpus tests: where the corpus is, and its files.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `<workspace>/../shared/corpus/amd`, or `None` (with a message) when it is
/// absent; absence fails the test under `CI=true` or `REQUIRE_PEERS=1`.
pub fn corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/amd");
    if dir.is_dir() {
        return Some(dir);
    }
    let required = std::env::var("CI").is_ok_and(|v| v == "true")
        || std::env::var("REQUIRE_PEERS").is_ok_and(|v| v == "1");
    assert!(
        !required,
        "corpus not found at {} (required by CI/REQUIRE_PEERS)",
        dir.display()
    );
    skipped(format_args!("corpus not found at {}", dir.display()));
    None
}

pub fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                if p.extension() != Some(std::ffi::OsStr::new("meta")) {
                    stack.push(p);
                }
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

pub fn meta_dir(file: &Path) -> PathBuf {
    let mut s = file.as_os_str().to_owned();
    s.push(".meta");
    PathBuf::from(s)
}

/// A fixture folder under `tests/fixtures`.
pub fn dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(sub)
}

/// The files of a folder whose names end with `suffix`, sorted.
pub fn listing(d: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(d)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    v.sort();
    v
}

/// Compares `got` with the file at `expected` (or writes it under BLESS).
pub fn check(expected: &Path, got: &str, failures: &mut Vec<String>) {
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(expected, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(expected).unwrap_or_default();
    if want != got {
        failures.push(format!(
            "{}:\n--- expected\n{want}\n--- got\n{got}",
            expected.display()
        ));
    }
}

/// Says that a test skipped, where `cargo test`'s output shows it: libtest hides what
/// a passing test prints with `eprintln!`, not a direct write to stderr.
pub fn skipped(why: std::fmt::Arguments) {
    use std::io::Write;
    let test = std::thread::current().name().unwrap_or("test").to_string();
    let _ = writeln!(std::io::stderr(), "skipped: {test} ({why})");
}
