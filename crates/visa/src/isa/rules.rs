//! Facts the instruction table does not carry, taken from the per-instruction specs
//! (`instructions/*.md`: "Operand class", "Supported Types", "Source Modifier",
//! "Saturation") and from `appendix_instruction_by_platform.md`. Generated once from
//! those files; edit the data, not the shape. Opcodes without a row have no such rule.

use super::Type;

/// A set of operand classes, bit `n` for class code `n` (0 general, 1 address,
/// 2 predicate, 3 indirect, 5 immediate, 6 state).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassSet(pub u8);

impl ClassSet {
    pub fn contains(self, class_code: u8) -> bool {
        class_code < 8 && self.0 & (1 << class_code) != 0
    }
}

/// Which source modifiers an opcode admits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceModifiers {
    None,
    /// `-`, `(abs)`, `-(abs)`.
    Arithmetic,
    /// `~` (not).
    Logic,
}

/// The operand classes a field of an opcode admits (by the table's field name).
pub struct OperandClasses {
    pub opcode: u8,
    pub field: &'static str,
    pub classes: ClassSet,
}

/// The element types of an opcode's vector operands; `gated` adds types from a platform on.
pub struct OperandTypes {
    pub opcode: u8,
    pub types: &'static [Type],
    pub gated: &'static [(&'static str, &'static [Type])],
}

/// Modifier rules of an opcode: which source modifiers, and whether `.sat` is allowed
/// (`Some(false)` never, `Some(true)` always; `None` "only when type is float" or unstated).
pub struct Modifiers {
    pub opcode: u8,
    pub source: SourceModifiers,
    pub saturation: Option<bool>,
}

