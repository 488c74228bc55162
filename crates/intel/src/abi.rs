//! The kernel ABI model, shared by both formats.

use serde::Serialize;

/// Which program-binary format a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Legacy program binary with patch tokens (IGC 1.0.x).
    PatchTokens,
    /// ELF with `.ze_info` (IGC 2.x).
    Zebin,
}

/// What holds a patch-token program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Container {
    Raw,
    /// NEO's OpenCL ELF (`ET_OPENCL_*` file types, `SHT_OPENCL_DEV_BINARY` section).
    OpenclElf,
    Zebin,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Program {
    pub format: Format,
    pub container: Container,
    /// Patch-token format version (`CURRENT_ICBE_VERSION`) or `.ze_info` version.
    pub version: String,
    /// The GFXCORE family code (NEO's `GFXCORE_FAMILY`) the program was built for:
    /// patch tokens' header `Device`, zebin's `IntelGT` note of that type.
    pub device: Option<u32>,
    pub pointer_size: u32,
    /// Program-scope `__constant` data (its initial bytes).
    #[serde(skip)]
    pub constant_data: Vec<u8>,
    /// Program-scope `__global` variables (their initial bytes).
    #[serde(skip)]
    pub global_data: Vec<u8>,
    /// zebin `.data.const.string`: the printf format strings.
    #[serde(skip)]
    pub string_data: Vec<u8>,
    /// Named data the code takes the address of (`faddr`): zebin symbols in the data sections.
    #[serde(skip)]
    pub symbols: Vec<DataSymbol>,
    /// Pointers held in program-scope data (`global int *p = &g[1];`): the runtime adds
    /// the base address of the buffer pointed into to each once it places the buffers.
    #[serde(skip)]
    pub data_pointers: Vec<DataPointer>,
    pub kernels: Vec<KernelAbi>,
}

/// GFXCORE families with 64-byte GRFs: Xe-HPC (PVC, `IGFX_XE_HPC_CORE` 0xc08) and
/// the Xe cores after it (Xe2 0xc09, Xe3 0xc0a, ...). Gen12LP (tgllp, 18) and Xe-HPG
/// (dg2, 0xc07) have 32-byte GRFs.
const CORES_WITH_64_BYTE_GRF: std::ops::Range<u32> = 0xc08..0xd00;

impl Program {
    /// Bytes of one general register on the device the program was built for: 64
    /// from Xe-HPC on, else (and when the binary does not say) 32. The hardware
    /// thread payload is laid out in these: the local IDs of each dimension take
    /// whole GRFs, and the cross-thread data follows them.
    pub fn grf_bytes(&self) -> u32 {
        match self.device {
            Some(d) if CORES_WITH_64_BYTE_GRF.contains(&d) => 64,
            _ => 32,
        }
    }
}

/// A 64-bit pointer at `offset` of the program-scope buffer `holder` that holds an offset
/// into `target` (patch tokens `SPatchGlobalPointerProgramBinaryInfo` and
/// `SPatchConstantPointerProgramBinaryInfo`; NEO relocates it by `target`'s address).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataPointer {
    pub holder: DataSection,
    pub offset: u64,
    pub target: DataSection,
}

/// A symbol of program-scope data: `offset` bytes into `section`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataSymbol {
    pub name: String,
    pub section: DataSection,
    pub offset: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataSection {
    Constant,
    Global,
    Strings,
}

