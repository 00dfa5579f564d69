//! `fairkit._core.spark`: the Rust side of `fairkit.spark` — exact, mergeable audit states.
//!
//! A Spark job calls this module in three places, and only through bytes:
//!
//! 1. on each executor, [`PartitionState`] folds the partition's Arrow batches (as numpy views,
//!    converted in `fairkit/spark/_arrow.py`) into a `fair_metrics::state::ConfusionState` (and a
//!    `ScoreState` when a score column is audited) and hands back their canonical bytes;
//! 2. anywhere (executors in a tree-reduce, or the driver), [`merge_states`] merges two encoded
//!    states — associative, commutative and bit-exact, so the partitioning and the merge order
//!    never change a number;
//! 3. on the driver, [`audit_report`] turns the final bytes into the audit: every rate per group
//!    with its confidence interval, the gaps with bootstrap intervals and permutation p-values
//!    (`fair_metrics::ci`) and, with scores, the exact AUC per group, KS (DP-Δ, EO-Δ) and
//!    partial SP.
//!
//! The single-machine path (`fairkit.spark.audit_arrow`) runs the same three calls on one
//! table, which is what makes "same numbers as one machine" a property of the state, not of
//! Spark.

mod projection;
mod report;

use crate::convert::{BinaryArray, contiguous, i64_as_usize, weights_slice};
use crate::errors::{invalid, to_py_err};
use fair_data::Groups;
use fair_metrics::state::{ConfusionState, ScoreState};
use numpy::{PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Adds the state functions to `fairkit._core.spark`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PartitionState>()?;
    m.add_function(wrap_pyfunction!(merge_states, m)?)?;
    m.add_function(wrap_pyfunction!(audit_report, m)?)?;
    projection::register(m)?;
    Ok(())
}

/// The audit state of one partition (or of a whole table on one machine): confusion cells per
/// group, plus score multisets per group when the audit has a score column.
#[pyclass(module = "fairkit._core.spark")]
pub struct PartitionState {
    confusion: ConfusionState,
    scores: Option<ScoreState>,
}

#[pymethods]
impl PartitionState {
    /// An empty state; `with_scores` keeps a score state too.
    #[new]
    fn new(with_scores: bool) -> Self {
        Self {
            confusion: ConfusionState::new(),
            scores: with_scores.then(ScoreState::new),
        }
    }

    /// Adds one batch: 0/1 labels and predictions (`bool` or `int64`), group codes `0..k` into
    /// `group_names`, optional scores and weights (`float64`). Runs without the GIL.
    #[pyo3(signature = (y_true, y_pred, group_codes, group_names, y_score=None, sample_weight=None))]
    #[allow(clippy::too_many_arguments)] // mirrors the Python keyword arguments one to one
    fn update(
        &mut self,
        py: Python<'_>,
        y_true: BinaryArray<'_>,
        y_pred: BinaryArray<'_>,
        group_codes: PyReadonlyArray1<'_, i64>,
        group_names: Vec<String>,
        y_score: Option<PyReadonlyArray1<'_, f64>>,
        sample_weight: Option<PyReadonlyArray1<'_, f64>>,
    ) -> PyResult<()> {
        if y_true.is_empty() && y_pred.is_empty() && group_codes.len() == 0 {
            // An empty batch (empty partitions send none or zero-row ones) adds nothing.
            return Ok(());
        }
        let y = y_true.slice("label")?;
        let p = y_pred.slice("prediction")?;
        let codes = contiguous(group_codes.as_slice(), "group codes")?;
        let w = weights_slice(&sample_weight)?;
        let s = y_score
            .as_ref()
            .map(|a| contiguous(a.as_slice(), "score"))
            .transpose()?;
        if s.is_some() != self.scores.is_some() {
            return Err(invalid(
                "scores must be given to every update of a state created with_scores=True, and only then",
            ));
        }
        let Self { confusion, scores } = self;
        py.detach(|| {
            let codes = i64_as_usize(codes);
            let groups = Groups::new(codes.into_owned(), group_names).map_err(to_py_err)?;
            let y = y.to_usize();
            let mut next = confusion.clone();
            next.update(&y, &p.to_usize(), &groups, w)
                .map_err(to_py_err)?;
            if let (Some(state), Some(s)) = (scores.as_mut(), s) {
                state.update(&y, s, &groups, w).map_err(to_py_err)?;
            }
            *confusion = next;
            Ok(())
        })
    }

    /// `(confusion bytes, score bytes or None)`: the canonical encodings to ship to the driver.
    fn to_bytes<'py>(&self, py: Python<'py>) -> (Bound<'py, PyBytes>, Option<Bound<'py, PyBytes>>) {
        (
            PyBytes::new(py, &self.confusion.to_bytes()),
            self.scores
                .as_ref()
                .map(|s| PyBytes::new(py, &s.to_bytes())),
        )
    }

    /// Rows added so far.
    fn total_rows(&self) -> u64 {
        self.confusion.total_rows()
    }
}

/// Merges two encoded states `(confusion, scores)` into one (scores `None` on both sides when
/// the audit has no score column). Decoding validates the bytes; the GIL is released.
#[pyfunction]
#[pyo3(signature = (left, right))]
fn merge_states<'py>(
    py: Python<'py>,
    left: (Vec<u8>, Option<Vec<u8>>),
    right: (Vec<u8>, Option<Vec<u8>>),
) -> PyResult<(Bound<'py, PyBytes>, Option<Bound<'py, PyBytes>>)> {
    let (conf, scores) = py.detach(|| {
        let mut a = ConfusionState::from_bytes(&left.0).map_err(to_py_err)?;
        a.merge(&ConfusionState::from_bytes(&right.0).map_err(to_py_err)?)
            .map_err(to_py_err)?;
        let scores = match (left.1, right.1) {
            (None, None) => None,
            (Some(l), Some(r)) => {
                let mut s = ScoreState::from_bytes(&l).map_err(to_py_err)?;
                s.merge(&ScoreState::from_bytes(&r).map_err(to_py_err)?)
                    .map_err(to_py_err)?;
                Some(s.to_bytes())
            }
            _ => {
                return Err(invalid(
                    "cannot merge a state with scores and one without: audit the same columns in every partition",
                ));
            }
        };
        Ok::<_, PyErr>((a.to_bytes(), scores))
    })?;
    Ok((
        PyBytes::new(py, &conf),
        scores.map(|s| PyBytes::new(py, &s)),
    ))
}

pub use report::audit_report;
