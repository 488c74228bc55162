//! What a launch of Gen machine code needs beyond the vISA front end's: where the
//! runtime starts the code, lowering it once, and running it with the trace hook.

use crate::Error;
pub use gpukit_gen::locate::Departure;
use gpukit_gen::{LowerOptions, Program, RunOptions, TraceStep};
use gpukit_iga::model::Listing;
use gpukit_intel::KernelAbi;
use gpukit_visa::interp::check::Finding;
use gpukit_visa::interp::{Launch, Memory, Options, RunError, Stats};

/// Where NEO starts the kernel's code, in bytes: after the per-thread data load
/// prolog (`offset_to_skip_per_thread_data_load`), as it does whenever the walker
/// generates the local IDs (NEO `Kernel::getKernelStartAddress`: the offset is
/// added when local IDs are used and the runtime does not generate them;
/// `EncodeDispatchKernel` on Xe-HP+ likewise). gpukit's payload puts the local IDs
/// in the registers as the walker does, so the prolog that would load them from
/// memory is skipped; the cross-thread prolog after it runs and reads the thread's
/// indirect data (the engine's model: `gpukit_gen::message`). Kernels before Xe-HP
/// have no prolog: 0. (Offsets count 16 bytes an instruction, 8 when `{Compacted}`:
/// the native encodings' sizes, as `gpukit_gen::lower_with` counts the listing's PCs.)
pub fn start_offset(abi: &KernelAbi) -> u32 {
    if abi.per_thread.local_id == [false; 3] {
        0
    } else {
        abi.entry.skip_per_thread_data_load
    }
}

/// The listing lowered for the device's GRFs, starting where NEO starts it.
pub fn lower(listing: &Listing, abi: &KernelAbi, grf_bytes: u32) -> Result<Program, Error> {
    let options = LowerOptions {
        start_offset: start_offset(abi),
    };
    gpukit_gen::lower_with(listing, grf_bytes, &options)
        .map_err(|e| Error::Listing(format!("kernel {}: {e}", abi.name)))
}

/// What IGC's `.asm` dump says for `--compare`'s locating run: each Gen
/// instruction's vISA `$N` and the register bytes of each vISA variable (its
/// `//.declare` header, [`gpukit_intel::asm_alloc`]).
pub fn placement(asm: &str) -> Result<gpukit_gen::locate::Placement, Error> {
    let alloc = gpukit_intel::asm_alloc::read(asm).map_err(|e| Error::Listing(e.to_string()))?;
    Ok(gpukit_gen::locate::Placement {
        visa_ids: gpukit_gen::locate::visa_ids(asm),
        variables: alloc
            .variables
            .iter()
            .filter_map(|d| Some((d.name.clone(), d.grf_bytes(alloc.grf_bytes)?)))
            .collect(),
    })
}

/// Runs the lowered program over the launch's NDRange; `trace`, when given, gets
/// a line per executed instruction (its index, mnemonic, thread and channels);
/// `options.checks` are made by the vISA engine's checker (registers aside).
pub fn run(
    program: &Program,
    launch: &Launch,
    mem: &mut Memory,
    trace: Option<&mut dyn FnMut(String)>,
    options: &Options,
) -> Result<(Stats, Vec<Finding>), RunError> {
    let checked = RunOptions {
        trace: None,
        checks: options.checks,
        check_shadow_bytes: options.check_shadow_bytes,
    };
    let Some(trace) = trace else {
        return gpukit_gen::run_checked(program, launch, mem, &checked);
    };
    let sink = std::cell::RefCell::new(trace);
    let step = |s: &TraceStep| {
        let op = program.instruction(s.index).map_or("?", |i| i.op.as_str());
        (sink.borrow_mut())(format!(
            "group {},{},{} thread {} #{} {op} channels {:#010x}",
            s.group[0], s.group[1], s.group[2], s.thread, s.index, s.channels
        ));
    };
    let options = RunOptions {
        trace: Some(&step),
        ..checked
    };
    gpukit_gen::run_checked(program, launch, mem, &options)
}
