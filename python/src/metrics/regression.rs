//! `fairkit._core.metrics.regression_summary`: per-group regression metrics and their gaps
//! ([`fair_metrics::regression`]), for `fairkit.metrics.regression_metrics`.

use crate::convert::{contiguous, to_py, weights_slice};
use crate::errors::{invalid, to_py_err};
use fair_metrics::ci::{Interval, RegressionBootstrap, RegressionIntervals, regression_intervals};
use fair_metrics::distribution::{GroupQuantiles, distribution_summary};
use fair_metrics::regression::{RegressionMetric, RegressionState, RegressionValues};
use numpy::PyReadonlyArray1;
use pyo3::prelude::*;
use serde::Serialize;

/// Adds `regression_summary` to `fairkit._core.metrics`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(regression_summary, m)?)
}

/// One group's metrics as Python sees them (keys in this order; undefined values `None`).
#[derive(Serialize)]
struct Values {
    count: u64,
    weight: f64,
    mean_target: Option<f64>,
    mean_prediction: Option<f64>,
    mean_residual: Option<f64>,
    mean_absolute_error: Option<f64>,
    mean_squared_error: Option<f64>,
    root_mean_squared_error: Option<f64>,
    r2_score: Option<f64>,
}

impl From<RegressionValues> for Values {
    fn from(v: RegressionValues) -> Self {
        Self {
            count: v.count,
            weight: v.weight,
            mean_target: v.mean_target,
            mean_prediction: v.mean_prediction,
            mean_residual: v.mean_residual,
            mean_absolute_error: v.mean_absolute_error,
            mean_squared_error: v.mean_squared_error,
            root_mean_squared_error: v.root_mean_squared_error,
            r2_score: v.r2,
        }
    }
}

/// The gaps of one metric.
#[derive(Serialize)]
struct Gap {
    group_min: f64,
    group_max: f64,
    difference: f64,
    ratio: Option<f64>,
    difference_to_overall: Option<f64>,
    ratio_to_overall: Option<f64>,
}

#[derive(Serialize)]
struct Summary {
    names: Vec<String>,
    by_group: Vec<Values>,
    overall: Values,
    /// Per metric name, its gaps (`None` when no group has a defined value).
    gaps: Vec<(String, Option<Gap>)>,
    /// The predictions' distributions: pairwise W1 and KS (groups × groups, NaN for a group
    /// without weight) and each group against all rows.
    wasserstein: Vec<Vec<f64>>,
    ks: Vec<Vec<f64>>,
    wasserstein_to_pooled: Vec<f64>,
    ks_to_pooled: Vec<f64>,
    /// The prediction's quantile per group and pooled, the pooled median and the LL144
    /// scoring rates.
    quantile: Quantiles,
    /// Bootstrap intervals (`None` without resamples).
    intervals: Option<Intervals>,
}

/// `[lower, upper]` or `None`, per metric.
type Row = Vec<Option<[f64; 2]>>;

#[derive(Serialize)]
struct Intervals {
    by_group: Vec<Row>,
    overall: Row,
    difference: Row,
    ratio: Row,
}

impl From<RegressionIntervals> for Intervals {
    fn from(i: RegressionIntervals) -> Self {
        let row = |r: Vec<Option<Interval>>| -> Row {
            r.into_iter()
                .map(|v| v.map(|v| [v.lower, v.upper]))
                .collect()
        };
        Self {
            by_group: i.by_group.into_iter().map(row).collect(),
            overall: row(i.overall),
            difference: row(i.difference),
            ratio: row(i.ratio),
        }
    }
}

#[derive(Serialize)]
struct Quantiles {
    q: f64,
    by_group: Vec<Option<f64>>,
    pooled: f64,
    pooled_median: f64,
    scoring_rate: Vec<Option<f64>>,
}

impl From<GroupQuantiles> for Quantiles {
    fn from(g: GroupQuantiles) -> Self {
        Self {
            q: g.q,
            by_group: g.by_group,
            pooled: g.pooled,
            pooled_median: g.pooled_median,
            scoring_rate: g.scoring_rate,
        }
    }
}

/// Per-group regression metrics of `y_true`/`y_pred` over groups `codes` (indices into
/// `names`), optionally weighted, with the `quantile` of the predictions; with the GIL
/// released.
#[pyfunction]
#[pyo3(signature = (
    y_true, y_pred, codes, names, sample_weight=None, quantile=0.5, n_resamples=0,
    confidence=0.95, seed=0
))]
#[allow(clippy::too_many_arguments)] // mirrors the Python keyword arguments one to one
fn regression_summary<'py>(
    py: Python<'py>,
    y_true: PyReadonlyArray1<'_, f64>,
    y_pred: PyReadonlyArray1<'_, f64>,
    codes: PyReadonlyArray1<'_, i64>,
    names: Vec<String>,
    sample_weight: Option<PyReadonlyArray1<'_, f64>>,
    quantile: f64,
    n_resamples: usize,
    confidence: f64,
    seed: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let y = contiguous(y_true.as_slice(), "y_true")?;
    let p = contiguous(y_pred.as_slice(), "y_pred")?;
    let c = contiguous(codes.as_slice(), "sensitive_features")?;
    let w = weights_slice(&sample_weight)?;
    if let Some(bad) = c.iter().find(|&&k| k < 0 || k as usize >= names.len()) {
        return Err(invalid(format!(
            "sensitive feature code {bad} is outside the {} group names",
            names.len()
        )));
    }
    let (summary, distances, quantiles, intervals) = py
        .detach(|| {
            let codes: Vec<usize> = c.iter().map(|&k| k as usize).collect();
            let mut state = RegressionState::new();
            state.update_coded(y, p, &codes, &names, w)?;
            let summary = state.summary()?;
            let (distances, quantiles) = distribution_summary(p, &codes, names.len(), w, quantile)?;
            let intervals = (n_resamples > 0)
                .then(|| {
                    let settings = RegressionBootstrap {
                        n_resamples,
                        confidence,
                        seed,
                    };
                    regression_intervals(y, p, &codes, names.len(), w, settings)
                })
                .transpose()?;
            Ok::<_, fair_metrics::MetricError>((summary, distances, quantiles, intervals))
        })
        .map_err(to_py_err)?;
    if summary.names != names {
        return Err(invalid(
            "sensitive feature names must be distinct and sorted (as numpy.unique gives them)",
        ));
    }
    let gaps = RegressionMetric::ALL
        .into_iter()
        .map(|m| {
            let gap = summary.gap(m).ok().map(|g| Gap {
                group_min: g.group_min,
                group_max: g.group_max,
                difference: g.difference,
                ratio: g.ratio,
                difference_to_overall: g.difference_to_overall,
                ratio_to_overall: g.ratio_to_overall,
            });
            (m.name().to_string(), gap)
        })
        .collect();
    to_py(
        py,
        &Summary {
            names: summary.names,
            by_group: summary.by_group.into_iter().map(Values::from).collect(),
            overall: summary.overall.into(),
            gaps,
            wasserstein: distances.wasserstein,
            ks: distances.ks,
            wasserstein_to_pooled: distances.wasserstein_to_pooled,
            ks_to_pooled: distances.ks_to_pooled,
            quantile: quantiles.into(),
            intervals: intervals.map(Intervals::from),
        },
    )
}
