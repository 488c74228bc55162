//! `visa run --check`: what the run finds wrong with the kernel besides faults.
//!
//! The generic path calls the `Checker` at every memory access (with the work-item
//! making it) and at every barrier. It keeps shadow memory, per byte: the last
//! write and the last read (work-item, barrier epoch, instruction) and whether the
//! byte was ever written, and reports
//! - data races: two work-items touch a byte, at least one writes, neither access is
//!   atomic on both sides, and no barrier orders them (the same barrier interval of
//!   one work-group, or different work-groups);
//! - reads of uninitialised shared local and private memory;
//! - barriers some work-items of a group reach and others do not (divergent control
//!   flow around a barrier, or work-items that ended before it);
//! - and the kinds other checks of the engine flag through `Checker::flag`
//!   (compiler over-reads, integer division by zero).
//!
//! Epochs number the barrier intervals of the whole launch in order, for global and
//! for local memory apart: a barrier orders the memory its threads fenced before it
//! (`barrier(CLK_LOCAL_MEM_FENCE)` orders no global access). Work-groups run one
//! after another, so an access stamped before the current group's first epoch came
//! from another group and nothing orders it with this one.

mod registers;

use super::memory::Place;
use super::Program;
use crate::isa::Opcode;
use crate::model::Operand;
use std::collections::HashSet;
use std::fmt;

/// What a finding is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    Race,
    Uninit,
    Barrier,
    /// A load the compiler made wider than the source's access, past a buffer's end.
    OverRead,
    /// Integer division by zero in an enabled channel.
    DivZero,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::Race,
        Kind::Uninit,
        Kind::Barrier,
        Kind::OverRead,
        Kind::DivZero,
    ];
    /// The name `--check` takes and findings print.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Race => "race",
            Kind::Uninit => "uninit",
            Kind::Barrier => "barrier",
            Kind::OverRead => "over-read",
            Kind::DivZero => "div-zero",
        }
    }
    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The checks a run makes (none by default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checks(u8);

impl Checks {
    pub fn all() -> Checks {
        Checks(Kind::ALL.iter().fold(0, |m, k| m | k.bit()))
    }
    /// A comma-separated list of check names (`races,uninit,barriers`; a name may
    /// also be given singular), or `all`.
    pub fn parse(list: &str) -> Result<Checks, String> {
        let mut set = Checks::default();
        for word in list.split(',').map(str::trim) {
            if word == "all" {
                set = Checks::all();
                continue;
            }
            let kind = Kind::ALL
                .into_iter()
                .find(|k| word == k.name() || word.strip_suffix('s') == Some(k.name()))
                .ok_or_else(|| {
                    format!(
                        "unknown check {word:?} (races, uninit, barriers, over-read, div-zero or all)"
                    )
                })?;
            set.0 |= kind.bit();
        }
        Ok(set)
    }
    pub fn has(self, kind: Kind) -> bool {
        self.0 & kind.bit() != 0
    }
    pub fn any(self) -> bool {
        self.0 != 0
    }
}

/// An OpenCL source position the vISA carries (`FILE` and `LOC`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SourceLine {
    pub file: Option<String>,
    pub line: u32,
}

/// One side of a finding: an instruction and the work-item executing it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Site {
    /// Index of the instruction in its routine's stream.
    pub index: usize,
    /// The function holding it, when that is not the kernel.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
    pub mnemonic: String,
    /// What the work-item does there: `reads`, `writes`, `updates atomically`, or for
    /// barriers `waits at the barrier`, `is elsewhere`, `ended`.
    pub action: &'static str,
    /// The work-item's global id.
    pub work_item: [u32; 3],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceLine>,
}

/// One thing `--check` found (the first occurrence; `count` says how many alike).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Finding {
    pub kind: Kind,
    /// `argument N`, `__local`, `private`, or another buffer's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    pub message: String,
    pub sites: Vec<Site>,
    /// Occurrences of the same kind at the same instructions and memory.
    pub count: u64,
}

