//! Where each kernel argument goes in the argument constant buffer.
//!
//! Every argument starts on a 16-byte boundary and takes whole 16-byte
//! slots: scalars and vectors up to 128 bits one slot; wider 32/64-bit
//! vectors one slot per 128 bits; 8/16-bit vectors one slot per 4
//! components; structs and unions their size rounded up to 16; images 32
//! bytes; pointers, samplers, counters and events one slot. On GCN drivers
//! the buffer is cb1 starting at byte 0; the 2009 spec (7XX/Evergreen)
//! places arguments in cb0 from byte 96.

use crate::clc::Param;
use crate::limits;
use crate::metadata::{
    Access, CounterArg, DataType, Entry, ImageArg, ImageDim, MemType, PointerArg,
    PointerQualifiers, ValueArg,
};
use serde::Serialize;
use std::borrow::Cow;

pub const SLOT: u32 = 16;

/// Scalar element types of OpenCL C.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scalar {
    Bool,
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Half,
    Float,
    Double,
}

impl Scalar {
    pub fn size(self) -> u32 {
        match self {
            Scalar::Char | Scalar::UChar => 1,
            Scalar::Short | Scalar::UShort | Scalar::Half => 2,
            Scalar::Bool | Scalar::Int | Scalar::UInt | Scalar::Float => 4,
            Scalar::Long | Scalar::ULong | Scalar::Double => 8,
        }
    }

