//! The typed model of one AMD IL metadata block (`;ARGSTART:f` .. `;ARGEND:f`).
//!
//! A block is a list of lines in their original order. Each line is parsed
//! into an [`Entry`]; lines whose key gpukit does not know are kept as
//! [`Entry::Unknown`], and lines whose typed form would print differently
//! (e.g. a number written `007`) keep their original text in [`Line::raw`],
//! so emitting a parsed block always reproduces its bytes.

use super::body::Body;
use serde::Serialize;
use std::borrow::Cow;

/// One metadata block. Its text fields borrow from the parsed input (`'a`);
/// [`Metadata::into_owned`] detaches a block for holders that outlive it.
///
/// The lines are stored column-wise (`body.rs`): a tag, a length and a word
/// count per line, the numbers of every line in one flat word vector, names
/// and messages as spans of the block's text. A block holds one line per
/// input line, so this storage (about 20 bytes a line instead of an 80-byte record) is most of a
/// parse's memory and time on large blocks. [`Metadata::lines`] and
/// [`Metadata::entries`] give each line back as a typed [`Line`]/[`Entry`]
/// borrowing from the block.
#[derive(Clone)]
pub struct Metadata<'a> {
    /// The symbol after `;ARGSTART:`, e.g. `__OpenCL_add_kernel`.
    pub name: Cow<'a, str>,
    /// The symbol after `;ARGEND:` (normally equal to `name`).
    pub end_name: Cow<'a, str>,
    /// Line terminators of the `;ARGSTART` and `;ARGEND` lines.
    pub start_eol: Eol,
    pub end_eol: Eol,
    pub(crate) body: Body<'a>,
}

/// How a line ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Eol {
    Lf,
    CrLf,
    /// Last line of the input, with no terminator.
    None,
}

impl Eol {
    pub fn as_str(self) -> &'static str {
        match self {
            Eol::Lf => "\n",
            Eol::CrLf => "\r\n",
            Eol::None => "",
        }
    }
}

/// One line between `;ARGSTART` and `;ARGEND`, as [`Metadata::lines`] gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Line<'a> {
    pub entry: Entry<'a>,
    /// The original text (without terminator) when it differs from how
    /// `entry` prints; `None` for canonical lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw: Option<&'a str>,
    pub eol: Eol,
}

impl<'a> Line<'a> {
    pub fn new(entry: Entry<'a>) -> Self {
        Line {
            entry,
            raw: None,
            eol: Eol::Lf,
        }
    }
}

/// Scalar element types of `;value`, `;pointer` and data segments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DataType {
    I1,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    Float,
    Double,
    Struct,
    Union,
    Event,
    Opaque,
}

impl DataType {
    pub const ALL: [DataType; 15] = [
        DataType::I1,
        DataType::I8,
        DataType::I16,
        DataType::I32,
        DataType::I64,
        DataType::U8,
        DataType::U16,
        DataType::U32,
        DataType::U64,
        DataType::Float,
        DataType::Double,
        DataType::Struct,
        DataType::Union,
        DataType::Event,
        DataType::Opaque,
    ];
    pub const EXPECTED: &'static str =
        "one of i1 i8 i16 i32 i64 u8 u16 u32 u64 float double struct union event opaque";

