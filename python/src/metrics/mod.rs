//! `fairkit._core.metrics`: grouped confusion rates with fairlearn's conventions.
//!
//! The rates and gaps come from `fair_metrics` ([`GroupConfusion`], [`GroupSummary`]); this
//! module adds only what fairlearn defines differently and what Python needs:
//!
//! - **Zero denominators**: a group without positives has TPR 0 (sklearn's `nan_to_num`), i.e.
//!   [`ZeroDivision::Zero`].
//! - **Ratios of zeros**: fairlearn divides 0 by 0 and reports NaN where the crate reports 1
//!   (see [`fairlearn_ratios`]).
//! - **Absent groups**: several sensitive features span the Cartesian product of their values;
//!   combinations without rows are NaN rows (fairlearn's `reindex`), skipped by min/max/gaps.
//!
//! Every pass over the rows runs with the GIL released.

mod bootstrap;
mod disparity;
pub mod intervals;
mod multiclass;
mod pickling;
mod ranking;
mod regression;
mod running;
mod scores;

use crate::convert::{BinaryArray, contiguous, i64_as_usize, to_py, weights_slice};
use crate::errors::{invalid, to_py_err};
use fair_data::Groups;
use fair_metrics::{
    CellSums, ConfusionCounts, GroupCode, GroupConfusion, GroupSummary, MetricError, Rate,
    ZeroDivision,
};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use serde::Serialize;

/// Adds the metric functions and classes to `fairkit._core.metrics`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<GroupRates>()?;
    m.add_function(wrap_pyfunction!(group_rates, m)?)?;
    m.add_function(wrap_pyfunction!(group_rates_ids, m)?)?;
    m.add_function(wrap_pyfunction!(is_zero_one, m)?)?;
    m.add_function(wrap_pyfunction!(factorize_int, m)?)?;
    m.add_function(wrap_pyfunction!(aggregate_pair, m)?)?;
    scores::register(m)?;
    multiclass::register(m)?;
    regression::register(m)?;
    intervals::register(m)?;
    bootstrap::register(m)?;
    running::register(m)?;
    disparity::register(m)?;
    ranking::register(m)?;
    m.add("RATES", Rate::NAMES.to_vec())?;
    Ok(())
}

/// The [`Rate`] named `name` in Python.
pub fn rate_by_name(name: &str) -> PyResult<Rate> {
    name.parse()
        .map_err(|e: fair_core::ParseEnumError| invalid(e.to_string()))
}

/// A numpy `int64` array owned by Python.
type Int64Array<'py> = Bound<'py, PyArray1<i64>>;

/// True when every value is 0 or 1 (decides whether labels can be used without re-encoding).
#[pyfunction]
fn is_zero_one(py: Python<'_>, values: PyReadonlyArray1<'_, i64>) -> PyResult<bool> {
    let s = contiguous(values.as_slice(), "labels")?;
    Ok(py.detach(|| s.iter().all(|&v| (v as u64) <= 1)))
}

/// Sorted distinct values and the code (index into them) of every row; `None` for the codes
/// when the values already are their own codes (exactly `0..k` occur), so the caller can pass
/// the input array on without the allocation and copy of a new code array.
///
/// Small value ranges (the usual group ids) use a lookup table, two passes; wide ranges sort
/// the distinct values and binary-search each row.
#[pyfunction]
fn factorize_int<'py>(
    py: Python<'py>,
    values: PyReadonlyArray1<'py, i64>,
) -> PyResult<(Int64Array<'py>, Option<Int64Array<'py>>)> {
    let s = contiguous(values.as_slice(), "sensitive feature")?;
    let (uniques, codes) = py.detach(|| factorize_lazy(s));
    Ok((uniques.into_pyarray(py), codes.map(|c| c.into_pyarray(py))))
}

/// See [`factorize_int`]; always returns the codes.
pub fn factorize(values: &[i64]) -> (Vec<i64>, Vec<i64>) {
    let (uniques, codes) = factorize_lazy(values);
    let codes = codes.unwrap_or_else(|| values.to_vec());
    (uniques, codes)
}

