//! `gpukit amd cb0 --global X,Y,Z --local X,Y,Z [--task] [--offset X,Y,Z] [--abi ...] [--json]`

use crate::error::{CmdError, CmdResult};
use crate::output::{emit, JsonArg};
use gpukit_amd::abi::cb0::{Cb0Layout, Cb0Request, NdRange};
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(Clone, Copy, clap::ValueEnum)]
enum Abi {
    /// The 2009 spec's table (7XX/Evergreen)
    Spec,
    /// GCN Catalyst, 32-bit ABI
    Gcn32,
    /// GCN Catalyst, 64-bit ABI
    Gcn64,
}

#[derive(clap::Args)]
pub struct Args {
    /// global_work_size: 1 to 3 comma-separated values (their count is work_dim)
    #[arg(long, value_name = "X[,Y[,Z]]", required_unless_present = "task")]
    global: Option<String>,
    /// local_work_size, same number of values as --global
    #[arg(long, value_name = "X[,Y[,Z]]", required_unless_present = "task")]
    local: Option<String>,
    /// Build the area for clEnqueueTask instead
    #[arg(long, conflicts_with_all = ["global", "local", "offset"])]
    task: bool,
    /// global_work_offset (default 0)
    #[arg(long, value_name = "X[,Y[,Z]]")]
    offset: Option<String>,
    /// Layout of the reserved area
    #[arg(long, value_enum, default_value = "spec")]
    abi: Abi,
    /// Address of the data segment (cb0[8].x)
    #[arg(long, default_value_t = 0)]
    data_segment: u64,
    /// Print the named fields as JSON instead of a hex dump
    #[command(flatten)]
    json: JsonArg,
    /// Output file (stdout when absent)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

fn dims(flag: &str, s: &str) -> Result<Vec<u32>, CmdError> {
    let v: Result<Vec<u32>, _> = s.split(',').map(|p| p.trim().parse::<u32>()).collect();
    match v {
        Ok(v) if (1..=3).contains(&v.len()) => Ok(v),
        _ => Err(CmdError::Usage(format!(
            "--{flag} {s:?}: expected 1 to 3 comma-separated unsigned 32-bit integers"
        ))),
    }
}

fn pad(v: &[u32], fill: u32) -> [u32; 3] {
    let mut out = [fill; 3];
    out[..v.len()].copy_from_slice(v);
    out
}

pub fn run(args: Args) -> CmdResult {
    let layout = match args.abi {
        Abi::Spec => Cb0Layout::Spec2009,
        Abi::Gcn32 => Cb0Layout::Gcn32,
        Abi::Gcn64 => Cb0Layout::Gcn64,
    };
    let mut req = if args.task {
        Cb0Request::task(layout)
    } else {
        let global = dims("global", args.global.as_deref().unwrap_or_default())?;
        let local = dims("local", args.local.as_deref().unwrap_or_default())?;
        if local.len() != global.len() {
            return Err(CmdError::Usage(format!(
                "--global has {} values but --local has {}; both give work_dim",
                global.len(),
                local.len()
            )));
        }
        let offset = match &args.offset {
            Some(o) => {
                let o = dims("offset", o)?;
                if o.len() != global.len() {
                    return Err(CmdError::Usage(format!(
                        "--offset has {} values, expected {}",
                        o.len(),
                        global.len()
                    )));
                }
                o
            }
            None => vec![0; global.len()],
        };
        Cb0Request::ndrange(
            layout,
            NdRange {
                work_dim: global.len() as u32,
                global: pad(&global, 1),
                local: pad(&local, 1),
                global_offset: pad(&offset, 0),
            },
        )
    };
    req.data_segment = args.data_segment;
    let cb0 = req.build().map_err(|e| CmdError::Usage(e.to_string()))?;
    if args.json.enabled() {
        return args.json.emit_one(args.output.as_deref(), &cb0);
    }
    let out = {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "; cb0 reserved area, {} layout, {}",
            match layout {
                Cb0Layout::Spec2009 => "2009 spec",
                Cb0Layout::Gcn32 => "GCN 32-bit",
                Cb0Layout::Gcn64 => "GCN 64-bit",
            },
            if args.task {
                "clEnqueueTask"
            } else {
                "clEnqueueNDRangeKernel"
            }
        );
        for (v, chunk) in cb0.dwords.chunks(4).enumerate() {
            let _ = write!(s, "cb0[{v}]");
            for d in chunk {
                let _ = write!(s, " {d:08x}");
            }
            let names: Vec<&str> = cb0
                .fields
                .iter()
                .filter(|f| f.dword / 4 == v)
                .map(|f| f.name)
                .collect();
            if !names.is_empty() {
                let _ = write!(s, "  ; {}", names.join(" "));
            }
            s.push('\n');
        }
        s.into_bytes()
    };
    emit(args.output.as_deref(), &out)
}
