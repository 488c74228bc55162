//! The kernel ABI of Catalyst OpenCL 2.0: which user SGPRs the dispatcher
//! loads for a kernel's features, the setup buffer (an HSA dispatch packet)
//! the first pointer points to, the argument buffer layout, and the image
//! and sampler words an image or sampler argument points to.
//!
//! Sources: `seeds/amd-cl2-abi.txt` (GCN 1.x rules, setup buffer, argument
//! rules, image tables, flat access), `amd/real-world-notes.md` (GFX9 rules,
//! kernarg rounding), and the corpus, against which the SGPR layout and the
//! argument buffer size are checked kernel by kernel.

use crate::abi::args::{AddressSpace, ArgType};
use crate::cl2::metadata::{kind, ArgEntry, KernelMetadata};
use crate::cl2::setup::USER_SGPR_ENABLES;
use crate::clc::{kernel_signatures, PointerWidth};
use crate::limits;
use serde::Serialize;

// ---------------------------------------------------------------- SGPRs

/// Which rule set assigns user SGPRs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SgprRules {
    /// GCN 1.1 and 1.2 (gfx7, gfx8): the seed's table.
    Gcn,
    /// GFX9 (Vega): flat scratch init is always loaded, two more SGPRs in
    /// every case but enqueue/generic (6, 8, 10, 10, 12).
    Gfx9,
}

/// The kernel features that decide the user SGPRs. Each implies the ones
/// before it in the list `useargs`, `usesetup`, `useenqueue`, `usegeneric`
/// as far as registers go: the highest one enabled decides.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Features {
    pub use_setup: bool,
    pub use_args: bool,
    pub use_enqueue: bool,
    pub use_generic: bool,
}

impl Features {
    pub const NAMES: [&'static str; 4] = ["usesetup", "useargs", "useenqueue", "usegeneric"];

    /// Parses `usesetup,useargs,...` (empty for none).
    pub fn parse(list: &str) -> Result<Self, String> {
        let mut f = Features::default();
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match name {
                "usesetup" => f.use_setup = true,
                "useargs" => f.use_args = true,
                "useenqueue" => f.use_enqueue = true,
                "usegeneric" => f.use_generic = true,
                other => {
                    return Err(format!(
                        "unknown feature `{other}`; expected one of {}",
                        Features::NAMES.join(", ")
                    ))
                }
            }
        }
        Ok(f)
    }

    pub fn names(self) -> Vec<&'static str> {
        let on = [
            self.use_setup,
            self.use_args,
            self.use_enqueue,
            self.use_generic,
        ];
        Features::NAMES
            .iter()
            .zip(on)
            .filter_map(|(n, b)| b.then_some(*n))
            .collect()
    }
}

/// The HSA `kernel_code_properties` enable bits the compiler sets for these
/// features (private segment buffer, dispatch ptr = setup buffer, queue ptr,
/// kernarg ptr, flat scratch init); the corpus has 0x1, 0x9, 0xb, 0x2b, 0x2f.
pub fn kernel_code_properties(features: Features, rules: SgprRules) -> u16 {
    let base: u16 = if features.use_generic {
        0x2f
    } else if features.use_enqueue {
        0x2b
    } else if features.use_setup {
        0xb
    } else if features.use_args {
        0x9
    } else {
        0x1
    };
    match rules {
        SgprRules::Gcn => base,
        SgprRules::Gfx9 => base | 0x20,
    }
}

/// SGPRs a kernel needs beyond those its code names: VCC (2) always, and
/// with useenqueue or usegeneric the FLAT_SCRATCH pair, plus XNACK_MASK
/// from GCN 1.2 (CLRX adds 2 on GCN 1.1 and 4 from GCN 1.2 when it fills
/// the setup's SGPR count).
pub fn extra_sgprs(features: Features, gcn12_or_later: bool) -> u32 {
    let flat = features.use_enqueue || features.use_generic;
    2 + match (flat, gcn12_or_later) {
        (false, _) => 0,
        (true, false) => 2,
        (true, true) => 4,
    }
}

