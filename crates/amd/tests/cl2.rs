//! CL2 binaries over the corpus: every one is read; per kernel the decoded
//! metadata agrees with `<file>.meta/<kernel>.txt` (decoded independently)
//! field by field and its raw bytes equal `<kernel>.bin`; the kernel
//! argument buffer computed from the argument list equals what the binary
//! implies (setup's kernarg size, metadata's virtual offsets); the user SGPR
//! layout computed from the setup's enables matches `COMPUTE_PGM_RSRC2`;
//! and a truncation/mutation sweep never panics.

mod common;

use common::{corpus, files, meta_dir};
use gpukit_amd::abi::cl2::{
    args_from_metadata, decode_sampler_init, from_arg_type, kernarg_layout, kernel_code_properties,
    parse_signature, user_sgpr_count, user_sgpr_layout, virtual_offsets, Cl2Arg, Features,
    LayoutOptions, SgprRules, SETUP_ARGS,
};
use gpukit_amd::cl2::{Cl2Binary, KernelMetadata};
use gpukit_amd::container::{detect, BinaryKind};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn cl2_files(root: &Path) -> Vec<PathBuf> {
    files(root)
        .into_iter()
        .filter(|f| std::fs::read(f).is_ok_and(|b| matches!(detect(&b), BinaryKind::Cl2 { .. })))
        .collect()
}

/// `key=value` pairs of a `.txt` dump: values are `'quoted'`, `[lists]` or
/// bare words; a bare word's `(annotation)` is dropped; argument lines
/// prefix their keys with `arg[N].`.
fn parse_dump(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (prefix, mut rest) = match line.strip_prefix("arg[") {
            Some(r) => {
                let close = r.find("] ").unwrap();
                (format!("arg[{}].", &r[..close]), &r[close + 2..])
            }
            None => (String::new(), line),
        };
        while let Some(eq) = rest.find('=') {
            let key = rest[..eq].trim();
            let v = &rest[eq + 1..];
            let (value, next) = if let Some(q) = v.strip_prefix('\'') {
                // The closing quote is the one followed by a space or the line end.
                let mut end = 0;
                loop {
                    let i = q[end..].find('\'').unwrap() + end;
                    if q[i + 1..].is_empty() || q[i + 1..].starts_with(' ') {
                        end = i;
                        break;
                    }
                    end = i + 1;
                }
                (q[..end].to_owned(), &q[end + 1..])
            } else if v.starts_with('[') {
                let close = v.find(']').unwrap();
                (v[1..close].replace(' ', ""), &v[close + 1..])
            } else {
                let end = v.find(' ').unwrap_or(v.len());
                let word = &v[..end];
                let word = word.split('(').next().unwrap();
                let word = match word.strip_prefix("0x") {
                    Some(h) => u64::from_str_radix(h, 16).unwrap().to_string(),
                    None => word.to_owned(),
                };
                (word, &v[end..])
            };
            out.insert(format!("{prefix}{key}"), value);
            rest = next;
        }
    }
    out
}

