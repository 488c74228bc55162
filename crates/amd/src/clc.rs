//! Kernel signatures from OpenCL C source: just enough of the language to
//! know each kernel argument's type and, for structs and unions, their C
//! size. Handles comments, `#ifdef`/`#ifndef`/`#else`/`#endif` against a set
//! of defined names, `struct`/`union`/`enum` definitions, `typedef`, and
//! `kernel`/`__kernel` functions; bodies and other declarations are skipped.

use crate::abi::args::{AddressSpace, ArgType, Scalar};
use crate::limits;
use crate::metadata::{Access, DataType, ImageDim};
use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct SourceError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelSignature {
    pub name: String,
    /// Name and placement type of each argument.
    pub args: Vec<(String, ArgType)>,
    /// The same arguments with what the metadata records beyond placement.
    pub params: Vec<Param>,
}

/// What a pointer points to, as the metadata describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pointee {
    /// Element type (`u8` for `void`, `struct` for structs and unions).
    pub data_type: DataType,
    /// Bytes of one element: vec3 counts as vec4, a struct its size.
    pub size: u64,
}

/// One kernel parameter with its qualifiers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    pub name: String,
    pub ty: ArgType,
    pub pointee: Option<Pointee>,
    pub is_const: bool,
    pub is_volatile: bool,
    pub is_restrict: bool,
    /// `read_only`/`write_only`/`read_write` on images.
    pub image_access: Option<Access>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointerWidth {
    Bits32,
    Bits64,
}

#[derive(Debug, Clone, PartialEq)]
struct Tok<'a> {
    text: &'a str,
    line: usize,
    column: usize,
}

/// C layout of a type: size and alignment in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Layout {
    size: u64,
    align: u64,
}

#[derive(Debug, Clone)]
enum Named {
    Arg(ArgType),
    Aggregate(Layout),
    Void,
}

/// Reads every kernel signature in `source`. `defines` are the names
/// `#ifdef` treats as defined (the GPU compiler defines `__GPU__`).
pub fn kernel_signatures(
    source: &str,
    defines: &[&str],
    width: PointerWidth,
) -> Result<Vec<KernelSignature>, SourceError> {
    let text = preprocess(source, defines)?;
    let toks = tokenize(&text);
    let mut p = Parser {
        toks,
        pos: 0,
        structs: HashMap::new(),
        typedefs: HashMap::new(),
        width,
        depth: 0,
    };
    p.unit()
}

/// Blanks out comments and inactive conditional regions, keeping line numbers.
fn preprocess(source: &str, defines: &[&str]) -> Result<String, SourceError> {
    let mut no_comments = String::with_capacity(source.len());
    let b = source.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                if b[i] == b'\n' {
                    no_comments.push('\n');
                }
                i += 1;
            }
            i += 2;
        } else {
            let ch = source[i..].chars().next().unwrap_or(' ');
            no_comments.push(ch);
            i += ch.len_utf8();
        }
    }
    let mut out = String::with_capacity(no_comments.len());
    // Whether each enclosing conditional's current branch is taken.
    let mut stack: Vec<bool> = Vec::new();
    for (n, line) in no_comments.lines().enumerate() {
        let active = stack.iter().all(|&a| a);
        let t = line.trim_start();
        if let Some(d) = t.strip_prefix('#') {
            let mut words = d.split_whitespace();
            match words.next() {
                Some("ifdef") | Some("ifndef") => {
                    if stack.len() >= limits::MAX_TYPE_DEPTH {
                        return Err(SourceError {
                            line: n + 1,
                            column: 1,
                            message: "conditionals nested too deep".into(),
                        });
                    }
                    let name = words.next().unwrap_or("");
                    let defined = defines.contains(&name);
                    let cond = if d.trim_start().starts_with("ifdef") {
                        defined
                    } else {
                        !defined
                    };
                    stack.push(cond);
                }
                Some("else") => match stack.last_mut() {
                    Some(top) => *top = !*top,
                    None => {
                        return Err(SourceError {
                            line: n + 1,
                            column: 1,
                            message: "#else without #if".into(),
                        })
                    }
                },
                Some("endif") if stack.pop().is_none() => {
                    return Err(SourceError {
                        line: n + 1,
                        column: 1,
                        message: "#endif without #if".into(),
                    });
                }
                _ => {}
            }
            out.push('\n');
            continue;
        }
        if active {
            out.push_str(line);
        }
        out.push('\n');
    }
    Ok(out)
}

