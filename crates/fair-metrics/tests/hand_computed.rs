//! Hand-computed expectations for every metric. Each fixture's numbers are derived in comments.

use fair_data::Groups;
use fair_metrics::multiclass::{
    MulticlassConfusion, multiclass_accuracy, multiclass_equalized_odds,
    multiclass_statistical_parity,
};
use fair_metrics::parity::{self, Aggregation, ParityOptions};
use fair_metrics::partial::{
    PercentileInterval, partial_demographic_parity, partial_equal_opportunity,
    partial_equalized_odds, partial_statistical_parity, partial_statistical_parity_given_label,
};
use fair_metrics::pca_losses::{DEFAULT_ORTHONORMAL_TOLERANCE, pca_disparity};
use fair_metrics::rate_constraints::{
    Subset, churn, churn_rates, positive_prediction_rate, subset_rates,
};
use fair_metrics::roc::{auc_by_group, cross_group_auc, roc_auc, roc_curve, roc_curve_by_group};
use fair_metrics::signed_gaps::{self, PrivilegedPair};
use fair_metrics::{GroupConfusion, GroupPair, GroupSummary, ParityMethod, Rate, ZeroDivision, ks};
use nalgebra::{DMatrix, dmatrix};

const TOL: f64 = 1e-12;

#[track_caller]
fn close(got: f64, want: f64) {
    assert!((got - want).abs() <= TOL, "got {got}, want {want}");
}

#[track_caller]
fn close_opt(got: Option<f64>, want: f64) {
    close(got.expect("defined"), want);
}

#[track_caller]
fn close_all(got: &[Option<f64>], want: &[f64]) {
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        close_opt(*g, *w);
    }
}

// ---------------------------------------------------------------------------------------------
// Weighted binary fixture, groups a and b.
//
//   row  group  y  ŷ  w
//   0    a      1  1  1   tp
//   1    a      1  0  2   fn
//   2    a      0  1  1   fp
//   3    a      0  0  3   tn
//   4    b      1  1  2   tp
//   5    b      1  1  1   tp
//   6    b      0  1  1   fp
//   7    b      0  0  1   tn
//
// a: tp 1, fn 2, fp 1, tn 3 (total 7).  b: tp 3, fn 0, fp 1, tn 1 (total 5).
// overall: tp 4, fn 2, fp 2, tn 4 (total 12).
// ---------------------------------------------------------------------------------------------
const Y: [usize; 8] = [1, 1, 0, 0, 1, 1, 0, 0];
const P: [usize; 8] = [1, 0, 1, 0, 1, 1, 1, 0];
const W: [f64; 8] = [1.0, 2.0, 1.0, 3.0, 2.0, 1.0, 1.0, 1.0];

fn ab() -> Groups {
    Groups::from_labels(&["a", "a", "a", "a", "b", "b", "b", "b"])
}

fn weighted() -> GroupConfusion {
    GroupConfusion::new(&Y, &P, &ab(), Some(&W)).unwrap()
}

#[test]
fn weighted_counts_per_group() {
    let gc = weighted();
    let a = gc.by_group()[0];
    let b = gc.by_group()[1];
    close(a.tp, 1.0);
    close(a.fn_, 2.0);
    close(a.fp, 1.0);
    close(a.tn, 3.0);
    close(b.tp, 3.0);
    close(b.fn_, 0.0);
    close(b.fp, 1.0);
    close(b.tn, 1.0);
    close(gc.overall().total(), 12.0);
}

#[test]
fn every_rate_weighted() {
    let gc = weighted();
    let z = ZeroDivision::Error;
    // a / b / overall, from the counts above.
    let cases: [(Rate, [f64; 3]); 8] = [
        (Rate::Selection, [2.0 / 7.0, 4.0 / 5.0, 6.0 / 12.0]),
        (Rate::TruePositive, [1.0 / 3.0, 1.0, 4.0 / 6.0]),
        (Rate::FalsePositive, [1.0 / 4.0, 1.0 / 2.0, 2.0 / 6.0]),
        (Rate::TrueNegative, [3.0 / 4.0, 1.0 / 2.0, 4.0 / 6.0]),
        (Rate::FalseNegative, [2.0 / 3.0, 0.0, 2.0 / 6.0]),
        (Rate::Precision, [1.0 / 2.0, 3.0 / 4.0, 4.0 / 6.0]),
        (Rate::Accuracy, [4.0 / 7.0, 4.0 / 5.0, 8.0 / 12.0]),
        (Rate::Error, [3.0 / 7.0, 1.0 / 5.0, 4.0 / 12.0]),
    ];
    for (rate, [a, b, overall]) in cases {
        let s = gc.summary(rate, z).unwrap();
        close_all(&s.by_group, &[a, b]);
        close(s.overall, overall);
        close(s.difference, (a - b).abs());
        close(s.ratio, a.min(b) / a.max(b));
        assert_eq!(s.metric, rate.name());
    }
}

#[test]
fn selection_rate_summary_matches_fairlearn_conventions() {
    let s = weighted()
        .summary(Rate::Selection, ZeroDivision::Error)
        .unwrap();
    // between groups: 4/5 − 2/7 = 18/35; (2/7)/(4/5) = 5/14.
    close(s.difference, 18.0 / 35.0);
    close(s.ratio, 5.0 / 14.0);
    close(s.group_min, 2.0 / 7.0);
    close(s.group_max, 4.0 / 5.0);
    // to_overall (overall 1/2): max(|2/7 − 1/2|, |4/5 − 1/2|) = max(3/14, 3/10) = 3/10;
    // min(min(4/7, 7/4), min(8/5, 5/8)) = 4/7.
    close(s.difference_to_overall, 3.0 / 10.0);
    close(s.ratio_to_overall, 4.0 / 7.0);
    close(s.difference_by(ParityMethod::ToOverall), 3.0 / 10.0);
    close(s.ratio_by(ParityMethod::BetweenGroups), 5.0 / 14.0);
}

