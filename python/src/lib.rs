//! `fairkit._core`: the Rust extension module behind the `fairkit` Python package.
//!
//! This crate is a front end: it converts numpy buffers to slices, calls the library crates
//! (`fair-metrics`, and the method crates through [`estimators`]), releases the GIL while they
//! run, and turns their typed errors into Python exceptions. No metric or method is computed
//! here; the only logic of its own is input conversion (label and group encoding) and
//! fairlearn's NaN conventions on top of the crate's summaries (see [`metrics`]).
//!
//! Layout: one Rust module per Python submodule, each with a `register` function called below.
//! `fairkit._core.metrics` ↔ [`metrics`], `fairkit._core.estimators` ↔ [`estimators`].
//! The Python package (`python/fairkit/`) wraps these in the public, documented API.

pub mod arrow_ffi;
pub mod cli;
pub mod convert;
pub mod datasets;
pub mod errors;
pub mod estimators;
pub mod files;
pub mod gate;
pub mod ll144;
pub mod metrics;
pub mod ranking;
pub mod spark;

use pyo3::prelude::*;

/// The extension module. `gil_used = true`: the module keeps the GIL contract of classic
/// CPython (every pass over data still releases it explicitly with `Python::detach`).
#[pymodule(name = "_core", gil_used = true)]
fn fairkit_core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("FairkitError", py.get_type::<errors::FairkitError>())?;
    gate::register(m)?;
    files::register(m)?;
    ll144::register(m)?;
    m.add_function(wrap_pyfunction!(cli::run_cli, m)?)?;
    add_submodule(m, "metrics", metrics::register)?;
    add_submodule(m, "estimators", estimators::register)?;
    add_submodule(m, "ranking", ranking::register)?;
    add_submodule(m, "spark", spark::register)?;
    add_submodule(m, "datasets", datasets::register)?;
    Ok(())
}

/// Creates `fairkit._core.<name>`, fills it with `fill`, attaches it to `parent` and registers
/// it in `sys.modules` so `import fairkit._core.<name>` works too.
fn add_submodule(
    parent: &Bound<'_, PyModule>,
    name: &str,
    fill: fn(&Bound<'_, PyModule>) -> PyResult<()>,
) -> PyResult<()> {
    let py = parent.py();
    let child = PyModule::new(py, name)?;
    fill(&child)?;
    parent.add_submodule(&child)?;
    py.import("sys")?
        .getattr("modules")?
        .set_item(format!("fairkit._core.{name}"), &child)?;
    Ok(())
}
