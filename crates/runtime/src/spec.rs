//! Argument specs, the strings `gpukit visa run --arg ARG=SPEC` (and the Python
//! binding) use to say what each kernel argument is. ARG is an index or, where the
//! program binary has argument info, the argument's name. SPEC is a global buffer
//! (`file:PATH`, `zeros:BYTES`, or generated: `range:N:TYPE`, `random:N:TYPE:SEED`,
//! `fill:N:TYPE:V`), `local:BYTES` (a `__local` pointer), `TYPE:VALUE` (a scalar,
//! checked against its type's range), `bytes:PATH` (a by-value argument's bytes,
//! a struct or vector) or `image:WxH[xD]:ORDER.TYPE:(file:PATH|zeros)`.
//! Every buffer is counted against the [`Budget`] before it is allocated.

use crate::budget::{Budget, Origin};
use crate::Error;
use gpukit_visa::interp::{ChannelType, ImageDesc};
use std::fmt;
use std::path::Path;

/// An image larger than this is refused whatever the budget (1 GiB).
const MAX_IMAGE_BYTES: usize = 1 << 30;
/// Reads a file an argument names; the caller's input layer (a path, its checks).
pub type ReadFile<'r> = dyn FnMut(&Path) -> Result<Vec<u8>, Error> + 'r;

/// The scalar types a spec names: `i8`..`u64`, `f32`, `f64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

impl Scalar {
    const ALL: [(&'static str, Scalar); 10] = [
        ("i8", Scalar::I8),
        ("u8", Scalar::U8),
        ("i16", Scalar::I16),
        ("u16", Scalar::U16),
        ("i32", Scalar::I32),
        ("u32", Scalar::U32),
        ("i64", Scalar::I64),
        ("u64", Scalar::U64),
        ("f32", Scalar::F32),
        ("f64", Scalar::F64),
    ];
    /// Every type, in the order `i8`, `u8`, ... `f64`.
    pub fn all() -> impl Iterator<Item = Scalar> {
        Scalar::ALL.iter().map(|(_, s)| *s)
    }
    pub fn parse(name: &str) -> Option<Scalar> {
        Scalar::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, s)| *s)
    }
    pub fn name(self) -> &'static str {
        Scalar::ALL
            .iter()
            .find(|(_, s)| *s == self)
            .map_or("", |(n, _)| n)
    }
    /// Bytes of one value.
    pub fn size(self) -> usize {
        match self {
            Scalar::I8 | Scalar::U8 => 1,
            Scalar::I16 | Scalar::U16 => 2,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 4,
            Scalar::I64 | Scalar::U64 | Scalar::F64 => 8,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F32 | Scalar::F64)
    }
    fn signed(self) -> bool {
        matches!(self, Scalar::I8 | Scalar::I16 | Scalar::I32 | Scalar::I64)
    }
    /// The OpenCL C scalar type of the same size and kind (`int` for i32), whose
    /// name argument info gives.
    pub fn opencl_name(self) -> &'static str {
        match self {
            Scalar::I8 => "char",
            Scalar::U8 => "uchar",
            Scalar::I16 => "short",
            Scalar::U16 => "ushort",
            Scalar::I32 => "int",
            Scalar::U32 => "uint",
            Scalar::I64 => "long",
            Scalar::U64 => "ulong",
            Scalar::F32 => "float",
            Scalar::F64 => "double",
        }
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which kernel argument a spec is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgRef {
    Index(u32),
    /// The argument's name in the source (the binary's argument info).
    Name(String),
}

impl fmt::Display for ArgRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgRef::Index(n) => write!(f, "{n}"),
            ArgRef::Name(n) => f.write_str(n),
        }
    }
}

/// What one kernel argument is bound to.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgSpec {
    /// A global buffer's initial bytes (moved into the launch's memory).
    Buffer(Vec<u8>),
    /// A `__local` pointer to this many bytes of shared local memory.
    Local(u32),
    /// A scalar of a type, as little-endian bytes.
    Scalar(Scalar, Vec<u8>),
    /// A by-value argument's bytes as given (`bytes:PATH`: a struct, a vector).
    Bytes(Vec<u8>),
    /// An image and its texels.
    Image(ImageDesc, Vec<u8>),
}

