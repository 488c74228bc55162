//! Parse and print throughput of vISA text on the largest IGC-printed `.visaasm`
//! available (shared corpus when present, else the largest checked-in fixture).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::path::Path;

#[path = "corpus_file.rs"]
mod corpus_file;
use corpus_file::largest;

fn bench(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = largest(&root.join("../shared/corpus/intel"), "visaasm")
        .or_else(|| largest(&root.join("tests/data/visa"), "visaasm"))
        .expect("no .visaasm to benchmark");
    let text = std::fs::read_to_string(&path).unwrap();
    let obj = gpukit_visa::text::parse_text(&text).expect("benchmark input must parse");
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let mut g = c.benchmark_group("visa_text");
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_with_input(BenchmarkId::new("parse", &name), &text, |b, t| {
        b.iter_with_large_drop(|| gpukit_visa::text::parse_text(t).unwrap())
    });
    g.bench_with_input(BenchmarkId::new("print", &name), &obj, |b, o| {
        b.iter_with_large_drop(|| gpukit_visa::text::print_text(o))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
