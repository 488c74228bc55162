//! The real-world corpus: OpenCL kernels from Debian source packages compiled by three
//! IGC releases (`tests/realworld/regen.sh`), laid out as
//! `<release>/<package>/<device>/<file>__<kernel>.{isa,visaasm}`. Every gpukit direction
//! runs over every file:
//!
//! - `read`: bullseye's 3.6 `.isa` reads and writes back byte for byte; bookworm's
//!   defective 4.1 `.isa` reads leniently (header and tables intact, the instruction
//!   stream diagnosed as the writer truncation) and writes back byte for byte;
//! - `dis`: the 3.6 `.isa` prints exactly as IGC dumped it; a 4.1 `.isa`'s defect model
//!   recovers the dump's instruction count;
//! - `fmt`: every dump parses and prints back byte for byte (3.6, 4.1, 4.2);
//! - `asm`: for versions with a binary form, `dis(asm(text)) == text`, and for 3.6
//!   `asm(dis(isa))` decodes to the object IGC wrote;
//! - `verify`: non-strict verification for the device's platform is clean (text and
//!   3.6 binary; a 4.1 binary reports only its undecodable stream);
//! - and nothing panics.
//!
//! The checked-in sample (`tests/data/realworld`) is always checked. The full set is
//! checked when it exists (`$GPUKIT_REALWORLD`, default `target/realworld`); with
//! `GPUKIT_REALWORLD` set under `REQUIRE_PEERS=1` a missing set fails. Failures of
//! classes already routed for a fix are listed in `tests/data/realworld/known_failures.txt`
//! (`<file> <check> <class>`); the test fails on an unlisted failure and on a listed one
//! that now passes.

mod common;

use common::{canonical, first_difference};
use gpukit_visa::text::{parse_text_with, print_text, ParseOptions};
use gpukit_visa::verify::{self, Options, Platform};
use gpukit_visa::*;
use std::collections::{BTreeMap, BTreeSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

const CHECKS: [&str; 5] = ["read", "dis", "fmt", "asm", "verify"];
/// Informational: whether a 4.1 defect model recovers exactly the dump's instruction
/// count (it may run on into the uninitialised tail); counted, never a failure.
const EXACT_COUNT: &str = "exact-count";

fn platform_of(device: &str) -> Option<Platform> {
    Some(match device {
        "skl" | "kbl" => Platform::Skl,
        "icllp" => Platform::Icllp,
        "tgllp" => Platform::Tgllp,
        "acm-g10" => Platform::Dg2,
        "pvc" => Platform::Pvc,
        _ => return None,
    })
}

/// `(file, check) -> class` from `known_failures.txt`.
fn known_failures() -> BTreeMap<(String, String), String> {
    let path = common::workspace_root().join("tests/data/realworld/known_failures.txt");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut w = l.split_whitespace();
            let file = w.next().unwrap_or_default().to_string();
            let check = w.next().unwrap_or_default().to_string();
            ((file, check), w.collect::<Vec<_>>().join(" "))
        })
        .collect()
}

fn first_line_difference(got: &str, want: &str) -> String {
    let line = got
        .lines()
        .zip(want.lines())
        .position(|(a, b)| a != b)
        .map_or_else(|| got.lines().count().min(want.lines().count()), |i| i + 1);
    fn show(s: &str, line: usize) -> &str {
        s.lines().nth(line.saturating_sub(1)).unwrap_or("").trim()
    }
    format!(
        "line {line}: got `{}`, want `{}`",
        show(got, line),
        show(want, line)
    )
}

