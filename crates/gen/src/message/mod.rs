//! Gen messages: a `send`/`sendc`/`sends`/`sendsc` (or an LSC message in IGA's
//! load/store syntax) decoded once from its descriptors into a [`Message`], and
//! its execution against the register file and memory.
//!
//! Decoding (`hdc.rs`: the HDC data ports of Gen9 to XeHPG; `lsc.rs`: the LSC of
//! XeHPG and XeHPC; here: gateway and thread spawner) turns every memory message
//! into one [`Access`]: an operation, a memory space, where the addresses come
//! from and how data lies in registers. One executor (`execute.rs`) runs every
//! access, and only `access.rs` touches memory bytes. What an atomic computes,
//! the SLM window and reads into a buffer's allocation padding are the vISA
//! interpreter's ([`gpukit_visa::interp::message`]).
//!
//! Facts come from IGA's message decoders (descriptor fields), the PRMs' payload
//! layouts and the corpus's listings (which operand holds a compare-and-swap's
//! expected value, what units a block message's header offset is in).

mod access;
mod execute;
mod hdc;
mod image;
mod lsc;

use gpukit_iga::model::{Instruction, OperandKind, Reg, SurfaceOffset};
use gpukit_iga::syntax::{self, Gen};
use gpukit_visa::interp::check::{Checker, Locate};
use gpukit_visa::interp::{Findings, Memory};

pub use execute::execute;

/// A decoded message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub kind: Kind,
    /// Ends the thread after the message (`EOT`).
    pub eot: bool,
    /// What the message is, for errors and traces (`untyped surface read x`, ...).
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A load, store or atomic.
    Access(Access),
    /// A memory fence (of shared local memory when `local`, else of global memory):
    /// program order already gives what it orders; `--check` learns which memory
    /// the next barrier orders.
    Fence { local: bool },
    /// The gateway's barrier signal.
    Barrier,
    /// The end-of-thread message (to the thread spawner or the gateway).
    EndOfThread,
    /// A message to the null shared function: it does nothing.
    Null,
    /// A media block or typed surface message on an image.
    Image(Image),
}

/// A message on the image bound at a binding-table index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Image {
    pub op: ImageOp,
    pub bti: u32,
    /// The payload starts with a header register.
    pub header: bool,
    /// Registers of the first payload (the descriptor's message length): payload
    /// register `i` past it lies in the second payload.
    pub mlen: u32,
    /// Registers of both payloads.
    pub len: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageOp {
    /// A block of bytes by rows of a 2D image: the header holds the byte column
    /// (dword 0), the row (dword 1) and the block's width and height less one
    /// (dword 2, bits 9:0 and 21:16); rows lie in registers at a pitch of the width
    /// rounded up to a power of two (at least 4).
    MediaBlock { load: bool },
    /// Texels at integer coordinates: `coords` registers of u, v, r (a dword per
    /// slot), then (writes) a register per enabled channel of `channels` (RGBA =
    /// bits 0-3); eight slots, slot `s` being the instruction's channel
    /// `s + first_channel`.
    Typed {
        load: bool,
        channels: u8,
        coords: u32,
        first_channel: u32,
    },
    /// The sampler's `sample_lz` / `sample_l` (and `sample`, at LOD 0): float
    /// parameters u, v, (lod,) r (r: the 3D coordinate or an array's layer), each
    /// a run of registers of a dword per channel; returns the channels the header
    /// leaves enabled (all without a header), each its own run of registers.
    Sample { simd: u32, sampler: u32, lod: bool },
}

/// One memory message: every data-port and LSC load, store and atomic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    pub op: Op,
    pub space: Space,
    pub address: Address,
    pub data: Data,
    /// The address payload starts with a header register.
    pub header: bool,
    /// Bytes added to every address (the descriptor's or the syntax's immediate offset).
    pub offset: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Load,
    Store,
    /// An atomic with the dword-atomic operation code
    /// [`gpukit_visa::interp::message::atomic_result`] takes; `None`: an atomic load.
    Atomic(Option<u32>),
}

/// The memory an address reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// Stateless: a virtual address (A64, or A32 zero-extended).
    Flat,
    /// The surface at a binding-table index.
    Bti(u32),
    /// The work-group's shared local memory.
    Slm,
    /// The thread's scratch (private) space, addressed from 0.
    Scratch,
    /// A 32-bit stateless address (HDC binding-table index 253 with A32
    /// addresses, LSC `bti[255]`): IGC reaches only the thread's indirect data this
    /// way, in the payload prolog of XeHP+ kernels (see [`indirect_data`]).
    Indirect,
}

