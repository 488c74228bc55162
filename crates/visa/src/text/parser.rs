//! Parses vISA assembly text into an [`Object`]: directives and declarations line by
//! line, instructions by matching the templates of `crate::isa::syntax`, the same
//! ones the printer renders.

use super::cursor::{is_name_byte, LineCursor, PResult};
use super::diagnostic::{Diagnostic, Diagnostics};
use super::hash::{FastMap, NameMap};
use super::printer::{sampler_op_parts, FENCE_FLAGS, RT_WRITE_FLAGS};
use super::template::{named_fields, pieces, Piece};
use crate::isa::names;
use crate::isa::syntax::{all_syntax, Format, ALTERNATE_SYNTAX};
use crate::isa::{
    predefined_vars, Align, Cond, Field, FieldKind, Layout, Opcode, Type, PREDEFINED_SURFACES,
};
use crate::limits;
use crate::limits::PREDEFINED_VARS;
use crate::model::*;
use crate::version::Version;
use std::sync::OnceLock;

/// Most diagnostics reported for one text; the rest would be noise.
const MAX_DIAGNOSTICS: usize = 50;

/// Instructions a routine has before its list is reserved for the rest of the text.
const RESERVE_AFTER: usize = 16_384;

/// What the text itself does not say.
#[derive(Clone, Copy, Debug)]
pub struct ParseOptions {
    /// GRF size in bytes of the target platform (64 on PVC, 32 before): `&var[offset]`
    /// operands name bytes, the binary stores rows and columns.
    pub grf_bytes: u32,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            grf_bytes: limits::GRF_BYTES_DEFAULT,
        }
    }
}

impl ParseOptions {
    /// The options a text names itself: IGC 2.x's `//Platform:` trailer decides the GRF
    /// size; without one, 32-byte GRFs.
    pub fn for_text(src: &str) -> ParseOptions {
        let named = last_platform_line(src);
        ParseOptions {
            grf_bytes: named.map_or(
                limits::GRF_BYTES_DEFAULT,
                crate::model::grf_bytes_of_platform,
            ),
        }
    }
}

/// What follows `//Platform: ` on the last line that starts with it (trailing `\r`s
/// dropped). A forward search: scanning lines backwards cost more than parsing some.
fn last_platform_line(src: &str) -> Option<&str> {
    const TRAILER: &str = "//Platform: ";
    let b = src.as_bytes();
    let start = memchr::memmem::find_iter(b, TRAILER)
        .filter(|&i| i == 0 || b[i - 1] == b'\n')
        .last()?;
    let end = memchr::memchr(b'\n', &b[start..]).map_or(b.len(), |e| start + e);
    src.get(start + TRAILER.len()..end)
        .map(|l| l.trim_end_matches('\r'))
}

/// How a line found by `scan_line` ends.
enum LineEnd {
    /// No `//` comment and no string.
    Plain,
    /// A `//` comment from this offset of the text, with no string before it.
    Comment(usize),
    /// A `"` before any comment: the comment is found around the string.
    Quoted,
}

/// One line of `src` from `start`: where the piece up to the next `\n` ends (as
/// `src.split('\n')` yields it) and, when no `"` comes before it, where its `//`
/// comment starts. One scan finds both: IGC pads each instruction with spaces up to a
/// `/// $n` comment, so the comment is found first and only its few bytes are left
/// to search for the newline.
#[inline]
fn scan_line(b: &[u8], start: usize) -> (usize, LineEnd) {
    let newline_from = |at: usize| {
        // A comment is mostly short (`/// $12`): a few bytes looked at directly cost
        // less than a `memchr` call.
        let near = &b[at..b.len().min(at + 16)];
        match near.iter().position(|&x| x == b'\n') {
            Some(e) => at + e,
            None if near.len() < 16 => b.len(),
            None => memchr::memchr(b'\n', &b[at + 16..]).map_or(b.len(), |e| at + 16 + e),
        }
    };
    let mut from = start;
    loop {
        let Some(i) = memchr::memchr3(b'\n', b'/', b'"', &b[from..]) else {
            return (b.len(), LineEnd::Plain);
        };
        let at = from + i;
        match b[at] {
            b'\n' => return (at, LineEnd::Plain),
            b'"' => return (newline_from(at), LineEnd::Quoted),
            _ if b.get(at + 1) == Some(&b'/') => {
                return (newline_from(at + 2), LineEnd::Comment(at))
            }
            _ => from = at + 1,
        }
    }
}

/// Where the text of `line` starts and ends without its surrounding blanks (ASCII
/// blanks bytewise, others as `str::trim` sees them); `None` for a blank line.
#[inline]
fn content_bounds(line: &str) -> Option<(usize, usize)> {
    let b = line.as_bytes();
    // IGC indents instructions by four spaces.
    let mut s = if b.starts_with(b"    ") { 4 } else { 0 };
    while s < b.len() && ASCII_BLANK[b[s] as usize] {
        s += 1;
    }
    if s < b.len() && !b[s].is_ascii() {
        s = line.len() - line.trim_start().len();
    }
    if s == b.len() {
        return None;
    }
    Some((s, trim_end_fast(line).len()))
}

/// Parses a whole `.visaasm` text for the platform its build trailer names, else for one
/// with 32-byte GRFs.
pub fn parse_text(src: &str) -> Result<Object, Diagnostics> {
    parse_text_for(src, &ParseOptions::default())
}

/// [`parse_text`] for the platform the build trailer names, else for `fallback` (the GRF
/// size the program binary beside the text names: IGC 1.0.12504's dumps have no trailer).
pub fn parse_text_for(src: &str, fallback: &ParseOptions) -> Result<Object, Diagnostics> {
    let default = *fallback;
    let (result, platform) = parse_lines(src, &default);
    // The trailer comes after the lines it governs, so the text is read for the fallback's
    // GRFs and read again only when it names another size and a line depended on the size
    // (a search for the trailer first cost more than the rare second reading).
    let named = match platform {
        TrailerSeen::Complete { last, grf_used } => last.filter(|_| grf_used),
        TrailerSeen::Stopped => last_platform_line(src),
    };
    let grf_bytes = named.map_or(default.grf_bytes, crate::model::grf_bytes_of_platform);
    if grf_bytes == default.grf_bytes {
        return result;
    }
    parse_text_with(src, &ParseOptions { grf_bytes })
}

/// What a reading of a text saw of its `//Platform:` trailer.
enum TrailerSeen<'a> {
    /// Every line was read: the last trailer line's platform, and whether any line's
    /// meaning depended on the GRF size.
    Complete {
        last: Option<&'a str>,
        grf_used: bool,
    },
    /// The reading stopped early (too many diagnostics).
    Stopped,
}

/// Parses a whole `.visaasm` text.
pub fn parse_text_with(src: &str, options: &ParseOptions) -> Result<Object, Diagnostics> {
    parse_lines(src, options).0
}

fn parse_lines<'a>(
    src: &'a str,
    options: &ParseOptions,
) -> (Result<Object, Diagnostics>, TrailerSeen<'a>) {
    // Files saved by Windows editors begin with a byte-order mark.
    let src = src.strip_prefix('\u{feff}').unwrap_or(src);
    let mut p = Parser {
        grf_bytes: options.grf_bytes,
        ..Parser::default()
    };
    let b = src.as_bytes();
    // IGC never prints a tab: one search of the whole text spares one per line.
    let has_tabs = memchr::memchr(b'\t', b).is_some();
    let mut platform = None;
    let mut stopped = false;
    let mut start = 0;
    let mut no = 0;
    while start <= b.len() {
        no += 1;
        let (end, comment) = scan_line(b, start);
        let piece = &src[start..end];
        let piece_start = start;
        start = end + 1;
        let raw = match piece.as_bytes().last() {
            Some(b'\r') => piece.trim_end_matches('\r'),
            _ => piece,
        };
        // (Only a line that starts with `/` can be a trailer comment.)
        if raw.as_bytes().first() == Some(&b'/') {
            let named = raw.strip_prefix("//Platform: ");
            if named.is_some() {
                platform = named;
            }
            if let Some(rb) = p.routine.as_mut() {
                // IGC 2.x's build trailer is a pair of comments worth keeping.
                if let Some(named) = named {
                    rb.build_info
                        .get_or_insert_with(BuildInfo::default)
                        .platform = named.to_string();
                    continue;
                }
                if let Some(options) = raw.strip_prefix("//Build option: ") {
                    rb.build_info.get_or_insert_with(BuildInfo::default).options =
                        options.to_string();
                    continue;
                }
            }
        }
        // The comment `scan_line` found (no string before it) ends the line; a line with
        // a string has its comment found around the string.
        let line = match comment {
            LineEnd::Comment(at) => &piece[..at - piece_start],
            LineEnd::Quoted => strip_comment_quoted(raw).0,
            LineEnd::Plain => raw,
        };
        let Some((s, e)) = content_bounds(line) else {
            continue;
        };
        // Tabs are blanks wherever the grammar has a space; only those inside the text
        // need rewriting (`tabs_as_spaces`, same length) for the steps that look for spaces.
        p.remaining = b.len() - piece_start;
        let result = if has_tabs && memchr::memchr(b'\t', &line.as_bytes()[s..e]).is_some() {
            p.line(&tabs_as_spaces(line), no, s, e)
        } else {
            p.line(line, no, s, e)
        };
        if let Err(d) = result {
            p.diags.push(*d);
            if p.diags.len() >= MAX_DIAGNOSTICS {
                stopped = true;
                break;
            }
        }
    }
    p.finish_routine();
    if p.version.is_none() && p.diags.is_empty() {
        p.diags.push(Diagnostic {
            line: 1,
            col: 1,
            message: "no `.version` directive".into(),
            token: String::new(),
            expected: "`.version M.m`".into(),
        });
    }
    if p.diags.is_empty() && p.kernels.is_empty() && p.functions.is_empty() {
        let line = src.split('\n').count();
        p.diags.push(*diag(
            line,
            1,
            "no kernel or function in the text",
            "",
            "`.kernel \"name\"` or `.global_function \"name\"`",
        ));
    }
    let seen = if stopped {
        TrailerSeen::Stopped
    } else {
        TrailerSeen::Complete {
            last: platform,
            grf_used: p.grf_used,
        }
    };
    if !p.diags.is_empty() {
        return (Err(Diagnostics(p.diags)), seen);
    }
    let object = Object {
        version: p.version.unwrap_or(Version::LATEST_BINARY),
        kernels: p.kernels,
        filescope_vars: Vec::new(),
        functions: p.functions,
    };
    (Ok(object), seen)
}

/// A line with a string literal without its `//` comment (one outside the string); says
/// whether what is left has a tab.
fn strip_comment_quoted(line: &str) -> (&str, bool) {
    let b = line.as_bytes();
    let mut in_str = false;
    let mut i = 0;
    let mut end = b.len();
    while i < b.len() {
        match b[i] {
            b'\\' if in_str => i += 1,
            b'"' => in_str = !in_str,
            b'/' if !in_str && b.get(i + 1) == Some(&b'/') => {
                end = i;
                break;
            }
            _ => {}
        }
        i += 1;
    }
    let line = &line[..end];
    (line, memchr::memchr(b'\t', line.as_bytes()).is_some())
}

/// The ASCII blanks `str::trim` drops (`is_ascii_whitespace` and vertical tab), by byte.
static ASCII_BLANK: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = b.is_ascii_whitespace() || b == 0x0b;
        i += 1;
    }
    t
};

/// `s.trim_end()`, dropping trailing ASCII blanks bytewise first.
fn trim_end_fast(s: &str) -> &str {
    let b = s.as_bytes();
    let mut end = b.len();
    // IGC pads lines before their comments with long runs of spaces: eight bytes are
    // compared at once, and the first word that is not all spaces says how many of its
    // last bytes are (on a little-endian load the last byte is the most significant).
    while let Some(w) = end
        .checked_sub(8)
        .and_then(|at| b.get(at..end))
        .and_then(|w| <[u8; 8]>::try_from(w).ok())
    {
        let diff = u64::from_le_bytes(w) ^ u64::from_le_bytes(*b"        ");
        if diff != 0 {
            end -= (diff.leading_zeros() / 8) as usize;
            break;
        }
        end -= 8;
    }
    while end > 0 && ASCII_BLANK[b[end - 1] as usize] {
        end -= 1;
    }
    // What is left ends in a character that is not an ASCII blank; only a non-ASCII
    // one may be Unicode white space.
    if end == 0 || b[end - 1].is_ascii() {
        return &s[..end];
    }
    s[..end].trim_end()
}

#[derive(Default)]
struct Parser {
    version: Option<Version>,
    diags: Vec<Diagnostic>,
    routine: Option<RoutineBuilder>,
    kernels: Vec<Kernel>,
    functions: Vec<Function>,
    /// `.function "x"` seen: the next label definition is a subroutine entry.
    pending_function: Option<(String, usize)>,
    grf_bytes: u32,
    /// A line's meaning depended on `grf_bytes` (see `parse_text`).
    grf_used: bool,
    /// Bytes of the text from the current line on.
    remaining: usize,
    /// Lookups and template plans compiled for the text's version.
    compiled: Compiled,
    /// An empty list swapped with the routine's while a line is parsed (see `line`).
    spare_list: InstructionList,
}

#[derive(Default)]
struct RoutineBuilder {
    is_kernel: bool,
    name: Vec<u8>,
    strings: StringPool,
    /// Each string's pool index, and the label it names if one does (one lookup finds a
    /// label by name, and making one adds one entry).
    string_ids: NameMap<(u32, Option<u16>)>,
    variables: Vec<Variable>,
    var_ids: NameMap<u32>,
    /// Recent answers of `var_id` by a hash of the name's `short_key`: key, the
    /// `var_generation` they were found in, id. Operands name a few variables over and
    /// over; comparing one key costs less than a map lookup. Empty until the routine
    /// starts; a change to `var_ids` moves the generation on, so no stale answer is used.
    var_cache: Vec<std::cell::Cell<(u128, u32, u32)>>,
    var_generation: u32,
    aliases: Vec<(usize, String, u16, usize, usize)>,
    addresses: Vec<AddressVar>,
    address_ids: FastMap<String, u16>,
    predicates: Vec<PredicateVar>,
    predicate_ids: FastMap<String, u16>,
    samplers: Vec<StateVar>,
    sampler_ids: FastMap<String, u16>,
    surfaces: Vec<StateVar>,
    /// Surface ids by declared name (hand-written text names them; IGC prints `T<n>`).
    surface_ids: FastMap<String, u16>,
    labels: Vec<Label>,
    /// Per label: defined yet, and where it was first named (for "never defined").
    label_sites: Vec<LabelSite>,
    inputs: Vec<Input>,
    attributes: Vec<Attribute>,
    instructions: InstructionList,
    build_info: Option<BuildInfo>,
    grf_bytes: u32,
    /// An operand was placed by `grf_bytes` (`address_of`).
    grf_used: std::cell::Cell<bool>,
    /// `instructions` was reserved for the rest of the text (see `Parser::line`).
    reserved: bool,
    /// Open `{ }` scopes, innermost last: the names each declared and what they hid.
    scopes: Vec<Vec<(String, Option<u32>)>>,
    declared_names: NameMap<()>,
}

/// A label's state while its routine is read.
struct LabelSite {
    defined: bool,
    /// Where the label was first named.
    line: usize,
    col: usize,
}

impl RoutineBuilder {
    fn intern(&mut self, s: &[u8]) -> u32 {
        self.string_entry(s).0
    }

