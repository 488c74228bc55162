//! Consistency checks across the lines of a block: things each line parses
//! fine on its own but that the runtime would trip over together.

use super::model::*;
use serde::Serialize;

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

impl Metadata {
    /// Checks that the block is coherent: matching `;ARGSTART`/`;ARGEND`
    /// names, one `;uniqueid`, 16-byte aligned and non-overlapping argument
    /// slots, `;constarg`/`;reflection`/`;sampler` lines that name real
    /// arguments, element counts the spec allows. An empty result means nothing was found.
    pub fn check(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        let end_line = self.lines.len() + 2;
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
            .lines
            .iter()
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
            .lines
            .iter()
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
        for (i, a) in args.iter().enumerate() {
            for b in &args[..i] {
                let (a0, a1) = (
                    u64::from(a.offset),
                    u64::from(a.offset) + u64::from(a.cb_size),
                );
                let (b0, b1) = (
                    u64::from(b.offset),
                    u64::from(b.offset) + u64::from(b.cb_size),
                );
                if a.cb == b.cb && a0 < b1 && b0 < a1 {
                    out.push(Finding {
                        line: arg_lines[i],
                        message: format!(
                            "argument `{}` (cb{} bytes {a0}..{a1}) overlaps `{}` (bytes {b0}..{b1})",
                            a.name, a.cb, b.name
                        ),
                    });
                }
            }
            if args[..i].iter().any(|b| b.name == a.name) {
                out.push(Finding {
                    line: arg_lines[i],
                    message: format!("argument name `{}` repeats", a.name),
                });
            }
        }
        for (i, l) in self.lines.iter().enumerate() {
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
                Entry::Sampler(s) if s.location == 0 && !args.iter().any(|a| a.name == s.name) => {
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