/// One group of user SGPRs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UserSgpr {
    pub first: u32,
    pub count: u32,
    /// HSA name of the enable bit.
    pub hsa_name: &'static str,
    /// What it holds in the CL2 ABI.
    pub role: &'static str,
}

impl UserSgpr {
    /// `s[4:5]` style.
    pub fn registers(&self) -> String {
        format!("s[{}:{}]", self.first, self.first + self.count - 1)
    }
}

const ROLES: [&str; 6] = [
    "scratch buffer descriptor",
    "setup buffer pointer",
    "queue pointer (dword 16: LDS aperture high, dword 17: scratch aperture high, for FLAT)",
    "argument buffer pointer",
    "dispatch id",
    "flat scratch init (offset, size per work-item)",
];

/// The user SGPRs `kernel_code_properties` enables, in load order.
pub fn user_sgpr_layout(properties: u16) -> Vec<UserSgpr> {
    let mut next = 0;
    let mut out = Vec::new();
    for ((bit, hsa_name, count), role) in USER_SGPR_ENABLES.iter().zip(ROLES) {
        if u32::from(properties) & bit != 0 {
            out.push(UserSgpr {
                first: next,
                count: *count,
                hsa_name,
                role,
            });
            next += count;
        }
    }
    out
}

/// Total user SGPRs of a layout.
pub fn user_sgpr_count(layout: &[UserSgpr]) -> u32 {
    layout.iter().map(|g| g.count).sum()
}

/// Where FLAT and scratch accesses find their setup.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FlatScratch {
    /// Scratch buffer descriptor (always the first four user SGPRs).
    pub scratch_descriptor: String,
    /// Pointer to the buffer whose dwords 16/17 hold the LDS and scratch
    /// aperture bases (bits 32-63) for FLAT, when loaded.
    pub aperture_buffer: Option<String>,
    /// SGPR with the scratch offset for FLAT_SCRATCH, when loaded.
    pub flat_scratch_offset: Option<String>,
    /// SGPR with the scratch size per work-item for FLAT_SCRATCH, when loaded.
    pub flat_scratch_size: Option<String>,
}

pub fn flat_scratch(layout: &[UserSgpr]) -> FlatScratch {
    let find = |name: &str| layout.iter().find(|g| g.hsa_name == name);
    let init = find("flat_scratch_init");
    FlatScratch {
        scratch_descriptor: find("private_segment_buffer")
            .map_or("s[0:3]".into(), UserSgpr::registers),
        aperture_buffer: find("queue_ptr").map(UserSgpr::registers),
        flat_scratch_offset: init.map(|g| format!("s{}", g.first)),
        flat_scratch_size: init.map(|g| format!("s{}", g.first + 1)),
    }
}

// ---------------------------------------------------------------- setup buffer

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DispatchError {
    #[error("dimensions must be 1, 2 or 3, got {0}")]
    Dimensions(usize),
    #[error("local size {axis} is {value}; it must be 1..=65535 (16-bit field)")]
    LocalSize { axis: char, value: u64 },
    #[error("global size {axis} is {value}; it must be 1..=4294967295")]
    GlobalSize { axis: char, value: u64 },
}

