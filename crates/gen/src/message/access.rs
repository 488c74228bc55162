//! The one place message execution touches memory bytes: resolving an address
//! in a space to a [`Place`], and reading, writing and atomically updating the
//! bytes there. How `Memory` stores buffer bytes may change (shared atomic words
//! for parallel work-groups); only this adapter then changes. Under `--check` it
//! also tells the vISA engine's checker of every access, by the channel (`lane`)
//! making it.

use super::{SendContext, Space};
use gpukit_visa::interp::check::{Access, Kind};
use gpukit_visa::interp::image::{self, Texel};
use gpukit_visa::interp::memory::{check_slm, ImageDesc, Place, Sampler};
use gpukit_visa::interp::message::{read_padded, read_place, slm_offset};

/// A resolved location: in memory, or at an offset of the thread's indirect data.
#[derive(Clone, Copy, Debug)]
pub(super) enum Loc {
    Mem(Place),
    Indirect(usize),
}

/// Where `len` bytes at `addr` of `space` lie. A read may run past a buffer's end
/// into its allocation's padding (zeros, counted as an over-read); a write may not.
pub(super) fn place(
    cx: &mut SendContext<'_>,
    space: Space,
    addr: i128,
    len: usize,
    read: bool,
    lane: u32,
) -> Result<Loc, String> {
    let resolved = match space {
        Space::Slm => {
            return check_slm(slm_offset(addr), len, cx.slm.len())
                .map(Loc::Mem)
                .map_err(|e| e.to_string())
        }
        Space::Scratch => return scratch(cx, addr, len).map(Loc::Mem),
        // Reads past the indirect data give zeros (the heap goes on); it is never written.
        Space::Indirect => {
            return match usize::try_from(addr) {
                Ok(a) if read && a <= cx.indirect.len() + 4096 => Ok(Loc::Indirect(a)),
                _ => Err(format!(
                    "a {} of {len} bytes at 32-bit stateless address {addr:#x} (only the thread's {}-byte indirect data is there)",
                    if read { "read" } else { "write" },
                    cx.indirect.len()
                )),
            }
        }
        Space::Flat if read => read_place(cx.mem, len, |m, back, n| {
            m.resolve_a64((addr - back) as u64, n)
        }),
        Space::Flat => cx.mem.resolve_a64(addr as u64, len).map(|p| (p, None)),
        Space::Bti(bti) if read => {
            read_place(cx.mem, len, |m, back, n| m.resolve_bti(bti, addr - back, n))
        }
        Space::Bti(bti) => cx.mem.resolve_bti(bti, addr, len).map(|p| (p, None)),
    };
    let (place, miss) = resolved.map_err(|e| e.to_string())?;
    if let Some(e) = miss {
        cx.findings.over_read += 1;
        if let Some(c) = cx.check.as_mut() {
            c.checker.flag(
                c.program,
                Kind::OverRead,
                lane,
                Some(e.space.clone()),
                u64::try_from(e.offset).ok(),
                format!(
                    "a {len}-byte read runs past the end of a {}-byte buffer, into the runtime's allocation padding (a wider load than the source's access)",
                    e.size
                ),
            );
        }
    }
    Ok(Loc::Mem(place))
}

/// Tells `--check` (when on) that channel `lane` makes `access` of `len` bytes at `loc`.
fn check(cx: &mut SendContext<'_>, loc: Loc, len: usize, lane: u32, access: Access) {
    if let (Some(c), Loc::Mem(place)) = (cx.check.as_mut(), loc) {
        c.checker.access(c.program, place, len, lane, access);
    }
}

/// The thread's scratch space, grown (in pages, up to its limit) to cover the access.
fn scratch(cx: &mut SendContext<'_>, addr: i128, len: usize) -> Result<Place, String> {
    let limit = cx.scratch_limit;
    let end = usize::try_from(addr)
        .ok()
        .and_then(|o| o.checked_add(len))
        .filter(|e| *e <= limit)
        .ok_or_else(|| {
            format!(
                "out-of-bounds access of {len} bytes at offset {addr} of the thread's scratch space ({limit} bytes)"
            )
        })?;
    if cx.scratch.len() < end {
        cx.scratch.resize(end.next_multiple_of(4096).min(limit), 0);
    }
    Ok(Place::Scratch(addr as usize))
}

/// The bytes at `place` into `out` as channel `lane` reads them; bytes past a
/// buffer's end (its padding) read as zeros.
pub(super) fn read(cx: &mut SendContext<'_>, loc: Loc, out: &mut [u8], lane: u32) {
    check(cx, loc, out.len(), lane, Access::Read);
    bytes_at(cx, loc, out)
}

