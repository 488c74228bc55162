//! What an operand means at run time, exactly as `5_operands.md` defines it: the
//! elements a region touches, the GRFs they span, and which channels an instruction
//! enables. The verifier judges operands with these; `gpukit visa region` draws them.

mod mask;
mod region;

pub use mask::{channel_enable, ExecMask, MaskControl, MaskError, PredControl, Predication};
pub use region::{
    check_region, destination_elements, destination_offsets, direct_origin, grf_span,
    indirect_multi_elements, source_elements, source_offsets, Element, GrfSpan, Offsets,
    RegionError, RegionParams, EXEC_SIZES,
};
