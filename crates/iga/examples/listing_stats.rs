//! Reads an IGA JSON listing (`iga64 -Xprint-json`) and prints its platform, labels and
//! instruction count.
//!
//!     cargo run -p gpukit-iga --example listing_stats -- kernel.json
use gpukit_iga::model::Element;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: summary LISTING.json")?;
    let bytes = std::fs::read(&path)?;
    // Lenient: iga64's known syntax defects are repaired and reported, not fatal.
    let parsed = gpukit_iga::parse(&bytes, gpukit_iga::Mode::Lenient).map_err(|e| e.to_string())?;
    let listing = &parsed.listing;
    let labels = listing
        .elems
        .iter()
        .filter(|e| matches!(e, Element::Label(_)))
        .count();
    let instructions = listing.elems.len() - labels;
    println!(
        "{path}: IGA JSON {:?} for {}, {labels} labels, {instructions} instructions, {} repairs",
        listing.version,
        listing.platform,
        parsed.repairs.len()
    );
    Ok(())
}