fn render(findings: &[verify::Finding]) -> String {
    findings
        .iter()
        .map(|f| format!("{} {}", f.rule, f.message))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The outcome of each check on one kernel; `None` = not applicable.
type Outcome = BTreeMap<&'static str, Result<(), String>>;

fn check_kernel(visaasm: &Path, platform: Platform) -> Outcome {
    let mut out = Outcome::new();
    let text = std::fs::read_to_string(visaasm).unwrap();
    let isa = visaasm.with_extension("isa");
    let options = Options {
        platform: Some(platform),
        strict: false,
    };
    let parse_options = ParseOptions {
        grf_bytes: platform.grf_size(),
    };

    // The text: fmt, asm -> dis, verify.
    let parsed = parse_text_with(&text, &parse_options);
    let object = match parsed {
        Ok(o) => o,
        Err(d) => {
            let e = format!(
                "parse: {}",
                d.0.first()
                    .map(|d| format!("{}:{}: {}", d.line, d.col, d.message))
                    .unwrap_or_default()
            );
            out.insert("fmt", Err(e.clone()));
            out.insert("verify", Err(e));
            return with_binary(out, &isa, &text, &options);
        }
    };
    let printed = print_text(&object);
    out.insert(
        "fmt",
        if printed == text {
            Ok(())
        } else {
            Err(format!(
                "print(parse(text)) differs at {}",
                first_line_difference(&printed, &text)
            ))
        },
    );
    if object.version.has_binary_form() {
        let r = write(&object)
            .map_err(|e| format!("asm: {e}"))
            .and_then(|bytes| read(&bytes).map_err(|e| format!("asm output does not read: {e}")))
            .and_then(|back| {
                let again = print_text(&back);
                if again == text {
                    Ok(())
                } else {
                    Err(format!(
                        "dis(asm(text)) differs at {}",
                        first_line_difference(&again, &text)
                    ))
                }
            });
        out.insert("asm", r);
    }
    let findings = verify::verify(&object, &options);
    out.insert(
        "verify",
        if findings.is_empty() {
            Ok(())
        } else {
            Err(format!("text: {}", render(&findings)))
        },
    );
    with_binary(out, &isa, &text, &options)
}

/// The checks of IGC's `.isa`, where the release wrote one.
fn with_binary(mut out: Outcome, isa: &Path, text: &str, options: &Options) -> Outcome {
    let Ok(bytes) = std::fs::read(isa) else {
        return out;
    };
    let merge = |out: &mut Outcome, check: &'static str, r: Result<(), String>| {
        let slot = out.entry(check).or_insert(Ok(()));
        if let (Ok(()), Err(e)) = (&slot, r) {
            *slot = Err(e);
        }
    };
    match read(&bytes) {
        // An intact binary (IGC 1.0.5353, vISA 3.6).
        Ok(obj) => {
            merge(
                &mut out,
                "read",
                match write(&obj) {
                    Ok(b) if b == bytes => Ok(()),
                    Ok(b) => Err(format!(
                        "write(read(isa)) differs at byte {:#x}",
                        b.iter()
                            .zip(&bytes)
                            .position(|(x, y)| x != y)
                            .unwrap_or(b.len().min(bytes.len()))
                    )),
                    Err(e) => Err(format!("write: {e}")),
                },
            );
            let dis = print_text(&obj);
            merge(
                &mut out,
                "dis",
                if dis == text {
                    Ok(())
                } else {
                    Err(format!(
                        "dis(isa) differs from IGC's dump at {}",
                        first_line_difference(&dis, text)
                    ))
                },
            );
            // asm(dis(isa)) means the object IGC wrote (string-pool order aside).
            let r = gpukit_visa::text::parse_text(&dis)
                .map_err(|d| format!("dis(isa) does not parse: {d}"))
                .and_then(|back| write(&back).map_err(|e| format!("asm(dis(isa)): {e}")))
                .and_then(|b| read(&b).map_err(|e| format!("asm(dis(isa)) does not read: {e}")))
                .and_then(|re| {
                    let (a, b) = (canonical(&re), canonical(&obj));
                    if a == b {
                        Ok(())
                    } else {
                        Err(format!(
                            "asm(dis(isa)) decodes to a different object: {}",
                            first_difference(&a, &b)
                        ))
                    }
                });
            merge(&mut out, "asm", r);
            let findings = verify::verify(&obj, options);
            merge(
                &mut out,
                "verify",
                if findings.is_empty() {
                    Ok(())
                } else {
                    Err(format!("isa: {}", render(&findings)))
                },
            );
        }
        // A defective binary (IGC 1.0.12504, vISA 4.1): header and tables read, the
        // stream is diagnosed, and the model recovers the dump's instruction count.
        Err(strict_error) => match read_lenient(&bytes) {
            Err(e) => merge(
                &mut out,
                "read",
                Err(format!("read: {strict_error}; lenient: {e}")),
            ),
            Ok(obj) => {
                let mut read_ok = match write(&obj) {
                    Ok(b) if b == bytes => Ok(()),
                    _ => Err("write(read_lenient(isa)) is not the file".to_string()),
                };
                let want = common::visaasm_instruction_count(text);
                let mut dis_ok = Ok(());
                for k in &obj.kernels {
                    match &k.body.code {
                        Code::Undecoded { error, .. } => match &error.defect {
                            // Recovering more than the dump shows is the model running on
                            // into the uninitialised tail, whose bytes may decode (as in
                            // corpus.rs, which requires exactness for 90% of the files).
                            Some(d) => {
                                let n = d.instructions_recovered;
                                if n < want {
                                    dis_ok = Err(format!(
                                        "defect model recovers {n} instructions, the dump has {want}"
                                    ));
                                }
                                out.insert(
                                    EXACT_COUNT,
                                    if n == want {
                                        Ok(())
                                    } else {
                                        Err(format!("recovers {n}, the dump has {want}"))
                                    },
                                );
                            }
                            None => read_ok = Err(format!("undiagnosed: {error}")),
                        },
                        Code::Instructions(_) => {
                            read_ok = Err(format!(
                                "strict read failed ({strict_error}) but the stream decoded"
                            ))
                        }
                    }
                }
                merge(&mut out, "read", read_ok);
                merge(&mut out, "dis", dis_ok);
                let findings = verify::verify(&obj, &Options::default());
                let stray: Vec<_> = findings
                    .into_iter()
                    .filter(|f| f.rule != "VISA-HDR-008")
                    .collect();
                merge(
                    &mut out,
                    "verify",
                    if stray.is_empty() {
                        Ok(())
                    } else {
                        Err(format!("defective isa: {}", render(&stray)))
                    },
                );
            }
        },
    }
    out
}

