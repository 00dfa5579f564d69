//! The `fairkit audit` command's report — schema-v1 JSON, markdown with SVG figures, and
//! self-contained HTML — for an audit computed from merged states (a Spark DataFrame, or a table
//! on one machine): `fair_audit` builds it from the finest groups' state exactly as the command
//! builds it from a file, each sensitive column's slice derived by merging finest groups.

use super::scores::{audit_slices, settings};
use crate::convert::to_py;
use crate::errors::{invalid, to_py_err};
use fair_audit::guard::{self, DEFAULT_MAX_GROUPS, GroupLimits};
use fair_audit::ingest::AuditState;
use fair_audit::ingest::FlagStyle;
use fair_audit::model::{Columns, InputInfo};
use fair_audit::{ReportSpec, Stats, Views};
use fair_metrics::ci::RateCiMethod;
use fair_metrics::partial::PercentileInterval;
use fair_metrics::score_sweep::{SegmentScores, StreamTotals};
use pyo3::prelude::*;
use serde::Serialize;

/// The roles of the audited columns: `(label, prediction, score, weight, sensitive)`.
type ColumnRoles = (String, String, Option<String>, Option<String>, Vec<String>);

/// The statistics settings: `(confidence, ci_method, n_resamples, seed, partial_interval,
/// min_group_size, max_groups, allow_single_group)`.
type StatSettings = (
    f64,
    String,
    usize,
    u64,
    (f64, f64),
    u64,
    Option<usize>,
    bool,
);

/// The group guard's limits from the Python arguments (`max_groups=None`: the default limit,
/// with the identifier check).
fn limits(max_groups: Option<usize>, allow_single_group: bool) -> GroupLimits {
    GroupLimits {
        max_groups: max_groups.unwrap_or(DEFAULT_MAX_GROUPS),
        max_groups_given: max_groups.is_some(),
        allow_single_group,
    }
}

/// The command's group guard on a merged audit state: raises, naming the column and the keyword
/// that allows it, for a sensitive column with one value, more than `max_groups` values, or
/// (without `max_groups`) a value on most rows. Called before the score pass, which grows with
/// the groups.
#[pyfunction]
#[pyo3(signature = (confusion, sensitive, max_groups, allow_single_group))]
pub fn check_groups(
    py: Python<'_>,
    confusion: Vec<u8>,
    sensitive: Vec<String>,
    max_groups: Option<usize>,
    allow_single_group: bool,
) -> PyResult<()> {
    py.detach(|| -> Result<(), fair_audit::AuditError> {
        let state = AuditState::from_bytes(&confusion)?;
        let (slices, states) = state.slice_states(&sensitive)?;
        let limits = limits(max_groups, allow_single_group);
        match states.first() {
            Some(first) => guard::check_groups(&slices, first, &limits, FlagStyle::Python),
            None => Ok(()),
        }
    })
    .map_err(to_py_err)
}