/// What a runtime needs to launch one kernel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KernelAbi {
    pub name: String,
    pub simd_size: u32,
    /// Bytes of Gen code (unpadded for patch tokens, the `.text.<kernel>` size for zebin).
    pub gen_code_size: usize,
    #[serde(skip)]
    pub gen_code: Vec<u8>,
    /// Explicit (user) arguments, by index.
    pub args: Vec<Arg>,
    /// Arguments the runtime supplies (work sizes, offsets, ...).
    pub implicit: Vec<ImplicitArg>,
    /// The per-thread payload after r0: which local-ID channels are loaded.
    pub per_thread: PerThread,
    /// Bytes of cross-thread data the kernel reads (highest offset + size, unaligned).
    pub cross_thread_size: u32,
    /// Shared local memory the kernel declares itself (`__local` variables), bytes.
    pub slm_size: u32,
    /// Private memory per work item (stateless private surface), bytes.
    pub private_size: u32,
    pub has_barriers: bool,
    /// Binding-table indices of the program's constant and global surfaces.
    pub constant_bti: Option<u32>,
    pub global_bti: Option<u32>,
    /// Samplers the source declares at program scope (`__constant sampler_t`), by the
    /// index the kernel's sampler variables hold.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inline_samplers: Vec<InlineSampler>,
    /// The source's `reqd_work_group_size(X, Y, Z)`, when it has one: the only local
    /// size the kernel runs with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required_local: Option<[u32; 3]>,
    /// What the source says of each argument, by index, when the program was built
    /// with `-cl-kernel-arg-info` (patch tokens `KERNEL_ARGUMENT_INFO`, zebin
    /// `kernels_misc_info`); empty otherwise. Arguments the kernel never reads are
    /// here though they have no payload.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub arg_info: Vec<ArgInfo>,
    /// Patch tokens: the format strings (and `%s` strings) the kernel's printf
    /// records name by index (`PATCH_TOKEN_STRING`). Zebin records hold the address
    /// of a string in the program's `.data.const.string` instead.
    #[serde(skip)]
    pub printf_strings: Vec<(u32, Vec<u8>)>,
    /// Where the hardware starts the kernel's Gen code, and the inline data.
    #[serde(skip)]
    pub entry: EntryPoints,
}

/// Offsets into a kernel's Gen code where the runtime may start it, and how much of
/// the cross-thread data the walker delivers inline (in a GRF) rather than in memory.
///
/// From Xe-HP on, IGC's finalizer prefixes a kernel with a per-thread prolog (loads
/// the local IDs from the indirect data) and a cross-thread prolog (loads the
/// cross-thread data not delivered inline); `skip_per_thread_data_load` is the byte
/// offset of the cross-thread prolog, which NEO adds to the kernel start pointer when
/// the hardware generates the local IDs (NEO `Kernel::getKernelStartAddress` and
/// `EncodeDispatchKernel`: `entryPoints.skipPerThreadDataLoad` unless the runtime
/// generates them). `skip_set_ffid_gp` is Gen12LP's A0-stepping workaround entry (NEO
/// adds it only with `waUseOffsetToSkipSetFFIDGP` on compute engines: never for
/// gpukit). Sources: patch tokens `SPatchThreadPayload.OffsetToSkipPerThreadDataLoad`,
/// `OffsetToSkipSetFFIDGP`, `PassInlineData` (IGC `patch_shared.h`); zebin
/// `.ze_info` `execution_env.offset_to_skip_per_thread_data_load`,
/// `offset_to_skip_set_ffid_gp`, `inline_data_payload_size` (NEO `zeinfo` tags).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EntryPoints {
    pub skip_per_thread_data_load: u32,
    pub skip_set_ffid_gp: u32,
    /// Bytes of cross-thread data passed inline (0: none). Patch tokens only say
    /// whether (`PassInlineData`): then one GRF, NEO's `INLINE_DATA` size.
    pub inline_data: InlineData,
}

/// The walker's inline data (the head of the cross-thread data, in a GRF).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InlineData {
    #[default]
    None,
    /// Patch tokens `PassInlineData`: one GRF of the device.
    OneGrf,
    /// zebin `inline_data_payload_size`, bytes.
    Bytes(u32),
}

impl InlineData {
    /// Bytes of inline data for a GRF of `grf_bytes`.
    pub fn bytes(self, grf_bytes: u32) -> u32 {
        match self {
            InlineData::None => 0,
            InlineData::OneGrf => grf_bytes,
            InlineData::Bytes(n) => n,
        }
    }
}

/// An argument as the source declares it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ArgInfo {
    pub index: u32,
    pub name: String,
    /// The type as the compiler spells it: `int`, `float4`, `int*` (what the binary
    /// writes after a `;`, a size or nothing, is dropped).
    pub type_name: String,
    /// `__global`, `__constant`, `__local`, `__private` (by value).
    pub address_qualifier: String,
}

impl ArgInfo {
    pub(crate) fn new(
        index: u32,
        name: String,
        type_name: &str,
        address_qualifier: String,
    ) -> Self {
        let type_name = type_name.split(';').next().unwrap_or_default().trim();
        ArgInfo {
            index,
            name,
            type_name: type_name.to_owned(),
            address_qualifier,
        }
    }
}

