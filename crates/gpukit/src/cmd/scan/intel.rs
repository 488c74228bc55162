//! Intel GPU program binaries (zebin, patch tokens, NEO's OpenCL ELF around them):
//! one row per kernel, from the same library call as `intel info` (`gpukit_intel::read`).

use super::row::Row;

pub fn rows(bytes: &[u8]) -> Result<Vec<Row>, String> {
    let program = gpukit_intel::read(bytes).map_err(|e| e.to_string())?;
    let platform = program.device.map(|d| format!("gfxcore-family-{d}"));
    Ok(program
        .kernels
        .iter()
        .map(|k| Row {
            kernel: Some(k.name.clone()),
            platform: platform.clone(),
            simd_size: Some(i64::from(k.simd_size)),
            gen_binary_bytes: Some(k.gen_code_size as i64),
            arguments: Some(k.args.len() as i64),
            local_bytes: Some(i64::from(k.slm_size)),
            scratch_bytes: Some(i64::from(k.private_size)),
            ..Row::default()
        })
        .collect())
}

/// Whether an ELF of no other known kind may be NEO's OpenCL ELF (its `e_type` is in
/// the OS-specific range, 0xff01 to 0xff05), so worth reading whole: other ELF files
/// (libraries, programs) are left after their first bytes.
pub fn may_be_opencl_elf(head: &[u8]) -> bool {
    let e_type = match (head.get(5), head.get(16..18)) {
        (Some(1), Some(t)) => u16::from_le_bytes([t[0], t[1]]),
        (Some(2), Some(t)) => u16::from_be_bytes([t[0], t[1]]),
        _ => return false,
    };
    e_type >= 0xff00
}
