//! The object model: what a vISA object contains, independent of bytes or text.
//!
//! Fields keep the encoded values (type codes, flag bytes) so that a read followed by
//! a write is byte-identical; accessors give the meaning.

mod decl;
mod instruction;
mod operand;

pub use decl::*;
pub use instruction::*;
pub use operand::*;

use crate::version::Version;

/// A whole `.isa` file: header plus kernels and functions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Object {
    pub version: Version,
    pub kernels: Vec<Kernel>,
    /// File-scope variables. The format has them; IGC always writes none and its
    /// reader rejects any.
    pub filescope_vars: Vec<FileScopeVar>,
    pub functions: Vec<Function>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    pub name: Vec<u8>,
    pub relocations: Relocations,
    /// Gen machine code compiled from this kernel, one per platform.
    pub gen_binaries: Vec<GenBinary>,
    pub body: Routine,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// Deprecated linkage byte (0 extern, 1 static, 2 global); IGC writes 0.
    pub linkage: u8,
    pub name: Vec<u8>,
    pub relocations: Relocations,
    pub body: Routine,
}

/// The relocation tables of a kernel or function (spec 4.5: `variable_reloc_symtab`,
/// `function_reloc_symtab`). IGC always writes them empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Relocations {
    pub variables: Vec<Relocation>,
    pub functions: Vec<Relocation>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Relocation {
    pub symbolic_index: u16,
    pub resolved_index: u16,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenBinary {
    /// Platform code as IGC's `PlatformInfo` encodes it (5 SKL, 10 ICLLP, 12 TGLLP, ...).
    pub platform: u8,
    pub code: Vec<u8>,
}

impl GenBinary {
    /// The platform's name (IGC `PlatformInfo` encoding; 13 is shared by DG2 and MTL).
    pub fn platform_name(&self) -> &'static str {
        match self.platform {
            3 => "BDW",
            4 => "CHV",
            5 => "SKL",
            6 => "BXT",
            10 => "ICLLP",
            11 => "XeHP_SDV",
            12 => "TGLLP",
            13 => "DG2/MTL",
            14 => "PVC",
            15 => "PVCXT",
            _ => "unknown",
        }
    }
}

/// `file_scope_var_info` (spec 4.5.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileScopeVar {
    pub linkage: u8,
    pub name: Vec<u8>,
    pub bit_properties: u8,
    pub num_elements: u16,
    pub attributes: Vec<RawAttribute>,
}

/// An attribute whose name index refers to no string pool (file scope): kept as bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawAttribute {
    pub name_index: u32,
    pub value: Vec<u8>,
}

/// The body of a kernel or function: its symbol tables and instructions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Routine {
    /// The string pool, without terminators. Index 0 is the routine's own name.
    pub strings: StringPool,
    pub name_index: u32,
    /// User variables; variable id = [`crate::limits::PREDEFINED_VARS`] + index.
    pub variables: Vec<Variable>,
    pub addresses: Vec<AddressVar>,
    /// User predicates; predicate id = 1 + index (P0 means "no predicate").
    pub predicates: Vec<PredicateVar>,
    pub labels: Vec<Label>,
    pub samplers: Vec<StateVar>,
    /// User surfaces; surface id = [`crate::limits::PREDEFINED_SURFACES`] + index.
    pub surfaces: Vec<StateVar>,
    pub vmes: Vec<StateVar>,
    pub interface: Interface,
    pub attributes: Vec<Attribute>,
    pub code: Code,
    /// IGC 2.x ends its text dumps with the platform and finalizer options as comments;
    /// kept so that text round-trips. Binaries never carry it.
    pub build_info: Option<BuildInfo>,
}

/// The `//Platform:` and `//Build option:` trailer of IGC 2.x text dumps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildInfo {
    pub platform: String,
    pub options: String,
}

/// What differs between a kernel body and a function body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Interface {
    Kernel {
        inputs: Vec<Input>,
    },
    /// `input_size` and `return_value_size` are in GRFs.
    Function {
        input_size: u8,
        return_value_size: u8,
    },
}

/// The instruction stream of a routine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Code {
    Instructions(InstructionList),
    /// The stream did not decode; its bytes are kept unchanged so the object can
    /// still be inspected and written back. Only produced by lenient reading.
    Undecoded {
        bytes: Vec<u8>,
        error: crate::binary::StreamError,
    },
}

impl Code {
    pub fn instructions(&self) -> Option<&InstructionList> {
        match self {
            Code::Instructions(v) => Some(v),
            Code::Undecoded { .. } => None,
        }
    }

