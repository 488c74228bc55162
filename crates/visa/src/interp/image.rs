//! Images as the typed-surface and sampler messages see them: texel reads and
//! writes with the format conversions of `SCATTER4_TYPED`'s notes, and sampling
//! with the OpenCL C addressing and filtering rules (OpenCL C spec, "Image
//! addressing and filtering"), computed in single precision as OpenCL defines them.

use super::memory::{AddressMode, Buffer, ChannelType, ImageDesc, Sampler};
use super::value::{f16_to_f32, f32_to_f16};

/// One texel's channels (missing channels read as 0, alpha as 1), as f32 bits for
/// float formats and as integers for integer formats.
pub type Texel = [u32; 4];

/// The texel at (x, y, z), or `None` outside the image.
pub fn read_texel(buf: &Buffer, desc: &ImageDesc, x: i64, y: i64, z: i64) -> Option<Texel> {
    let at = texel_offset(desc, x, y, z)?;
    let size = desc.channel_type.size() as usize;
    let one = if desc.channel_type.is_float() {
        1f32.to_bits()
    } else {
        1
    };
    let mut out = [0, 0, 0, one];
    for (c, slot) in out.iter_mut().enumerate().take(desc.channels as usize) {
        let o = at + c * size;
        let mut b = [0u8; 4];
        if !buf.read(o, &mut b[..size]) {
            return None;
        }
        let raw = match size {
            1 => b[0] as u32,
            2 => u16::from_le_bytes([b[0], b[1]]) as u32,
            _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        };
        *slot = match desc.channel_type {
            ChannelType::Float => raw,
            ChannelType::Half => f16_to_f32(raw as u16).to_bits(),
            ChannelType::UnormInt8 => (raw as f32 / 255.0).to_bits(),
            ChannelType::UnormInt16 => (raw as f32 / 65535.0).to_bits(),
            ChannelType::SignedInt8 => raw as u8 as i8 as i32 as u32,
            ChannelType::SignedInt16 => raw as u16 as i16 as i32 as u32,
            _ => raw,
        };
    }
    Some(out)
}

/// Writes the channels of `mask` (R = bit 0) of the texel at (x, y, z); a write
/// outside the image is dropped, as the typed messages define.
pub fn write_texel(
    buf: &Buffer,
    desc: &ImageDesc,
    (x, y, z): (i64, i64, i64),
    mask: u32,
    values: Texel,
) {
    let Some(at) = texel_offset(desc, x, y, z) else {
        return;
    };
    let size = desc.channel_type.size() as usize;
    for (c, &v) in values.iter().enumerate().take(desc.channels as usize) {
        if mask & (1 << c) == 0 {
            continue;
        }
        let f = f32::from_bits(v);
        let unorm = |max: f32| {
            let x = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
            (x * max).round_ties_even() as u32
        };
        let i = v as i32 as i64;
        let raw: u32 = match desc.channel_type {
            ChannelType::Float => v,
            ChannelType::Half => f32_to_f16(f) as u32,
            ChannelType::UnormInt8 => unorm(255.0),
            ChannelType::UnormInt16 => unorm(65535.0),
            ChannelType::SignedInt8 => i.clamp(-128, 127) as u32,
            ChannelType::SignedInt16 => i.clamp(-32768, 32767) as u32,
            ChannelType::UnsignedInt8 => v.min(255),
            ChannelType::UnsignedInt16 => v.min(65535),
            ChannelType::SignedInt32 | ChannelType::UnsignedInt32 => v,
        };
        let o = at + c * size;
        buf.write(o, &raw.to_le_bytes()[..size]);
    }
}

/// Byte `col` of row `row` of a 2D image's first slice, as a media block read sees
/// it: reads out of the slice clamp to the nearest edge byte column and row.
pub fn media_read_byte(buf: &Buffer, desc: &ImageDesc, row: i64, col: i64) -> u8 {
    let row_bytes = desc.width as i64 * desc.texel_bytes() as i64;
    let r = row.clamp(0, desc.height as i64 - 1);
    let c = col.clamp(0, row_bytes - 1);
    buf.read_array::<1>((r * row_bytes + c) as usize)
        .map_or(0, |[b]| b)
}

