//! ELF containers: zebin (`.ze_info` + `.text.<kernel>`) and NEO's OpenCL ELF wrapper
//! around a patch-token program.

use crate::abi::*;
use crate::error::ReadError;
use crate::yaml::{self, Node};
use object::read::elf::{ElfFile64, FileHeader, SectionHeader};
use object::{Endianness, Object, ObjectSection, ObjectSymbol};

/// `SHT_OPENCL_DEV_BINARY` in NEO's OpenCL ELF.
const SHT_OPENCL_DEV_BINARY: u32 = 0xff00_0005;
/// `SHT_ZEBIN_ZEINFO`.
const SHT_ZEBIN_ZEINFO: u32 = 0xff00_0011;

pub fn read_elf(bytes: &[u8]) -> Result<Program, ReadError> {
    let elf = ElfFile64::<Endianness>::parse(bytes)
        .map_err(|e| ReadError::new("ELF", "header", 0, e.to_string()))?;
    let endian = elf.endian();
    let mut ze_info = None;
    let mut dev_binary = None;
    for section in elf.sections() {
        let ty = section.elf_section_header().sh_type(endian);
        let name = section.name().unwrap_or("");
        if ty == SHT_ZEBIN_ZEINFO || name == ".ze_info" {
            ze_info = Some(section);
        } else if ty == SHT_OPENCL_DEV_BINARY {
            dev_binary = Some(section);
        }
    }
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
    let root = yaml::parse(
        text,
        &yaml::Origin {
            section: ".ze_info",
            offset: info_offset as usize,
        },
    )?;
    let err = |what: &str, msg: String| ReadError::new(".ze_info", what, info_offset as usize, msg);
    let version = root
        .get("version")
        .and_then(Node::str)
        .unwrap_or("")
        .to_string();
    let mut kernels = Vec::new();
    for (ki, k) in root
        .get("kernels")
        .map(Node::items)
        .unwrap_or(&[])
        .iter()
        .enumerate()
    {
        let name = k
            .get("name")
            .and_then(Node::str)
            .ok_or_else(|| err(&format!("kernels[{ki}].name"), "missing".into()))?
            .to_string();
        let mut abi = KernelAbi::new(name.clone());
        let num = |n: &Node, key: &str| -> Result<Option<u32>, ReadError> {
            match n.get(key).and_then(Node::str) {
                None => Ok(None),
                Some(s) => parse_u32(s).map(Some).ok_or_else(|| {
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
            abi.simd_size = num(env, "simd_size")?.unwrap_or(0);
            abi.slm_size = num(env, "slm_size")?.unwrap_or(0);
            abi.has_barriers = num(env, "barrier_count")?.unwrap_or(0) > 0
                || env.get("has_barriers").and_then(Node::str) == Some("true");
            abi.private_size = num(env, "private_size")?.unwrap_or(0);
        }
        for p in k.get("payload_arguments").map(Node::items).unwrap_or(&[]) {
            let ty = p.get("arg_type").and_then(Node::str).unwrap_or("");
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
                    let space = match p.get("addrspace").and_then(Node::str) {
                        Some("global") => Some(AddressSpace::Global),
                        Some("constant") => Some(AddressSpace::Constant),
                        Some("local") => Some(AddressSpace::Local),
                        Some("image") => Some(AddressSpace::Image),
                        Some("sampler") => Some(AddressSpace::Sampler),
                        _ => None,
                    };
                    let mode = p.get("addrmode").and_then(Node::str).unwrap_or("");
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
                        arg.image_type = Some(match p.get("image_type").and_then(Node::str) {
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
                    if p.get("addrmode").and_then(Node::str) == Some("bindless") =>
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
        for p in k
            .get("per_thread_payload_arguments")
            .map(Node::items)
            .unwrap_or(&[])
        {
            let size = num(p, "size")?.unwrap_or(0);
            match p.get("arg_type").and_then(Node::str) {
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
        for b in k
            .get("binding_table_indices")
            .map(Node::items)
            .unwrap_or(&[])
        {
            if let (Some(bti), Some(i)) = (num(b, "bti_value")?, num(b, "arg_index")?) {
                abi.arg_mut(i, ArgKind::StatefulPointer).bti = Some(bti);
            }
        }
        for smp in k.get("inline_samplers").map(Node::items).unwrap_or(&[]) {
            let Some(index) = num(smp, "sampler_index")? else {
                continue;
            };
            let addressing = match smp.get("addrmode").and_then(Node::str) {
                Some("clamp_edge") => Addressing::ClampToEdge,
                Some("clamp_border") => Addressing::Clamp,
                Some("repeat") => Addressing::Repeat,
                Some("mirror") => Addressing::MirroredRepeat,
                _ => Addressing::None,
            };
            let filter = match smp.get("filtermode").and_then(Node::str) {
                Some("linear") => Filter::Linear,
                _ => Filter::Nearest,
            };
            let normalized = smp.get("normalized").and_then(Node::str) == Some("true");
            abi.inline_samplers.push(InlineSampler {
                index,
                addressing,
                filter,
                normalized,
            });
        }
        let text_name = format!(".text.{}", abi.name);
        if let Some(code) = elf.section_by_name(&text_name) {
            abi.gen_code = section_data(&code, &text_name)?.to_vec();
            abi.gen_code_size = abi.gen_code.len();
        }
        abi.finish();
        kernels.push(abi);
    }
    // Address spaces of by-pointer arguments IGC leaves out of the payload list.
    for info in root
        .get("kernels_misc_info")
        .map(Node::items)
        .unwrap_or(&[])
    {
        let Some(kname) = info.get("name").and_then(Node::str) else {
            continue;
        };
        let Some(abi) = kernels.iter_mut().find(|k| k.name == kname) else {
            continue;
        };
        for a in info.get("args_info").map(Node::items).unwrap_or(&[]) {
            let Some(index) = a.get("index").and_then(Node::str).and_then(parse_u32) else {
                continue;
            };
            if let Some(arg) = abi.args.iter_mut().find(|x| x.index == index) {
                if arg.address_space.is_none() {
                    arg.address_space = match a.get("address_qualifier").and_then(Node::str) {
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
    let data = |name: &str| -> Result<Vec<u8>, ReadError> {
        match elf.section_by_name(name) {
            Some(sec) => Ok(section_data(&sec, name)?.to_vec()),
            None => Ok(Vec::new()),
        }
    };
    let mut constant_data = data(".data.const")?;
    let mut global_data = data(".data.global")?;
    let string_data = data(".data.const.string")?;
    let mut symbols = Vec::new();
    for sym in elf.symbols() {
        let Some(index) = sym.section_index() else {
            continue;
        };
        let section = match elf.section_by_index(index).ok().and_then(|s| s.name().ok()) {
            Some(".data.const") => DataSection::Constant,
            Some(".data.global") => DataSection::Global,
            Some(".data.const.string") => DataSection::Strings,
            _ => continue,
        };
        if let Ok(name) = sym.name() {
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
        let Some(sec) = elf.section_by_name(name) else {
            continue;
        };
        for (offset, reloc) in sec.relocations() {
            let object::RelocationFlags::Elf { r_type: 1 } = reloc.flags() else {
                continue;
            };
            let object::RelocationTarget::Symbol(si) = reloc.target() else {
                continue;
            };
            let Some(sym) = symbols_by_index(&elf, si) else {
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
        device: None,
        pointer_size: 8,
        constant_data,
        global_data,
        string_data,
        symbols,
        data_pointers,
        kernels,
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

/// The data section and offset of symbol `index` (None outside the data sections).
fn symbols_by_index(
    elf: &ElfFile64<'_, Endianness>,
    index: object::SymbolIndex,
) -> Option<(DataSection, u64)> {
    let sym = elf.symbol_by_index(index).ok()?;
    let section = elf.section_by_index(sym.section_index()?).ok()?;
    let which = match section.name().ok()? {
        ".data.const" => DataSection::Constant,
        ".data.global" => DataSection::Global,
        _ => return None,
    };
    Some((which, sym.address()))
}
