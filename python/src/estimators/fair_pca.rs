//! `fairkit._core.estimators`: FairPCA (crate `fair-pca`, Pareto fair PCA of Kamani et al.).
//!
//! The fit returns the orthonormal basis (d × r) and the centring mean; `transform` rebuilds the
//! crate's [`Projection`] from them, so the Python estimator holds plain arrays (picklable). The
//! fit runs with the GIL released; an observer re-acquires it every [`SIGNAL_CHECK_EVERY`]
//! iterations to check for Ctrl-C.

use crate::convert::{contiguous, i64_as_usize, parse_param, to_py};
use crate::errors::{invalid, to_py_err};
use crate::estimators::signals::SignalCheck;
use fair_data::Groups;
use fair_pca::{FairPca, FairPcaError, IterInfo, Objectives, Observe, Penalty, Projection};
use nalgebra::{DMatrix, DVector};
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2,
    PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use serde::Serialize;
use std::ops::ControlFlow;

/// Iterations between two signal checks.
pub const SIGNAL_CHECK_EVERY: usize = 20;

/// Adds the FairPCA binding to `fairkit._core.estimators`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(fair_pca_fit, m)?)?;
    m.add_function(wrap_pyfunction!(fair_pca_transform, m)?)?;
    m.add_function(wrap_pyfunction!(fair_pca_to_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(fair_pca_from_bytes, m)?)?;
    Ok(())
}

/// Settings of one fit.
#[derive(Debug, Clone)]
pub struct PcaSettings {
    /// Target dimension r.
    pub rank: usize,
    /// Objective vector (pairwise disparities or per-group excess losses).
    pub objectives: Objectives,
    /// Penalty ψ.
    pub penalty: Penalty,
    /// Regulariser α of eq. (19).
    pub alpha: f64,
    /// Iteration limit.
    pub max_iter: usize,
    /// Stopping tolerance on ‖D‖.
    pub tol: f64,
    /// Seeded random starts besides the vanilla start.
    pub random_starts: usize,
    /// Seed of the random starts.
    pub seed: u64,
}

/// Fits on dense rows `x` (N × d row-major) and group codes; returns the fitted model.
///
/// # Errors
/// The crate's (invalid settings or data, numerical breakdown).
pub fn fit_buffers(
    x: &[f64],
    d: usize,
    codes: &[i64],
    names: Vec<String>,
    s: &PcaSettings,
    observer: &mut dyn for<'i> Observe<IterInfo<'i>>,
) -> Result<FairPca, FairPcaError> {
    let n = x.len().checked_div(d).unwrap_or(0);
    let xm = DMatrix::from_row_slice(n, d, x);
    let groups = Groups::new(i64_as_usize(codes).into_owned(), names)?;
    FairPca::params(s.rank)
        .objectives(s.objectives)
        .penalty(s.penalty)
        .alpha(s.alpha)
        .max_iter(s.max_iter)
        .tol(s.tol)
        .random_starts(s.random_starts)
        .seed(s.seed)
        .fit_with_observer(&xm, &groups, observer)
}

/// Checks for Ctrl-C every [`SIGNAL_CHECK_EVERY`] iterations.
#[derive(Default)]
struct SignalObserver(SignalCheck);

impl Observe<IterInfo<'_>> for SignalObserver {
    fn observe(&mut self, info: &IterInfo<'_>) -> ControlFlow<()> {
        self.0.poll_every(info.iteration, SIGNAL_CHECK_EVERY)
    }
}

fn matrix<'a>(x: &'a PyReadonlyArray2<'_, f64>, what: &str) -> PyResult<(&'a [f64], usize, usize)> {
    let shape = x.shape();
    Ok((contiguous(x.as_slice(), what)?, shape[0], shape[1]))
}

/// A d × r column-major basis as a C-ordered (d, r) numpy array.
fn basis_array<'py>(py: Python<'py>, b: &DMatrix<f64>) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let (d, r) = b.shape();
    PyArray1::from_vec(py, b.transpose().as_slice().to_vec()).reshape([d, r])
}

/// `(basis d × r, mean d, info dict)`.
type FitOutput<'py> = (
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyAny>,
);

