//! Intel program binaries (issue 23, I1-I6): zebin and patch-token inputs built here,
//! in shapes of their own, each run at two sizes under the budget of `hostile.rs`.
//! Every zebin kernel has its `.text.<name>` section, as NEO requires, so the
//! reader's Gen-code lookup is part of what is measured.

use super::{two_sizes, OK};

const SHT_PROGBITS: u32 = 1;
const SHT_SYMTAB: u32 = 2;
const SHT_STRTAB: u32 = 3;
const SHT_RELA: u32 = 4;
const SHT_ZEBIN_ZEINFO: u32 = 0xff00_0011;
/// `EM_INTELGT`.
const MACHINE: u16 = 205;

/// One ELF64 section: `name` is its offset in the section-name table.
struct Sec64 {
    name: u32,
    kind: u32,
    data: Vec<u8>,
    link: u32,
    info: u32,
    entsize: u64,
}

impl Sec64 {
    fn new(name: u32, kind: u32, data: Vec<u8>) -> Sec64 {
        Sec64 {
            name,
            kind,
            data,
            link: 0,
            info: 0,
            entsize: 0,
        }
    }
}

/// A little-endian ELF64 image: the null section, `sections`, then the
/// section-name table `names` (the last section, `e_shstrndx`).
fn elf64(mut sections: Vec<Sec64>, names: Vec<u8>) -> Vec<u8> {
    sections.push(Sec64::new(0, SHT_STRTAB, names));
    let mut out = vec![0u8; 64];
    let mut offsets = Vec::new();
    for s in &sections {
        while out.len() % 8 != 0 {
            out.push(0);
        }
        offsets.push(out.len() as u64);
        out.extend_from_slice(&s.data);
    }
    while out.len() % 8 != 0 {
        out.push(0);
    }
    let shoff = out.len() as u64;
    out.extend_from_slice(&[0u8; 64]);
    for (s, &off) in sections.iter().zip(&offsets) {
        out.extend_from_slice(&s.name.to_le_bytes());
        out.extend_from_slice(&s.kind.to_le_bytes());
        for v in [0u64, 0, off, s.data.len() as u64] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&s.link.to_le_bytes());
        out.extend_from_slice(&s.info.to_le_bytes());
        out.extend_from_slice(&8u64.to_le_bytes());
        out.extend_from_slice(&s.entsize.to_le_bytes());
    }
    let count = sections.len() + 1;
    assert!(count < 0xff00, "too many sections for e_shnum");
    out[..4].copy_from_slice(b"\x7fELF");
    out[4] = 2; // ELFCLASS64
    out[5] = 1; // little endian
    out[6] = 1; // EV_CURRENT
    out[16..18].copy_from_slice(&1u16.to_le_bytes()); // ET_REL
    out[18..20].copy_from_slice(&MACHINE.to_le_bytes());
    out[20..24].copy_from_slice(&1u32.to_le_bytes());
    out[40..48].copy_from_slice(&shoff.to_le_bytes());
    out[52..54].copy_from_slice(&64u16.to_le_bytes()); // e_ehsize
    out[58..60].copy_from_slice(&64u16.to_le_bytes()); // e_shentsize
    out[60..62].copy_from_slice(&(count as u16).to_le_bytes());
    out[62..64].copy_from_slice(&((count - 1) as u16).to_le_bytes());
    out
}

/// A symbol table section (`entries` after the null symbol) whose names are in
/// section `strtab`.
fn symtab(name: u32, entries: &[u8], strtab: u32) -> Sec64 {
    let mut data = vec![0u8; 24];
    data.extend_from_slice(entries);
    Sec64 {
        link: strtab,
        info: 1,
        entsize: 24,
        ..Sec64::new(name, SHT_SYMTAB, data)
    }
}

/// A zebin of one kernel `k` (with its `.text.k`) described by `yaml`.
fn one_kernel_zebin(yaml: String) -> Vec<u8> {
    let mut names = Names::default();
    let code = names.add(b".text.k");
    let info = names.add(b".ze_info");
    elf64(
        vec![
            Sec64::new(code, SHT_PROGBITS, vec![0; 16]),
            Sec64::new(info, SHT_ZEBIN_ZEINFO, yaml.into_bytes()),
        ],
        names.0,
    )
}

/// A section-name table being written: `add` returns a name's offset.
#[derive(Default)]
struct Names(Vec<u8>);