pub static OPERAND_CLASSES: &[OperandClasses] = &[
    OperandClasses {
        opcode: 0x01,
        field: "dst",
        classes: ClassSet(0x09),
    }, // ADD: general,indirect
    OperandClasses {
        opcode: 0x01,
        field: "src0",
        classes: ClassSet(0x29),
    }, // ADD: general,indirect,immediate
    OperandClasses {
        opcode: 0x01,
        field: "src1",
        classes: ClassSet(0x29),
    }, // ADD: general,indirect,immediate
    OperandClasses {
        opcode: 0x02,
        field: "dst",
        classes: ClassSet(0x09),
    }, // AVG: general,indirect
    OperandClasses {
        opcode: 0x02,
        field: "src0",
        classes: ClassSet(0x29),
    }, // AVG: general,indirect,immediate
    OperandClasses {
        opcode: 0x02,
        field: "src1",
        classes: ClassSet(0x29),
    }, // AVG: general,indirect,immediate
    OperandClasses {
        opcode: 0x03,
        field: "dst",
        classes: ClassSet(0x09),
    }, // DIV: general,indirect
    OperandClasses {
        opcode: 0x03,
        field: "src0",
        classes: ClassSet(0x29),
    }, // DIV: general,indirect,immediate
    OperandClasses {
        opcode: 0x03,
        field: "src1",
        classes: ClassSet(0x29),
    }, // DIV: general,indirect,immediate
    OperandClasses {
        opcode: 0x08,
        field: "dst",
        classes: ClassSet(0x09),
    }, // EXP: general,indirect
    OperandClasses {
        opcode: 0x08,
        field: "src0",
        classes: ClassSet(0x29),
    }, // EXP: general,indirect,immediate
    OperandClasses {
        opcode: 0x09,
        field: "dst",
        classes: ClassSet(0x09),
    }, // FRC: general,indirect
    OperandClasses {
        opcode: 0x09,
        field: "src0",
        classes: ClassSet(0x29),
    }, // FRC: general,indirect,immediate
    OperandClasses {
        opcode: 0x0b,
        field: "dst",
        classes: ClassSet(0x09),
    }, // LOG: general,indirect
    OperandClasses {
        opcode: 0x0b,
        field: "src0",
        classes: ClassSet(0x29),
    }, // LOG: general,indirect,immediate
    OperandClasses {
        opcode: 0x0c,
        field: "dst",
        classes: ClassSet(0x09),
    }, // MAD: general,indirect
    OperandClasses {
        opcode: 0x0c,
        field: "src0",
        classes: ClassSet(0x29),
    }, // MAD: general,indirect,immediate
    OperandClasses {
        opcode: 0x0c,
        field: "src1",
        classes: ClassSet(0x29),
    }, // MAD: general,indirect,immediate
    OperandClasses {
        opcode: 0x0c,
        field: "src2",
        classes: ClassSet(0x29),
    }, // MAD: general,indirect,immediate
    OperandClasses {
        opcode: 0x0d,
        field: "dst",
        classes: ClassSet(0x09),
    }, // MULH: general,indirect
    OperandClasses {
        opcode: 0x0d,
        field: "src0",
        classes: ClassSet(0x29),
    }, // MULH: general,indirect,immediate
    OperandClasses {
        opcode: 0x0d,
        field: "src1",
        classes: ClassSet(0x29),
    }, // MULH: general,indirect,immediate
    OperandClasses {
        opcode: 0x0e,
        field: "dst",
        classes: ClassSet(0x01),
    }, // LRP: general
    OperandClasses {
        opcode: 0x0e,
        field: "src0",
        classes: ClassSet(0x21),
    }, // LRP: general,immediate
    OperandClasses {
        opcode: 0x0e,
        field: "src1",
        classes: ClassSet(0x21),
    }, // LRP: general,immediate
    OperandClasses {
        opcode: 0x0e,
        field: "src2",
        classes: ClassSet(0x21),
    }, // LRP: general,immediate
    OperandClasses {
        opcode: 0x0f,
        field: "dst",
        classes: ClassSet(0x09),
    }, // MOD: general,indirect
    OperandClasses {
        opcode: 0x0f,
        field: "src0",
        classes: ClassSet(0x29),
    }, // MOD: general,indirect,immediate
    OperandClasses {
        opcode: 0x0f,
        field: "src1",
        classes: ClassSet(0x29),
    }, // MOD: general,indirect,immediate
    OperandClasses {
        opcode: 0x10,
        field: "dst",
        classes: ClassSet(0x09),
    }, // MUL: general,indirect
    OperandClasses {
        opcode: 0x10,
        field: "src0",
        classes: ClassSet(0x29),
    }, // MUL: general,indirect,immediate
    OperandClasses {
        opcode: 0x10,
        field: "src1",
        classes: ClassSet(0x29),
    }, // MUL: general,indirect,immediate
    OperandClasses {
        opcode: 0x11,
        field: "dst",
        classes: ClassSet(0x09),
    }, // POW: general,indirect
    OperandClasses {
        opcode: 0x11,
        field: "src0",
        classes: ClassSet(0x29),
    }, // POW: general,indirect,immediate
    OperandClasses {
        opcode: 0x11,
        field: "src1",
        classes: ClassSet(0x29),
    }, // POW: general,indirect,immediate
    OperandClasses {
        opcode: 0x12,
        field: "dst",
        classes: ClassSet(0x09),
    }, // RNDD: general,indirect
    OperandClasses {
        opcode: 0x12,
        field: "src0",
        classes: ClassSet(0x29),
    }, // RNDD: general,indirect,immediate
    OperandClasses {
        opcode: 0x13,
        field: "dst",
        classes: ClassSet(0x09),
    }, // RNDU: general,indirect
    OperandClasses {
        opcode: 0x13,
        field: "src0",
        classes: ClassSet(0x29),
    }, // RNDU: general,indirect,immediate
    OperandClasses {
        opcode: 0x14,
        field: "dst",
        classes: ClassSet(0x09),
    }, // RNDE: general,indirect
    OperandClasses {
        opcode: 0x14,
        field: "src0",
        classes: ClassSet(0x29),
    }, // RNDE: general,indirect,immediate
    OperandClasses {
        opcode: 0x15,
        field: "dst",
        classes: ClassSet(0x09),
    }, // RNDZ: general,indirect
    OperandClasses {
        opcode: 0x15,
        field: "src0",
        classes: ClassSet(0x29),
    }, // RNDZ: general,indirect,immediate
    OperandClasses {
        opcode: 0x16,
        field: "dst",
        classes: ClassSet(0x09),
    }, // SAD2: general,indirect
    OperandClasses {
        opcode: 0x16,
        field: "src0",
        classes: ClassSet(0x29),
    }, // SAD2: general,indirect,immediate
    OperandClasses {
        opcode: 0x16,
        field: "src1",
        classes: ClassSet(0x29),
    }, // SAD2: general,indirect,immediate
    OperandClasses {
        opcode: 0x17,
        field: "dst",
        classes: ClassSet(0x09),
    }, // SIN: general,indirect
    OperandClasses {
        opcode: 0x17,
        field: "src0",
        classes: ClassSet(0x29),
    }, // SIN: general,indirect,immediate
    OperandClasses {
        opcode: 0x18,
        field: "dst",
        classes: ClassSet(0x09),
    }, // COS: general,indirect
    OperandClasses {
        opcode: 0x18,
        field: "src0",
        classes: ClassSet(0x29),
    }, // COS: general,indirect,immediate
    OperandClasses {
        opcode: 0x19,
        field: "dst",
        classes: ClassSet(0x09),
    }, // SQRT: general,indirect
    OperandClasses {
        opcode: 0x19,
        field: "src0",
        classes: ClassSet(0x29),
    }, // SQRT: general,indirect,immediate
    OperandClasses {
        opcode: 0x1a,
        field: "dst",
        classes: ClassSet(0x09),
    }, // RSQRT: general,indirect
    OperandClasses {
        opcode: 0x1a,
        field: "src0",
        classes: ClassSet(0x29),
    }, // RSQRT: general,indirect,immediate
    OperandClasses {
        opcode: 0x1b,
        field: "dst",
        classes: ClassSet(0x09),
    }, // INV: general,indirect
    OperandClasses {
        opcode: 0x1b,
        field: "src0",
        classes: ClassSet(0x29),
    }, // INV: general,indirect,immediate
    OperandClasses {
        opcode: 0x1c,
        field: "src2",
        classes: ClassSet(0x01),
    }, // DPASW: general
    OperandClasses {
        opcode: 0x1d,
        field: "dst",
        classes: ClassSet(0x01),
    }, // FCVT: general
    OperandClasses {
        opcode: 0x1d,
        field: "src0",
        classes: ClassSet(0x01),
    }, // FCVT: general
    OperandClasses {
        opcode: 0x1e,
        field: "dst",
        classes: ClassSet(0x01),
    }, // SRND: general
    OperandClasses {
        opcode: 0x1e,
        field: "src0",
        classes: ClassSet(0x01),
    }, // SRND: general
    OperandClasses {
        opcode: 0x1e,
        field: "src1",
        classes: ClassSet(0x21),
    }, // SRND: general,immediate
    OperandClasses {
        opcode: 0x1f,
        field: "dst",
        classes: ClassSet(0x09),
    }, // LZD: general,indirect
    OperandClasses {
        opcode: 0x1f,
        field: "src0",
        classes: ClassSet(0x29),
    }, // LZD: general,indirect,immediate
    OperandClasses {
        opcode: 0x20,
        field: "dst",
        classes: ClassSet(0x0d),
    }, // AND: general,indirect,predicate
    OperandClasses {
        opcode: 0x20,
        field: "src0",
        classes: ClassSet(0x2d),
    }, // AND: general,indirect,predicate,immediate
    OperandClasses {
        opcode: 0x20,
        field: "src1",
        classes: ClassSet(0x2d),
    }, // AND: general,indirect,predicate,immediate
    OperandClasses {
        opcode: 0x21,
        field: "dst",
        classes: ClassSet(0x0d),
    }, // OR: general,indirect,predicate
    OperandClasses {
        opcode: 0x21,
        field: "src0",
        classes: ClassSet(0x2d),
    }, // OR: general,indirect,predicate,immediate
    OperandClasses {
        opcode: 0x21,
        field: "src1",
        classes: ClassSet(0x2d),
    }, // OR: general,indirect,predicate,immediate
    OperandClasses {
        opcode: 0x22,
        field: "dst",
        classes: ClassSet(0x0d),
    }, // XOR: general,indirect,predicate
    OperandClasses {
        opcode: 0x22,
        field: "src0",
        classes: ClassSet(0x2d),
    }, // XOR: general,indirect,predicate,immediate
    OperandClasses {
        opcode: 0x22,
        field: "src1",
        classes: ClassSet(0x2d),
    }, // XOR: general,indirect,predicate,immediate
    OperandClasses {
        opcode: 0x23,
        field: "dst",
        classes: ClassSet(0x0d),
    }, // NOT: general,indirect,predicate
    OperandClasses {
        opcode: 0x23,
        field: "src0",
        classes: ClassSet(0x2d),
    }, // NOT: general,indirect,predicate,immediate
    OperandClasses {
        opcode: 0x24,
        field: "dst",
        classes: ClassSet(0x09),
    }, // SHL: general,indirect
    OperandClasses {
        opcode: 0x24,
        field: "src0",
        classes: ClassSet(0x29),
    }, // SHL: general,indirect,immediate
    OperandClasses {
        opcode: 0x24,
        field: "src1",
        classes: ClassSet(0x29),
    }, // SHL: general,indirect,immediate
    OperandClasses {
        opcode: 0x25,
        field: "dst",
        classes: ClassSet(0x09),
    }, // SHR: general,indirect
    OperandClasses {
        opcode: 0x25,
        field: "src0",
        classes: ClassSet(0x29),
    }, // SHR: general,indirect,immediate
    OperandClasses {
        opcode: 0x25,
        field: "src1",
        classes: ClassSet(0x29),
    }, // SHR: general,indirect,immediate
    OperandClasses {
        opcode: 0x26,
        field: "dst",
        classes: ClassSet(0x09),
    }, // ASR: general,indirect
    OperandClasses {
        opcode: 0x26,
        field: "src0",
        classes: ClassSet(0x29),
    }, // ASR: general,indirect,immediate
    OperandClasses {
        opcode: 0x26,
        field: "src1",
        classes: ClassSet(0x29),
    }, // ASR: general,indirect,immediate
    OperandClasses {
        opcode: 0x27,
        field: "dst",
        classes: ClassSet(0x09),
    }, // CBIT: general,indirect
    OperandClasses {
        opcode: 0x27,
        field: "src0",
        classes: ClassSet(0x29),
    }, // CBIT: general,indirect,immediate
    OperandClasses {
        opcode: 0x28,
        field: "dst",
        classes: ClassSet(0x02),
    }, // ADDR_ADD: address
    OperandClasses {
        opcode: 0x28,
        field: "src0",
        classes: ClassSet(0x43),
    }, // ADDR_ADD: address,general,state
    OperandClasses {
        opcode: 0x28,
        field: "src1",
        classes: ClassSet(0x21),
    }, // ADDR_ADD: general,immediate
    OperandClasses {
        opcode: 0x29,
        field: "dst",
        classes: ClassSet(0x09),
    }, // MOV: general,indirect
    OperandClasses {
        opcode: 0x29,
        field: "src0",
        classes: ClassSet(0x2d),
    }, // MOV: general,indirect,immediate,predicate
    OperandClasses {
        opcode: 0x2a,
        field: "dst",
        classes: ClassSet(0x09),
    }, // SEL: general,indirect
    OperandClasses {
        opcode: 0x2a,
        field: "src0",
        classes: ClassSet(0x29),
    }, // SEL: general,indirect,immediate
    OperandClasses {
        opcode: 0x2a,
        field: "src1",
        classes: ClassSet(0x29),
    }, // SEL: general,indirect,immediate
    OperandClasses {
        opcode: 0x2b,
        field: "dst",
        classes: ClassSet(0x04),
    }, // SETP: predicate
    OperandClasses {
        opcode: 0x2b,
        field: "src0",
        classes: ClassSet(0x29),
    }, // SETP: general,indirect,immediate
    OperandClasses {
        opcode: 0x2c,
        field: "dst",
        classes: ClassSet(0x05),
    }, // CMP: predicate,general
    OperandClasses {
        opcode: 0x2c,
        field: "src0",
        classes: ClassSet(0x29),
    }, // CMP: general,indirect,immediate
    OperandClasses {
        opcode: 0x2c,
        field: "src1",
        classes: ClassSet(0x29),
    }, // CMP: general,indirect,immediate
    OperandClasses {
        opcode: 0x2d,
        field: "dst",
        classes: ClassSet(0x41),
    }, // MOVS: state,general
    OperandClasses {
        opcode: 0x2d,
        field: "src0",
        classes: ClassSet(0x29),
    }, // MOVS: general,indirect,immediate
    OperandClasses {
        opcode: 0x2e,
        field: "dst",
        classes: ClassSet(0x09),
    }, // FBL: general,indirect
    OperandClasses {
        opcode: 0x2e,
        field: "src0",
        classes: ClassSet(0x29),
    }, // FBL: general,indirect,immediate
    OperandClasses {
        opcode: 0x2f,
        field: "dst",
        classes: ClassSet(0x09),
    }, // FBH: general,indirect
    OperandClasses {
        opcode: 0x2f,
        field: "src0",
        classes: ClassSet(0x29),
    }, // FBH: general,indirect,immediate
    OperandClasses {
        opcode: 0x45,
        field: "dst",
        classes: ClassSet(0x09),
    }, // MIN_MAX: general,indirect
    OperandClasses {
        opcode: 0x45,
        field: "src0",
        classes: ClassSet(0x29),
    }, // MIN_MAX: general,indirect,immediate
    OperandClasses {
        opcode: 0x45,
        field: "src1",
        classes: ClassSet(0x29),
    }, // MIN_MAX: general,indirect,immediate
    OperandClasses {
        opcode: 0x46,
        field: "dst",
        classes: ClassSet(0x09),
    }, // BFE: general,indirect
    OperandClasses {
        opcode: 0x46,
        field: "src0",
        classes: ClassSet(0x29),
    }, // BFE: general,indirect,immediate
    OperandClasses {
        opcode: 0x46,
        field: "src1",
        classes: ClassSet(0x29),
    }, // BFE: general,indirect,immediate
    OperandClasses {
        opcode: 0x46,
        field: "src2",
        classes: ClassSet(0x29),
    }, // BFE: general,indirect,immediate
    OperandClasses {
        opcode: 0x47,
        field: "dst",
        classes: ClassSet(0x09),
    }, // BFI: general,indirect
    OperandClasses {
        opcode: 0x47,
        field: "src0",
        classes: ClassSet(0x29),
    }, // BFI: general,indirect,immediate
    OperandClasses {
        opcode: 0x47,
        field: "src1",
        classes: ClassSet(0x29),
    }, // BFI: general,indirect,immediate
    OperandClasses {
        opcode: 0x47,
        field: "src2",
        classes: ClassSet(0x29),
    }, // BFI: general,indirect,immediate
    OperandClasses {
        opcode: 0x47,
        field: "src3",
        classes: ClassSet(0x29),
    }, // BFI: general,indirect,immediate
    OperandClasses {
        opcode: 0x48,
        field: "dst",
        classes: ClassSet(0x09),
    }, // BFREV: general,indirect
    OperandClasses {
        opcode: 0x48,
        field: "src0",
        classes: ClassSet(0x29),
    }, // BFREV: general,indirect,immediate
    OperandClasses {
        opcode: 0x49,
        field: "dst",
        classes: ClassSet(0x09),
    }, // ADDC: general,indirect
    OperandClasses {
        opcode: 0x49,
        field: "carry",
        classes: ClassSet(0x09),
    }, // ADDC: general,indirect
    OperandClasses {
        opcode: 0x49,
        field: "src0",
        classes: ClassSet(0x29),
    }, // ADDC: general,indirect,immediate
    OperandClasses {
        opcode: 0x49,
        field: "src1",
        classes: ClassSet(0x29),
    }, // ADDC: general,indirect,immediate
    OperandClasses {
        opcode: 0x4a,
        field: "dst",
        classes: ClassSet(0x09),
    }, // SUBB: general,indirect
    OperandClasses {
        opcode: 0x4a,
        field: "carry",
        classes: ClassSet(0x09),
    }, // SUBB: general,indirect
    OperandClasses {
        opcode: 0x4a,
        field: "src0",
        classes: ClassSet(0x29),
    }, // SUBB: general,indirect,immediate
    OperandClasses {
        opcode: 0x4a,
        field: "src1",
        classes: ClassSet(0x29),
    }, // SUBB: general,indirect,immediate
    OperandClasses {
        opcode: 0x6a,
        field: "dst",
        classes: ClassSet(0x09),
    }, // SAD2ADD: general,indirect
    OperandClasses {
        opcode: 0x6a,
        field: "src0",
        classes: ClassSet(0x29),
    }, // SAD2ADD: general,indirect,immediate
    OperandClasses {
        opcode: 0x6a,
        field: "src1",
        classes: ClassSet(0x29),
    }, // SAD2ADD: general,indirect,immediate
    OperandClasses {
        opcode: 0x6a,
        field: "src2",
        classes: ClassSet(0x29),
    }, // SAD2ADD: general,indirect,immediate
    OperandClasses {
        opcode: 0x6b,
        field: "dst",
        classes: ClassSet(0x09),
    }, // PLN: general,indirect
    OperandClasses {
        opcode: 0x6b,
        field: "src0",
        classes: ClassSet(0x09),
    }, // PLN: general,indirect
    OperandClasses {
        opcode: 0x6b,
        field: "src1",
        classes: ClassSet(0x09),
    }, // PLN: general,indirect
    OperandClasses {
        opcode: 0x7e,
        field: "dst",
        classes: ClassSet(0x09),
    }, // SQRTM: general,indirect
    OperandClasses {
        opcode: 0x7e,
        field: "src0",
        classes: ClassSet(0x29),
    }, // SQRTM: general,indirect,immediate
    OperandClasses {
        opcode: 0x7f,
        field: "dst",
        classes: ClassSet(0x09),
    }, // DIVM: general,indirect
    OperandClasses {
        opcode: 0x7f,
        field: "src0",
        classes: ClassSet(0x29),
    }, // DIVM: general,indirect,immediate
    OperandClasses {
        opcode: 0x7f,
        field: "src1",
        classes: ClassSet(0x29),
    }, // DIVM: general,indirect,immediate
    OperandClasses {
        opcode: 0x80,
        field: "dst",
        classes: ClassSet(0x09),
    }, // ROL: general,indirect
    OperandClasses {
        opcode: 0x80,
        field: "src0",
        classes: ClassSet(0x29),
    }, // ROL: general,indirect,immediate
    OperandClasses {
        opcode: 0x80,
        field: "src1",
        classes: ClassSet(0x29),
    }, // ROL: general,indirect,immediate
    OperandClasses {
        opcode: 0x81,
        field: "dst",
        classes: ClassSet(0x09),
    }, // ROR: general,indirect
    OperandClasses {
        opcode: 0x81,
        field: "src0",
        classes: ClassSet(0x29),
    }, // ROR: general,indirect,immediate
    OperandClasses {
        opcode: 0x81,
        field: "src1",
        classes: ClassSet(0x29),
    }, // ROR: general,indirect,immediate
    OperandClasses {
        opcode: 0x82,
        field: "dst",
        classes: ClassSet(0x09),
    }, // DP4A: general,indirect
    OperandClasses {
        opcode: 0x82,
        field: "src0",
        classes: ClassSet(0x29),
    }, // DP4A: general,indirect,immediate
    OperandClasses {
        opcode: 0x82,
        field: "src1",
        classes: ClassSet(0x29),
    }, // DP4A: general,indirect,immediate
    OperandClasses {
        opcode: 0x82,
        field: "src2",
        classes: ClassSet(0x29),
    }, // DP4A: general,indirect,immediate
    OperandClasses {
        opcode: 0x83,
        field: "src2",
        classes: ClassSet(0x01),
    }, // DPAS: general
    OperandClasses {
        opcode: 0x84,
        field: "dst",
        classes: ClassSet(0x09),
    }, // ADD3: general,indirect
    OperandClasses {
        opcode: 0x84,
        field: "src0",
        classes: ClassSet(0x29),
    }, // ADD3: general,indirect,immediate
    OperandClasses {
        opcode: 0x84,
        field: "src1",
        classes: ClassSet(0x29),
    }, // ADD3: general,indirect,immediate
    OperandClasses {
        opcode: 0x84,
        field: "src2",
        classes: ClassSet(0x29),
    }, // ADD3: general,indirect,immediate
    OperandClasses {
        opcode: 0x85,
        field: "dst",
        classes: ClassSet(0x09),
    }, // BFN: general,indirect
    OperandClasses {
        opcode: 0x85,
        field: "src0",
        classes: ClassSet(0x29),
    }, // BFN: general,indirect,immediate
    OperandClasses {
        opcode: 0x85,
        field: "src1",
        classes: ClassSet(0x29),
    }, // BFN: general,indirect,immediate
    OperandClasses {
        opcode: 0x85,
        field: "src2",
        classes: ClassSet(0x29),
    }, // BFN: general,indirect,immediate
    OperandClasses {
        opcode: 0x91,
        field: "dst",
        classes: ClassSet(0x09),
    }, // MADW: general,indirect
    OperandClasses {
        opcode: 0x91,
        field: "src0",
        classes: ClassSet(0x29),
    }, // MADW: general,indirect,immediate
    OperandClasses {
        opcode: 0x91,
        field: "src1",
        classes: ClassSet(0x29),
    }, // MADW: general,indirect,immediate
    OperandClasses {
        opcode: 0x91,
        field: "src2",
        classes: ClassSet(0x29),
    }, // MADW: general,indirect,immediate
    OperandClasses {
        opcode: 0x92,
        field: "dst",
        classes: ClassSet(0x09),
    }, // ADD3O: general,indirect
    OperandClasses {
        opcode: 0x92,
        field: "src0",
        classes: ClassSet(0x29),
    }, // ADD3O: general,indirect,immediate
    OperandClasses {
        opcode: 0x92,
        field: "src1",
        classes: ClassSet(0x29),
    }, // ADD3O: general,indirect,immediate
    OperandClasses {
        opcode: 0x92,
        field: "src2",
        classes: ClassSet(0x29),
    }, // ADD3O: general,indirect,immediate
    OperandClasses {
        opcode: 0x9b,
        field: "dst",
        classes: ClassSet(0x09),
    }, // INVM: general,indirect
    OperandClasses {
        opcode: 0x9b,
        field: "preddst",
        classes: ClassSet(0x04),
    }, // INVM: predicate
    OperandClasses {
        opcode: 0x9b,
        field: "src0",
        classes: ClassSet(0x29),
    }, // INVM: general,indirect,immediate
    OperandClasses {
        opcode: 0x9b,
        field: "src1",
        classes: ClassSet(0x29),
    }, // INVM: general,indirect,immediate
    OperandClasses {
        opcode: 0x9c,
        field: "dst",
        classes: ClassSet(0x09),
    }, // RSQTM: general,indirect
    OperandClasses {
        opcode: 0x9c,
        field: "preddst",
        classes: ClassSet(0x04),
    }, // RSQTM: predicate
    OperandClasses {
        opcode: 0x9c,
        field: "src0",
        classes: ClassSet(0x29),
    }, // RSQTM: general,indirect,immediate
];

