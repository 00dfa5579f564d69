//! The `fairkit audit` command's report — schema-v1 JSON, markdown with SVG figures, and
//! self-contained HTML — for an audit computed from merged states (a Spark DataFrame, or a table
//! on one machine): `fair_audit` builds it from the finest groups' state exactly as the command
//! builds it from a file, each sensitive column's slice derived by merging finest groups.

use super::scores::audit_slices;
use crate::convert::to_py;
use crate::errors::{invalid, to_py_err};
use fair_audit::guard;
use fair_audit::ingest::AuditState;
use fair_audit::ingest::FlagStyle;
use fair_audit::request::{AuditRequest, CheckedRequest};
use fair_audit::run::{Inputs, Origin, ScoreSlices, ScoreSource, States};
use fair_core::ParamGuard;
use fair_metrics::score_sweep::{SegmentScores, SliceScores, StreamTotals};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyDictMethods};
use serde::Serialize;

/// The Python keyword argument of a request key (`audit(..., n_resamples=...)` is the
/// request's `resamples`); the other keys are spelled as in Python.
fn python_name(key: &str) -> &str {
    match key {
        "resamples" => "n_resamples",
        "interval" => "partial_interval",
        other => other,
    }
}

/// The audit request of a dict of request keys (`fair_audit::request::AuditRequest`), checked
/// by its one check; a bad value raises `FairkitError` naming the Python keyword argument.
pub(crate) fn checked_request(request: &Bound<'_, PyAny>) -> PyResult<CheckedRequest> {
    let raw: AuditRequest = match pythonize::depythonize(request) {
        Ok(r) => r,
        Err(e) => return Err(invalid(request_type_error(request, &e.to_string()))),
    };
    raw.check().map_err(|e| {
        invalid(format!(
            "invalid {} '{}': {}",
            python_name(e.param),
            e.value,
            e.expected
        ))
    })
}

/// The message of a request that does not deserialise, naming the keyword argument at fault
/// (each key is tried alone: every other key has a default).
fn request_type_error(request: &Bound<'_, PyAny>, message: &str) -> String {
    if let Ok(dict) = request.cast::<PyDict>() {
        for (key, value) in dict.iter() {
            let one = PyDict::new(request.py());
            if one.set_item(&key, value).is_err() {
                continue;
            }
            if let Err(e) = pythonize::depythonize::<AuditRequest>(one.as_any()) {
                let key: String = key.extract().unwrap_or_else(|_| key.to_string());
                return format!("{}: {e}", python_name(&key));
            }
        }
    }
    format!("audit settings: {message}")
}

/// The request's defaults (the `fairkit audit` command's), for the Python signatures: one
/// source of truth for `confidence`, `n_resamples`, `min_group_size`, ….
#[pyfunction]
pub fn audit_defaults<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
    to_py(py, &AuditRequest::default())
}

/// Checks an audit request (a dict of request keys) with the library's one check, before any
/// row is read: raises `FairkitError` naming the keyword argument.
#[pyfunction]
pub fn check_request(request: &Bound<'_, PyAny>) -> PyResult<()> {
    checked_request(request).map(|_| ())
}

/// The command's group guard on a merged audit state: raises, naming the column and the keyword
/// that allows it, for a sensitive column with one value, more than `max_groups` values, or
/// (without `max_groups`) a value on most rows. Called before the score pass, which grows with
/// the groups (`fair_audit::run` applies it again).
#[pyfunction]
#[pyo3(signature = (confusion, request))]
pub fn check_groups(
    py: Python<'_>,
    confusion: Vec<u8>,
    request: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let request = checked_request(request)?;
    py.detach(|| -> Result<(), fair_audit::AuditError> {
        let state = AuditState::from_bytes(&confusion)?;
        let (slices, states) = state.slice_states(&request.request.sensitive)?;
        match states.first() {
            Some(first) => guard::check_groups(&slices, first, &request.limits, FlagStyle::Python),
            None => Ok(()),
        }
    })
    .map_err(to_py_err)
}

/// The score metrics of Spark and `audit_arrow`: the merged score segment and its totals,
/// swept (`ScoreSegment.sweep(..., n_sensitive=len(sensitive))`) with the slices of
/// [`audit_slices`].
struct MergedSegment<'a> {
    segment: &'a [u8],
    totals: &'a [u8],
}

