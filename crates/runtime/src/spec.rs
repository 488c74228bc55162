//! Argument specs, the strings `gpukit visa run --arg N=SPEC` (and the Python
//! binding) use to say what each kernel argument is: `file:PATH` or `zeros:BYTES`
//! (a global buffer), `local:BYTES` (a `__local` pointer), `TYPE:VALUE` (a scalar,
//! checked against its type's range) or `image:WxH[xD]:ORDER.TYPE:(file:PATH|zeros)`.
//! Every buffer is counted against the [`Budget`] before it is allocated.

use crate::budget::{Budget, Origin};
use crate::Error;
use gpukit_visa::interp::{ChannelType, ImageDesc};
use std::path::Path;

/// An image larger than this is refused whatever the budget (1 GiB).
const MAX_IMAGE_BYTES: usize = 1 << 30;
/// Reads a file an argument names; the caller's input layer (a path, its checks).
pub type ReadFile<'r> = dyn FnMut(&Path) -> Result<Vec<u8>, Error> + 'r;

/// What one kernel argument is bound to.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgSpec {
    /// A global buffer's initial bytes (moved into the launch's memory).
    Buffer(Vec<u8>),
    /// A `__local` pointer to this many bytes of shared local memory.
    Local(u32),
    /// A scalar's little-endian bytes.
    Bytes(Vec<u8>),
    /// An image and its texels.
    Image(ImageDesc, Vec<u8>),
}

fn usage(m: impl Into<String>) -> Error {
    Error::Usage(m.into())
}

/// `N=REST`: an argument index and the rest (`flag` names the option in messages).
pub fn split_index(s: &str, flag: &str) -> Result<(u32, String), Error> {
    let (n, rest) = s
        .split_once('=')
        .ok_or_else(|| usage(format!("--{flag} {s:?}: expected N=...")))?;
    let n = n
        .trim()
        .parse()
        .map_err(|_| usage(format!("--{flag} {s:?}: {n:?} is not an argument index")))?;
    Ok((n, rest.to_string()))
}

/// `N=SPEC`: an argument index and its spec.
pub fn parse_arg(
    s: &str,
    budget: &mut Budget,
    read: &mut ReadFile<'_>,
) -> Result<(u32, ArgSpec), Error> {
    let (n, spec) = split_index(s, "arg")?;
    Ok((
        n,
        parse_spec(&spec, &format!("argument {n}"), budget, read)?,
    ))
}

/// A scalar's range: the type's values, and for a hexadecimal literal of a signed
/// type also its bit patterns (`i32:0xffffffff` is -1).
fn scalar(kind: &str, literal: &str) -> Option<Vec<u8>> {
    let (bits, signed) = match kind {
        "i8" => (8, true),
        "u8" => (8, false),
        "i16" => (16, true),
        "u16" => (16, false),
        "i32" => (32, true),
        "u32" => (32, false),
        "i64" => (64, true),
        "u64" => (64, false),
        "f32" => return Some(literal.trim().parse::<f32>().ok()?.to_le_bytes().to_vec()),
        "f64" => return Some(literal.trim().parse::<f64>().ok()?.to_le_bytes().to_vec()),
        _ => return None,
    };
    let literal = literal.trim();
    let (value, hex) = match literal.strip_prefix("0x") {
        Some(h) => (i128::from_str_radix(h, 16).ok()?, true),
        None => (literal.parse::<i128>().ok()?, false),
    };
    let unsigned_max = (1i128 << bits) - 1;
    let (min, max) = match (signed, hex) {
        (true, false) => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
        _ => (0, unsigned_max),
    };
    if !(min..=max).contains(&value) {
        return None;
    }
    Some(value.to_le_bytes()[..bits / 8].to_vec())
}

fn range_of(kind: &str) -> &'static str {
    match kind {
        "i8" => "-128..=127 (or 0x0..=0xff)",
        "u8" => "0..=255",
        "i16" => "-32768..=32767 (or 0x0..=0xffff)",
        "u16" => "0..=65535",
        "i32" => "-2147483648..=2147483647 (or 0x0..=0xffffffff)",
        "u32" => "0..=4294967295",
        "i64" => "-2^63..=2^63-1 (or 0x0..=0xffffffffffffffff)",
        "u64" => "0..=2^64-1",
        _ => "a decimal number",
    }
}