impl Finding {
    /// The finding as one line, with each site placed by `place` (e.g. `file:line`).
    pub fn line(&self, place: &dyn Fn(&Site) -> String) -> String {
        let mut s = format!("{}: ", self.kind.name());
        if let Some(m) = &self.memory {
            s.push_str(m);
            if let Some(o) = self.offset {
                s.push_str(&format!(" offset {o}"));
            }
            s.push_str(": ");
        }
        s.push_str(&self.message);
        for (i, site) in self.sites.iter().enumerate() {
            s.push_str(if i == 0 { ": " } else { "; " });
            let [x, y, z] = site.work_item;
            s.push_str(&format!(
                "work-item ({x},{y},{z}) {} at {}",
                site.action,
                place(site)
            ));
            if let Some(src) = &site.source {
                s.push_str(&format!(
                    " ({}:{})",
                    src.file.as_deref().unwrap_or("source"),
                    src.line
                ));
            }
        }
        if self.count > 1 {
            s.push_str(&format!(" ({} times)", self.count));
        }
        s
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line(&|s| format!("instruction #{} ({})", s.index, s.mnemonic)))
    }
}

/// How a work-item touches memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    /// `unchanged`: memory already held the bytes written (such a write races with
    /// no other write, as every work-item storing the same value does not).
    Write {
        unchanged: bool,
    },
    /// A read-modify-write atomic: ordered with other atomics, not with plain accesses.
    Atomic,
    /// An atomic that left memory as it was (a failed compare-and-swap, an atomic load).
    AtomicRead,
}

/// Indices of the memories barriers order apart.
const GLOBAL: usize = 0;
const LOCAL: usize = 1;

/// Nobody has touched the byte (in a stamp's `item`).
const NOBODY: u32 = u32::MAX;

/// One access of a byte: who, in which barrier interval, where.
#[derive(Clone, Copy, Debug)]
struct Stamp {
    item: u32,
    epoch: u32,
    pc: u32,
    atomic: bool,
    /// Other work-items than `item` accessed the byte alike in the same interval
    /// (reads; atomics; writes of the value already there).
    many: bool,
}

const UNTOUCHED: Stamp = Stamp {
    item: NOBODY,
    epoch: 0,
    pc: 0,
    atomic: false,
    many: false,
};

#[derive(Clone, Copy, Debug)]
struct Cell {
    write: Stamp,
    read: Stamp,
    init: bool,
}

/// Shadow bytes a `Cell` costs, for the budget.
pub const SHADOW_BYTES_PER_BYTE: u64 = std::mem::size_of::<Cell>() as u64;
/// Shadow bytes a register byte costs (its origin, `check/registers.rs`).
pub const REGISTER_SHADOW_PER_BYTE: u64 = 4;

/// What a memory's bytes are checked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// Kernel arguments and other global buffers: races; the host initialised them.
    Shared,
    /// Private memory (per hardware thread, reused by every group): uninitialised reads.
    Private,
    /// Not checked (the printf buffer, images, program data).
    Ignored,
}

#[derive(Default)]
struct Shadow {
    cells: Vec<Cell>,
}

/// Where a checked access lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Space {
    Buffer(usize),
    Slm,
    Scratch,
}

/// The shadow state of one launch under `--check`.
pub struct Checker {
    checks: Checks,
    /// Shadow bytes the checker may allocate, and has.
    limit: u64,
    used: u64,
    simd: u32,
    local: [u32; 3],
    global: [u32; 3],
    /// Per memory ([`GLOBAL`], [`LOCAL`]): the current barrier interval, and the
    /// first of the running group.
    epoch: [u32; 2],
    group_start: [u32; 2],
    /// The memories the group's threads fenced since the last barrier (bits).
    fenced: u8,
    /// A barrier of the running group diverged: what its work-items do after it is
    /// undefined, so no race of the group is reported after the barrier finding.
    diverged: bool,
    group: [u32; 3],
    /// The hardware thread running, and the program counter of its instruction.
    thread: u32,
    pc: u32,
    roles: Vec<Role>,
    names: Vec<String>,
    buffers: Vec<Shadow>,
    slm: Shadow,
    /// Per hardware thread of the group: its scratch space.
    scratch: Vec<Shadow>,
    /// Per hardware thread of the group: the barrier it waits at, if any.
    waiting: Vec<Option<(u32, u32)>>,
    findings: Vec<Finding>,
    /// Why checking had to stop (shadow memory beyond its limit), for the run loop.
    error: Option<String>,
    /// (kind, first pc, second pc, memory) of the findings reported, for `count`.
    seen: HashSet<(Kind, u32, u32, Option<String>)>,
    /// Definedness of every hardware thread's register bytes (`uninit`).
    registers: registers::Registers,
    /// The running instruction wrote private memory (IGC's spills move garbage).
    private_write: bool,
}

