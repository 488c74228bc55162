//! Parquet rows: one Arrow builder per column of `row::COLUMNS`; every
//! `ROW_GROUP_ROWS` rows the builders become a record batch and one row group
//! of the file, so memory holds one row group at most.

use super::row::{Row, Type, Value, COLUMNS};
use super::writer::RowWriter;
use crate::output::Stream;
use arrow_array::builder::{BooleanBuilder, Int64Builder, ListBuilder, MapBuilder, StringBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use std::sync::Arc;

/// Rows per row group: small enough to keep memory flat, large enough for good
/// compression and few footer entries.
pub const ROW_GROUP_ROWS: usize = 8192;

enum Builder {
    Str(StringBuilder),
    Int(Int64Builder),
    Map(MapBuilder<StringBuilder, Int64Builder>),
    List(ListBuilder<StringBuilder>),
    Bool(BooleanBuilder),
}

impl Builder {
    fn new(t: Type) -> Builder {
        match t {
            Type::Str => Builder::Str(StringBuilder::new()),
            Type::Int => Builder::Int(Int64Builder::new()),
            Type::Map => Builder::Map(MapBuilder::new(
                None,
                StringBuilder::new(),
                Int64Builder::new(),
            )),
            Type::List => Builder::List(ListBuilder::new(StringBuilder::new())),
            Type::Bool => Builder::Bool(BooleanBuilder::new()),
        }
    }

    fn append(&mut self, v: Value<'_>) -> Result<(), arrow_schema::ArrowError> {
        match (self, v) {
            (Builder::Str(b), Value::Str(s)) => b.append_value(s),
            (Builder::Str(b), _) => b.append_null(),
            (Builder::Int(b), Value::Int(i)) => b.append_value(i),
            (Builder::Int(b), _) => b.append_null(),
            (Builder::Map(b), Value::Map(m)) => {
                for (k, v) in m {
                    b.keys().append_value(k);
                    b.values().append_value(*v);
                }
                b.append(true)?;
            }
            (Builder::Map(b), _) => b.append(false)?,
            (Builder::List(b), Value::List(l)) => {
                for s in l {
                    b.values().append_value(s);
                }
                b.append(true);
            }
            (Builder::List(b), _) => b.append(false),
            (Builder::Bool(b), Value::Bool(v)) => b.append_value(v),
            (Builder::Bool(b), _) => b.append_null(),
        }
        Ok(())
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            Builder::Str(b) => Arc::new(b.finish()),
            Builder::Int(b) => Arc::new(b.finish()),
            Builder::Map(b) => Arc::new(b.finish()),
            Builder::List(b) => Arc::new(b.finish()),
            Builder::Bool(b) => Arc::new(b.finish()),
        }
    }
}

pub struct ParquetRows {
    writer: ArrowWriter<Stream>,
    schema: SchemaRef,
    builders: Vec<Builder>,
    pending: usize,
}

fn io(e: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::other(format!("parquet: {e}"))
}

fn builders() -> Vec<Builder> {
    COLUMNS.iter().map(|c| Builder::new(c.ty)).collect()
}

/// The Arrow schema of the rows: names and nullability from `COLUMNS`, types as the
/// builders make them (so the two cannot disagree).
pub fn schema() -> SchemaRef {
    let fields: Vec<Field> = COLUMNS
        .iter()
        .zip(builders())
        .map(|(c, mut b)| Field::new(c.name, b.finish().data_type().clone(), !c.required))
        .collect();
    Arc::new(Schema::new(fields))
}

impl ParquetRows {
    pub fn new(stream: Stream) -> std::io::Result<ParquetRows> {
        let schema = schema();
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
            .set_created_by(format!("gpukit scan {}", env!("CARGO_PKG_VERSION")))
            .build();
        let writer = ArrowWriter::try_new(stream, schema.clone(), Some(props)).map_err(io)?;
        Ok(ParquetRows {
            writer,
            schema,
            builders: builders(),
            pending: 0,
        })
    }

    fn flush_group(&mut self) -> std::io::Result<()> {
        if self.pending == 0 {
            return Ok(());
        }
        let arrays: Vec<ArrayRef> = self.builders.iter_mut().map(Builder::finish).collect();
        let batch = RecordBatch::try_new(self.schema.clone(), arrays).map_err(io)?;
        self.writer.write(&batch).map_err(io)?;
        self.writer.flush().map_err(io)?;
        self.pending = 0;
        Ok(())
    }
}

impl RowWriter for ParquetRows {
    fn write(&mut self, row: &Row) -> std::io::Result<()> {
        for (c, b) in COLUMNS.iter().zip(&mut self.builders) {
            b.append((c.get)(row)).map_err(io)?;
        }
        self.pending += 1;
        if self.pending >= ROW_GROUP_ROWS {
            self.flush_group()?;
        }
        Ok(())
    }
    fn finish(mut self: Box<Self>) -> std::io::Result<Stream> {
        self.flush_group()?;
        self.writer.into_inner().map_err(io)
    }
}
