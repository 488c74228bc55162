//! `gpukit report`: pages for every kind of input are self-contained (no URL but the
//! SVG namespace, a Content-Security-Policy forbidding fetches, every in-page link
//! resolving), every corpus file gets a page, and under `REQUIRE_PEERS=1` headless
//! Chromium (Debian's `chromium`) loads a sample without console errors and writes a
//! screenshot of each to `target/report-screenshots/`.

#[path = "common/browser.rs"]
mod browser;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn out_dir(name: &str) -> PathBuf {
    let dir = root().join("target").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn required() -> bool {
    std::env::var_os("REQUIRE_PEERS").is_some() || std::env::var_os("CI").is_some()
}

/// Checked-in inputs of every kind, and (when the corpus is there) a large kernel.
fn sample() -> Vec<PathBuf> {
    let r = root();
    let mut files: Vec<PathBuf> = [
        "tests/data/visa/l02_local_sum__local_sum.isa",
        "tests/data/visa/local_histogram__histogram_local__simd32.visaasm",
        "crates/iga/tests/data/pvc_saxpy.iga2.json",
        "crates/amd/tests/data/samplekernels.clo",
    ]
    .iter()
    .map(|p| r.join(p))
    .collect();
    let large = r.join("../shared/corpus/intel-sid/tgllp/noinline_helpers__lighting.visaasm");
    if large.exists() {
        files.push(large);
    } else {
        assert!(!required(), "../shared/corpus is missing");
    }
    files
}

/// Runs `gpukit report ARGS...`, which must succeed; its stdout.
fn gpukit_report<S: AsRef<std::ffi::OsStr>>(args: impl IntoIterator<Item = S>) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_gpukit"))
        .arg("report")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "gpukit report failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn report(files: &[PathBuf], dir: &Path) {
    let dir = [std::ffi::OsStr::new("--dir"), dir.as_os_str()];
    gpukit_report(dir.into_iter().chain(files.iter().map(|f| f.as_os_str())));
}

/// Whether Debian's Chromium is there; under `REQUIRE_PEERS=1` it must be, else the
/// test says it skipped.
fn have_chromium() -> bool {
    let have = Command::new("chromium")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        assert!(
            std::env::var_os("REQUIRE_PEERS").is_none(),
            "REQUIRE_PEERS=1 but Debian's chromium is not installed"
        );
        skipped(format_args!("chromium is not installed"));
    }
    have
}

fn pages(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    v.sort();
    v
}

/// What makes a page self-contained and its links work.
fn check_page(path: &Path) {
    let html = std::fs::read_to_string(path).unwrap();
    let name = path.display();
    assert!(html.contains("Content-Security-Policy"), "{name}: no CSP");
    assert!(html.contains("<svg"), "{name}: no picture");
    let stripped = html.replace("http://www.w3.org/2000/svg", "");
    for scheme in ["http://", "https://", "//cdn", "url(http"] {
        assert!(
            !stripped.contains(scheme),
            "{name}: external reference {scheme}"
        );
    }
    for (at, _) in html.match_indices("href=\"#") {
        let rest = &html[at + 7..];
        let id = &rest[..rest.find('"').unwrap()];
        if let Some((k, line)) = listing_line(id) {
            // A listing line: its rows are made by the page's script, so the target
            // is a line of the kernel's vISA pane.
            let pane = format!("id=\"k{k}-visa\"");
            let at = html
                .find(&pane)
                .unwrap_or_else(|| panic!("{name}: #{id} has no pane"));
            let lines = &html[at..];
            let lines = &lines[lines.find("data-lines=\"").unwrap() + 12..];
            let lines: usize = lines[..lines.find('"').unwrap()].parse().unwrap();
            assert!(line < lines, "{name}: #{id} is past the {lines} lines");
            continue;
        }
        assert!(
            html.contains(&format!("id=\"{id}\"")),
            "{name}: link to #{id} has no target"
        );
    }
}

