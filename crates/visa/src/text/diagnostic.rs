//! Diagnostics for vISA text: where (`line:col`), the offending token, what was
//! expected, rendered with the source line and a caret.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// 1-based line and column (in characters).
    pub line: usize,
    pub col: usize,
    pub message: String,
    /// The text found where the error is (may be empty at end of line).
    pub token: String,
    /// What would have been accepted there (may be empty).
    pub expected: String,
}

/// All diagnostics of one parse, in source order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// Renders every diagnostic as `file:line:col: error: ...` with the source line and a caret.
    pub fn render(&self, file: &str, source: &str) -> String {
        let lines: Vec<&str> = source.split('\n').collect();
        let mut out = String::new();
        for d in &self.0 {
            out.push_str(&format!(
                "{file}:{}:{}: error: {}",
                d.line, d.col, d.message
            ));
            if !d.token.is_empty() || !d.expected.is_empty() {
                out.push_str(" (");
                if !d.token.is_empty() {
                    out.push_str(&format!("found `{}`", d.token));
                }
                if !d.expected.is_empty() {
                    if !d.token.is_empty() {
                        out.push_str(", ");
                    }
                    out.push_str(&format!("expected {}", d.expected));
                }
                out.push(')');
            }
            out.push('\n');
            if let Some(l) = lines.get(d.line.wrapping_sub(1)) {
                let (shown, caret) = window(l, d.col.saturating_sub(1));
                out.push_str(&format!("    {shown}\n    {}^\n", " ".repeat(caret)));
            }
        }
        out
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            writeln!(f, "{}:{}: {}", d.line, d.col, d.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// Characters of a source line shown on each side of the column: a hostile file can
/// hold a 100 MB line, and the user needs only the neighbourhood of the error.
const CONTEXT_CHARS: usize = 80;

/// The part of `line` around character `col`, with `...` where it was cut, and the
/// caret's column within what is shown.
fn window(line: &str, col: usize) -> (String, usize) {
    let start = col.saturating_sub(CONTEXT_CHARS);
    let mut shown: String = line.chars().skip(start).take(2 * CONTEXT_CHARS).collect();
    let mut caret = col - start;
    if start > 0 {
        shown.insert_str(0, "...");
        caret += 3;
    }
    if line.chars().count() > start + 2 * CONTEXT_CHARS {
        shown.push_str("...");
    }
    (shown, caret)
}

#[cfg(test)]
mod tests {
    use super::window;

    #[test]
    fn long_lines_show_the_neighbourhood() {
        assert_eq!(window("mov x", 4), ("mov x".to_string(), 4));
        let long = format!("{}X{}", "a".repeat(1000), "b".repeat(1000));
        let (shown, caret) = window(&long, 1000);
        assert_eq!(shown.chars().nth(caret), Some('X'));
        assert!(shown.len() < 200 && shown.starts_with("...") && shown.ends_with("..."));
    }
}
