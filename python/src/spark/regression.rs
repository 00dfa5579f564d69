//! The audit of a numeric prediction (`target=`) on Spark without collecting rows: each
//! partition's rows decoded by the command's decoder into exact regression sums per value range
//! of the prediction (`RegressionPart`, first pass), then, after one shuffle that gives each
//! range a partition, each range's predictions sorted and swept from the exact totals of the
//! ranges above it (`fair_metrics::distribution::sweep_segment`); the driver merges the
//! segments from the top (`regression_document`) and builds the command's report. Only bytes
//! cross the Python boundary; the driver holds per-range and per-group sums, never rows.

use crate::convert::to_py;
use crate::errors::{invalid, to_py_err};
use fair_audit::AuditError;
use fair_audit::SliceDef;
use fair_audit::compute::slice_map;
use fair_audit::ingest::{
    AuditState, Decoder, FlagStyle, GROUP_SEPARATOR, LabelPair, Roles, Typing,
};
use fair_audit::run::{
    DistributionSlices, Inputs, Origin, ScoreSlices, ScoreSource, States, WindowedDistributions,
};
use fair_metrics::distribution::{DistributionSegment, DistributionSettings, sweep_segment};
use fair_metrics::regression::RegressionState;
use fair_metrics::score_sweep::{
    Run, SliceMap, SliceScores, StreamTotals, score_key, sort_weighted, stream_of,
};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Adds the regression functions to `fairkit._core.spark`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RegressionPart>()?;
    m.add_function(wrap_pyfunction!(merge_regression, m)?)?;
    m.add_function(wrap_pyfunction!(regression_names, m)?)?;
    m.add_function(wrap_pyfunction!(regression_totals, m)?)?;
    m.add_function(wrap_pyfunction!(regression_document, m)?)?;
    Ok(())
}

/// The range of a prediction among descending `cuts`: 0 for `p >= cuts[0]`, `r` for
/// `cuts[r-1] > p >= cuts[r]` (the rule of `_counts.range_sql`, which numbers the rows for
/// the shuffle; `-0.0` is `0.0` in both).
fn range_of(cuts: &[f64], p: f64) -> usize {
    let p = p + 0.0;
    cuts.iter().position(|&c| p >= c).unwrap_or(cuts.len())
}

/// The report's slices (each sensitive column, then their intersection) over the finest
/// groups `names` (sorted), as the command maps them.
fn maps(names: &[String], n_sensitive: usize) -> Vec<SliceMap> {
    let parts: Vec<Vec<String>> = names
        .iter()
        .map(|n| {
            n.splitn(n_sensitive.max(1), GROUP_SEPARATOR)
                .map(str::to_string)
                .collect()
        })
        .collect();
    let columns: Vec<String> = (0..n_sensitive).map(|i| i.to_string()).collect();
    SliceDef::all(&columns)
        .iter()
        .map(|s| slice_map(s, &parts))
        .collect()
}

/// One partition's rows of a regression audit. First pass: per prediction range, the exact
/// regression sums of the rows decoded (and the rows set aside as unknown); second pass (the
/// decoder's groups frozen to the audit's): one range's predictions, kept for its sweep.
#[pyclass(module = "fairkit._core.spark")]
pub struct RegressionPart {
    decoder: Decoder,
    set_aside: AuditState,
    cuts: Vec<f64>,
    ranges: Vec<RegressionState>,
    /// Per range, its lowest prediction.
    lowest: Vec<Option<f64>>,
    /// Second pass: per finest code, `(score key, weight)` of the rows.
    kept: Vec<Vec<(u64, f64)>>,
}

