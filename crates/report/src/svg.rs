//! The pictures: a CFG drawn from its layered layout, register pressure along the
//! instruction stream, and the instruction mix. Each returns one `<svg>` element,
//! with its text escaped, ready to inline in the page.

use crate::layout::{layout, Size};
use crate::model::{Graph, Pressure};
use std::fmt::Write as _;

pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

const CHAR_W: f64 = 7.2;
const NODE_H: f64 = 34.0;
const MAX_LABEL_CHARS: usize = 28;

pub(crate) fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// The CFG: blocks as boxes (linked to the listing through `anchor(line)`), forward
/// edges in grey, back edges (loops) in orange.
pub fn cfg(g: &Graph, anchor: &dyn Fn(usize) -> String) -> String {
    let labels: Vec<(String, String)> = g
        .nodes
        .iter()
        .map(|n| {
            (
                clip(&n.label, MAX_LABEL_CHARS),
                clip(&n.detail, MAX_LABEL_CHARS),
            )
        })
        .collect();
    let sizes: Vec<Size> = labels
        .iter()
        .map(|(a, b)| Size {
            w: (a.chars().count().max(b.chars().count()) as f64 * CHAR_W + 16.0).max(60.0),
            h: NODE_H,
        })
        .collect();
    let l = layout(&sizes, &g.edges);
    let (w, h) = (l.width.max(120.0), l.height.max(60.0));
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg class="cfg" xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="monospace" font-size="12"><title>Control-flow graph: {} blocks, {} edges</title><defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#667"/></marker><marker id="arrow-back" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#d9770b"/></marker></defs>"##,
        g.nodes.len(),
        g.edges.len()
    );
    for ((pts, back), &(from, to)) in l.edges.iter().zip(&g.edges) {
        if pts.len() < 2 {
            continue;
        }
        let d = edge_path(pts, &sizes, from, to, &l.centers);
        let (stroke, marker, dash) = if *back {
            ("#d9770b", "arrow-back", " stroke-dasharray=\"5,3\"")
        } else {
            ("#667", "arrow", "")
        };
        let _ = write!(
            s,
            r#"<path d="{d}" fill="none" stroke="{stroke}" stroke-width="1.4"{dash} marker-end="url(#{marker})"/>"#
        );
    }
    for (i, (node, (label, detail))) in g.nodes.iter().zip(&labels).enumerate() {
        let (cx, cy) = l.centers[i];
        let bw = sizes[i].w;
        let _ = write!(
            s,
            r##"<a href="#{}"><g class="block"><title>{}</title><rect x="{:.1}" y="{:.1}" width="{bw:.1}" height="{NODE_H}" rx="4" fill="#eef3fb" stroke="#4a6fa5"/><text x="{cx:.1}" y="{:.1}" text-anchor="middle" fill="#123">{}</text><text x="{cx:.1}" y="{:.1}" text-anchor="middle" fill="#567" font-size="10">{}</text></g></a>"##,
            anchor(node.line),
            escape(&node.label),
            cx - bw / 2.0,
            cy - NODE_H / 2.0,
            cy - 3.0,
            escape(label),
            cy + 11.0,
            escape(detail),
        );
    }
    s.push_str("</svg>");
    s
}

/// The path of one edge: from the bottom of its source box (top for a back edge's
/// loop), through its bends, to its target box's edge, smoothed with quadratic curves.
fn edge_path(
    pts: &[(f64, f64)],
    sizes: &[Size],
    from: usize,
    to: usize,
    centers: &[(f64, f64)],
) -> String {
    let mut p: Vec<(f64, f64)> = pts.to_vec();
    let half = |v: usize| sizes.get(v).map_or(0.0, |s| s.h / 2.0);
    let (fx, fy) = centers[from];
    let (tx, ty) = centers[to];
    if from == to {
        // A block that loops on itself: a small arc on its right side.
        let r = sizes[from].w / 2.0;
        return format!(
            "M{:.1},{:.1} C{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
            fx + r,
            fy - 6.0,
            fx + r + 30.0,
            fy - 30.0,
            fx + r + 30.0,
            fy + 30.0,
            fx + r,
            fy + 6.0
        );
    }
    let down = ty >= fy;
    p[0] = (
        fx,
        if down {
            fy + half(from)
        } else {
            fy - half(from)
        },
    );
    let last = p.len() - 1;
    p[last] = (tx, if down { ty - half(to) } else { ty + half(to) });
    let mut d = format!("M{:.1},{:.1}", p[0].0, p[0].1);
    for i in 1..p.len() {
        if i + 1 < p.len() {
            let mid = ((p[i].0 + p[i + 1].0) / 2.0, (p[i].1 + p[i + 1].1) / 2.0);
            let _ = write!(d, " Q{:.1},{:.1} {:.1},{:.1}", p[i].0, p[i].1, mid.0, mid.1);
        } else {
            let _ = write!(d, " L{:.1},{:.1}", p[i].0, p[i].1);
        }
    }
    d
}

