// The expected values are exact by construction (small integer counts, scipy's exact 0).
#![allow(clippy::float_cmp)]

use super::*;
use fair_data::Groups;
use proptest::prelude::*;

fn bin(n: f64, ones: f64) -> Binary {
    Binary { n, ones }
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * b.abs().max(1e-300) || (a.is_nan() && b.is_nan())
}

/// Reference p-values measured with scipy 1.17.1 on the same binary samples
/// (`[1.0] * ones + [0.0] * (n - ones)`).
#[test]
fn statistics_match_scipy() {
    let cases: [(f64, f64, &str); 14] = [
        (
            t_test(bin(5.0, 1.0), bin(3.0, 0.0), true),
            0.4816178143121546,
            "student",
        ),
        (
            t_test(bin(5.0, 1.0), bin(3.0, 0.0), false),
            0.37390096630005887,
            "welch",
        ),
        (
            t_test(bin(4.0, 2.0), bin(6.0, 3.0), true),
            1.0,
            "equal means",
        ),
        (
            t_test(bin(1.0, 1.0), bin(3.0, 1.0), true),
            0.4226497308103742,
            "one row, pooled",
        ),
        (
            t_test(bin(30.0, 0.0), bin(25.0, 5.0), true),
            0.009575353747167113,
            "student 2",
        ),
        (
            t_test(bin(30.0, 0.0), bin(25.0, 5.0), false),
            0.021982997044102327,
            "welch 2",
        ),
        (
            t_test(bin(3000.0, 900.0), bin(2500.0, 800.0), true),
            0.1100424489034844,
            "large",
        ),
        (
            t_test(bin(3000.0, 900.0), bin(2500.0, 800.0), false),
            0.11062116140727446,
            "large welch",
        ),
        (
            t_test(bin(5.0, 0.0), bin(3.0, 3.0), false),
            0.0,
            "constant, different",
        ),
        (
            levene(bin(5.0, 1.0), bin(3.0, 0.0)),
            0.4816178143121546,
            "levene",
        ),
        (
            levene(bin(40.0, 9.0), bin(33.0, 20.0)),
            0.12072055095190272,
            "levene 2",
        ),
        (
            bartlett(bin(4.0, 2.0), bin(6.0, 3.0)),
            0.9234332064064856,
            "bartlett",
        ),
        (
            bartlett(bin(40.0, 9.0), bin(33.0, 20.0)),
            0.34519690744902976,
            "bartlett 2",
        ),
        (
            normaltest(bin(40.0, 9.0)),
            0.00539966326078748,
            "normaltest",
        ),
    ];
    for (got, want, what) in cases {
        assert!(close(got, want, 1e-10), "{what}: {got} vs scipy {want}");
    }
    assert!(close(
        normaltest(bin(25.0, 12.0)),
        5.2379236829400076e-23,
        1e-8
    ));
    // Where scipy's p-value is NaN, fairkit's is too.
    for p in [
        t_test(bin(5.0, 0.0), bin(3.0, 0.0), true),
        t_test(bin(0.0, 0.0), bin(3.0, 1.0), true),
        t_test(bin(1.0, 1.0), bin(3.0, 1.0), false),
        levene(bin(4.0, 2.0), bin(6.0, 3.0)),
        levene(bin(5.0, 0.0), bin(3.0, 3.0)),
        bartlett(bin(5.0, 0.0), bin(3.0, 0.0)),
        bartlett(bin(1.0, 1.0), bin(3.0, 1.0)),
        normaltest(bin(30.0, 0.0)),
    ] {
        assert!(p.is_nan(), "{p}");
    }
    assert_eq!(bartlett(bin(5.0, 1.0), bin(3.0, 0.0)), 0.0);
}

fn gc(y: &[usize], p: &[usize], g: &[&str]) -> GroupConfusion {
    GroupConfusion::new(y, p, &Groups::from_labels(g), None).unwrap()
}

/// Hand-computed: groups a (4 rows), b (2 rows), c (2 rows).
///
/// a: tp 1, fp 1, tn 1, fn 1 → pprev 1/2, fpr 1/2, tpr 1/2, precision 1/2.
/// b: tp 1, fp 0, tn 1, fn 0 → pprev 1/2, fpr 0, tpr 1, precision 1.
/// c: tp 0, fp 0, tn 2, fn 0 → pprev 0, fpr 0, tpr undefined, precision undefined.
/// k = 3 predicted positives: ppr a 2/3, b 1/3, c 0.
fn three_groups() -> GroupConfusion {
    gc(
        &[1, 0, 0, 1, 1, 0, 0, 0],
        &[1, 1, 0, 0, 1, 0, 0, 0],
        &["a", "a", "a", "a", "b", "b", "c", "c"],
    )
}

