//! Locating the shared corpus. Tests over it skip with a message on a machine
//! without `../shared`, except under CI or `REQUIRE_PEERS=1`, where a missing corpus
//! is a failure.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn corpus(sub: &str) -> Option<PathBuf> {
    let dir = workspace_root().join("../shared/corpus").join(sub);
    if dir.is_dir() {
        return Some(dir);
    }
    let required = std::env::var("CI").is_ok_and(|v| v == "true")
        || std::env::var("REQUIRE_PEERS").is_ok_and(|v| v == "1");
    assert!(
        !required,
        "corpus folder {} is missing (required under CI / REQUIRE_PEERS=1)",
        dir.display()
    );
    skipped(format_args!("corpus folder {} not found", dir.display()));
    None
}

/// Every file under `dir` (recursively) whose name ends with `suffix`, sorted.
pub fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(suffix) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Number of instructions in an IGC `.visaasm` dump: one more than the highest `/// $N`.
pub fn visaasm_instruction_count(text: &str) -> usize {
    text.lines()
        .filter_map(|l| {
            l.rsplit_once("/// $")
                .and_then(|(_, n)| n.trim().parse::<usize>().ok())
        })
        .max()
        .map_or(0, |m| m + 1)
}

/// The object with a canonical string pool: only the strings something refers to,
/// sorted. Objects that mean the same compare equal whatever order their producers
/// interned strings in. Names the text never shows (predicate and address names) and
/// integer attribute widths (the text does not say them) are blanked.
pub fn canonical(o: &gpukit_visa::Object) -> gpukit_visa::Object {
    let mut o = o.clone();
    for k in &mut o.kernels {
        k.gen_binaries.clear();
    }
    let routines = o
        .kernels
        .iter_mut()
        .map(|k| &mut k.body)
        .chain(o.functions.iter_mut().map(|f| &mut f.body));
    for r in routines {
        for p in &mut r.predicates {
            p.name_index = u32::MAX;
        }
        for a in &mut r.addresses {
            a.name_index = u32::MAX;
        }
        // Every string reference, as a mutable index.
        let mut refs: Vec<&mut u32> = Vec::new();
        refs.push(&mut r.name_index);
        for v in &mut r.variables {
            refs.push(&mut v.name_index);
            for a in &mut v.attributes {
                refs.push(&mut a.name_index);
            }
        }
        for l in &mut r.labels {
            refs.push(&mut l.name_index);
        }
        for s in r.samplers.iter_mut().chain(r.surfaces.iter_mut()) {
            refs.push(&mut s.name_index);
        }
        for a in &mut r.attributes {
            refs.push(&mut a.name_index);
            if let gpukit_visa::AttributeValue::Int { width, .. } = &mut a.value {
                *width = 4;
            }
        }
        if let gpukit_visa::Code::Instructions(list) = &mut r.code {
            for inst in list.iter_mut() {
                // IGC prints any fence with the software bit as `fence_sw` and drops the
                // other bits (corpus README: 0xA1 reassembles to 0x80).
                if inst.opcode == gpukit_visa::isa::Opcode::FENCE {
                    if let Some(gpukit_visa::Operand::Int(m)) = inst.operands.first_mut() {
                        if *m & 0x80 != 0 {
                            *m = 0x80;
                        }
                    }
                }
                // IGC 1.0.5353 sets bit 7 of the SVM block load's properties byte, which
                // its text does not show (corpus README: 0x81 reassembles to 0x01).
                if inst.opcode == gpukit_visa::isa::Opcode::SVM && inst.subop == Some(1) {
                    if let Some(gpukit_visa::Operand::Int(p)) = inst.operands.first_mut() {
                        *p &= 0x7f;
                    }
                }
                let fields = inst.view().fields().unwrap_or(&[]);
                for (f, op) in fields.iter().zip(inst.operands.iter_mut()) {
                    let is_string = matches!(
                        (inst.opcode, f.name),
                        (
                            gpukit_visa::isa::Opcode::FCALL | gpukit_visa::isa::Opcode::FADDR,
                            "function"
                        ) | (gpukit_visa::isa::Opcode::FILE, "file")
                    );
                    if let (true, gpukit_visa::Operand::Int(i)) = (is_string, op) {
                        refs.push(i);
                    }
                }
            }
        }
        let old = std::mem::take(&mut r.strings);
        let mut pool: Vec<Vec<u8>> = refs
            .iter()
            .filter_map(|i| old.get(**i as usize).map(<[u8]>::to_vec))
            .collect();
        pool.sort();
        pool.dedup();
        for i in refs {
            if let Some(s) = old.get(*i as usize) {
                *i = pool.binary_search_by(|p| p.as_slice().cmp(s)).unwrap() as u32;
            }
        }
        r.strings = pool.into_iter().collect();
    }
    o
}

/// Names the first part where two objects differ, for the failure message.
pub fn first_difference(a: &gpukit_visa::Object, b: &gpukit_visa::Object) -> String {
    let (ra, rb) = (&a.kernels[0].body, &b.kernels[0].body);
    macro_rules! cmp {
        ($($f:ident),*) => {$(
            if ra.$f != rb.$f {
                let i = ra.$f.iter().zip(&rb.$f).position(|(x, y)| x != y);
                return format!("{} differ at {:?}: {:?} vs {:?}", stringify!($f), i, i.map(|i| &ra.$f[i]), i.map(|i| &rb.$f[i]));
            }
        )*};
    }
    cmp!(strings, variables, addresses, predicates, labels, samplers, surfaces, vmes, attributes);
    if ra.interface != rb.interface {
        return format!("inputs: {:?} vs {:?}", ra.interface, rb.interface);
    }
    if let (Some(x), Some(y)) = (ra.code.instructions(), rb.code.instructions()) {
        if let Some(i) = x.iter().zip(y).position(|(p, q)| p != q) {
            return format!("instruction {i}: {:?} vs {:?}", x.at(i), y.at(i));
        }
        return format!("instruction counts {} vs {}", x.len(), y.len());
    }
    "elsewhere".into()
}

/// Deterministic xorshift for sweeps and generated objects, so a failure names a
/// reproducible case.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Says that a test skipped, where `cargo test`'s output shows it: libtest hides what
/// a passing test prints with `eprintln!`, not a direct write to stderr.
pub fn skipped(why: std::fmt::Arguments) {
    use std::io::Write;
    let test = std::thread::current().name().unwrap_or("test").to_string();
    let _ = writeln!(std::io::stderr(), "skipped: {test} ({why})");
}