/// A step chart of pressure over instruction positions, in GRFs: axes with ticks,
/// the register file's size as a red line, block starts as faint lines, the peak
/// marked and labelled.
pub fn pressure(p: &Pressure, title: &str, anchor: &dyn Fn(usize) -> String) -> String {
    let (w, h) = (960.0, 340.0);
    let (left, right, top, bottom) = (64.0, 24.0, 36.0, 46.0);
    let (pw, ph) = (w - left - right, h - top - bottom);
    let n = p.bytes.len().max(1);
    let grf = p.grf_bytes.max(1) as f64;
    let peak = p.bytes.iter().copied().max().unwrap_or(0) as f64 / grf;
    let budget = p.budget_bytes.map(|b| b as f64 / grf);
    let top_value = peak.max(budget.unwrap_or(0.0)).max(1.0);
    let step = nice_step(top_value / 6.0);
    let ymax = (top_value / step).ceil() * step;
    let x = |i: f64| left + pw * i / n as f64;
    let y = |v: f64| top + ph - ph * v / ymax;
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg class="pressure" xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11"><title>{}</title><text x="{}" y="20" font-size="14" font-weight="bold">{}</text>"##,
        escape(title),
        left,
        escape(title)
    );
    // Block starts.
    for &b in &p.block_starts {
        let _ = write!(
            s,
            r##"<line x1="{0:.1}" y1="{top}" x2="{0:.1}" y2="{1:.1}" stroke="#dde3ec"/>"##,
            x(b as f64),
            top + ph
        );
    }
    position_axes(&mut s, (left, top, pw, ph), h, n, ymax, step, &x, &y);
    let _ = write!(
        s,
        r##"<text transform="translate(16,{0:.1}) rotate(-90)" text-anchor="middle">live GRFs ({1} bytes each)</text>"##,
        top + ph / 2.0,
        p.grf_bytes
    );
    // The series as a step line with its area.
    let mut d = step_path(&p.bytes, grf, &x, &y);
    let _ = write!(d, " L{:.1},{:.1} Z", x(n as f64), y(0.0));
    let _ = write!(
        s,
        r##"<path d="{d}" fill="#9cc3e6" fill-opacity="0.55" stroke="#2d6da3" stroke-width="1"/>"##
    );
    if let Some(b) = budget {
        let yy = y(b);
        let _ = write!(
            s,
            r##"<line x1="{left}" y1="{yy:.1}" x2="{0:.1}" y2="{yy:.1}" stroke="#c0392b" stroke-width="1.5" stroke-dasharray="6,3"/><text x="{1:.1}" y="{2:.1}" text-anchor="end" fill="#c0392b">register file: {3} GRFs</text>"##,
            left + pw,
            left + pw - 4.0,
            yy - 4.0,
            trim_number(b)
        );
    }
    if let Some(at) = p.peak {
        let v = p.bytes.get(at).copied().unwrap_or(0) as f64 / grf;
        let (px, py) = (x(at as f64 + 0.5), y(v));
        let line = p.lines.get(at).copied().unwrap_or(at);
        let _ = write!(
            s,
            r##"<a href="#{}"><circle cx="{px:.1}" cy="{py:.1}" r="4" fill="#c0392b"/><text x="{:.1}" y="{:.1}" fill="#c0392b" text-anchor="{}">peak {} GRFs at instruction {at}</text></a>"##,
            anchor(line),
            px + if px > left + pw * 0.7 { -6.0 } else { 6.0 },
            (py - 6.0).max(top + 10.0),
            if px > left + pw * 0.7 { "end" } else { "start" },
            trim_number(v)
        );
    }
    s.push_str("</svg>");
    s
}