/// An OpenCL sampler's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct InlineSampler {
    pub index: u32,
    pub addressing: Addressing,
    pub filter: Filter,
    /// Coordinates in [0, 1) (CLK_NORMALIZED_COORDS_TRUE) rather than texels.
    pub normalized: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Addressing {
    None,
    ClampToEdge,
    /// CLK_ADDRESS_CLAMP: outside the image reads the border colour.
    Clamp,
    Repeat,
    MirroredRepeat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Filter {
    Nearest,
    Linear,
}

/// What an image argument is declared as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ImageType {
    Buffer,
    Image1d,
    Image1dArray,
    Image2d,
    Image2dArray,
    Image3d,
    Other,
}

/// A property of an image argument the runtime writes into the payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ImageParam {
    Width,
    Height,
    Depth,
    ArraySize,
    ChannelDataType,
    ChannelOrder,
    NumSamples,
    NumMipLevels,
    ObjectId,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PerThread {
    /// Local ID X, Y, Z loaded (one u16 per channel, each padded to whole GRFs).
    pub local_id: [bool; 3],
    /// zebin `packed_local_ids` (IDs of one work item packed, no GRF padding).
    pub packed: bool,
    /// Bytes the per-thread payload takes, as the format states it (0 = derived).
    pub size: u32,
    /// One GRF of per-thread payload that holds nothing: the hardware thread dispatch
    /// of Gen12LP and earlier (GPGPU_WALKER) loads at least one GRF per thread, so a
    /// kernel without local IDs still finds its cross-thread data one GRF later (patch
    /// tokens `UnusedPerThreadConstantPresent`; zebin: no per-thread payload argument
    /// and no inline data). NEO's `getThreadPayloadSize` counts it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unused_grf: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AddressSpace {
    Global,
    Constant,
    Local,
    Private,
    Image,
    Sampler,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ArgKind {
    /// A pointer the kernel dereferences statelessly (A64 address in the payload).
    StatelessPointer,
    /// A pointer accessed through a binding-table surface (stateful).
    StatefulPointer,
    /// A `__local` pointer: the payload holds its SLM offset.
    LocalPointer,
    /// Passed by value (scalars, vectors, structs): the payload holds the bytes.
    Value,
    Image,
    Sampler,
    Other,
}

/// One piece of an argument in the cross-thread data: `size` bytes at payload
/// `offset` come from byte `source_offset` of the argument's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Piece {
    pub offset: u32,
    pub size: u32,
    pub source_offset: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Arg {
    pub index: u32,
    pub kind: ArgKind,
    pub address_space: Option<AddressSpace>,
    pub pieces: Vec<Piece>,
    /// Binding-table index (stateful) or surface-state offset, when present.
    pub bti: Option<u32>,
    /// `__local` pointers: the alignment the runtime must give the SLM offset.
    pub slm_alignment: Option<u32>,
    /// Image arguments: the declared image type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image_type: Option<ImageType>,
    /// Bindless arguments (zebin `addrmode: bindless`): the payload offset of the
    /// surface-state offset the runtime writes, which the kernel passes to `bss(...)`
    /// messages. The same bytes are one of `pieces`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bindless_offset: Option<u32>,
}

impl Arg {
    /// Total bytes of the argument the payload holds.
    pub fn payload_size(&self) -> u32 {
        self.pieces
            .iter()
            .map(|p| p.source_offset.saturating_add(p.size))
            .max()
            .unwrap_or(0)
    }
}

/// What an implicit argument is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Implicit {
    LocalSize,
    EnqueuedLocalSize,
    GlobalSize,
    GlobalOffset,
    NumGroups,
    WorkDim,
    /// IGC's payload header (global offset x/y/z and local size, 8 dwords).
    PayloadHeader,
    PrivateBase,
    /// `buffer_offset` of the stateful buffer argument `arg`.
    BufferOffset {
        arg: u32,
    },
    PrintfBuffer,
    SyncBuffer,
    ImplicitArgBuffer,
    ConstantBase,
    GlobalBase,
    /// The bindless surface-state offset of the program's constant data (zebin
    /// `const_base` with `addrmode: bindless`).
    ConstantSurface,
    /// The same for the program's global data.
    GlobalSurface,
    /// A bindless inline sampler (zebin `inline_sampler`): the sampler state of
    /// inline sampler `index`.
    InlineSampler {
        index: u32,
    },
    /// A property (width, height, ...) of the image argument `arg`.
    Image {
        arg: u32,
        param: ImageParam,
    },
    Other {
        code: u32,
    },
}

