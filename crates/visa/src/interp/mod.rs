//! Executes a kernel's vISA on the CPU, as `gpukit visa run` does: every hardware
//! thread of every work-group, with the spec's regions and channel enables (the
//! `semantics` module's evaluation), SIMD control flow by per-channel program
//! counters (a channel waits at a join point until the channels before it arrive,
//! which is what goto/join amount to for the structured code IGC emits), and the
//! memory messages OpenCL kernels use.
//!
//! Threads of a work-group run as cooperative tasks: each runs until it reaches a
//! barrier or ends; a barrier that some thread can never reach is reported as a
//! deadlock. Operands are found through the layout's field names
//! ([`crate::InstRef::operand`]), so the one opcode table drives this too.

pub mod alu;
pub mod check;
mod exec;
mod fast;
pub mod image;
pub mod memory;
pub mod message;
pub mod value;

pub use memory::{
    bindless_sampler, AddressMode, Buffer, ChannelType, ImageDesc, Memory, OutOfBounds,
    Reservation, ReservationLog, Sampler,
};
pub use value::{f16_to_f32, f32_to_f16};

use crate::isa::{Opcode, Type};
use crate::model::{InstRef, InstructionList, Interface, Operand, Routine, StringPool, VectorKind};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// How the runtime lays out one hardware thread's payload (GRF 0 onwards).
#[derive(Clone, Debug, Default)]
pub struct Payload {
    /// Local ID X, Y, Z present, each `simd` u16 values padded to whole GRFs, from GRF 1.
    pub local_id: [bool; 3],
    /// Where the cross-thread data starts (bytes from r0).
    pub cross_thread_offset: u32,
    /// The cross-thread data, identical for every thread.
    pub cross_thread: Vec<u8>,
}

/// One dispatch of one kernel.
#[derive(Clone, Debug)]
pub struct Launch {
    pub simd: u32,
    pub grf_bytes: u32,
    pub global: [u32; 3],
    pub local: [u32; 3],
    pub payload: Payload,
    /// Shared local memory per work-group, bytes.
    pub slm_bytes: u32,
    /// Stop after this many executed instructions (all threads), reported as an error.
    pub max_instructions: u64,
    /// Scratch (private) space each hardware thread may use through `%scratch`,
    /// bytes; at most [`SCRATCH_BYTES`]. Every thread of a work-group is live, so a
    /// caller budgets this times the threads of one.
    pub scratch_bytes: u32,
}

/// What a run meets that a device does without failing but `--check` reports: the
/// hook between the semantics here and the checker (`Thread::note` counts each
/// occurrence in an enabled channel; the run's [`Stats::findings`] has the totals).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Finding {
    /// A read past a buffer's end that stays inside the allocation the runtime gives
    /// it: IGC's block and dword messages read whole units past a narrower source access.
    OverRead,
    /// An integer `div`/`mod` by zero in an enabled channel (the result is the
    /// hardware's, see `exec::zero_divisor_result`).
    ZeroDivisor,
}

/// How many times each [`Finding`] occurred.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct Findings {
    pub over_read: u64,
    pub zero_divisor: u64,
}

impl Findings {
    pub fn is_empty(&self) -> bool {
        *self == Findings::default()
    }
    pub fn count(&self, f: Finding) -> u64 {
        match f {
            Finding::OverRead => self.over_read,
            Finding::ZeroDivisor => self.zero_divisor,
        }
    }
    fn add(&mut self, f: Finding, n: u64) {
        let slot = match f {
            Finding::OverRead => &mut self.over_read,
            Finding::ZeroDivisor => &mut self.zero_divisor,
        };
        *slot = slot.saturating_add(n);
    }
    fn merge(&mut self, other: &Findings) {
        for f in [Finding::OverRead, Finding::ZeroDivisor] {
            self.add(f, other.count(f));
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    pub groups: u64,
    pub threads: u64,
    /// Instructions executed, counted once per hardware thread.
    pub instructions: u64,
    /// Channel-instructions (instructions times enabled channels).
    pub channel_instructions: u64,
    pub barriers: u64,
    /// Occurrences of what `--check` reports (absent from the JSON when none).
    #[serde(skip_serializing_if = "Findings::is_empty")]
    pub findings: Findings,
}

impl Stats {
    /// Adds another work-group's counts.
    fn add(&mut self, other: &Stats) {
        self.groups += other.groups;
        self.threads += other.threads;
        self.instructions += other.instructions;
        self.channel_instructions += other.channel_instructions;
        self.barriers += other.barriers;
        self.findings.merge(&other.findings);
    }
}

/// Why a run stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunError {
    /// Index of the instruction in the routine's stream, when one is to blame.
    pub index: Option<usize>,
    /// The function that instruction belongs to, when it is not the kernel's.
    pub function: Option<String>,
    pub mnemonic: String,
    pub group: [u32; 3],
    pub thread: u32,
    pub message: String,
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(name) = &self.function {
            write!(f, "function {name}, ")?;
        }
        if let Some(i) = self.index {
            write!(f, "instruction #{i} ({}): ", self.mnemonic)?;
        }
        write!(
            f,
            "{} (work-group {},{},{}, thread {})",
            self.message, self.group[0], self.group[1], self.group[2], self.thread
        )
    }
}