/// Writes byte `col` of row `row` of a 2D image's first slice, as a media block
/// write does: a write out of the slice is dropped.
pub fn media_write_byte(buf: &Buffer, desc: &ImageDesc, row: i64, col: i64, b: u8) {
    let row_bytes = desc.width as i64 * desc.texel_bytes() as i64;
    if (0..row_bytes).contains(&col) && (0..desc.height as i64).contains(&row) {
        buf.write((row * row_bytes + col) as usize, &[b]);
    }
}

fn texel_offset(desc: &ImageDesc, x: i64, y: i64, z: i64) -> Option<usize> {
    let inside = |v: i64, n: u32| v >= 0 && v < n as i64;
    if !(inside(x, desc.width) && inside(y, desc.height) && inside(z, desc.depth)) {
        return None;
    }
    let index = (z as usize * desc.height as usize + y as usize) * desc.width as usize + x as usize;
    Some(index * desc.texel_bytes() as usize)
}

/// The border colour CLK_ADDRESS_CLAMP reads outside the image: transparent black,
/// opaque for formats without alpha.
fn border(desc: &ImageDesc) -> [f32; 4] {
    [0.0, 0.0, 0.0, if desc.channels < 4 { 1.0 } else { 0.0 }]
}

/// One axis: the texel indices and the weight of the second (linear) or the single
/// index (nearest), after the sampler's addressing mode; `None` marks "outside"
/// (the border colour).
fn axis(s: &Sampler, coord: f32, size: u32, linear: bool) -> ([Option<i64>; 2], f32) {
    let n = size as f32;
    let clamp_mode = matches!(
        s.address,
        AddressMode::ClampToEdge | AddressMode::Clamp | AddressMode::None
    );
    let fix = |i: i64| -> Option<i64> {
        match s.address {
            AddressMode::ClampToEdge => Some(i.clamp(0, size as i64 - 1)),
            _ if i < 0 || i >= size as i64 => None,
            _ => Some(i),
        }
    };
    if clamp_mode || !s.normalized {
        let u = if s.normalized { coord * n } else { coord };
        if !linear {
            return ([fix(u.floor() as i64), None], 0.0);
        }
        let t = u - 0.5;
        let i0 = t.floor() as i64;
        return ([fix(i0), fix(i0.saturating_add(1))], t - t.floor());
    }
    match s.address {
        AddressMode::Repeat => {
            let u = (coord - coord.floor()) * n;
            if !linear {
                let mut i = u.floor() as i64;
                if i > size as i64 - 1 {
                    i -= size as i64;
                }
                return ([Some(i), None], 0.0);
            }
            let t = u - 0.5;
            let mut i0 = t.floor() as i64;
            let mut i1 = i0.saturating_add(1);
            if i0 < 0 {
                i0 += size as i64;
            }
            if i1 > size as i64 - 1 {
                i1 -= size as i64;
            }
            ([Some(i0), Some(i1)], t - t.floor())
        }
        _ => {
            // Mirrored repeat.
            let m = 2.0 * (0.5 * coord).round_ties_even();
            let u = (coord - m).abs() * n;
            if !linear {
                return ([Some((u.floor() as i64).min(size as i64 - 1)), None], 0.0);
            }
            let t = u - 0.5;
            let i0 = (t.floor() as i64).max(0);
            let i1 = (t.floor() as i64).saturating_add(1).min(size as i64 - 1);
            ([Some(i0), Some(i1)], t - t.floor())
        }
    }
}