impl Names {
    fn add(&mut self, name: &[u8]) -> u32 {
        if self.0.is_empty() {
            self.0.push(0);
        }
        let at = self.0.len() as u32;
        self.0.extend_from_slice(name);
        self.0.push(0);
        at
    }
}

/// One kernel of `.ze_info`, with a little of everything the reader looks at.
fn ze_kernel(yaml: &mut String, name: &str) {
    yaml.push_str(&format!(
        "  - name: {name}\n    execution_env:\n      simd_size: 16\n    payload_arguments:\n      - arg_type: arg_bypointer\n        offset: 0\n        size: 8\n        arg_index: 0\n        addrmode: stateless\n"
    ));
}

/// A zebin of `kernels` kernels (names `k<i>`, each with its `.text.k<i>`), the
/// `.ze_info` text `extra` after them.
fn zebin(kernels: usize, extra: &str) -> Vec<u8> {
    let mut names = Names::default();
    let mut sections = Vec::new();
    let mut yaml = String::from("version: '1.40'\nkernels:\n");
    for i in 0..kernels {
        ze_kernel(&mut yaml, &format!("k{i}"));
        let name = names.add(format!(".text.k{i}").as_bytes());
        sections.push(Sec64::new(name, SHT_PROGBITS, vec![0; 16]));
    }
    yaml.push_str(extra);
    let info = names.add(b".ze_info");
    sections.push(Sec64::new(info, SHT_ZEBIN_ZEINFO, yaml.into_bytes()));
    elf64(sections, names.0)
}

/// I1: every kernel described again in `kernels_misc_info` (found by name), in
/// reverse order, each with its arguments (found by index).
#[test]
fn intel_zebin_misc_info_per_kernel() {
    let make = |n: usize| {
        let mut misc = String::from("kernels_misc_info:\n");
        for i in (0..n).rev() {
            misc.push_str(&format!(
                "  - name: k{i}\n    args_info:\n      - index: 0\n        address_qualifier: __global\n      - index: 1\n        address_qualifier: __global\n"
            ));
        }
        zebin(n, &misc)
    };
    two_sizes(
        "intel-zebin-misc-info",
        make,
        [2_000, 16_000],
        &["intel", "info", "{}"],
        OK,
    );
}

/// I2: many kernels, each with its `.text` section (found by name).
#[test]
fn intel_zebin_text_sections() {
    two_sizes(
        "intel-zebin-text-sections",
        |n| zebin(n, ""),
        [2_000, 16_000],
        &["intel", "info", "{}"],
        OK,
    );
}

/// I2/I3 by shared names: `.text.` sections whose names are the tails of one
/// string `.text..text. ... .text.k` or the whole of it, kernels named by the
/// longest and shortest tails, and symbols in a section named by that string.
#[test]
fn intel_zebin_sections_sharing_one_name() {
    let make = |n: usize| {
        let mut names = Names::default();
        let long = ".text.".repeat(n) + "k";
        let at = names.add(long.as_bytes());
        // Sections named by each tail, then as many by the whole string.
        let mut sections: Vec<Sec64> = (0..n)
            .map(|i| at + 6 * i as u32)
            .chain(std::iter::repeat_n(at, n))
            .map(|name| Sec64::new(name, SHT_PROGBITS, vec![0; 8]))
            .collect();
        let mut yaml = String::from("version: '1.40'\nkernels:\n");
        ze_kernel(&mut yaml, "k");
        ze_kernel(&mut yaml, &long[6..]);
        let info = names.add(b".ze_info");
        sections.push(Sec64::new(info, SHT_ZEBIN_ZEINFO, yaml.into_bytes()));
        // Symbols in section 1 (named by the long string), names from `.strtab`.
        let mut symbols = Vec::new();
        for i in 0..n {
            let mut s = [0u8; 24];
            s[..4].copy_from_slice(&1u32.to_le_bytes());
            s[4] = 1; // STT_OBJECT, STB_LOCAL
            s[6..8].copy_from_slice(&1u16.to_le_bytes());
            s[8..16].copy_from_slice(&(i as u64).to_le_bytes());
            symbols.extend_from_slice(&s);
        }
        let strtab = names.add(b".strtab");
        let symtab_name = names.add(b".symtab");
        let strtab_index = sections.len() as u32 + 2; // after the symbol table
        sections.push(symtab(symtab_name, &symbols, strtab_index));
        sections.push(Sec64::new(strtab, SHT_STRTAB, b"\0s\0".to_vec()));
        elf64(sections, names.0)
    };
    two_sizes(
        "intel-zebin-shared-section-name",
        make,
        [2_000, 16_000],
        &["intel", "info", "{}"],
        OK,
    );
}

