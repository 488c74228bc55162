//! IGC asm dumps: the corpus's dumps read with the figures their headers state, and
//! every truncation and deterministic byte mutation of a dump either reads or fails
//! with an error (never a panic).

use gpukit_intel::asm_dump;
use std::path::{Path, PathBuf};

/// A dump in IGC 2.x's layout, small enough to sweep every prefix of.
const DUMP: &str = "//.kernel sgemm_regblock\n//.platform TGLLP\n\
//.thread_config numGRF=128, numAcc=2, numSWSB=16\n//.options_string \"-x 1\"\n\
//.instCount 6\n//.RA type\tGRAPH_COLORING_SPILL_FF_BC_RA\n//.git-hash \n//.spill size 640\n\
//.spill GRF est. ref count 110\n\n//.declare V0101 (110)  rf=r size=64 type=f align=16 words (spilled -> Scratch[0x32])\n\
(W)     mov (8|M0)               r3.0<1>:ud    r0.0<1;1,0>:ud                   {A@1} // $1\n\
        send.dc0 (16|M0)         null     r54     r8      0x80            0x020F1000           {@1,$0} // scratch space spill; $60\n\
L1352:\n(W&~f0.0) goto (32|M0)                     L1400                  L1400                            // $2\n\
(W)     send.ts (1|M0)           null     r127    null    0x0            0x02000010           {EOT,@1} // end of thread // $108\n\
L1400:\n        nop                                                                                          // $108\n\n\
//.BankConflicts: 148\n//.numALUInst: 744\n";

#[test]
fn reads_the_sample() {
    let d = asm_dump::read(DUMP).unwrap();
    assert_eq!(d.kernel, "sgemm_regblock");
    assert_eq!(d.num_grf, Some(128));
    assert_eq!(d.spill_bytes, 640);
    assert_eq!(d.instructions, 5);
    assert_eq!(d.labels, 2);
    assert_eq!(d.send_count(), 2);
}

#[test]
fn truncations_and_mutations() {
    let bytes = DUMP.as_bytes();
    for end in 0..=bytes.len() {
        if let Ok(text) = std::str::from_utf8(&bytes[..end]) {
            let _ = asm_dump::read(text);
        }
    }
    // Each byte replaced by characters the grammar gives meaning to.
    for at in 0..bytes.len() {
        for b in [
            b'\n', b'/', b'.', b'(', b')', b':', b'=', b',', b' ', b'9', b'\t',
        ] {
            let mut m = bytes.to_vec();
            m[at] = b;
            let text = String::from_utf8_lossy(&m);
            if let Ok(d) = asm_dump::read(&text) {
                assert!(d.sends.len() <= asm_dump::MAX_SEND_KINDS + 1);
            }
        }
    }
    // Header values at the edge of their types.
    for v in ["4294967296", "18446744073709551616", "", "-1", "1e3"] {
        let t = format!("//.kernel k\n//.thread_config numGRF={v}\n");
        assert!(asm_dump::read(&t).is_err(), "{v}");
        let t = format!("//.kernel k\n//.spill size {v}\n");
        assert_eq!(asm_dump::read(&t).is_err(), v != "4294967296", "{v}");
    }
}

fn corpus(folder: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus")
        .join(folder);
    if dir.is_dir() {
        return Some(dir);
    }
    let required = std::env::var_os("REQUIRE_PEERS").is_some_and(|v| v == "1")
        || std::env::var_os("CI").is_some_and(|v| v == "true");
    assert!(!required, "corpus folder {} missing", dir.display());
    // Said past libtest's capture, so a fresh clone's `cargo test` shows what it skipped.
    let test = std::thread::current().name().unwrap_or("test").to_string();
    let _ = std::io::Write::write_fmt(
        &mut std::io::stderr(),
        format_args!("skipped: {test} ({} is missing)\n", dir.display()),
    );
    None
}

/// Every IGC dump of the two tgllp corpora reads, with the count of instruction
/// lines close to what the header states (IGC states it before its last passes) and
/// the spilled kernel's spill size found.
#[test]
fn corpus_dumps_read() {
    for folder in ["intel/tgllp", "intel-sid/tgllp"] {
        let Some(dir) = corpus(folder) else { return };
        let mut read = 0;
        let mut spilled = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if !name.ends_with(".asm") || name.ends_with(".iga.asm") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(asm_dump::looks_like(text.as_bytes()), "{name}");
            let d = asm_dump::read(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(d.num_grf, Some(128), "{name}");
            assert!(d.instructions > 0 && d.send_count() > 0, "{name}");
            if d.spill_bytes > 0 {
                spilled.push(name.clone());
            }
            read += 1;
        }
        assert!(read > 40, "{folder}: {read} dumps");
        assert!(
            spilled.iter().all(|n| n.starts_with("spill_matmul")) && !spilled.is_empty(),
            "{folder}: {spilled:?}"
        );
    }
}