    /// The map entry of string `s`, added to the pool if new.
    fn string_entry(&mut self, s: &[u8]) -> &mut (u32, Option<u16>) {
        let strings = &mut self.strings;
        // Past 4 GiB of names (an input larger still) the index names no string.
        self.string_ids
            .get_or_insert_with(s, || (strings.push(s).unwrap_or(u32::MAX), None))
    }

    #[inline]
    fn var_id(&self, name: &str) -> Option<u32> {
        let Some(key) = super::hash::short_key(name.as_bytes()) else {
            return self.var_id_uncached(name);
        };
        let h = ((key as u64) ^ ((key >> 64) as u64)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = self.var_cache.get((h >> 56) as usize)?;
        let (k, generation, id) = slot.get();
        if k == key && generation == self.var_generation {
            return Some(id);
        }
        let id = self.var_id_uncached(name)?;
        slot.set((key, self.var_generation, id));
        Some(id)
    }

    /// `var_ids` changed: answers cached before may be wrong now.
    fn vars_changed(&mut self) {
        self.var_generation = self.var_generation.wrapping_add(1);
        if self.var_generation == 0 {
            // Generation 0 marks empty slots: start over rather than wrap onto them.
            self.var_generation = 1;
            for slot in &self.var_cache {
                slot.set((0, 0, 0));
            }
        }
    }

    #[inline(never)]
    fn var_id_uncached(&self, name: &str) -> Option<u32> {
        if let Some(&id) = self.var_ids.get(name) {
            return Some(id);
        }
        crate::isa::PREDEFINED_VARS
            .iter()
            .find(|p| p.name == name)
            .map(|p| p.id)
    }

    /// A surface by name: predefined, declared, or `T<n>`.
    fn surface(&self, name: &str) -> Option<u16> {
        self.surface_ids
            .get(name)
            .copied()
            .or_else(|| surface_id(name))
    }

    /// A sampler by name: declared, or `S<n>`.
    fn sampler(&self, name: &str) -> Option<u16> {
        self.sampler_ids
            .get(name)
            .copied()
            .or_else(|| name.strip_prefix('S').and_then(|n| n.parse().ok()))
    }

    /// A predicate by name: declared, or `P<n>`.
    fn predicate(&self, name: &str) -> Option<u16> {
        self.predicate_ids
            .get(name)
            .copied()
            .or_else(|| name.strip_prefix('P').and_then(|n| n.parse().ok()))
    }

    fn var_type(&self, id: u32) -> Type {
        if id < PREDEFINED_VARS {
            crate::isa::PREDEFINED_VARS
                .get(id as usize)
                .map_or(Type::UD, |p| p.ty)
        } else {
            self.variables
                .get((id - PREDEFINED_VARS) as usize)
                .map_or(Type::UD, |v| v.ty())
        }
    }

    /// The id of a label by its printed name, creating a block label on first use.
    fn label(&mut self, name: &str, line: usize, col: usize) -> u16 {
        let id = self.labels.len() as u16;
        let name_index = match self.string_entry(name.as_bytes()) {
            (_, Some(label)) => return *label,
            (ix, label) => {
                *label = Some(id);
                *ix
            }
        };
        self.labels.push(Label {
            name_index,
            kind: 0,
            attributes: Vec::new(),
        });
        self.label_sites.push(LabelSite {
            defined: false,
            line,
            col,
        });
        id
    }
}

fn diag(
    line: usize,
    col: usize,
    message: impl Into<String>,
    token: &str,
    expected: &str,
) -> Box<Diagnostic> {
    Box::new(Diagnostic {
        line,
        col,
        message: message.into(),
        token: token.into(),
        expected: expected.into(),
    })
}

impl Parser {
    fn version(&self) -> Version {
        self.version.unwrap_or(Version::LATEST_BINARY)
    }

    /// One line without its comment; `s..e` is its text without surrounding blanks
    /// (`content_bounds`), not empty.
    fn line(&mut self, text: &str, no: usize, s: usize, e: usize) -> PResult<()> {
        let mut c = LineCursor::new(text, no);
        c.pos = s;
        if c.peek() == Some('.') && !c.rest().starts_with(".sat") {
            // IGC's header has no final newline, so an instruction printed right after
            // it shares the last header line, four spaces in.
            if let Some(split) = instruction_after_header(text) {
                self.directive(LineCursor::new(&text[..split], no))?;
                let rest = &text[split..];
                return match content_bounds(rest) {
                    Some((s, e)) => self.line(rest, no, s, e),
                    None => Ok(()),
                };
            }
            return self.directive(c);
        }
        let r = &text[s..e];
        if r == "{" || r == "}" {
            let Some(rb) = self.routine.as_mut() else {
                return Err(c.err("scope outside a kernel or function", "`.kernel` first"));
            };
            if r == "{" {
                rb.scopes.push(Vec::new());
            } else {
                // Leaving a scope: its names go out of view and the outer ones return.
                let Some(scope) = rb.scopes.pop() else {
                    return Err(c.err("`}` without an open scope", "a matching `{`"));
                };
                for (name, hidden) in scope.into_iter().rev() {
                    match hidden {
                        Some(id) => rb.var_ids.insert(&name, id),
                        None => rb.var_ids.remove(&name),
                    };
                }
                rb.vars_changed();
            }
            return Ok(());
        }
        if r.ends_with(':') && !r.contains(' ') {
            return self.label_definition(c, &r[..r.len() - 1]);
        }
        // IGC pads instructions before their comments: no step needs to scan that.
        c.content_end = c.pos + r.len();
        let version = self.version();
        let Some(rb) = self.routine.as_mut() else {
            return Err(c.err(
                "instruction outside a kernel or function",
                "`.kernel` or `.global_function` first",
            ));
        };
        // Operands go straight onto the routine's list (taken out for the call, so the
        // builder's other tables stay open to the template walk); a failed line leaves
        // nothing behind.
        if rb.instructions.len() == RESERVE_AFTER {
            // A routine this long likely goes on, and the rest of the text bounds it:
            // its list is reserved once in proportion (IGC prints an operand in 16 bytes
            // or more, an instruction in 64) instead of grown by copies. What is not used
            // is given back when the routine ends; room never written takes no memory.
            rb.instructions
                .reserve(self.remaining / 64, self.remaining / 16);
            rb.reserved = true;
        }
        let list = &mut self.spare_list;
        std::mem::swap(list, &mut rb.instructions);
        let pushed = list.push_decoded(|ops, start| {
            parse_instruction(rb, version, c, &mut self.compiled, ops, start)
        });
        std::mem::swap(list, &mut rb.instructions);
        pushed?.map_err(|e| c.err(e.to_string(), "a smaller routine"))
    }

    fn routine(&mut self, c: &LineCursor) -> PResult<&mut RoutineBuilder> {
        self.routine.as_mut().ok_or_else(|| {
            c.err(
                "declaration outside a kernel or function",
                "`.kernel` first",
            )
        })
    }

    fn label_definition(&mut self, c: LineCursor, name: &str) -> PResult<()> {
        let (line, col) = (c.line, c.pos + 1);
        let pending = self.pending_function.take();
        let rb = self.routine(&c)?;
        let (opcode, id) = match pending {
            Some((fname, _)) if fname == name => {
                let id = rb.label(name, line, col);
                // A subroutine prints as `<name>_<id>`: keep the bare name in the pool.
                let bare = name
                    .rsplit_once('_')
                    .filter(|(_, n)| n.parse::<u16>().ok() == Some(id))
                    .map(|(b, _)| b);
                if let Some(bare) = bare {
                    let ix = rb.intern(bare.as_bytes());
                    rb.labels[id as usize].name_index = ix;
                }
                rb.labels[id as usize].kind = 1;
                (Opcode::FUNC, id)
            }
            _ => (Opcode::LABEL, rb.label(name, line, col)),
        };
        if rb.label_sites[id as usize].defined {
            return Err(diag(
                line,
                col,
                format!("label `{name}` is defined twice"),
                name,
                "a new label name",
            ));
        }
        rb.label_sites[id as usize].defined = true;
        rb.instructions
            .push_parts(opcode, None, [Operand::Label(id)])
            .map_err(|e| diag(line, col, e.to_string(), name, "a smaller routine"))
    }

    fn finish_routine(&mut self) {
        let Some(rb) = self.routine.take() else {
            return;
        };
        self.grf_used |= rb.grf_used.get();
        for (i, site) in rb.label_sites.iter().enumerate() {
            if !site.defined {
                let (line, col) = (site.line, site.col);
                let name = String::from_utf8_lossy(&rb.strings[rb.labels[i].name_index as usize])
                    .into_owned();
                self.diags.push(*diag(
                    line,
                    col,
                    format!("label `{name}` is never defined"),
                    &name,
                    "a label definition",
                ));
            }
        }
        let mut rb = rb;
        for (var, target, offset, line, col) in std::mem::take(&mut rb.aliases) {
            match rb.var_id(&target) {
                Some(id) => {
                    rb.variables[var].alias_index = id;
                    rb.variables[var].alias_offset = offset;
                    rb.variables[var].aliases_null = id == 0;
                }
                None => self.diags.push(*diag(
                    line,
                    col,
                    format!("unknown alias target `{target}`"),
                    &target,
                    "a declared variable",
                )),
            }
        }
        let body = Routine {
            strings: rb.strings,
            name_index: 0,
            variables: rb.variables,
            addresses: rb.addresses,
            predicates: rb.predicates,
            labels: rb.labels,
            samplers: rb.samplers,
            surfaces: rb.surfaces,
            vmes: Vec::new(),
            interface: if rb.is_kernel {
                Interface::Kernel { inputs: rb.inputs }
            } else {
                Interface::Function {
                    input_size: 0,
                    return_value_size: 0,
                }
            },
            attributes: rb.attributes,
            code: Code::Instructions({
                let mut list = rb.instructions;
                if rb.reserved {
                    list.shrink_to_fit();
                }
                list
            }),
            build_info: rb.build_info,
        };
        if rb.is_kernel {
            self.kernels.push(Kernel {
                name: rb.name,
                relocations: Relocations::default(),
                gen_binaries: Vec::new(),
                body,
            });
        } else {
            self.functions.push(Function {
                linkage: 0,
                name: rb.name,
                relocations: Relocations::default(),
                body,
            });
        }
    }

