//! The Gen ALU table against `tests/alu/*.cases`: one case a line, a table per area
//! (`#` starts a comment). Values are written in their operand's type: integers in
//! decimal or `0x` hex (negative allowed), floats as decimal literals, `inf`,
//! `-inf`, `nan`, or `0x` raw bits of that float type (denormals, NaN payloads).
//!
//! ```text
//! eval OP[.FN] DST SRC.. : A [B [C]] => R [acc=V] [cr0=0xNN] [accin=V]
//! cmp  OP COND TYPE : A B => true|false        (OP cmp or cmpn)
//! sel  COND TYPE : A B => R
//! cond COND TYPE : V => true|false             (V exact, as eval returns it)
//! mod  OP MOD TYPE : V => R                    (MOD n, a, na)
//! bfn  TEXT => 0xHH|none
//! ```
//! `R` is compared as the destination holds it (bits), `nan` as any NaN.

use gpukit_gen::alu::{self, CondMod, Types};
use gpukit_iga::model::SrcMod;
use gpukit_visa::interp::value::{decode, encode, is_float, FloatMode, Val};
use gpukit_visa::isa::Type;
use std::path::Path;

fn ty(name: &str) -> Type {
    Type::from_name(name).unwrap_or_else(|| panic!("unknown type {name}"))
}

/// A literal of type `t`.
fn val(t: Type, text: &str) -> Val {
    let hex = |h: &str| u64::from_str_radix(h, 16).unwrap_or_else(|_| panic!("bad hex {text}"));
    if is_float(t) {
        return match text {
            "nan" => Val::F(f64::NAN),
            "inf" => Val::F(f64::INFINITY),
            "-inf" => Val::F(f64::NEG_INFINITY),
            _ => match text.strip_prefix("0x") {
                Some(h) => decode(t, hex(h)),
                None => Val::F(text.parse().unwrap_or_else(|_| panic!("bad float {text}"))),
            },
        };
    }
    let (neg, body) = match text.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, text),
    };
    let v = match body.strip_prefix("0x") {
        Some(h) => hex(h) as i128,
        None => body
            .parse()
            .unwrap_or_else(|_| panic!("bad integer {text}")),
    };
    Val::I(if neg { -v } else { v })
}

/// The bits a destination of type `t` holds for `v` (`encode` leaves the bits above
/// the type's size for the store to drop).
fn held(t: Type, v: Val) -> u64 {
    let size = t.size().unwrap_or(8) * 8;
    let bits = encode(t, v, false);
    if size >= 64 {
        bits
    } else {
        bits & ((1u64 << size) - 1)
    }
}

fn same(t: Type, got: Val, want_text: &str) -> bool {
    let bits = held(t, got);
    if want_text == "nan" {
        return matches!(decode(t, bits), Val::F(f) if f.is_nan());
    }
    bits == held(t, val(t, want_text))
}

fn boolean(text: &str) -> bool {
    match text {
        "true" => true,
        "false" => false,
        _ => panic!("expected true or false, not {text}"),
    }
}

fn cond(text: &str) -> CondMod {
    CondMod::parse(text).unwrap_or_else(|| panic!("unknown conditional modifier {text}"))
}

