//! Memory the kernel reaches: global buffers at distinct 64-bit base addresses
//! (stateless/SVM access), the binding table (stateful access by surface index)
//! and the work-group's shared local memory. Every access is bounds-checked and a
//! miss names the buffer and offset.

use std::fmt;

/// Where buffers start: far apart, so an address names one buffer.
const BASE: u64 = 0x0010_0000_0000;
const STRIDE: u64 = 0x0001_0000_0000;

#[derive(Clone, Debug)]
pub struct Buffer {
    pub name: String,
    pub base: u64,
    pub data: Vec<u8>,
    /// Set when the buffer holds an image: its texels, row by row, slice by slice.
    pub image: Option<ImageDesc>,
}

/// An image's shape and texel format. Texels are packed: rows of `width` texels,
/// `height` rows a slice, `depth` slices (the layers of an array).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageDesc {
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    /// The slices are layers of an image array, not a third dimension.
    pub array: bool,
    /// Channels per texel: 1 (R), 2 (RG) or 4 (RGBA).
    pub channels: u32,
    pub channel_type: ChannelType,
}

/// An OpenCL channel data type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelType {
    Float,
    Half,
    UnormInt8,
    UnormInt16,
    SignedInt8,
    SignedInt16,
    SignedInt32,
    UnsignedInt8,
    UnsignedInt16,
    UnsignedInt32,
}

impl ChannelType {
    pub fn size(self) -> u32 {
        match self {
            ChannelType::Float | ChannelType::SignedInt32 | ChannelType::UnsignedInt32 => 4,
            ChannelType::Half
            | ChannelType::UnormInt16
            | ChannelType::SignedInt16
            | ChannelType::UnsignedInt16 => 2,
            _ => 1,
        }
    }
    /// Read as floats (read_imagef) rather than integers (read_imagei/ui).
    pub fn is_float(self) -> bool {
        matches!(
            self,
            ChannelType::Float
                | ChannelType::Half
                | ChannelType::UnormInt8
                | ChannelType::UnormInt16
        )
    }
}

impl ImageDesc {
    pub fn texel_bytes(&self) -> u32 {
        self.channels * self.channel_type.size()
    }
    /// Bytes the texels take, `None` when that overflows.
    pub fn bytes(&self) -> Option<usize> {
        (self.width as usize)
            .checked_mul(self.height as usize)?
            .checked_mul(self.depth as usize)?
            .checked_mul(self.texel_bytes() as usize)
    }
}

/// How a sampler addresses coordinates outside the image (OpenCL `CLK_ADDRESS_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddressMode {
    None,
    ClampToEdge,
    Clamp,
    Repeat,
    MirroredRepeat,
}

/// A sampler the kernel selects by index (its sampler variables hold the index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sampler {
    pub index: u32,
    pub address: AddressMode,
    pub linear: bool,
    pub normalized: bool,
}

/// The bindless sampler-state offset gpukit gives inline sampler `index`: 64-byte
/// aligned and above any sampler index, because IGC sets bit 0 of the offset it
/// passes to S31 (a flag of the bindless message).
pub fn bindless_sampler(index: u32) -> u64 {
    (u64::from(index) + 1) << 6
}

/// The sampler a sampler variable's value selects: an index, or a bindless offset
/// from [`bindless_sampler`] with bit 0 possibly set.
pub(crate) fn sampler_index(value: u32) -> u32 {
    if value >= 64 {
        (value >> 6) - 1
    } else {
        value
    }
}

#[derive(Clone, Debug, Default)]
pub struct Memory {
    pub buffers: Vec<Buffer>,
    /// Binding-table index -> buffer.
    pub binding_table: Vec<(u32, usize)>,
    pub samplers: Vec<Sampler>,
    /// Program-scope data symbols and their addresses (what `faddr` of a name gives).
    pub symbols: Vec<(Vec<u8>, u64)>,
    /// The printf buffer, when the runtime bound one: the engine logs who reserves
    /// its bytes in [`Memory::reservations`].
    pub printf_buffer: Option<usize>,
    /// The atomic adds that reserved bytes of the printf buffer, in run order.
    pub reservations: Vec<Reservation>,
}

