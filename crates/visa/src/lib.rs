//! Intel vISA objects: the `.isa` binary format (magic `CISA`, versions 3.0-4.1),
//! its object model, and the instruction-set description that drives every
//! direction of conversion.
//!
//! ```no_run
//! let bytes = std::fs::read("kernel.isa").unwrap();
//! let object = gpukit_visa::read(&bytes).unwrap();
//! assert_eq!(gpukit_visa::write(&object).unwrap(), bytes);
//! ```
#![forbid(unsafe_code)]

pub mod analysis;
pub mod binary;
mod error;
pub mod interp;
pub mod isa;
pub mod limits;
pub mod model;
pub mod semantics;
pub mod text;
pub mod verify;
mod version;

pub use binary::{ReadOptions, StreamError};
pub use error::{ReadError, ReadErrorKind, WriteError};
pub use model::*;
pub use version::Version;

/// Reads a `.isa` file. Fails if any part, including any instruction stream, is invalid.
pub fn read(bytes: &[u8]) -> Result<Object, ReadError> {
    binary::read(bytes, ReadOptions::default())
}

/// Reads a `.isa` file, keeping instruction streams that do not decode as
/// [`Code::Undecoded`] (with the reason) instead of failing.
pub fn read_lenient(bytes: &[u8]) -> Result<Object, ReadError> {
    binary::read(
        bytes,
        ReadOptions {
            keep_undecodable_streams: true,
        },
    )
}

/// Writes an object in the binary format of its `version`.
pub fn write(object: &Object) -> Result<Vec<u8>, WriteError> {
    binary::write(object)
}
