//! Intervals and p-values for the exact score metrics, from the per-group effective sample sizes
//! alone (no resampling of the scores, so they cost nothing at 1e8 rows and are the same whether
//! the scores were spilled or not).
//!
//! * **AUC of a group** ([`auc_interval`]): Hanley & McNeil (1982) standard error,
//!   `SE² = (A(1−A) + (n₁−1)(Q₁−A²) + (n₀−1)(Q₂−A²)) / (n₁ n₀)`, `Q₁ = A/(2−A)`,
//!   `Q₂ = 2A²/(1+A)` (n₁ positives, n₀ negatives), and the normal interval `A ± z·SE` clipped to
//!   [0, 1].
//! * **AUC difference** (max − min over groups, [`auc_difference_inference`]): one Bonferroni
//!   family over the K pairs, so the interval and the p-value answer the same question at the
//!   same multiplicity. With `SE_ij = √(SE_i² + SE_j²)` (independent groups) and
//!   `z_K = Φ⁻¹(1 − α/(2K))`, the intervals `|d_ij| ± z_K·SE_ij` cover every pair's true
//!   absolute difference at once with probability ≥ 1 − α; the largest true difference then
//!   lies in `[max_ij(|d_ij| − z_K·SE_ij), max_ij(|d_ij| + z_K·SE_ij)]`, clipped to [0, 1]. The
//!   p-value of "all AUCs equal" is `min(1, K · min_ij 2Φ̄(|d_ij| / SE_ij))`, the smallest α at
//!   which that interval leaves 0: the interval excludes 0 exactly when p < α. With two groups
//!   both reduce to the plain two-sided normal interval and test.
//! * **KS Δ and partial SP** (largest over pairs, [`ks_inference`]): interval from the
//!   Dvoretzky–Kiefer–Wolfowitz inequality with Massart's constant, `P(sup|F̂−F| > ε) ≤ 2e^{−2nε²}`,
//!   made simultaneous over the G groups: `ε_g = √(ln(2G/α)/(2 n_g))`. Then every group's CCDF
//!   is within `ε_g` of the truth with probability ≥ 1 − α, so every pairwise KS distance is
//!   within `ε_a + ε_b`, and the largest within the largest such sum (times `1/(β−α)` for pSP,
//!   whose in-band transform is `1/(β−α)`-Lipschitz): a conservative finite-sample interval.
//!   p-value: the asymptotic two-sample Kolmogorov distribution `Q_KS(√(n_a n_b/(n_a+n_b))·D)`
//!   (what R's `ks.test(exact = FALSE)` and `scipy.special.kolmogorov` give), union-bounded over
//!   the pairs; for pSP at `D(β−α)`, since pSP ≥ d implies KS ≥ d(β−α). Ties (discrete scores)
//!   make it conservative.
//!
//! With weights, `n` is Kish's effective sample size (an approximation, like the rate intervals).

use super::Interval;
use crate::error::{MetricError, Result};
use crate::pairwise::PairwiseSummary;
use statrs::distribution::{ContinuousCDF, Normal};

/// An estimate with its interval and p-value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScoreGapInference {
    /// The observed value.
    pub estimate: f64,
    /// The confidence interval.
    pub interval: Interval,
    /// The p-value for "no difference between the groups".
    pub p_value: f64,
}

fn check(confidence: f64) -> Result<f64> {
    super::check_confidence(confidence)?;
    Ok(1.0 - confidence)
}

fn z(confidence: f64) -> f64 {
    Normal::standard().inverse_cdf(0.5 + confidence / 2.0)
}

fn normal_sf(x: f64) -> f64 {
    Normal::standard().sf(x)
}