/// `kK-lN`: line N of kernel K's listing.
fn listing_line(id: &str) -> Option<(usize, usize)> {
    let (k, l) = id.strip_prefix('k')?.split_once("-l")?;
    Some((k.parse().ok()?, l.parse().ok()?))
}

#[test]
fn pages_are_self_contained() {
    let dir = out_dir("report-pages");
    report(&sample(), &dir);
    let pages = pages(&dir);
    assert_eq!(pages.len(), sample().len());
    for p in &pages {
        check_page(p);
    }
}

/// Every corpus file gpukit reports on gets a page (one process, `--dir`).
#[test]
fn every_corpus_file_gets_a_page() {
    let corpus = root().join("../shared/corpus");
    if !corpus.exists() {
        assert!(!required(), "../shared/corpus is missing");
        skipped(format_args!("../shared/corpus is missing"));
        return;
    }
    let mut files = Vec::new();
    let mut stack = vec![corpus];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let reportable = name.ends_with(".isa")
                || name.ends_with(".visaasm")
                || name.ends_with(".iga1.json")
                || name.ends_with(".iga2.json");
            if reportable {
                files.push(p);
            }
        }
    }
    files.sort();
    let dir = out_dir("report-corpus");
    // In batches, so that a failure names a small set; names can repeat across
    // platforms, so each batch gets its own directory.
    let mut made = 0;
    for (i, batch) in files.chunks(400).enumerate() {
        let sub = dir.join(i.to_string());
        std::fs::create_dir_all(&sub).unwrap();
        report(batch, &sub);
        made += pages(&sub).len();
    }
    assert_eq!(made, files.len(), "one page per file");
    assert!(files.len() > 500, "only {} corpus files", files.len());
}

/// Debian's Chromium, headless, with every route off the machine closed: names do
/// not resolve and any connection goes to a closed loopback port.
#[test]
fn pages_load_in_chromium() {
    if !have_chromium() {
        return;
    }
    let dir = out_dir("report-browser");
    let shots = out_dir("report-screenshots");
    report(&sample(), &dir);
    for page in pages(&dir) {
        let stem = page.file_stem().unwrap().to_string_lossy().into_owned();
        let png = shots.join(format!("{stem}.png"));
        browser::screenshot_clean(None, &page, &png, "1400,2400", &stem);
    }
}

/// Says that a test skipped, where `cargo test`'s output shows it: libtest hides what
/// a passing test prints with `eprintln!`, not a direct write to stderr.
fn skipped(why: std::fmt::Arguments) {
    use std::io::Write;
    let test = std::thread::current().name().unwrap_or("test").to_string();
    let _ = writeln!(std::io::stderr(), "skipped: {test} ({why})");
}

// ---- the three levels: OpenCL source, vISA, Gen

/// The checked-in shader dump of a small kernel (IGC 2.40, tgllp, compiled with `-g`):
/// `OCL_asm<hash>.cl`, and the kernel's `.visaasm` and `.asm`.
const DUMP: &str = "tests/cli/report/levels";
const DUMP_STEM: &str = "OCL_asmfc56e5b51e5b3fd0_simd32_entry_0001";

fn report_json(args: &[&std::ffi::OsStr]) -> serde_json::Value {
    let json = [std::ffi::OsStr::new("--json")];
    serde_json::from_slice(&gpukit_report(json.iter().chain(args))).unwrap()
}

