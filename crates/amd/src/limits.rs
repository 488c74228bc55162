//! Every bound the readers and builders enforce, in one place. Inputs are
//! untrusted: these keep memory and time proportional to what a real driver
//! output could need, and make a hostile file fail with a clear error instead.

/// Kernels in one CL1 binary. The largest real program seen has 11.
pub const MAX_KERNELS: usize = 4096;
/// Symbols in the outer ELF symbol table.
pub const MAX_SYMBOLS: usize = 1 << 16;
/// Sections in any ELF we read.
pub const MAX_SECTIONS: usize = 1024;
/// Program headers in an inner ELF.
pub const MAX_SEGMENTS: usize = 256;
/// CAL encoding entries in one inner ELF (one per target device).
pub const MAX_ENCODINGS: usize = 64;
/// ATI CAL notes in one encoding (17 types exist; drivers repeat a few).
pub const MAX_CAL_NOTES: usize = 4096;
/// Notes in a CL2 inner ELF's `.note` section (drivers write 5).
pub const MAX_NOTES: usize = 4096;
/// Lines in one metadata block (`;ARGSTART`..`;ARGEND`).
pub const MAX_METADATA_LINES: usize = 1 << 20;
/// Bytes in one metadata line.
pub const MAX_LINE_LEN: usize = 1 << 20;
/// Ids in one `;function:` or `;intrinsic:` list, and arguments of one `;printf_fmt:`.
pub const MAX_LIST_LEN: usize = 1 << 16;
/// Elements in one data-segment vector.
pub const MAX_DATA_ELEMENTS: usize = 1 << 24;
/// Bytes a materialised data segment may occupy.
pub const MAX_DATA_SEGMENT_BYTES: u64 = 1 << 28;
/// Functions in one IL program given to the link step.
pub const MAX_IL_FUNCTIONS: usize = 1 << 16;
/// Arguments in one kernel signature.
pub const MAX_KERNEL_ARGS: usize = 4096;
/// Fields in one struct/union while computing argument layout.
pub const MAX_STRUCT_FIELDS: usize = 4096;
/// Nesting depth of struct/union definitions inside one another.
pub const MAX_TYPE_DEPTH: usize = 32;
/// Bytes a single argument may occupy in the constant buffer (64 KiB is the hardware cb limit).
pub const MAX_ARG_BYTES: u64 = 1 << 16;
/// Zero bytes a data segment may declare beyond the last byte its vectors
/// cover (the declared size is untrusted; the values are in the input).
pub const MAX_DATA_ZERO_TAIL: u64 = 1 << 20;
