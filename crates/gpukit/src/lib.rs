//! The `gpukit` command as a library: `cli` holds the command tree and its `main`,
//! so the binary and the language bindings run the same code.
#![forbid(unsafe_code)]

mod cmd;
mod detect;
mod error;
mod input;
mod output;
pub mod platform;
mod report;

pub mod api;
pub mod cli;