    pub fn as_str(self) -> &'static str {
        match self {
            DataType::I1 => "i1",
            DataType::I8 => "i8",
            DataType::I16 => "i16",
            DataType::I32 => "i32",
            DataType::I64 => "i64",
            DataType::U8 => "u8",
            DataType::U16 => "u16",
            DataType::U32 => "u32",
            DataType::U64 => "u64",
            DataType::Float => "float",
            DataType::Double => "double",
            DataType::Struct => "struct",
            DataType::Union => "union",
            DataType::Event => "event",
            DataType::Opaque => "opaque",
        }
    }

    pub fn from_name(s: &str) -> Option<Self> {
        Some(match s {
            "i1" => DataType::I1,
            "i8" => DataType::I8,
            "i16" => DataType::I16,
            "i32" => DataType::I32,
            "i64" => DataType::I64,
            "u8" => DataType::U8,
            "u16" => DataType::U16,
            "u32" => DataType::U32,
            "u64" => DataType::U64,
            "float" => DataType::Float,
            "double" => DataType::Double,
            "struct" => DataType::Struct,
            "union" => DataType::Union,
            "event" => DataType::Event,
            "opaque" => DataType::Opaque,
            _ => return None,
        })
    }

    /// Bytes of one element; `None` for aggregates whose size is given separately.
    pub fn element_size(self) -> Option<u32> {
        Some(match self {
            DataType::I1 | DataType::I32 | DataType::U32 | DataType::Float => 4,
            DataType::I8 | DataType::U8 => 1,
            DataType::I16 | DataType::U16 => 2,
            DataType::I64 | DataType::U64 | DataType::Double => 8,
            DataType::Event | DataType::Opaque => 4,
            DataType::Struct | DataType::Union => return None,
        })
    }

    pub fn is_aggregate(self) -> bool {
        matches!(self, DataType::Struct | DataType::Union)
    }
}

/// `;memory:` address spaces and flags.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MemoryKind<'a> {
    UavPrivate,
    HwLocal,
    HwRegion,
    HwPrivate,
    Private,
    Local,
    /// `64bitABI`: arguments use the 64-bit pointer ABI.
    Abi64Bit,
    /// `datareqd`: the kernel reads the program's data segment.
    DataRequired,
    /// `compilerwrite`: the compiler inserted a dummy write (reserved memory write).
    CompilerWrite,
    /// Any other name; kept as written.
    Other(Cow<'a, str>),
}

impl<'a> MemoryKind<'a> {
    pub fn name(&self) -> &str {
        match self {
            MemoryKind::UavPrivate => "uavprivate",
            MemoryKind::HwLocal => "hwlocal",
            MemoryKind::HwRegion => "hwregion",
            MemoryKind::HwPrivate => "hwprivate",
            MemoryKind::Private => "private",
            MemoryKind::Local => "local",
            MemoryKind::Abi64Bit => "64bitABI",
            MemoryKind::DataRequired => "datareqd",
            MemoryKind::CompilerWrite => "compilerwrite",
            MemoryKind::Other(s) => s,
        }
    }

    pub fn from_name(s: &'a str) -> Self {
        match s {
            "uavprivate" => MemoryKind::UavPrivate,
            "hwlocal" => MemoryKind::HwLocal,
            "hwregion" => MemoryKind::HwRegion,
            "hwprivate" => MemoryKind::HwPrivate,
            "private" => MemoryKind::Private,
            "local" => MemoryKind::Local,
            "64bitABI" => MemoryKind::Abi64Bit,
            "datareqd" => MemoryKind::DataRequired,
            "compilerwrite" => MemoryKind::CompilerWrite,
            other => MemoryKind::Other(Cow::Borrowed(other)),
        }
    }

    /// Spaces carry a size; flags do not.
    pub fn is_flag(&self) -> bool {
        matches!(
            self,
            MemoryKind::Abi64Bit | MemoryKind::DataRequired | MemoryKind::CompilerWrite
        )
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Memory<'a> {
    pub kind: MemoryKind<'a>,
    /// Bytes added to the space; `None` for flags.
    pub size: Option<u64>,
}

/// `;pointer` memory types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum MemType {
    /// `g` global
    #[serde(rename = "g")]
    Global,
    /// `p` emulated private
    #[serde(rename = "p")]
    Private,
    /// `l` emulated local
    #[serde(rename = "l")]
    Local,
    /// `uav`
    #[serde(rename = "uav")]
    Uav,
    /// `c` emulated constant
    #[serde(rename = "c")]
    Constant,
    /// `r` emulated region (GDS)
    #[serde(rename = "r")]
    Region,
    /// `hl` hardware local
    #[serde(rename = "hl")]
    HwLocal,
    /// `hp` hardware private
    #[serde(rename = "hp")]
    HwPrivate,
    /// `hc` hardware constant buffer
    #[serde(rename = "hc")]
    HwConstant,
    /// `hr` hardware region (GDS)
    #[serde(rename = "hr")]
    HwRegion,
    /// `up` UAV private
    #[serde(rename = "up")]
    UavPrivate,
    /// `flat`
    #[serde(rename = "flat")]
    Flat,
}

