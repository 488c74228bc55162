//! `gpukit amd cl2-abi --arch gcn1|gcn2|gfx9 --features usesetup,useargs,...
//! [--bits 32|64] [--signature '...'] [--global X,Y,Z --local X,Y,Z] [--old-driver]
//! [--image-words W0,..,W9] [--json]`

use crate::error::{CmdError, CmdResult};
use crate::output::{emit, JsonArg};
use gpukit_amd::abi::cl2::{
    decode_image, extra_sgprs, flat_scratch, kernarg_layout, kernel_code_properties,
    parse_signature, setup_buffer, user_sgpr_count, user_sgpr_layout, Cl2Arg, Features,
    FlatScratch, ImageInfo, KernargLayout, LayoutOptions, SgprRules, UserSgpr,
};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(Clone, Copy, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
enum Arch {
    /// GCN 1.1 (gfx7: Bonaire, Hawaii, Kaveri)
    Gcn1,
    /// GCN 1.2 (gfx8: Tonga, Fiji, Polaris)
    Gcn2,
    /// GCN 1.4 (gfx9: Vega)
    Gfx9,
}

#[derive(clap::Args)]
pub struct Args {
    /// Architecture whose user SGPR rules apply
    #[arg(long, value_enum)]
    arch: Arch,
    /// Comma-separated features: usesetup, useargs, useenqueue, usegeneric (empty for none)
    #[arg(long, default_value = "", value_name = "LIST")]
    features: String,
    /// Pointer size of the program (32- or 64-bit binary)
    #[arg(long, default_value = "64", value_parser = ["32", "64"])]
    bits: String,
    /// Kernel parameters, comma-separated OpenCL C (names optional), for the argument buffer
    #[arg(long)]
    signature: Option<String>,
    /// Catalyst 15.7 conventions: vec3 takes 3 elements and the size is not rounded to 16
    #[arg(long)]
    old_driver: bool,
    /// Global work size (1 to 3 values) for the setup buffer dwords
    #[arg(long, value_name = "X[,Y[,Z]]", requires = "local")]
    global: Option<String>,
    /// Local work size, as many values as --global
    #[arg(long, value_name = "X[,Y[,Z]]", requires = "global")]
    local: Option<String>,
    /// Decode the words an image argument points to: 10 comma-separated dwords
    /// (8 resource dwords, channel data type, channel order; hex with 0x or decimal)
    #[arg(long, value_name = "W0,..,W9")]
    image_words: Option<String>,
    #[command(flatten)]
    json: JsonArg,
    /// Output file (stdout when absent)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

#[derive(Serialize)]
struct Report {
    arch: Arch,
    features: Vec<&'static str>,
    kernel_code_properties: u16,
    user_sgpr_count: u32,
    /// SGPRs beyond those the code uses (VCC, FLAT_SCRATCH, XNACK_MASK).
    extra_sgprs: u32,
    user_sgprs: Vec<UserSgpr>,
    flat_scratch: FlatScratch,
    setup_buffer: Option<[u32; 6]>,
    kernarg: Option<KernargLayout>,
    image: Option<ImageInfo>,
}

fn sizes(flag: &str, s: &str) -> Result<Vec<u64>, CmdError> {
    s.split(',')
        .map(|p| p.trim().parse::<u64>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| {
            CmdError::Usage(format!(
                "--{flag} {s:?}: expected comma-separated unsigned integers"
            ))
        })
}

pub fn run(args: Args) -> CmdResult {
    let features =
        Features::parse(&args.features).map_err(|e| CmdError::Usage(format!("--features: {e}")))?;
    let rules = match args.arch {
        Arch::Gcn1 | Arch::Gcn2 => SgprRules::Gcn,
        Arch::Gfx9 => SgprRules::Gfx9,
    };
    let properties = kernel_code_properties(features, rules);
    let user_sgprs = user_sgpr_layout(properties);
    let setup = match (&args.global, &args.local) {
        (Some(g), Some(l)) => Some(
            setup_buffer(&sizes("global", g)?, &sizes("local", l)?)
                .map_err(|e| CmdError::Usage(format!("--global/--local: {e}")))?,
        ),
        _ => None,
    };
    let kernarg = match &args.signature {
        Some(sig) => {
            let params = parse_signature(sig, args.bits == "64")
                .map_err(|e| CmdError::Usage(format!("--signature: {e}")))?;
            let options = LayoutOptions {
                bits64: args.bits == "64",
                new_layout: !args.old_driver,
            };
            Some(
                kernarg_layout(&params, options)
                    .map_err(|e| CmdError::Usage(format!("--signature: {e}")))?,
            )
        }
        None => None,
    };
    let image = match &args.image_words {
        Some(list) => {
            let words = list
                .split(',')
                .map(|w| {
                    let w = w.trim();
                    match w.strip_prefix("0x") {
                        Some(h) => u32::from_str_radix(h, 16),
                        None => w.parse::<u32>(),
                    }
                })
                .collect::<Result<Vec<u32>, _>>()
                .ok()
                .filter(|w| w.len() == 10)
                .ok_or_else(|| {
                    CmdError::Usage(format!(
                        "--image-words {list:?}: expected 10 comma-separated 32-bit values"
                    ))
                })?;
            decode_image(&words)
        }
        None => None,
    };
    let report = Report {
        arch: args.arch,
        features: features.names(),
        kernel_code_properties: properties,
        user_sgpr_count: user_sgpr_count(&user_sgprs),
        extra_sgprs: extra_sgprs(features, !matches!(args.arch, Arch::Gcn1)),
        flat_scratch: flat_scratch(&user_sgprs),
        user_sgprs,
        setup_buffer: setup,
        kernarg,
        image,
    };
    if args.json.enabled() {
        return args.json.emit_one(args.output.as_deref(), &report);
    }
    let out = { text(&report).into_bytes() };
    emit(args.output.as_deref(), &out)
}

fn describe(a: &Cl2Arg) -> String {
    match a {
        Cl2Arg::Value { elem, count: 1 } => format!("value {elem}B"),
        Cl2Arg::Value { elem, count } => format!("value {count}x{elem}B"),
        Cl2Arg::Pointer => "pointer".into(),
        Cl2Arg::Image => "image".into(),
        Cl2Arg::Sampler => "sampler".into(),
        Cl2Arg::Queue => "queue".into(),
        Cl2Arg::Pipe => "pipe".into(),
        Cl2Arg::ClkEvent => "clk_event".into(),
        Cl2Arg::Struct => "struct (by pointer)".into(),
    }
}

fn text(r: &Report) -> String {
    let mut s = String::new();
    let features = if r.features.is_empty() {
        "none".to_owned()
    } else {
        r.features.join(",")
    };
    let _ = writeln!(
        s,
        "features: {features}; kernel_code_properties {:#x}; {} user SGPRs; {} SGPRs beyond the code's (VCC, FLAT_SCRATCH, XNACK_MASK)",
        r.kernel_code_properties, r.user_sgpr_count, r.extra_sgprs
    );
    for g in &r.user_sgprs {
        let _ = writeln!(s, "  {:<8} {:<22} {}", g.registers(), g.hsa_name, g.role);
    }
    let f = &r.flat_scratch;
    let _ = writeln!(
        s,
        "flat/scratch: descriptor {}, apertures {}, FLAT_SCRATCH offset {}, size {}",
        f.scratch_descriptor,
        f.aperture_buffer
            .as_deref()
            .map_or("-".into(), |q| format!("{q} dwords 16,17")),
        f.flat_scratch_offset.as_deref().unwrap_or("-"),
        f.flat_scratch_size.as_deref().unwrap_or("-")
    );
    if let Some(w) = &r.setup_buffer {
        let words: Vec<String> = w.iter().map(|d| format!("{d:#010x}")).collect();
        let _ = writeln!(s, "setup buffer: {}", words.join(" "));
    }
    if let Some(i) = &r.image {
        let _ = writeln!(
            s,
            "image: channel data type {} (dword 8 & 0xf), channel order {} (dword 9 & 0x1f)",
            i.channel_data_type.unwrap_or("unknown"),
            i.channel_order.unwrap_or("unknown")
        );
    }
    if let Some(k) = &r.kernarg {
        let _ = writeln!(
            s,
            "argument buffer: {} bytes (arguments end at {})",
            k.size, k.end
        );
        for (i, slot) in k.slots.iter().enumerate() {
            let _ = writeln!(
                s,
                "  {:>3}  {:>5} {:>3}  {:<20} {}",
                i,
                slot.offset,
                slot.size,
                slot.name,
                describe(&slot.arg)
            );
        }
    }
    s
}
