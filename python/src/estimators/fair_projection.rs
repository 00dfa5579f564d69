//! `fairkit._core.estimators`: FairProjection (crate `info-projection`).
//!
//! The Python class `fairkit.estimators.FairProjection` encodes labels and groups and calls
//! [`fair_projection_fit`], which returns a [`FairProjectionCore`] holding the crate's fitted
//! projector. Probability matrices arrive as C-contiguous N × C `float64` numpy arrays; they
//! are copied into the crate's column-major `DMatrix` after the GIL is released (the crate's
//! input type; one pass, small next to a fit). Settings are parsed here from their Python
//! spelling so every bad value is reported with the parameter's name.
//!
//! The fit runs with the GIL released and checks for Ctrl-C before every pass over the rows
//! (the crate's observer, [`SignalCheck`]): an interrupt stops it within one pass.

use crate::convert::{contiguous, i64_as_usize, parse_param, to_py};
use crate::errors::{invalid, to_py_err};
use crate::estimators::signals::SignalCheck;
use fair_data::Groups;
use info_projection::{
    Constraint, Decision, FairProjection, FairProjectionParams, GroupThresholds,
    InfoProjectionError, Observe, PassInfo, RateBound, RowPolicy,
};
use nalgebra::DMatrix;
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2,
    PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use serde::Serialize;

/// Adds the FairProjection binding to `fairkit._core.estimators`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<FairProjectionCore>()?;
    m.add_function(wrap_pyfunction!(fair_projection_fit, m)?)?;
    m.add_function(wrap_pyfunction!(fair_projection_restore, m)?)?;
    m.add_class::<GroupThresholdsCore>()?;
    m.add_function(wrap_pyfunction!(fair_projection_decision_rule, m)?)?;
    m.add_function(wrap_pyfunction!(group_thresholds_restore, m)?)?;
    Ok(())
}

/// The Python estimator's settings: the dict `fairkit.estimators.FairProjection` builds at fit
/// (and keeps, so that unpickling restores with the settings the projector was fitted with).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct Settings {
    constraints: Vec<String>,
    alpha: f64,
    divergence: String,
    solver: String,
    zeta: Option<f64>,
    tol: f64,
    max_iter: usize,
    floor: f64,
    renormalize: bool,
}

impl Settings {
    /// The crate's settings (range checks are the crate's, at fit).
    pub fn params(&self) -> PyResult<FairProjectionParams> {
        let constraints = self
            .constraints
            .iter()
            .map(|c| parse_param::<Constraint>("constraints", c))
            .collect::<PyResult<Vec<_>>>()?;
        let mut params = FairProjection::params()
            .constraints(&constraints)
            .alpha(self.alpha)
            .divergence(parse_param("divergence", &self.divergence)?)
            .solver(parse_param("solver", &self.solver)?)
            .tol(self.tol)
            .max_iter(self.max_iter)
            .floor(self.floor)
            .row_policy(if self.renormalize {
                RowPolicy::Renormalize
            } else {
                RowPolicy::Strict
            });
        if let Some(z) = self.zeta {
            params = params.zeta(z);
        }
        Ok(params)
    }
}

/// An N × C row-major probability buffer as the crate's (column-major) matrix: one pass that
/// writes each column contiguously (`n · c` must equal `proba.len()`).
pub fn probs_matrix(proba: &[f64], n: usize, c: usize) -> DMatrix<f64> {
    let mut data = Vec::with_capacity(n * c);
    for j in 0..c {
        data.extend(proba.iter().skip(j).step_by(c.max(1)).take(n));
    }
    DMatrix::from_vec(n, c, data)
}

/// Group codes (`0..names.len()`) and names as the crate's [`Groups`].
pub fn groups(codes: &[i64], names: Vec<String>) -> Result<Groups, InfoProjectionError> {
    Ok(Groups::new(i64_as_usize(codes).into_owned(), names)?)
}