#[test]
fn largest_reference_by_hand() {
    let d = attribute_disparities(
        "g",
        &three_groups(),
        &Reference::Largest,
        &Default::default(),
    )
    .unwrap();
    assert_eq!(d.predicted_positives, 3.0);
    let [a, b, c] = [&d.groups[0], &d.groups[1], &d.groups[2]];
    for g in [a, b, c] {
        for r in &g.rates {
            assert_eq!(r.reference_group, "a");
        }
    }
    assert_eq!(b.rate(DisparityRate::Ppr).value, Some(1.0 / 3.0));
    assert_eq!(
        b.rate(DisparityRate::Ppr).disparity,
        Some((1.0 / 3.0) / (2.0 / 3.0))
    );
    assert_eq!(b.rate(DisparityRate::Ppr).parity, Some(false));
    assert_eq!(b.rate(DisparityRate::Pprev).disparity, Some(1.0));
    assert_eq!(b.rate(DisparityRate::Pprev).parity, Some(true));
    assert_eq!(b.rate(DisparityRate::Tpr).disparity, Some(2.0));
    assert_eq!(b.rate(DisparityRate::Fpr).disparity, Some(0.0));
    // c: tpr 0/0 → undefined value, disparity and parity.
    let tpr = c.rate(DisparityRate::Tpr);
    assert_eq!((tpr.value, tpr.disparity, tpr.parity), (None, None, None));
    assert_eq!(c.rate(DisparityRate::Ppr).disparity, Some(0.0));
    // The reference against itself: 1 and in parity wherever defined.
    for r in &a.rates {
        assert_eq!(r.disparity, Some(1.0));
        assert_eq!(r.parity, Some(true));
    }
    // Composites: b's fdr (0 vs 1/2) and fpr (0) fail → TypeI false; c's for is 0/2 = 0 vs a's 1/2
    // → FOR false, fnr undefined → TypeII false (one undefined, one false).
    assert_eq!(b.composite.type_i, Some(false));
    assert_eq!(c.composite.type_ii, Some(false));
    assert_eq!(a.composite.supervised, Some(true));
    assert_eq!(b.size, 2.0);
    assert_eq!(b.accuracy, Some(1.0));
    assert_eq!(c.prevalence, Some(0.0));
}

#[test]
fn min_metric_reference_by_hand() {
    let d = attribute_disparities(
        "g",
        &three_groups(),
        &Reference::MinMetric,
        &Default::default(),
    )
    .unwrap();
    let [a, b, c] = [&d.groups[0], &d.groups[1], &d.groups[2]];
    // fpr: b and c tie at 0: the first (b) is the reference; a's 1/2 ÷ 0 is capped at 10,
    // b's and c's 0/0 are undefined.
    let fpr = |g: &GroupDisparities| g.rate(DisparityRate::Fpr).clone();
    assert_eq!(fpr(a).reference_group, "b");
    assert_eq!(fpr(a).disparity, Some(10.0));
    assert_eq!(fpr(a).parity, Some(false));
    assert_eq!(fpr(c).disparity, None);
    assert_eq!(fpr(b).reference_value, Some(0.0));
    // tpr: c undefined, so the smallest defined is a's 1/2.
    assert_eq!(b.rate(DisparityRate::Tpr).reference_group, "a");
    assert_eq!(b.rate(DisparityRate::Tpr).disparity, Some(2.0));
    // precision: defined for a (1/2) and b (1); reference a.
    assert_eq!(b.rate(DisparityRate::Precision).disparity, Some(2.0));
    // Label and score are tested against fpr's reference, as Aequitas does.
    assert_eq!(a.label_value_significance.reference_group, "b");
}

#[test]
fn min_metric_all_undefined_falls_back_to_first_group() {
    // No positives anywhere: tpr is undefined in every group.
    let g = gc(&[0, 0, 0, 0], &[1, 0, 1, 1], &["x", "x", "y", "y"]);
    let d = attribute_disparities("g", &g, &Reference::MinMetric, &Default::default()).unwrap();
    let tpr = d.groups[1].rate(DisparityRate::Tpr);
    assert_eq!((tpr.reference_group.as_str(), tpr.disparity), ("x", None));
}

