//! The change of a score gap (AUC difference, KS DP-Δ / EO-Δ, partial SP) between two audits,
//! from each audit's own interval: no rows are needed, so it works on two saved reports.
//!
//! **Method (Bonferroni over the two audits).** Each audit's interval at level `1 − α/2`
//! ([`ks_inference`](super::ks_inference), [`auc_difference_inference`](super::auc_difference_inference))
//! covers that audit's true gap with probability at least `1 − α/2`, so both cover at once with
//! probability at least `1 − α` — whatever the dependence between the audits. Then the true
//! change lies in `[lower_after − upper_before, upper_after − lower_before]`. This holds for two
//! sets of rows and for two score columns of the same rows alike, and it is conservative (the
//! audits' intervals are already simultaneous over the pairs, and DKW's is finite-sample).
//!
//! **p-value.** The intervals are nested in the level, so the change interval is too; the p-value
//! of "the gap did not change" is the smallest `α` at which the change interval leaves 0, found
//! by bisection on `log α` to 1e-9; below [`SMALLEST_P`] it reports that bound. The interval leaves 0 exactly when `p < α`. When the
//! two gaps are equal the interval always holds 0 and `p = 1`.

use super::{ChangeInference, Interval, ScoreGapInference};
use crate::error::{MetricError, Result};

/// The smallest p-value the bisection resolves (the audits' levels `1 − α/2` must stay below 1
/// in `f64`); a change that leaves 0 even there reports this value, an upper bound.
pub const SMALLEST_P: f64 = 1e-14;