/// See [`factorize_int`].
pub fn factorize_lazy(values: &[i64]) -> (Vec<i64>, Option<Vec<i64>>) {
    const TABLE_LIMIT: u64 = 1 << 20;
    let (Some(&lo), Some(&hi)) = (values.iter().min(), values.iter().max()) else {
        return (Vec::new(), Some(Vec::new()));
    };
    let span = hi.abs_diff(lo);
    if span < TABLE_LIMIT {
        let offset = |v: i64| v.abs_diff(lo) as usize;
        let mut rank = vec![-1_i64; span as usize + 1];
        for &v in values {
            rank[offset(v)] = 0;
        }
        let mut uniques = Vec::new();
        for (i, r) in rank.iter_mut().enumerate() {
            if *r == 0 {
                *r = uniques.len() as i64;
                uniques.push(lo + i as i64);
            }
        }
        if lo == 0 && uniques.len() as u64 == span + 1 {
            return (uniques, None);
        }
        let codes = values.iter().map(|&v| rank[offset(v)]).collect();
        (uniques, Some(codes))
    } else {
        let mut uniques = values.to_vec();
        uniques.sort_unstable();
        uniques.dedup();
        let codes = values
            .iter()
            // Every value is among the uniques, so the search always succeeds.
            .map(|v| uniques.binary_search(v).unwrap_or(0) as i64)
            .collect();
        (uniques, Some(codes))
    }
}

/// Per-group confusion counts of one set of rows, from which every rate summary is read.
///
/// Groups are the `names` (one per code, Cartesian product order for several features); groups
/// without rows are kept as NaN rows.
#[pyclass(frozen, module = "fairkit._core.metrics")]
pub struct GroupRates {
    confusion: GroupConfusion,
    /// For each declared group, its index in `confusion` (None = no rows).
    slot: Vec<Option<usize>>,
}

/// Counts `y_true` against `y_pred` (0/1, `int64` or `bool`) per group.
///
/// `codes` are group codes in `0..len(names)` (None = one group, for the ungrouped
/// functions); `sample_weight` finite and `>= 0`.
#[pyfunction]
#[pyo3(signature = (y_true, y_pred, codes, names, sample_weight=None))]
fn group_rates(
    py: Python<'_>,
    y_true: BinaryArray<'_>,
    y_pred: BinaryArray<'_>,
    codes: Option<PyReadonlyArray1<'_, i64>>,
    names: Vec<String>,
    sample_weight: Option<PyReadonlyArray1<'_, f64>>,
) -> PyResult<GroupRates> {
    let yt = y_true.slice("y_true")?;
    let yp = y_pred.slice("y_pred")?;
    let w = weights_slice(&sample_weight)?;
    let codes = codes
        .as_ref()
        .map(|c| contiguous(c.as_slice(), "sensitive feature codes"))
        .transpose()?;
    py.detach(|| GroupRates::build(&yt.to_usize(), &yp.to_usize(), codes, names, w))
        .map_err(to_py_err)
}

