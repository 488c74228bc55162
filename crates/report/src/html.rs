//! The page: summary, tables, pictures, findings and the listing of each kernel, in
//! one self-contained HTML document.

use crate::model::{Kernel, Page};
use crate::svg::{self, escape};
use std::fmt::Write as _;
use std::io::Write;

pub(crate) const STYLE: &str = r#"
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
.levels { display: flex; gap: 8px; align-items: stretch; }
.pane { flex: 1 1 0; min-width: 0; border: 1px solid #d6dde6; }
.pane .ph { background: #eef3fb; padding: 2px 6px; font-size: 12px; font-weight: bold; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.pane .body { max-height: 70vh; overflow: auto; font-family: ui-monospace, monospace; font-size: 12px; }
.levels .pane .body { height: 62vh; }
.pane .r { height: 16px; line-height: 16px; white-space: pre; width: max-content; min-width: 100%; cursor: default; }
.pane .r .ln { display: inline-block; min-width: 5.5em; padding-right: 8px; text-align: right; color: #8a97a6; user-select: none; }
.pane .r.label { color: #7a4b00; font-weight: bold; }
.pane .r.finding { background: #fdecea; }
.pane .r.spill { background: #f9d6d2; }
.pane .r.fill { background: #fde3c8; }
.pane .r.hd { background: #ffe8a8; }
.pane .r.hu { background: #d8ecff; }
.pane .r.lk { background: #c9f0c9; }
.pane .r.cur { outline: 2px solid #2e8b57; outline-offset: -2px; }
.zoom canvas { display: block; width: 960px; max-width: 100%; }
.zoom canvas.main { height: 300px; cursor: crosshair; }
.zoom canvas.over { height: 70px; cursor: crosshair; border-top: 1px solid #e3e8ef; }
.cfgbox summary { font-weight: bold; color: #34495e; cursor: pointer; margin: 12px 0 6px; }
.cfgbox g.block.hit rect { fill: #ffe08a; stroke: #c0392b; stroke-width: 2; }
"#;

/// The page's behaviour: lazy listings, links between the levels, the zoomable
/// pressure chart, the CFG search (see the file's comments).
const SCRIPT: &str = include_str!("page.js");

/// The whole page as one string (tests, small pages); [`write_page`] streams it.
pub fn render_page(page: &Page) -> String {
    let mut out = Vec::with_capacity(64 * 1024);
    write_page(page, &mut out).expect("writing into memory does not fail");
    String::from_utf8(out).expect("the page is built from strings")
}

/// Bytes the page collects before passing them on: the page is written as it is
/// produced, so a report holds this much of it, not the whole (megabytes for a large
/// listing).
const CHUNK: usize = 64 * 1024;

/// Writes the page into `out` as it is produced. Every write ends at the end of a
/// line or of a picture's markup (so a writer that escapes control characters per
/// write sees `\r\n` and multi-byte characters whole).
pub fn write_page(page: &Page, out: &mut dyn Write) -> std::io::Result<()> {
    let mut s = String::with_capacity(CHUNK + 4096);
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
        section(&mut s, out, k, kernel)?;
    }
    let _ = write!(s, "<script>{SCRIPT}</script>\n</body></html>\n");
    out.write_all(s.as_bytes())
}

/// Instruction positions up to which the pressure chart is also a static picture.
const PICTURE_POSITIONS: usize = 10_000;

/// Blocks up to which the CFG is shown unfolded.
const CFG_OPEN_BLOCKS: usize = 400;

/// The pressure chart (drawn by the page's script at any zoom, from its data), the
/// static picture folded under it, and what is live at the peak.
fn pressure(
    s: &mut String,
    out: &mut dyn Write,
    k: usize,
    kernel: &Kernel,
    p: &crate::model::Pressure,
) -> std::io::Result<()> {
    let anchor = |line: usize| format!("k{k}-l{line}");
    let detail = kernel.pressure_detail.as_ref();
    s.push_str("<h3>Register pressure</h3>\n<p class=\"legend note\"><span style=\"background:#9cc3e6\">live GRFs (estimate)</span>");
    if detail.is_some_and(|d| !d.live_bytes.is_empty()) {
        s.push_str("<span style=\"color:#1e7b3c\">&#9472; live bytes (in GRFs)</span>");
    }
    if detail.is_some_and(|d| !d.physical_grfs.is_empty()) {
        s.push_str(
            "<span style=\"color:#8e44ad\">&#9472; physical GRFs (IGC&#39;s registers)</span>",
        );
    }
    if detail.is_some_and(|d| !d.spills.is_empty()) {
        s.push_str("<span style=\"color:#c0392b\">&#9650; spill</span><span style=\"color:#e67e22\">&#9650; fill</span>");
    }
    s.push_str("<span style=\"color:#c0392b\">- - register file</span></p>");
    let _ = write!(
        s,
        "<div class=\"zoom\" data-k=\"{k}\"><canvas class=\"main\"></canvas><canvas class=\"over\"></canvas><p class=\"note\"><span class=\"zinfo\"></span>: drag on either chart to zoom, scroll the wheel over the upper one, double-click for the whole kernel, click an instruction to find it in the listing</p><script type=\"application/json\">"
    );
    out.write_all(s.as_bytes())?;
    s.clear();
    out.write_all(crate::panes::pressure_json(p, detail).as_bytes())?;
    s.push_str("</script></div>\n");
    // The chart as a picture too (for a page read without its script), while it is
    // small: at 100,000 positions it would be megabytes the chart draws anyway.
    if p.bytes.len() <= PICTURE_POSITIONS {
        s.push_str("<details><summary class=\"note\">the same as a picture</summary>");
        let picture = svg::pressure(
            p,
            &format!(
                "{}: live registers along the instruction stream",
                kernel.name
            ),
            &anchor,
        );
        pass(s, out, &picture)?;
        s.push_str("</details>");
    }
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
    drain(s, out)
}

/// The listing as a lazy pane; with the kernel's other levels, the source, vISA and
/// Gen panes side by side and the links between them.
fn listings(s: &mut String, out: &mut dyn Write, k: usize, kernel: &Kernel) -> std::io::Result<()> {
    let levels = kernel.levels.as_ref();
    if kernel.listing.is_empty() && levels.is_none() {
        return Ok(());
    }
    match levels {
        Some(l) => {
            let _ = write!(s, "<h3 id=\"k{k}-levels\">OpenCL source, vISA and Gen</h3>");
            s.push_str("<p class=\"legend note\"><span style=\"background:#c9f0c9\">linked</span>hover a line: the lines of the other levels it corresponds to (vISA <code>LOC</code> lines, Gen <code>$N</code>); click: scroll to them<span class=\"hd\" style=\"background:#ffe8a8\">writes</span><span style=\"background:#d8ecff\">reads</span>in vISA, what the line writes or reads</p>");
            for note in &l.notes {
                let _ = write!(s, "<p class=\"note\">{}</p>", escape(note));
            }
            s.push_str("<div class=\"levels\">");
        }
        None => s.push_str("<h3>Listing</h3><p class=\"legend note\"><span class=\"hd\" style=\"background:#ffe8a8\">writes</span><span style=\"background:#d8ecff\">reads</span>what the line under the pointer writes or reads</p>"),
    }
    if let Some(src) = levels.and_then(|l| l.source.as_ref()) {
        text_pane(s, out, &format!("k{k}-source"), k, "source", src)?;
    }
    let flagged: std::collections::HashSet<usize> =
        kernel.findings.iter().filter_map(|f| f.line).collect();
    let title = if levels.is_some() { "vISA" } else { "Listing" };
    let mut pane = crate::panes::PaneWriter::begin(
        s,
        &format!("k{k}-visa"),
        k,
        "visa",
        title,
        kernel.listing.len(),
    );
    let mut failed = Ok(());
    kernel.listing.for_each_line(&mut |i, line| {
        pane.row(s, &line.text, Some(line), flagged.contains(&i), None);
        failed = drain(s, out);
        failed.is_ok()
    });
    failed?;
    pane.end(s);
    if let Some(l) = levels {
        if let Some(gen) = &l.gen {
            text_pane(s, out, &format!("k{k}-gen"), k, "gen", gen)?;
        }
        s.push_str("</div>");
        let _ = write!(s, "<script type=\"application/json\" id=\"k{k}-links\">");
        out.write_all(s.as_bytes())?;
        s.clear();
        out.write_all(crate::panes::links_json(&l.visa_source, &l.gen_visa).as_bytes())?;
        s.push_str("</script>\n");
    }
    drain(s, out)
}

/// A held listing as a pane.
fn text_pane(
    s: &mut String,
    out: &mut dyn Write,
    id: &str,
    k: usize,
    level: &str,
    text: &crate::model::Text,
) -> std::io::Result<()> {
    let marks: std::collections::HashMap<u32, crate::model::Mark> =
        text.marks.iter().copied().collect();
    let title = format!("{}: {}", crate::panes::level_title(level), text.name);
    let mut pane = crate::panes::PaneWriter::begin(s, id, k, level, &title, text.lines.len());
    for (i, line) in text.lines.iter().enumerate() {
        let mark = u32::try_from(i).ok().and_then(|i| marks.get(&i).copied());
        pane.row(s, line, None, false, mark);
        drain(s, out)?;
    }
    pane.end(s);
    drain(s, out)
}

/// Passes what `s` holds on to `out` once it is a chunk, when it ends a line.
fn drain(s: &mut String, out: &mut dyn Write) -> std::io::Result<()> {
    if s.len() >= CHUNK && s.ends_with('\n') {
        out.write_all(s.as_bytes())?;
        s.clear();
    }
    Ok(())
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

/// Writes what `s` holds and then `picture` (an `<svg>` element, megabytes for a large
/// CFG) into `out`, without copying the picture into `s`. Both writes end at markup
/// (`>`), never inside a character or a `\r\n`.
fn pass(s: &mut String, out: &mut dyn Write, picture: &str) -> std::io::Result<()> {
    out.write_all(s.as_bytes())?;
    s.clear();
    out.write_all(picture.as_bytes())
}

fn section(s: &mut String, out: &mut dyn Write, k: usize, kernel: &Kernel) -> std::io::Result<()> {
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
        drain(s, out)?;
    }
    if let Some(p) = &kernel.pressure {
        pressure(s, out, k, kernel, p)?;
    }
    s.push_str("<div class=\"pics\">");
    if let Some(g) = &kernel.cfg {
        // Folded from the start when large: its drawing is for finding a block, and
        // the search does that.
        let open = if g.nodes.len() <= CFG_OPEN_BLOCKS {
            " open"
        } else {
            ""
        };
        let _ = write!(
            s,
            "<div><details class=\"cfgbox\"{open}><summary>Control flow: {} blocks</summary><p class=\"legend note\"><input type=\"search\" placeholder=\"find a block\"> <span class=\"hits\"></span> <span style=\"color:#667\">&#8594; forward edge</span><span style=\"color:#d9770b\">&#8594; back edge (loop)</span>click a block for its code</p><div class=\"scroll\">",
            g.nodes.len(),
        );
        pass(s, out, &svg::cfg(g, &anchor))?;
        s.push_str("</div></details></div>");
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
    drain(s, out)?;
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
        drain(s, out)?;
    }
    listings(s, out, k, kernel)?;
    s.push_str("</section>\n");
    drain(s, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Line, Listing, ListingSource};
    use std::sync::Arc;

    fn line(i: usize) -> Line {
        Line {
            text: format!("mov (M1, 16) V{i}(0,0)<1> V{}(0,0)<1;1,0> // <&>", i + 1),
            defs: vec![format!("V{i}")],
            uses: if i % 3 == 0 {
                Vec::new()
            } else {
                vec![format!("V{}", i + 1), "\"q\"".into()]
            },
            is_label: i % 7 == 0,
        }
    }

    /// Lines made one at a time into one reused `Line`, as the CLI's sources do.
    struct Counted(usize);

    impl ListingSource for Counted {
        fn for_each_line(&self, each: &mut dyn FnMut(usize, &Line) -> bool) {
            let mut l = Line::default();
            for i in 0..self.0 {
                let fresh = line(i);
                l.text.clear();
                l.text.push_str(&fresh.text);
                l.defs = fresh.defs;
                l.uses = fresh.uses;
                l.is_label = fresh.is_label;
                if !each(i, &l) {
                    return;
                }
            }
        }
    }

    fn page(listing: Listing) -> Page {
        Page {
            title: "t".into(),
            kernels: vec![Kernel {
                name: "k".into(),
                listing,
                ..Kernel::default()
            }],
            ..Page::default()
        }
    }

    /// Records each write, to check where the page is cut.
    struct Writes(Vec<Vec<u8>>);

    impl Write for Writes {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.push(buf.to_vec());
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn produced_listing_is_the_held_listing() {
        let n = 5000;
        let held = page((0..n).map(line).collect::<Vec<_>>().into());
        let produced = page(Listing::produced(n, Arc::new(Counted(n))));
        assert_eq!(render_page(&held), render_page(&produced));
        assert_eq!(
            serde_json::to_string(&held).unwrap(),
            serde_json::to_string(&produced).unwrap()
        );
        // Streamed in bounded pieces, each ending a line.
        let mut writes = Writes(Vec::new());
        write_page(&produced, &mut writes).unwrap();
        assert!(writes.0.len() > 2);
        for w in &writes.0 {
            assert!(w.len() < 2 * CHUNK && w.ends_with(b"\n"));
        }
        assert_eq!(writes.0.concat(), render_page(&held).into_bytes());
    }
}
