//! Checks over real binaries: metadata extraction, parse/emit round trip,
//! argument placement from the OpenCL C sources, and a truncation/mutation
//! sweep. Each runs on the checked-in samples in `tests/data` and on the whole
//! corpus at `<workspace>/../shared/corpus/amd`; the corpus runs are skipped
//! with a message when it is absent, unless `CI=true` or `REQUIRE_PEERS=1`.

use gpukit_amd::abi::args::{argument_entries, place_arguments, ArgBuffer, EntryOptions};
use gpukit_amd::cl1::Cl1Binary;
use gpukit_amd::clc::{kernel_signatures, PointerWidth};
use gpukit_amd::container::{detect, BinaryKind};
use gpukit_amd::elf::ElfClass;
use gpukit_amd::metadata::parse_metadata;
use gpukit_amd::metadata::{Entry, MemType};
use std::path::{Path, PathBuf};

mod common;
use common::{corpus, files, meta_dir};

/// A binary and its expected per-kernel metadata texts.
type Expected = (PathBuf, Vec<(String, Vec<u8>)>);

/// CL1 GPU binaries are the files whose `.meta` directory holds only `.txt` files.
fn cl1_binaries(root: &Path) -> Vec<Expected> {
    let mut out = Vec::new();
    for f in files(root) {
        let md = meta_dir(&f);
        let Ok(entries) = std::fs::read_dir(&md) else {
            continue;
        };
        let mut kernels = Vec::new();
        let mut binary_meta = false;
        for e in entries.flatten() {
            let p = e.path();
            match p.extension().and_then(|e| e.to_str()) {
                Some("txt") => kernels.push((
                    p.file_stem().unwrap().to_string_lossy().into_owned(),
                    std::fs::read(&p).unwrap(),
                )),
                _ => binary_meta = true,
            }
        }
        if !binary_meta {
            kernels.sort();
            out.push((f, kernels));
        }
    }
    out
}

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

#[test]
fn metadata_extracted_equals_meta_and_round_trips() {
    check_metadata(&data());
    if let Some(root) = corpus() {
        check_metadata(&root);
    }
}

