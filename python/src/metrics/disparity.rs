//! Reference-group disparities (Aequitas' model) from `fair_metrics::disparity`: one confusion
//! per attribute, the reference and τ validated here in Rust, rows back to Python as records.

use crate::convert::{BinaryArray, contiguous, i64_as_usize, to_py, weights_slice};
use crate::errors::{invalid, to_py_err};
use fair_data::Groups;
use fair_metrics::GroupConfusion;
use fair_metrics::disparity::{self, DisparityOptions, DisparityRate, Reference};
use numpy::PyReadonlyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde::Serialize;

/// Adds `disparities` and the column spellings to `fairkit._core.metrics`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(disparities, m)?)?;
    let keys: Vec<&str> = DisparityRate::ALL.iter().map(|r| r.key()).collect();
    let parity: Vec<&str> = DisparityRate::ALL.iter().map(|r| r.parity_name()).collect();
    m.add("DISPARITY_RATES", keys)?;
    m.add("DISPARITY_PARITY_NAMES", parity)?;
    Ok(())
}

/// The reference of each attribute from Python's `reference`: `"largest"`, `"min_metric"`, or a
/// dict naming one group (a string) for every attribute and nothing else.
fn references(reference: &Bound<'_, PyAny>, attributes: &[String]) -> PyResult<Vec<Reference>> {
    if let Ok(s) = reference.extract::<String>() {
        let r = match s.as_str() {
            "largest" => Reference::Largest,
            "min_metric" => Reference::MinMetric,
            other => {
                return Err(invalid(format!(
                    "reference must be 'largest', 'min_metric' or a dict {{attribute: group}}, got {other:?}"
                )));
            }
        };
        return Ok(vec![r; attributes.len()]);
    }
    let Ok(dict) = reference.cast::<PyDict>() else {
        return Err(invalid(format!(
            "reference must be 'largest', 'min_metric' or a dict {{attribute: group}}, got {}",
            reference.repr()?
        )));
    };
    for key in dict.keys() {
        let name: String = key.extract().map_err(|_| {
            invalid(format!(
                "reference dict keys must be attribute names (str), got {key}"
            ))
        })?;
        if !attributes.contains(&name) {
            return Err(invalid(format!(
                "reference names attribute {name:?}, which is not a sensitive feature (they are: {})",
                attributes.join(", ")
            )));
        }
    }
    attributes
        .iter()
        .map(|a| match dict.get_item(a)? {
            Some(v) => Ok(Reference::Named(v.extract::<String>().map_err(|_| {
                invalid(format!("reference group of {a:?} must be a str, got {v}"))
            })?)),
            None => Err(invalid(format!(
                "reference names no group for attribute {a:?}: name one for every sensitive feature (as Aequitas requires), or use 'largest' / 'min_metric'"
            ))),
        })
        .collect()
}

