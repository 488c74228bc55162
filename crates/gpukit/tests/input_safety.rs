//! Issue 23's promise for what a user points gpukit at: no output replaces an input
//! (scan `-o`, report pages; by name, symlink, hard link, later root, stdin list),
//! no read is endless (FIFOs, devices, files over the input cap), and no output is
//! ambiguous (hostile file names give distinct, exact rows in NDJSON, CSV and
//! Parquet; control characters never reach stderr raw).

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn visa(name: &str) -> PathBuf {
    root().join("tests/data/visa").join(name)
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gpukit-safety-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn gpukit<S: AsRef<OsStr>>(args: &[S], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpukit"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

/// Every file under `dir` (recursively) and its bytes, links as their target text.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for p in names {
        let m = std::fs::symlink_metadata(&p).unwrap();
        if m.is_symlink() {
            out.push((
                p.clone(),
                std::fs::read_link(&p).unwrap().into_os_string().into_vec(),
            ));
        } else if m.is_dir() {
            out.extend(snapshot(&p));
        } else {
            out.push((p.clone(), std::fs::read(&p).unwrap()));
        }
    }
    out
}

const FORMATS: [&str; 3] = ["ndjson", "csv", "parquet"];

/// One way of making the scan's output one of its inputs: builds it under `dir`
/// and gives the scan's arguments and its stdin.
struct Case {
    name: &'static str,
    setup: fn(&Path) -> (Vec<OsString>, Vec<u8>),
}

fn tree(dir: &Path) -> PathBuf {
    let t = dir.join("tree");
    std::fs::create_dir_all(&t).unwrap();
    std::fs::copy(visa("l02_local_sum__local_sum.isa"), t.join("a.isa")).unwrap();
    std::fs::copy(visa("trivial__empty_kernel.isa"), t.join("b.isa")).unwrap();
    t
}

fn args(list: &[&Path]) -> Vec<OsString> {
    list.iter().map(|p| p.as_os_str().to_owned()).collect()
}

const CASES: &[Case] = &[
    Case {
        name: "output is a file in the tree",
        setup: |d| {
            let t = tree(d);
            (args(&[&t, Path::new("-o"), &t.join("b.isa")]), vec![])
        },
    },
    Case {
        name: "output is a symlink to a file in the tree",
        setup: |d| {
            let t = tree(d);
            let link = d.join("link.isa");
            std::os::unix::fs::symlink(t.join("a.isa"), &link).unwrap();
            (args(&[&t, Path::new("-o"), &link]), vec![])
        },
    },
    Case {
        name: "output is a hard link to a file in the tree",
        setup: |d| {
            let t = tree(d);
            let link = d.join("hard.isa");
            std::fs::hard_link(t.join("a.isa"), &link).unwrap();
            (args(&[&t, Path::new("-o"), &link]), vec![])
        },
    },
    Case {
        name: "output is a later root",
        setup: |d| {
            let t = tree(d);
            let other = d.join("other.isa");
            std::fs::copy(visa("trivial__empty_kernel.isa"), &other).unwrap();
            (args(&[&t, &other, Path::new("-o"), &other]), vec![])
        },
    },
    Case {
        name: "a link in the tree leads back to the output",
        setup: |d| {
            let t = tree(d);
            let out = d.join("out.isa");
            std::fs::copy(visa("trivial__empty_kernel.isa"), &out).unwrap();
            std::os::unix::fs::symlink(&out, t.join("z-back")).unwrap();
            (args(&[&t, Path::new("-o"), &out]), vec![])
        },
    },
    Case {
        name: "the stdin list names the output",
        setup: |d| {
            let t = tree(d);
            let list = format!(
                "{}\n{}\n",
                t.join("a.isa").display(),
                t.join("b.isa").display()
            );
            (
                args(&[Path::new("-"), Path::new("-o"), &t.join("b.isa")]),
                list.into_bytes(),
            )
        },
    },
    Case {
        name: "earlier rows of another format are an input like any other file",
        setup: |d| {
            let t = tree(d);
            std::fs::write(t.join("notes.txt"), b"my notes, not rows\n").unwrap();
            (args(&[&t, Path::new("-o"), &t.join("notes.txt")]), vec![])
        },
    },
    Case {
        name: "a JSON file that is not a scan's rows",
        setup: |d| {
            let t = tree(d);
            std::fs::write(t.join("config.json"), b"{\"path\": \"/usr/lib\"}\n").unwrap();
            (args(&[&t, Path::new("-o"), &t.join("config.json")]), vec![])
        },
    },
];