fn tokenize(text: &str) -> Vec<Tok<'_>> {
    let mut toks = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if c.is_ascii_whitespace() {
                i += 1;
            } else if c.is_ascii_alphanumeric() || c == b'_' {
                let s = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.')
                {
                    i += 1;
                }
                toks.push(Tok {
                    text: &line[s..i],
                    line: n + 1,
                    column: s + 1,
                });
            } else {
                let len = line[i..].chars().next().map_or(1, char::len_utf8);
                toks.push(Tok {
                    text: &line[i..i + len],
                    line: n + 1,
                    column: i + 1,
                });
                i += len;
            }
        }
    }
    toks
}

struct Parser<'a> {
    toks: Vec<Tok<'a>>,
    pos: usize,
    structs: HashMap<String, Layout>,
    typedefs: HashMap<String, Named>,
    width: PointerWidth,
    depth: usize,
}

const QUALIFIERS: &[&str] = &[
    "const",
    "volatile",
    "restrict",
    "__restrict",
    "__const",
    "read_only",
    "__read_only",
    "write_only",
    "__write_only",
    "read_write",
    "__read_write",
    "static",
    "inline",
    "__inline",
];

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a str> {
        self.toks.get(self.pos).map(|t| t.text)
    }
    fn next(&mut self) -> Option<&'a str> {
        let t = self.peek();
        self.pos += 1;
        t
    }
    fn err(&self, message: String) -> SourceError {
        let t = self.toks.get(self.pos).or(self.toks.last());
        SourceError {
            line: t.map_or(0, |t| t.line),
            column: t.map_or(0, |t| t.column),
            message,
        }
    }
    fn expect(&mut self, s: &str) -> Result<(), SourceError> {
        match self.peek() {
            Some(t) if t == s => {
                self.pos += 1;
                Ok(())
            }
            other => Err(self.err(format!(
                "found `{}`, expected `{s}`",
                other.unwrap_or("end of file")
            ))),
        }
    }
    /// Skips a balanced `open`..`close` group starting at the current token.
    fn skip_group(&mut self, open: &str, close: &str) -> Result<(), SourceError> {
        let mut depth = 0usize;
        while let Some(t) = self.next() {
            if t == open {
                depth += 1;
            } else if t == close {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Ok(());
                }
            }
        }
        Err(self.err(format!("unterminated `{open}`")))
    }
    fn skip_to_semicolon(&mut self) -> Result<(), SourceError> {
        while let Some(t) = self.peek() {
            match t {
                ";" => {
                    self.pos += 1;
                    return Ok(());
                }
                "{" => self.skip_group("{", "}")?,
                "(" => self.skip_group("(", ")")?,
                _ => self.pos += 1,
            }
        }
        Ok(())
    }

    fn unit(&mut self) -> Result<Vec<KernelSignature>, SourceError> {
        let mut kernels = Vec::new();
        while let Some(t) = self.peek() {
            match t {
                ";" => self.pos += 1,
                "typedef" => {
                    self.pos += 1;
                    self.typedef()?;
                }
                "struct" | "union" | "enum" if self.is_definition() => {
                    self.type_spec()?;
                    self.skip_to_semicolon()?;
                }
                "kernel" | "__kernel" => {
                    self.pos += 1;
                    if kernels.len() >= limits::MAX_KERNELS {
                        return Err(self.err("too many kernels".into()));
                    }
                    kernels.push(self.kernel()?);
                }
                "__attribute__" => {
                    self.pos += 1;
                    self.skip_group("(", ")")?;
                }
                _ => {
                    // A declaration or a non-kernel function: skip it whole.
                    loop {
                        match self.peek() {
                            None => break,
                            Some(";") => {
                                self.pos += 1;
                                break;
                            }
                            Some("{") => {
                                self.skip_group("{", "}")?;
                                break;
                            }
                            Some("(") => self.skip_group("(", ")")?,
                            Some("=") => {
                                self.skip_to_semicolon()?;
                                break;
                            }
                            _ => self.pos += 1,
                        }
                    }
                }
            }
        }
        Ok(kernels)
    }

    fn is_definition(&self) -> bool {
        let next = |k: usize| self.toks.get(self.pos + k).map(|t| t.text);
        next(1) == Some("{") || next(2) == Some("{")
    }

    fn typedef(&mut self) -> Result<(), SourceError> {
        let named = self.type_spec()?;
        let mut pointer = false;
        while self.peek() == Some("*") {
            pointer = true;
            self.pos += 1;
        }
        let name = self
            .next()
            .ok_or_else(|| self.err("typedef without a name".into()))?;
        let named = if pointer {
            Named::Arg(ArgType::Pointer(AddressSpace::Private))
        } else {
            named
        };
        self.typedefs.insert(name.to_owned(), named);
        self.skip_to_semicolon()
    }

    /// Reads a type specifier (after qualifiers), defining structs/unions/enums on the way.
    fn type_spec(&mut self) -> Result<Named, SourceError> {
        while self.peek().is_some_and(|t| QUALIFIERS.contains(&t)) {
            self.pos += 1;
        }
        let t = self
            .next()
            .ok_or_else(|| self.err("expected a type".into()))?;
        match t {
            "struct" | "union" => {
                let is_union = t == "union";
                let tag = match self.peek() {
                    Some("{") => None,
                    Some(name) => {
                        self.pos += 1;
                        Some(name.to_owned())
                    }
                    None => return Err(self.err("expected a struct tag or `{`".into())),
                };
                if self.peek() == Some("{") {
                    let layout = self.aggregate_body(is_union)?;
                    if let Some(tag) = tag {
                        self.structs.insert(tag, layout);
                    }
                    return Ok(Named::Aggregate(layout));
                }
                let tag = tag.unwrap_or_default();
                self.structs
                    .get(&tag)
                    .map(|l| Named::Aggregate(*l))
                    .ok_or_else(|| self.err(format!("struct or union `{tag}` is not defined")))
            }
            "enum" => {
                if self.peek().is_some_and(|t| t != "{") {
                    self.pos += 1;
                }
                if self.peek() == Some("{") {
                    self.skip_group("{", "}")?;
                }
                Ok(Named::Arg(ArgType::Scalar(Scalar::UInt)))
            }
            "unsigned" | "signed" => {
                let unsigned = t == "unsigned";
                let base = match self.peek() {
                    Some(b @ ("char" | "short" | "int" | "long")) => {
                        self.pos += 1;
                        b
                    }
                    _ => "int",
                };
                let s = match (base, unsigned) {
                    ("char", true) => Scalar::UChar,
                    ("char", false) => Scalar::Char,
                    ("short", true) => Scalar::UShort,
                    ("short", false) => Scalar::Short,
                    ("long", true) => Scalar::ULong,
                    ("long", false) => Scalar::Long,
                    (_, true) => Scalar::UInt,
                    (_, false) => Scalar::Int,
                };
                Ok(Named::Arg(ArgType::Scalar(s)))
            }
            "void" => Ok(Named::Void),
            name => match builtin(name, self.width) {
                Some(ty) => Ok(Named::Arg(ty)),
                None => self.typedefs.get(name).cloned().ok_or_else(|| SourceError {
                    line: self.toks[self.pos - 1].line,
                    column: self.toks[self.pos - 1].column,
                    message: format!("unknown type `{name}`"),
                }),
            },
        }
    }

    fn aggregate_body(&mut self, is_union: bool) -> Result<Layout, SourceError> {
        self.depth += 1;
        if self.depth > limits::MAX_TYPE_DEPTH {
            return Err(self.err("structs nested too deep".into()));
        }
        self.expect("{")?;
        let mut size = 0u64;
        let mut align = 1u64;
        let mut fields = 0usize;
        while self.peek() != Some("}") {
            if self.peek().is_none() {
                return Err(self.err("unterminated struct".into()));
            }
            let named = self.type_spec()?;
            loop {
                let mut pointer = false;
                while self.peek() == Some("*") {
                    pointer = true;
                    self.pos += 1;
                }
                let field = self
                    .next()
                    .ok_or_else(|| self.err("expected a field name".into()))?;
                let field_at = self.pos - 1;
                // Sizes are checked, never saturated: a wrapped size would place
                // the argument as if it were small.
                let too_big = |p: &Self| SourceError {
                    line: p.toks[field_at].line,
                    column: p.toks[field_at].column,
                    message: format!("struct field `{field}`: size overflows 64 bits"),
                };
                let mut count = 1u64;
                while self.peek() == Some("[") {
                    self.pos += 1;
                    let n = self.next().and_then(|t| t.parse::<u64>().ok());
                    count = count
                        .checked_mul(n.ok_or_else(|| self.err("expected an array size".into()))?)
                        .ok_or_else(|| too_big(self))?;
                    self.expect("]")?;
                }
                let l = if pointer {
                    let p = ptr_size(self.width);
                    Layout { size: p, align: p }
                } else {
                    layout_of(&named, self.width)
                };
                fields += 1;
                if fields > limits::MAX_STRUCT_FIELDS {
                    return Err(self.err("too many struct fields".into()));
                }
                let fsize = l.size.checked_mul(count).ok_or_else(|| too_big(self))?;
                align = align.max(l.align);
                if is_union {
                    size = size.max(fsize);
                } else {
                    size = size
                        .checked_next_multiple_of(l.align.max(1))
                        .and_then(|s| s.checked_add(fsize))
                        .ok_or_else(|| too_big(self))?;
                }
                match self.next() {
                    Some(",") => continue,
                    Some(";") => break,
                    other => {
                        self.pos -= 1;
                        return Err(self.err(format!(
                            "found `{}`, expected `,` or `;`",
                            other.unwrap_or("end of file")
                        )));
                    }
                }
            }
        }
        self.expect("}")?;
        self.depth -= 1;
        let size = size.checked_next_multiple_of(align).ok_or_else(|| {
            self.err(format!(
                "struct of {size} bytes: its padded size overflows 64 bits"
            ))
        })?;
        Ok(Layout { size, align })
    }

    fn kernel(&mut self) -> Result<KernelSignature, SourceError> {
        while self.peek() == Some("__attribute__") {
            self.pos += 1;
            self.skip_group("(", ")")?;
        }
        self.expect("void")?;
        let name = self
            .next()
            .ok_or_else(|| self.err("expected the kernel name".into()))?
            .to_owned();
        self.expect("(")?;
        let mut params: Vec<Param> = Vec::new();
        if self.peek() == Some("void") && self.toks.get(self.pos + 1).map(|t| t.text) == Some(")") {
            self.pos += 1;
        }
        while self.peek() != Some(")") {
            if params.len() >= limits::MAX_KERNEL_ARGS {
                return Err(self.err("too many kernel arguments".into()));
            }
            params.push(self.param()?);
            match self.peek() {
                Some(",") => self.pos += 1,
                Some(")") => {}
                other => {
                    return Err(self.err(format!(
                        "found `{}`, expected `,` or `)`",
                        other.unwrap_or("end of file")
                    )))
                }
            }
        }
        self.expect(")")?;
        while self.peek() == Some("__attribute__") {
            self.pos += 1;
            self.skip_group("(", ")")?;
        }
        match self.peek() {
            Some("{") => self.skip_group("{", "}")?,
            Some(";") => self.pos += 1,
            _ => {}
        }
        let args = params
            .iter()
            .map(|p| (p.name.clone(), p.ty.clone()))
            .collect();
        Ok(KernelSignature { name, args, params })
    }

    fn param(&mut self) -> Result<Param, SourceError> {
        let mut space = AddressSpace::Private;
        let (mut is_const, mut is_volatile, mut is_restrict) = (false, false, false);
        let mut image_access = None;
        let mut qualifier = |t: &str, space: &mut AddressSpace| -> bool {
            match t {
                "global" | "__global" => *space = AddressSpace::Global,
                "constant" | "__constant" => *space = AddressSpace::Constant,
                "local" | "__local" => *space = AddressSpace::Local,
                "private" | "__private" => *space = AddressSpace::Private,
                "const" | "__const" => is_const = true,
                "volatile" => is_volatile = true,
                "restrict" | "__restrict" => is_restrict = true,
                "read_only" | "__read_only" => image_access = Some(Access::ReadOnly),
                "write_only" | "__write_only" => image_access = Some(Access::WriteOnly),
                "read_write" | "__read_write" => image_access = Some(Access::ReadWrite),
                t => return QUALIFIERS.contains(&t),
            }
            true
        };
        while let Some(t) = self.peek() {
            if !qualifier(t, &mut space) {
                break;
            }
            self.pos += 1;
        }
        let named = self.type_spec()?;
        let mut pointer = false;
        while let Some(t) = self.peek() {
            if t == "*" {
                pointer = true;
            } else if !qualifier(t, &mut space) {
                break;
            }
            self.pos += 1;
        }
        let name = self
            .next()
            .ok_or_else(|| self.err("expected an argument name".into()))?
            .to_owned();
        while self.peek() == Some("__attribute__") {
            self.pos += 1;
            self.skip_group("(", ")")?;
        }
        let (ty, pointee) = if pointer {
            (
                ArgType::Pointer(space),
                Some(pointee_of(&named, self.width)),
            )
        } else {
            let ty = match named {
                Named::Arg(t) => t,
                Named::Aggregate(l) => ArgType::Aggregate { size: l.size },
                Named::Void => return Err(self.err(format!("argument `{name}` has type void"))),
            };
            (ty, None)
        };
        Ok(Param {
            name,
            ty,
            pointee,
            is_const,
            is_volatile,
            is_restrict,
            image_access,
        })
    }
}

