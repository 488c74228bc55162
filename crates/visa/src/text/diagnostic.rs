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
                out.push_str(&format!(
                    "    {l}\n    {}^\n",
                    " ".repeat(d.col.saturating_sub(1))
                ));
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