/// I3/I4: data symbols and `R_ZE_SYM_ADDR` relocations in `.data.global`, the
/// symbols in a section with a long name.
#[test]
fn intel_zebin_symbols_and_relocations() {
    let make = |n: usize| {
        let mut names = Names::default();
        let mut sections = Vec::new();
        let mut yaml = String::from("version: '1.40'\nkernels:\n");
        ze_kernel(&mut yaml, "k");
        let text = names.add(b".text.k");
        sections.push(Sec64::new(text, SHT_PROGBITS, vec![0; 16]));
        let info = names.add(b".ze_info");
        sections.push(Sec64::new(info, SHT_ZEBIN_ZEINFO, yaml.into_bytes()));
        let global = names.add(b".data.global");
        sections.push(Sec64::new(global, SHT_PROGBITS, vec![0; 8 * n])); // index 3
        let long = names.add(&vec![b'x'; 8 * n]);
        sections.push(Sec64::new(long, SHT_PROGBITS, vec![0; 8])); // index 4
        let mut strtab = vec![0u8];
        let mut symbols = Vec::new();
        for i in 0..n {
            let name = strtab.len() as u32;
            strtab.extend_from_slice(format!("g{i}\0").as_bytes());
            let mut s = [0u8; 24];
            s[..4].copy_from_slice(&name.to_le_bytes());
            s[4] = 0x11; // STT_OBJECT, STB_GLOBAL
            let section: u16 = if i % 2 == 0 { 3 } else { 4 };
            s[6..8].copy_from_slice(&section.to_le_bytes());
            s[8..16].copy_from_slice(&(i as u64 % 8).to_le_bytes());
            symbols.extend_from_slice(&s);
        }
        let mut rela = Vec::new();
        for i in 0..n {
            rela.extend_from_slice(&(8 * i as u64).to_le_bytes());
            rela.extend_from_slice(&((((i + 1) as u64) << 32) | 1).to_le_bytes());
            rela.extend_from_slice(&0u64.to_le_bytes());
        }
        let symtab_name = names.add(b".symtab");
        let strtab_name = names.add(b".strtab");
        let rela_name = names.add(b".rela.data.global");
        sections.push(symtab(symtab_name, &symbols, 6)); // index 5
        sections.push(Sec64::new(strtab_name, SHT_STRTAB, strtab)); // index 6
        sections.push(Sec64 {
            link: 5,
            info: 3,
            entsize: 24,
            ..Sec64::new(rela_name, SHT_RELA, rela)
        });
        elf64(sections, names.0)
    };
    two_sizes(
        "intel-zebin-symbols-relocations",
        make,
        [4_000, 32_000],
        &["intel", "info", "{}"],
        OK,
    );
}

/// I5 (zebin): one kernel with many by-value and stateful arguments, pieces in
/// descending index order, and a binding table entry for each.
#[test]
fn intel_zebin_many_arguments() {
    let make = |n: usize| {
        let mut yaml = String::from(
            "version: '1.40'\nkernels:\n  - name: k\n    execution_env:\n      simd_size: 8\n    payload_arguments:\n",
        );
        for i in (0..n).rev() {
            yaml.push_str(&format!(
                "      - arg_type: arg_byvalue\n        offset: {}\n        size: 4\n        arg_index: {i}\n",
                4 * i
            ));
        }
        yaml.push_str("    binding_table_indices:\n");
        for i in 0..n {
            yaml.push_str(&format!("      - bti_value: {i}\n        arg_index: {i}\n"));
        }
        one_kernel_zebin(yaml)
    };
    two_sizes(
        "intel-zebin-many-arguments",
        make,
        [4_000, 32_000],
        &["intel", "info", "{}"],
        OK,
    );
}

