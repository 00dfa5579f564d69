//! Multi-class parity beyond fairlearn: FairProjection's MEO (eq. 117) and statistical parity
//! (eq. 118), from `fair_metrics::multiclass`.

use super::present_groups;
use crate::convert::{contiguous, i64_as_usize, to_py, weights_slice};
use crate::errors::{invalid, to_py_err};
use fair_metrics::ZeroDivision;
use fair_metrics::multiclass::{self, MulticlassGap};
use numpy::PyReadonlyArray1;
use pyo3::prelude::*;
use serde::Serialize;

/// Adds the multi-class functions to `fairkit._core.metrics`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(multiclass_gap, m)?)?;
    Ok(())
}

/// `kind = "meo"` (needs `y_true`) or `"sp"`, on class codes in `0..n_classes`.
/// `zero_division` (`"skip"`, `"zero"` or `"error"`) decides MEO terms whose rate is undefined.
#[pyfunction]
#[pyo3(signature = (kind, y_pred, n_classes, codes, names, y_true=None, sample_weight=None, zero_division="skip"))]
#[allow(clippy::too_many_arguments)] // mirrors the Python keyword arguments one to one
fn multiclass_gap<'py>(
    py: Python<'py>,
    kind: &str,
    y_pred: PyReadonlyArray1<'py, i64>,
    n_classes: usize,
    codes: PyReadonlyArray1<'py, i64>,
    names: Vec<String>,
    y_true: Option<PyReadonlyArray1<'py, i64>>,
    sample_weight: Option<PyReadonlyArray1<'py, f64>>,
    zero_division: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let zd = match zero_division {
        "skip" => ZeroDivision::Skip,
        "zero" => ZeroDivision::Zero,
        "error" => ZeroDivision::Error,
        other => {
            return Err(invalid(format!(
                "zero_division must be 'skip', 'zero' or 'error', got {other:?}"
            )));
        }
    };
    let pred = contiguous(y_pred.as_slice(), "y_pred")?;
    let truth = y_true
        .as_ref()
        .map(|y| contiguous(y.as_slice(), "y_true"))
        .transpose()?;
    let codes = contiguous(codes.as_slice(), "sensitive feature codes")?;
    let w = weights_slice(&sample_weight)?;
    let meo = match kind {
        "meo" => true,
        "sp" => false,
        other => {
            return Err(invalid(format!(
                "unknown multi-class gap {other:?}: expected 'meo' or 'sp'"
            )));
        }
    };
    if meo && truth.is_none() {
        return Err(invalid("y_true is required for multi-class equalized odds"));
    }
    let (gap, kept) = py
        .detach(|| {
            let (groups, kept) = present_groups(codes, names)?;
            let pred = i64_as_usize(pred);
            let gap = match truth.map(i64_as_usize) {
                Some(t) if meo => {
                    multiclass::multiclass_equalized_odds(&t, &pred, n_classes, &groups, w, zd)?
                }
                _ => multiclass::multiclass_statistical_parity(&pred, n_classes, &groups, w)?,
            };
            Ok::<_, fair_metrics::MetricError>((gap, kept))
        })
        .map_err(to_py_err)?;
    gap_dict(py, &gap, kept)
}

/// The dict of [`multiclass_gap`], in its key order.
#[derive(Serialize)]
struct MulticlassGapOut {
    /// Which metric this is.
    metric: &'static str,
    /// The max over classes and group pairs.
    value: f64,
    /// The class attaining `value`.
    class: usize,
    /// The pair of groups attaining `value`, as indices into `groups`.
    worst_pair: (usize, usize),
    /// Declared group indices that have rows.
    groups: Vec<usize>,
    /// Per class, the max over group pairs (a list of floats, NaN where every pair was skipped).
    per_class: Vec<f64>,
}

/// A [`MulticlassGap`] as a dict: `metric`, `value`, `class`, `worst_pair`, `groups`,
/// `per_class`.
fn gap_dict<'py>(
    py: Python<'py>,
    g: &MulticlassGap,
    kept: Vec<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    to_py(
        py,
        &MulticlassGapOut {
            metric: g.metric,
            value: g.value,
            class: g.class,
            worst_pair: (g.pair.first, g.pair.second),
            groups: kept,
            per_class: g.per_class.iter().map(|v| v.unwrap_or(f64::NAN)).collect(),
        },
    )
}
