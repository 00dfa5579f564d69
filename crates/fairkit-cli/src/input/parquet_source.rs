//! Parquet input through arrow-rs: only the needed columns are decoded (a projection), one
//! record batch at a time, handed to the audit's one decoder (`fair_audit::ingest`). Column
//! types are checked against their role before any row is read.

use crate::error::InputError;
use arrow_array::RecordBatch;
use arrow_schema::{DataType, Field, Schema};
use fair_audit::ingest::Decoder;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{
    ArrowReaderOptions, ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder,
};
use parquet::file::metadata::ParquetMetaData;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub(super) struct ParquetSource {
    file: PathBuf,
    reader: ParquetRecordBatchReader,
}

fn parquet_error(file: &Path, e: impl std::fmt::Display) -> InputError {
    InputError::Parquet {
        file: file.to_path_buf(),
        message: e.to_string(),
    }
}

/// The file's row count from its footer, checked: every row group's count must be `>= 0`, their
/// sum must fit a `usize` (arrow-rs adds them as `usize` with a plain `+` when it plans the read:
/// a corrupted count made it panic with "attempt to add with overflow", or wrap and read a wrong
/// number of rows), it must equal the file's own row count, and each flat column chunk must hold
/// as many values (nulls included) as its row group has rows. arrow-rs reads only as many rows
/// as the row groups claim, so without the last two checks a corrupted count silently drops rows.
fn footer_rows(metadata: &ParquetMetaData) -> Result<u64, String> {
    let counts = metadata.row_groups().iter().map(|rg| rg.num_rows());
    let sum = checked_row_sum(counts)?;
    for (i, rg) in metadata.row_groups().iter().enumerate() {
        let flat = rg
            .columns()
            .iter()
            .filter(|c| c.column_descr().max_rep_level() == 0);
        for c in flat {
            if c.num_values() != rg.num_rows() {
                return Err(format!(
                    "row group {i} has {} rows but its column '{}' holds {} values",
                    rg.num_rows(),
                    c.column_path(),
                    c.num_values()
                ));
            }
        }
    }
    let declared = metadata.file_metadata().num_rows();
    if u64::try_from(declared).ok() != Some(sum) {
        return Err(format!(
            "the file declares {declared} rows but its row groups hold {sum}"
        ));
    }
    Ok(sum)
}

/// The sum of the row groups' row counts, or why they cannot be a file's.
fn checked_row_sum(counts: impl IntoIterator<Item = i64>) -> Result<u64, String> {
    let mut sum: usize = 0;
    for (i, n) in counts.into_iter().enumerate() {
        let rows = usize::try_from(n)
            .map_err(|_| format!("row group {i} has a row count of {n} (must be >= 0)"))?;
        sum = sum.checked_add(rows).ok_or_else(|| {
            format!(
                "the row groups' row counts sum beyond {} (row group {i})",
                usize::MAX
            )
        })?;
    }
    u64::try_from(sum).map_err(|_| format!("{sum} rows is more than a u64 can count"))
}

/// The file's rows, from its checked footer, once its schema has the decoder's columns typed for
/// their roles: the reader probes every part this way before it reads a row of any.
pub(super) fn probe(file: &Path, decoder: &Decoder) -> Result<u64, InputError> {
    probe_schema(file, decoder).map(|(rows, _)| rows)
}

fn probe_schema(file: &Path, decoder: &Decoder) -> Result<(u64, Arc<Schema>), InputError> {
    let f = File::open(file).map_err(|source| InputError::Io {
        file: file.to_path_buf(),
        source,
    })?;
    let builder = crate::guard::guarded(|| ParquetRecordBatchReaderBuilder::try_new(f))
        .map_err(|m| parquet_error(file, format!("corrupt metadata: {m}")))?
        .map_err(|e| parquet_error(file, e))?;
    let rows = footer_rows(builder.metadata())
        .map_err(|m| parquet_error(file, format!("corrupt footer: {m}")))?;
    let schema = builder.schema().clone();
    decoder.check_schema(&schema)?;
    Ok((rows, schema))
}

