//! Headless Chromium for the page tests (report, diff): one set of flags that keeps
//! it off the network, and one check that a page renders without console messages.

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs headless Chromium with `args`, off the network, with a fresh profile in
/// `profile` (none given: Chromium's default).
pub fn chromium(profile: Option<&Path>, args: &[&str]) -> Output {
    let mut cmd = Command::new("chromium");
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        "--disable-extensions",
        "--disable-breakpad",
        "--no-pings",
        "--host-resolver-rules=MAP * ~NOTFOUND",
        "--proxy-server=127.0.0.1:9",
        "--proxy-bypass-list=<-loopback>",
        "--hide-scrollbars",
        "--enable-logging=stderr",
        "--v=0",
    ]);
    if let Some(p) = profile {
        cmd.arg(format!("--user-data-dir={}", p.display()));
    }
    cmd.args(args)
        .stdin(Stdio::null())
        .output()
        .expect("chromium runs")
}

/// Screenshots `page` into `png` at `size` (`W,H`) and asserts the page logged no
/// console message and the picture is not blank.
pub fn screenshot_clean(profile: Option<&Path>, page: &Path, png: &Path, size: &str, what: &str) {
    let out = chromium(
        profile,
        &[
            &format!("--window-size={size}"),
            &format!("--screenshot={}", png.display()),
            &format!("file://{}", page.display()),
        ],
    );
    let log = String::from_utf8_lossy(&out.stderr);
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(
        console.is_empty(),
        "{what}: console messages:\n{}",
        console.join("\n")
    );
    let bytes = std::fs::metadata(png).map(|m| m.len()).unwrap_or(0);
    assert!(bytes > 10_000, "{what}: screenshot {bytes} bytes");
}