/// The frame of a chart over instruction positions `0..n` and values `0..ymax`:
/// grid lines and ticks every `step` up, nice steps along, both axes, and the
/// `instruction` label (the caller adds its value axis's label).
#[allow(clippy::too_many_arguments)]
pub(crate) fn position_axes(
    s: &mut String,
    (left, top, pw, ph): (f64, f64, f64, f64),
    h: f64,
    n: usize,
    ymax: f64,
    step: f64,
    x: &dyn Fn(f64) -> f64,
    y: &dyn Fn(f64) -> f64,
) {
    // Y grid and ticks.
    let mut v = 0.0;
    while v <= ymax + 1e-9 {
        let yy = y(v);
        let _ = write!(
            s,
            r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#f0f0f0"/><line x1="{:.1}" y1="{yy:.1}" x2="{left}" y2="{yy:.1}" stroke="#333"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            left + pw,
            left - 4.0,
            left - 7.0,
            yy + 4.0,
            trim_number(v)
        );
        v += step;
    }
    // X ticks.
    let xstep = nice_step(n as f64 / 8.0).max(1.0);
    let mut i = 0.0;
    while i <= n as f64 + 1e-9 {
        let xx = x(i);
        let _ = write!(
            s,
            r##"<line x1="{xx:.1}" y1="{0:.1}" x2="{xx:.1}" y2="{1:.1}" stroke="#333"/><text x="{xx:.1}" y="{2:.1}" text-anchor="middle">{3}</text>"##,
            top + ph,
            top + ph + 4.0,
            top + ph + 16.0,
            trim_number(i)
        );
        i += xstep;
    }
    let _ = write!(
        s,
        r##"<line x1="{left}" y1="{top}" x2="{left}" y2="{0:.1}" stroke="#333"/><line x1="{left}" y1="{0:.1}" x2="{1:.1}" y2="{0:.1}" stroke="#333"/><text x="{2:.1}" y="{3:.1}" text-anchor="middle">instruction</text>"##,
        top + ph,
        left + pw,
        left + pw / 2.0,
        h - 8.0,
    );
}

/// A series as a step line from the origin: each value, divided by `unit`, held over
/// its position (`x`, `y` map positions and values to the picture).
pub(crate) fn step_path(
    values: &[u64],
    unit: f64,
    x: &dyn Fn(f64) -> f64,
    y: &dyn Fn(f64) -> f64,
) -> String {
    let mut d = format!("M{:.1},{:.1}", x(0.0), y(0.0));
    for (i, &b) in values.iter().enumerate() {
        let v = b as f64 / unit;
        let _ = write!(
            d,
            " L{:.1},{:.1} L{:.1},{:.1}",
            x(i as f64),
            y(v),
            x(i as f64 + 1.0),
            y(v)
        );
    }
    d
}

/// Horizontal bars, largest first.
pub fn mix(items: &[(String, usize)], title: &str) -> String {
    let mut items: Vec<&(String, usize)> = items.iter().collect();
    items.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    items.truncate(24);
    let max = items.first().map_or(1, |i| i.1).max(1) as f64;
    let (left, bar_h, gap) = (150.0, 14.0, 4.0);
    let w = 560.0;
    let h = 34.0 + items.len() as f64 * (bar_h + gap);
    let mut s = format!(
        r##"<svg class="mix" xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11"><title>{0}</title><text x="4" y="16" font-size="14" font-weight="bold">{0}</text>"##,
        escape(title)
    );
    for (i, (name, count)) in items.iter().enumerate() {
        let y = 26.0 + i as f64 * (bar_h + gap);
        let bw = (w - left - 60.0) * *count as f64 / max;
        let _ = write!(
            s,
            r##"<text x="{0:.1}" y="{1:.1}" text-anchor="end">{2}</text><rect x="{left}" y="{3:.1}" width="{bw:.1}" height="{bar_h}" fill="#4a6fa5"/><text x="{4:.1}" y="{1:.1}">{count}</text>"##,
            left - 6.0,
            y + bar_h - 3.0,
            escape(&clip(name, 22)),
            y,
            left + bw + 4.0
        );
    }
    s.push_str("</svg>");
    s
}

/// 1, 2 or 5 times a power of ten, at least `raw`.
pub(crate) fn nice_step(raw: f64) -> f64 {
    if raw <= 0.0 || !raw.is_finite() {
        return 1.0;
    }
    let p = 10f64.powf(raw.log10().floor());
    for m in [1.0, 2.0, 5.0, 10.0] {
        if m * p >= raw {
            return m * p;
        }
    }
    10.0 * p
}

pub(crate) fn trim_number(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.1}")
    }
}
