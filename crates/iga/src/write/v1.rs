//! JSON 1.0, as iga64's `FormatterJSON.cpp` prints it: every key always
//! present, `null` for what is absent, registers with all three fields.

use super::{Out, Role};
use crate::model::*;

pub(super) fn listing(w: &mut Out, l: &Listing) {
    w.s("{\n  \"version\":\"1.0\",  \"platform\":");
    w.quoted(&l.platform);
    w.s(",  \"insts\":[\n");
    w.elements(l, label, instruction);
}

fn label(w: &mut Out, l: &Label) {
    w.s("{\"kind\":\"L\",\"value\":");
    w.quoted(&l.symbol);
    if let Some(pc) = l.pc {
        w.s(",\"pc\":");
        w.int(pc);
    }
    w.extra(&l.extra);
    w.s("}");
}

fn instruction(w: &mut Out, i: &Instruction) {
    w.s("{\"kind\":\"I\", \"id\":");
    w.int(i.id);
    if let Some(pc) = i.pc {
        w.s(", \"pc\":");
        w.int(pc);
    }
    w.s(", \"pred\":");
    match &i.pred {
        Some(p) => {
            w.s("{\"inv\":");
            w.bool(p.inv);
            w.s(", \"func\":");
            w.quoted(&p.func);
            w.s(", \"defs\":");
            w.ids(&p.defs);
            w.extra(&p.extra);
            w.s("}");
        }
        None => w.s("null"),
    }
    w.s(", \"wren\":");
    w.bool(i.wren);
    w.s(", \"op\":");
    w.quoted(&i.op);
    w.s(", \"subop\":");
    w.opt_quoted(i.subop.as_deref());
    w.s(", \"es\":");
    w.int(i.exec_size);
    w.s(", \"eo\":");
    w.int(i.exec_offset);
    w.s(", \"fm\":");
    match &i.flag_modifier {
        Some(fm) => {
            w.s("{\"cond\":");
            w.quoted(&fm.cond);
            w.extra(&fm.extra);
            w.s("}");
        }
        None => w.s("null"),
    }
    w.s(", \"freg\":");
    match &i.flag_reg {
        Some(r) => w.reg_full(r),
        None => w.s("null"),
    }
    // 1.0 prints only the implicit reads, and nothing for load/store syntax.
    if !i.is_load_store_syntax() {
        w.s(", \"other\":");
        match &i.implicit {
            Some(imp) => {
                w.s("{\"defs\":");
                w.ids(&imp.defs);
                w.extra(&imp.extra);
                w.s("}");
            }
            None => w.s("null"),
        }
    }
    w.s(",\n");
    w.indent(6);
    w.s("\"dst\":");
    match &i.dst {
        Some(d) => operand(w, d, Role::Dst, i.is_send()),
        None => w.s("null"),
    }
    w.s(",\n");
    w.indent(6);
    w.s("\"srcs\":[\n");
    for (k, src) in i.srcs.iter().enumerate() {
        w.indent(8);
        operand(w, src, Role::Src, i.is_send());
        if k + 1 < i.srcs.len() {
            w.s(",\n");
        }
    }
    w.s("\n");
    w.indent(6);
    w.s("], \"regDist\":");
    w.opt_quoted(i.reg_dist.as_deref());
    w.s(", \"sbid\":");
    match &i.sbid {
        Some(sb) => w.quoted(&format!("${}{}", sb.id, sb.func)),
        None => w.s("null"),
    }
    w.s(", \"opts\":");
    w.quoted_list(&i.opts);
    w.encoding_and_live_totals(i);
    w.s(", \"comment\":");
    w.opt_quoted(i.comment.as_deref());
    w.extra(&i.extra);
    w.s("}");
}

fn rgn(w: &mut Out, r: Option<&Region>, role: Role) {
    match (r, role) {
        (None, _) => w.s("null"),
        (Some(r), Role::Dst) => {
            w.s("{\"Hz\":");
            w.int(r.h);
            w.s("}");
        }
        (Some(r), Role::Src) => {
            w.s("{\"Vt\":");
            match r.v {
                Some(v) => w.int(v),
                None => w.s("null"),
            }
            w.s(",\"Wi\":");
            w.int(r.w.unwrap_or(0));
            w.s(",\"Hz\":");
            w.int(r.h);
            w.s("}");
        }
    }
}

