//! Lowering an IGA listing once into the form the run loop executes: operands as
//! byte offsets into the register file, regions as per-channel offsets, predicates
//! and conditional modifiers as flag offsets, labels as instruction indices, ALU
//! rows and send messages resolved. Nothing here runs per channel; everything the
//! run loop would otherwise look up by name is decided here.

use crate::alu::{self, CondMod};
use crate::message;
use crate::regfile::Layout;
use gpukit_iga::model::{
    Element, Instruction, Listing, OperandKind, RegOperand, Region as IgaRegion, SrcMod,
};
use gpukit_iga::syntax::{gen_of, Gen};
use gpukit_visa::isa::Type;
use std::collections::HashMap;

/// Why a listing cannot be lowered: the instruction (its position among the
/// listing's instructions and its mnemonic) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("instruction #{index} ({mnemonic}): {message}")]
pub struct LowerError {
    pub index: usize,
    pub mnemonic: String,
    pub message: String,
}

/// How to lower.
#[derive(Clone, Debug, Default)]
pub struct LowerOptions {
    /// Where a thread starts, in bytes from the kernel's first instruction: XeHP+
    /// zebin kernels skip the per-thread-data load prolog
    /// (`offset_to_skip_per_thread_data_load` in `.ze_info`) when the runtime
    /// writes the payload itself.
    pub start_offset: u32,
}

/// A listing lowered for execution.
pub struct Program {
    pub platform: Gen,
    pub layout: Layout,
    pub(crate) insts: Vec<Inst>,
    /// The listing's instructions, for messages, traces and descriptors decoded at
    /// run time.
    pub(crate) source: Vec<Instruction>,
    /// Each instruction's byte offset from the kernel's start (what `call` saves
    /// and `ret` reads).
    pub(crate) pcs: Vec<u32>,
    /// The instruction a thread starts at.
    pub(crate) start: usize,
}

impl Program {
    /// The listing's instruction `index` (as [`crate::TraceStep::index`] and errors number them).
    pub fn instruction(&self, index: usize) -> Option<&Instruction> {
        self.source.get(index)
    }
    pub fn len(&self) -> usize {
        self.insts.len()
    }
    pub fn is_empty(&self) -> bool {
        self.insts.is_empty()
    }
    /// The instruction at byte offset `pc` (a return address, a register jump).
    pub(crate) fn index_of_pc(&self, pc: u32) -> Option<usize> {
        self.pcs.binary_search(&pc).ok()
    }
}

/// `--check` findings name a Gen instruction by its index among the listing's
/// instructions (the front end maps it to a line and the `.asm` comment's `$N`).
impl gpukit_visa::interp::check::Locate for Program {
    fn site(
        &self,
        pc: u32,
        work_item: [u32; 3],
        action: &'static str,
    ) -> gpukit_visa::interp::check::Site {
        gpukit_visa::interp::check::Site {
            index: pc as usize,
            function: None,
            mnemonic: self
                .source
                .get(pc as usize)
                .map(mnemonic)
                .unwrap_or_default(),
            action,
            work_item,
            source: None,
        }
    }
}

/// Per-channel byte offsets of an operand's elements in the register file
/// (channel `i` of the instruction, before the execution offset applies).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Offsets {
    /// Every channel reads the same element (`<0;1,0>`).
    Scalar(u32),
    /// Channel `i` at `base + i * step`.
    Linear { base: u32, step: u32 },
    /// Anything else: one offset per channel.
    Table(Box<[u32]>),
}

impl Offsets {
    #[inline]
    pub fn at(&self, i: usize) -> u32 {
        match self {
            Offsets::Scalar(b) => *b,
            Offsets::Linear { base, step } => base + i as u32 * step,
            Offsets::Table(t) => t[i],
        }
    }
    /// The offsets of a `<v;w,h>` region of `size`-byte elements from `base`, for
    /// `n` channels; `None` when one lies past `limit`.
    fn region(
        base: u32,
        (v, w, h): (u32, u32, u32),
        size: u32,
        n: u32,
        limit: u32,
    ) -> Option<Offsets> {
        let (v, w, h, size) = (
            u64::from(v),
            u64::from(w.max(1)),
            u64::from(h),
            u64::from(size),
        );
        let at = |i: u32| {
            let i = u64::from(i);
            u64::from(base) + ((i / w) * v + (i % w) * h) * size
        };
        // Every offset (and so the step) then fits in u32.
        if (0..n).any(|i| at(i) + size > u64::from(limit)) {
            return None;
        }
        Some(if n == 1 || (v == 0 && h == 0) {
            Offsets::Scalar(base)
        } else if u64::from(n) <= w || v == w * h {
            Offsets::Linear {
                base,
                step: (h * size) as u32,
            }
        } else {
            Offsets::Table((0..n).map(|i| at(i) as u32).collect())
        })
    }
}

