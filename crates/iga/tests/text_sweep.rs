//! Truncation and mutation sweep over the checked-in assembly-text fixtures:
//! whatever the text, reading returns normally for every platform, and a
//! successful read writes JSON that reads back strictly and renders text that
//! reads again without a panic.

use gpukit_iga::read::text::parse_text;
use gpukit_iga::{analysis, cfg::Cfg, parse, render::render, write, Mode, Version};
use std::path::Path;

fn exercise(text: &str) {
    for platform in ["9", "11", "12p1", "12p71", "12p72"] {
        let Ok(l) = parse_text(text, Some(platform)) else {
            continue;
        };
        let json = write(&l, Version::V1);
        let again = parse(&json, Mode::Strict).expect("our own JSON parses");
        assert_eq!(write(&again.listing, Version::V1), json);
        let _ = parse_text(&render(&l), Some(platform));
        let _ = analysis::check(&l);
        let _ = Cfg::build(&l).to_dot(&l);
    }
}

fn fixtures() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    ["tgllp_saxpy.asm", "skl_a64_atomic.iga.asm", "dg2_dump.asm"]
        .iter()
        .map(|n| std::fs::read_to_string(dir.join(n)).unwrap())
        .collect()
}

/// `GPUKIT_FULL_SWEEP=1` sweeps every position; otherwise every `sampled`-th.
fn stride(sampled: usize) -> usize {
    if std::env::var_os("GPUKIT_FULL_SWEEP").is_some_and(|v| v != "0") {
        1
    } else {
        sampled
    }
}

#[test]
fn every_truncation() {
    for f in fixtures() {
        for cut in (0..f.len()).step_by(stride(7)) {
            if f.is_char_boundary(cut) {
                exercise(&f[..cut]);
            }
        }
    }
}

#[test]
fn every_mutation() {
    // Bytes that change a token's class: digits, separators, signs, brackets, letters.
    const REPLACEMENTS: &[u8] = b"0 9:.,;<>()[]{}-~$@|&Lrxn\n";
    for f in fixtures() {
        let bytes = f.as_bytes();
        for at in (0..bytes.len()).step_by(stride(13)) {
            for &r in REPLACEMENTS {
                let mut m = bytes.to_vec();
                m[at] = r;
                if let Ok(t) = std::str::from_utf8(&m) {
                    exercise(t);
                }
            }
            // Deletion of the byte.
            let mut m = bytes.to_vec();
            m.remove(at);
            if let Ok(t) = std::str::from_utf8(&m) {
                exercise(t);
            }
        }
    }
}

#[test]
fn hostile_shapes() {
    let long_line = "        mov (16|M0) r1.0<1>:d ".to_string() + &"r2.0<1;1,0>:d ".repeat(10_000);
    exercise(&long_line);
    exercise(&"L0:\n".repeat(50_000));
    exercise("(W&~f0.0.any16h) send (8|M0) null:0 r1:99999999999999999999 0x 0x\n");
    exercise("load.ugm.d32 (16|M0) r1:2 bti[-0x8000000000000000][r4:2-0x8000000000000000]\n");
    exercise("mad (8|M0) r1.0<1>:f r2.0<-9223372036854775808;-1>:f r3.0<1;0>:f r4.0<1>:f\n");
}