/// What the three levels of the fixture must show: each Gen `$N` line linked to the
/// vISA line printed with `$N`, the `LOC` lines linked to their source lines, and
/// IGC's registers beside the estimate.
fn check_fixture_levels(page: &serde_json::Value) {
    let k = &page["kernels"][0];
    let levels = &k["levels"];
    let source = levels["source"]["lines"].as_array().unwrap();
    assert_eq!(
        source.len(),
        8,
        "the .cl has 8 lines (IGC's copy ends in a NUL)"
    );
    let listing = k["listing"].as_array().unwrap();
    let visa_source = levels["visa_source"].as_array().unwrap();
    assert_eq!(visa_source.len(), listing.len());
    // `shl` comes from `float v = x[i];` (line 5, 0-based 4).
    let shl = listing
        .iter()
        .position(|l| l["text"].as_str().unwrap().trim_start().starts_with("shl"))
        .unwrap();
    assert_eq!(visa_source[shl], 4);
    assert!(source[4].as_str().unwrap().contains("float v = x[i];"));
    let gen = levels["gen"]["lines"].as_array().unwrap();
    let gen_visa = levels["gen_visa"].as_array().unwrap();
    assert_eq!(gen.len(), gen_visa.len());
    let mut linked = 0;
    for (g, v) in gen_visa.iter().enumerate() {
        let Some(v) = v.as_u64() else { continue };
        let text = gen[g].as_str().unwrap();
        let id = &text[text.rfind('$').unwrap() + 1..];
        let id: String = id.chars().take_while(char::is_ascii_digit).collect();
        let visa = listing[v as usize]["text"].as_str().unwrap();
        // Labels, FILE and LOC print no id; every other vISA line ends with it.
        if visa.contains("/// $") {
            assert!(visa.ends_with(&format!("/// ${id}")), "{text} -> {visa}");
        }
        linked += 1;
    }
    // Every Gen instruction but the four hash movs IGC appends after the end.
    assert_eq!(linked, 35, "Gen lines linked");
    let detail = &k["pressure_detail"];
    assert_eq!(detail["num_grf"], 128);
    let physical = detail["physical_grfs"].as_array().unwrap();
    assert_eq!(
        physical.len(),
        k["pressure"]["bytes"].as_array().unwrap().len()
    );
    assert!(physical.iter().any(|p| p.as_u64().unwrap() > 0));
}

#[test]
fn three_levels_found_beside_the_dump() {
    let visa = root().join(DUMP).join(format!("{DUMP_STEM}.visaasm"));
    let page = report_json(&[visa.as_os_str()]);
    check_fixture_levels(&page);
    assert_eq!(page["kernels"][0]["levels"]["notes"], serde_json::json!([]));
    // Without the levels: the vISA page of before.
    let plain = report_json(&[visa.as_os_str(), "--no-levels".as_ref()]);
    assert!(plain["kernels"][0]["levels"].is_null());
}

#[test]
fn three_levels_from_flags() {
    // Renamed into a folder where nothing is found beside the vISA.
    let dir = out_dir("report-levels-flags");
    let from = root().join(DUMP);
    for (src, dst) in [
        (format!("{DUMP_STEM}.visaasm"), "k.visaasm"),
        (format!("{DUMP_STEM}.asm"), "gen.txt"),
        ("OCL_asmfc56e5b51e5b3fd0.cl".to_string(), "prog.cl"),
    ] {
        std::fs::copy(from.join(src), dir.join(dst)).unwrap();
    }
    let alone = report_json(&[dir.join("k.visaasm").as_os_str()]);
    assert!(alone["kernels"][0]["levels"].is_null());
    let page = report_json(&[
        dir.join("k.visaasm").as_os_str(),
        "--source".as_ref(),
        dir.join("prog.cl").as_os_str(),
        "--asm".as_ref(),
        dir.join("gen.txt").as_os_str(),
    ]);
    check_fixture_levels(&page);
    // Only the source: the vISA is linked to it, and the page says the .asm is missing.
    let page = report_json(&[
        dir.join("k.visaasm").as_os_str(),
        "--source".as_ref(),
        dir.join("prog.cl").as_os_str(),
    ]);
    let notes = page["kernels"][0]["levels"]["notes"].to_string();
    assert!(notes.contains("no Gen assembly"), "{notes}");
}