#[test]
fn scan_never_replaces_an_input() {
    for format in FORMATS {
        for case in CASES {
            let dir = temp_dir(&format!("scan-{format}"));
            let (mut a, stdin) = (case.setup)(&dir);
            let before = snapshot(&dir);
            let mut all: Vec<OsString> = vec!["scan".into(), "--format".into(), format.into()];
            all.append(&mut a);
            let out = gpukit(&all, &stdin);
            let after = snapshot(&dir);
            let _ = std::fs::remove_dir_all(&dir);
            let what = format!("{format}, {}", case.name);
            assert_eq!(out.status.code(), Some(2), "{what}: {out:?}");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                stderr.contains("refusing to replace an input"),
                "{what}: {stderr}"
            );
            // Nothing written: every file as it was, no temporary left.
            assert!(before == after, "{what}: the files changed");
        }
    }
}

#[test]
fn scan_replaces_its_own_earlier_rows_in_the_tree() {
    for format in FORMATS {
        let dir = temp_dir(&format!("rerun-{format}"));
        let t = tree(&dir);
        let out = t.join(format!("rows.{format}"));
        let run = || {
            gpukit(
                &[
                    OsStr::new("scan"),
                    t.as_os_str(),
                    OsStr::new("--format"),
                    OsStr::new(format),
                    OsStr::new("-o"),
                    out.as_os_str(),
                ],
                b"",
            )
        };
        let first = run();
        let once = std::fs::read(&out).unwrap();
        let second = run();
        let twice = std::fs::read(&out).unwrap();
        let names = std::fs::read_dir(&t).unwrap().count();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(first.status.success(), "{format}: {first:?}");
        assert!(second.status.success(), "{format}: {second:?}");
        assert!(
            once == twice,
            "{format}: the rerun's rows differ (the old rows read?)"
        );
        assert_eq!(names, 3, "{format}: temporary files left");
    }
}

