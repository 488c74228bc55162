//! Interop with the vendor's own assembler, Debian 12's `GenX_IR` (IGC 1.0.12504,
//! package `libigc-tools`). Runs when the tool is installed; under `REQUIRE_PEERS=1`
//! (set by `.ci/run`, which installs it) a missing tool is a failure, not a skip.
//!
//! - text: GenX_IR compiles gpukit's printed text of every IGC-printed `.visaasm` in
//!   `corpus/intel/<device>/` to the same Gen code as it compiled from IGC's own text
//!   (the `.dat` beside it);
//! - binary: GenX_IR reads every 4.1 `.isa` that `gpukit visa asm` writes from that
//!   text, and its `-dumpcommonisa` text equals the input, apart from the `_<n>` that
//!   its reader inserts into subroutine label names (`_main_0` -> `_main_58_0`).

mod common;

use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn genx_ir() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("GenX_IR"))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        let required = std::env::var("REQUIRE_PEERS").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "GenX_IR not found on PATH but REQUIRE_PEERS=1 (install libigc-tools)"
        );
        common::skipped(format_args!(
            "GenX_IR not installed (apt-get install libigc-tools)"
        ));
    }
    found
}

fn platform(device: &str) -> Option<&'static str> {
    Some(match device {
        "skl" => "SKL",
        "icllp" => "ICLLP",
        "tgllp" => "TGLLP",
        "acm-g10" => "DG2",
        "pvc" => "PVCXT",
        _ => return None,
    })
}

/// Texts IGC printed, with the GenX_IR platform of their folder.
fn igc_texts() -> Vec<(PathBuf, &'static str)> {
    let Some(dir) = common::corpus("intel") else {
        return Vec::new();
    };
    common::files(&dir, ".visaasm")
        .into_iter()
        .filter_map(|p| {
            let device = p.parent()?.file_name()?.to_str()?.to_string();
            Some((p.clone(), platform(&device)?))
        })
        .collect()
}

