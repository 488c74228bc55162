//! Prints routines as IGC's `.visaasm` dumps do (the style of the release that writes
//! the file's version, see [`Style`]).
//!
//! The layout table says which fields an instruction has; this file says how each
//! instruction family spells them, following the order and punctuation of IGC's own
//! dumps. Every operand is printed with its leading separator, as IGC does, so
//! families compose by concatenation.

use super::style::Style;
use crate::isa::names::{self, spell};
use crate::isa::{predefined_vars, Class, Opcode, Type, PREDEFINED_SURFACES};
use crate::limits::{PREDEFINED_SURFACES as NUM_PREDEF_SURFACES, PREDEFINED_VARS};
use crate::model::*;
use crate::version::Version;
use std::fmt::Write as _;

/// Prints every kernel and then every function of the object, each as a complete
/// `.visaasm` text in the style of the release that writes the object's version.
pub fn print_text(obj: &Object) -> String {
    let style = Style::for_version(obj.version);
    let mut out = String::new();
    for i in 0..obj.kernels.len() {
        out.push_str(&print_routine(obj, RoutineRef::Kernel(i), style));
    }
    for i in 0..obj.functions.len() {
        out.push_str(&print_routine(obj, RoutineRef::Function(i), style));
    }
    out
}

/// Which routine of an object to print.
#[derive(Clone, Copy, Debug)]
pub enum RoutineRef {
    Kernel(usize),
    Function(usize),
}

pub fn print_routine(obj: &Object, which: RoutineRef, style: Style) -> String {
    let (r, is_kernel) = match which {
        RoutineRef::Kernel(i) => (&obj.kernels[i].body, true),
        RoutineRef::Function(i) => (&obj.functions[i].body, false),
    };
    let grf_bytes = obj
        .kernels
        .iter()
        .flat_map(|k| &k.gen_binaries)
        .any(|g| matches!(g.platform, 14 | 15))
        .then_some(64)
        .unwrap_or(32);
    let p = Printer {
        r,
        version: obj.version,
        style,
        grf_bytes,
    };
    let mut out = p.header(obj, is_kernel);
    if let Some(insts) = r.code.instructions() {
        for (id, inst) in insts.iter().enumerate() {
            out.push_str(&p.line(inst, id));
            out.push('\n');
        }
    }
    out
}

struct Printer<'a> {
    r: &'a Routine,
    version: Version,
    style: Style,
    grf_bytes: usize,
}

/// IGC's string literal escaping.
fn quoted(s: &[u8]) -> String {
    let mut o = String::from("\"");
    for &c in s {
        match c {
            0x07 => o.push_str("\\a"),
            0x08 => o.push_str("\\b"),
            0x1B => o.push_str("\\e"),
            0x0C => o.push_str("\\f"),
            b'\n' => o.push_str("\\n"),
            b'\r' => o.push_str("\\r"),
            b'\t' => o.push_str("\\t"),
            0x0B => o.push_str("\\v"),
            b'\'' => o.push_str("\\'"),
            b'"' => o.push_str("\\\""),
            b'\\' => o.push_str("\\\\"),
            0x20..=0x7E => o.push(c as char),
            _ => {
                let _ = write!(o, "\\x{c:x}");
            }
        }
    }
    o.push('"');
    o
}

