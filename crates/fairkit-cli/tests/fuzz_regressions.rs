//! Crashing inputs of the `cli_parquet` fuzz target (`fuzz/`, issue 18), replayed through the
//! `fairkit` binary on stable so `cargo test --workspace` keeps them fixed (see
//! docs/reliability.md).
//!
//! The fuzz target writes a real Parquet file with arrow-rs from a structured input and then
//! overwrites a few bytes. The files in `tests/fuzz_inputs/` are exactly the files it wrote for
//! the two reproducers kept in `fuzz/regressions/cli_parquet/` (same names, without the
//! extension); the flags below are the ones those inputs chose. Both corrupt one row group's
//! row count in the footer, which made parquet 60.1's `ParquetRecordBatchReaderBuilder::build`
//! panic with "attempt to add with overflow" when it summed the counts (a wrapped count in
//! release builds). Fixed in bdbf300: the footer's counts are checked first.

mod common;

use common::fairkit;
use std::path::PathBuf;

fn input(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz_inputs")
        .join(name)
}

/// Audits `name` with `flags` and asserts exit 2 with a message naming the file and the corrupt
/// row group, and no panic.
fn rejected_as_corrupt_footer(name: &str, flags: &[&str], row_group: &str) {
    let dir = tempfile::tempdir().unwrap();
    let file = input(name);
    let out = dir.path().join("out");
    let mut args = vec![
        "audit",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(flags);
    args.push("--quiet");
    let r = fairkit(&args);
    assert_eq!(r.code, 2, "{name}: exit {}; stderr: {}", r.code, r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    for needle in [name, "corrupt footer", row_group, "must be >= 0"] {
        assert!(
            r.stderr.contains(needle),
            "stderr lacks {needle:?}: {}",
            r.stderr
        );
    }
}

/// 43 Int64 rows, one row per row group (43 groups), snappy, 3-row pages; one byte of the footer
/// overwritten so that row group 22 counts −41 rows.
#[test]
fn cli_parquet_crash_0f678cf5() {
    rejected_as_corrupt_footer(
        "cli_parquet-crash-0f678cf5.parquet",
        &[
            "--label",
            "y",
            "--pred",
            "yhat",
            "--sensitive",
            "g",
            "--pos-label",
            "-1",
            "--neg-label",
            "0",
            "--batch-rows",
            "3",
        ],
        "row group 22 has",
    );
}

/// 43 rows of Float64/Int64/dictionary columns, two sensitive columns and a weight, zstd,
/// 4-row row groups; one footer byte overwritten so that row group 2 counts −18 rows.
#[test]
fn cli_parquet_crash_fea877f9() {
    rejected_as_corrupt_footer(
        "cli_parquet-crash-fea877f9.parquet",
        &[
            "--label",
            "y",
            "--score",
            "s",
            "--threshold",
            "0.5",
            "--sensitive",
            "g,h",
            "--weight",
            "w",
            "--batch-rows",
            "9",
        ],
        "row group 2 has",
    );
}
