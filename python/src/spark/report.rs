//! The audit computed from the final (merged) state bytes: what `fairkit.spark.audit` returns.

use crate::errors::to_py_err;
use fair_metrics::ci::{
    GapInference, GapMetric, GapSettings, RateCiMethod, RateIntervals, gap_inference,
    rate_intervals,
};
use fair_metrics::partial::PercentileInterval;
use fair_metrics::score_sweep::{SegmentScores, StreamTotals};
use fair_metrics::state::ConfusionState;
use fair_metrics::{MetricError, PairwiseSummary, Rate};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// The gaps reported: fairlearn's names and the crate's metric.
const GAPS: [(&str, GapMetric); 3] = [
    (
        "demographic_parity_difference",
        GapMetric::Rate(Rate::Selection),
    ),
    (
        "equal_opportunity_difference",
        GapMetric::Rate(Rate::TruePositive),
    ),
    ("equalized_odds_difference", GapMetric::EqualizedOdds),
];

/// Everything computed from the state, before conversion to Python (computed without the GIL).
struct Computed {
    confusion: ConfusionState,
    rates: Vec<(&'static str, RateIntervals)>,
    gaps: Vec<(&'static str, Result<GapInference, MetricError>)>,
    scores: Option<ScoreMetrics>,
}

struct ScoreMetrics {
    names: Vec<String>,
    auc: Result<Vec<Option<f64>>, MetricError>,
    ks_dp: Result<PairwiseSummary, MetricError>,
    ks_eo: Result<PairwiseSummary, MetricError>,
    partial_sp: Result<PairwiseSummary, MetricError>,
}

/// The audit of an encoded state as a dict (see `fairkit/spark/_result.py` for its fields).
///
/// `scores` is `(segment, totals)`: the merged score segments of a distributed sweep
/// (`ScoreSegment.sweep` per range partition, `merge_segments` from the highest range down) and
/// the score totals of all rows, or `None` without a score column.
/// `ci_method` is `"wilson"` or `"clopper-pearson"`; the gaps use a seeded stratified bootstrap
/// and permutation test with `n_resamples` draws each; `partial_interval` is the percentile
/// interval `[alpha, beta)` of partial SP.
#[pyfunction]
#[pyo3(signature = (confusion, scores, confidence, ci_method, n_resamples, seed, partial_interval, n_sensitive=1))]
#[allow(clippy::too_many_arguments)] // mirrors the Python keyword arguments one to one
pub fn audit_report<'py>(
    py: Python<'py>,
    confusion: Vec<u8>,
    scores: Option<(Vec<u8>, Vec<u8>)>,
    confidence: f64,
    ci_method: &str,
    n_resamples: usize,
    seed: u64,
    partial_interval: (f64, f64),
    n_sensitive: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let method = crate::metrics::intervals::ci_method_by_name("ci_method", ci_method)?;
    let settings = GapSettings {
        confidence,
        n_resamples,
        seed,
        ..GapSettings::default()
    };
    let computed = py
        .detach(|| {
            let state = ConfusionState::from_bytes(&confusion)?;
            if state.is_empty() {
                return Err(MetricError::Empty {
                    what: "audit (no rows in any partition)",
                });
            }
            let rates = crate::metrics::RATE_NAMES
                .iter()
                .map(|&(n, r)| Ok((n, rate_intervals(&state, r, confidence, method)?)))
                .collect::<Result<Vec<_>, MetricError>>()?;
            let two_groups = state.group_names().len() >= 2;
            let gaps = if two_groups {
                GAPS.iter()
                    .map(|&(n, m)| (n, gap_inference(&state, m, &settings)))
                    .collect()
            } else {
                Vec::new()
            };
            PercentileInterval::new(partial_interval.0, partial_interval.1)?;
            let scores = scores
                .map(|(seg, tot)| {
                    score_metrics(
                        state.group_names(),
                        n_sensitive,
                        &seg,
                        &tot,
                        partial_interval,
                    )
                })
                .transpose()?;
            Ok(Computed {
                confusion: state,
                rates,
                gaps,
                scores,
            })
        })
        .map_err(to_py_err)?;
    to_dict(py, computed, confidence, method)
}

fn score_metrics(
    names: Vec<String>,
    n_sensitive: usize,
    segment: &[u8],
    totals: &[u8],
    interval: (f64, f64),
) -> Result<ScoreMetrics, MetricError> {
    let totals = StreamTotals::from_bytes(totals)?;
    let settings = super::scores::settings(interval)?;
    let slices = super::scores::audit_slices(names.clone(), n_sensitive).map_err(|e| {
        MetricError::InvalidParameter {
            name: "group names",
            value: e.to_string(),
            expected: "one value per sensitive column in every group name",
        }
    })?;
    let out = SegmentScores::from_bytes(segment)?.finish(&slices, &totals, &settings)?;
    // The first slice is the finest groups (see `audit_slices`).
    let s = out.into_iter().next().ok_or(MetricError::Empty {
        what: "score slices",
    })?;
    let psp = s.psp.unwrap_or(Err(MetricError::Empty {
        what: "partial SP interval",
    }));
    Ok(ScoreMetrics {
        names,
        auc: Ok(s.auc_by_group),
        ks_dp: s.ks_dp.map(|g| g.summary),
        ks_eo: s.ks_eo.map(|g| g.summary),
        partial_sp: psp.map(|g| g.summary),
    })
}

fn to_dict<'py>(
    py: Python<'py>,
    c: Computed,
    confidence: f64,
    method: RateCiMethod,
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    let names = c.confusion.group_names();
    let rows: Vec<u64> = names
        .iter()
        .map(|n| c.confusion.rows(n).unwrap_or(0))
        .collect();
    out.set_item("groups", &names)?;
    out.set_item("rows", rows)?;
    out.set_item("total_rows", c.confusion.total_rows())?;
    out.set_item("weighted", c.confusion.is_weighted())?;
    out.set_item("confidence", confidence)?;
    out.set_item(
        "ci_method",
        match method {
            RateCiMethod::Wilson => "wilson",
            RateCiMethod::ClopperPearson => "clopper-pearson",
        },
    )?;
    let rates = PyDict::new(py);
    for (name, ri) in &c.rates {
        let d = PyDict::new(py);
        d.set_item(
            "by_group",
            ri.groups.iter().map(|g| g.estimate).collect::<Vec<_>>(),
        )?;
        d.set_item(
            "lower",
            ri.groups
                .iter()
                .map(|g| g.interval.map(|i| i.lower))
                .collect::<Vec<_>>(),
        )?;
        d.set_item(
            "upper",
            ri.groups
                .iter()
                .map(|g| g.interval.map(|i| i.upper))
                .collect::<Vec<_>>(),
        )?;
        d.set_item(
            "effective_n",
            ri.groups.iter().map(|g| g.effective_n).collect::<Vec<_>>(),
        )?;
        let o = PyDict::new(py);
        o.set_item("estimate", ri.overall.estimate)?;
        o.set_item("lower", ri.overall.interval.map(|i| i.lower))?;
        o.set_item("upper", ri.overall.interval.map(|i| i.upper))?;
        o.set_item("effective_n", ri.overall.effective_n)?;
        d.set_item("overall", o)?;
        rates.set_item(*name, d)?;
    }
    out.set_item("rates", rates)?;
    let gaps = PyDict::new(py);
    for (name, g) in &c.gaps {
        let d = PyDict::new(py);
        match g {
            Ok(g) => {
                d.set_item("estimate", g.estimate)?;
                d.set_item("lower", g.interval.lower)?;
                d.set_item("upper", g.interval.upper)?;
                d.set_item("p_value", g.p_value)?;
                d.set_item("n_resamples", g.n_resamples)?;
                d.set_item("n_permutations", g.n_permutations)?;
                d.set_item("seed", g.seed)?;
                d.set_item("approximate", g.approximate)?;
            }
            Err(e) => d.set_item("error", e.to_string())?,
        }
        gaps.set_item(*name, d)?;
    }
    out.set_item("gaps", gaps)?;
    match c.scores {
        None => out.set_item("scores", py.None())?,
        Some(s) => {
            let d = PyDict::new(py);
            d.set_item("groups", &s.names)?;
            match s.auc {
                Ok(v) => d.set_item("auc_by_group", v)?,
                Err(e) => d.set_item("auc_by_group", error_dict(py, &e)?)?,
            }
            for (key, r) in [
                ("ks_demographic_parity", &s.ks_dp),
                ("ks_equal_opportunity", &s.ks_eo),
                ("partial_statistical_parity", &s.partial_sp),
            ] {
                d.set_item(key, pairwise(py, r)?)?;
            }
            out.set_item("scores", d)?;
        }
    }
    Ok(out)
}

fn error_dict<'py>(py: Python<'py>, e: &MetricError) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("error", e.to_string())?;
    Ok(d)
}

/// `{"value", "worst_pair": [name, name], "matrix": [[..]]}` or `{"error": message}`.
fn pairwise<'py>(
    py: Python<'py>,
    r: &Result<PairwiseSummary, MetricError>,
) -> PyResult<Bound<'py, PyDict>> {
    let s = match r {
        Ok(s) => s,
        Err(e) => return error_dict(py, e),
    };
    let d = PyDict::new(py);
    let k = s.names.len();
    d.set_item("value", s.max)?;
    d.set_item(
        "worst_pair",
        (
            s.names[s.worst_pair.first].clone(),
            s.names[s.worst_pair.second].clone(),
        ),
    )?;
    let matrix = PyList::empty(py);
    for a in 0..k {
        matrix.append((0..k).map(|b| s.matrix[(a, b)]).collect::<Vec<_>>())?;
    }
    d.set_item("matrix", matrix)?;
    Ok(d)
}
