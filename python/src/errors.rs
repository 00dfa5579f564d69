//! Python exceptions raised by the extension, and the conversion from the crates' errors.

use pyo3::PyErr;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;

create_exception!(
    fairkit,
    FairkitError,
    PyValueError,
    "Invalid input or parameter for a fairkit metric or method. A ValueError subclass; the message is the Rust crate's message, which names the offending input and says what to fix."
);

/// Converts any crate error into [`FairkitError`] carrying its `Display` message.
///
/// Every library crate's error type implements `Display` with a message meant for the user, so
/// one conversion serves all of them (`fair_metrics::MetricError`, `fair_data::DataError`, the
/// method crates' errors).
pub fn to_py_err<E: std::fmt::Display>(err: E) -> PyErr {
    FairkitError::new_err(err.to_string())
}

/// A [`FairkitError`] with a message written by the binding (input conversion problems).
pub fn invalid(message: impl Into<String>) -> PyErr {
    FairkitError::new_err(message.into())
}
