//! The reserved area of constant buffer 0 the runtime fills before every
//! dispatch (`clEnqueueNDRangeKernel` and `clEnqueueTask`).
//!
//! The 2009 spec defines vectors 0..8 (bytes 0..139). GCN Catalyst drivers
//! reserve ten vectors: vector 8 holds the global data store address (one
//! dword, or two with the 64-bit ABI) and vector 9 the NDRange global work
//! offset, shifted by one dword with the 64-bit ABI (ROCm/clr
//! `gpukernel.hpp` MetadataOffsets, CLRX AmdAbi).

use serde::{Deserialize, Serialize};

/// Which driver generation's cb0 layout to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Cb0Layout {
    /// The 2009 spec (7XX/Evergreen): vectors 0..8, printf in dwords 33/34.
    Spec2009,
    /// GCN, 32-bit ABI.
    Gcn32,
    /// GCN, 64-bit ABI (`;memory:64bitABI`).
    Gcn64,
}

/// What the runtime knows at enqueue time. Deserialisable with every field
/// but `layout` optional (zero, or a Task when `ndrange` is absent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Cb0Request {
    /// `None` for `clEnqueueTask`.
    pub ndrange: Option<NdRange>,
    pub layout: Cb0Layout,
    pub private_ring_offset: u32,
    pub private_per_thread: u32,
    pub local_ring_offset: u32,
    pub local_per_group: u32,
    pub math_table: u32,
    pub group_offset: [u32; 3],
    pub data_segment: u64,
    pub printf_offset: u32,
    pub printf_size: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NdRange {
    /// 1, 2 or 3.
    pub work_dim: u32,
    pub global: [u32; 3],
    pub local: [u32; 3],
    #[serde(default)]
    pub global_offset: [u32; 3],
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Cb0Error {
    #[error("work_dim is {0}; expected 1, 2 or 3")]
    WorkDim(u32),
    #[error("local_work_size[{dim}] is 0; expected at least 1")]
    ZeroLocal { dim: usize },
    #[error(
        "global_work_size[{dim}] = {global} is not a multiple of local_work_size[{dim}] = {local}"
    )]
    NotMultiple { dim: usize, global: u32, local: u32 },
    #[error("global_work_size[{dim}] is 0; expected at least 1")]
    ZeroGlobal { dim: usize },
    #[error("the data segment address {0:#x} does not fit the 32-bit ABI's one dword")]
    DataSegmentTooFar(u64),
}

/// One named dword of the reserved area.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cb0Field {
    pub dword: usize,
    pub name: &'static str,
    pub value: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cb0 {
    pub layout: Cb0Layout,
    pub fields: Vec<Cb0Field>,
    /// All dwords of the reserved area, unnamed ones zero.
    pub dwords: Vec<u32>,
}

impl Cb0 {
    pub fn bytes(&self) -> Vec<u8> {
        self.dwords.iter().flat_map(|d| d.to_le_bytes()).collect()
    }
}

impl Default for Cb0Request {
    fn default() -> Self {
        Cb0Request::task(Cb0Layout::Spec2009)
    }
}

impl Cb0Request {
    pub fn task(layout: Cb0Layout) -> Self {
        Cb0Request {
            ndrange: None,
            layout,
            private_ring_offset: 0,
            private_per_thread: 0,
            local_ring_offset: 0,
            local_per_group: 0,
            math_table: 0,
            group_offset: [0; 3],
            data_segment: 0,
            printf_offset: 0,
            printf_size: 0,
        }
    }

    pub fn ndrange(layout: Cb0Layout, ndrange: NdRange) -> Self {
        Cb0Request {
            ndrange: Some(ndrange),
            ..Cb0Request::task(layout)
        }
    }

