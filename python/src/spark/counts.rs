//! The rates audit counted by Spark SQL (`fairkit/spark/_counts.py`): the driver turns the
//! aggregate's rows — one per (sensitive values, label, prediction, weight exponent), with a
//! `bigint` row count and `bigint` sums of 31-bit mantissa limbs — into the audit state that the
//! row-by-row path (`PartitionState`) builds, byte for byte. The aggregate rows go through the
//! command's decoder (label coder, column types, group names); anything the decoder or the
//! aggregate's irregularity key flags is reported back, and the Python side then runs the
//! row-by-row path, which gives the exact message (row, column, value).

use crate::convert::to_py;
use crate::errors::{invalid, to_py_err};
use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{Array, Int64Array, RecordBatch};
use fair_audit::ingest::{AuditState, CellCounts, Decoder, FlagStyle, LabelPair, Roles, Typing};
use fair_metrics::score_sweep::{
    ScaledSum, ScoreCell, counted_totals, score_key, stream_of, sweep_counted,
};
use fair_metrics::state::ExactSumParts;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use serde::Serialize;

/// Row count of an aggregate row.
const ROWS: &str = "__fk_rows";
/// The aggregate's extra grouping key: the weight's scale exponent `k` (weighted), plus
/// [`INFINITE_SQUARE`] when `w * w` overflows; or one of the irregularity codes.
const KEY: &str = "__fk_key";
/// Sums of the high (`m >> 31`) and low (`m & (2^31 - 1)`) limbs of the weights' mantissas.
const WEIGHT_HIGH: &str = "__fk_wh";
const WEIGHT_LOW: &str = "__fk_wl";
/// The same for the weights' `f64` squares.
const SQUARE_HIGH: &str = "__fk_qh";
const SQUARE_LOW: &str = "__fk_ql";
/// With a coarse exponent key the squares' mantissas reach 2^73: their bits from 2^62 up.
const SQUARE_TOP: &str = "__fk_qt";
/// The aggregate by score's coarse exponent key is a multiple of this (fewer groups; mantissas
/// below 2^62; the rates' aggregate keys the exact scale).
const KEY_STEP: i64 = 8;
/// Added to the key of rows whose weight's square overflows `f64` (`+inf`, as Rust's `w * w`).
const INFINITE_SQUARE: i64 = 5000;
/// Irregularity codes of the key (any of them sends the audit down the row-by-row path).
const BAD_WEIGHT: i64 = 100_001;
const BAD_SCORE: i64 = 100_002;
const NEGATIVE_ZERO_LABEL: i64 = 100_003;
/// Bits of the low limb.
const LOW_BITS: u32 = 31;

/// The layout the Spark SQL aggregate must produce, for `_counts.py` (one source of truth).
pub fn layout<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
    to_py(
        py,
        &Layout {
            rows: ROWS,
            key: KEY,
            weight_high: WEIGHT_HIGH,
            weight_low: WEIGHT_LOW,
            square_high: SQUARE_HIGH,
            square_low: SQUARE_LOW,
            square_top: SQUARE_TOP,
            key_step: KEY_STEP,
            infinite_square: INFINITE_SQUARE,
            bad_weight: BAD_WEIGHT,
            bad_score: BAD_SCORE,
            negative_zero_label: NEGATIVE_ZERO_LABEL,
            low_bits: i64::from(LOW_BITS),
        },
    )
}

/// [`layout`] as Python sees it (keys in this order: column names, then sentinel codes),
/// converted by [`to_py`](crate::convert::to_py).
#[derive(Serialize)]
struct Layout {
    rows: &'static str,
    key: &'static str,
    weight_high: &'static str,
    weight_low: &'static str,
    square_high: &'static str,
    square_low: &'static str,
    square_top: &'static str,
    key_step: i64,
    infinite_square: i64,
    bad_weight: i64,
    bad_score: i64,
    negative_zero_label: i64,
    low_bits: i64,
}

/// The scale exponent of `fl(w * w)` for a weight of scale exponent `kw`: with
/// `kw = max(floor(log2 w) - 53, -1074)`, or that rounded down to a multiple of [`KEY_STEP`]
/// (docs/spark.md, `_counts.py`), `fl(w * w) × 2^-kq` is an integer below 2^59, or 2^73.
fn square_scale(kw: i64) -> i64 {
    (2 * kw + 52).max(-1074)
}

