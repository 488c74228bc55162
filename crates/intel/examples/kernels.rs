//! Prints each kernel of an Intel OpenCL program binary (ocloc output) with its SIMD size.
//!
//!     cargo run -p gpukit-intel --example kernels -- program.bin
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: kernels PROGRAM.bin")?;
    let program = gpukit_intel::read(&std::fs::read(&path)?).map_err(|e| e.to_string())?;
    for k in &program.kernels {
        println!("{} simd{}", k.name, k.simd_size);
    }
    Ok(())
}
