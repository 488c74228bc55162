//! How much of a kernel one page shows. A page is read in a browser, and a report
//! must stay within the memory budget of every command (64 MB + 20x the input)
//! whatever the input: a stream of millions of one-byte instructions would otherwise
//! cost a listing line and a pressure point each.

/// Listing lines shown per kernel (declarations and instructions); the rest is named
/// in a closing line that points to the full disassembly. The page makes rows only of
/// the chunks scrolled to, so this is about the page's size (some 100 bytes a line),
/// not the browser's work: a kernel as large as the analysis goes, with its
/// declarations, is shown whole.
pub const LISTING_LINES: usize = 150_000;

/// Instructions up to which a kernel's control-flow graph and register pressure are
/// computed and drawn (the liveness analysis keeps per-instruction state).
pub const ANALYSED_INSTRUCTIONS: usize = 100_000;
