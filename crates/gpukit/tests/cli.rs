//! Data-driven CLI tests. Each case is `tests/cli/<area>/<name>.args` (one argument
//! per line, paths relative to the workspace root) with the expected results beside it:
//! `<name>.stdout`, optionally `<name>.stderr` (substring match, since messages carry
//! paths) and `<name>.code` (exit code; 0 when absent). Set `BLESS=1` to rewrite the
//! `.stdout` files from the current output.
//!
//! Cases about files (the output contract) run in a fresh temporary directory, named
//! `{tmp}` in `.args`, `.stderr` and `.after`:
//! - `<name>.setup` builds it, one step a line: `copy SRC DST` (SRC from the workspace
//!   root), `write DST TEXT`, `symlink TARGET LINK`, `hardlink SRC DST`, `chmod OCTAL
//!   PATH`, `fifo PATH` (a reader drains it while the command runs);
//! - `<name>.after` checks it afterwards: `same PATH FILE` (equal bytes; FILE from the
//!   root or `{tmp}`), `mode PATH OCTAL`, `symlink PATH`, `regular PATH`, `fifo PATH`,
//!   `fifo-got PATH FILE` (what the reader received), `files NAME...` (exactly these
//!   names: no temporary file left behind).

use std::collections::HashMap;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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

/// A fresh directory for one case, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!(
            "gpukit-cli-{}-{}",
            std::process::id(),
            name.replace('/', "_")
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs the `.setup` steps; returns the FIFO readers, by path.
fn setup(
    root: &Path,
    tmp: &Path,
    steps: &str,
) -> HashMap<String, std::thread::JoinHandle<Vec<u8>>> {
    let mut readers = HashMap::new();
    for line in steps.lines().filter(|l| !l.trim().is_empty()) {
        let w: Vec<&str> = line.splitn(3, ' ').collect();
        let at = |p: &str| tmp.join(p);
        match w.as_slice() {
            ["copy", src, dst] => {
                std::fs::copy(root.join(src), at(dst)).unwrap();
            }
            ["write", dst, text] => std::fs::write(at(dst), unescape(text)).unwrap(),
            ["symlink", target, link] => std::os::unix::fs::symlink(target, at(link)).unwrap(),
            ["hardlink", src, dst] => std::fs::hard_link(at(src), at(dst)).unwrap(),
            ["chmod", mode, path] => std::fs::set_permissions(
                at(path),
                std::fs::Permissions::from_mode(u32::from_str_radix(mode, 8).unwrap()),
            )
            .unwrap(),
            ["fifo", path] => {
                let status = Command::new("mkfifo").arg(at(path)).status().unwrap();
                assert!(status.success(), "mkfifo {path}");
                let p = at(path);
                readers.insert(
                    path.to_string(),
                    std::thread::spawn(move || std::fs::read(p).unwrap_or_default()),
                );
            }
            _ => panic!("bad setup step {line:?}"),
        }
    }
    readers
}

