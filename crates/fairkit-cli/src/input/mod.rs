//! The input layer: a predictions file (CSV or Parquet) read batch by batch into typed columns.
//!
//! Only the columns named on the command line are decoded; memory is one batch
//! (`--batch-rows`, default 65,536 rows) whatever the file size. Every bad cell is a typed
//! [`InputError`] naming the file, row and column.

mod coders;
mod csv_source;
mod parquet_source;

pub use coders::{FxHashMap, GroupDictionary, LabelCoder};

use crate::error::{InputError, RowRef};
use coders::NumberProblem;
use std::path::{Path, PathBuf};

/// Which file format to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Delimited text with a header row.
    Csv,
    /// Apache Parquet (snappy, gzip, zstd or uncompressed pages).
    Parquet,
}

impl Format {
    /// The format's name as the report writes it ("csv", "parquet").
    pub fn name(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Parquet => "parquet",
        }
    }

    /// The format named by a file's extension (`.csv`, `.tsv`, `.txt`, `.parquet`, `.pq`).
    pub fn from_extension(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "csv" | "tsv" | "txt" => Some(Format::Csv),
            "parquet" | "pq" | "parq" => Some(Format::Parquet),
            _ => None,
        }
    }
}

/// The columns an audit reads, by role.
#[derive(Debug, Clone)]
pub struct ColumnSpec {
    /// True labels.
    pub label: String,
    /// Predicted labels (if absent, predictions come from the score and thresholds).
    pub pred: Option<String>,
    /// Scores (probabilities or margins).
    pub score: Option<String>,
    /// Sensitive attributes (one or more).
    pub sensitive: Vec<String>,
    /// Sample weights.
    pub weight: Option<String>,
}

impl ColumnSpec {
    /// Every (column, flag) pair, in role order.
    pub fn roles(&self) -> Vec<(&str, &'static str)> {
        let mut out = vec![(self.label.as_str(), "--label")];
        if let Some(p) = &self.pred {
            out.push((p, "--pred"));
        }
        if let Some(s) = &self.score {
            out.push((s, "--score"));
        }
        for s in &self.sensitive {
            out.push((s, "--sensitive"));
        }
        if let Some(w) = &self.weight {
            out.push((w, "--weight"));
        }
        out
    }

    /// Rejects a column used in two roles (a sensitive column that is also the label, …).
    ///
    /// # Errors
    /// [`InputError::DuplicateColumn`].
    pub fn check_distinct(&self) -> Result<(), InputError> {
        let roles = self.roles();
        for (i, (a, fa)) in roles.iter().enumerate() {
            if let Some((_, fb)) = roles[i + 1..].iter().find(|(b, _)| b == a) {
                return Err(InputError::DuplicateColumn {
                    column: a.to_string(),
                    first: fa,
                    second: fb,
                });
            }
        }
        Ok(())
    }
}

/// Options of the reader.
#[derive(Debug, Clone)]
pub struct ReadOptions {
    /// Force a format instead of guessing from the extension.
    pub format: Option<Format>,
    /// CSV field delimiter.
    pub delimiter: u8,
    /// Rows per batch.
    pub batch_rows: usize,
    /// The positive label value.
    pub pos_label: String,
    /// The negative label value, if declared.
    pub neg_label: Option<String>,
}

/// One batch of typed rows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Batch {
    /// 0-based index of this batch's first row in the file.
    pub first_row: u64,
    /// Labels, 0/1.
    pub labels: Vec<usize>,
    /// Predictions, 0/1 (when a prediction column is read).
    pub preds: Option<Vec<usize>>,
    /// Scores, finite.
    pub scores: Option<Vec<f64>>,
    /// Group code per row, one vector per sensitive column (codes index [`Decoders::groups`]).
    pub sensitive: Vec<Vec<u32>>,
    /// Weights, finite and `>= 0`.
    pub weights: Option<Vec<f64>>,
}

impl Batch {
    fn with_capacity(spec: &ColumnSpec, n: usize, first_row: u64) -> Self {
        Self {
            first_row,
            labels: Vec::with_capacity(n),
            preds: spec.pred.as_ref().map(|_| Vec::with_capacity(n)),
            scores: spec.score.as_ref().map(|_| Vec::with_capacity(n)),
            sensitive: spec
                .sensitive
                .iter()
                .map(|_| Vec::with_capacity(n))
                .collect(),
            weights: spec.weight.as_ref().map(|_| Vec::with_capacity(n)),
        }
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether the batch has no rows.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }
}

/// The state shared by all batches of a file: the label coder and the group dictionaries.
#[derive(Debug, Clone)]
pub struct Decoders {
    file: PathBuf,
    spec: ColumnSpec,
    /// The label / prediction coder.
    pub labels: LabelCoder,
    /// One dictionary per sensitive column.
    pub groups: Vec<GroupDictionary>,
}

impl Decoders {
    fn new(file: &Path, spec: &ColumnSpec, options: &ReadOptions) -> Self {
        Self {
            file: file.to_path_buf(),
            spec: spec.clone(),
            labels: LabelCoder::new(&options.pos_label, options.neg_label.as_deref()),
            groups: vec![GroupDictionary::default(); spec.sensitive.len()],
        }
    }