/// A `.meta` line without its `(annotation)` groups (outside quotes).
fn strip_annotations(line: &str) -> String {
    let (mut out, mut depth, mut quoted) = (String::new(), 0, false);
    for c in line.chars() {
        match c {
            '\'' if depth == 0 => {
                quoted = !quoted;
                out.push(c);
            }
            '(' if !quoted => depth += 1,
            ')' if !quoted && depth > 0 => depth -= 1,
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// The same keys from gpukit's decoding.
fn render(md: &KernelMetadata) -> BTreeMap<String, String> {
    let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
    let mut m = BTreeMap::new();
    let mut put = |k: String, v: String| {
        m.insert(k, v);
    };
    put("header.size".into(), md.header_size.to_string());
    put("metadataSize".into(), md.metadata_size.to_string());
    put("unknown1".into(), list(&md.unknown1.map(u64::from)));
    put("options".into(), md.options.to_string());
    put("kernelId".into(), md.kernel_id.to_string());
    put("reqdWorkGroupSize".into(), list(&md.reqd_work_group_size));
    put("firstNameLength".into(), md.first_name_length.to_string());
    put("secondNameLength".into(), md.second_name_length.to_string());
    put("pipesUsage".into(), md.pipes_usage.to_string());
    put("argsNum".into(), md.args_num.to_string());
    if let Some(h) = md.work_group_size_hint {
        put("workGroupSizeHint".into(), list(&h));
    }
    if let Some(l) = md.vec_type_hint_length {
        put("vecTypeHintLength".into(), l.to_string());
    }
    put("name1".into(), md.name1.clone());
    put("name2".into(), md.name2.clone());
    if let Some(v) = &md.vec_type_hint {
        put("vecTypeHint".into(), v.clone());
    }
    for (i, a) in md.args.iter().enumerate() {
        let p = format!("arg[{i}].");
        let fields: [(&str, String); 16] = [
            ("name", a.name.clone()),
            ("type", a.type_name.clone()),
            ("entrySize", a.entry_size.to_string()),
            (
                "vecLen|resId|structSize",
                a.vec_len_or_res_id_or_struct_size.to_string(),
            ),
            ("unknown3", a.unknown3.to_string()),
            ("argOffset", a.arg_offset.to_string()),
            ("argType", a.arg_type.to_string()),
            ("ptrAlignment", a.ptr_alignment.to_string()),
            ("ptrType", a.ptr_type.to_string()),
            ("ptrSpace", a.ptr_space.to_string()),
            ("isPointerOrPipe", a.is_pointer_or_pipe.to_string()),
            ("volatile", a.volatile.to_string()),
            ("restrict", a.restrict.to_string()),
            ("pipe", a.pipe.to_string()),
            ("kindOfType", a.kind_of_type.to_string()),
            ("isConst", a.is_const.to_string()),
        ];
        for (k, v) in fields {
            put(format!("{p}{k}"), v);
        }
    }
    m
}

#[test]
fn every_cl2_binary_is_read_and_metadata_agrees_with_meta() {
    let Some(root) = corpus() else { return };
    let bins = cl2_files(&root);
    assert!(!bins.is_empty());
    let (mut read, mut kernels, mut fields, mut raw_equal, mut dumps_equal) = (0, 0, 0usize, 0, 0);
    let mut drivers = BTreeMap::new();
    let mut failures = Vec::new();
    // The README's table gives CLRX's driver class per file (`| `f` | origin | format | 191205 (...`).
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap_or_default();
    let readme_driver = |rel: &str| -> Option<u32> {
        let line = readme
            .lines()
            .find(|l| l.starts_with(&format!("| `{rel}` |")))?;
        line.split('|')
            .nth(4)?
            .split_whitespace()
            .next()?
            .parse()
            .ok()
    };
    let mut drivers_checked = 0;
    for path in &bins {
        let bytes = std::fs::read(path).unwrap();
        let bin = match Cl2Binary::parse(&bytes) {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        read += 1;
        let rel = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if let Some(want) = readme_driver(&rel) {
            drivers_checked += 1;
            if want != bin.driver.number() {
                failures.push(format!(
                    "{rel}: driver {} but the README says {want}",
                    bin.driver.number()
                ));
            }
        }
        *drivers.entry(bin.driver.describe()).or_insert(0) += 1;
        if bin.device().map(|d| d.name) != Some("Bonaire") {
            failures.push(format!("{}: device {:?}", path.display(), bin.device()));
        }
        if bin
            .acl_version
            .as_deref()
            .is_none_or(|a| !a.starts_with("AMD-COMP-LIB"))
        {
            failures.push(format!("{}: acl {:?}", path.display(), bin.acl_version));
        }
        let md = meta_dir(path);
        let mut expected: Vec<String> = std::fs::read_dir(&md)
            .map(|d| {
                d.flatten()
                    .filter_map(|e| {
                        let p = e.path();
                        (p.extension()? == "txt")
                            .then(|| p.file_stem().unwrap().to_string_lossy().into_owned())
                    })
                    .collect()
            })
            .unwrap_or_default();
        expected.sort();
        let mut got: Vec<String> = bin.kernels.iter().map(|k| k.name.clone()).collect();
        got.sort();
        if got != expected {
            failures.push(format!(
                "{}: kernels {got:?}, .meta has {expected:?}",
                path.display()
            ));
        }
        for k in &bin.kernels {
            kernels += 1;
            if k.code.is_none() {
                failures.push(format!(
                    "{}: {}: no setup/code found",
                    path.display(),
                    k.name
                ));
            }
            if let Ok(raw) = std::fs::read(md.join(format!("{}.bin", k.name))) {
                if raw == k.metadata_bytes {
                    raw_equal += 1;
                } else {
                    failures.push(format!(
                        "{}: {}: raw metadata differs from .bin",
                        path.display(),
                        k.name
                    ));
                }
            }
            let Ok(text) = std::fs::read_to_string(md.join(format!("{}.txt", k.name))) else {
                continue;
            };
            let want = parse_dump(&text);
            let have = render(&k.metadata);
            // gpukit's dump is the .meta text without its comment line and annotations.
            let plain: String = text
                .lines()
                .filter(|l| !l.starts_with('#'))
                .map(|l| strip_annotations(l) + "\n")
                .collect();
            if k.metadata.dump() == plain {
                dumps_equal += 1;
            } else {
                failures.push(format!(
                    "{}: {}: dump differs from the .meta text",
                    path.display(),
                    k.name
                ));
            }
            for (key, v) in &want {
                match have.get(key) {
                    Some(h) if h == v => fields += 1,
                    other => failures.push(format!(
                        "{}: {}: {key}: .meta says {v:?}, gpukit {other:?}",
                        path.display(),
                        k.name
                    )),
                }
            }
            for key in have.keys().filter(|k| !want.contains_key(*k)) {
                failures.push(format!(
                    "{}: {}: gpukit has {key}, .meta does not",
                    path.display(),
                    k.name
                ));
            }
        }
    }
    eprintln!(
        "{read}/{} CL2 binaries read ({drivers:?}; driver class equals the README's for {drivers_checked}), {kernels} kernels, {fields} metadata fields agree with .meta, {raw_equal} raw metadata blocks equal .bin, {dumps_equal} dumps equal the .meta text without annotations",
        bins.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// For every CL2 kernel, the argument list from its metadata gives a
/// kernel argument buffer whose size equals the setup's kernarg size, and
/// virtual offsets equal to the metadata's `argOffset`; the user SGPRs the
/// setup enables add up to `COMPUTE_PGM_RSRC2.USER_SGPR`, and the enables
/// are the ones a feature set produces.
#[test]
fn kernarg_layout_and_sgprs_match_the_binaries() {
    let Some(root) = corpus() else { return };
    let (mut kernels, mut sizes, mut offsets, mut sgprs, mut clrx_offsets, mut typed) =
        (0, 0, 0usize, 0, 0, 0);
    let mut failures = Vec::new();
    let feature_sets: Vec<u16> = (0..16u8)
        .map(|m| {
            let f = Features {
                use_setup: m & 1 != 0,
                use_args: m & 2 != 0,
                use_enqueue: m & 4 != 0,
                use_generic: m & 8 != 0,
            };
            kernel_code_properties(f, SgprRules::Gcn)
        })
        .collect();
    for path in cl2_files(&root) {
        let bytes = std::fs::read(&path).unwrap();
        let bin = Cl2Binary::parse(&bytes).unwrap();
        for k in &bin.kernels {
            let Some(code) = &k.code else { continue };
            kernels += 1;
            let at = format!("{}: {}", path.display(), k.name);
            let args = match args_from_metadata(&k.metadata) {
                Ok(a) => a,
                Err(e) => {
                    failures.push(format!("{at}: {e}"));
                    continue;
                }
            };
            // Where the type name is an OpenCL scalar or vector, the element
            // size read from argType must be that type's. Device-side enqueue
            // block kernels flatten their context struct into arguments whose
            // type names are the fields' declared types, not what is passed
            // (`pad6` named size_t holds a char); argType is what the
            // kernarg size above agrees with, so they are skipped here.
            let block = k.name.starts_with("__amd_blocks_func");
            for ((_, a), e) in args.iter().zip(&k.metadata.args).skip(6).filter(|_| !block) {
                if let (Cl2Arg::Value { elem, .. }, Ok(named)) =
                    (a, parse_signature(&e.type_name, bin.bits64()))
                {
                    if let [(_, Cl2Arg::Value { elem: want, .. })] = named.as_slice() {
                        typed += 1;
                        if want != elem {
                            failures.push(format!(
                                "{at}: `{}` is {}, argType {} gives {elem} bytes",
                                e.name, e.type_name, e.arg_type
                            ));
                        }
                    }
                }
            }
            let names: Vec<&str> = args.iter().take(6).map(|(n, _)| n.as_str()).collect();
            if names != SETUP_ARGS {
                failures.push(format!("{at}: first arguments {names:?}"));
                continue;
            }
            let options = LayoutOptions {
                bits64: bin.bits64(),
                new_layout: bin.driver.new_layout(),
            };
            let layout = kernarg_layout(&args[6..], options).unwrap();
            // The setup arguments computed must be the metadata's own.
            if layout.slots.iter().zip(&args).any(|(s, (_, a))| {
                s.arg != *a && !matches!((s.arg, a), (Cl2Arg::Value { .. }, Cl2Arg::Value { .. }))
            }) {
                failures.push(format!("{at}: setup arguments differ"));
            }
            if layout.size == code.setup.kernarg_size {
                sizes += 1;
            } else {
                failures.push(format!(
                    "{at}: kernarg size {} computed, setup says {} ({} args)",
                    layout.size,
                    code.setup.kernarg_size,
                    args.len()
                ));
            }
            let with_sizes: Vec<(Cl2Arg, u32)> = args
                .iter()
                .zip(&k.metadata.args)
                .map(|((_, a), e)| (*a, e.vec_len_or_res_id_or_struct_size))
                .collect();
            let want: Vec<u32> = k.metadata.args.iter().map(|e| e.arg_offset).collect();
            let got = virtual_offsets(&with_sizes, options.new_layout);
            if got == want {
                offsets += want.len();
            } else if path.extension().is_some_and(|e| e == "reconf") {
                // CLRX wrote this metadata (README: `.reconf`), with vec3 as vec4 on 15.7 too.
                clrx_offsets += 1;
            } else {
                failures.push(format!("{at}: virtual offsets {got:?}, metadata {want:?}"));
            }
            let props = code.setup.kernel_code_properties;
            let layout = user_sgpr_layout(props);
            if user_sgpr_count(&layout) == code.setup.user_sgprs() && feature_sets.contains(&props)
            {
                sgprs += 1;
            } else {
                failures.push(format!(
                    "{at}: properties {props:#x} give {} user SGPRs, rsrc2 says {}",
                    user_sgpr_count(&layout),
                    code.setup.user_sgprs()
                ));
            }
        }
    }
    eprintln!(
        "{kernels} kernels: kernarg size equal to the setup's for {sizes}, {offsets} virtual argument offsets equal to argOffset (kernels whose CLRX-written .reconf metadata uses CLRX's rule instead: {clrx_offsets}), user SGPR layout equal to rsrc2 for {sgprs}, {typed} value arguments' element size equal to their type name's"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// alltypes.cl is the source of the alltypes CL2 binaries: its signature,
/// read by gpukit, gives the metadata's argument kinds and the setup's size.
#[test]
fn alltypes_signature_from_source_matches_binaries() {
    let Some(root) = corpus() else { return };
    let src = std::fs::read_to_string(root.join("alltypes.cl")).unwrap();
    let mut checked = 0;
    for file in [
        "alltypes-15_7.clo",
        "alltypes-15_11.clo",
        "cl2/alltypes.clo.regen",
        "cl2/alltypes-15_7.clo.regen",
    ] {
        let bytes = std::fs::read(root.join(file)).unwrap();
        let bin = Cl2Binary::parse(&bytes).unwrap();
        let width = if bin.bits64() {
            gpukit_amd::clc::PointerWidth::Bits64
        } else {
            gpukit_amd::clc::PointerWidth::Bits32
        };
        let sigs = gpukit_amd::clc::kernel_signatures(&src, &[], width).unwrap();
        for k in &bin.kernels {
            let sig = sigs.iter().find(|s| s.name == k.name).unwrap();
            let from_source: Vec<(String, Cl2Arg)> = sig
                .params
                .iter()
                .map(|p| (p.name.clone(), from_arg_type(&p.ty).unwrap()))
                .collect();
            let from_meta = args_from_metadata(&k.metadata).unwrap();
            let options = LayoutOptions {
                bits64: bin.bits64(),
                new_layout: bin.driver.new_layout(),
            };
            // 15.11+ metadata records vec3 with vector length 4.
            let kinds = |v: &[(String, Cl2Arg)]| {
                v.iter()
                    .map(|(_, a)| match *a {
                        Cl2Arg::Value { elem, count: 3 } if options.new_layout => {
                            Cl2Arg::Value { elem, count: 4 }
                        }
                        a => a,
                    })
                    .collect::<Vec<_>>()
            };
            assert_eq!(
                kinds(&from_source),
                kinds(&from_meta[6..]),
                "{file}: {}",
                k.name
            );
            let l = kernarg_layout(&from_source, options).unwrap();
            assert_eq!(
                l.size,
                k.code.as_ref().unwrap().setup.kernarg_size,
                "{file}: {}",
                k.name
            );
            checked += 1;
        }
    }
    eprintln!("{checked} alltypes kernels: signature from source = metadata argument kinds, kernarg size = setup");
}

/// Every `.hsaimage_samplerinit` entry in the corpus has the 0x10008 tag and
/// decodes to a valid sampler.
#[test]
fn sampler_init_entries_decode() {
    let Some(root) = corpus() else { return };
    let mut n = 0;
    for path in cl2_files(&root) {
        let bytes = std::fs::read(&path).unwrap();
        let bin = Cl2Binary::parse(&bytes).unwrap();
        let Some(inner) = &bin.inner else { continue };
        for s in decode_sampler_init(inner.sampler_init) {
            assert_eq!(s.tag, 0x10008, "{}", path.display());
            assert!(
                s.normalized_coordinates.is_some() && s.filter.is_some() && s.addressing.is_some(),
                "{}: {s:?}",
                path.display()
            );
            n += 1;
        }
    }
    eprintln!("{n} sampler init entries decode");
    assert!(n > 0);
}

/// Everything a consumer would call on a parsed binary.
fn exercise(bin: &Cl2Binary<'_>) {
    let _ = bin.device();
    if let Some(inner) = &bin.inner {
        let _ = inner.isa_version();
        let _ = decode_sampler_init(inner.sampler_init);
    }
    for k in &bin.kernels {
        if let Ok(args) = args_from_metadata(&k.metadata) {
            let options = LayoutOptions {
                bits64: bin.bits64(),
                new_layout: bin.driver.new_layout(),
            };
            let _ = kernarg_layout(args.get(6..).unwrap_or(&[]), options);
            let sizes: Vec<(Cl2Arg, u32)> = args
                .iter()
                .zip(&k.metadata.args)
                .map(|((_, a), e)| (*a, e.vec_len_or_res_id_or_struct_size))
                .collect();
            let _ = virtual_offsets(&sizes, options.new_layout);
        }
        if let Some(code) = &k.code {
            let _ = user_sgpr_layout(code.setup.kernel_code_properties);
        }
    }
}

/// Truncates every CL2 file at many points and overwrites bytes through it
/// (densely over each kernel's metadata, where most structure is): the
/// reader returns Ok or Err, never panics.
#[test]
fn truncation_and_mutation_never_panic() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut roots = vec![data];
    roots.extend(corpus());
    let (mut files_swept, mut runs, mut ok) = (0, 0usize, 0usize);
    for root in roots {
        for path in cl2_files(&root) {
            files_swept += 1;
            let bytes = std::fs::read(&path).unwrap();
            let n = bytes.len();
            for cut in (0..n).step_by((n / 64).max(1)).chain([n.saturating_sub(1)]) {
                if let Ok(b) = Cl2Binary::parse(&bytes[..cut]) {
                    exercise(&b);
                    ok += 1;
                }
                runs += 1;
            }
            // Metadata ranges of the valid file, to mutate densely.
            let bin = Cl2Binary::parse(&bytes).unwrap();
            let mut spots: Vec<usize> = (0..n).step_by((n / 256).max(1)).collect();
            for k in &bin.kernels {
                let start = k.metadata_bytes.as_ptr() as usize - bytes.as_ptr() as usize;
                let stride = if root.ends_with("tests/data") { 1 } else { 7 };
                spots.extend((start..start + k.metadata_bytes.len().min(0x200)).step_by(stride));
            }
            let mut m = bytes.clone();
            for i in spots {
                let old = m[i];
                for v in [0x00, 0xff, old ^ 0x80, old.wrapping_add(1)] {
                    m[i] = v;
                    if let Ok(b) = Cl2Binary::parse(&m) {
                        exercise(&b);
                        ok += 1;
                    }
                    runs += 1;
                }
                m[i] = old;
            }
        }
    }
    eprintln!(
        "{files_swept} CL2 files, {runs} truncated/mutated inputs ({ok} still parsed), no panic"
    );
}

/// Relocations of the inner ELF: text relocations patch the low/high 32 bits
/// of a data address inside `.hsatext`; readonly-data relocations (one per
/// sampler, type 4) point into `.hsadata_readonly_agent`.
#[test]
fn inner_relocations_are_consistent() {
    let Some(root) = corpus() else { return };
    let (mut text, mut data) = (0, 0);
    for path in cl2_files(&root) {
        let bytes = std::fs::read(&path).unwrap();
        let bin = Cl2Binary::parse(&bytes).unwrap();
        let Some(inner) = &bin.inner else { continue };
        let text_len = inner
            .elf
            .section_by_name(".hsatext")
            .map_or(0, |s| s.data.len() as u64);
        for r in &inner.text_relocations {
            assert!(
                matches!(r.kind, 1 | 2) && r.offset + 4 <= text_len,
                "{}: {r:?}",
                path.display()
            );
            assert!(r.symbol_name.is_some(), "{}: {r:?}", path.display());
            text += 1;
        }
        for r in &inner.data_relocations {
            assert!(
                r.kind == 4 && r.offset + 8 <= inner.readonly_data.len() as u64,
                "{}: {r:?}",
                path.display()
            );
            data += 1;
        }
        assert_eq!(
            inner.data_relocations.len(),
            inner.sampler_init.len() / 8,
            "{}",
            path.display()
        );
    }
    eprintln!("{text} text relocations and {data} sampler relocations consistent");
}

/// Length in dwords of the GCN 1.1 (gfx7) instruction at `code[i]`, with its
/// literal; `None` for an encoding this walker does not know.
fn gfx7_len(code: &[u32], i: usize) -> Option<usize> {
    let w = code[i];
    let lit = |src: u32| if src == 255 { 2 } else { 1 };
    Some(match w >> 23 {
        0b1_0111_1101 => lit(w & 0xff),                           // SOP1
        0b1_0111_1110 => lit(w & 0xff).max(lit((w >> 8) & 0xff)), // SOPC
        0b1_0111_1111 => 1,                                       // SOPP
        _ if w >> 28 == 0b1011 => 1 + usize::from((w >> 23) & 0x1f == 21), // SOPK (s_setreg_imm32_b32)
        _ if w >> 30 == 0b10 => lit(w & 0xff).max(lit((w >> 8) & 0xff)),   // SOP2
        _ if w >> 27 == 0b11000 => 1 + usize::from(w & 0x100 == 0 && w & 0xff == 255), // SMRD
        _ if w >> 25 == 0b0111111 || w >> 25 == 0b0111110 => lit(w & 0x1ff), // VOP1, VOPC
        _ if w >> 31 == 0 => {
            let op = (w >> 25) & 0x3f;
            if op == 32 || op == 33 {
                2
            } else {
                lit(w & 0x1ff)
            } // VOP2 (v_madmk/v_madak)
        }
        _ => match w >> 26 {
            0b110010 => 1, // VINTRP
            0b110100 | 0b110110 | 0b111000 | 0b111010 | 0b111100 | 0b111110 | 0b110111 => 2,
            _ => return None,
        },
    })
}

/// The code's scalar loads through the argument buffer pointer must start
/// inside an argument of the computed layout (never in padding or past the
/// end): the offsets the compiler baked into the code agree with gpukit's.
/// Walks GCN 1.1 code (every corpus binary is Bonaire) up to `s_endpgm` or
/// the first scalar write to the pointer's registers.
#[test]
fn kernarg_loads_in_code_land_on_arguments() {
    let Some(root) = corpus() else { return };
    let (mut kernels, mut loads, mut at_start, mut walked_all, mut unknown) = (0, 0, 0, 0, 0);
    let mut failures = Vec::new();
    for path in cl2_files(&root) {
        let bytes = std::fs::read(&path).unwrap();
        let bin = Cl2Binary::parse(&bytes).unwrap();
        for k in &bin.kernels {
            let Some(code) = &k.code else { continue };
            let Some(ptr) = user_sgpr_layout(code.setup.kernel_code_properties)
                .into_iter()
                .find(|g| g.hsa_name == "kernarg_segment_ptr")
            else {
                continue;
            };
            let args = args_from_metadata(&k.metadata).unwrap();
            let options = LayoutOptions {
                bits64: bin.bits64(),
                new_layout: bin.driver.new_layout(),
            };
            let layout = kernarg_layout(&args[6..], options).unwrap();
            kernels += 1;
            let words: Vec<u32> = code
                .code
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            let mut i = 0;
            let writes_ptr = |sdst: u32, n: u32| sdst < ptr.first + 2 && sdst + n > ptr.first;
            let mut finished = false;
            while i < words.len() {
                let w = words[i];
                let Some(len) = gfx7_len(&words, i) else {
                    unknown += 1;
                    break;
                };
                if w >> 23 == 0b1_0111_1111 && (w >> 16) & 0x7f == 1 {
                    finished = true; // s_endpgm
                    break;
                }
                if w >> 27 == 0b11000 {
                    let op = (w >> 22) & 0x1f;
                    let sdst = (w >> 15) & 0x7f;
                    let sbase = ((w >> 9) & 0x3f) * 2;
                    if op <= 4 && sbase == ptr.first && w & 0x100 != 0 {
                        let off = (w & 0xff) * 4;
                        let size = 4u32 << op;
                        loads += 1;
                        match layout.slots.iter().find(|s| off >= s.offset && off < s.offset + s.size) {
                            Some(s) if off + size <= layout.size.max(s.offset + s.size) => {
                                at_start += usize::from(s.offset == off);
                            }
                            _ => failures.push(format!(
                                "{}: {}: s_load of {size} bytes at kernarg byte {off} is outside every argument ({:?})",
                                path.display(),
                                k.name,
                                layout.slots.iter().map(|s| (s.offset, s.size)).collect::<Vec<_>>()
                            )),
                        }
                    }
                    if op <= 4 && writes_ptr(sdst, 1 << op) {
                        break;
                    }
                } else if (w >> 30 == 0b10) && w >> 23 != 0b1_0111_1111 && w >> 23 != 0b1_0111_1110
                {
                    // SOP1/SOP2/SOPK write SDST (bits 22:16); two registers at most matter here.
                    if writes_ptr((w >> 16) & 0x7f, 2) {
                        break;
                    }
                }
                i += len;
            }
            walked_all += usize::from(finished);
        }
    }
    eprintln!(
        "{kernels} kernels with an argument pointer ({walked_all} walked to s_endpgm, {unknown} stopped at an encoding the walker does not know, the rest at a write to the pointer): {loads} s_load through it, all inside an argument, {at_start} at an argument's first byte"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(loads > 0);
}