/// The names the runtime gives the buffers it adds beside the arguments.
pub const PRIVATE_BUFFER: &str = "private memory";

impl Checker {
    pub fn new(
        checks: Checks,
        limit: u64,
        launch: &super::Launch,
        buffers: &super::Memory,
    ) -> Checker {
        let roles = buffers
            .buffers
            .iter()
            .map(|b| {
                if b.name == PRIVATE_BUFFER {
                    Role::Private
                } else if b.name.starts_with("argument ") && b.image.is_none() {
                    Role::Shared
                } else {
                    Role::Ignored
                }
            })
            .collect();
        Checker {
            checks,
            limit,
            used: 0,
            simd: launch.simd,
            local: launch.local,
            global: launch.global,
            epoch: [0; 2],
            group_start: [0; 2],
            fenced: 0,
            diverged: false,
            group: [0; 3],
            thread: 0,
            pc: 0,
            roles,
            names: buffers.buffers.iter().map(|b| b.name.clone()).collect(),
            buffers: buffers.buffers.iter().map(|_| Shadow::default()).collect(),
            slm: Shadow::default(),
            scratch: Vec::new(),
            waiting: Vec::new(),
            findings: Vec::new(),
            error: None,
            seen: HashSet::new(),
            registers: registers::Registers::default(),
            private_write: false,
        }
    }

    pub fn into_findings(self) -> Vec<Finding> {
        self.findings
    }

    /// A work-group starts: a new barrier interval no earlier access shares; its
    /// shared local memory and its threads' private memory are uninitialised again.
    pub fn begin_group(&mut self, group: [u32; 3], threads: u32) {
        for m in [GLOBAL, LOCAL] {
            self.epoch[m] += 1;
            self.group_start[m] = self.epoch[m];
        }
        self.fenced = 0;
        self.diverged = false;
        self.group = group;
        self.slm.cells.clear();
        for s in &mut self.scratch {
            s.cells.clear();
        }
        self.scratch.resize_with(threads as usize, Shadow::default);
        self.waiting = vec![None; threads as usize];
        if let Err(e) = self.begin_group_registers(threads) {
            self.error.get_or_insert(e);
        }
        for (shadow, role) in self.buffers.iter_mut().zip(&self.roles) {
            if *role == Role::Private {
                for c in &mut shadow.cells {
                    *c = fresh(false);
                }
            }
        }
    }

    /// A thread fenced local (`true`) or global memory.
    pub fn fence(&mut self, local: bool) {
        self.fenced |= 1 << if local { LOCAL } else { GLOBAL };
    }

    /// Every live thread of the group met at a barrier: it orders the memories fenced
    /// before it (both, when no fence was seen: such a barrier is not IGC's).
    pub fn next_interval(&mut self) {
        for m in [GLOBAL, LOCAL] {
            if self.fenced == 0 || self.fenced & (1 << m) != 0 {
                self.epoch[m] += 1;
            }
        }
        self.fenced = 0;
        self.waiting.iter_mut().for_each(|w| *w = None);
    }

    /// Hardware thread `thread` runs the instruction at `pc` next.
    pub fn at(&mut self, thread: u32, pc: u32) {
        self.thread = thread;
        self.pc = pc;
        self.private_write = false;
    }

    /// The global id of channel `lane` of the running thread.
    fn work_item(&self, thread: u32, lane: u32) -> [u32; 3] {
        let l = u64::from(thread) * u64::from(self.simd) + u64::from(lane);
        let (lx, ly) = (u64::from(self.local[0]), u64::from(self.local[1]));
        let local = [l % lx, (l / lx) % ly, l / (lx * ly)];
        std::array::from_fn(|d| {
            self.group[d]
                .wrapping_mul(self.local[d])
                .wrapping_add(local[d] as u32)
        })
    }

    /// A work-item's number in stamps: its linear global id (a launch holds fewer
    /// than [`NOBODY`] work-items, or the budget stops it first; a collision would
    /// only hide a race).
    fn item_number(&self, global: [u32; 3]) -> u32 {
        let n = u64::from(global[0])
            + u64::from(global[1]) * u64::from(self.global[0])
            + u64::from(global[2]) * u64::from(self.global[0]) * u64::from(self.global[1]);
        (n % u64::from(NOBODY)) as u32
    }

    /// The global id of work-item number `n` ([`Checker::item_number`]).
    fn global_id(&self, n: u32) -> [u32; 3] {
        let (gx, gy) = (self.global[0].max(1), self.global[1].max(1));
        [n % gx, (n / gx) % gy, n / gx / gy]
    }

