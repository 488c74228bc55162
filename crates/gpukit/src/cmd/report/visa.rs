//! vISA objects (binary or text) as report pages: per kernel and function, the
//! summary, inputs and attributes, the CFG of its instruction stream, register
//! pressure from liveness of its variables, the mix, verify findings and listing.

use super::levels::{self, Dumps};
use crate::detect::Format;
use crate::error::CmdError;
use gpukit_report::limits::{ANALYSED_INSTRUCTIONS, LISTING_LINES};
use gpukit_report::{
    Bars, Finding, Graph, Kernel, Line, Listing, ListingSource, Node, Page, Pressure,
    PressureDetail, Table,
};
use gpukit_visa::analysis::{variable_accesses, Liveness};
use gpukit_visa::text::Style;
use gpukit_visa::text::{PrintOptions, RoutinePrinter, RoutineRef as PrintRef};
use gpukit_visa::verify::{self, Place, Platform, RoutineRef};
use gpukit_visa::{AttributeValue, Code, Object, Routine};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// GRFs in the register file of every platform gpukit names (large-GRF modes aside).
const GRF_COUNT: u64 = 128;

pub(super) fn page(
    path: &Path,
    bytes: Vec<u8>,
    format: Format,
    platform: Option<Platform>,
    dumps: Option<&Dumps>,
) -> Result<Page, CmdError> {
    let object = if format == Format::VisaBinary {
        let lenient = gpukit_visa::binary::ReadOptions {
            keep_undecodable_streams: true,
        };
        gpukit_visa::binary::read_shared(std::sync::Arc::new(bytes), lenient)
            .map_err(|e| CmdError::input(path, e))?
            .0
    } else {
        let text = crate::input::text(path, bytes)?;
        crate::cmd::visa::parse_text(path, &text, platform)?
    };
    // Shared with each routine's listing, which is produced when the page is written.
    let object = std::sync::Arc::new(object);
    let platform = platform.or_else(|| platform_of(&object));
    // Without a platform in the file, the `.asm` beside it knows its GRF size.
    let grf = platform
        .map(|p| p.grf_size())
        .or_else(|| dumps.and_then(levels::grf_bytes))
        .unwrap_or(32);
    let findings = verify::verify(
        &object,
        &verify::Options {
            platform,
            strict: false,
        },
    );
    let style = Style::for_version(object.version);
    let mut page = Page {
        facts: vec![
            ("format".into(), format.describe().into()),
            ("vISA version".into(), object.version.to_string()),
            (
                "platform".into(),
                platform.map_or("not recorded (GRF of 32 bytes assumed)".into(), |p| {
                    p.name().to_string()
                }),
            ),
        ],
        ..Page::default()
    };
    for (i, k) in object.kernels.iter().enumerate() {
        let name = String::from_utf8_lossy(&k.name);
        let mut kernel = routine(
            &object,
            &k.name,
            &k.body,
            PrintRef::Kernel(i),
            RoutineRef::Kernel(i),
            style,
            grf,
            &findings,
            dumps.filter(|d| levels::belongs(d, &name, i == 0)),
        );
        for g in &k.gen_binaries {
            kernel.summary.push((
                "Gen binary".into(),
                format!(
                    "{} ({}), {} bytes",
                    g.platform_name(),
                    g.platform,
                    g.code.len()
                ),
            ));
        }
        page.kernels.push(kernel);
    }
    for (i, f) in object.functions.iter().enumerate() {
        page.kernels.push(routine(
            &object,
            &f.name,
            &f.body,
            PrintRef::Function(i),
            RoutineRef::Function(i),
            style,
            grf,
            &findings,
            None,
        ));
    }
    Ok(page)
}

/// The platform the object says it was built for (a Gen binary, or IGC 2.x's trailer).
fn platform_of(object: &Object) -> Option<Platform> {
    object
        .kernels
        .iter()
        .flat_map(|k| &k.gen_binaries)
        .find_map(|g| Platform::from_code(g.platform))
        .or_else(|| {
            object
                .kernels
                .iter()
                .find_map(|k| k.body.build_info.as_ref())
                .and_then(|b| Platform::from_build_name(&b.platform))
        })
}

