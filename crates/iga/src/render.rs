//! Rendering a listing back to IGA assembly text, as iga64 prints a kernel
//! without `-Xprint-json`.
//!
//! iga64 lays an instruction out in fixed-width columns (predication,
//! mnemonic and execution size, flag modifier, destination, sources, send
//! descriptors). Two quirks of its column bookkeeping shape the spacing and
//! are reproduced here: text it writes straight to its output stream
//! (immediate values, label names, send descriptor values) does not count
//! towards a column's width, and a column that overflows takes its excess
//! out of the next column's padding.

use crate::cfg::branch_targets;
use crate::model::*;

/// Column widths of iga64's default layout.
mod width {
    pub const PREDICATION: usize = 7;
    pub const OPCODE: usize = 13;
    pub const FLAG_MODIFIER: usize = 9;
    pub const DST: usize = 12;
    pub const SRC: usize = 16;
    pub const SEND_DST: usize = 7;
    pub const SEND_SRC: usize = 6;
    pub const SEND_DESC: usize = 10;
}

/// Platform generations the layout depends on (IGA's `Platform` order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Gen {
    Gen9,
    Gen11,
    Xe,
    XeHp,
    XeHpg,
    XeHpc,
}

fn gen_of(platform: &str) -> Gen {
    match platform {
        "skl" | "gen9" | "bxt" | "kbl" | "glk" | "cfl" => Gen::Gen9,
        "icl" | "gen11" | "icllp" => Gen::Gen11,
        "xe" | "tgl" | "tgllp" | "gen12p1" => Gen::Xe,
        "xehp" => Gen::XeHp,
        "xehpg" | "dg2" => Gen::XeHpg,
        _ => Gen::XeHpc,
    }
}

/// One output line with iga64's column bookkeeping.
struct Line {
    text: String,
    counted: usize,
    col_start: usize,
    col_width: usize,
    debt: usize,
}

impl Line {
    fn new() -> Line {
        Line {
            text: String::new(),
            counted: 0,
            col_start: 0,
            col_width: 0,
            debt: 0,
        }
    }
    /// Text that counts towards column widths.
    fn emit(&mut self, s: &str) {
        self.text.push_str(s);
        self.counted += s.chars().count();
    }
    /// Text iga64 writes around its column bookkeeping.
    fn raw(&mut self, s: &str) {
        self.text.push_str(s);
    }
    fn spaces(&mut self, n: usize) {
        for _ in 0..n {
            self.emit(" ");
        }
    }
    fn start(&mut self, width: usize) {
        self.col_start = self.counted;
        self.col_width = width;
    }
    fn finish(&mut self) {
        let used = self.counted - self.col_start + self.debt;
        if used <= self.col_width {
            self.spaces(self.col_width - used);
            self.debt = 0;
        } else {
            self.debt = used - self.col_width;
        }
    }
}

/// The assembly text of a whole listing.
pub fn render(l: &Listing) -> String {
    let gen = gen_of(&l.platform);
    let mut out = String::new();
    for e in &l.elems {
        match e {
            Element::Label(lb) => {
                out.push_str(&label_text(&lb.symbol));
                out.push_str(":\n");
            }
            Element::Inst(i) => {
                out.push_str(&instruction(i, gen));
                out.push('\n');
            }
        }
    }
    out
}

/// JSON labels are `L` + the PC in at least four digits; the text drops the zeros.
fn label_text(symbol: &str) -> String {
    match symbol.strip_prefix('L') {
        Some(digits) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            format!(
                "L{}",
                digits.trim_start_matches('0').parse::<u64>().unwrap_or(0)
            )
        }
        _ => symbol.to_string(),
    }
}

/// Ops printed without an execution size (`nop`, `sync.*`, ...).
fn implicit_exec_size(op: &str) -> bool {
    matches!(op, "nop" | "sync" | "illegal" | "wait")
}

/// Ops with a destination operand.
fn has_dst(i: &Instruction) -> bool {
    i.dst.is_some()
}

fn is_ternary(i: &Instruction) -> bool {
    !i.is_send() && i.srcs.len() == 3 && !i.op.starts_with("dpas")
}

/// Registers printed without a number when it is 0.
fn has_reg_num(name: &str) -> bool {
    !matches!(name, "null" | "ip")
}

fn has_subregs(name: &str) -> bool {
    !matches!(name, "null" | "ip" | "ce" | "msg")
}

