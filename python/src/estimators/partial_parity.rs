//! `fairkit._core.estimators`: the partial-parity classifier (crate `dc-opt`, IDCA).
//!
//! Trains the paper's linear cross-term model `h_w(ξ) = ⟨w, (1, ξ, γ, γξ)⟩` (γ = group code + 1)
//! under partial statistical parity (model (15)) or partial demographic parity / equal
//! opportunity / equalized odds (model (21) and its variants) on a percentile interval, by the
//! inexact DCA. The fit runs with the GIL released; an observer re-acquires it after every
//! outer iteration to check for Ctrl-C.

use crate::convert::{contiguous, i64_as_usize, parse_param};
use crate::errors::{invalid, to_py_err};
use crate::estimators::signals::SignalCheck;
use dc_opt::{
    CrossData, DcOptError, DpVariant, Idca, IterInfo, PartialDp, PartialSp, SparseRows, Surrogate,
    cross_scores, percentile_grid,
};
use fair_data::Groups;
use fair_metrics::partial::PercentileInterval;
use nalgebra::DMatrix;
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::ops::ControlFlow;

/// Adds the partial-parity binding to `fairkit._core.estimators`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(partial_parity_fit, m)?)?;
    m.add_function(wrap_pyfunction!(partial_parity_scores, m)?)?;
    m.add_function(wrap_pyfunction!(partial_parity_to_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(partial_parity_from_bytes, m)?)?;
    Ok(())
}

/// Settings of one fit.
#[derive(Debug, Clone)]
pub struct PartialSettings {
    /// `None`: partial statistical parity (model (15)); otherwise the model (21) variant.
    pub constraint: Option<DpVariant>,
    /// Percentile interval `[α, β)`.
    pub interval: (f64, f64),
    /// Tolerance κ.
    pub kappa: f64,
    /// Grid points for partial statistical parity.
    pub grid_size: usize,
    /// θ̂ of the partial demographic-parity models.
    pub threshold: f64,
    /// The sigmoid surrogate.
    pub surrogate: Surrogate,
    /// IDCA outer iterations K.
    pub outer_iters: usize,
    /// Inner switching-subgradient iterations T.
    pub inner_iters: usize,
    /// Constraint tolerance ε.
    pub eps: f64,
}

/// What a fit returns: the model weights `w` (length `2d + 2`) and the report.
#[derive(Debug, Clone)]
pub struct PartialFit {
    /// Cross-term weights.
    pub weights: Vec<f64>,
    /// The crate's report as text.
    pub summary: String,
    /// Outer iterations run.
    pub iterations: usize,
    /// Objective at the last iterate.
    pub objective: f64,
    /// Largest constraint value at the last iterate.
    pub max_violation: f64,
}

/// The constraint family from its Python name (`None` = partial statistical parity).
pub fn parse_constraint(name: &str) -> PyResult<Option<DpVariant>> {
    Ok(match name {
        "statistical_parity" => None,
        "demographic_parity" => Some(DpVariant::DemographicParity),
        "equal_opportunity" => Some(DpVariant::EqualOpportunity),
        "equalized_odds" => Some(DpVariant::EqualizedOdds),
        other => {
            return Err(invalid(format!(
                "invalid parameter constraint: {other:?}; expected \"statistical_parity\", \
                 \"demographic_parity\", \"equal_opportunity\" or \"equalized_odds\""
            )));
        }
    })
}

/// Runs IDCA on dense rows `x` (N × d row-major), 0/1 labels and group codes.
///
/// # Errors
/// The crate's (invalid settings or data, infeasible start, numerical breakdown).
pub fn fit_buffers(
    x: &[f64],
    d: usize,
    y: &[usize],
    codes: &[i64],
    names: Vec<String>,
    s: &PartialSettings,
    observer: &mut dyn FnMut(&IterInfo) -> ControlFlow<()>,
) -> Result<PartialFit, DcOptError> {
    let n = x.len().checked_div(d).unwrap_or(0);
    let rows = SparseRows::from_dense(&DMatrix::from_row_slice(n, d, x))?;
    let groups = Groups::new(i64_as_usize(codes).into_owned(), names)?;
    let data = CrossData::new(&rows, y, &groups)?;
    let interval = PercentileInterval::new(s.interval.0, s.interval.1)?;
    let surrogate = s.surrogate;
    let idca = Idca::params()
        .outer_iters(s.outer_iters)
        .inner_iters(s.inner_iters)
        .eps(s.eps);
    // A closure is an observer (`fair_core::Observe`).
    let obs = observer;
    let (fit, weights) = match s.constraint {
        None => {
            let grid = percentile_grid(interval, s.kappa, s.grid_size)?;
            let model = PartialSp::new(&data, interval, s.kappa, grid, surrogate)?;
            let fit = idca.fit_with_observer(&model, &model.initial_point(), obs)?;
            let w = model.weights(&fit.x).to_vec();
            (fit, w)
        }
        Some(variant) => {
            let model = PartialDp::new(&data, interval, s.kappa, s.threshold, surrogate, variant)?;
            let fit = idca.fit_with_observer(&model, &model.initial_point(), obs)?;
            let w = fit.x[..dc_opt::cross_dim(d).min(fit.x.len())].to_vec();
            (fit, w)
        }
    };
    Ok(PartialFit {
        weights,
        summary: fit.report.to_string(),
        iterations: fit.report.iterations,
        objective: fit.report.objective,
        max_violation: fit.report.max_violation,
    })
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
    let n = x.len().checked_div(d).unwrap_or(0);
    let rows = SparseRows::from_dense(&DMatrix::from_row_slice(n, d, x))?;
    let groups = Groups::new(i64_as_usize(codes).into_owned(), names)?;
    cross_scores(w, &rows, &groups)
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
) -> PyResult<(Bound<'py, PyArray1<f64>>, Bound<'py, PyDict>)> {
    let settings = PartialSettings {
        constraint: parse_constraint(&constraint)?,
        interval,
        kappa,
        grid_size,
        threshold,
        surrogate: parse_param("surrogate", &surrogate)?,
        outer_iters,
        inner_iters,
        eps,
    };
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
        fit_buffers(xs, d, &y, codes, group_names, &settings, &mut check)
    });
    let fit = signals.or(result)?.map_err(to_py_err)?;
    let info = PyDict::new(py);
    info.set_item("summary", fit.summary)?;
    info.set_item("iterations", fit.iterations)?;
    info.set_item("objective", fit.objective)?;
    info.set_item("max_violation", fit.max_violation)?;
    Ok((fit.weights.into_pyarray(py), info))
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
    let model = dc_opt::CrossModel::new(ws.to_vec(), group_names).map_err(to_py_err)?;
    Ok(pyo3::types::PyBytes::new(py, &model.to_bytes()))
}

/// `(weights, group names)` from [`partial_parity_to_bytes`]'s bytes; bad bytes raise
/// `FairkitError`.
#[pyfunction]
fn partial_parity_from_bytes<'py>(
    py: Python<'py>,
    data: &[u8],
) -> PyResult<(Bound<'py, PyArray1<f64>>, Vec<String>)> {
    let model = dc_opt::CrossModel::from_bytes(data).map_err(to_py_err)?;
    Ok((
        model.weights().to_vec().into_pyarray(py),
        model.group_names().to_vec(),
    ))
}