impl MemType {
    pub const EXPECTED: &'static str = "one of g p l uav c r hl hp hc hr up flat";
    pub const ALL: [MemType; 12] = [
        MemType::Global,
        MemType::Private,
        MemType::Local,
        MemType::Uav,
        MemType::Constant,
        MemType::Region,
        MemType::HwLocal,
        MemType::HwPrivate,
        MemType::HwConstant,
        MemType::HwRegion,
        MemType::UavPrivate,
        MemType::Flat,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            MemType::Global => "g",
            MemType::Private => "p",
            MemType::Local => "l",
            MemType::Uav => "uav",
            MemType::Constant => "c",
            MemType::Region => "r",
            MemType::HwLocal => "hl",
            MemType::HwPrivate => "hp",
            MemType::HwConstant => "hc",
            MemType::HwRegion => "hr",
            MemType::UavPrivate => "up",
            MemType::Flat => "flat",
        }
    }
    pub fn from_name(s: &str) -> Option<Self> {
        Some(match s {
            "g" => MemType::Global,
            "p" => MemType::Private,
            "l" => MemType::Local,
            "uav" => MemType::Uav,
            "c" => MemType::Constant,
            "r" => MemType::Region,
            "hl" => MemType::HwLocal,
            "hp" => MemType::HwPrivate,
            "hc" => MemType::HwConstant,
            "hr" => MemType::HwRegion,
            "up" => MemType::UavPrivate,
            "flat" => MemType::Flat,
            _ => return None,
        })
    }
}

/// Access qualifier of pointers and images.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Access {
    #[serde(rename = "RO")]
    ReadOnly,
    #[serde(rename = "WO")]
    WriteOnly,
    #[serde(rename = "RW")]
    ReadWrite,
}

impl Access {
    pub const EXPECTED: &'static str = "one of RO WO RW";
    pub fn as_str(self) -> &'static str {
        match self {
            Access::ReadOnly => "RO",
            Access::WriteOnly => "WO",
            Access::ReadWrite => "RW",
        }
    }
    pub fn from_name(s: &str) -> Option<Self> {
        match s {
            "RO" => Some(Access::ReadOnly),
            "WO" => Some(Access::WriteOnly),
            "RW" => Some(Access::ReadWrite),
            _ => None,
        }
    }
}

/// Image dimensionality of `;image`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ImageDim {
    #[serde(rename = "1D")]
    D1,
    #[serde(rename = "2D")]
    D2,
    #[serde(rename = "3D")]
    D3,
    #[serde(rename = "1DA")]
    D1Array,
    #[serde(rename = "1DB")]
    D1Buffer,
    #[serde(rename = "2DA")]
    D2Array,
}

impl ImageDim {
    pub const EXPECTED: &'static str = "one of 1D 2D 3D 1DA 1DB 2DA";
    pub fn as_str(self) -> &'static str {
        match self {
            ImageDim::D1 => "1D",
            ImageDim::D2 => "2D",
            ImageDim::D3 => "3D",
            ImageDim::D1Array => "1DA",
            ImageDim::D1Buffer => "1DB",
            ImageDim::D2Array => "2DA",
        }
    }
    pub fn from_name(s: &str) -> Option<Self> {
        Some(match s {
            "1D" => ImageDim::D1,
            "2D" => ImageDim::D2,
            "3D" => ImageDim::D3,
            "1DA" => ImageDim::D1Array,
            "1DB" => ImageDim::D1Buffer,
            "2DA" => ImageDim::D2Array,
            _ => return None,
        })
    }
}

/// `;value:NAME:TYPE:COUNT:CB:OFFSET` — for `struct`/`union`, COUNT is the size in bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ValueArg<'a> {
    pub name: Cow<'a, str>,
    pub data_type: DataType,
    pub count: u32,
    pub cb: u32,
    pub offset: u32,
}

/// The three trailing fields real drivers add to `;pointer`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PointerQualifiers {
    pub access: Access,
    pub volatile: bool,
    pub restrict: bool,
}

