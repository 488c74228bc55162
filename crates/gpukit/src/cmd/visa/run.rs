//! `gpukit visa run FILE --binary PROGRAM.bin --global X[,Y[,Z]] --local X[,Y[,Z]]
//! --arg N=SPEC... --out N=FILE...`: executes a kernel's vISA on the CPU with the
//! payload built from the program binary's ABI, as the runtime would build it.

use crate::detect::{self, Format};
use crate::error::{CmdError, CmdResult};
use crate::output::{emit, emit_binary, JsonArg};
use gpukit_runtime::{self as runtime, split_arg, Budget, Element, Kernel, Request};
use gpukit_visa::interp;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// The kernel's vISA: a .visaasm text or a .isa binary
    file: PathBuf,
    /// The program binary ocloc wrote beside the dump (patch tokens or zebin): the kernel ABI
    #[arg(long)]
    binary: PathBuf,
    /// Kernel name (default: the only kernel of FILE)
    #[arg(long)]
    kernel: Option<String>,
    /// A function the kernel calls (fcall, ifcall): a .visaasm text holding
    /// `.global_function`, as IGC dumps each beside its kernel (`..._f0.visaasm`).
    /// Functions inside a .isa FILE are found without it
    #[arg(long = "function", value_name = "FILE")]
    functions: Vec<PathBuf>,
    /// Global work size X[,Y[,Z]]
    #[arg(long)]
    global: String,
    /// Local work size X[,Y[,Z]] (default: the kernel's reqd_work_group_size, else
    /// the size the OpenCL runtime chooses for the global size)
    #[arg(long)]
    local: Option<String>,
    /// Argument ARG (its index, or its name where the program was built with
    /// -cl-kernel-arg-info): a global buffer as file:PATH, zeros:BYTES,
    /// range:N:TYPE (0, 1, 2, ...), random:N:TYPE:SEED (SplitMix64: integers uniform
    /// over the type's bits, floats in [0, 1)) or fill:N:TYPE:V; local:BYTES (a
    /// __local pointer); TYPE:VALUE (a scalar: i8..u64, f32, f64, of the argument's
    /// type and size); bytes:PATH (a by-value struct or vector's bytes); or
    /// image:WxH[xD]:ORDER.TYPE:(file:PATH|zeros) for an image (D is the depth of a
    /// 3D image or the layers of an array; ORDER r, rg or rgba; TYPE f32, f16,
    /// unorm8, unorm16, i8, i16, i32, u8, u16 or u32; texels packed row by row)
    #[arg(long = "arg", value_name = "ARG=SPEC")]
    args: Vec<String>,
    /// Write buffer argument ARG (index or name) to FILE after the run
    #[arg(long = "out", value_name = "ARG=FILE")]
    outs: Vec<String>,
    /// Print buffer argument ARG after the run as TYPE elements (u8..i64, f32, f64),
    /// 8 a line (with --json: in the report's "buffers")
    #[arg(long = "show", value_name = "ARG=TYPE")]
    shows: Vec<String>,
    /// Print every executed instruction with its channel mask (stderr)
    #[arg(long)]
    trace: bool,
    /// Print the run's statistics as JSON
    #[command(flatten)]
    json: JsonArg,
    /// Print wall time and instructions per second (stderr)
    #[arg(long)]
    timing: bool,
    /// When FILE is an .isa with the IGC 1.0.12198-13063 writer defect, run IGC's text
    /// dump of the same compile beside it (the `.visaasm` of the same stem)
    #[arg(long)]
    prefer_text: bool,
    /// Stop with an error after this many executed instructions (default: 10M plus
    /// 100k per hardware thread of the launch, at most 200M)
    #[arg(long)]
    max_instructions: Option<u64>,
    /// Memory the launch may allocate: buffers, shared local, private and register
    /// space (BYTES, or with a K, M, G suffix). Default 4G, and what the input files
    /// claim (SLM, private and register sizes) held to 48 MiB + 16x their size
    #[arg(long, value_name = "BYTES")]
    max_memory: Option<String>,
    /// Run every instruction on the generic interpreter, none on the translated engine
    #[arg(long)]
    no_translate: bool,
    /// Work-groups run at once, on threads of their own (default: the CPUs
    /// available); 1 runs them one after another, in order. The results are the same
    /// for a kernel without races between work-groups. --trace and --check run one
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Look for data races, uninitialised reads and divergent barriers (every check, or
    /// a list: races,uninit,barriers,over-read,div-zero); each finding is a line on
    /// stderr (and in --json), and any finding exits 1
    #[arg(long, value_name = "LIST", num_args = 0..=1, require_equals = true, default_missing_value = "all")]
    check: Option<String>,
}

