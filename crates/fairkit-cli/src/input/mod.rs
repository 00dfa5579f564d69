//! The input layer: a predictions file (CSV, compressed CSV or Parquet) or a folder or pattern
//! of part files, read batch by batch as Arrow record batches and decoded by the audit's one
//! decoder ([`fair_audit::ingest::Decoder`], the same code Python and Spark decode with). The
//! parts of an input are read one after the other into one decoder, so the rows, the row numbers
//! in messages and the report are those of one file holding the parts' rows in order.
//!
//! Only the columns named on the command line are read; memory is one batch
//! (`--batch-rows`, default 65,536 rows) whatever the file size. Every bad cell is a typed
//! error naming the file, row and column.

mod compression;
mod csv_source;
mod parquet_source;
mod parts;

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

    /// The format named by a file's extension (`.csv`, `.tsv`, `.txt`, `.parquet`, `.pq`), also
    /// under a compression extension (`.csv.gz`, `.tsv.zst`: CSV only, Parquet compresses its
    /// pages itself).
    pub fn from_extension(path: &Path) -> Option<Self> {
        let compressed = compression::Codec::from_extension(path).is_some();
        let inner = if compressed {
            Path::new(path.file_stem()?)
        } else {
            path
        };
        let ext = inner.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "csv" | "tsv" | "txt" => Some(Format::Csv),
            "parquet" | "pq" | "parq" if !compressed => Some(Format::Parquet),
            _ => None,
        }
    }

    /// Whether the file's extension names a compression (`.gz`, `.zst`): demo-data writes none.
    pub fn is_compressed_name(path: &Path) -> bool {
        compression::Codec::from_extension(path).is_some()
    }
}

/// The input as messages and the report name it: the paths given, joined by ", ".
pub fn describe(paths: &[PathBuf]) -> String {
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    shown.join(", ")
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
    /// `--timezone`: the zone whose days zoned timestamp group columns fall in.
    pub timezone: Option<chrono_tz::Tz>,
    /// `--unknowns` / `--unknown-values`: how unknown sensitive values are read (`None`: an
    /// unknown value is an error, or the group "" with [`ColumnSpec::missing_groups`]).
    pub unknowns: Option<fair_audit::ingest::UnknownGroups>,
    /// How messages name the options (`--label` for the command, `label=` for Python).
    pub style: FlagStyle,
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
    /// Bytes read of the files' sizes (CSV; compressed bytes for a compressed file).
    Bytes {
        /// Read so far.
        done: u64,
        /// Size of every file.
        total: u64,
    },
    /// Rows read of the rows in the files' footers (Parquet).
    Rows {
        /// Read so far.
        done: u64,
        /// Rows in every file.
        total: u64,
    },
}

enum Source {
    Csv(csv_source::CsvSource),
    Parquet(parquet_source::ParquetSource),
}

/// A predictions file, or the part files of a folder or pattern, opened for batch-by-batch
/// reading.
pub struct Reader {
    /// The files, in reading order, with their sizes in bytes.
    parts: Vec<(PathBuf, u64)>,
    /// The part being read (its index in `parts`), `None` before the first and after the last.
    current: Option<(usize, Source)>,
    /// Parts opened so far.
    opened: usize,
    decoder: Decoder,
    format: Format,
    /// The input as given, for messages about the whole input.
    name: PathBuf,
    options: ReadOptions,
    /// Rows (Parquet) or bytes (CSV) of every part.
    total: u64,
    /// Bytes of the CSV parts already read.
    bytes_done: u64,
}

impl Reader {
    /// Opens `file` (a file, a folder of part files or a pattern); see [`Reader::open_all`].
    ///
    /// # Errors
    /// [`InputError`] naming what is wrong.
    pub fn open(file: &Path, spec: &ColumnSpec, options: &ReadOptions) -> Result<Self, InputError> {
        Self::open_all(&[file.to_path_buf()], spec, options)
    }

