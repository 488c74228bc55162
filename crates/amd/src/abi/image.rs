//! The 32 bytes the runtime writes for an image argument, and the sampler
//! bitfield. 7XX stores integers; 8XX (and GCN, which kept that layout)
//! moves the data type up and stores reciprocal sizes as IEEE floats so the
//! kernel can normalise coordinates without a division.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ImageLayout {
    R7xx,
    R8xx,
}

/// An image as the runtime knows it. `data_type` and `channel_order` are
/// the OpenCL `cl_channel_type` / `cl_channel_order` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ImageDesc {
    pub width: u32,
    pub height: u32,
    /// 1 for 1D and 2D images.
    pub depth: u32,
    pub data_type: u32,
    pub channel_order: u32,
    pub row_pitch: u32,
    pub slice_pitch: u32,
    /// Byte offset of the image in its buffer (7XX only).
    pub offset: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImageError {
    #[error("image {field} is 0; expected at least 1")]
    Zero { field: &'static str },
}

/// The eight dwords of the image block.
pub fn image_constants(desc: &ImageDesc, layout: ImageLayout) -> Result<[u32; 8], ImageError> {
    for (field, v) in [
        ("width", desc.width),
        ("height", desc.height),
        ("depth", desc.depth),
    ] {
        if v == 0 {
            return Err(ImageError::Zero { field });
        }
    }
    let recip = |v: u32| (1.0f32 / v as f32).to_bits();
    Ok(match layout {
        ImageLayout::R7xx => [
            desc.width,
            desc.height,
            desc.depth,
            desc.offset,
            desc.data_type,
            desc.channel_order,
            desc.row_pitch,
            desc.slice_pitch,
        ],
        ImageLayout::R8xx => [
            desc.width,
            desc.height,
            desc.depth,
            desc.data_type,
            recip(desc.width),
            recip(desc.height),
            recip(desc.depth),
            desc.channel_order,
        ],
    })
}

pub fn image_bytes(words: &[u32; 8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (i, w) in words.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AddressingMode {
    None,
    Repeat,
    ClampToEdge,
    Clamp,
    MirroredRepeat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FilterMode {
    None,
    Nearest,
    Linear,
}

/// A sampler as the 32-bit value of `;sampler` and the argument slot:
/// bit 0 normalised coordinates, bits 1-3 addressing, bits 4-5 filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Sampler {
    pub normalized: bool,
    pub addressing: AddressingMode,
    pub filter: FilterMode,
}

impl Sampler {
    pub fn value(self) -> u32 {
        let a = match self.addressing {
            AddressingMode::None => 0,
            AddressingMode::Repeat => 1,
            AddressingMode::ClampToEdge => 2,
            AddressingMode::Clamp => 3,
            AddressingMode::MirroredRepeat => 4,
        };
        let f = match self.filter {
            FilterMode::None => 0,
            FilterMode::Nearest => 1,
            FilterMode::Linear => 2,
        };
        u32::from(self.normalized) | a << 1 | f << 4
    }

    /// `None` when a field holds a value no sampler uses or bits above 5 are set.
    pub fn from_value(v: u32) -> Option<Self> {
        if v >> 6 != 0 {
            return None;
        }
        let addressing = match (v >> 1) & 7 {
            0 => AddressingMode::None,
            1 => AddressingMode::Repeat,
            2 => AddressingMode::ClampToEdge,
            3 => AddressingMode::Clamp,
            4 => AddressingMode::MirroredRepeat,
            _ => return None,
        };
        let filter = match (v >> 4) & 3 {
            0 => FilterMode::None,
            1 => FilterMode::Nearest,
            2 => FilterMode::Linear,
            _ => return None,
        };
        Some(Sampler {
            normalized: v & 1 != 0,
            addressing,
            filter,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts() {
        let d = ImageDesc {
            width: 4,
            height: 2,
            depth: 1,
            data_type: 0x10d2,
            channel_order: 0x10b5,
            row_pitch: 64,
            slice_pitch: 0,
            offset: 0,
        };
        let r7 = image_constants(&d, ImageLayout::R7xx).unwrap();
        assert_eq!(r7, [4, 2, 1, 0, 0x10d2, 0x10b5, 64, 0]);
        let r8 = image_constants(&d, ImageLayout::R8xx).unwrap();
        assert_eq!(
            r8,
            [
                4,
                2,
                1,
                0x10d2,
                0x3e80_0000,
                0x3f00_0000,
                0x3f80_0000,
                0x10b5
            ]
        );
    }

    #[test]
    fn corpus_sampler_value() {
        // `;sampler:unknown_38:0:1:38` in prginfo4: CLK_FILTER_LINEAR | CLK_ADDRESS_CLAMP.
        let s = Sampler::from_value(38).unwrap();
        assert_eq!(
            s,
            Sampler {
                normalized: false,
                addressing: AddressingMode::Clamp,
                filter: FilterMode::Linear
            }
        );
        assert_eq!(s.value(), 38);
    }
}
