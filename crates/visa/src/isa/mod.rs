//! The instruction-set description: types, opcodes and operand layouts.

mod layout;
mod table;
mod types;

pub use layout::{Class, Cond, Field, FieldKind, Layout};
pub use table::{OpInfo, Opcode, Shape, LSC_OP_NAMES, OPCODES};
pub use types::{attribute_kind, Align, AttributeKind, Type};
mod predefined;
pub use predefined::{
    predefined_vars, PredefinedVar, BINDLESS_SAMPLER, PREDEFINED_SURFACES, PREDEFINED_VARS,
};
pub mod names;
pub mod rules;
pub mod syntax;
