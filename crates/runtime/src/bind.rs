//! Binding a launch as the OpenCL runtime does: explicit arguments into the
//! cross-thread payload and memory, implicit arguments, program-scope data and its
//! relocations, inline samplers; then the run, and its results.

use crate::budget::{Budget, Origin};
use crate::printf::{self, Strings};
use crate::spec::{ArgRef, ArgSpec, Scalar};
use crate::{default_instruction_limit, gen, workgroup, Error};
use gpukit_intel::{ArgKind, DataSection, ImageParam, ImageType, Implicit, KernelAbi, Program};
use gpukit_visa::interp::{
    self, AddressMode, ChannelType, ImageDesc, Launch, Memory, Payload, Sampler, Shape, Stats,
};
use gpukit_visa::Routine;

/// The kernel to launch: its name (as the program binary names it) and its code.
pub struct Kernel<'a> {
    pub name: &'a str,
    pub code: Code<'a>,
}

/// The code a launch runs, in either front end of the engine; arguments, payload,
/// memory, budget and printf are the same for both.
pub enum Code<'a> {
    /// vISA: the kernel's body and the functions it may call.
    Visa {
        body: &'a Routine,
        functions: Vec<(&'a [u8], &'a Routine)>,
    },
    /// Gen machine code: the IGA listing of the code the program binary holds for the
    /// kernel (IGC's `.asm` dump, `iga64 -d` text or JSON).
    Gen(&'a gpukit_iga::Listing),
    /// `--compare`'s locating run: the Gen code followed against its vISA, instruction
    /// by instruction ([`gpukit_gen::locate`]); the outcome's [`Outcome::departure`]
    /// says where they first part, its memory is as bound (before either run).
    Locate {
        listing: &'a gpukit_iga::Listing,
        placement: &'a gpukit_gen::locate::Placement,
        body: &'a Routine,
        functions: Vec<(&'a [u8], &'a Routine)>,
    },
}

/// A kernel's code as the launch runs it: Gen code is lowered once, before anything
/// is bound (its register file is the launch's register footprint).
enum Ready<'k, 'a> {
    Visa(&'a Routine, &'k [(&'a [u8], &'a Routine)]),
    Gen(gpukit_gen::Program),
    /// The lowered Gen code, and what [`gpukit_gen::locate::locate`] follows it with.
    Locate(gpukit_gen::Program, Followed<'k, 'a>),
}

/// The listing, the dump's placement and the vISA a locating launch follows.
struct Followed<'k, 'a> {
    listing: &'a gpukit_iga::Listing,
    placement: &'a gpukit_gen::locate::Placement,
    body: &'a Routine,
    functions: &'k [(&'a [u8], &'a Routine)],
}

/// What the caller asks of one launch.
pub struct Request {
    pub global: [u32; 3],
    /// `[0, 0, 0]`: the size the runtime chooses ([`workgroup::default_local`]); a
    /// `reqd_work_group_size` in the binary is the only size accepted.
    pub local: [u32; 3],
    /// How many of the dimensions the caller gave (`get_work_dim()`).
    pub work_dim: u32,
    /// Argument (index or name) and spec; the buffers are moved into the launch's memory.
    pub args: Vec<(ArgRef, ArgSpec)>,
    /// `None`: [`default_instruction_limit`] of the launch's hardware threads.
    pub max_instructions: Option<u64>,
    /// How the engine executes (translated or generic); the results are the same.
    pub options: interp::Options,
}

/// What a finished launch leaves.
pub struct Outcome {
    pub stats: Stats,
    /// What the request's `--check` found (nothing when it asked for no check).
    pub findings: Vec<interp::check::Finding>,
    /// Every buffer's bytes as the kernel left them, in the order the launch's memory
    /// holds them, with their addresses.
    pub contents: Vec<(u64, Vec<u8>)>,
    /// The atomic adds that reserved bytes of the printf buffer, by offset.
    pub reservations: Vec<interp::Reservation>,
    /// [`Code::Locate`]: the first Gen instruction whose value departs from its vISA
    /// instruction's (`None` there: every followed value agrees).
    pub departure: Option<gpukit_gen::locate::Departure>,
    /// The instruction limit the launch ran under.
    pub instruction_limit: u64,
    /// The kernel's SIMD size (from its binary).
    pub simd: u32,
    /// The local size the launch ran with (the caller's, or the runtime's choice).
    pub local: [u32; 3],
    /// Argument index -> buffer index in `memory`, for buffer and image arguments.
    buffers: Vec<(u32, usize)>,
    printf: Option<usize>,
    /// The argument names the binary gives, by index.
    names: Vec<(u32, String)>,
    /// The argument types argument info declares, by index.
    types: Vec<(u32, String)>,
    printf_strings: Vec<(u32, Vec<u8>)>,
}

