//! Two launches of the same kernel on the same arguments compared buffer by buffer:
//! `gpukit visa run --compare` runs the vISA and the Gen code IGC made of it, and
//! any difference is a translation defect of IGC's backend (or of one front end).
//!
//! What this says is where the buffers differ. Locating the instruction that first
//! computes a different value (the vISA `$N` of the Gen code's `// $N` comments) needs
//! both runs' per-thread memory writes in order; the engines' trace hooks are where
//! that belongs, and [`compare`] is where the two sequences would meet.

use crate::bind::declared_scalar;
use crate::{elements, Outcome, Scalar};
use std::fmt;

/// One buffer argument whose bytes differ between two launches.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BufferDiff {
    pub arg: u32,
    /// The argument's name, where the binary has argument info.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The element type compared: the pointee's scalar type where argument info
    /// declares one (a vector's element type), else `u8`.
    #[serde(rename = "type")]
    pub ty: &'static str,
    /// Elements in the buffer (of the first launch).
    pub elements: usize,
    /// Elements that differ (a length difference counts the missing ones).
    pub differing: usize,
    /// The first differing element, and its value in each launch (`-` where one
    /// buffer is shorter).
    pub first: usize,
    pub a: String,
    pub b: String,
    /// What the two launches are called (`vISA`, `Gen`).
    #[serde(skip)]
    pub labels: [&'static str; 2],
}

impl fmt::Display for BufferDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "argument {}", self.arg)?;
        if let Some(n) = &self.name {
            write!(f, " ({n})")?;
        }
        write!(
            f,
            ": {} of {} {} elements differ; the first at [{}]: {} {}, {} {}",
            self.differing,
            self.elements,
            self.ty,
            self.first,
            self.labels[0],
            self.a,
            self.labels[1],
            self.b
        )
    }
}

/// The scalar type a pointer argument's declared type points to (`float4*` ->
/// f32, `uchar*` -> u8; `half` as u16); `None` for structs and unknown types.
pub fn pointee_scalar(type_name: &str) -> Option<Scalar> {
    let base = type_name.trim().strip_suffix('*')?.trim();
    let base = base.trim_end_matches(|c: char| c.is_ascii_digit());
    let (size, float) = declared_scalar(base)?;
    let unsigned = base.starts_with('u') || base.contains("unsigned") || base == "bool";
    Some(match (size, float, unsigned) {
        (4, true, _) => Scalar::F32,
        (8, true, _) => Scalar::F64,
        (1, false, false) => Scalar::I8,
        (1, _, _) => Scalar::U8,
        (2, false, false) => Scalar::I16,
        (2, _, _) => Scalar::U16,
        (4, false, false) => Scalar::I32,
        (4, _, _) => Scalar::U32,
        (8, false, false) => Scalar::I64,
        _ => Scalar::U64,
    })
}

/// Every buffer argument of `a` compared with the same argument of `b`, byte for
/// byte; the differences, by argument. `labels` name the two launches.
pub fn compare(a: &Outcome, b: &Outcome, labels: [&'static str; 2]) -> Vec<BufferDiff> {
    let mut out = Vec::new();
    for arg in a.buffer_args() {
        let (Some(x), y) = (a.buffer(arg), b.buffer(arg).unwrap_or_default()) else {
            continue;
        };
        if x == y {
            continue;
        }
        let scalar = a
            .arg_type(arg)
            .and_then(pointee_scalar)
            .unwrap_or(Scalar::U8);
        let size = scalar.size();
        let count = |data: &[u8]| data.len().div_ceil(size);
        let element = |data: &[u8], i: usize| -> String {
            data.get(i * size..(i + 1) * size)
                .and_then(|e| elements(e, scalar.name()).ok())
                .and_then(|v| v.first().map(ToString::to_string))
                .unwrap_or_else(|| "-".into())
        };
        let n = count(x).max(count(y));
        let differs = |i: usize| x.get(i * size..(i + 1) * size) != y.get(i * size..(i + 1) * size);
        let differing = (0..n).filter(|i| differs(*i)).count();
        let first = (0..n).find(|i| differs(*i)).unwrap_or(0);
        out.push(BufferDiff {
            arg,
            name: a.arg_name(arg).map(str::to_owned),
            ty: scalar.name(),
            elements: count(x),
            differing,
            first,
            a: element(x, first),
            b: element(y, first),
            labels,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointee_types() {
        assert_eq!(pointee_scalar("float*"), Some(Scalar::F32));
        assert_eq!(pointee_scalar("float4*"), Some(Scalar::F32));
        assert_eq!(pointee_scalar("uchar*"), Some(Scalar::U8));
        assert_eq!(pointee_scalar("int*"), Some(Scalar::I32));
        assert_eq!(pointee_scalar("ulong2*"), Some(Scalar::U64));
        assert_eq!(pointee_scalar("half*"), Some(Scalar::U16));
        assert_eq!(pointee_scalar("struct Params*"), None);
        assert_eq!(pointee_scalar("int"), None);
    }
}