/// An indirect operand `r[a0.N, off]`: the element offsets relative to the
/// address, and which address subregister each channel uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Indirect {
    /// Byte offset of the first address subregister (`a0.N`, 16 bits each).
    pub addr: u32,
    /// The immediate offset added to the address.
    pub off: i32,
    /// Channel offsets from the address (1x1), or from the channel's own address (VxH).
    pub rel: Offsets,
    /// VxH/Vx1: channel `i` uses address subregister `N + i / width`.
    pub width: Option<u32>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Src {
    Reg(Offsets),
    Indirect(Box<Indirect>),
    /// The immediate's bits as the operand type holds them.
    Imm(u64),
    /// A packed vector immediate (`:v`, `:uv`, `:vf`): channel `i` gets element `i % 8`,
    /// already widened to the instruction's source type (`ty` below).
    ImmVec(Box<[u64; 8]>),
}

/// One source operand.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Source {
    pub src: Src,
    pub ty: Type,
    pub size: u32,
    pub modifier: SrcMod,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum DstAt {
    /// `null`: results are dropped (flags and accumulators still written).
    Null,
    Reg(Offsets),
    Indirect(Box<Indirect>),
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Dest {
    pub at: DstAt,
    pub ty: Type,
    pub size: u32,
    pub sat: bool,
}

/// A predicate: the flag subregister (byte offset), its sense, and `.anyN`/`.allN`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pred {
    pub flag: u32,
    pub inv: bool,
    /// Channels per group for `.anyN`/`.allN` (0: each channel its own bit).
    pub group: u8,
    pub all: bool,
}

/// A conditional modifier and the flag subregister it writes (byte offset; none
/// for a `sel`, which iga64 lists without one: it writes no flag).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cond {
    pub cm: CondMod,
    pub flag: Option<u32>,
}

/// A send descriptor: an immediate, or the byte offset of the register holding it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Desc {
    Imm(u32),
    Reg(u32),
}

pub(crate) struct Send {
    /// Decoded at lowering when both descriptors are immediates.
    pub message: Option<message::Message>,
    pub desc: Desc,
    pub ex_desc: Desc,
    pub src0: u32,
    pub src1: Option<u32>,
    pub dst: Option<u32>,
}

/// Where a branch goes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Target {
    Index(usize),
    /// A register holding a byte offset: relative to the instruction (`jmpi`,
    /// `brd`) or absolute (`ret`, `calla`).
    Reg {
        at: u32,
        relative: bool,
    },
}

