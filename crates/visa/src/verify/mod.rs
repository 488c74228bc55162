//! The verifier: every rule the vISA specification states about an object, each with
//! a stable id. Rules read the object model and the instruction table only, so the
//! same checks serve a binary and a text; where a finding sits in its source (byte
//! offset, or line and column through [`TextMap`]) is filled in by the caller.
//!
//! One module per rule family: `header` (VISA-HDR), `decl` (VISA-DECL), `inputs`
//! (VISA-INPUT), `operands` (VISA-OPND), `instructions` (VISA-INST), `lsc` (VISA-LSC),
//! `platform` (VISA-PLAT, only with [`Options::platform`]). [`RULES`] lists every id
//! with its one-line summary. Per-opcode facts (operand classes and types, modifiers,
//! raw operand types, availability by platform) are data in `crate::isa::rules`.
//!
//! IGC compiled every corpus file, so a rule that fires on the corpus is read again:
//! where the spec and IGC's output disagree, the rule follows IGC's reading when the
//! spec's own text allows it (documented at the rule), or is applied only with
//! [`Options::strict`] (see [`STRICT_RULES`]).
//!
//! Adding a rule: a row in [`RULES`], the check in its family's module, and a
//! fixture in `tests/verify.rs` (`fixtures()`), blessed with `BLESS=1`.

mod decl;
mod header;
mod inputs;
mod instructions;
mod lsc;
mod operands;
mod platform;
mod source;

use crate::model::{Object, Routine};
use crate::version::Version;
use serde::Serialize;
use std::fmt;

pub use platform::Platform;
pub use source::TextMap;

/// One rule violation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Stable id, `VISA-<FAMILY>-<NNN>`.
    pub rule: &'static str,
    pub message: String,
    pub location: Location,
}

/// Where a finding is. `place` is always known; `source` is filled in by whoever knows
/// how the object was stored (a byte offset in a binary, a line and column in text).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Location {
    pub place: Place,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Source {
    Binary { offset: usize },
    Text { line: u32, col: u32 },
}

/// A routine of an object: a kernel or a function, by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "kind", content = "index", rename_all = "snake_case")]
pub enum RoutineRef {
    Kernel(usize),
    Function(usize),
}

/// The part of an object a finding is about.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Place {
    Header,
    Routine {
        routine: RoutineRef,
    },
    /// An entry of a declaration table (`variables`, `addresses`, `predicates`,
    /// `labels`, `samplers`, `surfaces`, `vmes`, `attributes`, `filescope_variables`).
    Declaration {
        #[serde(skip_serializing_if = "Option::is_none")]
        routine: Option<RoutineRef>,
        table: &'static str,
        index: usize,
    },
    Input {
        routine: RoutineRef,
        index: usize,
    },
    /// An instruction, and the layout field the finding is about when there is one.
    Instruction {
        routine: RoutineRef,
        index: usize,
        #[serde(skip_serializing_if = "Option::is_none")]
        field: Option<&'static str>,
    },
}

impl fmt::Display for RoutineRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RoutineRef::Kernel(i) => write!(f, "kernel {i}"),
            RoutineRef::Function(i) => write!(f, "function {i}"),
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Header => f.write_str("header"),
            Place::Routine { routine } => write!(f, "{routine}"),
            Place::Declaration {
                routine: Some(r),
                table,
                index,
            } => write!(f, "{r} {table}[{index}]"),
            Place::Declaration {
                routine: None,
                table,
                index,
            } => write!(f, "{table}[{index}]"),
            Place::Input { routine, index } => write!(f, "{routine} input {index}"),
            Place::Instruction {
                routine,
                index,
                field,
            } => {
                write!(f, "{routine} instruction {index}")?;
                if let Some(field) = field {
                    write!(f, " {field}")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.source {
            Some(Source::Binary { offset }) => write!(f, "{offset:#x}: {}", self.place),
            Some(Source::Text { line, col }) => write!(f, "{line}:{col}: {}", self.place),
            None => write!(f, "{}", self.place),
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.location, self.rule, self.message)
    }
}

