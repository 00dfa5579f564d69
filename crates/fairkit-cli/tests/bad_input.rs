//! Every bad input of issue 13 gets exit code 2 and a message naming the file, row and column
//! (never a panic).

mod common;

use arrow_array::{ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use common::{GOOD_CSV, audit, fairkit, report, write};
use parquet::arrow::ArrowWriter;
use std::path::Path;
use std::sync::Arc;

/// Runs the audit with a prediction column and asserts exit 2 with every `needles` in stderr.
fn rejects(file: &Path, extra: &[&str], needles: &[&str]) {
    let out = file.parent().unwrap().join("out");
    let mut flags = vec!["--pred", "y_hat"];
    flags.extend_from_slice(extra);
    let r = audit(file, &out, &flags);
    assert_eq!(
        r.code, 2,
        "expected exit 2, got {}; stderr: {}",
        r.code, r.stderr
    );
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    for n in needles {
        assert!(r.stderr.contains(n), "stderr lacks {n:?}: {}", r.stderr);
    }
}

#[test]
fn a_good_file_passes() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "good.csv", GOOD_CSV);
    let r = audit(
        &f,
        &dir.path().join("out"),
        &["--pred", "y_hat", "--score", "p"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn missing_column() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "a.csv", GOOD_CSV);
    rejects(
        &f,
        &["--score", "prob"],
        &["a.csv", "'prob'", "--score", "y, y_hat, p, sex, w"],
    );
}

#[test]
fn non_numeric_score() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "a.csv", &GOOD_CSV.replace("0.6,f", "high,f"));
    rejects(
        &f,
        &["--score", "p"],
        &["a.csv", "row 2 (line 3)", "column 'p'", "'high'"],
    );
}

#[test]
fn nan_and_infinite_scores() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "a.csv", &GOOD_CSV.replace("0.3,m", "NaN,m"));
    rejects(
        &f,
        &["--score", "p"],
        &["row 6", "column 'p'", "NaN", "finite"],
    );
    let f = write(dir.path(), "b.csv", &GOOD_CSV.replace("0.3,m", "-inf,m"));
    rejects(&f, &["--score", "p"], &["b.csv", "row 6", "inf", "finite"]);
}

#[test]
fn label_outside_the_pair() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(
        dir.path(),
        "a.csv",
        &GOOD_CSV.replace("1,1,0.8,m", "2,1,0.8,m"),
    );
    rejects(
        &f,
        &[],
        &["a.csv", "row 5", "column 'y'", "'2'", "--pos-label"],
    );
    // A declared pair rejects a value that would otherwise have become the negative label.
    let f = write(dir.path(), "b.csv", GOOD_CSV);
    rejects(
        &f,
        &["--neg-label", "-1"],
        &["row 2 (line 3)", "column 'y'", "'0'"],
    );
}

#[test]
fn empty_file_and_header_only() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "empty.csv", "");
    rejects(&f, &[], &["empty.csv", "empty"]);
    let f = write(dir.path(), "header.csv", "y,y_hat,p,sex,w\n");
    rejects(&f, &[], &["header.csv", "no data rows"]);
    let f = write(dir.path(), "empty.parquet", "");
    rejects(&f, &[], &["empty.parquet", "empty"]);
}

#[test]
fn ragged_csv_row() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(
        dir.path(),
        "a.csv",
        &GOOD_CSV.replace("0,0,0.1,f,1.0", "0,0,0.1,f"),
    );
    rejects(
        &f,
        &[],
        &["a.csv", "row 4 (line 5)", "4 fields", "header has 5"],
    );
}

#[test]
fn quoted_fields_and_other_delimiters_read() {
    let dir = tempfile::tempdir().unwrap();
    let text = GOOD_CSV.replace(',', ";").replace(";f;", ";\"f; x\";");
    let f = write(dir.path(), "semi.csv", &text);
    let out = dir.path().join("out");
    let r = audit(&f, &out, &["--pred", "y_hat", "--delimiter", ";"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let groups = &common::report(&out)["audits"][0]["slices"][0]["groups"];
    assert_eq!(groups[0]["group"], "f; x");
    // The wrong delimiter: every row has one field, so the columns are missing.
    rejects(&f, &[], &["semi.csv", "column 'y'"]);
}

#[test]
fn declared_group_with_no_rows() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "a.csv", GOOD_CSV);
    rejects(
        &f,
        &["--groups", "sex=f,m,x"],
        &["a.csv", "group 'x'", "column 'sex'"],
    );
}

