//! `fairkit._core.audit_files`: `fairkit.audit(path)` reads CSV and Parquet files (one file, several,
//! or a folder of parts; gzip/zstd) with the `fairkit audit` command's own readers and decoder,
//! so a file audited from Python and by the command gives the same report. The audit keeps its
//! report and chart data in a [`FileAudit`], which renders any view on demand.

use crate::convert::to_py;
use crate::errors::{invalid, to_py_err};
use crate::spark::document::checked_request;
use fair_audit::ingest::FlagStyle;
use fairkit_cli::cli::AuditArgs;
use fairkit_cli::input::Format;
use pyo3::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Adds `audit_files` and `FileAudit` to the top-level `fairkit._core` module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<FileAudit>()?;
    m.add_function(wrap_pyfunction!(audit_files, m)?)
}

/// How the files are read (the command's reading flags), as a dict.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct ReadSettings {
    /// The value of a positive label (`--pos-label`).
    pos_label: Option<String>,
    /// The value of a negative label (`--neg-label`).
    neg_label: Option<String>,
    /// CSV field delimiter (`--delimiter`).
    delimiter: Option<String>,
    /// `csv` or `parquet` when the extension does not say (`--input-format`).
    input_format: Option<String>,
    /// Memory for exact score metrics before spilling to disk (`--memory-budget`).
    memory_budget: Option<String>,
    /// What the report calls the input and its format, instead of the files' paths (a
    /// DataFrame written to a temporary Parquet file for the audit of a numeric target).
    describe_as: Option<(String, String)>,
}

/// An audit of files: the report and the data of its charts.
#[pyclass(module = "fairkit._core", frozen)]
pub struct FileAudit {
    audit: fair_audit::Audit,
}

#[pymethods]
impl FileAudit {
    /// The report in the views asked for (`"json"`, `"md"`, `"html"`):
    /// `{"json", "markdown", "html", "figures"}`, a view not asked for `None`.
    fn render<'py>(&self, py: Python<'py>, views: Vec<String>) -> PyResult<Bound<'py, PyAny>> {
        let mut formats = Vec::with_capacity(views.len());
        for v in &views {
            formats.push(
                v.parse::<fair_audit::ReportFormat>()
                    .map_err(|e| invalid(format!("formats: {e}")))?,
            );
        }
        let text = fair_audit::render(
            &self.audit.report,
            &self.audit.charts,
            fair_audit::ReportFormat::views(&formats),
        )
        .map_err(to_py_err)?;
        to_py(
            py,
            &Rendered {
                json: text.json,
                markdown: text.markdown,
                html: text.html,
                figures: text.figures,
            },
        )
    }
}

/// The rendered views as Python sees them (keys in this order).
#[derive(Serialize)]
struct Rendered {
    json: Option<String>,
    markdown: Option<String>,
    html: Option<String>,
    #[serde(serialize_with = "crate::convert::pairs_as_map")]
    figures: Vec<(String, String)>,
}

/// Audits `inputs` (paths: files, or folders of parts) with the command's readers under
/// `request` (the audit request's keys, checked by the library's one check, errors naming the
/// Python keyword) and `read` (see [`ReadSettings`]). The GIL is released while reading.
#[pyfunction]
#[pyo3(signature = (inputs, request, read))]
fn audit_files(
    py: Python<'_>,
    inputs: Vec<PathBuf>,
    request: &Bound<'_, PyAny>,
    read: &Bound<'_, PyAny>,
) -> PyResult<FileAudit> {
    if inputs.is_empty() {
        return Err(invalid("data: no file given"));
    }
    let checked = checked_request(request)?;
    let read: ReadSettings = crate::convert::from_kwargs(read, "fairkit.audit", str::to_string)?;
    // The command's own arguments, defaults included, then the request's values: one reader
    // path and one set of defaults for the command and Python.
    let r = checked.request;
    let mut args = AuditArgs::with_defaults(inputs, &r.label, &[]);
    args.target = r.target;
    args.quantile = r.quantile;
    args.pred = r.pred;
    args.score = r.score;
    args.weight = r.weight;
    args.sensitive = r.sensitive;
    args.unknowns = r.unknowns;
    args.unknown_values = r.unknown_values;
    args.confidence = r.confidence;
    args.ci_method = r.ci_method;
    args.resamples = r.resamples;
    args.seed = r.seed;
    args.min_group_size = r.min_group_size;
    args.multiple_testing = r.multiple_testing;
    args.max_groups = r.max_groups;
    args.allow_single_group = r.allow_single_group;
    args.interval = r.interval;
    args.threshold = r.thresholds;
    args.by = r.by;
    args.window = r.window;
    args.baseline = r.baseline;
    args.timezone = r.timezone;
    args.against = r.against;
    args.fail_if = r.fail_if;
    args.disparity_reference = r.disparity_reference;
    args.tau = r.tau;
    // The command's spelling, ATTRIBUTE=COLUMN,COLUMN (read back by its request builder).
    args.sensitive_proba = r
        .sensitive_proba
        .iter()
        .map(|(a, c)| format!("{a}={}", c.join(",")))
        .collect();
    args.proxy = r.proxy;
    args.query = r.query;
    args.rank = r.rank;
    args.relevance = r.relevance;
    args.top_k = r.top_k;
    args.persistence = r.persistence;
    args.fair_p = r.fair_p;
    args.fair_alpha = r.fair_alpha;
    args.quiet = true;
    if let Some(p) = read.pos_label {
        args.pos_label = p;
    }
    args.neg_label = read.neg_label;
    if let Some(d) = read.delimiter {
        args.delimiter = d;
    }
    args.input_format = match read.input_format.as_deref() {
        None => None,
        Some("csv") => Some(Format::Csv),
        Some("parquet") => Some(Format::Parquet),
        Some(other) => {
            return Err(invalid(format!(
                "invalid input_format '{other}': expected \"csv\" or \"parquet\""
            )));
        }
    };
    args.memory_budget = read.memory_budget;
    let mut audit = py
        .detach(|| {
            fairkit_cli::audit::audit_input(&args, FlagStyle::Python).map_err(|e| e.to_string())
        })
        .map_err(invalid)?;
    if let Some((file, format)) = read.describe_as {
        audit.report.input.file = file;
        audit.report.input.format = format;
    }
    Ok(FileAudit { audit })
}
