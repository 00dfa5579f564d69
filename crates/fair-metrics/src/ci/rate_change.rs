//! The change of one rate of one group between two audits: two independent samples (two files,
//! two weeks) or the same rows scored by two models (paired).
//!
//! * **Two samples**: Newcombe's hybrid score interval for a difference of proportions (his
//!   method 10, from the two Wilson intervals; good coverage at small n and near 0 or 1) and the
//!   two-sided pooled z-test of "the rate did not change".
//! * **Paired**: the rows both models see differ only where the models disagree: `b` rows the
//!   first model counts in the rate's numerator and the second does not, `c` the other way.
//!   The change is `(c − b) / n`, its interval the Wald interval with the paired variance
//!   `(b + c − (c − b)² / n) / n²`, and the p-value McNemar's exact test (two-sided binomial of
//!   `b` among `b + c` at ½). Identical predictions give exactly 0, `[0, 0]`, p = 1.

use super::{Interval, RateCiMethod, check_confidence, rate_interval};
use crate::Result;
use statrs::distribution::{Binomial, ContinuousCDF, DiscreteCDF, Normal};

/// One rate of one group in two audits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RateChange {
    /// The rate in the first audit.
    pub before: f64,
    /// The rate in the second audit.
    pub after: f64,
    /// `after − before`.
    pub change: f64,
    /// Interval of the change.
    pub interval: Interval,
    /// Two-sided p-value of "the rate did not change".
    pub p_value: f64,
}

/// The change of a rate from `before = (successes, rows)` to `after` in two independent
/// samples; `None` when either has no rows in the rate's denominator.
///
/// # Errors
/// [`crate::MetricError::InvalidParameter`] for a confidence outside `(0, 1)`.
///
/// # Example
/// ```
/// use fair_metrics::ci::proportion_change;
/// let c = proportion_change((60, 100), (40, 100), 0.95)?.unwrap();
/// assert!((c.change + 0.2).abs() < 1e-12);
/// assert!(c.interval.upper < 0.0 && c.p_value < 0.01);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn proportion_change(
    before: (u64, u64),
    after: (u64, u64),
    confidence: f64,
) -> Result<Option<RateChange>> {
    check_confidence(confidence)?;
    let ((x1, n1), (x2, n2)) = (before, after);
    if n1 == 0 || n2 == 0 || x1 > n1 || x2 > n2 {
        return Ok(None);
    }
    let (n1f, n2f) = (n1 as f64, n2 as f64);
    let (p1, p2) = (x1 as f64 / n1f, x2 as f64 / n2f);
    let w1 = rate_interval(p1, n1f, confidence, RateCiMethod::Wilson)?;
    let w2 = rate_interval(p2, n2f, confidence, RateCiMethod::Wilson)?;
    let d = p2 - p1;
    let interval = Interval {
        lower: d - ((p2 - w2.lower).powi(2) + (w1.upper - p1).powi(2)).sqrt(),
        upper: d + ((w2.upper - p2).powi(2) + (p1 - w1.lower).powi(2)).sqrt(),
    };
    let pooled = (x1 + x2) as f64 / (n1f + n2f);
    let se = (pooled * (1.0 - pooled) * (1.0 / n1f + 1.0 / n2f)).sqrt();
    let p_value = if se > 0.0 {
        // The survival function, not 1 − cdf: past z ≈ 8.3 the latter is exactly 0 (a
        // p-value of 1e-41 would read "< 1e-300").
        2.0 * Normal::standard().sf((d / se).abs())
    } else {
        1.0 // both rates 0, or both 1: no change
    };
    Ok(Some(RateChange {
        before: p1,
        after: p2,
        change: d,
        interval,
        p_value: p_value.clamp(0.0, 1.0),
    }))
}

