//! Read and write throughput on the largest vISA binary available: the largest file
//! of the shared legacy corpus when present, else the largest checked-in fixture.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::path::Path;

#[path = "corpus_file.rs"]
mod corpus_file;
use corpus_file::largest;

fn bench(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = largest(&root.join("../shared/corpus/intel-legacy"), "isa")
        .or_else(|| largest(&root.join("tests/data/visa"), "isa"))
        .expect("no .isa file to benchmark");
    let bytes = std::fs::read(&path).unwrap();
    let obj = gpukit_visa::read(&bytes).expect("benchmark input must read");
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let mut g = c.benchmark_group("visa_binary");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_with_input(BenchmarkId::new("read", &name), &bytes, |b, bytes| {
        b.iter_with_large_drop(|| gpukit_visa::read(bytes).unwrap())
    });
    g.bench_with_input(BenchmarkId::new("write", &name), &obj, |b, obj| {
        b.iter_with_large_drop(|| gpukit_visa::write(obj).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