    /// Opens the files of `paths` (each a file, a folder of part files or a pattern), checks that
    /// they are of one format, that none is empty and, for Parquet, that every part has every
    /// column of `spec` typed suitably for its role (before any row is read). A CSV part's header
    /// is checked when the part is reached.
    ///
    /// # Errors
    /// [`InputError`] naming the file (the part file, for a folder or pattern) and what is wrong.
    pub fn open_all(
        paths: &[PathBuf],
        spec: &ColumnSpec,
        options: &ReadOptions,
    ) -> Result<Self, InputError> {
        let files = parts::expand(paths)?;
        let format = one_format(&files, options.format)?;
        let mut decoder = Decoder::new(
            spec.clone(),
            LabelPair::new(&options.pos_label, options.neg_label.as_deref()),
            &files[0].display().to_string(),
            match format {
                Format::Csv => Typing::Text,
                Format::Parquet => Typing::Typed,
            },
            options.style,
        )?;
        decoder.set_timezone(options.timezone);
        decoder.set_unknowns(options.unknowns.clone());
        let mut parts = Vec::with_capacity(files.len());
        let mut total = 0_u64;
        for file in files {
            let meta = std::fs::metadata(&file).map_err(|source| InputError::Io {
                file: file.clone(),
                source,
            })?;
            if meta.len() == 0 {
                return Err(InputError::EmptyFile {
                    file,
                    what: "0 bytes",
                });
            }
            total += match format {
                Format::Csv => meta.len(),
                Format::Parquet => {
                    decoder.set_origin(&file.display().to_string());
                    parquet_source::probe(&file, &decoder)?
                }
            };
            parts.push((file, meta.len()));
        }
        let mut reader = Self {
            parts,
            current: None,
            opened: 0,
            decoder,
            format,
            name: PathBuf::from(describe(paths)),
            options: options.clone(),
            total,
            bytes_done: 0,
        };
        // The first part opens now, so that a single CSV file's header is checked at open.
        reader.open_next()?;
        Ok(reader)
    }

    /// Opens the next part, if any, and names it in the decoder's messages.
    fn open_next(&mut self) -> Result<(), InputError> {
        if let Some((i, _)) = self.current.take() {
            self.bytes_done += self.parts[i].1;
        }
        let Some((file, size)) = self.parts.get(self.opened) else {
            return Ok(());
        };
        self.decoder.set_origin(&file.display().to_string());
        let source = match self.format {
            Format::Csv => Source::Csv(csv_source::CsvSource::open(
                file,
                self.decoder.roles(),
                &self.options,
                *size,
            )?),
            Format::Parquet => Source::Parquet(parquet_source::ParquetSource::open(
                file,
                &self.decoder,
                self.options.batch_rows,
            )?),
        };
        self.current = Some((self.opened, source));
        self.opened += 1;
        Ok(())
    }

    /// The next batch, or `None` after the last part.
    ///
    /// # Errors
    /// [`InputError`] for the first bad cell, ragged row or unreadable page, and
    /// [`InputError::EmptyFile`] when the input ends without a data row.
    pub fn next_batch(&mut self) -> Result<Option<Batch>, InputError> {
        while let Some((_, source)) = &mut self.current {
            let rows = self.decoder.rows();
            let decoded = match source {
                Source::Csv(s) => match s.next_batch(rows)? {
                    Some((batch, lines)) => Some(self.decoder.decode(&batch, Some(&lines))?),
                    None => None,
                },
                Source::Parquet(s) => match s.next_batch()? {
                    Some(batch) => Some(self.decoder.decode(&batch, None)?),
                    None => None,
                },
            };
            if decoded.is_some() {
                return Ok(decoded);
            }
            self.open_next()?;
        }
        if self.decoder.rows() == 0 {
            return Err(InputError::EmptyFile {
                file: self.name.clone(),
                what: "no data rows",
            });
        }
        Ok(None)
    }

    /// Rows read so far.
    pub fn rows(&self) -> u64 {
        self.decoder.rows()
    }

    /// The format being read.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The input as given (the paths joined by ", "), as the report names it.
    pub fn name(&self) -> &Path {
        &self.name
    }

    /// The decoder: label coder, group dictionaries and finest groups built so far.
    pub fn decoder(&self) -> &Decoder {
        &self.decoder
    }

    /// Progress for a progress bar.
    pub fn progress(&self) -> Progress {
        match self.format {
            Format::Csv => Progress::Bytes {
                done: self.bytes_done
                    + match &self.current {
                        Some((_, Source::Csv(s))) => s.bytes_read(),
                        _ => 0,
                    },
                total: self.total,
            },
            Format::Parquet => Progress::Rows {
                done: self.decoder.rows(),
                total: self.total,
            },
        }
    }
}

/// The format of every file: forced, or told by each file's extension, and the same for all.
fn one_format(files: &[PathBuf], forced: Option<Format>) -> Result<Format, InputError> {
    if let Some(f) = forced {
        return Ok(f);
    }
    let mut first: Option<(&PathBuf, Format)> = None;
    for file in files {
        let format = Format::from_extension(file)
            .ok_or_else(|| InputError::UnknownFormat { file: file.clone() })?;
        match first {
            None => first = Some((file, format)),
            Some((f0, format0)) if format0 != format => {
                return Err(InputError::MixedFormats {
                    file: file.clone(),
                    format: format.name(),
                    first: f0.clone(),
                    first_format: format0.name(),
                });
            }
            Some(_) => {}
        }
    }
    first.map(|(_, f)| f).ok_or_else(|| InputError::NoParts {
        path: PathBuf::new(),
        why: "no path given".into(),
    })
}
