//! IGA assembly text -> listing model: the mirror of `render.rs`. Reads what
//! `iga64 -d` prints and IGC's shader dump (`.asm`: the same syntax after a
//! `//` header, with `// $N` vISA instruction numbers after each instruction).
//!
//! The text shows less than the JSON for a few things, which are derived as
//! iga64 derives them when it writes JSON: send payload lengths and surfaces
//! from the message descriptors (`send_message`), the shared function of a
//! pre-Xe unary send from its extended descriptor, and the JSON's four-digit
//! label names. What the text shows and JSON 1.0 does not keep (branch
//! operand types, the branch-control bit) is read and dropped.
//!
//! One line at a time, no recursion; every loop is bounded by the line's length.

use crate::error::{Error, ErrorKind};
use crate::limits;
use crate::model::*;
use crate::ops;
use crate::syntax::{self, Gen};

/// A syntax error at `offset` in `src`: the token found and what was expected.
fn err(src: &str, offset: usize, found: &str, expected: &str) -> Box<Error> {
    let found = if found.is_empty() {
        "end of line".to_string()
    } else {
        format!("`{}`", found.chars().take(40).collect::<String>())
    };
    Box::new(Error::at(
        ErrorKind::Syntax,
        src,
        offset,
        "$".into(),
        format!("expected {expected}, found {found}"),
    ))
}

/// One whitespace-separated token of a line and where it starts in the input.
#[derive(Clone, Copy)]
struct Tok<'a> {
    s: &'a str,
    at: usize,
}

/// Reads a listing from assembly text. The platform comes from IGC's
/// `//.platform` header when there is one, else from `platform` (any spelling
/// [`syntax::platform_name`] knows).
pub fn parse_text(src: &str, platform: Option<&str>) -> Result<Listing, Box<Error>> {
    if src.len() > limits::MAX_INPUT_BYTES {
        return Err(err(src, 0, "", "an input under the size limit"));
    }
    let header = src
        .lines()
        .take_while(|l| l.trim_start().starts_with("//") || l.trim().is_empty())
        .find_map(|l| l.trim_start().strip_prefix("//.platform "));
    let platform = match header.or(platform) {
        Some(p) => match syntax::platform_name(p) {
            Some(n) => n,
            None => {
                return Err(err(
                    src,
                    0,
                    p,
                    "a platform iga64 knows (9, 11, 12p1, 12p71, 12p72)",
                ))
            }
        },
        None => return Err(Box::new(Error::at(
            ErrorKind::Syntax,
            src,
            0,
            "$".into(),
            "the text names no platform (iga64 -d writes none): give one, e.g. `--platform 12p1`"
                .into(),
        ))),
    };
    let gen = syntax::gen_of(platform);
    let mut elems = Vec::new();
    let mut id = 0i64;
    let mut line_start = 0usize;
    for raw in src.split_inclusive('\n') {
        let start = line_start;
        line_start += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let code_end = line.find("//").unwrap_or(line.len());
        let code = &line[..code_end];
        let comment = line.get(code_end + 2..).map(str::trim);
        let trimmed = code.trim();
        if trimmed.is_empty() {
            continue;
        }
        if elems.len() >= limits::MAX_ELEMS {
            return Err(err(src, start, trimmed, "fewer listing elements"));
        }
        let at = start + (trimmed.as_ptr() as usize - code.as_ptr() as usize);
        if let Some(name) = trimmed.strip_suffix(':') {
            if name.is_empty()
                || !name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'.')
            {
                return Err(err(src, at, trimmed, "a label name"));
            }
            elems.push(Element::Label(Box::new(Label {
                id: None,
                pc: None,
                symbol: syntax::label_symbol(name),
                preds: Vec::new(),
                succs: Vec::new(),
                extra: Vec::new(),
            })));
            continue;
        }
        id += 1;
        let toks: Vec<Tok<'_>> = code
            .split_ascii_whitespace()
            .map(|s| Tok {
                s,
                at: start + (s.as_ptr() as usize - line.as_ptr() as usize),
            })
            .collect();
        let inst = instruction(src, &toks, comment, id, gen, start + code_end)?;
        elems.push(Element::Inst(Box::new(inst)));
    }
    Ok(Listing {
        version: Version::V1,
        platform: platform.to_string(),
        elems,
        extra: Vec::new(),
    })
}