/// `;pointer:NAME:TYPE:COUNT:CB:OFFSET:MEMTYPE:ID:ALIGN[:ACCESS:VOLATILE:RESTRICT]`
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PointerArg<'a> {
    pub name: Cow<'a, str>,
    pub data_type: DataType,
    pub count: u32,
    pub cb: u32,
    pub offset: u32,
    pub mem_type: MemType,
    /// UAV id, constant buffer id or buffer number depending on `mem_type`.
    pub buffer: u32,
    pub align: u32,
    /// Present in every real driver output (11-field form); absent in the 2009 spec's 8-field form.
    pub qualifiers: Option<PointerQualifiers>,
}

/// `;image:NAME:DIM:ACCESS:ID:CB:OFFSET`
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImageArg<'a> {
    pub name: Cow<'a, str>,
    pub dim: ImageDim,
    pub access: Access,
    pub id: u32,
    pub cb: u32,
    pub offset: u32,
}

/// `;sampler:NAME:ID:LOCATION:VALUE` — LOCATION 1 = defined in the kernel, 0 = argument.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SamplerEntry<'a> {
    pub name: Cow<'a, str>,
    pub id: u32,
    pub location: u32,
    pub value: u32,
}

/// `;counter:NAME:BITS:ID:CB:OFFSET`
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CounterArg<'a> {
    pub name: Cow<'a, str>,
    pub bits: u32,
    pub id: u32,
    pub cb: u32,
    pub offset: u32,
}

/// `;printf_fmt:ID:N:SIZE1..SIZEN:LEN:FORMAT;`
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PrintfFmt {
    pub id: u32,
    pub arg_sizes: Vec<u32>,
    /// The format string with escapes decoded (LEN counts these bytes).
    pub format: Vec<u8>,
    /// Whether the closing `;` was present (the runtime requires it).
    pub terminated: bool,
}

