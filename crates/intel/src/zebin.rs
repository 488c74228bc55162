//! ELF containers: zebin (`.ze_info` + `.text.<kernel>`) and NEO's OpenCL ELF wrapper
//! around a patch-token program.

use crate::abi::*;
use crate::error::ReadError;
use crate::yaml::{self, Yaml};
use object::read::elf::{ElfFile64, FileHeader, SectionHeader};
use object::SectionIndex;
use object::{Endianness, Object, ObjectSection, ObjectSymbol};
use std::collections::hash_map::Entry;
use std::collections::HashMap;

/// `SHT_OPENCL_DEV_BINARY` in NEO's OpenCL ELF.
const SHT_OPENCL_DEV_BINARY: u32 = 0xff00_0005;
/// `SHT_ZEBIN_ZEINFO`.
const SHT_ZEBIN_ZEINFO: u32 = 0xff00_0011;

/// `NT_INTELGT_GFXCORE_FAMILY`: the note of `.note.intelgt.compat` (owner `IntelGT`)
/// whose 4-byte description is the GFXCORE family code a zebin was compiled for.
const NT_INTELGT_GFXCORE_FAMILY: u32 = 2;

/// The GFXCORE family code (`igfxfmid.h`, the patch-token header's device field) a
/// zebin names in its `IntelGT` notes; `None` when the bytes are no ELF or carry no
/// such note. Notes after a malformed one are not read (IGC 2.x pads the section with
/// bytes that are no note).
pub fn gfxcore_family(bytes: &[u8]) -> Option<u32> {
    let elf = ElfFile64::<Endianness>::parse(bytes).ok()?;
    let endian = elf.endian();
    elf.sections().find_map(|section| {
        let mut notes = section
            .elf_section_header()
            .notes(endian, bytes)
            .ok()
            .flatten()?;
        while let Ok(Some(note)) = notes.next() {
            if note.name() == b"IntelGT" && note.n_type(endian) == NT_INTELGT_GFXCORE_FAMILY {
                let d: [u8; 4] = note.desc().get(..4)?.try_into().ok()?;
                return Some(match endian {
                    Endianness::Little => u32::from_le_bytes(d),
                    Endianness::Big => u32::from_be_bytes(d),
                });
            }
        }
        None
    })
}

