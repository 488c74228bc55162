//! `gpukit visa info FILE... [--json]`

use crate::detect::Format;
use crate::error::{CmdError, CmdResult};
use crate::output::JsonArg;
use crate::report::{run_files, Outcome};
use gpukit_visa::binary::{read_shared, ReadOptions, RoutineLayout};
use gpukit_visa::{AttributeValue, Code, InputClass, Routine};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The .isa files
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    json: JsonArg,
    /// Output file (stdout when absent)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

#[derive(Serialize)]
pub(crate) struct Report {
    file: String,
    version: String,
    filescope_variables: usize,
    kernels: Vec<RoutineReport>,
    functions: Vec<RoutineReport>,
}

#[derive(Serialize)]
struct RoutineReport {
    name: String,
    layout: RoutineLayout,
    strings: usize,
    variables: usize,
    addresses: usize,
    predicates: usize,
    labels: usize,
    samplers: usize,
    surfaces: usize,
    vmes: usize,
    relocations: usize,
    inputs: Vec<InputReport>,
    attributes: Vec<(String, serde_json::Value)>,
    gen_binaries: Vec<GenReport>,
    instructions: InstructionsReport,
}

#[derive(Serialize)]
struct InputReport {
    kind: String,
    id: u32,
    name: String,
    offset: i16,
    size: u16,
}

#[derive(Serialize)]
struct GenReport {
    platform: u8,
    platform_name: &'static str,
    offset: u32,
    size: u32,
}

#[derive(Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
enum InstructionsReport {
    Decoded {
        count: usize,
        histogram: BTreeMap<&'static str, usize>,
    },
    Undecoded {
        error: String,
        index: usize,
        offset: usize,
        defect: Option<DefectReport>,
    },
}

#[derive(Serialize)]
struct DefectReport {
    description: &'static str,
    instructions_recovered: usize,
    bytes_recovered: usize,
    histogram: BTreeMap<&'static str, usize>,
}

pub fn run(a: Args) -> CmdResult {
    run_files(&a.files, a.json, a.output.as_deref(), report, text)
}

/// The report of one file; not clean when a stream cannot be decoded (the file is
/// invalid even where the rest of it reads).
pub(crate) fn report(path: &std::path::Path) -> Result<Outcome<Report>, CmdError> {
    let bytes = crate::input::read(path, &[Format::VisaBinary])?;
    let options = ReadOptions {
        keep_undecodable_streams: true,
    };
    let (obj, layout) =
        read_shared(std::sync::Arc::new(bytes), options).map_err(|e| CmdError::input(path, e))?;
    let kernels = obj.kernels.iter().zip(layout.kernels).map(|(k, l)| {
        let gens = k
            .gen_binaries
            .iter()
            .zip(&l.gen_binaries)
            .map(|(g, &(offset, size))| GenReport {
                platform: g.platform,
                platform_name: g.platform_name(),
                offset,
                size,
            })
            .collect();
        let relocs = k.relocations.variables.len() + k.relocations.functions.len();
        routine(&k.name, &k.body, l, gens, relocs)
    });
    let functions = obj.functions.iter().zip(layout.functions).map(|(f, l)| {
        let relocs = f.relocations.variables.len() + f.relocations.functions.len();
        routine(&f.name, &f.body, l, Vec::new(), relocs)
    });
    let report = Report {
        file: path.display().to_string(),
        version: obj.version.to_string(),
        filescope_variables: obj.filescope_vars.len(),
        kernels: kernels.collect(),
        functions: functions.collect(),
    };
    let undecoded = report
        .kernels
        .iter()
        .chain(&report.functions)
        .filter(|r| !matches!(r.instructions, InstructionsReport::Decoded { .. }))
        .count();
    let problem =
        (undecoded > 0).then(|| format!("{undecoded} instruction stream(s) cannot be decoded"));
    Ok(Outcome::with_problem(report, problem))
}