/// The first six dwords of the setup buffer (an HSA kernel dispatch
/// packet): dword 0 bits 16-31 the dimension count (bits 0-15 are the
/// packet header the runtime writes, 0 here); dword 1 local size X | Y<<16;
/// dword 2 local size Z; dwords 3-5 the global sizes. Unused dimensions are 1.
pub fn setup_buffer(global: &[u64], local: &[u64]) -> Result<[u32; 6], DispatchError> {
    let dims = global.len();
    if !(1..=3).contains(&dims) {
        return Err(DispatchError::Dimensions(dims));
    }
    if local.len() != dims {
        return Err(DispatchError::Dimensions(local.len()));
    }
    let axes = ['x', 'y', 'z'];
    let mut l = [1u32; 3];
    let mut g = [1u32; 3];
    for i in 0..dims {
        l[i] = u32::try_from(local[i])
            .ok()
            .filter(|v| (1..=0xffff).contains(v))
            .ok_or(DispatchError::LocalSize {
                axis: axes[i],
                value: local[i],
            })?;
        g[i] =
            u32::try_from(global[i])
                .ok()
                .filter(|&v| v >= 1)
                .ok_or(DispatchError::GlobalSize {
                    axis: axes[i],
                    value: global[i],
                })?;
    }
    Ok([
        (dims as u32) << 16,
        l[0] | l[1] << 16,
        l[2],
        g[0],
        g[1],
        g[2],
    ])
}

// ---------------------------------------------------------------- arguments

/// A kernel argument as the CL2 argument buffer sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Cl2Arg {
    /// Scalar or vector: element bytes and component count.
    Value {
        elem: u32,
        count: u32,
    },
    Pointer,
    Image,
    Sampler,
    Queue,
    Pipe,
    ClkEvent,
    /// Structs and unions are passed by pointer.
    Struct,
}

impl Cl2Arg {
    fn is_pointer_sized(self) -> bool {
        !matches!(self, Cl2Arg::Value { .. })
    }
}

/// The six arguments every CL2 kernel starts with.
pub const SETUP_ARGS: [&str; 6] = [
    "_.global_offset_0",
    "_.global_offset_1",
    "_.global_offset_2",
    "_.printf_buffer",
    "_.vqueue_pointer",
    "_.aqlwrap_pointer",
];

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArgSlot {
    pub name: String,
    pub arg: Cl2Arg,
    pub offset: u32,
    pub size: u32,
    pub align: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KernargLayout {
    /// The six setup arguments, then the user arguments.
    pub slots: Vec<ArgSlot>,
    /// Bytes up to the end of the last argument.
    pub end: u32,
    /// Buffer size: `end` rounded up to 16 on 15.11+ drivers.
    pub size: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    #[error("{0} arguments, more than the limit of {max}", max = limits::MAX_KERNEL_ARGS)]
    TooMany(usize),
    #[error("argument {index} `{name}`: {message}")]
    Argument {
        index: usize,
        name: String,
        message: String,
    },
    #[error("arguments end past byte {0}")]
    Overflow(u64),
}

/// Which driver conventions the layout follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LayoutOptions {
    pub bits64: bool,
    /// 15.11+: vec3 takes four elements and the size is rounded to 16.
    /// 15.7: vec3 takes three elements, no rounding.
    pub new_layout: bool,
}

/// Lays out the six setup arguments, then `args`: pointer-like arguments
/// (pointers, images, samplers, queues, pipes, events, structs) take 4 or 8
/// bytes aligned to their size; values align to their element size and take
/// element size x components (vec3 as vec4 on 15.11+).
pub fn kernarg_layout(
    args: &[(String, Cl2Arg)],
    options: LayoutOptions,
) -> Result<KernargLayout, LayoutError> {
    if args.len() > limits::MAX_KERNEL_ARGS {
        return Err(LayoutError::TooMany(args.len()));
    }
    let word = if options.bits64 { 8 } else { 4 };
    let setup = SETUP_ARGS.iter().enumerate().map(|(i, n)| {
        let arg = if i == 3 {
            Cl2Arg::Pointer
        } else {
            Cl2Arg::Value {
                elem: word,
                count: 1,
            }
        };
        (n.to_string(), arg)
    });
    let mut slots = Vec::with_capacity(args.len() + SETUP_ARGS.len());
    let mut offset: u64 = 0;
    for (index, (name, arg)) in setup.chain(args.iter().cloned()).enumerate() {
        let (align, size) = match arg {
            a if a.is_pointer_sized() => (word, word),
            Cl2Arg::Value { elem, count } => {
                if !matches!(elem, 1 | 2 | 4 | 8) || !matches!(count, 1 | 2 | 3 | 4 | 8 | 16) {
                    return Err(LayoutError::Argument {
                        index,
                        name,
                        message: format!(
                            "{count} components of {elem} bytes is not an OpenCL scalar or vector"
                        ),
                    });
                }
                let count = if count == 3 && options.new_layout {
                    4
                } else {
                    count
                };
                (elem, elem * count)
            }
            _ => (word, word),
        };
        offset = offset.next_multiple_of(u64::from(align));
        let at = u32::try_from(offset).map_err(|_| LayoutError::Overflow(offset))?;
        slots.push(ArgSlot {
            name,
            arg,
            offset: at,
            size,
            align,
        });
        offset += u64::from(size);
    }
    let end = u32::try_from(offset).map_err(|_| LayoutError::Overflow(offset))?;
    let size = if options.new_layout {
        end.next_multiple_of(16)
    } else {
        end
    };
    Ok(KernargLayout { slots, end, size })
}