/// The binding's whole Rust path of a fit from numpy-shaped buffers (what the Python class
/// runs with the GIL released; public so Rust benchmarks can time it without Python).
///
/// `observer` is asked before every pass over the rows (see
/// [`info_projection::FairProjectionValidParams::fit_with_observer`]); its `Break` ends the fit
/// with the last iterate.
///
/// # Errors
/// The crate's: invalid settings, probabilities, groups or labels.
pub fn fit_buffers(
    params: &FairProjectionParams,
    proba: &[f64],
    n_classes: usize,
    codes: &[i64],
    names: Vec<String>,
    labels: Option<&[i64]>,
    observer: &mut dyn Observe<PassInfo>,
) -> Result<FairProjection, InfoProjectionError> {
    let n = proba.len().checked_div(n_classes).unwrap_or(0);
    let probs = probs_matrix(proba, n, n_classes);
    let groups = groups(codes, names)?;
    let labels = labels.map(i64_as_usize);
    params
        .clone()
        .check()?
        .fit_with_observer(&probs, &groups, labels.as_deref(), observer)
}

/// `proba` as a row-major slice with its shape, or an error naming the input.
fn proba_slice<'a>(proba: &'a PyReadonlyArray2<'_, f64>) -> PyResult<(&'a [f64], usize, usize)> {
    let shape = proba.shape();
    let (n, c) = (shape[0], shape[1]);
    let slice = contiguous(proba.as_slice(), "the probability matrix")?;
    Ok((slice, n, c))
}

/// A fit's inputs as slices: the row-major probabilities with their shape, the group codes and
/// the optional class codes of the labels, their lengths checked against the rows.
pub(crate) struct FitInputs<'a> {
    pub p: &'a [f64],
    pub n: usize,
    pub c: usize,
    pub codes: &'a [i64],
    pub y: Option<&'a [i64]>,
}

/// Borrows and checks a fit's numpy inputs (see [`FitInputs`]).
pub(crate) fn fit_inputs<'a>(
    proba: &'a PyReadonlyArray2<'_, f64>,
    group_codes: &'a PyReadonlyArray1<'_, i64>,
    labels: &'a Option<PyReadonlyArray1<'_, i64>>,
) -> PyResult<FitInputs<'a>> {
    let (p, n, c) = proba_slice(proba)?;
    let codes = contiguous(group_codes.as_slice(), "sensitive feature codes")?;
    check_rows(codes.len(), n, "sensitive_features")?;
    let y = labels
        .as_ref()
        .map(|l| contiguous(l.as_slice(), "y"))
        .transpose()?;
    if let Some(y) = y {
        check_rows(y.len(), n, "y")?;
    }
    Ok(FitInputs { p, n, c, codes, y })
}

/// Fits FairProjection on base probabilities (N × C, C-contiguous `float64`), group codes
/// (`int64` in `0..len(group_names)`) and optional class codes of the true labels (`int64` in
/// `0..C`; given: empirical marginals, else plug-in marginals from the probabilities), with the
/// estimator's `settings` dict.
#[pyfunction]
#[pyo3(signature = (proba, group_codes, group_names, labels, settings))]
fn fair_projection_fit(
    py: Python<'_>,
    proba: PyReadonlyArray2<'_, f64>,
    group_codes: PyReadonlyArray1<'_, i64>,
    group_names: Vec<String>,
    labels: Option<PyReadonlyArray1<'_, i64>>,
    settings: Settings,
) -> PyResult<FairProjectionCore> {
    let params = settings.params()?;
    let FitInputs { p, c, codes, y, .. } = fit_inputs(&proba, &group_codes, &labels)?;
    let names = group_names.clone();
    let mut signals = SignalCheck::default();
    let result = py.detach(|| {
        fit_buffers(&params, p, c, codes, names, y, &mut |_: &PassInfo| {
            signals.poll()
        })
    });
    let inner = signals.or(result)?.map_err(crate_error)?;
    Ok(FairProjectionCore { inner, group_names })
}

