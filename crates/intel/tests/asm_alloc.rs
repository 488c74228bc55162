//! The `.asm` register-assignment reader: both header styles read to the numbers worked
//! out by hand, every truncation and deterministic mutations of them read or fail with
//! an error (never a panic), and every IGC `.asm` of `../shared/corpus` reads (skipped
//! with a `skipped:` line when the corpus is absent, unless `CI=true` or
//! `REQUIRE_PEERS=1`).

use gpukit_intel::asm_alloc::{read, Place};
use std::path::Path;

/// IGC 1.0.5353's header style (no ids, `-TotalGRFNum` in the options).
const LEGACY: &str = "//.kernel mathfn
//.platform SKL
//.full_options \"-emitLocation -abortonspill -TotalGRFNum 128 -output \"
//.instCount 3
//.declare BuiltinR0 rf=r size=32 type=ud align=16 words (r0.0)
//.declare  rf=r size=32 type=ud align=16 words (r44.0)
//.declare %null rf=r size=4 type=ud align=16 words
//.declare %sp rf=r size=8 type=uq align=16 words (r125.3)
//.declare V0033 rf=r size=32 type=d alias=+0 align=16 words (r44.0)
//.declare V0044 rf=r size=8 type=uq align=4 words (r8.2)
//.declare V0054 rf=r size=64 type=ud alias=V0047+0 align=16 words (r124.0)
//.declare P01 rf=f size=4 type=uw align=2 words (f1.0)
//.declare P02 rf=f size=2 type=uw align=2 words (spilled -> )
//.declare V0099 rf=r size=4 type=ud alias=V0051+0 align=2 words (spilled)

_main:
        mov (8|M0)  r44.0<1>:ud  r0.0<8;8,1>:ud   // $1
";

/// IGC 1.0.12504 / 2.x style (ids, thread_config, spill size).
const CURRENT: &str = "//.kernel sgemm_regblock
//.platform PVC
//.thread_config numGRF=256, numAcc=4, numSWSB=16
//.instCount 580
//.RA type\tGRAPH_COLORING_SPILL_FF_RA
//.spill size 704
//.declare BuiltInR0 (0)  rf=r size=64 type=ud align=32 words (r0.0) IsBuiltin
//.declare  (1)  rf=r size=64 type=ud align=32 words (r54.0) IsBuiltin
//.declare %retval (24)  rf=r size=0 type=ud align=32 words (r26.0) Output
//.declare V0045 (55)  rf=r size=4 type=d align=2 words (r9.2)
//.declare V0113 (122)  rf=r size=64 type=f align=32 words (spilled -> Scratch[20x32])
//.declare P03 (130)  rf=f16  size=2 type=uw align=1 words (f1.1)
//.declare A01 (131)  rf=a size=8 type=uq align=4 words (a0.1)

// B000: Preds:{},  Succs:{}
_main:
(W)     mov (8|M0)               r54.0<1>:ud   r0.0<1;1,0>:ud                        // $1
(W)     or (1|M0)                cr0.0<1>:ud   cr0.0<0;1,0>:ud   0x4C0:uw            // $1
        math.sqt (16|M16)        r12.0<1>:f    r76.0<8;8,1>:f       {@5,$7}          // $33
        mad (16|M0)              r6.0<1>:f     r10.0<8;1>:f  r12.0<8;1>:f  r2.0<0>:f // $41 R{} IR{}
(W)     mov (1|M0)               r3.0<1>:ud    acc0.0<0;1,0>:ud                      //
        send.dc1 (16|M0)         r72      r26     null    0x0   0x04205E00  {@2,$0} // wr:2+0, rd:2; untyped surface read with x // $27
(~f0.0) sel (16|M0)  acc2.0<1>:f   (abs)r45.0<1;1,0>:f  0x7F800000:f  {$12.dst} //  ALU pipe: float; $60
";

#[test]
fn legacy_header() {
    let a = read(LEGACY).unwrap();
    assert_eq!(a.kernel.as_deref(), Some("mathfn"));
    assert_eq!((a.num_grf, a.grf_bytes, a.spill_bytes), (128, 32, 0));
    assert_eq!(a.variables.len(), 10);
    assert_eq!(a.variables[1].name, "");
    assert_eq!(a.find("%null").unwrap().place, Place::Unplaced);
    // r125.3 in 8-byte elements: byte 24 of r125.
    assert_eq!(a.find("%sp").unwrap().grf_bytes(32), Some(4024..4032));
    assert_eq!(a.find("V0044").unwrap().grf_bytes(32), Some(272..280));
    assert_eq!(a.find("V0033").unwrap().alias, Some((String::new(), 0)));
    assert_eq!(
        a.find("V0054").unwrap().alias,
        Some(("V0047".to_string(), 0))
    );
    assert_eq!(a.find("P01").unwrap().grf_bytes(32), None);
    assert_eq!(a.find("P02").unwrap().place, Place::Spilled { slot: None });
    assert_eq!(
        a.find("V0099").unwrap().place,
        Place::Spilled { slot: None }
    );
    assert_eq!(a.find("V0099").unwrap().line, 14);
    assert_eq!(a.visa_ids, vec![1]);
}

