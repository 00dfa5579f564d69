//! Parquet input through arrow-rs: only the needed columns are decoded (a projection), one
//! record batch at a time. Column types are checked against their role before any row is read.

use super::{Batch, ColumnSpec, Decoders, ReadOptions, list_columns};
use crate::error::{InputError, RowRef};
use crate::input::coders::check_number;
use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type,
    UInt32Type, UInt64Type,
};
use arrow_array::{Array, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{
    ArrowReaderOptions, ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder,
};
use parquet::file::metadata::ParquetMetaData;
use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a column is used for, which decides the Arrow types it may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Label or prediction: any two values.
    Label,
    /// Sensitive attribute: text, integers or booleans.
    Group,
    /// Score or weight: numbers.
    Number,
}

impl Role {
    fn accepts(self, t: &DataType) -> bool {
        let int = t.is_integer();
        let float = matches!(t, DataType::Float32 | DataType::Float64);
        let text = matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View);
        let boolean = matches!(t, DataType::Boolean);
        match self {
            Role::Number => int || float,
            Role::Label => match t {
                DataType::Dictionary(_, v) => Role::Label.accepts(v),
                _ => int || float || text || boolean,
            },
            Role::Group => match t {
                DataType::Dictionary(_, v) => Role::Group.accepts(v),
                _ => int || text || boolean,
            },
        }
    }

    fn expected(self) -> &'static str {
        match self {
            Role::Label => "boolean, integer, floating-point or text (two distinct values)",
            Role::Group => "text, integer or boolean (floating-point values make poor group names)",
            Role::Number => "integer or floating-point",
        }
    }
}

/// One cell of a supported Arrow type, borrowed from its array.
#[derive(Debug, Clone, Copy)]
enum Cell<'a> {
    Null,
    Str(&'a str),
    Int(i64),
    UInt(u64),
    Float(f64),
    Bool(bool),
}

/// A hashable key for the non-text cells, so their text form is built once per distinct value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum CellKey {
    Int(i64),
    UInt(u64),
    Float(u64),
    Bool(bool),
}

impl Cell<'_> {
    fn key(self) -> Option<CellKey> {
        match self {
            Cell::Int(v) => Some(CellKey::Int(v)),
            Cell::UInt(v) => Some(CellKey::UInt(v)),
            Cell::Float(v) => Some(CellKey::Float(v.to_bits())),
            Cell::Bool(v) => Some(CellKey::Bool(v)),
            Cell::Null | Cell::Str(_) => None,
        }
    }

    fn text(self) -> String {
        match self {
            Cell::Null => String::new(),
            Cell::Str(s) => s.to_string(),
            Cell::Int(v) => v.to_string(),
            Cell::UInt(v) => v.to_string(),
            Cell::Float(v) => v.to_string(),
            Cell::Bool(v) => v.to_string(),
        }
    }

    fn number(self) -> Option<f64> {
        match self {
            Cell::Int(v) => Some(v as f64),
            Cell::UInt(v) => Some(v as f64),
            Cell::Float(v) => Some(v),
            _ => None,
        }
    }
}

macro_rules! primitive_cells {
    ($arr:expr, $ty:ty, $variant:ident, $cast:ty, $f:expr) => {{
        let a = $arr.as_primitive::<$ty>();
        for (i, v) in a.values().iter().enumerate() {
            let cell = if a.is_null(i) {
                Cell::Null
            } else {
                Cell::$variant(*v as $cast)
            };
            $f(i, cell)?;
        }
    }};
}

/// `f(row, cell)` for every row of a boolean or string array (any offset width or view
/// layout), each value wrapped in the `Cell` variant named.
macro_rules! value_cells {
    ($a:expr, $variant:ident, $f:ident) => {{
        let a = $a;
        for i in 0..a.len() {
            let cell = if a.is_null(i) {
                Cell::Null
            } else {
                Cell::$variant(a.value(i))
            };
            $f(i, cell)?;
        }
    }};
}

