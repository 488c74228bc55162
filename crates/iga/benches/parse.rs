//! Parse throughput on the largest corpus listing, against `serde_json::Value`
//! on the same bytes in the same run. Falls back to the checked-in fixture
//! when the corpus is absent.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::path::{Path, PathBuf};

fn largest_listing() -> (String, Vec<u8>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let mut best: Option<(u64, PathBuf)> = None;
    let mut stack = vec![root.join("iga"), root.join("intel")];
    while let Some(dir) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(".json") {
                let len = e.metadata().map(|m| m.len()).unwrap_or(0);
                // Only listings that are valid JSON, so both parsers do the same work.
                if best.as_ref().is_none_or(|b| len > b.0) {
                    if let Ok(bytes) = std::fs::read(&p) {
                        if serde_json::from_slice::<serde_json::Value>(&bytes).is_ok() {
                            best = Some((len, p));
                        }
                    }
                }
            }
        }
    }
    let path = best.map(|b| b.1).unwrap_or_else(|| {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tgllp_saxpy.iga1.json")
    });
    (path.display().to_string(), std::fs::read(&path).unwrap())
}

fn bench(c: &mut Criterion) {
    let (name, bytes) = largest_listing();
    eprintln!("benchmarking {name} ({} bytes)", bytes.len());
    let mut g = c.benchmark_group("parse");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("gpukit_iga::parse (strict, typed model)", |b| {
        b.iter(|| {
            gpukit_iga::parse(std::hint::black_box(&bytes), gpukit_iga::Mode::Strict).unwrap()
        })
    });
    g.bench_function("serde_json::Value", |b| {
        b.iter(|| {
            serde_json::from_slice::<serde_json::Value>(std::hint::black_box(&bytes)).unwrap()
        })
    });
    g.bench_function("gpukit_iga::write (same version)", |b| {
        let l = gpukit_iga::parse(&bytes, gpukit_iga::Mode::Strict)
            .unwrap()
            .listing;
        b.iter(|| gpukit_iga::write(std::hint::black_box(&l), l.version))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