pub fn read_elf(bytes: &[u8]) -> Result<Program, ReadError> {
    let elf = ElfFile64::<Endianness>::parse(bytes)
        .map_err(|e| ReadError::new("ELF", "header", 0, e.to_string()))?;
    let endian = elf.endian();
    let sections = SectionNames::read(&elf);
    let section_at = |i: usize| elf.section_by_index(SectionIndex(i)).ok();
    let dev_binary = elf
        .sections()
        .filter(|section| {
            section.elf_section_header().sh_type(endian) == SHT_OPENCL_DEV_BINARY
                && sections.role(section.index()) != Role::ZeInfo
        })
        .last();
    let ze_info = elf
        .sections()
        .filter(|section| {
            section.elf_section_header().sh_type(endian) == SHT_ZEBIN_ZEINFO
                || sections.role(section.index()) == Role::ZeInfo
        })
        .last();
    if let Some(section) = dev_binary {
        let (offset, _) = section.file_range().unwrap_or((0, 0));
        let data = section_data(&section, "OpenCL device binary")?;
        return crate::patchtokens::read(data, offset as usize, Container::OpenclElf);
    }
    let Some(info) = ze_info else {
        return Err(ReadError::new(
            "ELF",
            "sections",
            elf.elf_header().e_shoff(endian) as usize,
            "neither a .ze_info section (zebin) nor an OpenCL device binary section",
        ));
    };
    let (info_offset, _) = info.file_range().unwrap_or((0, 0));
    let text = std::str::from_utf8(section_data(&info, ".ze_info")?).map_err(|e| {
        ReadError::new(
            ".ze_info",
            "text",
            info_offset as usize + e.valid_up_to(),
            "not UTF-8",
        )
    })?;
    let tree = yaml::parse(
        text,
        &yaml::Origin {
            section: ".ze_info",
            offset: info_offset as usize,
        },
    )?;
    let root = tree.root();
    let err = |what: &str, msg: String| ReadError::new(".ze_info", what, info_offset as usize, msg);
    let version = root.scalar("version").unwrap_or_default().into_owned();
    let mut kernels = Vec::with_capacity(root.items_of("kernels").count());
    let mut kernel_at = KernelNames::new(sections.base);
    for (ki, k) in root.items_of("kernels").enumerate() {
        let name = k
            .scalar("name")
            .ok_or_else(|| err(&format!("kernels[{ki}].name"), "missing".into()))?
            .into_owned();
        let mut abi = KernelBuilder::new(name.clone());
        let num = |n: Yaml, key: &str| -> Result<Option<u32>, ReadError> {
            match n.scalar(key) {
                None => Ok(None),
                Some(s) => parse_u32(&s).map(Some).ok_or_else(|| {
                    err(
                        &format!("kernels[{ki}] ({name}).{key}"),
                        format!("{s:?} is not a number"),
                    )
                }),
            }
        };
        let mut inline_data = 0;
        if let Some(env) = k.get("execution_env") {
            inline_data = num(env, "inline_data_payload_size")?.unwrap_or(0);
            if inline_data > 0 {
                abi.entry.inline_data = crate::InlineData::Bytes(inline_data);
            }
            abi.entry.skip_per_thread_data_load =
                num(env, "offset_to_skip_per_thread_data_load")?.unwrap_or(0);
            abi.entry.skip_set_ffid_gp = num(env, "offset_to_skip_set_ffid_gp")?.unwrap_or(0);
            abi.simd_size = num(env, "simd_size")?.unwrap_or(0);
            abi.slm_size = num(env, "slm_size")?.unwrap_or(0);
            abi.has_barriers = num(env, "barrier_count")?.unwrap_or(0) > 0
                || env.scalar("has_barriers").as_deref() == Some("true");
            abi.private_size = num(env, "private_size")?.unwrap_or(0);
            let required: Vec<u32> = env
                .items_of("required_work_group_size")
                .filter_map(|n| n.str().as_deref().and_then(parse_u32))
                .collect();
            if let [x, y, z] = required[..] {
                abi.required_local = Some([x, y, z]);
            }
        }
        for p in k.items_of("payload_arguments") {
            let ty = p.scalar("arg_type").unwrap_or_default();
            let ty = ty.as_ref();
            let offset = num(p, "offset")?.unwrap_or(0);
            let size = num(p, "size")?.unwrap_or(0);
            let source_offset = num(p, "source_offset")?.unwrap_or(0);
            let index = num(p, "arg_index")?;
            let implicit = |kind| ImplicitArg {
                kind,
                offset,
                size,
                source_offset,
            };
            match (ty, index) {
                ("arg_bypointer", Some(i)) => {
                    let space = match p.scalar("addrspace").as_deref() {
                        Some("global") => Some(AddressSpace::Global),
                        Some("constant") => Some(AddressSpace::Constant),
                        Some("local") => Some(AddressSpace::Local),
                        Some("image") => Some(AddressSpace::Image),
                        Some("sampler") => Some(AddressSpace::Sampler),
                        _ => None,
                    };
                    let mode = p.scalar("addrmode").unwrap_or_default();
                    let mode = mode.as_ref();
                    let kind = match (space, mode) {
                        (Some(AddressSpace::Local), _) | (_, "slm") => ArgKind::LocalPointer,
                        (Some(AddressSpace::Image), _) => ArgKind::Image,
                        (Some(AddressSpace::Sampler), _) => ArgKind::Sampler,
                        (_, "stateless") => ArgKind::StatelessPointer,
                        (_, "stateful" | "bindless") => ArgKind::StatefulPointer,
                        _ => ArgKind::Other,
                    };
                    let arg = abi.arg_mut(i, kind);
                    arg.kind = kind;
                    arg.address_space = space;
                    if kind == ArgKind::Image {
                        arg.image_type = Some(match p.scalar("image_type").as_deref() {
                            Some("image_buffer") => ImageType::Buffer,
                            Some("image_1d") => ImageType::Image1d,
                            Some("image_1d_array") => ImageType::Image1dArray,
                            Some("image_2d") => ImageType::Image2d,
                            Some("image_2d_array") => ImageType::Image2dArray,
                            Some("image_3d") => ImageType::Image3d,
                            _ => ImageType::Other,
                        });
                    }
                    arg.slm_alignment = num(p, "slm_alignment")?;
                    if mode == "bindless" && size > 0 {
                        arg.bindless_offset = Some(offset);
                    }
                    if size > 0 {
                        arg.pieces.push(Piece {
                            offset,
                            size,
                            source_offset: 0,
                        });
                    }
                }
                ("arg_byvalue", Some(i)) => {
                    let arg = abi.arg_mut(i, ArgKind::Value);
                    arg.address_space = Some(AddressSpace::Private);
                    arg.pieces.push(Piece {
                        offset,
                        size,
                        source_offset,
                    });
                }
                ("buffer_address", Some(i)) => {
                    // The stateless address of a stateful buffer argument.
                    let arg = abi.arg_mut(i, ArgKind::StatefulPointer);
                    arg.pieces.push(Piece {
                        offset,
                        size,
                        source_offset: 0,
                    });
                }
                ("buffer_offset", Some(i)) => abi
                    .implicit
                    .push(implicit(Implicit::BufferOffset { arg: i })),
                (
                    "image_width"
                    | "image_height"
                    | "image_depth"
                    | "image_array_size"
                    | "image_channel_data_type"
                    | "image_channel_order"
                    | "image_num_samples"
                    | "image_num_mip_levels",
                    Some(arg),
                ) => {
                    let param = match ty {
                        "image_width" => ImageParam::Width,
                        "image_height" => ImageParam::Height,
                        "image_depth" => ImageParam::Depth,
                        "image_array_size" => ImageParam::ArraySize,
                        "image_channel_data_type" => ImageParam::ChannelDataType,
                        "image_channel_order" => ImageParam::ChannelOrder,
                        "image_num_samples" => ImageParam::NumSamples,
                        _ => ImageParam::NumMipLevels,
                    };
                    abi.implicit.push(implicit(Implicit::Image { arg, param }));
                }
                ("inline_sampler", _) => {
                    let index = num(p, "sampler_index")?.unwrap_or(0);
                    abi.implicit
                        .push(implicit(Implicit::InlineSampler { index }));
                }
                ("const_base" | "global_base", _)
                    if p.scalar("addrmode").as_deref() == Some("bindless") =>
                {
                    abi.implicit.push(implicit(if ty == "const_base" {
                        Implicit::ConstantSurface
                    } else {
                        Implicit::GlobalSurface
                    }));
                }
                ("const_base" | "global_base", _) => {
                    let bti = num(p, "bti_value")?;
                    if ty == "const_base" {
                        abi.constant_bti = bti;
                        abi.implicit.push(implicit(Implicit::ConstantBase));
                    } else {
                        abi.global_bti = bti;
                        abi.implicit.push(implicit(Implicit::GlobalBase));
                    }
                }
                _ => {
                    let kind = match ty {
                        "local_size" => Implicit::LocalSize,
                        "enqueued_local_size" => Implicit::EnqueuedLocalSize,
                        "global_size" => Implicit::GlobalSize,
                        "global_id_offset" => Implicit::GlobalOffset,
                        "group_count" => Implicit::NumGroups,
                        "work_dimensions" => Implicit::WorkDim,
                        "private_base_stateless" => Implicit::PrivateBase,
                        "printf_buffer" => Implicit::PrintfBuffer,
                        "sync_buffer" => Implicit::SyncBuffer,
                        "implicit_arg_buffer" => Implicit::ImplicitArgBuffer,
                        "data_const_buffer" => Implicit::ConstantBase,
                        "data_global_buffer" => Implicit::GlobalBase,
                        _ => Implicit::Other { code: 0 },
                    };
                    abi.implicit.push(implicit(kind));
                }
            }
        }
        for p in k.items_of("per_thread_payload_arguments") {
            let size = num(p, "size")?.unwrap_or(0);
            match p.scalar("arg_type").as_deref() {
                Some("local_id") => {
                    abi.per_thread.local_id = [true; 3];
                    abi.per_thread.size = size;
                }
                Some("packed_local_ids") => {
                    abi.per_thread.packed = true;
                    abi.per_thread.local_id = [size >= 2, size >= 4, size >= 6];
                    abi.per_thread.size = size;
                }
                _ => {}
            }
        }
        // Without local IDs and inline data the dispatch still loads one GRF per thread
        // (IGC places the cross-thread data after it, as for patch tokens).
        abi.per_thread.unused_grf =
            abi.per_thread.local_id == [false; 3] && abi.per_thread.size == 0 && inline_data == 0;
        for b in k.items_of("binding_table_indices") {
            if let (Some(bti), Some(i)) = (num(b, "bti_value")?, num(b, "arg_index")?) {
                abi.arg_mut(i, ArgKind::StatefulPointer).bti = Some(bti);
            }
        }
        for smp in k.items_of("inline_samplers") {
            let Some(index) = num(smp, "sampler_index")? else {
                continue;
            };
            let addressing = match smp.scalar("addrmode").as_deref() {
                Some("clamp_edge") => Addressing::ClampToEdge,
                Some("clamp_border") => Addressing::Clamp,
                Some("repeat") => Addressing::Repeat,
                Some("mirror") => Addressing::MirroredRepeat,
                _ => Addressing::None,
            };
            let filter = match smp.scalar("filtermode").as_deref() {
                Some("linear") => Filter::Linear,
                _ => Filter::Nearest,
            };
            let normalized = smp.scalar("normalized").as_deref() == Some("true");
            abi.inline_samplers.push(InlineSampler {
                index,
                addressing,
                filter,
                normalized,
            });
        }
        if let Some(first) = kernel_at.find(&kernels, name.as_bytes()) {
            return Err(err(
                &format!("kernels[{ki}].name"),
                format!("kernel {name:?} is also kernels[{first}]: kernel names must differ"),
            ));
        }
        kernels.push(abi.finish());
        kernel_at.insert(&kernels, ki);
    }
    // The Gen code of each kernel: its `.text.<name>` section.
    for (kernel, section) in sections.text_sections(&kernel_at, &kernels) {
        if let Some(code) = section_at(section) {
            let abi = &mut kernels[kernel];
            abi.gen_code = section_data(&code, ".text")?.to_vec();
            abi.gen_code_size = abi.gen_code.len();
        }
    }
    // Address spaces of by-pointer arguments IGC leaves out of the payload list, and
    // the source's names and types of every argument.
    for info in root.items_of("kernels_misc_info") {
        let Some(kname) = info.scalar("name") else {
            continue;
        };
        let Some(at) = kernel_at.find(&kernels, kname.as_bytes()) else {
            continue;
        };
        let abi = &mut kernels[at];
        for a in info.items_of("args_info") {
            let Some(index) = a.scalar("index").as_deref().and_then(parse_u32) else {
                continue;
            };
            let text = |key: &str| a.scalar(key).unwrap_or_default().into_owned();
            abi.arg_info.push(ArgInfo::new(
                index,
                text("name"),
                &text("type_name"),
                text("address_qualifier"),
            ));
            if let Some(arg) = abi.existing_arg_mut(index) {
                if arg.address_space.is_none() {
                    arg.address_space = match a.scalar("address_qualifier").as_deref() {
                        Some("__global") => Some(AddressSpace::Global),
                        Some("__constant") => Some(AddressSpace::Constant),
                        Some("__local") => Some(AddressSpace::Local),
                        Some("__private") => Some(AddressSpace::Private),
                        _ => None,
                    };
                }
            }
        }
    }
    let data = |role: Role, name: &str| -> Result<Vec<u8>, ReadError> {
        match sections.first(role).and_then(section_at) {
            Some(sec) => Ok(section_data(&sec, name)?.to_vec()),
            None => Ok(Vec::new()),
        }
    };
    let mut constant_data = data(Role::Data(DataSection::Constant), ".data.const")?;
    let mut global_data = data(Role::Data(DataSection::Global), ".data.global")?;
    let string_data = data(Role::Data(DataSection::Strings), ".data.const.string")?;
    // Names of data symbols are copied; a string table can make many symbols name
    // one long string, so the copies are held to a multiple of the input.
    let name_budget = bytes.len().saturating_mul(2).saturating_add(4096);
    let mut name_bytes = 0usize;
    let mut symbols = Vec::new();
    for sym in elf.symbols() {
        let Some(Role::Data(section)) = sym.section_index().map(|i| sections.role(i)) else {
            continue;
        };
        if let Ok(name) = sym.name() {
            name_bytes = name_bytes.saturating_add(name.len());
            if name_bytes > name_budget {
                return Err(ReadError::new(
                    ".symtab",
                    "st_name",
                    0,
                    format!(
                        "data symbol names total more than {name_budget} bytes: symbols share their names"
                    ),
                ));
            }
            symbols.push(DataSymbol {
                name: name.to_string(),
                section,
                offset: sym.address(),
            });
        }
    }
    // Pointers in the data sections (`.rel.data.global`, `.rela.data.const`, ...):
    // R_ZE_SYM_ADDR (type 1) asks for the 64-bit address of the symbol plus the addend
    // (implicit in a REL section: the bytes already there). The symbol's offset in its
    // section and the addend are folded into the bytes here; the base address of the
    // symbol's section is added when the buffers are placed (`data_pointers`).
    let mut data_pointers = Vec::new();
    for (holder, name) in [
        (DataSection::Global, ".data.global"),
        (DataSection::Constant, ".data.const"),
    ] {
        let Some(sec) = sections.first(Role::Data(holder)).and_then(section_at) else {
            continue;
        };
        for (offset, reloc) in sec.relocations() {
            let object::RelocationFlags::Elf { r_type: 1 } = reloc.flags() else {
                continue;
            };
            let object::RelocationTarget::Symbol(si) = reloc.target() else {
                continue;
            };
            let Some(sym) = data_symbol(&elf, &sections, si) else {
                continue;
            };
            let bytes = match holder {
                DataSection::Global => &mut global_data,
                _ => &mut constant_data,
            };
            let at = usize::try_from(offset)
                .ok()
                .filter(|&o| o.checked_add(8).is_some_and(|e| e <= bytes.len()));
            let Some(at) = at else {
                return Err(ReadError::new(
                    name,
                    "relocation offset",
                    0,
                    format!(
                        "a pointer at offset {offset} lies outside the {}-byte section",
                        bytes.len()
                    ),
                ));
            };
            let mut v = [0u8; 8];
            v.copy_from_slice(&bytes[at..at + 8]);
            let addend = if reloc.has_implicit_addend() {
                u64::from_le_bytes(v)
            } else {
                reloc.addend() as u64
            };
            bytes[at..at + 8].copy_from_slice(&sym.1.wrapping_add(addend).to_le_bytes());
            data_pointers.push(DataPointer {
                holder,
                offset,
                target: sym.0,
            });
        }
    }
    Ok(Program {
        format: Format::Zebin,
        container: Container::Zebin,
        version,
        device: gfx_core_family(&elf),
        pointer_size: 8,
        constant_data,
        global_data,
        string_data,
        symbols,
        data_pointers,
        kernels,
    })
}