    fn directive(&mut self, mut c: LineCursor) -> PResult<()> {
        let at = c;
        c.expect(".")?;
        let word = c.ident()?;
        c.skip_ws();
        match word {
            "version" => {
                let major = c.uint(255)? as u8;
                c.expect(".")?;
                let minor = c.uint(255)? as u8;
                let v = Version::new(major, minor);
                if v < Version::OLDEST || v > Version::LATEST_TEXT {
                    return Err(at.err(format!("unsupported version {v}"), "3.0 to 4.2"));
                }
                self.version = Some(v);
            }
            "kernel" | "global_function" => {
                self.finish_routine();
                let name = c.quoted()?;
                let mut rb = RoutineBuilder {
                    is_kernel: word == "kernel",
                    name: name.clone(),
                    grf_bytes: self.grf_bytes,
                    var_cache: vec![std::cell::Cell::new((0, 0, 0)); 256],
                    var_generation: 1,
                    ..Default::default()
                };
                rb.intern(&name);
                // Predefined variables answer from the map like declared ones (a
                // declaration of the same name hides one as before: `var_id` tried the
                // map first); in reverse, so the first of a repeated name stays.
                for p in crate::isa::PREDEFINED_VARS.iter().rev() {
                    rb.var_ids.insert(p.name, p.id);
                }
                for p in predefined_vars(self.version()) {
                    rb.intern(p.name.as_bytes());
                }
                for (n, _) in PREDEFINED_SURFACES {
                    rb.intern(n.as_bytes());
                }
                rb.intern(b"S31");
                self.routine = Some(rb);
            }
            "file" | "loc" => {
                let rb = self.routine(&at)?;
                let inst = if word == "file" {
                    let s = c.quoted()?;
                    Instruction {
                        opcode: Opcode::FILE,
                        subop: None,
                        operands: vec![Operand::Int(rb.intern(&s))],
                    }
                } else {
                    Instruction {
                        opcode: Opcode::LOC,
                        subop: None,
                        operands: vec![Operand::Int(c.uint(u32::MAX.into())?)],
                    }
                };
                rb.instructions
                    .push(inst)
                    .map_err(|e| c.err(e.to_string(), "a smaller routine"))?;
            }
            "funcdecl" => {
                c.quoted()?;
            }
            "function" => {
                let name = c.quoted()?;
                self.pending_function =
                    Some((String::from_utf8_lossy(&name).into_owned(), at.line));
            }
            "decl" => {
                let version = self.version();
                let rb = self.routine(&at)?;
                decl(rb, version, &mut c)?;
            }
            "input" | "parameter" => {
                let rb = self.routine(&at)?;
                input(rb, 0, &mut c, word == "input")?;
            }
            w if w.starts_with("implicit_") => {
                let kind = match &w["implicit_".len()..] {
                    "LOCAL_SIZE" => 1,
                    "GROUP_COUNT" => 2,
                    "LOCAL_ID" => 3,
                    "PSEUDO_INPUT" => 0x10,
                    other => match other
                        .strip_prefix("UNDEFINED_")
                        .and_then(|n| n.parse::<u8>().ok())
                    {
                        Some(n) if n < 32 => n,
                        _ => {
                            return Err(at.err(
                                format!("unknown implicit input kind `{other}`"),
                                "LOCAL_SIZE, GROUP_COUNT, LOCAL_ID or PSEUDO_INPUT",
                            ))
                        }
                    },
                };
                let rb = self.routine(&at)?;
                input(rb, kind, &mut c, true)?;
            }
            "kernel_attr" => {
                let rb = self.routine(&at)?;
                let a = attribute(rb, &mut c)?;
                rb.attributes.push(a);
            }
            other => {
                return Err(at.err(format!("unknown directive `.{other}`"), "a vISA directive"))
            }
        }
        c.skip_ws();
        if !c.at_end() {
            return Err(c.err("unexpected text after the directive", "end of line"));
        }
        Ok(())
    }
}

/// Where an instruction starts on a directive line (after four spaces, outside quotes).
/// The line with every tab outside a string literal read as a space: tabs are
/// whitespace wherever the grammar has a space, and a tab is one column either way.
fn tabs_as_spaces(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains('\t') {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut in_string = false;
    let out: String = line
        .chars()
        .map(|ch| match ch {
            '"' => {
                in_string = !in_string;
                ch
            }
            '\t' if !in_string => ' ',
            _ => ch,
        })
        .collect();
    std::borrow::Cow::Owned(out)
}

fn instruction_after_header(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let mut in_str = false;
    // Only after the directive itself: leading indentation does not count.
    let mut i = line.len() - line.trim_start().len();
    while i < b.len() {
        match b[i] {
            b'\\' if in_str => i += 1,
            b'"' => in_str = !in_str,
            b' ' if !in_str && line[i..].starts_with("    ") => {
                let rest = line[i..].trim_start();
                if !rest.is_empty() && !rest.starts_with("//") {
                    return Some(line.len() - rest.len() - 4);
                }
                return None;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// `name=value` pairs of a declaration, in order, with where each value starts.
fn key_values<'a>(c: &mut LineCursor<'a>) -> PResult<Vec<(&'a str, LineCursor<'a>)>> {
    // IGC writes up to six keys (`v_type type num_elts align alias attrs`): one allocation.
    let mut out = Vec::with_capacity(8);
    loop {
        c.skip_ws();
        if c.at_end() {
            return Ok(out);
        }
        let key = c.ident()?;
        c.expect("=")?;
        let at = *c;
        // Skip the value: a bracketed group, a quoted string or a bare word.
        match c.peek() {
            Some('<') => skip_group(c, '<', '>')?,
            Some('{') => skip_group(c, '{', '}')?,
            Some('"') => {
                c.quoted()?;
            }
            _ => {
                // ASCII bytewise (the usual value: `d`, `16`, `GRF`); other characters
                // as `char::is_whitespace` sees them.
                let b = c.text.as_bytes();
                while let Some(&x) = b.get(c.pos) {
                    if x.is_ascii() {
                        if x.is_ascii_whitespace() || x == 0x0b {
                            break;
                        }
                        c.pos += 1;
                    } else {
                        match c.peek() {
                            Some(ch) if !ch.is_whitespace() => c.pos += ch.len_utf8(),
                            _ => break,
                        }
                    }
                }
            }
        }
        out.push((key, at));
    }
}

fn skip_group(c: &mut LineCursor, open: char, close: char) -> PResult<()> {
    let start = *c;
    let mut depth = 0;
    let mut in_str = false;
    while let Some(ch) = c.peek() {
        c.pos += ch.len_utf8();
        match ch {
            '"' => in_str = !in_str,
            _ if in_str => {}
            _ if ch == open => depth += 1,
            _ if ch == close => {
                depth -= 1;
                if depth == 0 {
                    return Ok(());
                }
            }
            _ => {}
        }
    }
    Err(start.err(format!("unclosed `{open}`"), format!("`{close}`")))
}

fn word<'a>(c: &mut LineCursor<'a>) -> &'a str {
    let r = c.rest();
    let end = r.find(char::is_whitespace).unwrap_or(r.len());
    c.pos += end;
    &r[..end]
}

fn decl<'a>(rb: &mut RoutineBuilder, version: Version, c: &mut LineCursor<'a>) -> PResult<()> {
    let name_at = *c;
    // Borrowed from the line: a name is copied only into the tables keyed by `String`.
    let name: &'a str = c.ident()?;
    let kvs = key_values(c)?;
    let get = |k: &str| kvs.iter().find(|(key, _)| *key == k).map(|(_, at)| *at);
    let Some(mut vt) = get("v_type") else {
        return Err(c.err("declaration without `v_type`", "v_type=G|A|P|S|T"));
    };
    let class = word(&mut vt);
    let num_elts = |rb: &RoutineBuilder| -> PResult<u16> {
        let _ = rb;
        match get("num_elts") {
            Some(mut at) => Ok(at.uint(u16::MAX.into())? as u16),
            None => Err(name_at.err("declaration without `num_elts`", "num_elts=N")),
        }
    };
    let attrs = |rb: &mut RoutineBuilder| -> PResult<Vec<Attribute>> {
        match get("attrs") {
            Some(mut at) => attribute_list(rb, &mut at),
            None => Ok(Vec::new()),
        }
    };
    match class {
        "G" => {
            // Names stay unique in the whole routine: scopes limit where a name can be
            // used, but the binary (and so the printed text) keeps one flat namespace.
            if rb.declared_names.insert(name, ()).is_some() {
                return Err(name_at.err(format!("`{name}` is declared twice"), "a new name"));
            }
            let Some(mut t) = get("type") else {
                return Err(name_at.err("variable without `type`", "type=<type>"));
            };
            let tat = t;
            let tname = word(&mut t);
            let ty = type_named(tname)
                .ok_or_else(|| tat.err(format!("unknown type `{tname}`"), "a vISA type"))?;
            if !ty.has_binary_form() && version <= Version::LATEST_BINARY {
                return Err(tat.err(
                    format!("type `{tname}` needs vISA 4.2"),
                    "a type of ud, d, uw, w, ub, b, df, f, v, vf, bool, uq, uv, q, hf, bf",
                ));
            }
            let align = match get("align") {
                Some(mut a) => {
                    let aat = a;
                    let an = word(&mut a);
                    Align::from_name(an).ok_or_else(|| {
                        aat.err(
                            format!("unknown alignment `{an}`"),
                            "byte, word, dword, qword, oword, GRF, GRFx2, hword, wordx32, wordx64",
                        )
                    })?
                }
                None => Align(0),
            };
            let num_elements = num_elts(rb)?;
            let attributes = attrs(rb)?;
            let name_index = rb.intern(name.as_bytes());
            let index = rb.variables.len();
            if let Some(mut al) = get("alias") {
                let at = al;
                al.expect("<")?;
                al.skip_ws();
                let target = al.ident()?.to_string();
                al.skip_ws();
                al.expect(",")?;
                al.skip_ws();
                let off = al.uint(u16::MAX.into())? as u16;
                rb.aliases.push((index, target, off, at.line, at.pos + 1));
            }
            let mut v = Variable {
                name_index,
                bit_properties: 0,
                num_elements,
                alias_index: 0,
                alias_offset: 0,
                alias_scope: 0,
                attributes,
                wide_type: None,
                aliases_null: false,
            };
            v.set_type_align(ty, align);
            rb.variables.push(v);
            let hidden = rb.var_ids.insert(name, PREDEFINED_VARS + index as u32);
            rb.vars_changed();
            if let Some(scope) = rb.scopes.last_mut() {
                scope.push((name.to_string(), hidden));
            }
        }
        "A" => {
            let num_elements = num_elts(rb)?;
            let attributes = attrs(rb)?;
            let name_index = rb.intern(name.as_bytes());
            rb.address_ids
                .insert(name.to_string(), rb.addresses.len() as u16);
            rb.addresses.push(AddressVar {
                name_index,
                num_elements,
                attributes,
            });
        }
        "P" => {
            let num_elements = num_elts(rb)?;
            let attributes = attrs(rb)?;
            let name_index = rb.intern(name.as_bytes());
            rb.predicate_ids
                .insert(name.to_string(), rb.predicates.len() as u16 + 1);
            rb.predicates.push(PredicateVar {
                name_index,
                num_elements,
                attributes,
            });
        }
        "S" | "T" => {
            let num_elements = num_elts(rb)?;
            let attributes = attrs(rb)?;
            let vname = match get("v_name") {
                Some(mut at) => word(&mut at).to_string(),
                None => name.to_string(),
            };
            let name_index = rb.intern(vname.as_bytes());
            let sv = StateVar {
                name_index,
                num_elements,
                attributes,
            };
            if class == "S" {
                rb.sampler_ids
                    .insert(name.to_string(), rb.samplers.len() as u16);
                rb.samplers.push(sv);
            } else {
                let id = rb.surfaces.len() as u16 + limits::PREDEFINED_SURFACES as u16;
                rb.surface_ids.insert(name.to_string(), id);
                rb.surfaces.push(sv);
            }
        }
        other => {
            return Err(vt.err(
                format!("unknown variable class `{other}`"),
                "G, A, P, S or T",
            ))
        }
    }
    Ok(())
}

fn input(rb: &mut RoutineBuilder, implicit: u8, c: &mut LineCursor, kernel: bool) -> PResult<()> {
    let at = *c;
    let name = c.ident()?.to_string();
    let (class, index) = if let Some(id) = rb.var_id(&name) {
        (0u8, id)
    } else if let Some(n) = rb.surface(&name) {
        (2, u32::from(n))
    } else if let Some(n) = rb.sampler(&name) {
        (1, u32::from(n))
    } else {
        return Err(at.err(
            format!("unknown input `{name}`"),
            "a declared variable, T<n> or S<n>",
        ));
    };
    let kvs = key_values(c)?;
    let get = |k: &str| kvs.iter().find(|(key, _)| *key == k).map(|(_, at)| *at);
    let offset = match get("offset") {
        Some(mut o) => o.int()? as i16,
        None if kernel => return Err(c.err("input without `offset`", "offset=N")),
        None => 0,
    };
    let size = match get("size") {
        Some(mut s) => s.uint(u16::MAX.into())? as u16,
        None => return Err(c.err("input without `size`", "size=N")),
    };
    rb.inputs.push(Input {
        kind: class | (implicit << 3),
        index,
        offset,
        size,
    });
    Ok(())
}

fn attribute(rb: &mut RoutineBuilder, c: &mut LineCursor) -> PResult<Attribute> {
    c.skip_ws();
    let name = c.ident()?.to_string();
    let name_index = rb.intern(name.as_bytes());
    let kind = crate::isa::attribute_kind(name.as_bytes());
    if !c.eat("=") {
        // A bare name: a set flag, or (as the printer shows it) an empty string.
        let value = if kind == Some(crate::isa::AttributeKind::CStr) {
            AttributeValue::Str(Vec::new())
        } else {
            AttributeValue::Int { value: 1, width: 0 }
        };
        return Ok(Attribute { name_index, value });
    }
    let value = if c.peek() == Some('"') {
        let s = c.quoted()?;
        match (name.as_str(), s.as_slice()) {
            ("Target", b"cm") => AttributeValue::Int { value: 0, width: 1 },
            ("Target", b"3d") => AttributeValue::Int { value: 1, width: 1 },
            ("Target", b"cs") => AttributeValue::Int { value: 2, width: 1 },
            _ => AttributeValue::Str(s),
        }
    } else if kind == Some(crate::isa::AttributeKind::CStr) {
        AttributeValue::Str(word(c).as_bytes().to_vec())
    } else {
        let v = c.int()?;
        // IGC stores SimdSize in one byte and other integers in four.
        let width = if name == "SimdSize" { 1 } else { 4 };
        AttributeValue::Int {
            value: v as i32,
            width,
        }
    };
    Ok(Attribute { name_index, value })
}

fn attribute_list(rb: &mut RoutineBuilder, c: &mut LineCursor) -> PResult<Vec<Attribute>> {
    c.expect("{")?;
    let mut out = Vec::new();
    loop {
        c.skip_ws();
        if c.eat("}") {
            return Ok(out);
        }
        out.push(attribute(rb, c)?);
        c.skip_ws();
        if !c.eat(",") {
            c.skip_ws();
            c.expect("}")?;
            return Ok(out);
        }
    }
}

// ---------------------------------------------------------------- instructions

struct Candidate {
    opcode: Opcode,
    subop: Option<u8>,
    layout: Layout,
    /// The template, split once and its literals split at spaces.
    steps: Vec<Step>,
    /// Texts the line (after any predicate) must start with for this template to apply.
    keys: Vec<String>,
    /// Per field of the layout: the template names it (the rest go to `{*}`).
    named: Vec<bool>,
    /// The template names `sfid`.
    names_sfid: bool,
    /// The template has a `{*}` piece.
    has_rest: bool,
    /// Fields called `dst`, `sfid` and `ex_desc` (see [`FieldAt`]).
    dst: FieldAt,
    sfid: FieldAt,
    ex_desc: Option<usize>,
}

/// The fields of a layout that carry one name, in order: the first one the text's
/// version admits is the one a template piece names (resolved once per template, not
/// by comparing names per line).
#[derive(Default)]
struct FieldAt(Vec<u8>);

impl FieldAt {
    fn new(fields: &[Field], name: &str) -> FieldAt {
        FieldAt(
            (0..fields.len().min(u8::MAX.into()))
                .filter(|&i| fields[i].name == name)
                .map(|i| i as u8)
                .collect(),
        )
    }
    #[inline]
    fn get(&self, fields: &[Field], version: Version) -> Option<usize> {
        self.0
            .iter()
            .map(|&i| i as usize)
            .find(|&i| fields[i].cond.version_allows(version))
    }
}

/// One step of matching a template against a line.
enum Step {
    /// A space of a literal: any run of blanks, or none.
    Blanks,
    /// A word of a literal (or the mnemonic), after optional blanks.
    Word(&'static str),
    Pred(FieldAt),
    Exec(FieldAt),
    Sat,
    Rest,
    Field(FieldAt, Option<Format>),
}

/// The steps of matching literal text (`literal`, unrolled once).
fn literal_steps(l: &'static str, out: &mut Vec<Step>) {
    for part in l.split(' ') {
        out.push(if part.is_empty() {
            Step::Blanks
        } else {
            Step::Word(part)
        });
    }
}

fn compile_steps(pieces: &[Piece<'static>], layout: &Layout) -> Vec<Step> {
    let fields = layout.fields;
    let mut out = Vec::new();
    for piece in pieces {
        match *piece {
            Piece::Literal(l) => literal_steps(l, &mut out),
            Piece::Mnemonic => literal_steps(layout.mnemonic, &mut out),
            Piece::Pred => out.push(Step::Pred(FieldAt::new(fields, "pred"))),
            Piece::Exec => out.push(Step::Exec(FieldAt::new(fields, "exec"))),
            Piece::Sat => out.push(Step::Sat),
            Piece::Rest => out.push(Step::Rest),
            Piece::Field(name, fmt) => out.push(Step::Field(FieldAt::new(fields, name), fmt)),
        }
    }
    out
}

/// One step of a template for one text version: field indices resolved, steps for fields
/// the version leaves out dropped, `{*}` expanded into the fields it reads.
#[derive(Clone, Copy)]
enum Op {
    Blanks,
    Word(&'static str),
    Pred(u8),
    Exec(u8),
    Sat,
    Field(u8, Option<Format>),
    /// A field of `{*}`, in its generic form; `true`: present only for some values of
    /// an earlier field (`Cond::field_allows` asked per line).
    Generic(u8, bool),
}

/// The field's presence depends on an earlier field's value, not only on the version.
fn by_value(f: &Field) -> bool {
    matches!(f.cond, Cond::Bits { .. } | Cond::Equals { .. })
}

/// How a field the text leaves out is filled.
#[derive(Clone, Copy)]
enum Fill {
    Pred,
    Exec,
    RawNull,
    VectorNull,
    /// A count that follows its list, else 0 (`implied_value`).
    Implied,
    /// The text must show it: a diagnostic.
    Missing,
}

/// A candidate compiled for one text version (built on first use, once per parse).
struct Plan {
    /// The version has the opcode.
    admitted: bool,
    /// The template's first word, when the steps after it fail on any line where a name
    /// character follows that word (see `doomed`).
    doom_word: Option<&'static str>,
    ops: Vec<Op>,
    /// Each field the version admits and no step always reads, in layout order, with how
    /// it is filled when absent and whether its presence depends on a value (`by_value`).
    fills: Vec<(u8, Fill, bool)>,
    dst: Option<u8>,
    sfid: Option<u8>,
}

impl Plan {
    fn new(cand: &Candidate, version: Version) -> Plan {
        let fields = cand.layout.fields;
        // Layouts have a few dozen fields at most (field indices are bytes, as in `FieldAt`).
        debug_assert!(fields.len() <= usize::from(u8::MAX));
        let at = |f: &FieldAt| f.get(fields, version).map(|i| i as u8);
        let mut ops = Vec::with_capacity(cand.steps.len() + fields.len());
        for step in &cand.steps {
            match step {
                Step::Blanks => ops.push(Op::Blanks),
                Step::Word(w) => ops.push(Op::Word(w)),
                Step::Pred(f) => ops.extend(at(f).map(Op::Pred)),
                Step::Exec(f) => ops.extend(at(f).map(Op::Exec)),
                Step::Sat => ops.push(Op::Sat),
                Step::Field(f, fmt) => ops.extend(at(f).map(|i| Op::Field(i, *fmt))),
                Step::Rest => {
                    for (i, f) in fields.iter().enumerate() {
                        if !matches!(f.kind, FieldKind::Exec | FieldKind::Pred)
                            && !cand.named[i]
                            && f.cond.version_allows(version)
                        {
                            ops.push(Op::Generic(i as u8, by_value(f)));
                        }
                    }
                }
            }
        }
        // Fields a step reads on every line it matches need no filling afterwards.
        let mut always_read = vec![false; fields.len()];
        for op in &ops {
            let i = match *op {
                Op::Exec(i) | Op::Generic(i, false) => i,
                Op::Field(i, _) if fields.get(i as usize).is_some_and(|f| !by_value(f)) => i,
                _ => continue,
            };
            if let Some(read) = always_read.get_mut(i as usize) {
                *read = true;
            }
        }
        let fills = fields
            .iter()
            .enumerate()
            .filter(|&(i, f)| f.cond.version_allows(version) && !always_read[i])
            .map(|(i, f)| {
                let shown = cand.has_rest || cand.named[i];
                let fill = match f.kind {
                    FieldKind::Pred => Fill::Pred,
                    FieldKind::Exec => Fill::Exec,
                    // Fields the template never shows (MBZ scales, counts, LSC operands a
                    // load does not use) take the value IGC's builder gives them.
                    FieldKind::Raw if !shown => Fill::RawNull,
                    FieldKind::Vector if !shown => Fill::VectorNull,
                    FieldKind::U8 | FieldKind::U16 | FieldKind::U32 | FieldKind::I32 => {
                        Fill::Implied
                    }
                    _ => Fill::Missing,
                };
                (i as u8, fill, by_value(f))
            })
            .collect();
        // A blank step reads nothing when the step after it skips blanks first (or the
        // walk's end does): dropped, one dispatch less per operand.
        let skips_blanks = |op: Option<&Op>| match op {
            None | Some(Op::Word(_) | Op::Exec(_) | Op::Generic(_, false)) => true,
            Some(&Op::Field(i, None)) => fields.get(i as usize).is_some_and(|f| !by_value(f)),
            _ => false,
        };
        let ops: Vec<Op> = (0..ops.len())
            .filter(|&k| !(matches!(ops[k], Op::Blanks) && skips_blanks(ops.get(k + 1))))
            .map(|k| ops[k])
            .collect();
        let doom_word = doom_word(&ops);
        Plan {
            admitted: cand.opcode.info().is_none_or(|i| i.since <= version),
            doom_word,
            ops,
            fills,
            dst: at(&cand.dst),
            sfid: at(&cand.sfid),
        }
    }
}

impl Plan {
    /// Whether the template certainly fails on a line (no predicate) that goes on `rest`:
    /// its first word is followed by a name character, where the steps after the word
    /// need `.`, a blank, `(` or the line's end.
    #[inline]
    fn doomed(&self, rest: &str) -> bool {
        self.doom_word.is_some_and(|w| {
            starts_with_bytes(rest, w)
                && rest
                    .as_bytes()
                    .get(w.len())
                    .is_some_and(|&b| is_name_byte(b))
        })
    }
}

/// The first word of steps `[Pred] Word(w) (Sat | Blanks | .mod)* then Exec, a word that
/// opens with a non-name character, or the end`: after `w` and a name character, `Sat`,
/// `Blanks` and `.mod` read nothing, and what follows them fails (`parse_exec` needs
/// `(`, a word its first character, the end a blank or nothing).
fn doom_word(ops: &[Op]) -> Option<&'static str> {
    let mut rest = ops.iter().skip_while(|op| matches!(op, Op::Pred(_)));
    let w = match rest.next()? {
        Op::Word(w) if w.bytes().next().is_some_and(is_name_byte) => *w,
        _ => return None,
    };
    for op in rest {
        match op {
            Op::Sat | Op::Blanks | Op::Field(_, Some(Format::Modified)) => {}
            Op::Exec(_) => return Some(w),
            Op::Word(w2) if !w2.bytes().next().is_some_and(is_name_byte) => return Some(w),
            _ => return None,
        }
    }
    Some(w)
}

/// What the parser compiles for the text's version: candidate ids by a line's leading
/// word (`Candidates::ids_for`, a few thousand words at most) and the plans of the
/// candidates tried so far. A `.version` that changes the version starts both afresh.
#[derive(Default)]
struct Compiled {
    version: Option<Version>,
    /// `candidates(version)`, looked up once.
    candidates: Option<&'static Candidates>,
    /// Index into `lists` by leading word.
    memo: NameMap<u32>,
    lists: Vec<Vec<(u16, bool)>>,
    /// The last leading words seen, by a hash of their `short_key`, with their index
    /// into `lists` plus one (0: empty): consecutive lines mostly repeat a few words,
    /// and comparing one key is cheaper than a map lookup. A cache in front of `memo`,
    /// so names crafted to collide only make it miss.
    recent: Vec<(u128, u32)>,
    plans: Vec<Option<Box<Plan>>>,
}

/// Slots of `Compiled::recent` (a power of two).
const RECENT_SLOTS: usize = 64;

impl Compiled {
    /// The candidate list for `word` (built and remembered on first use), or `None`
    /// when the memo is full and the list is in `scratch`.
    #[inline]
    fn list_for<'s>(
        &'s mut self,
        cands: &Candidates,
        word: &str,
        scratch: &'s mut Vec<(u16, bool)>,
    ) -> &'s [(u16, bool)] {
        let key = super::hash::short_key(word.as_bytes());
        let slot = key.map(|k| {
            let h = ((k as u64) ^ ((k >> 64) as u64)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            (h >> (64 - RECENT_SLOTS.trailing_zeros())) as usize
        });
        if let (Some(k), Some(slot)) = (key, slot) {
            if let Some(&(rk, ix)) = self.recent.get(slot) {
                if rk == k && ix != 0 {
                    return &self.lists[ix as usize - 1];
                }
            }
        }
        let ix = match self.memo.get(word) {
            Some(&ix) => ix,
            None => {
                let ids = cands.ids_for(word);
                if self.memo.len() >= 4096 {
                    *scratch = ids;
                    return scratch;
                }
                self.lists.push(ids);
                let ix = self.lists.len() as u32 - 1;
                self.memo.insert(word, ix);
                ix
            }
        };
        if let (Some(k), Some(slot)) = (key, slot) {
            if self.recent.is_empty() {
                self.recent = vec![(0, 0); RECENT_SLOTS];
            }
            self.recent[slot] = (k, ix + 1);
        }
        &self.lists[ix as usize]
    }
}

/// The candidates of one text version, with an index from the leading name of each
/// key (letters, digits, `_`) to the candidates that key belongs to, so a line is
/// matched against the few templates its first word can start, not all of them.
struct Candidates {
    all: Vec<Candidate>,
    by_word: FastMap<String, Vec<u16>>,
    /// Candidates with a key that does not start with a name character.
    other: Vec<u16>,
}

/// ASCII letters, digits and `_`, by byte.
static WORD_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 128 {
        let b = i as u8;
        t[i] = b.is_ascii_alphanumeric() || b == b'_';
        i += 1;
    }
    t
};

/// The leading run of ASCII letters, digits and `_`.
fn leading_word(s: &str) -> &str {
    let end = s
        .bytes()
        .position(|b| !WORD_BYTES[b as usize])
        .unwrap_or(s.len());
    &s[..end]
}

impl Candidates {
    fn new(all: Vec<Candidate>) -> Candidates {
        let mut by_word: FastMap<String, Vec<u16>> = FastMap::default();
        let mut other = Vec::new();
        for (i, cand) in all.iter().enumerate() {
            for key in &cand.keys {
                let word = leading_word(key);
                let list = if word.is_empty() {
                    &mut other
                } else {
                    by_word.entry(word.to_string()).or_default()
                };
                if list.last() != Some(&(i as u16)) {
                    list.push(i as u16);
                }
            }
        }
        Candidates {
            all,
            by_word,
            other,
        }
    }

    /// Ids of the candidates a line whose leading word is `word` may match, in table
    /// order, each with whether its keys must still be compared with the line (not when
    /// one of them is a plain word that begins `word`: the line starts with it).
    fn ids_for(&self, word: &str) -> Vec<(u16, bool)> {
        let mut ids: Vec<u16> = self.other.clone();
        // A key's leading word is a prefix of the line's leading word.
        for end in 1..=word.len() {
            if let Some(list) = self.by_word.get(&word[..end]) {
                ids.extend_from_slice(list);
            }
        }
        ids.sort_unstable();
        ids.dedup();
        ids.into_iter()
            .map(|id| {
                let certain = self.all.get(id as usize).is_some_and(|cand| {
                    cand.keys
                        .iter()
                        .any(|k| leading_word(k) == k && word.starts_with(k.as_str()))
                });
                (id, !certain)
            })
            .collect()
    }
}

/// The templates of the releases that print 3.x and 4.x text, built once each.
fn candidates(version: Version) -> &'static Candidates {
    static V3: OnceLock<Candidates> = OnceLock::new();
    static V4: OnceLock<Candidates> = OnceLock::new();
    let (cell, v) = if version.major >= 4 {
        (&V4, Version::new(4, 0))
    } else {
        (&V3, Version::OLDEST)
    };
    cell.get_or_init(|| {
        let mut out = Vec::new();
        let alternates = ALTERNATE_SYNTAX
            .iter()
            .map(|s| (s.opcode, s.subop, s.template));
        for (opcode, subop, template) in all_syntax(v).chain(alternates) {
            let Some(layout) = opcode.layout(subop) else {
                continue;
            };
            let first = pieces(template).into_iter().find(|p| *p != Piece::Pred);
            let keys = match first {
                Some(Piece::Literal(l)) => vec![l.to_string()],
                Some(Piece::Mnemonic) => vec![layout.mnemonic.to_string()],
                Some(Piece::Field(_, Some(Format::MinMax))) => vec!["min".into(), "max".into()],
                Some(Piece::Field(_, Some(Format::SamplerOp3d | Format::InfoOp))) => {
                    names::SAMPLER_OP_3D
                        .iter()
                        .filter(|n| !n.is_empty())
                        .map(|n| n.to_string())
                        .collect()
                }
                Some(Piece::Field(_, Some(Format::RawSend))) => vec!["raw_send".into()],
                Some(Piece::Field(_, Some(Format::RawSends))) => vec!["raw_sends".into()],
                Some(Piece::Field(_, Some(Format::RawSendg))) => vec!["raw_sendg".into()],
                _ => vec![],
            };
            let ps = pieces(template);
            let names = named_fields(&ps);
            let fields = layout.fields;
            out.push(Candidate {
                opcode,
                subop,
                named: fields.iter().map(|f| names.contains(&f.name)).collect(),
                names_sfid: names.contains(&"sfid"),
                has_rest: ps.contains(&Piece::Rest),
                steps: compile_steps(&ps, &layout),
                dst: FieldAt::new(fields, "dst"),
                sfid: FieldAt::new(fields, "sfid"),
                ex_desc: fields.iter().position(|f| f.name == "ex_desc"),
                layout,
                keys,
            });
        }
        Candidates::new(out)
    })
}

/// Parses an instruction line into `ops[start..]` (what is there is replaced), returning
/// its opcode and sub-opcode.
fn parse_instruction(
    rb: &mut RoutineBuilder,
    version: Version,
    c: LineCursor,
    compiled: &mut Compiled,
    ops: &mut Vec<Operand>,
    start: usize,
) -> PResult<(Opcode, Option<u8>)> {
    if compiled.version != Some(version) {
        *compiled = Compiled {
            version: Some(version),
            candidates: Some(candidates(version)),
            ..Compiled::default()
        };
    }
    let mut body = c;
    if body.peek() == Some('(') {
        if let Some(close) = body.rest().find(") ") {
            body.pos += close + 2;
        }
    }
    let rest = body.rest();
    let cands = compiled.candidates.unwrap_or_else(|| candidates(version));
    let word = leading_word(rest);
    let mut scratch = Vec::new();
    let mut plans = std::mem::take(&mut compiled.plans);
    let ids = compiled.list_for(cands, word, &mut scratch);
    let found = match *ids {
        // One candidate, certain by its word: tried as `try_candidates` would try it
        // (passing over a doomed one would only defer it to the second round).
        [(id, false)] => try_one(rb, version, c, cands, id, &mut plans, ops, start),
        _ => try_candidates(rb, version, c, cands, ids, rest, &mut plans, ops, start),
    };
    compiled.plans = plans;
    match found {
        Ok(Some(head)) => Ok(head),
        Ok(None) => Err(body.err(
            format!("unknown instruction `{}`", body.token()),
            "a vISA instruction",
        )),
        Err(d) => Err(d),
    }
}

/// `try_candidates` for a single candidate whose keys need no comparing.
#[allow(clippy::too_many_arguments)]
#[inline]
fn try_one(
    rb: &mut RoutineBuilder,
    version: Version,
    c: LineCursor,
    cands: &Candidates,
    id: u16,
    plans: &mut Vec<Option<Box<Plan>>>,
    ops: &mut Vec<Operand>,
    start: usize,
) -> PResult<Option<(Opcode, Option<u8>)>> {
    let Some(cand) = cands.all.get(id as usize) else {
        return Ok(None);
    };
    let Some(plan) = plan_of(plans, id, cand, version).filter(|p| p.admitted) else {
        return Ok(None);
    };
    ops.truncate(start);
    ops.extend((0..cand.layout.fields.len()).map(|_| Operand::Absent));
    match_template(rb, version, c, cand, plan, &mut ops[start..])?;
    Ok(Some((cand.opcode, cand.subop)))
}

/// The plan of candidate `id`, compiled on first use (`None` only if it could not be
/// kept, which does not happen).
#[inline]
fn plan_of<'p>(
    plans: &'p mut Vec<Option<Box<Plan>>>,
    id: u16,
    cand: &Candidate,
    version: Version,
) -> Option<&'p Plan> {
    if !plans.get(id as usize).is_some_and(Option::is_some) {
        compile_plan(plans, id, cand, version);
    }
    plans.get(id as usize)?.as_deref()
}