impl RunError {
    /// An error of the launch or of work-group `group` that no instruction is to blame for.
    pub fn of_group(group: [u32; 3], message: String) -> RunError {
        RunError {
            index: None,
            function: None,
            mnemonic: String::new(),
            group,
            thread: 0,
            message,
        }
    }
    /// Threads of work-group `group` wait at a barrier that finished threads never reach.
    pub fn barrier_deadlock(group: [u32; 3], waiting: usize, finished: usize) -> RunError {
        RunError::of_group(
            group,
            format!(
                "barrier deadlock: {waiting} thread(s) wait at a barrier that {finished} finished thread(s) will never reach"
            ),
        )
    }
}

/// What a work-group does when each of its threads has run to a barrier or its end
/// (both front ends schedule threads this way): `Ok(true)` when none waits (the group
/// is done), `Ok(false)` when the waiting threads go on past the barrier. A barrier
/// that finished threads never reach is a deadlock, or under `--check` a finding, after
/// which the waiting threads go on.
pub fn barrier_round(
    checker: Option<&mut check::Checker>,
    code: &dyn check::Locate,
    group: [u32; 3],
    done: &[bool],
    at_barrier: usize,
) -> Result<bool, RunError> {
    if at_barrier == 0 {
        return Ok(true);
    }
    let finished = done.iter().filter(|d| **d).count();
    let mut reported = false;
    if let Some(c) = checker {
        reported = finished > 0 && c.barrier_unreached(code, done);
        c.next_interval();
    }
    if finished > 0 && !reported {
        return Err(RunError::barrier_deadlock(group, at_barrier, finished));
    }
    Ok(false)
}

/// A failure inside one instruction, before the location is attached.
#[derive(Debug)]
pub(crate) struct Fault(pub String);

impl From<OutOfBounds> for Fault {
    fn from(e: OutOfBounds) -> Self {
        Fault(e.to_string())
    }
}

pub(crate) type Res<T> = Result<T, Fault>;

pub(crate) fn fault<T>(msg: impl Into<String>) -> Res<T> {
    Err(Fault(msg.into()))
}

/// Where each variable id lives in a thread's register space.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot {
    pub base: u32,
    pub ty: Type,
    pub bytes: u32,
}

/// A variable's type, element count and alias (target id, byte offset).
type Decl = (Type, u32, Option<(u32, u32)>);

/// One routine (the kernel, or a function it calls) prepared for execution: its
/// variables' storage and its label targets.
pub(crate) struct Layout<'a> {
    pub name: &'a [u8],
    pub insts: &'a InstructionList,
    /// The routine's string pool (symbol names of `faddr`, callees of `fcall`).
    pub strings: &'a StringPool,
    /// Label id -> instruction index within the routine.
    pub labels: Vec<Option<usize>>,
    /// Variable id -> storage. Predefined ids (r0, %arg, %retval, ...) are one
    /// register file shared by every routine; declared variables are each routine's own.
    pub vars: Vec<Option<Slot>>,
    /// Address variable id -> first element in [`Thread::addr`].
    pub addr_base: Vec<u32>,
    /// Predicate P1 of this routine in [`Thread::preds`], and how many it declares.
    pub pred_base: usize,
    pub pred_count: usize,
    /// The program counter of the routine's first instruction.
    pub start: u32,
}

/// A kernel and the functions it may call, prepared for execution. Program counters
/// number the routines' instructions one after another, with a gap after each
/// routine so that falling off its end reaches no instruction.
pub(crate) struct Program<'a> {
    pub routines: Vec<Layout<'a>>,
    pub grf_size: u32,
    pub addr_total: usize,
    pub pred_total: usize,
    /// Surface and sampler variables are indexed by id in every routine (IGC sets
    /// each before its use, so a callee's own T6 does not need storage of its own).
    pub surface_count: usize,
    pub sampler_count: usize,
    /// The routines lowered for the translated engine (empty: everything generic).
    pub fast: fast::Code,
    /// Float arithmetic always runs in the mode native `f32`/`f64` arithmetic gives
    /// (see [`native_float_mode`]); when not, the translated engine leaves float
    /// instructions to the generic path, which applies `%cr0`.
    pub native_floats: bool,
}