impl Outcome {
    /// The bytes of buffer (or image) argument `arg` after the run.
    pub fn buffer(&self, arg: u32) -> Option<&[u8]> {
        let (_, i) = self.buffers.iter().find(|(a, _)| *a == arg)?;
        Some(&self.contents.get(*i)?.1)
    }

    /// The printf buffer, when the kernel has one: a u32 byte count (4 when
    /// nothing was printed) and the records the kernel wrote after it.
    pub fn printf_buffer(&self) -> Option<&[u8]> {
        Some(&self.contents.get(self.printf?)?.1)
    }

    /// What the kernel printed, as the runtime prints it ([`printf::decode_by_work_item`]:
    /// each work-item's lines together, in work-item order): `None` when the kernel
    /// has no printf buffer.
    pub fn printf_output(&self) -> Option<String> {
        let buffer = self.printf_buffer()?;
        let at = |address: u64| -> Option<Vec<u8>> {
            let (base, data) = self
                .contents
                .iter()
                .find(|(base, data)| address >= *base && address - base < data.len() as u64)?;
            let tail = &data[(address - base) as usize..];
            Some(tail.split(|c| *c == 0).next().unwrap_or_default().to_vec())
        };
        let strings = if self.printf_strings.is_empty() {
            Strings::Addressed(&at)
        } else {
            Strings::Indexed(&self.printf_strings)
        };
        // Who reserved which records: printed per work-item, in work-item order.
        let blocks: Vec<printf::Block> = self
            .reservations
            .iter()
            .map(|r| {
                let [gx, gy, gz] = r.group.map(u128::from);
                let group = (gz << 96) | (gy << 64) | (gx << 32);
                printf::Block {
                    offset: r.offset,
                    items: (0..32)
                        .filter(|lane: &u64| r.lanes & (1 << lane) != 0)
                        .map(|lane| {
                            let local = u64::from(r.thread) * u64::from(self.simd) + lane;
                            group | u128::from(local & 0xFFFF_FFFF)
                        })
                        .collect(),
                }
            })
            .collect();
        Some(printf::decode_by_work_item(buffer, &strings, &blocks))
    }

    /// The buffer (and image) arguments, by index.
    pub fn buffer_args(&self) -> impl Iterator<Item = u32> + '_ {
        self.buffers.iter().map(|(a, _)| *a)
    }

    /// The name argument info gives argument `arg`.
    pub fn arg_name(&self, arg: u32) -> Option<&str> {
        let (_, n) = self.names.iter().find(|(i, _)| *i == arg)?;
        Some(n).filter(|n| !n.is_empty()).map(String::as_str)
    }

    /// The type argument info declares for argument `arg` (`float*`, `int`, ...).
    pub fn arg_type(&self, arg: u32) -> Option<&str> {
        let (_, t) = self.types.iter().find(|(i, _)| *i == arg)?;
        Some(t.as_str())
    }

    /// The index of argument `arg` (a name where the binary has argument names).
    pub fn arg_index(&self, arg: &ArgRef) -> Option<u32> {
        match arg {
            ArgRef::Index(n) => Some(*n),
            ArgRef::Name(name) => self.names.iter().find(|(_, n)| n == name).map(|(i, _)| *i),
        }
    }
}

/// "argument N" with the source's name where the binary has it.
fn label(abi: &KernelAbi, index: u32) -> String {
    match abi.arg_info(index) {
        Some(info) if !info.name.is_empty() => format!("argument {index} ({})", info.name),
        _ => format!("argument {index}"),
    }
}

