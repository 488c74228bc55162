//! Gen messages: `send`/`sendc`/`sends`/`sendsc` descriptors decoded once into a
//! [`Message`], and its execution against the register file and memory.
//!
//! Placeholder with the contract's signatures (owned by the messages' author).

use gpukit_iga::model::Instruction;
use gpukit_iga::syntax::Gen;
use gpukit_visa::interp::Memory;

/// A decoded message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub desc: u32,
    pub ex_desc: u32,
    /// Ends the thread (`EOT`).
    pub eot: bool,
}

/// Decodes a send's descriptors (immediates, or register values at run time).
pub fn decode(
    inst: &Instruction,
    platform: Gen,
    desc: u32,
    ex_desc: u32,
) -> Result<Message, String> {
    let _ = platform;
    Ok(Message {
        desc,
        ex_desc,
        eot: inst.has_opt("EOT"),
    })
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
    /// Byte offsets of the payloads and the destination in `regs`.
    pub src0: u32,
    pub src1: Option<u32>,
    pub dst: Option<u32>,
    pub exec_size: u32,
    /// The enabled channels of the send (bit i: channel i of the instruction).
    pub channels: u32,
    pub mem: &'a mut Memory,
    pub slm: &'a mut [u8],
    /// The thread's scratch space and how far it may grow.
    pub scratch: &'a mut Vec<u8>,
    pub scratch_limit: usize,
    pub group: [u32; 3],
    pub thread: u32,
}

/// Executes one message.
pub fn execute(msg: &Message, cx: &mut SendContext) -> Result<Effect, String> {
    let _ = cx;
    if msg.eot {
        return Ok(Effect::EndOfThread);
    }
    Err(format!(
        "message with descriptor {:#010x} {:#010x} is not supported yet",
        msg.desc, msg.ex_desc
    ))
}