/// Runs one case line; `Err` says what differs.
fn case(line: &str) -> Result<(), String> {
    let (lhs, want) = line.split_once("=>").ok_or("no =>")?;
    let (head, inputs) = match lhs.split_once(':') {
        Some((h, i)) => (h, i.split_whitespace().collect::<Vec<_>>()),
        None => (lhs, Vec::new()),
    };
    let head: Vec<&str> = head.split_whitespace().collect();
    let mut want = want.split_whitespace();
    let expected = want.next().ok_or("no expected value")?;
    match head.as_slice() {
        ["eval", op, dst, srcs @ ..] => {
            let (mnemonic, sub) = match op.split_once('.') {
                Some((m, s)) => (m, Some(s)),
                None => (*op, None),
            };
            let row = alu::find(mnemonic, sub).ok_or("no row")?;
            let mut t = Types {
                dst: ty(dst),
                src: [Type::UD; 3],
            };
            let mut s = [Val::I(0); 3];
            for (k, name) in srcs.iter().enumerate() {
                t.src[k] = ty(name);
                s[k] = val(t.src[k], inputs.get(k).ok_or("missing input")?);
            }
            let mut mode = FloatMode::from_cr0(FloatMode::IEEE_CR0);
            let mut acc_in = Val::I(0);
            let mut acc_want = None;
            for extra in want {
                match extra.split_once('=') {
                    Some(("cr0", v)) => {
                        mode = FloatMode::from_cr0(
                            u32::from_str_radix(v.trim_start_matches("0x"), 16).unwrap(),
                        )
                    }
                    Some(("accin", v)) => acc_in = val(t.dst, v),
                    Some(("acc", v)) => acc_want = Some(v),
                    _ => return Err(format!("unknown option {extra}")),
                }
            }
            let got = (row.eval)(&t, mode, &s, acc_in);
            if !same(t.dst, got.value, expected) {
                return Err(format!("got {:?}", got.value));
            }
            match (acc_want, got.acc) {
                (None, _) => Ok(()),
                (Some(w), Some(a)) if same(t.dst, a, w) => Ok(()),
                (Some(_), a) => Err(format!("accumulator {a:?}")),
            }
        }
        ["cmp", op, cm, t] => {
            let row = alu::find(op, None).ok_or("no row")?;
            let t = ty(t);
            let got = alu::compare_op(row, cond(cm), val(t, inputs[0]), val(t, inputs[1]), t);
            (got == boolean(expected))
                .then_some(())
                .ok_or(format!("got {got}"))
        }
        ["sel", cm, t] => {
            let t = ty(t);
            let (a, b) = (val(t, inputs[0]), val(t, inputs[1]));
            let got = alu::select(cond(cm), a, b, t);
            if !same(t, got, expected) {
                return Err(format!("got {got:?}"));
            }
            // `compare_op` of the sel row says whether src0 is the pick: the same answer.
            // (-0 and +0 differ in bits, so `same` tells them apart.)
            let sel = alu::find("sel", None).ok_or("no sel")?;
            let first = alu::compare_op(sel, cond(cm), a, b, t);
            let via_compare = if first { a } else { b };
            same(t, via_compare, expected)
                .then_some(())
                .ok_or(format!("compare picks {via_compare:?}"))
        }
        ["cond", cm, t] => {
            let t = ty(t);
            let v = if is_float(t) {
                val(t, inputs[0])
            } else {
                val(Type::Q, inputs[0])
            };
            let got = alu::condition(cond(cm), v, t);
            (got == boolean(expected))
                .then_some(())
                .ok_or(format!("got {got}"))
        }
        ["mod", op, m, t] => {
            let row = alu::find(op, None).ok_or("no row")?;
            let t = ty(t);
            let m = SrcMod::parse(m).ok_or("bad modifier")?;
            let got = alu::source_modifier(row, t, m, val(t, inputs[0]));
            if matches!(got, Val::I(_)) {
                // Integer modifiers give exact values; compare them exactly.
                return (got == val(Type::Q, expected))
                    .then_some(())
                    .ok_or(format!("got {got:?}"));
            }
            same(t, got, expected)
                .then_some(())
                .ok_or(format!("got {got:?}"))
        }
        ["bfn", text] => {
            let got = alu::bfn_function(text);
            let want = (expected != "none").then(|| {
                u8::from_str_radix(expected.trim_start_matches("0x"), 16).expect("hex table")
            });
            (got == want).then_some(()).ok_or(format!("got {got:?}"))
        }
        _ => Err("unknown case form".into()),
    }
}

