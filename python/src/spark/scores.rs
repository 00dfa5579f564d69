//! The exact score metrics (AUC, KS, partial SP) of a Spark audit by a distributed sweep: rows
//! range-partitioned by score, each range swept from the totals of the ranges above it
//! (`fair_metrics::score_sweep::{SegmentRows, sweep_segment, SegmentScores}`), the segments merged
//! from the highest range down. Only bytes cross the Python boundary.

use crate::convert::{BinaryArray, contiguous, i64_as_usize, weights_slice};
use crate::errors::{invalid, to_py_err};
use fair_audit::SliceDef;
use fair_audit::finest::FinestGroups;
use fair_audit::ingest::GROUP_SEPARATOR;
use fair_metrics::partial::PercentileInterval;
use fair_metrics::score_sweep::{
    SegmentRows, SegmentScores, SliceMap, StreamTotals, SweepSettings,
};
use numpy::PyReadonlyArray1;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Adds the score-segment functions to `fairkit._core.spark`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ScoreSegment>()?;
    m.add_function(wrap_pyfunction!(merge_score_totals, m)?)?;
    m.add_function(wrap_pyfunction!(merge_segments, m)?)?;
    Ok(())
}

/// The finest-group slice of `names`.
fn finest(names: Vec<String>) -> SliceMap {
    let group_of = (0..names.len()).collect();
    SliceMap { names, group_of }
}

/// The slices every score sweep of an audit computes, from the finest group names (the values
/// of the `n_sensitive` columns joined by `\x1f`): first the finest groups themselves (what
/// `AuditResult` reports), then, with two or more columns, each column and their intersection
/// named as the `fairkit audit` command names them (what the CLI-style report needs). With one
/// column the finest groups are that column's slice.
pub(super) fn audit_slices(
    names: Vec<String>,
    n_sensitive: usize,
) -> Result<Vec<SliceMap>, fair_audit::AuditError> {
    let mut slices = vec![finest(names.clone())];
    if n_sensitive >= 2 {
        let finest_groups = FinestGroups::parse(&names, n_sensitive, GROUP_SEPARATOR)?;
        let columns: Vec<String> = (0..n_sensitive).map(|i| i.to_string()).collect();
        for slice in SliceDef::all(&columns) {
            slices.push(finest_groups.slice_map(&slice));
        }
    }
    Ok(slices)
}

/// The settings of a segment sweep: partial SP on `interval` (none: not computed, as the
/// request's default), curves for the charts.
pub(super) fn settings(
    interval: Option<(f64, f64)>,
) -> Result<SweepSettings, fair_metrics::MetricError> {
    Ok(SweepSettings {
        interval: interval
            .map(|(alpha, beta)| PercentileInterval::new(alpha, beta))
            .transpose()?,
        curve_points: fair_audit::CURVE_POINTS,
    })
}

/// The score rows of one range partition (or of a whole table on one machine).
#[pyclass(module = "fairkit._core.spark")]
pub struct ScoreSegment {
    rows: Option<SegmentRows>,
}

impl ScoreSegment {
    fn rows(&mut self) -> PyResult<&mut SegmentRows> {
        self.rows
            .as_mut()
            .ok_or_else(|| invalid("this score segment was already swept"))
    }
}

#[pymethods]
impl ScoreSegment {
    /// An empty segment; `keep_rows=False` keeps only the totals (the first pass).
    #[new]
    fn new(weighted: bool, keep_rows: bool) -> Self {
        Self {
            rows: Some(SegmentRows::new(weighted, keep_rows)),
        }
    }

