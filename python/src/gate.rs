//! `fairkit._core.check_report`: the `--fail-if` gates of `fairkit audit`, evaluated on a
//! report.json text by the same code (`fair_audit::fail_if`): the same keys, the same fairlearn
//! aliases, the same errors.

use crate::convert::to_py;
use crate::errors::to_py_err;
use pyo3::prelude::*;
use serde::Serialize;

/// Evaluates gate expressions on a schema-v1 report.json text.
///
/// Each expression is `key op number` comparisons joined by `and`/`or` (`&&`/`||`), e.g.
/// `"dp_difference > 0.1 or eo_ratio < 0.8"`; keys are the report's headline keys, and
/// fairlearn's names (`demographic_parity_difference`, …) are accepted as aliases.
///
/// Returns one dict per expression: `expression` (str), `failed` (bool: the expression held)
/// and `comparisons` (a list of dicts: `comparison` str, `actual` float, `holds` bool).
///
/// Raises `FairkitError` for an expression that does not parse or names an unknown key, a text
/// that is not a schema-v1 report, or a key the audit did not compute.
#[pyfunction]
#[pyo3(signature = (report_json, expressions))]
pub fn check_report<'py>(
    py: Python<'py>,
    report_json: &str,
    expressions: Vec<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let outcomes = fair_audit::fail_if::check_json(report_json, &expressions).map_err(to_py_err)?;
    // `FailIfOutcome` / `ComparisonOutcome` are the crate's serde models: a list of
    // `{"expression", "failed", "comparisons": [{"comparison", "actual", "holds"}]}`.
    to_py(py, &outcomes)
}

/// fairlearn's gap names and the report key each stands for, in the order of the one table
/// (`fair_audit::fail_if::ALIASES`): what `AuditResult` accepts wherever a gap is named.
#[pyfunction]
pub fn gap_aliases() -> Vec<(&'static str, &'static str)> {
    fair_audit::fail_if::ALIASES
        .iter()
        .map(|a| (a.name, a.key.as_str()))
        .collect()
}

/// Compares two report.json texts gap by gap, as `fairkit compare` does
/// (`fair_audit::compare`): `{"json": str, "markdown": str, "html": str, "figures": {relative
/// path: SVG}}`, the JSON holding
/// every gap before and after with the change, its bootstrap interval and p-value.
///
/// Raises `FairkitError` for a text that is not an unweighted fairkit audit report, reports
/// with no slice in common, or a bad setting.
///
/// `fail_if`: gate expressions as `fairkit compare --fail-if` takes them (`change(KEY)`,
/// `p(KEY)` / a bare `p`, plain keys of the after audit); their verdicts are the JSON's
/// `fail_if`.
///
/// `allow_partial`: compare what the two audits share when their slices, thresholds or groups
/// do not match (otherwise `FairkitError` names the differences), as `--allow-partial`.
#[pyfunction]
#[pyo3(signature = (before_json, after_json, confidence, n_resamples, seed, fail_if = Vec::new(), allow_partial = false))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, one each
pub fn compare_reports<'py>(
    py: Python<'py>,
    before_json: &str,
    after_json: &str,
    confidence: f64,
    n_resamples: usize,
    seed: u64,
    fail_if: Vec<String>,
    allow_partial: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let gates = fair_audit::fail_if::parse_all(&fail_if).map_err(to_py_err)?;
    let parse = |which: &str, text: &str| {
        fair_audit::model::AuditReport::from_json(text)
            .map_err(|e| to_py_err(format!("{which} is not a fairkit-audit v1 report: {e}")))
    };
    let (a, b) = (parse("before", before_json)?, parse("after", after_json)?);
    let mut c = py
        .detach(|| {
            let partial = if allow_partial {
                fair_audit::compare::Partial::Allow
            } else {
                fair_audit::compare::Partial::Refuse
            };
            fair_audit::compare::compare_reports_with(
                &a,
                &b,
                (confidence, n_resamples, seed),
                partial,
            )
        })
        .map_err(to_py_err)?;
    fair_audit::compare::gate(&mut c, &b, &gates).map_err(to_py_err)?;
    let json = serde_json::to_string_pretty(&c).map_err(to_py_err)?;
    let (markdown, html, figures) =
        fair_audit::compare::render_comparison(&c).map_err(to_py_err)?;
    to_py(
        py,
        &ComparedReports {
            json,
            markdown,
            html,
            figures,
        },
    )
}

/// `compare_reports`' dict as Python sees it (keys in this order), converted by
/// [`to_py`](crate::convert::to_py).
#[derive(Serialize)]
struct ComparedReports {
    json: String,
    markdown: String,
    html: String,
    /// `(relative path, SVG)` pairs, crossing as a dict in this order.
    #[serde(serialize_with = "crate::convert::pairs_as_map")]
    figures: Vec<(String, String)>,
}

/// Adds `check_report`, `gap_aliases` and `compare_reports` to the top-level `fairkit._core`
/// module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check_report, m)?)?;
    m.add_function(wrap_pyfunction!(compare_reports, m)?)?;
    m.add_function(wrap_pyfunction!(gap_aliases, m)?)
}
