//! `fairkit ll144` on a hand-computed applicant file: every cell of the three tables for a
//! selecting and a scoring tool (a category under 2 % excluded, unknowns in both attributes, a
//! configured unknown value beside the empty one, ties at the median), CSV = Parquet, and the
//! bad inputs each named by flag, file, row and column.

mod common;

use arrow_array::{ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray};
use common::{fairkit, write};
use parquet::arrow::ArrowWriter;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The applicants: (sex, race, applicants, selected). An empty value is missing. Selected rows
/// score 0.8 and the others 0.3, except that the selected Male & Black applicants score 0.1.
const CELLS: &[(&str, &str, usize, usize)] = &[
    ("F", "Black", 20, 8),
    ("F", "White", 25, 15),
    ("M", "Black", 20, 10),
    ("M", "White", 30, 12),
    // 1 % of the data: excluded from the impact ratios (race and intersection).
    ("F", "Asian", 1, 1),
    // Unknown sex (empty field / Parquet null).
    ("", "White", 2, 1),
    // Unknown race: one empty, one written "Unknown" (counted with --unknown-values ,Unknown).
    ("M", "", 1, 0),
    ("M", "Unknown", 1, 0),
];

/// Every row of [`CELLS`]: (sex, race, selected, score).
fn rows() -> Vec<(&'static str, &'static str, i64, f64)> {
    let mut out = Vec::new();
    for &(sex, race, n, selected) in CELLS {
        for i in 0..n {
            let s = i < selected;
            let score = match (s, sex, race) {
                (true, "M", "Black") => 0.1,
                (true, _, _) => 0.8,
                (false, _, _) => 0.3,
            };
            out.push((sex, race, i64::from(s), score));
        }
    }
    out
}

fn write_csv(dir: &Path) -> PathBuf {
    let mut text = String::from("sex,race,hired,score,w\n");
    for (sex, race, sel, score) in rows() {
        text.push_str(&format!("{sex},{race},{sel},{score},1\n"));
    }
    write(dir, "applicants.csv", &text)
}

fn write_parquet(dir: &Path) -> PathBuf {
    let r = rows();
    let text = |f: fn(&(&'static str, &'static str, i64, f64)) -> &'static str| -> ArrayRef {
        // A missing value is a null in Parquet (an empty field in CSV): the same unknown.
        Arc::new(StringArray::from(
            r.iter()
                .map(|x| Some(f(x)).filter(|v| !v.is_empty()))
                .collect::<Vec<_>>(),
        ))
    };
    let batch = RecordBatch::try_from_iter([
        ("sex", text(|x| x.0)),
        ("race", text(|x| x.1)),
        (
            "hired",
            Arc::new(Int64Array::from(r.iter().map(|x| x.2).collect::<Vec<_>>())) as ArrayRef,
        ),
        (
            "score",
            Arc::new(Float64Array::from(
                r.iter().map(|x| x.3).collect::<Vec<_>>(),
            )) as ArrayRef,
        ),
    ])
    .unwrap();
    let path = dir.join("applicants.parquet");
    let mut w = ArrowWriter::try_new(File::create(&path).unwrap(), batch.schema(), None).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    path
}

fn ll144(file: &Path, out: &Path, tool: &[&str], extra: &[&str]) -> common::Run {
    let mut args = vec![
        "ll144",
        file.to_str().unwrap(),
        "--sex",
        "sex",
        "--race",
        "race",
        "--unknown-values",
        ",Unknown",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ];
    args.extend_from_slice(tool);
    args.extend_from_slice(extra);
    fairkit(&args)
}

