//! Lowering an IGA listing once into the form the run loop executes: operands as
//! byte offsets into the register file, regions as per-channel offsets, predicates
//! and conditional modifiers as flag offsets, labels as instruction indices, ALU
//! rows and send messages resolved.

use crate::alu;
use crate::message;
use crate::regfile::Layout;
use gpukit_iga::model::{Element, Instruction, Listing};
use gpukit_iga::syntax::{gen_of, Gen};
use std::collections::HashMap;

/// Why a listing cannot be lowered: the instruction (its position among the
/// listing's instructions and its mnemonic) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("instruction #{index} ({mnemonic}): {message}")]
pub struct LowerError {
    pub index: usize,
    pub mnemonic: String,
    pub message: String,
}

/// How to lower.
#[derive(Clone, Debug, Default)]
pub struct LowerOptions {
    /// Where a thread starts, in bytes from the kernel's first instruction: XeHP+
    /// zebin kernels skip the per-thread-data load prolog
    /// (`offset_to_skip_per_thread_data_load` in `.ze_info`) when the runtime
    /// writes the payload itself.
    pub start_offset: u32,
}

/// A listing lowered for execution.
pub struct Program {
    pub platform: Gen,
    pub layout: Layout,
    pub(crate) insts: Vec<Inst>,
    /// The listing's instructions, for messages, traces and descriptors decoded at
    /// run time.
    pub(crate) source: Vec<Instruction>,
    /// Each instruction's byte offset from the kernel's start.
    pub(crate) pcs: Vec<u32>,
    /// The instruction a thread starts at.
    pub(crate) start: usize,
}

impl Program {
    /// The listing's instruction `index` (as [`crate::TraceStep::index`] and errors number them).
    pub fn instruction(&self, index: usize) -> Option<&Instruction> {
        self.source.get(index)
    }
    pub fn len(&self) -> usize {
        self.insts.len()
    }
    pub fn is_empty(&self) -> bool {
        self.insts.is_empty()
    }
}

/// One lowered instruction.
pub(crate) struct Inst {
    pub kind: Kind,
}

pub(crate) enum Kind {
    Alu(&'static alu::Op),
    Send(Box<Send>),
    Nop,
}

pub(crate) struct Send {
    pub message: Option<message::Message>,
}

/// Lowers `listing` for a device with `grf_bytes`-byte GRFs (32, or 64 on XeHPC).
pub fn lower(listing: &Listing, grf_bytes: u32) -> Result<Program, LowerError> {
    lower_with(listing, grf_bytes, &LowerOptions::default())
}

/// [`lower`] with [`LowerOptions`].
pub fn lower_with(
    listing: &Listing,
    grf_bytes: u32,
    options: &LowerOptions,
) -> Result<Program, LowerError> {
    let platform = gen_of(&listing.platform);
    let source: Vec<Instruction> = listing.insts().cloned().collect();
    let err = |index: usize, message: String| LowerError {
        index,
        mnemonic: source.get(index).map(|i| i.op.clone()).unwrap_or_default(),
        message,
    };
    // Labels name the instruction that follows them.
    let mut labels: HashMap<&str, usize> = HashMap::new();
    let mut n = 0;
    for e in &listing.elems {
        match e {
            Element::Label(l) => {
                labels.insert(&l.symbol, n);
            }
            Element::Inst(_) => n += 1,
        }
    }
    let mut pcs = Vec::with_capacity(source.len());
    let mut pc = 0u32;
    for inst in &source {
        let at = inst.pc.and_then(|p| u32::try_from(p).ok()).unwrap_or(pc);
        pcs.push(at);
        pc = at + if inst.has_opt("Compacted") { 8 } else { 16 };
    }
    let start = if options.start_offset == 0 {
        0
    } else {
        pcs.iter()
            .position(|p| *p == options.start_offset)
            .ok_or_else(|| {
                err(
                    0,
                    format!(
                        "no instruction starts at byte {} (the start offset)",
                        options.start_offset
                    ),
                )
            })?
    };
    let grf_count = 128;
    let layout = Layout::new(grf_bytes, grf_count);
    let mut insts = Vec::with_capacity(source.len());
    for (i, inst) in source.iter().enumerate() {
        let kind = if inst.is_send() {
            Kind::Send(Box::new(Send { message: None }))
        } else if matches!(inst.op.as_str(), "nop" | "sync") {
            Kind::Nop
        } else {
            Kind::Alu(
                alu::find(&inst.op, inst.subop.as_deref())
                    .ok_or_else(|| err(i, "not supported yet".into()))?,
            )
        };
        insts.push(Inst { kind });
    }
    let _ = &labels;
    Ok(Program {
        platform,
        layout,
        insts,
        source,
        pcs,
        start,
    })
}