#[test]
fn fairlearn_selection_rate_fixtures() {
    // fairlearn test_selection_rate: unweighted 5 of 8 selected = 0.625; weighted: selected
    // weights 2 + 3 = 5 of a total 16 = 0.3125.
    let one = Groups::from_codes(&[0; 8]).unwrap();
    let s = parity::selection_rate_by_group(&[0, 0, 0, 1, 1, 1, 1, 1], &one, None).unwrap();
    close(s.overall, 0.625);
    let w = [1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 1.0, 2.0];
    let s = parity::selection_rate_by_group(&[0, 1, 1, 0, 0, 0, 0, 0], &one, Some(&w)).unwrap();
    close(s.overall, 0.3125);
    close_all(&s.by_group, &[0.3125]);
}

#[test]
fn parity_functions_weighted() {
    let g = ab();
    let opts = ParityOptions::default();
    let bg = ParityMethod::BetweenGroups;
    close(
        parity::demographic_parity_difference(&P, &g, Some(&W), bg).unwrap(),
        18.0 / 35.0,
    );
    close(
        parity::demographic_parity_ratio(&P, &g, Some(&W), bg).unwrap(),
        5.0 / 14.0,
    );
    close(
        parity::demographic_parity_difference(&P, &g, Some(&W), ParityMethod::ToOverall).unwrap(),
        3.0 / 10.0,
    );
    close(
        parity::demographic_parity_ratio(&P, &g, Some(&W), ParityMethod::ToOverall).unwrap(),
        4.0 / 7.0,
    );
    // TPR: 1/3 vs 1 → diff 2/3, ratio 1/3.  FPR: 1/4 vs 1/2 → diff 1/4, ratio 1/2.
    close(
        parity::equal_opportunity_difference(&Y, &P, &g, Some(&W), &opts).unwrap(),
        2.0 / 3.0,
    );
    close(
        parity::equal_opportunity_ratio(&Y, &P, &g, Some(&W), &opts).unwrap(),
        1.0 / 3.0,
    );
    close(
        parity::equalized_odds_difference(&Y, &P, &g, Some(&W), &opts).unwrap(),
        2.0 / 3.0,
    );
    close(
        parity::equalized_odds_ratio(&Y, &P, &g, Some(&W), &opts).unwrap(),
        1.0 / 3.0,
    );
    let mean = ParityOptions {
        aggregation: Aggregation::Mean,
        ..opts
    };
    // (2/3 + 1/4)/2 = 11/24; (1/3 + 1/2)/2 = 5/12.
    close(
        parity::equalized_odds_difference(&Y, &P, &g, Some(&W), &mean).unwrap(),
        11.0 / 24.0,
    );
    close(
        parity::equalized_odds_ratio(&Y, &P, &g, Some(&W), &mean).unwrap(),
        5.0 / 12.0,
    );
    // Accuracy 4/7 vs 4/5: diff 8/35, ratio 5/7.
    close(
        parity::accuracy_difference(&Y, &P, &g, Some(&W), bg).unwrap(),
        8.0 / 35.0,
    );
    close(
        parity::accuracy_ratio(&Y, &P, &g, Some(&W), bg).unwrap(),
        5.0 / 7.0,
    );
    // TPR to overall (2/3): max(|1/3 − 2/3|, |1 − 2/3|) = 1/3.
    let to_overall = ParityOptions {
        method: ParityMethod::ToOverall,
        ..opts
    };
    close(
        parity::equal_opportunity_difference(&Y, &P, &g, Some(&W), &to_overall).unwrap(),
        1.0 / 3.0,
    );

    let all = parity::parity_gaps(&weighted(), &opts).unwrap();
    close(all.demographic_parity_difference, 18.0 / 35.0);
    close(all.demographic_parity_ratio, 5.0 / 14.0);
    close(all.equal_opportunity_difference, 2.0 / 3.0);
    close(all.equal_opportunity_ratio, 1.0 / 3.0);
    close(all.equalized_odds_difference, 2.0 / 3.0);
    close(all.equalized_odds_ratio, 1.0 / 3.0);
    close(all.accuracy_difference, 8.0 / 35.0);
    close(all.accuracy_ratio, 5.0 / 7.0);
}

#[test]
fn parity_unweighted() {
    // Unweighted: a: tp 1, fn 1, fp 1, tn 1 → SR 1/2, TPR 1/2, FPR 1/2.
    //             b: tp 2, fn 0, fp 1, tn 1 → SR 3/4, TPR 1,   FPR 1/2.
    let g = ab();
    let opts = ParityOptions::default();
    close(
        parity::demographic_parity_difference(&P, &g, None, ParityMethod::BetweenGroups).unwrap(),
        0.25,
    );
    close(
        parity::demographic_parity_ratio(&P, &g, None, ParityMethod::BetweenGroups).unwrap(),
        2.0 / 3.0,
    );
    close(
        parity::equalized_odds_difference(&Y, &P, &g, None, &opts).unwrap(),
        0.5,
    );
    close(
        parity::equalized_odds_ratio(&Y, &P, &g, None, &opts).unwrap(),
        0.5,
    );
}

#[test]
fn integer_weights_equal_repeated_rows() {
    // Weight k must mean "this row k times".
    let (mut y, mut p, mut codes) = (vec![], vec![], vec![]);
    for i in 0..8 {
        for _ in 0..W[i] as usize {
            y.push(Y[i]);
            p.push(P[i]);
            codes.push(usize::from(i >= 4));
        }
    }
    let rep = GroupConfusion::new(&y, &p, &Groups::from_codes(&codes).unwrap(), None).unwrap();
    let w = weighted();
    for rate in Rate::ALL {
        let (a, b) = (
            rep.summary(rate, ZeroDivision::Error).unwrap(),
            w.summary(rate, ZeroDivision::Error).unwrap(),
        );
        close(a.difference, b.difference);
        close(a.overall, b.overall);
    }
}

