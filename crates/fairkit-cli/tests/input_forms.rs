//! The input forms users have beside one plain file (issue 29): a folder of Parquet part files
//! as Spark writes it, a quoted pattern, several paths, and gzip/zstd compressed CSV. Each gives
//! the report of the same rows in one plain file (only `input.file` differs), and each bad form
//! (empty folder, a part missing a column or of another type, a truncated or fake compressed
//! file) exits 2 naming the file, never panicking.

mod common;

use arrow_array::{ArrayRef, RecordBatch, StringArray};
use common::{demo, fairkit, report, write};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use serde_json::Value;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Audits `inputs` with every role (weights, score, two sensitive columns) plus `extra` flags.
fn audit(inputs: &[&Path], out: &Path, extra: &[&str]) -> common::Run {
    let mut args = vec!["audit"];
    args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    args.extend_from_slice(&[
        "--label",
        "y",
        "--pred",
        "y_hat",
        "--score",
        "p",
        "--weight",
        "w",
        "--sensitive",
        "race,sex",
        "--interval",
        "0.05,0.3",
        "--resamples",
        "200",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    args.extend_from_slice(extra);
    fairkit(&args)
}

/// The report of a successful audit of `inputs`.
fn audited(inputs: &[&Path], out: &Path, extra: &[&str]) -> Value {
    let r = audit(inputs, out, extra);
    assert_eq!(r.code, 0, "{}", r.stderr);
    report(out)
}

/// Asserts exit 2, no panic, and every needle in stderr.
fn refused(r: &common::Run, needles: &[&str]) {
    assert_eq!(r.code, 2, "expected exit 2; stderr: {}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    for n in needles {
        assert!(r.stderr.contains(n), "stderr lacks {n:?}: {}", r.stderr);
    }
}

/// Asserts that two reports are identical but for `input.file`, and returns `a`'s file.
fn same_but_file(mut a: Value, mut b: Value) -> Value {
    let file = a["input"]["file"].take();
    b["input"]["file"] = Value::Null;
    assert_eq!(a, b);
    file
}

/// The record batches of a Parquet file, `rows` rows each.
fn batches(file: &Path, rows: usize) -> Vec<RecordBatch> {
    ParquetRecordBatchReaderBuilder::try_new(File::open(file).unwrap())
        .unwrap()
        .with_batch_size(rows)
        .build()
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// Writes `batch` as a snappy Parquet file.
fn write_parquet(path: &Path, batch: &RecordBatch) {
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .build();
    let mut w =
        ArrowWriter::try_new(File::create(path).unwrap(), batch.schema(), Some(props)).unwrap();
    w.write(batch).unwrap();
    w.close().unwrap();
}

/// A Spark-style output folder of `parts`: the part files (written last to first, so the listing
/// order is not the reading order), `_SUCCESS`, hidden checksums and a `_common_metadata`.
fn spark_folder(dir: &Path, name: &str, parts: &[RecordBatch]) -> PathBuf {
    let out = dir.join(name);
    std::fs::create_dir(&out).unwrap();
    for (i, b) in parts.iter().enumerate().rev() {
        let part = format!("part-{i:05}-4f0c2a9e-c000.snappy.parquet");
        write_parquet(&out.join(&part), b);
        std::fs::write(out.join(format!(".{part}.crc")), b"crc\x00garbage").unwrap();
    }
    std::fs::write(out.join("_SUCCESS"), b"").unwrap();
    std::fs::write(out.join("_common_metadata"), b"not parquet").unwrap();
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn zstd(bytes: &[u8]) -> Vec<u8> {
    zstd::stream::encode_all(bytes, 3).unwrap()
}

#[test]
fn a_spark_folder_a_pattern_and_several_paths_equal_the_single_file() {
    let dir = tempfile::tempdir().unwrap();
    let single = demo(dir.path(), "d.parquet", "3000", &[]);
    // Uneven parts, the last one short.
    let parts = batches(&single, 1100);
    assert_eq!(parts.len(), 3);
    let folder = spark_folder(dir.path(), "out.parquet", &parts);
    let one = audited(&[&single], &dir.path().join("r1"), &[]);

    let by_folder = audited(&[&folder], &dir.path().join("r2"), &[]);
    assert_eq!(by_folder["input"]["format"], "parquet");
    assert_eq!(by_folder["input"]["rows"], 3000);
    let file = same_but_file(by_folder, one.clone());
    assert_eq!(file, folder.display().to_string());

    // Batches smaller than a part, crossing no part boundary, change nothing either.
    let small = audited(&[&folder], &dir.path().join("r3"), &["--batch-rows", "250"]);
    same_but_file(small, one.clone());

    let pattern = folder.join("part-*.parquet");
    let by_pattern = audited(&[&pattern], &dir.path().join("r4"), &[]);
    let file = same_but_file(by_pattern, one.clone());
    assert_eq!(file, pattern.display().to_string());

    let names: Vec<PathBuf> = (0..3)
        .map(|i| folder.join(format!("part-{i:05}-4f0c2a9e-c000.snappy.parquet")))
        .collect();
    let paths: Vec<&Path> = names.iter().map(PathBuf::as_path).collect();
    let by_paths = audited(&paths, &dir.path().join("r5"), &[]);
    same_but_file(by_paths, one);
}

#[test]
fn a_folder_of_csv_parts_equals_the_single_file() {
    let dir = tempfile::tempdir().unwrap();
    let single = demo(dir.path(), "d.csv", "1500", &[]);
    let text = std::fs::read_to_string(&single).unwrap();
    let (header, body) = text.split_once('\n').unwrap();
    let lines: Vec<&str> = body.lines().collect();
    let folder = dir.path().join("out.csv");
    std::fs::create_dir(&folder).unwrap();
    for (i, chunk) in lines.chunks(600).enumerate() {
        let part = format!("{header}\n{}\n", chunk.join("\n"));
        write(&folder, &format!("part-{i:05}.csv"), &part);
    }
    write(&folder, "_SUCCESS", "");
    let one = audited(&[&single], &dir.path().join("r1"), &[]);
    let parts = audited(&[&folder], &dir.path().join("r2"), &[]);
    same_but_file(parts, one);
}

#[test]
fn gzip_and_zstd_csv_equal_the_plain_file() {
    let dir = tempfile::tempdir().unwrap();
    let single = demo(dir.path(), "d.csv", "3000", &[]);
    let bytes = std::fs::read(&single).unwrap();
    let gz = dir.path().join("d.csv.gz");
    std::fs::write(&gz, gzip(&bytes)).unwrap();
    let zst = dir.path().join("d.csv.zst");
    std::fs::write(&zst, zstd(&bytes)).unwrap();
    // Two gzip members, as bgzip or `cat a.gz b.gz` write them.
    let (head, tail) = bytes.split_at(bytes.len() / 2);
    let multi = dir.path().join("multi.csv.gz");
    std::fs::write(&multi, [gzip(head), gzip(tail)].concat()).unwrap();
    // A compressed file whose name says nothing, read with a forced format.
    let bin = dir.path().join("d.bin");
    std::fs::write(&bin, zstd(&bytes)).unwrap();

    let one = audited(&[&single], &dir.path().join("r0"), &[]);
    for (i, f) in [&gz, &zst, &multi].into_iter().enumerate() {
        let r = audited(&[f], &dir.path().join(format!("r{}", i + 1)), &[]);
        assert_eq!(r["input"]["format"], "csv");
        let file = same_but_file(r, one.clone());
        assert_eq!(file, f.display().to_string());
    }
    let forced = audited(&[&bin], &dir.path().join("r9"), &["--input-format", "csv"]);
    same_but_file(forced, one);
}

#[test]
fn bad_cells_are_numbered_across_parts_and_name_the_part() {
    let dir = tempfile::tempdir().unwrap();
    let single = demo(dir.path(), "d.parquet", "900", &[]);
    let mut parts = batches(&single, 300);
    // Row 5 of the second part gets a third label value: row 305 of the input.
    let b = &parts[1];
    let i = b.schema().index_of("y").unwrap();
    let y = arrow_cast(b.column(i));
    let mut values: Vec<Option<String>> = y.iter().map(|v| v.map(str::to_string)).collect();
    values[4] = Some("7".into());
    parts[1] = with_text_column(b, i, values);
    let folder = spark_folder(dir.path(), "out", &parts);
    let r = audit(&[&folder], &dir.path().join("r"), &[]);
    refused(
        &r,
        &[
            "part-00001-4f0c2a9e-c000.snappy.parquet",
            "row 305",
            "column 'y'",
            "'7'",
        ],
    );
}

/// The demo's integer label column as text.
fn arrow_cast(a: &ArrayRef) -> StringArray {
    let ints = a
        .as_any()
        .downcast_ref::<arrow_array::Int64Array>()
        .expect("the demo writes Int64 labels");
    ints.iter().map(|v| v.map(|v| v.to_string())).collect()
}

#[test]
fn empty_folders_and_patterns_matching_nothing_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.parquet");
    std::fs::create_dir(&empty).unwrap();
    let r = audit(&[&empty], &dir.path().join("r"), &[]);
    refused(&r, &["empty.parquet", "no input files", "no part files"]);

    // Only the writer's markers: still nothing to read.
    std::fs::write(empty.join("_SUCCESS"), b"").unwrap();
    std::fs::write(empty.join(".part-0.crc"), b"x").unwrap();
    let r = audit(&[&empty], &dir.path().join("r"), &[]);
    refused(&r, &["empty.parquet", "no part files"]);

    let pattern = dir.path().join("data").join("*.parquet");
    let r = audit(&[&pattern], &dir.path().join("r"), &[]);
    refused(&r, &["*.parquet", "nothing matches the pattern"]);

    // A partitioned dataset (sub-folders) is named, not half read.
    let nested = dir.path().join("nested");
    std::fs::create_dir_all(nested.join("year=2024")).unwrap();
    let r = audit(&[&nested], &dir.path().join("r"), &[]);
    refused(&r, &["year=2024", "partitioned"]);
}

#[test]
fn a_part_missing_a_column_or_of_another_type_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let single = demo(dir.path(), "d.parquet", "600", &[]);
    let parts = batches(&single, 300);

    let p = parts[1].schema().index_of("p").unwrap();
    let mut without_p = parts.clone();
    without_p[1].remove_column(p);
    let folder = spark_folder(dir.path(), "missing", &without_p);
    let r = audit(&[&folder], &dir.path().join("r"), &[]);
    refused(
        &r,
        &[
            "missing/part-00001-4f0c2a9e-c000.snappy.parquet",
            "'p'",
            "--score",
        ],
    );

    let mut text_p = parts.clone();
    let b = &parts[1];
    let scores: Vec<String> = (0..b.num_rows()).map(|k| format!("{k}")).collect();
    text_p[1] = with_text_column(b, p, scores.into_iter().map(Some).collect());
    let folder = spark_folder(dir.path(), "typed", &text_p);
    let r = audit(&[&folder], &dir.path().join("r"), &[]);
    refused(
        &r,
        &[
            "typed/part-00001-4f0c2a9e-c000.snappy.parquet",
            "column 'p'",
            "Utf8",
            "the score",
        ],
    );

    // A CSV part among Parquet parts.
    let mixed = spark_folder(dir.path(), "mixed", &parts);
    write(&mixed, "part-00002.csv", "y\n1\n");
    let r = audit(&[&mixed], &dir.path().join("r"), &[]);
    refused(&r, &["part-00002.csv", "one format"]);
}

#[test]
fn truncated_corrupt_and_fake_compressed_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let single = demo(dir.path(), "d.csv", "3000", &[]);
    let bytes = std::fs::read(&single).unwrap();

    let gz = gzip(&bytes);
    let cut = dir.path().join("cut.csv.gz");
    std::fs::write(&cut, &gz[..gz.len() / 2]).unwrap();
    let r = audit(&[&cut], &dir.path().join("r"), &[]);
    refused(&r, &["cut.csv.gz", "gzip", "truncated or corrupt"]);

    // The same truncated stream under a plain name, read because --input-format csv is forced.
    let forced = dir.path().join("cut.data");
    std::fs::write(&forced, &gz[..gz.len() / 2]).unwrap();
    let r = audit(
        &[&forced],
        &dir.path().join("r"),
        &["--input-format", "csv"],
    );
    refused(&r, &["cut.data", "gzip", "truncated or corrupt"]);

    let zst = zstd(&bytes);
    let cut = dir.path().join("cut.csv.zst");
    std::fs::write(&cut, &zst[..zst.len() / 2]).unwrap();
    let r = audit(&[&cut], &dir.path().join("r"), &[]);
    refused(&r, &["cut.csv.zst", "zstd", "truncated or corrupt"]);

    // Bytes flipped in the middle of the deflate stream: the stream is parsed as it is inflated,
    // so the garbage may first fail as CSV; either way the run stops naming the file.
    let mut bad = gz.clone();
    let mid = bad.len() / 2;
    for b in &mut bad[mid..mid + 64] {
        *b ^= 0x5a;
    }
    let corrupt = dir.path().join("corrupt.csv.gz");
    std::fs::write(&corrupt, &bad).unwrap();
    let r = audit(&[&corrupt], &dir.path().join("r"), &[]);
    refused(&r, &["corrupt.csv.gz"]);
    // A wrong CRC (the last 8 bytes are CRC-32 and length): every row parses, the check fails.
    let mut bad = gz.clone();
    let crc = bad.len() - 8;
    bad[crc] ^= 0xff;
    std::fs::write(&corrupt, &bad).unwrap();
    let r = audit(&[&corrupt], &dir.path().join("r"), &[]);
    refused(&r, &["corrupt.csv.gz", "gzip", "truncated or corrupt"]);

    let fake = write(dir.path(), "fake.csv.gz", "y,y_hat\n1,0\n");
    let r = audit(&[&fake], &dir.path().join("r"), &[]);
    refused(&r, &["fake.csv.gz", "gzip", "magic bytes 1f 8b"]);
    let fake = write(dir.path(), "fake.csv.zst", "\u{1f}\u{8b} garbage");
    let r = audit(&[&fake], &dir.path().join("r"), &[]);
    refused(&r, &["fake.csv.zst", "zstd", "magic bytes 28 b5 2f fd"]);

    // A .parquet.gz is no format: the message lists the forms that are.
    let odd = write(dir.path(), "d.parquet.gz", "x");
    let r = audit(&[&odd], &dir.path().join("r"), &[]);
    refused(&r, &["d.parquet.gz", ".csv.gz", "folder", "--input-format"]);
}

/// `b` with its column `i` replaced by a text column of `values` (same name).
fn with_text_column(b: &RecordBatch, i: usize, values: Vec<Option<String>>) -> RecordBatch {
    let mut columns = b.columns().to_vec();
    columns[i] = Arc::new(StringArray::from(values)) as ArrayRef;
    let mut fields: Vec<arrow_schema::Field> = b
        .schema()
        .fields()
        .iter()
        .map(|f| f.as_ref().clone())
        .collect();
    fields[i] = arrow_schema::Field::new(fields[i].name(), arrow_schema::DataType::Utf8, true);
    RecordBatch::try_new(Arc::new(arrow_schema::Schema::new(fields)), columns).unwrap()
}
