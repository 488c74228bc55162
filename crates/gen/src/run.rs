//! Running a lowered program over a launch: work-groups one after another, the
//! threads of a group as cooperative tasks that each run to the next barrier or
//! their end (as the vISA engine schedules them), SLM per group.

use crate::lower::{mnemonic, Program};
use crate::thread::{Env, Stop, Thread};
use crate::Platform;
use gpukit_visa::interp::{thread_payload, Launch, Memory, RunError, Shape, Stats, SCRATCH_BYTES};
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
    pub dispatch: Dispatch,
}

/// What a thread's GRFs hold when it starts.
///
/// From XeHP on, a kernel loads its payload itself: r0.0 (bits 31:6) points at the
/// indirect data, the cross-thread data (past what came inline) followed by each
/// thread's per-thread data (its local ids, the GRFs the payload has from r1), and
/// the kernel's per-thread prolog loads its thread's block (at the index in r0.2's
/// low byte, where the payload has the thread's index in its work-group). The Gen engine lays that memory out for every XeHP+ run, as an extra
/// buffer at [`INDIRECT_DATA`] for the run's duration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dispatch {
    /// The whole payload in GRFs: local ids from r1, cross-thread data where the
    /// launch says (Gen9 to Xe; XeHP+ kernels started past the per-thread prolog).
    #[default]
    Payload,
    /// XeHP+ kernels run from their first instruction: r0, and in r1 the first
    /// `inline_bytes` of the cross-thread data (zebin's inline data), which the
    /// indirect data then leaves out.
    Prolog { inline_bytes: u32 },
}

/// Where the indirect data lies (an A32 address: the prolog's block reads are
/// 32-bit stateless accesses).
pub const INDIRECT_DATA: u64 = 0x0001_0000;

/// Runs `program` over the NDRange `launch` describes, with `mem`'s buffers.
pub fn run(
    program: &Program,
    launch: &Launch,
    mem: &mut Memory,
    options: &RunOptions,
) -> Result<Stats, RunError> {
    let indirect = program.platform >= Platform::XeHp;
    if indirect {
        let data = indirect_data(launch, options.dispatch);
        mem.add("indirect data", data);
        if let Some(b) = mem.buffers.last_mut() {
            b.base = INDIRECT_DATA;
        }
    }
    let result = run_groups(program, launch, mem, options);
    if indirect {
        mem.buffers.pop();
    }
    result
}

/// The cross-thread data past the inline part, padded to whole GRFs, then every
/// thread's local-id GRFs (the same for every work-group).
fn indirect_data(launch: &Launch, dispatch: Dispatch) -> Vec<u8> {
    let grf = launch.grf_bytes.max(1) as usize;
    let inline = match dispatch {
        Dispatch::Payload => 0,
        Dispatch::Prolog { inline_bytes } => inline_bytes as usize,
    };
    let cross = &launch.payload.cross_thread;
    let mut data = cross.get(inline..).unwrap_or_default().to_vec();
    data.resize(data.len().div_ceil(grf) * grf, 0);
    let Ok(shape) = Shape::of(launch) else {
        return data;
    };
    let per_dim = (launch.simd as usize * 2).div_ceil(grf) * grf;
    let ids = per_dim * launch.payload.local_id.iter().filter(|d| **d).count();
    for t in 0..shape.threads_per_group {
        let payload = thread_payload(launch, &shape, [0; 3], t, grf + ids);
        data.extend_from_slice(&payload[grf..grf + ids]);
    }
    data
}

fn run_groups(
    program: &Program,
    launch: &Launch,
    mem: &mut Memory,
    options: &RunOptions,
) -> Result<Stats, RunError> {
    let top = |message: String| RunError {
        index: None,
        function: None,
        mnemonic: String::new(),
        group: [0; 3],
        thread: 0,
        message,
    };
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
    for gz in 0..shape.groups[2] {
        for gy in 0..shape.groups[1] {
            for gx in 0..shape.groups[0] {
                let group = [gx, gy, gz];
                let mut slm = vec![0u8; launch.slm_bytes as usize];
                let mut threads = Vec::with_capacity(shape.threads_per_group as usize);
                for t in 0..shape.threads_per_group {
                    let mut regs = vec![0u8; layout.total as usize];
                    let payload = thread_payload(launch, &shape, group, t, 0);
                    let grf = layout.grf_bytes as usize;
                    let n = match options.dispatch {
                        Dispatch::Payload => payload.len(),
                        Dispatch::Prolog { .. } => grf,
                    }
                    .min(payload.len())
                    .min(layout.grf_end() as usize);
                    regs[..n].copy_from_slice(&payload[..n]);
                    if let Dispatch::Prolog { inline_bytes } = options.dispatch {
                        let inline = &launch.payload.cross_thread;
                        let k = (inline_bytes as usize).min(inline.len()).min(grf);
                        regs[grf..grf + k].copy_from_slice(&inline[..k]);
                    }
                    if program.platform >= Platform::XeHp {
                        // r0.0: the indirect data (the thread's index, which picks its
                        // block, is the payload's r0.2 already).
                        regs[..4].copy_from_slice(&(INDIRECT_DATA as u32).to_le_bytes());
                    }
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
                    threads.push(Thread::new(
                        regs,
                        live,
                        program.start,
                        t,
                        (launch.scratch_bytes as usize).min(SCRATCH_BYTES),
                    ));
                }
                stats.groups += 1;
                stats.threads += threads.len() as u64;
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
                    if at_barrier == 0 {
                        break;
                    }
                    let finished = done.iter().filter(|d| **d).count();
                    if finished > 0 {
                        return Err(RunError {
                            group,
                            ..top(format!(
                                "barrier deadlock: {at_barrier} thread(s) wait at a barrier that {finished} finished thread(s) will never reach"
                            ))
                        });
                    }
                    stats.barriers += 1;
                }
            }
        }
    }
    Ok(stats)
}
