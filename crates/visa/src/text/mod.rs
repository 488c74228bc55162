//! vISA assembly text (`.visaasm`).

mod printer;
mod style;
mod template;

pub use printer::{print_routine, print_text};
pub use style::Style;