/// The GFXCORE family the binary was built for: the `IntelGT` note of type 2
/// (`NT_INTELGT_GFXCORE_FAMILY`) in `.note.intelgt.compat`, a u32.
fn gfx_core_family(elf: &ElfFile64<Endianness>) -> Option<u32> {
    const NT_INTELGT_GFXCORE_FAMILY: u32 = 2;
    let endian = elf.endian();
    let data = elf.data();
    elf.elf_section_table().iter().find_map(|header| {
        let mut notes = header.notes(endian, data).ok()??;
        while let Ok(Some(note)) = notes.next() {
            if note.name() == b"IntelGT" && note.n_type(endian) == NT_INTELGT_GFXCORE_FAMILY {
                let desc: [u8; 4] = note.desc().try_into().ok()?;
                return Some(u32::from_le_bytes(desc));
            }
        }
        None
    })
}

fn section_data<'a>(
    section: &object::read::elf::ElfSection64<'a, '_, Endianness>,
    what: &str,
) -> Result<&'a [u8], ReadError> {
    let (offset, _) = section.file_range().unwrap_or((0, 0));
    section
        .data()
        .map_err(|e| ReadError::new(what, "section data", offset as usize, e.to_string()))
}

fn parse_u32(s: &str) -> Option<u32> {
    if let Some(h) = s.strip_prefix("0x") {
        u32::from_str_radix(h, 16).ok()
    } else {
        s.parse().ok()
    }
}

