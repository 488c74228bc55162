//! What gpukit needs to know about IGA's mnemonics, in one table: which are
//! sends, which branch, which print no execution size, which read or write
//! the accumulator implicitly. Every direction (convert, cfg, render) asks
//! here instead of keeping its own list.

/// Attributes of an op, as bits.
pub type Attrs = u16;

/// `send`, `sendc`, `sends`, `sendsc`: operands in the send layout.
pub const SEND: Attrs = 1 << 0;
/// A unary send (`send`, `sendc`: one payload source before Xe).
pub const UNARY_SEND: Attrs = 1 << 1;
/// iga64's `IS_BRANCH` attribute: ends a block.
pub const BRANCH: Attrs = 1 << 2;
/// Has a branch-control bit (`goto.b`).
pub const BRANCH_CTRL: Attrs = 1 << 3;
/// Printed without `(size|Mn)`.
pub const NO_EXEC_SIZE: Attrs = 1 << 4;
/// Negation prints as `~` (logic ops).
pub const LOGIC: Attrs = 1 << 5;
/// The subop prints after the mnemonic (`math.inv`, `sync.nop`, `bfn.(...)`, `dpas.8x8`).
pub const SUBFUNC: Attrs = 1 << 6;
/// Systolic: regions and subregisters print differently.
pub const DPAS: Attrs = 1 << 7;
/// Reads the accumulator implicitly.
pub const ACC_IN: Attrs = 1 << 8;
/// Writes the accumulator implicitly.
pub const ACC_OUT: Attrs = 1 << 9;
/// Has no destination operand (the text starts with the sources).
pub const NO_DST: Attrs = 1 << 10;

pub fn attrs(op: &str) -> Attrs {
    match op {
        "send" | "sendc" => SEND | UNARY_SEND,
        "sends" | "sendsc" => SEND,
        "goto" | "if" | "else" | "brc" | "brd" => BRANCH | BRANCH_CTRL | NO_DST,
        "call" | "calla" => BRANCH,
        "break" | "cont" | "endif" | "halt" | "join" | "ret" | "while" => BRANCH | NO_DST,
        "jmpi" => BRANCH | NO_EXEC_SIZE | NO_DST,
        "nop" | "illegal" | "wait" => NO_EXEC_SIZE | NO_DST,
        "sync" => NO_EXEC_SIZE | SUBFUNC | NO_DST,
        "math" => SUBFUNC,
        "bfn" => SUBFUNC | LOGIC,
        "dpas" | "dpasw" => SUBFUNC | DPAS,
        "and" | "or" | "xor" | "not" => LOGIC,
        "mach" | "macl" => ACC_IN | ACC_OUT,
        "subb" => ACC_IN | ACC_OUT,
        "mac" => ACC_IN,
        "addc" => ACC_OUT,
        _ => 0,
    }
}

pub fn has(op: &str, a: Attrs) -> bool {
    attrs(op) & a != 0
}