/// The report of an audit as `{"json", "markdown", "html": str or None, "figures": {path: svg}}`.
///
/// `confusion` is the merged state of the finest groups, `scores` the merged score segment and
/// totals (swept with `ScoreSegment.sweep(..., n_sensitive=len(sensitive))`) or `None`;
/// `source = (file description, format name, positive label)`; `views` names the wanted views
/// among `"json"`, `"md"`, `"html"`.
///
/// `over_time = (state, column, window, baseline)`: the merged state of the same rows with the
/// `by` column leading the finest groups (as `fairkit audit --by` decodes them), and the window
/// and baseline names; the report gains the command's `over_time` block. `against = (state,
/// column)`: the same with the second model's prediction column leading; the report gains the
/// paired `comparison`.
#[pyfunction]
#[pyo3(signature = (confusion, scores, columns, stats, source, views, over_time = None, against = None))]
#[allow(clippy::too_many_arguments)]
pub fn audit_document<'py>(
    py: Python<'py>,
    confusion: Vec<u8>,
    scores: Option<(Vec<u8>, Vec<u8>)>,
    columns: ColumnRoles,
    stats: StatSettings,
    source: (String, String, String),
    views: Vec<String>,
    over_time: Option<(Vec<u8>, String, String, String)>,
    against: Option<(Vec<u8>, String)>,
) -> PyResult<Bound<'py, PyAny>> {
    let over_time_spec = match &over_time {
        None => None,
        Some((_, column, window, baseline)) => Some(fair_audit::over_time::OverTimeSpec {
            column: column.clone(),
            window: window
                .parse()
                .map_err(|e: String| invalid(format!("window: {e}")))?,
            baseline: baseline
                .parse()
                .map_err(|e: String| invalid(format!("baseline: {e}")))?,
            timezone: None,
        }),
    };
    let (label, prediction, score, weight, sensitive) = columns;
    let (confidence, ci_method, resamples, seed, interval, min_group_size, max_groups, allow_one) =
        stats;
    let method: RateCiMethod =
        crate::metrics::intervals::ci_method_by_name("ci_method", &ci_method)?;
    let mut wanted = Views {
        json: false,
        markdown: false,
        html: false,
    };
    for v in &views {
        match v.as_str() {
            "json" => wanted.json = true,
            "md" | "markdown" => wanted.markdown = true,
            "html" => wanted.html = true,
            other => {
                return Err(invalid(format!(
                    "unknown report format {other:?}: expected \"json\", \"md\" or \"html\""
                )));
            }
        }
    }
    let text = py
        .detach(|| -> Result<fair_audit::Rendered, fair_audit::AuditError> {
            let metric = |what: &str| {
                let what = what.to_string();
                move |source| fair_audit::AuditError::Metric { what, source }
            };
            let stats = Stats {
                confidence,
                method,
                resamples,
                seed,
                min_group_size,
            };
            let state = AuditState::from_bytes(&confusion)?;
            let names = state.finest_names();
            let (slices, states) = state.slice_states(&sensitive)?;
            if let Some(first) = states.first() {
                let limits = limits(max_groups, allow_one);
                guard::check_groups(&slices, first, &limits, FlagStyle::Python)?;
            }
            let interval_checked =
                PercentileInterval::new(interval.0, interval.1).map_err(metric("interval"))?;
            let score_slices = match &scores {
                None => None,
                Some((segment, totals)) => {
                    let totals =
                        StreamTotals::from_bytes(totals).map_err(metric("score totals"))?;
                    let sweep = settings(interval).map_err(metric("interval"))?;
                    let maps = audit_slices(names.clone(), sensitive.len())?;
                    let mut all = SegmentScores::from_bytes(segment)
                        .and_then(|s| s.finish(&maps, &totals, &sweep))
                        .map_err(metric("score metrics"))?;
                    // One column: the finest groups are its slice; more: drop the finest slice
                    // (the intersection comes last, named as the command names it).
                    if sensitive.len() >= 2 {
                        all.remove(0);
                    }
                    Some(all)
                }
            };
            let spec = ReportSpec {
                input: InputInfo {
                    file: source.0.clone(),
                    format: source.1.clone(),
                    rows: state.total_rows(),
                    columns: Columns {
                        label: label.clone(),
                        prediction: Some(prediction.clone()),
                        score: score.clone(),
                        sensitive: sensitive.clone(),
                        weight: weight.clone(),
                    },
                    positive_label: state.positive().to_string(),
                    negative_label: state.negative().map(str::to_string),
                },
                slices,
                stats,
                thresholds: Vec::new(),
                interval: score.as_ref().map(|_| interval_checked),
                weighted: state.is_weighted(),
            };
            let (mut report, charts) =
                fair_audit::build_report(&spec, &states, score_slices.as_deref())?;
            if let (Some((bytes, ..)), Some(spec)) = (&over_time, &over_time_spec) {
                let led = AuditState::from_bytes(bytes)?;
                let bucketed = fair_audit::over_time::bucket(&led, spec)?;
                let ot = fair_audit::over_time::over_time(&bucketed, &sensitive, spec, &stats)?;
                fair_audit::over_time::attach(&mut report, ot);
            }
            if let Some((bytes, column)) = &against {
                let led = AuditState::from_bytes(bytes)?;
                let is_positive =
                    fair_audit::compare::second_model_coder(led.positive(), led.negative());
                let side = |c: &str| fair_audit::compare::Side {
                    file: format!("{} ({c})", source.0),
                    rows: led.total_rows(),
                };
                let c = fair_audit::compare::compare_paired(
                    &led,
                    &sensitive,
                    &is_positive,
                    (side(&prediction), side(column)),
                    &stats,
                )?;
                fair_audit::compare::attach(&mut report, c);
            }
            fair_audit::render(&report, &charts, wanted)
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
struct RenderedOut {
    json: Option<String>,
    markdown: Option<String>,
    html: Option<String>,
    /// `(relative path, SVG)` pairs, crossing as a dict in this order.
    #[serde(serialize_with = "crate::convert::pairs_as_map")]
    figures: Vec<(String, String)>,
}