#[derive(Default)]
struct Report {
    /// `(release, package, device) -> kernels`, and per check `(pass, total)`.
    kernels: BTreeMap<(String, String, String), usize>,
    counts: BTreeMap<(String, String, String, &'static str), (usize, usize)>,
    /// `(file, check) -> message` of every failure.
    failures: BTreeMap<(String, String), String>,
}

fn check_set(root: &Path) -> Report {
    let mut report = Report::default();
    for path in common::files(root, ".visaasm") {
        let rel = path.strip_prefix(root).unwrap();
        let parts: Vec<String> = rel
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        let [release, package, device, _file] = &parts[..] else {
            continue;
        };
        let Some(platform) = platform_of(device) else {
            panic!("{}: unknown device {device}", rel.display());
        };
        let key = rel.with_extension("").display().to_string();
        let group = (release.clone(), package.clone(), device.clone());
        *report.kernels.entry(group.clone()).or_default() += 1;
        let outcome = catch_unwind(AssertUnwindSafe(|| check_kernel(&path, platform)))
            .unwrap_or_else(|_| {
                CHECKS
                    .iter()
                    .map(|c| (*c, Err("panicked".to_string())))
                    .collect()
            });
        for (check, result) in outcome {
            let c = report
                .counts
                .entry((group.0.clone(), group.1.clone(), group.2.clone(), check))
                .or_default();
            c.1 += 1;
            match result {
                Ok(()) => c.0 += 1,
                Err(_) if check == EXACT_COUNT => {}
                Err(e) => {
                    report.failures.insert((key.clone(), check.to_string()), e);
                }
            }
        }
    }
    report
}

/// Prints the per-release, package and device table and fails on unlisted failures and
/// on listed ones that pass now.
fn judge(name: &str, root: &Path, report: &Report) {
    let known = known_failures();
    eprintln!("{name} ({}):", root.display());
    eprintln!(
        "  release  package  device   kernels  read  dis  fmt  asm  verify  (4.1 exact-count)"
    );
    for ((release, package, device), n) in &report.kernels {
        let cell = |c: &'static str| {
            report
                .counts
                .get(&(release.clone(), package.clone(), device.clone(), c))
                .map_or("-".to_string(), |(p, t)| format!("{p}/{t}"))
        };
        eprintln!(
            "  {release:8} {package:8} {device:8} {n:7}  {}  {}  {}  {}  {}  ({})",
            cell("read"),
            cell("dis"),
            cell("fmt"),
            cell("asm"),
            cell("verify"),
            cell(EXACT_COUNT)
        );
    }
    let mut new = Vec::new();
    let mut by_class: BTreeMap<&str, usize> = BTreeMap::new();
    for ((file, check), message) in &report.failures {
        match known.get(&(file.clone(), check.clone())) {
            Some(class) => *by_class.entry(class).or_default() += 1,
            None => new.push(format!("{file} {check}: {message}")),
        }
    }
    eprintln!("  known failures by class: {by_class:?}");
    // A listed failure of a file in this set that passes now.
    let files: BTreeSet<String> = common::files(root, ".visaasm")
        .iter()
        .map(|p| {
            p.strip_prefix(root)
                .unwrap()
                .with_extension("")
                .display()
                .to_string()
        })
        .collect();
    let fixed: Vec<String> = known
        .keys()
        .filter(|(f, c)| {
            files.contains(f) && !report.failures.contains_key(&(f.clone(), c.clone()))
        })
        .map(|(f, c)| format!("{f} {c}"))
        .collect();
    assert!(
        new.is_empty(),
        "{name}: {} failures not in known_failures.txt:\n{}",
        new.len(),
        new.join("\n")
    );
    assert!(
        fixed.is_empty(),
        "{name}: now passing, remove from known_failures.txt:\n{}",
        fixed.join("\n")
    );
}