/// Hanley & McNeil's standard error of an AUC with `n_pos` positives and `n_neg` negatives.
pub fn auc_standard_error(auc: f64, n_pos: f64, n_neg: f64) -> f64 {
    let q1 = auc / (2.0 - auc);
    let q2 = 2.0 * auc * auc / (1.0 + auc);
    let a2 = auc * auc;
    let var = (auc * (1.0 - auc) + (n_pos - 1.0) * (q1 - a2) + (n_neg - 1.0) * (q2 - a2))
        / (n_pos * n_neg);
    var.max(0.0).sqrt()
}

/// The Hanley–McNeil normal interval of an AUC, clipped to [0, 1].
///
/// # Errors
/// [`MetricError::InvalidParameter`] for a confidence outside (0, 1), an AUC outside [0, 1] or
/// sample sizes that are not positive.
///
/// # Example
/// ```
/// let iv = fair_metrics::ci::auc_interval(0.8, 50.0, 50.0, 0.95)?;
/// assert!(iv.lower < 0.8 && 0.8 < iv.upper);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn auc_interval(auc: f64, n_pos: f64, n_neg: f64, confidence: f64) -> Result<Interval> {
    check(confidence)?;
    let positive = |x: f64| x > 0.0; // false for NaN too
    if !(0.0..=1.0).contains(&auc) || !positive(n_pos) || !positive(n_neg) {
        return Err(MetricError::InvalidParameter {
            name: "AUC interval inputs",
            value: format!("AUC {auc}, {n_pos} positives, {n_neg} negatives"),
            expected: "an AUC in [0, 1] and positive sample sizes",
        });
    }
    let h = z(confidence) * auc_standard_error(auc, n_pos, n_neg);
    Ok(Interval {
        lower: (auc - h).max(0.0),
        upper: (auc + h).min(1.0),
    })
}

/// The change of an AUC between two independent samples, each given as `(auc, n_pos, n_neg)`:
/// `after − before`, the normal interval with the two Hanley–McNeil standard errors added in
/// quadrature, and the two-sided z-test of "the AUC did not change" (p = 1 when both standard
/// errors are 0 and the AUCs are equal, 0 when they differ).
///
/// # Errors
/// As [`auc_interval`], for either side.
///
/// # Example
/// ```
/// use fair_metrics::ci::{auc_change, auc_standard_error};
/// let c = auc_change((0.80, 100.0, 100.0), (0.90, 100.0, 100.0), 0.95)?;
/// let se = (auc_standard_error(0.8, 100.0, 100.0).powi(2)
///     + auc_standard_error(0.9, 100.0, 100.0).powi(2)).sqrt();
/// assert!((c.change - 0.1).abs() < 1e-12);
/// assert!((c.interval.upper - c.interval.lower - 2.0 * 1.959963984540054 * se).abs() < 1e-9);
/// assert!(c.p_value < 0.05);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn auc_change(
    before: (f64, f64, f64),
    after: (f64, f64, f64),
    confidence: f64,
) -> Result<super::RateChange> {
    // Validates both sides (the interval itself is not needed here).
    auc_interval(before.0, before.1, before.2, confidence)?;
    auc_interval(after.0, after.1, after.2, confidence)?;
    let se = |(a, p, n): (f64, f64, f64)| auc_standard_error(a, p, n);
    let s = se(before).hypot(se(after));
    let d = after.0 - before.0;
    let h = z(confidence) * s;
    let p_value = if s > 0.0 {
        (2.0 * normal_sf(d.abs() / s)).min(1.0)
    } else if d == 0.0 {
        1.0
    } else {
        0.0
    };
    Ok(super::RateChange {
        before: before.0,
        after: after.0,
        change: d,
        interval: Interval {
            lower: d - h,
            upper: d + h,
        },
        p_value,
    })
}