    pub fn build(&self) -> Result<Cb0, Cb0Error> {
        let mut f: Vec<Cb0Field> = Vec::new();
        let mut put =
            |dword: usize, name: &'static str, value: u32| f.push(Cb0Field { dword, name, value });
        // clEnqueueTask is a 1x1x1 NDRange whose work_dim the table gives as 0.
        let (work_dim, global, local, offset) = match &self.ndrange {
            None => (0, [1; 3], [1; 3], [0; 3]),
            Some(nd) => {
                if !(1..=3).contains(&nd.work_dim) {
                    return Err(Cb0Error::WorkDim(nd.work_dim));
                }
                let dims = nd.work_dim as usize;
                let mut g = [1u32; 3];
                let mut l = [1u32; 3];
                let mut o = [0u32; 3];
                for d in 0..dims {
                    if nd.global[d] == 0 {
                        return Err(Cb0Error::ZeroGlobal { dim: d });
                    }
                    if nd.local[d] == 0 {
                        return Err(Cb0Error::ZeroLocal { dim: d });
                    }
                    if nd.global[d] % nd.local[d] != 0 {
                        return Err(Cb0Error::NotMultiple {
                            dim: d,
                            global: nd.global[d],
                            local: nd.local[d],
                        });
                    }
                    g[d] = nd.global[d];
                    l[d] = nd.local[d];
                    o[d] = nd.global_offset[d];
                }
                (nd.work_dim, g, l, o)
            }
        };
        put(0, "global_work_size[0]", global[0]);
        put(1, "global_work_size[1]", global[1]);
        put(2, "global_work_size[2]", global[2]);
        put(3, "work_dim", work_dim);
        put(4, "local_work_size[0]", local[0]);
        put(5, "local_work_size[1]", local[1]);
        put(6, "local_work_size[2]", local[2]);
        put(8, "num_groups[0]", global[0] / local[0]);
        put(9, "num_groups[1]", global[1] / local[1]);
        put(10, "num_groups[2]", global[2] / local[2]);
        put(12, "private_ring_offset", self.private_ring_offset);
        put(13, "private_per_thread", self.private_per_thread);
        put(16, "local_ring_offset", self.local_ring_offset);
        put(17, "local_per_group", self.local_per_group);
        put(19, "math_table", self.math_table);
        put(20, "float_0.0", 0.0f32.to_bits());
        put(21, "float_0.5", 0.5f32.to_bits());
        put(22, "float_1.0", 1.0f32.to_bits());
        put(23, "float_2.0", 2.0f32.to_bits());
        put(24, "global_offset[0]", offset[0]);
        put(25, "global_offset[1]", offset[1]);
        put(26, "global_offset[2]", offset[2]);
        put(
            27,
            "global_offset_flat",
            offset[0].wrapping_mul(offset[1]).wrapping_mul(offset[2]),
        );
        put(28, "group_offset[0]", self.group_offset[0]);
        put(29, "group_offset[1]", self.group_offset[1]);
        put(30, "group_offset[2]", self.group_offset[2]);
        put(
            31,
            "group_offset_flat",
            self.group_offset[0]
                .wrapping_mul(self.group_offset[1])
                .wrapping_mul(self.group_offset[2]),
        );
        let total = match self.layout {
            Cb0Layout::Spec2009 => {
                put(32, "data_segment", lo32(self.data_segment)?);
                put(33, "printf_offset", self.printf_offset);
                put(34, "printf_size", self.printf_size);
                36
            }
            Cb0Layout::Gcn32 => {
                put(32, "data_segment", lo32(self.data_segment)?);
                put(36, "ndrange_global_offset[0]", offset[0]);
                put(37, "ndrange_global_offset[1]", offset[1]);
                put(38, "ndrange_global_offset[2]", offset[2]);
                40
            }
            Cb0Layout::Gcn64 => {
                put(32, "data_segment_lo", self.data_segment as u32);
                put(33, "data_segment_hi", (self.data_segment >> 32) as u32);
                put(37, "ndrange_global_offset[0]", offset[0]);
                put(38, "ndrange_global_offset[1]", offset[1]);
                put(39, "ndrange_global_offset[2]", offset[2]);
                40
            }
        };
        let mut dwords = vec![0u32; total];
        for field in &f {
            dwords[field.dword] = field.value;
        }
        Ok(Cb0 {
            layout: self.layout,
            fields: f,
            dwords,
        })
    }
}

fn lo32(v: u64) -> Result<u32, Cb0Error> {
    u32::try_from(v).map_err(|_| Cb0Error::DataSegmentTooFar(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_matches_the_spec_table() {
        let cb = Cb0Request::task(Cb0Layout::Spec2009).build().unwrap();
        assert_eq!(&cb.dwords[..12], &[1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0]);
        assert_eq!(
            cb.dwords[20..24],
            [0, 0x3f00_0000, 0x3f80_0000, 0x4000_0000]
        );
        assert_eq!(cb.dwords.len(), 36);
    }
}
