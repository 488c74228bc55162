//! The element array is read into the model as the parse goes when the root's
//! `"version"` comes first, and from the whole tree otherwise. Both must give the
//! same listing, and the same error (kind, path, message) for the same fault,
//! whatever else is wrong in the document.

use gpukit_iga::{parse, write, Mode};

const LABEL: &str = r#"{"kind":"L","id":0,"symbol":"k","succs":[]}"#;
const NOP: &str = r#"{"kind":"I","id":0,"op":"nop","es":1,"srcs":[]}"#;

/// (name, version, array key, array text, other root members)
const CASES: &[(&str, &str, &str, &str, &str)] = &[
    (
        "valid",
        "2.0",
        "elems",
        "[LABEL,NOP,NOP]",
        r#","platform":"xe""#,
    ),
    (
        "valid 1.0",
        "1.0",
        "insts",
        "[NOP,NOP]",
        r#","platform":"xe""#,
    ),
    ("empty", "2.0", "elems", "[]", r#","platform":"xe""#),
    (
        "element lacks op",
        "2.0",
        "elems",
        r#"[LABEL,{"kind":"I","id":1,"es":1,"srcs":[]},NOP]"#,
        r#","platform":"xe""#,
    ),
    (
        "element error, then a syntax error",
        "2.0",
        "elems",
        r#"[{"kind":"I"},NOP]"#,
        r#","platform":"xe","x":[1,]"#,
    ),
    (
        "element error, then an unknown root key",
        "2.0",
        "elems",
        r#"[NOP,{"kind":"Q"}]"#,
        r#","platform":"xe","unknown":1"#,
    ),
    (
        "element error, no platform",
        "2.0",
        "elems",
        r#"[{"kind":"Q"}]"#,
        "",
    ),
    (
        "element not an object",
        "2.0",
        "elems",
        "[NOP,1]",
        r#","platform":"xe""#,
    ),
    (
        "two element arrays",
        "2.0",
        "elems",
        "[NOP]",
        r#","platform":"xe","elems":[NOP]"#,
    ),
    (
        "1.0 element error",
        "1.0",
        "insts",
        r#"[{"kind":"I","id":"0"}]"#,
        r#","platform":"xe""#,
    ),
];

fn outcome(doc: &str, mode: Mode) -> String {
    match parse(doc.as_bytes(), mode) {
        Ok(p) => format!(
            "ok:\n{}",
            String::from_utf8_lossy(&write(&p.listing, p.listing.version))
        ),
        Err(e) => format!("error {:?} at {}: {}", e.kind, e.path, e.message),
    }
}

#[test]
fn streamed_and_whole_tree_reads_agree() {
    for &(name, version, key, array, rest) in CASES {
        let fill = |t: &str| t.replace("LABEL", LABEL).replace("NOP", NOP);
        let (array, rest) = (fill(array), fill(rest));
        let streamed = format!(r#"{{"version":"{version}","{key}":{array}{rest}}}"#);
        let whole = format!(r#"{{"{key}":{array}{rest},"version":"{version}"}}"#);
        for mode in [Mode::Strict, Mode::Lenient] {
            let a = outcome(&streamed, mode);
            let b = outcome(&whole, mode);
            assert_eq!(a, b, "{name} ({mode:?}):\n{streamed}\n{whole}");
        }
    }
}