/// The Kolmogorov distribution's survival function
/// `Q_KS(λ) = 2 Σ_{j≥1} (−1)^{j−1} e^{−2j²λ²}` (for small λ through the equivalent Jacobi theta
/// series `1 − √(2π)/λ Σ_{j≥1} e^{−(2j−1)²π²/(8λ²)}`, which converges fast there).
pub fn kolmogorov_sf(lambda: f64) -> f64 {
    if lambda.is_nan() {
        return f64::NAN;
    }
    if lambda <= 0.0 {
        return 1.0;
    }
    let p = if lambda < 1.18 {
        let k = -std::f64::consts::PI.powi(2) / (8.0 * lambda * lambda);
        let s: f64 = (1..=20)
            .map(|j| {
                let m = (2 * j - 1) as f64;
                (k * m * m).exp()
            })
            .sum();
        1.0 - (2.0 * std::f64::consts::PI).sqrt() / lambda * s
    } else {
        let s: f64 = (1..=100)
            .map(|j| {
                let j = j as f64;
                let sign = if j as u64 % 2 == 1 { 1.0 } else { -1.0 };
                sign * (-2.0 * j * j * lambda * lambda).exp()
            })
            .sum();
        2.0 * s
    };
    p.clamp(0.0, 1.0)
}

/// Asymptotic p-value of the two-sample KS statistic `d` with sample sizes `n_a`, `n_b`:
/// `Q_KS(√(n_a n_b / (n_a + n_b)) · d)`.
pub fn ks_two_sample_p_value(d: f64, n_a: f64, n_b: f64) -> f64 {
    if !(n_a > 0.0 && n_b > 0.0) {
        return 1.0;
    }
    kolmogorov_sf((n_a * n_b / (n_a + n_b)).sqrt() * d)
}

/// Interval and p-value of the largest pairwise KS distance (`scale` = 1) or partial SP
/// (`scale` = 1/(β−α)) of a [`PairwiseSummary`], from each group's (effective) sample size `n`.
///
/// # Errors
/// [`MetricError::InvalidParameter`] for a confidence outside (0, 1), `n` not matching the
/// groups, a sample size that is not positive, or `scale < 1`.
pub fn ks_inference(
    summary: &PairwiseSummary,
    n: &[f64],
    scale: f64,
    confidence: f64,
) -> Result<ScoreGapInference> {
    if n.len() != summary.names.len() {
        return Err(MetricError::InvalidParameter {
            name: "KS inference inputs",
            value: format!(
                "{} sample sizes for {} groups",
                n.len(),
                summary.names.len()
            ),
            expected: "one positive sample size per group and a scale >= 1",
        });
    }
    ks_inference_of_max(summary.max, n, scale, confidence)
}

/// [`ks_inference`] from the largest pairwise distance `d` alone (what a saved report holds),
/// with one sample size per group of the summary.
///
/// # Errors
/// As [`ks_inference`].
///
/// # Example
/// ```
/// use fair_metrics::ci::ks_inference_of_max;
/// let i = ks_inference_of_max(0.3, &[1000.0, 1000.0], 1.0, 0.95)?;
/// let eps = ((4.0_f64 / 0.05).ln() / 2000.0).sqrt(); // DKW per group, 2 groups
/// assert!((i.interval.lower - (0.3 - 2.0 * eps)).abs() < 1e-12);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn ks_inference_of_max(
    d: f64,
    n: &[f64],
    scale: f64,
    confidence: f64,
) -> Result<ScoreGapInference> {
    let alpha = check(confidence)?;
    let g = n.len();
    let positive = |x: f64| x > 0.0; // false for NaN too
    if !n.iter().all(|&x| positive(x))
        || scale.is_nan()
        || scale < 1.0
        || !(d >= 0.0 && d.is_finite())
    {
        return Err(MetricError::InvalidParameter {
            name: "KS inference inputs",
            value: format!("{g} sample sizes, scale {scale}, distance {d}"),
            expected: "one positive sample size per group and a scale >= 1",
        });
    }
    let eps: Vec<f64> = n
        .iter()
        .map(|&ng| ((2.0 * g as f64 / alpha).ln() / (2.0 * ng)).sqrt())
        .collect();
    let mut widest = 0.0_f64;
    let mut p = 0.0;
    for a in 0..g {
        for b in a + 1..g {
            widest = widest.max(eps[a] + eps[b]);
            p += ks_two_sample_p_value(d / scale, n[a], n[b]);
        }
    }
    let h = scale * widest;
    Ok(ScoreGapInference {
        estimate: d,
        interval: Interval {
            lower: (d - h).max(0.0),
            upper: (d + h).min(1.0),
        },
        p_value: if g < 2 { 1.0 } else { p.min(1.0) },
    })
}

