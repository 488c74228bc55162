//! Legacy program binaries with patch tokens (IGC 1.0.x, read by NEO's
//! `patchtokens_decoder`): a program header, program-scope tokens, then per kernel a
//! `SKernelBinaryHeaderCommon`, its name, heaps and its token list.

use crate::abi::*;
use crate::cursor::Bytes;
use crate::error::ReadError;
use std::collections::HashMap;

/// `MAGIC_CL`: "INTC" little-endian.
pub const MAGIC: u32 = 0x494E_5443;
const PROGRAM_HEADER: usize = 28;
const KERNEL_HEADER: usize = 40;
const TOKEN_HEADER: usize = 8;

// Token codes (`PATCH_TOKEN`).
const BINDING_TABLE_STATE: u32 = 8;
const GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT: u32 = 11;
const IMAGE_MEMORY_OBJECT_KERNEL_ARGUMENT: u32 = 12;
const ALLOCATE_LOCAL_SURFACE: u32 = 15;
const SAMPLER_KERNEL_ARGUMENT: u32 = 16;
const DATA_PARAMETER_BUFFER: u32 = 17;
const THREAD_PAYLOAD: u32 = 22;
const KERNEL_ARGUMENT_INFO: u32 = 26;
const STRING: u32 = 28;
const EXECUTION_ENVIRONMENT: u32 = 23;
const STATELESS_GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT: u32 = 30;
const STATELESS_CONSTANT_MEMORY_OBJECT_KERNEL_ARGUMENT: u32 = 31;
const ALLOCATE_STATELESS_PRINTF_SURFACE: u32 = 33;
const ALLOCATE_STATELESS_PRIVATE_MEMORY: u32 = 38;
const ALLOCATE_GLOBAL_MEMORY_SURFACE_PROGRAM_BINARY_INFO: u32 = 41;
const ALLOCATE_CONSTANT_MEMORY_SURFACE_PROGRAM_BINARY_INFO: u32 = 42;
const ALLOCATE_STATELESS_GLOBAL_MEMORY_SURFACE_WITH_INITIALIZATION: u32 = 43;
const ALLOCATE_STATELESS_CONSTANT_MEMORY_SURFACE_WITH_INITIALIZATION: u32 = 44;
const STATELESS_DEVICE_QUEUE_KERNEL_ARGUMENT: u32 = 46;
const GLOBAL_POINTER_PROGRAM_BINARY_INFO: u32 = 47;
const CONSTANT_POINTER_PROGRAM_BINARY_INFO: u32 = 48;
const ALLOCATE_SYNC_BUFFER: u32 = 56;
const SAMPLER_STATE_ARRAY: u32 = 5;

// Data parameter types (`DATA_PARAMETER_TOKEN`).
const DP_KERNEL_ARGUMENT: u32 = 1;
const DP_LOCAL_WORK_SIZE: u32 = 2;
const DP_GLOBAL_WORK_SIZE: u32 = 3;
const DP_NUM_WORK_GROUPS: u32 = 4;
const DP_WORK_DIMENSIONS: u32 = 5;
const DP_SUM_OF_LOCAL_MEMORY_OBJECT_ARGUMENT_SIZES: u32 = 8;
const DP_GLOBAL_WORK_OFFSET: u32 = 16;
const DP_ENQUEUED_LOCAL_WORK_SIZE: u32 = 28;
const DP_BUFFER_OFFSET: u32 = 42;
const DP_IMAGE_WIDTH: u32 = 9;
const DP_IMAGE_HEIGHT: u32 = 10;
const DP_IMAGE_DEPTH: u32 = 11;
const DP_IMAGE_CHANNEL_DATA_TYPE: u32 = 12;
const DP_IMAGE_CHANNEL_ORDER: u32 = 13;
const DP_IMAGE_ARRAY_SIZE: u32 = 18;
const DP_IMAGE_NUM_SAMPLES: u32 = 20;
const DP_IMAGE_NUM_MIP_LEVELS: u32 = 27;
const DP_OBJECT_ID: u32 = 35;