#[pymethods]
impl RegressionPart {
    /// An empty part for the columns named; `origin` names the rows in messages; `cuts` the
    /// descending cut points of the prediction ranges.
    #[new]
    #[pyo3(signature = (target, pred, sensitive, weight=None, origin="Spark partition".to_string(), unknowns="error", unknown_values=Vec::new(), cuts=Vec::new()))]
    #[allow(clippy::too_many_arguments)] // mirrors the Python keyword arguments one to one
    fn new(
        target: String,
        pred: String,
        sensitive: Vec<String>,
        weight: Option<String>,
        origin: String,
        unknowns: &str,
        unknown_values: Vec<String>,
        cuts: Vec<f64>,
    ) -> PyResult<Self> {
        if sensitive.is_empty() {
            return Err(invalid(
                "sensitive is empty: name at least one sensitive-feature column",
            ));
        }
        if cuts.iter().any(|c| !c.is_finite()) || cuts.windows(2).any(|w| w[0] <= w[1]) {
            return Err(invalid("cuts must be finite and strictly descending"));
        }
        let roles = Roles {
            label: target,
            pred: Some(pred),
            score: None,
            sensitive,
            weight,
            numeric: true,
            unlabeled: false,
            missing_groups: false,
            rank: None,
            relevance: None,
            query: false,
            inferred: Vec::new(),
            proxy: None,
        };
        let mut decoder = Decoder::new(
            roles,
            LabelPair {
                positive: "1".into(),
                negative: None,
            },
            &origin,
            Typing::Typed,
            FlagStyle::Python,
        )
        .map_err(to_py_err)?;
        decoder.set_unknowns(super::unknown_groups(unknowns, &unknown_values, 0)?);
        let n = cuts.len() + 1;
        Ok(Self {
            decoder,
            set_aside: AuditState::new("1", 1),
            cuts,
            ranges: vec![RegressionState::new(); n],
            lowest: vec![None; n],
            kept: Vec::new(),
        })
    }

    /// Checks that the batch's schema has every column, typed for its role.
    fn check(&self, batch: &Bound<'_, PyAny>) -> PyResult<()> {
        let rb = crate::arrow_ffi::record_batch(batch)?;
        self.decoder.check_schema(&rb.schema()).map_err(to_py_err)
    }

    /// First pass: adds one pyarrow batch to its ranges' sums (without the GIL).
    fn update(&mut self, py: Python<'_>, batch: &Bound<'_, PyAny>) -> PyResult<()> {
        let rb = crate::arrow_ffi::record_batch(batch)?;
        let Self {
            decoder,
            set_aside,
            cuts,
            ranges,
            lowest,
            ..
        } = self;
        py.detach(|| {
            let d = decoder.decode(&rb, None).map_err(to_py_err)?;
            set_aside.add_set_aside(&d, decoder).map_err(to_py_err)?;
            let (Some(y), Some(p)) = (&d.targets, &d.predictions) else {
                return Err(invalid(
                    "a regression part needs a numeric target and prediction",
                ));
            };
            let w = d.weights.as_deref();
            // The batch's rows by range, each range's rows added in one call.
            let mut by_range: Vec<Vec<usize>> = vec![Vec::new(); cuts.len() + 1];
            for (i, &x) in p.iter().enumerate() {
                let r = range_of(cuts, x);
                by_range[r].push(i);
                let x = x + 0.0;
                if lowest[r].is_none_or(|l| x < l) {
                    lowest[r] = Some(x);
                }
            }
            for (r, rows) in by_range.iter().enumerate() {
                if rows.is_empty() {
                    continue;
                }
                let pick = |v: &[f64]| rows.iter().map(|&i| v[i]).collect::<Vec<f64>>();
                let codes: Vec<usize> = rows.iter().map(|&i| d.finest[i]).collect();
                let ws = w.map(pick);
                ranges[r]
                    .update_coded(
                        &pick(y),
                        &pick(p),
                        &codes,
                        decoder.finest_names(),
                        ws.as_deref(),
                    )
                    .map_err(to_py_err)?;
            }
            Ok(())
        })
    }

