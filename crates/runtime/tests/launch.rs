//! The runtime's API as a binding calls it: a program binary, a kernel's vISA and
//! argument specs in, the launch's buffers and statistics out.

use gpukit_runtime::{launch, parse_arg, Budget, Code, Error, Kernel, Request};
use std::path::{Path, PathBuf};

fn data(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data")
        .join(path)
}

fn no_files(_: &Path) -> Result<Vec<u8>, Error> {
    Err(Error::Io("no files here".into()))
}

/// `copy_gid` (out[i] = i + base) from IGC 2.x, as `tests/cli/visa-run/copy_gid-sid`.
fn copy_gid(
    global: u32,
    local: u32,
    specs: &[&str],
    budget: &mut Budget,
) -> Result<gpukit_runtime::Outcome, Error> {
    let text = std::fs::read_to_string(data("visa/run/copy_gid.sid.visaasm")).unwrap();
    let object = gpukit_visa::text::parse_text(&text).unwrap();
    let program =
        gpukit_intel::read(&std::fs::read(data("intel/trivial.sid.bin")).unwrap()).unwrap();
    let mut args = Vec::new();
    for s in specs {
        args.push(parse_arg(s, budget, &mut no_files)?);
    }
    let kernel = Kernel {
        name: "copy_gid",
        code: Code::Visa {
            body: &object.kernels[0].body,
            functions: Vec::new(),
        },
    };
    let request = Request {
        global: [global, 1, 1],
        local: [local, 1, 1],
        work_dim: 1,
        args,
        max_instructions: None,
        options: Default::default(),
    };
    launch(&kernel, program, request, budget, None)
}

#[test]
fn a_launch_fills_its_buffers() {
    let mut budget = Budget::for_inputs(0);
    let outcome = copy_gid(64, 32, &["0=zeros:256", "1=u32:1000"], &mut budget).unwrap();
    let out: Vec<u32> = outcome
        .buffer(0)
        .unwrap()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(out, (1000..1064).collect::<Vec<u32>>());
    assert_eq!(
        (outcome.stats.groups, outcome.stats.threads, outcome.simd),
        (2, 2, 32)
    );
    assert_eq!(outcome.instruction_limit, 10_200_000);
    assert!(outcome.buffer(1).is_none() && outcome.printf_buffer().is_none());
    // The buffer, the registers of one work-group (one thread) and its 1 MiB of
    // scratch: nothing else of size.
    let used = budget.used() - (1 << 20);
    assert!((256..64 << 10).contains(&used), "{}", budget.used());
}

#[test]
fn what_the_request_gets_wrong_is_a_usage_error() {
    let mut budget = Budget::new(1 << 20);
    for (global, local, specs) in [
        (64, 1024, &["0=zeros:256", "1=u32:1"][..]),
        (100, 32, &["0=zeros:256", "1=u32:1"][..]),
        (64, 32, &["0=zeros:256"][..]),
        (64, 32, &["0=local:16", "1=u32:1"][..]),
    ] {
        let e = copy_gid(global, local, specs, &mut budget).err().unwrap();
        assert!(e.is_usage(), "{e}");
        assert!(!e.to_string().contains("work-group 0"), "{e}");
    }
}

#[test]
fn the_registers_of_a_work_group_are_counted_before_the_run() {
    // Room for the buffer, not for the register space of 32 SIMD32 threads.
    let mut budget = Budget::new(8 << 10);
    let e = copy_gid(1024, 1024, &["0=zeros:4096", "1=u32:1"], &mut budget)
        .err()
        .unwrap();
    let Error::OverBudget(e) = e else {
        panic!("{e}")
    };
    assert!(
        e.what.contains("register space") && e.what.contains("x 32 threads"),
        "{}",
        e.what
    );
}