/// The audit state of a counted aggregate, built on the driver.
#[pyclass(module = "fairkit._core.spark")]
pub struct CountedState {
    decoder: Decoder,
    state: AuditState,
    weighted: bool,
}

#[pymethods]
impl CountedState {
    /// An empty state for the columns named (`weighted`: the aggregate carries weight sums).
    #[new]
    #[pyo3(signature = (label, pred, sensitive, weighted, pos_label, neg_label=None, unknowns="error", unknown_values=Vec::new(), lead=0))]
    #[allow(clippy::too_many_arguments)] // mirrors PartitionState's keyword arguments
    fn new(
        label: String,
        pred: String,
        sensitive: Vec<String>,
        weighted: bool,
        pos_label: String,
        neg_label: Option<String>,
        unknowns: &str,
        unknown_values: Vec<String>,
        lead: usize,
    ) -> PyResult<Self> {
        let roles = Roles {
            label,
            pred: Some(pred),
            score: None,
            sensitive,
            weight: None,
            numeric: false,
            unlabeled: false,
            missing_groups: false,
            inferred: Vec::new(),
            proxy: None,
            rank: None,
            relevance: None,
            query: false,
        };
        let mut decoder = Decoder::new(
            roles,
            LabelPair {
                positive: pos_label.clone(),
                negative: neg_label,
            },
            "the DataFrame",
            Typing::Typed,
            FlagStyle::Python,
        )
        .map_err(to_py_err)?;
        decoder.set_unknowns(super::unknown_groups(unknowns, &unknown_values, lead)?);
        Ok(Self {
            decoder,
            state: AuditState::new(&pos_label, 1),
            weighted,
        })
    }

    /// Adds one batch of aggregate rows. Returns `None` when added, or why the rows cannot be
    /// counted this way (a bad value somewhere, which the row-by-row path names exactly); the
    /// state is then unchanged.
    fn add(&mut self, py: Python<'_>, batch: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let rb = crate::arrow_ffi::record_batch(batch)?;
        let weighted = self.weighted;
        let (decoder, state) = (&mut self.decoder, &mut self.state);
        py.detach(|| {
            let cells = match cells(&rb, weighted)? {
                Ok(c) => c,
                Err(why) => return Ok(Some(why)),
            };
            Ok(match state.add_counted(&rb, decoder, &cells) {
                Ok(()) => None,
                Err(e) => Some(e.to_string()),
            })
        })
    }

    /// The state's canonical encoding (as `PartitionState.to_bytes`).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.state.to_bytes())
    }
}

/// The score metrics of an audit from a Spark SQL aggregate of the score rows — one row per
/// (label value, sensitive values, score, weight exponent) with the same counts and limb sums
/// as the rates' aggregate — swept on the driver (`fair_metrics::score_sweep::sweep_counted`):
/// the result of the range-partitioned sweep with no row handed to Python. Used when the
/// scores take few distinct values (`_counts.py`).
#[pyclass(module = "fairkit._core.spark")]
pub struct CountedScores {
    decoder: Decoder,
    cells: Vec<ScoreCell>,
    weighted: bool,
}

#[pymethods]
impl CountedScores {
    /// An empty sweep for the columns named; `names` are the audit's finest groups (its counted
    /// state's, in order) and `neg_label` the negative label value that state learned.
    #[new]
    #[pyo3(signature = (label, score, sensitive, weighted, names, pos_label, neg_label=None, unknowns="error", unknown_values=Vec::new()))]
    #[allow(clippy::too_many_arguments)] // mirrors CountedState's keyword arguments
    fn new(
        label: String,
        score: String,
        sensitive: Vec<String>,
        weighted: bool,
        names: Vec<String>,
        pos_label: String,
        neg_label: Option<String>,
        unknowns: &str,
        unknown_values: Vec<String>,
    ) -> PyResult<Self> {
        let roles = Roles {
            label,
            pred: None,
            score: Some(score),
            sensitive,
            weight: None,
            numeric: false,
            unlabeled: false,
            missing_groups: false,
            inferred: Vec::new(),
            proxy: None,
            rank: None,
            relevance: None,
            query: false,
        };
        let mut decoder = Decoder::new(
            roles,
            LabelPair {
                positive: pos_label,
                negative: neg_label,
            },
            "the DataFrame",
            Typing::Typed,
            FlagStyle::Python,
        )
        .map_err(to_py_err)?;
        decoder.freeze_groups(&names);
        decoder.set_unknowns(super::unknown_groups(unknowns, &unknown_values, 0)?);
        Ok(Self {
            decoder,
            cells: Vec::new(),
            weighted,
        })
    }

