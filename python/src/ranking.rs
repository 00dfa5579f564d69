//! `fairkit._core.ranking`: fair top-k re-ranking (crate `fair-ranking`): FA*IR and Geyik et
//! al.'s deterministic re-rankers over one query or many. Settings are checked by the crate's
//! `ParamGuard` (once per call, not per query); the re-ranking runs with the GIL released.

use crate::convert::{contiguous, i64_as_usize};
use crate::errors::{invalid, to_py_err};
use fair_core::ParamGuard;
use fair_ranking::{DetMethod, DetRerank, FairTopK, RankingError};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;

/// Adds the re-rankers to `fairkit._core.ranking`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(fair_topk, m)?)?;
    m.add_function(wrap_pyfunction!(det_rerank, m)?)?;
    Ok(())
}

/// The crate's error, a failing query named by its label (`query_names[code]`, a Python repr).
fn query_err(e: RankingError, query_names: &[String]) -> PyErr {
    match e {
        RankingError::InQuery { query, source } => match query_names.get(query) {
            Some(name) => invalid(format!("query {name}: {source}")),
            None => to_py_err(source),
        },
        e => to_py_err(e),
    }
}

fn codes(a: &PyReadonlyArray1<'_, i64>, what: &str, n: usize) -> PyResult<Vec<usize>> {
    let c = contiguous(a.as_slice(), what)?;
    if c.len() != n {
        return Err(invalid(format!(
            "length mismatch for {what}: expected {n} (one per score), got {}",
            c.len()
        )));
    }
    Ok(i64_as_usize(c).into_owned())
}

/// FA*IR's top `k` of each query: the chosen rows (0-based), `k` per query, queries in code
/// order.
#[pyfunction]
#[pyo3(signature = (scores, protected, queries, query_names, *, k, p, alpha, adjust))]
#[allow(clippy::too_many_arguments)]
fn fair_topk<'py>(
    py: Python<'py>,
    scores: PyReadonlyArray1<'py, f64>,
    protected: PyReadonlyArray1<'py, bool>,
    queries: PyReadonlyArray1<'py, i64>,
    query_names: Vec<String>,
    k: usize,
    p: f64,
    alpha: f64,
    adjust: bool,
) -> PyResult<Bound<'py, PyArray1<usize>>> {
    let params = FairTopK::params()
        .k(k)
        .p(p)
        .alpha(alpha)
        .adjust(adjust)
        .check()
        .map_err(to_py_err)?;
    let s = contiguous(scores.as_slice(), "scores")?;
    let prot = contiguous(protected.as_slice(), "protected")?;
    let q = codes(&queries, "query codes", s.len())?;
    let out = py
        .detach(|| params.rerank_queries(&q, s, prot))
        .map_err(|e| query_err(e, &query_names))?;
    Ok(out.into_pyarray(py))
}

/// Geyik et al.'s re-ranker `method` over each query: the chosen rows (0-based), `k` per query,
/// queries in code order. `groups` are codes into `target`.
#[pyfunction]
#[pyo3(signature = (scores, groups, queries, query_names, *, k, target, method))]
#[allow(clippy::too_many_arguments)]
fn det_rerank<'py>(
    py: Python<'py>,
    scores: PyReadonlyArray1<'py, f64>,
    groups: PyReadonlyArray1<'py, i64>,
    queries: PyReadonlyArray1<'py, i64>,
    query_names: Vec<String>,
    k: usize,
    target: Vec<f64>,
    method: &str,
) -> PyResult<Bound<'py, PyArray1<usize>>> {
    let method: DetMethod = method.parse().map_err(to_py_err)?;
    let params = DetRerank::params()
        .method(method)
        .k(k)
        .target(target)
        .check()
        .map_err(to_py_err)?;
    let s = contiguous(scores.as_slice(), "scores")?;
    let g = codes(&groups, "group codes", s.len())?;
    let q = codes(&queries, "query codes", s.len())?;
    let out = py
        .detach(|| params.rerank_queries(&q, s, &g))
        .map_err(|e| query_err(e, &query_names))?;
    Ok(out.into_pyarray(py))
}