/// What to check beyond the platform-independent rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Also check the rules of this platform; its GRF size replaces the one the
    /// object implies.
    pub platform: Option<Platform>,
    /// Also apply rules that IGC's own output does not keep (see [`STRICT_RULES`]).
    pub strict: bool,
}

/// Rules the spec states but IGC's output breaks routinely, applied only with
/// [`Options::strict`]:
/// - VISA-OPND-006: IGC 1.0.5353 emits SIMD16 operands of 64-bit types and strided
///   dword operands spanning up to 8 GRFs (1314 operands in the legacy corpus), which
///   its finalizer splits; its verifier does not check the two-GRF rule.
/// - VISA-LSC-002: IGC 1.0.12504 gives DG2 SLM accesses `.ca.ca` and `.wb.wb` caching
///   (38 instructions in the acm-g10 texts) although the spec says SLM must use `.df`.
/// - VISA-INST-014: every IGC dump ends its kernels with `ret (M1, 1)`, although the
///   RET spec says "Scalar returns must be marked with {NoMask}".
/// - VISA-DECL-003: the spec says a variable is smaller than 4 KiB, but IGC's verifier
///   checks only the element count (1 to 4096, VISA-DECL-002), and IGC declares
///   4096-byte variables for PVC's 64-byte GRFs (64 GRFs of one variable).
/// - VISA-DECL-015: the spec's "Can be aliased" column excludes %hw_id, but IGC
///   declares a UD alias of it to read the hardware thread id (oclgrind's
///   `casted_static_array` through IGC 1.0.5353 and 2.x).
/// - VISA-INST-021: the spec lists UD for the sources of `addc` and `subb`; IGC's
///   verifier checks only their destination, and IGC's 64-bit add emulation passes a
///   packed-vector immediate (`0x8840:uv`) on Gen11/Gen12, vISA 3.x and 4.x.
pub static STRICT_RULES: &[&str] = &[
    "VISA-OPND-006",
    "VISA-LSC-002",
    "VISA-INST-014",
    "VISA-DECL-003",
    "VISA-INST-021",
    "VISA-DECL-015",
];

