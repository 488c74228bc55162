//! Executes Intel Gen machine code on the CPU: the Gen front end of gpukit's engine.
//!
//! A kernel's Gen code arrives as an IGA listing ([`gpukit_iga::Listing`], from iga64's
//! JSON or IGA assembly text). It is lowered once, before the run, into an executable
//! form ([`lower`]): every register operand resolved to a byte offset in one flat
//! register file of the GRFs and architecture registers ([`regfile`]), regions expanded
//! into per-channel byte offsets, types and ALU semantics fixed per instruction
//! ([`alu`]: one table, a row per op), branch targets as instruction indices, and each
//! `send` decoded from its descriptors into a memory operation ([`message`]). The run
//! ([`run`]) then executes that form for every hardware thread of the launch.
//!
//! What the two front ends share lives in `gpukit_visa::interp`: the launch
//! ([`gpukit_visa::interp::Launch`]: shape, SIMD, GRF size, payload), memory
//! ([`gpukit_visa::interp::Memory`]: buffers, SLM, bounds), element values and their
//! conversions (`interp::value`), statistics and errors. The runtime
//! (`gpukit-runtime`) binds a program binary's arguments into a launch once and runs
//! it through either front end.
//!
//! Semantics follow program order: the software scoreboard (SBID, register
//! distances) only orders what the hardware would run out of order, so it is ignored.
#![forbid(unsafe_code)]

pub mod alu;
pub mod locate;
mod lower;
pub mod message;
pub mod regfile;
mod run;
mod thread;

pub use gpukit_iga::syntax::Gen as Platform;
pub use lower::{lower, lower_with, LowerError, LowerOptions, Program};
pub use run::{run, run_checked, RunOptions, TraceStep};
