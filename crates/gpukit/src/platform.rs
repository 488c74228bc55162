//! The one platform vocabulary of every command: `skl`, `icllp`, `tgllp`, `dg2`,
//! `mtl`, `pvc` (any case), or the number IGC's `PlatformInfo` encodes a platform as.

use gpukit_visa::verify::Platform;

/// `--platform` for commands that need a vISA platform.
pub fn parse(s: &str) -> Result<Platform, String> {
    if let Some(p) = Platform::from_name(s) {
        return Ok(p);
    }
    if let Ok(code) = s.parse::<u8>() {
        if let Some(p) = Platform::from_code(code) {
            return Ok(p);
        }
    }
    Err(format!(
        "unknown platform {s:?}; one of {} (or IGC's platform number)",
        names()
    ))
}

/// A platform as `visa gen` selects an embedded Gen binary: by name, or by the raw
/// platform number for the platforms that have no name here (BDW 3, CHV 4, BXT 6 ...).
#[derive(Clone, Copy, Debug)]
pub enum GenPlatform {
    Named(Platform),
    Code(u8),
}

impl GenPlatform {
    pub fn matches(self, code: u8) -> bool {
        match self {
            GenPlatform::Named(p) => Platform::from_code(code) == Some(p),
            GenPlatform::Code(c) => c == code,
        }
    }
}

pub fn parse_gen(s: &str) -> Result<GenPlatform, String> {
    if let Some(p) = Platform::from_name(s) {
        return Ok(GenPlatform::Named(p));
    }
    s.parse::<u8>().map(GenPlatform::Code).map_err(|_| {
        format!(
            "unknown platform {s:?}; one of {} (or IGC's platform number)",
            names()
        )
    })
}

fn names() -> String {
    Platform::ALL.map(|p| p.name()).join(", ")
}

impl std::fmt::Display for GenPlatform {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenPlatform::Named(p) => f.write_str(p.name()),
            GenPlatform::Code(c) => write!(f, "{c}"),
        }
    }
}
