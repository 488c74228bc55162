//! What `gpukit visa run` and `gpukit iga run` share: the launch options (one clap
//! struct, flattened into both), the request built from them, the run, and what is
//! printed or written after it. Each command only reads its own kind of code.

use crate::error::{CmdError, CmdResult};
use crate::output::{emit, emit_binary, JsonArg};
use gpukit_runtime::{self as runtime, split_arg, Budget, Element, Kernel, Outcome, Request};
use gpukit_visa::interp;
use std::path::{Path, PathBuf};

/// `--check`, the same for both engines (one checker behind them).
#[derive(clap::Args)]
pub struct CheckArg {
    /// Look for data races, uninitialised reads and divergent barriers (every check, or
    /// a list: races,uninit,barriers,over-read,div-zero); each finding is a line on
    /// stderr (and in --json), and any finding exits 1
    #[arg(long, value_name = "LIST", num_args = 0..=1, require_equals = true, default_missing_value = "all")]
    pub check: Option<String>,
}

/// How a finding's instruction is named in its line (`file:line` and more).
pub type SiteNamer<'a> = &'a dyn Fn(&interp::check::Finding) -> String;

impl CheckArg {
    /// `site` when `--check` was given: what `finish` names findings with.
    pub fn sites<'a>(&self, site: SiteNamer<'a>) -> Option<SiteNamer<'a>> {
        self.check.is_some().then_some(site)
    }
    /// The checks asked for (none without `--check`).
    pub fn checks(&self) -> Result<interp::check::Checks, CmdError> {
        match &self.check {
            Some(list) => {
                interp::check::Checks::parse(list).map_err(|m| usage(format!("--check: {m}")))
            }
            None => Ok(interp::check::Checks::default()),
        }
    }
}

/// The options of a launch, the same for every front end.
#[derive(clap::Args)]
pub struct LaunchArgs {
    /// The program binary ocloc wrote beside the dump (patch tokens or zebin): the kernel ABI
    #[arg(long)]
    pub binary: PathBuf,
    /// Kernel name (default: the only kernel of FILE; for a Gen listing, the
    /// binary's only kernel)
    #[arg(long)]
    pub kernel: Option<String>,
    /// Global work size X[,Y[,Z]]
    #[arg(long)]
    pub global: String,
    /// Local work size X[,Y[,Z]] (default: the kernel's reqd_work_group_size, else
    /// the size the OpenCL runtime chooses for the global size)
    #[arg(long)]
    pub local: Option<String>,
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
    pub args: Vec<String>,
    /// Write buffer argument ARG (index or name) to FILE after the run
    #[arg(long = "out", value_name = "ARG=FILE")]
    pub outs: Vec<String>,
    /// Print buffer argument ARG after the run as TYPE elements (u8..i64, f32, f64),
    /// 8 a line (with --json: in the report's "buffers")
    #[arg(long = "show", value_name = "ARG=TYPE")]
    pub shows: Vec<String>,
    /// Print every executed instruction with its channel mask (stderr)
    #[arg(long)]
    pub trace: bool,
    /// Print the run's statistics as JSON
    #[command(flatten)]
    pub json: JsonArg,
    /// Print wall time and instructions per second (stderr)
    #[arg(long)]
    pub timing: bool,
    /// Stop with an error after this many executed instructions (default: 10M plus
    /// 100k per hardware thread of the launch, at most 200M)
    #[arg(long)]
    pub max_instructions: Option<u64>,
    /// Memory the launch may allocate: buffers, shared local, private and register
    /// space (BYTES, or with a K, M, G suffix). Default 4G, and what the input files
    /// claim (SLM, private and register sizes) held to 48 MiB + 16x their size
    #[arg(long, value_name = "BYTES")]
    pub max_memory: Option<String>,
    /// Work-groups run at once, on threads of their own (default: the CPUs
    /// available); 1 runs them one after another, in order. The results are the same
    /// for a kernel without races between work-groups. --trace and --check run one;
    /// so does Gen code (`iga run`, `visa run --compare`'s Gen run), whose engine
    /// runs work-groups one after another
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
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
    /// `visa run --compare`: the buffers that differ between the two front ends.
    #[serde(skip_serializing_if = "Option::is_none")]
    compare: Option<&'a [runtime::compare::BufferDiff]>,
    /// ... and where the Gen code's values first depart from the vISA's.
    #[serde(skip_serializing_if = "Option::is_none")]
    departure: Option<&'a runtime::gen::Departure>,
}

