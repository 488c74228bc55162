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

/// CPU time this thread has run, in nanoseconds: wall time is meaningless on
/// a machine other jobs share. The thread CPU clock, not
/// `/proc/thread-self/schedstat`: that one is brought up to date only at a
/// scheduler tick or switch, so it lags the running thread by up to a tick
/// (4 ms), and rounds of a few ticks read as whole multiples of it.
#[cfg(target_os = "linux")]
fn thread_cpu_ns() -> Option<u64> {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Some(u64::try_from(t.tv_sec).ok()? * 1_000_000_000 + u64::try_from(t.tv_nsec).ok()?)
}

#[cfg(not(target_os = "linux"))]
fn thread_cpu_ns() -> Option<u64> {
    None
}

/// Parse throughput in CPU time: the median and the best of 41 rounds of 50
/// passes (a round is about a millisecond, short enough for some rounds to
/// run while the shared machine leaves the core alone).
fn cpu_throughput(blocks: &[Vec<u8>], total: usize) {
    let mut rounds = Vec::new();
    for _ in 0..41 {
        let Some(t0) = thread_cpu_ns() else {
            eprintln!("no thread CPU clock: no CPU-time throughput");
            return;
        };
        for _ in 0..50 {
            for blk in blocks {
                std::hint::black_box(parse_metadata(std::hint::black_box(blk)).unwrap());
            }
        }
        let ns = thread_cpu_ns().unwrap_or(t0) - t0;
        rounds.push(ns as f64 / 50.0);
    }
    rounds.sort_by(f64::total_cmp);
    let ns = rounds[rounds.len() / 2];
    // The best round too: on a shared machine the median moves with the load
    // (a sibling hyperthread busy or not), the best much less.
    let best = rounds[0];
    eprintln!(
        "metadata parse: {} blocks, {total} bytes in {:.1} us of CPU time per pass (median of 41): {:.0} MB/s, best round {:.0} MB/s",
        blocks.len(),
        ns / 1e3,
        total as f64 / ns * 1e3,
        total as f64 / best * 1e3
    );
}

/// One block of about 16 MB: the entry lines of every sample block, repeated
/// (what a generated dense kernel looks like to the parser).
fn large_block(blocks: &[Vec<u8>]) -> Vec<u8> {
    let mut body = Vec::new();
    for b in blocks {
        for line in b.split_inclusive(|&c| c == b'\n') {
            if !line.starts_with(b";ARGSTART:") && !line.starts_with(b";ARGEND:") {
                body.extend_from_slice(line);
            }
        }
    }
    let mut out = b";ARGSTART:__OpenCL_large_kernel\n".to_vec();
    while out.len() < 16 << 20 {
        out.extend_from_slice(&body);
    }
    out.extend_from_slice(b";ARGEND:__OpenCL_large_kernel\n");
    out
}

/// Parse throughput of the large block in CPU time: the median and the best of 7 parses.
fn cpu_throughput_large(block: &[u8]) {
    let mut rounds = Vec::new();
    for _ in 0..7 {
        let Some(t0) = thread_cpu_ns() else {
            return;
        };
        std::hint::black_box(parse_metadata(std::hint::black_box(block)).unwrap());
        rounds.push((thread_cpu_ns().unwrap_or(t0) - t0) as f64);
    }
    rounds.sort_by(f64::total_cmp);
    let ns = rounds[rounds.len() / 2];
    eprintln!(
        "metadata parse, one large block: {} bytes in {:.1} ms of CPU time (median of 7): {:.0} MB/s, best {:.0} MB/s",
        block.len(),
        ns / 1e6,
        block.len() as f64 / ns * 1e3,
        block.len() as f64 / rounds[0] * 1e3
    );
}

fn bench(c: &mut Criterion) {
    let blocks = blocks();
    let total: usize = blocks.iter().map(Vec::len).sum();
    cpu_throughput(&blocks, total);
    cpu_throughput_large(&large_block(&blocks));
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
