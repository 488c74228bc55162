//! Reads a `.isa` file into an [`Object`] (spec `4_visa_header.md`, facts §2).

use super::cursor::Cursor;
use super::defects::{self, Bounds, StreamError};
use super::instruction::{self, QuickVersion};
use super::stream::EncodedStream;
use crate::error::{ReadError, ReadErrorKind};
use crate::isa::{attribute_kind, AttributeKind};
use crate::limits;
use crate::model::*;
use crate::version::Version;
use std::sync::Arc;

pub const MAGIC: u32 = 0x4153_4943;

/// How to treat an instruction stream that does not decode.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOptions {
    /// Keep such a stream as [`Code::Undecoded`] instead of failing the whole read.
    pub keep_undecodable_streams: bool,
}

/// Where each routine sits in the file, as the header says.
struct Placement {
    offset: u32,
    size: u32,
    input_offset: Option<u32>,
}

/// Where the parts of a routine sit in the file it was read from.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct RoutineLayout {
    /// Absolute offset and size of the routine object (without Gen binaries).
    pub offset: u32,
    pub size: u32,
    /// Absolute offset of `num_inputs` (kernels only).
    pub input_offset: Option<u32>,
    /// Offset of the first instruction, relative to the routine object.
    pub entry: u32,
    /// Byte length of the instruction stream.
    pub code_size: u32,
    /// Absolute offset and size of each Gen binary (kernels only).
    pub gen_binaries: Vec<(u32, u32)>,
}

/// The placement of every routine, as the header of a read file gives it.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct FileLayout {
    pub kernels: Vec<RoutineLayout>,
    pub functions: Vec<RoutineLayout>,
}

pub fn read(data: &[u8], options: ReadOptions) -> Result<Object, ReadError> {
    read_with_layout(data, options).map(|(o, _)| o)
}

/// Reads a file and also reports where each routine was found in it. Each routine's
/// instruction stream is copied (once) into its [`InstructionList`].
pub fn read_with_layout(
    data: &[u8],
    options: ReadOptions,
) -> Result<(Object, FileLayout), ReadError> {
    read_from(data, None, options)
}

/// As [`read_with_layout`], the routines' instruction lists keeping `data` (shared)
/// instead of copies of their streams: a read costs little more memory than the file.
pub fn read_shared(
    data: Arc<Vec<u8>>,
    options: ReadOptions,
) -> Result<(Object, FileLayout), ReadError> {
    read_from(&data, Some(&data), options)
}

