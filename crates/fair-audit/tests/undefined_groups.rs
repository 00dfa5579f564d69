//! The audit's undefined-group rule (docs/conventions.md): a gap leaves out a group whose rate
//! has an empty denominator, names it with the reason at the gap, and, where fairlearn (which
//! counts that TPR/FPR as 0) would give another number, says so — in report.json, markdown,
//! HTML and the summary. Hand-computed small cases.

use fair_audit::compute::{FAIRLEARN_TOLERANCE, fairlearn_gap, undefined_groups};
use fair_audit::model::{AuditReport, Gap};
use fair_audit::schema::{AUDIT_SCHEMA_V1, validate};
use fair_audit::{ReportSpec, Stats, Views, build_report, render};
use fair_data::Groups;
use fair_metrics::GroupConfusion;
use fair_metrics::Rate;
use fair_metrics::ci::{GapKind, GapMetric};
use fair_metrics::state::ConfusionState;
use serde_json::Value;

/// (group, label, prediction) rows per group.
fn rows(spec: &[(&str, &[usize], &[usize])]) -> (Vec<String>, Vec<usize>, Vec<usize>) {
    let (mut g, mut y, mut p) = (Vec::new(), Vec::new(), Vec::new());
    for (name, ys, ps) in spec {
        assert_eq!(ys.len(), ps.len());
        g.extend(std::iter::repeat_n(name.to_string(), ys.len()));
        y.extend_from_slice(ys);
        p.extend_from_slice(ps);
    }
    (g, y, p)
}

fn report(spec: &[(&str, &[usize], &[usize])]) -> AuditReport {
    let (g, y, p) = rows(spec);
    let names: Vec<&str> = g.iter().map(String::as_str).collect();
    let groups = Groups::from_labels(&names);
    let mut state = ConfusionState::new();
    state.update(&y, &p, &groups, None).expect("valid rows");
    let stats = Stats {
        resamples: 200,
        seed: 7,
        min_group_size: 0,
        ..Stats::default()
    };
    let spec = ReportSpec::binary("hand", "y", "p", "group", y.len() as u64, stats);
    build_report(&spec, &[vec![state]], None).expect("report").0
}

fn gap<'a>(r: &'a AuditReport, key: &str) -> &'a Gap {
    r.audits[0].slices[0]
        .gaps
        .iter()
        .find(|g| g.key == key)
        .expect("gap")
}

fn json(r: &AuditReport) -> Value {
    let text = render(
        r,
        &Default::default(),
        Views {
            json: true,
            markdown: false,
            html: false,
        },
    )
    .unwrap()
    .json
    .unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let schema: Value = serde_json::from_str(AUDIT_SCHEMA_V1).unwrap();
    assert_eq!(validate(&schema, &v).unwrap(), Vec::<String>::new());
    v
}

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-12, "{a} vs {b}");
}

// a: TPR 3/4, FPR 1/2; b: TPR 1/2, FPR 0; c: no positives, FPR 1/3.
const NO_POSITIVES: [(&str, &[usize], &[usize]); 3] = [
    ("a", &[1, 1, 1, 1, 0, 0], &[1, 1, 1, 0, 0, 1]),
    ("b", &[1, 1, 0, 0], &[1, 0, 0, 0]),
    ("c", &[0, 0, 0], &[1, 0, 0]),
];