/// One expected row: category, applicants, positives, rate, impact ratio, excluded, unknown.
type Expected = (&'static str, f64, f64, f64, Option<f64>, bool, bool);

/// Reads a table's CSV and checks every cell against `expected` (the interval columns against
/// the Wilson interval of the row's rate and count).
fn check_table(dir: &Path, table: &str, rate_col: &str, expected: &[Expected]) {
    let path = dir.join(format!("ll144_{table}.csv"));
    let mut r = csv::Reader::from_path(&path).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    assert_eq!(header[3], rate_col, "{table}");
    let got: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(got.len(), expected.len(), "{table}: {got:?}");
    let num = |s: &str| -> Option<f64> { (!s.is_empty()).then(|| s.parse().unwrap()) };
    for (row, e) in got.iter().zip(expected) {
        let (category, applicants, positive, rate, ratio, excluded, unknown) = *e;
        let what = format!("{table} / {category}");
        assert_eq!(&row[0], category, "{what}");
        assert_eq!(num(&row[1]), Some(applicants), "{what}");
        assert_eq!(num(&row[2]), Some(positive), "{what}");
        assert_eq!(num(&row[3]), Some(rate), "{what}");
        assert_eq!(num(&row[4]), ratio, "{what}");
        assert_eq!(num(&row[5]), Some(applicants / 100.0), "{what}");
        assert_eq!(&row[6], if excluded { "true" } else { "false" }, "{what}");
        assert_eq!(&row[7], if unknown { "true" } else { "false" }, "{what}");
        if excluded {
            assert!(
                row[8].contains("1.00 % of applicants, under 2.00 %"),
                "{what}: {}",
                &row[8]
            );
        }
        let ci = fair_metrics::ci::rate_interval(
            rate,
            applicants,
            0.95,
            fair_metrics::ci::RateCiMethod::Wilson,
        )
        .unwrap();
        assert_eq!(num(&row[9]), Some(ci.lower), "{what}");
        assert_eq!(num(&row[10]), Some(ci.upper), "{what}");
        assert_eq!(num(&row[11]), Some(applicants), "{what}");
        assert_eq!(num(&row[12]), Some(applicants), "{what}");
    }
}

#[test]
fn selection_tables_match_the_hand_computed_ones() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_csv(dir.path());
    let out = dir.path().join("sel");
    let r = ll144(
        &file,
        &out,
        &["--selected", "hired"],
        &[
            "--data-source",
            "Test applicants, 2025",
            "--audit-date",
            "2026-03-31",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (f, m) = (24.0 / 46.0, 22.0 / 52.0);
    check_table(
        &out,
        "sex",
        "selection_rate",
        &[
            ("F", 46.0, 24.0, f, Some(1.0), false, false),
            ("M", 52.0, 22.0, m, Some(m / f), false, false),
            ("", 2.0, 1.0, 0.5, None, false, true),
        ],
    );
    // Asian (1.0) would be the highest rate: excluded, White is the denominator.
    let (black, white) = (18.0 / 40.0, 28.0 / 57.0);
    check_table(
        &out,
        "race",
        "selection_rate",
        &[
            ("Asian", 1.0, 1.0, 1.0, None, true, false),
            (
                "Black",
                40.0,
                18.0,
                black,
                Some(black / white),
                false,
                false,
            ),
            ("White", 57.0, 28.0, white, Some(1.0), false, false),
            ("", 1.0, 0.0, 0.0, None, false, true),
            ("Unknown", 1.0, 0.0, 0.0, None, false, true),
        ],
    );
    let top = 15.0 / 25.0;
    check_table(
        &out,
        "intersection",
        "selection_rate",
        &[
            ("F & Asian", 1.0, 1.0, 1.0, None, true, false),
            ("F & Black", 20.0, 8.0, 0.4, Some(0.4 / top), false, false),
            ("F & White", 25.0, 15.0, top, Some(1.0), false, false),
            ("M & Black", 20.0, 10.0, 0.5, Some(0.5 / top), false, false),
            ("M & White", 30.0, 12.0, 0.4, Some(0.4 / top), false, false),
            (" & White", 2.0, 1.0, 0.5, None, false, true),
            ("M & ", 1.0, 0.0, 0.0, None, false, true),
            ("M & Unknown", 1.0, 0.0, 0.0, None, false, true),
        ],
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("ll144.json")).unwrap()).unwrap();
    assert_eq!(json["schema"], "fairkit-ll144 v1");
    assert_eq!(json["applicants"], 100.0);
    assert_eq!(json["data_source"], "Test applicants, 2025");
    assert_eq!(json["audit_date"], "2026-03-31");
    assert_eq!(json["tables"][0]["unknown_applicants"], 2.0);
    assert_eq!(json["tables"][1]["unknown_applicants"], 2.0);
    assert_eq!(json["tables"][2]["unknown_applicants"], 4.0);
    let disclosure = json["exclusion_disclosure"].as_str().unwrap();
    assert!(
        disclosure.contains("less than 2.00 % of the data")
            && disclosure.contains("race Asian (1.00 %); intersection F & Asian (1.00 %)"),
        "{disclosure}"
    );
    let md = std::fs::read_to_string(out.join("ll144.md")).unwrap();
    for needle in [
        "Data source: Test applicants, 2025",
        "Audit date: 2026-03-31",
        "Number of applicants: 100",
        "Race/ethnicity categories: 2 individuals in an unknown category: (missing) (1), Unknown (1)",
        "| (missing) &amp; White | 2 | 1 | 0.5000 | – | 2.00 % | unknown category",
        "race Asian (1.00 %); intersection F &amp; Asian (1.00 %)",
    ] {
        assert!(md.contains(needle), "{needle} not in\n{md}");
    }
    let html = std::fs::read_to_string(out.join("ll144.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("<table>"));

    // Without the exclusion Asian is the denominator of the race table.
    let all = dir.path().join("all");
    let r = ll144(&file, &all, &["--selected", "hired"], &["--no-exclusion"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    check_table(
        &all,
        "race",
        "selection_rate",
        &[
            ("Asian", 1.0, 1.0, 1.0, Some(1.0), false, false),
            ("Black", 40.0, 18.0, black, Some(black), false, false),
            ("White", 57.0, 28.0, white, Some(white), false, false),
            ("", 1.0, 0.0, 0.0, None, false, true),
            ("Unknown", 1.0, 0.0, 0.0, None, false, true),
        ],
    );
}

#[test]
fn scoring_tables_match_the_hand_computed_ones() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_csv(dir.path());
    let out = dir.path().join("score");
    let r = ll144(&file, &out, &["--score", "score"], &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Sorted: 10 × 0.1, 53 × 0.3, 37 × 0.8; the median (rows 50 and 51) is 0.3, and the 53
    // applicants scored exactly 0.3 are not above it. Above: the selected, but Male & Black.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("ll144.json")).unwrap()).unwrap();
    assert_eq!(json["median_score"], 0.3);
    assert_eq!(json["mode"], "scoring");
    let (f, m) = (24.0 / 46.0, 12.0 / 52.0);
    check_table(
        &out,
        "sex",
        "scoring_rate",
        &[
            ("F", 46.0, 24.0, f, Some(1.0), false, false),
            ("M", 52.0, 12.0, m, Some(m / f), false, false),
            ("", 2.0, 1.0, 0.5, None, false, true),
        ],
    );
    let (black, white) = (8.0 / 40.0, 28.0 / 57.0);
    check_table(
        &out,
        "race",
        "scoring_rate",
        &[
            ("Asian", 1.0, 1.0, 1.0, None, true, false),
            ("Black", 40.0, 8.0, black, Some(black / white), false, false),
            ("White", 57.0, 28.0, white, Some(1.0), false, false),
            ("", 1.0, 0.0, 0.0, None, false, true),
            ("Unknown", 1.0, 0.0, 0.0, None, false, true),
        ],
    );
    let top = 15.0 / 25.0;
    check_table(
        &out,
        "intersection",
        "scoring_rate",
        &[
            ("F & Asian", 1.0, 1.0, 1.0, None, true, false),
            ("F & Black", 20.0, 8.0, 0.4, Some(0.4 / top), false, false),
            ("F & White", 25.0, 15.0, top, Some(1.0), false, false),
            ("M & Black", 20.0, 0.0, 0.0, Some(0.0), false, false),
            ("M & White", 30.0, 12.0, 0.4, Some(0.4 / top), false, false),
            (" & White", 2.0, 1.0, 0.5, None, false, true),
            ("M & ", 1.0, 0.0, 0.0, None, false, true),
            ("M & Unknown", 1.0, 0.0, 0.0, None, false, true),
        ],
    );
}

/// A classification audit with the same score reports LL144's scoring rates too: the same
/// median and, for every known category, the same rate as `fairkit ll144 --score` (weighted, and
/// with the unknown values as their own group so they count in the median as applicants do).
#[test]
fn the_audit_of_a_score_gives_the_tables_scoring_rates() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_csv(dir.path());
    let out = dir.path().join("score");
    let r = ll144(&file, &out, &["--score", "score"], &["--weight", "w"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let audit_out = dir.path().join("audit");
    let r = fairkit(&[
        "audit",
        file.to_str().unwrap(),
        "--label",
        "hired",
        "--threshold",
        "0.5",
        "--score",
        "score",
        "--weight",
        "w",
        "--sensitive",
        "sex,race",
        "--unknowns",
        "as-group",
        "--unknown-values",
        ",Unknown",
        "--min-group-size",
        "0",
        "--format",
        "json",
        "--out",
        audit_out.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let read = |p: PathBuf| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    };
    let (tables, report) = (
        read(out.join("ll144.json")),
        read(audit_out.join("report.json")),
    );
    let mut compared = 0;
    for (table, slice) in [
        ("sex", "sex"),
        ("race", "race"),
        ("intersection", "sex & race"),
    ] {
        let scored = report["score_metrics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["slice"] == slice)
            .unwrap();
        let rates = &scored["scoring_rate"];
        assert_eq!(rates["median"], tables["median_score"], "{slice}");
        let mut csv = csv::Reader::from_path(out.join(format!("ll144_{table}.csv"))).unwrap();
        for row in csv.records().map(Result::unwrap) {
            if &row[7] == "true" {
                continue; // unknown: the audit merges every unknown value into one group
            }
            let group = rates["groups"]
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["group"] == row[0])
                .unwrap_or_else(|| panic!("{slice}: no group {}", &row[0]));
            assert_eq!(
                group["rate"].as_f64(),
                Some(row[3].parse::<f64>().unwrap()),
                "{slice} / {}",
                &row[0]
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 2 + 3 + 5);
}

#[test]
fn csv_and_parquet_give_the_same_tables_and_unit_weights_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, pq) = (write_csv(dir.path()), write_parquet(dir.path()));
    for tool in [["--selected", "hired"], ["--score", "score"]] {
        let a = dir.path().join("a");
        let b = dir.path().join("b");
        assert_eq!(ll144(&csv, &a, &tool, &[]).code, 0);
        let r = ll144(&pq, &b, &tool, &["--batch-rows", "7"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        for t in ["sex", "race", "intersection"] {
            let read =
                |d: &Path| std::fs::read_to_string(d.join(format!("ll144_{t}.csv"))).unwrap();
            assert_eq!(read(&a), read(&b), "{tool:?} {t}");
        }
        // Weights of 1: the same counts and rates (Kish's n = the rows).
        let w = dir.path().join("w");
        assert_eq!(ll144(&csv, &w, &tool, &["--weight", "w"]).code, 0);
        for t in ["sex", "race", "intersection"] {
            let read =
                |d: &Path| std::fs::read_to_string(d.join(format!("ll144_{t}.csv"))).unwrap();
            assert_eq!(read(&a), read(&w), "{tool:?} {t} weighted");
        }
    }
}

#[test]
fn bad_inputs_name_the_flag_file_row_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let bad = write(
        dir.path(),
        "bad.csv",
        "sex,race,hired,score,w,txt\nF,A,1,0.5,1,x\nM,B,2,0.5,1,y\n",
    );
    let r = ll144(&bad, &out, &["--selected", "hired"], &[]);
    assert_eq!(r.code, 2);
    for needle in ["bad.csv", "row 2", "line 3", "'hired'", "--selected", "'2'"] {
        assert!(r.stderr.contains(needle), "{needle}: {}", r.stderr);
    }
    let good = write_csv(dir.path());
    let r = fairkit(&[
        "ll144",
        good.to_str().unwrap(),
        "--sex",
        "sex",
        "--race",
        "ethnicity",
        "--selected",
        "hired",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2);
    for needle in ["applicants.csv", "'ethnicity'", "--race"] {
        assert!(r.stderr.contains(needle), "{needle}: {}", r.stderr);
    }
    for (flags, needle) in [
        (&["--exclude-below", "0.5"][..], "--exclude-below"),
        (&["--exclude-below=-0.1"][..], "--exclude-below"),
        (&["--audit-date", "2026-02-30"][..], "--audit-date"),
        (&["--confidence", "1"][..], "--confidence"),
        (&["--weight", "sex"][..], "--weight"),
    ] {
        let r = ll144(&good, &out, &["--selected", "hired"], flags);
        assert_eq!(r.code, 2, "{flags:?}");
        assert!(r.stderr.contains(needle), "{needle}: {}", r.stderr);
    }
    let zero = write(
        dir.path(),
        "zero.csv",
        "sex,race,hired,score,w\nF,A,1,0.5,0\nM,B,0,0.5,0\n",
    );
    let r = ll144(&zero, &out, &["--selected", "hired"], &["--weight", "w"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no applicants"), "{}", r.stderr);
    let r = ll144(&bad, &out, &["--score", "txt"], &[]);
    assert_eq!(r.code, 2);
    for needle in ["row 1", "'txt'", "'x'"] {
        assert!(r.stderr.contains(needle), "{needle}: {}", r.stderr);
    }
    // Neither or both of --selected and --score: a usage error.
    assert_eq!(ll144(&good, &out, &[], &[]).code, 2);
    assert_eq!(
        ll144(
            &good,
            &out,
            &["--selected", "hired", "--score", "score"],
            &[]
        )
        .code,
        2
    );
}