/// The crate's error; a row-sum error also names the Python parameter that relaxes the check
/// (the crate's message names its Rust setting).
pub(crate) fn crate_error(err: InfoProjectionError) -> PyErr {
    match err {
        InfoProjectionError::RowSumNotOne { .. } => invalid(format!(
            "{err} (in Python: FairProjection(renormalize=True))"
        )),
        other => to_py_err(other),
    }
}

fn check_rows(got: usize, n: usize, what: &str) -> PyResult<()> {
    if got != n {
        return Err(invalid(format!(
            "length mismatch for {what}: expected {n} rows (one per row of the probability \
             matrix), got {got}"
        )));
    }
    Ok(())
}

/// A projector saved by `FairProjectionCore.to_bytes()`, restored with the settings it was
/// fitted with (what unpickling a fitted `FairProjection` runs: no refit, no fitting rows).
#[pyfunction]
fn fair_projection_restore(
    saved: &[u8],
    group_names: Vec<String>,
    settings: Settings,
) -> PyResult<FairProjectionCore> {
    let params = settings.params()?;
    let inner = params
        .check()
        .and_then(|p| p.restore(saved))
        .map_err(crate_error)?;
    Ok(FairProjectionCore { inner, group_names })
}

/// A fitted projector (the crate's [`FairProjection`]) and the group names it was fitted with.
#[pyclass(frozen, module = "fairkit._core.estimators")]
pub struct FairProjectionCore {
    pub(crate) inner: FairProjection,
    pub(crate) group_names: Vec<String>,
}

impl FairProjectionCore {
    fn inputs<'a>(
        &self,
        proba: &'a PyReadonlyArray2<'_, f64>,
        group_codes: &'a PyReadonlyArray1<'_, i64>,
    ) -> PyResult<(&'a [f64], usize, usize, &'a [i64])> {
        let (p, n, c) = proba_slice(proba)?;
        let codes = contiguous(group_codes.as_slice(), "sensitive feature codes")?;
        check_rows(codes.len(), n, "sensitive_features")?;
        Ok((p, n, c, codes))
    }
}

#[pymethods]
impl FairProjectionCore {
    /// The projector as canonical bytes (O(classes × groups + constraints), not the rows), for
    /// [`fair_projection_restore`].
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.to_bytes())
    }

    /// Fair probabilities (N × C, C-contiguous) for base probabilities and group codes.
    fn predict_proba<'py>(
        &self,
        py: Python<'py>,
        proba: PyReadonlyArray2<'_, f64>,
        group_codes: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let (p, n, c, codes) = self.inputs(&proba, &group_codes)?;
        let names = self.group_names.clone();
        let out = py
            .detach(|| -> Result<Vec<f64>, InfoProjectionError> {
                let h = self
                    .inner
                    .predict_proba(&probs_matrix(p, n, c), &groups(codes, names)?)?;
                // Column-major N × C → row-major (the transpose's column-major storage).
                Ok(h.transpose().as_slice().to_vec())
            })
            .map_err(crate_error)?;
        PyArray1::from_vec(py, out).reshape([n, c])
    }

    /// Class codes: argmax of the fair probabilities, or (two classes) `h_1 > threshold`.
    #[pyo3(signature = (proba, group_codes, threshold=None))]
    fn predict<'py>(
        &self,
        py: Python<'py>,
        proba: PyReadonlyArray2<'_, f64>,
        group_codes: PyReadonlyArray1<'_, i64>,
        threshold: Option<f64>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let (p, n, c, codes) = self.inputs(&proba, &group_codes)?;
        let names = self.group_names.clone();
        let decision = threshold.map_or(Decision::Argmax, Decision::Threshold);
        let out = py
            .detach(|| -> Result<Vec<i64>, InfoProjectionError> {
                let labels =
                    self.inner
                        .predict(&probs_matrix(p, n, c), &groups(codes, names)?, decision)?;
                Ok(labels.into_iter().map(|l| l as i64).collect())
            })
            .map_err(crate_error)?;
        Ok(out.into_pyarray(py))
    }

    /// The dual multipliers λ (one per constraint row).
    #[getter]
    fn lambda_<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.inner.lambda().to_vec().into_pyarray(py)
    }

    /// `E[G_k h]` on the fitting rows per constraint row.
    #[getter]
    fn constraint_values<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.inner.constraint_values().to_vec().into_pyarray(py)
    }

    /// `ζ((I + Ḡ)λ)_k`: the relaxed allowance per constraint row.
    #[getter]
    fn allowances<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.inner.allowances().to_vec().into_pyarray(py)
    }

    /// Number of classes C.
    #[getter]
    fn n_classes(&self) -> usize {
        self.inner.n_classes()
    }

    /// The fit report as a dict (status, iterations, passes, objective, residuals, timings).
    fn report<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let r = self.inner.report();
        to_py(
            py,
            &ProjectionReport {
                status: r.status.to_string(),
                converged: r.status.is_converged(),
                solver: format!("{:?}", r.solver).to_lowercase(),
                n_constraints: r.n_constraints,
                n_rows: r.n_rows,
                zeta: r.zeta,
                iterations: r.iterations,
                data_passes: r.data_passes,
                objective: r.objective,
                stationarity: r.stationarity,
                primal_residual: r.primal_residual,
                dual_residual: r.dual_residual,
                max_violation: r.max_violation,
                max_excess: r.max_excess,
                elapsed_seconds: r.elapsed.as_secs_f64(),
                summary: r.to_string(),
            },
        )
    }
}