fn pointee_of(named: &Named, width: PointerWidth) -> Pointee {
    match named {
        Named::Void => Pointee {
            data_type: DataType::U8,
            size: 1,
        },
        Named::Aggregate(l) => Pointee {
            data_type: DataType::Struct,
            size: l.size,
        },
        Named::Arg(ArgType::Scalar(s)) => Pointee {
            data_type: s.metadata_type(),
            size: s.size().into(),
        },
        Named::Arg(ArgType::Vector(s, _)) => Pointee {
            data_type: s.metadata_type(),
            size: layout_of(named, width).size,
        },
        Named::Arg(ArgType::Aggregate { size }) => Pointee {
            data_type: DataType::Struct,
            size: *size,
        },
        Named::Arg(_) => Pointee {
            data_type: DataType::Opaque,
            size: ptr_size(width),
        },
    }
}

fn ptr_size(width: PointerWidth) -> u64 {
    match width {
        PointerWidth::Bits32 => 4,
        PointerWidth::Bits64 => 8,
    }
}

fn layout_of(named: &Named, width: PointerWidth) -> Layout {
    match named {
        Named::Aggregate(l) => *l,
        Named::Arg(ArgType::Scalar(s)) => Layout {
            size: s.size().into(),
            align: s.size().into(),
        },
        Named::Arg(ArgType::Vector(s, n)) => {
            // vec3 has the size and alignment of vec4.
            let n = if *n == 3 { 4 } else { *n };
            let size = u64::from(s.size()) * u64::from(n);
            Layout { size, align: size }
        }
        Named::Arg(ArgType::Aggregate { size }) => Layout {
            size: *size,
            align: 1,
        },
        Named::Void => Layout { size: 1, align: 1 },
        Named::Arg(_) => {
            let p = ptr_size(width);
            Layout { size: p, align: p }
        }
    }
}

