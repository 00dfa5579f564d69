//! Score-based metrics beyond fairlearn: exact KS (DP-Δ, EO-Δ), partial parity on a
//! percentile interval (IDCA), and ROC AUC per group. All from `fair_metrics`.

use super::{FairlearnSummary, pairwise_dict, present_groups};
use crate::convert::{BinaryArray, contiguous, to_py, weights_slice};
use crate::errors::{invalid, to_py_err};
use fair_metrics::partial::{self, PercentileInterval};
use fair_metrics::{MetricError, ZeroDivision, ks, roc};
use numpy::PyReadonlyArray1;
use pyo3::prelude::*;

/// Adds the score-based functions to `fairkit._core.metrics`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ks_gap, m)?)?;
    m.add_function(wrap_pyfunction!(partial_gap, m)?)?;
    m.add_function(wrap_pyfunction!(auc_by_group, m)?)?;
    Ok(())
}

/// Exact all-threshold KS distance between every pair of groups' score distributions
/// (`y_true` given: among the positives only, EO-Δ).
#[pyfunction]
#[pyo3(signature = (y_score, codes, names, y_true=None, sample_weight=None))]
fn ks_gap<'py>(
    py: Python<'py>,
    y_score: PyReadonlyArray1<'py, f64>,
    codes: PyReadonlyArray1<'py, i64>,
    names: Vec<String>,
    y_true: Option<BinaryArray<'py>>,
    sample_weight: Option<PyReadonlyArray1<'py, f64>>,
) -> PyResult<Bound<'py, PyAny>> {
    let scores = contiguous(y_score.as_slice(), "y_score")?;
    let codes = contiguous(codes.as_slice(), "sensitive feature codes")?;
    let w = weights_slice(&sample_weight)?;
    let labels = y_true.as_ref().map(|y| y.slice("y_true")).transpose()?;
    let (summary, kept) = py
        .detach(|| {
            let (groups, kept) = present_groups(codes, names)?;
            let s = match labels.map(|l| l.to_usize()) {
                None => ks::ks_statistic(scores, &groups, w)?,
                Some(l) => ks::equal_opportunity_ks(&l, scores, &groups, w)?,
            };
            Ok::<_, MetricError>((s, kept))
        })
        .map_err(to_py_err)?;
    pairwise_dict(py, &summary, kept)
}

/// Partial parity on the percentile interval `[alpha, beta)`: `kind` = `"sp"` (pSP, all
/// thresholds), `"dp"` (pDP at `threshold`) or `"eop"` (partial equal opportunity at
/// `threshold`, needs `y_true`).
#[pyfunction]
#[pyo3(signature = (kind, y_score, codes, names, alpha, beta, threshold=None, y_true=None, sample_weight=None))]
#[allow(clippy::too_many_arguments)] // mirrors the Python keyword arguments one to one
fn partial_gap<'py>(
    py: Python<'py>,
    kind: &str,
    y_score: PyReadonlyArray1<'py, f64>,
    codes: PyReadonlyArray1<'py, i64>,
    names: Vec<String>,
    alpha: f64,
    beta: f64,
    threshold: Option<f64>,
    y_true: Option<BinaryArray<'py>>,
    sample_weight: Option<PyReadonlyArray1<'py, f64>>,
) -> PyResult<Bound<'py, PyAny>> {
    let scores = contiguous(y_score.as_slice(), "y_score")?;
    let codes = contiguous(codes.as_slice(), "sensitive feature codes")?;
    let w = weights_slice(&sample_weight)?;
    let labels = y_true.as_ref().map(|y| y.slice("y_true")).transpose()?;
    let interval = PercentileInterval::new(alpha, beta).map_err(to_py_err)?;
    let op = match (kind, threshold) {
        ("sp", _) => Partial::Statistical,
        ("dp", Some(t)) => Partial::Demographic(t),
        ("eop", Some(t)) => Partial::EqualOpportunity(t),
        ("dp" | "eop", None) => {
            return Err(invalid(format!("threshold is required for kind={kind:?}")));
        }
        (other, _) => {
            return Err(invalid(format!(
                "unknown partial parity kind {other:?}: expected 'sp', 'dp' or 'eop'"
            )));
        }
    };
    let (summary, kept) = py
        .detach(|| {
            let (groups, kept) = present_groups(codes, names)?;
            let s = match op {
                Partial::Statistical => {
                    partial::partial_statistical_parity(scores, &groups, w, interval)?
                }
                Partial::Demographic(t) => {
                    partial::partial_demographic_parity(scores, &groups, w, interval, t)?
                }
                Partial::EqualOpportunity(t) => {
                    let Some(l) = labels.map(|l| l.to_usize()) else {
                        return Err(MetricError::InvalidParameter {
                            name: "y_true",
                            value: "None".into(),
                            expected: "labels (partial equal opportunity compares positives)",
                        });
                    };
                    partial::partial_equal_opportunity(&l, scores, &groups, w, interval, t)?
                }
            };
            Ok((s, kept))
        })
        .map_err(to_py_err)?;
    pairwise_dict(py, &summary, kept)
}

/// Which partial parity quantity [`partial_gap`] computes.
#[derive(Clone, Copy)]
enum Partial {
    Statistical,
    Demographic(f64),
    EqualOpportunity(f64),
}

/// ROC AUC overall and per group (a group lacking positives or negatives is NaN), with its
/// gaps, as the dict of [`super::GroupRates::summary`].
#[pyfunction]
#[pyo3(signature = (y_true, y_score, codes, names, sample_weight=None))]
fn auc_by_group<'py>(
    py: Python<'py>,
    y_true: BinaryArray<'py>,
    y_score: PyReadonlyArray1<'py, f64>,
    codes: PyReadonlyArray1<'py, i64>,
    names: Vec<String>,
    sample_weight: Option<PyReadonlyArray1<'py, f64>>,
) -> PyResult<Bound<'py, PyAny>> {
    let labels = y_true.slice("y_true")?;
    let scores = contiguous(y_score.as_slice(), "y_score")?;
    let codes = contiguous(codes.as_slice(), "sensitive feature codes")?;
    let w = weights_slice(&sample_weight)?;
    let n_declared = names.len();
    let (s, kept) = py
        .detach(|| {
            let (groups, kept) = present_groups(codes, names)?;
            let s = roc::auc_by_group(&labels.to_usize(), scores, &groups, w, ZeroDivision::Skip)?;
            Ok::<_, MetricError>((s, kept))
        })
        .map_err(to_py_err)?;
    let mut by_group = vec![f64::NAN; n_declared];
    for (k, &g) in kept.iter().enumerate() {
        by_group[g] = s.by_group[k].unwrap_or(f64::NAN);
    }
    to_py(
        py,
        &FairlearnSummary {
            overall: s.overall,
            by_group,
            group_min: s.group_min,
            group_max: s.group_max,
            difference: s.difference,
            difference_to_overall: s.difference_to_overall,
            ratio: s.ratio,
            ratio_to_overall: s.ratio_to_overall,
        },
    )
}