fn operand(w: &mut Out, o: &Operand, role: Role, send: bool) {
    w.s("{\"kind\":\"");
    w.s(o.kind.code());
    w.s("\"");
    match &o.kind {
        OperandKind::Direct(r) | OperandKind::Indirect(r) | OperandKind::Macro(r) => {
            let indirect = matches!(o.kind, OperandKind::Indirect(_));
            if send && matches!(o.kind, OperandKind::Direct(_)) {
                // Raw send payloads and register descriptors.
                w.s(", \"reg\":");
                w.reg_full(&r.reg);
                if role == Role::Src {
                    w.s(", \"rgn\":");
                    rgn(w, r.rgn.as_ref(), role);
                    w.s(", \"type\":");
                    w.opt_quoted(r.ty.as_deref());
                    w.s(", \"defs\":");
                    w.ids(&r.defs);
                }
            } else {
                if role == Role::Src {
                    w.s(", \"mods\":\"");
                    w.s(r.mods.as_str());
                    w.s("\"");
                }
                if indirect {
                    w.s(", \"areg\":");
                    w.reg_full(&r.reg);
                    w.s(", \"aoff\":");
                    w.int(r.aoff);
                } else {
                    w.s(", \"reg\":");
                    w.reg_full(&r.reg);
                }
                if let Some(mme) = &r.mme {
                    w.s(", \"mme\":");
                    w.quoted(mme);
                }
                if role == Role::Dst {
                    w.s(", \"sat\":");
                    w.bool(r.sat);
                }
                // 1.0 never prints the region of an indirect source.
                if !(indirect && role == Role::Src) {
                    w.s(", \"rgn\":");
                    rgn(w, r.rgn.as_ref(), role);
                }
                w.s(", \"type\":");
                w.opt_quoted(r.ty.as_deref());
                w.s(if role == Role::Dst {
                    ",\"defs\":"
                } else {
                    ", \"defs\":"
                });
                w.ids(&r.defs);
            }
        }
        OperandKind::Immediate { value, ty, defs } => {
            w.s(", \"value\":");
            w.quoted(value);
            if send {
                w.s(", \"rgn\":null");
            }
            w.s(", \"type\":");
            w.opt_quoted(ty.as_deref());
            w.s(", \"defs\":");
            w.ids(defs);
        }
        OperandKind::Label { target, ty, defs } => {
            w.s(", \"target\":");
            w.quoted(target);
            w.s(", \"type\":");
            w.opt_quoted(ty.as_deref());
            w.s(", \"defs\":");
            w.ids(defs);
        }
        OperandKind::Data(d) => {
            w.s(", \"reg\":");
            w.reg_full(&d.reg);
            if let Some(len) = d.len {
                w.s(", \"len\":");
                w.int(len);
            }
            if role == Role::Src {
                w.s(", \"defs\":");
                w.ids(&d.defs);
            }
        }
        OperandKind::Address(a) => {
            w.s(", \"surf\":");
            match &a.surface {
                Some(s) => {
                    w.s("{\"type\":");
                    w.quoted(&s.addr_type);
                    w.s(", \"offset\":");
                    match &s.offset {
                        Some(SurfaceOffset::Reg(r)) => w.reg_full(r),
                        Some(SurfaceOffset::Imm(v)) => w.int(*v),
                        None => w.int(0),
                    }
                    w.s(", \"defs\":");
                    w.ids(&s.defs);
                    w.extra(&s.extra);
                    w.s("}");
                }
                None => w.s("null"),
            }
            w.s(", \"scale\":");
            w.int(a.scale);
            w.s(", \"addr\":{\"reg\":");
            w.reg_full(&a.reg);
            w.s(", \"len\":");
            w.int(a.len);
            w.s(", \"defs\":");
            w.ids(&a.defs);
            w.extra(&a.addr_extra);
            w.s("}, \"offset\":");
            match a.offset {
                AddrOffset::Scalar(v) => w.int(v),
                // 1.0 has no 2D offset; iga64 prints the scalar offset, which is 0 then.
                AddrOffset::Block2d(..) => w.int(0),
            }
        }
    }
    w.extra(&o.extra);
    w.s("}");
}