/// One spec (`KIND:VALUE`); `what` names the argument in messages and the budget.
pub fn parse_spec(
    s: &str,
    what: &str,
    budget: &mut Budget,
    read: &mut ReadFile<'_>,
) -> Result<ArgSpec, Error> {
    let (kind, v) = s
        .split_once(':')
        .ok_or_else(|| usage(format!("argument spec {s:?}: expected KIND:VALUE")))?;
    let bad = || {
        usage(format!(
            "argument spec {s:?}: {v:?} is not a valid {kind} value"
        ))
    };
    Ok(match kind {
        "image" => return parse_image(s, v, what, budget, read),
        "file" => {
            let data = read(Path::new(v))?;
            budget.add_input(data.len() as u64);
            budget.charge(&format!("{what} ({s})"), data.len() as u64, Origin::Request)?;
            ArgSpec::Buffer(data)
        }
        "zeros" => {
            let bytes = v.trim().parse::<u64>().map_err(|_| bad())?;
            ArgSpec::Buffer(budget.zeros(&format!("{what} ({s})"), bytes, Origin::Request)?)
        }
        "local" => ArgSpec::Local(v.trim().parse().map_err(|_| bad())?),
        "i8" | "u8" | "i16" | "u16" | "i32" | "u32" | "i64" | "u64" | "f32" | "f64" => {
            ArgSpec::Bytes(scalar(kind, v).ok_or_else(|| {
                usage(format!(
                    "argument spec {s:?}: {v:?} is not a {kind} value ({})",
                    range_of(kind)
                ))
            })?)
        }
        _ => return Err(usage(format!("argument spec {s:?}: unknown kind {kind:?}"))),
    })
}

