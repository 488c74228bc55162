//! The translated engine against the generic path: the same kernels, on the same
//! pseudo-random register contents, run once with every routine lowered and once
//! with none, must leave the same memory. The cases cover every instruction the
//! engine lowers, each lane type, source modifier, saturation, region shape
//! (scalar, contiguous, per-channel table), predication and a divergent goto, with
//! 32-byte GRFs at SIMD16 and 64-byte GRFs (PVC) at SIMD16 and at SIMD32 in a
//! partial work-group (some channels of a 32-channel instruction disabled).

use gpukit_visa::interp::{self, Launch, Memory, Options, Payload};

/// Bytes of every operand variable (room for strided regions of 32 dwords).
const VAR_BYTES: usize = 512;

/// The launch a case runs in.
#[derive(Clone, Copy, Debug)]
struct Config {
    grf: u32,
    simd: u32,
    /// Work-items of the one work-group (fewer than `simd`: channels disabled).
    items: u32,
}

const CONFIGS: [Config; 3] = [
    Config {
        grf: 32,
        simd: 16,
        items: 16,
    },
    Config {
        grf: 64,
        simd: 16,
        items: 16,
    },
    Config {
        grf: 64,
        simd: 32,
        items: 20,
    },
];

impl Config {
    /// Payload byte of the cross-thread data: after r0 and the local IDs (a GRF).
    fn cross_thread(&self) -> usize {
        2 * self.grf as usize
    }
    /// Payload byte where the sources' inputs start (after the buffer pointer).
    fn inputs_at(&self) -> usize {
        self.cross_thread() + 64
    }
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[(self.next() % xs.len() as u64) as usize]
    }
}

const INT_TYPES: [&str; 6] = ["ud", "d", "uw", "w", "ub", "b"];

fn size(ty: &str) -> usize {
    match ty {
        "ub" | "b" => 1,
        "uw" | "w" => 2,
        _ => 4,
    }
}

/// Register contents that exercise the interesting values: zeros, signs, extremes,
/// small floats, NaN and infinities among random bits.
fn random_bytes(rng: &mut Rng, ty: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(VAR_BYTES);
    while out.len() < VAR_BYTES {
        let r = rng.next();
        let special = r % 8;
        let v: u32 = if ty == "f" {
            match special {
                0 => 0,
                1 => 0x8000_0000,
                2 => [0x7FC0_0000, 0x7F80_0001, 0xFFA0_0000][(r >> 60) as usize % 3],
                3 => 0x7F80_0000,
                4 => ((r >> 8) as f32 / 1e9).to_bits(),
                5 => (-((r >> 40) as f32) / 3.0).to_bits(),
                _ => (((r >> 16) % 2000) as f32 / 7.0 - 100.0).to_bits(),
            }
        } else {
            match special {
                0 => 0,
                1 => u32::MAX,
                2 => 0x8000_0000,
                3 => 0x7FFF_FFFF,
                4 => (r >> 32) as u32 % 40,
                _ => (r >> 20) as u32,
            }
        };
        out.extend_from_slice(&v.to_le_bytes()[..size(ty)]);
    }
    out.truncate(VAR_BYTES);
    out
}