/// A kernel that spilled: its spill and fill sends are marked in the Gen listing and
/// on the pressure chart (the corpus's `spill_matmul__sgemm_regblock`).
#[test]
fn spill_points_are_marked() {
    let visa = root().join("../shared/corpus/intel-sid/tgllp/spill_matmul__sgemm_regblock.visaasm");
    if !visa.exists() {
        assert!(!required(), "../shared/corpus is missing");
        skipped(format_args!("../shared/corpus is missing"));
        return;
    }
    // The source is in `../intel/cl/`, not beside it: given.
    let cl = root().join("../shared/corpus/intel/cl/spill_matmul.cl");
    let page = report_json(&[visa.as_os_str(), "--source".as_ref(), cl.as_os_str()]);
    let k = &page["kernels"][0];
    let marks = k["levels"]["gen"]["marks"].as_array().unwrap();
    let spills = k["pressure_detail"]["spills"].as_array().unwrap();
    assert!(marks.iter().any(|m| m[1] == "spill") && marks.iter().any(|m| m[1] == "fill"));
    assert_eq!(
        spills.len(),
        marks.len(),
        "every spill send names its vISA instruction"
    );
    let source = k["levels"]["source"]["name"].as_str().unwrap();
    assert_eq!(source, "spill_matmul.cl");
}

/// Writes into `dir` a shader dump of a generated kernel of about `n` vISA
/// instructions, as IGC lays one out: `OCL_asmgen.cl` (one line per four
/// instructions), `OCL_asmgen_simd16_big.visaasm` (with `FILE`/`LOC`, a branch every
/// 40 source lines) and its `.asm` (one Gen instruction per vISA instruction, with
/// `$N`, and a spill send every 2,000). Returns the `.visaasm`.
fn generated_dump(dir: &Path, n: usize) -> PathBuf {
    use std::fmt::Write as _;
    const VARS: usize = 64;
    let (mut cl, mut visa, mut asm) = (String::new(), String::new(), String::new());
    visa.push_str(".version 4.2\n\n.kernel \"big\"\n");
    asm.push_str(
        "//.kernel big\n//.platform TGLLP\n//.thread_config numGRF=128, numAcc=2, numSWSB=16\n\n",
    );
    for v in 0..VARS {
        let _ = writeln!(
            visa,
            ".decl V{:04} v_type=G type=d num_elts=16 align=hword",
            33 + v
        );
        let _ = writeln!(
            asm,
            "//.declare V{:04} ({v})  rf=r size=64 type=d align=16 words (r{}.0)",
            33 + v,
            10 + 2 * v
        );
    }
    visa.push_str(
        ".decl P1 v_type=P num_elts=16\n.kernel_attr SimdSize=16\n_main_0:\n    FILE \"big.cl\"\n",
    );
    cl.push_str("__kernel void big(__global int *p)\n{\n");
    // Instruction indices as IGC numbers them: the label is 0, FILE 1.
    let mut id = 2;
    let mut line = 2;
    let mut block = 0;
    while id < n {
        line += 1;
        let _ = writeln!(cl, "    p[{line}] = p[{}] + p[{}];", line + 1, line + 7);
        let _ = writeln!(visa, "    LOC {line}");
        id += 1;
        // The working set grows and shrinks, so the pressure does.
        let width = 8 + (line / 100) % (VARS - 7);
        for j in 0..3 {
            let k = line * 3 + j;
            let (d, a, b) = (k % width, (k + 1) % width, (k + 5) % width);
            let _ = writeln!(
                visa,
                "    add (M1, 16) V{:04}(0,0)<1> V{:04}(0,0)<1;1,0> V{:04}(0,0)<1;1,0>",
                33 + d,
                33 + a,
                33 + b
            );
            let _ = writeln!(
                asm,
                "        add (16|M0)   r{}.0<1>:d  r{}.0<8;8,1>:d  r{}.0<8;8,1>:d   // ${id}",
                10 + 2 * d,
                10 + 2 * a,
                10 + 2 * b
            );
            if id % 2000 == 0 {
                let _ = writeln!(
                    asm,
                    "        send.dc0 (16|M0)  null  r54  r8  0x80  0x020F1000  {{@1,$0}} // wr:1h+2, rd:0; hword scratch block write x2 //  scratch space spill:  from offset[0x32]; ; ${id}"
                );
            }
            id += 1;
        }
        if line % 40 == 0 {
            block += 1;
            let v = 33 + line % VARS;
            let _ = writeln!(visa, "    cmp.lt (M1, 16) P1 V{v:04}(0,0)<1;1,0> 0x10:d");
            let _ = writeln!(visa, "    (P1) goto (M1, 16) L{block}\nL{block}:");
            let _ = writeln!(
                asm,
                "        cmp (16|M0)   (lt)f0.0   null<1>:d  r{}.0<8;8,1>:d  16:w   // ${id}\n(f0.0)  jmpi  L{block}   // ${}\nL{block}:",
                10 + 2 * (line % VARS),
                id + 1
            );
            id += 3;
        }
    }
    let _ = writeln!(visa, "    ret (M1, 1)");
    let _ = writeln!(asm, "        ret (16|M0)   r0   // ${id}");
    cl.push_str("}\n");
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("OCL_asmgen.cl"), cl).unwrap();
    std::fs::write(dir.join("OCL_asmgen_simd16_big.asm"), asm).unwrap();
    let path = dir.join("OCL_asmgen_simd16_big.visaasm");
    std::fs::write(&path, visa).unwrap();
    path
}

