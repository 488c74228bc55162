//! Analyses over a routine's instruction stream: the control-flow graph and the
//! liveness of its variables (register pressure), for reports and tools.

pub mod cfg;
pub mod liveness;

pub use cfg::{Block, Cfg};
pub use liveness::Liveness;
