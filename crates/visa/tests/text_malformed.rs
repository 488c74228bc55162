//! Malformed vISA text: each `tests/data/visa/malformed/<case>.visaasm` has its
//! expected diagnostics beside it in `<case>.expected`. `BLESS=1` rewrites them.

mod common;

#[test]
fn malformed_texts_report_expected_diagnostics() {
    let dir = common::workspace_root().join("tests/data/visa/malformed");
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    let cases = common::files(&dir, ".visaasm");
    assert!(cases.len() >= 10);
    for case in &cases {
        let text = std::fs::read_to_string(case).unwrap();
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let got = match gpukit_visa::text::parse_text(&text) {
            Ok(_) => "parsed without error\n".to_string(),
            Err(d) => d.render(&name, &text),
        };
        let expected_path = case.with_extension("expected");
        if bless {
            std::fs::write(&expected_path, &got).unwrap();
        }
        let want = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != want {
            failures.push(format!("{name}\n--- expected\n{want}--- got\n{got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