/// The change of a rate between two models on the same `n` rows of its denominator: `before`
/// is the first model's successes, `b` the rows only the first model counts, `c` the rows only
/// the second counts; `None` when `n` is 0.
///
/// # Errors
/// [`crate::MetricError::InvalidParameter`] for a confidence outside `(0, 1)`.
///
/// # Example
/// ```
/// use fair_metrics::ci::paired_proportion_change;
/// // 100 rows; the first model selects 60, the second drops 15 of them and adds 5 others.
/// let c = paired_proportion_change(60, (15, 5), 100, 0.95)?.unwrap();
/// assert!((c.change + 0.1).abs() < 1e-12 && (c.after - 0.5).abs() < 1e-12);
/// assert!(c.p_value < 0.05);
/// let same = paired_proportion_change(60, (0, 0), 100, 0.95)?.unwrap();
/// assert_eq!((same.change, same.interval.lower, same.interval.upper, same.p_value), (0.0, 0.0, 0.0, 1.0));
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn paired_proportion_change(
    before: u64,
    (b, c): (u64, u64),
    n: u64,
    confidence: f64,
) -> Result<Option<RateChange>> {
    check_confidence(confidence)?;
    if n == 0 || before > n || b > before || c > n - before {
        return Ok(None);
    }
    let nf = n as f64;
    let p1 = before as f64 / nf;
    let p2 = (before - b + c) as f64 / nf;
    let diff = c as f64 - b as f64;
    let d = diff / nf;
    let var = ((b + c) as f64 - diff * diff / nf).max(0.0) / (nf * nf);
    let z = Normal::standard().inverse_cdf(0.5 + confidence / 2.0);
    let half = z * var.sqrt();
    let interval = Interval {
        lower: (d - half).max(-1.0),
        upper: (d + half).min(1.0),
    };
    let p_value = if b + c == 0 {
        1.0
    } else {
        let k = b.min(c);
        let tail = Binomial::new(0.5, b + c).map_or(1.0, |bin| bin.cdf(k));
        (2.0 * tail).min(1.0)
    };
    Ok(Some(RateChange {
        before: p1,
        after: p2,
        change: d,
        interval,
        p_value,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_far_tail_p_value_is_not_rounded_to_zero() {
        // 160/8000 → 500/8000: z = 0.0425 / √(p̂(1 − p̂)(2/8000)) with p̂ = 660/16000, 13.516;
        // 2Φ̄(z) = erfc(z/√2) = 1.2551e-41 (Python's math.erfc). 1 − Φ(z) is exactly 0 here.
        let c = proportion_change((160, 8000), (500, 8000), 0.95)
            .unwrap()
            .unwrap();
        assert!(
            (c.p_value / 1.2551108060924137e-41 - 1.0).abs() < 1e-6,
            "{}",
            c.p_value
        );
    }

    #[test]
    fn newcombe_by_hand() {
        // Newcombe (1998), Table II example (a): 56/70 vs 48/80 → 0.2, interval 0.0524 to 0.3339
        // for p1 − p2; here after − before, so the signs flip.
        let c = proportion_change((56, 70), (48, 80), 0.95)
            .unwrap()
            .unwrap();
        assert!((c.change + 0.2).abs() < 1e-12);
        assert!((c.interval.lower + 0.3339).abs() < 1e-4, "{:?}", c.interval);
        assert!((c.interval.upper + 0.0524).abs() < 1e-4, "{:?}", c.interval);
        assert!(proportion_change((0, 0), (1, 2), 0.95).unwrap().is_none());
        let same = proportion_change((0, 10), (0, 20), 0.95).unwrap().unwrap();
        assert_eq!((same.change, same.p_value), (0.0, 1.0));
    }

    #[test]
    fn mcnemar_by_hand() {
        // b = 10, c = 0: p = 2 · 0.5^10 = 0.001953125.
        let c = paired_proportion_change(50, (10, 0), 100, 0.95)
            .unwrap()
            .unwrap();
        assert!((c.p_value - 0.001_953_125).abs() < 1e-12);
        assert!((c.change + 0.1).abs() < 1e-12);
        assert!(
            paired_proportion_change(5, (6, 0), 100, 0.95)
                .unwrap()
                .is_none()
        );
        assert!(
            paired_proportion_change(0, (0, 0), 0, 0.95)
                .unwrap()
                .is_none()
        );
        assert!(paired_proportion_change(5, (0, 0), 10, 1.5).is_err());
    }
}