#[allow(clippy::too_many_arguments)]
fn routine(
    object: &Arc<Object>,
    name: &[u8],
    r: &Routine,
    print_ref: PrintRef,
    verify_ref: RoutineRef,
    style: Style,
    grf: u32,
    findings: &[verify::Finding],
    dumps: Option<&Dumps>,
) -> Kernel {
    let name = String::from_utf8_lossy(name).into_owned();
    let var_name = |id: u32| variable_name(r, id);
    let code = r.code.instructions_or_empty();
    // The listing is the routine as `dis` prints it (header, then one line per
    // instruction), up to the page's limit; its lines are made when the page is
    // written (`RoutineListing`), here only counted.
    let source = RoutineListing {
        object: Arc::clone(object),
        print_ref,
        style,
        grf,
    };
    let first_inst = source
        .printer()
        .header()
        .lines()
        .take(LISTING_LINES)
        .count();
    let shown = code.len().min(LISTING_LINES.saturating_sub(first_inst));
    let listing_len = first_inst + shown + usize::from(shown < code.len());
    let listing = Listing::produced(listing_len, Arc::new(source));
    // Instructions past the listing link to its last line.
    let last_line = listing_len.saturating_sub(1);
    let line_of = |index: usize| (first_inst + index).min(last_line);

    let mut summary = vec![
        ("instructions".into(), code.len().to_string()),
        ("variables".into(), r.variables.len().to_string()),
        ("inputs".into(), r.inputs().len().to_string()),
    ];
    if let Some(at) = r.attribute("SimdSize") {
        if let AttributeValue::Int { value, .. } = at.value {
            summary.insert(0, ("SIMD size".into(), value.to_string()));
        }
    }
    if let Code::Undecoded { error, .. } = &r.code {
        summary.push((
            "instruction stream".into(),
            format!("not decodable: {error}"),
        ));
    }
    let inputs = Table {
        title: "Inputs".into(),
        header: vec!["kind".into(), "name".into(), "offset".into(), "size".into()],
        rows: r
            .inputs()
            .iter()
            .map(|i| {
                let (kind, name) = crate::cmd::visa::info::input_kind_and_name(r, i);
                vec![kind, name, i.offset.to_string(), i.size.to_string()]
            })
            .collect(),
    };
    let attributes = Table {
        title: "Attributes".into(),
        header: vec!["name".into(), "value".into()],
        rows: r
            .attributes
            .iter()
            .map(|a| {
                let value = match &a.value {
                    AttributeValue::Int { value, .. } => value.to_string(),
                    AttributeValue::Str(s) => String::from_utf8_lossy(s).into_owned(),
                    AttributeValue::Raw(b) => b.iter().map(|x| format!("{x:02x}")).collect(),
                };
                vec![r.string_lossy(a.name_index), value]
            })
            .collect(),
    };
    let mut tables = Vec::new();
    if !inputs.rows.is_empty() {
        tables.push(inputs);
    }
    if !attributes.rows.is_empty() {
        tables.push(attributes);
    }

    let mut mix: BTreeMap<&str, usize> = BTreeMap::new();
    for head in code.heads() {
        if !matches!(head.mnemonic(), "label" | "func") {
            *mix.entry(head.mnemonic()).or_insert(0) += 1;
        }
    }
    let analysis = if code.len() > ANALYSED_INSTRUCTIONS {
        Err(format!(
            "not computed: {} instructions, over the page's limit of {ANALYSED_INSTRUCTIONS}",
            code.len()
        ))
    } else {
        Liveness::analyze(r, grf).map_err(|e| e.to_string())
    };
    let (cfg, pressure) = match &analysis {
        Ok(live) => {
            let graph = Graph {
                nodes: live
                    .cfg
                    .blocks
                    .iter()
                    .enumerate()
                    .map(|(b, block)| Node {
                        label: block
                            .label
                            .and_then(|l| r.labels.get(l as usize))
                            .map_or(format!("B{b}"), |l| r.string_lossy(l.name_index)),
                        detail: format!("{} instructions", block.end - block.start),
                        line: line_of(block.start),
                    })
                    .collect(),
                edges: live
                    .cfg
                    .blocks
                    .iter()
                    .enumerate()
                    .flat_map(|(b, block)| block.succs.iter().map(move |&s| (b, s)))
                    .collect(),
            };
            let peak = live.peak().map(|(i, _)| i);
            let mut peak_live: Vec<(String, u64)> = peak
                .map(|i| {
                    live.live_at(r, i)
                        .into_iter()
                        .map(|(v, bytes)| {
                            (var_name(v + gpukit_visa::limits::PREDEFINED_VARS), bytes)
                        })
                        .collect()
                })
                .unwrap_or_default();
            peak_live.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            let pressure = Pressure {
                bytes: live.pressure.clone(),
                grf_bytes: u64::from(grf),
                budget_bytes: Some(GRF_COUNT * u64::from(grf)),
                block_starts: live.cfg.blocks.iter().map(|b| b.start).collect(),
                peak,
                peak_live,
                source: format!(
                    "Liveness of the declared variables, one {grf}-byte GRF at a time (an alias \
                     counts as the GRFs of its root it covers; a partial write keeps a GRF \
                     alive); the register file line is {GRF_COUNT} GRFs. Predefined variables \
                     and indirect accesses are not counted."
                ),
                lines: (0..code.len()).map(line_of).collect(),
            };
            (Some(graph), (!code.is_empty()).then_some(pressure))
        }
        Err(e) => {
            summary.push(("register pressure".into(), e.clone()));
            (None, None)
        }
    };
    let live = analysis.as_ref().ok();
    let (levels, pressure_detail) = match dumps {
        Some(d) => {
            let (levels, detail) = levels::levels(d, r, live, listing_len, &line_of);
            (Some(levels), detail)
        }
        None => (
            None,
            live.map(|l| PressureDetail {
                live_bytes: l.live_bytes.clone(),
                ..PressureDetail::default()
            }),
        ),
    };
    let findings = findings
        .iter()
        .filter_map(|f| {
            let (routine, index) = match &f.location.place {
                Place::Instruction { routine, index, .. } => (*routine, Some(*index)),
                Place::Routine { routine }
                | Place::Input { routine, .. }
                | Place::Declaration {
                    routine: Some(routine),
                    ..
                } => (*routine, None),
                _ => return None,
            };
            (routine == verify_ref).then(|| Finding {
                line: index.map(line_of),
                rule: f.rule.to_string(),
                message: f.message.clone(),
            })
        })
        .collect();
    Kernel {
        name,
        summary,
        tables,
        cfg: cfg.filter(|g| !g.nodes.is_empty()),
        pressure_detail: pressure_detail.filter(|_| pressure.is_some()),
        pressure,
        levels,
        bars: vec![Bars::mix(
            mix.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        )],
        findings,
        listing,
    }
}