#[test]
fn aif360_signed_gaps() {
    let gc = weighted();
    let pair = PrivilegedPair {
        unprivileged: 0,
        privileged: 1,
    };
    let z = ZeroDivision::Error;
    // SR_u − SR_p = 2/7 − 4/5 = −18/35; SR_u/SR_p = 5/14.
    close(
        signed_gaps::statistical_parity_difference(&gc, pair).unwrap(),
        -18.0 / 35.0,
    );
    close_opt(
        signed_gaps::disparate_impact(&gc, pair, z).unwrap(),
        5.0 / 14.0,
    );
    // TPR_u − TPR_p = 1/3 − 1 = −2/3.
    close_opt(
        signed_gaps::equal_opportunity_difference(&gc, pair, z).unwrap(),
        -2.0 / 3.0,
    );
    // ½[(1/4 − 1/2) + (1/3 − 1)] = −11/24; abs: ½[1/4 + 2/3] = 11/24.
    close_opt(
        signed_gaps::average_odds_difference(&gc, pair, z).unwrap(),
        -11.0 / 24.0,
    );
    close_opt(
        signed_gaps::average_abs_odds_difference(&gc, pair, z).unwrap(),
        11.0 / 24.0,
    );
    // Swapping the roles flips the sign.
    let swapped = PrivilegedPair {
        unprivileged: 1,
        privileged: 0,
    };
    close(
        signed_gaps::statistical_parity_difference(&gc, swapped).unwrap(),
        18.0 / 35.0,
    );
    close_opt(
        signed_gaps::disparate_impact(&gc, swapped, z).unwrap(),
        14.0 / 5.0,
    );
}

#[test]
fn disparate_impact_with_zero_privileged_rate() {
    // Privileged group b never selected, a selected half the time.
    let g = ab();
    let gc = GroupConfusion::new(
        &[1, 0, 1, 0, 1, 0, 1, 0],
        &[1, 1, 0, 0, 0, 0, 0, 0],
        &g,
        None,
    )
    .unwrap();
    let pair = PrivilegedPair {
        unprivileged: 0,
        privileged: 1,
    };
    assert!(matches!(
        signed_gaps::disparate_impact(&gc, pair, ZeroDivision::Error),
        Err(fair_metrics::MetricError::UndefinedRate { group, .. }) if group == "b"
    ));
    assert_eq!(
        signed_gaps::disparate_impact(&gc, pair, ZeroDivision::Skip).unwrap(),
        None
    );
    close_opt(
        signed_gaps::disparate_impact(&gc, pair, ZeroDivision::Zero).unwrap(),
        0.0,
    );
    // Both at zero: equal rates, ratio 1.
    let none = GroupConfusion::new(&[1, 0, 1, 0, 1, 0, 1, 0], &[0; 8], &g, None).unwrap();
    close_opt(
        signed_gaps::disparate_impact(&none, pair, ZeroDivision::Error).unwrap(),
        1.0,
    );
}

#[test]
fn ratio_of_all_zero_rates_is_one() {
    let s = GroupSummary::from_values(
        "x",
        vec!["a".into(), "b".into()],
        0.0,
        vec![Some(0.0), Some(0.0)],
    )
    .unwrap();
    close(s.ratio, 1.0);
    close(s.ratio_to_overall, 1.0);
    close(s.difference, 0.0);
    // x/0 with x > 0 against the overall gives 0.
    let s = GroupSummary::from_values(
        "x",
        vec!["a".into(), "b".into()],
        0.5,
        vec![Some(0.0), Some(1.0)],
    )
    .unwrap();
    close(s.ratio, 0.0);
    close(s.ratio_to_overall, 0.0);
    close(s.difference_to_overall, 0.5);
}

// ---------------------------------------------------------------------------------------------
// Zero-division policies: group b has no positives, so its TPR is 0/0.
//   a: (y=1, ŷ=1), (0, 0)  → TPR 1.    b: (0, 1), (0, 0) → TPR undefined.
// ---------------------------------------------------------------------------------------------
fn no_positives_in_b() -> GroupConfusion {
    let g = Groups::from_labels(&["a", "a", "b", "b"]);
    GroupConfusion::new(&[1, 0, 0, 0], &[1, 0, 1, 0], &g, None).unwrap()
}

#[test]
fn zero_division_error_names_rate_and_group() {
    let err = no_positives_in_b()
        .summary(Rate::TruePositive, ZeroDivision::Error)
        .unwrap_err();
    assert_eq!(
        err,
        fair_metrics::MetricError::UndefinedRate {
            rate: "true positive rate",
            group: "b".into()
        }
    );
    assert!(err.to_string().contains("ZeroDivision::Skip"));
}

#[test]
fn zero_division_skip_leaves_group_out() {
    let s = no_positives_in_b()
        .summary(Rate::TruePositive, ZeroDivision::Skip)
        .unwrap();
    assert_eq!(s.by_group[1], None);
    close_opt(s.by_group[0], 1.0);
    close(s.overall, 1.0);
    close(s.difference, 0.0);
    close(s.ratio, 1.0);
    // The FPR is defined for both (a: 0/1, b: 1/2) and unaffected by the policy.
    let f = no_positives_in_b()
        .summary(Rate::FalsePositive, ZeroDivision::Skip)
        .unwrap();
    close_all(&f.by_group, &[0.0, 0.5]);
}

#[test]
fn zero_division_zero_is_sklearn_convention() {
    let s = no_positives_in_b()
        .summary(Rate::TruePositive, ZeroDivision::Zero)
        .unwrap();
    close_all(&s.by_group, &[1.0, 0.0]);
    close(s.difference, 1.0);
    close(s.ratio, 0.0);
    // Equalized odds under Zero: TPR diff 1, FPR diff 0.5 → 1.
    let g = Groups::from_labels(&["a", "a", "b", "b"]);
    let opts = ParityOptions {
        zero_division: ZeroDivision::Zero,
        ..ParityOptions::default()
    };
    close(
        parity::equalized_odds_difference(&[1, 0, 0, 0], &[1, 0, 1, 0], &g, None, &opts).unwrap(),
        1.0,
    );
    let skip = ParityOptions {
        zero_division: ZeroDivision::Skip,
        ..opts
    };
    close(
        parity::equalized_odds_difference(&[1, 0, 0, 0], &[1, 0, 1, 0], &g, None, &skip).unwrap(),
        0.5,
    );
}

