//! AMD IL kernel metadata: the `;ARGSTART`..`;ARGEND` text the compiler
//! hands the runtime for every function.

mod body;
pub mod check;
pub mod emit;
pub mod model;
pub mod parse;

pub use body::{LineTooLong, Lines};
pub use check::Finding;
pub use model::*;
pub use parse::{find_blocks, parse_blocks, parse_metadata, parse_metadata_at, ParseError};

use crate::abi::args::value_slot_size;
use std::borrow::Cow;

impl Metadata<'_> {
    /// The kernel name for `__OpenCL_<k>_kernel` blocks; `None` for plain functions.
    pub fn kernel_name(&self) -> Option<&str> {
        self.name.strip_prefix("__OpenCL_")?.strip_suffix("_kernel")
    }

    pub fn version(&self) -> Option<(u32, u32, u32)> {
        self.entries().find_map(|e| match e {
            Entry::Version {
                major,
                minor,
                revision,
            } => Some((major, minor, revision)),
            _ => None,
        })
    }

    pub fn device(&self) -> Option<&str> {
        self.entries().find_map(|e| match e {
            Entry::Device(Cow::Borrowed(d)) => Some(d),
            _ => None,
        })
    }

    pub fn unique_id(&self) -> Option<u32> {
        self.entries().find_map(|e| match e {
            Entry::UniqueId(v) => Some(v),
            _ => None,
        })
    }

    /// Ids from every `;function:` line, in order.
    pub fn called_functions(&self) -> Vec<u32> {
        self.entries()
            .filter_map(|e| match e {
                Entry::Function(Cow::Borrowed(ids)) => Some(ids.iter().copied()),
                _ => None,
            })
            .flatten()
            .collect()
    }

    /// Ids from every `;intrinsic:` line, in order.
    pub fn intrinsics(&self) -> Vec<u32> {
        self.entries()
            .filter_map(|e| match e {
                Entry::Intrinsic(Cow::Borrowed(ids)) => Some(ids.iter().copied()),
                _ => None,
            })
            .flatten()
            .collect()
    }

    pub fn memory_totals(&self) -> MemoryTotals {
        let mut t = MemoryTotals::default();
        for e in self.entries() {
            if let Entry::Memory(m) = e {
                let size = m.size.unwrap_or(0);
                match m.kind {
                    MemoryKind::UavPrivate => t.uav_private = t.uav_private.saturating_add(size),
                    MemoryKind::HwLocal => t.hw_local = t.hw_local.saturating_add(size),
                    MemoryKind::HwRegion => t.hw_region = t.hw_region.saturating_add(size),
                    MemoryKind::HwPrivate => t.hw_private = t.hw_private.saturating_add(size),
                    MemoryKind::Private => t.private = t.private.saturating_add(size),
                    MemoryKind::Local => t.local = t.local.saturating_add(size),
                    MemoryKind::Abi64Bit => t.abi_64bit = true,
                    MemoryKind::DataRequired => t.data_required = true,
                    MemoryKind::CompilerWrite => t.compiler_write = true,
                    MemoryKind::Other(_) => {}
                }
            }
        }
        t
    }

    /// The kernel's arguments in signature order, with `;sampler`,
    /// `;constarg` and `;reflection` lines folded in.
    pub fn arguments(&self) -> Vec<Argument> {
        let mut args = Vec::new();
        for e in self.entries() {
            let index = args.len();
            let arg = match e {
                Entry::Value(v) => {
                    let aggregate = v.data_type.is_aggregate();
                    Argument {
                        index,
                        name: v.name.to_string(),
                        kind: if aggregate {
                            ArgKind::Struct
                        } else {
                            ArgKind::Value
                        },
                        type_name: v.data_type.as_str().into(),
                        vector_width: if aggregate { 1 } else { v.count },
                        cb: v.cb,
                        offset: v.offset,
                        cb_size: value_slot_size(v.data_type, v.count),
                        mem_type: None,
                        access: None,
                        volatile: false,
                        restrict: false,
                        is_const: false,
                        source_type: None,
                    }
                }
                Entry::Pointer(p) => Argument {
                    index,
                    name: p.name.to_string(),
                    kind: ArgKind::Pointer,
                    type_name: p.data_type.as_str().into(),
                    vector_width: 1,
                    cb: p.cb,
                    offset: p.offset,
                    cb_size: 16,
                    mem_type: Some(p.mem_type),
                    access: p.qualifiers.map(|q| q.access),
                    volatile: p.qualifiers.is_some_and(|q| q.volatile),
                    restrict: p.qualifiers.is_some_and(|q| q.restrict),
                    is_const: false,
                    source_type: None,
                },
                Entry::Image(i) => Argument {
                    index,
                    name: i.name.to_string(),
                    kind: ArgKind::Image,
                    type_name: i.dim.as_str().into(),
                    vector_width: 1,
                    cb: i.cb,
                    offset: i.offset,
                    cb_size: 32,
                    mem_type: None,
                    access: Some(i.access),
                    volatile: false,
                    restrict: false,
                    is_const: false,
                    source_type: None,
                },
                Entry::Counter(c) => Argument {
                    index,
                    name: c.name.to_string(),
                    kind: ArgKind::Counter,
                    type_name: format!("counter{}", c.bits).into(),
                    vector_width: 1,
                    cb: c.cb,
                    offset: c.offset,
                    cb_size: 16,
                    mem_type: None,
                    access: None,
                    volatile: false,
                    restrict: false,
                    is_const: false,
                    source_type: None,
                },
                _ => continue,
            };
            args.push(arg);
        }
        for e in self.entries() {
            match e {
                Entry::Sampler(s) if s.location == 0 => {
                    if let Some(a) = args.iter_mut().find(|a| a.name == s.name) {
                        a.kind = ArgKind::Sampler;
                    }
                }
                Entry::ConstArg { index, .. } => {
                    if let Some(a) = args.get_mut(index as usize) {
                        a.is_const = true;
                    }
                }
                Entry::Reflection { index, type_name } => {
                    if let Some(a) = args.get_mut(index as usize) {
                        a.source_type = Some(type_name.to_string());
                    }
                }
                _ => {}
            }
        }
        args
    }
}
