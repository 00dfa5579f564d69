//! CSV input through the `csv` crate: RFC-4180 quoting, a header row, any one-byte delimiter,
//! plain or compressed (see [`super::compression`]).
//! Each batch of the role columns becomes an Arrow record batch of text columns (fields as
//! written — a group named " a " stays " a ", as pandas, pyarrow and Spark read it; an empty field
//! null) with each row's file line, for the audit's one decoder
//! (`fair_audit::ingest`, which parses scores and weights from text for CSV input).

use super::{ReadOptions, compression};
use crate::error::{InputError, RowRef};
use arrow_array::builder::{StringBuilder, StringDictionaryBuilder};
use arrow_array::types::Int32Type;
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use fair_audit::ingest::{IngestError, Roles};
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

pub(super) struct CsvSource {
    file: PathBuf,
    reader: csv::Reader<BufReader<Box<dyn Read + Send>>>,
    record: csv::StringRecord,
    /// Header index of each role column, in `schema` order.
    idx: Vec<usize>,
    schema: Arc<Schema>,
    batch_rows: usize,
    size: u64,
    /// Bytes of the file read so far (compressed bytes for a compressed file).
    read: Arc<AtomicU64>,
    header_len: u64,
    /// Lines to add to the csv crate's record lines (1 in a CRLF file, see [`first_line_ends_crlf`]).
    line_fix: u64,
}

impl CsvSource {
    pub(super) fn open(
        file: &Path,
        spec: &Roles,
        options: &ReadOptions,
        size: u64,
    ) -> Result<Self, InputError> {
        let crlf = first_line_ends_crlf(file);
        let opened = compression::open(file)?;
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(options.delimiter)
            .has_headers(true)
            .flexible(false)
            .from_reader(BufReader::with_capacity(1 << 20, opened.reader));
        let headers = reader
            .headers()
            .map_err(|e| csv_error(file, e, 0, 0))?
            .clone();
        if headers.is_empty() {
            return Err(InputError::EmptyFile {
                file: file.to_path_buf(),
                what: "no header",
            });
        }
        let mut idx = Vec::new();
        for (column, setting) in spec.named() {
            let i = headers
                .iter()
                .position(|h| h.trim() == column)
                .ok_or_else(|| IngestError::MissingColumn {
                    origin: file.display().to_string(),
                    column: column.to_string(),
                    flag: options.style.flag(setting).to_string(),
                    available: headers.iter().collect::<Vec<_>>().join(", "),
                    hint: {
                        let names: Vec<&str> = headers.iter().map(str::trim).collect();
                        match delimiter_hint(&headers, options.delimiter) {
                            h if h.is_empty() => fair_audit::ingest::did_you_mean(column, &names),
                            h => h,
                        }
                    },
                })?;
            idx.push(i);
        }
        // Labels, predictions and groups take few distinct values: dictionary columns, so the
        // decoder maps each distinct value once and each row by its key (and the batch holds each
        // distinct string once); scores and weights are plain text it parses.
        let schema = Arc::new(Schema::new(
            spec.named()
                .iter()
                .map(|&(c, setting)| {
                    let t = if coded(setting) {
                        DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8))
                    } else {
                        DataType::Utf8
                    };
                    Field::new(c, t, true)
                })
                .collect::<Vec<_>>(),
        ));
        Ok(Self {
            file: file.to_path_buf(),
            reader,
            record: csv::StringRecord::new(),
            idx,
            schema,
            batch_rows: options.batch_rows.max(1),
            size,
            read: opened.read,
            header_len: headers.len() as u64,
            line_fix: u64::from(crlf),
        })
    }

    /// Bytes of the file read so far, at most its size.
    pub(super) fn bytes_read(&self) -> u64 {
        self.read.load(Ordering::Relaxed).min(self.size)
    }

    /// The next batch of text columns with each row's file line, or `None` at the end.
    pub(super) fn next_batch(
        &mut self,
        first_row: u64,
    ) -> Result<Option<(RecordBatch, Vec<u64>)>, InputError> {
        let cap = self.batch_rows.min(1 << 16);
        let mut columns: Vec<Column> = self
            .schema
            .fields()
            .iter()
            .map(|f| match f.data_type() {
                DataType::Dictionary(..) => Column::Coded(StringDictionaryBuilder::new()),
                _ => Column::Text(StringBuilder::with_capacity(cap, cap * 8)),
            })
            .collect();
        let mut lines = Vec::with_capacity(cap);
        while lines.len() < self.batch_rows {
            let row = first_row + lines.len() as u64 + 1;
            let more = self
                .reader
                .read_record(&mut self.record)
                .map_err(|e| csv_error(&self.file, e, row, self.line_fix))?;
            if !more {
                break;
            }
            let line = self.record.position().map_or(0, |p| p.line()) + self.line_fix;
            if self.record.len() as u64 != self.header_len {
                // Only reachable with a one-field header, which the csv crate lets through.
                return Err(InputError::RaggedRow {
                    file: self.file.clone(),
                    at: RowRef {
                        row,
                        line: Some(line),
                    },
                    expected: self.header_len,
                    got: self.record.len() as u64,
                });
            }
            for (b, &i) in columns.iter_mut().zip(&self.idx) {
                // Not trimmed: the same text as every other reader of the file gives the other
                // front ends (numbers and labels are parsed with surrounding spaces allowed).
                let v = self.record.get(i).filter(|v| !v.is_empty());
                b.append(v).map_err(|message| InputError::Csv {
                    file: self.file.clone(),
                    at: RowRef {
                        row,
                        line: Some(line),
                    },
                    message,
                })?;
            }
            lines.push(line);
        }
        if lines.is_empty() {
            return Ok(None);
        }
        let arrays: Vec<ArrayRef> = columns.iter_mut().map(Column::finish).collect();
        let batch =
            RecordBatch::try_new(self.schema.clone(), arrays).map_err(|e| InputError::Csv {
                file: self.file.clone(),
                at: RowRef {
                    row: first_row + 1,
                    line: lines.first().copied(),
                },
                message: e.to_string(),
            })?;
        Ok(Some((batch, lines)))
    }
}

