//! The binary kernel metadata of a CL2 binary
//! (`__OpenCL_&__OpenCL_<k>_kernel_metadata`): a header whose size depends
//! on the driver, two fixed strings, from Crimson 16.x a vec_type_hint
//! string, one entry per argument, a zero entry, then each argument's name
//! and type name (NUL-terminated).
//!
//! Every word in the header and entries is as wide as the outer ELF's class
//! (a few fields are fixed 32-bit or 16-bit), so each layout is a table of
//! byte offsets below rather than code per class.

use serde::Serialize;

/// Where a header field sits and how wide it is, for one ELF class.
#[derive(Debug, Clone, Copy)]
struct Field {
    offset: usize,
    width: usize,
}

const fn f(offset: usize, width: usize) -> Field {
    Field { offset, width }
}

/// Byte offsets of the header and argument-entry fields for one class.
struct Layout {
    size: Field,
    metadata_size: Field,
    unknown1: Field, // three u32 from here
    options: Field,
    kernel_id: Field,
    reqd_work_group_size: Field, // three words from here
    first_name_length: Field,
    second_name_length: Field,
    pipes_usage: Field,
    args_num: Field,
    /// Smallest header the fields above fit in.
    min_header: usize,
    /// Header size of Crimson 16.3+ binaries, which end with the
    /// work_group_size_hint and the vec_type_hint length.
    new_header: usize,
    work_group_size_hint: Field, // three words
    vec_type_hint_length: Field,
    entry: EntryLayout,
}

struct EntryLayout {
    size: usize,
    entry_size: Field,
    name_size: Field,
    type_name_size: Field,
    vec_len: Field,
    unknown3: Field,
    arg_offset: Field,
    arg_type: Field,
    ptr_alignment: Field,
    ptr_type: Field,
    ptr_space: Field,
    is_pointer_or_pipe: Field,
    volatile: Field,
    restrict: Field,
    pipe: Field,
    kind_of_type: Field,
    is_const: Field,
}

const LAYOUT64: Layout = Layout {
    size: f(0, 8),
    metadata_size: f(8, 8),
    unknown1: f(16, 4),
    options: f(28, 4),
    kernel_id: f(32, 2),
    reqd_work_group_size: f(56, 8),
    first_name_length: f(96, 8),
    second_name_length: f(104, 8),
    pipes_usage: f(136, 8),
    args_num: f(160, 8),
    min_header: 168,
    new_header: 0x110,
    work_group_size_hint: f(0x110 - 40, 8),
    vec_type_hint_length: f(0x110 - 16, 8),
    entry: EntryLayout {
        size: 0x58,
        entry_size: f(0, 8),
        name_size: f(8, 8),
        type_name_size: f(16, 8),
        vec_len: f(40, 4),
        unknown3: f(44, 4),
        arg_offset: f(48, 4),
        arg_type: f(52, 4),
        ptr_alignment: f(56, 4),
        ptr_type: f(60, 4),
        ptr_space: f(64, 4),
        is_pointer_or_pipe: f(68, 4),
        volatile: f(72, 1),
        restrict: f(73, 1),
        pipe: f(74, 1),
        kind_of_type: f(76, 4),
        is_const: f(80, 8),
    },
};

const LAYOUT32: Layout = Layout {
    size: f(0, 4),
    metadata_size: f(4, 4),
    unknown1: f(8, 4),
    options: f(20, 4),
    kernel_id: f(24, 2),
    reqd_work_group_size: f(48, 4),
    first_name_length: f(72, 4),
    second_name_length: f(76, 4),
    pipes_usage: f(92, 4),
    args_num: f(104, 8),
    min_header: 112,
    new_header: 0xa4,
    work_group_size_hint: f(0xa4 - 20, 4),
    vec_type_hint_length: f(0xa4 - 8, 4),
    entry: EntryLayout {
        size: 0x40,
        entry_size: f(0, 4),
        name_size: f(4, 4),
        type_name_size: f(8, 4),
        vec_len: f(20, 4),
        unknown3: f(24, 4),
        arg_offset: f(28, 4),
        arg_type: f(32, 4),
        ptr_alignment: f(36, 4),
        ptr_type: f(40, 4),
        ptr_space: f(44, 4),
        is_pointer_or_pipe: f(48, 4),
        volatile: f(52, 1),
        restrict: f(53, 1),
        pipe: f(54, 1),
        kind_of_type: f(56, 4),
        is_const: f(60, 4),
    },
};