impl ArgSpec {
    /// What the spec gives, for messages.
    pub fn what(&self) -> String {
        match self {
            ArgSpec::Buffer(b) => format!("a buffer ({} bytes)", b.len()),
            ArgSpec::Local(n) => format!("local:{n}"),
            ArgSpec::Scalar(t, _) => format!("{t}:VALUE"),
            ArgSpec::Bytes(b) => format!("bytes: ({} bytes)", b.len()),
            ArgSpec::Image(..) => "an image".into(),
        }
    }
}

fn usage(m: impl Into<String>) -> Error {
    Error::Usage(m.into())
}

/// `ARG=REST`: an argument (an index, or a name where the binary has them) and the
/// rest (`flag` names the option in messages).
pub fn split_arg(s: &str, flag: &str) -> Result<(ArgRef, String), Error> {
    let (n, rest) = s
        .split_once('=')
        .ok_or_else(|| usage(format!("--{flag} {s:?}: expected N=... or NAME=...")))?;
    let n = n.trim();
    let arg = if n.starts_with(|c: char| c.is_ascii_digit()) {
        ArgRef::Index(
            n.parse()
                .map_err(|_| usage(format!("--{flag} {s:?}: {n:?} is not an argument index")))?,
        )
    } else if !n.is_empty() && n.chars().all(|c| c == '_' || c.is_ascii_alphanumeric()) {
        ArgRef::Name(n.to_owned())
    } else {
        return Err(usage(format!(
            "--{flag} {s:?}: {n:?} is neither an argument index nor a name"
        )));
    };
    Ok((arg, rest.to_string()))
}

/// `ARG=SPEC`: an argument and its spec.
pub fn parse_arg(
    s: &str,
    budget: &mut Budget,
    read: &mut ReadFile<'_>,
) -> Result<(ArgRef, ArgSpec), Error> {
    let (arg, spec) = split_arg(s, "arg")?;
    let spec = parse_spec(&spec, &format!("argument {arg}"), budget, read)?;
    Ok((arg, spec))
}

/// A scalar's range: the type's values, and for a hexadecimal literal of an integer
/// type also its bit patterns (`i32:0xffffffff` is -1).
fn scalar(kind: Scalar, literal: &str) -> Option<Vec<u8>> {
    let literal = literal.trim();
    match kind {
        Scalar::F32 => return Some(literal.parse::<f32>().ok()?.to_le_bytes().to_vec()),
        Scalar::F64 => return Some(literal.parse::<f64>().ok()?.to_le_bytes().to_vec()),
        _ => {}
    }
    let bits = kind.size() as u32 * 8;
    let (value, hex) = match literal.strip_prefix("0x") {
        Some(h) => (i128::from_str_radix(h, 16).ok()?, true),
        None => (literal.parse::<i128>().ok()?, false),
    };
    let unsigned_max = (1i128 << bits) - 1;
    let (min, max) = match (kind.signed(), hex) {
        (true, false) => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
        _ => (0, unsigned_max),
    };
    if !(min..=max).contains(&value) {
        return None;
    }
    Some(value.to_le_bytes()[..kind.size()].to_vec())
}

fn range_of(kind: Scalar) -> &'static str {
    match kind {
        Scalar::I8 => "-128..=127 (or 0x0..=0xff)",
        Scalar::U8 => "0..=255",
        Scalar::I16 => "-32768..=32767 (or 0x0..=0xffff)",
        Scalar::U16 => "0..=65535",
        Scalar::I32 => "-2147483648..=2147483647 (or 0x0..=0xffffffff)",
        Scalar::U32 => "0..=4294967295",
        Scalar::I64 => "-2^63..=2^63-1 (or 0x0..=0xffffffffffffffff)",
        Scalar::U64 => "0..=2^64-1",
        Scalar::F32 | Scalar::F64 => "a decimal number",
    }
}