/// `shared`, when given, holds the same bytes as `data`.
fn read_from(
    data: &[u8],
    shared: Option<&Arc<Vec<u8>>>,
    options: ReadOptions,
) -> Result<(Object, FileLayout), ReadError> {
    let mut cur = Cursor::new(data);
    cur.enter("header", None);
    let at = cur.pos();
    let magic = cur.u32("magic")?;
    if magic != MAGIC {
        return Err(cur.invalid(
            "magic",
            at,
            format!("{magic:#010x} is not \"CISA\" (0x41534943)"),
        ));
    }
    let at = cur.pos();
    let version = Version::new(cur.u8("major_version")?, cur.u8("minor_version")?);
    if !version.has_binary_form() {
        return Err(cur.invalid(
            "major_version",
            at,
            format!(
                "version {version} has no binary form (supported: 3.0 to {})",
                Version::LATEST_BINARY
            ),
        ));
    }
    let at = cur.pos();
    let n = cur.u16("num_kernels")? as usize;
    cur.check_count(n, 18, limits::MAX_KERNELS, "num_kernels", at)?;
    let mut kernel_heads = Vec::with_capacity(n);
    // Every part of the file a header entry points at; they must not overlap, so
    // each byte is decoded or copied at most once (memory and time stay linear).
    let mut regions: Vec<Region> = Vec::new();
    for i in 0..n {
        cur.enter("kernel_info", Some(i));
        let name = read_name(&mut cur, version)?;
        let offset_at = cur.pos();
        let placement = Placement {
            offset: cur.u32("offset")?,
            size: cur.u32("size")?,
            input_offset: Some(cur.u32("input_offset")?),
        };
        check_placement(&cur, &placement, data.len())?;
        regions.push(Region::of(
            &placement,
            format!("kernel_info[{i}]"),
            offset_at,
        ));
        let relocations = read_relocations(&mut cur)?;
        let at = cur.pos();
        let ng = cur.u8("num_gen_binaries")? as usize;
        if ng > limits::MAX_GEN_BINARIES {
            return Err(cur.invalid(
                "num_gen_binaries",
                at,
                format!(
                    "{ng} Gen binaries; the format allows at most {}",
                    limits::MAX_GEN_BINARIES
                ),
            ));
        }
        cur.check_count(ng, 9, limits::MAX_GEN_BINARIES, "num_gen_binaries", at)?;
        let mut gens = Vec::with_capacity(ng);
        for g in 0..ng {
            cur.enter("gen_binary_info", Some(g));
            let platform = cur.u8("gen_platform")?;
            let at = cur.pos();
            regions.push(Region {
                start: 0,
                end: 0,
                entry: format!("kernel_info[{i}].gen_binary_info[{g}]"),
                field_at: at,
            });
            let offset = cur.u32("binary_offset")? as usize;
            let size = cur.u32("binary_size")? as usize;
            offset
                .checked_add(size)
                .and_then(|end| data.get(offset..end))
                .ok_or_else(|| {
                    cur.invalid(
                        "binary_offset",
                        at,
                        format!("Gen binary [{offset:#x}, +{size:#x}) lies outside the file ({:#x} bytes)", data.len()),
                    )
                })?;
            if let Some(r) = regions.last_mut() {
                r.start = offset;
                r.end = offset + size;
            }
            // Copied only after the overlap check: each byte once at most.
            gens.push((platform, offset, size));
            cur.leave();
        }
        kernel_heads.push((name, placement, relocations, gens));
        cur.leave();
    }
    let at = cur.pos();
    let nf = cur.u16("num_filescope_variables")? as usize;
    cur.check_count(nf, 7, usize::MAX, "num_filescope_variables", at)?;
    let mut filescope_vars = Vec::with_capacity(nf);
    for i in 0..nf {
        cur.enter("file_scope_var_info", Some(i));
        let linkage = cur.u8("linkage")?;
        let at = cur.pos();
        let len = cur.u16("name_len")? as usize;
        let name = cur
            .bytes(len, "name")
            .map_err(|_| cur.invalid("name_len", at, "name runs past the end"))?
            .to_vec();
        let bit_properties = cur.u8("bit_properties")?;
        let num_elements = cur.u16("num_elements")?;
        let at = cur.pos();
        let na = cur.u8("attribute_count")? as usize;
        // name id (2 or 4 bytes) and size byte: the smallest attribute.
        let min_attr = if version.wide_ids() { 5 } else { 3 };
        cur.check_count(na, min_attr, usize::MAX, "attribute_count", at)?;
        let mut attributes = Vec::with_capacity(na);
        for a in 0..na {
            cur.enter("attribute_info", Some(a));
            let name_index = cur.id(version, "name")?;
            let size = cur.u8("size")? as usize;
            attributes.push(RawAttribute {
                name_index,
                value: cur.bytes(size, "value")?.to_vec(),
            });
            cur.leave();
        }
        filescope_vars.push(FileScopeVar {
            linkage,
            name,
            bit_properties,
            num_elements,
            attributes,
        });
        cur.leave();
    }
    let at = cur.pos();
    let nfun = cur.u16("num_functions")? as usize;
    // linkage, 1-byte name length (before 3.7), offset, size, two empty relocation tables.
    cur.check_count(nfun, 14, usize::MAX, "num_functions", at)?;
    let mut function_heads = Vec::with_capacity(nfun);
    for i in 0..nfun {
        cur.enter("function_info", Some(i));
        let linkage = cur.u8("linkage")?;
        let name = read_name(&mut cur, version)?;
        let offset_at = cur.pos();
        let placement = Placement {
            offset: cur.u32("offset")?,
            size: cur.u32("size")?,
            input_offset: None,
        };
        check_placement(&cur, &placement, data.len())?;
        regions.push(Region::of(
            &placement,
            format!("function_info[{i}]"),
            offset_at,
        ));
        let relocations = read_relocations(&mut cur)?;
        function_heads.push((linkage, name, placement, relocations));
        cur.leave();
    }
    regions.push(Region {
        start: 0,
        end: cur.pos(),
        entry: "header".into(),
        field_at: 0,
    });
    cur.leave();
    check_disjoint(&mut regions)?;
    let streams = Streams {
        quick: Arc::new(QuickVersion::new(version)),
        shared,
    };

    let mut layout = FileLayout::default();
    let mut kernels = Vec::with_capacity(kernel_heads.len());
    for (i, (name, placement, relocations, gens)) in kernel_heads.into_iter().enumerate() {
        cur.enter("kernel", Some(i));
        let (body, mut rl) = read_routine(&mut cur, version, &placement, options, &streams)?;
        rl.gen_binaries = gens
            .iter()
            .map(|&(_, offset, size)| (offset as u32, size as u32))
            .collect();
        let gen_binaries = gens
            .into_iter()
            .map(|(platform, offset, size)| GenBinary {
                platform,
                code: data[offset..offset + size].to_vec(),
            })
            .collect();
        layout.kernels.push(rl);
        kernels.push(Kernel {
            name,
            relocations,
            gen_binaries,
            body,
        });
        cur.leave();
    }
    let mut functions = Vec::with_capacity(function_heads.len());
    for (i, (linkage, name, placement, relocations)) in function_heads.into_iter().enumerate() {
        cur.enter("function", Some(i));
        let (body, rl) = read_routine(&mut cur, version, &placement, options, &streams)?;
        layout.functions.push(rl);
        functions.push(Function {
            linkage,
            name,
            relocations,
            body,
        });
        cur.leave();
    }
    let object = Object {
        version,
        kernels,
        filescope_vars,
        functions,
    };
    Ok((object, layout))
}

