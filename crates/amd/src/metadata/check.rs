//! Consistency checks across the lines of a block: things each line parses
//! fine on its own but that the runtime would trip over together.

use super::model::*;
use serde::Serialize;
use std::collections::{HashMap, HashSet};

/// One finding, tied to the 1-based line of the block (line 1 is `;ARGSTART`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl Metadata<'_> {
    /// Checks that the block is coherent: matching `;ARGSTART`/`;ARGEND`
    /// names, one `;uniqueid`, 16-byte aligned and non-overlapping argument
    /// slots, `;constarg`/`;reflection`/`;sampler` lines that name real
    /// arguments, element counts the spec allows. An empty result means nothing was found.
    pub fn check(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        let end_line = self.line_count() + 2;
        if self.end_name != self.name {
            out.push(Finding {
                line: end_line,
                message: format!(
                    "`;ARGEND:{}` closes `;ARGSTART:{}`",
                    self.end_name, self.name
                ),
            });
        }
        let line_of = |i: usize| i + 2;
        let ids: Vec<usize> = self
            .lines()
            .enumerate()
            .filter(|(_, l)| matches!(l.entry, Entry::UniqueId(_)))
            .map(|(i, _)| i)
            .collect();
        if ids.is_empty() {
            out.push(Finding {
                line: 1,
                message: "no `;uniqueid` line".into(),
            });
        }
        for &i in ids.iter().skip(1) {
            out.push(Finding {
                line: line_of(i),
                message: "second `;uniqueid` line".into(),
            });
        }
        let args = self.arguments();
        // Line index of each argument, in argument order.
        let arg_lines: Vec<usize> = self
            .lines()
            .enumerate()
            .filter(|(_, l)| {
                matches!(
                    l.entry,
                    Entry::Value(_) | Entry::Pointer(_) | Entry::Image(_) | Entry::Counter(_)
                )
            })
            .map(|(i, _)| line_of(i))
            .collect();
        for (a, &line) in args.iter().zip(&arg_lines) {
            if a.offset % 16 != 0 {
                out.push(Finding {
                    line,
                    message: format!(
                        "argument `{}` at offset {} is not on a 16-byte slot",
                        a.name, a.offset
                    ),
                });
            }
        }
        // Each argument is compared with the earlier ones through an index, not pair by
        // pair: a block of n arguments costs n log n, and reports at most one overlap
        // and one repeat per argument, so the findings stay proportional to the block.
        let mut slots = SlotIndex::new(&args);
        let mut names: HashSet<&str> = HashSet::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            let (a0, a1) = span(a);
            if let Some(j) = slots.widest_before(a, a1) {
                let b = &args[j];
                let (b0, b1) = span(b);
                if b1 > a0 {
                    out.push(Finding {
                        line: arg_lines[i],
                        message: format!(
                            "argument `{}` (cb{} bytes {a0}..{a1}) overlaps `{}` (bytes {b0}..{b1})",
                            a.name, a.cb, b.name
                        ),
                    });
                }
            }
            slots.insert(i, a);
            if !names.insert(a.name.as_str()) {
                out.push(Finding {
                    line: arg_lines[i],
                    message: format!("argument name `{}` repeats", a.name),
                });
            }
        }
        for (i, l) in self.lines().enumerate() {
            let line = line_of(i);
            if let Some(message) = element_count_finding(&l.entry) {
                out.push(Finding { line, message });
            }
            match &l.entry {
                Entry::ConstArg { index, name } => match args.get(*index as usize) {
                    None => out.push(Finding {
                        line,
                        message: format!(
                            "`;constarg` index {index} but the kernel has {} arguments",
                            args.len()
                        ),
                    }),
                    Some(a) if a.name != *name => out.push(Finding {
                        line,
                        message: format!(
                            "`;constarg:{index}` names `{name}`, argument {index} is `{}`",
                            a.name
                        ),
                    }),
                    _ => {}
                },
                Entry::Reflection { index, .. } if *index as usize >= args.len() => {
                    out.push(Finding {
                        line,
                        message: format!(
                            "`;reflection` index {index} but the kernel has {} arguments",
                            args.len()
                        ),
                    })
                }
                Entry::Sampler(s) if s.location == 0 && !names.contains(&*s.name) => {
                    out.push(Finding {
                        line,
                        message: format!("sampler argument `{}` has no `;value` line", s.name),
                    })
                }
                _ => {}
            }
        }
        out
    }
}

