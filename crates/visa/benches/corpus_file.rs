//! The benchmark input: the largest file with an extension under a folder.

use std::path::{Path, PathBuf};

pub fn largest(dir: &Path, extension: &str) -> Option<PathBuf> {
    let mut best: Option<(u64, PathBuf)> = None;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).ok()?.flatten() {
            let p = e.path();
            if p.is_dir() {
                // Hand-written sources are not what IGC prints.
                if !p.ends_with("visaasm-src") {
                    stack.push(p);
                }
            } else if p.extension().is_some_and(|x| x == extension) {
                let len = e.metadata().map(|m| m.len()).unwrap_or(0);
                if best.as_ref().is_none_or(|(l, _)| len > *l) {
                    best = Some((len, p));
                }
            }
        }
    }
    best.map(|(_, p)| p)
}