    /// Adds one batch of aggregate rows. Returns `None` when added, or why the rows cannot be
    /// counted this way (the range-partitioned sweep then runs); the cells are then unchanged.
    fn add(&mut self, py: Python<'_>, batch: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let rb = crate::arrow_ffi::record_batch(batch)?;
        let weighted = self.weighted;
        let (decoder, cells) = (&mut self.decoder, &mut self.cells);
        py.detach(|| {
            let counted = match counted_rows(&rb, weighted)? {
                Ok(c) => c,
                Err(why) => return Ok(Some(why)),
            };
            let decoded = match decoder.decode(&rb, None) {
                Ok(d) => d,
                Err(e) => return Ok(Some(e.to_string())),
            };
            let Some(scores) = &decoded.scores else {
                return Err(invalid("the score aggregate has no score column"));
            };
            // --unknowns exclude: the aggregate rows set aside have no score cell.
            let aside: std::collections::HashSet<usize> =
                decoded.set_aside.iter().map(|&(r, _)| r).collect();
            let kept = counted
                .into_iter()
                .enumerate()
                .filter(|(r, _)| !aside.contains(r))
                .map(|(_, c)| c);
            for (i, (rows, weights)) in kept.enumerate() {
                cells.push(ScoreCell {
                    stream: stream_of(decoded.finest[i], decoded.labels[i]),
                    score: scores[i],
                    rows,
                    weights,
                });
            }
            Ok(None)
        })
    }

    /// The exact totals of the cells of each distinct "score", in descending order, as
    /// `[(score, totals bytes)]`: when the aggregate grouped by a score *range* number in place
    /// of the score (the range-partitioned sweep of continuous scores), every range's totals —
    /// the `above` totals of the ranges below it — with no pass over the rows. Consumes the cells.
    fn totals_by_score<'py>(
        &mut self,
        py: Python<'py>,
    ) -> PyResult<Vec<(f64, Bound<'py, PyBytes>)>> {
        let mut cells = std::mem::take(&mut self.cells);
        let weighted = self.weighted;
        let ranges = py
            .detach(|| {
                cells.sort_unstable_by_key(|c| std::cmp::Reverse(score_key(c.score)));
                cells
                    .chunk_by(|a, b| score_key(a.score) == score_key(b.score))
                    .map(|range| Ok((range[0].score, counted_totals(range, weighted)?.to_bytes())))
                    .collect::<Result<Vec<_>, fair_metrics::MetricError>>()
            })
            .map_err(to_py_err)?;
        Ok(ranges
            .into_iter()
            .map(|(score, bytes)| (score, PyBytes::new(py, &bytes)))
            .collect())
    }

    /// Sweeps the cells as one segment (the slices of `audit_slices`): the encoded
    /// `(segment, totals)` that the range-partitioned sweep's merged segments and totals are.
    #[pyo3(signature = (group_names, partial_interval, n_sensitive=1))]
    fn sweep<'py>(
        &mut self,
        py: Python<'py>,
        group_names: Vec<String>,
        partial_interval: Option<(f64, f64)>,
        n_sensitive: usize,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        let slices = super::scores::audit_slices(group_names, n_sensitive).map_err(to_py_err)?;
        let cells = std::mem::take(&mut self.cells);
        let weighted = self.weighted;
        let (segment, totals) = py
            .detach(|| {
                let settings = super::scores::settings(partial_interval)?;
                let (seg, totals) = sweep_counted(cells, weighted, &slices, &settings)?;
                Ok::<_, fair_metrics::MetricError>((seg.to_bytes(), totals.to_bytes()))
            })
            .map_err(to_py_err)?;
        Ok((PyBytes::new(py, &segment), PyBytes::new(py, &totals)))
    }
}

fn int_column<'a>(rb: &'a RecordBatch, name: &str) -> PyResult<Option<&'a Int64Array>> {
    match rb.column_by_name(name) {
        None => Ok(None),
        Some(a) => a
            .as_primitive_opt::<Int64Type>()
            .map(Some)
            .ok_or_else(|| invalid(format!("aggregate column {name} must be int64"))),
    }
}

