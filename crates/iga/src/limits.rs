//! Every limit the reader enforces, in one place. IGA listings are machine
//! output with a fixed, shallow shape; anything far beyond these bounds is not
//! an IGA listing, and refusing it early keeps a hostile input from costing
//! unbounded time, memory or stack.

/// Deepest JSON nesting accepted. iga64 nests at most 6 levels
/// (listing > elems > instruction > srcs > operand > reg); the reader recurses
/// once per level, so this also bounds its stack use.
pub const MAX_DEPTH: usize = 32;

/// Largest input accepted, in bytes. The largest corpus listing is about 2 MB.
pub const MAX_INPUT_BYTES: usize = 256 << 20;

/// Most listing elements (labels plus instructions). A Gen kernel binary is at
/// most a few hundred thousand instructions.
pub const MAX_ELEMS: usize = 4 << 20;

/// Most entries in one defs/uses/preds/succs list.
pub const MAX_ID_LIST: usize = 1 << 20;

/// Most sources of one instruction (iga64 prints at most 3 plus 2 send descriptors).
pub const MAX_SRCS: usize = 16;

/// Most repairs lenient mode performs before giving up on a document.
pub const MAX_REPAIRS: usize = 1 << 16;

/// Most diagnostics `check` reports before it stops collecting.
pub const MAX_DIAGNOSTICS: usize = 1000;
