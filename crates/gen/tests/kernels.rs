//! Hand-written IGA text kernels (`tests/kernels/*.asm`) run through the Gen engine,
//! with 32- and 64-byte GRFs. Each kernel states what its registers hold at the end
//! of thread 0 in `//! rN:type = v0 v1 ...` lines; `{rN.S}` in the text stands for
//! the byte address of dword S of rN (for the address register).

use gpukit_gen::{lower, run, RunOptions, TraceStep};
use gpukit_iga::read::text::parse_text;
use gpukit_visa::interp::value::{decode, Val};
use gpukit_visa::interp::{Launch, Memory, Payload};
use gpukit_visa::isa::Type;
use std::cell::RefCell;
use std::path::Path;

/// Replaces `{rN.S}` with the byte address of dword S of rN.
fn addresses(text: &str, grf: u32) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find("{r") {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let inner = &rest[open + 2..open + close];
        match inner.split_once('.') {
            Some((r, s)) if r.parse::<u32>().is_ok() && s.parse::<u32>().is_ok() => {
                out.push_str(&rest[..open]);
                let at = r.parse::<u32>().unwrap() * grf + 4 * s.parse::<u32>().unwrap();
                out.push_str(&format!("0x{at:X}"));
            }
            _ => out.push_str(&rest[..open + close + 1]),
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

/// The final register file of thread 0 of a one-group SIMD8 launch of `text`.
fn final_registers(text: &str, grf: u32) -> Vec<u8> {
    let listing = parse_text(&addresses(text, grf), Some("12p1")).expect("the kernel parses");
    let program = lower(&listing, grf).expect("the kernel lowers");
    let launch = Launch {
        simd: 8,
        grf_bytes: grf,
        global: [8, 1, 1],
        local: [8, 1, 1],
        payload: Payload {
            local_id: [true, false, false],
            cross_thread_offset: 2 * grf,
            cross_thread: vec![0; grf as usize],
        },
        slm_bytes: 0,
        max_instructions: 100_000,
        scratch_bytes: 0,
    };
    let last = RefCell::new(Vec::new());
    let hook = |s: &TraceStep| {
        if s.thread == 0 {
            *last.borrow_mut() = s.regs.to_vec();
        }
    };
    let options = RunOptions {
        trace: Some(&hook),
        ..RunOptions::default()
    };
    let stats = run(&program, &launch, &mut Memory::default(), &options)
        .unwrap_or_else(|e| panic!("the kernel runs: {e}"));
    assert_eq!(stats.threads, 1);
    last.into_inner()
}

fn check(name: &str, text: &str, grf: u32) {
    let regs = final_registers(text, grf);
    for line in text.lines() {
        let Some(spec) = line.strip_prefix("//!") else {
            continue;
        };
        let (lhs, values) = spec.split_once('=').expect("`//! rN:type = values`");
        let (reg, ty) = lhs.trim().split_once(':').expect("rN:type");
        let r: usize = reg
            .trim_start_matches('r')
            .parse()
            .expect("register number");
        let t = Type::from_name(ty).expect("a type name");
        let size = t.size().unwrap();
        for (i, want) in values.split_whitespace().enumerate() {
            let at = r * grf as usize + i * size;
            let mut b = [0u8; 8];
            b[..size].copy_from_slice(&regs[at..at + size]);
            let got = decode(t, u64::from_le_bytes(b));
            let want: i128 = want.parse().expect("an integer");
            assert_eq!(
                got,
                Val::I(want),
                "{name} (GRF {grf} bytes): r{r}:{ty} element {i}"
            );
        }
    }
}

#[test]
fn hand_written_kernels_leave_the_stated_registers() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernels");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "asm"))
        .collect();
    names.sort();
    assert!(names.len() >= 4);
    for path in names {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy();
        for grf in [32, 64] {
            check(&name, &text, grf);
        }
    }
}

/// A one-group launch of `text` with two SIMD8 threads.
fn run_two_threads(text: &str) -> Result<gpukit_visa::interp::Stats, String> {
    let listing = parse_text(text, Some("12p1")).expect("the kernel parses");
    let program = lower(&listing, 32).expect("the kernel lowers");
    let launch = Launch {
        simd: 8,
        grf_bytes: 32,
        global: [16, 1, 1],
        local: [16, 1, 1],
        payload: Payload {
            local_id: [true, false, false],
            cross_thread_offset: 64,
            cross_thread: vec![0; 32],
        },
        slm_bytes: 0,
        max_instructions: 10_000,
        scratch_bytes: 0,
    };
    run(
        &program,
        &launch,
        &mut Memory::default(),
        &RunOptions::default(),
    )
    .map_err(|e| e.to_string())
}

/// Thread 0 (r0.2 holds the thread's index in its group) skips the barrier or not.
fn barrier_kernel(skip: bool) -> String {
    let jump = if skip {
        "(W&f0.0) jmpi"
    } else {
        "(W&f1.0) jmpi"
    };
    format!(
        "(W)     cmp (1|M0)    (eq)f0.0   null<1>:ud    r0.2<0;1,0>:ud    0x0:ud
(W)     mov (1|M0)               f1.0<1>:uw    0x0:uw
{jump}                                 L_end
(W)     send.gtwy (1|M0)         null     r0      null    0x0            0x02000004
(W)     sync.bar                             null
L_end:
(W)     mov (8|M0)               r112.0<1>:ud  r0.0<8;8,1>:ud
(W)     send.ts (8|M0)           null     r112    null    0x0            0x02000010           {{EOT}}
"
    )
}

#[test]
fn threads_meet_at_barriers_and_a_barrier_one_skips_is_a_deadlock() {
    let stats = run_two_threads(&barrier_kernel(false)).expect("both threads pass the barrier");
    assert_eq!((stats.threads, stats.barriers), (2, 1));
    let e = run_two_threads(&barrier_kernel(true)).unwrap_err();
    assert!(e.contains("barrier deadlock: 1 thread(s) wait"), "{e}");
}
