//! Every kind of bad input gives a typed error (never a panic) from every entry point that reads
//! that input.

use fair_data::Groups;
use fair_metrics::multiclass::{
    MulticlassConfusion, multiclass_accuracy, multiclass_equalized_odds,
    multiclass_statistical_parity,
};
use fair_metrics::parity::{self, ParityOptions};
use fair_metrics::partial::{self, PercentileInterval};
use fair_metrics::pca_losses::{DEFAULT_ORTHONORMAL_TOLERANCE, pca_disparity};
use fair_metrics::rate_constraints::{self, Subset};
use fair_metrics::signed_gaps::{self, PrivilegedPair};
use fair_metrics::{GroupConfusion, MetricError, ParityMethod, ZeroDivision, ks, roc};
use nalgebra::{DMatrix, dmatrix};

type Outcome = (&'static str, Result<(), MetricError>);

fn ok<T>(r: fair_metrics::Result<T>) -> Result<(), MetricError> {
    r.map(|_| ())
}

/// Entry points reading binary labels and/or predictions (and groups, weights).
fn label_entry_points(y: &[usize], p: &[usize], g: &Groups, w: Option<&[f64]>) -> Vec<Outcome> {
    let o = ParityOptions::default();
    let bg = ParityMethod::BetweenGroups;
    let z = ZeroDivision::Error;
    let sub = Subset::Group { groups: g, code: 0 };
    vec![
        ("GroupConfusion::new", ok(GroupConfusion::new(y, p, g, w))),
        (
            "demographic_parity_difference",
            ok(parity::demographic_parity_difference(p, g, w, bg)),
        ),
        (
            "demographic_parity_ratio",
            ok(parity::demographic_parity_ratio(p, g, w, bg)),
        ),
        (
            "equal_opportunity_difference",
            ok(parity::equal_opportunity_difference(y, p, g, w, &o)),
        ),
        (
            "equal_opportunity_ratio",
            ok(parity::equal_opportunity_ratio(y, p, g, w, &o)),
        ),
        (
            "equalized_odds_difference",
            ok(parity::equalized_odds_difference(y, p, g, w, &o)),
        ),
        (
            "equalized_odds_ratio",
            ok(parity::equalized_odds_ratio(y, p, g, w, &o)),
        ),
        (
            "accuracy_difference",
            ok(parity::accuracy_difference(y, p, g, w, bg)),
        ),
        ("accuracy_ratio", ok(parity::accuracy_ratio(y, p, g, w, bg))),
        (
            "multiclass_equalized_odds",
            ok(multiclass_equalized_odds(y, p, 2, g, w, z)),
        ),
        (
            "multiclass_statistical_parity",
            ok(multiclass_statistical_parity(p, 2, g, w)),
        ),
        (
            "multiclass_accuracy",
            ok(multiclass_accuracy(y, p, 2, g, w)),
        ),
        (
            "subset_rates",
            ok(rate_constraints::subset_rates(y, p, w, sub, z)),
        ),
        (
            "positive_prediction_rate",
            ok(rate_constraints::positive_prediction_rate(p, w, sub)),
        ),
        ("churn", ok(rate_constraints::churn(p, y, w, sub))),
        (
            "churn_rates",
            ok(rate_constraints::churn_rates(y, p, y, w, sub, z)),
        ),
    ]
}

/// Entry points reading scores (and labels where they need them).
fn score_entry_points(y: &[usize], s: &[f64], g: &Groups, w: Option<&[f64]>) -> Vec<Outcome> {
    let i = PercentileInterval::new(0.0, 0.5).unwrap();
    vec![
        ("ks_statistic", ok(ks::ks_statistic(s, g, w))),
        (
            "equal_opportunity_ks",
            ok(ks::equal_opportunity_ks(y, s, g, w)),
        ),
        (
            "partial_statistical_parity",
            ok(partial::partial_statistical_parity(s, g, w, i)),
        ),
        (
            "partial_statistical_parity_given_label",
            ok(partial::partial_statistical_parity_given_label(
                y, s, g, w, i, 0,
            )),
        ),
        (
            "partial_demographic_parity",
            ok(partial::partial_demographic_parity(s, g, w, i, 0.0)),
        ),
        (
            "partial_equal_opportunity",
            ok(partial::partial_equal_opportunity(y, s, g, w, i, 0.0)),
        ),
        (
            "partial_equalized_odds",
            ok(partial::partial_equalized_odds(y, s, g, w, i, 0.0)),
        ),
        ("roc_curve", ok(roc::roc_curve(y, s, w))),
        ("roc_auc", ok(roc::roc_auc(y, s, w))),
        (
            "roc_curve_by_group",
            ok(roc::roc_curve_by_group(y, s, g, w)),
        ),
        (
            "auc_by_group",
            ok(roc::auc_by_group(y, s, g, w, ZeroDivision::Error)),
        ),
        ("cross_group_auc", ok(roc::cross_group_auc(s, g, w))),
    ]
}

/// A valid fixture: 2 groups, each with both labels, both predictions, distinct scores.
struct Fixture {
    y: Vec<usize>,
    p: Vec<usize>,
    s: Vec<f64>,
    w: Vec<f64>,
    g: Groups,
}

fn fixture() -> Fixture {
    Fixture {
        y: vec![1, 0, 1, 0, 1, 0, 1, 0],
        p: vec![1, 0, 0, 1, 1, 1, 0, 0],
        s: vec![0.9, 0.1, 0.4, 0.6, 0.8, 0.7, 0.2, 0.3],
        w: vec![1.0, 2.0, 1.0, 1.0, 0.5, 1.0, 1.0, 3.0],
        g: Groups::from_codes(&[0, 0, 0, 0, 1, 1, 1, 1]).unwrap(),
    }
}

#[track_caller]
fn all_fail(outcomes: Vec<Outcome>, matches: impl Fn(&MetricError) -> bool) {
    for (name, r) in outcomes {
        match r {
            Ok(()) => panic!("{name} accepted the bad input"),
            Err(e) => assert!(matches(&e), "{name}: unexpected error {e:?}"),
        }
    }
}

#[test]
fn valid_fixture_is_accepted_everywhere() {
    // Guards the tests below: their failures must come from the one bad input.
    let f = fixture();
    for (name, r) in label_entry_points(&f.y, &f.p, &f.g, Some(&f.w))
        .into_iter()
        .chain(score_entry_points(&f.y, &f.s, &f.g, Some(&f.w)))
    {
        assert!(r.is_ok(), "{name}: {r:?}");
    }
}

#[test]
fn nan_score() {
    let f = fixture();
    let mut s = f.s.clone();
    s[3] = f64::NAN;
    all_fail(score_entry_points(&f.y, &s, &f.g, None), |e| {
        matches!(
            e,
            MetricError::NonFinite {
                what: "scores",
                row: 3,
                ..
            }
        )
    });
    s[3] = f64::NEG_INFINITY;
    all_fail(score_entry_points(&f.y, &s, &f.g, None), |e| {
        matches!(e, MetricError::NonFinite { row: 3, .. })
    });
}

#[test]
fn inf_weight() {
    let f = fixture();
    let mut w = f.w.clone();
    w[5] = f64::INFINITY;
    let is = |e: &MetricError| {
        matches!(
            e,
            MetricError::NonFinite {
                what: "sample weights",
                row: 5,
                ..
            }
        )
    };
    all_fail(label_entry_points(&f.y, &f.p, &f.g, Some(&w)), is);
    all_fail(score_entry_points(&f.y, &f.s, &f.g, Some(&w)), is);
    w[5] = f64::NAN;
    all_fail(label_entry_points(&f.y, &f.p, &f.g, Some(&w)), is);
}

#[test]
fn negative_weight() {
    let f = fixture();
    let mut w = f.w.clone();
    w[2] = -0.5;
    let is = |e: &MetricError| matches!(e, MetricError::NegativeWeight { row: 2, .. });
    all_fail(label_entry_points(&f.y, &f.p, &f.g, Some(&w)), is);
    all_fail(score_entry_points(&f.y, &f.s, &f.g, Some(&w)), is);
}

#[test]
fn all_zero_weights() {
    let f = fixture();
    let w = vec![0.0; 8];
    let is = |e: &MetricError| matches!(e, MetricError::ZeroTotalWeight { .. });
    all_fail(label_entry_points(&f.y, &f.p, &f.g, Some(&w)), is);
    all_fail(score_entry_points(&f.y, &f.s, &f.g, Some(&w)), is);
}

#[test]
fn zero_weight_group_is_empty() {
    let f = fixture();
    let mut w = f.w.clone();
    w[4..].fill(0.0); // group 1 keeps its rows but loses all weight
    // Subset entry points look at group 0 only, so they legitimately succeed; skip them.
    let outcomes: Vec<Outcome> = label_entry_points(&f.y, &f.p, &f.g, Some(&w))
        .into_iter()
        .filter(|(n, _)| {
            ![
                "subset_rates",
                "positive_prediction_rate",
                "churn",
                "churn_rates",
            ]
            .contains(n)
        })
        .collect();
    all_fail(
        outcomes,
        |e| matches!(e, MetricError::EmptyGroup { group } if group == "1"),
    );
    // roc_curve / roc_auc ignore groups.
    let outcomes: Vec<Outcome> = score_entry_points(&f.y, &f.s, &f.g, Some(&w))
        .into_iter()
        .filter(|(n, _)| !["roc_curve", "roc_auc"].contains(n))
        .collect();
    all_fail(
        outcomes,
        |e| matches!(e, MetricError::EmptyGroup { group } if group == "1"),
    );
}

#[test]
fn length_mismatch() {
    let f = fixture();
    let is = |e: &MetricError| {
        matches!(
            e,
            MetricError::LengthMismatch {
                expected: 8,
                got: 7,
                ..
            }
        )
    };
    all_fail(label_entry_points(&f.y, &f.p, &f.g, Some(&f.w[..7])), is);
    all_fail(score_entry_points(&f.y, &f.s, &f.g, Some(&f.w[..7])), is);
    let short = Groups::from_codes(&[0, 0, 0, 0, 1, 1, 1]).unwrap();
    all_fail(label_entry_points(&f.y, &f.p, &short, None), |e| {
        matches!(e, MetricError::LengthMismatch { what: "groups", .. })
    });
    all_fail(
        score_entry_points(&f.y, &f.s, &short, None)
            .into_iter()
            .filter(|(n, _)| !["roc_curve", "roc_auc"].contains(n))
            .collect(),
        |e| matches!(e, MetricError::LengthMismatch { .. }),
    );
    let r =
        parity::equalized_odds_difference(&f.y[..7], &f.p, &f.g, None, &ParityOptions::default());
    assert!(matches!(
        r,
        Err(MetricError::LengthMismatch {
            what: "predictions",
            ..
        })
    ));
    let r = roc::roc_auc(&f.y[..7], &f.s, None);
    assert!(matches!(
        r,
        Err(MetricError::LengthMismatch { what: "labels", .. })
    ));
}

#[test]
fn label_two_in_binary_metric() {
    let f = fixture();
    let mut y = f.y.clone();
    y[6] = 2;
    let is = |e: &MetricError| {
        matches!(
            e,
            MetricError::LabelOutOfRange {
                what: "labels",
                row: 6,
                label: 2,
                n_classes: 2
            }
        )
    };
    let label_users: Vec<Outcome> = label_entry_points(&y, &f.p, &f.g, None)
        .into_iter()
        .filter(|(n, _)| {
            !n.starts_with("demographic")
                && *n != "multiclass_statistical_parity"
                && *n != "positive_prediction_rate"
                && *n != "churn"
        })
        .collect();
    all_fail(label_users, is);
    all_fail(
        score_entry_points(&y, &f.s, &f.g, None)
            .into_iter()
            .filter(|(n, _)| {
                ![
                    "ks_statistic",
                    "partial_statistical_parity",
                    "partial_demographic_parity",
                    "cross_group_auc",
                ]
                .contains(n)
            })
            .collect(),
        is,
    );
    // A prediction of 2 is named as a prediction.
    let mut p = f.p.clone();
    p[1] = 2;
    all_fail(
        label_entry_points(&f.y, &p, &f.g, None)
            .into_iter()
            .filter(|(n, _)| *n != "churn")
            .collect(),
        |e| {
            matches!(
                e,
                MetricError::LabelOutOfRange {
                    what: "predictions",
                    row: 1,
                    ..
                }
            )
        },
    );
    // churn reads `y` as the baseline here.
    let r = rate_constraints::churn(&f.p, &y, None, Subset::All);
    assert!(matches!(
        r,
        Err(MetricError::LabelOutOfRange {
            what: "baseline predictions",
            ..
        })
    ));
}

#[test]
fn empty_input() {
    let g = Groups::new(vec![], vec!["a".into()]).unwrap();
    let is = |e: &MetricError| matches!(e, MetricError::Empty { .. });
    all_fail(label_entry_points(&[], &[], &g, None), is);
    all_fail(score_entry_points(&[], &[], &g, None), is);
    let x = DMatrix::<f64>::zeros(0, 2);
    assert!(matches!(
        pca_disparity(
            &x,
            &g,
            &DMatrix::identity(2, 1),
            DEFAULT_ORTHONORMAL_TOLERANCE
        ),
        Err(MetricError::Empty { .. })
    ));
}

#[test]
fn empty_group() {
    // Group "c" is declared but has no rows.
    let f = fixture();
    let g = Groups::new(
        f.g.codes().to_vec(),
        vec!["a".into(), "b".into(), "c".into()],
    )
    .unwrap();
    let is = |e: &MetricError| matches!(e, MetricError::EmptyGroup { group } if group == "c");
    all_fail(
        label_entry_points(&f.y, &f.p, &g, None)
            .into_iter()
            .filter(|(n, _)| {
                ![
                    "subset_rates",
                    "positive_prediction_rate",
                    "churn",
                    "churn_rates",
                ]
                .contains(n)
            })
            .collect(),
        is,
    );
    all_fail(
        score_entry_points(&f.y, &f.s, &g, None)
            .into_iter()
            .filter(|(n, _)| !["roc_curve", "roc_auc"].contains(n))
            .collect(),
        is,
    );
    // The subset entry points fail when the subset itself is that group.
    let r = rate_constraints::subset_rates(
        &f.y,
        &f.p,
        None,
        Subset::Group {
            groups: &g,
            code: 2,
        },
        ZeroDivision::Error,
    );
    assert!(matches!(r, Err(MetricError::EmptyGroup { group }) if group == "c"));
    let x = DMatrix::from_fn(8, 2, |i, j| (i + j) as f64);
    let r = pca_disparity(
        &x,
        &g,
        &DMatrix::identity(2, 1),
        DEFAULT_ORTHONORMAL_TOLERANCE,
    );
    assert!(matches!(r, Err(MetricError::EmptyGroup { group }) if group == "c"));
    // compact() is the documented fix.
    assert!(GroupConfusion::new(&f.y, &f.p, &g.compact(), None).is_ok());
}

#[test]
fn group_without_positives_in_score_metrics() {
    // Group 1 has only negatives: its positive-score distribution does not exist.
    let f = fixture();
    let mut y = f.y.clone();
    y[4..].fill(0);
    for r in [
        ok(ks::equal_opportunity_ks(&y, &f.s, &f.g, None)),
        ok(partial::partial_equal_opportunity(
            &y,
            &f.s,
            &f.g,
            None,
            PercentileInterval::FULL,
            0.0,
        )),
        ok(partial::partial_equalized_odds(
            &y,
            &f.s,
            &f.g,
            None,
            PercentileInterval::FULL,
            0.0,
        )),
        ok(partial::partial_statistical_parity_given_label(
            &y,
            &f.s,
            &f.g,
            None,
            PercentileInterval::FULL,
            1,
        )),
        ok(roc::roc_curve_by_group(&y, &f.s, &f.g, None)),
    ] {
        assert!(
            matches!(r, Err(MetricError::UndefinedRate { ref group, .. }) if group == "1"),
            "{r:?}"
        );
    }
    // The label-free ones are fine.
    assert!(ks::ks_statistic(&f.s, &f.g, None).is_ok());
}

#[test]
fn group_without_positives_each_policy() {
    // Group 1 has only negatives → TPR undefined there.
    let f = fixture();
    let mut y = f.y.clone();
    y[4..].fill(0);
    let opts = |zero_division| ParityOptions {
        zero_division,
        ..ParityOptions::default()
    };
    let r = parity::equal_opportunity_difference(&y, &f.p, &f.g, None, &opts(ZeroDivision::Error));
    assert!(
        matches!(r, Err(MetricError::UndefinedRate { rate: "true positive rate", ref group }) if group == "1")
    );
    // Skip: only group 0 (TPR 1/2) remains → gap 0.
    let skip =
        parity::equal_opportunity_difference(&y, &f.p, &f.g, None, &opts(ZeroDivision::Skip))
            .unwrap();
    assert!(skip.abs() < 1e-12);
    // Zero: TPR 1/2 vs 0 → 1/2.
    let zero =
        parity::equal_opportunity_difference(&y, &f.p, &f.g, None, &opts(ZeroDivision::Zero))
            .unwrap();
    assert!((zero - 0.5).abs() < 1e-12);
}

#[test]
fn invalid_interval() {
    for (a, b) in [
        (0.5, 0.5),
        (0.6, 0.4),
        (-0.1, 0.5),
        (0.0, 1.1),
        (f64::NAN, 0.5),
        (0.0, f64::NAN),
    ] {
        assert!(
            matches!(
                PercentileInterval::new(a, b),
                Err(MetricError::InvalidInterval { .. })
            ),
            "[{a}, {b})"
        );
    }
    assert!(PercentileInterval::new(0.0, 1.0).is_ok());
}

#[test]
fn non_orthonormal_basis() {
    let x = dmatrix![1.0, 2.0; 3.0, 4.0];
    let g = Groups::from_codes(&[0, 1]).unwrap();
    let u = dmatrix![1.0; 1.0]; // norm √2: UᵀU − I = 1
    let r = pca_disparity(&x, &g, &u, DEFAULT_ORTHONORMAL_TOLERANCE);
    assert!(
        matches!(r, Err(MetricError::NotOrthonormal { max_deviation, .. }) if (max_deviation - 1.0).abs() < 1e-12)
    );
    // Two non-orthogonal unit columns.
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let u = dmatrix![1.0, h; 0.0, h];
    assert!(matches!(
        pca_disparity(&x, &g, &u, DEFAULT_ORTHONORMAL_TOLERANCE),
        Err(MetricError::NotOrthonormal { .. })
    ));
}

#[test]
fn pca_shape_nan_and_tolerance() {
    let x = dmatrix![1.0, 2.0; 3.0, 4.0];
    let g = Groups::from_codes(&[0, 1]).unwrap();
    let tol = DEFAULT_ORTHONORMAL_TOLERANCE;
    // Basis with the wrong number of rows, and r > d.
    assert!(matches!(
        pca_disparity(&x, &g, &DMatrix::identity(3, 1), tol),
        Err(MetricError::ShapeMismatch { .. })
    ));
    assert!(matches!(
        pca_disparity(&x, &g, &DMatrix::identity(2, 3), tol),
        Err(MetricError::ShapeMismatch { .. })
    ));
    let mut bad = x.clone();
    bad[(1, 0)] = f64::NAN;
    assert!(matches!(
        pca_disparity(&bad, &g, &DMatrix::identity(2, 1), tol),
        Err(MetricError::NonFinite { .. })
    ));
    let nan_u = dmatrix![f64::NAN; 0.0];
    assert!(matches!(
        pca_disparity(&x, &g, &nan_u, tol),
        Err(MetricError::NonFinite { .. })
    ));
    assert!(matches!(
        pca_disparity(&x, &g, &DMatrix::identity(2, 1), f64::NAN),
        Err(MetricError::InvalidParameter { .. })
    ));
    let g3 = Groups::from_codes(&[0, 1, 1]).unwrap();
    assert!(matches!(
        pca_disparity(&x, &g3, &DMatrix::identity(2, 1), tol),
        Err(MetricError::LengthMismatch { .. })
    ));
}

#[test]
fn bad_parameters() {
    let f = fixture();
    let gc = GroupConfusion::new(&f.y, &f.p, &f.g, None).unwrap();
    let same = PrivilegedPair {
        unprivileged: 1,
        privileged: 1,
    };
    let unknown = PrivilegedPair {
        unprivileged: 0,
        privileged: 5,
    };
    for pair in [same, unknown] {
        assert!(matches!(
            signed_gaps::statistical_parity_difference(&gc, pair),
            Err(MetricError::InvalidParameter { .. })
        ));
        assert!(signed_gaps::average_odds_difference(&gc, pair, ZeroDivision::Error).is_err());
    }
    // Multi-class: too few classes, class out of range, unknown group matrix.
    assert!(matches!(
        MulticlassConfusion::new(&f.y, &f.p, 1, &f.g, None),
        Err(MetricError::InvalidParameter {
            name: "n_classes",
            ..
        })
    ));
    assert!(matches!(
        MulticlassConfusion::new(&f.y, &f.p, usize::MAX, &f.g, None),
        Err(MetricError::InvalidParameter {
            name: "n_classes",
            ..
        })
    ));
    assert!(multiclass_statistical_parity(&f.p, 1 << 20, &f.g, None).is_err());
    let mc = MulticlassConfusion::new(&f.y, &f.p, 2, &f.g, None).unwrap();
    assert!(mc.one_vs_rest(2).is_err());
    assert!(mc.matrix(2).is_err());
    assert!(matches!(
        multiclass_equalized_odds(
            &[0, 3],
            &[0, 1],
            3,
            &Groups::from_codes(&[0, 1]).unwrap(),
            None,
            ZeroDivision::Error
        ),
        Err(MetricError::LabelOutOfRange {
            label: 3,
            n_classes: 3,
            ..
        })
    ));
    // Subsets: wrong mask length, unknown group code.
    let r = rate_constraints::subset_rates(
        &f.y,
        &f.p,
        None,
        Subset::Mask(&[true; 3]),
        ZeroDivision::Error,
    );
    assert!(matches!(
        r,
        Err(MetricError::LengthMismatch {
            what: "subset mask",
            ..
        })
    ));
    let r = rate_constraints::subset_rates(
        &f.y,
        &f.p,
        None,
        Subset::Group {
            groups: &f.g,
            code: 9,
        },
        ZeroDivision::Error,
    );
    assert!(matches!(r, Err(MetricError::InvalidParameter { .. })));
    let r = rate_constraints::churn(&f.p, &f.y, None, Subset::Mask(&[false; 8]));
    assert!(matches!(r, Err(MetricError::EmptyGroup { .. })));
    // Partial parity: non-finite threshold, label parameter 2.
    let i = PercentileInterval::FULL;
    assert!(partial::partial_demographic_parity(&f.s, &f.g, None, i, f64::NAN).is_err());
    assert!(partial::partial_statistical_parity_given_label(&f.y, &f.s, &f.g, None, i, 2).is_err());
    // Counts: negative or all-zero.
    let c = fair_metrics::ConfusionCounts {
        tp: -1.0,
        ..Default::default()
    };
    assert!(GroupConfusion::from_counts(vec!["a".into()], vec![c]).is_err());
    assert!(matches!(
        GroupConfusion::from_counts(vec!["a".into()], vec![Default::default()]),
        Err(MetricError::ZeroTotalWeight { .. })
    ));
    assert!(GroupConfusion::from_counts(vec![], vec![]).is_err());
    // Summaries from values: negative value, length mismatch.
    assert!(
        fair_metrics::GroupSummary::from_values("x", vec!["a".into()], 0.5, vec![Some(-0.1)])
            .is_err()
    );
    assert!(fair_metrics::GroupSummary::from_values("x", vec!["a".into()], 0.5, vec![]).is_err());
}

#[test]
fn error_messages_say_what_to_fix() {
    let e = MetricError::EmptyGroup { group: "x".into() };
    assert!(e.to_string().contains("Groups::compact()"));
    let e = MetricError::LabelOutOfRange {
        what: "labels",
        row: 3,
        label: 2,
        n_classes: 2,
    };
    assert!(e.to_string().contains("row 3"));
    let data: MetricError = fair_data::DataError::Empty { what: "x" }.into();
    assert!(matches!(data, MetricError::Data(_)));
}

#[test]
fn count_codes_rejects_a_code_past_the_declared_groups_naming_the_row() {
    // The bound check is fused into the counting pass: the row is still named.
    let err = GroupConfusion::count_codes(&[0, 1, 1], &[0, 1, 0], &[0, 1, 3], 3, None)
        .expect_err("code 3 of 3 groups");
    assert!(
        matches!(&err, MetricError::InvalidParameter { name: "group code", value, .. } if value == "3 at row 2"),
        "{err}"
    );
    // A bad label earlier in the rows is reported first, with its own row.
    let err = GroupConfusion::count_codes(&[0, 2, 1], &[0, 1, 0], &[0, 1, 3], 3, None)
        .expect_err("label 2");
    assert!(
        matches!(
            err,
            MetricError::LabelOutOfRange {
                row: 1,
                label: 2,
                ..
            }
        ),
        "{err}"
    );
    // Weighted rows take the same path.
    let err = GroupConfusion::count_codes(&[0, 1], &[0, 1], &[5, 0], 2, Some(&[1.0, 1.0]))
        .expect_err("code 5 of 2 groups");
    assert!(err.to_string().contains("5 at row 0"), "{err}");
}