#[test]
fn report_pages_never_replace_inputs() {
    let a_src = visa("l02_local_sum__local_sum.visaasm");
    let b_src = visa("trivial__empty_kernel.visaasm");
    type Setup = fn(&Path, &Path, &Path) -> Vec<PathBuf>;
    let cases: [(&str, Setup); 4] = [
        (
            "an earlier input is named like a later input's page",
            |d, _, b| {
                std::fs::create_dir_all(d.join("out")).unwrap();
                let earlier = d.join("out/b.visaasm.html");
                std::fs::copy(visa("trivial__empty_kernel.visaasm"), &earlier).unwrap();
                vec![earlier, b.to_path_buf()]
            },
        ),
        (
            "a symlink at a page's name leads to a later input",
            |d, a, b| {
                std::fs::create_dir_all(d.join("out")).unwrap();
                std::os::unix::fs::symlink(b, d.join("out/a.visaasm.html")).unwrap();
                vec![a.to_path_buf(), b.to_path_buf()]
            },
        ),
        (
            "a hard link at a page's name is a later input",
            |d, a, b| {
                std::fs::create_dir_all(d.join("out")).unwrap();
                std::fs::hard_link(b, d.join("out/a.visaasm.html")).unwrap();
                vec![a.to_path_buf(), b.to_path_buf()]
            },
        ),
        (
            "a later input is named like an earlier input's page",
            |d, a, _| {
                std::fs::create_dir_all(d.join("out")).unwrap();
                let later = d.join("out/a.visaasm.html");
                std::fs::copy(visa("trivial__empty_kernel.visaasm"), &later).unwrap();
                vec![a.to_path_buf(), later]
            },
        ),
    ];
    for (name, setup) in cases {
        let dir = temp_dir("report");
        std::fs::create_dir_all(dir.join("src")).unwrap();
        let (a, b) = (dir.join("src/a.visaasm"), dir.join("src/b.visaasm"));
        std::fs::copy(&a_src, &a).unwrap();
        std::fs::copy(&b_src, &b).unwrap();
        let inputs = setup(&dir, &a, &b);
        let before = snapshot(&dir);
        let mut all: Vec<OsString> = vec!["report".into()];
        all.extend(inputs.iter().map(|p| p.as_os_str().to_owned()));
        all.extend(["--dir".into(), dir.join("out").into_os_string()]);
        let out = gpukit(&all, b"");
        let after = snapshot(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(out.status.code(), Some(2), "{name}: {out:?}");
        assert!(before == after, "{name}: files changed");
    }
}

fn mkfifo(path: &Path) {
    let s = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(s.success());
}

/// Inputs that never end, or whose open or read would wait for a writer: refused
/// with exit 1 (scan: an error row), never read to exhaustion, never waited on.
#[test]
fn endless_inputs_are_refused() {
    let dir = temp_dir("endless");
    let fifo = dir.join("fifo.isa");
    mkfifo(&fifo);
    let zero_link = dir.join("zero.isa");
    std::os::unix::fs::symlink("/dev/zero", &zero_link).unwrap();
    // Over the input cap without holding the bytes (sparse).
    let huge = dir.join("huge.visaasm");
    let f = std::fs::File::create(&huge).unwrap();
    std::io::Write::write_all(&mut &f, b".version 3.6\n.kernel \"k\"\n").unwrap();
    f.set_len(257 << 20).unwrap();
    let commands: [&[&str]; 6] = [
        &["visa", "info"],
        &["intel", "info"],
        &["amd", "info"],
        &["iga", "check"],
        &["visa", "verify"],
        &["info"],
    ];
    for cmd in commands {
        for input in [&fifo, &zero_link, Path::new("/dev/zero")] {
            let mut a: Vec<&OsStr> = cmd.iter().map(OsStr::new).collect();
            a.push(input.as_os_str());
            let out = gpukit(&a, b"");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(
                out.status.code(),
                Some(1),
                "{cmd:?} {}: {stderr}",
                input.display()
            );
            assert!(stderr.contains("not a regular file"), "{cmd:?}: {stderr}");
        }
    }
    let out = gpukit(
        &[OsStr::new("visa"), OsStr::new("verify"), huge.as_os_str()],
        b"",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("larger than 256 MiB"), "{stderr}");
    // scan: every one an error row, the scan goes on and ends.
    let out = gpukit(&[OsStr::new("scan"), dir.as_os_str()], b"");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "{out:?}");
    let rows: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3);
    assert!(rows[0]["error"].as_str().unwrap().contains("FIFO"));
    assert!(rows[1]["error"]
        .as_str()
        .unwrap()
        .contains("larger than 256 MiB"));
    assert!(rows[2]["error"]
        .as_str()
        .unwrap()
        .contains("not a regular file"));
}

const SOURCE: &[u8] = b"__kernel void k(__global int *a) { a[0] = 1; }\n";

/// Names that collided or were mangled before: invalid UTF-8 next to a real U+FFFD,
/// an escape character next to its spelling, CR, quotes and commas, formula starts.
fn hostile_names() -> Vec<(Vec<u8>, &'static str, bool)> {
    vec![
        (b"a\xff.cl".to_vec(), "a\\xff.cl", true),
        ("a\u{fffd}.cl".as_bytes().to_vec(), "a\u{fffd}.cl", false),
        (b"b\\\xfe.cl".to_vec(), "b\\\\\\xfe.cl", true),
        (b"esc\x1b.cl".to_vec(), "esc\x1b.cl", false),
        (b"esc\\x1b.cl".to_vec(), "esc\\x1b.cl", false),
        (b"cr\rret.cl".to_vec(), "cr\rret.cl", false),
        (b"q\"uo,te.cl".to_vec(), "q\"uo,te.cl", false),
        (b"=1+1.cl".to_vec(), "=1+1.cl", false),
    ]
}

