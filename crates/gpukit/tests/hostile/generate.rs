//! Generators of hostile inputs, one per class of issue 11, each sized by a
//! parameter so the suite can run every class at two sizes.

/// A vISA kernel object cut out of a real file: its bytes and where `num_inputs`
/// sits inside them (the header's `input_offset` is absolute, so it moves with
/// the copy).
pub struct KernelObject {
    pub major: u8,
    pub minor: u8,
    pub bytes: Vec<u8>,
    pub input_at: usize,
}

impl KernelObject {
    pub fn from_file(data: &[u8]) -> KernelObject {
        let (object, layout) =
            gpukit_visa::binary::read_with_layout(data, Default::default()).expect("fixture reads");
        let k = &layout.kernels[0];
        let start = k.offset as usize;
        KernelObject {
            major: object.version.major,
            minor: object.version.minor,
            bytes: data[start..start + k.size as usize].to_vec(),
            input_at: k.input_offset.expect("kernel") as usize - start,
        }
    }
}

/// One `kernel_info` entry: which copy of the object it points at and its Gen binaries.
pub struct KernelEntry {
    pub object: usize,
    pub gen_binaries: Vec<(u32, u32)>,
}

/// Builds a vISA file: `copies` copies of `object`, then `padding` bytes, with one
/// header entry per element of `entries`. A Gen binary of `(0, 0)` stands for
/// "the whole file".
pub fn visa_file(
    obj: &KernelObject,
    copies: usize,
    entries: &[KernelEntry],
    padding: usize,
) -> Vec<u8> {
    let wide_names = (obj.major, obj.minor) >= (3, 7);
    let name_len = |i: usize| format!("k{i}").len();
    let mut header_len = 4 + 2 + 2 + 2 + 2;
    for (i, e) in entries.iter().enumerate() {
        header_len +=
            if wide_names { 2 } else { 1 } + name_len(i) + 12 + 4 + 1 + 9 * e.gen_binaries.len();
    }
    let total = header_len + copies * obj.bytes.len() + padding;
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(&0x4153_4943u32.to_le_bytes());
    out.extend_from_slice(&[obj.major, obj.minor]);
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    for (i, e) in entries.iter().enumerate() {
        let name = format!("k{i}");
        if wide_names {
            out.extend_from_slice(&(name.len() as u16).to_le_bytes());
        } else {
            out.push(name.len() as u8);
        }
        out.extend_from_slice(name.as_bytes());
        let offset = header_len + e.object * obj.bytes.len();
        out.extend_from_slice(&(offset as u32).to_le_bytes());
        out.extend_from_slice(&(obj.bytes.len() as u32).to_le_bytes());
        out.extend_from_slice(&((offset + obj.input_at) as u32).to_le_bytes());
        out.extend_from_slice(&[0, 0, 0, 0]);
        out.push(e.gen_binaries.len() as u8);
        for &(off, size) in &e.gen_binaries {
            let (off, size) = if (off, size) == (0, 0) {
                (0, total as u32)
            } else {
                (off, size)
            };
            out.push(12);
            out.extend_from_slice(&off.to_le_bytes());
            out.extend_from_slice(&size.to_le_bytes());
        }
    }
    out.extend_from_slice(&[0, 0, 0, 0]);
    assert_eq!(out.len(), header_len);
    for _ in 0..copies {
        out.extend_from_slice(&obj.bytes);
    }
    out.resize(total, 0x5a);
    out
}

/// One ELF32 section for [`elf32`].
pub struct Sec {
    pub name: u32,
    pub kind: u32,
    pub data: Vec<u8>,
    pub link: u32,
    pub entsize: u32,
}