/// Interval and p-value of the AUC difference (max − min over the groups with an AUC), from each
/// group's AUC and (effective) positives and negatives. `None` when fewer than two groups have an
/// AUC.
///
/// # Errors
/// [`MetricError::InvalidParameter`] for a confidence outside (0, 1) or mismatched lengths.
pub fn auc_difference_inference(
    auc: &[Option<f64>],
    n_pos: &[f64],
    n_neg: &[f64],
    confidence: f64,
) -> Result<Option<ScoreGapInference>> {
    check(confidence)?;
    if n_pos.len() != auc.len() || n_neg.len() != auc.len() {
        return Err(MetricError::InvalidParameter {
            name: "AUC difference inputs",
            value: format!(
                "{} AUCs, {} / {} sample sizes",
                auc.len(),
                n_pos.len(),
                n_neg.len()
            ),
            expected: "one AUC and sample size per group",
        });
    }
    let groups: Vec<(f64, f64)> = (0..auc.len())
        .filter_map(|k| auc[k].map(|a| (a, auc_standard_error(a, n_pos[k], n_neg[k]))))
        .collect();
    if groups.len() < 2 {
        return Ok(None);
    }
    let by = |f: fn(f64, f64) -> bool| {
        groups
            .iter()
            .copied()
            .reduce(|x, y| if f(y.0, x.0) { y } else { x })
            .expect("two groups")
    };
    let (hi, lo) = (by(|y, x| y > x), by(|y, x| y < x));
    let d = hi.0 - lo.0;
    let pairs = groups.len() * (groups.len() - 1) / 2;
    let alpha = 1.0 - confidence;
    let z_k = z(1.0 - alpha / pairs as f64);
    let (mut lower, mut upper, mut p_min) = (0.0_f64, 0.0_f64, 1.0_f64);
    for i in 0..groups.len() {
        for j in i + 1..groups.len() {
            let d_ij = (groups[i].0 - groups[j].0).abs();
            let se = (groups[i].1.powi(2) + groups[j].1.powi(2)).sqrt();
            lower = lower.max(d_ij - z_k * se);
            upper = upper.max(d_ij + z_k * se);
            let p_ij = if se > 0.0 {
                2.0 * normal_sf(d_ij / se)
            } else if d_ij > 0.0 {
                0.0
            } else {
                1.0
            };
            p_min = p_min.min(p_ij);
        }
    }
    Ok(Some(ScoreGapInference {
        estimate: d,
        interval: Interval {
            lower: lower.max(0.0),
            upper: upper.min(1.0),
        },
        p_value: (pairs as f64 * p_min).min(1.0),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairwise::PairwiseSummary;

    #[test]
    fn hanley_mcneil_by_hand() {
        // A = 0.8, 50 + 50: Q1 = 2/3, Q2 = 0.64/0.9 = 0.71111…, SE² = (0.16 + 49·(2/3 − 0.64)
        // + 49·(0.711111… − 0.64)) / 2500 = 4.951111… / 2500.
        let se = auc_standard_error(0.8, 50.0, 50.0);
        assert!((se - (4.951_111_111_111_111_f64 / 2500.0).sqrt()).abs() < 1e-12);
        let iv = auc_interval(0.8, 50.0, 50.0, 0.95).unwrap();
        assert!((iv.upper - (0.8 + 1.959_963_984_540_054 * se)).abs() < 1e-9);
        assert_eq!(
            auc_interval(1.0, 10.0, 10.0, 0.95).unwrap().upper.to_bits(),
            1.0_f64.to_bits()
        );
        assert!(auc_interval(0.5, 0.0, 10.0, 0.95).is_err());
        assert!(auc_interval(1.5, 10.0, 10.0, 0.95).is_err());
        assert!(auc_interval(0.5, 10.0, 10.0, 1.0).is_err());
    }

    #[test]
    fn kolmogorov_matches_scipy() {
        // scipy 1.17.1: [float(scipy.special.kolmogorov(x)) for x in (0.3, 0.5, 1.0, 1.18, 1.5, 2.0)]
        let reference = [
            (0.3, 0.999_990_694_198_665_5),
            (0.5, 0.963_945_243_664_875_1),
            (1.0, 0.269_999_671_677_354_56),
            (1.18, 0.123_453_809_429_765_7),
            (1.5, 0.022_217_962_616_525_127),
            (2.0, 0.000_670_925_255_779_695_3),
        ];
        for (x, p) in reference {
            assert!(
                (kolmogorov_sf(x) - p).abs() < 1e-12,
                "{x}: {} vs {p}",
                kolmogorov_sf(x)
            );
        }
        assert_eq!(kolmogorov_sf(0.0).to_bits(), 1.0_f64.to_bits());
        assert!(kolmogorov_sf(10.0) < 1e-80);
    }

    #[test]
    fn two_sample_p_value_matches_scipy() {
        // a = [0.1, 0.4, 0.5, 0.9, 1.3, 1.7, 2.2, 2.5], b = [0.8, 1.2, 1.9, 2.4, 2.8, 3.1, 3.3]:
        // scipy.stats.ks_2samp(a, b).statistic = 13/28; the limiting-distribution p-value
        // scipy.special.kolmogorov(sqrt(8·7/15) · 13/28) = 0.39676776512921047 (scipy 1.17.1;
        // R's ks.test(a, b, exact = FALSE) uses the same limit).
        let a = [0.1, 0.4, 0.5, 0.9, 1.3, 1.7, 2.2, 2.5];
        let b = [0.8, 1.2, 1.9, 2.4, 2.8, 3.1, 3.3];
        let labels: Vec<&str> = a.iter().map(|_| "a").chain(b.iter().map(|_| "b")).collect();
        let scores: Vec<f64> = a.iter().chain(&b).copied().collect();
        let groups = fair_data::Groups::from_labels(&labels);
        let ks = crate::ks::ks_statistic(&scores, &groups, None).unwrap();
        assert!((ks.max - 13.0 / 28.0).abs() < 1e-15);
        let inf = ks_inference(&ks, &[8.0, 7.0], 1.0, 0.95).unwrap();
        assert!((inf.p_value - 0.396_767_765_129_210_47).abs() < 1e-12);
        // DKW: ε_g = √(ln(2·2/0.05) / (2 n_g)).
        let e = |n: f64| ((4.0_f64 / 0.05).ln() / (2.0 * n)).sqrt();
        assert!((inf.interval.upper - 1.0_f64.min(13.0 / 28.0 + e(8.0) + e(7.0))).abs() < 1e-12);
        assert_eq!(inf.interval.lower.to_bits(), 0.0_f64.to_bits());
    }

    #[test]
    fn union_bound_and_bad_inputs() {
        let s = PairwiseSummary::build("t", vec!["a".into(), "b".into(), "c".into()], |_, _| 0.1);
        let one = ks_two_sample_p_value(0.1, 100.0, 100.0);
        let inf = ks_inference(&s, &[100.0; 3], 1.0, 0.9).unwrap();
        assert!((inf.p_value - (3.0 * one).min(1.0)).abs() < 1e-15);
        // pSP on [0, 0.5): scale 2 tests KS at d / 2 and widens the interval twice.
        let psp = ks_inference(&s, &[1e6; 3], 2.0, 0.9).unwrap();
        let ks = ks_inference(&s, &[1e6; 3], 1.0, 0.9).unwrap();
        assert!(((psp.interval.upper - 0.1) - 2.0 * (ks.interval.upper - 0.1)).abs() < 1e-12);
        let s3 = PairwiseSummary::build("t", vec!["a".into(), "b".into(), "c".into()], |_, _| 0.3);
        let p = |scale| ks_inference(&s3, &[100.0; 3], scale, 0.9).unwrap().p_value;
        assert!(p(2.0) > p(1.0));
        assert!(ks_inference(&s, &[1.0, 2.0], 1.0, 0.9).is_err());
        assert!(ks_inference(&s, &[0.0; 3], 1.0, 0.9).is_err());
        assert!(ks_inference(&s, &[1.0; 3], 0.5, 0.9).is_err());
    }

    proptest::proptest! {
        /// The AUC difference's interval and p-value are one Bonferroni family: the interval
        /// leaves 0 exactly when p < 1 − confidence, and it holds the estimate.
        #[test]
        fn auc_difference_interval_and_test_agree(
            groups in proptest::collection::vec((0.3f64..1.0, 3.0f64..400.0, 3.0f64..400.0), 2..7),
            level in 0usize..3,
        ) {
            let confidence = [0.9, 0.95, 0.99][level];
            let auc: Vec<Option<f64>> = groups.iter().map(|g| Some(g.0)).collect();
            let n_pos: Vec<f64> = groups.iter().map(|g| g.1).collect();
            let n_neg: Vec<f64> = groups.iter().map(|g| g.2).collect();
            let r = auc_difference_inference(&auc, &n_pos, &n_neg, confidence).unwrap().unwrap();
            proptest::prop_assert_eq!(r.interval.lower > 0.0, r.p_value < 1.0 - confidence);
            proptest::prop_assert!(r.interval.lower <= r.estimate + 1e-12);
            proptest::prop_assert!(r.estimate <= r.interval.upper + 1e-12);
        }
    }

    #[test]
    fn auc_difference_by_hand() {
        let (a, b) = (0.9, 0.7);
        let r = auc_difference_inference(&[Some(a), None, Some(b)], &[100.0; 3], &[200.0; 3], 0.95)
            .unwrap()
            .unwrap();
        let (sa, sb) = (
            auc_standard_error(a, 100.0, 200.0),
            auc_standard_error(b, 100.0, 200.0),
        );
        let se = (sa * sa + sb * sb).sqrt();
        assert!((r.estimate - 0.2).abs() < 1e-15);
        assert!((r.p_value - 2.0 * normal_sf(0.2 / se)).abs() < 1e-15);
        assert!((r.interval.lower - (0.2 - 1.959_963_984_540_054 * se)).abs() < 1e-9);
        // Three groups, K = 3 pairs: z at 1 − 0.05/6, p = 3 · the smallest pair p-value, and
        // the interval leaves 0 exactly when p < 0.05.
        let c = 0.8;
        let r3 =
            auc_difference_inference(&[Some(a), Some(c), Some(b)], &[100.0; 3], &[200.0; 3], 0.95)
                .unwrap()
                .unwrap();
        let z3 = Normal::standard().inverse_cdf(1.0 - 0.05 / 6.0);
        assert!((r3.p_value - (3.0 * 2.0 * normal_sf(0.2 / se)).min(1.0)).abs() < 1e-15);
        assert!((r3.interval.lower - (0.2 - z3 * se).max(0.0)).abs() < 1e-12);
        assert_eq!(r3.interval.lower > 0.0, r3.p_value < 0.05);
        assert!(
            auc_difference_inference(&[Some(0.5), None], &[1.0; 2], &[1.0; 2], 0.95)
                .unwrap()
                .is_none()
        );
        assert!(auc_difference_inference(&[Some(0.5)], &[1.0; 2], &[1.0; 2], 0.95).is_err());
    }
}