fn reg_text(r: &Reg, sub: bool) -> String {
    let mut s = r.name.clone();
    if r.num != 0 || has_reg_num(&r.name) {
        s.push_str(&r.num.to_string());
    }
    if (sub && has_subregs(&r.name)) || r.sub != 0 {
        s.push('.');
        s.push_str(&r.sub.to_string());
    }
    s
}

fn src_mod(op: &str, m: SrcMod) -> &'static str {
    let logic = matches!(op, "and" | "or" | "xor" | "not" | "bfn");
    match m {
        SrcMod::None => "",
        SrcMod::Neg if logic => "~",
        SrcMod::Neg => "-",
        SrcMod::Abs => "(abs)",
        SrcMod::NegAbs => "-(abs)",
    }
}

fn instruction(i: &Instruction, gen: Gen) -> String {
    let mut l = Line::new();
    // Predication and NoMask.
    l.start(width::PREDICATION);
    if i.wren || i.pred.is_some() {
        l.emit("(");
        if i.wren {
            l.emit("W");
            if i.pred.is_some() {
                l.emit("&");
            }
        }
        if let Some(p) = &i.pred {
            if p.inv {
                l.emit("~");
            }
            let f = i.flag_reg.clone().unwrap_or(Reg {
                name: "f".into(),
                num: 0,
                sub: 0,
            });
            l.emit(&reg_text(&f, true));
            l.emit(&p.func);
        }
        l.emit(")");
    }
    l.finish();
    l.emit(" ");
    // Mnemonic, subfunction, execution size.
    l.start(width::OPCODE);
    l.emit(&i.op);
    let subfunc = match i.op.as_str() {
        "send" | "sendc" if gen >= Gen::Xe => i.subop.clone(),
        "send" | "sendc" | "sends" | "sendsc" => None,
        "math" | "sync" | "bfn" | "dpas" | "dpasw" => i.subop.clone(),
        "goto" | "if" | "else" | "brc" | "brd" => {
            // 1.0 and 2.0 do not carry the branch-control bit; iga64 sets it where
            // the two targets (JIP, UIP) differ, which is what the bit selects.
            let t: Vec<&str> = branch_targets(i).collect();
            (t.len() == 2 && t[0] != t[1]).then(|| "b".to_string())
        }
        _ => None,
    };
    if let Some(s) = subfunc {
        l.emit(".");
        l.emit(&s);
    }
    if !implicit_exec_size(&i.op) {
        l.emit(" ");
        l.emit(&format!("({}|M{})", i.exec_size, i.exec_offset));
    }
    l.finish();
    l.emit(" ");
    // Flag modifier.
    l.start(width::FLAG_MODIFIER);
    if let Some(fm) = &i.flag_modifier {
        if !i.is_send() {
            l.emit(&format!("({})", fm.cond));
            let f = i.flag_reg.clone().unwrap_or(Reg {
                name: "f".into(),
                num: 0,
                sub: 0,
            });
            l.emit(&reg_text(&f, true));
        }
    }
    l.finish();

    let send = i.is_send();
    // A send's last two sources are its descriptors.
    let (srcs, descs) = if send && i.srcs.len() >= 2 {
        i.srcs.split_at(i.srcs.len() - 2)
    } else {
        (&i.srcs[..], &[][..])
    };
    let has_opts =
        !i.opts.is_empty() || (gen >= Gen::Xe && (i.reg_dist.is_some() || i.sbid.is_some()));
    if has_dst(i) {
        l.emit("  ");
        if let Some(d) = &i.dst {
            dst_operand(&mut l, i, d, gen);
        }
    } else if !srcs.is_empty() || has_opts {
        l.spaces(width::DST);
    }
    if srcs.is_empty() {
        if has_opts {
            l.spaces(width::SRC);
        }
    } else {
        for (k, s) in srcs.iter().enumerate() {
            l.emit("  ");
            src_operand(&mut l, i, k, s, gen);
            if k == 0 && srcs.len() == 1 && !send {
                // iga64 keeps at least two source columns, except for sends.
                l.start(width::SRC);
                l.finish();
            }
        }
    }
    if send {
        for (k, d) in descs.iter().enumerate() {
            l.emit("  ");
            l.start(width::SEND_DESC);
            match &d.kind {
                OperandKind::Immediate { value, .. } => {
                    let v = parse_hex(value);
                    match (v, k) {
                        (Some(v), 1) => l.raw(&format!("0x{v:08X}")),
                        (Some(v), _) => l.raw(&format!("0x{v:X}")),
                        (None, _) => l.raw(value),
                    }
                }
                OperandKind::Direct(r) => l.emit(&format!("a{}.{}", r.reg.num, r.reg.sub)),
                _ => l.emit("???"),
            }
            l.finish();
        }
    }
    // Instruction options and software scoreboard.
    if has_opts {
        l.emit(" {");
        l.emit(&i.opts.join(","));
        let mut swsb = Vec::new();
        if gen >= Gen::Xe {
            if let Some(rd) = &i.reg_dist {
                swsb.push(rd.clone());
            }
            if let Some(sb) = &i.sbid {
                swsb.push(format!("${}{}", sb.id, sb.func));
            }
        }
        if !i.opts.is_empty() && !swsb.is_empty() {
            l.emit(",");
        }
        l.emit(&swsb.join(","));
        l.emit("}");
    }
    // End-of-line comment.
    let mut comments: Vec<String> = Vec::new();
    if send {
        comments.push(send_info(i, srcs, descs, gen));
    } else if let Some(c) = &i.comment {
        comments.push(c.replace(['\r', '\n'], "; "));
    }
    if !comments.is_empty() {
        l.emit(" // ");
        l.emit(&comments.join("; "));
    }
    l.text
}