/// A byte range of the file that one header entry claims.
struct Region {
    start: usize,
    end: usize,
    /// The header entry, e.g. "kernel_info[2].gen_binary_info[0]".
    entry: String,
    /// Absolute offset of the entry's offset field.
    field_at: usize,
}

impl Region {
    fn of(p: &Placement, entry: String, field_at: usize) -> Region {
        Region {
            start: p.offset as usize,
            end: p.offset as usize + p.size as usize,
            entry,
            field_at,
        }
    }
}

/// Rejects overlapping routine objects and Gen binaries (sorting: n log n). IGC
/// writes each once, one after another; a file whose entries share bytes would
/// otherwise be decoded or copied once per entry.
fn check_disjoint(regions: &mut [Region]) -> Result<(), ReadError> {
    regions.sort_by_key(|r| (r.start, r.end));
    let mut widest: Option<&Region> = None;
    for r in regions.iter().filter(|r| r.end > r.start) {
        if let Some(w) = widest {
            if r.start < w.end {
                // Blame an entry, never the header itself.
                let (blamed, other) = if r.entry == "header" { (w, r) } else { (r, w) };
                return Err(ReadError {
                    structure: format!("header.{}", blamed.entry),
                    field: "offset",
                    offset: blamed.field_at,
                    reason: ReadErrorKind::Invalid(format!(
                        "bytes [{:#x}, {:#x}) overlap {} [{:#x}, {:#x}); every routine object and Gen binary must have bytes of its own",
                        blamed.start, blamed.end, other.entry, other.start, other.end
                    )),
                });
            }
        }
        if widest.is_none_or(|w| r.end > w.end) {
            widest = Some(r);
        }
    }
    Ok(())
}

/// Rejects a routine the file cannot hold before any of it is read.
fn check_placement(cur: &Cursor, p: &Placement, file_len: usize) -> Result<(), ReadError> {
    let end = p.offset as u64 + p.size as u64;
    if end > file_len as u64 {
        let at = cur.pos() - 8 - if p.input_offset.is_some() { 4 } else { 0 };
        return Err(cur.invalid(
            "offset",
            at,
            format!(
                "object [{:#x}, +{:#x}) lies outside the file ({file_len:#x} bytes)",
                p.offset, p.size
            ),
        ));
    }
    Ok(())
}

fn read_name(cur: &mut Cursor, version: Version) -> Result<Vec<u8>, ReadError> {
    let len = if version.wide_name_len() {
        cur.u16("name_len")? as usize
    } else {
        cur.u8("name_len")? as usize
    };
    Ok(cur.bytes(len, "name")?.to_vec())
}

