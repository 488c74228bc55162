//! Compares gpukit's text with IGC's dumps and reports the first difference per file:
//!   text_check FILE.visaasm...   print(parse(text)) == text
//!   text_check FILE.isa...       dis(isa) == the .visaasm beside it (the header only,
//!                                for binaries whose instruction stream does not decode)
fn first_difference(got: &str, want: &str) -> String {
    let (gl, wl): (Vec<_>, Vec<_>) = (got.split('\n').collect(), want.split('\n').collect());
    let i = gl
        .iter()
        .zip(&wl)
        .position(|(a, b)| a != b)
        .unwrap_or(gl.len().min(wl.len()));
    format!(
        "{}\n  got:  {:?}\n  want: {:?}",
        i + 1,
        gl.get(i),
        wl.get(i)
    )
}

fn main() {
    let (mut ok, mut total) = (0, 0);
    for p in std::env::args().skip(1) {
        total += 1;
        let (got, want) = if p.ends_with(".isa") {
            let Ok(mut want) =
                std::fs::read_to_string(std::path::Path::new(&p).with_extension("visaasm"))
            else {
                continue;
            };
            let obj = match gpukit_visa::read_lenient(&std::fs::read(&p).unwrap()) {
                Ok(o) => o,
                Err(e) => {
                    println!("{p}: read error {e}");
                    continue;
                }
            };
            let mut got = gpukit_visa::text::print_text(&obj);
            if obj
                .kernels
                .iter()
                .any(|k| k.body.code.instructions().is_none())
            {
                let cut = want.find("\n.function").map_or(want.len(), |i| i + 1);
                want = want[..cut].trim_end_matches(['\n', ' ']).to_string();
                got = got.trim_end_matches(['\n', ' ']).to_string();
            }
            (got, want)
        } else {
            let text = std::fs::read_to_string(&p).unwrap();
            match gpukit_visa::text::parse_text(&text) {
                Ok(obj) => (gpukit_visa::text::print_text(&obj), text),
                Err(d) => {
                    println!(
                        "{}",
                        d.render(&p, &text)
                            .lines()
                            .take(3)
                            .collect::<Vec<_>>()
                            .join("\n")
                    );
                    continue;
                }
            }
        };
        if got == want {
            ok += 1;
        } else {
            println!("{p}:{}", first_difference(&got, &want));
        }
    }
    println!("{ok} of {total} identical");
}
