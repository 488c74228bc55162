//! One hardware thread of the Gen engine: its register file and per-channel program
//! counters, and the loop that executes lowered instructions until a barrier or the
//! thread's end.

/// One hardware thread.
pub(crate) struct Thread {
    /// The register file ([`crate::regfile::Layout`]).
    pub regs: Vec<u8>,
    /// Per channel: the next instruction, or [`DONE`].
    pub pc: [u32; 32],
    pub index: u32,
}

/// A channel that has ended (or never started).
pub(crate) const DONE: u32 = u32::MAX;
