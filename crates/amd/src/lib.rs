//! AMD GPU formats between the OpenCL compiler and the Catalyst runtime.
//!
//! * [`metadata`] — AMD IL kernel metadata text (`;ARGSTART`..`;ARGEND`):
//!   typed model, parser with line/column diagnostics, byte-exact emitter.
//! * [`datasegment`], [`printf`], [`link`] — the rest of the IL text the
//!   runtime consumes: constant data segments, printf format strings, and the
//!   multi-kernel link step (including `;DEBUGSTART`/`;DEBUGEND` stripping).
//! * [`abi`] — the runtime side: cb0 reserved area, argument placement,
//!   32-byte image metadata.
//! * [`cl1`] — Catalyst OpenCL 1.x program binaries (`.clo`); [`cl2`] —
//!   Catalyst OpenCL 2.0 binaries (binary metadata, HSA kernel setup);
//!   [`elf`] is the ELF view both share.
//! * [`container`] — tells CL1 GPU/CPU, CL2 and other ELF files apart.
//! * [`clc`] — kernel signatures from OpenCL C source, for argument placement.
//! * [`limits`] — every bound the readers enforce.
#![forbid(unsafe_code)]

pub mod abi;
pub mod cl1;
pub mod cl2;
pub mod clc;
pub mod container;
pub mod datasegment;
pub mod elf;
pub mod limits;
pub mod link;
pub mod metadata;
pub mod printf;