impl ParquetSource {
    pub(super) fn open(
        file: &Path,
        decoder: &Decoder,
        batch_rows: usize,
    ) -> Result<Self, InputError> {
        let (_, schema) = probe_schema(file, decoder)?;
        let spec = decoder.roles();
        let roots: Vec<usize> = spec
            .named()
            .iter()
            .filter_map(|(c, _)| schema.index_of(c).ok())
            .collect();
        // Read text sensitive columns as dictionaries (Parquet stores them dictionary-encoded
        // anyway): each distinct name is then looked up once per batch, not once per row.
        let fields: Vec<Field> = schema
            .fields()
            .iter()
            .map(|f| {
                let text = matches!(f.data_type(), DataType::Utf8 | DataType::LargeUtf8);
                if text && spec.sensitive.iter().any(|s| s == f.name()) {
                    f.as_ref().clone().with_data_type(DataType::Dictionary(
                        Box::new(DataType::Int32),
                        Box::new(f.data_type().clone()),
                    ))
                } else {
                    f.as_ref().clone()
                }
            })
            .collect();
        let hinted = Arc::new(Schema::new_with_metadata(fields, schema.metadata().clone()));
        let f = File::open(file).map_err(|source| InputError::Io {
            file: file.to_path_buf(),
            source,
        })?;
        let builder = crate::guard::guarded(|| {
            ParquetRecordBatchReaderBuilder::try_new_with_options(
                f,
                ArrowReaderOptions::new().with_schema(hinted),
            )
        })
        .map_err(|m| parquet_error(file, format!("corrupt metadata: {m}")))?
        .map_err(|e| parquet_error(file, e))?;
        let mask = ProjectionMask::roots(builder.parquet_schema(), roots);
        // The footer was checked above; the guard is a safety net for what arrow-rs derives
        // from the rest of the metadata while planning the read.
        let reader = crate::guard::guarded(|| {
            builder
                .with_projection(mask)
                .with_batch_size(batch_rows.max(1))
                .build()
        })
        .map_err(|m| parquet_error(file, format!("corrupt metadata: {m}")))?
        .map_err(|e| parquet_error(file, e))?;
        Ok(Self {
            file: file.to_path_buf(),
            reader,
        })
    }

    /// The next non-empty record batch, or `None` at the end of the file.
    pub(super) fn next_batch(&mut self) -> Result<Option<RecordBatch>, InputError> {
        loop {
            let next = crate::guard::guarded(|| self.reader.next())
                .map_err(|m| parquet_error(&self.file, format!("corrupt data: {m}")))?;
            let rb = match next {
                None => return Ok(None),
                Some(r) => r.map_err(|e| parquet_error(&self.file, e))?,
            };
            if rb.num_rows() > 0 {
                return Ok(Some(rb));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{checked_row_sum, footer_rows};
    use arrow_array::{Int64Array, RecordBatch};
    use parquet::arrow::ArrowWriter;
    use parquet::file::metadata::{FileMetaData, ParquetMetaData, ParquetMetaDataReader};
    use std::sync::Arc;

    /// The footer of a 4-row, one-column file written by arrow-rs.
    fn footer() -> ParquetMetaData {
        let a = Arc::new(Int64Array::from(vec![1, 0, 1, 0]));
        let batch = RecordBatch::try_from_iter([("y", a as _)]).unwrap();
        let file = tempfile::tempfile().unwrap();
        let mut w = ArrowWriter::try_new(file.try_clone().unwrap(), batch.schema(), None).unwrap();
        w.write(&batch).unwrap();
        w.close().unwrap();
        ParquetMetaDataReader::new()
            .parse_and_finish(&file)
            .unwrap()
    }

    #[test]
    fn the_file_row_count_must_match_its_row_groups() {
        let meta = footer();
        assert_eq!(footer_rows(&meta), Ok(4));
        let f = meta.file_metadata();
        let declared_5 = FileMetaData::new(
            f.version(),
            5,
            f.created_by().map(str::to_string),
            f.key_value_metadata().cloned(),
            f.schema_descr_ptr(),
            f.column_orders().cloned(),
        );
        let forged = ParquetMetaData::new(declared_5, meta.row_groups().to_vec());
        let e = footer_rows(&forged).unwrap_err();
        assert!(e.contains("declares 5 rows") && e.contains("hold 4"), "{e}");
    }

    #[test]
    fn row_group_counts_are_summed_without_overflow() {
        assert_eq!(checked_row_sum([3, 0, 7]), Ok(10));
        assert_eq!(checked_row_sum([]), Ok(0));
        // Three counts each valid for an i64 whose sum is not a usize: the class of the fuzz
        // crash (arrow-rs summed them with `+`).
        let e = checked_row_sum([i64::MAX, i64::MAX, 2]).unwrap_err();
        assert!(e.contains("sum beyond") && e.contains("row group 2"), "{e}");
        let e = checked_row_sum([4, -1]).unwrap_err();
        assert!(e.contains("row group 1") && e.contains("-1"), "{e}");
        assert!(checked_row_sum([i64::MIN]).is_err());
    }
}