/// The metadata's virtual `argOffset` of each argument (setup arguments
/// included): 16-byte slots of max(4, element size) x components, a struct
/// its byte size, an image two slots, anything else pointer-like one slot.
/// A 3-component vector counts as 4 components on 15.11+, and as one slot
/// on 15.7 (as in CL1; the corpus has ulong3 in 16 bytes there).
pub fn virtual_offsets(args: &[(Cl2Arg, u32)], new_layout: bool) -> Vec<u32> {
    let mut offset = 0u32;
    args.iter()
        .map(|&(arg, struct_size)| {
            let at = offset;
            let size = match arg {
                Cl2Arg::Value { count: 3, .. } if !new_layout => 16,
                Cl2Arg::Value { elem, count } => {
                    let count = if count == 3 { 4 } else { count };
                    elem.max(4).saturating_mul(count)
                }
                Cl2Arg::Struct => struct_size,
                Cl2Arg::Image => 32,
                _ => 16,
            };
            offset = offset.saturating_add(size.saturating_add(15) & !15);
            at
        })
        .collect()
}

/// Element bytes of a value's `argType`. Drivers from 16.x write the six
/// setup arguments (`size_t`) as 4 (int) or 5 (long), and some kernels use 2
/// (char) and 3 (short) too, while user arguments keep 6 char, 7 short,
/// 8 int, 9 long, 11 float, 12 double; the two ranges do not overlap, so one
/// table reads every driver (the corpus's 16.x binaries have both).
pub fn element_size(arg_type: u32) -> Option<u32> {
    const SIZES: [(u32, u32); 10] = [
        (2, 1),
        (3, 2),
        (4, 4),
        (5, 8),
        (6, 1),
        (7, 2),
        (8, 4),
        (9, 8),
        (11, 4),
        (12, 8),
    ];
    SIZES.iter().find(|(t, _)| *t == arg_type).map(|(_, s)| *s)
}

/// What an argument entry of the binary metadata says the argument is.
pub fn arg_from_entry(e: &ArgEntry) -> Result<Cl2Arg, String> {
    if e.is_pointer_or_pipe != 0 {
        return Ok(if e.pipe != 0 {
            Cl2Arg::Pipe
        } else {
            Cl2Arg::Pointer
        });
    }
    Ok(match e.kind_of_type {
        kind::SAMPLER => Cl2Arg::Sampler,
        kind::IMAGE => Cl2Arg::Image,
        kind::QUEUE => Cl2Arg::Queue,
        kind::VALUE if e.arg_type == 15 => Cl2Arg::Struct,
        kind::VALUE => {
            let elem = element_size(e.arg_type)
                .ok_or_else(|| format!("argType {} is not a value type", e.arg_type))?;
            Cl2Arg::Value {
                elem,
                count: e.vec_len_or_res_id_or_struct_size,
            }
        }
        k => return Err(format!("kindOfType {k} is not one gpukit knows")),
    })
}

