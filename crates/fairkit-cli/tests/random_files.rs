//! Property test (issue 18): `fairkit audit` on random CSV files — corner-case cells (NaN, ∞,
//! 1e309, huge and negative weights, empty cells, quotes, labels outside the pair, ragged rows)
//! — exits 0 with a report whose numbers are finite, or exits 2 with a message; never a panic
//! (exit 101). The `cli_csv` / `cli_parquet` fuzz targets drive the reader itself much harder.

mod common;

use common::{audit, report, write};
use proptest::prelude::*;

fn cell() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => prop::sample::select(vec!["0", "1"]).prop_map(String::from),
        2 => (0.0f64..1.0).prop_map(|v| v.to_string()),
        1 => prop::sample::select(vec![
            "", "NaN", "inf", "-1", "1e309", "1e300", "1.7976931348623157e308", "\"1\"", " 0 ",
            "2", "x", "\"a,b\"",
        ])
        .prop_map(String::from),
    ]
}

fn group() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec!["f", "m", "x"]).prop_map(String::from),
        1 => prop::sample::select(vec!["", "18446744073709551615", "1000000", "\"q\"", "é"])
            .prop_map(String::from),
    ]
}

/// Every number in the report is finite (JSON has no NaN; a non-finite value would be `null`
/// only where the schema allows it, so check the numbers that are there).
fn all_finite(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::Number(n) => n.as_f64().is_some_and(f64::is_finite),
        serde_json::Value::Array(a) => a.iter().all(all_finite),
        serde_json::Value::Object(o) => o.values().all(all_finite),
        _ => true,
    }
}

proptest! {
    // Each case runs the binary once; 24 keep the test short.
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn audit_exits_0_or_2_never_panics(
        rows in prop::collection::vec((cell(), cell(), cell(), group(), cell()), 0..30),
        ragged in prop::option::of(0usize..30),
    ) {
        let mut text = String::from("y,y_hat,p,sex,w\n");
        for (i, (y, yh, p, s, w)) in rows.iter().enumerate() {
            if ragged == Some(i) {
                text.push_str(&format!("{y},{yh}\n"));
            } else {
                text.push_str(&format!("{y},{yh},{p},{s},{w}\n"));
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let f = write(dir.path(), "random.csv", &text);
        let out = dir.path().join("out");
        let r = audit(&f, &out, &["--pred", "y_hat", "--score", "p", "--weight", "w", "--resamples", "50"]);
        prop_assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        prop_assert!(r.code == 0 || r.code == 2, "exit {}: {}", r.code, r.stderr);
        if r.code == 0 {
            prop_assert!(all_finite(&report(&out)));
        } else {
            prop_assert!(!r.stderr.trim().is_empty());
        }
    }
}
