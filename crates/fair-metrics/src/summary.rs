//! Per-group values of one metric and the gaps between them (fairlearn's `MetricFrame` view).

use crate::error::{MetricError, Result};

/// How a gap between groups is measured (fairlearn's `method` argument).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ParityMethod {
    /// Between groups: difference = max − min, ratio = min / max (fairlearn `"between_groups"`).
    #[default]
    BetweenGroups,
    /// Against the pooled value: difference = max_g |x_g − overall|, ratio = min_g
    /// min(x_g / overall, overall / x_g) (fairlearn `"to_overall"`).
    ToOverall,
}

/// One metric overall and per group, with the unsigned gaps fairlearn reports.
///
/// Groups whose value is `None` (skipped under [`ZeroDivision::Skip`](crate::ZeroDivision::Skip))
/// are left out of every gap. With one defined group, differences are 0 and ratios 1.
///
/// **Ratio with zeros.** fairlearn divides 0 by 0 and gets NaN when every group is at 0; here a
/// ratio of two zeros is 1 (the groups are equal, so there is no disparity), and `x / 0` with
/// `x > 0` (only possible in `ratio_to_overall`) gives 0. Ratios therefore always lie in `[0, 1]`.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupSummary {
    /// Which metric this is (e.g. "selection rate").
    pub metric: &'static str,
    /// Group names, indexed by group code.
    pub names: Vec<String>,
    /// The metric on all rows pooled (not the mean of the groups). Always defined when a
    /// summary exists: the pooled denominator is the sum of the group denominators.
    pub overall: f64,
    /// The metric per group; `None` when skipped because undefined.
    pub by_group: Vec<Option<f64>>,
    /// Smallest defined group value.
    pub group_min: f64,
    /// Largest defined group value.
    pub group_max: f64,
    /// `group_max − group_min` (fairlearn `difference()`).
    pub difference: f64,
    /// `group_min / group_max`, 1 when both are 0 (fairlearn `ratio()`).
    pub ratio: f64,
    /// `max_g |x_g − overall|` (fairlearn `difference(method="to_overall")`).
    pub difference_to_overall: f64,
    /// `min_g min(x_g / overall, overall / x_g)` (fairlearn `ratio(method="to_overall")`).
    pub ratio_to_overall: f64,
}

/// `a / b` for non-negative values, with the conventions documented on [`GroupSummary`].
fn safe_ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else if a > 0.0 {
        0.0
    } else {
        1.0
    }
}

impl GroupSummary {
    /// Builds a summary from an overall value and per-group values (`None` = skipped).
    ///
    /// Useful for metrics computed elsewhere; every value must be finite and `>= 0` (rates,
    /// accuracies, AUCs).
    ///
    /// # Errors
    /// [`MetricError::LengthMismatch`] when `names` and `by_group` differ in length,
    /// [`MetricError::InvalidParameter`] for a negative or non-finite value,
    /// [`MetricError::UndefinedMetric`] when every group is `None`.
    pub fn from_values(
        metric: &'static str,
        names: Vec<String>,
        overall: f64,
        by_group: Vec<Option<f64>>,
    ) -> Result<Self> {
        crate::validate::check_len("per-group values", names.len(), by_group.len())?;
        let bad = |v: f64| !(v.is_finite() && v >= 0.0);
        if let Some(v) = std::iter::once(overall)
            .chain(by_group.iter().flatten().copied())
            .find(|&v| bad(v))
        {
            return Err(MetricError::InvalidParameter {
                name: "metric value",
                value: v.to_string(),
                expected: "a finite value >= 0",
            });
        }
        let defined = || by_group.iter().flatten().copied();
        let Some(first) = defined().next() else {
            return Err(MetricError::UndefinedMetric {
                metric,
                reason: "no group has a defined value (all were skipped); use another ZeroDivision policy or other groups",
            });
        };
        let (group_min, group_max) =
            defined().fold((first, first), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let difference_to_overall = defined().map(|v| (v - overall).abs()).fold(0.0, f64::max);
        let ratio_to_overall = defined()
            .map(|v| safe_ratio(v, overall).min(safe_ratio(overall, v)))
            .fold(1.0, f64::min);
        Ok(Self {
            metric,
            names,
            overall,
            by_group,
            group_min,
            group_max,
            difference: group_max - group_min,
            ratio: safe_ratio(group_min, group_max),
            difference_to_overall,
            ratio_to_overall,
        })
    }

    /// The difference under `method` (fairlearn `difference(method=...)`).
    pub fn difference_by(&self, method: ParityMethod) -> f64 {
        match method {
            ParityMethod::BetweenGroups => self.difference,
            ParityMethod::ToOverall => self.difference_to_overall,
        }
    }

    /// The ratio under `method` (fairlearn `ratio(method=...)`).
    pub fn ratio_by(&self, method: ParityMethod) -> f64 {
        match method {
            ParityMethod::BetweenGroups => self.ratio,
            ParityMethod::ToOverall => self.ratio_to_overall,
        }
    }
}
