//! What a launch of Gen machine code needs beyond the vISA front end's: where the
//! runtime starts the code, the indirect data the code's prologs read, and the
//! register footprint.

use crate::Error;
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
/// memory is skipped; the cross-thread prolog after it runs, and reads
/// [`bind_indirect_data`]'s buffer. Kernels before Xe-HP have no prolog: 0.
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

/// Binding-table indices of A32 stateless access (`BTI 253`, non-coherent, and 255):
/// the surface relative to the general state base, where the indirect data lies.
pub const STATELESS_A32_BTIS: [u32; 2] = [253, 255];

/// The indirect data a Xe-HP+ kernel's cross-thread prolog loads (from the address
/// in r0.0 bits 31:6, through an A32 stateless block read: HDC BTI 253 on DG2, LSC
/// `bti[255]` A32 on PVC): the cross-thread data the walker does not pass inline,
/// padded to 64 bytes (the prolog reads whole blocks). A32 stateless addresses are
/// offsets from the general state base, where the runtime puts the indirect data;
/// gpukit's r0.0 holds 0, so the buffer lies at address 0 (no other buffer is
/// there: theirs start at 64 GiB) and is bound at the stateless BTIs too. Kernels
/// without such a prolog never read it.
pub fn bind_indirect_data(mem: &mut Memory, cross_thread: &[u8], inline_bytes: u32) {
    let mut data = cross_thread
        .get(inline_bytes as usize..)
        .unwrap_or_default()
        .to_vec();
    data.resize(data.len().next_multiple_of(64).max(64), 0);
    let index = mem.buffers.len();
    mem.add("indirect data", data);
    mem.buffers[index].base = 0;
    for bti in STATELESS_A32_BTIS {
        mem.bind(bti, index);
    }
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
