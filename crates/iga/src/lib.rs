//! IGA JSON listings: what `iga64 -Xprint-json` prints, in both format
//! versions (1.0, `IGAJSONv1.md`; 2.0, `IGAJSONv2.md`), and IGA assembly text
//! (`iga64 -d`, IGC's `.asm` dumps) read into the same model (`read::text`,
//! the mirror of `render`; text -> JSON equals iga64's own JSON).
//!
//! Data flows one way per direction: bytes -> [`mod@read`] -> [`mod@model`] ->
//! ([`mod@write`] | [`mod@convert`] | [`mod@render`] | [`mod@cfg`] |
//! [`mod@analysis`] | [`mod@svg`]). The reader
//! and writers reproduce iga64's exact bytes, so `write(parse(x)) == x` for
//! every listing iga64 wrote; iga64's known syntax defect (send operands
//! printed without braces) is an error in strict mode and repaired, with a
//! note, in lenient mode.
//!
//! Where the specifications live: `model.rs` (listing, elements, operands:
//! IGAJSONv1.md "Format", IGAJSONv2.md "Labels", "Instructions", "Operand
//! Objects", "Reg", "Rgn", "SBID"), `read/` and `write/v1.rs`/`write/v2.rs`
//! (the byte layout of iga64's FormatterJSON/FormatterJSON2), `convert.rs`
//! (dataflow `defs`/`uses`, `implicit`/`other`), `cfg.rs` (label
//! `preds`/`succs`), `render.rs` (iga64's text formatter), `limits.rs`.
#![forbid(unsafe_code)]

pub mod analysis;
pub mod cfg;
pub mod convert;
pub mod error;
pub mod limits;
pub mod message;
pub mod model;
pub mod ops;
pub mod read;
pub mod render;
pub mod svg;
pub mod syntax;
pub mod write;

pub use convert::{convert, convert_numbered, convert_owned, FIRST_BLOCK_ID};
pub use error::{Error, ErrorKind, Repair};
pub use model::{Listing, Version};
pub use read::{parse, Mode, Parsed};
pub use write::{write, write_to};