    /// First pass's result: `(set-aside audit state, [(range, lowest prediction, sums)])` for
    /// the ranges with rows, as bytes.
    #[allow(clippy::type_complexity)]
    fn parts<'py>(
        &self,
        py: Python<'py>,
    ) -> (Bound<'py, PyBytes>, Vec<(usize, f64, Bound<'py, PyBytes>)>) {
        let ranges = self
            .ranges
            .iter()
            .zip(&self.lowest)
            .enumerate()
            .filter_map(|(r, (s, low))| low.map(|low| (r, low, PyBytes::new(py, &s.to_bytes()))))
            .collect();
        (PyBytes::new(py, &self.set_aside.to_bytes()), ranges)
    }

    /// For the second pass: finest groups are looked up among `names` (the merged sums',
    /// sorted) and never added.
    fn freeze_groups(&mut self, names: Vec<String>) {
        self.decoder.freeze_groups(&names);
        self.kept = vec![Vec::new(); names.len()];
    }

    /// Second pass: keeps one pyarrow batch's predictions by group (without the GIL).
    fn keep(&mut self, py: Python<'_>, batch: &Bound<'_, PyAny>) -> PyResult<()> {
        let rb = crate::arrow_ffi::record_batch(batch)?;
        let Self { decoder, kept, .. } = self;
        py.detach(|| {
            let d = decoder.decode(&rb, None).map_err(to_py_err)?;
            let Some(p) = &d.predictions else {
                return Err(invalid("a regression part needs a numeric prediction"));
            };
            for (i, (&x, &g)) in p.iter().zip(&d.finest).enumerate() {
                let w = d.weights.as_ref().map_or(1.0, |w| w[i]);
                let rows = kept
                    .get_mut(g)
                    .ok_or_else(|| invalid("keep() before freeze_groups()"))?;
                rows.push((score_key(x), w));
            }
            Ok(())
        })
    }

    /// Second pass's result: the kept rows swept as one segment (`DistributionSegment`
    /// bytes), from `above` (totals bytes of the ranges above) and `previous` (their lowest
    /// prediction); `totals` counts every row. Without the GIL.
    #[pyo3(signature = (names, n_sensitive, quantile, totals, above, previous))]
    #[allow(clippy::too_many_arguments)]
    fn sweep<'py>(
        &mut self,
        py: Python<'py>,
        names: Vec<String>,
        n_sensitive: usize,
        quantile: f64,
        totals: &[u8],
        above: &[u8],
        previous: Option<f64>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let mut kept = std::mem::take(&mut self.kept);
        let bytes = py
            .detach(|| {
                let totals = StreamTotals::from_bytes(totals)?;
                let above = StreamTotals::from_bytes(above)?;
                kept.iter_mut().for_each(|r| sort_weighted(r));
                let runs = kept
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| !r.is_empty())
                    .map(|(g, r)| Run::from_sorted_pairs(stream_of(g, 0), r))
                    .collect();
                let settings = DistributionSettings {
                    quantile,
                    curve_points: fair_audit::CURVE_POINTS,
                };
                let seg = sweep_segment(
                    &maps(&names, n_sensitive),
                    &totals,
                    &above,
                    previous,
                    runs,
                    &settings,
                )?;
                Ok::<_, fair_metrics::MetricError>(seg.to_bytes())
            })
            .map_err(to_py_err)?;
        Ok(PyBytes::new(py, &bytes))
    }
}

/// Two encoded regression states, merged exactly.
#[pyfunction]
fn merge_regression<'py>(py: Python<'py>, a: &[u8], b: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    let mut s = RegressionState::from_bytes(a).map_err(to_py_err)?;
    s.merge(&RegressionState::from_bytes(b).map_err(to_py_err)?);
    Ok(PyBytes::new(py, &s.to_bytes()))
}

/// `(finest group names (sorted), rows)` of an encoded regression state.
#[pyfunction]
fn regression_names(state: &[u8]) -> PyResult<(Vec<String>, u64)> {
    let s = RegressionState::from_bytes(state).map_err(to_py_err)?;
    let rows = s.rows().iter().map(|r| r.1).sum();
    Ok((s.names(), rows))
}

/// The sweep totals (`StreamTotals` bytes) of an encoded regression state over the finest
/// groups `names`.
#[pyfunction]
fn regression_totals<'py>(
    py: Python<'py>,
    state: &[u8],
    names: Vec<String>,
    weighted: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let s = RegressionState::from_bytes(state).map_err(to_py_err)?;
    Ok(PyBytes::new(
        py,
        &s.stream_totals(&names, weighted).to_bytes(),
    ))
}