/// The largest corpus kernel that has its `.asm` beside it (by vISA text size).
fn largest_corpus_kernel() -> Option<PathBuf> {
    let corpus = root().join("../shared/corpus");
    let mut best: Option<(u64, PathBuf)> = None;
    let mut stack = vec![corpus];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).ok()?.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "visaasm")
                && p.with_extension("asm").is_file()
            {
                let len = e.metadata().map_or(0, |m| m.len());
                if best.as_ref().is_none_or(|(l, _)| len > *l) {
                    best = Some((len, p));
                }
            }
        }
    }
    best.map(|(_, p)| p)
}

/// The source of a corpus kernel `<clfile>__<kernel>.visaasm` whose folder has no
/// `../cl/` (IGC 2.x's corpus shares the sources of the others): `<clfile>.cl` in any
/// corpus `cl/` folder.
fn corpus_source(visa: &Path) -> Option<PathBuf> {
    let stem = visa.file_stem()?.to_str()?;
    let (clfile, _) = stem.split_once("__")?;
    if visa
        .parent()?
        .join("../cl")
        .join(format!("{clfile}.cl"))
        .is_file()
    {
        return None; // found beside it
    }
    let corpus = root().join("../shared/corpus");
    std::fs::read_dir(&corpus)
        .ok()?
        .flatten()
        .map(|e| e.path().join("cl").join(format!("{clfile}.cl")))
        .find(|p| p.is_file())
}

/// Appended to a copy of a page: once it has loaded, hovers (and clicks) a linked
/// line of `level` and writes what lit up in each level, and how long the page took
/// to load, into a `<pre id="probe">` for `--dump-dom`; what is above the levels is
/// hidden, so that a screenshot shows them.
fn probe_script(level: &str) -> String {
    format!(
        r#"<script>window.addEventListener('load', function () {{
  var load = performance.now();
  // What is above the levels is hidden, for the screenshot.
  var head = document.getElementById('k0-levels');
  for (var el = head.previousElementSibling; el; el = el.previousElementSibling) {{
    if (el.tagName !== 'H2') el.style.display = 'none';
  }}
  var links = JSON.parse(document.getElementById('k0-links').textContent);
  var P = window.gpukitPanes.panes, level = '{level}', i = -1;
  if (level === 'source') i = links.src.find(function (s) {{ return s !== null; }});
  else i = links.gen.findIndex(function (v) {{ return v !== null; }}) ;
  var pane = P['k0-' + level];
  pane.reveal(i);
  var row = pane.row(i);
  row.dispatchEvent(new MouseEvent('mouseover', {{ bubbles: true }}));
  row.dispatchEvent(new MouseEvent('click', {{ bubbles: true }}));
  var out = {{ load_ms: Math.round(load), level: level, line: i, lit: {{}}, lines: {{}} }};
  ['source', 'visa', 'gen'].forEach(function (lv) {{
    var p = P['k0-' + lv];
    out.lines[lv] = p ? +p.el.dataset.lines : 0;
    out.lit[lv] = p ? p.el.querySelectorAll('.r.lk').length : 0;
  }});
  // The CFG search finds the first block by its name.
  var search = document.querySelector('.cfgbox input');
  search.value = document.querySelector('.cfgbox g.block title').textContent.split(' ')[0];
  search.dispatchEvent(new Event('input'));
  out.cfg_hits = document.querySelectorAll('.cfgbox g.block.hit').length;
  // The pressure chart zooms.
  window.gpukitZoom[0](10, 200);
  out.zoom = document.querySelector('.zoom .zinfo').textContent;
  var pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(out);
  document.body.insertBefore(pre, document.body.firstChild);
}});</script>"#
    )
}