/// The part of an end-of-line comment that is iga64's, without what IGC's dump
/// adds (`// $N` and `; $N` vISA instruction numbers).
fn own_comment(c: &str) -> &str {
    let c = c.trim();
    let c = match c.rfind("//") {
        Some(k) if c[k + 2..].trim().starts_with('$') => c[..k].trim_end(),
        _ => c,
    };
    match c.rfind(';') {
        Some(k) if c[k + 1..].trim().starts_with('$') => c[..k].trim_end(),
        _ if c.starts_with('$') => "",
        _ => c,
    }
}

fn is_flag_modifier(s: &str) -> bool {
    s.strip_prefix('(')
        .and_then(|r| r.split_once(')'))
        .is_some_and(|(c, f)| {
            !c.is_empty() && c.bytes().all(|b| b.is_ascii_lowercase()) && f.starts_with('f')
        })
}

fn instruction(
    src: &str,
    toks: &[Tok<'_>],
    comment: Option<&str>,
    id: i64,
    gen: Gen,
    eol: usize,
) -> Result<Instruction, Box<Error>> {
    let mut k = 0;
    let mut i = Instruction {
        id,
        pc: None,
        pred: None,
        wren: false,
        op: String::new(),
        subop: None,
        exec_size: 1,
        exec_offset: 0,
        flag_modifier: None,
        flag_reg: None,
        implicit: None,
        dst: None,
        srcs: Vec::new(),
        reg_dist: None,
        sbid: None,
        opts: Vec::new(),
        encoding: None,
        live_totals: None,
        comment: None,
        extra: Vec::new(),
    };
    let tok = |k: usize| toks.get(k).copied().unwrap_or(Tok { s: "", at: eol });
    // Predication and NoMask: `(W)`, `(f0.0)`, `(W&~f1.0.any16h)`.
    let t = tok(k);
    if let Some(inner) = t.s.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        let pred = match inner.strip_prefix('W') {
            Some(rest) => {
                i.wren = true;
                rest.strip_prefix('&')
            }
            None => Some(inner),
        };
        if let Some(p) = pred.filter(|p| !p.is_empty()) {
            let (inv, p) = match p.strip_prefix('~') {
                Some(p) => (true, p),
                None => (false, p),
            };
            let (reg, func) =
                flag_reg(p).ok_or_else(|| err(src, t.at, t.s, "a predicate such as `(f0.0)`"))?;
            i.flag_reg = Some(reg);
            i.pred = Some(Box::new(Predicate {
                inv,
                func: func.to_string(),
                defs: Vec::new(),
                extra: Vec::new(),
            }));
        } else if pred.is_some() {
            return Err(err(src, t.at, t.s, "a predicate after `W&`"));
        }
        k += 1;
    }
    // Mnemonic and subfunction.
    let t = tok(k);
    if t.s.is_empty() || !t.s.starts_with(|c: char| c.is_ascii_lowercase()) {
        return Err(err(src, t.at, t.s, "a mnemonic"));
    }
    let (op, sub) = match t.s.split_once('.') {
        Some((o, s)) => (o, Some(s)),
        None => (t.s, None),
    };
    i.op = op.to_string();
    let attrs = ops::attrs(op);
    // The branch-control bit (`goto.b`) is not in JSON 1.0.
    i.subop = sub
        .filter(|_| attrs & ops::BRANCH_CTRL == 0)
        .map(str::to_string);
    k += 1;
    // Execution size.
    let t = tok(k);
    if let Some(inner) = t.s.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        if let Some((size, off)) = inner.split_once("|M") {
            i.exec_size = size
                .parse()
                .map_err(|_| err(src, t.at, t.s, "an execution size such as `(16|M0)`"))?;
            i.exec_offset = off
                .parse()
                .map_err(|_| err(src, t.at, t.s, "an execution size such as `(16|M0)`"))?;
            k += 1;
        }
    }
    // Flag modifier.
    let t = tok(k);
    if is_flag_modifier(t.s) {
        let (cond, f) = t.s[1..].split_once(')').unwrap_or_default();
        let (reg, rest) = flag_reg(f).ok_or_else(|| err(src, t.at, t.s, "a flag register"))?;
        if !rest.is_empty() {
            return Err(err(src, t.at, t.s, "a flag modifier such as `(lt)f0.0`"));
        }
        // A `sel` with a condition is a min/max and writes no flag: the JSON
        // names a flag register only when a predicate reads one.
        if !(op == "sel" && i.pred.is_none()) {
            i.flag_reg = Some(reg);
        }
        i.flag_modifier = Some(Box::new(FlagModifier {
            cond: cond.to_string(),
            uses: Vec::new(),
            extra: Vec::new(),
        }));
        k += 1;
    }
    // Operands up to the options.
    let end = toks[k..]
        .iter()
        .position(|t| t.s.starts_with('{'))
        .map_or(toks.len(), |p| k + p);
    let operands = &toks[k..end];
    if end < toks.len() {
        options(src, &toks[end..], &mut i)?;
    }
    if operands.len() > limits::MAX_SRCS {
        return Err(err(
            src,
            operands[limits::MAX_SRCS].at,
            operands[limits::MAX_SRCS].s,
            "fewer operands",
        ));
    }
    let ldst = crate::message::is_lsc_mnemonic(op)
        && sub.is_some_and(|s| matches!(s.split('.').next(), Some("ugm" | "ugml" | "slm" | "tgm")));
    if ldst {
        ldst_operands(src, operands, &mut i, eol)?;
    } else if i.is_send() {
        send_operands(src, operands, comment, gen, &mut i, eol)?;
    } else {
        let mut rest = operands;
        if attrs & ops::NO_DST == 0 {
            let Some((d, r)) = rest.split_first() else {
                return Err(err(src, eol, "", "a destination"));
            };
            i.dst = Some(Box::new(dst_operand(src, *d, &i, gen)?));
            rest = r;
        }
        let ternary = rest.len() == 3 && !ops::has(op, ops::DPAS);
        for (n, s) in rest.iter().enumerate() {
            let o = src_operand(src, *s, &i, n, ternary)?;
            i.srcs.push(o);
        }
        i.comment = comment
            .map(own_comment)
            .filter(|c| !c.is_empty())
            .map(str::to_string);
    }
    Ok(i)
}