/// The change of one score gap from the gap's inference in each audit at any confidence level.
///
/// `before(c)` and `after(c)` return the audit's [`ScoreGapInference`] at confidence `c`
/// (`Ok(None)` when the gap is undefined in that audit); they are called at `1 − α/2` for the
/// interval and at a few dozen levels for the p-value, so they should be cheap (the closed-form
/// inferences of `ci::scores` are).
///
/// # Errors
/// [`MetricError::InvalidParameter`] for a confidence outside (0, 1), and any error of the two
/// inferences. `Ok(None)` when the gap is undefined in either audit.
///
/// # Example
/// ```
/// use fair_metrics::ci::{ScoreGapInference, Interval, score_gap_change};
/// // A gap whose interval half-width is 0.1 at every level, 0.30 before and 0.05 after.
/// let at = |gap: f64| move |_c: f64| Ok(Some(ScoreGapInference {
///     estimate: gap,
///     interval: Interval { lower: gap - 0.1, upper: gap + 0.1 },
///     p_value: 0.0,
/// }));
/// let c = score_gap_change(at(0.30), at(0.05), 0.95)?.unwrap();
/// assert!((c.change + 0.25).abs() < 1e-12);
/// assert!((c.interval.lower + 0.45).abs() < 1e-12 && (c.interval.upper + 0.05).abs() < 1e-12);
/// // The same gap twice: no change, p = 1.
/// let same = score_gap_change(at(0.30), at(0.30), 0.95)?.unwrap();
/// assert_eq!((same.change, same.p_value), (0.0, 1.0));
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
pub fn score_gap_change(
    before: impl Fn(f64) -> Result<Option<ScoreGapInference>>,
    after: impl Fn(f64) -> Result<Option<ScoreGapInference>>,
    confidence: f64,
) -> Result<Option<ChangeInference>> {
    super::check_confidence(confidence)?;
    // The change interval at family level 1 − a: each audit at 1 − a/2.
    let interval_at = |a: f64| -> Result<Option<(f64, f64, Interval)>> {
        let c = 1.0 - a / 2.0;
        Ok(match (before(c)?, after(c)?) {
            (Some(b), Some(f)) => Some((
                b.estimate,
                f.estimate,
                Interval {
                    lower: f.interval.lower - b.interval.upper,
                    upper: f.interval.upper - b.interval.lower,
                },
            )),
            _ => None,
        })
    };
    let Some((gap_before, gap_after, interval)) = interval_at(1.0 - confidence)? else {
        return Ok(None);
    };
    let change = gap_after - gap_before;
    let excludes_zero = |iv: &Interval| iv.lower > 0.0 || iv.upper < 0.0;
    // α = 1 is the narrowest family (each audit at 1/2); if it holds 0, no level rejects.
    let widest_alpha = 1.0 - 1e-12;
    let p_value = match interval_at(widest_alpha)? {
        Some((_, _, iv)) if !excludes_zero(&iv) => 1.0,
        None => 1.0,
        Some(_) => {
            // Bisect on log α between a level that excludes 0 (hi) and one that holds it (lo).
            let (mut lo, mut hi) = (SMALLEST_P.ln(), widest_alpha.ln());
            match interval_at(SMALLEST_P)? {
                Some((_, _, iv)) if excludes_zero(&iv) => SMALLEST_P,
                _ => {
                    while hi - lo > 1e-9 * hi.abs().max(1.0) {
                        let mid = 0.5 * (lo + hi);
                        match interval_at(mid.exp())? {
                            Some((_, _, iv)) if excludes_zero(&iv) => hi = mid,
                            _ => lo = mid,
                        }
                    }
                    hi.exp()
                }
            }
        }
    };
    if !(change.is_finite() && interval.lower.is_finite() && interval.upper.is_finite()) {
        return Err(MetricError::InvalidParameter {
            name: "score gap change inputs",
            value: format!("gaps {gap_before} and {gap_after}, interval {interval:?}"),
            expected: "finite gaps and intervals",
        });
    }
    Ok(Some(ChangeInference {
        before: gap_before,
        after: gap_after,
        change,
        interval,
        p_value,
        n_resamples: 0,
        approximate: false,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ci::{auc_difference_inference, ks_inference_of_max};

    fn ks_at(d: f64, n: Vec<f64>) -> impl Fn(f64) -> Result<Option<ScoreGapInference>> {
        move |c| ks_inference_of_max(d, &n, 1.0, c).map(Some)
    }

    #[test]
    fn equal_gaps_give_zero_change_and_p_one() {
        let c = score_gap_change(
            ks_at(0.2, vec![500.0, 800.0]),
            ks_at(0.2, vec![300.0, 900.0]),
            0.95,
        )
        .unwrap()
        .unwrap();
        assert_eq!(c.change.to_bits(), 0.0_f64.to_bits());
        assert!(c.interval.lower < 0.0 && c.interval.upper > 0.0);
        assert_eq!(c.p_value.to_bits(), 1.0_f64.to_bits());
    }

    #[test]
    fn the_interval_leaves_zero_exactly_when_p_is_below_alpha() {
        // KS 0.20 → 0.08 on 4,000 rows per group: distinguishable.
        let c = score_gap_change(
            ks_at(0.20, vec![4000.0; 3]),
            ks_at(0.08, vec![4000.0; 3]),
            0.95,
        )
        .unwrap()
        .unwrap();
        assert!(c.interval.upper < 0.0, "{c:?}");
        assert!(c.p_value < 0.05, "{c:?}");
        // At the p-value the interval just touches 0; a little below it, it holds 0.
        let at = |a: f64| {
            score_gap_change(
                ks_at(0.20, vec![4000.0; 3]),
                ks_at(0.08, vec![4000.0; 3]),
                1.0 - a,
            )
            .unwrap()
            .unwrap()
        };
        assert!(at(c.p_value * 1.001).interval.upper < 0.0);
        assert!(at(c.p_value * 0.999).interval.upper >= 0.0);
        // 0.10 → 0.06 on 200 rows per group: not distinguishable.
        let d = score_gap_change(
            ks_at(0.10, vec![200.0; 3]),
            ks_at(0.06, vec![200.0; 3]),
            0.95,
        )
        .unwrap()
        .unwrap();
        assert!(d.interval.lower < 0.0 && d.interval.upper > 0.0 && d.p_value > 0.05);
    }

    #[test]
    fn the_interval_by_hand_for_two_groups() {
        // Two groups of 1,000: DKW ε = √(ln(2·2/0.025)/2000) per group at 1 − 0.025.
        let eps = ((4.0_f64 / 0.025).ln() / 2000.0).sqrt();
        let c = score_gap_change(
            ks_at(0.3, vec![1000.0; 2]),
            ks_at(0.15, vec![1000.0; 2]),
            0.95,
        )
        .unwrap()
        .unwrap();
        assert!((c.interval.lower - (0.15 - 2.0 * eps - (0.3 + 2.0 * eps))).abs() < 1e-12);
        assert!((c.interval.upper - (0.15 + 2.0 * eps - (0.3 - 2.0 * eps))).abs() < 1e-12);
    }

    #[test]
    fn undefined_in_either_audit_is_none_and_bad_confidence_an_error() {
        let auc = |a: Vec<Option<f64>>| {
            move |c| auc_difference_inference(&a, &[50.0, 50.0], &[50.0, 50.0], c)
        };
        assert!(
            score_gap_change(
                auc(vec![Some(0.8), None]),
                auc(vec![Some(0.8), Some(0.7)]),
                0.95
            )
            .unwrap()
            .is_none()
        );
        assert!(
            score_gap_change(
                auc(vec![Some(0.8), Some(0.7)]),
                auc(vec![Some(0.8), Some(0.7)]),
                1.0
            )
            .is_err()
        );
        let c = score_gap_change(
            auc(vec![Some(0.9), Some(0.6)]),
            auc(vec![Some(0.8), Some(0.7)]),
            0.95,
        )
        .unwrap()
        .unwrap();
        assert!((c.change + 0.2).abs() < 1e-12);
    }
}