#[test]
fn skip_with_every_group_undefined_is_an_error() {
    let g = Groups::from_labels(&["a", "b"]);
    let gc = GroupConfusion::new(&[0, 0], &[1, 0], &g, None).unwrap();
    assert!(matches!(
        gc.summary(Rate::TruePositive, ZeroDivision::Skip),
        Err(fair_metrics::MetricError::UndefinedMetric { .. })
    ));
}

#[test]
fn signed_gaps_follow_policy() {
    let gc = no_positives_in_b();
    let pair = PrivilegedPair {
        unprivileged: 1,
        privileged: 0,
    };
    assert!(signed_gaps::equal_opportunity_difference(&gc, pair, ZeroDivision::Error).is_err());
    assert_eq!(
        signed_gaps::equal_opportunity_difference(&gc, pair, ZeroDivision::Skip).unwrap(),
        None
    );
    close_opt(
        signed_gaps::equal_opportunity_difference(&gc, pair, ZeroDivision::Zero).unwrap(),
        -1.0,
    );
}

// ---------------------------------------------------------------------------------------------
// Multi-class, weighted. 3 classes, groups a and b.
//   a: (y, ŷ, w) = (0,0,1) (1,1,1) (2,1,2) (1,0,1)   → M_a[0][0]=1 M_a[1][1]=1 M_a[2][1]=2 M_a[1][0]=1, total 5
//   b:             (0,1,1) (1,1,1) (2,2,1) (2,2,1)   → M_b[0][1]=1 M_b[1][1]=1 M_b[2][2]=2,            total 4
// class 0: TPR a 1/1, b 0/1; FPR a 1/4, b 0/3          → (1 + 1/4)/2 = 5/8
// class 1: TPR a 1/2, b 1/1; FPR a 2/3, b 1/3          → (1/2 + 1/3)/2 = 5/12
// class 2: TPR a 0/2, b 2/2; FPR a 0/3, b 0/2          → (1 + 0)/2 = 1/2
// MEO = 5/8 (class 0).  P(ŷ=i): a (2/5, 3/5, 0), b (0, 1/2, 1/2) → SP = 1/2 (class 2).
// Accuracy: a 2/5, b 3/4, overall 5/9.
// ---------------------------------------------------------------------------------------------
const MY: [usize; 8] = [0, 1, 2, 1, 0, 1, 2, 2];
const MP: [usize; 8] = [0, 1, 1, 0, 1, 1, 2, 2];
const MW: [f64; 8] = [1.0, 1.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.0];

#[test]
fn multiclass_meo_sp_accuracy_weighted() {
    let g = ab();
    let meo = multiclass_equalized_odds(&MY, &MP, 3, &g, Some(&MW), ZeroDivision::Error).unwrap();
    close(meo.value, 5.0 / 8.0);
    assert_eq!(meo.class, 0);
    assert_eq!(
        meo.pair,
        GroupPair {
            first: 0,
            second: 1
        }
    );
    close_all(&meo.per_class, &[5.0 / 8.0, 5.0 / 12.0, 0.5]);

    let sp = multiclass_statistical_parity(&MP, 3, &g, Some(&MW)).unwrap();
    close(sp.value, 0.5);
    assert_eq!(sp.class, 2);
    close_all(&sp.per_class, &[0.4, 0.1, 0.5]);

    let acc = multiclass_accuracy(&MY, &MP, 3, &g, Some(&MW)).unwrap();
    close_all(&acc.by_group, &[0.4, 0.75]);
    close(acc.overall, 5.0 / 9.0);
}

#[test]
fn multiclass_one_vs_rest_counts() {
    let mc = MulticlassConfusion::new(&MY, &MP, 3, &ab(), Some(&MW)).unwrap();
    // Class 1 in group a: tp = M11 = 1, fn = M10 = 1, fp = M21 = 2, tn = 5 − 2 − 2 = 1.
    let ovr = mc.one_vs_rest(1).unwrap();
    let a = ovr.by_group()[0];
    close(a.tp, 1.0);
    close(a.fn_, 1.0);
    close(a.fp, 2.0);
    close(a.tn, 1.0);
    let tpr = ovr
        .summary(Rate::TruePositive, ZeroDivision::Error)
        .unwrap();
    close_all(&tpr.by_group, &[0.5, 1.0]);
    let m = mc.matrix(1).unwrap();
    assert_eq!(m, dmatrix![0.0, 1.0, 0.0; 0.0, 1.0, 0.0; 0.0, 0.0, 2.0]);
}

#[test]
fn meo_maximises_over_pairs_not_over_ranges() {
    // Three groups, binary labels (4 rows each: 2 positives then 2 negatives).
    //   s0: TPR 0,   FPR 0      (positives predicted 0,0; negatives 0,0)
    //   s1: TPR 1,   FPR 0      (1,1; 0,0)
    //   s2: TPR 1/2, FPR 1      (1,0; 1,1)
    // Pairs: (0,1) (1+0)/2 = 1/2; (0,2) (1/2+1)/2 = 3/4; (1,2) (1/2+1)/2 = 3/4.
    // The TPR range (1) plus the FPR range (1) over 2 would wrongly give 1.
    let y = [1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0];
    let p = [0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1];
    let g = Groups::from_codes(&[0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]).unwrap();
    let meo = multiclass_equalized_odds(&y, &p, 2, &g, None, ZeroDivision::Error).unwrap();
    close(meo.value, 0.75);
    assert_eq!(
        meo.pair,
        GroupPair {
            first: 0,
            second: 2
        }
    );
    // Binary MEO equals AIF360's average |odds| difference on the worst pair.
    let gc = GroupConfusion::new(&y, &p, &g, None).unwrap();
    let aaod = signed_gaps::average_abs_odds_difference(
        &gc,
        PrivilegedPair {
            unprivileged: 0,
            privileged: 2,
        },
        ZeroDivision::Error,
    )
    .unwrap();
    close_opt(aaod, 0.75);
    // SP: P(ŷ=1) = 0, 1/2, 3/4 → 3/4 between s0 and s2.
    let sp = multiclass_statistical_parity(&p, 2, &g, None).unwrap();
    close(sp.value, 0.75);
    assert_eq!(
        sp.pair,
        GroupPair {
            first: 0,
            second: 2
        }
    );
}

