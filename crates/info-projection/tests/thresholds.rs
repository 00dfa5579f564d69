//! Properties of the group-threshold decision rule ([`GroupThresholds`]): on any small data set
//! its expected rates meet the bound, it is at least as accurate as every feasible choice of one
//! pure threshold per group (brute force), its reported rates are those of its probabilities, it
//! survives a bytes round trip, and random bytes never make it panic.

use fair_data::Groups;
use info_projection::{Constraint, GroupThresholds, HardRate, RateBound, RateTerm};
use proptest::prelude::*;

/// Rates of a decision-probability vector per group: (selection, TPR, FPR, accuracy).
fn rates(q: &[f64], y: &[f64], codes: &[usize], a: usize) -> Vec<[f64; 4]> {
    (0..a)
        .map(|g| {
            let (mut n, mut pos, mut sel, mut tp, mut fp) = (0.0, 0.0, 0.0, 0.0, 0.0);
            for i in (0..q.len()).filter(|&i| codes[i] == g) {
                n += 1.0;
                pos += y[i];
                sel += q[i];
                tp += q[i] * y[i];
                fp += q[i] * (1.0 - y[i]);
            }
            let neg = n - pos;
            [sel / n, tp / pos, fp / neg, (tp + neg - fp) / n]
        })
        .collect()
}

fn index(rate: HardRate) -> usize {
    match rate {
        HardRate::Selection => 0,
        HardRate::TruePositive => 1,
        HardRate::FalsePositive => 2,
        HardRate::Accuracy => 3,
    }
}

/// Largest difference across groups of the constrained rates (groups where a rate is
/// undefined are skipped, as the rule does).
fn worst_difference(r: &[[f64; 4]], terms: &[RateTerm]) -> f64 {
    terms
        .iter()
        .map(|t| {
            let v: Vec<f64> = r
                .iter()
                .map(|x| x[index(t.rate)])
                .filter(|v| v.is_finite())
                .collect();
            let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
            if v.len() < 2 { 0.0 } else { hi - lo }
        })
        .fold(0.0, f64::max)
}

fn accuracy(q: &[f64], y: &[f64]) -> f64 {
    q.iter()
        .zip(y)
        .map(|(q, y)| q * y + (1.0 - q) * (1.0 - y))
        .sum::<f64>()
        / q.len() as f64
}

fn data() -> impl Strategy<Value = (Vec<f64>, Vec<f64>, Vec<usize>)> {
    (6usize..14).prop_flat_map(|n| {
        (
            proptest::collection::vec(0u8..6, n),
            proptest::collection::vec(0u8..2, n),
            proptest::collection::vec(0usize..2, n),
        )
            .prop_map(|(s, y, mut g)| {
                // Both groups non-empty.
                g[0] = 0;
                g[1] = 1;
                (
                    s.iter().map(|&v| f64::from(v) / 5.0).collect(),
                    y.iter().map(|&v| f64::from(v)).collect(),
                    g,
                )
            })
    })
}