/// `plan_of` the first time: compiles the plan.
#[inline(never)]
fn compile_plan(plans: &mut Vec<Option<Box<Plan>>>, id: u16, cand: &Candidate, version: Version) {
    if plans.len() <= id as usize {
        plans.resize_with(id as usize + 1, || None);
    }
    plans[id as usize] = Some(Box::new(Plan::new(cand, version)));
}

/// `s.starts_with(prefix)` as a byte loop (keys are a few bytes: shorter than a `memcmp` call).
#[inline]
fn starts_with_bytes(s: &str, prefix: &str) -> bool {
    let (s, p) = (s.as_bytes(), prefix.as_bytes());
    s.len() >= p.len() && s.iter().zip(p).all(|(a, b)| a == b)
}

/// Tries the candidates `ids` whose keys `rest` starts with, in order: the first that
/// matches, else the diagnostic that got furthest, else `None` (no candidate applied).
///
/// A candidate that cannot match (`Plan::doomed`: `mov` on a `movs` line) is passed over
/// at first, sparing the diagnostic it would build; when no other candidate matches,
/// all are tried again in order, so the diagnostic chosen is the one it always was.
#[allow(clippy::too_many_arguments)]
fn try_candidates(
    rb: &mut RoutineBuilder,
    version: Version,
    c: LineCursor,
    cands: &Candidates,
    ids: &[(u16, bool)],
    rest: &str,
    plans: &mut Vec<Option<Box<Plan>>>,
    ops: &mut Vec<Operand>,
    start: usize,
) -> PResult<Option<(Opcode, Option<u8>)>> {
    // `rest` is where the template's first word is matched only without a predicate.
    let mut pass_over = c.peek() != Some('(');
    loop {
        let mut passed_over = false;
        let mut best: Option<Box<Diagnostic>> = None;
        for &(id, check_keys) in ids {
            let Some(cand) = cands.all.get(id as usize) else {
                continue;
            };
            if check_keys && !cand.keys.iter().any(|k| starts_with_bytes(rest, k)) {
                continue;
            }
            let Some(plan) = plan_of(plans, id, cand, version).filter(|p| p.admitted) else {
                continue;
            };
            if pass_over && plan.doomed(rest) {
                passed_over = true;
                continue;
            }
            // Each candidate starts from its layout's fields, all absent (`resize` would
            // clone the value, a match over every variant per field).
            ops.truncate(start);
            ops.extend((0..cand.layout.fields.len()).map(|_| Operand::Absent));
            match match_template(rb, version, c, cand, plan, &mut ops[start..]) {
                Ok(()) => return Ok(Some((cand.opcode, cand.subop))),
                Err(d) => {
                    if best.as_ref().is_none_or(|b| d.col > b.col) {
                        best = Some(d);
                    }
                }
            }
        }
        if passed_over {
            pass_over = false;
            continue;
        }
        return match best {
            Some(d) => Err(d),
            None => Ok(None),
        };
    }
}

