//! The listing model shared by both format versions.
//!
//! Fields are semantic (an execution offset is a number, not "a key that may be
//! absent"); which keys a version prints, and whether it prints `null` or
//! nothing, is the writers' business (`write/v1.rs`, `write/v2.rs`). Where the
//! two versions carry different information (1.0 prints `defs` on
//! destinations, 2.0 prints `uses`), the model has room for both and
//! `convert.rs` derives the missing side.

/// Which IGA JSON format a listing is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Version {
    /// `"version":"1.0"`, elements under `insts` (`-Xprint-jsonV1`, or `-Xprint-json` before 2023).
    V1,
    /// `"version":"2.0"`, elements under `elems` (`-Xprint-json` since 2023).
    V2,
}

impl Version {
    pub fn as_str(self) -> &'static str {
        match self {
            Version::V1 => "1.0",
            Version::V2 => "2.0",
        }
    }
}

/// Keys a lenient read did not know, in document order, each with the exact
/// text of its value. Writers print them back after the known keys.
pub type Extra = Vec<(String, String)>;

/// One kernel listing.
#[derive(Clone, Debug, PartialEq)]
pub struct Listing {
    pub version: Version,
    /// IGA's platform name (`"xe"`, `"xehpg"`, `"xehpc"`, `"skl"`, ...).
    pub platform: String,
    pub elems: Vec<Element>,
    pub extra: Extra,
}

/// Both kinds boxed: a listing holds one element per instruction, so the
/// element itself stays two words.
#[derive(Clone, Debug, PartialEq)]
pub enum Element {
    Label(Box<Label>),
    Inst(Box<Instruction>),
}

/// A label opens a basic block; every block iga64 prints starts with one.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// Block id (2.0 only; 1.0 labels have none).
    pub id: Option<i64>,
    /// Program counter (`-Xprint-pc`).
    pub pc: Option<i64>,
    /// The label text: 1.0 `value`, 2.0 `symbol`.
    pub symbol: String,
    /// Predecessor block ids (2.0).
    pub preds: Vec<i64>,
    /// Successor block ids (2.0).
    pub succs: Vec<i64>,
    pub extra: Extra,
}

/// Parts most instructions lack (a predicate, a flag modifier, implicit
/// operands, an SBID) and the destination, the largest, are boxed: a dense
/// listing's model is mostly instructions, and this keeps each under 400 bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    pub id: i64,
    pub pc: Option<i64>,
    pub pred: Option<Box<Predicate>>,
    /// WrEn / NoMask (`(W)` in assembly).
    pub wren: bool,
    pub op: String,
    pub subop: Option<String>,
    pub exec_size: i64,
    pub exec_offset: i64,
    pub flag_modifier: Option<Box<FlagModifier>>,
    pub flag_reg: Option<Reg>,
    /// Implicit accumulator (and `sel` predicate) reads and writes: 2.0
    /// `implicit`, 1.0 `other` (which carries only the reads). `None` is 1.0
    /// `"other":null` (no dataflow analysis) or an absent 2.0 key.
    pub implicit: Option<Box<Implicit>>,
    pub dst: Option<Box<Operand>>,
    pub srcs: Vec<Operand>,
    /// Software scoreboard register distance, e.g. `"@4"`, `"A@1"`.
    pub reg_dist: Option<String>,
    pub sbid: Option<Box<Sbid>>,
    pub opts: Vec<String>,
    /// Raw instruction bits (`-Xprint-bits`), as iga64 prints them.
    pub encoding: Option<String>,
    pub live_totals: Option<LiveTotals>,
    pub comment: Option<String>,
    pub extra: Extra,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Predicate {
    pub inv: bool,
    /// `""` for sequential evaluation, else e.g. `".any"`.
    pub func: String,
    pub defs: Vec<i64>,
    pub extra: Extra,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlagModifier {
    /// `"lt"`, `"ne"`, ...
    pub cond: String,
    /// Instructions reading the flag written here (2.0).
    pub uses: Vec<i64>,
    pub extra: Extra,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Implicit {
    pub defs: Vec<i64>,
    pub uses: Vec<i64>,
    pub extra: Extra,
}

/// SBID token use: `$2` (`func` `""`), `$2.src`, `$2.dst`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sbid {
    pub id: i64,
    /// `""`, `".src"` or `".dst"`.
    pub func: String,
    pub extra: Extra,
}

/// Bytes of each register file live before the instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveTotals {
    pub r: i64,
    pub acc: i64,
    /// Scalar register bytes; only newer IGA builds print it.
    pub s: Option<i64>,
    pub f: i64,
    pub a: i64,
    pub extra: Extra,
}

/// A register: name, number, subregister (`r12.4` is `{"rn":"r","r":12,"sr":4}`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reg {
    pub name: String,
    pub num: i64,
    pub sub: i64,
}

/// A region `<v;w,h>`; destinations have only `h`. `v == None` on a source is
/// the VxH form of indirect access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub v: Option<i64>,
    pub w: Option<i64>,
    pub h: i64,
}

/// Source modifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SrcMod {
    #[default]
    None,
    Neg,
    Abs,
    NegAbs,
}

