//! Intervals and p-values of the gaps between groups' **means** (the regression metrics, a
//! scoring rate) from each group's estimate and standard error alone — what a mergeable state of
//! sums gives, so a file of any size, a stream and a cluster give the same numbers.
//!
//! A row bootstrap of a group mean is, by the central limit theorem, normal with the group's
//! standard error; the groups are independent samples (the audit's stratified bootstrap redraws
//! each group on its own). So each resample draws every group's value from
//! `N(estimate, se²)` and recomputes the gap — `max − min` over the groups, and `min / max` for a
//! quantity that cannot be negative — and the interval is the percentile interval of the draws
//! (the max over groups is not smooth, which is why this simulates rather than applying the
//! delta method). The p-value of "every group has the same mean" draws the groups from
//! `N(0, se²)` (the null: one common mean, each group its own spread; the difference's law does
//! not depend on the common mean) and is `(1 + #{draws ≥ observed}) / (1 + B)`; the ratio tests
//! the same hypothesis, so it carries the same p-value.
//!
//! Seeded (ChaCha8): the same seed gives the same bits.
//!
//! ```
//! use fair_metrics::ci::{NormalGapSettings, normal_gap_inference};
//! let groups = [(0.50, 0.01), (0.40, 0.01), (0.45, 0.02)];
//! let s = NormalGapSettings { resamples: 1000, confidence: 0.95, seed: 7 };
//! let gap = normal_gap_inference(&groups, true, &s)?;
//! assert!((gap.difference.estimate - 0.10).abs() < 1e-12);
//! assert!(gap.difference.interval.lower < 0.10 && 0.10 < gap.difference.interval.upper);
//! assert!(gap.difference.p_value < 0.01);
//! assert!((gap.ratio.unwrap().estimate - 0.8).abs() < 1e-12);
//! # Ok::<(), fair_metrics::MetricError>(())
//! ```

use super::{Interval, quantile_sorted};
use crate::error::{MetricError, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

/// How the draws are made.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NormalGapSettings {
    /// Draws for the interval and as many for the p-value (at least 100).
    pub resamples: usize,
    /// Two-sided level of the interval, in (0, 1).
    pub confidence: f64,
    /// Seed of the draws.
    pub seed: u64,
}

/// One gap's estimate, interval and p-value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NormalGap {
    /// The gap on the data.
    pub estimate: f64,
    /// Percentile interval of the simulated gap.
    pub interval: Interval,
    /// p-value of "the groups have the same mean".
    pub p_value: f64,
}

/// The difference (`max − min`) and, for a quantity that cannot be negative, the ratio
/// (`min / max`, 1 when both are 0) between groups.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NormalGaps {
    /// `max − min`.
    pub difference: NormalGap,
    /// `min / max` (`None` unless asked for).
    pub ratio: Option<NormalGap>,
}

/// The normal quantile `z` of a two-sided interval at `confidence` (1.959964… at 0.95).
///
/// ```
/// let z = fair_metrics::ci::two_sided_z(0.95)?;
/// assert!((z - 1.959_963_984_540_054).abs() < 1e-12);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
///
/// # Errors
/// [`MetricError::InvalidParameter`] for a confidence outside (0, 1).
pub fn two_sided_z(confidence: f64) -> Result<f64> {
    use statrs::distribution::{ContinuousCDF, Normal};
    if !(confidence > 0.0 && confidence < 1.0) {
        return Err(MetricError::InvalidParameter {
            name: "confidence",
            value: confidence.to_string(),
            expected: "a confidence in (0, 1), e.g. 0.95",
        });
    }
    let standard = Normal::new(0.0, 1.0).map_err(|e| MetricError::InvalidParameter {
        name: "normal distribution",
        value: e.to_string(),
        expected: "the standard normal",
    })?;
    Ok(standard.inverse_cdf(1.0 - (1.0 - confidence) / 2.0))
}

fn ratio_of(lo: f64, hi: f64) -> f64 {
    if hi > 0.0 {
        (lo / hi).max(0.0)
    } else if lo > 0.0 {
        0.0
    } else {
        1.0
    }
}

fn min_max(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    })
}

