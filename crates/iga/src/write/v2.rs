//! JSON 2.0, as iga64's `FormatterJSON2.cpp` prints it: keys with default
//! values are left out, registers drop zero numbers.

use super::{Out, Role};
use crate::model::*;

pub(super) fn listing(w: &mut Out, l: &Listing) {
    w.s("{\n  \"version\":\"2.0\",\n  \"platform\":");
    w.quoted(&l.platform);
    w.s(",\n  \"elems\":[\n");
    w.elements(l, label, instruction);
}

fn ids_if_any(w: &mut Out, key: &str, ids: &[i64]) {
    if !ids.is_empty() {
        w.s(", \"");
        w.s(key);
        w.s("\":");
        w.ids(ids);
    }
}

fn label(w: &mut Out, l: &Label) {
    w.s("{\"kind\":\"L\"");
    if let Some(id) = l.id {
        w.s(", \"id\":");
        w.int(id);
    }
    if let Some(pc) = l.pc {
        w.s(", \"pc\":");
        w.int(pc);
    }
    w.s(", \"symbol\":");
    w.quoted(&l.symbol);
    ids_if_any(w, "preds", &l.preds);
    ids_if_any(w, "succs", &l.succs);
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
    if let Some(p) = &i.pred {
        w.s(", \"pred\":{");
        if p.inv {
            w.s("\"inv\":true, ");
        }
        w.s("\"func\":");
        w.quoted(&p.func);
        ids_if_any(w, "defs", &p.defs);
        w.extra(&p.extra);
        w.s("}");
    }
    if i.wren {
        w.s(", \"wren\":true");
    }
    w.s(", \"op\":");
    w.quoted(&i.op);
    if let Some(s) = &i.subop {
        w.s(", \"subop\":");
        w.quoted(s);
    }
    w.s(", \"es\":");
    w.int(i.exec_size);
    if i.exec_offset != 0 {
        w.s(", \"eo\":");
        w.int(i.exec_offset);
    }
    if let Some(fm) = &i.flag_modifier {
        w.s(", \"fm\":{\"cond\":");
        w.quoted(&fm.cond);
        ids_if_any(w, "uses", &fm.uses);
        w.extra(&fm.extra);
        w.s("}");
    }
    if let Some(r) = &i.flag_reg {
        w.s(", \"freg\":");
        w.reg_short(r);
    }
    if let Some(imp) = &i.implicit {
        w.s(", \"implicit\":{");
        let mut first = true;
        for (key, ids) in [("defs", &imp.defs), ("uses", &imp.uses)] {
            if ids.is_empty() {
                continue;
            }
            if !first {
                w.s(", ");
            }
            first = false;
            w.s("\"");
            w.s(key);
            w.s("\":");
            w.ids(ids);
        }
        for (k, v) in &imp.extra {
            if !first {
                w.s(", ");
            }
            first = false;
            w.quoted(k);
            w.s(":");
            w.s(v);
        }
        w.s("}");
    }
    w.s(",\n");
    if let Some(d) = &i.dst {
        w.indent(6);
        w.s("\"dst\":");
        operand(w, d, Role::Dst, i.is_send());
        w.s(",\n");
    }
    w.indent(6);
    if i.srcs.is_empty() {
        w.s("\"srcs\":[]");
    } else {
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
        w.s("]");
    }
    if let Some(rd) = &i.reg_dist {
        w.s(", \"regDist\":");
        w.quoted(rd);
    }
    if let Some(sb) = &i.sbid {
        w.s(", \"sbid\":{\"id\":");
        w.int(sb.id);
        w.s(", \"func\":");
        w.quoted(&sb.func);
        w.extra(&sb.extra);
        w.s("}");
    }
    if !i.opts.is_empty() {
        w.s(", \"opts\":");
        w.quoted_list(&i.opts);
    }
    w.encoding_and_live_totals(i);
    if let Some(c) = &i.comment {
        w.s(", \"comment\":");
        w.quoted(c);
    }
    w.extra(&i.extra);
    w.s("}");
}

