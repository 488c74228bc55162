//! Benchmark of `gpukit scan` against one process per file.
//!
//!     cargo build --release -p gpukit
//!     cargo run --release -p gpukit --example scan_bench -- [CORPUS] [WORKDIR]
//!
//! Copies CORPUS (default `../shared/corpus`) into WORKDIR (default
//! `target/scan-bench`) as 2,000 and 20,000 files (real copies, 500 a directory,
//! spread evenly over the corpus so both have its mix of formats; made once, kept
//! for later runs), then for each size runs
//! `gpukit scan DIR -o /dev/null` (NDJSON and Parquet) under `/usr/bin/time` for
//! wall time, CPU time and peak RSS, and, on the 2,000-file copy, `gpukit info FILE`
//! once per file (`xargs -n1`) for the per-process cost. Prints one line per run.

use std::path::{Path, PathBuf};
use std::process::Command;

const SIZES: [usize; 2] = [2_000, 20_000];
const PER_DIR: usize = 500;

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else if p.is_file() {
            out.push(p);
        }
    }
}

/// WORKDIR/N with N files copied round-robin from the corpus; returns its total bytes.
fn make_copy(corpus: &[PathBuf], work: &Path, n: usize) -> (PathBuf, u64) {
    let dir = work.join(n.to_string());
    let done = dir.join(".complete");
    if !done.exists() {
        let _ = std::fs::remove_dir_all(&dir);
        for i in 0..n {
            // Spread evenly over the corpus, so that both sizes have its mix of formats.
            let src = if n <= corpus.len() {
                &corpus[i * corpus.len() / n]
            } else {
                &corpus[i % corpus.len()]
            };
            let sub = dir.join(format!("d{:04}", i / PER_DIR));
            if i % PER_DIR == 0 {
                std::fs::create_dir_all(&sub).unwrap();
            }
            let name = src.file_name().unwrap().to_string_lossy();
            std::fs::copy(src, sub.join(format!("{i:06}-{name}"))).unwrap();
        }
        std::fs::write(&done, b"").unwrap();
    }
    let mut files = Vec::new();
    files_under(&dir, &mut files);
    files.retain(|f| f != &done);
    assert_eq!(files.len(), n);
    let bytes = files
        .iter()
        .map(|f| std::fs::metadata(f).unwrap().len())
        .sum();
    (dir, bytes)
}

struct Timed {
    wall: f64,
    cpu: f64,
    rss_kb: u64,
}

/// Runs `sh -c script` under `/usr/bin/time`, whose numbers include every child.
fn timed(script: &str) -> Timed {
    let out = Command::new("/usr/bin/time")
        .args(["-f", "TIMED %e %U %S %M", "sh", "-c", script])
        .output()
        .expect("/usr/bin/time (apt-get install time)");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stderr
        .lines()
        .rev()
        .find(|l| l.starts_with("TIMED "))
        .unwrap_or_else(|| panic!("no timing from: {stderr}"));
    let v: Vec<f64> = line[6..]
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    Timed {
        wall: v[0],
        cpu: v[1] + v[2],
        rss_kb: v[3] as u64,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let corpus_dir = args
        .first()
        .map_or_else(|| root.join("../shared/corpus"), PathBuf::from);
    let work = args
        .get(1)
        .map_or_else(|| root.join("target/scan-bench"), PathBuf::from);
    let gpukit = root.join("target/release/gpukit");
    assert!(
        gpukit.exists(),
        "build it first: cargo build --release -p gpukit"
    );
    let gpukit = gpukit.canonicalize().unwrap();
    let mut corpus = Vec::new();
    files_under(&corpus_dir, &mut corpus);
    assert!(!corpus.is_empty(), "{}: no files", corpus_dir.display());
    println!(
        "corpus: {} files; machine: {} CPUs",
        corpus.len(),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    let g = gpukit.display();
    let mut per_process_file_wall = None;
    for n in SIZES {
        let (dir, bytes) = make_copy(&corpus, &work, n);
        let d = dir.display();
        let mb = bytes as f64 / 1e6;
        // Warm the page cache so that every run reads from memory alike.
        timed(&format!("cat $(find {d} -type f) > /dev/null"));
        for format in ["ndjson", "parquet"] {
            let t = timed(&format!(
                "{g} scan {d} --format {format} -o /dev/null 2>/dev/null"
            ));
            println!(
                "scan {n} files ({mb:.1} MB) {format}: {:.2} s wall, {:.2} s CPU, {:.0} files/s, \
                 {:.1} MB/s, peak RSS {} KB",
                t.wall,
                t.cpu,
                n as f64 / t.wall,
                mb / t.wall,
                t.rss_kb
            );
            if format == "ndjson" {
                if let Some(pp) = per_process_file_wall {
                    println!(
                        "  vs one process per file: {:.1}x (wall per file {:.3} ms vs {:.3} ms)",
                        pp / (t.wall / n as f64),
                        pp * 1e3,
                        t.wall / n as f64 * 1e3
                    );
                }
            }
        }
        if per_process_file_wall.is_none() {
            let t = timed(&format!(
                "find {d} -type f ! -name .complete -print0 | xargs -0 -n1 {g} info \
                 > /dev/null 2>&1; true"
            ));
            let per = t.wall / n as f64;
            println!(
                "one `gpukit info` per file, {n} files: {:.2} s wall, {:.2} s CPU, {:.0} files/s",
                t.wall,
                t.cpu,
                n as f64 / t.wall
            );
            let s = timed(&format!("{g} scan {d} -o /dev/null 2>/dev/null"));
            println!(
                "  vs scan: {:.1}x wall, {:.1}x CPU",
                t.wall / s.wall,
                t.cpu / s.cpu.max(1e-3)
            );
            per_process_file_wall = Some(per);
        }
    }
}
