//! Prints routines as IGC's `.visaasm` dumps do (the style of the release that writes
//! the file's version, see [`Style`]).
//!
//! The layout table says which fields an instruction has; this file says how each
//! instruction family spells them, following the order and punctuation of IGC's own
//! dumps. Every operand is printed with its leading separator, as IGC does, so
//! families compose by concatenation.

use super::style::Style;
use super::template::{named_fields, pieces, Piece};
use crate::isa::names::{self, spell};
use crate::isa::syntax::{syntax, Format, ALTERNATE_SYNTAX};
use crate::isa::{predefined_vars, FieldKind, Opcode, Type, PREDEFINED_SURFACES};
use crate::limits::{PREDEFINED_SURFACES as NUM_PREDEF_SURFACES, PREDEFINED_VARS};
use crate::model::*;
use crate::version::Version;
use std::fmt::Write as _;

/// Prints every kernel and then every function of the object, each as a complete
/// What the object itself may not say.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrintOptions {
    /// GRF size in bytes of the target platform; `&var[offset]` operands print bytes and the
    /// model holds rows and columns, so this must be the size the text was parsed with.
    /// `None`: the size the object names ([`Object::grf_bytes`]), else 32.
    pub grf_bytes: Option<u32>,
}

impl PrintOptions {
    /// The GRF size to print with: the one given, else the one the object names, else 32.
    fn grf_for(&self, obj: &Object) -> u32 {
        self.grf_bytes
            .or_else(|| obj.grf_bytes())
            .unwrap_or(crate::limits::GRF_BYTES_DEFAULT)
    }
}

/// `.visaasm` text in the style of the release that writes the object's version, for the
/// GRF size the object names (its Gen binaries or build trailer), else 32 bytes.
pub fn print_text(obj: &Object) -> String {
    print_text_with(obj, &PrintOptions::default())
}

/// `.visaasm` text in the style of the release that writes the object's version.
pub fn print_text_with(obj: &Object, options: &PrintOptions) -> String {
    let mut out = String::new();
    let _ = print_all(obj, options, &mut out, None);
    out
}

/// Writes the text of [`print_text_with`] to `w` as it is made, a block of lines at a
/// time: memory stays that of the object, whatever the size of the text.
pub fn write_text_with(
    obj: &Object,
    options: &PrintOptions,
    w: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut out = String::with_capacity(FLUSH_AT + 4096);
    print_all(obj, options, &mut out, Some(w))
}

/// How much text is gathered before a streamed write.
const FLUSH_AT: usize = 1 << 20;

fn print_all<'w>(
    obj: &Object,
    options: &PrintOptions,
    out: &mut String,
    mut sink: Option<&mut (dyn std::io::Write + 'w)>,
) -> std::io::Result<()> {
    let style = Style::for_version(obj.version);
    // Looked up once: the object's GRF size is a walk over every routine.
    let options = &PrintOptions {
        grf_bytes: Some(options.grf_for(obj)),
    };
    let routines = (0..obj.kernels.len())
        .map(RoutineRef::Kernel)
        .chain((0..obj.functions.len()).map(RoutineRef::Function));
    let mut open_line = false;
    for which in routines {
        // IGC ends a routine's text inside a line (the build trailer, an empty
        // routine's header); a routine printed after one starts on a line of its own,
        // else the last line would swallow the next routine's first.
        if open_line {
            out.push('\n');
        }
        open_line = print_routine_into(obj, which, style, options, out, sink.as_deref_mut())?;
    }
    if let Some(w) = sink {
        w.write_all(out.as_bytes())?;
        out.clear();
    }
    Ok(())
}

/// Which routine of an object to print.
#[derive(Clone, Copy, Debug)]
pub enum RoutineRef {
    Kernel(usize),
    Function(usize),
}

pub fn print_routine(obj: &Object, which: RoutineRef, style: Style) -> String {
    print_routine_with(obj, which, style, &PrintOptions::default())
}

pub fn print_routine_with(
    obj: &Object,
    which: RoutineRef,
    style: Style,
    options: &PrintOptions,
) -> String {
    let mut out = String::new();
    let _ = print_routine_into(obj, which, style, options, &mut out, None);
    out
}