/// `f1.0` followed by anything (a predicate function such as `.any16h`).
fn flag_reg(s: &str) -> Option<(Reg, &str)> {
    let (reg, rest) = register(s)?;
    (reg.name == "f").then_some((reg, rest))
}

/// A register `name[num][.sub]`, and the text after it.
fn register(s: &str) -> Option<(Reg, &str)> {
    let name_len = s.bytes().take_while(u8::is_ascii_lowercase).count();
    if name_len == 0 {
        return None;
    }
    let (name, rest) = s.split_at(name_len);
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let num = if digits == 0 {
        if syntax::has_reg_num(name) {
            return None;
        }
        0
    } else {
        rest[..digits].parse().ok()?
    };
    let rest = &rest[digits..];
    let (sub, rest) = match rest.strip_prefix('.') {
        Some(r) if r.starts_with(|c: char| c.is_ascii_digit()) => {
            let d = r.bytes().take_while(u8::is_ascii_digit).count();
            (r[..d].parse().ok()?, &r[d..])
        }
        _ => (0, rest),
    };
    Some((
        Reg {
            name: name.to_string(),
            num,
            sub,
        },
        rest,
    ))
}

/// Splits `body:type` at the type suffix (the last `:` followed by letters).
fn split_type(s: &str) -> (&str, Option<&str>) {
    match s.rfind(':') {
        Some(k)
            if s[k + 1..].bytes().all(|b| b.is_ascii_alphanumeric()) && !s[k + 1..].is_empty() =>
        {
            (&s[..k], Some(&s[k + 1..]))
        }
        _ => (s, None),
    }
}

