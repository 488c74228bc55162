//! CPU-time throughput of each direction on one file, for a loaded machine where
//! criterion's wall-clock numbers drift: `cargo run --release -p gpukit-visa --example
//! throughput -- FILE.visaasm [REPEATS] [parse|read]` (`parse`: the text parse alone,
//! `read`: the binary read alone, for comparing builds and profiling; it also times
//! the read followed by decoding every instruction's operands, since a read keeps the
//! instruction streams encoded and decodes on access). CPU time is this thread's, from
//! the thread CPU clock (Linux); elsewhere it falls back to wall time. Freeing a result
//! is left out of its time.

use std::time::Instant;

/// Nanoseconds this thread has run on a CPU. The thread CPU clock, not
/// `/proc/thread-self/schedstat`, which moves only at a tick or a task switch.
#[cfg(target_os = "linux")]
fn cpu_ns() -> Option<u64> {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Some(t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64)
}

#[cfg(not(target_os = "linux"))]
fn cpu_ns() -> Option<u64> {
    None
}

fn measure<T>(name: &str, bytes: usize, repeats: u32, mut f: impl FnMut() -> T) {
    let mut best = f64::MAX;
    for _ in 0..repeats {
        // A round lasts at least 0.25 s, so one slow run (a page-cache miss, a
        // preemption) moves it little. Each result is dropped with the clock stopped:
        // freeing it is not part of the direction (criterion's `iter_with_large_drop`).
        let w0 = Instant::now();
        let (mut busy, mut runs) = (0u64, 0u32);
        while runs == 0 || w0.elapsed().as_secs_f64() < 0.25 {
            let (c0, t0) = (cpu_ns(), Instant::now());
            let out = f();
            let (c1, t1) = (cpu_ns(), Instant::now());
            drop(out);
            busy += match (c0, c1) {
                (Some(a), Some(b)) => b - a,
                _ => (t1 - t0).as_nanos() as u64,
            };
            runs += 1;
        }
        best = best.min(busy as f64 / 1e9 / f64::from(runs));
    }
    println!(
        "{name:<13} {:>8.1} ms {:>8.1} MB/s  ({bytes} bytes, best of {repeats} rounds, CPU time)",
        best * 1e3,
        bytes as f64 / best / 1e6
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: throughput FILE.visaasm [REPEATS] [parse|read]");
        std::process::exit(2);
    };
    let repeats = args.next().and_then(|r| r.parse().ok()).unwrap_or(5);
    let only = args.next();
    let parse_only = only.as_deref() == Some("parse");
    let read_only = only.as_deref() == Some("read");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("throughput: {path}: {e}");
        std::process::exit(1);
    });
    if parse_only {
        measure("text parse", text.len(), repeats, || {
            gpukit_visa::text::parse_text(&text)
        });
        return;
    }
    let obj = gpukit_visa::text::parse_text(&text).unwrap_or_else(|e| {
        eprintln!("throughput: {path}: {e}");
        std::process::exit(1);
    });
    let binary = gpukit_visa::write(&obj).expect("a parsed object writes");
    if read_only {
        drop(obj);
        measure("binary read", binary.len(), repeats, || {
            gpukit_visa::read(&binary)
        });
        measure("read+decode", binary.len(), repeats, || {
            read_and_decode(&binary)
        });
        return;
    }
    let printed = gpukit_visa::text::print_text(&obj);
    measure("text parse", text.len(), repeats, || {
        gpukit_visa::text::parse_text(&text)
    });
    measure("text print", printed.len(), repeats, || {
        gpukit_visa::text::print_text(&obj)
    });
    measure("binary read", binary.len(), repeats, || {
        gpukit_visa::read(&binary)
    });
    measure("read+decode", binary.len(), repeats, || {
        read_and_decode(&binary)
    });
    measure("binary write", binary.len(), repeats, || {
        gpukit_visa::write(&obj)
    });
}

/// A read, then every instruction's operands decoded (what `visa dis` and `visa
/// verify` do on top of the read); returns the operand count.
fn read_and_decode(binary: &[u8]) -> usize {
    let obj = gpukit_visa::read(binary).expect("a written object reads");
    let mut operands = 0;
    for k in &obj.kernels {
        let mut walk = k.body.code.instructions_or_empty().walk();
        while let Some((_, inst)) = walk.next_instruction() {
            operands += inst.operands.len();
        }
    }
    for f in &obj.functions {
        let mut walk = f.body.code.instructions_or_empty().walk();
        while let Some((_, inst)) = walk.next_instruction() {
            operands += inst.operands.len();
        }
    }
    operands
}