pub static OPERAND_TYPES: &[OperandTypes] = &[
    OperandTypes {
        opcode: 0x01,
        types: &[
            Type::B,
            Type::D,
            Type::DF,
            Type::F,
            Type::HF,
            Type::Q,
            Type::UB,
            Type::UD,
            Type::UQ,
            Type::UW,
            Type::W,
        ],
        gated: &[("XEHP+", &[Type::BF])],
    }, // ADD
    OperandTypes {
        opcode: 0x02,
        types: &[Type::B, Type::D, Type::UB, Type::UD, Type::UW, Type::W],
        gated: &[],
    }, // AVG
    OperandTypes {
        opcode: 0x03,
        types: &[
            Type::B,
            Type::D,
            Type::DF,
            Type::F,
            Type::HF,
            Type::UB,
            Type::UD,
            Type::UW,
            Type::W,
        ],
        gated: &[],
    }, // DIV
    OperandTypes {
        opcode: 0x08,
        types: &[Type::F, Type::HF],
        gated: &[],
    }, // EXP
    OperandTypes {
        opcode: 0x09,
        types: &[Type::F],
        gated: &[],
    }, // FRC
    OperandTypes {
        opcode: 0x0b,
        types: &[Type::F, Type::HF],
        gated: &[],
    }, // LOG
    OperandTypes {
        opcode: 0x0c,
        types: &[
            Type::B,
            Type::D,
            Type::DF,
            Type::F,
            Type::HF,
            Type::UB,
            Type::UD,
            Type::UW,
            Type::W,
        ],
        gated: &[("XEHP+", &[Type::BF])],
    }, // MAD
    OperandTypes {
        opcode: 0x0d,
        types: &[Type::D, Type::UD],
        gated: &[],
    }, // MULH
    OperandTypes {
        opcode: 0x0e,
        types: &[Type::F],
        gated: &[],
    }, // LRP
    OperandTypes {
        opcode: 0x0f,
        types: &[Type::B, Type::D, Type::UB, Type::UD, Type::UW, Type::W],
        gated: &[],
    }, // MOD
    OperandTypes {
        opcode: 0x10,
        types: &[
            Type::B,
            Type::D,
            Type::DF,
            Type::F,
            Type::HF,
            Type::Q,
            Type::UB,
            Type::UD,
            Type::UQ,
            Type::UW,
            Type::W,
        ],
        gated: &[("XEHP+", &[Type::BF])],
    }, // MUL
    OperandTypes {
        opcode: 0x11,
        types: &[Type::F, Type::HF],
        gated: &[],
    }, // POW
    OperandTypes {
        opcode: 0x12,
        types: &[Type::F],
        gated: &[],
    }, // RNDD
    OperandTypes {
        opcode: 0x13,
        types: &[Type::F],
        gated: &[],
    }, // RNDU
    OperandTypes {
        opcode: 0x14,
        types: &[Type::F],
        gated: &[],
    }, // RNDE
    OperandTypes {
        opcode: 0x15,
        types: &[Type::F],
        gated: &[],
    }, // RNDZ
    OperandTypes {
        opcode: 0x17,
        types: &[Type::F, Type::HF],
        gated: &[],
    }, // SIN
    OperandTypes {
        opcode: 0x18,
        types: &[Type::F, Type::HF],
        gated: &[],
    }, // COS
    OperandTypes {
        opcode: 0x19,
        types: &[Type::F, Type::HF],
        gated: &[],
    }, // SQRT
    OperandTypes {
        opcode: 0x1a,
        types: &[Type::F, Type::HF],
        gated: &[],
    }, // RSQRT
    OperandTypes {
        opcode: 0x1b,
        types: &[Type::DF, Type::F, Type::HF],
        gated: &[],
    }, // INV
    OperandTypes {
        opcode: 0x1d,
        types: &[Type::B, Type::HF, Type::UB],
        gated: &[("PVC_XT+", &[Type::F, Type::UD])],
    }, // FCVT
    OperandTypes {
        opcode: 0x1e,
        types: &[Type::B, Type::BF, Type::F, Type::HF, Type::UB],
        gated: &[],
    }, // SRND
    OperandTypes {
        opcode: 0x1f,
        types: &[Type::UD],
        gated: &[],
    }, // LZD
    OperandTypes {
        opcode: 0x20,
        types: &[
            Type::B,
            Type::BOOL,
            Type::D,
            Type::Q,
            Type::UB,
            Type::UD,
            Type::UQ,
            Type::UW,
            Type::W,
        ],
        gated: &[],
    }, // AND
    OperandTypes {
        opcode: 0x21,
        types: &[
            Type::B,
            Type::BOOL,
            Type::D,
            Type::Q,
            Type::UB,
            Type::UD,
            Type::UQ,
            Type::UW,
            Type::W,
        ],
        gated: &[],
    }, // OR
    OperandTypes {
        opcode: 0x22,
        types: &[
            Type::B,
            Type::BOOL,
            Type::D,
            Type::Q,
            Type::UB,
            Type::UD,
            Type::UQ,
            Type::UW,
            Type::W,
        ],
        gated: &[],
    }, // XOR
    OperandTypes {
        opcode: 0x23,
        types: &[
            Type::B,
            Type::BOOL,
            Type::D,
            Type::Q,
            Type::UB,
            Type::UD,
            Type::UQ,
            Type::UW,
            Type::W,
        ],
        gated: &[],
    }, // NOT
    OperandTypes {
        opcode: 0x24,
        types: &[
            Type::B,
            Type::D,
            Type::Q,
            Type::UB,
            Type::UD,
            Type::UQ,
            Type::UW,
            Type::W,
        ],
        gated: &[],
    }, // SHL
    OperandTypes {
        opcode: 0x25,
        types: &[Type::UB, Type::UD, Type::UQ, Type::UW],
        gated: &[],
    }, // SHR
    OperandTypes {
        opcode: 0x26,
        types: &[Type::B, Type::D, Type::Q, Type::W],
        gated: &[],
    }, // ASR
    OperandTypes {
        opcode: 0x29,
        types: &[
            Type::B,
            Type::BOOL,
            Type::D,
            Type::DF,
            Type::F,
            Type::HF,
            Type::Q,
            Type::UB,
            Type::UD,
            Type::UQ,
            Type::UW,
            Type::W,
        ],
        gated: &[("XEHP+", &[Type::BF])],
    }, // MOV
    OperandTypes {
        opcode: 0x2a,
        types: &[
            Type::B,
            Type::D,
            Type::DF,
            Type::F,
            Type::HF,
            Type::Q,
            Type::UB,
            Type::UD,
            Type::UQ,
            Type::UW,
            Type::W,
        ],
        gated: &[("XEHP+", &[Type::BF])],
    }, // SEL
    OperandTypes {
        opcode: 0x2c,
        types: &[
            Type::B,
            Type::D,
            Type::DF,
            Type::F,
            Type::HF,
            Type::Q,
            Type::UB,
            Type::UD,
            Type::UQ,
            Type::UW,
            Type::W,
        ],
        gated: &[("XEHP+", &[Type::BF])],
    }, // CMP
    OperandTypes {
        opcode: 0x2e,
        types: &[Type::UD],
        gated: &[],
    }, // FBL
    OperandTypes {
        opcode: 0x45,
        types: &[
            Type::B,
            Type::D,
            Type::DF,
            Type::F,
            Type::HF,
            Type::Q,
            Type::UB,
            Type::UD,
            Type::UQ,
            Type::UW,
            Type::W,
        ],
        gated: &[],
    }, // MIN_MAX
    OperandTypes {
        opcode: 0x46,
        types: &[Type::D, Type::UD],
        gated: &[],
    }, // BFE
    OperandTypes {
        opcode: 0x47,
        types: &[Type::D, Type::UD],
        gated: &[],
    }, // BFI
    OperandTypes {
        opcode: 0x48,
        types: &[Type::UD],
        gated: &[],
    }, // BFREV
    OperandTypes {
        opcode: 0x49,
        types: &[Type::UD],
        gated: &[],
    }, // ADDC
    OperandTypes {
        opcode: 0x4a,
        types: &[Type::UD],
        gated: &[],
    }, // SUBB
    OperandTypes {
        opcode: 0x6b,
        types: &[Type::F],
        gated: &[],
    }, // PLN
    OperandTypes {
        opcode: 0x7e,
        types: &[Type::DF, Type::F],
        gated: &[],
    }, // SQRTM
    OperandTypes {
        opcode: 0x7f,
        types: &[Type::DF, Type::F],
        gated: &[],
    }, // DIVM
    OperandTypes {
        opcode: 0x80,
        types: &[Type::D, Type::UD, Type::UW, Type::W],
        gated: &[("PVC+", &[Type::Q, Type::UQ])],
    }, // ROL
    OperandTypes {
        opcode: 0x81,
        types: &[Type::D, Type::UD, Type::UW, Type::W],
        gated: &[("PVC+", &[Type::Q, Type::UQ])],
    }, // ROR
    OperandTypes {
        opcode: 0x82,
        types: &[Type::D, Type::UD],
        gated: &[],
    }, // DP4A
    OperandTypes {
        opcode: 0x83,
        types: &[Type::D, Type::F, Type::UD],
        gated: &[],
    }, // DPAS
    OperandTypes {
        opcode: 0x84,
        types: &[Type::D, Type::UD, Type::UW, Type::W],
        gated: &[],
    }, // ADD3
    OperandTypes {
        opcode: 0x85,
        types: &[Type::D, Type::UD, Type::UW, Type::W],
        gated: &[],
    }, // BFN
    OperandTypes {
        opcode: 0x91,
        types: &[Type::D, Type::UD],
        gated: &[],
    }, // MADW
    OperandTypes {
        opcode: 0x92,
        types: &[Type::D, Type::UD, Type::UW, Type::W],
        gated: &[],
    }, // ADD3O
    OperandTypes {
        opcode: 0x9b,
        types: &[Type::DF, Type::F],
        gated: &[],
    }, // INVM
    OperandTypes {
        opcode: 0x9c,
        types: &[Type::DF, Type::F],
        gated: &[],
    }, // RSQTM
];