#[test]
fn a_group_without_positives_is_named_at_the_tpr_gaps_and_fairlearn_differs() {
    let r = report(&NO_POSITIVES);
    let eo = gap(&r, "eo_difference");
    // max − min over a and b only.
    close(eo.value.unwrap(), 0.75 - 0.5);
    assert_eq!(eo.undefined_groups.len(), 1);
    assert_eq!(eo.undefined_groups[0].group, "c");
    assert_eq!(eo.undefined_groups[0].rate, "true_positive_rate");
    assert_eq!(
        eo.undefined_groups[0].reason,
        "no positive rows: TPR undefined"
    );
    // fairlearn: TPR(c) = 0, so 0.75 − 0.
    close(eo.fairlearn_value.unwrap().unwrap(), 0.75);

    let ratio = gap(&r, "eo_ratio");
    close(ratio.value.unwrap(), 0.5 / 0.75);
    assert_eq!(ratio.undefined_groups[0].group, "c");
    close(ratio.fairlearn_value.unwrap().unwrap(), 0.0);

    // Equalized odds: TPR gap over a, b (0.25), FPR gap over all three (1/2 − 0) → 0.5;
    // fairlearn: max(0.75, 0.5).
    let eq = gap(&r, "eq_odds_difference");
    close(eq.value.unwrap(), 0.5);
    assert_eq!(eq.undefined_groups.len(), 1);
    assert_eq!(eq.undefined_groups[0].rate, "true_positive_rate");
    close(eq.fairlearn_value.unwrap().unwrap(), 0.75);
    // Ratio: min(2/3, 0 / 0.5) = 0 both ways: the group is still named, no fairlearn value.
    let eqr = gap(&r, "eq_odds_ratio");
    close(eqr.value.unwrap(), 0.0);
    assert_eq!(eqr.undefined_groups[0].group, "c");
    assert_eq!(eqr.fairlearn_value, None);

    // Selection rate and accuracy are defined in every group with rows.
    for key in [
        "dp_difference",
        "dp_ratio",
        "accuracy_difference",
        "accuracy_ratio",
    ] {
        assert!(gap(&r, key).undefined_groups.is_empty(), "{key}");
        assert_eq!(gap(&r, key).fairlearn_value, None, "{key}");
    }

    // JSON: the fields at the gap and on the headline, and the schema accepts them.
    let v = json(&r);
    let gaps = &v["audits"][0]["slices"][0]["gaps"];
    let eo_json = gaps
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["key"] == "eo_difference")
        .unwrap();
    assert_eq!(
        eo_json["undefined_groups"],
        serde_json::json!([{"group": "c", "rate": "true_positive_rate",
                            "reason": "no positive rows: TPR undefined"}])
    );
    assert_eq!(eo_json["fairlearn_value"], serde_json::json!(0.75));
    assert_eq!(
        v["headline"]["eo_difference"]["undefined_groups"][0]["group"],
        "c"
    );
    assert_eq!(
        v["headline"]["eo_difference"]["fairlearn_value"],
        serde_json::json!(0.75)
    );
    let dp_json = gaps
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["key"] == "dp_difference")
        .unwrap();
    assert!(dp_json.get("undefined_groups").is_none());
    assert!(dp_json.get("fairlearn_value").is_none());

    // Summary: the headline sentence names the group, the reason and fairlearn's number.
    let s = r
        .summary
        .iter()
        .find(|s| s.starts_with("The headline eo_difference"))
        .expect("a headline sentence for eo_difference");
    assert!(s.contains("\"c\" (no positive rows: TPR undefined)"), "{s}");
    assert!(s.contains("equal_opportunity_difference"), "{s}");
    assert!(s.contains("differs: it gives 0.750"), "{s}");

    // Markdown and HTML: the note beside the gap and in the headline table.
    let text = render(&r, &Default::default(), Views::default()).unwrap();
    for doc in [text.markdown.unwrap(), text.html.unwrap()] {
        assert!(doc.contains("groups left out / fairlearn"));
        assert!(doc.contains("no positive rows: TPR undefined"));
        assert!(doc.contains("gives 0.750 on the same rows"));
    }
}

// a: TPR 1/2, FPR 1; b: TPR 1, FPR 1/4; c: no negatives, TPR 1/2.
const NO_NEGATIVES: [(&str, &[usize], &[usize]); 3] = [
    ("a", &[1, 1, 0, 0], &[1, 0, 1, 1]),
    ("b", &[1, 1, 0, 0, 0, 0], &[1, 1, 1, 0, 0, 0]),
    ("c", &[1, 1], &[1, 0]),
];

