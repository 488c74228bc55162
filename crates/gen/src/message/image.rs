//! Media block and typed surface messages on images, with the vISA interpreter's
//! texel formats and edge rules (`gpukit_visa::interp::image`); image bytes only
//! through `access.rs`.

use super::{access, Image, ImageOp, SendContext};

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
    }
}
