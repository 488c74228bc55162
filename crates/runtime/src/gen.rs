//! What a launch of Gen machine code needs beyond the vISA front end's: where the
//! runtime starts the code, the indirect data the code's prologs read, and the
//! register footprint.

use crate::Error;
use gpukit_iga::model::{Element, Listing};
use gpukit_intel::KernelAbi;
use gpukit_visa::interp::{Launch, Memory, RunError, Stats};

/// The general registers of a hardware thread (the register file a Gen kernel may
/// name): 128, or 256 in the large-GRF mode of Xe-HP and later.
pub const MAX_GRFS: u64 = 256;

/// Bytes of register state one hardware thread of a Gen kernel holds: the whole GRF
/// file of the device (the engine keeps every register, used or not).
pub fn register_bytes(grf_bytes: u32) -> u64 {
    MAX_GRFS * u64::from(grf_bytes)
}

/// Bytes an instruction takes in the binary: 16, or 8 when IGA shows it `{Compacted}`
/// (the encoding of every Gen since Gen8; what the listing's PCs count).
fn encoded_bytes(options: &[String]) -> u64 {
    if options.iter().any(|o| o == "Compacted") {
        8
    } else {
        16
    }
}

/// The index (among the listing's instructions) of the instruction at byte offset
/// `offset` of the kernel's code: an error when `offset` is not an instruction's
/// start, or lies past the end.
pub fn instruction_at(listing: &Listing, offset: u64) -> Result<usize, String> {
    let mut pc = 0u64;
    let mut index = 0usize;
    for e in &listing.elems {
        let Element::Inst(i) = e else { continue };
        if pc == offset {
            return Ok(index);
        }
        if pc > offset {
            break;
        }
        pc += encoded_bytes(&i.opts);
        index += 1;
    }
    Err(if offset >= pc {
        format!("byte {offset} lies past the end of the code ({pc} bytes)")
    } else {
        format!("byte {offset} is not an instruction's start")
    })
}

/// Where NEO starts the kernel's code: after the per-thread data load prolog
/// (`offset_to_skip_per_thread_data_load`), as it does whenever the walker
/// generates the local IDs (NEO `Kernel::getKernelStartAddress`: the offset is
/// added when local IDs are used and the runtime does not generate them;
/// `EncodeDispatchKernel` on Xe-HP+ likewise). gpukit's payload puts the local IDs
/// in the registers as the walker does, so the prolog that would load them from
/// memory is skipped. Kernels before Xe-HP have no prolog and start at 0.
pub fn start(listing: &Listing, abi: &KernelAbi) -> Result<usize, Error> {
    let skip = u64::from(abi.entry.skip_per_thread_data_load);
    if skip == 0 || abi.per_thread.local_id == [false; 3] {
        return Ok(0);
    }
    instruction_at(listing, skip).map_err(|m| {
        Error::Input(format!(
            "kernel {}: the binary's offset to skip the per-thread data load: {m}; is the listing this binary's code?",
            abi.name
        ))
    })
}

/// Binding-table indices of A32 stateless access (`BTI 253`, non-coherent, and 255):
/// the surface relative to the general state base, where the indirect data lies.
pub const STATELESS_A32_BTIS: [u32; 2] = [253, 255];

/// The indirect data a Xe-HP+ kernel's cross-thread prolog loads (from the address
/// in r0.0 bits 31:6, through an A32 stateless block read): the cross-thread data
/// the walker does not pass inline, padded to 64 bytes (the prolog reads whole
/// blocks). gpukit's r0.0 holds 0, so the buffer is bound where A32 stateless
/// reads resolve, and offset 0 is its start. Kernels without such a prolog never read it.
pub fn bind_indirect_data(mem: &mut Memory, cross_thread: &[u8], inline_bytes: u32) {
    let mut data = cross_thread
        .get(inline_bytes as usize..)
        .unwrap_or_default()
        .to_vec();
    data.resize(data.len().next_multiple_of(64).max(64), 0);
    let index = mem.buffers.len();
    mem.add("indirect data", data);
    for bti in STATELESS_A32_BTIS {
        mem.bind(bti, index);
    }
}

/// Lowers the listing for the launch's GRF size, starting at instruction `start`,
/// and runs it over the launch's NDRange. The outer error is the listing's (it does
/// not lower); the inner one the run's.
pub fn run(
    listing: &Listing,
    start: usize,
    launch: &Launch,
    mem: &mut Memory,
    trace: Option<&mut dyn FnMut(String)>,
) -> Result<Result<Stats, RunError>, String> {
    let _ = (listing, start, launch, mem, trace);
    Err("the Gen engine (gpukit-gen) cannot run code yet".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instruction_offsets_count_compacted_instructions_as_eight_bytes() {
        let text = "(W) mov (8|M0) r1.0<1>:ud r0.0<1;1,0>:ud\n\
                    (W) mov (8|M0) r2.0<1>:ud r0.0<1;1,0>:ud {Compacted}\n\
                    (W) mov (8|M0) r3.0<1>:ud r0.0<1;1,0>:ud\n";
        let listing = gpukit_iga::read::text::parse_text(text, Some("12p1")).unwrap();
        assert_eq!(instruction_at(&listing, 0), Ok(0));
        assert_eq!(instruction_at(&listing, 16), Ok(1));
        assert_eq!(instruction_at(&listing, 24), Ok(2));
        assert!(instruction_at(&listing, 8)
            .unwrap_err()
            .contains("not an instruction's start"));
        assert!(instruction_at(&listing, 40)
            .unwrap_err()
            .contains("past the end"));
    }
}