/// Whether `%cr0` holds IGC's default float mode wherever the program computes: its
/// kernel's first instruction ORs in the mode's bits (round to nearest even,
/// denormals kept: a thread starts with `%cr0` = 0, flushing them) and nothing else
/// writes `%cr0` (labels and source positions before that instruction do not count:
/// every IGC kernel starts with its entry label). Kernels built with `-cl-denorms-are-zero`, and code that switches
/// the rounding mode (DG2's integer division by `inv`), fail this.
fn native_float_mode(routines: &[Layout]) -> bool {
    let writes_cr0 = |inst: InstRef<'_>| {
        matches!(inst.operand("dst"), Some(Operand::Vector(v))
            if matches!(v.kind, VectorKind::General { id: CR0, .. }))
    };
    let sets_native_mode = |inst: InstRef<'_>| {
        let native = value::FloatMode::from_cr0(value::FloatMode::IEEE_CR0);
        inst.opcode == Opcode::OR
            && matches!(inst.operand("src0"), Some(Operand::Vector(v))
                if matches!(v.kind, VectorKind::General { id: CR0, .. }))
            && matches!(inst.operand("src1"), Some(Operand::Vector(v))
                if matches!(v.kind, VectorKind::Immediate { bits, .. }
                    if value::FloatMode::from_cr0(bits.get() as u32) == native))
    };
    let mut first = true;
    let mut native = false;
    for r in routines {
        for inst in r.insts.iter() {
            if writes_cr0(inst) {
                if !(first && sets_native_mode(inst)) {
                    return false;
                }
                native = true;
            }
            // Labels and source positions come before the kernel's first instruction.
            first &= matches!(
                inst.opcode,
                Opcode::FUNC | Opcode::LABEL | Opcode::FILE | Opcode::LOC | Opcode::LIFETIME
            );
        }
    }
    native
}

const DONE: u32 = u32::MAX;
/// The register space the interpreter gives one thread's variables at most.
const MAX_REGISTER_BYTES: u32 = 64 << 20;
/// Scratch (private) space a hardware thread may use through `%scratch` at most.
pub const SCRATCH_BYTES: usize = 1 << 20;

/// One hardware thread.
pub(crate) struct Thread {
    pub grf: Vec<u8>,
    pub addr: Vec<u32>,
    pub preds: Vec<u32>,
    pub surfaces: Vec<u32>,
    /// Sampler variables: the sampler index each holds.
    pub samplers: Vec<u32>,
    pub pc: [u32; 32],
    /// Per channel: the return points of the open subroutine calls.
    pub calls: Vec<Vec<u32>>,
    pub index: u32,
    pub scratch: Vec<u8>,
    /// How far `scratch` may grow ([`Launch::scratch_bytes`]).
    pub scratch_limit: usize,
    /// The ALU's operand buffers, reused by every instruction.
    pub lanes: Vec<exec::Lanes>,
    /// What this thread met that `--check` reports ([`Finding`]).
    pub findings: Findings,
}

impl Thread {
    /// Counts a [`Finding`] of the running instruction.
    pub(crate) fn note(&mut self, f: Finding) {
        self.findings.add(f, 1);
    }
}

impl<'a> Program<'a> {
    fn new(
        kernel: &'a Routine,
        functions: &[(&'a [u8], &'a Routine)],
        grf_size: u32,
    ) -> Result<Self, String> {
        let mut program = Program {
            routines: Vec::with_capacity(functions.len() + 1),
            grf_size,
            addr_total: 0,
            pred_total: 0,
            surface_count: 0,
            sampler_count: 0,
            fast: fast::Code::default(),
            native_floats: false,
        };
        let mut next_byte = 0u32;
        let mut start = 0u32;
        for (name, routine) in std::iter::once((&b""[..], kernel)).chain(functions.iter().copied())
        {
            let layout = program.layout(name, routine, &mut next_byte, start)?;
            start = start
                .checked_add(layout.insts.len() as u32 + 1)
                .filter(|s| *s < DONE)
                .ok_or("the routines hold too many instructions")?;
            program.surface_count = program
                .surface_count
                .max(crate::limits::PREDEFINED_SURFACES as usize + routine.surfaces.len());
            // S31 is reserved for bindless samplers (4_visa_header.md): always present.
            program.sampler_count = program.sampler_count.max(routine.samplers.len()).max(32);
            program.routines.push(layout);
        }
        program.native_floats = native_float_mode(&program.routines);
        Ok(program)
    }