/// Calls `f(row_in_batch, cell)` for every row of `arr` (a type accepted by some [`Role`]).
fn for_each_cell<'a>(
    arr: &'a dyn Array,
    f: &mut dyn FnMut(usize, Cell<'a>) -> Result<(), InputError>,
) -> Result<(), InputError> {
    match arr.data_type() {
        DataType::Boolean => value_cells!(arr.as_boolean(), Bool, f),
        DataType::Int8 => primitive_cells!(arr, Int8Type, Int, i64, f),
        DataType::Int16 => primitive_cells!(arr, Int16Type, Int, i64, f),
        DataType::Int32 => primitive_cells!(arr, Int32Type, Int, i64, f),
        DataType::Int64 => primitive_cells!(arr, Int64Type, Int, i64, f),
        DataType::UInt8 => primitive_cells!(arr, UInt8Type, UInt, u64, f),
        DataType::UInt16 => primitive_cells!(arr, UInt16Type, UInt, u64, f),
        DataType::UInt32 => primitive_cells!(arr, UInt32Type, UInt, u64, f),
        DataType::UInt64 => primitive_cells!(arr, UInt64Type, UInt, u64, f),
        DataType::Float32 => primitive_cells!(arr, Float32Type, Float, f64, f),
        DataType::Float64 => primitive_cells!(arr, Float64Type, Float, f64, f),
        DataType::Utf8 => value_cells!(arr.as_string::<i32>(), Str, f),
        DataType::LargeUtf8 => value_cells!(arr.as_string::<i64>(), Str, f),
        DataType::Utf8View => value_cells!(arr.as_string_view(), Str, f),
        DataType::Dictionary(_, _) => {
            let d = arr
                .as_any_dictionary_opt()
                .expect("a Dictionary data type is an AnyDictionaryArray");
            // Decode each dictionary entry once, then index by key.
            let mut values: Vec<Cell<'a>> = Vec::with_capacity(d.values().len());
            for_each_cell(d.values().as_ref(), &mut |_, c| {
                values.push(c);
                Ok(())
            })?;
            let keys = d.normalized_keys();
            let key_nulls = d.keys().logical_nulls();
            for (i, &k) in keys.iter().enumerate() {
                let null = key_nulls.as_ref().is_some_and(|n| n.is_null(i));
                let cell = if null {
                    Cell::Null
                } else {
                    values.get(k).copied().unwrap_or(Cell::Null)
                };
                f(i, cell)?;
            }
        }
        // Types are checked against the role when the file is opened; this is a safety net.
        other => {
            return Err(InputError::Parquet {
                file: PathBuf::from("(input)"),
                message: format!("unsupported column type {other}"),
            });
        }
    }
    Ok(())
}