    /// Adds one batch: 0/1 labels (`bool` or `int64`), finest group codes (indices into the
    /// audit's group names), scores and optional weights (`float64`). Runs without the GIL.
    #[pyo3(signature = (y_true, group_codes, y_score, sample_weight=None))]
    fn update(
        &mut self,
        py: Python<'_>,
        y_true: BinaryArray<'_>,
        group_codes: PyReadonlyArray1<'_, i64>,
        y_score: PyReadonlyArray1<'_, f64>,
        sample_weight: Option<PyReadonlyArray1<'_, f64>>,
    ) -> PyResult<()> {
        let y = y_true.slice("label")?;
        let codes = contiguous(group_codes.as_slice(), "group codes")?;
        let s = contiguous(y_score.as_slice(), "score")?;
        let w = weights_slice(&sample_weight)?;
        let rows = self.rows()?;
        py.detach(|| {
            rows.add_batch(&y.to_usize(), s, &i64_as_usize(codes), w)
                .map_err(to_py_err)
        })
    }

    /// Adds one pyarrow record batch, decoded by `decoder` (a `PartitionState` whose groups are
    /// frozen to the audit's finest groups, so codes index the merged state's sorted names).
    /// Runs without the GIL.
    fn update_arrow(
        &mut self,
        py: Python<'_>,
        decoder: &mut super::PartitionState,
        batch: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let rb = crate::arrow_ffi::record_batch(batch)?;
        let dec = &mut decoder.decoder;
        let rows = self.rows()?;
        py.detach(|| {
            let d = dec.decode(&rb, None).map_err(to_py_err)?;
            let Some(scores) = &d.scores else {
                return Err(invalid(
                    "the score pass needs a decoder with a score column",
                ));
            };
            rows.add_batch(&d.labels, scores, &d.finest, d.weights.as_deref())
                .map_err(to_py_err)
        })
    }

    /// The totals of the rows added, as bytes.
    fn totals<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = self.rows()?.totals().to_bytes();
        Ok(PyBytes::new(py, &bytes))
    }

    /// Sweeps the rows as one segment below the rows `above` (totals bytes), with the totals
    /// of all rows `totals`, the audit's finest group names and its number of sensitive columns
    /// (the slices swept: [`audit_slices`]). Consumes the rows.
    #[pyo3(signature = (group_names, totals, above, partial_interval, n_sensitive=1))]
    fn sweep<'py>(
        &mut self,
        py: Python<'py>,
        group_names: Vec<String>,
        totals: &[u8],
        above: &[u8],
        partial_interval: Option<(f64, f64)>,
        n_sensitive: usize,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let slices = audit_slices(group_names, n_sensitive).map_err(to_py_err)?;
        let rows = self
            .rows
            .take()
            .ok_or_else(|| invalid("this score segment was already swept"))?;
        let bytes = py
            .detach(|| {
                let totals = StreamTotals::from_bytes(totals)?;
                let above = StreamTotals::from_bytes(above)?;
                let seg = rows.sweep(&slices, &totals, &above, &settings(partial_interval)?)?;
                Ok::<_, fair_metrics::MetricError>(seg.to_bytes())
            })
            .map_err(to_py_err)?;
        Ok(PyBytes::new(py, &bytes))
    }
}

/// Two partitions' score totals, merged exactly.
#[pyfunction]
fn merge_score_totals<'py>(py: Python<'py>, a: &[u8], b: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    let mut t = StreamTotals::from_bytes(a).map_err(to_py_err)?;
    t.merge(&StreamTotals::from_bytes(b).map_err(to_py_err)?)
        .map_err(to_py_err)?;
    Ok(PyBytes::new(py, &t.to_bytes()))
}

/// The segment `upper` followed by the next lower segment `lower`.
#[pyfunction]
fn merge_segments<'py>(
    py: Python<'py>,
    upper: &[u8],
    lower: &[u8],
) -> PyResult<Bound<'py, PyBytes>> {
    let mut s = SegmentScores::from_bytes(upper).map_err(to_py_err)?;
    s.merge_lower(&SegmentScores::from_bytes(lower).map_err(to_py_err)?)
        .map_err(to_py_err)?;
    Ok(PyBytes::new(py, &s.to_bytes()))
}
