//! For defective 4.1 binaries: compares the printed header (everything before the first
//! instruction) with IGC's dump.
fn main() {
    let (mut ok, mut total) = (0, 0);
    for p in std::env::args().skip(1) {
        let bytes = std::fs::read(&p).unwrap();
        let Ok(want) = std::fs::read_to_string(std::path::Path::new(&p).with_extension("visaasm"))
        else {
            continue;
        };
        let obj = gpukit_visa::read_lenient(&bytes).unwrap();
        let got = gpukit_visa::text::print_text(&obj);
        let cut = want
            .find("\n.function")
            .map(|i| i + 1)
            .unwrap_or(want.len());
        let want_head = want[..cut].trim_end_matches(['\n', ' ']);
        let got_head = got.trim_end_matches(['\n', ' ']);
        total += 1;
        if want_head == got_head {
            ok += 1;
        } else {
            let (gl, wl): (Vec<_>, Vec<_>) = (
                got_head.split('\n').collect(),
                want_head.split('\n').collect(),
            );
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
    }
    println!("{ok} of {total} headers identical");
}
