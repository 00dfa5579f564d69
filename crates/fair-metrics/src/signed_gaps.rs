//! AIF360's signed two-group gaps: unprivileged minus privileged (or their ratio).
//!
//! AIF360's `ClassificationMetric` compares exactly two groups and keeps the sign, so a negative
//! value means the unprivileged group gets less of the rate. These functions read an existing
//! [`GroupConfusion`] (build it once, query many gaps), taking the pair of group codes to compare.
//! For unsigned gaps over any number of groups see [`crate::parity`].

use crate::confusion::{GroupConfusion, Rate};
use crate::error::{MetricError, Result};
use crate::zero_division::ZeroDivision;

/// The two groups an AIF360-style gap compares, by group code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PrivilegedPair {
    /// Code of the unprivileged group (the first operand).
    pub unprivileged: usize,
    /// Code of the privileged group (the second operand).
    pub privileged: usize,
}

impl PrivilegedPair {
    fn check(self, gc: &GroupConfusion) -> Result<()> {
        gc.group(self.unprivileged)?;
        gc.group(self.privileged)?;
        if self.unprivileged == self.privileged {
            return Err(MetricError::InvalidParameter {
                name: "privileged pair",
                value: format!("{self:?}"),
                expected: "two different group codes",
            });
        }
        Ok(())
    }
}

/// Rate of both groups of the pair; `None` if either is skipped.
fn pair_rates(
    gc: &GroupConfusion,
    pair: PrivilegedPair,
    rate: Rate,
    zero_division: ZeroDivision,
) -> Result<Option<[f64; 2]>> {
    pair.check(gc)?;
    let r = |code: usize| gc.by_group()[code].rate_with(rate, zero_division, &gc.names()[code]);
    Ok(match (r(pair.unprivileged)?, r(pair.privileged)?) {
        (Some(u), Some(p)) => Some([u, p]),
        _ => None,
    })
}

/// `SR_u − SR_p` (AIF360 `statistical_parity_difference`). The selection rate is defined for
/// every non-empty group, so no policy is needed.
///
/// # Errors
/// [`MetricError::InvalidParameter`] for an unknown or repeated group code.
pub fn statistical_parity_difference(gc: &GroupConfusion, pair: PrivilegedPair) -> Result<f64> {
    let [u, p] = pair_rates(gc, pair, Rate::Selection, ZeroDivision::Error)?.ok_or(
        MetricError::UndefinedMetric {
            metric: "statistical parity difference",
            reason: "a selection rate is undefined",
        },
    )?;
    Ok(u - p)
}

/// `SR_u / SR_p` (AIF360 `disparate_impact`).
///
/// When `SR_p = 0`: the ratio is 1 if `SR_u = 0` too (equal rates); otherwise it is undefined and
/// follows `zero_division` with the rate named "disparate impact": `Error` fails, `Skip` returns
/// `None`, `Zero` returns 0 (AIF360's sklearn API `disparate_impact_ratio(zero_division=0)`).
///
/// # Errors
/// [`MetricError::InvalidParameter`] for a bad pair, [`MetricError::UndefinedRate`] as above.
pub fn disparate_impact(
    gc: &GroupConfusion,
    pair: PrivilegedPair,
    zero_division: ZeroDivision,
) -> Result<Option<f64>> {
    let [u, p] = pair_rates(gc, pair, Rate::Selection, ZeroDivision::Error)?.ok_or(
        MetricError::UndefinedMetric {
            metric: "disparate impact",
            reason: "a selection rate is undefined",
        },
    )?;
    if p > 0.0 {
        return Ok(Some(u / p));
    }
    if u <= 0.0 {
        return Ok(Some(1.0));
    }
    match zero_division {
        ZeroDivision::Error => Err(MetricError::UndefinedRate {
            rate: "disparate impact (privileged selection rate is 0)",
            group: gc.names()[pair.privileged].clone(),
        }),
        ZeroDivision::Skip => Ok(None),
        ZeroDivision::Zero => Ok(Some(0.0)),
    }
}

/// `TPR_u − TPR_p` (AIF360 `equal_opportunity_difference`); `None` when a TPR is skipped.
///
/// # Errors
/// [`MetricError::InvalidParameter`] for a bad pair, [`MetricError::UndefinedRate`] for a group
/// without positives under [`ZeroDivision::Error`].
pub fn equal_opportunity_difference(
    gc: &GroupConfusion,
    pair: PrivilegedPair,
    zero_division: ZeroDivision,
) -> Result<Option<f64>> {
    Ok(pair_rates(gc, pair, Rate::TruePositive, zero_division)?.map(|[u, p]| u - p))
}

/// `½[(FPR_u − FPR_p) + (TPR_u − TPR_p)]` (AIF360 `average_odds_difference`).
///
/// # Errors
/// As [`equal_opportunity_difference`], also for groups without negatives.
pub fn average_odds_difference(
    gc: &GroupConfusion,
    pair: PrivilegedPair,
    zero_division: ZeroDivision,
) -> Result<Option<f64>> {
    let tpr = pair_rates(gc, pair, Rate::TruePositive, zero_division)?;
    let fpr = pair_rates(gc, pair, Rate::FalsePositive, zero_division)?;
    Ok(tpr
        .zip(fpr)
        .map(|([tu, tp], [fu, fp])| 0.5 * ((fu - fp) + (tu - tp))))
}

/// `½[|FPR_u − FPR_p| + |TPR_u − TPR_p|]` (AIF360 `average_abs_odds_difference`).
///
/// # Errors
/// As [`average_odds_difference`].
pub fn average_abs_odds_difference(
    gc: &GroupConfusion,
    pair: PrivilegedPair,
    zero_division: ZeroDivision,
) -> Result<Option<f64>> {
    let tpr = pair_rates(gc, pair, Rate::TruePositive, zero_division)?;
    let fpr = pair_rates(gc, pair, Rate::FalsePositive, zero_division)?;
    Ok(tpr
        .zip(fpr)
        .map(|([tu, tp], [fu, fp])| 0.5 * ((fu - fp).abs() + (tu - tp).abs())))
}