/// The caller's specs by argument index: every name resolved, every index one the
/// kernel has, none given twice.
fn resolve_args(
    abi: &KernelAbi,
    args: Vec<(ArgRef, ArgSpec)>,
) -> Result<Vec<(u32, Option<ArgSpec>)>, String> {
    let has = |i: u32| abi.arg(i).is_some() || abi.arg_info(i).is_some();
    let mut indices: Vec<u32> = abi
        .args
        .iter()
        .map(|a| a.index)
        .chain(abi.arg_info.iter().map(|a| a.index))
        .collect();
    indices.sort_unstable();
    indices.dedup();
    let listed = match (indices.first(), indices.last()) {
        (Some(first), Some(last)) if (last - first) as usize + 1 == indices.len() => {
            format!("{first}..={last}")
        }
        (Some(_), Some(_)) => indices
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        _ => "none".into(),
    };
    let mut out: Vec<(u32, Option<ArgSpec>)> = Vec::with_capacity(args.len());
    for (arg, spec) in args {
        let index = match &arg {
            ArgRef::Index(n) => *n,
            ArgRef::Name(name) => match abi.arg_named(name) {
                Some(info) => info.index,
                None if abi.arg_info.is_empty() => {
                    return Err(format!(
                        "--arg {name}=...: the program binary has no argument names (build it with -cl-kernel-arg-info), give the index"
                    ))
                }
                None => {
                    let names: Vec<&str> = abi.arg_info.iter().map(|a| a.name.as_str()).collect();
                    return Err(format!(
                        "--arg {name}=...: no argument is named {name:?} (the arguments are {})",
                        names.join(", ")
                    ));
                }
            },
        };
        if !has(index) {
            return Err(format!(
                "--arg {arg}=...: the kernel has no argument {index} (its arguments: {listed})"
            ));
        }
        if out.iter().any(|(i, _)| *i == index) {
            return Err(format!("{} is given twice", label(abi, index)));
        }
        out.push((index, Some(spec)));
    }
    Ok(out)
}

/// A scalar type as argument info spells it (`int`, `uint`, `float`, ...): its
/// size and whether it is a floating-point type; `None` for vectors, structs and
/// pointers.
pub(crate) fn declared_scalar(type_name: &str) -> Option<(usize, bool)> {
    let t = type_name.trim().trim_start_matches("const ").trim();
    let t = t.strip_prefix("unsigned ").map_or(t, |u| u);
    Some(match t {
        "char" | "uchar" | "bool" => (1, false),
        "short" | "ushort" => (2, false),
        "int" | "uint" => (4, false),
        "long" | "ulong" | "size_t" | "ptrdiff_t" | "intptr_t" | "uintptr_t" => (8, false),
        "half" => (2, true),
        "float" => (4, true),
        "double" => (8, true),
        _ => return None,
    })
}

/// Why a by-value spec does not fit the argument, if it does not: a buffer for a
/// value, a scalar of another type or size than the source declares, bytes of
/// another size than a declared scalar's. Without argument info only a scalar wider
/// than the payload is refused: the payload may hold more than the value (IGC
/// gives a `char` four bytes there).
fn value_mismatch(abi: &KernelAbi, arg: &gpukit_intel::Arg, spec: &ArgSpec) -> Option<String> {
    let declared = abi
        .arg_info(arg.index)
        .map(|i| i.type_name.as_str())
        .filter(|t| !t.is_empty());
    let payload = arg.payload_size() as usize;
    let is = match declared {
        Some(t) => format!("has type {t} (by value)"),
        None => format!("is passed by value ({payload} bytes)"),
    };
    let scalar = declared.and_then(declared_scalar);
    match spec {
        ArgSpec::Scalar(ty, _) => {
            let fits = match (declared, scalar) {
                (Some(_), Some((size, float))) => size == ty.size() && float == ty.is_float(),
                (Some(_), None) => false,
                (None, _) => payload == 0 || ty.size() <= payload,
            };
            (!fits).then(|| {
                let want = match scalar {
                    Some((size, float)) => Scalar::all()
                        .filter(|s| s.size() == size && s.is_float() == float)
                        .map(|s| format!("{s}:VALUE"))
                        .collect::<Vec<_>>()
                        .join(" or "),
                    None => "bytes:PATH".to_string(),
                };
                format!(
                    "{is}; {} is {} bytes of {}: give {want}",
                    spec.what(),
                    ty.size(),
                    ty.opencl_name()
                )
            })
        }
        ArgSpec::Bytes(b) => match scalar {
            Some((size, _)) if b.len() != size => Some(format!(
                "{is}; bytes: gives {} bytes, the type has {size}",
                b.len()
            )),
            _ => None,
        },
        _ => Some(format!(
            "{is}: give TYPE:VALUE or bytes:PATH, not {}",
            spec.what()
        )),
    }
}

/// Marks a bindless image, which has no binding-table index of its own.
const IMAGE_WITHOUT_BTI: u32 = u32::MAX;
/// The cross-thread data a payload can hold.
const MAX_CROSS_THREAD: usize = 1 << 16;
/// `local:` arguments and the binary's own SLM together stay within this.
const MAX_LOCAL_BYTES: u32 = 1 << 20;
/// Scratch space is granted in pages.
const SCRATCH_GRAIN: u64 = 4096;
/// The printf buffer NEO gives a kernel that prints.
const PRINTF_BYTES: u64 = 1 << 20;

