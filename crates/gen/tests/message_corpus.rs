//! Decodes every send (and every LSC message in load/store syntax) of every Gen
//! listing in the corpus (`iga64 -d` text and IGC's `.asm` dumps, Gen9 to XeHPC)
//! and reports which messages decode, which wait for run-time descriptors
//! (`a0.N`), and which do not decode. Undecodable messages must be in the known
//! gaps below (messages the engine does not execute yet). Run with
//! `--nocapture` for the table. Skipped when the corpus is missing, unless
//! `REQUIRE_PEERS=1` or `CI=true`.

use gpukit_gen::message::{decode, descriptors, Descriptor};
use gpukit_iga::read::text::parse_text;
use gpukit_iga::syntax::gen_of;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Messages not executed yet; their decode error says so.
const KNOWN_GAPS: &[&str] = &[
    "is not supported yet",
    "typed LSC messages (tgm) are not supported yet",
    "strided LSC messages are not supported yet",
    "video motion estimation is not supported",
];

fn required() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
        || std::env::var("REQUIRE_PEERS").is_ok_and(|v| v == "1")
}

fn listings(root: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut dirs: Vec<(PathBuf, String)> = ["skl", "icllp", "tgllp", "acm-g10", "pvc"]
        .iter()
        .map(|d| (root.join(d), d.to_string()))
        .collect();
    if let Ok(rd) = std::fs::read_dir(root.join("visaasm")) {
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            dirs.push((e.path(), name));
        }
    }
    for (dir, platform) in dirs {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<PathBuf> = rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "asm"))
            .collect();
        files.sort();
        out.extend(files.into_iter().map(|f| (f, platform.clone())));
    }
    out
}

#[test]
fn every_corpus_send_decodes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/intel");
    if !root.is_dir() {
        assert!(!required(), "corpus missing at {}", root.display());
        eprintln!("skipped: {} not found", root.display());
        return;
    }
    let mut decoded: BTreeMap<String, usize> = BTreeMap::new();
    let mut failed: BTreeMap<String, usize> = BTreeMap::new();
    let (mut files, mut sends, mut runtime) = (0, 0, 0);
    for (path, platform) in listings(&root) {
        let Ok(src) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(listing) = parse_text(&src, Some(&platform)) else {
            continue;
        };
        files += 1;
        let gen = gen_of(&listing.platform);
        for inst in listing.insts() {
            if !inst.is_send() && !inst.is_load_store_syntax() {
                continue;
            }
            sends += 1;
            let (ex, desc) = descriptors(inst);
            let (Descriptor::Imm(desc), ex) = (desc, ex) else {
                runtime += 1;
                continue;
            };
            // A state register (`ss[a0.2]`) is read at run time; its value does not
            // change which message it is.
            let ex = match ex {
                Descriptor::Imm(v) => v,
                Descriptor::Reg(_) => 0,
            };
            let key = |s: &str| format!("{platform}: {s}");
            match decode(inst, gen, desc, ex) {
                Ok(m) => *decoded.entry(key(&m.name)).or_default() += 1,
                Err(e) => {
                    // One row per kind of failure: the message without its descriptor bits.
                    let kind = e.split(" (sfid").next().unwrap_or(&e).to_string();
                    *failed.entry(format!("{platform}: {kind}")).or_default() += 1
                }
            }
        }
    }
    eprintln!("{files} listings, {sends} messages, {runtime} with run-time descriptors");
    eprintln!("decoded:");
    for (k, n) in &decoded {
        eprintln!("  {n:5}  {k}");
    }
    let mut unexpected = Vec::new();
    eprintln!("not decoded:");
    for (k, n) in &failed {
        eprintln!("  {n:5}  {k}");
        if !KNOWN_GAPS.iter().any(|g| k.contains(g)) {
            unexpected.push(k.clone());
        }
    }
    assert!(files > 0, "no listing read under {}", root.display());
    assert!(
        unexpected.is_empty(),
        "undecodable messages outside the known gaps:\n{}",
        unexpected.join("\n")
    );
}