/// One case: the operand declarations and the instructions under test. Sources are
/// V0040..V0042 (types `src_types`), destinations V0050 and V0051, predicates P1-P2
/// (P1 set from the random V0043 before the body).
struct Case {
    dst_type: &'static str,
    src_types: [&'static str; 3],
    body: String,
}

fn source(rng: &mut Rng, var: &str, ty: &str, float_ok: bool) -> String {
    let modifiers: &[&str] = if ty == "f" {
        &["", "", "(-)", "(abs)", "(-abs)"]
    } else {
        &["", "", "(-)", "(abs)", "(-abs)", "(~)"]
    };
    let m = rng.pick(modifiers);
    match rng.next() % 6 {
        0 => {
            // An immediate of the source type.
            if ty == "f" && float_ok {
                let f = *rng.pick(&[0.0f32, 1.5, -2.25, 0.1, 4.0, f32::INFINITY]);
                format!("{m}0x{:x}:f", f.to_bits())
            } else {
                let t = if ty == "f" { "d" } else { ty };
                let v = rng.next() as u32 & if size(t) == 4 { 0xFFFF } else { 0x7F };
                format!("{m}0x{v:x}:{t}")
            }
        }
        1 => format!("{m}{var}(0,{})<0;1,0>", rng.next() % 8),
        2 => format!("{m}{var}(0,0)<2;1,0>"),
        3 => format!("{m}{var}(1,0)<0;4,1>"),
        _ => format!("{m}{var}(0,0)<1;1,0>"),
    }
}

fn alu_case(rng: &mut Rng, cfg: Config) -> Case {
    let float = rng.next() % 2 == 0;
    let ops_float: &[(&str, usize)] = &[
        ("mov", 1),
        ("add", 2),
        ("mul", 2),
        ("mad", 3),
        ("div", 2),
        ("inv", 1),
        ("sqrt", 1),
        ("rsqrt", 1),
        ("rndd", 1),
        ("rndu", 1),
        ("rndz", 1),
        ("rnde", 1),
        ("frc", 1),
        ("lrp", 3),
        ("min", 2),
        ("max", 2),
        ("sel", 2),
    ];
    let ops_int: &[(&str, usize)] = &[
        ("mov", 1),
        ("add", 2),
        ("add3", 3),
        ("mul", 2),
        ("mad", 3),
        ("avg", 2),
        ("and", 2),
        ("or", 2),
        ("xor", 2),
        ("not", 1),
        ("shl", 2),
        ("shr", 2),
        ("asr", 2),
        ("min", 2),
        ("max", 2),
        ("sel", 2),
    ];
    let (op, n) = *rng.pick(if float { ops_float } else { ops_int });
    let src_types = if float {
        // Mixed operands: a float instruction may read integers.
        [
            "f",
            *rng.pick(&["f", "f", "d", "uw"]),
            *rng.pick(&["f", "f", "b"]),
        ]
    } else {
        [
            *rng.pick(&INT_TYPES),
            *rng.pick(&INT_TYPES),
            *rng.pick(&INT_TYPES),
        ]
    };
    let dst_type = if float {
        *rng.pick(&["f", "f", "f", "d", "uw"])
    } else {
        *rng.pick(&INT_TYPES)
    };
    let sat = if rng.next() % 4 == 0 { ".sat" } else { "" };
    let exec = *rng.pick(&[cfg.simd, 16, 8, 1]);
    let emask = if rng.next() % 3 == 0 { "M1_NM" } else { "M1" };
    let pred = *rng.pick(&["", "", "(P1) ", "(!P1) "]);
    let dst_region = if rng.next() % 4 == 0 { "<2>" } else { "<1>" };
    let mut srcs = String::new();
    for (k, ty) in src_types.iter().enumerate().take(n) {
        srcs.push(' ');
        srcs.push_str(&source(rng, &format!("V004{k}"), ty, float || k > 0));
    }
    let (op, pred) = match op {
        // The text form of min/max takes no predicate.
        "min" => ("min", ""),
        "max" => ("max", ""),
        // sel picks by its predicate (and is then not predicated).
        "sel" => ("sel", *rng.pick(&["(P1) ", "(!P1) ", ""])),
        o => (o, pred),
    };
    let body = format!("    {pred}{op}{sat} ({emask}, {exec}) V0050(0,1){dst_region}{srcs}\n");
    Case {
        dst_type,
        src_types,
        body,
    }
}

fn cmp_case(rng: &mut Rng) -> Case {
    let float = rng.next() % 2 == 0;
    let t0 = if float { "f" } else { *rng.pick(&INT_TYPES) };
    let t1 = if float {
        *rng.pick(&["f", "d"])
    } else {
        *rng.pick(&INT_TYPES)
    };
    let rel = *rng.pick(&["eq", "ne", "gt", "ge", "lt", "le"]);
    let exec = *rng.pick(&[16u32, 8, 1]);
    let emask = if rng.next() % 3 == 0 { "M1_NM" } else { "M1" };
    let a = source(rng, "V0040", t0, true);
    let b = source(rng, "V0041", t1, true);
    let dst_type = *rng.pick(&["ud", "w", "f"]);
    // The predicate result made visible: P2 selects between two constants; and the
    // predicate logic on it.
    let body = format!(
        "    cmp.{rel} ({emask}, {exec}) P2 {a} {b}\n    cmp.{rel} ({emask}, {exec}) V0050(0,0)<1> {a} {b}\n    and (M1, 16) P2 P2 P1\n    (P2) sel (M1, 16) V0051(0,0)<1> 0x7:ud 0x9:ud\n    or (M1, 1) P1 P2 P1\n    (P1) sel (M1, 16) V0051(1,0)<1> 0x1:ud 0x2:ud\n"
    );
    Case {
        dst_type,
        src_types: [t0, t1, "ud"],
        body,
    }
}

/// A divergent goto: channels split by P1, both sides run, and meet again.
fn goto_case(rng: &mut Rng) -> Case {
    let inverse = if rng.next() % 2 == 0 { "!" } else { "" };
    let body = format!(
        "    ({inverse}P1) goto (M1, 16) other_0\n    add (M1, 16) V0050(0,0)<1> V0040(0,0)<1;1,0> 0x1:ud\n    goto (M1, 16) join_0\nother_0:\n    mul (M1, 16) V0050(0,0)<1> V0040(0,0)<1;1,0> 0x3:ud\njoin_0:\n    add (M1, 16) V0051(0,0)<1> V0050(0,0)<1;1,0> V0041(0,0)<1;1,0>\n"
    );
    Case {
        dst_type: "ud",
        src_types: ["ud", "ud", "ud"],
        body,
    }
}

/// Shared local memory through scatter4/gather4, gather_scaled and dword atomics,
/// with offsets that sometimes leave the 1 KiB (the generic path reports those).
fn memory_case(rng: &mut Rng) -> Case {
    let mask = *rng.pick(&["0x3fc", "0x3fc", "0x3fc", "0x7fc"]);
    let colors = *rng.pick(&["R", "RG", "RGB", "RGBA", "GA"]);
    let global = *rng.pick(&["0x0", "0x4", "0x10000000"]);
    let pred = *rng.pick(&["", "(P1) ", "(!P1) "]);
    let op = *rng.pick(&[
        "add", "inc", "min", "max", "xchg", "or", "maxsint", "predec", "fadd",
    ]);
    let body = format!(
        "    and (M1, 16) V0040(0,0)<1> V0040(0,0)<1;1,0> {mask}:ud\n    and (M1, 16) V0042(0,0)<1> V0042(0,0)<1;1,0> 0x3ec:ud\n    {pred}scatter4_scaled.{colors} (M1, 16) %slm {global}:ud V0040.0 V0041.0\n    {pred}dword_atomic.{op} (M1, 16) %slm V0042.0 V0041.0 %null.0 V0051.0\n    gather4_scaled.{colors} (M1, 16) %slm 0x0:ud V0042.0 V0050.0\n    {pred}gather_scaled.1 (M1, 16) %slm {global}:ud V0040.0 V0050.192\n"
    );
    Case {
        dst_type: "ud",
        src_types: ["ud", "ud", "ud"],
        body,
    }
}

fn kernel_text(c: &Case, cfg: Config) -> String {
    let decl = |id: &str, ty: &str| {
        format!(
            ".decl {id} v_type=G type={ty} num_elts={} align=GRF\n",
            VAR_BYTES / size(ty)
        )
    };
    let mut text = String::from(".version 3.6\n.kernel \"k\"\n");
    text += ".decl V0033 v_type=G type=uq num_elts=1 align=qword\n";
    text += ".decl V0034 v_type=G type=uw num_elts=16 align=GRF\n";
    text += ".decl V0036 v_type=G type=uq num_elts=16 align=GRF\n";
    for (k, ty) in c.src_types.iter().enumerate() {
        text += &decl(&format!("V004{k}"), ty);
    }
    text += &decl("V0043", "ud");
    text += &decl("V0050", c.dst_type);
    text += &decl("V0051", "ud");
    text += ".decl P1 v_type=P num_elts=16\n.decl P2 v_type=P num_elts=16\n";
    text += &format!(
        ".input V0034 offset={} size=32\n.input V0033 offset={} size=8\n",
        cfg.grf,
        cfg.cross_thread()
    );
    for k in 0..4 {
        text += &format!(
            ".input V004{k} offset={} size={VAR_BYTES}\n",
            cfg.inputs_at() + k * VAR_BYTES
        );
    }
    text += ".kernel_attr Target=\"3d\"\n.function \"main_0\"\n\nmain_0:\n";
    // IGC's default float mode, as every IGC kernel sets it first: only then does the
    // translated engine take float arithmetic (else `%cr0` flushes denormals).
    text += "    or (M1_NM, 1) %cr0(0,0)<1> %cr0(0,0)<0;1,0> 0x4c0:ud\n";
    // Addresses: buf + lid * 4, then + 64 per stored row.
    text += "    mov (M1, 16) V0036(0,0)<1> V0034(0,0)<1;1,0>\n";
    text += "    shl (M1, 16) V0036(0,0)<1> V0036(0,0)<1;1,0> 0x2:uq\n";
    text += "    add (M1, 16) V0036(0,0)<1> V0036(0,0)<1;1,0> V0033(0,0)<0;1,0>\n";
    text += "    and (M1, 16) V0043(0,0)<1> V0043(0,0)<1;1,0> 0x1:ud\n";
    text += "    cmp.ne (M1_NM, 16) P1 V0043(0,0)<1;1,0> 0x0:ud\n";
    text += &c.body;
    // Both destinations, whole, as rows of 16 dwords.
    for (var, rows) in [("V0050", VAR_BYTES / 64), ("V0051", VAR_BYTES / 64)] {
        for row in 0..rows {
            text += &format!("    svm_scatter.4.1 (M1, 16) V0036.0 {var}.{}\n", row * 64);
            text += "    add (M1, 16) V0036(0,0)<1> V0036(0,0)<1;1,0> 0x40:uq\n";
        }
    }
    text += "    ret (M1, 1)\n";
    text
}

fn run(text: &str, inputs: &[u8], cfg: Config, translate: bool) -> Result<Vec<u8>, String> {
    let object =
        gpukit_visa::text::parse_text(text).unwrap_or_else(|d| panic!("{}", d.render("k", text)));
    let mut mem = Memory::default();
    let base = mem.add("buf", vec![0xEE; 2 * VAR_BYTES]);
    let mut cross = vec![0u8; 64 + inputs.len()];
    cross[..8].copy_from_slice(&base.to_le_bytes());
    cross[64..].copy_from_slice(inputs);
    let launch = Launch {
        simd: cfg.simd,
        grf_bytes: cfg.grf,
        global: [cfg.items, 1, 1],
        local: [cfg.items, 1, 1],
        payload: Payload {
            local_id: [true, false, false],
            cross_thread_offset: cfg.cross_thread() as u32,
            cross_thread: cross,
        },
        slm_bytes: 1024,
        max_instructions: 10_000,
        scratch_bytes: interp::SCRATCH_BYTES as u32,
    };
    interp::run_with_options(
        &object.kernels[0].body,
        &[],
        &launch,
        &mut mem,
        None,
        &Options {
            translate,
            ..Options::default()
        },
    )
    .map_err(|e| e.to_string())?;
    Ok(mem.buffers[0].to_bytes())
}

fn check(rng: &mut Rng, case: Case, cfg: Config) {
    let text = kernel_text(&case, cfg);
    let mut inputs = Vec::new();
    for ty in case.src_types.iter().chain(["ud"].iter()) {
        inputs.extend(random_bytes(rng, ty));
    }
    // A float destination's NaNs compare as one NaN: Rust leaves the sign and payload
    // of a NaN result to the code generator, which may commute operands.
    let canonical = |r: Result<Vec<u8>, String>| {
        r.map(|mut b| {
            if case.dst_type == "f" {
                for w in b[..VAR_BYTES].chunks_exact_mut(4) {
                    if f32::from_le_bytes([w[0], w[1], w[2], w[3]]).is_nan() {
                        w.copy_from_slice(&f32::NAN.to_le_bytes());
                    }
                }
            }
            b
        })
    };
    let generic = canonical(run(&text, &inputs, cfg, false));
    let translated = canonical(run(&text, &inputs, cfg, true));
    assert_eq!(
        translated, generic,
        "translated and generic differ ({cfg:?}) on\n{}",
        case.body
    );
}

#[test]
fn alu_instructions_agree_with_the_generic_path() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for cfg in CONFIGS {
        for _ in 0..1000 {
            let case = alu_case(&mut rng, cfg);
            check(&mut rng, case, cfg);
        }
    }
}

#[test]
fn compares_and_predicates_agree_with_the_generic_path() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for cfg in CONFIGS {
        for _ in 0..400 {
            let case = cmp_case(&mut rng);
            check(&mut rng, case, cfg);
        }
    }
}

#[test]
fn divergent_goto_agrees_with_the_generic_path() {
    let mut rng = Rng(0x94D0_49BB_1331_11EB);
    for cfg in CONFIGS {
        for _ in 0..50 {
            let case = goto_case(&mut rng);
            check(&mut rng, case, cfg);
        }
    }
}

#[test]
fn slm_messages_agree_with_the_generic_path() {
    let mut rng = Rng(0xBF58_476D_1CE4_E5B9);
    for cfg in CONFIGS {
        for _ in 0..200 {
            let case = memory_case(&mut rng);
            check(&mut rng, case, cfg);
        }
    }
}
