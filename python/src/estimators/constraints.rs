//! `fairkit._core.estimators`: the one constraint vocabulary (fair-core's [`Constraint`] table)
//! and each estimator's supported subset, as the method crates declare them. Python's
//! `fairkit.estimators._params` reads the table and checks names here, so a name, its aliases
//! and the error for an unsupported one are the crates'.

use crate::errors::invalid;
use fair_core::{Constraint, ConstraintSubset};
use pyo3::prelude::*;

/// Adds the vocabulary functions to `fairkit._core.estimators`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(constraint_table, m)?)?;
    m.add_function(wrap_pyfunction!(supported_constraints, m)?)?;
    m.add_function(wrap_pyfunction!(canonical_constraint, m)?)?;
    Ok(())
}

/// The Python estimators that take constraint names, with the crate type naming their subset.
pub const ESTIMATORS: [&str; 4] = [
    "FairProjection",
    "PartialParityClassifier",
    "FairSVM",
    "RateConstrainedClassifier",
];

/// The constraints the Python estimator `estimator` supports (its crate's subset).
///
/// # Errors
/// `FairkitError` for a name not in [`ESTIMATORS`].
pub fn supported(estimator: &str) -> PyResult<&'static [Constraint]> {
    Ok(match estimator {
        "FairProjection" => <info_projection::Constraint as ConstraintSubset>::SUPPORTED,
        "PartialParityClassifier" => <dc_opt::PartialConstraint as ConstraintSubset>::SUPPORTED,
        "FairSVM" => <fair_svm::Fairness as ConstraintSubset>::SUPPORTED,
        "RateConstrainedClassifier" => <game_opt::GroupConstraint as ConstraintSubset>::SUPPORTED,
        other => {
            return Err(invalid(format!(
                "no estimator {other:?} takes constraint names; expected one of {ESTIMATORS:?}"
            )));
        }
    })
}

/// `[(name, [aliases], notion)]`: every constraint of the vocabulary, canonical name first.
#[pyfunction]
pub fn constraint_table() -> Vec<(&'static str, Vec<&'static str>, &'static str)> {
    Constraint::ALL
        .iter()
        .map(|c| (c.as_str(), c.aliases().to_vec(), c.notion()))
        .collect()
}

/// The canonical names of the constraints `estimator` supports, in its crate's order.
#[pyfunction]
pub fn supported_constraints(estimator: &str) -> PyResult<Vec<&'static str>> {
    Ok(supported(estimator)?.iter().map(|c| c.as_str()).collect())
}

/// The canonical name of constraint `name` for `estimator`.
///
/// # Errors
/// `FairkitError` with fair-core's [`ConstraintError`](fair_core::ConstraintError) message:
/// `"<estimator> has no constraint named …"` or `"<estimator> does not support …"`, listing
/// the supported names with their aliases.
#[pyfunction]
pub fn canonical_constraint(name: &str, estimator: &str) -> PyResult<&'static str> {
    Constraint::parse_for(name, estimator, supported(estimator)?)
        .map(|c| c.as_str())
        .map_err(|e| invalid(e.to_string()))
}