    /// The metadata type name the compiler writes for this scalar.
    pub fn metadata_type(self) -> DataType {
        match self {
            Scalar::Bool => DataType::I32,
            Scalar::Char => DataType::I8,
            Scalar::UChar => DataType::U8,
            Scalar::Short => DataType::I16,
            Scalar::UShort | Scalar::Half => DataType::U16,
            Scalar::Int => DataType::I32,
            Scalar::UInt => DataType::U32,
            Scalar::Long => DataType::I64,
            Scalar::ULong => DataType::U64,
            Scalar::Float => DataType::Float,
            Scalar::Double => DataType::Double,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AddressSpace {
    Private,
    Global,
    Constant,
    Local,
}

/// The type of one kernel argument, as far as placement cares.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum ArgType {
    Scalar(Scalar),
    Vector(Scalar, u32),
    Pointer(AddressSpace),
    Image(ImageDim),
    Sampler,
    Counter32,
    Event,
    /// A struct or union passed by value: its C size.
    Aggregate {
        size: u64,
    },
}

impl ArgType {
    /// A short OpenCL-C-like spelling, e.g. `uint4`, `global*`, `image2d`, `struct(52)`.
    pub fn describe(&self) -> String {
        let scalar = |s: &Scalar| match s {
            Scalar::Bool => "bool",
            Scalar::Char => "char",
            Scalar::UChar => "uchar",
            Scalar::Short => "short",
            Scalar::UShort => "ushort",
            Scalar::Int => "int",
            Scalar::UInt => "uint",
            Scalar::Long => "long",
            Scalar::ULong => "ulong",
            Scalar::Half => "half",
            Scalar::Float => "float",
            Scalar::Double => "double",
        };
        match self {
            ArgType::Scalar(s) => scalar(s).to_owned(),
            ArgType::Vector(s, n) => format!("{}{n}", scalar(s)),
            ArgType::Pointer(space) => format!(
                "{}*",
                match space {
                    AddressSpace::Private => "private",
                    AddressSpace::Global => "global",
                    AddressSpace::Constant => "constant",
                    AddressSpace::Local => "local",
                }
            ),
            ArgType::Image(d) => format!("image{}", d.as_str()),
            ArgType::Sampler => "sampler_t".into(),
            ArgType::Counter32 => "counter32_t".into(),
            ArgType::Event => "event_t".into(),
            ArgType::Aggregate { size } => format!("struct({size})"),
        }
    }
}

/// Bytes an argument of this type takes in the constant buffer.
pub fn slot_size(ty: &ArgType) -> u64 {
    // Saturates: anything this large fails the per-argument limit, by name.
    let slots = |n: u64| n.max(1).saturating_mul(u64::from(SLOT));
    match ty {
        ArgType::Scalar(_)
        | ArgType::Pointer(_)
        | ArgType::Sampler
        | ArgType::Counter32
        | ArgType::Event => slots(1),
        ArgType::Image(_) => slots(2),
        ArgType::Vector(s, n) => vector_slot_size(s.size(), *n),
        ArgType::Aggregate { size } => slots(size.div_ceil(u64::from(SLOT))),
    }
}

fn vector_slot_size(elem: u32, n: u32) -> u64 {
    let n = u64::from(n.max(1));
    let elem = u64::from(elem);
    let slots = if elem <= 2 {
        // 8/16-bit vectors: every 4 components start a new 128-bit slot.
        n.div_ceil(4)
    } else if n == 3 {
        // 3-component vectors take one slot even for 64-bit elements: real
        // drivers (1702.3, 32- and 64-bit) place long3/ulong3 in 16 bytes.
        1
    } else {
        (elem * n).div_ceil(16)
    };
    slots.max(1) * u64::from(SLOT)
}

/// Slot size of a `;value` line (`count` is the byte size for struct/union).
pub fn value_slot_size(ty: DataType, count: u32) -> u32 {
    let size = match ty.element_size() {
        None => u64::from(count).div_ceil(16).max(1) * 16,
        Some(e) => vector_slot_size(e, count),
    };
    u32::try_from(size).unwrap_or(u32::MAX)
}

/// Where the argument buffer lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ArgBuffer {
    pub cb: u32,
    pub start: u32,
}

impl ArgBuffer {
    /// GCN Catalyst drivers: cb1 from byte 0.
    pub const GCN: ArgBuffer = ArgBuffer { cb: 1, start: 0 };
    /// The 2009 spec for 7XX/Evergreen: cb0 after the 96-byte reserved area.
    pub const SPEC_2009: ArgBuffer = ArgBuffer { cb: 0, start: 96 };
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Placement {
    pub name: String,
    pub cb: u32,
    pub offset: u32,
    pub size: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlacementError {
    #[error("argument {index} `{name}` needs {size} bytes, more than the {max}-byte limit")]
    TooLarge {
        index: usize,
        name: String,
        size: u64,
        max: u64,
    },
    #[error("arguments end past byte {0} of the constant buffer")]
    Overflow(u64),
    #[error("{0} arguments, more than the limit of {max}", max = limits::MAX_KERNEL_ARGS)]
    TooMany(usize),
}

/// Places arguments one after another in 16-byte slots.
pub fn place_arguments<'a>(
    args: impl IntoIterator<Item = (&'a str, &'a ArgType)>,
    buffer: ArgBuffer,
) -> Result<Vec<Placement>, PlacementError> {
    let mut out = Vec::new();
    let mut offset = u64::from(buffer.start);
    for (index, (name, ty)) in args.into_iter().enumerate() {
        if index >= limits::MAX_KERNEL_ARGS {
            return Err(PlacementError::TooMany(index + 1));
        }
        let size = slot_size(ty);
        if size > limits::MAX_ARG_BYTES {
            return Err(PlacementError::TooLarge {
                index,
                name: name.to_owned(),
                size,
                max: limits::MAX_ARG_BYTES,
            });
        }
        let off = u32::try_from(offset).map_err(|_| PlacementError::Overflow(offset))?;
        out.push(Placement {
            name: name.to_owned(),
            cb: buffer.cb,
            offset: off,
            size: size as u32,
        });
        offset += size;
    }
    Ok(out)
}

/// Choices the compiler makes that the signature does not fix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryOptions {
    pub buffer: ArgBuffer,
    /// Memory type of `constant` pointers: `hc` before driver 1348, `c` after.
    pub constant: MemType,
}

/// The argument lines (`;value`, `;pointer`, `;image`, `;counter`) a GCN
/// compiler writes for these parameters, in order.
///
/// Fixed by the signature and checked against real drivers: types, counts,
/// constant buffer, offsets, memory types, pointer alignment (element size,
/// vec3 as vec4, struct size), volatile/restrict, image dimension/access/id
/// (read-only and write-only images are numbered separately), counter ids.
/// Not fixed by the signature, so only conventional: pointer buffer ids
/// (UAV allocation; written as 0, `hl` as 1) and pointer access (`RO` for
/// `constant` and `const global`, else `RW`; drivers may use `RW` for
/// unused `const` pointers).
pub fn argument_entries(
    params: &[Param],
    options: EntryOptions,
) -> Result<Vec<Entry<'_>>, PlacementError> {
    let placed = place_arguments(
        params.iter().map(|p| (p.name.as_str(), &p.ty)),
        options.buffer,
    )?;
    let (mut ro_images, mut wo_images, mut counters) = (0u32, 0u32, 0u32);
    let mut out = Vec::with_capacity(params.len());
    for (p, at) in params.iter().zip(&placed) {
        let value = |data_type: DataType, count: u32| {
            Entry::Value(ValueArg {
                name: Cow::Borrowed(p.name.as_str()),
                data_type,
                count,
                cb: at.cb,
                offset: at.offset,
            })
        };
        out.push(match &p.ty {
            ArgType::Scalar(s) => value(s.metadata_type(), 1),
            ArgType::Vector(s, n) => value(s.metadata_type(), *n),
            ArgType::Sampler => value(DataType::U32, 1),
            ArgType::Event => value(DataType::Event, 1),
            ArgType::Aggregate { size } => {
                value(DataType::Struct, u32::try_from(*size).unwrap_or(u32::MAX))
            }
            ArgType::Pointer(space) => {
                let (mem_type, buffer) = match space {
                    AddressSpace::Global => (MemType::Uav, 0),
                    AddressSpace::Local => (MemType::HwLocal, 1),
                    AddressSpace::Constant => (options.constant, 0),
                    AddressSpace::Private => (MemType::HwPrivate, 0),
                };
                let pointee = p.pointee.unwrap_or(crate::clc::Pointee {
                    data_type: DataType::U8,
                    size: 1,
                });
                let read_only = *space == AddressSpace::Constant
                    || (p.is_const && *space == AddressSpace::Global);
                Entry::Pointer(PointerArg {
                    name: Cow::Borrowed(p.name.as_str()),
                    data_type: pointee.data_type,
                    count: 1,
                    cb: at.cb,
                    offset: at.offset,
                    mem_type,
                    buffer,
                    align: u32::try_from(pointee.size).unwrap_or(u32::MAX),
                    qualifiers: Some(PointerQualifiers {
                        access: if read_only {
                            Access::ReadOnly
                        } else {
                            Access::ReadWrite
                        },
                        volatile: p.is_volatile,
                        restrict: p.is_restrict,
                    }),
                })
            }
            ArgType::Image(dim) => {
                let access = p.image_access.unwrap_or(Access::ReadOnly);
                let counter = if access == Access::ReadOnly {
                    &mut ro_images
                } else {
                    &mut wo_images
                };
                let id = *counter;
                *counter += 1;
                Entry::Image(ImageArg {
                    name: Cow::Borrowed(p.name.as_str()),
                    dim: *dim,
                    access,
                    id,
                    cb: at.cb,
                    offset: at.offset,
                })
            }
            ArgType::Counter32 => {
                let id = counters;
                counters += 1;
                Entry::Counter(CounterArg {
                    name: Cow::Borrowed(p.name.as_str()),
                    bits: 32,
                    id,
                    cb: at.cb,
                    offset: at.offset,
                })
            }
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_slot_rules() {
        assert_eq!(slot_size(&ArgType::Scalar(Scalar::Char)), 16);
        assert_eq!(slot_size(&ArgType::Vector(Scalar::Float, 8)), 32);
        assert_eq!(slot_size(&ArgType::Vector(Scalar::Double, 8)), 64);
        assert_eq!(slot_size(&ArgType::Vector(Scalar::UChar, 4)), 16);
        assert_eq!(slot_size(&ArgType::Vector(Scalar::UChar, 8)), 32);
        assert_eq!(slot_size(&ArgType::Vector(Scalar::UShort, 16)), 64);
        assert_eq!(slot_size(&ArgType::Aggregate { size: 6 }), 16);
        assert_eq!(slot_size(&ArgType::Aggregate { size: 52 }), 64);
        assert_eq!(slot_size(&ArgType::Image(ImageDim::D2)), 32);
    }
}
