//! `gpukit diff`: on the corpus kernels compiled by IGC 1.0.12504 and 2.40 for tgllp,
//! every kernel present in both folders is matched and every delta equals the
//! difference of the single-file commands' figures (`scan`, `report --json`, the
//! `.asm` dump reader); a listing with every variable renumbered diffs as no change;
//! two listings sharing nothing diff within the memory budget; and the HTML page
//! loads in headless Chromium (screenshots in `target/diff-screenshots/`).

#[path = "common/browser.rs"]
mod browser;

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn required() -> bool {
    std::env::var_os("REQUIRE_PEERS").is_some_and(|v| v == "1")
        || std::env::var_os("CI").is_some_and(|v| v == "true")
}

fn corpus(folder: &str) -> Option<PathBuf> {
    let dir = root().join("../shared/corpus").join(folder);
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(!required(), "{} is missing", dir.display());
    // Said past libtest's capture, so a fresh clone's `cargo test` shows what it skipped.
    let test = std::thread::current().name().unwrap_or("test").to_string();
    let _ = std::io::Write::write_fmt(
        &mut std::io::stderr(),
        format_args!("skipped: {test} ({} is missing)\n", dir.display()),
    );
    None
}

fn gpukit(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gpukit"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ndjson(text: &str) -> Vec<Value> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn scratch(name: &str) -> PathBuf {
    let dir = root().join("target").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A kernel's key: the file stem without IGC's `__simd<N>`.
fn key(path: &Path) -> String {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let stem = name.split('.').next().unwrap().to_owned();
    match stem.rsplit_once("__simd") {
        Some((head, n)) if n.bytes().all(|b| b.is_ascii_digit()) => head.to_owned(),
        _ => stem,
    }
}

/// The single-file figures of one side: `scan`'s row, `report --json`'s kernel and
/// the dump's header, by key.
struct Single {
    scan: Value,
    report: Value,
    asm: gpukit_intel::asm_dump::AsmDump,
}

fn singles(dir: &Path) -> BTreeMap<String, Single> {
    let mut listings: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".visaasm"))
        .collect();
    listings.sort();
    let mut out = BTreeMap::new();
    for path in listings {
        let p = path.to_str().unwrap();
        let (code, rows, _) = gpukit(&["scan", p]);
        assert_eq!(code, 0, "scan {p}");
        let mut rows = ndjson(&rows);
        assert_eq!(rows.len(), 1, "{p}: one kernel");
        let (code, page, err) = gpukit(&["report", "--json", p]);
        assert_eq!(code, 0, "report {p}: {err}");
        let page: Value = serde_json::from_str(&page).unwrap();
        let asm_path = PathBuf::from(p.replace(".visaasm", ".asm"));
        let asm =
            gpukit_intel::asm_dump::read(&std::fs::read_to_string(&asm_path).unwrap()).unwrap();
        out.insert(
            key(&path),
            Single {
                scan: rows.remove(0),
                report: page["kernels"][0].clone(),
                asm,
            },
        );
    }
    out
}

/// The figure `diff` names `name`, as the single-file commands give it.
fn figure(s: &Single, name: &str) -> Option<i64> {
    let int = |v: &Value| v.as_i64();
    let cfg = &s.report["cfg"];
    match name {
        "instructions" | "simd_size" | "declarations" | "gen_binary_bytes" | "vgprs" | "sgprs" => {
            int(&s.scan[name])
        }
        "gen_instructions" => Some(s.asm.instructions as i64),
        "sends" => Some(s.asm.send_count() as i64),
        "grf" => s.asm.num_grf.map(i64::from),
        "spill_bytes" => Some(s.asm.spill_bytes as i64),
        "pressure_peak_bytes" => s.report["pressure"]["bytes"]
            .as_array()
            .and_then(|b| b.iter().filter_map(Value::as_i64).max()),
        "blocks" => cfg["nodes"].as_array().map(|n| n.len() as i64),
        "edges" => cfg["edges"].as_array().map(|e| e.len() as i64),
        "loops" => {
            let n = cfg["nodes"].as_array()?.len();
            let edges: Vec<(usize, usize)> = cfg["edges"]
                .as_array()?
                .iter()
                .map(|e| {
                    (
                        e[0].as_u64().unwrap() as usize,
                        e[1].as_u64().unwrap() as usize,
                    )
                })
                .collect();
            Some(
                gpukit_report::layout::back_edges(n, &edges)
                    .into_iter()
                    .filter(|&b| b)
                    .count() as i64,
            )
        }
        other => panic!("no single-file source for {other}"),
    }
}

