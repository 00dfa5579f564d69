//! The part of report.json a regression audit writes (`regression`, absent otherwise): per slice,
//! each group's metrics of the numeric prediction with their intervals, the gaps between groups
//! with intervals and p-values, and the distances between the groups' prediction distributions.

use super::{Gap, UndefinedGroup};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A value with its interval; `value` is null where the quantity is undefined and the ends
/// are null where it has no interval (R², and any value without spread information).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    /// The value on the data.
    pub value: Option<f64>,
    /// Lower end of its interval.
    pub lower: Option<f64>,
    /// Upper end of its interval.
    pub upper: Option<f64>,
}

/// One group's (or all rows') regression metrics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RegressionGroup {
    /// Group name ("all" for the pooled rows).
    pub group: String,
    /// Rows (unweighted).
    pub rows: u64,
    /// Sum of the weights (the rows without weights).
    pub weight: f64,
    /// Kish's effective sample size, the intervals' `n`.
    pub effective_n: f64,
    /// Whether the group has fewer rows than the minimum group size (kept out of the gaps).
    pub small: bool,
    /// `mean_target`, `mean_prediction`, `mean_residual` (prediction − target),
    /// `mean_absolute_error`, `mean_squared_error`, `root_mean_squared_error`, `r2_score`, and
    /// `scoring_rate` (the share above the pooled median), each with its interval.
    pub metrics: BTreeMap<String, Measured>,
    /// The prediction's quantile at `regression.quantile` (the median by default).
    pub prediction_quantile: Option<f64>,
    /// Wasserstein-1 distance between the group's predictions and all rows'.
    pub wasserstein_to_overall: Option<f64>,
    /// Kolmogorov–Smirnov distance between the group's predictions and all rows'.
    pub ks_to_overall: Option<f64>,
}

/// The largest group loss (fairlearn's `BoundedGroupLoss` quantity) and its group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupLoss {
    /// The group.
    pub group: String,
    /// Its loss.
    pub value: f64,
}

/// One pair of groups' distance between their prediction distributions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairDistance {
    /// The two groups.
    pub groups: [String; 2],
    /// Wasserstein-1 distance (in the prediction's unit).
    pub wasserstein: f64,
    /// Kolmogorov–Smirnov distance (the largest difference of the shares above any cut).
    pub ks: f64,
}

/// A regression audit of one slice (a sensitive column or the intersection).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RegressionSlice {
    /// "race", or "race & sex" for the intersection.
    pub slice: String,
    /// The columns it is made of.
    pub attributes: Vec<String>,
    /// Per group, sorted by name.
    pub groups: Vec<RegressionGroup>,
    /// The gaps: mean prediction, mean residual, MAE, RMSE, R², scoring rate (differences and
    /// ratios), and the largest Wasserstein-1 and KS distances between two groups.
    pub gaps: Vec<Gap>,
    /// Every pair of groups taking part in the gaps.
    pub pairs: Vec<PairDistance>,
    /// The largest group mean absolute error.
    pub largest_group_mae: Option<GroupLoss>,
    /// The largest group mean squared error.
    pub largest_group_mse: Option<GroupLoss>,
    /// Groups kept out of the gaps for having fewer rows than the minimum group size. Absent
    /// from the JSON when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub small_groups: Vec<UndefinedGroup>,
}

/// The downsampled ECDF of each group's predictions, for the report's chart.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RegressionCharts {
    /// Per slice, per group: `(prediction, share at or below it)`, ascending.
    pub ecdf: Vec<Vec<Vec<(f64, f64)>>>,
}

/// The regression audit (report.json's `regression`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RegressionAudit {
    /// The target column.
    pub target: String,
    /// The prediction column.
    pub prediction: String,
    /// The level of each group's `prediction_quantile`.
    pub quantile: f64,
    /// The prediction's quantile on all rows.
    pub pooled_quantile: f64,
    /// The prediction's median on all rows: the scoring rate's cut (NYC Local Law 144).
    pub pooled_median: f64,
    /// How the intervals and p-values are computed.
    pub inference_method: String,
    /// All rows.
    pub overall: RegressionGroup,
    /// One entry per sensitive column and, with two or more, their intersection.
    pub slices: Vec<RegressionSlice>,
}