/// The three-level pages of the largest corpus kernel and of a generated
/// 60,000-instruction kernel in headless Chromium: all three levels present, hover
/// linking lights up the other levels, the load time printed, screenshots (the top
/// of each page, and its levels after a click) in `target/report-levels-screenshots/`.
#[test]
fn three_level_pages_in_chromium() {
    if !have_chromium() {
        return;
    }
    let dir = out_dir("report-levels-browser");
    let shots = out_dir("report-levels-screenshots");
    let mut cases = vec![(generated_dump(&dir.join("generated"), 60_000), "source")];
    match largest_corpus_kernel() {
        // Corpus kernels were compiled without -g: no LOC lines, so the probe starts
        // from a Gen line.
        Some(p) => cases.push((p, "gen")),
        None => {
            assert!(!required(), "../shared/corpus is missing");
            skipped(format_args!(
                "three_level_pages_in_chromium: corpus kernel (../shared/corpus is missing)"
            ));
        }
    }
    for (visa, level) in cases {
        let stem = visa.file_stem().unwrap().to_string_lossy().into_owned();
        let page = dir.join(format!("{stem}.html"));
        let started = std::time::Instant::now();
        let mut args = vec![visa.clone().into_os_string()];
        if let Some(cl) = corpus_source(&visa) {
            args.extend(["--source".into(), cl.into_os_string()]);
        }
        args.extend(["-o".into(), page.clone().into_os_string()]);
        gpukit_report(args);
        let written = started.elapsed();
        let html = std::fs::read_to_string(&page).unwrap();
        for pane in ["k0-source", "k0-visa", "k0-gen"] {
            assert!(
                html.contains(&format!("id=\"{pane}\"")),
                "{stem}: no {pane} pane"
            );
        }
        check_page(&page);
        // The page as it opens.
        let png = shots.join(format!("{stem}.png"));
        let started = std::time::Instant::now();
        browser::screenshot_clean(None, &page, &png, "1600,1400", &stem);
        let opened = started.elapsed();
        // Hover a linked line, and read what lit up.
        let probe = dir.join(format!("{stem}.probe.html"));
        std::fs::write(
            &probe,
            html.replace("</body>", &format!("{}</body>", probe_script(level))),
        )
        .unwrap();
        let dom = browser::chromium(
            None,
            &["--dump-dom", &format!("file://{}", probe.display())],
        );
        let dom = String::from_utf8_lossy(&dom.stdout);
        let at = dom
            .find("<pre id=\"probe\">")
            .unwrap_or_else(|| panic!("{stem}: the probe did not run"));
        let json = &dom[at + 16..];
        let json = json[..json.find("</pre>").unwrap()].replace("&quot;", "\"");
        let probe_out: serde_json::Value = serde_json::from_str(&json).unwrap();
        for lv in ["source", "visa", "gen"] {
            assert!(
                probe_out["lines"][lv].as_u64().unwrap() > 0,
                "{stem}: {lv} is empty"
            );
        }
        // What a hover lights up: the other levels' lines.
        let lit = &probe_out["lit"];
        assert!(
            lit["visa"].as_u64().unwrap() > 0,
            "{stem}: no vISA line lit: {probe_out}"
        );
        assert!(
            lit["gen"].as_u64().unwrap() > 0,
            "{stem}: no Gen line lit: {probe_out}"
        );
        assert!(
            probe_out["cfg_hits"].as_u64().unwrap() >= 1,
            "{stem}: {probe_out}"
        );
        assert!(
            probe_out["zoom"]
                .as_str()
                .unwrap()
                .starts_with("instructions 10\u{2013}199 of"),
            "{stem}: {probe_out}"
        );
        if level == "source" {
            assert!(lit["source"].as_u64().unwrap() > 0, "{stem}: {probe_out}");
        }
        browser::screenshot_clean(
            None,
            &probe,
            &shots.join(format!("{stem}.levels.png")),
            "1600,1400",
            &stem,
        );
        let _ = writeln_stderr(format_args!(
            "{stem}: {} vISA / {} Gen / {} source lines; page {:.1} MB written in {:.2} s; \
             Chromium start + load + screenshot {:.2} s; in-page load {} ms; hover lit {}",
            probe_out["lines"]["visa"],
            probe_out["lines"]["gen"],
            probe_out["lines"]["source"],
            html.len() as f64 / 1e6,
            written.as_secs_f64(),
            opened.as_secs_f64(),
            probe_out["load_ms"],
            probe_out["lit"],
        ));
    }
    let _ = writeln_stderr(format_args!("screenshots: {}", shots.display()));
}

