//! The `.visaasm` layout differs between IGC releases. Each difference is a named
//! knob here; the printer asks the style instead of testing versions.

use crate::version::Version;

/// Which IGC release's dump format to reproduce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// IGC 1.0.5353 (Debian 11), which writes vISA 3.x.
    Igc1_0_5353,
    /// IGC 1.0.12504 (Debian 12), which writes vISA 4.0/4.1.
    Igc1_0_12504,
    /// IGC 2.x, which prints vISA 4.2.
    Igc2,
}

impl Style {
    /// The release that writes files of this version.
    pub fn for_version(v: Version) -> Style {
        if v >= Version::new(4, 2) {
            Style::Igc2
        } else if v >= Version::new(4, 0) {
            Style::Igc1_0_12504
        } else {
            Style::Igc1_0_5353
        }
    }

    /// IGC 1.0.5353 prints the kernel attributes in table order; later releases
    /// leave `OutputAsmPath` out.
    pub fn prints_output_asm_path(self) -> bool {
        self == Style::Igc1_0_5353
    }

    /// IGC 2.x leaves a blank line after `.version`.
    pub fn blank_line_after_version(self) -> bool {
        self == Style::Igc2
    }

    /// Where the blank line of a subroutine entry goes: IGC 2.x puts it before the
    /// `.function` line, earlier releases between it and the label.
    pub fn blank_line_before_function_directive(self) -> bool {
        self == Style::Igc2
    }

    /// IGC 2.x ends a dump with `//Platform:` and `//Build option:` comments.
    pub fn prints_build_info(self) -> bool {
        self == Style::Igc2
    }
}
