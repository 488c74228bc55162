//! `gpukit visa run FILE --binary PROGRAM.bin --global X[,Y[,Z]] --local X[,Y[,Z]]
//! --arg N=SPEC... --out N=FILE...`: executes a kernel's vISA on the CPU with the
//! payload built from the program binary's ABI, as the runtime would build it.

use crate::detect::{self, Format};
use crate::error::{CmdError, CmdResult};
use crate::input::read_any as read_file;
use crate::output::{emit, emit_binary, JsonArg};
use gpukit_intel::{ArgKind, ImageParam, ImageType, Implicit, KernelAbi};
use gpukit_visa::interp::{
    self, AddressMode, ChannelType, ImageDesc, Launch, Memory, Payload, Sampler,
};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// The kernel's vISA: a .visaasm text or a .isa binary
    file: PathBuf,
    /// The program binary ocloc wrote beside the dump (patch tokens or zebin): the kernel ABI
    #[arg(long)]
    binary: PathBuf,
    /// Kernel name (default: the only kernel of FILE)
    #[arg(long)]
    kernel: Option<String>,
    /// A function the kernel calls (fcall, ifcall): a .visaasm text holding
    /// `.global_function`, as IGC dumps each beside its kernel (`..._f0.visaasm`).
    /// Functions inside a .isa FILE are found without it
    #[arg(long = "function", value_name = "FILE")]
    functions: Vec<PathBuf>,
    /// Global work size X[,Y[,Z]]
    #[arg(long)]
    global: String,
    /// Local work size X[,Y[,Z]]
    #[arg(long)]
    local: String,
    /// Argument N: file:PATH or zeros:BYTES (a global buffer), local:BYTES (a
    /// __local pointer), TYPE:VALUE (i8..u64, f32, f64), or
    /// image:WxH[xD]:ORDER.TYPE:(file:PATH|zeros) for an image (D is the depth of a
    /// 3D image or the layers of an array; ORDER r, rg or rgba; TYPE f32, f16,
    /// unorm8, unorm16, i8, i16, i32, u8, u16 or u32; texels packed row by row)
    #[arg(long = "arg", value_name = "N=SPEC")]
    args: Vec<String>,
    /// Write buffer argument N to FILE after the run
    #[arg(long = "out", value_name = "N=FILE")]
    outs: Vec<String>,
    /// Print buffer argument N after the run as TYPE elements (u8..i64, f32, f64), 8 a line
    #[arg(long = "show", value_name = "N=TYPE")]
    shows: Vec<String>,
    /// Print every executed instruction with its channel mask (stderr)
    #[arg(long)]
    trace: bool,
    /// Print the run's statistics as JSON
    #[command(flatten)]
    json: JsonArg,
    /// Print wall time and instructions per second (stderr)
    #[arg(long)]
    timing: bool,
    /// Stop with an error after this many executed instructions
    #[arg(long, default_value_t = 200_000_000)]
    max_instructions: u64,
    /// Run every instruction on the generic interpreter, none on the translated engine
    #[arg(long)]
    no_translate: bool,
}

/// `--json`: the run's statistics and the CPU time the run took (process CPU time,
/// every thread, around the execution: parse and bind excluded).
#[derive(serde::Serialize)]
struct Report {
    #[serde(flatten)]
    stats: interp::Stats,
    cpu_nanoseconds: u64,
    channel_instructions_per_cpu_second: f64,
}

/// The process's CPU time so far, nanoseconds (0 where the clock is missing).
fn process_cpu_nanoseconds() -> u64 {
    #[cfg(target_os = "linux")]
    {
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
        t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
    }
    #[cfg(not(target_os = "linux"))]
    {
        0
    }
}

fn usage(m: impl Into<String>) -> CmdError {
    CmdError::Usage(m.into())
}

fn dims(s: &str, what: &str) -> Result<([u32; 3], u32), CmdError> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(usage(format!("--{what}: expected X[,Y[,Z]], got {s:?}")));
    }
    let mut d = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        d[i] = p
            .trim()
            .parse()
            .ok()
            .filter(|v| *v > 0)
            .ok_or_else(|| usage(format!("--{what}: {p:?} is not a positive integer")))?;
    }
    Ok((d, parts.len() as u32))
}