fn check_metadata(root: &Path) {
    let bins = cl1_binaries(root);
    assert!(!bins.is_empty());
    let (mut files_ok, mut kernels, mut equal, mut exact) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for (path, expected) in &bins {
        let bytes = std::fs::read(path).unwrap();
        let bin = match Cl1Binary::parse(&bytes) {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        files_ok += 1;
        if bin.kernels.len() != expected.len() {
            failures.push(format!(
                "{}: {} kernels, .meta has {}",
                path.display(),
                bin.kernels.len(),
                expected.len()
            ));
        }
        for (name, want) in expected {
            kernels += 1;
            let Some(k) = bin.kernel(name) else {
                failures.push(format!("{}: kernel {name} missing", path.display()));
                continue;
            };
            if k.metadata == want.as_slice() {
                equal += 1;
            } else {
                failures.push(format!(
                    "{}: kernel {name}: metadata differs from .meta",
                    path.display()
                ));
            }
            match parse_metadata(k.metadata) {
                Ok(m) => {
                    // The text kept, and the text the typed lines print.
                    if m.emit() == k.metadata && m.emit_from_entries() == k.metadata {
                        exact += 1;
                    } else {
                        failures.push(format!("{}: kernel {name}: emit differs", path.display()));
                    }
                    let uav_ids = k.inner.uav_ids();
                    for e in m.entries() {
                        if let Entry::Pointer(p) = e {
                            if p.mem_type == MemType::Uav && !uav_ids.contains(&p.buffer) {
                                failures.push(format!(
                                    "{}: kernel {name}: pointer {} uses UAV {} missing from the ATI_UAV note {uav_ids:?}",
                                    path.display(),
                                    p.name,
                                    p.buffer
                                ));
                            }
                        }
                    }
                    for finding in m.check() {
                        failures.push(format!("{}: kernel {name}: {finding}", path.display()));
                    }
                    if m.kernel_name() != Some(name.as_str()) {
                        failures.push(format!(
                            "{}: kernel {name}: ARGSTART names {}",
                            path.display(),
                            m.name
                        ));
                    }
                }
                Err(e) => failures.push(format!("{}: kernel {name}: {e}", path.display())),
            }
        }
    }
    eprintln!(
        "{}: {files_ok}/{} CL1 binaries read, {kernels} kernels, {equal} metadata texts equal .meta, {exact} round-trip byte-exact",
        root.display(),
        bins.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The 32-byte kernel header repeats facts of the metadata: dw3 = hwlocal,
/// dw4 bit 3 = `;memory:64bitABI` (not the ELF class: 1124.2 writes 64-bit
/// binaries without the flag), dw5 = 1. The private size in dw0/dw2 follows
/// `;memory:uavprivate` only loosely (dw0 is often 0, and 14.12 printf
/// kernels carry 640 against a metadata 256), so it is counted, not required.
#[test]
fn kernel_header_agrees_with_metadata() {
    for root in std::iter::once(data()).chain(corpus()) {
        let (mut checked, mut private_agrees, mut failures) = (0, 0, Vec::new());
        for (path, _) in cl1_binaries(&root) {
            let bytes = std::fs::read(&path).unwrap();
            let bin = Cl1Binary::parse(&bytes).unwrap();
            for k in &bin.kernels {
                let Some(h) = &k.header else { continue };
                let m = parse_metadata(k.metadata).unwrap().memory_totals();
                checked += 1;
                if u64::from(h.dwords[2]) == m.uav_private {
                    private_agrees += 1;
                }
                let want = (m.hw_local, m.abi_64bit, 1);
                let got = (u64::from(h.hw_local()), h.is_64bit(), h.dwords[5]);
                if want != got {
                    failures.push(format!(
                        "{}: {}: header {:?}, metadata/container {want:?}",
                        path.display(),
                        k.name,
                        h.dwords
                    ));
                }
            }
        }
        eprintln!(
            "{}: {checked} kernel headers agree on hwlocal/64bitABI; dw2 = uavprivate in {private_agrees}",
            root.display()
        );
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}

/// Which source each CL1 binary was compiled from (file name prefix).
fn source_for(file: &str) -> Option<&'static str> {
    const SOURCES: [(&str, &str); 7] = [
        ("alltypes", "alltypes.cl"),
        ("prginfo1_", "prginfo1.cl"),
        ("prginfo4_", "prginfo4.cl"),
        ("prginfo7_", "prginfo7.cl"),
        ("prginfo8_", "prginfo8.cl"),
        ("structkernel2", "structkernel2.cl"),
        ("samplekernels", "samplekernels.cl"),
    ];
    SOURCES
        .iter()
        .find(|(p, _)| file.starts_with(p))
        .map(|(_, s)| *s)
}

#[test]
fn argument_offsets_from_source_match_metadata() {
    check_arguments(&data());
    if let Some(root) = corpus() {
        check_arguments(&root);
    }
}

fn check_arguments(root: &Path) {
    let (mut binaries, mut kernels, mut args, mut matched) = (0, 0, 0, 0);
    let (mut lines, mut lines_matched, mut pointers, mut access_matched) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for (path, _) in cl1_binaries(root) {
        let fname = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(src) = source_for(&fname) else {
            continue;
        };
        let bytes = std::fs::read(&path).unwrap();
        let bin = Cl1Binary::parse(&bytes).unwrap();
        let width = match bin.class {
            ElfClass::Elf32 => PointerWidth::Bits32,
            ElfClass::Elf64 => PointerWidth::Bits64,
        };
        let source = std::fs::read_to_string(root.join(src)).unwrap();
        let sigs = kernel_signatures(&source, &["__GPU__"], width).unwrap();
        binaries += 1;
        for k in &bin.kernels {
            kernels += 1;
            let Some(sig) = sigs.iter().find(|s| s.name == k.name) else {
                failures.push(format!("{fname}: kernel {} not in {src}", k.name));
                continue;
            };
            let meta = parse_metadata(k.metadata).unwrap();
            let real = meta.arguments();
            // The compiler side: argument lines generated from the signature.
            let constant = match bin
                .driver_version()
                .and_then(|v| v.split('.').next()?.parse::<u32>().ok())
            {
                Some(v) if v < 1348 => MemType::HwConstant,
                _ => MemType::Constant,
            };
            let generated = argument_entries(
                &sig.params,
                EntryOptions {
                    buffer: ArgBuffer::GCN,
                    constant,
                },
            )
            .unwrap();
            let real_lines: Vec<Entry> = meta
                .entries()
                .filter(|e| {
                    matches!(
                        e,
                        Entry::Value(_) | Entry::Pointer(_) | Entry::Image(_) | Entry::Counter(_)
                    )
                })
                .collect();
            for (g, r) in generated.iter().zip(&real_lines) {
                lines += 1;
                if same_fixed_fields(g, r) {
                    lines_matched += 1;
                } else {
                    failures.push(format!(
                        "{fname}: {}: generated {g:?}\n    real {r:?}",
                        k.name
                    ));
                }
                if let (Entry::Pointer(a), Entry::Pointer(b)) = (g, r) {
                    pointers += 1;
                    if a.qualifiers.map(|q| q.access) == b.qualifiers.map(|q| q.access) {
                        access_matched += 1;
                    }
                }
            }
            let placed = place_arguments(
                sig.args.iter().map(|(n, t)| (n.as_str(), t)),
                ArgBuffer::GCN,
            )
            .unwrap();
            if placed.len() != real.len() {
                failures.push(format!(
                    "{fname}: {}: {} args from source, {} in metadata",
                    k.name,
                    placed.len(),
                    real.len()
                ));
                continue;
            }
            for (p, r) in placed.iter().zip(&real) {
                args += 1;
                if p.name == r.name && p.offset == r.offset && p.cb == r.cb {
                    matched += 1;
                } else {
                    failures.push(format!(
                        "{fname}: {}: {} at cb{}[{}], metadata has {} at cb{}[{}]",
                        k.name, p.name, p.cb, p.offset, r.name, r.cb, r.offset
                    ));
                }
            }
        }
    }
    eprintln!(
        "{}: generated argument lines: {lines_matched}/{lines} match on every signature-fixed field; \
         pointer access guessed right for {access_matched}/{pointers}",
        root.display()
    );
    eprintln!("{}: argument placement: {binaries} binaries, {kernels} kernels, {matched}/{args} argument offsets match", root.display());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Compares the fields a signature fixes (see `argument_entries`).
fn same_fixed_fields(g: &Entry, r: &Entry) -> bool {
    match (g, r) {
        (Entry::Value(a), Entry::Value(b)) => a == b,
        (Entry::Image(a), Entry::Image(b)) => a == b,
        (Entry::Counter(a), Entry::Counter(b)) => a == b,
        (Entry::Pointer(a), Entry::Pointer(b)) => {
            a.name == b.name
                && a.data_type == b.data_type
                && a.count == b.count
                && a.cb == b.cb
                && a.offset == b.offset
                && a.mem_type == b.mem_type
                && a.align == b.align
                && (a.mem_type != MemType::HwLocal || a.buffer == b.buffer)
                && a.qualifiers.map(|q| (q.volatile, q.restrict))
                    == b.qualifiers.map(|q| (q.volatile, q.restrict))
        }
        _ => false,
    }
}

#[test]
fn every_corpus_file_reads_or_fails_cleanly() {
    check_read_all(&data());
    if let Some(root) = corpus() {
        check_read_all(&root);
    }
}

fn check_read_all(root: &Path) {
    let (mut ok, mut rejected, mut gpu) = (0, 0, 0);
    for f in files(root) {
        let bytes = std::fs::read(&f).unwrap();
        let kind = detect(&bytes);
        match Cl1Binary::parse(&bytes) {
            Ok(_) => ok += 1,
            Err(e) => {
                assert!(!e.to_string().is_empty());
                // `bad-*` samples are deliberately broken CL1 files.
                let deliberately_bad = f
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("bad-"));
                assert!(
                    deliberately_bad || !matches!(kind, BinaryKind::Cl1Gpu { .. }),
                    "{}: detected as a CL1 GPU binary but not read: {e}",
                    f.display()
                );
                rejected += 1
            }
        }
        if matches!(kind, BinaryKind::Cl1Gpu { .. }) {
            gpu += 1;
        }
    }
    eprintln!("{}: {gpu} files detected as CL1 GPU, {ok} read, {rejected} other files rejected with an error", root.display());
}

/// Truncates every corpus file at many points and flips bytes through it:
/// the reader must return (Ok or Err), never panic.
#[test]
fn truncation_and_mutation_never_panic() {
    sweep(&data());
    if let Some(root) = corpus() {
        sweep(&root);
    }
}

fn sweep(root: &Path) {
    let mut runs = 0usize;
    for f in files(root) {
        let bytes = std::fs::read(&f).unwrap();
        let n = bytes.len();
        let step = (n / 64).max(1);
        for cut in (0..n).step_by(step).chain([n.saturating_sub(1)]) {
            let _ = Cl1Binary::parse(&bytes[..cut]);
            runs += 1;
        }
        let mut m = bytes.clone();
        let mstep = (n / 256).max(1);
        for i in (0..n).step_by(mstep) {
            let old = m[i];
            for v in [0x00, 0xff, old ^ 0x80] {
                m[i] = v;
                if let Ok(bin) = Cl1Binary::parse(&m) {
                    for k in &bin.kernels {
                        if let Ok(md) = parse_metadata(k.metadata) {
                            let _ = md.arguments();
                            let _ = md.emit();
                        }
                        let _ = k.inner.proginfo_summary();
                    }
                }
                runs += 1;
            }
            m[i] = old;
        }
    }
    eprintln!("{runs} truncated/mutated inputs, no panic");
}