/// A bindless argument's surface-state offset: what the runtime writes into the
/// payload and the kernel passes to `bss(...)` messages and `%bss`. gpukit hands out
/// 64-byte-aligned offsets (a surface state's size) from 0x10000, above every binding
/// table index, and binds each in the same table, so both kinds resolve alike.
fn bindless_handle(mem: &mut Memory, bindless_offset: Option<u32>, buffer: usize) -> Option<u32> {
    bindless_offset?;
    let handle = 0x1_0000u32.checked_add(u32::try_from(buffer).ok()?.checked_mul(64)?)?;
    mem.bind(handle, buffer);
    Some(handle)
}

/// Writes `size` bytes of `value` (from `source_offset`) at `offset` of the cross-thread data.
fn put(cross: &mut Vec<u8>, offset: u32, size: u32, source_offset: u32, value: &[u8]) {
    // The ABI's offsets come from the binary: bounded by what a payload can hold.
    let end = (offset as usize).saturating_add(size as usize);
    if end > MAX_CROSS_THREAD {
        return;
    }
    if cross.len() < end {
        cross.resize(end, 0);
    }
    for i in 0..size as usize {
        cross[offset as usize + i] = value
            .get((source_offset as usize).saturating_add(i))
            .copied()
            .unwrap_or(0);
    }
}