/// One metadata line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "key", content = "value", rename_all = "lowercase")]
pub enum Entry<'a> {
    /// `;version:MAJOR:MINOR:REVISION`
    Version {
        major: u32,
        minor: u32,
        revision: u32,
    },
    /// `;device:NAME`
    Device(Cow<'a, str>),
    /// `;uniqueid:ID`
    UniqueId(u32),
    /// `;memory:SPACE:SIZE` or `;memory:FLAG`
    Memory(Memory<'a>),
    Value(ValueArg<'a>),
    Pointer(PointerArg<'a>),
    Image(ImageArg<'a>),
    Sampler(SamplerEntry<'a>),
    Counter(CounterArg<'a>),
    #[serde(rename = "printf_fmt")]
    PrintfFmt(Cow<'a, PrintfFmt>),
    /// `;function:N:ID...` — IL functions this one calls.
    Function(Cow<'a, [u32]>),
    /// `;intrinsic:N:ID...` — library macros this one needs.
    Intrinsic(Cow<'a, [u32]>),
    /// `;cws:X:Y:Z` — required work-group size.
    Cws([u32; 3]),
    /// `;lws:SIZE`
    Lws(u32),
    /// `;limitgroupsize`
    LimitGroupSize,
    /// `;uavid:ID` — raw UAV id.
    UavId(u32),
    /// `;printfid:ID` — UAV id of the printf buffer.
    PrintfId(u32),
    /// `;cbid:ID` — UAV id of the global constant buffer.
    CbId(u32),
    /// `;privateid:ID` — UAV id of private memory.
    PrivateId(u32),
    /// `;error:MESSAGE`
    Error(Cow<'a, str>),
    /// `;warning:MESSAGE`
    Warning(Cow<'a, str>),
    /// `;reflection:INDEX:TYPENAME` — source type of argument INDEX.
    Reflection {
        index: u32,
        type_name: Cow<'a, str>,
    },
    /// `;constarg:INDEX:NAME` — argument INDEX is `const`.
    ConstArg {
        index: u32,
        name: Cow<'a, str>,
    },
    /// Any other key, kept as written: `;KEY` or `;KEY:REST`.
    Unknown {
        key: Cow<'a, str>,
        rest: Option<Cow<'a, str>>,
    },
}

impl Entry<'_> {
    /// The key as written after `;`.
    pub fn key(&self) -> &str {
        match self {
            Entry::Version { .. } => "version",
            Entry::Device(_) => "device",
            Entry::UniqueId(_) => "uniqueid",
            Entry::Memory(_) => "memory",
            Entry::Value(_) => "value",
            Entry::Pointer(_) => "pointer",
            Entry::Image(_) => "image",
            Entry::Sampler(_) => "sampler",
            Entry::Counter(_) => "counter",
            Entry::PrintfFmt(_) => "printf_fmt",
            Entry::Function(_) => "function",
            Entry::Intrinsic(_) => "intrinsic",
            Entry::Cws(_) => "cws",
            Entry::Lws(_) => "lws",
            Entry::LimitGroupSize => "limitgroupsize",
            Entry::UavId(_) => "uavid",
            Entry::PrintfId(_) => "printfid",
            Entry::CbId(_) => "cbid",
            Entry::PrivateId(_) => "privateid",
            Entry::Error(_) => "error",
            Entry::Warning(_) => "warning",
            Entry::Reflection { .. } => "reflection",
            Entry::ConstArg { .. } => "constarg",
            Entry::Unknown { key, .. } => key,
        }
    }
}

fn own(s: Cow<'_, str>) -> Cow<'static, str> {
    Cow::Owned(s.into_owned())
}

impl Metadata<'_> {
    /// The same block with every text field owned, for holders that outlive
    /// the parsed input (e.g. a program that keeps its own copy of the text).
    pub fn into_owned(self) -> Metadata<'static> {
        Metadata {
            name: own(self.name),
            end_name: own(self.end_name),
            start_eol: self.start_eol,
            end_eol: self.end_eol,
            body: self.body.into_owned(),
        }
    }
}

impl MemoryKind<'_> {
    pub fn into_owned(self) -> MemoryKind<'static> {
        match self {
            MemoryKind::UavPrivate => MemoryKind::UavPrivate,
            MemoryKind::HwLocal => MemoryKind::HwLocal,
            MemoryKind::HwRegion => MemoryKind::HwRegion,
            MemoryKind::HwPrivate => MemoryKind::HwPrivate,
            MemoryKind::Private => MemoryKind::Private,
            MemoryKind::Local => MemoryKind::Local,
            MemoryKind::Abi64Bit => MemoryKind::Abi64Bit,
            MemoryKind::DataRequired => MemoryKind::DataRequired,
            MemoryKind::CompilerWrite => MemoryKind::CompilerWrite,
            MemoryKind::Other(s) => MemoryKind::Other(own(s)),
        }
    }
}

/// What kind of kernel argument a metadata line describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ArgKind {
    Value,
    Struct,
    Pointer,
    Image,
    Sampler,
    Counter,
}

/// A kernel argument as the runtime sees it, gathered from the block's lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Argument {
    pub index: usize,
    pub name: String,
    pub kind: ArgKind,
    /// Element type as written (`u32`, `float`, `struct`, image dimension, counter width...);
    /// borrowed from the type tables but for counters.
    pub type_name: std::borrow::Cow<'static, str>,
    /// Vector width for values; 1 otherwise.
    pub vector_width: u32,
    pub cb: u32,
    pub offset: u32,
    /// Bytes the argument occupies in the constant buffer.
    pub cb_size: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mem_type: Option<MemType>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access: Option<Access>,
    pub volatile: bool,
    pub restrict: bool,
    pub is_const: bool,
    /// Source type name from `;reflection`, when present.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_type: Option<String>,
}

/// Sums of `;memory:` lines per space, plus the flags present.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct MemoryTotals {
    pub uav_private: u64,
    pub hw_local: u64,
    pub hw_region: u64,
    pub hw_private: u64,
    pub private: u64,
    pub local: u64,
    pub abi_64bit: bool,
    pub data_required: bool,
    pub compiler_write: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for t in DataType::ALL {
            assert_eq!(DataType::from_name(t.as_str()), Some(t));
        }
        for t in MemType::ALL {
            assert_eq!(MemType::from_name(t.as_str()), Some(t));
        }
    }
}
