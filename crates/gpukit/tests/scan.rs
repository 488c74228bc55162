//! `gpukit scan` over the shared corpus: one row per kernel, every file present, in
//! the walk's order, with the counts the single-file commands report; error rows for
//! unreadable files; Parquet read back (parquet crate, and DuckDB under
//! `REQUIRE_PEERS=1`); shards that partition the scan.
//!
//! The single-file commands run once per format over all files of that format
//! (they accept several), so the comparison costs a handful of processes.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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

/// `../shared/corpus`, or `None` (skip) when absent outside CI.
fn corpus() -> Option<PathBuf> {
    let c = root().join("../shared/corpus");
    if c.is_dir() {
        return Some(c.canonicalize().unwrap());
    }
    assert!(!required(), "{} is missing", c.display());
    skipped(format_args!("{} is missing", c.display()));
    None
}

fn gpukit(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpukit"))
        .args(args)
        .output()
        .unwrap()
}

fn os<S: AsRef<std::ffi::OsStr> + ?Sized>(s: &S) -> &std::ffi::OsStr {
    s.as_ref()
}

fn scan(args: &[&std::ffi::OsStr]) -> Vec<Value> {
    let mut all = vec![os("scan")];
    all.extend_from_slice(args);
    let out = gpukit(&all);
    assert!(
        out.status.success(),
        "scan failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("scan: "), "no summary line: {stderr}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Every file under `dir`, in the walk's order (depth-first, names sorted bytewise).
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    for n in names {
        let p = dir.join(n);
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn int(v: &Value) -> Option<i64> {
    v.as_i64()
}

/// Reports of a multi-file `--json=ndjson` command, by file.
fn reports(args: &[&str], files: &[&String]) -> BTreeMap<String, Value> {
    let mut map = BTreeMap::new();
    // Kept under the argument-length limit.
    for chunk in files.chunks(500) {
        let mut all: Vec<&std::ffi::OsStr> = args.iter().map(os).collect();
        all.extend(chunk.iter().map(os));
        let out = gpukit(&all);
        for line in String::from_utf8(out.stdout).unwrap().lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            let file = v["file"].as_str().unwrap().to_owned();
            map.insert(file, v);
        }
    }
    map
}

/// A single-file command's platform spelling as scan's one vocabulary spells it.
fn canon(v: &Value) -> Value {
    v.as_str()
        .map_or(Value::Null, |p| Value::from(gpukit::platform::canonical(p)))
}

fn histogram(v: &Value) -> BTreeMap<String, i64> {
    v.as_object()
        .map(|o| {
            o.iter()
                .map(|(k, n)| (k.clone(), n.as_i64().unwrap()))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn corpus_rows_agree_with_the_single_file_commands() {
    let Some(corpus) = corpus() else { return };
    let rows = scan(&[os(&corpus), os("--jobs"), os("2")]);

    // Every file, once or more, in the walk's order; error rows only for files.
    let mut files = Vec::new();
    files_under(&corpus, &mut files);
    let mut seen: Vec<String> = Vec::new();
    for r in &rows {
        let p = r["path"].as_str().unwrap();
        if seen.last().map(String::as_str) != Some(p) {
            seen.push(p.to_owned());
        }
    }
    let want: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    assert_eq!(seen.len(), want.len(), "files in the scan vs on disk");
    assert_eq!(seen, want, "rows are not in the walk's order");

    let mut by_format: BTreeMap<String, BTreeMap<String, Vec<&Value>>> = BTreeMap::new();
    for r in &rows {
        let format = r["format"].as_str().unwrap_or("unreadable").to_owned();
        by_format
            .entry(format)
            .or_default()
            .entry(r["path"].as_str().unwrap().to_owned())
            .or_default()
            .push(r);
    }
    let mut checked = BTreeMap::new();

    // vISA binaries: `visa info`.
    let visa = &by_format["visa-binary"];
    let paths: Vec<&String> = visa.keys().collect();
    let info = reports(&["visa", "info", "--json=ndjson"], &paths);
    for (path, rows) in visa {
        let Some(report) = info.get(path) else {
            assert!(rows.len() == 1 && rows[0]["error"].is_string(), "{path}");
            continue;
        };
        let routines: Vec<&Value> = report["kernels"]
            .as_array()
            .unwrap()
            .iter()
            .chain(report["functions"].as_array().unwrap())
            .collect();
        assert_eq!(rows.len(), routines.len(), "{path}: one row per routine");
        for (row, k) in rows.iter().zip(routines) {
            assert_eq!(row["kernel"], k["name"], "{path}");
            assert_eq!(row["visa_version"], report["version"], "{path}");
            let decls: i64 = [
                "variables",
                "addresses",
                "predicates",
                "labels",
                "samplers",
                "surfaces",
                "vmes",
            ]
            .iter()
            .map(|t| k[t].as_i64().unwrap())
            .sum();
            assert_eq!(int(&row["declarations"]), Some(decls), "{path}");
            assert_eq!(
                int(&row["inputs"]),
                Some(k["inputs"].as_array().unwrap().len() as i64),
                "{path}"
            );
            let gen: i64 = k["gen_binaries"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["size"].as_i64().unwrap())
                .sum();
            if gen > 0 {
                assert_eq!(int(&row["gen_binary_bytes"]), Some(gen), "{path}");
            }
            let simd = k["attributes"]
                .as_array()
                .unwrap()
                .iter()
                .find(|a| a[0] == "SimdSize")
                .map(|a| a[1].as_i64().unwrap());
            assert_eq!(int(&row["simd_size"]), simd, "{path}");
            match k["instructions"]["status"].as_str().unwrap() {
                "decoded" => {
                    assert_eq!(row["instructions"], k["instructions"]["count"], "{path}");
                    assert_eq!(
                        histogram(&row["opcodes"]),
                        histogram(&k["instructions"]["histogram"]),
                        "{path}"
                    );
                    assert!(row["error"].is_null(), "{path}");
                }
                _ => {
                    assert!(row["instructions"].is_null(), "{path}");
                    assert!(row["error"].is_string(), "{path}");
                }
            }
        }
        *checked.entry("visa-binary").or_insert(0) += rows.len();
    }

    // vISA text, AMD metadata/IL and OpenCL C: `gpukit info`.
    for format in ["visa-text", "amd-il", "amd-metadata", "opencl-c"] {
        let Some(group) = by_format.get(format) else {
            continue;
        };
        let paths: Vec<&String> = group.keys().collect();
        let info = reports(&["info", "--json=ndjson"], &paths);
        for (path, rows) in group {
            let Some(report) = info.get(path) else {
                assert!(rows.len() == 1 && rows[0]["error"].is_string(), "{path}");
                continue;
            };
            let summary = &report["summary"];
            let kernels: Vec<&Value> = match format {
                "visa-text" => summary["routines"].as_array().unwrap().iter().collect(),
                _ => summary.as_array().unwrap().iter().collect(),
            };
            if kernels.is_empty() {
                assert!(rows.len() == 1 && rows[0]["error"].is_string(), "{path}");
                continue;
            }
            assert_eq!(rows.len(), kernels.len(), "{path}");
            for (row, k) in rows.iter().zip(kernels) {
                match format {
                    "visa-text" => {
                        assert_eq!(row["kernel"], k["name"], "{path}");
                        assert_eq!(row["routine"], k["kind"], "{path}");
                        assert_eq!(row["instructions"], k["instructions"], "{path}");
                        assert_eq!(row["inputs"], k["inputs"], "{path}");
                        assert_eq!(
                            histogram(&row["opcodes"]),
                            histogram(&k["histogram"]),
                            "{path}"
                        );
                    }
                    "opencl-c" => {
                        assert_eq!(row["kernel"], k["kernel"], "{path}");
                        assert_eq!(
                            int(&row["arguments"]),
                            Some(k["arguments"].as_array().unwrap().len() as i64),
                            "{path}"
                        );
                    }
                    _ => {
                        let name = if k["kernel"].is_null() {
                            &k["block"]
                        } else {
                            &k["kernel"]
                        };
                        assert_eq!(&row["kernel"], name, "{path}");
                        assert_eq!(row["arguments"], k["arguments"], "{path}");
                        assert_eq!(row["platform"], canon(&k["device"]), "{path}");
                    }
                }
            }
            *checked.entry(format).or_insert(0) += rows.len();
        }
    }

    // IGA listings: `iga stats --lenient`.
    for format in ["iga-json-1", "iga-json-2"] {
        let group = &by_format[format];
        let paths: Vec<&String> = group.keys().collect();
        let stats = reports(&["iga", "stats", "--lenient", "--json=ndjson"], &paths);
        for (path, rows) in group {
            assert_eq!(rows.len(), 1, "{path}");
            let row = rows[0];
            let Some(s) = stats.get(path) else {
                assert!(row["error"].is_string(), "{path}");
                continue;
            };
            assert_eq!(row["instructions"], s["instructions"], "{path}");
            assert_eq!(row["sends"], s["sends"]["total"], "{path}");
            assert_eq!(
                int(&row["sbid_tokens"]),
                Some(s["sbid"]["tokens"].as_array().unwrap().len() as i64),
                "{path}"
            );
            assert_eq!(row["platform"], canon(&s["platform"]), "{path}");
            assert_eq!(histogram(&row["opcodes"]), histogram(&s["ops"]), "{path}");
            if !s["pressure"].is_null() {
                assert_eq!(
                    row["pressure_peak_regs"], s["pressure"]["grf_regs_peak"],
                    "{path}"
                );
            }
            *checked.entry(format).or_insert(0) += 1;
        }
    }

    // AMD binaries: `amd info`.
    let amd: Vec<&String> = ["amd-cl1", "amd-cl2", "amd-cl1-cpu"]
        .iter()
        .filter_map(|f| by_format.get(*f))
        .flat_map(|g| g.keys())
        .collect();
    let info = reports(&["amd", "info", "--json=ndjson"], &amd);
    for path in amd {
        let format = ["amd-cl1", "amd-cl2", "amd-cl1-cpu"]
            .iter()
            .find(|f| by_format.get(**f).is_some_and(|g| g.contains_key(path)))
            .unwrap();
        let rows = &by_format[*format][path];
        let Some(report) = info.get(path) else {
            assert!(rows.len() == 1 && rows[0]["error"].is_string(), "{path}");
            continue;
        };
        let kernels = report["kernels"].as_array().unwrap();
        if kernels.is_empty() {
            assert!(rows.len() == 1 && rows[0]["error"].is_string(), "{path}");
            continue;
        }
        assert_eq!(rows.len(), kernels.len(), "{path}");
        for (row, k) in rows.iter().zip(kernels) {
            assert_eq!(row["kernel"], k["name"], "{path}");
            assert_eq!(row["platform"], canon(&report["device"]), "{path}");
            assert_eq!(
                int(&row["arguments"]),
                Some(k["arguments"].as_array().unwrap().len() as i64),
                "{path}"
            );
            assert_eq!(row["vgprs"], k["registers"]["vgprs"], "{path}");
            assert_eq!(row["sgprs"], k["registers"]["sgprs"], "{path}");
            if *format == "amd-cl2" {
                assert_eq!(row["kernarg_bytes"], k["kernarg_size"], "{path}");
                assert_eq!(row["scratch_bytes"], k["memory"]["scratch"], "{path}");
                assert_eq!(row["local_bytes"], k["memory"]["local"], "{path}");
            } else {
                assert_eq!(row["scratch_bytes"], k["memory"]["hw_private"], "{path}");
                assert_eq!(row["local_bytes"], k["memory"]["hw_local"], "{path}");
                let end = k["arguments"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|a| a["offset"].as_i64().unwrap() + a["cb_size"].as_i64().unwrap())
                    .max()
                    .unwrap_or(0);
                assert_eq!(int(&row["kernarg_bytes"]), Some(end), "{path}");
            }
        }
        *checked.entry(*format).or_insert(0) += rows.len();
    }
    eprintln!("rows checked against the single-file commands: {checked:?}");
    for f in [
        "visa-binary",
        "visa-text",
        "iga-json-1",
        "iga-json-2",
        "amd-cl1",
        "amd-cl2",
    ] {
        assert!(
            checked.get(f).copied().unwrap_or(0) > 0,
            "no {f} row checked"
        );
    }
}

#[test]
fn verify_rules_agree_with_visa_verify() {
    let Some(corpus) = corpus() else { return };
    // One directory of each vISA producer keeps this quick.
    let dirs = ["intel-legacy/skl", "intel/visaasm/tgllp"];
    for dir in dirs {
        let dir = corpus.join(dir);
        let rows = scan(&[os(&dir), os("--verify")]);
        let mut by_path: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for r in rows.iter().filter(|r| {
            matches!(r["format"].as_str(), Some("visa-binary" | "visa-text"))
                && !r["verify_rules"].is_null()
        }) {
            let list = by_path
                .entry(r["path"].as_str().unwrap().to_owned())
                .or_default();
            for rule in r["verify_rules"].as_array().unwrap() {
                list.push(rule.as_str().unwrap().to_owned());
            }
            assert_eq!(
                r["verify_findings"].as_i64().unwrap() as usize,
                r["verify_rules"].as_array().unwrap().len()
            );
        }
        assert!(!by_path.is_empty(), "{}: no vISA rows", dir.display());
        let paths: Vec<&String> = by_path.keys().collect();
        let reports = reports(&["visa", "verify", "--json=ndjson"], &paths);
        for (path, mut rules) in by_path {
            let report = &reports[&path];
            let mut want: Vec<String> = report["findings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f["rule"].as_str().unwrap().to_owned())
                .collect();
            want.sort();
            rules.sort();
            assert_eq!(rules, want, "{path}");
        }
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gpukit-scan-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn unreadable_files_give_error_rows() {
    let dir = temp_dir("unreadable");
    std::fs::copy(
        root().join("tests/data/visa/l02_local_sum__local_sum.isa"),
        dir.join("a.isa"),
    )
    .unwrap();
    std::os::unix::fs::symlink(dir.join("gone"), dir.join("b-dangling")).unwrap();
    std::fs::write(dir.join("c-locked"), b".version 3.6\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir.join("c-locked"), std::fs::Permissions::from_mode(0o000)).unwrap();
    // root reads a file of mode 000 anyway; then only the dangling link is unreadable.
    let locked = std::fs::read(dir.join("c-locked")).is_err();
    let missing = dir.join("d-missing");
    let rows = scan(&[os(&dir), os(&missing)]);
    let _ = std::fs::remove_dir_all(&dir);
    let by_path: BTreeMap<&str, &Value> = rows
        .iter()
        .map(|r| (r["path"].as_str().unwrap(), r))
        .collect();
    let row = |name: &str| by_path[dir.join(name).to_str().unwrap()];
    assert!(row("a.isa")["error"].is_null());
    assert_eq!(row("a.isa")["format"], "visa-binary");
    for name in ["b-dangling", "d-missing"] {
        let r = row(name);
        assert!(
            r["error"].as_str().unwrap().starts_with("cannot read"),
            "{r}"
        );
        assert!(r["format"].is_null());
    }
    if locked {
        assert!(row("c-locked")["error"]
            .as_str()
            .unwrap()
            .contains("Permission denied"));
    }
}

/// Rows as NDJSON lines and the same scan as Parquet, read back with the parquet
/// crate, then (under REQUIRE_PEERS=1, or when installed) with DuckDB.
#[test]
fn parquet_reads_back() {
    let Some(corpus) = corpus() else { return };
    let dir = temp_dir("parquet");
    let input = corpus.join("amd");
    let part = corpus.join("iga");
    let ndjson = scan(&[os(&input), os(&part)]);
    let out = dir.join("rows.parquet");
    let status = gpukit(&[
        os("scan"),
        os(&input),
        os(&part),
        os("--format"),
        os("parquet"),
        os("-o"),
        os(&out),
    ]);
    assert!(status.status.success());

    use arrow_array::{Array, Int64Array, StringArray};
    let file = std::fs::File::open(&out).unwrap();
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let mut n = 0;
    for batch in reader {
        let batch = batch.unwrap();
        let paths = batch
            .column_by_name("path")
            .unwrap()
            .as_any()
            .downcast_ref::<StringArray>()
            .unwrap();
        let instructions = batch
            .column_by_name("instructions")
            .unwrap()
            .as_any()
            .downcast_ref::<Int64Array>()
            .unwrap();
        let kernels = batch
            .column_by_name("kernel")
            .unwrap()
            .as_any()
            .downcast_ref::<StringArray>()
            .unwrap();
        for i in 0..batch.num_rows() {
            let row = &ndjson[n + i];
            assert_eq!(paths.value(i), row["path"].as_str().unwrap());
            assert_eq!(
                (!kernels.is_null(i)).then(|| kernels.value(i)),
                row["kernel"].as_str()
            );
            assert_eq!(
                (!instructions.is_null(i)).then(|| instructions.value(i)),
                row["instructions"].as_i64()
            );
        }
        n += batch.num_rows();
    }
    assert_eq!(n, ndjson.len());

    duckdb_agrees(&out, &ndjson);
    let _ = std::fs::remove_dir_all(&dir);
}

/// DuckDB's row count and a group-by over the Parquet equal the NDJSON's.
fn duckdb_agrees(parquet: &Path, ndjson: &[Value]) {
    let script = r#"
import duckdb, json, sys
con = duckdb.connect()
p = sys.argv[1]
n = con.execute("SELECT count(*) FROM read_parquet(?)", [p]).fetchone()[0]
groups = con.execute(
    "SELECT coalesce(format, ''), count(*), coalesce(sum(instructions), 0), "
    "count(error) FROM read_parquet(?) GROUP BY ALL ORDER BY 1", [p]).fetchall()
print(json.dumps({"rows": n, "groups": [list(g) for g in groups]}))
"#;
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(parquet)
        .output();
    let ok = out.as_ref().is_ok_and(|o| o.status.success());
    if !ok {
        let why = out.map_or_else(
            |e| e.to_string(),
            |o| String::from_utf8_lossy(&o.stderr).into_owned(),
        );
        assert!(
            std::env::var_os("REQUIRE_PEERS").is_none_or(|v| v != "1"),
            "DuckDB (python3 -m pip install duckdb) is required under REQUIRE_PEERS=1: {why}"
        );
        skipped(format_args!(
            "the DuckDB check: {}",
            why.trim().lines().last().unwrap_or("")
        ));
        return;
    }
    let got: Value = serde_json::from_slice(&out.unwrap().stdout).unwrap();
    let mut groups: BTreeMap<String, (i64, i64, i64)> = BTreeMap::new();
    for r in ndjson {
        let g = groups
            .entry(r["format"].as_str().unwrap_or("").to_owned())
            .or_default();
        g.0 += 1;
        g.1 += r["instructions"].as_i64().unwrap_or(0);
        g.2 += i64::from(r["error"].is_string());
    }
    let want: Vec<Value> = groups
        .into_iter()
        .map(|(f, (n, i, e))| serde_json::json!([f, n, i, e]))
        .collect();
    assert_eq!(got["rows"], ndjson.len());
    assert_eq!(got["groups"], Value::Array(want));
}

#[test]
fn shards_partition_the_scan() {
    let Some(corpus) = corpus() else { return };
    let input = corpus.join("amd");
    let whole = scan(&[os(&input)]);
    let mut union = Vec::new();
    let mut owner: BTreeMap<String, usize> = BTreeMap::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let part = scan(&[os(&input), os("--shard"), os(&shard)]);
        assert!(!part.is_empty(), "shard {shard} is empty");
        for r in &part {
            let p = r["path"].as_str().unwrap().to_owned();
            let prev = owner.insert(p.clone(), k);
            assert!(
                prev.is_none_or(|o| o == k),
                "{p} in shards {prev:?} and {k}"
            );
        }
        union.extend(part);
    }
    let key = |r: &Value| r.to_string();
    let a: BTreeSet<String> = union.iter().map(key).collect();
    let b: BTreeSet<String> = whole.iter().map(key).collect();
    assert_eq!(union.len(), whole.len());
    assert_eq!(a, b);
}

#[test]
fn output_inside_the_scanned_directory_is_not_a_row() {
    let dir = temp_dir("self");
    std::fs::copy(
        root().join("tests/data/visa/l02_local_sum__local_sum.isa"),
        dir.join("a.isa"),
    )
    .unwrap();
    let out = dir.join("rows.ndjson");
    // Rows of an earlier scan: replaced (any other file there is an input, see
    // `input_safety.rs`).
    std::fs::write(&out, b"{\"path\":\"old\",\"size_bytes\":1}\n").unwrap();
    for _ in 0..2 {
        let o = gpukit(&[os("scan"), os(&dir), os("-o"), os(&out)]);
        assert!(o.status.success());
    }
    let text = std::fs::read_to_string(&out).unwrap();
    let named = gpukit(&[os("scan"), os(&out), os("-o"), os(&out)]);
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.contains("a.isa"));
    assert_eq!(named.status.code(), Some(2));
    assert_eq!(names.len(), 2, "temporary files left: {names:?}");
}

#[test]
fn schema_file_is_current() {
    let out = gpukit(&[os("scan"), os("--schema")]);
    assert!(out.status.success());
    let path = root().join("docs/scan-schema.json");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &out.stdout).unwrap();
    }
    let committed = std::fs::read(&path).unwrap();
    assert!(
        committed == out.stdout,
        "docs/scan-schema.json differs from `gpukit scan --schema` (BLESS=1 rewrites it)"
    );
    // Every NDJSON row has exactly the schema's properties.
    let schema: Value = serde_json::from_slice(&committed).unwrap();
    let props: BTreeSet<&String> = schema["properties"].as_object().unwrap().keys().collect();
    let sample = root().join("tests/data/visa/l02_local_sum__local_sum.isa");
    let rows = scan(&[os(&sample)]);
    for r in rows {
        let keys: BTreeSet<&String> = r.as_object().unwrap().keys().collect();
        assert_eq!(keys, props);
    }
}

#[test]
fn paths_from_stdin() {
    use std::io::Write;
    let data = root().join("tests/data/visa");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpukit"))
        .args(["scan", "-", "--format", "csv"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let list = format!(
        "{}\n\n{}\n",
        data.join("trivial__empty_kernel.visaasm").display(),
        data.join("trivial__empty_kernel.isa").display()
    );
    child
        .stdin
        .take()
        .unwrap()
        .write_all(list.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("path,path_escaped,format,kernel,"));
    assert!(lines[1].contains("trivial__empty_kernel.visaasm,false,visa-text,empty_kernel,kernel,"));
    assert!(lines[2].contains("trivial__empty_kernel.isa,false,visa-binary,empty_kernel,kernel,"));
}

/// Intel program binaries (zebin, patch tokens): one row per kernel, with what
/// `intel info` reports for it (issue 23, M2).
#[test]
fn intel_program_rows_agree_with_intel_info() {
    let dir = root().join("tests/data/intel");
    let rows = scan(&[os(&dir)]);
    let (mut checked, mut zebins) = (0, 0);
    let mut files = Vec::new();
    files_under(&dir, &mut files);
    for file in files {
        let out = gpukit(&[os("intel"), os("info"), os("--json"), os(&file)]);
        let mine: Vec<&Value> = rows
            .iter()
            .filter(|r| r["path"].as_str() == file.to_str())
            .collect();
        if !out.status.success() {
            assert_eq!(mine.len(), 1, "{}", file.display());
            assert!(mine[0]["error"].is_string(), "{}", file.display());
            continue;
        }
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        let kernels = report["kernels"].as_array().unwrap();
        assert_eq!(
            mine.len(),
            kernels.len(),
            "{}: one row per kernel",
            file.display()
        );
        for (row, k) in mine.iter().zip(kernels) {
            let what = file.display();
            assert!(row["error"].is_null(), "{what}: {row}");
            assert_eq!(row["kernel"], k["name"], "{what}");
            assert_eq!(row["simd_size"], k["simd_size"], "{what}");
            assert_eq!(row["gen_binary_bytes"], k["gen_code_size"], "{what}");
            assert_eq!(row["local_bytes"], k["slm_size"], "{what}");
            assert_eq!(row["scratch_bytes"], k["private_size"], "{what}");
            assert_eq!(
                int(&row["arguments"]),
                Some(k["args"].as_array().unwrap().len() as i64),
                "{what}"
            );
            // Patch tokens: the header's family, which `intel info` shows; zebin: its
            // `IntelGT` note, which every zebin IGC writes has.
            let family = report["device"]
                .as_u64()
                .map(|d| d as u32)
                .or_else(|| gpukit_intel::gfxcore_family(&std::fs::read(&file).unwrap()));
            let platform = family.map(|d| {
                Value::from(
                    gpukit::platform::from_gfxcore_family(d)
                        .map_or_else(|| format!("gfxcore-family-{d}"), str::to_owned),
                )
            });
            assert!(platform.is_some(), "{what}: no platform");
            assert_eq!(row["platform"], platform.unwrap_or(Value::Null), "{what}");
            zebins += usize::from(report["format"] == "zebin");
            let format = match report["format"].as_str() {
                Some("zebin") => "intel-zebin",
                _ => "intel-patch-tokens",
            };
            assert_eq!(row["format"], format, "{what}");
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} Intel kernels checked");
    assert!(zebins > 0, "no zebin kernel checked");
}

/// Says that a test skipped, where `cargo test`'s output shows it: libtest hides what
/// a passing test prints with `eprintln!`, not a direct write to stderr.
fn skipped(why: std::fmt::Arguments) {
    use std::io::Write;
    let test = std::thread::current().name().unwrap_or("test").to_string();
    let _ = writeln!(std::io::stderr(), "skipped: {test} ({why})");
}

/// Issue 27's vocabulary over the whole corpus: one spelling per platform, `error_kind`
/// from its fixed set exactly when `error` is set, files of no GPU format skipped (not
/// errors), IGC `.asm` dumps as rows with their GRF mode and spill size; and the
/// README's spill query, run by DuckDB on the scan's Parquet, returns Intel rows.
#[test]
fn vocabulary_and_intel_spills() {
    let Some(corpus) = corpus() else { return };
    let rows = scan(&[os(&corpus)]);
    const KINDS: [&str; 5] = ["io", "malformed", "no-kernel", "undecoded", "internal"];
    const INTEL: [&str; 9] = [
        "bdw", "skl", "icllp", "tgllp", "xehp", "dg2", "mtl", "pvc", "xe2",
    ];
    let mut platforms = BTreeSet::new();
    let mut asm_rows = 0;
    let mut spilled = 0;
    for r in &rows {
        if let Some(p) = r["platform"].as_str() {
            assert_eq!(p, p.to_ascii_lowercase(), "{r}");
            platforms.insert(p.to_owned());
        }
        let kind = r["error_kind"].as_str();
        assert_eq!(kind.is_some(), r["error"].is_string(), "{r}");
        assert!(kind.is_none_or(|k| KINDS.contains(&k)), "{r}");
        if r["skipped"] == true {
            assert!(r["error"].is_null() && r["kernel"].is_null(), "{r}");
        }
        if r["format"] == "igc-asm-dump" {
            asm_rows += 1;
            assert!(
                r["kernel"].is_string() && r["gen_instructions"].is_i64(),
                "{r}"
            );
            spilled += usize::from(r["spill_bytes"].as_i64().unwrap() > 0);
        }
    }
    // The whole vocabulary: Intel's words and the AMD devices lower-cased, nothing
    // else (no `gfxcore-family-N`, no IGC or IGA spelling).
    const AMD: [&str; 2] = ["pitcairn", "bonaire"];
    for p in &platforms {
        assert!(
            INTEL.contains(&p.as_str()) || AMD.contains(&p.as_str()),
            "{p} is not in scan's vocabulary ({platforms:?})"
        );
    }
    // IGC's and IGA's spellings of the Intel platforms are all gone.
    for alias in ["xe", "xehpg", "xehpc", "icl", "pvcxt", "dg2/mtl", "gen9"] {
        assert!(!platforms.contains(alias), "{alias} in {platforms:?}");
    }
    assert!(platforms.iter().any(|p| INTEL.contains(&p.as_str())));
    assert!(
        asm_rows > 0 && spilled > 0,
        "{asm_rows} asm rows, {spilled} spilled"
    );
    // README.md files in the corpus are skipped, not errors.
    assert!(rows
        .iter()
        .filter(|r| r["path"].as_str().unwrap().ends_with("README.md"))
        .all(|r| r["skipped"] == true));

    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme.find("```sql\n").unwrap() + 7;
    let query = readme[start..].split(';').next().unwrap();
    let dir = temp_dir("spills");
    let out = dir.join("rows.parquet");
    let status = gpukit(&[
        os("scan"),
        os(&corpus),
        os("--format"),
        os("parquet"),
        os("-o"),
        os(&out),
    ]);
    assert!(status.status.success());
    let query = query.replace("'rows/*.parquet'", &format!("'{}'", out.display()));
    let script = format!(
        "import duckdb, json\nrows = duckdb.connect().execute({query:?}).fetchall()\n\
         print(json.dumps([[str(c) for c in r] for r in rows]))"
    );
    let run = Command::new("python3").arg("-c").arg(&script).output();
    let _ = std::fs::remove_dir_all(&dir);
    let Some(run) = run.ok().filter(|o| o.status.success()) else {
        assert!(!required(), "DuckDB is required under REQUIRE_PEERS=1");
        skipped(format_args!(
            "the README spill query: python3 -c 'import duckdb' fails"
        ));
        return;
    };
    let got: Vec<Vec<String>> = serde_json::from_slice(&run.stdout).unwrap();
    let intel = got
        .iter()
        .filter(|r| INTEL.contains(&r[1].as_str()))
        .count();
    assert!(
        intel > 0,
        "the README's spill query returns no Intel row: {got:?}"
    );
}

/// The README's first section, end to end: `ocloc` with IGC's shader dumps on the
/// README's kernel, then `scan` of the folder: the program binary, the `.asm` dump, the
/// vISA and the source are rows of kernel `scale` on `tgllp`, the other dumped files are
/// recognised or skipped (no error but the defective `.isa` of IGC 1.0.12198-13063,
/// whose text dump `visa dis --prefer-text` then prints). Needs `ocloc` (fails without
/// it under `REQUIRE_PEERS=1`).
#[test]
fn ocloc_dump_folder_rows() {
    let dir = temp_dir("ocloc");
    std::fs::copy(
        root().join("tests/data/visa/defective/scale.cl"),
        dir.join("k.cl"),
    )
    .unwrap();
    let run = Command::new("ocloc")
        .args(["compile", "-file", "k.cl", "-device", "tgllp"])
        .env("IGC_ShaderDumpEnable", "1")
        .env("IGC_DumpToCustomDir", "dump")
        .current_dir(&dir)
        .output();
    let Some(run) = run.ok().filter(|o| o.status.success()) else {
        assert!(!required(), "ocloc is required under REQUIRE_PEERS=1");
        skipped(format_args!("ocloc did not run"));
        return;
    };
    drop(run);
    let rows = scan(&[os(&dir)]);
    let of = |format: &str| -> Vec<&Value> {
        rows.iter()
            .filter(|r| r["format"] == format && r["kernel"] == "scale")
            .collect()
    };
    for format in ["igc-asm-dump", "visa-text", "opencl-c"] {
        assert!(
            !of(format).is_empty(),
            "no {format} row of scale: {rows:#?}"
        );
    }
    let binaries: Vec<&Value> = ["intel-patch-tokens", "intel-zebin"]
        .iter()
        .flat_map(|f| of(f))
        .collect();
    assert!(!binaries.is_empty(), "no program binary row: {rows:#?}");
    for r in binaries.iter().chain(&of("igc-asm-dump")) {
        assert_eq!(r["platform"], "tgllp", "{r}");
    }
    for r in &rows {
        let path = r["path"].as_str().unwrap();
        if r["error"].is_null() {
            continue;
        }
        assert!(path.ends_with(".isa"), "{r}");
        let out = gpukit(&[os("visa"), os("dis"), os(path)]);
        let err = String::from_utf8_lossy(&out.stderr);
        if !err.contains("writer defect") {
            continue;
        }
        assert!(err.contains(".visaasm (or pass --prefer-text"), "{err}");
        let text = gpukit(&[os("visa"), os("dis"), os("--prefer-text"), os(path)]);
        assert!(
            text.status.success(),
            "{}",
            String::from_utf8_lossy(&text.stderr)
        );
        assert!(String::from_utf8_lossy(&text.stdout).contains(".kernel \"scale\""));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