/// The distributions of a Spark regression audit: the ranges' segments merged from the top.
struct MergedDistributions<'a> {
    names: &'a [String],
    totals: &'a StreamTotals,
    segments: &'a [Vec<u8>],
}

impl ScoreSource for MergedDistributions<'_> {
    type Error = AuditError;

    fn score_metrics(self, at: ScoreSlices<'_>) -> Result<Vec<SliceScores>, AuditError> {
        Err(AuditError::Input {
            name: "score metrics",
            reason: format!(
                "{} slices asked for score metrics of a regression audit",
                at.slices.len()
            ),
        })
    }

    fn distributions(
        self,
        at: DistributionSlices<'_>,
    ) -> Result<WindowedDistributions, AuditError> {
        let metric = |source| AuditError::Metric {
            what: "prediction distributions".into(),
            source,
        };
        if at.windows.is_some() {
            return Err(AuditError::Input {
                name: "prediction distributions",
                reason: "the distributed sweep has no --by windows".into(),
            });
        }
        let maps = maps(self.names, at.sensitive.len());
        if maps.len() != at.slices.len() {
            return Err(AuditError::Input {
                name: "prediction distributions",
                reason: format!("{} slices swept, {} reported", maps.len(), at.slices.len()),
            });
        }
        let mut merged: Option<DistributionSegment> = None;
        for bytes in self.segments {
            let seg = DistributionSegment::from_bytes(bytes, &maps, self.totals).map_err(metric)?;
            match merged.as_mut() {
                None => merged = Some(seg),
                Some(m) => m.merge_lower(seg).map_err(metric)?,
            }
        }
        let merged = merged.ok_or_else(|| AuditError::Input {
            name: "prediction distributions",
            reason: "no segment was swept".into(),
        })?;
        Ok((
            merged.finish(&maps, self.totals).map_err(metric)?,
            Vec::new(),
        ))
    }
}

/// The report of a regression audit swept on Spark, as `audit_document` returns it: `set_aside`
/// the merged audit state of the rows set aside as unknown, `regression` the merged sums of
/// every finest group (`None`: no row kept), `segments` each range's swept segment from the highest range down,
/// `rows` every data row read (set aside included).
#[pyfunction]
#[pyo3(signature = (set_aside, regression, segments, request, source, rows, views = None))]
#[allow(clippy::too_many_arguments)]
pub fn regression_document<'py>(
    py: Python<'py>,
    set_aside: Vec<u8>,
    regression: Option<Vec<u8>>,
    segments: Vec<Vec<u8>>,
    request: &Bound<'py, PyAny>,
    source: (String, String),
    rows: u64,
    views: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyAny>> {
    let request = super::document::checked_request(request)?;
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
    let weighted = request.request.weight.is_some();
    let text = py
        .detach(|| -> Result<fair_audit::Rendered, AuditError> {
            let state = AuditState::from_bytes(&set_aside)?;
            // No sums: every row was set aside (the run says so in the command's words).
            let sums = match &regression {
                None => RegressionState::new(),
                Some(b) => RegressionState::from_bytes(b).map_err(|source| AuditError::Metric {
                    what: "regression sums".into(),
                    source,
                })?,
            };
            let names = sums.names();
            let totals = sums.stream_totals(&names, weighted);
            let origin = Origin {
                file: source.0.clone(),
                format: source.1.clone(),
                rows,
                positive_label: String::new(),
                negative_label: None,
            };
            let audit = fair_audit::run(
                &request,
                Inputs {
                    states: States {
                        all_rows: &state,
                        by: None,
                        against: None,
                    },
                    scores: Some(MergedDistributions {
                        names: &names,
                        totals: &totals,
                        segments: &segments,
                    }),
                    origin,
                    regression: Some(&sums),
                    ranking: None,
                    inferred: None,
                },
                FlagStyle::Python,
            )?;
            fair_audit::render(&audit.report, &audit.charts, wanted)
        })
        .map_err(to_py_err)?;
    to_py(
        py,
        &super::document::RenderedOut {
            json: text.json,
            markdown: text.markdown,
            html: text.html,
            figures: text.figures,
        },
    )
}