pub static MODIFIERS: &[Modifiers] = &[
    Modifiers {
        opcode: 0x01,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // ADD
    Modifiers {
        opcode: 0x02,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // AVG
    Modifiers {
        opcode: 0x03,
        source: SourceModifiers::Arithmetic,
        saturation: None,
    }, // DIV
    Modifiers {
        opcode: 0x08,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // EXP
    Modifiers {
        opcode: 0x09,
        source: SourceModifiers::Arithmetic,
        saturation: None,
    }, // FRC
    Modifiers {
        opcode: 0x0b,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // LOG
    Modifiers {
        opcode: 0x0c,
        source: SourceModifiers::Arithmetic,
        saturation: None,
    }, // MAD
    Modifiers {
        opcode: 0x0d,
        source: SourceModifiers::Arithmetic,
        saturation: None,
    }, // MULH
    Modifiers {
        opcode: 0x0e,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // LRP
    Modifiers {
        opcode: 0x0f,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // MOD
    Modifiers {
        opcode: 0x10,
        source: SourceModifiers::Arithmetic,
        saturation: None,
    }, // MUL
    Modifiers {
        opcode: 0x11,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // POW
    Modifiers {
        opcode: 0x12,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // RNDD
    Modifiers {
        opcode: 0x13,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // RNDU
    Modifiers {
        opcode: 0x14,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // RNDE
    Modifiers {
        opcode: 0x15,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // RNDZ
    Modifiers {
        opcode: 0x16,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // SAD2
    Modifiers {
        opcode: 0x17,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // SIN
    Modifiers {
        opcode: 0x18,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // COS
    Modifiers {
        opcode: 0x19,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // SQRT
    Modifiers {
        opcode: 0x1a,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // RSQRT
    Modifiers {
        opcode: 0x1b,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // INV
    Modifiers {
        opcode: 0x1c,
        source: SourceModifiers::None,
        saturation: None,
    }, // DPASW
    Modifiers {
        opcode: 0x1d,
        source: SourceModifiers::None,
        saturation: None,
    }, // FCVT
    Modifiers {
        opcode: 0x1e,
        source: SourceModifiers::None,
        saturation: None,
    }, // SRND
    Modifiers {
        opcode: 0x1f,
        source: SourceModifiers::None,
        saturation: None,
    }, // LZD
    Modifiers {
        opcode: 0x20,
        source: SourceModifiers::Logic,
        saturation: None,
    }, // AND
    Modifiers {
        opcode: 0x21,
        source: SourceModifiers::Logic,
        saturation: None,
    }, // OR
    Modifiers {
        opcode: 0x22,
        source: SourceModifiers::Logic,
        saturation: None,
    }, // XOR
    Modifiers {
        opcode: 0x23,
        source: SourceModifiers::Logic,
        saturation: None,
    }, // NOT
    Modifiers {
        opcode: 0x24,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // SHL
    Modifiers {
        opcode: 0x25,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // SHR
    Modifiers {
        opcode: 0x26,
        source: SourceModifiers::Arithmetic,
        saturation: None,
    }, // ASR
    Modifiers {
        opcode: 0x27,
        source: SourceModifiers::None,
        saturation: None,
    }, // CBIT
    Modifiers {
        opcode: 0x28,
        source: SourceModifiers::Arithmetic,
        saturation: None,
    }, // ADDR_ADD
    Modifiers {
        opcode: 0x29,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // MOV
    Modifiers {
        opcode: 0x2a,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // SEL
    Modifiers {
        opcode: 0x2c,
        source: SourceModifiers::Arithmetic,
        saturation: None,
    }, // CMP
    Modifiers {
        opcode: 0x2e,
        source: SourceModifiers::None,
        saturation: None,
    }, // FBL
    Modifiers {
        opcode: 0x2f,
        source: SourceModifiers::None,
        saturation: None,
    }, // FBH
    Modifiers {
        opcode: 0x32,
        source: SourceModifiers::None,
        saturation: None,
    }, // JMP
    Modifiers {
        opcode: 0x34,
        source: SourceModifiers::None,
        saturation: None,
    }, // RET
    Modifiers {
        opcode: 0x45,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // MIN_MAX
    Modifiers {
        opcode: 0x46,
        source: SourceModifiers::None,
        saturation: None,
    }, // BFE
    Modifiers {
        opcode: 0x47,
        source: SourceModifiers::None,
        saturation: None,
    }, // BFI
    Modifiers {
        opcode: 0x48,
        source: SourceModifiers::None,
        saturation: None,
    }, // BFREV
    Modifiers {
        opcode: 0x49,
        source: SourceModifiers::None,
        saturation: None,
    }, // ADDC
    Modifiers {
        opcode: 0x4a,
        source: SourceModifiers::None,
        saturation: Some(true),
    }, // SUBB
    Modifiers {
        opcode: 0x6a,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // SAD2ADD
    Modifiers {
        opcode: 0x6b,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // PLN
    Modifiers {
        opcode: 0x6c,
        source: SourceModifiers::None,
        saturation: None,
    }, // GOTO
    Modifiers {
        opcode: 0x7e,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // SQRTM
    Modifiers {
        opcode: 0x7f,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // DIVM
    Modifiers {
        opcode: 0x80,
        source: SourceModifiers::None,
        saturation: None,
    }, // ROL
    Modifiers {
        opcode: 0x81,
        source: SourceModifiers::None,
        saturation: None,
    }, // ROR
    Modifiers {
        opcode: 0x82,
        source: SourceModifiers::None,
        saturation: Some(true),
    }, // DP4A
    Modifiers {
        opcode: 0x83,
        source: SourceModifiers::None,
        saturation: None,
    }, // DPAS
    Modifiers {
        opcode: 0x84,
        source: SourceModifiers::Arithmetic,
        saturation: Some(true),
    }, // ADD3
    Modifiers {
        opcode: 0x85,
        source: SourceModifiers::None,
        saturation: None,
    }, // BFN
    Modifiers {
        opcode: 0x91,
        source: SourceModifiers::Arithmetic,
        saturation: None,
    }, // MADW
    Modifiers {
        opcode: 0x92,
        source: SourceModifiers::Arithmetic,
        saturation: None,
    }, // ADD3O
    Modifiers {
        opcode: 0x9b,
        source: SourceModifiers::Arithmetic,
        saturation: None,
    }, // INVM
    Modifiers {
        opcode: 0x9c,
        source: SourceModifiers::Arithmetic,
        saturation: None,
    }, // RSQTM
];

/// Availability by platform: `[SKL, ICLLP, TGLLP]`, per the appendix table (its BDW and
/// BXT columns are left out; it has no column for later platforms).
pub static AVAILABILITY: &[(u8, [bool; 3])] = &[
    (0x01, [true, true, true]),
    (0x02, [true, true, true]),
    (0x03, [true, true, true]),
    (0x08, [true, true, true]),
    (0x09, [true, true, true]),
    (0x0b, [true, true, true]),
    (0x0c, [true, true, true]),
    (0x0d, [true, true, true]),
    (0x0e, [true, false, false]),
    (0x0f, [true, true, true]),
    (0x10, [true, true, true]),
    (0x11, [true, true, true]),
    (0x12, [true, true, true]),
    (0x13, [true, true, true]),
    (0x14, [true, true, true]),
    (0x15, [true, true, true]),
    (0x16, [true, false, false]),
    (0x17, [true, true, true]),
    (0x18, [true, true, true]),
    (0x19, [true, true, true]),
    (0x1a, [true, true, true]),
    (0x1b, [true, true, true]),
    (0x1c, [false, false, false]),
    (0x1d, [false, false, false]),
    (0x1e, [false, false, false]),
    (0x1f, [true, true, true]),
    (0x20, [true, true, true]),
    (0x21, [true, true, true]),
    (0x22, [true, true, true]),
    (0x23, [true, true, true]),
    (0x24, [true, true, true]),
    (0x25, [true, true, true]),
    (0x26, [true, true, true]),
    (0x27, [true, true, true]),
    (0x28, [true, true, true]),
    (0x29, [true, true, true]),
    (0x2a, [true, true, true]),
    (0x2b, [true, true, true]),
    (0x2c, [true, true, true]),
    (0x2d, [true, true, true]),
    (0x2e, [true, true, true]),
    (0x2f, [true, true, true]),
    (0x30, [true, true, true]),
    (0x31, [true, true, true]),
    (0x32, [true, true, true]),
    (0x33, [true, true, true]),
    (0x34, [true, true, true]),
    (0x35, [true, true, true]),
    (0x36, [true, true, true]),
    (0x37, [true, true, true]),
    (0x38, [true, true, true]),
    (0x3c, [true, true, true]),
    (0x41, [true, true, true]),
    (0x43, [true, true, false]),
    (0x45, [true, true, true]),
    (0x46, [true, true, true]),
    (0x47, [true, true, true]),
    (0x48, [true, true, true]),
    (0x49, [true, true, true]),
    (0x4a, [true, true, true]),
    (0x4b, [true, true, true]),
    (0x4c, [true, true, true]),
    (0x4e, [true, true, true]),
    (0x4f, [true, true, true]),
    (0x50, [true, true, true]),
    (0x51, [true, true, true]),
    (0x52, [true, true, true]),
    (0x54, [true, true, false]),
    (0x55, [true, true, false]),
    (0x56, [true, true, false]),
    (0x57, [true, true, false]),
    (0x59, [true, true, true]),
    (0x5a, [true, true, true]),
    (0x5b, [true, true, true]),
    (0x5c, [true, true, true]),
    (0x5d, [true, true, true]),
    (0x5f, [true, true, true]),
    (0x60, [false, false, false]),
    (0x67, [true, true, true]),
    (0x68, [true, true, true]),
    (0x69, [true, true, false]),
    (0x6a, [true, false, false]),
    (0x6b, [true, false, false]),
    (0x6c, [true, true, true]),
    (0x6d, [true, true, true]),
    (0x6e, [true, true, true]),
    (0x6f, [true, true, true]),
    (0x70, [true, true, true]),
    (0x71, [true, true, true]),
    (0x72, [true, true, true]),
    (0x73, [true, true, true]),
    (0x74, [true, true, true]),
    (0x75, [true, true, true]),
    (0x78, [true, true, true]),
    (0x79, [true, true, true]),
    (0x7a, [true, true, true]),
    (0x7b, [true, true, true]),
    (0x7c, [true, true, true]),
    (0x7d, [true, true, true]),
    (0x7e, [true, false, false]),
    (0x7f, [true, false, false]),
    (0x80, [false, true, true]),
    (0x81, [false, true, true]),
    (0x82, [false, false, true]),
    (0x83, [false, false, false]),
    (0x84, [false, false, false]),
    (0x85, [false, false, false]),
    (0x86, [false, false, false]),
    (0x87, [false, false, false]),
    (0x89, [false, false, false]),
    (0x8a, [false, false, false]),
    (0x8b, [false, false, false]),
    (0x91, [true, true, true]),
    (0x92, [false, false, false]),
    (0x9b, [true, false, false]),
    (0x9c, [true, false, false]),
];

/// The element types a raw operand's variable may have ("Must have type ..."), by
/// opcode, layout mnemonic (SVM sub-opcodes; empty for all layouts) and the spec's
/// field name, lower-cased; the verifier maps spec names to layout field names.
pub struct RawTypes {
    pub opcode: u8,
    pub layout: &'static str,
    pub field: &'static str,
    pub types: &'static [Type],
}

pub static RAW_TYPES: &[RawTypes] = &[
    RawTypes {
        opcode: 0x6e,
        layout: "",
        field: "dst",
        types: &[Type::HF, Type::F, Type::W, Type::UW, Type::D, Type::UD],
    }, // 3D_LOAD
    RawTypes {
        opcode: 0x6e,
        layout: "",
        field: "si",
        types: &[Type::UD, Type::UW],
    }, // 3D_LOAD
    RawTypes {
        opcode: 0x6d,
        layout: "",
        field: "dst",
        types: &[Type::HF, Type::F, Type::W, Type::UW, Type::D, Type::UD],
    }, // 3D_SAMPLE
    RawTypes {
        opcode: 0x6f,
        layout: "",
        field: "dst",
        types: &[Type::HF, Type::F, Type::W, Type::UW, Type::D, Type::UD],
    }, // 3D_SAMPLE4
    RawTypes {
        opcode: 0x6f,
        layout: "",
        field: "offu",
        types: &[Type::D],
    }, // 3D_SAMPLE4
    RawTypes {
        opcode: 0x6f,
        layout: "",
        field: "offv",
        types: &[Type::D],
    }, // 3D_SAMPLE4
    RawTypes {
        opcode: 0x83,
        layout: "",
        field: "dst",
        types: &[Type::D, Type::UD, Type::F, Type::BF, Type::HF, Type::DF],
    }, // DPAS
    RawTypes {
        opcode: 0x83,
        layout: "",
        field: "src0",
        types: &[Type::D, Type::UD, Type::F, Type::BF, Type::HF, Type::DF],
    }, // DPAS
    RawTypes {
        opcode: 0x83,
        layout: "",
        field: "src1",
        types: &[Type::D, Type::UD, Type::DF],
    }, // DPAS
    RawTypes {
        opcode: 0x1c,
        layout: "",
        field: "dst",
        types: &[Type::D, Type::UD, Type::F],
    }, // DPASW
    RawTypes {
        opcode: 0x1c,
        layout: "",
        field: "src1",
        types: &[Type::D, Type::UD],
    }, // DPASW
    RawTypes {
        opcode: 0x7d,
        layout: "",
        field: "element_offset",
        types: &[Type::UD],
    }, // DWORD_ATOMIC
    RawTypes {
        opcode: 0x39,
        layout: "",
        field: "element_offset",
        types: &[Type::UD],
    }, // GATHER
    RawTypes {
        opcode: 0x39,
        layout: "",
        field: "dst",
        types: &[Type::UD, Type::D, Type::F],
    }, // GATHER
    RawTypes {
        opcode: 0x74,
        layout: "",
        field: "element_offset",
        types: &[Type::UD],
    }, // GATHER4_SCALED
    RawTypes {
        opcode: 0x74,
        layout: "",
        field: "dst",
        types: &[Type::UD, Type::D, Type::F],
    }, // GATHER4_SCALED
    RawTypes {
        opcode: 0x4b,
        layout: "",
        field: "dst",
        types: &[Type::UD, Type::D, Type::F],
    }, // GATHER4_TYPED
    RawTypes {
        opcode: 0x78,
        layout: "",
        field: "element_offset",
        types: &[Type::UD],
    }, // GATHER_SCALED
    RawTypes {
        opcode: 0x78,
        layout: "",
        field: "dst",
        types: &[Type::UD, Type::D, Type::F],
    }, // GATHER_SCALED
    RawTypes {
        opcode: 0x70,
        layout: "",
        field: "lod",
        types: &[Type::UD],
    }, // INFO
    RawTypes {
        opcode: 0x70,
        layout: "",
        field: "dst",
        types: &[Type::UD],
    }, // INFO
    RawTypes {
        opcode: 0x86,
        layout: "",
        field: "offset",
        types: &[Type::UD],
    }, // QW_GATHER
    RawTypes {
        opcode: 0x86,
        layout: "",
        field: "dst",
        types: &[Type::Q, Type::UQ, Type::DF],
    }, // QW_GATHER
    RawTypes {
        opcode: 0x87,
        layout: "",
        field: "offset",
        types: &[Type::UD],
    }, // QW_SCATTER
    RawTypes {
        opcode: 0x87,
        layout: "",
        field: "src",
        types: &[Type::Q, Type::UQ, Type::DF],
    }, // QW_SCATTER
    RawTypes {
        opcode: 0x71,
        layout: "",
        field: "source0alpha",
        types: &[Type::HF, Type::F],
    }, // RT_WRITE
    RawTypes {
        opcode: 0x71,
        layout: "",
        field: "omask",
        types: &[Type::UW],
    }, // RT_WRITE
    RawTypes {
        opcode: 0x71,
        layout: "",
        field: "r",
        types: &[Type::HF, Type::F],
    }, // RT_WRITE
    RawTypes {
        opcode: 0x71,
        layout: "",
        field: "g",
        types: &[Type::HF, Type::F],
    }, // RT_WRITE
    RawTypes {
        opcode: 0x71,
        layout: "",
        field: "b",
        types: &[Type::HF, Type::F],
    }, // RT_WRITE
    RawTypes {
        opcode: 0x71,
        layout: "",
        field: "a",
        types: &[Type::HF, Type::F],
    }, // RT_WRITE
    RawTypes {
        opcode: 0x71,
        layout: "",
        field: "sourcedepth",
        types: &[Type::F],
    }, // RT_WRITE
    RawTypes {
        opcode: 0x71,
        layout: "",
        field: "stencil",
        types: &[Type::UB],
    }, // RT_WRITE
    RawTypes {
        opcode: 0x41,
        layout: "",
        field: "dst",
        types: &[Type::UW],
    }, // SAMPLE_UNORM
    RawTypes {
        opcode: 0x3a,
        layout: "",
        field: "element_offset",
        types: &[Type::UD],
    }, // SCATTER
    RawTypes {
        opcode: 0x75,
        layout: "",
        field: "element_offset",
        types: &[Type::UD],
    }, // SCATTER4_SCALED
    RawTypes {
        opcode: 0x75,
        layout: "",
        field: "src",
        types: &[Type::UD, Type::D, Type::F],
    }, // SCATTER4_SCALED
    RawTypes {
        opcode: 0x4c,
        layout: "",
        field: "u",
        types: &[Type::UD],
    }, // SCATTER4_TYPED
    RawTypes {
        opcode: 0x4c,
        layout: "",
        field: "v",
        types: &[Type::UD],
    }, // SCATTER4_TYPED
    RawTypes {
        opcode: 0x4c,
        layout: "",
        field: "r",
        types: &[Type::UD],
    }, // SCATTER4_TYPED
    RawTypes {
        opcode: 0x4c,
        layout: "",
        field: "lod",
        types: &[Type::UD],
    }, // SCATTER4_TYPED
    RawTypes {
        opcode: 0x4c,
        layout: "",
        field: "src",
        types: &[Type::UD, Type::D, Type::F],
    }, // SCATTER4_TYPED
    RawTypes {
        opcode: 0x79,
        layout: "",
        field: "element_offset",
        types: &[Type::UD],
    }, // SCATTER_SCALED
    RawTypes {
        opcode: 0x79,
        layout: "",
        field: "src",
        types: &[Type::UD, Type::D, Type::F],
    }, // SCATTER_SCALED
    RawTypes {
        opcode: 0x4e,
        layout: "svm_atomic",
        field: "addresses",
        types: &[Type::UQ],
    }, // SVM_ATOMIC
    RawTypes {
        opcode: 0x4e,
        layout: "svm_gather",
        field: "addresses",
        types: &[Type::UQ],
    }, // SVM_GATHER
    RawTypes {
        opcode: 0x4e,
        layout: "svm_gather4_scaled",
        field: "element_offset",
        types: &[Type::UQ],
    }, // SVM_GATHER4_SCALED
    RawTypes {
        opcode: 0x4e,
        layout: "svm_gather4_scaled",
        field: "dst",
        types: &[Type::UD, Type::D, Type::F],
    }, // SVM_GATHER4_SCALED
    RawTypes {
        opcode: 0x4e,
        layout: "svm_scatter",
        field: "addresses",
        types: &[Type::UQ],
    }, // SVM_SCATTER
    RawTypes {
        opcode: 0x4e,
        layout: "svm_scatter4_scaled",
        field: "element_offset",
        types: &[Type::UQ],
    }, // SVM_SCATTER4_SCALED
    RawTypes {
        opcode: 0x4e,
        layout: "svm_scatter4_scaled",
        field: "src",
        types: &[Type::UD, Type::D, Type::F],
    }, // SVM_SCATTER4_SCALED
    RawTypes {
        opcode: 0x73,
        layout: "",
        field: "u",
        types: &[Type::UD],
    }, // TYPED_ATOMIC
    RawTypes {
        opcode: 0x73,
        layout: "",
        field: "v",
        types: &[Type::UD],
    }, // TYPED_ATOMIC
    RawTypes {
        opcode: 0x73,
        layout: "",
        field: "r",
        types: &[Type::UD],
    }, // TYPED_ATOMIC
    RawTypes {
        opcode: 0x73,
        layout: "",
        field: "lod",
        types: &[Type::UD],
    }, // TYPED_ATOMIC
    RawTypes {
        opcode: 0x72,
        layout: "",
        field: "channel_mask",
        types: &[Type::UD],
    }, // URB_WRITE
    RawTypes {
        opcode: 0x72,
        layout: "",
        field: "urb_handle",
        types: &[Type::UD],
    }, // URB_WRITE
    RawTypes {
        opcode: 0x72,
        layout: "",
        field: "vertex_data",
        types: &[Type::UD, Type::D, Type::F],
    }, // URB_WRITE
];

/// Types IGC uses beyond an opcode's "Supported Types" (its verifier admits them, and
/// IGC 1.0.5353 emits them): `sqrt` on DF (legacy corpus); `mod` on Q/UQ (IGC's own
/// operand table gives `mod` every integer type; 1.0.5353 emits `mod ... 0x40:uq` for a
/// 64-bit `%` on SKL, seen in xmrig's cryptonight kernels).
pub static IGC_EXTRA_TYPES: &[(u8, &[Type])] = &[(0x19, &[Type::DF]), (0x0F, &[Type::Q, Type::UQ])];

/// Opcodes whose source types the spec restricts but IGC's verifier does not check (it
/// checks only their destination, "only supports single UD type"), and whose sources IGC
/// types otherwise: `addc` and `subb`. IGC's 64-bit add emulation passes a packed-vector
/// immediate (`addc ... 0x8840:uv`, elements of UW) on Gen11/Gen12 in vISA 3.x and 4.x.
/// Their source types are checked only under `--strict` (VISA-INST-021).
pub static IGC_UNCHECKED_SOURCE_TYPES: &[u8] = &[0x49, 0x4a];

/// Predefined variables a program may only read (`4_visa_header.md`, R/W column):
/// %thread_x/y, %group_id_x/y/z, %r0, %hw_id, %ce0, %color. %null takes writes
/// (it discards them) and %tsc has a writable pause counter, so neither is listed.
pub static PREDEFINED_READ_ONLY: &[u32] = &[1, 2, 3, 4, 5, 7, 12, 15, 17];

/// Predefined variables that may be aliased ("Can be aliased" column): %r0, %arg,
/// %retval and the two buffer pointers of vISA 4.0.
pub static PREDEFINED_ALIASABLE: &[u32] = &[7, 8, 9, 18, 19];

/// Predefined variables IGC aliases although the spec says they cannot be: %hw_id,
/// which IGC reads through a UD alias for the hardware thread id (`GetHWTID`; seen in
/// 1.0.5353 and 2.x output). Checked only under `--strict` (VISA-DECL-015).
pub static IGC_ALIASED_PREDEFINED: &[u32] = &[12];

/// Operand classes IGC admits beyond an opcode's "Operand class" list: its text grammar
/// takes `mov` to and from an address register (`mov (M1_NM,1) A0(0)<1> &V`), and
/// `movs` from a state operand, as `5_operands.md` itself allows ("Its usage is
/// restricted to the ADDR_ADD and MOVS instruction").
pub static IGC_EXTRA_CLASSES: &[OperandClasses] = &[
    OperandClasses {
        opcode: 0x29,
        field: "dst",
        classes: ClassSet(0x02),
    }, // MOV: address
    OperandClasses {
        opcode: 0x29,
        field: "src0",
        classes: ClassSet(0x02),
    }, // MOV: address
    OperandClasses {
        opcode: 0x2d,
        field: "src0",
        classes: ClassSet(0x40),
    }, // MOVS: state
];
