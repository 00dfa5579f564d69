//! `fairkit._core.estimators`: the estimator bindings (FairProjection, the
//! rate-constrained, partial-parity and spectral fair-SVM classifiers, FairPCA, the
//! Wasserstein-barycenter post-processor of regressions).
//!
//! To add one: write `estimators/<name>.rs` with a `#[pyclass]` (or functions) that converts
//! inputs with [`crate::convert`], runs the crate inside `py.detach(..)`, maps errors with
//! [`crate::errors::to_py_err`], and add it in [`register`] below.

pub mod constraints;
pub mod fair_pca;
pub mod fair_projection;
pub mod fair_svm;
pub mod partial_parity;
pub mod rate_constrained;
pub mod signals;
pub mod wasserstein;

use pyo3::prelude::*;

/// Adds the estimator classes and functions to `fairkit._core.estimators`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    constraints::register(m)?;
    fair_projection::register(m)?;
    rate_constrained::register(m)?;
    partial_parity::register(m)?;
    fair_pca::register(m)?;
    fair_svm::register(m)?;
    wasserstein::register(m)?;
    Ok(())
}