#[test]
fn current_header() {
    let a = read(CURRENT).unwrap();
    assert_eq!((a.num_grf, a.grf_bytes, a.spill_bytes), (256, 64, 704));
    assert_eq!(a.find("V0045").unwrap().grf_bytes(64), Some(584..588));
    assert_eq!(
        a.find("V0113").unwrap().place,
        Place::Spilled {
            slot: Some((20, 32))
        }
    );
    assert_eq!(a.find("%retval").unwrap().bytes, 0);
    assert_eq!(a.find("P03").unwrap().file, "f16");
    assert_eq!(a.find("A01").unwrap().grf_bytes(64), None);
    assert_eq!(a.visa_ids, vec![1, 1, 33, 41, 27, 60]);
    assert_eq!(a.grfs_named[0], vec![54, 0]);
    assert_eq!(a.grfs_named[1], Vec::<u32>::new());
    assert_eq!(a.grfs_named[4].len(), 32);
    assert!(a.grfs_named[4].contains(&87) && a.grfs_named[4].contains(&26));
    assert_eq!(a.grfs_named[5], vec![45]);
}

#[test]
fn errors_name_line_and_column() {
    // A dump starts with its `//.kernel` line (the header reader refuses anything else).
    let e = read("//.kernel k\n//.declare V1 rf=r size=x type=d words (r1.0)\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, 20), "{e}");
    let e = read("//.kernel k\n//.declare V1 rf=r size=4 type=zz words\n").unwrap_err();
    assert_eq!(e.line, 2, "{e}");
    let e = read("//.kernel k\n//.declare V1 rf=r size=4 type=d words (spilled -> \n").unwrap_err();
    assert!(e.message.contains("unclosed"), "{e}");
    let e = read("//.kernel k\n//.declare V1 rf=r size=4 type=d words (r1)\n").unwrap_err();
    assert!(e.message.contains("placement"), "{e}");
    let e = read("//.declare V1 rf=r size=4 type=d words (r1.0)\n").unwrap_err();
    assert!(e.message.contains("//.kernel"), "{e}");
    assert!(read("mov (8|M0) r1.0<1>:ud r0.0<8;8,1>:ud\n").is_err());
    assert!(read("").is_err());
}

#[test]
fn truncations_and_mutations() {
    for text in [LEGACY, CURRENT] {
        let bytes = text.as_bytes();
        for end in 0..=bytes.len() {
            let _ = read(&String::from_utf8_lossy(&bytes[..end]));
        }
        for at in 0..bytes.len() {
            for b in [b' ', b'(', b')', b'=', b'+', b'9', b'\n', b'x', 0xff] {
                let mut m = bytes.to_vec();
                m[at] = b;
                let _ = read(&String::from_utf8_lossy(&m));
                m.remove(at);
                let _ = read(&String::from_utf8_lossy(&m));
            }
        }
    }
}

#[test]
fn corpus_dumps_read() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if !root.is_dir() {
        assert!(
            std::env::var_os("REQUIRE_PEERS").is_none()
                && std::env::var("CI").as_deref() != Ok("true"),
            "{} is required",
            root.display()
        );
        println!("skipped: {} is absent", root.display());
        return;
    }
    let mut files = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(".asm")
                && !p.to_string_lossy().ends_with(".iga.asm")
            {
                files.push(p);
            }
        }
    }
    let mut placed = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        if !text.starts_with("//.") {
            continue; // GenX_IR's own listings of hand-written sources have no header
        }
        let a = read(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert!(
            matches!(a.num_grf, 128 | 256),
            "{}: {}",
            f.display(),
            a.num_grf
        );
        placed += a
            .variables
            .iter()
            .filter(|d| d.grf_bytes(a.grf_bytes).is_some())
            .count();
    }
    println!("{} .asm dumps, {placed} declarations in GRFs", files.len());
    assert!(files.len() > 500 && placed > 10_000);
}