/// Counts `y_true` against `y_pred` per value of `ids` in one pass, when the values are small
/// non-negative integers and the labels 0/1; `None` otherwise (see
/// [`GroupRates::build_from_ids`]). Returns the ids that occur (sorted) and the counts.
/// The ids may be `int8`/`int16`/`int32` (a pandas categorical's codes, read as they are) or
/// `int64`.
/// A 1-D array of group ids of any signed integer width.
#[derive(FromPyObject)]
enum IdArray<'py> {
    I64(PyReadonlyArray1<'py, i64>),
    I32(PyReadonlyArray1<'py, i32>),
    I16(PyReadonlyArray1<'py, i16>),
    I8(PyReadonlyArray1<'py, i8>),
}

#[pyfunction]
#[pyo3(signature = (y_true, y_pred, ids, sample_weight=None))]
fn group_rates_ids<'py>(
    py: Python<'py>,
    y_true: BinaryArray<'_>,
    y_pred: BinaryArray<'_>,
    ids: IdArray<'_>,
    sample_weight: Option<PyReadonlyArray1<'_, f64>>,
) -> PyResult<Option<(Int64Array<'py>, GroupRates)>> {
    let yt = y_true.slice("y_true")?;
    let yp = y_pred.slice("y_pred")?;
    let w = weights_slice(&sample_weight)?;
    let what = "sensitive feature";
    let built = match &ids {
        IdArray::I64(a) => {
            let ids = i64_as_usize(contiguous(a.as_slice(), what)?);
            py.detach(|| GroupRates::build_from_ids(&yt.to_usize(), &yp.to_usize(), &ids, w))
        }
        IdArray::I32(a) => {
            let ids = contiguous(a.as_slice(), what)?;
            py.detach(|| GroupRates::build_from_ids(&yt.to_usize(), &yp.to_usize(), ids, w))
        }
        IdArray::I16(a) => {
            let ids = contiguous(a.as_slice(), what)?;
            py.detach(|| GroupRates::build_from_ids(&yt.to_usize(), &yp.to_usize(), ids, w))
        }
        IdArray::I8(a) => {
            let ids = contiguous(a.as_slice(), what)?;
            py.detach(|| GroupRates::build_from_ids(&yt.to_usize(), &yp.to_usize(), ids, w))
        }
    }
    .map_err(to_py_err)?;
    Ok(built.map(|(uniques, rates)| (uniques.into_pyarray(py), rates)))
}

impl GroupRates {
    /// Builds the counts; see [`group_rates`].
    pub fn build(
        y_true: &[usize],
        y_pred: &[usize],
        codes: Option<&[i64]>,
        names: Vec<String>,
        weights: Option<&[f64]>,
    ) -> Result<Self, MetricError> {
        let n_declared = names.len();
        // The codes are borrowed from the numpy buffer (no copy: at 1e7 rows a copy into an
        // owned `Groups` cost more than the counting pass itself).
        let zeros;
        let borrowed;
        let codes: &[usize] = match codes {
            Some(c) => {
                borrowed = i64_as_usize(c);
                &borrowed
            }
            None => {
                zeros = vec![0; y_true.len()];
                &zeros
            }
        };
        let counted = count(y_true, y_pred, codes, n_declared, weights)?;
        let has_rows = groups_with_rows(&counted, codes);
        Self::keep_groups_with_rows(counted, &has_rows, names)
    }

    /// The counts of one pass over rows whose single sensitive feature holds small
    /// non-negative integers (`0 <= id < 1024`, the common "group id" column), used directly as
    /// codes: no factorization pass and no label pre-check, so the rows are read once. Groups
    /// are the ids that occur, in increasing order (fairlearn's sorted group order); they are
    /// returned with the counts.
    ///
    /// `Ok(None)` when this shortcut does not apply — a label or prediction outside 0/1, or an
    /// id outside the range — so the caller takes the general path (which re-encodes labels
    /// such as {-1, 1} or reports the bad row). Other errors (weights) are returned as such.
    pub fn build_from_ids<C: GroupCode>(
        y_true: &[usize],
        y_pred: &[usize],
        ids: &[C],
        weights: Option<&[f64]>,
    ) -> Result<Option<(Vec<i64>, Self)>, MetricError> {
        const ID_LIMIT: usize = 1024;
        let counted = match count(y_true, y_pred, ids, ID_LIMIT, weights) {
            Ok(counted) => counted,
            Err(
                MetricError::LabelOutOfRange { .. }
                | MetricError::InvalidParameter {
                    name: "group code", ..
                },
            ) => return Ok(None),
            Err(e) => return Err(e),
        };
        let has_rows = groups_with_rows(&counted, ids);
        let uniques: Vec<i64> = (0..has_rows.len())
            .filter(|&id| has_rows[id])
            .map(|id| id as i64)
            .collect();
        let names = uniques.iter().map(|u| u.to_string()).collect();
        let kept = counted.only(&has_rows);
        let all = vec![true; uniques.len()];
        Ok(Some((
            uniques,
            Self::keep_groups_with_rows(kept, &all, names)?,
        )))
    }

    /// Keeps the groups with rows for the crate; the others stay declared (NaN rows for the
    /// caller). A group with rows but zero weight is still an error (from `from_counts`).
    fn keep_groups_with_rows(
        counted: Counted,
        has_rows: &[bool],
        names: Vec<String>,
    ) -> Result<Self, MetricError> {
        let mut slot = vec![None; names.len()];
        let mut kept_names = Vec::new();
        for (g, name) in names.into_iter().enumerate() {
            if has_rows[g] {
                slot[g] = Some(kept_names.len());
                kept_names.push(name);
            }
        }
        let confusion = match counted.only(has_rows) {
            Counted::Rows(counts) => GroupConfusion::from_counts(kept_names, counts)?,
            Counted::Weighted(sums, pooled) => {
                GroupConfusion::from_cell_sums(kept_names, sums, pooled)?
            }
        };
        Ok(Self { confusion, slot })
    }

    /// One rate overall and per declared group with fairlearn's conventions.
    pub fn fairlearn_summary(&self, rate: Rate) -> Result<FairlearnSummary, MetricError> {
        let s = self.confusion.summary(rate, ZeroDivision::Zero)?;
        let by_group = self
            .slot
            .iter()
            .map(|slot| slot.and_then(|k| s.by_group[k]).unwrap_or(f64::NAN))
            .collect();
        let (ratio, ratio_to_overall) = fairlearn_ratios(&s);
        Ok(FairlearnSummary {
            overall: s.overall,
            by_group,
            group_min: s.group_min,
            group_max: s.group_max,
            difference: s.difference,
            difference_to_overall: s.difference_to_overall,
            ratio,
            ratio_to_overall,
        })
    }
}

/// Per-group counts of one pass: row counts (integers, so adding groups is exact), or weighted
/// the exact sums of every union of cells per group and pooled, from which each rate is read as
/// an exactly rounded numerator over an exactly rounded denominator. Then a rate does not depend
/// on how the rows were grouped or batched: the metric function (all rows one group), a
/// `MetricFrame`'s groups and overall, and `RunningMetrics` fed the same rows in any batches give
/// the same bits.
pub(crate) enum Counted {
    Rows(Vec<ConfusionCounts>),
    Weighted(Vec<CellSums>, CellSums),
}

impl Counted {
    /// The groups flagged in `keep` (the pooled sums stay those of all rows).
    fn only(self, keep: &[bool]) -> Counted {
        fn pick<T>(items: Vec<T>, keep: &[bool]) -> Vec<T> {
            items
                .into_iter()
                .zip(keep)
                .filter_map(|(x, &k)| k.then_some(x))
                .collect()
        }
        match self {
            Counted::Rows(c) => Counted::Rows(pick(c, keep)),
            Counted::Weighted(s, pooled) => Counted::Weighted(pick(s, keep), pooled),
        }
    }
}

fn count<C: GroupCode>(
    y_true: &[usize],
    y_pred: &[usize],
    codes: &[C],
    n_groups: usize,
    weights: Option<&[f64]>,
) -> Result<Counted, MetricError> {
    match weights {
        None => {
            GroupConfusion::count_codes(y_true, y_pred, codes, n_groups, None).map(Counted::Rows)
        }
        Some(w) => GroupConfusion::count_codes_exact_sums(y_true, y_pred, codes, n_groups, w)
            .map(|(s, p)| Counted::Weighted(s, p)),
    }
}

/// Which groups have rows. Combinations of several features that never occur have none.
/// Unweighted, a zero total means no rows; weighted, a row of weight 0 still makes its group
/// present, so the codes are read once more (only then).
fn groups_with_rows<C: GroupCode>(counted: &Counted, codes: &[C]) -> Vec<bool> {
    match counted {
        Counted::Weighted(sums, _) => {
            let mut seen = vec![false; sums.len()];
            codes.iter().for_each(|&c| seen[c.index()] = true);
            seen
        }
        Counted::Rows(counts) => counts.iter().map(|c| c.total() > 0.0).collect(),
    }
}

/// A rate summarized as fairlearn's `MetricFrame` does (NaN for absent groups and 0/0 ratios).
/// Crosses to Python through [`to_py`] as the dict of [`GroupRates::summary`], `by_group` a
/// `float64` numpy array; `auc_by_group` returns ROC AUC in the same shape.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FairlearnSummary {
    /// The rate on all rows.
    pub overall: f64,
    /// The rate per declared group, NaN for a group without rows.
    #[serde(serialize_with = "crate::convert::numpy_f64")]
    pub by_group: Vec<f64>,
    /// Smallest group rate.
    pub group_min: f64,
    /// Largest group rate.
    pub group_max: f64,
    /// `group_max − group_min`.
    pub difference: f64,
    /// `max |rate_g − overall|`.
    pub difference_to_overall: f64,
    /// `group_min / group_max`, NaN when both are 0.
    pub ratio: f64,
    /// `min_g min(rate_g / overall, overall / rate_g)`, NaN when the overall rate is 0.
    pub ratio_to_overall: f64,
}

/// fairlearn's ratios from the crate's summary.
///
/// The crate reports a ratio of two zeros as 1 (no disparity); fairlearn computes `0 / 0` in
/// pandas and reports NaN. Between groups that happens exactly when the largest group rate is
/// 0. To the overall value, fairlearn divides each group by the overall rate: when that is 0,
/// every group rate is 0 too (rates are non-negative and the pooled numerator is the sum of the
/// group numerators), so every quotient is NaN and so is their minimum. Elsewhere the crate's
/// values are fairlearn's.
pub fn fairlearn_ratios(s: &GroupSummary) -> (f64, f64) {
    let ratio = if s.group_max > 0.0 { s.ratio } else { f64::NAN };
    let to_overall = if s.overall > 0.0 {
        s.ratio_to_overall
    } else {
        f64::NAN
    };
    (ratio, to_overall)
}

#[pymethods]
impl GroupRates {
    /// pickle's hook: rebuilt by `GroupRates._from_pickle(bytes)`.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let py = slf.py();
        let rebuild = py.get_type::<GroupRates>().getattr("_from_pickle")?;
        let bytes = PyBytes::new(py, &slf.get().to_pickle_bytes());
        Ok((rebuild, (bytes,)))
    }

    /// Rebuilds a pickled `GroupRates`; `FairkitError` when the bytes are damaged.
    #[staticmethod]
    fn _from_pickle(bytes: &[u8]) -> PyResult<Self> {
        Self::from_pickle_bytes(bytes)
    }

    /// Equal counts, groups and slots (the pickle round trip's check).
    fn __eq__(&self, other: &Self) -> bool {
        self.to_pickle_bytes() == other.to_pickle_bytes()
    }

    /// Number of declared groups (NaN rows included).
    #[getter]
    fn n_groups(&self) -> usize {
        self.slot.len()
    }

    /// `rate` overall and per group with its gaps, as a dict with keys `overall`, `by_group`
    /// (float64 array, NaN for groups without rows), `group_min`, `group_max`, `difference`,
    /// `difference_to_overall`, `ratio`, `ratio_to_overall`.
    fn summary<'py>(&self, py: Python<'py>, rate: &str) -> PyResult<Bound<'py, PyAny>> {
        let s = self
            .fairlearn_summary(rate_by_name(rate)?)
            .map_err(to_py_err)?;
        to_py(py, &s)
    }
}