#[test]
fn corpus_deltas_equal_single_file_figures() {
    let (Some(a), Some(b)) = (corpus("intel/tgllp"), corpus("intel-sid/tgllp")) else {
        return;
    };
    let (code, out, err) = gpukit(&[
        "diff",
        "--json=ndjson",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let rows = ndjson(&out);
    let singles_a = singles(&a);
    let singles_b = singles(&b);
    let both: BTreeSet<&String> = singles_a
        .keys()
        .filter(|k| singles_b.contains_key(*k))
        .collect();
    let matched: BTreeSet<String> = rows
        .iter()
        .filter(|r| r["only_in"].is_null())
        .map(|r| r["key"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        matched,
        both.iter().map(|k| k.to_string()).collect::<BTreeSet<_>>(),
        "every kernel in both folders is matched, and only those"
    );
    assert!(matched.len() >= 40, "{} matched", matched.len());
    let only_b = rows.iter().filter(|r| r["only_in"] == "B").count();
    assert_eq!(only_b, singles_b.len() - both.len());
    let mut compared = 0;
    for row in rows.iter().filter(|r| r["only_in"].is_null()) {
        let k = row["key"].as_str().unwrap();
        let (sa, sb) = (&singles_a[k], &singles_b[k]);
        for name in [
            "instructions",
            "gen_instructions",
            "sends",
            "simd_size",
            "grf",
            "spill_bytes",
            "pressure_peak_bytes",
            "blocks",
            "edges",
            "loops",
            "declarations",
        ] {
            let (fa, fb) = (figure(sa, name), figure(sb, name));
            assert_eq!(row[format!("{name}_a")].as_i64(), fa, "{k} {name} in A");
            assert_eq!(row[format!("{name}_b")].as_i64(), fb, "{k} {name} in B");
            let delta = fa.zip(fb).map(|(x, y)| y - x);
            assert_eq!(row[format!("{name}_delta")].as_i64(), delta, "{k} {name}");
            compared += 1;
        }
        // The opcode deltas are those of scan's histograms.
        let mut want: BTreeMap<String, i64> = BTreeMap::new();
        for (s, sign) in [(sa, -1), (sb, 1)] {
            for (op, n) in s.scan["opcodes"].as_object().unwrap() {
                *want.entry(op.clone()).or_insert(0) += sign * n.as_i64().unwrap();
            }
        }
        want.retain(|_, v| *v != 0);
        let got: BTreeMap<String, i64> = row["opcodes_delta"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_i64().unwrap()))
            .collect();
        assert_eq!(got, want, "{k} opcodes");
    }
    eprintln!(
        "{} kernels matched, {compared} figures compared",
        matched.len()
    );
}

/// `V<n>` and `P<n>` renumbered by a permutation: the same program under other names.
fn renumbered(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let boundary = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if boundary && (c == b'V' || c == b'P') {
            let digits = b[i + 1..].iter().take_while(|d| d.is_ascii_digit()).count();
            let end = i + 1 + digits;
            let word_ends = b
                .get(end)
                .is_none_or(|d| !(d.is_ascii_alphanumeric() || *d == b'_'));
            if digits > 0 && word_ends {
                let n: u32 = text[i + 1..end].parse().unwrap();
                out.push(c as char);
                out.push_str(&(9000 - n).to_string());
                i = end;
                continue;
            }
        }
        out.push(c as char);
        i += 1;
    }
    out
}

#[test]
fn renamed_variables_only_is_no_change() {
    let dir = scratch("diff-renamed");
    let original = root().join("tests/data/visa/local_histogram__histogram_local__simd32.visaasm");
    let text = std::fs::read_to_string(&original).unwrap();
    let renamed = renumbered(&text);
    assert_ne!(renamed, text);
    let b = dir.join("renamed.visaasm");
    std::fs::write(&b, &renamed).unwrap();
    let (code, out, err) = gpukit(&[
        "diff",
        "--json=ndjson",
        original.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let rows = ndjson(&out);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["changed"], false, "{}", rows[0]);
    assert_eq!(rows[0]["listing"]["same"], true);
    assert_eq!(rows[0]["instructions_a"], rows[0]["instructions_b"]);

    // One instruction fewer is a change, found in its block.
    let mut lines: Vec<&str> = renamed.lines().collect();
    let at = lines
        .iter()
        .rposition(|l| l.trim_start().starts_with("add "))
        .unwrap();
    lines.remove(at);
    let c = dir.join("edited.visaasm");
    std::fs::write(&c, lines.join("\n") + "\n").unwrap();
    let (code, out, err) = gpukit(&[
        "diff",
        "--json=ndjson",
        original.to_str().unwrap(),
        c.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let row = &ndjson(&out)[0];
    assert_eq!(row["changed"], true);
    assert_eq!(row["instructions_delta"], -1);
    assert_eq!(row["listing"]["removed"], 1, "{}", row["listing"]);
    assert_eq!(row["listing"]["added"], 0);
    let edit = &row["listing"]["changed_blocks"][0]["edits"][0];
    assert_eq!(edit["sign"], "-");
    assert!(
        edit["text"].as_str().unwrap().trim().starts_with("add "),
        "{edit}"
    );
    // `--fail-on` on the change: crossed exits 1, not crossed exits 0.
    let args = |cond: &'static str| {
        vec![
            "diff".to_string(),
            original.to_str().unwrap().to_string(),
            c.to_str().unwrap().to_string(),
            "--fail-on".to_string(),
            cond.to_string(),
        ]
    };
    let run = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        gpukit(&a)
    };
    let (code, _, err) = run(args("instructions<-0.5%"));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("crosses `instructions<-0.5%`"), "{err}");
    let (code, _, err) = run(args("instructions>+5%,spill_bytes>0"));
    assert_eq!(code, 0, "{err}");
}

/// A vISA text of `n` instructions, each a distinct immediate or opcode.
fn listing(n: usize, op: &str) -> String {
    let mut s = String::from(
        ".version 4.1\n.kernel \"k\"\n.decl V33 v_type=G type=d num_elts=8 align=hword\n",
    );
    for i in 0..n {
        s.push_str(&format!(
            "    {op} (M1, 8) V33(0,0)<1> V33(0,0)<1;1,0> 0x{i:x}:d\n"
        ));
    }
    s.push_str("    ret (M1, 1)\n");
    s
}

const RUN_ENV: &str = "GPUKIT_DIFF_MEASURE";

/// The measuring child (started by [`disjoint_listings_stay_in_budget`]): runs
/// gpukit and prints its peak RSS, so the number belongs to that one process.
#[test]
fn measure_child() {
    let Some(args) = std::env::var_os(RUN_ENV) else {
        return;
    };
    let args: Vec<String> = args
        .to_str()
        .unwrap()
        .split('\u{1f}')
        .map(str::to_owned)
        .collect();
    let status = Command::new(env!("CARGO_BIN_EXE_gpukit"))
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    let usage =
        nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN).unwrap();
    println!(
        "MEASURED {} {}",
        status.code().unwrap_or(-1),
        usage.max_rss() as u64 * 1024
    );
}