/// The arguments of a kernel's metadata, setup arguments included.
pub fn args_from_metadata(md: &KernelMetadata) -> Result<Vec<(String, Cl2Arg)>, String> {
    md.args
        .iter()
        .map(|e| {
            arg_from_entry(e)
                .map(|a| (e.name.clone(), a))
                .map_err(|m| format!("argument `{}`: {m}", e.name))
        })
        .collect()
}

/// The CL2 view of a type [`crate::clc`] read from OpenCL C source
/// (`None` for CL1-only types: counters, `event_t`).
pub fn from_arg_type(ty: &ArgType) -> Option<Cl2Arg> {
    Some(match ty {
        ArgType::Scalar(s) => Cl2Arg::Value {
            elem: s.size(),
            count: 1,
        },
        ArgType::Vector(s, n) => Cl2Arg::Value {
            elem: s.size(),
            count: *n,
        },
        ArgType::Pointer(_) => Cl2Arg::Pointer,
        ArgType::Image(_) => Cl2Arg::Image,
        ArgType::Sampler => Cl2Arg::Sampler,
        ArgType::Aggregate { .. } => Cl2Arg::Struct,
        ArgType::Counter32 | ArgType::Event => return None,
    })
}

/// Reads a comma-separated OpenCL C parameter list (names optional), e.g.
/// `global int*, float4, image2d_t, sampler_t, queue_t, pipe int`.
/// Ordinary types go through [`crate::clc`]; CL2-only types and structs
/// (passed by pointer, so their definition is not needed) are recognised here.
pub fn parse_signature(signature: &str, bits64: bool) -> Result<Vec<(String, Cl2Arg)>, String> {
    let width = if bits64 {
        PointerWidth::Bits64
    } else {
        PointerWidth::Bits32
    };
    let mut out = Vec::new();
    for (i, param) in signature.split(',').map(str::trim).enumerate() {
        if param.is_empty() {
            if signature.trim().is_empty() {
                break;
            }
            return Err(format!("parameter {i} is empty"));
        }
        if out.len() >= limits::MAX_KERNEL_ARGS {
            return Err(format!("more than {} parameters", limits::MAX_KERNEL_ARGS));
        }
        let words: Vec<&str> = param
            .split(|c: char| c.is_whitespace() || c == '*')
            .filter(|w| !w.is_empty())
            .collect();
        let pointer = param.contains('*');
        let default_name = format!("arg{i}");
        let special = if words.contains(&"pipe") {
            Some(Cl2Arg::Pipe)
        } else if pointer {
            None
        } else if words.iter().any(|w| matches!(*w, "struct" | "union")) {
            Some(Cl2Arg::Struct)
        } else if words.contains(&"queue_t") {
            Some(Cl2Arg::Queue)
        } else if words.contains(&"clk_event_t") {
            Some(Cl2Arg::ClkEvent)
        } else {
            None
        };
        if let Some(arg) = special {
            // A trailing word is the parameter's name unless it is part of the type.
            let last = words.last().copied().unwrap_or("");
            let type_words = match arg {
                Cl2Arg::Pipe => words.iter().skip_while(|w| **w != "pipe").count() >= 3,
                Cl2Arg::Struct => {
                    words
                        .iter()
                        .skip_while(|w| !matches!(**w, "struct" | "union"))
                        .count()
                        >= 3
                }
                _ => !matches!(last, "queue_t" | "clk_event_t"),
            };
            let name = if type_words {
                last.to_owned()
            } else {
                default_name
            };
            out.push((name, arg));
            continue;
        }
        let attempt = |p: &str| {
            kernel_signatures(&format!("kernel void k({p}) {{}}"), &[], width)
                .ok()
                .and_then(|mut ks| ks.pop())
                .and_then(|mut k| k.params.pop())
        };
        let parsed = attempt(&format!("{param} {default_name}")).or_else(|| attempt(param));
        let Some(p) = parsed else {
            return Err(format!(
                "parameter {i} `{param}`: not an OpenCL C kernel parameter type gpukit knows"
            ));
        };
        if matches!(p.ty, ArgType::Pointer(AddressSpace::Private)) && !pointer {
            return Err(format!(
                "parameter {i} `{param}`: not a kernel parameter type"
            ));
        }
        let arg = from_arg_type(&p.ty).ok_or_else(|| {
            format!("parameter {i} `{param}`: not an OpenCL 2.0 kernel argument type")
        })?;
        let name = p.name;
        out.push((name, arg));
    }
    Ok(out)
}