fn ints<const N: usize>(s: &str, sep: &[char]) -> Option<[i64; N]> {
    let mut out = [0; N];
    let mut parts = s.split(sep);
    for o in out.iter_mut() {
        *o = parts.next()?.parse().ok()?;
    }
    parts.next().is_none().then_some(out)
}

/// The register part of a direct or indirect operand, its region text, the rest.
fn reg_operand(s: &str) -> Option<(OperandKind, Option<&str>)> {
    let (reg_part, region) = match s.find('<') {
        Some(k) => (&s[..k], Some(s[k..].strip_prefix('<')?.strip_suffix('>')?)),
        None => (s, None),
    };
    if let Some(inner) = reg_part
        .strip_prefix("r[")
        .and_then(|r| r.strip_suffix(']'))
    {
        let (a, off) = match inner.split_once(',') {
            Some((a, o)) => (a, o.parse().ok()?),
            None => (inner, 0),
        };
        let (reg, rest) = register(a)?;
        if !rest.is_empty() {
            return None;
        }
        let mut r = RegOperand::new(reg);
        r.aoff = off;
        return Some((OperandKind::Indirect(r), region));
    }
    let (reg, rest) = register(reg_part)?;
    if rest.is_empty() {
        return Some((OperandKind::Direct(RegOperand::new(reg)), region));
    }
    // A math macro register: `r4.mme0`, `acc2.nomme`.
    let mme = rest.strip_prefix('.')?;
    if !(mme == "nomme" || mme.starts_with("mme")) {
        return None;
    }
    let mut r = RegOperand::new(reg);
    r.mme = Some(mme.to_string());
    Some((OperandKind::Macro(r), region))
}

fn is_branching_untyped(i: &Instruction, gen: Gen) -> bool {
    gen >= Gen::Xe && crate::cfg::is_branching(&i.op)
}

fn dst_operand(src: &str, t: Tok<'_>, i: &Instruction, gen: Gen) -> Result<Operand, Box<Error>> {
    let bad = || err(src, t.at, t.s, "a destination operand such as `r3.0<1>:d`");
    let (sat, body) = match t.s.strip_prefix("(sat)") {
        Some(b) => (true, b),
        None => (false, t.s),
    };
    let (body, ty) = split_type(body);
    let (mut kind, region) = reg_operand(body).ok_or_else(bad)?;
    let r = match &mut kind {
        OperandKind::Direct(r) | OperandKind::Indirect(r) | OperandKind::Macro(r) => r,
        _ => return Err(bad()),
    };
    r.sat = sat;
    r.rgn = match region {
        Some(h) => Some(Region {
            v: None,
            w: None,
            h: h.parse().map_err(|_| bad())?,
        }),
        None => None,
    };
    r.ty = ty.map(str::to_string);
    if is_branching_untyped(i, gen) && r.ty.is_none() {
        // Xe prints no types on branches; the encoding's (and JSON's) is D.
        r.ty = Some("d".into());
    }
    Ok(Operand {
        kind,
        extra: Vec::new(),
    })
}

fn is_immediate(s: &str) -> bool {
    let s = s.strip_prefix('-').unwrap_or(s);
    s.starts_with(|c: char| c.is_ascii_digit())
        || s.starts_with("inf")
        || s.starts_with("qnan")
        || s.starts_with("snan")
        || s.starts_with("nan")
}