/// Bytes of the printf buffer one atomic add reserved, and the work-items whose
/// records fill them: IGC reserves once for every printing channel of a hardware
/// thread (a NoMask one-channel atomic adding their sizes), and each channel writes
/// its record at its prefix sum, lowest channel first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reservation {
    /// The buffer offset the add returned.
    pub offset: u64,
    pub group: [u32; 3],
    /// The hardware thread of the group (its channel 0 is local work-item thread x SIMD).
    pub thread: u32,
    /// The channels whose records the bytes hold.
    pub lanes: u32,
}

/// An access that misses every buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutOfBounds {
    pub space: String,
    pub offset: i128,
    pub len: usize,
    pub size: usize,
}

impl fmt::Display for OutOfBounds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "out-of-bounds access of {} bytes at offset {} of {} ({} bytes)",
            self.len, self.offset, self.space, self.size
        )
    }
}

/// A resolved location.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Buffer(usize, usize),
    Slm(usize),
    /// The running thread's scratch (private) space.
    Scratch(usize),
}

impl Memory {
    /// Adds a buffer and returns its base address.
    pub fn add(&mut self, name: impl Into<String>, data: Vec<u8>) -> u64 {
        let base = BASE + STRIDE * self.buffers.len() as u64;
        self.buffers.push(Buffer {
            name: name.into(),
            base,
            data,
            image: None,
        });
        base
    }
    /// Adds an image (its texels in `data`, `desc.bytes()` of them) and returns its buffer index.
    pub fn add_image(&mut self, name: impl Into<String>, desc: ImageDesc, data: Vec<u8>) -> usize {
        self.add(name, data);
        let i = self.buffers.len() - 1;
        self.buffers[i].image = Some(desc);
        i
    }
    /// The image bound at `bti`.
    pub fn image_at(&self, bti: u32) -> Option<usize> {
        self.binding_table
            .iter()
            .find(|(b, _)| *b == bti)
            .map(|(_, i)| *i)
            .filter(|i| self.buffers[*i].image.is_some())
    }
    pub fn bind(&mut self, bti: u32, buffer: usize) {
        self.binding_table.push((bti, buffer));
    }
    /// A stateless (A64) address.
    pub fn resolve_a64(&self, addr: u64, len: usize) -> Result<Place, OutOfBounds> {
        for (i, b) in self.buffers.iter().enumerate() {
            if addr >= b.base && addr < b.base + STRIDE {
                let off = (addr - b.base) as usize;
                return check(&b.name, off as i128, len, b.data.len()).map(|o| Place::Buffer(i, o));
            }
        }
        Err(OutOfBounds {
            space: format!("address space (no buffer at {addr:#x})"),
            offset: addr as i128,
            len,
            size: 0,
        })
    }
    /// A byte offset into the surface bound at `bti`.
    pub fn resolve_bti(&self, bti: u32, offset: i128, len: usize) -> Result<Place, OutOfBounds> {
        let Some(&(_, i)) = self.binding_table.iter().find(|(b, _)| *b == bti) else {
            return Err(OutOfBounds {
                space: format!("binding table index {bti} (nothing bound)"),
                offset,
                len,
                size: 0,
            });
        };
        let b = &self.buffers[i];
        check(&b.name, offset, len, b.data.len()).map(|o| Place::Buffer(i, o))
    }
}

pub fn check_slm(offset: i128, len: usize, size: usize) -> Result<Place, OutOfBounds> {
    check("shared local memory", offset, len, size).map(Place::Slm)
}

fn check(name: &str, offset: i128, len: usize, size: usize) -> Result<usize, OutOfBounds> {
    if offset < 0 || offset + len as i128 > size as i128 {
        return Err(OutOfBounds {
            space: name.to_string(),
            offset,
            len,
            size,
        });
    }
    Ok(offset as usize)
}