/// `--json`: the run's statistics and the CPU time the run took (process CPU time,
/// every thread, around the launch: parse excluded), the local size, what the
/// kernel printed and the `--show` buffers.
#[derive(serde::Serialize)]
struct Report<'a> {
    #[serde(flatten)]
    stats: &'a interp::Stats,
    #[serde(skip_serializing_if = "Option::is_none")]
    findings: Option<&'a [interp::check::Finding]>,
    cpu_nanoseconds: u64,
    channel_instructions_per_cpu_second: f64,
    local_size: [u32; 3],
    #[serde(skip_serializing_if = "Option::is_none")]
    printf: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    buffers: Vec<Shown>,
}

/// A `--show` buffer in the JSON report.
#[derive(serde::Serialize)]
struct Shown {
    arg: u32,
    #[serde(rename = "type")]
    ty: String,
    values: Vec<serde_json::Value>,
}

fn json_value(e: Element) -> serde_json::Value {
    match e {
        Element::Int(v) => v.into(),
        Element::UInt(v) => v.into(),
        Element::F32(v) => {
            serde_json::Number::from_f64(f64::from(v)).map_or(serde_json::Value::Null, Into::into)
        }
        Element::F64(v) => {
            serde_json::Number::from_f64(v).map_or(serde_json::Value::Null, Into::into)
        }
    }
}

/// The process's CPU time so far, nanoseconds (0 where the clock is missing).
fn process_cpu_nanoseconds() -> u64 {
    #[cfg(target_os = "linux")]
    {
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
        t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
    }
    #[cfg(not(target_os = "linux"))]
    {
        0
    }
}

fn usage(m: impl Into<String>) -> CmdError {
    CmdError::Usage(m.into())
}

fn dims(s: &str, what: &str) -> Result<([u32; 3], u32), CmdError> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(usage(format!("--{what}: expected X[,Y[,Z]], got {s:?}")));
    }
    let mut d = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        d[i] = p
            .trim()
            .parse()
            .ok()
            .filter(|v| *v > 0)
            .ok_or_else(|| usage(format!("--{what}: {p:?} is not a positive integer")))?;
    }
    Ok((d, parts.len() as u32))
}

/// A runtime error as the CLI reports it: the request's faults are usage errors.
fn cmd_error(e: runtime::Error) -> CmdError {
    if e.is_usage() {
        CmdError::Usage(e.to_string())
    } else {
        CmdError::Input(e.to_string())
    }
}

/// Where a run stopped: the file, and the instruction's line of a text.
fn place(
    file: &Path,
    text: Option<&str>,
    body: &gpukit_visa::Routine,
    e: &interp::RunError,
) -> String {
    let file = file.display();
    match (e.index, text) {
        // The error message names the function and the instruction's index there.
        _ if e.function.is_some() => format!("{file}: "),
        (Some(i), Some(t)) => {
            let count = body.code.instructions_or_empty().len();
            match runtime::instruction_lines(t, count).and_then(|m| m.get(i).copied()) {
                Some(line) => format!(
                    "{file}:{line}: {}\n",
                    t.split('\n').nth(line - 1).unwrap_or("").trim()
                ),
                None => format!("{file}: instruction #{i}\n"),
            }
        }
        (Some(i), None) => format!("{file}: instruction #{i}\n"),
        _ => format!("{file}: "),
    }
}