fn match_template(
    rb: &mut RoutineBuilder,
    version: Version,
    mut c: LineCursor,
    cand: &Candidate,
    plan: &Plan,
    ops: &mut [Operand],
) -> PResult<()> {
    let layout = &cand.layout;
    let fields = layout.fields;
    let mut sat = false;
    // Snapshot of the builder's growable tables, so a failed candidate leaves no labels or strings behind.
    let (nl, ns) = (rb.labels.len(), rb.strings.len());
    let result = (|| -> PResult<()> {
        for op in &plan.ops {
            match *op {
                Op::Blanks => c.skip_ws(),
                Op::Word(w) => {
                    c.skip_ws();
                    c.expect(w)?;
                }
                Op::Pred(i) => {
                    if c.peek() == Some('(') {
                        if let Some(p) = parse_pred(rb, &mut c)? {
                            ops[i as usize] = Operand::Pred(p);
                            c.skip_ws();
                        }
                    }
                }
                Op::Exec(i) => ops[i as usize] = Operand::Exec(parse_exec(&mut c)?),
                Op::Sat => sat = c.eat(".sat"),
                Op::Field(i, fmt) => {
                    let i = i as usize;
                    if !fields[i].cond.field_allows(&ops[..i]) {
                        continue;
                    }
                    let value = match fmt {
                        // Operands replace what is there (`merge` combines only numbers).
                        None if matches!(fields[i].kind, FieldKind::Vector | FieldKind::Raw) => {
                            generic_into(rb, version, &mut c, &fields[i], &mut ops[i])?;
                            continue;
                        }
                        None => generic(rb, version, &mut c, &fields[i])?,
                        Some(f) => formatted(
                            rb,
                            version,
                            &mut c,
                            f,
                            (cand.opcode, cand.subop),
                            fields,
                            ops,
                        )?,
                    };
                    ops[i] = merge(&ops[i], value);
                }
                Op::Generic(i, valued) => {
                    let i = i as usize;
                    if !valued || fields[i].cond.field_allows(&ops[..i]) {
                        generic_into(rb, version, &mut c, &fields[i], &mut ops[i])?;
                    }
                }
            }
        }
        c.skip_ws();
        if !c.at_end() {
            return Err(c.err(
                format!("unexpected operand for {}", layout.mnemonic),
                "end of instruction",
            ));
        }
        Ok(())
    })();
    if let Err(e) = result {
        // Only the labels this candidate created go (a scan of every label per
        // failed candidate made parsing quadratic in the label count).
        for label in rb.labels.drain(nl..) {
            if let Some(name) = rb.strings.get(label.name_index as usize) {
                if let Some((_, named)) = rb.string_ids.get_mut(name) {
                    *named = None;
                }
            }
        }
        rb.label_sites.truncate(nl);
        for i in ns..rb.strings.len() {
            if let Some(s) = rb.strings.get(i) {
                rb.string_ids.remove(s);
            }
        }
        rb.strings.truncate(ns);
        return Err(e);
    }
    for &(i, fill, valued) in &plan.fills {
        let i = i as usize;
        if !matches!(ops[i], Operand::Absent) || (valued && !fields[i].cond.field_allows(&ops[..i]))
        {
            continue;
        }
        ops[i] = match fill {
            Fill::Pred => Operand::Pred(Pred::NONE),
            Fill::Exec => Operand::Exec(ExecCtrl(0)),
            Fill::RawNull => Operand::Raw(Raw::NULL),
            Fill::VectorNull => Operand::Vector(null_operand()),
            Fill::Implied => Operand::Int(implied_value(i, fields, ops)),
            Fill::Missing => {
                return Err(c.err(
                    format!("{} needs operand `{}`", layout.mnemonic, fields[i].name),
                    fields[i].name,
                ))
            }
        };
    }
    if cand.opcode == Opcode::RAW_SENDS && !cand.names_sfid {
        if let (
            Some(i),
            Some(Operand::Vector(Vector {
                kind: VectorKind::Immediate { bits, .. },
                ..
            })),
        ) = (plan.sfid, cand.ex_desc.and_then(|e| ops.get(e)))
        {
            ops[i as usize] = Operand::Int(bits.get() as u32 & 0xF);
        }
    }
    if sat {
        if let Some(i) = plan.dst {
            if let Operand::Vector(v) = &mut ops[i as usize] {
                v.modifier = Modifier::SAT;
            }
        }
    }
    Ok(())
}

/// The operand IGC's builder puts where the text shows none (a flat LSC message's
/// surface, an unused pitch): `%null` as a scalar.
fn null_operand() -> Vector {
    Vector::general(0, 0, 0, Region::from_values(0, 1, 0).unwrap_or_default())
}

/// Values of fields the text leaves out: list counts follow their lists; the rest are 0.
fn implied_value(index: usize, fields: &[Field], ops: &[Operand]) -> u32 {
    for (f, o) in fields.iter().zip(ops) {
        match (f.kind, o) {
            (FieldKind::RawList(c), Operand::RawList(l)) if c == index => return l.len() as u32,
            (FieldKind::LabelList(c), Operand::LabelList(l)) if c == index => {
                return l.len() as u32
            }
            _ => {}
        }
    }
    0
}

/// Fields written by two formatters (low and high bits of one byte) combine.
fn merge(old: &Operand, new: Operand) -> Operand {
    match (old, new) {
        (Operand::Int(a), Operand::Int(b)) => Operand::Int(a | b),
        (_, n) => n,
    }
}

/// A predicate prefix `(!P1.any)`, or `None` (cursor unmoved) when the parenthesis
/// holds something else.
fn parse_pred(rb: &RoutineBuilder, c: &mut LineCursor) -> PResult<Option<Pred>> {
    let start = *c;
    c.expect("(")?;
    let inv = c.eat("!");
    let at = *c;
    let Ok(name) = c.ident() else {
        *c = start;
        return Ok(None);
    };
    let Some(id) = rb.predicate(name) else {
        if inv {
            return Err(at.err(
                format!("unknown predicate `{name}`"),
                "a declared predicate",
            ));
        }
        *c = start;
        return Ok(None);
    };
    let ctrl = if c.eat(".any") {
        1
    } else if c.eat(".all") {
        2
    } else {
        0
    };
    c.expect(")")?;
    Ok(Some(Pred(
        (id & 0xFFF) | (ctrl << 13) | if inv { 0x8000 } else { 0 },
    )))
}

#[inline(always)]
fn parse_exec(c: &mut LineCursor) -> PResult<ExecCtrl> {
    c.skip_ws();
    if let Some((e, len)) = plain_exec(&c.text.as_bytes()[c.pos..]) {
        c.pos += len;
        return Ok(e);
    }
    parse_exec_full(c)
}

/// `parse_exec` past its blanks, for what `plain_exec` does not take.
#[inline(never)]
fn parse_exec_full(c: &mut LineCursor) -> PResult<ExecCtrl> {
    c.expect("(")?;
    c.skip_ws();
    let at = *c;
    let m = c.ident()?;
    // `M<n>` and `M<n>_NM` decided bytewise (the order of `names::EMASK`).
    let mask = match m.as_bytes() {
        [b'M', d @ b'1'..=b'8'] => Some(usize::from(d - b'1')),
        [b'M', d @ b'1'..=b'8', b'_', b'N', b'M'] => Some(usize::from(d - b'1') + 8),
        _ => names::EMASK.iter().position(|e| *e == m),
    };
    let mask = mask.ok_or_else(|| {
        at.err(
            format!("unknown execution mask `{m}`"),
            "M1..M8 or M1_NM..M8_NM",
        )
    })?;
    c.skip_ws();
    c.expect(",")?;
    c.skip_ws();
    let at = *c;
    let n = c.uint(32)?;
    let e = ExecCtrl::new(n, mask as u8).ok_or_else(|| {
        at.err(
            format!("execution size {n} is not 1, 2, 4, 8, 16 or 32"),
            "1, 2, 4, 8, 16 or 32",
        )
    })?;
    c.skip_ws();
    c.expect(")")?;
    Ok(e)
}

/// `(M<n>[_NM], <size>)` as IGC prints it (one optional space, a legal size) and its
/// length; `None` for anything else, which `parse_exec` then reads with its diagnostics.
#[inline]
fn plain_exec(b: &[u8]) -> Option<(ExecCtrl, usize)> {
    // IGC's own form (`(M1, 16)`, `(M5_NM, 1)`) matched as a shape; the rest below.
    let (d, nm, size, len) = match *b {
        [b'(', b'M', d, b',', b' ', s @ b'0'..=b'9', b')', ..] => (d, 0, s - b'0', 7),
        [b'(', b'M', d, b',', b' ', t @ b'0'..=b'9', s @ b'0'..=b'9', b')', ..] => {
            (d, 0, (t - b'0') * 10 + (s - b'0'), 8)
        }
        [b'(', b'M', d, b'_', b'N', b'M', b',', b' ', s @ b'0'..=b'9', b')', ..] => {
            (d, 8, s - b'0', 10)
        }
        [b'(', b'M', d, b'_', b'N', b'M', b',', b' ', t @ b'0'..=b'9', s @ b'0'..=b'9', b')', ..] => {
            (d, 8, (t - b'0') * 10 + (s - b'0'), 11)
        }
        _ => return plain_exec_long(b),
    };
    if !(b'1'..=b'8').contains(&d) {
        return None;
    }
    Some((ExecCtrl::new(size.into(), d - b'1' + nm)?, len))
}

/// `plain_exec` for the forms IGC does not print (no space, leading zeros).
#[inline(never)]
fn plain_exec_long(b: &[u8]) -> Option<(ExecCtrl, usize)> {
    let (&[b'(', b'M', d], rest) = b.split_first_chunk::<3>()? else {
        return None;
    };
    if !(b'1'..=b'8').contains(&d) {
        return None;
    }
    let (mask, mut i) = if rest.starts_with(b"_NM") {
        (d - b'1' + 8, 6)
    } else {
        (d - b'1', 3)
    };
    if b.get(i) != Some(&b',') {
        return None;
    }
    i += 1;
    if b.get(i) == Some(&b' ') {
        i += 1;
    }
    let size = decimal3(b, &mut i)?;
    if b.get(i) != Some(&b')') {
        return None;
    }
    Some((ExecCtrl::new(size.into(), mask)?, i + 1))
}

/// `generic` written into the operand's slot, with a declared variable's plain
/// `(row,col)<region>` read inline (the commonest operand; a result returned through
/// memory and copied cost more than reading it).
#[inline(always)]
fn generic_into(
    rb: &mut RoutineBuilder,
    version: Version,
    c: &mut LineCursor,
    f: &Field,
    slot: &mut Operand,
) -> PResult<()> {
    match f.kind {
        FieldKind::Vector => {
            c.skip_ws();
            let first = c.text.as_bytes().get(c.pos).copied().unwrap_or(0);
            let plain = if first.is_ascii_digit() {
                plain_immediate(c)
            } else {
                plain_variable(rb, c)
            };
            if let Some(v) = plain {
                put(slot, Operand::Vector(v));
                return Ok(());
            }
        }
        FieldKind::Raw => {
            c.skip_ws();
            if let Some(r) = plain_raw(rb, c) {
                put(slot, Operand::Raw(r));
                return Ok(());
            }
        }
        _ => {}
    }
    *slot = generic(rb, version, c, f)?;
    Ok(())
}

/// `*slot = new` without the out-of-line drop of what was there when that holds no
/// list (the usual case: an absent field), which cost more than the write.
#[inline(always)]
fn put(slot: &mut Operand, new: Operand) {
    if matches!(slot, Operand::RawList(_) | Operand::LabelList(_)) {
        *slot = new;
    } else {
        // The old value owns nothing: forgetting it frees nothing.
        std::mem::forget(std::mem::replace(slot, new));
    }
}

/// A number literal with its type (`0x10:ud`, `7:w`) as `parse_vector` reads it when
/// the number is plain (`LineCursor::plain_number`) and the type known, the cursor moved
/// past it; `None` (cursor unmoved) for anything else.
#[inline]
fn plain_immediate(c: &mut LineCursor) -> Option<Vector> {
    let (v, len) = c.plain_number()?;
    let b = &c.text.as_bytes()[c.pos + len..];
    if b.first() != Some(&b':') {
        return None;
    }
    let n = b[1..]
        .iter()
        .position(|&x| !is_name_byte(x))
        .unwrap_or(b.len() - 1);
    let start = c.pos + len + 1;
    let ty = type_named(&c.text[start..start + n])?;
    let bits = if ty.is_wide_immediate() {
        v
    } else {
        v & 0xFFFF_FFFF
    };
    c.pos = start + n;
    Some(Vector {
        modifier: Modifier::NONE,
        kind: VectorKind::Immediate {
            ty: ty.0,
            bits: bits.into(),
        },
    })
}

/// A declared variable's `name.offset` with a plain offset in range, as `parse_raw`
/// reads it, the cursor moved past it; `None` (cursor unmoved) for anything else.
#[inline]
fn plain_raw(rb: &RoutineBuilder, c: &mut LineCursor) -> Option<Raw> {
    let b = &c.text.as_bytes()[c.pos..];
    let n = b.iter().position(|&x| !is_name_byte(x)).unwrap_or(b.len());
    if n == 0 || b.get(n) != Some(&b'.') {
        return None;
    }
    let at = LineCursor {
        pos: c.pos + n + 1,
        ..*c
    };
    let (offset, len) = at.plain_number()?;
    let offset = u16::try_from(offset).ok()?;
    let id = rb.var_id(&c.text[c.pos..c.pos + n])?;
    c.pos = at.pos + len;
    Some(Raw { id, offset })
}

/// A declared variable's `name(row,col)<region>` in its plain form with no modifier,
/// the cursor moved past it; `None` (cursor unmoved) for anything else.
#[inline(always)]
fn plain_variable(rb: &RoutineBuilder, c: &mut LineCursor) -> Option<Vector> {
    let b = &c.text.as_bytes()[c.pos..];
    if !b
        .first()
        .is_some_and(|&x| is_name_byte(x) && !x.is_ascii_digit())
    {
        return None;
    }
    let n = b.iter().position(|&x| !is_name_byte(x)).unwrap_or(b.len());
    let (row, col, region, len) = plain_general(&b[n..])?;
    let id = rb.var_id(&c.text[c.pos..c.pos + n])?;
    c.pos += n + len;
    Some(Vector::general(id, row, col, region))
}

