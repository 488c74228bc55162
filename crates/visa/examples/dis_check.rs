//! Compares `print_text(read(isa))` with IGC's dump beside each file; prints the first
//! differing line of each mismatch and a count.
fn main() {
    let mut ok = 0;
    let mut total = 0;
    for p in std::env::args().skip(1) {
        let bytes = std::fs::read(&p).unwrap();
        let want = std::fs::read_to_string(std::path::Path::new(&p).with_extension("visaasm"))
            .unwrap_or_default();
        total += 1;
        let obj = match gpukit_visa::read_lenient(&bytes) {
            Ok(o) => o,
            Err(e) => {
                println!("{p}: read error {e}");
                continue;
            }
        };
        let got = gpukit_visa::text::print_text(&obj);
        if got == want {
            ok += 1;
            continue;
        }
        let (gl, wl): (Vec<_>, Vec<_>) = (got.split('\n').collect(), want.split('\n').collect());
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
    println!("{ok} of {total} identical");
}
