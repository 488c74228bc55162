//! Running a lowered program over a launch: work-groups one after another, the
//! threads of a group as cooperative tasks that each run to the next barrier or
//! their end (as the vISA engine schedules them), SLM per group.

use crate::lower::{mnemonic, Program};
use crate::thread::{Env, Stop, Thread};
use crate::Platform;
use gpukit_visa::interp::check::{Checker, Checks, Finding};
use gpukit_visa::interp::{
    barrier_round, thread_payload, Launch, Memory, RunError, Shape, Stats, SCRATCH_BYTES,
};
use std::collections::HashMap;

/// One executed instruction, as the trace hook sees it (after the instruction ran).
pub struct TraceStep<'a> {
    /// The instruction's index among the listing's instructions.
    pub index: usize,
    pub group: [u32; 3],
    pub thread: u32,
    /// The channels that were at the instruction (bit i: channel i of the thread);
    /// `(W)` instructions run on their whole execution size regardless.
    pub channels: u32,
    /// The whole register file after it ran ([`crate::regfile::Layout`]).
    pub regs: &'a [u8],
}

/// How to run (the instruction budget is [`Launch::max_instructions`]).
#[derive(Default)]
pub struct RunOptions<'a> {
    /// Called after every executed instruction (`--trace`, `--compare`).
    pub trace: Option<&'a dyn Fn(&TraceStep)>,
    /// `--check`: what to look for, and the shadow memory it may allocate (bytes).
    pub checks: Checks,
    pub check_shadow_bytes: u64,
}

/// Runs `program` over the NDRange `launch` describes, with `mem`'s buffers.
pub fn run(
    program: &Program,
    launch: &Launch,
    mem: &mut Memory,
    options: &RunOptions,
) -> Result<Stats, RunError> {
    run_checked(program, launch, mem, options).map(|(stats, _)| stats)
}

/// [`run`], and what `options.checks` found (by the vISA engine's checker, told of
/// every memory access, fence and barrier; registers are not checked).
pub fn run_checked(
    program: &Program,
    launch: &Launch,
    mem: &mut Memory,
    options: &RunOptions,
) -> Result<(Stats, Vec<Finding>), RunError> {
    let top = |message: String| RunError::of_group([0; 3], message);
    if launch.grf_bytes != program.layout.grf_bytes {
        return Err(top(format!(
            "the launch has {}-byte GRFs, the program was lowered for {}",
            launch.grf_bytes, program.layout.grf_bytes
        )));
    }
    let shape = Shape::of(launch).map_err(top)?;
    let layout = program.layout;
    let mut stats = Stats::default();
    let mut messages = HashMap::new();
    let simd = launch.simd.max(1);
    let mut checker = options
        .checks
        .any()
        .then(|| Checker::new(options.checks, options.check_shadow_bytes, launch, mem));
    for gz in 0..shape.groups[2] {
        for gy in 0..shape.groups[1] {
            for gx in 0..shape.groups[0] {
                let group = [gx, gy, gz];
                let mut slm = vec![0u8; launch.slm_bytes as usize];
                let mut threads = Vec::with_capacity(shape.threads_per_group as usize);
                for t in 0..shape.threads_per_group {
                    let mut regs = vec![0u8; layout.total as usize];
                    let payload = thread_payload(launch, &shape, group, t, 0);
                    let n = payload.len().min(layout.grf_end() as usize);
                    regs[..n].copy_from_slice(&payload[..n]);
                    let first = u64::from(t) * u64::from(simd);
                    let items = shape.group_items.saturating_sub(first).min(u64::from(simd));
                    let live = if items >= 32 {
                        u32::MAX
                    } else {
                        (1u32 << items) - 1
                    };
                    // sr0.2/sr0.3: the dispatch mask; ce0 the channels enabled.
                    for (at, v) in [
                        (layout.sr0 + 8, live),
                        (layout.sr0 + 12, live),
                        (layout.ce0, live),
                    ] {
                        regs[at as usize..at as usize + 4].copy_from_slice(&v.to_le_bytes());
                    }
                    let mut th = Thread::new(
                        regs,
                        live,
                        program.start,
                        t,
                        (launch.scratch_bytes as usize).min(SCRATCH_BYTES),
                    );
                    // What the payload prolog of XeHP+ kernels loads: local ids from r1
                    // up to the cross-thread data, and the cross-thread data. Run from
                    // the prolog, the thread starts as the hardware dispatches it: the
                    // inline data (the cross-thread data's first bytes) in r1.
                    let grf = launch.grf_bytes as usize;
                    let cto = (launch.payload.cross_thread_offset as usize).max(grf);
                    let per_thread = payload.get(grf..cto).unwrap_or_default();
                    let cross = &launch.payload.cross_thread;
                    // (XeHPG's prolog saves r1 first; XeHPC's loads all of it from memory.)
                    // The walker passes the inline data whichever entry the runtime
                    // uses, so the indirect data never holds it; started after the
                    // per-thread prolog, the thread finds it where the payload put it.
                    let inline = if matches!(program.platform, Platform::XeHp | Platform::XeHpg) {
                        crate::message::INLINE_DATA_BYTES.min(cross.len())
                    } else {
                        0
                    };
                    th.indirect = crate::message::indirect_data(&cross[inline..], per_thread, t);
                    if program.start == 0 {
                        if let Some(r1) = th.regs.get_mut(grf..grf + inline) {
                            r1.copy_from_slice(&cross[..inline]);
                        }
                    }
                    threads.push(th);
                }
                stats.groups += 1;
                stats.threads += threads.len() as u64;
                if let Some(c) = checker.as_mut() {
                    c.begin_group(group, shape.threads_per_group);
                }
                let mut done = vec![false; threads.len()];
                loop {
                    let mut at_barrier = 0;
                    for (i, th) in threads.iter_mut().enumerate() {
                        if done[i] {
                            continue;
                        }
                        let mut env = Env {
                            program,
                            mem,
                            slm: &mut slm,
                            stats: &mut stats,
                            max_instructions: launch.max_instructions,
                            group,
                            trace: options.trace,
                            messages: &mut messages,
                            check: checker.as_mut(),
                        };
                        match th.run(&mut env) {
                            Ok(Stop::Done) => done[i] = true,
                            Ok(Stop::Barrier) => at_barrier += 1,
                            Err((index, message)) => {
                                return Err(RunError {
                                    index: Some(index),
                                    function: None,
                                    mnemonic: program
                                        .source
                                        .get(index)
                                        .map(mnemonic)
                                        .unwrap_or_default(),
                                    group,
                                    thread: th.index,
                                    message,
                                })
                            }
                        }
                    }
                    if barrier_round(checker.as_mut(), program, group, &done, at_barrier)? {
                        break;
                    }
                    stats.barriers += 1;
                }
            }
        }
    }
    Ok((
        stats,
        checker.map(Checker::into_findings).unwrap_or_default(),
    ))
}