pub(super) struct ParquetSource {
    file: PathBuf,
    reader: ParquetRecordBatchReader,
    spec: ColumnSpec,
    total_rows: u64,
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

impl ParquetSource {
    pub(super) fn open(
        file: &Path,
        spec: &ColumnSpec,
        options: &ReadOptions,
    ) -> Result<Self, InputError> {
        let f = File::open(file).map_err(|source| InputError::Io {
            file: file.to_path_buf(),
            source,
        })?;
        let builder = crate::guard::guarded(|| ParquetRecordBatchReaderBuilder::try_new(f))
            .map_err(|m| parquet_error(file, format!("corrupt metadata: {m}")))?
            .map_err(|e| parquet_error(file, e))?;
        let total_rows = footer_rows(builder.metadata())
            .map_err(|m| parquet_error(file, format!("corrupt footer: {m}")))?;
        let schema = builder.schema().clone();
        let mut roots = Vec::new();
        let mut role_of = |column: &str,
                           flag: &'static str,
                           role: Role|
         -> Result<(), InputError> {
            let (i, field) =
                schema
                    .column_with_name(column)
                    .ok_or_else(|| InputError::MissingColumn {
                        file: file.to_path_buf(),
                        column: column.to_string(),
                        flag,
                        available: list_columns(schema.fields().iter().map(|f| f.name().as_str())),
                    })?;
            if !role.accepts(field.data_type()) {
                return Err(InputError::WrongType {
                    file: file.to_path_buf(),
                    column: column.to_string(),
                    found: field.data_type().to_string(),
                    what: match flag {
                        "--label" => "the label",
                        "--pred" => "the prediction",
                        "--score" => "the score",
                        "--weight" => "the weight",
                        _ => "a sensitive column",
                    },
                    expected: role.expected(),
                });
            }
            roots.push(i);
            Ok(())
        };
        role_of(&spec.label, "--label", Role::Label)?;
        if let Some(c) = &spec.pred {
            role_of(c, "--pred", Role::Label)?;
        }
        if let Some(c) = &spec.score {
            role_of(c, "--score", Role::Number)?;
        }
        for c in &spec.sensitive {
            role_of(c, "--sensitive", Role::Group)?;
        }
        if let Some(c) = &spec.weight {
            role_of(c, "--weight", Role::Number)?;
        }
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
                .with_batch_size(options.batch_rows.max(1))
                .build()
        })
        .map_err(|m| parquet_error(file, format!("corrupt metadata: {m}")))?
        .map_err(|e| parquet_error(file, e))?;
        Ok(Self {
            file: file.to_path_buf(),
            reader,
            spec: spec.clone(),
            total_rows,
        })
    }

    pub(super) fn total_rows(&self) -> u64 {
        self.total_rows
    }

    pub(super) fn next_batch(
        &mut self,
        dec: &mut Decoders,
        first_row: u64,
    ) -> Result<Option<Batch>, InputError> {
        loop {
            let next = crate::guard::guarded(|| self.reader.next())
                .map_err(|m| parquet_error(&self.file, format!("corrupt data: {m}")))?;
            let rb = match next {
                None => return Ok(None),
                Some(r) => r.map_err(|e| parquet_error(&self.file, e))?,
            };
            if rb.num_rows() == 0 {
                continue;
            }
            return self.decode(dec, &rb, first_row).map(Some);
        }
    }

    fn column<'b>(&self, rb: &'b RecordBatch, name: &str) -> &'b dyn Array {
        rb.column_by_name(name)
            .expect("the projection holds every column of the spec")
            .as_ref()
    }

    fn decode(
        &self,
        dec: &mut Decoders,
        rb: &RecordBatch,
        first_row: u64,
    ) -> Result<Batch, InputError> {
        let n = rb.num_rows();
        let mut batch = Batch::with_capacity(&self.spec, n, first_row);
        let at = |i: usize| RowRef {
            row: first_row + i as u64 + 1,
            line: None,
        };
        decode_labels(
            dec,
            self.column(rb, &self.spec.label),
            &self.spec.label,
            "label",
            &mut batch.labels,
            &at,
        )?;
        if let (Some(col), Some(out)) = (&self.spec.pred, batch.preds.as_mut()) {
            decode_labels(dec, self.column(rb, col), col, "prediction", out, &at)?;
        }
        if let (Some(col), Some(out)) = (&self.spec.score, batch.scores.as_mut()) {
            decode_numbers(dec, self.column(rb, col), col, false, out, &at)?;
        }
        for (a, col) in self.spec.sensitive.iter().enumerate() {
            let arr = self.column(rb, col);
            decode_groups(dec, a, arr, col, &mut batch.sensitive[a], &at)?;
        }
        if let (Some(col), Some(out)) = (&self.spec.weight, batch.weights.as_mut()) {
            decode_numbers(dec, self.column(rb, col), col, true, out, &at)?;
        }
        Ok(batch)
    }
}