    /// Lays out one routine's variables from byte `next_byte` of the register space.
    fn layout(
        &mut self,
        name: &'a [u8],
        routine: &'a Routine,
        next_byte: &mut u32,
        start: u32,
    ) -> Result<Layout<'a>, String> {
        let grf_size = self.grf_size;
        let insts = routine
            .code
            .instructions()
            .ok_or("the instruction stream did not decode")?;
        let mut labels = vec![None; routine.labels.len()];
        for (i, inst) in insts.iter().enumerate() {
            if matches!(inst.opcode, Opcode::LABEL | Opcode::FUNC) {
                if let Some(crate::Operand::Label(l)) = inst.operand("label") {
                    if let Some(slot) = labels.get_mut(*l as usize) {
                        *slot = Some(i);
                    }
                }
            }
        }
        let user_base = crate::limits::PREDEFINED_VARS;
        let count = user_base as usize + routine.variables.len();
        // The predefined variables, laid out with the kernel, are shared.
        let shared: Option<Vec<Option<Slot>>> = self
            .routines
            .first()
            .map(|k| k.vars[..user_base as usize].to_vec());
        // Declared type, element count and alias of every id.
        let decl = |id: usize| -> Option<Decl> {
            if id < user_base as usize {
                let p = crate::isa::PREDEFINED_VARS.get(id)?;
                return Some((p.ty, p.num_elements as u32, None));
            }
            let v = routine.variables.get(id - user_base as usize)?;
            let alias = (v.alias_index != 0).then_some((v.alias_index, v.alias_offset as u32));
            Some((v.ty(), v.num_elements as u32, alias))
        };
        let mut vars: Vec<Option<Slot>> = vec![None; count];
        let mut next = *next_byte;
        // Roots first, each GRF-aligned.
        for (id, slot) in vars.iter_mut().enumerate() {
            if let Some(shared) = shared.as_ref().filter(|_| id < user_base as usize) {
                *slot = shared[id];
                continue;
            }
            if let Some((ty, n, None)) = decl(id) {
                let bytes = ty.size().unwrap_or(1) as u32 * n.max(1);
                *slot = Some(Slot {
                    base: next,
                    ty,
                    bytes,
                });
                next = next
                    .checked_add(bytes.div_ceil(grf_size) * grf_size)
                    .filter(|n| *n <= MAX_REGISTER_BYTES)
                    .ok_or(
                        "the declared variables exceed the interpreter's 64 MiB register space",
                    )?;
            }
        }
        *next_byte = next;
        // Aliases: follow the chain to a root (bounded), adding offsets.
        for id in 0..count {
            let Some((ty, n, Some(_))) = decl(id) else {
                continue;
            };
            let mut cur = id;
            let mut offset = 0u32;
            let mut hops = 0;
            let root = loop {
                match decl(cur) {
                    Some((_, _, Some((target, off)))) => {
                        offset = offset.saturating_add(off);
                        cur = target as usize;
                        hops += 1;
                        if hops > 64 {
                            return Err(format!("alias chain of V{id} does not end"));
                        }
                    }
                    Some((_, _, None)) => break cur,
                    None => return Err(format!("V{id} aliases an undeclared variable V{cur}")),
                }
            };
            let base = vars[root]
                .map(|s| s.base)
                .unwrap_or(0)
                .saturating_add(offset);
            vars[id] = Some(Slot {
                base,
                ty,
                bytes: ty.size().unwrap_or(1) as u32 * n.max(1),
            });
        }
        let mut addr_base = Vec::with_capacity(routine.addresses.len());
        for a in &routine.addresses {
            addr_base.push(self.addr_total as u32);
            self.addr_total += a.num_elements.max(1) as usize;
        }
        let pred_base = self.pred_total;
        self.pred_total += routine.predicates.len();
        Ok(Layout {
            name,
            insts,
            strings: &routine.strings,
            labels,
            vars,
            addr_base,
            pred_base,
            pred_count: routine.predicates.len(),
            start,
        })
    }

    /// The routine holding program counter `pc`, and the instruction there.
    pub(crate) fn at(&self, pc: u32) -> Option<(&Layout<'a>, InstRef<'a>)> {
        let r = self.routines.iter().rev().find(|r| r.start <= pc)?;
        Some((r, r.insts.get((pc - r.start) as usize)?))
    }

    fn grf_bytes_needed(&self) -> usize {
        self.routines
            .iter()
            .flat_map(|r| r.vars.iter().flatten())
            .map(|s| (s.base as usize).saturating_add(s.bytes as usize))
            .map(|end| end.min(MAX_REGISTER_BYTES as usize))
            .max()
            .unwrap_or(0)
            .next_multiple_of(self.grf_size as usize)
    }
}

/// `n` zero bytes, or a message where the system would not allocate them (an
/// address-space limit) instead of an abort. The probe's pages are never touched,
/// and `vec!` then takes zeroed pages as they are used.
fn zeroed(n: usize, what: &str) -> Result<Vec<u8>, String> {
    Vec::<u8>::new()
        .try_reserve_exact(n)
        .map_err(|_| format!("the system would not allocate {n} bytes of {what}"))?;
    Ok(vec![0; n])
}

/// Predefined variable `%hw_id`: the hardware thread running the work-item.
const HW_ID: u32 = 12;
/// The predefined variable `%cr0` (`4_visa_header.md`, V14): the float mode.
pub(crate) const CR0: u32 = 14;
/// The surface-state offset of a thread's scratch surface, which the runtime passes in
/// r0.5 (as `offset << 4`, bits 31:10) on Xe-HPC and later, the cores with 64-byte GRFs:
/// IGC reaches private memory there through `ss(r0.5 >> 4)` LSC messages, addressed
/// from 0 in each thread's own space. gpukit's value lies above every binding-table
/// index and below its bindless offsets (0x10000 onwards), so no argument's surface
/// shares it. Before Xe-HPC, r0.5 bits 31:10 are the thread's offset into the scratch
/// space, which IGC adds to its `%scratch` addresses: 0, each thread's space its own.
pub(crate) const SCRATCH_SURFACE_STATE: u32 = 0xFFC0;

/// A launch's shape: the work-groups of its NDRange and the hardware threads of each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub groups: [u32; 3],
    /// Work-items of one work-group.
    pub group_items: u64,
    /// Hardware threads of one work-group (SIMD-wide each).
    pub threads_per_group: u32,
}