fn words(v: [u32; 3]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The value `get_image_*` of `param` reads for an image of `d` (argument `arg`).
fn image_param(d: &ImageDesc, arg: u32, param: ImageParam) -> u32 {
    match param {
        ImageParam::Width => d.width,
        ImageParam::Height => d.height,
        ImageParam::Depth if d.array => 1,
        ImageParam::Depth => d.depth,
        ImageParam::ArraySize => d.depth,
        // The OpenCL enumerants get_image_channel_{order,data_type} return.
        ImageParam::ChannelOrder => match d.channels {
            1 => 0x10B0,
            2 => 0x10B2,
            _ => 0x10B5,
        },
        ImageParam::ChannelDataType => match d.channel_type {
            ChannelType::UnormInt8 => 0x10D2,
            ChannelType::UnormInt16 => 0x10D3,
            ChannelType::SignedInt8 => 0x10D7,
            ChannelType::SignedInt16 => 0x10D8,
            ChannelType::SignedInt32 => 0x10D9,
            ChannelType::UnsignedInt8 => 0x10DA,
            ChannelType::UnsignedInt16 => 0x10DB,
            ChannelType::UnsignedInt32 => 0x10DC,
            ChannelType::Half => 0x10DD,
            ChannelType::Float => 0x10DE,
        },
        ImageParam::NumSamples | ImageParam::NumMipLevels => 1,
        ImageParam::ObjectId => arg,
    }
}

/// Binds `request` to `kernel` as the program binary's ABI describes it, and runs
/// it. `trace`, when given, receives one line per executed instruction.
pub fn launch(
    kernel: &Kernel<'_>,
    mut program: Program,
    request: Request,
    budget: &mut Budget,
    trace: Option<&mut dyn FnMut(String)>,
) -> Result<Outcome, Error> {
    let name = kernel.name;
    let abi_index = program
        .kernels
        .iter()
        .position(|k| k.name == name)
        .ok_or_else(|| Error::NoKernel(name.to_owned()))?;
    let abi = program.kernels.swap_remove(abi_index);
    // The payload is laid out in the device's registers.
    let grf_bytes = program.grf_bytes();
    let Request {
        global,
        local,
        work_dim,
        args,
        max_instructions,
        options,
    } = request;
    let uses_slm = abi.slm_size > 0 || args.iter().any(|(_, s)| matches!(s, ArgSpec::Local(_)));
    let local = workgroup::local_for(&abi, program.device, uses_slm, global, work_dim, local)
        .map_err(|m| Error::Usage(format!("kernel {name}: {m}")))?;
    let mut launch = Launch {
        simd: abi.simd_size,
        grf_bytes,
        global,
        local,
        payload: Payload::default(),
        slm_bytes: 0,
        max_instructions: 0,
        scratch_bytes: 0,
    };
    // The shape is the caller's: its mistakes are usage errors, found before any
    // argument is bound.
    let shape = Shape::of(&launch).map_err(Error::Usage)?;
    // Gen code is lowered once, before anything is bound: its register file is the
    // footprint.
    let code = match &kernel.code {
        Code::Gen(listing) => Ready::Gen(gen::lower(listing, &abi, grf_bytes)?),
        Code::Locate {
            listing,
            placement,
            body,
            functions,
        } => Ready::Locate(
            gen::lower(listing, &abi, grf_bytes)?,
            Followed {
                listing,
                placement,
                body,
                functions,
            },
        ),
        Code::Visa { body, functions } => Ready::Visa(body, functions),
    };
    let footprint = match &code {
        Ready::Gen(program) | Ready::Locate(program, _) => interp::Footprint {
            shape,
            register_bytes_per_thread: u64::from(program.layout.total),
        },
        Ready::Visa(body, functions) => interp::footprint(body, functions, &launch)
            .map_err(|e| Error::Input(format!("kernel {name}: {e}")))?,
    };
    let usage = |m: String| Error::Usage(format!("kernel {name}: {m}"));

    let mut specs = resolve_args(&abi, args).map_err(usage)?;
    // Arguments the binary knows only from argument info (the kernel never reads
    // them) still need a spec, as clEnqueueNDRangeKernel needs every argument set.
    if let Some(missing) = abi
        .arg_info
        .iter()
        .find(|a| abi.arg(a.index).is_none() && !specs.iter().any(|(i, _)| *i == a.index))
    {
        return Err(usage(format!(
            "no --arg {}=... ({}, {} {}, unused by the kernel but required)",
            missing.index,
            label(&abi, missing.index),
            missing.address_qualifier,
            missing.type_name
        )));
    }
    let mut mem = Memory::default();
    let mut cross = vec![0u8; (abi.cross_thread_size as usize).min(MAX_CROSS_THREAD)];
    let mut buffers: Vec<(u32, usize)> = Vec::new();
    let mut images: Vec<(u32, ImageDesc)> = Vec::new();
    budget.charge(
        &format!("kernel {name}: the shared local memory its binary declares"),
        u64::from(abi.slm_size),
        Origin::Input,
    )?;
    let mut slm = abi.slm_size;
    for arg in &abi.args {
        let spec = specs
            .iter_mut()
            .find(|(n, _)| *n == arg.index)
            .and_then(|(_, s)| s.take())
            .ok_or_else(|| {
                let what = match abi.arg_info(arg.index) {
                    Some(i) => format!(
                        " ({}, {} {})",
                        label(&abi, arg.index),
                        i.address_qualifier,
                        i.type_name
                    ),
                    None => String::new(),
                };
                usage(format!("no --arg {}=...{what}", arg.index))
            })?;
        if arg.kind == ArgKind::Value {
            if let Some(why) = value_mismatch(&abi, arg, &spec) {
                return Err(usage(format!("{} {why}", label(&abi, arg.index))));
            }
        }
        match (arg.kind, spec) {
            (ArgKind::StatelessPointer | ArgKind::StatefulPointer, ArgSpec::Buffer(data)) => {
                let index = mem.buffers.len();
                let base = mem.add(format!("argument {}", arg.index), data);
                if let Some(bti) = arg.bti {
                    mem.bind(bti, index);
                }
                let handle = bindless_handle(&mut mem, arg.bindless_offset, index);
                buffers.push((arg.index, index));
                for p in &arg.pieces {
                    let value = match handle {
                        Some(h) if Some(p.offset) == arg.bindless_offset => u64::from(h),
                        _ => base,
                    };
                    put(
                        &mut cross,
                        p.offset,
                        p.size,
                        p.source_offset,
                        &value.to_le_bytes(),
                    );
                }
            }
            (ArgKind::LocalPointer, ArgSpec::Local(bytes)) => {
                let align = arg.slm_alignment.unwrap_or(16).clamp(1, 1 << 16);
                let (at, end) = slm
                    .checked_next_multiple_of(align)
                    .and_then(|at| at.checked_add(bytes).map(|end| (at, end)))
                    .filter(|(_, end)| *end <= MAX_LOCAL_BYTES)
                    .ok_or_else(|| usage("local memory beyond 1 MiB".into()))?;
                budget.charge(
                    &format!("kernel {name}: argument {} (local:{bytes})", arg.index),
                    u64::from(end - slm),
                    Origin::Request,
                )?;
                slm = end;
                for p in &arg.pieces {
                    put(
                        &mut cross,
                        p.offset,
                        p.size,
                        p.source_offset,
                        &u64::from(at).to_le_bytes(),
                    );
                }
            }
            (ArgKind::Image, ArgSpec::Image(desc, data)) => {
                let bti = arg
                    .bti
                    .or(arg.bindless_offset.map(|_| IMAGE_WITHOUT_BTI))
                    .ok_or_else(|| {
                        Error::Input(format!(
                            "kernel {name}: image argument {} has no binding-table index",
                            arg.index
                        ))
                    })?;
                let mut desc = desc;
                desc.array = matches!(
                    arg.image_type,
                    Some(ImageType::Image1dArray | ImageType::Image2dArray)
                );
                let index = mem.add_image(format!("image argument {}", arg.index), desc, data);
                if bti != IMAGE_WITHOUT_BTI {
                    mem.bind(bti, index);
                }
                if let Some(h) = bindless_handle(&mut mem, arg.bindless_offset, index) {
                    for p in &arg.pieces {
                        put(
                            &mut cross,
                            p.offset,
                            p.size,
                            p.source_offset,
                            &u64::from(h).to_le_bytes(),
                        );
                    }
                }
                buffers.push((arg.index, index));
                images.push((arg.index, desc));
            }
            (ArgKind::Value, ArgSpec::Bytes(bytes) | ArgSpec::Scalar(_, bytes)) => {
                for p in &arg.pieces {
                    put(&mut cross, p.offset, p.size, p.source_offset, &bytes);
                }
            }
            (kind, spec) => {
                let (is, give) = match kind {
                    ArgKind::StatelessPointer | ArgKind::StatefulPointer => (
                        "a global pointer",
                        "a buffer: file:PATH, zeros:BYTES, range:N:TYPE, random:N:TYPE:SEED or fill:N:TYPE:V",
                    ),
                    ArgKind::LocalPointer => ("a __local pointer", "local:BYTES"),
                    ArgKind::Image => ("an image", "image:WxH[xD]:ORDER.TYPE:(file:PATH|zeros)"),
                    _ => ("a sampler or another kind gpukit does not bind", "nothing gpukit supports"),
                };
                return Err(usage(format!(
                    "{} is {is}: give {give}, not {}",
                    label(&abi, arg.index),
                    spec.what()
                )));
            }
        }
    }

    // Program-scope data, moved in and bound where the kernel reaches it statefully.
    let mut program_surface = |name: &str, data: Vec<u8>, bti: Option<u32>| -> (usize, u64) {
        let index = mem.buffers.len();
        let base = mem.add(name, data);
        if let Some(b) = bti {
            mem.bind(b, index);
        }
        (index, base)
    };
    let (constant_index, constant_base) = program_surface(
        "program constants",
        std::mem::take(&mut program.constant_data),
        abi.constant_bti,
    );
    let (global_index, global_base) = program_surface(
        "program globals",
        std::mem::take(&mut program.global_data),
        abi.global_bti,
    );
    let (_, strings_base) = program_surface(
        "program strings",
        std::mem::take(&mut program.string_data),
        None,
    );
    let section = |s: DataSection| match s {
        DataSection::Constant => (constant_index, constant_base),
        _ => (global_index, global_base),
    };
    // Pointers in program-scope data hold offsets into a buffer until the runtime adds
    // that buffer's address (as NEO relocates them when it places the buffers).
    for p in &program.data_pointers {
        let (_, target) = section(p.target);
        let holder = &mem.buffers[section(p.holder).0];
        let outside = || {
            Error::Input(format!(
                "program data pointer at offset {} lies outside its {}-byte buffer",
                p.offset,
                holder.len()
            ))
        };
        let at = usize::try_from(p.offset).map_err(|_| outside())?;
        let v = holder.read_array::<8>(at).ok_or_else(outside)?;
        holder.write(
            at,
            &u64::from_le_bytes(v).wrapping_add(target).to_le_bytes(),
        );
    }
    let constant_surface = bindless_handle(&mut mem, Some(0), constant_index);
    let global_surface = bindless_handle(&mut mem, Some(0), global_index);
    mem.symbols = program
        .symbols
        .iter()
        .map(|s| {
            let base = match s.section {
                DataSection::Constant => constant_base,
                DataSection::Global => global_base,
                DataSection::Strings => strings_base,
            };
            (s.name.as_bytes().to_vec(), base.wrapping_add(s.offset))
        })
        .collect();

    let mut printf = None;
    for imp in &abi.implicit {
        let value: Vec<u8> = match imp.kind {
            Implicit::LocalSize | Implicit::EnqueuedLocalSize => words(local),
            Implicit::GlobalSize => words(global),
            Implicit::GlobalOffset | Implicit::BufferOffset { .. } => vec![0; 12],
            Implicit::NumGroups => words(shape.groups),
            Implicit::WorkDim => work_dim.to_le_bytes().to_vec(),
            Implicit::PayloadHeader => {
                let mut v = vec![0u8; 12];
                v.extend(words(local));
                v
            }
            Implicit::PrivateBase => {
                // Each live hardware thread has SIMD x private-size bytes at
                // private_base + %hw_id x that; one work-group is live at a time.
                let lanes = u64::from(shape.threads_per_group) * u64::from(abi.simd_size);
                let bytes = u64::from(abi.private_size).saturating_mul(lanes);
                let what = format!(
                    "kernel {name}: private memory ({} bytes per work-item x {lanes} work-items of a work-group)",
                    abi.private_size
                );
                let data = budget.zeros(&what, bytes, Origin::Input)?;
                mem.add("private memory", data).to_le_bytes().to_vec()
            }
            Implicit::ConstantBase => constant_base.to_le_bytes().to_vec(),
            Implicit::GlobalBase => global_base.to_le_bytes().to_vec(),
            Implicit::ConstantSurface => constant_surface.unwrap_or(0).to_le_bytes().to_vec(),
            Implicit::GlobalSurface => global_surface.unwrap_or(0).to_le_bytes().to_vec(),
            Implicit::InlineSampler { index } => {
                interp::bindless_sampler(index).to_le_bytes().to_vec()
            }
            Implicit::PrintfBuffer => {
                let mut b = budget.zeros(
                    &format!("kernel {name}: the printf buffer"),
                    PRINTF_BYTES,
                    Origin::Request,
                )?;
                // The kernel reserves space by an atomic add on the first dword.
                b[..4].copy_from_slice(&4u32.to_le_bytes());
                printf = Some(mem.buffers.len());
                mem.printf_buffer = printf;
                mem.add("printf buffer", b).to_le_bytes().to_vec()
            }
            Implicit::Image { arg, param } => {
                let Some((_, d)) = images.iter().find(|(i, _)| *i == arg) else {
                    return Err(usage(format!(
                        "the payload wants a property of image argument {arg}, which is not an image here"
                    )));
                };
                image_param(d, arg, param).to_le_bytes().to_vec()
            }
            _ => vec![0; 8],
        };
        put(&mut cross, imp.offset, imp.size, imp.source_offset, &value);
    }
    mem.samplers = abi
        .inline_samplers
        .iter()
        .map(|s| Sampler {
            index: s.index,
            address: match s.addressing {
                gpukit_intel::Addressing::None => AddressMode::None,
                gpukit_intel::Addressing::ClampToEdge => AddressMode::ClampToEdge,
                gpukit_intel::Addressing::Clamp => AddressMode::Clamp,
                gpukit_intel::Addressing::Repeat => AddressMode::Repeat,
                gpukit_intel::Addressing::MirroredRepeat => AddressMode::MirroredRepeat,
            },
            linear: s.filter == gpukit_intel::Filter::Linear,
            normalized: s.normalized,
        })
        .collect();

    // --check's shadow memory: a cell per byte of the buffers and the group's SLM,
    // room for as much again (at most 16 MiB) for private scratch, and an origin per
    // register byte of the group's threads.
    let mut options = options;
    if options.checks.any() {
        let bytes: u64 = mem
            .buffers
            .iter()
            .map(|b| (b.len() as u64).next_multiple_of(4096))
            .sum::<u64>()
            + u64::from(slm).next_multiple_of(4096);
        let shadow = bytes.saturating_mul(interp::check::SHADOW_BYTES_PER_BYTE);
        let shadow = shadow.saturating_add(shadow.min(16 << 20));
        // And the definedness of every thread's registers (`uninit`).
        let shadow = shadow.saturating_add(
            footprint
                .register_bytes()
                .saturating_mul(interp::check::REGISTER_SHADOW_PER_BYTE),
        );
        budget.charge(
            &format!("kernel {name}: shadow memory of --check"),
            shadow,
            Origin::Request,
        )?;
        options.check_shadow_bytes = shadow;
    }
    // The engine's own state for the live work-group: every thread's registers.
    budget.charge(
        &format!(
            "kernel {name}: register space ({} bytes the kernel declares x {} threads of a work-group)",
            footprint.register_bytes_per_thread, shape.threads_per_group
        ),
        footprint.register_bytes(),
        Origin::Input,
    )?;
    // Work-groups in flight at once (--jobs): each more has its own registers, shared
    // local memory and scratch, so only as many run as the budget affords with the
    // engine's full scratch each (the results are the same with fewer). --trace and
    // --check run one.
    let threads = u64::from(shape.threads_per_group);
    let groups = shape.groups.iter().map(|g| u64::from(*g)).product::<u64>();
    let per_group = footprint
        .register_bytes()
        .saturating_add(u64::from(slm))
        .saturating_add(threads.saturating_mul(interp::SCRATCH_BYTES as u64));
    // The Gen engine runs its work-groups one after another. So does a kernel with
    // private memory: its buffer holds one work-group's threads (private_base +
    // %hw_id x SIMD x size, %hw_id the thread's index in its group), so two groups in
    // flight would share their slots.
    let wanted = if trace.is_some()
        || options.checks.any()
        || !matches!(code, Ready::Visa(..))
        || abi.private_size > 0
    {
        1
    } else {
        (options.jobs.max(1) as u64).min(groups)
    };
    let jobs = wanted.min(1 + budget.available(Origin::Input) / per_group.max(1));
    if jobs > 1 {
        budget.charge(
            &format!("kernel {name}: registers and shared local memory of {} more work-groups in flight (--jobs)", jobs - 1),
            (jobs - 1).saturating_mul(footprint.register_bytes().saturating_add(u64::from(slm))),
            Origin::Input,
        )?;
    }
    options.jobs = jobs as usize;
    // Scratch is used only by some kernels and grows as they use it: each thread may
    // have what the budget has left, up to the engine's maximum.
    let scratch = (budget.available(Origin::Input) / (threads * jobs).max(1))
        .min(interp::SCRATCH_BYTES as u64)
        / SCRATCH_GRAIN
        * SCRATCH_GRAIN;
    budget.charge(
        &format!(
            "kernel {name}: scratch space ({scratch} bytes x {threads} threads of a work-group x {jobs} in flight)"
        ),
        scratch * threads * jobs,
        Origin::Input,
    )?;
    let instruction_limit =
        max_instructions.unwrap_or_else(|| default_instruction_limit(shape.hardware_threads()));
    // The per-thread payload size comes from the binary: one past 4 GiB cannot be laid out.
    let per_thread = abi.per_thread_bytes(grf_bytes);
    let cross_thread_offset = u32::try_from(u64::from(grf_bytes) + per_thread).map_err(|_| {
        Error::Input(format!(
            "kernel {name}: a per-thread payload of {per_thread} bytes does not fit in 32 bits"
        ))
    })?;
    launch.payload = Payload {
        local_id: abi.per_thread.local_id,
        cross_thread_offset,
        cross_thread: cross,
    };
    launch.slm_bytes = slm;
    launch.max_instructions = instruction_limit;
    launch.scratch_bytes = scratch as u32;
    let mut departure = None;
    let run = match &code {
        Ready::Locate(program, f) => {
            departure = gpukit_gen::locate::locate(
                f.body,
                f.functions,
                f.listing,
                program,
                f.placement,
                &launch,
                &mem,
            )
            .map_err(|e| Error::Listing(format!("kernel {name}: locating: {e}")))?;
            Ok((Stats::default(), Vec::new()))
        }
        Ready::Gen(program) => gen::run(program, &launch, &mut mem, trace, &options),
        Ready::Visa(body, functions) => {
            interp::run_checked(body, functions, &launch, &mut mem, trace, &options)
        }
    };
    let (stats, findings) = run.map_err(|error| Error::Run {
        instruction_limit: error.index.is_some()
            && error
                .message
                .starts_with(&format!("instruction limit of {instruction_limit} ")),
        error,
    })?;
    let reservations = mem.reservations.take_sorted();
    let bases: Vec<u64> = mem.buffers.iter().map(|b| b.base).collect();
    let contents = bases.into_iter().zip(mem.into_bytes()).collect();
    Ok(Outcome {
        stats,
        findings,
        contents,
        reservations,
        departure,
        instruction_limit,
        simd: launch.simd,
        local,
        buffers,
        printf,
        names: abi
            .arg_info
            .iter()
            .map(|a| (a.index, a.name.clone()))
            .collect(),
        types: abi
            .arg_info
            .iter()
            .map(|a| (a.index, a.type_name.clone()))
            .collect(),
        printf_strings: abi.printf_strings,
    })
}
