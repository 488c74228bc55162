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

/// Median CPU time per call of each routine over alternating rounds, so both
/// see the same machine.
fn alternate(routines: &mut [&mut dyn FnMut()], rounds: usize, calls: usize) -> Option<Vec<f64>> {
    let mut per: Vec<Vec<f64>> = vec![Vec::new(); routines.len()];
    for _ in 0..rounds {
        for (r, times) in routines.iter_mut().zip(&mut per) {
            let t0 = thread_cpu_ns()?;
            for _ in 0..calls {
                r();
            }
            times.push((thread_cpu_ns()? - t0) as f64 / calls as f64);
        }
    }
    Some(
        per.into_iter()
            .map(|mut t| {
                t.sort_by(f64::total_cmp);
                t[t.len() / 2]
            })
            .collect(),
    )
}

fn ratio(bytes: &[u8]) {
    let mut ours = || {
        std::hint::black_box(
            gpukit_iga::parse(std::hint::black_box(bytes), gpukit_iga::Mode::Strict).unwrap(),
        );
    };
    let mut value = || {
        std::hint::black_box(
            serde_json::from_slice::<serde_json::Value>(std::hint::black_box(bytes)).unwrap(),
        );
    };
    let Some(t) = alternate(&mut [&mut ours, &mut value], 11, 20) else {
        eprintln!("no thread CPU clock: no CPU-time ratio");
        return;
    };
    let mbs = |ns: f64| bytes.len() as f64 / ns * 1e3;
    eprintln!(
        "CPU time per parse, median of 11 alternating rounds: gpukit_iga::parse {:.2} ms ({:.0} MB/s), \
         serde_json::Value {:.2} ms ({:.0} MB/s): gpukit is {:.2}x serde_json::Value",
        t[0] / 1e6,
        mbs(t[0]),
        t[1] / 1e6,
        mbs(t[1]),
        t[1] / t[0]
    );
}

fn bench(c: &mut Criterion) {
    let (name, bytes) = largest_listing();
    eprintln!("benchmarking {name} ({} bytes)", bytes.len());
    ratio(&bytes);
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