#[test]
fn missing_values_and_negative_weights() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(
        dir.path(),
        "a.csv",
        &GOOD_CSV.replace("0.2,m,1.0", "0.2,,1.0"),
    );
    rejects(&f, &[], &["row 8", "column 'sex'", "missing"]);
    let f = write(
        dir.path(),
        "b.csv",
        &GOOD_CSV.replace("0.2,m,1.0", "0.2,m,-1"),
    );
    rejects(&f, &["--weight", "w"], &["row 8", "column 'w'", "negative"]);
}

#[test]
fn bad_flags_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "a.csv", GOOD_CSV);
    rejects(&f, &["--confidence", "1.5"], &["--confidence"]);
    rejects(
        &f,
        &["--fail-if", "dp_diff>0.1"],
        &["unknown key 'dp_diff'"],
    );
    rejects(&f, &["--fail-if", "ks_dp>0.1"], &["ks_dp", "--score"]);
    rejects(
        &f,
        &["--score", "p", "--interval", "0.5,0.2"],
        &["--interval"],
    );
    rejects(&f, &["--memory-budget", "lots"], &["--memory-budget"]);
    // A budget so small the score rows spill, into a directory that does not exist.
    rejects(
        &f,
        &[
            "--score",
            "p",
            "--memory-budget",
            "8B",
            "--spill-dir",
            "/nonexistent/fairkit-spill",
        ],
        &["/nonexistent/fairkit-spill", "cannot write"],
    );
    // Neither a prediction column nor thresholds.
    let r = audit(&f, &dir.path().join("o"), &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--threshold"), "{}", r.stderr);
    // clap's own usage errors also exit 2.
    assert_eq!(fairkit(&["audit", "x.csv"]).code, 2);
}

fn write_parquet(path: &Path, score: ArrayRef) {
    let schema = Arc::new(Schema::new(vec![
        Field::new("y", DataType::Int64, false),
        Field::new("y_hat", DataType::Int64, false),
        Field::new("p", score.data_type().clone(), true),
        Field::new("sex", DataType::Utf8, false),
    ]));
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![
            Arc::new(Int64Array::from(vec![1, 0, 1, 0])),
            Arc::new(Int64Array::from(vec![1, 0, 0, 0])),
            score,
            Arc::new(StringArray::from(vec!["f", "f", "m", "m"])),
        ],
    )
    .unwrap();
    let mut w = ArrowWriter::try_new(std::fs::File::create(path).unwrap(), schema, None).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
}

#[test]
fn parquet_column_of_the_wrong_type() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("t.parquet");
    write_parquet(&f, Arc::new(StringArray::from(vec!["a", "b", "c", "d"])));
    rejects(
        &f,
        &["--score", "p"],
        &[
            "t.parquet",
            "column 'p'",
            "Utf8",
            "integer or floating-point",
        ],
    );
}

#[test]
fn parquet_null_and_nan_scores_name_the_row() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("n.parquet");
    write_parquet(
        &f,
        Arc::new(Float64Array::from(vec![
            Some(0.1),
            None,
            Some(0.3),
            Some(0.4),
        ])),
    );
    rejects(
        &f,
        &["--score", "p"],
        &["n.parquet", "row 2", "column 'p'", "missing"],
    );
    write_parquet(
        &f,
        Arc::new(Float64Array::from(vec![0.1, 0.2, f64::NAN, 0.4])),
    );
    rejects(
        &f,
        &["--score", "p"],
        &["n.parquet", "row 3", "column 'p'", "NaN"],
    );
}

