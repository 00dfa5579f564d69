//! `fairkit._core.datasets`: the embedded datasets of `fair-data` (gzip copies of the published
//! files, checked against their sha256 on every load), handed to Python as text for
//! `fairkit.datasets` to parse. Nothing is downloaded.

use crate::errors::{invalid, to_py_err};
use fair_data::EMBEDDED_FILES;
use pyo3::prelude::*;

/// Adds the dataset functions to `fairkit._core.datasets`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(embedded_text, m)?)?;
    m.add_function(wrap_pyfunction!(embedded_files, m)?)?;
    Ok(())
}

/// The names and published sha256 of every embedded file.
#[pyfunction]
fn embedded_files() -> Vec<(&'static str, &'static str)> {
    EMBEDDED_FILES.iter().map(|f| (f.name, f.sha256)).collect()
}

/// The text of the embedded file `name` (decompressed, its sha256 checked against the published
/// digest; the GIL is released meanwhile).
///
/// # Errors
/// An unknown name (the known ones are listed), or a checksum or decoding failure.
#[pyfunction]
fn embedded_text(py: Python<'_>, name: &str) -> PyResult<String> {
    let file = EMBEDDED_FILES
        .iter()
        .find(|f| f.name == name)
        .ok_or_else(|| {
            let known: Vec<&str> = EMBEDDED_FILES.iter().map(|f| f.name).collect();
            invalid(format!(
                "no embedded file {name:?}: the embedded files are {}",
                known.join(", ")
            ))
        })?;
    py.detach(|| file.text()).map_err(to_py_err)
}