/// `\n` and `\xNN` in a `write` step's text.
fn unescape(text: &str) -> Vec<u8> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match (b[i], b.get(i + 1)) {
            (b'\\', Some(b'n')) => {
                out.push(b'\n');
                i += 2;
            }
            (b'\\', Some(b'x')) => {
                out.push(u8::from_str_radix(&text[i + 2..i + 4], 16).unwrap());
                i += 4;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// Runs the `.after` checks; returns what failed.
fn after(
    root: &Path,
    tmp: &Path,
    checks: &str,
    mut readers: HashMap<String, std::thread::JoinHandle<Vec<u8>>>,
) -> Vec<String> {
    let mut failed = Vec::new();
    let file = |p: &str| {
        if p.starts_with(tmp.to_str().unwrap()) {
            PathBuf::from(p)
        } else {
            root.join(p)
        }
    };
    for line in checks.lines().filter(|l| !l.trim().is_empty()) {
        let w: Vec<&str> = line.split(' ').collect();
        let at = |p: &str| tmp.join(p);
        let meta = |p: &str| std::fs::symlink_metadata(at(p));
        let ok = match w.as_slice() {
            ["same", path, expected] => {
                std::fs::read(at(path)).ok() == std::fs::read(file(expected)).ok()
            }
            ["mode", path, mode] => meta(path).is_ok_and(|m| {
                m.permissions().mode() & 0o7777 == u32::from_str_radix(mode, 8).unwrap()
            }),
            ["symlink", path] => meta(path).is_ok_and(|m| m.file_type().is_symlink()),
            ["regular", path] => meta(path).is_ok_and(|m| m.file_type().is_file()),
            ["fifo", path] => meta(path).is_ok_and(|m| m.file_type().is_fifo()),
            ["fifo-got", path, expected] => {
                let got = readers.remove(*path).map(|h| h.join().unwrap());
                got == std::fs::read(file(expected)).ok()
            }
            ["files", names @ ..] => {
                let mut have: Vec<String> = std::fs::read_dir(tmp)
                    .unwrap()
                    .flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect();
                have.sort();
                let mut want: Vec<String> = names.iter().map(|s| s.to_string()).collect();
                want.sort();
                if have != want {
                    failed.push(format!("files: have {have:?}, want {want:?}"));
                }
                true
            }
            _ => panic!("bad check {line:?}"),
        };
        if !ok {
            failed.push(format!("check failed: {line}"));
        }
    }
    failed
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
        let name = case.strip_prefix(&root).unwrap().display().to_string();
        let read = |ext: &str| std::fs::read_to_string(case.with_extension(ext)).ok();
        let tmp = TempDir::new(&name);
        let tmp_s = tmp.0.to_str().unwrap().to_owned();
        let fill = |s: &str| s.replace("{tmp}", &tmp_s);
        let readers = setup(&root, &tmp.0, &fill(&read("setup").unwrap_or_default()));
        let args: Vec<String> = read("args")
            .unwrap()
            .lines()
            .filter(|l| !l.is_empty())
            .map(fill)
            .collect();
        let out = Command::new(env!("CARGO_BIN_EXE_gpukit"))
            .args(&args)
            .current_dir(&root)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let code = out.status.code().unwrap_or(-1);
        let stdout = measured(&String::from_utf8_lossy(&out.stdout).replace(&tmp_s, "{tmp}"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        let expect_code: i32 = read("code").map_or(0, |s| s.trim().parse().unwrap());
        let stdout_path = case.with_extension("stdout");
        if bless {
            std::fs::write(&stdout_path, stdout.as_bytes()).unwrap();
        }
        let expect_stdout = std::fs::read_to_string(&stdout_path).unwrap_or_default();
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
        if let Some(want) = read("stderr") {
            for line in fill(&want).lines().filter(|l| !l.is_empty()) {
                if !stderr.contains(line) {
                    failures.push(format!("{name}: stderr lacks {line:?}\n--- got\n{stderr}"));
                }
            }
        }
        let checks = fill(&read("after").unwrap_or_default());
        for f in after(&root, &tmp.0, &checks, readers) {
            failures.push(format!("{name}: {f}"));
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
    let tmp = TempDir::new("gen");
    let out = tmp.0.join("gen.dat");
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
    // gen_binary_info of kernel 0: platform byte, then offset and size (read by hand here,
    // independently of the library).
    let name_len = bytes[8] as usize;
    let at = 9 + name_len + 12 + 4 + 1;
    assert_eq!(bytes[at], 5, "SKL platform byte");
    let off = u32::from_le_bytes(bytes[at + 1..at + 5].try_into().unwrap()) as usize;
    let size = u32::from_le_bytes(bytes[at + 5..at + 9].try_into().unwrap()) as usize;
    assert_eq!(gen, &bytes[off..off + size]);
}

/// A vISA text of about `lines` instructions: a real kernel whose body repeats.
fn large_visaasm(lines: usize) -> String {
    let src = std::fs::read_to_string(
        workspace_root().join("tests/data/visa/l02_local_sum__local_sum.visaasm"),
    )
    .unwrap();
    let body = "    mov (M1, 16) V0047(0,0)<1> V0049(0,0)<1;1,0>\n";
    let at = src.find("    mov (M1, 16) V0047").unwrap();
    let mut out = String::with_capacity(src.len() + lines * body.len());
    out.push_str(&src[..at]);
    for _ in 0..lines {
        out.push_str(body);
    }
    out.push_str(&src[at..]);
    out
}

/// SIGTERM while a large output is being written: the run stops, no temporary file is
/// left, and the existing output is unchanged.
#[test]
fn sigterm_mid_write_leaves_nothing() {
    let tmp = TempDir::new("sigterm");
    let input = tmp.0.join("big.visaasm");
    let output = tmp.0.join("out.visaasm");
    let mut lines = 400_000;
    for _attempt in 0..4 {
        std::fs::write(&input, large_visaasm(lines)).unwrap();
        std::fs::write(&output, "previous contents\n").unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_gpukit"))
            .args(["visa", "fmt"])
            .arg(&input)
            .arg("-o")
            .arg(&output)
            .spawn()
            .unwrap();
        // Wait for the temporary file to appear, then stop the run.
        let mut signalled = false;
        while child.try_wait().unwrap().is_none() {
            let temp_exists = std::fs::read_dir(&tmp.0)
                .unwrap()
                .flatten()
                .any(|e| e.file_name().to_string_lossy().ends_with(".tmp"));
            if temp_exists {
                let status = Command::new("kill")
                    .args(["-TERM", &child.id().to_string()])
                    .status()
                    .unwrap();
                assert!(status.success());
                signalled = true;
                break;
            }
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
        let status = child.wait().unwrap();
        if !signalled {
            // The write finished before the poll saw it: try a larger output.
            lines *= 3;
            continue;
        }
        let mut names: Vec<String> = std::fs::read_dir(&tmp.0)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["big.visaasm", "out.visaasm"], "temporary file left");
        let out = std::fs::read_to_string(&output).unwrap();
        // Either the signal came first (output untouched, exit 143) or the rename had
        // already happened (complete new output): never a partial file.
        if status.code() == Some(143) {
            assert_eq!(out, "previous contents\n");
        } else {
            assert!(status.success(), "{status:?}");
            assert!(out.ends_with("ret (M1, 1)\n") || out.contains(".kernel"));
        }
        return;
    }
    panic!("the write never stayed long enough to be interrupted");
}

/// Binary output is refused on a terminal (`script` gives the command one), unless
/// `-o -` asks for it.
#[test]
fn binary_output_refused_on_a_terminal() {
    let root = workspace_root();
    let bin = env!("CARGO_BIN_EXE_gpukit");
    let run = |extra: &str| {
        Command::new("script")
            .args(["-qec"])
            .arg(format!(
                "{bin} visa asm tests/data/visa/l02_local_sum__local_sum.visaasm {extra}"
            ))
            .arg("/dev/null")
            .current_dir(&root)
            .stdin(Stdio::null())
            .output()
            .expect("util-linux `script` runs the command on a terminal")
    };
    let refused = run("");
    let text = String::from_utf8_lossy(&refused.stdout);
    assert_eq!(refused.status.code(), Some(2), "{text}");
    assert!(
        text.contains("refusing to write binary output to a terminal"),
        "{text}"
    );
    let forced = run("-o -");
    assert_eq!(forced.status.code(), Some(0));
    assert!(forced.stdout.windows(4).any(|w| w == b"CISA"));
}

/// Output with measured figures (CPU time, rates) replaced by `{measured}`: a JSON
/// line `"<name>": <number>` whose name says it is measured.
fn measured(stdout: &str) -> String {
    const MEASURED: [&str; 2] = [
        "\"cpu_nanoseconds\":",
        "\"channel_instructions_per_cpu_second\":",
    ];
    let mut out = String::with_capacity(stdout.len());
    for line in stdout.split_inclusive('\n') {
        match MEASURED
            .iter()
            .find_map(|k| line.find(k).map(|at| at + k.len()))
        {
            Some(at) => {
                let comma = if line.trim_end().ends_with(',') {
                    ","
                } else {
                    ""
                };
                let newline = if line.ends_with('\n') { "\n" } else { "" };
                out.push_str(&line[..at]);
                out.push_str(" {measured}");
                out.push_str(comma);
                out.push_str(newline);
            }
            None => out.push_str(line),
        }
    }
    out
}