/// The data section and offset of symbol `index` (None outside the constant and
/// global data).
fn data_symbol(
    elf: &ElfFile64<'_, Endianness>,
    sections: &SectionNames,
    index: object::SymbolIndex,
) -> Option<(DataSection, u64)> {
    let sym = elf.symbol_by_index(index).ok()?;
    match sections.role(sym.section_index()?) {
        Role::Data(which @ (DataSection::Constant | DataSection::Global)) => {
            Some((which, sym.address()))
        }
        _ => None,
    }
}

/// What the reader looks for a section by name for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Other,
    ZeInfo,
    Data(DataSection),
    /// `.text.<kernel>`.
    Text,
}

/// The section names the reader needs, read once from the section-name string
/// table: each section's role, and for `.text.` sections a hash of the rest of the
/// name. A name runs from its offset to the next NUL, so many sections can name one
/// long string (or its tails); comparing or hashing each name on its own would cost
/// sections x length. Here the fixed names are compared over their own length only,
/// and the `.text.` names are hashed in one backward pass over the table
/// (polynomial hash mod 2^61-1 with a random base: the hash of a tail extends that
/// of the next tail), then matched against the kernel names and checked byte for byte.
struct SectionNames<'d> {
    table: &'d [u8],
    /// Per section index.
    roles: Vec<Role>,
    /// `.text.` sections: (section index, offset of the part after `.text.`,
    /// its length, its hash).
    texts: Vec<(usize, usize, usize, u64)>,
    base: u64,
}