impl Shape {
    /// Checks the SIMD size and the global/local sizes of `launch`; the message says
    /// what is wrong with them (no work-group or thread is to blame).
    pub fn of(launch: &Launch) -> Result<Shape, String> {
        if !matches!(launch.simd, 1 | 8 | 16 | 32) {
            return Err(format!("SIMD size {} is not 8, 16 or 32", launch.simd));
        }
        for d in 0..3 {
            let (g, l) = (launch.global[d], launch.local[d]);
            if l == 0 || g == 0 || g % l != 0 {
                return Err(format!(
                    "global size {g} is not a non-zero multiple of local size {l} in dimension {d}"
                ));
            }
        }
        let group_items = launch.local.iter().map(|l| u64::from(*l)).product::<u64>();
        if group_items > 1024 {
            return Err(format!("work-group of {group_items} items exceeds 1024"));
        }
        Ok(Shape {
            groups: std::array::from_fn(|d| launch.global[d] / launch.local[d]),
            group_items,
            threads_per_group: group_items.div_ceil(u64::from(launch.simd)) as u32,
        })
    }

    /// Hardware threads of the whole launch (saturating).
    pub fn hardware_threads(&self) -> u64 {
        self.groups
            .iter()
            .fold(u64::from(self.threads_per_group), |n, g| {
                n.saturating_mul(u64::from(*g))
            })
    }
}

/// What the engine holds for one live work-group of a launch, so that a caller can
/// count it against a memory budget before [`run_with_functions`] allocates it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Footprint {
    pub shape: Shape,
    /// The register space the routines declare, per hardware thread.
    pub register_bytes_per_thread: u64,
}

impl Footprint {
    /// Register space of one work-group: every thread of it is live at once.
    pub fn register_bytes(&self) -> u64 {
        self.register_bytes_per_thread
            .saturating_mul(u64::from(self.shape.threads_per_group))
    }
}

/// The [`Footprint`] of running `routine` (with `functions`) as `launch` says.
pub fn footprint(
    routine: &Routine,
    functions: &[(&[u8], &Routine)],
    launch: &Launch,
) -> Result<Footprint, String> {
    let shape = Shape::of(launch)?;
    let program = Program::new(routine, functions, launch.grf_bytes)?;
    Ok(Footprint {
        shape,
        register_bytes_per_thread: program.grf_bytes_needed() as u64,
    })
}

/// What a thread did when it stopped running.
pub(crate) enum Stop {
    Barrier,
    Done,
}

/// Runs the kernel body of `routine` over the whole NDRange. `trace`, when given,
/// receives one line per executed instruction.
pub fn run(
    routine: &Routine,
    launch: &Launch,
    mem: &mut Memory,
    trace: Option<&mut dyn FnMut(String)>,
) -> Result<Stats, RunError> {
    run_with_functions(routine, &[], launch, mem, trace)
}

/// [`run`], with the functions (name and body) the kernel may `fcall`, `ifcall`
/// or take the address of with `faddr`.
pub fn run_with_functions(
    routine: &Routine,
    functions: &[(&[u8], &Routine)],
    launch: &Launch,
    mem: &mut Memory,
    trace: Option<&mut dyn FnMut(String)>,
) -> Result<Stats, RunError> {
    run_with_options(routine, functions, launch, mem, trace, &Options::default())
}

/// How a run executes (the results are the same either way).
#[derive(Clone, Debug)]
pub struct Options {
    /// Lower routines for the translated engine before the run (`fast`); off runs
    /// every instruction on the generic path.
    pub translate: bool,
    /// `--check`: what to look for (nothing by default). Any check runs every
    /// instruction on the generic path, where the checker's hooks are.
    pub checks: check::Checks,
    /// Shadow memory the checks may allocate, bytes (the caller budgets it).
    pub check_shadow_bytes: u64,
    /// Work-groups run at once, each on a thread of its own (1: one after another,
    /// in order). `--trace` and `--check` run one at a time whatever this says. The
    /// caller budgets the registers, shared local memory and scratch of this many.
    pub jobs: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            translate: true,
            checks: check::Checks::default(),
            check_shadow_bytes: 0,
            jobs: 1,
        }
    }
}

/// [`run_with_functions`] with [`Options`].
pub fn run_with_options(
    routine: &Routine,
    functions: &[(&[u8], &Routine)],
    launch: &Launch,
    mem: &mut Memory,
    trace: Option<&mut dyn FnMut(String)>,
    options: &Options,
) -> Result<Stats, RunError> {
    run_checked(routine, functions, launch, mem, trace, options).map(|(stats, _)| stats)
}

/// [`run_with_options`], with what the [`Options::checks`] found.
pub fn run_checked(
    routine: &Routine,
    functions: &[(&[u8], &Routine)],
    launch: &Launch,
    mem: &mut Memory,
    trace: Option<&mut dyn FnMut(String)>,
    options: &Options,
) -> Result<(Stats, Vec<check::Finding>), RunError> {
    run_hooked(routine, functions, launch, mem, trace, None, options)
}