/// The gaps between the groups `(estimate, standard error)` with their intervals and p-value
/// (see the module docs); `ratio` asks for `min / max` too.
///
/// # Errors
/// [`MetricError::InvalidParameter`] for fewer than two groups, a non-finite estimate, a
/// standard error that is negative or not finite, fewer than 100 resamples, or a confidence
/// outside (0, 1).
pub fn normal_gap_inference(
    groups: &[(f64, f64)],
    ratio: bool,
    settings: &NormalGapSettings,
) -> Result<NormalGaps> {
    let bad = |value: String, expected: &'static str| MetricError::InvalidParameter {
        name: "normal gap inference",
        value,
        expected,
    };
    if groups.len() < 2 {
        return Err(bad(
            format!("{} groups", groups.len()),
            "at least two groups to compare",
        ));
    }
    if let Some((v, se)) = groups
        .iter()
        .find(|(v, se)| !v.is_finite() || !se.is_finite() || *se < 0.0)
    {
        return Err(bad(
            format!("estimate {v}, standard error {se}"),
            "finite estimates and finite standard errors >= 0",
        ));
    }
    if settings.resamples < 100 {
        return Err(bad(
            format!("{} resamples", settings.resamples),
            "at least 100 resamples",
        ));
    }
    if !(settings.confidence > 0.0 && settings.confidence < 1.0) {
        return Err(bad(
            format!("confidence {}", settings.confidence),
            "a confidence in (0, 1), e.g. 0.95",
        ));
    }
    let alpha = 1.0 - settings.confidence;
    let (lo, hi) = min_max(groups.iter().map(|g| g.0));
    let difference = hi - lo;
    let observed_ratio = ratio_of(lo, hi);
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    let b = settings.resamples;
    let mut diffs = Vec::with_capacity(b);
    let mut ratios = Vec::with_capacity(if ratio { b } else { 0 });
    let mut draw = Vec::with_capacity(groups.len());
    for _ in 0..b {
        draw.clear();
        for &(v, se) in groups {
            let z: f64 = StandardNormal.sample(&mut rng);
            draw.push(v + se * z);
        }
        let (l, h) = min_max(draw.iter().copied());
        diffs.push(h - l);
        if ratio {
            ratios.push(ratio_of(l, h));
        }
    }
    // The null's draws: the same groups' spreads around one common mean (0).
    let mut extreme = 0_usize;
    for _ in 0..b {
        let (l, h) = min_max(groups.iter().map(|&(_, se)| {
            let z: f64 = StandardNormal.sample(&mut rng);
            se * z
        }));
        // A tolerance of a few ulps so that a gap of exactly 0 counts as reached.
        if h - l >= difference * (1.0 - 4.0 * f64::EPSILON) {
            extreme += 1;
        }
    }
    let p_value = (1 + extreme) as f64 / (1 + b) as f64;
    let percentile = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        Interval {
            lower: quantile_sorted(&v, alpha / 2.0),
            upper: quantile_sorted(&v, 1.0 - alpha / 2.0),
        }
    };
    Ok(NormalGaps {
        difference: NormalGap {
            estimate: difference,
            interval: percentile(diffs),
            p_value,
        },
        ratio: ratio.then(|| NormalGap {
            estimate: observed_ratio,
            interval: percentile(ratios),
            p_value,
        }),
    })
}

