//! Metadata parse (and emit) throughput over real driver metadata: every
//! kernel block of the checked-in samples, concatenated, reported in bytes/s.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gpukit_amd::cl1::Cl1Binary;
use gpukit_amd::metadata::parse_metadata;
use std::path::Path;

fn blocks() -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    for f in files {
        if f.is_dir() {
            continue;
        }
        let bytes = std::fs::read(&f).unwrap();
        if let Ok(bin) = Cl1Binary::parse(&bytes) {
            out.extend(bin.kernels.iter().map(|k| k.metadata.to_vec()));
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let blocks = blocks();
    let total: usize = blocks.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group("metadata");
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function("parse", |b| {
        b.iter(|| {
            for blk in &blocks {
                std::hint::black_box(parse_metadata(blk).unwrap());
            }
        })
    });
    let parsed: Vec<_> = blocks.iter().map(|b| parse_metadata(b).unwrap()).collect();
    g.bench_function("emit", |b| {
        b.iter(|| {
            for m in &parsed {
                std::hint::black_box(m.emit());
            }
        })
    });
    g.finish();
    let mut g = c.benchmark_group("container");
    let sample = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/prginfo4_13_4_64.clo.1_0.regen"),
    )
    .unwrap();
    g.throughput(Throughput::Bytes(sample.len() as u64));
    g.bench_function("cl1_read", |b| {
        b.iter(|| std::hint::black_box(Cl1Binary::parse(&sample).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
