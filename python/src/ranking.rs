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
    m.add_function(wrap_pyfunction!(exposure_ranking, m)?)?;
    Ok(())
}

/// What [`exposure_ranking`] returns: `(P row-major, n, thetas, rankings row-major, utility,
/// samples row-major)`.
type ExposureOut<'py> = (
    Bound<'py, PyArray1<f64>>,
    usize,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<usize>>,
    f64,
    Bound<'py, PyArray1<usize>>,
);

/// Singh & Joachims' exposure-fair probabilistic ranking of one query (crate `fair-ranking`),
/// its Birkhoff–von Neumann decomposition and `n_samples` rankings drawn with `seed`.
#[pyfunction]
#[pyo3(signature = (relevance, groups, *, constraint, persistence, tolerance, max_items, n_samples, seed))]
#[allow(clippy::too_many_arguments)]
fn exposure_ranking<'py>(
    py: Python<'py>,
    relevance: PyReadonlyArray1<'py, f64>,
    groups: PyReadonlyArray1<'py, i64>,
    constraint: &str,
    persistence: Option<f64>,
    tolerance: f64,
    max_items: usize,
    n_samples: usize,
    seed: u64,
) -> PyResult<ExposureOut<'py>> {
    use fair_ranking::{ExposureConstraint, ExposureRanking, PositionWeight};
    let constraint = match constraint {
        "demographic_parity" => ExposureConstraint::DemographicParity,
        "disparate_treatment" => ExposureConstraint::DisparateTreatment,
        "disparate_impact" => ExposureConstraint::DisparateImpact,
        other => {
            return Err(invalid(format!(
                "constraint={other:?}: expected 'demographic_parity', 'disparate_treatment' or 'disparate_impact'"
            )));
        }
    };
    let rel = contiguous(relevance.as_slice(), "relevance")?.to_vec();
    let g = codes(&groups, "groups", rel.len())?;
    let params = ExposureRanking::params()
        .constraint(constraint)
        .position_weight(persistence.map_or(PositionWeight::Log2, PositionWeight::Geometric))
        .tolerance(tolerance)
        .max_items(max_items)
        .check()
        .map_err(to_py_err)?;
    let (policy, samples) = py
        .detach(|| {
            let policy = params.solve(&rel, &g)?;
            let samples = policy.sample(n_samples, seed);
            Ok::<_, RankingError>((policy, samples))
        })
        .map_err(to_py_err)?;
    let n = rel.len();
    let matrix: Vec<f64> = (0..n * n)
        .map(|k| policy.probability(k / n, k % n))
        .collect();
    let thetas: Vec<f64> = policy.decomposition.iter().map(|d| d.0).collect();
    let rankings: Vec<usize> = policy
        .decomposition
        .iter()
        .flat_map(|d| d.1.iter().copied())
        .collect();
    let drawn: Vec<usize> = samples.into_iter().flatten().collect();
    Ok((
        matrix.into_pyarray(py),
        n,
        thetas.into_pyarray(py),
        rankings.into_pyarray(py),
        policy.utility,
        drawn.into_pyarray(py),
    ))
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