#[test]
fn truncated_and_malformed_parquet() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("demo.parquet");
    let r = fairkit(&[
        "demo-data",
        "--rows",
        "5000",
        "--out",
        f.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let bytes = std::fs::read(&f).unwrap();
    let cut = dir.path().join("cut.parquet");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    rejects(&cut, &["--sensitive", "race"], &["cut.parquet", "Parquet"]);
    let junk = write(
        dir.path(),
        "junk.parquet",
        "this is not parquet at all, just text",
    );
    rejects(&junk, &[], &["junk.parquet", "Parquet"]);
    // A file whose footer is intact but whose pages are overwritten: an error, not a panic.
    let mut broken = bytes.clone();
    for b in broken.iter_mut().skip(64).take(bytes.len() / 3) {
        *b = 0xA5;
    }
    let bad = dir.path().join("pages.parquet");
    std::fs::write(&bad, &broken).unwrap();
    let out = dir.path().join("o");
    let r = audit(&bad, &out, &["--pred", "y_hat", "--sensitive", "race"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
}

/// A real Parquet file (written by arrow-rs, three row groups of two rows) whose footer is then
/// rewritten with the row groups' row counts replaced by `counts`: the footer corruption the
/// `cli_parquet` fuzz target found (see docs/reliability.md).
fn parquet_with_row_counts(path: &Path, counts: [i64; 3]) {
    use parquet::file::metadata::{ParquetMetaData, ParquetMetaDataReader, ParquetMetaDataWriter};
    use parquet::file::properties::WriterProperties;
    let schema = Arc::new(Schema::new(vec![
        Field::new("y", DataType::Int64, false),
        Field::new("y_hat", DataType::Int64, false),
        Field::new("sex", DataType::Utf8, false),
    ]));
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![
            Arc::new(Int64Array::from(vec![1, 0, 1, 0, 1, 0])),
            Arc::new(Int64Array::from(vec![1, 0, 0, 0, 1, 1])),
            Arc::new(StringArray::from(vec!["f", "f", "m", "m", "f", "m"])),
        ],
    )
    .unwrap();
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(2))
        .build();
    let mut bytes = Vec::new();
    let mut w = ArrowWriter::try_new(&mut bytes, schema, Some(props)).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    // The footer: Thrift metadata, its 4-byte length, "PAR1".
    let n = bytes.len();
    let meta_len = u32::from_le_bytes(bytes[n - 8..n - 4].try_into().unwrap()) as usize;
    let meta_start = n - 8 - meta_len;
    let meta = ParquetMetaDataReader::decode_metadata(&bytes[meta_start..n - 8]).unwrap();
    assert_eq!(meta.num_row_groups(), 3);
    let row_groups = meta
        .row_groups()
        .iter()
        .zip(counts)
        .map(|(rg, c)| rg.clone().into_builder().set_num_rows(c).build().unwrap())
        .collect();
    let forged = ParquetMetaData::new(meta.file_metadata().clone(), row_groups);
    bytes.truncate(meta_start);
    ParquetMetaDataWriter::new(&mut bytes, &forged)
        .finish()
        .unwrap();
    std::fs::write(path, &bytes).unwrap();
}

#[test]
fn parquet_footer_row_counts_that_overflow_or_are_negative() {
    let dir = tempfile::tempdir().unwrap();
    let ok = dir.path().join("ok.parquet");
    parquet_with_row_counts(&ok, [2, 2, 2]);
    let r = audit(&ok, &dir.path().join("o"), &["--pred", "y_hat"]);
    assert_eq!(r.code, 0, "the unforged rewrite reads: {}", r.stderr);
    // i64::MAX + (−1 read as a usize) overflowed inside arrow-rs's row-count sum (a panic with
    // overflow checks, a wrapped count without); a lone negative count is as corrupt.
    let f = dir.path().join("overflow.parquet");
    parquet_with_row_counts(&f, [i64::MAX, -1, 0]);
    rejects(
        &f,
        &[],
        &["overflow.parquet", "corrupt footer", "row group 1", "-1"],
    );
    parquet_with_row_counts(&f, [2, -2, 2]);
    rejects(
        &f,
        &[],
        &["overflow.parquet", "corrupt footer", "row group 1"],
    );
    // Counts that are valid alone but not this file's: arrow-rs reads only as many rows as the
    // row groups claim, so this file would silently lose a row.
    let short = dir.path().join("short.parquet");
    parquet_with_row_counts(&short, [2, 1, 2]);
    rejects(
        &short,
        &[],
        &[
            "short.parquet",
            "corrupt footer",
            "row group 1 has 1 rows",
            "holds 2 values",
        ],
    );
}

/// Issue 30: notes and errors speak of the data and the flags, never of the metrics' Rust API
/// (`ZeroDivision::Skip`, `Groups::compact()`).
#[test]
fn undefined_rates_are_explained_in_the_data_s_terms() {
    let dir = tempfile::tempdir().unwrap();
    // Group m has no positives: KS on positives (EO-Δ) is undefined, a note says why.
    let text = GOOD_CSV
        .replace("1,1,0.8,m", "0,1,0.8,m")
        .replace("1,1,0.7,m", "0,1,0.7,m");
    let f = write(dir.path(), "a.csv", &text);
    let out = dir.path().join("out");
    let r = audit(&f, &out, &["--pred", "y_hat", "--score", "p"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for name in ["report.json", "report.md", "report.html"] {
        let text = std::fs::read_to_string(out.join(name)).unwrap();
        assert!(!text.contains("ZeroDivision"), "{name}: {text}");
    }
    let notes = common::report(&out)["score_metrics"][0]["notes"].to_string();
    assert!(!notes.contains("::"), "{notes}");
    assert!(
        notes.contains("score distribution of positives is undefined for group \\\"m\\\""),
        "{notes}"
    );
    assert!(notes.contains("add such rows to the group"), "{notes}");
    // A group whose rows all weigh 0: exit 2, in terms of the weights.
    let f = write(
        dir.path(),
        "w.csv",
        &GOOD_CSV
            .replace("0.8,m,1.0", "0.8,m,0")
            .replace("0.3,m,1.5", "0.3,m,0")
            .replace("0.7,m,1.0", "0.7,m,0")
            .replace("0.2,m,1.0", "0.2,m,0"),
    );
    rejects(
        &f,
        &["--weight", "w"],
        &["group \"m\"", "no rows with a weight > 0", "weight column"],
    );
    let r = audit(
        &f,
        &dir.path().join("o"),
        &["--pred", "y_hat", "--weight", "w"],
    );
    assert!(!r.stderr.contains("::"), "{}", r.stderr);
}

/// Issue 30: a file read with the wrong delimiter has a one-field header; the missing-column
/// error says which delimiter the header holds.
#[test]
fn a_header_of_another_delimiter_suggests_it() {
    let dir = tempfile::tempdir().unwrap();
    for (name, d, hint) in [
        (
            "semi.csv",
            ";",
            "the header looks ';'-separated: try --delimiter ';'",
        ),
        (
            "pipe.csv",
            "|",
            "the header looks '|'-separated: try --delimiter '|'",
        ),
        (
            "tab.csv",
            "\t",
            "the header looks tab-separated: try --delimiter '\\t'",
        ),
    ] {
        let f = write(dir.path(), name, &GOOD_CSV.replace(',', d));
        rejects(&f, &[], &[name, "column 'y'", "(given by --label)", hint]);
    }
    // A semicolon file read with ';' but naming a column it lacks: no hint.
    let f = write(dir.path(), "semi2.csv", &GOOD_CSV.replace(',', ";"));
    let r = audit(
        &f,
        &dir.path().join("o"),
        &["--pred", "yhat", "--delimiter", ";"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("column 'yhat'"), "{}", r.stderr);
    assert!(!r.stderr.contains("--delimiter"), "{}", r.stderr);
}

/// Issue 30: a score named as the prediction (`--pred p`) keeps the third-value message and
/// suggests `--score` with `--threshold`; 0/1/2 predictions and labels get no such hint.
#[test]
fn a_score_given_as_the_prediction_suggests_score() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "a.csv", GOOD_CSV);
    let r = audit(&f, &dir.path().join("o"), &["--pred", "p"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    for needle in [
        "a.csv",
        "row 1 (line 2), column 'p': value '0.9' is neither the positive label '1' nor the negative label '0'",
        "labels and predictions must take exactly two values (set them with --pos-label and --neg-label)",
        "column 'p' looks like a score (non-0/1 numbers): pass it with --score and give --threshold, or name the 0/1 prediction column with --pred",
    ] {
        assert!(
            r.stderr.contains(needle),
            "stderr lacks {needle:?}: {}",
            r.stderr
        );
    }
    // Integer predictions 0/1/2: a third class, not a score.
    let f = write(
        dir.path(),
        "b.csv",
        &GOOD_CSV.replace("1,1,0.8,m", "1,2,0.8,m"),
    );
    let r = audit(&f, &dir.path().join("o"), &["--pred", "y_hat"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("column 'y_hat'"), "{}", r.stderr);
    assert!(!r.stderr.contains("looks like a score"), "{}", r.stderr);
    // A score named as the label: the hint is only for the prediction column.
    let r = fairkit(&[
        "audit",
        f.to_str().unwrap(),
        "--label",
        "p",
        "--pred",
        "y",
        "--sensitive",
        "sex",
        "--out",
        dir.path().join("o").to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("column 'p'"), "{}", r.stderr);
    assert!(!r.stderr.contains("looks like a score"), "{}", r.stderr);
}

/// Issue 30: a label column with 0/1/2 beside a 0/1 prediction is reported against the label
/// column, whichever value comes first.
#[test]
fn a_third_label_value_names_the_label_column() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [
        ("two_later.csv", GOOD_CSV.replace("1,1,0.8,m", "2,1,0.8,m")),
        ("two_first.csv", GOOD_CSV.replace("0,1,0.6,f", "2,1,0.6,f")),
    ] {
        let f = write(dir.path(), name, &text);
        rejects(&f, &[], &[name, "column 'y':", "--pos-label"]);
        let r = audit(&f, &dir.path().join("o"), &["--pred", "y_hat"]);
        assert!(!r.stderr.contains("y_hat"), "{}", r.stderr);
    }
}

/// Issue 30: a corrupt or truncated `.csv.gz` says gzip.
#[test]
fn a_corrupt_gzip_file_says_gzip() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(GOOD_CSV.as_bytes()).unwrap();
    let gz = e.finish().unwrap();
    let truncated = dir.path().join("t.csv.gz");
    std::fs::write(&truncated, &gz[..gz.len() / 2]).unwrap();
    rejects(
        &truncated,
        &[],
        &[
            "t.csv.gz",
            "cannot decompress the file as gzip",
            "truncated or corrupt",
        ],
    );
    let plain = write(dir.path(), "p.csv.gz", GOOD_CSV);
    rejects(&plain, &[], &["p.csv.gz", "gzip", "magic bytes"]);
}

#[test]
fn a_csv_sensitive_column_of_fractional_numbers_is_refused_as_parquet_refuses_floats() {
    // The same continuous column is a Float64 column in Parquet (refused by type) and text in a
    // CSV: the CSV is refused at its first fractional value, not turned into a group per number.
    let dir = tempfile::tempdir().unwrap();
    let text = GOOD_CSV.replace(",f,", ",0.5,").replace(",m,", ",1.25,");
    let f = write(dir.path(), "float_groups.csv", &text);
    rejects(
        &f,
        &[],
        &[
            "row 1 (line 2)",
            "column 'sex'",
            "'0.5' is a fractional number",
            "bucket the column first",
        ],
    );
    // Whole numbers written with a decimal point stay group names, as integers do.
    let whole = GOOD_CSV.replace(",f,", ",1.0,").replace(",m,", ",2.0,");
    let g = write(dir.path(), "whole_groups.csv", &whole);
    let r = audit(&g, &dir.path().join("out2"), &["--pred", "y_hat"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// The group guard (issue 30): a sensitive column with one value, more values than
/// `--max-groups`, or a value per row stops the audit with exit 2 naming the column and the
/// flag; the flag allows it.
#[test]
fn one_group_too_many_groups_and_identifiers_name_the_flag_that_allows_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let one = GOOD_CSV.replace(",m,", ",f,");
    let f = write(dir.path(), "one.csv", &one);
    let run = audit(&f, &out, &["--pred", "y_hat"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("the sensitive column \"sex\" has a single value, \"f\", on all 8 rows")
            && run.stderr.contains("--allow-single-group"),
        "{}",
        run.stderr
    );
    let run = audit(&f, &out, &["--pred", "y_hat", "--allow-single-group"]);
    assert_eq!(run.code, 0, "{}", run.stderr);

    // An ID column: 30 rows, a value each.
    let mut ids = String::from("y,y_hat,sex\n");
    for i in 0..30 {
        ids.push_str(&format!("{},{},user{i}\n", i % 2, (i / 2) % 2));
    }
    let f = write(dir.path(), "ids.csv", &ids);
    let run = audit(&f, &out, &["--pred", "y_hat"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("has 30 distinct values among 30 rows, 30 of them on a single row")
            && run.stderr.contains("--max-groups 30"),
        "{}",
        run.stderr
    );
    let run = audit(&f, &out, &["--pred", "y_hat", "--max-groups", "10"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("more than the limit of 10 groups"),
        "{}",
        run.stderr
    );
    let run = audit(&f, &out, &["--pred", "y_hat", "--max-groups", "30"]);
    assert_eq!(run.code, 0, "{}", run.stderr);

    // Past the size that announces a long run, the refusal comes alone: no "takes a while"
    // notice for an audit that is not going to run.
    let mut many = String::from("y,y_hat,sex\n");
    for i in 0..2_500 {
        many.push_str(&format!("{},{},user{i}\n", i % 2, (i / 2) % 2));
    }
    let f = write(dir.path(), "many.csv", &many);
    let run = fairkit(&[
        "audit",
        f.to_str().unwrap(),
        "--label",
        "y",
        "--pred",
        "y_hat",
        "--sensitive",
        "sex",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("--max-groups 2500") && !run.stderr.contains("takes a while"),
        "{}",
        run.stderr
    );
}

/// `--min-group-size` keeps small groups out of gaps; 0 keeps them in (GOOD_CSV has 4 rows a
/// group).
#[test]
fn min_group_size_is_a_flag_and_reaches_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "good.csv", GOOD_CSV);
    let out = dir.path().join("default");
    assert_eq!(audit(&f, &out, &["--pred", "y_hat"]).code, 0);
    let r = report(&out);
    assert_eq!(r["settings"]["min_group_size"], 30);
    let dp = &r["audits"][0]["slices"][0]["gaps"][0];
    assert!(dp["value"].is_null());
    assert_eq!(dp["small_groups"].as_array().unwrap().len(), 2);
    let out = dir.path().join("zero");
    assert_eq!(
        audit(&f, &out, &["--pred", "y_hat", "--min-group-size", "0"]).code,
        0
    );
    let r = report(&out);
    let dp = &r["audits"][0]["slices"][0]["gaps"][0];
    assert_eq!(dp["value"], 0.0); // f and m both select half their rows
    assert!(dp.get("small_groups").is_none());
    assert_eq!(r["audits"][0]["slices"][0]["groups"][0]["positives"], 2);
}

/// A misspelt column gets a "did you mean" with the closest column, from CSV and Parquet alike.
#[test]
fn a_misspelt_column_suggests_the_closest_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let csv = write(dir.path(), "good.csv", GOOD_CSV);
    let parquet = common::demo(dir.path(), "d.parquet", "200", &[]);
    for f in [&csv, &parquet] {
        let run = audit(f, &out, &["--pred", "yhat"]);
        assert_eq!(run.code, 2);
        assert!(
            run.stderr
                .contains("column 'yhat' (given by --pred) is not in the file")
                && run.stderr.contains("did you mean 'y_hat'?"),
            "{}",
            run.stderr
        );
        let run = audit(f, &out, &["--pred", "y_hat", "--weight", "weights"]);
        assert!(!run.stderr.contains("did you mean"), "{}", run.stderr);
    }
}

/// Issue 43: a null, empty or listed sensitive value is never silently a group nor silently
/// dropped. `error` (the default) names the row and the option; `as-group` makes the group
/// "(unknown)" and counts it; `exclude` counts the rows and audits the others exactly as if
/// they were not in the file; bad combinations exit 2 naming the flag.
#[test]
fn unknown_sensitive_values() {
    let dir = tempfile::tempdir().unwrap();
    // Rows 3 and 8 unknown: an empty field and a listed "NA".
    let text = GOOD_CSV
        .replace("1,0,0.4,f,2.0", "1,0,0.4,,2.0")
        .replace("0,0,0.2,m,1.0", "0,0,0.2,NA,1.0");
    let f = write(dir.path(), "u.csv", &text);
    rejects(&f, &[], &["row 3", "column 'sex'", "--unknowns as-group"]);
    rejects(
        &f,
        &["--unknown-values", "NA"],
        &["--unknown-values", "--unknowns as-group"],
    );
    rejects(&f, &["--unknowns", "drop"], &["--unknowns", "as-group"]);
    let run = |name: &str, file: &Path, extra: &[&str]| {
        let out = dir.path().join(name);
        let mut flags = vec!["--pred", "y_hat", "--weight", "w", "--format", "json"];
        flags.extend_from_slice(extra);
        let r = audit(file, &out, &flags);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let json = out.join("report.json");
        let v = fairkit(&["validate-report", json.to_str().unwrap()]);
        assert_eq!(v.code, 0, "{}{}", v.stdout, v.stderr);
        report(&out)
    };
    let grouped = run(
        "g",
        &f,
        &["--unknowns", "as-group", "--unknown-values", "NA"],
    );
    let groups: Vec<&str> = grouped["audits"][0]["slices"][0]["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["group"].as_str().unwrap())
        .collect();
    assert_eq!(groups, ["(unknown)", "f", "m"]);
    let u = &grouped["unknowns"];
    assert_eq!(u["handling"], "as-group");
    assert_eq!(u["columns"][0]["rows"], 2);
    assert_eq!(u["columns"][0]["weight"], 3.0);
    assert_eq!(u["slices"][0]["groups"][0], "(unknown)");
    assert_eq!(u["excluded_rows"], 0);

    let excluded = run(
        "x",
        &f,
        &["--unknowns", "exclude", "--unknown-values", "NA"],
    );
    let u = &excluded["unknowns"];
    assert_eq!(
        (u["excluded_rows"].as_u64(), u["excluded_weight"].as_f64()),
        (Some(2), Some(3.0))
    );
    assert_eq!(u["columns"][0]["rows"], 2);
    // The audit of the other rows is the audit of the file without them.
    let kept: String = text
        .lines()
        .filter(|l| !l.contains(",,") && !l.contains("NA"))
        .map(|l| format!("{l}\n"))
        .collect();
    let without = run("w", &write(dir.path(), "k.csv", &kept), &[]);
    assert_eq!(excluded["audits"], without["audits"]);
    assert_eq!(excluded["headline"], without["headline"]);
    assert_eq!(without["unknowns"]["handling"], "error");
    assert_eq!(without["unknowns"]["columns"][0]["rows"], 0);

    // A listed value no sensitive column can hold (text for an integer column).
    let p = dir.path().join("int.parquet");
    let schema = Arc::new(Schema::new(vec![
        Field::new("y", DataType::Int64, false),
        Field::new("y_hat", DataType::Int64, false),
        Field::new("sex", DataType::Int64, true),
        Field::new("w", DataType::Float64, false),
    ]));
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![
            Arc::new(Int64Array::from(vec![1, 0, 1, 0])),
            Arc::new(Int64Array::from(vec![1, 0, 0, 0])),
            Arc::new(Int64Array::from(vec![Some(1), None, Some(2), Some(99)])),
            Arc::new(Float64Array::from(vec![1.0; 4])),
        ],
    )
    .unwrap();
    let mut w = ArrowWriter::try_new(std::fs::File::create(&p).unwrap(), schema, None).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    rejects(
        &p,
        &["--unknowns", "exclude", "--unknown-values", "NA"],
        &[
            "\"NA\" is listed as an unknown value (--unknown-values)",
            "'sex' (Int64)",
        ],
    );
    // The integer code 99 is a value the column holds: with the null, two rows set aside.
    let r = run(
        "i",
        &p,
        &[
            "--unknowns",
            "exclude",
            "--unknown-values",
            "99",
            "--allow-single-group",
        ],
    );
    assert_eq!(r["unknowns"]["excluded_rows"], 2);
}

/// Issue 43, inferred attributes: bad flags exit 2 naming the flag, a row whose probabilities
/// are not a probability vector exits 2 naming the row, line and columns, and a good run writes
/// a valid report whose inferred section the `--fail-if` bound keys read.
#[test]
fn inferred_attribute_flags_and_rows() {
    let dir = tempfile::tempdir().unwrap();
    // Each row's membership: p (the score column) for a, 1 − p for b.
    let with_proba = |bad_row: Option<usize>| {
        let mut lines = GOOD_CSV.lines();
        let mut text = format!("{},pa,pb\n", lines.next().unwrap());
        for (i, line) in lines.enumerate() {
            let p: f64 = line.split(',').nth(2).unwrap().parse().unwrap();
            let b = if bad_row == Some(i) { 0.0 } else { 1.0 - p };
            text.push_str(&format!("{line},{p},{b}\n"));
        }
        text
    };
    let f = write(dir.path(), "inf.csv", &with_proba(None));
    rejects(
        &f,
        &["--sensitive-proba", "race=pa"],
        &["--sensitive-proba", "two or more probability columns"],
    );
    rejects(
        &f,
        &["--sensitive-proba", "pa,pb"],
        &["--sensitive-proba", "ATTRIBUTE=COLUMN"],
    );
    rejects(&f, &["--proxy", "sex"], &["--proxy", "inferred attributes"]);
    rejects(
        &f,
        &["--sensitive-proba", "race=pa,pb", "--proxy", "sex"],
        &["column 'sex' is given for both --sensitive and --proxy"],
    );
    rejects(
        &f,
        &["--sensitive-proba", "race=pa,nope"],
        &["column 'nope' (given by --sensitive-proba) is not in the file"],
    );
    let state = dir.path().join("state");
    rejects(
        &f,
        &[
            "--sensitive-proba",
            "race=pa,pb",
            "--state-dir",
            state.to_str().unwrap(),
        ],
        &["--state-dir", "--sensitive-proba"],
    );
    let bad = write(dir.path(), "bad.csv", &with_proba(Some(1)));
    rejects(
        &bad,
        &["--sensitive-proba", "race=pa,pb"],
        &[
            "row 2 (line 3)",
            "membership probabilities of race (pa=0.6, pb=0)",
            "they sum to 0.6",
        ],
    );
    let out = dir.path().join("ok");
    let run = |gate: &str| {
        audit(
            &f,
            &out,
            &[
                "--pred",
                "y_hat",
                "--sensitive-proba",
                "race=pa,pb",
                "--proxy",
                "w",
                "--resamples",
                "100",
                "--fail-if",
                gate,
            ],
        )
    };
    let r = run("selection_rate_disparity_bound > 2");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = fairkit(&["validate-report", out.join("report.json").to_str().unwrap()]);
    assert_eq!(v.code, 0, "{}{}", v.stdout, v.stderr);
    let inferred = &report(&out)["inferred"]["attributes"][0];
    // The weight column read as the proxy's cells (1.0, 1.5, 2.0); a sensitive column cannot
    // be the proxy too (each role its own column).
    assert_eq!(inferred["proxy"], "w");
    assert_eq!(inferred["cells"], 3);
    assert_eq!(inferred["slices"][1]["name"], "sex & race");
    assert_eq!(run("selection_rate_disparity_bound > 0").code, 1);
    // The inferred attribute alone: no observed column, no observed slice, a valid report.
    let alone = dir.path().join("alone");
    let r = fairkit(&[
        "audit",
        f.to_str().unwrap(),
        "--label",
        "y",
        "--pred",
        "y_hat",
        "--sensitive-proba",
        "race=pa,pb",
        "--resamples",
        "100",
        "--out",
        alone.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = fairkit(&[
        "validate-report",
        alone.join("report.json").to_str().unwrap(),
    ]);
    assert_eq!(v.code, 0, "{}{}", v.stdout, v.stderr);
    let doc = report(&alone);
    assert_eq!(doc["audits"][0]["slices"].as_array().unwrap().len(), 0);
    assert!(
        doc["summary"][0]
            .as_str()
            .unwrap()
            .contains("inferred section"),
        "{doc}"
    );
    assert_eq!(
        doc["inferred"]["attributes"][0]["slices"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let md = std::fs::read_to_string(alone.join("report.md")).unwrap();
    assert!(
        md.contains("sensitive attributes: race (inferred from pa, pb)."),
        "{md}"
    );
    assert!(!md.contains("## Rates and gaps"), "{md}");
    // Without any attribute the command still asks for one.
    let none = fairkit(&[
        "audit",
        f.to_str().unwrap(),
        "--label",
        "y",
        "--pred",
        "y_hat",
    ]);
    assert_eq!(none.code, 2, "{}", none.stderr);
    assert!(none.stderr.contains("--sensitive"), "{}", none.stderr);
}
