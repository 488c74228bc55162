//! Prints the kernels described by the AMD IL metadata blocks (`;ARGSTART`..`;ARGEND`)
//! of a text file (a metadata dump or an AMD IL program).
//!
//!     cargo run -p gpukit-amd --example metadata -- kernel.clo.meta
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: metadata FILE")?;
    let bytes = std::fs::read(&path)?;
    let blocks = gpukit_amd::metadata::parse_blocks(&bytes).map_err(|e| e.to_string())?;
    for block in &blocks {
        println!("{}", block.name);
    }
    println!("{path}: {} metadata block(s)", blocks.len());
    Ok(())
}
