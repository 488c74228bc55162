//! Read and write throughput on the largest vISA binary available: the largest file
//! of the shared legacy corpus when present, else the largest checked-in fixture.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::path::{Path, PathBuf};

fn largest(dir: &Path) -> Option<PathBuf> {
    let mut best: Option<(u64, PathBuf)> = None;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).ok()?.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "isa") {
                let len = e.metadata().map(|m| m.len()).unwrap_or(0);
                if best.as_ref().is_none_or(|(l, _)| len > *l) {
                    best = Some((len, p));
                }
            }
        }
    }
    best.map(|(_, p)| p)
}

fn bench(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = largest(&root.join("../shared/corpus/intel-legacy"))
        .or_else(|| largest(&root.join("tests/data/visa")))
        .expect("no .isa file to benchmark");
    let bytes = std::fs::read(&path).unwrap();
    let obj = gpukit_visa::read(&bytes).expect("benchmark input must read");
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let mut g = c.benchmark_group("visa_binary");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_with_input(BenchmarkId::new("read", &name), &bytes, |b, bytes| {
        b.iter(|| gpukit_visa::read(bytes).unwrap())
    });
    g.bench_with_input(BenchmarkId::new("write", &name), &obj, |b, obj| {
        b.iter(|| gpukit_visa::write(obj).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
