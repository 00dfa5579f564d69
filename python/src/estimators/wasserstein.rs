//! `fairkit._core.estimators`: the Wasserstein-barycenter post-processor (crate
//! `fair-regression`).
//!
//! The fit returns a frozen model object holding the crate's `FittedBarycenter`; its bytes are
//! what pickling stores. Settings (`alpha`, `sigma`, `seed`) are passed through and checked by
//! the crate's `ParamGuard`. Fit and transform run with the GIL released.

use crate::convert::{contiguous, i64_as_usize, weights_slice};
use crate::errors::{invalid, to_py_err};
use fair_core::{Groups, ParamGuard};
use fair_regression::{FittedBarycenter, WassersteinBarycenter};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Adds the barycenter binding to `fairkit._core.estimators`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<WassersteinBarycenterModel>()?;
    m.add_function(wrap_pyfunction!(wasserstein_barycenter_fit, m)?)?;
    m.add_function(wrap_pyfunction!(wasserstein_barycenter_from_bytes, m)?)?;
    Ok(())
}

/// One `Groups` per attribute from its codes and names.
fn attributes(
    codes: &[PyReadonlyArray1<'_, i64>],
    names: Vec<Vec<String>>,
    n: usize,
) -> PyResult<Vec<Groups>> {
    if codes.len() != names.len() {
        return Err(invalid(format!(
            "{} code arrays for {} attributes' names",
            codes.len(),
            names.len()
        )));
    }
    codes
        .iter()
        .zip(names)
        .enumerate()
        .map(|(a, (c, names))| {
            let c = contiguous(c.as_slice(), "sensitive feature codes")?;
            if c.len() != n {
                return Err(invalid(format!(
                    "length mismatch for sensitive feature {a}: expected {n} rows (as the predictions), got {}",
                    c.len()
                )));
            }
            Groups::new(i64_as_usize(c).into_owned(), names).map_err(to_py_err)
        })
        .collect()
}

/// Fits the post-processor on predictions, per-attribute group codes and names, and optional
/// sample weights.
#[pyfunction]
#[pyo3(signature = (predictions, attribute_codes, attribute_names, weights, *, alpha, sigma, seed))]
#[allow(clippy::too_many_arguments)]
fn wasserstein_barycenter_fit(
    py: Python<'_>,
    predictions: PyReadonlyArray1<'_, f64>,
    attribute_codes: Vec<PyReadonlyArray1<'_, i64>>,
    attribute_names: Vec<Vec<String>>,
    weights: Option<PyReadonlyArray1<'_, f64>>,
    alpha: Vec<f64>,
    sigma: f64,
    seed: u64,
) -> PyResult<WassersteinBarycenterModel> {
    let y = contiguous(predictions.as_slice(), "predictions")?;
    let groups = attributes(&attribute_codes, attribute_names, y.len())?;
    let w = weights_slice(&weights)?;
    let params = WassersteinBarycenter::params()
        .alpha_per_attribute(alpha)
        .sigma(sigma)
        .seed(seed)
        .check()
        .map_err(to_py_err)?;
    let fitted = py.detach(|| params.fit(y, &groups, w)).map_err(to_py_err)?;
    Ok(WassersteinBarycenterModel(fitted))
}

/// A model from [`WassersteinBarycenterModel::to_bytes`]; bad bytes raise `FairkitError`.
#[pyfunction]
fn wasserstein_barycenter_from_bytes(data: &[u8]) -> PyResult<WassersteinBarycenterModel> {
    FittedBarycenter::from_bytes(data)
        .map(WassersteinBarycenterModel)
        .map_err(to_py_err)
}

/// A fitted barycenter post-processor.
#[pyclass(frozen, module = "fairkit._core.estimators")]
pub struct WassersteinBarycenterModel(FittedBarycenter);

#[pymethods]
impl WassersteinBarycenterModel {
    /// The fair predictions; `alpha` (one level, or one per attribute) overrides the fitted one.
    #[pyo3(signature = (predictions, attribute_codes, attribute_names, alpha=None))]
    fn transform<'py>(
        &self,
        py: Python<'py>,
        predictions: PyReadonlyArray1<'_, f64>,
        attribute_codes: Vec<PyReadonlyArray1<'_, i64>>,
        attribute_names: Vec<Vec<String>>,
        alpha: Option<Vec<f64>>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let y = contiguous(predictions.as_slice(), "predictions")?;
        let groups = attributes(&attribute_codes, attribute_names, y.len())?;
        let out = py
            .detach(|| match &alpha {
                Some(a) => self.0.transform_with_alpha(y, &groups, a),
                None => self.0.transform(y, &groups),
            })
            .map_err(to_py_err)?;
        Ok(out.into_pyarray(py))
    }

    /// The crate's versioned bytes (`FKWB`).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.0.to_bytes())
    }

    /// The fitted fairness level(s).
    #[getter]
    fn alpha(&self) -> Vec<f64> {
        self.0.alphas().to_vec()
    }

    /// The group names of each attribute.
    #[getter]
    fn group_names(&self) -> Vec<Vec<String>> {
        self.0.group_names().to_vec()
    }

    /// The last attribute's group shares (the barycenter's weights over all rows).
    #[getter]
    fn shares<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        let last = self.0.group_names().len() - 1;
        self.0
            .shares(last)
            .unwrap_or_default()
            .to_vec()
            .into_pyarray(py)
    }
}