fn read_relocations(cur: &mut Cursor) -> Result<Relocations, ReadError> {
    let mut tables = [Vec::new(), Vec::new()];
    for (t, field) in tables
        .iter_mut()
        .zip(["num_syms_variable", "num_syms_function"])
    {
        let at = cur.pos();
        let n = cur.u16(field)? as usize;
        cur.check_count(n, 4, usize::MAX, field, at)?;
        t.reserve(n);
        for _ in 0..n {
            t.push(Relocation {
                symbolic_index: cur.u16("symbolic_index")?,
                resolved_index: cur.u16("resolved_index")?,
            });
        }
    }
    let [variables, functions] = tables;
    Ok(Relocations {
        variables,
        functions,
    })
}

/// What the routines' instruction lists are made with.
struct Streams<'a> {
    quick: Arc<QuickVersion>,
    shared: Option<&'a Arc<Vec<u8>>>,
}

fn read_routine(
    cur: &mut Cursor,
    version: Version,
    place: &Placement,
    options: ReadOptions,
    streams: &Streams,
) -> Result<(Routine, RoutineLayout), ReadError> {
    let start = place.offset as usize;
    cur.seek(start, "offset")?;
    let id_size = if version.wide_ids() { 4 } else { 2 };

    let at = cur.pos();
    let ns = cur.id(version, "string_count")? as usize;
    cur.check_count(ns, 1, limits::MAX_STRINGS, "string_count", at)?;
    let mut strings = StringPool::new();
    for i in 0..ns {
        cur.enter("string", Some(i));
        let s = cur.cstr(limits::MAX_STRING_LEN, "string")?;
        // The pool holds at most the input's bytes, far below its 4 GiB bound.
        let _ = strings.push(s);
        cur.leave();
    }
    let name_index = cur.id(version, "name_index")?;

    let at = cur.pos();
    let nv = cur.id(version, "variable_count")? as usize;
    cur.check_count(nv, 2 * id_size + 7, usize::MAX, "variable_count", at)?;
    let mut variables = Vec::with_capacity(nv);
    for i in 0..nv {
        cur.enter("var_info", Some(i));
        let name_index = cur.id(version, "name_index")?;
        let bit_properties = cur.u8("bit_properties")?;
        let num_elements = cur.u16("num_elements")?;
        let alias_index = cur.id(version, "alias_index")?;
        let alias_offset = cur.u16("alias_offset")?;
        let alias_scope = cur.u8("alias_scope_specifier")?;
        let attributes = read_attributes_u8(cur, version, &strings)?;
        variables.push(Variable {
            name_index,
            bit_properties,
            num_elements,
            alias_index,
            alias_offset,
            alias_scope,
            attributes,
            wide_type: None,
            aliases_null: false,
        });
        cur.leave();
    }

    let at = cur.pos();
    let na = cur.u16("address_count")? as usize;
    cur.check_count(na, id_size + 3, usize::MAX, "address_count", at)?;
    let mut addresses = Vec::with_capacity(na);
    for i in 0..na {
        cur.enter("address_info", Some(i));
        let name_index = cur.id(version, "name_index")?;
        let num_elements = cur.u16("num_elements")?;
        addresses.push(AddressVar {
            name_index,
            num_elements,
            attributes: read_attributes_u8(cur, version, &strings)?,
        });
        cur.leave();
    }

    let at = cur.pos();
    let np = cur.u16("predicate_count")? as usize;
    cur.check_count(np, id_size + 3, usize::MAX, "predicate_count", at)?;
    let mut predicates = Vec::with_capacity(np);
    for i in 0..np {
        cur.enter("predicate_info", Some(i));
        let name_index = cur.id(version, "name_index")?;
        let num_elements = cur.u16("num_elements")?;
        predicates.push(PredicateVar {
            name_index,
            num_elements,
            attributes: read_attributes_u8(cur, version, &strings)?,
        });
        cur.leave();
    }

    let at = cur.pos();
    let nl = cur.u16("label_count")? as usize;
    cur.check_count(nl, id_size + 2, usize::MAX, "label_count", at)?;
    let mut labels = Vec::with_capacity(nl);
    for i in 0..nl {
        cur.enter("label_info", Some(i));
        let name_index = cur.id(version, "name_index")?;
        let kind = cur.u8("kind")?;
        labels.push(Label {
            name_index,
            kind,
            attributes: read_attributes_u8(cur, version, &strings)?,
        });
        cur.leave();
    }

    let samplers = read_states(cur, version, &strings, "sampler_count", "sampler_info")?;
    let surfaces = read_states(cur, version, &strings, "surface_count", "surface_info")?;
    let vmes = read_states(cur, version, &strings, "vme_count", "vme_info")?;

    let mut inputs = None;
    if let Some(input_offset) = place.input_offset {
        let at = cur.pos();
        if input_offset as usize != at {
            return Err(cur.invalid(
                "input_offset",
                at,
                format!(
                    "kernel_info.input_offset is {input_offset:#x} but num_inputs is at {at:#x}"
                ),
            ));
        }
        let n = if version.wide_input_count() {
            cur.u32("num_inputs")? as usize
        } else {
            cur.u8("num_inputs")? as usize
        };
        cur.check_count(n, id_size + 5, usize::MAX, "num_inputs", at)?;
        let mut v = Vec::with_capacity(n);
        for i in 0..n {
            cur.enter("input_info", Some(i));
            v.push(Input {
                kind: cur.u8("kind")?,
                index: cur.id(version, "id")?,
                offset: cur.i16("offset")?,
                size: cur.u16("size")?,
            });
            cur.leave();
        }
        inputs = Some(v);
    }
    let size_at = cur.pos();
    let size = cur.u32("size")? as usize;
    let entry_at = cur.pos();
    let entry = cur.u32("entry")? as usize;
    let interface = match inputs {
        Some(inputs) => Interface::Kernel { inputs },
        None => Interface::Function {
            input_size: cur.u8("input_size")?,
            return_value_size: cur.u8("return_value_size")?,
        },
    };
    let at = cur.pos();
    let nattr = cur.u16("attribute_count")? as usize;
    cur.check_count(nattr, id_size + 1, usize::MAX, "attribute_count", at)?;
    let attributes = read_attributes(cur, version, &strings, nattr)?;

    let here = cur.pos() - start;
    if entry != here {
        return Err(cur.invalid(
            "entry",
            entry_at,
            format!("entry is {entry:#x} but the attribute table ends at {here:#x} (relative to the routine)"),
        ));
    }
    let object_size = entry.checked_add(size).filter(|&s| s == place.size as usize).ok_or_else(|| {
        cur.invalid(
            "size",
            size_at,
            format!("entry {entry:#x} + instruction bytes {size:#x} != object size {:#x} in the header", place.size),
        )
    })?;
    let stream = cur.bytes(size, "instructions").map_err(|_| {
        cur.error_at(
            "size",
            size_at,
            ReadErrorKind::Truncated {
                needed: size,
                available: cur.remaining(),
            },
        )
    })?;
    debug_assert_eq!(object_size, entry + size);
    let bounds = Bounds {
        vars: variables.len() as u32,
        addresses: addresses.len() as u32,
        predicates: predicates.len() as u32,
        labels: labels.len() as u32,
    };
    let base = start + entry;
    let code = match scan_stream(&streams.quick, stream, base, &bounds) {
        Ok(offsets) => {
            let (bytes, from) = match streams.shared {
                Some(shared) => (Arc::clone(shared), base),
                None => (Arc::new(stream.to_vec()), 0),
            };
            Code::Instructions(InstructionList::encoded(EncodedStream::new(
                bytes,
                from,
                from + size,
                offsets,
                Arc::clone(&streams.quick),
            )))
        }
        Err(e) if options.keep_undecodable_streams => Code::Undecoded {
            bytes: stream.to_vec(),
            error: *e,
        },
        Err(e) => {
            return Err(ReadError {
                structure: format!("{}.instructions", cur.structure()),
                field: "instruction",
                offset: e.offset,
                reason: ReadErrorKind::Invalid(e.to_string()),
            })
        }
    };
    let layout = RoutineLayout {
        offset: place.offset,
        size: place.size,
        input_offset: place.input_offset,
        entry: entry as u32,
        code_size: size as u32,
        gen_binaries: Vec::new(),
    };
    Ok((
        Routine {
            strings,
            name_index,
            variables,
            addresses,
            predicates,
            labels,
            samplers,
            surfaces,
            vmes,
            interface,
            attributes,
            code,
            build_info: None,
        },
        layout,
    ))
}

