//! `fairkit._core.estimators`: the partial-parity classifier (crate `dc-opt`, IDCA).
//!
//! Trains the paper's linear cross-term model `h_w(ξ) = ⟨w, (1, ξ, γ, γξ)⟩` (γ = group code + 1)
//! under partial statistical parity (model (15)) or partial demographic parity / equal
//! opportunity / equalized odds (model (21) and its variants) on a percentile interval, by the
//! inexact DCA. The fit runs with the GIL released; an observer re-acquires it after every
//! outer iteration to check for Ctrl-C.

use crate::convert::{contiguous, i64_as_usize, parse_param, to_py};
use crate::errors::{invalid, to_py_err};
use crate::estimators::signals::SignalCheck;
use dc_opt::{CrossModel, DcOptError, IterInfo, PartialParity, PartialParityValidParams};
use fair_data::Groups;
use nalgebra::DMatrix;
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use serde::Serialize;
use std::ops::ControlFlow;

/// Adds the partial-parity binding to `fairkit._core.estimators`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(partial_parity_fit, m)?)?;
    m.add_function(wrap_pyfunction!(partial_parity_scores, m)?)?;
    m.add_function(wrap_pyfunction!(partial_parity_to_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(partial_parity_from_bytes, m)?)?;
    Ok(())
}

/// Dense rows (N × d row-major) and group codes as the crate's types.
fn inputs(
    x: &[f64],
    d: usize,
    codes: &[i64],
    names: Vec<String>,
) -> Result<(DMatrix<f64>, Groups), DcOptError> {
    let n = x.len().checked_div(d).unwrap_or(0);
    let groups = Groups::new(i64_as_usize(codes).into_owned(), names)?;
    Ok((DMatrix::from_row_slice(n, d, x), groups))
}

/// Fits the crate's estimator on dense rows `x` (N × d row-major), 0/1 labels and group codes.
///
/// # Errors
/// The crate's (invalid data, numerical breakdown).
pub fn fit_buffers(
    x: &[f64],
    d: usize,
    y: &[usize],
    codes: &[i64],
    names: Vec<String>,
    params: &PartialParityValidParams,
    observer: &mut dyn FnMut(&IterInfo) -> ControlFlow<()>,
) -> Result<PartialParity, DcOptError> {
    let (x, groups) = inputs(x, d, codes, names)?;
    // A closure is an observer (`fair_core::Observe`).
    params.fit_with_observer(&x, y, &groups, observer)
}

/// Scores `⟨w, (1, ξ, γ, γξ)⟩` of dense rows with group codes.
///
/// # Errors
/// The crate's (length mismatch, non-finite weights).
pub fn scores_buffers(
    w: &[f64],
    x: &[f64],
    d: usize,
    codes: &[i64],
    names: Vec<String>,
) -> Result<Vec<f64>, DcOptError> {
    let (x, groups) = inputs(x, d, codes, names)?;
    dc_opt::cross_scores(w, &dc_opt::SparseRows::from_dense(&x)?, &groups)
}

fn matrix<'a>(x: &'a PyReadonlyArray2<'_, f64>) -> PyResult<(&'a [f64], usize, usize)> {
    let shape = x.shape();
    Ok((contiguous(x.as_slice(), "X")?, shape[0], shape[1]))
}

