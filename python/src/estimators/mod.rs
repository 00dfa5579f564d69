//! `fairkit._core.estimators`: reserved for the estimator bindings (FairProjection, the
//! rate-constrained, partial-parity and spectral-SVM classifiers, FairPCA).
//!
//! To add one: write `estimators/<name>.rs` with a `#[pyclass]` (or functions) that converts
//! inputs with [`crate::convert`], runs the crate inside `py.detach(..)`, maps errors with
//! [`crate::errors::to_py_err`], and add it in [`register`] below.

use pyo3::prelude::*;

/// Adds the estimator classes and functions to `fairkit._core.estimators` (none yet).
pub fn register(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}