/// Where a message's addresses come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Address {
    /// One per channel, `bytes` (4 or 8) each, for `simd` channels.
    PerChannel { bytes: usize, simd: u32 },
    /// One address, the first channel's (LSC transposed forms).
    First { bytes: usize },
    /// Dword `dword` of the header, counting `unit` bytes (block messages).
    HeaderDword { dword: usize, unit: i64 },
    /// Qword 0 of the header (A64 block messages).
    HeaderQword,
    /// No address register: the offset alone (scratch block messages).
    Offset,
}

/// How data lies in registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Data {
    /// Per channel and component: component `k` (bit `k` of `components`) lies
    /// `k * mem_bytes` past the channel's address; each enabled component fills its
    /// own run of whole registers, a `reg_bytes` element per channel with the datum
    /// `shift` bytes into it (loads zero the rest).
    Gather {
        components: u64,
        mem_bytes: usize,
        reg_bytes: usize,
        shift: usize,
    },
    /// `bytes` contiguous bytes at the address, from byte `reg_offset` of the first
    /// data register on.
    Block { bytes: usize, reg_offset: usize },
}

/// What a send does to the thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Done,
    Barrier,
    EndOfThread,
}

/// What a message reaches while it executes.
pub struct SendContext<'a> {
    /// The whole register file, r0 at byte 0.
    pub regs: &'a mut [u8],
    pub grf_bytes: u32,
    /// Byte offsets of the payloads and the destination in `regs` (`None`: `null`).
    pub src0: u32,
    pub src1: Option<u32>,
    pub dst: Option<u32>,
    pub exec_size: u32,
    /// The enabled channels of the send (bit i: channel i of the instruction); only
    /// these access memory or fault.
    pub channels: u32,
    pub mem: &'a mut Memory,
    pub slm: &'a mut [u8],
    /// The thread's scratch space and how far it may grow.
    pub scratch: &'a mut Vec<u8>,
    pub scratch_limit: usize,
    /// Counts reads into allocation padding (`Finding::OverRead`).
    pub findings: &'a mut Findings,
    /// The thread's indirect data ([`indirect_data`]), which r0.0 points at (0).
    pub indirect: &'a [u8],
    pub group: [u32; 3],
    pub thread: u32,
    /// `--check`: where the send tells the vISA engine's checker of its accesses.
    pub check: Option<Check<'a>>,
}

/// `--check`'s hook in a send: the launch's checker (shared with the vISA engine)
/// and the program that names instructions in its findings.
pub struct Check<'a> {
    pub checker: &'a mut Checker,
    pub program: &'a dyn Locate,
}

/// Bytes of the cross-thread data an XeHPG thread receives in r1 at dispatch (the
/// inline data): its payload prolog saves r1 before loading the local ids over it,
/// and the indirect data holds only the rest of the cross-thread data (XeHPC
/// kernels of the corpus load all of it).
pub const INLINE_DATA_BYTES: usize = 32;

/// The indirect data NEO writes for a thread and XeHP+ kernels load in their
/// prolog (from r0.0 & ~0x3F, which gpukit's payload leaves 0): the cross-thread
/// data past the inline data (its size rounded up to 32 bytes), then every thread's
/// per-thread data (local ids), `per_thread.len()` bytes each; only `thread`'s is
/// filled, as only it reads its own (at `r0.2`'s thread index).
pub fn indirect_data(cross_thread: &[u8], per_thread: &[u8], thread: u32) -> Vec<u8> {
    let at = cross_thread.len().next_multiple_of(32) + thread as usize * per_thread.len();
    let mut v = vec![0; at + per_thread.len()];
    v[..cross_thread.len()].copy_from_slice(cross_thread);
    v[at..].copy_from_slice(per_thread);
    v
}

/// A send descriptor operand: an immediate, or an address register read at run time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Descriptor {
    Imm(u32),
    Reg(Reg),
}

/// A message's extended descriptor and descriptor, as [`decode`] takes them: the
/// last two sources of a send; for an LSC message in load/store syntax the
/// surface's state register (`ss[a0.2]`) or 0, and 0 (the syntax says the rest).
pub fn descriptors(inst: &Instruction) -> (Descriptor, Descriptor) {
    let of = |k: Option<&OperandKind>| match k {
        Some(OperandKind::Immediate { value, .. }) => Descriptor::Imm(immediate(value)),
        Some(OperandKind::Direct(r)) => Descriptor::Reg(r.reg.clone()),
        _ => Descriptor::Imm(0),
    };
    if inst.is_load_store_syntax() {
        let state = inst.srcs.iter().find_map(|s| match &s.kind {
            OperandKind::Address(a) => match a.surface.as_ref().and_then(|s| s.offset.as_ref()) {
                Some(SurfaceOffset::Reg(r)) => Some(Descriptor::Reg(r.clone())),
                _ => None,
            },
            _ => None,
        });
        return (state.unwrap_or(Descriptor::Imm(0)), Descriptor::Imm(0));
    }
    let n = inst.srcs.len();
    let at = |i: Option<usize>| of(i.and_then(|i| inst.srcs.get(i)).map(|s| &s.kind));
    (at(n.checked_sub(2)), at(n.checked_sub(1)))
}

