//! `gpukit visa pressure FILE [--asm IGC.asm] [--kernel K] [--json | --svg]`
//!
//! Register pressure of one routine from the liveness of its variables
//! (`gpukit_visa::analysis::Liveness`): GRFs and bytes live at each instruction, the
//! peak. With IGC's `.asm` dump of the same compile, the allocation it shows
//! (`gpukit_intel::asm_alloc`) is checked against the liveness
//! (`gpukit_visa::analysis::allocation`): physical GRFs in use per instruction, and
//! every pair of variables live at once that share register bytes, labelled.

use crate::detect::Format;
use crate::error::{CmdError, CmdResult};
use crate::output::{emit, JsonArg};
use gpukit_intel::asm_alloc::{self, Allocation, Place};
use gpukit_visa::analysis::allocation::{
    self, Assigned, Comparison, Conflict, ConflictKind, Evidence,
};
use gpukit_visa::analysis::Liveness;
use gpukit_visa::verify::Platform;
use gpukit_visa::Routine;
use serde::Serialize;
use std::collections::HashMap;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The .isa or .visaasm file
    file: PathBuf,
    /// IGC's Gen assembly dump of the same compile (`.asm`): check its register
    /// assignment against the liveness
    #[arg(long, value_name = "IGC.asm")]
    asm: Option<PathBuf>,
    /// When FILE is an .isa with the IGC 1.0.12198-13063 writer defect, read IGC's text
    /// dump of the same compile beside it (the `.visaasm` of the same stem)
    #[arg(long)]
    prefer_text: bool,
    /// The kernel or function (default: the one the `.asm` names, else the first kernel)
    #[arg(long)]
    kernel: Option<String>,
    /// GRF size of this platform (default: the `.asm`'s platform, else what the object
    /// names, else 32 bytes)
    #[arg(long, value_parser = crate::platform::parse)]
    platform: Option<Platform>,
    #[command(flatten)]
    json: JsonArg,
    /// Draw the pressure as SVG (with `--asm`, the physical GRFs in use below it)
    #[arg(long, conflicts_with = "json")]
    svg: bool,
    /// Output file (stdout when absent)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

#[derive(Serialize)]
struct Report {
    file: String,
    kernel: String,
    grf_bytes: u32,
    instructions: usize,
    peak_grfs: u64,
    peak_bytes: u64,
    peak_instruction: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    asm: Option<AsmReport>,
    series: Vec<Point>,
}

#[derive(Serialize)]
struct AsmReport {
    file: String,
    num_grf: u32,
    grf_bytes: u32,
    spill_bytes: u64,
    physical_peak_grfs: u32,
    conflicts: Vec<Conflict>,
    /// Live variables the `.asm` does not declare.
    undeclared: Vec<String>,
}

#[derive(Serialize)]
struct Point {
    grfs: u64,
    bytes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    physical_grfs: Option<u32>,
}