impl Printer<'_> {
    fn s(&self, index: u32) -> String {
        self.r.string_lossy(index)
    }

    fn var_name(&self, id: u32) -> String {
        if id < PREDEFINED_VARS {
            match crate::isa::PREDEFINED_VARS.get(id as usize) {
                Some(p) => p.name.to_string(),
                None => format!("V{id}"),
            }
        } else {
            match self.r.variables.get((id - PREDEFINED_VARS) as usize) {
                Some(v) => self.s(v.name_index),
                None => format!("V{id}"),
            }
        }
    }

    fn surface_name(&self, id: u32) -> String {
        match PREDEFINED_SURFACES.get(id as usize) {
            Some((name, _)) => name.to_string(),
            None => format!("T{id}"),
        }
    }

    fn label_name(&self, id: u32) -> String {
        match self.r.labels.get(id as usize) {
            Some(l) => self.s(l.name_index),
            None => format!("L{id}"),
        }
    }

    fn attribute(&self, a: &Attribute) -> String {
        let name = self.s(a.name_index);
        match &a.value {
            AttributeValue::Int { value, width } => {
                let is_bool = matches!(
                    crate::isa::attribute_kind(name.as_bytes()),
                    Some(crate::isa::AttributeKind::Bool)
                );
                if is_bool && *width == 0 {
                    name
                } else if is_bool {
                    name
                } else if name == "Target" {
                    match value {
                        0 => format!("{name}=\"cm\""),
                        1 => format!("{name}=\"3d\""),
                        2 => format!("{name}=\"cs\""),
                        v => format!("{name}={v}"),
                    }
                } else {
                    format!("{name}={value}")
                }
            }
            AttributeValue::Str(s) if s.is_empty() => name,
            AttributeValue::Str(s) => format!("{name}={}", quoted(s)),
            AttributeValue::Raw(b) => {
                let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
                format!("{name}=0x{hex}")
            }
        }
    }

    fn attrs(&self, list: &[Attribute]) -> String {
        if list.is_empty() {
            return String::new();
        }
        let parts: Vec<_> = list.iter().map(|a| self.attribute(a)).collect();
        format!(" attrs={{{}}}", parts.join(", "))
    }

    // ------------------------------------------------------------ header

    fn header(&self, obj: &Object, is_kernel: bool) -> String {
        let r = self.r;
        let mut h = String::new();
        let _ = writeln!(h, ".version {}.{}", self.version.major, self.version.minor);
        let name: Vec<u8> = r
            .string(r.name_index)
            .unwrap_or_default()
            .iter()
            .map(|&c| if c == b'.' { b' ' } else { c })
            .collect();
        let _ = writeln!(
            h,
            "{} {}",
            if is_kernel {
                ".kernel"
            } else {
                ".global_function"
            },
            quoted(&name)
        );
        if is_kernel {
            for f in &obj.functions {
                let _ = write!(h, "\n.funcdecl {}", quoted(&f.name));
            }
        }
        h.push_str("\n/// VISA Predefined Variables");
        for p in predefined_vars(self.version) {
            let _ = write!(h, "\n// .decl V{} v_type=G v_name={}", p.id, p.name);
        }
        for (i, (name, _)) in PREDEFINED_SURFACES.iter().enumerate() {
            let _ = write!(h, "\n// .decl T{i} v_type=T v_name={name}");
        }
        h.push('\n');
        for v in &r.variables {
            h.push('\n');
            h.push_str(&self.variable_decl(v));
        }
        for (i, a) in r.addresses.iter().enumerate() {
            let _ = write!(
                h,
                "\n.decl A{i} v_type=A num_elts={}{}",
                a.num_elements,
                self.attrs(&a.attributes)
            );
        }
        for (i, p) in r.predicates.iter().enumerate() {
            let _ = write!(
                h,
                "\n.decl P{} v_type=P num_elts={}{}",
                i + 1,
                p.num_elements,
                self.attrs(&p.attributes)
            );
        }
        for (i, s) in r.samplers.iter().enumerate() {
            let _ = write!(
                h,
                "\n.decl S{i} v_type=S num_elts={} v_name={}{}",
                s.num_elements,
                self.s(s.name_index),
                self.attrs(&s.attributes)
            );
        }
        for (i, s) in r.surfaces.iter().enumerate() {
            let _ = write!(
                h,
                "\n.decl T{} v_type=T num_elts={} v_name={}{}",
                i as u32 + NUM_PREDEF_SURFACES,
                s.num_elements,
                self.s(s.name_index),
                self.attrs(&s.attributes)
            );
        }
        for input in r.inputs() {
            h.push('\n');
            h.push_str(&self.input_decl(input, is_kernel));
        }
        for a in &r.attributes {
            if !self.style.prints_output_asm_path()
                && r.string(a.name_index) == Some(b"OutputAsmPath")
            {
                continue;
            }
            let _ = write!(h, "\n.kernel_attr {}", self.attribute(a));
        }
        if self.style.blank_line_before_first_function() {
            h.push('\n');
        }
        h
    }

    fn variable_decl(&self, v: &Variable) -> String {
        let mut s = format!(
            ".decl {} v_type=G type={} num_elts={}",
            self.s(v.name_index),
            v.ty().name().unwrap_or("?"),
            v.num_elements
        );
        if v.align().0 != 0 {
            let _ = write!(s, " align={}", v.align().name().unwrap_or("?"));
        }
        if v.alias_index != 0 {
            let _ = write!(
                s,
                " alias=<{}, {}>",
                self.var_name(v.alias_index),
                v.alias_offset
            );
        }
        s.push_str(&self.attrs(&v.attributes));
        s
    }

    fn input_decl(&self, i: &Input, is_kernel: bool) -> String {
        let mut s = if !is_kernel {
            ".parameter ".to_string()
        } else {
            match i.implicit_name() {
                None => ".input ".to_string(),
                Some(n) => format!(".implicit_{n} "),
            }
        };
        match i.class() {
            InputClass::General => s.push_str(&self.var_name(i.index)),
            InputClass::Sampler => {
                let _ = write!(s, "S{}", i.index);
            }
            InputClass::Surface => {
                let _ = write!(s, "T{}", i.index);
            }
            InputClass::Other(_) => {
                let _ = write!(s, "V{}", i.index);
            }
        }
        if is_kernel {
            let _ = write!(s, " offset={}", i.offset);
        }
        let _ = write!(s, " size={}", i.size);
        s
    }

    // ------------------------------------------------------------ operands

    fn region(&self, r: Region) -> String {
        let v = |c: u8| Region::code_value(c).map_or_else(|| "?".to_string(), |x| x.to_string());
        if r.width_code() == 0 {
            format!("<{}>", v(r.hstride_code()))
        } else if r.vstride_code() == 0 {
            format!("<{},{}>", v(r.width_code()), v(r.hstride_code()))
        } else {
            format!(
                "<{};{},{}>",
                v(r.vstride_code()),
                v(r.width_code()),
                v(r.hstride_code())
            )
        }
    }

    /// A vector operand with its leading space.
    fn vector(&self, v: &Vector) -> String {
        let m = names::MODIFIER
            .get(v.modifier.0 as usize)
            .copied()
            .unwrap_or("");
        match v.kind {
            VectorKind::General {
                id,
                row,
                col,
                region,
            } => {
                format!(
                    " {m}{}({row},{col}){}",
                    self.var_name(id),
                    self.region(region)
                )
            }
            VectorKind::Address { id, offset, width } => {
                let w = ExecCtrl(width & 0xF).exec_size().unwrap_or(0);
                format!(" {m}A{id}({offset})<{w}>")
            }
            VectorKind::Predicate(p) => format!(" {m}P{}", p.0),
            VectorKind::Indirect {
                addr,
                addr_offset,
                offset,
                ty,
                region,
            } => {
                let t = Type(ty & 0xF).name().unwrap_or("?");
                format!(
                    " {m}r[A{addr}({addr_offset}),{offset}]{}:{t}",
                    self.region(region)
                )
            }
            VectorKind::Immediate { ty, bits } => {
                let t = Type(ty & 0xF);
                let value = if t.is_wide_immediate() {
                    bits
                } else {
                    bits & 0xFFFF_FFFF
                };
                format!(" 0x{value:x}:{}", t.name().unwrap_or("?"))
            }
            VectorKind::State {
                class,
                index,
                offset,
            } => {
                let name = if class == 1 {
                    format!("S{index}")
                } else {
                    self.surface_name(index.into())
                };
                format!(" {name}({offset})")
            }
        }
    }

    fn raw(&self, r: &Raw) -> String {
        format!(" {}.{}", self.var_name(r.id), r.offset)
    }

    /// Any operand as IGC's generic operand printer shows it: numbers bare, vector and
    /// raw operands with a leading space.
    fn operand(&self, o: &Operand) -> String {
        match o {
            Operand::Vector(v) => self.vector(v),
            Operand::Raw(r) => self.raw(r),
            Operand::Int(n) => n.to_string(),
            Operand::RawList(list) => list.iter().map(|r| self.raw(r)).collect(),
            Operand::Label(l) => format!(" {}", self.label_name((*l).into())),
            Operand::LabelList(_) | Operand::Exec(_) | Operand::Pred(_) | Operand::Absent => {
                String::new()
            }
        }
    }

    fn exec(&self, e: Option<ExecCtrl>) -> String {
        match e {
            Some(e) => format!(
                "({}, {})",
                names::EMASK[e.emask() as usize],
                e.exec_size()
                    .map_or_else(|| "?".to_string(), |s| s.to_string())
            ),
            None => String::new(),
        }
    }

    fn pred(&self, p: Option<Pred>) -> String {
        match p {
            Some(p) if p.0 != 0 => {
                let ctrl = match p.control() {
                    1 => ".any",
                    2 => ".all",
                    _ => "",
                };
                format!("({}P{}{ctrl}) ", if p.inverse() { "!" } else { "" }, p.id())
            }
            _ => String::new(),
        }
    }

    // ------------------------------------------------------------ instructions

    /// One instruction line: indent, text, padding to column 80 and the id comment.
    fn line(&self, inst: &Instruction, id: usize) -> String {
        let op = inst.opcode;
        let mut s = String::new();
        if op != Opcode::LABEL {
            s.push_str("    ");
        }
        s.push_str(&self.instruction(inst));
        if !matches!(
            op,
            Opcode::LOC | Opcode::FUNC | Opcode::FILE | Opcode::LABEL
        ) {
            let pad = 80usize.saturating_sub(s.len());
            s.extend(std::iter::repeat_n(' ', pad));
            let _ = write!(s, " /// ${id}");
        }
        s
    }

    fn int(inst: &Instruction, name: &str) -> u32 {
        match inst.operand(name) {
            Some(Operand::Int(v)) => *v,
            _ => 0,
        }
    }

    fn op(&self, inst: &Instruction, name: &str) -> String {
        inst.operand(name)
            .map(|o| self.operand(o))
            .unwrap_or_default()
    }

    fn instruction(&self, inst: &Instruction) -> String {
        let info = match inst.opcode.info() {
            Some(i) => i,
            None => return format!("reserved{:#04x}", inst.opcode.0),
        };
        match info.class {
            Class::Mov
            | Class::Arith
            | Class::Logic
            | Class::Compare
            | Class::Address
            | Class::SimdFlow
            | Class::Sync
                if !matches!(inst.opcode, Opcode::DPAS | Opcode::DPASW) =>
            {
                self.common(inst)
            }
            Class::Flow => self.control_flow(inst),
            Class::Svm => self.svm(inst),
            Class::DataPort => self.dataport(inst),
            Class::Sampler => self.sampler(inst),
            _ => self.misc(inst),
        }
    }

    fn common(&self, inst: &Instruction) -> String {
        let op = inst.opcode;
        let info = op.info().expect("known opcode");
        let mut s = self.pred(inst.pred());
        let fields = inst.fields().unwrap_or(&[]);
        if op == Opcode::FMINMAX {
            s.push_str(if Self::int(inst, "op") == 0 {
                "min"
            } else {
                "max"
            });
        } else {
            s.push_str(info.mnemonic);
        }
        if info.class == Class::Sync {
            match op {
                Opcode::FENCE => {
                    let mask = Self::int(inst, "mask");
                    if mask & 0x80 != 0 {
                        s.push_str("_sw");
                    } else {
                        s.push_str(if mask & 0x20 != 0 {
                            "_local"
                        } else {
                            "_global"
                        });
                        if mask != 0 {
                            s.push('.');
                            for (bit, n) in
                                [(0, "E"), (1, "I"), (2, "S"), (3, "C"), (4, "R"), (6, "L1")]
                            {
                                if mask & (1 << bit) != 0 {
                                    s.push_str(n);
                                }
                            }
                        }
                    }
                }
                Opcode::WAIT => s.push_str(&self.op(inst, "mask")),
                Opcode::SBARRIER => s.push_str(if Self::int(inst, "mode") != 0 {
                    ".signal"
                } else {
                    ".wait"
                }),
                _ => {}
            }
            return s;
        }
        if info.class == Class::Compare {
            let relop = Self::int(inst, "relop");
            if relop & 0x80 != 0 {
                s.push('n');
            }
            let _ = write!(s, ".{}", spell(&names::RELOP, relop & 0x7));
        }
        if matches!(
            info.class,
            Class::Arith | Class::Mov | Class::Logic | Class::Address | Class::Compare
        ) {
            if let Some(Operand::Vector(v)) = inst.operand("dst") {
                if v.modifier == Modifier::SAT {
                    s.push_str(".sat");
                }
            }
        }
        s.push(' ');
        s.push_str(&self.exec(inst.exec()));
        if op == Opcode::GOTO {
            if let Some(Operand::Label(l)) = inst.operand("label") {
                let _ = write!(s, " {}", self.label_name((*l).into()));
            }
            return s;
        }
        for (f, o) in fields.iter().zip(&inst.operands) {
            if matches!(o, Operand::Exec(_) | Operand::Pred(_) | Operand::Absent)
                || matches!(f.name, "op" | "relop")
            {
                continue;
            }
            if op == Opcode::ADDR_ADD && f.name == "src0" {
                s.push_str(&self.address_of(o));
            } else {
                s.push_str(&self.operand(o));
            }
        }
        s
    }

    /// `addr_add`'s first source: an address register, or the address of a variable or
    /// state, with the byte offset its row/column give.
    fn address_of(&self, o: &Operand) -> String {
        let Operand::Vector(v) = o else {
            return self.operand(o);
        };
        let m = names::MODIFIER
            .get(v.modifier.0 as usize)
            .copied()
            .unwrap_or("");
        match v.kind {
            VectorKind::Address { .. } => self.vector(v),
            VectorKind::General { id, row, col, .. } => {
                let ty = if id < PREDEFINED_VARS {
                    crate::isa::PREDEFINED_VARS
                        .get(id as usize)
                        .map_or(Type::UD, |p| p.ty)
                } else {
                    self.r
                        .variables
                        .get((id - PREDEFINED_VARS) as usize)
                        .map_or(Type::UD, |v| v.ty())
                };
                let off = col as usize * ty.size().unwrap_or(1) + row as usize * self.grf_bytes;
                let mut s = format!(" {m}&{}", self.var_name(id));
                if off != 0 {
                    let _ = write!(s, "[{off}]");
                }
                s
            }
            VectorKind::State {
                class,
                index,
                offset,
            } => {
                let name = if class == 1 {
                    format!("S{index}")
                } else {
                    self.surface_name(index.into())
                };
                let mut s = format!(" {m}&{name}");
                if offset != 0 {
                    let _ = write!(s, "[{}]", offset as u32 * 4);
                }
                s
            }
            _ => self.vector(v),
        }
    }

    fn control_flow(&self, inst: &Instruction) -> String {
        let op = inst.opcode;
        let label = |name: &str| match inst.operand(name) {
            Some(Operand::Label(l)) => u32::from(*l),
            _ => 0,
        };
        if matches!(op, Opcode::FUNC | Opcode::LABEL) {
            let id = label("label");
            let name = self.label_name(id);
            return if op == Opcode::FUNC {
                let unique = format!("{name}_{id}");
                format!("\n.function {}\n\n{unique}:", quoted(unique.as_bytes()))
            } else {
                format!("\n{name}:")
            };
        }
        let mut s = format!(
            "{}{} {}",
            self.pred(inst.pred()),
            op.mnemonic(),
            self.exec(inst.exec())
        );
        match op {
            Opcode::JMP | Opcode::CALL | Opcode::GOTO => {
                let id = label("label");
                let _ = write!(s, " {}", self.label_name(id));
                if self.r.labels.get(id as usize).is_some_and(|l| l.kind == 1) {
                    let _ = write!(s, "_{id}");
                }
            }
            Opcode::FCALL => {
                let _ = write!(
                    s,
                    " {} {} {}",
                    self.s(Self::int(inst, "function")),
                    Self::int(inst, "arg_size"),
                    Self::int(inst, "ret_size")
                );
            }
            Opcode::IFCALL => {
                let _ = write!(
                    s,
                    "{} {} {}",
                    self.op(inst, "function_addr"),
                    Self::int(inst, "arg_size"),
                    Self::int(inst, "ret_size")
                );
            }
            Opcode::FADDR => {
                s = format!(
                    "faddr {}{}",
                    self.s(Self::int(inst, "function")),
                    self.op(inst, "dst")
                );
            }
            Opcode::SWITCHJMP => {
                s.push_str(&self.op(inst, "index"));
                let labels = match inst.operand("labels") {
                    Some(Operand::LabelList(l)) => l
                        .iter()
                        .map(|&l| self.label_name(l.into()))
                        .collect::<Vec<_>>(),
                    _ => Vec::new(),
                };
                let _ = write!(s, " ({})", labels.join(", "));
            }
            _ => {}
        }
        s
    }

    fn svm(&self, inst: &Instruction) -> String {
        let mut s = String::from("svm_");
        let exec = self.exec(inst.exec());
        match inst.subop {
            Some(sub @ (1 | 2)) => {
                let props = Self::int(inst, "properties");
                s.push_str(if sub == 2 { "block_st" } else { "block_ld" });
                if props & 8 != 0 {
                    s.push_str(".unaligned");
                }
                let _ = write!(s, " ({})", 1u32 << (props & 7));
                s.push_str(&self.op(inst, "address"));
                s.push_str(&self.op(inst, if sub == 2 { "src" } else { "dst" }));
            }
            Some(sub @ (3 | 4)) => {
                s.push_str(if sub == 3 { "gather" } else { "scatter" });
                let bt = Self::int(inst, "block_type");
                let nb = Self::int(inst, "num_blocks");
                let _ = write!(
                    s,
                    ".{}.{} {exec}",
                    [1, 4, 8].get(bt as usize).copied().unwrap_or(0),
                    1u32 << (nb & 3)
                );
                s.push_str(&self.op(inst, "addresses"));
                s.push_str(&self.op(inst, if sub == 3 { "dst" } else { "src" }));
            }
            Some(5) => {
                s.push_str("atomic");
                s.push_str(&atomic_suffix(Self::int(inst, "op")));
                let _ = write!(s, " {exec}");
                s.push_str(&self.op(inst, "addresses"));
                s.push_str(&self.op(inst, "dst"));
                s.push_str(&self.op(inst, "src0"));
                s.push_str(&self.op(inst, "src1"));
            }
            Some(sub @ (6 | 7)) => {
                s.push_str(if sub == 6 {
                    "gather4scaled"
                } else {
                    "scatter4scaled"
                });
                let _ = write!(
                    s,
                    ".{} {exec}",
                    spell(&names::CHANNEL_MASK, Self::int(inst, "chmask") & 0xF)
                );
                s.push_str(&self.op(inst, "address"));
                s.push_str(&self.op(inst, "offsets"));
                s.push_str(&self.op(inst, if sub == 6 { "dst" } else { "src" }));
            }
            _ => s.push_str("unknown"),
        }
        format!("{}{s}", self.pred(inst.pred()))
    }

    fn dataport(&self, inst: &Instruction) -> String {
        let op = inst.opcode;
        let mut s = String::new();
        if matches!(
            op,
            Opcode::RT_WRITE_3D
                | Opcode::GATHER4_SCALED
                | Opcode::SCATTER4_SCALED
                | Opcode::GATHER_SCALED
                | Opcode::SCATTER_SCALED
                | Opcode::DWORD_ATOMIC
                | Opcode::TYPED_ATOMIC
        ) {
            s.push_str(&self.pred(inst.pred()));
        }
        s.push_str(op.mnemonic());
        let surface = self.surface_name(Self::int(inst, "surface"));
        let exec = self.exec(inst.exec());
        let rest = |s: &mut String, names: &[&str]| {
            for n in names {
                s.push_str(&self.op(inst, n));
            }
        };
        match op {
            Opcode::MEDIA_LD | Opcode::MEDIA_ST => {
                let m = Self::int(inst, "modifier");
                let table: &[&str] = if op == Opcode::MEDIA_LD {
                    &names::MEDIA_LD_MODIFIER
                } else {
                    &names::MEDIA_ST_MODIFIER
                };
                let _ = write!(
                    s,
                    ".{} ({},{}) {surface} {}",
                    spell(table, m),
                    Self::int(inst, "block_width"),
                    Self::int(inst, "block_height"),
                    Self::int(inst, "plane")
                );
                rest(&mut s, &["x_offset", "y_offset", "dst", "src"]);
            }
            Opcode::OWORD_LD | Opcode::OWORD_LD_UNALIGNED | Opcode::OWORD_ST => {
                if op != Opcode::OWORD_ST && Self::int(inst, "modifier") & 1 != 0 {
                    s.push_str(".mod");
                }
                let _ = write!(s, " ({}) {surface}", 1u32 << (Self::int(inst, "size") & 7));
                rest(&mut s, &["offset", "dst", "src"]);
            }
            Opcode::GATHER | Opcode::SCATTER => {
                let elt = [1, 2, 4]
                    .get((Self::int(inst, "elt_size") & 3) as usize)
                    .copied()
                    .unwrap_or(0);
                let modified = op == Opcode::GATHER && Self::int(inst, "modifier") & 1 != 0;
                let n = Self::int(inst, "num_elts");
                let size = [8, 16, 1].get((n & 3) as usize).copied().unwrap_or(0);
                let em = names::EMASK[((n >> 4) & 0xF) as usize];
                if modified {
                    s.push_str(".mod");
                }
                let _ = write!(s, ".{elt} ({em}, {size})");
                if modified {
                    s.push_str(".mod");
                }
                let _ = write!(s, " {surface}");
                rest(&mut s, &["global_offset", "element_offset", "dst", "src"]);
            }
            Opcode::GATHER4_TYPED | Opcode::SCATTER4_TYPED => {
                let _ = write!(
                    s,
                    ".{} {exec} {surface}",
                    names::CHANNEL_MASK[(Self::int(inst, "chmask") & 0xF) as usize]
                );
                rest(&mut s, &["u", "v", "r", "lod", "dst", "src"]);
            }
            Opcode::GATHER4_SCALED | Opcode::SCATTER4_SCALED => {
                let _ = write!(
                    s,
                    ".{} {exec} {surface}",
                    names::CHANNEL_MASK[(Self::int(inst, "chmask") & 0xF) as usize]
                );
                rest(&mut s, &["global_offset", "offsets", "dst", "src"]);
            }
            Opcode::GATHER_SCALED | Opcode::SCATTER_SCALED => {
                let _ = write!(
                    s,
                    ".{} {exec} {surface}",
                    1u32 << (Self::int(inst, "num_blocks") & 3)
                );
                rest(&mut s, &["global_offset", "offsets", "dst", "src"]);
            }
            Opcode::RT_WRITE_3D => {
                let mode = Self::int(inst, "mode");
                if mode != 0 {
                    s.push('.');
                    for (bit, n) in [
                        (2, "<RTI>"),
                        (3, "<A>"),
                        (4, "<O>"),
                        (5, "<Z>"),
                        (6, "<ST>"),
                        (7, "<LRTW>"),
                        (8, "<CPS>"),
                        (9, "<PS>"),
                        (16, "<CM>"),
                        (17, "<SI>"),
                        (18, "<NULLRT>"),
                    ] {
                        if mode & (1 << bit) != 0 {
                            s.push_str(n);
                        }
                    }
                }
                let _ = write!(s, " {exec} {surface}");
                let fields = inst.fields().unwrap_or(&[]);
                for (f, o) in fields.iter().zip(&inst.operands) {
                    if !matches!(f.name, "mode" | "surface" | "exec" | "pred") {
                        s.push_str(&self.operand(o));
                    }
                }
            }
            Opcode::DWORD_ATOMIC => {
                s.push_str(&atomic_suffix(Self::int(inst, "op")));
                let _ = write!(s, " {exec} {surface}");
                rest(&mut s, &["offsets", "src0", "src1", "dst"]);
            }
            Opcode::TYPED_ATOMIC => {
                s.push_str(&atomic_suffix(Self::int(inst, "op")));
                let _ = write!(s, " {exec} {surface}");
                rest(&mut s, &["u", "v", "r", "lod", "src0", "src1", "dst"]);
            }
            _ => {
                let _ = write!(s, " {exec} {surface}");
                rest(&mut s, &["offsets", "dst", "src"]);
            }
        }
        s
    }

    /// Decodes the 3D sampler operation field: (op, pixel-null-mask, cps, non-uniform sampler).
    fn sampler_op(&self, v: u32) -> (u32, bool, bool, bool) {
        if self.version.major >= 4 {
            (
                v & 0xFF,
                v & (1 << 8) != 0,
                v & (1 << 9) != 0,
                v & (1 << 10) != 0,
            )
        } else {
            (
                v & 0x1F,
                v & (1 << 5) != 0,
                v & (1 << 6) != 0,
                v & (1 << 7) != 0,
            )
        }
    }

    fn sampler(&self, inst: &Instruction) -> String {
        let op = inst.opcode;
        let mut s = String::new();
        let surface = self.surface_name(Self::int(inst, "surface"));
        let exec = self.exec(inst.exec());
        match op {
            Opcode::SAMPLE | Opcode::LOAD => {
                let mode = Self::int(inst, "mode");
                let simd = match (mode >> 4) & 3 {
                    0 => 8,
                    1 => 16,
                    m => m,
                };
                let _ = write!(
                    s,
                    "{}.{} ({simd})",
                    op.mnemonic(),
                    names::CHANNEL_MASK[(mode & 0xF) as usize]
                );
                if op == Opcode::SAMPLE {
                    let _ = write!(s, " S{}", Self::int(inst, "sampler"));
                }
                let _ = write!(s, " {surface}");
                for n in ["u", "v", "r", "dst"] {
                    s.push_str(&self.op(inst, n));
                }
            }
            Opcode::SAMPLE_3D | Opcode::LOAD_3D | Opcode::GATHER4_3D => {
                s.push_str(&self.pred(inst.pred()));
                let (code, pnm, cps, divs) = self.sampler_op(Self::int(inst, "op"));
                let _ = write!(s, "{}.", spell(&names::SAMPLER_OP_3D, code));
                if pnm {
                    s.push_str("pixel_null_mask.");
                }
                if op == Opcode::SAMPLE_3D {
                    if cps {
                        s.push_str("cps.");
                    }
                    if divs {
                        s.push_str("divS.");
                    }
                }
                if op == Opcode::GATHER4_3D {
                    s.push_str(
                        ["R", "G", "B", "A"]
                            .get(Self::int(inst, "channel") as usize)
                            .copied()
                            .unwrap_or("illegal"),
                    );
                    let _ = write!(s, " {exec}");
                } else {
                    s.push_str(names::CHANNEL_MASK[(Self::int(inst, "chmask") & 0xF) as usize]);
                    let _ = write!(s, " {exec} ");
                }
                s.push_str(&self.aoffimmi(inst));
                if op != Opcode::LOAD_3D {
                    let _ = write!(s, " S{}", Self::int(inst, "sampler"));
                }
                let _ = write!(s, " {surface}");
                s.push_str(&self.op(inst, "dst"));
                s.push_str(&self.op(inst, "params"));
            }
            Opcode::INFO_3D => {
                let code = Self::int(inst, "op");
                s.push_str(&spell(&names::SAMPLER_OP_3D, code));
                if matches!(code, 10 | 11) {
                    let _ = write!(
                        s,
                        ".{}",
                        names::CHANNEL_MASK[(Self::int(inst, "chmask") & 0xF) as usize]
                    );
                }
                let _ = write!(s, " {exec}  {surface}");
                s.push_str(&self.op(inst, "lod"));
                s.push_str(&self.op(inst, "dst"));
            }
            Opcode::SAMPLE_UNORM => {
                let ch = Self::int(inst, "chmask");
                let _ = write!(
                    s,
                    "sample_unorm.{}.{} S{} {surface}",
                    names::CHANNEL_MASK[(ch & 0xF) as usize],
                    names::SAMPLER_OUTPUT_FORMAT[((ch >> 4) & 3) as usize],
                    Self::int(inst, "sampler")
                );
                for n in ["u_offset", "v_offset", "delta_u", "delta_v", "dst"] {
                    s.push_str(&self.op(inst, n));
                }
            }
            Opcode::AVS => {
                let _ = write!(
                    s,
                    "avs.{} {surface} S{}",
                    names::CHANNEL_MASK[(Self::int(inst, "chmask") & 0xF) as usize],
                    Self::int(inst, "sampler")
                );
                for n in [
                    "u_offset",
                    "v_offset",
                    "delta_u",
                    "delta_v",
                    "u2d",
                    "group_id",
                    "vertical_block_number",
                ] {
                    s.push_str(&self.op(inst, n));
                }
                let _ = write!(
                    s,
                    " {}",
                    spell(&names::AVS_CONTROL, Self::int(inst, "cntrl") & 0xF)
                );
                s.push_str(&self.op(inst, "v2d"));
                let _ = write!(
                    s,
                    " {}",
                    spell(&names::AVS_EXEC_MODE, Self::int(inst, "exec_mode") & 0xF)
                );
                s.push_str(&self.op(inst, "ief_bypass"));
                s.push_str(&self.op(inst, "dst"));
            }
            _ => {
                // VA / VA+: mnemonic of the sub-opcode, then the fields in order.
                s.push_str(inst.mnemonic());
                for o in &inst.operands {
                    s.push(' ');
                    s.push_str(self.operand(o).trim_start());
                }
            }
        }
        s
    }

    /// The 3D sampler texel offset (with its leading space): an immediate field before
    /// 3.4, which IGC's reader turns into a `uw` immediate operand, a vector operand after.
    fn aoffimmi(&self, inst: &Instruction) -> String {
        match inst.operand("aoffimmi") {
            Some(Operand::Vector(v)) => self.vector(v),
            Some(Operand::Int(v)) => format!(" 0x{v:x}:uw"),
            _ => String::new(),
        }
    }

    fn misc(&self, inst: &Instruction) -> String {
        let op = inst.opcode;
        let exec = self.exec(inst.exec());
        let pred = self.pred(inst.pred());
        match op {
            Opcode::FILE => format!(
                "FILE {}",
                quoted(self.r.string(Self::int(inst, "file")).unwrap_or_default())
            ),
            Opcode::LOC => format!("LOC {}", Self::int(inst, "line")),
            Opcode::RAW_SEND => {
                let name = if Self::int(inst, "modifier") == 1 {
                    "raw_sendc"
                } else {
                    "raw_send"
                };
                format!(
                    "{pred}{name} {exec} 0x{:x} {} {} {}{}{}",
                    Self::int(inst, "ex_desc"),
                    Self::int(inst, "num_src"),
                    Self::int(inst, "num_dst"),
                    self.op(inst, "desc"),
                    self.op(inst, "src"),
                    self.op(inst, "dst")
                )
            }
            Opcode::RAW_SENDS => {
                let m = Self::int(inst, "modifier");
                let mut s = format!(
                    "{pred}{}",
                    if m & 1 != 0 {
                        "raw_sendsc."
                    } else {
                        "raw_sends."
                    }
                );
                let _ = write!(s, "{}.", Self::int(inst, "sfid"));
                if m & 2 != 0 {
                    s.push_str("eot.");
                }
                let _ = write!(
                    s,
                    "{}.{}.{} {exec} ",
                    Self::int(inst, "num_src0"),
                    Self::int(inst, "num_src1"),
                    Self::int(inst, "num_dst")
                );
                for n in ["ex_desc", "desc", "src0", "src1", "dst"] {
                    s.push_str(&self.op(inst, n));
                }
                s
            }
            Opcode::VME_FBR => format!(
                "vme_fbr ({},{},{}) T{} {}{}{}{}",
                self.op(inst, "fbr_mb_mode"),
                self.op(inst, "fbr_sub_mb_shape"),
                self.op(inst, "fbr_sub_pred_mode"),
                Self::int(inst, "surface"),
                self.op(inst, "uni_input"),
                self.op(inst, "fbr_input"),
                self.op(inst, "dst"),
                ""
            ),
            Opcode::VME_IME => format!(
                "vme_ime({},{}) T{} {}{}{}{}{}{}",
                Self::int(inst, "stream_mode"),
                Self::int(inst, "search_ctrl"),
                Self::int(inst, "surface"),
                self.op(inst, "uni_input"),
                self.op(inst, "ime_input"),
                self.op(inst, "ref0"),
                self.op(inst, "ref1"),
                self.op(inst, "cost_center"),
                self.op(inst, "dst")
            ),
            Opcode::VME_SIC | Opcode::VME_IDM => {
                let input = if op == Opcode::VME_SIC {
                    "sic_input"
                } else {
                    "idm_input"
                };
                format!(
                    "{} T{} {}{}{}",
                    op.mnemonic(),
                    Self::int(inst, "surface"),
                    self.op(inst, "uni_input"),
                    self.op(inst, input),
                    self.op(inst, "dst")
                )
            }
            Opcode::URB_WRITE_3D => format!(
                "{pred}urb_write_3d {exec} {} {}{}{}{}{}",
                Self::int(inst, "num_out"),
                Self::int(inst, "global_offset"),
                self.op(inst, "channel_mask"),
                self.op(inst, "urb_handle"),
                self.op(inst, "per_slot_offset"),
                self.op(inst, "vertex_data")
            ),
            Opcode::LIFETIME => {
                let props = Self::int(inst, "properties");
                let var = Self::int(inst, "var");
                let target = match (props >> 4) & 3 {
                    0 => self.var_name(var),
                    1 => format!("A{var}"),
                    2 => format!("P{var}"),
                    _ => String::new(),
                };
                format!(
                    "lifetime.{} {target}",
                    if props & 1 == 0 { "start" } else { "end" }
                )
            }
            _ => {
                // dpas, dpasw and anything without a bespoke spelling: mnemonic,
                // exec size, then the fields in layout order.
                let mut s = format!("{pred}{} {exec}", inst.mnemonic());
                for o in &inst.operands {
                    s.push_str(&self.operand(o));
                }
                s
            }
        }
    }
}

fn atomic_suffix(v: u32) -> String {
    let mut s = format!(".{}", spell(&names::ATOMIC_OP, v & 0x1F));
    if v >> 5 == 1 {
        s.push_str(".16");
    } else if v >> 6 == 1 {
        s.push_str(".64");
    }
    s
}
