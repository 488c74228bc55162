//! Findings per rule over a set of `.isa` or `.visaasm` files, for judging a rule against IGC's real
//! output: `cargo run --example verify_probe -- [--strict] [--platform P] FILES...`.

use gpukit_visa::verify::{self, Options, Platform};
use std::collections::BTreeMap;

fn main() {
    let mut options = Options::default();
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--strict" => options.strict = true,
            "--platform" => options.platform = args.next().as_deref().and_then(Platform::from_name),
            _ => files.push(arg),
        }
    }
    let mut per_rule: BTreeMap<&str, (usize, String)> = BTreeMap::new();
    let mut read = 0;
    for path in &files {
        let Ok(bytes) = std::fs::read(path) else {
            eprintln!("{path}: cannot read");
            continue;
        };
        let object = if path.ends_with(".visaasm") {
            match gpukit_visa::text::parse_text(&String::from_utf8_lossy(&bytes)) {
                Ok(o) => o,
                Err(_) => {
                    eprintln!("{path}: does not parse");
                    continue;
                }
            }
        } else {
            match gpukit_visa::read_lenient(&bytes) {
                Ok(o) => o,
                Err(_) => {
                    eprintln!("{path}: not a readable .isa");
                    continue;
                }
            }
        };
        read += 1;
        for f in verify::verify(&object, &options) {
            let entry = per_rule.entry(f.rule).or_default();
            entry.0 += 1;
            if entry.1.is_empty() {
                entry.1 = format!("{path}: {f}");
            }
        }
    }
    println!("{read} files");
    for (rule, (count, example)) in per_rule {
        println!("{rule} {count}\n    e.g. {example}");
    }
}