fn parse_hex(v: &str) -> Option<u64> {
    let h = v.strip_prefix("0x").or_else(|| v.strip_prefix("0X"))?;
    u64::from_str_radix(h, 16).ok()
}

fn dst_operand(l: &mut Line, i: &Instruction, d: &Operand, gen: Gen) {
    let send = i.is_send();
    l.start(if send { width::SEND_DST } else { width::DST });
    match &d.kind {
        OperandKind::Direct(r) | OperandKind::Macro(r) | OperandKind::Indirect(r) if !send => {
            if r.sat {
                l.emit("(sat)");
            }
            match &d.kind {
                OperandKind::Indirect(_) => indirect(l, r),
                OperandKind::Macro(_) => {
                    l.emit(&reg_text(&r.reg, true));
                    l.emit(&format!(".{}", r.mme.as_deref().unwrap_or("nomme")));
                }
                _ => l.emit(&reg_text(&r.reg, true)),
            }
            if let Some(rg) = &r.rgn {
                l.emit(&format!("<{}>", rg.h));
            }
            if let Some(t) = &r.ty {
                l.emit(&format!(":{t}"));
            }
        }
        OperandKind::Direct(r) => {
            // Sends before Xe carry a destination type.
            l.emit(&reg_text(
                &Reg {
                    sub: 0,
                    ..r.reg.clone()
                },
                false,
            ));
            if gen < Gen::Xe {
                if let Some(t) = &r.ty {
                    l.emit(&format!(":{t}"));
                }
            }
        }
        OperandKind::Data(da) => {
            l.emit(&reg_text(
                &Reg {
                    sub: 0,
                    ..da.reg.clone()
                },
                false,
            ));
            if gen < Gen::Xe {
                l.emit(":w");
            }
        }
        _ => l.emit("???"),
    }
    l.finish();
}

fn indirect(l: &mut Line, r: &RegOperand) {
    l.emit("r[");
    l.emit(&reg_text(&r.reg, true));
    if r.aoff != 0 {
        l.emit(",");
        l.raw(&r.aoff.to_string());
    }
    l.emit("]");
}

fn region_text(i: &Instruction, k: usize, r: &Region, indirect: bool) -> String {
    if is_ternary(i) {
        return if k < 2 {
            format!("<{};{}>", r.v.unwrap_or(0), r.h)
        } else {
            format!("<{}>", r.v.unwrap_or(r.h))
        };
    }
    match r.v {
        Some(v) if !indirect || r.w.is_none() => format!("<{};{},{}>", v, r.w.unwrap_or(0), r.h),
        Some(v) => format!("<{};{},{}>", v, r.w.unwrap_or(0), r.h),
        None => format!("<{},{}>", r.w.unwrap_or(0), r.h),
    }
}