fn bytes_at(cx: &SendContext<'_>, loc: Loc, out: &mut [u8]) {
    let len = out.len();
    let place = match loc {
        Loc::Mem(p) => p,
        Loc::Indirect(a) => return read_padded(cx.indirect, a, out),
    };
    match place {
        Place::Buffer(b, o) => cx.mem.buffers[b].read_padded(o, out),
        Place::Slm(o) => out.copy_from_slice(&cx.slm[o..o + len]),
        Place::Scratch(o) => out.copy_from_slice(&cx.scratch[o..o + len]),
    }
}

/// `bytes` to `loc` (resolved for a write: in memory, in bounds) as channel `lane`
/// writes them.
pub(super) fn write(cx: &mut SendContext<'_>, loc: Loc, bytes: &[u8], lane: u32) {
    if cx.check.is_some() {
        // A write of the bytes already there races with no other such write.
        let mut held = vec![0u8; bytes.len()];
        bytes_at(cx, loc, &mut held);
        let unchanged = held == bytes;
        check(cx, loc, bytes.len(), lane, Access::Write { unchanged });
    }
    store(cx, loc, bytes)
}

fn store(cx: &mut SendContext<'_>, loc: Loc, bytes: &[u8]) {
    let len = bytes.len();
    let Loc::Mem(place) = loc else { return };
    match place {
        Place::Buffer(b, o) => {
            cx.mem.write(b, o, bytes);
        }
        Place::Slm(o) => cx.slm[o..o + len].copy_from_slice(bytes),
        Place::Scratch(o) => cx.scratch[o..o + len].copy_from_slice(bytes),
    }
}

/// Replaces the `size`-byte value at `place` (1 to 8 bytes) by `update(old)` as
/// one atomic step by channel `lane`, and returns the old value.
pub(super) fn atomic(
    cx: &mut SendContext<'_>,
    place: Loc,
    size: usize,
    lane: u32,
    update: impl FnOnce(u64) -> Result<u64, String>,
) -> Result<u64, String> {
    // A read and a write: the Gen engine runs one work-group at a time, so no other
    // thread writes between them (and the checker sees whether memory changed).
    let mut b = [0u8; 8];
    bytes_at(cx, place, &mut b[..size]);
    let old = u64::from_le_bytes(b);
    let new = update(old)?;
    // An atomic that left memory as it was (a failed compare-and-swap, a load).
    let access = if new == old {
        Access::AtomicRead
    } else {
        Access::Atomic
    };
    check(cx, place, size, lane, access);
    store(cx, place, &new.to_le_bytes()[..size]);
    Ok(old)
}

/// The buffer holding the image bound at `bti`, and its shape.
pub(super) fn image(cx: &SendContext<'_>, bti: u32) -> Result<(usize, ImageDesc), String> {
    cx.mem
        .image_at(bti)
        .and_then(|i| cx.mem.buffers[i].image.map(|d| (i, d)))
        .ok_or_else(|| format!("binding table index {bti} holds no image"))
}

/// A media block's byte `col` of row `row` (clamped to the image's edges).
pub(super) fn media_byte(
    cx: &SendContext<'_>,
    img: usize,
    desc: &ImageDesc,
    row: i64,
    col: i64,
) -> u8 {
    image::media_read_byte(&cx.mem.buffers[img], desc, row, col)
}

/// Writes a media block's byte (dropped outside the image).
pub(super) fn set_media_byte(
    cx: &mut SendContext<'_>,
    img: usize,
    desc: &ImageDesc,
    row: i64,
    col: i64,
    b: u8,
) {
    image::media_write_byte(&cx.mem.buffers[img], desc, row, col, b);
}

/// The texel at `at` (x, y, z), `None` outside the image.
pub(super) fn texel(
    cx: &SendContext<'_>,
    img: usize,
    desc: &ImageDesc,
    at: [i64; 3],
) -> Option<Texel> {
    image::read_texel(&cx.mem.buffers[img], desc, at[0], at[1], at[2])
}

/// Writes the channels of `mask` of the texel at `at` (dropped outside the image).
pub(super) fn set_texel(
    cx: &mut SendContext<'_>,
    img: usize,
    desc: &ImageDesc,
    at: [i64; 3],
    mask: u32,
    values: Texel,
) {
    image::write_texel(
        &cx.mem.buffers[img],
        desc,
        (at[0], at[1], at[2]),
        mask,
        values,
    );
}

/// The sampler state at `index` of the kernel's sampler table.
pub(super) fn sampler(cx: &SendContext<'_>, index: u32) -> Result<Sampler, String> {
    cx.mem
        .samplers
        .iter()
        .find(|s| s.index == index)
        .copied()
        .ok_or_else(|| format!("no sampler at index {index}"))
}

/// The texel a sampler reads at float coordinates `coords` (u, v, r).
pub(super) fn sample(
    cx: &SendContext<'_>,
    img: usize,
    desc: &ImageDesc,
    sampler: &Sampler,
    coords: [f32; 3],
) -> Texel {
    image::sample(&cx.mem.buffers[img], desc, sampler, coords)
}