fn generic(
    rb: &mut RoutineBuilder,
    version: Version,
    c: &mut LineCursor,
    f: &Field,
) -> PResult<Operand> {
    c.skip_ws();
    if c.at_end() && !matches!(f.kind, FieldKind::RawList(_)) {
        let what = match f.kind {
            FieldKind::Vector => "a vector operand",
            FieldKind::Raw => "a raw operand (var.offset)",
            FieldKind::Label => "a label",
            _ => "a number",
        };
        return Err(c.err(format!("too few operands: `{}` is missing", f.name), what));
    }
    Ok(match f.kind {
        FieldKind::Vector => Operand::Vector(parse_vector(rb, c)?),
        FieldKind::Raw => Operand::Raw(parse_raw(rb, c)?),
        FieldKind::Label => {
            let at = *c;
            let n = label_ref(c)?;
            Operand::Label(rb.label(n, at.line, at.pos + 1))
        }
        FieldKind::U8 => Operand::Int(c.uint(0xFF)?),
        FieldKind::U16 | FieldKind::SamplerOp => Operand::Int(c.uint(0xFFFF)?),
        FieldKind::U32 | FieldKind::WideId => Operand::Int(c.uint(u32::MAX.into())?),
        FieldKind::I32 => Operand::Int(c.int()? as i32 as u32),
        FieldKind::Aoffimmi => {
            let v = parse_vector(rb, c)?;
            match (version.wide_ids(), v.kind) {
                (false, VectorKind::Immediate { bits, .. }) => {
                    Operand::Int(bits.get() as u32 & 0xFFFF)
                }
                _ => Operand::Vector(v),
            }
        }
        FieldKind::RawList(_) => {
            let mut list = Vec::new();
            loop {
                c.skip_ws();
                if c.at_end() {
                    break;
                }
                list.push(parse_raw(rb, c)?);
            }
            Operand::RawList(Box::new(list))
        }
        FieldKind::LabelList(_) | FieldKind::Exec | FieldKind::Pred => {
            return Err(c.err(format!("field `{}` has no generic form", f.name), ""))
        }
    })
}

fn parse_raw(rb: &RoutineBuilder, c: &mut LineCursor) -> PResult<Raw> {
    let at = *c;
    let name = c.ident()?;
    let id = rb
        .var_id(name)
        .ok_or_else(|| at.err(format!("unknown variable `{name}`"), "a declared variable"))?;
    c.expect(".")?;
    let offset = c.primary_uint(u16::MAX.into())? as u16;
    Ok(Raw { id, offset })
}

fn parse_region(c: &mut LineCursor, dst_ok: bool) -> PResult<Region> {
    let at = *c;
    c.expect("<")?;
    // At most three values count; more make the region illegal (but are still read).
    let mut vals = [c.uint(64)? as u16, 0, 0];
    let mut seps = [' '; 2];
    let mut n = 1;
    while let Some(sep) = c.peek().filter(|ch| matches!(ch, ';' | ',')) {
        c.pos += 1;
        let v = c.uint(64)? as u16;
        if n < 3 {
            seps[n - 1] = sep;
            vals[n] = v;
        }
        n += 1;
    }
    c.expect(">")?;
    let bad = || {
        at.err(
            "illegal region",
            "<h>, <w,h> or <v;w,h> with values 0, 1, 2, 4, 8, 16, 32",
        )
    };
    let code = |v: u16| Region::value_code(v).map(u16::from).ok_or_else(bad);
    match (n, vals, seps) {
        (1, [h, ..], _) if dst_ok => Ok(Region(code(h)? << 8)),
        (2, [w, h, _], [',', _]) => Ok(Region((code(w)? << 4) | (code(h)? << 8))),
        (3, [v, w, h], [';', ',']) => Ok(Region(code(v)? | (code(w)? << 4) | (code(h)? << 8))),
        _ => Err(bad()),
    }
}

fn parse_modifier(c: &mut LineCursor) -> Modifier {
    // Every modifier opens with `(`; most operands have none.
    if c.text.as_bytes().get(c.pos) != Some(&b'(') {
        return Modifier::NONE;
    }
    for (code, text) in [(3u8, "(-abs)"), (1, "(abs)"), (2, "(-)"), (5, "(~)")] {
        if c.eat(text) {
            return Modifier(code);
        }
    }
    Modifier::NONE
}

/// `Type::from_name`, with the names IGC prints decided without a table scan.
fn type_named(name: &str) -> Option<Type> {
    match name {
        "ud" => Some(Type::UD),
        "d" => Some(Type::D),
        "uw" => Some(Type::UW),
        "w" => Some(Type::W),
        "ub" => Some(Type::UB),
        "b" => Some(Type::B),
        "f" => Some(Type::F),
        "df" => Some(Type::DF),
        "uq" => Some(Type::UQ),
        "q" => Some(Type::Q),
        "hf" => Some(Type::HF),
        _ => Type::from_name(name),
    }
}

fn surface_id(name: &str) -> Option<u16> {
    if let Some(i) = PREDEFINED_SURFACES.iter().position(|(n, _)| *n == name) {
        return Some(i as u16);
    }
    name.strip_prefix('T').and_then(|n| n.parse().ok())
}

fn parse_vector(rb: &RoutineBuilder, c: &mut LineCursor) -> PResult<Vector> {
    parse_vector_region(rb, c, true)
}

/// A vector operand; `region_required` is false only where IGC prints a variable without
/// its region (`dpas` src2).
fn parse_vector_region(
    rb: &RoutineBuilder,
    c: &mut LineCursor,
    region_required: bool,
) -> PResult<Vector> {
    c.skip_ws();
    // Most operands are a declared variable's plain `(row,col)<region>` with no modifier:
    // read in one pass (anything else, or an unknown name, takes the full path below).
    if let Some(v) = plain_variable(rb, c) {
        return Ok(v);
    }
    let modifier = parse_modifier(c);
    if c.peek() == Some('&') {
        return address_of(rb, c, modifier);
    }
    let at = *c;
    let r = c.rest();
    // Immediates: 0x<hex>:<type>, or a decimal / float literal with a type.
    if r.starts_with(|ch: char| ch.is_ascii_digit() || ch == '-') {
        let v = c.int()?;
        c.expect(":")?;
        let tat = *c;
        let tn = c.ident()?;
        let ty =
            type_named(tn).ok_or_else(|| tat.err(format!("unknown type `{tn}`"), "a vISA type"))?;
        let bits = if ty.is_wide_immediate() {
            v as u64
        } else {
            v as u64 & 0xFFFF_FFFF
        };
        return Ok(Vector {
            modifier,
            kind: VectorKind::Immediate {
                ty: ty.0,
                bits: bits.into(),
            },
        });
    }
    if r.starts_with("r[") {
        c.pos += 2;
        let aat = *c;
        let aname = c.ident()?;
        let addr = rb
            .address_ids
            .get(aname)
            .copied()
            .or_else(|| aname.strip_prefix('A').and_then(|n| n.parse().ok()))
            .ok_or_else(|| {
                aat.err(
                    format!("unknown address `{aname}`"),
                    "A<n> or a declared address",
                )
            })?;
        c.expect("(")?;
        let addr_offset = c.uint(0xFF)? as u8;
        c.expect(")")?;
        c.expect(",")?;
        let offset = c.int()? as i16;
        c.expect("]")?;
        let region = parse_region(c, true)?;
        c.expect(":")?;
        let tat = *c;
        let tn = c.ident()?;
        let ty =
            type_named(tn).ok_or_else(|| tat.err(format!("unknown type `{tn}`"), "a vISA type"))?;
        return Ok(Vector {
            modifier,
            kind: VectorKind::Indirect {
                addr,
                addr_offset,
                offset,
                ty: ty.0,
                region,
            },
        });
    }
    let name = c.ident()?;
    if !c.rest().starts_with('(') {
        // A bare predicate.
        if let Some(&id) = rb.predicate_ids.get(name) {
            return Ok(Vector {
                modifier,
                kind: VectorKind::Predicate(Pred(id)),
            });
        }
        if let Some(n) = name.strip_prefix('P').and_then(|n| n.parse::<u16>().ok()) {
            return Ok(Vector {
                modifier,
                kind: VectorKind::Predicate(Pred(n)),
            });
        }
        return Err(at.err(
            format!("`{name}` is not an operand"),
            "V(r,c)<region>, an immediate, A<n>(o)<w>, P<n>, r[...] or a state",
        ));
    }
    if let Some((row, col, region, len)) = plain_general(&c.text.as_bytes()[c.pos..]) {
        if let Some(id) = rb.var_id(name) {
            c.pos += len;
            return Ok(Vector {
                modifier,
                ..Vector::general(id, row, col, region)
            });
        }
    }
    c.expect("(")?;
    let first = c.uint(u32::MAX.into())?;
    if c.eat(",") {
        let col = c.uint(0xFF)? as u8;
        c.expect(")")?;
        let id = rb
            .var_id(name)
            .ok_or_else(|| at.err(format!("unknown variable `{name}`"), "a declared variable"))?;
        let region = if c.peek() == Some('<') {
            parse_region(c, true)?
        } else if region_required {
            return Err(c.err("a variable operand needs a region", "<h>, <w,h> or <v;w,h>"));
        } else {
            Region(0)
        };
        let row = u8::try_from(first).map_err(|_| at.err("row offset out of range", "0..=255"))?;
        return Ok(Vector {
            modifier,
            ..Vector::general(id, row, col, region)
        });
    }
    c.expect(")")?;
    if c.peek() == Some('<') {
        // An address register element: A<n>(<offset>)<width>.
        let id = match rb.address_ids.get(name) {
            Some(&id) => id,
            None => name
                .strip_prefix('A')
                .and_then(|n| n.parse().ok())
                .ok_or_else(|| at.err(format!("unknown address `{name}`"), "a declared address"))?,
        };
        c.expect("<")?;
        let wat = *c;
        let w = c.uint(32)?;
        c.expect(">")?;
        let width = ExecCtrl::new(w, 0)
            .ok_or_else(|| wat.err("illegal address width", "1, 2, 4, 8, 16 or 32"))?
            .0;
        return Ok(Vector {
            modifier,
            kind: VectorKind::Address {
                id,
                offset: first as u8,
                width,
            },
        });
    }
    // A state operand: a surface or sampler element.
    let offset = u8::try_from(first).map_err(|_| at.err("state offset out of range", "0..=255"))?;
    if let Some(index) = rb.surface(name) {
        return Ok(Vector {
            modifier,
            kind: VectorKind::State {
                class: 0,
                index,
                offset,
            },
        });
    }
    if let Some(index) = rb.sampler(name) {
        return Ok(Vector {
            modifier,
            kind: VectorKind::State {
                class: 1,
                index,
                offset,
            },
        });
    }
    Err(at.err(format!("unknown state `{name}`"), "a surface or sampler"))
}

/// A decimal of 1 to 3 digits at `b[*i..]` not followed by another digit, advancing
/// `i` past it.
#[inline(always)]
fn decimal3(b: &[u8], i: &mut usize) -> Option<u16> {
    let digit = |j: usize| b.get(j).map(|d| d.wrapping_sub(b'0')).filter(|d| *d < 10);
    let mut v = u16::from(digit(*i)?);
    let mut j = *i + 1;
    while let Some(d) = digit(j) {
        if j - *i == 3 {
            return None;
        }
        v = v * 10 + u16::from(d);
        j += 1;
    }
    *i = j;
    Some(v)
}

/// `(row,col)<region>` of a general operand in its plain form (decimal numbers in range,
/// a legal region): row, column, region and length. `None` for anything else, which the
/// full path then reads with its diagnostics; on the plain form both agree.
#[inline]
fn plain_general(b: &[u8]) -> Option<(u8, u8, Region, usize)> {
    // Nearly every operand has one-digit numbers (`(0,0)<1;1,0>`): matched as a shape.
    if let [b'(', r @ b'0'..=b'9', b',', c @ b'0'..=b'9', b')', b'<', ref region @ ..] = *b {
        // A digit's region code (`Region::value_code`), `NO` for a digit no region has.
        const NO: u16 = 0xFF;
        const DIGIT_CODE: [u16; 10] = [1, 2, 3, NO, 4, NO, NO, NO, 5, NO];
        let code = |d: u8| DIGIT_CODE[usize::from(d - b'0')];
        let (codes, len) = match *region {
            [v @ b'0'..=b'9', b';', w @ b'0'..=b'9', b',', h @ b'0'..=b'9', b'>', ..] => {
                ([code(v), code(w), code(h)], 12)
            }
            [w @ b'0'..=b'9', b',', h @ b'0'..=b'9', b'>', ..] => ([0, code(w), code(h)], 10),
            [h @ b'0'..=b'9', b'>', ..] => ([0, 0, code(h)], 8),
            _ => return plain_general_long(b),
        };
        // A shape with an illegal value is no plain operand, as below.
        if codes.contains(&NO) {
            return None;
        }
        let region = Region(codes[0] | (codes[1] << 4) | (codes[2] << 8));
        return Some((r - b'0', c - b'0', region, len));
    }
    plain_general_long(b)
}

/// `plain_general` for numbers of more than one digit.
#[inline(never)]
fn plain_general_long(b: &[u8]) -> Option<(u8, u8, Region, usize)> {
    let is = |i: usize, want: u8| b.get(i) == Some(&want);
    let code = |v: u16| Region::value_code(v).map(u16::from);
    if !is(0, b'(') {
        return None;
    }
    let mut i = 1;
    let row = u8::try_from(decimal3(b, &mut i)?).ok()?;
    if !is(i, b',') {
        return None;
    }
    i += 1;
    let col = u8::try_from(decimal3(b, &mut i)?).ok()?;
    if !is(i, b')') || !is(i + 1, b'<') {
        return None;
    }
    i += 2;
    let first = code(decimal3(b, &mut i)?)?;
    // `<h>`, `<w,h>` or `<v;w,h>`, closed by `>`.
    let region = match b.get(i) {
        Some(b'>') => Region(first << 8),
        Some(b',') => {
            i += 1;
            let h = code(decimal3(b, &mut i)?)?;
            Region((first << 4) | (h << 8))
        }
        Some(b';') => {
            i += 1;
            let w = code(decimal3(b, &mut i)?)?;
            if !is(i, b',') {
                return None;
            }
            i += 1;
            let h = code(decimal3(b, &mut i)?)?;
            Region(first | (w << 4) | (h << 8))
        }
        _ => return None,
    };
    if !is(i, b'>') {
        return None;
    }
    Some((row, col, region, i + 1))
}

/// `&name[byte offset]`: the address of a variable, surface or sampler, stored as the
/// element the offset names (IGC keeps it as a general or state operand).
fn address_of(rb: &RoutineBuilder, c: &mut LineCursor, modifier: Modifier) -> PResult<Vector> {
    c.expect("&")?;
    let nat = *c;
    let name = c.ident()?;
    let off = if c.eat("[") {
        let o = c.uint(u32::MAX.into())?;
        c.expect("]")?;
        o
    } else {
        0
    };
    if rb.var_id(name).is_none() {
        if let Some(index) = rb.surface(name) {
            return Ok(Vector {
                modifier,
                kind: VectorKind::State {
                    class: 0,
                    index,
                    offset: (off / 4) as u8,
                },
            });
        }
        if let Some(index) = rb.sampler(name) {
            return Ok(Vector {
                modifier,
                kind: VectorKind::State {
                    class: 1,
                    index,
                    offset: (off / 4) as u8,
                },
            });
        }
    }
    let id = rb
        .var_id(name)
        .ok_or_else(|| nat.err(format!("unknown variable `{name}`"), "a declared variable"))?;
    let size = rb.var_type(id).size().unwrap_or(1) as u32;
    let grf = rb.grf_bytes.max(1);
    rb.grf_used.set(true);
    // The text does not show the region of `&var`; IGC stores the scalar <0;1,0>.
    let scalar = Region::from_values(0, 1, 0).unwrap_or_default();
    let kind = VectorKind::General {
        id,
        row: (off / grf) as u8,
        col: ((off % grf) / size) as u8,
        region: scalar,
    };
    Ok(Vector { modifier, kind })
}