/// Header sizes drivers write: 15.7 / 15.11+ / 16.3+ (32-bit, 64-bit).
pub const HEADER_SIZES_32: [u64; 3] = [0x88, 0x90, 0xa4];
pub const HEADER_SIZES_64: [u64; 3] = [0xd8, 0xe0, 0x110];

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("kernel metadata: {structure}: {field} at byte {offset:#x}: {message}")]
pub struct MetadataError {
    pub structure: String,
    pub field: &'static str,
    pub offset: usize,
    pub message: String,
}

/// One argument entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArgEntry {
    pub name: String,
    pub type_name: String,
    pub entry_size: u64,
    /// Vector length for values, resource id for images and samplers,
    /// byte size for structs.
    pub vec_len_or_res_id_or_struct_size: u32,
    pub unknown3: u32,
    /// A virtual offset in 16-byte slots, not the kernarg offset.
    pub arg_offset: u32,
    pub arg_type: u32,
    pub ptr_alignment: u32,
    pub ptr_type: u32,
    pub ptr_space: u32,
    pub is_pointer_or_pipe: u32,
    pub volatile: u8,
    pub restrict: u8,
    pub pipe: u8,
    pub kind_of_type: u32,
    pub is_const: u64,
}

/// `kindOfType` values.
pub mod kind {
    pub const SAMPLER: u32 = 1;
    pub const IMAGE: u32 = 2;
    pub const VALUE: u32 = 4;
    pub const POINTER_OR_PIPE: u32 = 5;
    pub const QUEUE: u32 = 7;
}

/// `ptrSpace` values.
pub mod space {
    pub const LOCAL: u32 = 3;
    pub const GLOBAL: u32 = 4;
    pub const CONSTANT: u32 = 5;
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KernelMetadata {
    pub header_size: u64,
    pub metadata_size: u64,
    pub unknown1: [u32; 3],
    pub options: u32,
    pub kernel_id: u16,
    pub reqd_work_group_size: [u64; 3],
    pub first_name_length: u64,
    pub second_name_length: u64,
    pub pipes_usage: u64,
    pub args_num: u64,
    /// Present in 16.3+ headers.
    pub work_group_size_hint: Option<[u64; 3]>,
    pub vec_type_hint_length: Option<u64>,
    /// "__OpenCL_dummy_kernel".
    pub name1: String,
    /// "generic", or the GFX name on newer drivers.
    pub name2: String,
    /// Present from Crimson 16.x (possibly empty).
    pub vec_type_hint: Option<String>,
    pub args: Vec<ArgEntry>,
}

impl KernelMetadata {
    /// Whether the header is the 16.x layout (it carries a vec_type_hint string).
    pub fn is_crimson16(&self) -> bool {
        self.vec_type_hint.is_some()
    }
}

struct Reader<'a> {
    data: &'a [u8],
}

impl Reader<'_> {
    fn word(
        &self,
        base: usize,
        fld: Field,
        structure: &str,
        name: &'static str,
    ) -> Result<u64, MetadataError> {
        let at = base.saturating_add(fld.offset);
        let bytes = self
            .data
            .get(at..at.saturating_add(fld.width))
            .ok_or_else(|| MetadataError {
                structure: structure.to_owned(),
                field: name,
                offset: at,
                message: format!(
                    "needs {} bytes but the metadata has {} bytes",
                    fld.width,
                    self.data.len()
                ),
            })?;
        let mut v = [0u8; 8];
        v[..bytes.len()].copy_from_slice(bytes);
        Ok(u64::from_le_bytes(v))
    }

    fn string(
        &self,
        at: usize,
        len: u64,
        structure: &str,
        name: &'static str,
    ) -> Result<String, MetadataError> {
        let err = |message: String| MetadataError {
            structure: structure.to_owned(),
            field: name,
            offset: at,
            message,
        };
        let len = usize::try_from(len).map_err(|_| err(format!("length {len} is too large")))?;
        let end = at
            .checked_add(len)
            .filter(|&e| e < self.data.len())
            .ok_or_else(|| {
                err(format!(
                    "{len} bytes and a NUL do not fit in the {} metadata bytes",
                    self.data.len()
                ))
            })?;
        if self.data[end] != 0 {
            return Err(MetadataError {
                structure: structure.to_owned(),
                field: name,
                offset: end,
                message: format!(
                    "expected the NUL ending a {len}-byte string, found {:#04x}",
                    self.data[end]
                ),
            });
        }
        Ok(String::from_utf8_lossy(&self.data[at..end]).into_owned())
    }
}