#[test]
fn disjoint_listings_stay_in_budget() {
    let dir = scratch("diff-disjoint");
    let (a, b) = (dir.join("a.visaasm"), dir.join("b.visaasm"));
    std::fs::write(&a, listing(40_000, "add")).unwrap();
    std::fs::write(&b, listing(40_000, "mul")).unwrap();
    let input = std::fs::metadata(&a).unwrap().len() + std::fs::metadata(&b).unwrap().len();
    let json = dir.join("out.json");
    let args = [
        "diff",
        "--json",
        "-o",
        json.to_str().unwrap(),
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]
    .join("\u{1f}");
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "measure_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(RUN_ENV, args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find_map(|l| l.split_once("MEASURED ").map(|(_, m)| m))
        .unwrap_or_else(|| panic!("no measurement: {text}"));
    let mut it = line.split(' ').map(|v| v.parse::<i64>().unwrap());
    let (code, rss) = (it.next().unwrap(), it.next().unwrap() as u64);
    assert_eq!(code, 0);
    let budget = (64 << 20) + 20 * input;
    eprintln!("disjoint listings: input {input} bytes, peak RSS {rss} bytes (budget {budget})");
    assert!(rss <= budget, "peak RSS {rss} over {budget}");
    let rows: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let listing = &rows[0]["listing"];
    assert_eq!(rows[0]["changed"], true);
    assert_eq!(listing["removed"], 40_000);
    assert_eq!(listing["added"], 40_000);
}

