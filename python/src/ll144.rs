//! `fairkit._core.ll144_files`: `fairkit.ll144(...)` reads CSV and Parquet files with the
//! `fairkit ll144` command's readers and computes its NYC Local Law 144 tables, so the tables
//! from Python are the command's, byte for byte in their CSV form.

use crate::convert::to_py;
use crate::errors::invalid;
use fair_audit::ingest::FlagStyle;
use fairkit_cli::cli::Ll144Args;
use fairkit_cli::input::Format;
use pyo3::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Adds `ll144_files` to the top-level `fairkit._core` module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ll144_files, m)?)
}

/// The keyword arguments of `fairkit.ll144`, as a dict.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Settings {
    sex: String,
    race: String,
    selected: Option<String>,
    selected_value: Option<String>,
    score: Option<String>,
    weight: Option<String>,
    unknown_values: Option<Vec<String>>,
    /// `None`: no exclusion.
    exclude_below: Option<f64>,
    data_source: Option<String>,
    audit_date: Option<String>,
    confidence: Option<f64>,
    delimiter: Option<String>,
    input_format: Option<String>,
    memory_budget: Option<String>,
    /// What the tables call the input instead of the files' paths (a table written to a
    /// temporary Parquet file).
    describe_as: Option<String>,
}

/// The tables in every form the command writes.
#[derive(Serialize)]
struct Tables {
    json: String,
    csv: BTreeMap<String, String>,
    markdown: String,
    html: String,
}

/// The LL144 tables of `inputs` (paths: files, folders of parts or patterns) under `settings`
/// (see [`Settings`]); errors name the Python keyword. The GIL is released while reading.
#[pyfunction]
#[pyo3(signature = (inputs, settings))]
fn ll144_files<'py>(
    py: Python<'py>,
    inputs: Vec<PathBuf>,
    settings: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    if inputs.is_empty() {
        return Err(invalid("data: no file given"));
    }
    let s: Settings = crate::convert::from_kwargs(settings, "fairkit.ll144", |p| format!("{p}="))?;
    let mut args = Ll144Args::with_defaults(inputs, &s.sex, &s.race);
    args.selected = s.selected;
    if let Some(v) = s.selected_value {
        args.selected_value = v;
    }
    args.score = s.score;
    args.weight = s.weight;
    if let Some(u) = s.unknown_values {
        args.unknown_values = u;
    }
    match s.exclude_below {
        Some(t) => args.exclude_below = t,
        None => args.no_exclusion = true,
    }
    args.data_source = s.data_source;
    args.audit_date = s.audit_date;
    if let Some(c) = s.confidence {
        args.confidence = c;
    }
    if let Some(d) = s.delimiter {
        args.delimiter = d;
    }
    args.input_format = match s.input_format.as_deref() {
        None => None,
        Some("csv") => Some(Format::Csv),
        Some("parquet") => Some(Format::Parquet),
        Some(other) => {
            return Err(invalid(format!(
                "invalid input_format '{other}': expected \"csv\" or \"parquet\""
            )));
        }
    };
    args.memory_budget = s.memory_budget;
    args.quiet = true;
    let mut report = py
        .detach(|| fairkit_cli::ll144::tables(&args, FlagStyle::Python).map_err(|e| e.to_string()))
        .map_err(invalid)?;
    if let Some(name) = s.describe_as {
        report.input = name;
    }
    let json = report
        .to_json()
        .map_err(|e| invalid(format!("the tables do not serialize: {e}")))?;
    let page = report.page();
    let tables = Tables {
        json,
        csv: report
            .tables
            .iter()
            .map(|t| (t.name.clone(), report.table_csv(t)))
            .collect(),
        markdown: page.to_markdown(),
        html: page.to_html(),
    };
    to_py(py, &tables)
}
