//! Writes the generated large kernel (see `benches/large_kernel.rs`):
//! `cargo run --release -p gpukit-visa --example large_kernel -- OUT.visaasm [MEGABYTES]`
//! (default 20 MB).

use std::path::Path;

#[path = "../benches/large_kernel.rs"]
mod large_kernel;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(out), megabytes) = (args.next(), args.next()) else {
        eprintln!("usage: large_kernel OUT.visaasm [MEGABYTES]");
        std::process::exit(2);
    };
    let bytes = match megabytes.map(|m| m.parse::<f64>()) {
        None => large_kernel::DEFAULT_BYTES,
        Some(Ok(m)) if m > 0.0 && m < 4096.0 => (m * (1 << 20) as f64) as usize,
        Some(_) => {
            eprintln!("large_kernel: MEGABYTES must be a number in (0, 4096)");
            std::process::exit(2);
        }
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let text = large_kernel::generate(&large_kernel::seed(&root), bytes);
    if let Err(e) = std::fs::write(&out, &text) {
        eprintln!("large_kernel: {out}: {e}");
        std::process::exit(1);
    }
    eprintln!("large_kernel: wrote {} bytes to {out}", text.len());
}
