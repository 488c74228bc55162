//! vISA format versions and the layout changes each one made.
//!
//! Every version-dependent field width or presence is decided here, by a named
//! predicate, so the reader and writer can never disagree about a gate.

use std::fmt;

/// A vISA format version as stored in the header (`major`, `minor`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct Version {
    pub major: u8,
    pub minor: u8,
}

impl Version {
    pub const fn new(major: u8, minor: u8) -> Self {
        Version { major, minor }
    }
    /// The newest version that has a binary form (IGC removed its writer after 4.1).
    pub const LATEST_BINARY: Version = Version::new(4, 1);
    /// The newest text version (IGC 2.x prints 4.2 and has no binary writer).
    pub const LATEST_TEXT: Version = Version::new(4, 2);
    /// The oldest version any IGC reader accepts.
    pub const OLDEST: Version = Version::new(3, 0);

    /// Variable, label and string ids (and string/variable counts) are 4 bytes from 3.4 on, 2 before.
    pub fn wide_ids(self) -> bool {
        self >= Version::new(3, 4)
    }
    /// The kernel input count is 4 bytes from 3.5 on, 1 before.
    pub fn wide_input_count(self) -> bool {
        self >= Version::new(3, 5)
    }
    /// Kernel and function name lengths are 2 bytes from 3.7 on, 1 before.
    pub fn wide_name_len(self) -> bool {
        self >= Version::new(3, 7)
    }
    /// 3.0 numbered the execution masks differently.
    pub fn old_emask_numbering(self) -> bool {
        self == Version::new(3, 0)
    }
    /// True if this version has element type `ty` (the 4.2 types exist in no binary).
    pub fn has_type(self, ty: crate::isa::Type) -> bool {
        ty.since().is_some_and(|since| since <= self)
    }
    /// True if this version has a binary encoding.
    pub fn has_binary_form(self) -> bool {
        self >= Version::OLDEST && self <= Version::LATEST_BINARY
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}