pub fn run(mut a: Args) -> CmdResult {
    let mut bytes = crate::input::read(&a.file, &[Format::VisaBinary, Format::VisaText])?;
    // `--prefer-text`: a defective .isa's text dump beside it instead.
    if let Some(text) = gpukit_visa::binary::text_dump_beside(&a.file)
        .filter(|_| a.prefer_text && gpukit_visa::binary::has_truncation_defect(&bytes))
    {
        bytes = crate::input::read(&text, &[Format::VisaText])?;
        a.file = text;
    }
    let mut text_ids = None;
    let object = if crate::detect::detect(&bytes) == Format::VisaBinary {
        let bytes = std::sync::Arc::new(bytes);
        let options = gpukit_visa::binary::ReadOptions::default();
        let explain = |e| gpukit_visa::binary::explained(&a.file, &bytes, e);
        gpukit_visa::binary::read_shared(std::sync::Arc::clone(&bytes), options)
            .map_err(|e| CmdError::input(&a.file, explain(e)))?
            .0
    } else {
        let text = crate::input::text(&a.file, bytes)?;
        let object = super::parse_text(&a.file, &text, a.platform)?;
        if object.kernels.len() + object.functions.len() == 1 {
            text_ids = Some(instruction_ids(&text));
        }
        object
    };
    let alloc = match &a.asm {
        Some(p) => {
            let text = crate::input::text(p, crate::input::read_any(p)?)?;
            let alloc = asm_alloc::read(&text).map_err(|e| {
                CmdError::Input(format!(
                    "{}:{}:{}: {}",
                    p.display(),
                    e.line,
                    e.column,
                    e.message
                ))
            })?;
            Some(alloc)
        }
        None => None,
    };
    let wanted = a
        .kernel
        .clone()
        .or_else(|| alloc.as_ref().and_then(|x| x.kernel.clone()));
    let routines = object
        .kernels
        .iter()
        .map(|k| (&k.name, &k.body))
        .chain(object.functions.iter().map(|f| (&f.name, &f.body)));
    let (name, routine) = match &wanted {
        Some(w) => routines
            .clone()
            .find(|(n, _)| String::from_utf8_lossy(n) == w.as_str())
            .or_else(|| {
                a.kernel
                    .is_none()
                    .then(|| routines.clone().next())
                    .flatten()
            }),
        None => routines.clone().next(),
    }
    .ok_or_else(|| match &wanted {
        Some(w) => CmdError::Usage(format!("{}: no kernel or function {w:?}", a.file.display())),
        None => CmdError::Input(format!("{}: no kernel or function", a.file.display())),
    })?;
    let name = String::from_utf8_lossy(name).into_owned();
    let grf = a
        .platform
        .map(Platform::grf_size)
        .or_else(|| alloc.as_ref().map(|x| x.grf_bytes))
        .or_else(|| object.grf_bytes())
        .unwrap_or(32);
    let live = Liveness::analyze(routine, grf).map_err(|e| CmdError::input(&a.file, e))?;
    // Only a dump whose lines carry IGC's ids, one line per instruction, maps to Gen.
    let ids =
        text_ids.filter(|ids| ids.len() == live.pressure.len() && ids.iter().any(Option::is_some));
    let comparison = alloc
        .as_ref()
        .map(|x| compare(routine, &live, x, ids.as_deref()));
    let peak = live.peak();
    let report = Report {
        file: a.file.display().to_string(),
        kernel: name,
        grf_bytes: grf,
        instructions: live.pressure.len(),
        peak_grfs: peak.map_or(0, |(_, b)| b / u64::from(grf)),
        peak_bytes: live.live_bytes.iter().copied().max().unwrap_or(0),
        peak_instruction: peak.map(|(i, _)| i),
        series: (0..live.pressure.len())
            .map(|i| Point {
                grfs: live.pressure[i] / u64::from(grf),
                bytes: live.live_bytes[i],
                physical_grfs: comparison.as_ref().map(|c| c.physical_grfs[i]),
            })
            .collect(),
        asm: alloc.as_ref().zip(comparison).map(|(x, c)| AsmReport {
            file: a
                .asm
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            num_grf: x.num_grf,
            grf_bytes: x.grf_bytes,
            spill_bytes: x.spill_bytes,
            physical_peak_grfs: c.physical_grfs.iter().copied().max().unwrap_or(0),
            conflicts: c.conflicts,
            undeclared: c.unnamed,
        }),
    };
    if a.svg {
        return emit(a.output.as_deref(), svg(&report, &live).as_bytes());
    }
    if a.json.enabled() {
        return a.json.emit_one(a.output.as_deref(), &report);
    }
    emit(a.output.as_deref(), text(&report).as_bytes())
}

/// The `/// $N` id IGC's text dumps end each instruction line with, per instruction
/// line (labels have none): one entry per line the parser makes an instruction of.
fn instruction_ids(text: &str) -> Vec<Option<u32>> {
    text.lines()
        .map(str::trim)
        .filter(|t| {
            !(t.is_empty() || t.starts_with('.') || t.starts_with("//") || *t == "{" || *t == "}")
        })
        .map(|t| {
            let digits = &t[t.find("/// $")? + 5..];
            let end = digits
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(digits.len());
            digits[..end].parse().ok()
        })
        .collect()
}

