//! Slices derived from the finest groups equal the slices the `fairkit audit` command builds
//! row by row: states bit for bit (weighted too: the weight sums are exact), score maps equal,
//! and so the whole report.

use fair_audit::finest::FinestGroups;
use fair_audit::model::{Columns, InputInfo};
use fair_audit::{ReportSpec, SliceDef, Stats, build_report};
use fair_data::Groups;
use fair_metrics::ci::RateCiMethod;
use fair_metrics::state::ConfusionState;
use proptest::prelude::*;

const SEP: char = '\u{1f}';

/// Rows: (label, prediction, value of column 0, value of column 1, weight).
type Row = (usize, usize, u8, u8, f64);

fn column_names() -> Vec<String> {
    vec!["race".into(), "sex".into()]
}

fn value(col: usize, v: u8) -> String {
    // Names whose " & " and separator orders could differ: spaces, '&', '!'.
    let pool = [["a", "a b", "a!", "b & c"], ["x", "x y", "", "!"]];
    pool[col][usize::from(v) % 4].to_string()
}

/// What the command does: one state per slice, updated with that slice's group of each row.
fn direct(rows: &[Row], weighted: bool) -> Vec<ConfusionState> {
    let y: Vec<usize> = rows.iter().map(|r| r.0).collect();
    let p: Vec<usize> = rows.iter().map(|r| r.1).collect();
    let w: Vec<f64> = rows.iter().map(|r| r.4).collect();
    SliceDef::all(&column_names())
        .iter()
        .map(|slice| {
            let labels: Vec<String> = rows
                .iter()
                .map(|r| {
                    slice
                        .attributes
                        .iter()
                        .map(|&a| value(a, if a == 0 { r.2 } else { r.3 }))
                        .collect::<Vec<_>>()
                        .join(" & ")
                })
                .collect();
            let mut s = ConfusionState::new();
            s.update(
                &y,
                &p,
                &Groups::from_labels(&labels),
                weighted.then_some(w.as_slice()),
            )
            .unwrap();
            s
        })
        .collect()
}

/// What the Spark audit does: one state keyed by the finest groups, then derived slices.
fn via_finest(rows: &[Row], weighted: bool) -> (FinestGroups, Vec<ConfusionState>) {
    let y: Vec<usize> = rows.iter().map(|r| r.0).collect();
    let p: Vec<usize> = rows.iter().map(|r| r.1).collect();
    let w: Vec<f64> = rows.iter().map(|r| r.4).collect();
    let labels: Vec<String> = rows
        .iter()
        .map(|r| format!("{}{SEP}{}", value(0, r.2), value(1, r.3)))
        .collect();
    let mut finest = ConfusionState::new();
    finest
        .update(
            &y,
            &p,
            &Groups::from_labels(&labels),
            weighted.then_some(w.as_slice()),
        )
        .unwrap();
    let groups = FinestGroups::parse(&finest.group_names(), 2, SEP).unwrap();
    let states = SliceDef::all(&column_names())
        .iter()
        .map(|s| groups.slice_state(s, &finest).unwrap())
        .collect();
    (groups, states)
}

fn spec(weighted: bool, rows: u64) -> ReportSpec {
    ReportSpec {
        input: InputInfo {
            file: "t".into(),
            format: "arrow".into(),
            rows,
            columns: Columns {
                label: "y".into(),
                prediction: Some("p".into()),
                score: None,
                sensitive: column_names(),
                weight: weighted.then(|| "w".into()),
            },
            positive_label: "1".into(),
            negative_label: None,
        },
        slices: SliceDef::all(&column_names()),
        stats: Stats {
            confidence: 0.9,
            method: RateCiMethod::Wilson,
            resamples: 100,
            seed: 7,
            min_group_size: 0,
        },
        thresholds: vec![],
        interval: None,
        weighted,
    }
}

fn rows_strategy() -> impl Strategy<Value = Vec<Row>> {
    prop::collection::vec((0usize..2, 0usize..2, 0u8..4, 0u8..4, 0.0f64..1e3), 1..80)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn derived_slices_equal_direct_slices(rows in rows_strategy(), weighted in any::<bool>()) {
        let want = direct(&rows, weighted);
        let (_, got) = via_finest(&rows, weighted);
        prop_assert_eq!(&got, &want);
    }
}

#[test]
fn derived_report_equals_direct_report() {
    let rows: Vec<Row> = (0..200)
        .map(|i| {
            (
                i % 2,
                (i / 3) % 2,
                (i % 7) as u8,
                (i % 5) as u8,
                0.5 + (i % 11) as f64 / 3.0,
            )
        })
        .collect();
    for weighted in [false, true] {
        let spec = spec(weighted, rows.len() as u64);
        let (a, _) = build_report(&spec, &[direct(&rows, weighted)], None).unwrap();
        let (b, _) = build_report(&spec, &[via_finest(&rows, weighted).1], None).unwrap();
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            serde_json::to_string(&b).unwrap()
        );
    }
}

#[test]
fn finest_names_that_do_not_fit_are_typed_errors() {
    let e = FinestGroups::parse(&["a".into()], 2, SEP).unwrap_err();
    assert!(e.to_string().contains("1 parts"), "{e}");
    let dup = vec![format!("a{SEP}b"), format!("a{SEP}b")];
    assert!(FinestGroups::parse(&dup, 2, SEP).is_err());
    assert!(FinestGroups::parse(&[], 0, SEP).is_err());
    // A state with a group the finest list lacks.
    let groups = FinestGroups::parse(&[format!("a{SEP}b")], 2, SEP).unwrap();
    let mut s = ConfusionState::new();
    s.update(&[1], &[1], &Groups::from_labels(&["zz"]), None)
        .unwrap();
    let slice = &SliceDef::all(&column_names())[0];
    assert!(groups.slice_state(slice, &s).is_err());
}