/// `visa run --compare`'s findings: the buffers that differ and, when some do, the
/// first vISA instruction whose Gen value differs (or why none was located).
pub struct Compared {
    pub buffers: Vec<runtime::compare::BufferDiff>,
    pub departure: Result<Option<runtime::gen::Departure>, String>,
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

pub fn usage(m: impl Into<String>) -> CmdError {
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
pub fn cmd_error(e: runtime::Error) -> CmdError {
    if e.is_usage() {
        CmdError::Usage(e.to_string())
    } else {
        CmdError::Input(e.to_string())
    }
}

/// A launch ready to run: the program binary's ABI, the request and its budget.
pub struct Prepared {
    pub program: gpukit_intel::Program,
    pub request: Request,
    pub budget: Budget,
}

impl LaunchArgs {
    /// Reads the program binary and the arguments' files into a request, under a
    /// budget for `input_bytes` of code read so far (the binary's size is added).
    pub fn prepare(
        &self,
        input_bytes: u64,
        options: interp::Options,
    ) -> Result<Prepared, CmdError> {
        let program_bytes = crate::input::read(&self.binary, &crate::cmd::intel::info::PROGRAMS)?;
        let input_bytes = input_bytes + program_bytes.len() as u64;
        let program =
            gpukit_intel::read(&program_bytes).map_err(|e| CmdError::input(&self.binary, e))?;
        drop(program_bytes);
        let (global, work_dim) = dims(&self.global, "global")?;
        // No --local: zeros, the runtime chooses.
        let local = match &self.local {
            Some(l) => dims(l, "local")?.0,
            None => [0; 3],
        };
        let mut budget = match &self.max_memory {
            Some(m) => Budget::new(runtime::parse_size(m).ok_or_else(|| {
                usage(format!(
                    "--max-memory {m:?}: expected BYTES, or a number with K, M or G"
                ))
            })?),
            None => Budget::for_inputs(input_bytes),
        };
        let mut read = |path: &Path| {
            crate::input::read_any(path).map_err(|e| runtime::Error::Io(e.to_string()))
        };
        let mut args = Vec::with_capacity(self.args.len());
        for s in &self.args {
            args.push(runtime::parse_arg(s, &mut budget, &mut read).map_err(cmd_error)?);
        }
        Ok(Prepared {
            program,
            request: Request {
                global,
                local,
                work_dim,
                args,
                max_instructions: self.max_instructions,
                options: interp::Options {
                    jobs: self.jobs.map_or_else(
                        || std::thread::available_parallelism().map_or(1, |n| n.get()),
                        usize::from,
                    ),
                    ..options
                },
            },
            budget,
        })
    }

    /// Runs the launch of the code in `file`; `place` says where a run error
    /// happened (file and line).
    pub fn launch(
        &self,
        kernel: &Kernel<'_>,
        file: &Path,
        prepared: Prepared,
        place: &dyn Fn(&interp::RunError) -> String,
    ) -> Result<Launched, CmdError> {
        let Prepared {
            program,
            request,
            mut budget,
        } = prepared;
        let mut trace_sink = |line: String| eprintln!("{line}");
        let trace: Option<&mut dyn FnMut(String)> = if self.trace {
            Some(&mut trace_sink)
        } else {
            None
        };
        let started = std::time::Instant::now();
        let cpu_started = process_cpu_nanoseconds();
        let outcome =
            runtime::launch(kernel, program, request, &mut budget, trace).map_err(|e| match e {
                runtime::Error::NoKernel(_) => usage(format!("{}: {e}", self.binary.display())),
                runtime::Error::Run { ref error, .. } => {
                    CmdError::Input(format!("{}{e}", place(error)))
                }
                runtime::Error::Listing(m) => CmdError::input(file, m),
                e => cmd_error(e),
            })?;
        Ok(Launched {
            outcome,
            elapsed: started.elapsed(),
            cpu: process_cpu_nanoseconds().saturating_sub(cpu_started),
        })
    }

    /// Writes `--out` files, prints `--show` buffers, `--timing`, the findings (each
    /// line from `finding`), and the summary or the `--json` report. Exit 1 when a
    /// check found something.
    pub fn finish(
        &self,
        name: &str,
        launched: &Launched,
        findings: Option<&dyn Fn(&interp::check::Finding) -> String>,
        compare: Option<&Compared>,
    ) -> CmdResult {
        let outcome = &launched.outcome;
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
        for o in &self.outs {
            let (_, path, data) = buffer(o, "out")?;
            emit_binary(Some(Path::new(&path)), data)?;
        }
        let mut shown = String::new();
        let mut buffers = Vec::new();
        for o in &self.shows {
            let (n, ty, data) = buffer(o, "show")?;
            if self.json.enabled() {
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
        if self.timing {
            let secs = launched.elapsed.as_secs_f64().max(1e-9);
            eprintln!(
                "{:.3} s, {:.0} instructions/s, {:.0} channel-instructions/s",
                secs,
                stats.instructions as f64 / secs,
                stats.channel_instructions as f64 / secs
            );
        }
        if let Some(line) = findings {
            for finding in &outcome.findings {
                crate::error::print_stderr(&line(finding));
            }
        }
        let departure = compare
            .and_then(|c| c.departure.as_ref().ok())
            .and_then(Option::as_ref);
        let compare_buffers = compare.map(|c| c.buffers.as_slice());
        let differ = compare_buffers.is_some_and(|c| !c.is_empty());
        let found = if outcome.findings.is_empty() && !differ {
            Ok(())
        } else {
            Err(CmdError::Reported(1))
        };
        if self.json.enabled() {
            let cpu = launched.cpu;
            let report = Report {
                stats,
                findings: findings.is_some().then_some(outcome.findings.as_slice()),
                cpu_nanoseconds: cpu,
                channel_instructions_per_cpu_second: stats.channel_instructions as f64
                    / (cpu.max(1) as f64 / 1e9),
                local_size: outcome.local,
                printf: printed,
                buffers,
                compare: compare_buffers,
                departure,
            };
            emit(None, &self.json.one(&report))?;
            return found;
        }
        let mut compared = match compare_buffers {
            None => String::new(),
            Some([]) => "compare: every buffer is the same in the vISA and the Gen run\n".into(),
            Some(diffs) => diffs.iter().map(|d| format!("compare: {d}\n")).collect(),
        };
        if differ {
            compared.push_str(&match compare.map(|c| &c.departure) {
                Some(Ok(Some(d))) => format!("compare: {d}\n"),
                Some(Ok(None)) => {
                    "compare: no vISA instruction located (every followed value agrees)\n".into()
                }
                Some(Err(why)) => format!("compare: no vISA instruction located ({why})\n"),
                None => String::new(),
            });
        }
        // What the kernel printed comes first, as an OpenCL program's output would.
        emit(
            None,
            format!(
                "{}kernel {name}: simd{}, {} work-groups, {} threads, {} instructions ({} channel-instructions), {} barriers\n{shown}{compared}",
                printed.unwrap_or_default(), outcome.simd, stats.groups, stats.threads, stats.instructions, stats.channel_instructions, stats.barriers
            )
            .as_bytes(),
        )?;
        found
    }
}

/// A finished launch and what it cost.
pub struct Launched {
    pub outcome: Outcome,
    pub elapsed: std::time::Duration,
    /// Process CPU time of the launch, nanoseconds.
    pub cpu: u64,
}
