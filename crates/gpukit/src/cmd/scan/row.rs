//! The row `gpukit scan` writes for each kernel, and THE column table: NDJSON, CSV,
//! Parquet and the JSON Schema (`--schema`, `docs/scan-schema.json`) all walk
//! `COLUMNS`, so a new column is one entry here.

use std::collections::BTreeMap;

/// One kernel (or, with `error` set, one file that yields none).
#[derive(Clone, Debug, Default)]
pub struct Row {
    pub path: RowPath,
    pub format: Option<&'static str>,
    pub kernel: Option<String>,
    pub routine: Option<&'static str>,
    pub size_bytes: i64,
    pub error: Option<String>,
    pub error_kind: Option<ErrorKind>,
    pub skipped: bool,
    pub compiler: Option<String>,
    pub platform: Option<String>,
    pub visa_version: Option<String>,
    pub simd_size: Option<i64>,
    pub instructions: Option<i64>,
    pub opcodes: Option<BTreeMap<String, i64>>,
    pub declarations: Option<i64>,
    pub inputs: Option<i64>,
    pub gen_binary_bytes: Option<i64>,
    pub verify_findings: Option<i64>,
    pub verify_rules: Option<Vec<&'static str>>,
    pub sends: Option<i64>,
    pub sbid_tokens: Option<i64>,
    pub pressure_peak_regs: Option<i64>,
    pub pressure_peak_bytes: Option<i64>,
    pub arguments: Option<i64>,
    pub kernarg_bytes: Option<i64>,
    pub vgprs: Option<i64>,
    pub sgprs: Option<i64>,
    pub local_bytes: Option<i64>,
    pub scratch_bytes: Option<i64>,
    pub num_grf: Option<i64>,
    pub spill_bytes: Option<i64>,
    pub gen_instructions: Option<i64>,
    /// Not a column: the row stands for a whole file that yielded no kernel.
    pub file_error: bool,
}

/// A file name as the `path` and `path_escaped` columns spell it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RowPath {
    pub text: String,
    /// The name is not valid UTF-8: `text` has its other bytes as `\xNN` and its
    /// backslashes doubled.
    pub escaped: bool,
}

impl RowPath {
    /// The name itself when it is UTF-8; otherwise an escaped spelling that keeps two
    /// different names apart and can be turned back into the bytes.
    pub fn of(path: &std::path::Path) -> RowPath {
        use std::os::unix::ffi::OsStrExt;
        let bytes = path.as_os_str().as_bytes();
        if let Ok(text) = std::str::from_utf8(bytes) {
            return RowPath {
                text: text.to_owned(),
                escaped: false,
            };
        }
        let mut text = String::with_capacity(bytes.len() + 8);
        for chunk in bytes.utf8_chunks() {
            for c in chunk.valid().chars() {
                if c == '\\' {
                    text.push('\\');
                }
                text.push(c);
            }
            for b in chunk.invalid() {
                text.push_str(&format!("\\x{b:02x}"));
            }
        }
        RowPath {
            text,
            escaped: true,
        }
    }
}

/// The `error_kind` column: why a row has `error`, from a small fixed set, so that
/// errors can be grouped (the `error` text carries offsets and names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The file could not be opened or read (permissions, vanished, not a regular file).
    Io,
    /// A file of a GPU format that its reader rejects.
    Malformed,
    /// A file of a GPU format that holds no kernel.
    NoKernel,
    /// A kernel whose instruction stream does not decode (vISA binaries).
    Undecoded,
    /// A reader panicked: a gpukit bug.
    Internal,
}

impl ErrorKind {
    pub fn id(self) -> &'static str {
        match self {
            ErrorKind::Io => "io",
            ErrorKind::Malformed => "malformed",
            ErrorKind::NoKernel => "no-kernel",
            ErrorKind::Undecoded => "undecoded",
            ErrorKind::Internal => "internal",
        }
    }
}

impl Row {
    /// The row of a file that yields no kernel, saying why.
    pub fn file_error(
        path: &RowPath,
        format: Option<&'static str>,
        size: i64,
        kind: ErrorKind,
        error: impl Into<String>,
    ) -> Row {
        Row {
            path: path.clone(),
            format,
            size_bytes: size,
            error: Some(error.into()),
            error_kind: Some(kind),
            file_error: true,
            ..Row::default()
        }
    }

    /// The row of a file of no GPU format (`README.md`, a library, LLVM IR): recorded,
    /// not an error.
    pub fn skipped(path: &RowPath, format: &'static str, size: i64) -> Row {
        Row {
            path: path.clone(),
            format: Some(format),
            size_bytes: size,
            skipped: true,
            file_error: true,
            ..Row::default()
        }
    }
}