fn split_n(s: &str, flag: &str) -> Result<(u32, String), CmdError> {
    let (n, rest) = s
        .split_once('=')
        .ok_or_else(|| usage(format!("--{flag} {s:?}: expected N=...")))?;
    let n = n
        .trim()
        .parse()
        .map_err(|_| usage(format!("--{flag} {s:?}: {n:?} is not an argument index")))?;
    Ok((n, rest.to_string()))
}

enum Spec {
    Buffer(Vec<u8>),
    Local(u32),
    Bytes(Vec<u8>),
    Image(ImageDesc, Vec<u8>),
}

/// `image:WxH[xD]:ORDER.TYPE:(file:PATH|zeros)`.
fn parse_image(s: &str, v: &str) -> Result<Spec, CmdError> {
    let bad = |why: &str| usage(format!("argument spec {s:?}: {why}"));
    let mut parts = v.splitn(3, ':');
    let (Some(shape), Some(format), Some(source)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(bad("expected image:WxH[xD]:ORDER.TYPE:(file:PATH|zeros)"));
    };
    let dims: Vec<u32> = shape
        .split('x')
        .map(|d| {
            d.trim()
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=16384).contains(n))
        })
        .collect::<Option<_>>()
        .filter(|d: &Vec<u32>| (1..=3).contains(&d.len()))
        .ok_or_else(|| bad("the shape is WxH[xD], each 1..=16384"))?;
    let (order, ty) = format
        .split_once('.')
        .ok_or_else(|| bad("the format is ORDER.TYPE, e.g. rgba.f32"))?;
    let channels = match order {
        "r" => 1,
        "rg" => 2,
        "rgba" => 4,
        _ => return Err(bad("ORDER is r, rg or rgba")),
    };
    let channel_type = match ty {
        "f32" => ChannelType::Float,
        "f16" => ChannelType::Half,
        "unorm8" => ChannelType::UnormInt8,
        "unorm16" => ChannelType::UnormInt16,
        "i8" => ChannelType::SignedInt8,
        "i16" => ChannelType::SignedInt16,
        "i32" => ChannelType::SignedInt32,
        "u8" => ChannelType::UnsignedInt8,
        "u16" => ChannelType::UnsignedInt16,
        "u32" => ChannelType::UnsignedInt32,
        _ => {
            return Err(bad(
                "TYPE is f32, f16, unorm8, unorm16, i8, i16, i32, u8, u16 or u32",
            ))
        }
    };
    let desc = ImageDesc {
        width: dims[0],
        height: dims.get(1).copied().unwrap_or(1),
        depth: dims.get(2).copied().unwrap_or(1),
        array: false,
        channels,
        channel_type,
    };
    let bytes = desc
        .bytes()
        .filter(|b| *b <= 1 << 30)
        .ok_or_else(|| bad("the image exceeds 1 GiB"))?;
    let data = match source.split_once(':') {
        Some(("file", path)) => {
            let data = read_file(Path::new(path))?;
            if data.len() != bytes {
                return Err(bad(&format!(
                    "{path} holds {} bytes; the image takes {bytes}",
                    data.len()
                )));
            }
            data
        }
        _ if source == "zeros" => vec![0; bytes],
        _ => return Err(bad("the texels come from file:PATH or zeros")),
    };
    Ok(Spec::Image(desc, data))
}

fn parse_spec(s: &str) -> Result<Spec, CmdError> {
    let (kind, v) = s
        .split_once(':')
        .ok_or_else(|| usage(format!("argument spec {s:?}: expected KIND:VALUE")))?;
    let bad = || {
        usage(format!(
            "argument spec {s:?}: {v:?} is not a valid {kind} value"
        ))
    };
    let int = |v: &str| -> Option<i128> {
        let v = v.trim();
        if let Some(h) = v.strip_prefix("0x") {
            i128::from_str_radix(h, 16).ok()
        } else {
            v.parse().ok()
        }
    };
    Ok(match kind {
        "image" => return parse_image(s, v),
        "file" => Spec::Buffer(read_file(Path::new(v))?),
        "zeros" => Spec::Buffer(vec![0; v.parse::<usize>().map_err(|_| bad())?]),
        "local" => Spec::Local(v.parse().map_err(|_| bad())?),
        "i8" | "u8" => Spec::Bytes(vec![int(v).ok_or_else(bad)? as u8]),
        "i16" | "u16" => Spec::Bytes((int(v).ok_or_else(bad)? as u16).to_le_bytes().to_vec()),
        "i32" | "u32" => Spec::Bytes((int(v).ok_or_else(bad)? as u32).to_le_bytes().to_vec()),
        "i64" | "u64" => Spec::Bytes((int(v).ok_or_else(bad)? as u64).to_le_bytes().to_vec()),
        "f32" => Spec::Bytes(v.parse::<f32>().map_err(|_| bad())?.to_le_bytes().to_vec()),
        "f64" => Spec::Bytes(v.parse::<f64>().map_err(|_| bad())?.to_le_bytes().to_vec()),
        _ => return Err(usage(format!("argument spec {s:?}: unknown kind {kind:?}"))),
    })
}

