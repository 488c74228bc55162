//! Fixture-directory tests: each input sits beside its expected output.
//! `BLESS=1` rewrites the expected files from the current results.
//!
//! * `fixtures/metadata/ok/*.txt` — parse, then emit must give the same bytes;
//!   `*.json` beside it is the typed model (arguments, memory totals).
//! * `fixtures/metadata/bad/*.txt` — `*.err` holds the diagnostic.
//! * `fixtures/metadata/inconsistent/*.txt` — parse fine; `*.findings` holds
//!   what `Metadata::check` reports.
//! * `fixtures/datasegment/*.{spec,hex}.txt` — the radix is in the name;
//!   `*.out` holds the materialised bytes (hex) or the error.
//! * `fixtures/cb0/*.json` — a `Cb0Request`; `*.out` holds the reserved
//!   area, one line per 16-byte vector with the field names, or the error.
//! * `fixtures/link/<program>/program.il` (+ `library.il`) — `<kernel>.out`
//!   holds the linked IL for that kernel, or the error.

use gpukit_amd::datasegment::{parse_data_segment, Radix};
use gpukit_amd::link::IlProgram;
use gpukit_amd::metadata::parse_metadata;
mod common;

use common::{check, dir, listing};
use std::path::{Path, PathBuf};

fn with_ext(p: &Path, strip: &str, ext: &str) -> PathBuf {
    let s = p.to_string_lossy();
    PathBuf::from(format!("{}{ext}", s.strip_suffix(strip).unwrap()))
}

#[test]
fn metadata_ok_round_trips() {
    let mut failures = Vec::new();
    let files = listing(&dir("metadata/ok"), ".txt");
    assert!(!files.is_empty());
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        match parse_metadata(&bytes) {
            Ok(m) => {
                if m.emit() != bytes || m.emit_from_entries() != bytes {
                    failures.push(format!("{}: emit differs from input", f.display()));
                }
                let report = serde_json::json!({
                    "name": m.name,
                    "kernel": m.kernel_name(),
                    "version": m.version(),
                    "device": m.device(),
                    "unique_id": m.unique_id(),
                    "memory": m.memory_totals(),
                    "arguments": m.arguments(),
                    "calls": m.called_functions(),
                    "intrinsics": m.intrinsics(),
                    "lines": m.lines(),
                });
                let mut s = serde_json::to_string_pretty(&report).unwrap();
                s.push('\n');
                check(&with_ext(&f, ".txt", ".json"), &s, &mut failures);
            }
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn metadata_bad_gives_diagnostics() {
    let mut failures = Vec::new();
    let files = listing(&dir("metadata/bad"), ".txt");
    assert!(!files.is_empty());
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        match parse_metadata(&bytes) {
            Ok(_) => failures.push(format!("{}: parsed, expected an error", f.display())),
            Err(e) => check(
                &with_ext(&f, ".txt", ".err"),
                &format!("{e}\n"),
                &mut failures,
            ),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn metadata_inconsistent_gives_findings() {
    let mut failures = Vec::new();
    let files = listing(&dir("metadata/inconsistent"), ".txt");
    assert!(!files.is_empty());
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        match parse_metadata(&bytes) {
            Err(e) => failures.push(format!("{}: {e}", f.display())),
            Ok(m) => {
                let got: String = m.check().iter().map(|x| format!("{x}\n")).collect();
                if got.is_empty() {
                    failures.push(format!("{}: no findings", f.display()));
                }
                check(&with_ext(&f, ".txt", ".findings"), &got, &mut failures);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn hex_dump(bytes: &[u8]) -> String {
    let mut s = String::new();
    for (i, chunk) in bytes.chunks(16).enumerate() {
        s.push_str(&format!("{:04x}:", i * 16));
        for b in chunk {
            s.push_str(&format!(" {b:02x}"));
        }
        s.push('\n');
    }
    s
}

#[test]
fn data_segments() {
    let mut failures = Vec::new();
    let files = listing(&dir("datasegment"), ".txt");
    assert!(!files.is_empty());
    for f in files {
        let name = f.to_string_lossy().into_owned();
        let (radix, stem) = if name.ends_with(".spec.txt") {
            (Radix::Spec, ".spec.txt")
        } else {
            (Radix::Hex, ".hex.txt")
        };
        let bytes = std::fs::read(&f).unwrap();
        let got = match parse_data_segment(&bytes, radix) {
            Err(e) => format!("parse error: {e}\n"),
            Ok(seg) => {
                if seg.emit() != bytes {
                    failures.push(format!("{name}: emit differs from input"));
                }
                match seg.materialize() {
                    Ok(b) => hex_dump(&b),
                    Err(e) => format!("materialize error: {e}\n"),
                }
            }
        };
        check(&with_ext(&f, stem, ".out"), &got, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn cb0_reserved_area() {
    use gpukit_amd::abi::cb0::Cb0Request;
    let mut failures = Vec::new();
    let files = listing(&dir("cb0"), ".json");
    assert!(!files.is_empty());
    for f in files {
        let req: Cb0Request = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
        let got = match req.build() {
            Err(e) => format!("error: {e}\n"),
            Ok(cb0) => {
                let mut s = String::new();
                for (v, chunk) in cb0.dwords.chunks(4).enumerate() {
                    s.push_str(&format!("cb0[{v}]"));
                    for d in chunk {
                        s.push_str(&format!(" {d:08x}"));
                    }
                    let names: Vec<&str> = cb0
                        .fields
                        .iter()
                        .filter(|x| x.dword / 4 == v)
                        .map(|x| x.name)
                        .collect();
                    s.push_str(&format!("  ; {}\n", names.join(" ")));
                }
                s
            }
        };
        check(&with_ext(&f, ".json", ".out"), &got, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn link_step() {
    let mut failures = Vec::new();
    let mut programs: Vec<PathBuf> = std::fs::read_dir(dir("link"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    programs.sort();
    assert!(!programs.is_empty());
    for p in programs {
        let program = std::fs::read_to_string(p.join("program.il")).unwrap();
        let library = std::fs::read_to_string(p.join("library.il")).ok();
        for out in listing(&p, ".out") {
            let kernel = out.file_stem().unwrap().to_string_lossy().into_owned();
            let got = match IlProgram::parse(&program)
                .and_then(|prog| prog.link(&kernel, library.as_deref()))
            {
                Ok(il) => il,
                Err(e) => format!("error: {e}\n"),
            };
            check(&out, &got, &mut failures);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