/// RFC 4180 records (quoted fields with doubled quotes, CR and LF inside quotes).
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let (mut rows, mut row, mut field) = (Vec::new(), Vec::new(), String::new());
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    rows
}

fn parquet_paths(file: &Path) -> Vec<(String, bool)> {
    use arrow_array::{Array, BooleanArray, StringArray};
    let f = std::fs::File::open(file).unwrap();
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(f)
        .unwrap()
        .build()
        .unwrap();
    let mut out = Vec::new();
    for batch in reader {
        let batch = batch.unwrap();
        let col = |n: &str| batch.column_by_name(n).unwrap().clone();
        let paths = col("path");
        let paths = paths.as_any().downcast_ref::<StringArray>().unwrap();
        let escaped = col("path_escaped");
        let escaped = escaped.as_any().downcast_ref::<BooleanArray>().unwrap();
        for i in 0..batch.num_rows() {
            assert!(!escaped.is_null(i));
            out.push((paths.value(i).to_owned(), escaped.value(i)));
        }
    }
    out
}

#[test]
fn hostile_names_give_distinct_exact_rows_in_every_format() {
    let dir = temp_dir("names");
    let names = dir.join("n");
    std::fs::create_dir_all(&names).unwrap();
    let mut expected = Vec::new();
    for (bytes, spelled, escaped) in hostile_names() {
        let mut p = names.clone().into_os_string().into_vec();
        p.push(b'/');
        p.extend_from_slice(&bytes);
        std::fs::write(OsStr::from_bytes(&p), SOURCE).unwrap();
        expected.push((format!("{}/{spelled}", names.display()), escaped));
    }
    // The walk's order: names sorted bytewise.
    let mut order: Vec<_> = hostile_names().into_iter().zip(expected).collect();
    order.sort_by(|a, b| a.0 .0.cmp(&b.0 .0));
    let expected: Vec<(String, bool)> = order.into_iter().map(|(_, e)| e).collect();

    let scan_to = |format: &str, extra: &[&str]| -> PathBuf {
        let out = dir.join(format!("rows{}.{format}", extra.len()));
        let mut a: Vec<&OsStr> = vec![
            OsStr::new("scan"),
            names.as_os_str(),
            OsStr::new("--format"),
            OsStr::new(format),
            OsStr::new("-o"),
            out.as_os_str(),
        ];
        a.extend(extra.iter().map(OsStr::new));
        let o = gpukit(&a, b"");
        assert!(o.status.success(), "{o:?}");
        out
    };
    let ndjson: Vec<(String, bool)> = std::fs::read_to_string(scan_to("ndjson", &[]))
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["path"].as_str().unwrap().to_owned(),
                v["path_escaped"].as_bool().unwrap(),
            )
        })
        .collect();
    let csv_text = std::fs::read_to_string(scan_to("csv", &[])).unwrap();
    let records = parse_csv(&csv_text);
    assert_eq!(records[0][0..2], ["path", "path_escaped"]);
    let csv: Vec<(String, bool)> = records[1..]
        .iter()
        .map(|r| (r[0].clone(), r[1] == "true"))
        .collect();
    let parquet = parquet_paths(&scan_to("parquet", &[]));
    let guarded = std::fs::read_to_string(scan_to("csv", &["--csv-formula-guard"])).unwrap();
    let _ = std::fs::remove_dir_all(&dir);

    assert_eq!(ndjson, expected);
    assert_eq!(csv, expected);
    assert_eq!(parquet, expected);
    // Control characters are exact in the CSV file, not `\x1b` text.
    assert!(csv_text.contains("esc\x1b.cl"));
    // The guard: a cell starting with `=` gets a `'`; the plain CSV keeps it exact.
    let guarded = parse_csv(&guarded);
    let formula: Vec<&str> = guarded[1..]
        .iter()
        .map(|r| r[0].as_str())
        .filter(|c| c.contains("=1+1"))
        .collect();
    assert_eq!(formula.len(), 1);
    assert!(!formula[0].starts_with('\'')); // the path starts with the directory
    let kernel_guard = |name: &str| {
        let mut cell = Vec::new();
        let dir = temp_dir("guard");
        let f = dir.join("k.visaasm");
        std::fs::write(
            &f,
            format!(
                ".version 4.2\n\n.kernel \"{name}\"\n.kernel_attr Target=\"cm\"\n.function \"_main_0\"\n_main_0:\n    ret (M1, 1)\n"
            ),
        )
        .unwrap();
        for extra in [&[][..], &["--csv-formula-guard"][..]] {
            let mut a = vec!["scan", f.to_str().unwrap(), "--format", "csv"];
            a.extend_from_slice(extra);
            let o = gpukit(&a, b"");
            assert!(o.status.success(), "{o:?}");
            let recs = parse_csv(&String::from_utf8(o.stdout).unwrap());
            let at = recs[0].iter().position(|c| c == "kernel").unwrap();
            cell.push(recs[1][at].clone());
        }
        let _ = std::fs::remove_dir_all(&dir);
        cell
    };
    for name in ["=1+1", "@SUM(1,2)", "-2+3", "+cmd"] {
        assert_eq!(kernel_guard(name), [name.to_owned(), format!("'{name}")]);
    }
    assert_eq!(kernel_guard("plain"), ["plain", "plain"]);
}