#[test]
fn named_reference_and_errors() {
    let g = three_groups();
    let d =
        attribute_disparities("g", &g, &Reference::Named("b".into()), &Default::default()).unwrap();
    assert_eq!(d.groups[0].rate(DisparityRate::Tpr).disparity, Some(0.5));
    let err = attribute_disparities(
        "race",
        &g,
        &Reference::Named("z".into()),
        &Default::default(),
    )
    .unwrap_err();
    assert_eq!(
        err,
        MetricError::UnknownReferenceGroup {
            attribute: "race".into(),
            group: "z".into(),
            available: "a, b, c".into()
        }
    );
    assert!(err.to_string().contains("name one of them"), "{err}");
    for tau in [0.0, -0.5, 1.0001, f64::NAN, f64::INFINITY] {
        let opts = DisparityOptions {
            tau,
            ..Default::default()
        };
        let err = attribute_disparities("g", &g, &Reference::Largest, &opts).unwrap_err();
        assert!(
            matches!(err, MetricError::InvalidParameter { name: "tau", .. }),
            "{tau}: {err}"
        );
    }
    let opts = DisparityOptions {
        tau: 1.0,
        ..Default::default()
    };
    let d = attribute_disparities("g", &g, &Reference::Largest, &opts).unwrap();
    // τ = 1: parity only for a disparity of exactly 1.
    assert_eq!(d.groups[1].rate(DisparityRate::Pprev).parity, Some(true));
    assert_eq!(d.groups[1].rate(DisparityRate::Ppr).parity, Some(false));
}

#[test]
fn parity_band_edges_are_inclusive() {
    assert_eq!(parity_of(Some(0.8), 0.8), Some(true));
    assert_eq!(parity_of(Some(1.25), 0.8), Some(true));
    assert_eq!(parity_of(Some(0.7999999), 0.8), Some(false));
    assert_eq!(parity_of(Some(1.2500001), 0.8), Some(false));
    assert_eq!(both(None, Some(true)), Some(false));
    assert_eq!(both(None, None), None);
    assert_eq!(both(Some(true), Some(true)), Some(true));
}

#[test]
fn largest_tie_takes_first_group() {
    let g = gc(&[1, 0, 1, 1], &[1, 0, 0, 1], &["p", "p", "q", "q"]);
    let d = attribute_disparities("g", &g, &Reference::Largest, &Default::default()).unwrap();
    assert_eq!(d.groups[1].rates[0].reference_group, "p");
}

fn arb_rows() -> impl Strategy<Value = (Vec<usize>, Vec<usize>, Vec<usize>, Vec<f64>)> {
    (2usize..60).prop_flat_map(|n| {
        (
            proptest::collection::vec(0usize..2, n),
            proptest::collection::vec(0usize..2, n),
            proptest::collection::vec(0usize..4, n),
            proptest::collection::vec(0.1f64..5.0, n),
        )
    })
}

fn confusion(y: &[usize], p: &[usize], g: &[usize], w: Option<&[f64]>) -> Option<GroupConfusion> {
    let labels: Vec<String> = g.iter().map(|c| format!("g{c}")).collect();
    GroupConfusion::new(y, p, &Groups::from_labels(&labels), w).ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The reference group's own disparity is 1 wherever its value is defined and non-zero, and
    /// nothing panics; every p-value is a probability.
    #[test]
    fn reference_disparity_is_one((y, p, g, w) in arb_rows(), method in 0usize..3) {
        let Some(gc) = confusion(&y, &p, &g, Some(&w)) else { return Ok(()) };
        let reference = match method {
            0 => Reference::Largest,
            1 => Reference::MinMetric,
            _ => Reference::Named(gc.names()[0].clone()),
        };
        let d = attribute_disparities("g", &gc, &reference, &Default::default()).unwrap();
        for group in &d.groups {
            for r in &group.rates {
                if r.reference_group == group.group {
                    match r.value {
                        Some(v) if v > 0.0 => prop_assert_eq!(r.disparity, Some(1.0)),
                        _ => prop_assert_eq!(r.disparity, None),
                    }
                }
                if let Some(pv) = r.p_value {
                    prop_assert!((0.0..=1.0 + 1e-12).contains(&pv), "{}", pv);
                }
            }
        }
    }

    /// Scaling every weight by a power of two (exact in floating point) leaves every value,
    /// reference and disparity unchanged.
    #[test]
    fn scaling_weights_leaves_disparities((y, p, g, w) in arb_rows(), e in -20i32..20) {
        let s = 2f64.powi(e);
        let scaled: Vec<f64> = w.iter().map(|x| x * s).collect();
        let (Some(a), Some(b)) = (confusion(&y, &p, &g, Some(&w)), confusion(&y, &p, &g, Some(&scaled))) else {
            return Ok(());
        };
        for reference in [Reference::Largest, Reference::MinMetric] {
            let da = attribute_disparities("g", &a, &reference, &Default::default()).unwrap();
            let db = attribute_disparities("g", &b, &reference, &Default::default()).unwrap();
            for (ga, gb) in da.groups.iter().zip(&db.groups) {
                for (ra, rb) in ga.rates.iter().zip(&gb.rates) {
                    prop_assert_eq!(ra.value, rb.value);
                    prop_assert_eq!(&ra.reference_group, &rb.reference_group);
                    prop_assert_eq!(ra.disparity, rb.disparity);
                    prop_assert_eq!(ra.parity, rb.parity);
                }
            }
        }
    }
}
