//! What an installed gpukit ships besides the binary: shell completions that their
//! shells accept (`bash -n`, `zsh -n`, `fish --no-execute`), manual pages that groff
//! renders without a warning (`groff -ww`), and a `--version` that names the commit.
//! A missing shell or groff skips its check (with a `skipped:` line), or fails under
//! REQUIRE_PEERS=1 (`.ci/run` installs them).

use std::path::{Path, PathBuf};
use std::process::Command;

fn gpukit(args: &[&str]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_gpukit"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "gpukit {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `tool args... file`; `false` when the tool is not installed (and that is allowed).
fn check_with(tool: &str, args: &[&str], file: &Path) -> bool {
    let out = match Command::new(tool).args(args).arg(file).output() {
        Ok(out) => out,
        Err(e) => {
            assert!(
                std::env::var_os("REQUIRE_PEERS").is_none_or(|v| v != "1"),
                "REQUIRE_PEERS=1 but {tool} cannot run: {e}"
            );
            skipped(format_args!("{tool} is not installed"));
            return false;
        }
    };
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "{tool} {args:?} {}: {}{}",
        file.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    true
}

#[test]
fn completions_parse_in_their_shells() {
    let dir = scratch("completions");
    for (shell, checker, args) in [
        ("bash", "bash", &["-n"][..]),
        ("zsh", "zsh", &["-n"][..]),
        ("fish", "fish", &["--no-execute"][..]),
    ] {
        let script = gpukit(&["completions", shell]);
        // Every subcommand is offered, nested ones included.
        let text = String::from_utf8_lossy(&script);
        for word in ["visa", "scan", "completions", "verify"] {
            assert!(text.contains(word), "{shell} completions lack {word}");
        }
        let file = dir.join(format!("gpukit.{shell}"));
        std::fs::write(&file, &script).unwrap();
        check_with(checker, args, &file);
    }
}

#[test]
fn man_pages_render_without_warnings() {
    let top = gpukit(&["man"]);
    assert!(
        top.starts_with(b".ie \\n(.g"),
        "{}",
        String::from_utf8_lossy(&top[..40])
    );
    let dir = scratch("man");
    gpukit(&["man", "--dir", dir.to_str().unwrap()]);
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    pages.sort();
    let names: Vec<String> = pages
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for want in [
        "gpukit.1",
        "gpukit-visa.1",
        "gpukit-visa-run.1",
        "gpukit-scan.1",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} not in {names:?}");
    }
    for page in &pages {
        if !check_with("groff", &["-ww", "-z", "-man"], page) {
            return;
        }
    }
}

#[test]
fn version_names_the_commit_releases_and_formats() {
    let short = String::from_utf8(gpukit(&["-V"])).unwrap();
    assert!(
        short.starts_with(concat!("gpukit ", env!("CARGO_PKG_VERSION"), " (commit ")),
        "{short}"
    );
    let long = String::from_utf8(gpukit(&["--version"])).unwrap();
    assert!(long.contains("IGC releases"), "{long}");
    assert!(long.contains("formats:"), "{long}");
}

/// Says that a test skipped, where `cargo test`'s output shows it: libtest hides what
/// a passing test prints with `eprintln!`, not a direct write to stderr.
fn skipped(why: std::fmt::Arguments) {
    use std::io::Write;
    let test = std::thread::current().name().unwrap_or("test").to_string();
    let _ = writeln!(std::io::stderr(), "skipped: {test} ({why})");
}
