//! Listings that stay usable at 100,000 lines: a pane holds its lines as compact JSON
//! blocks, one per chunk of [`CHUNK_LINES`] lines, each inside an empty box of the
//! chunk's height; the page's script turns a chunk into rows when it is scrolled near
//! (so the browser lays out only what is looked at, and the page still needs nothing
//! but itself). Also the JSON the page's script reads for links between the levels
//! and for the zoomable pressure chart.

use crate::model::{Line, Mark, Pressure, PressureDetail};
use std::fmt::Write as _;

/// Lines per chunk: a few screens, so scrolling renders one chunk at a time.
pub const CHUNK_LINES: usize = 256;
/// Height of one row in CSS pixels (the script uses the same).
pub const ROW_PX: usize = 16;

/// Flags of a row, as the script reads them.
const LABEL: u8 = 1;
const FINDING: u8 = 2;
const SPILL: u8 = 4;
const FILL: u8 = 8;

/// Appends `s` as a JSON string that is safe inside a `<script>` element (`<`, `>`
/// and `&` escaped, so no `</script>` or comment can appear).
pub fn json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Writes a pane's markup as its lines come: `begin`, one `row` per line, `end`.
pub struct PaneWriter {
    /// Lines announced, and lines written so far.
    total: usize,
    lines: usize,
    in_chunk: usize,
}

impl PaneWriter {
    /// Opens the pane `id` (`k0-visa`) of kernel `k` at `level` (`source`, `visa`,
    /// `gen`), titled `title`, for `lines` lines.
    pub fn begin(
        s: &mut String,
        id: &str,
        k: usize,
        level: &str,
        title: &str,
        lines: usize,
    ) -> PaneWriter {
        let _ = write!(
            s,
            "<div class=\"pane\" id=\"{id}\" data-k=\"{k}\" data-level=\"{level}\" data-lines=\"{lines}\" data-chunk=\"{CHUNK_LINES}\"><div class=\"ph\">{} <span class=\"note\">{lines} lines</span></div><div class=\"body\">",
            crate::svg::escape(title)
        );
        PaneWriter {
            total: lines,
            lines: 0,
            in_chunk: 0,
        }
    }

    /// One line: its text, the names it writes and reads, and its flags.
    pub fn row(
        &mut self,
        s: &mut String,
        text: &str,
        line: Option<&Line>,
        finding: bool,
        mark: Option<Mark>,
    ) {
        if self.in_chunk == CHUNK_LINES {
            s.push_str("]</script></div>\n");
            self.in_chunk = 0;
        }
        if self.in_chunk == 0 {
            // The box has the height of its rows before they are made.
            let rows = CHUNK_LINES
                .min(self.total.saturating_sub(self.lines))
                .max(1);
            let _ = write!(
                s,
                "<div class=\"chunk\" data-first=\"{}\" style=\"height:{}px\"><script type=\"application/json\">[",
                self.lines,
                rows * ROW_PX
            );
        } else {
            s.push(',');
        }
        s.push('[');
        if text.contains('\n') {
            // A row is one line high: the lines of a text of several (vISA prints a
            // label after a blank line, a function's header before it) are joined.
            let parts: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
            json_string(s, &parts.join("   "));
        } else {
            json_string(s, text);
        }
        let mut flags = u8::from(finding) * FINDING;
        match mark {
            Some(Mark::Spill) => flags |= SPILL,
            Some(Mark::Fill) => flags |= FILL,
            None => {}
        }
        if let Some(l) = line {
            if l.is_label {
                flags |= LABEL;
            }
            if !l.defs.is_empty() || !l.uses.is_empty() {
                s.push(',');
                json_string(s, &l.defs.join(" "));
                s.push(',');
                json_string(s, &l.uses.join(" "));
            } else if flags != 0 {
                s.push_str(",\"\",\"\"");
            }
        } else if flags != 0 {
            s.push_str(",\"\",\"\"");
        }
        if flags != 0 {
            let _ = write!(s, ",{flags}");
        }
        s.push_str("]\n");
        self.lines += 1;
        self.in_chunk += 1;
    }

    pub fn end(self, s: &mut String) {
        if self.in_chunk > 0 {
            s.push_str("]</script></div>\n");
        }
        s.push_str("</div></div>\n");
    }
}

pub fn level_title(level: &str) -> &'static str {
    match level {
        "source" => "OpenCL source",
        "gen" => "Gen assembly",
        _ => "vISA",
    }
}

