//! `fairkit._core.spark`: the Rust side of `fairkit.spark` — exact, mergeable audit states.
//!
//! A Spark job calls this module in three places, and only through bytes:
//!
//! 1. on each executor, [`PartitionState`] folds the partition's Arrow batches (as numpy views,
//!    converted in `fairkit/spark/_arrow.py`) into a `fair_metrics::state::ConfusionState` and
//!    hands back its canonical bytes (a score column takes two more passes over score ranges,
//!    `scores.rs`: a distributed sweep);
//! 2. anywhere (executors in a tree-reduce, or the driver), [`merge_states`] merges two encoded
//!    states — associative, commutative and bit-exact, so the partitioning and the merge order
//!    never change a number;
//! 3. on the driver, `audit_document` (`document.rs`) turns the final bytes into the schema-v1
//!    report of the `fairkit audit` command (`fair_audit::build_report`): every slice's rates
//!    with intervals, the gaps with bootstrap intervals and permutation p-values and, with
//!    scores, the exact AUC per group, KS (DP-Δ, EO-Δ) and partial SP. That report is the
//!    result (`fairkit/spark/_result.py` is a typed view of it).
//!
//! The single-machine path (`fairkit.spark.audit_arrow`) runs the same three calls on one
//! table, which is what makes "same numbers as one machine" a property of the state, not of
//! Spark.

mod document;
mod projection;
mod scores;

use crate::convert::{BinaryArray, contiguous, i64_as_usize, weights_slice};
use crate::errors::to_py_err;
use fair_data::Groups;
use fair_metrics::state::ConfusionState;
use numpy::{PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Adds the state functions to `fairkit._core.spark`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PartitionState>()?;
    m.add_function(wrap_pyfunction!(merge_states, m)?)?;
    m.add_function(wrap_pyfunction!(document::audit_document, m)?)?;
    projection::register(m)?;
    scores::register(m)?;
    Ok(())
}

/// The audit state of one partition (or of a whole table on one machine): confusion cells per
/// group. (Score metrics take their own passes: see `scores.rs`.)
#[pyclass(module = "fairkit._core.spark")]
pub struct PartitionState {
    confusion: ConfusionState,
}

#[pymethods]
impl PartitionState {
    /// An empty state.
    #[new]
    fn new() -> Self {
        Self {
            confusion: ConfusionState::new(),
        }
    }

    /// Adds one batch: 0/1 labels and predictions (`bool` or `int64`), group codes `0..k` into
    /// `group_names`, optional weights (`float64`). Runs without the GIL.
    #[pyo3(signature = (y_true, y_pred, group_codes, group_names, sample_weight=None))]
    fn update(
        &mut self,
        py: Python<'_>,
        y_true: BinaryArray<'_>,
        y_pred: BinaryArray<'_>,
        group_codes: PyReadonlyArray1<'_, i64>,
        group_names: Vec<String>,
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
        let confusion = &mut self.confusion;
        py.detach(|| {
            let codes = i64_as_usize(codes);
            let groups = Groups::new(codes.into_owned(), group_names).map_err(to_py_err)?;
            confusion
                .update(&y.to_usize(), &p.to_usize(), &groups, w)
                .map_err(to_py_err)
        })
    }

    /// The state's canonical encoding, to ship to the driver.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.confusion.to_bytes())
    }

    /// Rows added so far.
    fn total_rows(&self) -> u64 {
        self.confusion.total_rows()
    }
}

/// Merges two encoded confusion states into one. Decoding validates the bytes; the GIL is
/// released.
#[pyfunction]
fn merge_states<'py>(
    py: Python<'py>,
    left: Vec<u8>,
    right: Vec<u8>,
) -> PyResult<Bound<'py, PyBytes>> {
    let bytes = py.detach(|| {
        let mut a = ConfusionState::from_bytes(&left).map_err(to_py_err)?;
        a.merge(&ConfusionState::from_bytes(&right).map_err(to_py_err)?)
            .map_err(to_py_err)?;
        Ok::<_, PyErr>(a.to_bytes())
    })?;
    Ok(PyBytes::new(py, &bytes))
}