/// The change of a gap between two independent audits, each group of each audit given as
/// `(estimate, standard error)` (the groups both keep): every draw redraws all groups of both
/// audits from their normals and recomputes `after − before` of the gap (`max − min`, or
/// `min / max` with `ratio`); percentile interval, and the two-sided p-value of "no change"
/// `(1 + 2·min(#draws ≤ 0, #draws ≥ 0)) / (1 + B)` capped at 1. Seeded.
///
/// ```
/// use fair_metrics::ci::{NormalGapSettings, normal_gap_change};
/// let before = [(0.50, 0.01), (0.40, 0.01)];
/// let after = [(0.46, 0.01), (0.44, 0.01)];
/// let s = NormalGapSettings { resamples: 1000, confidence: 0.95, seed: 1 };
/// let c = normal_gap_change(&before, &after, false, &s)?;
/// assert!((c.estimate - (-0.08)).abs() < 1e-12);
/// assert!(c.interval.upper < 0.0 && c.p_value < 0.01);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
///
/// # Errors
/// As [`normal_gap_inference`], for either side.
pub fn normal_gap_change(
    before: &[(f64, f64)],
    after: &[(f64, f64)],
    ratio: bool,
    settings: &NormalGapSettings,
) -> Result<NormalGap> {
    // The same checks as one side's inference.
    let mut check = *settings;
    check.resamples = check.resamples.max(100);
    normal_gap_inference(before, ratio, &check)?;
    normal_gap_inference(after, ratio, &check)?;
    let gap = |v: &mut dyn Iterator<Item = f64>| {
        let (lo, hi) = min_max(v);
        if ratio { ratio_of(lo, hi) } else { hi - lo }
    };
    let estimate = gap(&mut after.iter().map(|g| g.0)) - gap(&mut before.iter().map(|g| g.0));
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    let mut draws = Vec::with_capacity(settings.resamples);
    for _ in 0..settings.resamples {
        let mut side = |groups: &[(f64, f64)]| {
            gap(&mut groups.iter().map(|&(v, se)| {
                let z: f64 = StandardNormal.sample(&mut rng);
                v + se * z
            }))
        };
        let b = side(before);
        let a = side(after);
        draws.push(a - b);
    }
    let below = draws.iter().filter(|&&d| d <= 0.0).count();
    let above = draws.iter().filter(|&&d| d >= 0.0).count();
    let p_value = ((1 + 2 * below.min(above)) as f64 / (1 + draws.len()) as f64).min(1.0);
    let alpha = 1.0 - settings.confidence;
    draws.sort_by(f64::total_cmp);
    Ok(NormalGap {
        estimate,
        interval: Interval {
            lower: quantile_sorted(&draws, alpha / 2.0),
            upper: quantile_sorted(&draws, 1.0 - alpha / 2.0),
        },
        p_value,
    })
}

