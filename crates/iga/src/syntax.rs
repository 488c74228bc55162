//! The spelling of IGA assembly that both directions share: the renderer
//! (`render.rs`, model -> text) and the text reader (`read/text.rs`, text ->
//! model) ask here, so a token is spelled in one place.

use crate::model::SrcMod;

/// Platform generations the syntax depends on (IGA's `Platform` order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Gen {
    Gen9,
    Gen11,
    Xe,
    XeHp,
    XeHpg,
    XeHpc,
}

/// The generation of an IGA JSON platform name (`"skl"`, `"xe"`, `"xehpg"`, ...).
pub fn gen_of(platform: &str) -> Gen {
    match platform {
        "skl" | "gen9" | "bxt" | "kbl" | "glk" | "cfl" => Gen::Gen9,
        "icl" | "gen11" | "icllp" => Gen::Gen11,
        "xe" | "tgl" | "tgllp" | "gen12p1" => Gen::Xe,
        "xehp" => Gen::XeHp,
        "xehpg" | "dg2" => Gen::XeHpg,
        _ => Gen::XeHpc,
    }
}

/// The platform name iga64 writes in JSON (`"platform":"xe"`), from any of the
/// spellings a user or a tool gives: iga64's `-p` values (`9`, `12p1`, `xe_hpg`),
/// ocloc device names (`tgllp`, `acm-g10`) and IGC's `//.platform` header (`TGLLP`,
/// `DG2`, `PVCXT`). `None` for a platform gpukit does not know.
pub fn platform_name(spelling: &str) -> Option<&'static str> {
    let s = spelling.trim().to_ascii_lowercase().replace('-', "_");
    Some(match s.as_str() {
        "9" | "gen9" | "skl" | "bxt" | "kbl" | "glk" | "cfl" => "skl",
        "11" | "gen11" | "icl" | "icllp" => "icl",
        "12p1" | "xe" | "gen12p1" | "tgl" | "tgllp" | "xe_lp" | "xelp" => "xe",
        "12p5" | "xehp" | "xe_hp" | "xehp_sdv" | "xe_hp_sdv" => "xehp",
        "12p7" | "12p71" | "xehpg" | "xe_hpg" | "dg2" | "acm_g10" | "mtl" => "xehpg",
        "12p72" | "12p8" | "xehpc" | "xe_hpc" | "pvc" | "pvcxt" => "xehpc",
        _ => return None,
    })
}

/// JSON labels are `L` + the PC in at least four digits; the text drops the zeros.
pub fn label_text(symbol: &str) -> String {
    match symbol.strip_prefix('L') {
        Some(digits) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            format!(
                "L{}",
                digits.trim_start_matches('0').parse::<u64>().unwrap_or(0)
            )
        }
        _ => symbol.to_string(),
    }
}

/// The inverse of [`label_text`]: `L16` in the text is `L0016` in the JSON.
pub fn label_symbol(text: &str) -> String {
    match text.strip_prefix('L') {
        Some(digits)
            if !digits.is_empty()
                && digits.len() <= 18
                && digits.bytes().all(|b| b.is_ascii_digit()) =>
        {
            format!("L{:04}", digits.parse::<u64>().unwrap_or(0))
        }
        _ => text.to_string(),
    }
}

/// Registers printed without a number when it is 0.
pub fn has_reg_num(name: &str) -> bool {
    !matches!(name, "null" | "ip")
}

pub fn has_subregs(name: &str) -> bool {
    !matches!(name, "null" | "ip" | "ce" | "msg")
}

/// Source modifiers as the text spells them; a logic op's negation is `~`.
/// Longest spelling first, so a reader can take the first that matches.
pub fn src_mods(logic: bool) -> [(&'static str, SrcMod); 3] {
    [
        ("-(abs)", SrcMod::NegAbs),
        ("(abs)", SrcMod::Abs),
        (if logic { "~" } else { "-" }, SrcMod::Neg),
    ]
}

pub fn src_mod_text(logic: bool, m: SrcMod) -> &'static str {
    src_mods(logic)
        .iter()
        .find(|(_, x)| *x == m)
        .map_or("", |(s, _)| s)
}

/// Shared function ids of the pre-Xe extended descriptor (and Xe's `send.SFID`).
pub const SFIDS: &[(u64, &str)] = &[
    (0x0, "null"),
    (0x2, "smpl"),
    (0x3, "gtwy"),
    (0x4, "dc2"),
    (0x5, "rc"),
    (0x6, "urb"),
    (0x7, "ts"),
    (0x8, "vme"),
    (0x9, "dcro"),
    (0xA, "dc0"),
    (0xB, "pixi"),
    (0xC, "dc1"),
    (0xD, "cre"),
];

pub fn sfid_name(v: u64) -> Option<&'static str> {
    SFIDS.iter().find(|(id, _)| *id == v).map(|(_, n)| *n)
}

/// How iga64 names a shared function in the send comment.
pub fn sfid_text(s: &str) -> &str {
    match s {
        "dc0" => "hdc.dc0",
        "dc1" => "hdc.dc1",
        "dc2" => "hdc.dc2",
        "dcro" => "hdc.ro",
        "smpl" => "sampler",
        "gtwy" => "gateway",
        "ts" => "spawner",
        "rc" => "hdc.rc",
        "pixi" => "pixel interpolator",
        other => other,
    }
}
