//! SVG drawings: register pressure over the instruction index, and the CFG.
//! Plain SVG 1.1 text with no scripts or external references.

use crate::analysis::{grf_bytes, regs_for};
use crate::cfg::Cfg;
use crate::model::Listing;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// GRF bytes live before each instruction (`liveTotals.r`), as a line chart.
/// `None` when the listing has no `liveTotals`.
pub fn pressure(l: &Listing) -> Option<String> {
    let pts: Vec<(i64, i64)> = l
        .insts()
        .filter_map(|i| i.live_totals.as_ref().map(|lt| (i.id, lt.r)))
        .collect();
    if pts.is_empty() {
        return None;
    }
    let (w, h, left, right, top, bottom) = (900.0, 360.0, 70.0, 20.0, 40.0, 50.0);
    let pw = w - left - right;
    let ph = h - top - bottom;
    let reg = grf_bytes(&l.platform);
    let peak = pts.iter().map(|p| p.1).max().unwrap_or(0);
    // Eight grid steps of a whole number of registers each, however large
    // the (input) totals are.
    const STEPS: i64 = 8;
    let step = regs_for(regs_for(peak.max(1), reg), STEPS).saturating_mul(reg);
    let ymax = (step as f64) * STEPS as f64;
    let n = pts.len();
    let x = |k: usize| {
        left + if n > 1 {
            pw * k as f64 / (n - 1) as f64
        } else {
            pw / 2.0
        }
    };
    let y = |v: i64| top + ph - ph * v as f64 / ymax;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">\n"
    );
    s.push_str(&format!(
        "<rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n"
    ));
    let peak_ix = pts.iter().position(|p| p.1 == peak).unwrap_or(0);
    s.push_str(&format!(
        "<text x=\"{left}\" y=\"22\" font-size=\"14\">Register pressure ({}): peak {peak} bytes = {} GRFs before instruction {}</text>\n",
        esc(&l.platform),
        regs_for(peak, reg),
        pts[peak_ix].0
    ));
    // Axes and horizontal grid at each step.
    for k in 0..=STEPS {
        let v = step.saturating_mul(k);
        let yy = y(v);
        s.push_str(&format!(
            "<line x1=\"{left}\" y1=\"{yy:.1}\" x2=\"{:.1}\" y2=\"{yy:.1}\" stroke=\"#ddd\"/>\n<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n",
            left + pw,
            left - 6.0,
            yy + 4.0,
            v / reg
        ));
    }
    s.push_str(&format!(
        "<line x1=\"{left}\" y1=\"{top}\" x2=\"{left}\" y2=\"{:.1}\" stroke=\"black\"/>\n<line x1=\"{left}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"black\"/>\n",
        top + ph,
        top + ph,
        left + pw,
        top + ph
    ));
    s.push_str(&format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">instruction index (0..{})</text>\n",
        left + pw / 2.0,
        h - 12.0,
        n - 1
    ));
    s.push_str(&format!(
        "<text x=\"16\" y=\"{:.1}\" transform=\"rotate(-90 16 {:.1})\" text-anchor=\"middle\">live GRFs ({reg}-byte)</text>\n",
        top + ph / 2.0,
        top + ph / 2.0
    ));
    let mut line = String::new();
    for (k, p) in pts.iter().enumerate() {
        line.push_str(&format!("{:.1},{:.1} ", x(k), y(p.1)));
    }
    s.push_str(&format!(
        "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"{}\"/>\n",
        line.trim_end()
    ));
    s.push_str(&format!(
        "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\" fill=\"#d62728\"/>\n",
        x(peak_ix),
        y(peak)
    ));
    s.push_str("</svg>\n");
    Some(s)
}

/// The CFG with blocks stacked in program order; fallthrough edges go
/// straight down, branches arc on the right (forward) or left (backward).
pub fn cfg(l: &Listing, cfg: &Cfg) -> String {
    let (bw, bh, gap, x0, y0) = (240.0, 40.0, 30.0, 160.0, 20.0);
    let n = cfg.blocks.len();
    let h = y0 * 2.0 + n as f64 * (bh + gap);
    let w = x0 * 2.0 + bw;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"monospace\" font-size=\"12\">\n"
    );
    s.push_str("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\"/></marker></defs>\n");
    s.push_str(&format!(
        "<rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n"
    ));
    let top = |b: usize| y0 + b as f64 * (bh + gap);
    for (b, blk) in cfg.blocks.iter().enumerate() {
        let name = if blk.symbol.is_empty() {
            format!("B{b}")
        } else {
            blk.symbol.clone()
        };
        let last = cfg
            .insts(l, b)
            .last()
            .map(|i| i.op.clone())
            .unwrap_or_default();
        s.push_str(&format!(
            "<rect x=\"{x0}\" y=\"{:.1}\" width=\"{bw}\" height=\"{bh}\" fill=\"#eef\" stroke=\"black\"/>\n<text x=\"{:.1}\" y=\"{:.1}\">B{b} {}: {} inst{}{}</text>\n",
            top(b),
            x0 + 8.0,
            top(b) + 24.0,
            esc(&name),
            blk.insts.len(),
            if blk.insts.len() == 1 { "" } else { "s" },
            if last.is_empty() { String::new() } else { format!(", ends {}", esc(&last)) }
        ));
    }
    for (b, succs) in cfg.succs.iter().enumerate() {
        for &t in succs {
            if t == b + 1 {
                s.push_str(&format!(
                    "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"black\" marker-end=\"url(#arrow)\"/>\n",
                    x0 + bw / 2.0,
                    top(b) + bh,
                    x0 + bw / 2.0,
                    top(t)
                ));
            } else {
                let forward = t > b;
                let (xs, dir) = if forward { (x0 + bw, 1.0) } else { (x0, -1.0) };
                let span = (t as f64 - b as f64).abs();
                let bulge = xs + dir * (30.0 + 12.0 * span.min(8.0));
                let (ys, ye) = (top(b) + bh * 0.7, top(t) + bh * 0.3);
                s.push_str(&format!(
                    "<path d=\"M{xs:.1},{ys:.1} C{bulge:.1},{ys:.1} {bulge:.1},{ye:.1} {xs:.1},{ye:.1}\" fill=\"none\" stroke=\"{}\" marker-end=\"url(#arrow)\"/>\n",
                    if forward { "#1f77b4" } else { "#d62728" }
                ));
            }
        }
    }
    s.push_str("</svg>\n");
    s
}
