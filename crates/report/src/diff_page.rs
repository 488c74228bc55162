//! The comparison page of `gpukit diff --html`: per matched kernel, its figures in
//! A and B with deltas, the two instruction mixes as paired bars, the two pressure
//! curves on one axis, the two CFGs side by side, and what moved block by block.
//! Same style, Content-Security-Policy and pictures as the report pages.

use crate::diff::Structural;
use crate::model::{Graph, Pressure};
use crate::svg::{self, escape, nice_step, trim_number};
use serde::Serialize;
use std::fmt::Write as _;
use std::io::Write;

#[derive(Clone, Debug, Default, Serialize)]
pub struct DiffPage {
    pub title: String,
    pub facts: Vec<(String, String)>,
    pub kernels: Vec<DiffKernel>,
    /// Kernels present on one side only: (side `A`/`B`, name, file).
    pub unmatched: Vec<(String, String, String)>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct DiffKernel {
    pub name: String,
    pub file_a: String,
    pub file_b: String,
    pub changed: bool,
    /// (figure, value in A, value in B).
    pub figures: Vec<(String, Option<i64>, Option<i64>)>,
    /// Instructions per mnemonic in A and B.
    pub mix_a: Vec<(String, usize)>,
    pub mix_b: Vec<(String, usize)>,
    /// Gen sends per kind (SFID) in A and B.
    pub sends_a: Vec<(String, usize)>,
    pub sends_b: Vec<(String, usize)>,
    pub pressure_a: Option<Pressure>,
    pub pressure_b: Option<Pressure>,
    pub cfg_a: Option<Graph>,
    pub cfg_b: Option<Graph>,
    pub structural: Structural,
}

const DIFF_STYLE: &str = r#"
td.up { color: #b03a2e; } td.down { color: #1e8449; }
table.moved { border-collapse: collapse; font-family: ui-monospace, monospace; font-size: 12px; }
table.moved td { padding: 0 8px; white-space: pre; }
table.moved tr.rm td { background: #fdecea; } table.moved tr.add td { background: #e8f8ec; }
table.moved tr.blk td { background: #eef3fb; font-weight: bold; }
.same { color: #1e8449; font-weight: bold; } .changed { color: #b03a2e; font-weight: bold; }
"#;

/// The page as one string.
pub fn render_diff_page(page: &DiffPage) -> String {
    let mut out = Vec::with_capacity(64 * 1024);
    write_diff_page(page, &mut out).expect("writing into memory does not fail");
    String::from_utf8(out).expect("the page is built from strings")
}

/// Writes the page into `out`, a kernel at a time.
pub fn write_diff_page(page: &DiffPage, out: &mut dyn Write) -> std::io::Result<()> {
    let mut s = String::with_capacity(64 * 1024);
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; img-src data:\">\
         <title>{}</title><style>{}{DIFF_STYLE}</style></head><body>\n<h1>{}</h1>\n<table class=\"kv\">",
        escape(&page.title),
        crate::html::STYLE,
        escape(&page.title)
    );
    for (k, v) in &page.facts {
        let _ = write!(s, "<tr><td>{}</td><td>{}</td></tr>", escape(k), escape(v));
    }
    s.push_str("</table>\n");
    if page.kernels.len() > 1 {
        s.push_str("<nav>");
        for (k, kernel) in page.kernels.iter().enumerate() {
            let _ = write!(s, "<a href=\"#k{k}\">{}</a>", escape(&kernel.name));
        }
        s.push_str("</nav>\n");
    }
    if !page.unmatched.is_empty() {
        let _ = write!(
            s,
            "<h2>Unmatched: {}</h2><table class=\"grid\"><tr><th>only in</th><th>kernel</th><th>file</th></tr>",
            page.unmatched.len()
        );
        for (side, name, file) in &page.unmatched {
            let _ = write!(
                s,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(side),
                escape(name),
                escape(file)
            );
        }
        s.push_str("</table>\n");
    }
    for (k, kernel) in page.kernels.iter().enumerate() {
        section(&mut s, k, kernel);
        out.write_all(s.as_bytes())?;
        s.clear();
    }
    s.push_str("</body></html>\n");
    out.write_all(s.as_bytes())
}

fn section(s: &mut String, k: usize, kernel: &DiffKernel) {
    let _ = write!(
        s,
        "<section id=\"k{k}\"><h2>{}</h2><p class=\"note\">A: {}<br>B: {}</p><p class=\"{}\">{}</p>",
        escape(&kernel.name),
        escape(&kernel.file_a),
        escape(&kernel.file_b),
        if kernel.changed { "changed" } else { "same" },
        if kernel.changed {
            "changed"
        } else {
            "no change (equal up to renumbering)"
        }
    );
    s.push_str("<table class=\"grid\"><tr><th>figure</th><th>A</th><th>B</th><th>change</th></tr>");
    for (name, a, b) in &kernel.figures {
        let show = |v: &Option<i64>| v.map_or("-".to_string(), |v| v.to_string());
        let (class, delta) = match (a, b) {
            (Some(a), Some(b)) if b > a => ("up", format!("+{}", b - a)),
            (Some(a), Some(b)) if b < a => ("down", (b - a).to_string()),
            (Some(_), Some(_)) => ("", "0".into()),
            _ => ("", String::new()),
        };
        let _ = write!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"{class}\">{delta}</td></tr>",
            escape(name),
            show(a),
            show(b)
        );
    }
    s.push_str("</table>\n<div class=\"pics\">");
    for (heading, title, a, b) in [
        (
            "Instruction mix",
            "instructions by mnemonic",
            &kernel.mix_a,
            &kernel.mix_b,
        ),
        (
            "Sends",
            "Gen sends by kind (SFID)",
            &kernel.sends_a,
            &kernel.sends_b,
        ),
    ] {
        if !a.is_empty() || !b.is_empty() {
            let _ = write!(s, "<div><h3>{heading}</h3>{}</div>", mix_pair(title, a, b));
        }
    }
    if kernel.pressure_a.is_some() || kernel.pressure_b.is_some() {
        let _ = write!(
            s,
            "<div><h3>Register pressure</h3>{}</div>",
            pressure_pair(kernel.pressure_a.as_ref(), kernel.pressure_b.as_ref())
        );
    }
    s.push_str("</div>\n<div class=\"pics\">");
    for (side, g) in [("A", &kernel.cfg_a), ("B", &kernel.cfg_b)] {
        if let Some(g) = g {
            let _ = write!(
                s,
                "<div><h3>Control flow of {side}: {} blocks</h3><div class=\"scroll\">{}</div></div>",
                g.nodes.len(),
                svg::cfg(g, &|_| String::new())
            );
        }
    }
    s.push_str("</div>\n");
    moved(s, &kernel.structural);
    s.push_str("</section>\n");
}

fn moved(s: &mut String, st: &Structural) {
    let _ = write!(s, "<h3>What moved: {}</h3>", escape(&st.summary()));
    if st.changed_blocks.is_empty() {
        return;
    }
    s.push_str("<div class=\"scroll\"><table class=\"moved\">");
    for b in &st.changed_blocks {
        let _ = write!(
            s,
            "<tr class=\"blk\"><td>{}</td></tr>",
            escape(&b.heading())
        );
        for e in &b.edits {
            let _ = write!(
                s,
                "<tr class=\"{}\"><td>{} {}</td></tr>",
                if e.sign == '-' { "rm" } else { "add" },
                e.sign,
                escape(e.text.trim_end())
            );
        }
    }
    if st.edits_not_shown > 0 {
        let _ = write!(
            s,
            "<tr><td>... {} more changed lines</td></tr>",
            st.edits_not_shown
        );
    }
    s.push_str("</table></div>\n");
}

const COLOR_A: &str = "#4a6fa5";
const COLOR_B: &str = "#d9770b";

/// Paired horizontal bars per name (A above B), the largest changes first.
pub fn mix_pair(title: &str, a: &[(String, usize)], b: &[(String, usize)]) -> String {
    let mut names: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
    for (n, c) in a {
        names.entry(n).or_default().0 += c;
    }
    for (n, c) in b {
        names.entry(n).or_default().1 += c;
    }
    let mut items: Vec<(&str, usize, usize)> =
        names.into_iter().map(|(n, (x, y))| (n, x, y)).collect();
    items.sort_by(|p, q| {
        let d = |t: &(&str, usize, usize)| t.1.abs_diff(t.2);
        d(q).cmp(&d(p))
            .then((q.1 + q.2).cmp(&(p.1 + p.2)))
            .then(p.0.cmp(q.0))
    });
    items.truncate(24);
    let max = items.iter().map(|i| i.1.max(i.2)).max().unwrap_or(1).max(1) as f64;
    let (left, bar_h, gap) = (150.0, 8.0, 6.0);
    let w = 640.0;
    let h = 44.0 + items.len() as f64 * (2.0 * bar_h + gap);
    let mut s = format!(
        r##"<svg class="mix" xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11"><title>{3}, A and B</title><text x="4" y="16" font-size="14" font-weight="bold">{3}</text><rect x="{left}" y="24" width="10" height="8" fill="{COLOR_A}"/><text x="{0}" y="32">A</text><rect x="{1}" y="24" width="10" height="8" fill="{COLOR_B}"/><text x="{2}" y="32">B</text>"##,
        left + 14.0,
        left + 40.0,
        left + 54.0,
        escape(title)
    );
    for (i, (name, x, y)) in items.iter().enumerate() {
        let top = 40.0 + i as f64 * (2.0 * bar_h + gap);
        let bw = |v: usize| (w - left - 150.0) * v as f64 / max;
        let delta = *y as i64 - *x as i64;
        let _ = write!(
            s,
            r##"<text x="{0:.1}" y="{1:.1}" text-anchor="end">{2}</text><rect x="{left}" y="{top:.1}" width="{3:.1}" height="{bar_h}" fill="{COLOR_A}"/><rect x="{left}" y="{4:.1}" width="{5:.1}" height="{bar_h}" fill="{COLOR_B}"/><text x="{6:.1}" y="{1:.1}">{x} → {y} ({7})</text>"##,
            left - 6.0,
            top + 2.0 * bar_h - 3.0,
            escape(&svg::clip(name, 22)),
            bw(*x),
            top + bar_h,
            bw(*y),
            left + bw(*x).max(bw(*y)) + 4.0,
            if delta > 0 {
                format!("+{delta}")
            } else {
                delta.to_string()
            }
        );
    }
    s.push_str("</svg>");
    s
}

/// The two pressure curves (live GRFs per instruction position) on one axis, with
/// the register file's size and each side's peak.
pub fn pressure_pair(a: Option<&Pressure>, b: Option<&Pressure>) -> String {
    let (w, h) = (960.0, 340.0);
    let (left, right, top, bottom) = (64.0, 24.0, 36.0, 46.0);
    let (pw, ph) = (w - left - right, h - top - bottom);
    let sides: Vec<(&str, &Pressure, &str)> = [("A", a, COLOR_A), ("B", b, COLOR_B)]
        .into_iter()
        .filter_map(|(n, p, c)| p.map(|p| (n, p, c)))
        .collect();
    let n = sides
        .iter()
        .map(|s| s.1.bytes.len())
        .max()
        .unwrap_or(1)
        .max(1);
    let grf = sides.first().map_or(32, |s| s.1.grf_bytes.max(1)) as f64;
    let peak = sides
        .iter()
        .flat_map(|s| s.1.bytes.iter().copied())
        .max()
        .unwrap_or(0) as f64
        / grf;
    let budget = sides
        .iter()
        .find_map(|s| s.1.budget_bytes)
        .map(|b| b as f64 / grf);
    let top_value = peak.max(budget.unwrap_or(0.0)).max(1.0);
    let step = nice_step(top_value / 6.0);
    let ymax = (top_value / step).ceil() * step;
    let x = |i: f64| left + pw * i / n as f64;
    let y = |v: f64| top + ph - ph * v / ymax;
    let mut s = format!(
        r##"<svg class="pressure" xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11"><title>live registers along the instruction stream, A and B</title><text x="{left}" y="20" font-size="14" font-weight="bold">live GRFs ({} bytes each) per instruction: A and B</text>"##,
        grf
    );
    svg::position_axes(&mut s, (left, top, pw, ph), h, n, ymax, step, &x, &y);
    if let Some(b) = budget {
        let yy = y(b);
        let _ = write!(
            s,
            r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#c0392b" stroke-width="1.5" stroke-dasharray="6,3"/><text x="{:.1}" y="{:.1}" text-anchor="end" fill="#c0392b">register file: {} GRFs</text>"##,
            left + pw,
            left + pw - 4.0,
            yy - 4.0,
            trim_number(b)
        );
    }
    for (k, (name, p, color)) in sides.iter().enumerate() {
        let d = svg::step_path(&p.bytes, grf, &x, &y);
        let pk = p.bytes.iter().copied().max().unwrap_or(0) as f64 / grf;
        let _ = write!(
            s,
            r##"<path d="{d}" fill="none" stroke="{color}" stroke-width="1.5"/><rect x="{0:.1}" y="{1:.1}" width="10" height="3" fill="{color}"/><text x="{2:.1}" y="{3:.1}">{name}: {4} instructions, peak {5} GRFs</text>"##,
            left + pw - 260.0,
            top + 6.0 + 14.0 * k as f64,
            left + pw - 246.0,
            top + 10.0 + 14.0 * k as f64,
            p.bytes.len(),
            trim_number(pk)
        );
    }
    s.push_str("</svg>");
    s
}