/// `read_image{f,i,ui}(image, sampler, coord)`: `coords` holds u, v and r (r is the
/// layer of an array, rounded to the nearest layer and clamped).
pub fn sample(buf: &Buffer, desc: &ImageDesc, s: &Sampler, coords: [f32; 3]) -> Texel {
    let float = desc.channel_type.is_float();
    let linear = s.linear && float;
    let dims = if desc.array || desc.depth <= 1 {
        if desc.height <= 1 && !desc.array {
            1
        } else {
            2
        }
    } else {
        3
    };
    let ax = |d: usize, size: u32| -> ([Option<i64>; 2], f32) {
        if d < dims {
            axis(s, coords[d], size, linear)
        } else {
            ([Some(0), None], 0.0)
        }
    };
    let (xs, a) = ax(0, desc.width);
    let (ys, b) = ax(1, desc.height);
    let (zs, c) = if desc.array {
        let layer = coords[2].round_ties_even() as i64;
        ([Some(layer.clamp(0, desc.depth as i64 - 1)), None], 0.0)
    } else {
        ax(2, desc.depth)
    };
    let fetch = |x: Option<i64>, y: Option<i64>, z: Option<i64>| -> [f32; 4] {
        match (x, y, z) {
            (Some(x), Some(y), Some(z)) => match read_texel(buf, desc, x, y, z) {
                Some(t) => t.map(f32::from_bits),
                None => border(desc),
            },
            _ => border(desc),
        }
    };
    if !linear {
        let (x, y, z) = (xs[0], ys[0], zs[0]);
        return match (x, y, z) {
            (Some(x), Some(y), Some(z)) => {
                read_texel(buf, desc, x, y, z).unwrap_or_else(|| border_bits(desc, float))
            }
            _ => border_bits(desc, float),
        };
    }
    let mut out = [0f32; 4];
    let zn = if dims == 3 && !desc.array { 2 } else { 1 };
    let yn = if dims >= 2 { 2 } else { 1 };
    for (k, z) in zs.iter().take(zn).enumerate() {
        let wz = if zn == 1 {
            1.0
        } else if k == 0 {
            1.0 - c
        } else {
            c
        };
        for (j, y) in ys.iter().take(yn).enumerate() {
            let wy = if yn == 1 {
                1.0
            } else if j == 0 {
                1.0 - b
            } else {
                b
            };
            for (i, x) in xs.iter().enumerate() {
                let wx = if i == 0 { 1.0 - a } else { a };
                let t = fetch(*x, *y, *z);
                for ch in 0..4 {
                    out[ch] += wx * wy * wz * t[ch];
                }
            }
        }
    }
    out.map(f32::to_bits)
}

fn border_bits(desc: &ImageDesc, float: bool) -> Texel {
    if float {
        border(desc).map(f32::to_bits)
    } else {
        [0, 0, 0, u32::from(desc.channels < 4)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sampler(address: AddressMode, linear: bool, normalized: bool) -> Sampler {
        Sampler {
            index: 0,
            address,
            linear,
            normalized,
        }
    }

    #[test]
    fn nearest_addressing_follows_opencl() {
        let clamp = sampler(AddressMode::ClampToEdge, false, false);
        assert_eq!(axis(&clamp, -3.0, 4, false).0[0], Some(0));
        assert_eq!(axis(&clamp, 9.5, 4, false).0[0], Some(3));
        let border = sampler(AddressMode::Clamp, false, false);
        assert_eq!(axis(&border, -0.5, 4, false).0[0], None);
        let repeat = sampler(AddressMode::Repeat, false, true);
        // 1.3 wraps to 0.3: texel floor(0.3 * 4) = 1.
        assert_eq!(axis(&repeat, 1.3, 4, false).0[0], Some(1));
        let mirror = sampler(AddressMode::MirroredRepeat, false, true);
        // 1.3 mirrors to 0.7: texel 2.
        assert_eq!(axis(&mirror, 1.3, 4, false).0[0], Some(2));
    }

    #[test]
    fn linear_weights_and_wrapping() {
        let repeat = sampler(AddressMode::Repeat, true, true);
        // u = 0.0 -> 0 * 4 - 0.5 = -0.5: texels 3 and 0, weight 0.5.
        let (idx, w) = axis(&repeat, 0.0, 4, true);
        assert_eq!(idx, [Some(3), Some(0)]);
        assert_eq!(w, 0.5);
        let clamp = sampler(AddressMode::ClampToEdge, true, false);
        let (idx, w) = axis(&clamp, 1.75, 4, true);
        assert_eq!(idx, [Some(1), Some(2)]);
        assert_eq!(w, 0.25);
    }

    #[test]
    fn linear_sample_of_a_2x1_image() {
        let desc = ImageDesc {
            width: 2,
            height: 1,
            depth: 1,
            array: false,
            channels: 1,
            channel_type: ChannelType::Float,
        };
        let data = [0.0f32, 1.0].iter().flat_map(|f| f.to_le_bytes()).collect();
        let mut mem = crate::interp::Memory::default();
        let i = mem.add_image("image", desc, data);
        let buf = &mem.buffers[i];
        let s = sampler(AddressMode::ClampToEdge, true, false);
        // Halfway between the texel centres 0.5 and 1.5; missing alpha reads as 1.
        let t = sample(buf, &desc, &s, [1.0, 0.0, 0.0]);
        assert_eq!(f32::from_bits(t[0]), 0.5);
        assert_eq!(f32::from_bits(t[3]), 1.0);
    }
}