/// Registers of a split send's second payload: the length the listing gives it
/// (XeHPG on encode it apart from the extended descriptor), else extended
/// descriptor bits 9:6 before Xe, 10:6 from Xe on.
fn second_payload_len(inst: &Instruction, platform: Gen, ex_desc: u32) -> u32 {
    let listed = inst.srcs.get(1).and_then(|s| match &s.kind {
        OperandKind::Data(d) if d.reg.name != "null" => d.len,
        _ => None,
    });
    match listed {
        Some(l) => l as u32,
        None => {
            let bits = if platform < Gen::Xe { 4 } else { 5 };
            (ex_desc >> 6) & ((1 << bits) - 1)
        }
    }
}

fn immediate(v: &str) -> u32 {
    let v = v.trim();
    match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).map_or(0, |x| x as u32),
        None => v.parse::<i64>().map_or(0, |x| x as u32),
    }
}

/// Decodes a send's descriptors (immediates, or register values at run time) into
/// the message it sends. An unknown message is an error naming the shared function
/// and the descriptor bits.
pub fn decode(
    inst: &Instruction,
    platform: Gen,
    desc: u32,
    ex_desc: u32,
) -> Result<Message, String> {
    if inst.is_load_store_syntax() {
        return lsc::decode_syntax(inst, ex_desc);
    }
    let mut message = decode_send(inst, platform, desc, ex_desc)?;
    if inst.has_opt("ExBSO") {
        bind_surface_state(&mut message, ex_desc);
    }
    Ok(message)
}

/// The binding-table index that makes a legacy (HDC, sampler) message bindless.
const BINDLESS_BTI: u32 = 252;

/// With `{ExBSO}` (XeHPG on) a bindless message's extended descriptor is the
/// surface-state offset itself (bits 31:6; the low bits are not the offset). The
/// runtime binds each bindless surface's offset in the binding table (gpukit-runtime's
/// `bindless_handle`), so the message resolves the offset as an index.
fn bind_surface_state(message: &mut Message, ex_desc: u32) {
    let offset = ex_desc & !0x3F;
    match &mut message.kind {
        Kind::Access(Access {
            space: Space::Bti(bti),
            ..
        })
        | Kind::Image(Image { bti, .. })
            if *bti == BINDLESS_BTI =>
        {
            *bti = offset;
        }
        _ => {}
    }
}

fn decode_send(
    inst: &Instruction,
    platform: Gen,
    desc: u32,
    ex_desc: u32,
) -> Result<Message, String> {
    let sfid = inst
        .subop
        .clone()
        .or_else(|| syntax::sfid_name(u64::from(ex_desc & 0xF)).map(str::to_string))
        .unwrap_or_default();
    // Before Xe the extended descriptor carries EOT; from Xe on the instruction does.
    let eot = inst.has_opt("EOT") || (platform < Gen::Xe && ex_desc & 0x20 != 0);
    let unknown = |what: &str| {
        format!(
            "unsupported message: {what} (sfid {sfid}, desc {desc:#010x}, ex_desc {ex_desc:#010x})"
        )
    };
    let kind_name = match sfid.as_str() {
        "ugm" | "ugml" | "slm" | "tgm" if platform >= Gen::XeHpg => {
            return lsc::decode(&sfid, desc, ex_desc, inst.exec_size as u32, eot)
                .map_err(|w| unknown(&w));
        }
        "dc0" | "dc1" | "dcro" => {
            let xlen = second_payload_len(inst, platform, ex_desc);
            let exec_size = inst.exec_size as u32;
            return hdc::decode(&sfid, desc, xlen, exec_size, platform, eot)
                .map_err(|w| unknown(&w));
        }
        "gtwy" if eot => (Kind::EndOfThread, "end of thread"),
        "gtwy" if desc & 7 == 4 => (Kind::Barrier, "barrier"),
        "ts" if eot => (Kind::EndOfThread, "end of thread"),
        "null" => (Kind::Null, "null"),
        "smpl" => {
            let len = (desc >> 25 & 0xF) + second_payload_len(inst, platform, ex_desc);
            return image::decode_sampler(desc, len, eot).map_err(|w| unknown(&w));
        }
        "vme" | "cre" => return Err(unknown("video motion estimation is not supported")),
        "gtwy" => return Err(unknown("a gateway message other than the barrier")),
        _ => return Err(unknown("a message of this shared function")),
    };
    Ok(Message {
        kind: kind_name.0,
        eot,
        name: kind_name.1.to_string(),
    })
}