impl ScoreSource for MergedSegment<'_> {
    type Error = fair_audit::AuditError;

    fn score_metrics(self, at: ScoreSlices<'_>) -> Result<Vec<SliceScores>, Self::Error> {
        let metric = |what: &str| {
            let what = what.to_string();
            move |source| fair_audit::AuditError::Metric { what, source }
        };
        let totals = StreamTotals::from_bytes(self.totals).map_err(metric("score totals"))?;
        let maps = audit_slices(at.state.finest_names(), at.sensitive.len())?;
        let mut all = SegmentScores::from_bytes(self.segment)
            .and_then(|s| s.finish(&maps, &totals, at.settings))
            .map_err(metric("score metrics"))?;
        // One column: the finest groups are its slice; more: drop the finest slice (the
        // intersection comes last, named as the command names it).
        if at.sensitive.len() >= 2 {
            all.remove(0);
        }
        Ok(all)
    }
}

/// The report of an audit as `{"json", "markdown", "html": str or None, "figures": {path: svg}}`,
/// computed by `fair_audit::run` (the path of the `fairkit audit` command).
///
/// `confusion` is the merged state of the finest groups, `scores` the merged score segment and
/// totals (swept with `ScoreSegment.sweep(..., n_sensitive=len(sensitive))`) or `None`;
/// `request` the audit request (a dict of `fair_audit::request::AuditRequest` keys: the columns,
/// the statistics, `by`/`window`/`baseline`, `against`, …; missing keys take the command's
/// defaults); `source = (file description, format name)`; `views` names the wanted views among
/// `"json"`, `"md"`, `"html"` (the request's `formats` when `None`).
///
/// `by_state`: with `by`, the merged state of the same rows with the `by` column leading the
/// finest groups (as `fairkit audit --by` decodes them); the report gains the command's
/// `over_time` block. `against_state`: the same with the second model's prediction column
/// leading; the report gains the paired `comparison`.
#[pyfunction]
#[pyo3(signature = (confusion, scores, request, source, views = None, by_state = None, against_state = None))]
#[allow(clippy::too_many_arguments)]
pub fn audit_document<'py>(
    py: Python<'py>,
    confusion: Vec<u8>,
    scores: Option<(Vec<u8>, Vec<u8>)>,
    request: &Bound<'py, PyAny>,
    source: (String, String),
    views: Option<Vec<String>>,
    by_state: Option<Vec<u8>>,
    against_state: Option<Vec<u8>>,
) -> PyResult<Bound<'py, PyAny>> {
    let request = checked_request(request)?;
    let wanted = match views {
        None => request.views,
        Some(views) => {
            let mut formats = Vec::with_capacity(views.len());
            for v in &views {
                formats.push(
                    v.parse::<fair_audit::ReportFormat>()
                        .map_err(|e| invalid(format!("formats: {e}")))?,
                );
            }
            fair_audit::ReportFormat::views(&formats)
        }
    };
    let text = py
        .detach(|| -> Result<fair_audit::Rendered, fair_audit::AuditError> {
            let state = AuditState::from_bytes(&confusion)?;
            let by = by_state
                .as_deref()
                .map(AuditState::from_bytes)
                .transpose()?;
            let against = against_state
                .as_deref()
                .map(AuditState::from_bytes)
                .transpose()?;
            let origin = Origin {
                file: source.0.clone(),
                format: source.1.clone(),
                rows: state.total_rows(),
                positive_label: state.positive().to_string(),
                negative_label: state.negative().map(str::to_string),
            };
            let audit = fair_audit::run(
                &request,
                Inputs {
                    states: States {
                        all_rows: &state,
                        by: by.as_ref(),
                        against: against.as_ref(),
                    },
                    scores: scores
                        .as_ref()
                        .map(|(segment, totals)| MergedSegment { segment, totals }),
                    origin,
                    regression: None,
                    inferred: None,
                    ranking: None,
                },
                FlagStyle::Python,
            )?;
            fair_audit::render(&audit.report, &audit.charts, wanted)
        })
        .map_err(to_py_err)?;
    to_py(
        py,
        &RenderedOut {
            json: text.json,
            markdown: text.markdown,
            html: text.html,
            figures: text.figures,
        },
    )
}

/// The rendered audit as Python sees it (keys in this order; a view not asked for is None),
/// converted by [`to_py`](crate::convert::to_py).
#[derive(Serialize)]
pub(crate) struct RenderedOut {
    pub(crate) json: Option<String>,
    pub(crate) markdown: Option<String>,
    pub(crate) html: Option<String>,
    /// `(relative path, SVG)` pairs, crossing as a dict in this order.
    #[serde(serialize_with = "crate::convert::pairs_as_map")]
    pub(crate) figures: Vec<(String, String)>,
}