/// Parses a formatted field; may also set other fields the same text spells.
fn formatted(
    rb: &mut RoutineBuilder,
    version: Version,
    c: &mut LineCursor,
    f: Format,
    (opcode, subop): (Opcode, Option<u8>),
    fields: &[Field],
    ops: &mut [Operand],
) -> PResult<Operand> {
    let at = *c;
    let int = |v: u32| Ok(Operand::Int(v));
    let pick = |c: &mut LineCursor, table: &[&str], what: &str| -> PResult<u32> {
        let at = *c;
        let w = c.ident()?;
        // Names are a few bytes: compared bytewise, not through `memcmp` per entry.
        let same = |n: &str| n.len() == w.len() && n.bytes().zip(w.bytes()).all(|(a, b)| a == b);
        table
            .iter()
            .position(|n| same(n))
            .map(|i| i as u32)
            .ok_or_else(|| at.err(format!("unknown {what} `{w}`"), table.join(", ")))
    };
    let log2 = |c: &mut LineCursor| -> PResult<u32> {
        let at = *c;
        let n = c.uint(u32::MAX.into())?;
        if n.is_power_of_two() {
            Ok(n.trailing_zeros())
        } else {
            Err(at.err(format!("{n} is not a power of two"), "1, 2, 4, 8 or 16"))
        }
    };
    match f {
        Format::Surface => {
            c.skip_ws();
            let name = c.ident()?;
            match rb.surface(name) {
                Some(id) => int(id.into()),
                None => Err(at.err(format!("unknown surface `{name}`"), "a surface")),
            }
        }
        Format::Channels => {
            let mut v = 0;
            for (bit, ch) in ['R', 'G', 'B', 'A'].iter().enumerate() {
                if c.peek() == Some(*ch) {
                    c.pos += 1;
                    v |= 1 << bit;
                }
            }
            int(v)
        }
        Format::Relop => {
            let n = if c.eat("n") { 0x80 } else { 0 };
            c.expect(".")?;
            Ok(Operand::Int(n | pick(c, &names::RELOP, "relation")?))
        }
        Format::MinMax => {
            if c.eat("min") {
                int(0)
            } else if c.eat("max") {
                int(1)
            } else {
                Err(at.err("expected min or max", "min or max"))
            }
        }
        Format::Atomic => {
            c.expect(".")?;
            let mut v = pick(c, &names::ATOMIC_OP, "atomic operation")?;
            if c.eat(".16") {
                v |= 0x20;
            } else if c.eat(".64") {
                v |= 0x40;
            }
            int(v)
        }
        Format::Owords | Format::Blocks => Ok(Operand::Int(log2(c)?)),
        Format::EltSize => match c.uint(4)? {
            1 => int(0),
            2 => int(1),
            4 => int(2),
            n => Err(at.err(format!("element size {n}"), "1, 2 or 4")),
        },
        Format::GatherExec => {
            let e = parse_exec(c)?;
            let code = match e.exec_size() {
                Some(8) => 0,
                Some(16) => 1,
                Some(1) => 2,
                _ => return Err(at.err("gather/scatter size must be 1, 8 or 16", "1, 8 or 16")),
            };
            int(code | (u32::from(e.emask()) << 4))
        }
        Format::Modified => int(u32::from(c.eat(".mod"))),
        Format::Hex => Ok(Operand::Int(c.uint(u32::MAX.into())?)),
        Format::Label | Format::CallTarget => {
            c.skip_ws();
            let n = label_ref(c)?;
            Ok(Operand::Label(rb.label(n, at.line, at.pos + 1)))
        }
        Format::LabelList => {
            c.skip_ws();
            c.expect("(")?;
            let mut v = Vec::new();
            loop {
                c.skip_ws();
                if c.eat(")") {
                    break;
                }
                let lat = *c;
                let n = label_ref(c)?;
                v.push(rb.label(n, lat.line, lat.pos + 1));
                c.skip_ws();
                if !c.eat(",") {
                    c.expect(")")?;
                    break;
                }
            }
            if let Some(i) = fields.iter().position(|f| f.name == "num_labels") {
                ops[i] = Operand::Int(v.len() as u32);
            }
            Ok(Operand::LabelList(Box::new(v)))
        }
        Format::Str => {
            c.skip_ws();
            let n = c.ident()?;
            Ok(Operand::Int(rb.intern(n.as_bytes())))
        }
        Format::Quoted => {
            c.skip_ws();
            let s = c.quoted()?;
            Ok(Operand::Int(rb.intern(&s)))
        }
        Format::MediaLdModifier => Ok(Operand::Int(pick(
            c,
            &names::MEDIA_LD_MODIFIER,
            "media_ld modifier",
        )?)),
        Format::MediaStModifier => Ok(Operand::Int(pick(
            c,
            &names::MEDIA_ST_MODIFIER,
            "media_st modifier",
        )?)),
        Format::SimdMode => match c.uint(16)? {
            8 => int(0),
            16 => int(0x10),
            n => Err(at.err(format!("SIMD mode {n}"), "8 or 16")),
        },
        Format::SamplerOp3d | Format::InfoOp => {
            let r = c.rest();
            let (code, name) = names::SAMPLER_OP_3D
                .iter()
                .enumerate()
                .filter(|(_, n)| !n.is_empty() && r.starts_with(*n))
                .max_by_key(|(_, n)| n.len())
                .map(|(i, n)| (i as u32, *n))
                .ok_or_else(|| at.err("unknown sampler operation", "a 3D sampler operation"))?;
            c.pos += name.len();
            if f == Format::InfoOp {
                if c.eat(".") {
                    let ch = match formatted(
                        rb,
                        version,
                        c,
                        Format::Channels,
                        (opcode, subop),
                        fields,
                        ops,
                    )? {
                        Operand::Int(v) => v,
                        _ => 0,
                    };
                    if let Some(i) = fields.iter().position(|f| f.name == "chmask") {
                        ops[i] = Operand::Int(ch);
                    }
                }
                return int(code);
            }
            c.expect(".")?;
            let (mut pnm, mut cps, mut divs) = (false, false, false);
            loop {
                if c.eat("pixel_null_mask.") {
                    pnm = true;
                } else if opcode == Opcode::SAMPLE_3D && c.eat("cps.") {
                    cps = true;
                } else if opcode == Opcode::SAMPLE_3D && c.eat("divS.") {
                    divs = true;
                } else {
                    break;
                }
            }
            let v = if version.major >= 4 {
                code | u32::from(pnm) << 8 | u32::from(cps) << 9 | u32::from(divs) << 10
            } else {
                code | u32::from(pnm) << 5 | u32::from(cps) << 6 | u32::from(divs) << 7
            };
            debug_assert_eq!(sampler_op_parts(version, v).0, code);
            int(v)
        }
        Format::SingleChannel => Ok(Operand::Int(pick(c, &["R", "G", "B", "A"], "channel")?)),
        Format::UnormFormat => {
            let r = c.rest();
            let i = names::SAMPLER_OUTPUT_FORMAT
                .iter()
                .position(|n| r.starts_with(n) && !r[n.len()..].starts_with('-'))
                .ok_or_else(|| {
                    at.err(
                        "unknown output format",
                        names::SAMPLER_OUTPUT_FORMAT.join(", "),
                    )
                })?;
            c.pos += names::SAMPLER_OUTPUT_FORMAT[i].len();
            int((i as u32) << 4)
        }
        Format::AvsControl => Ok(Operand::Int(pick(c, &names::AVS_CONTROL, "AVS control")?)),
        Format::AvsExecMode => Ok(Operand::Int(pick(
            c,
            &names::AVS_EXEC_MODE,
            "AVS execution mode",
        )?)),
        Format::RtWriteMode => {
            let v = if c.eat(".") {
                flag_bits(c, &RT_WRITE_FLAGS)
            } else {
                0
            };
            int(v)
        }
        Format::Fence => {
            if c.eat("_sw") {
                return int(0x80);
            }
            let mut v = if c.eat("_local") {
                0x20
            } else {
                c.expect("_global")?;
                0
            };
            if c.eat(".") {
                v |= flag_bits(c, &FENCE_FLAGS);
            }
            int(v)
        }
        Format::SplitBarrier => {
            if c.eat(".signal") {
                int(1)
            } else {
                c.expect(".wait")?;
                int(0)
            }
        }
        Format::Lifetime => Ok(Operand::Int(pick(
            c,
            &["start", "end"],
            "lifetime direction",
        )?)),
        Format::LifetimeTarget => {
            c.skip_ws();
            let name = c.ident()?;
            let (class, id) = if let Some(&a) = rb.address_ids.get(name) {
                (1, u32::from(a))
            } else if let Some(&p) = rb.predicate_ids.get(name) {
                (2, u32::from(p))
            } else if let Some(id) = rb.var_id(name) {
                (0, id)
            } else {
                return Err(at.err(
                    format!("unknown variable `{name}`"),
                    "a declared variable, address or predicate",
                ));
            };
            if let Some(i) = fields.iter().position(|f| f.name == "properties") {
                if let Operand::Int(p) = &mut ops[i] {
                    *p |= class << 4;
                }
            }
            int(id)
        }
        // `addr_add` source 0 is any vector operand; `&var[off]` is handled there.
        Format::AddressOf => Ok(Operand::Vector(parse_vector(rb, c)?)),
        Format::RawSend => {
            if c.eat("raw_sendc") {
                int(1)
            } else {
                c.expect("raw_send")?;
                int(0)
            }
        }
        Format::RawSends => {
            // `raw_sends_eot.` is the hand-written spelling of `raw_sends.eot.`.
            for (text, v) in [
                ("raw_sendsc_eot.", 3),
                ("raw_sends_eot.", 2),
                ("raw_sendsc.", 1),
                ("raw_sends.", 0),
            ] {
                if c.eat(text) {
                    return int(v);
                }
            }
            Err(at.err("expected raw_sends or raw_sendsc", "raw_sends."))
        }
        Format::EndOfThread => int(if c.eat("eot.") { 2 } else { 0 }),
        Format::SvmBlock => {
            let mut v = if c.eat(".unaligned") { 8 } else { 0 };
            c.skip_ws();
            c.expect("(")?;
            v |= log2(c)?;
            c.expect(")")?;
            int(v)
        }
        Format::SvmBlockType => match c.uint(8)? {
            1 => int(0),
            4 => int(1),
            8 => int(2),
            n => Err(at.err(format!("block size {n}"), "1, 4 or 8")),
        },
        Format::LscSfid => Ok(Operand::Int(dotted(
            c,
            &names::LSC_SFID,
            "LSC shared function",
        )?)),
        Format::LscCaching => {
            let r = c.rest();
            let is_cache = |s: &str| {
                names::LSC_CACHE
                    .iter()
                    .any(|n| s.strip_prefix('.').is_some_and(|t| t.starts_with(n)))
            };
            if !is_cache(r) {
                return int(0);
            }
            c.expect(".")?;
            let l1 = longest(c, &names::LSC_CACHE, "L1 cache control")?;
            c.expect(".")?;
            let l3 = longest(c, &names::LSC_CACHE, "L3 cache control")?;
            set_field(fields, ops, "l3", Operand::Int(l3));
            int(l1)
        }
        Format::LscRaw => Ok(Operand::Raw(lsc_raw(rb, c)?)),
        Format::LscData => {
            let raw = lsc_raw(rb, c)?;
            c.expect(":")?;
            let size = lsc_data_size(c)?;
            set_field(fields, ops, "data_size", Operand::Int(size));
            if names::lsc_has_chmask(subop.unwrap_or(0)) {
                c.expect(".")?;
                let mut mask = 0;
                for (bit, ch) in ['x', 'y', 'z', 'w'].iter().enumerate() {
                    if c.peek() == Some(*ch) {
                        c.pos += 1;
                        mask |= 1 << bit;
                    }
                }
                set_field(fields, ops, "chmask", Operand::Int(mask));
                set_field(fields, ops, "data_elems", Operand::Int(1));
                set_field(fields, ops, "data_order", Operand::Int(1));
            } else {
                let elems = if c.peek() == Some('x') {
                    let at = *c;
                    c.pos += 1;
                    let n = c.uint(64)?;
                    match n {
                        2 => 2,
                        3 => 3,
                        4 => 4,
                        8 => 5,
                        16 => 6,
                        32 => 7,
                        64 => 8,
                        _ => {
                            return Err(at.err(
                                format!("vector length {n}"),
                                "x2, x3, x4, x8, x16, x32 or x64",
                            ))
                        }
                    }
                } else {
                    1
                };
                let order = if c.eat("t") { 2 } else { 1 };
                set_field(fields, ops, "data_elems", Operand::Int(elems));
                set_field(fields, ops, "data_order", Operand::Int(order));
                set_field(fields, ops, "chmask", Operand::Int(0));
            }
            Ok(Operand::Raw(raw))
        }
        Format::LscAddress | Format::LscTypedAddress | Format::LscSurface => {
            let ty = longest(c, &names::LSC_ADDR_TYPE, "address model")?;
            let surface = if matches!(ty, 2..=4) {
                c.expect("(")?;
                let v = lsc_vector(rb, c)?;
                c.expect(")")?;
                v
            } else {
                null_operand()
            };
            set_field(fields, ops, "surface", Operand::Vector(surface));
            if f == Format::LscSurface {
                set_field(fields, ops, "addr_size", Operand::Int(0));
                for n in ["data_size", "data_order", "data_elems", "chmask"] {
                    set_field(fields, ops, n, Operand::Int(0));
                }
                for n in ["u", "v", "r", "lod", "src1", "src2"] {
                    set_field(fields, ops, n, Operand::Raw(Raw::NULL));
                }
                return int(ty);
            }
            c.expect("[")?;
            if f == Format::LscTypedAddress {
                let coords = ["u", "v", "r", "lod"];
                let mut n = 0;
                while !c.rest().starts_with(']') && n < coords.len() {
                    if n > 0 {
                        c.expect(",")?;
                        c.skip_ws();
                    }
                    let at = *c;
                    let name = c.ident()?;
                    let id = rb.var_id(name).ok_or_else(|| {
                        at.err(format!("unknown variable `{name}`"), "a declared variable")
                    })?;
                    set_field(fields, ops, coords[n], Operand::Raw(Raw::new(id, 0)));
                    n += 1;
                }
                for name in &coords[n..] {
                    set_field(fields, ops, name, Operand::Raw(Raw::NULL));
                }
            } else {
                let mut scale = 1;
                if c.rest().starts_with("0x") && c.rest().contains('*') {
                    scale = c.uint(0xFFFF)?;
                    c.expect("*")?;
                }
                set_field(fields, ops, "imm_scale", Operand::Int(scale));
                let src0 = lsc_raw(rb, c)?;
                set_field(fields, ops, "src0", Operand::Raw(src0));
                let off = if c.eat("+") {
                    c.int()? as i32
                } else if c.eat("-") {
                    (c.int()? as i32).wrapping_neg()
                } else {
                    0
                };
                set_field(fields, ops, "imm_offset", Operand::Int(off as u32));
                let pitch = if c.eat(",") {
                    c.skip_ws();
                    lsc_vector(rb, c)?
                } else {
                    null_operand()
                };
                set_field(fields, ops, "src0_pitch", Operand::Vector(pitch));
            }
            c.expect("]")?;
            c.expect(":")?;
            let size = longest(c, &names::LSC_ADDR_SIZE, "address size")?;
            set_field(fields, ops, "addr_size", Operand::Int(size));
            int(ty)
        }
        Format::LscData2d => {
            let raw = lsc_raw(rb, c)?;
            c.expect(":")?;
            let size = lsc_data_size(c)?;
            c.expect(".")?;
            let mut nums = vec![c.uint(0xFFFF)?];
            while c.eat("x") {
                nums.push(c.uint(0xFFFF)?);
            }
            let (blocks, w, h) = match nums.as_slice() {
                [w, h] => (1, *w, *h),
                [b, w, h] => (*b, *w, *h),
                _ => return Err(at.err("bad block shape", "[blocks x] width x height")),
            };
            let order = match c.peek() {
                Some('t') => 2,
                Some('n') => 1,
                _ => return Err(c.err("expected t or n", "t (transposed) or n")),
            };
            c.pos += 1;
            let vnni = match c.peek() {
                Some('t') => 1,
                Some('n') => 0,
                _ => return Err(c.err("expected t or n", "t (VNNI) or n")),
            };
            c.pos += 1;
            for (n, v) in [
                ("data_size", size),
                ("data_order", order),
                ("blocks", blocks),
                ("block_width", w),
                ("block_height", h),
                ("vnni", vnni),
            ] {
                set_field(fields, ops, n, Operand::Int(v));
            }
            Ok(Operand::Raw(raw))
        }
        Format::LscBlock2dAddress => {
            c.expect("flat[")?;
            let names = [
                "surface_base",
                "surface_width",
                "surface_height",
                "surface_pitch",
                "x",
                "y",
            ];
            let mut first = None;
            for (i, n) in names.iter().enumerate() {
                if i > 0 {
                    c.expect(",")?;
                    c.skip_ws();
                }
                let v = lsc_vector(rb, c)?;
                if i == 0 {
                    first = Some(v);
                } else {
                    set_field(fields, ops, n, Operand::Vector(v));
                }
            }
            c.expect("]")?;
            first
                .map(Operand::Vector)
                .ok_or_else(|| at.err("block2d address without operands", "six operands"))
        }
        Format::LscFenceOp => Ok(Operand::Int(dotted(
            c,
            &names::LSC_FENCE_OP,
            "fence operation",
        )?)),
        Format::LscScope => Ok(Operand::Int(dotted(c, &names::LSC_SCOPE, "fence scope")?)),
        Format::Sampler => {
            c.skip_ws();
            let name = c.ident()?;
            match rb.sampler(name) {
                Some(id) => int(id.into()),
                None => Err(at.err(
                    format!("unknown sampler `{name}`"),
                    "S<n> or a declared sampler",
                )),
            }
        }
        Format::Symbol => {
            c.skip_ws();
            let s = if c.peek() == Some('"') {
                c.quoted()?
            } else {
                c.ident()?.as_bytes().to_vec()
            };
            Ok(Operand::Int(rb.intern(&s)))
        }
        Format::RawSendg => {
            for (text, v) in [
                ("raw_sendgc_eot.", 3),
                ("raw_sendg_eot.", 2),
                ("raw_sendgc.", 1),
                ("raw_sendg.", 0),
            ] {
                if c.eat(text) {
                    return int(v);
                }
            }
            Err(at.err("expected raw_sendg or raw_sendgc", "raw_sendg."))
        }
        Format::HexUpper => Ok(Operand::Int(c.uint(u32::MAX.into())?)),
        Format::Descriptor64 => {
            c.skip_ws();
            // 64 bits: the signed reading wraps back to the same bits.
            let desc = c.int()? as u64;
            set_field(fields, ops, "desc_hi", Operand::Int((desc >> 32) as u32));
            int(desc as u32)
        }
        Format::LfsrControl => int(longest(c, &names::LFSR_FUNC, "lfsr function control")?),
        Format::DnsclConversion => int(longest(c, &names::DNSCL_CONVERSION, "dnscl conversion")?),
        Format::DnsclMode => int(longest(c, &names::DNSCL_MODE, "dnscl mode")?),
        Format::DnsclRounding => int(longest(c, &names::DNSCL_ROUNDING, "dnscl rounding")?),
        Format::BfnControl => {
            c.expect("x")?;
            let r = c.rest();
            let n = r.chars().take_while(char::is_ascii_hexdigit).count();
            let v = u8::from_str_radix(&r[..n], 16)
                .map_err(|_| c.err("bad boolean function", "x<hex byte>"))?;
            c.pos += n;
            int(v.into())
        }
        Format::DpasInfo => {
            c.expect(".")?;
            let w = longest(c, &names::DPAS_PRECISION, "precision")?;
            c.expect(".")?;
            let a = longest(c, &names::DPAS_PRECISION, "precision")?;
            c.expect(".")?;
            let d = c.uint(0xFF)?;
            c.expect(".")?;
            let r = c.uint(0xFF)?;
            int(w | a << 8 | d << 16 | r << 24)
        }
        Format::NoRegion => {
            let mut v = parse_vector_region(rb, c, false)?;
            if let VectorKind::General { region, .. } = &mut v.kind {
                *region = Region(0);
            }
            Ok(Operand::Vector(v))
        }
        Format::WhenSignal => {
            c.skip_ws();
            if c.at_end() {
                Ok(Operand::Vector(null_operand()))
            } else {
                Ok(Operand::Vector(parse_vector(rb, c)?))
            }
        }
    }
}

