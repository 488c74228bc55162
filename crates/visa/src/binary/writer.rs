//! Writes an [`Object`] as a `.isa` file: the exact inverse of `reader.rs`.
//!
//! Layout on disk, as IGC writes it: header | for each kernel: kernel object, then its
//! Gen binaries | for each function: function object.

use super::cursor::Sink;
use super::instruction;
use super::reader::MAGIC;
use crate::error::WriteError;
use crate::limits;
use crate::model::*;
use crate::version::Version;

pub fn write(obj: &Object) -> Result<Vec<u8>, WriteError> {
    let v = obj.version;
    let err = |context: &str, reason: String| WriteError {
        context: context.to_owned(),
        reason,
    };
    if !v.has_binary_form() {
        return Err(err(
            "header",
            format!(
                "vISA {v} has no binary form (3.0 to {})",
                Version::LATEST_BINARY
            ),
        ));
    }
    // What the reader refuses (the spec's limits, `limits.rs`) is not written either.
    if obj.kernels.len() > limits::MAX_KERNELS {
        return Err(err(
            "header.num_kernels",
            format!(
                "{} kernels; the format allows at most {}",
                obj.kernels.len(),
                limits::MAX_KERNELS
            ),
        ));
    }
    // Routine objects first (the header needs their sizes), each kernel's followed by
    // its Gen binaries as in the file; written once, into the buffer that becomes the
    // file (the header goes in front at the end).
    let mut body = Sink::default();
    let mut kernel_objs = Vec::with_capacity(obj.kernels.len());
    for (i, k) in obj.kernels.iter().enumerate() {
        let ctx = format!("kernel[{i}]");
        let start = body.pos();
        let input_rel = write_routine(&mut body, &k.body, v, &ctx)?;
        let end = body.pos();
        let mut gens = Vec::with_capacity(k.gen_binaries.len());
        for g in &k.gen_binaries {
            gens.push(body.pos());
            body.bytes(&g.code);
        }
        kernel_objs.push((start, end, input_rel, gens));
    }
    let mut function_objs = Vec::with_capacity(obj.functions.len());
    for (i, f) in obj.functions.iter().enumerate() {
        let ctx = format!("function[{i}]");
        let start = body.pos();
        write_routine(&mut body, &f.body, v, &ctx)?;
        function_objs.push((start, body.pos()));
    }

    let mut h = Sink::default();
    h.u32(MAGIC);
    h.u8(v.major);
    h.u8(v.minor);
    h.u16(count16(obj.kernels.len(), "num_kernels")?);
    // Offsets are patched once the header's length is known.
    let mut kernel_patches = Vec::with_capacity(obj.kernels.len());
    for (i, k) in obj.kernels.iter().enumerate() {
        write_name(&mut h, v, &k.name, &format!("kernel_info[{i}]"))?;
        let at = h.pos();
        h.u32(0); // offset
        h.u32(0); // size
        h.u32(0); // input_offset
        write_relocations(&mut h, &k.relocations, &format!("kernel_info[{i}]"))?;
        let ng = u8::try_from(k.gen_binaries.len())
            .ok()
            .filter(|&n| usize::from(n) <= limits::MAX_GEN_BINARIES)
            .ok_or_else(|| {
                err(
                    &format!("kernel_info[{i}].num_gen_binaries"),
                    format!(
                        "{} Gen binaries; the format allows at most {}",
                        k.gen_binaries.len(),
                        limits::MAX_GEN_BINARIES
                    ),
                )
            })?;
        h.u8(ng);
        let mut gen_at = Vec::with_capacity(k.gen_binaries.len());
        for g in &k.gen_binaries {
            h.u8(g.platform);
            gen_at.push(h.pos());
            h.u32(0);
            h.u32(0);
        }
        kernel_patches.push((at, gen_at));
    }
    h.u16(count16(
        obj.filescope_vars.len(),
        "num_filescope_variables",
    )?);
    for (i, fv) in obj.filescope_vars.iter().enumerate() {
        let ctx = format!("file_scope_var_info[{i}]");
        h.u8(fv.linkage);
        h.u16(count16(fv.name.len(), &ctx)?);
        h.bytes(&fv.name);
        h.u8(fv.bit_properties);
        h.u16(fv.num_elements);
        h.u8(count8(fv.attributes.len(), &ctx)?);
        for a in &fv.attributes {
            put_id(&mut h, v, a.name_index, &ctx)?;
            h.u8(count8(a.value.len(), &ctx)?);
            h.bytes(&a.value);
        }
    }
    h.u16(count16(obj.functions.len(), "num_functions")?);
    let mut function_patches = Vec::with_capacity(obj.functions.len());
    for (i, f) in obj.functions.iter().enumerate() {
        h.u8(f.linkage);
        write_name(&mut h, v, &f.name, &format!("function_info[{i}]"))?;
        function_patches.push(h.pos());
        h.u32(0);
        h.u32(0);
        write_relocations(&mut h, &f.relocations, &format!("function_info[{i}]"))?;
    }

    // Patch the header with where the objects land after it, then put it in front.
    let header_len = h.pos();
    for ((k, (start, end, input_rel, gens)), (at, gen_at)) in
        obj.kernels.iter().zip(&kernel_objs).zip(&kernel_patches)
    {
        let offset = header_len + start;
        h.patch_u32(*at, offset32(offset)?);
        h.patch_u32(at + 4, offset32(end - start)?);
        h.patch_u32(at + 8, offset32(offset + input_rel.unwrap_or(0))?);
        for ((g, gat), gstart) in k.gen_binaries.iter().zip(gen_at).zip(gens) {
            h.patch_u32(*gat, offset32(header_len + gstart)?);
            h.patch_u32(gat + 4, offset32(g.code.len())?);
        }
    }
    for ((start, end), at) in function_objs.iter().zip(&function_patches) {
        h.patch_u32(*at, offset32(header_len + start)?);
        h.patch_u32(at + 4, offset32(end - start)?);
    }
    let mut out = body.buf;
    out.splice(0..0, h.buf);
    Ok(out)
}

