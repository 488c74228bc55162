//! The runtime ABI of AMD IL kernels (what the runtime writes into constant
//! buffers before a dispatch: [`cb0`], [`args`], [`image`]) and of OpenCL 2.0
//! kernels ([`cl2`]: user SGPRs, setup buffer, argument buffer, image and
//! sampler words).

pub mod args;
pub mod cb0;
pub mod cl2;
pub mod image;
