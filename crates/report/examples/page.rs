//! Writes a one-kernel HTML page with a summary table and an instruction-mix chart.
//!
//!     cargo run -p gpukit-report --example page > page.html
use gpukit_report::{render_page, Bars, Kernel, Page};

fn main() {
    let kernel = Kernel {
        name: "saxpy".into(),
        summary: vec![
            ("SIMD".into(), "16".into()),
            ("instructions".into(), "42".into()),
        ],
        bars: vec![Bars::mix(vec![
            ("mad".into(), 20),
            ("mov".into(), 12),
            ("send".into(), 10),
        ])],
        ..Default::default()
    };
    let page = Page {
        title: "example".into(),
        facts: vec![("source".into(), "hand-made".into())],
        kernels: vec![kernel],
    };
    print!("{}", render_page(&page));
}
