//! The YAML subset `.ze_info` is written in: block mappings and sequences by
//! indentation, plain and quoted scalars, flow sequences of scalars (`[ 0, 1, 2 ]`),
//! comments, `---` / `...`. Built with an explicit stack (no recursion on input) and a
//! depth limit; errors give the line.

use crate::error::ReadError;

use std::borrow::Cow;

pub const MAX_DEPTH: usize = 32;
/// Node indices and kinds share a u32 (two bits of kind): the text is held below
/// 1 GiB, which bounds the node count.
const MAX_TEXT: usize = (1 << 30) - 2;

const NULL: u32 = 0;
const SCALAR: u32 = 1;
const SEQ: u32 = 2;
const MAP: u32 = 3;
const KIND_SHIFT: u32 = 30;
const END_MASK: u32 = (1 << KIND_SHIFT) - 1;

/// A byte range of the text.
#[derive(Clone, Copy, Debug, Default)]
struct Span {
    start: u32,
    len: u32,
}

/// One node, 20 bytes: a map entry (key and value), a sequence item or the root.
/// Scalars are spans of the text (quotes included, undone when read), so the tree
/// costs a fixed amount per node rather than a heap block per key and scalar. Nodes
/// are stored in document order; a container's children follow it up to `end`.
#[derive(Clone, Copy, Debug)]
struct Node {
    key: Span,
    scalar: Span,
    /// Index one past the node's last descendant, with the kind in the top bits.
    end_kind: u32,
}

impl Node {
    fn kind(&self) -> u32 {
        self.end_kind >> KIND_SHIFT
    }
    fn end(&self) -> usize {
        (self.end_kind & END_MASK) as usize
    }
}

/// A parsed document: the nodes, borrowing the text.
pub struct Tree<'t> {
    text: &'t str,
    nodes: Vec<Node>,
}

impl<'t> Tree<'t> {
    pub fn root(&self) -> Yaml<'_> {
        Yaml {
            text: self.text,
            nodes: &self.nodes,
            at: 0,
        }
    }
}

/// A node of a [`Tree`].
#[derive(Clone, Copy)]
pub struct Yaml<'a> {
    text: &'a str,
    nodes: &'a [Node],
    at: usize,
}

impl<'a> Yaml<'a> {
    fn node(&self) -> Node {
        self.nodes[self.at]
    }
    fn children(self) -> impl Iterator<Item = Yaml<'a>> {
        let end = self.node().end();
        let mut next = self.at + 1;
        std::iter::from_fn(move || {
            (next < end).then(|| {
                let child = Yaml { at: next, ..self };
                next = child.node().end().max(next + 1);
                child
            })
        })
    }
    fn span(&self, s: Span) -> &'a str {
        &self.text[s.start as usize..(s.start + s.len) as usize]
    }
    /// The value of the first entry `key` of a mapping.
    pub fn get(self, key: &str) -> Option<Yaml<'a>> {
        if self.node().kind() != MAP {
            return None;
        }
        self.children()
            .find(|c| unquote(c.span(c.node().key)).is_ok_and(|k| k == key))
    }
    /// A scalar's text, unquoted.
    pub fn str(self) -> Option<Cow<'a, str>> {
        if self.node().kind() != SCALAR {
            return None;
        }
        unquote(self.span(self.node().scalar)).ok()
    }
    /// The scalar of entry `key`.
    pub fn scalar(self, key: &str) -> Option<Cow<'a, str>> {
        self.get(key)?.str()
    }
    /// A sequence's items (none for anything else).
    pub fn items(self) -> impl Iterator<Item = Yaml<'a>> {
        let seq = self.node().kind() == SEQ;
        self.children().filter(move |_| seq)
    }
    /// The items of the sequence at `key`.
    pub fn items_of(self, key: &str) -> impl Iterator<Item = Yaml<'a>> {
        self.get(key).into_iter().flat_map(Yaml::items)
    }
}

struct Frame {
    indent: usize,
    /// The container node (the root, a sequence item or a map entry's value).
    node: usize,
    kind: u32,
    /// For a map: its last entry still waits for a nested block value.
    open: bool,
}

/// Where the text starts in the input, for error offsets.
pub struct Origin<'a> {
    pub section: &'a str,
    pub offset: usize,
}

/// Appends nodes in document order; containers get their `end` when closed.
struct Builder<'t> {
    text: &'t str,
    nodes: Vec<Node>,
    stack: Vec<Frame>,
}

