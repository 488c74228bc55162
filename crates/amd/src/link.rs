//! The link step the runtime performs on a whole-program AMD IL string to
//! get the IL of one kernel (ROCm/clr `gpuprogram.cpp`, and the 2009 spec's
//! "Runtime Source Modification"):
//!
//! 1. `;DEBUGSTART`..`;DEBUGEND` blocks are stripped.
//! 2. Functions are `func N` .. `endfunc` line ranges; each is followed by
//!    its metadata block, tied to it by `;uniqueid:N`. A block named
//!    `__OpenCL_<k>_kernel` makes the function kernel `k`.
//! 3. Starting from the kernel, `;function:` lists give the call graph;
//!    functions (and other kernels) it does not reach are removed, code and
//!    metadata together.
//! 4. `;intrinsic:` lists name macros (`mdef(N)`..`mend`) from an intrinsic
//!    library; each needed macro is put at the top of the output once.
//! 5. The `;$$$$$$$$$$` marker in main becomes `call N;` with N the kernel's id.
//!
//! Difference from the runtime: it overwrites only as many marker bytes as
//! `call N;` has (leaving a stray `$` inside the comment for 4-digit ids);
//! gpukit replaces the whole marker.

use crate::limits;
use crate::metadata::{parse_metadata_at, Metadata, ParseError};
use std::collections::{HashMap, HashSet};
use std::ops::Range;

pub const MARKER: &str = ";$$$$$$$$$$";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    #[error("line {line}: `;DEBUGSTART` has no matching `;DEBUGEND`")]
    UnterminatedDebug { line: usize },
    #[error("no `{MARKER}` call marker in main")]
    NoMarker,
    #[error("line {line}: `func {id}` has no matching `endfunc`")]
    UnterminatedFunction { line: usize, id: u32 },
    #[error("line {line}: `{text}`: expected `func <decimal id>`")]
    BadFunctionLine { line: usize, text: String },
    #[error("line {line}: function {id} is defined twice (first at line {first})")]
    DuplicateFunction { line: usize, id: u32, first: usize },
    #[error("line {line}: `;ARGSTART:` has no matching `;ARGEND:`")]
    UnterminatedMetadata { line: usize },
    #[error("metadata: {0}")]
    Metadata(ParseError),
    #[error("line {line}: metadata block `{name}` has no `;uniqueid:` tying it to a function")]
    MetadataWithoutId { line: usize, name: String },
    #[error("line {line}: metadata block `{name}` names function {id}, which is not defined")]
    MetadataForMissingFunction { line: usize, name: String, id: u32 },
    #[error("no kernel `{name}` in the program (kernels: {available})")]
    NoSuchKernel { name: String, available: String },
    #[error("function {caller} calls function {callee}, which is not defined in the program")]
    MissingFunction { caller: u32, callee: u32 },
    #[error("call cycle: {}", cycle.iter().map(u32::to_string).collect::<Vec<_>>().join(" -> "))]
    Cycle { cycle: Vec<u32> },
    #[error("function {function} needs intrinsic {id}, which is neither in the program nor in the intrinsic library")]
    MissingIntrinsic { function: u32, id: u32 },
    #[error("line {line}: `mdef({id})` has no matching `mend`")]
    UnterminatedMacro { line: usize, id: u32 },
    #[error("more than {max} functions", max = limits::MAX_IL_FUNCTIONS)]
    TooManyFunctions,
}

/// Removes every `;DEBUGSTART`..`;DEBUGEND` block (whole lines).
pub fn strip_debug(text: &str) -> Result<String, LinkError> {
    let mut out = String::with_capacity(text.len());
    let mut open: Option<usize> = None;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let t = line.trim();
        match open {
            None if t.starts_with(";DEBUGSTART") => open = Some(n + 1),
            None => out.push_str(line),
            Some(_) if t.starts_with(";DEBUGEND") => open = None,
            Some(_) => {}
        }
    }
    match open {
        Some(line) => Err(LinkError::UnterminatedDebug { line }),
        None => Ok(out),
    }
}

/// One `func`..`endfunc` range and its metadata.
#[derive(Debug, Clone)]
pub struct IlFunction {
    pub id: u32,
    /// 1-based line of `func N`.
    pub line: usize,
    /// Byte range of the code lines (from `func` through `endfunc`).
    pub code: Range<usize>,
    /// Byte range and parsed form of the metadata block.
    pub metadata: Option<(Range<usize>, Metadata<'static>)>,
}

/// A whole-program IL text, split into its parts.
#[derive(Debug, Clone)]
pub struct IlProgram {
    /// The text after debug stripping.
    pub text: String,
    pub marker: Range<usize>,
    pub functions: Vec<IlFunction>,
    /// Macros defined in the program itself (`mdef(N)`..`mend`).
    pub macros: HashMap<u32, Range<usize>>,
    /// Index into `functions` by id, built once by `parse`.
    by_id: HashMap<u32, usize>,
}

struct LineInfo<'a> {
    n: usize,
    start: usize,
    end: usize,
    text: &'a str,
}