/// Decodes one kernel's metadata; `bits64` is the outer ELF's class.
pub fn parse_metadata(data: &[u8], bits64: bool) -> Result<KernelMetadata, MetadataError> {
    let l = if bits64 { &LAYOUT64 } else { &LAYOUT32 };
    let r = Reader { data };
    let h = "header";
    let header_size = r.word(0, l.size, h, "size")?;
    if header_size < l.min_header as u64 || header_size >= data.len() as u64 {
        return Err(MetadataError {
            structure: h.into(),
            field: "size",
            offset: l.size.offset,
            message: format!(
                "header size {header_size:#x} must be at least {:#x} and less than the metadata size {:#x}",
                l.min_header,
                data.len()
            ),
        });
    }
    let header_len = header_size as usize;
    let w = |fld: Field, name| r.word(0, fld, h, name);
    let three = |fld: Field, name| -> Result<[u64; 3], MetadataError> {
        let mut out = [0u64; 3];
        for (i, o) in out.iter_mut().enumerate() {
            *o = w(f(fld.offset + i * fld.width, fld.width), name)?;
        }
        Ok(out)
    };
    let u1 = three(l.unknown1, "unknown1")?;
    let (work_group_size_hint, vec_type_hint_length) = if header_len >= l.new_header {
        (
            Some(three(l.work_group_size_hint, "workGroupSizeHint")?),
            Some(w(l.vec_type_hint_length, "vecTypeHintLength")?),
        )
    } else {
        (None, None)
    };
    let first_name_length = w(l.first_name_length, "firstNameLength")?;
    let second_name_length = w(l.second_name_length, "secondNameLength")?;
    let args_num = w(l.args_num, "argsNum")?;
    let name1 = r.string(header_len, first_name_length, "strings", "name1")?;
    let mut pos = header_len + name1.len() + 1;
    let name2 = r.string(pos, second_name_length, "strings", "name2")?;
    pos += name2.len() + 1;
    // 16.x drivers add a vec_type_hint string. Its length is in the 16.3+
    // header; 16.x binaries with a 15.11-size header still have the (empty)
    // string, seen as a NUL before the first entry's size byte.
    let e = &l.entry;
    let looks_like_entry =
        |at: usize| r.word(at, e.entry_size, "entries", "size").ok() == Some(e.size as u64);
    let vec_type_hint = match vec_type_hint_length {
        Some(len) => {
            let s = r.string(pos, len, "strings", "vecTypeHint")?;
            pos += s.len() + 1;
            Some(s)
        }
        None if args_num > 0 && !looks_like_entry(pos) && looks_like_entry(pos + 1) => {
            let s = r.string(pos, 0, "strings", "vecTypeHint")?;
            pos += 1;
            Some(s)
        }
        None => None,
    };
    // The entries plus a terminating zero entry must fit before any string.
    let entries_end = args_num
        .checked_add(1)
        .and_then(|n| n.checked_mul(e.size as u64))
        .and_then(|n| n.checked_add(pos as u64))
        .filter(|&end| end <= data.len() as u64)
        .ok_or_else(|| MetadataError {
            structure: h.into(),
            field: "argsNum",
            offset: l.args_num.offset,
            message: format!(
                "{args_num} argument entries of {:#x} bytes (plus a zero entry) from byte {pos:#x} do not fit in {:#x} bytes",
                e.size,
                data.len()
            ),
        })? as usize;
    let mut strings = entries_end;
    let mut args = Vec::with_capacity(args_num as usize);
    for i in 0..args_num as usize {
        let base = pos + i * e.size;
        let structure = format!("argument entry {i}");
        let g = |fld: Field, name| r.word(base, fld, &structure, name);
        let entry_size = g(e.entry_size, "size")?;
        if entry_size != e.size as u64 {
            return Err(MetadataError {
                structure,
                field: "size",
                offset: base,
                message: format!("entry size is {entry_size:#x}, expected {:#x}", e.size),
            });
        }
        let name_size = g(e.name_size, "argNameSize")?;
        let type_name_size = g(e.type_name_size, "typeNameSize")?;
        let name = r.string(strings, name_size, &structure, "name")?;
        strings += name.len() + 1;
        let type_name = r.string(strings, type_name_size, &structure, "type name")?;
        strings += type_name.len() + 1;
        let u32f = |fld: Field, name| g(fld, name).map(|v| v as u32);
        args.push(ArgEntry {
            name,
            type_name,
            entry_size,
            vec_len_or_res_id_or_struct_size: u32f(e.vec_len, "vecLen")?,
            unknown3: u32f(e.unknown3, "unknown3")?,
            arg_offset: u32f(e.arg_offset, "argOffset")?,
            arg_type: u32f(e.arg_type, "argType")?,
            ptr_alignment: u32f(e.ptr_alignment, "ptrAlignment")?,
            ptr_type: u32f(e.ptr_type, "ptrType")?,
            ptr_space: u32f(e.ptr_space, "ptrSpace")?,
            is_pointer_or_pipe: u32f(e.is_pointer_or_pipe, "isPointerOrPipe")?,
            volatile: g(e.volatile, "isVolatile")? as u8,
            restrict: g(e.restrict, "isRestrict")? as u8,
            pipe: g(e.pipe, "isPipe")? as u8,
            kind_of_type: u32f(e.kind_of_type, "kindOfType")?,
            is_const: g(e.is_const, "isConst")?,
        });
    }
    Ok(KernelMetadata {
        header_size,
        metadata_size: w(l.metadata_size, "metadataSize")?,
        unknown1: u1.map(|v| v as u32),
        options: w(l.options, "options")? as u32,
        kernel_id: w(l.kernel_id, "kernelId")? as u16,
        reqd_work_group_size: three(l.reqd_work_group_size, "reqdWorkGroupSize")?,
        first_name_length,
        second_name_length,
        pipes_usage: w(l.pipes_usage, "pipesUsage")?,
        args_num,
        work_group_size_hint,
        vec_type_hint_length,
        name1,
        name2,
        vec_type_hint,
        args,
    })
}