/// Every rule: id and one-line summary.
pub static RULES: &[(&str, &str)] = &[
    ("VISA-HDR-001", "at most 512 kernels in an object"),
    ("VISA-HDR-002", "kernel and function names are 1 to 65535 bytes"),
    ("VISA-HDR-003", "a string pool holds 1 to 131072 strings"),
    ("VISA-HDR-004", "every string index is inside the routine's string pool"),
    ("VISA-HDR-005", "names stay within their maximum length (variables 64, labels 1024, routines 1023, attributes 64 printable ASCII)"),
    ("VISA-HDR-006", "a kernel declares at most 256 inputs"),
    ("VISA-HDR-007", "function input size is 0-32 GRFs and return value size 0-12 GRFs"),
    ("VISA-HDR-008", "the instruction stream decodes"),
    ("VISA-HDR-009", "file-scope variables have 1 to 1024 elements and a valid linkage"),
    ("VISA-DECL-001", "a general variable has type UD, D, UW, W, UB, B, UQ, Q, DF, HF, F (or BF)"),
    ("VISA-DECL-002", "a general variable has 1 to 4096 elements"),
    ("VISA-DECL-003", "a general variable is smaller than 4 KiB (strict only)"),
    ("VISA-DECL-004", "a general variable's alignment code is valid"),
    ("VISA-DECL-005", "an alias target is a declared (or named predefined) variable"),
    ("VISA-DECL-006", "an alias offset is aligned to the alias's type"),
    ("VISA-DECL-007", "a variable that aliases nothing has alias offset 0"),
    ("VISA-DECL-008", "alias scope is 0 (local) or 1 (global, naming a file-scope variable)"),
    ("VISA-DECL-009", "aliases do not form a cycle"),
    ("VISA-DECL-010", "an alias lies within its target"),
    ("VISA-DECL-011", "an address variable has 1 to 16 elements"),
    ("VISA-DECL-012", "a predicate variable has 1, 2, 4, 8, 16 or 32 elements"),
    ("VISA-DECL-013", "a label kind is block, subroutine, fc, function or divergent_resource_loop"),
    ("VISA-DECL-014", "only %r0, %arg, %retval and the 4.0 buffer pointers are aliased among predefined variables"),
    ("VISA-DECL-015", "%hw_id is not aliased (strict only: IGC aliases it)"),
    ("VISA-INPUT-001", "an input's class is general, sampler or surface and reserved bit 2 is clear"),
    ("VISA-INPUT-002", "an input names a declared, non-predefined variable, sampler or surface"),
    ("VISA-INPUT-003", "inputs do not overlap"),
    ("VISA-INPUT-004", "an input offset is aligned to its type (dword for sampler and surface)"),
    ("VISA-INPUT-005", "an input of at least one GRF is GRF-aligned"),
    ("VISA-INPUT-006", "an input smaller than one GRF does not cross a GRF boundary"),
    ("VISA-INPUT-007", "an input's size equals type size times element count"),
    ("VISA-INPUT-008", "explicit inputs come before implicit inputs"),
    ("VISA-INPUT-009", "an input variable is not an alias"),
    ("VISA-INPUT-010", "an input offset is not negative"),
    ("VISA-OPND-001", "region width is 1, 2, 4, 8 or 16"),
    ("VISA-OPND-002", "region vertical stride is 0, 1, 2, 4, 8, 16 or 32"),
    ("VISA-OPND-003", "region horizontal stride is 0, 1, 2 or 4"),
    ("VISA-OPND-004", "exec size is at least the region width"),
    ("VISA-OPND-005", "a destination's horizontal stride is not 0"),
    ("VISA-OPND-006", "an operand touches at most two adjacent GRFs (strict only)"),
    ("VISA-OPND-007", "an indirect offset is within [-512, 511]"),
    ("VISA-OPND-008", "a multi-address indirect operand is not a destination"),
    ("VISA-OPND-009", "an immediate has a type other than BOOL"),
    ("VISA-OPND-010", "an indirect operand has a type other than V, UV, VF, BOOL"),
    ("VISA-OPND-011", "only general and indirect operands carry modifiers"),
    ("VISA-OPND-012", "the not modifier only in and/or/xor/not; arithmetic modifiers only in arithmetic, shift and move instructions"),
    ("VISA-OPND-013", "an immediate is not a destination"),
    ("VISA-OPND-014", "an operand names a declared variable, address, predicate or state"),
    ("VISA-OPND-015", "an operand does not use a reserved predefined variable"),
    ("VISA-OPND-016", "an address operand's elements lie within the address variable"),
    ("VISA-OPND-017", "a direct region stays within its variable"),
    ("VISA-OPND-019", "a column offset does not cross the GRF boundary"),
    ("VISA-OPND-020", "a raw operand lies within its variable"),
    ("VISA-OPND-021", "a raw operand starts on a GRF boundary"),
    ("VISA-OPND-022", "no instruction writes a read-only predefined variable"),
    ("VISA-INST-001", "exec size is 1, 2, 4, 8, 16 or 32"),
    ("VISA-INST-002", "the mask offset plus exec size stays within 32 channels"),
    ("VISA-INST-003", "a predicate names a declared predicate and uses no reserved control bits"),
    ("VISA-INST-004", "a label operand names a declared label"),
    ("VISA-INST-005", "jmp, goto and switchjmp target block labels; call targets subroutine labels"),
    ("VISA-INST-006", "a label is placed at most once"),
    ("VISA-INST-007", "a label that is jumped to is placed in the routine"),
    ("VISA-INST-008", "an operand kind is allowed for the opcode's field"),
    ("VISA-INST-009", "an operand type is allowed for the opcode's field"),
    ("VISA-INST-010", "an opcode-specific control value is in range"),
    ("VISA-INST-012", "bfe and bfi do not run at exec size 2"),
    ("VISA-INST-013", "mov from a predicate is SIMD1, unpredicated, unsaturated, into an unsigned integer at least as wide as the predicate"),
    ("VISA-INST-014", "scalar calls and returns are NoMask (strict only)"),
    ("VISA-INST-015", "a raw operand's element size is that of a type the opcode's spec lists for it"),
    ("VISA-INST-016", "jmp, goto and switchjmp stay within their subroutine"),
    ("VISA-INST-017", "madw runs at exec size 16 at most"),
    ("VISA-INST-018", "media_ld, media_st, gather4_typed and scatter4_typed do not access T0 (SLM)"),
    ("VISA-INST-019", "a message's surface index names a declared or predefined surface"),
    ("VISA-INST-020", "a message's sampler index names a declared sampler or S31 (bindless)"),
    ("VISA-INST-021", "addc and subb sources are UD (strict only)"),
    ("VISA-LSC-001", "an LSC control field (sfid, caching, address type and size, data size, order, vector length, fence op and scope) holds a defined code"),
    ("VISA-LSC-002", "SLM accesses use default caching (.df.df) (strict only)"),
    ("VISA-LSC-003", "transposed LSC accesses are SIMD1"),
    ("VISA-LSC-004", "a channel mask only on quad operations, and a quad operation enables a channel"),
    ("VISA-LSC-005", "on PVC, the L1/L3 caching pair is one the spec allows for the operation"),
    ("VISA-LSC-006", "the ugml unit only on PVC"),
    ("VISA-PLAT-001", "the opcode is available on the platform"),
    ("VISA-PLAT-002", "an operand type the specs gate to a later platform is not used on an earlier one"),
    ("VISA-PLAT-003", "oword block messages reach T0 (SLM) only from ICLLP on"),
];

