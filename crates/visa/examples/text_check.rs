//! print(parse(text)) == text for every .visaasm given; reports first differences.
fn main() {
    let (mut ok, mut total, mut perr) = (0, 0, 0);
    for p in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&p).unwrap();
        total += 1;
        let obj = match gpukit_visa::text::parse_text(&text) {
            Ok(o) => o,
            Err(d) => {
                perr += 1;
                print!(
                    "{}",
                    d.render(&p, &text)
                        .lines()
                        .take(3)
                        .collect::<Vec<_>>()
                        .join("\n")
                );
                println!();
                continue;
            }
        };
        let got = gpukit_visa::text::print_text(&obj);
        if got == text {
            ok += 1;
            continue;
        }
        let (gl, wl): (Vec<_>, Vec<_>) = (got.split('\n').collect(), text.split('\n').collect());
        let i = gl
            .iter()
            .zip(&wl)
            .position(|(a, b)| a != b)
            .unwrap_or(gl.len().min(wl.len()));
        println!(
            "{p}:{}\n  got:  {:?}\n  want: {:?}",
            i + 1,
            gl.get(i),
            wl.get(i)
        );
    }
    println!("{ok} of {total} identical, {perr} parse errors");
}
