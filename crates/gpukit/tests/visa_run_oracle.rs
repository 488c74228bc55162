//! The differential oracle of `gpukit visa run` (tools/visa_run_oracle.py): corpus
//! kernels compiled by ocloc run in gpukit and in PoCL on the same inputs, and their
//! buffers must agree. Needs ocloc, python3 with pyopencl and PoCL; skips without
//! them, fails without them under `REQUIRE_PEERS=1`. IGC 1.0.5353 and 2.x join when
//! `BULLSEYE_OCLOC` / `SID_OCLOC` name their ocloc wrappers (required under
//! `REQUIRE_PEERS=1`). Every release compiles
//! for tgllp, dg2 and pvc (where its ocloc knows the device); the oracle ends with
//! the per-release, per-device table of kernels compared and matched.
//!
//! The real-world set (`tests/realworld/regen.sh`: Debian packages' kernels, prepared
//! under `$GPUKIT_REALWORLD/cl`, default `target/realworld/cl`) runs too when it is
//! there, for tgllp, with its own known gaps (`tools/visa_run_realworld_known_gaps.txt`).
//! It is generated, not checked in: absent, the test skips it, unless
//! `GPUKIT_REALWORLD` names it explicitly under `REQUIRE_PEERS=1`.
//!
//! The corpus kernels PoCL 3.1 cannot build (half, sub-groups, work-group collectives)
//! run in a second OpenCL implementation: Intel's CPU runtime, the python wrapper
//! `tools/intel-cpu-ocl.sh DIR` writes (`INTEL_CPU_OCL`, default
//! `target/peers/intel-ocl/cl-python`), after Debian sid's PoCL when `SID_POCL` names
//! the wrapper of `tools/sid-pocl.sh`. Under `REQUIRE_PEERS=1` a missing or broken
//! Intel runtime fails the test.

use std::path::Path;
use std::process::Command;

fn required() -> bool {
    std::env::var_os("REQUIRE_PEERS").is_some_and(|v| v == "1")
}

/// python3 with pyopencl and numpy, and whether ocloc runs.
fn tools() -> (Option<&'static str>, bool) {
    let python = ["/usr/bin/python3", "python3"].into_iter().find(|p| {
        Command::new(p)
            .args(["-c", "import pyopencl, numpy"])
            .status()
            .is_ok_and(|s| s.success())
    });
    (python, Command::new("ocloc").arg("--help").output().is_ok())
}

#[test]
fn realworld_agrees_with_pocl() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let named = std::env::var_os("GPUKIT_REALWORLD");
    let set = named
        .as_ref()
        .map(|d| Path::new(d).to_path_buf())
        .unwrap_or_else(|| root.join("target/realworld"))
        .join("cl");
    let (python, ocloc) = tools();
    let (Some(python), true, true) = (python, ocloc, set.is_dir()) else {
        assert!(
            !(required() && (named.is_some() || set.is_dir())),
            "REQUIRE_PEERS=1 but ocloc, python3 with pyopencl/numpy, or {} is missing",
            set.display()
        );
        skipped(format_args!(
            "no real-world set at {}; tests/realworld/regen.sh makes it",
            set.display()
        ));
        return;
    };
    let work = std::env::temp_dir().join(format!("gpukit-visa-oracle-rw-{}", std::process::id()));
    let mut cmd = Command::new(python);
    cmd.arg(root.join("tools/visa_run_oracle.py"))
        .args(["--release", "deb12=ocloc", "--device", "tgllp"])
        // Scalars whose names say nothing are radii, depths and iteration counts there.
        .args(["--scalar-int", "3"])
        // PoCL crashes on some of oclgrind's tests of invalid accesses: one process a file.
        .arg("--isolate")
        .arg("--work")
        .arg(&work)
        .arg("--cl-dir")
        .arg(&set)
        .arg("--gpukit")
        .arg(env!("CARGO_BIN_EXE_gpukit"))
        .arg("--known")
        .arg(root.join("tools/visa_run_realworld_known_gaps.txt"));
    run_oracle(cmd, &work, "on the real-world set");
}

