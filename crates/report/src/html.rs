//! The page: summary, tables, pictures, findings and the listing of each kernel, in
//! one self-contained HTML document.

use crate::model::{Kernel, Page};
use crate::svg::{self, escape};
use std::fmt::Write as _;

const STYLE: &str = r#"
body { font-family: system-ui, sans-serif; margin: 0 24px 48px; color: #1c2430; }
h1 { font-size: 20px; margin: 18px 0 6px; }
h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 2px solid #4a6fa5; padding-bottom: 3px; }
h3 { font-size: 14px; margin: 18px 0 6px; color: #34495e; }
table.kv td { padding: 1px 12px 1px 0; vertical-align: top; }
table.kv td:first-child { color: #5a6a7a; }
table.grid { border-collapse: collapse; font-size: 12px; }
table.grid th, table.grid td { border: 1px solid #d6dde6; padding: 2px 8px; text-align: left; }
table.grid th { background: #eef3fb; }
nav a { margin-right: 12px; }
.scroll { overflow: auto; max-height: 720px; border: 1px solid #e3e8ef; }
.scroll.short { max-height: 240px; display: inline-block; }
.pics { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
table.listing { border-collapse: collapse; font-family: ui-monospace, monospace; font-size: 12px; }
table.listing td { padding: 0 8px; white-space: pre; }
table.listing td.ln { color: #8a97a6; text-align: right; user-select: none; }
table.listing tr.label td { color: #7a4b00; font-weight: bold; }
table.listing tr.finding td { background: #fdecea; }
table.listing tr.hd td { background: #ffe8a8; }
table.listing tr.hu td { background: #d8ecff; }
table.listing tr:target td { outline: 2px solid #c0392b; }
.legend span { display: inline-block; padding: 0 6px; margin-right: 8px; }
.note { color: #5a6a7a; font-size: 12px; }
.findings li { margin: 2px 0; }
"#;

/// Highlights, on hovering a listing line, the lines that write (yellow) or read
/// (blue) any of the names it writes or reads.
const SCRIPT: &str = r#"
document.querySelectorAll('table.listing').forEach(function (t) {
  var rows = Array.prototype.slice.call(t.rows);
  var split = function (s) { return (s || '').split(' ').filter(Boolean); };
  t.addEventListener('mouseover', function (e) {
    var tr = e.target.closest('tr');
    if (!tr) return;
    rows.forEach(function (r) { r.classList.remove('hd', 'hu'); });
    var names = split(tr.dataset.d).concat(split(tr.dataset.u));
    if (!names.length) return;
    rows.forEach(function (r) {
      var d = split(r.dataset.d), u = split(r.dataset.u);
      if (names.some(function (n) { return d.indexOf(n) >= 0; })) r.classList.add('hd');
      else if (names.some(function (n) { return u.indexOf(n) >= 0; })) r.classList.add('hu');
    });
  });
});
"#;

/// The whole page.
pub fn render_page(page: &Page) -> String {
    let mut s = String::with_capacity(64 * 1024);
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\
         <title>{}</title><style>{STYLE}</style></head><body>\n<h1>{}</h1>\n",
        escape(&page.title),
        escape(&page.title)
    );
    kv(&mut s, &page.facts);
    if page.kernels.len() > 1 {
        s.push_str("<nav>");
        for (k, kernel) in page.kernels.iter().enumerate() {
            let _ = write!(s, "<a href=\"#k{k}\">{}</a>", escape(&kernel.name));
        }
        s.push_str("</nav>\n");
    }
    for (k, kernel) in page.kernels.iter().enumerate() {
        section(&mut s, k, kernel);
    }
    let _ = write!(s, "<script>{SCRIPT}</script>\n</body></html>\n");
    s
}

fn kv(s: &mut String, rows: &[(String, String)]) {
    if rows.is_empty() {
        return;
    }
    s.push_str("<table class=\"kv\">");
    for (k, v) in rows {
        let _ = write!(s, "<tr><td>{}</td><td>{}</td></tr>", escape(k), escape(v));
    }
    s.push_str("</table>\n");
}

fn section(s: &mut String, k: usize, kernel: &Kernel) {
    let anchor = |line: usize| format!("k{k}-l{line}");
    let _ = writeln!(s, "<section id=\"k{k}\"><h2>{}</h2>", escape(&kernel.name));
    kv(s, &kernel.summary);
    for t in &kernel.tables {
        let _ = write!(s, "<h3>{}</h3><table class=\"grid\"><tr>", escape(&t.title));
        for h in &t.header {
            let _ = write!(s, "<th>{}</th>", escape(h));
        }
        s.push_str("</tr>");
        for row in &t.rows {
            s.push_str("<tr>");
            for c in row {
                let _ = write!(s, "<td>{}</td>", escape(c));
            }
            s.push_str("</tr>");
        }
        s.push_str("</table>\n");
    }
    if let Some(p) = &kernel.pressure {
        s.push_str("<h3>Register pressure</h3>\n");
        s.push_str(&svg::pressure(
            p,
            &format!(
                "{}: live registers along the instruction stream",
                kernel.name
            ),
            &anchor,
        ));
        let _ = write!(s, "<p class=\"note\">{}</p>", escape(&p.source));
        if !p.peak_live.is_empty() {
            let _ = write!(
                s,
                "<h3>Live at the peak: {} variables</h3><div class=\"scroll short\"><table class=\"grid\"><tr><th>name</th><th>bytes</th></tr>",
                p.peak_live.len()
            );
            for (name, bytes) in &p.peak_live {
                let _ = write!(s, "<tr><td>{}</td><td>{bytes}</td></tr>", escape(name));
            }
            s.push_str("</table></div>\n");
        }
    }
    s.push_str("<div class=\"pics\">");
    if let Some(g) = &kernel.cfg {
        let _ = write!(
            s,
            "<div><h3>Control flow: {} blocks</h3><p class=\"legend note\"><span style=\"color:#667\">&#8594; forward edge</span><span style=\"color:#d9770b\">&#8594; back edge (loop)</span>click a block for its code</p><div class=\"scroll\">{}</div></div>",
            g.nodes.len(),
            svg::cfg(g, &anchor)
        );
    }
    for bars in kernel.bars.iter().filter(|b| !b.items.is_empty()) {
        let _ = write!(
            s,
            "<div><h3>{}</h3>{}</div>",
            escape(&bars.heading),
            svg::mix(&bars.items, &bars.title)
        );
    }
    s.push_str("</div>\n");
    if !kernel.findings.is_empty() {
        let _ = write!(
            s,
            "<h3>Verify findings: {}</h3><ul class=\"findings\">",
            kernel.findings.len()
        );
        for f in &kernel.findings {
            match f.line {
                Some(line) => {
                    let _ = write!(
                        s,
                        "<li><a href=\"#{}\">line {}</a> <b>{}</b> {}</li>",
                        anchor(line),
                        line + 1,
                        escape(&f.rule),
                        escape(&f.message)
                    );
                }
                None => {
                    let _ = write!(
                        s,
                        "<li><b>{}</b> {}</li>",
                        escape(&f.rule),
                        escape(&f.message)
                    );
                }
            }
        }
        s.push_str("</ul>\n");
    }
    if !kernel.listing.is_empty() {
        let flagged: std::collections::HashSet<usize> =
            kernel.findings.iter().filter_map(|f| f.line).collect();
        s.push_str("<h3>Listing</h3><p class=\"legend note\"><span class=\"hd\" style=\"background:#ffe8a8\">writes</span><span style=\"background:#d8ecff\">reads</span>what the line under the pointer writes or reads</p><div class=\"scroll\"><table class=\"listing\">");
        for (i, line) in kernel.listing.iter().enumerate() {
            let mut class = Vec::new();
            if line.is_label {
                class.push("label");
            }
            if flagged.contains(&i) {
                class.push("finding");
            }
            let _ = write!(s, "<tr id=\"{}\"", anchor(i));
            if !class.is_empty() {
                let _ = write!(s, " class=\"{}\"", class.join(" "));
            }
            if !line.defs.is_empty() {
                let _ = write!(s, " data-d=\"{}\"", escape(&line.defs.join(" ")));
            }
            if !line.uses.is_empty() {
                let _ = write!(s, " data-u=\"{}\"", escape(&line.uses.join(" ")));
            }
            let _ = writeln!(
                s,
                "><td class=\"ln\">{}</td><td>{}</td></tr>",
                i + 1,
                escape(&line.text)
            );
        }
        s.push_str("</table></div>\n");
    }
    s.push_str("</section>\n");
}
