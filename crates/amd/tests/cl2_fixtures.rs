//! CL2 fixture directories; each input sits beside its expected output.
//! `BLESS=1` rewrites the expected files from the current results.
//!
//! * `fixtures/cl2-sgpr/*.in` — `rules=gcn|gfx9 features=<list>`; `*.out`
//!   holds the kernel_code_properties, the user SGPR groups and the
//!   flat/scratch registers. Every feature combination under both rules is
//!   there, and the count is also checked against the seed's table (GCN)
//!   and the real-world notes' table (GFX9), independently of `*.out`.
//! * `fixtures/cl2-bad/*.patch` — byte patches applied to a valid CL2
//!   binary (`tests/data/argtypes.clo.regen`); `*.err` holds the error the
//!   reader must give. Patch lines: `<anchor> <offset> <hex bytes>`, where
//!   the anchor is `file`, `inner` (the inner ELF), `metadata:<kernel>`,
//!   `setup:<kernel>` or `section:<inner section name>`, and the offset is
//!   hexadecimal from there.

use gpukit_amd::abi::cl2::{
    flat_scratch, kernel_code_properties, user_sgpr_count, user_sgpr_layout, Features, SgprRules,
};
use gpukit_amd::cl2::Cl2Binary;
mod common;

use common::{check, dir, listing};
use std::path::Path;

/// User SGPR counts by highest feature: none, useargs, usesetup,
/// useenqueue, usegeneric (seed for GCN; real-world notes for GFX9).
const SEED_COUNTS: [u32; 5] = [4, 6, 8, 10, 12];
const GFX9_COUNTS: [u32; 5] = [6, 8, 10, 10, 12];

#[test]
fn sgpr_layouts() {
    let files = listing(&dir("cl2-sgpr"), ".in");
    assert_eq!(files.len(), 32, "16 feature combinations x 2 rule sets");
    let mut failures = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let field = |key: &str| {
            text.split_whitespace()
                .find_map(|w| w.strip_prefix(key))
                .unwrap_or("")
                .to_owned()
        };
        let rules = match field("rules=").as_str() {
            "gcn" => SgprRules::Gcn,
            "gfx9" => SgprRules::Gfx9,
            other => panic!("{}: rules {other:?}", f.display()),
        };
        let features = Features::parse(&field("features=")).unwrap();
        let props = kernel_code_properties(features, rules);
        let layout = user_sgpr_layout(props);
        let highest = if features.use_generic {
            4
        } else if features.use_enqueue {
            3
        } else if features.use_setup {
            2
        } else if features.use_args {
            1
        } else {
            0
        };
        let want = match rules {
            SgprRules::Gcn => SEED_COUNTS[highest],
            SgprRules::Gfx9 => GFX9_COUNTS[highest],
        };
        if user_sgpr_count(&layout) != want {
            failures.push(format!(
                "{}: {} user SGPRs, the table says {want}",
                f.display(),
                user_sgpr_count(&layout)
            ));
        }
        let mut out = format!(
            "kernel_code_properties {props:#x}\nuser SGPRs {}\n",
            user_sgpr_count(&layout)
        );
        for g in &layout {
            out.push_str(&format!("{} {}\n", g.registers(), g.hsa_name));
        }
        let fs = flat_scratch(&layout);
        out.push_str(&format!(
            "scratch descriptor {}\napertures {}\nflat scratch offset {}\nflat scratch size {}\n",
            fs.scratch_descriptor,
            fs.aperture_buffer.as_deref().unwrap_or("-"),
            fs.flat_scratch_offset.as_deref().unwrap_or("-"),
            fs.flat_scratch_size.as_deref().unwrap_or("-")
        ));
        let expected = f.with_extension("out");
        check(&expected, &out, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn base_binary() -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/argtypes.clo.regen"))
        .unwrap()
}

/// Byte offset of `part` inside `whole` (both from the same buffer).
fn offset_in(whole: &[u8], part: &[u8]) -> usize {
    part.as_ptr() as usize - whole.as_ptr() as usize
}

fn anchor(bytes: &[u8], name: &str) -> usize {
    let bin = Cl2Binary::parse(bytes).unwrap();
    let inner = bin.inner.as_ref().unwrap();
    if name == "file" {
        return 0;
    }
    if name == "inner" {
        // The inner ELF is the outer `.text`: its first section starts at its own offset 0.
        let first = inner
            .elf
            .sections
            .iter()
            .find(|s| !s.data.is_empty())
            .unwrap();
        return offset_in(bytes, first.data) - first.offset as usize;
    }
    if let Some(k) = name.strip_prefix("metadata:") {
        return offset_in(bytes, bin.kernel(k).unwrap().metadata_bytes);
    }
    if let Some(k) = name.strip_prefix("setup:") {
        return offset_in(
            bytes,
            bin.kernel(k).unwrap().code.as_ref().unwrap().setup_bytes,
        );
    }
    if let Some(s) = name.strip_prefix("section:") {
        return offset_in(bytes, inner.elf.section_by_name(s).unwrap().data);
    }
    panic!("unknown anchor {name}")
}

#[test]
fn malformed_binaries_give_errors() {
    let base = base_binary();
    let files = listing(&dir("cl2-bad"), ".patch");
    assert!(files.len() >= 8);
    let mut failures = Vec::new();
    for f in files {
        let mut bytes = base.clone();
        for line in std::fs::read_to_string(&f).unwrap().lines() {
            let line = line.split('#').next().unwrap().trim();
            if line.is_empty() {
                continue;
            }
            let mut w = line.split_whitespace();
            let (a, off, hex) = (w.next().unwrap(), w.next().unwrap(), w.next().unwrap());
            let at = anchor(&base, a) + usize::from_str_radix(off, 16).unwrap();
            for (i, pair) in hex.as_bytes().chunks(2).enumerate() {
                bytes[at + i] = u8::from_str_radix(std::str::from_utf8(pair).unwrap(), 16).unwrap();
            }
        }
        let got = match Cl2Binary::parse(&bytes) {
            Ok(_) => "ok\n".to_owned(),
            Err(e) => format!("{e}\n"),
        };
        check(&f.with_extension("err"), &got, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