/// The one-line summary of a rule id.
pub fn rule_summary(id: &str) -> Option<&'static str> {
    RULES.iter().find(|r| r.0 == id).map(|r| r.1)
}

/// Checks an object. Findings come in a fixed order: header, then each routine
/// (declarations, inputs, instructions), kernels before functions.
pub fn verify(object: &Object, options: &Options) -> Vec<Finding> {
    let mut out = Findings::default();
    header::check_object(object, &mut out);
    let routines = object
        .kernels
        .iter()
        .enumerate()
        .map(|(i, k)| (RoutineRef::Kernel(i), &k.body, grf_of_kernel(k, options)))
        .chain(object.functions.iter().enumerate().map(|(i, f)| {
            (
                RoutineRef::Function(i),
                &f.body,
                grf_default(object, options),
            )
        }));
    for (rref, body, grf_size) in routines {
        let cx = Cx {
            object,
            version: object.version,
            routine: body,
            rref,
            grf_size,
            strict: options.strict,
            platform: options.platform,
        };
        header::check_routine(&cx, &mut out);
        decl::check(&cx, &mut out);
        inputs::check(&cx, &mut out);
        instructions::check(&cx, &mut out);
        lsc::check(&cx, &mut out);
        if let Some(p) = options.platform {
            platform::check(&cx, p, &mut out);
        }
    }
    out.0
}

/// The GRF size the rules assume for a kernel: the chosen platform's, else that of the
/// platform its embedded Gen binary was compiled for or its text's build trailer
/// names (`//Platform: PVCXT`), else 32 bytes (every platform before Xe-HPC).
fn grf_of_kernel(kernel: &crate::Kernel, options: &Options) -> u32 {
    if let Some(p) = options.platform {
        return p.grf_size();
    }
    let from_trailer = kernel
        .body
        .build_info
        .as_ref()
        .and_then(|b| Platform::from_build_name(&b.platform));
    kernel
        .gen_binaries
        .iter()
        .find_map(|g| Platform::from_code(g.platform))
        .or(from_trailer)
        .map_or(crate::limits::GRF_BYTES_DEFAULT, Platform::grf_size)
}

