//! Which kernel of A is compared with which of B. Two files: their kernels by name
//! (one kernel each: those two, whatever their names). Two directories: files are
//! grouped by folder and stem (the name up to its first dot, with IGC's `__simd<N>`
//! suffix dropped, so `f__k__simd32.visaasm` meets `f__k.visaasm`); a group's
//! listing is its preferred file of code (vISA text, binary, IGA JSON, program
//! binary, AMD binary) and its `.asm` dump adds the Gen figures; groups meet by key
//! and their kernels by name. What meets nothing is listed as unmatched.

use super::figures::{self, Role, Side};
use crate::cmd::scan::walk::{Found, Walk};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The files of one key on one side.
#[derive(Default)]
pub struct Group {
    /// Files of code, preferred first.
    pub code: Vec<(Role, PathBuf)>,
    pub dumps: Vec<PathBuf>,
}

/// The groups of a directory (walked as `scan` walks) or of one file, by key.
pub fn groups(root: &Path) -> BTreeMap<String, Group> {
    let mut out: BTreeMap<String, Group> = BTreeMap::new();
    if !root.is_dir() {
        add(&mut out, root.to_path_buf(), String::new());
        return out;
    }
    for found in Walk::new(vec![root.to_path_buf()], Vec::new(), None) {
        if let Found::File(path) = found {
            let folder = path
                .parent()
                .and_then(|p| p.strip_prefix(root).ok())
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_default();
            add(&mut out, path, folder);
        }
    }
    for g in out.values_mut() {
        g.code.sort();
    }
    out
}

fn add(out: &mut BTreeMap<String, Group>, path: PathBuf, folder: String) {
    let role = figures::role(&path);
    if role == Role::Other {
        return;
    }
    let stem = figures::stem(&path);
    let stem = strip_simd(&stem);
    let key = if folder.is_empty() {
        stem.to_owned()
    } else {
        format!("{folder}/{stem}")
    };
    let group = out.entry(key).or_default();
    match role {
        Role::AsmDump => group.dumps.push(path),
        _ => group.code.push((role, path)),
    }
}

/// `name__simd32` -> `name`.
fn strip_simd(stem: &str) -> &str {
    match stem.rsplit_once("__simd") {
        Some((head, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => head,
        _ => stem,
    }
}

/// The kernels of a group, each with its dump attached (by kernel name, or the sole
/// kernel); problems reading a file are returned as messages.
pub fn load(group: &Group) -> (Vec<Side>, Vec<String>) {
    let mut errors = Vec::new();
    let mut sides = match group.code.first() {
        Some((_, path)) => figures::kernels(path).unwrap_or_else(|e| {
            errors.push(e);
            Vec::new()
        }),
        None => Vec::new(),
    };
    for path in &group.dumps {
        let dump = match figures::dump(path) {
            Ok(d) => d,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let at = sides
            .iter()
            .position(|s| s.asm.is_none() && s.name == dump.kernel)
            .or_else(|| (sides.len() == 1 && sides[0].asm.is_none()).then_some(0));
        match at {
            Some(i) => {
                sides[i].asm_file = Some(path.clone());
                sides[i].asm = Some(dump);
            }
            None => sides.push(figures::dump_side(path, dump)),
        }
    }
    (sides, errors)
}

/// Pairs the kernels of two groups of one key by name; the sole kernels of each
/// when both have one and either is unnamed (IGA) or the inputs were two files.
pub fn pair(
    mut a: Vec<Side>,
    mut b: Vec<Side>,
    by_position: bool,
) -> (Vec<(Side, Side)>, Vec<Side>, Vec<Side>) {
    if a.len() == 1 && b.len() == 1 && (by_position || a[0].unnamed || b[0].unnamed) {
        let (x, y) = (a.remove(0), b.remove(0));
        return (vec![(x, y)], Vec::new(), Vec::new());
    }
    let mut pairs = Vec::new();
    let mut only_a = Vec::new();
    for side in a {
        match b.iter().position(|s| s.name == side.name) {
            Some(j) => pairs.push((side, b.remove(j))),
            None => only_a.push(side),
        }
    }
    (pairs, only_a, b)
}