fn scratch(tag: &str, path: &Path) -> PathBuf {
    // Files of one stem sit in several corpus folders and run in parallel: a
    // counter keeps their folders apart.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let stem = path.file_stem().unwrap().to_string_lossy();
    let dir = std::env::temp_dir().join(format!(
        "gpukit-genxir-{}-{n}-{tag}-{stem}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Compiles `text` (named like `source`) with GenX_IR for `plat` in a scratch folder and
/// returns the Gen code it wrote, if any.
fn compile_to_dat(
    tool: &Path,
    source: &Path,
    tag: &str,
    plat: &str,
    text: &str,
) -> Option<Vec<u8>> {
    let dir = scratch(tag, source);
    let input = dir.join(source.file_name()?);
    std::fs::write(&input, text).ok()?;
    Command::new(tool)
        .arg(&input)
        .args(["-platform", plat, "-binary", "-outputCisaBinaryName"])
        .arg(dir.join("out.isa"))
        .current_dir(&dir)
        .output()
        .ok()?;
    let got = std::fs::read(dir.join(source.with_extension("dat").file_name()?)).ok();
    let _ = std::fs::remove_dir_all(&dir);
    got
}

/// Prints the tally and fails with every failure listed.
fn report(before: &str, after: &str, results: &[(String, Result<(), String>)]) {
    let failed: Vec<_> = results
        .iter()
        .filter_map(|(p, v)| v.as_ref().err().map(|e| format!("{p}: {e}")))
        .collect();
    eprintln!(
        "{before}{} of {}{after}",
        results.len() - failed.len(),
        results.len()
    );
    assert!(
        failed.is_empty(),
        "{} failures:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// The object without label names: GenX_IR's binary reader renames every label
/// (`_main_0` -> `_main_58_0`, `_0_007` -> `_0_007_194`); ids and kinds stay.
fn without_label_names(o: &gpukit_visa::Object) -> gpukit_visa::Object {
    let mut o = common::canonical(o);
    for r in o
        .kernels
        .iter_mut()
        .map(|k| &mut k.body)
        .chain(o.functions.iter_mut().map(|f| &mut f.body))
    {
        for l in &mut r.labels {
            l.name_index = u32::MAX;
        }
    }
    common::canonical(&o)
}

#[test]
fn genx_ir_compiles_printed_text_to_the_same_gen_code() {
    let Some(tool) = genx_ir() else { return };
    let texts = igc_texts();
    let results: Vec<_> = texts
        .par_iter()
        .filter_map(|(path, plat)| {
            let want = std::fs::read(path.with_extension("dat")).ok()?; // GenX_IR failed on some; no .dat
            let text = std::fs::read_to_string(path).unwrap();
            let grf_bytes = if plat.starts_with("PVC") { 64 } else { 32 };
            let obj = gpukit_visa::text::parse_text_with(
                &text,
                &gpukit_visa::text::ParseOptions { grf_bytes },
            )
            .ok()?;
            let print = gpukit_visa::text::PrintOptions {
                grf_bytes: Some(grf_bytes),
            };
            let got = compile_to_dat(
                &tool,
                path,
                "text",
                plat,
                &gpukit_visa::text::print_text_with(&obj, &print),
            );
            // GenX_IR exits 1 after a complete build that spilled (logs: "ok-spill"); the code decides.
            let verdict = if got.as_deref() == Some(&want[..]) {
                Ok(())
            } else {
                Err("different Gen code".to_string())
            };
            Some((path.display().to_string(), verdict))
        })
        .collect();
    assert!(!results.is_empty() || texts.is_empty());
    report(
        "GenX_IR text interop: ",
        " produce IGC's Gen code",
        &results,
    );
}

#[test]
fn genx_ir_reads_the_binaries_gpukit_writes() {
    let Some(tool) = genx_ir() else { return };
    let texts = igc_texts();
    let results: Vec<_> = texts
        .par_iter()
        .map(|(path, plat)| {
            let text = std::fs::read_to_string(path).unwrap();
            let options = gpukit_visa::text::ParseOptions {
                grf_bytes: if plat.starts_with("PVC") { 64 } else { 32 },
            };
            let obj = gpukit_visa::text::parse_text_with(&text, &options).unwrap();
            let dir = scratch("isa", path);
            std::fs::write(dir.join("in.isa"), gpukit_visa::write(&obj).unwrap()).unwrap();
            let out = Command::new(&tool)
                .args(["in.isa", "-platform", plat, "-dumpcommonisa"])
                .current_dir(&dir)
                .output()
                .unwrap();
            // GenX_IR names its dump after the kernel's OutputAsmPath attribute, which
            // gpukit leaves out of text for this release: the file is `.visaasm`.
            let dumped = std::fs::read_dir(&dir)
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .find(|p| p.to_string_lossy().ends_with(".visaasm"))
                .and_then(|p| std::fs::read_to_string(p).ok());
            let _ = std::fs::remove_dir_all(&dir);
            // GenX_IR dumps the text it read before compiling; the compile may then
            // exit non-zero (spills) or crash (it does so on IGC's own text of
            // noinline_helpers/lighting for DG2 too: logs/genxir-visaasm.tsv). The dump decides.
            let verdict = match dumped {
                None => Err(format!(
                    "GenX_IR exit {:?} without dumping text",
                    out.status.code()
                )),
                Some(d) => match gpukit_visa::text::parse_text_with(&d, &options) {
                    Err(e) => Err(format!("its text does not parse: {e}")),
                    Ok(back) if without_label_names(&back) == without_label_names(&obj) => Ok(()),
                    Ok(_) => Err("its text means a different object".into()),
                },
            };
            (path.display().to_string(), verdict)
        })
        .collect();
    report(
        "GenX_IR binary interop: ",
        " read back to the same text",
        &results,
    );
}

/// IGC 1.0.5353's `GenX_IR` (unpacked by `shared/peers/bullseye-igc.sh`; `.ci/run` sets
/// `BULLSEYE_GENX_IR`), the reader of vISA 3.6: it reads every 3.6 binary gpukit writes
/// from IGC's text and prints the same text as for IGC's own binary. Its reader appends
/// each label's string-pool index to the label name, and the pools differ in order (see
/// the notes on string pools), so label names are compared by position, not spelling.
#[test]
fn bullseye_genx_ir_reads_the_3_6_binaries_gpukit_writes() {
    let tool = match std::env::var_os("BULLSEYE_GENX_IR")
        .map(PathBuf::from)
        .filter(|p| p.is_file())
    {
        Some(t) => t,
        None => {
            let required = std::env::var("REQUIRE_PEERS").is_ok_and(|v| v == "1");
            assert!(
                !required,
                "BULLSEYE_GENX_IR not set but REQUIRE_PEERS=1 (run shared/peers/bullseye-igc.sh)"
            );
            common::skipped(format_args!(
                "BULLSEYE_GENX_IR not set (bash ../shared/peers/bullseye-igc.sh DIR)"
            ));
            return;
        }
    };
    let Some(dir) = common::corpus("intel-legacy") else {
        return;
    };
    let files = common::files(&dir, ".isa");
    // `key` names the scratch folder: the corpus file it is for, so parallel runs never share one.
    let dump = |isa: &Path, plat: &str, key: &Path| -> Result<String, String> {
        let d = scratch(
            &format!("dump-{}", isa.file_stem().unwrap().to_string_lossy()),
            key,
        );
        let out = Command::new(&tool)
            .arg(isa)
            .args(["-platform", plat, "-dumpcommonisa", "-asmNameUser"])
            .arg(d.join("out"))
            .current_dir(&d)
            .output()
            .map_err(|e| e.to_string())?;
        let text = std::fs::read_to_string(d.join("out.visaasm"));
        let _ = std::fs::remove_dir_all(&d);
        text.map_err(|_| format!("exit {:?}, no text", out.status.code()))
    };
    let results: Vec<_> = files
        .par_iter()
        .map(|isa| {
            let device = isa
                .parent()
                .unwrap()
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let plat = match device.as_str() {
                "skl" | "kbl" => "SKL",
                "icllp" => "ICLLP",
                _ => "TGLLP",
            };
            let verdict = (|| -> Result<(), String> {
                let text = std::fs::read_to_string(isa.with_extension("visaasm"))
                    .map_err(|e| e.to_string())?;
                let ours = gpukit_visa::write(
                    &gpukit_visa::text::parse_text(&text).map_err(|e| e.to_string())?,
                )
                .map_err(|e| e.to_string())?;
                let device_key = PathBuf::from(format!(
                    "{device}-{}",
                    isa.file_name().unwrap().to_string_lossy()
                ));
                let d = scratch("ours", &device_key);
                let ours_path = d.join("ours.isa");
                std::fs::write(&ours_path, ours).unwrap();
                let from_ours = dump(&ours_path, plat, &device_key);
                let _ = std::fs::remove_dir_all(&d);
                let from_igc = dump(isa, plat, &device_key)?;
                let from_ours = from_ours?;
                let a = gpukit_visa::text::parse_text(&from_ours)
                    .map_err(|e| format!("its text of ours: {e}"))?;
                let b = gpukit_visa::text::parse_text(&from_igc)
                    .map_err(|e| format!("its text of IGC's: {e}"))?;
                if without_label_names(&a) == without_label_names(&b) {
                    Ok(())
                } else {
                    Err("prints a different kernel for gpukit's binary".into())
                }
            })();
            (isa.display().to_string(), verdict)
        })
        .collect();
    report(
        "IGC 1.0.5353 GenX_IR: ",
        " gpukit 3.6 binaries print as IGC's own",
        &results,
    );
}

/// Hand-written sources: GenX_IR compiles gpukit's `fmt` output of each to the same Gen
/// code as it compiled from the source itself (`visaasm/<platform>/<name>.dat`; sources
/// it crashed on have no `.dat` and are left out, as the corpus logs record).
#[test]
fn genx_ir_compiles_formatted_hand_written_sources_to_the_same_code() {
    let Some(tool) = genx_ir() else { return };
    let Some(src_dir) = common::corpus("intel/visaasm-src") else {
        return;
    };
    let out_dir = src_dir.parent().unwrap().join("visaasm");
    let mut jobs = Vec::new();
    // `mov A0(0)<1> &Table` takes a variable's address, an operand class (4) that the
    // binary format and so gpukit's model cannot hold: fmt prints the plain element.
    let no_binary_form = ["indirect_addressing.visaasm"];
    for src in common::files(&src_dir, ".visaasm") {
        if no_binary_form.iter().any(|n| src.ends_with(n)) {
            continue;
        }
        let text = std::fs::read_to_string(&src).unwrap();
        let platforms = text
            .lines()
            .find_map(|l| l.strip_prefix("// PLATFORMS:"))
            .map(|p| p.split_whitespace().map(str::to_string).collect::<Vec<_>>())
            .unwrap_or_default();
        for p in platforms {
            let dat = out_dir
                .join(p.to_lowercase())
                .join(src.with_extension("dat").file_name().unwrap());
            if dat.is_file() {
                jobs.push((src.clone(), p, dat));
            }
        }
    }
    let results: Vec<_> = jobs
        .par_iter()
        .map(|(src, plat, dat)| {
            let text = std::fs::read_to_string(src).unwrap();
            let grf_bytes = if plat.starts_with("PVC") { 64 } else { 32 };
            let obj = gpukit_visa::text::parse_text_with(
                &text,
                &gpukit_visa::text::ParseOptions { grf_bytes },
            )
            .unwrap();
            let print = gpukit_visa::text::PrintOptions {
                grf_bytes: Some(grf_bytes),
            };
            let got = compile_to_dat(
                &tool,
                src,
                &format!("src-{plat}"),
                plat,
                &gpukit_visa::text::print_text_with(&obj, &print),
            );
            let verdict = if got == std::fs::read(dat).ok() {
                Ok(())
            } else {
                Err("different Gen code".to_string())
            };
            (format!("{} ({plat})", src.display()), verdict)
        })
        .collect();
    assert!(!results.is_empty());
    report(
        "GenX_IR on formatted hand-written sources: ",
        " give the source's Gen code",
        &results,
    );
}