const TEXT_PREFIX: &[u8] = b".text.";
const HASH_MOD: u64 = (1 << 61) - 1;

impl<'d> SectionNames<'d> {
    fn read(elf: &ElfFile64<'d, Endianness>) -> Self {
        let endian = elf.endian();
        let table = elf
            .elf_header()
            .shstrndx(endian, elf.data())
            .ok()
            .and_then(|i| {
                elf.elf_section_table()
                    .section(SectionIndex(i as usize))
                    .ok()
            })
            .and_then(|h| h.data(endian, elf.data()).ok())
            .unwrap_or(&[]);
        let base = {
            use std::hash::BuildHasher;
            std::collections::hash_map::RandomState::new().hash_one(0u64) % (HASH_MOD - 256) + 256
        };
        let named = |at: usize, name: &[u8]| {
            table.get(at..at + name.len()) == Some(name) && table.get(at + name.len()) == Some(&0)
        };
        let mut roles = Vec::new();
        let mut texts = Vec::new();
        for (index, header) in elf.elf_section_table().iter().enumerate() {
            let at = header.sh_name(endian) as usize;
            let role = if named(at, b".ze_info") {
                Role::ZeInfo
            } else if named(at, b".data.const") {
                Role::Data(DataSection::Constant)
            } else if named(at, b".data.global") {
                Role::Data(DataSection::Global)
            } else if named(at, b".data.const.string") {
                Role::Data(DataSection::Strings)
            } else if table.get(at..at + TEXT_PREFIX.len()) == Some(TEXT_PREFIX) {
                texts.push((index, at + TEXT_PREFIX.len(), usize::MAX, 0));
                Role::Text
            } else {
                Role::Other
            };
            roles.push(role);
        }
        // Hashes and lengths of the `.text.` tails, from the end of the table back.
        texts.sort_by_key(|t| std::cmp::Reverse(t.1));
        let (mut hash, mut len, mut terminated) = (0u64, 0usize, false);
        let mut next = texts.iter_mut().peekable();
        for at in (0..table.len()).rev() {
            if table[at] == 0 {
                (hash, len, terminated) = (0, 0, true);
            } else {
                hash = hash_step(hash, table[at], base);
                len += 1;
            }
            while let Some(t) = next.next_if(|t| t.1 == at) {
                // A name that runs off the table's end names nothing.
                t.2 = if terminated { len } else { usize::MAX };
                t.3 = hash;
            }
        }
        texts.retain(|t| t.2 != usize::MAX);
        // Sections sharing a name: the first stands for all (a name is compared once).
        texts.sort_by_key(|t| (t.1, t.0));
        texts.dedup_by_key(|t| t.1);
        texts.sort_by_key(|t| t.0);
        SectionNames {
            table,
            roles,
            texts,
            base,
        }
    }
    fn role(&self, index: SectionIndex) -> Role {
        self.roles.get(index.0).copied().unwrap_or(Role::Other)
    }
    /// The first section with `role`.
    fn first(&self, role: Role) -> Option<usize> {
        self.roles.iter().position(|r| *r == role)
    }
    /// (kernel, section) for each kernel with a `.text.<name>` section (the first).
    fn text_sections(&self, names: &KernelNames, kernels: &[KernelAbi]) -> Vec<(usize, usize)> {
        let mut found = Vec::new();
        let mut done = vec![false; kernels.len()];
        for &(section, at, len, hash) in &self.texts {
            let Some(tail) = self.table.get(at..at + len) else {
                continue;
            };
            // Each check reads a string of its own (names are distinct offsets, and
            // tails of one string differ in length), so all checks read the table once.
            let Some(k) = names.find_hashed(kernels, hash, tail) else {
                continue;
            };
            if !done[k] {
                done[k] = true;
                found.push((k, section));
            }
        }
        found
    }
}