/// Appends one routine's text to `out` (one buffer for the whole text: no string per
/// line or operand); with a `sink`, the buffer is written out and emptied whenever it
/// holds [`FLUSH_AT`] bytes. Returns whether the text ends inside a line (IGC ends
/// the build trailer without a newline, and the header of a routine without
/// instructions too).
fn print_routine_into<'w>(
    obj: &Object,
    which: RoutineRef,
    style: Style,
    options: &PrintOptions,
    out: &mut String,
    mut sink: Option<&mut (dyn std::io::Write + 'w)>,
) -> std::io::Result<bool> {
    let rp = RoutinePrinter::new(obj, which, style, options);
    let (p, r) = (&rp.printer, rp.printer.r);
    out.push_str(&rp.header());
    if let Some(insts) = r.code.instructions() {
        if sink.is_none() {
            // About 75 bytes a line in IGC's layout; a hint, not a bound.
            out.reserve(insts.len().saturating_mul(80));
        }
        let mut walk = insts.walk();
        while let Some((id, inst)) = walk.next_instruction() {
            p.line(inst, id, out);
            out.push('\n');
            if let Some(w) = sink.as_deref_mut() {
                if out.len() >= FLUSH_AT {
                    w.write_all(out.as_bytes())?;
                    out.clear();
                }
            }
        }
    }
    out.push_str(&rp.trailer());
    // An empty buffer was just flushed after an instruction's line, which ends one.
    Ok(out.as_bytes().last().is_some_and(|&b| b != b'\n'))
}

/// One routine's text a piece at a time (the header, any instruction's line, the
/// trailer), for callers that show part of a routine (reports of huge kernels).
pub struct RoutinePrinter<'a> {
    printer: Printer<'a>,
    obj: &'a Object,
    is_kernel: bool,
}

impl<'a> RoutinePrinter<'a> {
    /// # Panics
    /// When `which` names no routine of `obj`.
    pub fn new(obj: &'a Object, which: RoutineRef, style: Style, options: &PrintOptions) -> Self {
        let (r, is_kernel) = match which {
            RoutineRef::Kernel(i) => (&obj.kernels[i].body, true),
            RoutineRef::Function(i) => (&obj.functions[i].body, false),
        };
        let grf_bytes = options.grf_for(obj).max(1) as usize;
        RoutinePrinter {
            printer: Printer {
                r,
                version: obj.version,
                style,
                grf_bytes,
            },
            obj,
            is_kernel,
        }
    }

    /// Everything before the first instruction: the routine line, declarations,
    /// inputs and attributes; ends with a newline.
    pub fn header(&self) -> String {
        self.printer.header(self.obj, self.is_kernel)
    }

    /// Appends the line of instruction `index` (without its newline); nothing when
    /// the routine has no such instruction.
    pub fn instruction_line(&self, index: usize, out: &mut String) {
        let mut scratch = Vec::new();
        let code = self.printer.r.code.instructions_or_empty();
        if let Some(inst) = code.get_with(index, &mut scratch) {
            self.printer.line(inst, index, out);
        }
    }

    /// What follows the last instruction (IGC 2.x's build trailer), often nothing.
    pub fn trailer(&self) -> String {
        let p = &self.printer;
        match (p.style.prints_build_info(), &p.r.build_info) {
            (true, Some(b)) => format!(
                "\n//Platform: {}\n//Build option: {}",
                b.platform, b.options
            ),
            _ => String::new(),
        }
    }
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
    for (i, &c) in s.iter().enumerate() {
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
            // IGC's one-digit form, except where a hex digit follows: `\x0` then `a`
            // would read back as `\x0a` (an escape takes up to two digits).
            _ if c < 0x10 && s.get(i + 1).is_some_and(u8::is_ascii_hexdigit) => {
                let _ = write!(o, "\\x{c:02x}");
            }
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
        let mut s = String::new();
        self.var_name_into(id, &mut s);
        s
    }

    fn var_name_into(&self, id: u32, out: &mut String) {
        if id < PREDEFINED_VARS {
            match crate::isa::PREDEFINED_VARS.get(id as usize) {
                Some(p) => out.push_str(p.name),
                None => {
                    let _ = write!(out, "V{id}");
                }
            }
        } else {
            match self.r.variables.get((id - PREDEFINED_VARS) as usize) {
                Some(v) => self.string_into(v.name_index, out),
                None => {
                    let _ = write!(out, "V{id}");
                }
            }
        }
    }

    /// What [`Routine::string_lossy`] gives, appended without an allocation of its own.
    fn string_into(&self, index: u32, out: &mut String) {
        match self.r.string(index) {
            Some(s) => out.push_str(&String::from_utf8_lossy(s)),
            None => {
                let _ = write!(out, "<string #{index}?>");
            }
        }
    }