fn lines(text: &str) -> Vec<LineInfo<'_>> {
    let mut out = Vec::new();
    let mut pos = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        out.push(LineInfo {
            n: i + 1,
            start: pos,
            end: pos + l.len(),
            text: l.trim_end_matches(['\n', '\r']),
        });
        pos += l.len();
    }
    out
}

/// What follows `word` when the line starts with it and then whitespace (a space or a
/// tab: IL is whitespace-separated, whatever the editor wrote).
fn after_keyword<'t>(t: &'t str, word: &str) -> Option<&'t str> {
    let rest = t.strip_prefix(word)?;
    rest.starts_with(|c: char| c.is_whitespace())
        .then_some(rest)
}

fn word_id(rest: &str) -> Option<u32> {
    let tok = rest.split(|c: char| c.is_whitespace() || c == ';').next()?;
    crate::metadata::parse::parse_decimal(tok).and_then(|v| u32::try_from(v).ok())
}

fn macro_id(t: &str) -> Option<u32> {
    let rest = t.strip_prefix("mdef(")?;
    let close = rest.find(')')?;
    crate::metadata::parse::parse_decimal(&rest[..close]).and_then(|v| u32::try_from(v).ok())
}

/// Finds `mdef(N)`..`mend` macros in `text`.
pub fn find_macros(text: &str) -> Result<HashMap<u32, Range<usize>>, LinkError> {
    let mut out = HashMap::new();
    let mut open: Option<(u32, usize, usize)> = None;
    for l in lines(text) {
        let t = l.text.trim();
        match open {
            None => {
                if let Some(id) = macro_id(t) {
                    open = Some((id, l.start, l.n));
                }
            }
            Some((id, start, _))
                if t == "mend" || after_keyword(t, "mend").is_some() || t.starts_with("mend;") =>
            {
                if out.len() >= limits::MAX_IL_FUNCTIONS {
                    return Err(LinkError::TooManyFunctions);
                }
                out.entry(id).or_insert(start..l.end);
                open = None;
            }
            Some(_) => {}
        }
    }
    if let Some((id, _, line)) = open {
        return Err(LinkError::UnterminatedMacro { line, id });
    }
    Ok(out)
}

