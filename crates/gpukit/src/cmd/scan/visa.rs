//! vISA rows: one per kernel and per function, from the same library calls as
//! `visa info` (binary: `read_with_layout`, undecodable streams kept), `visa fmt`
//! (text: `parse_text_with`, 32-byte GRF) and `visa verify` (default rules).

use super::extract::Options;
use super::row::Row;
use gpukit_visa::binary::{read_shared, ReadOptions};
use gpukit_visa::text::{parse_text_with, ParseOptions, Style};
use gpukit_visa::verify::{self, Place, RoutineRef};
use gpukit_visa::{AttributeValue, Code, Object, Routine};
use std::collections::BTreeMap;

pub fn binary_rows(bytes: Vec<u8>, options: Options) -> Result<Vec<Row>, String> {
    let read = ReadOptions {
        keep_undecodable_streams: true,
    };
    let (object, _layout) =
        read_shared(std::sync::Arc::new(bytes), read).map_err(|e| e.to_string())?;
    Ok(rows(&object, options))
}

pub fn text_rows(text: &str, options: Options) -> Result<Vec<Row>, String> {
    let parse = ParseOptions { grf_bytes: 32 };
    let object = parse_text_with(text, &parse).map_err(|d| {
        let first = d.0.first().map_or_else(String::new, |d| {
            format!(": {}:{}: {}", d.line, d.col, d.message)
        });
        format!("{} parse error(s){first}", d.0.len())
    })?;
    Ok(rows(&object, options))
}

/// The IGC release whose writer the version's layout is (`text::Style`).
fn producer(object: &Object) -> &'static str {
    producer_of(object.version)
}

/// The same for a version as an IGC asm dump's `//.vISA version` states it.
pub fn producer_of(version: gpukit_visa::Version) -> &'static str {
    match Style::for_version(version) {
        Style::Igc1_0_5353 => "igc-1.0.5353",
        Style::Igc1_0_12504 => "igc-1.0.12504",
        Style::Igc2 => "igc-2",
    }
}

fn rows(object: &Object, options: Options) -> Vec<Row> {
    let version = object.version.to_string();
    let compiler = producer(object);
    let mut out: Vec<Row> = Vec::with_capacity(object.kernels.len() + object.functions.len());
    for k in &object.kernels {
        let mut row = routine(&k.name, "kernel", &k.body);
        row.platform = k
            .gen_binaries
            .first()
            .map(|g| g.platform_name().to_owned())
            .or_else(|| k.body.build_info.as_ref().map(|b| b.platform.clone()));
        if !k.gen_binaries.is_empty() {
            let bytes: usize = k.gen_binaries.iter().map(|g| g.code.len()).sum();
            row.gen_binary_bytes = Some(bytes as i64);
        }
        out.push(row);
    }
    for f in &object.functions {
        let mut row = routine(&f.name, "function", &f.body);
        row.platform = f.body.build_info.as_ref().map(|b| b.platform.clone());
        out.push(row);
    }
    for r in &mut out {
        r.visa_version = Some(version.clone());
        r.compiler = Some(compiler.to_owned());
    }
    if options.verify {
        attach_findings(object, &mut out);
    }
    out
}

fn routine(name: &[u8], kind: &'static str, body: &Routine) -> Row {
    let mut row = Row {
        kernel: Some(String::from_utf8_lossy(name).into_owned()),
        routine: Some(kind),
        declarations: Some(
            (body.variables.len()
                + body.addresses.len()
                + body.predicates.len()
                + body.labels.len()
                + body.samplers.len()
                + body.surfaces.len()
                + body.vmes.len()) as i64,
        ),
        inputs: Some(body.inputs().len() as i64),
        simd_size: body.attributes.iter().find_map(|a| {
            match (&a.value, body.string_lossy(a.name_index) == "SimdSize") {
                (AttributeValue::Int { value, .. }, true) => Some(i64::from(*value)),
                _ => None,
            }
        }),
        ..Row::default()
    };
    match &body.code {
        Code::Instructions(list) => {
            let mut histogram = BTreeMap::new();
            for head in list.heads() {
                *histogram.entry(head.mnemonic().to_owned()).or_insert(0) += 1;
            }
            row.instructions = Some(list.len() as i64);
            row.opcodes = Some(histogram);
        }
        Code::Undecoded { error, .. } => {
            row.error = Some(error.to_string());
            row.error_kind = Some(super::row::ErrorKind::Undecoded);
        }
    }
    row
}

/// Findings of `visa verify` (default options) on the rows of their routine; those
/// about the header or file-scope declarations on the first row.
fn attach_findings(object: &Object, rows: &mut [Row]) {
    let kernels = object.kernels.len();
    let mut rules: Vec<Vec<&'static str>> = vec![Vec::new(); rows.len()];
    for f in verify::verify(object, &verify::Options::default()) {
        let routine = match &f.location.place {
            Place::Routine { routine }
            | Place::Input { routine, .. }
            | Place::Instruction { routine, .. }
            | Place::Declaration {
                routine: Some(routine),
                ..
            } => Some(*routine),
            _ => None,
        };
        let at = match routine {
            Some(RoutineRef::Kernel(i)) => i,
            Some(RoutineRef::Function(i)) => kernels + i,
            None => 0,
        };
        let last = rules.len().saturating_sub(1);
        if let Some(list) = rules.get_mut(at.min(last)) {
            list.push(f.rule);
        }
    }
    for (row, mut list) in rows.iter_mut().zip(rules) {
        list.sort_unstable();
        row.verify_findings = Some(list.len() as i64);
        row.verify_rules = Some(list);
    }
}
