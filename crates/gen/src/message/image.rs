//! Media block and typed surface messages on images, with the vISA interpreter's
//! texel formats and edge rules (`gpukit_visa::interp::image`); image bytes only
//! through `access.rs`.

use super::{access, Image, ImageOp, Kind, Message, SendContext};

/// The register byte of payload register `i` (past the first payload's `mlen`
/// registers: in the second payload, when there is one).
fn payload(cx: &SendContext<'_>, img: &Image, i: u32) -> usize {
    let grf = cx.grf_bytes as usize;
    match cx.src1 {
        Some(s1) if i >= img.mlen => s1 as usize + (i - img.mlen) as usize * grf,
        _ => cx.src0 as usize + i as usize * grf,
    }
}

fn dword(cx: &SendContext<'_>, at: usize) -> Result<u32, String> {
    cx.regs
        .get(at..at + 4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .ok_or_else(|| format!("payload byte {at} lies outside the register file"))
}

fn put(cx: &mut SendContext<'_>, at: usize, bytes: &[u8]) -> Result<(), String> {
    cx.regs
        .get_mut(at..at + bytes.len())
        .ok_or_else(|| format!("destination byte {at} lies outside the register file"))?
        .copy_from_slice(bytes);
    Ok(())
}

/// A sampler message: descriptor bits 16:12 the message type, 18:17 the SIMD mode
/// (1: SIMD8, 2: SIMD16, 3: SIMD32/64), 11:8 the sampler state index, 7:0 the
/// binding-table index (IGA's sampler decoder).
pub(super) fn decode_sampler(desc: u32, len: u32, eot: bool) -> Result<Message, String> {
    let bits = |at: u32, len: u32| (desc >> at) & ((1 << len) - 1);
    let (ty, mode) = (bits(12, 5), bits(17, 2));
    if ty == 0x1F && mode == 3 {
        return Ok(Message {
            kind: Kind::Null,
            eot,
            name: "sampler cache flush".into(),
        });
    }
    let simd = match mode {
        1 => 8,
        2 => 16,
        m => return Err(format!("sampler SIMD mode {m}")),
    };
    let (lod, name) = match ty {
        0x00 => (false, "sample"),
        0x02 => (true, "sample_l"),
        0x18 => (false, "sample_lz"),
        t => return Err(format!("sampler message type {t:#x} is not supported yet")),
    };
    Ok(Message {
        kind: Kind::Image(Image {
            op: ImageOp::Sample {
                simd,
                sampler: bits(8, 4),
                lod,
            },
            bti: bits(0, 8),
            header: bits(19, 1) == 1,
            mlen: bits(25, 4),
            len,
        }),
        eot,
        name: format!("simd{simd} {name}"),
    })
}

pub(super) fn run(img: &Image, cx: &mut SendContext<'_>) -> Result<(), String> {
    let (buffer, desc) = access::image(cx, img.bti)?;
    let h = u32::from(img.header);
    match img.op {
        ImageOp::MediaBlock { load } => {
            let header = cx.src0 as usize;
            let x = i64::from(dword(cx, header)? as i32);
            let y = i64::from(dword(cx, header + 4)? as i32);
            let size = dword(cx, header + 8)?;
            let width = (size & 0x3FF) as usize + 1;
            let height = ((size >> 16) & 0x3F) as usize + 1;
            let pitch = width.max(4).next_power_of_two();
            let data = if load {
                cx.dst.map(|d| d as usize)
            } else {
                Some(payload(cx, img, 1))
            };
            let Some(data) = data else { return Ok(()) };
            for i in 0..height {
                for j in 0..width {
                    let (row, col) = (y + i as i64, x + j as i64);
                    let at = data + i * pitch + j;
                    if load {
                        let b = access::media_byte(cx, buffer, &desc, row, col);
                        put(cx, at, &[b])?;
                    } else {
                        let b = *cx.regs.get(at).ok_or("payload outside the register file")?;
                        access::set_media_byte(cx, buffer, &desc, row, col, b);
                    }
                }
            }
            Ok(())
        }
        ImageOp::Typed {
            load,
            channels,
            coords,
            first_channel,
        } => {
            let grf = cx.grf_bytes as usize;
            for slot in 0..8usize {
                if cx.channels & (1 << (slot as u32 + first_channel)) == 0 {
                    continue;
                }
                let mut at = [0i64; 3];
                for (k, c) in at.iter_mut().enumerate().take(coords as usize) {
                    let reg = payload(cx, img, h + k as u32);
                    *c = i64::from(dword(cx, reg + 4 * slot)? as i32);
                }
                if load {
                    // Outside the image a typed read returns zeros.
                    let texel = access::texel(cx, buffer, &desc, at).unwrap_or([0; 4]);
                    let Some(d) = cx.dst else { continue };
                    let enabled = (0..4).filter(|ch| channels & (1 << ch) != 0);
                    for (k, ch) in enabled.enumerate() {
                        put(
                            cx,
                            d as usize + k * grf + 4 * slot,
                            &texel[ch].to_le_bytes(),
                        )?;
                    }
                } else {
                    let mut texel = [0u32; 4];
                    let enabled = (0..4).filter(|ch| channels & (1 << ch) != 0);
                    for (k, ch) in enabled.enumerate() {
                        let reg = payload(cx, img, h + coords + k as u32);
                        texel[ch] = dword(cx, reg + 4 * slot)?;
                    }
                    access::set_texel(cx, buffer, &desc, at, u32::from(channels), texel);
                }
            }
            Ok(())
        }
        ImageOp::Sample { simd, sampler, lod } => {
            let grf = cx.grf_bytes as usize;
            let per = (simd as usize * 4).div_ceil(grf);
            let state = access::sampler(cx, sampler)?;
            // The header's dword 2, bits 15:12, disables return channels (RGBA).
            let disabled = if img.header {
                (dword(cx, cx.src0 as usize + 8)? >> 12) & 0xF
            } else {
                0
            };
            let Some(dst) = cx.dst else { return Ok(()) };
            let r_param = if lod { 3 } else { 2 };
            for c in 0..simd as usize {
                if cx.channels & (1 << c) == 0 {
                    continue;
                }
                let mut coords = [0f32; 3];
                for (k, p) in [0, 1, r_param].into_iter().enumerate() {
                    // A parameter the payload leaves out reads as 0.
                    let first = h + (p * per) as u32;
                    if first + per as u32 <= img.len {
                        let reg = payload(cx, img, first);
                        coords[k] = f32::from_bits(dword(cx, reg + 4 * c)?);
                    }
                }
                let texel = access::sample(cx, buffer, &desc, &state, coords);
                let enabled = (0..4).filter(|ch| disabled & (1 << ch) == 0);
                for (k, ch) in enabled.enumerate() {
                    put(
                        cx,
                        dst as usize + k * per * grf + 4 * c,
                        &texel[ch].to_le_bytes(),
                    )?;
                }
            }
            Ok(())
        }
    }
}