pub(crate) enum Kind {
    Alu(&'static alu::Op),
    Send(Box<Send>),
    /// Predicated channels continue, the others go to `jip` (past an `else` there).
    If {
        jip: usize,
    },
    /// Channels that reach the `else` (they ran the if-block) go to `jip`.
    Else {
        jip: usize,
    },
    /// Predicated channels (every channel when unpredicated) go to `to`; with
    /// `on_false`, the channels whose predicate fails. Gen9 `goto` branches that
    /// way: IGC guards an unconditional one there with an all-zero flag (`(W) mov
    /// f0.0 0` then `(f0.0) goto`), and a switch's range tests on skl carry the
    /// opposite predicate of the same test on ICL and TGL.
    Jump {
        to: usize,
        on_false: bool,
    },
    /// `while`: predicated channels go back to `jip`.
    While {
        jip: usize,
    },
    /// `jmpi`, `brd`: the whole thread (channels at this instruction) jumps.
    Jmpi(Target),
    /// `call`/`calla`: saves the return offset and the calling channels in `dst`.
    Call {
        target: Target,
        save: u32,
    },
    /// `ret`: back to the offset saved at `from`.
    Ret {
        from: u32,
    },
    /// Reconvergence points and everything else that does nothing to the data:
    /// `endif`, `join`, `nop`, `sync`, `wait`.
    Nop,
    /// `illegal`: an error if reached.
    Illegal,
}

/// One lowered instruction.
pub(crate) struct Inst {
    pub kind: Kind,
    pub exec_size: u32,
    pub exec_offset: u32,
    pub nomask: bool,
    pub pred: Option<Pred>,
    pub cond: Option<Cond>,
    /// `AccWrEn`: the result goes to the accumulator too.
    pub acc_write: bool,
    pub dst: Option<Dest>,
    pub srcs: Vec<Source>,
    pub types: alu::Types,
    /// Writes `cr0`: the float mode is read again after it.
    pub writes_cr0: bool,
    /// Reads `ce0`: the channel-enable register is refreshed before it.
    pub reads_ce0: bool,
    /// `csel` (a [`alu::Class::Select`] row that picks by src2, not src0 against src1).
    pub csel: bool,
    /// A `mov`, or a `sel` the predicate picks for, whose sources have the
    /// destination's type, no modifiers and no saturation: the result is the picked
    /// source's bits (a NaN's payload and IGC's `:hf` constants used as words survive).
    pub raw: bool,
}

/// Lowers `listing` for a device with `grf_bytes`-byte GRFs (32, or 64 on XeHPC).
pub fn lower(listing: &Listing, grf_bytes: u32) -> Result<Program, LowerError> {
    lower_with(listing, grf_bytes, &LowerOptions::default())
}

/// [`lower`] with [`LowerOptions`].
pub fn lower_with(
    listing: &Listing,
    grf_bytes: u32,
    options: &LowerOptions,
) -> Result<Program, LowerError> {
    let platform = gen_of(&listing.platform);
    let source: Vec<Instruction> = listing.insts().cloned().collect();
    let err = |index: usize, message: String| LowerError {
        index,
        mnemonic: source.get(index).map(mnemonic).unwrap_or_default(),
        message,
    };
    if !matches!(grf_bytes, 32 | 64) {
        return Err(err(
            0,
            format!("GRF size {grf_bytes} is not 32 or 64 bytes"),
        ));
    }
    // Labels name the instruction that follows them.
    let mut labels: HashMap<&str, usize> = HashMap::new();
    let mut n = 0;
    for e in &listing.elems {
        match e {
            Element::Label(l) => {
                labels.insert(&l.symbol, n);
            }
            Element::Inst(_) => n += 1,
        }
    }
    let mut pcs = Vec::with_capacity(source.len());
    let mut pc = 0u32;
    for inst in &source {
        let at = inst
            .pc
            .and_then(|p| u32::try_from(p).ok())
            .filter(|p| *p >= pc)
            .unwrap_or(pc);
        pcs.push(at);
        pc = at.saturating_add(if inst.has_opt("Compacted") { 8 } else { 16 });
    }
    let start = if options.start_offset == 0 {
        0
    } else {
        pcs.binary_search(&options.start_offset).map_err(|_| {
            err(
                0,
                format!(
                    "no instruction starts at byte {} (the start offset)",
                    options.start_offset
                ),
            )
        })?
    };
    let max_grf = source
        .iter()
        .flat_map(|i| i.dst.iter().map(|d| &**d).chain(i.srcs.iter()))
        .filter_map(|o| match &o.kind {
            OperandKind::Direct(r) if r.reg.name == "r" => Some(r.reg.num),
            OperandKind::Data(d) if d.reg.name == "r" => Some(d.reg.num + d.len.unwrap_or(1)),
            OperandKind::Address(a) if a.reg.name == "r" => Some(a.reg.num + a.len),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let grf_count = if max_grf >= 128 { 256 } else { 128 };
    let layout = Layout::new(grf_bytes, grf_count);
    let cx = Cx {
        layout,
        platform,
        labels: &labels,
        source: &source,
    };
    let insts = source
        .iter()
        .enumerate()
        .map(|(i, inst)| cx.inst(i, inst).map_err(|m| err(i, m)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Program {
        platform,
        layout,
        insts,
        source,
        pcs,
        start,
    })
}

/// The mnemonic as IGA prints it (`math.inv`, `send.dc1`).
pub(crate) fn mnemonic(inst: &Instruction) -> String {
    match &inst.subop {
        Some(s) => format!("{}.{s}", inst.op),
        None => inst.op.clone(),
    }
}

struct Cx<'a> {
    layout: Layout,
    platform: Gen,
    labels: &'a HashMap<&'a str, usize>,
    source: &'a [Instruction],
}

type Res<T> = Result<T, String>;

fn type_of(name: Option<&str>) -> Res<Option<Type>> {
    match name {
        None | Some("") => Ok(None),
        Some(n) => Type::from_name(n)
            .filter(|t| t.0 < 0x10 && *t != Type::BOOL)
            .map(Some)
            .ok_or_else(|| format!("type :{n} is not supported")),
    }
}

fn size_of(t: Type) -> u32 {
    t.size().unwrap_or(4) as u32
}

impl Cx<'_> {
    fn inst(&self, index: usize, inst: &Instruction) -> Res<Inst> {
        let exec_size = u32::try_from(inst.exec_size)
            .ok()
            .filter(|s| matches!(s, 1 | 2 | 4 | 8 | 16 | 32))
            .ok_or_else(|| format!("execution size {} is not supported", inst.exec_size))?;
        let exec_offset = u32::try_from(inst.exec_offset)
            .ok()
            .filter(|o| o % 4 == 0 && o + exec_size <= 32)
            .ok_or_else(|| {
                format!(
                    "execution offset M{} does not fit {} channels in 32",
                    inst.exec_offset, exec_size
                )
            })?;
        let flag_at = |what: &str| -> Res<u32> {
            let r = inst
                .flag_reg
                .as_ref()
                .ok_or_else(|| format!("the {what} names no flag register"))?;
            self.layout
                .flag(r.num, r.sub)
                .ok_or_else(|| format!("flag register f{}.{} does not exist", r.num, r.sub))
        };
        let pred = match &inst.pred {
            None => None,
            Some(p) => {
                let (all, group) = predicate_function(&p.func, exec_size)
                    .ok_or_else(|| format!("predicate function {} is not supported", p.func))?;
                Some(Pred {
                    flag: flag_at("predicate")?,
                    inv: p.inv,
                    group,
                    all,
                })
            }
        };
        let cond = match &inst.flag_modifier {
            None => None,
            Some(fm) => Some(Cond {
                cm: CondMod::parse(&fm.cond).ok_or_else(|| {
                    format!("conditional modifier ({}) is not supported", fm.cond)
                })?,
                flag: match inst.flag_reg {
                    Some(_) => Some(flag_at("conditional modifier")?),
                    None => None,
                },
            }),
        };
        let mut out = Inst {
            kind: Kind::Nop,
            exec_size,
            exec_offset,
            nomask: inst.wren,
            pred,
            cond,
            acc_write: inst.has_opt("AccWrEn"),
            dst: None,
            srcs: Vec::new(),
            types: alu::Types {
                dst: Type::UD,
                src: [Type::UD; 3],
            },
            writes_cr0: false,
            reads_ce0: false,
            csel: inst.op == "csel",
            raw: false,
        };
        out.kind = match inst.op.as_str() {
            _ if inst.is_send() || inst.is_load_store_syntax() => {
                Kind::Send(Box::new(self.send(inst)?))
            }
            "if" => Kind::If {
                jip: self.past_else(self.label(inst, 0)?),
            },
            "else" => Kind::Else {
                jip: self.label(inst, 0)?,
            },
            // goto: predicated channels go to UIP; halt likewise.
            "goto" | "halt" => Kind::Jump {
                to: self.label(inst, 1).or_else(|_| self.label(inst, 0))?,
                on_false: inst.op == "goto" && self.platform == Gen::Gen9,
            },
            // break waits past the loop's while (its UIP is the while itself);
            // cont goes to the while, which decides whether it loops again.
            "break" => Kind::Jump {
                to: self.past_while(self.label(inst, 1).or_else(|_| self.label(inst, 0))?),
                on_false: false,
            },
            "cont" => Kind::Jump {
                to: self.label(inst, 1).or_else(|_| self.label(inst, 0))?,
                on_false: false,
            },
            "while" => Kind::While {
                jip: self.label(inst, 0)?,
            },
            "endif" | "join" | "nop" | "sync" | "wait" => Kind::Nop,
            "illegal" => Kind::Illegal,
            "jmpi" | "brd" => Kind::Jmpi(self.target(inst, true)?),
            "call" | "calla" => {
                let save = match inst.dst.as_deref().map(|d| &d.kind) {
                    Some(OperandKind::Direct(r)) => self.direct(r, Type::UD, 2)?.0,
                    _ => return Err("the call saves its return offset nowhere".into()),
                };
                Kind::Call {
                    target: self.target(inst, inst.op == "call")?,
                    save,
                }
            }
            "ret" => match inst.srcs.first().map(|s| &s.kind) {
                Some(OperandKind::Direct(r)) => Kind::Ret {
                    from: self.direct(r, Type::UD, 2)?.0,
                },
                _ => return Err("ret reads its return offset from no register".into()),
            },
            _ => {
                let op = alu::find_for(inst, self.platform)
                    .ok_or_else(|| format!("{} is not supported", mnemonic(inst)))?;
                self.alu_operands(inst, op, &mut out)?;
                Kind::Alu(op)
            }
        };
        let _ = index;
        Ok(out)
    }

    /// Types and operands of an ALU instruction.
    fn alu_operands(&self, inst: &Instruction, op: &alu::Op, out: &mut Inst) -> Res<()> {
        let n = out.exec_size;
        let sources = usize::from(op.sources).min(3);
        if inst.srcs.len() < sources {
            return Err(format!(
                "{} takes {} sources, the listing gives {}",
                mnemonic(inst),
                sources,
                inst.srcs.len()
            ));
        }
        let mut srcs = Vec::with_capacity(sources);
        for (s, operand) in inst.srcs.iter().take(sources).enumerate() {
            let source = match &operand.kind {
                OperandKind::Direct(r) | OperandKind::Macro(r) => {
                    let ty = type_of(r.ty.as_deref())?.unwrap_or(Type::UD);
                    let rgn = source_region(r.rgn, n);
                    let (base, limit) = self.direct(r, ty, 1)?;
                    if r.reg.name == "ce" {
                        out.reads_ce0 = true;
                    }
                    let offsets = Offsets::region(base, rgn, size_of(ty), n, limit)
                        .ok_or_else(|| format!("source {s} reaches past its register file"))?;
                    Source {
                        src: Src::Reg(offsets),
                        ty,
                        size: size_of(ty),
                        modifier: r.mods,
                    }
                }
                OperandKind::Indirect(r) => {
                    let ty = type_of(r.ty.as_deref())?.unwrap_or(Type::UD);
                    Source {
                        src: Src::Indirect(Box::new(self.indirect(r, ty, n, false)?)),
                        ty,
                        size: size_of(ty),
                        modifier: r.mods,
                    }
                }
                OperandKind::Immediate { value, ty, .. } => {
                    let t = type_of(ty.as_deref())?.unwrap_or(Type::UD);
                    immediate(value, t)?
                }
                _ => return Err(format!("source {s} is not a register or an immediate")),
            };
            srcs.push(source);
        }
        // Packed vectors widen to the other sources' type (a `mov` to the destination's).
        let dst_ty = match inst.dst.as_deref().map(|d| &d.kind) {
            Some(OperandKind::Direct(r) | OperandKind::Indirect(r) | OperandKind::Macro(r)) => {
                type_of(r.ty.as_deref())?.unwrap_or(Type::UD)
            }
            None => Type::UD,
            _ => return Err("the destination is not a register".into()),
        };
        for src in srcs.iter_mut() {
            if matches!(src.ty, Type::V | Type::UV | Type::VF) {
                let elem = match src.ty {
                    Type::VF => Type::F,
                    Type::V => Type::W,
                    _ => Type::UW,
                };
                src.ty = elem;
                src.size = size_of(elem);
            }
        }
        out.types = alu::Types {
            dst: dst_ty,
            src: std::array::from_fn(|s| srcs.get(s).map_or(dst_ty, |x| x.ty)),
        };
        let sat = match inst.dst.as_deref().map(|d| &d.kind) {
            Some(OperandKind::Direct(r) | OperandKind::Indirect(r) | OperandKind::Macro(r)) => {
                r.sat
            }
            _ => false,
        };
        out.raw = !sat
            && (op.mnemonic == "mov" || (op.mnemonic == "sel" && inst.flag_modifier.is_none()))
            && srcs
                .iter()
                .all(|s| s.ty == dst_ty && s.modifier == SrcMod::None);
        out.srcs = srcs;
        out.dst = match inst.dst.as_deref().map(|d| &d.kind) {
            None => None,
            Some(OperandKind::Direct(r) | OperandKind::Macro(r)) => {
                let size = size_of(dst_ty);
                let at = if r.reg.name == "null" {
                    DstAt::Null
                } else {
                    if r.reg.name == "cr" {
                        out.writes_cr0 = true;
                    }
                    let (base, limit) = self.direct(r, dst_ty, 1)?;
                    let h = r.rgn.map_or(1, |g| clamp_u32(g.h)).max(1);
                    DstAt::Reg(
                        Offsets::region(base, (n.saturating_mul(h), n, h), size, n, limit)
                            .ok_or("the destination reaches past its register file")?,
                    )
                };
                Some(Dest {
                    at,
                    ty: dst_ty,
                    size,
                    sat: r.sat,
                })
            }
            Some(OperandKind::Indirect(r)) => Some(Dest {
                at: DstAt::Indirect(Box::new(self.indirect(r, dst_ty, n, true)?)),
                ty: dst_ty,
                size: size_of(dst_ty),
                sat: r.sat,
            }),
            Some(_) => return Err("the destination is not a register".into()),
        };
        Ok(())
    }

    /// The byte offset of a direct register operand's first element and the end of
    /// the block it may address (`units`: how many elements the operand holds at least).
    fn direct(&self, r: &RegOperand, ty: Type, units: u32) -> Res<(u32, u32)> {
        let name = r.reg.name.as_str();
        let (base, block) = self
            .layout
            .register(name, r.reg.num)
            .ok_or_else(|| format!("register {}{} does not exist", name, r.reg.num))?;
        let size = u64::from(size_of(ty));
        let sub = u64::try_from(r.reg.sub).map_err(|_| "negative subregister".to_string())?;
        if sub
            .saturating_mul(size)
            .saturating_add(u64::from(units) * size)
            > u64::from(block)
        {
            return Err(format!(
                "{}{}.{} lies past the register file",
                name, r.reg.num, r.reg.sub
            ));
        }
        Ok((base + (sub * size) as u32, base + block))
    }

    fn indirect(&self, r: &RegOperand, ty: Type, n: u32, dst: bool) -> Res<Indirect> {
        if r.reg.name != "a" {
            return Err(format!("indirect addressing through {}", r.reg.name));
        }
        let addr = self
            .layout
            .register("a", 0)
            .map(|(b, _)| b + 2 * r.reg.sub.clamp(0, 15) as u32)
            .ok_or("no address register")?;
        let size = size_of(ty);
        let off = i32::try_from(r.aoff).map_err(|_| "address offset out of range".to_string())?;
        // Relative offsets may exceed any one register; the run checks each address.
        let unlimited = u32::MAX / 2;
        // Without a region (JSON 1.0 prints none; the text reader drops the usual
        // one), the VxH `<1,0>` compilers emit, scalar at execution size 1.
        let rgn = r.rgn.or_else(|| {
            (!dst).then(|| gpukit_iga::convert::inferred_indirect_region(i64::from(n)))
        });
        let (rel, width) = match rgn {
            Some(IgaRegion { v: None, w, h }) if !dst => {
                let w = w.unwrap_or(1).clamp(1, 32) as u32;
                // VxH: each row of `w` channels has its own address register.
                let row = Offsets::region(0, (0, w, clamp_u32(h)), size, w, unlimited)
                    .ok_or("region too large")?;
                let t: Box<[u32]> = (0..n).map(|i| row.at((i % w) as usize)).collect();
                (Offsets::Table(t), Some(w))
            }
            rgn => {
                let shape = if dst {
                    let h = rgn.map_or(1, |g| clamp_u32(g.h)).max(1);
                    (n.saturating_mul(h), n, h)
                } else {
                    source_region(rgn, n)
                };
                (
                    Offsets::region(0, shape, size, n, unlimited).ok_or("region too large")?,
                    None,
                )
            }
        };
        if let Some(w) = width {
            if r.reg.sub.max(0).saturating_add(i64::from(n.div_ceil(w))) > 16 {
                return Err("VxH addressing uses more address subregisters than a0 has".into());
            }
        }
        Ok(Indirect {
            addr,
            off,
            rel,
            width,
        })
    }

    /// The instruction index of label operand `k`.
    fn label(&self, inst: &Instruction, k: usize) -> Res<usize> {
        match inst.srcs.get(k).map(|s| &s.kind) {
            Some(OperandKind::Label { target, .. }) => self
                .labels
                .get(target.as_str())
                .copied()
                .ok_or_else(|| format!("label {target} is not in the listing")),
            _ => Err(format!("{} has no label operand {k}", inst.op)),
        }
    }

    /// Where a jump goes: a label, or a register (relative to this instruction for
    /// `jmpi`/`brd`/`call`, absolute for `calla`).
    fn target(&self, inst: &Instruction, relative: bool) -> Res<Target> {
        if let Ok(i) = self.label(inst, 0) {
            return Ok(Target::Index(i));
        }
        match inst.srcs.first().map(|s| &s.kind) {
            Some(OperandKind::Direct(r)) => Ok(Target::Reg {
                at: self.direct(r, Type::UD, 1)?.0,
                relative,
            }),
            Some(OperandKind::Immediate { value, .. }) => Err(format!(
                "a jump to the immediate offset {value} (expected a label)"
            )),
            _ => Err(format!("{} has no target", inst.op)),
        }
    }

    /// An `if`'s JIP, when it names the `else` itself, means the else-block after it.
    fn past_else(&self, i: usize) -> usize {
        match self.source.get(i) {
            Some(s) if s.op == "else" => i + 1,
            _ => i,
        }
    }

    /// A `break`'s UIP names its loop's `while`; the breaking channels wait after it.
    fn past_while(&self, i: usize) -> usize {
        match self.source.get(i) {
            Some(s) if s.op == "while" => i + 1,
            _ => i,
        }
    }

    fn send(&self, inst: &Instruction) -> Res<Send> {
        let payload = |k: usize| -> Res<Option<u32>> {
            let reg = match inst.srcs.get(k).map(|s| &s.kind) {
                Some(OperandKind::Address(a)) => &a.reg,
                Some(OperandKind::Data(d)) => &d.reg,
                Some(OperandKind::Direct(r)) => &r.reg,
                _ => return Ok(None),
            };
            if reg.name == "null" {
                return Ok(None);
            }
            if reg.name != "r" {
                return Err(format!("send payload in {}{}", reg.name, reg.num));
            }
            Ok(self.layout.register("r", reg.num).map(|(b, _)| b))
        };
        let dst = match inst.dst.as_deref().map(|d| &d.kind) {
            Some(OperandKind::Data(d)) if d.reg.name == "r" => {
                self.layout.register("r", d.reg.num).map(|(b, _)| b)
            }
            Some(OperandKind::Direct(r)) if r.reg.name == "r" => {
                self.layout.register("r", r.reg.num).map(|(b, _)| b)
            }
            _ => None,
        };
        let src0 = payload(0)?.ok_or("the send has no payload register")?;
        let unary =
            gpukit_iga::ops::has(&inst.op, gpukit_iga::ops::UNARY_SEND) && self.platform < Gen::Xe;
        let src1 = if unary { None } else { payload(1)? };
        // The descriptors are the last two sources: ex_desc, then desc (IGA's
        // load/store syntax has none: the message decodes from the syntax).
        let ldst = inst.is_load_store_syntax();
        let descs: Vec<Desc> = if ldst {
            Vec::new()
        } else {
            inst.srcs
                .iter()
                .rev()
                .take(2)
                .map(|s| match &s.kind {
                    OperandKind::Immediate { value, .. } => parse_int(value)
                        .map(|v| Desc::Imm(v as u32))
                        .ok_or_else(|| format!("descriptor {value} is not a number")),
                    OperandKind::Direct(r) if r.reg.name == "a" => {
                        Ok(Desc::Reg(self.direct(r, Type::UD, 1)?.0))
                    }
                    _ => Err("a send descriptor is neither an immediate nor in a0".into()),
                })
                .collect::<Res<_>>()?
        };
        let (desc, ex_desc) = if ldst {
            // The syntax names the message; a `bss[a0.N]`/`ss[a0.N]` state register
            // stands for the extended descriptor.
            let ex = match message::descriptors(inst).0 {
                message::Descriptor::Reg(r) => {
                    Desc::Reg(self.direct(&RegOperand::new(r), Type::UD, 1)?.0)
                }
                message::Descriptor::Imm(v) => Desc::Imm(v),
            };
            (Desc::Imm(0), ex)
        } else if descs.len() == 2 {
            (descs[0], descs[1])
        } else {
            return Err("the send has no descriptors".into());
        };
        let message = match (desc, ex_desc) {
            (Desc::Imm(d), Desc::Imm(x)) => Some(message::decode(inst, self.platform, d, x)?),
            _ => None,
        };
        Ok(Send {
            message,
            desc,
            ex_desc,
            src0,
            src1,
            dst,
        })
    }
}

/// `.anyN`/`.allN` (and `.anyv`/`.allv`: the whole execution size).
fn predicate_function(func: &str, exec_size: u32) -> Option<(bool, u8)> {
    let f = func.strip_prefix('.').unwrap_or(func);
    if f.is_empty() {
        return Some((false, 0));
    }
    let (all, rest) = if let Some(r) = f.strip_prefix("any") {
        (false, r)
    } else {
        (true, f.strip_prefix("all")?)
    };
    let n = match rest {
        "v" => exec_size,
        _ => rest.strip_suffix('h')?.parse::<u32>().ok()?,
    };
    matches!(n, 1 | 2 | 4 | 8 | 16 | 32).then_some((all, n as u8))
}

/// A source region `<v;w,h>` as (v, w, h) in elements. Ternary (3-source) operands
/// print `<v;h>` (width implied) and src2 `<h>` (iga64's JSON spells both out).
fn source_region(rgn: Option<IgaRegion>, n: u32) -> (u32, u32, u32) {
    let c = clamp_u32;
    match rgn {
        None => (0, 1, 0),
        Some(IgaRegion { v, w: Some(w), h }) => (c(v.unwrap_or(0)), c(w), c(h)),
        Some(IgaRegion {
            v: Some(v),
            w: None,
            h,
        }) => {
            let (v, h) = (c(v), c(h));
            // `<v;h>`: rows of v/h elements h apart, rows v apart.
            let w = v.checked_div(h).unwrap_or(1).max(1);
            (v, w, h)
        }
        Some(IgaRegion {
            v: None,
            w: None,
            h,
        }) => (c(h).saturating_mul(n), n, c(h)),
    }
}

/// A region field as a count: negative is 0, and beyond any register file is as
/// good as `u32::MAX / 4` (the offsets check rejects it).
fn clamp_u32(x: i64) -> u32 {
    x.clamp(0, i64::from(u32::MAX / 4)) as u32
}

fn parse_int(s: &str) -> Option<i128> {
    let (neg, t) = match s.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, s),
    };
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i128::from_str_radix(h, 16).ok()?
    } else {
        t.parse::<i128>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// An immediate source: hex is the type's bits; decimals are values.
fn immediate(value: &str, ty: Type) -> Res<Source> {
    let bad = || {
        format!(
            "immediate {value}:{} does not parse",
            ty.name().unwrap_or("?")
        )
    };
    let size = size_of(ty);
    let mask = if size >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * size)) - 1
    };
    let is_hex = value.trim_start_matches('-').starts_with("0x");
    let src = match ty {
        Type::V | Type::UV | Type::VF => {
            let bits = parse_int(value).ok_or_else(bad)? as u64;
            let lanes = if ty == Type::VF { 4 } else { 8 };
            let elems: [u64; 8] = std::array::from_fn(|i| {
                let k = i % lanes;
                match ty {
                    // 4-bit signed integers, as words.
                    Type::V => (((bits >> (4 * k)) as u8 as i8) << 4 >> 4) as i16 as u16 as u64,
                    Type::UV => (bits >> (4 * k)) & 0xF,
                    // 8-bit restricted floats, as f32 bits.
                    _ => (vf_to_f32((bits >> (8 * k)) as u8)).to_bits() as u64,
                }
            });
            Src::ImmVec(Box::new(elems))
        }
        _ if gpukit_visa::interp::value::is_float(ty) && is_nan_text(value) => {
            Src::Imm(nan_bits(value, size).ok_or_else(bad)?)
        }
        _ if gpukit_visa::interp::value::is_float(ty) && !is_hex => {
            let f: f64 = value.parse().map_err(|_| bad())?;
            Src::Imm(gpukit_visa::interp::value::encode(
                ty,
                gpukit_visa::interp::value::Val::F(f),
                false,
            ))
        }
        _ => Src::Imm(parse_int(value).ok_or_else(bad)? as u64 & mask),
    };
    Ok(Source {
        src,
        ty,
        size,
        modifier: SrcMod::None,
    })
}