/// Fits FairPCA; returns `(basis d × r, mean d, info dict)`.
#[pyfunction]
#[pyo3(signature = (
    x, group_codes, group_names, *, rank, objectives, penalty, alpha, max_iter, tol,
    random_starts, seed
))]
#[allow(clippy::too_many_arguments)]
fn fair_pca_fit<'py>(
    py: Python<'py>,
    x: PyReadonlyArray2<'_, f64>,
    group_codes: PyReadonlyArray1<'_, i64>,
    group_names: Vec<String>,
    rank: usize,
    objectives: &str,
    penalty: &str,
    alpha: f64,
    max_iter: usize,
    tol: f64,
    random_starts: usize,
    seed: u64,
) -> PyResult<FitOutput<'py>> {
    let objectives: Objectives = parse_param("objectives", objectives)?;
    let penalty: Penalty = parse_param("penalty", penalty)?;
    let settings = PcaSettings {
        rank,
        objectives,
        penalty,
        alpha,
        max_iter,
        tol,
        random_starts,
        seed,
    };
    let (xs, n, d) = matrix(&x, "X")?;
    let codes = contiguous(group_codes.as_slice(), "sensitive feature codes")?;
    if codes.len() != n {
        return Err(invalid(format!(
            "length mismatch for sensitive_features: expected {n} rows (as X), got {}",
            codes.len()
        )));
    }
    let mut observer = SignalObserver::default();
    let result = py.detach(|| fit_buffers(xs, d, codes, group_names, &settings, &mut observer));
    let fit = observer.0.or(result)?.map_err(to_py_err)?;
    let report = fit.report();
    let info = to_py(
        py,
        &FitInfo {
            summary: report.to_string(),
            status: format!("{:?}", report.status),
            iterations: report.iterations,
            objective: report.objective,
            max_violation: report.max_violation,
        },
    )?;
    let basis = basis_array(py, fit.basis())?;
    let mean = fit.projection().mean().as_slice().to_vec().into_pyarray(py);
    Ok((basis, mean, info))
}

/// `(X − mean) U` for a fitted basis (d × r, C order) and mean.
#[pyfunction]
fn fair_pca_transform<'py>(
    py: Python<'py>,
    basis: PyReadonlyArray2<'_, f64>,
    mean: PyReadonlyArray1<'_, f64>,
    x: PyReadonlyArray2<'_, f64>,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let (b, d, r) = matrix(&basis, "basis")?;
    let m = contiguous(mean.as_slice(), "mean")?;
    let (xs, n, dx) = matrix(&x, "X")?;
    let out = py
        .detach(|| -> Result<DMatrix<f64>, FairPcaError> {
            let projection = Projection::new(
                DMatrix::from_row_slice(d, r, b),
                DVector::from_column_slice(m),
            )?;
            projection.transform(&DMatrix::from_row_slice(n, dx, xs))
        })
        .map_err(to_py_err)?;
    basis_array(py, &out)
}

/// The crate's versioned bytes of a fitted projection (basis d × r, C order, and mean): what
/// pickling stores (`fair_pca::Projection::to_bytes`).
#[pyfunction]
fn fair_pca_to_bytes<'py>(
    py: Python<'py>,
    basis: PyReadonlyArray2<'_, f64>,
    mean: PyReadonlyArray1<'_, f64>,
) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
    let (b, d, r) = matrix(&basis, "basis")?;
    let m = contiguous(mean.as_slice(), "mean")?;
    let projection = Projection::new(
        DMatrix::from_row_slice(d, r, b),
        DVector::from_column_slice(m),
    )
    .map_err(to_py_err)?;
    Ok(pyo3::types::PyBytes::new(py, &projection.to_bytes()))
}

/// `(basis d × r, mean d)`.
type Restored<'py> = (Bound<'py, PyArray2<f64>>, Bound<'py, PyArray1<f64>>);

/// `(basis d × r, mean d)` from [`fair_pca_to_bytes`]'s bytes; bad bytes raise `FairkitError`.
#[pyfunction]
fn fair_pca_from_bytes<'py>(py: Python<'py>, data: &[u8]) -> PyResult<Restored<'py>> {
    let projection = Projection::from_bytes(data).map_err(to_py_err)?;
    let basis = basis_array(py, projection.basis())?;
    let mean = projection.mean().as_slice().to_vec().into_pyarray(py);
    Ok((basis, mean))
}

/// The fit's `info` dict as Python sees it (keys in this order), converted by
/// [`to_py`](crate::convert::to_py).
#[derive(Serialize)]
struct FitInfo {
    summary: String,
    status: String,
    iterations: usize,
    objective: f64,
    max_violation: f64,
}