fn src_operand(
    src: &str,
    t: Tok<'_>,
    i: &Instruction,
    n: usize,
    ternary: bool,
) -> Result<Operand, Box<Error>> {
    let imm = |value: String, ty: Option<&str>| Operand {
        kind: OperandKind::Immediate {
            value,
            ty: ty.map(str::to_string),
            defs: Vec::new(),
        },
        extra: Vec::new(),
    };
    // `sync.allrd ($1,$3)`: an SBID mask.
    if let Some(set) = t.s.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        if i.op == "sync" {
            let mut mask = 0u64;
            for s in set.split(',').filter(|s| !s.is_empty()) {
                let b: u32 = s
                    .strip_prefix('$')
                    .and_then(|b| b.parse().ok())
                    .filter(|b| *b < 64)
                    .ok_or_else(|| err(src, t.at, t.s, "an SBID set such as `($1,$3)`"))?;
                mask |= 1 << b;
            }
            return Ok(imm(format!("0x{mask:X}"), None));
        }
    }
    if is_immediate(t.s) {
        let (v, ty) = split_type(t.s);
        return Ok(imm(v.to_string(), ty));
    }
    let logic = ops::has(&i.op, ops::LOGIC);
    let (mods, body) = syntax::src_mods(logic)
        .into_iter()
        .find_map(|(p, m)| t.s.strip_prefix(p).map(|b| (m, b)))
        .unwrap_or((SrcMod::None, t.s));
    let (body, ty) = split_type(body);
    let Some((mut kind, region)) = reg_operand(body) else {
        if crate::cfg::is_branching(&i.op) && mods == SrcMod::None && !body.is_empty() {
            return Ok(Operand {
                kind: OperandKind::Label {
                    target: syntax::label_symbol(body),
                    ty: None,
                    defs: Vec::new(),
                },
                extra: Vec::new(),
            });
        }
        return Err(err(
            src,
            t.at,
            t.s,
            "a source operand (register, immediate or label)",
        ));
    };
    let bad = || err(src, t.at, t.s, "a region such as `<8;8,1>`");
    let r = match &mut kind {
        OperandKind::Direct(r) | OperandKind::Indirect(r) | OperandKind::Macro(r) => r,
        _ => unreachable!("reg_operand makes register operands"),
    };
    r.mods = mods;
    r.ty = ty.map(str::to_string);
    r.rgn = match region {
        None => None,
        Some(g) if ternary && n == 2 => {
            let [v] = ints::<1>(g, &[]).ok_or_else(bad)?;
            Some(Region {
                v: Some(v),
                w: Some(1),
                h: 0,
            })
        }
        Some(g) if ternary => {
            let [v, h] = ints::<2>(g, &[';']).ok_or_else(bad)?;
            let w = if h == 0 {
                1
            } else {
                v.checked_div(h).unwrap_or(0)
            };
            Some(Region {
                v: Some(v),
                w: Some(w),
                h,
            })
        }
        Some(g) if g.contains(';') => {
            let [v, w, h] = ints::<3>(g, &[';', ',']).ok_or_else(bad)?;
            Some(Region {
                v: Some(v),
                w: Some(w),
                h,
            })
        }
        Some(g) => {
            let [w, h] = ints::<2>(g, &[',']).ok_or_else(bad)?;
            Some(Region {
                v: None,
                w: Some(w),
                h,
            })
        }
    };
    if i.op == "sync" && r.reg.name == "null" && r.ty.is_none() {
        // iga64 prints `sync.nop null` without the encoding's UB.
        r.ty = Some("ub".into());
    }
    if crate::cfg::is_branching(&i.op) {
        // JSON 1.0 keeps neither on branch sources.
        r.rgn = None;
        r.ty = None;
    }
    if matches!(kind, OperandKind::Indirect(_)) && r_rgn_is_inferred(&kind, i.exec_size) {
        if let OperandKind::Indirect(r) = &mut kind {
            r.rgn = None;
        }
    }
    Ok(Operand {
        kind,
        extra: Vec::new(),
    })
}

/// iga64's JSON has no region for an indirect source whose region is the default.
fn r_rgn_is_inferred(kind: &OperandKind, exec_size: i64) -> bool {
    match kind {
        OperandKind::Indirect(r) => {
            r.rgn == Some(crate::convert::inferred_indirect_region(exec_size))
        }
        _ => false,
    }
}