/// Whether a role's column is read as a dictionary column (labels, predictions, groups).
fn coded(setting: &str) -> bool {
    matches!(setting, "label" | "pred" | "sensitive")
}

/// One column of a batch being read.
enum Column {
    /// Few distinct values: each stored once, rows as keys.
    Coded(StringDictionaryBuilder<Int32Type>),
    /// Numbers as text.
    Text(StringBuilder),
}

impl Column {
    /// Appends a field (`None`: empty, i.e. missing).
    fn append(&mut self, v: Option<&str>) -> Result<(), String> {
        match (self, v) {
            (Column::Coded(b), Some(v)) => b.append(v).map(|_| ()).map_err(|e| e.to_string()),
            (Column::Coded(b), None) => {
                b.append_null();
                Ok(())
            }
            (Column::Text(b), v) => {
                b.append_option(v);
                Ok(())
            }
        }
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            Column::Coded(b) => Arc::new(b.finish()),
            Column::Text(b) => Arc::new(b.finish()),
        }
    }
}

/// The "did you mean" of a missing column when the header is one field holding another common
/// delimiter (a `;`-, tab- or `|`-separated file read with `,`): the delimiter it holds most of.
fn delimiter_hint(headers: &csv::StringRecord, delimiter: u8) -> String {
    let [field] = headers.iter().collect::<Vec<_>>()[..] else {
        return String::new();
    };
    let best = [b',', b';', b'\t', b'|']
        .into_iter()
        .filter(|&d| d != delimiter)
        .map(|d| (field.bytes().filter(|&b| b == d).count(), d))
        .filter(|&(n, _)| n > 0)
        .max_by_key(|&(n, _)| n);
    match best {
        Some((_, b'\t')) => "; the header looks tab-separated: try --delimiter '\\t'".to_string(),
        Some((_, d)) => {
            let d = char::from(d);
            format!("; the header looks '{d}'-separated: try --delimiter '{d}'")
        }
        None => String::new(),
    }
}

/// Whether the file's first line ends with CRLF. The csv crate counts a record's line before it
/// consumes the `\n` of the previous record's CRLF terminator, so in a CRLF file every data
/// record's line is one short (BurntSushi/rust-csv#395): the reader adds the line back.
/// A compressed file is decompressed for this look; a failure here is reported by the read proper.
fn first_line_ends_crlf(file: &Path) -> bool {
    let mut head = Vec::with_capacity(1 << 16);
    let ok = compression::open(file)
        .is_ok_and(|o| o.reader.take(1 << 16).read_to_end(&mut head).is_ok());
    ok && head
        .iter()
        .position(|&b| b == b'\n')
        .is_some_and(|i| i > 0 && head[i - 1] == b'\r')
}

fn csv_error(file: &Path, e: csv::Error, row: u64, line_fix: u64) -> InputError {
    let line = e.position().map(|p| p.line() + line_fix);
    let at = RowRef { row, line };
    let message = e.to_string();
    match e.into_kind() {
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => InputError::RaggedRow {
            file: file.to_path_buf(),
            at,
            expected: expected_len,
            got: len,
        },
        csv::ErrorKind::Io(source) => {
            compression::corrupt(file, &source).unwrap_or_else(|| InputError::Io {
                file: file.to_path_buf(),
                source,
            })
        }
        _ => InputError::Csv {
            file: file.to_path_buf(),
            at,
            message,
        },
    }
}