/// A patch-token program of one kernel with these tokens and surface state heap.
fn patch_token_program(tokens: &[u8], ssh: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for v in [0x494E_5443u32, 1079, 12, 8, 1, 0, 0] {
        out.extend_from_slice(&v.to_le_bytes()); // program header, no program tokens
    }
    let name = b"k\0\0\0";
    let heap = [0u8; 64];
    // Kernel header: checksum, shader hash (2), name, patch list, heaps, unpadded size.
    for v in [
        0u32,
        0,
        0,
        name.len() as u32,
        tokens.len() as u32,
        heap.len() as u32,
        0,
        0,
        ssh.len() as u32,
        heap.len() as u32,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(name);
    out.extend_from_slice(&heap);
    out.extend_from_slice(ssh);
    out.extend_from_slice(tokens);
    out
}

fn token(out: &mut Vec<u8>, code: u32, fields: &[u32]) {
    out.extend_from_slice(&code.to_le_bytes());
    out.extend_from_slice(&(8 + 4 * fields.len() as u32).to_le_bytes());
    for f in fields {
        out.extend_from_slice(&f.to_le_bytes());
    }
}

/// I5 (patch tokens): arguments by value, samplers and stateful buffers with
/// distinct indices, descending, and a full binding table.
#[test]
fn intel_patch_tokens_many_arguments() {
    let make = |n: usize| {
        let mut tokens = Vec::new();
        let ssh: Vec<u8> = (0..256u32).flat_map(|i| (64 * i).to_le_bytes()).collect();
        token(&mut tokens, 8, &[0, 256, 0, 0]); // BINDING_TABLE_STATE
        token(&mut tokens, 23, &[0, 0, 0, 16, 0, 0, 0, 0, 1, 0]); // EXECUTION_ENVIRONMENT, SIMD16
        for i in (0..n as u32).rev() {
            match i % 3 {
                // DATA_PARAMETER_BUFFER, KERNEL_ARGUMENT
                0 => token(&mut tokens, 17, &[1, i, 4 * i, 4, 0]),
                // SAMPLER_KERNEL_ARGUMENT
                1 => token(&mut tokens, 16, &[i, 0, 0]),
                // GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT at surface state i % 256
                _ => token(&mut tokens, 11, &[i, 64 * (i % 256)]),
            }
        }
        patch_token_program(&tokens, &ssh)
    };
    two_sizes(
        "intel-patch-tokens-many-arguments",
        make,
        [6_000, 48_000],
        &["intel", "info", "{}"],
        OK,
    );
}

/// `.ze_info` text (before the kernels) for a size.
type YamlOfSize = fn(usize) -> String;

/// I6: `.ze_info` shapes with the most nodes per byte, against the memory budget:
/// flow sequences of one-digit items, empty keys, short sequence items.
#[test]
fn intel_ze_info_dense_yaml() {
    let shapes: [(&str, YamlOfSize); 3] = [
        ("flow", |n| {
            format!("version: '1.40'\nlist: [{}]\nkernels:\n", "1,".repeat(n))
        }),
        ("keys", |n| {
            format!("version: '1.40'\nm:\n{}kernels:\n", " a:\n".repeat(n))
        }),
        ("items", |n| {
            format!("version: '1.40'\ns:\n{}kernels:\n", "  - 1\n".repeat(n))
        }),
    ];
    for (shape, text) in shapes {
        let make = |n: usize| {
            let mut yaml = text(n);
            ze_kernel(&mut yaml, "k");
            one_kernel_zebin(yaml)
        };
        two_sizes(
            &format!("intel-ze-info-{shape}"),
            make,
            [500_000, 4_000_000],
            &["intel", "info", "{}"],
            OK,
        );
    }
}

/// Many kernels with short names: the ABI model per kernel against the budget
/// (`--json` prints every one of them; `gpukit info` streams them as `intel info` does).
#[test]
fn intel_zebin_many_small_kernels() {
    let make = |n: usize| {
        let mut yaml = String::from("version: '1.40'\nkernels:\n");
        let mut names = Names::default();
        let mut sections = Vec::new();
        for i in 0..n {
            yaml.push_str(&format!("- name: {i:x}\n"));
            if i % 64 == 0 {
                let code = names.add(format!(".text.{i:x}").as_bytes());
                sections.push(Sec64::new(code, SHT_PROGBITS, vec![0; 16]));
            }
        }
        let info = names.add(b".ze_info");
        sections.push(Sec64::new(info, SHT_ZEBIN_ZEINFO, yaml.into_bytes()));
        elf64(sections, names.0)
    };
    for (style, args) in [
        ("text", &["intel", "info", "{}"][..]),
        ("json", &["intel", "info", "--json", "{}"][..]),
        ("gpukit-info", &["info", "{}"][..]),
    ] {
        two_sizes(
            &format!("intel-zebin-small-kernels-{style}"),
            make,
            [50_000, 400_000],
            args,
            OK,
        );
    }
}
