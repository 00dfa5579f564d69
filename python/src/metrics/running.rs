//! `fairkit._core.metrics.ConfusionState`: the audit's mergeable per-group confusion state
//! ([`fair_metrics::state::ConfusionState`]) for `fairkit.metrics.RunningMetrics`, a
//! `MetricFrame` of the recognised rates fed batch by batch.
//!
//! Groups are keyed by name (the Python layer's canonical encoding of a group's feature
//! values); weighted cells are exact sums, so [`RunningState::rates`] gives the counts, and the
//! rates, a one-shot `MetricFrame` computes on all the rows, bit for bit, whatever the batches
//! and the merge order.

use super::{Counted, GroupRates};
use crate::convert::{BinaryArray, contiguous, i64_as_usize, weights_slice};
use crate::errors::{invalid, to_py_err};
use fair_metrics::state::ConfusionState;
use fair_metrics::{CellSums, MetricError};
use numpy::PyReadonlyArray1;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Adds [`RunningState`] to `fairkit._core.metrics`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RunningState>()
}

/// Per-group confusion cells that merge exactly (see the module docs).
#[pyclass(module = "fairkit._core.metrics", name = "ConfusionState")]
#[derive(Clone, Default)]
pub struct RunningState {
    state: ConfusionState,
}

#[pymethods]
impl RunningState {
    /// An empty state.
    #[new]
    fn new() -> Self {
        Self::default()
    }

    /// Adds one batch: 0/1 labels and predictions (`int64` or `bool`), each row's group as a
    /// code into `names`, optional weights (finite, `>= 0`). On error the state is unchanged.
    #[pyo3(signature = (y_true, y_pred, codes, names, sample_weight=None))]
    fn update(
        &mut self,
        py: Python<'_>,
        y_true: BinaryArray<'_>,
        y_pred: BinaryArray<'_>,
        codes: PyReadonlyArray1<'_, i64>,
        names: Vec<String>,
        sample_weight: Option<PyReadonlyArray1<'_, f64>>,
    ) -> PyResult<()> {
        let yt = y_true.slice("y_true")?;
        let yp = y_pred.slice("y_pred")?;
        let w = weights_slice(&sample_weight)?;
        let codes = i64_as_usize(contiguous(codes.as_slice(), "group codes")?);
        let state = &mut self.state;
        py.detach(|| state.update_coded(&yt.to_usize(), &yp.to_usize(), &codes, &names, w))
            .map_err(|e| match e {
                // The crate says "sample weights"; the Python parameter is `sample_weight`.
                MetricError::NonFinite { .. }
                | MetricError::NegativeWeight { .. }
                | MetricError::InvalidParameter {
                    name: "sample weights",
                    ..
                } => invalid(format!("sample_weight: {e}")),
                e => to_py_err(e),
            })
    }

    /// Adds another state's rows (exact: any merge order gives the same bytes).
    fn merge(&mut self, other: PyRef<'_, Self>) -> PyResult<()> {
        self.state.merge(&other.state).map_err(to_py_err)
    }

    /// An independent copy.
    fn copy(&self) -> Self {
        self.clone()
    }

    /// Canonical bytes (equal states give equal bytes).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.state.to_bytes())
    }

    /// Decodes [`to_bytes`](Self::to_bytes); a `FairkitError` for anything else.
    #[staticmethod]
    fn from_bytes(data: &[u8]) -> PyResult<Self> {
        Ok(Self {
            state: ConfusionState::from_bytes(data).map_err(to_py_err)?,
        })
    }

    /// Group names, sorted.
    fn group_names(&self) -> Vec<String> {
        self.state.group_names()
    }

    /// Rows of each named group (0 for `None` or an unknown name).
    fn rows(&self, names: Vec<Option<String>>) -> Vec<u64> {
        names
            .iter()
            .map(|n| n.as_deref().and_then(|n| self.state.rows(n)).unwrap_or(0))
            .collect()
    }

    /// Total rows added.
    #[getter]
    fn total_rows(&self) -> u64 {
        self.state.total_rows()
    }

    /// Whether the rows are weighted (`False` while empty).
    #[getter]
    fn is_weighted(&self) -> bool {
        self.state.is_weighted()
    }

    /// The counts as `GroupRates` over the declared groups `order` (a group name, or `None`
    /// for a combination without rows), named `labels` in errors: the groups in the order a
    /// one-shot `MetricFrame` declares them, so its pooled (overall) counts add up in the same
    /// order. Every group of the state must be in `order`.
    fn rates(&self, order: Vec<Option<String>>, labels: Vec<String>) -> PyResult<GroupRates> {
        if order.len() != labels.len() {
            return Err(invalid(format!(
                "{} groups but {} labels",
                order.len(),
                labels.len()
            )));
        }
        let has_rows: Vec<bool> = order
            .iter()
            .map(|name| {
                name.as_deref()
                    .is_some_and(|n| self.state.rows(n).is_some())
            })
            .collect();
        let found = has_rows.iter().filter(|&&h| h).count();
        if found != self.state.group_names().len() {
            return Err(invalid(format!(
                "the state has {} groups, {found} of them declared",
                self.state.group_names().len()
            )));
        }
        let counted = match self.state.pooled_cell_sums() {
            Some(pooled) => Counted::Weighted(
                order
                    .iter()
                    .map(|n| {
                        n.as_deref()
                            .and_then(|n| self.state.cell_sums(n))
                            .unwrap_or(CellSums([0.0; 16]))
                    })
                    .collect(),
                pooled,
            ),
            None => Counted::Rows(
                order
                    .iter()
                    .map(|n| {
                        n.as_deref()
                            .and_then(|n| self.state.group_counts(n))
                            .unwrap_or_default()
                    })
                    .collect(),
            ),
        };
        GroupRates::keep_groups_with_rows(counted, &has_rows, labels).map_err(to_py_err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fair_metrics::Rate;

    #[test]
    fn rates_follow_the_declared_order_and_keep_absent_groups() {
        let names: Vec<String> = ["[\"b\"]", "[\"a\"]"].map(String::from).to_vec();
        let mut s = RunningState::default();
        s.state
            .update_coded(
                &[1, 1, 0],
                &[1, 0, 1],
                &[0, 1, 1],
                &names,
                Some(&[1.0, 2.0, 4.0]),
            )
            .unwrap();
        let order = vec![Some(names[1].clone()), None, Some(names[0].clone())];
        let labels = vec!["a".into(), "-".into(), "b".into()];
        let r = s.rates(order.clone(), labels.clone()).unwrap();
        let sel = r.fairlearn_summary(Rate::Selection).unwrap();
        // a: selected weight 4 of 6; b: 1 of 1; overall 5 of 7.
        assert_eq!(sel.by_group[0].to_bits(), (4.0_f64 / 6.0).to_bits());
        assert!(sel.by_group[1].is_nan());
        assert_eq!(sel.by_group[2].to_bits(), 1.0_f64.to_bits());
        assert_eq!(sel.overall.to_bits(), (5.0_f64 / 7.0).to_bits());
        assert_eq!(s.rows(order.clone()), vec![2, 0, 1]);
        // A group of the state left out of the order is an error, not a silent drop.
        assert!(s.rates(vec![order[0].clone()], vec!["a".into()]).is_err());
        assert!(s.rates(order, vec![]).is_err());
    }
}