/// `image:WxH[xD]:ORDER.TYPE:(file:PATH|zeros)`.
fn parse_image(
    s: &str,
    v: &str,
    what: &str,
    budget: &mut Budget,
    read: &mut ReadFile<'_>,
) -> Result<ArgSpec, Error> {
    let bad = |why: &str| usage(format!("argument spec {s:?}: {why}"));
    let mut parts = v.splitn(3, ':');
    let (Some(shape), Some(format), Some(source)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(bad("expected image:WxH[xD]:ORDER.TYPE:(file:PATH|zeros)"));
    };
    let dims: Vec<u32> = shape
        .split('x')
        .map(|d| {
            d.trim()
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=16384).contains(n))
        })
        .collect::<Option<_>>()
        .filter(|d: &Vec<u32>| (1..=3).contains(&d.len()))
        .ok_or_else(|| bad("the shape is WxH[xD], each 1..=16384"))?;
    let (order, ty) = format
        .split_once('.')
        .ok_or_else(|| bad("the format is ORDER.TYPE, e.g. rgba.f32"))?;
    let channels = match order {
        "r" => 1,
        "rg" => 2,
        "rgba" => 4,
        _ => return Err(bad("ORDER is r, rg or rgba")),
    };
    let channel_type = match ty {
        "f32" => ChannelType::Float,
        "f16" => ChannelType::Half,
        "unorm8" => ChannelType::UnormInt8,
        "unorm16" => ChannelType::UnormInt16,
        "i8" => ChannelType::SignedInt8,
        "i16" => ChannelType::SignedInt16,
        "i32" => ChannelType::SignedInt32,
        "u8" => ChannelType::UnsignedInt8,
        "u16" => ChannelType::UnsignedInt16,
        "u32" => ChannelType::UnsignedInt32,
        _ => {
            return Err(bad(
                "TYPE is f32, f16, unorm8, unorm16, i8, i16, i32, u8, u16 or u32",
            ))
        }
    };
    let desc = ImageDesc {
        width: dims[0],
        height: dims.get(1).copied().unwrap_or(1),
        depth: dims.get(2).copied().unwrap_or(1),
        array: false,
        channels,
        channel_type,
    };
    let bytes = desc
        .bytes()
        .filter(|b| *b <= MAX_IMAGE_BYTES)
        .ok_or_else(|| bad("the image exceeds 1 GiB"))?;
    let what = format!("{what} (image:{shape}:{format})");
    let data = match source.split_once(':') {
        Some(("file", path)) => {
            let data = read(Path::new(path))?;
            if data.len() != bytes {
                return Err(bad(&format!(
                    "{path} holds {} bytes; the image takes {bytes}",
                    data.len()
                )));
            }
            budget.add_input(bytes as u64);
            budget.charge(&what, bytes as u64, Origin::Request)?;
            data
        }
        _ if source == "zeros" => budget.zeros(&what, bytes as u64, Origin::Request)?,
        _ => return Err(bad("the texels come from file:PATH or zeros")),
    };
    Ok(ArgSpec::Image(desc, data))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_files(_: &Path) -> Result<Vec<u8>, Error> {
        Err(Error::Io("no files here".into()))
    }

    fn spec(s: &str) -> Result<ArgSpec, Error> {
        parse_spec(s, "argument 0", &mut Budget::new(1 << 20), &mut no_files)
    }

    #[test]
    fn scalars_in_range_are_little_endian() {
        assert_eq!(spec("i8:-128").unwrap(), ArgSpec::Bytes(vec![0x80]));
        assert_eq!(spec("u8:255").unwrap(), ArgSpec::Bytes(vec![0xff]));
        assert_eq!(
            spec("i32:0xffffffff").unwrap(),
            ArgSpec::Bytes(vec![0xff; 4])
        );
        assert_eq!(spec("i32:-1").unwrap(), ArgSpec::Bytes(vec![0xff; 4]));
        assert_eq!(
            spec("u64:18446744073709551615").unwrap(),
            ArgSpec::Bytes(vec![0xff; 8])
        );
        assert_eq!(spec("i16:1000").unwrap(), ArgSpec::Bytes(vec![0xe8, 0x03]));
        assert_eq!(
            spec("f32:1.5").unwrap(),
            ArgSpec::Bytes(1.5f32.to_le_bytes().to_vec())
        );
    }

    #[test]
    fn scalars_out_of_range_are_usage_errors() {
        for s in [
            "i8:300",
            "i8:128",
            "u8:256",
            "i32:99999999999",
            "i32:0x1ffffffff",
            "u32:-1",
            "u16:65536",
            "i64:9223372036854775808",
            "u64:-1",
            "u32:0x",
            "i32:",
            "f32:x",
        ] {
            match spec(s) {
                Err(Error::Usage(m)) => assert!(m.contains(s.split(':').next().unwrap()), "{m}"),
                other => panic!("{s}: {other:?}"),
            }
        }
    }

    #[test]
    fn buffers_are_counted_before_they_are_made() {
        let mut budget = Budget::new(1000);
        let (n, b) = parse_arg("3=zeros:600", &mut budget, &mut no_files).unwrap();
        assert_eq!((n, b), (3, ArgSpec::Buffer(vec![0; 600])));
        for s in [
            "0=zeros:401",
            "0=zeros:18446744073709551615",
            "0=image:16x16:rgba.f32:zeros",
        ] {
            match parse_arg(s, &mut budget, &mut no_files) {
                Err(Error::OverBudget(e)) => assert!(e.what.starts_with("argument 0 ("), "{e}"),
                other => panic!("{s}: {other:?}"),
            }
        }
        let mut read = |_: &Path| Ok(vec![7u8; 500]);
        assert!(matches!(
            parse_arg("1=file:x", &mut budget, &mut read),
            Err(Error::OverBudget(_))
        ));
    }

    #[test]
    fn malformed_specs_are_usage_errors() {
        for s in [
            "zeros",
            "zeros:-1",
            "local:x",
            "nope:1",
            "image:0x1:r.f32:zeros",
            "image:4x4:rgb.f32:zeros",
        ] {
            assert!(matches!(spec(s), Err(Error::Usage(_))), "{s}");
        }
        let mut b = Budget::new(1 << 20);
        assert!(matches!(
            parse_arg("x=u8:1", &mut b, &mut no_files),
            Err(Error::Usage(_))
        ));
    }

    /// Every truncation and single-byte mutation of valid specs: no panic, and no
    /// buffer past the budget.
    #[test]
    fn truncations_and_mutations_stay_within_the_budget() {
        let valid = [
            "0=zeros:4096",
            "1=file:in.bin",
            "2=local:256",
            "3=i8:-5",
            "3=u16:0xffff",
            "4=i64:-9223372036854775808",
            "5=f64:1e300",
            "6=image:4x4x2:rgba.unorm8:zeros",
            "7=image:8x1:r.f32:file:in.bin",
            "8=u32:4294967295",
        ];
        let mutants = [b'0', b'9', b':', b'=', b'x', b'-', 0xff, b' ', b'.'];
        let mut read = |_: &Path| Ok(vec![0u8; 32]);
        let mut check = |text: &[u8]| {
            let Ok(text) = std::str::from_utf8(text) else {
                return;
            };
            let mut budget = Budget::new(1 << 12);
            if let Ok((_, ArgSpec::Buffer(b) | ArgSpec::Image(_, b))) =
                parse_arg(text, &mut budget, &mut read)
            {
                assert!(b.len() <= 1 << 12 && budget.used() <= 1 << 12, "{text}");
            }
        };
        for v in valid {
            let bytes = v.as_bytes();
            for end in 0..=bytes.len() {
                check(&bytes[..end]);
            }
            for at in 0..bytes.len() {
                for m in mutants {
                    let mut b = bytes.to_vec();
                    b[at] = m;
                    check(&b);
                    b.insert(at, m);
                    check(&b);
                }
            }
        }
    }
}