/// The `random:` generator: SplitMix64 (Steele, Lea, Flood 2014), seeded with SEED.
/// Integers take the low bytes of each output (uniform over the type's bits);
/// floats are uniform in [0, 1): the top 24 (f32) or 53 (f64) bits over 2^24 or 2^53.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Element `i` of a generated buffer of `ty` as little-endian bytes.
fn generated(kind: &str, ty: Scalar, i: u64, rng: &mut SplitMix64, fill: &[u8]) -> Vec<u8> {
    match kind {
        "fill" => fill.to_vec(),
        "range" => match ty {
            Scalar::F32 => (i as f32).to_le_bytes().to_vec(),
            Scalar::F64 => (i as f64).to_le_bytes().to_vec(),
            _ => i.to_le_bytes()[..ty.size()].to_vec(),
        },
        _ => {
            let r = rng.next();
            match ty {
                Scalar::F32 => ((r >> 40) as f32 / (1u64 << 24) as f32)
                    .to_le_bytes()
                    .to_vec(),
                Scalar::F64 => ((r >> 11) as f64 / (1u64 << 53) as f64)
                    .to_le_bytes()
                    .to_vec(),
                _ => r.to_le_bytes()[..ty.size()].to_vec(),
            }
        }
    }
}

/// `range:N:TYPE` (0, 1, 2, ...), `random:N:TYPE:SEED` ([`SplitMix64`]) and
/// `fill:N:TYPE:V`: a buffer of N elements of TYPE.
fn parse_generator(
    s: &str,
    kind: &str,
    v: &str,
    what: &str,
    budget: &mut Budget,
) -> Result<ArgSpec, Error> {
    let form = match kind {
        "range" => "range:N:TYPE",
        "random" => "random:N:TYPE:SEED",
        _ => "fill:N:TYPE:V",
    };
    let bad = |why: String| usage(format!("argument spec {s:?}: {why} (expected {form})"));
    let mut parts = v.splitn(3, ':');
    let count = parts.next().unwrap_or_default();
    let count = count
        .trim()
        .parse::<u64>()
        .map_err(|_| bad(format!("{count:?} is not an element count")))?;
    let ty_name = parts.next().unwrap_or_default();
    let ty = Scalar::parse(ty_name.trim())
        .ok_or_else(|| bad(format!("{ty_name:?} is not a type (i8..u64, f32, f64)")))?;
    let last = parts.next();
    let (seed, fill) = match (kind, last) {
        ("range", None) => (0, Vec::new()),
        ("random", Some(seed)) => (
            seed.trim()
                .parse::<u64>()
                .map_err(|_| bad(format!("{seed:?} is not a seed (0..=2^64-1)")))?,
            Vec::new(),
        ),
        ("fill", Some(value)) => (
            0,
            scalar(ty, value)
                .ok_or_else(|| bad(format!("{value:?} is not a {ty} value ({})", range_of(ty))))?,
        ),
        _ => return Err(bad("wrong number of fields".into())),
    };
    let bytes = count
        .checked_mul(ty.size() as u64)
        .ok_or_else(|| bad(format!("{count} elements exceed 2^64 bytes")))?;
    let mut data = budget.zeros(&format!("{what} ({s})"), bytes, Origin::Request)?;
    let mut rng = SplitMix64(seed);
    for (i, chunk) in data.chunks_exact_mut(ty.size()).enumerate() {
        chunk.copy_from_slice(&generated(kind, ty, i as u64, &mut rng, &fill));
    }
    Ok(ArgSpec::Buffer(data))
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
    if let Some(ty) = Scalar::parse(kind) {
        return Ok(ArgSpec::Scalar(
            ty,
            scalar(ty, v).ok_or_else(|| {
                usage(format!(
                    "{what}: {s:?}: {v:?} is not a {kind} value ({})",
                    range_of(ty)
                ))
            })?,
        ));
    }
    Ok(match kind {
        "image" => return parse_image(s, v, what, budget, read),
        "range" | "random" | "fill" => return parse_generator(s, kind, v, what, budget),
        "file" | "bytes" => {
            let data = read(Path::new(v))?;
            budget.add_input(data.len() as u64);
            budget.charge(&format!("{what} ({s})"), data.len() as u64, Origin::Request)?;
            if kind == "file" {
                ArgSpec::Buffer(data)
            } else {
                ArgSpec::Bytes(data)
            }
        }
        "zeros" => {
            let bytes = v.trim().parse::<u64>().map_err(|_| bad())?;
            ArgSpec::Buffer(budget.zeros(&format!("{what} ({s})"), bytes, Origin::Request)?)
        }
        "local" => ArgSpec::Local(v.trim().parse().map_err(|_| bad())?),
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

    /// The bytes of a scalar spec.
    fn value(s: &str) -> Vec<u8> {
        match spec(s).unwrap() {
            ArgSpec::Scalar(ty, bytes) => {
                assert_eq!(ty.name(), s.split(':').next().unwrap());
                bytes
            }
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn scalars_in_range_are_little_endian() {
        assert_eq!(value("i8:-128"), vec![0x80]);
        assert_eq!(value("u8:255"), vec![0xff]);
        assert_eq!(value("i32:0xffffffff"), vec![0xff; 4]);
        assert_eq!(value("i32:-1"), vec![0xff; 4]);
        assert_eq!(value("u64:18446744073709551615"), vec![0xff; 8]);
        assert_eq!(value("i16:1000"), vec![0xe8, 0x03]);
        assert_eq!(value("f32:1.5"), 1.5f32.to_le_bytes().to_vec());
    }

    fn elements<const N: usize>(s: &str) -> Vec<[u8; N]> {
        match spec(s).unwrap() {
            ArgSpec::Buffer(b) => b.chunks_exact(N).map(|c| c.try_into().unwrap()).collect(),
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn generators_make_buffers_of_n_elements() {
        let range: Vec<u32> = elements::<4>("range:5:u32")
            .into_iter()
            .map(u32::from_le_bytes)
            .collect();
        assert_eq!(range, [0, 1, 2, 3, 4]);
        let range: Vec<f32> = elements::<4>("range:3:f32")
            .into_iter()
            .map(f32::from_le_bytes)
            .collect();
        assert_eq!(range, [0.0, 1.0, 2.0]);
        let fill: Vec<i16> = elements::<2>("fill:3:i16:-7")
            .into_iter()
            .map(i16::from_le_bytes)
            .collect();
        assert_eq!(fill, [-7, -7, -7]);
        // SplitMix64 seeded with 0: its first output is 0xe220a8397b1dcdaf.
        let random: Vec<u64> = elements::<8>("random:2:u64:0")
            .into_iter()
            .map(u64::from_le_bytes)
            .collect();
        assert_eq!(random[0], 0xe220_a839_7b1d_cdaf);
        assert_eq!(
            elements::<8>("random:2:u64:0"),
            elements::<8>("random:2:u64:0")
        );
        assert_ne!(
            elements::<8>("random:2:u64:0"),
            elements::<8>("random:2:u64:1")
        );
        let floats = elements::<4>("random:1000:f32:9")
            .into_iter()
            .map(f32::from_le_bytes);
        assert!(floats.clone().all(|f| (0.0..1.0).contains(&f)));
        assert!(floats.map(f64::from).sum::<f64>() > 400.0);
        for bad in [
            "range:x:u32",
            "range:4:u24",
            "range:4:u32:1",
            "random:4:u32",
            "random:4:u32:-1",
            "fill:4:u8:256",
            "fill:4:u8",
        ] {
            assert!(matches!(spec(bad), Err(Error::Usage(_))), "{bad}");
        }
        let mut small = Budget::new(64);
        assert!(matches!(
            parse_spec("range:17:u32", "argument 0", &mut small, &mut no_files),
            Err(Error::OverBudget(_))
        ));
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
        assert_eq!((n, b), (ArgRef::Index(3), ArgSpec::Buffer(vec![0; 600])));
        let (n, _) = parse_arg("out=zeros:0", &mut budget, &mut no_files).unwrap();
        assert_eq!(n, ArgRef::Name("out".into()));
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
        for s in ["-1=u8:1", "x y=u8:1", "=u8:1", "1x=u8:1"] {
            assert!(
                matches!(parse_arg(s, &mut b, &mut no_files), Err(Error::Usage(_))),
                "{s}"
            );
        }
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
            "n=range:64:f64",
            "9=random:100:u16:42",
            "out=fill:32:i32:-5",
            "2=bytes:in.bin",
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
