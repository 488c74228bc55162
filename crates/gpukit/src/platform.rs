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

/// Every spelling of a platform the readers meet (vISA Gen binaries `SKL`, IGC dumps
/// `TGLLP`, `DG2/MTL`, IGA listings `xe`/`xehpg`, `-platform` names), and IGC's
/// GFXCORE family codes, to the one vocabulary of `--platform` (`skl`, `icllp`,
/// `tgllp`, `dg2`, `mtl`, `pvc`) plus the names of platforms no command targets
/// (`bdw`, `xehp`, `xe2` ...). IGA's names are families: `xe` is Xe-LP (TGL's),
/// `xehpg` is DG2's (MTL's Xe-LPG has no IGA name of its own), `xehpc` is PVC's.
const SPELLINGS: &[(&str, &str)] = &[
    ("gen8", "bdw"),
    ("bdw", "bdw"),
    ("gen9", "skl"),
    ("skl", "skl"),
    ("gen11", "icllp"),
    ("icl", "icllp"),
    ("icllp", "icllp"),
    ("gen12lp", "tgllp"),
    ("xe", "tgllp"),
    ("xelp", "tgllp"),
    ("tgl", "tgllp"),
    ("tgllp", "tgllp"),
    ("xehp", "xehp"),
    ("xehp_sdv", "xehp"),
    ("xehpg", "dg2"),
    ("dg2", "dg2"),
    // IGC 2.x's trailer names the pair it compiles one way for.
    ("dg2/mtl", "dg2"),
    ("mtl", "mtl"),
    ("xelpg", "mtl"),
    ("xehpc", "pvc"),
    ("pvc", "pvc"),
    ("pvcxt", "pvc"),
    ("xe2", "xe2"),
    ("lnl", "xe2"),
];

/// The one spelling of a platform name as a scan row holds it: an Intel name in
/// `SPELLINGS` becomes its vocabulary word; any other name (AMD devices
/// `Pitcairn`/`pitcairn`) is lower-cased, so each platform has one spelling.
pub fn canonical(name: &str) -> String {
    let lower = name.trim().to_ascii_lowercase();
    SPELLINGS
        .iter()
        .find(|(spelling, _)| *spelling == lower)
        .map_or(lower, |(_, word)| (*word).to_owned())
}

/// IGC's `GFXCORE_FAMILY` code (the patch-token header's device field) as a word of
/// the vocabulary, when it names one (`igfxfmid.h`: GEN8 11, GEN9 12, GEN11 15,
/// GEN12LP 18, XE_HP 0xc05, XE_HPG 0xc07, XE_HPC 0xc08, XE2_HPG 0xc09).
pub fn from_gfxcore_family(code: u32) -> Option<&'static str> {
    Some(match code {
        11 => "bdw",
        12 => "skl",
        15 => "icllp",
        18 => "tgllp",
        0xc05 => "xehp",
        0xc07 => "dg2",
        0xc08 => "pvc",
        0xc09 => "xe2",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_spelling_per_platform() {
        for (s, want) in [
            ("TGLLP", "tgllp"),
            ("xe", "tgllp"),
            ("SKL", "skl"),
            ("icl", "icllp"),
            ("ICLLP", "icllp"),
            ("PVCXT", "pvc"),
            ("xehpc", "pvc"),
            ("DG2/MTL", "dg2"),
            ("xehpg", "dg2"),
            ("XeHP_SDV", "xehp"),
            ("Pitcairn", "pitcairn"),
        ] {
            assert_eq!(canonical(s), want, "{s}");
        }
        for p in Platform::ALL {
            assert_eq!(canonical(p.name()), p.name());
        }
        assert_eq!(from_gfxcore_family(12), Some("skl"));
        assert_eq!(from_gfxcore_family(7), None);
    }
}