fn decode_labels(
    dec: &mut Decoders,
    arr: &dyn Array,
    column: &str,
    what: &'static str,
    out: &mut Vec<usize>,
    at: &dyn Fn(usize) -> RowRef,
) -> Result<(), InputError> {
    // At most two valid values: a tiny cache keeps non-text columns from formatting each cell.
    let mut cache: Vec<(CellKey, usize)> = Vec::with_capacity(2);
    for_each_cell(arr, &mut |i, cell| {
        let code = match cell {
            Cell::Null => return Err(dec.missing(column, what, at(i))),
            Cell::Str(s) => dec.label(s, column, || at(i))?,
            other => {
                let key = other.key().expect("non-text, non-null cells have a key");
                match cache.iter().find(|(k, _)| *k == key) {
                    Some(&(_, c)) => c,
                    None => {
                        let c = dec.label(&other.text(), column, || at(i))?;
                        cache.push((key, c));
                        c
                    }
                }
            }
        };
        out.push(code);
        Ok(())
    })
}

fn decode_groups(
    dec: &mut Decoders,
    attribute: usize,
    arr: &dyn Array,
    column: &str,
    out: &mut Vec<u32>,
    at: &dyn Fn(usize) -> RowRef,
) -> Result<(), InputError> {
    let file = dec.file.clone();
    let dict = &mut dec.groups[attribute];
    let missing = |i: usize| InputError::MissingValue {
        file: file.clone(),
        at: at(i),
        column: column.to_string(),
        what: "sensitive value",
    };
    if let Some(d) = arr.as_any_dictionary_opt() {
        // Each dictionary entry is mapped to a group on first use (an entry no row uses must
        // not become a group), then rows are mapped by key.
        let mut cells: Vec<Cell<'_>> = Vec::with_capacity(d.values().len());
        for_each_cell(d.values().as_ref(), &mut |_, c| {
            cells.push(c);
            Ok(())
        })?;
        let mut mapped: Vec<Option<u32>> = vec![None; cells.len()];
        let key_nulls = d.keys().logical_nulls();
        for (i, k) in d.normalized_keys().into_iter().enumerate() {
            let cell = match cells.get(k) {
                Some(c) if !key_nulls.as_ref().is_some_and(|n| n.is_null(i)) => *c,
                _ => Cell::Null,
            };
            let code = match (mapped.get(k).copied().flatten(), cell) {
                (_, Cell::Null) => return Err(missing(i)),
                (Some(c), _) => c,
                (None, Cell::Str(s)) => dict.code(s),
                (None, other) => dict.code(&other.text()),
            };
            if let Some(m) = mapped.get_mut(k) {
                *m = Some(code);
            }
            out.push(code);
        }
        return Ok(());
    }
    let mut cache: HashMap<CellKey, u32> = HashMap::new();
    for_each_cell(arr, &mut |i, cell| {
        let code = match cell {
            Cell::Null => return Err(missing(i)),
            Cell::Str(s) => dict.code(s),
            other => {
                let key = other.key().expect("non-text, non-null cells have a key");
                *cache.entry(key).or_insert_with(|| dict.code(&other.text()))
            }
        };
        out.push(code);
        Ok(())
    })
}

fn decode_numbers(
    dec: &Decoders,
    arr: &dyn Array,
    column: &str,
    non_negative: bool,
    out: &mut Vec<f64>,
    at: &dyn Fn(usize) -> RowRef,
) -> Result<(), InputError> {
    let (what, role) = if non_negative {
        ("the weight", "weight")
    } else {
        ("the score", "score")
    };
    for_each_cell(arr, &mut |i, cell| {
        let v = match cell.number() {
            Some(v) => v,
            None => return Err(dec.missing(column, role, at(i))),
        };
        let v = check_number(v, non_negative)
            .map_err(|p| dec.number_error(p, cell.text(), column, what, at(i)))?;
        out.push(v);
        Ok(())
    })
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
