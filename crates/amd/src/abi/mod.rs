//! The runtime ABI of AMD IL kernels: what the runtime writes into constant
//! buffers before a dispatch.

pub mod args;
pub mod cb0;
pub mod image;