impl Implicit {
    pub fn name(&self) -> String {
        match self {
            Implicit::LocalSize => "local_size".into(),
            Implicit::EnqueuedLocalSize => "enqueued_local_size".into(),
            Implicit::GlobalSize => "global_size".into(),
            Implicit::GlobalOffset => "global_offset".into(),
            Implicit::NumGroups => "num_groups".into(),
            Implicit::WorkDim => "work_dim".into(),
            Implicit::PayloadHeader => "payload_header".into(),
            Implicit::PrivateBase => "private_base".into(),
            Implicit::BufferOffset { arg } => format!("buffer_offset(arg {arg})"),
            Implicit::PrintfBuffer => "printf_buffer".into(),
            Implicit::SyncBuffer => "sync_buffer".into(),
            Implicit::ImplicitArgBuffer => "implicit_arg_buffer".into(),
            Implicit::ConstantBase => "constant_base".into(),
            Implicit::GlobalBase => "global_base".into(),
            Implicit::ConstantSurface => "constant_surface (bindless)".into(),
            Implicit::GlobalSurface => "global_surface (bindless)".into(),
            Implicit::InlineSampler { index } => format!("inline_sampler({index}, bindless)"),
            Implicit::Image { arg, param } => {
                let p = match param {
                    ImageParam::Width => "width",
                    ImageParam::Height => "height",
                    ImageParam::Depth => "depth",
                    ImageParam::ArraySize => "array_size",
                    ImageParam::ChannelDataType => "channel_data_type",
                    ImageParam::ChannelOrder => "channel_order",
                    ImageParam::NumSamples => "num_samples",
                    ImageParam::NumMipLevels => "num_mip_levels",
                    ImageParam::ObjectId => "object_id",
                };
                format!("image_{p}(arg {arg})")
            }
            Implicit::Other { code: 43 } => "buffer_stateful".into(),
            Implicit::Other { code } => format!("other({code})"),
        }
    }
}

/// One implicit argument in the cross-thread data: `size` bytes at `offset`, taken
/// from byte `source_offset` of the value (e.g. 4 for the Y component of a size).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ImplicitArg {
    pub kind: Implicit,
    pub offset: u32,
    pub size: u32,
    pub source_offset: u32,
}

impl KernelAbi {
    pub(crate) fn new(name: String) -> Self {
        KernelAbi {
            name,
            simd_size: 0,
            gen_code_size: 0,
            gen_code: Vec::new(),
            args: Vec::new(),
            implicit: Vec::new(),
            per_thread: PerThread::default(),
            cross_thread_size: 0,
            slm_size: 0,
            private_size: 0,
            has_barriers: false,
            constant_bti: None,
            global_bti: None,
            inline_samplers: Vec::new(),
            required_local: None,
            arg_info: Vec::new(),
            printf_strings: Vec::new(),
            entry: EntryPoints::default(),
        }
    }
    /// The argument named `name` in the source, when the binary has argument info.
    pub fn arg_named(&self, name: &str) -> Option<&ArgInfo> {
        self.arg_info.iter().find(|a| a.name == name)
    }
    /// What the source says of argument `index`, when the binary has argument info.
    pub fn arg_info(&self, index: u32) -> Option<&ArgInfo> {
        self.arg_info.iter().find(|a| a.index == index)
    }
    /// The explicit argument with `index` (arguments are sorted by index once read).
    pub fn arg(&self, index: u32) -> Option<&Arg> {
        let at = self.args.binary_search_by_key(&index, |a| a.index).ok()?;
        self.args.get(at)
    }
    /// As [`KernelAbi::arg`], to complete an argument after reading.
    pub(crate) fn existing_arg_mut(&mut self, index: u32) -> Option<&mut Arg> {
        let at = self.args.binary_search_by_key(&index, |a| a.index).ok()?;
        self.args.get_mut(at)
    }
    fn finish(&mut self) {
        self.args.sort_by_key(|a| a.index);
        self.arg_info.sort_by_key(|a| a.index);
        if self.required_local.is_some_and(|r| r.contains(&0)) {
            self.required_local = None;
        }
        self.implicit.sort_by_key(|i| (i.offset, i.source_offset));
        let end = |o: u32, s: u32| o.saturating_add(s);
        self.cross_thread_size = self
            .args
            .iter()
            .flat_map(|a| a.pieces.iter().map(|p| end(p.offset, p.size)))
            .chain(self.implicit.iter().map(|i| end(i.offset, i.size)))
            .max()
            .unwrap_or(0);
    }
    /// Bytes of per-thread payload (local IDs) one hardware thread gets after r0,
    /// for a GRF of `grf_bytes` (0 reads as 1). In u64: a size the format states as
    /// u32 rounds up past `u32::MAX`.
    pub fn per_thread_bytes(&self, grf_bytes: u32) -> u64 {
        let grf = u64::from(grf_bytes.max(1));
        let whole_grfs = |bytes: u64| bytes.div_ceil(grf) * grf;
        if self.per_thread.size != 0 {
            return whole_grfs(u64::from(self.per_thread.size));
        }
        let dims = self.per_thread.local_id.iter().filter(|d| **d).count() as u64;
        // One u16 per work item of the SIMD width.
        let per_dim = whole_grfs(u64::from(self.simd_size.max(1)) * 2);
        dims * per_dim + if self.per_thread.unused_grf { grf } else { 0 }
    }
}