impl IlProgram {
    pub fn parse(source: &str) -> Result<Self, LinkError> {
        let text = strip_debug(source)?;
        let marker_at = text.find(MARKER).ok_or(LinkError::NoMarker)?;
        let marker = marker_at..marker_at + MARKER.len();
        let ls = lines(&text);
        let mut functions: Vec<IlFunction> = Vec::new();
        let mut by_id: HashMap<u32, usize> = HashMap::new();
        let mut blocks: Vec<(Range<usize>, Metadata<'static>, usize)> = Vec::new();
        let mut i = 0;
        while i < ls.len() {
            let t = ls[i].text.trim_start();
            if let Some(rest) = after_keyword(t, "func") {
                let id = word_id(rest.trim_start()).ok_or_else(|| LinkError::BadFunctionLine {
                    line: ls[i].n,
                    text: t.to_owned(),
                })?;
                let end = ls[i..]
                    .iter()
                    .position(|l| l.text.trim_start().starts_with("endfunc"))
                    .ok_or(LinkError::UnterminatedFunction { line: ls[i].n, id })?;
                if let Some(&first) = by_id.get(&id) {
                    return Err(LinkError::DuplicateFunction {
                        line: ls[i].n,
                        id,
                        first: functions[first].line,
                    });
                }
                if functions.len() >= limits::MAX_IL_FUNCTIONS {
                    return Err(LinkError::TooManyFunctions);
                }
                by_id.insert(id, functions.len());
                functions.push(IlFunction {
                    id,
                    line: ls[i].n,
                    code: ls[i].start..ls[i + end].end,
                    metadata: None,
                });
                i += end + 1;
            } else if t.starts_with(";ARGSTART:") {
                let end = ls[i..]
                    .iter()
                    .position(|l| l.text.starts_with(";ARGEND:"))
                    .ok_or(LinkError::UnterminatedMetadata { line: ls[i].n })?;
                let range = ls[i].start..ls[i + end].end;
                let md = parse_metadata_at(text[range.clone()].as_bytes(), ls[i].n)
                    .map_err(LinkError::Metadata)?;
                blocks.push((range, md.into_owned(), ls[i].n));
                i += end + 1;
            } else {
                i += 1;
            }
        }
        for (range, md, line) in blocks {
            let id = md.unique_id().ok_or_else(|| LinkError::MetadataWithoutId {
                line,
                name: md.name.to_string(),
            })?;
            let &f = by_id
                .get(&id)
                .ok_or_else(|| LinkError::MetadataForMissingFunction {
                    line,
                    name: md.name.to_string(),
                    id,
                })?;
            functions[f].metadata = Some((range, md));
        }
        let macros = find_macros(&text)?;
        Ok(IlProgram {
            text,
            marker,
            functions,
            macros,
            by_id,
        })
    }

    pub fn kernels(&self) -> impl Iterator<Item = (&str, &IlFunction)> {
        self.functions.iter().filter_map(|f| {
            f.metadata
                .as_ref()
                .and_then(|(_, m)| m.kernel_name())
                .map(|k| (k, f))
        })
    }

    fn function(&self, id: u32) -> Option<&IlFunction> {
        self.by_id.get(&id).map(|&i| &self.functions[i])
    }

    fn callees(&self, id: u32) -> Vec<u32> {
        self.function(id)
            .and_then(|f| f.metadata.as_ref())
            .map(|(_, m)| m.called_functions())
            .unwrap_or_default()
    }

    /// Ids of the functions `root` reaches, `root` first, in depth-first order.
    /// Fails on an undefined callee or a call cycle.
    pub fn reachable(&self, root: u32) -> Result<Vec<u32>, LinkError> {
        #[derive(Clone, Copy, PartialEq)]
        enum Mark {
            Active,
            Done,
        }
        let mut mark: HashMap<u32, Mark> = HashMap::new();
        let mut order = Vec::new();
        // Explicit stack of (function, its callees, next callee index) instead of
        // recursion; each function's callee list is built once, when it is entered,
        // so the walk is linear in the call graph.
        let mut stack: Vec<(u32, Vec<u32>, usize)> = vec![(root, self.callees(root), 0)];
        mark.insert(root, Mark::Active);
        order.push(root);
        while let Some((id, callees, next)) = stack.last_mut() {
            let id = *id;
            let Some(&callee) = callees.get(*next) else {
                mark.insert(id, Mark::Done);
                stack.pop();
                continue;
            };
            *next += 1;
            if self.function(callee).is_none() {
                return Err(LinkError::MissingFunction { caller: id, callee });
            }
            match mark.get(&callee) {
                Some(Mark::Done) => {}
                Some(Mark::Active) => {
                    let from = stack.iter().position(|(f, _, _)| *f == callee).unwrap_or(0);
                    let mut cycle: Vec<u32> = stack[from..].iter().map(|(f, _, _)| *f).collect();
                    cycle.push(callee);
                    return Err(LinkError::Cycle { cycle });
                }
                None => {
                    if order.len() >= limits::MAX_IL_FUNCTIONS {
                        return Err(LinkError::TooManyFunctions);
                    }
                    mark.insert(callee, Mark::Active);
                    order.push(callee);
                    stack.push((callee, self.callees(callee), 0));
                }
            }
        }
        Ok(order)
    }

    /// The IL the runtime hands the shader compiler for kernel `name`.
    /// `library` is the text of an intrinsic library (`mdef`..`mend` macros).
    pub fn link(&self, name: &str, library: Option<&str>) -> Result<String, LinkError> {
        let kernel = self
            .kernels()
            .find(|(k, _)| *k == name)
            .map(|(_, f)| f.id)
            .ok_or_else(|| LinkError::NoSuchKernel {
                name: name.to_owned(),
                available: self
                    .kernels()
                    .map(|(k, _)| k)
                    .collect::<Vec<_>>()
                    .join(", "),
            })?;
        let used = self.reachable(kernel)?;
        let used_set: HashSet<u32> = used.iter().copied().collect();
        let lib_macros = match library {
            Some(l) => find_macros(l)?,
            None => HashMap::new(),
        };
        let mut prelude = String::new();
        let mut placed: HashSet<u32> = HashSet::new();
        for &f in &used {
            let Some((_, md)) = self.function(f).and_then(|f| f.metadata.as_ref()) else {
                continue;
            };
            for id in md.intrinsics() {
                if placed.contains(&id) || self.macros.contains_key(&id) {
                    continue;
                }
                let range = lib_macros
                    .get(&id)
                    .ok_or(LinkError::MissingIntrinsic { function: f, id })?;
                let lib = library.unwrap_or("");
                prelude.push_str(&lib[range.clone()]);
                if !prelude.ends_with('\n') {
                    prelude.push('\n');
                }
                placed.insert(id);
            }
        }
        // Cut out unused functions with their metadata, in text order.
        let mut cuts: Vec<Range<usize>> = Vec::new();
        for f in &self.functions {
            if used_set.contains(&f.id) {
                continue;
            }
            cuts.push(f.code.clone());
            if let Some((r, _)) = &f.metadata {
                cuts.push(r.clone());
            }
        }
        cuts.push(self.marker.clone());
        cuts.sort_by_key(|r| r.start);
        let mut out = prelude;
        let mut pos = 0;
        for cut in cuts {
            if cut.start < pos {
                continue;
            }
            out.push_str(&self.text[pos..cut.start]);
            if cut == self.marker {
                out.push_str(&format!("call {kernel};"));
            }
            pos = cut.end;
        }
        out.push_str(&self.text[pos..]);
        Ok(out)
    }
}

/// Parses `program` and links kernel `name` (see [`IlProgram::link`]).
pub fn link_kernel(program: &str, name: &str, library: Option<&str>) -> Result<String, LinkError> {
    IlProgram::parse(program)?.link(name, library)
}