#[test]
fn meo_zero_division_policies() {
    // Group b has no class-2 rows: TPR_2(b) undefined.
    let g = Groups::from_labels(&["a", "a", "a", "b", "b"]);
    let y = [0, 1, 2, 0, 1];
    let p = [0, 1, 2, 0, 0];
    assert!(matches!(
        multiclass_equalized_odds(&y, &p, 3, &g, None, ZeroDivision::Error),
        Err(fair_metrics::MetricError::UndefinedRate { group, .. }) if group == "b"
    ));
    // Skip: class 0: TPR 1 vs 1; FPR a 0/2, b 1/1 → 1/2.  class 1: TPR 1 vs 0, FPR 0 vs 0 → 1/2.
    // class 2 skipped.
    let skip = multiclass_equalized_odds(&y, &p, 3, &g, None, ZeroDivision::Skip).unwrap();
    close(skip.value, 0.5);
    assert_eq!(skip.per_class[2], None);
    // Zero: class 2: TPR a 1 vs b 0, FPR 0 vs 0 → 1/2 as well; max still 1/2.
    let zero = multiclass_equalized_odds(&y, &p, 3, &g, None, ZeroDivision::Zero).unwrap();
    close_opt(zero.per_class[2], 0.5);
}

// ---------------------------------------------------------------------------------------------
// Scores. a = {0.1, 0.4, 0.4, 0.9}, b = {0.4, 0.5, 0.7}, c = {0.2, 0.3}.
// F̄(θ) = fraction strictly above θ:
//   θ:     0.9   0.7   0.5   0.4   0.3   0.2   0.1
//   a:     0     1/4   1/4   1/4   3/4   3/4   3/4
//   b:     0     0     1/3   2/3   1     1     1
//   c:     0     0     0     0     0     1/2   1
// KS(a,b) = 5/12 at θ=0.4 (a tie across groups: splitting the 0.4 block would give 3/4).
// KS(a,c) = 3/4 at θ=0.3. KS(b,c) = 1 at θ=0.3.
// ---------------------------------------------------------------------------------------------
const S: [f64; 9] = [0.1, 0.4, 0.4, 0.9, 0.4, 0.5, 0.7, 0.2, 0.3];

fn abc() -> Groups {
    Groups::from_codes(&[0, 0, 0, 0, 1, 1, 1, 2, 2]).unwrap()
}

#[test]
fn ks_three_groups_with_ties() {
    let ks = ks::ks_statistic(&S, &abc(), None).unwrap();
    close(ks.matrix[(0, 1)], 5.0 / 12.0);
    close(ks.matrix[(1, 0)], 5.0 / 12.0);
    close(ks.matrix[(0, 2)], 0.75);
    close(ks.matrix[(1, 2)], 1.0);
    close(ks.matrix[(2, 2)], 0.0);
    close(ks.max, 1.0);
    assert_eq!(
        ks.worst_pair,
        GroupPair {
            first: 1,
            second: 2
        }
    );
}

#[test]
fn ks_weighted() {
    // a weights (2,1,1,1) on (0.1,0.4,0.4,0.9): W 5.  b weights (1,1,2) on (0.4,0.5,0.7): W 4.
    //   θ=0.7: 1/5 vs 0 → 1/5;  θ=0.5: 1/5 vs 2/4 → 3/10;  θ=0.4: 1/5 vs 3/4 → 11/20;
    //   θ=0.1: 3/5 vs 1 → 2/5.  KS = 11/20.
    let g = Groups::from_codes(&[0, 0, 0, 0, 1, 1, 1]).unwrap();
    let w = [2.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0];
    close(
        ks::ks_statistic(&S[..7], &g, Some(&w)).unwrap().max,
        11.0 / 20.0,
    );
}

#[test]
fn ks_treats_signed_zeros_as_equal() {
    // a = {-0.0, 1}, b = {0.0, 1}: identical distributions, Δ = 0.
    let g = Groups::from_codes(&[0, 0, 1, 1]).unwrap();
    close(
        ks::ks_statistic(&[-0.0, 1.0, 0.0, 1.0], &g, None)
            .unwrap()
            .max,
        0.0,
    );
}

#[test]
fn eo_ks_uses_positives_only() {
    // Positives: a {0.9, 0.4}, b {0.5, 0.7}; negatives differ wildly but must not matter.
    //   θ=0.7: 1/2 vs 0 → 1/2;  θ=0.5: 1/2 vs 1/2;  θ=0.4: 1/2 vs 1 → 1/2.  EO-Δ = 1/2.
    let g = Groups::from_codes(&[0, 0, 0, 1, 1, 1]).unwrap();
    let scores = [0.9, 0.4, -5.0, 0.5, 0.7, 9.0];
    let labels = [1, 1, 0, 1, 1, 0];
    close(
        ks::equal_opportunity_ks(&labels, &scores, &g, None)
            .unwrap()
            .max,
        0.5,
    );
}

