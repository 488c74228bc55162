//! Data-driven CLI tests. Each case is `tests/cli/<area>/<name>.args` (one argument
//! per line, paths relative to the workspace root) with the expected results beside it:
//! `<name>.stdout`, optionally `<name>.stderr` (substring match, since messages carry
//! paths) and `<name>.code` (exit code; 0 when absent). Set `BLESS=1` to rewrite the
//! `.stdout` files from the current output.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn cases(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            cases(&p, out);
        } else if p.extension().is_some_and(|e| e == "args") {
            out.push(p);
        }
    }
}

#[test]
fn cli_cases() {
    let root = workspace_root();
    let mut all = Vec::new();
    cases(&root.join("tests/cli"), &mut all);
    assert!(!all.is_empty(), "no CLI cases found under tests/cli");
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    for case in &all {
        let args: Vec<String> = std::fs::read_to_string(case)
            .unwrap()
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect();
        let out = Command::new(env!("CARGO_BIN_EXE_gpukit"))
            .args(&args)
            .current_dir(&root)
            .output()
            .unwrap();
        let code = out.status.code().unwrap_or(-1);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let expect_code: i32 = std::fs::read_to_string(case.with_extension("code"))
            .map(|s| s.trim().parse().unwrap())
            .unwrap_or(0);
        let stdout_path = case.with_extension("stdout");
        if bless {
            std::fs::write(&stdout_path, stdout.as_bytes()).unwrap();
        }
        let expect_stdout = std::fs::read_to_string(&stdout_path).unwrap_or_default();
        let name = case.strip_prefix(&root).unwrap().display().to_string();
        if code != expect_code {
            failures.push(format!(
                "{name}: exit {code}, expected {expect_code}\nstderr: {stderr}"
            ));
        }
        if stdout != expect_stdout {
            failures.push(format!(
                "{name}: stdout differs\n--- expected\n{expect_stdout}\n--- got\n{stdout}"
            ));
        }
        if let Ok(want) = std::fs::read_to_string(case.with_extension("stderr")) {
            for line in want.lines().filter(|l| !l.is_empty()) {
                if !stderr.contains(line) {
                    failures.push(format!("{name}: stderr lacks {line:?}\n--- got\n{stderr}"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} CLI cases failed:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n\n")
    );
}

/// `visa gen` writes the kernel's Gen code, byte for byte as embedded in the file.
#[test]
fn visa_gen_writes_embedded_code() {
    let root = workspace_root();
    let isa = root.join("tests/data/visa/l02_local_sum__local_sum.isa");
    let out = std::env::temp_dir().join(format!("gpukit-gen-{}.dat", std::process::id()));
    let status = Command::new(env!("CARGO_BIN_EXE_gpukit"))
        .args(["visa", "gen"])
        .arg(&isa)
        .arg("-o")
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let bytes = std::fs::read(&isa).unwrap();
    let gen = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    // gen_binary_info of kernel 0: platform byte, then offset and size (read by hand here,
    // independently of the library).
    let name_len = bytes[8] as usize;
    let at = 9 + name_len + 12 + 4 + 1;
    assert_eq!(bytes[at], 5, "SKL platform byte");
    let off = u32::from_le_bytes(bytes[at + 1..at + 5].try_into().unwrap()) as usize;
    let size = u32::from_le_bytes(bytes[at + 5..at + 9].try_into().unwrap()) as usize;
    assert_eq!(gen, &bytes[off..off + size]);
}