impl KernelMetadata {
    /// A text dump, one header group per line then one line per argument,
    /// with the field names of CLRX's `AmdCL2Binaries.h` (the corpus's
    /// `.meta/<kernel>.txt` use the same names, plus annotations).
    pub fn dump(&self) -> String {
        use std::fmt::Write as _;
        let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
        let mut s = String::new();
        let _ = writeln!(
            s,
            "header.size={} metadataSize={}",
            self.header_size, self.metadata_size
        );
        let _ = writeln!(
            s,
            "unknown1=[{}] options={:#x} kernelId={} reqdWorkGroupSize=[{}] firstNameLength={} secondNameLength={} pipesUsage={} argsNum={}",
            list(&self.unknown1.map(u64::from)),
            self.options,
            self.kernel_id,
            list(&self.reqd_work_group_size),
            self.first_name_length,
            self.second_name_length,
            self.pipes_usage,
            self.args_num
        );
        if let (Some(h), Some(l)) = (self.work_group_size_hint, self.vec_type_hint_length) {
            let _ = writeln!(s, "workGroupSizeHint=[{}] vecTypeHintLength={l}", list(&h));
        }
        let _ = writeln!(s, "name1='{}' name2='{}'", self.name1, self.name2);
        if let Some(v) = &self.vec_type_hint {
            let _ = writeln!(s, "vecTypeHint='{v}'");
        }
        for (i, a) in self.args.iter().enumerate() {
            let _ = writeln!(
                s,
                "arg[{i}] name={} type='{}' entrySize={} vecLen|resId|structSize={} unknown3={} argOffset={} argType={} ptrAlignment={} ptrType={} ptrSpace={} isPointerOrPipe={} volatile={} restrict={} pipe={} kindOfType={} isConst={}",
                a.name,
                a.type_name,
                a.entry_size,
                a.vec_len_or_res_id_or_struct_size,
                a.unknown3,
                a.arg_offset,
                a.arg_type,
                a.ptr_alignment,
                a.ptr_type,
                a.ptr_space,
                a.is_pointer_or_pipe,
                a.volatile,
                a.restrict,
                a.pipe,
                a.kind_of_type,
                a.is_const
            );
        }
        s
    }
}