#[test]
fn partial_parity_on_interval() {
    let g = Groups::from_codes(&[0, 0, 0, 0, 1, 1, 1]).unwrap();
    let s = &S[..7];
    let i = PercentileInterval::new(0.25, 0.75).unwrap();
    // in-band(x) = (clip(x, 1/4, 3/4) − 1/4) / (1/2):
    //   θ=0.5: a 1/4 → 0, b 1/3 → 1/6;  θ=0.4: a 1/4 → 0, b 2/3 → 5/6;  θ=0.1: 1 vs 1.
    close(
        partial_statistical_parity(s, &g, None, i).unwrap().max,
        5.0 / 6.0,
    );
    // pDP at θ̂ = 0.45: a F̄ 1/4 → 0, b 2/3 → 5/6. At θ̂ = 0: both 1 → 0.
    close(
        partial_demographic_parity(s, &g, None, i, 0.45)
            .unwrap()
            .max,
        5.0 / 6.0,
    );
    close(
        partial_demographic_parity(s, &g, None, i, 0.0).unwrap().max,
        0.0,
    );
    // Full range equals KS exactly.
    let full = partial_statistical_parity(s, &g, None, PercentileInterval::FULL).unwrap();
    assert_eq!(
        full.max.to_bits(),
        ks::ks_statistic(s, &g, None).unwrap().max.to_bits()
    );
    // Top quarter only: F̄ clipped to [0, 1/4] — a reaches 1/4 at θ=0.7 where b is 0 → 1.
    let top = PercentileInterval::new(0.0, 0.25).unwrap();
    close(
        partial_statistical_parity(s, &g, None, top).unwrap().max,
        1.0,
    );
}

#[test]
fn partial_label_conditioned_metrics() {
    // Group a: positives {0.9, 0.2}, negatives {0.6, -0.3}; group b: positives {0.8, 0.7, 0.1},
    // negatives {0.5}. I = [0, 1/2), θ̂ = 0.5.
    //   positives: F̄_a(0.5) = 1/2 → in-band 1;  F̄_b(0.5) = 2/3 → clipped 1/2 → 1.  pEOP = 0.
    //   negatives: F̄_a(0.5) = 1/2 → 1;          F̄_b(0.5) = 0 → 0.              gap 1.
    let g = Groups::from_codes(&[0, 0, 0, 0, 1, 1, 1, 1]).unwrap();
    let scores = [0.9, 0.2, 0.6, -0.3, 0.8, 0.7, 0.1, 0.5];
    let labels = [1, 1, 0, 0, 1, 1, 1, 0];
    let i = PercentileInterval::new(0.0, 0.5).unwrap();
    close(
        partial_equal_opportunity(&labels, &scores, &g, None, i, 0.5)
            .unwrap()
            .max,
        0.0,
    );
    let eod = partial_equalized_odds(&labels, &scores, &g, None, i, 0.5).unwrap();
    close(eod.value, 1.0);
    assert_eq!(eod.worst_label, 0);
    close(eod.positives.max, 0.0);
    // pSP on positives, I = [0, 1/2): a {0.9, 0.2}, b {0.8, 0.7, 0.1}
    //   θ=0.8: a 1/2 → 1, b 0 → 0: gap 1.
    close(
        partial_statistical_parity_given_label(&labels, &scores, &g, None, i, 1)
            .unwrap()
            .max,
        1.0,
    );
    // On the full interval: θ=0.8 1/2 vs 0; θ=0.7 1/2 vs 1/3; θ=0.2 1/2 vs 2/3; θ=0.1 1 vs 2/3 → 1/2.
    close(
        partial_statistical_parity_given_label(
            &labels,
            &scores,
            &g,
            None,
            PercentileInterval::FULL,
            1,
        )
        .unwrap()
        .max,
        0.5,
    );
}

// ---------------------------------------------------------------------------------------------
// ROC/AUC. positives {0.9, 0.4}, negatives {0.4, 0.1, 0.5}.
// Pairs: 0.9 beats all 3; 0.4 ties 0.4 (½), beats 0.1, loses to 0.5 → 4.5 / 6 = 3/4.
// ROC (threshold, fpr, tpr): (∞,0,0) (0.9,0,1/2) (0.5,1/3,1/2) (0.4,2/3,1) (0.1,1,1);
// trapezoid 1/6 + 1/4 + 1/3 = 3/4.
// ---------------------------------------------------------------------------------------------
const RL: [usize; 5] = [1, 0, 1, 0, 0];
const RS: [f64; 5] = [0.9, 0.4, 0.4, 0.1, 0.5];

#[test]
fn roc_curve_points_and_auc() {
    let roc = roc_curve(&RL, &RS, None).unwrap();
    assert!(roc.thresholds[0].is_infinite());
    let t = &roc.thresholds[1..];
    let want_t = [0.9, 0.5, 0.4, 0.1];
    for (a, b) in t.iter().zip(want_t) {
        close(*a, b);
    }
    let want_fpr = [0.0, 0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0];
    let want_tpr = [0.0, 0.5, 0.5, 1.0, 1.0];
    for k in 0..5 {
        close(roc.false_positive_rate[k], want_fpr[k]);
        close(roc.true_positive_rate[k], want_tpr[k]);
    }
    close(roc.auc, 0.75);
    let trapezoid: f64 = (1..5)
        .map(|k| {
            (roc.false_positive_rate[k] - roc.false_positive_rate[k - 1])
                * (roc.true_positive_rate[k] + roc.true_positive_rate[k - 1])
                / 2.0
        })
        .sum();
    close(trapezoid, 0.75);
}

#[test]
fn auc_weighted() {
    // Weights: 0.9 (pos) 2, 0.5 (neg) 3, others 1. W+ = 3, W− = 5.
    // 0.9 beats every negative: 2·(1+1+3) = 10; 0.4 (w 1): ½·1 + 1·1 + 0·3 = 1.5. AUC = 11.5/15.
    let w = [2.0, 1.0, 1.0, 1.0, 3.0];
    close(roc_auc(&RL, &RS, Some(&w)).unwrap(), 11.5 / 15.0);
}