fn grf_default(object: &Object, options: &Options) -> u32 {
    match object.kernels.first() {
        Some(k) => grf_of_kernel(k, options),
        None => options
            .platform
            .map_or(crate::limits::GRF_BYTES_DEFAULT, Platform::grf_size),
    }
}

/// What every rule of a routine needs to know.
pub(crate) struct Cx<'a> {
    pub object: &'a Object,
    pub version: Version,
    pub routine: &'a Routine,
    pub rref: RoutineRef,
    pub grf_size: u32,
    pub strict: bool,
    pub platform: Option<Platform>,
}

#[derive(Default)]
pub(crate) struct Findings(Vec<Finding>);

impl Findings {
    pub fn push(&mut self, rule: &'static str, place: Place, message: impl Into<String>) {
        debug_assert!(rule_summary(rule).is_some(), "unlisted rule {rule}");
        self.0.push(Finding {
            rule,
            message: message.into(),
            location: Location {
                place,
                source: None,
            },
        });
    }
}

impl Cx<'_> {
    pub fn decl(&self, table: &'static str, index: usize) -> Place {
        Place::Declaration {
            routine: Some(self.rref),
            table,
            index,
        }
    }
    pub fn inst(&self, index: usize, field: Option<&'static str>) -> Place {
        Place::Instruction {
            routine: self.rref,
            index,
            field,
        }
    }
    /// The declaration behind a general variable id, if it is declared or a named predefined.
    pub fn var(&self, id: u32) -> Option<VarDecl> {
        let mut decl = var_decl(self.routine, self.version, id)?;
        // %r0 is one whole GRF, and %arg and %retval are 32 and 12 GRFs ("256/512",
        // "96/192" elements): the table's sizes are those of the 32-byte GRF of every
        // platform before Xe-HPC.
        if matches!(id, R0_ID | ARG_ID | RETVAL_ID) {
            decl.num_elements = decl.num_elements * self.grf_size / 32;
        }
        Some(decl)
    }
}

const R0_ID: u32 = 7;
const ARG_ID: u32 = 8;
const RETVAL_ID: u32 = 9;

/// The facts of a general variable the rules use, for user and predefined ids alike.
#[derive(Clone, Copy, Debug)]
pub(crate) struct VarDecl {
    pub ty: crate::isa::Type,
    pub num_elements: u32,
    /// `(target id, byte offset)` for an alias.
    pub alias: Option<(u32, u32)>,
}

impl VarDecl {
    pub fn byte_size(&self) -> Option<u32> {
        self.ty.size().map(|s| s as u32 * self.num_elements)
    }
}

pub(crate) fn var_decl(routine: &Routine, version: Version, id: u32) -> Option<VarDecl> {
    let first_user = crate::limits::PREDEFINED_VARS;
    if id < first_user {
        return crate::isa::predefined_vars(version)
            .iter()
            .find(|p| p.id == id)
            .map(|p| VarDecl {
                ty: p.ty,
                num_elements: u32::from(p.num_elements),
                alias: None,
            });
    }
    let v = routine.variables.get((id - first_user) as usize)?;
    Some(VarDecl {
        ty: v.ty(),
        num_elements: u32::from(v.num_elements),
        alias: (v.alias_index != 0).then_some((v.alias_index, u32::from(v.alias_offset))),
    })
}

/// Where a variable's storage starts: the root variable it aliases (after following
/// every alias) and the byte offset into it. `None` on a cycle or an undeclared link;
/// those are reported by the declaration rules.
pub(crate) fn resolve_alias(routine: &Routine, version: Version, id: u32) -> Option<(u32, u32)> {
    let mut current = id;
    let mut offset: u32 = 0;
    // A chain longer than the table must repeat a variable.
    for _ in 0..=routine.variables.len() + 1 {
        let d = var_decl(routine, version, current)?;
        match d.alias {
            None => return Some((current, offset)),
            Some((target, off)) => {
                offset = offset.checked_add(off)?;
                current = target;
            }
        }
    }
    None
}
