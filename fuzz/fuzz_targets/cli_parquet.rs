//! The `fairkit audit` Parquet reader (the CLI's `input` module) on structured files: a real
//! Parquet file written by arrow-rs from fuzzed columns (each role in any supported or
//! unsupported Arrow type, nulls, dictionaries, any codec, tiny row groups and pages), then
//! optionally corrupted at fuzzed offsets. Invariants: no panic escapes the reader (arrow-rs
//! panics on corrupt pages are caught by the CLI's guard and become typed errors), and every
//! batch is typed as the audit expects (`fairkit_fuzz::read_all`).
#![no_main]

use arbitrary::Arbitrary;
use arrow_array::builder::StringDictionaryBuilder;
use arrow_array::types::Int32Type;
use arrow_array::{
    ArrayRef, BooleanArray, Float32Array, Float64Array, Int8Array, Int64Array, RecordBatch,
    StringArray, UInt64Array,
};
use fairkit_fuzz::input::{ColumnSpec, Format, ReadOptions};
use fairkit_fuzz::{read_all, scratch};
use libfuzzer_sys::fuzz_target;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, GzipLevel, ZstdLevel};
use parquet::file::properties::WriterProperties;
use std::sync::Arc;

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Kind {
    Utf8,
    Dict,
    I64,
    U64,
    I8,
    F64,
    F32,
    Bool,
}

#[derive(Arbitrary, Debug)]
struct Column {
    kind: Kind,
    /// Cell values (`None` = null), cycled to the row count.
    values: Vec<Option<i64>>,
    floats: Vec<f64>,
}

#[derive(Arbitrary, Debug)]
struct Input {
    rows: u8,
    columns: Vec<Column>,
    pred: bool,
    score: bool,
    two_sensitive: bool,
    weight: bool,
    codec: u8,
    row_group: u8,
    page_rows: u8,
    dictionary: bool,
    batch_rows: u8,
    pos_label: u8,
    neg_label: Option<u8>,
    corrupt: Vec<(u16, u8)>,
}

const NAMES: [&str; 6] = ["y", "yhat", "s", "g", "h", "w"];
const LABELS: [&str; 5] = ["1", "0", "true", "a", "-1"];

fn array(c: &Column, n: usize) -> ArrayRef {
    let v = |i: usize| -> Option<i64> {
        if c.values.is_empty() {
            Some(i as i64 % 2)
        } else {
            c.values[i % c.values.len()]
        }
    };
    let f = |i: usize| -> Option<f64> {
        if c.floats.is_empty() {
            v(i).map(|x| x as f64 / 3.0)
        } else {
            Some(c.floats[i % c.floats.len()])
        }
    };
    match c.kind {
        Kind::Utf8 => Arc::new(StringArray::from_iter(
            (0..n).map(|i| v(i).map(|x| (x % 4).to_string())),
        )),
        Kind::Dict => {
            let mut b = StringDictionaryBuilder::<Int32Type>::new();
            for i in 0..n {
                match v(i) {
                    Some(x) => {
                        b.append_value(format!("v{}", x % 3));
                    }
                    None => b.append_null(),
                }
            }
            Arc::new(b.finish())
        }
        Kind::I64 => Arc::new(Int64Array::from_iter((0..n).map(v))),
        Kind::U64 => Arc::new(UInt64Array::from_iter(
            (0..n).map(|i| v(i).map(|x| x as u64)),
        )),
        Kind::I8 => Arc::new(Int8Array::from_iter((0..n).map(|i| v(i).map(|x| x as i8)))),
        Kind::F64 => Arc::new(Float64Array::from_iter((0..n).map(f))),
        Kind::F32 => Arc::new(Float32Array::from_iter(
            (0..n).map(|i| f(i).map(|x| x as f32)),
        )),
        Kind::Bool => Arc::new(BooleanArray::from_iter(
            (0..n).map(|i| v(i).map(|x| x & 1 == 1)),
        )),
    }
}

fuzz_target!(|input: Input| {
    let n = input.rows as usize % 48;
    let columns: Vec<(String, ArrayRef)> = input
        .columns
        .iter()
        .take(7)
        .enumerate()
        .map(|(i, c)| {
            (
                NAMES.get(i).map_or(format!("x{i}"), |s| s.to_string()),
                array(c, n),
            )
        })
        .collect();
    if columns.is_empty() {
        return;
    }
    let Ok(batch) = RecordBatch::try_from_iter(columns) else {
        return;
    };
    let codec = match input.codec % 4 {
        0 => Compression::UNCOMPRESSED,
        1 => Compression::SNAPPY,
        2 => Compression::GZIP(GzipLevel::default()),
        _ => Compression::ZSTD(ZstdLevel::default()),
    };
    let props = WriterProperties::builder()
        .set_compression(codec)
        .set_max_row_group_row_count(Some(input.row_group as usize % 16 + 1))
        .set_data_page_row_count_limit(input.page_rows as usize % 8 + 1)
        .set_write_batch_size(input.page_rows as usize % 8 + 1)
        .set_dictionary_enabled(input.dictionary)
        .build();
    let mut bytes = Vec::new();
    {
        let mut w = ArrowWriter::try_new(&mut bytes, batch.schema(), Some(props)).expect("writer");
        w.write(&batch).expect("write");
        w.close().expect("close");
    }
    let len = bytes.len();
    for &(at, b) in input.corrupt.iter().take(4) {
        let i = at as usize % len;
        bytes[i] = b;
    }
    let spec = ColumnSpec {
        label: "y".into(),
        pred: input.pred.then(|| "yhat".into()),
        score: input.score.then(|| "s".into()),
        sensitive: if input.two_sensitive {
            vec!["g".into(), "h".into()]
        } else {
            vec!["g".into()]
        },
        weight: input.weight.then(|| "w".into()),
        numeric: false,
        unlabeled: false,
        missing_groups: false,
        rank: None,
        relevance: None,
        query: false,
        inferred: Vec::new(),
        proxy: None,
    };
    let options = ReadOptions {
        format: Some(Format::Parquet),
        delimiter: b',',
        batch_rows: input.batch_rows as usize % 9 + 1,
        pos_label: LABELS[input.pos_label as usize % LABELS.len()].into(),
        neg_label: input
            .neg_label
            .map(|k| LABELS[k as usize % LABELS.len()].into()),
        timezone: None,
        unknowns: None,
        style: fair_audit::ingest::FlagStyle::Command,
    };
    let file = scratch("parquet");
    std::fs::write(&file, &bytes).expect("scratch file");
    if let Ok(rows) = read_all(&file, &spec, &options) {
        if input.corrupt.is_empty() {
            assert_eq!(rows, n as u64);
        }
    }
});
