//! Against iga64 itself (Debian `libigc-tools`): every corpus kernel binary is
//! disassembled to JSON with each combination of layout options, and each
//! listing must read strictly and write back byte for byte. Skipped with a
//! message when iga64 or the corpus is missing, unless `REQUIRE_PEERS=1` or
//! `CI=true`.

use gpukit_iga::{parse, write, Mode};
use std::path::Path;
use std::process::Command;

fn required() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
        || std::env::var("REQUIRE_PEERS").is_ok_and(|v| v == "1")
}

#[test]
fn iga64_layout_options_round_trip() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/iga");
    let have_iga = Command::new("iga64").arg("-h").output().is_ok();
    if !root.is_dir() || !have_iga {
        assert!(
            !required(),
            "iga64 or the corpus is missing (required when CI=true or REQUIRE_PEERS=1)"
        );
        skipped(format_args!("iga64 or {} not found", root.display()));
        return;
    }
    let options: [&[&str]; 5] = [
        &[],
        &["-Xprint-pc"],
        &["-Xprint-bits"],
        &["-Xprint-ldst"],
        &["-Xprint-pc", "-Xprint-bits", "-Xprint-ldst"],
    ];
    let (mut n, mut exact) = (0, 0);
    let mut failures = Vec::new();
    for (device, platform) in [
        ("tgllp", "12p1"),
        ("acm-g10", "12p71"),
        ("pvc", "12p72"),
        ("skl", "9"),
    ] {
        let Ok(rd) = std::fs::read_dir(root.join(device)) else {
            continue;
        };
        let mut dats: Vec<_> = rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "dat"))
            .collect();
        dats.sort();
        for dat in dats {
            for opts in options {
                let out = Command::new("iga64")
                    .args(["-d", &format!("-p={platform}")])
                    .arg(&dat)
                    .args(["-Xprint-json", "-Xprint-defs"])
                    .args(opts)
                    .output()
                    .unwrap();
                n += 1;
                let name = format!("{} {}", dat.display(), opts.join(" "));
                match parse(&out.stdout, Mode::Strict) {
                    Ok(p) if write(&p.listing, p.listing.version) == out.stdout => exact += 1,
                    Ok(_) => failures.push(format!("{name}: does not write back byte for byte")),
                    Err(e) => failures.push(format!("{name}: {e}")),
                }
            }
        }
    }
    // The intel corpus kernels, with every layout option at once.
    let intel = root.join("../intel");
    for (device, platform) in [
        ("skl", "9"),
        ("icllp", "11"),
        ("tgllp", "12p1"),
        ("acm-g10", "12p71"),
        ("pvc", "12p72"),
    ] {
        let Ok(rd) = std::fs::read_dir(intel.join(device)) else {
            continue;
        };
        let mut dats: Vec<_> = rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "dat"))
            .collect();
        dats.sort();
        for dat in dats {
            let out = Command::new("iga64")
                .args(["-d", &format!("-p={platform}")])
                .arg(&dat)
                .args([
                    "-Xprint-json",
                    "-Xprint-defs",
                    "-Xprint-pc",
                    "-Xprint-bits",
                    "-Xprint-ldst",
                ])
                .output()
                .unwrap();
            n += 1;
            match parse(&out.stdout, Mode::Strict) {
                Ok(p) if write(&p.listing, p.listing.version) == out.stdout => exact += 1,
                Ok(_) => failures.push(format!(
                    "{}: does not write back byte for byte",
                    dat.display()
                )),
                Err(e) => failures.push(format!("{}: {e}", dat.display())),
            }
        }
    }
    eprintln!("iga64 interop: {exact} of {n} listings round-trip byte for byte");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Says that a test skipped, where `cargo test`'s output shows it: libtest hides what
/// a passing test prints with `eprintln!`, not a direct write to stderr.
fn skipped(why: std::fmt::Arguments) {
    use std::io::Write;
    let test = std::thread::current().name().unwrap_or("test").to_string();
    let _ = writeln!(std::io::stderr(), "skipped: {test} ({why})");
}
