//! Stamps the commit into `--version` (`GPUKIT_COMMIT`): `git rev-parse` when the
//! sources are a git checkout, else "unknown" (a crates.io package, a tarball).

use std::process::Command;

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=GPUKIT_COMMIT={commit}");
    // A checkout moves HEAD, a commit appends to its log; absent outside git, and then nothing reruns.
    for path in ["../../.git/HEAD", "../../.git/logs/HEAD"] {
        if std::path::Path::new(path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
