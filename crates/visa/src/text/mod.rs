//! vISA assembly text (`.visaasm`): printer and parser, both driven by the
//! instruction templates of `crate::isa::syntax`.

mod cursor;
mod diagnostic;
mod hash;
mod parser;
mod printer;
mod style;
mod template;

pub use diagnostic::{Diagnostic, Diagnostics};
pub use parser::{parse_text, parse_text_for, parse_text_with, ParseOptions};
pub use printer::{
    print_routine, print_routine_with, print_text, print_text_with, write_text_with, PrintOptions,
    RoutinePrinter, RoutineRef,
};
pub use style::Style;
