//! `visa run --jobs`: work-groups on several threads leave what one thread leaves.
//! Every `visa run` CLI case (`tests/cli/visa-run/`, `tests/cli/visa/run*`: corpus
//! kernels of every IGC release, PVC's 64-byte GRFs, printf, SLM and global atomics,
//! errors) runs with `--jobs 1`, with `--jobs 4`, and with `--jobs 4 --no-translate`;
//! stdout (JSON timings aside), stderr and the exit code must be equal. The benchmark
//! kernels (`bench/kernels/`: mandelbrot, a tiled matmul, a histogram with local and
//! global atomics over many work-groups) are compiled with ocloc and their output
//! buffers compared byte for byte; without ocloc that part skips, and fails under
//! `REQUIRE_PEERS=1`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// stdout, stderr and exit code of `gpukit ARGS EXTRA` run in the workspace root, the
/// CPU-time fields of a JSON report dropped.
fn run(args: &[String], extra: &[&str]) -> (String, String, Option<i32>) {
    let out = Command::new(env!("CARGO_BIN_EXE_gpukit"))
        .args(args)
        .args(extra)
        .current_dir(root())
        .output()
        .expect("gpukit runs");
    let mut stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if let Ok(serde_json::Value::Object(mut report)) = serde_json::from_str(&stdout) {
        report.remove("cpu_nanoseconds");
        report.remove("channel_instructions_per_cpu_second");
        stdout = serde_json::Value::Object(report).to_string();
    }
    (
        stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

fn visa_run_cases() -> Vec<PathBuf> {
    let mut cases = Vec::new();
    for dir in ["tests/cli/visa-run", "tests/cli/visa"] {
        for entry in std::fs::read_dir(root().join(dir)).expect("the CLI cases") {
            let path = entry.expect("a directory entry").path();
            if path.extension().is_some_and(|e| e == "args") {
                cases.push(path);
            }
        }
    }
    cases.sort();
    cases
}

#[test]
fn cli_cases_agree_with_any_jobs_and_both_engines() {
    let mut compared = 0;
    for case in visa_run_cases() {
        let text = std::fs::read_to_string(&case).expect("an .args file");
        let args: Vec<String> = text.lines().map(str::to_string).collect();
        if args.len() < 2 || args[0] != "visa" || args[1] != "run" {
            continue;
        }
        let one = run(&args, &["--jobs", "1"]);
        for extra in [&["--jobs", "4"][..], &["--jobs", "4", "--no-translate"]] {
            let other = run(&args, extra);
            assert_eq!(
                one,
                other,
                "{}: --jobs 1 and {} differ",
                case.display(),
                extra.join(" ")
            );
        }
        compared += 1;
    }
    assert!(compared >= 40, "only {compared} visa run cases found");
}

fn required() -> bool {
    std::env::var_os("REQUIRE_PEERS").is_some_and(|v| v == "1")
}

/// Compiles `bench/kernels/NAME.cl` for tgllp with IGC's shader dump; the program
/// binary and the kernel's vISA text of the SIMD size the binary chose.
fn compile(work: &Path, name: &str) -> (PathBuf, PathBuf) {
    let dir = work.join(name);
    std::fs::create_dir_all(&dir).expect("a work directory");
    std::fs::copy(
        root().join(format!("bench/kernels/{name}.cl")),
        dir.join(format!("{name}.cl")),
    )
    .expect("the kernel source");
    let status = Command::new("ocloc")
        .args([
            "compile",
            "-file",
            &format!("{name}.cl"),
            "-device",
            "tgllp",
        ])
        .args(["-output_no_suffix", "-output", name, "-q"])
        .env("IGC_ShaderDumpEnable", "1")
        .env("IGC_DumpToCustomDir", "dump/")
        .current_dir(&dir)
        .status()
        .expect("ocloc runs");
    assert!(status.success(), "ocloc failed on {name}.cl");
    let binary = dir.join(name);
    let info = Command::new(env!("CARGO_BIN_EXE_gpukit"))
        .args(["intel", "info", "--json"])
        .arg(&binary)
        .output()
        .expect("gpukit runs");
    let info: serde_json::Value = serde_json::from_slice(&info.stdout).expect("intel info JSON");
    let simd = info["kernels"]
        .as_array()
        .and_then(|ks| ks.iter().find(|k| k["name"] == name))
        .and_then(|k| k["simd_size"].as_u64())
        .expect("the kernel's SIMD size");
    let visa = std::fs::read_dir(dir.join("dump"))
        .expect("IGC's dump")
        .map(|e| e.expect("a dump entry").path())
        .find(|p| {
            let file = p.file_name().unwrap_or_default().to_string_lossy();
            file.ends_with(".visaasm")
                && file.contains(&format!("_simd{simd}_"))
                && std::fs::read_to_string(p)
                    .is_ok_and(|t| t.contains(&format!(".kernel \"{name}\"")))
        })
        .expect("the kernel's vISA dump");
    (binary, visa)
}

#[test]
fn bench_kernels_agree_with_any_jobs() {
    if Command::new("ocloc").arg("--help").output().is_err() {
        assert!(!required(), "REQUIRE_PEERS=1 but ocloc is missing");
        eprintln!("skipped: no ocloc");
        return;
    }
    let work = std::env::temp_dir().join(format!("gpukit-visa-jobs-{}", std::process::id()));
    // Smaller than bench/exec.py's sizes (a debug build), still many work-groups.
    let kernels: [(&str, &str, &str, &[&str], &str); 3] = [
        (
            "mandelbrot",
            "64,64",
            "16,16",
            &["0=zeros:16384", "1=u32:64", "2=u32:64", "3=u32:32"],
            "0",
        ),
        (
            "matmul_tiled",
            "64,64",
            "16,16",
            &[
                "0=random:4096:f32:1",
                "1=random:4096:f32:2",
                "2=zeros:16384",
                "3=u32:64",
            ],
            "2",
        ),
        (
            "histogram_slm",
            "4096",
            "256",
            &["0=random:65536:u8:24", "1=u32:65536", "2=zeros:1024"],
            "2",
        ),
    ];
    for (name, global, local, specs, out) in kernels {
        let (binary, visa) = compile(&work, name);
        let mut args: Vec<String> = vec!["visa".into(), "run".into()];
        args.push(visa.display().to_string());
        args.extend(["--binary".into(), binary.display().to_string()]);
        args.extend([
            "--global".into(),
            global.into(),
            "--local".into(),
            local.into(),
        ]);
        for s in specs {
            args.extend(["--arg".into(), s.to_string()]);
        }
        let mut outputs = Vec::new();
        for jobs in ["1", "4"] {
            let file = work.join(format!("{name}.{jobs}.out"));
            let out = format!("{out}={}", file.display());
            let (_, stderr, code) = run(&args, &["--jobs", jobs, "--out", &out]);
            assert_eq!(code, Some(0), "{name} --jobs {jobs}: {stderr}");
            outputs.push(std::fs::read(&file).expect("the output buffer"));
        }
        assert!(
            outputs[0] == outputs[1],
            "{name}: --jobs 1 and --jobs 4 leave different buffers"
        );
        if name == "histogram_slm" {
            // Every byte counted once, by global atomics from 16 work-groups.
            let total: u64 = outputs[0]
                .chunks_exact(4)
                .map(|c| u64::from(u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
                .sum();
            assert_eq!(total, 65536);
        }
    }
    let _ = std::fs::remove_dir_all(&work);
}