    fn surface_name(&self, id: u32) -> String {
        match PREDEFINED_SURFACES.get(id as usize) {
            Some((name, _)) => name.to_string(),
            None => format!("T{id}"),
        }
    }

    /// A state operand's name: a sampler (class 1) or a surface.
    fn state_name(&self, class: u8, index: u16) -> String {
        if class == 1 {
            format!("S{index}")
        } else {
            self.surface_name(index.into())
        }
    }

    fn label_name_into(&self, id: u32, out: &mut String) {
        match self.r.labels.get(id as usize) {
            Some(l) => self.string_into(l.name_index, out),
            None => {
                let _ = write!(out, "L{id}");
            }
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
            AttributeValue::Int { value, .. } => {
                let is_bool = matches!(
                    crate::isa::attribute_kind(name.as_bytes()),
                    Some(crate::isa::AttributeKind::Bool)
                );
                if is_bool {
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
            // A bare name reads back as an empty string only for string attributes
            // (others read it as a set flag): any other empty string shows its quotes.
            AttributeValue::Str(s)
                if s.is_empty()
                    && crate::isa::attribute_kind(name.as_bytes())
                        == Some(crate::isa::AttributeKind::CStr) =>
            {
                name
            }
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
        if self.style.blank_line_after_version() {
            h.push('\n');
        }
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
        if v.is_alias() {
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

    fn region_into(&self, r: Region, out: &mut String) {
        let v = |c: u8, out: &mut String| match Region::code_value(c) {
            Some(x) => push_uint(out, x),
            None => out.push('?'),
        };
        out.push('<');
        if r.width_code() == 0 {
            v(r.hstride_code(), out);
        } else if r.vstride_code() == 0 {
            v(r.width_code(), out);
            out.push(',');
            v(r.hstride_code(), out);
        } else {
            v(r.vstride_code(), out);
            out.push(';');
            v(r.width_code(), out);
            out.push(',');
            v(r.hstride_code(), out);
        }
        out.push('>');
    }

    /// A vector operand with its leading space.
    fn vector(&self, v: &Vector) -> String {
        let mut s = String::new();
        self.vector_into(v, &mut s);
        s
    }

    fn vector_into(&self, v: &Vector, out: &mut String) {
        let m = names::MODIFIER
            .get(v.modifier.0 as usize)
            .copied()
            .unwrap_or("");
        out.push(' ');
        out.push_str(m);
        match v.kind {
            VectorKind::General {
                id,
                row,
                col,
                region,
            } => {
                self.var_name_into(id, out);
                out.push('(');
                push_uint(out, row);
                out.push(',');
                push_uint(out, col);
                out.push(')');
                self.region_into(region, out);
            }
            VectorKind::Address { id, offset, width } => {
                let w = ExecCtrl(width & 0xF).exec_size().unwrap_or(0);
                let _ = write!(out, "A{id}({offset})<{w}>");
            }
            VectorKind::Predicate(p) => {
                out.push('P');
                push_uint(out, p.0);
            }
            VectorKind::Indirect {
                addr,
                addr_offset,
                offset,
                ty,
                region,
            } => {
                let t = Type::of_operand_byte(ty).name().unwrap_or("?");
                let _ = write!(out, "r[A{addr}({addr_offset}),{offset}]");
                self.region_into(region, out);
                out.push(':');
                out.push_str(t);
            }
            VectorKind::Immediate { ty, bits } => {
                // The modifier is not printed on immediates.
                out.truncate(out.len() - m.len());
                let t = Type::of_operand_byte(ty);
                let value = if t.is_wide_immediate() {
                    bits.get()
                } else {
                    bits.get() & 0xFFFF_FFFF
                };
                let _ = write!(out, "0x{value:x}:{}", t.name().unwrap_or("?"));
            }
            VectorKind::State {
                class,
                index,
                offset,
            } => {
                out.truncate(out.len() - m.len());
                let _ = write!(out, "{}({offset})", self.state_name(class, index));
            }
        }
    }

    fn raw_into(&self, r: &Raw, out: &mut String) {
        out.push(' ');
        self.var_name_into(r.id, out);
        out.push('.');
        push_uint(out, r.offset);
    }

    /// Any operand as IGC's generic operand printer shows it: numbers bare, vector and
    /// raw operands with a leading space.
    fn operand(&self, o: &Operand) -> String {
        let mut s = String::new();
        self.operand_into(o, &mut s);
        s
    }

    fn operand_into(&self, o: &Operand, out: &mut String) {
        match o {
            Operand::Vector(v) => self.vector_into(v, out),
            Operand::Raw(r) => self.raw_into(r, out),
            Operand::Int(n) => push_uint(out, *n),
            Operand::RawList(list) => {
                for r in list.iter() {
                    self.raw_into(r, out);
                }
            }
            Operand::Label(l) => {
                out.push(' ');
                self.label_name_into((*l).into(), out);
            }
            Operand::LabelList(_) | Operand::Exec(_) | Operand::Pred(_) | Operand::Absent => {}
        }
    }

    fn exec_into(&self, e: Option<ExecCtrl>, out: &mut String) {
        if let Some(e) = e {
            out.push('(');
            out.push_str(names::EMASK[e.emask() as usize]);
            out.push_str(", ");
            match e.exec_size() {
                Some(n) => push_uint(out, n),
                None => out.push('?'),
            }
            out.push(')');
        }
    }

    fn pred_into(&self, p: Option<Pred>, out: &mut String) {
        match p {
            Some(p) if p.0 != 0 => {
                let ctrl = match p.control() {
                    1 => ".any",
                    2 => ".all",
                    _ => "",
                };
                out.push('(');
                if p.inverse() {
                    out.push('!');
                }
                out.push('P');
                push_uint(out, p.id());
                out.push_str(ctrl);
                out.push_str(") ");
            }
            _ => {}
        }
    }

    // ------------------------------------------------------------ instructions

    /// One instruction line: indent, text, padding to column 80 and the id comment.
    fn line(&self, inst: InstRef<'_>, id: usize, out: &mut String) {
        let op = inst.opcode;
        let start = out.len();
        if op != Opcode::LABEL {
            out.push_str("    ");
        }
        self.instruction(inst, out);
        if !matches!(
            op,
            Opcode::LOC | Opcode::FUNC | Opcode::FILE | Opcode::LABEL
        ) {
            const SPACES: &str =
                "                                                                                ";
            let pad = 80usize.saturating_sub(out.len() - start);
            out.push_str(&SPACES[..pad.min(SPACES.len())]);
            out.push_str(" /// $");
            push_uint(out, id as u64);
        }
    }

    /// `addr_add`'s first source: an address register, or the address of a variable or
    /// state, with the byte offset its row and column give.
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
                let mut s = format!(" {m}&{}", self.state_name(class, index));
                if offset != 0 {
                    let _ = write!(s, "[{}]", offset as u32 * 4);
                }
                s
            }
            _ => self.vector(v),
        }
    }

    fn instruction(&self, inst: InstRef<'_>, out: &mut String) {
        if matches!(inst.opcode, Opcode::FUNC | Opcode::LABEL) {
            out.push_str(&self.label_line(inst));
            return;
        }
        let template = syntax(inst.opcode, inst.subop, self.version);
        // IGC's assembler reads `raw_sendsc` only without the SFID, which it takes from
        // the immediate extended descriptor: print that form when it says the same.
        if inst.opcode == Opcode::RAW_SENDS && field_int(inst, "modifier") & 3 == 1 {
            if let Some(Operand::Vector(Vector {
                kind: VectorKind::Immediate { bits, .. },
                ..
            })) = inst.operand("ex_desc")
            {
                if bits.get() as u32 & 0xF == field_int(inst, "sfid") {
                    return self.render(inst, ALTERNATE_SYNTAX[0].template, out);
                }
            }
        }
        self.render(inst, template, out)
    }

    /// `func` and `label` start blocks: a blank line, then the label (a subroutine's
    /// name carries its id and a `.function` line before it).
    fn label_line(&self, inst: InstRef<'_>) -> String {
        let id = match inst.operand("label") {
            Some(Operand::Label(l)) => u32::from(*l),
            _ => 0,
        };
        let name = self.label_name(id);
        if inst.opcode == Opcode::FUNC {
            let unique = format!("{name}_{id}");
            if self.style.blank_line_before_function_directive() {
                format!("\n\n.function {}\n{unique}:", quoted(unique.as_bytes()))
            } else {
                format!("\n.function {}\n\n{unique}:", quoted(unique.as_bytes()))
            }
        } else {
            format!("\n{name}:")
        }
    }

    fn render(&self, inst: InstRef<'_>, template: &'static str, s: &mut String) {
        let compiled = compiled(template);
        let (pieces, named) = (&compiled.pieces, &compiled.named);
        let fields = inst.fields().unwrap_or(&[]);
        for piece in pieces {
            match *piece {
                Piece::Literal(l) => s.push_str(l),
                Piece::Pred => self.pred_into(inst.pred(), s),
                Piece::Exec => self.exec_into(inst.exec(), s),
                Piece::Mnemonic => s.push_str(inst.mnemonic()),
                Piece::Sat => {
                    if let Some(Operand::Vector(v)) = inst.operand("dst") {
                        if v.modifier == Modifier::SAT {
                            s.push_str(".sat");
                        }
                    }
                }
                Piece::Rest => {
                    for (f, o) in fields.iter().zip(inst.operands) {
                        if !matches!(f.kind, FieldKind::Exec | FieldKind::Pred)
                            && !named.contains(&f.name)
                        {
                            self.operand_into(o, s);
                        }
                    }
                }
                Piece::Field(name, fmt) => {
                    let Some(o) = inst.operand(name) else {
                        continue;
                    };
                    match fmt {
                        None => self.operand_into(o, s),
                        Some(fmt) => s.push_str(&self.format(inst, fmt, o)),
                    }
                }
            }
        }
    }

    /// One field through a formatter; `inst` gives the context some spellings need.
    fn format(&self, inst: InstRef<'_>, fmt: Format, o: &Operand) -> String {
        let v = match o {
            Operand::Int(v) => *v,
            Operand::Label(l) => u32::from(*l),
            _ => 0,
        };
        match fmt {
            Format::Surface => self.surface_name(v),
            Format::Channels => names::CHANNEL_MASK[(v & 0xF) as usize].to_string(),
            Format::Relop => format!(
                "{}.{}",
                if v & 0x80 != 0 { "n" } else { "" },
                spell(&names::RELOP, v & 0x7)
            ),
            Format::MinMax => (if v == 0 { "min" } else { "max" }).to_string(),
            Format::Atomic => atomic_suffix(v),
            Format::Owords => (1u32 << (v & 7)).to_string(),
            Format::Blocks => (1u32 << (v & 3)).to_string(),
            Format::EltSize => [1, 2, 4]
                .get((v & 3) as usize)
                .copied()
                .unwrap_or(0)
                .to_string(),
            Format::GatherExec => {
                let size = [8, 16, 1].get((v & 3) as usize).copied().unwrap_or(0);
                format!("({}, {size})", names::EMASK[((v >> 4) & 0xF) as usize])
            }
            Format::Modified => (if v & 1 != 0 { ".mod" } else { "" }).to_string(),
            Format::Hex => format!("0x{v:x}"),
            Format::Label => self.label_name(v),
            Format::CallTarget => {
                let mut s = self.label_name(v);
                if self.r.labels.get(v as usize).is_some_and(|l| l.kind == 1) {
                    let _ = write!(s, "_{v}");
                }
                s
            }
            Format::LabelList => match o {
                Operand::LabelList(l) => {
                    let names: Vec<_> = l.iter().map(|&l| self.label_name(l.into())).collect();
                    format!("({})", names.join(", "))
                }
                _ => String::new(),
            },
            Format::Str => self.s(v),
            Format::Quoted => quoted(self.r.string(v).unwrap_or_default()),
            Format::MediaLdModifier => spell(&names::MEDIA_LD_MODIFIER, v),
            Format::MediaStModifier => spell(&names::MEDIA_ST_MODIFIER, v),
            Format::SimdMode => match (v >> 4) & 3 {
                0 => "8".to_string(),
                1 => "16".to_string(),
                m => m.to_string(),
            },
            Format::SamplerOp3d => {
                let (code, pnm, cps, divs) = sampler_op_parts(self.version, v);
                let mut s = format!("{}.", spell(&names::SAMPLER_OP_3D, code));
                if pnm {
                    s.push_str("pixel_null_mask.");
                }
                if inst.opcode == Opcode::SAMPLE_3D {
                    if cps {
                        s.push_str("cps.");
                    }
                    if divs {
                        s.push_str("divS.");
                    }
                }
                s
            }
            Format::SingleChannel => ["R", "G", "B", "A"]
                .get(v as usize)
                .copied()
                .unwrap_or("illegal")
                .to_string(),
            Format::InfoOp => {
                let mut s = spell(&names::SAMPLER_OP_3D, v);
                if matches!(v, 10 | 11) {
                    let ch = match inst.operand("chmask") {
                        Some(Operand::Int(c)) => *c,
                        _ => 0,
                    };
                    let _ = write!(s, ".{}", names::CHANNEL_MASK[(ch & 0xF) as usize]);
                }
                s
            }
            Format::UnormFormat => {
                names::SAMPLER_OUTPUT_FORMAT[((v >> 4) & 3) as usize].to_string()
            }
            Format::AvsControl => spell(&names::AVS_CONTROL, v & 0xF),
            Format::AvsExecMode => spell(&names::AVS_EXEC_MODE, v & 0xF),
            Format::RtWriteMode => {
                let mut s = String::new();
                if v != 0 {
                    s.push('.');
                    for (bit, n) in RT_WRITE_FLAGS {
                        if v & (1 << bit) != 0 {
                            s.push_str(n);
                        }
                    }
                }
                s
            }
            Format::Fence => {
                if v & 0x80 != 0 {
                    "_sw".to_string()
                } else {
                    let mut s = (if v & 0x20 != 0 { "_local" } else { "_global" }).to_string();
                    // IGC prints the dot whenever the mask is not 0, so `fence_local.` for
                    // the bare local bit, which its own assembler cannot read back; no IGC
                    // dump shows that case, and gpukit prints the dot only before letters.
                    if FENCE_FLAGS.iter().any(|(bit, _)| v & (1 << bit) != 0) {
                        s.push('.');
                        for (bit, n) in FENCE_FLAGS {
                            if v & (1 << bit) != 0 {
                                s.push_str(n);
                            }
                        }
                    }
                    s
                }
            }
            Format::SplitBarrier => (if v != 0 { ".signal" } else { ".wait" }).to_string(),
            Format::Lifetime => (if v & 1 == 0 { "start" } else { "end" }).to_string(),
            Format::LifetimeTarget => {
                let props = match inst.operand("properties") {
                    Some(Operand::Int(p)) => *p,
                    _ => 0,
                };
                match (props >> 4) & 3 {
                    0 => self.var_name(v),
                    1 => format!("A{v}"),
                    2 => format!("P{v}"),
                    _ => String::new(),
                }
            }
            Format::AddressOf => self.address_of(o),
            Format::RawSend => (if v == 1 { "raw_sendc" } else { "raw_send" }).to_string(),
            // IGC's printer writes an end-of-thread split send as `raw_sends.<sfid>.eot.`,
            // which its assembler rejects; gpukit prints the form the assembler reads,
            // `raw_sends_eot.` (no IGC dump shows the case), and parses both.
            Format::RawSends => match v & 3 {
                0 => "raw_sends.",
                1 => "raw_sendsc.",
                2 => "raw_sends_eot.",
                _ => "raw_sendsc_eot.",
            }
            .to_string(),
            Format::EndOfThread => String::new(),
            Format::SvmBlock => {
                let mut s = String::new();
                if v & 8 != 0 {
                    s.push_str(".unaligned");
                }
                let _ = write!(s, " ({})", 1u32 << (v & 7));
                s
            }
            Format::SvmBlockType => [1, 4, 8]
                .get((v & 3) as usize)
                .copied()
                .unwrap_or(0)
                .to_string(),
            Format::LscSfid => format!(".{}", spell(&names::LSC_SFID, v)),
            Format::LscCaching => {
                let l3 = field_int(inst, "l3");
                if v == 0 && l3 == 0 {
                    String::new()
                } else {
                    format!(
                        ".{}.{}",
                        spell(&names::LSC_CACHE, v),
                        spell(&names::LSC_CACHE, l3)
                    )
                }
            }
            Format::LscRaw => match o {
                Operand::Raw(r) => self.lsc_raw(r),
                _ => String::new(),
            },
            Format::LscData => {
                let Operand::Raw(r) = o else {
                    return String::new();
                };
                let mut s = format!(
                    "{}:{}",
                    self.lsc_raw(r),
                    self.lsc_data_size(field_int(inst, "data_size"))
                );
                if names::lsc_has_chmask(inst.subop.unwrap_or(0)) {
                    s.push('.');
                    for (bit, ch) in ["x", "y", "z", "w"].iter().enumerate() {
                        if field_int(inst, "chmask") & (1 << bit) != 0 {
                            s.push_str(ch);
                        }
                    }
                } else {
                    s.push_str(
                        names::LSC_ELEMS
                            .get(field_int(inst, "data_elems") as usize)
                            .copied()
                            .unwrap_or("x?"),
                    );
                    if field_int(inst, "data_order") == 2 {
                        s.push('t');
                    }
                }
                s
            }
            Format::LscAddress => {
                let mut s = self.lsc_surface(inst, v);
                s.push('[');
                let scale = field_int(inst, "imm_scale");
                if scale > 1 {
                    let _ = write!(s, "0x{scale:x}*");
                }
                if let Some(Operand::Raw(r)) = inst.operand("src0") {
                    s.push_str(&self.lsc_raw(r));
                }
                let off = field_int(inst, "imm_offset") as i32;
                if off != 0 {
                    let _ = write!(
                        s,
                        "{}0x{:x}",
                        if off < 0 { "-" } else { "+" },
                        off.unsigned_abs()
                    );
                }
                if let Some(Operand::Vector(p)) = inst.operand("src0_pitch") {
                    if !matches!(p.kind, VectorKind::General { id: 0, .. }) {
                        let _ = write!(s, ", {}", self.lsc_vector(p));
                    }
                }
                let _ = write!(
                    s,
                    "]:{}",
                    spell(&names::LSC_ADDR_SIZE, field_int(inst, "addr_size"))
                );
                s
            }
            Format::LscTypedAddress => {
                let mut s = self.lsc_surface(inst, v);
                let mut regs = Vec::new();
                for n in ["u", "v", "r", "lod"] {
                    match inst.operand(n) {
                        Some(Operand::Raw(r)) if r.id != 0 => regs.push(self.var_name(r.id)),
                        _ => break,
                    }
                }
                let _ = write!(
                    s,
                    "[{}]:{}",
                    regs.join(", "),
                    spell(&names::LSC_ADDR_SIZE, field_int(inst, "addr_size"))
                );
                s
            }
            Format::LscSurface => self.lsc_surface(inst, v),
            Format::LscData2d => {
                let Operand::Raw(r) = o else {
                    return String::new();
                };
                let mut s = format!(
                    "{}:{}.",
                    self.lsc_raw(r),
                    self.lsc_data_size(field_int(inst, "data_size"))
                );
                let blocks = field_int(inst, "blocks");
                if blocks != 1 {
                    let _ = write!(s, "{blocks}x");
                }
                let _ = write!(
                    s,
                    "{}x{}{}{}",
                    field_int(inst, "block_width"),
                    field_int(inst, "block_height"),
                    if field_int(inst, "data_order") == 2 {
                        't'
                    } else {
                        'n'
                    },
                    if field_int(inst, "vnni") != 0 {
                        't'
                    } else {
                        'n'
                    }
                );
                s
            }
            Format::LscBlock2dAddress => {
                let parts: Vec<_> = [
                    "surface_base",
                    "surface_width",
                    "surface_height",
                    "surface_pitch",
                    "x",
                    "y",
                ]
                .iter()
                .map(|n| match inst.operand(n) {
                    Some(Operand::Vector(v)) => self.lsc_vector(v),
                    _ => String::new(),
                })
                .collect();
                format!("flat[{}]", parts.join(", "))
            }
            Format::LscFenceOp => format!(".{}", spell(&names::LSC_FENCE_OP, v)),
            Format::LscScope => format!(".{}", spell(&names::LSC_SCOPE, v)),
            Format::BfnControl => format!("x{v:x}"),
            Format::RawSendg => match v & 3 {
                0 => "raw_sendg.",
                1 => "raw_sendgc.",
                2 => "raw_sendg_eot.",
                _ => "raw_sendgc_eot.",
            }
            .to_string(),
            Format::HexUpper => format!("0x{v:X}"),
            Format::Descriptor64 => {
                format!(
                    "0x{:X}",
                    u64::from(field_int(inst, "desc_hi")) << 32 | u64::from(v)
                )
            }
            Format::LfsrControl => spell(&names::LFSR_FUNC, v).to_string(),
            Format::DnsclConversion => spell(&names::DNSCL_CONVERSION, v).to_string(),
            Format::DnsclMode => spell(&names::DNSCL_MODE, v).to_string(),
            Format::DnsclRounding => spell(&names::DNSCL_ROUNDING, v).to_string(),
            Format::Sampler => format!("S{v}"),
            Format::Symbol => {
                let bytes = self.r.string(v).unwrap_or_default();
                let ident = !bytes.is_empty()
                    && !bytes[0].is_ascii_digit()
                    && bytes
                        .iter()
                        .all(|c| c.is_ascii_alphanumeric() || *c == b'_');
                if ident {
                    self.s(v)
                } else {
                    quoted(bytes)
                }
            }
            Format::DpasInfo => format!(
                ".{}.{}.{}.{}",
                spell(&names::DPAS_PRECISION, v & 0xFF),
                spell(&names::DPAS_PRECISION, (v >> 8) & 0xFF),
                (v >> 16) & 0xFF,
                v >> 24
            ),
            Format::NoRegion => match o {
                Operand::Vector(Vector {
                    modifier,
                    kind: VectorKind::General { id, row, col, .. },
                }) => {
                    let m = names::MODIFIER
                        .get(modifier.0 as usize)
                        .copied()
                        .unwrap_or("");
                    format!(" {m}{}({row},{col})", self.var_name(*id))
                }
                _ => self.operand(o),
            },
            Format::WhenSignal => {
                if field_int(inst, "mode") & 1 != 0 {
                    self.operand(o)
                } else {
                    String::new()
                }
            }
        }
    }

    fn lsc_raw(&self, r: &Raw) -> String {
        if r.offset != 0 {
            format!("{}.{}", self.var_name(r.id), r.offset)
        } else {
            self.var_name(r.id)
        }
    }

    /// An LSC surface or address-part operand: an immediate in upper-case hex, or a
    /// variable with its row/column only when not 0.
    fn lsc_vector(&self, v: &Vector) -> String {
        match v.kind {
            VectorKind::Immediate { bits, .. } => format!("0x{:X}", bits.get() as u32),
            VectorKind::General { id, row, col, .. } => {
                if row != 0 || col != 0 {
                    format!("{}({row},{col})", self.var_name(id))
                } else {
                    self.var_name(id)
                }
            }
            _ => self.vector(v).trim_start().to_string(),
        }
    }

    /// The address model, with its surface for the stateful models.
    fn lsc_surface(&self, inst: InstRef<'_>, addr_type: u32) -> String {
        let mut s = spell(&names::LSC_ADDR_TYPE, addr_type);
        if matches!(addr_type, 2..=4) {
            if let Some(Operand::Vector(v)) = inst.operand("surface") {
                let _ = write!(s, "({})", self.lsc_vector(v));
            }
        }
        s
    }

    fn lsc_data_size(&self, v: u32) -> String {
        if self.version >= Version::new(4, 2) {
            spell(&names::LSC_DATA_SIZE_V42, v)
        } else {
            spell(&names::LSC_DATA_SIZE, v)
        }
    }
}

/// The value of an integer field, or 0.
pub(crate) fn field_int(inst: InstRef<'_>, name: &str) -> u32 {
    match inst.operand(name) {
        Some(Operand::Int(v)) => *v,
        _ => 0,
    }
}

/// `rt_write_3d` mode bits and their flags, in IGC's print order.
pub(crate) const RT_WRITE_FLAGS: [(u32, &str); 11] = [
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
];

/// `fence` mask bits and their letters.
pub(crate) const FENCE_FLAGS: [(u32, &str); 6] =
    [(0, "E"), (1, "I"), (2, "S"), (3, "C"), (4, "R"), (6, "L1")];

/// Splits the 3D sampler operation field: (op, pixel-null-mask, cps, non-uniform sampler).
/// The field is a byte before vISA 4.0 and a word after, with the flags moved.
pub(crate) fn sampler_op_parts(version: Version, v: u32) -> (u32, bool, bool, bool) {
    if version.major >= 4 {
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

fn atomic_suffix(v: u32) -> String {
    let mut s = format!(".{}", spell(&names::ATOMIC_OP, v & 0x1F));
    if v >> 5 == 1 {
        s.push_str(".16");
    } else if v >> 6 == 1 {
        s.push_str(".64");
    }
    s
}

/// A template split into pieces, once.
struct Compiled {
    pieces: Vec<Piece<'static>>,
    named: Vec<&'static str>,
}

/// The pieces of `template`, split once per template for the life of the process (every
/// template is static data of `isa::syntax`; a template's address identifies it).
fn compiled(template: &'static str) -> std::sync::Arc<Compiled> {
    use std::sync::{Arc, Mutex, OnceLock};
    type Cache = super::hash::FastMap<(usize, usize), Arc<Compiled>>;
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    let key = (template.as_ptr() as usize, template.len());
    let cache = CACHE.get_or_init(Default::default);
    let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
    map.entry(key)
        .or_insert_with(|| {
            let pieces = pieces(template);
            let named = named_fields(&pieces);
            Arc::new(Compiled { pieces, named })
        })
        .clone()
}

/// Appends the decimal digits of `n` (what `write!(out, "{n}")` gives, without the
/// formatting machinery).
fn push_uint(out: &mut String, n: impl Into<u64>) {
    let mut n: u64 = n.into();
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        out.push(d as char);
    }
}