    /// The instructions, or none when the stream did not decode.
    pub fn instructions_or_empty(&self) -> &InstructionList {
        static EMPTY: InstructionList = InstructionList::new();
        self.instructions().unwrap_or(&EMPTY)
    }
}

impl Routine {
    /// The string at `index` of the pool, if present.
    pub fn string(&self, index: u32) -> Option<&[u8]> {
        self.strings.get(index as usize)
    }
    /// The string at `index`, lossily decoded, or `"<string #N?>"` when out of range.
    pub fn string_lossy(&self, index: u32) -> String {
        match self.string(index) {
            Some(s) => String::from_utf8_lossy(s).into_owned(),
            None => format!("<string #{index}?>"),
        }
    }
    pub fn inputs(&self) -> &[Input] {
        match &self.interface {
            Interface::Kernel { inputs } => inputs,
            Interface::Function { .. } => &[],
        }
    }
    /// Looks up a routine attribute by name.
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes
            .iter()
            .find(|a| self.string(a.name_index) == Some(name.as_bytes()))
    }
}

/// GRF size of a platform as IGC 2.x names it in its `//Platform:` trailer: 64 bytes from
/// Xe-HPC (`PVC`, `PVCXT`) on, including Xe2/Xe3; 32 before.
pub fn grf_bytes_of_platform(name: &str) -> u32 {
    let n = name.to_ascii_uppercase();
    if ["PVC", "XE2", "XE3"].iter().any(|p| n.starts_with(p)) {
        64
    } else {
        crate::limits::GRF_BYTES_DEFAULT
    }
}

impl Object {
    /// Every routine's body: the kernels', then the functions'.
    pub fn routines(&self) -> impl Iterator<Item = &Routine> {
        self.kernels
            .iter()
            .map(|k| &k.body)
            .chain(self.functions.iter().map(|f| &f.body))
    }

    /// The GRF size in bytes the object itself names, if any: 64 when a Gen binary is for
    /// PVC (platform 14 or 15) or IGC 2.x's build trailer names a PVC platform. `&var[offset]`
    /// text counts bytes while the model holds GRF rows, so text directions need this.
    pub fn grf_bytes(&self) -> Option<u32> {
        let gen_pvc = self
            .kernels
            .iter()
            .flat_map(|k| &k.gen_binaries)
            .any(|g| matches!(g.platform, 14 | 15));
        let mut named = None;
        for b in self.routines().filter_map(|r| r.build_info.as_ref()) {
            named = Some(grf_bytes_of_platform(&b.platform));
        }
        if gen_pvc {
            Some(64)
        } else {
            named
        }
    }

    /// The first construct that needs a version newer than `target`, if any: an opcode,
    /// a type code, or a predefined variable that `target` does not have. A 4.2 text
    /// without one can be written as a 4.1 binary.
    pub fn needs_newer_than(&self, target: crate::Version) -> Option<String> {
        let known_vars = crate::isa::predefined_vars(target).len() as u32;
        let newer_var = |id: u32| id >= known_vars && id < crate::limits::PREDEFINED_VARS;
        for r in self.routines() {
            for v in &r.variables {
                if v.ty().0 > 0xF || newer_var(v.alias_index) || v.aliases_null {
                    return Some(format!("variable {}", r.string_lossy(v.name_index)));
                }
            }
            for l in &r.labels {
                if l.kind > 3 {
                    return Some(format!("label kind {}", l.kind_name()));
                }
            }
            let mut walk = r.code.instructions_or_empty().walk();
            while let Some((i, inst)) = walk.next_instruction() {
                if inst.opcode.info().is_none_or(|info| info.since > target) {
                    return Some(format!("instruction {i} ({})", inst.opcode.mnemonic()));
                }
                for op in inst.operands {
                    if let Operand::Vector(Vector {
                        kind: VectorKind::Immediate { ty, .. } | VectorKind::Indirect { ty, .. },
                        ..
                    }) = op
                    {
                        if !crate::isa::Type::of_operand_byte(*ty).has_binary_form() {
                            return Some(format!(
                                "instruction {i}: a {} operand",
                                crate::isa::Type(*ty).name().unwrap_or("?")
                            ));
                        }
                    }
                    let id = match op {
                        Operand::Vector(Vector {
                            kind: VectorKind::General { id, .. },
                            ..
                        }) => Some(*id),
                        Operand::Raw(r) => Some(r.id),
                        _ => None,
                    };
                    if id.is_some_and(newer_var) {
                        return Some(format!(
                            "instruction {i}: predefined variable V{}",
                            id.unwrap_or(0)
                        ));
                    }
                }
            }
        }
        None
    }
}
