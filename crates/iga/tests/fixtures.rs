//! The checked-in kernels (tgllp, pvc, skl; iga64 1.0 and 2.0 output of the
//! same binaries, with iga64's text): what the corpus tests check, on a
//! machine without the corpus.

use gpukit_iga::{convert, parse, render::render, write, Mode, Version};
use std::path::Path;

fn data(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(name),
    )
    .unwrap()
}

#[test]
fn kernels_round_trip_convert_and_render_exactly() {
    for k in ["tgllp_saxpy", "pvc_saxpy", "skl_saxpy"] {
        let v1 = data(&format!("{k}.iga1.json"));
        let v2 = data(&format!("{k}.iga2.json"));
        let asm = String::from_utf8(data(&format!("{k}.asm"))).unwrap();
        let l1 = parse(&v1, Mode::Strict).unwrap().listing;
        let l2 = parse(&v2, Mode::Strict).unwrap().listing;
        assert!(write(&l1, Version::V1) == v1, "{k}: 1.0 round trip");
        assert!(write(&l2, Version::V2) == v2, "{k}: 2.0 round trip");
        assert!(
            write(&convert(&l1, Version::V2), Version::V2) == v2,
            "{k}: 1.0 -> 2.0"
        );
        assert!(
            write(&convert(&l2, Version::V1), Version::V1) == v1,
            "{k}: 2.0 -> 1.0"
        );
        assert_eq!(render(&l1), asm, "{k}: text from 1.0");
        assert_eq!(render(&l2), asm, "{k}: text from 2.0");
        assert!(gpukit_iga::analysis::check(&l2).is_empty(), "{k}: check");
    }
}

#[test]
fn defective_listing_is_diagnosed_then_repaired() {
    let b = data("skl_raw_send_defect.iga1.json");
    let e = parse(&b, Mode::Strict).unwrap_err();
    assert_eq!((e.line, e.column, e.offset), (47, 15, 4143));
    assert_eq!(e.path, "insts[8].srcs[0]");
    let p = parse(&b, Mode::Lenient).unwrap();
    assert_eq!(p.repairs.len(), 1);
    assert_eq!((p.repairs[0].line, p.repairs[0].column), (47, 9));
    assert_eq!(p.repairs[0].path, "insts[8].srcs[0]");
}

/// Layouts the corpus lacks, printed by Debian's iga64 1.1.0 (libigc-tools
/// 1.0.12504.6) from `corpus/iga/{pvc,acm-g10}/k01_saxpy_loop.dat`:
/// `-Xprint-json -Xprint-defs` plus `-Xprint-pc -Xprint-bits` (pc and encoding
/// keys) or `-Xprint-ldst` (load/store syntax: no `other`, no descriptors).
#[test]
fn optional_layouts_round_trip_and_survive_conversion() {
    for name in [
        "pvc_saxpy.pc_bits.iga1.json",
        "pvc_saxpy.ldst.iga1.json",
        "acm_saxpy.ldst.iga1.json",
    ] {
        let b = data(name);
        let l = parse(&b, Mode::Strict).unwrap().listing;
        assert!(write(&l, Version::V1) == b, "{name}: round trip");
        let v2 = write(&convert(&l, Version::V2), Version::V2);
        let back = parse(&v2, Mode::Strict).unwrap().listing;
        assert!(
            write(&convert(&back, Version::V1), Version::V1) == b,
            "{name}: 1.0 -> 2.0 -> 1.0"
        );
        assert!(
            gpukit_iga::analysis::check(&back).is_empty(),
            "{name}: check"
        );
    }
}

/// An SLM fence (descriptor 0x0219E0FE): 2.0 omits the flat surface's `soff`, 1.0 prints
/// the surface id iga64 decodes from the descriptor (254). The 2.0 file is IGC 2.x's
/// iga64 output with its `liveTotals.s` removed (the older iga2 the corpus uses has no
/// `s`); the 1.0 file is Debian's iga64. Both conversions are byte-exact.
#[test]
fn flat_fence_surface_id_comes_from_the_descriptor() {
    let v1 = data("icllp_slm_fence.iga1.json");
    let v2 = data("icllp_slm_fence.iga2.json");
    let l1 = parse(&v1, Mode::Strict).unwrap().listing;
    let l2 = parse(&v2, Mode::Strict).unwrap().listing;
    assert!(
        write(&convert(&l2, Version::V1), Version::V1) == v1,
        "2.0 -> 1.0"
    );
    assert!(
        write(&convert(&l1, Version::V2), Version::V2) == v2,
        "1.0 -> 2.0"
    );
    assert!(gpukit_iga::analysis::check(&l2).is_empty(), "check");
    // Gen11 send types come from the message where it decides them: the fence, the
    // 32-bit byte scatter and the a64 dword gathering read (a `:f` payload) print as
    // iga64 does.
    let asm = String::from_utf8(data("icllp_slm_fence.asm")).unwrap();
    let got = render(&l2);
    assert_eq!(got, render(&l1));
    let differing: Vec<(&str, &str)> = asm
        .lines()
        .zip(got.lines())
        .filter(|(w, g)| w != g)
        .collect();
    assert!(differing.is_empty(), "{differing:?}");
}
