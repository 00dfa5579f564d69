//! CSV input through the `csv` crate: RFC-4180 quoting, a header row, any one-byte delimiter.
//! One reused record buffer, so reading allocates nothing per row.

use super::{Batch, ColumnSpec, Decoders, Progress, ReadOptions, list_columns};
use crate::error::{InputError, RowRef};
use crate::input::coders::{NumberProblem, check_number, parse_number};
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

/// Column indices of each role in the header.
struct Indices {
    label: usize,
    pred: Option<usize>,
    score: Option<usize>,
    sensitive: Vec<usize>,
    weight: Option<usize>,
}

pub(super) struct CsvSource {
    file: PathBuf,
    reader: csv::Reader<BufReader<File>>,
    record: csv::StringRecord,
    idx: Indices,
    spec: ColumnSpec,
    batch_rows: usize,
    size: u64,
    bytes: u64,
    header_len: u64,
}

impl CsvSource {
    pub(super) fn open(
        file: &Path,
        spec: &ColumnSpec,
        options: &ReadOptions,
        size: u64,
    ) -> Result<Self, InputError> {
        let f = File::open(file).map_err(|source| InputError::Io {
            file: file.to_path_buf(),
            source,
        })?;
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(options.delimiter)
            .has_headers(true)
            .flexible(false)
            .from_reader(BufReader::with_capacity(1 << 20, f));
        let headers = reader.headers().map_err(|e| csv_error(file, e, 0))?.clone();
        if headers.is_empty() {
            return Err(InputError::EmptyFile {
                file: file.to_path_buf(),
                what: "no header",
            });
        }
        let find = |column: &str, flag: &'static str| {
            headers
                .iter()
                .position(|h| h.trim() == column)
                .ok_or_else(|| InputError::MissingColumn {
                    file: file.to_path_buf(),
                    column: column.to_string(),
                    flag,
                    available: list_columns(headers.iter()),
                })
        };
        let idx = Indices {
            label: find(&spec.label, "--label")?,
            pred: spec
                .pred
                .as_deref()
                .map(|c| find(c, "--pred"))
                .transpose()?,
            score: spec
                .score
                .as_deref()
                .map(|c| find(c, "--score"))
                .transpose()?,
            sensitive: spec
                .sensitive
                .iter()
                .map(|c| find(c, "--sensitive"))
                .collect::<Result<_, _>>()?,
            weight: spec
                .weight
                .as_deref()
                .map(|c| find(c, "--weight"))
                .transpose()?,
        };
        Ok(Self {
            file: file.to_path_buf(),
            reader,
            record: csv::StringRecord::new(),
            idx,
            spec: spec.clone(),
            batch_rows: options.batch_rows.max(1),
            size,
            bytes: 0,
            header_len: headers.len() as u64,
        })
    }

    pub(super) fn progress(&self) -> Progress {
        Progress::Bytes {
            done: self.bytes.min(self.size),
            total: self.size,
        }
    }

    pub(super) fn next_batch(
        &mut self,
        dec: &mut Decoders,
        first_row: u64,
    ) -> Result<Option<Batch>, InputError> {
        let mut batch = Batch::with_capacity(&self.spec, self.batch_rows, first_row);
        while batch.len() < self.batch_rows {
            let row = first_row + batch.len() as u64 + 1;
            let more = self
                .reader
                .read_record(&mut self.record)
                .map_err(|e| csv_error(&self.file, e, row))?;
            if !more {
                break;
            }
            if self.record.len() as u64 != self.header_len {
                // Only reachable with a one-field header, which the csv crate lets through.
                return Err(InputError::RaggedRow {
                    file: self.file.clone(),
                    at: self.at(row),
                    expected: self.header_len,
                    got: self.record.len() as u64,
                });
            }
            self.decode_row(dec, &mut batch, row)?;
        }
        self.bytes = self.reader.position().byte();
        Ok((!batch.is_empty()).then_some(batch))
    }

    fn at(&self, row: u64) -> RowRef {
        RowRef {
            row,
            line: self.record.position().map(|p| p.line()),
        }
    }

    fn decode_row(
        &self,
        dec: &mut Decoders,
        batch: &mut Batch,
        row: u64,
    ) -> Result<(), InputError> {
        let r = &self.record;
        let at = || self.at(row);
        let label = field(r, self.idx.label);
        if label.is_empty() {
            return Err(dec.missing(&self.spec.label, "label", at()));
        }
        let y = dec.label(label, &self.spec.label, at)?;
        batch.labels.push(y);
        if let (Some(i), Some(preds), Some(col)) =
            (self.idx.pred, batch.preds.as_mut(), &self.spec.pred)
        {
            let v = field(r, i);
            if v.is_empty() {
                return Err(dec.missing(col, "prediction", at()));
            }
            preds.push(dec.label(v, col, at)?);
        }
        if let (Some(i), Some(scores), Some(col)) =
            (self.idx.score, batch.scores.as_mut(), &self.spec.score)
        {
            scores.push(number(dec, field(r, i), col, "the score", false, at())?);
        }
        for ((&i, codes), (dict, col)) in self
            .idx
            .sensitive
            .iter()
            .zip(batch.sensitive.iter_mut())
            .zip(dec.groups.iter_mut().zip(&self.spec.sensitive))
        {
            let v = field(r, i);
            if v.is_empty() {
                return Err(InputError::MissingValue {
                    file: self.file.clone(),
                    at: at(),
                    column: col.clone(),
                    what: "sensitive value",
                });
            }
            codes.push(dict.code(v));
        }
        if let (Some(i), Some(weights), Some(col)) =
            (self.idx.weight, batch.weights.as_mut(), &self.spec.weight)
        {
            weights.push(number(dec, field(r, i), col, "the weight", true, at())?);
        }
        Ok(())
    }
}

fn field(r: &csv::StringRecord, i: usize) -> &str {
    r.get(i).unwrap_or("").trim()
}

fn number(
    dec: &Decoders,
    text: &str,
    column: &str,
    what: &'static str,
    non_negative: bool,
    at: RowRef,
) -> Result<f64, InputError> {
    if text.is_empty() {
        return Err(dec.missing(column, if non_negative { "weight" } else { "score" }, at));
    }
    parse_number(text)
        .and_then(|v| check_number(v, non_negative))
        .map_err(|p: NumberProblem| dec.number_error(p, text.to_string(), column, what, at))
}

fn csv_error(file: &Path, e: csv::Error, row: u64) -> InputError {
    let line = e.position().map(|p| p.line());
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
        csv::ErrorKind::Io(source) => InputError::Io {
            file: file.to_path_buf(),
            source,
        },
        _ => InputError::Csv {
            file: file.to_path_buf(),
            at,
            message,
        },
    }
}