/// Fits; returns `(weights, info dict)`. `y` holds 0/1 class codes.
#[pyfunction]
#[pyo3(signature = (
    x, y, group_codes, group_names, *, constraint, interval, kappa, grid_size, threshold,
    surrogate, outer_iters, inner_iters, eps
))]
#[allow(clippy::too_many_arguments)]
fn partial_parity_fit<'py>(
    py: Python<'py>,
    x: PyReadonlyArray2<'_, f64>,
    y: PyReadonlyArray1<'_, i64>,
    group_codes: PyReadonlyArray1<'_, i64>,
    group_names: Vec<String>,
    constraint: String,
    interval: (f64, f64),
    kappa: f64,
    grid_size: usize,
    threshold: f64,
    surrogate: String,
    outer_iters: usize,
    inner_iters: usize,
    eps: f64,
) -> PyResult<(Bound<'py, PyArray1<f64>>, Bound<'py, PyAny>)> {
    let params = PartialParity::params()
        .constraint(parse_param("constraint", &constraint)?)
        .interval(interval.0, interval.1)
        .kappa(kappa)
        .grid_size(grid_size)
        .threshold(threshold)
        .surrogate(parse_param("surrogate", &surrogate)?)
        .max_iter(outer_iters)
        .max_inner_iter(inner_iters)
        .eps(eps)
        .check()
        .map_err(to_py_err)?;
    let (xs, n, d) = matrix(&x)?;
    let ys = contiguous(y.as_slice(), "y")?;
    let codes = contiguous(group_codes.as_slice(), "sensitive feature codes")?;
    for (len, what) in [(ys.len(), "y"), (codes.len(), "sensitive_features")] {
        if len != n {
            return Err(invalid(format!(
                "length mismatch for {what}: expected {n} rows (as X), got {len}"
            )));
        }
    }
    let mut signals = SignalCheck::default();
    let result = py.detach(|| {
        let y = i64_as_usize(ys);
        let mut check = |_: &IterInfo| signals.poll();
        fit_buffers(xs, d, &y, codes, group_names, &params, &mut check)
    });
    let fit = signals.or(result)?.map_err(to_py_err)?;
    let report = fit.report();
    let info = to_py(
        py,
        &FitInfo {
            summary: report.to_string(),
            iterations: report.iterations,
            objective: report.objective,
            max_violation: report.max_violation,
        },
    )?;
    Ok((fit.weights().to_vec().into_pyarray(py), info))
}

/// Scores of rows under fitted weights.
#[pyfunction]
fn partial_parity_scores<'py>(
    py: Python<'py>,
    w: PyReadonlyArray1<'_, f64>,
    x: PyReadonlyArray2<'_, f64>,
    group_codes: PyReadonlyArray1<'_, i64>,
    group_names: Vec<String>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let (xs, _, d) = matrix(&x)?;
    let ws = contiguous(w.as_slice(), "weights")?;
    let codes = contiguous(group_codes.as_slice(), "sensitive feature codes")?;
    let out = py
        .detach(|| scores_buffers(ws, xs, d, codes, group_names))
        .map_err(to_py_err)?;
    Ok(out.into_pyarray(py))
}

/// The crate's versioned bytes of a fitted cross-term model (`dc_opt::CrossModel`): the weights
/// and the group names, what pickling stores.
#[pyfunction]
fn partial_parity_to_bytes<'py>(
    py: Python<'py>,
    w: PyReadonlyArray1<'_, f64>,
    group_names: Vec<String>,
) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
    let ws = contiguous(w.as_slice(), "weights")?;
    let model = CrossModel::new(ws.to_vec(), group_names).map_err(to_py_err)?;
    Ok(pyo3::types::PyBytes::new(py, &model.to_bytes()))
}

/// `(weights, group names)` from [`partial_parity_to_bytes`]'s bytes; bad bytes raise
/// `FairkitError`.
#[pyfunction]
fn partial_parity_from_bytes<'py>(
    py: Python<'py>,
    data: &[u8],
) -> PyResult<(Bound<'py, PyArray1<f64>>, Vec<String>)> {
    let model = CrossModel::from_bytes(data).map_err(to_py_err)?;
    Ok((
        model.weights().to_vec().into_pyarray(py),
        model.group_names().to_vec(),
    ))
}

/// The fit's `info` dict as Python sees it (keys in this order), converted by
/// [`to_py`](crate::convert::to_py).
#[derive(Serialize)]
struct FitInfo {
    summary: String,
    iterations: usize,
    objective: f64,
    max_violation: f64,
}