fn offset32(n: usize) -> Result<u32, WriteError> {
    u32::try_from(n).map_err(|_| WriteError {
        context: "file".into(),
        reason: "object larger than 4 GiB".into(),
    })
}
fn count16(n: usize, ctx: &str) -> Result<u16, WriteError> {
    u16::try_from(n).map_err(|_| WriteError {
        context: ctx.into(),
        reason: format!("count {n} exceeds 65535"),
    })
}
fn count8(n: usize, ctx: &str) -> Result<u8, WriteError> {
    u8::try_from(n).map_err(|_| WriteError {
        context: ctx.into(),
        reason: format!("count {n} exceeds 255"),
    })
}
fn put_id(s: &mut Sink, v: Version, id: u32, ctx: &str) -> Result<(), WriteError> {
    if v.wide_ids() {
        s.u32(id);
    } else {
        s.u16(u16::try_from(id).map_err(|_| WriteError {
            context: ctx.into(),
            reason: format!("id {id} does not fit the 2-byte ids of vISA {v}"),
        })?);
    }
    Ok(())
}

fn write_name(s: &mut Sink, v: Version, name: &[u8], ctx: &str) -> Result<(), WriteError> {
    if v.wide_name_len() {
        s.u16(count16(name.len(), ctx)?);
    } else {
        s.u8(count8(name.len(), ctx)?);
    }
    s.bytes(name);
    Ok(())
}

fn write_relocations(s: &mut Sink, r: &Relocations, ctx: &str) -> Result<(), WriteError> {
    for table in [&r.variables, &r.functions] {
        s.u16(count16(table.len(), ctx)?);
        for e in table {
            s.u16(e.symbolic_index);
            s.u16(e.resolved_index);
        }
    }
    Ok(())
}

