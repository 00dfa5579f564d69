//! Confidence intervals for every rate and gap, from `fair_metrics::ci` on a
//! `fair_metrics::state::ConfusionState` built from the rows.
//!
//! Rates: Wilson score (default) or Clopper-Pearson, Kish effective n with weights. Gaps: a
//! seeded stratified bootstrap percentile interval and a seeded permutation p-value; the
//! methods are documented in the crate (`fair_metrics::ci`).

use super::rate_by_name;
use crate::convert::{BinaryArray, contiguous, i64_as_usize, to_py, weights_slice};
use crate::errors::{invalid, to_py_err};
use fair_data::Groups;
use fair_metrics::ci::{self, GapKind, GapMetric, GapSettings, GroupRateInterval, RateCiMethod};
use fair_metrics::state::ConfusionState;
use fair_metrics::{MetricError, ParityMethod};
use numpy::PyReadonlyArray1;
use pyo3::prelude::*;
use serde::Serialize;

/// Adds the interval functions to `fairkit._core.metrics`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(rate_intervals, m)?)?;
    m.add_function(wrap_pyfunction!(gap_inference, m)?)?;
    Ok(())
}

/// One pass over the rows into a mergeable state (groups keyed by `names`, which must be
/// distinct; groups without rows are simply absent).
fn state_of(
    y_true: &[usize],
    y_pred: &[usize],
    codes: &[i64],
    names: Vec<String>,
    weights: Option<&[f64]>,
) -> Result<ConfusionState, MetricError> {
    let groups = Groups::new(i64_as_usize(codes).into_owned(), names)?;
    let mut state = ConfusionState::new();
    state.update(y_true, y_pred, &groups, weights)?;
    Ok(state)
}

fn group_tuple(g: &GroupRateInterval) -> GroupRow {
    (
        g.group.clone(),
        g.estimate,
        g.interval.map(|i| i.lower),
        g.interval.map(|i| i.upper),
        g.effective_n,
    )
}

/// Per-group and overall `rate` with confidence intervals. `method` = `"wilson"` or
/// `"clopper-pearson"`. Returns a dict: `method`, `confidence`, `groups` (list of
/// `(name, estimate, lower, upper, effective_n)`, names sorted, undefined rates None) and
/// `overall` (one such tuple).
#[pyfunction]
#[pyo3(signature = (y_true, y_pred, codes, names, rate, sample_weight=None, confidence=0.95, method="wilson"))]
#[allow(clippy::too_many_arguments)] // mirrors the Python keyword arguments one to one
fn rate_intervals<'py>(
    py: Python<'py>,
    y_true: BinaryArray<'py>,
    y_pred: BinaryArray<'py>,
    codes: PyReadonlyArray1<'py, i64>,
    names: Vec<String>,
    rate: &str,
    sample_weight: Option<PyReadonlyArray1<'py, f64>>,
    confidence: f64,
    method: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let rate = rate_by_name(rate)?;
    let ci_method = ci_method_by_name("interval method", method)?;
    let (yt, yp) = (y_true.slice("y_true")?, y_pred.slice("y_pred")?);
    let codes = contiguous(codes.as_slice(), "sensitive feature codes")?;
    let w = weights_slice(&sample_weight)?;
    let r = py
        .detach(|| {
            let state = state_of(&yt.to_usize(), &yp.to_usize(), codes, names, w)?;
            ci::rate_intervals(&state, rate, confidence, ci_method)
        })
        .map_err(to_py_err)?;
    to_py(
        py,
        &RateIntervalsOut {
            method: r.method.name(),
            confidence: r.confidence,
            groups: r.groups.iter().map(group_tuple).collect(),
            overall: group_tuple(&r.overall),
        },
    )
}

