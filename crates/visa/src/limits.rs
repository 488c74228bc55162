//! Every limit gpukit enforces while reading untrusted input, in one place.
//!
//! Counts read from a file are never trusted to size an allocation: each element
//! has a minimum encoded size, and a count is accepted only if the bytes that
//! remain could hold that many elements. The limits below bound what the format
//! itself allows (spec section 4) or what no real producer comes near.

/// Kernels per object (spec: "The maximum number of kernels allowed ... is 512").
pub const MAX_KERNELS: usize = 512;
/// Gen binaries per kernel. The spec (section 4.5, `num_gen_binaries`) says "valid values
/// are 0-4"; IGC writes 0, or 1 in "both" mode, and its reader does not check the byte.
/// Each one's bytes must also be its own (no overlap with another Gen binary or object).
pub const MAX_GEN_BINARIES: usize = 4;
/// Strings in a routine's pool (spec: valid range [1, 131072]).
pub const MAX_STRINGS: usize = 131_072;
/// Longest string accepted in a string pool; the spec's longest named string is 1023 bytes,
/// but attribute strings such as `OutputAsmPath` hold paths, so leave room.
pub const MAX_STRING_LEN: usize = 64 * 1024;
/// Operands of one instruction in IGC's description table (`MAX_OPNDS_PER_INST`).
pub const MAX_OPERANDS_PER_INSTRUCTION: usize = 35;
/// Labels of one `switchjmp` (spec: 1..32).
pub const MAX_SWITCH_LABELS: usize = 32;
/// Number of predefined general variables: user variables are numbered from here.
pub const PREDEFINED_VARS: u32 = 32;
/// Number of predefined surfaces (T0-T5): user surfaces are numbered from here.
pub const PREDEFINED_SURFACES: u32 = 6;
/// Variable byte size must stay below this (spec: "less than 4K bytes").
pub const MAX_VARIABLE_BYTES: usize = 4096;
/// GRF size in bytes on every platform before Xe-HPC (64 on PVC); text does not say
/// which platform it is for, so `&var[offset]` is resolved with this.
pub const GRF_BYTES_DEFAULT: u32 = 32;
