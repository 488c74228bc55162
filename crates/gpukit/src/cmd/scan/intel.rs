//! Intel GPU program binaries (zebin, patch tokens, NEO's OpenCL ELF around them):
//! one row per kernel, from the same library call as `intel info` (`gpukit_intel::read`).

use super::row::Row;

pub fn rows(bytes: &[u8]) -> Result<Vec<Row>, String> {
    let program = gpukit_intel::read(bytes).map_err(|e| e.to_string())?;
    // Patch tokens name the GFXCORE family in their header, a zebin in its notes.
    let family = program
        .device
        .or_else(|| gpukit_intel::gfxcore_family(bytes));
    let platform = family.map(|d| {
        crate::platform::from_gfxcore_family(d)
            .map_or_else(|| format!("gfxcore-family-{d}"), str::to_owned)
    });
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

/// IGC's Gen assembly dump: one row for its kernel, with the facts only the dump
/// records (GRF mode, spill size), from the same reader as `gpukit diff`.
pub fn asm_dump_rows(text: &str) -> Result<Vec<Row>, String> {
    let dump = gpukit_intel::asm_dump::read(text).map_err(|e| e.to_string())?;
    let version = dump.visa_version.as_deref().and_then(parse_version);
    let sends = i64::try_from(dump.send_count()).unwrap_or(i64::MAX);
    Ok(vec![Row {
        kernel: Some(dump.kernel),
        platform: dump.platform,
        compiler: version.map(|v| super::visa::producer_of(v).to_owned()),
        visa_version: version.map(|v| v.to_string()),
        num_grf: dump.num_grf.or(dump.total_grf_option).map(i64::from),
        spill_bytes: Some(i64::try_from(dump.spill_bytes).unwrap_or(i64::MAX)),
        gen_instructions: Some(i64::try_from(dump.instructions).unwrap_or(i64::MAX)),
        sends: Some(sends),
        ..Row::default()
    }])
}

fn parse_version(s: &str) -> Option<gpukit_visa::Version> {
    let (major, minor) = s.split_once('.')?;
    Some(gpukit_visa::Version::new(
        major.parse().ok()?,
        minor.parse().ok()?,
    ))
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