pub fn read(data: &[u8], base: usize, container: Container) -> Result<Program, ReadError> {
    let b = Bytes::new(data, base);
    let h = "program header";
    let magic = b.u32(0, h, "Magic")?;
    if magic != MAGIC {
        return Err(ReadError::new(
            h,
            "Magic",
            base,
            format!("{magic:#x}, expected {MAGIC:#x} (INTC)"),
        ));
    }
    let version = b.u32(4, h, "Version")?;
    let device = b.u32(8, h, "Device")?;
    let pointer_size = b.u32(12, h, "GPUPointerSizeInBytes")?;
    let kernel_count = b.u32(16, h, "NumberOfKernels")?;
    let patch_list_size = b.u32(24, h, "PatchListSize")? as usize;
    let program_tokens = PROGRAM_HEADER;
    let mut pos = program_tokens
        .checked_add(patch_list_size)
        .filter(|end| *end <= data.len())
        .ok_or_else(|| {
            ReadError::new(
                h,
                "PatchListSize",
                base + 24,
                format!(
                    "{patch_list_size} bytes of program tokens, {} remain",
                    data.len().saturating_sub(PROGRAM_HEADER)
                ),
            )
        })?;
    // Program-scope tokens carry inline data beyond their size; walking them checks it.
    let mut constant_data = Vec::new();
    let mut global_data = Vec::new();
    let mut data_pointers = Vec::new();
    walk_tokens(&b, program_tokens, pos, "program", |token, at, size| {
        let inline = |len_at: usize| -> Result<Vec<u8>, ReadError> {
            let len = b.u32(at + len_at, "program token", "InlineDataSize")? as usize;
            Ok(b.slice(at + size, len, "program token", "inline data")?
                .to_vec())
        };
        match token {
            ALLOCATE_CONSTANT_MEMORY_SURFACE_PROGRAM_BINARY_INFO if size >= 16 => {
                constant_data = inline(12)?
            }
            ALLOCATE_GLOBAL_MEMORY_SURFACE_PROGRAM_BINARY_INFO if size >= 20 => {
                global_data = inline(16)?
            }
            // {buffer index u32, pointer offset u64 (packed), buffer type u32, buffer
            // index u32}; buffer type 0 is the global buffer, 1 the constant one.
            GLOBAL_POINTER_PROGRAM_BINARY_INFO | CONSTANT_POINTER_PROGRAM_BINARY_INFO
                if size >= 28 =>
            {
                let lo = b.u32(at + 12, "program token", "PointerOffset")? as u64;
                let hi = b.u32(at + 16, "program token", "PointerOffset")? as u64;
                let section = |ty: u32| match ty {
                    0 => DataSection::Global,
                    _ => DataSection::Constant,
                };
                data_pointers.push(DataPointer {
                    holder: if token == GLOBAL_POINTER_PROGRAM_BINARY_INFO {
                        DataSection::Global
                    } else {
                        DataSection::Constant
                    },
                    offset: lo | hi << 32,
                    target: section(b.u32(at + 20, "program token", "BufferType")?),
                });
            }
            _ => {}
        }
        Ok(())
    })?;
    // Each kernel needs at least its header: the count cannot promise more than the input holds.
    let max_kernels = data.len().saturating_sub(pos) / KERNEL_HEADER;
    if kernel_count as usize > max_kernels {
        return Err(ReadError::new(
            h,
            "NumberOfKernels",
            base + 16,
            format!("{kernel_count} kernels, but only {max_kernels} kernel headers fit"),
        ));
    }
    let mut kernels = Vec::with_capacity(kernel_count as usize);
    for ki in 0..kernel_count as usize {
        let (kernel, end) = read_kernel(&b, pos, ki)?;
        kernels.push(kernel);
        pos = end;
    }
    Ok(Program {
        format: Format::PatchTokens,
        container,
        version: version.to_string(),
        device: Some(device),
        pointer_size,
        constant_data,
        global_data,
        string_data: Vec::new(),
        symbols: Vec::new(),
        data_pointers,
        kernels,
    })
}

/// Pseudo argument indices for the program's constant and global surfaces.
const CONSTANT_SURFACE: u32 = u32::MAX;
const GLOBAL_SURFACE: u32 = u32::MAX - 1;