/// Appends the routine object to `s`; returns, for a kernel, the offset of
/// `num_inputs` in it. Offsets inside the object count from its start.
fn write_routine(
    s: &mut Sink,
    r: &Routine,
    v: Version,
    ctx: &str,
) -> Result<Option<usize>, WriteError> {
    let base = s.pos();
    let count_id = |s: &mut Sink, n: usize, what: &str| -> Result<(), WriteError> {
        let n = u32::try_from(n).map_err(|_| WriteError {
            context: format!("{ctx}.{what}"),
            reason: "too many".into(),
        })?;
        put_id(s, v, n, &format!("{ctx}.{what}"))
    };
    if r.strings.len() > limits::MAX_STRINGS {
        return Err(WriteError {
            context: format!("{ctx}.string_count"),
            reason: format!(
                "{} strings; the format allows at most {}",
                r.strings.len(),
                limits::MAX_STRINGS
            ),
        });
    }
    count_id(s, r.strings.len(), "string_count")?;
    for (i, st) in r.strings.iter().enumerate() {
        if st.len() > limits::MAX_STRING_LEN {
            return Err(WriteError {
                context: format!("{ctx}.string[{i}]"),
                reason: format!(
                    "{} bytes; strings longer than {} are not read back",
                    st.len(),
                    limits::MAX_STRING_LEN
                ),
            });
        }
        if st.contains(&0) {
            return Err(WriteError {
                context: format!("{ctx}.string[{i}]"),
                reason: "string contains a NUL byte".into(),
            });
        }
        s.bytes(st);
        s.u8(0);
    }
    put_id(s, v, r.name_index, ctx)?;
    count_id(s, r.variables.len(), "variable_count")?;
    for (i, var) in r.variables.iter().enumerate() {
        let c = format!("{ctx}.var_info[{i}]");
        if let Some(t) = var.wide_type {
            return Err(WriteError {
                context: c,
                reason: format!(
                    "type {} exists only in vISA 4.2 text",
                    t.name().unwrap_or("?")
                ),
            });
        }
        put_id(s, v, var.name_index, &c)?;
        s.u8(var.bit_properties);
        s.u16(var.num_elements);
        put_id(s, v, var.alias_index, &c)?;
        s.u16(var.alias_offset);
        s.u8(var.alias_scope);
        write_attributes_u8(s, v, &var.attributes, &c)?;
    }
    s.u16(count16(r.addresses.len(), ctx)?);
    for (i, a) in r.addresses.iter().enumerate() {
        let c = format!("{ctx}.address_info[{i}]");
        put_id(s, v, a.name_index, &c)?;
        s.u16(a.num_elements);
        write_attributes_u8(s, v, &a.attributes, &c)?;
    }
    s.u16(count16(r.predicates.len(), ctx)?);
    for (i, p) in r.predicates.iter().enumerate() {
        let c = format!("{ctx}.predicate_info[{i}]");
        put_id(s, v, p.name_index, &c)?;
        s.u16(p.num_elements);
        write_attributes_u8(s, v, &p.attributes, &c)?;
    }
    s.u16(count16(r.labels.len(), ctx)?);
    for (i, l) in r.labels.iter().enumerate() {
        let c = format!("{ctx}.label_info[{i}]");
        put_id(s, v, l.name_index, &c)?;
        s.u8(l.kind);
        write_attributes_u8(s, v, &l.attributes, &c)?;
    }
    for (table, what) in [
        (&r.samplers, "sampler_info"),
        (&r.surfaces, "surface_info"),
        (&r.vmes, "vme_info"),
    ] {
        s.u8(count8(table.len(), &format!("{ctx}.{what}"))?);
        for (i, st) in table.iter().enumerate() {
            let c = format!("{ctx}.{what}[{i}]");
            put_id(s, v, st.name_index, &c)?;
            s.u16(st.num_elements);
            write_attributes_u8(s, v, &st.attributes, &c)?;
        }
    }
    let mut input_at = None;
    if let Interface::Kernel { inputs } = &r.interface {
        input_at = Some(s.pos() - base);
        if v.wide_input_count() {
            s.u32(inputs.len() as u32);
        } else {
            s.u8(count8(inputs.len(), &format!("{ctx}.num_inputs"))?);
        }
        for (i, inp) in inputs.iter().enumerate() {
            s.u8(inp.kind);
            put_id(s, v, inp.index, &format!("{ctx}.input_info[{i}]"))?;
            s.i16(inp.offset);
            s.u16(inp.size);
        }
    }
    let size_at = s.pos();
    s.u32(0); // size
    s.u32(0); // entry
    if let Interface::Function {
        input_size,
        return_value_size,
    } = r.interface
    {
        s.u8(input_size);
        s.u8(return_value_size);
    }
    s.u16(count16(
        r.attributes.len(),
        &format!("{ctx}.attribute_count"),
    )?);
    write_attributes(s, v, &r.attributes, ctx)?;
    let entry = s.pos();
    match &r.code {
        Code::Instructions(list) => match list.encoded_stream() {
            // Read from a file of this version and unchanged: the bytes read, which
            // the reader validated (and which encode to themselves: checked below in
            // debug builds).
            Some(stream) if stream.version() == v => {
                s.bytes(stream.bytes());
                #[cfg(debug_assertions)]
                {
                    let mut again = Sink::default();
                    let mut walk = list.walk();
                    while let Some((i, inst)) = walk.next_instruction() {
                        instruction::encode(&mut again, v, inst, &|| {
                            format!("{ctx}.instruction[{i}]")
                        })?;
                    }
                    assert!(
                        again.buf == stream.bytes(),
                        "{ctx}: a read stream does not encode to itself"
                    );
                }
            }
            _ => {
                let mut walk = list.walk();
                while let Some((i, inst)) = walk.next_instruction() {
                    instruction::encode(s, v, inst, &|| format!("{ctx}.instruction[{i}]"))?;
                }
            }
        },
        Code::Undecoded { bytes, .. } => s.bytes(bytes),
    }
    let size = s.pos() - entry;
    s.patch_u32(size_at, offset32(size)?);
    s.patch_u32(size_at + 4, offset32(entry - base)?);
    Ok(input_at)
}

fn write_attributes_u8(
    s: &mut Sink,
    v: Version,
    attrs: &[Attribute],
    ctx: &str,
) -> Result<(), WriteError> {
    s.u8(count8(attrs.len(), ctx)?);
    write_attributes(s, v, attrs, ctx)
}

fn write_attributes(
    s: &mut Sink,
    v: Version,
    attrs: &[Attribute],
    ctx: &str,
) -> Result<(), WriteError> {
    for (i, a) in attrs.iter().enumerate() {
        let c = format!("{ctx}.attribute_info[{i}]");
        put_id(s, v, a.name_index, &c)?;
        if let AttributeValue::Int { width, .. } = a.value {
            if !matches!(width, 0 | 1 | 2 | 4) {
                return Err(WriteError {
                    context: c,
                    reason: format!("integer width {width} is not 0, 1, 2 or 4"),
                });
            }
        }
        let bytes = a.value.encoded();
        s.u8(count8(bytes.len(), &c)?);
        s.bytes(&bytes);
    }
    Ok(())
}