/// A little-endian ELF32 image with the given sections (index 0, the null
/// section, is added) and `shstrndx`.
pub fn elf32(machine: u16, sections: &[Sec], shstrndx: u16) -> Vec<u8> {
    let mut out = vec![0u8; 52];
    let mut offsets = Vec::new();
    for s in sections {
        while out.len() % 4 != 0 {
            out.push(0);
        }
        offsets.push(out.len());
        out.extend_from_slice(&s.data);
    }
    while out.len() % 4 != 0 {
        out.push(0);
    }
    let shoff = out.len();
    out.extend_from_slice(&[0u8; 40]);
    for (s, &off) in sections.iter().zip(&offsets) {
        for v in [
            s.name,
            s.kind,
            0,
            0,
            off as u32,
            s.data.len() as u32,
            s.link,
            0,
            1,
            s.entsize,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    out[..4].copy_from_slice(b"\x7fELF");
    out[4] = 1; // ELFCLASS32
    out[5] = 1; // little endian
    out[6] = 1; // EV_CURRENT
    out[16..18].copy_from_slice(&2u16.to_le_bytes()); // ET_EXEC
    out[18..20].copy_from_slice(&machine.to_le_bytes());
    out[20..24].copy_from_slice(&1u32.to_le_bytes());
    out[32..36].copy_from_slice(&(shoff as u32).to_le_bytes());
    out[40..42].copy_from_slice(&52u16.to_le_bytes()); // e_ehsize
    out[46..48].copy_from_slice(&40u16.to_le_bytes()); // e_shentsize
    out[48..50].copy_from_slice(&((sections.len() + 1) as u16).to_le_bytes());
    out[50..52].copy_from_slice(&shstrndx.to_le_bytes());
    out
}

fn sym32(name: u32, value: u32, size: u32, shndx: u16) -> [u8; 16] {
    let mut s = [0u8; 16];
    s[..4].copy_from_slice(&name.to_le_bytes());
    s[4..8].copy_from_slice(&value.to_le_bytes());
    s[8..12].copy_from_slice(&size.to_le_bytes());
    s[12] = 1; // STT_OBJECT
    s[14..16].copy_from_slice(&shndx.to_le_bytes());
    s
}

const SHT_PROGBITS: u32 = 1;
const SHT_SYMTAB: u32 = 2;
const SHT_STRTAB: u32 = 3;
/// Bonaire: a CL1 GPU machine.
const GPU_MACHINE: u16 = 0x403;

/// `count` symbols and `count` sections (up to the section limit) all named by one
/// `name_len`-byte string.
pub fn elf_shared_names(name_len: usize, count: usize) -> Vec<u8> {
    let mut strtab = vec![0u8];
    strtab.extend(std::iter::repeat_n(b'A', name_len));
    strtab.push(0);
    let shstr = strtab.clone();
    let mut symtab = vec![0u8; 16];
    for _ in 0..count {
        symtab.extend_from_slice(&sym32(1, 0, 0, 0));
    }
    let mut secs = vec![
        Sec {
            name: 1,
            kind: SHT_STRTAB,
            data: shstr,
            link: 0,
            entsize: 0,
        },
        Sec {
            name: 1,
            kind: SHT_STRTAB,
            data: strtab,
            link: 0,
            entsize: 0,
        },
        Sec {
            name: 1,
            kind: SHT_SYMTAB,
            data: symtab,
            link: 2,
            entsize: 16,
        },
    ];
    for _ in 0..count.min(1000) {
        secs.push(Sec {
            name: 1,
            kind: SHT_PROGBITS,
            data: Vec::new(),
            link: 0,
            entsize: 0,
        });
    }
    elf32(GPU_MACHINE, &secs, 1)
}

/// A CL1-looking ELF with `count` kernels whose metadata and code symbols all
/// cover the same `body`-byte range of `.text`; `same_name` gives every kernel
/// one name (duplicates), otherwise names differ (overlapping regions).
pub fn cl1_shared_kernels(count: usize, body: usize, same_name: bool) -> Vec<u8> {
    let patterns = ["__OpenCL_{}_metadata", "__OpenCL_{}_kernel"];
    shared_kernels(GPU_MACHINE, &patterns, count, body, same_name)
}

/// The same for CL2 (32-bit): kernel metadata symbols sharing bytes or names.
pub fn cl2_shared_kernels(count: usize, body: usize, same_name: bool) -> Vec<u8> {
    let patterns = ["__OpenCL_&__OpenCL_{}_kernel_metadata"];
    shared_kernels(0xaf5a, &patterns, count, body, same_name)
}

fn shared_kernels(
    machine: u16,
    patterns: &[&str],
    count: usize,
    body: usize,
    same_name: bool,
) -> Vec<u8> {
    let mut strtab = vec![0u8];
    let mut symtab = vec![0u8; 16];
    for i in 0..count {
        let k = if same_name {
            "k".to_string()
        } else {
            format!("k{i}")
        };
        for pattern in patterns {
            let at = strtab.len() as u32;
            strtab.extend_from_slice(pattern.replace("{}", &k).as_bytes());
            strtab.push(0);
            symtab.extend_from_slice(&sym32(at, 0, body as u32, 4));
        }
    }
    let shstr = b"\0.shstrtab\0.strtab\0.symtab\0.rodata\0".to_vec();
    let secs = vec![
        Sec {
            name: 1,
            kind: SHT_STRTAB,
            data: shstr,
            link: 0,
            entsize: 0,
        },
        Sec {
            name: 11,
            kind: SHT_STRTAB,
            data: strtab,
            link: 0,
            entsize: 0,
        },
        Sec {
            name: 19,
            kind: SHT_SYMTAB,
            data: symtab,
            link: 2,
            entsize: 16,
        },
        Sec {
            name: 27,
            kind: SHT_PROGBITS,
            data: vec![b';'; body],
            link: 0,
            entsize: 0,
        },
    ];
    elf32(machine, &secs, 1)
}

/// An IGA 2.0 listing needing about `repairs` lenient repairs (raw control
/// characters, operands without braces), under a key of `key_len` bytes.
pub fn iga_repairs(repairs: usize, key_len: usize) -> Vec<u8> {
    let mut s = String::from("{\"version\":\"2.0\",\"platform\":\"xe\",\"");
    s.push_str(&"x".repeat(key_len));
    s.push_str("\":[\"");
    s.push_str(&"\u{b}".repeat(repairs / 4));
    s.push_str("\"],\"y\":[");
    // Operands without braces, each with a repair inside: the brace repair at
    // the element's start is recorded after the one inside it.
    for i in 0..repairs / 4 {
        if i > 0 {
            // A number between keeps the next operand from joining this one.
            s.push_str(",0,");
        }
        s.push_str("\"a\":\"\u{b}\"");
    }
    s.push_str("],\"elems\":[{\"kind\":\"L\", \"id\":0, \"symbol\":\"");
    s.push_str(&"\u{b}".repeat(repairs / 4));
    s.push_str("\"}]}");
    s.into_bytes()
}

/// A dense IGA 2.0 listing: one label and `insts` tiny instructions (the shape
/// whose JSON tree and model are largest next to their text).
pub fn iga_dense(insts: usize) -> Vec<u8> {
    let mut s = String::from(
        "{\"version\":\"2.0\",\"platform\":\"xe\",\"elems\":[{\"kind\":\"L\",\"id\":0,\"symbol\":\"k\",\"succs\":[]}",
    );
    for i in 0..insts {
        s.push_str(&format!(
            ",{{\"kind\":\"I\",\"id\":{i},\"op\":\"nop\",\"es\":1,\"srcs\":[],\"liveTotals\":{{\"r\":0,\"acc\":0,\"f\":0,\"a\":0}}}}"
        ));
    }
    s.push_str("]}");
    s.into_bytes()
}

/// A whole-program AMD IL text whose kernel calls `fanout` functions.
pub fn il_fanout(fanout: usize) -> Vec<u8> {
    let mut s =
        String::from("il_cs_2_0\n;$$$$$$$$$$\nendmain\nfunc 1 ; __OpenCL_k_kernel\nret\nendfunc\n");
    s.push_str(";ARGSTART:__OpenCL_k_kernel\n;version:3:1:111\n;uniqueid:1\n;function:");
    s.push_str(&fanout.to_string());
    for id in 2..fanout + 2 {
        s.push_str(&format!(":{id}"));
    }
    s.push_str("\n;ARGEND:__OpenCL_k_kernel\n");
    for id in 2..fanout + 2 {
        s.push_str(&format!("func {id}\nendfunc\n"));
    }
    s.push_str("end\n");
    s.into_bytes()
}

/// An AMD metadata block whose `args` image arguments all sit at offset 0 of one
/// constant buffer: every pair overlaps, and every name is used twice.
pub fn metadata_overlapping_args(args: usize) -> Vec<u8> {
    let mut s = String::from(";ARGSTART:__OpenCL_k_kernel\n;version:3:1:111\n;uniqueid:1\n");
    for a in 0..args {
        s.push_str(&format!(";image:img{}:2D:RO:0:1:0\n", a / 2));
    }
    s.push_str(";ARGEND:__OpenCL_k_kernel\n");
    s.into_bytes()
}

/// OpenCL C source with `kernels` kernels of 16 arguments each, one of them a
/// struct with nested arrays.
pub fn opencl_kernels(kernels: usize) -> Vec<u8> {
    let mut s = String::from("typedef struct { int a[4][4]; float4 b; char c; } S;\n");
    for k in 0..kernels {
        s.push_str(&format!("__kernel void k{k}(S s, __global float *p"));
        for a in 0..14 {
            s.push_str(&format!(", int4 a{a}"));
        }
        s.push_str(") { }\n");
    }
    s.into_bytes()
}

/// A one-kernel vISA file whose instruction stream is `unit` (by default the
/// fixture's own stream) repeated `copies` times: the ordinary path at its densest,
/// many small instructions. The fixture's Gen binaries move after the grown object.
pub fn visa_dense_stream(fixture: &[u8], unit: Option<&[u8]>, copies: usize) -> Vec<u8> {
    let (_, layout) =
        gpukit_visa::binary::read_with_layout(fixture, Default::default()).expect("fixture reads");
    let k = &layout.kernels[0];
    let (start, entry, code) = (k.offset as usize, k.entry as usize, k.code_size as usize);
    let object = &fixture[start..start + k.size as usize];
    // `size` and `entry` sit side by side before the attribute table.
    let mut pair = (code as u32).to_le_bytes().to_vec();
    pair.extend_from_slice(&(entry as u32).to_le_bytes());
    let size_at = object
        .windows(8)
        .position(|w| w == pair)
        .expect("size/entry fields");
    let unit = unit.unwrap_or(&object[entry..]);
    let mut body = object[..entry].to_vec();
    body[size_at..size_at + 4].copy_from_slice(&((unit.len() * copies) as u32).to_le_bytes());
    for _ in 0..copies {
        body.extend_from_slice(unit);
    }
    let mut header = fixture[..start].to_vec();
    let patch = |header: &mut Vec<u8>, old: [u32; 2], new: [u32; 2]| {
        let old: Vec<u8> = old.iter().flat_map(|v| v.to_le_bytes()).collect();
        let at = header
            .windows(8)
            .position(|w| w == old)
            .expect("field pair");
        let new: Vec<u8> = new.iter().flat_map(|v| v.to_le_bytes()).collect();
        header[at..at + 8].copy_from_slice(&new);
    };
    patch(
        &mut header,
        [k.offset, k.size],
        [k.offset, body.len() as u32],
    );
    let mut out_gens = Vec::new();
    let mut next = start + body.len();
    for &(off, size) in &k.gen_binaries {
        patch(&mut header, [off, size], [next as u32, size]);
        out_gens.extend_from_slice(&fixture[off as usize..(off + size) as usize]);
        next += size as usize;
    }
    let mut out = header;
    out.extend_from_slice(&body);
    out.extend_from_slice(&out_gens);
    out
}

/// `kernels` copies of the fixture's kernel (named `k0`, `k1`, ...), each with its
/// string pool filled up to the format's limit with empty strings: one input byte per
/// string, the densest record a vISA routine has.
pub fn visa_empty_strings(fixture: &[u8], kernels: usize) -> Vec<u8> {
    let mut obj = gpukit_visa::read(fixture).expect("fixture reads");
    let mut kernel = obj.kernels[0].clone();
    kernel.gen_binaries.clear();
    while kernel.body.strings.len() < gpukit_visa::limits::MAX_STRINGS {
        kernel.body.strings.push(b"").expect("pool has room");
    }
    obj.kernels = (0..kernels)
        .map(|i| {
            let mut k = kernel.clone();
            k.name = format!("k{i}").into_bytes();
            k
        })
        .collect();
    obj.functions.clear();
    gpukit_visa::write(&obj).expect("writes")
}