#[test]
fn auc_per_group_and_across_groups() {
    // Group x = rows 0..5 above (AUC 3/4); group y: positives {0.3}, negatives {0.6} → AUC 0.
    let labels = [1, 0, 1, 0, 0, 1, 0];
    let scores = [0.9, 0.4, 0.4, 0.1, 0.5, 0.3, 0.6];
    let g = Groups::from_codes(&[0, 0, 0, 0, 0, 1, 1]).unwrap();
    let s = auc_by_group(&labels, &scores, &g, None, ZeroDivision::Error).unwrap();
    close_all(&s.by_group, &[0.75, 0.0]);
    close(s.difference, 0.75);
    // Pooled: positives {0.9, 0.4, 0.3}, negatives {0.4, 0.1, 0.5, 0.6}:
    // 0.9: 4; 0.4: ½ + 1 = 1.5; 0.3: 1 → 6.5 / 12.
    close(s.overall, 6.5 / 12.0);
    let curves = roc_curve_by_group(&labels, &scores, &g, None).unwrap();
    close(curves[0].auc, 0.75);
    close(curves[1].auc, 0.0);

    // Cross-group: a {0.1, 0.4, 0.4, 0.9} vs b {0.4, 0.5, 0.7}:
    // P(a > b) + ½P(=) = (0 + ½ + ½ + 3)/12 = 1/3 → gap 1/6.
    let g2 = Groups::from_codes(&[0, 0, 0, 0, 1, 1, 1]).unwrap();
    close(cross_group_auc(&S[..7], &g2, None).unwrap().max, 1.0 / 6.0);
}

#[test]
fn auc_by_group_policies() {
    // Group y has only positives.
    let g = Groups::from_codes(&[0, 0, 1]).unwrap();
    let (labels, scores) = ([1, 0, 1], [0.9, 0.1, 0.5]);
    assert!(auc_by_group(&labels, &scores, &g, None, ZeroDivision::Error).is_err());
    let s = auc_by_group(&labels, &scores, &g, None, ZeroDivision::Skip).unwrap();
    assert_eq!(s.by_group[1], None);
    close_opt(s.by_group[0], 1.0);
    assert!(matches!(
        auc_by_group(&labels, &scores, &g, None, ZeroDivision::Zero),
        Err(fair_metrics::MetricError::InvalidParameter { .. })
    ));
}

// ---------------------------------------------------------------------------------------------
// Rate constraints.
//   row  y  ŷ  baseline  w   notes
//   0    1  1  0         1   win, changed
//   1    1  0  1         1   loss, changed
//   2    0  0  0         2   both correct
//   3    0  1  1         1   both wrong
//   4    1  1  1         1   both correct
//   5    0  0  1         1   win, changed
// total 7: churn 3/7, wins 2/7, losses 1/7, baseline correct (rows 1,2,4) 4 → loss-only churn 1/4.
// counts: tp 2 (0,4), fn 1 (1), fp 1 (3), tn 3 (2,5).
// ---------------------------------------------------------------------------------------------
const CY: [usize; 6] = [1, 1, 0, 0, 1, 0];
const CP: [usize; 6] = [1, 0, 0, 1, 1, 0];
const CB: [usize; 6] = [0, 1, 0, 1, 1, 1];
const CW: [f64; 6] = [1.0, 1.0, 2.0, 1.0, 1.0, 1.0];

#[test]
fn subset_rates_all_rows() {
    let r = subset_rates(&CY, &CP, Some(&CW), Subset::All, ZeroDivision::Error).unwrap();
    close(r.positive_prediction_rate, 3.0 / 7.0);
    close(r.negative_prediction_rate, 4.0 / 7.0);
    close_opt(r.true_positive_rate, 2.0 / 3.0);
    close_opt(r.false_positive_rate, 1.0 / 4.0);
    close_opt(r.true_negative_rate, 3.0 / 4.0);
    close_opt(r.false_negative_rate, 1.0 / 3.0);
    close(r.error_rate, 2.0 / 7.0);
    close(r.accuracy, 5.0 / 7.0);
    close(
        positive_prediction_rate(&CP, Some(&CW), Subset::All).unwrap(),
        3.0 / 7.0,
    );
}

#[test]
fn subset_rates_mask_and_group() {
    // Mask rows 0..3: tp 1, fn 1, tn 2 (weight 2), fp 0 → FPR 0/2, TPR 1/2, ppr 1/4.
    let mask = [true, true, true, false, false, false];
    let r = subset_rates(
        &CY,
        &CP,
        Some(&CW),
        Subset::Mask(&mask),
        ZeroDivision::Error,
    )
    .unwrap();
    close_opt(r.false_positive_rate, 0.0);
    close_opt(r.true_positive_rate, 0.5);
    close(r.positive_prediction_rate, 0.25);
    // Group 1 = rows 3..6: tp 1 (4), fp 1 (3), tn 1 (5), no fn.
    let g = Groups::from_codes(&[0, 0, 0, 1, 1, 1]).unwrap();
    let r = subset_rates(
        &CY,
        &CP,
        None,
        Subset::Group {
            groups: &g,
            code: 1,
        },
        ZeroDivision::Error,
    )
    .unwrap();
    close_opt(r.true_positive_rate, 1.0);
    close_opt(r.false_positive_rate, 0.5);
    close(r.accuracy, 2.0 / 3.0);
    // Group 0 has no negatives predicted positive but does have negatives; subset of the two
    // positive rows only has no negatives → FPR undefined.
    let pos_only = [true, true, false, false, false, false];
    assert!(subset_rates(&CY, &CP, None, Subset::Mask(&pos_only), ZeroDivision::Error).is_err());
    let skip = subset_rates(&CY, &CP, None, Subset::Mask(&pos_only), ZeroDivision::Skip).unwrap();
    assert_eq!(skip.false_positive_rate, None);
    let zero = subset_rates(&CY, &CP, None, Subset::Mask(&pos_only), ZeroDivision::Zero).unwrap();
    close_opt(zero.false_positive_rate, 0.0);
}

