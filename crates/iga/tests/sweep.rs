//! Truncation and mutation sweep over the checked-in fixtures: whatever the
//! bytes, reading (both modes) and everything downstream of a successful read
//! return normally; nothing panics.

use gpukit_iga::{analysis, cfg::Cfg, convert, parse, svg, write, Mode, Version};
use std::path::Path;

fn exercise(bytes: &[u8]) {
    for mode in [Mode::Strict, Mode::Lenient] {
        if let Ok(p) = parse(bytes, mode) {
            let l = &p.listing;
            for v in [Version::V1, Version::V2] {
                let out = write(&convert(l, v), v);
                // What we write from a strictly read listing, we read back identically.
                // (Lenient reads keep unknown keys, which may collide with the other
                // version's keys; they need only not panic.)
                match parse(&out, mode) {
                    Ok(again) => assert_eq!(write(&again.listing, v), out),
                    Err(e) => assert!(mode == Mode::Lenient, "our own output does not parse: {e}"),
                }
            }
            let _ = analysis::check(l);
            let _ = analysis::stats(l);
            let _ = Cfg::build(l).to_dot(l);
            let _ = svg::pressure(l);
            let _ = gpukit_iga::render::render(l);
            let _ = svg::cfg(l, &Cfg::build(l));
        }
    }
}

/// `GPUKIT_FULL_SWEEP=1` (CI, in release) sweeps every cut and mutation position;
/// otherwise (a debug `cargo test`) every `sampled`-th, each fixture still covered.
fn stride(full: usize, sampled: usize) -> usize {
    if std::env::var_os("GPUKIT_FULL_SWEEP").is_some_and(|v| v != "0") {
        full
    } else {
        sampled
    }
}

fn fixtures() -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    [
        "tgllp_saxpy.iga1.json",
        "tgllp_saxpy.iga2.json",
        "skl_raw_send_defect.iga1.json",
    ]
    .iter()
    .map(|n| std::fs::read(dir.join(n)).unwrap())
    .collect()
}

#[test]
fn every_truncation() {
    // Every cut of the small fixture; every 11th of the larger ones (a full sweep).
    for (k, f) in fixtures().iter().enumerate() {
        let step = if k == 2 { stride(1, 7) } else { stride(11, 97) };
        for cut in (0..f.len()).step_by(step) {
            exercise(&f[..cut]);
        }
    }
}

#[test]
fn byte_mutations() {
    const BYTES: &[u8] = b"{}[]\":,0.\\n\xff ";
    for f in fixtures() {
        let mut m = f.clone();
        for at in (0..f.len()).step_by(stride(41, 331)) {
            for &b in BYTES {
                m[at] = b;
                exercise(&m);
            }
            m[at] = f[at];
        }
    }
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    for open in ["[", "{\"a\":", "[{\"k\":"] {
        let doc = open.repeat(100_000);
        let e = parse(doc.as_bytes(), Mode::Lenient).unwrap_err();
        assert!(e.message.contains("nesting deeper"), "{e}");
    }
}

#[test]
fn extreme_numbers_do_not_overflow() {
    let f = &fixtures()[1];
    let text = String::from_utf8(f.clone()).unwrap();
    for n in ["9223372036854775807", "-9223372036854775808", "-1", "0"] {
        let t = text
            .replace("\"r\":124,", &format!("\"r\":{n},"))
            .replace("\"id\":3,", &format!("\"id\":{n},"));
        exercise(t.as_bytes());
    }
}

/// Listings iga64 would never print (operands of every kind in every place,
/// every op a send) still write as JSON that reads back the same.
#[test]
fn unusual_models_write_and_read_back() {
    use gpukit_iga::model::{Element, OperandKind};
    for f in fixtures() {
        let base = parse(&f, Mode::Lenient).unwrap().listing;
        for variant in 0..4 {
            let mut l = base.clone();
            for e in &mut l.elems {
                let Element::Inst(i) = e else { continue };
                match variant {
                    0 => i.op = "send".into(),
                    1 => {
                        if let Some(d) = &mut i.dst {
                            if let OperandKind::Direct(r) = &d.kind {
                                d.kind = OperandKind::Indirect(r.clone());
                            }
                        }
                        i.op = "sends".into();
                    }
                    2 => {
                        for s in &mut i.srcs {
                            if let OperandKind::Direct(r) = &s.kind {
                                s.kind = OperandKind::Macro(r.clone());
                            }
                        }
                    }
                    _ => i.srcs.reverse(),
                }
            }
            for v in [Version::V1, Version::V2] {
                for m in [l.clone(), convert(&l, v)] {
                    let out = write(&m, v);
                    let again = parse(&out, Mode::Strict)
                        .unwrap_or_else(|e| panic!("variant {variant} as {v:?}: {e}"));
                    assert_eq!(write(&again.listing, v), out, "variant {variant} as {v:?}");
                }
            }
        }
    }
}