impl<'t> Builder<'t> {
    fn span(&self, part: &str) -> Span {
        // `part` is a slice of `text`: its place is the distance between the two.
        Span {
            start: (part.as_ptr() as usize - self.text.as_ptr() as usize) as u32,
            len: part.len() as u32,
        }
    }
    /// Appends a leaf (`end` = the next node) and returns its index.
    fn leaf(&mut self, kind: u32, key: Span, scalar: Span) -> usize {
        let at = self.nodes.len();
        self.nodes.push(Node {
            key,
            scalar,
            end_kind: kind << KIND_SHIFT | (at as u32 + 1),
        });
        at
    }
    /// Appends a scalar, or a flow sequence with its items.
    fn value(&mut self, key: Span, s: &'t str) -> Result<(), String> {
        let Some(inner) = s.strip_prefix('[') else {
            if s.starts_with('{') {
                return Err(format!("flow mappings are not supported: {s:?}"));
            }
            let s = checked_quotes(s)?;
            self.leaf(SCALAR, key, self.span(s));
            return Ok(());
        };
        let inner = inner
            .strip_suffix(']')
            .ok_or_else(|| format!("unterminated flow sequence {s:?}"))?;
        let seq = self.leaf(SEQ, key, Span::default());
        for item in inner.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let item = checked_quotes(item)?;
            self.leaf(SCALAR, Span::default(), self.span(item));
        }
        self.close(seq);
        Ok(())
    }
    fn close(&mut self, at: usize) {
        let end = self.nodes.len() as u32;
        let node = &mut self.nodes[at];
        node.end_kind = node.kind() << KIND_SHIFT | end;
    }
    /// Opens a block as the container `node` (already appended, of `kind`).
    fn push(&mut self, indent: usize, node: usize, kind: u32) -> Result<(), String> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(format!("nesting deeper than {MAX_DEPTH}"));
        }
        self.stack.push(Frame {
            indent,
            node,
            kind,
            open: false,
        });
        Ok(())
    }
    /// Opens a block as the value of the open entry of the map on top (the entry
    /// is the last node: nothing was appended after it).
    fn push_value(&mut self, indent: usize, kind: u32) -> Result<(), String> {
        let at = self.nodes.len() - 1;
        let node = &mut self.nodes[at];
        node.end_kind = kind << KIND_SHIFT | node.end() as u32;
        self.push(indent, at, kind)
    }
    /// Closes the innermost block.
    fn pop(&mut self) {
        let Some(child) = self.stack.pop() else {
            return;
        };
        self.close(child.node);
        if let Some(parent) = self.stack.last_mut() {
            parent.open = false;
        }
    }
}

pub fn parse<'t>(text: &'t str, origin: &Origin) -> Result<Tree<'t>, ReadError> {
    if text.len() > MAX_TEXT {
        return Err(ReadError::new(
            origin.section,
            "yaml",
            origin.offset,
            format!("{} bytes of text, more than {MAX_TEXT}", text.len()),
        ));
    }
    let mut b = Builder {
        text,
        nodes: Vec::new(),
        stack: Vec::new(),
    };
    let root = b.leaf(MAP, Span::default(), Span::default());
    b.stack.push(Frame {
        indent: 0,
        node: root,
        kind: MAP,
        open: false,
    });
    let mut root_started = false;
    let mut line_start = 0usize;
    for (number, raw) in text.split('\n').enumerate() {
        let line_offset = origin.offset + line_start;
        line_start += raw.len() + 1;
        let err = |msg: String| {
            ReadError::new(
                format!("{} line {}", origin.section, number + 1),
                "yaml",
                line_offset,
                msg,
            )
        };
        let line = strip_comment(raw.trim_end_matches('\r'));
        let trimmed = line.trim_start_matches(' ');
        if trimmed.is_empty() || trimmed == "---" || trimmed == "..." {
            continue;
        }
        if trimmed.starts_with('\t') {
            return Err(err("tab in indentation".into()));
        }
        let indent = line.len() - trimmed.len();
        if !root_started {
            b.stack[0].indent = indent;
            root_started = true;
        }
        // Close every block indented deeper than this line.
        while b.stack.len() > 1 && b.stack.last().is_some_and(|f| f.indent > indent) {
            b.pop();
        }
        // A sequence item at the indentation of its parent key ("key:\n- a") or deeper.
        let mut content = trimmed;
        let mut content_indent = indent;
        if content == "-" || content.starts_with("- ") {
            let top = b.stack.last().ok_or_else(|| err("no open block".into()))?;
            let is_seq_here = top.kind == SEQ && top.indent == indent;
            if !is_seq_here {
                if !(top.kind == MAP && top.open) {
                    return Err(err("sequence item where no sequence can start".into()));
                }
                b.push_value(indent, SEQ).map_err(err)?;
            }
            let rest = content.get(1..).unwrap_or("");
            let spaces = rest.len() - rest.trim_start_matches(' ').len();
            content = rest.trim_start_matches(' ');
            content_indent = indent + 1 + spaces;
            if content.is_empty() {
                return Err(err("empty sequence item".into()));
            }
            if split_key(content).is_none() {
                b.value(Span::default(), content).map_err(err)?;
                continue;
            }
            let item = b.leaf(MAP, Span::default(), Span::default());
            b.push(content_indent, item, MAP).map_err(err)?;
        }
        let Some((key, value)) = split_key(content) else {
            return Err(err(format!("expected `key: value`, found {content:?}")));
        };
        let top = b.stack.last().ok_or_else(|| err("no open block".into()))?;
        let needs_child = !(top.kind == MAP && top.indent == content_indent);
        if needs_child {
            if !(top.kind == MAP && top.open && content_indent > top.indent) {
                return Err(err(format!("key {key:?} is not aligned with its mapping")));
            }
            b.push_value(content_indent, MAP).map_err(err)?;
        }
        let key = b.span(checked_quotes(key).map_err(err)?);
        let open = match value {
            Some(v) => {
                b.value(key, v).map_err(err)?;
                false
            }
            None => {
                b.leaf(NULL, key, Span::default());
                true
            }
        };
        if let Some(top) = b.stack.last_mut() {
            top.open = open;
        }
    }
    while !b.stack.is_empty() {
        b.pop();
    }
    Ok(Tree {
        text,
        nodes: b.nodes,
    })
}

