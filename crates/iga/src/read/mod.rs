//! The read side: bytes -> JSON tree (`json.rs`) -> listing model (`listing.rs`).

pub(crate) mod json;
mod listing;
pub mod text;

use crate::error::{Error, ErrorKind, Repair};
use crate::limits;
use crate::model::Listing;

/// How to treat input iga64 would not have written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Unknown keys and malformed JSON are errors.
    #[default]
    Strict,
    /// Unknown keys are kept in order; iga64's known syntax defects are repaired and reported.
    Lenient,
}

/// A listing and what lenient mode had to repair to read it.
#[derive(Clone, Debug)]
pub struct Parsed {
    pub listing: Listing,
    pub repairs: Vec<Repair>,
}

/// Reads an IGA JSON listing of either version; the version comes from the document.
pub fn parse(bytes: &[u8], mode: Mode) -> Result<Parsed, Error> {
    if bytes.len() > limits::MAX_INPUT_BYTES {
        return Err(Error {
            kind: ErrorKind::Limit,
            offset: limits::MAX_INPUT_BYTES,
            line: 0,
            column: 0,
            path: "$".into(),
            message: format!(
                "input is {} bytes; the limit is {}",
                bytes.len(),
                limits::MAX_INPUT_BYTES
            ),
        });
    }
    let src = match std::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => {
            let valid = e.valid_up_to();
            // Report the position within the valid prefix, which is text.
            let prefix = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
            let mut err = Error::at(
                ErrorKind::Syntax,
                prefix,
                valid,
                "$".into(),
                "input is not UTF-8".into(),
            );
            err.offset = valid;
            return Err(err);
        }
    };
    let lenient = mode == Mode::Lenient;
    let mut doc = json::parse(src, lenient)?;
    let streamed = doc.streamed.take();
    let listing = listing::read_listing(src, lenient, &doc, streamed).map_err(|e| *e)?;
    Ok(Parsed {
        listing,
        repairs: doc.repairs,
    })
}