/// One executed instruction as [`run_stepped`]'s hook sees it, after it ran.
pub struct Step<'a> {
    pub group: [u32; 3],
    pub thread: u32,
    /// The routine's name: empty for the kernel body, else the function's.
    pub routine: &'a [u8],
    /// The instruction's index in its routine: IGC's `$N` for the kernel body.
    pub index: usize,
    /// The channels it ran on.
    pub active: u32,
    /// The general variable its `dst` names (id) and that variable's bytes now.
    pub dst: Option<(u32, &'a [u8])>,
}

/// [`run_with_options`] calling `step` after every instruction (every one on the
/// generic path): `--compare` follows the vISA values instruction by instruction.
pub fn run_stepped(
    routine: &Routine,
    functions: &[(&[u8], &Routine)],
    launch: &Launch,
    mem: &mut Memory,
    step: &mut dyn FnMut(&Step<'_>),
    options: &Options,
) -> Result<Stats, RunError> {
    run_hooked(routine, functions, launch, mem, None, Some(step), options).map(|(stats, _)| stats)
}

fn run_hooked(
    routine: &Routine,
    functions: &[(&[u8], &Routine)],
    launch: &Launch,
    mem: &mut Memory,
    mut trace: Option<&mut dyn FnMut(String)>,
    mut step: Option<&mut dyn FnMut(&Step<'_>)>,
    options: &Options,
) -> Result<(Stats, Vec<check::Finding>), RunError> {
    let Interface::Kernel { inputs } = &routine.interface else {
        return Err(top("not a kernel".into()));
    };
    let shape = Shape::of(launch).map_err(top)?;
    let mut program = Program::new(routine, functions, launch.grf_bytes).map_err(top)?;
    let grf_len = program.grf_bytes_needed();
    let mut checker = options
        .checks
        .any()
        .then(|| check::Checker::new(options.checks, options.check_shadow_bytes, launch, mem));
    if let Some(c) = checker.as_mut() {
        let written: Vec<u32> = inputs
            .iter()
            .filter(|i| i.class() == crate::InputClass::General)
            .map(|i| i.index)
            .collect();
        c.track_registers(&program, grf_len, &written);
    }
    if options.translate && trace.is_none() && step.is_none() && checker.is_none() {
        program.fast = fast::lower(&program, grf_len);
    }
    // Under --trace, a step hook or --check the groups run one after another, in
    // order: the trace, the hook and the checker's shadow state are the one thread's.
    let jobs = if trace.is_some() || step.is_some() || checker.is_some() {
        1
    } else {
        options.jobs.max(1)
    };
    let run = GroupRun {
        program: &program,
        launch,
        inputs,
        shape,
        grf_len,
        mem,
        pool: AtomicU64::new(launch.max_instructions),
    };
    let total = shape.groups.iter().map(|g| u64::from(*g)).product::<u64>();
    let mut stats = Stats::default();
    if jobs == 1 || total == 1 {
        for index in 0..total {
            stats.add(&run.run(index, &mut trace, &mut step, &mut checker)?);
        }
    } else {
        stats = run.run_parallel(jobs, total)?;
    }
    Ok((
        stats,
        checker
            .map(check::Checker::into_findings)
            .unwrap_or_default(),
    ))
}

/// Instructions a work-group reserves from the launch's limit at a time.
const INSTRUCTION_CHUNK: u64 = 1 << 20;

/// A work-group's share of the launch's instruction limit: it reserves chunks from
/// the pool the groups running at once share, and gives back what it did not use.
pub(crate) struct Allowance<'a> {
    pool: &'a AtomicU64,
    /// Instructions the group may execute so far.
    limit: u64,
}

impl Allowance<'_> {
    /// The group's instructions up to which no reservation is needed.
    pub(crate) fn limit(&self) -> u64 {
        self.limit
    }
    /// Whether the group may execute its `executed`th instruction: reserves another
    /// chunk when it needs one (false when the launch's limit is used up).
    pub(crate) fn allows(&mut self, executed: u64) -> bool {
        while executed > self.limit {
            let Ok(left) = self.pool.fetch_update(Relaxed, Relaxed, |p| {
                (p > 0).then(|| p - p.min(INSTRUCTION_CHUNK))
            }) else {
                return false;
            };
            self.limit += left.min(INSTRUCTION_CHUNK);
        }
        true
    }
    /// Gives back what the group reserved and did not use.
    fn settle(&self, executed: u64) {
        self.pool
            .fetch_add(self.limit.saturating_sub(executed), Relaxed);
    }
}

/// What every work-group of a launch shares.
struct GroupRun<'p, 'a> {
    program: &'p Program<'a>,
    launch: &'p Launch,
    inputs: &'p [crate::model::Input],
    shape: Shape,
    grf_len: usize,
    mem: &'p Memory,
    /// Instructions of the launch's limit no group has reserved.
    pool: AtomicU64,
}

