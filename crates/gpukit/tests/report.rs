//! `gpukit report`: pages for every kind of input are self-contained (no URL but the
//! SVG namespace, a Content-Security-Policy forbidding fetches, every in-page link
//! resolving), every corpus file gets a page, and under `REQUIRE_PEERS=1` headless
//! Chromium (Debian's `chromium`) loads a sample without console errors and writes a
//! screenshot of each to `target/report-screenshots/`.

#[path = "common/browser.rs"]
mod browser;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn out_dir(name: &str) -> PathBuf {
    let dir = root().join("target").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn required() -> bool {
    std::env::var_os("REQUIRE_PEERS").is_some() || std::env::var_os("CI").is_some()
}

/// Checked-in inputs of every kind, and (when the corpus is there) a large kernel.
fn sample() -> Vec<PathBuf> {
    let r = root();
    let mut files: Vec<PathBuf> = [
        "tests/data/visa/l02_local_sum__local_sum.isa",
        "tests/data/visa/local_histogram__histogram_local__simd32.visaasm",
        "crates/iga/tests/data/pvc_saxpy.iga2.json",
        "crates/amd/tests/data/samplekernels.clo",
    ]
    .iter()
    .map(|p| r.join(p))
    .collect();
    let large = r.join("../shared/corpus/intel-sid/tgllp/noinline_helpers__lighting.visaasm");
    if large.exists() {
        files.push(large);
    } else {
        assert!(!required(), "../shared/corpus is missing");
    }
    files
}

fn report(files: &[PathBuf], dir: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_gpukit"))
        .arg("report")
        .arg("--dir")
        .arg(dir)
        .args(files)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "gpukit report failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn pages(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    v.sort();
    v
}

/// What makes a page self-contained and its links work.
fn check_page(path: &Path) {
    let html = std::fs::read_to_string(path).unwrap();
    let name = path.display();
    assert!(html.contains("Content-Security-Policy"), "{name}: no CSP");
    assert!(html.contains("<svg"), "{name}: no picture");
    let stripped = html.replace("http://www.w3.org/2000/svg", "");
    for scheme in ["http://", "https://", "//cdn", "url(http"] {
        assert!(
            !stripped.contains(scheme),
            "{name}: external reference {scheme}"
        );
    }
    for (at, _) in html.match_indices("href=\"#") {
        let rest = &html[at + 7..];
        let id = &rest[..rest.find('"').unwrap()];
        if let Some((k, line)) = listing_line(id) {
            // A listing line: its rows are made by the page's script, so the target
            // is a line of the kernel's vISA pane.
            let pane = format!("id=\"k{k}-visa\"");
            let at = html.find(&pane).unwrap_or_else(|| panic!("{name}: #{id} has no pane"));
            let lines = &html[at..];
            let lines = &lines[lines.find("data-lines=\"").unwrap() + 12..];
            let lines: usize = lines[..lines.find('"').unwrap()].parse().unwrap();
            assert!(line < lines, "{name}: #{id} is past the {lines} lines");
            continue;
        }
        assert!(
            html.contains(&format!("id=\"{id}\"")),
            "{name}: link to #{id} has no target"
        );
    }
}

/// `kK-lN`: line N of kernel K's listing.
fn listing_line(id: &str) -> Option<(usize, usize)> {
    let (k, l) = id.strip_prefix('k')?.split_once("-l")?;
    Some((k.parse().ok()?, l.parse().ok()?))
}

#[test]
fn pages_are_self_contained() {
    let dir = out_dir("report-pages");
    report(&sample(), &dir);
    let pages = pages(&dir);
    assert_eq!(pages.len(), sample().len());
    for p in &pages {
        check_page(p);
    }
}

/// Every corpus file gpukit reports on gets a page (one process, `--dir`).
#[test]
fn every_corpus_file_gets_a_page() {
    let corpus = root().join("../shared/corpus");
    if !corpus.exists() {
        assert!(!required(), "../shared/corpus is missing");
        skipped(format_args!("../shared/corpus is missing"));
        return;
    }
    let mut files = Vec::new();
    let mut stack = vec![corpus];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let reportable = name.ends_with(".isa")
                || name.ends_with(".visaasm")
                || name.ends_with(".iga1.json")
                || name.ends_with(".iga2.json");
            if reportable {
                files.push(p);
            }
        }
    }
    files.sort();
    let dir = out_dir("report-corpus");
    // In batches, so that a failure names a small set; names can repeat across
    // platforms, so each batch gets its own directory.
    let mut made = 0;
    for (i, batch) in files.chunks(400).enumerate() {
        let sub = dir.join(i.to_string());
        std::fs::create_dir_all(&sub).unwrap();
        report(batch, &sub);
        made += pages(&sub).len();
    }
    assert_eq!(made, files.len(), "one page per file");
    assert!(files.len() > 500, "only {} corpus files", files.len());
}

/// Debian's Chromium, headless, with every route off the machine closed: names do
/// not resolve and any connection goes to a closed loopback port.
#[test]
fn pages_load_in_chromium() {
    let have = Command::new("chromium")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        assert!(
            std::env::var_os("REQUIRE_PEERS").is_none(),
            "REQUIRE_PEERS=1 but Debian's chromium is not installed"
        );
        skipped(format_args!("chromium is not installed"));
        return;
    }
    let dir = out_dir("report-browser");
    let shots = out_dir("report-screenshots");
    report(&sample(), &dir);
    for page in pages(&dir) {
        let stem = page.file_stem().unwrap().to_string_lossy().into_owned();
        let png = shots.join(format!("{stem}.png"));
        browser::screenshot_clean(None, &page, &png, "1400,2400", &stem);
    }
}

/// Says that a test skipped, where `cargo test`'s output shows it: libtest hides what
/// a passing test prints with `eprintln!`, not a direct write to stderr.
fn skipped(why: std::fmt::Arguments) {
    use std::io::Write;
    let test = std::thread::current().name().unwrap_or("test").to_string();
    let _ = writeln!(std::io::stderr(), "skipped: {test} ({why})");
}