#[test]
fn checked_in_sample_passes_every_direction() {
    let root = common::workspace_root().join("tests/data/realworld");
    let report = check_set(&root);
    assert!(
        report.kernels.len() >= 10,
        "the sample has only {} release/package/device groups",
        report.kernels.len()
    );
    judge("sample", &root, &report);
}

fn full_set() -> Option<PathBuf> {
    let from_env = std::env::var_os("GPUKIT_REALWORLD").map(PathBuf::from);
    let dir = from_env
        .clone()
        .unwrap_or_else(|| common::workspace_root().join("target/realworld"));
    let has_output = ["bookworm", "bullseye", "sid"]
        .iter()
        .any(|r| dir.join(r).is_dir());
    if has_output {
        return Some(dir);
    }
    let required = std::env::var("REQUIRE_PEERS").is_ok_and(|v| v == "1");
    assert!(
        !(required && from_env.is_some()),
        "GPUKIT_REALWORLD={} has no generated corpus (required under REQUIRE_PEERS=1; \
         build it with tests/realworld/regen.sh)",
        dir.display()
    );
    eprintln!(
        "skipping: no real-world corpus at {} (tests/realworld/regen.sh builds it)",
        dir.display()
    );
    None
}

#[test]
fn full_set_passes_every_direction() {
    let Some(root) = full_set() else {
        return;
    };
    let report = check_set(&root);
    assert!(
        !report.kernels.is_empty(),
        "no kernels under {}",
        root.display()
    );
    judge("full set", &root, &report);
}