fn src_operand(l: &mut Line, i: &Instruction, k: usize, s: &Operand, gen: Gen) {
    let send = i.is_send();
    l.start(if send { width::SEND_SRC } else { width::SRC });
    match &s.kind {
        OperandKind::Direct(r) | OperandKind::Macro(r) if !send => {
            l.emit(src_mod(&i.op, r.mods));
            if let OperandKind::Macro(_) = &s.kind {
                l.emit(&reg_text(&r.reg, false));
                l.emit(&format!(".{}", r.mme.as_deref().unwrap_or("nomme")));
            } else {
                l.emit(&reg_text(&r.reg, true));
            }
            if let Some(rg) = &r.rgn {
                if !crate::cfg::is_branching(&i.op) {
                    l.emit(&region_text(i, k, rg, false));
                }
            }
            if let Some(t) = &r.ty {
                if !(i.op == "sync" && r.reg.name == "null") {
                    l.emit(&format!(":{t}"));
                }
            }
        }
        OperandKind::Indirect(r) => {
            l.emit(src_mod(&i.op, r.mods));
            indirect(l, r);
            let rg = r.rgn.unwrap_or(Region {
                v: None,
                w: Some(1),
                h: 0,
            });
            l.emit(&region_text(i, k, &rg, true));
            if let Some(t) = &r.ty {
                l.emit(&format!(":{t}"));
            }
        }
        OperandKind::Immediate { value, ty, .. } => {
            l.raw(value);
            if let Some(t) = ty {
                l.emit(&format!(":{t}"));
            }
        }
        OperandKind::Label { target, .. } => l.raw(&label_text(target)),
        OperandKind::Address(a) => l.emit(&reg_text(
            &Reg {
                sub: 0,
                ..a.reg.clone()
            },
            false,
        )),
        OperandKind::Data(d) => {
            l.emit(&reg_text(
                &Reg {
                    sub: 0,
                    ..d.reg.clone()
                },
                false,
            ));
            if gen >= Gen::XeHpg && k == 1 {
                if let Some(len) = d.len {
                    l.emit(&format!(":{len}"));
                }
            }
        }
        OperandKind::Direct(r) | OperandKind::Macro(r) => l.emit(&reg_text(
            &Reg {
                sub: 0,
                ..r.reg.clone()
            },
            false,
        )),
    }
    l.finish();
}

/// iga64's send comment: `wr:MLEN+XLEN, rd:RLEN`, the shared function before
/// Xe, and the message description.
fn send_info(i: &Instruction, srcs: &[Operand], descs: &[Operand], gen: Gen) -> String {
    let rlen = match i.dst.as_ref().map(|d| &d.kind) {
        Some(OperandKind::Data(d)) => d.len.unwrap_or(0),
        _ => 0,
    };
    let mlen = match srcs.first().map(|s| &s.kind) {
        Some(OperandKind::Address(a)) => a.len,
        _ => 0,
    };
    let xlen = match srcs.get(1).map(|s| &s.kind) {
        Some(OperandKind::Data(d)) => d.len.unwrap_or(0),
        _ => 0,
    };
    let mut parts = vec![format!("wr:{mlen}+{xlen}, rd:{rlen}")];
    if gen < Gen::Xe {
        let sfid = match i.op.as_str() {
            "send" | "sendc" => i.subop.clone(),
            _ => None,
        }
        .or_else(|| {
            let ex = descs.first().and_then(|d| match &d.kind {
                OperandKind::Immediate { value, .. } => parse_hex(value),
                _ => None,
            })?;
            sfid_name(ex & 0xF).map(str::to_string)
        });
        if let Some(s) = sfid {
            parts.push(sfid_text(&s).to_string());
        }
    }
    if let Some(c) = &i.comment {
        parts.push(c.clone());
    }
    parts.join("; ")
}

/// Shared function ids of the pre-Xe extended descriptor.
fn sfid_name(v: u64) -> Option<&'static str> {
    Some(match v {
        0x0 => "null",
        0x2 => "smpl",
        0x3 => "gtwy",
        0x4 => "dc2",
        0x5 => "rc",
        0x6 => "urb",
        0x7 => "ts",
        0x8 => "vme",
        0x9 => "dcro",
        0xA => "dc0",
        0xB => "pixi",
        0xC => "dc1",
        0xD => "cre",
        _ => return None,
    })
}

/// How iga64 names a shared function in the send comment.
fn sfid_text(s: &str) -> &str {
    match s {
        "dc0" => "hdc.dc0",
        "dc1" => "hdc.dc1",
        "dc2" => "hdc.dc2",
        "dcro" => "hdc.ro",
        "smpl" => "sampler",
        "gtwy" => "gateway",
        "ts" => "spawner",
        "rc" => "hdc.rc",
        "pixi" => "pixel interpolator",
        other => other,
    }
}
