//! Reads a `.isa` file and prints its version and each routine's instruction count.
//!
//!     cargo run -p gpukit-visa --example summary -- kernel.isa
use std::error::Error;

fn main() -> Result<(), Box<dyn Error>> {
    let path = std::env::args().nth(1).ok_or("usage: summary FILE.isa")?;
    let object = gpukit_visa::read(&std::fs::read(&path)?)?;
    println!("{path}: vISA {}", object.version);
    for (kind, name, body) in object
        .kernels
        .iter()
        .map(|k| ("kernel", &k.name, &k.body))
        .chain(
            object
                .functions
                .iter()
                .map(|f| ("function", &f.name, &f.body)),
        )
    {
        let count = body.code.instructions_or_empty().len();
        let name = String::from_utf8_lossy(name);
        println!("{kind} {name}: {count} instructions");
    }
    // Writing gives back the same bytes for every file IGC wrote.
    assert_eq!(gpukit_visa::write(&object)?, std::fs::read(&path)?);
    Ok(())
}