/// Vector widths the spec allows for a `;value` (3 from OpenCL 1.1 on).
const VECTOR_COUNTS: [u32; 6] = [1, 2, 3, 4, 8, 16];

/// The spec's "Num Element" field: 1, 2, 3, 4, 8 or 16 for values, where scalars, events
/// and opaque types are 1 and `struct`/`union` carry their size in bytes (any count);
/// a `;pointer` is always 1 ("there cannot be a pointer vector/array of pointers").
fn element_count_finding(entry: &Entry) -> Option<String> {
    match entry {
        Entry::Value(v) => match v.data_type {
            DataType::Struct | DataType::Union => None,
            DataType::Event | DataType::Opaque if v.count != 1 => Some(format!(
                "`;value:{}` of type {} has {} elements; must be 1",
                v.name,
                v.data_type.as_str(),
                v.count
            )),
            _ if !VECTOR_COUNTS.contains(&v.count) => Some(format!(
                "`;value:{}` has {} elements; a vector has 1, 2, 3, 4, 8 or 16",
                v.name, v.count
            )),
            _ => None,
        },
        Entry::Pointer(p) if p.count != 1 => Some(format!(
            "`;pointer:{}` has {} elements; must be 1",
            p.name, p.count
        )),
        _ => None,
    }
}

/// The constant-buffer bytes an argument occupies.
fn span(a: &Argument) -> (u64, u64) {
    let start = u64::from(a.offset);
    (start, start + u64::from(a.cb_size))
}

/// The arguments inserted so far, per constant buffer, answering "of the earlier
/// arguments that start before byte X, which one ends last?" in log time: a
/// prefix-maximum (Fenwick) tree over the sorted distinct start offsets of each buffer.
struct SlotIndex {
    buffers: HashMap<u32, Buffer>,
}

struct Buffer {
    starts: Vec<u64>,
    /// 1-based Fenwick tree of (end, argument index), maximum by end.
    tree: Vec<Option<(u64, usize)>>,
}

impl SlotIndex {
    fn new(args: &[Argument]) -> SlotIndex {
        let mut buffers: HashMap<u32, Buffer> = HashMap::new();
        for a in args {
            buffers
                .entry(a.cb)
                .or_insert_with(|| Buffer {
                    starts: Vec::new(),
                    tree: Vec::new(),
                })
                .starts
                .push(span(a).0);
        }
        for b in buffers.values_mut() {
            b.starts.sort_unstable();
            b.starts.dedup();
            b.tree = vec![None; b.starts.len() + 1];
        }
        SlotIndex { buffers }
    }

    fn insert(&mut self, index: usize, a: &Argument) {
        let Some(b) = self.buffers.get_mut(&a.cb) else {
            return;
        };
        let (start, end) = span(a);
        let mut pos = b.starts.partition_point(|&s| s < start) + 1;
        while pos < b.tree.len() {
            if b.tree[pos].is_none_or(|(e, _)| end > e) {
                b.tree[pos] = Some((end, index));
            }
            pos += pos & pos.wrapping_neg();
        }
    }

    /// The earlier argument of `a`'s buffer that ends last among those starting before `limit`.
    fn widest_before(&self, a: &Argument, limit: u64) -> Option<usize> {
        let b = self.buffers.get(&a.cb)?;
        let mut pos = b.starts.partition_point(|&s| s < limit);
        let mut best: Option<(u64, usize)> = None;
        while pos > 0 {
            if let Some((e, i)) = b.tree[pos] {
                if best.is_none_or(|(be, bi)| e > be || (e == be && i < bi)) {
                    best = Some((e, i));
                }
            }
            pos &= pos - 1;
        }
        best.map(|(_, i)| i)
    }
}