/// What one aggregate row counted: its rows and, when weighted, the exact sums of its weights
/// and of their squares (`None`: a square overflowed to `+inf`) as integers times powers of two.
pub(crate) type Counted = (u64, Option<(ScaledSum, Option<ScaledSum>)>);

/// The counts of every aggregate row, or (inner `Err`) why they are not usable.
pub(crate) fn counted_rows(
    rb: &RecordBatch,
    weighted: bool,
) -> PyResult<Result<Vec<Counted>, String>> {
    let need = |name: &str| {
        int_column(rb, name)?.ok_or_else(|| invalid(format!("aggregate column {name} missing")))
    };
    let rows = need(ROWS)?;
    let key = int_column(rb, KEY)?;
    let sums = if weighted {
        Some([
            need(WEIGHT_HIGH)?,
            need(WEIGHT_LOW)?,
            need(SQUARE_HIGH)?,
            need(SQUARE_LOW)?,
        ])
    } else {
        None
    };
    // Only with a coarse exponent key (the aggregate by score): the squares' bits from 2^62.
    let top = int_column(rb, SQUARE_TOP)?;
    let mut out = Vec::with_capacity(rb.num_rows());
    for i in 0..rb.num_rows() {
        let k = key.map_or(0, |a| a.value(i));
        let why = match k {
            BAD_WEIGHT => Some("a weight is missing, NaN, infinite or negative"),
            BAD_SCORE => Some("a score is missing, NaN or infinite"),
            NEGATIVE_ZERO_LABEL => Some("a label or prediction is -0.0"),
            _ => None,
        };
        if let Some(why) = why {
            return Ok(Err(why.into()));
        }
        let n = u64::try_from(rows.value(i)).unwrap_or(0);
        if rows.is_null(i) || n == 0 {
            return Err(invalid("an aggregate row without rows"));
        }
        let weights = match &sums {
            None => None,
            Some(cols) => {
                if cols.iter().copied().chain(top).any(|c| c.is_null(i)) {
                    // try_sum overflowed: more than 2^32 rows share one cell and exponent.
                    return Ok(Err(
                        "a mantissa limb sum passed 2^63 (over 2^32 rows of one cell share a weight exponent)".into(),
                    ));
                }
                let limb = |c: &Int64Array| {
                    u128::try_from(c.value(i)).map_err(|_| invalid("a negative mantissa sum"))
                };
                let whole = |hi: u128, lo: u128| (hi << LOW_BITS) + lo;
                let infinite = k >= INFINITE_SQUARE;
                let kw = if infinite { k - INFINITE_SQUARE } else { k };
                if !(-1074..=971).contains(&kw) {
                    return Err(invalid(format!(
                        "weight exponent {kw} outside the f64 range"
                    )));
                }
                let scale = |x: i64| i32::try_from(x).expect("checked range");
                let w = ScaledSum {
                    integer: whole(limb(cols[0])?, limb(cols[1])?),
                    exponent: scale(kw),
                };
                let sq = (!infinite)
                    .then(|| {
                        Ok::<_, PyErr>(ScaledSum {
                            integer: (top.map_or(Ok(0), limb)? << (2 * LOW_BITS))
                                + whole(limb(cols[2])?, limb(cols[3])?),
                            exponent: scale(square_scale(kw)),
                        })
                    })
                    .transpose()?;
                Some((w, sq))
            }
        };
        out.push((n, weights));
    }
    Ok(Ok(out))
}

/// The counts of every aggregate row as the audit state's cells, or (inner `Err`) why they
/// are not usable.
fn cells(rb: &RecordBatch, weighted: bool) -> PyResult<Result<Vec<CellCounts>, String>> {
    let counted = match counted_rows(rb, weighted)? {
        Ok(c) => c,
        Err(why) => return Ok(Err(why)),
    };
    let parts = |s: &ScaledSum| {
        let mut p = ExactSumParts::new();
        p.add_scaled(s.integer, s.exponent).map_err(to_py_err)?;
        Ok::<_, PyErr>(p)
    };
    let mut out = Vec::with_capacity(counted.len());
    for (rows, weights) in counted {
        let weights = match weights {
            None => None,
            Some((w, sq)) => {
                let sq = match sq {
                    Some(s) => parts(&s)?,
                    None => {
                        let mut p = ExactSumParts::new();
                        p.add_infinity();
                        p
                    }
                };
                Some((parts(&w)?, sq))
            }
        };
        out.push(CellCounts { rows, weights });
    }
    Ok(Ok(out))
}
