//! The runtime layer: what the OpenCL runtime (NEO) does between a program binary
//! and the GPU, for gpukit's CPU engine. A [`Kernel`] (its [`Code`]: vISA and the
//! functions it calls, or the Gen machine code as an IGA listing), its program
//! binary's ABI and the caller's [`ArgSpec`]s become a launch: arguments, implicit
//! arguments, program-scope data and its relocations are bound into the payload and
//! memory, and the launch runs through [`gpukit_visa::interp`] or `gpukit_gen`
//! ([`mod@gen`]: where the Gen code starts, its indirect data). Every allocation is
//! counted against one [`Budget`] first. `gpukit visa run`, `gpukit iga run` and the
//! Python binding only parse their options into this API.

#![forbid(unsafe_code)]

mod bind;
pub mod budget;
pub mod compare;
pub mod gen;
pub mod printf;
pub mod spec;
pub mod workgroup;

pub use bind::{launch, Code, Kernel, Outcome, Request};
pub use budget::{parse_size, Budget, Origin, OverBudget, DEFAULT_MAX_MEMORY};
pub use spec::{parse_arg, parse_spec, split_arg, ArgRef, ArgSpec, Scalar};

use gpukit_visa::interp::RunError;

/// Why a launch was not made or did not finish.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request cannot be served as given (a launch shape, a spec, a missing
    /// argument): a usage error.
    #[error("{0}")]
    Usage(String),
    /// An allocation the budget refused (a usage error: the request is too large).
    #[error(transparent)]
    OverBudget(#[from] OverBudget),
    /// The program binary has no kernel of that name.
    #[error("no kernel {0:?}")]
    NoKernel(String),
    /// An input file is wrong or inconsistent.
    #[error("{0}")]
    Input(String),
    /// The Gen listing cannot be run (it does not lower): an input error the caller
    /// places in the listing's file.
    #[error("{0}")]
    Listing(String),
    /// A file could not be read (from the caller's reader).
    #[error("{0}")]
    Io(String),
    /// The kernel failed while running.
    #[error("{error}{}", if *.instruction_limit { "; raise the limit with --max-instructions N" } else { "" })]
    Run {
        error: RunError,
        /// It ran into the instruction limit.
        instruction_limit: bool,
    },
}

impl Error {
    /// The request itself is at fault (exit 2 in the CLI), not an input file.
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            Error::Usage(_) | Error::OverBudget(_) | Error::NoKernel(_)
        )
    }
}

/// The default instruction limit: proportionate to the launch (10M, plus 100k per
/// hardware thread), and never above the 200M a run took before it was proportionate.
pub fn default_instruction_limit(hardware_threads: u64) -> u64 {
    hardware_threads
        .saturating_mul(100_000)
        .saturating_add(10_000_000)
        .min(200_000_000)
}

/// The line of each instruction in a text, counted as the parser counts them
/// (labels and instructions, one per line); `None` when the count disagrees.
pub fn instruction_lines(text: &str, count: usize) -> Option<Vec<usize>> {
    let mut lines = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        let code = raw.split("//").next().unwrap_or("").trim();
        if code.is_empty() || code.starts_with('.') || code == "{" || code == "}" {
            continue;
        }
        lines.push(i + 1);
    }
    (lines.len() == count).then_some(lines)
}

/// One element of a buffer read as a type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Element {
    Int(i64),
    UInt(u64),
    F32(f32),
    F64(f64),
}

impl std::fmt::Display for Element {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Element::Int(v) => write!(f, "{v}"),
            Element::UInt(v) => write!(f, "{v}"),
            Element::F32(v) => write!(f, "{v}"),
            Element::F64(v) => write!(f, "{v}"),
        }
    }
}

/// A buffer's elements of `ty` (u8..i64, f32, f64); a partial last element is left out.
pub fn elements(data: &[u8], ty: &str) -> Result<Vec<Element>, Error> {
    let scalar = Scalar::parse(ty)
        .ok_or_else(|| Error::Usage(format!("--show: unknown element type {ty:?}")))?;
    let size = scalar.size();
    Ok(data
        .chunks_exact(size)
        .map(|chunk| {
            let mut b = [0u8; 8];
            b[..size].copy_from_slice(chunk);
            let raw = u64::from_le_bytes(b);
            match scalar {
                Scalar::U8 | Scalar::U16 | Scalar::U32 | Scalar::U64 => Element::UInt(raw),
                Scalar::I8 => Element::Int(raw as u8 as i8 as i64),
                Scalar::I16 => Element::Int(raw as u16 as i16 as i64),
                Scalar::I32 => Element::Int(raw as u32 as i32 as i64),
                Scalar::I64 => Element::Int(raw as i64),
                Scalar::F32 => Element::F32(f32::from_bits(raw as u32)),
                Scalar::F64 => Element::F64(f64::from_bits(raw)),
            }
        })
        .collect())
}

/// A buffer as text: elements of `ty` (u8..i64, f32, f64), eight to a line, each
/// line led by its first index.
pub fn format_elements(data: &[u8], ty: &str) -> Result<String, Error> {
    let mut out = String::new();
    for (i, v) in elements(data, ty)?.iter().enumerate() {
        if i % 8 == 0 {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&format!("{i:6}:"));
        }
        out.push(' ');
        out.push_str(&v.to_string());
    }
    out.push('\n');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_instruction_limit_grows_with_the_launch_up_to_200m() {
        assert_eq!(default_instruction_limit(0), 10_000_000);
        assert_eq!(default_instruction_limit(8), 10_800_000);
        assert_eq!(default_instruction_limit(1900), 200_000_000);
        assert_eq!(default_instruction_limit(u64::MAX), 200_000_000);
    }

    #[test]
    fn elements_are_formatted_eight_a_line() {
        let data: Vec<u8> = (0..10u32).flat_map(|v| v.to_le_bytes()).collect();
        let text = format_elements(&data, "u32").unwrap();
        assert_eq!(text, "     0: 0 1 2 3 4 5 6 7\n     8: 8 9\n");
        assert!(format_elements(&data, "u24").is_err());
    }
}
