//! IGA rows: one per listing (a listing is one kernel's code and names none), from
//! `iga stats`'s calls. Read leniently, as `iga stats --lenient`: a fleet holds
//! iga64's known malformed JSON, and the scan inventories it rather than rejects it.

use super::row::Row;

pub fn rows(bytes: &[u8]) -> Result<Vec<Row>, String> {
    let json = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let parsed = gpukit_iga::parse(json, gpukit_iga::Mode::Lenient).map_err(|e| e.to_string())?;
    let stats = gpukit_iga::analysis::stats(&parsed.listing);
    let to_i = |n: usize| n as i64;
    Ok(vec![Row {
        platform: Some(stats.platform.clone()),
        instructions: Some(to_i(stats.instructions)),
        sends: Some(to_i(stats.sends.total)),
        sbid_tokens: Some(to_i(stats.sbid.tokens.len())),
        pressure_peak_regs: stats.pressure.as_ref().map(|p| p.grf_regs_peak),
        pressure_peak_bytes: stats.pressure.as_ref().map(|p| p.grf_bytes_peak),
        opcodes: Some(stats.ops.into_iter().map(|(k, v)| (k, to_i(v))).collect()),
        ..Row::default()
    }])
}