fn writeln_stderr(what: std::fmt::Arguments) -> std::io::Result<()> {
    use std::io::Write;
    writeln!(std::io::stderr(), "{what}")
}

/// Every cut of the fixture's `.asm`, `.visaasm` and source, and bytes flipped in
/// them, gives a page or an input error (exit 0 or 1), never a panic.
#[test]
fn three_levels_of_cut_and_mutated_dumps() {
    let dir = out_dir("report-levels-sweep");
    let from = root().join(DUMP);
    let names = [
        format!("{DUMP_STEM}.visaasm"),
        format!("{DUMP_STEM}.asm"),
        "OCL_asmfc56e5b51e5b3fd0.cl".to_string(),
    ];
    let originals: Vec<Vec<u8>> = names
        .iter()
        .map(|n| std::fs::read(from.join(n)).unwrap())
        .collect();
    let mut runs = 0;
    for (which, original) in originals.iter().enumerate() {
        let step = (original.len() / 24).max(1);
        let mut variants: Vec<Vec<u8>> = (0..original.len())
            .step_by(step)
            .map(|cut| original[..cut].to_vec())
            .collect();
        for at in (7..original.len()).step_by(step) {
            let mut v = original.clone();
            v[at] ^= if at % 2 == 0 { 0x20 } else { 0x05 };
            variants.push(v);
        }
        for v in variants {
            for (i, n) in names.iter().enumerate() {
                let bytes = if i == which { &v } else { &originals[i] };
                std::fs::write(dir.join(n), bytes).unwrap();
            }
            let out = Command::new(env!("CARGO_BIN_EXE_gpukit"))
                .args(["report", "--json"])
                .arg(dir.join(&names[0]))
                .stdin(Stdio::null())
                .output()
                .unwrap();
            let code = out.status.code();
            assert!(
                matches!(code, Some(0 | 1)),
                "{} variant: exit {code:?}: {}",
                names[which],
                String::from_utf8_lossy(&out.stderr)
            );
            runs += 1;
        }
    }
    assert!(runs > 100);
}

/// An `.isa` of IGC 1.0.12198-13063's defective writer: the page names the `.visaasm`
/// beside it, and `--prefer-text` shows that text instead.
#[test]
fn defective_isa_names_its_text_dump() {
    let isa = root().join("tests/data/visa/defective/scale.isa");
    let fact = |page: &serde_json::Value, name: &str| {
        page["facts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f[0] == name)
            .and_then(|f| f[1].as_str().map(str::to_owned))
    };
    let page = report_json(&[isa.as_os_str()]);
    let advice = fact(&page, "defective writer").expect("no advice on the page");
    assert!(advice.contains("scale.visaasm"), "{advice}");
    let page = report_json(&[std::ffi::OsStr::new("--prefer-text"), isa.as_os_str()]);
    assert!(fact(&page, "file").unwrap().ends_with("scale.visaasm"));
    assert_eq!(fact(&page, "defective writer"), None);
}
