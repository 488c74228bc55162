//! Liveness and register pressure on hand-made kernels whose answer is worked out by
//! hand: `tests/data/liveness/<name>.visaasm` with `<name>.expected` beside it, one
//! line per instruction (`index mnemonic grf-bytes live-bytes root:grf-bytes...`) and
//! the peak.
//! `BLESS=1` writes the expected files for new kernels (check them by hand).

use gpukit_visa::analysis::Liveness;
use gpukit_visa::{Code, Object};
use std::path::Path;

fn render(object: &Object) -> String {
    let routine = &object.kernels[0].body;
    let Code::Instructions(code) = &routine.code else {
        panic!("no instructions");
    };
    let live = Liveness::analyze(routine, 32).expect("small kernel");
    let mut out = String::new();
    for (i, inst) in code.iter().enumerate() {
        let names: Vec<String> = live
            .live_at(routine, i)
            .iter()
            .map(|&(v, bytes)| {
                let name = routine.string_lossy(routine.variables[v as usize].name_index);
                format!("{name}:{bytes}")
            })
            .collect();
        out.push_str(&format!(
            "{i} {} {} {}",
            inst.mnemonic(),
            live.pressure[i],
            live.live_bytes[i]
        ));
        for n in names {
            out.push(' ');
            out.push_str(&n);
        }
        out.push('\n');
    }
    if let Some((i, bytes)) = live.peak() {
        out.push_str(&format!("peak {i} {bytes}\n"));
    }
    out
}

#[test]
fn hand_made_kernels() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/liveness");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "visaasm") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let object = gpukit_visa::text::parse_text(&text).unwrap();
        let got = render(&object);
        let expected_path = path.with_extension("expected");
        if std::env::var_os("BLESS").is_some() && !expected_path.exists() {
            std::fs::write(&expected_path, &got).unwrap();
        }
        let want = std::fs::read_to_string(&expected_path).unwrap();
        assert_eq!(got, want, "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 2);
}

/// Every kernel of the checked-in IGC dumps analyses without trouble, and the peak's
/// live set adds up to the peak.
#[test]
fn igc_kernels() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/visa");
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "isa") {
            continue;
        }
        let Ok(object) = gpukit_visa::read(&std::fs::read(&path).unwrap()) else {
            continue;
        };
        for k in &object.kernels {
            let live = Liveness::analyze(&k.body, 32).unwrap();
            if let Some((i, bytes)) = live.peak() {
                let sum: u64 = live.live_at(&k.body, i).iter().map(|&(_, b)| b).sum();
                assert_eq!(sum, bytes, "{}", path.display());
            }
        }
    }
}
