//! The row writers: NDJSON, CSV and Parquet, all walking `row::COLUMNS`, all
//! streaming into an `output::Stream` (no row is kept after it is written, bar the
//! one Parquet row group being built).

use super::row::{Row, Value, COLUMNS};
use crate::output::{Stream, StreamKind};
use std::io::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RowFormat {
    /// One JSON object a line, every column present (null when empty)
    Ndjson,
    /// RFC 4180: a header line, then one record a row (maps as JSON text, lists
    /// space-separated); cells exactly as in NDJSON and Parquet
    Csv,
    /// Apache Parquet, snappy-compressed, one row group per 8192 rows
    Parquet,
}

pub trait RowWriter {
    fn write(&mut self, row: &Row) -> std::io::Result<()>;
    /// Ends the format (Parquet footer) and gives the stream back.
    fn finish(self: Box<Self>) -> std::io::Result<Stream>;
}

impl RowFormat {
    /// How the output stream treats what the writer gives it: NDJSON escapes its own
    /// control characters, CSV cells must stay exact in a file, Parquet is bytes.
    pub fn stream_kind(self) -> StreamKind {
        match self {
            RowFormat::Ndjson => StreamKind::Escaped,
            RowFormat::Csv => StreamKind::Records,
            RowFormat::Parquet => StreamKind::Binary,
        }
    }
}

/// `--csv-formula-guard`: a CSV cell that a spreadsheet would take for a formula
/// (first character `=`, `+`, `-`, `@`, tab or CR) gets a `'` in front.
#[derive(Clone, Copy, Debug, Default)]
pub struct CsvOptions {
    pub formula_guard: bool,
}

pub fn open(
    format: RowFormat,
    stream: Stream,
    csv: CsvOptions,
) -> std::io::Result<Box<dyn RowWriter>> {
    Ok(match format {
        RowFormat::Ndjson => Box::new(Ndjson {
            stream,
            line: Vec::with_capacity(4096),
        }),
        RowFormat::Csv => Box::new(Csv::new(stream, csv)?),
        RowFormat::Parquet => Box::new(super::parquet::ParquetRows::new(stream)?),
    })
}

/// A JSON string literal, with every control character escaped (DEL and C1 too, so
/// that the output contract's terminal escaping never has to touch it).
pub fn json_string(s: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    for c in s.chars() {
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\t' => out.extend_from_slice(b"\\t"),
            '\r' => out.extend_from_slice(b"\\r"),
            c if c < ' ' || ('\u{7f}'..='\u{9f}').contains(&c) => {
                out.extend_from_slice(format!("\\u{:04x}", c as u32).as_bytes());
            }
            c => {
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    out.push(b'"');
}

fn json_map(m: &std::collections::BTreeMap<String, i64>, out: &mut Vec<u8>) {
    out.push(b'{');
    for (n, (k, v)) in m.iter().enumerate() {
        if n > 0 {
            out.push(b',');
        }
        json_string(k, out);
        out.push(b':');
        out.extend_from_slice(v.to_string().as_bytes());
    }
    out.push(b'}');
}

struct Ndjson {
    stream: Stream,
    line: Vec<u8>,
}

impl RowWriter for Ndjson {
    fn write(&mut self, row: &Row) -> std::io::Result<()> {
        let out = &mut self.line;
        out.clear();
        out.push(b'{');
        for (n, c) in COLUMNS.iter().enumerate() {
            if n > 0 {
                out.push(b',');
            }
            json_string(c.name, out);
            out.push(b':');
            match (c.get)(row) {
                Value::Null => out.extend_from_slice(b"null"),
                Value::Str(s) => json_string(s, out),
                Value::Int(v) => out.extend_from_slice(v.to_string().as_bytes()),
                Value::Bool(b) => out.extend_from_slice(if b { b"true" } else { b"false" }),
                Value::Map(m) => json_map(m, out),
                Value::List(l) => {
                    out.push(b'[');
                    for (i, s) in l.iter().enumerate() {
                        if i > 0 {
                            out.push(b',');
                        }
                        json_string(s, out);
                    }
                    out.push(b']');
                }
            }
        }
        out.extend_from_slice(b"}\n");
        self.stream.write_all(out)
    }
    fn finish(self: Box<Self>) -> std::io::Result<Stream> {
        Ok(self.stream)
    }
}

struct Csv {
    stream: Stream,
    line: Vec<u8>,
    options: CsvOptions,
}

impl Csv {
    fn new(mut stream: Stream, options: CsvOptions) -> std::io::Result<Csv> {
        let header: Vec<&str> = COLUMNS.iter().map(|c| c.name).collect();
        stream.write_all(format!("{}\r\n", header.join(",")).as_bytes())?;
        Ok(Csv {
            stream,
            line: Vec::with_capacity(4096),
            options,
        })
    }
}

/// Characters that make a spreadsheet read a cell as a formula when they come first.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// An RFC 4180 field, the text exactly: quoted when it holds a comma, quote or line
/// break (quotes doubled); with the formula guard, a `'` in front of a cell a
/// spreadsheet would evaluate.
fn csv_field(s: &str, options: CsvOptions, out: &mut Vec<u8>) {
    let guard = options.formula_guard && s.starts_with(FORMULA_STARTS);
    if s.contains([',', '"', '\n', '\r']) {
        out.push(b'"');
        if guard {
            out.push(b'\'');
        }
        for piece in s.split_inclusive('"') {
            out.extend_from_slice(piece.as_bytes());
            if piece.ends_with('"') {
                out.push(b'"');
            }
        }
        out.push(b'"');
    } else {
        if guard {
            out.push(b'\'');
        }
        out.extend_from_slice(s.as_bytes());
    }
}

impl RowWriter for Csv {
    fn write(&mut self, row: &Row) -> std::io::Result<()> {
        let out = &mut self.line;
        out.clear();
        for (n, c) in COLUMNS.iter().enumerate() {
            if n > 0 {
                out.push(b',');
            }
            let options = self.options;
            match (c.get)(row) {
                Value::Null => {}
                Value::Str(s) => csv_field(s, options, out),
                Value::Int(v) => out.extend_from_slice(v.to_string().as_bytes()),
                Value::Bool(b) => out.extend_from_slice(if b { b"true" } else { b"false" }),
                Value::Map(m) => {
                    let mut json = Vec::new();
                    json_map(m, &mut json);
                    csv_field(&String::from_utf8_lossy(&json), options, out);
                }
                Value::List(l) => csv_field(&l.join(" "), options, out),
            }
        }
        // CRLF ends a record, as RFC 4180 says (a CR or LF inside a field is quoted).
        out.extend_from_slice(b"\r\n");
        self.stream.write_all(out)
    }
    fn finish(self: Box<Self>) -> std::io::Result<Stream> {
        Ok(self.stream)
    }
}