/// What a column holds. Integers are signed 64-bit so that every reader (Spark has
/// no unsigned types) takes them as they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    Str,
    Int,
    /// Opcode/mnemonic -> count.
    Map,
    /// Strings (rule ids, one per finding).
    List,
    Bool,
}

/// A column's value in one row.
pub enum Value<'a> {
    Null,
    Str(&'a str),
    Int(i64),
    Map(&'a BTreeMap<String, i64>),
    List(&'a [&'static str]),
    Bool(bool),
}

pub struct Column {
    pub name: &'static str,
    pub ty: Type,
    /// Never null.
    pub required: bool,
    /// Which files fill it: `all`, `visa`, `iga`, `amd`.
    pub group: &'static str,
    pub doc: &'static str,
    pub get: fn(&Row) -> Value<'_>,
}

fn s(v: &Option<String>) -> Value<'_> {
    v.as_deref().map_or(Value::Null, Value::Str)
}
fn i(v: Option<i64>) -> Value<'static> {
    v.map_or(Value::Null, Value::Int)
}

pub const COLUMNS: &[Column] = &[
    Column {
        name: "path",
        ty: Type::Str,
        required: true,
        group: "all",
        doc: "The file, as given or as found by the directory walk: exactly its name when that is valid UTF-8; otherwise (see `path_escaped`) each byte that is not UTF-8 written `\\xNN` and each backslash doubled, so that every file has its own path and the name can be restored.",
        get: |r| Value::Str(&r.path.text),
    },
    Column {
        name: "path_escaped",
        ty: Type::Bool,
        required: true,
        group: "all",
        doc: "Whether `path` is escaped because the file name is not valid UTF-8 (false: `path` is the name as it is).",
        get: |r| Value::Bool(r.path.escaped),
    },
    Column {
        name: "format",
        ty: Type::Str,
        required: false,
        group: "all",
        doc: "Format detected from the content (`gpukit info`'s ids: visa-binary, visa-text, iga-json-1, iga-json-2, amd-cl1, amd-cl1-cpu, amd-cl2, amd-il, amd-metadata, opencl-c, intel-zebin, intel-patch-tokens, igc-asm-dump; and for skipped files other-elf, llvm-ir, llvm-bitcode, spirv, empty, unknown); null when the file cannot be read.",
        get: |r| r.format.map_or(Value::Null, Value::Str),
    },
    Column {
        name: "kernel",
        ty: Type::Str,
        required: false,
        group: "all",
        doc: "Kernel (or vISA function) name; null for an error row and for IGA listings, which carry no name.",
        get: |r| s(&r.kernel),
    },
    Column {
        name: "routine",
        ty: Type::Str,
        required: false,
        group: "visa",
        doc: "vISA: `kernel` or `function` (a vISA file's functions get rows too).",
        get: |r| r.routine.map_or(Value::Null, Value::Str),
    },
    Column {
        name: "size_bytes",
        ty: Type::Int,
        required: true,
        group: "all",
        doc: "Size of the file in bytes (the same on every row of a file).",
        get: |r| Value::Int(r.size_bytes),
    },
    Column {
        name: "error",
        ty: Type::Str,
        required: false,
        group: "all",
        doc: "Why the file (a row with no kernel) or the kernel (vISA: an instruction stream that does not decode) could not be read; null when it was.",
        get: |r| s(&r.error),
    },
    Column {
        name: "error_kind",
        ty: Type::Str,
        required: false,
        group: "all",
        doc: "Why `error` is set, one of a fixed set for grouping: `io` (the file cannot be read), `malformed` (a GPU format its reader rejects), `no-kernel` (a GPU format with no kernel in it), `undecoded` (a vISA kernel whose instruction stream does not decode), `internal` (a gpukit bug); null when `error` is.",
        get: |r| r.error_kind.map_or(Value::Null, |k| Value::Str(k.id())),
    },
    Column {
        name: "skipped",
        ty: Type::Bool,
        required: true,
        group: "all",
        doc: "The file is of no GPU format gpukit reads (`format` says which: unknown, empty, other-elf, llvm-ir, llvm-bitcode, spirv): recorded with no kernel and no error.",
        get: |r| Value::Bool(r.skipped),
    },
    Column {
        name: "compiler",
        ty: Type::Str,
        required: false,
        group: "all",
        doc: "The compiler release that wrote the file, as far as the file says: vISA: the IGC release whose writer style the version has (`igc-1.0.5353` for 3.x, `igc-1.0.12504` for 4.0/4.1, `igc-2` for 4.2); AMD CL1: `amd-` and the AMD-APP driver version of `.comment`; AMD CL2: `amd-` and the driver class `amd info` infers; null for IGA listings and metadata text.",
        get: |r| s(&r.compiler),
    },
    Column {
        name: "platform",
        ty: Type::Str,
        required: false,
        group: "all",
        doc: "Intel platform in one vocabulary (skl, icllp, tgllp, dg2, mtl, pvc; bdw, xehp, xe2), whatever the file's spelling (vISA: the first Gen binary's platform, or an IGC 2.x dump's `//Platform:`; IGA: the listing's platform family; asm dump: `//.platform`; Intel program binary: the GFXCORE family code of the patch-token header or of the zebin's `IntelGT` note, `gfxcore-family-N` when it names none), or AMD device lower-cased (CL1/CL2 binary, metadata `;device:`).",
        get: |r| s(&r.platform),
    },
    Column {
        name: "visa_version",
        ty: Type::Str,
        required: false,
        group: "visa",
        doc: "vISA version, `major.minor`.",
        get: |r| s(&r.visa_version),
    },
    Column {
        name: "simd_size",
        ty: Type::Int,
        required: false,
        group: "visa intel",
        doc: "vISA: the kernel's `SimdSize` attribute, when it has one; Intel program binary: the kernel's SIMD size.",
        get: |r| i(r.simd_size),
    },
    Column {
        name: "instructions",
        ty: Type::Int,
        required: false,
        group: "visa iga",
        doc: "Instruction count (vISA: null when the stream does not decode, see `error`; IGA: as `iga stats`).",
        get: |r| i(r.instructions),
    },
    Column {
        name: "opcodes",
        ty: Type::Map,
        required: false,
        group: "visa iga",
        doc: "Instruction count per mnemonic (vISA as `visa info`; IGA as `iga stats`, sends and math with their subop).",
        get: |r| r.opcodes.as_ref().map_or(Value::Null, Value::Map),
    },
    Column {
        name: "declarations",
        ty: Type::Int,
        required: false,
        group: "visa",
        doc: "vISA: entries of the routine's declaration tables (variables, addresses, predicates, labels, samplers, surfaces, VME).",
        get: |r| i(r.declarations),
    },
    Column {
        name: "inputs",
        ty: Type::Int,
        required: false,
        group: "visa",
        doc: "vISA: kernel inputs (0 for functions).",
        get: |r| i(r.inputs),
    },
    Column {
        name: "gen_binary_bytes",
        ty: Type::Int,
        required: false,
        group: "visa intel",
        doc: "vISA binary: bytes of Gen machine code embedded for the kernel (all platforms together); Intel program binary: the kernel's Gen code size.",
        get: |r| i(r.gen_binary_bytes),
    },
    Column {
        name: "verify_findings",
        ty: Type::Int,
        required: false,
        group: "visa",
        doc: "With `--verify`: findings of `visa verify` (default rules) on the routine; findings about the header or file-scope declarations count on the file's first row.",
        get: |r| i(r.verify_findings),
    },
    Column {
        name: "verify_rules",
        ty: Type::List,
        required: false,
        group: "visa",
        doc: "With `--verify`: the rule id of each finding, sorted (a rule found three times is listed three times).",
        get: |r| r.verify_rules.as_deref().map_or(Value::Null, Value::List),
    },
    Column {
        name: "sends",
        ty: Type::Int,
        required: false,
        group: "iga intel",
        doc: "IGA: send instructions; IGC asm dump: send instructions of the listing.",
        get: |r| i(r.sends),
    },
    Column {
        name: "sbid_tokens",
        ty: Type::Int,
        required: false,
        group: "iga",
        doc: "IGA: distinct software-scoreboard (SBID) tokens used.",
        get: |r| i(r.sbid_tokens),
    },
    Column {
        name: "pressure_peak_regs",
        ty: Type::Int,
        required: false,
        group: "iga",
        doc: "IGA: peak live GRF registers from `liveTotals` (listings printed with -Xprint-defs); the stand-in for Intel spills, which these formats do not record.",
        get: |r| i(r.pressure_peak_regs),
    },
    Column {
        name: "pressure_peak_bytes",
        ty: Type::Int,
        required: false,
        group: "iga",
        doc: "IGA: peak live GRF bytes from `liveTotals`.",
        get: |r| i(r.pressure_peak_bytes),
    },
    Column {
        name: "arguments",
        ty: Type::Int,
        required: false,
        group: "amd intel",
        doc: "AMD: kernel arguments as `amd info` lists them (CL2 includes the six hidden setup arguments); OpenCL C: parameters; Intel program binary: the explicit arguments `intel info` lists.",
        get: |r| i(r.arguments),
    },
    Column {
        name: "kernarg_bytes",
        ty: Type::Int,
        required: false,
        group: "amd",
        doc: "AMD CL2: the kernel argument segment size of the kernel setup; CL1 and metadata text: the end of the last argument in its constant buffer (cb1 on GCN).",
        get: |r| i(r.kernarg_bytes),
    },
    Column {
        name: "vgprs",
        ty: Type::Int,
        required: false,
        group: "amd",
        doc: "AMD: vector registers (CL1 PROGINFO, CL2 kernel setup).",
        get: |r| i(r.vgprs),
    },
    Column {
        name: "sgprs",
        ty: Type::Int,
        required: false,
        group: "amd",
        doc: "AMD: scalar registers (CL1 PROGINFO, CL2 kernel setup).",
        get: |r| i(r.sgprs),
    },
    Column {
        name: "local_bytes",
        ty: Type::Int,
        required: false,
        group: "amd intel",
        doc: "AMD: local (LDS) memory: CL1/metadata `;memory:hwlocal`, CL2 setup local size; Intel program binary: shared local memory (SLM) per work-group.",
        get: |r| i(r.local_bytes),
    },
    Column {
        name: "scratch_bytes",
        ty: Type::Int,
        required: false,
        group: "amd intel",
        doc: "AMD: scratch memory per work-item (CL1/metadata `;memory:hwprivate`, CL2 setup scratch size): register spills and private arrays, the spill column of AMD kernels; Intel program binary: private memory per work-item.",
        get: |r| i(r.scratch_bytes),
    },
    Column {
        name: "num_grf",
        ty: Type::Int,
        required: false,
        group: "intel",
        doc: "IGC asm dump: `numGRF` of `//.thread_config`, the GRF count the kernel was register-allocated for (IGC 1.0.x dumps: `-TotalGRFNum` of `//.full_options`).",
        get: |r| i(r.num_grf),
    },
    Column {
        name: "spill_bytes",
        ty: Type::Int,
        required: false,
        group: "intel",
        doc: "IGC asm dump: `//.spill size`, scratch bytes of spilled registers (0 when the dump states none): the record of Intel spills.",
        get: |r| i(r.spill_bytes),
    },
    Column {
        name: "gen_instructions",
        ty: Type::Int,
        required: false,
        group: "intel",
        doc: "IGC asm dump: Gen instruction lines of the listing (after IGC's last pass; its `//.instCount` may differ).",
        get: |r| i(r.gen_instructions),
    },
];