/// A run of flag spellings in any order (`<RTI><A>`, `EIL1`), as the bits they stand for.
/// Longer spellings are tried first so `L1` is not read as something shorter.
fn flag_bits(c: &mut LineCursor, flags: &[(u32, &str)]) -> u32 {
    let mut ordered: Vec<_> = flags.to_vec();
    ordered.sort_by_key(|(_, n)| std::cmp::Reverse(n.len()));
    let mut v = 0;
    'flags: loop {
        for (bit, n) in &ordered {
            if c.eat(n) {
                v |= 1 << bit;
                continue 'flags;
            }
        }
        return v;
    }
}

/// Sets a field by name (the first the layout has), for formatters that spell several fields at once.
fn set_field(fields: &[Field], ops: &mut [Operand], name: &str, value: Operand) {
    if let Some(i) = fields.iter().position(|f| f.name == name) {
        ops[i] = value;
    }
}

/// `.` and a table entry: `.ugm`, `.invalidate`, `.gpu`.
fn dotted(c: &mut LineCursor, table: &[&str], what: &str) -> PResult<u32> {
    c.expect(".")?;
    longest(c, table, what)
}

/// The longest table entry the text starts with; its index.
fn longest(c: &mut LineCursor, table: &[&str], what: &str) -> PResult<u32> {
    let r = c.rest();
    let (i, n) = table
        .iter()
        .enumerate()
        .filter(|(_, n)| !n.is_empty() && r.starts_with(**n))
        .max_by_key(|(_, n)| n.len())
        .ok_or_else(|| {
            c.err(
                format!("unknown {what}"),
                table
                    .iter()
                    .filter(|n| !n.is_empty())
                    .copied()
                    .collect::<Vec<_>>()
                    .join(", "),
            )
        })?;
    c.pos += n.len();
    Ok(i as u32)
}

/// LSC data sizes in either spelling (IGC 2.x renamed `c32` to `u32`).
fn lsc_data_size(c: &mut LineCursor) -> PResult<u32> {
    let at = *c;
    let a = longest(&mut at.clone(), &names::LSC_DATA_SIZE, "data size").ok();
    let b = longest(&mut at.clone(), &names::LSC_DATA_SIZE_V42, "data size").ok();
    let pick = match (a, b) {
        (Some(x), Some(y)) => {
            if names::LSC_DATA_SIZE[x as usize].len() >= names::LSC_DATA_SIZE_V42[y as usize].len()
            {
                (x, names::LSC_DATA_SIZE[x as usize])
            } else {
                (y, names::LSC_DATA_SIZE_V42[y as usize])
            }
        }
        (Some(x), None) => (x, names::LSC_DATA_SIZE[x as usize]),
        (None, Some(y)) => (y, names::LSC_DATA_SIZE_V42[y as usize]),
        (None, None) => {
            // Hand-written text may name the element type instead of the size.
            for (alias, code) in [
                ("u16c32h", 7),
                ("u16c32", 6),
                ("u8c32", 5),
                ("u64", 4),
                ("u32", 3),
                ("u16", 2),
                ("u8", 1),
            ] {
                if at.rest().starts_with(alias) {
                    c.pos += alias.len();
                    return Ok(code);
                }
            }
            return Err(at.err(
                "unknown data size",
                "d8, d16, d32, d64, d8c32, d16c32, d16c32h",
            ));
        }
    };
    c.pos += pick.1.len();
    Ok(pick.0)
}

/// A raw operand as LSC prints it: the register, and `.offset` only when not 0.
fn lsc_raw(rb: &RoutineBuilder, c: &mut LineCursor) -> PResult<Raw> {
    c.skip_ws();
    let at = *c;
    let name = c.ident()?;
    let id = rb
        .var_id(name)
        .ok_or_else(|| at.err(format!("unknown variable `{name}`"), "a declared variable"))?;
    let offset =
        if c.rest().starts_with('.') && c.rest()[1..].starts_with(|ch: char| ch.is_ascii_digit()) {
            c.pos += 1;
            c.uint(u16::MAX.into())? as u16
        } else {
            0
        };
    Ok(Raw { id, offset })
}

/// An LSC address-part operand: a bare hex immediate, or a variable with an optional (row,col).
fn lsc_vector(rb: &RoutineBuilder, c: &mut LineCursor) -> PResult<Vector> {
    c.skip_ws();
    if c.rest().starts_with("0x") || c.rest().starts_with(|ch: char| ch.is_ascii_digit()) {
        let v = c.int()?;
        return Ok(Vector::imm(Type::UD, v as u64 & 0xFFFF_FFFF));
    }
    let at = *c;
    let name = c.ident()?;
    let id = rb
        .var_id(name)
        .ok_or_else(|| at.err(format!("unknown variable `{name}`"), "a declared variable"))?;
    let (mut row, mut col) = (0, 0);
    if c.eat("(") {
        row = c.uint(0xFF)? as u8;
        c.expect(",")?;
        col = c.uint(0xFF)? as u8;
        c.expect(")")?;
    }
    Ok(Vector::general(
        id,
        row,
        col,
        Region::from_values(0, 1, 0).unwrap_or_default(),
    ))
}

/// A label named as an operand: a name, and `.` followed by more name characters as
/// often as they come. IGC 1.0.5353 names the clones of a function it specialises per
/// call site `name.7_1`, and its label definitions read the same way.
fn label_ref<'a>(c: &mut LineCursor<'a>) -> PResult<&'a str> {
    let start = c.pos;
    c.ident()?;
    while c.text.as_bytes().get(c.pos) == Some(&b'.') {
        let mut after = *c;
        after.pos += 1;
        if after.name_len() == 0 {
            break;
        }
        after.ident()?;
        *c = after;
    }
    Ok(&c.text[start..c.pos])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `//Platform:` trailer naming 64-byte GRFs, after the `&var[offset]` it governs,
    /// places the operand as a reading for that platform does.
    #[test]
    fn trailer_platform_governs_earlier_lines() {
        let body =
            ".version 4.2\n.kernel \"k\"\n.decl V0032 v_type=G type=d num_elts=64 align=GRF\n\
                    .decl A0 v_type=A num_elts=1\n\
                    addr_add (M1_NM, 1) A0(0)<1> &V0032[132] 0x0:uw\n";
        let row_of = |text: &str| {
            let object = parse_text(text).expect("parses");
            let list = object.kernels[0].body.code.instructions().expect("decoded");
            let inst = list.iter().next().expect("one instruction");
            inst.operands.iter().find_map(|o| match o {
                Operand::Vector(Vector {
                    kind: VectorKind::General { row, .. },
                    ..
                }) => Some(*row),
                _ => None,
            })
        };
        let trailed = format!("{body}//Platform: PVC\n");
        assert_eq!(row_of(body), Some(4));
        assert_eq!(row_of(&trailed), Some(2));
        let explicit = ParseOptions { grf_bytes: 64 };
        let object = parse_text_with(&trailed, &explicit).expect("parses");
        assert_eq!(object, parse_text(&trailed).expect("parses"));
    }

    /// The word-at-a-time trim agrees with `str::trim_end` whatever the blanks.
    #[test]
    fn trim_end_fast_is_trim_end() {
        let ends = ["", " ", "\t", "\r", " \u{a0}", "\u{2003} ", "\x0b\x0c "];
        for body in ["", "x", "mov (M1, 16) V1(0,0)<1> 0x0:d", "é", "a\u{2003}b"] {
            for spaces in [0, 1, 3, 7, 8, 9, 15, 16, 17, 33, 64] {
                for end in ends {
                    let line = format!("{body}{}{end}", " ".repeat(spaces));
                    assert_eq!(trim_end_fast(&line), line.trim_end(), "{line:?}");
                    let line = format!("{body}{end}{}", " ".repeat(spaces));
                    assert_eq!(trim_end_fast(&line), line.trim_end(), "{line:?}");
                }
            }
        }
    }

    /// The plain-operand shortcut takes only what the full path reads the same way.
    #[test]
    fn plain_general_takes_only_the_plain_form() {
        let region = |v, w, h| Region::from_values(v, w, h).unwrap_or_default();
        assert_eq!(
            plain_general(b"(2,3)<4;2,1> x"),
            Some((2, 3, region(4, 2, 1), 12))
        );
        assert_eq!(
            plain_general(b"(0,0)<1>"),
            Some((0, 0, Region::dst(1).unwrap_or_default(), 8))
        );
        let exec = |s: &str| plain_exec(s.as_bytes());
        assert_eq!(exec("(M1, 16) x"), Some((ExecCtrl(0x04), 8)));
        assert_eq!(exec("(M5_NM,1)"), Some((ExecCtrl(0xC0), 9)));
        // IGC's shapes and the general reading agree.
        for (text, len) in [
            ("(M1, 1)", 7),
            ("(M8, 32)", 8),
            ("(M3_NM, 8)", 10),
            ("(M2_NM, 16)", 11),
        ] {
            let shaped = exec(text);
            assert_eq!(shaped, plain_exec_long(text.as_bytes()), "{text}");
            assert_eq!(shaped.map(|(_, n)| n), Some(len), "{text}");
        }
        for other in [
            "(M9, 1)",
            "(M1_N, 1)",
            "(M1,  1)",
            "(M1, 3)",
            "(M1, 16 )",
            "(M1x, 1)",
        ] {
            assert_eq!(exec(other), None, "{other}");
        }
        for other in [
            "(0x1,0)<1>",
            "(1+1,0)<1>",
            "(0, 0)<1>",
            "(256,0)<1>",
            "(0,0256)<1>",
            "(0,0)<3>",
            "(0,0)<1;1>",
            "(0,0)<1,1,1>",
            "(0,0)<1;1,0;1>",
            "(0,0)<128>",
            "(0,0)",
            "(0,0)<1;1,0",
        ] {
            assert_eq!(plain_general(other.as_bytes()), None, "{other}");
        }
    }
}