/// The liveness against the `.asm`'s placements, by variable name: a variable in a
/// GRF by its register bytes, a spilled or unplaced one holds no register. With the
/// instructions' `$N` ids (`ids`), the `.asm`'s code order is the schedule.
pub(crate) fn compare(
    routine: &Routine,
    live: &Liveness,
    alloc: &Allocation,
    ids: Option<&[Option<u32>]>,
) -> Comparison {
    let by_name: HashMap<&str, &asm_alloc::Declared> = alloc
        .variables
        .iter()
        .rev() // the first of equal names wins
        .map(|d| (d.name.as_str(), d))
        .collect();
    let place = |n: &str| -> Option<Assigned> {
        let d = by_name.get(n)?;
        Some(match d.grf_bytes(alloc.grf_bytes) {
            Some(r) => Assigned::Grf(r),
            None => Assigned::Elsewhere,
        })
    };
    let explain = |x: &str, y: &str| explain(alloc, &by_name, x, y);
    // Per vISA id, the positions of the machine instructions made from it.
    let mut made_from: HashMap<u32, Vec<u32>> = HashMap::new();
    for (pos, &id) in alloc.visa_ids.iter().enumerate() {
        made_from.entry(id).or_default().push(pos as u32);
    }
    let grf = u64::from(alloc.grf_bytes.max(1));
    // The machine instructions made from `i` that name one of the GRFs of `bytes`.
    let position = |i: usize, bytes: std::ops::Range<u64>| -> Vec<u32> {
        let Some(all) = ids
            .and_then(|ids| *ids.get(i)?)
            .and_then(|id| made_from.get(&id))
        else {
            return Vec::new();
        };
        if bytes.end <= bytes.start {
            return Vec::new();
        }
        let regs = (bytes.start / grf) as u32..=((bytes.end - 1) / grf) as u32;
        all.iter()
            .copied()
            .filter(|&p| {
                alloc.grfs_named[p as usize]
                    .iter()
                    .any(|g| regs.contains(g))
            })
            .collect()
    };
    allocation::compare(
        routine,
        live,
        alloc.grf_bytes,
        &Evidence {
            place: &place,
            explain: &explain,
            scheduled: ids.map(|_| &position as allocation::ScheduleFn<'_>),
        },
    )
}

/// What the `.asm` shows about two variables whose registers overlap while both are
/// live: IGC's spill code (`SP_GRF_<var>_<n>` / `FL_GRF_<var>_<n>` temporaries) means
/// the variable's range was split around spill and fill points.
fn explain(
    alloc: &Allocation,
    _by_name: &HashMap<&str, &asm_alloc::Declared>,
    x: &str,
    y: &str,
) -> Option<(ConflictKind, String)> {
    for v in [x, y] {
        let spill = format!("SP_GRF_{v}_");
        let fill = format!("FL_GRF_{v}_");
        if alloc
            .variables
            .iter()
            .any(|d| d.name.starts_with(&spill) || d.name.starts_with(&fill))
        {
            return Some((
                ConflictKind::Split,
                format!("IGC spills {v} and reloads it into temporaries"),
            ));
        }
    }
    if alloc
        .variables
        .iter()
        .any(|d| matches!(d.place, Place::Spilled { .. }) && (d.name == x || d.name == y))
    {
        return Some((ConflictKind::Split, "one of them is spilled".into()));
    }
    None
}

fn text(r: &Report) -> String {
    let mut s = format!(
        "{} {}: {} instructions, GRF {} bytes\n",
        r.file, r.kernel, r.instructions, r.grf_bytes
    );
    match r.peak_instruction {
        Some(i) => s.push_str(&format!(
            "peak {} GRFs at instruction {i}; peak {} bytes live ({:.1} GRFs)\n",
            r.peak_grfs,
            r.peak_bytes,
            r.peak_bytes as f64 / f64::from(r.grf_bytes.max(1))
        )),
        None => s.push_str("no instructions\n"),
    }
    if let Some(x) = &r.asm {
        s.push_str(&format!(
            "{}: numGRF {}, GRF {} bytes, spill {} bytes; physical peak {} GRFs\n",
            x.file, x.num_grf, x.grf_bytes, x.spill_bytes, x.physical_peak_grfs
        ));
        let mut counts: Vec<(String, usize)> = Vec::new();
        for c in &x.conflicts {
            let k = kind_name(c.kind);
            match counts.iter_mut().find(|(n, _)| *n == k) {
                Some((_, n)) => *n += 1,
                None => counts.push((k, 1)),
            }
        }
        let list: Vec<String> = counts.iter().map(|(k, n)| format!("{n} {k}")).collect();
        s.push_str(&format!(
            "conflicts: {}{}\n",
            x.conflicts.len(),
            if list.is_empty() {
                String::new()
            } else {
                format!(" ({})", list.join(", "))
            }
        ));
        for c in &x.conflicts {
            s.push_str(&format!(
                "  {} {} and {} share bytes {}..{} at instruction {} ({} instructions){}\n",
                kind_name(c.kind),
                c.a,
                c.b,
                c.shared.start,
                c.shared.end,
                c.instruction,
                c.instructions,
                if c.reason.is_empty() {
                    String::new()
                } else {
                    format!(": {}", c.reason)
                }
            ));
        }
        if !x.undeclared.is_empty() {
            s.push_str(&format!(
                "live but not declared in the .asm: {}\n",
                x.undeclared.join(", ")
            ));
        }
    }
    s
}

fn kind_name(k: ConflictKind) -> String {
    serde_json::to_value(k)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// The estimate's chart (`gpukit_report::svg::pressure`), and with `--asm` the
/// physical GRFs' chart below it, in one picture.
fn svg(r: &Report, live: &Liveness) -> String {
    use gpukit_report::model::Pressure;
    let grf = u64::from(r.grf_bytes);
    let budget = r.asm.as_ref().map_or(128, |x| u64::from(x.num_grf)) * grf;
    let chart = |bytes: Vec<u64>, source: &str| Pressure {
        bytes,
        grf_bytes: grf,
        budget_bytes: Some(budget),
        block_starts: live.cfg.blocks.iter().map(|b| b.start).collect(),
        peak: None,
        peak_live: Vec::new(),
        source: source.into(),
        lines: (0..r.series.len()).collect(),
    };
    let no_link = |_: usize| String::new();
    let mut estimate = chart(
        r.series.iter().map(|p| p.grfs * grf).collect(),
        "gpukit liveness",
    );
    estimate.peak = r.peak_instruction;
    let top = gpukit_report::svg::pressure(
        &estimate,
        &format!("{} {}: vISA liveness (GRFs)", r.file, r.kernel),
        &no_link,
    );
    let Some(x) = &r.asm else {
        return top;
    };
    let physical: Vec<u64> = r
        .series
        .iter()
        .map(|p| u64::from(p.physical_grfs.unwrap_or(0)) * grf)
        .collect();
    let mut phys = chart(physical, "IGC's registers");
    phys.peak = phys
        .bytes
        .iter()
        .enumerate()
        .max_by_key(|&(i, b)| (*b, std::cmp::Reverse(i)))
        .map(|(i, _)| i);
    let bottom = gpukit_report::svg::pressure(
        &phys,
        &format!("{}: physical GRFs of the live variables", x.file),
        &no_link,
    );
    // Two charts stacked: the second moved down by the first's height (the root
    // element's attributes, as `svg::pressure` writes them).
    let size = |s: &str, attr: &str, default: f64| {
        s.split(&format!("{attr}=\""))
            .nth(1)
            .and_then(|v| v.split('"').next())
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(default)
    };
    let height = |s: &str| size(s, "height", 340.0);
    let width = |s: &str| size(s, "width", 960.0);
    let (h1, h2, w) = (height(&top), height(&bottom), width(&top));
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{}\" viewBox=\"0 0 {w} {}\">{}{}</svg>\n",
        h1 + h2,
        h1 + h2,
        top,
        bottom.replacen("<svg ", &format!("<svg y=\"{h1}\" "), 1)
    )
}