/// Debian's Chromium, headless, with every route off the machine closed.
#[test]
fn html_page_loads_in_chromium() {
    let dir = scratch("diff-browser");
    // Two folders holding the spilling kernel of each release: listing and dump.
    let (a, b) = match (corpus("intel/tgllp"), corpus("intel-sid/tgllp")) {
        (Some(a), Some(b)) => {
            let (da, db) = (dir.join("a"), dir.join("b"));
            for (from, to, stem) in [
                (&a, &da, "spill_matmul__sgemm_regblock__simd16"),
                (&b, &db, "spill_matmul__sgemm_regblock"),
            ] {
                std::fs::create_dir_all(to).unwrap();
                for ext in ["visaasm", "asm"] {
                    let name = format!("{stem}.{ext}");
                    std::fs::copy(from.join(&name), to.join(&name)).unwrap();
                }
            }
            (da, db)
        }
        _ => (
            root().join("tests/data/visa/l02_local_sum__local_sum.isa"),
            root().join("tests/data/visa/local_histogram__histogram_local__simd32.visaasm"),
        ),
    };
    let page = dir.join("diff.html");
    let (code, _, err) = gpukit(&[
        "diff",
        "--html",
        page.to_str().unwrap(),
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("Content-Security-Policy"));
    assert!(html.contains("default-src 'none'"));
    for url in html
        .match_indices("http")
        .map(|(i, _)| &html[i..(i + 30).min(html.len())])
    {
        assert!(
            url.starts_with("http://www.w3.org/2000/svg") || url.starts_with("http-equiv"),
            "{url}"
        );
    }
    assert!(html.matches("<svg class=\"cfg\"").count() >= 2, "both CFGs");
    assert!(html.contains("<svg class=\"pressure\""));
    assert!(html.contains("<svg class=\"mix\""));
    if corpus("intel/tgllp").is_some() {
        assert!(html.contains("<td>spill_bytes</td><td>704</td><td>640</td>"));
    }
    let have = Command::new("chromium")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        assert!(!required(), "REQUIRE_PEERS=1 but chromium is not installed");
        return;
    }
    let shots = scratch("diff-screenshots");
    for (name, size) in [("top", "1400,1400"), ("full", "1400,4000")] {
        let png = shots.join(format!("diff-{name}.png"));
        let profile = scratch("diff-chromium-profile");
        browser::screenshot_clean(Some(&profile), &page, &png, size, name);
    }
}
