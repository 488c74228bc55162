//! `gpukit visa verify FILE... [--platform P] [--strict] [--json]`
//!
//! Checks a `.isa` binary or `.visaasm` text against every rule of the vISA spec the
//! verifier knows (`gpukit_visa::verify::RULES`). Exit 0 when clean, 1 with findings.

use crate::detect::Format;
use crate::error::{CmdError, CmdResult};
use crate::output::{emit, JsonArg};
use crate::report::{run_files, Outcome};
use gpukit_visa::binary::{read_shared, FileLayout, ReadOptions, MAGIC};
use gpukit_visa::verify::{self, Finding, Options, Place, Platform, RoutineRef, Source};
use gpukit_visa::{Object, Version};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(clap::Args)]
pub struct Args {
    /// The .isa or .visaasm files
    #[arg(required_unless_present = "rules")]
    files: Vec<PathBuf>,
    /// List every rule (id, summary; strict-only rules marked) instead of checking a file
    #[arg(long)]
    rules: bool,
    /// Also check the rules of this platform (skl, icllp, tgllp, dg2, mtl, pvc)
    #[arg(long, value_parser = crate::platform::parse)]
    platform: Option<Platform>,
    /// Also apply spec rules that IGC's own output breaks (two-GRF regions, NoMask returns,
    /// SLM caching, 4 KiB variables, addc/subb source types; `--rules` marks them)
    #[arg(long)]
    strict: bool,
    #[command(flatten)]
    json: JsonArg,
    /// Output file (stdout when absent)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

#[derive(Serialize)]
struct Report {
    file: String,
    version: String,
    platform: Option<Platform>,
    strict: bool,
    findings: Vec<FindingReport>,
}

#[derive(Serialize)]
struct FindingReport {
    #[serde(flatten)]
    finding: Finding,
    summary: &'static str,
}

/// Absolute file offset of every instruction a finding names, per routine: the
/// stream is walked again once per routine, keeping only the offsets asked for.
fn instruction_offsets(
    bytes: &[u8],
    version: Version,
    layout: &FileLayout,
    findings: &[Finding],
) -> Vec<(RoutineRef, Vec<(usize, usize)>)> {
    let mut wanted: Vec<(RoutineRef, usize)> = findings
        .iter()
        .filter_map(|f| match &f.location.place {
            Place::Instruction { routine, index, .. } => Some((*routine, *index)),
            _ => None,
        })
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    let mut out: Vec<(RoutineRef, Vec<(usize, usize)>)> = Vec::new();
    for group in wanted.chunk_by(|a, b| a.0 == b.0) {
        let r = &group[0].0;
        let placed = match r {
            RoutineRef::Kernel(i) => layout.kernels.get(*i),
            RoutineRef::Function(i) => layout.functions.get(*i),
        };
        let Some(placed) = placed else { continue };
        let indices: Vec<usize> = group.iter().map(|(_, i)| *i).collect();
        let offsets = gpukit_visa::binary::instruction_offsets(bytes, version, placed, &indices);
        out.push((*r, offsets));
    }
    out
}

/// Byte offsets of the parts the binary layout records: the routine, each kernel
/// input, and each instruction (from `instructions`).
fn binary_source(
    place: &Place,
    layout: &FileLayout,
    instructions: &[(RoutineRef, Vec<(usize, usize)>)],
    version: Version,
) -> Option<Source> {
    let routine = |r: &RoutineRef| match r {
        RoutineRef::Kernel(i) => layout.kernels.get(*i),
        RoutineRef::Function(i) => layout.functions.get(*i),
    };
    let offset = match place {
        Place::Routine { routine: r }
        | Place::Declaration {
            routine: Some(r), ..
        } => routine(r)?.offset as usize,
        Place::Input { routine: r, index } => {
            let start = routine(r)?.input_offset? as usize;
            let count_size = if version >= Version::new(3, 5) { 4 } else { 1 };
            let id_size = if version >= Version::new(3, 4) { 4 } else { 2 };
            start + count_size + index * (1 + id_size + 2 + 2)
        }
        Place::Instruction {
            routine: r, index, ..
        } => {
            let (_, offsets) = instructions.iter().find(|(x, _)| x == r)?;
            let at = offsets.binary_search_by_key(index, |(i, _)| *i).ok()?;
            offsets[at].1
        }
        _ => return None,
    };
    Some(Source::Binary { offset })
}

/// A read object and what locates its parts: the binary layout or the text's lines.
enum Origin {
    /// The file's bytes are kept to locate instructions that findings name.
    Binary(FileLayout, Arc<Vec<u8>>),
    Text(verify::TextMap),
}

fn load(a: &Args, path: &std::path::Path) -> Result<(Object, Origin), CmdError> {
    let bytes = crate::input::read(path, &[Format::VisaBinary, Format::VisaText])?;
    if bytes.len() >= 4 && bytes[..4] == MAGIC.to_le_bytes() {
        let bytes = Arc::new(bytes);
        let (object, layout) = read_shared(
            Arc::clone(&bytes),
            ReadOptions {
                keep_undecodable_streams: true,
            },
        )
        .map_err(|e| CmdError::input(path, e))?;
        return Ok((object, Origin::Binary(layout, bytes)));
    }
    // The platform decides the GRF size `&var[offset]` operands count in.
    let text = crate::input::text(path, bytes)?;
    let object = super::parse_text(path, &text, a.platform)?;
    Ok((object, Origin::Text(verify::TextMap::build(&text))))
}

fn list_rules(json_out: JsonArg) -> CmdResult {
    #[derive(Serialize)]
    struct Rule {
        id: &'static str,
        summary: &'static str,
        strict_only: bool,
    }
    let rules: Vec<Rule> = verify::RULES
        .iter()
        .map(|(id, summary)| Rule {
            id,
            summary,
            strict_only: verify::STRICT_RULES.contains(id),
        })
        .collect();
    let out = if json_out.enabled() {
        json_out.many(&rules)
    } else {
        let mut s = String::new();
        for r in &rules {
            let _ = writeln!(s, "{}  {}", r.id, r.summary);
        }
        s.into_bytes()
    };
    emit(None, &out)
}

pub fn run(a: Args) -> CmdResult {
    if a.rules {
        return list_rules(a.json);
    }
    run_files(
        &a.files,
        a.json,
        a.output.as_deref(),
        |path| check(&a, path),
        |r| text(&a, r),
    )
}

fn check(a: &Args, path: &std::path::Path) -> Result<Outcome<Report>, CmdError> {
    let (object, origin) = load(a, path)?;
    let options = Options {
        platform: a.platform,
        strict: a.strict,
    };
    let mut findings = verify::verify(&object, &options);
    match &origin {
        Origin::Binary(layout, bytes) => {
            let instructions = instruction_offsets(bytes, object.version, layout, &findings);
            for f in &mut findings {
                f.location.source =
                    binary_source(&f.location.place, layout, &instructions, object.version);
            }
        }
        Origin::Text(map) => map.attach(&object, &mut findings),
    }
    let problem = (!findings.is_empty()).then(|| format!("{} finding(s)", findings.len()));
    let report = Report {
        file: path.display().to_string(),
        version: object.version.to_string(),
        platform: a.platform,
        strict: a.strict,
        findings: findings
            .into_iter()
            .map(|f| FindingReport {
                summary: verify::rule_summary(f.rule).unwrap_or(""),
                finding: f,
            })
            .collect(),
    };
    Ok(Outcome::with_problem(report, problem))
}

fn text(a: &Args, r: &Report) -> String {
    let mut s = String::new();
    let scope = match a.platform {
        Some(p) => format!("platform-independent and {} rules", p.name()),
        None => "platform-independent rules".to_string(),
    };
    let _ = writeln!(
        s,
        "{}: vISA {}, {} finding(s) ({scope}{})",
        r.file,
        r.version,
        r.findings.len(),
        if a.strict { ", strict" } else { "" }
    );
    for f in &r.findings {
        // Text positions read as `file:line:col`, as compilers print them.
        let prefix = match f.finding.location.source {
            Some(Source::Text { .. }) => format!("{}:", r.file),
            _ => String::new(),
        };
        let _ = writeln!(s, "  {prefix}{}", f.finding);
    }
    s
}