/// The JSON Schema (draft 2020-12) of one NDJSON row, generated from `COLUMNS`.
pub fn json_schema() -> serde_json::Value {
    use serde_json::{json, Map, Value as J};
    let mut properties = Map::new();
    let mut required = Vec::new();
    for c in COLUMNS {
        let base = match c.ty {
            Type::Str => json!({"type": "string"}),
            Type::Int => json!({"type": "integer", "minimum": 0}),
            Type::Map => json!({
                "type": "object",
                "additionalProperties": {"type": "integer", "minimum": 0}
            }),
            Type::List => json!({"type": "array", "items": {"type": "string"}}),
            Type::Bool => json!({"type": "boolean"}),
        };
        let mut p = if c.required {
            base
        } else {
            json!({"anyOf": [base, {"type": "null"}]})
        };
        if let J::Object(o) = &mut p {
            o.insert("description".into(), J::from(c.doc));
            o.insert("x-filled-for".into(), J::from(c.group));
        }
        properties.insert(c.name.into(), p);
        required.push(J::from(c.name));
    }
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "gpukit scan row",
        "description": "One row of `gpukit scan` (NDJSON line, CSV record, Parquet row): one kernel, or one file with `error` set. Every column is present in every row; Parquet and CSV use the same names and order.",
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false
    })
}

#[cfg(test)]
mod tests {
    use super::RowPath;
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;

    fn of(bytes: &[u8]) -> (String, bool) {
        let p = RowPath::of(Path::new(OsStr::from_bytes(bytes)));
        (p.text, p.escaped)
    }

    #[test]
    fn paths_are_exact_or_escaped_reversibly() {
        assert_eq!(of(b"a\\x1b\x1b.cl"), ("a\\x1b\x1b.cl".into(), false));
        assert_eq!(of(b"a\xff.cl"), ("a\\xff.cl".into(), true));
        assert_eq!(of(b"a\\xff\xff.cl"), ("a\\\\xff\\xff.cl".into(), true));
        // A real U+FFFD stays itself and differs from an invalid byte.
        assert_eq!(
            of("a\u{fffd}.cl".as_bytes()),
            ("a\u{fffd}.cl".into(), false)
        );
    }
}
