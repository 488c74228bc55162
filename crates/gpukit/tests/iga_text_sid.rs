//! IGA assembly text of IGC 2.x code against IGC 2.x's own iga64 (`SID_OCLOC`'s
//! release, unpacked by `.ci/run`): every corpus OpenCL source is compiled for
//! tgllp and dg2 into a zebin, each kernel's Gen code is taken out with
//! `gpukit intel gen`, and that iga64's text, read by gpukit, must give its JSON
//! byte for byte: 2.0 (its default, blocks numbered from 1: `--block-ids-from 1`)
//! and 1.0 (`-Xprint-jsonV1`). Skipped with a message when `SID_OCLOC` is unset,
//! unless `REQUIRE_PEERS=1` or `CI=true`, where that fails.

use std::path::{Path, PathBuf};
use std::process::Command;

fn required() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
        || std::env::var("REQUIRE_PEERS").is_ok_and(|v| v == "1")
}

fn gpukit(args: &[&str], dir: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gpukit"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run gpukit")
}

/// Kernel names of a program binary, from `intel info --json`.
fn kernels(bin: &str, dir: &Path) -> Vec<String> {
    let out = gpukit(&["intel", "info", bin, "--json"], dir);
    assert!(out.status.success(), "intel info {bin}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["kernels"]
        .as_array()
        .map(|ks| {
            ks.iter()
                .filter_map(|k| k["name"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn igc2_iga64_text_reads_to_its_json() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/intel/cl");
    let Some(ocloc) = std::env::var_os("SID_OCLOC").map(PathBuf::from) else {
        assert!(
            !required(),
            "SID_OCLOC is not set (required when CI=true or REQUIRE_PEERS=1; .ci/run unpacks \
             IGC 2.x under target/peers/sid)"
        );
        eprintln!("skipped: igc2_iga64_text_reads_to_its_json (SID_OCLOC not set)");
        return;
    };
    if !root.is_dir() {
        assert!(!required(), "corpus missing at {}", root.display());
        eprintln!("skipped: igc2_iga64_text_reads_to_its_json (no corpus)");
        return;
    }
    let iga64 = ocloc.with_file_name("iga64");
    assert!(
        iga64.exists(),
        "{} beside SID_OCLOC is missing",
        iga64.display()
    );
    let tmp = std::env::temp_dir().join(format!("gpukit-iga-sid-{}", std::process::id()));
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    sources.sort();
    let (mut kernels_seen, mut v2_exact, mut v1_exact) = (0, 0, 0);
    let mut failures = Vec::new();
    for (device, platform) in [("tgllp", "12p1"), ("dg2", "12p71")] {
        for cl in &sources {
            let _ = std::fs::remove_dir_all(&tmp);
            std::fs::create_dir_all(&tmp).unwrap();
            std::fs::copy(cl, tmp.join("k.cl")).unwrap();
            let built = Command::new(&ocloc)
                .args([
                    "compile", "-file", "k.cl", "-device", device, "-output", "k", "-q",
                ])
                .current_dir(&tmp)
                .output()
                .unwrap();
            // Sources this release does not build for the device (doubles on
            // tgllp, extensions) have no code to compare.
            let bin = format!("k_{device}.bin");
            if !built.status.success() || !tmp.join(&bin).exists() {
                continue;
            }
            for kernel in kernels(&bin, &tmp) {
                let gen = gpukit(
                    &["intel", "gen", &bin, "--kernel", &kernel, "-o", "k.gen"],
                    &tmp,
                );
                assert!(gen.status.success(), "intel gen {}:{kernel}", cl.display());
                let iga = |extra: &[&str]| {
                    let out = Command::new(&iga64)
                        .args(["-d", &format!("-p={platform}"), "k.gen"])
                        .args(extra)
                        .current_dir(&tmp)
                        .output()
                        .unwrap();
                    assert!(out.status.success(), "iga64 on {}:{kernel}", cl.display());
                    out.stdout
                };
                std::fs::write(tmp.join("k.txt"), iga(&[])).unwrap();
                kernels_seen += 1;
                for (version, extra, ids) in [
                    ("2", &["-Xprint-json"][..], Some("1")),
                    ("1", &["-Xprint-jsonV1"][..], None),
                ] {
                    let want = iga(extra);
                    let mut args = vec![
                        "iga",
                        "convert",
                        "k.txt",
                        "--platform",
                        platform,
                        "--to",
                        version,
                    ];
                    if let Some(first) = ids {
                        args.extend(["--block-ids-from", first]);
                    }
                    let got = gpukit(&args, &tmp);
                    if got.status.success() && got.stdout == want {
                        if version == "2" {
                            v2_exact += 1;
                        } else {
                            v1_exact += 1;
                        }
                    } else {
                        failures.push(format!(
                            "{} {kernel} ({device}) JSON {version}: {}",
                            cl.display(),
                            String::from_utf8_lossy(&got.stderr).trim()
                        ));
                    }
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!(
        "IGC 2.x iga64 text -> JSON: {kernels_seen} kernels; 2.0 byte-exact {v2_exact}, 1.0 byte-exact {v1_exact}"
    );
    assert!(kernels_seen > 0, "no kernel compiled");
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