fn read_kernel(b: &Bytes, start: usize, ki: usize) -> Result<(KernelAbi, usize), ReadError> {
    let s = format!("kernel[{ki}] header");
    let name_size = b.u32(start + 12, &s, "KernelNameSize")? as usize;
    let patch_size = b.u32(start + 16, &s, "PatchListSize")? as usize;
    let heap = b.u32(start + 20, &s, "KernelHeapSize")? as usize;
    let gsh = b.u32(start + 24, &s, "GeneralStateHeapSize")? as usize;
    let dsh = b.u32(start + 28, &s, "DynamicStateHeapSize")? as usize;
    let ssh = b.u32(start + 32, &s, "SurfaceStateHeapSize")? as usize;
    let unpadded = b.u32(start + 36, &s, "KernelUnpaddedSize")? as usize;
    let name_at = start + KERNEL_HEADER;
    let name_bytes = b.slice(name_at, name_size, &s, "kernel name")?;
    let name_len = name_bytes
        .iter()
        .position(|c| *c == 0)
        .unwrap_or(name_bytes.len());
    let name = String::from_utf8_lossy(&name_bytes[..name_len]).into_owned();
    let s = format!("kernel[{ki}] \"{name}\"");
    let heap_at = name_at + name_size;
    let code = b.slice(heap_at, heap, &s, "kernel heap")?;
    let dsh_at = heap_at + heap + gsh;
    let dsh_bytes = b.slice(dsh_at, dsh, &s, "dynamic state heap")?;
    let ssh_at = dsh_at + dsh;
    let ssh_bytes = b.slice(ssh_at, ssh, &s, "surface state heap")?;
    let tokens_at = ssh_at + ssh;
    let end = tokens_at
        .checked_add(patch_size)
        .filter(|e| *e <= b.data.len())
        .ok_or_else(|| {
            ReadError::new(
                &s,
                "PatchListSize",
                b.base + start + 16,
                format!(
                    "{patch_size} bytes of tokens, {} remain",
                    b.data.len().saturating_sub(tokens_at)
                ),
            )
        })?;
    let mut abi = KernelBuilder::new(name);
    abi.gen_code = code[..unpadded.min(code.len())].to_vec();
    abi.gen_code_size = abi.gen_code.len();
    let mut binding_table: Option<(u32, u32)> = None;
    let mut surface_args: Vec<(u32, u32)> = Vec::new();
    let mut largest_simd = 0;
    let mut compiled = [false; 3];
    walk_tokens(b, tokens_at, end, &s, |token, at, size| {
        // Fields beyond the token's size read as 0 (older releases write shorter tokens).
        let field = |i: usize| -> u32 {
            if TOKEN_HEADER + 4 * (i + 1) <= size {
                b.u32(at + TOKEN_HEADER + 4 * i, "", "").unwrap_or(0)
            } else {
                0
            }
        };
        match token {
            BINDING_TABLE_STATE => binding_table = Some((field(0), field(1))),
            GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT => {
                let arg = abi.arg_mut(field(0), ArgKind::StatefulPointer);
                arg.address_space = Some(AddressSpace::Global);
                surface_args.push((field(0), field(1)));
            }
            IMAGE_MEMORY_OBJECT_KERNEL_ARGUMENT => {
                // ArgumentNumber, Type (IMAGE_MEMORY_OBJECT_TYPE), Offset (in the SSH), ...
                let arg = abi.arg_mut(field(0), ArgKind::Image);
                arg.kind = ArgKind::Image;
                arg.address_space = Some(AddressSpace::Image);
                arg.image_type = Some(match field(1) {
                    1 => ImageType::Buffer,
                    2 => ImageType::Image1d,
                    3 => ImageType::Image1dArray,
                    4 => ImageType::Image2d,
                    5 => ImageType::Image2dArray,
                    6 => ImageType::Image3d,
                    _ => ImageType::Other,
                });
                surface_args.push((field(0), field(2)));
            }
            SAMPLER_STATE_ARRAY => {
                // Offset (in the DSH), Count, BorderColorOffset: one SAMPLER_STATE each.
                let (offset, count) = (field(0) as usize, field(1).min(16));
                for i in 0..count {
                    let at = offset.saturating_add(16 * i as usize);
                    if let Some(state) = dsh_bytes.get(at..at.saturating_add(16)) {
                        let mut st = [0u8; 16];
                        st.copy_from_slice(state);
                        abi.inline_samplers
                            .push(InlineSampler::from_sampler_state(i, &st));
                    }
                }
            }
            SAMPLER_KERNEL_ARGUMENT => {
                let arg = abi.arg_mut(field(0), ArgKind::Sampler);
                arg.kind = ArgKind::Sampler;
                arg.address_space = Some(AddressSpace::Sampler);
            }
            STATELESS_GLOBAL_MEMORY_OBJECT_KERNEL_ARGUMENT
            | STATELESS_CONSTANT_MEMORY_OBJECT_KERNEL_ARGUMENT
            | STATELESS_DEVICE_QUEUE_KERNEL_ARGUMENT => {
                let arg = abi.arg_mut(field(0), ArgKind::StatelessPointer);
                arg.kind = ArgKind::StatelessPointer;
                arg.address_space = Some(
                    if token == STATELESS_CONSTANT_MEMORY_OBJECT_KERNEL_ARGUMENT {
                        AddressSpace::Constant
                    } else {
                        AddressSpace::Global
                    },
                );
                arg.pieces.push(Piece {
                    offset: field(2),
                    size: field(3),
                    source_offset: 0,
                });
                surface_args.push((field(0), field(1)));
            }
            ALLOCATE_LOCAL_SURFACE => abi.slm_size = field(1),
            DATA_PARAMETER_BUFFER => {
                let (ty, index, offset, size, source) =
                    (field(0), field(1), field(2), field(3), field(4));
                let implicit = |kind| ImplicitArg {
                    kind,
                    offset,
                    size,
                    source_offset: source,
                };
                match ty {
                    DP_KERNEL_ARGUMENT => {
                        let arg = abi.arg_mut(index, ArgKind::Value);
                        if arg.address_space.is_none() {
                            arg.address_space = Some(AddressSpace::Private);
                        }
                        arg.pieces.push(Piece {
                            offset,
                            size,
                            source_offset: source,
                        });
                    }
                    DP_SUM_OF_LOCAL_MEMORY_OBJECT_ARGUMENT_SIZES => {
                        let arg = abi.arg_mut(index, ArgKind::LocalPointer);
                        arg.kind = ArgKind::LocalPointer;
                        arg.address_space = Some(AddressSpace::Local);
                        // NEO reads the required SLM alignment from SourceOffset.
                        arg.slm_alignment = Some(source.clamp(1, 1 << 16));
                        arg.pieces.push(Piece {
                            offset,
                            size,
                            source_offset: 0,
                        });
                    }
                    DP_LOCAL_WORK_SIZE => abi.implicit.push(implicit(Implicit::LocalSize)),
                    DP_ENQUEUED_LOCAL_WORK_SIZE => {
                        abi.implicit.push(implicit(Implicit::EnqueuedLocalSize))
                    }
                    DP_GLOBAL_WORK_SIZE => abi.implicit.push(implicit(Implicit::GlobalSize)),
                    DP_NUM_WORK_GROUPS => abi.implicit.push(implicit(Implicit::NumGroups)),
                    DP_WORK_DIMENSIONS => abi.implicit.push(implicit(Implicit::WorkDim)),
                    DP_GLOBAL_WORK_OFFSET => abi.implicit.push(implicit(Implicit::GlobalOffset)),
                    DP_BUFFER_OFFSET => abi
                        .implicit
                        .push(implicit(Implicit::BufferOffset { arg: index })),
                    DP_IMAGE_WIDTH
                    | DP_IMAGE_HEIGHT
                    | DP_IMAGE_DEPTH
                    | DP_IMAGE_CHANNEL_DATA_TYPE
                    | DP_IMAGE_CHANNEL_ORDER
                    | DP_IMAGE_ARRAY_SIZE
                    | DP_IMAGE_NUM_SAMPLES
                    | DP_IMAGE_NUM_MIP_LEVELS
                    | DP_OBJECT_ID => {
                        let param = match ty {
                            DP_IMAGE_WIDTH => ImageParam::Width,
                            DP_IMAGE_HEIGHT => ImageParam::Height,
                            DP_IMAGE_DEPTH => ImageParam::Depth,
                            DP_IMAGE_CHANNEL_DATA_TYPE => ImageParam::ChannelDataType,
                            DP_IMAGE_CHANNEL_ORDER => ImageParam::ChannelOrder,
                            DP_IMAGE_ARRAY_SIZE => ImageParam::ArraySize,
                            DP_IMAGE_NUM_SAMPLES => ImageParam::NumSamples,
                            DP_IMAGE_NUM_MIP_LEVELS => ImageParam::NumMipLevels,
                            _ => ImageParam::ObjectId,
                        };
                        abi.implicit
                            .push(implicit(Implicit::Image { arg: index, param }))
                    }
                    code => abi.implicit.push(implicit(Implicit::Other { code })),
                }
            }
            THREAD_PAYLOAD => {
                abi.per_thread.local_id = [field(1) != 0, field(2) != 0, field(3) != 0];
                abi.per_thread.unused_grf = field(6) != 0; // UnusedPerThreadConstantPresent
                                                           // OffsetToSkipPerThreadDataLoad, OffsetToSkipSetFFIDGP, PassInlineData
                                                           // (absent from older token versions: read as 0).
                abi.entry.skip_per_thread_data_load = field(12);
                abi.entry.skip_set_ffid_gp = field(13);
                if field(14) != 0 {
                    abi.entry.inline_data = crate::InlineData::OneGrf;
                }
            }
            EXECUTION_ENVIRONMENT => {
                abi.required_local = Some([field(0), field(1), field(2)]);
                largest_simd = field(3);
                abi.has_barriers = field(5) != 0;
                compiled = [field(7) != 0, field(8) != 0, field(9) != 0];
            }
            ALLOCATE_STATELESS_PRIVATE_MEMORY => {
                abi.private_size = field(3);
                abi.implicit.push(ImplicitArg {
                    kind: Implicit::PrivateBase,
                    offset: field(1),
                    size: field(2),
                    source_offset: 0,
                });
            }
            KERNEL_ARGUMENT_INFO => {
                // ArgumentNumber, then the sizes of five strings that follow the
                // token's fields in this order: address qualifier, access qualifier,
                // name, type name, type qualifier.
                let mut at = at + TOKEN_HEADER + 24;
                let end = at.saturating_add(size).saturating_sub(TOKEN_HEADER + 24);
                let mut strings = (1..=5).map(|i| {
                    let len = field(i) as usize;
                    let text = b
                        .data
                        .get(at..at.saturating_add(len).min(end))
                        .map(text_of)
                        .unwrap_or_default();
                    at = at.saturating_add(len);
                    text
                });
                let address_qualifier = strings.next().unwrap_or_default();
                let _access = strings.next();
                let name = strings.next().unwrap_or_default();
                let type_name = strings.next().unwrap_or_default();
                abi.arg_info
                    .push(ArgInfo::new(field(0), name, &type_name, address_qualifier));
            }
            STRING => {
                // Index, StringSize, then the string.
                let from = at + TOKEN_HEADER + 8;
                let len = (field(1) as usize).min(size.saturating_sub(TOKEN_HEADER + 8));
                if let Some(text) = b.data.get(from..from + len) {
                    let text = text.split(|c| *c == 0).next().unwrap_or_default();
                    abi.printf_strings.push((field(0), text.to_vec()));
                }
            }
            ALLOCATE_STATELESS_PRINTF_SURFACE => abi.implicit.push(ImplicitArg {
                kind: Implicit::PrintfBuffer,
                offset: field(2),
                size: field(3),
                source_offset: 0,
            }),
            ALLOCATE_SYNC_BUFFER => abi.implicit.push(ImplicitArg {
                kind: Implicit::SyncBuffer,
                offset: field(1),
                size: field(2),
                source_offset: 0,
            }),
            ALLOCATE_STATELESS_CONSTANT_MEMORY_SURFACE_WITH_INITIALIZATION => {
                surface_args.push((CONSTANT_SURFACE, field(1)));
                abi.implicit.push(ImplicitArg {
                    kind: Implicit::ConstantBase,
                    offset: field(2),
                    size: field(3),
                    source_offset: 0,
                })
            }
            ALLOCATE_STATELESS_GLOBAL_MEMORY_SURFACE_WITH_INITIALIZATION => {
                surface_args.push((GLOBAL_SURFACE, field(1)));
                abi.implicit.push(ImplicitArg {
                    kind: Implicit::GlobalBase,
                    offset: field(2),
                    size: field(3),
                    source_offset: 0,
                })
            }
            _ => {}
        }
        Ok(())
    })?;
    // The compiled width: the largest of the SIMD8/16/32 flags, else the "largest" field.
    abi.simd_size = match compiled {
        [_, _, true] => 32,
        [_, true, _] => 16,
        [true, _, _] => 8,
        _ => largest_simd,
    };
    // Binding-table index of each surface argument: the first entry holding its
    // surface-state offset (entries indexed by offset once, not searched per argument).
    if let Some((bt_offset, count)) = binding_table {
        let mut bti_of: HashMap<u32, u32> = HashMap::new();
        for i in 0..count.min(256) {
            let at = bt_offset as usize + 4 * i as usize;
            if let Some(e) = ssh_bytes.get(at..at + 4) {
                bti_of
                    .entry(u32::from_le_bytes([e[0], e[1], e[2], e[3]]))
                    .or_insert(i);
            }
        }
        for (index, ss_offset) in surface_args {
            let Some(&bti) = bti_of.get(&ss_offset) else {
                continue;
            };
            if index == CONSTANT_SURFACE {
                abi.constant_bti = Some(bti);
            } else if index == GLOBAL_SURFACE {
                abi.global_bti = Some(bti);
            } else if let Some(arg) = abi.existing_arg_mut(index) {
                arg.bti = Some(bti);
            }
        }
    }
    Ok((abi.finish(), end))
}

