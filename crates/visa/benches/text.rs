//! Parse and print throughput of vISA text on the largest IGC-printed `.visaasm`
//! available (shared corpus when present, else the largest checked-in fixture).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::path::{Path, PathBuf};

fn largest(dir: &Path) -> Option<PathBuf> {
    let mut best: Option<(u64, PathBuf)> = None;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).ok()?.flatten() {
            let p = e.path();
            if p.is_dir() {
                if !p.ends_with("visaasm-src") {
                    stack.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "visaasm") {
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
    let path = largest(&root.join("../shared/corpus/intel"))
        .or_else(|| largest(&root.join("tests/data/visa")))
        .expect("no .visaasm to benchmark");
    let text = std::fs::read_to_string(&path).unwrap();
    let obj = gpukit_visa::text::parse_text(&text).expect("benchmark input must parse");
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let mut g = c.benchmark_group("visa_text");
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_with_input(BenchmarkId::new("parse", &name), &text, |b, t| b.iter(|| gpukit_visa::text::parse_text(t).unwrap()));
    g.bench_with_input(BenchmarkId::new("print", &name), &obj, |b, o| b.iter(|| gpukit_visa::text::print_text(o)));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