/// `--second NAME=PYTHON` for each second implementation whose wrapper lists an
/// OpenCL device: sid's PoCL (`SID_POCL`) first, then Intel's CPU runtime
/// (`INTEL_CPU_OCL`, else its default place), which `REQUIRE_PEERS=1` requires.
fn second_implementations(root: &Path) -> Vec<String> {
    let works = |python: &Path| {
        Command::new(python)
            .args([
                "-c",
                "import pyopencl as cl; cl.get_platforms()[0].get_devices()",
            ])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let mut out = Vec::new();
    if let Some(sid) = std::env::var_os("SID_POCL") {
        let sid = Path::new(&sid);
        assert!(
            works(sid),
            "SID_POCL={} lists no OpenCL device",
            sid.display()
        );
        out.push(format!("pocl7={}", sid.display()));
    }
    let intel = std::env::var_os("INTEL_CPU_OCL")
        .map(|p| Path::new(&p).to_path_buf())
        .unwrap_or_else(|| root.join("target/peers/intel-ocl/cl-python"));
    if works(&intel) {
        out.push(format!("intel={}", intel.display()));
    } else {
        assert!(
            !required(),
            "REQUIRE_PEERS=1 but Intel's CPU OpenCL runtime does not run at {} \
             (tools/intel-cpu-ocl.sh DIR writes DIR/cl-python; INTEL_CPU_OCL names it)",
            intel.display()
        );
        eprintln!(
            "no second implementation at {}: kernels PoCL 3.1 cannot build are run, not compared",
            intel.display()
        );
    }
    out
}

/// The workspace root, python3 (with pyopencl and numpy) and the OpenCL corpus for
/// an oracle run over the corpus; `None` (the test skips) when one is missing, a
/// failure under `REQUIRE_PEERS=1`.
fn corpus_peers() -> Option<(std::path::PathBuf, &'static str, std::path::PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let (python, ocloc) = tools();
    let corpus = root.join("../shared/corpus/intel/cl");
    let (Some(python), true, true) = (python, ocloc, corpus.is_dir()) else {
        assert!(
            !required(),
            "REQUIRE_PEERS=1 but ocloc, python3 with pyopencl/numpy, or ../shared/corpus/intel/cl is missing"
        );
        skipped(format_args!("ocloc, pyopencl or the corpus is missing"));
        return None;
    };
    Some((root, python, corpus))
}

#[test]
fn gpukit_agrees_with_pocl() {
    let Some((root, python, corpus)) = corpus_peers() else {
        return;
    };
    let work = std::env::temp_dir().join(format!("gpukit-visa-oracle-{}", std::process::id()));
    let mut cmd = Command::new(python);
    cmd.arg(root.join("tools/visa_run_oracle.py"))
        .args(["--release", "deb12=ocloc"])
        // Every device each release knows: DG2 (Xe-HPG: LSC messages) and PVC
        // (Xe-HPC: 64-byte GRFs, the payload laid out in them). IGC 1.0.5353 knows
        // neither and is reported as skipped for them.
        .args(["--device", "tgllp", "--device", "dg2", "--device", "pvc"])
        // Stack calls (fcall/fret) as IGC 2.x compiles noinline functions when asked.
        .arg("--stack-calls")
        // Every kernel matching PoCL runs again under `visa run --check`: any finding
        // is a false positive.
        .arg("--check")
        .arg("--work")
        .arg(&work)
        .arg("--cl-dir")
        .arg(&corpus)
        .arg("--gpukit")
        .arg(env!("CARGO_BIN_EXE_gpukit"))
        // One list per device: what every device shares, then DG2's and PVC's own.
        .arg("--known")
        .arg(root.join("tools/visa_run_known_gaps.txt"))
        .arg("--known")
        .arg(root.join("tools/visa_run_known_gaps_dg2.txt"))
        .arg("--known")
        .arg(root.join("tools/visa_run_known_gaps_pvc.txt"));
    for second in second_implementations(&root) {
        cmd.arg("--second").arg(second);
    }
    if required() {
        // A kernel that stops building in the second implementation fails too.
        cmd.arg("--require-second");
    }
    run_oracle(cmd, &work, "on the corpus");
}

/// The Gen front end (issue 26): every corpus kernel's Gen code, the `.asm` IGC
/// dumped beside its `.visaasm`, runs in `gpukit iga run` on the same arguments as
/// `visa run`, for tgllp, dg2, pvc and skl (where the release knows the device); its
/// buffers must agree with PoCL's (or the second implementation's) by the vISA rule,
/// else with `visa run`'s byte for byte where no reference compares. Failures are
/// allowed only as `tools/gen_run_known_gaps.txt` lists them (the first unsupported
/// instruction or message of each), and a listed gap that no longer fails fails the
/// test: the list stays exact. The vISA results are the test above's.
#[test]
fn gen_agrees_with_pocl_and_visa() {
    let Some((root, python, corpus)) = corpus_peers() else {
        return;
    };
    let work = std::env::temp_dir().join(format!("gpukit-gen-oracle-{}", std::process::id()));
    let mut cmd = Command::new(python);
    cmd.arg(root.join("tools/visa_run_oracle.py"))
        .args(["--release", "deb12=ocloc"])
        .args(["--device", "tgllp", "--device", "dg2", "--device", "pvc"])
        .args(["--device", "skl"])
        .args(["--gen", "--gen-only"])
        .arg("--work")
        .arg(&work)
        .arg("--cl-dir")
        .arg(&corpus)
        .arg("--gpukit")
        .arg(env!("CARGO_BIN_EXE_gpukit"))
        .arg("--gen-known")
        .arg(root.join("tools/gen_run_known_gaps.txt"));
    for second in second_implementations(&root) {
        cmd.arg("--second").arg(second);
    }
    run_oracle(cmd, &work, "on the corpus's Gen code");
}

/// Adds the peer releases named by `BULLSEYE_OCLOC`/`SID_OCLOC`, runs the oracle,
/// removes its work directory and fails with its report when it exits non-zero.
fn run_oracle(mut cmd: Command, work: &Path, what: &str) {
    for (name, var) in [("bullseye", "BULLSEYE_OCLOC"), ("sid", "SID_OCLOC")] {
        match std::env::var_os(var) {
            Some(path) => {
                cmd.arg("--release")
                    .arg(format!("{name}={}", path.to_string_lossy()));
            }
            // The goal is per IGC release: CI checks all three.
            None if required() => panic!(
                "REQUIRE_PEERS=1 but {var} is not set (the {name} IGC peer's ocloc wrapper; \
                 .ci/run unpacks it under target/peers/{name})"
            ),
            None => {}
        }
    }
    let out = cmd.output().expect("run the oracle");
    let _ = std::fs::remove_dir_all(work);
    let stdout = String::from_utf8_lossy(&out.stdout);
    eprintln!("{stdout}");
    assert!(
        out.status.success(),
        "gpukit and PoCL disagree {what}:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Says that a test skipped, where `cargo test`'s output shows it: libtest hides what
/// a passing test prints with `eprintln!`, not a direct write to stderr.
fn skipped(why: std::fmt::Arguments) {
    use std::io::Write;
    let test = std::thread::current().name().unwrap_or("test").to_string();
    let _ = writeln!(std::io::stderr(), "skipped: {test} ({why})");
}

/// What `gpukit visa run` prints for a kernel compiled by the system's ocloc for
/// tgllp, on `tools/printf_peer.py`'s inputs (8 work items, one group), without the
/// summary line.
fn gpukit_printf(python: &str, work: &Path, cl: &Path, kernel: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = work.join(kernel);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(cl, dir.join("k.cl")).unwrap();
    let built = Command::new("ocloc")
        .args([
            "compile",
            "-file",
            "k.cl",
            "-device",
            "tgllp",
            "-output_no_suffix",
            "-output",
            "k",
        ])
        .env("IGC_ShaderDumpEnable", "1")
        .env("IGC_DumpToCustomDir", "dump/")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        dir.join("k").exists(),
        "ocloc: {}",
        String::from_utf8_lossy(&built.stdout)
    );
    let visaasm = std::fs::read_dir(dir.join("dump"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.extension().is_some_and(|e| e == "visaasm")
                && std::fs::read_to_string(p)
                    .is_ok_and(|t| t.contains(&format!(".kernel \"{kernel}\"")))
        })
        .unwrap_or_else(|| panic!("no vISA dump of {kernel}"));
    let prepared = Command::new(python)
        .arg(root.join("tools/printf_peer.py"))
        .args(["prepare"])
        .arg(cl)
        .arg(kernel)
        .arg(dir.join("in"))
        .output()
        .unwrap();
    assert!(
        prepared.status.success(),
        "{}",
        String::from_utf8_lossy(&prepared.stderr)
    );
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gpukit"));
    cmd.args(["visa", "run"])
        .arg(&visaasm)
        .arg("--binary")
        .arg(dir.join("k"))
        .args(["--global", "8", "--local", "8"]);
    for spec in String::from_utf8_lossy(&prepared.stdout).lines() {
        cmd.arg("--arg").arg(spec);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "gpukit: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let summary = text.rfind("kernel ").expect("a summary line");
    text[..summary].to_string()
}

/// What an OpenCL implementation (the python whose pyopencl sees it) prints.
fn peer_printf(python: &Path, work: &Path, cl: &Path, kernel: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(python)
        .arg(root.join("tools/printf_peer.py"))
        .arg("run")
        .arg(cl)
        .arg(kernel)
        .arg(work.join(kernel).join("in"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        python.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// printf as PoCL and Intel's CPU runtime print it, byte for byte: every corpus
/// kernel that prints, and `tests/data/visa/run/run_args.cl`'s `print_forms` (every
/// form, three lines per work item: each work item's lines together, in work-item
/// order, though the device reserves them call by call across a hardware thread's
/// channels).
#[test]
fn printf_agrees_with_pocl_and_intel_cpu() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let (python, ocloc) = tools();
    let corpus = root.join("../shared/corpus/intel/cl");
    let intel = std::env::var_os("INTEL_CPU_OCL")
        .map(|p| Path::new(&p).to_path_buf())
        .unwrap_or_else(|| root.join("target/peers/intel-ocl/cl-python"));
    let (Some(python), true, true, true) = (python, ocloc, corpus.is_dir(), intel.exists()) else {
        assert!(
            !required(),
            "REQUIRE_PEERS=1 but ocloc, python3 with pyopencl/numpy, the corpus or Intel's CPU runtime ({}) is missing",
            intel.display()
        );
        skipped(format_args!(
            "ocloc, pyopencl, the corpus or Intel's CPU runtime is missing"
        ));
        return;
    };
    let work = std::env::temp_dir().join(format!("gpukit-printf-peers-{}", std::process::id()));
    let mut cases: Vec<(std::path::PathBuf, String)> = Vec::new();
    for entry in std::fs::read_dir(&corpus).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        if path.extension().is_some_and(|e| e == "cl") && text.contains("printf") {
            for part in text.split("__kernel void ").skip(1) {
                let name: String = part
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                cases.push((path.clone(), name));
            }
        }
    }
    assert!(!cases.is_empty(), "no corpus kernel prints");
    cases.push((
        root.join("tests/data/visa/run/run_args.cl"),
        "print_forms".into(),
    ));
    let mut failures = Vec::new();
    for (cl, kernel) in &cases {
        let got = gpukit_printf(python, &work, cl, kernel);
        for peer in [Path::new(python), intel.as_path()] {
            let want = peer_printf(peer, &work, cl, kernel);
            if got != want {
                failures.push(format!(
                    "{kernel} ({}):\ngpukit:\n{got}\npeer:\n{want}",
                    peer.display()
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