/// Fits the hard-decision rule of a fitted projector (two classes): randomized group thresholds
/// on the fair probability of class 1, the most accurate such rule whose expected rates on these
/// rows meet the bound. `difference_bound` given: `max − min ≤ bound` across groups (fairlearn's
/// difference); None: the projector's relative tolerance α on every rate its constraints name.
/// `labels` (class codes 0/1) given: rates against them; None: the base probability of class 1
/// stands in (plug-in).
#[pyfunction]
#[pyo3(signature = (projection, proba, group_codes, labels, difference_bound))]
fn fair_projection_decision_rule(
    py: Python<'_>,
    projection: &FairProjectionCore,
    proba: PyReadonlyArray2<'_, f64>,
    group_codes: PyReadonlyArray1<'_, i64>,
    labels: Option<PyReadonlyArray1<'_, i64>>,
    difference_bound: Option<f64>,
) -> PyResult<GroupThresholdsCore> {
    let FitInputs { p, n, c, codes, y } = fit_inputs(&proba, &group_codes, &labels)?;
    if let Some(row) = y.and_then(|y| y.iter().position(|&v| !(0..=1).contains(&v))) {
        return Err(invalid(format!(
            "y: class code at row {row} is not 0 or 1 (the decision rule needs two classes)"
        )));
    }
    let names = projection.group_names.clone();
    let rule = py
        .detach(|| -> Result<GroupThresholds, InfoProjectionError> {
            let y: Option<Vec<usize>> = y.map(|y| y.iter().map(|&v| v as usize).collect());
            projection.inner.fit_decision_rule(
                &probs_matrix(p, n, c),
                &groups(codes, names)?,
                y.as_deref(),
                difference_bound.map(RateBound::Difference),
            )
        })
        .map_err(crate_error)?;
    Ok(GroupThresholdsCore {
        inner: rule,
        group_names: projection.group_names.clone(),
    })
}