/// Marks a bindless image, which has no binding-table index of its own.
const IMAGE_WITHOUT_BTI: u32 = u32::MAX;

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
    // The ABI's offsets come from the binary: bounded by the 64 KiB a payload can hold.
    let end = (offset as usize).saturating_add(size as usize);
    if end > 1 << 16 {
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

/// The line of each instruction in a text, counted as the parser counts them
/// (labels and instructions, one per line); `None` when the count disagrees.
fn line_map(text: &str, count: usize) -> Option<Vec<usize>> {
    let mut lines = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        let code = raw.split("//").next().unwrap_or("").trim();
        if code.is_empty() || code.starts_with('.') || code == "{" || code == "}" {
            continue;
        }
        lines.push(i + 1);
    }
    (lines.len() == count).then_some(lines)
}

pub fn run(a: Args) -> CmdResult {
    let bytes = crate::input::read(&a.file, &[Format::VisaBinary, Format::VisaText])?;
    let (object, text) = if detect::detect(&bytes) != Format::VisaBinary {
        let text = crate::input::text(&a.file, bytes)?;
        let obj = super::parse_text(&a.file, &text, None)?;
        (obj, Some(text))
    } else {
        (
            gpukit_visa::read(&bytes).map_err(|e| CmdError::input(&a.file, e))?,
            None,
        )
    };
    let kernel = match &a.kernel {
        Some(k) => object
            .kernels
            .iter()
            .find(|x| x.name == k.as_bytes())
            .ok_or_else(|| usage(format!("{}: no kernel {k:?}", a.file.display())))?,
        None => match object.kernels.as_slice() {
            [k] => k,
            _ => return Err(usage(format!("{}: give --kernel", a.file.display()))),
        },
    };
    let name = String::from_utf8_lossy(&kernel.name).into_owned();
    let mut extra = Vec::with_capacity(a.functions.len());
    for path in &a.functions {
        extra.push(super::parse_file(path, None)?);
    }
    let functions: Vec<(&[u8], &gpukit_visa::Routine)> = object
        .functions
        .iter()
        .chain(extra.iter().flat_map(|o| o.functions.iter()))
        .map(|f| (f.name.as_slice(), &f.body))
        .collect();
    let program_bytes = crate::input::read(&a.binary, &crate::cmd::intel::info::PROGRAMS)?;
    let program = gpukit_intel::read(&program_bytes).map_err(|e| CmdError::input(&a.binary, e))?;
    let abi: &KernelAbi = program
        .kernels
        .iter()
        .find(|k| k.name == name)
        .ok_or_else(|| CmdError::Input(format!("{}: no kernel {name:?}", a.binary.display())))?;
    let (global, work_dim) = dims(&a.global, "global")?;
    let (local, _) = dims(&a.local, "local")?;
    let mut specs = Vec::new();
    for s in &a.args {
        let (n, spec) = split_n(s, "arg")?;
        specs.push((n, parse_spec(&spec)?));
    }
    let grf = 32u32;
    let mut mem = Memory::default();
    let mut cross = vec![0u8; abi.cross_thread_size as usize];
    let mut buffers: Vec<(u32, usize)> = Vec::new();
    let mut images: Vec<(u32, ImageDesc)> = Vec::new();
    let mut slm = abi.slm_size;
    for arg in &abi.args {
        let spec = specs
            .iter()
            .find(|(n, _)| *n == arg.index)
            .map(|(_, s)| s)
            .ok_or_else(|| usage(format!("kernel {name}: no --arg {}=...", arg.index)))?;
        match (arg.kind, spec) {
            (ArgKind::StatelessPointer | ArgKind::StatefulPointer, Spec::Buffer(data)) => {
                let index = mem.buffers.len();
                let base = mem.add(format!("argument {}", arg.index), data.clone());
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
                    put(&mut cross, p.offset, p.size, p.source_offset, &value.to_le_bytes());
                }
            }
            (ArgKind::LocalPointer, Spec::Local(bytes)) => {
                let align = arg.slm_alignment.unwrap_or(16).clamp(1, 1 << 16);
                let at = slm
                    .checked_next_multiple_of(align)
                    .and_then(|at| at.checked_add(*bytes).map(|end| (at, end)))
                    .filter(|(_, end)| *end <= 1 << 20)
                    .ok_or_else(|| usage(format!("kernel {name}: local memory beyond 1 MiB")))?;
                slm = at.1;
                let at = at.0;
                for p in &arg.pieces {
                    put(&mut cross, p.offset, p.size, p.source_offset, &u64::from(at).to_le_bytes());
                }
            }
            (ArgKind::Image, Spec::Image(desc, data)) => {
                let bti = arg.bti.or(arg.bindless_offset.map(|_| IMAGE_WITHOUT_BTI)).ok_or_else(|| {
                    CmdError::Input(format!(
                        "{}: kernel {name}: image argument {} has no binding-table index",
                        a.binary.display(),
                        arg.index
                    ))
                })?;
                let mut desc = *desc;
                desc.array = matches!(
                    arg.image_type,
                    Some(ImageType::Image1dArray | ImageType::Image2dArray)
                );
                let index = mem.add_image(format!("image argument {}", arg.index), desc, data.clone());
                if bti != IMAGE_WITHOUT_BTI {
                    mem.bind(bti, index);
                }
                if let Some(h) = bindless_handle(&mut mem, arg.bindless_offset, index) {
                    for p in &arg.pieces {
                        put(&mut cross, p.offset, p.size, p.source_offset, &u64::from(h).to_le_bytes());
                    }
                }
                buffers.push((arg.index, index));
                images.push((arg.index, desc));
            }
            (ArgKind::Value, Spec::Bytes(bytes) | Spec::Buffer(bytes)) => {
                for p in &arg.pieces {
                    put(&mut cross, p.offset, p.size, p.source_offset, bytes);
                }
            }
            (kind, _) => {
                return Err(usage(format!(
                    "kernel {name}: argument {} is {kind:?}; its spec does not fit (buffers take file:/zeros:, local pointers local:, values TYPE:VALUE, images image:; sampler arguments are not supported)",
                    arg.index
                )))
            }
        }
    }
    let groups = [
        global[0] / local[0],
        global[1] / local[1],
        global[2] / local[2],
    ];
    // Program-scope data, bound where the kernel reaches it statefully.
    let mut program_surface = |name: &str, data: &[u8], bti: Option<u32>| -> u64 {
        let index = mem.buffers.len();
        let base = mem.add(name, data.to_vec());
        if let Some(b) = bti {
            mem.bind(b, index);
        }
        base
    };
    let constant_base = program_surface(
        "program constants",
        &program.constant_data,
        abi.constant_bti,
    );
    let global_base = program_surface("program globals", &program.global_data, abi.global_bti);
    let strings_base = program_surface("program strings", &program.string_data, None);
    // Constants, globals and strings are the last three buffers added.
    let count = mem.buffers.len();
    // Pointers in program-scope data hold offsets into a buffer until the runtime adds
    // that buffer's address (as NEO relocates them when it places the buffers).
    for p in &program.data_pointers {
        let index_of = |s: gpukit_intel::DataSection| match s {
            gpukit_intel::DataSection::Constant => count - 3,
            _ => count - 2,
        };
        let target = if index_of(p.target) == count - 3 {
            constant_base
        } else {
            global_base
        };
        let data = &mut mem.buffers[index_of(p.holder)].data;
        let at = usize::try_from(p.offset)
            .ok()
            .filter(|o| o.checked_add(8).is_some_and(|e| e <= data.len()));
        let Some(at) = at else {
            return Err(CmdError::Input(format!(
                "program data pointer at offset {} lies outside its {}-byte buffer",
                p.offset,
                data.len()
            )));
        };
        let mut v = [0u8; 8];
        v.copy_from_slice(&data[at..at + 8]);
        data[at..at + 8].copy_from_slice(&u64::from_le_bytes(v).wrapping_add(target).to_le_bytes());
    }
    let constant_surface = bindless_handle(&mut mem, Some(0), count - 3);
    let global_surface = bindless_handle(&mut mem, Some(0), count - 2);
    mem.symbols = program
        .symbols
        .iter()
        .map(|s| {
            let base = match s.section {
                gpukit_intel::DataSection::Constant => constant_base,
                gpukit_intel::DataSection::Global => global_base,
                gpukit_intel::DataSection::Strings => strings_base,
            };
            (s.name.as_bytes().to_vec(), base.wrapping_add(s.offset))
        })
        .collect();
    for imp in &abi.implicit {
        let value: Vec<u8> = match imp.kind {
            Implicit::LocalSize | Implicit::EnqueuedLocalSize => words(local),
            Implicit::GlobalSize => words(global),
            Implicit::GlobalOffset | Implicit::BufferOffset { .. } => vec![0; 12],
            Implicit::NumGroups => words(groups),
            Implicit::WorkDim => work_dim.to_le_bytes().to_vec(),
            Implicit::PayloadHeader => {
                let mut v = vec![0u8; 12];
                v.extend(words(local));
                v
            }
            Implicit::PrivateBase => {
                let items = global.iter().map(|g| *g as usize).product::<usize>();
                let size = (abi.private_size as usize).saturating_mul(items.max(1));
                mem.add("private memory", vec![0; size])
                    .to_le_bytes()
                    .to_vec()
            }
            Implicit::ConstantBase => constant_base.to_le_bytes().to_vec(),
            Implicit::GlobalBase => global_base.to_le_bytes().to_vec(),
            Implicit::ConstantSurface => constant_surface.unwrap_or(0).to_le_bytes().to_vec(),
            Implicit::GlobalSurface => global_surface.unwrap_or(0).to_le_bytes().to_vec(),
            Implicit::InlineSampler { index } => {
                interp::bindless_sampler(index).to_le_bytes().to_vec()
            }
            Implicit::PrintfBuffer => {
                // The kernel reserves space by an atomic add on the first dword.
                let mut b = vec![0u8; 1 << 20];
                b[..4].copy_from_slice(&4u32.to_le_bytes());
                mem.add("printf buffer", b).to_le_bytes().to_vec()
            }
            Implicit::Image { arg, param } => {
                let Some((_, d)) = images.iter().find(|(i, _)| *i == arg) else {
                    return Err(usage(format!(
                        "kernel {name}: the payload wants a property of image argument {arg}, which is not an image here"
                    )));
                };
                let v = match param {
                    ImageParam::Width => d.width,
                    ImageParam::Height => d.height,
                    ImageParam::Depth => {
                        if d.array {
                            1
                        } else {
                            d.depth
                        }
                    }
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
                };
                v.to_le_bytes().to_vec()
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
    let simd = abi.simd_size;
    // The per-thread payload size comes from the binary: one past 4 GiB cannot be laid out.
    let cross_thread_offset =
        u32::try_from(u64::from(grf) + abi.per_thread_bytes(grf)).map_err(|_| {
            CmdError::Input(format!(
                "{}: kernel {name}: a per-thread payload of {} bytes does not fit in 32 bits",
                a.binary.display(),
                abi.per_thread_bytes(grf)
            ))
        })?;
    let launch = Launch {
        simd,
        grf_bytes: grf,
        global,
        local,
        payload: Payload {
            local_id: abi.per_thread.local_id,
            cross_thread_offset,
            cross_thread: cross,
        },
        slm_bytes: slm,
        max_instructions: a.max_instructions,
    };
    let mut trace_sink = |line: String| eprintln!("{line}");
    let trace: Option<&mut dyn FnMut(String)> = if a.trace { Some(&mut trace_sink) } else { None };
    let started = std::time::Instant::now();
    let cpu_started = process_cpu_nanoseconds();
    let options = interp::Options {
        translate: !a.no_translate,
    };
    let result =
        interp::run_with_options(&kernel.body, &functions, &launch, &mut mem, trace, &options);
    let cpu = process_cpu_nanoseconds().saturating_sub(cpu_started);
    let elapsed = started.elapsed();
    let stats = result.map_err(|e| {
        let place = match (e.index, &text) {
            // The error message names the function and the instruction's index there.
            _ if e.function.is_some() => format!("{}: ", a.file.display()),
            (Some(i), Some(t)) => {
                let count = kernel.body.code.instructions_or_empty().len();
                match line_map(t, count).and_then(|m| m.get(i).copied()) {
                    Some(line) => format!(
                        "{}:{line}: {}\n",
                        a.file.display(),
                        t.split('\n').nth(line - 1).unwrap_or("").trim()
                    ),
                    None => format!("{}: instruction #{i}\n", a.file.display()),
                }
            }
            (Some(i), None) => format!("{}: instruction #{i}\n", a.file.display()),
            _ => format!("{}: ", a.file.display()),
        };
        CmdError::Input(format!("{place}{e}"))
    })?;
    for o in &a.outs {
        let (n, path) = split_n(o, "out")?;
        let (_, index) = buffers
            .iter()
            .find(|(arg, _)| *arg == n)
            .ok_or_else(|| usage(format!("--out {o}: argument {n} is not a buffer")))?;
        emit_binary(Some(Path::new(&path)), &mem.buffers[*index].data)?;
    }
    let mut shown = String::new();
    for o in &a.shows {
        let (n, ty) = split_n(o, "show")?;
        let (_, index) = buffers
            .iter()
            .find(|(arg, _)| *arg == n)
            .ok_or_else(|| usage(format!("--show {o}: argument {n} is not a buffer")))?;
        shown.push_str(&format!("argument {n} ({ty}):\n"));
        shown.push_str(&format_elements(&mem.buffers[*index].data, &ty)?);
    }
    if a.timing {
        let secs = elapsed.as_secs_f64().max(1e-9);
        eprintln!(
            "{:.3} s, {:.0} instructions/s, {:.0} channel-instructions/s",
            secs,
            stats.instructions as f64 / secs,
            stats.channel_instructions as f64 / secs
        );
    }
    if a.json.enabled() {
        let report = Report {
            stats,
            cpu_nanoseconds: cpu,
            channel_instructions_per_cpu_second: stats.channel_instructions as f64
                / (cpu.max(1) as f64 / 1e9),
        };
        return emit(None, &a.json.one(&report));
    }
    emit(
        None,
        format!(
            "kernel {name}: simd{simd}, {} work-groups, {} threads, {} instructions ({} channel-instructions), {} barriers\n{shown}",
            stats.groups, stats.threads, stats.instructions, stats.channel_instructions, stats.barriers
        )
        .as_bytes(),
    )
}

/// A buffer as text: elements of `ty`, eight to a line, each line led by its first index.
fn format_elements(data: &[u8], ty: &str) -> Result<String, CmdError> {
    let size = match ty {
        "u8" | "i8" => 1,
        "u16" | "i16" => 2,
        "u32" | "i32" | "f32" => 4,
        "u64" | "i64" | "f64" => 8,
        _ => return Err(usage(format!("--show: unknown element type {ty:?}"))),
    };
    let mut out = String::new();
    for (i, chunk) in data.chunks_exact(size).enumerate() {
        let mut b = [0u8; 8];
        b[..size].copy_from_slice(chunk);
        let raw = u64::from_le_bytes(b);
        let v = match ty {
            "u8" | "u16" | "u32" | "u64" => raw.to_string(),
            "i8" => (raw as u8 as i8).to_string(),
            "i16" => (raw as u16 as i16).to_string(),
            "i32" => (raw as u32 as i32).to_string(),
            "i64" => (raw as i64).to_string(),
            "f32" => f32::from_bits(raw as u32).to_string(),
            _ => f64::from_bits(raw).to_string(),
        };
        if i % 8 == 0 {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&format!("{i:6}:"));
        }
        out.push(' ');
        out.push_str(&v);
    }
    out.push('\n');
    Ok(out)
}