/// A file name's control characters reach stderr escaped, from every command.
#[test]
fn control_characters_in_names_never_reach_stderr_raw() {
    let dir = temp_dir("stderr");
    let name = dir.join("ok\x1b]0;PWNED\x07\x1b[31mred.visaasm");
    std::fs::copy(visa("trivial__empty_kernel.visaasm"), &name).unwrap();
    let pages = dir.join("pages");
    let runs: [Vec<&OsStr>; 3] = [
        vec![
            OsStr::new("report"),
            name.as_os_str(),
            OsStr::new("--dir"),
            pages.as_os_str(),
        ],
        vec![OsStr::new("visa"), OsStr::new("verify"), name.as_os_str()],
        vec![OsStr::new("visa"), OsStr::new("info"), name.as_os_str()],
    ];
    for a in runs {
        let out = gpukit(&a, b"");
        // Text on stdout is escaped by the output contract, stderr by print_stderr.
        let both = [out.stdout, out.stderr].concat();
        let shown = String::from_utf8_lossy(&both);
        assert!(
            !both.iter().any(|&b| b == 0x1b || b == 0x07),
            "{a:?}: {shown}"
        );
        assert!(shown.contains("ok\\x1b]0;PWNED\\x07"), "{a:?}: {shown}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two pages that are one file (a symlink from one page's name to another's) are
/// refused before either is written.
#[test]
fn report_pages_that_are_one_file_are_refused() {
    let dir = temp_dir("twopages");
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::os::unix::fs::symlink("b.visaasm.html", out.join("a.visaasm.html")).unwrap();
    let (a, b) = (dir.join("a.visaasm"), dir.join("b.visaasm"));
    std::fs::copy(visa("trivial__empty_kernel.visaasm"), &a).unwrap();
    std::fs::copy(visa("trivial__empty_kernel.visaasm"), &b).unwrap();
    let before = snapshot(&dir);
    let o = gpukit(
        &[
            OsStr::new("report"),
            a.as_os_str(),
            b.as_os_str(),
            OsStr::new("--dir"),
            out.as_os_str(),
        ],
        b"",
    );
    let after = snapshot(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("write it twice"));
    assert!(before == after);
}

/// `gpukit scan dir > dir/rows.ndjson`: the file the shell opened as stdout is the
/// scan's own output, never a row.
#[test]
fn scan_stdout_file_in_the_tree_is_not_a_row() {
    let dir = temp_dir("stdout");
    let t = tree(&dir);
    let rows = t.join("rows.ndjson");
    let out = Command::new(env!("CARGO_BIN_EXE_gpukit"))
        .arg("scan")
        .arg(&t)
        .stdout(std::fs::File::create(&rows).unwrap())
        .output()
        .unwrap();
    let text = std::fs::read_to_string(&rows).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(!text.contains("rows.ndjson"), "{text}");
}
