//! vISA assembly text (`.visaasm`).

mod printer;
mod style;

pub use printer::{print_routine, print_text};
pub use style::Style;