/// `[a,b,...]` with `null` for `None`.
fn push_numbers<T: std::fmt::Display>(out: &mut String, items: impl Iterator<Item = Option<T>>) {
    out.push('[');
    for (i, v) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        match v {
            Some(v) => {
                let _ = write!(out, "{v}");
            }
            None => out.push_str("null"),
        }
    }
    out.push(']');
}

/// The links between the levels, for the script: per vISA line its source line, per
/// Gen line its vISA line.
pub fn links_json(visa_source: &[Option<u32>], gen_visa: &[Option<u32>]) -> String {
    let mut s = String::with_capacity(8 * (visa_source.len() + gen_visa.len()) + 32);
    s.push_str("{\"src\":");
    push_numbers(&mut s, visa_source.iter().copied());
    s.push_str(",\"gen\":");
    push_numbers(&mut s, gen_visa.iter().copied());
    s.push('}');
    s
}

/// The zoomable chart's data: per instruction, the estimate in GRFs, the live bytes,
/// the physical GRFs, the listing line; block starts, spill points, budget, peak.
pub fn pressure_json(p: &Pressure, detail: Option<&PressureDetail>) -> String {
    let grf = p.grf_bytes.max(1);
    let mut s = String::with_capacity(24 * p.bytes.len() + 256);
    let budget = detail
        .and_then(|d| d.num_grf.map(u64::from))
        .or(p.budget_bytes.map(|b| b / grf));
    let _ = write!(s, "{{\"grf\":{grf},\"budget\":");
    match budget {
        Some(b) => {
            let _ = write!(s, "{b}");
        }
        None => s.push_str("null"),
    }
    s.push_str(",\"peak\":");
    match p.peak {
        Some(at) => {
            let _ = write!(s, "{at}");
        }
        None => s.push_str("null"),
    }
    s.push_str(",\"est\":");
    push_numbers(&mut s, p.bytes.iter().map(|b| Some(b / grf)));
    if let Some(d) = detail {
        if !d.live_bytes.is_empty() {
            s.push_str(",\"bytes\":");
            push_numbers(&mut s, d.live_bytes.iter().map(Some));
        }
        if !d.physical_grfs.is_empty() {
            s.push_str(",\"phys\":");
            push_numbers(&mut s, d.physical_grfs.iter().map(Some));
        }
        s.push_str(",\"spills\":[");
        for (i, (at, mark)) in d.spills.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            let _ = write!(s, "[{at},{}]", u8::from(*mark == Mark::Fill));
        }
        s.push(']');
    }
    s.push_str(",\"blocks\":");
    push_numbers(&mut s, p.block_starts.iter().map(Some));
    // The listing line of each position: most often consecutive lines from the
    // first, up to the listing's last (two numbers instead of one per position).
    let first = p.lines.first().copied().unwrap_or(0);
    let last = p.lines.last().copied().unwrap_or(0);
    let consecutive = p
        .lines
        .iter()
        .enumerate()
        .all(|(i, &l)| l == (first + i).min(last));
    if consecutive {
        let _ = write!(s, ",\"first\":{first},\"last\":{last}");
    } else {
        s.push_str(",\"lines\":");
        push_numbers(&mut s, p.lines.iter().map(Some));
    }
    s.push('}');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_in_a_script_cannot_close_it() {
        let mut s = String::new();
        json_string(&mut s, "</script><!-- \"a\\b\" \u{1}");
        assert_eq!(
            s,
            "\"\\u003c/script\\u003e\\u003c!-- \\\"a\\\\b\\\" \\u0001\""
        );
    }

    #[test]
    fn a_pane_is_chunks_of_json_rows() {
        let mut s = String::new();
        let mut pane = PaneWriter::begin(&mut s, "k0-gen", 0, "gen", "Gen", CHUNK_LINES + 1);
        for i in 0..=CHUNK_LINES {
            pane.row(
                &mut s,
                &format!("l{i}"),
                None,
                false,
                (i == 3).then_some(Mark::Spill),
            );
        }
        pane.end(&mut s);
        assert_eq!(s.matches("class=\"chunk\"").count(), 2);
        assert!(s.contains("data-first=\"256\""));
        assert!(s.contains("[\"l3\",\"\",\"\",4]"));
        assert!(s.contains("[\"l4\"]"));
    }

    #[test]
    fn a_row_is_one_line() {
        let mut s = String::new();
        let mut pane = PaneWriter::begin(&mut s, "k0-visa", 0, "visa", "vISA", 1);
        pane.row(&mut s, "    \n\n.function \"f\"\nf:", None, false, None);
        pane.end(&mut s);
        assert!(s.contains("[\".function \\\"f\\\"   f:\"]"), "{s}");
    }
}