// ---------------------------------------------------------------- images, samplers

/// Channel data types, indexed by dword 8 of the image words & 0xf.
pub const CHANNEL_DATA_TYPES: [&str; 16] = [
    "CL_SNORM_INT8",
    "CL_SNORM_INT16",
    "CL_UNORM_INT8",
    "CL_UNORM_INT16",
    "CL_UNORM_INT24",
    "CL_UNORM_SHORT_555",
    "CL_UNORM_SHORT_565",
    "CL_UNORM_INT_101010",
    "CL_SIGNED_INT8",
    "CL_SIGNED_INT16",
    "CL_SIGNED_INT32",
    "CL_UNSIGNED_INT8",
    "CL_UNSIGNED_INT16",
    "CL_UNSIGNED_INT32",
    "CL_HALF_FLOAT",
    "CL_FLOAT",
];
pub const CHANNEL_DATA_TYPE_MASK: u32 = 0xf;

/// Channel orders, indexed by dword 9 of the image words & 0x1f (20..31 unused).
pub const CHANNEL_ORDERS: [&str; 20] = [
    "CL_A",
    "CL_R",
    "CL_Rx",
    "CL_RG",
    "CL_RGx",
    "CL_RA",
    "CL_RGB",
    "CL_RGBx",
    "CL_RGBA",
    "CL_BGRA",
    "CL_ARGB",
    "CL_ABGR",
    "CL_sRGB",
    "CL_sRGBx",
    "CL_sRGBA",
    "CL_sBGRA",
    "CL_INTENSITY",
    "CL_LUMINANCE",
    "CL_DEPTH",
    "CL_DEPTH_STENCIL",
];
pub const CHANNEL_ORDER_MASK: u32 = 0x1f;

/// What an image argument's pointer points to: the 8-dword resource, then
/// the channel data type (dword 8) and order (dword 9).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImageInfo {
    pub resource: [u32; 8],
    pub channel_data_type: Option<&'static str>,
    pub channel_order: Option<&'static str>,
}

/// `None` when fewer than 10 dwords are given.
pub fn decode_image(words: &[u32]) -> Option<ImageInfo> {
    let w = words.get(..10)?;
    let mut resource = [0u32; 8];
    resource.copy_from_slice(&w[..8]);
    Some(ImageInfo {
        resource,
        channel_data_type: CHANNEL_DATA_TYPES
            .get((w[8] & CHANNEL_DATA_TYPE_MASK) as usize)
            .copied(),
        channel_order: CHANNEL_ORDERS
            .get((w[9] & CHANNEL_ORDER_MASK) as usize)
            .copied(),
    })
}

/// The dwords 8 and 9 the runtime writes for a data type and order name.
pub fn image_info_words(data_type: &str, order: &str) -> Option<[u32; 2]> {
    let t = CHANNEL_DATA_TYPES.iter().position(|n| *n == data_type)?;
    let o = CHANNEL_ORDERS.iter().position(|n| *n == order)?;
    Some([t as u32, o as u32])
}