/// A rule saved by `GroupThresholdsCore.to_bytes()`.
#[pyfunction]
fn group_thresholds_restore(
    saved: &[u8],
    group_names: Vec<String>,
) -> PyResult<GroupThresholdsCore> {
    let inner = GroupThresholds::from_bytes(saved).map_err(crate_error)?;
    if inner.n_groups() != group_names.len() {
        return Err(invalid(format!(
            "the saved decision rule has {} groups but {} group names were given",
            inner.n_groups(),
            group_names.len()
        )));
    }
    Ok(GroupThresholdsCore { inner, group_names })
}

/// The crate's [`GroupThresholds`]: FairProjection's hard decisions for two classes.
#[pyclass(frozen, module = "fairkit._core.estimators")]
pub struct GroupThresholdsCore {
    inner: GroupThresholds,
    group_names: Vec<String>,
}

#[pymethods]
impl GroupThresholdsCore {
    /// `P(ŷ = 1)` per row for scores (the fair probability of class 1) and group codes.
    fn positive_probability<'py>(
        &self,
        py: Python<'py>,
        scores: PyReadonlyArray1<'_, f64>,
        group_codes: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let s = contiguous(scores.as_slice(), "scores")?;
        let codes = contiguous(group_codes.as_slice(), "sensitive feature codes")?;
        let names = self.group_names.clone();
        let out = py
            .detach(|| self.inner.positive_probability(s, &groups(codes, names)?))
            .map_err(crate_error)?;
        Ok(out.into_pyarray(py))
    }

    /// Seeded hard decisions (0/1 codes): same seed, same decisions.
    fn predict<'py>(
        &self,
        py: Python<'py>,
        scores: PyReadonlyArray1<'_, f64>,
        group_codes: PyReadonlyArray1<'_, i64>,
        seed: u64,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let s = contiguous(scores.as_slice(), "scores")?;
        let codes = contiguous(group_codes.as_slice(), "sensitive feature codes")?;
        let names = self.group_names.clone();
        let out = py
            .detach(|| self.inner.predict(s, &groups(codes, names)?, seed))
            .map_err(crate_error)?;
        Ok(out
            .into_iter()
            .map(|v| v as i64)
            .collect::<Vec<_>>()
            .into_pyarray(py))
    }

    /// The rule as bytes (for pickling).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.to_bytes())
    }

    /// Expected rates on the fitting rows: dict of lists per group (selection, true_positive,
    /// false_positive, accuracy) and the overall `accuracy`.
    fn fitted_rates<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let r = self.inner.fitted_rates();
        to_py(
            py,
            &DecisionRates {
                selection_rate: &r.selection,
                true_positive_rate: &r.true_positive,
                false_positive_rate: &r.false_positive,
                accuracy: &r.accuracy,
                overall_accuracy: self.inner.fitted_accuracy(),
            },
        )
    }

    /// Per group: the thresholds (increasing) and `P(ŷ = 1)` from each one up to the next.
    fn group_rules(&self) -> Vec<Vec<(f64, f64)>> {
        (0..self.inner.n_groups())
            .map(|g| self.inner.group_rule(g).unwrap_or_default())
            .collect()
    }
}

/// `FairProjectionCore.report()` as Python sees it (keys in this order), converted by
/// [`to_py`](crate::convert::to_py).
#[derive(Serialize)]
struct ProjectionReport {
    status: String,
    converged: bool,
    solver: String,
    n_constraints: usize,
    n_rows: usize,
    zeta: f64,
    iterations: usize,
    data_passes: usize,
    objective: f64,
    stationarity: f64,
    primal_residual: Option<f64>,
    dual_residual: Option<f64>,
    max_violation: f64,
    max_excess: f64,
    elapsed_seconds: f64,
    summary: String,
}

/// The decision rule's `fitted_rates()` as Python sees it (per-group lists, then the overall
/// accuracy), converted by [`to_py`](crate::convert::to_py).
#[derive(Serialize)]
struct DecisionRates<'a> {
    selection_rate: &'a [f64],
    true_positive_rate: &'a [f64],
    false_positive_rate: &'a [f64],
    accuracy: &'a [f64],
    overall_accuracy: f64,
}