/// Groups for the crates from codes over `names`, without the groups that have no rows (the
/// crates reject empty groups; intersections of several features often have some), plus the
/// declared index of every kept group.
pub fn present_groups(
    codes: &[i64],
    names: Vec<String>,
) -> Result<(Groups, Vec<usize>), MetricError> {
    let groups = Groups::new(i64_as_usize(codes).into_owned(), names)?;
    let counts = groups.counts();
    if !counts.contains(&0) {
        return Ok((groups, (0..counts.len()).collect()));
    }
    let kept = (0..counts.len()).filter(|&g| counts[g] > 0).collect();
    Ok((groups.compact(), kept))
}

/// The dict of a pairwise gap ([`pairwise_dict`]), in its key order.
#[derive(Serialize)]
struct PairwiseOut {
    /// Which metric this is.
    metric: &'static str,
    /// The largest gap over all pairs.
    value: f64,
    /// The pair attaining `value`, as indices into `groups`.
    worst_pair: (usize, usize),
    /// Declared group indices that have rows.
    groups: Vec<usize>,
    /// The `k × k` gaps, flat in row-major order (a 1-D `float64` numpy array).
    #[serde(serialize_with = "crate::convert::numpy_f64")]
    matrix: Vec<f64>,
}

/// A [`fair_metrics::PairwiseSummary`] as a dict: `metric`, `value` (max over pairs),
/// `worst_pair` (indices into `groups`), `groups` (declared group indices that have rows),
/// `matrix` (flat row-major `k × k` float64).
pub fn pairwise_dict<'py>(
    py: Python<'py>,
    s: &fair_metrics::PairwiseSummary,
    kept: Vec<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let k = s.names.len();
    let matrix = (0..k)
        .flat_map(|a| (0..k).map(move |b| (a, b)))
        .map(|(a, b)| s.matrix[(a, b)])
        .collect();
    to_py(
        py,
        &PairwiseOut {
            metric: s.metric,
            value: s.max,
            worst_pair: (s.worst_pair.first, s.worst_pair.second),
            groups: kept,
            matrix,
        },
    )
}

