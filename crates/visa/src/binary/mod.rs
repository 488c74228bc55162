//! The binary form: bytes -> cursor -> model, and model -> bytes.

mod cursor;
mod defects;
mod instruction;
mod reader;
mod stream;
mod writer;

pub use defects::{
    advice, explained, has_truncation_defect, text_dump_beside, undecoded_lines, DefectDiagnosis,
    StreamError, TRUNCATION_DEFECT,
};
pub use reader::{
    instruction_offsets, read, read_shared, read_with_layout, FileLayout, ReadOptions,
    RoutineLayout, MAGIC,
};
pub use stream::EncodedStream;
pub use writer::write;