impl GroupRun<'_, '_> {
    /// Work-group `index` (x fastest, as one thread runs them) as its ids.
    fn group(&self, index: u64) -> [u32; 3] {
        let [gx, gy, _] = self.shape.groups.map(u64::from);
        [index % gx, index / gx % gy, index / (gx * gy)].map(|v| v as u32)
    }

    /// Runs the work-groups on `jobs` threads. The first error in group order is the
    /// one reported: a group after a failed one is not started, every group before it
    /// runs. Groups share memory, so a kernel without races across groups leaves what
    /// one thread leaves.
    fn run_parallel(&self, jobs: usize, total: u64) -> Result<Stats, RunError> {
        use rayon::prelude::*;
        let failed = AtomicU64::new(u64::MAX);
        let threads = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .thread_name(|i| format!("gpukit-visa-run-{i}"))
            .build()
            .map_err(|e| top(format!("cannot start {jobs} threads: {e}")))?;
        threads.install(|| {
            (0..total)
                .into_par_iter()
                .map(|index| {
                    if index > failed.load(Relaxed) {
                        return Ok(Stats::default());
                    }
                    self.run(index, &mut None, &mut None, &mut None)
                        .map_err(|e| {
                            failed.fetch_min(index, Relaxed);
                            (index, e)
                        })
                })
                .reduce(
                    || Ok(Stats::default()),
                    |a, b| match (a, b) {
                        (Ok(mut a), Ok(b)) => {
                            a.add(&b);
                            Ok(a)
                        }
                        (Err(a), Err(b)) => Err(if a.0 <= b.0 { a } else { b }),
                        (Err(e), _) | (_, Err(e)) => Err(e),
                    },
                )
                .map_err(|(_, e)| e)
        })
    }

