//! Memory the kernel reaches: global buffers at distinct 64-bit base addresses
//! (stateless/SVM access), the binding table (stateful access by surface index)
//! and the work-group's shared local memory. Every access is bounds-checked and a
//! miss names the buffer and offset.
//!
//! A buffer's bytes are shared atomic words, so that work-groups running on several
//! threads (`Options::jobs`) share one `&Memory`: a plain load or store is relaxed
//! (what OpenCL promises for unsynchronised accesses of different work-groups), a
//! store of part of a word changes only its own bytes (a compare-and-swap of the
//! word, right when another thread writes the word's other bytes), and an atomic is
//! one read-modify-write of the word holding it. Callers reach the bytes only through
//! [`Buffer`]'s methods, so the representation stays here.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Where buffers start: far apart, so an address names one buffer.
const BASE: u64 = 0x0010_0000_0000;
const STRIDE: u64 = 0x0001_0000_0000;

#[derive(Debug)]
pub struct Buffer {
    pub name: String,
    pub base: u64,
    /// The bytes, little-endian in 8-byte words (the last one padded with zeros).
    words: Vec<AtomicU64>,
    /// Bytes of the buffer.
    len: usize,
    /// Set when the buffer holds an image: its texels, row by row, slice by slice.
    pub image: Option<ImageDesc>,
}

impl Clone for Buffer {
    fn clone(&self) -> Self {
        Buffer {
            name: self.name.clone(),
            base: self.base,
            words: self
                .words
                .iter()
                .map(|w| AtomicU64::new(w.load(Relaxed)))
                .collect(),
            len: self.len,
            image: self.image,
        }
    }
}

/// The word of byte `at`, the byte's place in it, and how many of `len` bytes from
/// `at` that word holds.
#[inline]
fn word_span(at: usize, len: usize) -> (usize, usize, usize) {
    let (w, s) = (at / 8, at % 8);
    (w, s, (8 - s).min(len))
}

/// The bits of bytes `s..s + n` of a word.
#[inline]
fn byte_mask(s: usize, n: usize) -> u64 {
    (u64::MAX >> (64 - 8 * n)) << (8 * s)
}

impl Buffer {
    fn new(name: String, base: u64, data: &[u8]) -> Buffer {
        let words = data
            .chunks(8)
            .map(|c| {
                let mut w = [0u8; 8];
                w[..c.len()].copy_from_slice(c);
                AtomicU64::new(u64::from_le_bytes(w))
            })
            .collect();
        Buffer {
            name,
            base,
            words,
            len: data.len(),
            image: None,
        }
    }

    /// Bytes of the buffer.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether `len` bytes from `offset` lie in the buffer.
    fn holds(&self, offset: usize, len: usize) -> bool {
        offset.checked_add(len).is_some_and(|end| end <= self.len)
    }

    /// The bytes from `offset` into `out`; false (and `out` untouched) when they do
    /// not all lie in the buffer.
    pub fn read(&self, offset: usize, out: &mut [u8]) -> bool {
        if !self.holds(offset, out.len()) {
            return false;
        }
        let mut done = 0;
        while done < out.len() {
            let (w, s, n) = word_span(offset + done, out.len() - done);
            let v = self.words[w].load(Relaxed).to_le_bytes();
            out[done..done + n].copy_from_slice(&v[s..s + n]);
            done += n;
        }
        true
    }

    /// The bytes from `offset` into `out`; those past the buffer's end (its padding)
    /// read as zeros.
    pub fn read_padded(&self, offset: usize, out: &mut [u8]) {
        let have = self.len().saturating_sub(offset).min(out.len());
        self.read(offset, &mut out[..have]);
        out[have..].fill(0);
    }

    /// `N` bytes from `offset` (`None` past the end): a fixed-size read of one or two
    /// words.
    #[inline]
    pub fn read_array<const N: usize>(&self, offset: usize) -> Option<[u8; N]> {
        let mut out = [0u8; N];
        let (w, s) = (offset / 8, offset % 8);
        // Inside one word (every aligned element): one load, no loop.
        if s + N <= 8 && offset.checked_add(N).is_some_and(|end| end <= self.len) {
            out.copy_from_slice(&self.words[w].load(Relaxed).to_le_bytes()[s..s + N]);
            return Some(out);
        }
        self.read(offset, &mut out).then_some(out)
    }

    /// Writes `bytes` at `offset`; false (and nothing written) when they do not all
    /// lie in the buffer. Whole words are stored; part of a word is swapped in with
    /// the word's other bytes as they are.
    pub fn write(&self, offset: usize, bytes: &[u8]) -> bool {
        if !self.holds(offset, bytes.len()) {
            return false;
        }
        let mut done = 0;
        while done < bytes.len() {
            let (w, s, n) = word_span(offset + done, bytes.len() - done);
            let word = &self.words[w];
            if n == 8 {
                let mut v = [0u8; 8];
                v.copy_from_slice(&bytes[done..done + 8]);
                word.store(u64::from_le_bytes(v), Relaxed);
            } else {
                let mut v = [0u8; 8];
                v[s..s + n].copy_from_slice(&bytes[done..done + n]);
                let (bits, mask) = (u64::from_le_bytes(v), byte_mask(s, n));
                let _ = word.fetch_update(Relaxed, Relaxed, |old| Some(old & !mask | bits));
            }
            done += n;
        }
        true
    }