/// Kernels by name, keyed by the same hash as the `.text.` names (and the length),
/// the names themselves compared on a match. Kernels whose names share a key (a
/// hash collision, not expected) are searched in a list.
struct KernelNames {
    base: u64,
    first: HashMap<(u64, u32), usize>,
    collided: Vec<usize>,
}

impl KernelNames {
    fn new(base: u64) -> Self {
        KernelNames {
            base,
            first: HashMap::new(),
            collided: Vec::new(),
        }
    }
    fn hash(&self, name: &[u8]) -> u64 {
        name.iter()
            .rev()
            .fold(0, |h, &c| hash_step(h, c, self.base))
    }
    /// Adds `kernels[at]` (its name not yet among them).
    fn insert(&mut self, kernels: &[KernelAbi], at: usize) {
        let name = kernels[at].name.as_bytes();
        let key = (self.hash(name), name.len() as u32);
        match self.first.entry(key) {
            Entry::Vacant(slot) => {
                slot.insert(at);
            }
            Entry::Occupied(_) => self.collided.push(at),
        }
    }
    fn find(&self, kernels: &[KernelAbi], name: &[u8]) -> Option<usize> {
        self.find_hashed(kernels, self.hash(name), name)
    }
    fn find_hashed(&self, kernels: &[KernelAbi], hash: u64, name: &[u8]) -> Option<usize> {
        let &at = self.first.get(&(hash, name.len() as u32))?;
        let named = |k: &usize| kernels[*k].name.as_bytes() == name;
        if named(&at) {
            return Some(at);
        }
        self.collided.iter().copied().find(named)
    }
}

fn hash_step(hash: u64, byte: u8, base: u64) -> u64 {
    ((u128::from(hash) * u128::from(base) + u128::from(byte)) % u128::from(HASH_MOD)) as u64
}