/// A kernel while its reader fills it in: explicit arguments arrive in pieces, in
/// any order, and are found by index through a map built as they come (a search of
/// the list per piece would be quadratic in the number of arguments).
pub(crate) struct KernelBuilder {
    pub abi: KernelAbi,
    arg_at: std::collections::HashMap<u32, usize>,
}

impl KernelBuilder {
    pub fn new(name: String) -> Self {
        KernelBuilder {
            abi: KernelAbi::new(name),
            arg_at: std::collections::HashMap::new(),
        }
    }
    /// The argument with `index`, created with `kind` if absent.
    pub fn arg_mut(&mut self, index: u32, kind: ArgKind) -> &mut Arg {
        let args = &mut self.abi.args;
        let at = *self.arg_at.entry(index).or_insert_with(|| {
            args.push(Arg {
                index,
                kind,
                address_space: None,
                pieces: Vec::new(),
                bti: None,
                slm_alignment: None,
                image_type: None,
                bindless_offset: None,
            });
            args.len() - 1
        });
        &mut self.abi.args[at]
    }
    /// The argument with `index` if some piece of it was read.
    pub fn existing_arg_mut(&mut self, index: u32) -> Option<&mut Arg> {
        let at = *self.arg_at.get(&index)?;
        self.abi.args.get_mut(at)
    }
    pub fn finish(mut self) -> KernelAbi {
        self.abi.finish();
        self.abi
    }
}

impl std::ops::Deref for KernelBuilder {
    type Target = KernelAbi;
    fn deref(&self) -> &KernelAbi {
        &self.abi
    }
}

impl std::ops::DerefMut for KernelBuilder {
    fn deref_mut(&mut self) -> &mut KernelAbi {
        &mut self.abi
    }
}

impl InlineSampler {
    /// Decodes a Gen12 `SAMPLER_STATE` (16 bytes, as IGC writes inline samplers into
    /// the dynamic state heap of a patch-token kernel): min filter DW0 bits 14-16,
    /// TCX address mode DW3 bits 6-8, non-normalized coordinates DW3 bit 10.
    pub fn from_sampler_state(index: u32, state: &[u8; 16]) -> Self {
        let dw = |i: usize| {
            u32::from_le_bytes([
                state[4 * i],
                state[4 * i + 1],
                state[4 * i + 2],
                state[4 * i + 3],
            ])
        };
        let filter = if (dw(0) >> 14) & 7 == 1 {
            Filter::Linear
        } else {
            Filter::Nearest
        };
        let addressing = match (dw(3) >> 6) & 7 {
            0 => Addressing::Repeat,
            1 => Addressing::MirroredRepeat,
            2 => Addressing::ClampToEdge,
            4 | 6 => Addressing::Clamp,
            _ => Addressing::None,
        };
        InlineSampler {
            index,
            addressing,
            filter,
            normalized: (dw(3) >> 10) & 1 == 0,
        }
    }
}
