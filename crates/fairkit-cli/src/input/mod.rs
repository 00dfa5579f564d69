//! The input layer: a predictions file (CSV or Parquet) read batch by batch as Arrow record
//! batches and decoded by the audit's one decoder ([`fair_audit::ingest::Decoder`], the same
//! code Python and Spark decode with).
//!
//! Only the columns named on the command line are read; memory is one batch
//! (`--batch-rows`, default 65,536 rows) whatever the file size. Every bad cell is a typed
//! error naming the file, row and column.

mod csv_source;
mod parquet_source;

pub use fair_audit::ingest::{Decoded as Batch, Roles as ColumnSpec};

use crate::error::InputError;
use fair_audit::ingest::{Decoder, FlagStyle, LabelPair, Typing};
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

/// The `--groups` values of each column that never appeared.
///
/// # Errors
/// [`InputError::EmptyGroup`] for the first declared group without rows.
pub fn check_declared(
    file: &Path,
    decoder: &Decoder,
    declared: &[(String, Vec<String>)],
) -> Result<(), InputError> {
    for (column, values) in declared {
        let Some(a) = decoder.roles().sensitive.iter().position(|s| s == column) else {
            continue;
        };
        if let Some(v) = values.iter().find(|v| decoder.groups()[a].get(v).is_none()) {
            return Err(InputError::EmptyGroup {
                file: file.to_path_buf(),
                column: column.clone(),
                group: v.clone(),
            });
        }
    }
    Ok(())
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
    decoder: Decoder,
    format: Format,
    file: PathBuf,
}

impl Reader {
    /// Opens `file`, checks that every column of `spec` is present and, for Parquet, typed
    /// suitably for its role.
    ///
    /// # Errors
    /// [`InputError`] naming what is wrong.
    pub fn open(file: &Path, spec: &ColumnSpec, options: &ReadOptions) -> Result<Self, InputError> {
        let format = options
            .format
            .or_else(|| Format::from_extension(file))
            .ok_or_else(|| InputError::UnknownFormat {
                file: file.to_path_buf(),
            })?;
        let decoder = Decoder::new(
            spec.clone(),
            LabelPair::new(&options.pos_label, options.neg_label.as_deref()),
            &file.display().to_string(),
            match format {
                Format::Csv => Typing::Text,
                Format::Parquet => Typing::Typed,
            },
            FlagStyle::Command,
        )?;
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
            Format::Parquet => Source::Parquet(parquet_source::ParquetSource::open(
                file,
                &decoder,
                options.batch_rows,
            )?),
        };
        Ok(Self {
            source,
            decoder,
            format,
            file: file.to_path_buf(),
        })
    }

    /// The next batch, or `None` at the end of the file.
    ///
    /// # Errors
    /// [`InputError`] for the first bad cell, ragged row or unreadable page, and
    /// [`InputError::EmptyFile`] when the file ends without a data row.
    pub fn next_batch(&mut self) -> Result<Option<Batch>, InputError> {
        let rows = self.decoder.rows();
        let decoded = match &mut self.source {
            Source::Csv(s) => match s.next_batch(rows)? {
                Some((batch, lines)) => Some(self.decoder.decode(&batch, Some(&lines))?),
                None => None,
            },
            Source::Parquet(s) => match s.next_batch()? {
                Some(batch) => Some(self.decoder.decode(&batch, None)?),
                None => None,
            },
        };
        match decoded {
            None if self.decoder.rows() == 0 => Err(InputError::EmptyFile {
                file: self.file.clone(),
                what: "no data rows",
            }),
            other => Ok(other),
        }
    }

    /// Rows read so far.
    pub fn rows(&self) -> u64 {
        self.decoder.rows()
    }

    /// The format being read.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The decoder: label coder, group dictionaries and finest groups built so far.
    pub fn decoder(&self) -> &Decoder {
        &self.decoder
    }

    /// Progress for a progress bar.
    pub fn progress(&self) -> Progress {
        match &self.source {
            Source::Csv(s) => s.progress(),
            Source::Parquet(s) => Progress::Rows {
                done: self.decoder.rows(),
                total: s.total_rows(),
            },
        }
    }
}