fn rgn(w: &mut Out, r: Option<&Region>, role: Role) {
    let Some(r) = r else { return };
    w.s(", \"rgn\":{");
    if role == Role::Src {
        if let Some(v) = r.v {
            w.s("\"v\":");
            w.int(v);
            w.s(",");
        }
        w.s("\"w\":");
        w.int(r.w.unwrap_or(0));
        w.s(",");
    }
    w.s("\"h\":");
    w.int(r.h);
    w.s("}");
}

fn ty(w: &mut Out, t: Option<&str>) {
    if let Some(t) = t {
        w.s(", \"type\":");
        w.quoted(t);
    }
}

fn operand(w: &mut Out, o: &Operand, role: Role, send: bool) {
    w.s("{\"kind\":\"");
    w.s(o.kind.code());
    w.s("\"");
    match &o.kind {
        OperandKind::Direct(r) | OperandKind::Indirect(r) | OperandKind::Macro(r) => {
            if send && matches!(o.kind, OperandKind::Direct(_)) {
                w.s(", \"reg\":");
                w.reg_short(&r.reg);
                rgn(w, r.rgn.as_ref(), role);
                ty(w, r.ty.as_deref());
                ids_if_any(w, "defs", &r.defs);
            } else {
                if r.mods != SrcMod::None {
                    w.s(", \"mods\":\"");
                    w.s(r.mods.as_str());
                    w.s("\"");
                }
                if matches!(o.kind, OperandKind::Indirect(_)) {
                    w.s(", \"areg\":");
                    w.reg_short(&r.reg);
                    w.s(", \"aoff\":");
                    w.int(r.aoff);
                } else {
                    w.s(", \"reg\":");
                    w.reg_short(&r.reg);
                }
                if let Some(mme) = &r.mme {
                    w.s(", \"mme\":");
                    w.quoted(mme);
                }
                if r.sat {
                    w.s(", \"sat\":true");
                }
                rgn(w, r.rgn.as_ref(), role);
                ty(w, r.ty.as_deref());
                match role {
                    Role::Src => ids_if_any(w, "defs", &r.defs),
                    Role::Dst => ids_if_any(w, "uses", &r.uses),
                }
            }
        }
        OperandKind::Immediate { value, ty: t, defs } => {
            w.s(", \"value\":");
            w.quoted(value);
            ty(w, t.as_deref());
            ids_if_any(w, "defs", defs);
        }
        OperandKind::Label {
            target,
            ty: t,
            defs,
        } => {
            w.s(", \"target\":");
            w.quoted(target);
            ty(w, t.as_deref());
            ids_if_any(w, "defs", defs);
        }
        OperandKind::Data(d) => {
            w.s(", \"reg\":");
            w.reg_short(&d.reg);
            if let Some(len) = d.len {
                w.s(", \"len\":");
                w.int(len);
            }
            if role == Role::Src {
                ids_if_any(w, "defs", &d.defs);
            }
        }
        OperandKind::Address(a) => {
            w.s(", \"areg\":");
            w.reg_short(&a.reg);
            w.s(", \"alen\":");
            w.int(a.len);
            ids_if_any(w, "adefs", &a.defs);
            match a.offset {
                AddrOffset::Scalar(0) => {}
                AddrOffset::Scalar(v) => {
                    w.s(", \"aoff\":");
                    w.int(v);
                }
                AddrOffset::Block2d(x, y) => {
                    w.s(", \"aoff\":[");
                    w.int(x);
                    w.s(",");
                    w.int(y);
                    w.s("]");
                }
            }
            if let Some(s) = &a.surface {
                w.s(", \"stype\":");
                w.quoted(&s.addr_type);
                match &s.offset {
                    Some(SurfaceOffset::Imm(v)) => {
                        w.s(", \"soff\":");
                        w.int(*v);
                    }
                    Some(SurfaceOffset::Reg(r)) => {
                        w.s(", \"soff\":");
                        w.reg_short(r);
                        ids_if_any(w, "sdefs", &s.defs);
                    }
                    None => {}
                }
            }
        }
    }
    w.extra(&o.extra);
    w.s("}");
}