/// `{Switch,Compacted,@2,$3.dst}`: options, register distance and SBID.
fn options(src: &str, toks: &[Tok<'_>], i: &mut Instruction) -> Result<(), Box<Error>> {
    let first = toks[0];
    let joined: String = toks.iter().map(|t| t.s).collect();
    let Some(inner) = joined.strip_prefix('{').and_then(|r| r.strip_suffix('}')) else {
        return Err(err(
            src,
            first.at,
            first.s,
            "instruction options such as `{Compacted}`",
        ));
    };
    for o in inner.split(',').filter(|o| !o.is_empty()) {
        if let Some(sb) = o.strip_prefix('$') {
            let digits = sb.bytes().take_while(u8::is_ascii_digit).count();
            let (n, func) = sb.split_at(digits);
            let id = n
                .parse::<i64>()
                .ok()
                .filter(|id| *id <= 255 && matches!(func, "" | ".src" | ".dst"))
                .ok_or_else(|| err(src, first.at, o, "an SBID such as `$3` or `$3.dst`"))?;
            i.sbid = Some(Box::new(Sbid {
                id,
                func: func.to_string(),
                extra: Vec::new(),
            }));
        } else if o.contains('@') {
            i.reg_dist = Some(o.to_string());
        } else {
            i.opts.push(o.to_string());
        }
    }
    Ok(())
}

fn hex(s: &str) -> Option<u64> {
    let h = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"))?;
    u64::from_str_radix(h, 16).ok()
}

/// A send descriptor: an immediate (the JSON drops leading zeros) or `a0.N`.
fn descriptor(src: &str, t: Tok<'_>) -> Result<(Operand, Option<u64>), Box<Error>> {
    if let Some(v) = hex(t.s) {
        let kind = OperandKind::Immediate {
            value: format!("0x{v:X}"),
            ty: None,
            defs: Vec::new(),
        };
        return Ok((
            Operand {
                kind,
                extra: Vec::new(),
            },
            Some(v),
        ));
    }
    match register(t.s) {
        Some((reg, "")) if reg.name == "a" => Ok((
            Operand {
                kind: OperandKind::Direct(RegOperand::new(reg)),
                extra: Vec::new(),
            },
            None,
        )),
        _ => Err(err(
            src,
            t.at,
            t.s,
            "a send descriptor (hex immediate or `a0.N`)",
        )),
    }
}

/// A send payload register: `r12`, `r12:w` (pre-Xe type), `r11:2` (XeHPG length), `null`.
/// Returns the register, the length and the printed type (`""` for none).
fn payload<'t>(src: &str, t: Tok<'t>) -> Result<(Reg, Option<i64>, &'t str), Box<Error>> {
    let (body, suffix) = match t.s.split_once(':') {
        Some((b, s)) => (b, s),
        None => (t.s, ""),
    };
    match register(body) {
        Some((reg, "")) => match suffix.parse::<i64>() {
            Ok(len) => Ok((reg, Some(len), "")),
            Err(_) if suffix.bytes().all(|b| b.is_ascii_lowercase()) => Ok((reg, None, suffix)),
            Err(_) => Err(err(src, t.at, t.s, "a payload length or type after `:`")),
        },
        _ => Err(err(src, t.at, t.s, "a send payload register such as `r12`")),
    }
}

/// The message description in iga64's send comment, without the payload sizes,
/// the pre-Xe shared function name, and the `u` iga64 appends to typed writes.
fn message_text<'c>(comment: &'c str, gen: Gen, sfid: Option<&str>) -> &'c str {
    let mut rest = comment;
    if rest.starts_with("wr:") {
        rest = rest.split_once("; ").map_or("", |(_, r)| r);
    }
    if gen < Gen::Xe {
        if let Some(s) = sfid {
            let name = syntax::sfid_text(s);
            if let Some(r) = rest.strip_prefix(name) {
                rest = r.strip_prefix("; ").unwrap_or(r);
            }
        }
    }
    if rest.starts_with("typed surface write") {
        rest = rest.strip_suffix("; u").unwrap_or(rest);
    }
    rest
}

/// Lengths from iga64's send comment (`wr:2h+2, rd:4`), when the descriptor is a register.
fn comment_lengths(c: &str) -> Option<(i64, i64, i64)> {
    let rest = c.strip_prefix("wr:")?;
    let (w, rest) = rest.split_once(", rd:")?;
    let (m, x) = w.split_once('+')?;
    let rd = rest.split(';').next()?.trim();
    Some((
        m.trim_end_matches('h').parse().ok()?,
        x.parse().ok()?,
        rd.parse().ok()?,
    ))
}

