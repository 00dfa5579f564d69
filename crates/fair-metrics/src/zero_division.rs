//! What to do when a rate's denominator is zero for a group.

use crate::error::{MetricError, Result};

/// Policy for a rate whose denominator has zero weight in a group (e.g. the true positive rate of
/// a group without positives, or precision of a group with no positive predictions).
///
/// Peers disagree here: sklearn/fairlearn's base rates return 0 (via
/// `confusion_matrix(normalize="true")`), AIF360 returns NaN, fairlearn's `MetricFrame` then
/// skips NaN groups in `difference`/`ratio`. The default is to refuse, because a silent 0 can turn
/// a group that was never measured into the "worst" group.
///
/// This policy is only about zero *denominators*. A declared group with no rows at all (or zero
/// total weight) is always [`MetricError::EmptyGroup`]: call `Groups::compact()` to drop it.
///
/// # Examples
/// ```
/// use fair_data::Groups;
/// use fair_metrics::{GroupConfusion, Rate, ZeroDivision};
/// // Group "b" has no positive labels, so its TPR is 0/0.
/// let groups = Groups::from_labels(&["a", "a", "b", "b"]);
/// let gc = GroupConfusion::new(&[1, 0, 0, 0], &[1, 0, 1, 0], &groups, None)?;
/// assert!(gc.summary(Rate::TruePositive, ZeroDivision::Error).is_err());
/// let skip = gc.summary(Rate::TruePositive, ZeroDivision::Skip)?;
/// assert_eq!(skip.by_group, vec![Some(1.0), None]);
/// let zero = gc.summary(Rate::TruePositive, ZeroDivision::Zero)?;
/// assert_eq!(zero.by_group, vec![Some(1.0), Some(0.0)]);
/// # Ok::<(), fair_metrics::MetricError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ZeroDivision {
    /// Return [`MetricError::UndefinedRate`] naming the rate and the group (the default).
    #[default]
    Error,
    /// The group's rate is `None` and the group is left out of min/max/difference/ratio
    /// (fairlearn `MetricFrame` skipping NaN). If every group is skipped the metric is
    /// [`MetricError::UndefinedMetric`].
    Skip,
    /// The rate is 0 (sklearn/fairlearn convention, e.g. TPR = 0 for a group with no positives).
    Zero,
}

impl ZeroDivision {
    /// Resolves `numerator / denominator` for `rate` in `group` under this policy.
    ///
    /// Returns `Ok(Some(rate))` when the denominator is positive, otherwise follows the policy.
    pub(crate) fn resolve(
        self,
        rate: &'static str,
        group: &str,
        numerator: f64,
        denominator: f64,
    ) -> Result<Option<f64>> {
        if denominator > 0.0 {
            // Clamp guards against a numerator that exceeds its denominator by rounding when the
            // two were summed in different orders (rates must stay in [0, 1]).
            return Ok(Some((numerator / denominator).clamp(0.0, 1.0)));
        }
        match self {
            ZeroDivision::Error => Err(MetricError::UndefinedRate {
                rate,
                group: group.to_string(),
            }),
            ZeroDivision::Skip => Ok(None),
            ZeroDivision::Zero => Ok(Some(0.0)),
        }
    }
}