/// The gap of `metric` (a rate name or `"equalized_odds"`) across groups with a seeded
/// bootstrap interval and permutation p-value. `kind` = `"difference"` or `"ratio"`, `method` =
/// `"between_groups"` or `"to_overall"`. Returns a dict with `estimate`, `lower`, `upper`,
/// `p_value`, `n_resamples`, `n_permutations`, `seed`, `approximate`.
#[pyfunction]
#[pyo3(signature = (y_true, y_pred, codes, names, metric, kind="difference", method="between_groups", sample_weight=None, confidence=0.95, n_resamples=2000, seed=0))]
#[allow(clippy::too_many_arguments)] // mirrors the Python keyword arguments one to one
fn gap_inference<'py>(
    py: Python<'py>,
    y_true: BinaryArray<'py>,
    y_pred: BinaryArray<'py>,
    codes: PyReadonlyArray1<'py, i64>,
    names: Vec<String>,
    metric: &str,
    kind: &str,
    method: &str,
    sample_weight: Option<PyReadonlyArray1<'py, f64>>,
    confidence: f64,
    n_resamples: usize,
    seed: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let metric = match metric {
        "equalized_odds" => GapMetric::EqualizedOdds,
        rate => GapMetric::Rate(rate_by_name(rate)?),
    };
    let kind = match kind {
        "difference" => GapKind::Difference,
        "ratio" => GapKind::Ratio,
        other => {
            return Err(invalid(format!(
                "kind must be 'difference' or 'ratio', got {other:?}"
            )));
        }
    };
    let method = match method {
        "between_groups" => ParityMethod::BetweenGroups,
        "to_overall" => ParityMethod::ToOverall,
        other => {
            return Err(invalid(format!(
                "Unrecognised comparison method: {other:?}; expected 'between_groups' or 'to_overall'"
            )));
        }
    };
    let settings = GapSettings {
        kind,
        method,
        confidence,
        n_resamples,
        seed,
    };
    let (yt, yp) = (y_true.slice("y_true")?, y_pred.slice("y_pred")?);
    let codes = contiguous(codes.as_slice(), "sensitive feature codes")?;
    let w = weights_slice(&sample_weight)?;
    let g = py
        .detach(|| {
            let state = state_of(&yt.to_usize(), &yp.to_usize(), codes, names, w)?;
            ci::gap_inference(&state, metric, &settings)
        })
        .map_err(to_py_err)?;
    to_py(
        py,
        &GapInferenceOut {
            estimate: g.estimate,
            lower: g.interval.lower,
            upper: g.interval.upper,
            p_value: g.p_value,
            n_resamples: g.n_resamples,
            n_permutations: g.n_permutations,
            seed: g.seed,
            approximate: g.approximate,
        },
    )
}

/// The interval method named `name` in Python (`"wilson"` or `"clopper-pearson"`); `param` is
/// the argument's name in the error message.
pub fn ci_method_by_name(param: &str, name: &str) -> PyResult<RateCiMethod> {
    name.parse().map_err(|_| {
        invalid(format!(
            "{param} must be 'wilson' or 'clopper-pearson', got {name:?}"
        ))
    })
}

/// One group's row of `rate_intervals`: `(name, estimate, lower, upper, effective_n)`, a
/// Python tuple (serde tuples cross as tuples).
type GroupRow = (String, Option<f64>, Option<f64>, Option<f64>, f64);

/// `rate_intervals`' dict as Python sees it (keys in this order), converted by
/// [`to_py`](crate::convert::to_py).
#[derive(Serialize)]
struct RateIntervalsOut {
    method: &'static str,
    confidence: f64,
    groups: Vec<GroupRow>,
    overall: GroupRow,
}

/// `gap_inference`'s dict as Python sees it (keys in this order), converted by
/// [`to_py`](crate::convert::to_py).
#[derive(Serialize)]
struct GapInferenceOut {
    estimate: f64,
    lower: f64,
    upper: f64,
    p_value: f64,
    n_resamples: usize,
    n_permutations: usize,
    seed: u64,
    approximate: bool,
}
