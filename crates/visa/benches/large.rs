//! Throughput of every direction on the generated large kernel (`large_kernel.rs`:
//! a checked-in IGC kernel's body repeated to ~20 MB of text, or `GPUKIT_LARGE_MB`):
//! text parse and print, binary read and write, each in MB/s of its input.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::path::Path;

#[path = "large_kernel.rs"]
mod large_kernel;

fn bench(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let bytes = std::env::var("GPUKIT_LARGE_MB")
        .ok()
        .and_then(|m| m.parse::<usize>().ok())
        .map_or(large_kernel::DEFAULT_BYTES, |m| m << 20);
    let text = large_kernel::generate(&large_kernel::seed(&root), bytes);
    let obj = gpukit_visa::text::parse_text(&text).expect("large kernel must parse");
    let binary = gpukit_visa::write(&obj).expect("large kernel must write");

    let mut g = c.benchmark_group("visa_large");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("text_parse", |b| {
        b.iter_with_large_drop(|| gpukit_visa::text::parse_text(&text).unwrap())
    });
    g.bench_function("text_print", |b| {
        b.iter_with_large_drop(|| gpukit_visa::text::print_text(&obj))
    });
    g.throughput(Throughput::Bytes(binary.len() as u64));
    g.bench_function("binary_read", |b| {
        b.iter_with_large_drop(|| gpukit_visa::read(&binary).unwrap())
    });
    g.bench_function("binary_write", |b| {
        b.iter_with_large_drop(|| gpukit_visa::write(&obj).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