#[test]
fn tables() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/alu");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/alu")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cases"))
        .collect();
    files.sort();
    let (mut failures, mut count) = (Vec::new(), 0);
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap().trim();
            if line.is_empty() {
                continue;
            }
            count += 1;
            let name = file.file_name().unwrap().to_string_lossy();
            if let Err(e) =
                std::panic::catch_unwind(|| case(line)).unwrap_or_else(|_| Err("panicked".into()))
            {
                failures.push(format!("{name}:{}: {line}: {e}", n + 1));
            }
        }
    }
    assert!(count > 100, "only {count} cases");
    assert!(
        failures.is_empty(),
        "{} of {count} cases fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every op IGC emits for compute has a row, and every row is found by its name.
#[test]
fn table_covers_the_ops() {
    for op in [
        "mov", "movi", "sel", "csel", "not", "and", "or", "xor", "shr", "shl", "asr", "ror", "rol",
        "bfrev", "bfe", "bfi1", "bfi2", "fbh", "fbl", "cbit", "lzd", "addc", "subb", "add", "add3",
        "avg", "mul", "mach", "macl", "mad", "madm", "mac", "lrp", "dp2", "dp3", "dp4", "dph",
        "frc", "rndd", "rnde", "rndu", "rndz", "dp4a", "srnd", "cmp", "cmpn",
    ] {
        assert!(alu::find(op, None).is_some(), "{op}");
    }
    for f in [
        "inv", "log", "exp", "sqt", "rsqt", "sin", "cos", "pow", "fdiv", "idiv", "iqot", "irem",
        "invm", "rsqtm",
    ] {
        assert!(alu::find("math", Some(f)).is_some(), "math.{f}");
    }
    assert!(alu::find("math", None).is_none());
    assert!(alu::find("math", Some("nope")).is_none());
    for row in alu::ops() {
        let sub = match row.mnemonic {
            "bfn" => format!("0x{:02X}", row.function),
            _ => row.subop.unwrap_or_default().to_string(),
        };
        let found = alu::find(row.mnemonic, (!sub.is_empty()).then_some(sub.as_str()));
        assert!(
            found.is_some_and(|f| std::ptr::eq(f, row)),
            "{} {sub}",
            row.mnemonic
        );
    }
    assert_eq!(alu::ops().filter(|o| o.mnemonic == "bfn").count(), 256);
}

/// `dp4`/`dph` over one group of channels.
#[test]
fn dot_products() {
    let f = |v: f64| Val::F(v);
    let t = Types {
        dst: Type::F,
        src: [Type::F; 3],
    };
    let mode = FloatMode::from_cr0(FloatMode::IEEE_CR0);
    let a = [f(1.0), f(2.0), f(3.0), f(4.0)];
    let b = [f(5.0), f(6.0), f(7.0), f(8.0)];
    let dp4 = alu::find("dp4", None).unwrap();
    assert_eq!(alu::dot(dp4, &t, mode, &a, &b), f(70.0));
    let dph = alu::find("dph", None).unwrap();
    assert_eq!(alu::dot(dph, &t, mode, &a, &b), f(38.0 + 8.0));
    let dp2 = alu::find("dp2", None).unwrap();
    assert_eq!(alu::dot(dp2, &t, mode, &a, &b), f(17.0));
}

/// Before XeHPC, `mach` without `{AccWrEn}` is IGC's dword multiply (the low half);
/// with it, `mulh` (the high half). XeHPC spells the first `macl`.
#[test]
fn mach_keeps_the_half_its_form_says() {
    let text = "//.platform TGLLP\n\
        (W) mach (1|M0) r3.0<1>:d r9.0<0;1,0>:d r0.1<0;1,0>:d\n\
        mach (8|M0) r22.0<1>:d r14.0<8;8,1>:ud 0x9E3779B9:ud {AccWrEn}\n";
    let listing = gpukit_iga::read::text::parse_text(text, None).expect("parses");
    let insts: Vec<_> = listing.insts().collect();
    let gen = gpukit_iga::syntax::Gen::Xe;
    assert_eq!(
        alu::find_for(insts[0], gen).map(|o| o.mnemonic),
        Some("macl")
    );
    assert_eq!(
        alu::find_for(insts[1], gen).map(|o| o.mnemonic),
        Some("mach")
    );
    let hpc = gpukit_iga::syntax::Gen::XeHpc;
    assert_eq!(
        alu::find_for(insts[0], hpc).map(|o| o.mnemonic),
        Some("mach")
    );
}

/// The text readers on every truncation and byte mutation of real spellings (IGA's
/// `bfn` functions, an `.asm` dump): a table or `None`, ids or not, never a panic;
/// and every row on pseudo-random lane values of every type pairing.
#[test]
fn sweep_never_panics() {
    let mut seeds: Vec<String> = ["(s0&s1|~s0&s2)", "((~s0|~s1)^~s2)", "0xCA", "s0^s1|s2"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let dump = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/gen/run/scale_copy.tgllp-deb12.broken.asm");
    seeds.push(std::fs::read_to_string(dump).expect("fixture"));
    for seed in &seeds {
        let bytes = seed.as_bytes();
        for cut in 0..=bytes.len().min(400) {
            let text = String::from_utf8_lossy(&bytes[..cut]);
            let _ = alu::bfn_function(&text);
            let _ = gpukit_gen::locate::visa_ids(&text);
        }
        for at in 0..bytes.len().min(64) {
            for b in [b'(', b')', b'~', b's', b'9', b'$', b'/', b' ', 0xFF] {
                let mut m = bytes.to_vec();
                m[at] = b;
                let text = String::from_utf8_lossy(&m);
                let _ = alu::bfn_function(&text);
                let _ = gpukit_gen::locate::visa_ids(&text);
            }
        }
    }
    let types = [
        Type::UD,
        Type::D,
        Type::UW,
        Type::W,
        Type::UB,
        Type::B,
        Type::DF,
        Type::F,
        Type::UQ,
        Type::Q,
        Type::HF,
        Type::BF,
    ];
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..3000 {
        let r = next();
        let pick = |k: u32| types[(r >> (8 * k)) as usize % types.len()];
        let t = Types {
            dst: pick(0),
            src: [pick(1), pick(2), pick(3)],
        };
        let s = [
            decode(t.src[0], next()),
            decode(t.src[1], next()),
            decode(t.src[2], next()),
        ];
        let mode = FloatMode::from_cr0((r >> 40) as u32 & 0xF0);
        let acc = decode(t.dst, next());
        for op in alu::ops().step_by(1 + (r % 7) as usize) {
            let out = (op.eval)(&t, mode, &s, acc);
            let _ = held(t.dst, out.value);
            for cm in [CondMod::Eq, CondMod::Lt, CondMod::Ov, CondMod::Un] {
                let _ = alu::condition(cm, out.value, t.dst);
                let _ = alu::compare_op(op, cm, s[0], s[1], t.src[0]);
            }
        }
    }
}