/// The change `b − a` of two independent normal estimates with standard errors `se_a`, `se_b`:
/// the normal interval (standard errors added in quadrature) and the two-sided z-test of "no
/// change". `None` when both standard errors are 0.
///
/// ```
/// let (c, iv, p) = fair_metrics::ci::normal_change(1.0, 0.1, 1.5, 0.1, 0.95)?.unwrap();
/// assert!((c - 0.5).abs() < 1e-12 && iv.lower > 0.0 && p < 0.001);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
///
/// # Errors
/// [`MetricError::InvalidParameter`] for a confidence outside (0, 1) or a standard error that
/// is negative or not finite.
pub fn normal_change(
    a: f64,
    se_a: f64,
    b: f64,
    se_b: f64,
    confidence: f64,
) -> Result<Option<(f64, Interval, f64)>> {
    use statrs::distribution::{ContinuousCDF, Normal};
    let z = two_sided_z(confidence)?;
    if !(se_a.is_finite() && se_b.is_finite() && se_a >= 0.0 && se_b >= 0.0) {
        return Err(MetricError::InvalidParameter {
            name: "standard errors",
            value: format!("{se_a}, {se_b}"),
            expected: "finite standard errors >= 0",
        });
    }
    let se = (se_a * se_a + se_b * se_b).sqrt();
    if se <= 0.0 {
        return Ok(None);
    }
    let change = b - a;
    let standard = Normal::new(0.0, 1.0).map_err(|e| MetricError::InvalidParameter {
        name: "normal distribution",
        value: e.to_string(),
        expected: "the standard normal",
    })?;
    let p = (2.0 * (1.0 - standard.cdf((change / se).abs()))).min(1.0);
    Ok(Some((
        change,
        Interval {
            lower: change - z * se,
            upper: change + z * se,
        },
        p,
    )))
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // exact values: 1/(1+B), and draws without spread
mod tests {
    use super::*;
    use rand::RngExt;

    fn settings(seed: u64) -> NormalGapSettings {
        NormalGapSettings {
            resamples: 400,
            confidence: 0.9,
            seed,
        }
    }

    #[test]
    fn same_seed_same_bits_and_no_spread_no_width() {
        let g = [(1.0, 0.1), (2.0, 0.2)];
        assert_eq!(
            normal_gap_inference(&g, false, &settings(3)).unwrap(),
            normal_gap_inference(&g, false, &settings(3)).unwrap()
        );
        // No spread: every draw is the data; the interval is the point, the null draws are all
        // 0 < 1, so p = 1 / (1 + B).
        let exact = normal_gap_inference(&[(1.0, 0.0), (3.0, 0.0)], true, &settings(1)).unwrap();
        assert_eq!(
            exact.difference.interval,
            Interval {
                lower: 2.0,
                upper: 2.0
            }
        );
        assert_eq!(exact.difference.p_value, 1.0 / 401.0);
        let r = exact.ratio.unwrap();
        assert_eq!((r.estimate, r.interval.lower), (1.0 / 3.0, 1.0 / 3.0));
        // Equal means without spread: p = 1.
        let same = normal_gap_inference(&[(1.0, 0.0), (1.0, 0.0)], false, &settings(1)).unwrap();
        assert_eq!(same.difference.p_value, 1.0);
    }

    #[test]
    fn changes_by_hand_and_by_simulation() {
        let s = settings(4);
        let g = [(1.0, 0.1), (2.0, 0.1)];
        let same = normal_gap_change(&g, &g, false, &s).unwrap();
        assert_eq!(same.estimate, 0.0);
        assert!(same.p_value > 0.5, "{same:?}");
        assert_eq!(same, normal_gap_change(&g, &g, false, &s).unwrap());
        let moved = normal_gap_change(&g, &[(1.0, 0.1), (3.0, 0.1)], false, &s).unwrap();
        assert_eq!(moved.estimate, 1.0);
        assert!(
            moved.interval.lower > 0.5 && moved.p_value < 0.01,
            "{moved:?}"
        );
        assert!(normal_gap_change(&g, &[(1.0, 0.1)], false, &s).is_err());
        // The z-test: 0.5 apart with se 0.1 each: z = 0.5 / √0.02 ≈ 3.54.
        let (c, iv, p) = normal_change(1.0, 0.1, 1.5, 0.1, 0.95).unwrap().unwrap();
        assert!((c - 0.5).abs() < 1e-15);
        assert!(
            (iv.upper - iv.lower - 2.0 * 1.959_963_984_540_054 * 0.02_f64.sqrt()).abs() < 1e-12
        );
        assert!((p - 4.05e-4).abs() < 1e-5, "{p}");
        assert_eq!(normal_change(1.0, 0.0, 1.0, 0.0, 0.95).unwrap(), None);
        assert!(normal_change(1.0, -0.1, 1.0, 0.0, 0.95).is_err());
    }

    #[test]
    fn bad_inputs_are_named() {
        let s = settings(0);
        assert!(normal_gap_inference(&[(1.0, 0.1)], false, &s).is_err());
        assert!(normal_gap_inference(&[(1.0, -0.1), (1.0, 0.1)], false, &s).is_err());
        assert!(normal_gap_inference(&[(f64::NAN, 0.1), (1.0, 0.1)], false, &s).is_err());
        let few = NormalGapSettings { resamples: 10, ..s };
        assert!(normal_gap_inference(&[(1.0, 0.1), (1.0, 0.1)], false, &few).is_err());
        let level = NormalGapSettings {
            confidence: 1.0,
            ..s
        };
        assert!(normal_gap_inference(&[(1.0, 0.1), (1.0, 0.1)], false, &level).is_err());
    }

    /// Seeded simulation of the claims: under equal means the p-value rejects at about its
    /// level, and a real difference's interval covers it at about the confidence level. Rows
    /// are drawn, means and standard errors computed from them, as the audit does.
    #[test]
    fn test_size_and_coverage_by_simulation() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let (runs, n) = (300, 200);
        let (mut rejected, mut covered) = (0, 0);
        for run in 0..runs {
            let shift = [0.0, 0.0, 0.3];
            let stats: Vec<(f64, f64)> = (0..3)
                .map(|g| {
                    let xs: Vec<f64> = (0..n)
                        .map(|_| rng.random::<f64>() * 2.0 + shift[g])
                        .collect();
                    let m = xs.iter().sum::<f64>() / n as f64;
                    let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / n as f64;
                    (m, (v / n as f64).sqrt())
                })
                .collect();
            let s = settings(run);
            // Null: the first two groups only.
            if normal_gap_inference(&stats[..2], false, &s)
                .unwrap()
                .difference
                .p_value
                < 0.1
            {
                rejected += 1;
            }
            let all = normal_gap_inference(&stats, false, &s).unwrap().difference;
            if all.interval.lower <= 0.3 && 0.3 <= all.interval.upper {
                covered += 1;
            }
        }
        // Level 0.1 over 300 runs: expect 30 (binomial sd ≈ 5.2); coverage 90 %: expect 270.
        assert!(
            (15..=45).contains(&rejected),
            "rejected {rejected} of {runs}"
        );
        assert!(
            (250..=290).contains(&covered),
            "covered {covered} of {runs}"
        );
    }
}