fn terms_for(k: usize) -> Vec<RateTerm> {
    match k {
        0 => RateTerm::for_constraint(Constraint::StatisticalParity),
        1 => RateTerm::for_constraint(Constraint::EqualizedOdds),
        2 => vec![RateTerm {
            rate: HardRate::TruePositive,
            complement: false,
        }],
        _ => RateTerm::for_constraint(Constraint::OverallAccuracy),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn optimal_and_feasible((scores, y, codes) in data(), k in 0usize..4, eps in 0.0f64..0.3) {
        let groups = Groups::new(codes.clone(), vec!["a".into(), "b".into()]).unwrap();
        let terms = terms_for(k);
        let rule = GroupThresholds::fit(&scores, &y, &groups, &terms, RateBound::Difference(eps)).unwrap();
        let q = rule.positive_probability(&scores, &groups).unwrap();
        let r = rates(&q, &y, &codes, 2);
        // Feasible: the expected rates meet the bound.
        prop_assert!(worst_difference(&r, &terms) <= eps + 1e-7, "{r:?}");
        // Reported = realised.
        prop_assert!((rule.fitted_accuracy() - accuracy(&q, &y)).abs() < 1e-7);
        for (g, rg) in r.iter().enumerate() {
            prop_assert!((rule.fitted_rates().selection[g] - rg[0]).abs() < 1e-7);
        }
        // Optimal among pure thresholds: try every pair of cut levels (scores take 6 values).
        let levels: Vec<f64> = (0..=6).map(|v| f64::from(v) / 5.0).collect();
        let mut best_pure = f64::NEG_INFINITY;
        for &ta in &levels {
            for &tb in &levels {
                let qp: Vec<f64> = scores.iter().zip(&codes)
                    .map(|(&s, &g)| f64::from(u8::from(s >= if g == 0 { ta } else { tb })))
                    .collect();
                if worst_difference(&rates(&qp, &y, &codes, 2), &terms) <= eps {
                    best_pure = best_pure.max(accuracy(&qp, &y));
                }
            }
        }
        prop_assert!(rule.fitted_accuracy() >= best_pure - 1e-7,
            "LP {} < pure {}", rule.fitted_accuracy(), best_pure);
        // Bytes round trip, same decisions.
        let back = GroupThresholds::from_bytes(&rule.to_bytes()).unwrap();
        prop_assert_eq!(back.predict(&scores, &groups, 3).unwrap(), rule.predict(&scores, &groups, 3).unwrap());
    }

    /// The relative bound of FairProjection: |r_s / r − 1| ≤ α for the rate and its complement.
    #[test]
    fn relative_bound_holds((scores, y, codes) in data(), alpha in 0.0f64..0.5) {
        let groups = Groups::new(codes.clone(), vec!["a".into(), "b".into()]).unwrap();
        let terms = RateTerm::for_constraint(Constraint::StatisticalParity);
        let rule = GroupThresholds::fit(&scores, &y, &groups, &terms, RateBound::Relative(alpha)).unwrap();
        let q = rule.positive_probability(&scores, &groups).unwrap();
        let all = q.iter().sum::<f64>() / q.len() as f64;
        for rg in rates(&q, &y, &codes, 2) {
            prop_assert!((rg[0] - all).abs() <= alpha * all + 1e-7);
            prop_assert!((rg[0] - all).abs() <= alpha * (1.0 - all) + 1e-7);
        }
    }

    #[test]
    fn restore_never_panics(noise in proptest::collection::vec(any::<u8>(), 0..200), flip in 0usize..400) {
        let _ = GroupThresholds::from_bytes(&noise);
        let groups = Groups::from_labels(&["a", "b", "a", "b"]);
        let rule = GroupThresholds::fit(&[0.1, 0.2, 0.7, 0.9], &[0.0, 0.0, 1.0, 1.0], &groups,
            &terms_for(0), RateBound::Difference(0.1)).unwrap();
        let mut bytes = rule.to_bytes();
        let at = flip % bytes.len();
        bytes[at] ^= 0x5a;
        if let Ok(r) = GroupThresholds::from_bytes(&bytes) {
            let _ = r.predict(&[0.5, 0.5, 0.5, 0.5], &groups, 1);
        }
    }
}

/// Equal opportunity and false-positive-rate parity: the projection meets its rows (the
/// true-class-1 / true-class-0 rows of equalized odds) and the decision rule constrains only the
/// named rate; more than two classes is a typed error.
#[test]
fn equal_opportunity_and_fpr_parity() {
    use info_projection::{FairProjection, InfoProjectionError};
    use nalgebra::DMatrix;
    let n = 400;
    let p1: Vec<f64> = (0..n)
        .map(|i| {
            let g = (i % 2) as f64;
            (0.15 + 0.5 * ((i * 37 % 101) as f64 / 100.0) + 0.2 * g).min(0.95)
        })
        .collect();
    let y: Vec<usize> = (0..n)
        .map(|i| usize::from((i * 53 % 97) as f64 / 97.0 < p1[i]))
        .collect();
    let labels: Vec<&str> = (0..n).map(|i| if i % 2 == 0 { "a" } else { "b" }).collect();
    let groups = Groups::from_labels(&labels);
    let probs = DMatrix::from_fn(n, 2, |i, c| if c == 1 { p1[i] } else { 1.0 - p1[i] });
    for (constraint, rate) in [
        (Constraint::EqualOpportunity, HardRate::TruePositive),
        (Constraint::FalsePositiveParity, HardRate::FalsePositive),
    ] {
        let fp = FairProjection::params()
            .constraint(constraint)
            .alpha(0.0)
            .fit_with_labels(&probs, &groups, &y)
            .unwrap();
        assert!(fp.report().status.is_converged());
        assert_eq!(fp.lambda().len(), 8); // 4A rows
        let rule = fp
            .fit_decision_rule(&probs, &groups, Some(&y), Some(RateBound::Difference(0.0)))
            .unwrap();
        let r = rule.fitted_rates();
        let v = match rate {
            HardRate::TruePositive => &r.true_positive,
            _ => &r.false_positive,
        };
        assert!((v[0] - v[1]).abs() < 1e-9, "{constraint:?}: {v:?}");
    }
    let three = DMatrix::from_fn(n, 3, |_, _| 1.0 / 3.0);
    let err = FairProjection::params()
        .constraint(Constraint::EqualOpportunity)
        .fit(&three, &groups)
        .unwrap_err();
    assert!(
        matches!(err, InfoProjectionError::InvalidParameter { .. }),
        "{err}"
    );
}