    /// An atomic operation on the `size`-byte (1 to 8) little-endian value at
    /// `offset`: `update` maps the old value to the new one (or fails, and nothing
    /// is written). Gives the old value; `None` past the end. A value inside one
    /// word (every naturally aligned one) is one read-modify-write of that word; one
    /// that straddles two words is read and written separately.
    pub fn atomic<E>(
        &self,
        offset: usize,
        size: usize,
        mut update: impl FnMut(u64) -> Result<u64, E>,
    ) -> Option<Result<u64, E>> {
        if !(1..=8).contains(&size) || !self.holds(offset, size) {
            return None;
        }
        let (w, s, n) = word_span(offset, size);
        if n < size {
            let mut old = [0u8; 8];
            self.read(offset, &mut old[..size]);
            let old = u64::from_le_bytes(old);
            return Some(update(old).map(|new| {
                self.write(offset, &new.to_le_bytes()[..size]);
                old
            }));
        }
        let mask = byte_mask(s, n);
        let mut failed = None;
        let word = self.words[w].fetch_update(Relaxed, Relaxed, |cur| {
            let old = (cur & mask) >> (8 * s);
            match update(old) {
                Ok(new) => Some(cur & !mask | (new << (8 * s)) & mask),
                Err(e) => {
                    failed = Some(e);
                    None
                }
            }
        });
        Some(match (word, failed) {
            (_, Some(e)) => Err(e),
            (Ok(cur) | Err(cur), None) => Ok((cur & mask) >> (8 * s)),
        })
    }

    /// A copy of the bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = vec![0; self.len];
        self.read(0, &mut out);
        out
    }

    /// The bytes, the buffer given up (after a run).
    pub fn into_bytes(self) -> Vec<u8> {
        let mut out: Vec<u8> = self
            .words
            .into_iter()
            .flat_map(|w| w.into_inner().to_le_bytes())
            .collect();
        out.truncate(self.len);
        out
    }
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
    /// The atomic adds that reserved bytes of the printf buffer, from every
    /// work-group running at once.
    pub reservations: ReservationLog,
}

/// The printf buffer's [`Reservation`]s, logged by work-groups on any thread.
#[derive(Debug, Default)]
pub struct ReservationLog(std::sync::Mutex<Vec<Reservation>>);

impl Clone for ReservationLog {
    fn clone(&self) -> Self {
        ReservationLog(std::sync::Mutex::new(self.lock().clone()))
    }
}

impl ReservationLog {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Reservation>> {
        // A panicking group cannot leave the list half-pushed: the lock's data stands.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
    pub fn push(&self, r: Reservation) {
        self.lock().push(r);
    }
    /// Every reservation, in the order the printf buffer's bytes were reserved (by
    /// offset: groups running at once log theirs in any order).
    pub fn take_sorted(&mut self) -> Vec<Reservation> {
        let mut all = std::mem::take(
            self.0
                .get_mut()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        all.sort_by_key(|r| (r.offset, [r.group[2], r.group[1], r.group[0]], r.thread));
        all
    }
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
        self.buffers.push(Buffer::new(name.into(), base, &data));
        base
    }
    /// Reads `out.len()` bytes of buffer `buffer` from `offset`: false when they do
    /// not lie in it (see [`Buffer::read`]).
    pub fn read(&self, buffer: usize, offset: usize, out: &mut [u8]) -> bool {
        self.buffers
            .get(buffer)
            .is_some_and(|b| b.read(offset, out))
    }
    /// Writes `bytes` to buffer `buffer` at `offset` (see [`Buffer::write`]).
    pub fn write(&self, buffer: usize, offset: usize, bytes: &[u8]) -> bool {
        self.buffers
            .get(buffer)
            .is_some_and(|b| b.write(offset, bytes))
    }
    /// An atomic read-modify-write of buffer `buffer` (see [`Buffer::atomic`]).
    pub fn atomic<E>(
        &self,
        buffer: usize,
        offset: usize,
        size: usize,
        update: impl FnMut(u64) -> Result<u64, E>,
    ) -> Option<Result<u64, E>> {
        self.buffers.get(buffer)?.atomic(offset, size, update)
    }
    /// Every buffer's bytes, the memory given up (after a run), in the order added.
    pub fn into_bytes(self) -> Vec<Vec<u8>> {
        self.buffers.into_iter().map(Buffer::into_bytes).collect()
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
                return check(&b.name, off as i128, len, b.len()).map(|o| Place::Buffer(i, o));
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
        check(&b.name, offset, len, b.len()).map(|o| Place::Buffer(i, o))
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