    /// Runs work-group `index`: its threads as cooperative tasks, each to its next
    /// barrier or its end, with its own shared local memory.
    fn run(
        &self,
        index: u64,
        trace: &mut Option<&mut dyn FnMut(String)>,
        step: &mut Option<&mut dyn FnMut(&Step<'_>)>,
        checker: &mut Option<check::Checker>,
    ) -> Result<Stats, RunError> {
        let (program, launch, inputs, grf_len, mem) = (
            self.program,
            self.launch,
            self.inputs,
            self.grf_len,
            self.mem,
        );
        let Shape {
            group_items,
            threads_per_group,
            ..
        } = self.shape;
        let group = self.group(index);
        let [gx, gy, gz] = group;
        let mut stats = Stats::default();
        let mut allowance = Allowance {
            pool: &self.pool,
            limit: 0,
        };
        let mut slm = zeroed(launch.slm_bytes as usize, "shared local memory")
            .map_err(|m| RunError { group, ..top(m) })?;
        let mut threads = Vec::with_capacity(threads_per_group as usize);
        for t in 0..threads_per_group {
            // The payload as the runtime writes it.
            // GRFs the ABI leaves unwritten read as zero; the payload covers every input.
            let inputs_end = inputs
                .iter()
                .map(|i| i.offset.max(0) as usize + i.size as usize)
                .max()
                .unwrap_or(0);
            let payload = thread_payload(launch, &self.shape, group, t, inputs_end);
            let mut th = Thread {
                grf: zeroed(grf_len, "register space").map_err(|m| RunError {
                    group,
                    thread: t,
                    ..top(m)
                })?,
                addr: vec![0; program.addr_total],
                preds: vec![0; program.pred_total],
                surfaces: vec![0; program.surface_count],
                samplers: vec![0; program.sampler_count],
                pc: [DONE; 32],
                calls: vec![Vec::new(); 32],
                index: t,
                scratch: Vec::new(),
                scratch_limit: (launch.scratch_bytes as usize).min(SCRATCH_BYTES),
                lanes: Vec::new(),
                findings: Findings::default(),
            };
            for (s, (_, bti)) in th
                .surfaces
                .iter_mut()
                .zip(crate::isa::PREDEFINED_SURFACES.iter())
            {
                *s = *bti as u32;
            }
            // Predefined r0 and group ids.
            let r0 = payload.get(..32).map(<[u8]>::to_vec).unwrap_or_default();
            program.write_var(&mut th, 7, &r0);
            // %hw_id tells the live threads apart: IGC places each thread's private
            // memory at private_base + %hw_id x SIMD x private size, so a
            // work-group's private memory is its threads' slots (as NEO sizes
            // the private surface by hardware threads, not by work items).
            for (id, v) in [(3u32, gx), (4, gy), (5, gz), (HW_ID, t)] {
                program.write_var(&mut th, id, &v.to_le_bytes());
            }
            for input in inputs {
                let at = input.offset.max(0) as usize;
                let Some(bytes) = payload.get(at..at + input.size as usize) else {
                    return Err(RunError {
                        group,
                        thread: t,
                        ..top(format!(
                            "input V{} at payload offset {} size {} lies beyond the {}-byte payload the binary's ABI describes",
                            input.index,
                            input.offset,
                            input.size,
                            payload.len()
                        ))
                    });
                };
                match input.class() {
                    crate::InputClass::General => program.write_var(&mut th, input.index, bytes),
                    crate::InputClass::Surface => {
                        if let (Some(s), Some(b)) =
                            (th.surfaces.get_mut(input.index as usize), bytes.get(..4))
                        {
                            *s = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                        }
                    }
                    _ => {}
                }
            }
            for c in 0..launch.simd as usize {
                if (t as u64 * launch.simd as u64 + c as u64) < group_items {
                    th.pc[c] = 0;
                }
            }
            threads.push(th);
        }
        stats.groups += 1;
        stats.threads += threads.len() as u64;
        if let Some(c) = checker.as_mut() {
            c.begin_group(group, threads_per_group);
        }
        // Cooperative scheduling: run each thread to its next barrier or its end.
        let mut done = vec![false; threads.len()];
        loop {
            let mut at_barrier = 0;
            for (i, th) in threads.iter_mut().enumerate() {
                if done[i] {
                    continue;
                }
                let stop = exec::run_thread(
                    program,
                    th,
                    launch,
                    mem,
                    &mut slm,
                    &mut stats,
                    &mut allowance,
                    trace,
                    step,
                    group,
                    checker,
                );
                let stop = match stop {
                    Ok(stop) => stop,
                    Err(e) => {
                        allowance.settle(stats.instructions);
                        return Err(e);
                    }
                };
                match stop {
                    Stop::Done => {
                        done[i] = true;
                        stats.findings.merge(&th.findings);
                    }
                    Stop::Barrier => at_barrier += 1,
                }
            }
            if barrier_round(checker.as_mut(), program, group, &done, at_barrier)? {
                break;
            }
            stats.barriers += 1;
        }
        allowance.settle(stats.instructions);
        Ok(stats)
    }
}

/// An error of the launch, no work-group or thread to blame.
fn top(message: String) -> RunError {
    RunError::of_group([0; 3], message)
}

/// The GRF image the runtime writes for hardware thread `thread` of work-group
/// `group` (r0 onwards, at least `min_len` bytes): the r0 header (group ids at
/// r0.1, r0.6, r0.7; the thread's index in its group at r0.2), the local ids from
/// r1 (each dimension `simd` u16 values padded to whole GRFs) and the cross-thread
/// data. Both front ends (vISA and Gen) start a thread from this image.
pub fn thread_payload(
    launch: &Launch,
    shape: &Shape,
    group: [u32; 3],
    thread: u32,
    min_len: usize,
) -> Vec<u8> {
    let [gx, gy, gz] = group;
    let t = thread;
    let group_items = shape.group_items;
    let grf = launch.grf_bytes as usize;
    let per_dim = (launch.simd as usize * 2).div_ceil(grf) * grf;
    let cto = launch.payload.cross_thread_offset as usize;
    let mut payload = vec![0u8; (cto + launch.payload.cross_thread.len()).max(min_len)];
    let mut put = |at: usize, v: u32| {
        if let Some(s) = payload.get_mut(at..at + 4) {
            s.copy_from_slice(&v.to_le_bytes());
        }
    };
    put(4, gx);
    if grf == 64 {
        put(20, SCRATCH_SURFACE_STATE << 4);
    }
    put(24, gy);
    put(28, gz);
    put(8, t);
    let mut dim_at = grf;
    for d in 0..3 {
        if !launch.payload.local_id[d] {
            continue;
        }
        for c in 0..launch.simd as usize {
            let l = t as u64 * launch.simd as u64 + c as u64;
            let id = if l < group_items {
                let (lx, ly) = (launch.local[0] as u64, launch.local[1] as u64);
                [l % lx, (l / lx) % ly, l / (lx * ly)][d]
            } else {
                0
            };
            if let Some(s) = payload.get_mut(dim_at + 2 * c..dim_at + 2 * c + 2) {
                s.copy_from_slice(&(id as u16).to_le_bytes());
            }
        }
        dim_at += per_dim;
    }
    payload[cto..cto + launch.payload.cross_thread.len()]
        .copy_from_slice(&launch.payload.cross_thread);
    payload
}

impl Program<'_> {
    fn write_var(&self, th: &mut Thread, id: u32, bytes: &[u8]) {
        // The kernel's variables: the payload is written before any call.
        if let Some(Some(s)) = self.routines[0].vars.get(id as usize) {
            let n = bytes.len().min(s.bytes as usize);
            let at = s.base as usize;
            if let Some(dst) = th.grf.get_mut(at..at + n) {
                dst.copy_from_slice(&bytes[..n]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// IGC's kernels start with their entry label, then set `%cr0`.
    #[test]
    fn the_native_float_mode_follows_the_entry_label() {
        let text = ".version 3.6\n.kernel \"k\"\n.kernel_attr Target=\"3d\"\n.function \"main_0\"\n\nmain_0:\n    or (M1_NM, 1) %cr0(0,0)<1> %cr0(0,0)<0;1,0> 0x4c0:ud\n    ret (M1, 1)\n";
        let object = crate::text::parse_text(text).expect("a kernel");
        let program = Program::new(&object.kernels[0].body, &[], 32).expect("a layout");
        assert!(program.native_floats);
    }
}