fn send_operands(
    src: &str,
    toks: &[Tok<'_>],
    comment: Option<&str>,
    gen: Gen,
    i: &mut Instruction,
    eol: usize,
) -> Result<(), Box<Error>> {
    let unary = ops::has(&i.op, ops::UNARY_SEND);
    // Xe's unary send prints a second payload (`null` when it has none).
    let n_payloads = if unary && gen < Gen::Xe { 1 } else { 2 };
    let want = 1 + n_payloads + 2;
    if toks.len() != want {
        let t = toks.get(want).copied().unwrap_or(Tok { s: "", at: eol });
        return Err(err(
            src,
            t.at,
            t.s,
            &format!("{want} send operands (destination, payloads, descriptors)"),
        ));
    }
    let (dst, _, dst_type) = payload(src, toks[0])?;
    let (src0, _, src0_type) = payload(src, toks[1])?;
    let src1 = if n_payloads == 2 {
        Some(payload(src, toks[2])?)
    } else {
        None
    };
    let (ex_op, ex_desc) = descriptor(src, toks[want - 2])?;
    let (desc_op, desc) = descriptor(src, toks[want - 1])?;
    let comment = comment.map(own_comment).unwrap_or("");
    let sfid = if gen >= Gen::Xe {
        i.subop.clone()
    } else {
        ex_desc
            .and_then(|e| syntax::sfid_name(e & 0xF))
            .map(str::to_string)
    };
    if unary && gen < Gen::Xe {
        i.subop = sfid.clone();
    }
    let ex_desc_reg = match &ex_op.kind {
        OperandKind::Direct(r) => Some(&r.reg),
        _ => None,
    };
    let described = message_text(comment, gen, sfid.as_deref());
    let msg = crate::message::decode(
        gen,
        sfid.as_deref(),
        ex_desc,
        ex_desc_reg,
        desc,
        i.exec_size,
        described,
    );
    let (mlen, xlen, rlen) = match (desc, comment_lengths(comment)) {
        (Some(d), _) => {
            let x = match (&src1, ex_desc) {
                (Some((_, Some(l), _)), _) => *l,
                (_, Some(e)) => ((e >> 6) & 0x1F) as i64,
                _ => 0,
            };
            (((d >> 25) & 0xF) as i64, x, ((d >> 20) & 0x1F) as i64)
        }
        (None, Some(l)) => l,
        (None, None) => (0, 0, 0),
    };
    i.dst = Some(Box::new(Operand {
        kind: OperandKind::Data(DataOperand {
            reg: dst,
            len: Some(rlen),
            defs: Vec::new(),
            printed_type: Some(dst_type.to_string()),
        }),
        extra: Vec::new(),
    }));
    i.srcs.push(Operand {
        kind: OperandKind::Address(Box::new(AddressOperand {
            reg: src0,
            len: mlen,
            defs: Vec::new(),
            offset: AddrOffset::Scalar(msg.addr_offset),
            scale: 1,
            surface: msg.surface,
            addr_extra: Vec::new(),
            printed_type: Some(src0_type.to_string()),
        })),
        extra: Vec::new(),
    });
    if let Some((reg, _, ty)) = src1 {
        i.srcs.push(Operand {
            kind: OperandKind::Data(DataOperand {
                reg,
                len: Some(xlen),
                defs: Vec::new(),
                printed_type: Some(ty.to_string()),
            }),
            extra: Vec::new(),
        });
    }
    i.srcs.push(ex_op);
    i.srcs.push(desc_op);
    i.comment = msg.description;
    Ok(())
}

/// An LSC message in load/store syntax (`-Xprint-ldst`, and IGC's dumps from
/// XeHPG on): `load.ugm.d32.a32 (16|M0) r11:2 bti[2][r4:2]`, `store... [r8:1] r44:1`,
/// `atomic_iadd... null:0 [r35:4] r27:4`. The model is iga64's JSON of that form:
/// a data destination (null for stores), the address, one data source.
fn ldst_operands(
    src: &str,
    toks: &[Tok<'_>],
    i: &mut Instruction,
    eol: usize,
) -> Result<(), Box<Error>> {
    let Some(ax) = toks.iter().position(|t| t.s.contains('[')) else {
        return Err(err(
            src,
            eol,
            "",
            "an address such as `bti[2][r4:2]` or `[r8:1]`",
        ));
    };
    let data = |t: Tok<'_>| -> Result<DataOperand, Box<Error>> {
        let (reg, len, _) = payload(src, t)?;
        Ok(DataOperand {
            reg,
            len: Some(len.unwrap_or(0)),
            defs: Vec::new(),
            printed_type: None,
        })
    };
    let null = || DataOperand {
        reg: Reg {
            name: "null".into(),
            num: 0,
            sub: 0,
        },
        len: Some(0),
        defs: Vec::new(),
        printed_type: None,
    };
    let (dst, after) = match (ax, toks.len() - ax - 1) {
        (0, n @ 0..=1) => (null(), n),
        (1, n @ 0..=1) => (data(toks[0])?, n),
        _ => {
            let t = toks.get(2).copied().unwrap_or(Tok { s: "", at: eol });
            return Err(err(
                src,
                t.at,
                t.s,
                "at most a destination, an address and a data source",
            ));
        }
    };
    let src1 = if after == 1 {
        data(toks[ax + 1])?
    } else {
        null()
    };
    let a = toks[ax];
    let bad = || {
        err(
            src,
            a.at,
            a.s,
            "an address such as `bti[2][r4:2]`, `ss[a0.2][r4:2]` or `[r8:1]`",
        )
    };
    let open = a.s.rfind('[').ok_or_else(bad)?;
    let (surf_text, addr) = a.s.split_at(open);
    let addr = addr
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .ok_or_else(bad)?;
    let (addr, offset) = match addr.find(['+', '-']) {
        Some(k) => {
            let o = &addr[k..];
            let v = o.trim_start_matches('+');
            let n = match v.strip_prefix('-') {
                Some(h) => hex(h)
                    .map(|x| (x as i64).wrapping_neg())
                    .or_else(|| h.parse::<i64>().ok().map(i64::wrapping_neg)),
                None => hex(v).map(|x| x as i64).or_else(|| v.parse().ok()),
            };
            (&addr[..k], n.ok_or_else(bad)?)
        }
        None => (addr, 0),
    };
    let (reg, len, _) = payload(
        src,
        Tok {
            s: addr,
            at: a.at + open + 1,
        },
    )?;
    let surface = if surf_text.is_empty() {
        Surface {
            addr_type: "flat".into(),
            offset: Some(SurfaceOffset::Imm(0)),
            defs: Vec::new(),
            extra: Vec::new(),
        }
    } else {
        let (ty, rest) = surf_text.split_once('[').ok_or_else(bad)?;
        let inner = rest.strip_suffix(']').ok_or_else(bad)?;
        let offset = match register(inner) {
            Some((r, "")) => SurfaceOffset::Reg(r),
            _ => SurfaceOffset::Imm(
                hex(inner)
                    .map(|v| v as i64)
                    .or_else(|| inner.parse().ok())
                    .ok_or_else(bad)?,
            ),
        };
        Surface {
            addr_type: ty.to_string(),
            offset: Some(offset),
            defs: Vec::new(),
            extra: Vec::new(),
        }
    };
    i.dst = Some(Box::new(Operand {
        kind: OperandKind::Data(dst),
        extra: Vec::new(),
    }));
    i.srcs.push(Operand {
        kind: OperandKind::Address(Box::new(AddressOperand {
            reg,
            len: len.unwrap_or(0),
            defs: Vec::new(),
            offset: AddrOffset::Scalar(offset),
            scale: 1,
            surface: Some(surface),
            addr_extra: Vec::new(),
            printed_type: None,
        })),
        extra: Vec::new(),
    });
    i.srcs.push(Operand {
        kind: OperandKind::Data(src1),
        extra: Vec::new(),
    });
    Ok(())
}