/// One 8-byte `.hsaimage_samplerinit` entry: a tag dword (0x10008 as
/// drivers write it), then a sampler packed one byte per field: byte 0 the
/// coordinate mode, byte 1 the filter, byte 2 the addressing mode, each in
/// the order of the HSA image extension's enums. The corpus's values
/// (0x10001, 0x100, 0x40101, 0x10101, 0x30001) all decode to valid
/// combinations; no source for them is in the corpus, so the field order is
/// an inference.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SamplerInit {
    pub tag: u32,
    pub value: u32,
    pub normalized_coordinates: Option<bool>,
    pub filter: Option<&'static str>,
    pub addressing: Option<&'static str>,
}

const SAMPLER_FILTERS: [&str; 2] = ["nearest", "linear"];
const SAMPLER_ADDRESSING: [&str; 5] = [
    "undefined",
    "clamp_to_edge",
    "clamp_to_border",
    "repeat",
    "mirrored_repeat",
];

pub fn decode_sampler_init(bytes: &[u8]) -> Vec<SamplerInit> {
    crate::cl2::inner::sampler_values(bytes)
        .into_iter()
        .map(|(tag, value)| {
            let [coord, filter, addressing, rest] = value.to_le_bytes();
            let valid = rest == 0;
            SamplerInit {
                tag,
                value,
                normalized_coordinates: (valid && coord <= 1).then_some(coord == 1),
                filter: SAMPLER_FILTERS
                    .get(filter as usize)
                    .copied()
                    .filter(|_| valid),
                addressing: SAMPLER_ADDRESSING
                    .get(addressing as usize)
                    .copied()
                    .filter(|_| valid),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_register_counts() {
        let f = |s: &str| Features::parse(s).unwrap();
        let count =
            |s: &str, r| user_sgpr_count(&user_sgpr_layout(kernel_code_properties(f(s), r)));
        assert_eq!(count("", SgprRules::Gcn), 4);
        assert_eq!(count("useargs", SgprRules::Gcn), 6);
        assert_eq!(count("usesetup", SgprRules::Gcn), 8);
        assert_eq!(count("useenqueue", SgprRules::Gcn), 10);
        assert_eq!(count("usegeneric", SgprRules::Gcn), 12);
        assert_eq!(count("", SgprRules::Gfx9), 6);
        assert_eq!(count("useargs", SgprRules::Gfx9), 8);
        assert_eq!(count("usesetup", SgprRules::Gfx9), 10);
        assert_eq!(count("useenqueue", SgprRules::Gfx9), 10);
        assert_eq!(count("usegeneric", SgprRules::Gfx9), 12);
    }

    #[test]
    fn setup_buffer_words() {
        let w = setup_buffer(&[1024, 768], &[16, 8]).unwrap();
        assert_eq!(w, [2 << 16, 16 | 8 << 16, 1, 1024, 768, 1]);
        assert!(setup_buffer(&[1], &[65536]).is_err());
        assert!(setup_buffer(&[], &[]).is_err());
    }

    #[test]
    fn image_tables() {
        let i = decode_image(&[0, 0, 0, 0, 0, 0, 0, 0, 0x1f, 0x28]).unwrap();
        assert_eq!(i.channel_data_type, Some("CL_FLOAT"));
        assert_eq!(i.channel_order, Some("CL_RGBA"));
        assert_eq!(image_info_words("CL_FLOAT", "CL_RGBA"), Some([15, 8]));
    }

    #[test]
    fn signature_layout_64() {
        let args = parse_signature(
            "global int*, float4, image2d_t, sampler_t, char, float3, queue_t",
            true,
        )
        .unwrap();
        let l = kernarg_layout(
            &args,
            LayoutOptions {
                bits64: true,
                new_layout: true,
            },
        )
        .unwrap();
        let offs: Vec<u32> = l.slots.iter().map(|s| s.offset).collect();
        assert_eq!(offs, [0, 8, 16, 24, 32, 40, 48, 56, 72, 80, 88, 92, 112]);
        assert_eq!((l.end, l.size), (120, 128));
    }
}