#[test]
fn churn_wins_losses() {
    let c = churn_rates(&CY, &CP, &CB, Some(&CW), Subset::All, ZeroDivision::Error).unwrap();
    close(c.subset_weight, 7.0);
    close(c.churn, 3.0 / 7.0);
    close(c.win_rate, 2.0 / 7.0);
    close(c.loss_rate, 1.0 / 7.0);
    close(c.wins, 2.0);
    close(c.losses, 1.0);
    close_opt(c.loss_only_churn, 0.25);
    close(churn(&CP, &CB, Some(&CW), Subset::All).unwrap(), 3.0 / 7.0);
    // Mask rows 0..3: weight 4, changed rows 0,1 → 1/2; wins 1/4, losses 1/4, baseline correct
    // rows 1, 2 (weight 3) → loss-only churn 1/3.
    let mask = [true, true, true, false, false, false];
    let c = churn_rates(
        &CY,
        &CP,
        &CB,
        Some(&CW),
        Subset::Mask(&mask),
        ZeroDivision::Error,
    )
    .unwrap();
    close(c.churn, 0.5);
    close(c.win_rate, 0.25);
    close(c.loss_rate, 0.25);
    close_opt(c.loss_only_churn, 1.0 / 3.0);
}

#[test]
fn loss_only_churn_without_correct_baseline() {
    // Baseline wrong everywhere: loss-only churn is 0/0.
    let y = [1, 0];
    let b = [0, 1];
    let p = [1, 1];
    assert!(churn_rates(&y, &p, &b, None, Subset::All, ZeroDivision::Error).is_err());
    let s = churn_rates(&y, &p, &b, None, Subset::All, ZeroDivision::Skip).unwrap();
    assert_eq!(s.loss_only_churn, None);
    close(s.win_rate, 0.5);
}

// ---------------------------------------------------------------------------------------------
// Fair PCA. U = (1, 1)/√2.
//   a: (1, 1), (1, −1): AᵀA = 2I → eigenvalues 2, 2 → best rank-1 loss 2.
//      residuals: (1,1) lies on U → 0; (1,−1) ⟂ U → 2.  L_a = 2, E_a = 0.
//   b: (2, 0), (0, 0), (0, 0): eigenvalues 4, 0 → best 0. (2,0) → residual (1,−1), 2. L_b = 2, E_b = 2.
// per sample: a: 1, 1, 0;  b: 2/3, 0, 2/3.
// ---------------------------------------------------------------------------------------------
#[test]
fn pca_losses_and_disparity() {
    let x = dmatrix![1.0, 1.0; 1.0, -1.0; 2.0, 0.0; 0.0, 0.0; 0.0, 0.0];
    let g = Groups::from_codes(&[0, 0, 1, 1, 1]).unwrap();
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let u = DMatrix::from_column_slice(2, 1, &[h, h]);
    let d = pca_disparity(&x, &g, &u, DEFAULT_ORTHONORMAL_TOLERANCE).unwrap();
    assert_eq!(d.sizes, vec![2, 3]);
    assert_eq!(d.rank, 1);
    let raw = &d.raw;
    for (got, want) in [
        (&raw.loss, [2.0, 2.0]),
        (&raw.best_loss, [2.0, 0.0]),
        (&raw.disparity, [0.0, 2.0]),
        (&d.per_sample.loss, [1.0, 2.0 / 3.0]),
        (&d.per_sample.best_loss, [1.0, 0.0]),
        (&d.per_sample.disparity, [0.0, 2.0 / 3.0]),
    ] {
        close(got[0], want[0]);
        close(got[1], want[1]);
    }
    close(raw.pairwise_disparity[(0, 1)], -2.0);
    close(raw.pairwise_disparity[(1, 0)], 2.0);
    close(raw.max_disparity, 2.0);
    close(raw.mean_disparity, 1.0);
    close(raw.max_pairwise_gap, 2.0);
    close(d.per_sample.mean_disparity, 1.0 / 3.0);
    close(d.total_loss, 4.0);
}

#[test]
fn pca_full_rank_has_zero_loss() {
    // r = d: U = I reconstructs everything; every loss and disparity is 0.
    let x = dmatrix![1.0, 2.0; 3.0, -1.0; 0.5, 0.5];
    let g = Groups::from_codes(&[0, 1, 1]).unwrap();
    let d = pca_disparity(
        &x,
        &g,
        &DMatrix::identity(2, 2),
        DEFAULT_ORTHONORMAL_TOLERANCE,
    )
    .unwrap();
    for v in d
        .raw
        .loss
        .iter()
        .chain(&d.raw.best_loss)
        .chain(&d.raw.disparity)
    {
        assert!(v.abs() < 1e-12);
    }
}

#[test]
fn intersectional_groups_from_fair_data() {
    // sex × race: rows (F,B) (F,B) (F,W) (M,B) (M,B) (M,W) (M,W) → cells "F & B", "F & W",
    // "M & B", "M & W". Predictions 1 on rows 0, 2, 3 → SR: F&B 1/2, F&W 1, M&B 1/2, M&W 0.
    let sex = Groups::from_labels(&["F", "F", "F", "M", "M", "M", "M"]);
    let race = Groups::from_labels(&["B", "B", "W", "B", "B", "W", "W"]);
    let both = Groups::intersect(&[&sex, &race]).unwrap();
    let s = parity::selection_rate_by_group(&[1, 0, 1, 1, 0, 0, 0], &both, None).unwrap();
    assert_eq!(s.names, vec!["F & B", "F & W", "M & B", "M & W"]);
    close_all(&s.by_group, &[0.5, 1.0, 0.5, 0.0]);
    close(s.difference, 1.0);
    close(s.ratio, 0.0);
    close(s.overall, 3.0 / 7.0);
}

#[test]
fn confusion_count_shortcuts() {
    // tp 3, fp 1, tn 4, fn 2: every shortcut against its definition.
    let c = fair_metrics::ConfusionCounts {
        tp: 3.0,
        fp: 1.0,
        tn: 4.0,
        fn_: 2.0,
    };
    close_opt(c.selection_rate(), 0.4);
    close_opt(c.true_positive_rate(), 0.6);
    close_opt(c.false_positive_rate(), 0.2);
    close_opt(c.true_negative_rate(), 0.8);
    close_opt(c.false_negative_rate(), 0.4);
    close_opt(c.precision(), 0.75);
    close_opt(c.accuracy(), 0.7);
    close_opt(c.error_rate(), 0.3);
    let empty = fair_metrics::ConfusionCounts::default();
    assert!(Rate::ALL.iter().all(|&r| empty.rate(r).is_none()));
}