pub fn run(a: Args) -> CmdResult {
    let bytes = crate::input::read(&a.file, &[Format::VisaBinary, Format::VisaText])?;
    let mut input_bytes = bytes.len() as u64;
    // `--prefer-text`: a defective .isa's text dump beside it instead.
    let beside = gpukit_visa::binary::text_dump_beside(&a.file)
        .filter(|_| a.prefer_text && gpukit_visa::binary::has_truncation_defect(&bytes));
    let (object, text) = if let Some(path) = &beside {
        let text = crate::input::read_text(path, &[Format::VisaText])?;
        (super::parse_text(path, &text, None)?, Some(text))
    } else if detect::detect(&bytes) != Format::VisaBinary {
        let text = crate::input::text(&a.file, bytes)?;
        let obj = super::parse_text(&a.file, &text, None)?;
        (obj, Some(text))
    } else {
        let read = gpukit_visa::read(&bytes);
        let explain = |e| gpukit_visa::binary::explained(&a.file, &bytes, e);
        (
            read.map_err(|e| CmdError::input(&a.file, explain(e)))?,
            None,
        )
    };
    let kernel = match &a.kernel {
        Some(k) => object
            .kernels
            .iter()
            .find(|x| x.name == k.as_bytes())
            .ok_or_else(|| usage(format!("{}: no kernel {k:?}", a.file.display())))?,
        None => match object.kernels.as_slice() {
            [k] => k,
            _ => return Err(usage(format!("{}: give --kernel", a.file.display()))),
        },
    };
    let name = String::from_utf8_lossy(&kernel.name).into_owned();
    let mut extra = Vec::with_capacity(a.functions.len());
    for path in &a.functions {
        input_bytes += std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        extra.push(super::parse_file(path, None)?);
    }
    let functions: Vec<(&[u8], &gpukit_visa::Routine)> = object
        .functions
        .iter()
        .chain(extra.iter().flat_map(|o| o.functions.iter()))
        .map(|f| (f.name.as_slice(), &f.body))
        .collect();
    let program_bytes = crate::input::read(&a.binary, &crate::cmd::intel::info::PROGRAMS)?;
    input_bytes += program_bytes.len() as u64;
    let program = gpukit_intel::read(&program_bytes).map_err(|e| CmdError::input(&a.binary, e))?;
    drop(program_bytes);
    let (global, work_dim) = dims(&a.global, "global")?;
    // No --local: zeros, the runtime chooses.
    let local = match &a.local {
        Some(l) => dims(l, "local")?.0,
        None => [0; 3],
    };
    let mut budget = match &a.max_memory {
        Some(m) => Budget::new(runtime::parse_size(m).ok_or_else(|| {
            usage(format!(
                "--max-memory {m:?}: expected BYTES, or a number with K, M or G"
            ))
        })?),
        None => Budget::for_inputs(input_bytes),
    };
    let mut read =
        |path: &Path| crate::input::read_any(path).map_err(|e| runtime::Error::Io(e.to_string()));
    let mut args = Vec::with_capacity(a.args.len());
    for s in &a.args {
        args.push(runtime::parse_arg(s, &mut budget, &mut read).map_err(cmd_error)?);
    }
    let request = Request {
        global,
        local,
        work_dim,
        args,
        max_instructions: a.max_instructions,
        options: interp::Options {
            translate: !a.no_translate,
            checks: match &a.check {
                Some(list) => interp::check::Checks::parse(list)
                    .map_err(|m| usage(format!("--check: {m}")))?,
                None => interp::check::Checks::default(),
            },
            jobs: a.jobs.map_or_else(
                || std::thread::available_parallelism().map_or(1, |n| n.get()),
                usize::from,
            ),
            ..interp::Options::default()
        },
    };
    let kernel = Kernel {
        name: &name,
        body: &kernel.body,
        functions,
    };
    let mut trace_sink = |line: String| eprintln!("{line}");
    let trace: Option<&mut dyn FnMut(String)> = if a.trace { Some(&mut trace_sink) } else { None };
    let started = std::time::Instant::now();
    let cpu_started = process_cpu_nanoseconds();
    let outcome =
        runtime::launch(&kernel, program, request, &mut budget, trace).map_err(|e| match e {
            runtime::Error::NoKernel(_) => usage(format!("{}: {e}", a.binary.display())),
            runtime::Error::Run { ref error, .. } => CmdError::Input(format!(
                "{}{e}",
                place(&a.file, text.as_deref(), kernel.body, error)
            )),
            e => cmd_error(e),
        })?;
    let elapsed = started.elapsed();
    let cpu = process_cpu_nanoseconds().saturating_sub(cpu_started);
    let stats = &outcome.stats;
    let buffer = |o: &str, flag: &str| -> Result<(u32, String, &[u8]), CmdError> {
        let (arg, rest) = split_arg(o, flag).map_err(cmd_error)?;
        let n = outcome.arg_index(&arg).ok_or_else(|| {
            usage(format!(
                "--{flag} {o}: the kernel has no argument named {arg}"
            ))
        })?;
        let data = outcome
            .buffer(n)
            .ok_or_else(|| usage(format!("--{flag} {o}: argument {arg} is not a buffer")))?;
        Ok((n, rest, data))
    };
    for o in &a.outs {
        let (_, path, data) = buffer(o, "out")?;
        emit_binary(Some(Path::new(&path)), data)?;
    }
    let mut shown = String::new();
    let mut buffers = Vec::new();
    for o in &a.shows {
        let (n, ty, data) = buffer(o, "show")?;
        if a.json.enabled() {
            let values = runtime::elements(data, &ty).map_err(cmd_error)?;
            buffers.push(Shown {
                arg: n,
                ty,
                values: values.into_iter().map(json_value).collect(),
            });
        } else {
            shown.push_str(&format!("argument {n} ({ty}):\n"));
            shown.push_str(&runtime::format_elements(data, &ty).map_err(cmd_error)?);
        }
    }
    let printed = outcome.printf_output();
    if a.timing {
        let secs = elapsed.as_secs_f64().max(1e-9);
        eprintln!(
            "{:.3} s, {:.0} instructions/s, {:.0} channel-instructions/s",
            secs,
            stats.instructions as f64 / secs,
            stats.channel_instructions as f64 / secs
        );
    }
    for finding in &outcome.findings {
        crate::error::print_stderr(
            &finding.line(&|site| site_place(&a.file, text.as_deref(), kernel.body, site)),
        );
    }
    let found = if outcome.findings.is_empty() {
        Ok(())
    } else {
        Err(CmdError::Reported(1))
    };
    if a.json.enabled() {
        let report = Report {
            stats,
            findings: a.check.is_some().then_some(outcome.findings.as_slice()),
            cpu_nanoseconds: cpu,
            channel_instructions_per_cpu_second: stats.channel_instructions as f64
                / (cpu.max(1) as f64 / 1e9),
            local_size: outcome.local,
            printf: printed,
            buffers,
        };
        emit(None, &a.json.one(&report))?;
        return found;
    }
    // What the kernel printed comes first, as an OpenCL program's output would.
    emit(
        None,
        format!(
            "{}kernel {name}: simd{}, {} work-groups, {} threads, {} instructions ({} channel-instructions), {} barriers\n{shown}",
            printed.unwrap_or_default(), outcome.simd, stats.groups, stats.threads, stats.instructions, stats.channel_instructions, stats.barriers
        )
        .as_bytes(),
    )?;
    found
}

/// Where a `--check` finding's instruction is: `file:line` of a text (the kernel's
/// instructions), else its index.
fn site_place(
    file: &Path,
    text: Option<&str>,
    body: &gpukit_visa::Routine,
    site: &interp::check::Site,
) -> String {
    let file = crate::error::name(file);
    if let Some(f) = &site.function {
        return format!(
            "{file}: function {f} instruction #{} ({})",
            site.index, site.mnemonic
        );
    }
    let count = body.code.instructions_or_empty().len();
    match text
        .and_then(|t| runtime::instruction_lines(t, count))
        .and_then(|m| m.get(site.index).copied())
    {
        Some(line) => format!("{file}:{line} ({})", site.mnemonic),
        None => format!("{file}: instruction #{} ({})", site.index, site.mnemonic),
    }
}