    fn label(
        &mut self,
        value: &str,
        column: &str,
        at: impl Fn() -> RowRef,
    ) -> Result<usize, InputError> {
        self.labels
            .code(value)
            .ok_or_else(|| InputError::LabelOutsidePair {
                file: self.file.clone(),
                at: at(),
                column: column.to_string(),
                value: value.to_string(),
                positive: self.labels.positive().to_string(),
                negative: self.labels.negative_for_message(),
            })
    }

    fn number_error(
        &self,
        problem: NumberProblem,
        text: String,
        column: &str,
        what: &'static str,
        at: RowRef,
    ) -> InputError {
        let file = self.file.clone();
        let column = column.to_string();
        match problem {
            NumberProblem::NotNumeric => InputError::NotNumeric {
                file,
                at,
                column,
                value: text,
                what,
            },
            NumberProblem::NonFinite(v) => InputError::NonFinite {
                file,
                at,
                column,
                value: v.to_string(),
                what,
            },
            NumberProblem::Negative(value) => InputError::NegativeWeight {
                file,
                at,
                column,
                value,
            },
        }
    }

    fn missing(&self, column: &str, what: &'static str, at: RowRef) -> InputError {
        InputError::MissingValue {
            file: self.file.clone(),
            at,
            column: column.to_string(),
            what,
        }
    }

    /// The declared groups of `--groups` that never appeared.
    ///
    /// # Errors
    /// [`InputError::EmptyGroup`] for the first declared group without rows.
    pub fn check_declared(&self, declared: &[(String, Vec<String>)]) -> Result<(), InputError> {
        for (column, values) in declared {
            let Some(a) = self.spec.sensitive.iter().position(|s| s == column) else {
                continue;
            };
            if let Some(v) = values.iter().find(|v| self.groups[a].get(v).is_none()) {
                return Err(InputError::EmptyGroup {
                    file: self.file.clone(),
                    column: column.clone(),
                    group: v.clone(),
                });
            }
        }
        Ok(())
    }
}

/// How far the reader is, for the progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// Bytes read of the file's size (CSV).
    Bytes {
        /// Read so far.
        done: u64,
        /// File size.
        total: u64,
    },
    /// Rows read of the rows in the file's metadata (Parquet).
    Rows {
        /// Read so far.
        done: u64,
        /// Rows in the file.
        total: u64,
    },
}

enum Source {
    Csv(csv_source::CsvSource),
    Parquet(parquet_source::ParquetSource),
}

/// A predictions file opened for batch-by-batch reading.
pub struct Reader {
    source: Source,
    decoders: Decoders,
    format: Format,
    rows: u64,
    file: PathBuf,
}

impl Reader {
    /// Opens `file`, checks that every column of `spec` is present and, for Parquet, typed
    /// suitably for its role.
    ///
    /// # Errors
    /// [`InputError`] naming what is wrong.
    pub fn open(file: &Path, spec: &ColumnSpec, options: &ReadOptions) -> Result<Self, InputError> {
        spec.check_distinct()?;
        let format = options
            .format
            .or_else(|| Format::from_extension(file))
            .ok_or_else(|| InputError::UnknownFormat {
                file: file.to_path_buf(),
            })?;
        let meta = std::fs::metadata(file).map_err(|source| InputError::Io {
            file: file.to_path_buf(),
            source,
        })?;
        if meta.len() == 0 {
            return Err(InputError::EmptyFile {
                file: file.to_path_buf(),
                what: "0 bytes",
            });
        }
        let source = match format {
            Format::Csv => Source::Csv(csv_source::CsvSource::open(
                file,
                spec,
                options,
                meta.len(),
            )?),
            Format::Parquet => {
                Source::Parquet(parquet_source::ParquetSource::open(file, spec, options)?)
            }
        };
        Ok(Self {
            source,
            decoders: Decoders::new(file, spec, options),
            format,
            rows: 0,
            file: file.to_path_buf(),
        })
    }

    /// The next batch, or `None` at the end of the file.
    ///
    /// # Errors
    /// [`InputError`] for the first bad cell, ragged row or unreadable page, and
    /// [`InputError::EmptyFile`] when the file ends without a data row.
    pub fn next_batch(&mut self) -> Result<Option<Batch>, InputError> {
        let batch = match &mut self.source {
            Source::Csv(s) => s.next_batch(&mut self.decoders, self.rows)?,
            Source::Parquet(s) => s.next_batch(&mut self.decoders, self.rows)?,
        };
        match batch {
            Some(b) => {
                self.rows += b.len() as u64;
                Ok(Some(b))
            }
            None if self.rows == 0 => Err(InputError::EmptyFile {
                file: self.file.clone(),
                what: "no data rows",
            }),
            None => Ok(None),
        }
    }

    /// Rows read so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// The format being read.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The label coder and group dictionaries built so far.
    pub fn decoders(&self) -> &Decoders {
        &self.decoders
    }

    /// Progress for a progress bar.
    pub fn progress(&self) -> Progress {
        match &self.source {
            Source::Csv(s) => s.progress(),
            Source::Parquet(s) => Progress::Rows {
                done: self.rows,
                total: s.total_rows(),
            },
        }
    }
}

/// The file's columns, comma-separated, for "missing column" messages.
fn list_columns<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let v: Vec<&str> = names.collect();
    if v.is_empty() {
        "(none)".into()
    } else {
        v.join(", ")
    }
}