fn strip_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut prev_space = true;
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '#' && prev_space => return &line[..i],
            None => {}
        }
        prev_space = c == ' ';
    }
    line
}

/// `key: value` / `key:`; `None` when the text is not a mapping entry.
fn split_key(s: &str) -> Option<(&str, Option<&str>)> {
    if s.starts_with('[') || s.starts_with('\'') || s.starts_with('"') {
        return None;
    }
    if let Some(k) = s.strip_suffix(':') {
        return Some((k, None));
    }
    let i = s.find(": ")?;
    let v = s[i + 2..].trim();
    Some((&s[..i], if v.is_empty() { None } else { Some(v) }))
}

/// The scalar trimmed, once its quotes are checked to close.
fn checked_quotes(s: &str) -> Result<&str, String> {
    let s = s.trim();
    unquote(s)?;
    Ok(s)
}

/// The text of a scalar as written (trimmed): quotes removed, escapes undone.
fn unquote(s: &str) -> Result<Cow<'_, str>, String> {
    let unterminated = || format!("unterminated quote {s:?}");
    if let Some(inner) = s.strip_prefix('\'') {
        let inner = inner.strip_suffix('\'').ok_or_else(unterminated)?;
        return Ok(if inner.contains("''") {
            Cow::Owned(inner.replace("''", "'"))
        } else {
            Cow::Borrowed(inner)
        });
    }
    if let Some(inner) = s.strip_prefix('"') {
        let inner = inner.strip_suffix('"').ok_or_else(unterminated)?;
        return Ok(if inner.contains('\\') {
            Cow::Owned(inner.replace("\\\"", "\"").replace("\\\\", "\\"))
        } else {
            Cow::Borrowed(inner)
        });
    }
    Ok(Cow::Borrowed(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    fn tree(t: &str) -> Tree<'_> {
        parse(
            t,
            &Origin {
                section: "t",
                offset: 0,
            },
        )
        .unwrap()
    }
    #[test]
    fn nested() {
        let t = "---\nversion: '1.5'\nkernels:\n  - name: k\n    execution_env:\n      simd_size: 16\n    payload_arguments:\n      - arg_type: local_size\n        offset: 0\n      - arg_type: x\n    list: [ 0, 1 ]\nkernels_misc_info:\n- name: k\n...\n";
        let tree = tree(t);
        let n = tree.root();
        assert_eq!(n.scalar("version").as_deref(), Some("1.5"));
        let k = n.items_of("kernels").next().unwrap();
        assert_eq!(k.scalar("name").as_deref(), Some("k"));
        assert_eq!(
            k.get("execution_env")
                .unwrap()
                .scalar("simd_size")
                .as_deref(),
            Some("16")
        );
        assert_eq!(k.items_of("payload_arguments").count(), 2);
        assert_eq!(k.items_of("list").count(), 2);
        assert_eq!(n.items_of("kernels_misc_info").count(), 1);
    }
    #[test]
    fn quotes_empty_values_and_siblings() {
        let t = "a:\nb: 'it''s'\nc: \"q\\\"\\\\\"\nd:\n  - [ 'x', y ]\n  - e:\n      f: 1\n    g: 2\nh: 3\n";
        let tree = tree(t);
        let n = tree.root();
        assert!(n.get("a").is_some_and(|a| a.str().is_none()));
        assert_eq!(n.scalar("b").as_deref(), Some("it's"));
        assert_eq!(n.scalar("c").as_deref(), Some("q\"\\"));
        let d: Vec<Yaml> = n.items_of("d").collect();
        assert_eq!(d.len(), 2);
        let flow: Vec<String> = d[0].items().map(|i| i.str().unwrap().into()).collect();
        assert_eq!(flow, ["x", "y"]);
        assert_eq!(d[1].get("e").unwrap().scalar("f").as_deref(), Some("1"));
        assert_eq!(d[1].scalar("g").as_deref(), Some("2"));
        assert_eq!(n.scalar("h").as_deref(), Some("3"));
        assert_eq!(std::mem::size_of::<Node>(), 20);
    }
}