/// Combines the TPR and FPR gaps of equalized odds exactly as fairlearn 0.15 does.
///
/// `agg = "worst_case"`: Python's builtin `max` (differences) or `min` (ratios) over
/// `(first, second)` = (TPR gap, FPR gap), which keeps `first` unless `second` compares
/// strictly better, so a NaN first value wins and a NaN second value loses.
/// `agg = "mean"`: pandas' NaN-skipping mean.
#[pyfunction]
fn aggregate_pair(first: f64, second: f64, agg: &str, worst: &str) -> PyResult<f64> {
    match agg {
        "worst_case" => {
            let better = match worst {
                "max" => second > first,
                "min" => second < first,
                other => {
                    return Err(invalid(format!(
                        "worst must be 'max' or 'min', got {other:?}"
                    )));
                }
            };
            Ok(if better { second } else { first })
        }
        "mean" => Ok(match (first.is_nan(), second.is_nan()) {
            (false, false) => 0.5 * (first + second),
            (false, true) => first,
            (true, false) => second,
            (true, true) => f64::NAN,
        }),
        other => Err(invalid(format!(
            "agg must be one of 'worst_case' or 'mean', got {other:?}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factorize_small_and_wide_ranges_agree() {
        let small = [5_i64, -2, 5, 7, -2];
        let (u, c) = factorize(&small);
        assert_eq!(u, vec![-2, 5, 7]);
        assert_eq!(c, vec![1, 0, 1, 2, 0]);
        let wide = [i64::MAX, i64::MIN, 0, i64::MAX];
        let (u, c) = factorize(&wide);
        assert_eq!(u, vec![i64::MIN, 0, i64::MAX]);
        assert_eq!(c, vec![2, 0, 1, 2]);
        assert_eq!(factorize(&[]), (vec![], vec![]));
        // Values that are their own codes are not copied.
        assert_eq!(factorize_lazy(&[2, 0, 1, 1]), (vec![0, 1, 2], None));
        assert_eq!(factorize_lazy(&[2, 0, 2]).1, Some(vec![1, 0, 1]));
    }

    #[test]
    fn absent_groups_are_nan_rows() {
        let r = GroupRates::build(
            &[1, 0, 1, 1],
            &[1, 0, 0, 1],
            Some(&[0, 0, 2, 2]),
            vec!["a".into(), "b".into(), "c".into()],
            None,
        )
        .unwrap();
        let s = r.fairlearn_summary(Rate::TruePositive).unwrap();
        assert!(s.by_group[1].is_nan());
        assert_eq!(s.by_group[0].to_bits(), 1.0_f64.to_bits());
        assert_eq!(s.by_group[2].to_bits(), 0.5_f64.to_bits());
        assert!((s.difference - 0.5).abs() < 1e-15);
    }

    #[test]
    fn zero_ratios_are_nan_like_fairlearn() {
        let r = GroupRates::build(
            &[0, 0],
            &[0, 0],
            Some(&[0, 1]),
            vec!["a".into(), "b".into()],
            None,
        )
        .unwrap();
        let s = r.fairlearn_summary(Rate::Selection).unwrap();
        assert!(s.ratio.is_nan() && s.ratio_to_overall.is_nan());
        assert!(s.difference.abs() < 1e-15);
    }

    #[test]
    fn zero_weight_group_is_an_error() {
        let err = GroupRates::build(
            &[1, 0],
            &[1, 0],
            Some(&[0, 1]),
            vec!["a".into(), "b".into()],
            Some(&[1.0, 0.0]),
        )
        .err()
        .unwrap();
        assert!(err.to_string().contains("\"b\""), "{err}");
    }
}