fn routine(
    name: &[u8],
    r: &Routine,
    layout: RoutineLayout,
    gen_binaries: Vec<GenReport>,
    relocations: usize,
) -> RoutineReport {
    let inputs = r
        .inputs()
        .iter()
        .map(|i| {
            let (kind, name) = input_kind_and_name(r, i);
            InputReport {
                kind,
                id: i.index,
                name,
                offset: i.offset,
                size: i.size,
            }
        })
        .collect();
    let attributes = r
        .attributes
        .iter()
        .map(|at| {
            let value = match &at.value {
                AttributeValue::Int { value, .. } => serde_json::Value::from(*value),
                AttributeValue::Str(s) => {
                    serde_json::Value::from(String::from_utf8_lossy(s).into_owned())
                }
                AttributeValue::Raw(b) => serde_json::Value::from(
                    b.iter().map(|x| format!("{x:02x}")).collect::<String>(),
                ),
            };
            (r.string_lossy(at.name_index), value)
        })
        .collect();
    let instructions = match &r.code {
        Code::Instructions(list) => {
            let mut histogram = BTreeMap::new();
            for head in list.heads() {
                *histogram.entry(head.mnemonic()).or_insert(0) += 1;
            }
            InstructionsReport::Decoded {
                count: list.len(),
                histogram,
            }
        }
        Code::Undecoded { error, .. } => InstructionsReport::Undecoded {
            error: error.to_string(),
            index: error.index,
            offset: error.offset,
            defect: error.defect.as_ref().map(|d| DefectReport {
                description: gpukit_visa::binary::TRUNCATION_DEFECT,
                instructions_recovered: d.instructions_recovered,
                bytes_recovered: d.bytes_recovered,
                histogram: d.opcode_histogram.clone(),
            }),
        },
    };
    RoutineReport {
        name: String::from_utf8_lossy(name).into_owned(),
        layout,
        strings: r.strings.len(),
        variables: r.variables.len(),
        addresses: r.addresses.len(),
        predicates: r.predicates.len(),
        labels: r.labels.len(),
        samplers: r.samplers.len(),
        surfaces: r.surfaces.len(),
        vmes: r.vmes.len(),
        relocations,
        inputs,
        attributes,
        gen_binaries,
        instructions,
    }
}

/// How `visa info` (and `report`) name an input: its class (with the implicit
/// argument it is, if any) and the variable, surface or sampler it binds.
pub(crate) fn input_kind_and_name(r: &Routine, i: &gpukit_visa::Input) -> (String, String) {
    let class = match i.class() {
        InputClass::General => "general".to_string(),
        InputClass::Sampler => "sampler".to_string(),
        InputClass::Surface => "surface".to_string(),
        InputClass::Other(c) => format!("class{c}"),
    };
    let kind = match i.implicit_name() {
        Some(n) => format!("{class} implicit {n}"),
        None => class,
    };
    let name = match i.class() {
        InputClass::General => i
            .index
            .checked_sub(gpukit_visa::limits::PREDEFINED_VARS)
            .and_then(|ix| r.variables.get(ix as usize))
            .map(|v| r.string_lossy(v.name_index))
            .unwrap_or_else(|| format!("V{}", i.index)),
        InputClass::Surface => format!("T{}", i.index),
        InputClass::Sampler => format!("S{}", i.index),
        InputClass::Other(_) => String::new(),
    };
    (kind, name)
}

pub(crate) fn text(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{}: vISA {}", r.file, r.version);
    let _ = writeln!(
        s,
        "{} kernel(s), {} function(s), {} file-scope variable(s)",
        r.kernels.len(),
        r.functions.len(),
        r.filescope_variables
    );
    for (what, list) in [("kernel", &r.kernels), ("function", &r.functions)] {
        for k in list {
            routine_text(&mut s, what, k);
        }
    }
    s
}

fn routine_text(s: &mut String, what: &str, k: &RoutineReport) {
    let l = &k.layout;
    let _ = writeln!(s, "\n{what} {:?}", k.name);
    let _ = write!(
        s,
        "  object: offset {:#x}, size {:#x}, entry {:#x}, code {:#x} bytes",
        l.offset, l.size, l.entry, l.code_size
    );
    if let Some(io) = l.input_offset {
        let _ = write!(s, ", inputs at {io:#x}");
    }
    s.push('\n');
    let _ = writeln!(
        s,
        "  tables: {} strings, {} variables, {} addresses, {} predicates, {} labels, {} samplers, {} surfaces, {} vme, {} relocations",
        k.strings, k.variables, k.addresses, k.predicates, k.labels, k.samplers, k.surfaces, k.vmes, k.relocations
    );
    if !k.inputs.is_empty() {
        let _ = writeln!(s, "  inputs ({}):", k.inputs.len());
        for i in &k.inputs {
            let _ = writeln!(
                s,
                "    {:<28} {:<8} offset {:>5}  size {:>4}",
                i.kind, i.name, i.offset, i.size
            );
        }
    }
    if !k.attributes.is_empty() {
        let _ = writeln!(s, "  attributes:");
        for (n, v) in &k.attributes {
            let _ = writeln!(s, "    {n} = {v}");
        }
    }
    for g in &k.gen_binaries {
        let _ = writeln!(
            s,
            "  gen binary: platform {} ({}), offset {:#x}, size {} bytes",
            g.platform, g.platform_name, g.offset, g.size
        );
    }
    match &k.instructions {
        InstructionsReport::Decoded { count, histogram } => {
            let _ = writeln!(s, "  instructions: {count}");
            for (m, n) in histogram {
                let _ = writeln!(s, "    {m:<24} {n}");
            }
        }
        InstructionsReport::Undecoded { error, defect, .. } => {
            let _ = writeln!(s, "  instructions: not decodable: {error}");
            if let Some(d) = defect {
                let _ = writeln!(
                    s,
                    "  recovered under the defect's model ({} instructions, partial operands):",
                    d.instructions_recovered
                );
                for (m, n) in &d.histogram {
                    let _ = writeln!(s, "    {m:<24} {n}");
                }
            }
        }
    }
}
