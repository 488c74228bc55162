//! AMD rows: one per kernel of a CL1 or CL2 binary (the library calls of `amd info`),
//! of an IL program or metadata text (`amd meta`), and of an OpenCL C source
//! (`amd args`'s signature reader).

use super::row::Row;
use gpukit_amd::cl1::Cl1Binary;
use gpukit_amd::cl2::Cl2Binary;
use gpukit_amd::metadata::{parse_metadata, Argument, Metadata};

/// End of the last argument in its constant buffer.
fn argument_bytes(args: &[Argument]) -> i64 {
    args.iter()
        .map(|a| i64::from(a.offset) + i64::from(a.cb_size))
        .max()
        .unwrap_or(0)
}

/// What a kernel's metadata block says (arguments, memory, device).
fn metadata_row(md: &Metadata) -> Row {
    let args = md.arguments();
    let memory = md.memory_totals();
    Row {
        arguments: Some(args.len() as i64),
        kernarg_bytes: Some(argument_bytes(&args)),
        local_bytes: Some(memory.hw_local as i64),
        scratch_bytes: Some(memory.hw_private as i64),
        ..Row::default()
    }
}

pub fn cl1_rows(bytes: &[u8]) -> Result<Vec<Row>, String> {
    let bin = Cl1Binary::parse(bytes).map_err(|e| e.to_string())?;
    let compiler = bin.driver_version().map(|v| format!("amd-{v}"));
    let device = bin.device().map(str::to_owned);
    Ok(bin
        .kernels
        .iter()
        .map(|k| {
            let mut row = match parse_metadata(k.metadata) {
                Ok(md) => metadata_row(&md),
                Err(e) => Row {
                    error: Some(format!("kernel `{}` metadata: {e}", k.name)),
                    ..Row::default()
                },
            };
            let regs = k.inner.proginfo_summary();
            row.kernel = Some(k.name.clone());
            row.compiler.clone_from(&compiler);
            row.platform.clone_from(&device);
            row.vgprs = regs.vgprs.map(i64::from);
            row.sgprs = regs.sgprs.map(i64::from);
            row
        })
        .collect())
}

pub fn cl2_rows(bytes: &[u8]) -> Result<Vec<Row>, String> {
    let bin = Cl2Binary::parse(bytes).map_err(|e| e.to_string())?;
    let compiler = format!("amd-{}", bin.driver.number());
    let device = bin.device().map(|d| d.name.to_owned());
    Ok(bin
        .kernels
        .iter()
        .map(|k| {
            let setup = k.code.as_ref().map(|c| &c.setup);
            Row {
                kernel: Some(k.name.clone()),
                compiler: Some(compiler.clone()),
                platform: device.clone(),
                arguments: Some(k.metadata.args.len() as i64),
                kernarg_bytes: setup.map(|s| i64::from(s.kernarg_size)),
                vgprs: setup.map(|s| i64::from(s.vgprs)),
                sgprs: setup.map(|s| i64::from(s.sgprs)),
                local_bytes: setup.map(|s| i64::from(s.local_size)),
                scratch_bytes: setup.map(|s| i64::from(s.scratch_size)),
                ..Row::default()
            }
        })
        .collect())
}

pub fn metadata_rows(text: &str) -> Result<Vec<Row>, String> {
    let blocks = gpukit_amd::metadata::find_blocks(text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(blocks
        .into_iter()
        .map(|(_, md)| {
            let mut row = metadata_row(&md);
            row.kernel = Some(md.kernel_name().unwrap_or(&md.name).to_owned());
            row.platform = md.device().map(str::to_owned);
            row
        })
        .collect())
}

pub fn opencl_c_rows(text: &str) -> Result<Vec<Row>, String> {
    let sigs = gpukit_amd::clc::kernel_signatures(
        text,
        &["__GPU__"],
        gpukit_amd::clc::PointerWidth::Bits64,
    )
    .map_err(|e| e.to_string())?;
    Ok(sigs
        .into_iter()
        .map(|s| Row {
            arguments: Some(s.args.len() as i64),
            kernel: Some(s.name),
            ..Row::default()
        })
        .collect())
}