/// Aequitas' disparity frame as records. `attributes` holds `(name, codes, group names)` per
/// sensitive feature (codes index the names; every name must have rows); `reference` as in
/// [`references`]. Returns a list of dicts, one per (attribute, group), with the counts, the
/// rates (`values`), `ref_groups`, `ref_values`, `disparities`, `parities`, `p_values`,
/// `significant` (all in `DISPARITY_RATES` order), the composites and the label/score tests.
#[pyfunction]
#[pyo3(signature = (y_true, y_pred, attributes, reference, sample_weight=None, tau=0.8, alpha=0.05))]
#[allow(clippy::too_many_arguments)] // mirrors the Python keyword arguments one to one
fn disparities<'py>(
    py: Python<'py>,
    y_true: BinaryArray<'py>,
    y_pred: BinaryArray<'py>,
    attributes: Vec<(String, PyReadonlyArray1<'py, i64>, Vec<String>)>,
    reference: Bound<'py, PyAny>,
    sample_weight: Option<PyReadonlyArray1<'py, f64>>,
    tau: f64,
    alpha: f64,
) -> PyResult<Bound<'py, PyAny>> {
    let names: Vec<String> = attributes.iter().map(|a| a.0.clone()).collect();
    let refs = references(&reference, &names)?;
    let options = DisparityOptions {
        tau,
        alpha,
        ..Default::default()
    };
    options.validate().map_err(to_py_err)?;
    let (yt, yp) = (y_true.slice("y_true")?, y_pred.slice("y_pred")?);
    let (yt, yp) = (yt.to_usize(), yp.to_usize());
    let w = weights_slice(&sample_weight)?;
    let mut confusions = Vec::with_capacity(attributes.len());
    for (name, codes, groups) in &attributes {
        let codes = contiguous(codes.as_slice(), "sensitive feature codes")?;
        let groups = Groups::new(i64_as_usize(codes).into_owned(), groups.clone())
            .map_err(|e| invalid(format!("sensitive feature {name:?}: {e}")))?;
        confusions.push(groups);
    }
    let out = py
        .detach(|| {
            let gcs = confusions
                .iter()
                .map(|g| exact_confusion(&yt, &yp, g, w))
                .collect::<Result<Vec<_>, _>>()?;
            let args: Vec<(&str, &GroupConfusion, Reference)> = names
                .iter()
                .zip(&gcs)
                .zip(refs)
                .map(|((n, g), r)| (n.as_str(), g, r))
                .collect();
            disparity::disparities(&args, &options)
        })
        .map_err(to_py_err)?;
    let rows: Vec<Row> = out
        .iter()
        .flat_map(|a| {
            a.groups.iter().map(|g| Row {
                attribute_name: a.attribute.clone(),
                attribute_value: g.group.clone(),
                k: a.predicted_positives,
                total_entities: a.total,
                tp: g.counts.tp,
                fp: g.counts.fp,
                tn: g.counts.tn,
                fn_: g.counts.fn_,
                group_size: g.size,
                accuracy: g.accuracy,
                prev: g.prevalence,
                values: g.rates.iter().map(|r| r.value).collect(),
                ref_groups: g.rates.iter().map(|r| r.reference_group.clone()).collect(),
                ref_values: g.rates.iter().map(|r| r.reference_value).collect(),
                disparities: g.rates.iter().map(|r| r.disparity).collect(),
                parities: g.rates.iter().map(|r| r.parity).collect(),
                p_values: g.rates.iter().map(|r| r.p_value).collect(),
                significant: g.rates.iter().map(|r| r.significant).collect(),
                type_i: g.composite.type_i,
                type_ii: g.composite.type_ii,
                equalized_odds: g.composite.equalized_odds,
                unsupervised: g.composite.unsupervised,
                supervised: g.composite.supervised,
                label_value_p: g.label_value_significance.p_value,
                label_value_significant: g.label_value_significance.significant,
                score_p: g.score_significance.p_value,
                score_significant: g.score_significance.significant,
            })
        })
        .collect();
    to_py(py, &rows)
}

/// One attribute's confusion; weighted counts are exact sums (row order cannot change a bit).
fn exact_confusion(
    y_true: &[usize],
    y_pred: &[usize],
    groups: &Groups,
    weights: Option<&[f64]>,
) -> Result<GroupConfusion, fair_metrics::MetricError> {
    match weights {
        None => GroupConfusion::new(y_true, y_pred, groups, None),
        Some(w) => {
            let (sums, pooled) = GroupConfusion::count_codes_exact_sums(
                y_true,
                y_pred,
                groups.codes(),
                groups.n_groups(),
                w,
            )?;
            GroupConfusion::from_cell_sums(groups.names().to_vec(), sums, pooled)
        }
    }
}

/// One (attribute, group) record as Python sees it.
#[derive(Serialize)]
struct Row {
    attribute_name: String,
    attribute_value: String,
    k: f64,
    total_entities: f64,
    tp: f64,
    fp: f64,
    tn: f64,
    #[serde(rename = "fn")]
    fn_: f64,
    group_size: f64,
    accuracy: Option<f64>,
    prev: Option<f64>,
    values: Vec<Option<f64>>,
    ref_groups: Vec<String>,
    ref_values: Vec<Option<f64>>,
    disparities: Vec<Option<f64>>,
    parities: Vec<Option<bool>>,
    p_values: Vec<Option<f64>>,
    significant: Vec<Option<bool>>,
    type_i: Option<bool>,
    type_ii: Option<bool>,
    equalized_odds: Option<bool>,
    unsupervised: Option<bool>,
    supervised: Option<bool>,
    label_value_p: Option<f64>,
    label_value_significant: Option<bool>,
    score_p: Option<f64>,
    score_significant: Option<bool>,
}