    /// Channel `lane` of the running thread accesses `len` bytes at `place`.
    pub fn access(&mut self, p: &dyn Locate, place: Place, len: usize, lane: u32, access: Access) {
        if matches!(access, Access::Write { .. }) && self.is_private(place) {
            self.private_write = true;
        }
        if let Err(e) = self.shadow_access(p, place, len, lane, access) {
            self.error.get_or_insert(e);
        }
    }

    fn is_private(&self, place: Place) -> bool {
        match place {
            Place::Scratch(_) => true,
            Place::Buffer(b, _) => self.roles.get(b) == Some(&Role::Private),
            Place::Slm(_) => false,
        }
    }

    /// Why checking stopped, once.
    pub fn take_error(&mut self) -> Option<String> {
        self.error.take()
    }

    fn shadow_access(
        &mut self,
        p: &dyn Locate,
        place: Place,
        len: usize,
        lane: u32,
        access: Access,
    ) -> Result<(), String> {
        let (space, at) = match place {
            Place::Buffer(b, o) => (Space::Buffer(b), o),
            Place::Slm(o) => (Space::Slm, o),
            Place::Scratch(o) => (Space::Scratch, o),
        };
        let role = match space {
            Space::Buffer(b) => self.roles.get(b).copied().unwrap_or(Role::Ignored),
            Space::Slm => Role::Shared,
            Space::Scratch => Role::Private,
        };
        if role == Role::Ignored {
            return Ok(());
        }
        let races = role == Role::Shared && self.checks.has(Kind::Race) && !self.diverged;
        let uninit =
            self.checks.has(Kind::Uninit) && (role == Role::Private || space == Space::Slm);
        if !races && !uninit {
            return Ok(());
        }
        // Host-given buffers start initialised; local and private memory do not.
        let host_initialised = matches!(space, Space::Buffer(_)) && role == Role::Shared;
        let memory = if space == Space::Slm { LOCAL } else { GLOBAL };
        let global = self.work_item(self.thread, lane);
        let stamp = Stamp {
            item: self.item_number(global),
            epoch: self.epoch[memory],
            pc: self.pc,
            atomic: matches!(access, Access::Atomic | Access::AtomicRead),
            many: false,
        };
        let need = at + len;
        let thread = self.thread as usize;
        let shadow_len = match space {
            Space::Buffer(b) => self.buffers[b].cells.len(),
            Space::Slm => self.slm.cells.len(),
            Space::Scratch => self.scratch.get(thread).map_or(0, |s| s.cells.len()),
        };
        if shadow_len < need {
            let grow = (need.next_multiple_of(4096) - shadow_len) as u64 * SHADOW_BYTES_PER_BYTE;
            if self.used + grow > self.limit {
                return Err(format!(
                    "--check needs more shadow memory than its {}-byte share of the memory budget (raise it with --max-memory)",
                    self.limit
                ));
            }
            self.used += grow;
            let cells = match space {
                Space::Buffer(b) => &mut self.buffers[b].cells,
                Space::Slm => &mut self.slm.cells,
                Space::Scratch => &mut self.scratch[thread].cells,
            };
            cells.resize(need.next_multiple_of(4096), fresh(host_initialised));
        }
        let mut race: Option<(Stamp, usize, &'static str)> = None;
        let mut unset: Option<usize> = None;
        {
            let (epoch, group_start) = (self.epoch[memory], self.group_start[memory]);
            let unordered =
                |s: &Stamp| s.item != NOBODY && (s.epoch == epoch || s.epoch < group_start);
            let cells = match space {
                Space::Buffer(b) => &mut self.buffers[b].cells,
                Space::Slm => &mut self.slm.cells,
                Space::Scratch => &mut self.scratch[thread].cells,
            };
            if uninit && matches!(access, Access::Read | Access::AtomicRead) {
                // A byte of a word nothing initialised: a byte beside initialised
                // ones is padding that a copy moves (a struct copied byte by byte).
                unset = (at..at + len)
                    .find(|b| {
                        let word = b & !3;
                        cells[word..(word + 4).min(cells.len())]
                            .iter()
                            .all(|c| !c.init)
                    })
                    .map(|b| b - at);
            }
            for (k, cell) in cells[at..at + len].iter_mut().enumerate() {
                let other = |s: &Stamp| (s.many || s.item != stamp.item) && unordered(s);
                if races && race.is_none() {
                    // An atomic races with plain writes only: a plain read of what
                    // atomics update is the compare-and-swap loop's first guess, which
                    // the atomic then checks.
                    let w = &cell.write;
                    let uniform = matches!(access, Access::Write { unchanged: true });
                    let benign = w.atomic && access != Access::Write { unchanged: false };
                    if other(w) && !uniform && !benign {
                        race = Some((*w, k, "writes"));
                    } else if matches!(access, Access::Write { .. }) && other(&cell.read) {
                        race = Some((cell.read, k, "reads"));
                    }
                }
                // Several work-items reading, or writing without a race (atomics,
                // equal values), in one interval: keep the first one's place, and a
                // later access by any of them races with the others.
                let merged = |s: Stamp| {
                    if other(&s) {
                        Stamp {
                            many: true,
                            atomic: s.atomic && stamp.atomic,
                            ..s
                        }
                    } else {
                        stamp
                    }
                };
                match access {
                    Access::Read | Access::AtomicRead => cell.read = merged(cell.read),
                    Access::Write { .. } | Access::Atomic => {
                        // An atomic after the same work-item's unordered plain write
                        // keeps that write: other work-items' atomics race with it.
                        let own_plain = !cell.write.atomic
                            && cell.write.item == stamp.item
                            && unordered(&cell.write);
                        if !(access == Access::Atomic && own_plain) {
                            cell.write = merged(cell.write);
                        }
                        cell.read = UNTOUCHED;
                        cell.init = true;
                    }
                }
            }
        }
        let name = match space {
            Space::Buffer(_) if role == Role::Private => "private".to_string(),
            Space::Buffer(b) => self.names[b].clone(),
            Space::Slm => "__local".to_string(),
            Space::Scratch => "private (scratch)".to_string(),
        };
        let action = |a: Access| match a {
            Access::Read => "reads",
            Access::Write { .. } => "writes",
            Access::Atomic | Access::AtomicRead => "updates atomically",
        };
        if let Some((other, k, other_action)) = race {
            let other_action = if other.atomic {
                "updates atomically"
            } else {
                other_action
            };
            let message = if other.epoch < self.group_start[memory] {
                "data race between work-groups"
            } else {
                "data race within a work-group (no barrier between the accesses)"
            };
            let first = self.site(p, other.pc, self.global_id(other.item), other_action);
            let second = self.site(p, stamp.pc, global, action(access));
            self.report(
                Kind::Race,
                Some(name.clone()),
                Some((at + k) as u64),
                message.into(),
                vec![first, second],
            );
        }
        if let Some(k) = unset {
            let site = self.site(p, stamp.pc, global, "reads");
            self.report(
                Kind::Uninit,
                Some(name),
                Some((at + k) as u64),
                "read of uninitialised memory".into(),
                vec![site],
            );
        }
        Ok(())
    }

    /// The running thread executes a barrier with channels `active`; `live` are the
    /// channels that have not ended. Some live channels elsewhere means the barrier
    /// sits in divergent control flow.
    pub fn barrier(&mut self, p: &dyn Locate, active: u32, live: u32, pcs: &[u32]) {
        if let Some(w) = self.waiting.get_mut(self.thread as usize) {
            *w = Some((self.pc, active));
        }
        if active == live {
            return;
        }
        self.diverged = true;
        if !self.checks.has(Kind::Barrier) {
            return;
        }
        let lane = active.trailing_zeros();
        let other = (live & !active).trailing_zeros();
        let here = self.site(
            p,
            self.pc,
            self.work_item(self.thread, lane),
            "waits at the barrier",
        );
        let there = self.site(
            p,
            pcs[other as usize],
            self.work_item(self.thread, other),
            "is elsewhere",
        );
        self.report(
            Kind::Barrier,
            None,
            None,
            format!(
                "barrier in divergent control flow: {} of {} work-items of a hardware thread reach it",
                active.count_ones(),
                live.count_ones()
            ),
            vec![here, there],
        );
    }

    /// Some threads of the group wait at a barrier that `finished` threads ended
    /// without reaching. Returns whether that was reported (the run then goes on
    /// past the barrier, as a device's thread count would let it).
    pub fn barrier_unreached(&mut self, p: &dyn Locate, finished: &[bool]) -> bool {
        if !self.checks.has(Kind::Barrier) {
            return false;
        }
        let Some((t, (pc, active))) = self
            .waiting
            .iter()
            .enumerate()
            .find_map(|(t, w)| w.map(|w| (t, w)))
        else {
            return false;
        };
        let here = self.site(
            p,
            pc,
            self.work_item(t as u32, active.trailing_zeros()),
            "waits at the barrier",
        );
        let ended = finished.iter().position(|f| *f).unwrap_or(0) as u32;
        let gone = self.site(p, pc, self.work_item(ended, 0), "ended without reaching it");
        self.diverged = true;
        let waiting = self.waiting.iter().filter(|w| w.is_some()).count();
        let done = finished.iter().filter(|f| **f).count();
        self.report(
            Kind::Barrier,
            None,
            None,
            format!(
                "barrier reached by some work-items of a group but not all: {waiting} hardware thread(s) wait, {done} ended"
            ),
            vec![here, gone],
        );
        true
    }

    /// A finding of another check of the engine (`over-read`, `div-zero`) by channel
    /// `lane` of the running thread, when that check is on.
    pub fn flag(
        &mut self,
        p: &dyn Locate,
        kind: Kind,
        lane: u32,
        memory: Option<String>,
        offset: Option<u64>,
        message: String,
    ) {
        if !self.checks.has(kind) {
            return;
        }
        let site = self.site(p, self.pc, self.work_item(self.thread, lane), "runs it");
        self.report(kind, memory, offset, message, vec![site]);
    }

    fn report(
        &mut self,
        kind: Kind,
        memory: Option<String>,
        offset: Option<u64>,
        message: String,
        sites: Vec<Site>,
    ) {
        let first = sites.first().map_or(0, |s| s.index as u32);
        let second = sites.get(1).map_or(0, |s| s.index as u32);
        let key = (kind, first, second, memory.clone());
        if !self.seen.insert(key.clone()) {
            if let Some(f) = self.findings.iter_mut().find(|f| {
                f.kind == kind
                    && f.memory == key.3
                    && f.sites.first().map_or(0, |s| s.index as u32) == first
                    && f.sites.get(1).map_or(0, |s| s.index as u32) == second
            }) {
                f.count += 1;
            }
            return;
        }
        self.findings.push(Finding {
            kind,
            memory,
            offset,
            message,
            sites,
            count: 1,
        });
    }

    /// The instruction at `pc`, by `global`, as the engine's program names it.
    fn site(&self, p: &dyn Locate, pc: u32, global: [u32; 3], action: &'static str) -> Site {
        p.site(pc, global, action)
    }
}

/// How an engine's program names the instruction at a program counter in a
/// finding: the vISA engine's routines, or the Gen engine's listing.
pub trait Locate {
    fn site(&self, pc: u32, work_item: [u32; 3], action: &'static str) -> Site;
}

impl Locate for Program<'_> {
    /// The instruction at `pc` with its source line where the vISA has one.
    fn site(&self, pc: u32, global: [u32; 3], action: &'static str) -> Site {
        let p = self;
        let Some((r, inst)) = p.at(pc) else {
            return Site {
                index: pc as usize,
                function: None,
                mnemonic: String::new(),
                action,
                work_item: global,
                source: None,
            };
        };
        let index = (pc - r.start) as usize;
        Site {
            index,
            function: (r.start != 0).then(|| String::from_utf8_lossy(r.name).into_owned()),
            mnemonic: inst.mnemonic().to_string(),
            action,
            work_item: global,
            source: source_line(r, index),
        }
    }
}

fn fresh(init: bool) -> Cell {
    Cell {
        write: UNTOUCHED,
        read: UNTOUCHED,
        init,
    }
}

/// The last `LOC` (and `FILE`) before instruction `index` of a routine.
fn source_line(r: &super::Layout, index: usize) -> Option<SourceLine> {
    let mut line = None;
    let mut file = None;
    for i in (0..=index).rev() {
        let inst = r.insts.get(i)?;
        match (inst.opcode, line.is_some()) {
            (Opcode::LOC, false) => {
                if let Some(Operand::Int(l)) = inst.operand("line") {
                    line = Some(*l);
                }
            }
            (Opcode::FILE, true) => {
                if let Some(Operand::Int(s)) = inst.operand("file") {
                    file = r
                        .strings
                        .get(*s as usize)
                        .map(|b| String::from_utf8_lossy(b).into_owned());
                }
                break;
            }
            _ => {}
        }
    }
    line.map(|line| SourceLine { file, line })
}
