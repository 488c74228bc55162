//! The generated large kernel: a real IGC-printed kernel whose body is repeated to a
//! requested size, for throughput measurements (benches, `examples/large_kernel.rs`,
//! `bench/peers.sh`). Shared by `#[path]` so it stays out of the library.
//!
//! The seed is a checked-in fixture, so the input is the same on a fresh machine. Its
//! declarations, inputs and attributes are kept once; its body (everything after the
//! entry label) is repeated, each copy's labels renamed with a `_r<copy>` suffix, and
//! every copy but the last without its final `ret`, so control falls from one copy into
//! the next and the whole stays one well-formed routine that GenX_IR also assembles.

#![allow(dead_code)]

use std::path::Path;

/// The seed fixture, relative to the workspace root.
pub const SEED: &str = "tests/data/visa/local_histogram__histogram_local__simd32.visaasm";

/// Default size of the generated text (bytes).
pub const DEFAULT_BYTES: usize = 20 << 20;

/// The seed text read from the workspace at `root`.
pub fn seed(root: &Path) -> String {
    std::fs::read_to_string(root.join(SEED)).expect("seed fixture for the large kernel")
}

/// The label a line defines (`_0_028:`), if any.
fn label_of(line: &str) -> Option<&str> {
    let name = line.trim_end().strip_suffix(':')?;
    (!name.is_empty() && name.bytes().all(is_ident)).then_some(name)
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// `seed` with its body repeated until the text is at least `target_bytes` long.
pub fn generate(seed: &str, target_bytes: usize) -> String {
    let lines: Vec<&str> = seed.lines().collect();
    // The entry label (first label) stays once; the body after it is repeated.
    let entry = lines
        .iter()
        .position(|l| label_of(l).is_some())
        .expect("seed kernel has an entry label");
    let (head, body) = lines.split_at(entry + 1);
    let labels: std::collections::HashSet<&str> = body.iter().filter_map(|l| label_of(l)).collect();
    // The last `ret` of the body ends the kernel; only the last copy keeps it.
    let last_ret = body
        .iter()
        .rposition(|l| l.trim_start().starts_with("ret "))
        .expect("seed kernel ends with ret");

    let mut out = String::with_capacity(target_bytes + seed.len() * 2);
    for l in head {
        out.push_str(l);
        out.push('\n');
    }
    let body_bytes: usize = body.iter().map(|l| l.len() + 1).sum();
    let copies = target_bytes
        .saturating_sub(out.len())
        .div_ceil(body_bytes)
        .max(1);
    for copy in 0..copies {
        for (i, l) in body.iter().enumerate() {
            if i == last_ret && copy + 1 != copies {
                continue;
            }
            rename_labels(l, &labels, copy, &mut out);
            out.push('\n');
        }
    }
    out
}

/// Appends `line` with each identifier that names a label suffixed by `_r<copy>`.
fn rename_labels(
    line: &str,
    labels: &std::collections::HashSet<&str>,
    copy: usize,
    out: &mut String,
) {
    // Comments (`/// $12`) are copied as they are.
    let code_end = line.find("//").unwrap_or(line.len());
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < code_end {
        if is_ident(bytes[i]) {
            let start = i;
            while i < code_end && is_ident(bytes[i]) {
                i += 1;
            }
            let word = &line[start..i];
            out.push_str(word);
            if labels.contains(word) {
                out.push_str("_r");
                out.push_str(&copy.to_string());
            }
        } else {
            let start = i;
            while i < code_end && !is_ident(bytes[i]) {
                i += 1;
            }
            out.push_str(&line[start..i]);
        }
    }
    out.push_str(&line[code_end..]);
}