/// The absolute file offsets of the instructions `wanted` (indices, ascending) of the
/// routine placed at `routine` in `bytes`, found by walking its stream again: memory
/// in proportion to `wanted`, not to the stream. Indices past the end, or past where
/// the stream stops decoding, are left out.
pub fn instruction_offsets(
    bytes: &[u8],
    version: Version,
    routine: &RoutineLayout,
    wanted: &[usize],
) -> Vec<(usize, usize)> {
    let start = routine.offset as usize + routine.entry as usize;
    let Some(stream) = bytes.get(start..start.saturating_add(routine.code_size as usize)) else {
        return Vec::new();
    };
    let mut cur = Cursor::new(stream);
    let mut operands = Vec::new();
    let mut out = Vec::with_capacity(wanted.len());
    let mut wanted = wanted.iter().copied().peekable();
    let mut index = 0;
    while let Some(&next) = wanted.peek() {
        if next < index {
            wanted.next();
            continue;
        }
        if cur.remaining() == 0 {
            break;
        }
        if next == index {
            out.push((index, start + cur.pos()));
            wanted.next();
        }
        operands.clear();
        if instruction::decode_operands(&mut cur, version, &mut operands, 0).is_err() {
            break;
        }
        index += 1;
    }
    out
}

/// Finds where each instruction of a stream starts, validating each as the decoder
/// would (so a malformed stream is refused here, with the decoder's error); `base` is
/// the stream's absolute file offset.
pub(crate) fn scan_stream(
    quick: &QuickVersion,
    stream: &[u8],
    base: usize,
    bounds: &Bounds,
) -> Result<Vec<u32>, Box<StreamError>> {
    if quick.version().wide_ids() {
        scan_stream_as::<true>(quick, stream, base, bounds)
    } else {
        scan_stream_as::<false>(quick, stream, base, bounds)
    }
}

