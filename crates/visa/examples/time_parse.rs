//! Mean parse time of a .visaasm over many runs (for comparing with GenX_IR's IR_Build timer).
fn main() {
    let path = std::env::args().nth(1).expect("file");
    let text = std::fs::read_to_string(&path).unwrap();
    let n = 200;
    let t = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(gpukit_visa::text::parse_text(&text).unwrap());
    }
    let per = t.elapsed().as_secs_f64() / n as f64;
    println!(
        "{path}: {} bytes, parse {:.3} ms ({:.1} MB/s)",
        text.len(),
        per * 1e3,
        text.len() as f64 / per / 1e6
    );
}
