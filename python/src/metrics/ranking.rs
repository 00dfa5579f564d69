//! `fairkit._core.metrics` ranking functions: FA*IR's tables and test, and each group's
//! exposure over rankings (`fair_metrics::ranking`). Options are checked in Rust.

use crate::convert::to_py;
use crate::errors::to_py_err;
use fair_metrics::ranking::{adjusted_mtable, group_exposure, mtable, ranked_group_fairness};
use pyo3::prelude::*;
use serde::Serialize;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(fair_mtable, m)?)?;
    m.add_function(wrap_pyfunction!(fair_test, m)?)?;
    m.add_function(wrap_pyfunction!(exposure, m)?)?;
    Ok(())
}

#[derive(Serialize)]
struct Table {
    mtable: Vec<u64>,
    alpha: f64,
    fail_probability: f64,
}

/// FA*IR's table for `k` positions: `{"mtable", "alpha", "fail_probability"}` (the corrected
/// level when `adjust`).
#[pyfunction]
#[pyo3(signature = (k, p, alpha, adjust))]
fn fair_mtable<'py>(
    py: Python<'py>,
    k: usize,
    p: f64,
    alpha: f64,
    adjust: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let table = if adjust {
        let a = adjusted_mtable(k, p, alpha).map_err(to_py_err)?;
        Table {
            mtable: a.mtable,
            alpha: a.alpha,
            fail_probability: a.fail_probability,
        }
    } else {
        let t = mtable(k, p, alpha).map_err(to_py_err)?;
        Table {
            fail_probability: fair_metrics::ranking::fail_probability(&t, p),
            mtable: t,
            alpha,
        }
    };
    to_py(py, &table)
}

#[derive(Serialize)]
struct Test {
    passes: bool,
    first_violation: Option<usize>,
    mtable: Vec<u64>,
    alpha: f64,
}

/// FA*IR's test of one ranking (`protected`, the top first).
#[pyfunction]
#[pyo3(signature = (protected, p, alpha, adjust))]
fn fair_test<'py>(
    py: Python<'py>,
    protected: Vec<bool>,
    p: f64,
    alpha: f64,
    adjust: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let t = ranked_group_fairness(&protected, p, alpha, adjust).map_err(to_py_err)?;
    to_py(
        py,
        &Test {
            passes: t.passes,
            first_violation: t.first_violation,
            mtable: t.mtable,
            alpha: t.alpha,
        },
    )
}

#[derive(Serialize)]
struct Exposure {
    group: usize,
    items: u64,
    exposure: f64,
    item_share: f64,
    exposure_share: f64,
    exposure_ratio: f64,
    top_k_share: Vec<f64>,
}

/// Each group's exposure over rankings (one row per item: query, 1-based rank, group code).
#[pyfunction]
#[pyo3(signature = (query, rank, group, n_groups, top_k))]
fn exposure<'py>(
    py: Python<'py>,
    query: Vec<u64>,
    rank: Vec<u64>,
    group: Vec<usize>,
    n_groups: usize,
    top_k: Vec<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let rows = py
        .detach(|| group_exposure(&query, &rank, &group, n_groups, &top_k))
        .map_err(to_py_err)?;
    let out: Vec<Exposure> = rows
        .into_iter()
        .map(|e| Exposure {
            group: e.group,
            items: e.items,
            exposure: e.exposure,
            item_share: e.item_share,
            exposure_share: e.exposure_share,
            exposure_ratio: e.exposure_ratio,
            top_k_share: e.top_k_share,
        })
        .collect();
    to_py(py, &out)
}
