//! The reader never panics: every truncation and deterministic byte mutations of the
//! fixture program binaries in `tests/data/intel/` either read or fail with an error.

mod derived;

use derived::derived_values;
use std::path::{Path, PathBuf};

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/intel");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "bin"))
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no fixtures in {}", dir.display());
    v
}

#[test]
fn fixtures_read() {
    for f in fixtures() {
        let bytes = std::fs::read(&f).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("truncated") {
            assert!(gpukit_intel::read(&bytes).is_err(), "{name}");
            continue;
        }
        let p = gpukit_intel::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!p.kernels.is_empty(), "{name}");
        for k in &p.kernels {
            assert!(matches!(k.simd_size, 8 | 16 | 32), "{name} {}", k.name);
            assert!(k.gen_code_size > 0, "{name} {}", k.name);
        }
    }
}

#[test]
fn truncations_and_mutations() {
    for f in fixtures() {
        let bytes = std::fs::read(&f).unwrap();
        for len in 0..bytes.len() {
            let _ = gpukit_intel::read(&bytes[..len]);
        }
        // xorshift: deterministic mutations
        let mut state = 0x9E37_79B9_7F4A_7C15u64 ^ bytes.len() as u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..3000 {
            let mut m = bytes.clone();
            for _ in 0..(1 + next() % 4) {
                let at = (next() % m.len() as u64) as usize;
                m[at] = match next() % 3 {
                    0 => next() as u8,
                    1 => 0xFF,
                    _ => 0,
                };
            }
            derived_values(&m);
        }
    }
}

/// Issue 23 I7: a per-thread payload of 4294967295 bytes rounds up to whole GRFs
/// past `u32::MAX` (it wrapped to 0).
#[test]
fn per_thread_size_past_u32() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/intel");
    let bytes = std::fs::read(dir.join("per_thread_4g.sid.bin")).unwrap();
    let program = gpukit_intel::read(&bytes).unwrap();
    let k = program
        .kernels
        .iter()
        .find(|k| k.per_thread.size == u32::MAX)
        .unwrap();
    assert_eq!(k.per_thread_bytes(32), 1 << 32);
    assert_eq!(k.per_thread_bytes(0), u64::from(u32::MAX));
}

/// The entry points of Xe-HP+ kernels (issue 26): a per-thread prolog precedes the
/// cross-thread prolog, so the offset NEO skips to is inside the code, on an
/// instruction boundary; Gen12LP kernels have no prolog. DG2 patch tokens pass the
/// head of the cross-thread data inline (`PassInlineData`), as zebin says in bytes.
#[test]
fn entry_points_of_xe_hp_kernels() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data");
    let read = |name: &str| gpukit_intel::read(&std::fs::read(dir.join(name)).unwrap()).unwrap();
    for name in [
        "visa/run/int_div_dg2.deb12-dg2.bin",
        "visa/run/local_histogram.sid-dg2.bin",
        "visa/run/run_args.pvc-deb12.bin",
        "visa/run/run_args.pvc-sid.bin",
    ] {
        let program = read(name);
        for k in &program.kernels {
            if k.name.starts_with("Intel_Symbol_Table") || k.per_thread.local_id == [false; 3] {
                continue;
            }
            let skip = k.entry.skip_per_thread_data_load as usize;
            assert!(
                skip > 0 && skip < k.gen_code_size && skip % 8 == 0,
                "{name} {}: {skip}",
                k.name
            );
        }
    }
    let dg2 = read("visa/run/int_div_dg2.deb12-dg2.bin");
    assert_eq!(
        dg2.kernels[0].entry.inline_data,
        gpukit_intel::InlineData::OneGrf
    );
    for k in read("intel/trivial.deb12.bin").kernels {
        assert_eq!(k.entry, gpukit_intel::EntryPoints::default());
    }
}
