//! The YAML subset `.ze_info` is written in: block mappings and sequences by
//! indentation, plain and quoted scalars, flow sequences of scalars (`[ 0, 1, 2 ]`),
//! comments, `---` / `...`. Built with an explicit stack (no recursion on input) and a
//! depth limit; errors give the line.

use crate::error::ReadError;

pub const MAX_DEPTH: usize = 32;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    Map(Vec<(String, Node)>),
    Seq(Vec<Node>),
    Scalar(String),
    Null,
}

impl Node {
    pub fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Map(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    pub fn str(&self) -> Option<&str> {
        match self {
            Node::Scalar(s) => Some(s),
            _ => None,
        }
    }
    pub fn items(&self) -> &[Node] {
        match self {
            Node::Seq(v) => v,
            _ => &[],
        }
    }
}

struct Frame {
    indent: usize,
    node: Node,
    /// For a map: its last key still waits for a nested block value.
    open: bool,
}

/// Where the text starts in the input, for error offsets.
pub struct Origin<'a> {
    pub section: &'a str,
    pub offset: usize,
}

pub fn parse(text: &str, origin: &Origin) -> Result<Node, ReadError> {
    let mut stack: Vec<Frame> = vec![Frame {
        indent: 0,
        node: Node::Map(Vec::new()),
        open: false,
    }];
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
            stack[0].indent = indent;
            root_started = true;
        }
        // Close every block indented deeper than this line.
        while stack.len() > 1 && stack.last().is_some_and(|f| f.indent > indent) {
            pop(&mut stack);
        }
        // A sequence item at the indentation of its parent key ("key:\n- a") or deeper.
        let mut content = trimmed;
        let mut content_indent = indent;
        if content == "-" || content.starts_with("- ") {
            let top = stack
                .last_mut()
                .ok_or_else(|| err("no open block".into()))?;
            let is_seq_here = matches!(top.node, Node::Seq(_)) && top.indent == indent;
            if !is_seq_here {
                if !(matches!(top.node, Node::Map(_)) && top.open) {
                    return Err(err("sequence item where no sequence can start".into()));
                }
                push(&mut stack, indent, Node::Seq(Vec::new()), &err)?;
            }
            let rest = content.get(1..).unwrap_or("");
            let spaces = rest.len() - rest.trim_start_matches(' ').len();
            content = rest.trim_start_matches(' ');
            content_indent = indent + 1 + spaces;
            if content.is_empty() {
                return Err(err("empty sequence item".into()));
            }
            if split_key(content).is_none() {
                let value = scalar_or_flow(content).map_err(err)?;
                if let Some(Frame {
                    node: Node::Seq(v), ..
                }) = stack.last_mut()
                {
                    v.push(value);
                }
                continue;
            }
            push(&mut stack, content_indent, Node::Map(Vec::new()), &err)?;
        }
        let Some((key, value)) = split_key(content) else {
            return Err(err(format!("expected `key: value`, found {content:?}")));
        };
        let top = stack
            .last_mut()
            .ok_or_else(|| err("no open block".into()))?;
        let needs_child = !(matches!(top.node, Node::Map(_)) && top.indent == content_indent);
        if needs_child {
            if !(matches!(top.node, Node::Map(_)) && top.open && content_indent > top.indent) {
                return Err(err(format!("key {key:?} is not aligned with its mapping")));
            }
            push(&mut stack, content_indent, Node::Map(Vec::new()), &err)?;
        }
        let top = stack
            .last_mut()
            .ok_or_else(|| err("no open block".into()))?;
        let Node::Map(map) = &mut top.node else {
            return Err(err("mapping expected".into()));
        };
        let key = unquote(key).map_err(err)?;
        match value {
            Some(v) => {
                map.push((key, scalar_or_flow(v).map_err(err)?));
                top.open = false;
            }
            None => {
                map.push((key, Node::Null));
                top.open = true;
            }
        }
    }
    while stack.len() > 1 {
        pop(&mut stack);
    }
    Ok(stack.pop().map(|f| f.node).unwrap_or(Node::Null))
}

fn push(
    stack: &mut Vec<Frame>,
    indent: usize,
    node: Node,
    err: &dyn Fn(String) -> ReadError,
) -> Result<(), ReadError> {
    if stack.len() >= MAX_DEPTH {
        return Err(err(format!("nesting deeper than {MAX_DEPTH}")));
    }
    stack.push(Frame {
        indent,
        node,
        open: false,
    });
    Ok(())
}

/// Closes the innermost block and stores it as its parent's pending value.
fn pop(stack: &mut Vec<Frame>) {
    let Some(child) = stack.pop() else { return };
    if let Some(parent) = stack.last_mut() {
        match &mut parent.node {
            Node::Seq(v) => v.push(child.node),
            Node::Map(m) if parent.open => {
                if let Some(last) = m.last_mut() {
                    last.1 = child.node;
                }
                parent.open = false;
            }
            _ => {}
        }
    }
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

fn scalar_or_flow(s: &str) -> Result<Node, String> {
    if let Some(inner) = s.strip_prefix('[') {
        let inner = inner
            .strip_suffix(']')
            .ok_or_else(|| format!("unterminated flow sequence {s:?}"))?;
        let items = inner
            .split(',')
            .map(str::trim)
            .filter(|i| !i.is_empty())
            .map(|i| unquote(i).map(Node::Scalar))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(Node::Seq(items));
    }
    if s.starts_with('{') {
        return Err(format!("flow mappings are not supported: {s:?}"));
    }
    unquote(s).map(Node::Scalar)
}

fn unquote(s: &str) -> Result<String, String> {
    let s = s.trim();
    if let Some(inner) = s.strip_prefix('\'') {
        let inner = inner
            .strip_suffix('\'')
            .ok_or_else(|| format!("unterminated quote {s:?}"))?;
        return Ok(inner.replace("''", "'"));
    }
    if let Some(inner) = s.strip_prefix('"') {
        let inner = inner
            .strip_suffix('"')
            .ok_or_else(|| format!("unterminated quote {s:?}"))?;
        return Ok(inner.replace("\\\"", "\"").replace("\\\\", "\\"));
    }
    Ok(s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn nested() {
        let t = "---\nversion: '1.5'\nkernels:\n  - name: k\n    execution_env:\n      simd_size: 16\n    payload_arguments:\n      - arg_type: local_size\n        offset: 0\n      - arg_type: x\n    list: [ 0, 1 ]\nkernels_misc_info:\n- name: k\n...\n";
        let n = parse(
            t,
            &Origin {
                section: "t",
                offset: 0,
            },
        )
        .unwrap();
        assert_eq!(n.get("version").and_then(Node::str), Some("1.5"));
        let k = &n.get("kernels").unwrap().items()[0];
        assert_eq!(k.get("name").and_then(Node::str), Some("k"));
        assert_eq!(
            k.get("execution_env")
                .unwrap()
                .get("simd_size")
                .and_then(Node::str),
            Some("16")
        );
        assert_eq!(k.get("payload_arguments").unwrap().items().len(), 2);
        assert_eq!(k.get("list").unwrap().items().len(), 2);
        assert_eq!(n.get("kernels_misc_info").unwrap().items().len(), 1);
    }
}