fn is_nan_text(value: &str) -> bool {
    let v = value.trim_start_matches('-');
    v.starts_with("qnan") || v.starts_with("snan")
}

/// iga64 prints a NaN immediate as `[-]qnan(P)` / `[-]snan(P)`: P is the mantissa
/// without its top (quiet) bit, which `qnan` sets; the exponent is all ones.
/// (`-qnan(0x1FF):hf` is 0xFFFF, `snan(0x5):f` 0x7F800005, as `iga64 -a` encodes them.)
fn nan_bits(value: &str, size: u32) -> Option<u64> {
    let (neg, v) = match value.strip_prefix('-') {
        Some(v) => (true, v),
        None => (false, value),
    };
    let (quiet, p) = match v.strip_prefix("qnan") {
        Some(p) => (true, p),
        None => (false, v.strip_prefix("snan")?),
    };
    let payload = parse_int(p.strip_prefix('(')?.strip_suffix(')')?)?;
    let mantissa_bits = match size {
        2 => 10,
        4 => 23,
        8 => 52,
        _ => return None,
    };
    let quiet_bit = 1u64 << (mantissa_bits - 1);
    let payload = u64::try_from(payload).ok().filter(|p| *p < quiet_bit)?;
    let total = 8 * size;
    let exponent = ((1u64 << (total - 1 - mantissa_bits)) - 1) << mantissa_bits;
    let sign = u64::from(neg) << (total - 1);
    Some(sign | exponent | if quiet { quiet_bit } else { 0 } | payload)
}