impl SrcMod {
    pub fn as_str(self) -> &'static str {
        match self {
            SrcMod::None => "",
            SrcMod::Neg => "n",
            SrcMod::Abs => "a",
            SrcMod::NegAbs => "na",
        }
    }
    pub fn parse(s: &str) -> Option<SrcMod> {
        Some(match s {
            "" => SrcMod::None,
            "n" => SrcMod::Neg,
            "a" => SrcMod::Abs,
            "na" => SrcMod::NegAbs,
            _ => return None,
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Operand {
    pub kind: OperandKind,
    pub extra: Extra,
}

/// The operand kinds, named after their `kind` codes.
#[derive(Clone, Debug, PartialEq)]
pub enum OperandKind {
    /// `RD`: register direct (also raw send payloads and register send descriptors).
    Direct(RegOperand),
    /// `RI`: register indirect, `r[a0.2+16]`.
    Indirect(RegOperand),
    /// `RM`: math macro register with its `mme` accumulator.
    Macro(RegOperand),
    /// `IM`: immediate, value as iga64 printed it.
    Immediate {
        value: String,
        ty: Option<String>,
        defs: Vec<i64>,
    },
    /// `LB`: branch target label.
    Label {
        target: String,
        ty: Option<String>,
        defs: Vec<i64>,
    },
    /// `DA`: send data payload.
    Data(DataOperand),
    /// `AD`: send address payload.
    Address(Box<AddressOperand>),
}

impl OperandKind {
    pub fn code(&self) -> &'static str {
        match self {
            OperandKind::Direct(_) => "RD",
            OperandKind::Indirect(_) => "RI",
            OperandKind::Macro(_) => "RM",
            OperandKind::Immediate { .. } => "IM",
            OperandKind::Label { .. } => "LB",
            OperandKind::Data(_) => "DA",
            OperandKind::Address(_) => "AD",
        }
    }
}

/// RD, RI and RM operands. For RI `reg` is the address register (`areg`).
#[derive(Clone, Debug, PartialEq)]
pub struct RegOperand {
    pub mods: SrcMod,
    pub reg: Reg,
    /// RI: immediate address offset.
    pub aoff: i64,
    /// RM: math macro extension (`"mme0"`, `"nomme"`, ...).
    pub mme: Option<String>,
    pub sat: bool,
    pub rgn: Option<Region>,
    pub ty: Option<String>,
    pub defs: Vec<i64>,
    pub uses: Vec<i64>,
}

impl RegOperand {
    pub fn new(reg: Reg) -> RegOperand {
        RegOperand {
            mods: SrcMod::None,
            reg,
            aoff: 0,
            mme: None,
            sat: false,
            rgn: None,
            ty: None,
            defs: Vec::new(),
            uses: Vec::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct DataOperand {
    pub reg: Reg,
    /// Payload length in registers; absent when the encoding does not say.
    pub len: Option<i64>,
    pub defs: Vec<i64>,
    /// The type the assembly text printed on this payload: sends before Xe carry
    /// an encoded operand type that neither JSON version keeps (`"type":null`).
    /// `None` when read from JSON; `Some("")` when the text printed no type.
    pub printed_type: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AddressOperand {
    pub reg: Reg,
    pub len: i64,
    pub defs: Vec<i64>,
    /// Immediate address offset from the decoded message (2.0 `aoff`, 1.0 `offset`).
    pub offset: AddrOffset,
    /// 1.0 `scale` (iga64 always prints 1).
    pub scale: i64,
    /// The decoded surface, or `None` when iga64 could not decode the message.
    pub surface: Option<Surface>,
    /// 1.0 keys of `addr` iga64 did not print.
    pub addr_extra: Extra,
    /// The type the assembly text printed on this payload: sends before Xe carry
    /// an encoded operand type that neither JSON version keeps (`"type":null`).
    /// `None` when read from JSON; `Some("")` when the text printed no type.
    pub printed_type: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddrOffset {
    Scalar(i64),
    /// 2D block messages: (x, y).
    Block2d(i64, i64),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Surface {
    /// `"flat"`, `"bti"`, `"bss"`, `"ss"`, `"invalid"`.
    pub addr_type: String,
    /// Surface index or state offset: an immediate or an `a0` subregister.
    /// 2.0 prints it only for stateful types.
    pub offset: Option<SurfaceOffset>,
    pub defs: Vec<i64>,
    pub extra: Extra,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SurfaceOffset {
    Imm(i64),
    Reg(Reg),
}

impl Surface {
    /// Stateful surfaces carry an index or offset; 2.0 prints it only for these.
    pub fn is_stateful(&self) -> bool {
        matches!(self.addr_type.as_str(), "bti" | "bss" | "ss")
    }
}

impl Instruction {
    /// `send`, `sendc`, `sends`, `sendsc`: iga64 prints their operands in the send layout.
    pub fn is_send(&self) -> bool {
        is_send_op(&self.op)
    }
    /// Printed in load/store syntax (`-Xprint-ldst`): the op is the message
    /// (`load`, `store`, `atomic_iadd`, ...) rather than a send, with an
    /// address operand and no descriptors.
    pub fn is_load_store_syntax(&self) -> bool {
        !self.is_send()
            && self
                .srcs
                .iter()
                .any(|s| matches!(s.kind, OperandKind::Address(_)))
    }
    pub fn has_opt(&self, name: &str) -> bool {
        self.opts.iter().any(|o| o == name)
    }
}

pub fn is_send_op(op: &str) -> bool {
    crate::ops::has(op, crate::ops::SEND)
}

impl Listing {
    pub fn insts(&self) -> impl Iterator<Item = &Instruction> {
        self.elems.iter().filter_map(|e| match e {
            Element::Inst(i) => Some(&**i),
            Element::Label(_) => None,
        })
    }
    pub fn labels(&self) -> impl Iterator<Item = &Label> {
        self.elems.iter().filter_map(|e| match e {
            Element::Label(l) => Some(&**l),
            Element::Inst(_) => None,
        })
    }
}