fn builtin(name: &str, width: PointerWidth) -> Option<ArgType> {
    let scalar = |s: &str| -> Option<Scalar> {
        Some(match s {
            "bool" => Scalar::Bool,
            "char" => Scalar::Char,
            "uchar" => Scalar::UChar,
            "short" => Scalar::Short,
            "ushort" => Scalar::UShort,
            "int" => Scalar::Int,
            "uint" => Scalar::UInt,
            "long" => Scalar::Long,
            "ulong" => Scalar::ULong,
            "half" => Scalar::Half,
            "float" => Scalar::Float,
            "double" => Scalar::Double,
            "size_t" | "uintptr_t" => match width {
                PointerWidth::Bits32 => Scalar::UInt,
                PointerWidth::Bits64 => Scalar::ULong,
            },
            "ptrdiff_t" | "intptr_t" => match width {
                PointerWidth::Bits32 => Scalar::Int,
                PointerWidth::Bits64 => Scalar::Long,
            },
            _ => return None,
        })
    };
    if let Some(s) = scalar(name) {
        return Some(ArgType::Scalar(s));
    }
    let special = match name {
        "sampler_t" => Some(ArgType::Sampler),
        "counter32_t" => Some(ArgType::Counter32),
        "event_t" => Some(ArgType::Event),
        "image1d_t" => Some(ArgType::Image(ImageDim::D1)),
        "image1d_array_t" => Some(ArgType::Image(ImageDim::D1Array)),
        "image1d_buffer_t" => Some(ArgType::Image(ImageDim::D1Buffer)),
        "image2d_t" => Some(ArgType::Image(ImageDim::D2)),
        "image2d_array_t" => Some(ArgType::Image(ImageDim::D2Array)),
        "image3d_t" => Some(ArgType::Image(ImageDim::D3)),
        _ => None,
    };
    if special.is_some() {
        return special;
    }
    let digits = name.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let base = &name[..name.len() - digits.len()];
    let n: u32 = digits.parse().ok()?;
    if matches!(n, 2 | 3 | 4 | 8 | 16) {
        scalar(base).map(|s| ArgType::Vector(s, n))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn struct_layout() {
        let src = "struct s { float4 a; ushort b; ushort c[3]; uint d; };\n\
                   union u { uint4 x; double4 z; };\n\
                   typedef enum _E { A = 0 } E;\n\
                   kernel void k(struct s a, union u b, E e, global float* p, int8 v) {}";
        let ks = kernel_signatures(src, &[], PointerWidth::Bits32).unwrap();
        assert_eq!(ks.len(), 1);
        let a = &ks[0].args;
        assert_eq!(a[0].1, ArgType::Aggregate { size: 32 });
        assert_eq!(a[1].1, ArgType::Aggregate { size: 32 });
        assert_eq!(a[2].1, ArgType::Scalar(Scalar::UInt));
        assert_eq!(a[3].1, ArgType::Pointer(AddressSpace::Global));
        assert_eq!(a[4].1, ArgType::Vector(Scalar::Int, 8));
    }
}