/// A NUL-terminated (or padded) string of a token, as text.
fn text_of(bytes: &[u8]) -> String {
    let bytes = bytes.split(|c| *c == 0).next().unwrap_or_default();
    String::from_utf8_lossy(bytes).into_owned()
}

/// Walks the tokens in `[start, end)`, calling `each(token, offset, size)`.
fn walk_tokens(
    b: &Bytes,
    start: usize,
    end: usize,
    structure: &str,
    mut each: impl FnMut(u32, usize, usize) -> Result<(), ReadError>,
) -> Result<(), ReadError> {
    let mut pos = start;
    let mut n = 0usize;
    while pos < end {
        // The structure's name is only spelled out for an error (not once per token).
        let name = || format!("{structure}/patch token[{n}]");
        let named = |e: ReadError| ReadError {
            structure: name(),
            ..e
        };
        let token = b.u32(pos, "", "Token").map_err(named)?;
        let size = b.u32(pos + 4, "", "Size").map_err(named)? as usize;
        if size < TOKEN_HEADER || size > end - pos {
            return Err(ReadError::new(
                name(),
                "Size",
                b.base + pos + 4,
                format!(
                    "{size}: a token takes 8..={} bytes here (token {token})",
                    end - pos
                ),
            ));
        }
        // Program-scope surfaces: their initial data follows the token.
        let inline = match token {
            ALLOCATE_GLOBAL_MEMORY_SURFACE_PROGRAM_BINARY_INFO if size >= 20 => {
                b.u32(pos + 16, "", "InlineDataSize").map_err(named)? as usize
            }
            ALLOCATE_CONSTANT_MEMORY_SURFACE_PROGRAM_BINARY_INFO if size >= 16 => {
                b.u32(pos + 12, "", "InlineDataSize").map_err(named)? as usize
            }
            _ => 0,
        };
        each(token, pos, size)?;
        let next = pos
            .checked_add(size)
            .and_then(|p| p.checked_add(inline))
            .filter(|p| *p <= end)
            .ok_or_else(|| {
                ReadError::new(
                    name(),
                    "InlineDataSize",
                    b.base + pos,
                    format!("{inline} bytes of inline data overrun the token list"),
                )
            })?;
        pos = next;
        n += 1;
    }
    Ok(())
}