/// The 8-bit restricted float of `:vf` immediates: sign, 3-bit exponent (bias 3),
/// 4-bit mantissa; exponent 0 with mantissa 0 is zero.
fn vf_to_f32(b: u8) -> f32 {
    let sign = if b & 0x80 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((b >> 4) & 7);
    let m = f32::from(b & 0xF);
    if e == 0 && m == 0.0 {
        return 0.0 * sign;
    }
    sign * (1.0 + m / 16.0) * 2f32.powi(e - 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_immediates_are_iga64s_bit_patterns() {
        let bits = |v: &str, ty| match immediate(v, ty).map(|s| s.src) {
            Ok(Src::Imm(b)) => b,
            _ => panic!("{v} does not lower"),
        };
        assert_eq!(bits("qnan(0x3FFFFF)", Type::F), 0x7FFF_FFFF);
        assert_eq!(bits("-qnan(0x1)", Type::F), 0xFFC0_0001);
        assert_eq!(bits("snan(0x5)", Type::F), 0x7F80_0005);
        assert_eq!(bits("-qnan(0x1FF)", Type::HF), 0xFFFF);
        assert_eq!(bits("qnan(0x7)", Type::DF), 0x7FF8_0000_0000_0007);
        assert_eq!(bits("-inf", Type::F), 0xFF80_0000);
        assert!(immediate("qnan(0x400000)", Type::F).is_err());
    }

    #[test]
    fn regions_take_their_fast_forms() {
        let lim = 1 << 20;
        assert_eq!(
            Offsets::region(64, (0, 1, 0), 4, 16, lim),
            Some(Offsets::Scalar(64))
        );
        assert_eq!(
            Offsets::region(64, (8, 8, 1), 4, 16, lim),
            Some(Offsets::Linear { base: 64, step: 4 })
        );
        let t = Offsets::region(0, (4, 2, 1), 4, 4, lim).unwrap();
        assert_eq!((0..4).map(|i| t.at(i)).collect::<Vec<_>>(), [0, 4, 16, 20]);
        assert_eq!(Offsets::region(0, (8, 8, 1), 4, 16, 32), None);
    }

    #[test]
    fn packed_vectors_and_predicate_groups() {
        let s = immediate("0x76543210", Type::V).unwrap();
        let Src::ImmVec(v) = s.src else { panic!() };
        assert_eq!(v[3], 3);
        let s = immediate("0xF", Type::V).unwrap();
        let Src::ImmVec(v) = s.src else { panic!() };
        assert_eq!(v[0], 0xFFFF);
        assert_eq!(vf_to_f32(0x30), 1.0);
        assert_eq!(predicate_function(".any8h", 16), Some((false, 8)));
        assert_eq!(predicate_function(".allv", 16), Some((true, 16)));
        assert_eq!(predicate_function("", 16), Some((false, 0)));
    }
}