#[test]
fn a_group_without_negatives_is_named_at_the_fpr_based_gaps() {
    let r = report(&NO_NEGATIVES);
    // TPR is defined everywhere: nothing to say at the equal-opportunity gaps.
    for key in ["eo_difference", "eo_ratio"] {
        assert!(gap(&r, key).undefined_groups.is_empty(), "{key}");
        assert_eq!(gap(&r, key).fairlearn_value, None, "{key}");
    }
    close(gap(&r, "eo_difference").value.unwrap(), 0.5);
    // Equalized odds: max(TPR gap 1/2, FPR gap over a, b: 1 − 1/4) = 3/4; fairlearn counts
    // FPR(c) = 0: max(1/2, 1 − 0) = 1.
    let eq = gap(&r, "eq_odds_difference");
    close(eq.value.unwrap(), 0.75);
    assert_eq!(eq.undefined_groups.len(), 1);
    assert_eq!(eq.undefined_groups[0].group, "c");
    assert_eq!(eq.undefined_groups[0].rate, "false_positive_rate");
    assert_eq!(
        eq.undefined_groups[0].reason,
        "no negative rows: FPR undefined"
    );
    close(eq.fairlearn_value.unwrap().unwrap(), 1.0);
    let eqr = gap(&r, "eq_odds_ratio");
    // min(TPR ratio 1/2, FPR ratio (1/4) / 1); fairlearn: min(1/2, 0 / 1) = 0.
    close(eqr.value.unwrap(), 0.25);
    close(eqr.fairlearn_value.unwrap().unwrap(), 0.0);
    json(&r);
}

#[test]
fn no_undefined_group_leaves_the_fields_out() {
    let r = report(&[
        ("a", &[1, 1, 0, 0], &[1, 0, 1, 0]),
        ("b", &[1, 1, 0, 0, 0], &[1, 1, 1, 0, 0]),
    ]);
    for g in &r.audits[0].slices[0].gaps {
        assert!(g.undefined_groups.is_empty(), "{}", g.key);
        assert_eq!(g.fairlearn_value, None, "{}", g.key);
    }
    let text = serde_json::to_string(&json(&r)).unwrap();
    assert!(!text.contains("undefined_groups"));
    assert!(!text.contains("fairlearn_value"));
    assert!(!r.summary.iter().any(|s| s.starts_with("The headline")));
    let md = render(&r, &Default::default(), Views::default())
        .unwrap()
        .markdown
        .unwrap();
    assert!(!md.contains("groups left out"));
}

#[test]
fn a_ratio_of_two_zero_rates_is_one_here_and_nan_in_fairlearn() {
    // Both groups have TPR 0: the audit's ratio is 1, fairlearn's 0 / 0 is NaN (JSON null).
    let r = report(&[
        ("a", &[1, 1, 0, 0], &[0, 0, 1, 0]),
        ("b", &[1, 0, 0], &[0, 1, 1]),
    ]);
    let g = gap(&r, "eo_ratio");
    close(g.value.unwrap(), 1.0);
    assert!(g.undefined_groups.is_empty());
    assert_eq!(g.fairlearn_value, Some(None));
    let v = json(&r);
    let eo = v["audits"][0]["slices"][0]["gaps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["key"] == "eo_ratio")
        .unwrap()
        .clone();
    assert_eq!(eo["fairlearn_value"], Value::Null);
    assert!(eo.as_object().unwrap().contains_key("fairlearn_value"));
    assert!(
        r.summary
            .iter()
            .any(|s| s.starts_with("The headline eo_ratio") && s.contains("gives NaN"))
    );
}

#[test]
fn the_helpers_agree_with_a_direct_count() {
    let (g, y, p) = rows(&NO_POSITIVES);
    let names: Vec<&str> = g.iter().map(String::as_str).collect();
    let gc = GroupConfusion::new(&y, &p, &Groups::from_labels(&names), None).unwrap();
    let u = undefined_groups(&gc, GapMetric::EqualizedOdds, false);
    assert_eq!(u.len(), 1);
    assert_eq!(u[0].group, "c");
    let u = undefined_groups(&gc, GapMetric::Rate(Rate::Precision), true);
    assert!(u.is_empty());
    let fl = fairlearn_gap(
        &gc,
        GapMetric::Rate(Rate::TruePositive),
        GapKind::Difference,
    );
    assert!((fl - 0.75).abs() < FAIRLEARN_TOLERANCE);
    // A group with no predicted positives: precision undefined, reason named.
    let gc = GroupConfusion::new(
        &[1, 0, 1, 0],
        &[1, 1, 0, 0],
        &Groups::from_labels(&["a", "a", "b", "b"]),
        None,
    )
    .unwrap();
    let u = undefined_groups(&gc, GapMetric::Rate(Rate::Precision), false);
    assert_eq!(u.len(), 1);
    assert_eq!(u[0].group, "b");
    assert_eq!(u[0].reason, "no predicted positives: precision undefined");
}