fn scan_stream_as<const WIDE: bool>(
    quick: &QuickVersion,
    stream: &[u8],
    base: usize,
    bounds: &Bounds,
) -> Result<Vec<u32>, Box<StreamError>> {
    let version = quick.version();
    let mut cur = Cursor::new(stream);
    // A hint from the stream's real length (instructions take 8 to 40 bytes).
    let mut offsets = Vec::with_capacity(stream.len() / 16);
    let mut scratch = Vec::new();
    // Operands the decoded form will hold before the next instruction's: a flat list
    // indexes them with 32 bits.
    let mut operands = 0usize;
    let mut pos = 0;
    while pos < stream.len() {
        let (at, index) = (pos, offsets.len());
        let fields = match instruction::skip_quick::<WIDE>(stream, &mut pos, quick, &mut scratch) {
            Some(fields) => {
                #[cfg(debug_assertions)]
                skip_agrees(quick, stream, at, pos, fields);
                fields
            }
            // Not accepted the quick way: again through the cursor, for the exact error.
            None => {
                scratch.clear();
                let decoded = cur.seek(at, "instruction").and_then(|()| {
                    cur.enter("instruction", Some(index));
                    let decoded = instruction::decode_operands(&mut cur, version, &mut scratch, 0);
                    cur.leave();
                    decoded
                });
                match decoded {
                    Ok(_) => {
                        pos = cur.pos();
                        scratch.len()
                    }
                    Err(mut e) => {
                        e.offset += base;
                        return Err(Box::new(defects::diagnose(
                            version,
                            stream,
                            index,
                            at + base,
                            e,
                            bounds,
                        )));
                    }
                }
            }
        };
        if u32::try_from(operands).is_err() {
            let mut cause = cur.invalid("instruction", at, ListFull.to_string());
            cause.offset += base;
            return Err(Box::new(StreamError {
                index,
                offset: at + base,
                cause,
                defect: None,
            }));
        }
        operands += fields;
        // Below 2^32: the stream's length is a 32-bit field.
        offsets.push(at as u32);
    }
    Ok(offsets)
}

