//! `--check uninit` on registers: which register bytes of each hardware thread hold a
//! defined value.
//!
//! A byte is defined when the runtime wrote it (the payload: predefined variables
//! and the kernel's inputs) or an instruction wrote it from defined sources. An
//! undefined byte carries its origin, the register byte nothing ever wrote (its
//! number + 1), so a finding names the variable the kernel forgot to set.
//!
//! Reading an undefined byte is not yet a finding: IGC reads garbage harmlessly all
//! the time (a vector built lane by lane and copied whole, a NoMask `mov` into
//! channels nobody uses, a partial write and a wider read). Like Memcheck, the
//! engine carries undefinedness through moves and arithmetic into the destination
//! ([`Checker::reg_undefined`] at the source read, [`Checker::reg_define`] at the
//! write) and reports where an undefined value is *used*: in a message (a store's
//! data, an address, a header field the message reads) or as an address register.

use super::{Checker, Kind};
use crate::interp::Program;

/// Register definedness: per byte, 0 when defined, else the origin (number + 1 of
/// the never-written register byte the value came from).
#[derive(Default)]
pub(super) struct Registers {
    /// A thread's bytes when it starts.
    start: Vec<u32>,
    /// Per hardware thread of the running group.
    threads: Vec<Vec<u32>>,
    /// Shadow bytes charged to the budget for `threads`.
    charged: u64,
}

impl Registers {
    /// Every byte undefined (its own origin) but those of the predefined variables
    /// and of the `inputs` (variable ids) the payload writes.
    pub(super) fn new(p: &Program, len: usize, inputs: &[u32]) -> Registers {
        let mut start: Vec<u32> = (1..=len as u32).collect();
        let predefined = crate::limits::PREDEFINED_VARS as usize;
        let kernel = p.routines.first();
        let written = kernel
            .into_iter()
            .flat_map(|k| k.vars.iter().take(predefined).flatten().copied())
            .chain(
                inputs
                    .iter()
                    .filter_map(|i| kernel.and_then(|k| *k.vars.get(*i as usize)?)),
            );
        for s in written {
            let at = (s.base as usize).min(len);
            let end = at.saturating_add(s.bytes as usize).min(len);
            start[at..end].fill(0);
        }
        Registers {
            start,
            threads: Vec::new(),
            charged: 0,
        }
    }
}

impl Checker {
    /// Registers are tracked (`uninit` is on and [`Checker::track_registers`] ran).
    fn tracks_registers(&self) -> bool {
        !self.registers.start.is_empty()
    }

    /// Starts tracking register definedness for a program whose threads hold `len`
    /// register bytes, `inputs` the variables the payload writes.
    pub(crate) fn track_registers(&mut self, p: &Program, len: usize, inputs: &[u32]) {
        if self.checks.has(Kind::Uninit) {
            self.registers = Registers::new(p, len, inputs);
        }
    }

    /// A group of `threads` hardware threads starts: each with the payload's bytes.
    pub(super) fn begin_group_registers(&mut self, threads: u32) -> Result<(), String> {
        if !self.tracks_registers() {
            return Ok(());
        }
        let r = &mut self.registers;
        let need = threads as u64 * r.start.len() as u64 * super::REGISTER_SHADOW_PER_BYTE;
        if need > r.charged {
            self.used += need - r.charged;
            r.charged = need;
            if self.used > self.limit {
                return Err(format!(
                    "--check needs more shadow memory than its {}-byte share of the memory budget for the registers of {threads} hardware threads (raise it with --max-memory)",
                    self.limit
                ));
            }
        }
        r.threads.resize_with(threads as usize, Vec::new);
        for t in &mut r.threads {
            t.clone_from(&r.start);
        }
        Ok(())
    }

    /// The origin of the first undefined byte of `len` register bytes at `at` of the
    /// running thread, or 0 when all are defined (or registers are not tracked).
    pub(crate) fn reg_undefined(&self, at: usize, len: usize) -> u32 {
        self.registers
            .threads
            .get(self.thread as usize)
            .and_then(|t| t.get(at..at + len))
            .and_then(|b| b.iter().copied().find(|o| *o != 0))
            .unwrap_or(0)
    }

    /// The running thread wrote `len` register bytes at `at`: defined (`origin` 0),
    /// or computed from the undefined byte `origin`.
    pub(crate) fn reg_define(&mut self, at: usize, len: usize, origin: u32) {
        if let Some(b) = self
            .registers
            .threads
            .get_mut(self.thread as usize)
            .and_then(|t| t.get_mut(at..at + len))
        {
            b.fill(origin);
        }
    }

    /// The running instruction used a value computed from undefined register byte
    /// `origin` in channel `lane`, `how` (`in a message`, `as an address`). A message
    /// storing to private memory is not a use: IGC spills and fills whole registers,
    /// garbage lanes included.
    pub(crate) fn uninit_register(&mut self, p: &Program, origin: u32, lane: u32, how: &str) {
        if origin == 0 || self.private_write {
            return;
        }
        let byte = origin - 1;
        let (name, offset) = variable_at(p, byte);
        let site = self.site(p, self.pc, self.work_item(self.thread, lane), "uses it");
        self.report(
            Kind::Uninit,
            Some(format!("register {name}")),
            Some(offset),
            format!("a value computed from an uninitialised register is used {how}"),
            vec![site],
        );
    }
}

/// The variable holding register byte `byte` (the largest declared one, a root
/// rather than one of its aliases) and the byte's offset in it.
fn variable_at(p: &Program, byte: u32) -> (String, u64) {
    let predefined = crate::limits::PREDEFINED_VARS as usize;
    let found = p
        .routines
        .iter()
        .flat_map(|r| {
            r.vars
                .iter()
                .enumerate()
                .skip(predefined)
                .filter_map(move |(id, s)| Some((r, id, (*s)?)))
        })
        .filter(|(_, _, s)| s.base <= byte && byte < s.base.saturating_add(s.bytes))
        .max_by_key(|(_, id, s)| (s.bytes, std::cmp::Reverse(*id)));
    match found {
        Some((r, id, s)) => {
            let mut name = format!("V{id:04}");
            if r.start != 0 {
                name.push_str(&format!(" of {}", String::from_utf8_lossy(r.name)));
            }
            (name, u64::from(byte - s.base))
        }
        None => (format!("byte {byte}"), 0),
    }
}
