//! Running a lowered program over a launch: work-groups one after another, the
//! threads of a group as cooperative tasks that each run to the next barrier or
//! their end (as the vISA engine schedules them), SLM per group.

use crate::lower::Program;
use gpukit_visa::interp::{Launch, Memory, RunError, Stats};

/// One executed instruction, as the trace hook sees it (after the instruction ran).
pub struct TraceStep<'a> {
    /// The instruction's index among the listing's instructions.
    pub index: usize,
    pub group: [u32; 3],
    pub thread: u32,
    /// The channels it ran on (bit i: channel i of the thread).
    pub channels: u32,
    /// The whole register file after it ran ([`crate::regfile::Layout`]).
    pub regs: &'a [u8],
}

/// How to run (the instruction budget is [`Launch::max_instructions`]).
#[derive(Default)]
pub struct RunOptions<'a> {
    /// Called after every executed instruction (`--trace`, `--compare`).
    pub trace: Option<&'a dyn Fn(&TraceStep)>,
}

/// Runs `program` over the NDRange `launch` describes, with `mem`'s buffers.
pub fn run(
    program: &Program,
    launch: &Launch,
    mem: &mut Memory,
    options: &RunOptions,
) -> Result<Stats, RunError> {
    let _ = (program, mem, options, launch);
    Err(RunError {
        index: None,
        function: None,
        mnemonic: String::new(),
        group: [0; 3],
        thread: 0,
        message: "the Gen engine's run loop is not written yet".into(),
    })
}