/// Debug builds (every test run) check each instruction the scan accepted against
/// both decoders: the cursor's and the quick one (what decoding on access runs) must
/// decode it to the same operands, as many as the scan counted, ending where it ended.
#[cfg(debug_assertions)]
fn skip_agrees(quick: &QuickVersion, stream: &[u8], at: usize, end: usize, fields: usize) {
    let mut cur = Cursor::new(stream);
    let mut slow = Vec::new();
    let slow_head = cur
        .seek(at, "instruction")
        .and_then(|()| instruction::decode_operands(&mut cur, quick.version(), &mut slow, 0));
    let mut fast = Vec::new();
    let mut pos = at;
    let fast_head = if quick.version().wide_ids() {
        instruction::decode_quick::<true>(stream, &mut pos, quick, &mut fast)
    } else {
        instruction::decode_quick::<false>(stream, &mut pos, quick, &mut fast)
    };
    let agrees = match (slow_head, fast_head) {
        (Ok(s), Some(f)) => {
            s == f && slow == fast && cur.pos() == end && pos == end && slow.len() == fields
        }
        _ => false,
    };
    assert!(
        agrees,
        "the stream scan and the decoders disagree at stream offset {at:#x}"
    );
}

fn read_states(
    cur: &mut Cursor,
    version: Version,
    strings: &StringPool,
    count_field: &'static str,
    what: &'static str,
) -> Result<Vec<StateVar>, ReadError> {
    let at = cur.pos();
    let n = cur.u8(count_field)? as usize;
    // name id (2 or 4 bytes), element count, attribute count.
    let min_state = if version.wide_ids() { 7 } else { 5 };
    cur.check_count(n, min_state, usize::MAX, count_field, at)?;
    let mut v = Vec::with_capacity(n);
    for i in 0..n {
        cur.enter(what, Some(i));
        let name_index = cur.id(version, "name_index")?;
        let num_elements = cur.u16("num_elements")?;
        v.push(StateVar {
            name_index,
            num_elements,
            attributes: read_attributes_u8(cur, version, strings)?,
        });
        cur.leave();
    }
    Ok(v)
}

fn read_attributes_u8(
    cur: &mut Cursor,
    version: Version,
    strings: &StringPool,
) -> Result<Vec<Attribute>, ReadError> {
    let at = cur.pos();
    let n = cur.u8("attribute_count")? as usize;
    cur.check_count(n, 3, usize::MAX, "attribute_count", at)?;
    read_attributes(cur, version, strings, n)
}

fn read_attributes(
    cur: &mut Cursor,
    version: Version,
    strings: &StringPool,
    n: usize,
) -> Result<Vec<Attribute>, ReadError> {
    let mut v = Vec::with_capacity(n);
    for i in 0..n {
        cur.enter("attribute_info", Some(i));
        let name_index = cur.id(version, "name")?;
        let size = cur.u8("size")? as usize;
        let bytes = cur.bytes(size, "value")?;
        let kind = strings.get(name_index as usize).and_then(attribute_kind);
        v.push(Attribute {
            name_index,
            value: decode_attribute_value(kind, bytes),
        });
        cur.leave();
    }
    Ok(v)
}

/// Integer values narrower than 4 bytes are sign-extended, as IGC's reader does.
fn decode_attribute_value(kind: Option<AttributeKind>, bytes: &[u8]) -> AttributeValue {
    match kind {
        Some(AttributeKind::Bool | AttributeKind::Int32) => match bytes.len() {
            0 => AttributeValue::Int { value: 1, width: 0 },
            1 => AttributeValue::Int {
                value: bytes[0] as i8 as i32,
                width: 1,
            },
            2 => AttributeValue::Int {
                value: i16::from_le_bytes([bytes[0], bytes[1]]) as i32,
                width: 2,
            },
            4 => AttributeValue::Int {
                value: i32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
                width: 4,
            },
            _ => AttributeValue::Raw(bytes.to_vec()),
        },
        Some(AttributeKind::CStr) => AttributeValue::Str(bytes.to_vec()),
        None => AttributeValue::Raw(bytes.to_vec()),
    }
}