/// The name of variable `id` of routine `r` (predefined, declared, or `V<id>`).
fn variable_name(r: &Routine, id: u32) -> String {
    match id.checked_sub(gpukit_visa::limits::PREDEFINED_VARS) {
        Some(v) => r
            .variables
            .get(v as usize)
            .map_or(format!("V{id}"), |var| r.string_lossy(var.name_index)),
        None => gpukit_visa::isa::PREDEFINED_VARS
            .get(id as usize)
            .map_or(format!("V{id}"), |p| p.name.to_string()),
    }
}

/// One routine's listing, printed a line at a time into one reused `Line` when the
/// page is written.
struct RoutineListing {
    object: Arc<Object>,
    print_ref: PrintRef,
    style: Style,
    grf: u32,
}

impl RoutineListing {
    fn printer(&self) -> RoutinePrinter<'_> {
        RoutinePrinter::new(
            &self.object,
            self.print_ref,
            self.style,
            &PrintOptions {
                grf_bytes: Some(self.grf),
            },
        )
    }
}

impl ListingSource for RoutineListing {
    fn for_each_line(&self, each: &mut dyn FnMut(usize, &Line) -> bool) {
        let r = match self.print_ref {
            PrintRef::Kernel(i) => &self.object.kernels[i].body,
            PrintRef::Function(i) => &self.object.functions[i].body,
        };
        let printer = self.printer();
        let mut line = Line::default();
        let mut n = 0;
        for text in printer.header().lines().take(LISTING_LINES) {
            line.text.clear();
            line.text.push_str(text);
            if !each(n, &line) {
                return;
            }
            n += 1;
        }
        let code = r.code.instructions_or_empty();
        let shown = code.len().min(LISTING_LINES.saturating_sub(n));
        let mut walk = code.walk();
        while let Some((i, inst)) = walk.next_instruction().filter(|(i, _)| *i < shown) {
            line.text.clear();
            line.defs.clear();
            line.uses.clear();
            printer.instruction_line(i, &mut line.text);
            line.is_label = matches!(inst.mnemonic(), "label" | "func");
            for acc in variable_accesses(inst) {
                let name = variable_name(r, acc.id);
                let list = if acc.def {
                    &mut line.defs
                } else {
                    &mut line.uses
                };
                if !list.contains(&name) {
                    list.push(name);
                }
            }
            if !each(n, &line) {
                return;
            }
            n += 1;
        }
        if shown < code.len() {
            let line = Line {
                text: format!(
                    "// ... {} more instructions: the page shows {LISTING_LINES} lines \
                     (`gpukit visa dis` prints them all)",
                    code.len() - shown
                ),
                ..Line::default()
            };
            each(n, &line);
        }
    }
}
